"""Text: the lecture's label, baselines, the provenance line and captions in words.

Every text is a :class:`LightText` (Manim's ``Text`` without the parsed SVG it never
reads again). Words sit on a common baseline, not on their ink centres: see
:func:`text_baseline`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import html
import os
import pickle
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any, cast

import manimpango
import numpy as np
from manim import DOWN, LEFT, RIGHT, SMALL_BUFF, MarkupText, Text, VGroup, config
from manim.constants import START_X, START_Y
from manim.mobject.text.text_mobject import TEXT2SVG_ADJUSTMENT_FACTOR

from attncore import bidi
from attncore.bidi import LRM, RLM, right_to_left, undirected
from attncore.claims import ORDINALS  # ordinal words: plain text holds no digit
from attncore.i18n import language
from attnstage.settings import SceneSettings
from attnstage.speech.voices import SUBSCRIPTED

from ..theme import FONT, MONO, SIZE, Theme, active_theme
from .pango_svg import FastPangoSVG
from .typeset import Formula, cap_height_of

__all__ = [
    "LightText",
    "LightMarkup",
    "right_to_left",
    "directed",
    "LRM",
    "RLM",
    "inline_math",
    "typst_of",
    "label",
    "label_extent",
    "plain_width",
    "text_baseline",
    "centre_on_baseline",
    "cap_centre",
    "cap_height",
    "Provenance",
    "ORDINALS",
]



#: What a parsed text depends on besides its arguments: Manim's parser, Pango and its fonts'
#: binding (a change of any of them parses again), and how a line is laid out (no set width:
#: :meth:`LightText._text2svg`).
_PARSER = repr((version("manim"), version("manimpango"), version("svgelements"), "width -1"))


def directed(text: str) -> str:
    """``text`` with the direction of the lecture's language marked first when it holds letters of
    both directions (:func:`attncore.bidi.directed`): a sentence of the lecture in English quoting
    an Arabic word reads left to right, a lesson's own Arabic title or word right to left."""
    return bidi.directed(text, language())


def _parsed_path(key: str) -> Path:
    folder = SceneSettings.from_environ().text_cache or str(Path(config.get_dir("text_dir")) / "parsed")
    return Path(folder) / f"{hashlib.sha256((_PARSER + key).encode()).hexdigest()[:24]}.pickle"


def load_parsed(key: str) -> dict[str, Any] | None:
    """The state of a text parsed before, by another process too (None when there is none).

    Written here because Manim keeps only the SVG file Pango wrote, and parsing it again
    (svgelements, then Manim's points) is most of a build and a good part of a render:
    every render worker, preview and test process parsed the same labels anew. A pickle
    holds the very floats the parse gave, so nothing on screen changes.
    """
    try:
        data = _parsed_path(key).read_bytes()
    except OSError:
        return None
    try:
        state = pickle.loads(data)
    except Exception:  # a file from elsewhere: parse again (and write it anew)
        return None
    return state if isinstance(state, dict) else None


def restore_parsed(mob: Text | MarkupText, key: str, own: set[str]) -> bool:
    """Give ``mob`` the state of the text parsed before under ``key`` (keeping the attributes
    ``own`` that a subclass set before parsing); False when there is none."""
    state = load_parsed(key)
    if state is None:
        return False
    mob.__dict__.update({k: v for k, v in state.items() if k not in own and k not in _SVG_LEFTOVERS})
    return True


#: What Manim keeps of a text's SVG after parsing it and never reads again for a Pango text: each
#: glyph's svgelements path, and a dictionary from the SVG's group ids to groups of the glyphs
#: (used by Typst's and TeX's ``select``; a Pango text has no such method). A copy would copy them.
_SVG_LEFTOVERS = ("path_obj", "id_to_vgroup_dict")


#: Whether a freshly parsed text is written for other processes (:func:`store_parsed`). The warm
#: watch turns it off unless the settings name a folder (``text_cache``): its own text folder is removed
#: when it starts anew, so the files would serve nobody, and writing one cost a tenth of a new text.
KEEP_ON_DISK = True


def keep_parsed(mob: Text | MarkupText, key: str, own: set[str]) -> None:
    """Drop what Manim keeps of the SVG of the freshly parsed ``mob`` (:data:`_SVG_LEFTOVERS`,
    see :class:`LightText`) and keep its state for :func:`restore_parsed`."""
    for m in mob.get_family():
        for name in _SVG_LEFTOVERS:
            m.__dict__.pop(name, None)
    if KEEP_ON_DISK:
        store_parsed(key, {k: v for k, v in mob.__dict__.items() if k not in own})


def store_parsed(key: str, state: dict[str, Any]) -> None:
    """Keep ``state`` for :func:`load_parsed`: written whole or not at all (a private file
    renamed into place), never an error (a read-only or full disk only loses the speed-up)."""
    path = _parsed_path(key)
    part = path.with_name(f"{path.stem}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        part.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()


class LightText(FastPangoSVG, Text):
    """Manim's ``Text`` without the parsed SVG path kept on every glyph.

    Manim keeps each glyph's svgelements path after turning it into points and never
    reads it again, yet ``Mobject.copy`` deep-copies it, and every animation copies what
    it animates. Dropping it makes a copy about 8× faster (9 ms → 1 ms for a short
    label), which is most of the time of a preview and a good part of a render. So is
    the SVG's dictionary of groups (``id_to_vgroup_dict``: four times as many groups as
    the text has glyphs, copied with it).
    The points, which are all Manim draws, are untouched.

    A text made before with the same arguments is copied rather than laid out and parsed
    again (Pango's SVG, then svgelements: about 20 ms a label, most of a scene's build
    time besides the animations' set-up). Written here because Manim caches only the SVG
    file, not what it parses from it; a copy has the same points, so nothing on screen changes.
    """

    #: Parsed texts by their arguments; a copy of one is what a new equal text becomes.
    _made: dict[str, LightText] = {}
    #: Bound on the entries kept (a build of the largest lesson makes a few thousand texts).
    MADE_MAX = 20_000
    #: Copies of made texts made ahead (:func:`prepare_spares`), by key, and how many of each the
    #: last build took: counted only where :data:`SPARES` is set (the warm watch).
    _spares: dict[str, list[LightText]] = {}
    _taken: dict[str, int] = {}
    SPARES = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and isinstance(args[0], str):  # the paragraph's direction: see directed()
            args = (directed(args[0]), *args[1:])
        key = repr((type(self).__name__, args, sorted(kwargs.items())))
        made = LightText._made.get(key)
        own = set(self.__dict__)  # what a subclass set before calling this: kept
        if LightText.SPARES:  # the next build asks for it again: one more to copy ahead (prepare_spares)
            LightText._taken[key] = LightText._taken.get(key, 0) + 1
        if made is not None:
            spares = LightText._spares.get(key)
            source = spares.pop() if spares else made.copy()  # a spare is such a copy, made earlier
            self.__dict__.update({k: v for k, v in source.__dict__.items() if k not in own})
            return
        if not restore_parsed(self, key, own):
            super().__init__(*args, **kwargs)
            self.text = undirected(self.text)  # what it shows, as tests and baselines read it
            keep_parsed(self, key, own)
        if len(LightText._made) < self.MADE_MAX:
            LightText._made[key] = self.copy()

    def _text2hash(self, color: Any) -> str:
        # A right-to-left text's SVG made before the fix below was empty or cut: not reused.
        return super()._text2hash(color) + ("-rtl" if right_to_left(self.text) else "")

    def _text2svg(self, color: Any) -> str:
        """Manim's ``Text._text2svg`` with a layout of no set width (Pango's ``-1``).

        Manim lays a text out in a box as wide as the frame, and Pango aligns a right-to-left
        paragraph (an Arabic or Hebrew word) at the right of that box, i.e. outside the SVG's
        surface, where cairo drops its glyphs: an Arabic word came out empty (no glyph, so no
        height, and a ``ZeroDivisionError`` in ``font_size``), a Hebrew one partly cut. With no
        width a line starts where it is put, in either direction; Pango's bidi shaping is the
        same (a left-to-right text comes out as before).
        """
        file_name = Path(config.get_dir("text_dir")) / (self._text2hash(color) + ".svg")
        if not file_name.exists():
            file_name.parent.mkdir(parents=True, exist_ok=True)
            manimpango.text2svg(
                self._text2settings(color), self._font_size / TEXT2SVG_ADJUSTMENT_FACTOR,
                self.line_spacing / TEXT2SVG_ADJUSTMENT_FACTOR, self.disable_ligatures, str(file_name.resolve()),
                START_X, START_Y, config["pixel_width"], config["pixel_height"], self.text, pango_width=-1,
            )
        return str(file_name.resolve())


def prepare_spares() -> None:
    """Copy ahead, for the next build, every made text the last one took or made, as many times
    (the warm watch calls this between edits, while the author looks at the picture: a preview
    of LearnedProjections copied 237 texts, a tenth of its wait). A spare is what
    ``made.copy()`` would give then: the made text never changes."""
    LightText.SPARES = True
    for key, n in LightText._taken.items():
        made = LightText._made.get(key)
        spares = LightText._spares.setdefault(key, [])
        while made is not None and len(spares) < n:
            spares.append(made.copy())
    LightText._taken = {}


class LightMarkup(FastPangoSVG, MarkupText):
    """Manim's ``MarkupText`` lightened as :class:`LightText` is; ``.text`` is what it
    shows (tags removed, no spaces), as a ``Text``'s is, so tests and baselines read it alike."""

    def __init__(self, markup: str, **kwargs: Any) -> None:
        markup = directed(markup)
        key = repr((type(self).__name__, markup, sorted(kwargs.items())))
        own = set(self.__dict__)  # what a subclass set before calling this: kept
        if restore_parsed(self, key, own):
            return
        super().__init__(markup, **kwargs)
        self.markup = markup
        self.text = undirected(html.unescape(re.sub(r"<[^>]*>", "", markup)).replace(" ", "").replace("\n", ""))
        keep_parsed(self, key, own)


#: Maths written plainly in the lecture's sentences and labels: a name with a subscript
#: (``W_Q``, ``d_v``) and a transposed matrix (``Xᵀ``).
_TRANSPOSED = re.compile(r"([A-Za-z′])ᵀ")


def inline_math(text: str) -> str | None:
    """Pango markup setting the maths in ``text`` (``W_Q`` → W with a subscript Q, ``Xᵀ``
    → X with a superscript T), or None when ``text`` holds none.

    Sentences and labels are Pango text in the lecture's sans font; their maths gets
    real sub- and superscripts this way. Formulas are typeset by Typst (:mod:`.typeset`).
    """
    if not (SUBSCRIPTED.search(text) or _TRANSPOSED.search(text)):
        return None
    out = html.escape(text, quote=False)
    out = SUBSCRIPTED.sub(r"\1<sub>\2</sub>", out)
    return _TRANSPOSED.sub(r"\1<sup>T</sup>", out)


#: Plain-text maths a label may hold, and its Typst: a root (√d, drawn with its bar), the
#: signs around it, words in any script (upright: "puntuación", "分数", a single 数 too) and
#: one-letter Latin names (italic).
_TYPST_TOKENS = re.compile(r"√(\w)|([^\W\d_]{2,}|[^\W\d_A-Za-z])|([/÷·≈])|(\s+)")
_TYPST_SIGNS = {"/": "\\/", "÷": "div", "·": "dot", "≈": "approx"}


def typst_of(text: str) -> str | None:
    """The Typst maths of a label holding a root (``"score / √d"`` → ``"score" \\/ sqrt(d)``),
    or None for any other text and for sentences (which end with a full stop)."""
    if "√" not in text or text.rstrip().endswith("."):
        return None

    def token(m: re.Match[str]) -> str:
        root, word, sign, space = m.groups()
        if root:
            return f"sqrt({root})"
        if word:
            return f'"{word}"'
        return f" {_TYPST_SIGNS[sign]} " if sign else space  # spaced: "X·Xᵀ" must not read as a name "Xdot"

    return re.sub(" {2,}", " ", _TYPST_TOKENS.sub(token, text))  # a sign already spaced keeps one space


def label(text: str, size: str = "label", color: str | None = None, *, mono: bool = False,
          weight: str = "NORMAL") -> LightText:
    """Plain text in the lecture's font. Use :class:`~scenes.components.Num` for numbers, never this.

    Maths written plainly in it (``W_Q``, ``Xᵀ``) is set with real sub- and superscripts
    (:func:`inline_math`).

    Examples
    --------
    .. manim:: LabelExample
        :quality: low
        :save_last_frame:

        from scenes.components import ITEM_BUFF, Theme, label

        class LabelExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                sizes = VGroup(*(label(f"{size}: W_Q · Xᵀ", size, theme["text"]) for size in ("title", "body", "label",
                "small")))
                self.add(sizes.arrange(DOWN, buff=ITEM_BUFF))
    """
    color = color or active_theme()["text"]
    font = MONO if mono else FONT
    source = typst_of(text)
    if source is not None:
        return cast(LightText, Formula(source, Theme(), None, size, colour=color))
    markup = inline_math(text)
    if markup is not None:
        return cast(LightText, LightMarkup(markup, font=font, font_size=SIZE[size], color=color, weight=weight))
    return LightText(text, font=font, font_size=SIZE[size], color=color, weight=weight)


@functools.lru_cache(maxsize=16_384)
def label_extent(text: str, size: str = "label", *, mono: bool = False, weight: str = "NORMAL") -> tuple[float, float]:
    """The width and height of :func:`label` of ``text`` (in any colour), for measuring without a
    mobject: laid out once per process (a layout measures a word many times, and even a text
    laid out before costs a copy)."""
    t = label(text, size, mono=mono, weight=weight)
    return float(t.width), float(t.height)


@functools.lru_cache(maxsize=16_384)
def plain_width(text: str, font: str, font_size: float) -> float:
    """The width of a plain :class:`LightText` of ``text`` (no markup), laid out once per process."""
    return float(LightText(text, font=font, font_size=font_size).width)


#: What reads as text on screen: Pango text, Pango markup, typeset formulas.
Shown = Text | MarkupText | Formula

#: Characters whose glyph reaches below the baseline.
_DESCENDERS = set("gjpqy,;()[]{}|Qµ")


def _on_baseline(c: str) -> bool:
    """Whether the glyph of ``c`` sits on the baseline: a letter or digit without a descender."""
    return c.isalnum() and c not in _DESCENDERS


def text_baseline(t: Shown) -> float:
    """The y of the baseline of ``t``: the bottom of its first letter or digit that sits on
    the line (no descender; quote marks, signs and punctuation are skipped).

    Manim centres a Text on its ink, so "and" and "mouse" centred in equal boxes sit at
    different heights; aligning baselines instead makes a row of words read as a line,
    and a formula beside a title sit on the title's line. A text of descenders only
    ("Q", "gy") falls back to a fifth of its height above its bottom. A text holding
    Arabic or Hebrew letters has its baseline from Pango (its ``baseline_share``).
    """
    if isinstance(t, Formula):  # a typeset formula knows its own
        return t.baseline()
    share = getattr(t, "baseline_share", None)
    if share is not None:  # right-to-left letters: glyphs in the order seen (FastPangoSVG)
        return float(t.get_bottom()[1]) + float(share) * float(t.height)
    glyphs = [g for g in t.family_members_with_points() if g is not t]
    chars = [c for c in t.text if not c.isspace()]
    for g, c in zip(glyphs, chars):
        if _on_baseline(c):
            return float(g.get_bottom()[1])
    return float(t.get_bottom()[1]) + 0.22 * t.height


def cap_height(t: Shown) -> float:
    """The height of a capital "H" in the font and size of ``t``."""
    if isinstance(t, Formula):
        return t.cap_height()
    return cap_height_of(t.font, float(t.font_size))


def centre_on_baseline(t: Text, point: Any, cap: float | None = None) -> Text:
    """Move ``t`` so that its baseline sits where a capital letter centred at ``point`` would.

    ``cap``: the capital height to use (default: :func:`cap_height` of ``t``), so that
    labels of one row share it.
    """
    c = cap if cap is not None else cap_height(t)
    x = float(np.asarray(point)[0])
    y = float(np.asarray(point)[1])
    t.shift(np.array([x - t.get_center()[0], (y - c / 2) - text_baseline(t), 0.0]))
    return t


def cap_centre(name: Text | None) -> float:
    """The y at which :func:`centre_on_baseline` put ``name`` (its capital-letter centre)."""
    assert name is not None
    return text_baseline(name) + cap_height(name) / 2


#: What a line may break before: a run of non-CJK text after its spaces, or one CJK character.
_CJK_CHAR = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_WRAP_UNITS = re.compile(rf"([ \t\r\n]*)([^ \t\r\n{_CJK_CHAR}]+|[{_CJK_CHAR}])")  # a no-break space holds
#: Punctuation that stays at the end of the line before it.
_CLOSING = set("，。、；：！？”’）》」』")


class Provenance(LightMarkup):
    """The one honest line on how the projection weights were obtained.

    Not a plain label: the line may contain digits (the seed), which is why it is a class
    of its own that tests can recognise. ``.provenance`` holds the text as attncore
    wrote it; the line is wrapped at word boundaries to ``max_width``.
    """

    def __init__(self, provenance: str, theme: Theme, *, max_width: float, size: str = "small") -> None:
        self.provenance = provenance

        def fits(line: str) -> bool:
            return plain_width(line, FONT, SIZE[size]) <= max_width

        # One sentence a line when each fits; else wrap greedily at word boundaries.
        sentences = [s.strip() for s in re.split(r"(?<=\.)\s+|(?<=。)\s*", provenance) if s.strip()]
        if fits(provenance):
            lines = [provenance]
        elif all(fits(s) for s in sentences):
            lines = sentences
        else:
            lines = []
            for m in _WRAP_UNITS.finditer(provenance):  # between words; Chinese between characters
                space, word = m.groups()
                trial = (lines[-1] + (" " if space else "") + word) if lines else word
                if lines and (fits(trial) or word in _CLOSING):
                    lines[-1] = trial
                else:
                    lines.append(word)
        text = "\n".join(lines)
        markup = inline_math(text) or html.escape(text, quote=False)  # W_V with its subscript
        super().__init__(markup, font=FONT, font_size=SIZE[size], color=theme["muted"], line_spacing=0.8)


def wrapped_text(text: str, size: str, colour: str, width: float) -> VGroup:
    """``text`` on as few lines of ``size`` as fit ``width``, broken between words, aligned where
    it starts: left, or right for a text that reads right to left (Arabic, Hebrew; a direction
    mark first, :func:`attncore.bidi.own`, holds for every line); Chinese, written without
    spaces, broken between characters, never before closing punctuation."""
    mark = text[0] if text.startswith((LRM, RLM)) else ""  # a text's own direction (bidi.own), on every line
    lines: list[str] = []
    for m in _WRAP_UNITS.finditer(text.removeprefix(mark)):
        space, word = m.groups()
        trial = (lines[-1] + (" " if space else "") + word) if lines else word
        if lines and (label_extent(mark + trial, size)[0] <= width or word in _CLOSING):
            lines[-1] = trial
        else:
            lines.append(word)
    start = RIGHT if right_to_left(directed(text)) else LEFT
    return VGroup(*(label(mark + line, size, colour) for line in lines)).arrange(
        DOWN, buff=SMALL_BUFF, aligned_edge=start
    )
