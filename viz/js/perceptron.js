// The Perceptron step-through view (PerceptronView): the data panel with the boundary before and after, the update
// arrow τ·y·x, M's rings, the |M| and loss strip, the words and the proof of the mistake bound; and its kind.

import {CONFIG, EXAM_MANY, GAP, GL_POINTS, HIGHLIGHT, HIGHLIGHT_LINE, INK, NEG, NONE, OLD_INK, POS, PURPLE, REGION, UPDATE, classEntries, drawPanel, examHalo, layer, nextClipId, offView} from "./draw.js";
import {followedValue, runFor, slotOf, wantedSlot} from "./follow.js";
import {afterUpdates, fixed, general, grouped, num} from "./format.js";
import {region, segment} from "./geometry.js";
import {FONT, esc, f1, holdTallest, pointName, ringWords, sideKey, tallestTexts} from "./layout.js";
import {KATEX, TW, TX, lessonWidth, mathRows, proofLayout, proofMark, proofTraces, showLesson, tn} from "./lesson.js";
import {PerceptronModel} from "./perceptron-model.js";
import {SHELL} from "./shells.js";
import {painted} from "./sketch.js";
import {Stepping} from "./stepping.js";
import {stateOf} from "./state.js";

const GIVE_BACK = 3;  // steps a presentation-mode panel's cut may be given back in (PerceptronView.fitSide)

export class PerceptronView extends Stepping {
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
      ...classEntries(this.scene.header.view),
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

  // the strip at another width: its height, and the step axis's right end, padded for that width (the padding is in
  // px: an end kept from another width would differ from the one plotly.js's drawing of this width gets)
  stripResized(width) {
    const s = this.stripLayout(width);
    return {width, height: s.height, "xaxis.range": s.xaxis.range};
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
  // grows, so it settles after the longest words seen. Once every run's tallest words are held (holdWords: final) it
  // gives back what it took too much (a first fit, made before then, measured longer words than any run has), in up
  // to GIVE_BACK steps, each measured, and goes back to the last cut that fitted where the controls then run past the
  // window (the legend beside the panel wraps anew as the panel's width changes, and under a tall column of words the
  // strip keeps its least height: a cut and the room it leaves are not in proportion).
  async fitSide() {
    if (this.fitting) { this.fitAgain = true; return; }  // (one at a time: one measured mid-relayout would cut too much)
    this.fitting = true;
    try { await this.fitSideOnce(); } finally { this.fitting = false; }
    if (this.fitAgain) { this.fitAgain = false; await this.fitSide(); }
  }

  async fitSideOnce(afterGive = false) {
    const sz = this.sz, ctl = this.root.querySelector(".dbls-controls");
    if (!sz || !sz.side || !ctl || stateOf(this.root).view !== this || !this.root.offsetHeight) return;  // (hidden: no sizes)
    const at = sideKey(sz.width), cut = this.sideCut && this.sideCut.at === at ? this.sideCut : {by: 0, gave: 0};
    const over = Math.round(ctl.getBoundingClientRect().bottom - this.root.getBoundingClientRect().top - this.room(0));
    const giveBack = over < -2 && cut.by > 0 && this.wordsFinal && cut.gave < GIVE_BACK;
    if (giveBack) {
      this.sideCut = {at, by: Math.max(0, cut.by + over), fitted: cut.by, gave: cut.gave + 1};
    } else if (over > 2 && sz.mainH > 280) {  // (a step just given back too far: the cut that fitted, and no more steps)
      this.sideCut = afterGive && cut.fitted > cut.by ? {...cut, by: cut.fitted, gave: GIVE_BACK} : {...cut, at, by: cut.by + over};
    } else {
      return;
    }
    Object.assign(this.sz, this.sizes());
    this.layoutClasses(this.sz);
    this.fitStrip(this.sz);
    await this.Plotly.relayout(this.plot, {width: this.sz.mainW, height: this.sz.mainH});
    if (stateOf(this.root).view !== this) return;
    await this.Plotly.relayout(this.stripEl, this.stripResized(this.sz.stripW));
    if (stateOf(this.root).view !== this) return;
    this.drawStep();
    if (giveBack) await this.fitSideOnce(true);  // (measured again: another step, or back to the cut that fitted)
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
    if (old && old.sideCut) this.sideCut = {...old.sideCut, gave: 0};  // (a new record's words may give back again)
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
  // controls stand still as a student steps, and beside the panel (presentation mode) its fit counts them at once
  // Until every run's are known (written in idle time at N = 2,000, or still to come: a partial record), the heights
  // held before stay the least, so that a new record (new data, another variant) moves the controls once, if at all,
  // not down and back (a partial record's own words can be shorter than every τ's)
  holdWords() {
    if (!this.sz || stateOf(this.root).view !== this || !this.root.offsetHeight) return;  // (another view's, or hidden: no sizes)
    const held = this.heldTexts((v) => v.holdWords()), was = (el) => (held.final ? 0 : parseFloat(el.style.minHeight) || 0);
    const final = held.final && !this.wordsFinal;
    this.wordsFinal = held.final;
    holdTallest(this.text, held.words, was(this.text));
    holdTallest(this.stateEl, held.states, was(this.stateEl));
    if (final && this.sz.side) this.fitSide();  // (what a fit before then took too much: given back now)
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
      if (this.m !== m || stateOf(this.root).view !== this) return;  // τ moved on meanwhile, or a new record is drawn
      if (hold) this.holdWords();
      this.Plotly.react(this.stripEl, this.stripTraces(), this.stripLayout(this.sz.stripW), CONFIG)
        .then(() => { if (stateOf(this.root).view === this) this.drawStep(); });
    });
  }

  resize() {
    const sz = this.resized();
    if (!sz) return;
    this.fitStrip(sz);
    this.Plotly.relayout(this.plot, {width: sz.mainW, height: sz.mainH});
    this.Plotly.relayout(this.stripEl, this.stripResized(sz.stripW)).then(() => {
      if (stateOf(this.root).view !== this) return null;  // (a newer record is drawn meanwhile: its own sizes hold)
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
    const id = this.clipId || (this.clipId = `dbls-clip-${nextClipId()}`);
    // (the note where the boundary is off the view; the quiz writes the points' names clear of its box)
    const lit = g.exam[0].length > EXAM_MANY ? examHalo(this) : this.examSize / 2;  // (the examined points' discs or halos)
    const arrows = [...(on("w") ? [g.w, g.wOld] : []), ...(on("upd") ? [g.upd] : [])];  // (the note stands clear of them)
    const note = on("line") && g.wb ? offView(fl, g.wb, k, this.m.X, g.exam, lit, arrows) : {svg: "", box: null};
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
      // (the strip's right margin: the loss axis's ticks and title stand in it; r: 10 cut them at the image's edge)
      margin: {...main.margin, t: top, r: strip.margin.r},
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

  // ----- the Perceptron's proof of the mistake bound, for an online run from zero on separable data (the header's
  // bound is there exactly then): per update k, ⟨w̃*, w̃_k⟩ ≥ kτγ and ‖w̃_k‖² ≤ kτ²R² (the core's numbers), and the
  // squeeze kτγ ≤ ⟨w̃*, w̃_k⟩ ≤ ‖w̃_k‖ ≤ √k·τR that forces k ≤ (R/γ)²
  proofAt(step) {
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
  }
}

// what each kind of scene is drawn with: its markup, its model (every run checked now) and its view
export const PERCEPTRON_KIND = {
  shell: SHELL,
  model(scene, old) {
    if (!scene.header.runs || !scene.header.runs.length) throw new Error("the scene holds no run");
    const runs = scene.header.runs.map((_, j) => new PerceptronModel(scene, j));
    return runs[runFor(scene.header, old && old.m.h.kind === "perceptron" ? old : null)];
  },
  View: PerceptronView,
  sketch: true,  // (its first drawing is sketched while plotly.js loads: sketch.js)
};
