// The lecture page's self-check (selfcheck.py): a file beside the page, not inline code, so that a
// Content-Security-Policy of 'self' runs it.
(() => {
  "use strict";
  const number = s => Number(s.trim().replace(/\u2212/g, "-").replace(",", "."));
  // the words in the lecture's language, {name}s filled here
  const S = JSON.parse(document.getElementById("self-check-strings").textContent);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  document.querySelectorAll("#self-check .exercise").forEach(ex => {
    const verdict = ex.querySelector(".verdict"), worked = ex.querySelector("details.worked");
    ex.querySelector("button.check").addEventListener("click", () => {
      let right, said;
      if (ex.dataset.numerical === "1") {
        const raw = ex.querySelector("input.answer").value, v = number(raw);
        if (raw.trim() === "" || !Number.isFinite(v)) { verdict.textContent = S.type_number; return; }
        // the tolerance, plus a hair for the binary representation of decimals (0.005 is not exact)
        right = Math.abs(v - number(ex.dataset.answer)) <= Number(ex.dataset.tolerance) + 1e-9;
        said = right ? fill(S.right, { answer: ex.dataset.shown }) :
          fill(S.not_within, { number: raw.trim(), tolerance: ex.dataset.toleranceShown || ex.dataset.tolerance });
      } else {
        const picked = ex.querySelector("input[type=radio]:checked");
        if (!picked) { verdict.textContent = S.choose; return; }
        right = picked.dataset.right === "1";
        said = right ? fill(S.right, { answer: ex.dataset.shown }) : fill(S.mistake, { mistake: picked.dataset.mistake });
      }
      verdict.textContent = said;
      verdict.className = "verdict " + (right ? "right" : "wrong");
      ex.dataset.result = right ? "right" : "wrong";
      if (!right) worked.open = true;
    });
    const link = ex.querySelector("button.chapter");
    if (link) link.addEventListener("click", () => {
      if (!window.lecture) return;
      window.lecture.seekTo(Number(link.dataset.chapter), true);
      window.lecture.video.scrollIntoView({ behavior: "smooth", block: "start" });
    });
  });
})();
