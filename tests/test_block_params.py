"""test_block_params: the PyTorch reference takes its parameter names and shapes
from `pairfold inspect` (bench/block_params.py). Checked without torch: the
dims reach pairfold (--set), block 0 of the right stack is extracted (not block
10, not the other stack), the inspect format is parsed strictly."""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
from pftest import check, finish, raises  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench"))
import block_params as bp  # noqa: E402



PF = os.path.join(ROOT, "pairfold")
DIMS = dict(c_z=24, c_s=40, c_m=20, heads_pair=3, c_h_pair=8, heads_single=4, c_h_single=10, heads_msa=4,
            c_h_msa=6, c_trimul=12, c_opm=5, transition_n=4)
for kind, first in (("pairformer", "pair_stack.tri_mul_out.layer_norm_in.weight"),
                    ("evoformer", "msa_att_row.layer_norm_m.weight")):
    shapes = bp.inspect_block_shapes(kind, DIMS, PF)
    check(next(iter(shapes)) == first, f"{kind}: first parameter in declaration order", next(iter(shapes)))
    check(all(isinstance(s, tuple) and 1 <= len(s) <= 2 and all(d > 0 for d in s) for s in shapes.values()),
          f"{kind}: shapes are tuples of positive ints")
    check(not any(".blocks." in n for n in shapes), f"{kind}: names are relative to the block")
    # the dims reach pairfold: c_z and c_trimul of the pair stack follow --set
    tm = "pair_stack.tri_mul_out.linear_a_p.weight"
    check(shapes.get(tm) == (12, 24), f"{kind}: {tm} is (c_trimul, c_z)", str(shapes.get(tm)))
    other = bp.inspect_block_shapes(kind, dict(DIMS, c_z=20, c_trimul=7), PF)
    check(other.get(tm) == (7, 20), f"{kind}: --set c_z=20 c_trimul=7 changes {tm}", str(other.get(tm)))
    check(set(other) == set(shapes), f"{kind}: the same names for other dims")
ev, pf = bp.inspect_block_shapes("evoformer", DIMS, PF), bp.inspect_block_shapes("pairformer", DIMS, PF)
check("outer_product_mean.linear_out.weight" in ev and "outer_product_mean.linear_out.weight" not in pf,
      "evoformer and pairformer blocks are told apart")
check(pf.get("attn_pair_bias.linear_z.weight") == (4, 24), "pairformer single attention bias is (heads_single, c_z)")

# block 0 only: block 10's and another stack's tensors are left out
text = ("# preset tiny, trunk pairformer\n"
        "pairformer_stack.blocks.0.a.weight   F32   [3, 4]\n"
        "pairformer_stack.blocks.10.a.weight  F32   [5, 6]\n"
        "msa_module.blocks.0.a.weight         F32   [7]\n"
        "pairformer_stack.blocks.0.a.bias     F32   [3]\n"
        "# 4 tensors, 48 elements\n")
check(bp.block_shapes(text, "pairformer") == {"a.weight": (3, 4), "a.bias": (3,)}, "block 0 of the right stack only",
      str(bp.block_shapes(text, "pairformer")))
check(raises(lambda: bp.parse_inspect("# x\nfoo.weight F32 [3, x]\n"), ValueError, "line 2"),
      "a malformed line is an error naming its line")
check(raises(lambda: bp.block_shapes(text, "evoformer"), ValueError, "evoformer.blocks.0."),
      "a block absent from the output is an error")
check(raises(lambda: bp.block_shapes(text, "structure"), ValueError, "unknown block kind"), "unknown kind refused")
check(raises(lambda: bp.inspect_block_shapes("pairformer", dict(DIMS, no_such_field=1), PF), RuntimeError, "failed"),
      "a pairfold error is reported")
finish()
