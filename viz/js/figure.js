// ---------------------------------------------------------------------------------------------------
// a still figure (viz/scene.py: figure_scene): a Plotly figure that nothing steps, drawn as it is
// ---------------------------------------------------------------------------------------------------
// The Loss page's θ slice and its 3-D view, and the points alone where a page cannot run on them yet. The figure is
// the page's own (axes, title, layout.meta); plotly.js draws it here like every other chart, and the chart tools treat
// it as a still Plotly chart (no view on the plot: nothing to step).

// no mode bar but on a 3-D view (its camera buttons); PNG and SVG are under every chart
import {FIT_PAD, windowRoom} from "./layout.js";

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
    const fig = this.fitted(this.m.fig);
    await this.Plotly.react(this.plot, fig.data, fig.layout, {...FIGURE_CONFIG, displayModeBar: fig.layout.scene ? "hover" : false});
  }
  // the 3-D view, in presentation mode, no taller than the window below its top (the whole window for a chart further
  // down than 45 % of it: it is scrolled to); any other figure is drawn as the page made it
  fitted(fig) {
    // (a copy of the page's layout, every time: plotly.js changes the layout it draws in place, at a relayout too)
    const L = structuredClone(fig.layout), meta = L.meta || {};
    if (meta.view === "loss_surface_3d" && this.m.h.view.scale > 1 && L.height)
      L.height = Math.round(Math.max(320, Math.min(L.height, windowRoom(this.root, FIT_PAD))));
    return {data: fig.data, layout: L};
  }
  resize() {  // its width the page's; its height its own, or as fitted() makes it
    const fl = this.plot._fullLayout;
    if (!fl || !this.root.offsetWidth) return;
    const fit = this.fitted(this.m.fig).layout, w = this.root.clientWidth, wide = Math.abs(w - this.width) >= 2;
    if (!wide && fit.height === fl.height) return;
    this.width = w;
    const big3d = fit.meta && fit.meta.view === "loss_surface_3d" && this.m.h.view.scale > 1;
    (big3d ? this.Plotly.relayout(this.plot, {width: this.plot.clientWidth, height: fit.height}) : this.Plotly.Plots.resize(this.plot))
      .catch(() => {});  // (a chart hidden meanwhile: a page left, presentation mode turned)
  }
  // nothing moves
  show() {} pause() {} sync() {} go() {} play() {}
  key() { return false; }
}

export const FIGURE_KIND = {shell: '<div class="dbls-stage"><div class="dbls-plot"></div></div><div class="dbls-legend" hidden></div>', model: (scene) => new FigureModel(scene),
                View: FigureView};
