// Numbers and point sets in words, written as the Python side writes them (viz.common.num, vec, names…).

export const isText = (t) => typeof t === "string";

// ---------------------------------------------------------------------------------------------------
// numbers as the Python side writes them (viz.common.num, vec, names…): Python rounds ties to even
// ---------------------------------------------------------------------------------------------------

const SUBS = "₀₁₂₃₄₅₆₇₈₉";
export const sub = (i) => String(i).replace(/\d/g, (d) => SUBS[d]);

// the exact decimal digits of a finite |v| < 1e21: {digits, point} with value 0.digits × 10^point
export function exactDigits(a) {
  const [ip, fp = ""] = a.toFixed(100).split(".");
  let digits = (ip + fp).replace(/0+$/, "");
  let point = ip.length;
  const lead = digits.match(/^0*/)[0].length;
  digits = digits.slice(lead);
  point -= lead;
  return {digits: digits || "0", point: digits ? point : 1};
}

// keep the first `keep` digits, rounding half to even; returns {digits, carry}
export function roundDigits(digits, keep) {
  if (keep < 0) return {digits: "", carry: false};
  if (digits.length <= keep) return {digits: digits.padEnd(keep, "0"), carry: false};
  const rest = digits.slice(keep);
  let kept = digits.slice(0, keep).split("").map(Number);
  const tie = rest === "5";
  const up = rest[0] > "5" || (rest[0] === "5" && (!tie || (kept.length ? kept[kept.length - 1] % 2 === 1 : false)));
  let carry = false;
  if (up) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === 9) { kept[i] = 0; i--; }
    if (i >= 0) kept[i] += 1; else { kept.unshift(1); carry = true; }
  }
  return {digits: kept.join(""), carry};
}

// Python's f"{a:.{d}f}" for a ≥ 0
export function fixed(a, d) {
  if (a >= 1e21) return a.toFixed(d);
  const {digits, point} = exactDigits(a);
  const kept = point + d < 0 ? "" : roundDigits(digits, point + d).digits;  // the value is kept × 10^−d
  const full = kept.padStart(d + 1, "0");
  const ip = full.slice(0, full.length - d);
  return d ? `${ip}.${full.slice(full.length - d)}` : ip;
}

// Python's f"{a:.{p}g}" for a > 0
export function general(a, p) {
  if (a >= 1e21) return a.toPrecision(p);
  const {digits, point} = exactDigits(a);
  const r = roundDigits(digits, p);
  const e = point - 1 + (r.carry ? 1 : 0);
  const d = r.digits.slice(0, p);
  if (e >= -4 && e < p) {  // fixed notation, trailing zeros dropped
    const s = fixed(a, Math.max(p - 1 - e, 0));
    return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
  }
  let m = d[0] + (p > 1 ? "." + d.slice(1) : "");
  m = m.includes(".") ? m.replace(/0+$/, "").replace(/\.$/, "") : m;
  return `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

// viz.common.num: a number as a student writes it: 1.0 -> "1", -0.5 -> "−0.5", 1/3 -> "0.333"
export function num(v, digits = 3) {
  v = Number(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  if (Math.abs(v) < 1e-12) return "0";
  const a = Math.abs(v);
  let s = (a >= 1e5 || a < 10 ** -digits) ? general(a, digits) : fixed(a, digits).replace(/0+$/, "").replace(/\.$/, "");
  if (s === "" || /^0*\.?0*$/.test(s)) s = "0";
  return ((v < 0 && s !== "0" ? "-" : "") + s).replace(/-/g, "−");
}
export const vec = (v, digits = 3) => "(" + Array.from(v, (x) => num(x, digits)).join(", ") + ")";
// apart (tests/oracles.py): the fewest decimals (digits to most) that write each number of ``before`` apart from the same one
// of ``after`` where they differ
export function apart(before, after, digits = 3, most = 6) {
  for (let d = digits; d < most; d++) if (before.every((a, i) => a === after[i] || num(a, d) !== num(after[i], d))) return d;
  return most;
}
export const grouped = (k) => String(k).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
export function names(idx, limit = 6) {
  const s = idx.slice(0, limit).map((i) => `x${sub(i + 1)}`).join(", ");
  return s + (idx.length > limit ? `, … (${grouped(idx.length)} in all)` : "");
}
export const pointSet = (idx) => (idx.length ? "{" + names(idx) + "}" : "∅");
export const afterUpdates = (k) => (k === 0 ? "Before any update" : `After ${grouped(k)} update${k !== 1 ? "s" : ""}`);
export function mistakesText(mis, count, n, limit) {
  if (!count) return `no point misclassified (0 of ${grouped(n)})`;
  if (count <= limit) return `misclassified: ${names(mis)} (${grouped(count)} of ${grouped(n)})`;
  return `${grouped(count)} of ${grouped(n)} misclassified: ${names(mis.slice(0, limit))}, …`;
}
export const bnum = (v) => (v >= 100 ? grouped(fixed(v, 0)) : general(v, 3));
