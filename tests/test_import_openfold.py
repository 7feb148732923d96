"""pairfold import-openfold: a checkpoint written in torch.save's zip format (built here
without PyTorch: the pickle names torch._utils._rebuild_tensor_v2 and torch.*Storage
exactly as torch.save does, the storages are raw little-endian files) with OpenFold's
names (model. prefix, under state_dict, a 65-bin relpos, extra heads pairfold lacks,
a transposed view and a bfloat16 tensor) converts to a pairfold checkpoint whose
tensors equal the originals, which `predict` loads; missing or misshapen tensors,
non-zip files and foreign pickle globals are refused with messages.
Prints failures only and "N passed, M failed"."""
import atexit
import collections
import os
import pickle
import shutil
import sys
import tempfile
import types
import zipfile

import numpy as np
from safetensors.numpy import load_file

from pftest import check, finish, run  # noqa: E402

# Stand-ins for torch's globals, so this pickle names them as torch.save does.
torch_mod, utils_mod = types.ModuleType("torch"), types.ModuleType("torch._utils")


def _rebuild_tensor_v2(*args):
    raise RuntimeError("never called here")


_rebuild_tensor_v2.__module__ = "torch._utils"
utils_mod._rebuild_tensor_v2 = _rebuild_tensor_v2
STORAGE = {}
for nm in ("FloatStorage", "BFloat16Storage"):
    cls = type(nm, (), {"__module__": "torch"})
    setattr(torch_mod, nm, cls)
    STORAGE[nm] = cls
sys.modules.setdefault("torch", torch_mod)
sys.modules.setdefault("torch._utils", utils_mod)


class Storage:
    def __init__(self, key, kind, raw, numel):
        self.key, self.kind, self.raw, self.numel = key, kind, raw, numel


class Tensor:
    def __init__(self, storage, offset, shape, stride):
        self.args = (storage, offset, tuple(shape), tuple(stride), False, collections.OrderedDict())

    def __reduce__(self):
        return (_rebuild_tensor_v2, self.args)


class TorchPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", STORAGE[obj.kind], obj.key, "cpu", obj.numel)
        return None


def save_pt(path, obj, storages):
    buf = open(path + ".pkl", "wb")
    TorchPickler(buf, protocol=2).dump(obj)
    buf.close()
    with zipfile.ZipFile(path, "w") as z:
        z.write(path + ".pkl", "archive/data.pkl")
        z.writestr("archive/version", "3\n")
        z.writestr("archive/byteorder", "little")
        for s in storages:
            z.writestr(f"archive/data/{s.key}", s.raw)
    os.remove(path + ".pkl")



T = tempfile.mkdtemp(prefix="pf_import_")
atexit.register(shutil.rmtree, T, True)
rc, out = run("inspect", "--preset", "tiny")
want = [(l.split()[0], tuple(int(x) for x in l.split(None, 2)[2].strip("[]").split(",") if x.strip()))
        for l in out.splitlines() if l.strip() and not l.startswith("#")]
check(rc == 0 and len(want) > 100, "pairfold inspect --preset tiny", out[-200:])


def build(drop=None, reshape=None):
    """An OpenFold-style training checkpoint of the tiny preset's tensors; returns (obj, storages, originals)."""
    rng = np.random.default_rng(3)
    sd, storages, orig = collections.OrderedDict(), [], {}
    for k, (name, shape) in enumerate(want):
        if name == drop:
            continue
        if name.endswith("linear_relpos.weight"):
            shape = (shape[0], shape[1] - 1)  # OpenFold's 65 bins, no other-chain bin
        if name == reshape:
            shape = tuple(s + 1 for s in shape)
        v = rng.standard_normal(shape).astype(np.float32)
        if k == 3 and len(shape) == 2:  # stored transposed: a strided view of its storage
            s = Storage(str(k), "FloatStorage", np.ascontiguousarray(v.T).astype("<f4").tobytes(), v.size)
            t = Tensor(s, 0, shape, (1, shape[0]))
        elif k == 5:  # bfloat16: values with 8 mantissa bits survive exactly
            v = (v.view(np.uint32) & 0xFFFF0000).view(np.float32)
            s = Storage(str(k), "BFloat16Storage", (v.view(np.uint32) >> 16).astype("<u2").tobytes(), v.size)
            t = Tensor(s, 0, shape, tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape))))
        else:
            s = Storage(str(k), "FloatStorage", v.astype("<f4").tobytes(), v.size)
            t = Tensor(s, 0, shape, tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape))))
        storages.append(s)
        sd["model." + name] = t
        orig[name] = v
    extra = Storage("x", "FloatStorage", np.zeros(4, "<f4").tobytes(), 4)
    storages.append(extra)
    sd["model.aux_heads.experimentally_resolved.linear.weight"] = Tensor(extra, 0, (2, 2), (2, 1))
    return {"state_dict": sd, "epoch": 3, "global_step": 10}, storages, orig


obj, storages, orig = build()
save_pt(f"{T}/of.pt", obj, storages)
rc, out = run("import-openfold", f"{T}/of.pt", "--out", f"{T}/ck", "--preset", "tiny")
check(rc == 0 and "imported" in out and "experimentally_resolved" in out and "other-chain" in out,
      "import-openfold converts, lists the skipped tensor and the relpos column", out[-500:])
if rc == 0:
    got = load_file(f"{T}/ck/model.safetensors")
    bad = []
    for name, v in orig.items():
        g = got.get(name)
        ref = np.concatenate([v, np.zeros((v.shape[0], 1), np.float32)], 1) if name.endswith("linear_relpos.weight") else v
        if g is None or g.shape != ref.shape or not np.array_equal(g, ref):
            bad.append(name)
    check(not bad and len(got) == len(want), "every tensor equals the checkpoint's (transposed view, bfloat16, relpos padded)",
          f"{bad[:5]} / {len(got)} vs {len(want)}")
    seq = "MVLSEGEWQLVLHVWAKVEADVAGHGQDILIRLF"
    open(f"{T}/q.fasta", "w").write(">q\n" + seq + "\n")
    rc, out = run("predict", "--ckpt", f"{T}/ck", "--msa", f"{T}/q.fasta", "--out", f"{T}/p.safetensors")
    check(rc == 0 and os.path.exists(f"{T}/p.safetensors"), "predict loads the imported checkpoint", out[-300:])

# refusals
obj, storages, _ = build(drop=want[7][0])
save_pt(f"{T}/miss.pt", obj, storages)
rc, out = run("import-openfold", f"{T}/miss.pt", "--out", f"{T}/m", "--preset", "tiny")
check(rc == 1 and "not in the checkpoint" in out and want[7][0] in out, "a missing tensor is named", out[-300:])
obj, storages, _ = build(reshape=want[9][0])
save_pt(f"{T}/shape.pt", obj, storages)
rc, out = run("import-openfold", f"{T}/shape.pt", "--out", f"{T}/s", "--preset", "tiny")
check(rc == 1 and "do not fit" in out and want[9][0] in out, "a misshapen tensor is named with both shapes", out[-300:])
rc, out = run("import-openfold", f"{T}/shape.pt", "--out", f"{T}/s2", "--preset", "af2")
check(rc == 1 and "do not fit" in out, "the wrong preset is refused", out[-200:])
open(f"{T}/junk.pt", "wb").write(b"not a zip at all")
rc, out = run("import-openfold", f"{T}/junk.pt", "--out", f"{T}/j")
check(rc == 1 and "not a PyTorch zip" in out, "a file that is not a torch.save zip", out[-200:])
with zipfile.ZipFile(f"{T}/evil.pt", "w") as z:
    z.writestr("archive/data.pkl", pickle.dumps(os.getcwd, protocol=2))
rc, out = run("import-openfold", f"{T}/evil.pt", "--out", f"{T}/e")
check(rc == 1 and "does not load" in out and not os.path.exists(f"{T}/e/model.safetensors"),
      "a pickle naming another global is refused", out[-200:])
rc, out = run("import-openfold")
check(rc == 2 and "usage" in out, "no arguments: usage", out[-200:])
finish()
