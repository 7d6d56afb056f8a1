// What the renderer keeps of an element (a chart's root, its plots, a formula's box) or of a record's arrays: one plain
// object each, held here (a WeakMap, gone with the element), not properties added to the element.
//
// A chart's root: ``view`` (the view drawn), ``id`` (the record it draws), ``send`` (what tells the page: the
// component's trigger), ``memo`` and ``ahead`` (the records kept: follow.js), and what its layout remembers; a plot's:
// ``view`` too. The page's other components (glue/chart_tools.py: the keys and the exports), tests and the curious read
// it with the ``dbl-state`` event (main.js: ``listen``).

const kept = new WeakMap();

export function stateOf(obj) {
  let state = kept.get(obj);
  if (!state) kept.set(obj, (state = {}));
  return state;
}
