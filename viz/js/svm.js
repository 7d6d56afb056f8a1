// ---------------------------------------------------------------------------------------------------
// the SVM scene (viz/scene.py SvmScene): the exact SVM for every C of the grid; the stops are the Cs, so
// Back/Next, the slider, Sweep and the page's own C control move C in the browser
// ---------------------------------------------------------------------------------------------------
import {CONFIG, GAP, GL_POINTS, INK, MARGIN_INK, NEG, NONE, POS, PixelLayer, REGION, layer, nextClipId, overlaps, pen, plotCanvas, stamp, stampRings} from "./draw.js";
import {DualView, addKernelRow, chained, gapped, panelClasses, zeroSegments} from "./dual.js";
import {controlValue} from "./follow.js";
import {setTuned} from "./tune.js";
import {general, grouped, mistakesText, names, num, sub, vec} from "./format.js";
import {region, segment} from "./geometry.js";
import {FONT, esc, f1, placeTip} from "./layout.js";
import {TW, TX, showLesson, tn, tsign, tv} from "./lesson.js";
import {PerceptronView} from "./perceptron.js";
import {MARGINS, MATH, sweepControls} from "./shells.js";
import {Stepping} from "./stepping.js";
import {stateOf} from "./state.js";


const SVM_NAMES = 5;  // SVM_STATE_NAMES in tests/oracles.py: most points the state line names in one list
const SVM_LABELS = 12;  // viz.svm.MAX_SLACK_LABELS
const KERNEL_LARGE = 10;  // K(x, x) this many times its standardized size: standardize (tests/oracles.py)
const SVM_KERNEL_NAMES = {poly: "polynomial", rbf: "RBF"};
// how many of the points P ([x, y, x, y, …], px) lie in ``box`` ([x0, y0, x1, y1]), counting on from ``from`` and
// stopping at ``limit`` (a place that covers as many as the best found so far is no better)
function pointsIn(P, [x0, y0, x1, y1], from = 0, limit = Infinity) {
  let n = from;
  for (let j = 0; j < P.length && n < limit; j += 2) if (P[j] >= x0 && P[j] <= x1 && P[j + 1] >= y0 && P[j + 1] <= y1) n++;
  return n - from;
}

const CATEGORY_NAMES = ["outside the margin", "on the margin", "inside the margin", "misclassified"];
const SLACK_INK = "#CC79A7", SLACK_TEXT = "#8B2F6B", PERCEPTRON_INK = "rgba(0, 158, 115, 0.55)";
const REPORT_MS = 600;  // the chart's C at rest this long is told to the page (one rerun, not one per C passed)
const ARROW_PLACES = ["tip", "tip-under", "tail", "tail-under"];  // where the width's label may stand (arrowLabel)
const ARROW_AT = [0.5, 0.38, 0.62, 0.26, 0.74, 0.14, 0.86];  // where along the boundary in view the width arrow may stand
// presentation mode's slide: the objective and C path beside the data panel, at this share of its width (250 px least)
const SIDE_W = 0.6, sideWidth = (S) => Math.max(Math.round(SIDE_W * S), 250);
const PATH_ROWS = [["width", "width", "#0072B2"], ["support", "# SVs", "#E69F00"], ["slack", "Σξ", SLACK_INK]];

class SvmModel {
  constructor({header, arrays}) {
    this.h = header;
    this.run = header.run || {};
    this.box = header.box;
    const r = this.run, a = (name) => {
      if (!arrays[name]) throw new Error(`the scene has no ${name}`);
      return arrays[name];
    };
    this.X = a("X"); this.y = a("y"); this.N = this.y.length;
    this.Cs = a("Cs"); this.K = this.Cs.length;
    const N = this.N, K = this.K;
    if (!K) throw new Error("the scene holds no solution");
    if (this.X.length !== 2 * N) throw new Error("the scene's points and labels differ in number");
    for (let i = 0; i < N; i++) if (this.y[i] !== 1 && this.y[i] !== -1) throw new Error(`label ${this.y[i]} of point ${i + 1} is not ±1`);
    for (let i = 0; i < 2 * N; i++) if (!Number.isFinite(this.X[i])) throw new Error(`point ${Math.floor(i / 2) + 1} is not finite`);
    if (!Array.isArray(this.box) || this.box.length !== 4 || !this.box.every(Number.isFinite)) throw new Error("the scene's view box is not four numbers");
    if (!["linear", "poly", "rbf"].includes(r.kernel)) throw new Error(`the scene's kernel ${r.kernel} is not one this chart draws`);
    this.linear = r.kernel === "linear";
    const p = r.kernel_params || {};
    if (r.kernel === "rbf" && !(p.gamma > 0)) throw new Error("the RBF kernel's γ is not a positive number");
    if (r.kernel === "poly" && !(Number.isInteger(p.degree) && p.degree >= 1 && p.degree <= 20 && Number.isFinite(p.coef0)))
      throw new Error("the polynomial kernel's degree or offset is not usable");
    for (let k = 0; k < K; k++) {
      if (!(this.Cs[k] > 0)) throw new Error(`C of solution ${k + 1} is not positive`);
      if (k && !(this.Cs[k] > this.Cs[k - 1])) throw new Error("the scene's C values do not increase");
    }
    const sized = (name, n) => { const v = a(name); if (v.length !== n) throw new Error(`the scene's ${name} has ${v.length} entries, not ${n}`); return v; };
    this.B = sized("B", K); this.flags = sized("flags", K * N);
    this.margin = sized("margin", K); this.objective = sized("objective", K); this.slackSum = sized("slack_sum", K);
    this.iterations = sized("iterations", K); this.converged = sized("converged", K);
    this.kmax = sized("kernel_max", K); this.kstd = sized("kernel_max_std", K);
    this.W = sized("W", this.linear ? 2 * K : 0); this.coef = sized("coef", this.linear ? 0 : K * N);
    for (const v of [this.B, this.W, this.coef, this.objective]) if (!v.every(Number.isFinite)) throw new Error("a solution of the scene is not finite");
    this.labPtr = sized("lab_ptr", K + 1); this.labIdx = a("lab_idx"); this.labXi = sized("lab_xi", this.labIdx.length);
    for (let k = 0; k < K; k++) if (this.labPtr[k] > this.labPtr[k + 1]) throw new Error("the scene's ξ labels are out of order");
    if (this.labPtr[0] !== 0 || this.labPtr[K] !== this.labIdx.length) throw new Error("the scene's ξ labels do not add up");
    for (const i of this.labIdx) if (i >= N) throw new Error(`a ξ label names point ${i + 1} of ${N}`);
    this.path = {C: a("path_C")};
    for (const [key] of PATH_ROWS) this.path[key] = sized(`path_${key}`, this.path.C.length);
    const pc = r.perceptron;
    if (pc !== null && pc !== undefined && !(Array.isArray(pc) && pc.length === 3 && pc.every(Number.isFinite)))
      throw new Error("the perceptron's boundary is not three numbers");
  }

  get nStops() { return this.K; }
  stepAt(i) { return i; }
  get S() { return this.K - 1; }

  cat(k, i) { return this.flags[k * this.N + i] & 3; }
  where(k, bit) {  // the points of solution k with a flag bit set (or, bit < 0, of category −bit − 1)
    const out = [], base = k * this.N;
    for (let i = 0; i < this.N; i++) {
      const f = this.flags[base + i];
      if (bit >= 0 ? f & bit : (f & 3) === -bit - 1) out.push(i);
    }
    return out;
  }
  support(k) { return this.where(k, 4); }
  violators(k) { return this.where(k, 8); }
  mistakes(k) { return this.where(k, -4); }
  counts(k) {
    const c = [0, 0, 0, 0];
    for (let i = 0; i < this.N; i++) c[this.cat(k, i)]++;
    return c;
  }
  w(k) { return [this.W[2 * k], this.W[2 * k + 1]]; }

  // K(a, b) as core.dual.kernel_matrix computes it
  kern(ax, ay, bx, by) {
    const r = this.run, p = r.kernel_params;
    if (r.kernel === "rbf") return Math.exp(-p.gamma * ((ax - bx) * (ax - bx) + (ay - by) * (ay - by)));
    if (r.kernel === "poly") { const base = ax * bx + ay * by + p.coef0; let v = 1; for (let t = 0; t < p.degree; t++) v *= base; return v; }
    return ax * bx + ay * by;
  }
  // f(xᵢ) of solution k (shown on hover; the categories are the solver's)
  f(k, i) {
    const X = this.X, x = X[2 * i], y = X[2 * i + 1];
    if (this.linear) return (x * this.W[2 * k] + y * this.W[2 * k + 1]) + this.B[k];
    let s = 0;
    for (let j = 0; j < this.N; j++) { const c = this.coef[k * this.N + j]; if (c) s += c * this.kern(X[2 * j], X[2 * j + 1], x, y); }
    return s + this.B[k];
  }

  finite(k) { return Number.isFinite(this.Cs[k]); }
  cText(k) { return this.finite(k) ? general(this.Cs[k], 6) : "∞"; }

  // svm_status (tests/oracles.py), word for word
  describe(k) {
    const c = this.counts(k), width = 2 * this.margin[k];
    let sxi = this.slackSum[k];
    sxi = sxi < 1e-9 ? 0 : sxi;  // the solver's residue, not slack
    let s = `${this.finite(k) ? `C = ${general(this.Cs[k], 6)}` : "Hard margin"}: margin width 2/‖w‖ = ${num(width)}, ` +
      `${this.support(k).length} support vectors, Σξ = ${num(sxi)}<br>objective ½‖w‖² + C Σξ = ${num(this.objective[k])}<br>` +
      `points: ${c[0]} outside, ${c[1]} on, ${c[2]} inside the margin; ${c[3]} misclassified`;
    if (!this.converged[k]) {
      s += `<br>SMO stopped at its cap of ${grouped(this.iterations[k])} iterations before its tolerance: this solution is approximate `;
      if (this.kmax[k] > KERNEL_LARGE * this.kstd[k])
        s += `(the kernel's values reach K(x, x) = ${num(this.kmax[k])}; standardized, they would reach ${num(this.kstd[k])}: ` +
          "turn on <i>Standardize x₁ and x₂</i> in the sidebar).";
      else s += "(a smaller C or γ converges faster).";
    }
    return s;
  }

  // svm_state (tests/oracles.py), word for word (its <br> as a line break)
  stateLine(k) {
    const n = this.N, width = 2 * this.margin[k];
    const listed = (idx) => `${names(idx.slice(0, SVM_NAMES))}${idx.length > SVM_NAMES ? ", …" : ""} (${grouped(idx.length)} of ${grouped(n)})`;
    const head = this.finite(k) ? `C = ${general(this.Cs[k], 6)}` : "Hard margin (C = ∞)";
    let params;
    if (this.linear) {
      params = `w = ${vec(this.w(k))}, b = ${num(this.B[k])}` +
        (Number.isFinite(width) ? `, margin 2/‖w‖ = ${num(width)}` : ", w = 0: no margin lines");
    } else {
      params = `${SVM_KERNEL_NAMES[this.run.kernel]} kernel, b = ${num(this.B[k])}` +
        (Number.isFinite(width) ? `, margin 2/‖w‖ = ${num(width)} in feature space` : "");
    }
    const mis = this.mistakes(k), viol = this.violators(k);
    const slack = viol.length ? `ξ > 0 for ${listed(viol)}` : "ξ = 0 at every point";
    return `${head}: ${params}; ${mistakesText(mis, mis.length, n, SVM_NAMES)}\nsupport vectors: ${listed(this.support(k))}; ${slack}`;
  }

  // ----- the SVM page: the soft-margin objective and ξ at the slider's C, ξ for the point under the pointer (else
  // the point with the largest ξ, as the chart labels it)
  formula(k, view) {
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
  }

  // z = yᵢ·f(xᵢ) of the solution at C number k (f as the chart's pointer reads it)
  marginCounts(k) {  // the solver's categories: misclassified, and ξ > its tolerance
    return {mis: this.mistakes(k).length, inside: this.violators(k).length};
  }

  margins(k) {
    const z = new Float64Array(this.N);
    for (let i = 0; i < this.N; i++) z[i] = this.y[i] * this.f(k, i);
    return z;
  }
}

class SvmView extends Stepping {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    const q = (c) => root.querySelector(c);
    this.canvas = q(".dbls-canvas"); this.canvasOver = q(".dbls-canvas-over"); this.tip = q(".dbls-tip");
    this.sideEl = q(".dbls-side-plot"); this.sideOver = q(".dbls-side-over");
    const N = model.N, size = N <= 100 ? 12 : N <= 400 ? 9 : N <= 1000 ? 7 : 5;  // viz.svm: markers shrink as points crowd
    this.size = (size + 1) * this.k;
    this.svSize = (2 * size + 6) * this.k;
    this.grids = new Map();  // a kernel's f on the grid, per solution
  }

  get step() { return this.i; }
  position() { return this.m.K > 1 ? {prefix: "C = ", label: this.m.cText(this.i), step: null} : null; }  // C; one C: none
  get cLabel() { const p = this.position(); return p ? p.label : null; }  // the C a copied link and a file name say

  // ----- the page's C (glue.controls; the chart's own slider is its control): the chart opens at it
  followed() { return this.m.K < 2 ? null : controlValue(this.m.h.follow); }
  indexOf(text) {
    const want = Number(text);
    if (!Number.isFinite(want)) return null;
    let best = 0;
    for (let k = 1; k < this.m.K; k++) if (Math.abs(Math.log(this.m.Cs[k] / want)) < Math.abs(Math.log(this.m.Cs[best] / want))) best = k;
    return best;
  }
  sync() {
    const text = this.followed();
    if (text === null || text === this.following) return;
    this.following = text;
    const k = this.indexOf(text);
    if (k !== null && k !== this.i) { this.syncing = true; this.pause(); this.show(k); this.syncing = false; }
  }
  // the chart's own C (its slider, ◀ ▶, the keys, the sweep's end) is told to the page once it has rested REPORT_MS:
  // the link then carries it and the SGD tab runs at it; a C the page has already is not sent
  report() {
    const send = stateOf(this.root).send;
    if (!send || this.syncing || this.m.K < 2) return;
    clearTimeout(this.reportTimer);
    this.reportTimer = setTimeout(() => {
      const text = this.followed();
      if (this.timer || stateOf(this.root).view !== this || text === null || this.indexOf(text) === this.i) return;
      this.following = String(this.m.Cs[this.i]);  // (the page's C from now on: no move of this chart)
      setTuned(this.m.h.follow, this.following);
      send("c", this.m.Cs[this.i]);
    }, REPORT_MS);
  }
  pause() {
    const sweeping = !!this.timer;
    super.pause();
    if (sweeping) this.report();
  }

  // ----- f of a kernel solution on a grid over the data panel's axes (a line needs none: w is sent)
  gridOf(k) {
    const fl = this.plot._fullLayout, b = this.m.box, G = 101;
    const xr = fl && fl.xaxis ? fl.xaxis.range : [b[0], b[1]], yr = fl && fl.yaxis ? fl.yaxis.range : [b[2], b[3]];
    const key = [k, ...xr, ...yr].join(",");
    if (this.grids.has(key)) return this.grids.get(key);
    const gx = Array.from({length: G}, (_, j) => xr[0] + (xr[1] - xr[0]) * j / (G - 1));
    const gy = Array.from({length: G}, (_, j) => yr[0] + (yr[1] - yr[0]) * j / (G - 1));
    const h = new Float64Array(G * G), m = this.m;
    for (let i = 0; i < m.N; i++) {
      const c = m.coef[k * m.N + i];
      if (c) addKernelRow(h, m, i, gx, gy, c * m.y[i]);  // adds cᵢ·K(xᵢ, g), cᵢ = αᵢyᵢ
    }
    for (let j = 0; j < h.length; j++) h[j] += m.B[k];
    const grid = {F: h, gx, gy};
    this.grids.set(key, grid);
    return grid;
  }

  // ----- what a C shows, decided once: the geometry the live layers and an exported image draw
  geometry(k) {
    const m = this.m, box = m.box, span = box[1] - box[0];
    const c = [(box[0] + box[1]) / 2, (box[2] + box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
    const g = {k, C: m.Cs[k], lines: {}, regPos: NONE, regNeg: NONE, grid: null, cat: new Uint8Array(m.N)};
    for (let i = 0; i < m.N; i++) g.cat[i] = m.cat(k, i);
    const inView = (p) => p[0] >= box[0] && p[0] <= box[1] && p[1] >= box[2] && p[1] <= box[3];
    let footOf;
    if (m.linear) {
      const [w0, w1] = m.w(k), b = m.B[k];
      for (const lev of [-1, 0, 1]) {
        const s = segment(clip, w0, w1, b - lev);
        g.lines[lev] = s[0].length ? [[[s[0][0], s[1][0]], [s[0][1], s[1][1]]]] : [];
      }
      g.regPos = region(clip, w0, w1, b, 1); g.regNeg = region(clip, w0, w1, b, -1);
      const nw2 = w0 * w0 + w1 * w1;
      footOf = (i) => {  // move along w until f = yᵢ
        if (!(nw2 > 0)) return null;
        const x = m.X[2 * i], y = m.X[2 * i + 1], t = (m.y[i] - ((x * w0 + y * w1) + b)) / nw2;
        return [x + t * w0, y + t * w1];
      };
      // the width 2/‖w‖: a double arrow across the margin from a point of the boundary in view, the middle unless its
      // label would cover points there (placeArrow picks among these, nearest the middle first)
      const width = 2 * m.margin[k], bs = segment(box, w0, w1, b);
      if (Number.isFinite(width) && bs[0].length) {
        const nw = Math.sqrt(nw2), u = [w0 / nw, w1 / nw], r = m.margin[k], text = `width 2/‖w‖ = ${num(width)}`;
        g.arrows = ARROW_AT.map((t) => {
          const mid = [bs[0][0] + t * (bs[0][1] - bs[0][0]), bs[1][0] + t * (bs[1][1] - bs[1][0])];
          return {mid, tip: [mid[0] + u[0] * r, mid[1] + u[1] * r], tail: [mid[0] - u[0] * r, mid[1] - u[1] * r], text};
        });
        g.arrow = g.arrows[0];
      }
    } else {
      const grid = g.grid = this.gridOf(k), shift = new Float64Array(grid.F.length);
      const verts = {};
      for (const lev of [-1, 0, 1]) {
        for (let j = 0; j < shift.length; j++) shift[j] = grid.F[j] - lev;
        g.lines[lev] = zeroSegments(shift, grid.gx, grid.gy);
        if (lev) verts[lev] = g.lines[lev].flat().filter(inView);  // the curve's own points in view
      }
      footOf = (i) => {  // the nearest point of its own margin curve f = yᵢ in view
        const pts = verts[m.y[i]], x = m.X[2 * i], y = m.X[2 * i + 1];
        let best = null, d = Infinity;
        for (const p of pts) { const e = (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y); if (e < d) { d = e; best = p; } }
        return best;
      };
    }
    // slack: each violator joined to its own margin line f(x) = yᵢ; the largest ξ with a segment labelled
    g.slack = [];
    for (const i of m.violators(k)) { const f = footOf(i); if (f) g.slack.push([i, f]); }
    const feet = new Map(g.slack);
    g.labels = [];
    for (let j = m.labPtr[k]; j < m.labPtr[k + 1] && g.labels.length < SVM_LABELS; j++) {
      const i = m.labIdx[j], f = feet.get(i);
      if (!f) continue;
      const x = m.X[2 * i], y = m.X[2 * i + 1], seg = [f[0] - x, f[1] - y];
      const reach = Math.min(0.5, 0.08 * span / Math.max(Math.hypot(seg[0], seg[1]), 1e-12));
      g.labels.push({i, at: [x + reach * seg[0], y + reach * seg[1]], text: `ξ${sub(i + 1)}=${num(m.labXi[j], 2)}`});
    }
    g.sv = m.support(k);
    const reg = Number.isFinite(m.margin[k]) && m.margin[k] > 0 ? 0.5 / (m.margin[k] * m.margin[k]) : 0;
    g.J = {reg, slack: m.objective[k] - reg, J: Math.max(m.objective[k], 1e-300), total: m.objective[k]};
    return g;
  }

  legendItems() {
    const sym = (cat, shape) => {  // the legend's marks, as the chart draws them (y = +1's shape)
      const fill = cat === 2 ? "none" : POS, stroke = cat === 1 ? INK : cat === 2 ? POS : "none";
      let s = shape === "diamond" ? `<path d="M9 2 L16 9 L9 16 L2 9 Z" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`
        : `<circle cx="9" cy="9" r="6" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`;
      if (cat === 1) s += `<circle cx="9" cy="9" r="1.8" fill="${INK}"/>`;
      if (cat === 3) s += `<path d="M6 6 L12 12 M12 6 L6 12" stroke="white" stroke-width="2"/>`;
      return s;
    };
    const items = CATEGORY_NAMES.map((name, c) => [`cat${c}`, name, sym(c, "circle")]);
    items.push(
      ["sv", "support vectors", `<circle cx="9" cy="9" r="7" fill="none" stroke="${INK}" stroke-width="2"/>`],
      ["line", "boundary f(x) = 0 (tinted by the sign of f)", `<line x1="1" y1="9" x2="17" y2="9" stroke="${INK}" stroke-width="4"/>`],
      ["margin", "margin f(x) = ±1", `<line x1="1" y1="9" x2="17" y2="9" stroke="${MARGIN_INK}" stroke-width="2.5" stroke-dasharray="4 3"/>`],
      ["slack", "slack ξᵢ (to its margin line)", `<line x1="2" y1="15" x2="16" y2="3" stroke="${SLACK_INK}" stroke-width="2.5"/>`],
    );
    if (this.m.run.perceptron) items.push(["perc", "perceptron's boundary", `<line x1="1" y1="9" x2="17" y2="9" stroke="${PERCEPTRON_INK}" stroke-width="3"/>`]);
    return items;
  }
  traceParts() { return {}; }  // the points are drawn with the step, by where they lie

  axis(extra) { return PerceptronView.prototype.axis.call(this, extra); }
  meta() {
    const m = this.m, k = this.i, c = m.counts(k);
    return {view: "svm", C: m.finite(k) ? m.Cs[k] : null, Cs: Array.from(m.Cs), live: m.K > 1, kernel: m.run.kernel,
            width: 2 * m.margin[k], support: m.support(k).length, objective: m.objective[k],
            categories: Object.fromEntries(CATEGORY_NAMES.map((n, j) => [n, c[j]]))};
  }
  mainTraces() {
    // the points as plotly.js knows them: invisible, for hovering (the chart draws them by where they lie)
    const m = this.m;
    return [{type: m.N > GL_POINTS ? "scattergl" : "scatter", mode: "markers", x: Array.from({length: m.N}, (_, i) => m.X[2 * i]),
             y: Array.from({length: m.N}, (_, i) => m.X[2 * i + 1]), hoverinfo: "none", showlegend: false,
             marker: {size: Math.max(this.size, 8), color: "rgba(0,0,0,0)"}}];
  }
  mainLayout(width, height) {
    const l = PerceptronView.prototype.mainLayout.call(this, width, height);
    l.meta = this.meta();
    return l;
  }
  sideTraces() {
    const m = this.m, k = this.k, P = m.path;
    // the objective's axes (its bars are drawn over them, as C moves)
    const data = [{type: "scatter", mode: "markers", x: [0], y: [0], marker: {opacity: 0}, hoverinfo: "skip", showlegend: false}];
    if (P.C.length) PATH_ROWS.forEach(([key, label, colour], r) => {
      data.push({type: "scatter", mode: "lines+markers", name: label, x: Array.from(P.C), y: Array.from(P[key]),
                 line: {color: colour, width: 2.5 * k}, marker: {size: 5 * k}, showlegend: false, xaxis: `x${r + 2}`, yaxis: `y${r + 2}`,
                 hovertemplate: `C = %{x:.3g}: ${label} = %{y:.4g}<extra></extra>`});
    });
    return data;
  }
  sideLayout(width, height) {
    const k = this.k, P = this.m.path, has = P.C.length > 0, tick = {size: 12 * k, color: "#333"};
    const l = {
      width, height, autosize: false, dragmode: false, hovermode: "closest", showlegend: false,
      font: {family: FONT, size: 14 * k, color: INK}, margin: {l: Math.round(48 * k), r: Math.round(10 * k), t: Math.round(66 * k), b: Math.round(44 * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      xaxis: {domain: [0, 0.22], range: [-0.5, 0.5], fixedrange: true, showticklabels: false, showgrid: false, zeroline: false},
      yaxis: {domain: [has ? 0.62 : 0, 1], range: [0, 1.6], tickvals: [0, 0.5, 1], ticktext: ["0", "½J", "J"], gridcolor: "#eeeeee",
              tickfont: tick, fixedrange: true},
    };
    l.annotations = [];
    if (has) PATH_ROWS.forEach(([key, label, colour], r) => {
      const lo = (2 - r) * 0.2, top = Math.max(0, ...P[key].filter(Number.isFinite));
      // two ticks, 0 and the row's largest value (a row is too short for plotly.js to place more than one), in whole
      // units from 1,000 on (its left margin holds "2,099", not "2099.408": the state line gives the digits)
      l[`yaxis${r + 2}`] = {domain: [lo, lo + 0.13], anchor: `x${r + 2}`, fixedrange: true, gridcolor: "#eeeeee", tickfont: tick,
                            range: [0, (top || 1) * 1.12], tickvals: top ? [0, top] : [0], ticktext: top ? ["0", top >= 1000 ? grouped(Math.round(top)) : num(top)] : ["0"]};
      // each row named inside its top right corner, where the curve is low (the width, the support vectors and Σξ
      // fall as C grows); across, not a vertical title, which would run into the next row's on a short panel. (The gap
      // between rows, 7 % of the panel, keeps a row's top tick clear of the next row's 0 on a projector)
      l.annotations.push({text: label, xref: `x${r + 2} domain`, yref: `y${r + 2} domain`, x: 1, y: 1, xanchor: "right", yanchor: "top",
                          showarrow: false, font: {size: 13 * k, color: colour}, bgcolor: "rgba(255,255,255,0.8)"});
      l[`xaxis${r + 2}`] = {type: "log", domain: [0, 1], anchor: `y${r + 2}`, fixedrange: true, gridcolor: "#eeeeee",
                            showticklabels: r === 2, tickfont: tick, ...(r === 2 ? {title: {text: "C (log)", font: {size: 13 * k, color: "#333"}, standoff: 2}} : {}),
                            ...(r ? {matches: "x2"} : {})};
    });
    return l;
  }

  // ----- sizes: the data panel square and the objective and C path beside it where both fit (stacked otherwise);
  // in presentation mode on a wide enough screen a slide: the two panels and the status in three columns
  sizes() {
    const k = this.k, width = Math.max(this.root.clientWidth || 800, 320);
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
    if (k > 1 && width >= 720) {
      const legend = this.legendEl.offsetHeight || 2.4 * fs, controls = this.root.querySelector(".dbls-controls").offsetHeight || 3.2 * fs;
      const beside = width >= 1100;
      const below = Math.round((beside ? 0 : legend) + 2 * 1.45 * fs + controls + 20);
      // the data panel, the objective and C path at 60 % of its width (250 px at least), the words in 13 em
      const S = Math.max(260, Math.min(this.room(below), Math.floor((width - 2 * GAP - 13 * fs) / (1 + SIDE_W))));
      return {width, two: true, side: true, beside, main: S, sideW: sideWidth(S), sideH: S};
    }
    const two = width >= 720;
    const sideW = two ? Math.round(Math.min(Math.max(width * 0.32, 240 * k), 420 * k)) : width;
    let main = two ? width - sideW - GAP : width;
    main = Math.min(main, Math.max(300, this.m.h.view.height - 150));
    return {width, two, side: false, main, sideW, sideH: two ? main : Math.round(340 * k)};
  }
  layoutClasses(sz) { panelClasses(this.root, sz, sz.sideW); }

  async mount(at, old, {stood = null} = {}) {
    const m = this.m;
    this.range.max = String(m.nStops - 1);
    this.root.classList.toggle("dbls-one", m.K < 2);
    // where to open: the C the chart stood at (the same grid; or the chart this one replaces, drawn in another element
    // of the page, whose C the page may not have been told yet: takeOver), else the page's C control, else the view's
    // start
    const text = this.followed();
    this.following = text;
    const same = old && old.m.K === m.K && old.m.Cs.every((c, j) => c === m.Cs[j]);
    const start = m.h.view.start ?? m.Cs.findIndex((c) => c === 1);
    const fromOld = same ? old.i : Number.isInteger(stood) && stood >= 0 && stood < m.K ? stood : null;
    this.i = Math.max(0, Math.min(m.K - 1, fromOld ?? (text !== null ? this.indexOf(text) : null) ?? (start >= 0 ? start : 0)));
    this.drawLegend();
    const sz = this.sz = this.sizes();
    this.layoutClasses(sz);
    await this.drawData(old, sz.main, sz.main);
    await this.Plotly.react(this.sideEl, this.sideTraces(), this.sideLayout(sz.sideW, sz.sideH), CONFIG);
    this.attach();  // (and its hover: Stepping.hookHover)
    await this.fit();
    if (!same && fromOld !== null) this.report();  // (the page told the C it opened at, once it has rested)
  }

  // presentation mode: what lies under the panels (the legend, the state line, the controls, as they wrapped) is
  // measured once drawn, and the panels shrink by what the window lacks
  async fit() {
    const sz = this.sz;
    if (!sz.side) return;
    const S = this.fittedSide([this.plot, this.sideEl], sz.main, 260);
    if (S === null) return;
    Object.assign(sz, {main: S, sideW: sideWidth(S), sideH: S});
    this.layoutClasses(sz);
    this.g = null;
    await Promise.all([this.Plotly.relayout(this.plot, {width: S, height: S}),
                       this.Plotly.relayout(this.sideEl, {width: sz.sideW, height: S})]);
  }

  resize() {
    const sz = this.resized();
    if (!sz) return;
    this.g = null;
    Promise.all([this.Plotly.relayout(this.plot, {width: sz.main, height: sz.main}),
                 this.Plotly.relayout(this.sideEl, {width: sz.sideW, height: sz.sideH})]).then(() => this.fit()).then(() => {
      this.drawStep();
      showLesson(this, this.i);  // (the lesson's plots take the new width)
    });
  }

  // ----- one C on screen
  show(i) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.K - 1, i));
    this.g = this.geometry(this.i);
    this.drawStep();
    this.text.innerHTML = m.describe(this.i);
    showLesson(this, this.i);
    const line = m.stateLine(this.i);
    this.stateEl.textContent = line;
    this.range.value = String(this.i);
    this.label.textContent = m.finite(this.i) ? `C = ${m.cText(this.i)}` : "Hard margin (C = ∞)";
    this.range.setAttribute("aria-valuetext", this.label.textContent);
    this.root.dataset.step = String(this.i);
    this.root.dataset.c = m.cText(this.i);
    if (this.plot.layout) this.plot.layout.meta = this.meta();
    if (this.live) this.live.textContent = line.replace("\n", "; ");
    if (!this.timer) this.report();
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.K - 1;
    this.keepFocus();
    if (this.hovered !== undefined && this.hovered !== null) this.hover({points: [{pointIndex: this.hovered}]});
  }

  // a point under the pointer: where it lies at this C
  hover(ev) {
    const tip = this.tip, p = ev && ev.points && ev.points[0];
    if (!p || !this.plot._fullLayout) {
      tip.hidden = true;
      if (this.hovered !== null && this.hovered !== undefined) { this.hovered = null; showLesson(this, this.i); }
      return;
    }
    const i = p.pointIndex, m = this.m, k = this.i, f = m.f(k, i), yf = m.y[i] * f;
    if (this.hovered !== i) { this.hovered = i; showLesson(this, k); }  // the formula's ξ follows the pointer
    placeTip(tip, this.plot._fullLayout, m.X, i,
             `x${sub(i + 1)} = (${num(m.X[2 * i], 4)}, ${num(m.X[2 * i + 1], 4)}), y = ${m.y[i] > 0 ? "+1" : "−1"}<br>` +
             `y·f(x) = ${num(yf, 2)}, ξ = ${num(Math.max(0, 1 - yf), 2)}: ${CATEGORY_NAMES[m.cat(k, i)]}`);
  }

  drawStep() {
    const fl = this.plot._fullLayout;
    if (!fl || !fl.xaxis || !fl.xaxis._length) return;
    const g = this.g || (this.g = this.geometry(this.i));
    const m = this.m, k = this.k, on = (id) => !this.hidden.has(id);
    const xa = fl.xaxis, ya = fl.yaxis;
    const px = (x) => xa._offset + xa.l2p(x), py = (y) => ya._offset + ya.l2p(y);
    // under the plot: the two sides of f tinted
    const under = plotCanvas(this.canvas, fl);
    const flat = g.grid ? !g.grid.F.some((v) => v !== 0) : false;
    if (on("line") && !flat) for (const [sgn, colour] of [[1, REGION.pos], [-1, REGION.neg]]) {
      under.beginPath();
      if (g.grid) DualView.prototype.cells.call(this, under, g.grid, sgn, px, py);
      else {
        const [xs, ys] = sgn > 0 ? g.regPos : g.regNeg;
        xs.forEach((x, j) => (j ? under.lineTo(px(x), py(ys[j])) : under.moveTo(px(x), py(ys[j]))));
      }
      under.fillStyle = colour; under.fill();
    }
    under.restore();
    // over it: the lines, the slack, the support vectors' rings and the points by where they lie
    const ctx = plotCanvas(this.canvasOver, fl);
    const stroke = (lines, colour, width, dash) => {  // polylines (a segment is one of two points)
      if (!lines.length) return;
      ctx.beginPath();
      for (const line of lines) line.forEach(([x, y], j) => (j ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
      ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.setLineDash(dash || []); ctx.lineCap = "round"; ctx.stroke();
      ctx.setLineDash([]);
    };
    const pc = m.run.perceptron;
    if (pc && on("perc")) {
      const span = m.box[1] - m.box[0], s = segment([m.box[0] - 2 * span, m.box[1] + 2 * span, m.box[2] - 2 * span, m.box[3] + 2 * span], pc[0], pc[1], pc[2]);
      if (s[0].length) stroke([[[s[0][0], s[1][0]], [s[0][1], s[1][1]]]], PERCEPTRON_INK, 3 * k);
    }
    const margins = on("margin") ? chained([...g.lines[-1], ...g.lines[1]], m.box) : [];
    this.canvasOver.dataset.marginLines = String(margins.length);  // (the polylines stroked dashed: for the tests)
    stroke(margins, MARGIN_INK, 2.5 * k, [7 * k, 5 * k]);
    if (on("line")) stroke(g.lines[0], INK, 4 * k);
    if (on("slack")) stroke(g.slack.map(([i, f]) => [[m.X[2 * i], m.X[2 * i + 1]], f]), SLACK_INK, 2.5 * k);
    if (on("sv")) stampRings(ctx, fl, g.sv.length, (j) => px(m.X[2 * g.sv[j]]), (j) => py(m.X[2 * g.sv[j] + 1]), this.svSize / 2, INK, 1, 2 * k);
    this.drawPoints(ctx, g, px, py, on);
    ctx.restore();
    // the words on the panel: the ξ labels and the width arrow (SVG, white-haloed text)
    const fs = 14 * k, halo = `paint-order="stroke" stroke="white" stroke-width="${3 * k}" stroke-linejoin="round"`;
    let svg = "";
    g.shownLabels = [];  // the largest ξ first; a label with no place clear of those written before is left out
    const boxes = [];
    if (on("slack") && g.labels.length) {
      // each where it covers no point shown (a point with its ring), among: along its slack segment, then beside,
      // above and below its point, near and further out; never over another label or past the plot's edge. One that
      // would cover a point is left out (the state line names every ξ > 0), but the largest ξ's: where it covers fewest
      const pad = Math.max(this.size, on("sv") ? this.svSize : 0) / 2 + k, P = this.shownPixels(g, px, py, on);
      const x0 = xa._offset, x1 = x0 + xa._length, y0 = ya._offset, y1 = y0 + ya._length;
      for (const L of g.labels) {
        const w = 0.56 * fs * L.text.length, ox = px(m.X[2 * L.i]), oy = py(m.X[2 * L.i + 1]);
        const places = [[px(L.at[0]) + 4 * k, py(L.at[1]) + fs * 0.35]];
        for (const d of [pad + 2 * k, 2 * pad + 10 * k])
          places.push([ox + d, oy - d], [ox + d, oy + d + 0.8 * fs], [ox - d - w, oy - d], [ox - d - w, oy + d + 0.8 * fs],
                      [ox - w / 2, oy - d - 0.3 * fs], [ox - w / 2, oy + d + fs]);
        let best = null, fewest = Infinity;
        for (const [x, y] of places) {
          const box = [x, y - 0.95 * fs, x + w, y + 0.3 * fs];
          if (box[0] < x0 || box[2] > x1 || box[1] < y0 || box[3] > y1 || boxes.some((b) => overlaps(box, b))) continue;
          const n = pointsIn(P, [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad], 0, fewest);
          if (n < fewest) { fewest = n; best = [x, y, box]; }
          if (!n) break;
        }
        if (!best || (fewest > 0 && g.shownLabels.length)) continue;
        boxes.push(best[2]);
        g.shownLabels.push(L);
        svg += `<text class="dbls-xi" x="${f1(best[0])}" y="${f1(best[1])}" font-size="${fs}" fill="${SLACK_TEXT}" ${halo}>${esc(L.text)}</text>`;
      }
    }
    if (on("margin") && g.arrow) {
      const a = this.placeArrow(g, px, py, xa, ya, on, boxes), head = (from, to) => {
        const x0 = px(from[0]), y0 = py(from[1]), x1 = px(to[0]), y1 = py(to[1]), L = Math.hypot(x1 - x0, y1 - y0) || 1;
        const ux = (x1 - x0) / L, uy = (y1 - y0) / L, s = 11 * k;
        return `M${f1(x0)},${f1(y0)}L${f1(x1)},${f1(y1)}M${f1(x1 - s * ux + 0.5 * s * uy)},${f1(y1 - s * uy - 0.5 * s * ux)}L${f1(x1)},${f1(y1)}L${f1(x1 - s * ux - 0.5 * s * uy)},${f1(y1 - s * uy + 0.5 * s * ux)}`;
      };
      // (clipped to the plot: at a small C the margin, and so the arrow, is wider than the view)
      const id = this.widthClip || (this.widthClip = `dbls-width-clip-${nextClipId()}`);
      svg += `<defs>${pen(fl).clip(id)}</defs><path class="dbls-width" clip-path="url(#${id})" d="${head(a.mid, a.tip)}${head(a.mid, a.tail)}" stroke="${MARGIN_INK}" stroke-width="${2 * k}" fill="none"/>`;
      const [ty, tx] = this.arrowLabel(a, px, py, xa, ya);
      svg += `<text class="dbls-width-text" x="${f1(tx)}" y="${f1(ty)}" text-anchor="middle" font-size="${17 * k}" fill="${INK}" ${halo}>${esc(a.text)}</text>`;
    }
    layer(this.over, fl, svg);
    this.drawSide(g);
  }

  // where the width's label stands (px): its baseline y and its middle x, above the arrow's tip, inside the plot
  // (``place``: over the tip, the arrow's end on the +1 side, or under it, or over or under its other end, the tail)
  arrowLabel(a, px, py, xa, ya, place = a.place || ARROW_PLACES[0]) {
    if (place === "free" && a.at) return [py(a.at[1]), px(a.at[0])];
    const k = this.k, end = place.startsWith("tail") ? a.tail : a.tip, under = place.endsWith("under");
    const y = under ? py(end[1]) + 17 * k + 6 * k : py(end[1]) - 8 * k;
    return [Math.min(ya._offset + ya._length - 5 * k, Math.max(ya._offset + 17 * k, y)),
            Math.max(xa._offset + 90 * k, Math.min(px(end[0]), xa._offset + xa._length - 90 * k))];
  }

  // the width arrow whose label covers the fewest points shown, a ξ label (``labels``: their boxes, px) counting as
  // three (the one nearest the middle of the boundary on a tie): a support vector lies on the margin line, where the
  // label's arrow ends; g.arrow becomes that one
  // the points drawn (the legend hides some kinds), in the plot's pixels: [x, y, x, y, …]
  shownPixels(g, px, py, on) {
    const m = this.m, shown = CATEGORY_NAMES.map((_, c) => on(`cat${c}`)), P = [];
    for (let i = 0; i < m.N; i++) if (shown[g.cat[i]]) P.push(px(m.X[2 * i]), py(m.X[2 * i + 1]));
    return P;
  }
  placeArrow(g, px, py, xa, ya, on, labels = []) {
    if (!g.arrows) return g.arrow;
    const k = this.k, fs = 17 * k, w = 0.55 * fs * g.arrow.text.length / 2;
    const pad = Math.max(this.size, on("sv") ? this.svSize : 0) / 2 + 2 * k;  // a point with its ring
    const P = this.shownPixels(g, px, py, on);
    let best = g.arrows[0], fewest = Infinity, where = ARROW_PLACES[0];
    // (the label over the tip of each arrow first, then under it, then at the tail: in presentation mode at 1024×768
    // on XOR every arrow's label over its tip lay on points of the top corner)
    search: for (const place of ARROW_PLACES) for (const a of g.arrows) {
      const [ty, tx] = this.arrowLabel(a, px, py, xa, ya, place), x0 = tx - w - pad, x1 = tx + w + pad, y0 = ty - fs - pad, y1 = ty + 0.25 * fs + pad;
      const near = 3 * labels.filter((b) => overlaps([x0, y0, x1, y1], b)).length;
      const n = near + pointsIn(P, [x0, y0, x1, y1], near, fewest);
      if (n < fewest) { fewest = n; best = a; where = place; }
      if (!n) break search;
    }
    // (none free of points: the clear place of the plot nearest the arrow's middle, a label's height a row; the arrow
    // wider than the view, its ends both past the plot's edges, put every such label on the points at the edge)
    if (fewest > 0) {
      const x0 = xa._offset + w + pad, x1 = xa._offset + xa._length - w - pad, y0 = ya._offset + fs + pad, y1 = ya._offset + ya._length - 0.25 * fs - pad;
      const mx = px(best.mid[0]), my = py(best.mid[1]);
      let at = null, near = Infinity;
      for (let ty = y0; ty <= y1; ty += 0.5 * fs) for (let tx = x0; tx <= x1; tx += 0.25 * fs) {
        const box = [tx - w - pad, ty - fs - pad, tx + w + pad, ty + 0.25 * fs + pad];
        const near3 = 3 * labels.filter((b) => overlaps(box, b)).length, n = near3 + pointsIn(P, box, near3, fewest + 1);
        const d = Math.hypot(tx - mx, ty - my);
        if (n < fewest || (n === fewest && at && d < near)) { fewest = n; near = d; at = [tx, ty]; }
      }
      if (at) { where = "free"; best.at = [xa.p2l(at[0] - xa._offset), ya.p2l(at[1] - ya._offset)]; }
    }
    best.place = where;
    g.arrow = best;
    g.arrowCovers = fewest;
    return best;
  }

  // the points: y = +1 circles, y = −1 diamonds; filled outside the margin, dotted on it, hollow inside, crossed when
  // misclassified (plotly.js's circle, -dot, -open and -x symbols); each kind a stamp (PixelLayer)
  drawPoints(ctx, g, px, py, on) {
    const m = this.m, r = this.size / 2, k = this.k, d = 1.3 * r;
    const shape = (c, cls) => stamp(`svm|${c}|${cls}|${r}|${k}`, d + 2 * k, (s) => {
      s.beginPath();
      if (cls > 0) s.arc(0, 0, r, 0, 2 * Math.PI);
      else { s.moveTo(d, 0); s.lineTo(0, d); s.lineTo(-d, 0); s.lineTo(0, -d); s.closePath(); }
      const colour = cls > 0 ? POS : NEG;
      if (c !== 2) { s.fillStyle = colour; s.fill(); }
      if (c === 1) { s.strokeStyle = INK; s.lineWidth = 2.5 * k; s.stroke(); }
      if (c === 2) { s.strokeStyle = colour; s.lineWidth = 1.8 * k; s.stroke(); }
      if (c === 1) { s.beginPath(); s.arc(0, 0, Math.max(1.5, 0.3 * r), 0, 2 * Math.PI); s.fillStyle = INK; s.fill(); }
      if (c === 3) {
        const e = 0.55 * r;
        s.beginPath(); s.moveTo(-e, -e); s.lineTo(e, e); s.moveTo(e, -e); s.lineTo(-e, e);
        s.strokeStyle = "white"; s.lineWidth = Math.max(1.2, 2 * k * Math.min(1, r / 6)); s.stroke();
      }
    });
    const L = new PixelLayer(ctx, this.plot._fullLayout), kinds = [];
    for (let c = 0; c < 4; c++) kinds.push([shape(c, 1), shape(c, -1)]);
    for (let c = 0; c < 4; c++) {  // the misclassified last, on top
      if (on(`cat${c}`)) for (let i = 0; i < m.N; i++) if (g.cat[i] === c) L.add(kinds[c][m.y[i] > 0 ? 0 : 1], px(m.X[2 * i]), py(m.X[2 * i + 1]));
    }
    L.draw();
  }

  // the objective's two stacked bars with J written over them, and the current C marked on the C path
  drawSide(g) {
    const sl = this.sideEl._fullLayout, el = this.sideOver, m = this.m, k = this.k;
    if (!sl || !sl.xaxis || !sl.xaxis._length) return;
    const xa = sl.xaxis, ya = sl.yaxis, px = (x) => xa._offset + xa.l2p(x), py = (y) => ya._offset + ya.l2p(y);
    const J = g.J, x0 = px(-0.3), x1 = px(0.3), yReg = py(J.reg / J.J), yTop = py((J.reg + J.slack) / J.J), base = py(0);
    let svg = `<rect class="dbls-bar-reg" x="${f1(x0)}" y="${f1(Math.min(yReg, base))}" width="${f1(x1 - x0)}" height="${f1(Math.abs(base - yReg))}" fill="#56B4E9"/>` +
      `<rect class="dbls-bar-slack" x="${f1(x0)}" y="${f1(Math.min(yTop, yReg))}" width="${f1(x1 - x0)}" height="${f1(Math.abs(yReg - yTop))}" fill="${SLACK_INK}"/>`;
    const lines = ["J = ½‖w‖² + C Σξ", `= ${num(J.reg)} + ${num(J.slack)}`, `= ${num(J.total)}`], fs = 13 * k;
    const tx = px(0.62), ty = py(0.75);
    svg += `<text class="dbls-objective" font-size="${fs}" fill="${INK}">` + lines.map((t, j) =>
      `<tspan x="${f1(tx)}" y="${f1(ty - (lines.length - 1 - j) * fs * 1.25)}"${j === 2 ? ' font-weight="bold"' : ""}>${esc(t)}</tspan>`).join("") + "</text>";
    const at = m.path.C.indexOf(m.Cs[g.k]);
    if (at >= 0) PATH_ROWS.forEach(([key, , colour], r) => {
      const ax = sl[`xaxis${r + 2}`], ay = sl[`yaxis${r + 2}`];
      if (!ax || !ay) return;
      const cx = ax._offset + ax.l2p(Math.log10(m.path.C[at])), cy = ay._offset + ay.l2p(m.path[key][at]);
      svg += `<circle class="dbls-mark" cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(6 * k)}" fill="${colour}" stroke="${INK}" stroke-width="2"/>`;
    });
    layer(el, sl, svg);
  }

  // what the C shows, in data coordinates and point indices (for tests and the curious)
  drawn() {
    const g = this.g, m = this.m;
    return {k: g.k, C: m.Cs[g.k], cat: Array.from(g.cat), sv: g.sv, lines: g.lines, slack: g.slack, labels: g.labels.map((L) => L.text),
            shownLabels: (g.shownLabels || []).map((L) => L.text),
            arrow: g.arrow || null, arrows: g.arrows || [], arrowCovers: g.arrowCovers ?? null, J: g.J, status: m.describe(g.k), state: m.stateLine(g.k),
            mark: m.path.C.indexOf(m.Cs[g.k])};
  }

  // one Plotly figure of the chart as it stands, the status above it (PNG and SVG exports)
  figure() {
    const m = this.m, k = this.k, g = this.g, on = (id) => !this.hidden.has(id);
    const xy = gapped;
    const data = [];
    const poly = (xs, ys, colour) => data.push({type: "scatter", x: xs, y: ys, fill: "toself", fillcolor: colour, mode: "none", hoverinfo: "skip", showlegend: false});
    if (on("line") && !g.grid) { poly(...g.regPos, REGION.pos); poly(...g.regNeg, REGION.neg); }
    if (on("line") && g.grid) {
      const G = g.grid.gx.length, z = [];
      for (let r = 0; r < G; r++) z.push(Array.from(g.grid.F.subarray(r * G, (r + 1) * G), (v) => (v > 0 ? 1 : 0)));
      data.push({type: "heatmap", x: g.grid.gx, y: g.grid.gy, z, showscale: false, hoverinfo: "skip", zmin: 0, zmax: 1,
                 colorscale: [[0, REGION.neg], [1, REGION.pos]]});
    }
    const pc = m.run.perceptron;
    if (pc && on("perc")) {
      const span = m.box[1] - m.box[0], s = segment([m.box[0] - 2 * span, m.box[1] + 2 * span, m.box[2] - 2 * span, m.box[3] + 2 * span], pc[0], pc[1], pc[2]);
      data.push({type: "scatter", mode: "lines", name: "perceptron's boundary", x: s[0], y: s[1], line: {color: PERCEPTRON_INK, width: 3 * k}, hoverinfo: "skip"});
    }
    const [mx, my] = xy(chained([...g.lines[-1], ...g.lines[1]], m.box)), [bx, by] = xy(g.lines[0]);  // (dashed: chained)
    if (on("margin")) data.push({type: "scatter", mode: "lines", name: "margin f(x) = ±1", x: mx, y: my, line: {color: MARGIN_INK, width: 2.5 * k, dash: "dash"}, hoverinfo: "skip"});
    if (on("line")) data.push({type: "scatter", mode: "lines", name: "boundary f(x) = 0", x: bx, y: by, line: {color: INK, width: 4 * k}, hoverinfo: "skip"});
    if (on("slack")) {
      const [sx, sy] = xy(g.slack.map(([i, f]) => [[m.X[2 * i], m.X[2 * i + 1]], f]));
      data.push({type: "scatter", mode: "lines", name: "slack ξᵢ (to its margin line)", x: sx, y: sy, line: {color: SLACK_INK, width: 2.5 * k}, hoverinfo: "skip"});
      const shownLabels = g.shownLabels || g.labels;  // (those the chart writes: none over another)
      data.push({type: "scatter", mode: "text", x: shownLabels.map((L) => L.at[0]), y: shownLabels.map((L) => L.at[1]), text: shownLabels.map((L) => L.text),
                 textposition: "middle right", textfont: {size: 14 * k, color: SLACK_TEXT}, showlegend: false, hoverinfo: "skip"});
    }
    if (on("sv")) data.push({type: "scatter", mode: "markers", name: "support vectors", x: g.sv.map((i) => m.X[2 * i]), y: g.sv.map((i) => m.X[2 * i + 1]),
                             marker: {symbol: "circle-open", size: this.svSize, color: INK, line: {width: 2 * k}}, hoverinfo: "skip"});
    const SYMBOLS = [["circle", "diamond"], ["circle-dot", "diamond-dot"], ["circle-open", "diamond-open"], ["circle-x", "diamond-x"]];
    for (let c = 0; c < 4; c++) {
      if (!on(`cat${c}`)) continue;
      for (const [cls, colour, s] of [[1, POS, 0], [-1, NEG, 1]]) {
        const idx = [];
        for (let i = 0; i < m.N; i++) if (g.cat[i] === c && m.y[i] === cls) idx.push(i);
        data.push({type: "scatter", mode: "markers", name: CATEGORY_NAMES[c], legendgroup: CATEGORY_NAMES[c], showlegend: cls > 0,
                   x: idx.map((i) => m.X[2 * i]), y: idx.map((i) => m.X[2 * i + 1]), hoverinfo: "skip",
                   marker: {size: this.size, color: colour, symbol: SYMBOLS[c][s], line: {width: [0, 2.5, 1.5, 2][c] * k, color: [colour, INK, colour, "white"][c]}}});
      }
    }
    if (on("margin") && g.arrow) {
      const a = g.arrow;
      data.push({type: "scatter", mode: "lines+markers", x: [a.mid[0], a.tip[0], null, a.mid[0], a.tail[0]], y: [a.mid[1], a.tip[1], null, a.mid[1], a.tail[1]],
                 line: {color: MARGIN_INK, width: 2 * k}, marker: {symbol: "arrow", angleref: "previous", size: [0, 13, 0, 0, 13], color: MARGIN_INK},
                 showlegend: false, hoverinfo: "skip"});
      const end = a.place === "free" ? a.at : (a.place || "").startsWith("tail") ? a.tail : a.tip;  // (where placeArrow put its label)
      data.push({type: "scatter", mode: "text", x: [end[0]], y: [end[1]], text: [a.text],
                 textposition: (a.place || "").endsWith("under") ? "bottom center" : "top center", cliponaxis: false,
                 textfont: {size: 17 * k, color: INK}, showlegend: false, hoverinfo: "skip"});
    }
    const side = this.sideLayout(this.sz.sideW, this.sz.main);
    data.push({type: "bar", x: [0, 0], y: [g.J.reg / g.J.J, g.J.slack / g.J.J], base: [0, g.J.reg / g.J.J], width: 0.6, marker: {color: ["#56B4E9", SLACK_INK]},
               xaxis: "x2", yaxis: "y2", showlegend: false, hoverinfo: "skip"});
    for (const t of this.sideTraces().slice(1)) data.push({...t, xaxis: `x${Number(t.xaxis.slice(1)) + 1}`, yaxis: `y${Number(t.yaxis.slice(1)) + 1}`});
    const at = m.path.C.indexOf(m.Cs[g.k]);
    if (at >= 0) PATH_ROWS.forEach(([key, , colour], r) => data.push({type: "scatter", mode: "markers", x: [m.path.C[at]], y: [m.path[key][at]],
      marker: {size: 14 * k, color: colour, line: {color: INK, width: 2}}, xaxis: `x${r + 3}`, yaxis: `y${r + 3}`, showlegend: false, hoverinfo: "skip"}));
    const main = this.mainLayout(this.sz.main, this.sz.main);
    const status = m.describe(g.k), state = m.stateLine(g.k).replace("\n", "<br>");
    const top = Math.round(((status.match(/<br>/g) || []).length + 1) * 22 * k + 16), bottom = Math.round(60 * k + 150);
    const Wd = Math.max(this.sz.width, this.sz.main + 320), H = this.sz.main + top + bottom, split = this.sz.main / Wd;
    const layout = {...main, width: Wd, height: H, showlegend: true, paper_bgcolor: "white", plot_bgcolor: "white",
                    margin: {...main.margin, t: top, b: bottom, r: 20},
                    legend: {orientation: "h", x: 0, y: -0.12, xanchor: "left", yanchor: "top", font: {size: 13 * k}},
                    xaxis: {...main.xaxis, domain: [0, split * 0.96]}, yaxis: {...main.yaxis, domain: [0, 1]},
                    annotations: [{text: status, xref: "paper", yref: "paper", x: 0, y: 1, yshift: 8, xanchor: "left", yanchor: "bottom", align: "left",
                                   showarrow: false, font: {size: 14 * k, color: INK}},
                                  {text: state, xref: "paper", yref: "paper", x: 0, y: 0, yshift: -bottom + 10, xanchor: "left", yanchor: "bottom", align: "left",
                                   showarrow: false, font: {size: 14 * k, color: INK}}]};
    const lo = split + 0.08;
    layout.xaxis2 = {...side.xaxis, anchor: "y2", domain: [lo, lo + (1 - lo) * 0.3]};
    layout.yaxis2 = {...side.yaxis, anchor: "x2"};
    PATH_ROWS.forEach((_, r) => {
      if (!side[`xaxis${r + 2}`]) return;
      layout[`xaxis${r + 3}`] = {...side[`xaxis${r + 2}`], anchor: `y${r + 3}`, domain: [lo, 1], ...(r ? {matches: "x3"} : {})};
      layout[`yaxis${r + 3}`] = {...side[`yaxis${r + 2}`], anchor: `x${r + 3}`};
    });
    for (const a of side.annotations)  // the rows' names, on the figure's axes (one number up)
      layout.annotations.push({...a, xref: a.xref.replace(/\d+/, (d) => String(Number(d) + 1)), yref: a.yref.replace(/\d+/, (d) => String(Number(d) + 1))});
    layout.annotations.push({text: ["J = ½‖w‖² + C Σξ", `= ${num(g.J.reg)} + ${num(g.J.slack)}`, `= <b>${num(g.J.total)}</b>`].join("<br>"),
                             xref: "x2", yref: "y2", x: 0.45, y: 1.02, xanchor: "left", yanchor: "bottom", align: "left", showarrow: false,
                             font: {size: 14 * k, color: INK}});
    return {data, layout};
  }
}

const SVM_CONTROLS = sweepControls("C");

const SVM_SHELL = `<div class="dbls-text" aria-hidden="true"></div>
<div class="dbls-panels">
  <div class="dbls-stage dbls-data"><canvas class="dbls-canvas" aria-hidden="true"></canvas><div class="dbls-plot"></div><canvas class="dbls-canvas dbls-canvas-over" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-stage dbls-gram"><div class="dbls-side-plot dbls-strip-plot"></div><svg class="dbls-side-over dbls-strip-over" aria-hidden="true"></svg></div>
</div>
<div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
<div class="dbls-state dbls-lines"></div>
${SVM_CONTROLS}
${MATH}${MARGINS}
<div class="dbls-live" aria-live="polite" role="status"></div>`;

export const SVM_KIND = {shell: SVM_SHELL, sketch: true, model: (scene) => new SvmModel(scene), View: SvmView};
