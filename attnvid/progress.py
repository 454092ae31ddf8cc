"""A per-scene progress display on stderr (rich), plain lines when not on a terminal."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.table import Table

from .jobs import Result


class SceneProgress:
    """One line per scene: waiting, rendering (with elapsed time), done or cached."""

    def __init__(self, scenes: list[str]) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.scenes = scenes
        self.state: dict[str, str] = {s: "waiting" for s in scenes}
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
        for s in self.scenes:
            st = self.state[s]
            if st == "rendering":
                st = f"[yellow]rendering[/] {now - self.began[s]:.0f} s"
            t.add_row(s, st)
        return t

    def _update(self) -> None:
        if self.live is not None:
            self.live.update(self._table())

    def start(self, scene: str) -> None:
        self.state[scene] = "rendering"
        self.began[scene] = time.perf_counter()
        self._update()

    def done(self, r: Result) -> None:
        if r.cached:
            self.state[r.scene] = "[dim]unchanged, not rendered[/]"
        else:
            self.state[r.scene] = f"[green]rendered[/] in {r.seconds:.1f} s ({r.duration:.1f} s of video)"
        if self.live is None:
            self.console.print(f"{r.scene}: " + self.state[r.scene].replace("[green]", "").replace("[/]", "").replace("[dim]", ""))
        self._update()
