// The browser renderer of scenes (viz/scene.py documents the record; the field names are the same here), entry module.
// A components-v2 component: Streamlit calls the default export with the scene's bytes as `data`; the offline HTML
// export calls mountScene() itself. Everything drawable is derived from the core's states; nothing the core decided
// (M, ties, which points updated, convergence) is decided again. kinds.js says what draws each kind of record.

import {SPEEDS, loadPlotly} from "./draw.js";
import {askAhead, askMore, drawWith, fail, headerOf, keep, keepAhead, keptInFull, recordId, syncControls} from "./follow.js";
import {KINDS} from "./kinds.js";
import {inView, toTop} from "./layout.js";
import {KATEX, lessonFolds, loadKatex, showLesson, typesetAsMathML} from "./lesson.js";
import {asBytes, decode} from "./record.js";
import {SKETCH, painted, unsketch} from "./sketch.js";
import {stateOf} from "./state.js";
import {drawTune, newPage, tuneTakenOver, tuneWith} from "./tune.js";

drawWith(mountScene);
tuneWith(syncControls);

// whether two models draw the same points (X and y alike, value for value)
function samePoints(a, b) {
  if (!a || !b || !a.X || !b.X || !a.y || !b.y || a.X.length !== b.X.length || a.y.length !== b.y.length) return false;
  for (let i = 0; i < a.X.length; i++) if (a.X[i] !== b.X[i]) return false;
  for (let i = 0; i < a.y.length; i++) if (a.y[i] !== b.y[i]) return false;
  return true;
}

// draws a record in ``root``; resolves to its view once drawn (nothing where it was kept, or a newer record came)
export async function mountScene(root, data, {standalone = false, shownAs = null, stripLater = false} = {}) {
  const chart = stateOf(root);
  if (standalone) typesetAsMathML();
  listen(root);
  let bytes, parsed;
  try { bytes = asBytes(data); } catch (e) { fail(root, e.message); return; }
  parsed = headerOf(bytes);
  if (parsed && parsed.header.kind === "bundle") {  // records made ahead: kept, not drawn
    try { keepAhead(root, bytes); } catch (e) { console.warn(`records made ahead not kept: ${e.message}`); }
    return;  // (a bundle it cannot read costs nothing but the change it would have made sooner)
  }
  const full = parsed && keptInFull(root, parsed.header);
  if (full) return mountScene(root, full, {standalone, shownAs: shownAs || parsed.header.view});  // (no "more" asked)
  const id = recordId(bytes, shownAs, parsed);
  if (chart.id === id && chart.view) {  // drawn already: the controls may have moved since (dimmed or not)
    const shown = shownAs || parsed?.header.view || {};
    if (parsed) drawTune(root, shown.controls || [], standalone ? null : chart.send, shown.scale > 1);
    if (root.dataset.ready === id) {
      syncControls();
      // the same partial record again (its inputs came back before the rest was made): ask for the rest again
      if (parsed && parsed.header.partial && chart.send) chart.send("more", id);
    }
    return;
  }
  chart.id = id;
  let model, scene, kind;
  try {
    scene = decode(bytes);
    if (shownAs) scene.header.view = shownAs;  // a kept record drawn again: shown as the page shows its charts now
    kind = KINDS[scene.header.kind];
    if (!kind) throw new Error(`this renderer draws no ${scene.header.kind} scene`);
  } catch (e) { fail(root, e.message); return; }
  const {controls = [], scale} = scene.header.view;
  drawTune(root, controls, standalone ? null : chart.send, scale > 1);  // (before the run is chosen)
  try { model = kind.model(scene, chart.view); } catch (e) { fail(root, e.message); return; }
  // a new tab's first chart: sketched while plotly.js is fetched and evaluated (sketch.js), then drawn with it
  // (and a newer record that comes while the sketch waits for plotly.js: sketched too, never left under the old one)
  let sketched = null;
  const shown = chart.view;
  const sketchable = kind.sketch && !(kind.viewFor ? kind.viewFor(scene) : kind.View).unsketched;
  if (!window.Plotly && sketchable && !standalone && !document.hidden && (!shown || shown.Plotly === SKETCH)) {
    try { sketched = await drawScene(root, id, scene, kind, model, SKETCH, stripLater); } catch (e) {
      console.warn(`the chart's sketch: ${e.message}`);  // (plotly.js draws it: nothing is said)
      chart.view = shown;
    }
    if (chart.id !== id) return;  // a newer scene arrived meanwhile
    if (sketched) {  // (it follows the page's controls and the page's size, and shows its formulas, as the chart drawn
      root.dataset.sketched = id;  // with plotly.js does: a row of columns that stacks once the charts are in widens it)
      watchSize(root);
      lessonSoon(root);
      syncControls();
    }
    await painted();
  }
  let Plotly;
  try { Plotly = await loadPlotly(); } catch (e) { fail(root, e.message); return; }
  if (chart.id !== id) return;  // a newer scene arrived meanwhile
  unsketch(root);  // (plotly.js draws on fresh elements: the sketch's go)
  if (sketched) {  // (the run a control chose meanwhile: τ moved in the sketch)
    try { model = kind.model(scene, chart.view); } catch (e) { fail(root, e.message); return; }
  }
  const pace = sketched && sketched.timer ? sketched.pace : null;  // (played in the sketch: plays on)
  let view;
  try { view = await drawScene(root, id, scene, kind, model, Plotly, stripLater); } catch (e) { fail(root, e.message); return; }
  if (!view) return;
  if (pace && view.play && view.i < view.m.nStops - 1) view.play(...pace);
  root.dataset.ready = id;
  if (chart.scaleWas !== undefined && view.k !== undefined && chart.scaleWas !== view.k) inView(root);
  // (presentation mode: a chart drawn for the first time with its top above what the page shows is scrolled to: a tab
  // opened below the chart puts it at the page's top while the page stays scrolled at the tabs, 900 px under it)
  else if (!chart.shown && view.k > 1 && root.getBoundingClientRect().top < 0) inView(root);
  chart.shown = true;
  chart.scaleWas = undefined;
  watchSize(root);
  keep(root, bytes, scene.header);
  if (scene.header.partial && chart.send) askMore(root, id);  // the page then sends every τ's run
  else askAhead(root, id);
  lessonSoon(root);
  syncControls();
  return view;
}

// the lesson's formulas once KaTeX is in (loaded once; the panel says so where it cannot be)
function lessonSoon(root) {
  if (KATEX) return;
  const show = () => { const v = stateOf(root).view; if (v) showLesson(v, v.step); };
  loadKatex().then(show, show);
}

// a scene's view made and drawn in ``root`` with ``Plotly`` (plotly.js, or the sketch), or null where a newer record came
// meanwhile; a view that cannot be made or drawn throws
async function drawScene(root, id, scene, kind, model, Plotly, stripLater) {
  const chart = stateOf(root);
  let old = chart.view;
  if (old) old.pause();
  root.classList.remove("dbls-failed", "dbls-waiting");
  root.removeAttribute("aria-busy");
  const err = root.querySelector(".dbls-error");
  if (err) err.remove();
  const shell = kind.shellFor ? kind.shellFor(scene) : kind.shell;  // (the Loss page's has a panel per loss)
  if (chart.kind !== scene.header.kind || chart.shell !== shell || !root.querySelector(".dbls-plot")) {
    root.innerHTML = shell;
    chart.kind = scene.header.kind;
    chart.shell = shell;
    if (old && old.m.h.kind !== scene.header.kind) old = null;
    wire(root);
  }
  lessonFolds(root);
  const view = new (kind.viewFor ? kind.viewFor(scene) : kind.View)(root, model, Plotly, scene);
  const start = model.h.view.start ?? null;
  // a link's step (once); on a new run of the same points (τ moved…), the step the last run stood at; on new points
  // (another dataset, a point clicked in, Undo), the view's start, else step 0 (the Loss surface: the b it opens at)
  // (a chart drawn anew in another element of the page: where the old one stood, once, for a scene of its kind)
  const stood = chart.stood && chart.stood.kind === scene.header.kind ? chart.stood.step : null;
  chart.stood = null;
  const at = start !== null && start !== chart.start ? start : (old ? (samePoints(old.m, model) ? old.step : start ?? 0) : stood ?? 0);
  chart.start = start;
  chart.view = view;
  // a new run over a chart of the same points (a new B or variant from the server, as a kept one from the browser):
  // the data panel, the words and the controls first, the strip's curves a frame later (PerceptronView.mount)
  await view.mount(at, old, {stripLater: stripLater || samePoints(old && old.m, model), stood});
  return chart.id === id ? view : null;  // (a newer record arrived meanwhile: it says when it is ready)
}

function wire(root) {
  const chart = stateOf(root);
  const v = () => chart.view;
  if (!chart.workHooked) {  // (the variants made ahead wait while the chart is worked: askAhead)
    chart.workHooked = true;
    for (const ev of ["pointerdown", "keydown", "input", "wheel"])
      root.addEventListener(ev, () => { chart.worked = performance.now(); }, {capture: true, passive: true});
  }
  const controls = root.querySelector(".dbls-controls");  // (a quiz has none: the page asks the next question)
  if (controls) controls.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-go]");
    if (!b || !v()) return;
    const go = b.dataset.go;
    if (go === "back") v().go(-1);
    else if (go === "next") v().go(1);
    else if (go === "play") v().play(SPEEDS.play);
    else if (go === "fast") v().play(...v().fastPace());
    else v().pause();
  });
  // a control reached by Tab is scrolled into view by the browser with the least scroll, which put the top of the
  // data panel above the window: where the panel's plot and the controls fit the window together, both are shown
  if (controls) controls.addEventListener("focusin", (ev) => {
    const plot = root.querySelector(".dbls-plot"), t = ev.target;
    if (!plot || !t.matches || !t.matches(":focus-visible")) return;
    const p = plot.getBoundingClientRect(), c = controls.getBoundingClientRect(), H = window.innerHeight;
    if (p.top >= 0 || c.bottom - p.top > H - 8) return;
    const by = Math.max(p.top, c.bottom - H + 8);  // (< 0: up by that much, the controls still in view)
    for (let e = root.parentElement; e; e = e.parentElement) {
      const o = getComputedStyle(e).overflowY;
      if ((o === "auto" || o === "scroll") && e.scrollHeight > e.clientHeight) { e.scrollTop += by; return; }
    }
    window.scrollBy(0, by);
  });
  if (controls) root.querySelector(".dbls-range").addEventListener("input", (ev) => {
    if (v()) { v().pause(); v().show(Number(ev.target.value)); }
  });
  const tau = root.querySelector(".dbls-tau select");
  if (tau) tau.addEventListener("change", (ev) => v() && v().setRun(Number(ev.target.value)));
  for (const d of root.querySelectorAll("details[data-part]")) d.addEventListener("toggle", () => {
    if (!stateOf(d).auto) (chart.open || (chart.open = {}))[d.dataset.part] = d.open;  // (the user's: kept)
    stateOf(d).auto = false;  // (folded or opened by the layout: loss.js placeWords)
    if (d.open && v()) showLesson(v(), v().step);
  });
  const legend = root.querySelector(".dbls-legend");
  legend.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-part]");
    if (b && v()) v().toggle(b.dataset.part);
  });
  // the legend is one Tab stop (a roving tabindex: Stepping.legendHTML); ← → ↑ ↓ Home End move along its entries
  // (not the chart's step: the page's keys see the key taken)
  legend.addEventListener("keydown", (ev) => {
    const all = [...legend.querySelectorAll("button[data-part]")], j = all.indexOf(ev.target.closest("button[data-part]"));
    const to = {ArrowRight: j + 1, ArrowDown: j + 1, ArrowLeft: j - 1, ArrowUp: j - 1, Home: 0, End: all.length - 1}[ev.key];
    if (j < 0 || to === undefined || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    const k = Math.max(0, Math.min(all.length - 1, to));
    all.forEach((b, i) => { b.tabIndex = i === k ? 0 : -1; });
    chart.legendAt = k;
    all[k].focus();
  });
  legend.addEventListener("focusin", (ev) => {
    const all = [...legend.querySelectorAll("button[data-part]")], j = all.indexOf(ev.target.closest("button[data-part]"));
    if (j >= 0) chart.legendAt = j;
  });
}

// the chart sized again when it or the page around it changes size: what stands above it may change height after it is
// drawn (a spinner or a message of the last run going, a font loading), and a presentation-mode chart is sized to the
// window below its top. Set on each record drawn (once a root); let go once the root has left the page
let windowWatched = false;
function watchSize(root) {
  const chart = stateOf(root);
  if (!window.ResizeObserver || chart.resize) return;
  const obs = chart.resize = new ResizeObserver(() => {
    if (!root.isConnected) { obs.disconnect(); chart.resize = null; return; }
    const v = chart.view;
    if (root.offsetWidth && v) v.resize();  // (hidden, in a tab not shown: nothing to size to)
  });
  obs.observe(root);
  const page = root.closest("[data-testid=stMainBlockContainer]");
  if (page) obs.observe(page);
  if (!windowWatched) {  // the window's height alone (a projector's full screen): no element changes size
    windowWatched = true;
    window.addEventListener("resize", () => {
      for (const r of document.querySelectorAll(".dbls")) if (stateOf(r).resize && r.offsetWidth && stateOf(r).view) stateOf(r).view.resize();
    });
  }
}

// the chart each keyed element of the page last drew, by the element's Streamlit key (its st-key-… class). A page that
// draws its chart in a new element (presentation mode turned on or off moves it) opens it where the old one stood:
// the same step, the records kept (the variants drawn) and the lesson's folds; the old one, about to go, is paused
const DRAWN = new Map();

function takeOver(root) {
  const chart = stateOf(root);
  const host = root.closest("[class*='st-key-']");
  const name = host && [...host.classList].find((c) => c.startsWith("st-key-"));
  if (!name) return;
  const before = DRAWN.get(name);
  DRAWN.set(name, root);
  if (!before || before === root || chart.view || !stateOf(before).view) return;
  stateOf(before).view.pause();
  // (the scale it was drawn at: presentation mode turned draws the chart anew in the other, a page left and come back
  // to in the same, mountScene)
  chart.scaleWas = stateOf(before).view.k;
  chart.stood = {step: stateOf(before).view.step, kind: stateOf(before).kind};
  chart.start = stateOf(before).start;
  chart.memo = stateOf(before).memo;
  chart.open = stateOf(before).open;
  tuneTakenOver(before);
}

// tests and the curious: a ``dbl-state`` event dispatched on a chart's root, or (bubbling) on an element in it, is
// given that element's state (state.js) as ``detail.state``
function listen(root) {
  const chart = stateOf(root);
  if (chart.listening) return;
  chart.listening = true;
  root.addEventListener("dbl-state", (ev) => { if (ev.detail) ev.detail.state = stateOf(ev.target); });
}

// Streamlit usually opens a page chosen in the sidebar at its top, but now and then (the old page's elements still
// standing as the new one's arrive) keeps the old page's scroll: the first chart mounted after the address's path
// changed (from a page with a chart or without: the browser's navigation events say so where it has them) puts the
// page at its top
let pathShown = location.pathname, cameTo = false;
if (window.navigation) {
  window.navigation.addEventListener("currententrychange", () => {
    if (location.pathname !== pathShown) { pathShown = location.pathname; cameTo = true; }
  });
}

export default function (component) {
  const {data, parentElement} = component;
  if (data === null || data === undefined) {  // mounted early, before the page has its scene (its html fetches plotly.js,
    const shell = parentElement.querySelector(".dbls");  // which the chart evaluates, after its sketch: sketch.js)
    if (shell) shell.remove();  // no chart here
    return;
  }
  const root = parentElement.querySelector(".dbls") || parentElement;
  if (cameTo || pathShown !== location.pathname) { toTop(root); newPage(); }
  pathShown = location.pathname;
  cameTo = false;
  takeOver(root);
  stateOf(root).send = component.setTriggerValue;  // what a chart tells the page (a weight clicked, a quiz's pick)
  mountScene(root, data);
}
