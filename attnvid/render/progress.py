"""A per-scene progress display on stderr (rich), plain lines when not on a terminal."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.table import Table

from .jobs import Job, Result


class SceneProgress:
    """One line per job (labelled ``Scene``, or ``lesson/Scene`` in a batch): waiting,
    rendering (with elapsed time), done or cached.

    Not on a terminal, a line is printed as each job ends (``Softmax: rendered in ...``)
    and, with ``announce_starts``, as each begins (``bank/Softmax: rendering on tcp://...``).
    """

    def __init__(self, labels: list[str], announce_starts: bool = False) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.labels = labels
        self.announce_starts = announce_starts
        self.state: dict[str, str] = {s: "waiting" for s in labels}
        self.began: dict[str, float] = {}
        self.live: Live | None = None

    def __enter__(self) -> SceneProgress:
        if self.console.is_terminal:
            self.live = Live(self._table(), console=self.console, refresh_per_second=4, transient=False)
            self.live.__enter__()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if self.live is not None:
            self.live.update(self._table())
            self.live.__exit__(et, ev, tb)

    def _table(self) -> Table:
        t = Table.grid(padding=(0, 2))
        now = time.perf_counter()
        for s in self.labels:
            st = self.state[s]
            if st == "rendering":
                st = f"[yellow]rendering[/] {now - self.began[s]:.0f} s"
            t.add_row(s, st)
        return t

    def _update(self) -> None:
        if self.live is not None:
            self.live.update(self._table())

    def note(self, text: str) -> None:
        """A line of its own above the display (a finished lesson, in a batch)."""
        self.console.print(text, soft_wrap=True)

    def start(self, label: str, where: str = "") -> None:
        """``label`` begins rendering (``where``: on which cluster worker; "" for here)."""
        self.state[label] = "rendering"
        self.began[label] = time.perf_counter()
        if self.live is None and self.announce_starts:
            self.console.print(f"{label}: rendering" + (f" on {where}" if where else ""), soft_wrap=True)
        self._update()

    def done(self, job: Job, r: Result) -> None:
        label = job.label
        if r.cached:
            self.state[label] = "[dim]unchanged, not rendered[/]"
        else:
            self.state[label] = f"[green]rendered[/] in {r.seconds:.1f} s ({r.duration:.1f} s of video)"
            if r.worker:
                self.state[label] += f" on {r.worker}"
        if self.live is None:
            # soft_wrap: one line per job whatever its length (rich wraps at 80 columns off a terminal)
            self.console.print(
                f"{label}: " + self.state[label].replace("[green]", "").replace("[/]", "").replace("[dim]", ""),
                soft_wrap=True,
            )
        self._update()
