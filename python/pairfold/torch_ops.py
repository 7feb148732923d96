"""PyTorch wrappers of pairfold's modules, in cuEquivariance's argument layout, so an
OpenFold / Boltz / Protenix model can swap them in:

    from pairfold.torch_ops import triangle_multiplicative_update
    # same call as cuequivariance_torch.triangle_multiplicative_update(x, direction, mask, ...)

torch is imported when a wrapper runs (not with this module), so numpy-only users
and the weight mapping (cueq_weights) need no torch.

What exists and what not:
- triangle_multiplicative_update: a torch.autograd.Function over the engine's
  triangle multiplication (C API pairfold_module_forward / _backward): forward,
  and the gradients of x and of every weight (the backward re-runs the forward to
  rebuild what it saved). Tensors go through host memory: CUDA tensors are copied
  to the host and back (set the engine's device with set_device("cuda") in a CUDA
  build of libpairfold.so); float32 math on the CPU backend.
- triangle_attention(q, k, v, bias, mask, scale) is NOT provided yet: the engine's
  attention op is the whole module (LayerNorm, projections, gating; backend.h), and
  its core (q, k, v, bias) has no entry in the backend interface or the C API.
- Tested where torch exists: tests/torch/test_torch_ops.py (against PyTorch eager,
  forward and backward). Not run on the machine this was written on (no torch there).
"""
import numpy as np

from .block import Backend, TriangleMultiplication

_DEVICE = "cpu"
_BACKENDS = {}
_MODULES = {}


def set_device(device):
    """The engine's device for the wrappers: "cpu" (default), "cuda", "cuda-fp32"."""
    global _DEVICE
    _DEVICE = device


def _module(D, hidden, direction):
    key = (_DEVICE, D, hidden, direction)
    if key not in _MODULES:
        if _DEVICE not in _BACKENDS:
            _BACKENDS[_DEVICE] = Backend(_DEVICE)
        _MODULES[key] = TriangleMultiplication(D, hidden, direction, bias=False, device=_BACKENDS[_DEVICE])
    return _MODULES[key]


def cueq_weights(norm_in_weight, norm_in_bias, p_in_weight, g_in_weight, norm_out_weight, norm_out_bias,
                 p_out_weight, g_out_weight):
    """cuEquivariance's weights -> the module's parameters (OpenFold names). p_in and
    g_in are (2 hidden, D): rows [:hidden] make a, [hidden:] b (as torch.chunk(., 2, -1)
    of the projection does); p_out (D, hidden) is linear_z, g_out (D, D) linear_g."""
    h = p_in_weight.shape[0] // 2
    return {
        "layer_norm_in.weight": norm_in_weight, "layer_norm_in.bias": norm_in_bias,
        "linear_a_p.weight": p_in_weight[:h], "linear_b_p.weight": p_in_weight[h:],
        "linear_a_g.weight": g_in_weight[:h], "linear_b_g.weight": g_in_weight[h:],
        "layer_norm_out.weight": norm_out_weight, "layer_norm_out.bias": norm_out_bias,
        "linear_z.weight": p_out_weight, "linear_g.weight": g_out_weight,
    }


_ORDER = ("norm_in_weight", "norm_in_bias", "p_in_weight", "g_in_weight", "norm_out_weight", "norm_out_bias",
          "p_out_weight", "g_out_weight")


def _np(t):
    return t.detach().to("cpu", copy=False).float().contiguous().numpy()


def _function():
    import torch

    class _TriMul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, mask, direction, *weights):
            W = cueq_weights(*[_np(w) for w in weights])
            D, hidden = x.shape[-1], weights[2].shape[0] // 2
            mod = _module(D, hidden, direction)
            mod.set_weights(W)
            xs, ms = _np(x), (_np(mask) if mask is not None else None)
            out = np.stack([mod.forward(xs[b], None if ms is None else ms[b]) for b in range(xs.shape[0])])
            ctx.save_for_backward(x, mask, *weights)
            ctx.direction = direction
            return torch.from_numpy(out).to(device=x.device, dtype=x.dtype)

        @staticmethod
        def backward(ctx, d_out):
            x, mask, *weights = ctx.saved_tensors
            W = cueq_weights(*[_np(w) for w in weights])
            D, hidden = x.shape[-1], weights[2].shape[0] // 2
            mod = _module(D, hidden, ctx.direction)
            mod.set_weights(W)
            mod.zero_grad()
            xs, ms, ds = _np(x), (_np(mask) if mask is not None else None), _np(d_out)
            dx = np.empty_like(xs)
            for b in range(xs.shape[0]):  # the forward again, kept this time, then its backward
                mod.forward(xs[b], None if ms is None else ms[b], keep=True)
                dx[b] = mod.backward(ds[b])
            g = mod.grads()
            gw = [g["layer_norm_in.weight"], g["layer_norm_in.bias"],
                  np.concatenate([g["linear_a_p.weight"], g["linear_b_p.weight"]]),
                  np.concatenate([g["linear_a_g.weight"], g["linear_b_g.weight"]]),
                  g["layer_norm_out.weight"], g["layer_norm_out.bias"], g["linear_z.weight"], g["linear_g.weight"]]
            like = lambda a, t: torch.from_numpy(np.ascontiguousarray(a)).to(device=t.device, dtype=t.dtype)  # noqa: E731
            return (like(dx, x), None, None, *[like(a, w) for a, w in zip(gw, weights)])

    return _TriMul


def triangle_multiplicative_update(x, direction="outgoing", mask=None, norm_in_weight=None, norm_in_bias=None,
                                   p_in_weight=None, g_in_weight=None, norm_out_weight=None, norm_out_bias=None,
                                   p_out_weight=None, g_out_weight=None, eps=1e-5):
    """cuequivariance_torch.triangle_multiplicative_update's arguments: x (B, N, N, D) or
    (N, N, D); mask (B, N, N) or (N, N); p_in / g_in (2 hidden, D); p_out (D, hidden);
    g_out (D, D); LayerNorm eps 1e-5 (the engine's). Every weight is required (no
    random initialisation here). Returns the update, x's shape, dtype and device."""
    weights = dict(norm_in_weight=norm_in_weight, norm_in_bias=norm_in_bias, p_in_weight=p_in_weight,
                   g_in_weight=g_in_weight, norm_out_weight=norm_out_weight, norm_out_bias=norm_out_bias,
                   p_out_weight=p_out_weight, g_out_weight=g_out_weight)
    missing = [k for k, v in weights.items() if v is None]
    if missing:
        raise ValueError(f"triangle_multiplicative_update: weights required: {', '.join(missing)}")
    if abs(eps - 1e-5) > 1e-12:
        raise ValueError(f"triangle_multiplicative_update: eps {eps}: the engine's LayerNorm uses 1e-5")
    if direction not in ("outgoing", "incoming"):
        raise ValueError(f"direction must be 'outgoing' or 'incoming', not {direction!r}")
    squeeze = x.dim() == 3
    if squeeze:
        x = x.unsqueeze(0)
        mask = mask.unsqueeze(0) if mask is not None else None
    out = _function().apply(x, mask, direction, *[weights[k] for k in _ORDER])
    return out.squeeze(0) if squeeze else out
