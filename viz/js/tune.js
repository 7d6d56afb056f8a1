// The controls a chart draws itself (τ, η, C, λ, the variant, B: the record's view.controls, glue/controls.py), above
// its root. A move shows its run at once (every chart of the page that follows that control: syncControls); once the
// control rests its value goes to the page (the component's trigger named by the control's key), which puts it in
// the link and the exports and builds with it. The values are the page's, by label (follow.js: controlValue).

import {esc} from "./layout.js";
import {stateOf} from "./state.js";

// label -> the text the control shows (as the link spells it): what the charts of the page follow. A record names
// the values its page opened at (the same bytes while the user moves a control: the server then sends the record
// again as a reference to the one the browser holds); from then on, until another page is shown, the values are the
// user's, whichever chart of the page draws them (the quiz's, presentation mode's, the step-through's).
const VALUES = new Map();

// another page shown: its records' values are the page's from now on
export function newPage() { VALUES.clear(); }

export function tunedValue(label) {
  return VALUES.has(label) ? VALUES.get(label) : null;
}

// a chart whose own slider is the control (the SVM's C) says the value it told the page (null: none; the offline
// file's tests stand in for a control with it)
export function setTuned(label, text) {
  if (text === null) VALUES.delete(label);
  else VALUES.set(label, text);
}

let onMove = () => {};  // what a move does (follow.js: syncControls, given once by main.js)
export function tuneWith(move) { onMove = move; }

// the row of controls ``specs`` for the chart in ``root``, where the page has a server to tell (``send``; the offline
// file draws its own τ choice instead); ``big``: presentation mode, where the row stands under the chart (where the
// page's settings stand then: the chart keeps the window's height, a slide). A control opens at the record's value
// where the page has none yet (VALUES).
export function drawTune(root, specs, send, big = false) {
  const chart = stateOf(root);
  if (!send) return;
  for (const s of specs) if (!VALUES.has(s.label)) VALUES.set(s.label, s.value);
  const shown = specs.filter((s) => s.shown && (s.options ? s.options.length > 1 : true));
  let row = chart.tune;
  if (!shown.length) {
    if (row) row.remove();
    chart.tune = null;
    return;
  }
  const sig = JSON.stringify(shown.map((s) => [s.key, s.label, s.options, s.lo, s.hi, s.help]));
  if (!row || row.dataset.sig !== sig || !row.isConnected) {
    if (row) row.remove();
    row = chart.tune = document.createElement("div");
    row.className = "dbls-tune";
    row.dataset.sig = sig;
    row.innerHTML = shown.map(controlHTML).join("");
    wireTune(root, row, shown);
  }
  stateOf(row).specs = shown;  // (the latest record's: its disabled flags)
  if (big && row.previousElementSibling !== root) root.after(row);
  else if (!big && row.nextElementSibling !== root) root.before(row);
  row.classList.toggle("dbls-tune-big", big);
  showTune(row, shown);
}

function controlHTML(s, j) {
  const id = `dbls-tune-${j}-${Math.random().toString(36).slice(2, 8)}`, tip = s.help ? ` title="${esc(s.help)}"` : "";
  let input;
  if (s.options && s.list) {  // names: a list
    input = `<select id="${id}" aria-label="${esc(s.label)}">${s.options.map((o) => `<option>${esc(o)}</option>`).join("")}</select>`;
  } else if (s.options) {  // a grid of numbers: a slider over its steps
    input = `<input id="${id}" type="range" min="0" max="${s.options.length - 1}" step="1" aria-label="${esc(s.label)}" ` +
      `data-options="${esc(JSON.stringify(s.options))}">` +
      `<output for="${id}"></output>`;
  } else {
    input = `<input id="${id}" type="number" step="1" min="${esc(s.lo ?? "")}" max="${esc(s.hi ?? "")}" aria-label="${esc(s.label)}">`;
  }
  return `<label class="dbls-knob" data-key="${esc(s.key)}"${tip}><span>${esc(s.label)}</span>${input}</label>`;
}

// the controls show the page's values; one that another control turns off (B: only for the mini-batch variant) is not
// shown, one the page turns off (η for the decaying schedule) is greyed
function showTune(row, specs) {
  for (const s of specs) {
    const box = row.querySelector(`[data-key="${CSS.escape(s.key)}"]`), el = box && box.querySelector("select, input");
    if (!el) continue;
    const text = tunedValue(s.label) ?? s.value;
    if (el.type === "range") {
      const j = Math.max(0, s.options.indexOf(text));
      if (document.activeElement !== el || el.value !== String(j)) el.value = String(j);
      el.setAttribute("aria-valuetext", s.options[j]);
      box.querySelector("output").textContent = s.options[j];
    } else if (el.type === "number") {
      if (document.activeElement !== el) el.value = text;
    } else el.value = text;
    box.hidden = s.enabled_by ? tunedValue(s.enabled_by[0]) !== s.enabled_by[1] : false;
    el.disabled = Boolean(s.disabled);
    box.classList.toggle("dbls-knob-off", Boolean(s.disabled));
  }
}

const WHOLE_MAX = 1e9;  // (glue.controls.WHOLE_MAX: the largest whole number the page takes)
const REST_MS = 150;  // a slider at rest this long is told to the page (keys held down: one report, not one a key)

function wireTune(root, row, specs) {
  const timers = {};
  const send = (key, text) => {  // (the page's trigger as it is when sent; none once the row is gone)
    const to = stateOf(root).send;
    if (row.isConnected && to) to(key, text);
  };
  const tell = (s, text) => {
    clearTimeout(timers[s.key]);
    if (s.options && row.querySelector(`[data-key="${CSS.escape(s.key)}"] input[type=range]`))
      timers[s.key] = setTimeout(() => send(s.key, text), REST_MS);
    else send(s.key, text);  // (a list's pick, a number typed: at once)
  };
  const latest = () => stateOf(row).specs || specs;
  for (const s of specs) {
    const el = row.querySelector(`[data-key="${CSS.escape(s.key)}"] select, [data-key="${CSS.escape(s.key)}"] input`);
    const take = (text, report) => {
      VALUES.set(s.label, text);
      showTune(row, latest());
      onMove();
      if (report) tell(s, text);
    };
    if (el.type === "range") {
      el.addEventListener("input", () => take(s.options[Number(el.value)], false));
      el.addEventListener("change", () => take(s.options[Number(el.value)], true));
    } else if (el.type === "number") {
      el.addEventListener("change", () => {
        // a whole number as typed, within ±WHOLE_MAX (one outside lo..hi too: the page names it and runs the nearest;
        // glue/controls.py); nothing typed: kept
        const B = Math.max(-WHOLE_MAX, Math.min(WHOLE_MAX, Math.round(Number(el.value))));
        if (!Number.isFinite(B) || !String(el.value).trim()) { showTune(row, latest()); return; }
        el.value = String(B);
        take(String(B), true);
      });
    } else {
      el.addEventListener("change", () => take(el.value, true));
    }
  }
}

// a chart drawn in the place of ``before`` (main.js: takeOver): the old one's row goes with it
export function tuneTakenOver(before) {
  const was = stateOf(before);
  if (was.tune) { was.tune.remove(); was.tune = null; }
}
