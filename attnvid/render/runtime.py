"""Runtime checks: is every part a render needs present, and if not, what fixes it.

Each check gives one line, ``ok``, ``missing`` (a needed part) or ``warning`` (an
optional part, or little free disk), with the exact command that fixes it.
``attnvid doctor`` prints them all (:func:`doctor_checks`); the other commands run the
runtime checks (:func:`require_runtime`) before they write anything and stop with the
same line, instead of a traceback from deep inside Manim.

There is no LaTeX check to pass: text and numbers are drawn with Pango in DejaVu
fonts, formulas are typeset by Typst (the ``typst`` package, a compiled wheel) in DejaVu
Math TeX Gyre. The ``math`` check finds both, and fails too when a scene imports one of
Manim's LaTeX-backed mobjects while ``latex``/``dvisvgm`` are absent.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attncore.i18n import english_name, viewer_language
from attnstage.speech.voices import PIPER_FIX, PiperVoice, VoiceError, voice_engine, voice_from_spec

from ..errors import UserError, storage_error, storage_message
from ..paths import foreign_packages, package_dir
from ..signals import reraise_signal

SETUP = "bash .ci/setup"
#: The fonts of ``scenes.theme`` (FONT, MONO); the theme imports manim, which may be the missing part.
FONTS = ("DejaVu Sans", "DejaVu Sans Mono")
MIN_PYTHON = (3, 11)
LOW_DISK_BYTES = 1 << 30  # a lecture at 1080p needs a few hundred MB, plus Manim's work files
#: Manim mobjects that typeset with LaTeX (DecimalNumber and the matrices draw their entries with MathTex).
TEX_MOBJECTS = frozenset({"Tex", "MathTex", "SingleStringMathTex", "Title", "BulletedList", "DecimalNumber",
                          "Integer", "Variable", "Matrix", "IntegerMatrix", "DecimalMatrix", "BraceLabel",
                          "BraceText", "MathTable", "DecimalTable", "IntegerTable"})


@dataclass(frozen=True)
class Check:
    """The outcome of one check. ``needed=False`` parts only warn."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    needed: bool = True

    @property
    def status(self) -> str:
        return "ok" if self.ok else "missing" if self.needed else "warning"

    def message(self) -> str:
        """The line shared by ``doctor`` and the commands that stop on this part."""
        fix = f"; fix: {self.fix}" if not self.ok and self.fix else ""
        return f"{self.name}: {self.detail}{fix}"


def _run(*cmd: str) -> str | None:
    """stdout of ``cmd``, or None when it is not installed or fails."""
    exe = shutil.which(cmd[0])
    if exe is None:
        return None
    r = subprocess.run([exe, *cmd[1:]], capture_output=True, text=True, timeout=30)
    return r.stdout.strip() if r.returncode == 0 else None


def check_python() -> Check:
    v = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] >= MIN_PYTHON:
        return Check("python", True, v)
    want = ".".join(map(str, MIN_PYTHON))
    return Check("python", False, f"{v} is too old (needs {want} or newer)",
                 f"apt-get install -y python3 python3-venv && rm -rf .venv && {SETUP}")


def _imports(check: str, module: str, what: str, found: Callable[[Any], str]) -> Check:
    """``check`` passes when ``module`` imports (saying ``found(module)``); else it says it cannot.
    Through ``__import__``, as an ``import`` statement goes (a test stands in for it)."""
    try:
        loaded = __import__(module)
    except Exception as exc:  # ImportError, or a broken install raising something else
        reraise_signal(exc)
        return Check(check, False, f"{what}cannot be imported ({exc})", SETUP)
    return Check(check, True, found(loaded))


def check_manim() -> Check:
    return _imports("manim", "manim", "", lambda m: str(m.__version__))


def check_cairo() -> Check:
    return _imports(
        "cairo", "cairo", "pycairo ", lambda m: f"pycairo {m.version} with cairo {m.cairo_version_string()}"
    )


def check_pango() -> Check:
    return _imports("pango", "manimpango", "manimpango ",
                    lambda m: f"manimpango {m.__version__} with Pango {m.pango_version()}")


def _pango_fonts() -> set[str] | None:
    """The font families Pango lists; None when manimpango does not load (the pango check says why)."""
    try:
        import manimpango

        return set(manimpango.list_fonts())
    except Exception as exc:
        reraise_signal(exc)
        return None


def check_build_libs() -> Check:
    """The development files .ci/setup needs to build pycairo and manimpango where no wheel fits."""
    if shutil.which("pkg-config") is None:
        return Check("build libraries", False, "pkg-config is not installed",
                     "apt-get install -y pkg-config libcairo2-dev libpango1.0-dev")
    found: list[str] = []
    missing: list[str] = []
    for lib, pkg in (("cairo", "libcairo2-dev"), ("pangocairo", "libpango1.0-dev")):
        v = _run("pkg-config", "--modversion", lib)
        (found if v else missing).append(f"{lib} {v}" if v else pkg)
    if missing:
        return Check("build libraries", False, "pkg-config does not find " + ", ".join(missing),
                     "apt-get install -y " + " ".join(missing))
    return Check("build libraries", True, ", ".join(found) + " (pkg-config)")


def tex_users(scenes_dir: Path | None = None) -> list[str]:
    """``file: Name`` for every LaTeX-backed mobject a module of the scenes (in any subfolder) imports from manim."""
    scenes_dir = package_dir("scenes") if scenes_dir is None else scenes_dir
    out = []
    for path in sorted(p for p in scenes_dir.rglob("*.py") if "__pycache__" not in p.parts):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "manim":
                out += [
                    f"{path.relative_to(scenes_dir).as_posix()}: {a.name}" for a in node.names if a.name in TEX_MOBJECTS
                ]
    return out


#: The maths font of ``scenes.theme`` (MATH_FONT), as Typst names it.
MATH_FONT = "DejaVu Math TeX Gyre"


def check_typst() -> Check | None:
    """None when Typst is installed and finds the maths font, else what is missing."""
    try:
        import typst
    except ImportError as exc:
        return Check("math", False, f"the typst package cannot be imported ({exc}); formulas are typeset by Typst",
                     SETUP)
    if MATH_FONT not in typst.Fonts().families():
        return Check("math", False, f"Typst does not find the maths font {MATH_FONT}",
                     "apt-get install -y fonts-dejavu-extra")
    return None


def check_math() -> Check:
    missing = check_typst()
    if missing is not None:
        return missing
    users = tex_users()
    if not users:
        return Check("math", True, f"formulas typeset by Typst in {MATH_FONT}; LaTeX is not needed")
    latex = [p for p in ("latex", "dvisvgm") if shutil.which(p) is None]
    if not latex:
        return Check("math", True, f"LaTeX found for {', '.join(users)}")
    return Check("math", False, f"{', '.join(users)} needs LaTeX but {' and '.join(latex)} is not installed",
                 "apt-get install -y texlive-latex-extra dvisvgm (or draw it with Text, as the other scenes do)")


def check_fonts(with_fontconfig: bool = True) -> Check:
    """The theme's fonts as Pango sees them, and (for doctor) the files fontconfig resolves them to."""
    fix = "apt-get install -y fonts-dejavu-core"
    pango = _pango_fonts()
    absent = [f for f in FONTS if pango is not None and f not in pango]
    if absent:
        return Check("fonts", False, f"{', '.join(absent)} not found by Pango", fix)
    if not with_fontconfig:
        return Check("fonts", True, ", ".join(FONTS))
    if shutil.which("fc-match") is None or shutil.which("fc-list") is None:
        return Check("fonts", False, "fc-match/fc-list (fontconfig) not found", "apt-get install -y fontconfig")
    files = []
    for family in FONTS:
        got = _run("fc-match", "-f", "%{family}|%{file}", family) or "|"
        fam, _, file = got.partition("|")
        if family not in fam.split(","):
            return Check("fonts", False, f"{family} is not installed (fc-match gives {fam or 'nothing'})", fix)
        files.append(Path(file).name)
    n = len((_run("fc-list", ":family=DejaVu Sans", "file") or "").splitlines())
    return Check("fonts", True, f"{', '.join(FONTS)} ({', '.join(files)}; {n} DejaVu Sans faces)")


def check_espeak(needed: bool) -> Check:
    """espeak-ng speaks ``--voice espeak``; without that voice it is optional."""
    why = "" if needed else " (needed only for --voice espeak)"
    if shutil.which("espeak-ng") is None:
        return Check("espeak-ng", False, f"not installed{why}", "apt-get install -y espeak-ng", needed=needed)
    v = re.search(r"\d+\.\d+\S*", _run("espeak-ng", "--version") or "")
    return Check("espeak-ng", True, f"{v.group() if v else 'found'}{why}")


def check_piper(needed: bool) -> Check:
    """Piper and onnxruntime (the ``attnvid[voice]`` extra) speak ``--voice piper``."""
    why = "" if needed else " (needed only for --voice piper)"
    try:
        import onnxruntime
        import piper  # noqa: F401  (its import is the check)
    except Exception as exc:  # ImportError, or a broken install raising something else
        reraise_signal(exc)
        return Check("piper", False, f"piper-tts cannot be imported ({exc}){why}", PIPER_FIX, needed=needed)
    from importlib.metadata import version

    return Check("piper", True, f"piper-tts {version('piper-tts')} with onnxruntime {onnxruntime.__version__}{why}")


def check_piper_voice(voice: str) -> Check:
    """The model ``--voice piper[:MODEL.onnx]`` speaks with, and its config beside it."""
    needed = voice_engine(voice) == "piper"
    why = "" if needed else " (needed only for --voice piper)"
    try:
        chosen = voice_from_spec(voice) if needed else None
    except VoiceError:
        chosen = None  # reported by the option that read --voice
    piper_voice = chosen if isinstance(chosen, PiperVoice) else PiperVoice()
    try:
        model, _ = piper_voice.files()
    except VoiceError as exc:
        return Check("piper voice", False, exc.detail + why, exc.fix, needed=needed)
    size = model.stat().st_size / 1e6
    return Check("piper voice", True, f"{model.name.removesuffix('.onnx')} ({size:.0f} MB, {model.parent}){why}")


#: The font Pango falls back to for Chinese text (Debian's fonts-noto-cjk): DejaVu has no CJK glyphs.
CJK_FONT = "Noto Sans CJK SC"
CJK_FIX = "apt-get install -y fonts-noto-cjk"


def check_cjk(needed: bool) -> Check:
    """A CJK font for a Chinese lesson (``language = "zh"`` or ``--language zh``); optional otherwise."""
    why = "" if needed else " (needed only for a Chinese lesson)"
    if CJK_FONT not in (_pango_fonts() or set()):
        return Check("CJK font", False, f"{CJK_FONT} not found by Pango{why}", CJK_FIX, needed=needed)
    return Check("CJK font", True, f"{CJK_FONT}{why}")


def check_language(voice: str, language: str) -> Check:
    """Whether the voice speaks the lesson's language: espeak-ng has every shipped language;
    Piper speaks the language of its model, and only the English one is bundled."""
    engine = voice_engine(voice)
    name = f"{english_name(language)} ({language})"
    if engine == "piper" and voice in ("piper", "piper:") and not language.startswith("en"):
        return Check("voice language", False,
                     f"only the English Piper voice (en_US-joe-medium) is bundled, not one for {name}",
                     f"give a {name} Piper model with --voice piper:MODEL.onnx, or use --voice espeak")
    if engine == "espeak" and shutil.which("espeak-ng") is not None:
        code = {"en": "en-us", "zh": "cmn"}.get(language, language)
        listed = _run("espeak-ng", f"--voices={code.split('-')[0]}") or ""
        if len(listed.splitlines()) < 2:
            return Check(
                "voice language", False, f"espeak-ng has no voice for {name}", "apt-get install -y espeak-ng-data"
            )
    return Check("voice language", True, f"{name}: {engine} speaks it" if engine != "none" else f"{name}: no voice")


def _existing(path: Path) -> Path:
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_disk(media: Path) -> Check:
    free = shutil.disk_usage(_existing(media)).free
    detail = f"{free / 1e9:.1f} GB free for {media}"
    if free >= LOW_DISK_BYTES:
        return Check("disk", True, detail)
    return Check("disk", False, f"{detail} (under 1 GB: a lecture and Manim's work files may not fit)",
                 "free some space on that disk, or render into another folder with --media DIR", needed=False)


def check_media(media: Path) -> Check:
    """Can we create files in ``media`` (or create ``media`` itself)? Tried for real, then removed."""
    where = _existing(media)
    if not where.is_dir():
        return Check(
            "media", False, f"{where} is not a folder", f"rm {where} (or give another folder with --media DIR)"
        )
    try:
        with tempfile.NamedTemporaryFile(dir=where, prefix=".attnvid-doctor-"):
            pass
    except OSError as exc:
        if storage_error(exc) is None:
            raise
        detail, _, fix = storage_message(exc, where).partition("; ")
        return Check("media", False, detail, fix.removeprefix("fix with: "))
    return Check(
        "media", True, f"{media} is writable" if where == media.absolute() else f"{media} can be created in {where}"
    )


def check_packages() -> Check:
    """attncore and scenes are attnvid's own, not another project's ``scenes`` first on the path
    (a folder of that name where Python or Manim starts, a PYTHONPATH, another distribution)."""
    problems = foreign_packages()
    if problems:
        return Check("packages", False, problems[0])  # the line says the fix
    return Check("packages", True, f"attncore and scenes beside attnvid in {package_dir('attnvid').parent}")


def doctor_checks(voice: str, media: Path, language: str = "en") -> list[Check]:
    engine = voice_engine(voice)
    return [
        check_python(),
        check_packages(),
        check_manim(),
        check_cairo(),
        check_pango(),
        check_build_libs(),
        check_math(),
        check_fonts(),
        check_cjk(viewer_language(language) == "zh"),
        check_espeak(engine == "espeak"),
        check_piper(engine == "piper"),
        check_piper_voice(voice),
        check_language(voice, language),
        check_disk(media),
        check_media(media),
    ]


@functools.cache
def require_runtime(voice: str = "none", language: str = "en") -> None:
    """Stop with the doctor's line when a part a render needs at run time is missing (for a
    lesson in ``language``: a CJK font for Chinese, a voice that speaks it)."""
    checks = [check_manim(), check_cairo(), check_pango(), check_fonts(with_fontconfig=False)]
    if viewer_language(language) == "zh":
        checks.append(check_cjk(True))
    if voice_engine(voice) != "none" and not language.startswith("en"):
        checks.append(check_language(voice, language))
    checks += [c for c in (check_typst(),) if c is not None]
    engine = voice_engine(voice)
    if engine == "espeak":
        checks.append(check_espeak(True))
    if engine == "piper":
        checks += [check_piper(True), check_piper_voice(voice)]
    for c in checks:
        if not c.ok:
            raise UserError(c.message(), code=1)
