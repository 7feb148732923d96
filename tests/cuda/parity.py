"""Parity of pairfold's blocks with the PyTorch reference (bench/torch_blocks.py).

Random weights and inputs (odd sizes, masked tokens and MSA rows) are written to
safetensors with pairfold's parameter names; `pairfold block` runs the same block
forward and backward on each requested device; outputs, input gradients and every
parameter gradient are compared with PyTorch in float64. The same block run by
PyTorch in bf16 gives the yardstick for pairfold's bf16 mode (see BF16_SLACK).

Each block runs in evaluation (no dropout) with the tiny preset and with its own
preset (af3 for the Pairformer, af2 for the Evoformer: dropout rates set, but off),
and in training mode with that preset (`pairfold block --train`: dropout on in the
forward and the backward); PyTorch then applies the masks pairfold wrote
(dropout.<step>), so both compute the same function.

usage: python3 tests/cuda/parity.py [--devices cpu,cuda-fp32,cuda] [--pairfold ./pairfold]
                                    [--modes tiny,eval,train]
Prints one line per (block, mode, device) and ends with "N passed, M failed"."""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import torch
from safetensors.torch import load_file, save_file

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import torch_blocks as tb  # noqa: E402

DIMS = dict(c_z=24, c_s=40, c_m=20, heads_pair=3, c_h_pair=8, heads_single=4, c_h_single=10, heads_msa=4,
            c_h_msa=6, c_trimul=12, c_opm=5, transition_n=4)
TOL = {"cpu": 1e-4, "cuda-fp32": 1e-4, "cuda": 2e-2}  # max |a - ref| / max |ref|, per tensor
# bf16 ("cuda") is judged against PyTorch's own bf16 error on the same block: a single
# run's rounding error per tensor is noisy (two equally accurate implementations differ
# by 2-3x on some tensors), so each tensor may exceed TOL only up to BF16_SLACK x the
# PyTorch bf16 error, and the geometric mean of the ratios over all tensors must stay
# under BF16_MEAN (as accurate as PyTorch bf16 on the whole). Gradient bugs give O(1) errors.
BF16_SLACK = 4.0
BF16_MEAN = 1.5


def fwd_bwd(kind, d, p, ins, masks, grads_out, dtype, device):
    """Block forward and backward in `dtype` on `device`; returns outputs and gradients
    (float64, on the CPU) under the names pairfold writes."""
    p = {k: v.detach().to(device=device, dtype=dtype).requires_grad_(True) for k, v in p.items()}
    x = {k: v.detach().to(device=device, dtype=dtype).requires_grad_(True) for k, v in ins.items()}
    mk = {k: v.to(device=device, dtype=dtype) for k, v in masks.items()}
    if kind == "pairformer":
        s_out, z_out = tb.pairformer_block(x["s"], x["z"], mk["seq_mask"], mk["pair_mask"], p, d)
        outs = {"s": s_out, "z": z_out}
    else:
        m_out, z_out = tb.evoformer_block(x["m"], x["z"], mk["msa_mask"], mk["pair_mask"], p, d)
        outs = {"m": m_out, "z": z_out}
    loss = sum((outs[k].double() * grads_out[k].to(device)).sum() for k in outs)
    loss.backward()
    res = {k: v.detach().double().cpu() for k, v in outs.items()}
    res.update({f"grad.{k}": v.grad.detach().double().cpu() for k, v in x.items()})
    res.update({f"grad.{k}": v.grad.detach().double().cpu() for k, v in p.items()})
    return res


def make_block(kind, d, N, S, gen, pairfold):
    """Random weights and inputs (values representable in float32); parameter names
    and shapes from `pairfold inspect` (bench/block_params.py)."""
    p = tb.random_params(kind, d, gen, dtype=torch.float64, pairfold=pairfold)
    p = {k: v.float().double() for k, v in p.items()}
    tok = torch.ones(N, dtype=torch.float64)
    tok[[3, 10, N - 2]] = 0
    rows = torch.ones(S, dtype=torch.float64)
    rows[S - 1] = 0
    masks = {"msa_mask": rows[:, None] * tok[None, :], "pair_mask": tok[:, None] * tok[None, :], "seq_mask": tok}
    def rnd(*shape):
        return torch.randn(*shape, generator=gen, dtype=torch.float64).float().double()
    ins = {"z": rnd(N, N, d["c_z"])}
    if kind == "pairformer":
        ins["s"] = rnd(N, d["c_s"])
        grads_out = {"s": rnd(N, d["c_s"]), "z": rnd(N, N, d["c_z"])}
    else:
        ins["m"] = rnd(S, N, d["c_m"])
        grads_out = {"m": rnd(S, N, d["c_m"]), "z": rnd(N, N, d["c_z"])}
    inputs = {k: v.float() for k, v in ins.items()}
    inputs.update({f"d_{k}": v.float() for k, v in grads_out.items()})
    inputs.update({k: v.float() for k, v in masks.items()})
    weights = {k: v.float().contiguous() for k, v in p.items()}
    return (p, ins, masks, grads_out), weights, inputs


def reference(kind, d, blk, dropout=None):
    """The float64 reference and PyTorch's own bf16 result (the yardstick for
    pairfold's bf16), with pairfold's dropout masks when given."""
    p, ins, masks, grads_out = blk
    d = dict(d, dropout=dropout or {})
    ref = fwd_bwd(kind, d, p, ins, masks, grads_out, torch.float64, "cpu")
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    torch_bf16 = fwd_bwd(kind, d, p, ins, masks, grads_out, torch.bfloat16, dev)
    return ref, torch_bf16


def rel_errors(got, ref):
    """max |got - ref| / max |ref| per tensor; a gradient that is zero by design (a
    LayerNorm bias feeding only a softmax) is measured against the block's largest
    gradient. Missing tensors are None."""
    gscale = max(v.abs().max().item() for k, v in ref.items() if k.startswith("grad."))
    out = {}
    for name, rv in ref.items():
        if name not in got:
            out[name] = None
            continue
        gv = got[name].double().reshape(rv.shape)
        scale = rv.abs().max().item()
        if name.startswith("grad.") and scale < 1e-9 * gscale:
            scale = gscale
        err = (gv - rv).abs().max().item() / max(scale, 1e-30)
        out[name] = err if torch.isfinite(gv).all() else float("inf")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", default="cpu")
    ap.add_argument("--pairfold", default="./pairfold")
    ap.add_argument("--modes", default="tiny,eval,train")
    a = ap.parse_args()
    gen = torch.Generator().manual_seed(1234)
    passed = failed = 0
    sets = []
    for k, v in DIMS.items():
        sets += ["--set", f"{k}={v}"]
    with tempfile.TemporaryDirectory() as tmp:
        for kind, N, S, own in (("pairformer", 37, 1, "af3"), ("evoformer", 29, 5, "af2")):
            blk, weights, inputs = make_block(kind, DIMS, N, S, gen, a.pairfold)
            wp, ip = os.path.join(tmp, "w.safetensors"), os.path.join(tmp, "i.safetensors")
            save_file(weights, wp)
            save_file({k: v.contiguous() for k, v in inputs.items()}, ip)
            eval_ref = None
            for mode in a.modes.split(","):
                preset = "tiny" if mode == "tiny" else own
                train = ["--train", "--seed", "7"] if mode == "train" else []
                label = f"{kind}/{preset}{'/train' if train else ''}"
                for dev in a.devices.split(","):
                    op = os.path.join(tmp, f"o_{kind}_{mode}_{dev}.safetensors")
                    cmd = [a.pairfold, "block", "--kind", kind, "--preset", preset, *sets, "--device", dev,
                           "--weights", wp, "--inputs", ip, "--out", op, "--backward", *train]
                    r = subprocess.run(cmd, capture_output=True, text=True)
                    if r.returncode != 0:
                        print(f"FAIL {label} {dev}: pairfold exited {r.returncode}: {r.stderr.strip()[-400:]}")
                        failed += 1
                        continue
                    got = load_file(op)
                    drop = {k[len("dropout."):]: v.double() for k, v in got.items() if k.startswith("dropout.")}
                    if train:  # the reference with the masks this device used
                        if not drop:
                            print(f"FAIL {label} {dev}: no dropout masks in pairfold's output (preset {preset})")
                            failed += 1
                            continue
                        ref, torch_bf16 = reference(kind, DIMS, blk, drop)
                    else:
                        if drop:
                            print(f"FAIL {label} {dev}: evaluation wrote dropout masks")
                            failed += 1
                            continue
                        if eval_ref is None:
                            eval_ref = reference(kind, DIMS, blk)
                        ref, torch_bf16 = eval_ref
                    tb_err = rel_errors(torch_bf16, ref)
                    tw = max(tb_err, key=tb_err.get)
                    print(f"info {label:22s} {dev:9s} torch-bf16 {len(ref)} tensors, worst {tb_err[tw]:.2e} ({tw}) "
                          f"[PyTorch's own bf16 error]" + (f"; {len(drop)} dropout masks" if drop else ""))
                    errs = rel_errors({k: v for k, v in got.items() if not k.startswith("dropout.")}, ref)
                    worst, worst_name, bad, detail = 0.0, "", [], []
                    for name, err in errs.items():
                        if err is None:
                            bad.append(f"{name} missing")
                            continue
                        # bf16: within TOL, or no worse than BF16_SLACK x PyTorch's own bf16 error
                        tol = TOL[dev] if dev != "cuda" else max(TOL[dev], BF16_SLACK * tb_err[name])
                        detail.append(f"   {name:70s} {err:.2e}  (torch bf16 {tb_err[name]:.2e})")
                        if err > worst:
                            worst, worst_name = err, name
                        if not err <= tol:
                            bad.append(f"{name} {err:.2e}")
                    extra = ""
                    if dev == "cuda":
                        ratios = [math.log(max(e, 1e-12) / max(tb_err[n], 1e-12)) for n, e in errs.items() if e is not None]
                        gm = math.exp(sum(ratios) / max(len(ratios), 1))
                        extra = f", error / PyTorch bf16 error: geometric mean {gm:.2f}"
                        if not gm <= BF16_MEAN:
                            bad.append(f"geometric mean ratio {gm:.2f} > {BF16_MEAN}")
                    ok = not bad
                    passed += ok
                    failed += not ok
                    print(f"{'ok  ' if ok else 'FAIL'} {label:22s} {dev:9s} {len(ref)} tensors, worst {worst:.2e} ({worst_name}){extra}"
                          + ("" if ok else "; over tolerance: " + ", ".join(bad[:8])))
                    if os.environ.get("PARITY_VERBOSE"):
                        print("\n".join(detail))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
