// Stepping: what every view does alike (step, play, pause over its model's stops, the keys, the room in the window);
// Panels: a view of several plots side by side (Compare, the Loss surface).

import {CONFIG, EDGE, FAST_RUN_MS, FRAME_MS, SPEEDS} from "./draw.js";
import {fingerprint} from "./follow.js";
import {grouped} from "./format.js";
import {esc, heldForAll, pageTop, placeTip, pointName} from "./layout.js";
import {lessonHeight, showLesson} from "./lesson.js";
import {stateOf} from "./state.js";

// what every view does alike: step, play and pause over its model's stops (m.nStops), and the room a
// presentation-mode chart has in the window

export class Stepping {
  // what every view holds: its root, model and plotly.js; the elements every shell has; the parts hidden in the legend
  // (kept on the root, so a new run keeps them; ``hidden`` the first time)
  constructor(root, model, Plotly, scene, hidden = []) {
    this.root = root; this.m = model; this.Plotly = Plotly; this.scene = scene;
    this.k = model.h.view.scale || 1;
    root.classList.toggle("dbls-big", this.k > 1);  // (presentation mode: its slider shorter, glue/scene_chart.py)
    const q = (c) => root.querySelector(c);
    this.text = q(".dbls-text"); this.plot = q(".dbls-plot"); this.over = q(".dbls-over");
    this.legendEl = q(".dbls-legend"); this.stateEl = q(".dbls-state"); this.live = q(".dbls-live");
    this.range = q(".dbls-range"); this.label = q(".dbls-at");
    this.hidden = stateOf(root).hidden || (stateOf(root).hidden = new Set(hidden));
    this.i = 0;
    this.timer = null;
  }

  get step() { return this.m.stepAt(this.i); }

  // where the chart stands, for a copied link and a file's name: the step (the SVM: its C; null: nothing moves)
  position() { return {prefix: "Step ", label: String(this.step), step: String(this.step)}; }

  // the data panel (its points), drawn again only when what it shows changed: a new run on the same points keeps it;
  // its meta (read by tests and exports) is the new run's either way
  async drawData(old, width, height) {
    const m = this.m, h = m.h, bytes = (a) => fingerprint(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    // (what the panel's plotly.js traces show: the points, R and γ, the hinge-SGD tab's exact SVM)
    const key = JSON.stringify([h.box, h.bound ?? null, h.exact ?? null, h.view.scale, h.view.axes, width, height, m.X.length,
                                bytes(m.X), bytes(m.y)]);
    const layout = this.mainLayout(width, height);
    if (!old || old.mainKey !== key || !this.plot._fullLayout) await this.Plotly.react(this.plot, this.mainTraces(), layout, CONFIG);
    else this.plot.layout.meta = layout.meta;  // not drawn: a relayout would redraw every point
    this.mainKey = key;
  }

  // the legend: ours, in HTML, so it never lies over the plot; a click on an entry hides or shows that part
  legendButtons() { return this.legendItems(); }  // the entries the legend shows (legendItems also names traces)
  drawLegend() { this.legendEl.innerHTML = this.legendHTML(); }
  // (one Tab stop, the arrows move along it, main.js: wire: the ten entries were ten stops before the controls)
  legendHTML(items = this.legendButtons()) {
    const at = Math.min(stateOf(this.root).legendAt || 0, items.length - 1);
    return items.map(([id, label, svg], j) =>
      `<button type="button" data-part="${id}" aria-pressed="${!this.hidden.has(id)}" tabindex="${j === at ? 0 : -1}" title="Show or hide: ${esc(label)}">` +
      `<svg width="18" height="18" aria-hidden="true">${svg}</svg><span>${esc(label)}</span></button>`).join("");
  }
  // which legend parts are plotly.js traces of the data panel(s), by trace index (the rest is drawn by drawStep)
  traceParts() { return {pos: 0, neg: 1}; }
  toggle(id) {
    if (this.hidden.has(id)) this.hidden.delete(id); else this.hidden.add(id);
    const had = this.legendEl.contains(document.activeElement);
    this.drawLegend();
    // (the entry pressed is written anew: the focus stays on it, not on the page's top)
    if (had) { const b = this.legendEl.querySelector(`button[data-part="${id}"]`); if (b) b.focus({preventScroll: true}); }
    const t = this.traceParts()[id];
    if (t === undefined) { this.drawStep(); return; }
    for (const gd of this.plots || [this.plot]) if (t < gd.data.length) this.Plotly.restyle(gd, {visible: !this.hidden.has(id)}, [t]);
  }

  // the sizes laid out, and where they were made for in presentation mode: the chart's top and the window's height
  // (resized() compares them; a fit that only shrinks the chart leaves them, so a later move is still seen)
  get sz() { return this._sz; }
  set sz(v) {
    this._sz = v;
    this.sizedFor = v && this.k > 1 ? [this.topNow(), window.innerHeight] : null;
  }

  // the view's step changes move with each step: is the window another width, or (presentation mode) has the chart's
  // top or the window's height changed, and with them the room under it? (then its new sizes, laid out)
  resized() {
    const sz = this.sizes(), at = this.sizedFor;
    const moved = Boolean(at) && (Math.abs(this.topNow() - at[0]) > 2 || Math.abs(window.innerHeight - at[1]) > 2);
    if (this.sz && Math.abs(sz.width - this.sz.width) < 2 && !moved) return null;
    this.sz = sz;
    this.layoutClasses(sz);
    return sz;
  }

  // once drawn: the plot knows its view (the page's keys and exports find it there), the layers follow the plot
  // when it is drawn again (resize, legend), and the step is shown
  attach() {
    stateOf(this.plot).view = this;
    if (!stateOf(this.plot).hooked) {
      stateOf(this.plot).hooked = true;
      this.plot.on("plotly_afterplot", () => stateOf(this.root).view && stateOf(this.root).view.drawStep());
    }
    this.hookHover();
    const tip = this.root.querySelector(".dbls-tip");
    if (tip) tip.hidden = true;  // (a new record's view: the last one's label goes, the pointer's next move brings it)
    this.show(this.i);
  }

  // a point hovered: the view's own label (tipFor(i), HTML) over the step's layers, where the shell has a place for it
  // (.dbls-tip). plotly.js's label lay under those layers and wrote the coordinates unrounded; the views whose points
  // plotly.js knows hover them with hoverinfo "none" (its events still come). Hooked once a plot
  hookHover() {
    if (stateOf(this.plot).hoverHooked || !this.root.querySelector(".dbls-tip")) return;
    stateOf(this.plot).hoverHooked = true;
    this.plot.on("plotly_hover", (ev) => stateOf(this.root).view && stateOf(this.root).view.hover(ev));
    this.plot.on("plotly_unhover", () => stateOf(this.root).view && stateOf(this.root).view.hover(null));
  }
  hover(ev) {
    const p = ev && ev.points && ev.points[0];
    this.tipAt = p ? this.pointOf(p) : null;
    this.drawTip();
  }
  // the hovered point's label, for the step shown (show() writes it again as the step moves under a resting pointer)
  drawTip() {
    const tip = this.root.querySelector(".dbls-tip"), fl = this.plot._fullLayout, i = this.tipAt ?? null;
    if (!tip) return;
    if (i === null || !fl || !fl.xaxis) { tip.hidden = true; return; }
    placeTip(tip, fl, this.m.X, i, this.tipFor(i));
  }
  // the point a hover names (the points' traces carry i + 1), or null
  pointOf(p) { return Number.isInteger(p.customdata) && p.customdata >= 1 && p.customdata <= this.m.N ? p.customdata - 1 : null; }
  tipFor(i) { return pointName(this.m, i); }

  // what the words and the state line are held at: run m's texts (``textsOf(m)``, written once per run of the record,
  // under ``heldKey(m)``: a τ or η moved back takes them as they were) and, once known, the longest of every run's
  // (heldForAll over ``runModels()``), so that moving τ or η keeps the words' height; ``again(view)`` holds anew once
  // those are known (the view then showing this record). ``final``: whether that is all there is to hold (every run's
  // known, or a record of one run that is not a partial one, whose other runs are to come)
  heldTexts(again) {
    const kept = stateOf(this.scene).held || (stateOf(this.scene).held = new Map());
    const own = (m) => {
      const key = this.heldKey(m);
      if (!kept.has(key)) kept.set(key, this.textsOf(m));
      return kept.get(key);
    };
    const all = again ? heldForAll(this.scene, this.runModels(), own, () => {
      const v = stateOf(this.root).view;
      if (v && v.scene === this.scene) again(v);
    }) : null;
    const mine = own(this.m);
    if (all) return {words: [...mine.words, ...all.words], states: [...mine.states, ...all.states], final: true};
    return {...mine, final: !this.m.h.partial && this.runModels().length < 2};
  }

  // whether the words' held height is the record's last: every run's tallest known (heldTexts), or a whole record of one
  get wordsHeld() {
    return Boolean(stateOf(this.scene).heldAll) || (!this.m.h.partial && this.runModels().length < 2);
  }

  // one step on screen: the view's drawing (geometry, drawStep), the words, the controls
  show(i) {
    const m = this.m;
    this.i = Math.max(0, Math.min(m.nStops - 1, i));
    const step = this.step;
    this.g = this.geometry(step);
    this.drawStep();
    this.text.innerHTML = m.describe(step);
    showLesson(this, step);
    const line = m.stateLine(step);
    this.stateEl.textContent = line;
    this.range.value = String(this.i);
    this.label.textContent = `Step ${grouped(step)} of ${grouped(m.S)}`;
    // (room held for the run's longest label, not for "Step 1,000 of 1,000": in presentation mode at 1280×720 with
    // the sidebar the 9.5em held put "Step 0 of 15" on a row of its own, and the panel gave up that row's height)
    this.label.style.minWidth = `${`Step ${grouped(m.S)} of ${grouped(m.S)}`.length}ch`;
    this.root.dataset.step = String(step);
    if (this.live) this.live.textContent = `Step ${grouped(step)} of ${grouped(m.S)}: ${line}`;
    for (const b of this.root.querySelectorAll("[data-go=back]")) b.disabled = this.i === 0;
    for (const b of this.root.querySelectorAll("[data-go=next]")) b.disabled = this.i === m.nStops - 1;
    this.keepFocus();
    if (this.tipAt !== undefined && this.tipAt !== null) this.drawTip();
  }

  // a step button focused and now disabled (Next at the last step, Back at the first) would hand the focus to the
  // page, and the next Tab would start from its top: it goes to the other one (or the slider) instead
  keepFocus() {
    const f = document.activeElement;
    if (!f || !f.disabled || !f.dataset || !f.dataset.go || !this.root.contains(f)) return;
    const other = this.root.querySelector(f.dataset.go === "next" ? "[data-go=back]" : "[data-go=next]");
    const to = other && !other.disabled ? other : this.range;
    if (to) to.focus({preventScroll: true});
  }

  // PNG or SVG of the chart as it stands, with the step's arithmetic and state line written above it
  image(format, filename) {
    const fig = this.figure();
    return this.Plotly.downloadImage(fig, {format, filename, width: fig.layout.width, height: fig.layout.height,
                                           scale: format === "png" ? 2 : 1});
  }

  go(delta) { this.pause(); this.show(this.i + delta); }
  key(name) {  // (the page's keys: glue/chart_tools.py)
    stateOf(this.root).worked = performance.now();
    const last = this.m.nStops - 1;
    const i = {ArrowLeft: this.i - 1, ArrowRight: this.i + 1, Home: 0, End: last}[name];
    if (i === undefined) return false;
    this.pause();
    this.show(i);
    return true;
  }
  // Fast ▶▶'s pace, [ms a tick, steps a tick]: a step every SPEEDS.fast ms on a short run; on a longer one as many
  // as cross it in FAST_RUN_MS, a step a frame (FRAME_MS) at most, then several steps a frame (a 1,000-step run takes
  // 33 s, not 2 minutes; 100,000 steps about 30 s)
  fastPace() {
    const n = Math.max(1, this.m.nStops - 1), stride = Math.max(1, Math.ceil((n * FRAME_MS) / FAST_RUN_MS));
    return [Math.round(Math.max(FRAME_MS, Math.min(SPEEDS.fast, (FAST_RUN_MS * stride) / n))), stride];
  }
  play(ms, stride = 1) {
    this.pause();
    if (this.i >= this.m.nStops - 1) this.show(0);
    this.pace = [ms, stride];
    this.timer = setInterval(() => {
      if (this.i >= this.m.nStops - 1) return this.pause();
      this.show(Math.min(this.m.nStops - 1, this.i + stride));
    }, ms);
    this.root.classList.add("dbls-playing");
  }
  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.root.classList.remove("dbls-playing");
  }

  // presentation mode: the height left in the window below the chart's top (counted as at most 45 % of the
  // window, so a chart far down a page is not squeezed to nothing) less ``below`` px, and less ``edge`` px at the
  // window's bottom (a focused control's ring is drawn outside it: a slide ending on the window's edge cut it)
  room(below, edge = EDGE) { return Math.round(window.innerHeight - this.topNow() - below - edge); }

  // presentation mode's slide of panels side by side (the SVM's; the Dual's fits its words too: DualView.fit), once
  // drawn: the side ``main`` px of the panels gives up what the window lacks for what lies under the row of ``els``
  // (the lesson aside), down to ``least``; null where it all fits
  fittedSide(els, main, least) {
    const row = Math.max(...els.map((e) => e.getBoundingClientRect().bottom));
    const S = Math.max(least, Math.min(main, this.room(this.root.getBoundingClientRect().bottom - row - lessonHeight(this.root) + 4)));
    return S >= main - 2 ? null : S;
  }
  topNow() { return Math.round(Math.min(Math.max(0, pageTop(this.root)), 0.45 * window.innerHeight)); }
}

// the views of several equal panels (Compare, the Loss surface): each plot W × H; what lies around them (titles,
// words, legend, controls, as they wrapped) is measured once drawn (aroundNow()) and the panels sized again to it
export class Panels extends Stepping {
  sizePanels(sz) { return Promise.all(this.plots.map((gd) => this.Plotly.relayout(gd, {width: sz.W, height: sz.H}))); }
  resize() {
    const sz = this.resized();
    // (at another width what lies around the panels wraps anew: measured again once they are sized, as at mount. A
    // page's first drawing can be at another width than its last: a scroll bar of the page there while it was built)
    if (sz) this.sizePanels(sz).then(() => this.fit()).then(() => this.drawStep());
    // (at the same width what lies around them may have wrapped anew, a font come in meanwhile: measured again)
    else if (this.sz) this.fit().then((moved) => moved && this.drawStep());
  }
  // (true where the panels were sized again)
  async fit() {
    if (stateOf(this.root).view !== this || !this.root.offsetWidth) return false;  // (a newer record's view, or hidden: not measured)
    this.around = Math.max(0, this.aroundNow());
    const sz = this.sizes();
    if (Math.abs(sz.H - this.sz.H) <= 2) return false;
    this.sz = sz;
    this.layoutClasses(sz);
    await this.sizePanels(sz);
    return true;
  }
}
