"""Valid lessons as a lecturer might write them, drawn by hypothesis, and every path a lesson takes.

:func:`lessons` draws the TOML text of a lesson at and inside every bound of
:data:`attncore.lesson.LIMITS` (dimensions, words, contexts, heads, decimals), with ties,
zeros, negative values, long words and words in many scripts (Latin with diacritics,
Cyrillic, Greek, CJK, Arabic, Hebrew); :func:`every_path` takes one through what a lesson
goes through: ``values --json``, the claims (checked by test_claims' own evaluators),
``script``, ``exercises``, ``workbook``, the page's Try it data and, optionally, every
scene's build with the layout checks of 480p.

Used by tests/test_any_lesson.py; a lesson it finds failing is written to
tests/found_lessons/ and runs there ever after.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from attncore import trace_lesson
from attncore.lesson import LIMITS, LessonError, load_lesson

#: Words by script: short and long, each at most LIMITS["word_chars"] (a wide character counts two).
SCRIPTS: dict[str, list[str]] = {
    "latin": ["café", "über", "niño", "façade", "señal", "öl", "straße", "à", "ærø", "ça", "élan", "jäger",
              "Kaffeehausgä", "Überweisung", "Bankfilialen", "Geldautomat"],
    "cyrillic": ["мышь", "кот", "и", "клавиатура", "друзья", "полезны", "берег", "банк", "деньги"],
    "greek": ["ποντίκι", "γάτα", "και", "πληκτρολόγιο", "φίλοι", "χρήσιμα", "όχθη", "τράπεζα"],
    "cjk": ["老鼠", "猫", "和", "键盘", "朋友", "有用", "银行", "河", "钱", "苹果手机"],
    "arabic": ["فأر", "قطة", "و", "لوحة", "أصدقاء", "مفيد", "بنك", "نهر", "مال"],
    "hebrew": ["עכבר", "חתול", "ו", "מקלדת", "חברים", "שימושי", "בנק", "נהר", "כסף"],
}
#: Dimension names, also in several scripts.
DIMENSIONS = {
    "latin": ["animal", "tech", "grammar", "other", "nature", "finance", "größe", "bewegung"],
    "cyrillic": ["животное", "техника", "грамматика", "прочее", "природа", "финансы", "размер", "движение"],
    "greek": ["ζώο", "τεχνική", "γραμματική", "άλλο", "φύση", "οικονομία", "μέγεθος", "κίνηση"],
    "cjk": ["动物", "技术", "语法", "其他", "自然", "金融", "大小", "运动"],
    "arabic": ["حيوان", "تقنية", "نحو", "أخرى", "طبيعة", "مال", "حجم", "حركة"],
    "hebrew": ["חיה", "טכנולוגיה", "דקדוק", "אחר", "טבע", "כספים", "גודל", "תנועה"],
}
LANGUAGES = ["en", "fr", "de", "es", "zh"]
#: Punctuation said twice: a full stop after a question mark ("Pesca: frutto o sport?."), two full stops.
_DOUBLED = re.compile(r"[?!…]\.|(?<!\.)\.\.(?!\.)|[.?!][.?!]")


def _number(x: float, decimals: int) -> str:
    text = f"{x:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@st.composite
def lessons(draw: st.DrawFn, scripts: tuple[str, ...] = tuple(SCRIPTS)) -> str:
    """The TOML text of a lesson drawn at and inside the bounds (it may still be refused by a rule
    that needs the numbers, such as EXP_LIMIT: the caller skips those with ``assume``)."""
    script = draw(st.sampled_from(scripts))
    decimals = draw(st.integers(*LIMITS["decimals"]))
    d = draw(st.integers(*LIMITS["dimensions"]))
    heads = draw(st.sampled_from([h for h in range(LIMITS["heads"][0], LIMITS["heads"][1] + 1) if d % h == 0]))
    n_ctx = draw(st.integers(*LIMITS["contexts"]))
    pool = SCRIPTS[script]
    # a few English words too: lessons mix scripts (a Hebrew context name over English words)
    mixed = draw(st.booleans())
    words = draw(st.lists(st.sampled_from(pool + (["cat", "and", "mouse"] if mixed else [])),
                          min_size=2, max_size=min(len(pool), LIMITS["sentence_words"][1]), unique=True))
    dims = DIMENSIONS[draw(st.sampled_from([script, "latin"]))][:d]
    # values: small and round (halves, or the lesson's decimals), ties (repeated vectors), zeros, negatives
    step = draw(st.sampled_from([0.5, 1.0, 10.0 ** -decimals]))
    value = st.integers(-4, 6).map(lambda k: round(k * step, decimals))
    vectors: list[list[float]] = []
    for _ in words:
        if vectors and draw(st.integers(0, 5)) == 0:
            vectors.append(list(draw(st.sampled_from(vectors))))  # a tie: two words with one vector
        else:
            vectors.append(draw(st.lists(value, min_size=d, max_size=d)))
    contexts = []
    names = draw(st.lists(st.sampled_from(SCRIPTS[draw(st.sampled_from([script, "latin"]))] + ["ctx", "pets"]),
                          min_size=n_ctx, max_size=n_ctx, unique=True))
    for c in range(n_ctx):
        n_tok = draw(st.integers(*LIMITS["tokens"]))
        toks = draw(st.lists(st.sampled_from(words), min_size=n_tok, max_size=n_tok))
        focus = draw(st.sampled_from(toks))
        contexts.append(f'[[contexts]]\nname = "{names[c]}"\nsentence = "{" ".join(toks)}"\nfocus = "{focus}"\n')
    language = draw(st.sampled_from(["", *LANGUAGES]))
    weights = draw(st.sampled_from(["trained", "random"]))
    vocab = "\n".join(f'"{w}" = [{", ".join(_number(x, decimals) for x in v)}]' for w, v in zip(words, vectors))
    title = draw(st.sampled_from(["Test lesson", "Maus: Tier oder Technik?", "Pesca: frutto o sport?",
                                  " ".join(words[:3])]))
    return (f'title = "{title}"\n' + (f'language = "{language}"\n' if language else "")
            + f"dimensions = {json.dumps(dims, ensure_ascii=False)}\ndecimals = {decimals}\n"
            + f"[vocabulary]\n{vocab}\n" + "\n".join(contexts)
            + f'[projections]\nweights = "{weights}"\nseed = {draw(st.integers(0, 99))}\n'
            + f"d_v = {draw(st.integers(*LIMITS['d_v']))}\n[heads]\ncount = {heads}\n[training]\nsteps = 60\n")


def valid(path: Path) -> bool:
    """Whether the lesson at ``path`` loads (a drawn lesson can break a rule on its numbers)."""
    try:
        load_lesson(path)
    except LessonError:
        return False
    return True


def run_cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """``attnvid ARGS`` in this process (its own entry point less the signal handlers), in ``cwd``."""
    import contextlib
    import io
    import os

    from attnvid.cli import cli
    from attnvid.errors import cli_errors

    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                with cli_errors():
                    code = cli.main(args=args, prog_name="attnvid", standalone_mode=False)
                status = code if isinstance(code, int) else 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


def every_path(path: Path, work: Path, *, scenes: bool | tuple[str, ...],
               check_scene: Callable[[Any, str], int] | None = None,
               evaluate: dict[str, Callable[..., Any]] | None = None) -> None:
    """Take the lesson at ``path`` through every path a lesson takes; an AssertionError names the path.
    ``scenes``: True for every scene of the lecture, or the names of some."""
    from attncore.claims import lesson_claims

    trace = trace_lesson(load_lesson(path))
    commands = [["values", "--json"], ["exercises", "--media", str(work / "media")],
                ["workbook", "--media", str(work / "media")]]
    if scenes:  # the script builds every scene for its narration: with the scenes' path
        commands.append(["script", *(() if scenes is True else scenes), "--jobs", "1", "--media", str(work / "media")])
    for args in commands:
        code, out, err = run_cli([*args, "--lesson", str(path)], work)
        assert code == 0, f"attnvid {' '.join(args)}: status {code}: {err.strip()}"
        assert "Traceback" not in err, err
        if args[0] == "values":
            json.loads(out)
    from attncore.i18n import use

    # the evaluators read the English text (test_claims); the punctuation is checked in the lesson's language too
    with use("en"):
        english = lesson_claims(trace)
    with use(trace.lesson.language):
        own = lesson_claims(trace)
    for cl in own:
        assert not _DOUBLED.search(cl.text), cl.text
    for cl in english:
        if evaluate is not None:
            try:
                evaluate[cl.kind](cl, trace)
            except AssertionError as exc:
                raise AssertionError(
                    f"claim {cl.scene} / {cl.section}: {cl.kind} {cl.text!r} is false: {exc}"
                ) from None
        assert not _DOUBLED.search(cl.text), cl.text
    from attnvid.publish.playground import playground_data

    json.dumps(playground_data(trace, {"scenes": [], "parts": []}, in_lecture=False))
    if scenes:
        assert check_scene is not None
        from conftest import built_scene

        from scenes.lecture import LECTURE

        for cls in LECTURE if scenes is True else [c for c in LECTURE if c.__name__ in scenes]:
            scene = built_scene(cls, str(path))
            check_scene(scene, path.stem)
            for n in scene.narrations:
                assert not _DOUBLED.search(n.text), f"{cls.__name__} / {n.section}: {n.text!r}"
