#!/usr/bin/env python3
"""PyTorch eager reference of the Pairformer (AF3 Alg. 17) and Evoformer (AF2
Alg. 6) blocks, with the math of src/backend/modules.h and OpenFold /
OpenFold3 parameter names, for two uses:

  bench   time the block forward and forward+backward at several N (bf16,
          CUDA events, median), peak memory (torch.cuda.max_memory_allocated),
          one JSON line per N, same FLOP-free schema as `pairfold bench`:
            python3 bench/torch_blocks.py bench --block pairformer --sizes 256,512,768,1024
            python3 bench/torch_blocks.py bench --block evoformer --S 128 --sizes 256,512
  export  random (non-trivial) weights, inputs, the block outputs and the
          gradients of sum(out * dout) to one safetensors file (fp32), for the
          parity test of pairfold against PyTorch:
            python3 bench/torch_blocks.py export --block pairformer --N 24 --out /tmp/pf_block.safetensors

Dropout is off (evaluation), masks are applied as in pairfold (key masks
-1e9 * (1 - mask), transitions multiplied by the mask).
"""
import argparse
import json
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

INF = 1e9


class MHA(nn.Module):
    """Gated attention core (OpenFold primitives.Attention): linear_q/k/v/g/o."""

    def __init__(self, c_in, c_hidden, heads, q_bias=False):
        super().__init__()
        self.h, self.c = heads, c_hidden
        hc = heads * c_hidden
        self.linear_q = nn.Linear(c_in, hc, bias=q_bias)
        self.linear_k = nn.Linear(c_in, hc, bias=False)
        self.linear_v = nn.Linear(c_in, hc, bias=False)
        self.linear_g = nn.Linear(c_in, hc)
        self.linear_o = nn.Linear(hc, c_in)

    def forward(self, x, bias):
        # x (B, L, c); bias broadcastable to (B, H, L, L)
        B, L, _ = x.shape
        q = self.linear_q(x).view(B, L, self.h, self.c).transpose(1, 2) / math.sqrt(self.c)
        k = self.linear_k(x).view(B, L, self.h, self.c).transpose(1, 2)
        v = self.linear_v(x).view(B, L, self.h, self.c).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) + bias, dim=-1)
        o = (a @ v).transpose(1, 2).reshape(B, L, self.h * self.c)
        return self.linear_o(torch.sigmoid(self.linear_g(x)) * o)


class TriangleAttention(nn.Module):
    """OpenFold TriangleAttention: layer_norm, linear (pair bias), mha."""

    def __init__(self, c_z, c_hidden=32, heads=4, starting=True):
        super().__init__()
        self.starting = starting
        self.layer_norm = nn.LayerNorm(c_z)
        self.linear = nn.Linear(c_z, heads, bias=False)
        self.mha = MHA(c_z, c_hidden, heads)

    def forward(self, z, mask):
        if not self.starting:
            z, mask = z.transpose(0, 1), mask.transpose(0, 1)
        x = self.layer_norm(z)
        bias = self.linear(x).permute(2, 0, 1).unsqueeze(0)       # (1, H, L, L)
        mbias = (INF * (mask - 1))[:, None, None, :]              # (B, 1, 1, L)
        o = self.mha(x, bias + mbias)
        return o.transpose(0, 1) if not self.starting else o


class TriangleMultiplication(nn.Module):
    """OpenFold TriangleMultiplicativeUpdate (AF3: no biases)."""

    def __init__(self, c_z, c_hidden=128, outgoing=True, bias=False):
        super().__init__()
        self.outgoing = outgoing
        self.layer_norm_in = nn.LayerNorm(c_z)
        self.layer_norm_out = nn.LayerNorm(c_hidden)
        for n in ("linear_a_p", "linear_a_g", "linear_b_p", "linear_b_g"):
            setattr(self, n, nn.Linear(c_z, c_hidden, bias=bias))
        self.linear_g = nn.Linear(c_z, c_z, bias=bias)
        self.linear_z = nn.Linear(c_hidden, c_z, bias=bias)

    def forward(self, z, mask):
        m = mask.unsqueeze(-1)
        z = self.layer_norm_in(z)
        a = m * torch.sigmoid(self.linear_a_g(z)) * self.linear_a_p(z)
        b = m * torch.sigmoid(self.linear_b_g(z)) * self.linear_b_p(z)
        # channel-major batched product, as OpenFold does
        a, b = a.permute(2, 0, 1), b.permute(2, 0, 1)
        x = a @ b.transpose(1, 2) if self.outgoing else a.transpose(1, 2) @ b
        x = self.layer_norm_out(x.permute(1, 2, 0))
        return torch.sigmoid(self.linear_g(z)) * self.linear_z(x)


class Transition(nn.Module):
    """ReLU (OpenFold PairTransition / MSATransition: linear_1, linear_2) or
    SwiGLU (OpenFold3 SwiGLUTransition: linear_a, linear_b, linear_out)."""

    def __init__(self, c, n=4, swiglu=True):
        super().__init__()
        self.swiglu = swiglu
        self.layer_norm = nn.LayerNorm(c)
        if swiglu:
            self.linear_a = nn.Linear(c, n * c, bias=False)
            self.linear_b = nn.Linear(c, n * c, bias=False)
            self.linear_out = nn.Linear(n * c, c, bias=False)
        else:
            self.linear_1 = nn.Linear(c, n * c)
            self.linear_2 = nn.Linear(n * c, c)

    def forward(self, x, mask):
        x = self.layer_norm(x)
        if self.swiglu:
            y = self.linear_out(F.silu(self.linear_a(x)) * self.linear_b(x))
        else:
            y = self.linear_2(torch.relu(self.linear_1(x)))
        return y * mask.unsqueeze(-1)


class AttentionPairBias(nn.Module):
    """AF3 Alg. 24 without conditioning: layer_norm_a, layer_norm_z, linear_z, mha."""

    def __init__(self, c_s, c_z, heads=16):
        super().__init__()
        self.layer_norm_a = nn.LayerNorm(c_s)
        self.layer_norm_z = nn.LayerNorm(c_z)
        self.linear_z = nn.Linear(c_z, heads, bias=False)
        self.mha = MHA(c_s, c_s // heads, heads, q_bias=True)

    def forward(self, s, z, mask):
        x = self.layer_norm_a(s).unsqueeze(0)                      # (1, N, c_s)
        bias = self.linear_z(self.layer_norm_z(z)).permute(2, 0, 1).unsqueeze(0)
        return self.mha(x, bias + (INF * (mask - 1))[None, None, None, :]).squeeze(0)


class MSARowAttentionWithPairBias(nn.Module):
    """OpenFold: layer_norm_m, layer_norm_z, linear_z, mha."""

    def __init__(self, c_m, c_z, c_hidden=32, heads=8):
        super().__init__()
        self.layer_norm_m = nn.LayerNorm(c_m)
        self.layer_norm_z = nn.LayerNorm(c_z)
        self.linear_z = nn.Linear(c_z, heads, bias=False)
        self.mha = MHA(c_m, c_hidden, heads)

    def forward(self, m, z, mask):
        bias = self.linear_z(self.layer_norm_z(z)).permute(2, 0, 1).unsqueeze(0)
        return self.mha(self.layer_norm_m(m), bias + (INF * (mask - 1))[:, None, None, :])


class MSAColumnAttention(nn.Module):
    """OpenFold MSAColumnAttention (its _msa_att: layer_norm_m, mha)."""

    def __init__(self, c_m, c_hidden=32, heads=8):
        super().__init__()
        self.layer_norm_m = nn.LayerNorm(c_m)
        self.mha = MHA(c_m, c_hidden, heads)

    def forward(self, m, mask):
        mt, mkt = m.transpose(0, 1), mask.transpose(0, 1)
        o = self.mha(self.layer_norm_m(mt), (INF * (mkt - 1))[:, None, None, :])
        return o.transpose(0, 1)


class OuterProductMean(nn.Module):
    """OpenFold: layer_norm, linear_1, linear_2, linear_out; divided by eps + mask norm."""

    def __init__(self, c_m, c_z, c_hidden=32, eps=1e-3):
        super().__init__()
        self.eps = eps
        self.layer_norm = nn.LayerNorm(c_m)
        self.linear_1 = nn.Linear(c_m, c_hidden)
        self.linear_2 = nn.Linear(c_m, c_hidden)
        self.linear_out = nn.Linear(c_hidden * c_hidden, c_z)

    def forward(self, m, mask):
        x = self.layer_norm(m)
        a = self.linear_1(x) * mask.unsqueeze(-1)
        b = self.linear_2(x) * mask.unsqueeze(-1)
        o = torch.einsum("sic,sjd->ijcd", a, b).flatten(-2)
        norm = torch.einsum("si,sj->ij", mask, mask)
        return self.linear_out(o) / (self.eps + norm.unsqueeze(-1))


class PairformerBlock(nn.Module):
    """AF3 Alg. 17 (OpenFold3 PairFormerBlock names)."""

    def __init__(self, c_s=384, c_z=128):
        super().__init__()
        self.tri_mul_out = TriangleMultiplication(c_z, 128, True)
        self.tri_mul_in = TriangleMultiplication(c_z, 128, False)
        self.tri_att_start = TriangleAttention(c_z, 32, 4, True)
        self.tri_att_end = TriangleAttention(c_z, 32, 4, False)
        self.pair_transition = Transition(c_z, 4, True)
        self.attn_pair_bias = AttentionPairBias(c_s, c_z, 16)
        self.single_transition = Transition(c_s, 4, True)

    def forward(self, s, z, mask):
        pm = mask[:, None] * mask[None, :]
        z = z + self.tri_mul_out(z, pm)
        z = z + self.tri_mul_in(z, pm)
        z = z + self.tri_att_start(z, pm)
        z = z + self.tri_att_end(z, pm)
        z = z + self.pair_transition(z, pm)
        s = s + self.attn_pair_bias(s, z, mask)
        s = s + self.single_transition(s, mask)
        return s, z


class EvoformerBlock(nn.Module):
    """AF2 Alg. 6 (OpenFold EvoformerBlock names)."""

    def __init__(self, c_m=256, c_z=128):
        super().__init__()
        self.msa_att_row = MSARowAttentionWithPairBias(c_m, c_z, 32, 8)
        self.msa_att_col = MSAColumnAttention(c_m, 32, 8)
        self.msa_transition = Transition(c_m, 4, False)
        self.outer_product_mean = OuterProductMean(c_m, c_z, 32)
        self.tri_mul_out = TriangleMultiplication(c_z, 128, True, bias=True)
        self.tri_mul_in = TriangleMultiplication(c_z, 128, False, bias=True)
        self.tri_att_start = TriangleAttention(c_z, 32, 4, True)
        self.tri_att_end = TriangleAttention(c_z, 32, 4, False)
        self.pair_transition = Transition(c_z, 4, False)

    def forward(self, m, z, msa_mask, mask):
        pm = mask[:, None] * mask[None, :]
        m = m + self.msa_att_row(m, z, msa_mask)
        m = m + self.msa_att_col(m, msa_mask)
        m = m + self.msa_transition(m, msa_mask)
        z = z + self.outer_product_mean(m, msa_mask)
        z = z + self.tri_mul_out(z, pm)
        z = z + self.tri_mul_in(z, pm)
        z = z + self.tri_att_start(z, pm)
        z = z + self.tri_att_end(z, pm)
        z = z + self.pair_transition(z, pm)
        return m, z


def make(block, N, S, dev, dtype, seed=0):
    torch.manual_seed(seed)
    if block == "pairformer":
        mod = PairformerBlock().to(dev, dtype)
        first = torch.randn(N, 384, device=dev, dtype=dtype)
    else:
        mod = EvoformerBlock().to(dev, dtype)
        first = torch.randn(S, N, 256, device=dev, dtype=dtype)
    # non-trivial weights everywhere (no zero-initialised output layers)
    with torch.no_grad():
        for name, p in mod.named_parameters():
            if name.endswith("bias"):
                p.normal_(0, 0.1)
            elif "layer_norm" in name:
                p.normal_(1, 0.1)
            else:
                p.normal_(0, 1 / math.sqrt(p.shape[-1]))
    z = torch.randn(N, N, 128, device=dev, dtype=dtype)
    mask = torch.ones(N, device=dev, dtype=dtype)
    msa_mask = torch.ones(S, N, device=dev, dtype=dtype)
    return mod, first, z, mask, msa_mask


def run_block(block, mod, first, z, mask, msa_mask):
    if block == "pairformer":
        return mod(first, z, mask)
    return mod(first, z, msa_mask, mask)


def time_ms(fn, reps):
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]


def bench(a):
    dev = torch.device("cuda")
    for N in [int(x) for x in a.sizes.split(",")]:
        res = {"impl": "torch_eager", "block": a.block, "N": N, "S": a.S if a.block == "evoformer" else 0}
        try:
            torch.cuda.empty_cache()
            mod, first, z, mask, msa_mask = make(a.block, N, a.S, dev, torch.bfloat16)
            first.requires_grad_(True)
            z.requires_grad_(True)

            def fwd():
                with torch.no_grad():
                    run_block(a.block, mod, first, z, mask, msa_mask)

            def fb():
                o1, o2 = run_block(a.block, mod, first, z, mask, msa_mask)
                (o1.float().sum() + o2.float().sum()).backward()

            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            tf = time_ms(fwd, a.reps)
            peak_f = torch.cuda.max_memory_allocated() - base
            torch.cuda.reset_peak_memory_stats()
            tb = time_ms(fb, a.reps)
            peak_b = torch.cuda.max_memory_allocated() - base
            res.update(fwd_ms=round(tf, 3), fwdbwd_ms=round(tb, 3), fwd_peak_mib=round(peak_f / 2**20, 1),
                       fwdbwd_peak_mib=round(peak_b / 2**20, 1))
        except torch.cuda.OutOfMemoryError:
            res.update(error="out of memory")
        print(json.dumps(res), flush=True)
        for v in ("mod", "first", "z"):
            locals().pop(v, None)
        torch.cuda.empty_cache()


def export(a):
    from safetensors.torch import save_file
    dev = torch.device(a.device)
    mod, first, z, mask, msa_mask = make(a.block, a.N, a.S, dev, torch.float32, seed=a.seed)
    g = torch.Generator(device="cpu").manual_seed(a.seed + 1)
    # a few masked positions
    mask = (torch.rand(a.N, generator=g) > 0.1).float().to(dev)
    mask[0] = 1
    msa_mask = (torch.rand(a.S, a.N, generator=g) > 0.2).float().to(dev)
    msa_mask[0] = 1
    first.requires_grad_(True)
    z.requires_grad_(True)
    o1, o2 = run_block(a.block, mod, first, z, mask, msa_mask)
    d1, d2 = torch.randn(o1.shape, generator=g).to(dev), torch.randn(o2.shape, generator=g).to(dev)
    ((o1 * d1).sum() + (o2 * d2).sum()).backward()
    names = ("s", "z") if a.block == "pairformer" else ("m", "z")
    t = {f"param.{k}": v.detach().contiguous().cpu() for k, v in mod.named_parameters()}
    t.update({f"grad.{k}": v.grad.detach().contiguous().cpu() for k, v in mod.named_parameters()})
    t.update({f"input.{names[0]}": first.detach().cpu(), "input.z": z.detach().cpu(), "input.mask": mask.cpu(),
              "input.msa_mask": msa_mask.cpu(), f"output.{names[0]}": o1.detach().cpu(),
              "output.z": o2.detach().cpu(), f"dout.{names[0]}": d1.cpu(), "dout.z": d2.cpu(),
              f"dinput.{names[0]}": first.grad.cpu(), "dinput.z": z.grad.cpu()})
    save_file(t, a.out, metadata={"block": a.block, "N": str(a.N), "S": str(a.S)})
    print(f"wrote {a.out}: {len(t)} tensors")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["bench", "export"])
    ap.add_argument("--block", choices=["pairformer", "evoformer"], default="pairformer")
    ap.add_argument("--sizes", default="256,512,768,1024,1536,2048")
    ap.add_argument("--S", type=int, default=128)
    ap.add_argument("--N", type=int, default=24)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", default="block_ref.safetensors")
    a = ap.parse_args()
    if a.cmd == "bench":
        bench(a)
    else:
        export(a)


if __name__ == "__main__":
    main()
