// ---------------------------------------------------------------------------------------------------
// the Compare scene (viz/scene.py: CompareScene): two runs on the same points, one slider for both
// ---------------------------------------------------------------------------------------------------
// A perceptron run is read by PerceptronModel (its M as on the Perceptron page); a hinge-SGD run by HingeModel
// below. The common step t goes from 0 to the longer run's end; a run that has ended holds its last state.
// What each panel shows is decided once, in CompareView.geometry; the words are compare_state's (tests/oracles.py).
import {CONFIG, GAP, HIGHLIGHT, HIGHLIGHT_LINE, INK, NEG, NONE, OLD_INK, POS, REGION, SQUARE_SIDE, classEntries, drawPanel, nextClipId, ringShape} from "./draw.js";
import {controlValue, fail, fingerprint, nearest} from "./follow.js";
import {grouped, isText, mistakesText, num, vec} from "./format.js";
import {region, segment} from "./geometry.js";
import {MIN_AREA, esc, placeTip, pointName, ringWords} from "./layout.js";
import {hingeStep, lessonHeight, showLesson} from "./lesson.js";
import {PerceptronView} from "./perceptron.js";
import {PerceptronModel, ruleMask, runArray} from "./perceptron-model.js";
import {checkBox, checkFinite, checkPoints, checkPtr} from "./record.js";
import {CONTROLS, MATH} from "./shells.js";
import {Panels} from "./stepping.js";
import {stateOf} from "./state.js";


const REFERENCE = "#CC79A7";  // Okabe–Ito reddish purple: the exact SVM (viz.compare)
const REF_DASH = [10, 5];  // its dashes (px, times the view's scale): on the chart, in its legend and in an export

export class HingeModel {
  // run j of a Compare scene: hinge SGD, a state after every step
  constructor({header, arrays}, j) {
    const a = arrays, run = header.runs[j], at = (name) => runArray(a, run, j, name);
    this.h = header; this.j = j; this.run = run;
    checkPoints(a.X, a.y);
    this.X = a.X; this.y = a.y; this.N = a.y.length;
    const S = this.S = run.n_steps;
    if (!Number.isInteger(S) || S < 0) throw new Error(`run ${j} has ${S} steps`);
    if (!(run.C > 0 && run.lam > 0 && Number.isFinite(run.C) && Number.isFinite(run.lam))) throw new Error("the hinge run's C or λ is not a number");
    this.K = S;
    this.W = at("W"); this.B = at("B"); this.order = at("order"); this.active = at("active"); this.etas = at("etas");
    this.mPtr = at("m_ptr"); this.mIdx = at("m_idx"); this.ePtr = at("e_ptr"); this.eIdx = at("e_idx");
    if (this.W.length !== 2 * (S + 1) || this.B.length !== S + 1 || this.order.length !== S || this.active.length !== S ||
        this.etas.length !== S ||
        this.mPtr.length !== S + 2 || this.ePtr.length !== S + 2)
      throw new Error(`the hinge run's states do not match its ${S} steps`);
    checkFinite("the hinge run's w", this.W); checkFinite("the hinge run's b", this.B); checkFinite("the hinge run's η", this.etas);
    for (const v of this.active) if (v > 1) throw new Error("the hinge run's active steps are not 0 or 1");
    for (const i of this.order) if (i >= this.N) throw new Error(`the hinge run draws point ${i + 1} of ${this.N}`);
    checkPtr("the hinge run's rings", this.mPtr, this.mIdx, this.N);
    checkPtr("the hinge run's mistakes", this.ePtr, this.eIdx, this.N);
    this.mask = new Uint8Array(this.N); this.maskAt = -1;
    this.wrong = new Uint8Array(this.N); this.wrongAt = -1;
  }
  stateOf(step) { return step; }
  w(k) { return [this.W[2 * k], this.W[2 * k + 1]]; }
  examined(step) { return step ? [this.order[step - 1]] : []; }
  // the rings of state k, y·a < 1, and its mistakes, y·a ≤ 0, as the core judged them
  fill(m, k, ptr, idx, below) { ruleMask(m, this.X, this.y, this.W[2 * k], this.W[2 * k + 1], this.B[k], below ? 1 : 0, !below, ptr, idx, k); }
  goState(k) { if (k !== this.maskAt) { this.fill(this.mask, k, this.mPtr, this.mIdx, true); this.maskAt = k; } }
  members(k, limit = Infinity) {  // the misclassified points of state k, y·a ≤ 0: the first `limit`, and how many
    if (k !== this.wrongAt) { this.fill(this.wrong, k, this.ePtr, this.eIdx, false); this.wrongAt = k; }
    const list = [];
    let count = 0;
    for (let i = 0; i < this.N; i++) if (this.wrong[i]) { count++; if (list.length < limit) list.push(i); }
    return {list, count};
  }

  // ----- Compare: each side's rule, then its step's numbers (a side that has finished holds its last state)
  formula(s) { return hingeStep(this, this.X, this.y, this.run.lam, this.etas, s); }
}

// each side's runs: header.sides (a family per side, picked by the page's control for that side), else run 0 and 1
function compareSides(h) {
  if (!Array.isArray(h.runs) || h.runs.length < (h.sides ? 1 : 2)) throw new Error("a Compare scene holds a run for each side");
  if (!Array.isArray(h.titles) || h.titles.length !== h.runs.length || !h.titles.every(isText))
    throw new Error("a Compare scene has a title for each run");
  const sides = h.sides ?? [{runs: [0], follow: null, key: "tau"}, {runs: [1], follow: null, key: "tau"}];
  if (!Array.isArray(sides) || sides.length !== 2 || !sides.every((s) => Array.isArray(s.runs) && s.runs.length &&
      s.runs.every((j) => Number.isInteger(j) && j >= 0 && j < h.runs.length) && ["tau", "batch_size", "C"].includes(s.key)))
    throw new Error("a Compare scene's sides name runs it does not hold");
  return sides;
}

// the run each side shows: the one whose τ (B, C) the page's control for that side shows; else the one shown before;
// else the view's pair (the offline file); else the side's first
function comparePicks(h, old) {
  return compareSides(h).map((side, j) => {
    const text = controlValue(side.follow), key = side.key;
    const want = text !== null ? Number(text) : old ? old.m.panels[j].run[key] : h.view.pair ? h.view.pair[j] : null;
    return side.runs[nearest(side.runs.map((r) => h.runs[r][key]), want)];
  });
}

// every run of a Compare scene read (and checked) once, when it is drawn: a side then switches runs without a fault
function compareRuns(scene) {
  if (!scene.models) scene.models = scene.header.runs.map((r, j) => {
    if (r.kind === "hinge") return new HingeModel(scene, j);
    if (r.kind === "perceptron") return new PerceptronModel(scene, j);
    throw new Error(`a compared run of kind ${r.kind}`);
  });
  return scene.models;
}

class CompareModel {
  // the runs `picks` (one index per side) of a Compare scene
  constructor(scene, picks) {
    const h = this.h = scene.header;
    compareSides(h);
    checkPoints(scene.arrays.X, scene.arrays.y);
    checkBox(h.box);
    this.picks = picks;
    this.titles = picks.map((j) => h.titles[j]);
    const runs = compareRuns(scene);
    this.panels = picks.map((j) => runs[j]);
    const refs = h.reference ?? null;  // the exact SVM of each C the hinge runs have
    if (refs !== null && !(Array.isArray(refs) && refs.length && refs.every((r) => r && Array.isArray(r.w) &&
        r.w.length === 2 && [...r.w, r.b, r.C].every(Number.isFinite))))
      throw new Error("the exact SVM's w, b and C are not numbers");
    // each panel's exact SVM: a hinge run's C's (checked in viz.scene.compare_scene)
    this.refs = this.panels.map((p) => (refs && p.run.kind === "hinge" ? refs[nearest(refs.map((r) => r.C), p.run.C)] : null));
    const p = this.panels[0];
    this.X = p.X; this.y = p.y; this.N = p.N; this.box = h.box;
    this.S = Math.max(this.panels[0].S, this.panels[1].S);
    this.run = {};  // (no τ of its own: each side follows its own control, header.sides)
  }
  get nStops() { return this.S + 1; }
  stepAt(i) { return i; }
  stopOf(step) { return Math.max(0, Math.min(this.S, step)); }

  // compare_state (tests/oracles.py): panel j's state at the common step t, in plain words
  stateLine(j, t) {
    const p = this.panels[j], s = Math.min(t, p.S), k = p.stateOf(s);
    const {list, count} = p.members(k, 7);
    let line = `Step ${grouped(s)} of ${grouped(p.S)}: w = ${vec(p.w(k))}, b = ${num(p.B[k])}; ${mistakesText(list, count, this.N, 6)}`;
    if (p.run.kind === "hinge") {
      p.goState(k);
      let r = 0;
      for (let i = 0; i < this.N; i++) r += p.mask[i];
      line += `; margin < 1 (in squares): ${grouped(r)} of ${grouped(this.N)}`;
    }
    return (t > p.S ? `finished at step ${grouped(p.S)} (holds its last state)\n` : "") + line;
  }

  formulaColumns(t) {
    return this.panels.map((p, j) => [`${j ? "Right" : "Left"}: ${this.titles[j].split("\n")[0]}`, p.formula(Math.min(t, p.S))]);
  }
}

class CompareView extends Panels {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    const all = (c) => Array.from(root.querySelectorAll(c));
    this.plots = all(".dbls-plot"); this.unders = all(".dbls-under"); this.overs = all(".dbls-over");
    this.canvases = all(".dbls-rings");
    this.states = all(".dbls-cmp-state"); this.titles = all(".dbls-cmp-title");
    const N = model.N, k = this.k, size = N <= 100 ? 10 : N <= 400 ? 8 : N <= 1000 ? 6 : 4;  // viz.compare's sizes
    this.size = size * k;
    this.ring = (N <= 100 ? [2 * size + 2, 2.2] : N <= 400 ? [size + 7, 1.5] : [size + 5, 1.2]).map((v) => v * k);
    this.sizeExam();
  }
  sizeExam() {  // the examined points' disc: smaller where a step examines a batch
    const size = this.size / this.k;
    this.exam = this.m.panels.map((p) => (p.run.variant === "minibatch" && p.run.batch_size > 1 ? 2 * size + 2 : Math.max(22, 2 * size + 6)) * this.k);
  }

  // a control the panels follow moved (τ left, B right, C…): that side's run (and a hinge run's exact SVM), at the same
  // step; the points stay drawn
  sync() {
    const picks = comparePicks(this.m.h, this);
    if (picks.every((j, side) => j === this.m.picks[side])) return;
    const step = this.step, before = this.m;
    try { this.m = new CompareModel(this.scene, picks); } catch (e) { fail(this.root, e.message); return; }
    this.sizeExam();
    this.range.max = String(this.m.nStops - 1);
    this.titles.forEach((el, j) => { el.textContent = this.m.titles[j]; });
    this.plots.forEach((gd, j) => { if (gd.layout) gd.layout.meta = this.panelLayout(j, this.sz.W, this.sz.H).meta; });
    if (this.m.refs.some((r, j) => r !== before.refs[j])) this.drawLegend();  // (its C)
    this.show(this.m.stopOf(step));
  }

  // whether a control shows a value this record does not hold (a partial record holds the values shown when it was
  // made): the chart is then dimmed and busy until the server's record arrives (syncControls)
  waits() {
    const h = this.m.h;
    return Boolean(h.partial) && compareSides(h).some((side, j) => {
      const text = controlValue(side.follow);
      return text !== null && Number(text) !== this.m.panels[j].run[side.key];
    });
  }

  // ----- what a step shows in each panel, decided once: the geometry the live layers and an exported image draw
  geometry(t) {
    const m = this.m, span = m.box[1] - m.box[0], c = [(m.box[0] + m.box[1]) / 2, (m.box[2] + m.box[3]) / 2];
    const clip = [c[0] - 2 * span, c[0] + 2 * span, c[1] - 2 * span, c[1] + 2 * span];  // lines reach past the view
    return m.panels.map((p, j) => {
      const s = Math.min(t, p.S), k = p.stateOf(s), live = s === t, hinge = p.run.kind === "hinge";
      // the state before the step, where the step moved the boundary by a data term (an update; an active hinge)
      const kp = live && s > 0 && (hinge ? p.active[s - 1] === 1 : k > 0 && p.US[k - 1] === s) ? k - 1 : k;
      const [w0, w1] = p.w(k), b = p.B[k];
      p.goState(k);
      const rx = [], ry = [];
      for (let i = 0; i < m.N; i++) if (p.mask[i]) { rx.push(m.X[2 * i]); ry.push(m.X[2 * i + 1]); }
      const ex = live && p.run.variant !== "batch" ? p.examined(s) : [];  // a finished run examines nothing
      const [o0, o1] = p.w(kp), ref = m.refs[j];
      return {s, k, ref: ref ? segment(clip, ref.w[0], ref.w[1], ref.b) : null, regPos: region(clip, w0, w1, b, 1), regNeg: region(clip, w0, w1, b, -1), ring: [rx, ry],
              exam: [ex.map((i) => m.X[2 * i]), ex.map((i) => m.X[2 * i + 1])], line: segment(clip, w0, w1, b),
              old: kp !== k ? segment(clip, o0, o1, p.B[kp]) : NONE, ringId: hinge ? "hinge" : "ring"};
    });
  }

  // ----- the legend (HTML, under the panels): a click hides that part in both
  legendItems() {
    const m = this.m, items = [
      ["exam", "examined this step", `<circle cx="9" cy="9" r="7" fill="${HIGHLIGHT}" stroke="${HIGHLIGHT_LINE}" stroke-width="2"/>`],
      ...classEntries(this.scene.header.view),
    ];
    const ring = `<circle cx="9" cy="9" r="6.5" fill="none" stroke="${INK}" stroke-width="2"/>`;
    const perc = m.panels.find((p) => p.run.kind === "perceptron");
    if (perc) items.push(["ring", `M: misclassified, y·(w·x+b) ${perc.run.update_on === "negative" ? "<" : "≤"} 0`, ring]);
    if (m.panels.some((p) => p.run.kind === "hinge"))  // (square: ringShape)
      items.push(["hinge", "margin < 1 (active hinge): y·(w·x+b) < 1", `<rect x="3" y="3" width="12" height="12" fill="none" stroke="${INK}" stroke-width="2"/>`]);
    items.push(["line", "boundary w·x + b = 0", `<line x1="1" y1="9" x2="17" y2="9" stroke="${INK}" stroke-width="4"/>`],
               ["old", "previous boundary", `<line x1="1" y1="9" x2="17" y2="9" stroke="${OLD_INK}" stroke-width="2.5" stroke-dasharray="4 3"/>`]);
    const ref = m.refs.find(Boolean);
    if (ref)
      items.push(["ref", `exact SVM (C = ${String(ref.C)}): w*·x + b* = 0`,  // (C as its control writes it)
                  `<line x1="1" y1="9" x2="17" y2="9" stroke="${REFERENCE}" stroke-width="3" stroke-dasharray="${REF_DASH.map((d) => d * 0.6).join(" ")}"/>`]);
    return items;
  }

  // ----- plotly.js: the points of each panel (the exact SVM is drawn with the step: a new C draws no points again)
  panelTraces() { return PerceptronView.prototype.mainTraces.call(this).slice(0, 2); }
  axis(extra) { return PerceptronView.prototype.axis.call(this, extra); }
  panelLayout(j, width, height) {
    const layout = PerceptronView.prototype.mainLayout.call(this, width, height);
    const p = this.m.panels[j];
    layout.meta = {view: "compare", side: j ? "right" : "left", kind: p.run.kind, n_points: this.m.N, n_steps: p.S,
                   steps: this.m.S, title: this.m.titles[j]};
    return layout;
  }

  // ----- sizes: the two panels side by side (one over the other below 460 px: a phone), square, within the figure
  // height (and in presentation mode within the window) once what lies above and below them is counted
  sizes() {
    const k = this.k, width = Math.max(this.root.clientWidth || 800, 300), ml = Math.round(56 * k), mb = Math.round(46 * k);
    // presentation mode on a wide screen: the legend is a column beside the panels, which gain its rows' height
    const side = k > 1 && width >= 1000, legendW = side ? Math.round(Math.min(280 * k, 0.24 * width)) : 0;
    // side by side where each panel keeps a plot area of MIN_AREA px, else one over the other, each as wide as the
    // chart; presentation mode keeps the two side by side on one screen, from 460 px
    const half = Math.floor((width - legendW - (side ? 2 : 1) * GAP) / 2);
    const two = width >= 460 && (k > 1 || half - ml - 8 >= MIN_AREA);
    const P = two ? half : width;
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
    const around = this.around || Math.round((2 + 3) * 1.45 * fs + 2.4 * fs + 3.2 * fs + 24);  // titles, states, legend, controls
    let budget = two ? this.m.h.view.height - around : Infinity;  // stacked, each panel keeps its square
    if (k > 1) budget = Math.min(budget, this.room(around));
    const H = Math.max(200, Math.min(P - ml - 8 + 6 + mb, budget));  // a square data area when there is room
    return {width, two, side, legendW, P, H, W: Math.min(P, H - mb - 6 + ml + 8)};  // a short panel narrows to keep it square
  }
  layoutClasses(sz) {
    this.root.classList.toggle("dbls-cmp-two", sz.two);
    this.root.classList.toggle("dbls-beside", sz.side);
    this.root.style.setProperty("--dbls-p", `${sz.P}px`);
    this.root.style.setProperty("--dbls-l", `${sz.legendW}px`);
  }

  async drawPanels(old) {
    const m = this.m, sz = this.sz, h = m.h, bytes = (a) => fingerprint(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    const key = JSON.stringify([h.box, h.view.scale, h.view.axes, sz.W, sz.H, m.X.length, bytes(m.X), bytes(m.y)]);
    this.keys = [];
    for (let j = 0; j < 2; j++) {
      const layout = this.panelLayout(j, sz.W, sz.H), gd = this.plots[j];
      if (!old || !old.keys || old.keys[j] !== key || !gd._fullLayout) await this.Plotly.react(gd, this.panelTraces(j), layout, CONFIG);
      else gd.layout.meta = layout.meta;  // the same points: not drawn again
      this.keys.push(key);
    }
  }

  async mount(at, old) {
    const m = this.m;
    this.range.max = String(m.nStops - 1);
    this.i = m.stopOf(at);
    this.titles.forEach((el, j) => { el.textContent = m.titles[j]; });
    this.drawLegend();
    if (old && old.around !== undefined) this.around = old.around;  // what lay around the panels: a new run keeps their size
    this.sz = this.sizes();
    this.layoutClasses(this.sz);
    await this.drawPanels(old);
    for (const tip of this.root.querySelectorAll(".dbls-tip")) tip.hidden = true;  // (the last record's labels)
    this.plots.forEach((gd, j) => {
      stateOf(gd).view = this;
      if (!stateOf(gd).hooked) {
        stateOf(gd).hooked = true;
        gd.on("plotly_afterplot", () => stateOf(this.root).view && stateOf(this.root).view.drawStep());
        // a hovered point: each panel's label, over its step's layers (Stepping.hover)
        gd.on("plotly_hover", (ev) => stateOf(this.root).view && stateOf(this.root).view.hoverPanel(j, ev));
        gd.on("plotly_unhover", () => stateOf(this.root).view && stateOf(this.root).view.hoverPanel(j, null));
      }
    });
    this.show(this.i);
    await this.fit();
  }

  // panel j's label for a hovered point: its name and place, and whether it is in that run's ringed set at the step
  // shown (M, or the active hinges), as the core judged it
  hoverPanel(j, ev) {
    const pt = ev && ev.points && ev.points[0];
    (this.tipAt || (this.tipAt = [null, null]))[j] = pt ? this.pointOf(pt) : null;
    this.drawPanelTip(j);
  }
  // (show() writes them again as the step moves under a resting pointer)
  drawPanelTip(j) {
    const tip = this.root.querySelectorAll(".dbls-tip")[j], gd = this.plots[j], fl = gd && gd._fullLayout;
    const i = this.tipAt ? this.tipAt[j] : null;
    if (!tip) return;
    if (i === null || !fl || !fl.xaxis || !this.g) { tip.hidden = true; return; }
    const m = this.m, p = m.panels[j], g = this.g[j];
    p.goState(g.k);
    const words = ringWords(p.mask[i], p.run.kind === "hinge", p.run.update_on === "negative");
    placeTip(tip, fl, m.X, i, `${pointName(m, i)}<br>${words} after step ${grouped(g.s)}`);
  }

  // what is not the panels: their titles and state lines, then the legend (unless it stands beside) and the controls
  aroundNow() {
    const cmp = this.root.querySelector(".dbls-cmp").offsetHeight, ctl = this.root.querySelector(".dbls-controls").offsetHeight;
    // (the lesson under the controls takes no room from the panels)
    return this.sz.side ? cmp - this.sz.H + ctl + 16 : this.root.offsetHeight - this.sz.H - lessonHeight(this.root);
  }

  show(i) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.nStops - 1, i));
    const t = this.step;
    this.g = this.geometry(t);
    this.drawStep();
    const lines = [0, 1].map((j) => m.stateLine(j, t));
    this.states.forEach((el, j) => { el.textContent = lines[j]; });
    this.range.value = String(this.i);
    this.label.textContent = `Step ${grouped(t)} of ${grouped(m.S)}`;
    this.root.dataset.step = String(t);
    showLesson(this, t);
    if (this.live) this.live.textContent = `Step ${grouped(t)} of ${grouped(m.S)}. Left, ${m.titles[0].split("\n")[0]}: ${lines[0].replace("\n", "; ")}. ` +
      `Right, ${m.titles[1].split("\n")[0]}: ${lines[1].replace("\n", "; ")}.`;
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.nStops - 1;
    this.keepFocus();
    if (this.tipAt) [0, 1].forEach((j) => this.drawPanelTip(j));
  }

  // ----- one step on screen: each panel's SVG layers
  drawStep() {
    const g = this.g || (this.g = this.geometry(this.step));
    this.plots.forEach((gd, j) => {
      const fl = gd._fullLayout;
      if (!fl || !fl.xaxis || !fl.xaxis._length) return;
      const id = `dbls-cmp-clip-${this.clipId || (this.clipId = nextClipId())}-${j}`;
      const ref = g[j].ref && !this.hidden.has("ref") ? (P) => P.seg(g[j].ref, REFERENCE, 3 * this.k, REF_DASH.map((d) => d * this.k).join(" ")) : undefined;
      drawPanel(this, fl, g[j], {under: this.unders[j], rings: this.canvases[j], over: this.overs[j]}, id, this.exam[j], g[j].ringId, undefined, ref);
    });
  }

  // what each panel shows, in data coordinates (for tests and the curious)
  drawn() {
    const arr = ([x, y]) => ({x: Array.from(x), y: Array.from(y)});
    return this.g.map((p) => ({s: p.s, k: p.k, ring: arr(p.ring), exam: arr(p.exam), old: arr(p.old), line: arr(p.line),
                               regPos: arr(p.regPos), regNeg: arr(p.regNeg), ref: p.ref ? arr(p.ref) : null}));
  }

  // one Plotly figure of the chart as it stands: both panels with the step's geometry, titles and state lines
  figure() {
    const m = this.m, k = this.k, g = this.g, sz = this.sz, data = [];
    const names = Object.fromEntries(this.legendItems().map(([id, label]) => [id, label]));
    const seen = new Set();
    // each panel's state line a clause a line (the panels are narrow), under it the legend across both
    const lines = [0, 1].map((j) => m.stateLine(j, this.step).replace(/; /g, "\n"));
    const rows = Math.max(...lines.map((t) => t.split("\n").length)), legendPx = Math.round(70 * k);
    const W = 2 * sz.W + GAP, top = Math.round(64 * k), bottom = Math.round((50 + rows * 18) * k) + legendPx;
    g.forEach((p, j) => {
      const ax = j ? {xaxis: "x2", yaxis: "y2"} : {xaxis: "x", yaxis: "y"};
      const tr = (id, xy, extra) => {  // (a region has no legend entry: the points' entries are the classes')
        const legend = extra.mode !== "none" && !seen.has(id);
        if (legend) seen.add(id);
        return {type: "scatter", name: names[id], x: xy[0].length ? Array.from(xy[0]) : [null], y: xy[1].length ? Array.from(xy[1]) : [null],
                hoverinfo: "skip", visible: !this.hidden.has(id), legendgroup: id, showlegend: legend, ...ax, ...extra};
      };
      data.push(tr("pos", p.regPos, {fill: "toself", fillcolor: REGION.pos, mode: "none"}),
                tr("neg", p.regNeg, {fill: "toself", fillcolor: REGION.neg, mode: "none"}));
      for (const t of this.panelTraces(j)) {
        const id = t.name === "y = +1" ? "pos" : "neg";
        data.push({...t, ...ax, legendgroup: id, showlegend: !seen.has(id) && t.visible !== false});
        seen.add(id);
      }
      if (p.ref) data.push(tr("ref", p.ref, {mode: "lines", line: {color: REFERENCE, width: 3 * k, dash: REF_DASH.map((d) => `${d * k}px`).join(",")}}));
      data.push(tr(p.ringId, p.ring, {mode: "markers", marker: {symbol: `${ringShape(p.ringId)}-open`, size: this.ring[0] * (p.ringId === "hinge" ? SQUARE_SIDE / 2 : 1), color: INK, line: {width: this.ring[1]}}}),
                tr("exam", p.exam, {mode: "markers", marker: {size: this.exam[j], color: HIGHLIGHT, line: {color: HIGHLIGHT_LINE, width: 3 * k}}}),
                tr("old", p.old, {mode: "lines", line: {color: OLD_INK, width: 2.5 * k, dash: "dash"}}),
                tr("line", p.line, {mode: "lines", line: {color: INK, width: 4 * k}}));
    });
    const main = this.panelLayout(0, sz.W, sz.H), half = sz.W / W;
    const note = (text, x, y, anchor, size) => ({text: esc(text).replace(/\n/g, "<br>"), xref: "paper", yref: "paper", x, y,
                                                xanchor: "center", yanchor: anchor, align: "center", showarrow: false,
                                                font: {size: size * k, color: INK}});
    return {data, layout: {
      ...main, width: W, height: sz.H + top + bottom, showlegend: true, paper_bgcolor: "white",
      plot_bgcolor: "white", margin: {...main.margin, t: top, b: bottom, r: 10},
      legend: {orientation: "h", x: 0, xanchor: "left", y: legendPx / (sz.H + top + bottom), yanchor: "top", yref: "container",
               font: {size: 13 * k}},
      xaxis: {...main.xaxis, domain: [0, half - 0.02]}, yaxis: {...main.yaxis, anchor: "x"},
      xaxis2: {...main.xaxis, domain: [half + 0.02, 1], anchor: "y2"}, yaxis2: {...main.yaxis, scaleanchor: "x2", anchor: "x2"},
      annotations: [note(m.titles[0], half / 2, 1, "bottom", 16), note(m.titles[1], (1 + half) / 2, 1, "bottom", 16),
                    {...note(lines[0], half / 2, 0, "top", 13), yshift: -Math.round(50 * k)},
                    {...note(lines[1], (1 + half) / 2, 0, "top", 13), yshift: -Math.round(50 * k)}],
    }};
  }
}

const CMP_PANEL = (j) => `<div class="dbls-cmp-panel" data-side="${j}">
  <div class="dbls-cmp-title"></div>
  <div class="dbls-stage"><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot"></div><canvas class="dbls-canvas dbls-canvas-over dbls-rings" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-cmp-state"></div>
</div>`;

const CMP_SHELL = `<div class="dbls-cmp">${CMP_PANEL(0)}${CMP_PANEL(1)}</div>
<div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
${CONTROLS}
${MATH}
<div class="dbls-live" aria-live="polite" role="status"></div>`;

export const COMPARE_KIND = {shell: CMP_SHELL, View: CompareView, sketch: true,
                 model: (scene, old) => new CompareModel(scene, comparePicks(scene.header, old && old.m.h.kind === "compare" ? old : null))};
