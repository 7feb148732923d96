"""The engine's attention core alone (C API pairfold_attention_forward / _backward), in
cuEquivariance's triangle_attention layout:

    out[b,n,h,i,:] = sum_j softmax_j(scale q[b,n,h,i,:] . k[b,n,h,j,:] + bias[b,h,i,j]) v[b,n,h,j,:]

q, k, v (B, N, H, L, D); bias (B, 1, H, L, L) or (B, H, L, L); mask (B, N, 1, 1, L) or
(B, N, L) over keys (True / 1: attend). A masked key gets probability 0, a fully
masked row is the mean of v. Queries and keys have the same length (triangle
attention).

numpy / CPU DLPack tensors in, numpy float32 out (host memory, any backend):
triangle_attention_forward / triangle_attention_backward here. PyTorch tensors, CPU
or CUDA, without copies through the host: pairfold.torch_ops.triangle_attention.
"""
import numpy as np

from ._lib import DEVICE_PTR, LIB, check
from .block import Backend
from .tensors import to_numpy

_BACKENDS = {}


def backend(device):
    """One engine backend per device name ("cpu", "cuda", "cuda-fp32"), opened once."""
    if device not in _BACKENDS:
        _BACKENDS[device] = Backend(device)
    return _BACKENDS[device]


def shapes(q_shape, bias_shape, mask_shape, k_shape=None, v_shape=None):
    """(B, N, H, L, D) from cuEquivariance's shapes, checked; ValueError names the argument."""
    if len(q_shape) != 5:
        raise ValueError(f"q: expected (B, N, H, L, D), got {tuple(q_shape)}")
    B, N, H, L, D = (int(s) for s in q_shape)
    for name, s in (("k", k_shape), ("v", v_shape)):
        if s is not None and tuple(s) != tuple(q_shape):
            raise ValueError(f"{name}: shape {tuple(s)} differs from q's {tuple(q_shape)} "
                             "(the engine needs as many keys as queries)")
    if bias_shape is not None and tuple(bias_shape) not in ((B, 1, H, L, L), (B, H, L, L)):
        raise ValueError(f"bias: expected ({B}, 1, {H}, {L}, {L}), got {tuple(bias_shape)}")
    if mask_shape is not None and tuple(mask_shape) not in ((B, N, 1, 1, L), (B, N, L)):
        raise ValueError(f"mask: expected ({B}, {N}, 1, 1, {L}), got {tuple(mask_shape)}")
    return B, N, H, L, D


def _mask(mask):
    """0 / 1 float32 (cuEquivariance casts the mask to bool: any nonzero attends)."""
    m = to_numpy(mask, "mask")
    return None if m is None else (m != 0).astype(np.float32)


def _addr(a):
    return None if a is None else a.ctypes.data


def triangle_attention_forward(q, k, v, bias=None, mask=None, scale=None, device="cpu"):
    """(out (B, N, H, L, D), lse (B, N, H, L)) as float32 numpy arrays; host memory in
    and out (staged through the device's memory when device is a CUDA one)."""
    q, k, v = to_numpy(q, "q"), to_numpy(k, "k"), to_numpy(v, "v")
    bias, mask = to_numpy(bias, "bias"), _mask(mask)
    B, N, H, L, D = shapes(q.shape, None if bias is None else bias.shape, None if mask is None else mask.shape,
                           k.shape, v.shape)
    scale = 1.0 / np.sqrt(D) if scale is None else float(scale)
    out = np.empty_like(q)
    lse = np.empty((B, N, H, L), np.float32)
    check(LIB.pairfold_attention_forward(backend(device)._h, B, N, H, L, D, scale, _addr(q), _addr(k), _addr(v),
                                         _addr(bias), _addr(mask), _addr(out), _addr(lse), 0))
    return out, lse


def triangle_attention_backward(q, k, v, bias, mask, scale, out, lse, d_out, device="cpu"):
    """(dq, dk, dv, d_bias) from d_out = dL/dout, after triangle_attention_forward (its
    out and lse); d_bias (B, H, L, L) or None without a bias."""
    q, k, v = to_numpy(q, "q"), to_numpy(k, "k"), to_numpy(v, "v")
    bias, mask = to_numpy(bias, "bias"), _mask(mask)
    out, lse, d_out = to_numpy(out, "out"), to_numpy(lse, "lse"), to_numpy(d_out, "d_out")
    B, N, H, L, D = shapes(q.shape, None if bias is None else bias.shape, None if mask is None else mask.shape,
                           k.shape, v.shape)
    if d_out.shape != q.shape or out.shape != q.shape or lse.shape != (B, N, H, L):
        raise ValueError("out, d_out: q's shape; lse: (B, N, H, L)")
    scale = 1.0 / np.sqrt(D) if scale is None else float(scale)
    dq, dk, dv = np.empty_like(q), np.empty_like(q), np.empty_like(q)
    db = None if bias is None else np.empty((B, H, L, L), np.float32)
    check(LIB.pairfold_attention_backward(backend(device)._h, B, N, H, L, D, scale, _addr(q), _addr(k), _addr(v),
                                          _addr(bias), _addr(mask), _addr(out), _addr(lse), _addr(d_out), _addr(dq),
                                          _addr(dk), _addr(dv), _addr(db), 0))
    return dq, dk, dv, db


def forward_ptr(device, dims, scale, q, k, v, bias, mask, out, lse):
    """The forward on the backend's own memory (PAIRFOLD_DEVICE_PTR): every tensor an
    address (int) or None; activations in the backend's type, bias and lse float32."""
    B, N, H, L, D = dims
    check(LIB.pairfold_attention_forward(backend(device)._h, B, N, H, L, D, scale, q, k, v, bias, mask, out, lse,
                                         DEVICE_PTR))


def backward_ptr(device, dims, scale, q, k, v, bias, mask, out, lse, d_out, dq, dk, dv, d_bias):
    """The backward on the backend's own memory (PAIRFOLD_DEVICE_PTR)."""
    B, N, H, L, D = dims
    check(LIB.pairfold_attention_backward(backend(device)._h, B, N, H, L, D, scale, q, k, v, bias, mask, out, lse,
                                          d_out, dq, dk, dv, d_bias, DEVICE_PTR))
