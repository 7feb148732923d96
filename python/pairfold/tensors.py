"""Tensors in and out: numpy arrays, or anything that speaks DLPack (PyTorch, JAX,
CuPy tensors with `__dlpack__`). CPU memory only: the C API takes host buffers, so
a CUDA tensor is refused with a clear message (move it with .cpu() first).

Outputs are numpy arrays, which speak DLPack themselves: `torch.from_dlpack(a)`
shares their memory without a copy."""
import ctypes

import numpy as np

from ._lib import c_float_p


def to_numpy(x, name):
    """A float32 C-order copy of x (the engine overwrites its buffers)."""
    if x is None:
        return None
    if not isinstance(x, np.ndarray) and hasattr(x, "__dlpack__"):
        dev = x.__dlpack_device__()[0] if hasattr(x, "__dlpack_device__") else 1
        if dev != 1:  # kDLCPU
            raise ValueError(f"{name}: a DLPack tensor on device type {dev}; the pairfold C API takes CPU memory "
                             "(move it with .cpu() first)")
        x = np.from_dlpack(x)  # shares the memory; the copy below is the only one
    return np.array(x, dtype=np.float32, order="C", copy=True)


def from_dlpack(x):
    """A numpy view of a CPU DLPack tensor (no copy), as np.from_dlpack."""
    return np.from_dlpack(x)


def ptr(a):
    return None if a is None else a.ctypes.data_as(c_float_p)


def check_shape(a, shape, name):
    if a is not None and tuple(a.shape) != tuple(shape):
        raise ValueError(f"{name}: shape {tuple(a.shape)}, expected {tuple(shape)}")


def view(p, shape, dtype):
    """A copy of n C elements at pointer p as a numpy array of shape."""
    n = int(np.prod(shape))
    if n == 0:
        return np.zeros(shape, dtype)
    return np.ctypeslib.as_array(ctypes.cast(p, ctypes.POINTER(np.ctypeslib.as_ctypes_type(dtype))),
                                 shape=(n,)).reshape(shape).copy()
