// cu_flash_sm90.cuh: pieces of the Hopper attention forward (cu_flash_sm90.cu): tile
// constants, the online-softmax update of one 64 x 64 score tile in the m16n8 accumulator
// layout, the epilogue, the bf16 bias copy; and the wgmma wrappers and mbarriers (sm_90a)
// that the wgmma kernels of the transition and the triangle update use (cu_wg_ring.cuh).
// (The attention's own wgmma kernels were slower than mma.sync and were removed in session
// 15: docs/ATTENTION_SM90.md.)
#ifndef PF_CU_FLASH_SM90_CUH
#define PF_CU_FLASH_SM90_CUH
#include "cu_mma.cuh"

#define S9_Q 64    // queries per block (4 warps x 16)
#define S9_K 64    // key tile
#define S9_BS 68   // bias tile row stride (floats)
#define S9_BS16 72 // bf16 bias tile row stride (elements; 144 bytes)
#define S9_L2E 1.4426950408889634f
#define S9_LN2 0.6931471805599453f

// Element offset of (position j, channel c) in a K / V / Q tile: [j][CH + 8] (padded rows,
// conflict-free ldmatrix).
template <int CH>
__device__ __forceinline__ int s9_off(int j, int c) { return j * (CH + 8) + c; }

// Whether the current device has compute capability 9 (the sm_90a code of the wgmma kernels
// runs there). Host code.
static inline int cu_device_cc9(void) {
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
    return major == 9;
}

// wgmma (sm_90a only; B operands from shared memory by descriptor, A from registers)
#if defined(PF_EMU)
// emu/emu_ptx.h: S9_HAVE_WGMMA and these wrappers on the CPU emulator
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define S9_HAVE_WGMMA 1
__device__ __forceinline__ uint64_t s9_desc(const void *p, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((fa_smem(p) & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32);
}
__device__ __forceinline__ void s9_wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void s9_wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// keeps the compiler from moving accumulator reads or writes across the asynchronous MMA
template <int N>
__device__ __forceinline__ void s9_wg_hold(float *d) {
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("" : "+f"(d[i])::"memory");
}
// D (64 x 64) (+)= A (64 x 16, registers) B (16 x 64, K-major descriptor)
__device__ __forceinline__ void s9_wg_n64(float *d, const uint32_t *a, uint64_t desc, int acc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, "
        "{%32,%33,%34,%35}, %36, p, 1, 1, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(acc));
}
// D (64 x 64) = A (64 x 16, registers) B (16 x 64, K-major descriptor), D not read
// (scale-d an immediate 0, registers outputs only): what they held before (the previous
// tile's P, written while S of the next tile runs) is then no input of this wgmma; with
// scale-d from a predicate register ptxas serialized every wgmma (C7515)
__device__ __forceinline__ void wg_n64_first(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, "
        "{%32,%33,%34,%35}, %36, 0, 1, 1, 0;\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
          "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]),
          "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]),
          "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// D (64 x 32) = (first) / += A (64 x 16, registers) B (16 x 32, K-major descriptor), scale-d an immediate:
// the transition backward's dh (cu_transition_wgb.cu), k_tm_outbw<3>'s y, g products in half tiles
// (cu_trimul_outwb.cu: 16 accumulator registers each, not 32)
__device__ __forceinline__ void wg_n32_first(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19}, %20, 0, 1, 1, 0;\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
          "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
__device__ __forceinline__ void wg_n32(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19}, %20, 1, 1, 1, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// D (64 x 32) = (first) / += A (64 x 16) B (16 x 32), both K-major by descriptor: k_tm_outbw<3>'s g
// products (A = zl's staging in the core-matrix layout)
__device__ __forceinline__ void wg_ss_n32_first(float *d, uint64_t adesc, uint64_t bdesc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, 0, 1, 1, 0, 0;\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
          "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15])
        : "l"(adesc), "l"(bdesc));
}
__device__ __forceinline__ void wg_ss_n32(float *d, uint64_t adesc, uint64_t bdesc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, 1, 1, 1, 0, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "l"(adesc), "l"(bdesc));
}
// The thread's generic-proxy shared-memory writes (cp.async landed by its wait_group) ordered before
// wgmma's reads of them (the async proxy); then a barrier
__device__ __forceinline__ void wg_fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// D (64 x 16) += A (64 x 16, registers) B (16 x 16, N-major descriptor: imm-trans-b): the
// triangle update's side gradient (cu_trimul_side_wg.cu) and the attention backward's dq
// product (cu_flash_bwd_wg.cu)
__device__ __forceinline__ void wg_n16_tb(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// D (64 x 32) += A (64 x 16, registers) B (16 x 32, N-major descriptor): O += P V of a 32-channel head (the
// attention forward's second product in tests/cuda/tma_probe.cu)
__device__ __forceinline__ void wg_n32_tb(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19}, %20, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// D (64 x 64) = A (64 x 16, registers) B (16 x 64, N-major descriptor: imm-trans-b), D not read (the
// output part's backward, cu_trimul_outwb.cu)
__device__ __forceinline__ void wg_n64_tb_first(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, "
        "{%32,%33,%34,%35}, %36, 0, 1, 1, 1;\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
          "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]),
          "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]),
          "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
// D (64 x 64) += A (64 x 16, registers) B (16 x 64, N-major descriptor): k_tm_sg2 (cu_trimul_side_wg.cu),
// k_tm_outbw (cu_trimul_outwb.cu)
__device__ __forceinline__ void wg_n64_tb(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, "
        "{%32,%33,%34,%35}, %36, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// mbarriers (shared with the transition's wgmma kernel, cu_transition_wg.cu)
__device__ __forceinline__ void wg_bar_init(uint64_t *b, int n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(fa_smem(b)), "r"(n) : "memory");
}
// after the mbarriers' init: visible to the bulk copies (the async proxy)
__device__ __forceinline__ void wg_fence_mbarrier_init() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
// release (CTA scope): the thread's earlier shared-memory accesses are ordered before
__device__ __forceinline__ void wg_bar_arrive(uint64_t *b) {
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}\n" ::"r"(fa_smem(b)) : "memory");
}
// A wait past this many nanoseconds is a hang: no bulk copy or arrival takes seconds (session
// 26 found a crop-768 training step that never returned with PF_TR_WGO and PF_TR_WGB both on).
#define WG_BAR_WAIT_LIMIT_NS 20000000000ull
__device__ __forceinline__ uint64_t wg_globaltimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
// waits until the barrier's phase of this parity has completed (acquire). After
// WG_BAR_WAIT_LIMIT_NS the kernel traps, so a lost arrival or copy fails the launch ("unspecified
// launch failure"; with CUDA_LAUNCH_BLOCKING=1 at the launch's own check) instead of hanging the
// process. No printf: any call inside these kernels makes ptxas serialize their wgmma (C7510).
// The clock is read once per POLLS polls: nothing on the path that returns. HINT_NS: 0, the
// hardware's own try_wait; else a suspend-time hint, so that a waiting warp sleeps instead of
// spinning (k_fwd_ws: its consumers' polling was a fifth of its instructions, session 31).
template <uint32_t HINT_NS = 0, uint32_t POLLS = 4096>
__device__ __forceinline__ void wg_bar_wait(uint64_t *b, uint32_t parity) {
    uint32_t ok, polls = 0;
    uint64_t t0 = 0;
    for (;;) {
        if (HINT_NS == 0)
            asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                         : "=r"(ok) : "r"(fa_smem(b)), "r"(parity) : "memory");
        else
            asm volatile(
                "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\nselp.u32 %0, 1, 0, p;\n}\n"
                : "=r"(ok) : "r"(fa_smem(b)), "r"(parity), "r"(HINT_NS) : "memory");
        if (ok) return;
        if ((++polls & (POLLS - 1)) == 0) {
            const uint64_t t = wg_globaltimer();
            if (polls == POLLS) t0 = t;
            else if (t - t0 > WG_BAR_WAIT_LIMIT_NS) __trap();
        }
    }
}
template <int N>
__device__ __forceinline__ void wg_mma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }
// D (64 x 128) += A (64 x 16) B (16 x 128), A M-major and B N-major by descriptor (imm-trans-a, -b): the
// in-kernel weight gradients (cu_trimul_outwd.cu dW_z, cu_attn_gate_wgd.cu dW_o)
__device__ __forceinline__ void wg_ss_n128_tt(float *d, uint64_t adesc, uint64_t bdesc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,"
        "%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,"
        "%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, 1, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(adesc), "l"(bdesc));
}
// D (64 x 64) = (first) / += A (64 x 16) B (16 x 64), both K-major by descriptor: the attention gate's
// backward with W_o's gradient (cu_attn_gate_wgd.cu: A = d_out's staging in the core-matrix layout)
__device__ __forceinline__ void wg_ss_n64_first(float *d, uint64_t adesc, uint64_t bdesc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 0, 1, 1, 0, 0;\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
          "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]),
          "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]),
          "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31])
        : "l"(adesc), "l"(bdesc));
}
__device__ __forceinline__ void wg_ss_n64(float *d, uint64_t adesc, uint64_t bdesc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(adesc), "l"(bdesc));
}

#else
#define S9_HAVE_WGMMA 0
#endif

#if S9_HAVE_WGMMA
// acc (128 x 128: two m64n128 halves, rows 64 h ..) += A^T B over one 64-position tile, A and B (64 positions x
// 128) both in a row tile's core-matrix layout (16-byte chunk k of row r at element ((r / 8) 16 + k) 64 + (r % 8)
// 8) and read M-major / N-major by descriptor (LBO 2 KB along the positions, SBO 128 B along the channels): 8
// wgmma m64n128k16, issued (no fence, commit or wait: the caller's group, k_tm_gdw's with its dzl products).
__device__ __forceinline__ void wg_tile_atb_issue(float (&acc)[2][64], const void *a, const void *b) {
    const uint64_t da = s9_desc(a, 2048, 128), db = s9_desc(b, 2048, 128);
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int ks = 0; ks < 4; ks++) wg_ss_n128_tt(acc[h], da + ((h * 1024 + ks * 4096) >> 4), db + ((ks * 4096) >> 4));
}
__device__ __forceinline__ void wg_dw_zero(float (&acc)[2][64]) {
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int i = 0; i < 64; i++) acc[h][i] = 0.f;
}
// The 128 x 128 sums to out (rows 128 apart): accumulator row 64 h + r (r = 16 w + g + 8 e2) to out's row row(h, r),
// column 8 j + 2 t + e.
template <typename ROW>
__device__ __forceinline__ void wg_dw_store(const float (&acc)[2][64], float *out, ROW row) {
    const int lane = threadIdx.x & 31, w = (threadIdx.x >> 5) & 3;
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int e2 = 0; e2 < 2; e2++) {
            const int o = row(h, 16 * w + (lane >> 2) + 8 * e2);
#pragma unroll
            for (int j = 0; j < 16; j++)
                *reinterpret_cast<float2 *>(out + o * 128 + 8 * j + 2 * (lane & 3)) =
                    make_float2(acc[h][4 * j + 2 * e2], acc[h][4 * j + 2 * e2 + 1]);
        }
}

// The dW warpgroup of those kernels: for the block's tiles of both compute warpgroups in turn (tile 2 blockIdx.x +
// c + 2 k gridDim.x of T for k = 0, 1, .., c = 0, 1: a fixed order, the same bits every run), wait full[c] (parity
// k & 1), acc += A^T B of that tile (tile(c, &a, &b) names the compute warpgroup's two stagings; beside(c) runs
// while the products do, on the same stagings), arrive empty[c]; then the sums to out by wg_dw_store.
template <typename TILE, typename ROW, typename BESIDE>
__device__ __forceinline__ void wg_dw_sum(uint64_t *full, uint64_t *empty, int64_t T, float *out, TILE tile, ROW row,
                                          BESIDE beside) {
    const int64_t stride = (int64_t)gridDim.x * 2;
    float acc[2][64];
    wg_dw_zero(acc);
    for (int64_t k = 0;; k++) {
        const int64_t t0 = (int64_t)blockIdx.x * 2 + k * stride;
        if (t0 >= T) break;
#pragma unroll
        for (int c = 0; c < 2; c++) {
            if (t0 + c >= T) break;
            wg_bar_wait(full + c, (uint32_t)(k & 1));
            const void *a, *b;
            tile(c, &a, &b);
            __syncwarp();  // converged for the .aligned wgmma instructions
            s9_wg_fence();
            wg_tile_atb_issue(acc, a, b);
            s9_wg_commit();
            beside(c);
            wg_mma_wait<0>();
            s9_wg_hold<64>(acc[0]), s9_wg_hold<64>(acc[1]);
            wg_bar_arrive(empty + c);
        }
    }
    wg_dw_store(acc, out, row);
}
#endif

// This thread's 16 bias values of keys 8 j + 2 t + (0, 1), j = 4 hf .. 4 hf + 3, of the
// bf16 tile Bt ([query][key position], s9 header): w[u][jj] holds key 8 j + 2 t (low half)
// and 8 j + 2 t + 1 (high half) of query 16 wq + g + 8 u, j = 4 hf + jj. By halves:
// 8 registers live, not 16 (the 32-channel kernels spilled with all 16).
__device__ __forceinline__ void s9_bias16_words(const bf16 *Bt, int wq, int g, int t, int hf, uint32_t (&w)[2][4]) {
#pragma unroll
    for (int u = 0; u < 2; u++) {
        uint4 x = *(const uint4 *)(Bt + (16 * wq + g + 8 * u) * S9_BS16 + 16 * t + 8 * hf);
        w[u][0] = x.x, w[u][1] = x.y, w[u][2] = x.z, w[u][3] = x.w;
    }
}

// This thread's maximum of row half u (u = 0: its rows g, 1: g + 8) of a 16 x 64 score tile
// in the mma accumulator layout: a pairwise tree in a fixed order (short dependency chains,
// deterministic); the quad's shuffles follow at the caller.
// (NJ 8-key column blocks: 8, or 4 for k_s9_fwd_half's 32-key halves)
template <int NJ>
__device__ __forceinline__ float s9_thread_row_max(const float (&s)[NJ][4], int u) {
    float t8[NJ];
#pragma unroll
    for (int j = 0; j < NJ; j++) t8[j] = fmaxf(s[j][2 * u], s[j][2 * u + 1]);
#pragma unroll
    for (int w = NJ / 2; w >= 1; w >>= 1)
#pragma unroll
        for (int j = 0; j < w; j++) t8[j] = fmaxf(t8[j], t8[j + w]);
    return t8[0];
}

// Online softmax of a tile: logits in log2 units (scale, key mask Mt, bias Bt if
// bT: fp32, or B16 the bf16 tile, the same values), the running row max m and sum l
// updated, s turned into the unnormalized probabilities P; corr: the factor O is to be
// rescaled by (the max's change; s9_softmax_update applies it// its next O += P V). Maxima and sums are pairwise trees in a fixed order: short
// dependency chains, reproducible results.
template <bool B16>
__device__ __forceinline__ void s9_softmax_p(float (&s)[8][4], float (&m)[2], float (&l)[2], float (&corr)[2],
                                             const float *Mt, const void *Bt, const void *bT, float sc2, int wq, int g,
                                             int t) {
#pragma unroll
    for (int hf = 0; hf < 2; hf++) {
        uint32_t bw[2][4];
        if (B16 && bT) s9_bias16_words((const bf16 *)Bt, wq, g, t, hf, bw);
#pragma unroll
        for (int j = 4 * hf; j < 4 * hf + 4; j++) {
            float2 mk = *(const float2 *)(Mt + 8 * j + 2 * t);
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float add = (e & 1) ? mk.y : mk.x;
                if (bT) {
                    float bv;
                    if constexpr (B16) {  // bf16 -> fp32: the bits in the high half
                        uint32_t x = bw[e >> 1][j & 3];
                        bv = __uint_as_float((e & 1) ? x & 0xffff0000u : x << 16);
                    } else {
                        int col = 8 * j + 2 * t + (e & 1), row = 16 * wq + g + 8 * (e >> 1);
                        bv = ((const float *)Bt)[col * S9_BS + row];
                    }
                    add = fmaf(bv, S9_L2E, add);
                }
                s[j][e] = fmaf(s[j][e], sc2, add);
            }
        }
    }
    float mx[2];
#pragma unroll
    for (int u = 0; u < 2; u++) mx[u] = s9_thread_row_max(s, u);
#pragma unroll
    for (int u = 0; u < 2; u++) {
        mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 1));
        mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 2));
        float mn = fmaxf(m[u], mx[u]);
        corr[u] = fa_exp2(m[u] - mn);
        m[u] = mn;
        l[u] *= corr[u];
    }
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) s[j][e] = fa_exp2(s[j][e] - m[e >> 1]);
#pragma unroll
    for (int u = 0; u < 2; u++) {  // row sums, pairwise in a fixed order
        float t8[8];
#pragma unroll
        for (int j = 0; j < 8; j++) t8[j] = s[j][2 * u] + s[j][2 * u + 1];
#pragma unroll
        for (int w = 4; w >= 1; w >>= 1)
#pragma unroll
            for (int j = 0; j < w; j++) t8[j] += t8[j + w];
        l[u] += t8[0];
    }
}

// s9_softmax_p with O rescaled at once (the mma.sync kernels)
template <int CH, bool B16>
__device__ __forceinline__ void s9_softmax_update(float (&s)[8][4], float (&m)[2], float (&l)[2], float (&o)[CH / 8][4],
                                                  const float *Mt, const void *Bt, const void *bT, float sc2, int wq,
                                                  int g, int t) {
    float corr[2];
    s9_softmax_p<B16>(s, m, l, corr, Mt, Bt, bT, sc2, wq, g, t);
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int j = 0; j < CH / 8; j++) { o[j][2 * u] *= corr[u]; o[j][2 * u + 1] *= corr[u]; }
}

// Epilogue: the row sums completed over the quad (LQ; else each thread has them whole),
// then O / l in bf16 and the log-sum-exp (natural units) of the warp's query rows of row r
template <int CH, bool LQ = true>
__device__ __forceinline__ void s9_store_output(const fa_args &a, const float (&o)[CH / 8][4], const float (&m)[2],
                                                float (&l)[2], int64_t r, int64_t q0, int h, int wq, int g, int t) {
#pragma unroll
    for (int u = 0; u < 2 && LQ; u++) {
        l[u] += __shfl_xor_sync(0xffffffffu, l[u], 1);
        l[u] += __shfl_xor_sync(0xffffffffu, l[u], 2);
    }
    if (r >= a.B) return;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t q = q0 + 16 * wq + g + 8 * u;
        if (q >= a.L) continue;
        float inv = 1.f / l[u];
        bf16 *op = (bf16 *)a.out_o + fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch;
#pragma unroll
        for (int j = 0; j < CH / 8; j++) {
            int c = 8 * j + 2 * t;  // c_h % 8 == 0: c < c_h implies c + 1 < c_h
            if (c < a.ch)
                *(__nv_bfloat162 *)(op + c) = __floats2bfloat162_rn(o[j][2 * u] * inv, o[j][2 * u + 1] * inv);
        }
        // fully masked row (every logit near -1e9): lse = +inf, as k_tc_fwd
        float mnat = m[u] * S9_LN2;
        if (t == 0) a.lse[(r * a.H + h) * a.L + q] = mnat < -5e8f ? INFINITY : mnat + logf(l[u]);
    }
}

// The bf16 copy of a->biasT in the kernel's order (k_s9_bias16), at the top of the pool for
// the next launch in stream order, or NULL (not bf16 numbers, or no room).
const bf16 *fa_sm90_bias16(cu_impl *c, const fa_args *a);

#endif
