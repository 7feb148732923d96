"""test_torch_ops: pairfold.torch_ops.triangle_attention and
triangle_multiplicative_update (cuEquivariance's argument layouts) against PyTorch
eager, forward and backward through torch.autograd (q, k, v and the bias; x and every
trimul weight), batched and unbatched, with masks (a fully masked attention row too).

  CPU float32 tensors ("cpu" backend): against float64 eager, forward 1e-5, gradients
  1e-4 (max abs error relative to the largest entry of the reference).
  CUDA tensors (a CUDA build of libpairfold.so and a GPU): outputs and gradients are
  CUDA tensors of the input's dtype. float32 -> "cuda-fp32" backend, 1e-4 against
  float64. bfloat16 -> "cuda" backend, judged as tests/cuda/parity.py judges bf16:
  each tensor's error against float64 within max(2e-2, 4 x PyTorch eager's own bf16
  error on the same inputs).

Needs torch, so it is not part of `make test` (tests/test_python_trimul.py and
tests/test_python_triattn.py check the engine entries there with numpy):
    python3 tests/torch/test_torch_ops.py        (after `make lib` or `make lib CUDA=1`)"""
import importlib.util
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# tests/pftest.py by its path: tests/ on sys.path would make this folder an importable "torch"
_spec = importlib.util.spec_from_file_location("pftest", os.path.join(ROOT, "tests", "pftest.py"))
pftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pftest)
check, finish = pftest.check, pftest.finish
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("PAIRFOLD_LIB", os.path.join(ROOT, "libpairfold.so"))
try:
    import torch
except ImportError:
    print("torch is not installed: nothing run")
    print("0 passed, 0 failed")
    sys.exit(0)
import pairfold  # noqa: E402
from pairfold.torch_ops import triangle_attention, triangle_multiplicative_update  # noqa: E402

TOL_BF16, BF16_SLACK = 2e-2, 4.0  # tests/cuda/parity.py: TOL["cuda"], BF16_SLACK


def rel(a, b):
    return ((a.double().cpu() - b.double().cpu()).abs().max() / b.double().cpu().abs().max().clamp_min(1e-12)).item()


def trimul_eager(x, direction, mask, niw, nib, piw, giw, now, nob, pow_, gow):
    F = torch.nn.functional
    xn = F.layer_norm(x, (x.shape[-1],), niw, nib, 1e-5)
    h = (xn @ piw.T) * torch.sigmoid(xn @ giw.T) * mask.unsqueeze(-1)
    a, b = torch.chunk(h, 2, dim=-1)
    eq = "bikd,bjkd->bijd" if direction == "outgoing" else "bkid,bkjd->bijd"
    xx = torch.einsum(eq, a, b)
    return F.layer_norm(xx, (xx.shape[-1],), now, nob, 1e-5) @ pow_.T * torch.sigmoid(xn @ gow.T)


def attention_eager(q, k, v, bias, mask, scale):
    """cuEquivariance's formula: softmax(s q k^T + bias, -1e9 at masked keys) v."""
    logits = scale * (q @ k.transpose(-1, -2))
    if bias is not None:
        logits = logits + bias.to(logits.dtype)
    if mask is not None:
        logits = logits.masked_fill(~mask.bool(), -1e9)
    return torch.softmax(logits, dim=-1) @ v


def leaves(ts, dtype, dev):
    return [t.detach().to(device=dev, dtype=dtype).requires_grad_() for t in ts]


def run(fn, args, grad_idx, R):
    """fn(*args) and the gradients of sum(out * R) with respect to args[grad_idx]."""
    out = fn(*args)
    (out.double() * R.to(out.device)).sum().backward()
    return out.detach(), [args[i].grad.detach() for i in grad_idx]


def compare(tag, names, got, ref, yard, dev, dtype):
    """got / ref / yard: [out, grads...]; yard (PyTorch eager in the same dtype) only for bf16."""
    for n, g, r, y in zip(names, got, ref, yard):
        check(g.device.type == torch.device(dev).type and g.dtype == dtype, f"{tag}: {n} on {dev} as {dtype}",
              f"{g.device} {g.dtype}")
        e = rel(g, r)
        if dtype == torch.bfloat16:
            tol = max(TOL_BF16, BF16_SLACK * rel(y, r))
        else:
            tol = 1e-5 if n == "out" and dev == "cpu" else 1e-4
        check(e <= tol and e == e, f"{tag}: {n} = PyTorch eager", f"rel err {e:.3g} (tol {tol:.3g})")
        print(f"{tag} {n}: rel err {e:.3g} (tol {tol:.3g})")


def test_attention(dev, dtype, B, N, H, D, with_bias, with_mask, gen):
    tag = f"triangle_attention {dev} {str(dtype)[6:]} B{B} N{N} H{H} D{D} bias {int(with_bias)} mask {int(with_mask)}"
    r = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64)  # noqa: E731
    q, k, v = r(B, N, H, N, D), r(B, N, H, N, D), r(B, N, H, N, D)
    bias = r(B, 1, H, N, N) if with_bias else None
    mask = None
    if with_mask:
        mask = torch.rand(B, N, 1, 1, N, generator=gen) > 0.25
        mask[0, 1] = False  # one fully masked row: the mean of v
    R = r(B, N, H, N, D)
    scale = 0.3
    base = [q, k, v] + ([bias] if with_bias else [])
    idx = list(range(len(base)))

    def call(impl, ts, m):
        def f(*a):
            return impl(a[0], a[1], a[2], a[3] if with_bias else None, m, scale)
        return run(f, ts, idx, R)

    # float64 eager on the CPU, from the values the dtype represents
    ref_in = leaves([t.to(dtype).double() for t in base], torch.float64, "cpu")
    ref = call(attention_eager, ref_in, mask)
    yard = ref
    if dtype == torch.bfloat16:
        yard = call(attention_eager, leaves(base, dtype, dev), None if mask is None else mask.to(dev))
    got = call(triangle_attention, leaves(base, dtype, dev), None if mask is None else mask.to(dev))
    names = ["out", "dq", "dk", "dv"] + (["d_bias"] if with_bias else [])
    compare(tag, names, [got[0]] + got[1], [ref[0]] + ref[1], [yard[0]] + yard[1], dev, dtype)
    if with_mask:
        row = got[0][0, 1].double().cpu()
        mean = base[2][0, 1].to(dtype).double().mean(dim=1, keepdim=True)
        e = rel(row, mean.expand_as(row))
        check(e < (3e-2 if dtype == torch.bfloat16 else 1e-5), f"{tag}: fully masked row = mean of v", f"{e:.3g}")
    # unbatched (N, H, L, D), as cuEquivariance accepts for B = 1
    a = [t[0].detach().to(device=dev, dtype=dtype) for t in base[:3]]
    o3 = triangle_attention(*a, bias[0].to(device=dev, dtype=dtype) if with_bias else None,
                            None if mask is None else mask[0].to(dev), scale)
    check(torch.equal(o3, got[0][0]), f"{tag}: (N, H, L, D) input = batch element 0")


def test_trimul(dev, dtype, direction, gen):
    tag = f"triangle_multiplicative_update {dev} {str(dtype)[6:]} {direction}"
    B, N, D, H = 2, 11, 16, 8
    r = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64)  # noqa: E731
    W = [r(D) * 0.3 + 1, r(D) * 0.3, r(2 * H, D) * 0.3, r(2 * H, D) * 0.3, r(H) * 0.3 + 1, r(H) * 0.3, r(D, H) * 0.3,
         r(D, D) * 0.3]
    x = r(B, N, N, D)
    mask = (torch.rand(B, N, N, generator=gen) > 0.2).double()
    R = r(B, N, N, D)
    base = [x] + W
    idx = list(range(len(base)))

    def call(impl, ts, m):
        def f(*a):
            return impl(a[0], direction, m, *a[1:])
        return run(f, ts, idx, R)

    ref = call(trimul_eager, leaves([t.to(dtype).double() for t in base], torch.float64, "cpu"), mask)
    yard = ref
    if dtype == torch.bfloat16:
        yard = call(trimul_eager, leaves(base, dtype, dev), mask.to(device=dev, dtype=dtype))
    got = call(triangle_multiplicative_update, leaves(base, dtype, dev), mask.to(device=dev, dtype=dtype))
    names = ["out", "dx", "d norm_in_weight", "d norm_in_bias", "d p_in_weight", "d g_in_weight", "d norm_out_weight",
             "d norm_out_bias", "d p_out_weight", "d g_out_weight"]
    compare(tag, names, [got[0]] + got[1], [ref[0]] + ref[1], [yard[0]] + yard[1], dev, dtype)
    o3 = triangle_multiplicative_update(x[0].to(device=dev, dtype=dtype), direction, mask[0].to(device=dev, dtype=dtype),
                                        *[w.to(device=dev, dtype=dtype) for w in W])
    check(torch.equal(o3, got[0][0]), f"{tag}: (N, N, D) input = batch element 0")


gen = torch.Generator().manual_seed(3)
cases = [("cpu", torch.float32)]
if torch.cuda.is_available():
    try:
        pairfold.torch_ops.attention.backend("cuda")
        cases += [("cuda", torch.float32), ("cuda", torch.bfloat16)]
    except pairfold.PairfoldError as e:
        check(False, "CUDA backend of libpairfold.so (a GPU is visible: build with `make lib CUDA=1`)", str(e))
else:
    print("no GPU visible: CPU cases only")
for dev, dtype in cases:
    for direction in ("outgoing", "incoming"):
        test_trimul(dev, dtype, direction, gen)
    test_attention(dev, dtype, 2, 9, 2, 16, True, True, gen)
    test_attention(dev, dtype, 1, 12, 3, 8, False, True, gen)
    test_attention(dev, dtype, 2, 7, 2, 32, True, False, gen)
    if dev == "cuda":  # the sizes the engine's triangle attention runs at, in tiles of several blocks
        test_attention(dev, dtype, 1, 80, 4, 32, True, True, gen)
        test_attention(dev, dtype, 1, 40, 2, 64, True, True, gen)
# argument checks name the argument
q = torch.zeros(1, 4, 2, 4, 8)
check(pftest.raises(lambda: triangle_attention(q, q[..., :3, :], q, None), ValueError, "k:"), "mismatched k refused")
check(pftest.raises(lambda: triangle_attention(q, q, q, torch.zeros(1, 1, 2, 4, 3)), ValueError, "bias:"),
      "misshapen bias refused")
check(pftest.raises(lambda: triangle_attention(q, q, q, None, return_aux=True), ValueError, "return_aux"),
      "return_aux refused")
finish()
