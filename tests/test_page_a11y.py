"""The lecture page as a student meets it: axe-core's WCAG 2.1 A/AA rules, the keyboard alone, a
phone, and what opening the page downloads (issue 48, item 5).

Every check reads the lecture rendered once per run (``lecture_dir``, conftest.py). The page in
the other style and language is written again from that lecture's files (the page's functions,
as ``attnvid lecture`` calls them; nothing is rendered again). Debian's Chromium runs the pages;
axe-core comes from ``tests/js/node_modules`` (``npm ci`` in ``tests/js``), never fetched.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.render

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "tests" / "js" / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required"]
#: Where the screenshots go, to be looked at ($ATTNVID_SHOTS, else the test's temporary folder).
SHOTS_ENV = "ATTNVID_SHOTS"
VARIANTS = [("dark", "en"), ("light", "en"), ("dark", "fr"), ("light", "fr")]


# -- the pages -------------------------------------------------------------------------------------
def _seconds(stamp: str) -> float:
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def _cues(vtt: Path) -> list[dict[str, Any]]:
    """The page's embedded cues, read back from the lecture's WebVTT file."""
    blocks = re.findall(r"(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)[^\n]*\n(.+?)(?:\n\n|\Z)",
                        vtt.read_text(encoding="utf-8"), re.S)
    return [{"start": _seconds(a), "end": _seconds(b), "text": text.strip()} for a, b, text in blocks]


def republish(lecture: Path, out: Path, style: str, lang: str) -> Path:
    """``out``: the rendered ``lecture`` folder's files (linked) with its two pages written again
    in ``style`` and ``lang`` by the functions ``attnvid lecture`` uses (titles translated as the
    lecture translates them)."""
    from attncore import default_lesson, trace_lesson
    from attncore.exercises import make_exercises
    from attncore.i18n import use
    from attnvid.publish.assemble import LECTURE_EXERCISES
    from attnvid.publish.clips import shown
    from attnvid.publish.page import SCRIPTS, STYLES, lecture_page, write_page_assets
    from attnvid.publish.playground import playground_page, playground_panel
    from attnvid.publish.selfcheck import self_check_section

    out.mkdir(parents=True)
    for entry in lecture.iterdir():
        if entry.name not in ("index.html", "playground.html", "light.css", *SCRIPTS, *STYLES):
            os.symlink(entry, out / entry.name)
    m = json.loads((lecture / "manifest.json").read_text(encoding="utf-8"))
    with use(lang):
        def title(t: str) -> str:
            return " — ".join(shown(p) for p in t.split(" — "))

        m["style"] = style
        m["chapters"] = [{**c, "title": title(c["title"])} for c in m["chapters"]]
        m["parts"] = [{**p, "title": shown(p["title"]), "captions": [{**c, "lang": lang} for c in p["captions"]]}
                      for p in m["parts"]]
        m["captions"] = [{**c, "lang": lang} for c in m["captions"]]
        lesson = default_lesson()
        trace = trace_lesson(lesson)
        exercises = make_exercises(trace, LECTURE_EXERCISES, seed=0)
        check = self_check_section(exercises, m["chapters"], m["exercises"])
        page = lecture_page(m, lesson.title, _cues(lecture / "captions.vtt"), check, playground_panel(trace, m))
        (out / "index.html").write_text(page.replace('<html lang="en">', f'<html lang="{lang}">', 1), encoding="utf-8")
        play = playground_page(trace, m).replace('<html lang="en">', f'<html lang="{lang}">', 1)
        (out / "playground.html").write_text(play, encoding="utf-8")
    write_page_assets(out)
    return out


@pytest.fixture(scope="module")
def pages(lecture_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """The lecture's folder as rendered (dark, English) and written again in the other variants."""
    base = tmp_path_factory.mktemp("variants")
    return {(style, lang): lecture_dir if (style, lang) == ("dark", "en") else
            republish(lecture_dir, base / f"{style}-{lang}", style, lang) for style, lang in VARIANTS}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Any, url: str, width: int = 1280, height: int = 800) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("load")
    page.errors = errors
    return page


def violations(page: Any) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line per element."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async tags => {
        const r = await axe.run(document, { runOnly: { type: "tag", values: tags } });
        return r.violations.flatMap(v => v.nodes.map(n => v.id + " " + n.target.join(" ") + ": " +
                                                        (n.failureSummary || "").replace(/\\s+/g, " ")));
    }""", WCAG)
    return list(found)


def answer_everything(page: Any) -> int:
    """Answer every exercise of the self-check (the odd ones right, the even ones wrong) and check
    each; how many were answered."""
    cards = page.locator("#self-check .exercise")
    n = cards.count()
    for k in range(n):
        card = cards.nth(k)
        right = k % 2 == 0
        if card.get_attribute("data-numerical") == "1":
            answer = float(card.get_attribute("data-answer") or "0")
            card.locator("input.answer").fill(str(answer if right else answer + 7))
        else:
            card.locator(f"input[data-right='{1 if right else 0}']").first.check()
        card.locator("button.check").click()
        assert ("right" if right else "wrong") in (card.locator(".verdict").get_attribute("class") or "")
    return n


def edit_panel(page: Any) -> None:
    """Change the Try it panel the ways a student does: a vector's cell, the settings, the weights,
    a sentence it refuses (its error message shows)."""
    cell = page.locator('#playground input[data-matrix="embeddings"][data-row="0"][data-col="0"]')
    cell.fill("1.5")
    cell.press("Enter")
    for name in ("causal", "positions"):
        page.locator(f'#playground [data-control="{name}"]').check()
    page.locator('#playground [data-control="weights"]').select_option("head:0")
    box = page.locator('#playground [data-control="sentence"]')
    box.fill("zzz qqq")
    box.press("Enter")
    assert page.evaluate("playground.message().error"), "the refused sentence shows its error"


# -- axe-core ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("style", "lang"), VARIANTS)
def test_no_axe_violations(pages: dict[tuple[str, str], Path], browser: Any, style: str, lang: str) -> None:
    """index.html and playground.html in both styles and two languages: no WCAG 2.1 A/AA violation
    before, nor after every exercise is answered and the Try it panel edited."""
    folder = pages[(style, lang)]
    page = open_page(browser, (folder / "index.html").as_uri())
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("getComputedStyle(document.body).colorScheme") == style
    assert violations(page) == []
    assert answer_everything(page) == 10
    edit_panel(page)
    page.locator("#self-check details.worked").first.evaluate("d => d.open = true")
    assert violations(page) == []
    assert page.errors == []
    page.close()
    page = open_page(browser, (folder / "playground.html").as_uri())
    assert violations(page) == []
    edit_panel(page)
    assert violations(page) == []
    assert page.errors == []
    page.close()


# -- the keyboard ----------------------------------------------------------------------------------
def focused(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => { const e = document.activeElement;
        return { tag: e.tagName, id: e.id, cls: e.className || "", text: (e.textContent || "").trim().slice(0, 60),
                 href: e.getAttribute("href"), index: e.dataset.index ?? null,
                 exercise: e.closest(".exercise") ? e.closest(".exercise").id : null,
                 chapter: !!e.closest("#chapters") }; }""")


def tab_until(page: Any, want: str, limit: int = 400) -> int:
    """Press Tab until the focused element matches the JS predicate ``want`` (of ``e``): how many presses."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"(e => {want})(document.activeElement)"):
            return n
    raise AssertionError(f"not reached in {limit} Tab presses: {want}")


def events(page: Any) -> dict[str, int]:
    return page.evaluate("({ ...window.plays })")


#: Counts the video's play and pause events (``window.plays``); mutes it.
COUNT = """() => { lecture.video.muted = true; window.plays = { play: 0, pause: 0 };
    lecture.video.addEventListener("play", () => window.plays.play++);
    lecture.video.addEventListener("pause", () => window.plays.pause++); }"""


def test_keyboard_only(lecture_dir: Path, browser: Any) -> None:
    """Tab from the top: skip links first, the first exercise in at most 10 stops from one; Space
    and Enter do what the focused control says (a chapter jumps, a button acts, the video
    toggles once); the page's own keys act only where no control has the focus; Page Down and
    ↓ scroll the page."""
    page = open_page(browser, (lecture_dir / "index.html").as_uri())
    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    page.evaluate(COUNT)
    # The skip links are the first stops; the self-check's leads to its first exercise.
    page.keyboard.press("Tab")
    assert focused(page)["href"] == "#player"
    assert page.evaluate("document.activeElement.getBoundingClientRect().top >= 0"), "a focused skip link shows"
    page.keyboard.press("Tab")
    assert focused(page)["href"] == "#self-check"
    page.keyboard.press("Enter")
    stops = tab_until(page, "e.closest('#exercise-1') !== null", 20)
    assert stops <= 10, f"the first exercise is {stops} Tab stops after the skip link"
    print(f"\nfirst exercise: {stops} Tab stops after the skip link, {stops + 2} from the top of the page")
    # Its Check button: Space checks (the verdict asks for a number), the video stays paused.
    tab_until(page, "e.matches('#exercise-1 button.check')", 5)
    page.keyboard.press("Space")
    assert page.locator("#exercise-1 .verdict").inner_text() != ""
    # "Worked solution": Enter opens it, Space closes it; the video is not started.
    tab_until(page, "e.matches('#exercise-1 summary')", 5)
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector('#exercise-1 details.worked').open")
    page.keyboard.press("Space")
    assert not page.evaluate("document.querySelector('#exercise-1 details.worked').open")
    assert events(page) == {"play": 0, "pause": 0} and page.evaluate("lecture.video.paused")
    # No control has the focus (the skip link's target section): Page Down and ↓ scroll the page,
    # and the video does not move.
    page.evaluate("document.getElementById('self-check').focus()")
    before, t0 = page.evaluate("scrollY"), page.evaluate("lecture.video.currentTime")
    page.keyboard.press("PageDown")
    page.wait_for_function(f"scrollY > {before}", timeout=3000)
    mid = page.evaluate("scrollY")
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"scrollY > {mid}", timeout=3000)
    assert page.evaluate("lecture.video.currentTime") == t0 and events(page) == {"play": 0, "pause": 0}

    # From the top again: the video skip link, then the player's controls in order.
    page.reload()
    page.evaluate(COUNT)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # "Skip to the video"
    assert focused(page)["id"] == "player"
    # no control has the focus: the page's keys act (Space plays, → goes to the next section)
    page.keyboard.press("Space")
    page.wait_for_function("!lecture.video.paused", timeout=5000)
    page.keyboard.press("Space")
    page.wait_for_function("lecture.video.paused", timeout=5000)
    # the "pause" event is a task queued after .paused turns true: wait for it, a little
    for _ in range(30):
        if events(page)["pause"]:
            break
        page.wait_for_timeout(100)
    assert events(page) == {"play": 1, "pause": 1}
    page.keyboard.press("ArrowRight")
    page.wait_for_function("!lecture.video.seeking && lecture.state().current === 1", timeout=5000)
    # The video: Space toggles it once.
    page.keyboard.press("Tab")
    assert focused(page)["tag"] == "VIDEO"
    page.keyboard.press("Space")
    page.wait_for_timeout(600)
    assert events(page) == {"play": 2, "pause": 1} and not page.evaluate("lecture.video.paused"), events(page)
    page.keyboard.press("Space")
    page.wait_for_timeout(600)
    assert events(page) == {"play": 2, "pause": 2} and page.evaluate("lecture.video.paused"), events(page)
    # Presenter: Space turns it on, Enter off; the video is not started.
    tab_until(page, "e.id === 'presenter'", 10)
    page.keyboard.press("Space")
    assert page.evaluate("lecture.state().presenter") and page.evaluate("lecture.video.paused")
    page.keyboard.press("Enter")
    assert not page.evaluate("lecture.state().presenter") and events(page)["play"] == 2
    # "Section ▶": Space goes to the next section (paused, it stays paused).
    tab_until(page, "e.id === 'next'", 3)
    page.keyboard.press("Space")
    page.wait_for_function("!lecture.video.seeking && lecture.state().current === 2", timeout=5000)
    assert events(page)["play"] == 2
    # The chapter list is one Tab stop, its items reached with ↓ and ↑; a chapter: Space jumps
    # there and plays, Enter on another jumps there.
    tab_until(page, "e.closest('#chapters') !== null", 3)
    assert focused(page)["index"] == "2", "the list's stop is the current chapter"
    for key, k in (("Space", 5), ("Enter", 9)):
        for _ in range(40):
            if page.evaluate(f"document.activeElement.dataset.index === '{k}'"):
                break
            page.keyboard.press("ArrowDown")
        page.keyboard.press(key)
        page.wait_for_function(f"!lecture.video.seeking && lecture.state().current === {k}", timeout=5000)
        t = page.evaluate("lecture.video.currentTime")
        assert m["chapters"][k]["start_s"] - 0.01 <= t <= m["chapters"][k]["start_s"] + 1.0, (key, t)
        page.wait_for_function("!lecture.video.paused", timeout=5000)
        page.evaluate("lecture.video.pause()")
    # In presenter mode a clicker's Page Down goes on, wherever the focus is (here a chapter)
    page.evaluate("lecture.setPresenter(true)")
    page.keyboard.press("PageDown")
    page.wait_for_function("!lecture.video.paused", timeout=5000)
    page.evaluate("lecture.setPresenter(false); lecture.video.pause()")
    # The keys are written on the page, by the player.
    keys = page.locator("#keys")
    keys.locator("summary").click()
    assert "Page Down" in keys.inner_text() and "Space" in keys.inner_text()
    # A whole round of Tab from the top of the page, back to the first skip link.
    page.reload()
    page.keyboard.press("Tab")
    rounds = tab_until(page, "e.getAttribute('href') === '#player'", 400)
    print(f"a full Tab round: {rounds} stops")
    assert rounds <= 140, rounds  # 218 before the skip links and the chapter list's single stop
    assert page.errors == [], page.errors
    page.close()


# -- a phone; screenshots ---------------------------------------------------------------------------
def shots_folder(tmp_path: Path) -> Path:
    folder = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("style", ["dark", "light"])
def test_phone_and_desktop(pages: dict[tuple[str, str], Path], browser: Any, tmp_path: Path, style: str) -> None:
    """On a phone (390 × 844) the chapters are a box of their own, the page no wider than the
    screen and far shorter than it was (11,054 px); screenshots of both widths."""
    folder, shots = pages[(style, "en")], shots_folder(tmp_path)
    for name, (w, h) in (("desktop", (1280, 800)), ("phone", (390, 844))):
        page = open_page(browser, (folder / "index.html").as_uri(), w, h)
        page.wait_for_timeout(2000)  # the posters drawn (Chromium's spinner gone)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        page.screenshot(path=str(shots / f"page-{style}-{name}.png"), full_page=True)
        page.screenshot(path=str(shots / f"page-{style}-{name}-top.png"))
        print(f"\n{style} {name} {w}x{h}: the page is {height} px tall")
        if name == "phone":
            nav = page.evaluate("document.querySelector('main nav').getBoundingClientRect().height")
            assert nav <= h / 2 + 1, nav
            assert height <= 10_000, height
        page.close()


# -- what opening the page downloads -----------------------------------------------------------------
#: The strictest policy a learning platform may put the page under: its own files only.
CSP = "default-src 'self'"


class _RangeHandler(SimpleHTTPRequestHandler):
    """A static file server that answers Range requests (206, one range) and counts every byte it
    sends, by path; every answer carries :data:`CSP`."""

    sent: dict[str, int] = {}
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _count(self, n: int) -> None:
        with self.lock:
            self.sent[self.path] = self.sent.get(self.path, 0) + n

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if not path.is_file():
            self.send_error(404)
            return
        size = path.stat().st_size
        start, end = 0, size - 1
        ranged = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if ranged and (ranged[1] or ranged[2]):
            if ranged[1]:
                start, end = int(ranged[1]), min(int(ranged[2]) if ranged[2] else size - 1, size - 1)
            else:
                start = max(0, size - int(ranged[2]))
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        with open(path, "rb") as f:
            f.seek(start)
            left = end - start + 1
            try:
                while left > 0:
                    chunk = f.read(min(64 * 1024, left))
                    self.wfile.write(chunk)
                    self._count(len(chunk))
                    left -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass


def until(page: Any, expression: str, seconds: float) -> None:
    """Wait for ``expression`` to be true in the page (Playwright's wait_for_function evaluates a
    string, which the page's policy refuses)."""
    end = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < end, f"not within {seconds} s: {expression}"
        time.sleep(0.1)


def test_opening_the_page_downloads_little(lecture_dir: Path, browser: Any) -> None:
    """Served over http with Range requests, the page's first 10 s transfer at most 2 MB (no video
    loads until played); the video then plays, and the captions arrive as the <track> file. All
    under a Content-Security-Policy of 'self': nothing refused, the style and scripts applied."""
    root = lecture_dir.resolve()

    class Handler(_RangeHandler):
        sent: dict[str, int] = {}

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script("window.refused = []; document.addEventListener('securitypolicyviolation', "
                             "e => window.refused.push(e.violatedDirective + ' ' + e.blockedURI));")
        page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
        time.sleep(10)
        assert page.evaluate("window.refused") == [] and errors == []
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 22, 28)", "lecture.css"
        assert page.evaluate("document.querySelectorAll('#chapters button').length") > 40, "lecture.js ran"
        with Handler.lock:
            first = dict(Handler.sent)
        total = sum(first.values())
        print(f"\nthe first 10 s: {total:,} bytes: " + ", ".join(f"{k} {v:,}" for k, v in sorted(first.items())))
        assert total <= 2_000_000, first
        assert not any(k.startswith("/parts/") and k.endswith(".mp4") for k in first), "a part's video loaded unasked"
        # the captions came as the track's file, and the video plays when asked (ranges answered)
        assert page.evaluate("document.querySelector('#video track').readyState") == 2
        assert page.evaluate("lecture.video.textTracks[0].cues.length") == len(_cues(lecture_dir / "captions.vtt"))
        page.evaluate("lecture.video.muted = true; lecture.seekTo(6, true)")
        t = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))["chapters"][6]["start_s"]
        until(page, f"lecture.video.currentTime > {t + 1}", 20)
        page.goto(f"http://127.0.0.1:{server.server_port}/playground.html")
        until(page, "window.playground !== undefined", 10)
        assert page.evaluate("window.refused") == [] and errors == []
        page.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("style", "lang"), [("dark", "en"), ("light", "fr")])
def test_page_scripts_and_styles_are_files(pages: dict[tuple[str, str], Path], style: str, lang: str) -> None:
    """No inline code or style (what a Content-Security-Policy of 'self' refuses): every <script>
    either names a file of the lecture folder or holds JSON data, every style is a stylesheet
    file of the folder; no on* or style attribute, no eval."""
    from attnvid.publish.page import SCRIPTS, STYLES

    lecture_dir = pages[(style, lang)]
    for name in ("index.html", "playground.html"):
        text = (lecture_dir / name).read_text(encoding="utf-8")
        assert "<style" not in text and not re.search(r"<[^>]+\sstyle=", text), name
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', text)
        assert sheets and all((lecture_dir / s).is_file() and s in (*STYLES, "light.css") for s in sheets), sheets
        assert ("light.css" in sheets) == (style == "light")
        for attrs, body in re.findall(r"<script([^>]*)>(.*?)</script>", text, re.S):
            if "src=" in attrs:
                src = re.search(r'src="([^"]+)"', attrs)[1]  # type: ignore[index]
                assert (lecture_dir / src).is_file() and src in SCRIPTS and not body.strip(), attrs
            else:
                assert 'type="application/json"' in attrs, attrs
                json.loads(body)
        assert not re.search(r"<[^>]+\son[a-z]+=", text), "an inline event handler"
    for name in SCRIPTS:
        js = (lecture_dir / name).read_text(encoding="utf-8")
        assert not re.search(r"\beval\(|new Function\(|setTimeout\(\s*[\"']", js), name
