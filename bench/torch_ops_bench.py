#!/usr/bin/env python3
"""PyTorch eager reference of the op-level benchmark (bench/cuda_ops_bench.c).

Triangle attention (starting node), the outgoing triangle multiplication and AF3's
pair transition (SwiGLU, 4 c_z hidden, no biases; op `transition`) as OpenFold writes them (parameter names as in OpenFold: layer_norm, linear,
mha.linear_q/k/v/g/o; layer_norm_in, linear_a_p, ...), bf16 parameters and
activations, same shapes, same FLOP model, one JSON line per (op, N):
median ms of forward and forward+backward (CUDA events), and
torch.cuda.max_memory_allocated over the step.

  python3 bench/torch_ops_bench.py --sizes 256,512,768,1024 [--ops tri_attn,trimul]
      [--impl eager|cueq]

--impl cueq swaps in NVIDIA cuEquivariance's kernels (what Boltz-2 and Protenix
users run): the attention core of the same module becomes
cuequivariance_ops_torch.triangle_attention (q, k, v, bias, mask), and the
triangle multiplication becomes cuequivariance_ops_torch.triangle_multiplicative_update
with the same parameters (a/b projections packed as that function expects).
The wheels (cuequivariance-ops-torch-cu13, cuequivariance-ops-cu13) are carried
to the GPU machine; see bench/device_all.sh stage `cueq`.
"""
import argparse
import json
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    """OpenFold's gated multi-head attention (openfold/model/primitives.py)."""

    def __init__(self, c, c_hidden, no_heads):
        super().__init__()
        self.c_hidden, self.no_heads = c_hidden, no_heads
        hc = c_hidden * no_heads
        self.linear_q = nn.Linear(c, hc, bias=False)
        self.linear_k = nn.Linear(c, hc, bias=False)
        self.linear_v = nn.Linear(c, hc, bias=False)
        self.linear_g = nn.Linear(c, hc)
        self.linear_o = nn.Linear(hc, c)

    def forward(self, x, biases):
        # x (*, L, c); biases broadcast to (*, H, L, L)
        sh = x.shape[:-1]
        q = self.linear_q(x).view(*sh, self.no_heads, self.c_hidden).transpose(-2, -3)
        k = self.linear_k(x).view(*sh, self.no_heads, self.c_hidden).transpose(-2, -3)
        v = self.linear_v(x).view(*sh, self.no_heads, self.c_hidden).transpose(-2, -3)
        q = q / math.sqrt(self.c_hidden)
        a = torch.matmul(q, k.transpose(-1, -2))
        for b in biases:
            a = a + b
        a = torch.softmax(a, dim=-1)
        o = torch.matmul(a, v).transpose(-2, -3)  # (*, L, H, c_h)
        g = torch.sigmoid(self.linear_g(x)).view(*sh, self.no_heads, self.c_hidden)
        o = (o * g).reshape(*sh, self.no_heads * self.c_hidden)
        return self.linear_o(o)


class CueqAttention(Attention):
    """The same gated attention with cuEquivariance's fused triangle attention core."""

    def forward(self, x, mask, tri):
        import cuequivariance_ops_torch as cueq
        # x (I, J, c); tri (1, H, J, J); mask (I, J)
        I, J = x.shape[0], x.shape[1]
        H, D = self.no_heads, self.c_hidden
        q = self.linear_q(x).view(I, J, H, D).transpose(1, 2).unsqueeze(0)  # (1, I, H, J, D)
        k = self.linear_k(x).view(I, J, H, D).transpose(1, 2).unsqueeze(0)
        v = self.linear_v(x).view(I, J, H, D).transpose(1, 2).unsqueeze(0)
        bias = tri.unsqueeze(1).float()  # (1, 1, H, J, J)
        m = (mask > 0).view(1, I, 1, 1, J)
        o = cueq.triangle_attention(q, k, v, bias, mask=m, scale=1.0 / math.sqrt(D))
        o = o.squeeze(0).transpose(1, 2)  # (I, J, H, D)
        g = torch.sigmoid(self.linear_g(x)).view(I, J, H, D)
        return self.linear_o((o * g).reshape(I, J, H * D))


class TriangleAttention(nn.Module):
    """OpenFold TriangleAttention (starting node): bias from LN(z), mask bias."""

    def __init__(self, c_in, c_hidden, no_heads, inf=1e9, cueq=False):
        super().__init__()
        self.inf, self.no_heads, self.cueq = inf, no_heads, cueq
        self.layer_norm = nn.LayerNorm(c_in)
        self.linear = nn.Linear(c_in, no_heads, bias=False)
        self.mha = (CueqAttention if cueq else Attention)(c_in, c_hidden, no_heads)

    def forward(self, x, mask):
        x = self.layer_norm(x)
        if self.cueq:
            return self.mha(x, mask, self.linear(x).permute(2, 0, 1).unsqueeze(0))
        mask_bias = (self.inf * (mask - 1))[..., :, None, None, :]
        tri = self.linear(x).permute(2, 0, 1).unsqueeze(0)  # (1, H, I, J)
        return self.mha(x, [mask_bias, tri])


class TriangleMultiplicationOutgoing(nn.Module):
    """OpenFold TriangleMultiplicativeUpdate (outgoing), AF3 style (no biases)."""

    def __init__(self, c_z, c_hidden, cueq=False):
        super().__init__()
        self.cueq = cueq
        self.layer_norm_in = nn.LayerNorm(c_z)
        self.layer_norm_out = nn.LayerNorm(c_hidden)
        self.linear_a_p = nn.Linear(c_z, c_hidden, bias=False)
        self.linear_a_g = nn.Linear(c_z, c_hidden, bias=False)
        self.linear_b_p = nn.Linear(c_z, c_hidden, bias=False)
        self.linear_b_g = nn.Linear(c_z, c_hidden, bias=False)
        self.linear_g = nn.Linear(c_z, c_z, bias=False)
        self.linear_z = nn.Linear(c_hidden, c_z, bias=False)

    def forward(self, z, mask):
        if self.cueq:
            import cuequivariance_ops_torch as cueq
            return cueq.triangle_multiplicative_update(
                z.unsqueeze(0), "outgoing", mask.unsqueeze(0),
                self.layer_norm_in.weight, self.layer_norm_in.bias,
                torch.cat([self.linear_a_p.weight, self.linear_b_p.weight]), None,
                torch.cat([self.linear_a_g.weight, self.linear_b_g.weight]), None,
                self.layer_norm_out.weight, self.layer_norm_out.bias,
                self.linear_z.weight, None, self.linear_g.weight, None).squeeze(0)
        m = mask.unsqueeze(-1)
        z = self.layer_norm_in(z)
        a = m * torch.sigmoid(self.linear_a_g(z)) * self.linear_a_p(z)
        b = m * torch.sigmoid(self.linear_b_g(z)) * self.linear_b_p(z)
        x = torch.einsum("ikc,jkc->ijc", a, b)  # OpenFold permutes to channel-major bmm
        x = self.layer_norm_out(x)
        return torch.sigmoid(self.linear_g(z)) * self.linear_z(x)


class SwiGLUTransition(nn.Module):
    """AF3 Alg. 11 (OpenFold3's SwiGLU transition, no biases), the output masked as
    bench/torch_blocks.py's transition. cuEquivariance has no transition kernel: --impl cueq
    runs this same module."""

    def __init__(self, c, n=4):
        super().__init__()
        self.layer_norm = nn.LayerNorm(c)
        self.linear_a = nn.Linear(c, n * c, bias=False)
        self.linear_b = nn.Linear(c, n * c, bias=False)
        self.linear_out = nn.Linear(n * c, c, bias=False)

    def forward(self, x, mask):
        xl = self.layer_norm(x)
        h = nn.functional.silu(self.linear_a(xl)) * self.linear_b(xl)
        return self.linear_out(h) * mask.unsqueeze(-1)


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


def bench(op, N, reps, dev, impl="eager"):
    torch.manual_seed(0)
    cz = 128
    if op == "tri_attn":
        H, ch = 4, 32
        mod = TriangleAttention(cz, ch, H, cueq=impl == "cueq").to(dev, torch.bfloat16)
        M, HC = N * N, H * ch
        lin_f = 2.0 * M * cz * (4 * HC + H) + 2.0 * M * HC * cz
        core_f = 4.0 * N ** 3 * H * ch
        f_fwd, f_fb = lin_f + core_f, 3 * lin_f + 3.5 * core_f
    elif op == "transition":  # pf_transition_flops (src/backend/modules.h): 3 products of 2 M c 4c
        mod = SwiGLUTransition(cz).to(dev, torch.bfloat16)
        f_fwd = 2.0 * N * N * cz * cz * 4 * 3
        f_fb = 3 * f_fwd
    else:
        ch = 128
        mod = TriangleMultiplicationOutgoing(cz, ch, cueq=impl == "cueq").to(dev, torch.bfloat16)
        M = N * N
        f_fwd = 2.0 * M * cz * (4 * ch + cz) + 2.0 * M * ch * cz + 2.0 * N ** 3 * ch
        f_fb = 3 * f_fwd
    x = torch.rand(N, N, cz, device=dev, dtype=torch.bfloat16) * 2 - 1
    x.requires_grad_(True)
    mask = torch.ones(N, N, device=dev, dtype=torch.bfloat16)
    dout = torch.rand(N, N, cz, device=dev, dtype=torch.bfloat16) * 2 - 1

    def fwd():
        with torch.no_grad():
            mod(x, mask)

    def fb():
        out = mod(x, mask)
        out.backward(dout)

    res = {"impl": "torch_" + impl, "op": op, "N": N}
    try:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        tf = time_ms(fwd, reps)
        tb = time_ms(fb, reps)
        peak = torch.cuda.max_memory_allocated() - base
        res.update(fwd_ms=round(tf, 4), fwdbwd_ms=round(tb, 4), fwd_tflops=round(f_fwd / tf * 1e-9, 2),
                   fwdbwd_tflops=round(f_fb / tb * 1e-9, 2), peak_mib=round(peak / 2**20, 1))
    except torch.cuda.OutOfMemoryError:
        res.update(error="out of memory")
    except Exception as e:  # a cuEquivariance route refusing a shape: report, go on
        res.update(error=f"{type(e).__name__}: {e}"[:200])
    print(json.dumps(res), flush=True)
    del mod, x, dout
    torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="256,512,768,1024")
    ap.add_argument("--ops", default="tri_attn,trimul")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--impl", default="eager", choices=["eager", "cueq"])
    a = ap.parse_args()
    dev = torch.device("cuda")
    for N in [int(s) for s in a.sizes.split(",")]:
        for op in a.ops.split(","):
            bench(op, N, a.reps, dev, a.impl)


if __name__ == "__main__":
    main()
