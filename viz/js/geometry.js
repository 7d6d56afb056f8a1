// ---------------------------------------------------------------------------------------------------
// geometry (viz.common.boundary_segment; region_xy in tests/oracles.py), in the same operations
// ---------------------------------------------------------------------------------------------------

export function segment(box, w0, w1, b) {
  const norm = Math.max(Math.abs(w0), Math.abs(w1));
  if (norm === 0) return [[], []];
  const u = w0 / norm, v = w1 / norm, c = b / norm;
  const [x0, x1, y0, y1] = box, pts = [];
  if (Math.abs(v) > 1e-12) for (const x of [x0, x1]) {
    const y = -(u * x + c) / v;
    if (y >= y0 - 1e-12 && y <= y1 + 1e-12) pts.push([x, y]);
  }
  if (Math.abs(u) > 1e-12) for (const y of [y0, y1]) {
    const x = -(v * y + c) / u;
    if (x >= x0 - 1e-12 && x <= x1 + 1e-12) pts.push([x, y]);
  }
  if (pts.length < 2) return [[], []];
  pts.sort((p, q) => p[0] - q[0] || p[1] - q[1]);  // as viz.common.boundary_segment: the extreme two
  const p0 = pts[0], p1 = pts[pts.length - 1];
  return [[p0[0], p1[0]], [p0[1], p1[1]]];
}

// the part of a convex polygon (a list of [x, y]) where a0·x + a1·y + c ≥ 0: one Sutherland–Hodgman pass
// (viz.common.clip_polygon)
export function clipPoly(poly, a0, a1, c) {
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length], fp = a0 * p[0] + a1 * p[1] + c, fq = a0 * q[0] + a1 * q[1] + c;
    if (fp >= 0) out.push(p);
    if ((fp >= 0) !== (fq >= 0)) { const t = fp / (fp - fq); out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]); }
  }
  return out;
}
export const boxPoly = ([x0, x1, y0, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

// where sign·(w·x + b) ≥ 0 inside the box, as a closed polygon
export function region(box, w0, w1, b, sign) {
  if (w0 === 0 && w1 === 0 && sign * b <= 0) return [[], []];
  const out = clipPoly(boxPoly(box), sign * w0, sign * w1, sign * b);
  if (out.length < 3) return [[], []];
  out.push(out[0]);
  return [out.map((p) => p[0]), out.map((p) => p[1])];
}
