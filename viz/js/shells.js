// The markup every view is drawn into: the stepping controls, the lesson's folds and the Perceptron's shell.

export const CONTROLS = `<div class="dbls-controls" role="group" aria-label="Step through the run">
  <button type="button" data-go="back" title="One step back (←)">◀ Back</button>
  <button type="button" data-go="next" title="One step on (→)">Next ▶</button>
  <button type="button" data-go="play" title="Play the run from here">Play ▶</button>
  <button type="button" data-go="fast" title="Play fast">Fast ▶▶</button>
  <button type="button" data-go="pause" title="Stop playing">Pause ❚❚</button>
  <input class="dbls-range" type="range" min="0" max="0" step="1" value="0" aria-label="Step">
  <span class="dbls-at"></span>
  <label class="dbls-tau" hidden>τ <select aria-label="Step size τ of the run shown"></select></label>
</div>`;

// the controls of a chart that moves along a grid of values (the SVM's C, the Loss surface's b)
export const sweepControls = (v) => `<div class="dbls-controls" role="group" aria-label="Move ${v} along its values">
  <button type="button" data-go="back" title="The next smaller ${v} (←)">◀ Smaller ${v}</button>
  <button type="button" data-go="next" title="The next larger ${v} (→)">Larger ${v} ▶</button>
  <button type="button" data-go="play" title="Sweep ${v} from here to the largest">Sweep ${v} ▶</button>
  <button type="button" data-go="pause" title="Stop sweeping">Pause ❚❚</button>
  <input class="dbls-range" type="range" min="0" max="0" step="1" value="0" aria-label="${v}">
  <span class="dbls-at"></span>
</div>`;
// the lesson under the chart (viz/js/lesson.js fills it): the formula with the step's numbers, and on the Perceptron
// page the proof of the mistake bound drawn; each folds away (kept folded for the chart's life in the page)
export const MATH = `<details class="dbls-math" data-part="math" hidden><summary>The formula, with this step's numbers</summary>
<div class="dbls-math-body"></div></details>`;
const PROOF = `<details class="dbls-proof" data-part="proof" hidden><summary>Why the perceptron stops: the mistake bound, proved</summary>
<div class="dbls-proof-text"></div><div class="dbls-stage"><div class="dbls-proof-plot"></div><svg class="dbls-proof-over dbls-strip-over" aria-hidden="true"></svg></div></details>`;
export const MARGINS = `<details class="dbls-margins" data-part="margins" hidden><summary>The losses against the margin z = y·(w·x + b): which points each counts</summary>
<div class="dbls-margins-text"></div><div class="dbls-margins-plot"></div></details>`;

export const SHELL = `<div class="dbls-text" aria-hidden="true"></div>
<div class="dbls-figure">
  <div class="dbls-stage"><svg class="dbls-under" aria-hidden="true"></svg><div class="dbls-plot"></div><canvas class="dbls-canvas dbls-canvas-over dbls-rings" aria-hidden="true"></canvas><svg class="dbls-over" aria-hidden="true"></svg><div class="dbls-tip" hidden></div></div>
  <div class="dbls-legend" role="group" aria-label="Show or hide parts of the chart"></div>
</div>
<div class="dbls-strip"><div class="dbls-strip-plot"></div><svg class="dbls-strip-over" aria-hidden="true"></svg></div>
<div class="dbls-state"></div>
${CONTROLS}
${MATH}${PROOF}${MARGINS}
<div class="dbls-live" aria-live="polite" role="status"></div>`;
