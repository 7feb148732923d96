"""test_import_openfold_torch: the `pairfold import-openfold` round trip with a real
torch.save file. A PyTorch nn.Module is built whose state_dict carries the whole
model's tensors under OpenFold / OpenFold3 names (the names and shapes pairfold
declares, `pairfold inspect`; for the AF2 preset the relative-position projection
in OpenFold's 65-bin form, plus a tensor pairfold has no place for), with random
weights; its forward runs one trunk block (AF3 Pairformer, AF2 Evoformer) with the
PyTorch reference of bench/torch_blocks.py on the module's own parameters. Then:
  torch.save({"state_dict": {"model." + name: tensor}}) -> pairfold import-openfold
  -> model.safetensors -> pairfold.Block(...).load_weights(prefix=block) -> forward
and the engine's block output is compared with the module's (float64 PyTorch) on the
same inputs: CPU float32 within 1e-4 (tests/cuda/parity.py's CPU tolerance), and
every imported tensor equals the module's. When the library has CUDA and a GPU is
visible, the same block also runs on "cuda-fp32" (1e-4).

Needs torch and a built pairfold (PAIRFOLD=path, default ./pairfold) and
libpairfold.so (PAIRFOLD_LIB, default ./libpairfold.so):
    python3 tests/torch/test_import_openfold_torch.py"""
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
_spec = importlib.util.spec_from_file_location("pftest", os.path.join(ROOT, "tests", "pftest.py"))
pftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pftest)
check, finish = pftest.check, pftest.finish
try:
    import torch
except ImportError:
    print("torch is not installed: nothing run")
    print("0 passed, 0 failed")
    sys.exit(0)
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("PAIRFOLD_LIB", os.path.join(ROOT, "libpairfold.so"))
PF = os.path.abspath(os.environ.get("PAIRFOLD", os.path.join(ROOT, "pairfold")))
import block_params  # noqa: E402
import torch_blocks as tb  # noqa: E402
import pairfold  # noqa: E402
from safetensors.numpy import load_file  # noqa: E402

DIMS = dict(c_z=16, c_s=24, c_m=12, heads_pair=2, c_h_pair=8, heads_single=3, c_h_single=8, heads_msa=2,
            c_h_msa=6, c_trimul=8, c_opm=4, transition_n=2)
SETS = dict(DIMS, n_blocks=2)


class OpenFoldStyle(torch.nn.Module):
    """Parameters under dotted OpenFold names (nested submodules, so state_dict() has
    exactly these keys); forward(block i) runs that trunk block."""

    def __init__(self, shapes, kind, stack, gen):
        super().__init__()
        self._kind, self._stack = kind, stack
        for name, shape in shapes.items():
            mod = self
            *path, leaf = name.split(".")
            for part in path:
                if part not in mod._modules:
                    mod.add_module(part, torch.nn.Module())
                mod = mod._modules[part]
            t = torch.randn(shape, generator=gen, dtype=torch.float64) * 0.3
            if "layer_norm" in name and name.endswith(".weight"):
                t = 1 + 0.1 * t
            elif len(shape) == 2:
                t = t / shape[1] ** 0.5 * 3
            mod.register_parameter(leaf, torch.nn.Parameter(t.float()))

    def block_params(self, i):
        pre = f"{self._stack}.blocks.{i}."
        return {k[len(pre):]: v for k, v in self.state_dict().items() if k.startswith(pre)}

    def forward(self, i, ins, masks):
        p = {k: v.double() for k, v in self.block_params(i).items()}
        d = dict(DIMS, dropout={})
        if self._kind == "pairformer":
            s, z = tb.pairformer_block(ins["s"], ins["z"], masks["seq_mask"], masks["pair_mask"], p, d)
            return {"s": s, "z": z}
        m, z = tb.evoformer_block(ins["m"], ins["z"], masks["msa_mask"], masks["pair_mask"], p, d)
        return {"m": m, "z": z}


def declared(preset):
    cmd = [PF, "inspect", "--preset", preset] + sum((["--set", f"{k}={v}"] for k, v in SETS.items()), [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()[-400:]}")
    return block_params.parse_inspect(r.stdout)


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30))


gen = torch.Generator().manual_seed(2024)
devices = ["cpu"]
if torch.cuda.is_available():
    try:
        pairfold.Backend("cuda-fp32")
        devices.append("cuda-fp32")
    except pairfold.PairfoldError as e:
        print(f"cuda-fp32 not run: {e}")
for kind, preset, stack, N, S in (("pairformer", "af3", "pairformer_stack", 13, 1), ("evoformer", "af2", "evoformer", 11, 4)):
    tag = f"{kind}/{preset}"
    shapes = declared(preset)
    model = OpenFoldStyle(shapes, kind, stack, gen)
    sd = model.state_dict()
    check(set(sd) == set(shapes), f"{tag}: the module's state_dict has pairfold's names")
    saved = {"model." + k: v.clone() for k, v in sd.items()}
    relpos = [k for k in sd if k.endswith("linear_relpos.weight")]
    if preset == "af2":  # OpenFold's 65 relative-position bins (pairfold adds an other-chain bin)
        for k in relpos:
            saved["model." + k] = sd[k][:, :-1].clone()
    saved["model.aux_heads.tm.linear.weight"] = torch.zeros(3, 4)
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = os.path.join(tmp, "openfold.pt")
        torch.save({"state_dict": saved, "global_step": 7}, ckpt)
        env = dict(os.environ, PAIRFOLD_IMPORT=os.path.join(ROOT, "tools", "import_openfold.py"), PAIRFOLD_BIN=PF)
        cmd = [PF, "import-openfold", ckpt, "--out", os.path.join(tmp, "imp"), "--preset", preset]
        cmd += sum((["--set", f"{k}={v}"] for k, v in SETS.items()), [])
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        check(r.returncode == 0, f"{tag}: import-openfold", (r.stdout + r.stderr)[-600:])
        if r.returncode != 0:
            continue
        check("skipped 1" in r.stdout and "aux_heads.tm.linear.weight" in r.stdout, f"{tag}: unknown tensor listed",
              r.stdout[-300:])
        st = load_file(os.path.join(tmp, "imp", "model.safetensors"))
        same = all(np.array_equal(st[k][:, :-1] if k in relpos and preset == "af2" else st[k],
                                  (sd[k][:, :-1] if k in relpos and preset == "af2" else sd[k]).numpy()) for k in sd)
        check(set(st) == set(sd) and same, f"{tag}: every imported tensor = the module's")
        if preset == "af2":
            check(all(np.all(st[k][:, -1] == 0) for k in relpos), f"{tag}: relpos other-chain column zero")

        tok = torch.ones(N, dtype=torch.float64)
        tok[[2, N - 3]] = 0
        rows = torch.ones(S, dtype=torch.float64)
        if S > 1:
            rows[S - 1] = 0
        masks = {"msa_mask": rows[:, None] * tok[None, :], "pair_mask": tok[:, None] * tok[None, :], "seq_mask": tok}
        rnd = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64).float().double()  # noqa: E731
        ins = {"z": rnd(N, N, DIMS["c_z"])}
        if kind == "pairformer":
            ins["s"] = rnd(N, DIMS["c_s"])
        else:
            ins["m"] = rnd(S, N, DIMS["c_m"])
        with torch.no_grad():
            ref = {k: v.numpy() for k, v in model(1, ins, masks).items()}
        for dev in devices:
            blk = pairfold.Block(kind, preset=preset, config=DIMS, device=dev)
            blk.load_weights(os.path.join(tmp, "imp", "model.safetensors"), prefix=f"{stack}.blocks.1.")
            args = {k: v.numpy().astype(np.float32) for k, v in ins.items()}
            mk = {k: v.numpy().astype(np.float32) for k, v in masks.items()}
            if kind == "pairformer":
                out = blk.forward(z=args["z"], s=args["s"], pair_mask=mk["pair_mask"], seq_mask=mk["seq_mask"])
            else:
                out = blk.forward(z=args["z"], m=args["m"], msa_mask=mk["msa_mask"], pair_mask=mk["pair_mask"])
            for k, v in ref.items():
                e = rel(out[k], v)
                check(e < 1e-4, f"{tag} {dev}: block output {k} = the PyTorch module (float64)", f"rel err {e:.3g}")
                print(f"{tag} {dev} {k}: rel err {e:.3g}")
finish()
