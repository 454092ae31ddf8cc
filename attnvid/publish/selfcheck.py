"""The page's self-check: the lecture's exercises, answered and checked in the browser.

One card per exercise (:mod:`attncore.exercises`): the question and its numbers, a
number field or the options, a Check button. A right answer is accepted (a number
within the tolerance, half a unit of its last shown decimal; the right option); a
wrong one is refused, naming the mistake a wrong option comes from, and the worked
solution opens. Each card links the chapter of the lecture that explains it, which
seeks the page's video there (``window.lecture.seekTo``). Plain JavaScript in
``selfcheck.js`` beside the page: nothing else is loaded, and it works from ``file://``.

Kept out of :mod:`attnvid.publish.page`, which only places the section
(``__SELFCHECK__``): the page's other panels change without touching this one.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from attncore.exercises import Exercise
from attncore.i18n import _, ngettext, number

from .clips import shown

#: The section's style and script, files beside the page (:data:`attnvid.publish.page.STYLES`, ``SCRIPTS``).
_STYLE = '<link rel="stylesheet" href="selfcheck.css">'
_SCRIPT = '<script src="selfcheck.js" defer></script>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def chapter_of(ex: Exercise, chapters: Sequence[dict[str, Any]]) -> int | None:
    """The index of the lecture chapter that explains ``ex`` (its section), or None when the
    lecture leaves that scene out."""
    section = shown(ex.section)  # the chapters are titled in the current language
    return next((k for k, c in enumerate(chapters) if c["title"].endswith(f" — {section}")), None)


def _answer_field(ex: Exercise) -> str:
    if ex.numerical:
        said = ngettext("Your answer ({n} decimal)", "Your answer ({n} decimals)", ex.decimals).format(n=ex.decimals)
        label = _("Your answer to question {n}").format(n=ex.number)
        return (f'<label>{_e(said)} <input type="text" class="answer" inputmode="decimal" '
                f'autocomplete="off" aria-label="{_e(label)}"></label>')
    items = "".join(
        f'<label><input type="radio" name="exercise-{ex.number}" value="{k}" data-right="{0 if c.mistake else 1}" '
        f'data-mistake="{_e(c.mistake)}"> {_e(c.text)}</label>' for k, c in enumerate(ex.choices))
    legend = _("Choose one")
    return f'<fieldset><legend class="muted">{_e(legend)}</legend>{items}</fieldset>'


def _card(ex: Exercise, chapters: Sequence[dict[str, Any]]) -> str:
    k = chapter_of(ex, chapters)
    where = f"{ex.scene} — {shown(ex.section)}"
    if k is not None:
        said = _("Watch how: {chapter}").format(chapter=chapters[k]["title"])
        watch = f'<button type="button" class="chapter" data-chapter="{k}">{_e(said)}</button>'
    else:
        said = _("Explained in {where}").format(where=where)
        watch = f'<span class="muted">{_e(said)}</span>'
    steps = "".join(f"<li>{_e(w.text)}</li>" for w in ex.solution)
    data = (
        f'data-number="{ex.number}" data-kind="{ex.kind}" data-numerical="{1 if ex.numerical else 0}" '
        f'data-shown="{_e(ex.answer_text)}" data-answer="{_e(ex.answer_number)}" data-tolerance="{ex.tolerance_text}"'
        + (f' data-tolerance-shown="{_e(tol)}"' if (tol := number(ex.tolerance_text)) != ex.tolerance_text else "")
    )
    check, worked, answer = _("Check"), _("Worked solution"), _("Answer: {answer}").format(answer=ex.answer_text)
    return (f'<article class="exercise" id="exercise-{ex.number}" {data}><h3>{ex.number}. {_e(ex.title)}</h3>'
            f'<p>{_e(ex.prompt)}</p><div class="givens">{_e(chr(10).join(ex.givens))}</div>'
            f'{_answer_field(ex)}<div><button type="button" class="check">{_e(check)}</button></div>'
            f'<p class="verdict" role="status" aria-live="polite"></p>'
            f'<details class="worked"><summary>{_e(worked)}</summary><ol>{steps}</ol>'
            f'<p>{_e(answer)}</p></details><p>{watch}</p></article>')


def _strings() -> str:
    """The script's words in the current language, as JSON for the page ({names} filled there)."""
    return json.dumps({
        "type_number": _("Type a number first."),
        "choose": _("Choose an option first."),
        "right": _("Right: {answer}."),
        "not_within": _("Not quite: {number} is not within ±{tolerance} of the answer. See how it is worked:"),
        # Translators: {mistake} is what a wrong option comes from, said as an action ("forget to scale").
        "mistake": _("Not quite: that is what you get if you {mistake}. See how it is worked:"),
        # the in-video questions (invideo.js): the player pauses at the end of a chapter to ask
        "iv_title": _("A question on what you just watched"),
        "iv_skip": _("Skip"),
        "iv_continue": _("Continue"),
    }, ensure_ascii=False).replace("</", "<\\/")


def in_video_script() -> str:
    """The in-video questions' script as the page loads it: ``invideo.js``, written beside the page
    (:data:`attnvid.publish.page.SCRIPTS`), deferred so that it runs after ``lecture.js``."""
    return '<script src="invideo.js" defer></script>'


def self_check_section(exercises: Sequence[Exercise], chapters: Sequence[dict[str, Any]],
                       files: dict[str, Any] | None = None, in_video: bool = False) -> str:
    """The self-check section of the lecture page ("" without exercises); ``in_video``: its questions
    also asked in the player at the end of the chapter that explains each (``invideo.js``)."""
    if not exercises:
        return ""
    about = _("Every answer is computed from the lecture's own numbers; a number is right within "
              "half a unit of its last decimal.")
    if files:
        sheet = _("sheet and answer key (PDF)")
        about = _(
            "Every answer is computed from the lecture's own numbers; a number is right within "
            "half a unit of its last decimal. The same questions: {sheet} · {gift} · {xml}."
        ).format(
            sheet=f'<a href="{_e(files["sheet"])}">{_e(sheet)}</a>',
            gift=f'<a href="{_e(files["gift"])}">Moodle GIFT</a>',
            xml=f'<a href="{_e(files["moodle_xml"])}">Moodle XML</a>',
        )
    cards = "".join(_card(ex, chapters) for ex in exercises)
    heading = ngettext("Check yourself: {n} question", "Check yourself: {n} questions", len(exercises)).format(
        n=len(exercises))
    asks = ' data-in-video="1"' if in_video else ""
    return (f'<section id="self-check" tabindex="-1" aria-labelledby="self-check-title"{asks}>{_STYLE}'
            f'<h2 id="self-check-title">{_e(heading)}</h2>'
            f'<p class="muted">{about}</p><div class="exercises">{cards}</div>'
            f'<script id="self-check-strings" type="application/json">{_strings()}</script>{_SCRIPT}'
            f'{in_video_script() if in_video else ""}</section>')
