"""The exercises as Moodle quizzes: ``quiz.gift`` (GIFT) and ``quiz.xml`` (Moodle XML).

Both follow Moodle's documentation (GIFT: https://docs.moodle.org/en/GIFT_format, Moodle
XML: https://docs.moodle.org/en/Moodle_XML_format). A numerical exercise is a numerical
question whose answer is accepted within its tolerance (half a unit of the last shown
decimal); a multiple-choice one is a single-answer multichoice question whose right
option is worth 100% and each wrong one 0%, with the mistake it comes from as its
feedback. The worked solution is the general feedback, shown after the attempt. Texts
are HTML (the givens one per line), in the viewer's language (the exercises were made in
it); a numerical answer and its tolerance keep the '.' Moodle reads, whatever the language.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attncore.exercises import Choice, Exercise
from attncore.i18n import N_, _

from ..outputs import write_atomic
from .sheet import write_sheet

GIFT_NAME = "quiz.gift"
XML_NAME = "quiz.xml"
#: What a right answer's feedback says (translated where it is written).
RIGHT = N_("Right.")
#: GIFT's special characters, escaped with a backslash wherever they are text.
_GIFT_SPECIAL = re.compile(r"([~=#{}:])")


def question_html(ex: Exercise) -> str:
    """The question as HTML: the prompt, then the numbers it gives, one per line."""
    givens = "<br>".join(html.escape(g, quote=False) for g in ex.givens)
    return f"<p>{html.escape(ex.prompt, quote=False)}</p><p>{givens}</p>"


def solution_html(ex: Exercise) -> str:
    """The worked solution as HTML, one line per step, then the answer."""
    lines = "<br>".join(html.escape(w.text, quote=False) for w in ex.solution)
    answer = html.escape(_("Answer: {answer}").format(answer=ex.answer_text), quote=False)
    return f"<p>{lines}</p><p>{answer}</p>"


def mistake_feedback(choice: Choice) -> str:
    """What a student reads after picking ``choice``: right, or the mistake that gives it."""
    if not choice.mistake:
        return _(RIGHT)
    # Translators: {mistake} is one of the named mistakes ("forgot √d").
    return _("Not quite: this is what you get if you {mistake}.").format(mistake=choice.mistake)


def question_name(ex: Exercise) -> str:
    return f"Q{ex.number:02d} {ex.title}"


def _g(text: str) -> str:
    """Text escaped for GIFT (its special characters behind a backslash; one line)."""
    return _GIFT_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _gift_question(ex: Exercise) -> str:
    head = f"::{_g(question_name(ex))}::[html]{_g(question_html(ex))}"
    general = f"####[html]{_g(solution_html(ex))}"
    if ex.numerical:
        # the answer and tolerance as Moodle parses them: a decimal point in every language
        return f"{head} {{#{ex.answer_number}:{ex.tolerance_text}#{_g(_(RIGHT))} {general}}}"
    options = "\n".join(f"{'=' if not c.mistake else '~'}{_g(c.text)}#{_g(mistake_feedback(c))}" for c in ex.choices)
    return f"{head} {{\n{options}\n{general}\n}}"


def gift_text(title: str, exercises: Sequence[Exercise]) -> str:
    """Every exercise as a GIFT question, blank lines between them."""
    lines = [f"// {title}: exercises from the lesson's own numbers (attnvid exercises)",
             "// Moodle: Question bank > Import > GIFT format", ""]
    return "\n".join(lines) + "\n\n".join(_gift_question(ex) for ex in exercises) + "\n"


def _text(parent: ET.Element, tag: str, text: str, fmt: str | None = "html", **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, {**({"format": fmt} if fmt else {}), **attrs})
    ET.SubElement(el, "text").text = text
    return el


def _xml_question(quiz: ET.Element, ex: Exercise) -> None:
    q = ET.SubElement(quiz, "question", {"type": "numerical" if ex.numerical else "multichoice"})
    _text(q, "name", question_name(ex), None)
    _text(q, "questiontext", question_html(ex))
    _text(q, "generalfeedback", solution_html(ex))
    ET.SubElement(q, "defaultgrade").text = "1"
    ET.SubElement(q, "penalty").text = "0.3333333"
    ET.SubElement(q, "hidden").text = "0"
    if ex.numerical:
        a = ET.SubElement(q, "answer", {"fraction": "100", "format": "moodle_auto_format"})
        ET.SubElement(a, "text").text = ex.answer_number
        ET.SubElement(a, "tolerance").text = ex.tolerance_text
        _text(a, "feedback", _(RIGHT))
        for tag, value in (("unitgradingtype", "0"), ("unitpenalty", "0.1000000"), ("showunits", "3"),
                           ("unitsleft", "0")):
            ET.SubElement(q, tag).text = value
        return
    for tag, value in (("single", "true"), ("shuffleanswers", "true"), ("answernumbering", "abc")):
        ET.SubElement(q, tag).text = value
    for c in ex.choices:
        a = ET.SubElement(q, "answer", {"fraction": "0" if c.mistake else "100", "format": "html"})
        ET.SubElement(a, "text").text = html.escape(c.text, quote=False)
        _text(a, "feedback", html.escape(mistake_feedback(c), quote=False))


def moodle_xml(title: str, exercises: Sequence[Exercise]) -> bytes:
    """Every exercise as a Moodle XML question, in a category named after the lesson."""
    quiz = ET.Element("quiz")
    cat = ET.SubElement(quiz, "question", {"type": "category"})
    ET.SubElement(ET.SubElement(cat, "category"), "text").text = f"$course$/attnvid/{title}"
    for ex in exercises:
        _xml_question(quiz, ex)
    ET.indent(quiz, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="unicode").encode() + b"\n"


#: The files of an exercise set, by manifest key.
FILES = {"sheet": "exercises.pdf", "gift": GIFT_NAME, "moodle_xml": XML_NAME}


def write_exercise_files(
    folder: Path, title: str, exercises: Sequence[Exercise], seed: int, decimals: int
) -> dict[str, Any]:
    """Write exercises.pdf, quiz.gift and quiz.xml into ``folder`` (each atomically); their manifest entry."""
    write_sheet(folder / FILES["sheet"], title, exercises, seed, decimals)
    write_atomic(folder / GIFT_NAME, gift_text(title, exercises).encode())
    write_atomic(folder / XML_NAME, moodle_xml(title, exercises))
    return {**FILES, "count": len(exercises), "seed": seed}
