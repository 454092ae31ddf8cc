"""The offline lecture page: one HTML file, its scripts and styles (:data:`SCRIPTS`, :data:`STYLES`),
no network, no library.

The manifest is embedded in the page (browsers refuse ``fetch`` from ``file://``), so
double-clicking ``index.html`` works. Presenter mode pauses at the end of every section
and waits for the lecturer (space, →, ↓, Page Down or a click go on; ←, ↑, Page Up step
back a section), which is what a live presentation needs. The page's keys act only where
no control has the focus (a focused button, link, field or video keeps its own keys), and
the page lists them (``#keys``); skip links lead past the chapters to the video, the
self-check and the Try it panel. The header links the lecture's
other files: the slides, the handout and the workbook (:data:`LINKS`). Below, one card
per part of the lecture: its own video (with its captions), its scenes, and a button
that plays it in the whole lecture; the chapter list labels where each part begins.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from attncore.i18n import N_, _, language, ngettext
from attnstage.palette import LIGHT_ROLE

from ..outputs import write_atomic

#: The Try it panel's and the self-check's own surfaces in the light style (:mod:`.playground`,
#: :mod:`.selfcheck`): white fields and
#: cards on the light page, lines and grid as the light style draws them.
LIGHT_PANEL_VARS = (f"--pg-field: #ffffff; --pg-card: #f7f5ef; --pg-line: {LIGHT_ROLE['grid']}; --pg-grid: #d6d3ca; "
                    f"--pg-focus-line: {LIGHT_ROLE['accent']}; --pg-error: {LIGHT_ROLE['negative']}; "
                    f"--sc-right: {LIGHT_ROLE['positive']}; --sc-wrong: {LIGHT_ROLE['negative']};")
#: The light style's colours (:data:`attnstage.palette.LIGHT_ROLE`: background, panel, text, muted,
#: accent) as the page's variables, over the dark ones; the playground's own page sets them too.
LIGHT_ROOT_VARS = "color-scheme: light; " + " ".join(
    f"--{name}: {LIGHT_ROLE[role]};" for name, role in (("bg", "background"), ("panel", "panel"), ("text", "text"),
                                                       ("muted", "muted"), ("accent", "accent")))
#: ``light.css``, what the pages of a light lecture (``--theme light``) add to their style.
LIGHT_CSS = (":root { " + LIGHT_ROOT_VARS + " " + LIGHT_PANEL_VARS + """ }
nav button:hover { background: #e4e1d8; }
nav button.current { background: #f3e4c4; }
.bar button { border-color: """ + LIGHT_ROLE["grid"] + """; }
""")
#: The link a light page adds after its other styles.
LIGHT_LINK = '<link rel="stylesheet" href="light.css">'

_PAGE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<link rel="stylesheet" href="lecture.css">
__STYLE__
<script src="lecture.js" defer></script>
</head>
<body>
<a class="skip" href="#player">__T_SKIP_VIDEO__</a>__SKIPS__
<header><h1>__TITLE__</h1><span class="muted" id="meta"></span>__LINKS__</header>
<main id="main">
<div class="stage">
  <section id="player" tabindex="-1">
    <video id="video" controls preload="none" playsinline poster="__POSTER__">
      <source src="__VIDEO__" type="video/mp4">
      __TRACKS__
    </video>
    <div class="bar">
      <button id="presenter" type="button" aria-pressed="false" title="__T_PRESENTER_TIP__">__T_PRESENTER__</button>
      <button id="back" type="button" title="__T_BACK_TIP__">__T_BACK__</button>
      <button id="next" type="button" title="__T_NEXT_TIP__">__T_NEXT__</button>
      <span id="status"></span>
    </div>
    <details class="keys" id="keys"><summary>__T_KEYS__</summary><p>__T_KEYS_TEXT__</p></details>
  </section>
  <nav aria-label="__T_CHAPTERS__"><ol id="chapters"></ol></nav>
</div>
__PARTS__
__SELFCHECK__
__PANEL__
</main>
<script id="manifest" type="application/json">__MANIFEST__</script>
<script id="page-strings" type="application/json">__STRINGS__</script>
</body>
</html>
"""


#: The lecture folder's other files the page links, by manifest key: (label, what it is),
#: translated where the page is written.
LINKS = (
    (
        "slides",
        N_("Slides"),
        N_("one slide per section, its video playing by itself (PowerPoint, LibreOffice Impress)"),
    ),
    ("handout", N_("Handout"), N_("one page per section: its last frame and its narration (PDF)")),
    ("workbook", N_("Workbook"), N_("every number of the lecture as a live spreadsheet formula")),
    ("playground", N_("Try it"), N_("every step recomputed in the page as you change the words, vectors and settings")),
)


def _links(manifest: dict[str, Any]) -> str:
    items = [f'<a href="{html.escape(manifest[key])}" title="{html.escape(_(what))}">{html.escape(_(label))}</a>'
             for key, label, what in LINKS if manifest.get(key)]
    label = _("Lecture files")
    return f'<nav class="files" aria-label="{html.escape(label)}">{"".join(items)}</nav>' if items else ""


def _clock(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 60}:{s % 60:02d}"


def _part(n: int, part: dict[str, Any]) -> str:
    """Part ``n``'s card: its title, length, scenes, its own video and its files."""
    scenes = list(dict.fromkeys(c["title"].split(" — ", 1)[0] for c in part["chapters"]))
    items = "".join(f"<li>{html.escape(t)}</li>" for t in scenes)
    count = ngettext("{n} scene", "{n} scenes", len(scenes)).format(n=len(scenes))
    sections = ngettext("{n} section", "{n} sections", len(part["chapters"])).format(n=len(part["chapters"]))
    vtt = next((c["path"] for c in part["captions"] if c["format"] == "vtt"), None)
    play = _("Play in the lecture ({time})").format(time=_clock(part["start_s"]))
    video, captions = _("Video file"), _("Captions")
    links = (f'<button class="in-lecture" type="button">{html.escape(play)}</button>'
             f'<a href="{html.escape(part["video"])}">{html.escape(video)}</a>'
             + (f'<a href="{html.escape(vtt)}">{html.escape(captions)}</a>' if vtt else ""))
    heading = _("Part {n} · {title}").format(n=n, title=part["title"])
    return (f'<article class="part" data-index="{n - 1}"><h3>{html.escape(heading)}</h3>'
            f'<p class="muted">{html.escape(count)} · {html.escape(sections)} · {_clock(part["duration_s"])}</p>'
            f'<video controls preload="none" playsinline poster="{html.escape(part["poster"])}" '
            f'aria-label="{html.escape(heading)}">'
            f'<source src="{html.escape(part["video"])}" type="video/mp4">{_tracks(part["captions"])}</video>'
            f"<ul>{items}</ul><p>{links}</p></article>")


def _parts(manifest: dict[str, Any]) -> str:
    parts = manifest.get("parts") or []
    if not parts:
        return ""
    cards = "".join(_part(n, p) for n, p in enumerate(parts, 1))
    heading = ngettext("The lecture in {n} part", "The lecture in {n} parts", len(parts)).format(n=len(parts))
    return (f'<section id="parts" aria-labelledby="parts-title"><h2 id="parts-title">{html.escape(heading)}'
            f'</h2><div class="parts">{cards}</div></section>')


def _strings(manifest: dict[str, Any]) -> dict[str, str]:
    """The words the page's script shows, in the current language ({i} and {n} filled there)."""
    n = len(manifest.get("chapters") or [])
    return {
        "lang": language(),
        "captions": _("Captions"),
        "sections": ngettext("{n} section", "{n} sections", n).format(n=n),
        "part": _("Part {n} · {title}"),
        # Translators: the player's status line; {i} is the section playing, {n} how many there are.
        "status": _("Section {i} of {n}"),
        "status_presenter": _("Presenter · Section {i} of {n}"),
        "status_held": _("Presenter · Section {i} of {n} · paused at its end: space or → to go on"),
    }


def _chrome() -> dict[str, str]:
    """The player's buttons and labels in the current language, by their place in :data:`_PAGE`."""
    return {
        "__T_PRESENTER_TIP__": _("Pause at the end of every section (P)"),
        "__T_PRESENTER__": _("Presenter mode"),
        "__T_BACK_TIP__": _("Previous section (←)"),
        # Translators: a button that goes back one section of the video.
        "__T_BACK__": _("◀ Section"),
        "__T_NEXT_TIP__": _("Next section (→)"),
        # Translators: a button that goes on to the next section of the video.
        "__T_NEXT__": _("Section ▶"),
        "__T_CHAPTERS__": _("Chapters"),
        "__T_SKIP_VIDEO__": _("Skip to the video"),
        "__T_KEYS__": _("Keyboard"),
        "__T_KEYS_TEXT__": _(
            "Tab goes from control to control, ↑ and ↓ from chapter to chapter; Space or Enter does what the "
            "focused one says. "
            "Where no control has the focus: Space plays or pauses, → and ← go to the next or "
            "previous section, P turns presenter mode on or off; in presenter mode ↓ or Page Down "
            "goes on and ↑ or Page Up goes back (a presentation clicker's keys)."
        ),
    }


def _skips(self_check: str, panel: str) -> str:
    """The links past the header and the chapters to the self-check and the Try it panel (the
    first to the video is in :data:`_PAGE`): the first Tab stops of the page."""
    out = ""
    if self_check:
        said = _("Skip to the self-check")
        out += f'<a class="skip" href="#self-check">{html.escape(said)}</a>'
    if panel:
        said = _("Skip to Try it")
        out += f'<a class="skip" href="#playground">{html.escape(said)}</a>'
    return out


def _tracks(captions: list[dict[str, Any]]) -> str:
    """The video's captions as a ``<track>`` (the WebVTT file; the page's script fills the same
    track from embedded cues where the browser refuses the file, from ``file://``)."""
    vtt = next((c for c in captions if c.get("format") == "vtt"), None)
    if not vtt:
        return ""
    return (
        f'<track kind="captions" src="{html.escape(vtt["path"])}" '
        f'srclang="{html.escape(vtt.get("lang") or language())}" '
        f'label="{html.escape(vtt.get("label") or _("Captions"))}" default>'
    )


#: The pages' scripts and styles, files beside ``index.html`` and ``playground.html`` (what
#: :func:`write_page_assets` writes): no inline code or style, so that a
#: Content-Security-Policy of 'self' runs and applies them.
SCRIPTS = ("lecture.js", "selfcheck.js", "playground.js", "invideo.js")
STYLES = ("lecture.css", "selfcheck.css", "playground.css")


def write_page_assets(folder: Path) -> None:
    """Write :data:`SCRIPTS`, :data:`STYLES` and ``light.css`` into ``folder``, the folder of
    the pages that load them."""
    for name in SCRIPTS + STYLES:
        write_atomic(folder / name, resources.files("attnvid.publish").joinpath(name).read_bytes())
    write_atomic(folder / "light.css", LIGHT_CSS.encode())


def lecture_page(manifest: dict[str, Any], title: str, cues: list[dict[str, Any]] | None = None,
                 self_check: str = "", panel: str = "") -> str:
    """The page for a lecture folder whose ``manifest`` is given (paths relative to it);
    ``panel``, HTML placed after the self-check (the "Try it" panel, :mod:`.playground`).
    The page runs :data:`SCRIPTS`, which :func:`write_page_assets` writes beside it.

    Each video's captions are a ``<track>`` of its WebVTT file, and its cues are embedded
    too: browsers refuse a ``<track>`` file from ``file://``, and the page must work when
    opened from disk (the script then fills the same track). No video loads more than its
    poster until the student plays it (``preload="none"``: asked for its metadata only, Chromium
    took 8 MB of the lecture's MP4 from a local server in 10 s).
    ``self_check`` is the exercises' section (:func:`attnvid.publish.selfcheck.self_check_section`).
    """
    data = json.dumps({**manifest, "caption_cues": cues or []}, ensure_ascii=False).replace("</", "<\\/")
    strings = json.dumps(_strings(manifest), ensure_ascii=False).replace("</", "<\\/")
    posters = manifest.get("posters") or [""]
    page = _PAGE
    for key, text in _chrome().items():
        page = page.replace(key, html.escape(text))
    return (
        page.replace("__LANG__", html.escape(language()))
        .replace("__TITLE__", html.escape(title))
        .replace("__STYLE__", LIGHT_LINK if manifest.get("style") == "light" else "")
        .replace("__VIDEO__", html.escape(manifest["video"]))
        .replace("__POSTER__", html.escape(posters[0]))
        .replace("__TRACKS__", _tracks(manifest.get("captions") or []))
        .replace("__SKIPS__", _skips(self_check, panel))
        .replace("__LINKS__", _links(manifest))
        .replace("__PARTS__", _parts(manifest))
        .replace("__SELFCHECK__", self_check)
        .replace("__MANIFEST__", data)
        .replace("__STRINGS__", strings)
        .replace("__PANEL__", panel)
    )
