// ---------------------------------------------------------------------------------------------------
// the Dual / Gram scene (viz/scene.py DualScene documents the record): the data with α as halos and the
// boundary f(x) = 0, the Gram matrix with the examined point's row lit, α as bars. The core decided which
// step updated which point, f at the examined point and M; here they are read, never decided again. The
// boundary of a kernel is drawn from f sampled on a grid (a picture, not a decision), kept up to date
// update by update: an update on xᵢ adds yᵢ·K(xᵢ, g) to h = Σ cᵢyᵢK(xᵢ, g), and f = η·h + b with the core's b.
// ---------------------------------------------------------------------------------------------------
import {CONFIG, GAP, HIGHLIGHT, HIGHLIGHT_LINE, INK, NEG, NONE, OLD_INK, POS, REGION, classEntries, layer, nextClipId, plotCanvas, pointsUnder} from "./draw.js";
import {controlValue, fail, fingerprint, nearest} from "./follow.js";
import {afterUpdates, exactDigits, grouped, mistakesText, names, num, roundDigits, sub, vec} from "./format.js";
import {region, segment} from "./geometry.js";
import {FONT, esc, f1, holdTallest, largestFitting, pointName, tallestTexts, textWidth} from "./layout.js";
import {TW, TX, kernelTex, lessonHeight, tn, tparen, tsign, tv} from "./lesson.js";
import {PerceptronView} from "./perceptron.js";
import {PerceptronModel, ruleMask} from "./perceptron-model.js";
import {CONTROLS, MATH} from "./shells.js";
import {colourBar, painted} from "./sketch.js";
import {Stepping} from "./stepping.js";
import {stateOf} from "./state.js";


const DUAL_NAMES = 4;  // DUAL_STATE_NAMES in tests/oracles.py: most points the state line names in one list
const HALO = {pos: "rgba(0, 114, 178, 0.28)", neg: "rgba(213, 94, 0, 0.28)"};
const LIT_ROW = "rgba(240, 228, 66, 0.45)";

// Python's f"{v:.1e}" with "−" (_tiny in tests/oracles.py): "0" when exactly zero
function tiny(v) {
  if (v === 0) return "0";
  const a = Math.abs(v), {digits, point} = exactDigits(a), r = roundDigits(digits, 2);
  const e = point - 1 + (r.carry ? 1 : 0), d = r.digits.slice(0, 2);
  return `${v < 0 ? "−" : ""}${d[0]}.${d[1]}e${e < 0 ? "−" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}
const sign1 = (v) => (v > 0 ? "+1" : "−1");
const paren = (v) => (num(v).startsWith("−") ? `(${num(v)})` : num(v));

class DualModel {
  // the run of a Dual scene; a record sent for every η (run.etas) is read at `eta` (the linear kernel's w, M's
  // exceptions and primal run of that η are its arrays <name>.<j>, j the η's index)
  constructor({header, arrays}, eta) {
    const etaAt = Array.isArray(header.run.etas) ? header.run.etas.indexOf(eta) : -1;
    const line = etaAt >= 0 && arrays["W.0"] ? `.${etaAt}` : "";
    const a = arrays, need = (name) => {
      const v = ["W", "m_ptr", "m_idx", "p_steps", "p_W", "p_B"].includes(name) ? a[name + line] : a[name];
      if (!v) throw new Error(`the scene has no ${name}${line}`);
      return v;
    };
    this.h = header; this.run = header.run; this.box = header.box;
    this.X = need("X"); this.y = need("y"); this.N = this.y.length;
    if (this.X.length !== 2 * this.N) throw new Error("the scene's points and labels differ in number");
    this.US = need("update_steps"); this.UP = need("update_points"); this.K = this.US.length;
    this.B = need("B"); this.order = need("order"); this.fExam = need("f_exam"); this.errors = need("errors");
    this.mPtr = need("m_ptr"); this.mIdx = need("m_idx"); this.W = need("W");
    this.tPtr = need("terms_ptr"); this.terms = need("terms");
    this.pUS = need("p_steps"); this.pW = need("p_W"); this.pB = need("p_B"); this.gram = need("gram");
    this.S = this.run.n_steps;
    this.primalSteps = line ? (this.run.primal_steps_of || [])[etaAt] ?? null : this.run.primal_steps;
    const etas = this.run.etas ?? null;
    if (etas !== null && !(Array.isArray(etas) && etas.length && etas.every((e) => e > 0 && Number.isFinite(e)) && etas.includes(eta)))
      throw new Error("the scene's η values are not positive numbers, or hold no η to show");
    this.eta = etas === null ? this.run.eta : eta;
    if (etas !== null) {  // B is β and f_exam is h + β: b = η·β and f = η·(h + β), one product each, as the core forms them
      this.B = this.B.map((v) => this.eta * v);
      this.fExam = this.fExam.map((v) => this.eta * v);
    }
    if (this.UP.length !== this.K || this.B.length !== this.K + 1 || this.errors.length !== this.K + 1 ||
        this.mPtr.length !== this.K + 2 || this.fExam.length !== this.S || (this.W.length && this.W.length !== 2 * (this.K + 1)))
      throw new Error("the scene's states do not match its update steps");
    const r = this.run, N = this.N, K = this.K, S = this.S, bad = (what) => { throw new Error(`the scene's ${what}`); };
    if (!["linear", "poly", "rbf"].includes(r.kernel)) bad(`kernel ${r.kernel} is unknown`);
    const p = r.kernel_params || {};
    if (r.kernel === "rbf" && !(p.gamma > 0)) bad("RBF kernel has no γ > 0");
    if (r.kernel === "poly" && !(Number.isInteger(p.degree) && p.degree >= 1 && Number.isFinite(p.coef0))) bad("polynomial kernel has no degree and offset");
    if (!(this.eta > 0 && Number.isFinite(this.eta))) bad("η is not a positive number");
    if (this.order.length !== (r.variant === "random" ? S : 0)) bad("order does not match its steps");
    for (let s = 0; s < this.order.length; s++) if (this.order[s] >= N) bad("order examines a point it does not hold");
    for (let u = 0; u < K; u++) {
      if (this.UP[u] >= N) bad("updates hit a point it does not hold");
      if (this.US[u] < 1 || this.US[u] > S || (u && this.US[u] <= this.US[u - 1])) bad("update steps are not increasing within the run");
    }
    for (let s = 0; s < S; s++) if (!Number.isFinite(this.fExam[s])) bad("f values are not numbers");
    if (this.mPtr[0] !== 0 || this.mPtr[K + 1] !== this.mIdx.length) bad("mistakes do not match their pointers");
    for (let k = 0; k <= K; k++) if (this.mPtr[k + 1] < this.mPtr[k]) bad("mistakes do not match their pointers");
    for (let t = 0; t < this.mIdx.length; t++) if (this.mIdx[t] >= N) bad("mistakes name a point it does not hold");
    if ((r.m_rule === "linear") !== (this.W.length === 2 * (K + 1)) || (r.m_rule !== "linear" && r.m_rule !== "changes")) bad("w does not match its rule for M");
    if (this.tPtr.length > S + 1 || (this.tPtr.length && (this.tPtr[0] !== 0 || this.tPtr[this.tPtr.length - 1] > this.terms.length))) bad("Gram entries do not match their pointers");
    for (let s = 1; s < this.tPtr.length; s++) if (this.tPtr[s] < this.tPtr[s - 1]) bad("Gram entries do not match their pointers");
    if (this.primalSteps !== null && (this.pW.length !== 2 * (this.pUS.length + 1) || this.pB.length !== this.pUS.length + 1)) bad("primal run does not match its update steps");
    const side = Math.ceil(N / r.gram_block);
    if (!(r.gram_block >= 1) || this.gram.length !== side * side || !(r.gram_levels > 0)) bad("Gram matrix does not match its points");
    this.linear = this.run.kernel === "linear";
    this.count = new Uint32Array(this.N);  // updates on each point after state `at` (α = η·count)
    this.mask = new Uint8Array(this.N);  // M after state `at`
    this.at = -1;
    let cmax = 0;
    const c = new Uint32Array(this.N);
    for (let u = 0; u < this.K; u++) cmax = Math.max(cmax, ++c[this.UP[u]]);
    this.amax = this.eta * cmax;  // the largest α of the run
    this.stops = PerceptronModel.prototype.makeStops.call(this, header.view.mode);
  }

  get nStops() { return this.stops ? this.stops.length : this.S + 1; }
  stepAt(i) { return this.stops ? this.stops[i] : i; }
  stopOf(step) { return PerceptronModel.prototype.stopOf.call(this, step); }
  stateOf(step) { return PerceptronModel.prototype.stateOf.call(this, step); }
  epoch(step) { return Math.ceil(step / this.N); }
  examined(step) { return step === 0 ? -1 : this.order.length ? this.order[step - 1] : (step - 1) % this.N; }
  // the point whose α grew at `step`, or −1
  updated(step) {
    const k = this.stateOf(step);
    return step > 0 && k > 0 && this.US[k - 1] === step ? this.UP[k - 1] : -1;
  }
  alpha(i) { return this.eta * this.count[i]; }  // αᵢ = η·cᵢ, as DualTrajectory.alphas

  // count and mask become those of state k: the updates between, forward or back, and M as the record sends it
  // (viz/scene.py DualScene): a kernel's changes (XOR) update by update, or the linear rule and its exceptions
  goState(k) {
    if (this.at < 0) {
      if (this.run.m_rule !== "linear") for (let t = this.mPtr[0]; t < this.mPtr[1]; t++) this.mask[this.mIdx[t]] = 1;
      this.at = 0;
      this.ruleAt = -1;
    }
    const changes = this.run.m_rule !== "linear";
    for (; this.at < k; this.at++) {
      this.count[this.UP[this.at]]++;
      if (changes) for (let t = this.mPtr[this.at + 1]; t < this.mPtr[this.at + 2]; t++) this.mask[this.mIdx[t]] ^= 1;
    }
    for (; this.at > k; this.at--) {
      this.count[this.UP[this.at - 1]]--;
      if (changes) for (let t = this.mPtr[this.at]; t < this.mPtr[this.at + 1]; t++) this.mask[this.mIdx[t]] ^= 1;
    }
    if (!changes && this.ruleAt !== k) {  // y·((x₁w₁ + x₂w₂) + b) ≤ 0 as the core judged it
      ruleMask(this.mask, this.X, this.y, this.W[2 * k], this.W[2 * k + 1], this.B[k], 0, true, this.mPtr, this.mIdx, k);
      this.ruleAt = k;
    }
  }
  support() {  // the points with αᵢ > 0 in the current state, increasing
    const s = [];
    for (let i = 0; i < this.N; i++) if (this.count[i]) s.push(i);
    return s;
  }
  mistakes(limit = Infinity) {
    const s = [];
    for (let i = 0; i < this.N && s.length < limit; i++) if (this.mask[i]) s.push(i);
    return s;
  }
  w(k) { return [this.W[2 * k], this.W[2 * k + 1]]; }
  primalAt(step) {  // the primal run's (w, b) after `step`
    let lo = 0, hi = this.pUS.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.pUS[mid] <= step) lo = mid + 1; else hi = mid; }
    return [[this.pW[2 * lo], this.pW[2 * lo + 1]], this.pB[lo]];
  }

  // describe_dual_step (tests/oracles.py): the arithmetic of one step (HTML)
  describe(step) {
    const n = this.N, eta = this.eta, k = this.stateOf(step), upd = this.updated(step);
    const kp = upd >= 0 ? k - 1 : k;
    let txt;
    if (step === 0) {
      txt = `<b>Step 0</b>: α = 0, b = 0, so f(x) = 0 everywhere and every point counts as a mistake (y·f = 0 ≤ 0): |M| = ${grouped(this.errors[k])} of ${grouped(n)}.`;
    } else {
      const i = this.examined(step), yi = this.y[i], si = sub(i + 1), bp = this.B[kp], b = this.B[k];
      this.goState(kp);
      const S = this.support(), ap = Array.from(S, (j) => this.alpha(j)), api = this.alpha(i);
      const f = this.fExam[step - 1];  // f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b, the value the run judged xᵢ by
      const head = `<b>Step ${grouped(step)}</b> (epoch ${grouped(this.epoch(step))}, |M| = ${grouped(this.errors[k])} after it): x${si}, y = ${sign1(yi)}`;
      let expr;
      if (!S.length) expr = `f(x${si}) = b = ${num(bp)}`;
      else if (step < this.tPtr.length && this.tPtr[step] - this.tPtr[step - 1] === S.length) {  // as the record writes it
        const t0 = this.tPtr[step - 1];
        const terms = S.map((j, q) => `${num(ap[q])}·(${sign1(this.y[j])})·${paren(this.terms[t0 + q])}`).join(" + ");
        expr = `f(x${si}) = Σⱼ αⱼyⱼG<sub>j${i + 1}</sub> + b = ${terms} + (${num(bp)}) = ${num(f)}`;
      } else {
        expr = `f(x${si}) = Σⱼ αⱼyⱼG<sub>j${i + 1}</sub> + b over the ${S.length} points with αⱼ > 0 = ${num(f)}`;
      }
      if (upd >= 0)
        txt = `${head}<br>${expr}<br>y·f = ${num(yi * f)} ≤ 0 → <b>x${si} misclassified</b>: ` +
          `α${si} ← ${num(api)} + ${num(eta)} = ${num(eta * (this.count[i] + 1))}, b ← ${num(bp)} + ${num(eta)}·(${sign1(yi)}) = ${num(b)}`;
      else txt = `${head}<br>${expr}<br>y·f = ${num(yi * f)} > 0 → correct, no update`;
    }
    if (this.linear) {
      const w = this.w(k), b = this.B[k];
      let line = `w = Σαᵢyᵢxᵢ = ${vec(w)}, b = ${num(b)}`;
      if (this.primalSteps !== null && step <= this.primalSteps) {
        const [pw, pb] = this.primalAt(step);
        const dw = Math.max(Math.abs(w[0] - pw[0]), Math.abs(w[1] - pw[1]));
        line += ` &nbsp;·&nbsp; primal (τ = η): w = ${vec(pw)}, b = ${num(pb)}` +
          ` &nbsp;·&nbsp; difference ‖Δw‖∞ = ${tiny(dw)}, |Δb| = ${tiny(Math.abs(b - pb))}`;
      }
      txt += "<br>" + line;
    }
    if (this.run.converged && step === this.S)
      txt += `<br>✓ Converged: y·f(x) > 0 at every point after ${this.K} updates (Σαᵢ = ${num(eta)}·${this.K}).`;
    return txt;
  }

  // dual_state (tests/oracles.py): α (the points with αᵢ > 0), b, w when linear, M after the state of `step`
  stateLine(step) {
    const k = this.stateOf(step), n = this.N;
    this.goState(k);
    const S = this.support();
    const who = S.length <= DUAL_NAMES ? names(S, DUAL_NAMES) : `${names(S.slice(0, DUAL_NAMES))}, …`;
    const mis = mistakesText(this.mistakes(DUAL_NAMES + 1), this.errors[k], n, DUAL_NAMES);
    if (this.linear) {
      const support = S.length ? `αᵢ > 0 for ${who} (${grouped(S.length)} of ${grouped(n)})` : "α = 0";
      return `${afterUpdates(k)}: w = Σαᵢyᵢxᵢ = ${vec(this.w(k))}, b = ${num(this.B[k])}; ${support}; ${mis}`;
    }
    const support = S.length ? `${grouped(S.length)} of ${grouped(n)} αᵢ > 0 (${who})` : "α = 0";
    return `${afterUpdates(k)}: ${support}, b = ${num(this.B[k])}; ${mis}`;
  }

  formula(step) {
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
  }
}

// K(xᵢ, g) at every node g of a grid×grid grid (row r: gy[r], column c: gx[c]), added to h times yᵢ·sgn
// (sgn: +1 or −1 for one update on xᵢ, or cᵢ, the updates on it)
export function addKernelRow(h, model, i, gx, gy, sgn) {
  const r = model.run, p = r.kernel_params, xi = model.X[2 * i], yi = model.X[2 * i + 1], G = gx.length;
  const c = sgn * model.y[i];
  if (r.kernel === "rbf") {  // exp(−γ‖x − g‖²) = exp(−γ(x₁ − g₁)²)·exp(−γ(x₂ − g₂)²)
    const ex = gx.map((v) => Math.exp(-p.gamma * (xi - v) * (xi - v))), ey = gy.map((v) => Math.exp(-p.gamma * (yi - v) * (yi - v)));
    for (let row = 0; row < G; row++) { const e = c * ey[row]; for (let col = 0; col < G; col++) h[row * G + col] += e * ex[col]; }
  } else if (r.kernel === "poly") {  // (x·g + c)^d
    const d = p.degree, c0 = p.coef0;
    for (let row = 0; row < G; row++) for (let col = 0; col < G; col++) {
      const base = xi * gx[col] + yi * gy[row] + c0;
      let v = 1;
      for (let t = 0; t < d; t++) v *= base;
      h[row * G + col] += c * v;
    }
  } else {
    for (let row = 0; row < G; row++) for (let col = 0; col < G; col++) h[row * G + col] += c * (xi * gx[col] + yi * gy[row]);
  }
}

// the segments of the curve F = 0 on the grid (marching squares, linear along each cell's edges)
export function zeroSegments(F, gx, gy) {
  const G = gx.length, out = [];
  const cross = (xa, ya, fa, xb, yb, fb) => { const t = fa / (fa - fb); return [xa + t * (xb - xa), ya + t * (yb - ya)]; };
  for (let r = 0; r + 1 < G; r++) for (let c = 0; c + 1 < G; c++) {
    const f = [F[r * G + c], F[r * G + c + 1], F[(r + 1) * G + c + 1], F[(r + 1) * G + c]];
    const p = [[gx[c], gy[r]], [gx[c + 1], gy[r]], [gx[c + 1], gy[r + 1]], [gx[c], gy[r + 1]]];
    const hits = [];
    for (let e = 0; e < 4; e++) {
      const a = e, b = (e + 1) % 4;
      if ((f[a] > 0) !== (f[b] > 0)) hits.push(cross(p[a][0], p[a][1], f[a], p[b][0], p[b][1], f[b]));
    }
    if (hits.length === 2) out.push(hits);
    else if (hits.length === 4) {  // a saddle: pair the crossings by the value at the cell's centre
      const mid = (f[0] + f[1] + f[2] + f[3]) / 4;
      if ((mid > 0) === (f[0] > 0)) out.push([hits[0], hits[3]], [hits[1], hits[2]]);
      else out.push([hits[0], hits[1]], [hits[2], hits[3]]);
    }
  }
  return out;
}

// segments joined end to end into polylines, so that a dashed curve's dashes run on along a kernel's contour (its
// pieces, one a grid cell, are shorter than a dash: stroked apart, each began a dash and the curve looked solid);
// ends within a millionth of the box's width of each other are one point (two cells find their shared crossing
// from opposite corners)
export function chained(segments, box) {
  const tol = 1e-6 * (box[1] - box[0]), key = (p) => `${Math.round(p[0] / tol)},${Math.round(p[1] / tol)}`;
  const at = new Map(), used = new Uint8Array(segments.length), out = [];
  segments.forEach(([a, b], i) => {
    for (const p of [a, b]) { const kk = key(p); if (!at.has(kk)) at.set(kk, []); at.get(kk).push(i); }
  });
  const next = (p) => (at.get(key(p)) || []).find((j) => !used[j]);
  for (let i = 0; i < segments.length; i++) {
    if (used[i]) continue;
    used[i] = 1;
    const line = [segments[i][0], segments[i][1]];
    for (const forward of [true, false]) {  // on from its last point, then back from its first
      for (let guard = 0; guard < segments.length; guard++) {
        const end = forward ? line[line.length - 1] : line[0], j = next(end);
        if (j === undefined) break;
        used[j] = 1;
        const [a, b] = segments[j], far = key(a) === key(end) ? b : a;
        if (forward) line.push(far); else line.unshift(far);
      }
    }
    out.push(line);
  }
  return out;
}

// polylines (a segment is one of two points) as the x and y of one plotly.js trace, a null between two: [[null], [null]]
// for none
export function gapped(lines) {
  const x = [], y = [];
  for (const line of lines) { for (const [a, b] of line) x.push(a), y.push(b); x.push(null); y.push(null); }
  return [x.length ? x : [null], y.length ? y : [null]];
}

const GRAM_TITLE = "Gram matrix G<sub>ij</sub> = K(x<sub>i</sub>, x<sub>j</sub>)", GRAM_TITLE_SHORT = "Gram matrix G<sub>ij</sub>";
const GRAM_LEAST = 150;  // px: the least Gram matrix of the narrow slide (DualView.fit)

// two panels (the data, and a second: the Gram matrix, the SVM's objective and C path) side by side, stacked, or
// in presentation mode a slide of three columns with the words (sz from a view's sizes(); ``second`` its width); a
// ``narrow`` slide has the second panel and the legend under the words (DualView.sizes)
export function panelClasses(root, sz, second, narrow = false) {
  root.classList.toggle("dbls-two", sz.two && !sz.side);
  root.classList.toggle("dbls-dside", sz.side);
  root.classList.toggle("dbls-dside-l", Boolean(sz.side && sz.beside));
  root.classList.toggle("dbls-dside-n", Boolean(sz.side && narrow));
  root.style.setProperty("--dbls-s", `${sz.main}px`);
  root.style.setProperty("--dbls-g", `${second}px`);
}

export class DualView extends Stepping {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    const q = (c) => root.querySelector(c);
    this.canvas = q(".dbls-canvas"); this.under = q(".dbls-under");
    this.gramEl = q(".dbls-gram-plot"); this.gramOver = q(".dbls-gram-over");
    this.barsEl = q(".dbls-bars-plot"); this.barsOver = q(".dbls-bars-over");
    const N = model.N, k = this.k;
    const size = N <= 100 ? 12 : N <= 400 ? 9 : N <= 1000 ? 7 : 5;  // viz.dual: markers shrink as points crowd
    this.size = size * k;
    this.halo = [size + 6, Math.max(3.2 * size, size + 14)].map((v) => v * k);  // diameter at α → 0 and at max α
    this.ring = (N <= 100 ? [2 * size, 2.5] : N <= 400 ? [size + 7, 1.5] : [size + 5, 1.3]).map((v) => v * k);
    this.examSize = Math.max(26, 2 * size + 8) * k;
    this.grid = null;  // f on a grid for a kernel's curved boundary (a line needs none: w is sent), made when drawn
  }

  // the grid over the data panel's axes (the box, or the ranges Plotly drew when it widened them)
  makeGrid() {
    const fl = this.plot._fullLayout, b = this.m.box, G = this.m.N <= 200 ? 121 : 81;
    const xr = fl && fl.xaxis ? fl.xaxis.range : [b[0], b[1]], yr = fl && fl.yaxis ? fl.yaxis.range : [b[2], b[3]];
    const key = [G, ...xr, ...yr].join(",");
    if (this.grid === key) return;
    this.grid = key;
    this.gx = Array.from({length: G}, (_, j) => xr[0] + (xr[1] - xr[0]) * j / (G - 1));
    this.gy = Array.from({length: G}, (_, j) => yr[0] + (yr[1] - yr[0]) * j / (G - 1));
    this.h = new Float64Array(G * G);  // h = Σ cᵢyᵢK(xᵢ, g), cᵢ the updates on xᵢ, after hAt updates
    this.hAt = 0;
  }

  // f = η·h + b on the grid after k updates: h walked update by update from the state drawn last, or summed
  // afresh over the points with αᵢ > 0 when that is fewer rows (a jump), so no copies of the grid are kept
  gridF(k) {
    this.makeGrid();
    if (this.hAt !== k) {
      const m = this.m;
      m.goState(k);
      let support = 0;
      for (let i = 0; i < m.N; i++) if (m.count[i]) support++;
      if (Math.abs(k - this.hAt) <= support) {
        for (; this.hAt < k; this.hAt++) addKernelRow(this.h, m, m.UP[this.hAt], this.gx, this.gy, 1);
        for (; this.hAt > k; this.hAt--) addKernelRow(this.h, m, m.UP[this.hAt - 1], this.gx, this.gy, -1);
      } else {
        this.h.fill(0);
        for (let i = 0; i < m.N; i++) if (m.count[i]) addKernelRow(this.h, m, i, this.gx, this.gy, m.count[i]);
        this.hAt = k;
      }
    }
    const f = new Float64Array(this.h.length), eta = this.m.eta, b = this.m.B[k];
    for (let j = 0; j < f.length; j++) f[j] = eta * this.h[j] + b;
    return f;
  }

  // ----- what a step shows, decided once: the geometry the live layers and an exported image draw
  geometry(step) {
    const m = this.m, k = m.stateOf(step), upd = m.updated(step), i = m.examined(step);
    const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
    const g = {step, k, updated: upd, exam: i, line: [], old: [], regPos: NONE, regNeg: NONE, F: null};
    if (m.linear) {
      const [w0, w1] = m.w(k), b = m.B[k];
      const s = segment(clip, w0, w1, b);
      if (s[0].length) g.line = [[[s[0][0], s[1][0]], [s[0][1], s[1][1]]]];
      g.regPos = region(clip, w0, w1, b, 1); g.regNeg = region(clip, w0, w1, b, -1);
      if (upd >= 0) {
        const [p0, p1] = m.w(k - 1), o = segment(clip, p0, p1, m.B[k - 1]);
        if (o[0].length) g.old = [[[o[0][0], o[1][0]], [o[0][1], o[1][1]]]];
      }
    } else {
      if (upd >= 0) g.old = zeroSegments(this.gridF(k - 1), this.gx, this.gy);
      g.F = this.gridF(k);
      g.line = zeroSegments(g.F, this.gx, this.gy);
      g.gx = this.gx; g.gy = this.gy;
    }
    m.goState(k);
    g.alpha = Array.from(m.count, (cnt) => m.eta * cnt);
    g.ring = m.mistakes();
    return g;
  }

  legendItems() {
    return [
      ["exam", "examined this step", `<circle cx="9" cy="9" r="7" fill="${HIGHLIGHT}" stroke="${HIGHLIGHT_LINE}" stroke-width="2"/>`],
      ...classEntries(this.scene.header.view),
      ["halo", "halo: its area grows with αᵢ", `<circle cx="9" cy="9" r="8" fill="${HALO.pos}"/><circle cx="9" cy="9" r="3" fill="${POS}"/>`],
      ["ring", "M: y·f(x) ≤ 0", `<circle cx="9" cy="9" r="6.5" fill="none" stroke="${INK}" stroke-width="2"/>`],
      ["line", "boundary f(x) = 0 (tinted by the sign of f)", `<line x1="1" y1="9" x2="17" y2="9" stroke="${INK}" stroke-width="4"/>`],
      ["old", "boundary before the update", `<line x1="1" y1="9" x2="17" y2="9" stroke="${OLD_INK}" stroke-width="2.5" stroke-dasharray="4 3"/>`],
    ];
  }

  mainTraces() { return PerceptronView.prototype.mainTraces.call(this).slice(0, 2); }
  // a hovered point's label: its name and place, its α and whether it is in M of the state shown (y·f(x) ≤ 0)
  tipFor(i) {
    const m = this.m, step = this.step;
    m.goState(m.stateOf(step));
    const rule = m.mask[i] ? "in M: y·f(x) ≤ 0" : "classified right: y·f(x) > 0";
    return `${pointName(m, i)}<br>α${sub(i + 1)} = ${num(m.alpha(i))}; ${rule} after step ${grouped(step)}`;
  }
  axis(extra) { return PerceptronView.prototype.axis.call(this, extra); }
  mainLayout(width, height) {
    const l = PerceptronView.prototype.mainLayout.call(this, width, height), m = this.m, r = m.run;
    l.meta = {view: "dual", kernel: r.kernel, kernel_params: r.kernel_params, eta: m.eta, variant: r.variant, n_points: m.N,
              n_steps: m.S, n_updates: m.K, converged: r.converged, gram_block: r.gram_block};
    return l;
  }

  // the Gram matrix's colour bar in a panel ``height`` px high: its ticks, and the room it takes right of the matrix
  // (made once for each height)
  gramBar(height) {
    const r = this.m.run, k = this.k, key = `${Math.round(height)}${this.smallGram() ? "s" : ""}`;
    if (!this.gramBars || this.gramBars.key !== key)
      this.gramBars = {key, bar: colourBar(r.gram_lo, r.gram_hi, height - Math.round((this.smallGram() ? 50 : 68) * k), {thickness: 12 * k, size: 12 * k,
                                                                                               title: this.smallGram() ? null : {text: "G<sub>ij</sub>", size: 14 * k}})};
    return this.gramBars.bar;
  }
  gramTraces(height) {
    const m = this.m, r = m.run, kb = r.gram_block, side = Math.round(Math.sqrt(m.gram.length));
    const z = [];
    for (let a = 0; a < side; a++) {
      const row = new Array(side);
      for (let b = 0; b < side; b++) row[b] = r.gram_lo + (r.gram_hi - r.gram_lo) * m.gram[a * side + b] / r.gram_levels;
      z.push(row);
    }
    const hover = kb === 1 ? "G<sub>%{y}%{x}</sub> = K(x<sub>%{y}</sub>, x<sub>%{x}</sub>) ≈ %{z:.3g}<extra></extra>"
      : `rows near x<sub>%{y:.0f}</sub>, columns near x<sub>%{x:.0f}</sub>: mean of a ${kb}×${kb} block of G ≈ %{z:.3g}<extra></extra>`;
    return [{type: "heatmap", z, x0: (kb + 1) / 2, dx: kb, y0: (kb + 1) / 2, dy: kb, colorscale: "Greys", reversescale: true,
             hovertemplate: hover, showscale: true, zmin: r.gram_lo, zmax: r.gram_hi, colorbar: this.gramBar(height).colorbar}];
  }
  gramLayout(width, height) {
    const n = this.m.N, k = this.k, dt = n <= 12 ? {dtick: 1} : {}, small = this.smallGram();
    const axisTitle = (text) => (small ? {} : {title: {text, standoff: 2, font: {size: 14 * k, color: "#333"}}});
    return {
      width, height, autosize: false, dragmode: false, hovermode: "closest", showlegend: false,
      font: {family: FONT, size: 14 * k, color: INK},
      margin: {l: Math.round((small ? 30 : 44) * k), r: this.gramBar(height).room, t: Math.round(28 * k), b: Math.round((small ? 22 : 40) * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      title: {text: small ? GRAM_TITLE_SHORT : GRAM_TITLE, font: {size: 15 * k, color: INK}, x: 0, xanchor: "left", y: 1, yanchor: "top", pad: {t: 4}},
      xaxis: this.axis({range: [0.5, n + 0.5], zeroline: false, showgrid: false, constrain: "domain", ...axisTitle("column j"), ...dt}),
      yaxis: this.axis({range: [n + 0.5, 0.5], zeroline: false, showgrid: false, scaleanchor: "x", scaleratio: 1, constrain: "domain",
                        ...axisTitle("row i"), ...dt}),
    };
  }
  // the narrow slide's Gram matrix (DualView.sizes): a short title and no axis titles (its hover names row and column)
  smallGram() { return Boolean(this.sz && this.sz.side && !this.sz.beside); }
  barsLayout(width) {
    const m = this.m, k = this.k;
    return {
      width, height: (this.sz && this.sz.barsH) || Math.round(120 * k), autosize: false, dragmode: false, hovermode: false, showlegend: false,
      font: {family: FONT, size: 14 * k, color: INK}, margin: {l: Math.round(56 * k), r: Math.round(10 * k), t: 6, b: Math.round(38 * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      xaxis: this.axis({range: [0.5, m.N + 0.5], zeroline: false, showgrid: false, ...(width / m.N >= 24 * k ? {dtick: 1} : {}),
                        title: {text: "point i", standoff: 2, font: {size: 14 * k, color: "#333"}}}),
      yaxis: this.axis({range: [0, Math.max(m.amax, 1e-12) * 1.15], nticks: k > 1 ? 3 : 4, zeroline: false, title: {text: "αᵢ", font: {size: 16 * k, color: INK}}}),
    };
  }

  // ----- sizes: the data panel and the Gram matrix side by side where each keeps 400 px (stacked otherwise), the
  // bars under both; in presentation mode a slide, all within the window below the chart's top: on a large screen
  // the two panels and the step's words (the legend under them) in three columns; on a window under 1100 px wide or
  // 800 px high (1024×768, 1280×720) the data panel beside the words, the Gram matrix and the legend side by side
  // under the words (three columns leave the data panel too narrow there: bench/RESULTS.md); the bars, the state line
  // and the controls under the row
  sizes() {
    const k = this.k, width = Math.max(this.root.clientWidth || 800, 320);
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
    const barsH = Math.round((k > 1 ? 84 : 120) * k);  // (at 64 px the presentation strip kept 28 px for its bars)
    if (k > 1 && width >= 720) {
      // under the row: the bars, the state line (two lines) and the controls (full width in every layout)
      const controls = this.root.querySelector(".dbls-controls").offsetHeight || 3.2 * fs;
      const beside = width >= 1100 && window.innerHeight >= 800, below = Math.round(barsH + 2 * 1.45 * fs + controls + 20);
      const sz = {width, two: true, side: true, beside, bars: width, barsH};
      if (!beside) {
        // the data panel takes half the row where the window's height does not bound it first
        const S = Math.max(220, Math.min(this.room(below), Math.floor((width - GAP) / 2)));
        const G = Math.min(this.narrowGram(width, S), Math.round(S / 2));  // (its height fitted under the words: fit)
        return {...sz, main: S, gram: this.narrowGramWidth(width, S, G), gramH: G};
      }
      // the row beside the words: the data panel takes 55 % of it there (the larger share: it is the chart the
      // class reads), where the window's height does not bound it first
      const row = width - 2 * GAP - 16 * fs;
      const S = Math.max(220, Math.min(this.room(below), Math.floor(row * 0.55)));
      const G = Math.max(220, Math.min(S, Math.floor(row - S)));
      return {...sz, main: S, gram: G, gramH: G};
    }
    const two = width >= 720;  // side by side where each panel keeps 350 px (at 1024 px with the sidebar: stacked, each 620)
    let side = two ? Math.floor((width - GAP) / 2) : width;
    side = Math.min(side, Math.max(260, this.m.h.view.height - barsH - 160));
    return {width, two, side: false, main: side, gram: two ? Math.min(side, width - side - GAP) : side, bars: width, barsH};
  }

  layoutClasses(sz) { panelClasses(this.root, sz, sz.gram, !sz.beside); }

  // the narrow slide's Gram matrix beside a data panel of side S, at most: the row's width beside the data panel less
  // a legend's column of 12 em (its longest entry then in two lines), never larger than the data panel
  narrowGram(width, S) {
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
    return Math.max(GRAM_LEAST, Math.min(S, Math.floor(width - S - 2 * GAP - 12 * fs)));
  }
  // and its width at a height ``h``: its square's (as high as the figure's margins leave) with the colour bar beside,
  // or its title's where that is wider (the legend beside it takes the rest)
  narrowGramWidth(width, S, h) {
    const k = this.k, square = h - 50 * k + 30 * k + this.gramBar(h).room;  // (gramLayout's small margins)
    return Math.min(this.narrowGram(width, S), Math.ceil(Math.max(square, textWidth(GRAM_TITLE_SHORT, 15 * k) + 8)));
  }

  async mount(startStep, old) {
    const m = this.m;
    this.range.max = String(m.nStops - 1);
    this.i = m.stopOf(startStep);
    this.drawLegend();
    const sz = this.sz = this.sizes();
    this.layoutClasses(sz);
    await this.drawData(old, sz.main, sz.main);
    // the Gram matrix is drawn again only when it changed (the points, the kernel, the size): η, the order and
    // max steps keep it
    const gkey = JSON.stringify([m.run.kernel, m.run.kernel_params, m.run.gram_lo, m.run.gram_hi, m.h.view.scale, sz.gram, sz.gramH,
                                 fingerprint(m.gram)]);
    if (!old || old.gramKey !== gkey || !this.gramEl._fullLayout)
      await this.sizeGram(sz.gram, sz.gramH);
    this.gramKey = gkey;
    await this.Plotly.react(this.barsEl, [], this.barsLayout(sz.bars), CONFIG);
    this.attach();
    await this.fit();
  }

  // the words and the state line held at the run's tallest (heldTexts; the normal page too), and in presentation
  // mode: what lies under the panels (the legend, the bars, the state line, the controls and the step
  // under them, as they wrapped) is measured once drawn, and the panels shrink by what the window lacks (sizes()
  // estimates it before: at 1024×768 the step under the controls fell out of the window). Where the row's tallest is
  // the words' column (the run's longest words, held: heldTexts), narrower panels widen it and it wraps anew: the
  // largest side that fits is found by halving, the column measured at each side's width before the panels are drawn
  async fit() {
    const sz = this.sz;
    if (stateOf(this.root).view === this) this.text.style.minHeight = this.stateEl.style.minHeight = "";
    if (!sz || !this.root.offsetHeight || stateOf(this.root).view !== this) return;
    const longest = this.heldTexts((v) => v.fit()), hold = () => {
      holdTallest(this.text, longest.words);
      holdTallest(this.stateEl, longest.states);
    };
    hold();  // (on the normal page too: its Next moved by up to 57 px at 1024×768 as the words changed length)
    if (!sz.side) return;
    const top = sz.main, gram = sz.gram, narrow = !sz.beside, cols = [this.text, this.legendEl];
    const bottom = (els) => Math.max(...els.map((e) => e.getBoundingClientRect().bottom));
    const row = bottom([this.plot, this.gramEl, ...cols]), rowTop = this.plot.getBoundingClientRect().top;
    const R = this.room(this.root.getBoundingClientRect().bottom - row - lessonHeight(this.root) + 4);  // (the row's room)
    // the second panel's height at side S: on the narrow slide what the words leave under them in the row (the words'
    // column laid out at S's width, held at their tallest), within narrowGram
    const gramAt = (side) => {
      if (!narrow) return Math.min(gram, side);
      panelClasses(this.root, {...sz, main: side}, this.narrowGram(sz.width, side), true);
      hold();
      return Math.min(this.narrowGram(sz.width, side), Math.floor(rowTop + side - this.text.getBoundingClientRect().bottom - 8));
    };
    // the largest side with which the row fits R: the panels of side S, the words' column at its width then (on the
    // narrow slide the Gram matrix beside the legend under them, each as they are then)
    let S = largestFitting(220, top, (side) => {
      const G = Math.max(GRAM_LEAST, gramAt(side));
      panelClasses(this.root, {...sz, main: side}, narrow ? this.narrowGramWidth(sz.width, side, G) : G, narrow);
      hold();
      if (!narrow) return Math.max(side, bottom(cols) - rowTop) <= R;
      const words = this.text.getBoundingClientRect().bottom - rowTop;
      return Math.max(side, words + 8 + G, this.legendEl.getBoundingClientRect().bottom - rowTop) <= R;
    });
    if (S >= top - 2) S = top;
    const G = Math.max(GRAM_LEAST, gramAt(S));  // (the narrow slide's Gram matrix as wide as its column, as high as G)
    Object.assign(sz, {main: S, gram: narrow ? this.narrowGramWidth(sz.width, S, G) : G, gramH: G});
    this.layoutClasses(sz);
    hold();
    // (drawn again where a panel's size is not the one fitted: a new record over a plot a last fit made smaller keeps it)
    const size = (gd) => gd._fullLayout && gd._fullLayout.width;
    const data = size(this.plot) !== S, second = size(this.gramEl) !== sz.gram || this.gramEl._fullLayout.height !== sz.gramH;
    if (!data && !second) return;
    this.g = null;
    await Promise.all([data ? this.Plotly.relayout(this.plot, {width: S, height: S}) : null, second ? this.sizeGram(sz.gram, sz.gramH) : null]);
    if (stateOf(this.root).view === this) this.drawStep();
  }

  // what the words' column and the state line are held at (fit, Stepping.heldTexts), so that the run's longest words
  // (seven lines at 1280×720, a state line of two at 1024×768) do not push the controls out of the window as a student
  // steps to them (presentation mode), nor move what lies under them: for run ``m`` (an η of the record), the words of
  // the last step (its verdict), of the step written with the most terms of f (an update first) and the longest of a
  // sample (tallestTexts); the state lines of the last step, the middle one (both lists of names there) and the
  // sample's longest
  heldKey(m) { return `η${m.eta}`; }
  runModels() {
    const etas = Array.isArray(this.m.run.etas) ? this.m.run.etas : [];  // (a record of every η: each one's words too)
    return etas.map((eta) => () => (eta === this.m.eta ? this.m : new DualModel(this.scene, eta)));
  }
  textsOf(m) {
    let most = -1, at = m.S;
    for (let s = 1; s < Math.min(m.tPtr.length, m.S + 1); s++) {
      const n = 2 * (m.tPtr[s] - m.tPtr[s - 1]) + (m.updated(s) >= 0 ? 1 : 0);
      if (n > most) { most = n; at = s; }
    }
    return {words: tallestTexts(m.S, (s) => m.describe(s), [m.S, at]),
            states: tallestTexts(m.S, (s) => esc(m.stateLine(s)), [m.S, Math.floor(m.S / 2)])};
  }

  // the Gram matrix at a new size, ``w`` × ``h`` px (a square by default): drawn again (its colour bar's ticks and room
  // are chosen for its height)
  sizeGram(w, h = w) { return this.Plotly.react(this.gramEl, this.gramTraces(h), this.gramLayout(w, h), CONFIG); }

  // the page's η control moved (a kernel's record holds every η): α, b and f rescaled, at the same step
  sync() {
    const eta = dualEta(this.m.h, this);
    if (eta === undefined || eta === this.m.eta) return;
    const step = this.step;
    try { this.m = new DualModel(this.scene, eta); } catch (e) { fail(this.root, e.message); return; }
    this.plot.layout.meta = this.mainLayout(this.sz.main, this.sz.main).meta;  // (read by tests and exports)
    this.drawLegend();
    this.show(this.m.stopOf(step));
    const m = this.m;  // the α axis reaches the new largest α; the words held at the new η's longest (fit)
    this.Plotly.react(this.barsEl, [], this.barsLayout(this.sz.bars), CONFIG).then(() => {
      if (this.m !== m) return null;
      this.drawStep();
      if (this.sz.side) return this.fit();  // (the slide: its panels fitted to the new words before they are seen)
      return painted().then(() => (this.m === m ? this.fit() : null));  // (the normal page: held a frame later)
    });
  }

  resize() {
    const sz = this.resized();
    if (!sz) return;
    this.g = null;  // the axes' ranges may change: the step's geometry is made again
    Promise.all([this.Plotly.relayout(this.plot, {width: sz.main, height: sz.main}), this.sizeGram(sz.gram, sz.gramH),
                 this.Plotly.relayout(this.barsEl, {width: sz.bars, height: sz.barsH})]).then(() => this.fit()).then(() => this.drawStep(),
                                                                                                     () => {});  // (hidden meanwhile)
  }

  // ----- one step on screen
  drawStep() {
    const fl = this.plot._fullLayout;
    if (!fl || !fl.xaxis || !fl.xaxis._length) return;
    const g = this.g || (this.g = this.geometry(this.step));
    const m = this.m, k = this.k, on = (id) => !this.hidden.has(id);
    const xa = fl.xaxis, ya = fl.yaxis;
    const px = (x) => xa._offset + xa.l2p(x), py = (y) => ya._offset + ya.l2p(y);
    const id = this.clipId || (this.clipId = `dbls-clip-${nextClipId()}`);
    const clip = (suffix) => `<clipPath id="${id}${suffix}"><rect x="${xa._offset}" y="${ya._offset}" width="${xa._length}" height="${ya._length}"/></clipPath>`;
    const segs = (list) => list.map((line) => line.map(([x, y], j) => `${j ? "L" : "M"}${f1(px(x))},${f1(py(y))}`).join("")).join("");
    const circles = (idx, rOf) => {
      let d = "";
      for (const i of idx) {
        const r = rOf(i), x = px(m.X[2 * i]), y = py(m.X[2 * i + 1]);
        d += `M${f1(x - r)},${f1(y)}a${f1(r)},${f1(r)} 0 1,0 ${f1(2 * r)},0a${f1(r)},${f1(r)} 0 1,0 ${f1(-2 * r)},0`;
      }
      return d;
    };
    // the regions: f > 0 blue, f < 0 vermillion (a line's two half-planes, or a kernel's grid cells)
    const ctx = plotCanvas(this.canvas, fl);
    const flat = g.F ? !g.F.some((v) => v !== 0) : false;  // f ≡ 0 (α = 0, b = 0): neither side, as for a line
    if (on("line") && !flat) for (const [sgn, colour] of [[1, REGION.pos], [-1, REGION.neg]]) {
      ctx.beginPath();
      if (g.F) this.cells(ctx, g, sgn, px, py);
      else {
        const [xs, ys] = sgn > 0 ? g.regPos : g.regNeg;
        xs.forEach((x, j) => (j ? ctx.lineTo(px(x), py(ys[j])) : ctx.moveTo(px(x), py(ys[j]))));
      }
      ctx.fillStyle = colour; ctx.fill();
    }
    ctx.restore();
    // the halos under the points: area ∝ αᵢ
    const [h0, h1] = this.halo, amax = m.amax || 1;
    const rOf = (i) => Math.round(h0 + (h1 - h0) * Math.sqrt(g.alpha[i] / amax)) / 2;
    let under = "";
    if (on("halo")) for (const [sgn, colour] of [[1, HALO.pos], [-1, HALO.neg]]) {
      const idx = [];
      for (let i = 0; i < m.N; i++) if (g.alpha[i] > 0 && m.y[i] === sgn) idx.push(i);
      if (idx.length) under += `<path class="dbls-halos" d="${circles(idx, rOf)}" fill="${colour}"/>`;
    }
    layer(this.under, fl, `<defs>${clip("u")}</defs><g clip-path="url(#${id}u)">${under}</g>`);
    let over = "";
    if (on("ring") && g.ring.length)
      over += `<path class="dbls-rings" d="${circles(g.ring, () => this.ring[0] / 2)}" fill="none" stroke="${m.N <= 100 ? INK : "rgba(0,0,0,0.7)"}" stroke-width="${this.ring[1]}"/>`;
    if (on("exam") && g.exam >= 0)
      over += `<path d="${circles([g.exam], () => this.examSize / 2)}" fill="rgba(240, 228, 66, 0.3)" stroke="${HIGHLIGHT_LINE}" stroke-width="${3.5 * k}"/>`;
    if (on("old") && g.old.length) over += `<path class="dbls-old" d="${segs(chained(g.old, m.box))}" stroke="${OLD_INK}" stroke-width="${2.5 * k}" stroke-dasharray="${7 * k} ${5 * k}" fill="none"/>`;
    if (on("line") && g.line.length) over += `<path class="dbls-line" d="${segs(g.line)}" stroke="${INK}" stroke-width="${3.5 * k}" stroke-linecap="round" fill="none"/>`;
    let tag = "";
    if (on("exam") && g.exam >= 0) {  // the examined point's tag: its new α after an update, a tick when it was correct
      const i = g.exam, s = sub(i + 1), text = `x${s}` + (g.updated >= 0 ? `: α${s} = ${num(g.alpha[i])}` : " ✓");
      const x = px(m.X[2 * i]), y = py(m.X[2 * i + 1]), fs = 15 * k, hTxt = fs + 8 * k, d = this.examSize / 2 + 2 * k;
      const wTxt = textWidth(text, fs) + 10 * k;
      // above the point, else below, right, left or at a corner, then as much again a tag's height further out: the
      // first place that covers the fewest other points (kept on the panel; above it the tag lay over the points of a
      // crowded class), and never the examined point's disc (a place moved onto the panel may lie over it)
      const keep = ([bx, by]) => [Math.max(xa._offset, Math.min(bx, xa._offset + xa._length - wTxt)),
                                  Math.max(ya._offset, Math.min(by, ya._offset + ya._length - hTxt))];
      const around = (d) => [[x - wTxt / 2, y - d - hTxt], [x - wTxt / 2, y + d], [x + d, y - hTxt / 2], [x - d - wTxt, y - hTxt / 2],
                             [x + 0.7 * d, y - 0.7 * d - hTxt], [x - 0.7 * d - wTxt, y - 0.7 * d - hTxt], [x + 0.7 * d, y + 0.7 * d],
                             [x - 0.7 * d - wTxt, y + 0.7 * d]];
      const places = [...around(d), ...around(d + hTxt)].map(keep), R = this.examSize / 2;
      const boxes = places.map(([bx, by]) => [bx, by, bx + wTxt, by + hTxt]);
      const disc = ([x0, y0, x1, y1]) => Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1)) < R;
      const counts = pointsUnder(fl, m.X, boxes, 0.5 * this.size, i, 0).map((n, c) => n + (disc(boxes[c]) ? 1000 : 0));
      const c = counts.indexOf(Math.min(...counts)), [x0, y0] = places[c];
      if (c >= 8) {  // (further out: a thin line from the disc to the tag, so that it is read as the point's)
        const ex = Math.max(x0, Math.min(x, x0 + wTxt)), ey = Math.max(y0, Math.min(y, y0 + hTxt)), L = Math.hypot(ex - x, ey - y) || 1;
        tag += `<line class="dbls-tag-line" x1="${f1(x + (ex - x) * R / L)}" y1="${f1(y + (ey - y) * R / L)}" x2="${f1(ex)}" y2="${f1(ey)}" ` +
          `stroke="${HIGHLIGHT_LINE}" stroke-width="${1.5 * k}"/>`;
      }
      tag += `<g class="dbls-tag"><rect x="${f1(x0)}" y="${f1(y0)}" width="${f1(wTxt)}" height="${f1(hTxt)}" rx="3" fill="rgba(255,255,255,0.92)" stroke="${HIGHLIGHT_LINE}" stroke-width="1.5"/>` +
        `<text x="${f1(x0 + wTxt / 2)}" y="${f1(y0 + fs + 1 * k)}" text-anchor="middle" font-size="${fs}" fill="${INK}">${esc(text)}</text></g>`;
    }
    layer(this.over, fl, `<defs>${clip("o")}</defs><g clip-path="url(#${id}o)">${over}</g>${tag}`);
    this.drawGramRow(g);
    this.drawBars(g);
  }

  // the cells of the grid where sgn·f ≥ 0 (each cell cut along its edges where f changes sign), on ctx's path
  cells(ctx, {F, gx, gy}, sgn, px, py) {
    const G = gx.length;
    for (let r = 0; r + 1 < G; r++) for (let c = 0; c + 1 < G; c++) {
      const f = [sgn * F[r * G + c], sgn * F[r * G + c + 1], sgn * F[(r + 1) * G + c + 1], sgn * F[(r + 1) * G + c]];
      if (f[0] < 0 && f[1] < 0 && f[2] < 0 && f[3] < 0) continue;
      const p = [[gx[c], gy[r]], [gx[c + 1], gy[r]], [gx[c + 1], gy[r + 1]], [gx[c], gy[r + 1]]];
      if (f[0] >= 0 && f[1] >= 0 && f[2] >= 0 && f[3] >= 0) {
        ctx.rect(px(p[0][0]), py(p[2][1]), px(p[1][0]) - px(p[0][0]), py(p[0][1]) - py(p[2][1]));
        continue;
      }
      const out = [];
      for (let e = 0; e < 4; e++) {
        const a = e, b = (e + 1) % 4;
        if (f[a] >= 0) out.push(p[a]);
        if ((f[a] >= 0) !== (f[b] >= 0)) {
          const t = f[a] / (f[a] - f[b]);
          out.push([p[a][0] + t * (p[b][0] - p[a][0]), p[a][1] + t * (p[b][1] - p[a][1])]);
        }
      }
      out.forEach(([x, y], j) => (j ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
      ctx.closePath();
    }
  }

  rowSpan(i) {  // the Gram row (or block of rows, viz.dual.gram_display) holding point i, in point numbers
    const kb = this.m.run.gram_block, lo = Math.floor(i / kb) * kb + 0.5;
    return [lo, Math.min(lo + kb, this.m.N + 0.5)];
  }

  drawGramRow(g) {
    const gl = this.gramEl._fullLayout, el = this.gramOver;
    if (!gl || !gl.xaxis || !gl.xaxis._length) return;
    if (g.exam < 0) { layer(el, gl, ""); return; }
    const [lo, hi] = this.rowSpan(g.exam), xa = gl.xaxis, ya = gl.yaxis;
    const y0 = ya._offset + ya.l2p(lo), y1 = ya._offset + ya.l2p(hi);
    layer(el, gl, `<rect class="dbls-row" x="${f1(xa._offset)}" y="${f1(Math.min(y0, y1))}" width="${f1(xa._length)}" height="${f1(Math.max(Math.abs(y1 - y0), 2))}" fill="${LIT_ROW}" stroke="${HIGHLIGHT_LINE}" stroke-width="${2 * this.k}"/>`);
  }

  drawBars(g) {
    const bl = this.barsEl._fullLayout, el = this.barsOver, m = this.m, k = this.k;
    if (!bl || !bl.xaxis || !bl.xaxis._length) return;
    const xa = bl.xaxis, ya = bl.yaxis, px = (x) => xa._offset + xa.l2p(x), py = (y) => ya._offset + ya.l2p(y);
    const w = Math.max(1, 0.8 * (px(2) - px(1))), base = py(0);
    let pos = "", neg = "";
    for (let i = 0; i < m.N; i++) {
      if (!(g.alpha[i] > 0)) continue;
      const d = `M${f1(px(i + 1) - w / 2)},${f1(base)}V${f1(py(g.alpha[i]))}h${f1(w)}V${f1(base)}Z`;
      if (m.y[i] > 0) pos += d; else neg += d;
    }
    let svg = `<path class="dbls-bars-pos" d="${pos}" fill="${POS}"/><path class="dbls-bars-neg" d="${neg}" fill="${NEG}"/>`;
    if (g.exam >= 0) {  // the examined point's bar, marked from above
      const x = px(g.exam + 1), y = py(g.alpha[g.exam] + 0.04 * Math.max(m.amax, 1e-12)) - 2, s = 8 * k;
      svg += `<path class="dbls-bar-mark" d="M${f1(x - s)},${f1(y - 1.6 * s)}L${f1(x + s)},${f1(y - 1.6 * s)}L${f1(x)},${f1(y)}Z" fill="#F0E442" stroke="${HIGHLIGHT_LINE}" stroke-width="2"/>`;
    }
    layer(el, bl, svg);
  }

  // what the step shows, in data coordinates and point indices (for tests and the curious)
  drawn() {
    const g = this.g, m = this.m;
    return {step: g.step, k: g.k, exam: g.exam, updated: g.updated, alpha: g.alpha, ring: g.ring,
            line: g.line, old: g.old, row: g.exam >= 0 ? this.rowSpan(g.exam) : null,
            halos: g.alpha.map((a) => (a > 0 ? Math.round(this.halo[0] + (this.halo[1] - this.halo[0]) * Math.sqrt(a / (m.amax || 1))) : 0))};
  }

  // one Plotly figure of the chart as it stands: the data panel, the Gram matrix and the bars, the words above
  figure() {
    const m = this.m, k = this.k, g = this.g, sz = this.sz, on = (id) => !this.hidden.has(id);
    const xy = gapped;
    const pts = (idx) => [idx.map((i) => m.X[2 * i]), idx.map((i) => m.X[2 * i + 1])];
    const data = [];
    const support = [];
    for (let i = 0; i < m.N; i++) if (g.alpha[i] > 0) support.push(i);
    const hs = this.drawn().halos;
    if (on("halo") && support.length) {
      const [hx, hy] = pts(support);
      data.push({type: "scatter", mode: "markers", name: "halo: area ∝ αᵢ", x: hx, y: hy, hoverinfo: "skip",
                 marker: {size: support.map((i) => hs[i]), color: support.map((i) => (m.y[i] > 0 ? HALO.pos : HALO.neg)), line: {width: 0}}});
    }
    for (const t of this.mainTraces()) data.push({...t, showlegend: t.visible !== false});
    const [lx, ly] = xy(g.line), [ox, oy] = xy(chained(g.old, m.box));  // (dashed: chained)
    if (on("line")) data.push({type: "scatter", mode: "lines", name: "boundary f(x) = 0", x: lx, y: ly, line: {color: INK, width: 3.5 * k}, hoverinfo: "skip"});
    if (on("old") && g.old.length) data.push({type: "scatter", mode: "lines", name: "before the update", x: ox, y: oy, line: {color: OLD_INK, width: 2.5 * k, dash: "dash"}, hoverinfo: "skip"});
    if (on("ring") && g.ring.length) {
      const [rx, ry] = pts(g.ring);
      data.push({type: "scatter", mode: "markers", name: "M: y·f(x) ≤ 0", x: rx, y: ry, hoverinfo: "skip",
                 marker: {symbol: "circle-open", size: this.ring[0], color: INK, line: {width: this.ring[1]}}});
    }
    if (on("exam") && g.exam >= 0) {
      const [ex, ey] = pts([g.exam]);
      data.push({type: "scatter", mode: "markers", name: "examined", x: ex, y: ey, hoverinfo: "skip",
                 marker: {size: this.examSize, color: "rgba(240, 228, 66, 0.3)", line: {color: HIGHLIGHT_LINE, width: 3.5 * k}}});
    }
    for (const t of this.gramTraces(sz.gram)) data.push({...t, xaxis: "x2", yaxis: "y2", showlegend: false, colorbar: {...t.colorbar, x: 1, len: 0.45, y: 1, yanchor: "top"}});
    if (g.exam >= 0) {
      const [lo, hi] = this.rowSpan(g.exam);
      data.push({type: "scatter", mode: "lines", x: [0.5, m.N + 0.5, m.N + 0.5, 0.5, 0.5], y: [lo, lo, hi, hi, lo], fill: "toself",
                 fillcolor: LIT_ROW, line: {color: HIGHLIGHT_LINE, width: 2 * k}, xaxis: "x2", yaxis: "y2", showlegend: false, hoverinfo: "skip"});
    }
    data.push({type: "bar", x: support.map((i) => i + 1), y: support.map((i) => g.alpha[i]), width: 0.8, xaxis: "x3", yaxis: "y3",
               marker: {color: support.map((i) => (m.y[i] > 0 ? POS : NEG))}, showlegend: false, hoverinfo: "skip"});
    const main = this.mainLayout(sz.main, sz.main), gram = this.gramLayout(sz.gram, sz.gram), bars = this.barsLayout(sz.bars);
    const lines = (m.describe(g.step).match(/<br>/g) || []).length + 2, top = Math.round((lines * 22 + 16) * k);
    const Wd = Math.max(sz.width, 2 * Math.max(sz.main, 320) + GAP), H = Math.max(sz.main, 320) + bars.height + top + 40;
    const fb = bars.height / H, split = 0.48;
    return {data, layout: {
      ...main, width: Wd, height: H, showlegend: true, paper_bgcolor: "white", plot_bgcolor: "white",
      margin: {...main.margin, t: top, r: 70},
      legend: {x: 0, xanchor: "left", y: fb + 0.02, yanchor: "bottom", orientation: "h", font: {size: 12 * k}, bgcolor: "rgba(255,255,255,0.85)"},
      xaxis: {...main.xaxis, domain: [0, split]},
      yaxis: {...main.yaxis, domain: [fb + 0.16, 1]},
      xaxis2: {...gram.xaxis, anchor: "y2", domain: [split + 0.08, 0.95]},
      yaxis2: {...gram.yaxis, anchor: "x2", domain: [fb + 0.16, 1], scaleanchor: "x2"},
      xaxis3: {...bars.xaxis, anchor: "y3", domain: [0, 1]},
      yaxis3: {...bars.yaxis, anchor: "x3", domain: [0, fb - 0.03]},
      annotations: [{text: m.describe(g.step).replace(/<(?!\/?(b|br|sub)>)[^>]*>/g, "").replace(/&nbsp;/g, " ") + "<br>" + m.stateLine(g.step),
                     xref: "paper", yref: "paper", x: 0, y: 1, yshift: 8, xanchor: "left", yanchor: "bottom", align: "left",
                     showarrow: false, font: {size: 14 * k, color: INK}},
                    {text: gram.title.text, xref: "x2 domain", yref: "y2 domain", x: 0, y: 1, yshift: 4, xanchor: "left",
                     yanchor: "bottom", showarrow: false, font: {size: 14 * k, color: INK}}],
    }};
  }

}

const DUAL_SHELL = `<div class="dbls-text" aria-hidden="true"></div>
<div class="dbls-panels">
  <div class="dbls-stage dbls-data"><canvas class="dbls-canvas" aria-hidden="true"></canvas><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot"></div><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-stage dbls-gram"><div class="dbls-gram-plot dbls-strip-plot"></div><svg class="dbls-gram-over dbls-strip-over" aria-hidden="true"></svg></div>
</div>
<div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
<div class="dbls-strip"><div class="dbls-bars-plot dbls-strip-plot"></div><svg class="dbls-bars-over dbls-strip-over" aria-hidden="true"></svg></div>
<div class="dbls-state"></div>
${CONTROLS}
${MATH}
<div class="dbls-live" aria-live="polite" role="status"></div>`;

// the η a kernel's record (run.etas) is shown at: the page's η control (header.follow); else the η shown before;
// else the view's (the offline file); else the first (undefined for a record of one η)
function dualEta(h, old) {
  const etas = h.run && h.run.etas;
  if (!Array.isArray(etas) || !etas.length) return undefined;
  const text = controlValue(h.follow);
  const want = text !== null ? Number(text) : old && old.m.h.kind === "dual" && old.m.run.etas ? old.m.eta : h.view.tau;
  return etas[nearest(etas, want)];
}

export const DUAL_KIND = {shell: DUAL_SHELL, sketch: true, model: (scene, old) => new DualModel(scene, dualEta(scene.header, old)), View: DualView};
