// ---------------------------------------------------------------------------------------------------
// a still figure (viz/scene.py: figure_scene): a Plotly figure that nothing steps, drawn as it is
// ---------------------------------------------------------------------------------------------------
// The Loss page's θ slice, its 3-D view and its data chart, and the points alone where a page cannot run on them
// yet. The figure is the page's own (axes, title, layout.meta); plotly.js draws it here like every other chart, and
// the chart tools treat it as a still Plotly chart (no view on the plot: nothing to step, its own state lines read).

// no mode bar but on a 3-D view (its camera buttons); PNG and SVG are under every chart
const CHOSEN_LINE = "w·x + b = 0 (the chosen w)";  // (viz.losses.data_figure's name for it)
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
  async mount() {
    const root = this.root;
    if (!root.__dblPicks) {  // (one listener per chart, gone with it)
      root.__dblPicks = (ev) => {
        if (!root.isConnected) { document.removeEventListener("dbl-pick", root.__dblPicks); return; }
        if (root.__dblView && root.__dblView.preview) root.__dblView.preview(ev.detail);
      };
      document.addEventListener("dbl-pick", root.__dblPicks);
    }
    this.width = this.root.clientWidth;
    if (this.over) this.over.innerHTML = "";  // (a weight picked is drawn by the figure now)
    for (const el of this.plot.querySelectorAll(".dbls-faded")) el.classList.remove("dbls-faded");
    const fig = this.m.fig;
    await this.Plotly.react(this.plot, fig.data, fig.layout, {...FIGURE_CONFIG, displayModeBar: fig.layout.scene ? "hover" : false});
  }
  // the Loss page's data chart (meta.view "loss_data"): a weight picked on the surface beside it (LossView.preview)
  // is drawn here at once, until the page's figure for it, made from the core with the points it misclassifies,
  // replaces it (meta.pending until then): its boundary w·x + b = 0 on a layer over the plot (clipped as the page
  // clips it: the view box grown by its width on every side, viz.common.widened), the weight and the losses the
  // surface shows there in the title. No point is drawn again (plotly.js redrawing the figure took 100–130 ms here
  // at N = 1,000)
  preview({w, b, losses}) {
    const gd = this.plot, fl = gd._fullLayout, lay = gd.layout, meta = (lay && lay.meta) || {};
    if (meta.view !== "loss_data" || !fl || !fl.xaxis || !fl.yaxis || !this.over) return;
    const [x0, x1] = this.m.fig.layout.xaxis.range, [y0, y1] = this.m.fig.layout.yaxis.range, d = x1 - x0;
    const seg = segment([x0 - d, x1 + d, y0 - d, y1 + d], w[0], w[1], b), P = pen(fl), id = `dbls-fig-clip-${++clipIds}`;
    layer(this.over, fl, `<defs>${P.clip(id)}</defs><g clip-path="url(#${id})">${P.seg(seg, CHOSEN_INK, 4)}</g>`);
    // (meta is ours, read by nothing that draws: set in place, as a relayout of it would draw every point again)
    lay.meta = {...meta, chosen: [w[0], w[1], b], boundary_x: seg[0], boundary_y: seg[1], pending: true};
    const at = `w = (${num(w[0])}, ${num(w[1])}), b = ${num(b)}`;
    this.root.__dblId = null;  // the page's figure is drawn even if it is the one drawn before (a pick it refused)
    this.root.setAttribute("aria-busy", "true");
    const old = gd.data.findIndex((t) => t.name === CHOSEN_LINE), traces = gd.querySelectorAll(".scatterlayer .trace");
    // the last weight's boundary and its state under the chart fade (a restyle or a relayout of them would draw every
    // point again: 60–100 ms)
    if (old >= 0 && traces.length === gd.data.length) traces[old].classList.add("dbls-faded");
    for (const el of gd.querySelectorAll(".annotation")) el.classList.add("dbls-faded");
    return this.Plotly.relayout(gd, {"title.text": `${at}<br>${losses.map(([t, v]) => `${t} ${num(v)}`).join(", ")}`});
  }
  resize() {  // the figure's own height; its width the page's
    if (!this.plot._fullLayout || Math.abs(this.root.clientWidth - this.width) < 2) return;
    this.width = this.root.clientWidth;
    this.Plotly.Plots.resize(this.plot);
  }
  // nothing moves
  show() {} pause() {} sync() {} go() {} play() {}
  key() { return false; }
}

KINDS.figure = {shell: '<div class="dbls-stage"><div class="dbls-plot"></div><svg class="dbls-over"></svg></div><div class="dbls-legend" hidden></div>', model: (scene) => new FigureModel(scene),
                View: FigureView};
