"""Block benchmark: pairfold against the PyTorch eager reference, same GPU, same run.

Times the AF3 Pairformer block (and the AF2 Evoformer block with S=128) forward and
forward+backward in bf16 at each N until out of memory, with random weights and
inputs: median of --reps timed runs after two warm-ups, CUDA events around each run;
peak device memory from torch.cuda.max_memory_allocated (PyTorch) and pairfold's
own allocator (pairfold bench). FLOP model: pairfold's (src/model/block.c:
matrix products and attention contractions; backward = 2 x forward), used for
both, so the ratio of TFLOP/s equals the ratio of times.

usage: python3 bench/compare_blocks.py [--n 256,512,768,1024,1536,2048] [--reps 5] [--out results.json]"""
import argparse
import json
import os
import subprocess
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import torch_blocks as tb  # noqa: E402
from torch_ops_bench import time_ms as median_ms  # noqa: E402  (median of reps after 2 warm-ups)


def torch_block(kind, N, S, reps, pairfold):
    d = tb.AF3 if kind == "pairformer" else tb.AF2
    gen = torch.Generator().manual_seed(0)
    preset = "af3" if kind == "pairformer" else "af2"
    params = tb.random_params(kind, d, gen, dtype=torch.bfloat16, pairfold=pairfold, preset=preset)
    p = {k: v.cuda().requires_grad_(True) for k, v in params.items()}
    dt = dict(device="cuda", dtype=torch.bfloat16)
    z = torch.randn(N, N, d["c_z"], **dt, requires_grad=True)
    tok = torch.ones(N, **dt)
    pair = torch.ones(N, N, **dt)
    if kind == "pairformer":
        x = torch.randn(N, d["c_s"], **dt, requires_grad=True)
        run = lambda: tb.pairformer_block(x, z, tok, pair, p, d)  # noqa: E731
    else:
        x = torch.randn(S, N, d["c_m"], **dt, requires_grad=True)
        msa = torch.ones(S, N, **dt)
        run = lambda: tb.evoformer_block(x, z, msa, pair, p, d)  # noqa: E731
    res = {}
    try:
        torch.cuda.reset_peak_memory_stats()
        with torch.no_grad():
            res["fwd_ms"] = median_ms(run, reps)
        res["fwd_peak_gib"] = torch.cuda.max_memory_allocated() / 2**30
        torch.cuda.reset_peak_memory_stats()
        def fb():
            a, b = run()
            (a.float().sum() + b.float().sum()).backward()
        res["fb_ms"] = median_ms(fb, reps)
        res["fb_peak_gib"] = torch.cuda.max_memory_allocated() / 2**30
    except torch.OutOfMemoryError:
        res["oom"] = True
    except Exception as e:  # e.g. a cuEquivariance route refusing a shape: report it, go on
        res["error"] = f"{type(e).__name__}: {e}"[:300]
        print("   pytorch:", res["error"], flush=True)
    del p, z, x
    torch.cuda.empty_cache()
    return res


def pairfold_block(binary, kind, N, S, reps, graph=False):
    preset = "af3" if kind == "pairformer" else "af2"
    cmd = [binary, "bench", "--device", "cuda", "--preset", preset, "--n", str(N), "--msa", str(S), "--reps", str(reps),
           "--set", "n_extra_blocks=0", "--set", "n_msa_blocks=0"] + (["--graph"] if graph else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip()[-300:]}
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == kind:
            return {"fwd_ms": float(f[3]), "fb_ms": float(f[4]), "fwd_tflops": float(f[5]) / 1e3,
                    "fb_tflops": float(f[6]) / 1e3, "peak_gib": float(f[7]) / 1024}
    return {"error": r.stdout[-300:]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="256,512,768,1024,1536,2048")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--kinds", default="pairformer,evoformer")
    ap.add_argument("--pairfold", default="./pairfold")
    ap.add_argument("--out", default=None)
    ap.add_argument("--impl", default="eager", choices=["eager", "cueq"],
                    help="the PyTorch side: eager, or with cuEquivariance's triangle attention and multiplication")
    ap.add_argument("--graph", action="store_true",
                    help="also time pairfold's replays of a recorded pass (bench --graph; training does not use them yet),"
                         " printed as a second line pf_graph")
    a = ap.parse_args()
    tb.CUEQ = a.impl == "cueq"
    print(f"PyTorch side (pt_*): {'PyTorch + cuEquivariance kernels' if tb.CUEQ else 'PyTorch eager'}")
    rows = []
    print(f"{'block':10s} {'N':>5s} {'pf_fwd':>8s} {'pt_fwd':>8s} {'pf_fb':>8s} {'pt_fb':>8s} {'speedup':>7s} "
          f"{'pf_TF/s':>8s} {'pf_GiB':>7s} {'pt_GiB':>7s}")
    for kind in a.kinds.split(","):
        for N in [int(x) for x in a.n.split(",")]:
            S = 128
            pf = pairfold_block(a.pairfold, kind, N, S, a.reps)
            pt = torch_block(kind, N, S, a.reps, a.pairfold)
            rows.append({"block": kind, "N": N, "S": S if kind == "evoformer" else 0, "pairfold": pf, "pytorch": pt,
                         "pytorch_impl": a.impl})
            def g(d, k, fmt="{:8.2f}"):
                return fmt.format(d[k]) if k in d else f"{'OOM' if d.get('oom') else 'err':>8s}"
            sp = pt["fb_ms"] / pf["fb_ms"] if "fb_ms" in pt and "fb_ms" in pf else float("nan")
            print(f"{kind:10s} {N:5d} {g(pf, 'fwd_ms')} {g(pt, 'fwd_ms')} {g(pf, 'fb_ms')} {g(pt, 'fb_ms')} {sp:7.2f} "
                  f"{g(pf, 'fb_tflops')} {g(pf, 'peak_gib', '{:7.2f}')} {g(pt, 'fb_peak_gib', '{:7.2f}')}", flush=True)
            if "error" in pf:
                print("   pairfold:", pf["error"])
            if a.graph:
                pg = pairfold_block(a.pairfold, kind, N, S, a.reps, graph=True)
                rows[-1]["pairfold_graph"] = pg
                sg = pt["fb_ms"] / pg["fb_ms"] if "fb_ms" in pt and "fb_ms" in pg else float("nan")
                print(f"{'  pf_graph':10s} {N:5d} {g(pg, 'fwd_ms')} {'':8s} {g(pg, 'fb_ms')} {'':8s} {sg:7.2f} "
                      f"{g(pg, 'fb_tflops')} {g(pg, 'peak_gib', '{:7.2f}')}", flush=True)
                if "error" in pg:
                    print("   pairfold --graph:", pg["error"])
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
