"""test_torch_ops: pairfold.torch_ops.triangle_multiplicative_update (cuEquivariance's
argument layout) against PyTorch eager (the Boltz / cuEquivariance reference form),
forward and backward (x and every weight), batched, both directions, with a mask;
CUDA tensors in and out when a GPU is visible.

Needs torch, so it is not part of `make test` (CI has no torch): run it where torch
is installed, after `make lib`:  python3 tests/torch/test_torch_ops.py
(As committed, this test has not been run: the machine it was written on has no torch.)"""
import os
import importlib.util
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# tests/pftest.py by its path: tests/ on sys.path would make this folder an importable "torch"
_spec = importlib.util.spec_from_file_location("pftest", os.path.join(ROOT, "tests", "pftest.py"))
pftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pftest)
check, finish = pftest.check, pftest.finish
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("PAIRFOLD_LIB", os.path.join(ROOT, "libpairfold.so"))
try:
    import torch
except ImportError:
    print("torch is not installed: nothing run")
    print("0 passed, 0 failed")
    sys.exit(0)
from pairfold.torch_ops import triangle_multiplicative_update  # noqa: E402



def eager(x, direction, mask, niw, nib, piw, giw, now, nob, pow_, gow):
    F = torch.nn.functional
    xn = F.layer_norm(x, (x.shape[-1],), niw, nib, 1e-5)
    h = (xn @ piw.T) * torch.sigmoid(xn @ giw.T) * mask.unsqueeze(-1)
    a, b = torch.chunk(h, 2, dim=-1)
    eq = "bikd,bjkd->bijd" if direction == "outgoing" else "bkid,bkjd->bijd"
    xx = torch.einsum(eq, a, b)
    return F.layer_norm(xx, (xx.shape[-1],), now, nob, 1e-5) @ pow_.T * torch.sigmoid(xn @ gow.T)


def weights(D, H, dev):
    g = torch.Generator().manual_seed(3)
    r = lambda *s: (torch.randn(*s, generator=g, dtype=torch.float64) * 0.3).to(dev).requires_grad_()  # noqa: E731
    return [r(D) + 1, r(D), r(2 * H, D), r(2 * H, D), r(H) + 1, r(H), r(D, H), r(D, D)]


devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
for dev in devices:
    for direction in ("outgoing", "incoming"):
        B, N, D, H = 2, 9, 16, 8
        W = weights(D, H, dev)
        x = torch.randn(B, N, N, D, dtype=torch.float64, device=dev, requires_grad=True)
        mask = (torch.rand(B, N, N, device=dev) > 0.2).double()
        R = torch.randn(B, N, N, D, dtype=torch.float64, device=dev)
        ref = eager(x, direction, mask, *W)
        (ref * R).sum().backward()
        gref = [x.grad.clone()] + [w.grad.clone() for w in W]
        x.grad = None
        for w in W:
            w.grad = None
        xf = x.detach().float().requires_grad_()
        Wf = [w.detach().float().requires_grad_() for w in W]
        out = triangle_multiplicative_update(xf, direction, mask.float(), *Wf)
        tag = f"{dev} {direction}"
        check(out.device == xf.device and out.dtype == torch.float32 and out.shape == xf.shape, f"{tag}: shape/device")
        err = ((out.double() - ref).abs().max() / ref.abs().max()).item()
        check(err < 1e-5, f"{tag}: forward = PyTorch eager (float64)", f"{err:.3g}")
        (out * R.float()).sum().backward()
        got = [xf.grad] + [w.grad for w in Wf]
        names = ["x", "norm_in_weight", "norm_in_bias", "p_in_weight", "g_in_weight", "norm_out_weight",
                 "norm_out_bias", "p_out_weight", "g_out_weight"]
        for n, a, b in zip(names, got, gref):
            e = ((a.double() - b).abs().max() / b.abs().max().clamp_min(1e-12)).item()
            check(e < 1e-4, f"{tag}: d {n} = PyTorch eager", f"{e:.3g}")
        # unbatched (N, N, D) input, as cuEquivariance accepts
        o3 = triangle_multiplicative_update(xf[0].detach(), direction, mask[0].float(), *[w.detach() for w in Wf])
        check(torch.allclose(o3, out[0].detach(), atol=1e-6), f"{tag}: (N, N, D) input")
finish()
