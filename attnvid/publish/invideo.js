/* attnvid: the self-check's questions in the player, at the end of the chapter that explains them.
 *
 * On when the lesson says [selfcheck] in_video = true (the self-check section carries
 * data-in-video="1"), or the package was made with --in-video-questions. When the video plays
 * past the end of a chapter that explains questions not yet answered, it pauses and those
 * questions' cards (the self-check's own, moved into the player and put back after: one
 * answer, counted once) appear over it; Check works as below the video, Skip or Continue
 * (Escape skips) puts them back and plays on. Each chapter asks once per visit.
 */
(() => {
  "use strict";
  const readJSON = id => { try { return JSON.parse(document.getElementById(id).textContent); } catch (e) { return {}; } };
  const section = document.getElementById("self-check");
  const lecture = window.lecture;
  if (!section || !lecture || !(section.dataset.inVideo === "1" || readJSON("attnvid-package").in_video === true)) return;
  if (window.attnvidInVideo) return;  // the lecture page's own copy and the package's: one runs
  window.attnvidInVideo = true;
  const S = Object.assign({ iv_title: "A question on what you just watched", iv_skip: "Skip",
                            iv_continue: "Continue" }, readJSON("self-check-strings"));
  const video = lecture.video, chapters = lecture.chapters, EPS = 0.04, LEAD = 0.3;
  const byChapter = new Map();
  section.querySelectorAll(".exercise").forEach(ex => {
    const link = ex.querySelector("button.chapter");
    if (!link) return;
    const k = Number(link.dataset.chapter);
    if (!byChapter.has(k)) byChapter.set(k, []);
    byChapter.get(k).push(ex);
  });
  // The cards' look comes from rules scoped to #self-check: the same rules for the player's box
  // (through the CSS object model, which a Content-Security-Policy leaves alone, unlike a <style>).
  for (const sheet of Array.from(document.styleSheets)) {
    let rules = [];
    try { rules = Array.from(sheet.cssRules); } catch (e) { continue; }
    for (const r of rules) {
      if (!r.selectorText || !r.selectorText.includes("#self-check")) continue;
      try { sheet.insertRule(r.cssText.split("#self-check").join(".in-video"), sheet.cssRules.length); } catch (e) { /* kept as it was */ }
    }
  }
  const asked = new Set();
  let shown = null, playing = -1;
  const open = k => (byChapter.get(k) || []).filter(ex => !ex.hidden && !ex.dataset.result);
  const chapterAt = t => { for (let i = chapters.length - 1; i >= 0; i--) if (t >= chapters[i].start_s - EPS) return i; return 0; };

  function close() {
    if (!shown) return;
    shown.cards.forEach(([ex, mark]) => { mark.replaceWith(ex); ex.querySelectorAll("button.chapter").forEach(b => { b.hidden = false; }); });
    shown.box.remove();
    shown = null;
    video.focus();
    video.play();
  }
  function ask(k, cards) {
    asked.add(k);
    video.pause();
    const box = document.createElement("div");
    box.className = "in-video";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", S.iv_title);
    Object.assign(box.style, { position: "absolute", left: "0", right: "0", top: "0", minHeight: video.clientHeight + "px", background: "var(--bg)", border: "2px solid var(--accent)",
                               borderRadius: "6px", padding: "12px", zIndex: "5" });
    const title = document.createElement("h2");
    title.textContent = S.iv_title;
    Object.assign(title.style, { fontSize: "18px", margin: "0 0 8px" });
    box.appendChild(title);
    const held = cards.map(ex => {
      const mark = document.createComment("in-video");
      ex.replaceWith(mark);
      box.appendChild(ex);
      ex.querySelectorAll("button.chapter").forEach(b => { b.hidden = true; });  // it was just played
      return [ex, mark];
    });
    const go = document.createElement("button");
    go.type = "button";
    go.className = "check in-video-go";
    const label = () => { go.textContent = cards.every(ex => ex.dataset.result) ? S.iv_continue : S.iv_skip; };
    label();
    go.addEventListener("click", close);
    box.addEventListener("click", () => setTimeout(label, 0));
    box.addEventListener("keydown", e => { e.stopPropagation(); if (e.key === "Escape") close(); });  // not the player's keys
    box.appendChild(go);
    video.parentElement.style.position = "relative";
    video.insertAdjacentElement("afterend", box);
    shown = { box, cards: held };
    const first = box.querySelector("input, button");
    if (first) first.focus({ preventScroll: true });
  }
  function check() {
    if (shown || video.seeking) return;
    const t = video.currentTime, i = chapterAt(t);
    if (video.paused) { playing = i; return; }
    // the end of the chapter being played, or (a late check) the one just left
    const k = t >= chapters[i].end_s - LEAD ? i : playing === i - 1 && t - chapters[i].start_s < 2 ? i - 1 : -1;
    playing = i;
    if (k < 0 || asked.has(k)) return;
    const cards = open(k);
    if (cards.length) ask(k, cards);
  }
  video.addEventListener("timeupdate", check);
  video.addEventListener("seeked", () => { playing = chapterAt(video.currentTime); });
  setInterval(check, 50);
  window.attnvidInVideo = { ask: k => { const cards = open(k); if (cards.length) ask(k, cards); }, close, asked, byChapter };
})();
