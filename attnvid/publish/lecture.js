// The lecture page's player (index.html): chapters, presenter mode, the parts, the page's keys.
// A file beside the page, not inline code, so that a Content-Security-Policy of 'self' runs it.
(() => {
"use strict";
const manifest = JSON.parse(document.getElementById("manifest").textContent);
// The page's words in the lecture's language (translated when the page was written): {name}s filled here.
const S = JSON.parse(document.getElementById("page-strings").textContent);
function fillIn(text, values) { return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)); }
const chapters = manifest.chapters;
const video = document.getElementById("video");
const EPS = 0.04;  // seconds: under one frame at 25 fps and more

// Captions: each video's <track> element loads its WebVTT file (over http); a browser refuses
// a track file from file://, and then the same cues, embedded in the page, fill that track.
function fillTrack(v, cues, offset, end) {
  const el = v && v.querySelector("track[kind=captions]");
  if (!el || !cues.length) return;
  let filled = false;
  const fill = () => {
    if (filled || (el.track.cues && el.track.cues.length)) return;
    filled = true;
    cues.forEach(c => el.track.addCue(new VTTCue(c.start - offset, Math.min(c.end, end) - offset, c.text)));
  };
  el.addEventListener("error", fill);
  if (el.readyState === 3) fill();  // HTMLTrackElement.ERROR before this script ran
  el.track.mode = "showing";
}
fillTrack(video, manifest.caption_cues, 0, Infinity);

const list = document.getElementById("chapters");
const status = document.getElementById("status");
const presenterButton = document.getElementById("presenter");
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
  b.type = "button";
  b.dataset.index = i;
  const time = document.createElement("span");
  time.className = "t";
  time.textContent = fmt(c.start_s);
  const title = document.createElement("span");
  title.textContent = c.title;
  b.append(time, title);
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
  const end = p.start_s + p.duration_s;
  const cues = manifest.caption_cues.filter(c => c.start >= p.start_s - EPS && c.start < end - EPS);
  fillTrack(article.querySelector("video"), cues, p.start_s, end);
  article.querySelector("button.in-lecture").addEventListener("click", () => {
    seekTo(chapterAt(p.start_s + EPS), true);
    video.scrollIntoView({ behavior: "smooth", block: "start" });
  });
});

// play() is refused when a pause() or a seek interrupts it: nothing to report then
function play() { const p = video.play(); if (p) p.catch(() => {}); }
function seekTo(i, start) {
  i = Math.max(0, Math.min(chapters.length - 1, i));
  holdAt = null;
  current = i;
  video.currentTime = chapters[i].start_s + 0.001;
  if (start) play();
  mark();
}
// The chapter list is one Tab stop (the current chapter, or the item last focused in it); ↑ and ↓,
// Home and End move between its items (the chapters and their "Try it" links).
function items() { return [...list.querySelectorAll("button, a[href]")]; }
function rove(to) { items().forEach(e => { e.tabIndex = e === to ? 0 : -1; }); }
list.addEventListener("focusin", e => rove(e.target));
list.addEventListener("keydown", e => {
  const all = items(), k = all.indexOf(document.activeElement);
  const to = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: all.length - 1 }[e.key];
  if (k < 0 || to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  all[Math.max(0, Math.min(all.length - 1, to))].focus();
});
let shown = -1;
function mark() {
  const i = chapterAt(video.currentTime);
  if (i !== shown) {
    shown = i;
    list.querySelectorAll("button").forEach(b => {
      const on = Number(b.dataset.index) === i;
      b.classList.toggle("current", on);
      if (on) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
      if (on && !list.contains(document.activeElement)) rove(b);
    });
  }
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
  if (holdAt !== null) { const i = holdAt; holdAt = null; current = i + 1; video.currentTime = chapters[i + 1].start_s + 0.001; play(); }
  else if (video.paused) play();
  else video.pause();
  mark();
}
function stepBack() {
  const i = holdAt !== null ? holdAt : chapterAt(video.currentTime);
  const into = video.currentTime - chapters[i].start_s;
  seekTo(holdAt !== null ? i : (into > 1.5 ? i : i - 1), !video.paused || holdAt !== null);
}
function next() { seekTo(chapterAt(video.currentTime) + 1, !video.paused || holdAt !== null); }
presenterButton.addEventListener("click", () => {
  presenter = !presenter; holdAt = null;
  presenterButton.setAttribute("aria-pressed", String(presenter)); mark();
});
document.getElementById("next").addEventListener("click", next);
document.getElementById("back").addEventListener("click", stepBack);
video.addEventListener("click", e => { if (presenter) { e.preventDefault(); goOn(); } });
video.addEventListener("timeupdate", mark);

// The page's keys (listed on the page, #keys): only where no control has the focus, so that a
// focused button, link, field or video does what it says with Space and Enter, and the page
// scrolls with Page Down and the arrows. In presenter mode ↓/Page Down and ↑/Page Up (what a
// presentation clicker sends) go on and back wherever the focus is but in a field.
const CONTROL = "a[href], button, input, select, textarea, summary, video, audio, [contenteditable], [tabindex]:not([tabindex='-1'])";
const FIELD = "input, select, textarea, [contenteditable]";
const CLICKER = { PageDown: "on", ArrowDown: "on", PageUp: "back", ArrowUp: "back" };
document.addEventListener("keydown", e => {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const at = e.target instanceof Element ? e.target : null;
  const onControl = at && at.closest(CONTROL);
  let act = null;
  if (presenter && CLICKER[e.key] && !(at && at.closest(FIELD))) act = CLICKER[e.key];
  else if (onControl) return;
  else if (e.key === " ") act = "on";
  else if (e.key === "ArrowRight") act = presenter ? "on" : "next";
  else if (e.key === "ArrowLeft") act = "back";
  else if (e.key === "p" || e.key === "P") act = "presenter";
  if (!act) return;
  e.preventDefault();
  if (act === "on") goOn(); else if (act === "next") next(); else if (act === "back") stepBack(); else presenterButton.click();
});
window.lecture = { video, chapters, seekTo, goOn, stepBack, setPresenter(on) { if (presenter !== on) presenterButton.click(); }, state: () => ({ presenter, holdAt, current }) };
mark();
})();
