"""test_python_trimul: one triangle multiplication alone through the C API
(pairfold_module_forward / _backward, Python pairfold.TriangleMultiplication), the
engine module the PyTorch wrapper (pairfold.torch_ops) swaps in. Checked against a
float64 numpy reference of AF2 Alg. 11 / 12 (both directions, with and without
Linear biases, with a mask): the update, and the gradients of x and of every
parameter against central differences of the reference. Also the mapping of
cuEquivariance's argument layout onto the module's parameters (torch_ops.cueq_weights,
checked with numpy: torch itself is not installed here; tests/torch/test_torch_ops.py
runs the autograd wrappers where it is)."""
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pftest import check, finish  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("PAIRFOLD_LIB", os.path.join(ROOT, "libpairfold.so"))
import pairfold  # noqa: E402
from pairfold import torch_ops  # noqa: E402  (imports torch only when its functions run)



def ln(v, w, b):
    mu = v.mean(-1, keepdims=True)
    var = ((v - mu) ** 2).mean(-1, keepdims=True)
    return (v - mu) / np.sqrt(var + 1e-5) * w + b


def lin(v, W, name):
    return v @ W[name + ".weight"].T + W.get(name + ".bias", 0)


def sig(v):
    return 1 / (1 + np.exp(-v))


def reference(x, mask, W, incoming):
    """AF2 Alg. 11 (outgoing) / 12 (incoming) in float64: the update."""
    zn = ln(x, W["layer_norm_in.weight"], W["layer_norm_in.bias"])
    m = mask[..., None]
    a = sig(lin(zn, W, "linear_a_g")) * lin(zn, W, "linear_a_p") * m
    b = sig(lin(zn, W, "linear_b_g")) * lin(zn, W, "linear_b_p") * m
    xx = np.einsum("kic,kjc->ijc", a, b) if incoming else np.einsum("ikc,jkc->ijc", a, b)
    return sig(lin(zn, W, "linear_g")) * lin(ln(xx, W["layer_norm_out.weight"], W["layer_norm_out.bias"]), W, "linear_z")


rng = np.random.default_rng(11)
N, CZ, C = 7, 12, 6
for direction in ("outgoing", "incoming"):
    for bias in (False, True):
        tag = f"{direction}, {'biases' if bias else 'no biases'}"
        t = pairfold.TriangleMultiplication(CZ, C, direction, bias=bias)
        shapes = t.param_shapes()
        check(any(k.endswith(".bias") and k.startswith("linear_") for k in shapes) == bias, f"{tag}: Linear biases")
        W = {k: rng.normal(0, 0.4, s) + (1.0 if k.endswith("norm_in.weight") or k.endswith("norm_out.weight") else 0)
             for k, s in shapes.items()}
        t.set_weights(W)
        Wf = {k: v.astype(np.float32).astype(np.float64) for k, v in W.items()}  # what the engine holds
        x = rng.normal(size=(N, N, CZ))
        mask = (rng.random((N, N)) > 0.25).astype(np.float64)
        xf = x.astype(np.float32).astype(np.float64)
        ref = reference(xf, mask, Wf, direction == "incoming")
        out = t.forward(x, mask=mask, keep=True)
        err = np.abs(out - ref).max() / np.abs(ref).max()
        check(err < 2e-5, f"{tag}: update = float64 reference", f"rel err {err:.3g}")
        # gradients of L = sum(update * R)
        R = rng.normal(size=(N, N, CZ))
        t.zero_grad()
        dx = t.backward(R)
        grads = t.grads()
        loss = lambda xx, WW: float((reference(xx, mask, WW, direction == "incoming") * R).sum())  # noqa: E731
        h, worst = 1e-4, 0.0
        for _ in range(12):
            idx = tuple(rng.integers(0, s) for s in x.shape)
            e = np.zeros_like(xf)
            e[idx] = h
            fd = (loss(xf + e, Wf) - loss(xf - e, Wf)) / (2 * h)
            worst = max(worst, abs(fd - dx[idx]) / max(1.0, abs(fd)))
        check(worst < 2e-3, f"{tag}: dL/dx = central differences", f"{worst:.3g}")
        worst = 0.0
        for name in shapes:
            for _ in range(2):
                idx = tuple(rng.integers(0, s) for s in shapes[name])
                Wp = {k: v.copy() for k, v in Wf.items()}
                Wm = {k: v.copy() for k, v in Wf.items()}
                Wp[name][idx] += h
                Wm[name][idx] -= h
                fd = (loss(xf, Wp) - loss(xf, Wm)) / (2 * h)
                worst = max(worst, abs(fd - grads[name][idx]) / max(1.0, abs(fd)))
        check(worst < 2e-3, f"{tag}: every parameter's gradient = central differences", f"{worst:.3g}")

# a fully masked input: a and b vanish, the update is the gate times LN_out(0) projected
t = pairfold.TriangleMultiplication(CZ, C, "outgoing")
t.set_weights({k: rng.normal(0, 0.4, s) for k, s in t.param_shapes().items()})
x = rng.normal(size=(N, N, CZ))
u0 = t.forward(x, mask=np.zeros((N, N)))
W = {k: v.astype(np.float64) for k, v in t.get_weights().items()}
check(np.abs(u0 - reference(x.astype(np.float32).astype(np.float64), np.zeros((N, N)), W, False)).max() < 1e-5,
      "fully masked: as the reference")

# errors
E = pairfold.PairfoldError
try:
    pairfold.TriangleMultiplication(CZ, C, "sideways")
    check(False, "a bad direction is refused")
except ValueError as e:
    check("outgoing" in str(e), "a bad direction is refused", str(e))
t2 = pairfold.TriangleMultiplication(CZ, C)
try:
    t2.forward(np.zeros((4, 4, CZ + 1)))
    check(False, "wrong channels refused")
except ValueError as e:
    check(f"(N, N, {CZ})" in str(e), "wrong channels refused", str(e))
t2.forward(np.zeros((4, 4, CZ)))
try:
    t2.backward(np.zeros((4, 4, CZ)))
    check(False, "backward without a kept forward")
except E as e:
    check(e.status == 4, "backward without a kept forward: PAIRFOLD_ERR_STATE", str(e))
blk = pairfold.Block("pairformer", preset="tiny")
r = pairfold._lib.LIB.pairfold_module_forward(blk._h, 4, None, None, None, 0)
check(r == 1 and "not a module" in pairfold._lib.LIB.pairfold_last_error().decode(), "module_forward on a block")

# cuEquivariance's layout -> the module's parameters (numpy arrays stand in for tensors)
D, Hd = CZ, C
cu = dict(norm_in_weight=rng.normal(size=D), norm_in_bias=rng.normal(size=D), p_in_weight=rng.normal(size=(2 * Hd, D)),
          g_in_weight=rng.normal(size=(2 * Hd, D)), norm_out_weight=rng.normal(size=Hd),
          norm_out_bias=rng.normal(size=Hd), p_out_weight=rng.normal(size=(D, Hd)), g_out_weight=rng.normal(size=(D, D)))
W = torch_ops.cueq_weights(**cu)
check(set(W) == set(pairfold.TriangleMultiplication(D, Hd).param_shapes()), "cueq_weights: every parameter, no biases")
check(np.array_equal(W["linear_a_p.weight"], cu["p_in_weight"][:Hd]) and np.array_equal(W["linear_b_g.weight"],
                                                                                      cu["g_in_weight"][Hd:])
      and np.array_equal(W["linear_z.weight"], cu["p_out_weight"]) and np.array_equal(W["linear_g.weight"],
                                                                                      cu["g_out_weight"]),
      "cueq_weights: a = first half of p_in / g_in, b = second; p_out -> linear_z, g_out -> linear_g")
# the same update as the einsum form Boltz / cuEquivariance document (x * mask after the gated projection)
x = rng.normal(size=(N, N, D))
mask = (rng.random((N, N)) > 0.2).astype(np.float64)
t3 = pairfold.TriangleMultiplication(D, Hd, "incoming")
t3.set_weights(W)
xn = ln(x, cu["norm_in_weight"], cu["norm_in_bias"])
pg = (xn @ cu["p_in_weight"].T) * sig(xn @ cu["g_in_weight"].T) * mask[..., None]
a, b = pg[..., :Hd], pg[..., Hd:]
xx = np.einsum("kid,kjd->ijd", a, b)
want = ln(xx, cu["norm_out_weight"], cu["norm_out_bias"]) @ cu["p_out_weight"].T * sig(xn @ cu["g_out_weight"].T)
got = t3.forward(x, mask=mask)
check(np.abs(got - want).max() / np.abs(want).max() < 1e-5, "cuEquivariance-layout update (incoming) = engine module",
      f"{np.abs(got - want).max():.3g}")


# the pass by address (C API PAIRFOLD_DEVICE_PTR), as torch_ops calls it; on the CPU
# backend the addresses are host float32 buffers: the same results as forward / backward
x = rng.normal(size=(N, N, CZ)).astype(np.float32)
mask = (rng.random((N, N)) > 0.25).astype(np.float32)
R = rng.normal(size=(N, N, CZ)).astype(np.float32)
t3.zero_grad()
want = t3.forward(x, mask=mask, keep=True)
want_dx = t3.backward(R)
want_g = t3.grads()
out, dx = np.empty_like(x), np.empty_like(x)
t3.zero_grad()
t3.forward_ptr(N, x.ctypes.data, mask.ctypes.data, out.ctypes.data, keep=True)
t3.backward_ptr(R.ctypes.data, dx.ctypes.data)
g = t3.grads()
check(np.array_equal(out, want) and np.array_equal(dx, want_dx) and all(np.array_equal(g[k], want_g[k]) for k in g),
      "forward_ptr / backward_ptr = forward / backward")
t3.forward_ptr(N, x.ctypes.data, None, out.ctypes.data)
check(np.array_equal(out, t3.forward(x)), "forward_ptr without a mask = all ones")

finish()
