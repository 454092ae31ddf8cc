"""Scenes are named by what they show and numbered by their place in the lecture (issue 49).

No file name and no title carries a number: the "N ·" a viewer reads, the number in an
output's name (``05_Softmax.mp4``) and the lecture's order all come from
:data:`scenes.order.ORDER`, so they cannot disagree.
"""

from __future__ import annotations

import re

from conftest import ROOT

from attncore.i18n import use
from attnvid.catalog import lecture_index, scene_heading
from scenes.lecture import LECTURE, scene_file
from scenes.order import ORDER, number, numbered


def test_the_lecture_is_in_the_running_order() -> None:
    assert tuple(c.__name__ for c in LECTURE) == ORDER
    assert all(lecture_index(c) == number(c.__name__) == k for k, c in enumerate(LECTURE))


def test_no_file_name_and_no_title_carries_a_number() -> None:
    steps = sorted((ROOT / "scenes" / "steps").glob("*.py"))
    assert steps and not [p.name for p in steps if re.search(r"\d", p.name)]
    assert not [c.TITLE for c in LECTURE if re.match(r"\s*\d", c.TITLE)], "a title typed with its number"
    assert all((ROOT / scene_file(c)).is_file() for c in LECTURE)


def test_the_header_is_numbered_by_the_place_in_the_lecture() -> None:
    assert numbered("Softmax", "Softmax") == "5 · Softmax"
    assert numbered("LearnedProjections", "Learned projections") == "10 · Learned projections"
    assert numbered("TitleCard", "") == "" and numbered("NotInTheLecture", "Mine") == "Mine"


def test_a_heading_is_translated_then_numbered() -> None:
    with use("fr"):
        assert scene_heading("Embeddings", "Embeddings") == "1 · Plongements"
        assert scene_heading("WordOrder", "Word order") == "14 · L’ordre des mots"
    assert scene_heading("WordOrder", "Word order") == "14 · Word order"


def test_no_message_types_a_step_number() -> None:
    """The workbook's sheets once said "9 · Learned projections" and "Step 9." of the scene the
    video numbers 10: every number of a step comes from the running order, none is in a message."""
    from babel.messages.pofile import read_po

    with open(ROOT / "attncore" / "locale" / "attnvid.pot", "rb") as f:
        ids = [m.id for m in read_po(f) if isinstance(m.id, str) and m.id]
    typed = [i for i in ids if re.match(r"\d+ · ", i) or re.search(r"\b[Ss]teps? \d", i)]
    assert not typed, typed


def test_the_workbook_numbers_its_sheets_as_the_lecture_does() -> None:
    from attncore import builtin_lesson, trace_lesson
    from attnvid.publish.workbook import build_book

    book = build_book(trace_lesson(builtin_lesson("default"))).wb
    texts = [str(c.value) for ws in book.worksheets for row in ws.iter_rows() for c in row if c.value]
    assert "10 · Learned projections" in texts and "11 · Changing the dimension" in texts, texts
    assert "12 · Multi-head" in texts and "1 · Embeddings" in texts
    assert any(t.startswith("Step 10. Q = X·W_Q") for t in texts), texts
