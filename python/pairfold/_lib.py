"""Loading libpairfold.so and declaring the C API (src/api/pairfold.h) for ctypes."""
import atexit
import ctypes
import ctypes.util
import os

c_float_p = ctypes.POINTER(ctypes.c_float)
c_int32_p = ctypes.POINTER(ctypes.c_int32)
c_int64_p = ctypes.POINTER(ctypes.c_int64)
_vp = ctypes.c_void_p

# name: (restype, argtypes)
_API = {
    "pairfold_version": (ctypes.c_char_p, []),
    "pairfold_api_version": (ctypes.c_int, []),
    "pairfold_last_error": (ctypes.c_char_p, []),
    "pairfold_backend_create": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_vp)]),
    "pairfold_backend_name": (ctypes.c_char_p, [_vp]),
    "pairfold_backend_free": (None, [_vp]),
    "pairfold_block_create": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                             ctypes.POINTER(_vp)]),
    "pairfold_block_free": (None, [_vp]),
    "pairfold_block_channels": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
    "pairfold_block_param_count": (ctypes.c_int, [_vp]),
    "pairfold_block_param_info": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                                 ctypes.POINTER(ctypes.c_int), c_int64_p]),
    "pairfold_block_set_param": (ctypes.c_int, [_vp, ctypes.c_char_p, c_float_p, ctypes.c_int64]),
    "pairfold_block_get_param": (ctypes.c_int, [_vp, ctypes.c_char_p, c_float_p, ctypes.c_int64]),
    "pairfold_block_get_grad": (ctypes.c_int, [_vp, ctypes.c_char_p, c_float_p, ctypes.c_int64]),
    "pairfold_block_zero_grad": (ctypes.c_int, [_vp]),
    "pairfold_block_load_weights": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p]),
    "pairfold_block_forward": (ctypes.c_int, [_vp, ctypes.c_int64, ctypes.c_int64, c_float_p, c_float_p, c_float_p,
                                              c_float_p, c_float_p, c_float_p, ctypes.c_uint, ctypes.c_uint64]),
    "pairfold_block_backward": (ctypes.c_int, [_vp, c_float_p, c_float_p, c_float_p]),
    # void *: host float32 arrays, or backend memory with DEVICE_PTR (CUDA device pointers)
    "pairfold_module_forward": (ctypes.c_int, [_vp, ctypes.c_int64, _vp, _vp, _vp, ctypes.c_uint]),
    "pairfold_module_backward": (ctypes.c_int, [_vp, _vp, _vp]),
    "pairfold_attention_forward": (ctypes.c_int, [_vp, ctypes.c_int64, ctypes.c_int64, ctypes.c_int, ctypes.c_int64,
                                                  ctypes.c_int, ctypes.c_float, _vp, _vp, _vp, _vp, _vp, _vp, _vp,
                                                  ctypes.c_uint]),
    "pairfold_attention_backward": (ctypes.c_int, [_vp, ctypes.c_int64, ctypes.c_int64, ctypes.c_int, ctypes.c_int64,
                                                   ctypes.c_int, ctypes.c_float, _vp, _vp, _vp, _vp, _vp, _vp, _vp,
                                                   _vp, _vp, _vp, _vp, _vp, ctypes.c_uint]),
    "pairfold_predict": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.c_int, ctypes.POINTER(_vp)]),
    "pairfold_prediction_length": (ctypes.c_int64, [_vp]),
    "pairfold_prediction_bins": (ctypes.c_int, [_vp]),
    "pairfold_prediction_distogram": (c_float_p, [_vp]),
    "pairfold_prediction_contact_probs": (c_float_p, [_vp]),
    "pairfold_prediction_expected_distance": (c_float_p, [_vp]),
    "pairfold_prediction_bin_edges": (c_float_p, [_vp]),
    "pairfold_prediction_chain_index": (c_int32_p, [_vp]),
    "pairfold_prediction_residue_index": (c_int32_p, [_vp]),
    "pairfold_prediction_sequence": (ctypes.c_char_p, [_vp]),
    "pairfold_prediction_write": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]),
    "pairfold_prediction_free": (None, [_vp]),
}

TRAIN, KEEP, DEVICE_PTR = 1, 2, 4
STATUS = {1: "bad argument", 2: "file", 3: "device", 4: "state"}


class PairfoldError(RuntimeError):
    """A failed call into libpairfold: .status is the C status code, the message pairfold's."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def candidates():
    """Where the library is looked for, in order."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    if os.environ.get("PAIRFOLD_LIB"):
        out.append(os.environ["PAIRFOLD_LIB"])
    out.append(os.path.join(here, "libpairfold.so"))                     # bundled by pip install
    out.append(os.path.join(here, "..", "..", "libpairfold.so"))         # python/pairfold in a built checkout
    found = ctypes.util.find_library("pairfold")                         # make install PREFIX=... on the loader path
    if found:
        out.append(found)
    return out


def load():
    tried = []
    for path in candidates():
        if os.path.sep in path and not os.path.isfile(path):
            tried.append(path)
            continue
        lib = ctypes.CDLL(path)
        for name, (res, args) in _API.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        lib.path = path
        return lib
    raise ImportError("libpairfold.so not found (run `make lib` in the repository, or set PAIRFOLD_LIB); tried: "
                      + ", ".join(tried))


LIB = load()

# Set when the interpreter starts to exit. Objects collected after that do not call into
# the library: the CUDA runtime (and PyTorch's context) may be torn down before them, and
# freeing device memory then crashed the process after its last line of output; the
# process is ending, so its memory goes with it.
_EXITING = [False]
atexit.register(lambda: _EXITING.__setitem__(0, True))


def exiting():
    return _EXITING[0]


def check(status):
    if status != 0:
        raise PairfoldError(status, LIB.pairfold_last_error().decode(errors="replace"))
