// ---------------------------------------------------------------------------------------------------
// the Perceptron page's quiz: the same record as the step-through chart, shown as a question (view.quiz)
// ---------------------------------------------------------------------------------------------------
// view.quiz = {step: k, answered, pick}: the state after step k with the point(s) step k + 1 examines lit, and
// nothing that gives the answer away (no rings of M, no |M| strip, no words of step k + 1); a click on a point is
// sent to the page ("pick": its index), which grades it. Once answered, step k + 1 as the step-through chart
// draws it, with the points updated on ringed green and a wrong pick crossed red.
import {EXAM_MANY, INK, NONE, UPDATE, examHalo, overlaps, pen} from "./draw.js";
import {afterUpdates, grouped, num, pointSet, sub, vec} from "./format.js";
import {esc, f1, holdTallest, largestFitting, pointName, sideKey} from "./layout.js";
import {PerceptronView} from "./perceptron.js";
import {stateOf} from "./state.js";


const WRONG = "#CC0000";  // a wrong pick
const LABEL_MAX = 60;  // points named on the chart (x₁, x₂, …) up to this many

export class QuizView extends PerceptronView {
  static unsketched = true;  // (its question is answered by a click on a point, which waits for plotly.js: sketch.js)

  constructor(root, model, Plotly, scene) {
    super(root, model, Plotly, scene);
    const q = model.h.view.quiz;
    if (!q || !Number.isInteger(q.step) || q.step < 0 || q.step >= model.S)
      throw new Error(`the quiz asks about step ${q && q.step}, and this run has steps 1 to ${model.S}`);
    if (q.pick !== null && q.pick !== undefined && !(Number.isInteger(q.pick) && q.pick >= 0 && q.pick < model.N))
      throw new Error(`the quiz's pick is not a point of the ${model.N}`);
    this.q = q;
  }

  // presentation mode, the panel over the legend and the state line (1024×768): it keeps room under it for these
  // alone (the step-through's sizes also keep it for the controls and the strip, which the quiz has not: a short,
  // wide panel), and above it for the answer's words: the legend's three rows and four lines of words once answered
  // (five for a mini-batch, whose I and M ∩ I take a line each): an estimate, which fitQuiz puts right once they are
  // drawn (measured). The side layout (1280×720: the words and the legend beside the panel, longer than it once
  // answered) starts from the step-through's sizes, and gives up what the answer needs once drawn (fitQuiz)
  sizes() {
    const sz = super.sizes();
    if (this.k <= 1 || sz.side) return sz;  // (the normal page: the quiz stands under the settings, as the step-through)
    const fs = parseFloat(getComputedStyle(this.root).fontSize) || 16, line = 1.45 * fs;
    const lines = this.m.run.variant === "minibatch" ? 5 : 4;
    const room = this.room(Math.round(lines * 1.02 * line + 2 * line + 8 + 3 * 1.7 * fs + 14), 4);  // words (1.02 em), state line, legend
    return {...sz, mainH: Math.max(300, Math.min(room, this.m.h.view.height, sz.mainW))};
  }

  get step() { return this.q.answered ? this.q.step + 1 : this.q.step; }
  position() { return {prefix: "Question at step ", label: String(this.q.step + 1), step: String(this.q.step)}; }

  geometry() {
    const m = this.m, q = this.q;
    if (q.answered) {  // step k + 1 as the step-through chart draws it, and the verdict on the points
      const g = super.geometry(q.step + 1), at = (idx) => [idx.map((i) => m.X[2 * i]), idx.map((i) => m.X[2 * i + 1])];
      g.updatedOn = at(g.updated);
      g.wrong = q.pick !== null && q.pick !== undefined && !g.updated.includes(q.pick) ? at([q.pick]) : NONE;
      return g;
    }
    const g = super.geometry(q.step), ex = m.examined(q.step + 1);
    g.ring = NONE;  // M would give the answer away
    g.exam = m.run.variant === "batch" ? NONE : [ex.map((i) => m.X[2 * i]), ex.map((i) => m.X[2 * i + 1])];
    g.updatedOn = NONE; g.wrong = NONE;
    g.old = NONE; g.upd = NONE; g.wOld = NONE;  // (step k's own update is not the question, and its legend has no entry)
    return g;
  }

  // (``answered`` and ``wrong``: the question's, or those fitQuiz holds the legend's room for)
  legendItems(answered = this.q.answered, wrong = Boolean(this.g && this.g.wrong[0].length)) {
    const q = this.q, items = super.legendItems().filter(([id]) => answered || !["ring", "old", "upd"].includes(id));
    items[0] = ["exam", `examined at step ${q.step + 1}`, items[0][2]];
    if (this.m.run.variant === "batch") items.shift();  // (the batch examines every point: none is lit)
    if (answered) {
      items.push(["updatedOn", "updated on", `<circle cx="9" cy="9" r="7" fill="none" stroke="${UPDATE}" stroke-width="3"/>`]);
      if (wrong)
        items.push(["wrong", "your pick", `<path d="M3 3 L15 15 M15 3 L3 15" stroke="${WRONG}" stroke-width="3"/>`]);
    }
    return items;
  }

  legendButtons(...asked) { return this.legendItems(...asked).filter(([id]) => id !== "R" && id !== "gamma"); }  // the bound is not the question

  async mount(startStep, old) {
    const sz = this.sizes(), at = `${sideKey(sz.width)}@${this.topNow()}`;
    this.sized = {...sz};  // (what fitQuiz fits from)
    // (the size the last question fitted for this screen: the answer's record drawn at it, not large and then shrunk)
    const f = old && old.fitted;
    if (f && f.at === at && f.side === sz.side && f.top === (sz.side ? sz.mainW : sz.mainH))
      Object.assign(sz, sz.side ? {mainW: f.S, mainH: f.S} : {mainH: f.S});
    this.sz = sz;
    this.layoutClasses(sz);
    await this.drawData(old, sz.mainW, sz.mainH);  // (the same points at the same size: not drawn again)
    if (!stateOf(this.plot).quiz) {
      stateOf(this.plot).quiz = true;
      this.plot.on("plotly_click", (ev) => stateOf(this.root).view && stateOf(this.root).view.pick && stateOf(this.root).view.pick(ev));
    }
    this.attach();
    await this.fitQuiz();
  }

  // the answered question's words (a mini-batch's seven lines), its legend (the answer's entries) and its state line
  // took more room than the open question's, so the chart moved when answered: at 1024×768 the panel went 124–159 px
  // down under the words, and beside the panel (1280×720) the state line stood past the window. The words, the legend
  // and the state line keep the answered question's heights from the start (measured in place: answerHeld), so nothing
  // moves when the question is answered; in presentation mode the panel then takes the room they leave, the answer on
  // the first screen: under the words (1024×768) its height, by what the window lacks or has to spare; beside them
  // (1280×720) its side, the largest, by halving, with which the panel, the column and the state line fit (a narrower
  // panel widens the column, which wraps anew)
  async fitQuiz() {
    const sz = this.sz, top0 = this.sized || sz;
    for (const el of [this.text, this.legendEl, this.stateEl]) el.style.minHeight = "";
    if (!sz || stateOf(this.root).view !== this || !this.root.offsetHeight) return;
    const box = (el) => el.getBoundingClientRect(), held = this.answerHeld(), hold = () => {
      holdTallest(this.text, held.words);
      holdTallest(this.legendEl, [held.legend]);
      holdTallest(this.stateEl, held.states);
    };
    hold();
    if (this.k <= 1) return;  // (the normal page: the panel keeps its size)
    const at = `${sideKey(sz.width)}@${this.topNow()}`, fl = this.plot._fullLayout;
    if (!sz.side) {  // the words over the panel, the legend and the state line under it: the height that fits
      const cap = Math.min(this.m.h.view.height, top0.mainW), need = box(this.stateEl).bottom - box(this.root).top;
      const H = Math.max(300, Math.min(cap, Math.round(sz.mainH - (need - this.room(0, 4)))));
      this.fitted = {at, side: false, top: top0.mainH, S: H};
      if (Math.abs(H - sz.mainH) <= 2 && fl && fl.height === sz.mainH) return;
      sz.mainH = H;
      await this.Plotly.relayout(this.plot, {height: H});
      if (stateOf(this.root).view === this) this.drawStep();
      return;
    }
    const top = top0.mainW, rowTop = box(this.plot).top;
    if (box(this.text).left < box(this.plot).right - 1) return;  // (not beside it: a page without the style sheet)
    const gap = box(this.stateEl).top - Math.max(box(this.plot).bottom, box(this.legendEl).bottom);  // (the grid's)
    const room = this.room(0, 4) - (rowTop - box(this.root).top);  // (for the row and the state line)
    // the panel S px high, the column at its width then, and the state line under the taller (280: the step-through's
    // least side)
    let S = largestFitting(280, top, (side) => {
      this.root.style.setProperty("--dbls-s", `${side}px`);
      hold();
      return Math.max(side, box(this.legendEl).bottom - rowTop) + gap + this.stateEl.offsetHeight <= room;
    });
    if (S >= top - 2) S = top;
    Object.assign(sz, {mainW: S, mainH: S});
    this.fitted = {at, side: true, top, S};
    this.layoutClasses(sz);
    hold();
    if (fl && fl.width === S && fl.height === S) return;  // (drawn at that size already)
    await this.Plotly.relayout(this.plot, {width: S, height: S});
    if (stateOf(this.root).view === this) this.drawStep();
  }

  // what fitQuiz holds the column and the state line at: the answered question's words, legend (with a wrong pick's
  // entry: the longest) and state line (step k + 1, the verdict's parts), and the open question's state line, as HTML;
  // and the run's tallest words and state lines (Stepping.heldTexts: the run's own), so that the next question,
  // another step of the same run, keeps the same heights and the panel its size and place (at 1280×720 the legend
  // and the state line moved from one question to the next, and the panel's side with them)
  answerHeld() {
    const m = this.m, q = this.q, run = this.heldTexts();
    return {words: [m.describe(q.step + 1), ...run.words], legend: this.legendHTML(this.legendButtons(true, true)),
            states: [esc(m.stateLine(q.step + 1)), ...run.states, esc(this.questionLine())]};
  }

  // a point clicked while the question is open: its index to the page, which grades it. A click within the lit disc
  // (or halo) of a point the step examines means that point, even where another point lies nearer the pointer
  // (plotly.js's pick: points overlap at 40 XOR points)
  pick(ev) {
    const pt = ev && ev.points && ev.points[0], send = stateOf(this.root).send;
    if (this.q.answered || !pt || !Number.isInteger(pt.customdata)) return;
    this.picked = {i: this.litAt(ev.event) ?? pt.customdata - 1, at: Date.now()};
    if (send) send("pick", this.picked);
  }
  // the examined point whose lit disc holds the pointer (the nearest such), or null
  litAt(e) {
    const m = this.m, fl = this.plot._fullLayout;
    if (!e || !fl || !fl.xaxis || m.run.variant === "batch" || !this.hidden || this.hidden.has("exam")) return null;
    const ex = m.examined(this.q.step + 1), P = pen(fl), r = this.plot.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    let best = null, reach = ex.length > EXAM_MANY ? examHalo(this) : this.examSize / 2;
    for (const i of ex) {
      const d = Math.hypot(P.px(m.X[2 * i]) - x, P.py(m.X[2 * i + 1]) - y);
      if (d <= reach) { best = i; reach = d; }
    }
    return best;
  }

  show() {
    const m = this.m, q = this.q;
    this.g = this.geometry();
    this.drawLegend();
    this.drawStep();
    this.text.innerHTML = q.answered ? m.describe(q.step + 1) : "";
    const line = q.answered ? m.stateLine(q.step + 1) : this.questionLine();
    this.stateEl.textContent = line;
    this.root.dataset.step = String(this.step);
    if (this.live) this.live.textContent = line;
    if (this.tipAt !== undefined && this.tipAt !== null) this.drawTip();
  }

  // a hovered point's label: while the question is open its name and place alone (whether it is in M is the answer)
  tipFor(i) { return this.q.answered ? super.tipFor(i) : `${pointName(this.m, i)}: click to pick it`; }

  // the state line while the question is open: the state after step k, and what step k + 1 examines
  questionLine() {
    const m = this.m, q = this.q, k = m.stateOf(q.step);
    return `${afterUpdates(k)}: w = ${vec(m.w(k))}, b = ${num(m.B[k])}; step ${grouped(q.step + 1)} examines ` +
      (m.run.variant === "batch" ? `all ${grouped(m.N)} points` : pointSet(m.examined(q.step + 1)));
  }

  drawStep() {
    super.drawStep();
    const fl = this.plot._fullLayout, g = this.g, k = this.k, on = (id) => !this.hidden.has(id);
    if (!fl || !fl.xaxis || !fl.xaxis._length || !g) return;
    const P = pen(fl), r = this.examSize / 2 + 3 * k;
    let svg = "";
    if (on("updatedOn") && g.updatedOn[0].length)
      svg += `<path d="${P.circles(g.updatedOn, r)}" fill="none" stroke="${UPDATE}" stroke-width="${4 * k}"/>`;
    if (on("wrong") && g.wrong[0].length) {
      const x = P.px(g.wrong[0][0]), y = P.py(g.wrong[1][0]), d = r * 0.8;
      svg += `<path d="M${f1(x - d)},${f1(y - d)}L${f1(x + d)},${f1(y + d)}M${f1(x + d)},${f1(y - d)}L${f1(x - d)},${f1(y + d)}" stroke="${WRONG}" stroke-width="${4 * k}"/>`;
    }
    // the points' names (up to LABEL_MAX), white-haloed over the rings: at a corner of the marker, and of the ring or
    // disc where a point has one (updated on, the pick, lit for the question), so none crosses its own name. Each
    // takes the first place (a corner: above right, above left, below right, below left; then a side: right, left,
    // above, below; then those a line further out) where it lies over no name written before it (nor the note of a
    // boundary off the view) and no other point (the ringed points' names first), else over no name; where none is,
    // above right
    if (this.m.N <= LABEL_MAX) {
      const m = this.m, fs = 15 * k, near = 0.5 * this.size + 2 * k, far = 0.72 * r + 3 * k, half = 0.5 * this.size;
      const lit = this.q.answered || m.run.variant === "batch" ? [] : m.examined(this.q.step + 1);  // (the question's yellow disc)
      const ringed = new Set([...(this.q.answered && g.updated ? g.updated : []), ...(g.wrong[0].length ? [this.q.pick] : []),
                              ...(lit.length <= EXAM_MANY ? lit : [])]);
      const shown = [];
      for (let i = 0; i < m.N; i++) if (on(m.y[i] > 0 ? "pos" : "neg")) shown.push(i);
      const at = shown.map((i) => [P.px(m.X[2 * i]), P.py(m.X[2 * i + 1])]), boxes = this.noteBox ? [this.noteBox] : [];
      const xa = fl.xaxis, ya = fl.yaxis;  // (a name stays on the plot, off the axes' numbers)
      const inside = (b) => b[0] >= xa._offset && b[2] <= xa._offset + xa._length && b[1] >= ya._offset && b[3] <= ya._offset + ya._length;
      const clear = (b) => inside(b) && !boxes.some((o) => overlaps(b, o));  // of the names written
      const free = (b, j) => clear(b) && !at.some(([x, y], q) => q !== j && x + half > b[0] && x - half < b[2] && y + half > b[1] && y - half < b[3]);
      const order = shown.map((_, j) => j).sort((a, b) => Number(ringed.has(shown[b])) - Number(ringed.has(shown[a])));
      for (const j of order) {
        const i = shown[j], d = ringed.has(i) ? far : near, [x, y] = at[j], text = `x${sub(i + 1)}`, w = 0.58 * fs * text.length;
        const low = 0.95 * fs, around = (d) => {  // (the sides as far from the centre as a corner is)
          const e = 1.42 * d;
          return [[x + d, y - d], [x - d - w, y - d], [x + d, y + d + low], [x - d - w, y + d + low],
                  [x + e, y + 0.35 * fs], [x - e - w, y + 0.35 * fs], [x - w / 2, y - e], [x - w / 2, y + e + low]];
        };
        const corners = [...around(d), ...around(d + fs)];  // (then as much again further out, where points crowd)
        const boxOf = ([tx, ty]) => [tx, ty - low, tx + w, ty + 0.3 * fs];  // (the text's box as drawn, and a little)
        let c = corners.findIndex((q) => free(boxOf(q), j));
        if (c < 0) c = Math.max(0, corners.findIndex((q) => clear(boxOf(q))));
        const [tx, ty] = corners[c], box = boxOf([tx, ty]);
        boxes.push(box);
        if (c >= 8) {  // a line further out: a thin line from the point to its name, so that it is read as the point's
          const ex = Math.max(box[0], Math.min(x, box[2])), ey = Math.max(box[1], Math.min(y, box[3])), L = Math.hypot(ex - x, ey - y) || 1;
          svg += `<line class="dbls-name-line" x1="${f1(x + (ex - x) * half / L)}" y1="${f1(y + (ey - y) * half / L)}" x2="${f1(ex)}" y2="${f1(ey)}" ` +
            `stroke="${INK}" stroke-opacity="0.55" stroke-width="${k}"/>`;
        }
        svg += `<text class="dbls-name" x="${f1(tx)}" y="${f1(ty)}" font-size="${fs}" fill="${INK}" ` +
          `paint-order="stroke" stroke="white" stroke-width="${3 * k}" stroke-linejoin="round">${text}</text>`;
      }
    }
    this.over.insertAdjacentHTML("beforeend", svg);
  }

  drawn() { const arr = ([x, y]) => ({x: Array.from(x), y: Array.from(y)}); return {...super.drawn(), updatedOn: arr(this.g.updatedOn), wrong: arr(this.g.wrong)}; }

  // nothing moves: the page asks the next question
  resize() {
    const sz = this.resized();
    if (!sz) return;
    this.sized = {...sz};
    this.Plotly.relayout(this.plot, {width: sz.mainW, height: sz.mainH}).then(() => this.fitQuiz()).then(() => this.drawStep(), () => {});  // (hidden meanwhile)
  }
  fitStrip() {}
  sync() {}
  go() {}
  key() { return false; }
  play() {}
}

export const QUIZ_SHELL = `<div class="dbls-text dbls-quiz-text" aria-hidden="true"></div>
<div class="dbls-figure">
  <div class="dbls-stage"><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot dbls-quiz"></div><canvas class="dbls-canvas dbls-canvas-over dbls-rings" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
</div>
<div class="dbls-state"></div>
<div class="dbls-live" aria-live="polite" role="status"></div>`;
