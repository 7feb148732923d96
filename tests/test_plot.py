"""test_plot: `pairfold plot` (tools/plot.py) draws a run's training curves (or a
prediction's contact and distance maps) to a PNG.
The PNG is opened and checked: its size follows --dpi, it is not blank (curve
pixels in the plot colour), and a log with a resumed (repeated) step and a null
value still plots. A real run's log too. Bad input: clear errors, no PNG."""
import atexit
import json
import os
import shutil
import sys
import tempfile

import numpy as np

from pftest import check, finish, run  # noqa: E402



def png_ok(path, w, h, name):
    import matplotlib.image as mpimg
    try:
        img = mpimg.imread(path)
    except Exception as e:  # noqa: BLE001
        check(False, f"{name}: PNG readable", str(e))
        return
    check(img.shape[:2] == (h, w), f"{name}: size {w}x{h}", str(img.shape))
    rgb = img[..., :3]
    nonwhite = float((rgb.min(-1) < 0.9).mean())
    # coloured pixels: the curves themselves (axes and text are grey / black)
    colour = int((rgb.max(-1) - rgb.min(-1) > 0.25).sum())
    check(nonwhite > 0.01 and colour > 150, f"{name}: not blank (curves drawn)", f"non-white {nonwhite:.3f}, colour px {colour}")


T = tempfile.mkdtemp(prefix="pf_plot_")
atexit.register(shutil.rmtree, T, True)
# a hand-made log: 40 steps, validation every 10, one null (non-finite) value, steps
# 21..25 logged twice (a resumed run), plus a blank line
with open(f"{T}/train.jsonl", "w") as f:
    for s in list(range(1, 26)) + list(range(21, 41)):
        r = {"step": s, "loss": 4.0 * np.exp(-s / 20) + 0.1, "lr": 3e-4 * min(1, s / 10), "grad_norm": 1.0 / s,
             "ms": 200 + s % 3, "disto_loss": 3.5 * np.exp(-s / 20), "msa_loss": 0}
        if s % 10 == 0:
            r.update(val_loss=4.0 - s / 20, val_contact_p_l5=s / 80)
        if s == 7:
            r["grad_norm"] = None
        f.write(json.dumps(r) + "\n")
    f.write("\n")
rc, out = run("plot", T, "--dpi", "40")
check(rc == 0 and "40 steps" in out and os.path.exists(f"{T}/curves.png"), "plot RUN writes RUN/curves.png", out[-300:])
if rc == 0:
    png_ok(f"{T}/curves.png", 600, 320, "hand-made log")

# a real run: 4 tiny steps, validation every 2
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "4", "--set", "val_every=2", "--out",
              f"{T}/run", "--quiet")
check(rc == 0, "tiny run", out[-300:])
rc, out = run("plot", f"{T}/run/train.jsonl", "--out", f"{T}/real.png", "--dpi", "50")
check(rc == 0 and os.path.exists(f"{T}/real.png"), "plot LOG --out FILE", out[-300:])
if rc == 0:
    png_ok(f"{T}/real.png", 750, 400, "real run")

# a prediction: contact and distance maps (a hand-made one: two chains, a band of contacts)
from safetensors.numpy import save_file  # noqa: E402
N = 40
ii, jj = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
dist = (3.8 * np.abs(ii - jj)).astype(np.float32)
save_file({"contact_probability_8A": (dist < 8).astype(np.float32), "expected_distance": dist,
           "chain_index": (np.arange(N) >= 30).astype(np.int32)}, f"{T}/pred.safetensors")
rc, out = run("plot", f"{T}/pred.safetensors", "--dpi", "40")
check(rc == 0 and os.path.exists(f"{T}/pred.png"), "plot PRED.safetensors writes PRED.png", out[-300:])
if rc == 0:
    png_ok(f"{T}/pred.png", 480, 220, "prediction maps")
open(f"{T}/bad.safetensors", "wb").write(b"not a safetensors file")
rc, out = run("plot", f"{T}/bad.safetensors")
check(rc == 1 and "bad.safetensors" in out and not os.path.exists(f"{T}/bad.png"), "a bad prediction file is named",
      out[-200:])

# bad input
rc, out = run("plot", f"{T}/nowhere")
check(rc == 1 and "nowhere" in out, "a missing run directory is named", out[-200:])
os.makedirs(f"{T}/bad")
open(f"{T}/bad/train.jsonl", "w").write('{"step": 1, "loss": 2}\n{"step": 2, "loss": \n')
rc, out = run("plot", f"{T}/bad")
check(rc == 1 and "train.jsonl:2" in out and not os.path.exists(f"{T}/bad/curves.png"),
      "a malformed line: file:line, no PNG", out[-200:])
open(f"{T}/bad/train.jsonl", "w").write("")
rc, out = run("plot", f"{T}/bad")
check(rc == 1 and "no steps" in out, "an empty log", out[-200:])
rc, out = run("plot", T, "--dpi", "5")
check(rc == 2 and "--dpi" in out, "a bad --dpi", out[-200:])
rc, out = run("plot", T, "--out", f"{T}/no/dir/x.png")
check(rc == 1 and "x.png" in out, "an unwritable output is named", out[-200:])
rc, out = run("plot")
check(rc == 2 and "usage" in out, "no RUN: usage", out[-200:])

finish()
