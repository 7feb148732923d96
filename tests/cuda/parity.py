"""Parity of pairfold's blocks with the PyTorch reference (bench/torch_blocks.py).

Random weights and inputs (odd sizes, masked tokens and MSA rows) are written to
safetensors with pairfold's parameter names; `pairfold block` runs the same block
forward and backward on each requested device; outputs, input gradients and every
parameter gradient are compared with PyTorch in float64.

usage: python3 tests/cuda/parity.py [--devices cpu,cuda-fp32,cuda] [--pairfold ./pairfold]
Prints one line per (block, device) and ends with "N passed, M failed"."""
import argparse
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


def run_block(kind, d, N, S, gen):
    p = tb.random_params(kind, d, gen, dtype=torch.float64)
    p = {k: v.float().double().requires_grad_(True) for k, v in p.items()}
    tok = torch.ones(N, dtype=torch.float64)
    tok[[3, 10, N - 2]] = 0
    rows = torch.ones(S, dtype=torch.float64)
    rows[S - 1] = 0
    msa_mask = rows[:, None] * tok[None, :]
    pair_mask = tok[:, None] * tok[None, :]
    def rnd(*shape):
        return torch.randn(*shape, generator=gen, dtype=torch.float64).float().double()
    z = rnd(N, N, d["c_z"]).requires_grad_(True)
    if kind == "pairformer":
        s = rnd(N, d["c_s"]).requires_grad_(True)
        s_out, z_out = tb.pairformer_block(s, z, tok, pair_mask, p, d)
        outs, ins = {"s": s_out, "z": z_out}, {"s": s, "z": z}
    else:
        m = rnd(S, N, d["c_m"]).requires_grad_(True)
        m_out, z_out = tb.evoformer_block(m, z, msa_mask, pair_mask, p, d)
        outs, ins = {"m": m_out, "z": z_out}, {"m": m, "z": z}
    grads_out = {k: rnd(*v.shape) for k, v in outs.items()}
    loss = sum((outs[k] * grads_out[k]).sum() for k in outs)
    loss.backward()
    ref = {k: v.detach() for k, v in outs.items()}
    ref.update({f"grad.{k}": v.grad.detach() for k, v in ins.items()})
    ref.update({f"grad.{k}": v.grad.detach() for k, v in p.items()})
    inputs = {k: v.detach().float() for k, v in ins.items()}
    inputs.update({f"d_{k}": v.float() for k, v in grads_out.items()})
    inputs.update({"msa_mask": msa_mask.float(), "pair_mask": pair_mask.float(), "seq_mask": tok.float()})
    weights = {k: v.detach().float().contiguous() for k, v in p.items()}
    return weights, inputs, ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", default="cpu")
    ap.add_argument("--pairfold", default="./pairfold")
    a = ap.parse_args()
    gen = torch.Generator().manual_seed(1234)
    passed = failed = 0
    sets = []
    for k, v in DIMS.items():
        sets += ["--set", f"{k}={v}"]
    with tempfile.TemporaryDirectory() as tmp:
        for kind, N, S in (("pairformer", 37, 1), ("evoformer", 29, 5)):
            weights, inputs, ref = run_block(kind, DIMS, N, S, gen)
            wp, ip = os.path.join(tmp, "w.safetensors"), os.path.join(tmp, "i.safetensors")
            save_file(weights, wp)
            save_file({k: v.contiguous() for k, v in inputs.items()}, ip)
            for dev in a.devices.split(","):
                op = os.path.join(tmp, f"o_{kind}_{dev}.safetensors")
                cmd = [a.pairfold, "block", "--kind", kind, "--preset", "tiny", *sets, "--device", dev,
                       "--weights", wp, "--inputs", ip, "--out", op, "--backward"]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"FAIL {kind} {dev}: pairfold exited {r.returncode}: {r.stderr.strip()[-400:]}")
                    failed += 1
                    continue
                got = load_file(op)
                worst, worst_name, bad = 0.0, "", []
                gscale = max(v.abs().max().item() for k, v in ref.items() if k.startswith("grad."))
                detail = []
                for name, rv in ref.items():
                    if name not in got:
                        bad.append(f"{name} missing")
                        continue
                    gv = got[name].double().reshape(rv.shape)
                    scale = rv.abs().max().item()
                    # a gradient that is zero by design (a LayerNorm bias feeding only a
                    # softmax) is compared against the block's largest gradient
                    if name.startswith("grad.") and scale < 1e-9 * gscale:
                        scale = gscale
                    err = (gv - rv).abs().max().item() / max(scale, 1e-30)
                    detail.append(f"   {name:70s} {err:.2e}")
                    if not torch.isfinite(gv).all():
                        err = float("inf")
                    if err > worst:
                        worst, worst_name = err, name
                    if err > TOL[dev]:
                        bad.append(f"{name} {err:.2e}")
                ok = not bad
                passed += ok
                failed += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {kind:10s} {dev:9s} {len(ref)} tensors, worst {worst:.2e} ({worst_name})"
                      + ("" if ok else "; over tolerance: " + ", ".join(bad[:8])))
                if os.environ.get("PARITY_VERBOSE"):
                    print("\n".join(detail))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
