"""The Dual / Gram page's words and its scene record: the arithmetic and state line (the Python references the
browser renderer is tested against, tests/test_e2e_dual_scene.py), and a record that holds the core's run exactly."""

from __future__ import annotations

import numpy as np
import pytest
from oracles import describe_dual_step, dual_state
from state_text import named_points

from core.dual import decision_function, run_dual
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.dual import MAX_TERMS, cost_lines, dual_summary, dual_table, gram_display
from viz.scene import GRAM_LEVELS, DualScene, dual_lines_overflow, dual_scene, rule_mistakes


def state_line(traj, step: int) -> str:
    """The Python reference of the state line at a step."""
    k = int(traj.state_index(step))
    (alpha,), (b,) = traj.states([step])
    w = traj.weights([step])[0] if traj.problem.kernel == "linear" else None
    return dual_state(traj, k, alpha, float(b), np.flatnonzero(traj.mistakes([step])[0]), w)


@pytest.fixture(scope="module")
def textbook():
    X, y = make_dataset("textbook", 3, 0)
    return run_dual(X, y)


@pytest.fixture(scope="module")
def circles_rbf():
    X, y = make_dataset("circles", 80, 0)
    return run_dual(X, y, kernel="rbf", gamma=2.0, max_steps=400)


def test_textbook_update_written_out(textbook):
    traj = textbook
    primal = run_perceptron(traj.problem.X, traj.problem.y)
    text = describe_dual_step(traj, 15, primal=primal)
    assert "x₃ misclassified</b>: α₃ ← 4 + 1 = 5, b ← −2 + 1·(−1) = −3" in text
    # f(x₃) written term by term from G's row: α₁y₁G₁₃ + α₃y₃G₃₃ + b = 2·(+1)·6 + 4·(−1)·2 + (−2) = 2
    assert "2·(+1)·6 + 4·(−1)·2 + (−2) = 2" in text
    assert "y·f = −2 ≤ 0" in text and "Converged" in text
    assert "correct, no update" in describe_dual_step(traj, 2, primal=primal)


def test_linear_kernel_shows_the_primal_w_and_a_zero_difference(textbook):
    traj = textbook
    primal = run_perceptron(traj.problem.X, traj.problem.y)
    for step in range(traj.n_steps + 1):
        text = describe_dual_step(traj, step, primal=primal)
        w = traj.weights([step])[0]
        assert f"w = Σαᵢyᵢxᵢ = ({w[0]:g}, {w[1]:g})".replace("-", "−") in text
        assert "primal (τ = η): w = " in text and "‖Δw‖∞ = 0, |Δb| = 0" in text


def test_gram_heatmap_and_block_means():
    X, y = make_dataset("blobs", 30, 0)
    traj = run_dual(X, y, kernel="poly", degree=2, max_steps=50)
    scene = dual_scene(traj)
    lo, hi = scene.run["gram_lo"], scene.run["gram_hi"]
    Z = lo + (hi - lo) * scene.gram.astype(float) / GRAM_LEVELS  # what the heatmap draws: G in 256 levels
    G = traj.problem.G
    assert lo == G.min() and hi == G.max() and scene.run["gram_block"] == 1
    np.testing.assert_allclose(Z, G, atol=(hi - lo) / GRAM_LEVELS / 2 + 1e-12)
    big = dual_scene(run_dual(*make_dataset("blobs", 450, 0), kernel="rbf", max_steps=30))
    assert big.run["gram_block"] == 3 and big.gram.shape == (150, 150)
    G = np.arange(25.0).reshape(5, 5)
    Zb, k = gram_display(G, side=2)
    assert k == 3 and Zb.shape == (2, 2)
    assert Zb[0, 0] == G[:3, :3].mean() and Zb[1, 1] == G[3:, 3:].mean()
    assert gram_display(G, side=5)[1] == 1


def test_summary_cost_and_table(circles_rbf):
    traj = circles_rbf
    kind, text = dual_summary(traj, True)
    assert kind == "success" and "Converged" in text
    X, y = make_dataset("circles", 80, 0)
    lin = run_dual(X, y, max_steps=300)
    kind, text = dual_summary(lin, False)
    assert kind == "warning" and "not separable linearly" in text
    kind, text = dual_summary(lin, None)
    assert kind == "info"
    cost = cost_lines(traj)
    assert [c[0] for c in cost][:2] == ["Without G", "With G"]
    assert cost[1][1] == f"{80 * 81 // 2:,}"
    assert cost[2][0] in ("Saved by G", "G cost more, by") and not cost[2][1].startswith("-")
    table = dual_table(traj)
    assert table["step"] == list(range(traj.n_steps + 1))
    assert table["|M|"][-1] == 0 and table["updated"].count("✓") == traj.n_updates


def test_refuses_non_2d_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match="2-D"):
        dual_scene(run_dual(X, y, max_steps=10))


def test_negative_gram_entries_are_parenthesised_and_tiny_eta_keeps_its_alpha():
    X = np.array([[1.0, 0.0], [-1.0, 0.5], [0.5, 1.0]])
    y = np.array([1, 1, -1])
    traj = run_dual(X, y, eta=1e-6, max_steps=12)
    text = " ".join(describe_dual_step(traj, s) for s in range(1, len(traj)))
    assert "·(−1)" in text  # G₁₂ = −1 is written as a factor in parentheses
    scene = dual_scene(traj)
    assert scene.run["eta"] == 1e-6 and 0 < max(traj[-1].alpha) < 1e-5  # α = η·count: the renderer's bars
    assert -1.0 in scene.terms.tolist()  # the entry the arithmetic writes, as the core holds it


def check_dual_state(text: str, traj, step: int) -> None:
    """The state line at a step: the updates so far, α's support, b (and w = Σαᵢyᵢxᵢ for the linear kernel), and
    exactly the points with y·f(x) ≤ 0, f computed here from α and b."""
    from viz.common import num, vec

    p = traj.problem
    X, y = p.X, p.y
    A, B = traj.states(np.array([step]))
    alpha, b = A[0], float(B[0])
    f = decision_function(X, y, alpha, b, X, p.kernel, **dict(p.kernel_params))
    mis = np.flatnonzero(y * f <= 0)
    S = np.flatnonzero(alpha > 0)
    k = int(traj.state_index(np.array([step]))[0])
    head, *parts = text.split("; ")
    assert head.startswith("Before any update: " if k == 0 else f"After {k} update{'s' * (k != 1)}: ")
    if p.kernel == "linear":
        w = (alpha * y) @ X  # w = Σ αᵢyᵢxᵢ
        assert head.endswith(f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}")
        support = parts.pop(0)
    else:
        assert "w =" not in text and head.endswith(f", b = {num(b)}")
        support = head
    if S.size == 0:
        assert "α = 0" in support
    else:
        assert f"{S.size:,} of {p.n:,}" in support and named_points(support.split(": ")[-1]) == S[:4].tolist()
    (mpart,) = parts
    if mis.size == 0:
        assert mpart == f"no point misclassified (0 of {p.n:,})"
    elif mis.size <= 4:
        assert named_points(mpart) == mis.tolist() and mpart.endswith(f"({mis.size:,} of {p.n:,})")
    else:
        assert mpart.startswith(f"{mis.size:,} of {p.n:,} misclassified: ") and named_points(mpart) == mis[:4].tolist()


def test_state_line_names_the_mistakes_and_alpha_of_each_step(textbook, circles_rbf):
    for traj in (textbook, circles_rbf):
        steps = list(range(traj.n_steps + 1))
        for step in steps[:6] + steps[len(steps) // 2:len(steps) // 2 + 3] + steps[-3:]:
            check_dual_state(state_line(traj, step), traj, step)
    assert state_line(textbook, 3) == (
        "After 2 updates: w = Σαᵢyᵢxᵢ = (2, 2), b = 0; αᵢ > 0 for x₁, x₃ (2 of 3); misclassified: x₃ (1 of 3)")


def ties_and_duplicates(seed: int, n: int = 24):
    """Points on a small integer grid (exact ties y·f = 0 and repeated points), labels at random."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 2)).astype(float)
    X[n // 2:n // 2 + 3] = X[0]  # duplicates
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    return X, y


def replay_mistakes(scene: DualScene) -> np.ndarray:
    """M of every state from the record: the linear rule on the sent w and b with its exceptions, or the start's M
    and then each update's changes."""
    n, K = len(scene.y), len(scene.update_steps)
    M = np.zeros((K + 1, n), dtype=bool)
    cur = np.zeros(n, dtype=bool)
    for k in range(K + 1):
        if scene.run["m_rule"] == "linear":
            cur = rule_mistakes(scene.X, scene.y, scene.W[k:k + 1], scene.B[k:k + 1], "nonpositive")[0]
        cur[scene.m_idx[scene.m_ptr[k]:scene.m_ptr[k + 1]]] ^= True
        M[k] = cur
    return M


@pytest.mark.parametrize("seed", range(6))
def test_the_scene_holds_the_core_run_exactly(seed):
    """Random runs with ties and duplicates, every kernel: the record round-trips and holds the core's own M, f at the
    examined point, w, b and the Gram entries the arithmetic writes; nothing in it is approximated but the heatmap."""
    X, y = ties_and_duplicates(seed)
    kernel, params = [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0}), ("rbf", {"gamma": 0.7})][seed % 3]
    order = "random" if seed % 2 else "cyclic"
    traj = run_dual(X, y, kernel=kernel, variant=order, eta=0.5, max_steps=300, seed=seed, **params)
    primal = run_perceptron(X, y, variant=order, tau=0.5, max_steps=300, seed=seed) if kernel == "linear" else None
    scene = DualScene.from_bytes(dual_scene(traj, primal).to_bytes())
    K, S = traj.n_updates, traj.n_steps
    states = np.arange(K + 1)
    M = traj.problem.y * traj.eta * traj.scores(states) <= 0  # the core judges y·f ≤ 0 on f = η·g
    assert (replay_mistakes(scene) == M).all()
    assert scene.run["m_rule"] == ("linear" if kernel == "linear" else "changes")
    assert (scene.errors == M.sum(axis=1)).all()
    assert (scene.update_steps == traj.update_steps).all() and (scene.update_points == traj.update_points).all()
    assert (scene.B == traj.B).all() and scene.run["n_steps"] == S and scene.run["converged"] == traj.converged
    for s in range(1, S + 1):
        i = int(traj.examined(s)[0])
        assert scene.f_exam[s - 1] == traj.decisions([s - 1])[0, i]  # the value y·f ≤ 0 was judged by, bit for bit
    if kernel == "linear":
        for k, step in enumerate([0, *traj.update_steps.tolist()]):
            assert (scene.W[k] == traj.weights([step])[0]).all()
        assert (scene.p_W == primal.W).all() and (scene.p_steps == primal.update_steps).all()
    else:
        assert scene.W.shape == (0, 2) and scene.p_W.shape == (0, 2)
    # the Gram entries written term by term: Gⱼᵢ for the points with αⱼ > 0 before step s, while there are ≤ MAX_TERMS
    for s in range(1, len(scene.terms_ptr)):
        (alpha,), _ = traj.states([s - 1])
        support = np.flatnonzero(alpha)
        got = scene.terms[scene.terms_ptr[s - 1]:scene.terms_ptr[s]]
        if 0 < support.size <= MAX_TERMS:
            assert (got == traj.problem.G[support, int(traj.examined(s)[0])]).all()
        else:
            assert got.size == 0
    assert len(scene.terms_ptr) == S + 1 or all(
        (traj.states([s - 1])[0][0] > 0).sum() > MAX_TERMS for s in range(len(scene.terms_ptr), S + 1))


def test_a_run_that_never_settles_is_cut_to_the_record_budget_and_says_so():
    """A kernel run whose mistakes change at every update would make a record of tens of MB: the record holds the
    run's first steps, the same as the core's, and says from how many it was cut."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array([1, -1, 1, -1])  # two copies of a point with both labels: no kernel separates them
    traj = run_dual(X, y, kernel="rbf", max_steps=100_000)
    assert dual_scene(traj).run["cut_from"] == 100_000  # 5.8 MB whole: over the page's budget
    whole = dual_scene(traj, max_bytes=10**9)
    assert whole.run["cut_from"] is None and whole.run["n_steps"] == 100_000
    cut = DualScene.from_bytes(dual_scene(traj, max_bytes=20_000).to_bytes())
    S = cut.run["n_steps"]
    assert 1 <= S < 100_000 and cut.run["cut_from"] == 100_000 and not cut.run["converged"]
    assert len(cut.to_bytes()) <= 20_000
    K = int(traj.state_index(S))
    assert (cut.update_steps == traj.update_steps[:K]).all() and (cut.B == traj.B[:K + 1]).all()
    assert (replay_mistakes(cut) == replay_mistakes(whole)[:K + 1]).all() and (cut.f_exam == whole.f_exam[:S]).all()
    assert cut.terms_ptr.size <= S + 1 and cut.terms.size == cut.terms_ptr[-1]
    X, y = make_dataset("xor", 500, 0)
    big = dual_scene(run_dual(X, y, kernel="poly", degree=1, max_steps=100_000))  # 20 MB uncut
    assert big.run["cut_from"] == 100_000 and len(big.to_bytes()) <= 4_000_000


def test_a_kernel_record_for_every_eta_sends_beta_and_h_plus_beta():
    """η only rescales α, b and f: a kernel run made with η = 1 sends b/η = β and f/η = h + β, which the renderer
    multiplies by the η it shows, one product each, as the core forms b = η·β and f = η·(h + β)."""
    X, y = make_dataset("circles", 40, 1)
    one = run_dual(X, y, kernel="poly", degree=2, max_steps=120)
    scene = DualScene.from_bytes(dual_scene(one, etas=[0.1, 1.0, 3.0], follow="Step η").to_bytes())
    assert scene.run["etas"] == [0.1, 1.0, 3.0] and scene.follow == "Step η"
    for eta in (0.1, 3.0):
        run = run_dual(X, y, kernel="poly", degree=2, max_steps=120, eta=eta)
        assert (run.update_steps == one.update_steps).all()  # the same mistakes
        assert (eta * scene.B == run.B).all()  # bit for bit
        S = run.n_steps
        steps = np.arange(1, S + 1)
        i = (steps - 1) % len(y)
        assert (eta * scene.f_exam == run.decisions(steps - 1)[np.arange(S), i]).all()
    for bad in [dict(traj=run_dual(X, y, max_steps=20)),  # the linear kernel, without each η's run
                dict(traj=run_dual(X, y, kernel="rbf", eta=0.5, max_steps=20))]:  # not made with η = 1
        with pytest.raises(ValueError, match="a record for every η holds a run made with η = 1"):
            dual_scene(bad["traj"], etas=[1.0])
    assert DualScene.from_bytes(dual_scene(one).to_bytes()).run["etas"] is None


def test_a_linear_record_for_every_eta_holds_each_eta_s_w_and_primal_run():
    """The linear kernel's w = Σ αᵢyᵢxᵢ and its primal run (τ = η) are sums made anew for each η: the record holds
    them per η, M as the rule on that w plus the core's exceptions, and falls back (cut_from) when they do not fit."""
    X, y = make_dataset("xor", 50, 2)
    X = np.round(X * 4) / 4  # ties on the boundary
    kw = {"variant": "random", "seed": 4, "max_steps": 150}
    etas = [0.1, 1.0, 3.0]
    lines = [(run_dual(X, y, eta=e, **kw), run_perceptron(X, y, variant="random", tau=e, seed=4, max_steps=150))
             for e in etas]
    scene = DualScene.from_bytes(dual_scene(run_dual(X, y, eta=1.0, **kw), etas=etas, lines=lines).to_bytes())
    assert len(scene.lines) == 3 and scene.W.shape == (0, 2)
    K = len(scene.update_steps)
    for (traj, primal), line, eta in zip(lines, scene.lines, etas, strict=True):
        assert (eta * scene.B == traj.B).all()
        steps = traj.update_steps.tolist()
        assert all((line["W"][k] == traj.weights([s])[0]).all() for k, s in enumerate([0, *steps]))
        for k in range(K + 1):  # M: the rule on this η's w, then the exceptions, is the core's
            cur = rule_mistakes(scene.X, scene.y, line["W"][k:k + 1], traj.B[k:k + 1], "nonpositive")[0]
            cur[line["m_idx"][line["m_ptr"][k]:line["m_ptr"][k + 1]]] ^= True
            assert (cur == traj.mistakes([traj.update_steps[k - 1] if k else 0])[0]).all(), (eta, k)
        assert (line["p_W"] == primal.W).all() and (line["p_steps"] == primal.update_steps).all()
    assert scene.run["primal_steps_of"] == [pr.n_steps for _, pr in lines]
    with pytest.raises(ValueError, match="lines must hold the run of each η"):
        dual_scene(run_dual(X, y, eta=1.0, **kw), etas=[0.1, 2.0, 3.0], lines=lines)


@pytest.mark.parametrize("max_bytes", [3_000, 6_000, 12_000, 50_000])
def test_a_record_said_to_overflow_for_every_eta_is_cut_when_made(max_bytes):
    """dual_lines_overflow is a lower bound: where it says every η's record would be cut, dual_scene cuts it (the page
    then skips the other η's runs); a record it lets through may still be cut, never the other way round."""
    X, y = make_dataset("xor", 40, 1)
    kw = {"variant": "cyclic", "seed": 0, "max_steps": 400}
    etas = [0.5, 1.0, 2.0]
    one = run_dual(X, y, eta=1.0, **kw)
    lines = [(run_dual(X, y, eta=e, **kw), run_perceptron(X, y, variant="cyclic", tau=e, seed=0, max_steps=400))
             for e in etas]
    cut = dual_scene(one, etas=etas, lines=lines, max_bytes=max_bytes).run["cut_from"] is not None
    assert not dual_lines_overflow(one, len(etas), max_bytes) or cut
    assert dual_lines_overflow(one, len(etas), 3_000) and not dual_lines_overflow(one, len(etas), 10**9)
