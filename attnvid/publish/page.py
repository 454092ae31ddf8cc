"""The offline lecture page: one HTML file, no network, no library.

The manifest is embedded in the page (browsers refuse ``fetch`` from ``file://``), so
double-clicking ``index.html`` works. Presenter mode pauses at the end of every section
and waits for the lecturer (space, →, ↓, Page Down or a click go on; ←, ↑, Page Up step
back a section), which is what a live presentation needs. The header links the lecture's
other files: the slides, the handout and the workbook (:data:`LINKS`). Below, one card
per part of the lecture: its own video (with its captions), its scenes, and a button
that plays it in the whole lecture; the chapter list labels where each part begins.
"""

from __future__ import annotations

import html
import json
from typing import Any

from attncore.i18n import N_, _, language, ngettext

#: The Try it panel's and the self-check's own surfaces in the light style (:mod:`.playground`,
#: :mod:`.selfcheck`): white fields and
#: cards on the light page, lines and grid as the light style draws them.
LIGHT_PANEL_VARS = ("--pg-field: #ffffff; --pg-card: #f7f5ef; --pg-line: #7d838e; --pg-grid: #d6d3ca; "
                    "--pg-focus-line: #955800; --pg-error: #b3261e; --sc-right: #276b2b; --sc-wrong: #b3261e;")
#: The light style's colours (scenes/theme.py's LIGHT_ROLE: background, panel, text, muted,
#: accent) as the page's variables, over the dark ones; the playground's own page sets them too.
LIGHT_ROOT_VARS = ("color-scheme: light; --bg: #fbfaf6; --panel: #f0eee8; --text: #1c1e24; --muted: #5b606b; "
                   "--accent: #955800;")
#: The page of a light lecture (``--theme light``).
LIGHT_CSS = ("""<style>
  :root { """ + LIGHT_ROOT_VARS + " " + LIGHT_PANEL_VARS + """ }
  nav button:hover { background: #e4e1d8; }
  nav button.current { background: #f3e4c4; }
  .bar button { border-color: #7d838e; }
</style>""")

_PAGE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
  :root { color-scheme: dark; --bg: #14161c; --panel: #20232c; --text: #ece8e1; --muted: #8d93a1; --accent: #f2c14e; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.4 "DejaVu Sans", system-ui, sans-serif; }
  header { padding: 12px 20px; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
  h1 { font-size: 20px; margin: 0; }
  .muted { color: var(--muted); }
  main { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 16px; padding: 0 20px 20px; }
  @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
  video { width: 100%; background: #000; border-radius: 6px; display: block; }
  nav { background: var(--panel); border-radius: 6px; padding: 8px; max-height: 80vh; overflow: auto; }
  nav ol { list-style: none; margin: 0; padding: 0; }
  nav button { width: 100%; text-align: left; background: none; border: 0; color: var(--text); padding: 6px 8px;
               border-radius: 4px; cursor: pointer; font: inherit; display: flex; gap: 8px; }
  nav button:hover { background: #2b2f3a; }
  nav button.current { background: #3a3520; color: var(--accent); }
  nav .t { color: var(--muted); font-variant-numeric: tabular-nums; min-width: 3.2em; }
  .bar { display: flex; gap: 12px; align-items: center; margin-top: 10px; flex-wrap: wrap; }
  .bar button { background: var(--panel); color: var(--text); border: 1px solid #4a4f5c; border-radius: 4px;
                padding: 6px 12px; font: inherit; cursor: pointer; }
  .bar button[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); }
  #status { color: var(--muted); }
  .files { display: flex; gap: 14px; margin-left: auto; }
  .files a { color: var(--accent); text-decoration: none; }
  .files a:hover { text-decoration: underline; }
  #parts { padding: 0 20px 24px; }
  #parts h2 { font-size: 18px; margin: 8px 0 12px; }
  .parts { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 16px; }
  .part { background: var(--panel); border-radius: 6px; padding: 12px; }
  .part h3 { font-size: 16px; margin: 0 0 4px; color: var(--accent); }
  .part p { margin: 6px 0; }
  .part ul { margin: 6px 0; padding: 0; list-style: none; color: var(--muted); font-size: 14px; }
  .part a, .part button { color: var(--accent); background: none; border: 0; padding: 0; font: inherit; cursor: pointer;
                          text-decoration: none; margin-right: 14px; white-space: nowrap; }
  .part a:hover, .part button:hover { text-decoration: underline; }
  nav .part-label { color: var(--accent); font-size: 13px; padding: 8px 8px 2px; text-transform: uppercase;
                    letter-spacing: 0.04em; }
</style>
__STYLE__
</head>
<body>
<header><h1>__TITLE__</h1><span class="muted" id="meta"></span>__LINKS__</header>
<main>
  <section>
    <video id="video" controls preload="auto" playsinline poster="__POSTER__">
      <source src="__VIDEO__" type="video/mp4">
      __TRACKS__
    </video>
    <div class="bar">
      <button id="presenter" aria-pressed="false" title="__T_PRESENTER_TIP__">__T_PRESENTER__</button>
      <button id="back" title="__T_BACK_TIP__">__T_BACK__</button>
      <button id="next" title="__T_NEXT_TIP__">__T_NEXT__</button>
      <span id="status"></span>
    </div>
  </section>
  <nav aria-label="__T_CHAPTERS__"><ol id="chapters"></ol></nav>
</main>
__PARTS__
__SELFCHECK__
<script id="manifest" type="application/json">__MANIFEST__</script>
<script id="page-strings" type="application/json">__STRINGS__</script>
<script>
"use strict";
const manifest = JSON.parse(document.getElementById("manifest").textContent);
// The page's words in the lecture's language (translated when the page was written): {name}s filled here.
const S = JSON.parse(document.getElementById("page-strings").textContent);
function fillIn(text, values) { return text.replace(/\\{(\\w+)\\}/g, (m, k) => (k in values ? String(values[k]) : m)); }
const chapters = manifest.chapters;
const video = document.getElementById("video");
// Captions from the embedded cues (a <track> file would be refused from file://).
if (manifest.caption_cues.length) {
  const cap = (manifest.captions || [])[0] || {};
  const track = video.addTextTrack("captions", cap.label || S.captions, cap.lang || S.lang);
  manifest.caption_cues.forEach(c => track.addCue(new VTTCue(c.start, c.end, c.text)));
  track.mode = "showing";
}
const list = document.getElementById("chapters");
const status = document.getElementById("status");
const presenterButton = document.getElementById("presenter");
const EPS = 0.04;  // seconds: under one frame at 25 fps and more
let presenter = false;
let holdAt = null;  // index of the chapter whose end we paused at

function fmt(t) { const m = Math.floor(t / 60), s = Math.floor(t % 60); return m + ":" + String(s).padStart(2, "0"); }
function chapterAt(t) {
  for (let i = chapters.length - 1; i >= 0; i--) if (t >= chapters[i].start_s - EPS) return i;
  return 0;
}
chapters.forEach((c, i) => {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.dataset.index = i;
  b.innerHTML = '<span class="t">' + fmt(c.start_s) + "</span><span></span>";
  b.lastChild.textContent = c.title;
  b.addEventListener("click", () => seekTo(i, true));
  li.appendChild(b);
  list.appendChild(li);
});
document.getElementById("meta").textContent = S.sections + " · " + fmt(manifest.duration_s);
// The parts: a label over each part's first chapter; each part's own video gets its
// captions (the lecture's cues in its time span, shifted to start at zero); a button
// plays the part in the lecture's video.
(manifest.parts || []).forEach((p, n) => {
  const first = list.children[chapterAt(p.start_s + EPS)];
  const label = document.createElement("div");
  label.className = "part-label";
  label.textContent = fillIn(S.part, { n: n + 1, title: p.title });
  if (first) first.insertBefore(label, first.firstChild);
  const article = document.querySelector('.part[data-index="' + n + '"]');
  if (!article) return;
  const v = article.querySelector("video");
  const end = p.start_s + p.duration_s;
  const cues = manifest.caption_cues.filter(c => c.start >= p.start_s - EPS && c.start < end - EPS);
  if (v && cues.length) {
    const cap = (p.captions || [])[0] || {};
    const track = v.addTextTrack("captions", cap.label || S.captions, cap.lang || S.lang);
    cues.forEach(c => track.addCue(new VTTCue(c.start - p.start_s, Math.min(c.end, end) - p.start_s, c.text)));
    track.mode = "showing";
  }
  article.querySelector("button.in-lecture").addEventListener("click", () => {
    seekTo(chapterAt(p.start_s + EPS), true);
    video.scrollIntoView({ behavior: "smooth", block: "start" });
  });
});

function seekTo(i, play) {
  i = Math.max(0, Math.min(chapters.length - 1, i));
  holdAt = null;
  current = i;
  video.currentTime = chapters[i].start_s + 0.001;
  if (play) video.play();
  mark();
}
function mark() {
  const i = chapterAt(video.currentTime);
  list.querySelectorAll("button").forEach(b => b.classList.toggle("current", Number(b.dataset.index) === i));
  // (a pause at a section's end happens in presenter mode only)
  status.textContent = fillIn(holdAt !== null ? S.status_held : presenter ? S.status_presenter : S.status,
                           { i: i + 1, n: chapters.length });
}
// Presenter mode: stop at the end of the section being played. The section is fixed
// when playback starts or jumps (not re-derived from the time, which may already have
// crossed into the next section between two checks).
let current = 0;
function check() {
  if (video.seeking) return;
  const t = video.currentTime;
  if (!presenter || video.paused || holdAt !== null) { current = chapterAt(t); return; }
  const end = chapters[current].end_s;
  if (t >= end - EPS && current < chapters.length - 1) {
    video.pause();
    video.currentTime = end - EPS;
    holdAt = current;
    mark();
  }
}
function loop() { check(); requestAnimationFrame(loop); }
requestAnimationFrame(loop);
setInterval(check, 20);  // also when frames are not painted (a hidden tab)
video.addEventListener("seeked", () => { if (holdAt === null) current = chapterAt(video.currentTime); });
video.addEventListener("play", () => { if (holdAt === null) current = chapterAt(video.currentTime); });
function goOn() {
  if (holdAt !== null) { const i = holdAt; holdAt = null; current = i + 1; video.currentTime = chapters[i + 1].start_s + 0.001; video.play(); }
  else if (video.paused) video.play();
  else video.pause();
  mark();
}
function stepBack() {
  const i = holdAt !== null ? holdAt : chapterAt(video.currentTime);
  const into = video.currentTime - chapters[i].start_s;
  seekTo(holdAt !== null ? i : (into > 1.5 ? i : i - 1), !video.paused || holdAt !== null);
}
presenterButton.addEventListener("click", () => {
  presenter = !presenter; holdAt = null;
  presenterButton.setAttribute("aria-pressed", String(presenter)); mark();
});
document.getElementById("next").addEventListener("click", () => seekTo(chapterAt(video.currentTime) + 1, !video.paused || holdAt !== null));
document.getElementById("back").addEventListener("click", stepBack);
video.addEventListener("click", e => { if (presenter) { e.preventDefault(); goOn(); } });
video.addEventListener("timeupdate", mark);
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT") return;
  if (["ArrowRight", "ArrowDown", "PageDown", " "].includes(e.key)) { e.preventDefault(); presenter ? goOn() : (e.key === " " ? goOn() : seekTo(chapterAt(video.currentTime) + 1, !video.paused)); }
  else if (["ArrowLeft", "ArrowUp", "PageUp"].includes(e.key)) { e.preventDefault(); stepBack(); }
  else if (e.key === "p" || e.key === "P") presenterButton.click();
});
window.lecture = { video, chapters, seekTo, goOn, stepBack, setPresenter(on) { if (presenter !== on) presenterButton.click(); }, state: () => ({ presenter, holdAt, current }) };
mark();
</script>
__PANEL__
</body>
</html>
"""


#: The lecture folder's other files the page links, by manifest key: (label, what it is),
#: translated where the page is written.
LINKS = (
    ("slides", N_("Slides"), N_("one slide per section, its video playing by itself (PowerPoint, LibreOffice Impress)")),
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
            f'<video controls preload="metadata" playsinline poster="{html.escape(part["poster"])}">'
            f'<source src="{html.escape(part["video"])}" type="video/mp4"></video>'
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
    }


def lecture_page(manifest: dict[str, Any], title: str, cues: list[dict[str, Any]] | None = None,
                 self_check: str = "", panel: str = "") -> str:
    """The page for a lecture folder whose ``manifest`` is given (paths relative to it);
    ``panel``, HTML placed after the player's script (the "Try it" panel, :mod:`.playground`).

    Captions are embedded as cues and added with ``addTextTrack``: browsers refuse to load
    a ``<track>`` file from ``file://``, and the page must work when opened from disk.
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
        .replace("__STYLE__", LIGHT_CSS if manifest.get("style") == "light" else "")
        .replace("__VIDEO__", html.escape(manifest["video"]))
        .replace("__POSTER__", html.escape(posters[0]))
        .replace("__TRACKS__", "")
        .replace("__LINKS__", _links(manifest))
        .replace("__PARTS__", _parts(manifest))
        .replace("__SELFCHECK__", self_check)
        .replace("__MANIFEST__", data)
        .replace("__STRINGS__", strings)
        .replace("__PANEL__", panel)
    )
