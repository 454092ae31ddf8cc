// The "Try it" panel: self-attention recomputed in the page, with the video's numbers.
//
// Every number is computed here in float64 by the same operations, in the same order, as
// numpy computes attncore's (see docs/explanations/exact-numbers.md): a matrix product sums
// in index order, one rounded product after another (attncore.steps.product, the same
// on every CPU), a row sum is numpy's pairwise sum, the softmax
// subtracts the row's largest score first. One rounding function, fmt(), shows every
// number: half away from zero on the shortest decimal form of the float, as attncore's
// display.fmt does. Inputs (the lesson, its trained weights, the positional encoding)
// come from attncore as JSON embedded in the page.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("playground-data").textContent);
  const DEC = DATA.decimals;
  const MINUS = "\u2212";
  // The panel's words and decimal sign in the lecture's language (translated in Python, in
  // DATA.strings); {name}s are filled here. Numbers in data-value stay in the plain '.' form.
  const S = DATA.strings;
  const DECIMAL = DATA.decimal || ".";
  function say_(text, values) { return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)); }
  // A template with elements among its words: the text around the {name}s, and the values as they are.
  function pieces(text, values) {
    return text.split(/(\{\w+\})/).filter(x => x !== "").map(x => {
      const m = /^\{(\w+)\}$/.exec(x);
      return m && m[1] in values ? values[m[1]] : x;
    });
  }
  function q(word) { return say_(S.quote, { word }); }
  function local(plain) { return DECIMAL === "." ? plain : plain.replace(".", DECIMAL); }

  // ---- the matrix product ---------------------------------------------------------------
  // attncore.steps.product: each entry summed in index order, one rounded product after
  // another (no fused multiply-add), from 0: the same bits in every browser and on every CPU.
  function matmul(A, B) {  // (n, k) · (k, m) -> (n, m), rows of numbers
    const m = B[0].length;
    return A.map(a => {
      const row = new Array(m).fill(0);
      for (let t = 0; t < a.length; t++) for (let j = 0; j < m; j++) row[j] = row[j] + a[t] * B[t][j];
      return row;
    });
  }
  function transpose(M) { return M[0].map((_, j) => M.map(r => r[j])); }
  // numpy's sum of a row: in order under 8 terms, pairwise for 8.
  function rowSum(r) {
    if (r.length < 8) { let s = 0; for (const v of r) s += v; return s; }
    let s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (let t = 8; t < r.length; t++) s += r[t];
    return s;
  }
  // Row-wise softmax, the row's largest score subtracted first; −∞ (masked) gives exactly 0.
  function softmax(S) {
    return S.map(r => {
      const top = Math.max(...r);
      const e = r.map(v => Math.exp(v - top));
      const s = rowSum(e);
      return e.map(v => v / s);
    });
  }

  // ---- the one rounding rule --------------------------------------------------------------
  // fmt(x) = attncore.display.fmt(x, DEC): the shortest decimal form of the float (Python's
  // repr, JavaScript's String: the same digits), rounded half away from zero; −0 shows as 0.
  // The digits of |x| as Python's repr and JavaScript's String write them, and how many
  // come before the decimal point.
  function decimalDigits(x) {
    const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
    let digits = m[1] + (m[2] || "");
    let point = m[1].length + (m[3] ? Number(m[3]) : 0);
    if (point < 0) { digits = "0".repeat(-point) + digits; point = 0; }
    return { digits, point };
  }
  // The first ``keep`` digits, the rest rounded half up (away from zero: digits are of |x|).
  function roundDigits(digits, point, keep) {
    if (digits.length < keep + 1) digits += "0".repeat(keep + 1 - digits.length);
    let kept = digits.slice(0, keep);
    if (digits.charCodeAt(keep) >= 53) {  // the first dropped digit is 5 or more
      const arr = kept.split("").map(Number);
      let t = arr.length - 1;
      while (t >= 0 && arr[t] === 9) { arr[t] = 0; t--; }
      if (t < 0) { arr.unshift(1); point++; } else arr[t]++;
      kept = arr.join("");
    }
    return { kept, point };
  }
  function fmtPlain(x, dec) {
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    const d = decimalDigits(x);
    let { kept, point } = roundDigits(d.digits, d.point, d.point + dec);
    if (kept.length < point + dec) kept = "0".repeat(point + dec - kept.length) + kept;
    const whole = kept.slice(0, kept.length - dec).replace(/^0+(?=\d)/, "") || "0";
    const text = whole + "." + kept.slice(kept.length - dec);
    return x < 0 && /[1-9]/.test(text) ? "-" + text : text;
  }
  // An exponential the video would not show (EXP_LIMIT and above) as SIGNIFICANT digits and a
  // power of ten, rounded by the same rule: at the lesson's decimals its last digits would
  // depend on the last bit of exp, where the browser's and numpy's may differ.
  function sciParts(x) {
    const d = decimalDigits(x);  // x >= EXP_LIMIT: the first digit is not 0
    const r = roundDigits(d.digits, d.point, DATA.significant);
    return { mantissa: (x < 0 ? "-" : "") + r.kept[0] + "." + r.kept.slice(1, DATA.significant), exponent: r.point - 1 };
  }
  function large(x) { return isFinite(x) && Math.abs(x) >= DATA.exp_limit; }
  function expPlain(x) {
    if (!large(x)) return fmtPlain(x, DEC);
    const p = sciParts(x);
    return p.mantissa + "e" + p.exponent;
  }
  function expText(x) {
    if (!large(x)) return fmt(x);
    const p = sciParts(x);
    const sup = String(p.exponent).split("").map(c => "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"[Number(c)]).join("");
    return local(p.mantissa).replace("-", MINUS) + " \u00d7 10" + sup;
  }
  function fmt(x, dec = DEC) {
    if (x === Infinity) return "\u221e";
    if (x === -Infinity) return MINUS + "\u221e";
    return local(fmtPlain(x, dec)).replace("-", MINUS);
  }

  // ---- the lesson, as the student has edited it ----------------------------------------------
  const LIMIT = DATA.limits;
  function freshState() {
    return {
      vocab: new Map(DATA.vocabulary.map(([w, v]) => [w, v.slice()])),
      contexts: DATA.contexts.map(c => ({ tokens: c.tokens.slice(), focus: c.focus })),
      ctx: 0, scaled: true, causal: false, positions: false, weights: "simple", head: 0,
    };
  }
  let state = freshState();

  function attend(q, k, v) {  // one head: what attncore.steps computes, in its order
    const scores = matmul(q, transpose(k));
    const dk = q[0].length;
    const root = Math.sqrt(dk);
    const scaled = state.scaled ? scores.map(r => r.map(x => x / root)) : scores;
    const masked = state.causal ? scaled.map((r, i) => r.map((x, j) => (j <= i ? x : -Infinity))) : scaled;
    const attention = softmax(masked);
    return { q, k, v, dk, scores, scaled, masked, attention, output: matmul(attention, v) };
  }
  function blockOf(M, h, dh) { return M.map(r => r.slice(h * dh, (h + 1) * dh)); }

  function compute() {
    const c = state.contexts[state.ctx];
    const n = c.tokens.length, d = DATA.dimensions.length;
    const X = c.tokens.map(w => state.vocab.get(w).slice());
    const encoding = DATA.encodings[String(n)];
    const inputs = state.positions ? X.map((r, p) => r.map((x, k) => x + encoding[p][k])) : X;
    const r = { n, d, X, encoding, inputs, focus: c.tokens.indexOf(c.focus), named: true };
    if (state.weights === "simple") {
      Object.assign(r, attend(inputs, inputs, inputs));
    } else {
      const W = DATA.weights;
      const Q = matmul(inputs, W.W_Q), K = matmul(inputs, W.W_K), V = matmul(inputs, W.W_V);
      r.full = { Q, K, V };
      if (state.weights === "trained") Object.assign(r, attend(Q, K, V));
      else {
        const h = DATA.heads, dh = d / h;
        const heads = [];
        for (let t = 0; t < h; t++) heads.push(attend(blockOf(Q, t, dh), blockOf(K, t, dh), blockOf(V, t, dh)));
        const shown = heads[state.head];
        Object.assign(r, shown);
        r.headOutput = shown.output;
        r.concat = heads[0].output.map((_, i) => heads.flatMap(x => x.output[i]));
        r.output = matmul(r.concat, W.W_O);
      }
    }
    const f = r.focus;
    r.exps = r.masked[f].map(x => Math.exp(x));
    r.sum = rowSum(r.exps);
    r.weighted = r.attention[f].map((a, j) => r.v[j].map(x => a * x));
    const out = r.output[f];
    let best = 0;
    for (let k = 1; k < out.length; k++) if (out[k] > out[best]) best = k;
    let second = -Infinity;
    out.forEach((x, k) => { if (k !== best && x > second) second = x; });
    r.lean = { k: best, margin: out[best] - second };
    return r;
  }

  // ---- drawing ---------------------------------------------------------------------------
  const root = document.getElementById("playground");
  const stepsBox = root.querySelector(".pg-steps");
  const message = root.querySelector(".pg-message");
  const COLOURS = DATA.colours;

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }
  function numberAttrs(matrix, row, col, value, head) {
    const a = { "data-matrix": matrix, "data-context": state.ctx, "data-row": row, "data-value": fmtPlain(value, DEC) };
    if (col !== null) a["data-col"] = col;
    if (head !== null && head !== undefined) a["data-head"] = head;
    return a;
  }
  function hex(c) { return [1, 3, 5].map(i => parseInt(c.slice(i, i + 2), 16)); }
  function heatRgb(t) {  // the video's heat ramp: a square root from heat_low to heat_high
    const lo = hex(COLOURS.heat_low), hi = hex(COLOURS.heat_high), s = Math.sqrt(Math.min(1, Math.max(0, t)));
    return lo.map((x, i) => Math.round(x + (hi[i] - x) * s));
  }
  function heat(t) { return "rgb(" + heatRgb(t).join(",") + ")"; }
  // WCAG 2.1's relative luminance and contrast ratio (scenes/palette_checks.py, the same formula).
  function luminance(rgb) {
    const l = rgb.map(c => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  }
  function contrast(a, b) {
    const x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function heatInk(t) {  // the video's rule (Theme.heat_ink): the text or background colour of higher
    const cell = heatRgb(t);  // contrast on the cell; black or white when neither reaches 4.5:1
    const inks = [COLOURS.text, COLOURS.background].sort((a, b) => contrast(hex(b), cell) - contrast(hex(a), cell));
    if (contrast(hex(inks[0]), cell) >= 4.5) return inks[0];
    return contrast([0, 0, 0], cell) >= contrast([255, 255, 255], cell) ? "#000000" : "#ffffff";
  }
  function dimColour(k) { return DATA.dimension_colours[k]; }

  // A matrix as a table: rows named by words, columns by dimensions or numbers.
  function matrixTable(spec) {
    const { name, M, rows, cols, colColours, heatMap, head, caption, captionColour, focusRow } = spec;
    const head_ = el("tr", {}, el("th", { scope: "col" }, ""),
      cols.map((c, j) => el("th", { scope: "col", style: colColours ? "color:" + colColours[j] : null, text: c })));
    const body = M.map((r, i) => el("tr", { class: i === focusRow ? "pg-focus" : null },
      el("th", { scope: "row" }, rows[i]),
      r.map((x, j) => {
        const attrs = numberAttrs(name, i, j, x, head);
        if (heatMap) {
          attrs.style = "background:" + heat(x) + ";color:" + heatInk(x);
        }
        return el("td", attrs, fmt(x));
      })));
    return el("div", { class: "pg-scroll" }, el("table", { class: "pg-matrix" },
      caption ? el("caption", { text: caption, style: captionColour ? "color:" + captionColour : null }) : null,
      el("thead", {}, head_), el("tbody", {}, body)));
  }

  function videoLink(step) {
    const ch = DATA.chapters[step];
    if (!ch) return null;
    if (DATA.in_lecture) {
      return el("button", { type: "button", class: "pg-video", title: S.video_tip,
        onclick: () => { window.lecture.seekTo(ch.index, true); window.lecture.video.scrollIntoView({ block: "start" }); } },
      S.in_video);
    }
    return el("a", { class: "pg-video", href: DATA.video + "#t=" + ch.start_s, text: S.in_video });
  }
  function step(id, title, formula, ...body) {
    return el("section", { class: "pg-step", id: "pg-step-" + id, "aria-labelledby": "pg-title-" + id },
      el("div", { class: "pg-step-head" },
        el("h3", { id: "pg-title-" + id, tabindex: "-1", text: title }),
        formula ? el("span", { class: "pg-formula", text: formula }) : null,
        videoLink(id)),
      body);
  }

  function embeddingsTable(r) {
    const c = state.contexts[state.ctx];
    const head_ = el("tr", {}, el("th", { scope: "col" }, ""),
      DATA.dimensions.map((nm, k) => el("th", { scope: "col", style: "color:" + dimColour(k), text: nm })));
    const body = r.X.map((row, i) => el("tr", { class: i === r.focus ? "pg-focus" : null },
      el("th", { scope: "row", text: c.tokens[i] }),
      row.map((x, k) => el("td", {}, el("input", {
        ...numberAttrs("embeddings", i, k, x, null), type: "text", inputmode: "decimal", value: plainInput(x),
        "aria-label": c.tokens[i] + ", " + DATA.dimensions[k], onchange: e => editCell(e.target, c.tokens[i], k),
      })))));
    return el("div", { class: "pg-scroll" }, el("table", { class: "pg-matrix pg-edit" }, el("thead", {}, head_), el("tbody", {}, body)));
  }
  function plainInput(x) { return local(String(x)).replace("-", MINUS); }

  function bars(r) {
    const out = r.output[r.focus];
    const top = Math.max(1e-9, ...out.map(Math.abs));
    return el("div", { class: "pg-bars", role: "list" }, out.map((x, k) => el("div", { class: "pg-bar", role: "listitem" },
      el("span", { class: "pg-bar-name", style: "color:" + dimColour(k), text: DATA.dimensions[k] }),
      el("span", { class: "pg-bar-track" }, el("span", {
        class: "pg-bar-fill" + (x < 0 ? " pg-neg" : ""),
        style: "width:" + (50 * Math.abs(x) / top).toFixed(2) + "%;background:" + dimColour(k) + ";" +
          (x < 0 ? "right:50%" : "left:50%"),
      })),
      el("span", numberAttrs("output", r.focus, k, x, null), fmt(x)))));
  }

  function render() {
    const r = compute();
    const c = state.contexts[state.ctx];
    const toks = c.tokens, dims = DATA.dimensions, f = r.focus;
    const heads = state.weights === "heads";
    const headIdx = heads ? state.head : null;
    const numbered = (p, m) => Array.from({ length: m }, (_, j) => p + (j + 1));
    const qkvCols = heads ? numbered("h" + (state.head + 1) + ".", r.dk) : numbered("", r.dk);
    const headColours = heads ? qkvCols.map(() => DATA.head_colours[state.head]) : null;
    const out = [];
    root.dataset.weights = state.weights;
    root.dataset.head = heads ? String(state.head) : "";
    root.dataset.scaled = String(state.scaled);
    root.dataset.causal = String(state.causal);
    root.dataset.positions = String(state.positions);
    root.dataset.context = String(state.ctx);
    root.dataset.stage = stageName();

    out.push(step("embeddings", DATA.titles.embeddings, S.embeddings_formula,
      el("p", { class: "pg-note", text: S.embeddings_note }),
      embeddingsTable(r)));
    if (state.positions) {
      out.push(step("positions", DATA.titles.positions, "X + PE",
        matrixTable({ name: "encoding", M: r.encoding, rows: toks.map((w, p) => p + " " + w), cols: dims, colColours: dims.map((_, k) => dimColour(k)), caption: S.encoding_caption }),
        matrixTable({ name: "inputs", M: r.inputs, rows: toks, cols: dims, colColours: dims.map((_, k) => dimColour(k)), focusRow: f, caption: "X + PE" })));
    }
    if (state.weights !== "simple") {
      const W = DATA.weights;
      const block = M => (heads ? blockOf(M, state.head, r.dk) : M);
      const wTables = ["W_Q", "W_K", "W_V"].map(nm => matrixTable({ name: nm, M: block(W[nm]), rows: dims, cols: qkvCols, head: headIdx, caption: heads ? say_(S.head_columns, { matrix: nm, n: state.head + 1 }) : nm }));
      out.push(step("projections", heads ? DATA.titles.heads : DATA.titles.projections, "Q = X·W_Q, K = X·W_K, V = X·W_V",
        el("p", { class: "pg-note", text: DATA.provenance }),
        el("details", {}, el("summary", { text: S.the_weights }), wTables),
        el("div", { class: "pg-row" },
          ["Q", "K", "V"].map((nm, t) => matrixTable({
            name: nm, M: [r.q, r.k, r.v][t], rows: toks, cols: qkvCols, colColours: headColours, head: headIdx,
            caption: nm, captionColour: COLOURS[["query", "key", "value"][t]], focusRow: f,
          })))));
    }
    const qk = state.weights === "simple" ? "X·Xᵀ" : heads ? say_(S.head_scores, { n: state.head + 1 }) : "Q·Kᵀ";
    out.push(step("scores", DATA.titles.scores, "S = " + qk,
      matrixTable({ name: "scores", M: r.scores, rows: toks, cols: toks, head: headIdx, focusRow: f })));
    out.push(step("scaled", DATA.titles.scaled, state.scaled ? qk + " / √" + r.dk : S.not_scaled,
      state.scaled ? matrixTable({ name: "scaled", M: r.scaled, rows: toks, cols: toks, head: headIdx, focusRow: f })
        : el("p", { class: "pg-note", text: S.scaling_off })));
    if (state.causal) {
      out.push(step("masked", DATA.titles.masked, S.masked_formula,
        el("p", { class: "pg-note", text: S.masked_note }),
        matrixTable({ name: "masked", M: r.masked, rows: toks, cols: toks, head: headIdx, focusRow: f })));
    }
    const expRow = el("div", { class: "pg-scroll" }, el("table", { class: "pg-matrix" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), toks.map(w => el("th", { scope: "col", text: w })), el("th", { scope: "col", text: S.sum }))),
      el("tbody", {}, el("tr", { class: "pg-focus" }, el("th", { scope: "row", text: "exp" }),
        r.exps.map((x, j) => el("td", { ...numberAttrs("exp", f, j, x, headIdx), "data-value": expPlain(x) }, expText(x))),
        el("td", { ...numberAttrs("sum", f, null, r.sum, headIdx), "data-value": expPlain(r.sum), class: "pg-sum" }, expText(r.sum))))));
    const unreadable = fmt(r.sum) === fmt(0) || large(r.sum) || !isFinite(r.sum);
    out.push(step("softmax", DATA.titles.softmax, S.softmax_formula,
      el("p", { class: "pg-note", text: say_(S.softmax_note, { word: q(c.focus) }) }),
      expRow,
      unreadable ? el("p", { class: "pg-note", text: fmt(r.sum) === fmt(0) ? S.too_small :
        say_(S.too_large, { limit: local(String(DATA.exp_limit)), n: DATA.significant }) }) : null));
    out.push(step("attention", DATA.titles.attention, S.attention_formula,
      matrixTable({ name: "attention", M: r.attention, rows: toks, cols: toks, heatMap: true, head: headIdx, focusRow: f })));
    const vName = state.weights === "simple" ? "X" : "V";
    const vCols = state.weights === "simple" ? dims : qkvCols;
    const mixing = [matrixTable({ name: "weighted", M: r.weighted, rows: toks.map((w, j) => [el("span", numberAttrs("attention", f, j, r.attention[f][j], headIdx), fmt(r.attention[f][j])), " × " + w]), cols: vCols, head: headIdx, caption: say_(S.weighted_caption, { matrix: vName, word: q(c.focus) }) })];
    if (heads) {
      mixing.push(matrixTable({ name: "output", M: r.headOutput, rows: toks, cols: qkvCols, colColours: headColours, head: headIdx, focusRow: f, caption: say_(S.head_output, { n: state.head + 1 }) }));
    } else {
      mixing.push(matrixTable({ name: "output", M: r.output, rows: toks, cols: dims, colColours: dims.map((_, k) => dimColour(k)), focusRow: f, caption: say_(S.output_caption, { matrix: vName }) }));
    }
    out.push(step("mixing", DATA.titles.mixing, say_(S.output_formula, { matrix: vName }), el("div", { class: "pg-row" }, mixing)));
    if (heads) {
      out.push(step("heads", DATA.titles.heads, S.concat_formula,
        matrixTable({ name: "concat", M: r.concat, rows: toks, cols: numbered("c", dims.length), caption: S.concat_caption,
          colColours: dims.map((_, j) => DATA.head_colours[Math.floor(j / r.dk)]) }),
        el("details", {}, el("summary", { text: "W_O" }), matrixTable({ name: "W_O", M: DATA.weights.W_O, rows: dims, cols: dims })),
        matrixTable({ name: "output", M: r.output, rows: toks, cols: dims, colColours: dims.map((_, k) => dimColour(k)), focusRow: f, caption: S.output })));
    }
    const k = r.lean.k, m = r.lean.margin;
    const tie = fmt(m) === fmt(0);
    const lean = el("p", { class: "pg-lean" }, pieces(tie ? S.lean_tie : S.lean, {
      word: q(c.focus),
      dimension: el("strong", { style: "color:" + dimColour(k), text: dims[k] }),
      margin: el("span", numberAttrs("lean", f, k, m, null), fmt(m)),
    }));
    out.push(step("lean", DATA.titles.lean, say_(S.lean_formula, { word: q(c.focus) }), bars(r), lean));
    stepsBox.replaceChildren(...out);
  }

  function stageName() {  // the attncore stage these numbers are, when there is one
    if (state.causal && state.positions) return "";
    if (state.weights === "simple") {
      if (state.causal) return state.scaled ? "causal" : "";
      if (state.positions) return state.scaled ? "positional" : "";
      return state.scaled ? "simple" : "unscaled";
    }
    if (state.causal || state.positions || !state.scaled) return "";
    return state.weights === "trained" ? "projected" : "head:" + state.head;
  }

  // ---- edits -------------------------------------------------------------------------------
  function say(text, kind) {
    message.textContent = text;
    message.className = "pg-message" + (kind ? " pg-" + kind : "");
  }
  function editCell(input, word, k) {
    const raw = input.value.trim().replace(/\u2212/g, "-").replace(",", ".");
    const old = state.vocab.get(word)[k];
    const back = () => { input.value = plainInput(old); };
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw)) {
      back(); return say(say_(S.not_a_number, { value: q(input.value), word, dimension: DATA.dimensions[k], old: fmt(old) }), "error");
    }
    const x = Number(raw);
    if (Math.abs(x) > LIMIT.value) {
      back(); return say(say_(S.out_of_range, { number: local(raw), limit: local(String(LIMIT.value)) }), "error");
    }
    const frac = (raw.split(".")[1] || "").replace(/0+$/, "");
    if (frac.length > DEC) {
      back(); return say(say_(S.too_precise, { number: local(raw), n: frac.length, decimals: DEC, shown: fmt(x) }), "error");
    }
    state.vocab.get(word)[k] = x === 0 ? 0 : x;
    say(say_(S.cell_changed, { word: q(word), dimension: DATA.dimensions[k], value: fmt(x) }), "");
    render();
    refocus('input[data-matrix="embeddings"][data-row="' + input.dataset.row + '"][data-col="' + k + '"]');
  }
  function refocus(selector) {
    const e = stepsBox.querySelector(selector);
    if (e) e.focus();
  }
  function editSentence(text) {
    const c = state.contexts[state.ctx];
    const toks = text.trim().split(/\s+/).filter(Boolean);
    const [lo, hi] = LIMIT.tokens;
    if (toks.length < lo || toks.length > hi) {
      const counted = S.sentence_length[Math.min(toks.length, S.sentence_length.length - 1)];
      return fail(say_(counted, { n: toks.length, low: lo, high: hi }));
    }
    const unknown = toks.find(w => !state.vocab.has(w));
    if (unknown !== undefined) {
      const same = [...state.vocab.keys()].find(w => w.toLocaleLowerCase() === unknown.toLocaleLowerCase());
      return fail(same ? say_(S.unknown_did_you_mean, { word: q(unknown), other: q(same) })
        : say_(S.unknown_use_one_of, { word: q(unknown), words: [...state.vocab.keys()].join(S.separator) }));
    }
    const others = state.contexts.filter((_, i) => i !== state.ctx).flatMap(x => x.tokens);
    const distinct = new Set([...others, ...toks]).size;
    if (distinct > LIMIT.sentence_words) {
      return fail(say_(S.too_many_words, { n: distinct, limit: LIMIT.sentence_words }));
    }
    c.tokens = toks;
    const sentence = q(toks.join(" "));
    if (!toks.includes(c.focus)) {
      say(say_(S.sentence_new_focus, { sentence, word: q(c.focus), other: q(toks[0]) }), "");
      c.focus = toks[0];
    } else say(say_(S.sentence, { sentence }), "");
    syncControls(); render();
    return true;
  }
  function fail(text) { say(text, "error"); syncControls(); return false; }

  // ---- controls ------------------------------------------------------------------------------
  const ctl = name => root.querySelector('[data-control="' + name + '"]');
  function syncControls() {
    const c = state.contexts[state.ctx];
    root.querySelectorAll('[data-control="context"]').forEach(b => b.setAttribute("aria-pressed", String(Number(b.dataset.index) === state.ctx)));
    ctl("sentence").value = c.tokens.join(" ");
    const focus = ctl("focus");
    focus.replaceChildren(...[...new Set(c.tokens)].map(w => el("option", { value: w, text: w })));
    focus.value = c.focus;
    ctl("scaled").checked = state.scaled;
    ctl("causal").checked = state.causal;
    ctl("positions").checked = state.positions;
    ctl("weights").value = state.weights === "heads" ? "head:" + state.head : state.weights;
  }
  function wire() {
    root.addEventListener("keydown", e => e.stopPropagation());  // the page's presenter keys stay outside
    root.querySelectorAll('[data-control="context"]').forEach(b => b.addEventListener("click", () => {
      state.ctx = Number(b.dataset.index); say("", ""); syncControls(); render();
    }));
    ctl("sentence").addEventListener("change", e => editSentence(e.target.value));
    ctl("focus").addEventListener("change", e => {
      state.contexts[state.ctx].focus = e.target.value; say(say_(S.focus, { word: q(e.target.value) }), ""); render();
    });
    for (const name of ["scaled", "causal", "positions"]) {
      ctl(name).addEventListener("change", e => { state[name] = e.target.checked; render(); });
    }
    ctl("weights").addEventListener("change", e => {
      const v = e.target.value;
      if (v.startsWith("head:")) { state.weights = "heads"; state.head = Number(v.slice(5)); } else state.weights = v;
      render();
    });
    root.querySelectorAll('[data-control="add-word"]').forEach(b => b.addEventListener("click", () => {
      const c = state.contexts[state.ctx];
      editSentence(c.tokens.concat([b.dataset.word]).join(" "));
    }));
    ctl("reset").addEventListener("click", () => { state = freshState(); say(S.reset, ""); syncControls(); render(); });
    linkChapters();
  }
  // Each chapter of the lecture page gets a link to its step of the panel.
  function linkChapters() {
    if (!DATA.in_lecture) return;
    const items = document.querySelectorAll("#chapters > li");
    for (const [index, stepId, mode] of DATA.chapter_steps) {
      const li = items[index];
      if (!li) continue;
      // tabindex -1: the chapter list is one Tab stop, its items reached with ↑ and ↓ (lecture.js)
      li.append(el("a", { class: "pg-try", href: "#pg-step-" + stepId, title: S.try_tip, text: S.try_it, tabindex: "-1",
        onclick: e => { e.preventDefault(); show(stepId, mode); } }));
    }
  }
  function show(stepId, mode) {
    if (mode === "trained" || mode === "heads") { state.weights = mode; state.head = 0; }
    if (mode === "causal") state.causal = true;
    if (mode === "positions") state.positions = true;
    if (mode === "scaled") state.scaled = true;
    syncControls(); render();
    const h = document.getElementById("pg-title-" + stepId);
    if (h) { h.scrollIntoView({ block: "start" }); h.focus({ preventScroll: true }); }
  }

  wire();
  syncControls();
  render();
  window.playground = {
    fmt, fmtPlain, expPlain, matmul, softmax, rowSum, show,
    state: () => ({
      context: state.ctx, scaled: state.scaled, causal: state.causal, positions: state.positions,
      weights: state.weights, head: state.head,
      contexts: state.contexts.map(c => ({ tokens: c.tokens.slice(), focus: c.focus })),
      vocabulary: [...state.vocab.entries()].map(([w, v]) => [w, v.slice()]),
    }),
    message: () => ({ text: message.textContent, error: message.classList.contains("pg-error") }),
  };
})();
