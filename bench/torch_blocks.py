"""PyTorch reference of pairfold's trunk blocks (AF3 Pairformer, AF2 Evoformer),
written from the papers' algorithms with the same parameter names as pairfold
(OpenFold / OpenFold3 names, relative to the block). Eager PyTorch, functional:
`params` maps names to tensors; their names and shapes come from pairfold itself
(`pairfold inspect`, see random_params). Used for parity tests (tests/cuda/parity.py)
and as the PyTorch baseline of the block benchmark (bench/compare_blocks.py).

Conventions shared with pairfold (src/backend/modules.h): LayerNorm eps 1e-5;
attention logits of masked keys are replaced by -1e9; outer product mean divides
by 1e-3 + sum_s mask_si mask_sj. No dropout (evaluation), unless the dims dict
`d` has "dropout": {step name: mask}, the masks `pairfold block --train` wrote
(dropout.<step name>); each step's update is then multiplied by its mask."""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block_params  # noqa: E402


# NVIDIA cuEquivariance kernels in place of the triangle attention core and the
# triangle multiplication (bench/compare_blocks.py --impl cueq): the stack Boltz-2
# and Protenix users run. Off by default: the parity reference is plain PyTorch.
CUEQ = False


def _cueq():
    import cuequivariance_ops_torch as cq
    return cq


def ln(x, p, name):
    return F.layer_norm(x, (x.shape[-1],), p[name + ".weight"], p[name + ".bias"], eps=1e-5)


def lin(x, p, name):
    y = x @ p[name + ".weight"].t()
    b = p.get(name + ".bias")
    return y + b if b is not None else y


def attention(x, z, key_mask, p, pre, H, c_h, bias, transpose, names):
    """Gated MHA (AF2 Alg. 7/8/13/14, AF3 Alg. 24). x (B, L, c) or (L, B, c) when
    transposed; key_mask in x's layout without channels; bias: None | 'pair' | 'self'."""
    ln_name, lnz_name, bias_name = names
    if transpose:
        x, key_mask = x.transpose(0, 1), key_mask.transpose(0, 1)
    B, L, _ = x.shape
    xl = ln(x, p, f"{pre}.{ln_name}")
    def heads(t):
        return t.reshape(B, L, H, c_h).permute(0, 2, 1, 3)
    q = heads(lin(xl, p, f"{pre}.mha.linear_q")) / math.sqrt(c_h)
    k = heads(lin(xl, p, f"{pre}.mha.linear_k"))
    v = heads(lin(xl, p, f"{pre}.mha.linear_v"))
    g = torch.sigmoid(lin(xl, p, f"{pre}.mha.linear_g"))
    if CUEQ and bias == "self":  # triangle attention: the fused kernel, logits never stored
        b = lin(xl, p, f"{pre}.{bias_name}").permute(2, 0, 1)[None, None].float().contiguous()  # (1, 1, H, L, L)
        o = _cueq().triangle_attention(q[None].contiguous(), k[None].contiguous(), v[None].contiguous(), b,
                                       mask=(key_mask != 0)[None, :, None, None, :], scale=1.0)[0]  # (B, H, L, c_h)
        out = lin(g * o.permute(0, 2, 1, 3).reshape(B, L, H * c_h), p, f"{pre}.mha.linear_o")
        return out.transpose(0, 1) if transpose else out
    logits = q @ k.transpose(-1, -2)  # (B, H, L, L)
    if bias == "pair":
        logits = logits + lin(ln(z, p, f"{pre}.{lnz_name}"), p, f"{pre}.{bias_name}").permute(2, 0, 1)[None]
    elif bias == "self":
        logits = logits + lin(xl, p, f"{pre}.{bias_name}").permute(2, 0, 1)[None]
    logits = logits.masked_fill(key_mask[:, None, None, :] == 0, -1e9)
    o = (torch.softmax(logits, dim=-1) @ v).permute(0, 2, 1, 3).reshape(B, L, H * c_h)
    out = lin(g * o, p, f"{pre}.mha.linear_o")
    return out.transpose(0, 1) if transpose else out


def trimul(z, mask, p, pre, incoming):
    """AF2 Alg. 11/12, AF3 Alg. 12/13."""
    if CUEQ:  # the fused triangle multiplication; a/b projections packed as it expects
        def cat(a, b):
            ta, tb_ = p.get(f"{pre}.{a}"), p.get(f"{pre}.{b}")
            return None if ta is None else torch.cat([ta, tb_])
        return _cueq().triangle_multiplicative_update(
            z[None], "incoming" if incoming else "outgoing", mask[None],
            p[f"{pre}.layer_norm_in.weight"], p[f"{pre}.layer_norm_in.bias"],
            cat("linear_a_p.weight", "linear_b_p.weight"), cat("linear_a_p.bias", "linear_b_p.bias"),
            cat("linear_a_g.weight", "linear_b_g.weight"), cat("linear_a_g.bias", "linear_b_g.bias"),
            p[f"{pre}.layer_norm_out.weight"], p[f"{pre}.layer_norm_out.bias"],
            p[f"{pre}.linear_z.weight"], p.get(f"{pre}.linear_z.bias"),
            p[f"{pre}.linear_g.weight"], p.get(f"{pre}.linear_g.bias"))[0]
    zl = ln(z, p, f"{pre}.layer_norm_in")
    m = mask[..., None]
    a = m * torch.sigmoid(lin(zl, p, f"{pre}.linear_a_g")) * lin(zl, p, f"{pre}.linear_a_p")
    b = m * torch.sigmoid(lin(zl, p, f"{pre}.linear_b_g")) * lin(zl, p, f"{pre}.linear_b_p")
    if incoming:
        x = torch.einsum("kic,kjc->ijc", a, b)
    else:
        x = torch.einsum("ikc,jkc->ijc", a, b)
    return torch.sigmoid(lin(zl, p, f"{pre}.linear_g")) * lin(ln(x, p, f"{pre}.layer_norm_out"), p, f"{pre}.linear_z")


def transition(x, mask, p, pre, swiglu):
    """AF2 Alg. 9/15 (ReLU), AF3 Alg. 11 (SwiGLU); the output is masked."""
    xl = ln(x, p, f"{pre}.layer_norm")
    if swiglu:
        h = F.silu(lin(xl, p, f"{pre}.swiglu.linear_a")) * lin(xl, p, f"{pre}.swiglu.linear_b")
        out = lin(h, p, f"{pre}.linear_out")
    else:
        out = lin(torch.relu(lin(xl, p, f"{pre}.linear_1")), p, f"{pre}.linear_2")
    return out * mask[..., None]


def outer_product_mean(m, mask, p, pre):
    """AF2 Alg. 10."""
    ml = ln(m, p, f"{pre}.layer_norm")
    a = lin(ml, p, f"{pre}.linear_1") * mask[..., None]
    b = lin(ml, p, f"{pre}.linear_2") * mask[..., None]
    N, c = a.shape[1], a.shape[2]
    o = torch.einsum("sic,sjd->ijcd", a, b).reshape(N, N, c * c)
    norm = torch.einsum("si,sj->ij", mask, mask)
    return lin(o, p, f"{pre}.linear_out") / (1e-3 + norm[..., None])


def drop(d, name, update):
    """The update of step `name` times its dropout mask when d carries one (training
    mode with pairfold's masks), else unchanged."""
    m = d.get("dropout", {}).get(name)
    return update if m is None else update * m.to(device=update.device, dtype=update.dtype)


def pair_stack(z, pair_mask, p, d, af3):
    H, ch = d["heads_pair"], d["c_h_pair"]
    z = z + drop(d, "pair_stack.tri_mul_out", trimul(z, pair_mask, p, "pair_stack.tri_mul_out", False))
    z = z + drop(d, "pair_stack.tri_mul_in", trimul(z, pair_mask, p, "pair_stack.tri_mul_in", True))
    tn = ("layer_norm", None, "linear")
    z = z + drop(d, "pair_stack.tri_att_start",
                 attention(z, None, pair_mask, p, "pair_stack.tri_att_start", H, ch, "self", False, tn))
    z = z + drop(d, "pair_stack.tri_att_end",
                 attention(z, None, pair_mask, p, "pair_stack.tri_att_end", H, ch, "self", True, tn))
    pt = "pair_transition" if af3 else "pair_stack.pair_transition"
    return z + drop(d, pt, transition(z, pair_mask, p, pt, af3))


def pairformer_block(s, z, seq_mask, pair_mask, p, d):
    """AF3 Alg. 17."""
    z = pair_stack(z, pair_mask, p, d, True)
    s = s + drop(d, "attn_pair_bias", attention(s[None], z, seq_mask[None], p, "attn_pair_bias", d["heads_single"],
                                                d["c_h_single"], "pair", False,
                                                ("layer_norm_s", "layer_norm_z", "linear_z"))[0])
    s = s + drop(d, "single_transition", transition(s, seq_mask, p, "single_transition", True))
    return s, z


def evoformer_block(m, z, msa_mask, pair_mask, p, d):
    """AF2 Alg. 6."""
    H, ch = d["heads_msa"], d["c_h_msa"]
    m = m + drop(d, "msa_att_row", attention(m, z, msa_mask, p, "msa_att_row", H, ch, "pair", False,
                                             ("layer_norm_m", "layer_norm_z", "linear_z")))
    m = m + drop(d, "msa_att_col._msa_att", attention(m, None, msa_mask, p, "msa_att_col._msa_att", H, ch, None, True,
                                                      ("layer_norm_m", None, None)))
    m = m + drop(d, "msa_transition", transition(m, msa_mask, p, "msa_transition", False))
    z = z + drop(d, "outer_product_mean", outer_product_mean(m, msa_mask, p, "outer_product_mean"))
    z = pair_stack(z, pair_mask, p, d, False)
    return m, z


def random_params(kind, d, gen, dtype=torch.float32, device="cpu", scale=0.3, pairfold="./pairfold", preset="tiny"):
    """Random parameters of a `kind` block with dims `d`, under the names and
    shapes pairfold declares (`pairfold inspect`, bench/block_params.py)."""
    p = {}
    for name, shape in block_params.inspect_block_shapes(kind, d, pairfold, preset).items():
        t = torch.randn(shape, generator=gen, dtype=torch.float64) * scale
        if "layer_norm" in name and name.endswith(".weight"):
            t = 1 + 0.1 * t
        elif len(shape) == 2:
            t = t / math.sqrt(shape[1]) * 3
        p[name] = t.to(dtype=dtype, device=device)
    return p


AF3 = dict(c_z=128, c_s=384, c_m=64, heads_pair=4, c_h_pair=32, heads_single=16, c_h_single=24, heads_msa=8,
           c_h_msa=32, c_trimul=128, c_opm=32, transition_n=4)
AF2 = dict(c_z=128, c_s=384, c_m=256, heads_pair=4, c_h_pair=32, heads_single=16, c_h_single=24, heads_msa=8,
           c_h_msa=32, c_trimul=128, c_opm=32, transition_n=4)
