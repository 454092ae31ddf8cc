"""What is shown can be redone from what is shown (issue 12, point 3).

For built scenes (no frame rasterised) of lessons with 1, 2 and 3 decimals, at the end
of every section, from the numbers on screen only (their digits, as a student reads
them):

- every product of the worked dot product is exactly the product of its two shown
  factors, and every shown score is the sum of the shown products;
- every exponential of a worked softmax is ``exp`` of its shown score, every weight
  the shown exponential divided by the shown sum;
- every total (a sum of exponentials, a row sum, a share of attention on some words)
  is the sum of its shown parts, or is marked ``≈``, and is marked ``≈`` only then.

Each check names the numbers it read, so a failure says which digits disagree.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from conftest import built_scene
from test_lesson_scenes import lesson_toml

from attncore.lesson import builtin_lesson
from scenes.components import APPROX, EXP_ROW, Num
from scenes.inspect import visible_texts
from scenes.steps.causal_mask import CausalMask
from scenes.steps.dot_products import DotProducts
from scenes.steps.softmax import Softmax
from scenes.steps.training import LearningTheWeights

ROOT = Path(__file__).resolve().parents[1]
#: The attention matrix whose rows a ``row_sums`` source adds up, by stage.
ATTENTION_OF = {"simple": "attention", "causal": "causal.attention", "projected": "projected.attention"}


def read(num: Num) -> Decimal:
    """The number a student reads off the screen (without the ≈ mark); a weight too small to
    show, "<0.01", counts as what it rounds to, 0.00, as every shown number counts."""
    if num.digits.startswith("<"):
        return Decimal(0)
    return Decimal(num.digits.replace("−", "-"))


def at(x: Decimal | float, decimals: int) -> Decimal:
    """``x`` rounded as the lecture rounds: half away from zero."""
    return Decimal(repr(x) if isinstance(x, float) else x).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)


Key = tuple[int, str, tuple[int, ...], tuple[object, ...]]


def shown_numbers(cp: object) -> dict[Key, Num]:
    """The numbers on screen at a checkpoint, by (context, trace path, index, args); the most precise wins."""
    out: dict[Key, Num] = {}
    for s in visible_texts(cp):  # type: ignore[arg-type]
        m = s.mob
        if isinstance(m, Num) and m.source is not None:
            key = (m.source.context, m.source.name, tuple(m.source.index), tuple(m.source.args))
            if key not in out or m.decimals > out[key].decimals:
                out[key] = m
    return out


def check_total(total: Num, parts: list[Num], what: str) -> None:
    """``total`` is the sum of the shown ``parts`` at its precision, or marked ≈ (and only then)."""
    added = at(sum((read(p) for p in parts), Decimal(0)), total.decimals)
    adds = added == read(total)
    assert adds != total.approx, (
        f"{what}: shows {total.text!r}; the parts shown {[p.text for p in parts]} add up to {added}"
        + (" (so no ≈)" if adds else " (so it needs ≈)")
    )


def arithmetic(cp: object, scene: object) -> Iterator[str]:
    """Check every product, exponential, quotient and total on screen at ``cp``; yield what was checked."""
    nums = shown_numbers(cp)
    trace = scene.trace  # type: ignore[attr-defined]
    inexact: list[bool] = []
    yield from _arithmetic(cp, nums, trace, inexact)
    if exp_row_marked(cp):
        assert any(inexact), "the exponentials are marked ≈ though each is exp of its shown score"


def exp_row_marked(cp: object) -> bool:
    """Whether the worked row of exponentials on screen is named ``≈ exp(score)``."""
    return any(s.mob.text == (APPROX + EXP_ROW).replace(" ", "") for s in visible_texts(cp))  # type: ignore[arg-type]


def _arithmetic(cp: object, nums: dict[Key, Num], trace: object, inexact: list[bool]) -> Iterator[str]:
    for (c, name, index, args), num in nums.items():
        if name == "dot_terms":
            i, j = args[0], args[1]
            a, b = nums.get((c, "embeddings", (i, index[0]), ())), nums.get((c, "embeddings", (j, index[0]), ()))
            assert a is not None and b is not None, f"product {num.text} without both factors on screen"
            # every digit of the product: 0.5 × 0.5 shows 0.25, never 0.3
            assert read(a) * read(b) == read(num), f"{a.text} × {b.text} shows {num.text}"
            yield "product"
        elif name == "scores" and (c, "dot_terms", (0,), (index[0], index[1])) in nums:
            d = trace.contexts[c].d
            parts = [nums[(c, "dot_terms", (r,), (index[0], index[1]))] for r in range(d)]
            check_total(num, parts, "score")
            yield "score"
        elif name == "softmax_exps":
            i, j = args[0], index[0]
            operand = nums.get((c, "causal.masked" if args[1:] == ("causal",) else "scaled", (i, j), ()))
            if operand is None and args[1:] == ("causal",) and not trace.contexts[c].causal.mask[i, j]:
                continue  # exp(−∞) = 0: the operand is the "−∞" mark, not a number
            assert operand is not None, f"exponential {num.text} without its score on screen"
            e = at(math.exp(read(operand)), num.decimals)
            # the mark is on the row's name ("≈ exp(score)"), for the whole worked row
            assert e == read(num) or exp_row_marked(cp), f"exp {operand.text} = {e}, shown {num.text}, row not marked"
            inexact.append(e != read(num))
            yield "exponential"
        elif name == "softmax_total":
            n = trace.contexts[c].n
            parts = [nums.get((c, "softmax_exps", (j,), args)) for j in range(n)]
            assert all(p is not None for p in parts), f"sum {num.text} without every exponential on screen"
            check_total(num, parts, "sum of exponentials")  # type: ignore[arg-type]
            yield "sum"
        elif name in ("attention", "causal.attention"):
            stage = () if name == "attention" else ("causal",)
            e = nums.get((c, "softmax_exps", (index[1],), (index[0], *stage)))
            total = nums.get((c, "softmax_total", (), (index[0], *stage)))
            if e is not None and total is not None:
                q = at(read(e) / read(total), num.decimals)
                assert q == read(num), f"{e.text} ÷ {total.text} = {q}, shown {num.text}"
                yield "quotient"
        elif name == "row_sums":
            n, path = trace.contexts[c].n, ATTENTION_OF[str(args[0])]
            parts = [nums.get((c, path, (index[0], j), ())) for j in range(n)]
            assert all(p is not None for p in parts), f"row sum {num.text} without its row on screen"
            check_total(num, parts, f"row sum {index[0]}")  # type: ignore[arg-type]
            yield "row sum"
        else:
            yield from shares(c, name, num, nums, trace)


def shares(c: int, name: str, num: Num, nums: dict[Key, Num], trace: object) -> Iterator[str]:
    """A share of attention on the words of a sense, against the weights shown on those words."""
    ctx = trace.contexts[c]  # type: ignore[attr-defined]
    f, js = ctx.focus_index, ctx.causal.mask_cost.sense_positions
    paths = {"causal.mask_cost.unmasked": "attention", "causal.mask_cost.causal": "causal.attention"}
    if name.startswith("training.claims.") and name.endswith((".simple", ".trained")):
        paths[name] = "attention" if name.endswith(".simple") else "projected.attention"
    if name not in paths:
        return
    parts = [nums.get((c, paths[name], (f, j), ())) for j in js]
    if all(p is not None for p in parts):  # the weights are shown as numbers (not tiles)
        check_total(num, parts, f"share {name}")  # type: ignore[arg-type]
        yield "share"


def default_with(decimals: int) -> str:
    text = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    assert f"decimals = {builtin_lesson('default').decimals}" in text
    return text.replace(f"decimals = {builtin_lesson('default').decimals}", f"decimals = {decimals}", 1)


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The default lesson (2 decimals), the same at 1 decimal, a lesson with √6 (irrational
    scaled scores) at 3 decimals, and the largest lesson (8 words, 8 dimensions: exponentials
    too large to be redone from two-decimal scores)."""
    folder = tmp_path_factory.mktemp("arithmetic")
    out = {"default": ""}
    for key, text in (("default-1", default_with(1)), ("sqrt6-3", lesson_toml(1, 5, 6, 2, seed=3, decimals=3)),
                      ("largest", lesson_toml(3, 8, 8, 4))):
        path = folder / f"{key}.toml"
        path.write_text(text, encoding="utf-8")
        out[key] = str(path)
    return out


CASES = [(cls, key) for key in ("default", "default-1", "sqrt6-3") for cls in (DotProducts, Softmax, CausalMask)]
CASES += [(LearningTheWeights, "default"), (CausalMask, "largest")]


@pytest.mark.parametrize(("cls", "key"), CASES, ids=[f"{c.__name__}-{k}" for c, k in CASES])
def test_every_shown_result_is_the_shown_operation_on_the_shown_operands(cls: type, key: str,
                                                                           lessons: dict[str, str]) -> None:
    scene = built_scene(cls, lessons[key])
    checked = [what for cp in scene.checkpoints for what in arithmetic(cp, scene)]  # type: ignore[attr-defined]
    expected = {
        DotProducts: {"product", "score"},
        Softmax: {"exponential", "sum", "quotient", "row sum"},
        CausalMask: {"exponential", "sum", "quotient", "row sum"},
        LearningTheWeights: {"share"},
    }[cls]
    assert expected <= set(checked), f"nothing to check for {expected - set(checked)}: the test would be vacuous"


def test_the_default_lesson_marks_some_row_sums_and_not_the_worked_row() -> None:
    """Guard: the default lesson shows ≈ on some row sums of A (plain rounding does not always
    add up to 1.00) and none on the worked row, which adds up."""
    scene = built_scene(Softmax)
    marked = {cp.section: [s.mob.text for s in visible_texts(cp) if isinstance(s.mob, Num) and s.mob.approx]
              for cp in scene.checkpoints}
    assert marked["Divide by the sum"] == []
    assert marked["The attention matrix"] and all(t.startswith("≈") for t in marked["The attention matrix"])
    said = " ".join(n.text for n in scene.narrations if n.section == "The attention matrix")
    assert "marked approximate" in said


def test_a_row_of_exponentials_that_cannot_be_redone_is_marked(lessons: dict[str, str]) -> None:
    """Guard: at the largest lesson the masked row's exponentials are marked ≈ on the row's
    name, the mark checked above, and the narration says why."""
    scene = built_scene(CausalMask, lessons["largest"])
    marked = [cp.section for cp in scene.checkpoints if exp_row_marked(cp)]  # type: ignore[attr-defined]
    assert marked, "the largest lesson no longer needs the mark: pick a lesson that does"
    said = " ".join(n.text for n in scene.narrations if n.section in marked)  # type: ignore[attr-defined]
    assert "not of the rounded scores shown" in said


SCALING_CASES = ["default", "default-1", "sqrt6-3", "largest"]


@pytest.mark.parametrize("key", SCALING_CASES)
def test_every_scaled_score_is_the_shown_score_divided_by_the_shown_root(key: str, lessons: dict[str, str]) -> None:
    # Step 4: S (shown), ÷ √d (shown), then S/√d in S's place. Not on screen at one section's
    # end (each score rolls over into its quotient), so read from the section's layout.
    from scenes.steps.scaling import Scaling

    scene = built_scene(Scaling, lessons[key])
    lay = scene.division  # type: ignore[attr-defined]
    root, n = lay.sqrt_num, scene.trace.contexts[0].n  # type: ignore[attr-defined]
    marked = 0
    for r in range(n):
        for c in range(n):
            s, t = lay.scores.entry(r, c), lay.scaled.entry(r, c)
            q = at(read(s) / read(root), t.decimals)
            assert (q == read(t)) != t.approx, f"{s.text} ÷ {root.text} = {q}, shown {t.text}"
            marked += t.approx
    if key.startswith("default"):  # √4 = 2: with the scores' own digits every division comes out exactly
        assert marked == 0, f"{key}: {marked} scaled scores marked ≈"
