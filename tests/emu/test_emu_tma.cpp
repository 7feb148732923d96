// test_emu_tma.cpp: tests/cuda/tma_probe.cu (TMA tensor maps and swizzled wgmma operands as a FlashAttention-3
// style forward uses them; src/cuda/cu_tma.cuh) on the CPU kernel emulator (docs/EMULATOR.md), with the GPU
// program's cases and checks: k_tma_layout's shared bytes against the PTX ISA's swizzle tables for the 128, 64 and
// 32-byte swizzles (a box starting above the tensor and ending past it: those rows zero); k_tma_probe's S = Q K^T
// (both operands by swizzled K-major descriptors) and O = bf16(S) V (V by a swizzled MN-major descriptor) against
// the float64 reference in every swizzle mode, 2-D and 3-D maps, with tiles partly and wholly past the tensors'
// ends (their rows zero, not the next head's); the same bits in every emulator order (asynchronous work at issue or
// at its wait, threads ascending, descending, shuffled). Also: the host helper's and the emulated encode's
// rejections of maps the driver's rules forbid. Build and run: make test-emu. Ends with one verdict line.
#define tp_smem emu_smem
#include "../cuda/tma_probe.cu"

static const emu_options ORDERS[3] = {{0, 0, 0, 1}, {1, 1, 1, 2}, {0, 2, 0, 9}};

template <int SW>
static void layout_case(void) {
    const std::vector<uint16_t> src = tp_layout_src(SW);
    const std::string tag = "TMA " + std::to_string(SW) + "-byte swizzle layout against PTX ISA 5.5.7";
    CUtensorMap m;
    if (tma_map_2d(&m, src.data(), 2, 13, SW / 2, SW / 2, 16, SW / 2, SW)) {
        check(false, tag, "%s", "the tensor map was not made");
        return;
    }
    std::vector<uint16_t> out[3];
    for (int o = 0; o < 3; o++) {
        emu_opts = ORDERS[o];
        out[o].assign((size_t)(8 * SW), 0xffff);
        uint16_t *d = out[o].data();
        emu_run(dim3(1), dim3(128), TP_LAYOUT_SMEM, [&] { k_tma_layout<SW>(m, d); });
    }
    tp_layout_verify(SW, out[0].data(), tag);
    check(out[1] == out[0] && out[2] == out[0], tag + ": the same bits in every order", "%s", "the orders differ");
}

// One case's kernel under the three orders: checked against the reference, the orders' bits compared.
struct emu_case {
    const tp_problem &p;
    template <int D, int BN>
    void run() {
        typedef tp_layout<D, BN> L;
        const std::string tag = tp_tag(p.c);
        CUtensorMap m[3];
        if (tp_maps(p, p.q.data(), p.k.data(), p.v.data(), m)) {
            check(false, tag, "%s", "the tensor maps were not made");
            return;
        }
        std::vector<float> S[3], O[3];
        for (int o = 0; o < 3; o++) {
            emu_opts = ORDERS[o];
            S[o].assign((size_t)(p.s_n + TP_GUARD), NAN), O[o].assign((size_t)(p.o_n + TP_GUARD), NAN);
            for (int i = 0; i < TP_GUARD; i++) S[o][(size_t)(p.s_n + i)] = O[o][(size_t)(p.o_n + i)] = TP_GUARD_VALUE;
            const tp_args a = tp_args_of(p, S[o].data(), O[o].data());
            emu_run(dim3(p.Tq, p.c.H), dim3(TP_THREADS), L::bytes, [&] { k_tma_probe<D, BN>(m[0], m[1], m[2], a); });
        }
        tp_verify(p, S[0].data(), O[0].data(), tag);
        bool same = true;
        for (int o = 1; o < 3; o++)
            same = same && !memcmp(S[o].data(), S[0].data(), S[0].size() * 4) && !memcmp(O[o].data(), O[0].data(), O[0].size() * 4);
        check(same, tag + ": the same bits in every order", "%s", "S or O differ between orders");
    }
};

// Maps the driver's documented rules forbid: the host helper names the rule (its own checks) and the emulated
// encode rejects them too (CUDA_ERROR_INVALID_VALUE), so a kernel test cannot pass on a map a GPU would refuse.
static void rejections(void) {
    alignas(16) static bf16 buf[4096];
    CUtensorMap m;
    check(tma_map_2d(&m, buf + 1, 2, 64, 64, 64, 64, 64, 128) != 0, "tma_map_2d rejects a global address not 16-byte aligned",
             "%s", "accepted");
    check(tma_map_2d(&m, buf, 2, 64, 60, 60, 64, 64, 128) != 0, "tma_map_2d rejects a row stride not a multiple of 16 bytes",
             "%s", "accepted");
    check(tma_map_2d(&m, buf, 2, 64, 64, 64, 64, 64, 64) != 0, "tma_map_2d rejects a box row wider than the swizzle span",
             "%s", "accepted");
    check(tma_map_2d(&m, buf, 2, 64, 64, 64, 300, 64, 128) != 0, "tma_map_2d rejects a box dimension above 256", "%s",
             "accepted");
    const cuuint64_t dims[2] = {64, 64}, strides[1] = {128};
    const cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
    const CUresult r = emu_tensor_map_encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, buf, dims, strides, box, es,
                                                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    check(r == CUDA_ERROR_INVALID_VALUE, "the emulated encode rejects a 128-byte box row with the 64-byte swizzle",
             "CUresult %d", (int)r);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    layout_case<128>();
    layout_case<64>();
    layout_case<32>();
    for (const tp_case &c : tp_cases) {
        const tp_problem p = tp_make(c, (uint64_t)(c.D * 1000 + c.BN + c.Lk));
        emu_case r{p};
        tp_dispatch(c, r);
    }
    rejections();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
