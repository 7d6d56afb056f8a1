// The browser renderer of scenes (viz/scene.py documents the record; the field names are the same here).
// A components-v2 component: Streamlit calls the default export with the scene's bytes as `data`; the
// offline HTML export calls mountScene() itself. Everything drawable is derived here from the core's
// states; nothing the core decided (M, ties, which points updated, convergence) is decided again.

const SCENE_VERSION = 5;  // viz.scene.SCENE_VERSION
const DTYPES = {u1: Uint8Array, u2: Uint16Array, u4: Uint32Array, i1: Int8Array, f8: Float64Array};

// ---------------------------------------------------------------------------------------------------
// the record
// ---------------------------------------------------------------------------------------------------

function asBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data && data.buffer instanceof ArrayBuffer) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new Error("the scene did not arrive as bytes");
}

function decode(data) {
  const bytes = asBytes(data);
  if (bytes.length < 8 || String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== "DBLS")
    throw new Error("not a scene record (it does not start with DBLS)");
  const h = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + h)));
  if (header.version !== SCENE_VERSION)
    throw new Error(`scene version ${header.version}; this renderer reads ${SCENE_VERSION}`);
  // copy the array section to a fresh, aligned buffer (the message's bytes may sit at any offset)
  const body = bytes.slice(8 + h).buffer;
  const arrays = {};
  for (const [name, spec] of Object.entries(header.arrays)) {
    const T = DTYPES[spec.dtype];
    if (!T) throw new Error(`scene array ${name} has dtype ${spec.dtype}`);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (spec.offset + count * T.BYTES_PER_ELEMENT > body.byteLength) throw new Error(`scene array ${name} is cut short`);
    arrays[name] = new T(body, spec.offset, count);
  }
  return {header, arrays};
}

// what every model checks of a record before drawing from it (a malformed record is named, never drawn with NaN)
function checkPoints(X, y) {
  if (!X || !y) throw new Error("the scene has no points");
  if (X.length !== 2 * y.length) throw new Error("the scene's points and labels differ in number");
  for (let i = 0; i < X.length; i++) if (!Number.isFinite(X[i])) throw new Error(`point ${(i >> 1) + 1} is not a number`);
  for (let i = 0; i < y.length; i++) if (y[i] !== 1 && y[i] !== -1) throw new Error(`label ${i + 1} is ${y[i]}, not ±1`);
}
function checkBox(box) {
  if (!Array.isArray(box) || box.length !== 4 || !box.every(Number.isFinite) || !(box[0] < box[1] && box[2] < box[3]))
    throw new Error("the scene's view box is not four increasing numbers");
}
function checkFinite(name, a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) throw new Error(`${name} holds a value that is not a number`);
}
// a list per state as pointers into indices: ptr[0] = 0, never decreasing, ending at idx's length, every index < n
function checkPtr(name, ptr, idx, n) {
  if (ptr[0] !== 0 || ptr[ptr.length - 1] !== idx.length) throw new Error(`${name}'s pointers do not span its points`);
  for (let k = 1; k < ptr.length; k++) if (ptr[k] < ptr[k - 1]) throw new Error(`${name}'s pointers go back`);
  for (const i of idx) if (i >= n) throw new Error(`${name} names point ${i + 1} of ${n}`);
}
const isText = (t) => typeof t === "string";

// ---------------------------------------------------------------------------------------------------
// numbers as the Python side writes them (viz.common.num, vec, names…): Python rounds ties to even
// ---------------------------------------------------------------------------------------------------

const SUBS = "₀₁₂₃₄₅₆₇₈₉";
const sub = (i) => String(i).replace(/\d/g, (d) => SUBS[d]);

// the exact decimal digits of a finite |v| < 1e21: {digits, point} with value 0.digits × 10^point
function exactDigits(a) {
  const [ip, fp = ""] = a.toFixed(100).split(".");
  let digits = (ip + fp).replace(/0+$/, "");
  let point = ip.length;
  const lead = digits.match(/^0*/)[0].length;
  digits = digits.slice(lead);
  point -= lead;
  return {digits: digits || "0", point: digits ? point : 1};
}

// keep the first `keep` digits, rounding half to even; returns {digits, carry}
function roundDigits(digits, keep) {
  if (keep < 0) return {digits: "", carry: false};
  if (digits.length <= keep) return {digits: digits.padEnd(keep, "0"), carry: false};
  const rest = digits.slice(keep);
  let kept = digits.slice(0, keep).split("").map(Number);
  const tie = rest === "5";
  const up = rest[0] > "5" || (rest[0] === "5" && (!tie || (kept.length ? kept[kept.length - 1] % 2 === 1 : false)));
  let carry = false;
  if (up) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === 9) { kept[i] = 0; i--; }
    if (i >= 0) kept[i] += 1; else { kept.unshift(1); carry = true; }
  }
  return {digits: kept.join(""), carry};
}

// Python's f"{a:.{d}f}" for a ≥ 0
function fixed(a, d) {
  if (a >= 1e21) return a.toFixed(d);
  const {digits, point} = exactDigits(a);
  const kept = point + d < 0 ? "" : roundDigits(digits, point + d).digits;  // the value is kept × 10^−d
  const full = kept.padStart(d + 1, "0");
  const ip = full.slice(0, full.length - d);
  return d ? `${ip}.${full.slice(full.length - d)}` : ip;
}

// Python's f"{a:.{p}g}" for a > 0
function general(a, p) {
  if (a >= 1e21) return a.toPrecision(p);
  const {digits, point} = exactDigits(a);
  const r = roundDigits(digits, p);
  const e = point - 1 + (r.carry ? 1 : 0);
  const d = r.digits.slice(0, p);
  if (e >= -4 && e < p) {  // fixed notation, trailing zeros dropped
    const s = fixed(a, Math.max(p - 1 - e, 0));
    return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
  }
  let m = d[0] + (p > 1 ? "." + d.slice(1) : "");
  m = m.includes(".") ? m.replace(/0+$/, "").replace(/\.$/, "") : m;
  return `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

// viz.common.num: a number as a student writes it: 1.0 -> "1", -0.5 -> "−0.5", 1/3 -> "0.333"
function num(v, digits = 3) {
  v = Number(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  if (Math.abs(v) < 1e-12) return "0";
  const a = Math.abs(v);
  let s = (a >= 1e5 || a < 10 ** -digits) ? general(a, digits) : fixed(a, digits).replace(/0+$/, "").replace(/\.$/, "");
  if (s === "" || /^0*\.?0*$/.test(s)) s = "0";
  return ((v < 0 && s !== "0" ? "-" : "") + s).replace(/-/g, "−");
}
const vec = (v, digits = 3) => "(" + Array.from(v, (x) => num(x, digits)).join(", ") + ")";
// viz.common.apart: the fewest decimals (digits to most) that write each number of ``before`` apart from the same one
// of ``after`` where they differ
function apart(before, after, digits = 3, most = 6) {
  for (let d = digits; d < most; d++) if (before.every((a, i) => a === after[i] || num(a, d) !== num(after[i], d))) return d;
  return most;
}
const grouped = (k) => String(k).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
function names(idx, limit = 6) {
  const s = idx.slice(0, limit).map((i) => `x${sub(i + 1)}`).join(", ");
  return s + (idx.length > limit ? `, … (${grouped(idx.length)} in all)` : "");
}
const pointSet = (idx) => (idx.length ? "{" + names(idx) + "}" : "∅");
const afterUpdates = (k) => (k === 0 ? "Before any update" : `After ${grouped(k)} update${k !== 1 ? "s" : ""}`);
function mistakesText(mis, count, n, limit) {
  if (!count) return `no point misclassified (0 of ${grouped(n)})`;
  if (count <= limit) return `misclassified: ${names(mis)} (${grouped(count)} of ${grouped(n)})`;
  return `${grouped(count)} of ${grouped(n)} misclassified: ${names(mis.slice(0, limit))}, …`;
}
const bnum = (v) => (v >= 100 ? grouped(fixed(v, 0)) : general(v, 3));

// ---------------------------------------------------------------------------------------------------
// geometry (viz.common.boundary_segment, region_xy), in the same operations
// ---------------------------------------------------------------------------------------------------

function segment(box, w0, w1, b) {
  const norm = Math.max(Math.abs(w0), Math.abs(w1));
  if (norm === 0) return [[], []];
  const u = w0 / norm, v = w1 / norm, c = b / norm;
  const [x0, x1, y0, y1] = box, pts = [];
  if (Math.abs(v) > 1e-12) for (const x of [x0, x1]) {
    const y = -(u * x + c) / v;
    if (y >= y0 - 1e-12 && y <= y1 + 1e-12) pts.push([x, y]);
  }
  if (Math.abs(u) > 1e-12) for (const y of [y0, y1]) {
    const x = -(v * y + c) / u;
    if (x >= x0 - 1e-12 && x <= x1 + 1e-12) pts.push([x, y]);
  }
  if (pts.length < 2) return [[], []];
  pts.sort((p, q) => p[0] - q[0] || p[1] - q[1]);  // as viz.common.boundary_segment: the extreme two
  const p0 = pts[0], p1 = pts[pts.length - 1];
  return [[p0[0], p1[0]], [p0[1], p1[1]]];
}

// the part of a convex polygon (a list of [x, y]) where a0·x + a1·y + c ≥ 0: one Sutherland–Hodgman pass
// (viz.common.clip_polygon)
function clipPoly(poly, a0, a1, c) {
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length], fp = a0 * p[0] + a1 * p[1] + c, fq = a0 * q[0] + a1 * q[1] + c;
    if (fp >= 0) out.push(p);
    if ((fp >= 0) !== (fq >= 0)) { const t = fp / (fp - fq); out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]); }
  }
  return out;
}
const boxPoly = ([x0, x1, y0, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

// where sign·(w·x + b) ≥ 0 inside the box, as a closed polygon
function region(box, w0, w1, b, sign) {
  if (w0 === 0 && w1 === 0 && sign * b <= 0) return [[], []];
  const out = clipPoly(boxPoly(box), sign * w0, sign * w1, sign * b);
  if (out.length < 3) return [[], []];
  out.push(out[0]);
  return [out.map((p) => p[0]), out.map((p) => p[1])];
}

// ---------------------------------------------------------------------------------------------------
// the Perceptron scene
// ---------------------------------------------------------------------------------------------------

const POS = "#0072B2", NEG = "#D55E00", INK = "#222222", UPDATE = "#009E73";
const SPEEDS = {play: 400, fast: 120};  // ms a step; Fast on a long run as fastPace() makes it
const FAST_RUN_MS = 30_000, FRAME_MS = 33;  // Fast crosses a long run in about 30 s: a step a frame, then several
const GL_POINTS = 2000;  // above this many points, plotly.js draws them with WebGL
const GAP = 16;  // px between the panel and the words in the presentation layout
const EDGE = 6;  // px kept free at the window's bottom in presentation mode (Stepping.room): a focus ring's width and more

// run j's array ``name``, named <field>.<j> in the record (a run that shares another's order: run.order_of)
function runArray(arrays, run, j, name) {
  const v = arrays[`${name}.${name === "order" ? run.order_of : j}`];
  if (!v) throw new Error(`the scene has no ${name} for run ${j}`);
  return v;
}

// m becomes a state's set as the core judged it: the rule yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) below t (or at it, with
// ``orEqual``), evaluated one IEEE operation at a time in the order core.snapshot.activation sums in, then the state's
// exceptions ``idx[ptr[k]:ptr[k + 1]]`` flipped (viz/scene.py: the rule plus exceptions)
function ruleMask(m, X, y, w1, w2, b, t, orEqual, ptr, idx, k) {
  if (orEqual) for (let i = 0; i < m.length; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) <= t ? 1 : 0;
  else for (let i = 0; i < m.length; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) < t ? 1 : 0;
  for (let s = ptr[k]; s < ptr[k + 1]; s++) m[idx[s]] ^= 1;
}

class PerceptronModel {
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
    if (o.__dblChecked === B) return;  // (the runs of every τ share one array: checked once)
    for (let s = 0; s < this.S; s++) {
      let c = 0;
      for (let j = s * w; j < (s + 1) * w; j++) for (let v = o[j]; v; v &= v - 1) c++;
      if (c !== B || (this.N & 7 && o[(s + 1) * w - 1] >> (this.N & 7))) throw new Error(`step ${s + 1}'s subset does not hold B = ${B} of the ${this.N} points`);
    }
    o.__dblChecked = B;
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

  // viz.perceptron._describe: the arithmetic of one step in the seeds' notation (HTML)
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

  // the state line (viz.common.state_text with after_updates): the same on every step between two updates
  stateLine(step) {
    const k = this.stateOf(step), limit = this.N <= 100 ? 6 : 3;
    const {list, count} = this.members(k, limit + 1);
    return `${afterUpdates(k)}: w = ${vec(this.w(k))}, b = ${num(this.B[k])}; ${mistakesText(list, count, this.N, limit)}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// drawing: plotly.js draws what stays (the points, axes, the |M| and loss curves); an SVG layer of ours
// draws what a step changes (regions, M's rings, the examined point, the boundaries, w and the update),
// so a step redraws a few SVG elements, not thousands of points. An exported image draws the same step
// geometry as Plotly traces.
// ---------------------------------------------------------------------------------------------------

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__dblPlotly) {
    window.__dblPlotly = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = new URL("app/static/plotly.min.js", window.location.href).toString();
      s.onload = () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("plotly.js did not load")));
      s.onerror = () => { window.__dblPlotly = null; reject(new Error("plotly.js could not be loaded from this server")); };
      document.head.appendChild(s);
    });
  }
  return window.__dblPlotly;
}

const NONE = [[], []];
const REGION = {pos: "rgba(0, 114, 178, 0.10)", neg: "rgba(213, 94, 0, 0.10)"};
const HIGHLIGHT = "rgba(240, 228, 66, 0.55)", HIGHLIGHT_LINE = "#8A7D00", OLD_INK = "rgba(34,34,34,0.45)";
const MARGIN_INK = "#555555";  // viz.svm.MARGIN_COLOUR
const PURPLE = "#6a3d9a";
const CONFIG = {displaylogo: false, scrollZoom: false, doubleClick: false, responsive: false, displayModeBar: false};
const FONT = "Inter, Segoe UI, Helvetica, Arial, sans-serif";
let clipIds = 0;
const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];  // boxes [x0, y0, x1, y1], px

// an SVG layer over a plot (fl: its _fullLayout), sized to it and holding ``svg``
function layer(el, fl, svg) {
  el.setAttribute("viewBox", `0 0 ${fl.width} ${fl.height}`);
  el.setAttribute("width", fl.width); el.setAttribute("height", fl.height);
  el.innerHTML = svg;
}

// a canvas's 2-D context sized to a plot (fl) at the screen's pixel density, cleared and clipped to its data panel
// (restore() it when done)
function plotCanvas(cv, fl) {
  const W = fl.width, H = fl.height, dpr = window.devicePixelRatio || 1, xa = fl.xaxis, ya = fl.yaxis;
  const cw = Math.round(W * dpr), ch = Math.round(H * dpr);
  if (cv.width !== cw || cv.height !== ch) { cv.width = cw; cv.height = ch; }  // (a new size allocates the canvas anew)
  cv.style.width = `${W}px`; cv.style.height = `${H}px`;
  const ctx = cv.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  ctx.save();
  ctx.beginPath(); ctx.rect(xa._offset, ya._offset, xa._length, ya._length); ctx.clip();
  return ctx;
}

// a small picture (a marker) drawn once by draw(ctx) around (0, 0), in CSS px, within `reach` of it, kept by `key`;
// its pixels (dx, dy, r, g, b, alpha: straight alpha, 255 opaque) around the centre pixel, for a PixelLayer
const stamps = new Map();
function stamp(key, reach, draw) {
  const dpr = window.devicePixelRatio || 1, id = `${key}|${dpr}`;
  let s = stamps.get(id);
  if (s) return s;
  const half = Math.ceil(reach * dpr) + 1, side = 2 * half + 1, cv = document.createElement("canvas");
  cv.width = cv.height = side;
  const ctx = cv.getContext("2d", {willReadFrequently: true});
  ctx.setTransform(dpr, 0, 0, dpr, half + 0.5, half + 0.5);
  draw(ctx);
  const px = ctx.getImageData(0, 0, side, side).data, out = [];
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) {
    const o = 4 * (y * side + x);
    if (px[o + 3]) out.push(x - half, y - half, px[o], px[o + 1], px[o + 2], px[o + 3]);
  }
  s = Int16Array.from(out);
  if (stamps.size > 64) stamps.clear();
  stamps.set(id, s);
  return s;
}

// markers stamped into one layer of pixels over a plot's data panel, then drawn onto the plot's canvas (ctx, from
// plotCanvas) at once: thousands of markers cost a few milliseconds of script and one bitmap to paint, where a path
// of thousands of shapes cost the canvas 10 ms (rings) to 60 ms (the SVM's points) at N = 10,000, and SVG a frame
const layers = new WeakMap();
class PixelLayer {
  constructor(ctx, fl) {
    const dpr = this.dpr = window.devicePixelRatio || 1, xa = fl.xaxis, ya = fl.yaxis;
    this.ctx = ctx;
    this.x0 = Math.floor(xa._offset * dpr); this.y0 = Math.floor(ya._offset * dpr);
    this.w = Math.max(1, Math.ceil((xa._offset + xa._length) * dpr) - this.x0);
    this.h = Math.max(1, Math.ceil((ya._offset + ya._length) * dpr) - this.y0);
    let kept = layers.get(ctx.canvas);  // the pixels and the canvas they are put on, kept for the next step
    if (!kept || kept.img.width !== this.w || kept.img.height !== this.h) {
      const cv = document.createElement("canvas");
      cv.width = this.w; cv.height = this.h;
      kept = {img: new ImageData(this.w, this.h), cv};
      layers.set(ctx.canvas, kept);
    } else kept.img.data.fill(0);
    this.kept = kept; this.d = kept.img.data;
  }
  // stamp s (stamp()) centred on the pixel of (x, y), in CSS px of the plot; each of its pixels over what is there
  add(s, x, y) {
    const d = this.d, w = this.w, h = this.h;
    const cx = Math.round(x * this.dpr - 0.5) - this.x0, cy = Math.round(y * this.dpr - 0.5) - this.y0;
    for (let j = 0; j < s.length; j += 6) {
      const u = cx + s[j], v = cy + s[j + 1];
      if (u < 0 || u >= w || v < 0 || v >= h) continue;
      const o = 4 * (v * w + u), sa = s[j + 5], da = d[o + 3];
      if (sa === 255 || !da) { d[o] = s[j + 2]; d[o + 1] = s[j + 3]; d[o + 2] = s[j + 4]; d[o + 3] = sa; continue; }
      const f = (da * (255 - sa)) / 255, oa = sa + f;  // source over destination, straight alpha
      d[o] = (s[j + 2] * sa + d[o] * f) / oa; d[o + 1] = (s[j + 3] * sa + d[o + 1] * f) / oa;
      d[o + 2] = (s[j + 4] * sa + d[o + 2] * f) / oa; d[o + 3] = oa;
    }
  }
  // the layer onto its canvas, at `opacity` (over everything drawn on the canvas before)
  draw(opacity = 1) {
    const {img, cv} = this.kept, ctx = this.ctx;
    cv.getContext("2d").putImageData(img, 0, 0);
    ctx.save();
    ctx.globalAlpha = opacity;
    ctx.drawImage(cv, this.x0 / this.dpr, this.y0 / this.dpr, this.w / this.dpr, this.h / this.dpr);
    ctx.restore();
  }
}

// rings of radius r around the points (xs, ys) (data units; px, py map them to the plot's pixels) on a canvas over a
// plot (fl), clipped to its data panel, in `colour` at `opacity` (overlapping rings are not darker: one layer). The
// count drawn is kept on the canvas (data-rings) for the tests.
function ringCanvas(cv, fl, [xs, ys], px, py, r, colour, opacity, width, shape = "circle") {
  const ctx = plotCanvas(cv, fl);
  cv.dataset.rings = String(xs.length);
  stampRings(ctx, fl, xs.length, (i) => px(xs[i]), (i) => py(ys[i]), r, colour, opacity, width, shape);
  ctx.restore();
}

// n rings of radius r (point i at x(i), y(i), in the plot's pixels) onto a plot's canvas (ctx, from plotCanvas), as
// one layer of stamps in `colour` at `opacity`, lines `width` px wide; "square" rings have sides SQUARE_SIDE r
function stampRings(ctx, fl, n, x, y, r, colour, opacity, width, shape = "circle") {
  if (!n) return;
  const ring = stamp(`ring|${r}|${width}|${colour}|${shape}`, r + width, (c) => {
    c.beginPath();
    if (shape === "square") c.rect(-SQUARE_SIDE * r / 2, -SQUARE_SIDE * r / 2, SQUARE_SIDE * r, SQUARE_SIDE * r);
    else c.arc(0, 0, r, 0, 2 * Math.PI);
    c.strokeStyle = colour; c.lineWidth = width; c.stroke();
  });
  const L = new PixelLayer(ctx, fl);
  for (let i = 0; i < n; i++) L.add(ring, x(i), y(i));
  L.draw(opacity);
}

// a circle of radius r about (x, y), px, as an SVG path's piece
const circleAt = (x, y, r) => `M${f1(x - r)},${f1(y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;

// a plot's pen (fl: its _fullLayout): data to pixels, the clip to its data panel, and the SVG pieces the step-through
// views draw (a polygon, a segment, an arrow, a path of circles), each empty where its points are
function pen(fl) {
  const xa = fl.xaxis, ya = fl.yaxis, px = (x) => xa._offset + xa.l2p(x), py = (y) => ya._offset + ya.l2p(y);
  return {
    px, py,
    clip: (id) => `<clipPath id="${id}"><rect x="${xa._offset}" y="${ya._offset}" width="${xa._length}" height="${ya._length}"/></clipPath>`,
    poly: ([xs, ys], fill) => xs.length
      ? `<path d="M${xs.map((x, i) => `${f1(px(x))},${f1(py(ys[i]))}`).join("L")}Z" fill="${fill}"/>` : "",
    seg: ([xs, ys], stroke, width, dash = "") => xs.length
      ? `<line x1="${f1(px(xs[0]))}" y1="${f1(py(ys[0]))}" x2="${f1(px(xs[1]))}" y2="${f1(py(ys[1]))}" stroke="${stroke}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash}"` : ""}/>` : "",
    arrow: ([xs, ys], stroke, width, head, cls = "") => {
      if (!xs.length) return "";
      const x0 = px(xs[0]), y0 = py(ys[0]), x1 = px(xs[1]), y1 = py(ys[1]), L = Math.hypot(x1 - x0, y1 - y0);
      if (L < 0.5) return "";
      const ux = (x1 - x0) / L, uy = (y1 - y0) / L, h = Math.min(head, 0.6 * L), bx = x1 - h * ux, by = y1 - h * uy;
      return `<line${cls ? ` class="${cls}"` : ""} x1="${f1(x0)}" y1="${f1(y0)}" x2="${f1(bx)}" y2="${f1(by)}" stroke="${stroke}" stroke-width="${width}"/>` +
        `<path d="M${f1(x1)},${f1(y1)}L${f1(bx - 0.45 * h * uy)},${f1(by + 0.45 * h * ux)}L${f1(bx + 0.45 * h * uy)},${f1(by - 0.45 * h * ux)}Z" fill="${stroke}"/>`;
    },
    circles: ([xs, ys], r) => {
      let d = "";
      for (let i = 0; i < xs.length; i++) d += circleAt(px(xs[i]), py(ys[i]), r);
      return d;
    },
  };
}

// one data panel's step (the Perceptron, hinge-SGD and Compare views): the regions under the plot, the rings
// (part ``ringId``) on its canvas, and over it the examined points, the boundary before and after, hinge SGD's
// margins and what ``extra(pen)`` adds; ``v`` is the view (its scale, hidden parts and ring sizes)
const EXAM_MANY = 24;  // more points examined at once than this (a large mini-batch): each is lit by a halo, not a disc
const examHalo = (v) => 0.5 * (v.size || 8 * v.k) + 2.5 * v.k;  // the halo's radius: the marker's and 2.5 px

// the rings' ink (M's: black, lighter where many points are) and shape: a hinge panel's (margin < 1) are square, so
// that Compare's two kinds, side by side, are told apart in any colour vision and in the exported image alike
const ringInk = (n) => (n <= 100 ? INK : "#000000");
const ringShape = (ringId) => (ringId === "hinge" ? "square" : "circle");
const SQUARE_SIDE = 1.8;  // a square ring's side, in radii of the round one (near enough the same area)

function drawPanel(v, fl, g, {under, rings, over}, id, examSize, ringId = "ring", extra = () => "", below = () => "") {
  const P = pen(fl), k = v.k, on = (part) => !v.hidden.has(part), clip = P.clip(id);
  // a large batch's points are lit by yellow halos under the points (M's rings and the points stay seen); a few by
  // discs over them
  const many = on("exam") && g.exam[0].length > EXAM_MANY;
  const halos = many ? `<path d="${P.circles(g.exam, examHalo(v))}" fill="${HIGHLIGHT}"/>` : "";
  layer(under, fl, `<defs>${clip}</defs><g clip-path="url(#${id})">${P.poly(g.regPos, REGION.pos)}${P.poly(g.regNeg, REGION.neg)}${halos}</g>`);
  ringCanvas(rings, fl, on(ringId) ? g.ring : NONE, P.px, P.py, v.ring[0] / 2, ringInk(v.m.N), v.m.N <= 100 ? 1 : 0.7, v.ring[1],
             ringShape(ringId));
  let svg = below(P);  // (under the boundaries: the Compare panel's exact SVM)
  if (on("exam") && g.exam[0].length && !many)
    svg += `<path d="${P.circles(g.exam, examSize / 2)}" fill="${HIGHLIGHT}" stroke="${HIGHLIGHT_LINE}" stroke-width="${3 * k}"/>`;
  if (on("old")) svg += P.seg(g.old, OLD_INK, 2.5 * k, `${7 * k} ${5 * k}`);
  if (on("line")) svg += P.seg(g.line, INK, 4 * k);
  if (g.margins && on("margin")) for (const ml of g.margins) svg += P.seg(ml, MARGIN_INK, 2.5 * k, `${8 * k} ${5 * k}`);  // hinge SGD's ±1
  svg += extra(P);
  layer(over, fl, `<defs>${P.clip(id + "o")}</defs><g clip-path="url(#${id}o)">${svg}</g>`);
}

// a note on the panel where the boundary w·x + b = 0 does not cross the view, the axes' ranges (a student looks for
// it): on which side of it the whole view lies, or that w = 0 draws none. Placed where it covers the fewest of the
// points X (interleaved x, y), an examined point (``exam``: [xs, ys]) counting as a thousand over its lit disc (radius
// ``examR`` px): in a corner where one is as free as anywhere (the top left first), else at the freest place, so the
// point a quiz asks about is not under it.
// {svg, box: [x0, y0, x1, y1] in px} ({svg: ""} where the boundary is in view)
function offView(fl, [w0, w1, b], k, X = null, exam = null, examR = 0) {
  const box = [...fl.xaxis.range, ...fl.yaxis.range];  // (what the plot shows: plotly.js widens a range to keep one scale)
  if (segment(box, w0, w1, b)[0].length) return {svg: "", box: null};
  const f = w0 * (box[0] + box[1]) / 2 + w1 * (box[2] + box[3]) / 2 + b, sign = f > 0 ? "> 0" : f < 0 ? "< 0" : "= 0";
  const lines = w0 === 0 && w1 === 0 ? ["w = 0: no boundary, ", `w·x + b = b ${sign} everywhere`]
    : ["the boundary w·x + b = 0 is outside the view: ", `w·x + b ${sign} all over it`];  // (two lines: a narrow panel)
  const fs = 13 * k, lh = 1.25 * fs;
  const wide = Math.max(...lines.map((t) => textWidth(t, fs))) + 2 * k, tall = fs + lh * (lines.length - 1) + 0.3 * fs;
  const [x0, y0] = quietPlace(fl, X, exam, wide, tall, 6 * k, 5 * k, examR);
  const end = x0 + wide / 2 > fl.xaxis._offset + fl.xaxis._length / 2, x = end ? x0 + wide : x0;  // (flush with its side)
  const svg = `<text class="dbls-offview" x="${f1(x)}" y="${f1(y0 + fs)}" font-family="${FONT}" font-size="${f1(fs)}" fill="${INK}" paint-order="stroke" ` +
    `stroke="white" stroke-width="${3 * k}" stroke-linejoin="round"${end ? ' text-anchor="end"' : ""}>` +
    `${lines.map((t, j) => `<tspan x="${f1(x)}" dy="${j ? f1(lh) : 0}">${esc(t)}</tspan>`).join("")}</text>`;
  return {svg, box: [x0, y0, x0 + wide, y0 + tall]};
}

// the top left [x, y] in px of a ``wide`` × ``tall`` box on the data panel, ``pad`` px inside its edges, that covers
// the fewest points (see offView; a point within ``r`` px of the box counts, an examined one within ``examR``): the
// points are tallied on a grid of 4 px cells summed as a table (each box's count in four reads), the four corners
// tried first and kept on a tie
function quietPlace(fl, X, exam, wide, tall, pad, r, examR = r) {
  const xa = fl.xaxis, ya = fl.yaxis, L = xa._offset + pad, T = ya._offset + pad;
  const W = Math.max(0, xa._length - 2 * pad - wide), H = Math.max(0, ya._length - 2 * pad - tall);
  const corners = [[L, T], [L + W, T], [L, T + H], [L + W, T + H]];
  if (!X && !exam) return corners[0];
  // (the grid covers the panel and r px around it, from X0, Y0: a point by its edge counts for a box the pad keeps off it)
  const c = 4, X0 = xa._offset - r, Y0 = ya._offset - r;
  const gw = Math.ceil((xa._length + 2 * r) / c) + 1, gh = Math.ceil((ya._length + 2 * r) / c) + 1;
  const sat = new Float64Array((gw + 1) * (gh + 1));  // sat[(j + 1)·(gw + 1) + i + 1]: the weight in cells ≤ (i, j)
  const add = (x, y, n, spread = 0) => {  // (``spread`` cells each way: a lit disc's)
    const i = Math.floor((xa._offset + xa.l2p(x) - X0) / c), j = Math.floor((ya._offset + ya.l2p(y) - Y0) / c);
    for (let b = Math.max(0, j - spread); b <= Math.min(gh - 1, j + spread); b++)
      for (let a = Math.max(0, i - spread); a <= Math.min(gw - 1, i + spread); a++) sat[(b + 1) * (gw + 1) + a + 1] += n;
  };
  if (X) for (let i = 0; i + 1 < X.length; i += 2) add(X[i], X[i + 1], 1);
  const lit = Math.max(0, Math.ceil((examR - r) / c));  // (a box within r of the disc's edge counts it)
  if (exam) exam[0].forEach((x, i) => add(x, exam[1][i], 1000, lit));
  for (let j = 1; j <= gh; j++) for (let i = 1; i <= gw; i++)
    sat[j * (gw + 1) + i] += sat[(j - 1) * (gw + 1) + i] + sat[j * (gw + 1) + i - 1] - sat[(j - 1) * (gw + 1) + i - 1];
  const at = (i, j) => sat[Math.max(0, Math.min(gh, j)) * (gw + 1) + Math.max(0, Math.min(gw, i))];
  const count = ([x, y]) => {  // the cells within r of the box
    const i0 = Math.floor((x - r - X0) / c), j0 = Math.floor((y - r - Y0) / c);
    const i1 = Math.ceil((x + wide + r - X0) / c), j1 = Math.ceil((y + tall + r - Y0) / c);
    return at(i1, j1) - at(i0, j1) - at(i1, j0) + at(i0, j0);
  };
  let best = corners[0], least = count(best);
  for (const p of corners.slice(1)) { const n = count(p); if (n < least) { best = p; least = n; } }
  for (let y = T; y <= T + H && least > 0; y += c) for (let x = L; x <= L + W && least > 0; x += c) {
    const n = count([x, y]);
    if (n < least) { best = [x, y]; least = n; }
  }
  return best;
}

// how many of the points X (interleaved x, y; point ``heavy`` counting ``weight``) lie within ``r`` px of each box
// [x0, y0, x1, y1] (px on fl's axes, as the step's layers draw): where a tag stands clear of them (DualView's)
function pointsUnder(fl, X, boxes, r, heavy = -1, weight = 1) {
  const xa = fl.xaxis, ya = fl.yaxis, n = boxes.map(() => 0);
  for (let i = 0; 2 * i + 1 < X.length; i++) {
    const px = xa._offset + xa.l2p(X[2 * i]), py = ya._offset + ya.l2p(X[2 * i + 1]), w = i === heavy ? weight : 1;
    boxes.forEach(([x0, y0, x1, y1], c) => { if (px > x0 - r && px < x1 + r && py > y0 - r && py < y1 + r) n[c] += w; });
  }
  return n;
}

// the held heights (the words, the state line…): ``el`` keeps, as its least height, the tallest it takes showing what it
// shows now or any of ``htmls`` (each put in and measured in place, at its width now), ``floor`` px at least; what it
// shows is put back
function holdTallest(el, htmls, floor = 0) {
  const now = el.innerHTML;
  el.style.minHeight = "";
  let tall = el.offsetHeight;
  for (const h of htmls) { el.innerHTML = h; tall = Math.max(tall, el.offsetHeight); }
  el.innerHTML = now;
  el.style.minHeight = `${Math.max(tall, floor)}px`;
}

// of a run of S steps, the ``text(s)`` (HTML) likely to stand tallest: those of the steps ``fixed``, and the ``n``
// longest distinct ones in plain characters of at most WORDS_SAMPLE steps spread evenly over 0..S (every step of a
// shorter run); what holdTallest then measures in place, a few layouts rather than one a step
const WORDS_SAMPLE = 48;  // (a Perceptron step's words take 60–90 µs to write at N = 2,000)

function tallestTexts(S, text, fixed = [], n = 3) {
  const out = new Set(fixed.filter((s) => s >= 0 && s <= S).map((s) => text(s))), sample = [];
  const stride = Math.max(1, Math.ceil((S + 1) / WORDS_SAMPLE));
  for (let s = 0; s <= S; s += stride) sample.push(text(s));
  for (const t of longestOf(sample, n)) out.add(t);
  return [...out];
}

// the ``n`` longest distinct texts of ``list``: plain characters, a line break counted as a line's worth (a state line
// repeats from one step to the next; a verdict is a line of its own)
function longestOf(list, n) {
  const size = (t) => t.replace(/<br\s*\/?>/gi, " ".repeat(60)).replace(/<[^>]*>/g, "").length;
  return [...new Set(list)].map((t) => [size(t), t]).sort((a, b) => b[0] - a[0]).slice(0, n).map(([, t]) => t);
}

// the held texts of every run of a record (each τ's, each η's), then the longest few of them all, kept on the scene:
// what a view holds once known, so that moving τ (or η) to another run of the record leaves the words' height as it
// was (it grew by 25 px from τ = 1 to τ = 0.01 on the textbook's points at 1024×768). ``models``: a model of each run,
// made when its turn comes; ``texts(m)``: a run's held texts. Written now while they take under HELD_NOW_MS (a few
// points' runs: all of them), the rest in the browser's idle time a run at a time, and then ``done()`` is called;
// null until then
const HELD_ALL = 8, HELD_NOW_MS = 12;

function heldForAll(scene, models, texts, done) {
  if (scene.__dblHeldAll || scene.__dblHeldAsked || models.length < 2) return scene.__dblHeldAll || null;
  scene.__dblHeldAsked = true;
  const idle = window.requestIdleCallback ? (f) => window.requestIdleCallback(f, {timeout: 400}) : (f) => setTimeout(f, 30);
  const words = [], states = [], t0 = performance.now();
  let j = 0;
  const one = () => {
    try { const t = texts(models[j]()); words.push(...t.words); states.push(...t.states); } catch (e) { /* (none) */ }
    j++;
  };
  const finish = () => (scene.__dblHeldAll = {words: longestOf(words, HELD_ALL), states: longestOf(states, HELD_ALL)});
  while (j < models.length && performance.now() - t0 < HELD_NOW_MS) one();
  if (j >= models.length) return finish();
  const next = () => {
    if (j < models.length) { one(); idle(next); return; }
    finish();
    done();
  };
  idle(next);
  return null;
}

// the largest side in [lo, hi] for which ``fits(side)`` holds: hi where it does (or where hi < lo), else found by
// halving to within 4 px; lo where none does
function largestFitting(lo, hi, fits) {
  if (hi <= lo || fits(hi)) return hi;
  while (hi - lo > 4) { const mid = Math.floor((lo + hi) / 2); if (fits(mid)) lo = mid; else hi = mid; }
  return lo;
}

// a point's name, place and label, as the step's words write them: "x₅ = (−0.627, 0.685), y = −1"
const pointName = (m, i) => `x${sub(i + 1)} = ${vec([m.X[2 * i], m.X[2 * i + 1]])}, y = ${m.y[i] > 0 ? "+1" : "−1"}`;

// whether a hovered point is in the ringed set of the state shown, in words: M (y·(w·x + b) ≤ 0, or < 0 under the
// "negative" rule), or for a hinge run the points whose hinge is active (the margin under 1)
function ringWords(inSet, hinge = false, negative = false) {
  if (hinge) return inSet ? "hinge active: y·(w·x + b) < 1" : "no hinge loss: y·(w·x + b) ≥ 1";
  return inSet ? `in M: y·(w·x + b) ${negative ? "<" : "≤"} 0` : `classified right: y·(w·x + b) ${negative ? "≥" : ">"} 0`;
}

// the label ``html`` shown by point i of X (interleaved x, y) on fl's plot: above right of it, below where the plot's
// top is too near, kept within the plot's width (Stepping.drawTip, CompareView.drawPanelTip, SvmView.hover)
function placeTip(tip, fl, X, i, html) {
  const x = fl.xaxis._offset + fl.xaxis.l2p(X[2 * i]), y = fl.yaxis._offset + fl.yaxis.l2p(X[2 * i + 1]);
  tip.innerHTML = html;
  tip.hidden = false;
  // (no wider than the plot, wrapped where it would be: past the plot's edge it lay over the next panel)
  const most = Math.max(160, fl.width - 8);
  tip.style.maxWidth = `${most}px`;
  tip.style.whiteSpace = "";
  if (tip.scrollWidth > most) tip.style.whiteSpace = "normal";
  const h = tip.offsetHeight;
  tip.style.left = `${Math.max(0, Math.min(x + 12, fl.width - tip.offsetWidth))}px`;
  tip.style.top = `${y - h - 10 >= 0 ? y - h - 10 : y + 14}px`;
}

const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const f1 = (v) => (Math.round(v * 10) / 10).toString();

// what a presentation-mode panel's cut is kept for (PerceptronView.fitSide): the chart's width and the window's height
const sideKey = (width) => `${width}x${window.innerHeight}`;

// where an element's top is on the page scrolled to its top: Streamlit scrolls its main column in a box of its own,
// not the window, so a chart redrawn after the page was scrolled (a control below it moved) is measured from there
function pageTop(el) {
  return scrollers(el).reduce((top, p) => top + p.scrollTop, el.getBoundingClientRect().top + window.scrollY);
}

// the elements that scroll around ``el`` (Streamlit's main column among them), innermost first
function scrollers(el) {
  const out = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === "auto" || o === "scroll") && p.scrollHeight > p.clientHeight) out.push(p);
  }
  return out;
}

const FIT_PAD = 8, MIN_PLOT = 100;  // px: what a presentation-mode chart leaves under it; the least plot lossdata.js makes

// presentation mode: the height a figure may take below its top (the whole window for one further down than 45 % of
// it: it is scrolled to), less ``pad`` px (FigureView.fitted, LossDataView.sizes)
function windowRoom(el, pad) {
  const top = pageTop(el), H = window.innerHeight;
  return (top <= 0.45 * H ? H - top : H) - pad;
}

// what every view does alike: step, play and pause over its model's stops (m.nStops), and the room a
// presentation-mode chart has in the window
class Stepping {
  // what every view holds: its root, model and plotly.js; the elements every shell has; the parts hidden in the legend
  // (kept on the root, so a new run keeps them; ``hidden`` the first time)
  constructor(root, model, Plotly, scene, hidden = []) {
    this.root = root; this.m = model; this.Plotly = Plotly; this.scene = scene;
    this.k = model.h.view.scale || 1;
    root.classList.toggle("dbls-big", this.k > 1);  // (presentation mode: its slider shorter, glue/scene_chart.py)
    const q = (c) => root.querySelector(c);
    this.text = q(".dbls-text"); this.plot = q(".dbls-plot"); this.over = q(".dbls-over");
    this.legendEl = q(".dbls-legend"); this.stateEl = q(".dbls-state"); this.live = q(".dbls-live");
    this.range = q(".dbls-range"); this.label = q(".dbls-at");
    this.hidden = root.__dblHidden || (root.__dblHidden = new Set(hidden));
    this.i = 0;
    this.timer = null;
  }

  get step() { return this.m.stepAt(this.i); }

  // where the chart stands, for a copied link and a file's name: the step (the SVM: its C; null: nothing moves)
  position() { return {prefix: "Step ", label: String(this.step), step: String(this.step)}; }

  // the data panel (its points), drawn again only when what it shows changed: a new run on the same points keeps it;
  // its meta (read by tests and exports) is the new run's either way
  async drawData(old, width, height) {
    const m = this.m, h = m.h, bytes = (a) => fingerprint(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    // (what the panel's plotly.js traces show: the points, R and γ, the hinge-SGD tab's exact SVM)
    const key = JSON.stringify([h.box, h.bound ?? null, h.exact ?? null, h.view.scale, h.view.axes, width, height, m.X.length,
                                bytes(m.X), bytes(m.y)]);
    const layout = this.mainLayout(width, height);
    if (!old || old.mainKey !== key || !this.plot._fullLayout) await this.Plotly.react(this.plot, this.mainTraces(), layout, CONFIG);
    else this.plot.layout.meta = layout.meta;  // not drawn: a relayout would redraw every point
    this.mainKey = key;
  }

  // the legend: ours, in HTML, so it never lies over the plot; a click on an entry hides or shows that part
  legendButtons() { return this.legendItems(); }  // the entries the legend shows (legendItems also names traces)
  drawLegend() { this.legendEl.innerHTML = this.legendHTML(); }
  legendHTML(items = this.legendButtons()) {
    return items.map(([id, label, svg]) =>
      `<button type="button" data-part="${id}" aria-pressed="${!this.hidden.has(id)}" title="Show or hide: ${esc(label)}">` +
      `<svg width="18" height="18" aria-hidden="true">${svg}</svg><span>${esc(label)}</span></button>`).join("");
  }
  // which legend parts are plotly.js traces of the data panel(s), by trace index (the rest is drawn by drawStep)
  traceParts() { return {pos: 0, neg: 1}; }
  toggle(id) {
    if (this.hidden.has(id)) this.hidden.delete(id); else this.hidden.add(id);
    this.drawLegend();
    const t = this.traceParts()[id];
    if (t === undefined) { this.drawStep(); return; }
    for (const gd of this.plots || [this.plot]) if (t < gd.data.length) this.Plotly.restyle(gd, {visible: !this.hidden.has(id)}, [t]);
  }

  // the sizes laid out, and where they were made for in presentation mode: the chart's top and the window's height
  // (resized() compares them; a fit that only shrinks the chart leaves them, so a later move is still seen)
  get sz() { return this._sz; }
  set sz(v) {
    this._sz = v;
    this.sizedFor = v && this.k > 1 ? [this.topNow(), window.innerHeight] : null;
  }

  // the view's step changes move with each step: is the window another width, or (presentation mode) has the chart's
  // top or the window's height changed, and with them the room under it? (then its new sizes, laid out)
  resized() {
    const sz = this.sizes(), at = this.sizedFor;
    const moved = Boolean(at) && (Math.abs(this.topNow() - at[0]) > 2 || Math.abs(window.innerHeight - at[1]) > 2);
    if (this.sz && Math.abs(sz.width - this.sz.width) < 2 && !moved) return null;
    this.sz = sz;
    this.layoutClasses(sz);
    return sz;
  }

  // once drawn: the plot knows its view (the page's keys and exports find it there), the layers follow the plot
  // when it is drawn again (resize, legend), and the step is shown
  attach() {
    this.plot.__dbl = this;
    if (!this.plot.__dblHooked) {
      this.plot.__dblHooked = true;
      this.plot.on("plotly_afterplot", () => this.root.__dblView && this.root.__dblView.drawStep());
    }
    this.hookHover();
    const tip = this.root.querySelector(".dbls-tip");
    if (tip) tip.hidden = true;  // (a new record's view: the last one's label goes, the pointer's next move brings it)
    this.show(this.i);
  }

  // a point hovered: the view's own label (tipFor(i), HTML) over the step's layers, where the shell has a place for it
  // (.dbls-tip). plotly.js's label lay under those layers and wrote the coordinates unrounded; the views whose points
  // plotly.js knows hover them with hoverinfo "none" (its events still come). Hooked once a plot
  hookHover() {
    if (this.plot.__dblHover || !this.root.querySelector(".dbls-tip")) return;
    this.plot.__dblHover = true;
    this.plot.on("plotly_hover", (ev) => this.root.__dblView && this.root.__dblView.hover(ev));
    this.plot.on("plotly_unhover", () => this.root.__dblView && this.root.__dblView.hover(null));
  }
  hover(ev) {
    const p = ev && ev.points && ev.points[0];
    this.tipAt = p ? this.pointOf(p) : null;
    this.drawTip();
  }
  // the hovered point's label, for the step shown (show() writes it again as the step moves under a resting pointer)
  drawTip() {
    const tip = this.root.querySelector(".dbls-tip"), fl = this.plot._fullLayout, i = this.tipAt ?? null;
    if (!tip) return;
    if (i === null || !fl || !fl.xaxis) { tip.hidden = true; return; }
    placeTip(tip, fl, this.m.X, i, this.tipFor(i));
  }
  // the point a hover names (the points' traces carry i + 1), or null
  pointOf(p) { return Number.isInteger(p.customdata) && p.customdata >= 1 && p.customdata <= this.m.N ? p.customdata - 1 : null; }
  tipFor(i) { return pointName(this.m, i); }

  // what the words and the state line are held at: run m's texts (``textsOf(m)``, written once per run of the record,
  // under ``heldKey(m)``: a τ or η moved back takes them as they were) and, once known, the longest of every run's
  // (heldForAll over ``runModels()``), so that moving τ or η keeps the words' height; ``again(view)`` holds anew once
  // those are known (the view then showing this record). ``final``: whether that is all there is to hold (every run's
  // known, or a record of one run that is not a partial one, whose other runs are to come)
  heldTexts(again) {
    const kept = this.scene.__dblHeld || (this.scene.__dblHeld = new Map());
    const own = (m) => {
      const key = this.heldKey(m);
      if (!kept.has(key)) kept.set(key, this.textsOf(m));
      return kept.get(key);
    };
    const all = again ? heldForAll(this.scene, this.runModels(), own, () => {
      const v = this.root.__dblView;
      if (v && v.scene === this.scene) again(v);
    }) : null;
    const mine = own(this.m);
    if (all) return {words: [...mine.words, ...all.words], states: [...mine.states, ...all.states], final: true};
    return {...mine, final: !this.m.h.partial && this.runModels().length < 2};
  }

  // one step on screen: the view's drawing (geometry, drawStep), the words, the controls
  show(i) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.nStops - 1, i));
    const step = this.step;
    this.g = this.geometry(step);
    this.drawStep();
    this.text.innerHTML = m.describe(step);
    showLesson(this, step);
    const line = m.stateLine(step);
    this.stateEl.textContent = line;
    this.range.value = String(this.i);
    this.label.textContent = `Step ${grouped(step)} of ${grouped(m.S)}`;
    this.root.dataset.step = String(step);
    if (this.live) this.live.textContent = `Step ${grouped(step)} of ${grouped(m.S)}: ${line}`;
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.nStops - 1;
    if (this.tipAt !== undefined && this.tipAt !== null) this.drawTip();
  }

  // PNG or SVG of the chart as it stands, with the step's arithmetic and state line written above it
  image(format, filename) {
    const fig = this.figure();
    return this.Plotly.downloadImage(fig, {format, filename, width: fig.layout.width, height: fig.layout.height,
                                           scale: format === "png" ? 2 : 1});
  }

  go(delta) { this.pause(); this.show(this.i + delta); }
  key(name) {  // (the page's keys: glue/chart_tools.py)
    this.root.__dblWorked = performance.now();
    const last = this.m.nStops - 1;
    const i = {ArrowLeft: this.i - 1, ArrowRight: this.i + 1, Home: 0, End: last}[name];
    if (i === undefined) return false;
    this.pause();
    this.show(i);
    return true;
  }
  // Fast ▶▶'s pace, [ms a tick, steps a tick]: a step every SPEEDS.fast ms on a short run; on a longer one as many
  // as cross it in FAST_RUN_MS, a step a frame (FRAME_MS) at most, then several steps a frame (a 1,000-step run takes
  // 33 s, not 2 minutes; 100,000 steps about 30 s)
  fastPace() {
    const n = Math.max(1, this.m.nStops - 1), stride = Math.max(1, Math.ceil((n * FRAME_MS) / FAST_RUN_MS));
    return [Math.round(Math.max(FRAME_MS, Math.min(SPEEDS.fast, (FAST_RUN_MS * stride) / n))), stride];
  }
  play(ms, stride = 1) {
    this.pause();
    if (this.i >= this.m.nStops - 1) this.show(0);
    this.pace = [ms, stride];
    this.timer = setInterval(() => {
      if (this.i >= this.m.nStops - 1) return this.pause();
      this.show(Math.min(this.m.nStops - 1, this.i + stride));
    }, ms);
    this.root.classList.add("dbls-playing");
  }
  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.root.classList.remove("dbls-playing");
  }

  // presentation mode: the height left in the window below the chart's top (counted as at most 45 % of the
  // window, so a chart far down a page is not squeezed to nothing) less ``below`` px, and less ``edge`` px at the
  // window's bottom (a focused control's ring is drawn outside it: a slide ending on the window's edge cut it)
  room(below, edge = EDGE) { return Math.round(window.innerHeight - this.topNow() - below - edge); }

  // presentation mode's slide of panels side by side (the SVM's; the Dual's fits its words too: DualView.fit), once
  // drawn: the side ``main`` px of the panels gives up what the window lacks for what lies under the row of ``els``
  // (the lesson aside), down to ``least``; null where it all fits
  fittedSide(els, main, least) {
    const row = Math.max(...els.map((e) => e.getBoundingClientRect().bottom));
    const S = Math.max(least, Math.min(main, this.room(this.root.getBoundingClientRect().bottom - row - lessonHeight(this.root) + 4)));
    return S >= main - 2 ? null : S;
  }
  topNow() { return Math.round(Math.min(Math.max(0, pageTop(this.root)), 0.45 * window.innerHeight)); }
}

// the views of several equal panels (Compare, the Loss surface): each plot W × H; what lies around them (titles,
// words, legend, controls, as they wrapped) is measured once drawn (aroundNow()) and the panels sized again to it
class Panels extends Stepping {
  sizePanels(sz) { return Promise.all(this.plots.map((gd) => this.Plotly.relayout(gd, {width: sz.W, height: sz.H}))); }
  resize() {
    const sz = this.resized();
    // (at another width what lies around the panels wraps anew: measured again once they are sized, as at mount. A
    // page's first drawing can be at another width than its last: a scroll bar of the page there while it was built)
    if (sz) this.sizePanels(sz).then(() => this.fit()).then(() => this.drawStep());
    // (at the same width what lies around them may have wrapped anew, a font come in meanwhile: measured again)
    else if (this.sz) this.fit().then((moved) => moved && this.drawStep());
  }
  // (true where the panels were sized again)
  async fit() {
    if (this.root.__dblView !== this || !this.root.offsetWidth) return false;  // (a newer record's view, or hidden: not measured)
    this.around = Math.max(0, this.aroundNow());
    const sz = this.sizes();
    if (Math.abs(sz.H - this.sz.H) <= 2) return false;
    this.sz = sz;
    this.layoutClasses(sz);
    await this.sizePanels(sz);
    return true;
  }
}

class PerceptronView extends Stepping {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene, ["R", "gamma"]);
    this.stripEl = root.querySelector(".dbls-strip-plot");
    this.under = root.querySelector(".dbls-under"); this.stripOver = root.querySelector(".dbls-strip-over");
    this.ringsEl = root.querySelector(".dbls-rings");
    const N = model.N, k = this.k;
    const size = N <= 100 ? 12 : N <= 400 ? 9 : N <= 1000 ? 7 : N <= 3000 ? 5 : 4;
    this.size = size * k;  // markers shrink as points crowd, so rings mark M without burying the classes
    this.ring = (N <= 100 ? [2 * size, 2.5] : N <= 400 ? [size + 7, 1.5] : N <= 1000 ? [size + 5, 1.3] : [size + 3, 1.0])
      .map((v) => v * k);
    this.examSize = Math.max(26, 2 * size + 8) * k;
  }

  // ----- what a step shows, decided once: the geometry both the live layer and an exported image draw
  geometry(step) {
    const m = this.m, k = m.stateOf(step);
    const upd = m.updated(step, k);
    const kp = step && k && m.US[k - 1] === step ? k - 1 : k;
    const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];  // lines reach past the view
    const [w0, w1] = m.w(k), b = m.B[k];
    m.goState(k);
    let cnt = 0;
    for (let i = 0; i < m.N; i++) cnt += m.mask[i];
    const rx = new Float64Array(cnt), ry = new Float64Array(cnt);
    for (let i = 0, j = 0; i < m.N; i++) if (m.mask[i]) { rx[j] = m.X[2 * i]; ry[j++] = m.X[2 * i + 1]; }
    const ex = m.run.variant === "batch" ? [] : m.examined(step);
    const P = m.P, s = m.scale;
    const arrow = (a, z) => [[P[0] + s * a[0], P[0] + s * z[0]], [P[1] + s * a[1], P[1] + s * z[1]]];
    const g = {
      regPos: region(clip, w0, w1, b, 1), regNeg: region(clip, w0, w1, b, -1), ring: [rx, ry],
      exam: [ex.map((i) => m.X[2 * i]), ex.map((i) => m.X[2 * i + 1])],
      old: NONE, line: segment(clip, w0, w1, b), wOld: NONE, w: (w0 || w1) ? arrow([0, 0], [w0, w1]) : NONE, upd: NONE,
      step, updated: upd, wb: [w0, w1, b],
    };
    if (kp !== k) {
      const [p0, p1] = m.w(kp);
      g.old = segment(clip, p0, p1, m.B[kp]);
      if (p0 || p1) g.wOld = arrow([0, 0], [p0, p1]);
      g.upd = arrow([p0, p1], [w0, w1]);  // τ·y·x (or the batch step) from the old tip of w to the new one
    }
    return g;
  }

  // ----- the legend: ours, in HTML, so it never lies over the plot and a click hides a part
  legendItems() {
    const m = this.m, r = m.run, bd = m.h.bound;
    const updName = r.variant === "cyclic" || r.variant === "random" ? "update τ·y·x" : `update ${m.stepCoef()[0]} Σ yᵢxᵢ over M`;
    const items = [
      ["exam", "examined this step", `<circle cx="9" cy="9" r="7" fill="${HIGHLIGHT}" stroke="${HIGHLIGHT_LINE}" stroke-width="2"/>`],
      ["pos", "y = +1", `<circle cx="9" cy="9" r="5" fill="${POS}"/>`],
      ["neg", "y = −1", `<path d="M9 3 L15 9 L9 15 L3 9 Z" fill="${NEG}"/>`],
      ["ring", "M: misclassified", `<circle cx="9" cy="9" r="6.5" fill="none" stroke="${INK}" stroke-width="2"/>`],
      ["line", "boundary w·x + b = 0", `<line x1="1" y1="9" x2="17" y2="9" stroke="${INK}" stroke-width="4"/>`],
      ["old", "previous boundary", `<line x1="1" y1="9" x2="17" y2="9" stroke="${OLD_INK}" stroke-width="2.5" stroke-dasharray="4 3"/>`],
      ["w", m.scale === 1 ? "w" : `w (drawn ×${m.scale >= 100 ? grouped(fixed(m.scale, 0)) : general(m.scale, 2)})`, `<line x1="1" y1="13" x2="15" y2="5" stroke="${INK}" stroke-width="3"/>`],
      ["upd", updName, `<line x1="1" y1="13" x2="15" y2="5" stroke="${UPDATE}" stroke-width="3"/>`],
    ];
    if (bd) {
      items.push(["R", `R = ${num(bd.R)}: the data's radius${bd.fit_intercept ? " (of (x, 1))" : ""}`,
                  `<circle cx="9" cy="9" r="7" fill="none" stroke="${PURPLE}" stroke-width="2" stroke-dasharray="2 2"/>`]);
      items.push(["gamma", `γ = ${num(bd.gamma)}: max-margin lines w̃·x̃ = ±γ`,
                  `<line x1="1" y1="6" x2="17" y2="6" stroke="${PURPLE}" stroke-width="2" stroke-dasharray="4 3"/><line x1="1" y1="13" x2="17" y2="13" stroke="${PURPLE}" stroke-width="2" stroke-dasharray="4 3"/>`]);
    }
    return items;
  }

  traceParts() { return {pos: 0, neg: 1, R: 2, gamma: 3}; }

  // a hovered point's label: its name and place, and whether it is in M of the state shown, as the core judged it
  tipFor(i) {
    const m = this.m, step = this.step;
    m.goState(m.stateOf(step));
    return `${pointName(m, i)}<br>${ringWords(m.mask[i], false, m.negative)} after step ${grouped(step)}`;
  }

  // ----- plotly.js: the points (and R, γ) in the data panel; the curves in the strip
  mainTraces() {
    const m = this.m, N = m.N, size = this.size;
    const pts = (sign, name, colour, symbol, id) => {
      const idx = [];
      for (let i = 0; i < N; i++) if (m.y[i] === sign) idx.push(i);
      return {type: N > GL_POINTS ? "scattergl" : "scatter", name, mode: "markers", x: idx.map((i) => m.X[2 * i]), y: idx.map((i) => m.X[2 * i + 1]),
              customdata: idx.map((i) => i + 1), visible: !this.hidden.has(id),
              marker: {color: colour, symbol, size: size + (symbol === "diamond" ? 1 : 0),
                       line: {color: "white", width: size > 6 ? 1 : 0.5}},
              hoverinfo: "none"};  // (hovered: the view's label, Stepping.hover)
    };
    const data = [pts(1, "y = +1", POS, "circle", "pos"), pts(-1, "y = −1", NEG, "diamond", "neg")];
    const bd = m.h.bound, k = this.k;
    if (bd) {  // R as a circle and the γ band of the max-margin separator, hidden until picked in the legend
      const rad = bd.fit_intercept ? Math.sqrt(Math.max(bd.R * bd.R - 1, 0)) : bd.R;
      const cx = [], cy = [];
      for (let t = 0; t <= 120; t++) { cx.push(rad * Math.cos((2 * Math.PI * t) / 120)); cy.push(rad * Math.sin((2 * Math.PI * t) / 120)); }
      const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
      const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
      const bx = [], by = [];
      for (const off of [bd.gamma, -bd.gamma]) {
        const [lx, ly] = segment(clip, bd.w[0], bd.w[1], bd.b - off);
        bx.push(...lx, null); by.push(...ly, null);
      }
      data.push({type: "scatter", mode: "lines", name: this.legendItems().find((e) => e[0] === "R")[1], x: cx, y: cy,
                 hoverinfo: "skip", visible: !this.hidden.has("R"), line: {color: PURPLE, width: 2 * k, dash: "dot"}});
      data.push({type: "scatter", mode: "lines", name: this.legendItems().find((e) => e[0] === "gamma")[1], x: bx, y: by,
                 hoverinfo: "skip", visible: !this.hidden.has("gamma"), line: {color: PURPLE, width: 2 * k, dash: "dash"}});
    }
    return data;
  }

  axis(extra) {
    const k = this.k;
    return {gridcolor: "#e6e6e6", zeroline: true, zerolinecolor: "#bbbbbb", tickfont: {size: 14 * k, color: "#333"},
            fixedrange: true, showline: true, linecolor: "#999", mirror: true, ...extra};
  }

  mainLayout(width, height) {
    const m = this.m, k = this.k, box = m.box;
    const title = (t) => ({text: t, standoff: 4, font: {size: 17 * k, color: "#333"}});
    return {
      width, height, autosize: false, dragmode: false, hovermode: "closest", showlegend: false,
      font: {family: FONT, size: 16 * k, color: INK}, margin: {l: Math.round(56 * k), r: 8, t: 6, b: Math.round(46 * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      meta: {view: "perceptron", variant: m.run.variant, tau: m.run.tau, n_points: m.N, n_steps: m.S, n_updates: m.K,
             converged: m.run.converged, vector_scale: m.scale},
      xaxis: this.axis({range: [box[0], box[1]], title: title(this.m.h.view.axes?.[0] ?? "x₁")}),
      yaxis: this.axis({range: [box[2], box[3]], title: title(this.m.h.view.axes?.[1] ?? "x₂"), scaleanchor: "x",
                        scaleratio: 1}),
    };
  }

  stripTraces() {
    const m = this.m, k = this.k;
    const sx = [0], se = [m.errors[0]], sl = [m.loss[0]];  // |M| and the loss of each state, as steps over 0..S
    for (let j = 0; j < m.K; j++) { sx.push(m.US[j]); se.push(m.errors[j + 1]); sl.push(m.loss[j + 1]); }
    sx.push(m.S); se.push(m.errors[m.K]); sl.push(m.loss[m.K]);
    return [
      {type: "scatter", name: "|M| (left axis)", mode: "lines", x: sx, y: se, line: {color: POS, width: 2.5 * k, shape: "hv"},
       hovertemplate: "step %{x}: |M| = %{y}<extra></extra>"},
      {type: "scatter", name: "perceptron loss (right axis)", mode: "lines", x: sx, y: sl, yaxis: "y2",
       line: {color: NEG, width: 2.5 * k, shape: "hv", dash: "dash"}, hovertemplate: "step %{x}: loss = %{y:.3f}<extra></extra>"},
    ];
  }

  stripLayout(width) {
    const m = this.m, k = this.k;
    let emax = 1, lmax = 0;
    for (let j = 0; j <= m.K; j++) { emax = Math.max(emax, m.errors[j]); lmax = Math.max(lmax, m.loss[j]); }
    const tick = {size: 13 * k, color: "#333"}, l = Math.round(56 * k), r = Math.round(58 * k);
    // the right end padded by half the last step's number at least (a narrow strip: at 1024×768 in presentation mode
    // "1000" under the plot's end met the loss axis's "0" beside it, and read "10000")
    const half = 0.3 * tick.size * String(Math.max(m.S, 1)).length + 2, plotW = Math.max(width - l - r - 2 * half, 50);
    const end = Math.max(0.015 * m.S, (Math.max(m.S, 1) + 1) * half / plotW);
    return {
      width, height: (this.sz && this.sz.stripH) || Math.round(118 * k), autosize: false, dragmode: false, hovermode: "x", showlegend: false,
      font: {family: FONT, size: 14 * k, color: INK}, margin: {l, r, t: 4, b: Math.round(38 * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      // (the ends padded, and the y labels stood off the axes: the corner labels and the curves' ends do not meet)
      xaxis: {title: {text: "step", standoff: 2, font: {size: 15 * k, color: "#333"}}, tickfont: tick, gridcolor: "#eeeeee",
              range: [-0.5 - 0.015 * m.S, Math.max(m.S, 1) + 0.5 + end], fixedrange: true, ...(m.S <= 12 ? {dtick: 1} : {})},
      yaxis: {title: {text: "|M|", font: {color: POS, size: 15 * k}}, tickfont: tick, range: [0, emax * 1.08],
              gridcolor: "#eeeeee", fixedrange: true, nticks: 4, ticklabelstandoff: Math.round(4 * k)},
      yaxis2: {overlaying: "y", side: "right", title: {text: "loss", font: {color: NEG, size: 15 * k}},
               range: [0, (lmax || 1) * 1.08], showgrid: false, fixedrange: true, tickmode: "auto", nticks: 4, tickformat: ".2~g", tickfont: tick,
               ticklabelstandoff: Math.round(4 * k)},
    };
  }

  // ----- sizes: the data panel is square; the legend beside it when there is room, under it when not;
  // in presentation mode on a wide enough screen a slide: the panel left, the step's words, the legend and the
  // strip right, the state line and the controls under both, all within the window below the chart's top
  sizes() {
    const k = this.k, width = Math.max(this.root.clientWidth || 800, 320);
    if (k > 1 && width >= 640) {
      const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
      const below = Math.round(2 * 1.45 * fs + 3.2 * fs + 12);  // the state line (two lines) and a row of controls
      const cut = this.sideCut && this.sideCut.at === sideKey(width) ? this.sideCut.by : 0;  // (fitSide)
      const S = Math.max(280, Math.min(Math.min(this.room(below + cut), this.m.h.view.height), Math.round(width * 0.6)));
      return {wide: false, side: true, width, legendW: 0, mainW: S, mainH: S, stripW: width - S - GAP};
    }
    const wide = width >= 760 + 240 * (k - 1);
    const legendW = wide ? Math.round(Math.min(270 * k, width * 0.3)) : 0;
    const budget = Math.min(this.m.h.view.height, k > 1 ? this.room((4.3 * 17 + 95) * k) : Infinity) - Math.round(118 * k);
    const mainW = width - legendW, square = mainW - Math.round(56 * k) - 8 + 6 + Math.round(46 * k);  // a square panel
    return {wide, side: false, width, legendW, mainW, mainH: Math.max(300, Math.min(budget, square)), stripW: width};
  }

  // the presentation layout: the strip takes what the words and the legend leave of the panel's height
  fitStrip(sz) {
    if (!sz.side) return;
    const fs = parseFloat(getComputedStyle(this.text).fontSize) || 16;
    sz.stripH = Math.max(Math.round(80 * this.k), sz.mainH - this.legendEl.offsetHeight - Math.round(4.3 * 1.45 * fs) - 4);
  }

  layoutClasses(sz) {
    this.root.classList.toggle("dbls-wide", sz.wide);
    this.root.classList.toggle("dbls-side", sz.side);
    this.root.style.setProperty("--dbls-s", `${sz.mainW}px`);
    this.legendEl.style.width = sz.wide ? `${sz.legendW}px` : "";
  }

  // presentation mode, side by side: where the words, the legend and the strip beside the panel run past it (long
  // words or legend wrap in a narrow column: a step's words may be longer than the last's) and so push the controls
  // out of the window, the panel gives up that much more room, for this width and window height (sizes(); a new
  // record of the chart keeps it). Measured once drawn and whenever the words or the legend change height: the cut
  // only grows, so it settles after the longest words seen.
  async fitSide() {
    const sz = this.sz, ctl = this.root.querySelector(".dbls-controls");
    if (!sz || !sz.side || !ctl || this.root.__dblView !== this || !this.root.offsetHeight) return;  // (hidden: no sizes)
    const at = sideKey(sz.width), before = this.sideCut && this.sideCut.at === at ? this.sideCut.by : 0;
    const over = Math.round(ctl.getBoundingClientRect().bottom - this.root.getBoundingClientRect().top - this.room(0));
    if (over <= 2 || sz.mainH <= 280) return;
    this.sideCut = {at, by: before + over};
    Object.assign(this.sz, this.sizes());
    this.layoutClasses(this.sz);
    this.fitStrip(this.sz);
    await this.Plotly.relayout(this.plot, {width: this.sz.mainW, height: this.sz.mainH});
    if (this.root.__dblView !== this) return;
    await this.Plotly.relayout(this.stripEl, {width: this.sz.stripW, height: this.stripLayout(this.sz.stripW).height});
    if (this.root.__dblView === this) this.drawStep();
  }

  // fitSide whenever the words or the legend beside the panel, or the state line under it, change height (at most once
  // a frame)
  watchSide() {
    if (!window.ResizeObserver || this.sideWatch || !this.sz || !this.sz.side) return;
    let queued = false;
    this.sideWatch = new ResizeObserver(() => {
      if (queued || !this.sz || !this.sz.side) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; this.fitSide(); });
    });
    for (const el of [this.text, this.legendEl, this.stateEl]) if (el) this.sideWatch.observe(el);
  }

  // ``stripLater``: a record drawn over a chart of the same points (a kept one at a change of the page's control:
  // followVariant; a new run from the server): the data panel, the words and the controls first, the strip's curves
  // after that frame is painted
  async mount(startStep, old, {stripLater = false} = {}) {
    const m = this.m;
    this.range.max = String(m.nStops - 1);
    this.i = m.stopOf(startStep);
    if (old && old.sideCut) this.sideCut = old.sideCut;
    if (old && old.sideWatch) old.sideWatch.disconnect();
    const sz = this.sizes();
    this.sz = sz;
    this.layoutClasses(sz);
    this.drawLegend();
    this.fitStrip(sz);
    this.drawRunChoice();
    // a new run on the same points (τ, the variant, the rule…) keeps the data panel and redraws the strip
    await this.drawData(old, sz.mainW, sz.mainH);
    if (stripLater && old && this.stripEl && this.stripEl.data) {
      this.attach();
      if (this.sz.side) this.holdWords();  // (beside the panel, the new run's longest words now: the watch below fits it)
      this.stripSoon(!this.sz.side);  // (else a frame later, with the strip)
      this.watchSide();  // (the same layout as the chart before: its cut holds, its words are watched from here)
      return;
    }
    await this.Plotly.react(this.stripEl, this.stripTraces(), this.stripLayout(sz.stripW), CONFIG);
    this.attach();
    this.holdWords();
    await this.fitSide();
    this.watchSide();
  }

  // the words and the state line keep the height of the run's tallest (measured in place: the first updates and the
  // last, the first step with none, the first and last steps, and the longest of a sample: tallestTexts), so that the
  // controls stand still as a student steps, and beside the panel (presentation mode) its fit counts them at once (at
  // 1024×768 on moons the words ran from two lines to six and Next moved by up to 71 px there; on the normal page by
  // 26 px, and by 56 px on a mini-batch's, the panel moving down with them)
  // Until every run's are known (written in idle time at N = 2,000, or still to come: a partial record), the heights
  // held before stay the least, so that a new record (new data, another variant) moves the controls once, if at all,
  // not down and back (by 25 px on blobs at N = 2,000, a partial record's own words shorter than every τ's)
  holdWords() {
    if (!this.sz || this.root.__dblView !== this || !this.root.offsetHeight) return;  // (another view's, or hidden: no sizes)
    const held = this.heldTexts((v) => v.holdWords()), was = (el) => (held.final ? 0 : parseFloat(el.style.minHeight) || 0);
    holdTallest(this.text, held.words, was(this.text));
    holdTallest(this.stateEl, held.states, was(this.stateEl));
  }

  // (heldTexts) a run's key, every run of the record, and run m's texts: its first and last steps, the first updates
  // and the last, the first step with none, and the longest of a sample (tallestTexts)
  heldKey(m) { return `${m.j}:${m.S}`; }
  runModels() { return this.scene.header.runs.map((_, j) => () => (j === this.m.j ? this.m : this.runModel(j))); }
  textsOf(m) {
    const U = m.US || [], fixed = [0, 1, m.S, ...Array.from(U.slice(0, 3)), U.length ? U[U.length - 1] : 0];
    for (let s = 1, u = 0; s <= Math.min(m.S, 64); s++) {  // (the first step with no update: U is increasing)
      while (u < U.length && U[u] < s) u++;
      if (U[u] !== s) { fixed.push(s); break; }
    }
    return {words: tallestTexts(m.S, (s) => m.describe(s), fixed), states: tallestTexts(m.S, (s) => esc(m.stateLine(s)), [0, m.S])};
  }

  // the strip's curves for the run shown, after the frame that paints the data panel (and the step on the strip
  // again), and with ``hold`` the run's held words (holdWords: another τ or run): never over a newer run or record
  stripSoon(hold = false) {
    const m = this.m;
    painted().then(() => {
      if (this.m !== m || this.root.__dblView !== this) return;  // τ moved on meanwhile, or a new record is drawn
      if (hold) this.holdWords();
      this.Plotly.react(this.stripEl, this.stripTraces(), this.stripLayout(this.sz.stripW), CONFIG)
        .then(() => { if (this.root.__dblView === this) this.drawStep(); });
    });
  }

  resize() {
    const sz = this.resized();
    if (!sz) return;
    this.fitStrip(sz);
    this.Plotly.relayout(this.plot, {width: sz.mainW, height: sz.mainH});
    this.Plotly.relayout(this.stripEl, {width: sz.stripW, height: this.stripLayout(sz.stripW).height}).then(() => {
      if (this.root.__dblView !== this) return null;  // (a newer record is drawn meanwhile: its own sizes hold)
      this.drawStep();
      showLesson(this, this.step);  // (the lesson's plots take the new width)
      this.holdWords();
      return this.fitSide();
    });
  }

  // the run's value the page's control picks (header.follow is its label), its name in the offline file's choice,
  // and run j's model: τ here (the hinge-SGD tab: η)
  get runKey() { return "tau"; }
  get runName() { return "Step size τ"; }
  runModel(j) { return new PerceptronModel(this.scene, j); }

  // the page's τ control moved: its run (a partial record holds the run of one τ alone)
  sync() {
    if (this.m.h.partial) return;
    const j = runFor(this.m.h, this, this.runKey), key = this.runKey;
    if (this.m.h.runs[j][key] !== this.m.run[key]) this.setRun(j);
  }

  // whether the page's controls show a run this record does not hold: another τ than a partial record's, or another
  // variant (or B) that was not kept (syncControls then dims the chart until the server's record arrives)
  waits() {
    const h = this.m.h, value = h.partial ? followedValue(h) : null;
    if (value !== null && value !== this.m.run[this.runKey]) return true;
    const want = h.view.quiz ? null : wantedSlot(this);
    return want !== null && want !== slotOf(this.m.run);
  }

  // ----- another τ: its run, at the same step (clamped); the points stay drawn, the strip is drawn again
  setRun(j) {
    if (j === this.m.j || !this.scene.header.runs[j]) return;
    const step = this.step;
    this.m = this.runModel(j);
    this.range.max = String(this.m.nStops - 1);
    this.i = this.m.stopOf(Math.min(step, this.m.S));
    this.plot.layout.meta = this.mainLayout(this.sz.mainW, this.sz.mainH).meta;  // read by tests and exports, not drawn
    this.drawLegend();
    this.drawRunChoice();
    this.show(this.i);
    this.stripSoon(true);  // the data panel and the words first; the strip and the new run's held words a frame later
  }

  // the τ choice in the controls: only where no control of the page gives τ (the offline file)
  drawRunChoice() {
    const pick = this.root.querySelector(".dbls-tau");
    const runs = this.scene.header.runs, own = runs.length > 1 && followedValue(this.m.h) === null;
    pick.hidden = !own;
    if (!own) return;
    const sel = pick.querySelector("select"), name = this.runName;
    pick.firstChild.textContent = `${name.split(" ").pop()} `;
    sel.setAttribute("aria-label", `${name} of the run shown`);
    sel.innerHTML = runs.map((r, j) => `<option value="${j}"${j === this.m.j ? " selected" : ""}>${num(r[this.runKey])}</option>`).join("");
  }

  // ----- one step on screen: the SVG layers, the words, the controls
  drawStep() {
    const fl = this.plot._fullLayout, sl = this.stripEl && this.stripEl._fullLayout;  // (the quiz has no strip)
    if (!fl || !fl.xaxis || !fl.xaxis._length) return;
    const g = this.g || (this.g = this.geometry(this.step)), k = this.k, on = (id) => !this.hidden.has(id);
    const id = this.clipId || (this.clipId = `dbls-clip-${++clipIds}`);
    // (the note where the boundary is off the view; the quiz writes the points' names clear of its box)
    const lit = g.exam[0].length > EXAM_MANY ? examHalo(this) : this.examSize / 2;  // (the examined points' discs or halos)
    const note = on("line") && g.wb ? offView(fl, g.wb, k, this.m.X, g.exam, lit) : {svg: "", box: null};
    this.noteBox = note.box;
    drawPanel(this, fl, g, {under: this.under, rings: this.ringsEl, over: this.over}, id, this.examSize, "ring", (P) =>
      (on("w") ? P.arrow(g.wOld, "rgba(34,34,34,0.35)", 2.5 * k, 12 * k) + P.arrow(g.w, INK, 3.5 * k, 15 * k) : "") +
      (on("upd") ? P.arrow(g.upd, UPDATE, 3.5 * k, 15 * k) : "") + note.svg);
    if (sl && sl.xaxis && sl.xaxis._length) {  // the current step on the strip
      const xs = sl.xaxis._offset + sl.xaxis.l2p(g.step), y0 = sl.yaxis._offset, y1 = y0 + sl.yaxis._length;
      layer(this.stripOver, sl, `<line x1="${f1(xs)}" y1="${y0}" x2="${f1(xs)}" y2="${y1}" stroke="${INK}" stroke-width="${2 * k}" stroke-dasharray="2 3"/>`);
    }
  }

  // what the step shows, by part, in data coordinates (for tests and the curious)
  drawn() {
    const g = this.g, arr = ([x, y]) => ({x: Array.from(x), y: Array.from(y)});
    return {ring: arr(g.ring), exam: arr(g.exam), old: arr(g.old), line: arr(g.line), wOld: arr(g.wOld), w: arr(g.w),
            upd: arr(g.upd), regPos: arr(g.regPos), regNeg: arr(g.regNeg)};
  }

  // one Plotly figure of the chart as it stands (the step's geometry as traces, the legend, the strip, the words)
  figure() {
    const m = this.m, k = this.k, g = this.g, sz = this.sz;
    const data = this.mainTraces().map((t) => ({...t, xaxis: "x", yaxis: "y", showlegend: t.visible !== false}));
    const names = Object.fromEntries(this.legendItems().map(([id, label]) => [id, label]));
    const tr = (id, xy, extra) => ({type: "scatter", name: names[id], x: xy[0].length ? Array.from(xy[0]) : [null],
                                    y: xy[1].length ? Array.from(xy[1]) : [null], hoverinfo: "skip", xaxis: "x", yaxis: "y",
                                    visible: !this.hidden.has(id), ...extra});
    const many = g.exam[0].length > EXAM_MANY;  // (a large batch's halos under the points, as drawn on the page)
    const exam = tr("exam", g.exam, many ? {mode: "markers", marker: {size: 2 * examHalo(this), color: HIGHLIGHT, line: {width: 0}}}
      : {mode: "markers", marker: {size: this.examSize, color: HIGHLIGHT, line: {color: HIGHLIGHT_LINE, width: 3 * k}}});
    data.unshift(tr("pos", g.regPos, {fill: "toself", fillcolor: REGION.pos, mode: "none", showlegend: false}),
                 tr("neg", g.regNeg, {fill: "toself", fillcolor: REGION.neg, mode: "none", showlegend: false}), ...(many ? [exam] : []));
    data.push(tr("ring", g.ring, {mode: "markers", marker: {symbol: "circle-open", size: this.ring[0], color: INK, line: {width: this.ring[1]}}}),
              ...(many ? [] : [exam]),
              tr("old", g.old, {mode: "lines", line: {color: OLD_INK, width: 2.5 * k, dash: "dash"}}),
              tr("line", g.line, {mode: "lines", line: {color: INK, width: 4 * k}}),
              tr("w", g.w, {mode: "lines+markers", line: {color: INK, width: 3.5 * k}, marker: {symbol: "arrow", angleref: "previous", size: 16 * k, opacity: [0, 1], color: INK}}),
              tr("upd", g.upd, {mode: "lines+markers", line: {color: UPDATE, width: 3.5 * k}, marker: {symbol: "arrow", angleref: "previous", size: 16 * k, opacity: [0, 1], color: UPDATE}}));
    for (const t of this.stripTraces()) data.push({...t, xaxis: "x2", yaxis: t.yaxis === "y2" ? "y3" : "y2", showlegend: false});
    data.push({type: "scatter", mode: "lines", x: [g.step, g.step], y: [0, 1], xaxis: "x2", yaxis: "y4", showlegend: false,
               line: {color: INK, width: 2 * k, dash: "dot"}, hoverinfo: "skip"});
    const main = this.mainLayout(sz.mainW, sz.mainH), strip = this.stripLayout(sz.stripW);
    const lines = (m.describe(g.step).match(/<br>/g) || []).length + 2, top = Math.round((lines * 22 + 16) * k);
    const H = sz.mainH + strip.height + top, f = (strip.height) / H;
    return {data, layout: {
      ...main, width: sz.width, height: H, showlegend: true, paper_bgcolor: "white", plot_bgcolor: "white",
      margin: {...main.margin, t: top, r: 10},
      legend: {x: 1, xanchor: "right", y: 1, yanchor: "top", bgcolor: "rgba(255,255,255,0.85)", bordercolor: "#ccc", borderwidth: 1,
               font: {size: 13 * k}},
      xaxis: {...main.xaxis, domain: [0, Math.min(1, (sz.mainW - 60) / sz.width)]},
      yaxis: {...main.yaxis, domain: [f + 0.06, 1]},
      xaxis2: {...strip.xaxis, anchor: "y2", domain: [0, 1]},
      yaxis2: {...strip.yaxis, anchor: "x2", domain: [0, f - 0.02]},
      yaxis3: {...strip.yaxis2, overlaying: "y2", anchor: "x2"},
      yaxis4: {overlaying: "y2", range: [0, 1], visible: false, fixedrange: true},
      annotations: [{text: m.describe(g.step).replace(/<(?!\/?(b|br|sub)>)[^>]*>/g, "") + "<br>" + m.stateLine(g.step),
                     xref: "paper", yref: "paper", x: 0, y: 1, yshift: 8, xanchor: "left", yanchor: "bottom", align: "left",
                     showarrow: false, font: {size: 15 * k, color: INK}}],
    }};
  }

}

// ---------------------------------------------------------------------------------------------------
// mounting
// ---------------------------------------------------------------------------------------------------

const CONTROLS = `<div class="dbls-controls" role="group" aria-label="Step through the run">
  <button type="button" data-go="back" title="One step back (←)">◀ Back</button>
  <button type="button" data-go="next" title="One step on (→)">Next ▶</button>
  <button type="button" data-go="play" title="Play the run from here">Play ▶</button>
  <button type="button" data-go="fast" title="Play fast">Fast ▶▶</button>
  <button type="button" data-go="pause" title="Stop playing">Pause ❚❚</button>
  <input class="dbls-range" type="range" min="0" max="0" step="1" value="0" aria-label="Step">
  <span class="dbls-at"></span>
  <label class="dbls-tau" hidden>τ <select aria-label="Step size τ of the run shown"></select></label>
</div>`;

// the controls of a chart that moves along a grid of values (the SVM's C, the Loss surface's b)
const sweepControls = (v) => `<div class="dbls-controls" role="group" aria-label="Move ${v} along its values">
  <button type="button" data-go="back" title="The next smaller ${v} (←)">◀ Smaller ${v}</button>
  <button type="button" data-go="next" title="The next larger ${v} (→)">Larger ${v} ▶</button>
  <button type="button" data-go="play" title="Sweep ${v} from here to the largest">Sweep ${v} ▶</button>
  <button type="button" data-go="pause" title="Stop sweeping">Pause ❚❚</button>
  <input class="dbls-range" type="range" min="0" max="0" step="1" value="0" aria-label="${v}">
  <span class="dbls-at"></span>
</div>`;
// the lesson under the chart (viz/js/lesson.js fills it): the formula with the step's numbers, and on the Perceptron
// page the proof of the mistake bound drawn; each folds away (kept folded for the chart's life in the page)
const MATH = `<details class="dbls-math" data-part="math" hidden><summary>The formula, with this step's numbers</summary>
<div class="dbls-math-body"></div></details>`;
const PROOF = `<details class="dbls-proof" data-part="proof" hidden><summary>Why the perceptron stops: the mistake bound, proved</summary>
<div class="dbls-proof-text"></div><div class="dbls-stage"><div class="dbls-proof-plot"></div><svg class="dbls-proof-over dbls-strip-over" aria-hidden="true"></svg></div></details>`;
const MARGINS = `<details class="dbls-margins" data-part="margins" hidden><summary>The losses against the margin z = y·(w·x + b): which points each counts</summary>
<div class="dbls-margins-text"></div><div class="dbls-margins-plot"></div></details>`;

const SHELL = `<div class="dbls-text" aria-hidden="true"></div>
<div class="dbls-figure">
  <div class="dbls-stage"><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot"></div><canvas class="dbls-canvas dbls-canvas-over dbls-rings" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
</div>
<div class="dbls-strip"><div class="dbls-strip-plot"></div><svg class="dbls-strip-over" aria-hidden="true"></svg></div>
<div class="dbls-state"></div>
${CONTROLS}
${MATH}${PROOF}${MARGINS}
<div class="dbls-live" aria-live="polite" role="status"></div>`;

// what the page's control labelled ``label`` shows (a slider's text, a select box's choice, a number box's text), or
// null where the page has none (the offline file), or while a select box is open (its text is what the user types)
function controlValue(label) {
  if (!label) return null;
  for (const el of document.querySelectorAll("input[aria-label]")) {
    if (el.getAttribute("aria-label") !== label) continue;
    if (el.type === "range") return el.getAttribute("aria-valuetext");
    if (el.getAttribute("role") === "combobox") {
      if (el.getAttribute("aria-expanded") !== "true") {
        if (picked && picked.box === el) picked = null;  // (closed: its value is the page's)
        return el.value;
      }
      return picked && picked.box === el ? picked.text : null;  // (a box drawn anew is another element: not it)
    }
    if (el.type === "number") return el.value;
  }
  return null;
}

// the value (τ; the SGD tab's η) the page's own control shows (header.follow is its label), or null
function followedValue(header) {
  const text = controlValue(header.follow);
  return text === null ? null : Number(text);
}

// the index of the value nearest `want` among `values` (the first if `want` is not a number)
function nearest(values, want) {
  let best = 0;
  if (typeof want !== "number" || !Number.isFinite(want)) return best;
  for (let j = 0; j < values.length; j++) if (Math.abs(values[j] - want) < Math.abs(values[best] - want)) best = j;
  return best;
}

// which run to show: a quiz's own τ (the server grades that run); the τ of the page's control; else the τ shown
// before; else the view's τ; else the first
function runFor(header, old, key = "tau") {
  const quiz = header.view.quiz ? header.view.tau : null;
  return nearest(header.runs.map((r) => r[key]), quiz ?? followedValue(header) ?? (old ? old.m.run[key] : null) ?? header.view[key]);
}

// ----- the variants drawn: a record whose header has a memo is kept (up to MEMO_KEEP, for its memo's key only), and
// drawn again when the page's variant control comes back to its variant (a mini-batch's: and its B control to its
// B), with no message to the server (the page's rerun then sends the same record, which is not drawn twice)
const MEMO_KEEP = 6;  // (the variants made ahead, and a few mini-batch B)

const keeps = (header) => Boolean(header.memo) && !header.view.quiz;  // (a quiz's record is the server's to change)
const slotFor = (variant, B) => (variant === "minibatch" ? `minibatch:${B}` : variant);
const slotOf = (run) => slotFor(run.variant, run.batch_size);

function keep(root, bytes, header) {
  const memo = header.memo;
  if (!keeps(header) || header.partial || !header.runs || !header.runs.length) return;  // (a partial one: τ alone)
  if (!root.__dblMemo || root.__dblMemo.key !== memo.key) root.__dblMemo = {key: memo.key, records: new Map()};
  const records = root.__dblMemo.records, slot = slotOf(header.runs[0]);
  records.delete(slot);
  records.set(slot, bytes);  // the newest last
  while (records.size > MEMO_KEEP) records.delete(records.keys().next().value);
}

// the variant (and B) the page's controls show, as a kept record's slot; null where they cannot be read. B is read
// only on a change of variant: B's box is disabled for the other variants (its value is the page's), and while a
// mini-batch is shown the text typed in it is not yet a B.
function wantedSlot(v) {
  const memo = v.m.h.memo, want = memo && memo.options[controlValue(memo.follow)];
  if (!want) return null;
  if (want === v.m.run.variant) return slotOf(v.m.run);
  if (want !== "minibatch") return want;
  const B = boxBatch(v);  // (one outside 1..N runs as the nearest: app_pages/perceptron.py)
  return B === null ? null : slotFor(want, B);
}

const RUNNING = "[data-testid=stApp][data-test-script-state=running]";  // the page's script is running

// the page's variant control shows a variant this chart has drawn (for the same points and settings): draw it
function followVariant(root, v) {
  const memo = v.m.h.memo, kept = root.__dblMemo;
  if (!keeps(v.m.h) || !kept || kept.key !== memo.key) return false;
  // while the page runs, another setting may have changed (the kept runs were made without it): the server answers
  if (document.querySelector(RUNNING)) return false;
  const want = wantedSlot(v);
  const bytes = want && want !== slotOf(v.m.run) ? kept.records.get(want) : null;
  if (!bytes) return false;
  mountScene(root, bytes, {shownAs: v.m.h.view, stripLater: true});
  return true;
}

// every chart that follows a control of the page shows what that control reads (the Perceptron's τ and variant, the
// SVM's C, Compare's τ or B of each side, the Dual's η, the Loss surface's λ)
function syncControls() {
  for (const root of document.querySelectorAll(".dbls")) {
    const v = root.__dblView;
    const drawn = root.dataset.ready === root.__dblId || root.dataset.sketched === root.__dblId;
    if (!v || !v.sync || !v.m.h.follow || !drawn) continue;  // none, or still mounting
    if (followVariant(root, v)) continue;
    v.sync();
    if (v.waits) {  // the controls show what this record does not hold: dimmed and busy until the server's arrives
      const waiting = v.waits();
      root.classList.toggle("dbls-waiting", waiting);
      root.setAttribute("aria-busy", String(waiting));
    }
  }
}

// an option clicked in an open select box: that box's value from now on, until it closes (controlValue). The charts
// follow it once the box has handled the click, about 30 ms before the box closes with that value.
let picked = null;

function pickedOption(ev) {
  const opt = ev.target instanceof Element ? ev.target.closest("[role=option]") : null;
  const box = opt && document.querySelector("input[role=combobox][aria-expanded=true]");
  if (!box) return;
  picked = {box, text: opt.textContent.trim()};  // (replaced at the next pick: never more than one box held)
  setTimeout(syncControls, 0);
}

// a control the charts follow moved (synced at once) or appeared after the chart, or a select box closed (at the next
// frame, once per frame at most)
function watchControls() {
  if (window.__dblWatch) return;
  document.addEventListener("click", pickedOption, {capture: true});
  let queued = false;
  window.__dblWatch = new MutationObserver((records) => {
    if (records.some((r) => r.type === "attributes")) { syncControls(); return; }  // a control moved: now
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; syncControls(); });
  });
  window.__dblWatch.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuetext", "value", "aria-expanded"]});
}

const CONTROL_WAIT_MS = 3000;  // (a server busy with other sessions' builds can be slow to send a widget's code)

// a promise that resolves once the page shows every control labelled in `labels` (controlValue), or after `ms`
function untilControls(labels, ms) {
  return new Promise((resolve) => {
    let done = false;
    const shown = () => labels.every((label) => controlValue(label) !== null);
    const watch = new MutationObserver(() => { if (shown()) end(); });
    const timer = setTimeout(() => end(), ms);
    function end() { if (done) return; done = true; watch.disconnect(); clearTimeout(timer); resolve(); }
    watch.observe(document.body, {subtree: true, childList: true, attributes: true,
                                  attributeFilter: ["aria-label", "aria-valuetext", "value"]});
    if (shown()) end();
  });
}

// a record's header and where its arrays start, or null where it is not a record (decode() then names what is wrong)
function headerOf(bytes) {
  try {
    const h = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
    return {header: JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + h))), body: 8 + h};
  } catch (e) {
    return null;
  }
}

// a record's identity: its contents but the view, and the view it is shown with. A kept record drawn again with the
// page's view (followVariant) is then the same drawing as the page's own record of it, which is not drawn twice.
function recordId(bytes, shownAs, parsed = headerOf(bytes)) {
  if (!parsed) return fingerprint(bytes);
  const header = {...parsed.header}, view = JSON.stringify(shownAs || header.view || null);
  delete header.view;
  return `${fingerprint(bytes.subarray(parsed.body))}:${fingerprint(new TextEncoder().encode(JSON.stringify(header)))}:${view}`;
}

// ----- the variants made ahead: once a record with a memo is drawn and the page is left alone for AHEAD_WAIT_MS, the
// chart asks the server for the other variants its memo names (``memo.ahead``; the server makes a mini-batch's at the
// B the page's box shows), saying which it keeps already; the server makes them in the background and, once they
// are made, answers with a bundle of them (viz.scene.bundle), which the chart keeps, drawing nothing new. It asks again
// while one is missing, each wait half as long again as the last, AHEAD_TRIES times at most (about 16 s; the last time
// the server sends those made so far).
const AHEAD_WAIT_MS = 800, AHEAD_TRIES = 6;

// the B of the page's box (in 1..N, as the page runs it), or null where it cannot be read (no box, or an empty one)
function boxBatch(v) {
  const text = controlValue(v.m.h.memo.batch), B = text === null || !String(text).trim() ? NaN : Number(text);
  return Number.isInteger(B) ? Math.min(Math.max(B, 1), v.m.N) : null;
}

// the slots made ahead of what ``v`` shows: its memo's ``ahead``, the mini-batch's at the box's B (none where unread)
function aheadSlots(v) {
  const B = boxBatch(v);
  return v.m.h.memo.ahead.flatMap((s) => (s !== "minibatch" ? [s] : B === null ? [] : [slotFor(s, B)]));
}

function askAhead(root, id) {
  const v = root.__dblView, h = v && v.m.h;
  if (!h || !keeps(h) || h.partial || !Array.isArray(h.memo.ahead) || !h.memo.ahead.length || !root.__dblSend) return;
  const asked = root.__dblAhead || (root.__dblAhead = {key: null, tries: 0});
  if (asked.key !== h.memo.key) { asked.key = h.memo.key; asked.tries = 0; }
  clearTimeout(asked.timer);
  asked.timer = setTimeout(() => {
    const kept = root.__dblMemo, now = root.__dblView;
    if (!root.isConnected || root.dataset.ready !== id || !now || now.m.h.memo?.key !== asked.key || asked.tries >= AHEAD_TRIES)
      return;  // (gone, another record, or asked enough)
    if (!kept || kept.key !== asked.key || aheadSlots(now).every((slot) => kept.records.has(slot))) return;
    // the chart is being worked (stepped, played): not now, so that no rerun lands in the middle of it
    if (now.timer || performance.now() - (root.__dblWorked || 0) < AHEAD_WAIT_MS) { askAhead(root, id); return; }
    asked.tries++;
    if (!document.querySelector(RUNNING))  // (the page is busy: later)
      root.__dblSend("ahead", JSON.stringify({have: [...kept.records.keys()], last: asked.tries === AHEAD_TRIES,
                                              key: asked.key, shows: slotOf(now.m.run)}));
    askAhead(root, id);  // again, until every one is kept
  }, AHEAD_WAIT_MS * 1.5 ** asked.tries);
}

// a bundle of records made ahead: each kept (where it is of the memo's key the chart keeps), none drawn; one the
// page's controls show already is drawn now
function keepAhead(root, bytes) {
  const {arrays} = decode(bytes), kept = root.__dblMemo;
  if (!root.__dblView || !kept) return;  // (nothing drawn here yet: the page's next record is)
  for (let j = 0; arrays[`r${j}`]; j++) {
    const record = arrays[`r${j}`], parsed = headerOf(record);
    if (parsed && keeps(parsed.header) && parsed.header.memo.key === kept.key) keep(root, record, parsed.header);
  }
  syncControls();
}

// a partial record drawn: the rest asked for once the chart, its strip too, is on screen (the server's build of every τ,
// which takes both cores here for about half a second, would otherwise hold up the frames that paint it), unless
// another record came meanwhile
function askMore(root, id) {
  painted().then(painted).then(() => {
    if (root.isConnected && root.__dblId === id && root.dataset.ready === id && root.__dblSend) root.__dblSend("more", id);
  });
}

// a partial record of a run this chart keeps in full (the server had forgotten it was made): the kept one
function keptInFull(root, header) {
  const kept = root.__dblMemo;
  if (!header.partial || !keeps(header) || !kept || kept.key !== header.memo.key || !header.runs || !header.runs.length)
    return null;
  return kept.records.get(slotOf(header.runs[0])) || null;
}

function fingerprint(bytes) {  // FNV-1a over every byte: the same record is not drawn twice
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193); }
  return `${bytes.length}:${h >>> 0}`;
}

function fail(root, message) {
  root.__dblId = null;  // the next good record is drawn, even the one drawn before
  if (root.__dblView) root.__dblView.pause();
  if (root.__dblView && root.__dblView.dropPick) root.__dblView.dropPick();  // (a weight drawn ahead of its record)
  root.removeAttribute("aria-busy");
  const box = root.querySelector(".dbls-error") || root.insertBefore(document.createElement("div"), root.firstChild);
  box.className = "dbls-error";
  box.setAttribute("role", "alert");
  box.textContent = `This chart cannot be drawn: ${message}.`;
  root.classList.add("dbls-failed");
}

// what each kind of scene is drawn with: its markup, its model (every run checked now) and its view
const KINDS = {
  perceptron: {
    shell: SHELL,
    model(scene, old) {
      if (!scene.header.runs || !scene.header.runs.length) throw new Error("the scene holds no run");
      const runs = scene.header.runs.map((_, j) => new PerceptronModel(scene, j));
      return runs[runFor(scene.header, old && old.m.h.kind === "perceptron" ? old : null)];
    },
    View: PerceptronView,
    sketch: true,  // (its first drawing is sketched while plotly.js loads: sketch.js)
  },
};

// whether two models draw the same points (X and y alike, value for value)
function samePoints(a, b) {
  if (!a || !b || !a.X || !b.X || !a.y || !b.y || a.X.length !== b.X.length || a.y.length !== b.y.length) return false;
  for (let i = 0; i < a.X.length; i++) if (a.X[i] !== b.X[i]) return false;
  for (let i = 0; i < a.y.length; i++) if (a.y[i] !== b.y[i]) return false;
  return true;
}

async function mountScene(root, data, {standalone = false, shownAs = null, stripLater = false} = {}) {
  let bytes, parsed;
  try { bytes = asBytes(data); } catch (e) { fail(root, e.message); return; }
  parsed = headerOf(bytes);
  if (parsed && parsed.header.kind === "bundle") {  // records made ahead: kept, not drawn
    try { keepAhead(root, bytes); } catch (e) { console.warn(`records made ahead not kept: ${e.message}`); }
    return;  // (a bundle it cannot read costs nothing but the change it would have made sooner)
  }
  const full = parsed && keptInFull(root, parsed.header);
  if (full) return mountScene(root, full, {standalone, shownAs: shownAs || parsed.header.view});  // (no "more" asked)
  const id = recordId(bytes, shownAs, parsed);
  if (root.__dblId === id && root.__dblView) {  // drawn already: the controls may have moved since (dimmed or not)
    if (root.dataset.ready === id) {
      syncControls();
      // the same partial record again (its inputs came back before the rest was made): ask for the rest again
      if (parsed && parsed.header.partial && root.__dblSend) root.__dblSend("more", id);
    }
    return;
  }
  root.__dblId = id;
  let model, scene, kind;
  try {
    scene = decode(bytes);
    if (shownAs) scene.header.view = shownAs;  // a kept record drawn again: shown as the page shows its charts now
    kind = KINDS[scene.header.kind];
    if (!kind) throw new Error(`this renderer draws no ${scene.header.kind} scene`);
  } catch (e) { fail(root, e.message); return; }
  // a first drawing that follows a control of the page (τ, η, λ…) the page has not drawn yet (a page just opened: its
  // widgets' code still loading) waits for it, three seconds at most, rather than draw another value's run under it
  const follows = [].concat(scene.header.follow ?? []).filter((label) => typeof label === "string");  // (Compare: a side's)
  if (!standalone && !root.__dblView && follows.some((label) => controlValue(label) === null)) {
    await untilControls(follows, CONTROL_WAIT_MS);
    if (root.__dblId !== id) return;  // a newer scene arrived meanwhile
  }
  try { model = kind.model(scene, root.__dblView); } catch (e) { fail(root, e.message); return; }
  // a new tab's first chart: sketched while plotly.js is fetched and evaluated (sketch.js), then drawn with it
  // (and a newer record that comes while the sketch waits for plotly.js: sketched too, never left under the old one)
  let sketched = null;
  const shown = root.__dblView;
  const sketchable = kind.sketch && !(kind.viewFor ? kind.viewFor(scene) : kind.View).unsketched;
  if (!window.Plotly && sketchable && !standalone && !document.hidden && (!shown || shown.Plotly === SKETCH)) {
    try { sketched = await drawScene(root, id, scene, kind, model, SKETCH, stripLater); } catch (e) {
      console.warn(`the chart's sketch: ${e.message}`);  // (plotly.js draws it: nothing is said)
      root.__dblView = shown;
    }
    if (root.__dblId !== id) return;  // a newer scene arrived meanwhile
    if (sketched) {  // (it follows the page's controls and the page's size, and shows its formulas, as the chart drawn
      root.dataset.sketched = id;  // with plotly.js does: a row of columns that stacks once the charts are in widens it)
      watchSize(root);
      lessonSoon(root);
      watchControls();
      syncControls();
    }
    await painted();
  }
  let Plotly;
  try { Plotly = await loadPlotly(); } catch (e) { fail(root, e.message); return; }
  if (root.__dblId !== id) return;  // a newer scene arrived meanwhile
  unsketch(root);  // (plotly.js draws on fresh elements: the sketch's go)
  if (sketched) {  // (the run a control chose meanwhile: τ moved in the sketch)
    try { model = kind.model(scene, root.__dblView); } catch (e) { fail(root, e.message); return; }
  }
  const pace = sketched && sketched.timer ? sketched.pace : null;  // (played in the sketch: plays on)
  let view;
  try { view = await drawScene(root, id, scene, kind, model, Plotly, stripLater); } catch (e) { fail(root, e.message); return; }
  if (!view) return;
  if (pace && view.play && view.i < view.m.nStops - 1) view.play(...pace);
  root.dataset.ready = id;
  if (root.__dblScaleWas !== undefined && view.k !== undefined && root.__dblScaleWas !== view.k) inView(root);
  // (presentation mode: a chart drawn for the first time with its top above what the page shows is scrolled to: a tab
  // opened below the chart puts it at the page's top while the page stays scrolled at the tabs, 900 px under it)
  else if (!root.__dblShown && view.k > 1 && root.getBoundingClientRect().top < 0) inView(root);
  root.__dblShown = true;
  root.__dblScaleWas = undefined;
  watchSize(root);
  keep(root, bytes, scene.header);
  if (scene.header.partial && root.__dblSend) askMore(root, id);  // the page then sends every τ's run
  else askAhead(root, id);
  lessonSoon(root);
  if (standalone) window.__dblView = view;
  watchControls();
  syncControls();
}

// the lesson's formulas once KaTeX is in (loaded once; the panel says so where it cannot be)
function lessonSoon(root) {
  if (KATEX) return;
  const show = () => { const v = root.__dblView; if (v) showLesson(v, v.step); };
  loadKatex().then(show, show);
}

// a scene's view made and drawn in ``root`` with ``Plotly`` (plotly.js, or the sketch), or null where a newer record came
// meanwhile; a view that cannot be made or drawn throws
async function drawScene(root, id, scene, kind, model, Plotly, stripLater) {
  let old = root.__dblView;
  if (old) old.pause();
  root.classList.remove("dbls-failed", "dbls-waiting");
  root.removeAttribute("aria-busy");
  const err = root.querySelector(".dbls-error");
  if (err) err.remove();
  const shell = kind.shellFor ? kind.shellFor(scene) : kind.shell;  // (the Loss page's has a panel per loss)
  if (root.__dblKind !== scene.header.kind || root.__dblShell !== shell || !root.querySelector(".dbls-plot")) {
    root.innerHTML = shell;
    root.__dblKind = scene.header.kind;
    root.__dblShell = shell;
    if (old && old.m.h.kind !== scene.header.kind) old = null;
    wire(root);
  }
  lessonFolds(root);
  const view = new (kind.viewFor ? kind.viewFor(scene) : kind.View)(root, model, Plotly, scene);
  const start = model.h.view.start ?? null;
  // a link's step (once); on a new run of the same points (τ moved…), the step the last run stood at; on new points
  // (another dataset, a point clicked in, Undo), the view's start, else step 0 (the Loss surface: the b it opens at)
  // (a chart drawn anew in another element of the page: where the old one stood, once, for a scene of its kind)
  const stood = root.__dblStood && root.__dblStood.kind === scene.header.kind ? root.__dblStood.step : null;
  root.__dblStood = null;
  const at = start !== null && start !== root.__dblStart ? start : (old ? (samePoints(old.m, model) ? old.step : start ?? 0) : stood ?? 0);
  root.__dblStart = start;
  root.__dblView = view;
  // a new run over a chart of the same points (a new B or variant from the server, as a kept one from the browser):
  // the data panel, the words and the controls first, the strip's curves a frame later (PerceptronView.mount)
  await view.mount(at, old, {stripLater: stripLater || samePoints(old && old.m, model), stood});
  return root.__dblId === id ? view : null;  // (a newer record arrived meanwhile: it says when it is ready)
}

function wire(root) {
  const v = () => root.__dblView;
  if (!root.__dblWorkHooked) {  // (the variants made ahead wait while the chart is worked: askAhead)
    root.__dblWorkHooked = true;
    for (const ev of ["pointerdown", "keydown", "input", "wheel"])
      root.addEventListener(ev, () => { root.__dblWorked = performance.now(); }, {capture: true, passive: true});
  }
  const controls = root.querySelector(".dbls-controls");  // (a quiz has none: the page asks the next question)
  if (controls) controls.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-go]");
    if (!b || !v()) return;
    const go = b.dataset.go;
    if (go === "back") v().go(-1);
    else if (go === "next") v().go(1);
    else if (go === "play") v().play(SPEEDS.play);
    else if (go === "fast") v().play(...v().fastPace());
    else v().pause();
  });
  if (controls) root.querySelector(".dbls-range").addEventListener("input", (ev) => {
    if (v()) { v().pause(); v().show(Number(ev.target.value)); }
  });
  const tau = root.querySelector(".dbls-tau select");
  if (tau) tau.addEventListener("change", (ev) => v() && v().setRun(Number(ev.target.value)));
  for (const d of root.querySelectorAll("details[data-part]")) d.addEventListener("toggle", () => {
    if (!d.__dblAuto) (root.__dblOpen || (root.__dblOpen = {}))[d.dataset.part] = d.open;  // (the user's: kept)
    d.__dblAuto = false;  // (folded or opened by the layout: loss.js placeWords)
    if (d.open && v()) showLesson(v(), v().step);
  });
  root.querySelector(".dbls-legend").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-part]");
    if (b && v()) v().toggle(b.dataset.part);
  });
}

// the chart sized again when it or the page around it changes size: what stands above it may change height after it is
// drawn (a spinner or a message of the last run going, a font loading), and a presentation-mode chart is sized to the
// window below its top. Set on each record drawn (once a root); let go once the root has left the page
function watchSize(root) {
  if (!window.ResizeObserver || root.__dblResize) return;
  const obs = root.__dblResize = new ResizeObserver(() => {
    if (!root.isConnected) { obs.disconnect(); root.__dblResize = null; return; }
    const v = root.__dblView;
    if (root.offsetWidth && v) v.resize();  // (hidden, in a tab not shown: nothing to size to)
  });
  obs.observe(root);
  const page = root.closest("[data-testid=stMainBlockContainer]");
  if (page) obs.observe(page);
  if (!window.__dblWindowWatched) {  // the window's height alone (a projector's full screen): no element changes size
    window.__dblWindowWatched = true;
    window.addEventListener("resize", () => {
      for (const r of document.querySelectorAll(".dbls")) if (r.__dblResize && r.offsetWidth && r.__dblView) r.__dblView.resize();
    });
  }
}

// a chart drawn anew in another element of the page at another scale (presentation mode turned on or off moves it,
// and the page keeps its scroll, which then showed what now stands where the chart was): the page scrolled so that it
// is in view, to the page's top where the chart stands near it (presentation mode: the title over it), else to the
// chart's top
function inView(root) {
  const r = root.getBoundingClientRect();
  if (r.top >= 0 && r.top < 0.5 * window.innerHeight) return;
  const top = pageTop(root);
  if (top > 0.45 * window.innerHeight) { root.scrollIntoView({block: "start"}); return; }
  for (const p of scrollers(root)) p.scrollTop = 0;
  window.scrollTo(0, 0);
}

// the chart each keyed element of the page last drew, by the element's Streamlit key (its st-key-… class). A page that
// draws its chart in a new element (presentation mode turned on or off moves it) opens it where the old one stood:
// the same step, the records kept (the variants drawn) and the lesson's folds; the old one, about to go, is paused
const DRAWN = new Map();

function takeOver(root) {
  const host = root.closest("[class*='st-key-']");
  const name = host && [...host.classList].find((c) => c.startsWith("st-key-"));
  if (!name) return;
  const before = DRAWN.get(name);
  DRAWN.set(name, root);
  if (!before || before === root || root.__dblView || !before.__dblView) return;
  before.__dblView.pause();
  // (the scale it was drawn at: presentation mode turned draws the chart anew in the other, a page left and come back
  // to in the same, mountScene)
  root.__dblScaleWas = before.__dblView.k;
  root.__dblStood = {step: before.__dblView.step, kind: before.__dblKind};
  root.__dblStart = before.__dblStart;
  root.__dblMemo = before.__dblMemo;
  root.__dblOpen = before.__dblOpen;
}

export default function (component) {
  const {data, parentElement} = component;
  if (data === null || data === undefined) {  // mounted early, before the page has its scene (its html fetches plotly.js,
    const shell = parentElement.querySelector(".dbls");  // which the chart evaluates, after its sketch: sketch.js)
    if (shell) shell.remove();  // no chart here
    return;
  }
  const root = parentElement.querySelector(".dbls") || parentElement;
  takeOver(root);
  root.__dblSend = component.setTriggerValue;  // what a chart tells the page (a weight clicked, a quiz's pick)
  mountScene(root, data);
}
