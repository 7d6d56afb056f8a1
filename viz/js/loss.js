// ---------------------------------------------------------------------------------------------------
// the Loss surface scene (viz/scene.py: LossScene): each loss over (w₁, w₂) at the b of the slider
// ---------------------------------------------------------------------------------------------------
// No surface travels: the model samples each loss on the grid for the b shown (a picture, held by the tests to
// core.losses.surface), and the view draws its level bands with plotly.js and, in SVG over them, each point's line
// yᵢ(w·xᵢ + b) = 0, the cone of weights that classify every point correctly, the optimiser's path and the chosen
// weight with each loss's subgradient (the core's, sent). b moves in the browser; a click on a weight is sent to
// the page (its boundary is drawn in the data chart beside).
import {CONFIG, GAP, INK, NONE, layer, nextClipId, pen} from "./draw.js";
import {controlValue, fingerprint, nearest} from "./follow.js";
import {grouped, isText, num, sub, vec} from "./format.js";
import {boxPoly, clipPoly, segment} from "./geometry.js";
import {FONT, MIN_AREA, esc, f1, sideKey} from "./layout.js";
import {LOSS_TEX, TW, TX, lessonHeight, showLesson, tn, tv} from "./lesson.js";
import {checkFinite, checkPoints} from "./record.js";
import {MATH, sweepControls} from "./shells.js";
import {colourBar} from "./sketch.js";
import {Panels} from "./stepping.js";
import {stateOf} from "./state.js";


const LOSS_SCALE = [[0.0, "#ffffff"], [0.15, "#fde0c5"], [0.4, "#f59e72"], [0.7, "#d1495b"], [1.0, "#5c1a33"]];  // viz.losses.COLOURSCALE
const LINE_INK = "rgba(30, 30, 30, 0.28)", CONE_FILL = "rgba(0, 158, 115, 0.30)", CONE_EDGE = "rgba(0, 158, 115, 0.9)";
export const PATH_INK = "#0072B2", CHOSEN_INK = "#E69F00";  // viz.losses
export const LOSSES = ["zero_one", "perceptron", "hinge"];
const N_BANDS = 10;  // viz.losses.N_BANDS

// the part of the box where yᵢ(w·xᵢ + b) ≥ 0 for every point: cone_polygon in tests/oracles.py, the same clipping
function conePolygon(X, y, b, box) {
  let poly = boxPoly(box);
  for (let i = 0; i < y.length; i++) {
    const a0 = y[i] * X[2 * i], a1 = y[i] * X[2 * i + 1], c = y[i] * b;  // keep a·w + c ≥ 0
    if (a0 === 0 && a1 === 0) { if (c <= 0) return []; continue; }  // xᵢ = 0: its margin is yᵢb whatever w is
    poly = clipPoly(poly, a0, a1, c);
    if (poly.length < 3) return [];
  }
  let area = 0;
  for (let i = 0; i < poly.length; i++) { const p = poly[i], q = poly[(i + 1) % poly.length]; area += p[0] * q[1] - p[1] * q[0]; }
  return 0.5 * Math.abs(area) > 1e-9 * (box[1] - box[0]) * (box[3] - box[2]) ? poly : [];
}

// at the weight (u, v) and bias b: #[m ≤ 0], Σ max(0, −m), Σ max(0, 1 − m) over m = yᵢ((xᵢ₁u + xᵢ₂v) + b), summed as
// the core sums its margins (the surfaces, and the lesson's values at the chosen weight)
function lossSums(X, y, N, u, v, b, out = new Float64Array(3)) {  // (``out`` reused: no allocation per grid node)
  let k = 0, p = 0, h = 0;
  for (let i = 0; i < N; i++) {
    const m = y[i] * ((X[2 * i] * u + X[2 * i + 1] * v) + b);
    if (m <= 0) k++;
    if (m < 0) p -= m;
    if (m < 1) h += 1 - m;
  }
  out[0] = k; out[1] = p; out[2] = h;
  return out;
}

// each loss at (u, v) and b, sampled as the surfaces are (lossSums), the hinge with λ/2‖w‖² for λ = lam; and the
// counts it comes from (k: #[m ≤ 0]; hingeData: the hinge's data term; reg: λ/2‖w‖²)
export function lossesAt(X, y, N, u, v, b, lam) {
  const [k, p, h] = lossSums(X, y, N, u, v, b), reg = 0.5 * lam * (u * u + v * v);
  return {k, reg, hingeData: h / N, zero_one: k / N, perceptron: p / N, hinge: h / N + reg};
}

class LossModel {
  constructor({header, arrays}) {
    const h = this.h = header, a = arrays, r = this.run = h.run;
    for (const k of ["X", "y", "us", "vs", "bs", "drawn", "path_W", "path_B", "path_ptr"]) if (!a[k]) throw new Error(`the scene has no ${k}`);
    if (!(a.path_ptr instanceof Uint32Array)) throw new Error("the paths' pointers are not whole numbers");
    checkPoints(a.X, a.y);
    this.X = a.X; this.y = a.y; this.N = a.y.length;
    this.us = a.us; this.vs = a.vs; this.bs = a.bs; this.G = a.us.length;
    if (this.G < 2 || a.vs.length !== this.G || !a.bs.length) throw new Error("the scene's grid is empty");
    for (const [name, g] of [["w₁", a.us], ["w₂", a.vs], ["b", a.bs]]) {
      checkFinite(`the ${name} grid`, g);
      for (let i = 1; i < g.length; i++) if (!(g[i] > g[i - 1])) throw new Error(`the ${name} grid does not increase`);
    }
    if (!r || !Array.isArray(r.names) || !r.names.length || r.names.some((nm) => !LOSSES.includes(nm)))
      throw new Error("the scene names no loss this renderer draws");
    if (!Array.isArray(r.lams) || !r.lams.length || !r.lams.every((v) => v >= 0 && Number.isFinite(v)))
      throw new Error("the scene's λ values are not numbers ≥ 0");
    const L = r.lams.length, perLam = (v) => Array.isArray(v) && v.length === L;
    for (const nm of r.names) {
      const lv = (r.levels || {})[nm], top = (r.tops || {})[nm];
      if (!perLam(top) || !top.every((t) => t > 0 && Number.isFinite(t)) || !perLam(lv) ||
          !lv.every((q) => Array.isArray(q) && q.length === 2 && q[1] > 0 && q.every(Number.isFinite)))
        throw new Error(`the ${nm} loss has no colour scale for each λ`);
      if (!isText((r.titles || {})[nm]) || !isText((r.formulas || {})[nm])) throw new Error(`the ${nm} loss has no name`);
    }
    this.drawnIdx = a.drawn;
    if (!(a.drawn instanceof Uint16Array || a.drawn instanceof Uint32Array)) throw new Error("the lines drawn are not point numbers");
    for (const i of a.drawn) if (i >= this.N) throw new Error(`the scene draws the line of point ${i + 1} of ${this.N}`);
    if (!a.path_ptr || a.path_W.length !== 2 * a.path_B.length) throw new Error("the paths' w and b differ in number");
    checkFinite("the path", a.path_W); checkFinite("the path", a.path_B);
    const D = a.path_ptr.length - 1;
    if (a.path_ptr[0] !== 0 || a.path_ptr[D] !== a.path_B.length || a.path_ptr.some((v, i) => i && v < a.path_ptr[i - 1]))
      throw new Error("the paths' pointers do not span them");
    if (r.path_of !== null && !(perLam(r.path_of) && r.path_of.every((d) => Number.isInteger(d) && d >= 0 && d < D) &&
                                Array.isArray(r.path_labels) && r.path_labels.length === D && r.path_labels.every(isText)))
      throw new Error("the scene's paths do not match its λ values");
    this.pathPtr = a.path_ptr; this.allW = a.path_W; this.allB = a.path_B;
    if (r.lit !== null && !(Number.isInteger(r.lit) && r.lit >= 0 && r.lit < this.N)) throw new Error(`point ${r.lit} cannot be lit`);
    const c = r.chosen;
    if (c && !(Array.isArray(c.w) && c.w.length === 2 && [...c.w, c.b].every(Number.isFinite) && c.grads &&
               r.names.every((nm) => perLam(c.grads[nm]) && c.grads[nm].every((g) => Array.isArray(g) && g.length === 2 && g.every(Number.isFinite)))))
      throw new Error("the chosen weight is not a number");
    this.setLam(0);
    this.box = [this.us[0], this.us[this.G - 1], this.vs[0], this.vs[this.G - 1]];  // weight space
    this.S = this.bs.length - 1;
    this.cache = new Map();
    // what the sampled surfaces depend on: a new record with the same (a click, another path) keeps them
    const bytes = (t) => fingerprint(new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
    this.surfaceKey = JSON.stringify([bytes(this.X), bytes(this.y), bytes(this.us), bytes(this.vs), bytes(this.bs)]);
  }

  // the λ shown (an index into run.lams): its colour scales, its path, its subgradients
  setLam(li) {
    const r = this.run;
    this.li = li;
    this.lam = r.lams[li];
    const d = r.path_of === null ? null : r.path_of[li];
    this.PW = d === null ? new Float64Array(0) : this.allW.subarray(2 * this.pathPtr[d], 2 * this.pathPtr[d + 1]);
    this.PB = d === null ? new Float64Array(0) : this.allB.subarray(this.pathPtr[d], this.pathPtr[d + 1]);
    this.pathLabel = d === null ? null : r.path_labels[d];
  }
  // the λ index nearest to a value (the page's control, the view's), or null
  lamIndex(v) {
    if (v === null || v === undefined || !Number.isFinite(Number(v))) return null;
    let best = 0;
    this.run.lams.forEach((l, i) => { if (Math.abs(l - v) < Math.abs(this.run.lams[best] - v)) best = i; });
    return best;
  }
  top(nm) { return this.run.tops[nm][this.li]; }
  levels(nm) { return this.run.levels[nm][this.li]; }
  grad(nm) { return this.run.chosen.grads[nm][this.li]; }
  get nStops() { return this.bs.length; }
  stepAt(i) { return i; }
  stopOf(j) { return Math.max(0, Math.min(this.S, j)); }

  // each loss on the grid at b = bs[j] for the λ shown, rows over w₂, columns over w₁: m = yᵢ((xᵢ₁w₁ + xᵢ₂w₂) + b) as
  // the core sums it; 0-1: (1/N) #[m ≤ 0], perceptron: (1/N) Σ max(0, −m), hinge: (1/N) Σ max(0, 1 − m) (the sums
  // cached per b, λ-free), then + λ/2‖w‖² for the λ shown
  surfaces(j) {
    let out = this.cache.get(j);
    if (!out) { out = this.blank(); this.sampleRows(j, 0, this.G, out); this.keep(j, out); }
    if (!this.lam) return out;
    const G = this.G, hin = new Float64Array(out.hinge), lam = this.lam;
    for (let r = 0; r < G; r++) for (let c = 0; c < G; c++) hin[r * G + c] += 0.5 * lam * (this.us[c] * this.us[c] + this.vs[r] * this.vs[r]);
    return {...out, hinge: hin};
  }
  blank() { const n = this.G * this.G; return {zero_one: new Float64Array(n), perceptron: new Float64Array(n), hinge: new Float64Array(n)}; }
  keep(j, out) {
    if (this.cache.size > 24) this.cache.delete(this.cache.keys().next().value);
    this.cache.set(j, out);
  }
  // rows r0..r1 − 1 (over w₂) of every loss at b = bs[j] (the hinge without its λ term), into out
  sampleRows(j, r0, r1, out) {
    const G = this.G, N = this.N, X = this.X, y = this.y, b = this.bs[j];
    const z01 = out.zero_one, per = out.perceptron, hin = out.hinge, sums = new Float64Array(3);
    for (let r = r0; r < Math.min(r1, G); r++) {
      const v = this.vs[r];
      for (let c = 0; c < G; c++) {
        const u = this.us[c];
        lossSums(X, y, N, u, v, b, sums);
        z01[r * G + c] = sums[0] / N; per[r * G + c] = sums[1] / N; hin[r * G + c] = sums[2] / N;
      }
    }
  }

  // what the slice at b = bs[j] holds, in words (for the state line and screen readers)
  stateLine(j) {
    const b = this.bs[j], cone = conePolygon(this.X, this.y, b, this.box).length > 0, on = this.pathOn(j);
    let line = `b = ${num(b)}: ` + (cone ? "the green cone holds the weights w that classify every point correctly"
      : "no weight w in view classifies every point correctly at this b");
    if (this.PB.length) line += `; the path has ${grouped(on.filter(Boolean).length)} of ${grouped(this.PB.length)} states at this b (filled)`;
    // the chosen weight on a line of its own, and a line saying there is none before: a choice moves nothing under it
    const c = this.run.chosen;
    return line + (c ? `\nchosen w = ${vec(c.w)} (at b = ${num(c.b)})` : "\nno weight chosen: click one on a surface");
  }

  // which path states lie on the slice of bs[j]: within 2 % of the b range (viz.losses)
  pathOn(j) {
    const span = this.bs.length > 1 ? this.bs[this.S] - this.bs[0] : 1, b = this.bs[j];
    return Array.from(this.PB, (v) => Math.abs(v - b) <= 0.02 * Math.max(span, 1e-12));
  }

  // (the weight just picked, drawn ahead of the page's record, is the one written: LossView.pending; a row a loss, so
  // three losses do not run off the panel's side)
  formula(s, view) {
    const c = (view && view.pending) || this.run.chosen, rows = [["Losses", `m_i = y_i(${TW}\\cdot ${TX}_i + b)`]];
    for (const nm of this.run.names) rows.push(["", LOSS_TEX[nm]("m_i")]);
    if (!c) { rows.push(["", null, "Click a weight on a surface (or Tab to it, move the ring with the arrows, Enter) to see each loss there, with the b shown."]); return rows; }
    // each loss at the chosen (w, b), summed as the surfaces are (sampleRows)
    const N = this.N, [u, v] = c.w, b = c.b, lam = this.lam, L = lossesAt(this.X, this.y, N, u, v, b, lam);
    const vals = {zero_one: `L_{0\\text{-}1} = ${L.k}/${N} = ${tn(L.zero_one)}`, perceptron: `L_{\\text{perc}} = ${tn(L.perceptron)}`,
                  hinge: `L_{\\text{hinge}} = ${tn(L.hingeData)} + \\frac{${tn(lam)}}{2}\\cdot ${tn(u * u + v * v)} = ${tn(L.hinge)}`};
    rows.push(["Chosen", `${TW} = ${tv(c.w)},\\ b = ${tn(b)}`]);
    for (const nm of this.run.names) rows.push(["", vals[nm]]);
    return rows;
  }
}

class LossView extends Panels {
  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    const all = (c) => Array.from(root.querySelectorAll(c));
    this.plots = all(".dbls-plot"); this.overs = all(".dbls-over"); this.titles = all(".dbls-loss-title");
  }

  position() { return {prefix: "b = ", label: num(this.m.bs[this.i]), step: null}; }

  // ----- what the slice at bs[j] shows in weight space, decided once (the live layer and an exported image draw it)
  geometry(j) {
    const m = this.m, b = m.bs[j], box = m.box, lines = [];
    for (const i of m.drawnIdx) { const s = segment(box, m.X[2 * i], m.X[2 * i + 1], b); if (s[0].length) lines.push(s); }
    const cone = conePolygon(m.X, m.y, b, box), on = m.pathOn(j), pathOn = [[], []], pathOff = [[], []];
    for (let t = 0; t < m.PB.length; t++) {
      const x = m.PW[2 * t], y = m.PW[2 * t + 1];
      if (on[t]) { pathOn[0].push(x); pathOn[1].push(y); } else {
        pathOff[0].push(x); pathOff[1].push(y);
        if (pathOn[0].length && pathOn[0][pathOn[0].length - 1] !== null) { pathOn[0].push(null); pathOn[1].push(null); }  // a gap
      }
    }
    const lit = m.run.lit === null ? NONE : segment(box, m.X[2 * m.run.lit], m.X[2 * m.run.lit + 1], b);
    return {j, b, lines, cone, pathOn, pathOff, lit, Z: m.surfaces(j)};
  }

  legendItems() {
    const m = this.m, r = m.run, items = [
      ["lines", "points' lines yᵢ(w·xᵢ + b) = 0", `<line x1="1" y1="9" x2="17" y2="9" stroke="${LINE_INK}" stroke-width="2"/>`],
      ["cone", "every point correct", `<rect x="2" y="4" width="14" height="10" fill="${CONE_FILL}" stroke="${CONE_EDGE}" stroke-width="2"/>`],
    ];
    if (m.PB.length) {
      items.push(["path", `${m.pathLabel}, b as here`, `<line x1="1" y1="9" x2="17" y2="9" stroke="${PATH_INK}" stroke-width="1.5"/><circle cx="9" cy="9" r="3" fill="${PATH_INK}"/>`],
                 ["pathoff", "(hollow: its b differs)", `<circle cx="9" cy="9" r="4" fill="white" stroke="${PATH_INK}" stroke-width="1.5"/>`]);
    }
    if (r.lit !== null) items.push(["lit", `x${sub(r.lit + 1)}'s line`, `<line x1="1" y1="9" x2="17" y2="9" stroke="${CHOSEN_INK}" stroke-width="4"/>`]);
    // (named, in the same words, before any weight is chosen too: the legend, and so the panels' size, is the same
    // before a click and after)
    items.push(["chosen", "the chosen w and the subgradient there",
                `<path d="${star(9, 9, 7)}" fill="${CHOSEN_INK}" stroke="${INK}" stroke-width="1"/>`]);
    return items;
  }
  traceParts() { return {}; }  // (the bands are not in the legend)

  // ----- plotly.js: each panel's level bands (a contour trace of the sampled loss) and its axes
  // a loss's colour bar beside a panel ``height`` px high: ticked on its bands' levels; the room it takes right of it
  // (made once for each loss, λ and height; plotly.js's pad there: min(12, the margins 52k, 6 and 44k))
  bar(nm, height) {
    const m = this.m, k = this.k, key = `${nm} ${m.li} ${Math.round(height)}`;
    if (!this.bars || this.bars.size > 32) this.bars = new Map();  // (a few sizes and λs: kept while they last)
    if (!this.bars.has(key))
      this.bars.set(key, colourBar(0, m.top(nm), 0.9 * (height - 6 - Math.round(44 * k)),
                                   {thickness: 12 * k, size: 12 * k, outline: 1, levels: m.levels(nm), pad: 6}));
    return this.bars.get(key);
  }
  rows(Z) {  // a sampled surface's rows, as plotly.js reads z
    const G = this.m.G, rows = [];
    for (let i = 0; i < G; i++) rows.push(Array.from(Z.subarray(i * G, (i + 1) * G)));
    return rows;
  }
  hover(nm) {
    const r = this.m.run;
    return `w = (%{x:.3g}, %{y:.3g}), b = ${num(this.m.bs[this.i])}: ${r.titles[nm]} = %{z:.4g}<br>click to choose this w<extra></extra>`;
  }
  contour(nm, Z, height) {
    const m = this.m, r = m.run, [first, step] = m.levels(nm);
    return {type: "contour", x: Array.from(m.us), y: Array.from(m.vs), z: this.rows(Z), zmin: 0, zmax: m.top(nm), autocontour: false,
            contours: {start: first, end: first + step * (N_BANDS - 2), size: step, coloring: "fill", showlines: false},
            colorscale: LOSS_SCALE, line: {width: 0}, name: r.titles[nm],
            // (outlined: its lowest band is white, as the page is)
            colorbar: {...this.bar(nm, height).colorbar, len: 0.9, outlinecolor: "#999"}, hovertemplate: this.hover(nm)};
  }
  panelLayout(p, width, height) {
    const m = this.m, k = this.k, title = (t) => ({text: t, standoff: 4, font: {size: 17 * k, color: "#333"}});
    const axis = (extra) => ({zeroline: true, zerolinecolor: "#999", showgrid: false, tickfont: {size: 13 * k, color: "#333"},
                              fixedrange: true, showline: true, linecolor: "#999", mirror: true, ...extra});
    return {width, height, autosize: false, dragmode: false, hovermode: "closest", showlegend: false,
            font: {family: FONT, size: 15 * k, color: INK}, margin: {l: Math.round(52 * k), r: this.bar(m.run.names[p], height).room, t: 6, b: Math.round(44 * k)},
            plot_bgcolor: "rgba(0,0,0,0)", paper_bgcolor: "rgba(0,0,0,0)",
            meta: {view: "loss_surface", slice: "w", loss: m.run.names[p], losses: m.run.names, bs: Array.from(m.bs), lam: m.lam,
                   b: m.bs[this.i], n_points: m.N, lines_drawn: m.drawnIdx.length},
            xaxis: axis({range: [m.box[0], m.box[1]], title: title("w₁")}),
            yaxis: axis({range: [m.box[2], m.box[3]], title: title("w₂"), scaleanchor: "x", scaleratio: 1})};
  }

  // ----- sizes: the panels side by side when each keeps 220 px, else one over another; each a square weight area
  // beside its colour bar, within the figure height (and in presentation mode the window). In presentation mode one
  // loss's panel is held square by the window's height, not its width: the legend stands beside it, in the width
  // the square leaves, and the panel gains the legend's rows in height
  sizes() {
    const k = this.k, n = this.m.run.names.length, width = Math.max(this.root.clientWidth || 800, 300);
    const side = k > 1 && n === 1 && width >= 640 && stateOf(this.root).noSide !== this.sideAt(width), legendW = side ? Math.round(Math.min(260 * k, 0.36 * width)) : 0;
    const ml = Math.round(52 * k), mb = Math.round(44 * k);
    // side by side where each keeps 220 px (the normal page: a plot area of MIN_AREA px beside its colour bar)
    const across = (c) => Math.floor((width - legendW - (side ? GAP : 0) - (c - 1) * GAP) / c);
    const cols = width >= n * 220 * k + (n - 1) * GAP && (k > 1 || n === 1 || across(n) - ml - Math.round(70 * k) >= MIN_AREA) ? n : 1;
    const P = across(cols);
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16;
    const around = this.around || Math.round(2.6 * fs + 2 * 1.45 * fs + 2.4 * fs + 3.2 * fs + 24);  // titles, state, legend, controls
    let budget = cols === n ? this.m.h.view.height - around : Infinity;
    // (the normal page: the figure's height gives the plot area no less than MIN_AREA px where its width has them)
    if (k === 1) budget = Math.max(budget, MIN_AREA + 6 + mb);
    if (k > 1) budget = Math.min(budget, this.room(around));
    // (the colour bars' room, which the plot area's width gives up: for the height the panels take with about 70k)
    const rough = Math.max(200, Math.min(P - ml - Math.round(70 * k) + 6 + mb, budget));
    const room = (h) => Math.max(...this.m.run.names.map((nm) => this.bar(nm, h).room));
    let bar = room(rough), H = Math.max(200, Math.min(P - ml - bar + 6 + mb, budget));
    if (room(H) !== bar) { bar = room(H); H = Math.max(200, Math.min(P - ml - bar + 6 + mb, budget)); }  // (its ticks)
    return {width, cols, side, legendW, P, H, W: Math.min(P, H - mb - 6 + ml + bar)};
  }
  // the panels at a new size: drawn again (a colour bar's ticks and room are chosen for its height)
  sizePanels(sz) {
    if (!this.g) return super.sizePanels(sz);
    return Promise.all(this.m.run.names.map((nm, p) => this.Plotly.react(this.plots[p], [this.contour(nm, this.g.Z[nm], sz.H)],
                                                                          this.panelLayout(p, sz.W, sz.H), CONFIG)));
  }
  layoutClasses(sz) {
    this.root.style.setProperty("--dbls-cols", String(sz.cols));
    this.root.classList.toggle("dbls-beside", sz.side);
    this.root.style.setProperty("--dbls-l", `${sz.legendW}px`);
    this.placeWords();
  }
  // the page's data chart under the surface (three losses; one on a narrow page, 1280 px with the sidebar and less):
  // the state, legend, b's controls and the lesson (folded, unless opened before) over the panels
  // (glue/scene_chart.py: dbls-data-below), so that the data chart, where a weight clicked is drawn, comes right
  // under them, not 400–500 px further down. Not where one loss's slide stands its legend beside the panel
  placeWords() {
    const data = document.querySelector(".st-key-loss_data"), r = this.root.getBoundingClientRect();
    const below = !(this.sz && this.sz.side) && Boolean(data) && data.offsetHeight > 0 && data.getBoundingClientRect().top >= r.bottom - 4;
    const math = this.root.querySelector("details.dbls-math");  // (above the panels: folded, unless opened before)
    if (math && math.open === below && (stateOf(this.root).open || {}).math === undefined) {
      stateOf(math).auto = true;  // (not the user's choice: not kept, so a wider page shows it open again)
      math.open = !below;
    }
    if (below === this.root.classList.contains("dbls-data-below")) return;
    this.root.classList.toggle("dbls-data-below", below);
    const dv = data && data.querySelector(".dbls") && stateOf(data.querySelector(".dbls")).view;
    if (dv && dv.resize) dv.resize();  // (it fits itself under the panels: lossdata.js)
  }
  resize() {
    this.placeWords();  // (the data chart may be drawn after the surface, at the same width)
    super.resize();
  }

  async mount(at, old) {
    const m = this.m;
    if (old && old.pending && old.pending.at > (m.h.view.seen ?? -Infinity)) this.pending = old.pending;  // (made before it)
    this.range.max = String(m.nStops - 1);
    this.i = m.stopOf(at);
    this.titles.forEach((el, p) => {
      const nm = m.run.names[p];
      el.innerHTML = `<b>${esc(m.run.titles[nm])}</b>` + (m.run.names.length === 1 ? ` ${esc(m.run.formulas[nm])}` : "");
    });
    // the λ shown: the page's λ control's, else the view's (the offline file), else the one shown before, else the first
    m.setLam(m.lamIndex(controlValue(m.h.follow)) ?? m.lamIndex(m.h.view.lam) ?? (old && old.m instanceof LossModel ? m.lamIndex(old.m.lam) : null) ?? 0);
    this.drawLegend();
    if (old && old.around !== undefined) this.around = old.around;  // a new record keeps the panels' size
    if (old && old.m.surfaceKey === m.surfaceKey) m.cache = old.m.cache;  // and the surfaces sampled for it
    // the keyboard's ring stays where it stood (Enter's record arrives with the panel still focused), on the same grid
    if (old && old.ring && old.m.surfaceKey === m.surfaceKey) this.ring = old.ring;
    this.sz = this.sizes();
    this.layoutClasses(this.sz);
    this.g = this.geometry(this.i);
    for (let p = 0; p < m.run.names.length; p++) {
      const gd = this.plots[p], nm = m.run.names[p];
      await this.Plotly.react(gd, [this.contour(nm, this.g.Z[nm], this.sz.H)], this.panelLayout(p, this.sz.W, this.sz.H), CONFIG);
      stateOf(gd).view = this;
      stateOf(gd).panel = p;
      if (!stateOf(gd).hooked) {
        stateOf(gd).hooked = true;
        gd.on("plotly_afterplot", () => stateOf(this.root).view && stateOf(this.root).view.drawStep());
        // a click on a weight, read from the pointer (pressed and released within 4 px): plotly's own click event comes
        // only once its mouseup has worked the hover out again, 50–110 ms later here. The weight is found at the press,
        // before plotly's own handler changes the page (a layout read after it costs a whole layout of the page, 40–50
        // ms here); the release lands on the cover plotly lays over the page while a button is down, so it is heard on
        // the window
        gd.addEventListener("pointerdown", (down) => {
          const v = stateOf(this.root).view, w = down.button === 0 && v && v.weightAt ? v.weightAt(gd, down) : null;
          if (v && v.ring) { v.ring = null; v.drawStep(); }  // (a click shows no ring: ← → move b after it)
          if (!w) return;
          const end = (ev) => {  // this pointer's release (or its cancel: a touch that became a pan)
            if (ev.pointerId !== down.pointerId) return;
            window.removeEventListener("pointerup", end, true);
            window.removeEventListener("pointercancel", end, true);
            if (ev.type === "pointerup" && Math.hypot(ev.clientX - down.clientX, ev.clientY - down.clientY) <= 4 &&
                stateOf(this.root).view === v) v.pick(w);
          };
          window.addEventListener("pointerup", end, true);
          window.addEventListener("pointercancel", end, true);
        }, true);
        // the keyboard's weight (weightKey): the panel is in the page's Tab order
        gd.tabIndex = 0;
        gd.setAttribute("role", "application");  // (a screen reader's browse mode would keep the arrows)
        gd.setAttribute("aria-roledescription", "weight chooser");
        gd.setAttribute("aria-label", "Weights w₁, w₂: the arrow keys move a ring over them (Shift: five at a time), " +
                        "Enter chooses the weight under it, as a click does; Escape takes the ring away");
        gd.addEventListener("keydown", (ev) => {
          const v = stateOf(this.root).view;
          if (ev.repeat && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); return; }  // (one choice a press)
          if (ev.altKey || ev.ctrlKey || ev.metaKey || !v || !v.weightKey || !v.weightKey(ev.key, ev.shiftKey)) return;
          ev.preventDefault();  // (so the page's keys leave b alone)
          ev.stopPropagation();
        });
        gd.addEventListener("focus", () => {  // (from the keyboard: a click's focus shows no ring)
          const v = stateOf(this.root).view;
          if (v && v.weightKey && gd.matches(":focus-visible")) v.weightKey(null);
        });
        gd.addEventListener("blur", (ev) => {  // (to another panel of the chart: the ring stays where it was moved)
          const v = stateOf(this.root).view;
          if (v && v.ring && !(ev.relatedTarget && v.plots.includes(ev.relatedTarget))) { v.ring = null; v.drawStep(); }
        });
      }
    }
    this.shown = this.i;
    this.show(this.i);
    await this.fit();
    this.warm();
  }

  // sample the other b's surfaces while the browser is idle, nearest first and a few rows at a time (a whole surface
  // at N = 2,000 is tens of milliseconds, which a key press must not wait behind), so that moving b only draws
  warm() {
    const m = this.m, idle = window.requestIdleCallback;
    if (!idle) return;  // (then each b is sampled when it is shown)
    let job = null;
    const step = (deadline) => {
      if (stateOf(this.root).view !== this) return;  // replaced by a newer record
      while (deadline.timeRemaining() > 3) {
        if (!job) {
          let j = -1;
          for (let d = 1; d <= m.S && j < 0; d++) for (const c of [this.i + d, this.i - d]) if (c >= 0 && c <= m.S && !m.cache.has(c)) { j = c; break; }
          if (j < 0 || m.cache.size >= 24) return;
          job = {j, r: 0, out: m.blank()};
        }
        const rows = Math.max(1, Math.floor(200000 / Math.max(1, m.G * m.N)));  // about a millisecond's worth
        m.sampleRows(job.j, job.r, job.r + rows, job.out);
        job.r += rows;
        if (job.r >= m.G) { if (!m.cache.has(job.j)) m.keep(job.j, job.out); job = null; }
      }
      idle(step);
    };
    idle(step);
  }

  // the page's λ control moved: that λ's colour scales, path and subgradients, and the bands drawn again (no record)
  sync() {
    const m = this.m, li = m.lamIndex(controlValue(m.h.follow));
    if (li === null || li === m.li || !this.sz) return;
    m.setLam(li);
    this.drawLegend();
    const Z = m.surfaces(this.i);
    m.run.names.forEach((nm, p) => {
      const gd = this.plots[p];
      if (gd._fullLayout) this.Plotly.react(gd, [this.contour(nm, Z[nm], this.sz.H)], this.panelLayout(p, this.sz.W, this.sz.H), CONFIG);
    });
    this.shown = this.i;
    this.show(this.i);
  }

  // a legend beside the panel that is still the taller once fitted (a short window, a long legend) would push the
  // controls out of the window: the legend goes under the panel then, for this width, window height and chart top
  // (sideAt; kept on the root: the next record lays out the same, and a chart whose top moves up again tries beside)
  sideAt(width) { return `${sideKey(width)}@${this.topNow()}`; }
  async fit() {
    const moved = await super.fit();
    const panels = this.root.querySelector(".dbls-loss");
    if (!this.sz || !this.sz.side || stateOf(this.root).view !== this || this.legendEl.offsetHeight <= panels.offsetHeight + 2) return moved;
    stateOf(this.root).noSide = this.sideAt(this.sz.width);
    this.sz = this.sizes();
    this.layoutClasses(this.sz);
    await this.sizePanels(this.sz);
    await super.fit();  // (what lies around them, the legend now among it, measured again)
    return true;
  }

  // what lies around the panels: not the lesson under the controls; nor a legend beside them where it is the taller
  // (counted, it would make two sizes that each fit, the smaller where the panel is shorter than the legend, and
  // the first drawing could settle on either; the legend beside is shorter than the panel it leaves room for)
  aroundNow() {
    const panels = this.root.querySelector(".dbls-loss"), over = this.sz.side ? Math.max(0, this.legendEl.offsetHeight - panels.offsetHeight) : 0;
    return this.root.offsetHeight - over - this.sz.H * (this.sz.cols === 1 ? this.m.run.names.length : 1) - lessonHeight(this.root);
  }

  // the grid node nearest the pointer on a panel (null off its plot area): the one its hover names, if shown (a
  // pixel's rounding can put the pointer's own nearest node a row away); a click there picks it (the page is told
  // that w and the b shown)
  weightAt(gd, ev) {
    const fl = gd._fullLayout, xa = fl && fl.xaxis, ya = fl && fl.yaxis, area = gd.querySelector(".nsewdrag");
    if (!xa || !ya || !area) return null;
    const r = area.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top;
    if (!(px >= 0 && py >= 0 && px <= r.width && py <= r.height)) return null;
    const m = this.m, h = gd._hoverdata && gd._hoverdata[0];
    const w = [m.us[nearest(m.us, xa.p2l(px))], m.vs[nearest(m.vs, ya.p2l(py))]];
    const named = h && m.us.indexOf(h.x) >= 0 && m.vs.indexOf(h.y) >= 0 ? [h.x, h.y] : null;
    // (a hover left from elsewhere on the panel, more than a cell away, is not the pointer's)
    return named && Math.abs(named[0] - w[0]) <= m.us[1] - m.us[0] && Math.abs(named[1] - w[1]) <= m.vs[1] - m.vs[0] ? named : w;
  }
  // the keyboard on a focused panel: a ring on a grid node (first the weight chosen, else the node nearest 0), moved
  // by the arrows a node at a time (Shift: five), held at the grid's edge; Enter or Space picks its weight; Escape
  // takes the ring away. ``name`` null: the panel has just been focused from the keyboard (the ring shown). A panel
  // focused by a click shows no ring until ↑, ↓, Enter or Space (which then only show it): ← and → still move b
  // there, as the page says. Whether the key was used.
  weightKey(name, big = false) {
    const m = this.m, d = big ? 5 : 1, c = this.pending || m.run.chosen;
    const moves = {ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, d], ArrowDown: [0, -d]};
    if (name === "Escape" || ((name === "ArrowLeft" || name === "ArrowRight") && !this.ring)) {
      const had = Boolean(this.ring);
      this.ring = null;
      if (had) {
        this.drawStep();
        if (this.live) this.live.textContent = "No ring: ← and → move b; ↑, ↓, Enter or Space shows the ring again.";
      }
      return had;
    }
    if (name !== null && !(name in moves) && name !== "Enter" && name !== " ") return false;
    const fresh = !this.ring;  // (shown by this key, Enter and Space too: it stands where it starts, nothing picked)
    if (fresh) this.ring = [nearest(m.us, c ? c.w[0] : 0), nearest(m.vs, c ? c.w[1] : 0)];  // (the page keeps 6 decimals)
    if (name in moves && !fresh) {
      const [du, dv] = moves[name];
      this.ring = [Math.max(0, Math.min(m.us.length - 1, this.ring[0] + du)), Math.max(0, Math.min(m.vs.length - 1, this.ring[1] + dv))];
    }
    const w = [m.us[this.ring[0]], m.vs[this.ring[1]]], picks = !fresh && (name === "Enter" || name === " ");
    if (picks) this.pick(w);
    this.drawStep();
    if (this.live) {  // what the ring is on, said: the weight (as the page keeps it, 6 decimals) and each loss there
      const w6 = w.map((x) => Math.round(x * 1e6) / 1e6);
      const at = lossesAt(m.X, m.y, m.N, w6[0], w6[1], m.bs[this.i], m.lam);
      this.live.textContent = `${picks ? "Chosen: " : ""}w = ${vec(w6)} at b = ${num(m.bs[this.i])}: ` +
        m.run.names.map((nm) => `${m.run.titles[nm]} ${num(at[nm])}`).join(", ") + (picks ? "." : ". Enter chooses it.");
    }
    return true;
  }

  pick(w) {
    const send = stateOf(this.root).send;
    this.picked = {w, b: this.m.bs[this.i], at: Date.now()};
    if (send) send("pick", this.picked);
    this.preview(this.picked);
  }

  // the weight picked, drawn at once while the page makes its record: a star here (the subgradient's arrow, from the
  // core, comes with the record) and, on the data chart beside, its boundary, M and each loss there, summed as this
  // surface sums them (lossdata.js: LossDataView.previewPick). The page's records say which pick they come after
  // (View.seen): one made before this pick draws it again (mount)
  preview(pick) {
    const m = this.m;
    if (m.us.indexOf(pick.w[0]) < 0 || m.vs.indexOf(pick.w[1]) < 0) return;  // (off the grid: the page's record says)
    const w = pick.w.map((x) => Math.round(x * 1e6) / 1e6);  // the weight as the page keeps it (6 decimals: glue.options.weight_pick)
    this.pending = {...pick, w};
    this.drawStep();
    showLesson(this, this.i);  // (the formula box writes the losses at the weight picked)
    for (const el of document.querySelectorAll(".dbls")) {  // the page's data chart (lossdata.js)
      const v = stateOf(el).view;
      if (v && v.previewPick) v.previewPick({w, b: pick.b, at: pick.at});
    }
  }

  show(i) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.nStops - 1, i));
    this.g = this.geometry(this.i);
    if (this.plots[0]._fullLayout && this.shown !== this.i) {  // the bands of the new b (the points' geometry is ours)
      m.run.names.forEach((nm, p) => {
        this.Plotly.restyle(this.plots[p], {z: [this.rows(this.g.Z[nm])], hovertemplate: [this.hover(nm)]}, [0]);
        this.plots[p].layout.meta.b = m.bs[this.i];
      });
      this.shown = this.i;
    }
    this.drawStep();
    showLesson(this, this.i);
    const line = m.stateLine(this.i);
    this.stateEl.textContent = line;
    this.range.value = String(this.i);
    this.label.textContent = `b = ${num(m.bs[this.i])}`;
    this.root.dataset.step = String(this.i);
    // (heard at each b: the chosen weight's line, not the one that asks for a click)
    if (this.live) this.live.textContent = m.run.chosen ? line.replace("\n", ". ") : line.split("\n")[0];
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.nStops - 1;
    this.keepFocus();
  }

  // the subgradient at the chosen weight, on panel p's loss, as an arrow from w along it (0.18 of the box wide):
  // [[w₁, tip₁], [w₂, tip₂]], or null where there is no chosen weight or the subgradient is 0 (the screen and the
  // exported image draw this one)
  gradArrow(p) {
    const m = this.m, c = m.run.chosen;
    if (!c) return null;
    const gr = m.grad(m.run.names[p]), gn = Math.hypot(gr[0], gr[1]), r = 0.18 * (m.box[1] - m.box[0]) / gn;
    return gn > 0 ? [[c.w[0], c.w[0] + r * gr[0]], [c.w[1], c.w[1] + r * gr[1]]] : null;
  }

  // ----- the SVG over each panel
  drawStep() {
    const g = this.g || (this.g = this.geometry(this.i)), m = this.m, k = this.k, on = (id) => !this.hidden.has(id);
    const c = m.run.chosen;
    this.plots.forEach((gd, p) => {
      const fl = gd._fullLayout;
      if (!fl || !fl.xaxis || !fl.xaxis._length || p >= m.run.names.length) return;
      const P = pen(fl), px = P.px, py = P.py, id = `dbls-loss-clip-${this.clipId || (this.clipId = nextClipId())}-${p}`;
      let svg = `<defs>${P.clip(id)}</defs><g clip-path="url(#${id})">`;
      if (on("lines") && g.lines.length)
        svg += `<path class="dbls-loss-lines" d="${g.lines.map(([xs, ys]) => `M${f1(px(xs[0]))},${f1(py(ys[0]))}L${f1(px(xs[1]))},${f1(py(ys[1]))}`).join("")}" stroke="${LINE_INK}" stroke-width="${k}" fill="none"/>`;
      if (on("cone") && g.cone.length)
        svg += `<path class="dbls-cone" d="M${g.cone.map(([x, y]) => `${f1(px(x))},${f1(py(y))}`).join("L")}Z" fill="${CONE_FILL}" stroke="${CONE_EDGE}" stroke-width="${2 * k}"/>`;
      if (on("lit")) svg += P.seg(g.lit, CHOSEN_INK, 4 * k);
      if (on("path") && g.pathOn[0].length) {
        let d = "", down = false;
        g.pathOn[0].forEach((x, t) => {
          if (x === null) { down = false; return; }
          d += `${down ? "L" : "M"}${f1(px(x))},${f1(py(g.pathOn[1][t]))}`;
          down = true;
        });
        svg += `<path d="${d}" stroke="${PATH_INK}" stroke-width="${1.5 * k}" fill="none"/>`;
        svg += g.pathOn[0].map((x, t) => (x === null ? "" : `<circle cx="${f1(px(x))}" cy="${f1(py(g.pathOn[1][t]))}" r="${2.5 * k}" fill="${PATH_INK}"/>`)).join("");
      }
      if (on("pathoff"))
        svg += g.pathOff[0].map((x, t) => `<circle cx="${f1(px(x))}" cy="${f1(py(g.pathOff[1][t]))}" r="${3.5 * k}" fill="white" stroke="${PATH_INK}" stroke-width="${1.5 * k}"/>`).join("");
      if (c && on("chosen")) {  // the chosen w and, where it is not 0, the subgradient's direction (arrow from w)
        const ga = this.gradArrow(p);
        if (ga) svg += P.arrow(ga, CHOSEN_INK, 3 * k, 14 * k, "dbls-grad");
        svg += `<path class="dbls-chosen" d="${star(px(c.w[0]), py(c.w[1]), 10 * k)}" fill="${CHOSEN_INK}" stroke="${INK}" stroke-width="${1.5 * k}"/>`;
      }
      const q = this.pending;
      if (q && on("chosen") && !(c && c.w[0] === q.w[0] && c.w[1] === q.w[1] && c.b === q.b))
        svg += `<path class="dbls-picked" d="${star(px(q.w[0]), py(q.w[1]), 10 * k)}" fill="${CHOSEN_INK}" fill-opacity="0.6" stroke="${INK}" stroke-width="${1.5 * k}"/>`;
      svg += "</g>";  // all of it clipped to the panel, but the keyboard's ring (weightKey), whole at the grid's edge too
      if (this.ring) {  // (dark inside light, on any band)
        const x = px(m.us[this.ring[0]]), y = py(m.vs[this.ring[1]]), r = 9 * k;
        svg += `<g class="dbls-ring"><circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(r)}" fill="none" stroke="white" stroke-width="${4 * k}"/>` +
               `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(r)}" fill="none" stroke="${INK}" stroke-width="${2 * k}"/></g>`;
      }
      layer(this.overs[p], fl, svg);
    });
  }

  drawn() {
    const g = this.g, arr = ([x, y]) => ({x: Array.from(x), y: Array.from(y)});
    return {b: g.b, lines: g.lines.map(arr), cone: g.cone, pathOn: arr(g.pathOn), pathOff: arr(g.pathOff), lit: arr(g.lit),
            Z: Object.fromEntries(this.m.run.names.map((nm) => [nm, Array.from(g.Z[nm])])),
            contours: this.plots.slice(0, this.m.run.names.length).map((gd) => gd.data[0].contours)};
  }

  // one Plotly figure of the chart as it stands: the panels side by side, each with its bands and its geometry
  figure() {
    const m = this.m, g = this.g, k = this.k, sz = this.sz, n = m.run.names.length, data = [], annotations = [];
    // in pixels of the paper: each panel a square plot area, its y ticks left of it, its colour bar right of it
    const ml = Math.round(52 * k), side = sz.H - Math.round(50 * k), slot = side + Math.round(150 * k);
    const W = n * slot, Wp = W - ml - 10, layout = {};
    const xy = (pts) => [pts.map((p) => p[0]), pts.map((p) => p[1])];
    m.run.names.forEach((nm, p) => {
      const ax = p ? String(p + 1) : "", x0 = p * slot, x1 = x0 + side;
      const t = {...this.contour(nm, g.Z[nm], sz.H), xaxis: `x${ax}`, yaxis: `y${ax}`};
      t.colorbar = {...t.colorbar, x: (x1 + 10 * k) / Wp, xanchor: "left", xref: "paper", len: 0.8};  // beside its own panel
      data.push(t);
      const tr = (id, xs, ys, extra) => data.push({type: "scatter", x: xs, y: ys, xaxis: `x${ax}`, yaxis: `y${ax}`, hoverinfo: "skip",
                                                   showlegend: false, visible: !this.hidden.has(id), ...extra});
      const lx = [], ly = [];
      for (const [xs, ys] of g.lines) { lx.push(xs[0], xs[1], null); ly.push(ys[0], ys[1], null); }
      tr("lines", lx, ly, {mode: "lines", line: {color: LINE_INK, width: k}});
      if (g.cone.length) { const [cx, cy] = xy([...g.cone, g.cone[0]]); tr("cone", cx, cy, {mode: "lines", fill: "toself", fillcolor: CONE_FILL, line: {color: CONE_EDGE, width: 2 * k}}); }
      if (g.lit[0].length) tr("lit", g.lit[0], g.lit[1], {mode: "lines", line: {color: CHOSEN_INK, width: 4 * k}});
      if (g.pathOn[0].length) tr("path", g.pathOn[0], g.pathOn[1], {mode: "lines+markers", line: {color: PATH_INK, width: 1.5 * k}, marker: {size: 5 * k, color: PATH_INK}});
      if (g.pathOff[0].length) tr("pathoff", g.pathOff[0], g.pathOff[1], {mode: "markers", marker: {size: 7 * k, color: "white", line: {color: PATH_INK, width: 1.5 * k}}});
      const ga = this.gradArrow(p);  // (under the star, as on the screen)
      if (ga) tr("chosen", ga[0], ga[1], {name: "subgradient", mode: "lines+markers", line: {color: CHOSEN_INK, width: 3 * k},
                                          marker: {symbol: "arrow", angleref: "previous", size: 15 * k, opacity: [0, 1], color: CHOSEN_INK}});
      if (m.run.chosen) tr("chosen", [m.run.chosen.w[0]], [m.run.chosen.w[1]], {mode: "markers", marker: {symbol: "star", size: 20 * k, color: CHOSEN_INK, line: {color: INK, width: 1.5}}});
      const pl = this.panelLayout(p, sz.W, sz.H);
      layout[`xaxis${ax}`] = {...pl.xaxis, domain: [x0 / Wp, x1 / Wp], anchor: `y${ax}`};
      layout[`yaxis${ax}`] = {...pl.yaxis, scaleanchor: `x${ax}`, anchor: `x${ax}`};
      annotations.push({text: `<b>${esc(m.run.titles[nm])}</b>`, xref: "paper", yref: "paper", x: (x0 + x1) / 2 / Wp, y: 1, yshift: 6,
                        xanchor: "center", yanchor: "bottom", showarrow: false, font: {size: 15 * k, color: INK}});
    });
    // the state under the panels, wrapped to the image's width in plotly.js's <br> (it wraps nothing, and writes a
    // newline as a space); no "click one" in a still image
    const fsz = 13 * k, words = m.run.chosen ? m.stateLine(this.i) : m.stateLine(this.i).split("\n")[0];
    const rows = words.split("\n").flatMap((t) => wrapped(t, Math.max(24, Math.floor((W - 20) / (0.55 * fsz)))));
    annotations.push({text: rows.map(esc).join("<br>"), xref: "paper", yref: "paper", x: 0, y: 0, yshift: -Math.round(56 * k),
                      xanchor: "left", yanchor: "top", align: "left", showarrow: false, font: {size: fsz, color: INK}});
    const base = this.panelLayout(0, W, sz.H);
    // (the plot areas exactly side × side: nothing to constrain; under them the ticks, the w₁ title and the state)
    const top = Math.round(40 * k), bottom = Math.round(56 * k + rows.length * 1.35 * fsz + 10 * k);
    return {data, layout: {...base, ...layout, width: W, height: side + top + bottom, paper_bgcolor: "white",
                           plot_bgcolor: "white", margin: {...base.margin, r: 10, t: top, b: bottom}, annotations}};
  }
}

// a five-pointed star's path around (x, y), radius r
function star(x, y, r) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, q = i % 2 ? 0.45 * r : r;
    d += `${i ? "L" : "M"}${f1(x + q * Math.cos(a))},${f1(y + q * Math.sin(a))}`;
  }
  return d + "Z";
}

// ``text`` in lines of at most ``width`` characters, broken between words (a word longer than that stands alone)
function wrapped(text, width) {
  const out = [];
  for (const word of text.split(" ")) {
    const last = out.length - 1;
    if (last >= 0 && out[last].length + 1 + word.length <= width) out[last] += " " + word;
    else out.push(word);
  }
  return out;
}

const LOSS_CONTROLS = sweepControls("b");

const LOSS_PANEL = (p) => `<div class="dbls-loss-panel" data-panel="${p}">
  <div class="dbls-loss-title"></div>
  <div class="dbls-stage"><div class="dbls-plot"></div><svg class="dbls-over" aria-hidden="true"></svg></div>
</div>`;

export const LOSS_KIND = {
  sketch: true,
  shellFor: (scene) => `<div class="dbls-loss">${scene.header.run.names.map((_, p) => LOSS_PANEL(p)).join("")}</div>
<div class="dbls-state"></div>
<div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
${LOSS_CONTROLS}
${MATH}
<div class="dbls-live" aria-live="polite" role="status"></div>`,
  model: (scene) => new LossModel(scene),
  View: LossView,
};
