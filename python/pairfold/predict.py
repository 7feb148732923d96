"""predict: a query's distogram with a checkpoint's weights (`pairfold predict`)."""
import ctypes

import numpy as np

from ._lib import LIB, check, exiting
from .tensors import view


class Prediction:
    """distogram (N, N, bins) probabilities, contact_probs (N, N) = P(d < 8 A),
    expected_distance (N, N) in Angstrom, bin_edges (bins - 1), chain_index and
    residue_index (N, 0-based), sequence."""

    def __init__(self, h):
        self._h = h
        N, B = LIB.pairfold_prediction_length(h), LIB.pairfold_prediction_bins(h)
        self.distogram = view(LIB.pairfold_prediction_distogram(h), (N, N, B), np.float32)
        self.contact_probs = view(LIB.pairfold_prediction_contact_probs(h), (N, N), np.float32)
        self.expected_distance = view(LIB.pairfold_prediction_expected_distance(h), (N, N), np.float32)
        self.bin_edges = view(LIB.pairfold_prediction_bin_edges(h), (B - 1,), np.float32)
        self.chain_index = view(LIB.pairfold_prediction_chain_index(h), (N,), np.int32)
        self.residue_index = view(LIB.pairfold_prediction_residue_index(h), (N,), np.int32)
        self.sequence = LIB.pairfold_prediction_sequence(h).decode()

    def write(self, path, format="safetensors", top=0):
        """format: "safetensors", "npz" (AlphaFold 3 distogram.npz: key "distogram"),
        "rr" (CASP RR contacts), "csv" (contacts); top: contacts kept (0: P >= 0.01)."""
        check(LIB.pairfold_prediction_write(self._h, str(path).encode(), format.encode(), int(top)))

    def __del__(self):
        h, self._h = getattr(self, "_h", None), None
        if h and LIB is not None and not exiting():
            LIB.pairfold_prediction_free(h)


def predict(ckpt, alignment=None, sequence=None, backend=None, msa_rows=None, extra_msa_rows=None, recycles=None,
            raw_weights=False):
    """The distogram of alignment (a file: A3M, Stockholm, FASTA, .gz) or of a single
    sequence, with the checkpoint's weights (EMA unless raw_weights)."""
    if (alignment is None) == (sequence is None):
        raise ValueError("give one of alignment= and sequence=")
    sets = ",".join(f"{k}={int(v)}" for k, v in (("msa_rows", msa_rows), ("extra_msa_rows", extra_msa_rows),
                                                   ("recycles", recycles)) if v is not None)
    h = ctypes.c_void_p()
    check(LIB.pairfold_predict(backend._h if backend is not None else None, str(ckpt).encode(),
                               str(alignment).encode() if alignment is not None else None,
                               sequence.encode() if sequence is not None else None, sets.encode() or None,
                               1 if raw_weights else 0, ctypes.byref(h)))
    return Prediction(h)
