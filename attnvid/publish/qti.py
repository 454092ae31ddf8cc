"""The self-check's exercises as an IMS QTI 1.2 assessment, in the profile Common Cartridge 1.1 allows.

CC 1.1 takes a QTI 1.2 ``questestinterop`` with ``cc_profile`` metadata on the assessment
(``cc.exam.v0p1``) and on each item. A multiple-choice exercise is ``cc.multiple_choice.v0p1``
(one right option scores 100, each option's feedback the mistake it comes from). CC 1.1 has
no numerical type: a numerical exercise is ``cc.fib.v0p1`` (fill in the blank) accepting the
answer as shown, with a decimal point or a decimal comma (Moodle's ``quiz.xml`` beside it
keeps the tolerance). The worked solution is each item's general feedback.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from attncore.exercises import Exercise

from .quiz import mistake_feedback, question_html, question_name, solution_html

QTI = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
_LOCATION = f"{QTI} http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_qtiasiv1p2p1_v1p0.xsd"


def _fields(parent: ET.Element, pairs: Sequence[tuple[str, str]]) -> None:
    meta = ET.SubElement(parent, "qtimetadata")
    for label, entry in pairs:
        field = ET.SubElement(meta, "qtimetadatafield")
        ET.SubElement(field, "fieldlabel").text = label
        ET.SubElement(field, "fieldentry").text = entry


def _mattext(parent: ET.Element, text: str) -> None:
    ET.SubElement(ET.SubElement(parent, "material"), "mattext", {"texttype": "text/html"}).text = text


def _score(cond: ET.Element) -> None:
    ET.SubElement(cond, "setvar", {"varname": "SCORE", "action": "Set"}).text = "100"


def accepted(ex: Exercise) -> list[str]:
    """What a fill-in-the-blank accepts for a numerical exercise: the answer, with '.' or ','."""
    return list(dict.fromkeys([ex.answer_number, ex.answer_number.replace(".", ",")]))


def _item(section: ET.Element, ex: Exercise) -> None:
    profile = "cc.fib.v0p1" if ex.numerical else "cc.multiple_choice.v0p1"
    item = ET.SubElement(section, "item", {"ident": f"exercise-{ex.number}", "title": question_name(ex)})
    _fields(ET.SubElement(item, "itemmetadata"), [("cc_profile", profile), ("cc_weighting", "1")])
    pres = ET.SubElement(item, "presentation")
    _mattext(pres, question_html(ex))
    proc = ET.SubElement(item, "resprocessing")
    ET.SubElement(ET.SubElement(proc, "outcomes"), "decvar",
                  {"varname": "SCORE", "vartype": "Decimal", "minvalue": "0", "maxvalue": "100"})
    if ex.numerical:
        resp = ET.SubElement(pres, "response_str", {"ident": "response1", "rcardinality": "Single"})
        ET.SubElement(resp, "render_fib", {"fibtype": "Decimal", "prompt": "Box"})
        cond = ET.SubElement(proc, "respcondition", {"continue": "No"})
        var = ET.SubElement(cond, "conditionvar")
        for text in accepted(ex):
            ET.SubElement(var, "varequal", {"respident": "response1", "case": "No"}).text = text
        _score(cond)
    else:
        resp = ET.SubElement(pres, "response_lid", {"ident": "response1", "rcardinality": "Single"})
        render = ET.SubElement(resp, "render_choice")
        for k, c in enumerate(ex.choices):
            _mattext(ET.SubElement(render, "response_label", {"ident": f"choice-{k}"}), c.text)
        for k, c in enumerate(ex.choices):
            cond = ET.SubElement(proc, "respcondition", {"continue": "Yes" if c.mistake else "No"})
            ET.SubElement(
                ET.SubElement(cond, "conditionvar"), "varequal", {"respident": "response1"}
            ).text = f"choice-{k}"
            if not c.mistake:
                _score(cond)
            ET.SubElement(cond, "displayfeedback", {"feedbacktype": "Response", "linkrefid": f"choice-{k}-fb"})
        for k, c in enumerate(ex.choices):
            fb = ET.SubElement(item, "itemfeedback", {"ident": f"choice-{k}-fb"})
            ET.SubElement(ET.SubElement(fb, "flow_mat"), "material").append(_text_mattext(mistake_feedback(c)))
    general = ET.SubElement(proc, "respcondition", {"continue": "Yes"})
    ET.SubElement(ET.SubElement(general, "conditionvar"), "other")
    ET.SubElement(general, "displayfeedback", {"feedbacktype": "Response", "linkrefid": "general_fb"})
    fb = ET.SubElement(item, "itemfeedback", {"ident": "general_fb"})
    ET.SubElement(ET.SubElement(fb, "flow_mat"), "material").append(_text_mattext(solution_html(ex), "text/html"))


def _text_mattext(text: str, kind: str = "text/plain") -> ET.Element:
    el = ET.Element("mattext", {"texttype": kind})
    el.text = text
    return el


def qti_assessment(identifier: str, title: str, exercises: Sequence[Exercise]) -> bytes:
    """Every exercise as one CC 1.1 QTI 1.2 assessment (an exam, unlimited attempts)."""
    root = ET.Element("questestinterop", {"xmlns": QTI, "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
                                          "xsi:schemaLocation": _LOCATION})
    test = ET.SubElement(root, "assessment", {"ident": identifier, "title": title})
    _fields(test, [("cc_profile", "cc.exam.v0p1"), ("qmd_assessmenttype", "Examination"),
                   ("qmd_scoretype", "Percentage"), ("cc_maxattempts", "unlimited")])
    section = ET.SubElement(test, "section", {"ident": "root_section"})
    for ex in exercises:
        _item(section, ex)
    ET.indent(root, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode").encode() + b"\n"
