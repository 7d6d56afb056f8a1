"""Time and size of the perceptron GIF: 200 frames of a 200-point run, drawn with Pillow alone.

Prints the median wall time (and CPU time) of :func:`viz.gif.perceptron_gif` for a
non-separable 200-point run of 2,000 cyclic steps thinned to 200 frames, the GIF's size,
the split between drawing and encoding, and, as the reference measured in the same run,
the time the Perceptron page takes to build its scene record of the same whole run
(:func:`viz.scene.perceptron_scene`, every step, what the browser draws from). One more line
for 500 frames. Run by hand:

    python bench/bench_gif.py [--n 200] [--steps 2000] [--repeat 5]

Target: 200 frames in <= 5 s on a 2-core machine (aim: about 1 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402
from viz.gif import encode_gif, perceptron_gif, render_frames  # noqa: E402
from viz.scene import perceptron_scene  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    X, y = make_dataset("blobs", args.n, 0, noise=0.6)  # overlapping blobs: never converges, runs every step
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=args.steps)
    print(f"blobs σ=0.6, N = {args.n}, cyclic τ = 1: {traj.n_steps:,} steps, {traj.n_updates:,} updates, "
          f"converged = {traj.converged}; 720×540 px; median of {args.repeat} runs")
    print(f"{'frames':>6s} {'GIF s':>7s} {'CPU s':>7s} {'draw s':>7s} {'encode s':>8s} {'KB':>6s} "
          f"{'scene ms':>12s} {'ratio':>6s}")
    for frames in (200, 500):
        gif_ms = median_ms(lambda f=frames: perceptron_gif(traj, max_frames=f), args.repeat)
        # this process's CPU time: robust to other load on the machine
        cpu_ms = median_ms(lambda f=frames: perceptron_gif(traj, max_frames=f), args.repeat, clock=time.process_time)
        imgs, _ = render_frames(traj, max_frames=frames)
        draw_ms = median_ms(lambda f=frames: render_frames(traj, max_frames=f), args.repeat)
        enc_ms = median_ms(lambda im=imgs: encode_gif(im, 250), args.repeat)
        kb = len(perceptron_gif(traj, max_frames=frames)) / 1024
        # the reference: the page's own record of the same run (every step), as bytes
        fig_ms = median_ms(lambda: perceptron_scene([traj]).to_bytes(), args.repeat)
        print(f"{len(imgs):6d} {gif_ms / 1e3:7.2f} {cpu_ms / 1e3:7.2f} {draw_ms / 1e3:7.2f} {enc_ms / 1e3:8.2f} "
              f"{kb:6.0f} {fig_ms:12.1f} {gif_ms / fig_ms:5.1f}×")
    print("ratio = GIF time / the scene record's build time (the page's chart of the same run)")


if __name__ == "__main__":
    main()
