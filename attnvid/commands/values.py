"""``attnvid values``: every step's numbers as tables, or exact values as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable

import click
import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from attncore import ContextTrace, LessonTrace, fmt, trace_lesson
from attncore.claims import lesson_claims
from attncore.display import MINUS_INFINITY, fmt_masked
from attnstage.settings import SceneSettings

from ..lessons import get_lesson
from ..options import lesson_option, no_media_option, settings_options


def _table(title: str, m: np.ndarray, rows: list[str], cols: list[str], decimals: int,
           show: Callable[[float, int], str] = fmt) -> Table:
    """One matrix, every value as ``show`` (``fmt``) shows it (the video's and the workbook's digits)."""
    t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("", style="bold")
    for c in cols:
        t.add_column(c, justify="right")
    for name, row in zip(rows, m):
        t.add_row(name, *(show(v, decimals) for v in row))
    return t


def print_tables(trace: LessonTrace, console: Console) -> None:
    lesson, dec = trace.lesson, trace.decimals
    dims = list(lesson.dimensions)
    console.print(
        f"[bold]{lesson.title}[/]  (d = {lesson.d}, heads = {lesson.heads}, {dec} decimal{'' if dec == 1 else 's'})"
    )
    console.print(f"Weights: {escape(trace.weights.provenance)}\n", soft_wrap=True)  # one line, greppable
    print_training(trace, console)
    for c in trace.contexts:
        toks = list(c.tokens)
        console.rule(f"context {c.context.name!r}: {c.context.sentence}  (focus: {c.focus})")
        console.print(_table("Embeddings X", c.embeddings, toks, dims, dec))
        console.print(_table("Scores X·Xᵀ", c.scores, toks, toks, dec))
        console.print(_table(f"Scaled X·Xᵀ/√{c.d}", c.scaled, toks, toks, dec))
        console.print(
            _table("Attention softmax (row = query, column = key; rows sum to 1)", c.attention, toks, toks, dec)
        )
        console.print(_table("Output A·X", c.output, toks, dims, dec))
        p = c.projected
        proj_cols = [f"q{i + 1}" for i in range(c.d)]
        console.print(_table("Q = X·W_Q", p.Q, toks, proj_cols, dec))
        console.print(_table("K = X·W_K", p.K, toks, [f"k{i + 1}" for i in range(c.d)], dec))
        console.print(_table("V = X·W_V", p.V, toks, [f"v{i + 1}" for i in range(c.d)], dec))
        console.print(_table(f"Attention softmax(Q·Kᵀ/√{c.d})", p.attention, toks, toks, dec))
        console.print(_table("Output A·V", p.output, toks, [f"v{i + 1}" for i in range(c.d)], dec))
        r = c.reshaped
        dv = r.V.shape[1]
        console.print(
            _table(f"V = X·W_V with W_V of shape {c.d}×{dv}", r.V, toks, [f"v{i + 1}" for i in range(dv)], dec)
        )
        console.print(_table(f"Output A·V ({c.n}×{dv})", r.output, toks, [f"v{i + 1}" for i in range(dv)], dec))
        mh = c.multi_head
        d_h = c.d // len(mh.heads)
        for i, h in enumerate(mh.heads):
            console.print(_table(f"Head {i + 1} attention softmax(Q_h·K_hᵀ/√{d_h})", h.attention, toks, toks, dec))
            console.print(
                _table(f"Head {i + 1} output", h.output, toks, [f"h{i + 1}.{j + 1}" for j in range(d_h)], dec)
            )
        console.print(_table("Concatenated heads", mh.concat, toks, [f"c{i + 1}" for i in range(c.d)], dec))
        console.print(_table("Multi-head output concat·W_O", mh.output, toks, [f"o{i + 1}" for i in range(c.d)], dec))
        fi = c.focus_index
        lean = dims[int(np.argmax(c.output[fi]))]
        console.print(f"\n[bold]{c.focus}[/] after attention leans [bold]{lean}[/]: "
                      + ", ".join(f"{n} {fmt(v, dec)}" for n, v in zip(dims, c.output[fi])) + "\n")
        print_causal(c, console, dec)
        print_positional(c, console, dec)
    console.print(
        f"W_Q, W_K, W_V, W_O ({lesson.d}×{lesson.d}) and the {lesson.d}×{lesson.projections.d_v} W_V are the same in "
        "every context; "
        "see --json for them."
    )


def print_training(trace: LessonTrace, console: Console) -> None:
    """What the weights were trained on, how the loss fell, and whether the claims hold."""
    t, dec = trace.training, trace.decimals
    if t is None:
        return
    console.rule("training", style="dim")
    if t.task:
        console.print(f"Task: {escape(t.task)}", soft_wrap=True)
    if t.loss:
        console.print(f"Loss: {t.loss[0]:.4f} at step 0, {t.loss[-1]:.4f} after {len(t.loss) - 1} steps; "
                      f"{t.rounded_loss:.4f} with the rounded weights")
        console.print(f"Accuracy on the one-sense sentences: {fmt(t.accuracy, dec)} (one head), "
                      f"{fmt(t.accuracy_heads, dec)} (heads)")
    for c in t.claims:
        heads = ", ".join(fmt(a, dec) for a in c.heads)
        words = ", ".join(escape(w) for w in c.sense_words) or "no word"
        console.print(f"{escape(c.context)!s}: attention on {words}: {fmt(c.simple, dec)} simplified, "
                      f"{fmt(c.trained, dec)} trained (heads {heads}); reads {c.readout or 'no single dimension'} "
                      f"(heads: {c.readout_heads or 'no single dimension'}), sense {c.sense}", soft_wrap=True)
    console.print(f"Claims hold: {'yes' if t.claims_hold else 'no: ' + escape(t.reason)}\n", soft_wrap=True)


def _masked_table(title: str, m: np.ndarray, toks: list[str], decimals: int) -> Table:
    """Scores in which −∞ marks a word the mask hides (shown by ``fmt_masked``, as on screen)."""
    return _table(title, m, toks, toks, decimals, fmt_masked)


def print_causal(c: ContextTrace, console: Console, dec: int) -> None:
    """The simplified step under the causal mask, and what the mask does to the focus word."""
    toks, dims = list(c.tokens), list(c.dimensions)
    console.rule(f"causal mask, {c.context.name!r}: each word sees itself and the words before it", style="dim")
    console.print(_masked_table(f"Masked scores X·Xᵀ/√{c.d} ({MINUS_INFINITY} above the diagonal)", c.causal.masked,
                                toks, dec))
    console.print(_table(f"Causal attention softmax (exp({MINUS_INFINITY}) = 0; rows sum to 1)", c.causal.attention,
                         toks, toks, dec))
    console.print(_table("Causal output A·X", c.causal.output, toks, dims, dec))
    cost = c.causal.mask_cost
    if cost.sense_positions:
        words = ", ".join(escape(toks[j]) for j in cost.sense_positions)
        hidden = ", ".join(escape(toks[j]) for j in cost.hidden_positions) or "none"
        console.print(f"\n[bold]{escape(c.focus)}[/]'s attention on the words of its sense ({words}): "
                      f"{fmt(cost.unmasked, dec)} without the mask, {fmt(cost.causal, dec)} with it "
                      f"(hidden by the mask: {hidden})\n")


def print_positional(c: ContextTrace, console: Console, dec: int) -> None:
    """Positions added to the words, and the shuffled sentence without and with them."""
    toks, dims, p, f = list(c.tokens), list(c.dimensions), c.positional, c.focus_index
    console.rule(f"positions, {c.context.name!r}: the same words in another order", style="dim")
    # Positions are not senses: rows by position (with the word there), columns by the sine or
    # cosine of pair i (PE[p, 2i] = sin(p/10000^(2i/d)), PE[p, 2i+1] = cos(...)).
    waves = [f"{'sin' if k % 2 == 0 else 'cos'} {k // 2}" for k in range(c.d)]
    console.print(_table("Positional encoding PE (row p, from 0: sin and cos of p/10000^(2i/d))", p.encoding,
                         [f"{r} {t}" for r, t in enumerate(toks)], waves, dec))
    console.print(_table(f"Attention softmax((X+PE)·(X+PE)ᵀ/√{c.d})", p.attention, toks, toks, dec))
    console.print(_table("Output A·(X+PE)", p.output, toks, dims, dec))
    console.print(
        f"\nShuffled: [bold]{escape(' '.join(p.shuffled_tokens))}[/] (the same words, {escape(c.focus)} moved)"
    )
    rows = np.array([c.output[f], p.shuffled_focus_output, p.output[f], p.shuffled_positional_focus_output])
    labels = [
        "no positions, original",
        "no positions, shuffled",
        "with positions, original",
        "with positions, shuffled",
    ]
    console.print(_table(f"Output of {escape(c.focus)}", rows, labels, dims, dec))
    console.print()


@click.command("values")
@settings_options(lesson_option)
@no_media_option("values writes no files, it prints the numbers (redirect them to a file)")
@click.option("--json", "as_json", is_flag=True,
              help="Exact values (full float precision) as JSON, and the lecture's claims (the facts it states).")
def values(settings: SceneSettings, as_json: bool) -> None:
    """Print every step of the lesson, so numbers can be checked without rendering."""
    trace = trace_lesson(get_lesson(settings))
    if as_json:
        # "claims": every factual sentence of the lecture, as data (attncore.claims)
        out = {**trace.to_json(), "claims": [c.to_json() for c in lesson_claims(trace)]}
        click.echo(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        print_tables(trace, Console(highlight=False, width=120))
