"""The zero set of a function sampled on a grid, as closed, oriented loops (marching squares).

Used to draw a kernel boundary f(x) = 0 and to shade the region f(x) > 0 with
one scatter trace: every loop goes round the region with f > 0 on its left
(outer borders anticlockwise, holes clockwise), and the grid is padded with a
ring of negative values so that every loop closes (the padded ring lies one
cell outside the grid, outside the view). A plot that fills the loops
"toself" as one path then shades exactly {f > 0}, holes included, under
either fill rule. ``zero_loops_many`` traces many fields on one grid in one
pass of array work (e.g. a loss's level bands at every frame), each exactly as
``zero_loops`` alone would. No Plotly and no Streamlit here.
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
    return zero_loops_many(F[None], xs, ys, tol)[0]


def zero_loops_many(Fs: np.ndarray, xs: np.ndarray, ys: np.ndarray, tol: float = 0.0) -> list[list[np.ndarray]]:
    """:func:`zero_loops` of many fields on one grid, traced together (the same loops, one pass of array work).

    Parameters
    ----------
    Fs : ndarray of shape (k, ny, nx)
        k fields, ``Fs[j, r, c]`` at (xs[c], ys[r]) (e.g. one surface minus each of its levels, at each frame).
    xs : ndarray of shape (nx,)
        Increasing, evenly spaced.
    ys : ndarray of shape (ny,)
        Increasing, evenly spaced.
    tol : float
        As in :func:`zero_loops`.

    Returns
    -------
    list of k lists of ndarray of shape (m, 2)
        ``out[j]`` is exactly ``zero_loops(Fs[j], xs, ys, tol)``: the same loops, vertices and order.
    """
    Fs = np.asarray(Fs, dtype=np.float64)
    K, ny, nx = Fs.shape
    dx, dy = (xs[-1] - xs[0]) / max(nx - 1, 1), (ys[-1] - ys[0]) / max(ny - 1, 1)
    out: list[list[np.ndarray]] = [[] for _ in range(K)]
    # pad with a tiny negative value: a crossing towards the ring lands on the ring itself
    Wd, Ht = nx + 2, ny + 2  # padded grid: node (j, r, c) is number j·Ht·Wd + r·Wd + c
    Fp = np.full((K, Ht, Wd), -1e-300)
    Fp[:, 1:-1, 1:-1] = Fs
    Xp = np.concatenate([[xs[0] - dx], xs, [xs[-1] + dx]])
    Yp = np.concatenate([[ys[0] - dy], ys, [ys[-1] + dy]])
    P = Fp > 0
    # the cells with both signs, each named by its bottom-left node: field by field, row by row
    mixed = np.zeros_like(P)
    mixed[:, :-1, :-1] = (P[:, :-1, :-1] != P[:, :-1, 1:]) | (P[:, :-1, 1:] != P[:, 1:, 1:]) | (P[:, 1:, 1:] != P[:, 1:, :-1])
    base = np.flatnonzero(mixed)
    if base.size == 0:
        return out
    # corners bl, br, tr, tl; edge k runs anticlockwise from corner k to corner k + 1
    Fv = Fp.ravel()[base[:, None] + np.array([0, 1, Wd + 1, Wd])]  # (cells, 4)
    corner = Fv > 0
    after = corner[:, [1, 2, 3, 0]]
    # along each edge, anticlockwise: "+ then −" starts a segment, "− then +" ends one
    start, end = corner & ~after, ~corner & after

    # pair each start edge with an end edge; saddles (two starts) by the centre value
    saddle = start.sum(axis=1) == 2
    one, sad = np.flatnonzero(~saddle), np.flatnonzero(saddle)
    centre = (Fv[sad, 0] + Fv[sad, 1] + Fv[sad, 2] + Fv[sad, 3]) > 0
    # a saddle's two start edges, in edge order; positives joined through the centre: the segment cuts off the
    # next negative corner, else the previous one
    ks = np.column_stack([start[sad].argmax(axis=1), 3 - start[sad, ::-1].argmax(axis=1)])
    es = np.where(centre[:, None], (ks + 1) % 4, (ks - 1) % 4)
    cell = np.concatenate([one, np.repeat(sad, 2)])
    fk = np.concatenate([start[one].argmax(axis=1), ks.ravel()])
    tk = np.concatenate([end[one].argmax(axis=1), es.ravel()])
    # segments numbered as one field alone numbers them: field by field, its plain cells, then its saddles'
    ff = base // (Ht * Wd)
    seq = np.argsort(2 * ff[cell] + (np.arange(cell.size) >= one.size), kind="stable")
    cell, fk, tk = cell[seq], fk[seq], tk[seq]
    # edge ids: the horizontal edge from node n is 2n, the vertical one 2n + 1 (unique over all fields)
    e_node, e_vert = np.array([0, 1, Wd, 0]), np.array([0, 1, 0, 1])
    a_id = 2 * (base[cell] + e_node[fk]) + e_vert[fk]
    b_id = 2 * (base[cell] + e_node[tk]) + e_vert[tk]
    # each segment starts at its start edge's crossing (it ends where the next one starts): F = 0 by linear
    # interpolation between the edge's two nodes
    n0 = base[cell] + np.array([0, 1, Wd + 1, Wd])[fk]
    n1 = base[cell] + np.array([1, Wd + 1, Wd, 0])[fk]
    f0, f1 = Fv[cell, fk], Fv[cell, (fk + 1) % 4]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(f0 != f1, f0 / (f0 - f1), 0.5)
    c0, c1, r0, r1 = n0 % Wd, n1 % Wd, n0 // Wd % Ht, n1 // Wd % Ht
    a_pt = np.column_stack([Xp[c0] + t * (Xp[c1] - Xp[c0]), Yp[r0] + t * (Yp[r1] - Yp[r0])])

    # join: each crossing ends one segment and starts exactly one other, so "next" is a permutation
    srt = np.argsort(a_id, kind="stable")
    nxt = srt[np.searchsorted(a_id[srt], b_id)]  # the segment that starts where segment j ends
    # loops never join two fields (their edge ids differ), so none is longer than a field's segments
    order, cuts = _cycle_order(nxt, int(np.bincount(ff[cell]).max()))
    lid = np.zeros(order.size, dtype=np.int64)
    lid[cuts] = 1
    lid = np.cumsum(lid)
    field = ff[cell[order[np.r_[0, cuts]]]]  # (loops,) the field of each loop, nondecreasing
    V, lid = _simplify_flat(a_pt[order], lid, field, K, dx * dy, (xs[0], xs[-1], ys[0], ys[-1]), tol)
    # close each loop: its first vertex again after its last (an emptied loop stays empty)
    lengths = np.bincount(lid, minlength=field.size)
    ends = np.cumsum(lengths)
    full = lengths > 0
    closed = V[np.insert(np.arange(V.shape[0]), ends[full], (ends - lengths)[full])]
    for j, lp in zip(field.tolist(), np.split(closed, (ends + np.cumsum(full))[:-1]), strict=True):
        out[j].append(lp)
    return out


def _cycle_order(nxt: np.ndarray, longest: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The cycles of a permutation, flat: every element cycle by cycle, and where each cycle after the first starts.

    Cycles come in the order of their smallest elements, each from its smallest element on, in the order the
    permutation visits them (pointer jumping: log₂ m rounds of array work, no Python loop per element).

    Parameters
    ----------
    nxt : ndarray of shape (m,)
        A permutation of 0..m−1 (element j is followed by nxt[j]).
    longest : int, optional
        No cycle is longer than this (fewer rounds); m by default.

    Returns
    -------
    order : ndarray of shape (m,)
    cuts : ndarray of shape (cycles − 1,)
        ``np.split(order, cuts)`` are the cycles.
    """
    m = nxt.size
    rounds = max(1, int(np.ceil(np.log2(max(min(m, longest or m), 2)))))  # 2^rounds steps cover any cycle
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
    return order, np.flatnonzero(np.diff(head[order])) + 1


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
    return np.split(*_cycle_order(nxt))


def _simplify_flat(P: np.ndarray, lid: np.ndarray, group: np.ndarray, n_groups: int, area: float, box,
                   tol: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Drop vertices inside the grid that lie on (or within ``tol`` of) the line through their neighbours.

    All rings at once, flat: ring ``i`` is ``P[lid == i]`` (open), rings in order. Vertices on the grid's
    border are kept, so a straight boundary keeps its true end points there (the padded ring beyond is not
    the function's). Repeated vertices go first, then exactly collinear ones in one pass; then up to six
    passes each drop every other vertex within tol/3 of its neighbours' chord (never two neighbours at once),
    so the curve moves by about ``tol`` at most. A ring keeps at least 4 vertices. The passes stop for a
    group of rings (one field's) at the first that drops none of its vertices, as if it were simplified alone.

    Parameters
    ----------
    P : ndarray of shape (m, 2)
    lid : ndarray of shape (m,)
        The ring of each vertex, nondecreasing.
    group : ndarray of shape (rings,)
        The group of each ring.
    n_groups : int
    area : float
        A grid cell's area (the scale of "exactly in line").
    box : (x0, x1, y0, y1)
        The grid's border.
    tol : float

    Returns
    -------
    P : ndarray of shape (m', 2)
    lid : ndarray of shape (m',)
    """
    n_rings = group.size

    def walk(lid):  # each vertex's ring length, position in its ring, and its ring neighbours (cyclic)
        lengths = np.bincount(lid, minlength=n_rings)
        idx = np.arange(lid.size)
        pos = idx - (np.cumsum(lengths) - lengths)[lid]
        ln = lengths[lid]
        return lengths, pos, ln, np.where(pos == 0, idx + ln - 1, idx - 1), np.where(pos == ln - 1, idx - ln + 1, idx + 1)

    x, y = P[:, 0], P[:, 1]
    lengths, pos, ln, prev, nxt = walk(lid)
    # first, repeated vertices (crossings at a grid node where F = 0 land on one point) go
    keep = (x != x[prev]) | (y != y[prev]) | (ln < 2)
    if not keep.all():
        x, y, lid = x[keep], y[keep], lid[keep]
        lengths, pos, ln, prev, nxt = walk(lid)
    span = box[1] - box[0] + box[3] - box[2]
    edge = 1e-9 * span
    border = ((np.abs(x - box[0]) < edge) | (np.abs(x - box[1]) < edge)
              | (np.abs(y - box[2]) < edge) | (np.abs(y - box[3]) < edge))
    active = np.ones(n_groups, dtype=bool)  # groups still being simplified
    for k in range(7 if tol > 0 else 1):
        cand = ~border & (ln > 4)
        if k:  # every other vertex, so no two neighbours go together, in groups still being simplified
            cand &= (pos % 2 == k % 2) & ((ln % 2 == 0) | (pos < ln - 1)) & active[group[lid]]
        i = np.flatnonzero(cand)
        xi, yi, xp, yp, xn, yn = x[i], y[i], x[prev[i]], y[prev[i]], x[nxt[i]], y[nxt[i]]
        cx, cy = xn - xp, yn - yp
        cross = np.abs((xi - xp) * cy - (yi - yp) * cx)  # |(p − prev) × (next − prev)|: distance × chord
        # only a vertex that lies between its neighbours may go (never the tip of a spike)
        between = (xi - xp) * (xn - xi) + (yi - yp) * (yn - yi) > 0
        if k == 0:  # exactly in line: all at once (the line stays the same line)
            i = i[(cross <= 1e-9 * area) & between]
        else:  # within tol/3 of the chord; a group that drops nothing in a pass is done
            i = i[(cross <= (tol / 3) * np.hypot(cx, cy)) & between]
            active &= np.bincount(group[lid[i]], minlength=n_groups) > 0
            if not active.any():
                break
        if not i.size:
            continue
        # a ring never falls below 4 vertices
        left = lengths - np.bincount(lid[i], minlength=n_rings)
        keep = np.ones(x.size, dtype=bool)
        keep[i[left[lid[i]] >= 4]] = False
        x, y, lid, border = x[keep], y[keep], lid[keep], border[keep]
        lengths, pos, ln, prev, nxt = walk(lid)
    return np.column_stack([x, y]), lid


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
