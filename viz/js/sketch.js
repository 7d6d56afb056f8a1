
// ---------------------------------------------------------------------------------------------------
// the first drawing, before plotly.js is in. plotly.js takes about a second to evaluate on a slow machine, and a new
// tab's chart could only start it once Streamlit had mounted the chart's element (the bare app's Plotly chart starts
// sooner: its element's code comes with Streamlit's). SKETCH stands in for plotly.js in a view's first drawing (the
// calls the views make: react, relayout, restyle) and draws what those plots show of a scatter plot: the axes with
// their ticks, grid and titles, the markers and the lines, as one SVG, with the _fullLayout the views read (each
// axis's range, _offset, _length, l2p, p2l; the figure's width and height). The view then draws its step over it as it
// does over plotly.js's; once plotly.js is in, the chart is drawn again with it (mountScene) on fresh plot elements
// (unsketch()). The sketch lays the axes out as plotly.js 3 does (its margins, the domains, a scale anchor widening a
// range, its automatic range's padding, ticks and labels: the tests hold them to plotly.js's); trace types it does not
// draw (heatmaps, contours, bars) wait for plotly.js. A chart kind is sketched where its first screen is scatter traces
// (KINDS[kind].sketch; a view may opt out: QuizView.unsketched); hover, a click on a point (a quiz's answer, a point
// added) and the image exports wait for plotly.js, while the controls, the legend and the page's ← → keys work.
// ---------------------------------------------------------------------------------------------------

const SKETCHED = "dbls-sketched";  // the class of a plot element the sketch drew
const SKETCH_MAX_TICKS = 60;  // (a bound on every tick loop)

// plotly.js's tick step for a span over about ``n`` ticks: 2, 5 or 10 times the power of ten under the rough step
// (the first strictly above it: plotly.js's Lib.roundUp)
function tickStep(span, n) {
  const rough = Math.abs(span) / Math.max(n, 1), base = 10 ** Math.floor(Math.log10(rough || 1));
  return base * [2, 5, 10].find((f) => f > rough / base * (1 + 1e-12)) || 10 * base;
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
      const c = (b.range[0] + b.range[1]) / 2, h = (Math.sign(b.range[1] - b.range[0]) || 1) * b._length / s / 2;
      b.range = [c - h, c + h];
    };
    if (sa > r * st) widen(a, r * st); else widen(to, sa / r);
  }
  for (const a of Object.values(ax)) {
    const [r0, r1] = a.range, L = a._length;
    a.l2p = a._letter === "x" ? (v) => ((v - r0) / (r1 - r0)) * L : (v) => ((r1 - v) / (r1 - r0)) * L;
    a.p2l = a._letter === "x" ? (p) => r0 + (p / L) * (r1 - r0) : (p) => r1 - (p / L) * (r1 - r0);
    a.p2d = a.opts.type === "log" ? (p) => 10 ** a.p2l(p) : a.p2l;  // (a click added on the sketch: views/userdata.py)
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

// one trace as SVG (scatter and scattergl: fills, lines, markers), or nothing for a type the sketch does not draw
function sketchTrace(t, fl) {
  if (t.visible === false || t.visible === "legendonly") return "";
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
  }
  const pos = (v) => a._offset + a.l2p(v), oa = other._offset, ob = other._offset + other._length;
  const right = o.side === "right", top = o.side === "top", zero = o.zeroline !== false && o.type !== "log" && lo <= 0 && hi >= 0;
  let svg = "";
  vals.forEach((v, j) => {
    if (v < lo - 1e-9 * (hi - lo) || v > hi + 1e-9 * (hi - lo)) return;
    // (a label past the figure is not drawn: plotly.js's "hide past div", a quarter of the type's size spared at the top)
    const p = f1(pos(v)), half = x ? 0.28 * fs * texts[j].length : 0.5 * fs;
    const past = pos(v) - half + (x ? 0 : fs / 4) < 0 || pos(v) + half > (x ? fl.width : fl.height);
    if (o.showgrid !== false && !o.overlaying && !(zero && Math.abs(v) < 1e-12 * (hi - lo)))
      svg += x ? `<line x1="${p}" x2="${p}" y1="${f1(oa)}" y2="${f1(ob)}" stroke="${o.gridcolor || "#eeeeee"}"/>`
        : `<line y1="${p}" y2="${p}" x1="${f1(oa)}" x2="${f1(ob)}" stroke="${o.gridcolor || "#eeeeee"}"/>`;
    if (o.showticklabels === false || past) return;
    const sd = o.ticklabelstandoff || 0;
    svg += x ? `<text class="dbls-tick" data-axis="${a._name}" x="${p}" y="${f1(top ? oa - 4 - sd : ob + fs + 2 + sd)}" text-anchor="middle" font-size="${fs}" fill="${tf.color || font.color}">${esc(texts[j])}</text>`
      : `<text class="dbls-tick" data-axis="${a._name}" x="${f1(right ? ob + 4 + sd : oa - 4 - sd)}" y="${p}" dy="0.35em" text-anchor="${right ? "start" : "end"}" font-size="${fs}" fill="${tf.color || font.color}">${esc(texts[j])}</text>`;
  });
  if (zero && !o.overlaying) {
    const p = f1(pos(0)), c = o.zerolinecolor || "#444444";
    svg += x ? `<line x1="${p}" x2="${p}" y1="${f1(oa)}" y2="${f1(ob)}" stroke="${c}"/>` : `<line y1="${p}" y2="${p}" x1="${f1(oa)}" x2="${f1(ob)}" stroke="${c}"/>`;
  }
  const title = o.title && (typeof o.title === "string" ? o.title : o.title.text), tfont = (o.title && o.title.font) || {};
  if (title) {
    const ts = tfont.size || font.size || 14, mid = f1(a._offset + a._length / 2);
    svg += x ? `<text x="${mid}" y="${f1(ob + 1.45 * fs + (o.title.standoff ?? 0) + 0.72 * ts)}" text-anchor="middle" font-size="${ts}" fill="${tfont.color || font.color}">${esc(title)}</text>`
      : `<text transform="translate(${f1(right ? ob + fs * 3 + ts * 0.4 : oa - fs * 2.2 - ts * 0.6)},${mid}) rotate(-90)" text-anchor="middle" font-size="${ts}" fill="${tfont.color || font.color}">${esc(title)}</text>`;
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
  const fl = {...axes, width: W, height: H, margin: sketchMargin(layout), meta: layout.meta};
  let svg = "";
  for (const a of Object.values(axes)) svg += sketchAxis(a, fl, font);
  const clips = new Map();  // a clip to each pair of axes' panel
  let defs = "";
  for (const t of gd.data) {
    const body = sketchTrace(t, fl), key = `${t.xaxis || "x"} ${t.yaxis || "y"}`;
    if (!body) continue;
    if (!clips.has(key)) {
      const [xaxis, yaxis] = traceAxes(t, fl), id = `dbls-sk${clipIds++}`;
      clips.set(key, id);
      defs += pen({xaxis, yaxis}).clip(id);
    }
    svg += `<g clip-path="url(#${clips.get(key)})">${body}</g>`;
  }
  for (const n of layout.annotations || []) svg += sketchNote(n, fl, font);
  const xa = axes.xaxis, ya = axes.yaxis;
  if (xa.opts.showline && ya.opts.showline)  // the frame of a mirrored axis line
    svg += `<rect x="${f1(xa._offset)}" y="${f1(ya._offset)}" width="${f1(xa._length)}" height="${f1(ya._length)}" fill="none" stroke="${xa.opts.linecolor || "#444"}"/>`;
  gd.classList.add(SKETCHED);
  gd.innerHTML = `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${esc(font.family)}" style="display:block" class="main-svg"><defs>${defs}</defs>${svg}</svg>`;
  gd._fullLayout = fl;
}

// what the views call of plotly.js, for the sketch (views call nothing else before plotly.js is in)
const SKETCH = {
  react(gd, data, layout) {
    gd.data = data.map((t) => ({...t}));
    gd.layout = layout;
    if (!gd.on) gd.on = () => {};  // (the sketch answers no hover or click: plotly.js's drawing will)
    sketchDraw(gd);
    return Promise.resolve(gd);
  },
  relayout(gd, update) {
    for (const [path, v] of Object.entries(update)) {
      const keys = path.split(".");
      let o = gd.layout;
      for (const key of keys.slice(0, -1)) o = o[key] || (o[key] = {});
      o[keys[keys.length - 1]] = v;
    }
    sketchDraw(gd);
    return Promise.resolve(gd);
  },
  restyle(gd, update, idx) {
    for (const j of idx ?? gd.data.map((_, i) => i)) Object.assign(gd.data[j] || {}, update);
    sketchDraw(gd);
    return Promise.resolve(gd);
  },
};

// the plot elements the sketch drew, each replaced by a fresh one (no drawing, no hooks: plotly.js draws it next)
function unsketch(root) {
  for (const gd of root.querySelectorAll(`.${SKETCHED}`)) {
    const fresh = gd.cloneNode(false);
    fresh.classList.remove(SKETCHED);
    gd.replaceWith(fresh);
  }
}

// a frame with what is drawn on screen (before a long task, plotly.js's evaluation, takes the main thread); at most
// 100 ms (a tab in the background paints no frame)
const painted = () => new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 100); });
