// The Perceptron record read as states (PerceptronModel): each step's w, b, the points examined and M as the core
// judged it, the words of a step, and its lesson (the rule with the step's numbers, typeset by lesson.js).

import {afterUpdates, apart, bnum, grouped, mistakesText, names, num, pointSet, sub, vec} from "./format.js";
import {TW, TX, tn, tset, tsign, tv} from "./lesson.js";
import {stateOf} from "./state.js";

// run j's array ``name``, named <field>.<j> in the record (a run that shares another's order: run.order_of)

export function runArray(arrays, run, j, name) {
  const v = arrays[`${name}.${name === "order" ? run.order_of : j}`];
  if (!v) throw new Error(`the scene has no ${name} for run ${j}`);
  return v;
}

// m becomes a state's set as the core judged it: the rule yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) below t (or at it, with
// ``orEqual``), evaluated one IEEE operation at a time in the order core.snapshot.activation sums in, then the state's
// exceptions ``idx[ptr[k]:ptr[k + 1]]`` flipped (viz/scene.py: the rule plus exceptions)
export function ruleMask(m, X, y, w1, w2, b, t, orEqual, ptr, idx, k) {
  if (orEqual) for (let i = 0; i < m.length; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) <= t ? 1 : 0;
  else for (let i = 0; i < m.length; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) < t ? 1 : 0;
  for (let s = ptr[k]; s < ptr[k + 1]; s++) m[idx[s]] ^= 1;
}

export class PerceptronModel {
  // run j of a scene (one run per τ): its arrays are named <field>.<j>
  constructor({header, arrays}, j) {
    const a = arrays, run = header.runs[j], at = (name) => runArray(a, run, j, name);
    this.h = header;
    this.j = j;
    this.run = run;
    if (!a.X || !a.y) throw new Error("the scene has no points");
    this.X = a.X; this.y = a.y; this.N = a.y.length;
    if (this.X.length !== 2 * this.N) throw new Error("the scene's points and labels differ in number");
    this.US = at("update_steps"); this.K = this.US.length;
    this.W = at("W"); this.B = at("B"); this.order = at("order");
    this.mPtr = at("m_ptr"); this.mIdx = at("m_idx"); this.loss = at("loss");
    this.errors = at("errors");  // |M| of each state, as the core counted it
    this.proof = a[`proof.${j}`] || null;  // ⟨w̃*, w̃_k⟩, ‖w̃_k‖² of each state (with the bound; viz/js/lesson.js)
    this.S = this.run.n_steps;
    this.box = header.box;
    if (this.W.length !== 2 * (this.K + 1) || this.B.length !== this.K + 1 || this.mPtr.length !== this.K + 2 ||
        this.errors.length !== this.K + 1 || this.loss.length !== this.K + 1)
      throw new Error("the scene's states do not match its update steps");
    if (this.proof && this.proof.length !== 2 * (this.K + 1)) throw new Error("the scene's proof does not match its updates");
    if (this.run.order_bits) this.checkBits();
    this.negative = this.run.update_on === "negative";
    this.mask = new Uint8Array(this.N);
    this.maskAt = -1;
    let wmax = 0;
    for (let k = 0; k <= this.K; k++) wmax = Math.max(wmax, Math.hypot(this.W[2 * k], this.W[2 * k + 1]));
    const span = this.box[1] - this.box[0];
    this.scale = wmax > 1e-9 ? 0.42 * span / wmax : 1;  // w drawn ×scale, one scale for the whole run
    const inside = this.box[0] < 0 && 0 < this.box[1] && this.box[2] < 0 && 0 < this.box[3];
    this.P = inside ? [0, 0] : [(this.box[0] + this.box[1]) / 2, (this.box[2] + this.box[3]) / 2];
    this.stops = this.makeStops(header.view.mode);
  }

  makeStops(mode) {
    if (mode !== "updates") return null;  // every step 0..S
    const s = [0];
    for (const u of this.US) if (u !== s[s.length - 1]) s.push(u);
    if (s[s.length - 1] !== this.S) s.push(this.S);
    return Uint32Array.from(s);
  }
  get nStops() { return this.stops ? this.stops.length : this.S + 1; }
  stepAt(i) { return this.stops ? this.stops[i] : i; }
  stopOf(step) {  // the last stop at or before `step`
    if (!this.stops) return Math.max(0, Math.min(this.S, step));
    let lo = 0, hi = this.stops.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (this.stops[mid] <= step) lo = mid; else hi = mid - 1; }
    return lo;
  }

  // k, the updates up to and including `step` (Trajectory.state_index)
  stateOf(step) {
    let lo = 0, hi = this.K;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.US[mid] <= step) lo = mid + 1; else hi = mid; }
    return lo;
  }
  w(k) { return [this.W[2 * k], this.W[2 * k + 1]]; }
  epoch(step) { return this.run.variant === "batch" ? step : Math.ceil((step * this.run.batch_size) / this.N); }

  examined(step) {
    if (step === 0) return [];
    const v = this.run.variant;
    if (v === "cyclic") return [(step - 1) % this.N];
    if (v === "batch") return Array.from({length: this.N}, (_, i) => i);
    if (this.run.order_bits) return this.subset(step);
    const B = v === "minibatch" ? this.run.batch_size : 1;
    return Array.from(this.order.subarray((step - 1) * B, step * B));
  }

  // a mini-batch's I sent as a bit set (viz.scene.subsets_as_bits): bit i of row s − 1, least significant first
  subset(step) {
    const w = (this.N + 7) >> 3, row = this.order.subarray((step - 1) * w, step * w), out = [];
    for (let j = 0; j < w; j++) for (let v = row[j]; v; v &= v - 1) out.push(8 * j + 31 - Math.clz32(v & -v));
    return out;
  }
  checkBits() {  // every step's set holds B of the N points
    const w = (this.N + 7) >> 3, B = this.run.batch_size, o = this.order;
    if (!(o instanceof Uint8Array) || o.length !== this.S * w) throw new Error("the scene's subsets do not match its steps");
    if (stateOf(o).checked === B) return;  // (the runs of every τ share one array: checked once)
    for (let s = 0; s < this.S; s++) {
      let c = 0;
      for (let j = s * w; j < (s + 1) * w; j++) for (let v = o[j]; v; v &= v - 1) c++;
      if (c !== B || (this.N & 7 && o[(s + 1) * w - 1] >> (this.N & 7))) throw new Error(`step ${s + 1}'s subset does not hold B = ${B} of the ${this.N} points`);
    }
    stateOf(o).checked = B;
  }

  updated(step, k) {  // the core's Trajectory.updated: the examined points in M of the state before (M ∩ I)
    if (step === 0 || k === 0 || this.US[k - 1] !== step) return [];
    this.goState(k - 1);
    return this.examined(step).filter((i) => this.mask[i]);
  }

  // this.mask becomes M of state k: y·((x₁w₁ + x₂w₂) + b) ≤ 0 (< 0 under "negative") as the core judged it
  goState(k) {
    if (k === this.maskAt) return;
    ruleMask(this.mask, this.X, this.y, this.W[2 * k], this.W[2 * k + 1], this.B[k], 0, !this.negative, this.mPtr, this.mIdx, k);
    this.maskAt = k;
  }

  members(k, limit = Infinity) {  // M of state k: its first `limit` indices, and its size
    this.goState(k);
    const list = [];
    for (let i = 0; i < this.N && list.length < limit; i++) if (this.mask[i]) list.push(i);
    return {list, count: this.errors[k]};
  }

  signs() { return this.run.update_on === "negative" ? ["<", "≥"] : ["≤", ">"]; }
  stepCoef() {
    const tau = num(this.run.tau), r = this.run;
    if (r.reduction === "mean" && r.variant === "minibatch") return ["τ/B", `${tau}/${r.batch_size}`];
    if (r.reduction === "mean" && r.variant === "batch") return ["τ/N", `${tau}/${this.N}`];
    return ["τ", tau];
  }

  // describe_step (tests/oracles.py): the arithmetic of one step in the seeds' notation (HTML)
  describe(step) {
    const r = this.run, n = this.N, bound = this.h.bound;
    const k = this.stateOf(step);
    const upd = this.updated(step, k);
    const kp = step && k && this.US[k - 1] === step ? k - 1 : k;  // the state before the step
    const [w, b] = [this.w(k), this.B[k]];
    const [wp, bp] = [this.w(kp), this.B[kp]];
    const [le, gt] = this.signs();
    const converged = r.converged && step === this.S;
    if (step === 0) {
      let txt = `<b>Step 0</b>: start at w = ${vec(w)}, b = ${num(b)}; |M| = ${grouped(this.errors[0])} of ${grouped(n)} points.`;
      if (bound) txt += ` At most (R/γ)² = ${bnum(bound.bound)} updates to come.`;
      if (r.update_on === "negative" && w[0] === 0 && w[1] === 0 && b === 0)
        txt += "<br>Every y·a is 0 at w = 0, b = 0, and the rule updates only when y·a < 0: nothing will move.";
      else if (converged) txt += "<br>✓ The initial boundary already separates the data.";
      return txt;
    }
    let head = `<b>Step ${grouped(step)}</b> (epoch ${grouped(this.epoch(step))})`;
    if (bound) head += ` · updates so far ${grouped(k)} ≤ (R/γ)² = ${bnum(bound.bound)}`;
    const tau = r.tau;
    let txt;
    if (r.variant === "cyclic" || r.variant === "random") {
      const i = this.examined(step)[0];
      const xi = [this.X[2 * i], this.X[2 * i + 1]], yi = this.y[i];
      const a = yi * (wp[0] * xi[0] + wp[1] * xi[1] + bp);  // y·(w·x + b) at the old state, in the core's order
      const withB = r.fit_intercept || bp !== 0;
      const bias = !withB ? "" : (bp >= 0 ? ` + ${num(bp)}` : ` − ${num(-bp)}`);
      const act = `y·(w·x${withB ? "+b" : ""}) = ${num(yi)}·(${vec(wp)}·${vec(xi)}${bias}) = ${num(a)}`;
      const name = `x${sub(i + 1)} = ${vec(xi)}, y = ${yi > 0 ? "+1" : "−1"}`;
      if (upd.length) {
        const d = apart([...wp, bp], [...w, b]);  // (w and b before and after, written apart)
        txt = `${head}: ${name} misclassified:<br>${act} ${le} 0<br>→ w ← ${vec(wp, d)} + ${num(tau)}·(${num(yi)})·${vec(xi)} = ${vec(w, d)}`;
        txt += r.fit_intercept ? `, b ← ${num(bp, d)} + ${num(tau)}·(${num(yi)}) = ${num(b, d)}` : `, b stays ${num(b)}`;
      } else {
        txt = `${head}: ${name} correct:<br>${act} ${gt} 0 → no update`;
      }
    } else {
      const ex = this.examined(step);
      const [coef, full] = this.stepCoef();
      let sumname;
      if (r.variant === "minibatch") {
        txt = `${head}: batch I = {${names(ex)}} (B = ${grouped(r.batch_size)})<br>mistakes M∩I = ${pointSet(upd)}`;
        sumname = "Σ<sub>i∈M∩I</sub>";
      } else {
        txt = `${head}: all ${grouped(n)} points<br>mistakes M = ${pointSet(upd)}`;
        sumname = "Σ<sub>i∈M</sub>";
      }
      if (upd.length) {
        const g = [0, 0];
        let ys = 0;
        for (const i of upd) { g[0] += this.y[i] * this.X[2 * i]; g[1] += this.y[i] * this.X[2 * i + 1]; ys += this.y[i]; }
        const d = apart([...wp, bp], [...w, b]);
        txt += `<br>→ w ← w + ${coef}·${sumname} yᵢxᵢ = ${vec(wp, d)} + ${full}·${vec(g)} = ${vec(w, d)}`;
        if (r.fit_intercept) txt += `, b ← ${num(bp, d)} + ${full}·(${num(ys)}) = ${num(b, d)}`;
      } else {
        txt += " → no update";
      }
    }
    if (converged) txt += `<br>✓ Converged: no point is misclassified (|M| = 0) after ${grouped(this.K)} updates.`;
    return txt;
  }

  // the state line (state_line_of in tests/oracles.py): the same on every step between two updates
  stateLine(step) {
    const k = this.stateOf(step), limit = this.N <= 100 ? 6 : 3;
    const {list, count} = this.members(k, limit + 1);
    return `${afterUpdates(k)}: w = ${vec(this.w(k))}, b = ${num(this.B[k])}; ${mistakesText(list, count, this.N, limit)}`;
  }

  // ----- the Perceptron: the update rule of its variant, then this step's numbers, in the seeds' notation
  formula(step) {
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
  }

  // z = yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) of every point after the step, in the order the core sums it
  margins(step) {
    const k = this.stateOf(step), [w1, w2] = this.w(k), b = this.B[k], z = new Float64Array(this.N);
    for (let i = 0; i < this.N; i++) z[i] = this.y[i] * ((this.X[2 * i] * w1 + this.X[2 * i + 1] * w2) + b);
    return z;
  }

  marginCounts(step, below) {  // |M| as the core counted it; z < 1 as drawn
    return {mis: this.errors[this.stateOf(step)], inside: below};
  }
}
