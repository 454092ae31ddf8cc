"""The companion workbook (``attnvid workbook``), recomputed by an independent engine.

Each workbook is written by attnvid, its cached values are removed, and LibreOffice Calc
(headless: one process for every workbook of the module, a private profile told to
recalculate on load) recomputes every formula. The recomputed values must equal the
trace, defined name by defined name (every name the workbook defines is checked), to
1e-9 relative (LibreOffice keeps 15 significant digits), and equal the cached values the
file carries, cell by cell. Then inputs are changed in the workbook (a word's vector, a
weight, a word of a sentence) and the recomputed workbook must equal the trace of the
lesson edited the same way in Python.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from conftest import ATTNVID, made_once
from openpyxl.workbook.workbook import Workbook

from attncore import (
    Context,
    Lesson,
    LessonTrace,
    builtin_lesson,
    default_lesson,
    fmt,
    parse_lesson,
    trace_lesson,
)
from attncore.i18n import use
from attncore.lesson import tomllib
from attnvid.publish.workbook import WORKBOOK_NAME, workbook_bytes
from attnvid.publish.workbook.formulas import FUNCTIONS

SOFFICE = shutil.which("soffice")
REL = 1e-9

# The largest lesson the bounds allow: 3 contexts of 8 words, 8 dimensions, 4 heads, trained weights.
BOUNDS_TOML = """
title = "At the bounds"
dimensions = ["nature", "finance", "grammar", "place", "action", "colour", "size", "other"]
decimals = 3
[vocabulary]
we = [0, 0, 1, 0, 0.5, 0, 0, 0.5]
sat = [0.5, 0, 0.5, 0, 2, 0, 0, 1]
by = [0, 0, 2, 0.5, 0, 0, 0, 0]
the = [0, 0, 2, 0, 0, 0, 0, 0.5]
green = [1, 0, 0, 0, 0, 2.5, 0, 0]
river = [3, 0, 0, 1, 0, 0.5, 0.5, 0.5]
bank = [2, 2, 0, 1, 0, 0, 0.5, 0.5]
money = [0, 3, 0, 0, 0.5, 0, 0, 0.5]
paid = [0, 1, 0.5, 0, 1.5, 0, 0, 1]
"café" = [0, 0.5, 0, 2, 0, 0, 0, 1]
"über" = [0, 0, 1.5, 0.5, 0, 0, 1, 0]
big = [0, 0, 0, 0, 0, 0, 3, 0.5]
[[contexts]]
name = "river"
sentence = "we sat by the green river bank café"
focus = "bank"
leans = "nature"
[[contexts]]
name = "money"
sentence = "we paid money über the big café bank"
focus = "bank"
leans = "finance"
[[contexts]]
name = "both"
sentence = "the bank by the river paid big money"
focus = "bank"
[projections]
weights = "trained"
seed = 3
d_v = 5
[heads]
count = 4
[theme]
nature = "#123456"
"""


def bounds_lesson() -> Lesson:
    return parse_lesson(tomllib.loads(BOUNDS_TOML), source="bounds.toml")


LESSONS: dict[str, Callable[[], Lesson]] = {
    "default": default_lesson,
    "bank": lambda: builtin_lesson("bank"),
    "souris": lambda: builtin_lesson("souris"),
    "random": lambda: default_lesson().with_weights("random"),  # untrained: no Training sheet
    "bounds": bounds_lesson,
    "souris_fr": lambda: builtin_lesson("souris"),  # written in French (LANGUAGE): sheet names with spaces and «'»
}
#: The viewer language a workbook of LESSONS is written in (English when not listed).
LANGUAGE = {"souris_fr": "fr"}


# --------------------------------------------------------------------------------------
# Edits: the same change made in the workbook (openpyxl) and in the lesson (Python)
# --------------------------------------------------------------------------------------
def destination(wb: Workbook, name: str) -> tuple[str, str]:
    """(sheet, range) of the defined name ``name``: openpyxl leaves a quote in a quoted sheet
    name doubled ('Mise à l''échelle'), as the formula syntax writes it."""
    ((sheet, ref),) = list(wb.defined_names[name].destinations)
    return sheet.replace("''", "'"), ref


def _range(wb: Workbook, name: str) -> tuple[Any, list[list[Any]]]:
    """The sheet and the cells of the defined name ``name``."""
    sheet, ref = destination(wb, name)
    cells = wb[sheet][ref.replace("$", "")]
    return wb[sheet], [list(r) for r in (cells if isinstance(cells, tuple) else ((cells,),))]


def _explicit_weights(lesson: Lesson, trace: LessonTrace, **changed: np.ndarray) -> Lesson:
    """``lesson`` with every weight matrix given by hand: the trace's, or ``changed``'s."""
    w = trace.weights
    mats = {k: changed.get(k, getattr(w, k)) for k in ("W_Q", "W_K", "W_V", "W_O", "W_V_reshape")}
    explicit = tuple((k, tuple(tuple(float(v) for v in row) for row in m)) for k, m in sorted(mats.items()))
    return replace(lesson, projections=replace(lesson.projections, explicit=explicit, weights="random"))


def edit_vector(wb: Workbook, lesson: Lesson, trace: LessonTrace) -> Lesson:
    """The vector of the default lesson's "mouse": now mostly tech, a little animal."""
    new = (0.5, 3.0, 0.5, 1.0)
    _, words = _range(wb, "Words")
    row = [r[0].value for r in words].index("mouse")
    _, vocab = _range(wb, "Vocabulary")
    for cell, v in zip(vocab[row], new, strict=True):
        cell.value = v
    vocabulary = tuple((w, new if w == "mouse" else vec) for w, vec in lesson.vocabulary)
    # the workbook's weights are typed inputs: an edited vector does not retrain them
    return _explicit_weights(replace(lesson, vocabulary=vocabulary), trace)


def edit_weight(wb: Workbook, lesson: Lesson, trace: LessonTrace) -> Lesson:
    """One entry of the trained W_Q and one of W_O."""
    w_q, w_o = np.array(trace.weights.W_Q), np.array(trace.weights.W_O)
    w_q[1, 2], w_o[3, 0] = 2.25, -1.75
    _, q_cells = _range(wb, "W_Q")
    q_cells[1][2].value = 2.25
    _, o_cells = _range(wb, "W_O")
    o_cells[3][0].value = -1.75
    return _explicit_weights(lesson, trace, W_Q=w_q, W_O=w_o)


def edit_sentence(wb: Workbook, lesson: Lesson, trace: LessonTrace) -> Lesson:
    """The bank lesson's first sentence with its second word replaced by another word of the vocabulary."""
    ctx = lesson.contexts[0]
    assert ctx.focus_index != 1
    word = next(w for w, _ in lesson.vocabulary if w not in ctx.tokens)
    _, tokens = _range(wb, "Tokens_1")
    tokens[0][1].value = word
    new = Context(ctx.name, (ctx.tokens[0], word, *ctx.tokens[2:]), ctx.focus, ctx.leans)
    return _explicit_weights(replace(lesson, contexts=(new, *lesson.contexts[1:])), trace)


EDITS: dict[str, tuple[str, Callable[[Workbook, Lesson, LessonTrace], Lesson]]] = {
    "edit-vector": ("default", edit_vector),
    "edit-weight": ("default", edit_weight),
    "edit-sentence": ("bank", edit_sentence),
}


# --------------------------------------------------------------------------------------
# Writing, stripping, recomputing
# --------------------------------------------------------------------------------------
_CACHED = re.compile(rb'(<c r="[A-Z]+[0-9]+"[^>]*?)(?: t="str")?(><f>.*?</f>)<v>.*?</v>', re.S)


def strip_cached_values(data: bytes) -> bytes:
    """The workbook with every formula's cached value removed: only the formulas are left."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            part = src.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                part = _CACHED.sub(rb"\1\2<v></v>", part)
            dst.writestr(item, part)
    return out.getvalue()


_RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode"
oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice(profile: Path, target: str, out: Path, files: list[Path]) -> subprocess.CompletedProcess[str]:
    """One headless LibreOffice process, with the private profile ``profile``, converts
    ``files`` to ``target`` (a ``--convert-to`` argument) into ``out``."""
    assert SOFFICE, "LibreOffice is missing: run bash .ci/setup --tests (it installs libreoffice-calc-nogui)"
    r = subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(out), *map(str, files)],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    return r


def recompute(files: list[Path], out: Path, profile: Path) -> dict[str, Path]:
    """LibreOffice Calc opens each file, recomputes every formula, and saves it as .xlsx in ``out``.

    One soffice process for all files; its private profile sets "recalculate on load:
    always" for Excel files (the default is "never", which would keep cached values).
    """
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_RECALC_ALWAYS, encoding="utf-8")
    r = soffice(profile, "xlsx", out, files)
    done = {f.stem: out / f.name for f in files}
    missing = [k for k, p in done.items() if not p.is_file()]
    assert not missing, f"LibreOffice did not convert {missing}: {r.stdout} {r.stderr}"
    return done


@dataclass
class Case:
    trace: LessonTrace  # what the workbook must compute
    shape: LessonTrace  # the lesson the workbook was written for (its layout, worked examples)
    written: Path  # the workbook as attnvid wrote it (cached values included)
    stripped: Path  # the same formulas without any cached value: what LibreOffice recomputes


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """Every lesson's workbook and every edit, as written: the files are made once per run
    (shared by the xdist workers); each worker computes the traces they must hold. No
    LibreOffice here (see ``recomputed``): the contributor's loop checks the written files."""
    traces = {k: trace_lesson(make()) for k, make in LESSONS.items()}
    edited: dict[str, Any] = {}

    def write(work: Path) -> None:
        (work / "stripped").mkdir()
        for key, trace in traces.items():
            with use(LANGUAGE.get(key, "en")):
                data = workbook_bytes(trace)
            (work / f"{key}.xlsx").write_bytes(data)
            (work / "stripped" / f"{key}.xlsx").write_bytes(strip_cached_values(data))
        for key, (base, edit) in EDITS.items():
            wb = openpyxl.load_workbook(work / f"{base}.xlsx")
            edited[key] = edit(wb, traces[base].lesson, traces[base])
            wb.save(work / "stripped" / f"{key}.xlsx")  # openpyxl keeps the formulas and drops every cached value

    work = made_once(tmp_path_factory, "workbooks", write)
    out = {k: Case(t, t, work / f"{k}.xlsx", work / "stripped" / f"{k}.xlsx") for k, t in traces.items()}
    for key, (base, edit) in EDITS.items():
        lesson = edited.get(key) or edit(
            openpyxl.load_workbook(work / f"{base}.xlsx"), traces[base].lesson, traces[base]
        )
        stripped = work / "stripped" / f"{key}.xlsx"
        out[key] = Case(trace_lesson(lesson), traces[base], stripped, stripped)
    return out


@pytest.fixture(scope="module")
def recomputed(cases: dict[str, Case], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every workbook of ``cases`` after LibreOffice recomputed it from its formulas alone: one
    soffice process per run, shared by the xdist workers (the slow tier: another program)."""
    def run(work: Path) -> None:
        recompute([c.stripped for c in cases.values()], work / "recomputed", work / "profile")

    work = made_once(tmp_path_factory, "recomputed", run)
    return {k: work / "recomputed" / f"{k}.xlsx" for k in cases}


# --------------------------------------------------------------------------------------
# What every defined name must hold
# --------------------------------------------------------------------------------------
def best_partner(ct: Any) -> int:
    """The word the focus word scores highest with among the others (the video's worked score)."""
    i = ct.focus_index
    return max((k for k in range(ct.n) if k != i), key=lambda k: float(ct.scores[i, k]))


def expected(t: LessonTrace, shape: LessonTrace) -> dict[str, Any]:
    """Every defined name of the workbook and what it must hold, from the trace ``t``.

    ``shape`` is the lesson the workbook was written for: its worked examples (which score
    is worked out, how the sentence is shuffled, which words carry a sense) and its
    training history are fixed when the workbook is written.
    """
    lesson, w = t.lesson, t.weights
    d, heads = lesson.d, lesson.heads
    out: dict[str, Any] = {
        "Dimensions": [list(lesson.dimensions)], "Words": [[wd] for wd, _ in lesson.vocabulary],
        "Vocabulary": np.array([v for _, v in lesson.vocabulary]),
        "W_Q": w.W_Q, "W_K": w.W_K, "W_V": w.W_V, "W_O": w.W_O, "W_V_reshape": w.W_V_reshape,
        "d_model": d, "heads": heads, "d_head": d // heads, "d_v": w.W_V_reshape.shape[1],
        "sqrt_d": math.sqrt(d), "sqrt_d_k": math.sqrt(w.W_K.shape[1]),
    }
    if shape.training is not None:
        out["Loss"] = np.array(shape.training.loss)[:, None]
    for k, (ct, sh) in enumerate(zip(t.contexts, shape.contexts, strict=True), 1):
        out |= _context(ct, sh, k, heads)
    return out


def _context(ct: Any, sh: Any, k: int, heads: int) -> dict[str, Any]:
    i, j, p = ct.focus_index, best_partner(sh), ct.projected
    n = ct.n
    out = {
        "Tokens": [list(ct.tokens)],
        "X": ct.embeddings,
        "Scores": ct.scores,
        "Dot_terms": ct.dot_terms(i, j)[:, None],
        "Dot_score": ct.scores[i, j],
        "Scaled": ct.scaled,
        "Scaled_attention": ct.attention,
        "Unscaled_attention": ct.unscaled_attention,
        "Worked_exps": ct.softmax_exps(i)[None, :],
        "Worked_scores": ct.scaled[i][None, :],
        "Worked_total": ct.softmax_total(i),
        "Worked_weights": ct.attention[i][None, :],
        "Exps": np.vstack([ct.softmax_exps(r) for r in range(n)]),
        "Exp_sums": np.array([[ct.softmax_total(r)] for r in range(n)]),
        "Attention": ct.attention,
        "Row_sums": ct.row_sums()[:, None],
        "Weighted_values": ct.weighted_values(i),
        "Focus_sum": ct.output[i][None, :],
        "Output": ct.output,
        "Focus_input": ct.embeddings[i][:, None],
        "Focus_output": ct.output[i][:, None],
        "Leans": ct.dimensions[int(np.argmax(ct.output[i]))],
        "Focus_attention": ct.attention[i][None, :],
        "Q": p.Q,
        "K": p.K,
        "V": p.V,
        "Projected_scores": p.scores,
        "Projected_scaled": p.scaled,
        "Projected_attention": p.attention,
        "Projected_output": p.output,
        "Reshaped_V": ct.reshaped.V,
        "Reshaped_output": ct.reshaped.output,
        "Concat": ct.multi_head.concat,
        "Multihead_output": ct.multi_head.output,
        "Causal_masked": ct.causal.masked,
        "Causal_attention": ct.causal.attention,
        "Causal_output": ct.causal.output,
    }
    for h, ht in enumerate(ct.multi_head.heads, 1):
        for field in ("Q", "K", "V", "scores", "scaled", "attention", "output"):
            out[f"Head{h}_{field}"] = getattr(ht, field)
    cost = sh.causal.mask_cost
    if cost.sense_positions:  # the sense words are those of the lesson the workbook was written for
        out["Mask_cost_unmasked"] = sum(ct.attention[i, s] for s in cost.sense_positions)
        out["Mask_cost_causal"] = sum(ct.causal.attention[i, s] for s in cost.sense_positions)
    return {f"{name}_{k}": v for name, v in (out | _positional(ct, sh)).items()}


def _positional(ct: Any, sh: Any) -> dict[str, Any]:
    """Positions and the shuffled sentence; what the trace does not keep is computed with attncore's steps."""
    from attncore import add_positions, attention, scale, scores

    pos, order = ct.positional, list(sh.positional.shuffled_order)
    xs = ct.embeddings[order]
    xsp = add_positions(xs)
    sfi = order.index(ct.focus_index)
    plain, with_pe = attention(xs, xs, xs), attention(xsp, xsp, xsp)
    if tuple(order) == pos.shuffled_order:  # the trace's own results (an edit may have moved the words)
        plain = replace(plain, weights=pos.shuffled_attention, output=pos.shuffled_output)
        with_pe = replace(with_pe, weights=pos.shuffled_positional_attention, output=pos.shuffled_positional_output)
    return {
        "PE": pos.encoding, "Positional_inputs": pos.inputs, "Positional_scaled": pos.scaled,
        "Positional_attention": pos.attention, "Positional_output": pos.output, "Shuffled_X": xs,
        "Shuffled_scaled": scale(scores(xs, xs), ct.d), "Shuffled_attention": plain.weights,
        "Shuffled_output": plain.output, "Shuffled_positional_inputs": xsp,
        "Shuffled_positional_scaled": with_pe.scaled, "Shuffled_positional_attention": with_pe.weights,
        "Shuffled_positional_output": with_pe.output,
        "Focus_outputs": np.vstack([ct.output[ct.focus_index], plain.output[sfi], pos.output[ct.focus_index],
                                    with_pe.output[sfi]]),
    }


def assert_name_holds(wb: Workbook, name: str, want: Any, where: str) -> None:
    _, cells = _range(wb, name)
    got = [[c.value for c in row] for row in cells]
    if isinstance(want, str) or (isinstance(want, list) and want and isinstance(want[0], list)):
        want_rows = [[want]] if isinstance(want, str) else want
        assert got == want_rows, f"{where}: {name} shows {got}, expected {want_rows}"
        return
    arr = np.atleast_2d(np.asarray(want, dtype=np.float64))
    assert np.shape(got) == arr.shape, f"{where}: {name} has shape {np.shape(got)}, expected {arr.shape}"
    for r, row in enumerate(got):
        for c, value in enumerate(row):
            exp = float(arr[r, c])
            if math.isinf(exp):  # a masked score: no −∞ in a spreadsheet, the cell says so
                assert value == "−∞", f"{where}: {name}[{r}, {c}] = {value!r}, expected the text −∞"
                continue
            assert isinstance(value, int | float) and not isinstance(value, bool), (
                f"{where}: {name}[{r}, {c}] = {value!r}"
            )
            assert abs(value - exp) <= REL * max(1.0, abs(exp)), (
                f"{where}: {name}[{r}, {c}] = {value!r}, expected {exp!r}"
            )


def formula_cells(wb: Workbook) -> list[tuple[str, str, str]]:
    """(sheet, cell, formula) of every formula in ``wb``."""
    return [(ws.title, c.coordinate, c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")]


# --------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("key", [*LESSONS, *EDITS])
def test_libreoffice_recomputes_the_trace(cases: dict[str, Case], recomputed: dict[str, Path], key: str) -> None:
    """Every defined name, recomputed from the formulas alone, holds the trace's values."""
    case = cases[key]
    original = openpyxl.load_workbook(case.written)
    values = openpyxl.load_workbook(recomputed[key], data_only=True)
    want = expected(case.trace, case.shape)
    assert set(original.defined_names) == set(want), "every defined name is checked, and only those"
    for name, value in want.items():
        assert_name_holds_at(original, values, name, value, key)


def assert_name_holds_at(original: Workbook, values: Workbook, name: str, want: Any, where: str) -> None:
    """``name`` (located in ``original``) holds ``want`` in ``values``, the same workbook read for its values."""
    values.defined_names[name] = original.defined_names[name]
    assert_name_holds(values, name, want, where)


@pytest.mark.slow
@pytest.mark.parametrize("key", list(LESSONS))
def test_cached_values_are_what_libreoffice_computes(cases: dict[str, Case], recomputed: dict[str, Path],
                                                     key: str) -> None:
    """A viewer that does not recompute shows, in every formula cell, what an engine that computes shows."""
    case = cases[key]
    formulas = formula_cells(openpyxl.load_workbook(case.written))
    cached = openpyxl.load_workbook(case.written, data_only=True)
    values = openpyxl.load_workbook(recomputed[key], data_only=True)
    assert len(formulas) > 1000
    for sheet, ref, f in formulas:
        a, b = cached[sheet][ref].value, values[sheet][ref].value
        assert a is not None, f"{sheet}!{ref} ({f}) has no cached value"
        if isinstance(a, str):
            assert a == b, f"{sheet}!{ref} {f}: cached {a!r}, LibreOffice {b!r}"
        else:
            assert isinstance(b, int | float), f"{sheet}!{ref} {f}: LibreOffice gives {b!r}"
            assert abs(a - b) <= REL * max(1.0, abs(a)), f"{sheet}!{ref} {f}: cached {a!r}, LibreOffice {b!r}"


@pytest.mark.parametrize("key", list(LESSONS))
def test_the_cached_values_are_the_trace(cases: dict[str, Case], key: str) -> None:
    """Read without any engine (as a file preview does), the workbook shows the trace's numbers."""
    case = cases[key]
    original = openpyxl.load_workbook(case.written)
    cached = openpyxl.load_workbook(case.written, data_only=True)
    for name, value in expected(case.trace, case.shape).items():
        assert_name_holds_at(original, cached, name, value, f"{key} (cached)")


def test_formulas_use_only_functions_every_application_has(cases: dict[str, Case]) -> None:
    used: set[str] = set()
    for _, _, f in formula_cells(openpyxl.load_workbook(cases["bounds"].written)):
        without_quoted = re.sub(r"'[^']*'|\"[^\"]*\"", "", f)
        used |= set(re.findall(r"([A-Z][A-Z0-9.]*)\(", without_quoted))
    assert used <= FUNCTIONS, f"not in every application: {sorted(used - FUNCTIONS)}"
    assert {"SUMPRODUCT", "MMULT", "EXP", "INDEX", "MATCH"} <= used


# --------------------------------------------------------------------------------------
# What a student sees
# --------------------------------------------------------------------------------------
def test_sheets_follow_the_lecture(cases: dict[str, Case]) -> None:
    steps = ["Embeddings", "Dot products", "Scaling", "Softmax", "Mixing", "Two contexts"]
    later = ["Projections", "Dimension"]
    order = ["Causal mask", "Positions"]
    default = openpyxl.load_workbook(cases["default"].written)
    # trained (the default): the history comes before the projections
    assert default.sheetnames == [
        "Start",
        "Inputs",
        *steps,
        "Training",
        *later,
        "Head 1",
        "Head 2",
        "Multi-head",
        *order,
    ]
    bounds = openpyxl.load_workbook(cases["bounds"].written)
    heads = [f"Head {h}" for h in range(1, 5)]
    assert bounds.sheetnames == ["Start", "Inputs", *steps, "Training", *later, *heads, "Multi-head", *order]
    untrained = openpyxl.load_workbook(cases["random"].written)
    assert untrained.sheetnames == ["Start", "Inputs", *steps, *later, "Head 1", "Head 2", "Multi-head", *order]
    start = bounds["Start"]
    links = {c.hyperlink.location for row in start.iter_rows() for c in row if c.hyperlink is not None}
    assert links == {f"'{s}'!A1" for s in bounds.sheetnames[1:]}, "the first sheet links to every other"


def test_every_number_outside_the_inputs_is_a_formula(cases: dict[str, Case]) -> None:
    """Typed numbers live on the Inputs sheet (input style); elsewhere only the masked weights (0) are constants."""
    wb = openpyxl.load_workbook(cases["bounds"].written)
    heads = _range(wb, "heads")[1][0][0].coordinate  # a size, not an input: the sheets' shapes follow it
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if not isinstance(c.value, int | float) or isinstance(c.value, bool):
                    continue
                if ws.title == "Inputs":
                    assert c.style == "Input" or c.coordinate == heads, c.coordinate
                elif ws.title == "Causal mask":
                    assert c.value == 0, f"{ws.title}!{c.coordinate}"
                else:
                    assert ws.title in ("Start", "Training"), (
                        f"{ws.title}!{c.coordinate} = {c.value} is typed, not computed"
                    )
    _, vocab = _range(wb, "Vocabulary")
    assert all(c.style == "Input" for row in vocab for c in row)
    for name in ("W_Q", "W_K", "W_V", "W_O", "W_V_reshape", "Tokens_1"):
        assert all(c.style == "Input" for row in _range(wb, name)[1] for c in row), name


def test_the_video_look(cases: dict[str, Case]) -> None:
    """Heat maps on attention, the lesson's decimals, theme colours (with the lesson's override), frozen titles."""
    from scenes.theme import ROLE

    wb = openpyxl.load_workbook(cases["bounds"].written)
    heat = {str(r.sqref) for ws in wb.worksheets for r in ws.conditional_formatting}
    for name in (
        "Attention_1",
        "Projected_attention_3",
        "Head4_attention_2",
        "Causal_attention_1",
        "Unscaled_attention_2",
    ):
        sheet, ref = destination(wb, name)
        assert ref.replace("$", "") in heat, f"{name} has no heat map"
    ws, cells = _range(wb, "Attention_1")
    assert cells[0][0].number_format == "0.000"  # the bounds lesson shows 3 decimals
    ws, dims = _range(wb, "Dimensions")
    colours = [c.fill.fgColor.rgb[-6:].lower() for c in dims[0]]
    assert colours[0] == "123456", "the lesson's [theme] overrides a role colour"
    assert colours[1] == ROLE.get("finance", "#000000").lstrip("#") or colours[1] != colours[0]
    default = openpyxl.load_workbook(cases["default"].written)
    _, dims = _range(default, "Dimensions")
    assert [c.fill.fgColor.rgb[-6:].lower() for c in dims[0]] == [
        ROLE[d].lstrip("#") for d in ("animal", "tech", "grammar", "other")
    ]
    assert all(ws.freeze_panes == "A4" for ws in default.worksheets if ws.title != "Start")


def test_colours_are_the_palettes_the_scenes_read_without_manim() -> None:
    from attnstage import palette
    from attnvid.publish.workbook.style import Palette
    from scenes import theme

    for style in ("dark", "light"):
        book, video = (
            Palette((("query", "#123456"),), ("animal", "x", "y"), style),
            theme.Theme((("query", "#123456"),), ("animal", "x", "y"), style),
        )
        assert book.colours == video.colours and [book.dim(d) for d in ("animal", "x", "y")] == [video.dim(d) for d in
                                                                                                ("animal", "x", "y")]
        assert [book.head(i) for i in range(5)] == [video.head(i) for i in range(5)]
    assert theme.STYLES is palette.STYLES and theme.ROLE is palette.ROLE
    code = ("import sys, attnstage.palette, attnvid.publish.workbook, attnvid.commands.workbook, attnvid.publish.page, "
            "attnvid.publish.playground; assert 'manim' not in sys.modules")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).returncode == 0


def test_the_workbook_takes_the_colours_of_the_videos_style(tmp_path: Path) -> None:
    """Light slides, a light workbook (issue 26): `attnvid workbook --theme light` and the lecture's
    workbook in the light style take the light style's colours; the numbers stay the same."""
    from scenes.theme import LIGHT_HEAD_PALETTE, LIGHT_ROLE, ROLE

    trace = trace_lesson()
    dark, light = (openpyxl.load_workbook(io.BytesIO(workbook_bytes(trace, s))) for s in ("dark", "light"))
    for wb, role in ((dark, ROLE), (light, LIGHT_ROLE)):
        _, dims = _range(wb, "Dimensions")
        assert [c.fill.fgColor.rgb[-6:].lower() for c in dims[0]] == [
            role[d].lstrip("#") for d in ("animal", "tech", "grammar", "other")
        ]
    fills = {c.fill.fgColor.rgb[-6:].lower() for ws in light.worksheets for row in ws.iter_rows() for c in row
             if c.fill is not None and c.fill.fill_type == "solid"}
    assert LIGHT_HEAD_PALETTE[0].lstrip("#").lower() in fills and not {ROLE["animal"].lstrip("#")} & fills
    assert formula_cells(dark) == formula_cells(light)
    r = subprocess.run([ATTNVID, "workbook", "--theme", "light", "--media", str(tmp_path / "m")], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = Path(r.stdout.strip().splitlines()[-1])
    assert out == tmp_path / "m" / "light" / "workbook" / WORKBOOK_NAME
    _, dims = _range(openpyxl.load_workbook(out), "Dimensions")
    assert dims[0][0].fill.fgColor.rgb[-6:].lower() == LIGHT_ROLE["animal"].lstrip("#")


def test_the_same_lesson_gives_the_same_bytes() -> None:
    trace = trace_lesson()
    assert workbook_bytes(trace) == workbook_bytes(trace)


def test_a_formula_without_its_cached_value_is_an_error() -> None:
    from attnvid.publish.workbook.cached import add_cached_values

    wb = openpyxl.Workbook()
    wb.active["A1"] = "=1+1"
    buf = io.BytesIO()
    wb.save(buf)
    with pytest.raises(ValueError, match="A1 has no cached value"):
        add_cached_values(buf.getvalue(), {"xl/worksheets/sheet1.xml": {}})
    with pytest.raises(ValueError, match="B2"):
        add_cached_values(buf.getvalue(), {"xl/worksheets/sheet1.xml": {"A1": 2.0, "B2": 1.0}})
    filled = add_cached_values(buf.getvalue(), {"xl/worksheets/sheet1.xml": {"A1": 2.0}})
    assert openpyxl.load_workbook(io.BytesIO(filled), data_only=True).active["A1"].value == 2.0


# --------------------------------------------------------------------------------------
# The command and the lecture folder
# --------------------------------------------------------------------------------------
def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def test_the_command_writes_the_workbook(tmp_path: Path) -> None:
    r = run(["workbook"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "media/workbook/workbook.xlsx"
    wb = openpyxl.load_workbook(tmp_path / "media/workbook/workbook.xlsx", data_only=True)
    assert wb.sheetnames[0] == "Start"
    r = run(["workbook", "--lesson", "bank", "--media", "out"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "out/bank/workbook/workbook.xlsx"
    assert not list(tmp_path.rglob("*.part")), "written under a temporary name, then renamed"


def test_a_bad_lesson_is_one_line_and_nothing_written(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\ndimensions = ["a"]\n', encoding="utf-8")
    r = run(["workbook", "--lesson", str(bad)], tmp_path)
    assert r.returncode == 2
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and "bad.toml" in r.stderr
    assert not (tmp_path / "media").exists()


def test_the_lecture_manifest_lists_the_workbook() -> None:
    from attnvid.publish.assemble import lecture_manifest

    m = lecture_manifest(default_lesson(), "low", 1.0, [], [], "none")
    assert m["workbook"] == "workbook.xlsx"


@pytest.mark.render
def test_the_lecture_folder_holds_the_workbook(lecture_dir: Path) -> None:
    import json

    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    wb = openpyxl.load_workbook(lecture_dir / m["workbook"], data_only=True)
    _, cells = _range(wb, "Attention_1")
    assert np.allclose(
        [[c.value for c in row] for row in cells], trace_lesson().contexts[0].attention, rtol=0, atol=1e-12
    )


# --------------------------------------------------------------------------------------
# The same digits as the video
# --------------------------------------------------------------------------------------
_AS_SHOWN = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"  # every sheet, as shown


def shown_sheets(xlsx: Path, out: Path, profile: Path) -> dict[str, list[list[str]]]:
    """Every sheet of ``xlsx`` as LibreOffice displays it (number formats applied), by sheet name."""
    r = soffice(profile, _AS_SHOWN, out, [xlsx])
    sheets = read_sheets(xlsx, out)
    assert sheets, f"LibreOffice wrote no sheet of {xlsx.name}: {r.stdout}"
    return sheets


def read_sheets(xlsx: Path, out: Path) -> dict[str, list[list[str]]]:
    """The sheets of ``xlsx`` that :func:`shown_sheets` exported into ``out``, by sheet name."""
    import csv

    sheets = {}
    for f in out.glob(f"{xlsx.stem}-*.csv"):
        with f.open(encoding="utf-8", newline="") as fh:
            sheets[f.stem[len(xlsx.stem) + 1:]] = list(csv.reader(fh))
    return sheets


@pytest.fixture(scope="module")
def shown(
    cases: dict[str, Case], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], dict[str, list[list[str]]]]:
    """The sheets of a lesson's written workbook as LibreOffice displays them, exported once per
    lesson and run (shared by the xdist workers)."""
    done: dict[str, dict[str, list[list[str]]]] = {}

    def get(key: str) -> dict[str, list[list[str]]]:
        if key not in done:
            def export(work: Path) -> None:
                shown_sheets(cases[key].written, work / "csv", work / "profile")

            folder = made_once(tmp_path_factory, f"shown-{key}", export)
            done[key] = read_sheets(cases[key].written, folder / "csv")
        return done[key]

    return get


def displayed(sheets: dict[str, list[list[str]]], wb: Workbook, name: str) -> list[tuple[str, Any, str]]:
    """(what LibreOffice displays, the cell, its number format) for every cell of ``name``."""
    ws, cells = _range(wb, name)
    rows = sheets[ws.title]
    return [(rows[c.row - 1][c.column - 1], c, c.number_format) for row in cells for c in row]


def decimals_of(number_format: str) -> int:
    assert re.fullmatch(r"0(\.0+)?", number_format), f"unexpected number format {number_format!r}"
    return len(number_format.split(".")[1]) if "." in number_format else 0


@pytest.mark.slow
@pytest.mark.parametrize("key", ["default", "bounds"])
def test_libreoffice_displays_the_digits_the_lecture_shows(cases: dict[str, Case], key: str,
                                                             shown: Callable[[str], Any]) -> None:
    """Every number of every defined name, as LibreOffice displays it, is ``fmt`` of its
    value at its cell's decimals: the rule of the video and of ``values`` (half away from
    zero at ties, no row forced to sum to one)."""
    case = cases[key]
    sheets = shown(key)
    wb, cached = openpyxl.load_workbook(case.written), openpyxl.load_workbook(case.written, data_only=True)
    checked = ties = 0
    for name in wb.defined_names:
        for text, cell, number_format in displayed(sheets, wb, name):
            value = cached[cell.parent.title][cell.coordinate].value
            if not isinstance(value, int | float) or isinstance(value, bool) or number_format == "General":
                continue
            dec = decimals_of(number_format)
            want = fmt(float(value), dec).replace("−", "-")
            assert text == want, (
                f"{key}: {name} {cell.parent.title}!{cell.coordinate} = {value!r} displays {text!r}, the lecture "
                f"{want!r}"
            )
            checked += 1
            ties += abs(abs(float(value)) * 10**dec % 1 - 0.5) < 1e-9
    assert checked > 500 and ties > 0, f"only {checked} numbers ({ties} ties) compared: the test would be vacuous"


@pytest.mark.slow
def test_the_worked_rows_show_the_videos_digits(cases: dict[str, Case], shown: Callable[[str], Any]) -> None:
    """The worked dot product and the worked softmax row of the default lesson display the
    very digits scenes 3 and 5 show (products with all their digits, scores and exponentials
    with the decimals that make the row redoable), cell by cell."""
    from conftest import built_scene

    from scenes.components import Num
    from scenes.inspect import visible_texts
    from scenes.steps.dot_products import DotProducts
    from scenes.steps.softmax import Softmax

    case = cases["default"]
    sheets = shown("default")
    wb = openpyxl.load_workbook(case.written)
    ct = case.trace.contexts[0]
    i, j = ct.focus_index, best_partner(ct)

    def video(cls: type, source_name: str, index: tuple[int, ...], args: tuple[object, ...]) -> str:
        """The most precise text the scene shows for that number (first context)."""
        scene = built_scene(cls)
        texts = [s.mob for cp in scene.checkpoints for s in visible_texts(cp)  # type: ignore[attr-defined]
                 if isinstance(s.mob, Num) and s.mob.source is not None and s.mob.source.context == 0
                 and s.mob.source.name == source_name and tuple(s.mob.source.index) == index
                 and tuple(s.mob.source.args) == args]
        assert texts, f"{cls.__name__} does not show {source_name}{index}"
        return max(texts, key=lambda m: m.decimals).digits.replace("−", "-")

    book = {name: [text for text, _, _ in displayed(sheets, wb, name)]
            for name in ("Dot_terms_1", "Dot_score_1", "Worked_scores_1", "Worked_exps_1", "Worked_total_1")}
    assert book["Dot_terms_1"] == [video(DotProducts, "dot_terms", (r,), (i, j)) for r in range(ct.d)]
    assert book["Dot_score_1"] == [video(DotProducts, "scores", (i, j), ())]
    assert book["Worked_scores_1"] == [video(Softmax, "scaled", (i, k), ()) for k in range(ct.n)]
    assert book["Worked_exps_1"] == [video(Softmax, "softmax_exps", (k,), (i,)) for k in range(ct.n)]
    assert book["Worked_total_1"] == [video(Softmax, "softmax_total", (), (i,))]


def _json_matrices(node: Any, path: str = "") -> Iterator[tuple[str, np.ndarray]]:
    """Every numeric matrix of a ``values --json`` context, by its path."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _json_matrices(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list) and node and isinstance(node[0], dict):
        for i, v in enumerate(node):
            yield from _json_matrices(v, f"{path}.{i}")
    elif isinstance(node, list) and node and isinstance(node[0], list) and node[0] \
            and all(isinstance(x, int | float) for x in node[0]):
        yield path, np.array(node, dtype=float)


@pytest.mark.parametrize("key", ["default", "bounds"])
def test_every_matrix_of_values_json_is_in_the_workbook(cases: dict[str, Case], key: str) -> None:
    """Each matrix ``values --json`` lists for a context is held by a defined name of the
    workbook (a head's weights: its columns of W_Q, W_K, W_V), whose values the tests above
    prove LibreOffice recomputes."""
    case = cases[key]
    names = set(openpyxl.load_workbook(case.written).defined_names)
    want = {n: v for n, v in expected(case.trace, case.shape).items() if n in names}
    arrays = [np.atleast_2d(np.asarray(v, dtype=float)) for v in want.values()
              if not isinstance(v, str) and not (isinstance(v, list) and v and isinstance(v[0], list)
                                                 and isinstance(v[0][0], str))]
    w, dh = case.trace.weights, case.trace.lesson.d // case.trace.lesson.heads
    for c, ctx in enumerate(case.trace.to_json()["contexts"], 1):
        for path, m in _json_matrices(ctx):
            head = re.fullmatch(r"multi_head\.heads\.(\d+)\.(W_[QKV])", path)
            if head:
                h = int(head.group(1))
                whole = np.asarray(getattr(w, head.group(2)), dtype=float)
                assert np.allclose(m, whole[:, h * dh:(h + 1) * dh], rtol=0, atol=1e-12), f"{key} context {c}: {path}"
                continue
            found = any(a.shape == m.shape and np.allclose(a, m, rtol=0, atol=1e-12) for a in arrays)
            assert found, f"{key} context {c}: values --json {path} ({m.shape}) is in no defined name of the workbook"


# --------------------------------------------------------------------------------------
# In the lesson's language
# --------------------------------------------------------------------------------------
FRENCH_SHEETS = ["Accueil", "Entrées", "Plongements", "Produits scalaires", "Mise à l’échelle", "Softmax", "Mélange",
                 "Deux contextes", "Entraînement", "Projections", "Dimension", "Tête 1", "Tête 2", "Multi-têtes",
                 "Masque causal", "Positions"]


def test_a_french_workbook_has_french_labels_and_the_same_formulas(cases: dict[str, Case]) -> None:
    """The French workbook of the built-in French lesson: French sheet names, headers and guide;
    the same cells, numbers and formulas as the English one, its references naming the French
    sheets (quoted: "Mise à l’échelle" holds spaces and an apostrophe). LibreOffice recomputing it to the
    trace is test_libreoffice_recomputes_the_trace[souris_fr]."""
    en = openpyxl.load_workbook(cases["souris"].written)
    fr = openpyxl.load_workbook(cases["souris_fr"].written)
    assert fr.sheetnames == FRENCH_SHEETS
    names = dict(zip(en.sheetnames, fr.sheetnames, strict=True))
    quoted = {f"'{e}'!": "'" + f.replace("'", "''") + "'!" for e, f in names.items()}

    def in_french(formula: str) -> str:
        for e, f in quoted.items():
            formula = formula.replace(e, f)
        return formula

    formulas = [(names[s], ref, in_french(f)) for s, ref, f in formula_cells(en)]
    assert formulas == formula_cells(fr), "the same formulas, on the French sheets"
    assert any("'Mise à l’échelle'!" in f for _, _, f in formulas)
    assert set(fr.defined_names) == set(en.defined_names)
    for name in fr.defined_names:
        e_sheet, e_ref = destination(en, name)
        f_sheet, f_ref = destination(fr, name)
        assert (names[e_sheet], e_ref) == (f_sheet, f_ref), name
    cached_en = openpyxl.load_workbook(cases["souris"].written, data_only=True)
    cached_fr = openpyxl.load_workbook(cases["souris_fr"].written, data_only=True)
    texts: set[str] = set()
    for ws_en, ws_fr in zip(cached_en.worksheets, cached_fr.worksheets, strict=True):
        for row_en, row_fr in zip(ws_en.iter_rows(), ws_fr.iter_rows(), strict=True):
            for a, b in zip(row_en, row_fr, strict=True):
                if isinstance(a.value, int | float):
                    assert a.value == b.value and a.number_format == b.number_format, f"{ws_fr.title}!{b.coordinate}"
                elif isinstance(b.value, str):
                    texts.add(b.value)
    for label in ("mot", "Vocabulaire\u00a0: une ligne par mot, une colonne par dimension nommée", "Légende",
                  "Un mot, deux contextes\u00a0: le classeur d’accompagnement", "produit", "score = somme", "somme"):
        assert label in texts, label
    assert not texts & {"word", "Legend", "product", "score = sum", "row sum", "input", "output", "leans"}
    start = fr["Accueil"]
    links = {c.hyperlink.location for row in start.iter_rows() for c in row if c.hyperlink is not None}
    assert links == {"'" + s.replace("'", "''") + "'!A1" for s in FRENCH_SHEETS[1:]}
