// cu_flash.cuh: fused attention kernels (online softmax), forward and backward.
//
// One (row r, head h) attends over L positions; q, k, v, o, dO are (M, H*c_h)
// activations in the module's stored layout, position (r, l) at row
// r * rstride + l * pstride. Logits are never written to memory: the forward
// keeps a running max and sum per query and saves only the log-sum-exp; the
// backward recomputes probabilities from it. Masks (key_mask, same layout
// without channels) are applied in-kernel. The pair bias is read from biasT
// (H, L_key, L_query) fp32. The bias gradient, a sum over the B rows, is
// reduced by one thread per (query, key, head) looping over rows in order:
// deterministic, no atomics. Memory is O(B L H c_h + H L^2).
#ifndef PF_CU_FLASH_CUH
#define PF_CU_FLASH_CUH
#include "cu_common.cuh"

typedef struct {
    const void *q, *k, *v, *o, *dO, *mask;
    void *out_o, *dq, *dk, *dv, *dbias;  // dbias: (L*L, H) act, element bidx(l, l') * H + h
    const float *biasT;                  // (H, L, L) [h][key][query], or NULL
    float *lse;                          // (B, H, L)
    const float *D;                      // (B, H, L) rowsum(dO * o)
    int64_t B, L, HC, rstride, pstride; // HC: elements between positions in q, k, v, o, dO, dq, dk,
                                        // dv: H c_h, or more (the module's interleaved rows)
    int H, ch;
    int bias_tr;                         // dbias element (l, l') at l' * L + l (ending node)
    float scale;                         // 1 / sqrt(c_h)
    float *dbias_part;                   // (splits, H, L, L) fp32 scratch (fa_dbias_splits > 1)
    void *dbias_planes;                  // set by the bf16 launcher: (H, L, L) act scratch, the bias
                                         // gradient per head before the heads are interleaved
    int nsplit;                          // set by the launcher
    int nsplit_cap;                      // 0, or at most this many ranges: the split count of the
                                         // row count dbias_part was sized for (a smaller last piece
                                         // of rows may be given more ranges by fa_dbias_splits)
    int bias_bf16;                       // biasT's values are bf16 numbers (bf16 mode: the bias
                                         // projection's output), so a bf16 copy of it is exact
    const bf16 *biasT16;                 // set by the fused backward's launcher: biasT as bf16; by
                                         // the Hopper forward's: the same values in its own order
    float lazy_step;                     // set by the bias-mma forward's launcher (s9b_run):
                                         // PF_ATTN_FWD_LAZY, log2 units (cu_flash_sm90.cu, s9_lazy_up)
} fa_args;

// The bf16 bias gradient splits the rows r into this many ranges (one block
// each, for parallelism); the partial sums are then added in range order.
int fa_dbias_splits(int bf16, int64_t B, int64_t L, int H, int n_sm);
// What the bf16 bias-gradient launchers take: the same for a's rows, capped at a->nsplit_cap.
int fa_dbias_nsplit(const cu_impl *c, const fa_args *a);

void fa_forward(cu_impl *c, const fa_args *a);
// dq, dk, dv written (not accumulated); dbias written when a->dbias.
void fa_backward(cu_impl *c, const fa_args *a);
// bf16 tensor-core versions (cu_flash_tc.cu), c_h <= 32; fa_forward / fa_backward
// dispatch to them in bf16 mode.
void fa_tc_forward(cu_impl *c, const fa_args *a);
void fa_tc_backward(cu_impl *c, const fa_args *a);
// Backward variants (cu_flash_bwd.cu: rows per block, warps of the bias-gradient
// kernel; 0 is fa_tc_backward's) and the previous three-kernel backward
// (cu_flash_tc.cu), for bench/attn_bwd_check.cu.
// parts: 1 dk/dv, 2 dq, 4 bias gradient (7 all).
int fa_tc_backward_variants(void);
const char *fa_tc_backward_variant_name(int v);
void fa_tc_backward_variant(cu_impl *c, const fa_args *a, int v, int parts);
void fa_tc_backward_v1(cu_impl *c, const fa_args *a);
// Kernel variants of the bias-gradient pass (cu_flash_bwd_dbias.cu; cu_impl.attn_dbias).
int fa_bwd_dbias_variants(void);
const char *fa_bwd_dbias_variant_name(int v);
// Hopper forward with rows batched per block (cu_flash_sm90.cu): returns nonzero
// (nothing launched) when off (PF_ATTN_SM90=0, not sm_90) or the case is not
// handled; fa_forward then runs fa_tc_forward. The bias tile comes from a bf16 copy
// where exact (bias_bf16, B >= 4; PF_ATTN_FWD_B16=0: always fp32; same bits).
// _variant: k_s9_fwd (one row per block, mma.sync); b16 1 = the bf16 bias tile (refused
// where no exact copy fits the pool), 0 = fp32; no device or env check (benchmarks).
int fa_sm90_forward(cu_impl *c, const fa_args *a);
int fa_sm90_forward_variant(cu_impl *c, const fa_args *a, int b16);
// The pipelined kernel (S of key tile j + 1 issued before tile j's softmax), one row per
// block, mma.sync: same bits as _variant(b16). fa_sm90_forward takes it unless
// PF_ATTN_FWD_PIPE=0.
int fa_sm90_forward_pipe(cu_impl *c, const fa_args *a, int b16);
// The pipelined kernel with the pair bias added on the tensor core (k_s9_fwd_bmma: an
// identity-times-bias mma per 16 x 8 score block, one FFMA + one MUFU per score on key tiles
// without a masked key): needs the bias as bf16 numbers (bias_bf16; refused, nothing launched,
// otherwise or with no bias); not bit-identical to the other kernels. fa_sm90_forward takes
// it with PF_ATTN_FWD_BMMA=1 where it takes the bf16 bias copy. No device or env check.
int fa_sm90_forward_bmma(cu_impl *c, const fa_args *a);
// k_s9_fwd_bmma with two 16-query sub-tiles per warp (128 queries per block, 3 blocks per SM;
// same bits). Cases as fa_sm90_forward_bmma. fa_sm90_forward's default where k_s9_fwd_half (PF_ATTN_FWD_BMMA=4,
// the default since session 56) and k_s9_fwd_tma (=3, sessions 52-55) do not apply; PF_ATTN_FWD_BMMA=2 selects it.
int fa_sm90_forward_bmma2(cu_impl *c, const fa_args *a);
// The warp-specialised wgmma forward (cu_flash_fwd_ws.cu; sm_90a, c_h 32, L % 64 == 0, L >= 128,
// a bias of bf16 numbers): nonzero (nothing launched) where it does not apply. fa_sm90_forward
// tries it first with PF_ATTN_FWD_WS=1 (opt-in, session 31). _runs: its launches so far.
int fa_sm90_forward_ws(cu_impl *c, const fa_args *a);
int64_t fa_sm90_forward_ws_runs(void);
// k_s9_fwd_half's opt-in forms (cu_flash_sm90_tma.cu): PF_ATTN_FWD_AO (its ldmatrix offsets held) and
// PF_ATTN_FWD_SB (no block barrier a tile), session 61, both keeping its bits; PF_ATTN_FWD_FX (session 63: 1 the
// reference max fixed after the first key tile, other bits; 2 that form with every block worked again by the
// default's arithmetic, its bits); _set: ao, sb 0 / 1, fx 0..2, or -1 the environment's; _runs(form): its launches
// so far by form AO + 2 SB + 4 FX (0..11)
void fa_sm90_half_forms_set(int ao, int sb, int fx);
int64_t fa_sm90_half_runs(int form);
// D[r, h, l] = sum_c dO * o
void fa_rowdot(cu_impl *c, const fa_args *a, float *D);
// The same with o's positions ldo elements apart (dO and the rest: a->HC; the module's
// interleaved projections, cu_attn_proj.cu, keep o apart from them).
void fa_rowdot_ld(cu_impl *c, const fa_args *a, float *D, int64_t ldo);

#endif
