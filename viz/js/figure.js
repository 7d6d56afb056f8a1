// ---------------------------------------------------------------------------------------------------
// a still figure (viz/scene.py: figure_scene): a Plotly figure that nothing steps, drawn as it is
// ---------------------------------------------------------------------------------------------------
// The Loss page's θ slice, its 3-D view and its data chart, and the points alone where a page cannot run on them
// yet. The figure is the page's own (axes, title, layout.meta); plotly.js draws it here like every other chart, and
// the chart tools treat it as a still Plotly chart (no view on the plot: nothing to step, its own state lines read).

// no mode bar but on a 3-D view (its camera buttons); PNG and SVG are under every chart
const FIT_PAD = 8, MIN_PLOT = 100;  // px: what a presentation-mode figure leaves under it; the least plot fitted() makes
const FIGURE_CONFIG = {displaylogo: false, scrollZoom: false, doubleClick: false, responsive: false,
                       modeBarButtonsToRemove: ["sendDataToCloud", "toImage"]};

class FigureModel {
  constructor({header, arrays}) {
    this.h = header;
    if (!arrays.figure) throw new Error("the scene holds no figure");
    let fig = null;
    try { fig = JSON.parse(new TextDecoder().decode(arrays.figure)); } catch (e) { throw new Error("its figure is not JSON"); }
    if (!fig || !Array.isArray(fig.data) || !fig.layout || typeof fig.layout !== "object") throw new Error("its figure has no data or no layout");
    this.fig = fig;
  }
}

class FigureView {
  constructor(root, model, Plotly) {
    this.root = root; this.m = model; this.Plotly = Plotly; this.plot = root.querySelector(".dbls-plot");
    this.over = root.querySelector(".dbls-over");
    this.i = 0; this.timer = null;
    if (model.h.alt) { this.plot.setAttribute("role", "img"); this.plot.setAttribute("aria-label", model.h.alt); }
  }
  get step() { return 0; }
  async mount(at, old) {
    this.width = this.root.clientWidth;
    this.dropPick();  // (a weight picked is drawn by the figure now)
    const fig = this.fitted(this.m.fig);
    await this.Plotly.react(this.plot, fig.data, fig.layout, {...FIGURE_CONFIG, displayModeBar: fig.layout.scene ? "hover" : false});
    await this.fitLegend();
    // a figure the page made before the weight last picked here (View.seen): that weight is drawn over it again
    const p = old instanceof FigureView ? old.picked : null;
    if (p && p.at > (this.m.h.view.seen ?? -Infinity)) await this.previewPick(p);
  }
  // the Loss page's data chart (meta.view "loss_data"): a weight picked on the surface beside it (LossView.preview)
  // is drawn here at once, until the page's figure made after it (View.seen), from the core with the points it
  // misclassifies, replaces it (meta.pending until then): its boundary w·x + b = 0 on a layer over the plot,
  // clipped to the box the page clips its own to (meta.clip), the weight and the losses the surface shows there in
  // the title; the last weight's boundary (trace meta.line) and its state fade. No point is drawn again (plotly.js
  // redrawing the figure took 100–130 ms here at N = 1,000; a restyle or a relayout of the line or the state,
  // 60–100 ms)
  previewPick(pick) {
    const gd = this.plot, fl = gd._fullLayout, lay = gd.layout, meta = (lay && lay.meta) || {}, {w, b, losses} = pick;
    if (meta.view !== "loss_data" || !Array.isArray(meta.clip) || !fl || !fl.xaxis || !fl.yaxis || !this.over) return;
    this.picked = pick;
    this.drawPick();
    const at = `w = ${vec(w)}, b = ${num(b)}`;
    // (meta is ours, read by nothing that draws: set in place, as a relayout of it would draw every point again)
    lay.meta = {...meta, chosen: [w[0], w[1], b], boundary_x: this.seg[0], boundary_y: this.seg[1], pending: true};
    this.root.setAttribute("aria-busy", "true");  // (the page's next figure, which says it has seen this pick, clears it)
    const traces = gd.querySelectorAll(".scatterlayer .trace");
    if (Number.isInteger(meta.line) && traces.length === gd.data.length && traces[meta.line]) traces[meta.line].classList.add("dbls-faded");
    for (const el of gd.querySelectorAll(".annotation")) el.classList.add("dbls-faded");
    return this.Plotly.relayout(gd, {"title.text": `${at}<br>${losses.map(([t, v]) => `${t} ${num(v)}`).join(", ")}`});
  }
  drawPick() {  // the picked weight's boundary on the layer over the plot, for the plot's size now
    const fl = this.plot._fullLayout, P = pen(fl), id = this.clipId || (this.clipId = `dbls-fig-clip-${++clipIds}`);
    const c = this.plot.layout.meta.clip, {w, b} = this.picked;
    this.seg = segment(c, w[0], w[1], b);
    layer(this.over, fl, `<defs>${P.clip(id)}</defs><g clip-path="url(#${id})">${P.seg(this.seg, CHOSEN_INK, 4)}</g>`);
  }
  dropPick() {
    this.picked = null;
    if (this.over) this.over.innerHTML = "";
    for (const el of this.plot.querySelectorAll(".dbls-faded")) el.classList.remove("dbls-faded");
  }
  // the Loss page's data chart (meta.view "loss_data") no taller than it needs: its plot keeps x₁ and x₂ at one scale,
  // so in a column narrower than the plot is high the paper under it stood empty between the plot and the legend;
  // in presentation mode, no taller than the window below its top either (the whole window for a chart further down
  // than 45 % of it: it is scrolled to). The legend stays under the state lines, where the page put it (its y counts
  // plot heights). The 3-D view, in presentation mode, likewise no taller than the window below it; any other figure
  // is drawn as the page made it
  fitted(fig) {
    // (a copy of the page's layout, every time: plotly.js changes the layout it draws in place, at a relayout too)
    const L = structuredClone(fig.layout), meta = L.meta || {}, m = L.margin;
    if (meta.view === "loss_surface_3d" && this.m.h.view.scale > 1 && L.height)  // (the 3-D view: within the window)
      L.height = Math.round(Math.max(320, Math.min(L.height, windowRoom(this.root, FIT_PAD))));
    if (meta.view !== "loss_data" || !m || !L.legend || !L.xaxis || !L.yaxis || !L.xaxis.range || !L.yaxis.range)
      return {data: fig.data, layout: L};
    const around = m.t + m.b, plotH = L.height - around, below = -L.legend.y * plotH;
    const [x0, x1] = L.xaxis.range, [y0, y1] = L.yaxis.range;
    let h = Math.min(plotH, ((this.plot.clientWidth || this.root.clientWidth) - m.l - m.r) * (y1 - y0) / (x1 - x0));
    if (this.m.h.view.scale > 1) h = Math.min(h, windowRoom(this.root, FIT_PAD) - around);
    h = Math.round(Math.max(MIN_PLOT, h));  // (plotly.js takes a legend's y down to −2 plot heights: never past it here)
    return h === plotH ? {data: fig.data, layout: L} : {data: fig.data, layout: {...L, height: h + around, legend: {...L.legend, y: Math.max(-2, -below / h)}}};
  }
  // the Loss data chart's legend, where it wraps to more rows than its margin holds (a chosen weight's line and a lit
  // point in a narrow column): the figure grows under it by what it lacks (its margins are not pushed: viz/losses.py)
  fitLegend() {
    const gd = this.plot, fl = gd._fullLayout, lg = gd.querySelector(".legend");
    if (!fl || !lg || !fl.meta || fl.meta.view !== "loss_data") return null;
    const over = Math.ceil(lg.getBoundingClientRect().bottom - gd.getBoundingClientRect().top - fl.height + 4);
    if (over <= 0) return null;
    this.extra = (this.extra || 0) + over;  // (kept: resize() sizes the figure with it, until the width changes)
    return this.Plotly.relayout(gd, {height: fl.height + over, "margin.b": fl.margin.b + over});
  }
  resize() {  // its width the page's; its height its own, or as fitted() makes it (then set with its width)
    const fl = this.plot._fullLayout;
    if (!fl || !this.root.offsetWidth) return;
    const fit = this.fitted(this.m.fig).layout, w = this.root.clientWidth, wide = Math.abs(w - this.width) >= 2;
    if (wide) this.extra = 0;  // (the legend wraps anew: fitLegend)
    const extra = this.extra || 0;
    if (!wide && fit.height + extra === fl.height) return;
    this.width = w;
    const view = fit.meta && fit.meta.view, size = {width: this.plot.clientWidth, height: fit.height + extra};
    (view === "loss_data" ? this.Plotly.relayout(this.plot, {...size, "legend.y": fit.legend.y, "margin.b": fit.margin.b + extra})
      : view === "loss_surface_3d" && this.m.h.view.scale > 1 ? this.Plotly.relayout(this.plot, size)
        : this.Plotly.Plots.resize(this.plot))
      .then(() => this.fitLegend())
      .then(() => { if (this.picked && this.root.__dblView === this) this.drawPick(); },
            () => {});  // (a chart hidden meanwhile: a page left, presentation mode turned)
  }
  // nothing moves
  show() {} pause() {} sync() {} go() {} play() {}
  key() { return false; }
}

KINDS.figure = {shell: '<div class="dbls-stage"><div class="dbls-plot"></div><svg class="dbls-over" aria-hidden="true"></svg></div><div class="dbls-legend" hidden></div>', model: (scene) => new FigureModel(scene),
                View: FigureView};
