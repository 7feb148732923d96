"""pairfold: Python bindings (ctypes) of the pairfold engine (libpairfold.so).

    import pairfold
    blk = pairfold.Block("pairformer", preset="tiny")   # one AF3 Pairformer block on the CPU
    out = blk.forward(z=z, s=s)                           # numpy (or CPU DLPack tensors) in, numpy out
    pred = pairfold.predict("runs/tiny", alignment="query.a3m")

PyTorch autograd wrappers of the triangle modules: pairfold.torch_ops (imports torch
when used)."""
from ._lib import LIB, PairfoldError
from .block import Backend, Block, TriangleMultiplication
from .predict import Prediction, predict
from .tensors import from_dlpack

__version__ = LIB.pairfold_version().decode()
api_version = LIB.pairfold_api_version()
library_path = LIB.path

__all__ = ["Backend", "Block", "TriangleMultiplication", "Prediction", "PairfoldError", "predict", "from_dlpack", "__version__"]
