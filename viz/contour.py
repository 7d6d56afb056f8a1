"""The zero set of a function sampled on a grid, as closed, oriented loops (marching squares).

Used to draw a kernel boundary f(x) = 0 and to shade the region f(x) > 0 with
one scatter trace: every loop goes round the region with f > 0 on its left
(outer borders anticlockwise, holes clockwise), and the grid is padded with a
ring of negative values so that every loop closes (the padded ring lies one
cell outside the grid, outside the view). A plot that fills the loops
"toself" as one path then shades exactly {f > 0}, holes included, under
either fill rule. No Plotly and no Streamlit here.
"""

from __future__ import annotations

import numpy as np

# edges of a cell in anticlockwise order: 0 bottom (bl→br), 1 right (br→tr), 2 top (tr→tl), 3 left (tl→bl)


def zero_loops(F: np.ndarray, xs: np.ndarray, ys: np.ndarray, tol: float = 0.0) -> list[np.ndarray]:
    """Closed loops around {F > 0}, with the positive side on the left.

    Parameters
    ----------
    F : ndarray of shape (ny, nx)
        Values at the grid nodes, ``F[r, c]`` at (xs[c], ys[r]).
    xs : ndarray of shape (nx,)
        Increasing, evenly spaced.
    ys : ndarray of shape (ny,)
        Increasing, evenly spaced.
    tol : float
        Vertices closer than about ``tol`` (in x, y units) to the line through
        their neighbours are dropped (vertices exactly in line always are; those on
        the grid's border never are).

    Returns
    -------
    list of ndarray of shape (m, 2)
        Each loop's vertices, first vertex repeated at the end. Crossings
        inside the grid are linearly interpolated; where the positive region
        reaches the grid's border the loop runs along the padded ring, one
        cell outside.
    """
    F = np.asarray(F, dtype=np.float64)
    ny, nx = F.shape
    dx, dy = (xs[-1] - xs[0]) / max(nx - 1, 1), (ys[-1] - ys[0]) / max(ny - 1, 1)
    # pad with a tiny negative value: a crossing towards the ring lands on the ring itself
    Fp = np.full((ny + 2, nx + 2), -1e-300)
    Fp[1:-1, 1:-1] = F
    Xp = np.concatenate([[xs[0] - dx], xs, [xs[-1] + dx]])
    Yp = np.concatenate([[ys[0] - dy], ys, [ys[-1] + dy]])
    P = Fp > 0
    R, C = ny + 1, nx + 1  # cells
    bl, br, tr, tl = P[:-1, :-1], P[:-1, 1:], P[1:, 1:], P[1:, :-1]
    case = bl.astype(np.int8) + 2 * br + 4 * tr + 8 * tl
    rr, cc = np.nonzero((case != 0) & (case != 15))
    if rr.size == 0:
        return []
    corner = [bl[rr, cc], br[rr, cc], tr[rr, cc], tl[rr, cc]]
    # along each edge, anticlockwise: "+ then −" starts a segment, "− then +" ends one
    start = np.stack([corner[k] & ~corner[(k + 1) % 4] for k in range(4)], axis=1)
    end = np.stack([~corner[k] & corner[(k + 1) % 4] for k in range(4)], axis=1)

    # edge ids: horizontal edge (r, c)-(r, c+1) -> r·C + c; vertical (r, c)-(r+1, c) -> H + r·(C+1) + c
    H = (R + 1) * C
    eid = np.stack([rr * C + cc, H + rr * (C + 1) + cc + 1, (rr + 1) * C + cc, H + rr * (C + 1) + cc], axis=1)
    # the crossing on each edge: F = 0 by linear interpolation between the edge's two nodes
    na = [(rr, cc), (rr, cc + 1), (rr + 1, cc + 1), (rr + 1, cc)]  # bl, br, tr, tl node indices
    pts = np.empty((rr.size, 4, 2))
    for k in range(4):
        (r0, c0), (r1, c1) = na[k], na[(k + 1) % 4]
        f0, f1 = Fp[r0, c0], Fp[r1, c1]
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(f0 != f1, f0 / (f0 - f1), 0.5)
        pts[:, k, 0] = Xp[c0] + t * (Xp[c1] - Xp[c0])
        pts[:, k, 1] = Yp[r0] + t * (Yp[r1] - Yp[r0])

    # pair each start edge with an end edge; saddles (two starts) by the centre value
    saddle = start.sum(axis=1) == 2
    centre = (Fp[rr, cc] + Fp[rr, cc + 1] + Fp[rr + 1, cc + 1] + Fp[rr + 1, cc]) > 0
    seg_from, seg_to, seg_cell = [], [], []
    one = ~saddle
    seg_from.append(start[one].argmax(axis=1))
    seg_to.append(end[one].argmax(axis=1))
    seg_cell.append(np.flatnonzero(one))
    sad = np.flatnonzero(saddle)
    for s in sad.tolist():
        ks = np.flatnonzero(start[s]).tolist()
        for k in ks:
            # positives joined through the centre: the segment cuts off the next negative corner
            e = (k + 1) % 4 if centre[s] else (k - 1) % 4
            seg_from.append(np.array([k]))
            seg_to.append(np.array([e]))
            seg_cell.append(np.array([s]))
    fk, tk, cell = np.concatenate(seg_from), np.concatenate(seg_to), np.concatenate(seg_cell)
    a_id, b_id = eid[cell, fk], eid[cell, tk]
    a_pt = pts[cell, fk]  # each segment starts at its crossing; it ends where the next one starts

    # join: each crossing ends one segment and starts exactly one other, so "next" is a permutation
    srt = np.argsort(a_id, kind="stable")
    nxt = srt[np.searchsorted(a_id[srt], b_id)]  # the segment that starts where segment j ends
    loops = [a_pt[c] for c in _cycles(nxt)]
    return _simplify(loops, dx * dy, (xs[0], xs[-1], ys[0], ys[-1]), tol)


def _cycles(nxt: np.ndarray) -> list[np.ndarray]:
    """The cycles of a permutation, each in order from its smallest element (pointer jumping, no Python loop per element).

    Parameters
    ----------
    nxt : ndarray of shape (m,)
        A permutation of 0..m−1 (element j is followed by nxt[j]).

    Returns
    -------
    list of ndarray
        The elements of each cycle in the order the permutation visits them.
    """
    m = nxt.size
    rounds = max(1, int(np.ceil(np.log2(max(m, 2)))))
    head, ptr = np.arange(m), nxt.copy()
    for _ in range(rounds):  # head ends as the smallest element of each cycle
        head = np.minimum(head, head[ptr])
        ptr = ptr[ptr]
    # cut each cycle before its head, then count the steps from each element to the cut
    succ = np.where(nxt == head[nxt], np.arange(m), nxt)
    dist = (succ != np.arange(m)).astype(np.int64)
    for _ in range(rounds):
        dist = dist + dist[succ]
        succ = succ[succ]
    order = np.lexsort((-dist, head))  # by cycle, then from the head (farthest from the cut) onwards
    cuts = np.flatnonzero(np.diff(head[order])) + 1
    return np.split(order, cuts)


def _simplify(rings: list[np.ndarray], area: float, box, tol: float = 0.0) -> list[np.ndarray]:
    """Drop vertices inside the grid that lie on (or within ``tol`` of) the line through their neighbours.

    All rings at once (open in, closed out). Vertices on the grid's border are
    kept, so a straight boundary keeps its true end points there (the padded
    ring beyond is not the function's). Exactly collinear vertices go in one
    pass; then up to six passes each drop every other vertex within tol/3 of
    its neighbours' chord (never two neighbours at once), so the curve moves by
    about ``tol`` at most. A ring keeps at least 4 vertices.
    """
    if not rings:
        return []
    # first, repeated vertices (crossings at a grid node where F = 0 land on one point) go
    rings = [r[np.any(r != np.roll(r, 1, axis=0), axis=1) | (len(r) < 2)] for r in rings]
    P = np.concatenate(rings)
    lid = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
    span = box[1] - box[0] + box[3] - box[2]
    edge = 1e-9 * span
    border = ((np.abs(P[:, 0] - box[0]) < edge) | (np.abs(P[:, 0] - box[1]) < edge)
              | (np.abs(P[:, 1] - box[2]) < edge) | (np.abs(P[:, 1] - box[3]) < edge))
    for k in range(7 if tol > 0 else 1):
        lengths = np.bincount(lid, minlength=len(rings))
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        idx = np.arange(P.shape[0])
        pos = idx - starts[lid]  # position within its ring
        ln = lengths[lid]
        prev = np.where(pos == 0, idx + ln - 1, idx - 1)
        nxt = np.where(pos == ln - 1, idx - ln + 1, idx + 1)
        c = P[nxt] - P[prev]
        cross = np.abs((P[:, 0] - P[prev, 0]) * c[:, 1] - (P[:, 1] - P[prev, 1]) * c[:, 0])
        # only a vertex that lies between its neighbours may go (never the tip of a spike)
        between = ((P - P[prev]) * (P[nxt] - P)).sum(axis=1) > 0
        if k == 0:  # exactly in line: all at once (the line stays the same line)
            drop = (cross <= 1e-9 * area) & between
        else:  # within tol/3 of the chord: every other vertex, so no two neighbours go together
            drop = ((cross <= (tol / 3) * np.hypot(c[:, 0], c[:, 1])) & between & (pos % 2 == k % 2)
                    & ((ln % 2 == 0) | (pos < ln - 1)))
        drop &= ~border & (ln > 4)
        if not drop.any():
            if k:
                break
            continue
        # a ring never falls below 4 vertices
        left = lengths - np.bincount(lid[drop], minlength=len(rings))
        drop &= left[lid] >= 4
        P, lid, border = P[~drop], lid[~drop], border[~drop]
    cuts = np.cumsum(np.bincount(lid, minlength=len(rings)))[:-1]  # P is still grouped by ring, in order
    return [np.vstack([r, r[:1]]) for r in np.split(P, cuts)]


def loops_xy(loops: list[np.ndarray], digits: int = 3) -> tuple[list, list]:
    """Loops as x and y lists for one scatter trace, loops separated by None, rounded."""
    xs: list = []
    ys: list = []
    for lp in loops:
        if xs:
            xs.append(None)
            ys.append(None)
        xs.extend(np.round(lp[:, 0], digits).tolist())
        ys.extend(np.round(lp[:, 1], digits).tolist())
    return xs, ys


def signed_area(loop: np.ndarray) -> float:
    """Shoelace area of a closed loop: positive when anticlockwise."""
    x, y = loop[:, 0], loop[:, 1]
    return 0.5 * float((x[:-1] * y[1:] - x[1:] * y[:-1]).sum())
