// ---------------------------------------------------------------------------------------------------
// the first drawing, before plotly.js is in. plotly.js takes about a second to evaluate on a slow machine, and a new
// tab's chart could only start it once Streamlit had mounted the chart's element (the bare app's Plotly chart starts
// sooner: its element's code comes with Streamlit's). SKETCH stands in for plotly.js in a view's first drawing (the
// calls the views make: react, relayout, restyle) and draws what those plots show: the axes with their ticks, grid and
// titles, scatter traces' markers, lines and fills, heatmaps and filled contours (pixel by pixel) with their colour
// bars, the annotations and a layout's title, as one SVG, with the _fullLayout the views read (each axis's range,
// _offset, _length, l2p, p2l; the figure's width and height). The view then draws its step over it as it does over
// plotly.js's; once plotly.js is in, the chart is drawn again with it (mountScene) on fresh plot elements (unsketch()).
// The sketch lays the axes out as plotly.js 3 does (its margins, the domains, a scale anchor widening a range or
// shrinking a domain, its automatic range's padding, ticks and labels: the tests hold them to plotly.js's); other
// trace types (bars: no view's first drawing has them) are left out. A chart kind is sketched where flagged
// (KINDS[kind].sketch; a view may opt out: QuizView.unsketched); hover, a click on a point (a quiz's answer, a point
// added) and the image exports wait for plotly.js, while the controls, the legend and the page's ← → keys work.
// ---------------------------------------------------------------------------------------------------
import {INK, POS, circleAt, nextClipId, pen} from "./draw.js";
import {FONT, esc, f1, textWidth} from "./layout.js";


const SKETCHED = "dbls-sketched";  // the class of a plot element the sketch drew
const SKETCH_MAX_TICKS = 60;  // (a bound on every tick loop)

// plotly.js's tick step for a span over about ``n`` ticks: 2, 5 or 10 times the power of ten under the rough step
// (the first strictly above it: plotly.js's Lib.roundUp)
function tickStep(span, n) {
  const rough = Math.abs(span) / Math.max(n, 1), base = 10 ** Math.floor(Math.log10(rough || 1));
  return base * [2, 5, 10].find((f) => f > rough / base * (1 + 1e-12)) || 10 * base;
}

// a colour bar's ticks and the room it takes right of its plot area. plotly.js widens a plot's right margin to hold a
// colour bar by the measured width of the bar's labels (its automatic margin: Plots.autoMargin); the views give the
// bar's ticks and a right margin that holds them (the labels measured in the chart's font, a pixel spared), so that no
// margin is pushed and the plot area is the layout's own, laid out alike by plotly.js and by the sketch. ``levels``
// ([first, step]): a contour's bands, ticked on their levels (every 2nd, 5th or 10th where there are many); else a
// step of 2, 5 or 10 as on an axis of the bar's length. Labels with 2 decimals past the step's first digit, as
// plotly.js writes an axis's (and those the first level needs). ``pad``: the space plotly.js keeps between a pushing
// component and the figure's edge, min(12, the layout's left, top and bottom margins)
const BAR_XPAD = 10;  // px between the plot area and the bar, and right of the labels (plotly.js's default xpad)
export function colourBar(lo, hi, lenPx, {thickness, size, outline = 0, title = null, levels = null, pad = 12}) {
  let t0, dt;
  if (levels) {
    const [start, step] = levels, nt = Math.min(15, Math.max(4, lenPx / 50)) + 1, g = (hi - lo) / (nt * step);
    dt = step; t0 = start;
    if (g > 1) {
      const e = 10 ** Math.floor(Math.log10(g));
      dt *= e * ([2, 5, 10].find((f) => f > (g / e) * (1 + 1e-12)) || 10);
      if ((Math.abs(start) / step + 1e-6) % 1 < 2e-6) t0 = 0;
    }
  } else { dt = tickStep(hi - lo, Math.min(9, Math.max(Math.min(4, lenPx / 30), lenPx / 40)) + 1); t0 = 0; }  // (a short bar: fewer)
  const tickvals = [];
  for (let j = Math.ceil((lo - t0) / dt - 1e-9); tickvals.length < SKETCH_MAX_TICKS; j++) {
    const v = t0 + j * dt;
    if (v > hi + 1e-9 * Math.abs(dt)) break;
    tickvals.push(v);
  }
  let dec = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(dt) || 1) + 0.01));
  while (dec < 8 && Math.abs(Math.round(t0 * 10 ** dec) - t0 * 10 ** dec) > 1e-6) dec++;  // (the first level written whole)
  const ticktext = tickvals.map((v) => {
    const t = Math.abs(v).toFixed(dec).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
    return (v < 0 && Number(t) !== 0 ? "−" : "") + t;
  });
  const labelW = Math.max(0, ...ticktext.map((t) => textWidth(t, size))), titleW = title ? textWidth(title.text, title.size) : 0;
  // (plotly.js's width of the bar, its labels and pads, and the pad it keeps clear of the figure's edge)
  const room = Math.ceil(2 * BAR_XPAD + Math.max(thickness + outline / 2 + labelW, titleW) + outline / 2 + pad + 1);
  const colorbar = {x: 1, xanchor: "left", xpad: BAR_XPAD, thickness, tickmode: "array", tickvals, ticktext,
                    tickfont: {size, color: "#333"}, outlinewidth: outline};
  if (title) colorbar.title = {text: title.text, side: "top", font: {size: title.size}};
  return {colorbar, room};
}

const SI = {"-6": "µ", "-3": "m", 3: "k", 6: "M", 9: "G"};

// plotly.js's exponent for an axis's labels (its default exponentformat "B": SI prefixes past 10⁴ and under 10⁻³)
function tickExponent(lo, hi) {
  const e = Math.floor(Math.log10(Math.max(Math.abs(lo), Math.abs(hi)) || 1) + 0.01);
  return Math.abs(e) > 3 && SI[3 * Math.round((e - 1) / 3)] ? 3 * Math.round((e - 1) / 3) : 0;
}

// a tick's label: with the decimals the step needs, in units of 10^exp (its SI prefix), or as a d3 "~g" tickformat
function tickText(v, dtick, exp = 0, format = "") {
  const g = /^\.(\d+)~?g$/.exec(format || "");
  if (g) {  // (d3's ~g: toPrecision, trailing zeros dropped)
    const t = Math.abs(v).toPrecision(Number(g[1])).replace(/\.?0+(?=e|$)/, (z) => (z.includes(".") ? "" : z));
    return (v < 0 ? "−" : "") + t.replace(/\.(\d*?)0+(?=e|$)/, (m, d) => (d ? `.${d}` : ""));
  }
  if (Math.abs(v) < dtick * 1e-9) return "0";
  const u = 10 ** exp, dec = Math.max(0, -Math.floor(Math.log10(dtick / u) + 1e-9));
  const t = (Math.abs(v) / u).toFixed(dec).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");  // (3.0 is "3", as plotly.js writes it)
  return (v < 0 ? "−" : "") + t + (exp ? SI[exp] : "");
}

// plotly.js's automatic range of an axis of ``len`` px: every point in view with its pad, in px: a trace with markers
// pads each point by 5 % of the length and its marker (size / 1.6, at least 3 px); a trace of lines alone by nothing
function autoRange(data, letter, id, lin, len) {
  const pts = [];  // [value, pad px]
  for (const t of data) {
    if ((t[`${letter}axis`] || letter) !== id || t.visible === false) continue;
    const vs = t[letter] || [], mk = t.marker || {}, marks = traceMode(t).includes("markers");
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i] === null ? NaN : lin(vs[i]);
      if (!Number.isFinite(v)) continue;
      const size = Array.isArray(mk.size) ? mk.size[i] : mk.size ?? 6;
      pts.push([v, marks ? 0.05 * len + Math.max(size / 1.6, 3) : 0]);
    }
  }
  if (!pts.length) return [-1, 6];
  pts.sort((p, q) => p[0] - q[0]);
  const ends = [...pts.slice(0, 24), ...pts.slice(-24)];  // (the pair that needs the widest range is among these)
  let best = null;
  for (const [a, pa] of ends) for (const [b, pb] of ends) {
    if (b < a) continue;
    const S = b > a ? (b - a) / Math.max(1 - (pa + pb) / len, 0.05) : 0;
    if (!best || S > best[0]) best = [S, a, pa, b, pb];
  }
  const [S, a, pa, b, pb] = best;
  return S > 0 ? [a - (pa * S) / len, b + (pb * S) / len] : [a - 1, b + 1];
}

const traceMode = (t) => t.mode || ((t.x || []).length < 20 ? "lines+markers" : "lines");  // plotly.js's default

const sketchMargin = (layout) => ({l: 80, r: 80, t: 100, b: 80, ...(layout.margin || {})});  // plotly.js's defaults

// the axes of a layout of width W and height H over ``data``: what plotly.js's _fullLayout holds of them
function sketchAxes(layout, data, W, H) {
  const mg = sketchMargin(layout);
  const pw = Math.max(1, W - mg.l - mg.r), ph = Math.max(1, H - mg.t - mg.b);
  const names = [...new Set(["xaxis", "yaxis", ...Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))])];
  const ax = {};
  for (const name of names) {
    const a = layout[name] || {}, letter = name[0], id = letter + name.slice(5);
    const over = a.overlaying ? layout[`${letter}axis${a.overlaying.slice(1)}`] || {} : a;
    const dom = over.domain || [0, 1], log = a.type === "log";
    const lin = (v) => (log ? Math.log10(v) : v);
    const len = (dom[1] - dom[0]) * (letter === "x" ? pw : ph);
    const range = a.range ? [...a.range] : autoRange(data, letter, id, lin, len);
    const off = letter === "x" ? mg.l + dom[0] * pw : mg.t + (1 - dom[1]) * ph;
    ax[name] = {_id: id, _name: name, _letter: letter, _offset: off, _length: len, range, lin, opts: a};
  }
  for (const a of Object.values(ax)) {  // an axis that matches another takes its range
    const to = a.opts.matches && ax[`${a._letter}axis${a.opts.matches.slice(1)}`];
    if (to) a.range = [...to.range];
  }
  for (const a of Object.values(ax)) {  // a scale anchor: the axis that would be the more zoomed in is widened
    const to = a.opts.scaleanchor && ax[`${a.opts.scaleanchor[0]}axis${a.opts.scaleanchor.slice(1)}`];
    if (!to) continue;
    const r = a.opts.scaleratio || 1, sa = a._length / Math.abs(a.range[1] - a.range[0]), st = to._length / Math.abs(to.range[1] - to.range[0]);
    const widen = (b, s) => {  // (a reversed range stays reversed)
      if (b.opts.constrain === "domain") {  // (its range kept: its domain shrinks about its middle)
        const len = s * Math.abs(b.range[1] - b.range[0]);
        b._offset += (b._length - len) / 2;
        b._length = len;
        return;
      }
      const c = (b.range[0] + b.range[1]) / 2, h = (Math.sign(b.range[1] - b.range[0]) || 1) * b._length / s / 2;
      b.range = [c - h, c + h];
    };
    if (sa > r * st) widen(a, r * st); else widen(to, sa / r);
  }
  for (const a of Object.values(ax)) {
    const [r0, r1] = a.range, L = a._length;
    a.l2p = a._letter === "x" ? (v) => ((v - r0) / (r1 - r0)) * L : (v) => ((r1 - v) / (r1 - r0)) * L;
    a.p2l = a._letter === "x" ? (p) => r0 + (p / L) * (r1 - r0) : (p) => r1 - (p / L) * (r1 - r0);
    a.p2d = a.opts.type === "log" ? (p) => 10 ** a.p2l(p) : a.p2l;  // (a click added on the sketch: glue/userdata.py)
  }
  return ax;
}

// plotly.js's dash patterns for a line of width w
function sketchDash(dash, w) {
  const d = Math.max(w, 3);
  return {dot: `${d},${d}`, dash: `${3 * d},${3 * d}`, longdash: `${5 * d},${5 * d}`, dashdot: `${3 * d},${d},${d},${d}`}[dash] ||
    (typeof dash === "string" && /^[\d.,\s]+$/.test(dash) ? dash : "");
}

// a trace's two axes in a _fullLayout
const traceAxes = (t, fl) => [fl[`xaxis${(t.xaxis || "x").slice(1)}`], fl[`yaxis${(t.yaxis || "y").slice(1)}`]];

const sketchMarker = (symbol, x, y, r) => {
  const s = String(symbol || "circle").replace("-open", "");
  if (s === "diamond") return `M${f1(x)},${f1(y - r * 1.3)}L${f1(x + r * 1.3)},${f1(y)}L${f1(x)},${f1(y + r * 1.3)}L${f1(x - r * 1.3)},${f1(y)}Z`;
  if (s === "square") return `M${f1(x - r)},${f1(y - r)}h${f1(2 * r)}v${f1(2 * r)}h${f1(-2 * r)}Z`;
  return circleAt(x, y, r);
};

// ----- colour: plotly.js's named scales the views use; a scale's colour function over a domain (linear in RGB between
// its stops, constant past its ends: d3's, as plotly.js makes it)
const NAMED_SCALES = {Greys: [[0, "rgb(0,0,0)"], [1, "rgb(255,255,255)"]]};

function rgbOf(c) {
  const h = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(c);
  if (h) {
    const x = h[1].length === 3 ? h[1].replace(/./g, "$&$&") : h[1];
    return [0, 2, 4].map((i) => parseInt(x.slice(i, i + 2), 16));
  }
  const m = /rgba?\(([^)]*)\)/.exec(c || "");
  return m ? m[1].split(",").slice(0, 3).map(Number) : [0, 0, 0];
}

function scaleOf(t) {
  const sc = typeof t.colorscale === "string" ? NAMED_SCALES[t.colorscale] : t.colorscale;
  if (!sc) throw new Error(`the sketch has no colour scale ${t.colorscale}`);
  return t.reversescale ? sc.map(([p, c]) => [1 - p, c]).reverse() : sc;
}

function colourFn(domain, range) {
  const rgb = range.map(rgbOf), n = domain.length;
  return (z) => {
    if (!(z > domain[0])) return rgb[0];
    if (z >= domain[n - 1]) return rgb[n - 1];
    let j = 1;
    while (j < n - 1 && z > domain[j]) j++;
    const f = (z - domain[j - 1]) / (domain[j] - domain[j - 1] || 1);
    return rgb[j - 1].map((c, i) => c + f * (rgb[j][i] - c));
  };
}

// a heatmap's colours: its scale over [zmin, zmax]; the colour bar's range
function heatmapColours(t) {
  const sc = scaleOf(t), lo = t.zmin, hi = t.zmax;
  return {fn: colourFn(sc.map(([p]) => lo + p * (hi - lo)), sc.map(([, c]) => c)), zrange: [lo, hi], gradient: sc};
}

// a filled contour's colours, as plotly.js makes them (contour/make_color_map): the scale spread over the bands from
// the first level less half a step to the last plus half, widened to [zmin, zmax] where those are given; a band is
// coloured at its lower level plus half a step (below the first level: the first less half)
function contourColours(t) {
  const c = t.contours, size = c.size || 1, sc = scaleOf(t), given = typeof t.zmin === "number" && typeof t.zmax === "number";
  let start = c.start, end = c.end + size / 1e6, nc = Math.floor((end - start) / size) + 1, extra = 1;
  if (given && (start <= t.zmin || end >= t.zmax)) {
    start = Math.max(start, t.zmin); end = Math.min(end, t.zmax);
    nc = Math.floor((end - start) / size) + 1; extra = 0;
  }
  const dom = sc.map(([p]) => (p * (nc + extra - 1) - extra / 2) * size + start), ran = sc.map(([, col]) => col);
  if (given && dom[0] > t.zmin) { dom.unshift(t.zmin); ran.unshift(ran[0]); }
  if (given && dom[dom.length - 1] < t.zmax) { dom.push(t.zmax); ran.push(ran[ran.length - 1]); }
  const levels = [];
  for (let j = 0; j < SKETCH_MAX_BANDS && c.start + j * size < c.end + size / 1e6; j++) levels.push(c.start + j * size);
  const fn = colourFn(dom, ran);
  return {fn, levels, size, zrange: [Math.min(...dom), Math.max(...dom)],
          band: (z) => {  // a value's colour: its band's
            let j = 0;
            while (j < levels.length && z >= levels[j]) j++;
            return fn(j ? levels[j - 1] + size / 2 : c.start - size / 2);
          }};
}
const SKETCH_MAX_BANDS = 256;  // (a bound on a contour's levels)
const isField = (t) => t.type === "heatmap" || t.type === "contour";  // (the traces drawn as pictures, with a colour bar)

// a picture over a trace's panel, made pixel by pixel: ``colour(x, y)`` of the data there (null: none) as an <image>
function sketchPicture(xa, ya, colour) {
  const x0 = Math.round(xa._offset), y0 = Math.round(ya._offset), w = Math.max(1, Math.round(xa._length)), h = Math.max(1, Math.round(ya._length));
  const cv = document.createElement("canvas");
  cv.width = w; cv.height = h;
  const ctx = cv.getContext("2d"), img = ctx.createImageData(w, h), px = img.data;
  for (let j = 0; j < h; j++) {
    const y = ya.p2l(j + 0.5);
    for (let i = 0; i < w; i++) {
      const c = colour(xa.p2l(i + 0.5), y);
      if (!c) continue;
      const o = 4 * (j * w + i);
      px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; px[o + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  return `<image x="${x0}" y="${y0}" width="${w}" height="${h}" preserveAspectRatio="none" href="${cv.toDataURL()}"/>`;
}

// a heatmap (z by rows, x0/dx and y0/dy: its cells' centres) or a filled contour (z on the grid x × y, evenly spaced:
// each pixel's value read bilinearly, coloured as its band) as a picture
function sketchField(t, fl) {
  const [xa, ya] = traceAxes(t, fl), z = t.z || [];
  if (!xa || !ya || !z.length) return "";
  const ny = z.length, nx = z[0].length;
  if (t.type === "heatmap") {
    const {fn} = heatmapColours(t), x0 = t.x0 ?? 0, dx = t.dx ?? 1, y0 = t.y0 ?? 0, dy = t.dy ?? 1;
    return sketchPicture(xa, ya, (x, y) => {
      const i = Math.round((x - x0) / dx), j = Math.round((y - y0) / dy);
      return i >= 0 && i < nx && j >= 0 && j < ny && Number.isFinite(z[j][i]) ? fn(z[j][i]) : null;
    });
  }
  const {band} = contourColours(t), xs = t.x, ys = t.y;
  const gx = (nx - 1) / (xs[nx - 1] - xs[0]), gy = (ny - 1) / (ys[ny - 1] - ys[0]);
  return sketchPicture(xa, ya, (x, y) => {
    const u = (x - xs[0]) * gx, v = (y - ys[0]) * gy;
    if (!(u >= 0 && u <= nx - 1 && v >= 0 && v <= ny - 1)) return null;
    const i = Math.min(nx - 2, Math.floor(u)), j = Math.min(ny - 2, Math.floor(v)), fu = u - i, fv = v - j;
    const a = z[j][i] + fu * (z[j][i + 1] - z[j][i]), b = z[j + 1][i] + fu * (z[j + 1][i + 1] - z[j + 1][i]);
    return band(a + fv * (b - a));
  });
}

// a text with <sub> and <b> parts as SVG tspans (plotly.js writes a subscript at 70 %, 0.3 em down)
function richText(text) {
  return String(text ?? "").split(/(<sub>.*?<\/sub>|<b>.*?<\/b>)/).map((part) => {
    const inner = esc(part.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " "));
    // (the way back up on a zero-width space: an empty tspan moves nothing)
    if (part.startsWith("<sub>")) return `<tspan font-size="70%" dy="0.3em">${inner}</tspan><tspan dy="-0.21em">\u200b</tspan>`;
    if (part.startsWith("<b>")) return `<tspan font-weight="bold">${inner}</tspan>`;
    return inner;
  }).join("");
}

// a heatmap's or a contour's colour bar right of its plot area, where the view's colourBar() placed it (x = 1, anchored
// left, its ticks given, its length a fraction of the plot's height): plotly.js's colorbar/draw, for that case
function sketchColourBar(t, fl, font) {
  const cb = t.colorbar || {};
  if (t.showscale === false || !cb.tickvals) return "";
  const gs = {l: fl.margin.l, t: fl.margin.t, w: fl.width - fl.margin.l - fl.margin.r, h: fl.height - fl.margin.t - fl.margin.b};
  const P = Math.round(cb.thickness ?? 30), len = cb.len ?? 1, L = Math.round(len * gs.h), ol = cb.outlinewidth ?? 1;
  const xpad = cb.xpad ?? 10, ypad = cb.ypad ?? 10, v = cb.x ?? 1.02, y = cb.y ?? 0.5;
  const K = {top: 1, middle: 0.5}[cb.yanchor || "middle"] ?? 0, q = y - K * L / gs.h;
  const X = Math.round(gs.l) + Math.round(v * gs.w + xpad);
  const dom = [q + ypad / gs.h, q + L / gs.h - ypad / gs.h];
  const title = cb.title && cb.title.text, ts = (cb.title && cb.title.font && cb.title.font.size) || font.size;
  let svg = "";
  if (title) {  // above the bar, which gives up the title's height and 5 px
    dom[1] -= (1.3 * ts + 5) / gs.h;
    const ty = ypad + gs.t + gs.h * (1 - q - L / gs.h) + 3 + 0.75 * ts - ol / 2;
    svg += `<text x="${f1(gs.l + xpad + gs.w * v - ol / 2)}" y="${f1(ty)}" font-size="${ts}" fill="${font.color}">${richText(title)}</text>`;
  }
  const top = Math.round(gs.t) + Math.round(gs.h * (1 - dom[1])), length = (dom[1] - dom[0]) * gs.h;
  const cols = t.type === "heatmap" ? heatmapColours(t) : contourColours(t), [z0, z1] = cols.zrange;
  const zp = (z) => top + (1 - (z - z0) / (z1 - z0 || 1)) * length;  // (the bar's axis)
  const rgb = (c) => `rgb(${c.map(Math.round).join(",")})`;
  if (cols.gradient) {
    const id = `dbls-skg${nextClipId()}`;
    svg += `<defs><linearGradient id="${id}" x1="0" y1="1" x2="0" y2="0">${cols.gradient.map(([p, c]) => `<stop offset="${p}" stop-color="${c}"/>`).join("")}</linearGradient></defs>` +
           `<rect x="${X}" y="${f1(zp(z1))}" width="${Math.max(P, 2)}" height="${f1(zp(z0) - zp(z1))}" fill="url(#${id})"/>`;
  } else {  // a band each: from the middle of its level and the one below to the middle with the one above
    const fills = cols.levels.filter((l) => l > 1.001 * z0 - 0.001 * z1 && l < 1.001 * z1 - 0.001 * z0).map((l) => l - cols.size / 2);
    fills.push(fills[fills.length - 1] + cols.size);
    fills.forEach((f, i) => {
      const a = Math.round(zp(i ? (f + fills[i - 1]) / 2 : z0)), b = Math.round(zp(i === fills.length - 1 ? z1 : (f + fills[i + 1]) / 2));
      svg += `<rect x="${X}" y="${Math.min(a, b)}" width="${Math.max(P, 2)}" height="${Math.max(Math.abs(a - b) + 1, 2)}" fill="${rgb(cols.fn(f))}"/>`;
    });
  }
  if (ol) svg += `<rect x="${X}" y="${f1(zp(z1))}" width="${P}" height="${f1(zp(z0) - zp(z1))}" fill="none" stroke="${cb.outlinecolor || "#444"}" stroke-width="${ol}"/>`;
  const tf = cb.tickfont || {}, fs = tf.size || font.size;
  const slack = 1e-4 * Math.abs(z1 - z0);  // (plotly.js keeps a tick that rounding left a hair past the range)
  cb.tickvals.forEach((val, j) => {
    if (val < Math.min(z0, z1) - slack || val > Math.max(z0, z1) + slack) return;
    svg += `<text class="dbls-cbtick" x="${f1(X + P + ol / 2 + 0.2 * fs + 0.5)}" y="${f1(zp(val))}" dy="0.35em" font-size="${fs}" fill="${tf.color || font.color}">${esc(String(cb.ticktext[j]))}</text>`;
  });
  return svg;
}

// one trace as SVG (scatter and scattergl: fills, lines, markers; heatmaps and filled contours: sketchField), or
// nothing for a type the sketch does not draw
function sketchTrace(t, fl) {
  if (t.visible === false || t.visible === "legendonly") return "";
  if (isField(t)) return sketchField(t, fl);
  if (t.type && t.type !== "scatter" && t.type !== "scattergl") return "";
  const [xa, ya] = traceAxes(t, fl);
  if (!xa || !ya) return "";
  const xs = t.x || [], ys = t.y || [], n = Math.min(xs.length, ys.length), mode = traceMode(t);
  const px = (i) => xa._offset + xa.l2p(xa.lin(xs[i])), py = (i) => ya._offset + ya.l2p(ya.lin(ys[i]));
  let svg = "";
  if (mode.includes("lines") || t.fill === "toself") {
    const hv = t.line && t.line.shape === "hv";
    let d = "", pen = "M", lx = 0;
    for (let i = 0; i < n; i++) {
      if (xs[i] === null || ys[i] === null) { pen = "M"; continue; }
      const x = px(i), y = py(i);
      if (hv && pen === "L") d += `L${f1(x)},${f1(lx)}`;
      d += `${pen}${f1(x)},${f1(y)}`;
      pen = "L"; lx = y;
    }
    if (d && t.fill === "toself") svg += `<path d="${d}Z" fill="${t.fillcolor || "rgba(0,0,0,0.1)"}" stroke="none"/>`;
    if (d && mode.includes("lines")) {
      const ln = t.line || {}, w = ln.width ?? 2, dash = sketchDash(ln.dash, w);
      svg += `<path d="${d}" fill="none" stroke="${ln.color || INK}" stroke-width="${w}"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`;
    }
  }
  if (mode.includes("markers") && n) {
    const mk = t.marker || {}, r = (i) => (Array.isArray(mk.size) ? mk.size[i] : mk.size ?? 6) / 2;
    // (a marker's colour is its line's where it has none: plotly.js's default)
    const col = (i) => (Array.isArray(mk.color) ? mk.color[i] : mk.color) || (t.line && t.line.color) || POS;
    const open = String(mk.symbol || "").endsWith("-open");
    const lw = mk.line && mk.line.width, edge = lw ? ` stroke="${mk.line.color || "white"}" stroke-width="${lw}"` : "";
    const groups = new Map();  // one path per colour; outlined markers one each (each one's outline under the next)
    for (let i = 0; i < n; i++) {
      if (xs[i] === null || ys[i] === null) continue;
      const c = col(i), sym = Array.isArray(mk.symbol) ? mk.symbol[i] : mk.symbol, d = sketchMarker(sym, px(i), py(i), r(i));
      if (edge && !open) svg += `<path d="${d}" fill="${c}"${edge}/>`;
      else groups.set(c, (groups.get(c) || "") + d);
    }
    for (const [c, d] of groups) svg += open ? `<path d="${d}" fill="none" stroke="${c}" stroke-width="1.5"/>` : `<path d="${d}" fill="${c}"/>`;
  }
  return svg;
}

// an axis's grid, zero line, frame side, tick labels and title
function sketchAxis(a, fl, font) {
  const o = a.opts, x = a._letter === "x", other = fl[`${x ? "y" : "x"}axis${(o.anchor || (x ? "y" : "x")).slice(1)}`];
  if (!other || o.visible === false) return "";
  const [r0, r1] = a.range, lo = Math.min(r0, r1), hi = Math.max(r0, r1), tf = o.tickfont || {}, fs = tf.size || font.size || 12;
  let vals, texts;
  if (o.tickvals) { vals = o.tickvals.map(a.lin); texts = (o.ticktext || o.tickvals).map(String); }
  else {
    const nt = o.nticks || Math.min(9, Math.max(4, a._length / (x ? 80 : 40))) + 1, rough = (hi - lo) / nt, log = o.type === "log";
    const dt = o.dtick || (log ? Math.max(1, Math.ceil(rough)) : tickStep(hi - lo, nt));  // (log: whole decades)
    const exp = log ? 0 : tickExponent(lo, hi);
    vals = []; texts = [];
    for (let v = Math.ceil(lo / dt - 1e-9) * dt, j = 0; v <= hi + dt * 1e-9 && j < SKETCH_MAX_TICKS; v += dt, j++) {
      vals.push(v);
      texts.push(log ? tickText(10 ** v, Math.min(1, 10 ** v), 0, o.tickformat) : tickText(v, dt, exp, o.tickformat));
    }
    if (r0 > r1) { vals.reverse(); texts.reverse(); }  // (in the range's order, as plotly.js lists them)
  }
  const pos = (v) => a._offset + a.l2p(v), oa = other._offset, ob = other._offset + other._length;
  const right = o.side === "right", top = o.side === "top", zero = o.zeroline !== false && o.type !== "log" && lo <= 0 && hi >= 0;
  // (plotly.js ticks an axis outside where it carries a heatmap or a contour; a tick's label stands 0.2 em past the
  // tick or the axis line, where there is one)
  const tl = (o.ticks ?? (fl._maps.has(a._id) ? "outside" : "")) === "outside" ? o.ticklen ?? 5 : 0;
  const gap = 1 + tl + (tl || o.showline ? 0.2 * fs : 0);
  let svg = "", widest = 0;
  vals.forEach((v, j) => {
    if (v < lo - 1e-9 * (hi - lo) || v > hi + 1e-9 * (hi - lo)) return;
    // (a label whose box stands past the figure is not drawn: plotly.js's "hide past div"; a label's box reaches
    // about 0.55 em over its middle and 0.6 em under it in these fonts)
    const p = f1(pos(v)), w = x ? textWidth(texts[j], fs) / 2 : 0;
    const past = x ? pos(v) - w < 0 || pos(v) + w > fl.width : pos(v) - 0.55 * fs < 0 || pos(v) + 0.6 * fs > fl.height;
    if (o.showgrid !== false && !o.overlaying && !(zero && Math.abs(v) < 1e-12 * (hi - lo)))
      svg += x ? `<line x1="${p}" x2="${p}" y1="${f1(oa)}" y2="${f1(ob)}" stroke="${o.gridcolor || "#eeeeee"}"/>`
        : `<line y1="${p}" y2="${p}" x1="${f1(oa)}" x2="${f1(ob)}" stroke="${o.gridcolor || "#eeeeee"}"/>`;
    if (tl) {
      const e = x ? (top ? oa - 1 : ob + 1) : right ? ob + 1 : oa - 1, d = (x ? !top : right) ? tl : -tl;
      svg += x ? `<line x1="${p}" x2="${p}" y1="${f1(e)}" y2="${f1(e + d)}" stroke="${o.tickcolor || "#444"}"/>`
        : `<line y1="${p}" y2="${p}" x1="${f1(e)}" x2="${f1(e + d)}" stroke="${o.tickcolor || "#444"}"/>`;
    }
    if (o.showticklabels === false || past) return;
    const sd = o.ticklabelstandoff || 0;
    if (!x) widest = Math.max(widest, textWidth(texts[j], fs));
    svg += x ? `<text class="dbls-tick" data-axis="${a._name}" x="${p}" y="${f1(top ? oa - gap - sd : ob + gap + fs + sd)}" text-anchor="middle" font-size="${fs}" fill="${tf.color || font.color}">${esc(texts[j])}</text>`
      : `<text class="dbls-tick" data-axis="${a._name}" x="${f1(right ? ob + gap + sd : oa - gap - sd)}" y="${p}" dy="0.35em" text-anchor="${right ? "start" : "end"}" font-size="${fs}" fill="${tf.color || font.color}">${esc(texts[j])}</text>`;
  });
  if (zero && !o.overlaying) {
    const p = f1(pos(0)), c = o.zerolinecolor || "#444444";
    svg += x ? `<line x1="${p}" x2="${p}" y1="${f1(oa)}" y2="${f1(ob)}" stroke="${c}"/>` : `<line y1="${p}" y2="${p}" x1="${f1(oa)}" x2="${f1(ob)}" stroke="${c}"/>`;
  }
  const title = o.title && (typeof o.title === "string" ? o.title : o.title.text), tfont = (o.title && o.title.font) || {};
  if (title) {
    // (a title with a standoff: past the labels' depth, a label about 1.18 em high in these fonts, and the standoff)
    const ts = tfont.size || font.size || 14, mid = f1(a._offset + a._length / 2), so = o.title.standoff;
    // (kept within the figure: plotly.js moves a title that would stand past its left edge in)
    const left = so === undefined ? oa - fs * 2.2 - ts * 0.6 : Math.max(0.9 * ts, oa - (gap - 0.7 + widest) - so - 0.35 * ts);
    svg += x ? `<text x="${mid}" y="${f1(ob + gap + 1.18 * fs + (so ?? 0) + 0.7 * ts)}" text-anchor="middle" font-size="${ts}" fill="${tfont.color || font.color}">${esc(title)}</text>`
      : `<text transform="translate(${f1(right ? ob + fs * 3 + ts * 0.4 : left)},${mid}) rotate(-90)" text-anchor="middle" font-size="${ts}" fill="${tfont.color || font.color}">${esc(title)}</text>`;
  }
  return svg;
}

// a layout's annotation (its text's lines; no arrow), placed by its references as plotly.js places it
function sketchNote(n, fl, font) {
  const ref = (r, v, letter) => {
    const [name, dom] = String(r || "paper").split(" "), a = name === "paper" ? null : fl[`${letter}axis${name.slice(1)}`];
    if (!a) return letter === "x" ? fl.margin.l + v * (fl.width - fl.margin.l - fl.margin.r)
      : fl.margin.t + (1 - v) * (fl.height - fl.margin.t - fl.margin.b);
    if (dom) return a._offset + (letter === "x" ? v : 1 - v) * a._length;
    return a._offset + a.l2p(a.lin(v));
  };
  const f = {...font, ...(n.font || {})}, fs = f.size || 12;
  const lines = String(n.text ?? "").split(/<br\s*\/?>/i).map((t) => t.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " "));
  const x = ref(n.xref, n.x ?? 0.5, "x") + (n.xshift || 0), y = ref(n.yref, n.y ?? 0.5, "y") - (n.yshift || 0);
  const h = lines.length * 1.3 * fs, top = n.yanchor === "top" ? y : n.yanchor === "bottom" ? y - h : y - h / 2;
  const anchor = {left: "start", right: "end"}[n.xanchor] || "middle";
  return lines.map((t, j) => `<text x="${f1(x)}" y="${f1(top + (j + 0.8) * 1.3 * fs)}" text-anchor="${anchor}" font-size="${fs}" ` +
    `fill="${f.color || INK}">${esc(t)}</text>`).join("");
}

function sketchDraw(gd) {
  const layout = gd.layout, W = layout.width || gd.clientWidth || 700, H = layout.height || 450;
  const axes = sketchAxes(layout, gd.data, W, H), font = {size: 12, color: INK, family: FONT, ...(layout.font || {})};
  const fl = {...axes, width: W, height: H, margin: sketchMargin(layout), meta: layout.meta,
              _maps: new Set(gd.data.filter(isField).flatMap((t) => [t.xaxis || "x", t.yaxis || "y"]))};
  let svg = "";
  for (const a of Object.values(axes)) svg += sketchAxis(a, fl, font);
  svg = `<g shape-rendering="crispEdges">${svg}</g>`;  // (grid, ticks and lines a pixel wide, as plotly.js's "crisp" ones)
  const clips = new Map();  // a clip to each pair of axes' panel
  let defs = "";
  for (const t of gd.data) {
    const body = sketchTrace(t, fl), key = `${t.xaxis || "x"} ${t.yaxis || "y"}`;
    if (!body) continue;
    if (!clips.has(key)) {
      const [xaxis, yaxis] = traceAxes(t, fl), id = `dbls-sk${nextClipId()}`;
      clips.set(key, id);
      defs += pen({xaxis, yaxis}).clip(id);
    }
    svg += `<g clip-path="url(#${clips.get(key)})">${body}</g>`;
  }
  for (const t of gd.data) if (isField(t) && t.visible !== false) svg += sketchColourBar(t, fl, font);
  for (const n of layout.annotations || []) svg += sketchNote(n, fl, font);
  const title = layout.title && layout.title.text;
  if (title) {  // (a title left at the figure's top: the views place theirs so)
    const tf = {...font, ...(layout.title.font || {})}, pad = layout.title.pad || {};
    svg += `<text x="${f1(pad.l || 0)}" y="${f1((pad.t || 0) + 0.7 * tf.size)}" font-size="${tf.size}" fill="${tf.color || INK}">${richText(title)}</text>`;
  }
  const xa = axes.xaxis, ya = axes.yaxis;
  if (xa.opts.showline && ya.opts.showline)  // the frame of a mirrored axis line
    svg += `<rect x="${f1(xa._offset)}" y="${f1(ya._offset)}" width="${f1(xa._length)}" height="${f1(ya._length)}" fill="none" shape-rendering="crispEdges" stroke="${xa.opts.linecolor || "#444"}"/>`;
  gd.classList.add(SKETCHED);
  gd.innerHTML = `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${esc(font.family)}" style="display:block" class="main-svg"><defs>${defs}</defs>${svg}</svg>`;
  gd._fullLayout = fl;
}

// what the views call of plotly.js, for the sketch (views call nothing else before plotly.js is in)
export const SKETCH = {
  react(gd, data, layout) {
    gd.data = data.map((t) => ({...t}));
    gd.layout = layout;
    // (the sketch answers no hover or click: plotly.js's drawing will; it tells "plotly_afterplot", on which the views
    // draw their step's layers again over a plot drawn anew, as plotly.js does)
    if (!gd.on) gd.on = (event, fn) => { if (event === "plotly_afterplot") (gd.__sketchAfter = gd.__sketchAfter || []).push(fn); };
    return sketched(gd);
  },
  relayout(gd, update) {
    for (const [path, v] of Object.entries(update)) {
      const keys = path.split(".");
      let o = gd.layout;
      for (const key of keys.slice(0, -1)) o = o[key] || (o[key] = {});
      o[keys[keys.length - 1]] = v;
    }
    return sketched(gd);
  },
  restyle(gd, update, idx) {  // (plotly.js's form: an array value holds one entry per trace, taken in turn)
    (idx ?? gd.data.map((_, i) => i)).forEach((j, n) => {
      if (!gd.data[j]) return;
      for (const [key, v] of Object.entries(update)) gd.data[j][key] = Array.isArray(v) ? v[n % v.length] : v;
    });
    return sketched(gd);
  },
};

// a plot drawn by the sketch, and told so to those listening for "plotly_afterplot"
function sketched(gd) {
  sketchDraw(gd);
  for (const fn of gd.__sketchAfter || []) fn();
  return Promise.resolve(gd);
}

// the plot elements the sketch drew, each replaced by a fresh one (no drawing, no hooks: plotly.js draws it next)
export function unsketch(root) {
  for (const gd of root.querySelectorAll(`.${SKETCHED}`)) {
    const fresh = gd.cloneNode(false);
    fresh.classList.remove(SKETCHED);
    gd.replaceWith(fresh);
  }
}

// a frame with what is drawn on screen (before a long task, plotly.js's evaluation, takes the main thread); at most
// 100 ms (a tab in the background paints no frame)
export const painted = () => new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 100); });
