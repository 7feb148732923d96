// test_cuda.h: what test_cuda.c shares with the group files split out of it (test_cuda_trimul.c, test_cuda_attn.c):
// the run's options, the shard rule, and the check helpers every module test uses. Internal to test_cuda.
#ifndef PF_TEST_CUDA_H
#define PF_TEST_CUDA_H
#include <stdint.h>
#include "cuda_harness.h"
#include "../../src/backend/ops.h"

extern int quick;  // --quick: small sizes only
// --shard K/M: does the next attention / trimul case belong to this shard (test_cuda.c)
int shard_case(void);
extern int shard_m;  // M of --shard K/M (1: no sharding)
extern int shard_hold;  // 1 while a wrapper case runs its inner case (counted once, as the wrapper)

// An input gradient buffer on both backends with its starting values (init) and a snapshot after the first
// backward (snap, for the backward-twice check)
typedef struct { hbuf b; real *init, *snap; } hgrad;
hgrad g_in(int64_t n, uint64_t seed);
void g_check(const char *label, const char *nm, hgrad *g);      // the increment against the CPU's
void g_check_acc(const char *label, const char *nm, hgrad *g);  // the same, bf16 storage error in quadrature
void g_twice(const char *label, const char *nm, hgrad *g);      // a second backward doubled the increment
void out_check(const char *label, const char *nm, const hbuf *got, const real *ref);
void guards(const char *label);  // every GPU buffer's guard bytes intact
// saved and workspace regions of an op's memory plan on both backends (CPU: cs, cw; GPU, guarded: gs, gw)
typedef struct { void *cs, *cw, *gs, *gw; } mems;
mems mk_mems(pf_mem mc, pf_mem mg);
void free_mems(mems *m);
void finish(const char *label);  // guards, then every GPU buffer and the host pool released

// Forwards without saved (inference) on exactly ws_fwd bytes: k = 0 as planned, 1 the smallest pieces, 2 about a
// third of the whole (test_cuda.c)
extern const char *INFERENCE_WHAT[3];
void inference_pieces(int k, pf_mem whole);
// The sharded entries' communicator of one rank (copies)
extern const pf_dap_comm P1;
int64_t first_diff(const real *a, const real *b, int64_t n);  // the first index whose bits differ, -1 if none

// The groups of test_cuda_trimul.c: `trimul` (ops.def's cuda_trimul) and the `--only` groups of its kernel forms
void cuda_trimul_save_x(void);
void cuda_trimul_lnin(void);
void cuda_trimul_wgp(void);
void cuda_trimul_sgwgp(void);
void cuda_trimul_bwdcat(void);
void cuda_trimul_gdw(void);
void cuda_trimul_outb(void);
void cuda_trimul_outw(void);
void cuda_trimul_out_rows(void);
void cuda_trimul_sg2(void);

// The groups of test_cuda_attn.c: `attn` (ops.def's cuda_attn) in N_ATTN_PARTS parts (`--only attn.K`: part K - 1)
// and the `--only` groups of its kernel forms
extern const int N_ATTN_PARTS;
void cuda_attn_part(int k);
void cuda_attn_proj_own(void);
void cuda_attn_gate_wg(void);
void cuda_attn_lnproj(void);
void cuda_attn_proj_bwd(void);
void cuda_attn_end_inplace(void);
void cuda_attn_bwd_wg(void);
void cuda_attn_bwd_wg_small(void);
#endif
