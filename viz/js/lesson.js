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
import {CONFIG, INK, NEG, POS, PURPLE, layer} from "./draw.js";
import {grouped, num} from "./format.js";
import {FONT, esc, f1} from "./layout.js";
import {stateOf} from "./state.js";


export let KATEX = null, KATEX_FAILED = false;
let katexLoading = null;  // (the module is fetched once; a failed fetch is tried again by the next chart)
let mathML = false;  // the offline file: no KaTeX style sheet or fonts, so MathML, which the browser typesets itself
export function typesetAsMathML() { mathML = true; }
export function loadKatex() {
  if (KATEX) return Promise.resolve(KATEX);
  if (!katexLoading) {
    if (!window.katex && !document.querySelector("link[data-dbl-katex]")) {  // its rules beyond Streamlit's own
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("app/static/katex.css", window.location.href).toString();
      link.dataset.dblKatex = "";
      document.head.appendChild(link);
    }
    katexLoading = window.katex ? Promise.resolve(window.katex)  // (the offline file carries KaTeX: window.katex)
      : import(new URL("app/static/katex.js", window.location.href).toString()).then((mod) => mod.default);
    katexLoading.catch(() => { katexLoading = null; });
  }
  return katexLoading.then((k) => { KATEX = k; KATEX_FAILED = false; return k; },
                                (e) => { KATEX_FAILED = true; throw e; });
}

// what the lesson's open parts take under the controls: the panels' sizing leaves it out (Loss, Compare, SVM)
export function lessonHeight(root) {
  let h = 0;
  for (const d of root.querySelectorAll("details[data-part]")) h += d.hidden ? 0 : d.offsetHeight;
  return h;
}

const TYPESET = new Map();  // TeX → its HTML, the last 256 (a rule's rows are typeset once, not at every step)
function typeset(src) {
  let html = TYPESET.get(src);
  if (html === undefined) {
    html = KATEX.renderToString(src, {displayMode: true, throwOnError: false, strict: "ignore",
                                      output: mathML ? "mathml" : "htmlAndMathml"});
    if (TYPESET.size >= 256) TYPESET.delete(TYPESET.keys().next().value);
    TYPESET.set(src, html);
  }
  return html;
}

// numbers in TeX as the words write them (num: the core's value, 3 decimals), with an ASCII minus for KaTeX; a
// number num writes with an exponent (4.45e-05) as a power of ten (4.45\times 10^{-5}): KaTeX would set e as a variable
export function tn(v) {
  const s = num(v).replace(/−/g, "-"), e = /^(-?[\d.]+)e([+-]?)0*(\d+)$/.exec(s);
  return e ? `${e[1]}\\times 10^{${e[2] === "-" ? "-" : ""}${e[3]}}` : s;
}
export const tv = (v) => `(${Array.from(v, tn).join(",\\ ")})`;
export const tsign = (yi) => (yi > 0 ? "+1" : "-1");
export const tparen = (v) => (v < 0 ? `(${tn(v)})` : tn(v));  // a negative factor in brackets
export function tset(idx, limit = 8) {  // {3, 7, 12, …} with the points' numbers (1-based, as x₃ in the words)
  if (!idx.length) return "\\varnothing";
  const s = idx.slice(0, limit).map((i) => String(i + 1)).join(",\\ ");
  return `\\{${s}${idx.length > limit ? ",\\ \\dots" : ""}\\}` + (idx.length > limit ? `\\ (${idx.length}\\text{ points})` : "");
}
export const TW = "\\mathbf{w}", TX = "\\mathbf{x}";

// the lesson of the step shown: the formula (when unfolded and KaTeX is in), the proof and the margin plot (when unfolded)
export function showLesson(view, step) {
  const root = view.root, box = root.querySelector(".dbls-math");
  if (box) {
    const body = box.querySelector(".dbls-math-body");
    const m = view.m, has = Boolean(m.formula || m.formulaColumns);
    box.hidden = !has;
    if (has && box.open) {
      if (KATEX) {
        if (m.formulaColumns) setColumns(body, m.formulaColumns(step));  // (Compare: a column per side)
        else setRows(body, m.formula(step, view));
        fitRows(body);
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
export const mathRows = (rows) => rows.map(mathRow).join("");

// the rows into ``body``, replacing only those that changed (a step changes its own rows, not the rule's)
function setRows(body, rows) {
  if (body.childNodes.length !== body.children.length) body.textContent = "";  // (words in it: a message)
  rows.forEach((row, r) => {
    const key = JSON.stringify(row), el = body.children[r];
    if (el && stateOf(el).key === key) return;
    const t = document.createElement("template");
    t.innerHTML = mathRow(row);
    const node = t.content.firstElementChild;
    stateOf(node).key = key;
    if (el) el.replaceWith(node); else body.appendChild(node);
  });
  while (body.children.length > rows.length) body.lastElementChild.remove();
}

// a row wider than its column (a phone) is set smaller to fit, down to 70 % (past that it scrolls)
function fitRows(body) {
  // (KaTeX's fonts still loading set the rows narrower than they stand once in: measured again then)
  if (document.fonts && document.fonts.status !== "loaded" && !stateOf(body).fitSoon) {
    stateOf(body).fitSoon = true;
    document.fonts.ready.then(() => { stateOf(body).fitSoon = false; fitRows(body); });
  }
  for (const el of body.querySelectorAll(".dbls-math-tex")) {
    el.style.fontSize = "";
    const w = el.clientWidth, need = el.scrollWidth;
    if (w > 0 && need > w + 1) el.style.fontSize = `${Math.max(0.7, Math.floor((100 * (w - 2)) / need) / 100)}em`;
  }
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
export function lessonFolds(root) {
  const open = stateOf(root).open || {};
  for (const d of root.querySelectorAll("details[data-part]")) {
    const want = open[d.dataset.part] ?? d.dataset.part === "math";
    if (d.open !== want) { stateOf(d).auto = true; d.open = want; }  // (not the user's choice: wire() does not keep it)
  }
}

function proofSpan(m) {  // the updates drawn: the run's, and on to (R/γ)² when the crossing is near
  const K = Math.max(m.K, 1), bound = m.h.bound.bound;
  return bound <= 4 * K ? Math.ceil(bound * 1.04) : K;
}

export function proofTraces(m, P, scale) {
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

export function proofLayout(m, width, scale) {
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

export function proofMark(view, el, k) {  // the current k on the proof's plot
  const fl = el._fullLayout, over = el.parentElement.querySelector(".dbls-proof-over");
  if (!fl || !fl.xaxis || !fl.xaxis._length || !over) return;
  const x = fl.xaxis._offset + fl.xaxis.l2p(k), y0 = fl.yaxis._offset, y1 = y0 + fl.yaxis._length;
  layer(over, fl, `<line x1="${f1(x)}" y1="${y0}" x2="${f1(x)}" y2="${y1}" stroke="${INK}" stroke-width="${2 * view.k}" stroke-dasharray="2 3"/>`);
  el.dataset.k = String(k);
}

// ----- the Dual / Gram page: f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b and αᵢ ← αᵢ + η, with the step's numbers
export function kernelTex(run) {
  const p = run.kernel_params || {}, X = TX;
  if (run.kernel === "rbf") return `\\exp(-${tn(p.gamma)}\\,\\|${X}_j - ${X}_i\\|^2)`;
  if (run.kernel === "poly") return `(${X}_j\\cdot ${X}_i + ${tn(p.coef0)})^{${p.degree}}`;
  return `${X}_j\\cdot ${X}_i`;
}

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
export function hingeStep(p, X, y, lam, etas, s) {
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

// ----- the Loss surface: the three losses as the core defines them, and their values at the chosen weight
export const LOSS_TEX = {
  zero_one: (a) => `L_{0\\text{-}1} = \\frac{1}{N}\\sum_i \\big[\\,${a} \\le 0\\,\\big]`,
  perceptron: (a) => `L_{\\text{perc}} = \\frac{1}{N}\\sum_i \\max(0,\\ -${a})`,
  hinge: (a) => `L_{\\text{hinge}} = \\frac{1}{N}\\sum_i \\max(0,\\ 1 - ${a}) + \\frac{\\lambda}{2}\\|${TW}\\|^2`,
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

// the lesson's plots span the chart's whole row (also beside the panel in presentation mode)
export const lessonWidth = (view) => Math.max(view.root.clientWidth || view.sz.width || 600, 300);

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
