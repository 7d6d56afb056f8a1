// The browser renderer of scenes (viz/scene.py documents the record; the field names are the same here).
// A components-v2 component: Streamlit calls the default export with the scene's bytes as `data`; the
// offline HTML export calls mountScene() itself. Everything drawable is derived here from the core's
// states; nothing the core decided (M, ties, which points updated, convergence) is decided again.

const SCENE_VERSION = 1;
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
const vec = (v) => "(" + Array.from(v, (x) => num(x)).join(", ") + ")";
const grouped = (k) => String(k).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
function names(idx, limit = 6) {
  const s = idx.slice(0, limit).map((i) => `x${sub(i + 1)}`).join(", ");
  return s + (idx.length > limit ? `, … (${idx.length} in all)` : "");
}
const pointSet = (idx) => (idx.length ? "{" + names(idx) + "}" : "∅");
const afterUpdates = (k) => (k === 0 ? "Before any update" : `After ${grouped(k)} update${k !== 1 ? "s" : ""}`);
function mistakesText(mis, count, n, limit) {
  if (!count) return `no point misclassified (0 of ${n})`;
  if (count <= limit) return `misclassified: ${names(mis)} (${count} of ${n})`;
  return `${count} of ${n} misclassified: ${names(mis.slice(0, limit))}, …`;
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

// where sign·(w·x + b) ≥ 0 inside the box, as a closed polygon
function region(box, w0, w1, b, sign) {
  if (w0 === 0 && w1 === 0 && sign * b <= 0) return [[], []];
  const [x0, x1, y0, y1] = box;
  let poly = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const f = (p) => sign * (w0 * p[0] + w1 * p[1] + b);
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length], fp = f(p), fq = f(q);
    if (fp >= 0) out.push(p);
    if ((fp >= 0) !== (fq >= 0)) { const t = fp / (fp - fq); out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]); }
  }
  if (out.length < 3) return [[], []];
  out.push(out[0]);
  return [out.map((p) => p[0]), out.map((p) => p[1])];
}

// ---------------------------------------------------------------------------------------------------
// the Perceptron scene
// ---------------------------------------------------------------------------------------------------

const POS = "#0072B2", NEG = "#D55E00", INK = "#222222", UPDATE = "#009E73";
const T = {REG_POS: 0, REG_NEG: 1, POS: 2, NEG: 3, RING: 4, EXAM: 5, OLD: 6, LINE: 7, W_OLD: 8, W: 9, UPD: 10,
           ERR: 11, LOSS: 12, CUR: 13};
const STEP_TRACES = [T.REG_POS, T.REG_NEG, T.RING, T.EXAM, T.OLD, T.LINE, T.W_OLD, T.W, T.UPD, T.CUR];
const SPEEDS = {play: 400, fast: 120};

class PerceptronModel {
  constructor({header, arrays}) {
    const a = arrays;
    this.h = header;
    this.run = header.run;
    this.X = a.X; this.y = a.y; this.N = a.y.length;
    this.US = a.update_steps; this.K = a.update_steps.length;
    this.W = a.W; this.B = a.B; this.order = a.order;
    this.updPtr = a.upd_ptr; this.updIdx = a.upd_idx;
    this.mPtr = a.m_ptr; this.mIdx = a.m_idx; this.loss = a.loss;
    this.S = this.run.n_steps;
    this.box = header.box;
    if (this.W.length !== 2 * (this.K + 1) || this.B.length !== this.K + 1 || this.mPtr.length !== this.K + 2)
      throw new Error("the scene's states do not match its update steps");
    this.errors = a.errors;  // |M| of each state, as the core counted it
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
    const B = v === "minibatch" ? this.run.batch_size : 1;
    return Array.from(this.order.subarray((step - 1) * B, step * B));
  }

  updated(step, k) {  // M ∩ examined at the state before, as the core judged it
    if (step === 0 || k === 0 || this.US[k - 1] !== step) return [];
    const v = this.run.variant;
    if (!this.run.updated_is_M) return Array.from(this.updIdx.subarray(this.updPtr[k - 1], this.updPtr[k]));
    this.goState(k - 1);  // M ∩ examined at the state before (checked on the server for every update)
    return this.examined(step).filter((i) => this.mask[i]);
  }

  // this.mask becomes M of state k: the core's rule y·((x₁w₁ + x₂w₂) + b) ≤ 0 (< 0), evaluated one IEEE
  // operation at a time in the order core.snapshot.activation sums in, then the core's exceptions (viz/scene.py)
  goState(k) {
    if (k === this.maskAt) return;
    const X = this.X, y = this.y, w1 = this.W[2 * k], w2 = this.W[2 * k + 1], b = this.B[k], m = this.mask;
    if (this.negative) for (let i = 0; i < this.N; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) < 0 ? 1 : 0;
    else for (let i = 0; i < this.N; i++) m[i] = y[i] * ((X[2 * i] * w1 + X[2 * i + 1] * w2) + b) <= 0 ? 1 : 0;
    for (let t = this.mPtr[k]; t < this.mPtr[k + 1]; t++) m[this.mIdx[t]] ^= 1;
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
      let txt = `<b>Step 0</b>: start at w = ${vec(w)}, b = ${num(b)}; |M| = ${this.errors[0]} of ${n} points.`;
      if (bound) txt += ` At most (R/γ)² = ${bnum(bound.bound)} updates to come.`;
      if (r.update_on === "negative" && w[0] === 0 && w[1] === 0 && b === 0)
        txt += "<br>Every y·a is 0 at w = 0, b = 0, and the rule updates only when y·a < 0: nothing will move.";
      else if (converged) txt += "<br>✓ The initial boundary already separates the data.";
      return txt;
    }
    let head = `<b>Step ${step}</b> (epoch ${this.epoch(step)})`;
    if (bound) head += ` · updates so far ${k} ≤ (R/γ)² = ${bnum(bound.bound)}`;
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
        txt = `${head}: ${name} misclassified:<br>${act} ${le} 0<br>→ w ← ${vec(wp)} + ${num(tau)}·(${num(yi)})·${vec(xi)} = ${vec(w)}`;
        txt += r.fit_intercept ? `, b ← ${num(bp)} + ${num(tau)}·(${num(yi)}) = ${num(b)}` : `, b stays ${num(b)}`;
      } else {
        txt = `${head}: ${name} correct:<br>${act} ${gt} 0 → no update`;
      }
    } else {
      const ex = this.examined(step);
      const [coef, full] = this.stepCoef();
      let sumname;
      if (r.variant === "minibatch") {
        txt = `${head}: batch I = {${names(ex)}} (B = ${r.batch_size})<br>mistakes M∩I = ${pointSet(upd)}`;
        sumname = "Σ<sub>i∈M∩I</sub>";
      } else {
        txt = `${head}: all ${n} points<br>mistakes M = ${pointSet(upd)}`;
        sumname = "Σ<sub>i∈M</sub>";
      }
      if (upd.length) {
        const g = [0, 0];
        let ys = 0;
        for (const i of upd) { g[0] += this.y[i] * this.X[2 * i]; g[1] += this.y[i] * this.X[2 * i + 1]; ys += this.y[i]; }
        txt += `<br>→ w ← w + ${coef}·${sumname} yᵢxᵢ = ${vec(wp)} + ${full}·${vec(g)} = ${vec(w)}`;
        if (r.fit_intercept) txt += `, b ← ${num(bp)} + ${full}·(${num(ys)}) = ${num(b)}`;
      } else {
        txt += " → no update";
      }
    }
    if (converged) txt += `<br>✓ Converged: no point is misclassified (|M| = 0) after ${this.K} updates.`;
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
// drawing with plotly.js
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

const gap = {x: [null], y: [null]};

class PerceptronView {
  constructor(root, model, Plotly) {
    this.root = root; this.m = model; this.Plotly = Plotly;
    this.text = root.querySelector(".dbls-text");
    this.plot = root.querySelector(".dbls-plot");
    this.stateEl = root.querySelector(".dbls-state");
    this.live = root.querySelector(".dbls-live");
    this.range = root.querySelector(".dbls-range");
    this.label = root.querySelector(".dbls-at");
    this.i = 0;
    this.timer = null;
  }

  get step() { return this.m.stepAt(this.i); }

  layout(width) {
    const m = this.m, v = m.h.view, k = v.scale || 1, box = m.box;
    const wide = width >= 860;
    const height = this.height;
    const strip = Math.round(105 * k), gapPx = Math.round(62 * k);
    const legendPx = wide ? 0 : Math.round(64 * k);
    const dataBottom = (strip + gapPx + legendPx) / height, stripTop = (strip + legendPx) / height;
    const axis = {gridcolor: "#e6e6e6", zeroline: true, zerolinecolor: "#bbbbbb", tickfont: {size: 14 * k, color: "#333"},
                  fixedrange: true, showline: true, linecolor: "#999", mirror: true};
    const title = (t) => ({text: t, standoff: 6, font: {size: 17 * k, color: "#333"}});
    return {
      width, height, autosize: false, dragmode: false, hovermode: "closest", showlegend: true,
      font: {family: "Inter, Segoe UI, Helvetica, Arial, sans-serif", size: 16 * k, color: INK},
      margin: {l: Math.round(58 * k), r: Math.round(wide ? 10 : 52 * k), t: 8, b: Math.round(8 * k)},
      plot_bgcolor: "white", paper_bgcolor: "white", uirevision: "scene",
      meta: {view: "perceptron", variant: m.run.variant, tau: m.run.tau, n_points: m.N, n_steps: m.S, n_updates: m.K,
             converged: m.run.converged, vector_scale: m.scale},
      legend: wide
        ? {x: 0.735, y: 1.0, xanchor: "left", yanchor: "top", font: {size: 14 * k}, bgcolor: "rgba(255,255,255,0.85)",
           bordercolor: "#cccccc", borderwidth: 1, itemsizing: "constant"}
        : {orientation: "h", x: 0, y: 0, yanchor: "top", font: {size: 13 * k}, itemsizing: "constant", entrywidthmode: "pixels"},
      xaxis: {...axis, domain: [0, wide ? 0.72 : 1], range: [box[0], box[1]], title: title("x₁")},
      yaxis: {...axis, domain: [dataBottom, 1], range: [box[2], box[3]], title: title("x₂"), scaleanchor: "x", scaleratio: 1},
      xaxis2: {domain: [0, 1], anchor: "y2", title: {text: "step", standoff: 2, font: {size: 15 * k, color: "#333"}},
               tickfont: {size: 13 * k, color: "#333"}, gridcolor: "#eeeeee", range: [-0.5, Math.max(m.S, 1) + 0.5],
               fixedrange: true, ...(m.S <= 12 ? {dtick: 1} : {})},
      yaxis2: {domain: [legendPx / height, stripTop], anchor: "x2", tickfont: {size: 13 * k, color: "#333"},
               title: {text: "|M|", font: {color: POS, size: 15 * k}}, range: [0, m.errors.reduce((a, e) => Math.max(a, e), 1) * 1.08],
               gridcolor: "#eeeeee", fixedrange: true, nticks: 4},
      yaxis3: {overlaying: "y2", side: "right", anchor: "x2", title: {text: "loss", font: {color: NEG, size: 15 * k}},
               rangemode: "tozero", showgrid: false, fixedrange: true, nticks: 4, tickformat: "~g",
               tickfont: {size: 13 * k, color: "#333"}},
      yaxis4: {overlaying: "y2", range: [0, 1], visible: false, fixedrange: true},
    };
  }

  traces() {
    const m = this.m, N = m.N, k = m.h.view.scale || 1;
    const size = (N <= 100 ? 12 : N <= 400 ? 9 : N <= 1000 ? 7 : N <= 3000 ? 5 : 4) * k;
    const ring = N <= 100 ? [2 * size, 2.5] : N <= 400 ? [size + 7, 1.5] : N <= 1000 ? [size + 5, 1.3] : [size + 3, 1.0];
    const xy = {xaxis: "x", yaxis: "y"};
    const pts = (sign, name, colour, symbol) => {
      const idx = [];
      for (let i = 0; i < N; i++) if (m.y[i] === sign) idx.push(i);
      return {type: "scatter", name, mode: "markers", x: idx.map((i) => m.X[2 * i]), y: idx.map((i) => m.X[2 * i + 1]),
              customdata: idx.map((i) => i + 1),
              marker: {color: colour, symbol, size: size + (symbol === "diamond" ? 1 : 0),
                       line: {color: "white", width: size > 6 ? 1 : 0.5}},
              hovertemplate: `x<sub>%{customdata}</sub> = (%{x}, %{y}), y = ${sign > 0 ? "+1" : "−1"}<extra></extra>`, ...xy};
    };
    const arrow = (name, colour, width, sz, legend = true) => ({
      type: "scatter", name, mode: "lines+markers", hoverinfo: "skip", showlegend: legend, ...gap,
      line: {color: colour, width: width * k}, marker: {symbol: "arrow", angleref: "previous", size: sz * k, color: colour,
      opacity: [0, 1]}, ...xy});
    const r = m.run;
    const updName = r.variant === "cyclic" || r.variant === "random" ? "update τ·y·x" : `update ${m.stepCoef()[0]} Σ yᵢxᵢ over M`;
    // |M| and the loss per state, drawn as steps over 0..S
    const sx = [0], se = [m.errors[0]], sl = [m.loss[0]];
    for (let j = 0; j < m.K; j++) { sx.push(m.US[j]); se.push(m.errors[j + 1]); sl.push(m.loss[j + 1]); }
    sx.push(m.S); se.push(m.errors[m.K]); sl.push(m.loss[m.K]);
    const data = [
      {type: "scatter", name: "region ŷ = +1", fill: "toself", fillcolor: "rgba(0, 114, 178, 0.10)", mode: "none",
       hoverinfo: "skip", showlegend: false, ...gap, ...xy},
      {type: "scatter", name: "region ŷ = −1", fill: "toself", fillcolor: "rgba(213, 94, 0, 0.10)", mode: "none",
       hoverinfo: "skip", showlegend: false, ...gap, ...xy},
      pts(1, "y = +1", POS, "circle"),
      pts(-1, "y = −1", NEG, "diamond"),
      {type: "scatter", name: "M: misclassified", mode: "markers", hoverinfo: "skip", ...gap,
       marker: {symbol: "circle-open", size: ring[0], color: N <= 100 ? INK : "rgba(0, 0, 0, 0.7)", line: {width: ring[1] * k}}, ...xy},
      {type: "scatter", name: "examined this step", mode: "markers", hoverinfo: "skip", ...gap,
       marker: {symbol: "circle", size: Math.max(26, 2 * size + 8), color: "rgba(240, 228, 66, 0.55)",
                line: {color: "#8A7D00", width: 3 * k}}, ...xy},
      {type: "scatter", name: "previous boundary", mode: "lines", hoverinfo: "skip", ...gap,
       line: {color: "rgba(34,34,34,0.45)", width: 2.5 * k, dash: "dash"}, ...xy},
      {type: "scatter", name: "boundary w·x + b = 0", mode: "lines", hoverinfo: "skip", ...gap,
       line: {color: INK, width: 4 * k}, ...xy},
      arrow("previous w", "rgba(34,34,34,0.35)", 2.5, 14, false),
      arrow(m.scale === 1 ? "w" : `w (drawn ×${general(m.scale, 2)})`, INK, 3.5, 18),
      arrow(updName, UPDATE, 3.5, 18),
      {type: "scatter", name: "|M| (left axis)", mode: "lines", x: sx, y: se, line: {color: POS, width: 2.5 * k, shape: "hv"},
       xaxis: "x2", yaxis: "y2", hovertemplate: "step %{x}: |M| = %{y}<extra></extra>"},
      {type: "scatter", name: "perceptron loss (right axis)", mode: "lines", x: sx, y: sl,
       line: {color: NEG, width: 2.5 * k, shape: "hv", dash: "dash"}, xaxis: "x2", yaxis: "y3",
       hovertemplate: "step %{x}: loss = %{y:.3f}<extra></extra>"},
      {type: "scatter", name: "current step", mode: "lines", hoverinfo: "skip", showlegend: false, x: [0, 0], y: [0, 1],
       line: {color: INK, width: 2 * k, dash: "dot"}, xaxis: "x2", yaxis: "y4"},
    ];
    const bd = m.h.bound;
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
      const common = {xaxis: "x", yaxis: "y", hoverinfo: "skip", visible: "legendonly"};
      data.push({type: "scatter", mode: "lines", name: `R = ${num(bd.R)}: the data's radius${bd.fit_intercept ? " (of (x, 1))" : ""}`,
                 x: cx, y: cy, line: {color: "#6a3d9a", width: 2 * k, dash: "dot"}, legendrank: 1020, ...common});
      data.push({type: "scatter", mode: "lines", name: `γ = ${num(bd.gamma)}: max-margin lines w̃·x̃ = ±γ`, x: bx, y: by,
                 line: {color: "#6a3d9a", width: 2 * k, dash: "dash"}, legendrank: 1021, ...common});
    }
    return data;
  }

  // what changes with the step: [x, y] per trace of STEP_TRACES
  stepData(step) {
    const m = this.m, k = m.stateOf(step);
    const upd = m.updated(step, k);
    const kp = step && k && m.US[k - 1] === step ? k - 1 : k;
    const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
    const [w0, w1] = m.w(k), b = m.B[k];
    m.goState(k);
    let cnt = 0;
    for (let i = 0; i < m.N; i++) cnt += m.mask[i];
    const rx = new Float64Array(cnt), ry = new Float64Array(cnt);
    for (let i = 0, j = 0; i < m.N; i++) if (m.mask[i]) { rx[j] = m.X[2 * i]; ry[j++] = m.X[2 * i + 1]; }
    const ex = m.run.variant === "batch" ? [] : m.examined(step);
    const P = m.P, s = m.scale;
    const arrow = (a, z) => [[P[0] + s * a[0], P[0] + s * z[0]], [P[1] + s * a[1], P[1] + s * z[1]]];
    const none = [[null], [null]];
    const out = [
      region(clip, w0, w1, b, 1), region(clip, w0, w1, b, -1),
      cnt ? [rx, ry] : none,
      ex.length ? [ex.map((i) => m.X[2 * i]), ex.map((i) => m.X[2 * i + 1])] : none,
      none, segment(clip, w0, w1, b), none, (w0 || w1) ? arrow([0, 0], [w0, w1]) : none, none,
      [[step, step], [0, 1]],
    ];
    if (upd.length || kp !== k) {
      const [p0, p1] = m.w(kp);
      out[4] = segment(clip, p0, p1, m.B[kp]);
      if (p0 || p1) out[6] = arrow([0, 0], [p0, p1]);
      out[8] = arrow([p0, p1], [w0, w1]);  // τ·y·x (or the batch step) from the old tip of w to the new one
    }
    return out.map(([x, y]) => [x.length ? x : [null], y.length ? y : [null]]);
  }

  async mount(startStep) {
    const m = this.m, v = m.h.view;
    this.height = this.fitHeight(v.height);
    this.range.max = String(m.nStops - 1);
    this.i = m.stopOf(startStep);
    const width = Math.max(this.plot.clientWidth || this.root.clientWidth || 800, 320);
    const data = this.traces();
    this.stepData(this.step).forEach(([x, y], j) => { data[STEP_TRACES[j]].x = x; data[STEP_TRACES[j]].y = y; });
    await this.Plotly.newPlot(this.plot, data, this.layout(width),
                              {displaylogo: false, scrollZoom: false, doubleClick: false, responsive: false,
                               modeBarButtonsToRemove: ["zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d",
                                                        "autoScale2d", "resetScale2d"]});
    this.plot.__dbl = this;
    this.width = width;
    this.show(this.i, false);
  }

  fitHeight(h) {
    const k = this.m.h.view.scale || 1;
    if (k <= 1) return h;
    // presentation mode: the chart, its text and controls fit the window below the chart's top
    const top = Math.max(0, this.root.getBoundingClientRect().top + window.scrollY);
    const room = window.innerHeight - Math.min(top, 0.35 * window.innerHeight) - 4 * 17 * k - 80 * k;
    return Math.max(380, Math.min(h, Math.round(room)));
  }

  resize() {
    const width = Math.max(this.plot.clientWidth || 320, 320);
    if (Math.abs(width - this.width) < 2) return;
    this.width = width;
    this.Plotly.relayout(this.plot, this.layout(width));
  }

  show(i, redraw = true) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.nStops - 1, i));
    const step = this.step;
    if (redraw) {
      const d = this.stepData(step);
      this.Plotly.restyle(this.plot, {x: d.map((p) => p[0]), y: d.map((p) => p[1])}, STEP_TRACES);
    }
    this.text.innerHTML = m.describe(step);
    const line = m.stateLine(step);
    this.stateEl.textContent = line;
    this.range.value = String(this.i);
    this.label.textContent = `Step ${grouped(step)} of ${grouped(m.S)}`;
    this.root.dataset.step = String(step);
    if (this.live) this.live.textContent = `Step ${step} of ${m.S}: ${line}`;
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.nStops - 1;
  }

  // PNG or SVG of the chart as it stands, with the step's arithmetic and state line written above it
  image(format, filename) {
    const k = this.m.h.view.scale || 1, gd = this.plot, lay = gd.layout;
    const plain = (html) => html.replace(/<br>/g, "<br>").replace(/<(?!\/?(b|br|sub)>)[^>]*>/g, "");
    const lines = (this.m.describe(this.step).match(/<br>/g) || []).length + 2;
    const top = Math.round((lines * 22 + 16) * k);
    const layout = {...lay, height: lay.height + top, margin: {...lay.margin, t: top},
      annotations: [{text: plain(this.m.describe(this.step)) + "<br>" + this.m.stateLine(this.step), xref: "paper",
                     yref: "paper", x: 0, y: 1, yshift: 8, xanchor: "left", yanchor: "bottom", align: "left",
                     showarrow: false, font: {size: 15 * k, color: INK}}]};
    return this.Plotly.downloadImage({data: gd.data, layout}, {format, filename, width: lay.width,
                                     height: layout.height, scale: format === "png" ? 2 : 1});
  }

  go(delta) { this.pause(); this.show(this.i + delta); }
  key(name) {
    const last = this.m.nStops - 1;
    const i = {ArrowLeft: this.i - 1, ArrowRight: this.i + 1, Home: 0, End: last}[name];
    if (i === undefined) return false;
    this.pause();
    this.show(i);
    return true;
  }
  play(ms) {
    this.pause();
    if (this.i >= this.m.nStops - 1) this.show(0);
    this.timer = setInterval(() => {
      if (this.i >= this.m.nStops - 1) return this.pause();
      this.show(this.i + 1);
    }, ms);
    this.root.classList.add("dbls-playing");
  }
  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.root.classList.remove("dbls-playing");
  }
}

// ---------------------------------------------------------------------------------------------------
// mounting
// ---------------------------------------------------------------------------------------------------

const SHELL = `<div class="dbls-text" aria-hidden="true"></div>
<div class="dbls-plot"></div>
<div class="dbls-state"></div>
<div class="dbls-controls" role="group" aria-label="Step through the run">
  <button type="button" data-go="back" title="One step back (←)">◀ Back</button>
  <button type="button" data-go="next" title="One step on (→)">Next ▶</button>
  <button type="button" data-go="play" title="Play the run from here">Play ▶</button>
  <button type="button" data-go="fast" title="Play fast">Fast ▶▶</button>
  <button type="button" data-go="pause" title="Stop playing">Pause ❚❚</button>
  <input class="dbls-range" type="range" min="0" max="0" step="1" value="0" aria-label="Step">
  <span class="dbls-at"></span>
</div>
<div class="dbls-live" aria-live="polite" role="status"></div>`;

function fingerprint(bytes) {  // FNV-1a over the bytes: the same record is not drawn twice
  let h = 0x811c9dc5;
  const step = Math.max(1, Math.floor(bytes.length / 65536));
  for (let i = 0; i < bytes.length; i += step) { h ^= bytes[i]; h = Math.imul(h, 0x01000193); }
  return `${bytes.length}:${h >>> 0}`;
}

function fail(root, message) {
  root.__dblId = null;  // the next good record is drawn, even the one drawn before
  const box = root.querySelector(".dbls-error") || root.appendChild(document.createElement("div"));
  box.className = "dbls-error";
  box.setAttribute("role", "alert");
  box.textContent = `This chart cannot be drawn: ${message}.`;
  root.classList.add("dbls-failed");
}

async function mountScene(root, data, {standalone = false} = {}) {
  let bytes;
  try { bytes = asBytes(data); } catch (e) { fail(root, e.message); return; }
  const id = fingerprint(bytes);
  if (root.__dblId === id && root.__dblView) return;
  const keep = root.__dblView ? root.__dblView.step : null;
  let model;
  try {
    const scene = decode(bytes);
    if (scene.header.kind !== "perceptron") throw new Error(`this renderer draws no ${scene.header.kind} scene`);
    model = new PerceptronModel(scene);
  } catch (e) {
    if (root.__dblView) root.__dblView.pause();
    fail(root, e.message);
    return;
  }
  root.__dblId = id;
  let Plotly;
  try { Plotly = await loadPlotly(); } catch (e) { fail(root, e.message); return; }
  if (root.__dblId !== id) return;  // a newer scene arrived meanwhile
  if (root.__dblView) root.__dblView.pause();
  root.classList.remove("dbls-failed");
  const err = root.querySelector(".dbls-error");
  if (err) err.remove();
  if (!root.querySelector(".dbls-plot")) {
    root.innerHTML = SHELL;
    wire(root);
  }
  const view = new PerceptronView(root, model, Plotly);
  const start = model.h.view.start ?? null;
  // a link's step (once); on a new run (τ moved…), the step the last run stood at
  await view.mount(start !== null && start !== root.__dblStart ? start : keep ?? 0);
  root.__dblStart = start;
  root.__dblView = view;
  root.dataset.ready = id;
  if (standalone) window.__dblView = view;
}

function wire(root) {
  const v = () => root.__dblView;
  root.querySelector(".dbls-controls").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-go]");
    if (!b || !v()) return;
    const go = b.dataset.go;
    if (go === "back") v().go(-1);
    else if (go === "next") v().go(1);
    else if (go === "play") v().play(SPEEDS.play);
    else if (go === "fast") v().play(SPEEDS.fast);
    else v().pause();
  });
  root.querySelector(".dbls-range").addEventListener("input", (ev) => {
    if (v()) { v().pause(); v().show(Number(ev.target.value)); }
  });
  if (window.ResizeObserver) new ResizeObserver(() => v() && v().resize()).observe(root);
}

export default function (component) {
  const {data, parentElement} = component;
  const root = parentElement.querySelector(".dbls") || parentElement;
  mountScene(root, data);
}
