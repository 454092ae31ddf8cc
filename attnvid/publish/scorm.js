/* attnvid: the lecture page reports to a learning platform's SCORM 1.2 API.
 *
 * Finds window.API the standard way (up the parent frames, then the opener's), then keeps the
 * platform told: cmi.core.lesson_location (the chapter reached, from 1), session_time, the
 * self-check's score (raw 0-100 = the share of its questions answered right), lesson_status
 * (passed or failed against the mastery score, else completed once every chapter was played,
 * else incomplete) and cmi.suspend_data (the answers checked, the chapters played, the
 * position), committed at each change; LMSFinish when the page goes away. Without an API, or
 * with a platform that refuses LMSInitialize, the page is exactly what it was. A platform that
 * throws, refuses a value or keeps a foreign or damaged suspend_data never stops the page.
 * Launched as index.html?part=N, it is part N: its chapters, and the questions they explain.
 */
(() => {
  "use strict";
  const root = document.documentElement;
  const lecture = window.lecture;
  const readJSON = id => { try { return JSON.parse(document.getElementById(id).textContent); } catch (e) { return {}; } };
  const settings = readJSON("attnvid-package");
  const manifest = readJSON("manifest");
  const MAX_SUSPEND = 4096;  // SCORM 1.2's limit on cmi.suspend_data (characters)
  const MAX_ANSWER = 40;     // characters of a typed answer kept
  root.dataset.scorm = "none";
  if (!lecture) return;

  // -- the API: the parents first (a few levels: a platform's frames), then the opener's ------
  function apiOf(win) {
    for (let depth = 0; win && depth < 10; depth++) {
      try { if (win.API && typeof win.API.LMSInitialize === "function") return win.API; } catch (e) { /* another origin */ }
      let up = null;
      try { up = win.parent; } catch (e) { up = null; }
      if (!up || up === win) break;
      win = up;
    }
    return null;
  }
  let api = apiOf(window);
  try { if (!api && window.opener) api = apiOf(window.opener); } catch (e) { api = null; }
  if (!api) return;

  const call = (name, ...args) => {
    try { const r = api[name](...args); return r === undefined || r === null ? "" : String(r); } catch (e) { return "false"; }
  };
  const failed = () => { const n = Number(call("LMSGetLastError")); return Number.isFinite(n) && n !== 0 ? n : 0; };
  if (call("LMSInitialize", "") !== "true") {
    root.dataset.scorm = "refused";
    console.warn("attnvid: the platform refused LMSInitialize (error " + failed() + "); nothing is reported");
    return;
  }
  root.dataset.scorm = "connected";
  let open = true;
  const refused = [];  // what the platform refused: "element: code text", for whoever looks
  function setValue(key, value) {
    if (!open) return false;
    if (call("LMSSetValue", key, String(value)) === "true") return true;
    const code = failed();
    refused.push(key + ": " + code + " " + call("LMSGetErrorString", String(code)));
    return false;
  }
  function getValue(key) {
    const v = call("LMSGetValue", key);
    return failed() ? "" : v;
  }

  // -- what this launch covers: the whole lecture, or part N -----------------------------------
  const chapters = lecture.chapters, video = lecture.video, EPS = 0.04;
  const partN = Number(new URLSearchParams(window.location.search).get("part")) || 0;
  const part = partN ? (manifest.parts || [])[partN - 1] : null;
  const inScope = i => !part || (chapters[i].start_s >= part.start_s - EPS && chapters[i].start_s < part.start_s + part.duration_s - EPS);
  const scope = chapters.map((c, i) => i).filter(inScope);
  const chapterAt = t => { for (let i = chapters.length - 1; i >= 0; i--) if (t >= chapters[i].start_s - EPS) return i; return 0; };
  const exercises = Array.from(document.querySelectorAll("#self-check .exercise")).filter(ex => {
    const link = ex.querySelector("button.chapter");
    const mine = !part || (link !== null && inScope(Number(link.dataset.chapter)));
    if (!mine) ex.hidden = true;
    return mine;
  });

  // -- the state kept in cmi.suspend_data ---------------------------------------------------------
  const watched = new Set();
  const answers = {};  // exercise number: [what was answered, 1 right / 0 wrong]
  let position = 0, reached = -1, restoring = false;
  const mask = () => scope.map(i => (watched.has(i) ? "1" : "0")).join("");
  function suspendData() {
    const data = { v: 1, id: settings.id || "", t: Math.round(position * 10) / 10, w: mask(), a: { ...answers } };
    let text = JSON.stringify(data);
    for (const k of Object.keys(data.a).reverse()) {  // never over the limit: the last answers go first
      if (text.length < MAX_SUSPEND) break;
      delete data.a[k];
      text = JSON.stringify(data);
    }
    return text.length < MAX_SUSPEND ? text : JSON.stringify({ v: 1, id: data.id, t: data.t });
  }
  function parseSuspend(text) {  // ours and whole, or null (a damaged or foreign state is a fresh start)
    let data;
    try { data = JSON.parse(text); } catch (e) { return null; }
    if (!data || typeof data !== "object" || data.v !== 1 || data.id !== (settings.id || "")) return null;
    if (typeof data.t !== "number" || !Number.isFinite(data.t) || data.t < 0) return null;
    if (typeof data.w !== "string" || !/^[01]*$/.test(data.w)) return null;
    if (!data.a || typeof data.a !== "object" || Array.isArray(data.a)) return null;
    return data;
  }

  // -- score and status ---------------------------------------------------------------------------
  const mastery = Number.isFinite(Number(settings.mastery)) ? Number(settings.mastery) : 80;
  function score() {
    const checked = exercises.filter(ex => ex.dataset.result === "right" || ex.dataset.result === "wrong");
    const right = checked.filter(ex => ex.dataset.result === "right").length;
    return { answered: checked.length, raw: exercises.length ? Math.round((100 * right) / exercises.length) : 0 };
  }
  function status(s) {
    if (exercises.length && s.answered && s.raw >= mastery) return "passed";
    if (exercises.length && s.answered === exercises.length) return "failed";
    return scope.every(i => watched.has(i)) ? "completed" : "incomplete";
  }
  const started = Date.now();
  function sessionTime() {  // CMITimespan, HHHH:MM:SS.SS
    const s = (Date.now() - started) / 1000, h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return String(h).padStart(4, "0") + ":" + String(m).padStart(2, "0") + ":" + (s % 60).toFixed(2).padStart(5, "0");
  }
  function report() {
    if (!open || restoring) return;
    const s = score();
    if (exercises.length && s.answered) {
      setValue("cmi.core.score.min", "0");
      setValue("cmi.core.score.max", "100");
      setValue("cmi.core.score.raw", String(s.raw));
    }
    setValue("cmi.core.lesson_status", status(s));
    if (reached >= 0) setValue("cmi.core.lesson_location", String(reached + 1));
    setValue("cmi.suspend_data", suspendData());
    setValue("cmi.core.session_time", sessionTime());
    if (call("LMSCommit", "") !== "true") refused.push("LMSCommit: " + failed());
  }

  // -- what the student does ------------------------------------------------------------------------
  function onTime() {
    const i = chapterAt(video.currentTime);
    if (!inScope(i)) return;
    let changed = false;
    if (!video.paused && !video.seeking && !watched.has(i)) { watched.add(i); changed = true; }
    if (i !== reached) { reached = i; changed = true; }
    if (changed) { position = video.currentTime; report(); }
  }
  video.addEventListener("timeupdate", onTime);
  video.addEventListener("pause", () => { position = video.currentTime; report(); });
  document.addEventListener("click", e => {  // after the self-check's own handler has given its verdict
    const button = e.target.closest && e.target.closest("#self-check button.check, .exercise button.check");
    const ex = button && button.closest(".exercise");
    if (!ex || !exercises.includes(ex) || !ex.dataset.result) return;
    const field = ex.querySelector("input.answer"), picked = ex.querySelector("input[type=radio]:checked");
    const said = field ? field.value.trim().slice(0, MAX_ANSWER) : picked ? picked.value : "";
    answers[ex.dataset.number] = [said, ex.dataset.result === "right" ? 1 : 0];
    report();
  });

  // -- coming back: the answers checked again, the chapters played, the position -------------
  function restore(data) {
    restoring = true;
    try {
      scope.forEach((i, k) => { if (data.w[k] === "1") watched.add(i); });
      for (const ex of exercises) {
        const got = data.a[ex.dataset.number];
        if (!Array.isArray(got) || typeof got[0] !== "string") continue;
        const field = ex.querySelector("input.answer");
        if (field) field.value = got[0].slice(0, MAX_ANSWER);
        else {
          const radio = Array.from(ex.querySelectorAll("input[type=radio]")).find(r => r.value === got[0]);
          if (!radio) continue;
          radio.checked = true;
        }
        ex.querySelector("button.check").click();
        if (ex.dataset.result) answers[ex.dataset.number] = [got[0].slice(0, MAX_ANSWER), ex.dataset.result === "right" ? 1 : 0];
      }
    } finally { restoring = false; }
    position = data.t;
    reached = inScope(chapterAt(position)) ? chapterAt(position) : -1;
    const seek = () => { video.currentTime = position; };
    // the page asks nothing of a video until it is played (preload none): a position to restore
    // needs its metadata, so ask for that much (not the video itself)
    if (video.readyState >= 1) seek(); else { video.addEventListener("loadedmetadata", seek, { once: true }); video.preload = "metadata"; }
  }
  const saved = parseSuspend(getValue("cmi.suspend_data"));
  if (saved) restore(saved);
  else if (part && scope.length) {
    const start = () => { video.currentTime = chapters[scope[0]].start_s + 0.001; };
    if (video.readyState >= 1) start(); else { video.addEventListener("loadedmetadata", start, { once: true }); video.preload = "metadata"; }
  }
  setValue("cmi.core.exit", "suspend");  // the state stays for the student's return
  report();

  // -- leaving: the last state, then LMSFinish (once) -----------------------------------------------
  function finish() {
    if (!open) return;
    position = video.currentTime;
    report();
    setValue("cmi.core.exit", "suspend");
    call("LMSCommit", "");
    call("LMSFinish", "");
    open = false;
    root.dataset.scorm = "finished";
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("unload", finish);
  window.attnvidScorm = { finish, refused, state: () => ({ watched: [...watched], answers: { ...answers }, reached, position }) };
})();
