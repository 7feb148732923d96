"""PyTorch wrappers of pairfold's fused modules, in cuEquivariance's argument layout,
so an OpenFold / Boltz / Protenix model can swap them in:

    from pairfold.torch_ops import triangle_attention, triangle_multiplicative_update
    # the calls of cuequivariance_torch.triangle_attention(q, k, v, bias, mask, scale)
    # and cuequivariance_torch.triangle_multiplicative_update(x, direction, mask, ...)

Both are torch.autograd.Functions (forward and backward through the engine). torch is
imported when a wrapper runs (not with this module), so numpy-only users and the
weight mapping (cueq_weights) need no torch.

Devices and copies. The engine's backend follows the tensors: CPU tensors run on the
"cpu" backend (float32 math); CUDA bfloat16 tensors on "cuda" (bf16 activations, as
the engine trains), other CUDA dtypes on "cuda-fp32" (a CUDA build of libpairfold.so:
`make lib CUDA=1`). Tensors are passed by address (data_ptr() of contiguous tensors
in the backend's type, C API flag PAIRFOLD_DEVICE_PTR): no copy through the host
(a tensor of another dtype or layout is converted on its device first; the trimul
weights, a few kB, do go through the host). The engine uses CUDA device 0 of the
process (choose with CUDA_VISIBLE_DEVICES) and its own stream; the wrappers
synchronise PyTorch's current stream before each call, and each call returns after
the engine's stream finished. No DLPack here: data_ptr() is enough for torch, and
the C API takes addresses.

- triangle_attention: the attention core (C API pairfold_attention_forward /
  _backward); gradients of q, k, v and the bias (the mask gets none). The mask
  follows cuEquivariance (True: attend; a fully masked row is the mean of v).
  Queries and keys must have the same length; D <= 64 on CUDA.
- triangle_multiplicative_update: the engine's triangle multiplication (C API
  pairfold_module_forward / _backward): forward, and the gradients of x and of every
  weight (the backward re-runs the forward to rebuild what it saved).
- Tested against PyTorch eager: tests/torch/test_torch_ops.py (CPU float32, and CUDA
  bf16 within the parity tolerance when a GPU is visible); without torch,
  tests/test_python_trimul.py and tests/test_python_triattn.py check the same engine
  entries against numpy.
"""
import numpy as np

from . import attention
from .block import TriangleMultiplication

_MODULES = {}


def engine_device(t):
    """The engine backend for tensor t and the dtype it computes in."""
    import torch
    if not t.is_cuda:
        return "cpu", torch.float32
    if (t.device.index if t.device.index is not None else torch.cuda.current_device()) != 0:
        raise ValueError(f"{t.device}: the engine runs on CUDA device 0 of the process (set CUDA_VISIBLE_DEVICES)")
    return ("cuda", torch.bfloat16) if t.dtype == torch.bfloat16 else ("cuda-fp32", torch.float32)


def _ready(t):
    """PyTorch's queued work on t's device is done (the engine runs on its own stream)."""
    import torch
    if t.is_cuda:
        torch.cuda.current_stream(t.device).synchronize()


def _module(device, D, hidden, direction):
    key = (device, D, hidden, direction)
    if key not in _MODULES:
        _MODULES[key] = TriangleMultiplication(D, hidden, direction, bias=False, device=attention.backend(device))
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


def _weight_grads(g):
    return [g["layer_norm_in.weight"], g["layer_norm_in.bias"],
            np.concatenate([g["linear_a_p.weight"], g["linear_b_p.weight"]]),
            np.concatenate([g["linear_a_g.weight"], g["linear_b_g.weight"]]),
            g["layer_norm_out.weight"], g["layer_norm_out.bias"], g["linear_z.weight"], g["linear_g.weight"]]


def _function():
    import torch

    def run(mod, x, mask, wdt, d_out=None):
        """One pass per batch element on the engine, tensors by address: the update
        (d_out None) or dL/dx (after a kept forward)."""
        B, N = x.shape[0], x.shape[1]
        xs = x.to(wdt).contiguous()
        ms = None if mask is None else mask.to(device=x.device, dtype=wdt).contiguous()
        out = torch.empty_like(xs)
        ds = None if d_out is None else d_out.to(wdt).contiguous()
        dx = None if d_out is None else torch.empty_like(xs)
        _ready(xs)
        for b in range(B):
            mp = None if ms is None else ms[b].data_ptr()
            mod.forward_ptr(N, xs[b].data_ptr(), mp, out[b].data_ptr(), keep=d_out is not None)
            if d_out is not None:
                mod.backward_ptr(ds[b].data_ptr(), dx[b].data_ptr())
        return out if d_out is None else dx

    class _TriMul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, mask, direction, *weights):
            dev, wdt = engine_device(x)
            D, hidden = x.shape[-1], weights[2].shape[0] // 2
            mod = _module(dev, D, hidden, direction)
            mod.set_weights(cueq_weights(*[_np(w) for w in weights]))
            out = run(mod, x, mask, wdt)
            ctx.save_for_backward(x, mask, *weights)
            ctx.direction = direction
            return out.to(x.dtype)

        @staticmethod
        def backward(ctx, d_out):
            x, mask, *weights = ctx.saved_tensors
            dev, wdt = engine_device(x)
            D, hidden = x.shape[-1], weights[2].shape[0] // 2
            mod = _module(dev, D, hidden, ctx.direction)
            mod.set_weights(cueq_weights(*[_np(w) for w in weights]))
            mod.zero_grad()
            dx = run(mod, x, mask, wdt, d_out)  # the forward again, kept this time, then its backward
            like = lambda a, t: torch.from_numpy(np.ascontiguousarray(a)).to(device=t.device, dtype=t.dtype)  # noqa: E731
            return (dx.to(x.dtype), None, None, *[like(a, w) for a, w in zip(_weight_grads(mod.grads()), weights)])

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


def _attention_function():
    import torch

    class _TriAttn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, bias, mask, scale):
            dims = attention.shapes(q.shape, None if bias is None else bias.shape,
                                    None if mask is None else mask.shape, k.shape, v.shape)
            B, N, H, L, D = dims
            dev, wdt = engine_device(q)
            qc, kc, vc = (t.to(wdt).contiguous() for t in (q, k, v))
            bc = None if bias is None else bias.to(device=q.device, dtype=torch.float32).contiguous()
            mc = None if mask is None else mask.reshape(B, N, L).to(q.device).bool().to(wdt).contiguous()  # cuEq: bool
            out = torch.empty_like(qc)
            lse = torch.empty((B, N, H, L), dtype=torch.float32, device=q.device)
            _ready(qc)
            a = lambda t: None if t is None else t.data_ptr()  # noqa: E731
            attention.forward_ptr(dev, dims, scale, a(qc), a(kc), a(vc), a(bc), a(mc), a(out), a(lse))
            ctx.save_for_backward(qc, kc, vc, bc, mc, out, lse)
            ctx.meta = (dev, dims, scale, q.dtype, None if bias is None else (bias.shape, bias.dtype))
            return out.to(q.dtype)

        @staticmethod
        def backward(ctx, d_out):
            qc, kc, vc, bc, mc, out, lse = ctx.saved_tensors
            dev, dims, scale, qdt, bmeta = ctx.meta
            B, N, H, L, D = dims
            d = d_out.to(qc.dtype).contiguous()
            dq, dk, dv = torch.empty_like(qc), torch.empty_like(qc), torch.empty_like(qc)
            want_db = bc is not None and ctx.needs_input_grad[3]
            db = torch.empty((B, H, L, L), dtype=torch.float32, device=qc.device) if want_db else None
            _ready(d)
            a = lambda t: None if t is None else t.data_ptr()  # noqa: E731
            attention.backward_ptr(dev, dims, scale, a(qc), a(kc), a(vc), a(bc), a(mc), a(out), a(lse), a(d),
                                   a(dq), a(dk), a(dv), a(db))
            g_bias = None if db is None else db.reshape(bmeta[0]).to(bmeta[1])
            return dq.to(qdt), dk.to(qdt), dv.to(qdt), g_bias, None, None

    return _TriAttn


def triangle_attention(q, k, v, bias, mask=None, scale=None, return_aux=False):
    """cuequivariance_torch.triangle_attention's arguments: q, k, v (B, N, H, L, D) or
    (N, H, L, D); bias (B, 1, H, L, L) or (1, H, L, L), used as float32; mask
    (B, N, 1, 1, L) or (N, 1, 1, L), True / 1 = attend, or None; scale None:
    1 / sqrt(D). Returns the output, q's shape, dtype and device (return_aux=True,
    cuEquivariance's lse and max, is not provided)."""
    if return_aux:
        raise ValueError("triangle_attention: return_aux=True is not provided (the engine's saved state differs)")
    squeeze = q.dim() == 4
    if squeeze:
        q, k, v = q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0)
        bias = None if bias is None else bias.unsqueeze(0)
        mask = None if mask is None else mask.unsqueeze(0)
    scale = 1.0 / float(q.shape[-1]) ** 0.5 if scale is None else float(scale)
    out = _attention_function().apply(q, k, v, bias, mask, scale)
    return out.squeeze(0) if squeeze else out
