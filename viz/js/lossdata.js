// ---------------------------------------------------------------------------------------------------
// the Loss page's data chart (viz/scene.py: LossDataScene): the points and the weight chosen on the surface beside it
// ---------------------------------------------------------------------------------------------------
// The chosen (w, b)'s boundary w·x + b = 0, its two sides shaded, M's rings (the core's, sent) and the lit point, in
// layers over the points (as the step-through views draw a step); the state in words under it (data_state in
// tests/oracles.py is its Python twin). A weight picked on the surface (LossView.preview) is drawn here at once, M by
// the rule y·((x₁w₁ + x₂w₂) + b) ≤ 0 summed as the core sums it, until the page's record made after the pick
// (View.seen) replaces it (meta.pending until then). The losses written are those of the λ the page's λ control
// shows: the record holds each λ's (the chart follows the control, as the surface does).
import {GAP, INK, NEG, NONE, POS, REGION, classEntries, drawPanel, nextClipId, offView} from "./draw.js";
import {followedValue, nearest} from "./follow.js";
import {grouped, isText, mistakesText, names, num, sub, vec} from "./format.js";
import {region, segment} from "./geometry.js";
import {FIT_PAD, MIN_AREA, MIN_PLOT, pointName, ringWords, windowRoom} from "./layout.js";
import {CHOSEN_INK, LOSSES, lossesAt} from "./loss.js";
import {PerceptronView} from "./perceptron.js";
import {checkBox, checkPoints} from "./record.js";
import {Stepping} from "./stepping.js";
import {stateOf} from "./state.js";


const LD_NAMES = 3;  // LOSS_STATE_NAMES in tests/oracles.py: most points the state line names on one line
const LD_WORDS = 170;  // px: the least width the legend and the words take beside the plot
const LD_SHELL = `<div class="dbls-ld-title"></div>
<div class="dbls-figure">
  <div class="dbls-stage"><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot"></div><canvas class="dbls-canvas dbls-canvas-over dbls-rings" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
</div>
<div class="dbls-state dbls-ld-state"></div>
<div class="dbls-live" aria-live="polite" role="status"></div>`;

class LossDataModel {
  constructor({header, arrays}) {
    const h = this.h = header, a = arrays, r = this.run = h.run;
    for (const k of ["X", "y", "mis"]) if (!a[k]) throw new Error(`the scene has no ${k}`);
    checkPoints(a.X, a.y);
    checkBox(h.box);
    this.X = a.X; this.y = a.y; this.N = a.y.length; this.box = h.box; this.mis = a.mis;
    if (!r || !Array.isArray(r.names) || !r.names.length || r.names.some((nm) => !LOSSES.includes(nm)) ||
        !r.names.every((nm) => isText((r.titles || {})[nm]) && isText((r.shorts || {})[nm])))
      throw new Error("the scene names no loss this renderer writes");
    if (!Array.isArray(r.lams) || !r.lams.length || !r.lams.every((v) => v >= 0 && Number.isFinite(v)))
      throw new Error("the scene's λ values are not numbers ≥ 0");
    if (!Array.isArray(r.clip) || r.clip.length !== 4 || !r.clip.every(Number.isFinite)) throw new Error("the scene's clip box is not numbers");
    const c = r.chosen;
    if (c && !(Array.isArray(c.w) && c.w.length === 2 && [...c.w, c.b].every(Number.isFinite)))
      throw new Error("the chosen weight is not a number");
    if (c && !(r.losses && r.names.every((nm) => Array.isArray(r.losses[nm]) && r.losses[nm].length === r.lams.length &&
                                                 r.losses[nm].every(Number.isFinite))))
      throw new Error("the chosen weight has no loss for each λ");
    if (!(a.mis instanceof Uint16Array || a.mis instanceof Uint32Array)) throw new Error("M is not point numbers");
    if (!c && a.mis.length) throw new Error("M is sent with no weight chosen");
    for (const i of a.mis) if (i >= this.N) throw new Error(`M names point ${i + 1} of ${this.N}`);
    if (r.lit !== null && !(Number.isInteger(r.lit) && r.lit >= 0 && r.lit < this.N)) throw new Error(`point ${r.lit} cannot be lit`);
  }
  // M at (w, b) by the rule, for a weight picked ahead of its record: yᵢ((xᵢ₁w₁ + xᵢ₂w₂) + b) ≤ 0, as the core sums it
  misAt(w, b) {
    const out = [];
    for (let i = 0; i < this.N; i++) if (this.y[i] * ((this.X[2 * i] * w[0] + this.X[2 * i + 1] * w[1]) + b) <= 0) out.push(i);
    return out;
  }
  // the state in words (tests/oracles.py: data_state): w and b; M (the count, then its first names, when many); the losses
  stateLine(w, b, mis, losses) {
    const n = this.N, lines = [`w = ${vec(w)}, b = ${num(b)}`];
    if (mis.length <= LD_NAMES) lines.push(mistakesText(mis, mis.length, n, LD_NAMES));
    else lines.push(`${grouped(mis.length)} of ${grouped(n)} misclassified:`, `${names(mis.slice(0, LD_NAMES))}, …`);
    const r = this.run, many = losses.length > 1;
    if (losses.length) lines.push((many ? "loss: " : "") + losses.map(([nm, v]) => `${many ? r.shorts[nm] : r.titles[nm]} ${num(v)}`).join(", "));
    return lines.join("\n");
  }
}

class LossDataView extends Stepping {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    this.under = root.querySelector(".dbls-under"); this.ringsEl = root.querySelector(".dbls-rings");
    this.titleEl = root.querySelector(".dbls-ld-title");
    const N = model.N, k = this.k, size = N <= 100 ? 10 : N <= 400 ? 8 : N <= 1000 ? 6 : 5;
    this.size = size * k;
    this.ring = (N <= 100 ? [2 * size, 2.5] : N <= 400 ? [size + 7, 1.5] : N <= 1000 ? [size + 5, 1.3] : [size + 3, 1.0])
      .map((v) => v * k);
    this.picked = null;
    this.li = this.lamIndex(null);
    this.plot.setAttribute("role", "img");  // (the data and the chosen weight's boundary; its state is said as it changes)
    this.plot.setAttribute("aria-label", "The data with the chosen weight's boundary w·x + b = 0");
  }
  get step() { return 0; }
  position() { return null; }  // (nothing moves: a copied link has no step of this chart)

  // the λ shown: the page's control's, else the one shown before, else the view's, else the first
  lamIndex(before) {
    const lams = this.m.run.lams, want = followedValue(this.m.h);
    return nearest(lams, want ?? (before === null ? null : lams[before] ?? null) ?? this.m.h.view.lam);
  }
  sync() {
    const li = this.lamIndex(this.li);
    if (li !== this.li) { this.li = li; this.show(); }
  }

  async mount(at, old) {
    const prev = old instanceof LossDataView ? old : null;
    if (prev) this.li = this.lamIndex(prev.li);
    const r = this.m.run;
    this.titleEl.textContent = r.clickable ? "Click a weight on the surface: its boundary w·x + b = 0 is drawn here."
      : "Weights are chosen by a click on the filled contours over w₁, w₂ (the first slice).";
    this.root.classList.toggle("dbls-ld-clicks", r.clickable);  // (room kept for the longest state: the plot stays put)
    this.drawLegend();
    const sz = this.ldSz = this.sizes();
    this.placed(sz);
    await this.drawData(prev, sz.width, sz.height);
    if (!stateOf(this.plot).hooked) {
      stateOf(this.plot).hooked = true;
      this.plot.on("plotly_afterplot", () => { const v = stateOf(this.root).view; if (v && v.drawStep) v.drawStep(); });
    }
    this.hookHover();  // (a hovered point's name and place: Stepping.tipFor)
    // a weight picked after the page made this record (View.seen) is drawn over it again: the last view's, or one picked
    // while this one was drawn
    const seen = this.m.h.view.seen ?? -Infinity, picks = [this.picked, prev ? prev.picked : null].filter((q) => q && q.at > seen);
    this.picked = picks.length ? picks.reduce((a, q) => (q.at > a.at ? q : a)) : null;
    this.show();
  }

  // the plot's size: at most the view's height (× the scale) with the title over it, in presentation mode the window
  // below its top, and under the surface (loss.js: placeWords) what the window leaves under its panels, so that a
  // weight clicked there and its boundary here are on one screen. Where that height holds the plot narrower than its
  // column by LD_WORDS or more (x₁ and x₂ at one scale), the legend and the words stand beside it, on the screen with
  // it; else the plot takes the column's width (no taller than it needs) and they go under it
  sizes() {
    const k = this.k, box = this.m.box, width = Math.max(this.root.clientWidth || 400, 200), title = this.titleEl.offsetHeight;
    const margin = {l: Math.round(56 * k), r: 8, t: 6, b: Math.round(46 * k)}, around = margin.t + margin.b;  // (mainLayout's)
    const ratio = (box[3] - box[2]) / (box[1] - box[0]), plotW = (h) => Math.round((h - around) / ratio + margin.l + margin.r);
    let most = this.m.h.view.height * k - title - 8;
    if (k > 1) most = Math.min(most, windowRoom(this.root, FIT_PAD) - title - 8);
    const panels = document.querySelector(".st-key-loss_chart .dbls-data-below .dbls-loss");
    // (no less than a plot area of MIN_AREA px on the normal page, where the window under the surface's panels leaves
    // less: the page then scrolls between them)
    if (panels) most = Math.min(most, Math.max(k > 1 ? 220 : MIN_AREA + around, window.innerHeight - panels.offsetHeight - title - 24));
    const sideH = Math.round(Math.max(MIN_PLOT + around, most));
    if (width - plotW(sideH) - GAP >= LD_WORDS * k) return {width: plotW(sideH), height: sideH, side: true};
    const was = this.root.classList.contains("dbls-ld-side");
    if (was) this.root.classList.remove("dbls-ld-side");  // (the words measured where they then stand: under the plot)
    const under = this.legendEl.offsetHeight + this.stateEl.offsetHeight;
    if (was) this.root.classList.add("dbls-ld-side");
    const square = (width - margin.l - margin.r) * ratio + around;  // (under the surface: the plot on the screen, the
    const room = panels ? most : most - under;  // words under it may fall below the window's edge; else all of it fits)
    return {width, height: Math.round(Math.max(MIN_PLOT + around, Math.min(square, room))), side: false};
  }
  placed(sz) {
    this.root.classList.toggle("dbls-ld-side", sz.side);
    this.root.style.setProperty("--dbls-s", `${sz.width}px`);
  }
  resize() {
    const sz = this.sizes(), was = this.ldSz;
    if (was && was.side === sz.side && Math.abs(sz.width - was.width) < 2 && Math.abs(sz.height - was.height) < 2) return;
    this.ldSz = sz;
    this.placed(sz);
    this.drawData(this, sz.width, sz.height).then(() => this.drawStep(), () => {});  // (a chart hidden meanwhile)
  }

  legendItems() {
    const items = [
      ...classEntries(this.scene.header.view),
      ["ring", "M: misclassified", `<circle cx="9" cy="9" r="6.5" fill="none" stroke="${INK}" stroke-width="2"/>`],
      ["line", "chosen w·x + b = 0", `<line x1="1" y1="9" x2="17" y2="9" stroke="${CHOSEN_INK}" stroke-width="4"/>`],
      ["sides", "its sides: w·x + b > 0, < 0", `<rect x="1" y="2" width="16" height="7" fill="${REGION.pos.replace("0.10", "0.35")}"/><rect x="1" y="9" width="16" height="7" fill="${REGION.neg.replace("0.10", "0.35")}"/>`],
    ];
    const lit = this.m.run.lit;
    if (lit !== null) items.push(["lit", `x${sub(lit + 1)} lit`, `<circle cx="9" cy="9" r="6.5" fill="rgba(230,159,0,0.35)" stroke="${CHOSEN_INK}" stroke-width="2"/>`]);
    return items;
  }

  // the points and the panel as the Perceptron's data panel draws them (its traces, axes and margins), with this
  // chart's meta
  mainTraces() { return PerceptronView.prototype.mainTraces.call(this); }
  mainLayout(width, height) { return {...PerceptronView.prototype.mainLayout.call(this, width, height), meta: this.meta()}; }
  axis(extra) { return PerceptronView.prototype.axis.call(this, extra); }

  // the weight drawn: the one picked here ahead of its record (M by the rule, the losses as the surface samples
  // them), else the record's (M and the losses from the core), else none
  chosenNow() {
    const m = this.m, r = m.run;
    if (this.picked) {
      const {w, b} = this.picked, at = lossesAt(m.X, m.y, m.N, w[0], w[1], b, r.lams[this.li]);
      return {w, b, mis: m.misAt(w, b), losses: r.names.map((nm) => [nm, at[nm]]), pending: true};
    }
    if (!r.chosen) return null;
    return {w: r.chosen.w, b: r.chosen.b, mis: Array.from(m.mis), losses: r.names.map((nm) => [nm, r.losses[nm][this.li]]), pending: false};
  }
  // what the chart shows, for tests and the curious (kept on the plot's layout.meta, as the still figure's was)
  meta() {
    const c = this.c, clip = this.m.run.clip;
    const seg = c ? segment(clip, c.w[0], c.w[1], c.b) : NONE;
    return {view: "loss_data", chosen: c ? [c.w[0], c.w[1], c.b] : null, boundary_x: Array.from(seg[0]), boundary_y: Array.from(seg[1]),
            clip, pending: Boolean(c && c.pending), mis: c ? Array.from(c.mis) : [], lam: this.m.run.lams[this.li]};
  }

  // a hovered point's label: its name and place, and whether the weight chosen misclassifies it (M, as the rings: the
  // core's once the page's record has it)
  tipFor(i) {
    const c = this.c;
    if (!c) return pointName(this.m, i);
    return `${pointName(this.m, i)}<br>${ringWords(c.mis.includes(i))} at the weight chosen`;
  }

  previewPick(pick) { this.picked = pick; this.show(); }
  dropPick() { this.picked = null; }

  show() {
    const m = this.m, c = this.c = this.chosenNow(), clip = m.run.clip, sides = c && (c.w[0] || c.w[1]);
    this.g = {regPos: sides ? region(clip, c.w[0], c.w[1], c.b, 1) : NONE, regNeg: sides ? region(clip, c.w[0], c.w[1], c.b, -1) : NONE,
              ring: c ? [c.mis.map((i) => m.X[2 * i]), c.mis.map((i) => m.X[2 * i + 1])] : NONE, exam: NONE, old: NONE, line: NONE,
              chosen: c ? segment(clip, c.w[0], c.w[1], c.b) : NONE};
    if (this.plot.layout) this.plot.layout.meta = this.meta();  // (read by nothing that draws: a relayout would redraw every point)
    this.drawStep();
    const line = c ? m.stateLine(c.w, c.b, c.mis, c.losses) : "";
    this.stateEl.textContent = line;
    if (this.live) this.live.textContent = line.replace(/\n/g, ". ");
    if (c && c.pending) this.root.setAttribute("aria-busy", "true");  // (the page's record, which has seen the pick, clears it)
    else this.root.removeAttribute("aria-busy");
    if (this.tipAt !== undefined && this.tipAt !== null) this.drawTip();  // (a new weight under a resting pointer)
  }
  drawStep() {
    const fl = this.plot._fullLayout;
    if (!fl || !fl.xaxis || !fl.xaxis._length || !this.g) return;
    const k = this.k, on = (id) => !this.hidden.has(id), lit = this.m.run.lit;
    const g = on("sides") ? this.g : {...this.g, regPos: NONE, regNeg: NONE};  // (the legend hides them)
    const id = this.clipId || (this.clipId = `dbls-clip-${nextClipId()}`);
    const c = this.c;
    drawPanel(this, fl, g, {under: this.under, rings: this.ringsEl, over: this.over}, id, 0, "ring", (P) =>
      (on("line") ? P.seg(g.chosen, CHOSEN_INK, 4 * k) + (c ? offView(fl, [c.w[0], c.w[1], c.b], k, this.m.X).svg : "") : "") +
      (lit !== null && on("lit") ? `<path d="${P.circles([[this.m.X[2 * lit]], [this.m.X[2 * lit + 1]]], 12 * k)}" fill="rgba(230,159,0,0.35)" stroke="${CHOSEN_INK}" stroke-width="${3 * k}"/>` : ""));
  }
  // nothing moves
  go() {} play() {}
  key() { return false; }
}

export const LOSSDATA_KIND = {shell: LD_SHELL, sketch: true, model: (scene) => new LossDataModel(scene), View: LossDataView};
