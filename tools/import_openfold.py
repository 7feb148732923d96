#!/usr/bin/env python3
"""import_openfold.py: an OpenFold (AF2 trunk) or OpenFold3 (AF3 trunk) PyTorch checkpoint
into a pairfold checkpoint directory (model.safetensors + config.json).
Run as `pairfold import-openfold CKPT.pt --out DIR [--preset af2|af3] [--set KEY=VALUE ...]`.

The .pt file is read without PyTorch: torch.save writes a zip holding data.pkl (a
pickle whose tensors refer to storages by persistent id) and data/<key> (each
storage's raw little-endian bytes); a restricted unpickler rebuilds the tensors as
numpy arrays and refuses every other global. pairfold's parameter names follow
OpenFold's, so tensors are matched by name after the model. / module. prefixes;
`pairfold inspect` gives the names and shapes the configuration declares and
`pairfold train --steps 0` its config.json. Every declared tensor must be present
with its shape; OpenFold's 65-bin relative-position projection gains pairfold's
other-chain bin as a zero column (the same function on one chain). Tensors pairfold
has no place for are listed and skipped. Exit status 1 with a message on any error."""
import argparse
import collections
import io
import json
import os
import pickle
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

import numpy as np

STORAGE_DTYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
                  "BFloat16Storage": "bfloat16", "LongStorage": np.int64, "IntStorage": np.int32,
                  "ShortStorage": np.int16, "CharStorage": np.int8, "ByteStorage": np.uint8,
                  "BoolStorage": np.bool_}
PREFIXES = ("model.", "module.", "_orig_mod.")


class ImportError_(Exception):
    pass


class _StorageType:
    def __init__(self, name):
        self.name = name


def _rebuild_tensor(storage, offset, size, stride, *rest):
    """torch._utils._rebuild_tensor_v2: a strided view of a storage, copied out."""
    if not size:
        return np.array(storage[offset] if len(storage) else 0, dtype=storage.dtype)
    item = storage.itemsize
    view = np.lib.stride_tricks.as_strided(storage[offset:], shape=tuple(size), strides=tuple(s * item for s in stride))
    return np.array(view)


class _Unpickler(pickle.Unpickler):
    def __init__(self, f, zf, prefix):
        super().__init__(f)
        self.zf, self.prefix, self.cache = zf, prefix, {}

    def find_class(self, module, name):
        if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_tensor"):
            return _rebuild_tensor
        if module == "torch" and name in STORAGE_DTYPES:
            return _StorageType(name)
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        if module == "torch._utils" and name == "_rebuild_parameter":
            return lambda data, requires_grad, hooks: data
        raise ImportError_(f"the checkpoint's pickle refers to {module}.{name}, which this reader does not load "
                           "(only tensors, dictionaries, lists and numbers are read)")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise ImportError_(f"unknown persistent id {pid!r}")
        stype, key = pid[1], str(pid[2])
        if key not in self.cache:
            raw = self.zf.read(f"{self.prefix}data/{key}")
            dt = STORAGE_DTYPES[stype.name]
            if dt == "bfloat16":  # the upper half of a float32
                arr = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
            else:
                arr = np.frombuffer(raw, dtype=np.dtype(dt).newbyteorder("<"))
            self.cache[key] = arr
        return self.cache[key]


def read_pt(path):
    """The pickled object of a torch.save zip file, tensors as numpy arrays."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise ImportError_(f"{path}: not a PyTorch zip checkpoint ({e}); legacy (pre-1.6) files are not read")
    pkl = [n for n in zf.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
    if len(pkl) != 1:
        raise ImportError_(f"{path}: no data.pkl in the zip (is it a torch.save file?)")
    prefix = pkl[0][: -len("data.pkl")]
    try:
        return _Unpickler(io.BytesIO(zf.read(pkl[0])), zf, prefix).load()
    except ImportError_:
        raise
    except Exception as e:  # noqa: BLE001 - any malformed pickle is the file's fault
        raise ImportError_(f"{path}: cannot read its pickle: {e}")


def state_dict_of(obj, path):
    """The name -> array dictionary inside a checkpoint object."""
    if isinstance(obj, dict):
        for key in ("state_dict", "model", "module"):
            if key in obj and isinstance(obj[key], dict):
                return state_dict_of(obj[key], path)
        if "ema" in obj and isinstance(obj["ema"], dict) and isinstance(obj["ema"].get("params"), dict):
            return state_dict_of(obj["ema"]["params"], path)
        tensors = {k: v for k, v in obj.items() if isinstance(v, np.ndarray)}
        if tensors:
            return tensors
    raise ImportError_(f"{path}: no state dict found (looked for tensors at the top, under state_dict, model, "
                       "module and ema.params)")


def strip(name):
    changed = True
    while changed:
        changed = False
        for p in PREFIXES:
            if name.startswith(p):
                name, changed = name[len(p):], True
    return name


def pairfold_run(pairfold, args):
    r = subprocess.run([pairfold, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise ImportError_(f"pairfold {' '.join(args[:3])} ...: {(r.stderr or r.stdout).strip()}")
    return r.stdout


def declared(pairfold, preset, sets):
    """[(name, shape)] of the configuration, from `pairfold inspect`."""
    out = pairfold_run(pairfold, ["inspect", "--preset", preset, *sum((["--set", s] for s in sets), [])])
    names = []
    for line in out.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        names.append((parts[0], tuple(json.loads(parts[2]))))
    return names


def match(sd, want):
    """pairfold's tensors from the checkpoint's: (tensors, notes), or ImportError_ listing what is wrong."""
    have = {strip(k): v for k, v in sd.items()}
    out, notes, missing, bad = {}, [], [], []
    for name, shape in want:
        v = have.get(name)
        if v is None:
            missing.append(name)
            continue
        v = np.asarray(v, dtype=np.float32)
        if name.endswith("linear_relpos.weight") and v.ndim == 2 and v.shape[0] == shape[0] and v.shape[1] + 1 == shape[1]:
            v = np.concatenate([v, np.zeros((shape[0], 1), np.float32)], axis=1)
            notes.append(f"{name}: {shape[1] - 1} bins + a zero other-chain bin")
        if tuple(v.shape) != tuple(shape):
            bad.append(f"{name}: checkpoint {list(v.shape)}, pairfold {list(shape)}")
            continue
        if not np.all(np.isfinite(v)):
            bad.append(f"{name}: non-finite values")
            continue
        out[name] = np.ascontiguousarray(v)
    if missing or bad:
        msg = []
        if missing:
            msg.append(f"{len(missing)} tensors pairfold needs are not in the checkpoint: " + ", ".join(missing[:8])
                       + (" ..." if len(missing) > 8 else ""))
        if bad:
            msg.append(f"{len(bad)} tensors do not fit: " + "; ".join(bad[:8]) + (" ..." if len(bad) > 8 else ""))
        msg.append("(the configuration comes from --preset and --set: do they match the checkpoint's model?)")
        raise ImportError_("\n".join(msg))
    wanted = {n for n, _ in want}
    unknown = sorted(k for k in have if k not in wanted)
    return out, notes, unknown


def write_safetensors(path, tensors, order, meta):
    """pairfold's checkpoint layout: tensors in declaration order, F32, data_crc32 in the metadata."""
    data, header, off = [], {}, 0
    for name in order:
        b = tensors[name].astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [off, off + len(b)]}
        data.append(b)
        off += len(b)
    crc = 0
    for b in data:
        crc = zlib.crc32(b, crc)
    header["__metadata__"] = dict(meta, data_crc32=f"{crc & 0xffffffff:08x}")
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in data:
            f.write(b)
    os.replace(tmp, path)


def main(argv):
    ap = argparse.ArgumentParser(prog="pairfold import-openfold", description=__doc__.splitlines()[0])
    ap.add_argument("ckpt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--preset", default="af2", choices=["tiny", "af2", "af3"])
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--pairfold", default=os.environ.get("PAIRFOLD_BIN", ""), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    pairfold = a.pairfold or shutil.which("pairfold") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pairfold")
    try:
        sd = state_dict_of(read_pt(a.ckpt), a.ckpt)
        want = declared(pairfold, a.preset, a.set)
        tensors, notes, unknown = match(sd, want)
        os.makedirs(a.out, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:  # the configuration as pairfold writes it
            pairfold_run(pairfold, ["train", "--preset", a.preset, *sum((["--set", s] for s in a.set), []),
                                    "--data", "synthetic", "--steps", "0", "--out", f"{tmp}/run", "--force", "--quiet"])
            cfg = json.load(open(f"{tmp}/run/config.json"))
        write_safetensors(os.path.join(a.out, "model.safetensors"), tensors, [n for n, _ in want],
                          {"format": "pairfold", "format_version": "1", "step": "0", "real": "float32",
                           "trunk": cfg.get("trunk", ""), "config": json.dumps(cfg, separators=(",", ":")),
                           "imported_from": os.path.basename(a.ckpt)})
        tmpc = os.path.join(a.out, f"config.json.tmp.{os.getpid()}")
        with open(tmpc, "w") as f:
            json.dump(cfg, f, indent=1)
        os.replace(tmpc, os.path.join(a.out, "config.json"))
    except ImportError_ as e:
        print(f"pairfold: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"pairfold: error: {e}", file=sys.stderr)
        return 1
    print(f"imported {len(tensors)} tensors ({sum(v.size for v in tensors.values())} parameters) -> {a.out}")
    for n in notes:
        print(f"  adapted: {n}")
    if unknown:
        print(f"  skipped {len(unknown)} checkpoint tensors pairfold has no place for: " + ", ".join(unknown[:10])
              + (" ..." if len(unknown) > 10 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
