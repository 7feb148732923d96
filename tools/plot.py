#!/usr/bin/env python3
"""pairfold plot: the training curves of a run, or a prediction's maps, to a PNG.

Usage: plot.py RUN_DIR_OR_LOG [--out FILE.png] [--smooth K] [--dpi D]
       plot.py PREDICTION.safetensors|.npz [--out FILE.png] [--dpi D]

Reads the run's JSON-lines log (RUN/train.jsonl, or a .jsonl file given directly)
and draws six panels against the step: training loss (and its distogram / MSA
parts), validation loss, validation contact precision (top L/5 long-range), learning
rate, gradient norm and step time. Steps logged twice (a resumed run) keep their
last line; non-finite values (logged as null) are left out. Default output:
RUN/curves.png. Exit status 1 with a message naming the file on bad input, 2 on
bad options.

A prediction (`pairfold predict`'s .safetensors, or its .distogram.npz) is drawn as
two maps: the contact probability P(d < 8 A) and the expected distance, with the
chain boundaries; default output: the file's name with .png."""
import argparse
import json
import math
import os
import sys

PANELS = [  # (title, [(field, label)], log scale)
    ("training loss", [("loss", "loss"), ("disto_loss", "distogram"), ("msa_loss", "masked MSA")], False),
    ("validation loss", [("val_loss", "val_loss")], False),
    ("validation contact precision (top L/5, |i-j| >= 24)", [("val_contact_p_l5", "P@L/5")], False),
    ("learning rate", [("lr", "lr")], False),
    ("gradient norm", [("grad_norm", "grad_norm")], True),
    ("step time (ms)", [("ms", "ms")], False),
]


def fail(msg, code=1):
    print(f"pairfold plot: error: {msg}", file=sys.stderr)
    sys.exit(code)


def pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is not installed (./setup.sh installs it; or pip install matplotlib)")
    return plt


def read_log(path):
    """{step: record}, the last line of each step winning (a resumed run rewrites its tail)."""
    rows = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f"{path}:{n}: not a JSON object ({e.msg})")
            if not isinstance(r, dict) or not isinstance(r.get("step"), int):
                fail(f"{path}:{n}: a log line needs an integer \"step\"")
            rows[r["step"]] = r
    if not rows:
        fail(f"{path}: no steps logged yet")
    return rows


def series(rows, field):
    xs, ys = [], []
    for step in sorted(rows):
        v = rows[step].get(field)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            xs.append(step)
            ys.append(float(v))
    return xs, ys


def smooth(ys, k):
    if k <= 1 or len(ys) < 2:
        return ys
    out, acc = [], 0.0
    for i, y in enumerate(ys):  # running mean over the last k points
        acc += y - (ys[i - k] if i >= k else 0.0)
        out.append(acc / min(i + 1, k))
    return out


def load_prediction(path):
    """(contact (N, N), expected distance (N, N) or None, chain_index (N))."""
    import numpy as np
    try:
        if path.endswith(".npz"):
            z = np.load(path)
            if "distogram" not in z.files:  # predict leaves it out of large predictions
                fail(f"{path}: no 'distogram' in this npz (left out above its size bound): plot the .safetensors file")
            p, edges = z["distogram"], z["bin_edges"]
            centres = np.concatenate([edges - (edges[1] - edges[0]) / 2, [edges[-1] + (edges[1] - edges[0]) / 2]])
            return z["contact_probs"], (p * centres).sum(-1), z["chain_index"]
        from safetensors import safe_open
        # only the three arrays drawn: distogram_probs (N, N, n_bins) is N^2 n_bins floats
        with safe_open(path, "numpy") as d:
            return d.get_tensor("contact_probability_8A"), d.get_tensor("expected_distance"), d.get_tensor("chain_index")
    except Exception as e:  # noqa: BLE001  (numpy, zipfile and safetensors raise their own kinds)
        fail(f"{path}: not a pairfold prediction ({type(e).__name__}: {e})")


def plot_prediction(path, out, dpi, plt):
    contact, dist, chain = load_prediction(path)
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.5))
    panels = ((contact, "contact probability P(d < 8 A)", "viridis", 0, 1), (dist, "expected distance (A)", "viridis_r", None, None))
    for ax, (img, title, cmap, lo, hi) in zip(axes, panels):
        im = ax.imshow(img, cmap=cmap, vmin=lo, vmax=hi, origin="upper", interpolation="nearest")
        for b in [i for i in range(1, len(chain)) if chain[i] != chain[i - 1]]:  # chain boundaries
            ax.axhline(b - 0.5, color="w", lw=0.8)
            ax.axvline(b - 0.5, color="w", lw=0.8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("residue (token)")
        fig.colorbar(im, ax=ax, shrink=0.8)
    fig.suptitle(f"{os.path.abspath(path)}: {len(chain)} tokens", fontsize=10)
    fig.tight_layout()
    save(fig, out, dpi)
    print(f"plot: {len(chain)} tokens -> {out}")


def save(fig, out, dpi):
    tmp = f"{out}.tmp.{os.getpid()}.png"
    try:
        fig.savefig(tmp, dpi=dpi)
        os.replace(tmp, out)  # atomic: a reader never sees half a PNG
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        fail(f"{out}: {e.strerror}")


def main():
    ap = argparse.ArgumentParser(prog="pairfold plot", description="training curves of a run, or a prediction, to a PNG")
    ap.add_argument("run", help="run directory (with train.jsonl), a .jsonl log, or a prediction (.safetensors / .npz)")
    ap.add_argument("--out", help="PNG to write (default RUN/curves.png)")
    ap.add_argument("--smooth", type=int, default=1, help="running mean over K steps for per-step curves")
    ap.add_argument("--dpi", type=int, default=100)
    a = ap.parse_args()
    if a.smooth < 1 or not 30 <= a.dpi <= 600:
        fail("--smooth must be >= 1 and --dpi in [30, 600]", 2)
    if a.run.endswith((".safetensors", ".npz")):
        if not os.path.isfile(a.run):
            fail(f"{a.run}: no such file")
        plt = pyplot()
        stem = a.run[: -len(".safetensors")] if a.run.endswith(".safetensors") else a.run[: -len(".npz")]
        plot_prediction(a.run, a.out or stem + ".png", a.dpi, plt)
        return
    log = a.run if os.path.isfile(a.run) else os.path.join(a.run, "train.jsonl")
    if not os.path.exists(log):
        fail(f"{log}: no such log (is {a.run} a run directory?)")
    out = a.out or os.path.join(os.path.dirname(log) or ".", "curves.png")
    rows = read_log(log)
    plt = pyplot()

    fig, axes = plt.subplots(2, 3, figsize=(15, 8))
    for ax, (title, fields, logy) in zip(axes.flat, PANELS):
        drawn = 0
        for field, label in fields:
            xs, ys = series(rows, field)
            if not xs or (field == "msa_loss" and not any(ys)):
                continue
            per_step = not field.startswith("val_")
            ax.plot(xs, smooth(ys, a.smooth) if per_step else ys, marker=None if per_step else "o", ms=3,
                    label=label, lw=1.2)
            drawn += 1
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        if logy and drawn:
            ax.set_yscale("log")
        if drawn > 1:
            ax.legend(fontsize=8)
        if not drawn:
            ax.text(0.5, 0.5, "not logged", ha="center", va="center", transform=ax.transAxes, color="gray")
    steps = sorted(rows)
    fig.suptitle(f"{os.path.abspath(log)}: steps {steps[0]}..{steps[-1]}", fontsize=10)
    fig.tight_layout()
    save(fig, out, a.dpi)
    print(f"plot: {len(rows)} steps -> {out}")


if __name__ == "__main__":
    main()
