"""test_python_triattn: the attention core alone through the C API
(pairfold_attention_forward / _backward, Python pairfold.attention), the engine entry
the PyTorch wrapper pairfold.torch_ops.triangle_attention calls, in cuEquivariance's
layout: q, k, v (B, N, H, L, D), bias (B, 1, H, L, L), mask (B, N, 1, 1, L).
Checked against a float64 numpy reference (the formula of cuEquivariance's docs):
the output, and dq, dk, dv, d_bias against the reference's analytic gradients,
which are checked against central differences; with and without bias and mask,
including a fully masked row (the mean of v, no gradient to q, k, bias); argument
errors name the argument. torch is not needed (tests/torch/test_torch_ops.py runs
the autograd wrapper where torch exists)."""
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pftest import check, finish, raises  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("PAIRFOLD_LIB", os.path.join(ROOT, "libpairfold.so"))
import pairfold  # noqa: E402
from pairfold import attention  # noqa: E402


def reference(q, k, v, bias, mask, scale):
    """(out, P) in float64: softmax over keys of scale q.k + bias, -1e9 at masked keys."""
    logits = scale * np.einsum("bnhid,bnhjd->bnhij", q, k)
    if bias is not None:
        logits = logits + bias.reshape(q.shape[0], 1, q.shape[2], q.shape[3], q.shape[3])
    if mask is not None:
        m = mask.reshape(q.shape[0], q.shape[1], 1, 1, q.shape[3]).astype(bool)
        logits = np.where(m, logits, -1e9)
    logits = logits - logits.max(-1, keepdims=True)
    P = np.exp(logits)
    P /= P.sum(-1, keepdims=True)
    return np.einsum("bnhij,bnhjd->bnhid", P, v), P


def reference_grads(q, k, v, bias, mask, scale, R):
    """dq, dk, dv, d_bias of sum(out * R) in float64 (the softmax backward)."""
    _, P = reference(q, k, v, bias, mask, scale)
    dv = np.einsum("bnhij,bnhid->bnhjd", P, R)
    dP = np.einsum("bnhid,bnhjd->bnhij", R, v)
    dS = P * (dP - (P * dP).sum(-1, keepdims=True))
    if mask is not None:
        dS = dS * mask.reshape(q.shape[0], q.shape[1], 1, 1, q.shape[3]).astype(bool)
    dq = scale * np.einsum("bnhij,bnhjd->bnhid", dS, k)
    dk = scale * np.einsum("bnhij,bnhid->bnhjd", dS, q)
    db = None if bias is None else dS.sum(1)
    return dq, dk, dv, db


def rel(a, b):
    return float(np.abs(np.asarray(a, np.float64) - b).max() / max(np.abs(b).max(), 1e-12))


rng = np.random.default_rng(5)
B, N, H, L, D = 2, 5, 3, 6, 8
f32 = lambda a: a.astype(np.float32).astype(np.float64)  # noqa: E731  what the engine sees
for use_bias in (True, False):
    for use_mask in (True, False):
        tag = f"bias {int(use_bias)} mask {int(use_mask)}"
        q, k, v = (f32(rng.normal(size=(B, N, H, L, D))) for _ in range(3))
        bias = f32(rng.normal(size=(B, 1, H, L, L))) if use_bias else None
        mask = None
        if use_mask:
            mask = rng.random((B, N, 1, 1, L)) > 0.3
            mask[0, 2] = False  # a fully masked row
        scale = 0.37
        ref, _ = reference(q, k, v, bias, mask, scale)
        out, lse = attention.triangle_attention_forward(q, k, v, bias, mask, scale)
        check(out.shape == q.shape and out.dtype == np.float32 and lse.shape == (B, N, H, L), f"{tag}: shapes")
        check(rel(out, ref) < 1e-5, f"{tag}: out = float64 reference", f"{rel(out, ref):.3g}")
        if use_mask:
            check(np.abs(out[0, 2] - v[0, 2].mean(1, keepdims=True)).max() < 1e-5, f"{tag}: fully masked row = mean of v")
        R = rng.normal(size=q.shape)
        got = attention.triangle_attention_backward(q, k, v, bias, mask, scale, out, lse, R)
        want = reference_grads(q, k, v, bias, mask, scale, R)
        for name, g, w in zip(("dq", "dk", "dv", "d_bias"), got, want):
            if w is None:
                check(g is None, f"{tag}: no {name} without a bias")
                continue
            check(g.shape == w.shape, f"{tag}: {name} shape", f"{g.shape} vs {w.shape}")
            check(rel(g, w) < 1e-4, f"{tag}: {name} = float64 reference", f"{rel(g, w):.3g}")
        if use_mask:
            check(np.abs(got[0][0, 2]).max() == 0 and np.abs(got[1][0, 2]).max() == 0,
                  f"{tag}: fully masked row sends no gradient to q, k")
        # the reference's gradients against central differences of the reference
        loss = lambda qq, kk, vv, bb: float((reference(qq, kk, vv, bb, mask, scale)[0] * R).sum())  # noqa: E731
        h, worst = 1e-6, 0.0
        args = [q, k, v] + ([bias] if use_bias else [])
        for t, w in enumerate(want[:len(args)]):
            for _ in range(6):
                idx = tuple(rng.integers(0, s) for s in args[t].shape)
                ap = [a.copy() for a in args]
                am = [a.copy() for a in args]
                ap[t][idx] += h
                am[t][idx] -= h
                pb = ap[3].reshape(B, H, L, L) if use_bias else None
                mb = am[3].reshape(B, H, L, L) if use_bias else None
                fd = (loss(ap[0], ap[1], ap[2], pb) - loss(am[0], am[1], am[2], mb)) / (2 * h)
                wv = w.reshape(args[t].shape)[idx] if t == 3 else w[idx]
                worst = max(worst, abs(fd - wv) / max(1.0, abs(fd)))
        check(worst < 1e-6, f"{tag}: reference gradients = central differences", f"{worst:.3g}")

# unbatched-equivalent shapes: (B, N, L) mask and (B, H, L, L) bias are accepted too
q, k, v = (f32(rng.normal(size=(1, 4, 2, 5, 4))) for _ in range(3))
bias, mask = f32(rng.normal(size=(1, 2, 5, 5))), (rng.random((1, 4, 5)) > 0.2)
o1, _ = attention.triangle_attention_forward(q, k, v, bias, mask)
o2, _ = attention.triangle_attention_forward(q, k, v, bias.reshape(1, 1, 2, 5, 5), mask.reshape(1, 4, 1, 1, 5))
check(np.array_equal(o1, o2), "(B, H, L, L) bias and (B, N, L) mask = cuEquivariance's shapes")
check(rel(o1, reference(q, k, v, bias, mask, 0.5)[0]) < 1e-5, "scale None = 1 / sqrt(D)")

# errors name the argument
check(raises(lambda: attention.triangle_attention_forward(q, k[:, :, :, :4], v), ValueError, "k:"), "k shape refused")
check(raises(lambda: attention.triangle_attention_forward(q, k, v, bias[:, :1]), ValueError, "bias:"), "bias shape refused")
check(raises(lambda: attention.triangle_attention_forward(q, k, v, None, mask[:, :2]), ValueError, "mask:"),
      "mask shape refused")
check(raises(lambda: attention.triangle_attention_forward(q[0], k[0], v[0]), ValueError, "q:"), "4-d q refused here")
check(raises(lambda: attention.triangle_attention_forward(q, k, v, scale=float("inf")), pairfold.PairfoldError,
             "scale"), "non-finite scale refused by the C API")
check(pairfold.api_version >= 2, "API version 2 (attention core, PAIRFOLD_DEVICE_PTR)")

# the pass by address (C API PAIRFOLD_DEVICE_PTR), as torch_ops calls it: on the CPU
# backend, host float32 buffers; the same results as the staged calls
q, k, v, R = (rng.normal(size=(2, 3, 2, 4, 8)).astype(np.float32) for _ in range(4))
bias = rng.normal(size=(2, 2, 4, 4)).astype(np.float32)
mask = (rng.random((2, 3, 4)) > 0.3).astype(np.float32)
want, wlse = attention.triangle_attention_forward(q, k, v, bias, mask, 0.4)
wgrads = attention.triangle_attention_backward(q, k, v, bias, mask, 0.4, want, wlse, R)
out, lse = np.empty_like(q), np.empty((2, 3, 2, 4), np.float32)
dims = (2, 3, 2, 4, 8)
A = lambda a: a.ctypes.data  # noqa: E731
attention.forward_ptr("cpu", dims, 0.4, A(q), A(k), A(v), A(bias), A(mask), A(out), A(lse))
gr = [np.empty_like(q), np.empty_like(q), np.empty_like(q), np.empty_like(bias)]
attention.backward_ptr("cpu", dims, 0.4, A(q), A(k), A(v), A(bias), A(mask), A(out), A(lse), A(R), *map(A, gr))
check(np.array_equal(out, want) and np.array_equal(lse, wlse) and all(np.array_equal(a, b) for a, b in zip(gr, wgrads)),
      "forward_ptr / backward_ptr = the staged calls")
finish()
