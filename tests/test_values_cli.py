"""CLI tier for ``attnvid values``: the installed console script, run in a subprocess from
an empty temporary folder, prints the tables and exact JSON of the trace."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference as ref

from attncore import LessonTrace, fmt, trace_lesson

ATTNVID = Path(sys.executable).parent / "attnvid"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    assert ATTNVID.is_file(), f"console script not installed at {ATTNVID}; run bash .ci/setup"
    return subprocess.run(
        [str(ATTNVID), *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False
    )


@pytest.fixture(scope="module")
def trace() -> LessonTrace:
    return trace_lesson()


@pytest.fixture(scope="module")
def json_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    cwd = tmp_path_factory.mktemp("values-json")
    return run(["values", "--json"], cwd), cwd


@pytest.fixture(scope="module")
def data(json_run: tuple[subprocess.CompletedProcess[str], Path]) -> dict[str, Any]:
    proc, _ = json_run
    assert proc.returncode == 0, proc.stderr
    parsed: dict[str, Any] = json.loads(proc.stdout)
    return parsed


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------
def test_values_prints_the_tables(tmp_path: Path, trace: LessonTrace) -> None:
    proc = run(["values"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert trace.lesson.title in out
    assert trace.weights.provenance in out
    for title in ("Embeddings X", "Scores X·Xᵀ", "Attention softmax", "Output A·X", "Q = X·W_Q",
                  "Head 1 attention", "Concatenated heads", "Multi-head output"):
        assert out.count(title) >= len(trace.contexts), title
    for c in trace.contexts:
        assert c.context.sentence in out
    lines = out.splitlines()
    # the mouse row of the first embedding table, as fmt shows it
    mouse = next(line for line in lines if line.startswith("mouse "))
    assert mouse.split() == ["mouse", "│", "2.00", "│", "2.00", "│", "0.00", "│", "0.50"]
    assert list(tmp_path.iterdir()) == []  # prints only, writes nothing


def test_values_says_where_mouse_leans(tmp_path: Path) -> None:
    out = run(["values"], tmp_path).stdout
    leans = [line for line in out.splitlines() if "after attention leans" in line]
    assert len(leans) == 2, leans
    assert leans[0].startswith("mouse after attention leans animal:"), leans[0]
    assert leans[1].startswith("mouse after attention leans tech:"), leans[1]
    # each lean line comes after the heading of its own context
    ctx_a = out.index("context 'animal'")
    ctx_b = out.index("context 'tech'")
    assert ctx_a < out.index(leans[0]) < ctx_b < out.index(leans[1])


def row_cells(lines: list[str], label: str, after: int = 0) -> list[str]:
    """The cells of the first table row labelled ``label`` at or after line ``after``."""
    line = next(x for x in lines[after:] if x.startswith(label + " ") and "│" in x)
    return [cell.strip() for cell in line.split("│")[1:]]


def test_values_prints_the_causal_mask_and_positions(tmp_path: Path, trace: LessonTrace) -> None:
    out = run(["values"], tmp_path).stdout
    lines = out.splitlines()
    dec = trace.decimals
    for c in trace.contexts:
        start = next(i for i, x in enumerate(lines) if x.strip("─ ").startswith(f"causal mask, {c.context.name!r}"))
        end = next((i for i, x in enumerate(lines) if i > start and x.strip("─ ").startswith("context ")), len(lines))
        part = lines[start:end]
        # the masked scores: −∞ exactly above the diagonal, the scaled score elsewhere
        masked = next(i for i, x in enumerate(part) if x.startswith("Masked scores X·Xᵀ/√"))
        for i, tok in enumerate(c.tokens):
            cells = row_cells(part, tok, masked)
            assert cells[i + 1:] == ["−∞"] * (c.n - i - 1), tok
            assert cells[: i + 1] == [fmt(v, dec) for v in c.scaled[i, : i + 1]], tok
        # the causal attention as shown: every weight as fmt rounds it (as the video and the workbook)
        attn = next(i for i, x in enumerate(part) if x.startswith("Causal attention softmax"))
        assert row_cells(part, c.focus, attn) == [fmt(v, dec) for v in c.causal.attention[c.focus_index]]
        assert row_cells(part, c.tokens[0], attn) == [fmt(1, dec)] + [fmt(0, dec)] * (c.n - 1)
        # what the mask does to the focus word, in words
        cost = c.causal.mask_cost
        assert f"{fmt(cost.unmasked, dec)} without the mask, {fmt(cost.causal, dec)} with it" in "\n".join(part)
        # positions: the shuffled sentence, and the focus output without and with positions
        assert f"Shuffled: {' '.join(c.positional.shuffled_tokens)} " in "\n".join(part)
        table = next(i for i, x in enumerate(part) if x.startswith(f"Output of {c.focus}"))
        plain = row_cells(part, "no positions, original", table)
        assert plain == [fmt(v, dec) for v in c.output[c.focus_index]]
        assert row_cells(part, "no positions, shuffled", table) == plain
        assert row_cells(part, "with positions, shuffled", table) != row_cells(part, "with positions, original", table)
        # the encoding: rows by position and word, columns by wave (positions are not senses, issue 24)
        pe = next(i for i, x in enumerate(part) if x.startswith("Positional encoding PE"))
        head = next(x for x in part[pe:] if "┃" in x)
        assert [h.strip() for h in head.split("┃")[1:]] == [
            f"{'sin' if k % 2 == 0 else 'cos'} {k // 2}" for k in range(c.d)
        ]
        assert not set(c.dimensions) & {h.strip() for h in head.split("┃")}
        assert row_cells(part, f"{c.n - 1} {c.tokens[-1]}", pe) == [fmt(v, dec) for v in c.positional.encoding[c.n - 1]]
    assert sum(line.count("−∞") for line in lines if "│" in line) == sum(c.n * (c.n - 1) // 2 for c in trace.contexts)


# --------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------
def shape(m: Any) -> tuple[int, int]:
    """(rows, columns) of a matrix given as a JSON list of rows of numbers."""
    assert isinstance(m, list) and m, f"not a non-empty list of rows: {m!r}"
    assert all(isinstance(r, list) for r in m), "matrix rows must be lists"
    cols = {len(r) for r in m}
    assert len(cols) == 1, f"ragged matrix: row lengths {cols}"
    assert all(isinstance(v, float) for r in m for v in r), "every entry must be a JSON number"
    return len(m), cols.pop()


def test_values_json_exits_zero_and_writes_nothing(json_run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    proc, cwd = json_run
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert list(cwd.iterdir()) == []


def test_values_json_has_exactly_the_documented_shape(data: dict[str, Any], trace: LessonTrace) -> None:
    assert (
        {"dimensions", "contexts", "claims"}
        <= set(data)
        <= {"dimensions", "contexts", "title", "weights_provenance", "training", "claims"}
    )
    assert data["weights_provenance"] == trace.weights.provenance
    assert ("training" in data) == (trace.training is not None)
    if trace.training is not None:
        t = data["training"]
        assert {"task", "steps", "seed", "loss", "accuracy", "snapshots", "claims_hold", "reason"} <= set(t)
        assert len(t["loss"]) == t["steps"] + t["rounding_steps"] + 1 and t["loss"][-1] < t["loss"][0]
        assert t["claims_hold"] is True and t["reason"] == ""
    assert data["dimensions"] == list(trace.lesson.dimensions)
    d = len(data["dimensions"])
    h = trace.lesson.heads
    d_h = d // h
    d_v = trace.lesson.projections.d_v
    assert len(data["contexts"]) == len(trace.contexts)
    for ctx in data["contexts"]:
        assert set(ctx) == {"name", "tokens", "focus", "embeddings", "scores", "scaled", "attention", "output",
                            "projected", "reshaped", "multi_head", "causal", "positional"}
        assert isinstance(ctx["name"], str)
        assert isinstance(ctx["tokens"], list) and all(isinstance(t, str) for t in ctx["tokens"])
        assert isinstance(ctx["focus"], str) and ctx["focus"] in ctx["tokens"]
        n = len(ctx["tokens"])
        expected = {"embeddings": (n, d), "scores": (n, n), "scaled": (n, n), "attention": (n, n), "output": (n, d)}
        for key, shp in expected.items():
            assert shape(ctx[key]) == shp, key
        proj = ctx["projected"]
        assert set(proj) == {"W_Q", "W_K", "W_V", "Q", "K", "V", "attention", "output"}
        for key, shp in {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "Q": (n, d), "K": (n, d), "V": (n, d),
                         "attention": (n, n), "output": (n, d)}.items():
            assert shape(proj[key]) == shp, f"projected.{key}"
        resh = ctx["reshaped"]
        assert set(resh) == {"W_V", "V", "output"}
        for key, shp in {"W_V": (d, d_v), "V": (n, d_v), "output": (n, d_v)}.items():
            assert shape(resh[key]) == shp, f"reshaped.{key}"
        mh = ctx["multi_head"]
        assert set(mh) == {"heads", "concat", "W_O", "output"}
        assert isinstance(mh["heads"], list) and len(mh["heads"]) == h
        for i, head in enumerate(mh["heads"]):
            assert set(head) == {"W_Q", "W_K", "W_V", "attention", "output"}
            for key, shp in {"W_Q": (d, d_h), "W_K": (d, d_h), "W_V": (d, d_h), "attention": (n, n),
                             "output": (n, d_h)}.items():
                assert shape(head[key]) == shp, f"heads[{i}].{key}"
        for key, shp in {"concat": (n, d), "W_O": (d, d), "output": (n, d)}.items():
            assert shape(mh[key]) == shp, f"multi_head.{key}"
        check_causal_and_positional_shape(ctx, n, d)


def check_causal_and_positional_shape(ctx: dict[str, Any], n: int, d: int) -> None:
    causal = ctx["causal"]
    assert set(causal) == {"attention", "output", "mask_cost"}
    assert shape(causal["attention"]) == (n, n) and shape(causal["output"]) == (n, d)
    cost = causal["mask_cost"]
    assert set(cost) == {"sense_positions", "hidden_positions", "unmasked", "causal"}
    assert all(isinstance(j, int) and 0 <= j < n for j in cost["sense_positions"] + cost["hidden_positions"])
    assert isinstance(cost["unmasked"], float) and isinstance(cost["causal"], float)
    pos = ctx["positional"]
    assert set(pos) == {"encoding", "attention", "output", "shuffled"}
    for key, shp in {"encoding": (n, d), "attention": (n, n), "output": (n, d)}.items():
        assert shape(pos[key]) == shp, f"positional.{key}"
    shuffled = pos["shuffled"]
    assert set(shuffled) == {"tokens", "order", "focus_index", "attention", "output", "attention_with_positions",
                             "output_with_positions"}
    assert sorted(shuffled["tokens"]) == sorted(ctx["tokens"]) and sorted(shuffled["order"]) == list(range(n))
    assert shuffled["tokens"][shuffled["focus_index"]] == ctx["focus"]
    for key, shp in {"attention": (n, n), "output": (n, d), "attention_with_positions": (n, n),
                     "output_with_positions": (n, d)}.items():
        assert shape(shuffled[key]) == shp, f"positional.shuffled.{key}"


def test_values_json_same_weights_in_every_context(data: dict[str, Any]) -> None:
    first, *rest = data["contexts"]
    assert rest, "the default lesson has two contexts"

    def weights(ctx: dict[str, Any]) -> list[Any]:
        return [
            ctx["projected"]["W_Q"], ctx["projected"]["W_K"], ctx["projected"]["W_V"], ctx["reshaped"]["W_V"],
            ctx["multi_head"]["W_O"],
            [[head[k] for k in ("W_Q", "W_K", "W_V")] for head in ctx["multi_head"]["heads"]],
        ]

    for ctx in rest:
        assert weights(ctx) == weights(first)
    # and the embeddings differ, so the comparison above is not of identical contexts
    assert first["embeddings"] != rest[0]["embeddings"]


def test_values_json_equals_the_trace_exactly(data: dict[str, Any], trace: LessonTrace) -> None:
    assert {k: v for k, v in data.items() if k != "claims"} == trace.to_json()  # the claims: tests/test_claims.py
    # compare against the arrays themselves too, bit for bit (JSON floats round-trip)
    for ctx, c in zip(data["contexts"], trace.contexts, strict=True):
        assert ctx["name"] == c.context.name and ctx["tokens"] == list(c.tokens) and ctx["focus"] == c.focus
        pairs = [
            (ctx["embeddings"], c.embeddings), (ctx["scores"], c.scores), (ctx["scaled"], c.scaled),
            (ctx["attention"], c.attention), (ctx["output"], c.output),
            (ctx["projected"]["attention"], c.projected.attention), (ctx["projected"]["output"], c.projected.output),
            (ctx["projected"]["Q"], c.projected.Q), (ctx["reshaped"]["output"], c.reshaped.output),
            (ctx["multi_head"]["concat"], c.multi_head.concat), (ctx["multi_head"]["output"], c.multi_head.output),
        ]
        pairs += [(jh["attention"], th.attention) for jh, th in zip(ctx["multi_head"]["heads"], c.multi_head.heads,
                                                                    strict=True)]
        for got, want in pairs:
            arr = np.array(got, dtype=np.float64)
            assert arr.shape == want.shape
            assert np.array_equal(arr, want)
    # full precision: at least one value that needs more than 6 significant digits
    assert any(len(repr(v)) > 10 for row in data["contexts"][0]["attention"] for v in row)


def test_values_json_causal_and_positional_equal_an_independent_recomputation(data: dict[str, Any]) -> None:
    # from the JSON's own embeddings, with the plain-Python reference (no attncore)
    def close(got: list[list[float]], want: ref.Matrix, what: str) -> None:
        err = max(abs(g - w) for rg, rw in zip(got, want, strict=True) for g, w in zip(rg, rw, strict=True))
        assert err <= 1e-12, f"{what}: off by {err:.3g}"

    for ctx in data["contexts"]:
        x, tokens, name = ctx["embeddings"], ctx["tokens"], ctx["name"]
        n, d = len(x), len(x[0])
        weights, out = ref.causal_attention(x, x, x)
        close(ctx["causal"]["attention"], weights, f"{name} causal attention")
        close(ctx["causal"]["output"], out, f"{name} causal output")
        focus = tokens.index(ctx["focus"])
        assert ctx["causal"]["attention"][focus][focus + 1:] == [0.0] * (n - focus - 1)
        pe = ref.sinusoidal_encoding(n, d)
        xp = [[a + b for a, b in zip(r, s)] for r, s in zip(x, pe)]
        close(ctx["positional"]["encoding"], pe, f"{name} encoding")
        weights, out = ref.attention(xp, xp, xp)
        close(ctx["positional"]["attention"], weights, f"{name} attention with positions")
        close(ctx["positional"]["output"], out, f"{name} output with positions")
        shuffled = ctx["positional"]["shuffled"]
        assert shuffled["tokens"] == [tokens[j] for j in shuffled["order"]]
        xs = [x[j] for j in shuffled["order"]]
        weights, out = ref.attention(xs, xs, xs)
        close(shuffled["output"], out, f"{name} shuffled output")
        close([shuffled["output"][shuffled["focus_index"]]], [ctx["output"][focus]], f"{name} focus output, shuffled")
        xsp = [[a + b for a, b in zip(r, s)] for r, s in zip(xs, pe)]
        weights, out = ref.attention(xsp, xsp, xsp)
        close(shuffled["output_with_positions"], out, f"{name} shuffled output with positions")
    # the default lesson: "mouse" moves to the front; with positions its output changes
    first = data["contexts"][0]
    assert first["positional"]["shuffled"]["tokens"] == ["mouse", "and", "cat", "are", "friends"]
    moved = first["positional"]["shuffled"]["output_with_positions"][0]
    assert max(abs(a - b) for a, b in zip(moved, first["positional"]["output"][2])) > 0.1


# --------------------------------------------------------------------------------------
# Layers
# --------------------------------------------------------------------------------------
def test_attncore_never_imports_manim(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import attncore, sys; assert 'manim' not in sys.modules, 'manim imported'"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_the_import_check_can_fail(tmp_path: Path) -> None:
    # guard: the check above really detects an import (manim is installed here)
    proc = subprocess.run(
        [sys.executable, "-c", "import attncore, manim, sys; assert 'manim' not in sys.modules"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode != 0
    assert "AssertionError" in proc.stderr
