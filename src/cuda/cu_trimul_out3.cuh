// cu_trimul_out3.cuh: what k_tm_out3 (cu_trimul_outk.cu) shares with the output part's fused
// backward k_tm_outb (cu_trimul_outb.cu): the gate's arithmetic and the packed weight.
#ifndef PF_CU_TRIMUL_OUT3_CUH
#define PF_CU_TRIMUL_OUT3_CUH
#include "cu_trimul.cuh"

// sigmoid(x) = 1 / (1 + 2^(-x log2 e)) in 4 instructions (ex2.approx, rcp.approx; ftz:
// x -> -inf gives 1 / inf = 0). __expf and __fdividef added range fix-ups (4 more).
__device__ __forceinline__ float t3_sigmoid(float x) {
    float e, r;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(e) : "f"(x * -1.4426950408889634f));
    asm("rcp.approx.ftz.f32 %0, %1;\n" : "=f"(r) : "f"(1.f + e));
    return r;
}
// (lo, hi) rounded to bf16 and back: one pack and two bit operations.
__device__ __forceinline__ float2 t3_bf16r2(float lo, float hi) {
    __nv_bfloat162 b = __floats2bfloat162_rn(lo, hi);
    uint32_t u = *reinterpret_cast<const uint32_t *>(&b);
    return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
}

// k_tm_out3's packed weight and bias for cx, cz <= 128 (KP = ts_depth(max(cx, cz)); two
// column tiles of [64 W_z rows | 64 W_g rows], within each 32 rows row 8j + 2t + e holding
// channel 8t + 2j + e; the bias (256) likewise, as its bf16 copy in fp32), kept across calls
// (PF_WCACHE) or in pool scratch: the caller marks and releases the pool.
void cu_tm_out3_weights(cu_impl *c, const pf_trimul_p *p, int cx, int cz, const bf16 **w, const float **bias);

#endif
