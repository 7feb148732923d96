"""test_python_api: libpairfold.so and the Python package (python/pairfold).

The package is installed with pip into a temporary directory (offline:
--no-build-isolation) and imported from there, so the bundled library is the one
tested. The README's example runs as written and must match `pairfold block` to
1e-6; forward, backward and parameter gradients, training-mode dropout, masks and
the MSA stream (Evoformer) are compared with the command too; predict through the
API must give the numbers and files `pairfold predict` gives. Bad input: clear
errors, never a crash. (The PyTorch wrappers in pairfold.torch_ops need torch,
which this machine lacks; tests/test_torch_ops.py runs where it exists.)"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from safetensors.numpy import load_file, save_file

from pftest import ENV, PF, ROOT, check, finish, raises  # noqa: E402


def run(args, cwd):
    r = subprocess.run(args, cwd=cwd, env=ENV, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def maxdiff(a, b):
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max()) if a.size else 0.0


T = tempfile.mkdtemp(prefix="pf_pyapi_")
atexit.register(shutil.rmtree, T, True)
# ---- install: pip builds the package with the library bundled ----
rc, out = run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "--target",
               os.path.join(T, "site"), os.path.join(ROOT, "python")], T)
check(rc == 0, "pip install ./python", out[-800:])
sys.path.insert(0, os.path.join(T, "site"))
os.environ.pop("PAIRFOLD_LIB", None)
import pairfold  # noqa: E402

check(pairfold.library_path.startswith(os.path.join(T, "site")), "the installed package loads its bundled library",
      pairfold.library_path)
check(pairfold.__version__ == re.search(r'PF_VERSION "([^"]+)"', open(ROOT + "/src/core/version.h").read()).group(1),
      "version from the library", pairfold.__version__)
check(pairfold.api_version >= 1, "API version")

# ---- the README example, as written, against `pairfold block` ----
readme = open(os.path.join(ROOT, "README.md")).read()
m = re.search(r"<!-- python-example -->\s*```python\n(.*?)```", readme, re.S)
check(m is not None, "README has the Python example")
code = m.group(1) if m else ""
check(len([l for l in code.splitlines() if l.strip() and not l.startswith("#")]) <= 12, "README example is short")
cwd = os.getcwd()
os.chdir(T)
ns = {}
exec(compile(code, "README.md", "exec"), ns)
os.chdir(cwd)
cmd = re.search(r"# \./pairfold (block .*)", code).group(1).split()
rc, out = run([PF] + cmd, T)
check(rc == 0, "the README's pairfold block command runs", out[-500:])
ref = load_file(os.path.join(T, "out.safetensors")) if rc == 0 else {}
for k in ("z", "s"):
    d = maxdiff(ns["out"][k], ref[k]) if k in ref else 1.0
    check(d <= 1e-6, f"README example: {k} matches pairfold block to 1e-6", f"max |diff| {d:.3g}")
check(float(np.abs(ns["out"]["z"] - ns["x"]["z"]).max()) > 1e-2, "the block changed z (non-trivial weights)")


# ---- forward + backward + parameter gradients, Pairformer and Evoformer ----
DROPOUT = {"dropout_msa": 0.15, "dropout_pair": 0.25}  # the tiny preset has none


def compare_with_cli(kind, N, S, train, seed, tag, masks):
    blk = pairfold.Block(kind, preset="tiny", config=DROPOUT if train else None)
    rng = np.random.default_rng(7)
    w = {k: rng.normal(0, 0.15, s).astype(np.float32) for k, s in blk.param_shapes().items()}
    blk.set_weights(w)
    c = blk.channels
    x = {"z": rng.normal(size=(N, N, c["z"])).astype(np.float32)}
    if kind == "pairformer":
        x["s"] = rng.normal(size=(N, c["s"])).astype(np.float32)
    else:
        x["m"] = rng.normal(size=(S, N, c["m"])).astype(np.float32)
    mk = {}
    if masks:
        mk["pair_mask"] = (rng.random((N, N)) > 0.2).astype(np.float32)
        mk["seq_mask"] = (rng.random(N) > 0.1).astype(np.float32)
        mk["msa_mask"] = (rng.random((S, N)) > 0.2).astype(np.float32)
    d = {"d_" + k: rng.normal(size=v.shape).astype(np.float32) for k, v in x.items()}
    out = blk.forward(**x, **mk, train=train, seed=seed, keep=True)
    g = blk.backward(**d)
    grads = blk.grads()
    save_file(w, f"{T}/{tag}_w.safetensors")
    save_file(dict(x, **mk, **d), f"{T}/{tag}_in.safetensors")
    args = [PF, "block", "--kind", kind, "--preset", "tiny", "--weights", f"{tag}_w.safetensors", "--inputs",
            f"{tag}_in.safetensors", "--out", f"{tag}_out.safetensors", "--backward"]
    if train:
        args += ["--train", "--seed", str(seed)] + [a for k, v in DROPOUT.items() for a in ("--set", f"{k}={v}")]
    rc, o = run(args, T)
    check(rc == 0, f"{tag}: pairfold block --backward runs", o[-400:])
    r = load_file(f"{T}/{tag}_out.safetensors") if rc == 0 else {}
    worst = 0.0
    for k in x:
        worst = max(worst, maxdiff(out[k], r[k]) if k in r else 1.0)
        worst = max(worst, maxdiff(g[k], r["grad." + k]) if "grad." + k in r else 1.0)
    check(worst <= 1e-6, f"{tag}: outputs and input gradients match pairfold block to 1e-6", f"{worst:.3g}")
    gw = max((maxdiff(grads[n], r["grad." + n]) / max(1.0, float(np.abs(r["grad." + n]).max()))
              if "grad." + n in r else 1.0) for n in grads)
    check(gw <= 1e-6, f"{tag}: all {len(grads)} parameter gradients match", f"{gw:.3g}")
    check(any(np.abs(v).max() > 0 for v in grads.values()), f"{tag}: gradients are not all zero")
    return blk, out, x


blk, out1, x1 = compare_with_cli("pairformer", 9, 1, False, 1, "pf_eval", masks=True)
compare_with_cli("evoformer", 7, 5, False, 1, "evo_eval", masks=True)
_, out_t3, _ = compare_with_cli("evoformer", 7, 5, True, 3, "evo_train", masks=False)
_, out_t4, _ = compare_with_cli("evoformer", 7, 5, True, 4, "evo_train4", masks=False)
check(maxdiff(out_t3["m"], out_t4["m"]) > 0, "train=True: another seed gives other dropout masks")

# the state: repeated forwards are the same; gradients accumulate until zero_grad
again = blk.forward(z=x1["z"], s=x1["s"], keep=True)
blk.zero_grad()
blk.backward(d_z=np.ones_like(again["z"]))
g1 = blk.grads()
blk.backward(d_z=np.ones_like(again["z"]))
g2 = blk.grads()
name = next(iter(g1))
check(np.allclose(g2[name], 2 * g1[name], rtol=1e-6, atol=1e-7), "a second backward adds the same gradients")
blk.zero_grad()
check(all(np.abs(v).max() == 0 for v in blk.grads().values()), "zero_grad")

# load_weights: a block's own weights file; and one block of a checkpoint-style file with a prefix
lw = pairfold.Block("pairformer", preset="tiny")
lw.load_weights(f"{T}/pf_eval_w.safetensors")
w_ref = load_file(f"{T}/pf_eval_w.safetensors")
check(all(np.array_equal(lw.get_weights()[k], w_ref[k]) for k in w_ref), "load_weights = the file's tensors")
save_file({"pairformer_stack.blocks.3." + k: v for k, v in w_ref.items()}, f"{T}/ckpt_like.safetensors")
lw2 = pairfold.Block("pairformer", preset="tiny")
lw2.load_weights(f"{T}/ckpt_like.safetensors", prefix="pairformer_stack.blocks.3.")
check(all(np.array_equal(lw2.get_weights()[k], w_ref[k]) for k in w_ref), "load_weights with a prefix")

# ---- DLPack: CPU tensors in without a copy of ours, numpy out that others can share ----
class Tensor:
    """A minimal DLPack producer (what torch / jax CPU tensors look like to us)."""

    def __init__(self, a, device=1):
        self.a, self.device = a, device

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return (self.device, 0)


o = blk.forward(z=Tensor(x1["z"]), s=Tensor(x1["s"]))
check(np.array_equal(o["z"], again["z"]), "DLPack inputs give the numpy result")
check(np.shares_memory(pairfold.from_dlpack(o["z"]), o["z"]), "outputs export through DLPack without a copy")
check(raises(lambda: blk.forward(z=Tensor(x1["z"], device=2)), ValueError, "CPU memory"),
      "a CUDA DLPack tensor is refused with a clear message")
check(np.array_equal(x1["z"], load_file(f"{T}/pf_eval_in.safetensors")["z"]), "the caller's inputs are not overwritten")

# ---- bad input: clear errors ----
E = pairfold.PairfoldError
check(raises(lambda: pairfold.Block("pairformr"), E, "unknown block kind 'pairformr'"), "unknown kind")
check(raises(lambda: pairfold.Block("pairformer", preset="huge"), E, "unknown preset 'huge'"), "unknown preset")
check(raises(lambda: pairfold.Block("pairformer", preset="tiny", config={"c_zz": 4}), E, "c_zz"),
      "unknown config field named")
check(raises(lambda: pairfold.Block("pairformer", preset="tiny", config={"c_z": -4}), E, "c_z"),
      "out-of-range config field named")
check(raises(lambda: pairfold.Backend("tpu"), E, "tpu"), "unknown device named")
check(raises(lambda: blk.forward(z=np.zeros((4, 5, 32))), ValueError, "(N, N, c_z)"), "non-square z")
check(raises(lambda: blk.forward(z=np.zeros((4, 4, 31))), ValueError, "expected (4, 4, 32)"), "wrong channels")
check(raises(lambda: blk.forward(z=np.zeros((4, 4, 32)), pair_mask=np.ones((3, 3))), ValueError, "pair_mask"),
      "wrong mask shape")
fresh = pairfold.Block("pairformer", preset="tiny")
fresh.forward(z=np.zeros((4, 4, 32)))  # not kept
check(raises(lambda: fresh.backward(d_z=np.zeros((4, 4, 32))), E, "PAIRFOLD_KEEP"), "backward without a kept forward")
try:
    fresh.backward(d_z=np.zeros((4, 4, 32)))
except E as e:
    check(e.status == 4, "status code PAIRFOLD_ERR_STATE", str(e.status))
check(raises(lambda: fresh.set_weights({"nope.weight": np.zeros(3)}, strict=False), E, "no parameter 'nope.weight'"),
      "unknown parameter named")
check(raises(lambda: fresh.load_weights(f"{T}/evo_eval_w.safetensors"), E, "evo_eval_w.safetensors: tensor"),
      "weights of another block: the missing tensor and the file named")
check(raises(lambda: fresh.load_weights(f"{T}/missing.safetensors"), E, "missing.safetensors"), "missing file named")

# ---- predict: the API gives what `pairfold predict` gives ----
SEQ = "MVLSEGEWQLVLHVWAKVEADVAGHGQDILIRLFKSHPETLEKFDRFKHLKTEAEMKASEDLKKAGVTVL"  # 70 residues of 102M: fast
MSA = f"{T}/q.a3m"
open(MSA, "w").write(f">q\n{SEQ}\n>hit\n{SEQ[:20]}--{SEQ[22:40]}aa{SEQ[40:]}\n>hit2\n{SEQ[:10]}kk{SEQ[10:]}\n")
rc, o = run([PF, "train", "--preset", "tiny", "--data", "synthetic", "--steps", "2", "--set", "val_every=0",
             "--out", f"{T}/run", "--quiet"], T)
check(rc == 0, "a tiny checkpoint for predict", o[-300:])
# one block of the trained checkpoint, by prefix: the API and `pairfold block --prefix` agree
ck = f"{T}/run/checkpoints/step_000002/model.safetensors"
evo = pairfold.Block("evoformer", preset="tiny")
evo.load_weights(ck, prefix="evoformer.blocks.1.")
check(all(np.array_equal(v, load_file(ck)["evoformer.blocks.1." + k]) for k, v in evo.get_weights().items()),
      "load_weights from a checkpoint's model.safetensors with a prefix")
rng = np.random.default_rng(5)
xe = {"z": rng.normal(size=(6, 6, 32)).astype(np.float32), "m": rng.normal(size=(3, 6, 32)).astype(np.float32)}
oe = evo.forward(**xe)
save_file(xe, f"{T}/ck_in.safetensors")
rc, o = run([PF, "block", "--kind", "evoformer", "--preset", "tiny", "--weights", ck, "--prefix", "evoformer.blocks.1.",
             "--inputs", "ck_in.safetensors", "--out", "ck_out.safetensors"], T)
r = load_file(f"{T}/ck_out.safetensors") if rc == 0 else {}
check(rc == 0 and maxdiff(oe["z"], r["z"]) <= 1e-6 and maxdiff(oe["m"], r["m"]) <= 1e-6,
      "a checkpoint's block: API = pairfold block --prefix", o[-300:])
rc, o = run([PF, "predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/cli.safetensors", "--set",
             "msa_rows=8", "--formats", "npz,csv", "--contacts-top", "40"], T)
check(rc == 0, "pairfold predict --formats npz,csv", o[-300:])
p = pairfold.predict(f"{T}/run", alignment=MSA, msa_rows=8)
cli = load_file(f"{T}/cli.safetensors") if rc == 0 else {}
same = bool(cli) and all(np.array_equal(a, cli[k]) for a, k in (
    (p.distogram, "distogram_probs"), (p.contact_probs, "contact_probability_8A"),
    (p.expected_distance, "expected_distance"), (p.bin_edges, "bin_edges"), (p.chain_index, "chain_index"),
    (p.residue_index, "residue_index")))
check(same, "pairfold.predict = pairfold predict, every array")
check(p.distogram.shape == (70, 70, 64) and p.sequence == SEQ, "prediction shape and sequence")
p.write(f"{T}/api.csv", "csv", top=40)
p.write(f"{T}/api.npz", "npz")
check(os.path.exists(f"{T}/cli.contacts.csv") and open(f"{T}/api.csv").read() == open(f"{T}/cli.contacts.csv").read(),
      "CSV through the API = predict --formats csv")
za, zc = np.load(f"{T}/api.npz"), np.load(f"{T}/cli.distogram.npz")
check(all(np.array_equal(za[k], zc[k]) for k in zc.files) and np.array_equal(za["distogram"], p.distogram),
      "npz through the API = predict --formats npz")
seq = p.sequence
q = pairfold.predict(f"{T}/run", sequence=seq, recycles=0)
check(q.distogram.shape == (70, 70, 64) and abs(float(q.distogram.sum(-1).mean()) - 1) < 1e-4,
      "predict from a sequence")
check(raises(lambda: pairfold.predict(f"{T}/run", sequence="MK1V"), E, "sequence"), "a bad sequence is an error")
check(raises(lambda: pairfold.predict(f"{T}/nowhere", sequence=seq), E, "nowhere"), "a missing checkpoint named")
check(raises(lambda: pairfold.predict(f"{T}/run", alignment=MSA, msa_rows=0), E, "msa_rows"), "a bad setting named")
check(raises(lambda: p.write(f"{T}/x.pdf", "pdf"), E, "unknown format 'pdf'"), "an unknown format")

finish()
