// ---------------------------------------------------------------------------------------------------
// the lesson under the chart: each model's formula (formula(step): rows of [label, TeX], the rule in the seeds'
// notation, then the same rule with this step's numbers), typeset by KaTeX, the stand-alone module Streamlit itself
// ships (served by this app as static/katex.js; its fonts and Streamlit's KaTeX rules are in every Streamlit page,
// static/katex.css adds those rules for the classes the module names katex-…; the offline file carries the module
// inside and asks for MathML, which the browser typesets alone); on the
// Perceptron page the proof of the mistake bound, drawn from the core's ⟨w̃*, w̃_k⟩ and ‖w̃_k‖² (record: proof.<j>);
// and on the Perceptron and SVM pages the losses against the margin z = y·(w·x + b), every point's z marked.
// Each part is typeset or drawn only while unfolded.
// ---------------------------------------------------------------------------------------------------

let KATEX = null, KATEX_FAILED = false;
// the module is fetched once per page (window.__dblKatex); each instance of the renderer (a new one is imported when
// the server's renderer changes) keeps its own reference to it
function loadKatex() {
  if (KATEX) return Promise.resolve(KATEX);
  if (!window.__dblKatex) {
    if (!window.katex && !document.querySelector("link[data-dbl-katex]")) {  // its rules beyond Streamlit's own
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("app/static/katex.css", window.location.href).toString();
      link.dataset.dblKatex = "";
      document.head.appendChild(link);
    }
    window.__dblKatex = window.katex ? Promise.resolve(window.katex)
      : import(new URL("app/static/katex.js", window.location.href).toString()).then((mod) => mod.default);
    window.__dblKatex.catch(() => { window.__dblKatex = null; });  // the next chart tries again
  }
  return window.__dblKatex.then((k) => { KATEX = k; KATEX_FAILED = false; return k; },
                                (e) => { KATEX_FAILED = true; throw e; });
}

// what the lesson's open parts take under the controls: the panels' sizing leaves it out (Loss, Compare, SVM)
function lessonHeight(root) {
  let h = 0;
  for (const d of root.querySelectorAll("details[data-part]")) h += d.hidden ? 0 : d.offsetHeight;
  return h;
}

const TYPESET = new Map();  // TeX → its HTML, the last 256 (a rule's rows are typeset once, not at every step)
function typeset(src) {
  let html = TYPESET.get(src);
  if (html === undefined) {
    html = KATEX.renderToString(src, {displayMode: true, throwOnError: false, strict: "ignore",
                                      output: window.__dblMathML ? "mathml" : "htmlAndMathml"});
    if (TYPESET.size >= 256) TYPESET.delete(TYPESET.keys().next().value);
    TYPESET.set(src, html);
  }
  return html;
}

// numbers in TeX as the words write them (num: the core's value, 3 decimals), with an ASCII minus for KaTeX; a
// number num writes with an exponent (4.45e-05) as a power of ten (4.45\times 10^{-5}): KaTeX would set e as a variable
function tn(v) {
  const s = num(v).replace(/−/g, "-"), e = /^(-?[\d.]+)e([+-]?)0*(\d+)$/.exec(s);
  return e ? `${e[1]}\\times 10^{${e[2] === "-" ? "-" : ""}${e[3]}}` : s;
}
const tv = (v) => `(${Array.from(v, tn).join(",\\ ")})`;
const tsign = (yi) => (yi > 0 ? "+1" : "-1");
const tparen = (v) => (v < 0 ? `(${tn(v)})` : tn(v));  // a negative factor in brackets
function tset(idx, limit = 8) {  // {3, 7, 12, …} with the points' numbers (1-based, as x₃ in the words)
  if (!idx.length) return "\\varnothing";
  const s = idx.slice(0, limit).map((i) => String(i + 1)).join(",\\ ");
  return `\\{${s}${idx.length > limit ? ",\\ \\dots" : ""}\\}` + (idx.length > limit ? `\\ (${idx.length}\\text{ points})` : "");
}
const TW = "\\mathbf{w}", TX = "\\mathbf{x}";

// the lesson of the step shown: the formula (when unfolded and KaTeX is in), the proof and the margin plot (when unfolded)
function showLesson(view, step) {
  const root = view.root, box = root.querySelector(".dbls-math");
  if (box) {
    const body = box.querySelector(".dbls-math-body");
    const m = view.m, has = Boolean(m.formula || m.formulaColumns);
    box.hidden = !has;
    if (has && box.open) {
      if (KATEX) {
        if (m.formulaColumns) setColumns(body, m.formulaColumns(step));  // (Compare: a column per side)
        else setRows(body, m.formula(step, view));
      } else if (KATEX_FAILED) {
        body.textContent = "The formulas could not be typeset: KaTeX could not be loaded (katex.js).";
      }
    }
  }
  if (view.proofAt) view.proofAt(step);
  showMargins(view, step);
}

// rows of [label, TeX] (or [label, null, words]) as the panel's grid: the TeX typeset, and kept in data-tex
const mathRow = ([label, src, words]) => `<div class="dbls-math-row"><div class="dbls-math-label">${esc(label)}</div>` +
  (src === null ? `<div class="dbls-math-note">${esc(words)}</div>` : `<div class="dbls-math-tex" data-tex="${esc(src)}">${typeset(src)}</div>`) +
  "</div>";
const mathRows = (rows) => rows.map(mathRow).join("");

// the rows into ``body``, replacing only those that changed (a step changes its own rows, not the rule's)
function setRows(body, rows) {
  if (body.childNodes.length !== body.children.length) body.textContent = "";  // (words in it: a message)
  rows.forEach((row, r) => {
    const key = JSON.stringify(row), el = body.children[r];
    if (el && el.__dblKey === key) return;
    const t = document.createElement("template");
    t.innerHTML = mathRow(row);
    const node = t.content.firstElementChild;
    node.__dblKey = key;
    if (el) el.replaceWith(node); else body.appendChild(node);
  });
  while (body.children.length > rows.length) body.lastElementChild.remove();
}

// columns of [title, rows] (Compare: a side each) into ``body``, each column's rows as setRows sets them: a step
// typesets again only the rows it changes
function setColumns(body, columns) {
  let cols = body.firstElementChild;
  if (!cols || !cols.classList.contains("dbls-math-cols") || cols.children.length !== columns.length) {
    body.innerHTML = `<div class="dbls-math-cols">${columns.map(() =>
      '<div><div class="dbls-math-title"></div><div class="dbls-math-rows"></div></div>').join("")}</div>`;
    cols = body.firstElementChild;
  }
  columns.forEach(([title, rows], j) => {
    const [head, rowsEl] = cols.children[j].children;
    if (head.textContent !== title) head.textContent = title;
    setRows(rowsEl, rows);
  });
}

// the folds as the user left them on this chart (the formula open, the proof folded, the first time)
function lessonFolds(root) {
  const open = root.__dblOpen || {};
  for (const d of root.querySelectorAll("details[data-part]")) {
    const want = open[d.dataset.part] ?? d.dataset.part === "math";
    if (d.open !== want) { d.__dblAuto = true; d.open = want; }  // (not the user's choice: wire() does not keep it)
  }
}

// ----- the Perceptron: the update rule of its variant, then this step's numbers, in the seeds' notation
PerceptronModel.prototype.formula = function (step) {
  const r = this.run, N = this.N, tau = tn(r.tau);
  const k = this.stateOf(step), upd = this.updated(step, k);
  const kp = step && k && this.US[k - 1] === step ? k - 1 : k;  // the state before the step
  const [le, gt] = this.negative ? ["<", "\\ge"] : ["\\le", ">"];
  const fit = r.fit_intercept, b0 = this.B[0], withB = fit || b0 !== 0;
  const bAt = (j) => (fit ? `b_{${j}}` : "b_0");
  const act = (j, i) => `y_{${i}}(${TW}_{${j}}\\cdot ${TX}_{${i}}${withB ? ` + ${bAt(j)}` : ""})`;
  const online = r.variant === "cyclic" || r.variant === "random";
  const mean = r.reduction === "mean";
  const coef = !online && mean ? `\\frac{\\tau}{${r.variant === "minibatch" ? "B" : "N"}}` : "\\tau";
  const rows = [];
  if (online) {
    rows.push(["Rule", `\\text{if } ${act("k-1", "i")} ${le} 0:`]);
    rows.push(["", `${TW}_k = ${TW}_{k-1} + \\tau\\, y_i ${TX}_i` + (fit ? `,\\quad b_k = b_{k-1} + \\tau\\, y_i` : "")]);
  } else {
    const over = r.variant === "minibatch" ? "I" : "\\{1, \\dots, N\\}";
    rows.push(["Rule", `M = \\{i \\in ${over} : ${act("k-1", "i")} ${le} 0\\}`]);
    rows.push(["", `${TW}_k = ${TW}_{k-1} + ${coef} \\sum_{i \\in M} y_i ${TX}_i` +
                   (fit ? `,\\quad b_k = b_{k-1} + ${coef} \\sum_{i \\in M} y_i` : "")]);
  }
  const [w, b] = [this.w(k), this.B[k]], [wp, bp] = [this.w(kp), this.B[kp]];
  if (step === 0) {
    rows.push(["Step 0", `${TW}_0 = ${tv(w)}${withB ? `,\\quad ${bAt(0)} = ${tn(b)}` : ""},\\quad |M| = ${this.errors[0]}`]);
    return rows;
  }
  const label = `Step ${grouped(step)}`;
  if (online) {
    const i = this.examined(step)[0], xi = [this.X[2 * i], this.X[2 * i + 1]], yi = this.y[i];
    const a = yi * (wp[0] * xi[0] + wp[1] * xi[1] + bp);  // y·(w·x + b) at the old state, in the core's order
    const bias = !withB ? "" : (bp >= 0 ? ` + ${tn(bp)}` : ` - ${tn(-bp)}`);
    rows.push([label, `${act(kp, i + 1)} = (${tsign(yi)})\\,\\big(${tv(wp)}\\cdot ${tv(xi)}${bias}\\big)`]);
    if (!upd.length) {
      rows.push(["", `= ${tn(a)} ${gt} 0 \\;\\Rightarrow\\; \\text{no update}`]);
      return rows;
    }
    rows.push(["", `= ${tn(a)} ${le} 0 \\;\\Rightarrow\\; \\text{update on } ${TX}_{${i + 1}}`]);
    rows.push(["", `${TW}_{${k}} = ${tv(wp)} + ${tau}\\cdot(${tsign(yi)})\\cdot ${tv(xi)} = ${tv(w)}`]);
    if (fit) rows.push(["", `b_{${k}} = ${tn(bp)} + ${tau}\\cdot(${tsign(yi)}) = ${tn(b)}`]);
    // why one update helps: y(w_k·x̃) = y(w_{k−1}·x̃) + τ‖x̃‖², x̃ = (x, 1) with a learned bias
    const an = yi * (w[0] * xi[0] + w[1] * xi[1] + b), sq = xi[0] * xi[0] + xi[1] * xi[1] + (fit ? 1 : 0);
    const [Wt, Xt] = fit ? ["\\tilde{\\mathbf{w}}", "\\tilde{\\mathbf{x}}"] : [TW, TX];
    const tail = !fit && b0 !== 0 ? " + b_0" : "";
    rows.push(["Why it helps", `y_{${i + 1}}(${Wt}_{${k}}\\cdot ${Xt}_{${i + 1}}${tail}) = y_{${i + 1}}(${Wt}_{${k - 1}}\\cdot ${Xt}_{${i + 1}}${tail})` +
                               ` + \\tau\\,\\|${Xt}_{${i + 1}}\\|^2`]);
    rows.push(["", `${tn(an)} = ${tn(a)} + ${tau}\\cdot ${tn(sq)}`]);
    return rows;
  }
  const ex = this.examined(step);
  if (r.variant === "minibatch") rows.push([label, `I = ${tset(ex)}\\ (B = ${r.batch_size})`]);
  rows.push([r.variant === "minibatch" ? "" : label, `M = ${tset(upd)}`]);
  if (!upd.length) {
    rows.push(["", "M = \\varnothing \\;\\Rightarrow\\; \\text{no update}"]);
    return rows;
  }
  const g = [0, 0];
  let ys = 0;
  for (const i of upd) { g[0] += this.y[i] * this.X[2 * i]; g[1] += this.y[i] * this.X[2 * i + 1]; ys += this.y[i]; }
  const c = mean ? `\\frac{${tau}}{${r.variant === "minibatch" ? r.batch_size : N}}` : tau;
  rows.push(["", `\\textstyle\\sum_{i \\in M} y_i ${TX}_i = ${tv(g)}`]);
  rows.push(["", `${TW}_{${k}} = ${tv(wp)} + ${c}\\,${tv(g)} = ${tv(w)}`]);
  if (fit) rows.push(["", `b_{${k}} = ${tn(bp)} + ${c}\\cdot(${tn(ys)}) = ${tn(b)}`]);
  return rows;
};

// ----- the Perceptron's proof of the mistake bound, for an online run from zero on separable data (the header's
// bound is there exactly then): per update k, ⟨w̃*, w̃_k⟩ ≥ kτγ and ‖w̃_k‖² ≤ kτ²R² (the core's numbers), and the
// squeeze kτγ ≤ ⟨w̃*, w̃_k⟩ ≤ ‖w̃_k‖ ≤ √k·τR that forces k ≤ (R/γ)²
PerceptronView.prototype.proofAt = function (step) {
  const box = this.root.querySelector(".dbls-proof");
  if (!box) return;
  const m = this.m, P = m.h.bound ? m.proof : null, note = m.h.bound_note;
  box.hidden = !P && !note;  // (the SGD tab's view has neither)
  if (box.hidden || !box.open || !this.sz) return;
  if (!P) {  // the bound does not speak to this run: say why, as the bound line does
    box.querySelector(".dbls-proof-text").innerHTML = `<p class="dbls-lesson-why">${esc(`The mistake bound (R/γ)² does not apply to this run: ${note}.`)}</p>`;
    box.querySelector(".dbls-proof-plot").hidden = true;
    box.querySelector(".dbls-proof-over").innerHTML = "";  // (its marker of the last run's k)
    return;
  }
  box.querySelector(".dbls-proof-plot").hidden = false;
  const bd = m.h.bound, tau = m.run.tau, k = m.stateOf(step);
  const inner = P[2 * k], norm2 = P[2 * k + 1];
  const [Wt, Xt] = bd.fit_intercept ? ["\\tilde{\\mathbf{w}}", "\\tilde{\\mathbf{x}}"] : [TW, TX];
  const text = box.querySelector(".dbls-proof-text");
  const rows = [
    [afterUpdates(k), `\\langle ${Wt}^*, ${Wt}_{${k}}\\rangle = ${tn(inner)} \\;\\ge\\; k\\tau\\gamma = ${k}\\cdot ${tn(tau)}\\cdot ${tn(bd.gamma)} = ${tn(k * tau * bd.gamma)}`],
    ["", `\\|${Wt}_{${k}}\\|^2 = ${tn(norm2)} \\;\\le\\; k\\tau^2R^2 = ${k}\\cdot ${tn(tau)}^2\\cdot ${tn(bd.R)}^2 = ${tn(k * tau * tau * bd.R * bd.R)}`],
    ["Squeeze", `k\\tau\\gamma \\le \\langle ${Wt}^*, ${Wt}_k\\rangle \\le \\|${Wt}_k\\| \\le \\sqrt{k}\\,\\tau R`],
    ["", `${tn(k * tau * bd.gamma)} \\le ${tn(inner)} \\le ${tn(Math.sqrt(norm2))} \\le ${tn(Math.sqrt(k) * tau * bd.R)}`],
    ["", `\\Rightarrow\\; k \\le (R/\\gamma)^2 = ${tn(bd.bound)}`],
  ];
  const why = `Each update on a mistake (y·${bd.fit_intercept ? "w̃·x̃" : "w·x"} ≤ 0) adds τ·y⟨${bd.fit_intercept ? "w̃*, x̃" : "w*, x"}⟩ ≥ τγ ` +
    `to the first (w${bd.fit_intercept ? "̃" : ""}* is the unit max-margin separator) and at most τ²R² to the second (the cross term ` +
    `2τ·y${bd.fit_intercept ? "w̃·x̃" : "w·x"} ≤ 0 on a mistake). The lower side grows like k, the upper like √k: they cross at ` +
    `k = (R/γ)², so no run can make more updates.${bd.fit_intercept ? " Measured on x̃ = (x, 1), w̃ = (w, b)." : ""}`;
  text.innerHTML = `<p class="dbls-lesson-why">${esc(why)}</p>` + (KATEX ? mathRows(rows) : "");
  const width = lessonWidth(this), el = box.querySelector(".dbls-proof-plot"), key = `${m.j}:${width}:${m.K}`;
  if (this.proofKey !== key || !el._fullLayout) {
    this.proofKey = key;
    this.Plotly.react(el, proofTraces(m, P, this.k), proofLayout(m, width, this.k), CONFIG).then(() => proofMark(this, el, k));
  } else proofMark(this, el, k);
};

function proofSpan(m) {  // the updates drawn: the run's, and on to (R/γ)² when the crossing is near
  const K = Math.max(m.K, 1), bound = m.h.bound.bound;
  return bound <= 4 * K ? Math.ceil(bound * 1.04) : K;
}

function proofTraces(m, P, scale) {
  const bd = m.h.bound, tau = m.run.tau, top = proofSpan(m);
  const ks = [], inner = [], norm = [];
  for (let j = 0; j <= m.K; j++) { ks.push(j); inner.push(P[2 * j]); norm.push(Math.sqrt(P[2 * j + 1])); }
  const cx = [];
  for (let t = 0; t <= 200; t++) cx.push((top * t) / 200);
  const w = bd.fit_intercept ? "w̃" : "w";
  const marks = m.K <= 200 ? "lines+markers" : "lines";
  return [
    {type: "scatter", mode: "lines", name: "kτγ (lower side)", x: cx, y: cx.map((v) => v * tau * bd.gamma),
     line: {color: NEG, width: 2 * scale, dash: "dash"}, hovertemplate: "k = %{x:.0f}: kτγ = %{y:.4g}<extra></extra>"},
    {type: "scatter", mode: marks, name: `⟨${w}*, ${w}ₖ⟩`, x: ks, y: inner, line: {color: NEG, width: 2 * scale},
     marker: {size: 6 * scale}, hovertemplate: `k = %{x}: ⟨${w}*, ${w}ₖ⟩ = %{y:.4g}<extra></extra>`},
    {type: "scatter", mode: marks, name: `‖${w}ₖ‖`, x: ks, y: norm, line: {color: POS, width: 2 * scale},
     marker: {size: 6 * scale, symbol: "diamond"}, hovertemplate: `k = %{x}: ‖${w}ₖ‖ = %{y:.4g}<extra></extra>`},
    {type: "scatter", mode: "lines", name: "√k·τR (upper side)", x: cx, y: cx.map((v) => Math.sqrt(v) * tau * bd.R),
     line: {color: POS, width: 2 * scale, dash: "dash"}, hovertemplate: "k = %{x:.0f}: √k·τR = %{y:.4g}<extra></extra>"},
  ];
}

function proofLayout(m, width, scale) {
  const bd = m.h.bound, top = proofSpan(m), tick = {size: 13 * scale, color: "#333"};
  const shapes = bd.bound <= top ? [{type: "line", x0: bd.bound, x1: bd.bound, yref: "paper", y0: 0, y1: 1,
                                     line: {color: PURPLE, width: 2 * scale, dash: "dot"}}] : [];
  const notes = bd.bound <= top ? [{x: bd.bound, yref: "paper", y: 1, yanchor: "bottom", showarrow: false,
                                    text: `(R/γ)² = ${num(bd.bound)}`, font: {size: 13 * scale, color: PURPLE}}] : [];
  return {
    width, height: Math.round(230 * scale), autosize: false, dragmode: false, hovermode: "closest",
    font: {family: FONT, size: 14 * scale, color: INK}, margin: {l: Math.round(56 * scale), r: 12, t: Math.round(22 * scale), b: Math.round(40 * scale)},
    plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)", shapes, annotations: notes,
    legend: {orientation: "h", x: 0, y: 1.02, yanchor: "bottom", font: {size: 13 * scale}},
    xaxis: {title: {text: "updates k", standoff: 2, font: {size: 14 * scale, color: "#333"}}, tickfont: tick, range: [0, top],
            gridcolor: "#eeeeee", fixedrange: true, zeroline: false, tickformat: "d", ...(top <= 12 ? {dtick: 1} : {})},
    yaxis: {tickfont: tick, gridcolor: "#eeeeee", fixedrange: true, rangemode: "tozero"},
    meta: {view: "proof", updates: m.K, bound: bd.bound},
  };
}

function proofMark(view, el, k) {  // the current k on the proof's plot
  const fl = el._fullLayout, over = el.parentElement.querySelector(".dbls-proof-over");
  if (!fl || !fl.xaxis || !fl.xaxis._length || !over) return;
  const x = fl.xaxis._offset + fl.xaxis.l2p(k), y0 = fl.yaxis._offset, y1 = y0 + fl.yaxis._length;
  layer(over, fl, `<line x1="${f1(x)}" y1="${y0}" x2="${f1(x)}" y2="${y1}" stroke="${INK}" stroke-width="${2 * view.k}" stroke-dasharray="2 3"/>`);
  el.dataset.k = String(k);
}

// ----- the Dual / Gram page: f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b and αᵢ ← αᵢ + η, with the step's numbers
function kernelTex(run) {
  const p = run.kernel_params || {}, X = TX;
  if (run.kernel === "rbf") return `\\exp(-${tn(p.gamma)}\\,\\|${X}_j - ${X}_i\\|^2)`;
  if (run.kernel === "poly") return `(${X}_j\\cdot ${X}_i + ${tn(p.coef0)})^{${p.degree}}`;
  return `${X}_j\\cdot ${X}_i`;
}

DualModel.prototype.formula = function (step) {
  const eta = this.eta, k = this.stateOf(step), upd = this.updated(step), kp = upd >= 0 ? k - 1 : k;
  const rows = [
    ["Rule", `f(${TX}_i) = \\sum_j \\alpha_j y_j G_{ji} + b`],
    ["", `G_{ji} = K(${TX}_j, ${TX}_i) = ${kernelTex(this.run)}`],
    ["", `\\text{if } y_i f(${TX}_i) \\le 0:\\quad \\alpha_i \\leftarrow \\alpha_i + \\eta,\\quad b \\leftarrow b + \\eta\\, y_i`],
  ];
  if (this.linear) rows.push(["", `${TW} = \\sum_i \\alpha_i y_i ${TX}_i,\\quad f(${TX}) = ${TW}\\cdot ${TX} + b`]);
  if (step === 0) {
    rows.push(["Step 0", `\\alpha = 0,\\ b = 0 \\;\\Rightarrow\\; f(${TX}) = 0 \\text{ at every point: } y\\,f = 0 \\le 0`]);
    return rows;
  }
  const i = this.examined(step), yi = this.y[i], n = i + 1, bp = this.B[kp], b = this.B[k];
  this.goState(kp);
  const S = this.support(), ap = Array.from(S, (j) => this.alpha(j)), api = this.alpha(i);
  const f = this.fExam[step - 1];  // the value the run judged xᵢ by
  rows.push([`Step ${grouped(step)}`, `f(${TX}_{${n}}) = \\sum_j \\alpha_j y_j G_{j,${n}} + b`]);
  let sum = "= ";
  if (!S.length) sum += `${tn(bp)}`;
  else if (S.length <= 4 && step < this.tPtr.length && this.tPtr[step] - this.tPtr[step - 1] === S.length) {
    const t0 = this.tPtr[step - 1];
    sum += S.map((j, q) => `${tn(ap[q])}\\cdot(${tsign(this.y[j])})\\cdot ${tparen(this.terms[t0 + q])}`).join(" + ") +
      ` + (${tn(bp)}) = ${tn(f)}`;
  } else sum += `${tn(f)}\\quad (\\text{over the ${S.length} points with } \\alpha_j > 0)`;
  rows.push(["", sum]);
  if (upd >= 0) {
    rows.push(["", `y_{${n}} f(${TX}_{${n}}) = ${tn(yi * f)} \\le 0 \\;\\Rightarrow\\; \\alpha_{${n}} \\leftarrow ${tn(api)} + ${tn(eta)} = ${tn(eta * (this.count[i] + 1))}`]);
    rows.push(["", `b \\leftarrow ${tn(bp)} + ${tn(eta)}\\cdot(${tsign(yi)}) = ${tn(b)}`]);
  } else rows.push(["", `y_{${n}} f(${TX}_{${n}}) = ${tn(yi * f)} > 0 \\;\\Rightarrow\\; \\text{no update}`]);
  if (this.linear) rows.push(["", `${TW} = \\sum_i \\alpha_i y_i ${TX}_i = ${tv(this.w(k))},\\quad b = ${tn(b)}`]);
  return rows;
};

// ----- the SVM page: the soft-margin objective and ξ at the slider's C, ξ for the point under the pointer (else
// the point with the largest ξ, as the chart labels it)
SvmModel.prototype.formula = function (k, view) {
  const f = this.linear ? `${TW}\\cdot ${TX} + b` : `\\sum_j \\alpha_j y_j K(${TX}_j, ${TX}) + b`;
  const rows = [
    ["Objective", `\\min_{${TW},\\, b}\\ \\tfrac12\\|${TW}\\|^2 + C\\sum_i \\xi_i`],
    ["", `\\xi_i = \\max\\big(0,\\ 1 - y_i f(${TX}_i)\\big),\\qquad f(${TX}) = ${f}`],
  ];
  const reg = Number.isFinite(this.margin[k]) && this.margin[k] > 0 ? 0.5 / (this.margin[k] * this.margin[k]) : 0;
  let sxi = this.slackSum[k];
  sxi = sxi < 1e-9 ? 0 : sxi;  // the solver's residue, not slack (as the words say)
  if (this.finite(k)) {
    const C = tn(this.Cs[k]);
    rows.push([`C = ${this.cText(k)}`, `\\tfrac12\\|${TW}\\|^2 + C\\sum_i \\xi_i = ${tn(reg)} + ${C}\\cdot ${tn(sxi)} = ${tn(this.objective[k])}`]);
  } else {
    rows.push(["Hard margin", `C = \\infty:\\ \\xi_i = 0 \\text{ for every } i,\\quad \\tfrac12\\|${TW}\\|^2 = ${tn(this.objective[k])}`]);
  }
  if (this.linear) rows.push(["", `${TW} = ${tv(this.w(k))},\\quad b = ${tn(this.B[k])}`], ["", `\\text{margin } 2/\\|${TW}\\| = ${tn(2 * this.margin[k])}`]);
  const hovered = view && view.hovered !== undefined && view.hovered !== null ? view.hovered : null;
  const i = hovered !== null ? hovered : this.labPtr[k] < this.labPtr[k + 1] ? this.labIdx[this.labPtr[k]] : null;
  if (i !== null) {
    const fi = this.f(k, i), yi = this.y[i], n = i + 1;
    rows.push([hovered !== null ? `x${sub(n)} (pointer)` : `x${sub(n)} (largest ξ)`,
               `\\xi_{${n}} = \\max\\big(0,\\ 1 - y_{${n}} f(${TX}_{${n}})\\big)`]);
    rows.push(["", `= \\max\\big(0,\\ 1 - (${tsign(yi)})(${tn(fi)})\\big) = ${tn(Math.max(0, 1 - yi * fi))}`]);
  }
  return rows;
};

// ----- the SVM page's hinge-SGD tab: one step of SGD on J = λ/2‖w‖² + (1/N) Σ max(0, 1 − yᵢ(w·xᵢ + b))
function hingeRule(lam) {  // (and Compare's hinge side)
  return [
    ["Rule", `\\text{if } y_i(${TW}\\cdot ${TX}_i + b) < 1:\\quad ${TW} \\leftarrow (1 - \\eta\\lambda)\\,${TW} + \\eta\\, y_i ${TX}_i,`],
    ["", `\\phantom{\\text{if } y_i(${TW}\\cdot ${TX}_i + b) < 1:}\\quad b \\leftarrow b + \\eta\\, y_i`],
    ["", `\\text{else:}\\quad ${TW} \\leftarrow (1 - \\eta\\lambda)\\,${TW}`],
    ["", `\\lambda = \\frac{1}{N C} = ${tn(lam)}`],
  ];
}

// hinge SGD's step s written out: p holds its order, active steps, w and b; etas its η (the SVM page's SGD tab, Compare)
function hingeStep(p, X, y, lam, etas, s) {
  const rows = hingeRule(lam);
  if (!s) { rows.push(["Step 0", `${TW}_0 = (0,\\ 0),\\ b_0 = 0`]); return rows; }
  const i = p.order[s - 1], [v0, v1] = p.w(s - 1), bp = p.B[s - 1], n = i + 1, eta = tn(etas[s - 1]), l = tn(lam);
  const m = y[i] * ((X[2 * i] * v0 + X[2 * i + 1] * v1) + bp);  // y·(w·x + b) before the step, in the core's order
  const xi = [X[2 * i], X[2 * i + 1]];
  rows.push([`Step ${grouped(s)}`, `y_{${n}}(${TW}\\cdot ${TX}_{${n}} + b) = ${tn(m)} ${p.active[s - 1] ? "< 1" : "\\ge 1"},\\quad \\eta = ${eta}`]);
  // w and b on rows of their own (two columns on Compare, and a projector's type, leave a row about 40 characters)
  rows.push(["", p.active[s - 1]
    ? `${TW} = (1 - ${eta}\\cdot ${l})\\,${tv([v0, v1])} + ${eta}\\cdot(${tsign(y[i])})\\cdot ${tv(xi)} = ${tv(p.w(s))}`
    : `${TW} = (1 - ${eta}\\cdot ${l})\\,${tv([v0, v1])} = ${tv(p.w(s))}`]);
  rows.push(["", p.active[s - 1] ? `b = ${tn(bp)} + ${eta}\\cdot(${tsign(y[i])}) = ${tn(p.B[s])}` : `b = ${tn(p.B[s])}`]);
  return rows;
}

SgdModel.prototype.formula = function (s) { return hingeStep(this.p, this.X, this.y, this.run.lam, this.etas, s); };

// ----- the Loss surface: the three losses as the core defines them, and their values at the chosen weight
const LOSS_TEX = {
  zero_one: (a) => `L_{0\\text{-}1} = \\frac{1}{N}\\sum_i \\big[\\,${a} \\le 0\\,\\big]`,
  perceptron: (a) => `L_{\\text{perc}} = \\frac{1}{N}\\sum_i \\max(0,\\ -${a})`,
  hinge: (a) => `L_{\\text{hinge}} = \\frac{1}{N}\\sum_i \\max(0,\\ 1 - ${a}) + \\frac{\\lambda}{2}\\|${TW}\\|^2`,
};

// (the weight just picked, drawn ahead of the page's record, is the one written: LossView.pending; a row a loss, so
// three losses do not run off the panel's side)
LossModel.prototype.formula = function (s, view) {
  const c = (view && view.pending) || this.run.chosen, rows = [["Losses", `m_i = y_i(${TW}\\cdot ${TX}_i + b)`]];
  for (const nm of this.run.names) rows.push(["", LOSS_TEX[nm]("m_i")]);
  if (!c) { rows.push(["", null, "Click a weight on a surface (or Tab to it, move the ring with the arrows, Enter) to see each loss there, with the b shown."]); return rows; }
  // each loss at the chosen (w, b), summed as the surfaces are (sampleRows)
  const N = this.N, [u, v] = c.w, b = c.b, lam = this.lam, L = lossesAt(this.X, this.y, N, u, v, b, lam);
  const vals = {zero_one: `L_{0\\text{-}1} = ${L.k}/${N} = ${tn(L.zero_one)}`, perceptron: `L_{\\text{perc}} = ${tn(L.perceptron)}`,
                hinge: `L_{\\text{hinge}} = ${tn(L.hingeData)} + \\frac{${tn(lam)}}{2}\\cdot ${tn(u * u + v * v)} = ${tn(L.hinge)}`};
  rows.push(["Chosen", `${TW} = ${tv(c.w)},\\ b = ${tn(b)}`]);
  for (const nm of this.run.names) rows.push(["", vals[nm]]);
  return rows;
};

// ----- the losses as functions of the margin z = y·(w·x + b), every point's z at the step (the Perceptron page) or
// at the C shown (the SVM page) marked on each: 0-1 counts z ≤ 0, the perceptron loss max(0, −z) the points with
// z < 0 by how far, the hinge max(0, 1 − z) every point with z < 1; so the perceptron stops once no z ≤ 0, while
// the SVM goes on until the points it can afford are at z ≥ 1
const MARGIN_GL = 300;  // above this many points the three sets of markers are drawn with WebGL (3N SVG markers cost
// ~0.3 s a step at N = 2,000)
const MARGIN_LOSSES = [
  ["zero_one", "0-1: [z ≤ 0]", (z) => (z <= 0 ? 1 : 0), "#444444", "solid"],
  ["perceptron", "perceptron: max(0, −z)", (z) => Math.max(0, -z), NEG, "dash"],
  ["hinge", "hinge: max(0, 1 − z)", (z) => Math.max(0, 1 - z), POS, "dot"],
];

// z = yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) of every point after the step, in the order the core sums it
PerceptronModel.prototype.margins = function (step) {
  const k = this.stateOf(step), [w1, w2] = this.w(k), b = this.B[k], z = new Float64Array(this.N);
  for (let i = 0; i < this.N; i++) z[i] = this.y[i] * ((this.X[2 * i] * w1 + this.X[2 * i + 1] * w2) + b);
  return z;
};
PerceptronModel.prototype.marginCounts = function (step, below) {  // |M| as the core counted it; z < 1 as drawn
  return {mis: this.errors[this.stateOf(step)], inside: below};
};
// z = yᵢ·f(xᵢ) of the solution at C number k (f as the chart's pointer reads it)
SvmModel.prototype.marginCounts = function (k) {  // the solver's categories: misclassified, and ξ > its tolerance
  return {mis: this.mistakes(k).length, inside: this.violators(k).length};
};
SvmModel.prototype.margins = function (k) {
  const z = new Float64Array(this.N);
  for (let i = 0; i < this.N; i++) z[i] = this.y[i] * this.f(k, i);
  return z;
};

// the lesson's plots span the chart's whole row (also beside the panel in presentation mode)
const lessonWidth = (view) => Math.max(view.root.clientWidth || view.sz.width || 600, 300);

function showMargins(view, step) {
  const box = view.root.querySelector(".dbls-margins"), m = view.m;
  if (!box) return;
  box.hidden = !m.margins;
  if (!m.margins || !box.open || !view.sz) return;
  const width = lessonWidth(view), state = m.stateOf ? m.stateOf(step) : step;  // z changes with the state only
  if (view.marginsOf && view.marginsOf[0] === m && view.marginsOf[1] === state && view.marginsOf[2] === width) return;
  view.marginsOf = [m, state, width];  // drawn once per state shown (the SVM's pointer re-typesets only the formula)
  const z = m.margins(step), N = m.N, k = view.k;
  let lo = -1.5, hi = 2.5, neg = 0, sumNeg = 0, below = 0;
  for (const v of z) {
    lo = Math.min(lo, v); hi = Math.max(hi, v);
    if (v < 0) { neg++; sumNeg -= v; }
    if (v < 1) below++;
  }
  // the counts the core (or the solver, within its tolerance) decided, as the chart and its words say them
  const {mis, inside} = m.marginCounts(step, below);
  const pad = 0.04 * (hi - lo);
  lo -= pad; hi += pad;
  const data = [];
  for (const [id, name, loss, colour, dash] of MARGIN_LOSSES) {  // each a broken line, exact at its kink
    const xs = {zero_one: [lo, 0, 0, hi], perceptron: [lo, 0, hi], hinge: [lo, 1, hi]}[id];
    data.push({type: "scatter", mode: "lines", name, x: xs, y: id === "zero_one" ? [1, 1, 0, 0] : xs.map(loss),
               line: {color: colour, width: 2.5 * k, dash}, hoverinfo: "skip", legendgroup: name});
  }
  const colours = Array.from(m.y, (v) => (v > 0 ? POS : NEG));
  for (const [, name, loss, colour] of MARGIN_LOSSES)
    data.push({type: N > MARGIN_GL ? "scattergl" : "scatter", mode: "markers", name: `points on ${name.split(":")[0]}`, showlegend: false,
               x: Array.from(z), y: Array.from(z, loss), customdata: Array.from(z, (_, i) => i + 1), legendgroup: name,
               marker: {color: colours, size: (N <= 100 ? 9 : N <= 1000 ? 6 : 4) * k, opacity: 0.75, line: {color: colour, width: N <= 400 ? 1 : 0}},
               hovertemplate: `x<sub>%{customdata}</sub>: z = %{x:.4g}, ${name.split(":")[0]} loss %{y:.4g}<extra></extra>`});
  const tick = {size: 13 * k, color: "#333"};
  const layout = {
    width, height: Math.round(240 * k), autosize: false, dragmode: false, hovermode: "closest",
    font: {family: FONT, size: 14 * k, color: INK}, margin: {l: Math.round(50 * k), r: 12, t: Math.round(26 * k), b: Math.round(40 * k)},
    plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
    legend: {orientation: "h", x: 0, y: 1.02, yanchor: "bottom", font: {size: 13 * k}},
    xaxis: {title: {text: m.h.kind === "svm" && !m.linear ? "margin z = y·f(x)" : "margin z = y·(w·x + b)", standoff: 2, font: {size: 14 * k, color: "#333"}}, range: [lo, hi], tickfont: tick,
            gridcolor: "#eeeeee", fixedrange: true, zeroline: true, zerolinecolor: "#999"},
    yaxis: {title: {text: "loss", font: {size: 14 * k, color: "#333"}}, tickfont: tick, gridcolor: "#eeeeee", fixedrange: true,
            rangemode: "tozero"},
    shapes: [{type: "line", x0: 1, x1: 1, yref: "paper", y0: 0, y1: 1, line: {color: POS, width: 1.5 * k, dash: "dot"}}],
    meta: {view: "margins", step, n_points: N},
  };
  const svm = m.h.kind === "svm", [bad, good] = m.negative ? ["z < 0", "z ≥ 0"] : ["z ≤ 0", "z > 0"];
  const has = (c) => (c === 1 ? "has" : "have"), stopped = !svm && m.run.converged && step >= m.S;
  box.querySelector(".dbls-margins-text").innerHTML = `<p class="dbls-lesson-why">${esc(
    `Here ${grouped(mis)} of ${grouped(N)} points ${has(mis)} ${svm ? "z ≤ 0" : bad} (the 0-1 loss counts them${svm ? "" : ": M"}), ${grouped(neg)} ${has(neg)} ` +
    `z < 0 (the perceptron loss adds their −z: Σ = ${num(sumNeg)}) and ${grouped(inside)} ${has(inside)} z < 1 ` +
    "(the hinge loss adds 1 − z). " +
    (svm ? "The SVM pays C·Σξ = C·Σ max(0, 1 − z) for the points below 1 and ½‖w‖² for the margin: a larger C pushes more points past z = 1."
         : stopped ? `The perceptron changes w only for a point with ${bad}: it stopped here, with every ${good} and points still below 1, where the SVM's hinge would go on.`
         : `The perceptron changes w only for a point with ${bad}, and stops once every ${good} (on data no line separates, never), with points still below 1; the SVM's hinge would go on.`))}</p>`;
  const el = box.querySelector(".dbls-margins-plot");
  el.__z = z;  // (for tests and the curious: the z drawn)
  view.Plotly.react(el, data, layout, CONFIG);
}

// ----- Compare: each side's rule, then its step's numbers (a side that has finished holds its last state)
HingeModel.prototype.formula = function (s) { return hingeStep(this, this.X, this.y, this.run.lam, this.etas, s); };

CompareModel.prototype.formulaColumns = function (t) {
  return this.panels.map((p, j) => [`${j ? "Right" : "Left"}: ${this.titles[j].split("\n")[0]}`, p.formula(Math.min(t, p.S))]);
};
