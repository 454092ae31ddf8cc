"""The "Try it" panel: the lecture page recomputes attention live, with the video's numbers.

A student changes a cell of the embedding table, the sentence, the focus word, turns √d
scaling, the causal mask or positions on or off, or switches from the simplified step
(Q = K = V = X) to the lesson's trained weights (one head, or each head), and every step
is recomputed in the page, in the lecture's order, names and colours. The panel is plain
JavaScript (``playground.js``, written beside the page: :func:`attnvid.publish.page.write_page_assets`)
with the lesson's inputs embedded as JSON from attncore, so it works offline from ``file://``. It goes into
``index.html``
(:func:`playground_panel`, each step linked to its chapter and each chapter to its step)
and stands alone as ``playground.html`` (:func:`playground_page`) for a course site.

Same numbers: the script computes in float64 what attncore computes, operation for
operation (its matrix products summed in index order, as :func:`attncore.steps.product`),
and shows every number through one rounding function equal to
:func:`attncore.display.fmt`. The trained weights are the lesson's, held fixed while the
student edits (training stays in Python, as in the workbook).

The contract a test reads (docs/reference/page.md, "The data-* contract"): every number carries
``data-matrix``, ``data-context``, ``data-row``, ``data-col`` and ``data-value``; every
editable cell is an ``<input>`` with the same attributes, applied on ``change``.
"""

from __future__ import annotations

import html
import json
from typing import Any

from attncore import Lesson, LessonTrace
from attncore.i18n import _, language, ngettext, pgettext, quoted
from attncore.lesson import EXP_LIMIT, LIMITS, VALUE_LIMIT
from attncore.steps import sinusoidal_encoding
from attnstage.palette import Colours
from attnstage.settings import DEFAULT_STYLE

from ..catalog import scene_heading
from .page import LIGHT_LINK

__all__ = ["PLAYGROUND_NAME", "STEPS", "playground_data", "playground_page", "playground_panel"]

PLAYGROUND_NAME = "playground.html"

#: The panel's steps in the order it shows them: (id, title as the lecture names it, the
#: scene whose first chapter it links to, the setting a chapter's link turns on to show it).
#: A title is shown as the scene's header shows it, numbered by the scene's place in the lecture.
STEPS: tuple[tuple[str, str, str, str], ...] = (
    ("embeddings", "Embeddings", "Embeddings", ""),
    ("positions", "Word order", "WordOrder", "positions"),
    ("projections", "Learned projections", "LearnedProjections", "trained"),
    ("scores", "Dot products", "DotProducts", ""),
    ("scaled", "Scaling", "Scaling", "scaled"),
    ("masked", "The causal mask", "CausalMask", "causal"),
    ("softmax", "Softmax", "Softmax", ""),
    ("attention", "Reading the matrix", "ReadingAttention", ""),
    ("mixing", "Mixing the values", "MixingValues", ""),
    ("heads", "Multi-head attention", "MultiHead", "heads"),
    ("lean", "Side by side", "TwoContexts", ""),
)
#: How many counts :func:`_strings` writes a sentence-length message for (a longer one takes the last).
_COUNTS = 40
#: Chapters of scenes without a step of their own, linked to the step that shows their numbers.
_ALSO = {"SimplifiedAttention": ("scores", ""), "LearningTheWeights": ("projections", "trained"),
         "ChangingDimension": ("projections", "trained")}
#: Exponentials from ``EXP_LIMIT`` on (which the video never shows) are written with this many
#: significant digits: at the lesson's decimals their last digits would depend on the last bit
#: of ``exp``, which a browser and numpy compute differently.
SIGNIFICANT = 6


def _colours(lesson: Lesson, style: str = DEFAULT_STYLE) -> tuple[dict[str, str], list[str], list[str]]:
    """Role colours (the theme of the video's ``style`` with the lesson's ``[theme]``), one per
    dimension and one per head, as the video picks them (:class:`attnstage.palette.Colours`, which
    the scenes' ``Theme`` is)."""
    picks = Colours(lesson.theme, lesson.dimensions, style)
    return dict(picks.colours), [picks.dim(d) for d in lesson.dimensions], [picks.head(i) for i in range(lesson.heads)]


def _chapters(manifest: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], list[tuple[int, str, str]]]:
    """Each step's chapter (the first of its scene: index and start) and the chapters that link
    their step: the first of each run of chapters showing the same one."""
    sections = manifest.get("sections") or []
    steps: dict[str, dict[str, Any]] = {}
    links: list[tuple[int, str, str]] = []
    by_scene = {scene: (step, mode) for step, _title, scene, mode in STEPS} | _ALSO
    for index, s in enumerate(sections):
        for step, _title, scene, _mode in STEPS:
            if s["scene"] == scene and step not in steps:
                steps[step] = {"index": index, "start_s": s["start_s"]}
        # a link on the first chapter of a run that shows the same step (a shorter list, fewer Tab stops)
        if s["scene"] in by_scene and (not links or links[-1][1:] != by_scene[s["scene"]]):
            step, mode = by_scene[s["scene"]]
            links.append((index, step, mode))
    return steps, links


def playground_data(trace: LessonTrace, manifest: dict[str, Any], in_lecture: bool) -> dict[str, Any]:
    """What the panel embeds: the lesson's inputs from attncore, its bounds, colours and chapters."""
    lesson, w = trace.lesson, trace.weights
    colours, dims, heads = _colours(lesson, str(manifest.get("style") or DEFAULT_STYLE))
    chapters, links = _chapters(manifest)
    lo, hi = LIMITS["tokens"]

    def rows(m: Any) -> list[list[float]]:
        return [[float(v) for v in row] for row in m]

    return {
        "title": lesson.title,
        "decimals": lesson.decimals,
        "dimensions": list(lesson.dimensions),
        "vocabulary": [[word, list(vec)] for word, vec in lesson.vocabulary],
        "contexts": [{"name": c.name, "tokens": list(c.tokens), "focus": c.focus} for c in lesson.contexts],
        "limits": {"tokens": [lo, hi], "value": VALUE_LIMIT, "sentence_words": LIMITS["sentence_words"][1]},
        "heads": lesson.heads,
        "weights": {"W_Q": rows(w.W_Q), "W_K": rows(w.W_K), "W_V": rows(w.W_V), "W_O": rows(w.W_O)},
        "provenance": _("{provenance} They stay as they are while you edit.").format(provenance=w.provenance),
        # one matrix per sentence length: numpy's sine of a longer array could differ in a last bit
        "encodings": {str(n): rows(sinusoidal_encoding(n, lesson.d)) for n in range(lo, hi + 1)},
        "colours": colours,
        "dimension_colours": dims,
        "head_colours": heads,
        "exp_limit": EXP_LIMIT,
        "significant": SIGNIFICANT,
        # the scenes' titles, translated as the scenes translate them
        "titles": {step: scene_heading(scene, title) for step, title, scene, _mode in STEPS},
        "chapters": chapters,
        "chapter_steps": links,
        "in_lecture": in_lecture,
        "video": manifest.get("video", ""),
        "decimal": decimal_symbol(),
        "strings": _strings(lo, hi),
    }


def decimal_symbol() -> str:
    """The current language's decimal sign (Babel's CLDR data), which the panel writes numbers with."""
    from babel.numbers import get_decimal_symbol

    lang = language()
    return "." if lang == "en" else str(get_decimal_symbol(lang))


def _strings(lo: int, hi: int) -> dict[str, Any]:
    """The words ``playground.js`` shows, in the current language; it fills their ``{names}``."""
    return {**_step_strings(), **_message_strings()}


def _step_strings() -> dict[str, Any]:
    """The captions and formulas of the panel's steps."""
    return {
        "quote": quoted("{word}"),
        # Translators: what separates the words of a list the student can pick from.
        "separator": pgettext("list separator", ", "),
        "video_tip": _("Play this step's chapter in the lecture video"),
        "in_video": _("▶ In the video"),
        # Translators: X is the matrix of word vectors (maths: keep it).
        "embeddings_formula": _("X: one row per word"),
        "embeddings_note": _("Each word has one vector: editing a cell changes that word wherever it appears."),
        "encoding_caption": _("PE, the sinusoidal encoding of each position"),
        # Translators: {matrix} is W_Q, W_K or W_V; {n} the head's number.
        "head_columns": _("{matrix} (head {n}'s columns)"),
        "the_weights": _("The weights"),
        "head_scores": _("Q_h·K_hᵀ (head {n})"),
        "not_scaled": _("not scaled"),
        "scaling_off": _(
            "Scaling is off: the softmax gets the scores as they are (turn “Divide by √d” on to compare)."
        ),
        "masked_formula": _("−∞ above the diagonal"),
        "masked_note": _("Each word sees itself and the words before it."),
        # Translators: the heading of the column that adds up a row of exponentials.
        "sum": pgettext("table column", "sum"),
        "softmax_formula": _("exp, then divide by the row's sum"),
        # Translators: {word} is the followed word, already in quotation marks.
        "softmax_note": _("The row of {word}: each exponential divided by their sum is its attention weight."),
        "too_small": _(
            "These exponentials are too small to read at this precision; the softmax subtracts the "
            "row's largest score first, which gives the same weights."
        ),
        "too_large": _(
            "These exponentials are too large to read at this precision (from {limit} on: {n} "
            "significant digits); the softmax subtracts the row's largest score first, which gives the "
            "same weights."
        ),
        # Translators: A is the attention matrix; keep "softmax(…)".
        "attention_formula": _("A = softmax(…): row = query, column = key"),
        # Translators: {matrix} is X or V; {word} the followed word, in quotation marks.
        "weighted_caption": _("The weighted {matrix} rows of {word}"),
        "head_output": _("Head {n}'s output A·V"),
        "output_caption": _("Output A·{matrix}"),
        "output_formula": _("Output = A·{matrix}"),
        # Translators: concatenate the heads' outputs, then multiply by W_O.
        "concat_formula": _("concat(heads)·W_O"),
        "concat_caption": _("The heads side by side"),
        "output": _("Output"),
    }


def _message_strings() -> dict[str, Any]:
    """What the panel says about an edit: leans, refusals, the sentence, the focus."""
    # Translators: the sentence has {n} words, out of the range {low} to {high} the lesson allows.
    length = [ngettext("The sentence has {n} word; the lesson allows {low} to {high}.",
                       "The sentence has {n} words; the lesson allows {low} to {high}.", n) for n in range(_COUNTS)]
    return {
        # Translators: {word} (quoted) leans to the dimension {dimension}, by a margin of {margin}.
        "lean": _("{word} leans {dimension}, by {margin}"),
        "lean_tie": _("{word} leans {dimension}, by {margin} (no clear lean at this precision)"),
        "lean_formula": _("the output of {word} by named dimension"),
        # Translators: {value} is what the student typed, in quotation marks; {old} the cell's value, kept.
        "not_a_number": _("{value} is not a number: write a number such as 1 or 0.5 ({word}, {dimension} stays "
                          "{old})."),
        "out_of_range": _("{number} is outside the lesson's range, −{limit} to {limit}."),
        # Translators: {number} typed has {n} decimals; the lesson shows {decimals}; {shown} is it rounded.
        "too_precise": _("{number} needs {n} decimals; this lesson shows {decimals} (write {shown})."),
        "cell_changed": _("{word}, {dimension} = {value}: every step recomputed."),
        "sentence_length": length,
        "unknown_did_you_mean": _("{word} is not in the vocabulary; did you mean {other}?"),
        "unknown_use_one_of": _("{word} is not in the vocabulary; use one of: {words}."),
        "too_many_words": _("The sentences would use {n} different words; the lesson allows at most {limit}."),
        "sentence": _("Sentence: {sentence}."),
        # Translators: the new sentence no longer has the followed word {word}; {other} is followed now.
        "sentence_new_focus": _("Sentence: {sentence}. {word} is no longer in it: the focus is now {other}."),
        "focus": _("Focus: {word}."),
        "reset": _("Back to the lesson's own inputs."),
        "try_tip": _("Try this step yourself"),
        "try_it": _("Try it"),
    }


def _controls(lesson: Lesson) -> str:
    """The panel's controls: context, sentence, words to add, focus, settings, reset."""
    e = html.escape
    tabs = "".join(f'<button type="button" data-control="context" data-index="{k}" aria-pressed="false">'
                   f"{e(c.name)}</button>" for k, c in enumerate(lesson.contexts))
    words = "".join(f'<button type="button" data-control="add-word" data-word="{e(w)}">{e(w)}</button>'
                    for w, _ in lesson.vocabulary)
    def t(text: str) -> str:  # a text between tags
        return html.escape(text, quote=False)

    head = _("Lesson's weights, head {n} of {heads}")
    heads = "".join(f'<option value="head:{h}">{t(head.format(n=h + 1, heads=lesson.heads))}</option>'
                    for h in range(lesson.heads))
    one_head = _("Lesson's weights, one head")
    words_label = {key: t(text) for key, text in (
        ("context", _("Context")), ("sentence", _("Sentence")), ("add", _("Add a word of the vocabulary:")),
        ("focus", _("Focus word")), ("weights", _("Weights")), ("simple", _("Simplified: Q = K = V = X")),
        ("scaled", _("Divide by √d")), ("causal", _("Causal mask")), ("positions", _("Add positions")),
        ("reset", _("Reset")))}
    return (
        f'<div class="pg-controls">'
        f'<div class="pg-field" role="group" aria-labelledby="pg-context-label">'
        f'<span id="pg-context-label">{words_label["context"]}</span>{tabs}</div>'
        f'<label class="pg-field pg-wide">{words_label["sentence"]} <input type="text" data-control="sentence" '
        f'autocomplete="off" spellcheck="false" aria-describedby="pg-words-label"></label>'
        f'<div class="pg-field pg-wide pg-words" role="group" aria-labelledby="pg-words-label">'
        f'<span id="pg-words-label" class="pg-muted">{words_label["add"]}</span>{words}</div>'
        f'<label class="pg-field">{words_label["focus"]} <select data-control="focus"></select></label>'
        f'<label class="pg-field">{words_label["weights"]} <select data-control="weights">'
        f'<option value="simple">{words_label["simple"]}</option>'
        f'<option value="trained">{t(one_head)}</option>{heads}</select></label>'
        f'<label class="pg-check"><input type="checkbox" data-control="scaled"> {words_label["scaled"]}</label>'
        f'<label class="pg-check"><input type="checkbox" data-control="causal"> {words_label["causal"]}</label>'
        f'<label class="pg-check"><input type="checkbox" data-control="positions"> {words_label["positions"]}</label>'
        f'<button type="button" data-control="reset" class="pg-reset">{words_label["reset"]}</button>'
        f"</div>"
    )


def playground_panel(trace: LessonTrace, manifest: dict[str, Any], *, in_lecture: bool = True) -> str:
    """The panel as an HTML fragment (its section, style, data and script) for a page whose
    ``manifest`` is given; ``in_lecture``: the page also has the lecture's video and chapters."""
    data = json.dumps(playground_data(trace, manifest, in_lecture), ensure_ascii=False).replace("</", "<\\/")
    lesson = trace.lesson
    heading = _("Try it yourself")
    about = ngettext("Change the words, their vectors or the settings: every step of the lecture is recomputed here "
                     "with the video's numbers ({n} decimal, halves rounded away from zero).",
                     "Change the words, their vectors or the settings: every step of the lecture is recomputed here "
                     "with the video's numbers ({n} decimals, halves rounded away from zero).",
                     lesson.decimals).format(n=lesson.decimals)
    return (
        '<link rel="stylesheet" href="playground.css">'
        f'<section id="playground" class="pg" tabindex="-1" aria-labelledby="pg-heading">'
        f'<h2 id="pg-heading">{html.escape(heading)}</h2>'
        f'<p class="pg-muted">{html.escape(about, quote=False)}</p>'
        f"{_controls(lesson)}"
        f'<p class="pg-message" role="status" aria-live="polite"></p>'
        f'<div class="pg-steps"></div></section>'
        f'<script id="playground-data" type="application/json">{data}</script>'
        '<script src="playground.js" defer></script>'
    )


_PAGE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__PAGE_TITLE__</title>
<link rel="stylesheet" href="lecture.css">
__STYLE__
</head>
<body>
<header class="pg-page-head"><h1>__TITLE__</h1>__VIDEO__</header>
<main>
__PANEL__
</main>
</body>
</html>
"""


def playground_page(trace: LessonTrace, manifest: dict[str, Any]) -> str:
    """``playground.html``: the panel on a page of its own (steps link to the lecture's video file)."""
    video = manifest.get("video")
    said = _("The lecture video")
    link = f'<p><a href="{html.escape(video)}">{html.escape(said)}</a></p>' if video else ""
    style = LIGHT_LINK if manifest.get("style") == "light" else ""
    return (_PAGE.replace("__STYLE__", style).replace("__LANG__", html.escape(trace.lesson.language))
            .replace("__PAGE_TITLE__", html.escape(_("Try it: {title}").format(title=trace.lesson.title)))
            .replace("__TITLE__", html.escape(trace.lesson.title))
            .replace("__VIDEO__", link)
            .replace("__PANEL__", playground_panel(trace, manifest, in_lecture=False)))
