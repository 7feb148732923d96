"""Backends and trunk blocks through the C API."""
import ctypes
import json

import numpy as np

from ._lib import DEVICE_PTR, KEEP, LIB, TRAIN, check, exiting
from .tensors import check_shape, ptr, to_numpy

STREAMS = ("m", "z", "s")


class Backend:
    """A compute device: "cpu", "cuda" (bf16 activations) or "cuda-fp32" (CUDA builds)."""

    def __init__(self, device="cpu"):
        h = ctypes.c_void_p()
        check(LIB.pairfold_backend_create(device.encode(), ctypes.byref(h)))
        self._h = h
        self.name = LIB.pairfold_backend_name(h).decode()

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h and LIB is not None and not exiting():  # LIB may be gone during interpreter shutdown
            LIB.pairfold_backend_free(h)

    def __del__(self):
        self.close()


class Block:
    """One trunk block, as `pairfold block` runs it.

    kind: "pairformer", "evoformer", "extra_msa", "msa_module"; preset: "tiny", "af2",
    "af3"; config: dict of configuration fields overriding the preset (c_z, heads_pair,
    ...); device: a name or a Backend. Parameters start at zero: set_weights() or
    load_weights() first. Tensors: m (S, N, c_m), z (N, N, c_z), s (N, c_s), masks
    msa (S, N), pair (N, N), seq (N); numpy arrays or CPU DLPack tensors in, numpy out."""

    def __init__(self, kind, preset="af3", config=None, device="cpu"):
        self.backend = device if isinstance(device, Backend) else Backend(device)
        h = ctypes.c_void_p()
        cfg = json.dumps(config).encode() if config else None
        check(LIB.pairfold_block_create(self.backend._h, kind.encode(), preset.encode(), cfg, ctypes.byref(h)))
        self._h = h
        self.kind = kind
        c = (ctypes.c_int * 3)()
        check(LIB.pairfold_block_channels(h, c))
        self.channels = dict(zip(STREAMS, list(c)))
        self._shapes = {}
        for i in range(LIB.pairfold_block_param_count(h)):
            name, nd, shape = ctypes.c_char_p(), ctypes.c_int(), (ctypes.c_int64 * 2)()
            check(LIB.pairfold_block_param_info(h, i, ctypes.byref(name), ctypes.byref(nd), shape))
            self._shapes[name.value.decode()] = tuple(shape[: nd.value])
        self._dims = None

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h and LIB is not None and not exiting():
            LIB.pairfold_block_free(h)

    def __del__(self):
        self.close()

    def param_shapes(self):
        """{name: shape} in declaration order (OpenFold / OpenFold3 names, weights [out, in])."""
        return dict(self._shapes)

    def set_weights(self, weights, strict=True):
        """Set parameters from {name: array}; strict: every parameter must be given, and nothing else."""
        if strict:
            missing, extra = set(self._shapes) - set(weights), set(weights) - set(self._shapes)
            if missing or extra:
                raise KeyError(f"weights: missing {sorted(missing)[:5]}, unknown {sorted(extra)[:5]}")
        for name, w in weights.items():
            a = to_numpy(w, name)
            check_shape(a, self._shapes.get(name, a.shape), name)
            check(LIB.pairfold_block_set_param(self._h, name.encode(), ptr(a), a.size))

    def _read(self, fn):
        out = {}
        for name, shape in self._shapes.items():
            a = np.empty(shape, np.float32)
            check(fn(self._h, name.encode(), ptr(a), a.size))
            out[name] = a
        return out

    def get_weights(self):
        return self._read(LIB.pairfold_block_get_param)

    def grads(self):
        """Parameter gradients accumulated by backward() since zero_grad()."""
        return self._read(LIB.pairfold_block_get_grad)

    def zero_grad(self):
        check(LIB.pairfold_block_zero_grad(self._h))

    def load_weights(self, path, prefix=""):
        """Every parameter from a safetensors file: a block's weights, or with prefix
        ("pairformer_stack.blocks.0.") one block of a checkpoint's model.safetensors."""
        check(LIB.pairfold_block_load_weights(self._h, str(path).encode(), prefix.encode()))

    def forward(self, z, m=None, s=None, msa_mask=None, pair_mask=None, seq_mask=None, train=False, seed=1,
                keep=False):
        """The block's outputs {"m", "z", "s"} (a stream not given enters as zeros). train:
        dropout with masks from seed; keep: keep what backward() needs."""
        z = to_numpy(z, "z")
        if z is None or z.ndim != 3 or z.shape[0] != z.shape[1]:
            raise ValueError("z: expected (N, N, c_z)")
        N = z.shape[0]
        m, s = to_numpy(m, "m"), to_numpy(s, "s")
        S = m.shape[0] if m is not None and m.ndim == 3 else 1
        c = self.channels
        x = {"m": m if m is not None else np.zeros((S, N, c["m"]), np.float32), "z": z,
             "s": s if s is not None else np.zeros((N, c["s"]), np.float32)}
        for k, shape in (("m", (S, N, c["m"])), ("z", (N, N, c["z"])), ("s", (N, c["s"]))):
            check_shape(x[k], shape, k)
        masks = [to_numpy(a, n) for a, n in ((msa_mask, "msa_mask"), (pair_mask, "pair_mask"), (seq_mask, "seq_mask"))]
        for a, n, shape in zip(masks, ("msa_mask", "pair_mask", "seq_mask"), ((S, N), (N, N), (N,))):
            check_shape(a, shape, n)
        flags = (TRAIN if train else 0) | (KEEP if keep else 0)
        check(LIB.pairfold_block_forward(self._h, N, S, ptr(x["m"]), ptr(x["z"]), ptr(x["s"]), *map(ptr, masks),
                                         flags, seed))
        self._dims = (N, S)
        return x

    def backward(self, d_z=None, d_m=None, d_s=None):
        """Gradients of a loss with respect to the inputs {"m", "z", "s"}, given those with
        respect to the outputs (None: zero), after forward(..., keep=True). Parameter
        gradients accumulate (grads())."""
        if self._dims is None:
            raise RuntimeError("backward() before forward(..., keep=True)")
        N, S = self._dims
        c = self.channels
        shapes = {"m": (S, N, c["m"]), "z": (N, N, c["z"]), "s": (N, c["s"])}
        d = {}
        for k, a in (("m", d_m), ("z", d_z), ("s", d_s)):
            a = to_numpy(a, "d_" + k)
            check_shape(a, shapes[k], "d_" + k)
            d[k] = a if a is not None else np.zeros(shapes[k], np.float32)
        check(LIB.pairfold_block_backward(self._h, ptr(d["m"]), ptr(d["z"]), ptr(d["s"])))
        return d


class TriangleMultiplication(Block):
    """One triangle multiplicative update alone (AF2 Alg. 11 / 12, AF3 Alg. 12 / 13):
    update = module(x), not added to x. direction: "outgoing" or "incoming"; c_z and
    c_hidden its channels; bias: Linears with biases (AF2) or without (AF3).
    Parameters (param_shapes()): layer_norm_in, linear_a_p, linear_a_g, linear_b_p,
    linear_b_g, linear_g, layer_norm_out, linear_z (OpenFold names)."""

    def __init__(self, c_z, c_hidden, direction="outgoing", bias=False, device="cpu"):
        if direction not in ("outgoing", "incoming"):
            raise ValueError(f"direction must be 'outgoing' or 'incoming', not {direction!r}")
        kind = "tri_mul_out" if direction == "outgoing" else "tri_mul_in"
        super().__init__(kind, preset="af2" if bias else "af3", config={"c_z": int(c_z), "c_trimul": int(c_hidden)},
                         device=device)
        self.c_z, self.c_hidden, self.direction = int(c_z), int(c_hidden), direction

    def forward(self, x, mask=None, keep=False):
        """The update (N, N, c_z) of x (N, N, c_z); mask (N, N) or None."""
        x = to_numpy(x, "x")
        if x is None or x.ndim != 3 or x.shape[0] != x.shape[1] or x.shape[2] != self.c_z:
            raise ValueError(f"x: expected (N, N, {self.c_z}), got {None if x is None else x.shape}")
        N = x.shape[0]
        mask = to_numpy(mask, "mask")
        check_shape(mask, (N, N), "mask")
        out = np.empty_like(x)
        check(LIB.pairfold_module_forward(self._h, N, ptr(x), ptr(mask), ptr(out), KEEP if keep else 0))
        self._dims = (N, 1)
        return out

    def backward(self, d_out):
        """dL/dx from dL/d(update), after forward(..., keep=True); parameter gradients accumulate."""
        if self._dims is None:
            raise RuntimeError("backward() before forward(..., keep=True)")
        N = self._dims[0]
        d = to_numpy(d_out, "d_out")
        check_shape(d, (N, N, self.c_z), "d_out")
        dx = np.empty_like(d)
        check(LIB.pairfold_module_backward(self._h, ptr(d), ptr(dx)))
        return dx

    def forward_ptr(self, N, x, mask, out, keep=False):
        """forward() on the backend's own memory (C API PAIRFOLD_DEVICE_PTR): x, mask
        (or None), out are addresses (ints, e.g. torch's data_ptr() of contiguous CUDA
        tensors in the backend's activation type: bfloat16 for "cuda", float32 for
        "cuda-fp32"), nothing copied through the host. Returns after the backend's
        stream finished; the caller's inputs must be ready (synchronised) before."""
        check(LIB.pairfold_module_forward(self._h, int(N), x, mask, out, (KEEP if keep else 0) | DEVICE_PTR))
        self._dims = (int(N), 1)

    def backward_ptr(self, d_out, d_x):
        """backward() on the backend's memory, after forward_ptr(..., keep=True)."""
        if self._dims is None:
            raise RuntimeError("backward_ptr() before forward_ptr(..., keep=True)")
        check(LIB.pairfold_module_backward(self._h, d_out, d_x))
