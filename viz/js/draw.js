// What every view draws with: the colours, plotly.js loaded once, layers of SVG and canvas over a plot, rings and
// halos, the data panel, and where a boundary outside the view is said.

import {segment} from "./geometry.js";
import {FONT, esc, f1, textWidth} from "./layout.js";

export const POS = "#0072B2", NEG = "#D55E00", INK = "#222222", UPDATE = "#009E73";
export const SPEEDS = {play: 400, fast: 120};  // ms a step; Fast on a long run as fastPace() makes it
export const FAST_RUN_MS = 30_000, FRAME_MS = 33;  // Fast crosses a long run in about 30 s: a step a frame, then several
export const GL_POINTS = 2000;  // above this many points, plotly.js draws them with WebGL
export const GAP = 16;  // px between the panel and the words in the presentation layout
export const EDGE = 6;  // px kept free at the window's bottom in presentation mode (Stepping.room): a focus ring's width and more

// ---------------------------------------------------------------------------------------------------
// drawing: plotly.js draws what stays (the points, axes, the |M| and loss curves); an SVG layer of ours
// draws what a step changes (regions, M's rings, the examined point, the boundaries, w and the update),
// so a step redraws a few SVG elements, not thousands of points. An exported image draws the same step
// geometry as Plotly traces.
// ---------------------------------------------------------------------------------------------------

let plotlyLoading = null;  // (fetched once a page; a failed fetch is tried again by the next chart)
export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyLoading) {
    plotlyLoading = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = new URL("app/static/plotly.min.js", window.location.href).toString();
      s.onload = () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("plotly.js did not load")));
      s.onerror = () => { plotlyLoading = null; reject(new Error("plotly.js could not be loaded from this server")); };
      document.head.appendChild(s);
    });
  }
  return plotlyLoading;
}

export const NONE = [[], []];
export const REGION = {pos: "rgba(0, 114, 178, 0.10)", neg: "rgba(213, 94, 0, 0.10)"};
export const HIGHLIGHT = "rgba(240, 228, 66, 0.55)", HIGHLIGHT_LINE = "#8A7D00", OLD_INK = "rgba(34,34,34,0.45)";
export const MARGIN_INK = "#555555";  // the SVM's margin lines (svm.js, sgd.js)
export const PURPLE = "#6a3d9a";
export const CONFIG = {displaylogo: false, scrollZoom: false, doubleClick: false, responsive: false, displayModeBar: false};
let clipCount = 0;
export const nextClipId = () => ++clipCount;  // a new id for a clip path (unique in the page)
export const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];  // boxes [x0, y0, x1, y1], px

// an SVG layer over a plot (fl: its _fullLayout), sized to it and holding ``svg``
export function layer(el, fl, svg) {
  el.setAttribute("viewBox", `0 0 ${fl.width} ${fl.height}`);
  el.setAttribute("width", fl.width); el.setAttribute("height", fl.height);
  el.innerHTML = svg;
}

// a canvas's 2-D context sized to a plot (fl) at the screen's pixel density, cleared and clipped to its data panel
// (restore() it when done)
export function plotCanvas(cv, fl) {
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
export function stamp(key, reach, draw) {
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
// plotCanvas) at once: one bitmap to paint, where a canvas path or SVG of thousands of shapes costs frames
// (bench/RESULTS.md, figures that stood in code comments)
const layers = new WeakMap();
export class PixelLayer {
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
export function stampRings(ctx, fl, n, x, y, r, colour, opacity, width, shape = "circle") {
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
export const circleAt = (x, y, r) => `M${f1(x - r)},${f1(y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;

// a plot's pen (fl: its _fullLayout): data to pixels, the clip to its data panel, and the SVG pieces the step-through
// views draw (a polygon, a segment, an arrow, a path of circles), each empty where its points are
export function pen(fl) {
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
export const EXAM_MANY = 24;  // more points examined at once than this (a large mini-batch): each is lit by a halo, not a disc
export const examHalo = (v) => 0.5 * (v.size || 8 * v.k) + 2.5 * v.k;  // the halo's radius: the marker's and 2.5 px

// the rings' ink (M's: black, lighter where many points are) and shape: a hinge panel's (margin < 1) are square, so
// that Compare's two kinds, side by side, are told apart in any colour vision and in the exported image alike
const ringInk = (n) => (n <= 100 ? INK : "#000000");
export const ringShape = (ringId) => (ringId === "hinge" ? "square" : "circle");
export const SQUARE_SIDE = 1.8;  // a square ring's side, in radii of the round one (near enough the same area)

export function drawPanel(v, fl, g, {under, rings, over}, id, examSize, ringId = "ring", extra = () => "", below = () => "") {
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
export function offView(fl, [w0, w1, b], k, X = null, exam = null, examR = 0, avoid = []) {
  const box = [...fl.xaxis.range, ...fl.yaxis.range];  // (what the plot shows: plotly.js widens a range to keep one scale)
  if (segment(box, w0, w1, b)[0].length) return {svg: "", box: null};
  const f = w0 * (box[0] + box[1]) / 2 + w1 * (box[2] + box[3]) / 2 + b, sign = f > 0 ? "> 0" : f < 0 ? "< 0" : "= 0";
  const lines = w0 === 0 && w1 === 0 ? ["w = 0: no boundary, ", `w·x + b = b ${sign} everywhere`]
    : ["the boundary w·x + b = 0 is outside the view: ", `w·x + b ${sign} all over it`];  // (two lines: a narrow panel)
  const fs = 13 * k, lh = 1.25 * fs;
  const wide = Math.max(...lines.map((t) => textWidth(t, fs))) + 2 * k, tall = fs + lh * (lines.length - 1) + 0.3 * fs;
  const [x0, y0] = quietPlace(fl, X, exam, wide, tall, 6 * k, 5 * k, examR, avoid);
  const end = x0 + wide / 2 > fl.xaxis._offset + fl.xaxis._length / 2, x = end ? x0 + wide : x0;  // (flush with its side)
  const svg = `<text class="dbls-offview" x="${f1(x)}" y="${f1(y0 + fs)}" font-family="${FONT}" font-size="${f1(fs)}" fill="${INK}" paint-order="stroke" ` +
    `stroke="white" stroke-width="${3 * k}" stroke-linejoin="round"${end ? ' text-anchor="end"' : ""}>` +
    `${lines.map((t, j) => `<tspan x="${f1(x)}" dy="${j ? f1(lh) : 0}">${esc(t)}</tspan>`).join("")}</text>`;
  return {svg, box: [x0, y0, x0 + wide, y0 + tall]};
}

// the top left [x, y] in px of a ``wide`` × ``tall`` box on the data panel, ``pad`` px inside its edges, that covers
// the fewest points (see offView; a point within ``r`` px of the box counts, an examined one within ``examR``) and
// none of the segments ``avoid`` ([[x0, x1], [y0, y1]] in data units: the arrows of w and of the update) where it can: the
// points are tallied on a grid of 4 px cells summed as a table (each box's count in four reads), the four corners
// tried first and kept on a tie
function quietPlace(fl, X, exam, wide, tall, pad, r, examR = r, avoid = []) {
  const xa = fl.xaxis, ya = fl.yaxis, L = xa._offset + pad, T = ya._offset + pad;
  const W = Math.max(0, xa._length - 2 * pad - wide), H = Math.max(0, ya._length - 2 * pad - tall);
  const corners = [[L, T], [L + W, T], [L, T + H], [L + W, T + H]];
  if (!X && !exam && !avoid.length) return corners[0];
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
  for (const [xs, ys] of avoid) {  // (an arrow counts as a row of heavy points a cell apart along it)
    if (xs.length !== 2) continue;
    const len = Math.hypot(xa.l2p(xs[1]) - xa.l2p(xs[0]), ya.l2p(ys[1]) - ya.l2p(ys[0])), n = Math.min(400, Math.ceil(len / c) + 1);
    for (let t = 0; t <= n; t++) add(xs[0] + (xs[1] - xs[0]) * t / n, ys[0] + (ys[1] - ys[0]) * t / n, 1000, 1);
  }
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
export function pointsUnder(fl, X, boxes, r, heavy = -1, weight = 1) {
  const xa = fl.xaxis, ya = fl.yaxis, n = boxes.map(() => 0);
  for (let i = 0; 2 * i + 1 < X.length; i++) {
    const px = xa._offset + xa.l2p(X[2 * i]), py = ya._offset + ya.l2p(X[2 * i + 1]), w = i === heavy ? weight : 1;
    boxes.forEach(([x0, y0, x1, y1], c) => { if (px > x0 - r && px < x1 + r && py > y0 - r && py < y1 + r) n[c] += w; });
  }
  return n;
}

// the two classes' legend entries: "y = +1" and "y = −1", with the file's names where the points were imported from
// one (view.classes: the −1 class's name, then the +1 class's)
export function classEntries(view) {
  const names = view && Array.isArray(view.classes) && view.classes.length === 2 ? view.classes : [null, null];
  const label = (name, y) => (typeof name === "string" && name ? `${name} (y = ${y})` : `y = ${y}`);
  return [["pos", label(names[1], "+1"), `<circle cx="9" cy="9" r="5" fill="${POS}"/>`],
          ["neg", label(names[0], "−1"), `<path d="M9 3 L15 9 L9 15 L3 9 Z" fill="${NEG}"/>`]];
}
