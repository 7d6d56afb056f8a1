// ---------------------------------------------------------------------------------------------------
// a still figure (viz/scene.py: figure_scene): a Plotly figure that nothing steps, drawn as it is
// ---------------------------------------------------------------------------------------------------
// The Loss page's θ slice, its 3-D view and its data chart, and the points alone where a page cannot run on them
// yet. The figure is the page's own (axes, title, layout.meta); plotly.js draws it here like every other chart, and
// the chart tools treat it as a still Plotly chart (no view on the plot: nothing to step, its own state lines read).

// no mode bar but on a 3-D view (its camera buttons); PNG and SVG are under every chart
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
    this.i = 0; this.timer = null;
    if (model.h.alt) { this.plot.setAttribute("role", "img"); this.plot.setAttribute("aria-label", model.h.alt); }
  }
  get step() { return 0; }
  async mount() {
    this.width = this.root.clientWidth;
    const fig = this.m.fig;
    await this.Plotly.react(this.plot, fig.data, fig.layout, {...FIGURE_CONFIG, displayModeBar: fig.layout.scene ? "hover" : false});
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

KINDS.figure = {shell: '<div class="dbls-plot"></div><div class="dbls-legend" hidden></div>', model: (scene) => new FigureModel(scene),
                View: FigureView};
