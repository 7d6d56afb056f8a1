// The chart and the page's live controls (τ, η, λ, C, the variant, B: drawn by the charts, tune.js): which run of a
// record they pick, and the records a chart keeps (the variants made ahead, a record's every τ).

import {decode} from "./record.js";
import {painted} from "./sketch.js";
import {stateOf} from "./state.js";
import {tunedValue} from "./tune.js";

// what the page's control labelled ``label`` shows (the text a chart's own control shows: tune.js), or null where the
// page has none (the offline file)
export function controlValue(label) {
  return label ? tunedValue(label) : null;
}

// the value (τ; the SGD tab's η) the page's own control shows (header.follow is its label), or null
export function followedValue(header) {
  const text = controlValue(header.follow);
  return text === null ? null : Number(text);
}

// the index of the value nearest `want` among `values` (the first if `want` is not a number)
export function nearest(values, want) {
  let best = 0;
  if (typeof want !== "number" || !Number.isFinite(want)) return best;
  for (let j = 0; j < values.length; j++) if (Math.abs(values[j] - want) < Math.abs(values[best] - want)) best = j;
  return best;
}

// which run to show: a quiz's own τ (the server grades that run); the τ of the page's control; else the τ shown
// before; else the view's τ; else the first
export function runFor(header, old, key = "tau") {
  const quiz = header.view.quiz ? header.view.tau : null;
  return nearest(header.runs.map((r) => r[key]), quiz ?? followedValue(header) ?? (old ? old.m.run[key] : null) ?? header.view[key]);
}

// ----- the variants drawn: a record whose header has a memo is kept (up to MEMO_KEEP, for its memo's key only), and
// drawn again when the page's variant control comes back to its variant (a mini-batch's: and its B control to its
// B), with no message to the server (the page's rerun then sends the same record, which is not drawn twice)
const MEMO_KEEP = 6;  // (the variants made ahead, and a few mini-batch B)

const keeps = (header) => Boolean(header.memo) && !header.view.quiz;  // (a quiz's record is the server's to change)
const slotFor = (variant, B) => (variant === "minibatch" ? `minibatch:${B}` : variant);
export const slotOf = (run) => slotFor(run.variant, run.batch_size);

export function keep(root, bytes, header) {
  const chart = stateOf(root);
  const memo = header.memo;
  if (!keeps(header) || header.partial || !header.runs || !header.runs.length) return;  // (a partial one: τ alone)
  if (!chart.memo || chart.memo.key !== memo.key) chart.memo = {key: memo.key, records: new Map()};
  const records = chart.memo.records, slot = slotOf(header.runs[0]);
  records.delete(slot);
  records.set(slot, bytes);  // the newest last
  while (records.size > MEMO_KEEP) records.delete(records.keys().next().value);
}

// the variant (and B) the page's controls show, as a kept record's slot; null where they cannot be read
export function wantedSlot(v) {
  const memo = v.m.h.memo, want = memo && memo.options[controlValue(memo.follow)];
  if (!want) return null;
  if (want !== "minibatch") return want;
  const B = boxBatch(v);  // (one outside 1..N runs as the nearest: app_pages/perceptron.py)
  return B === null ? null : slotFor(want, B);
}

// how a kept record is drawn (main.js's mountScene, given once by main.js: it imports this module, not this it)
let drawRecord = () => {};
export function drawWith(draw) { drawRecord = draw; }

// the page's variant control shows a variant this chart has drawn (for the same points and settings): draw it
function followVariant(root, v) {
  const memo = v.m.h.memo, kept = stateOf(root).memo;
  if (!keeps(v.m.h) || !kept || kept.key !== memo.key) return false;
  const want = wantedSlot(v);
  const bytes = want && want !== slotOf(v.m.run) ? kept.records.get(want) : null;
  if (!bytes) return false;
  drawRecord(root, bytes, {shownAs: v.m.h.view, stripLater: true});
  return true;
}

// every chart that follows a control of the page shows what that control reads (the Perceptron's τ and variant, the
// SVM's C, Compare's τ or B of each side, the Dual's η, the Loss surface's λ)
export function syncControls() {
  for (const root of document.querySelectorAll(".dbls")) {
    const v = stateOf(root).view;
    const drawn = root.dataset.ready === stateOf(root).id || root.dataset.sketched === stateOf(root).id;
    if (!v || !v.sync || !v.m.h.follow || !drawn) continue;  // none, or still mounting
    if (followVariant(root, v)) continue;
    v.sync();
    if (v.waits) {  // the controls show what this record does not hold: dimmed and busy until the server's arrives
      const waiting = v.waits();
      root.classList.toggle("dbls-waiting", waiting);
      root.setAttribute("aria-busy", String(waiting));
    }
  }
}

// a record's header and where its arrays start, or null where it is not a record (decode() then names what is wrong)
export function headerOf(bytes) {
  try {
    const h = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
    return {header: JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + h))), body: 8 + h};
  } catch (e) {
    return null;
  }
}

// a record's identity: its contents but the view, and the view it is shown with. A kept record drawn again with the
// page's view (followVariant) is then the same drawing as the page's own record of it, which is not drawn twice.
export function recordId(bytes, shownAs, parsed = headerOf(bytes)) {
  if (!parsed) return fingerprint(bytes);
  const header = {...parsed.header}, {controls, ...view} = shownAs || header.view || {};  // (the controls' values: tune.js)
  delete header.view;
  return `${fingerprint(bytes.subarray(parsed.body))}:${fingerprint(new TextEncoder().encode(JSON.stringify(header)))}:${JSON.stringify(view)}`;
}

// ----- the variants made ahead: once a record with a memo is drawn and the page is left alone for AHEAD_WAIT_MS, the
// chart asks the server for the other variants its memo names (``memo.ahead``; the server makes a mini-batch's at the
// B the page's box shows), saying which it keeps already; the server makes them in the background and, once they
// are made, answers with a bundle of them (viz.scene.bundle), which the chart keeps, drawing nothing new. It asks again
// while one is missing, each wait half as long again as the last, AHEAD_TRIES times at most (about 16 s; the last time
// the server sends those made so far).
const AHEAD_WAIT_MS = 800, AHEAD_TRIES = 6;

// the B of the page's box (in 1..N, as the page runs it), or null where it cannot be read (no box, or an empty one)
function boxBatch(v) {
  const text = controlValue(v.m.h.memo.batch), B = text === null || !String(text).trim() ? NaN : Number(text);
  return Number.isInteger(B) ? Math.min(Math.max(B, 1), v.m.N) : null;
}

// the slots made ahead of what ``v`` shows: its memo's ``ahead``, the mini-batch's at the box's B (none where unread)
function aheadSlots(v) {
  const B = boxBatch(v);
  return v.m.h.memo.ahead.flatMap((s) => (s !== "minibatch" ? [s] : B === null ? [] : [slotFor(s, B)]));
}

export function askAhead(root, id) {
  const chart = stateOf(root);
  const v = chart.view, h = v && v.m.h;
  if (!h || !keeps(h) || h.partial || !Array.isArray(h.memo.ahead) || !h.memo.ahead.length || !chart.send) return;
  const asked = chart.ahead || (chart.ahead = {key: null, tries: 0});
  if (asked.key !== h.memo.key) { asked.key = h.memo.key; asked.tries = 0; }
  clearTimeout(asked.timer);
  asked.timer = setTimeout(() => {
    const kept = chart.memo, now = chart.view;
    if (!root.isConnected || root.dataset.ready !== id || !now || now.m.h.memo?.key !== asked.key || asked.tries >= AHEAD_TRIES)
      return;  // (gone, another record, or asked enough)
    if (!kept || kept.key !== asked.key || aheadSlots(now).every((slot) => kept.records.has(slot))) return;
    // the chart is being worked (stepped, played): not now, so that no rerun lands in the middle of it
    if (now.timer || performance.now() - (chart.worked || 0) < AHEAD_WAIT_MS) { askAhead(root, id); return; }
    asked.tries++;
    chart.send("ahead", JSON.stringify({have: [...kept.records.keys()], last: asked.tries === AHEAD_TRIES,
                                        key: asked.key, shows: slotOf(now.m.run)}));
    askAhead(root, id);  // again, until every one is kept
  }, AHEAD_WAIT_MS * 1.5 ** asked.tries);
}

// a bundle of records made ahead: each kept (where it is of the memo's key the chart keeps), none drawn; one the
// page's controls show already is drawn now
export function keepAhead(root, bytes) {
  const chart = stateOf(root);
  const {arrays} = decode(bytes), kept = chart.memo;
  if (!chart.view || !kept) return;  // (nothing drawn here yet: the page's next record is)
  for (let j = 0; arrays[`r${j}`]; j++) {
    const record = arrays[`r${j}`], parsed = headerOf(record);
    if (parsed && keeps(parsed.header) && parsed.header.memo.key === kept.key) keep(root, record, parsed.header);
  }
  syncControls();
}

// a partial record drawn: the rest asked for once the chart, its strip too, is on screen (the server's build of every τ,
// which takes both cores here for about half a second, would otherwise hold up the frames that paint it), unless
// another record came meanwhile
export function askMore(root, id) {
  const chart = stateOf(root);
  painted().then(painted).then(() => {
    if (root.isConnected && chart.id === id && root.dataset.ready === id && chart.send) chart.send("more", id);
  });
}

// a partial record of a run this chart keeps in full (the server had forgotten it was made): the kept one
export function keptInFull(root, header) {
  const kept = stateOf(root).memo;
  if (!header.partial || !keeps(header) || !kept || kept.key !== header.memo.key || !header.runs || !header.runs.length)
    return null;
  return kept.records.get(slotOf(header.runs[0])) || null;
}

export function fingerprint(bytes) {  // FNV-1a over every byte: the same record is not drawn twice
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193); }
  return `${bytes.length}:${h >>> 0}`;
}

export function fail(root, message) {
  const chart = stateOf(root);
  chart.id = null;  // the next good record is drawn, even the one drawn before
  if (chart.view) chart.view.pause();
  if (chart.view && chart.view.dropPick) chart.view.dropPick();  // (a weight drawn ahead of its record)
  root.removeAttribute("aria-busy");
  const box = root.querySelector(".dbls-error") || root.insertBefore(document.createElement("div"), root.firstChild);
  box.className = "dbls-error";
  box.setAttribute("role", "alert");
  box.textContent = `This chart cannot be drawn: ${message}.`;
  root.classList.add("dbls-failed");
}
