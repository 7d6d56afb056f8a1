// The layout arithmetic and words the views share: held heights (words that do not move the controls under them),
// a point's name, the window's room in presentation mode, the charts' font and the width of a text in it.

import {sub, vec} from "./format.js";
import {stateOf} from "./state.js";

export const FONT = "Inter, Segoe UI, Helvetica, Arial, sans-serif";

// the held heights (the words, the state line…): ``el`` keeps, as its least height, the tallest it takes showing what it
// shows now or any of ``htmls`` (each put in and measured in place, at its width now), ``floor`` px at least; what it
// shows is put back
export function holdTallest(el, htmls, floor = 0) {
  const now = el.innerHTML;
  el.style.minHeight = "";
  let tall = el.offsetHeight;
  for (const h of htmls) { el.innerHTML = h; tall = Math.max(tall, el.offsetHeight); }
  el.innerHTML = now;
  el.style.minHeight = `${Math.max(tall, floor)}px`;
}

// of a run of S steps, the ``text(s)`` (HTML) likely to stand tallest: those of the steps ``fixed``, and the ``n``
// longest distinct ones in plain characters of at most WORDS_SAMPLE steps spread evenly over 0..S (every step of a
// shorter run); what holdTallest then measures in place, a few layouts rather than one a step
const WORDS_SAMPLE = 48;  // (a Perceptron step's words take 60–90 µs to write at N = 2,000)

export function tallestTexts(S, text, fixed = [], n = 3) {
  const out = new Set(fixed.filter((s) => s >= 0 && s <= S).map((s) => text(s))), sample = [];
  const stride = Math.max(1, Math.ceil((S + 1) / WORDS_SAMPLE));
  for (let s = 0; s <= S; s += stride) sample.push(text(s));
  for (const t of longestOf(sample, n)) out.add(t);
  return [...out];
}

// the ``n`` longest distinct texts of ``list``: plain characters, a line break counted as a line's worth (a state line
// repeats from one step to the next; a verdict is a line of its own)
function longestOf(list, n) {
  const size = (t) => t.replace(/<br\s*\/?>/gi, " ".repeat(60)).replace(/<[^>]*>/g, "").length;
  return [...new Set(list)].map((t) => [size(t), t]).sort((a, b) => b[0] - a[0]).slice(0, n).map(([, t]) => t);
}

// the held texts of every run of a record (each τ's, each η's), then the longest few of them all, kept on the scene:
// what a view holds once known, so that moving τ (or η) to another run of the record leaves the words' height as it
// was. ``models``: a model of each run,
// made when its turn comes; ``texts(m)``: a run's held texts. Written now while they take under HELD_NOW_MS (a few
// points' runs: all of them), the rest in the browser's idle time a run at a time, and then ``done()`` is called;
// null until then
const HELD_ALL = 8, HELD_NOW_MS = 12;

export function heldForAll(scene, models, texts, done) {
  if (stateOf(scene).heldAll || stateOf(scene).heldAsked || models.length < 2) return stateOf(scene).heldAll || null;
  stateOf(scene).heldAsked = true;
  const idle = window.requestIdleCallback ? (f) => window.requestIdleCallback(f, {timeout: 400}) : (f) => setTimeout(f, 30);
  const words = [], states = [], t0 = performance.now();
  let j = 0;
  const one = () => {
    try { const t = texts(models[j]()); words.push(...t.words); states.push(...t.states); } catch (e) { /* (none) */ }
    j++;
  };
  const finish = () => (stateOf(scene).heldAll = {words: longestOf(words, HELD_ALL), states: longestOf(states, HELD_ALL)});
  while (j < models.length && performance.now() - t0 < HELD_NOW_MS) one();
  if (j >= models.length) return finish();
  const next = () => {
    if (j < models.length) { one(); idle(next); return; }
    finish();
    done();
  };
  idle(next);
  return null;
}

// the largest side in [lo, hi] for which ``fits(side)`` holds: hi where it does (or where hi < lo), else found by
// halving to within 4 px; lo where none does
export function largestFitting(lo, hi, fits) {
  if (hi <= lo || fits(hi)) return hi;
  while (hi - lo > 4) { const mid = Math.floor((lo + hi) / 2); if (fits(mid)) lo = mid; else hi = mid; }
  return lo;
}

// a point's name, place and label, as the step's words write them: "x₅ = (−0.627, 0.685), y = −1"
export const pointName = (m, i) => `x${sub(i + 1)} = ${vec([m.X[2 * i], m.X[2 * i + 1]])}, y = ${m.y[i] > 0 ? "+1" : "−1"}`;

// whether a hovered point is in the ringed set of the state shown, in words: M (y·(w·x + b) ≤ 0, or < 0 under the
// "negative" rule), or for a hinge run the points whose hinge is active (the margin under 1)
export function ringWords(inSet, hinge = false, negative = false) {
  if (hinge) return inSet ? "hinge active: y·(w·x + b) < 1" : "no hinge loss: y·(w·x + b) ≥ 1";
  return inSet ? `in M: y·(w·x + b) ${negative ? "<" : "≤"} 0` : `classified right: y·(w·x + b) ${negative ? "≥" : ">"} 0`;
}

// the label ``html`` shown by point i of X (interleaved x, y) on fl's plot: above right of it, below where the plot's
// top is too near, kept within the plot's width (Stepping.drawTip, CompareView.drawPanelTip, SvmView.hover)
export function placeTip(tip, fl, X, i, html) {
  const x = fl.xaxis._offset + fl.xaxis.l2p(X[2 * i]), y = fl.yaxis._offset + fl.yaxis.l2p(X[2 * i + 1]);
  tip.innerHTML = html;
  tip.hidden = false;
  // (no wider than the plot, wrapped where it would be: past the plot's edge it lay over the next panel)
  const most = Math.max(160, fl.width - 8);
  tip.style.maxWidth = `${most}px`;
  tip.style.whiteSpace = "";
  if (tip.scrollWidth > most) tip.style.whiteSpace = "normal";
  const h = tip.offsetHeight;
  tip.style.left = `${Math.max(0, Math.min(x + 12, fl.width - tip.offsetWidth))}px`;
  tip.style.top = `${y - h - 10 >= 0 ? y - h - 10 : y + 14}px`;
}

export const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
export const f1 = (v) => (Math.round(v * 10) / 10).toString();

// what a presentation-mode panel's cut is kept for (PerceptronView.fitSide): the chart's width and the window's height
export const sideKey = (width) => `${width}x${window.innerHeight}`;

// where an element's top is on the page scrolled to its top: Streamlit scrolls its main column in a box of its own,
// not the window, so a chart redrawn after the page was scrolled (a control below it moved) is measured from there
export function pageTop(el) {
  return scrollers(el).reduce((top, p) => top + p.scrollTop, el.getBoundingClientRect().top + window.scrollY);
}

// the elements that scroll around ``el`` (Streamlit's main column among them), innermost first
function scrollers(el) {
  const out = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === "auto" || o === "scroll") && p.scrollHeight > p.clientHeight) out.push(p);
  }
  return out;
}

// the least plot area (px, its width and height) a view gives a data panel or a surface on the normal page, where the
// page's width has it (Compare stacks its two panels, the Loss surface takes the figure's height for it)
export const MIN_AREA = 400;

export const FIT_PAD = 8, MIN_PLOT = 100;  // px: what a presentation-mode chart leaves under it; the least plot lossdata.js makes

// presentation mode: the height a figure may take below its top (the whole window for one further down than 45 % of
// it: it is scrolled to), less ``pad`` px (FigureView.fitted, LossDataView.sizes)
export function windowRoom(el, pad) {
  const top = pageTop(el), H = window.innerHeight;
  return (top <= 0.45 * H ? H - top : H) - pad;
}

// a chart drawn anew in another element of the page at another scale (presentation mode turned on or off moves it,
// and the page keeps its scroll, which then showed what now stands where the chart was): the page scrolled so that it
// is in view, to the page's top where the chart stands near it (presentation mode: the title over it), else to the
// chart's top
export function inView(root) {
  const before = root.previousElementSibling, first = before && before.classList.contains("dbls-tune") ? before : root;
  const r = first.getBoundingClientRect();  // (the chart's own controls, above it, in view with it: tune.js)
  if (r.top >= 0 && r.top < 0.5 * window.innerHeight) return;
  const top = pageTop(first);
  if (top > 0.45 * window.innerHeight) { first.scrollIntoView({block: "start"}); return; }
  toTop(root);
}

// the page around ``el`` scrolled to its top
export function toTop(el) {
  for (const p of scrollers(el)) p.scrollTop = 0;
  window.scrollTo(0, 0);
}

// the width in px of a text in the charts' font at ``size`` px (a <sub> part at 70 %, as plotly.js writes it)
let measurer = null;
export function textWidth(text, size) {
  measurer = measurer || document.createElement("canvas").getContext("2d");
  let w = 0;
  String(text).split(/(<sub>.*?<\/sub>)/).forEach((part) => {
    const sub = part.startsWith("<sub>");
    measurer.font = `${sub ? 0.7 * size : size}px ${FONT}`;
    w += measurer.measureText(part.replace(/<[^>]*>/g, "")).width;
  });
  return w;
}
