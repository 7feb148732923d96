"""Load a pairfold checkpoint with Python's `safetensors` (numpy backend) and
check names, dtypes and shapes against the configuration saved beside it."""
import json
import os
import sys

from safetensors.numpy import load_file
from safetensors import safe_open


def main(run_dir):
    latest = open(os.path.join(run_dir, "latest")).read().strip()
    step_dir = os.path.join(run_dir, latest)
    path = os.path.join(step_dir, "model.safetensors")
    tensors = load_file(path)
    with safe_open(path, framework="numpy") as f:
        meta = f.metadata()
    cfg = json.load(open(os.path.join(step_dir, "config.json")))
    assert meta["format"] == "pairfold" and meta["format_version"] == "1", meta
    cm, cz = cfg["c_m"], cfg["c_z"]
    expect = {}
    if cfg["trunk"] == "evoformer":
        hc = cfg["heads_msa"] * cfg["c_h_msa"]
        expect = {
            "evoformer.blocks.0.msa_att_row.mha.linear_q.weight": (hc, cm),
            "evoformer.blocks.0.msa_att_row.linear_z.weight": (cfg["heads_msa"], cz),
            "evoformer.blocks.0.pair_stack.tri_mul_out.linear_a_p.weight": (cfg["c_trimul"], cz),
            "evoformer.blocks.0.pair_stack.tri_att_start.mha.linear_o.weight": (cz, cfg["heads_pair"] * cfg["c_h_pair"]),
            "evoformer.blocks.0.outer_product_mean.linear_out.weight": (cz, cfg["c_opm"] ** 2),
            "evoformer.blocks.0.pair_stack.pair_transition.linear_1.weight": (cfg["transition_n"] * cz, cz),
            "input_embedder.linear_relpos.weight": (cz, 66),
            "aux_heads.distogram.linear.weight": (cfg["n_bins"], cz),
        }
    else:
        expect = {
            "pairformer_stack.blocks.0.pair_stack.tri_att_start.mha.linear_q.weight": (cfg["heads_pair"] * cfg["c_h_pair"], cz),
            "pairformer_stack.blocks.0.attn_pair_bias.mha.linear_q.bias": (cfg["heads_single"] * cfg["c_h_single"],),
            "pairformer_stack.blocks.0.pair_transition.swiglu.linear_a.weight": (cfg["transition_n"] * cz, cz),
            "aux_heads.distogram.linear.weight": (cfg["n_bins"], cz),
        }
    bad = 0
    for name, shape in expect.items():
        if name not in tensors:
            print("missing", name)
            bad += 1
        elif tuple(tensors[name].shape) != shape or str(tensors[name].dtype) != "float32":
            print("wrong", name, tensors[name].shape, tensors[name].dtype, "expected", shape)
            bad += 1
    # every block has the same set of tensors, numbered from 0
    nblocks = cfg["n_blocks"]
    stack = "evoformer" if cfg["trunk"] == "evoformer" else "pairformer_stack"
    for i in range(nblocks):
        names0 = {k.split(".", 3)[3] for k in tensors if k.startswith(f"{stack}.blocks.0.")}
        namesi = {k.split(".", 3)[3] for k in tensors if k.startswith(f"{stack}.blocks.{i}.")}
        if names0 != namesi:
            print("block", i, "differs from block 0")
            bad += 1
    opt = load_file(os.path.join(step_dir, "optimizer.safetensors"))
    for name in tensors:
        for s in (".exp_avg", ".exp_avg_sq"):
            if name + s not in opt or opt[name + s].shape != tensors[name].shape:
                print("optimizer state missing", name + s)
                bad += 1
    print(f"{len(tensors)} tensors, {sum(t.size for t in tensors.values())} parameters, step {meta['step']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
