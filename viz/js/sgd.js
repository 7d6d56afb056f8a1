// ---------------------------------------------------------------------------------------------------
// the hinge-SGD scene (viz/scene.py: SgdScene): the SVM page's SGD tab, one run against the exact SVM
// ---------------------------------------------------------------------------------------------------
// The run is read by HingeModel (compare.js: its rings y·(w·x+b) < 1 and mistakes ≤ 0 as the core judged them);
// the view is the Perceptron's (a data panel, the words, a strip under it) with the SGD's margins and J.
import {HingeModel} from "./compare.js";
import {HIGHLIGHT, HIGHLIGHT_LINE, INK, MARGIN_INK, NEG, NONE, POS, classEntries} from "./draw.js";
import {followedValue, runFor} from "./follow.js";
import {grouped, mistakesText, num, sub, vec} from "./format.js";
import {region, segment} from "./geometry.js";
import {FONT, pointName, ringWords} from "./layout.js";
import {hingeStep} from "./lesson.js";
import {PerceptronView} from "./perceptron.js";
import {checkBox, checkFinite, checkPoints} from "./record.js";
import {SHELL} from "./shells.js";


const J_INK = "#0072B2", JSTAR_INK = "#CC79A7";  // viz.svm: J, and J* (SLACK_COLOUR)

class SgdModel {
  // run j of a hinge-SGD scene (one run, or one for each constant η of the page's η control)
  constructor(scene, j) {
    const h = this.h = scene.header;
    if (!Array.isArray(h.runs) || !h.runs.length || !h.runs.every((r) => r && r.kind === "hinge"))
      throw new Error("a hinge-SGD scene holds hinge runs");
    if (h.runs.length > 1 && !h.runs.every((r) => Number.isFinite(r.eta)))
      throw new Error("the hinge-SGD runs' η are not numbers");
    checkPoints(scene.arrays.X, scene.arrays.y);
    checkBox(h.box);
    const p = this.p = new HingeModel(scene, j);
    this.j = j;
    this.X = p.X; this.y = p.y; this.N = p.N; this.S = p.S; this.K = p.S; this.box = h.box;
    this.J = scene.arrays[`objective.${j}`]; this.etas = p.etas;  // (η checked with the run)
    if (!this.J || this.J.length !== this.S + 1) throw new Error("the run's J does not match its steps");
    checkFinite("the run's J", this.J);
    const e = h.exact;
    if (!e || !Array.isArray(e.w) || e.w.length !== 2 || ![...e.w, e.b, e.objective].every(Number.isFinite))
      throw new Error("the exact SVM's w, b and J* are not numbers");
    this.run = {...h.runs[j], variant: "random", batch_size: 1};  // one random point a step
    this.stops = null;
  }
  get nStops() { return this.S + 1; }
  stepAt(i) { return i; }
  stopOf(step) { return Math.max(0, Math.min(this.S, step)); }
  w(k) { return this.p.w(k); }

  // sgd_step_text (tests/oracles.py): what step s did, in the seeds' notation (HTML)
  describe(s) {
    const p = this.p, X = this.X, y = this.y, [w0, w1] = p.w(s), b = p.B[s], jstar = this.h.exact.objective;
    let head;
    if (s) {
      const i = p.order[s - 1], [v0, v1] = p.w(s - 1), bp = p.B[s - 1];
      const m = y[i] * ((X[2 * i] * v0 + X[2 * i + 1] * v1) + bp);  // y·(w·x + b) before the step, in the core's order
      head = `<b>Step ${grouped(s)}</b>: x${sub(i + 1)}, y = ${y[i] > 0 ? "+1" : "−1"}, y·(w·x+b) = ${num(m)}`;
      head += p.active[s - 1]
        ? ` &lt; 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = (${num(w0)}, ${num(w1)}), b ← b + η·y = ${num(b)}`
        : ` ≥ 1 → only the shrink:<br>w ← (1 − ηλ)·w = (${num(w0)}, ${num(w1)}), b stays ${num(b)}`;
      head += `<br>η = ${num(this.etas[s - 1])}, λ = 1/(N·C) = ${num(this.run.lam)}`;
    } else {
      head = `<b>Step 0</b>: w = 0, b = 0; λ = 1/(N·C) = ${num(this.run.lam)}`;
    }
    return head + ` · J = ${num(this.J[s])}, gap to the exact J* = ${num(jstar)}: <b>${num(this.J[s] - jstar)}</b>`;
  }

  // sgd_state (tests/oracles.py)
  stateLine(s) {
    const p = this.p, {list, count} = p.members(s, 7);
    p.goState(s);
    let r = 0;
    for (let i = 0; i < this.N; i++) r += p.mask[i];
    return `Step ${grouped(s)} of ${grouped(this.S)}: w = ${vec(p.w(s))}, b = ${num(p.B[s])}; ${mistakesText(list, count, this.N, 6)}; ` +
      `hinge active (margin < 1) for ${grouped(r)} of ${grouped(this.N)} points`;
  }

  formula(s) { return hingeStep(this.p, this.X, this.y, this.run.lam, this.etas, s); }
}

class SgdView extends PerceptronView {
  get runKey() { return "eta"; }  // (the page's Constant η control picks the run)
  get runName() { return "Step size η"; }
  runModel(j) { return sgdRuns(this.scene)[j]; }

  heldRun() { return heldEta(this.m.h); }
  sync() {
    const j = this.heldRun();
    if (j !== null && j >= 0 && j !== this.m.j) this.setRun(j);
  }
  // never another η's run under the control: dimmed and busy until a record holding it arrives (syncControls); not
  // where the page's record says that no run of it is coming (the view's η is the control's: the core refused it)
  waits() {
    const j = this.heldRun();
    return j !== null && j !== this.m.j && followedValue(this.m.h) !== this.m.h.view.eta;
  }

  // a hovered point's label: its name and place, and whether its hinge is active at the state shown (the rings)
  tipFor(i) {
    const p = this.m.p, s = this.step;
    p.goState(s);
    return `${pointName(this.m, i)}<br>${ringWords(p.mask[i], true)} after step ${grouped(s)}`;
  }

  geometry(step) {
    const m = this.m, p = m.p, s = step, [w0, w1] = p.w(s), b = p.B[s];
    const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
    p.goState(s);
    const rx = [], ry = [];
    for (let i = 0; i < m.N; i++) if (p.mask[i]) { rx.push(m.X[2 * i]); ry.push(m.X[2 * i + 1]); }
    const ex = s ? [p.order[s - 1]] : [];
    return {regPos: region(clip, w0, w1, b, 1), regNeg: region(clip, w0, w1, b, -1), ring: [rx, ry],
            exam: [ex.map((i) => m.X[2 * i]), ex.map((i) => m.X[2 * i + 1])], old: NONE, line: segment(clip, w0, w1, b),
            margins: [segment(clip, w0, w1, b - 1), segment(clip, w0, w1, b + 1)],  // w·x + b = +1 and −1
            wOld: NONE, w: NONE, upd: NONE, step: s, updated: []};
  }

  legendItems() {
    const dash = (colour, width, d) => `<line x1="1" y1="9" x2="17" y2="9" stroke="${colour}" stroke-width="${width}" stroke-dasharray="${d}"/>`;
    return [
      ["exam", "point drawn this step", `<circle cx="9" cy="9" r="7" fill="${HIGHLIGHT}" stroke="${HIGHLIGHT_LINE}" stroke-width="2"/>`],
      ...classEntries(this.scene.header.view),
      ["ring", "hinge active: y·(w·x+b) < 1", `<circle cx="9" cy="9" r="6.5" fill="none" stroke="${INK}" stroke-width="2"/>`],
      ["line", "SGD boundary w·x + b = 0", `<line x1="1" y1="9" x2="17" y2="9" stroke="${INK}" stroke-width="4"/>`],
      ["margin", "SGD margin w·x + b = ±1", dash(MARGIN_INK, 2.5, "5 3")],
      ["exact", `exact SVM (J* = ${num(this.m.h.exact.objective)})`, `<line x1="1" y1="9" x2="17" y2="9" stroke="rgba(34,34,34,0.35)" stroke-width="3"/>`],
      ["exactm", "exact margin f = ±1", dash("rgba(34,34,34,0.4)", 2, "2 2")],
    ];
  }

  traceParts() { return {pos: 0, neg: 1, exact: 2, exactm: 3}; }

  mainTraces() {
    const m = this.m, e = m.h.exact, data = super.mainTraces().slice(0, 2);
    const span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];
    const [bx, by] = segment(clip, e.w[0], e.w[1], e.b), mx = [], my = [];
    for (const off of [1, -1]) { const [x, y] = segment(clip, e.w[0], e.w[1], e.b - off); mx.push(...x, null); my.push(...y, null); }
    const names = Object.fromEntries(this.legendItems().map(([id, label]) => [id, label]));
    data.push({type: "scatter", mode: "lines", name: names.exact, x: bx, y: by, hoverinfo: "skip", visible: !this.hidden.has("exact"),
               line: {color: "rgba(34,34,34,0.35)", width: 3 * this.k}},
              {type: "scatter", mode: "lines", name: names.exactm, x: mx, y: my, hoverinfo: "skip", visible: !this.hidden.has("exactm"),
               line: {color: "rgba(34,34,34,0.4)", width: 2 * this.k, dash: "dot"}});
    return data;
  }

  mainLayout(width, height) {
    const layout = super.mainLayout(width, height), m = this.m, jstar = m.h.exact.objective;
    layout.meta = {view: "hinge_sgd", C: m.run.C, eta: m.run.eta, n_steps: m.S, n_points: m.N, J_star: jstar,
                   final_gap: m.J[m.S] - jstar};
    return layout;
  }

  stripTraces() {
    const m = this.m, k = this.k, xs = Array.from({length: m.S + 1}, (_, i) => i);
    return [
      {type: "scatter", name: "J = ½‖w‖² + C Σξ", mode: "lines", x: xs, y: Array.from(m.J), line: {color: J_INK, width: 2.5 * k},
       hovertemplate: "step %{x}: J = %{y:.4g}<extra></extra>"},
      {type: "scatter", name: `J* = ${num(m.h.exact.objective)} (exact)`, mode: "lines", x: [0, m.S],
       y: [m.h.exact.objective, m.h.exact.objective], line: {color: JSTAR_INK, width: 2 * k, dash: "dash"}, hoverinfo: "skip"},
    ];
  }

  stripLayout(width) {
    const m = this.m, k = this.k, jstar = m.h.exact.objective, tick = {size: 13 * k, color: "#333"};
    let lo = jstar, hi = jstar;
    for (let s = 0; s <= m.S; s++) { lo = Math.min(lo, m.J[s]); hi = Math.max(hi, m.J[s]); }
    lo = Math.max(lo * 0.9, 1e-12); hi = Math.max(hi * 1.1, lo * 1.5);
    // ticks at 1, 2 and 5 times the powers of ten in range, written whole (plotly's own write 2,000 and 200 as "2"),
    // only the powers of ten where those would crowd
    let vals = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
      for (const f of [1, 2, 5]) if (f * 10 ** e >= lo && f * 10 ** e <= hi) vals.push([f * 10 ** e, f]);
    if (vals.length > 5) vals = vals.filter(([, f]) => f === 1);
    const ticks = vals.length >= 2 ? {tickmode: "array", tickvals: vals.map(([v]) => v), ticktext: vals.map(([v]) => num(v))}
      : {tickformat: ".3~g"};
    return {
      width, height: (this.sz && this.sz.stripH) || Math.round(118 * k), autosize: false, dragmode: false, hovermode: "x",
      showlegend: false, font: {family: FONT, size: 14 * k, color: INK},
      margin: {l: Math.round(56 * k), r: Math.round(58 * k), t: 4, b: Math.round(38 * k)},
      plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
      xaxis: {title: {text: "step", standoff: 2, font: {size: 15 * k, color: "#333"}}, tickfont: tick, gridcolor: "#eeeeee",
              range: [-0.5, Math.max(m.S, 1) + 0.5], fixedrange: true},
      yaxis: {title: {text: "J (log)", font: {color: J_INK, size: 15 * k}}, type: "log", range: [Math.log10(lo), Math.log10(hi)],
              tickfont: tick, gridcolor: "#eeeeee", fixedrange: true, nticks: 4, ...ticks},
      yaxis2: {overlaying: "y", visible: false, fixedrange: true},
    };
  }

  show(i) {
    super.show(i);
    if (this.live) this.live.textContent = this.stateEl.textContent;  // the state line starts with the step
  }

  drawn() {
    const d = super.drawn(), arr = ([x, y]) => ({x: Array.from(x), y: Array.from(y)});
    return {...d, margins: this.g.margins.map(arr)};
  }

  figure() {
    const fig = super.figure(), g = this.g, k = this.k;
    fig.data = fig.data.filter((t) => t.name !== undefined || t.showlegend === false);  // (no w or update arrows here)
    const mx = [], my = [];
    for (const [x, y] of g.margins) { mx.push(...x, null); my.push(...y, null); }
    fig.data.push({type: "scatter", mode: "lines", name: "SGD margin w·x + b = ±1", x: mx, y: my, xaxis: "x", yaxis: "y",
                   hoverinfo: "skip", visible: !this.hidden.has("margin"), line: {color: MARGIN_INK, width: 2.5 * k, dash: "dash"}});
    return fig;
  }
}

// the run of the η the page's control shows: its index; -1 where the record holds none (a partial record, or an η the
// core does not take for these N and C); null where no control gives η (the offline file: the chart's choice)
function heldEta(h) {
  const eta = followedValue(h);
  return eta === null ? null : h.runs.findIndex((r) => r.eta === eta);
}

// every run of a hinge-SGD scene read (and checked) once, when it is drawn: η then switches runs without a fault
function sgdRuns(scene) {
  if (!scene.models) scene.models = scene.header.runs.map((_, j) => new SgdModel(scene, j));
  return scene.models;
}

// the run shown: the η of the page's control (header.follow) where the record holds it, else the η shown before, else
// the view's, else the first
export const SGD_KIND = {shell: SHELL, sketch: true, View: SgdView, model(scene, old) {
  const h = scene.header, held = heldEta(h);
  return sgdRuns(scene)[held !== null && held >= 0 ? held : runFor({...h, follow: null}, old && old.m.h.kind === "sgd" ? old : null, "eta")];
}};
