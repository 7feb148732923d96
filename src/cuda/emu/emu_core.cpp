// emu_core.cpp: the kernel emulator's runtime (emu_ptx.h; docs/EMULATOR.md): a block's threads
// as fibers (own stacks, switched by emu_ctx_switch below) run by one scheduler in rounds, the collectives (the last thread to arrive
// computes the instruction for all), asynchronous copies and wgmma groups, mbarriers; the blocks of a thread-block
// cluster run together in one scheduler, each with its own shared memory (session 52: "Thread-block clusters").
#include "emu_ptx.h"
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

emu_thread *emu_cur;
uint3 emu_bix;
dim3 emu_bdim, emu_gdim;
alignas(1024) unsigned char emu_smem[EMU_SMEM_BYTES];
emu_options emu_opts;
emu_stats_t emu_stats;
static const char BAR_NAMED[] = "bar.sync / bar.arrive (named)";

#define EMU_STACK (512 * 1024)
#define EMU_MAX_THREADS 1024

// The fiber switch (x86-64 System V): the callee-saved registers pushed on the current stack, its
// stack pointer stored in *from, `to`'s loaded, its registers popped. ucontext's swapcontext made a
// signal-mask system call per switch (80% of the emulator's time).
extern "C" void emu_ctx_switch(void **from, void *to);
asm(R"(
.text
.globl emu_ctx_switch
.type emu_ctx_switch, @function
emu_ctx_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
.size emu_ctx_switch, .-emu_ctx_switch
)");

namespace {

struct copy_op {
    void *dst;
    const void *src;
    int bytes, src_bytes;
};
void copy_run(const copy_op &c) {
    if (c.src_bytes > 0) memcpy(c.dst, c.src, (size_t)c.src_bytes);
    if (c.bytes > c.src_bytes) memset((char *)c.dst + (c.src_bytes > 0 ? c.src_bytes : 0), 0, (size_t)(c.bytes - (c.src_bytes > 0 ? c.src_bytes : 0)));
}

enum wait_kind { W_NONE, W_GEN, W_MBAR };
struct cta_state;
struct fiber {
    emu_thread t;
    void *sp;  // saved stack pointer while switched out
    char *stack;
    int done, blocked;
    wait_kind wk;
    const uint64_t *wgen;
    uint64_t wval;
    uint32_t maddr, mpar;
    const char *what;
    std::vector<copy_op> cp_open;
    std::deque<std::vector<copy_op>> cp_groups;
    cta_state *cta;        // its block
    int cl_arrived;        // barrier.cluster.arrive done, its wait not yet
    uint64_t cl_gen;       // the cluster barrier's phase it arrived in
};

// One collective in progress: the threads' operand blocks, in thread order within the scope.
struct coll {
    int arrived, expect;
    const char *what;
    uint64_t gen;
    void *io[EMU_MAX_THREADS];
};

struct wg_op {
    float *d[128];
    uint32_t a[128][4];
    uint64_t desc, adesc;  // B's descriptor; A's where A is in shared memory (a_smem)
    int n, scale_d, trans_b, a_smem, trans_a;
};
struct wg_state {
    std::vector<wg_op> open;
    std::deque<std::vector<wg_op>> groups;
};

struct mbar {
    int expect, pending;
    int64_t tx;
    uint32_t phase;
};

// One block (CTA): its threads, collectives, wgmma groups, mbarriers. A launch without clusters runs one at a time
// in ctas[0]; a cluster's blocks run together in ctas[0 .. ncta).
struct cta_state {
    fiber fibs[EMU_MAX_THREADS];
    int live, exited, rank;
    uint3 bix;
    uint64_t rng;  // its threads' shuffles (emu_opts.order 2)
    coll warp_c[EMU_MAX_THREADS / 32], wgrp_c[EMU_MAX_THREADS / 128], block_c, named_c[16];
    wg_state wgs[EMU_MAX_THREADS / 128];
    std::unordered_map<uint32_t, mbar> bars;
    std::vector<unsigned char> smem;  // its shared memory while another block of the cluster's is in emu_smem
};
std::vector<cta_state *> ctas;  // kept across launches (fiber stacks included)
int ncta = 1;                   // blocks in the running cluster
cta_state *cc;                  // the running fiber's block
cta_state *resident;            // the block whose shared memory is in emu_smem (cc whenever a fiber runs)
int nthreads, cluster_live;     // threads per block; the cluster's threads not yet exited
struct {
    int arrived;  // threads counted toward the current phase
    uint64_t gen;
} clbar;  // barrier.cluster
void *sched_sp;
fiber *cur;
emu_kernel_fn cur_fn;
void *cur_ctx;
// the launch's static __shared__ arrays (from static_low up) and dynamic bytes
size_t static_low = EMU_SMEM_BYTES, launch_smem;

void block_until_gen(const uint64_t *g, uint64_t v, const char *what) {
    cur->blocked = 1, cur->wk = W_GEN, cur->wgen = g, cur->wval = v, cur->what = what;
    emu_ctx_switch(&cur->sp, sched_sp);
}

int mbar_done(cta_state *c, uint32_t addr, uint32_t parity) {
    auto it = c->bars.find(addr);
    if (it == c->bars.end()) emu_fail("mbarrier wait at shared 0x%x: not initialised", addr);
    return (it->second.phase & 1) != (parity & 1);
}

int ready(const fiber &f) {
    if (!f.blocked) return 1;
    if (f.wk == W_GEN) return *f.wgen != f.wval;
    if (f.wk == W_MBAR) return mbar_done(f.cta, f.maddr, f.mpar);
    return 1;
}

// Arrive at collective c (expect threads), operands io; the last arrival runs fn on all of them.
template <typename IO>
void collective(coll &c, int expect, int slot, const char *what, IO *io, void (*fn)(IO **, int)) {
    if (c.arrived == 0) c.what = what, c.expect = expect;
    else if (c.what != what || c.expect != expect)
        emu_fail("thread %d reaches %s (%d threads) while others wait at %s (%d): divergent collectives", cur->t.id,
                 what, expect, c.what, c.expect);
    if (c.io[slot]) emu_fail("thread %d arrives twice at %s", cur->t.id, what);
    c.io[slot] = io;
    if (++c.arrived == expect) {
        if (fn) fn((IO **)c.io, expect);
        for (int i = 0; i < expect; i++) c.io[i] = NULL;
        c.arrived = 0;
        c.gen++;
        emu_stats.collectives++;
        return;
    }
    block_until_gen(&c.gen, c.gen, what);
}

int lane_of(void) { return cur->t.id & 31; }
coll &warp_of(void) { return cc->warp_c[cur->t.id >> 5]; }
int warp_size_of(void) {
    const int w0 = cur->t.id & ~31;
    return nthreads - w0 < 32 ? nthreads - w0 : 32;
}

// barrier.cluster's phase completes once every thread of the cluster not yet exited has arrived
void cluster_bar_check(void) {
    if (clbar.arrived > 0 && clbar.arrived == cluster_live) clbar.arrived = 0, clbar.gen++;
}

void entry(void) {
    cur_fn(cur_ctx);
    fiber *f = cur;
    cta_state *c = f->cta;
    for (auto &g : f->cp_groups)
        for (auto &cp : g) copy_run(cp);
    for (auto &cp : f->cp_open) copy_run(cp);
    f->cp_groups.clear(), f->cp_open.clear();
    f->done = 1;
    c->live--, cluster_live--;
    c->exited = c->live == 0;  // its shared memory is gone: a peer's access to it fails (cta_addressed)
    // a block barrier waiting only for exited threads completes
    if (c->block_c.arrived > 0 && c->block_c.arrived == c->live) {
        for (int i = 0; i < EMU_MAX_THREADS; i++) c->block_c.io[i] = NULL;
        c->block_c.arrived = 0, c->block_c.gen++;
    }
    cluster_bar_check();
    emu_ctx_switch(&f->sp, sched_sp);
    emu_fail("a finished fiber was resumed");
}

uint64_t rng_next(uint64_t &s) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return s;
}
void shuffle(std::vector<int> &v, uint64_t &s) {
    for (int i = (int)v.size() - 1; i > 0; i--) {
        int j = (int)(rng_next(s) % (uint64_t)(i + 1));
        int t = v[(size_t)i];
        v[(size_t)i] = v[(size_t)j], v[(size_t)j] = t;
    }
}

void deadlock(void) {
    for (int r = 0; r < ncta; r++) {
        const cta_state *c = ctas[(size_t)r];
        if (!c->live) continue;
        if (ncta > 1)
            fprintf(stderr, "emu: block (%u, %u, %u), cluster rank %d of %d: every live thread of the cluster waits:\n",
                    c->bix.x, c->bix.y, c->bix.z, r, ncta);
        else fprintf(stderr, "emu: block (%u, %u, %u): every live thread waits:\n", c->bix.x, c->bix.y, c->bix.z);
        int shown = 0;
        for (int i = 0; i < nthreads && shown < 12; i++) {
            const fiber &f = c->fibs[i];
            if (f.done) continue;
            int j = i;
            while (j + 1 < nthreads && !c->fibs[j + 1].done && c->fibs[j + 1].what == f.what) j++;
            fprintf(stderr, "  threads %d..%d at %s\n", i, j, f.what ? f.what : "?");
            i = j, shown++;
        }
    }
    emu_fail("deadlock");
}

void init_fibers(cta_state *c) {
    for (int i = 0; i < nthreads; i++) {
        fiber &f = c->fibs[i];
        if (!f.stack) {
            f.stack = (char *)mmap(NULL, EMU_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (f.stack == MAP_FAILED) emu_fail("no memory for a fiber stack");
        }
        f.t.id = i;
        f.t.tix = make_uint3(i % emu_bdim.x, (i / emu_bdim.x) % emu_bdim.y, i / (emu_bdim.x * emu_bdim.y));
        f.done = 0, f.blocked = 0, f.wk = W_NONE, f.what = NULL;
        f.cp_open.clear(), f.cp_groups.clear();
        f.cta = c, f.cl_arrived = 0, f.cl_gen = 0;
        // the first switch pops six zero registers and returns into entry, with the stack aligned
        // as after a call
        uint64_t *top = (uint64_t *)(f.stack + EMU_STACK);
        top[-1] = 0, top[-2] = (uint64_t)(uintptr_t)entry;
        for (int r = 3; r <= 8; r++) top[-r] = 0;
        f.sp = top - 8;
    }
    c->live = nthreads, c->exited = 0;
    c->rng = emu_opts.seed * 2654435761u + 88172645463325252ull + c->bix.x;
}

// Block c's shared memory into emu_smem (the kernels address shared memory through emu_smem's host addresses),
// the resident block's out to its store: the dynamic bytes and the static arrays only. One block: nothing to do.
void make_resident(cta_state *c) {
    if (c == resident) return;
    unsigned char *out = resident->smem.data(), *in = c->smem.data();
    const size_t top = EMU_SMEM_BYTES - static_low;
    memcpy(out, emu_smem, launch_smem), memcpy(out + static_low, emu_smem + static_low, top);
    memcpy(emu_smem, in, launch_smem), memcpy(emu_smem + static_low, in + static_low, top);
    resident = c;
}

// One round of block c: each of its threads that can go on runs until it waits or exits, in this round's order.
// Returns 1 if a thread ran, | 2 if emu_opts.slow_warp held a ready thread back (never when `stalled`: the last
// round ran nothing).
int run_round(cta_state *c, std::vector<int> &order, int stalled) {
    for (int i = 0; i < nthreads; i++) order[(size_t)i] = emu_opts.order == 1 ? nthreads - 1 - i : i;
    if (emu_opts.order == 2) shuffle(order, c->rng);
    int ran = 0, held = 0;
    const int nwarps = (nthreads + 31) / 32;
    const bool slow = emu_opts.order == 2 && emu_opts.slow_warp > 1 && !stalled &&
                      rng_next(c->rng) % (uint64_t)emu_opts.slow_warp != 0;
    const int slow_w = (int)(emu_opts.seed % (uint64_t)nwarps);
    for (int k = 0; k < nthreads; k++) {
        fiber &f = c->fibs[order[(size_t)k]];
        if (f.done || !ready(f)) continue;
        if (slow && f.t.id / 32 == slow_w) {
            held = 2;
            continue;
        }
        make_resident(c);
        f.blocked = 0, f.wk = W_NONE;
        cc = c, emu_bix = c->bix;
        cur = &f, emu_cur = &f.t;
        emu_ctx_switch(&sched_sp, f.sp);
        emu_stats.switches++;
        ran = 1;
    }
    return ran | held;
}

// The blocks ctas[0 .. ncta) (one, or a cluster's) to their end: rounds in which each block's ready threads run, the
// blocks in ascending rank, descending (emu_opts.order 1) or an order shuffled per round (2), so a thread of one block
// may see another block's progress in either order. Shuffled, each block of a cluster also sits out a round with
// probability 1/2, so that one block runs rounds ahead of another (as on a GPU, where nothing keeps them in step): a
// refill of a peer's buffer that peer still reads, or an arrival it has not yet made, shows; emu_opts.slow_block k
// instead lets one block run only one round in k (a peer a whole tile ahead). A round where no thread of any block
// can go on and none sat out: deadlock.
void run_cluster(void) {
    for (int r = 0; r < ncta; r++) init_fibers(ctas[(size_t)r]);
    cluster_live = ncta * nthreads, clbar.arrived = 0, clbar.gen = 0;
    std::vector<int> order((size_t)nthreads), cta_order((size_t)ncta);
    uint64_t s = emu_opts.seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull + ctas[0]->bix.x;
    int stalled = 0;  // the last round ran nothing: every block runs in this one
    while (cluster_live > 0) {
        for (int i = 0; i < ncta; i++) cta_order[(size_t)i] = emu_opts.order == 1 ? ncta - 1 - i : i;
        const int skewed = emu_opts.order == 2 && ncta > 1;
        if (skewed) shuffle(cta_order, s);
        int ran = 0, skipped = 0;
        for (int i = 0; i < ncta; i++) {
            cta_state *c = ctas[(size_t)cta_order[(size_t)i]];
            if (!c->live) continue;
            const uint64_t slow = (uint64_t)emu_opts.slow_block;
            const bool sit_out = slow > 1 ? c->rank == (int)(emu_opts.seed % (uint64_t)ncta) && rng_next(s) % slow
                                          : (rng_next(s) & 1);
            if (skewed && !stalled && sit_out) {
                skipped = 1;
                continue;
            }
            const int r = run_round(c, order, stalled);
            ran |= r & 1, skipped |= r >> 1;
        }
        if (!ran && !skipped) deadlock();
        stalled = !ran;
    }
    for (int r = 0; r < ncta; r++)
        for (int w = 0; w < (nthreads + 127) / 128; w++)
            if (!ctas[(size_t)r]->wgs[w].groups.empty() || !ctas[(size_t)r]->wgs[w].open.empty())
                emu_fail("block %u: warpgroup %d exits with wgmma not waited for", ctas[(size_t)r]->bix.x, w);
}

float bf16_lo(uint32_t u) { return __uint_as_float(u << 16); }
float bf16_hi(uint32_t u) { return __uint_as_float(u & 0xffff0000u); }
float bf16_at(const unsigned char *p) {
    uint16_t h;
    memcpy(&h, p, 2);
    return __uint_as_float((uint32_t)h << 16);
}

// ---- the instructions ----
struct shfl_io {
    uint32_t v, r;
    int m, idx;
    uint32_t mask;
};
void shfl_xor_fn(shfl_io **io, int n) {
    for (int l = 0; l < n; l++) {
        if (io[l]->mask != 0xffffffffu) emu_fail("shuffle with a partial mask (0x%x)", io[l]->mask);
        int src = l ^ io[l]->m;
        io[l]->r = src < n ? io[src]->v : io[l]->v;
    }
}
void shfl_up_fn(shfl_io **io, int n) {
    for (int l = 0; l < n; l++) {
        int src = l - io[l]->m;
        io[l]->r = src >= 0 ? io[src]->v : io[l]->v;
    }
}
void ballot_fn(shfl_io **io, int n) {
    uint32_t b = 0;
    for (int l = 0; l < n; l++) b |= (io[l]->v != 0) << l;
    for (int l = 0; l < n; l++) io[l]->r = b;
}
void shfl_idx_fn(shfl_io **io, int n) {
    for (int l = 0; l < n; l++) {
        int src = io[l]->idx & 31;
        io[l]->r = src < n ? io[src]->v : io[l]->v;
    }
}

struct ldm_io {
    uint32_t *r;
    const uint32_t *in;
    uint32_t addr;
    int n, trans;
};
// lane l's row address: matrix l / 8, row l % 8 (8 bf16 = 16 bytes)
void ldm_fn(ldm_io **io, int n) {
    if (n != 32) emu_fail("ldmatrix in a partial warp");
    const int nm = io[0]->n, tr = io[0]->trans;
    for (int l = 0; l < 32; l++)
        if (io[l]->n != nm || io[l]->trans != tr) emu_fail("ldmatrix: lanes disagree on the shape");
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        for (int j = 0; j < nm; j++) {
            float e[2];
            for (int h = 0; h < 2; h++) {
                // not transposed: row g, column 2 t + h; transposed: row 2 t + h, column g
                const int row = tr ? 2 * t + h : g, col = tr ? g : 2 * t + h;
                const uint32_t a = io[8 * j + row]->addr;
                if (a & 15) emu_fail("ldmatrix row address 0x%x not 16-byte aligned", a);
                e[h] = bf16_at(emu_smem_ptr(a + 2 * col, 2));
            }
            uint16_t lo, hi;
            uint32_t ul = __float_as_uint(e[0]), uh = __float_as_uint(e[1]);
            lo = (uint16_t)(ul >> 16), hi = (uint16_t)(uh >> 16);
            io[l]->r[j] = (uint32_t)lo | ((uint32_t)hi << 16);
        }
    }
}
void stm_fn(ldm_io **io, int n) {
    if (n != 32) emu_fail("stmatrix in a partial warp");
    if (!io[0]->trans) {  // register j of lane l: row g, columns 2 t, 2 t + 1 of matrix j
        for (int l = 0; l < 32; l++)
            for (int j = 0; j < 4; j++) {
                const uint32_t a = io[8 * j + (l >> 2)]->addr;
                if (a & 15) emu_fail("stmatrix row address 0x%x not 16-byte aligned", a);
                memcpy(emu_smem_ptr(a + 4 * (l & 3), 4), &io[l]->in[j], 4);
            }
        return;
    }
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        for (int j = 0; j < 4; j++)
            for (int h = 0; h < 2; h++) {  // transposed: register j's half h is row 2 t + h, column g
                const uint32_t a = io[8 * j + 2 * t + h]->addr;
                if (a & 15) emu_fail("stmatrix row address 0x%x not 16-byte aligned", a);
                const uint16_t v = (uint16_t)(h ? io[l]->in[j] >> 16 : io[l]->in[j] & 0xffff);
                memcpy(emu_smem_ptr(a + 2 * g, 2), &v, 2);
            }
    }
}

// The lanes' accumulator fragments c (16 x 8: c[l][0, 1] row g, columns 2 t, + 1; [2, 3] row g + 8)
// += A (16 x K, row-major) B (K x 8): each sum in float64 from the fp32 accumulator, rounded once.
void mma_apply(float *const *c, const float *A, const float *B, int K) {
    float out[32][4];
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        for (int e = 0; e < 4; e++) {
            const int row = g + 8 * (e >> 1), col = 2 * t + (e & 1);
            double s = c[l][e];
            for (int k = 0; k < K; k++) s += (double)A[row * K + k] * B[k * 8 + col];
            out[l][e] = (float)s;
        }
    }
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < 4; e++) c[l][e] = out[l][e];
}

struct mma_io {
    float *c;
    uint32_t a[4], b[2];
};
void mma_fn(mma_io **io, int n) {
    if (n != 32) emu_fail("mma.sync in a partial warp");
    float A[16][16], B[16][8];
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        for (int r = 0; r < 4; r++) {
            const int row = g + 8 * (r & 1), k = 2 * t + 8 * (r >> 1);
            A[row][k] = bf16_lo(io[l]->a[r]), A[row][k + 1] = bf16_hi(io[l]->a[r]);
        }
        for (int r = 0; r < 2; r++) {
            const int k = 2 * t + 8 * r;
            B[k][g] = bf16_lo(io[l]->b[r]), B[k + 1][g] = bf16_hi(io[l]->b[r]);
        }
    }
    float *c[32];
    for (int l = 0; l < 32; l++) c[l] = io[l]->c;
    mma_apply(c, &A[0][0], &B[0][0], 16);
    emu_stats.mma++;
}

struct mma8_io {
    float *c;
    uint32_t a[2], b;
};
// m16n8k8: A 16 x 8 (a0 rows g, a1 rows g + 8; columns 2 t, + 1), B 8 x 8 (b: rows 2 t, + 1 of column g)
void mma8_fn(mma8_io **io, int n) {
    if (n != 32) emu_fail("mma.sync in a partial warp");
    float A[16][8], B[8][8];
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        for (int r = 0; r < 2; r++) A[g + 8 * r][2 * t] = bf16_lo(io[l]->a[r]), A[g + 8 * r][2 * t + 1] = bf16_hi(io[l]->a[r]);
        B[2 * t][g] = bf16_lo(io[l]->b), B[2 * t + 1][g] = bf16_hi(io[l]->b);
    }
    float *c[32];
    for (int l = 0; l < 32; l++) c[l] = io[l]->c;
    mma_apply(c, &A[0][0], &B[0][0], 8);
    emu_stats.mma++;
}

struct vote_io {
    int p, r;
};
void vote_any_fn(vote_io **io, int n) {
    int any = 0;
    for (int i = 0; i < n; i++) any |= io[i]->p != 0;
    for (int i = 0; i < n; i++) io[i]->r = any;
}

// The shared address a as a swizzle of span bytes (32, 64, 128; 0: none) places it: the 16-byte chunk bits [4, 7)
// XORed with the 128-byte line's index mod span / 16 (bits [7, 10)), the pattern repeating every 8 spans. PTX ISA
// 5.5.7 ("Swizzling Modes": its tables in 16-byte cells, 128-byte lines) for TMA's writes and 9.7.15.5.1.2.1.3
// (CuTe's Swizzle<1|2|3, 4, 3> on the canonical layouts) for wgmma's reads: the same function of the address.
uint32_t swz(uint32_t a, uint32_t span) { return span ? a ^ (((a >> 7) & (span / 16 - 1)) << 4) : a; }

// Element (k, nn) of a wgmma operand by descriptor (B: k x n; A: nn is m), trans: MN-major (imm-trans), else
// K-major. Layout type (bits 62-63) 0, no swizzle: core matrices of 8 rows of 16 bytes; K-major ones 8 rows (nn) of
// 8 k, LBO steps 8 k, SBO 8 nn; MN-major ones 8 rows (k) of 8 nn, LBO steps 8 k, SBO 8 nn: the forms the GPU-tested
// kernels use (k_trwg, k_tm_sides_wgp: K-major, LBO 128, SBO 16 KP; k_tm_sg2: N-major, LBO 16 KP... see
// docs/EMULATOR.md). Types 1 / 2 / 3: swizzle span S = 128 / 64 / 32 bytes, the PTX ISA's canonical layouts
// (9.7.15.5.1.2.1.3) from the descriptor's start: K-major row nn at (nn % 8) S + (nn / 8) SBO with its k contiguous
// (LBO unused); MN-major nn % (S / 2) contiguous, nn / (S / 2) at LBO, k % 8 rows S apart, k / 8 at SBO; then the
// address swizzled (swz) as TMA writes it. Not emulated, failing with a message: a base offset (bits 49-51: a
// pattern not starting on its 1024 / 512 / 256-byte boundary) and a row run crossing its span (the start not
// where the canonical layout puts a row's first chunk, or a k step past it).
float wg_elem(uint64_t desc, int k, int nn, int trans) {
    const uint32_t base = (uint32_t)(desc & 0x3FFF) << 4, lbo = (uint32_t)((desc >> 16) & 0x3FFF) << 4,
                   sbo = (uint32_t)((desc >> 32) & 0x3FFF) << 4;
    const int type = (int)(desc >> 62);
    if (type == 0) {
        const uint32_t off = trans ? (k >> 3) * lbo + (nn >> 3) * sbo + (k & 7) * 16 + (nn & 7) * 2
                                   : (nn >> 3) * sbo + (k >> 3) * lbo + (nn & 7) * 16 + (k & 7) * 2;
        return bf16_at(emu_smem_ptr(base + off, 2));
    }
    if ((desc >> 49) & 7) emu_fail("wgmma descriptor %llx with a matrix base offset: not emulated", (unsigned long long)desc);
    const uint32_t S = 256u >> type, half = S / 2;  // span bytes; bf16 elements in one span
    const uint32_t run = trans ? (uint32_t)(nn % half) * 2 : (uint32_t)k * 2;  // bytes into the row's span
    if ((base & (S - 1)) + run >= S)
        emu_fail("wgmma descriptor %llx (%u-byte swizzle, %s): element (k %d, %d) runs past its %u-byte row",
                 (unsigned long long)desc, S, trans ? "MN-major" : "K-major", k, nn, S);
    const uint32_t a = trans ? base + run + (uint32_t)(nn / half) * lbo + (k & 7) * S + (k >> 3) * sbo
                             : base + (nn & 7) * S + (nn >> 3) * sbo + run;
    return bf16_at(emu_smem_ptr(swz(a, S), 2));
}
void wg_exec(const wg_op &op) {
    float A[64][16];
    if (op.a_smem)  // A (64 x 16) by descriptor: K-major core matrices as B's, or MN-major (trans_a)
        for (int m = 0; m < 64; m++)
            for (int k = 0; k < 16; k++) A[m][k] = wg_elem(op.adesc, k, m, op.trans_a);
    for (int i = 0; i < 128 && !op.a_smem; i++) {
        const int w = i >> 5, g = (i & 31) >> 2, t = i & 3;
        for (int r = 0; r < 4; r++) {
            const int row = 16 * w + g + 8 * (r & 1), k = 2 * t + 8 * (r >> 1);
            A[row][k] = bf16_lo(op.a[i][r]), A[row][k + 1] = bf16_hi(op.a[i][r]);
        }
    }
    static float B[16][256];
    for (int k = 0; k < 16; k++)
        for (int nn = 0; nn < op.n; nn++) B[k][nn] = wg_elem(op.desc, k, nn, op.trans_b);
    for (int i = 0; i < 128; i++) {
        const int w = i >> 5, g = (i & 31) >> 2, t = i & 3;
        for (int j = 0; j < op.n / 8; j++)
            for (int e = 0; e < 4; e++) {
                const int row = 16 * w + g + 8 * (e >> 1), col = 8 * j + 2 * t + (e & 1);
                double s = op.scale_d ? op.d[i][4 * j + e] : 0.0;
                for (int k = 0; k < 16; k++) s += (double)A[row][k] * B[k][col];
                op.d[i][4 * j + e] = (float)s;
            }
    }
    emu_stats.wgmma++;
}

struct wg_io {
    float *d;
    const uint32_t *a;
    uint64_t desc, adesc;
    int n, scale_d, trans_b, count, a_smem, trans_a;
};
wg_state *cur_wgs(void) { return &cc->wgs[cur->t.id >> 7]; }
wg_state *fn_wgs;  // the warpgroup of the collective being completed
void wg_fn(wg_io **io, int n) {
    if (n != 128) emu_fail("wgmma in a partial warpgroup");
    wg_op op;
    op.desc = io[0]->desc, op.n = io[0]->n, op.scale_d = io[0]->scale_d, op.trans_b = io[0]->trans_b;
    op.adesc = io[0]->adesc, op.a_smem = io[0]->a_smem, op.trans_a = io[0]->trans_a;
    for (int i = 0; i < 128; i++) {
        if (io[i]->desc != op.desc || io[i]->n != op.n || io[i]->scale_d != op.scale_d || io[i]->trans_b != op.trans_b ||
            io[i]->adesc != op.adesc || io[i]->a_smem != op.a_smem || io[i]->trans_a != op.trans_a)
            emu_fail("wgmma: threads of the warpgroup disagree (descriptor %llx against %llx)",
                     (unsigned long long)io[i]->desc, (unsigned long long)op.desc);
        op.d[i] = io[i]->d;
        if (!op.a_smem) memcpy(op.a[i], io[i]->a, sizeof op.a[i]);
    }
    if (emu_opts.eager) wg_exec(op);
    else fn_wgs->open.push_back(op);
}
void wg_commit_fn(wg_io **io, int n) {
    (void)io, (void)n;
    if (emu_opts.eager) return;
    fn_wgs->groups.push_back(fn_wgs->open);
    fn_wgs->open.clear();
}
void wg_wait_fn(wg_io **io, int n) {
    const int keep = io[0]->count;
    for (int i = 0; i < n; i++)
        if (io[i]->count != keep) emu_fail("wgmma.wait_group: threads disagree on the count");
    while ((int)fn_wgs->groups.size() > keep) {
        for (auto &op : fn_wgs->groups.front()) wg_exec(op);
        fn_wgs->groups.pop_front();
    }
}

mbar &bar_in(cta_state *c, uint32_t addr) {
    auto it = c->bars.find(addr);
    if (it == c->bars.end()) emu_fail("mbarrier at shared 0x%x used before its init", addr);
    return it->second;
}
mbar &bar_at(uint32_t addr) { return bar_in(cc, addr); }
void bar_check(mbar &b) {
    if (b.pending < 0) emu_fail("mbarrier: more arrivals than its count");
    if (b.pending == 0 && b.tx == 0) b.phase++, b.pending = b.expect;
}

}  // namespace

void emu_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "emu: ");
    if (cur && ncta > 1) fprintf(stderr, "block %u (cluster rank %d) thread %d: ", emu_bix.x, cc->rank, cur->t.id);
    else if (cur) fprintf(stderr, "block %u thread %d: ", emu_bix.x, cur->t.id);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

void emu_syncthreads(void) {
    coll &b = cc->block_c;
    if (b.arrived) b.expect = cc->live;  // a thread may have exited since the first arrival
    collective<void>(b, cc->live, cur->t.id, "__syncthreads", NULL, NULL);
}
void emu_syncwarp(void) { collective<void>(warp_of(), warp_size_of(), lane_of(), "__syncwarp", NULL, NULL); }
void emu_named_bar(int id, int count) {
    if (id <= 0 || id >= 16) emu_fail("named barrier %d out of range", id);
    if (count <= 0 || count % 32 || count > nthreads) emu_fail("named barrier %d with %d threads", id, count);
    // slots by arrival: any count threads of the block, arrivals (bar.arrive) and waits alike
    coll &c = cc->named_c[id];
    collective<void>(c, count, c.arrived, BAR_NAMED, (void *)cur, NULL);
}
// bar.arrive: counts toward the barrier's completion, does not wait for it
void emu_named_arrive(int id, int count) {
    if (id <= 0 || id >= 16) emu_fail("named barrier %d out of range", id);
    if (count <= 0 || count % 32 || count > nthreads) emu_fail("named barrier %d with %d threads", id, count);
    coll &c = cc->named_c[id];
    if (c.arrived == 0) c.what = BAR_NAMED, c.expect = count;
    else if (c.expect != count) emu_fail("bar.arrive %d with %d threads while others count %d", id, count, c.expect);
    c.io[c.arrived] = (void *)cur;
    if (++c.arrived == count) {
        for (int i = 0; i < count; i++) c.io[i] = NULL;
        c.arrived = 0, c.gen++;
        emu_stats.collectives++;
    }
}
uint32_t emu_shfl_xor(uint32_t mask, uint32_t v, int m) {
    shfl_io io = {v, 0, m, 0, mask};
    collective<shfl_io>(warp_of(), warp_size_of(), lane_of(), "__shfl_xor_sync", &io, shfl_xor_fn);
    return io.r;
}
uint32_t emu_shfl_idx(uint32_t mask, uint32_t v, int src) {
    shfl_io io = {v, 0, 0, src, mask};
    collective<shfl_io>(warp_of(), warp_size_of(), lane_of(), "__shfl_sync", &io, shfl_idx_fn);
    return io.r;
}
uint32_t emu_shfl_up(uint32_t mask, uint32_t v, int d) {
    if (mask != 0xffffffffu) emu_fail("__shfl_up_sync with a partial mask (0x%x) is not emulated", mask);
    shfl_io io = {v, 0, d, 0, mask};
    collective<shfl_io>(warp_of(), warp_size_of(), lane_of(), "__shfl_up_sync", &io, shfl_up_fn);
    return io.r;
}
uint32_t emu_ballot(uint32_t mask, int p) {
    if (mask != 0xffffffffu) emu_fail("__ballot_sync with a partial mask (0x%x) is not emulated", mask);
    shfl_io io = {(uint32_t)(p != 0), 0, 0, 0, mask};
    collective<shfl_io>(warp_of(), warp_size_of(), lane_of(), "__ballot_sync", &io, ballot_fn);
    return io.r;
}
void emu_ldmatrix(uint32_t *r, const void *p, int n, int trans) {
    ldm_io io = {r, NULL, emu_smem_addr(p), n, trans};
    collective<ldm_io>(warp_of(), warp_size_of(), lane_of(), trans ? "ldmatrix.trans" : "ldmatrix", &io, ldm_fn);
}
void emu_stmatrix_x4t(const void *p, const uint32_t *r) {
    ldm_io io = {NULL, r, emu_smem_addr(p), 4, 1};
    collective<ldm_io>(warp_of(), warp_size_of(), lane_of(), "stmatrix.trans", &io, stm_fn);
}
void emu_stmatrix_x4(const void *p, const uint32_t *r) {
    ldm_io io = {NULL, r, emu_smem_addr(p), 4, 0};
    collective<ldm_io>(warp_of(), warp_size_of(), lane_of(), "stmatrix", &io, stm_fn);
}
void emu_mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1) {
    mma_io io = {c, {a[0], a[1], a[2], a[3]}, {b0, b1}};
    collective<mma_io>(warp_of(), warp_size_of(), lane_of(), "mma.sync", &io, mma_fn);
}

void emu_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b0) {
    mma8_io io = {c, {a0, a1}, b0};
    collective<mma8_io>(warp_of(), warp_size_of(), lane_of(), "mma.sync m16n8k8", &io, mma8_fn);
}
int emu_vote_any(uint32_t mask, int p) {
    if (mask != 0xffffffffu) emu_fail("__any_sync with a partial mask (0x%x) is not emulated", mask);
    vote_io io = {p, 0};
    collective<vote_io>(warp_of(), warp_size_of(), lane_of(), "__any_sync", &io, vote_any_fn);
    return io.r;
}
int emu_syncthreads_or(int p) {
    coll &b = cc->block_c;
    if (b.arrived) b.expect = cc->live;
    vote_io io = {p, 0};
    collective<vote_io>(b, cc->live, cur->t.id, "__syncthreads_or", &io, vote_any_fn);
    return io.r;
}

void emu_cp_async(void *dst, const void *src, int bytes, int src_bytes) {
    (void)emu_smem_addr(dst);
    if (((uintptr_t)dst | (src_bytes ? (uintptr_t)src : 0)) & (uintptr_t)(bytes - 1))
        emu_fail("cp.async of %d bytes at a misaligned address (%p <- %p)", bytes, dst, src);
    if (src_bytes < 0 || src_bytes > bytes) emu_fail("cp.async: src-size %d of %d", src_bytes, bytes);
    copy_op c = {dst, src, bytes, src_bytes};
    if (emu_opts.eager) copy_run(c);
    else cur->cp_open.push_back(c);
}
void emu_cp_commit(void) {
    if (emu_opts.eager) return;
    cur->cp_groups.push_back(cur->cp_open);
    cur->cp_open.clear();
}
void emu_cp_wait(int n) {
    while ((int)cur->cp_groups.size() > n) {
        for (auto &c : cur->cp_groups.front()) copy_run(c);
        cur->cp_groups.pop_front();
    }
}

void emu_mbar_init(uint32_t addr, int count) {
    if (addr & 7) emu_fail("mbarrier at 0x%x not 8-byte aligned", addr);
    cc->bars[addr] = mbar{count, count, 0, 0};
}
void emu_mbar_arrive(uint32_t addr, uint32_t tx_bytes) {
    mbar &b = bar_at(addr);
    b.tx += tx_bytes;
    b.pending--;
    bar_check(b);
}
int emu_mbar_test(uint32_t addr, uint32_t parity) { return mbar_done(cc, addr, parity); }
void emu_mbar_wait(uint32_t addr, uint32_t parity) {
    if (mbar_done(cc, addr, parity)) return;
    cur->blocked = 1, cur->wk = W_MBAR, cur->maddr = addr, cur->mpar = parity, cur->what = "mbarrier wait";
    emu_ctx_switch(&cur->sp, sched_sp);
}
void emu_bulk_g2s(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar) {
    if ((dst | bytes) & 15 || (uintptr_t)src & 15) emu_fail("bulk copy: addresses and size must be 16-byte multiples");
    memcpy(emu_smem_ptr(dst, bytes), src, bytes);
    mbar &b = bar_at(bar);
    b.tx -= bytes;
    bar_check(b);
}

// ---- TMA tensor maps ----
// What emu_tensor_map_encode_tiled stores in the 128-byte CUtensorMap (the hardware's encoding is opaque; a
// map the emulator did not make is caught by its tag).
namespace {
const uint32_t TMAP_TAG = 0x50414d54u;  // "TMAP"
struct tmap {
    uint32_t tag;
    uint8_t rank, elsize;
    uint16_t swizzle;      // span bytes: 0, 32, 64, 128
    uint64_t addr;
    uint64_t dim[5];       // elements; dim[0] the contiguous dimension
    uint64_t stride[5];    // bytes between consecutive indices of dimension d (stride[0] = elsize)
    uint32_t box[5];
};
static_assert(sizeof(tmap) <= sizeof(CUtensorMap), "the emulator's tensor map must fit a CUtensorMap");

const tmap &tmap_of(const CUtensorMap *map) {
    const tmap *t = reinterpret_cast<const tmap *>(map);
    if (!map || t->tag != TMAP_TAG) emu_fail("cp.async.bulk.tensor / prefetch.tensormap: %p is no tensor map the emulated encode made", (const void *)map);
    return *t;
}
int tmap_elsize(CUtensorMapDataType t) {
    switch (t) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16: case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32: case CU_TENSOR_MAP_DATA_TYPE_INT32: case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
        return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64: case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
    default: return 0;  // the packed sub-byte types: not emulated
    }
}
CUresult tmap_reject(const char *why) {
    fprintf(stderr, "emu: cuTensorMapEncodeTiled: %s\n", why);
    return CUDA_ERROR_INVALID_VALUE;
}
}  // namespace

// The driver's documented rules (cuda.h, cuTensorMapEncodeTiled) checked, then the fields stored. Features no
// kernel here uses stop the run instead (not emulated): interleaved layouts, traversal strides other than 1, the
// 128-byte swizzles with 32 / 64-byte atoms, the OOB-NaN fill, the packed types, and swizzled boxes whose rows are
// narrower than the span (the PTX manual does not say where their rows go).
CUresult emu_tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *addr,
                                     const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                     const cuuint32_t *elem_strides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                     CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
    (void)l2;  // a cache hint
    const int es = tmap_elsize(type);
    if (!es) emu_fail("cuTensorMapEncodeTiled: data type %d not emulated", (int)type);
    if (il != CU_TENSOR_MAP_INTERLEAVE_NONE) emu_fail("cuTensorMapEncodeTiled: interleaved layouts not emulated");
    if (oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) emu_fail("cuTensorMapEncodeTiled: the OOB-NaN fill not emulated");
    if (sw > CU_TENSOR_MAP_SWIZZLE_128B) emu_fail("cuTensorMapEncodeTiled: swizzle mode %d not emulated", (int)sw);
    if ((uintptr_t)map & 63) return tmap_reject("the tensor map must be 64-byte aligned");
    if (rank < 1 || rank > 5) return tmap_reject("rank must be 1 .. 5");
    if ((uintptr_t)addr & 15) return tmap_reject("the global address must be 16-byte aligned");
    tmap t = {};
    t.tag = TMAP_TAG, t.rank = (uint8_t)rank, t.elsize = (uint8_t)es, t.addr = (uint64_t)(uintptr_t)addr;
    t.swizzle = (uint16_t)(sw == CU_TENSOR_MAP_SWIZZLE_NONE ? 0 : 16u << sw);
    for (cuuint32_t d = 0; d < rank; d++) {
        if (dims[d] < 1 || dims[d] > (1ull << 32)) return tmap_reject("every dimension must be 1 .. 2^32");
        if (box[d] < 1 || box[d] > 256) return tmap_reject("every box dimension must be 1 .. 256");
        if (elem_strides[d] < 1 || elem_strides[d] > 8) return tmap_reject("element strides must be 1 .. 8");
        if (elem_strides[d] != 1 && d > 0) emu_fail("cuTensorMapEncodeTiled: element strides other than 1 not emulated");
        if (d > 0 && (strides[d - 1] % 16 || strides[d - 1] >= (1ull << 40)))
            return tmap_reject("every stride must be a multiple of 16 bytes below 2^40");
        t.dim[d] = dims[d], t.box[d] = box[d], t.stride[d] = d ? strides[d - 1] : (uint64_t)es;
    }
    const uint32_t row = box[0] * (uint32_t)es;
    if (row % 16) return tmap_reject("the box's inner dimension must be a multiple of 16 bytes");
    if (t.swizzle && row > t.swizzle) return tmap_reject("a swizzled box's inner dimension must be at most the swizzle span");
    if (t.swizzle && row != t.swizzle) emu_fail("cuTensorMapEncodeTiled: a swizzled box narrower than its span not emulated");
    memset(map, 0, sizeof *map);
    memcpy(map, &t, sizeof t);
    return CUDA_SUCCESS;
}

void emu_tma_map_check(const CUtensorMap *map) { (void)tmap_of(map); }

// ---- thread-block clusters (session 52) ----
// A shared::cluster address: bits [24, 29) the rank + 1 of the block it names, 0 the executing block's own (so a
// shared::cta address is the shared::cluster address of the same byte of its own block, as the PTX ISA has the
// shared::cta window inside the shared::cluster window); bits [0, 24) the offset in that block's shared memory.
namespace {
const int CL_SHIFT = 24;
const uint32_t CL_OFFSET = (1u << CL_SHIFT) - 1;

// Block `rank` of the running cluster as the target of a remote access: one not yet exited (its shared memory is
// gone once its threads have all exited: a kernel must keep peers alive with a cluster barrier before exiting).
cta_state *cta_addressed(int rank, const char *what) {
    if (rank < 0 || rank >= ncta) emu_fail("%s: block rank %d outside the cluster of %d", what, rank, ncta);
    cta_state *c = ctas[(size_t)rank];
    if (c->exited)
        emu_fail("%s: block rank %d of the cluster has exited (its shared memory is gone: a cluster barrier before its "
                 "exit missing?)", what, rank);
    return c;
}
// The block a shared::cluster address names, its offset in *off
cta_state *cta_of(uint32_t addr, uint32_t *off, const char *what) {
    *off = addr & CL_OFFSET;
    return addr >> CL_SHIFT ? cta_addressed((int)(addr >> CL_SHIFT) - 1, what) : cc;
}
unsigned char *cta_mem(cta_state *c) { return c == resident ? emu_smem : c->smem.data(); }
unsigned char *cta_ptr(cta_state *c, uint32_t off, uint32_t bytes) {
    if ((uint64_t)off + bytes > EMU_SMEM_BYTES)
        emu_fail("shared address 0x%x + %u past a block's shared memory", off, bytes);
    return cta_mem(c) + off;
}
void complete_tx(cta_state *c, uint32_t bar, uint32_t bytes) {
    mbar &b = bar_in(c, bar);
    b.tx -= bytes;
    bar_check(b);
}

// The box at coords into block c's shared memory at dst (an offset) as the dense row-major box (dimension 0 fastest),
// each element's address swizzled (swz), elements outside the tensor zero; returns the box's bytes.
uint32_t tma_box_into(cta_state *c, uint32_t dst, const tmap &t, const int32_t *coords) {
    uint64_t n = 1;
    for (int d = 0; d < t.rank; d++) n *= t.box[d];
    const uint32_t bytes = (uint32_t)(n * t.elsize);
    (void)cta_ptr(c, dst, bytes);
    int64_t idx[5] = {0, 0, 0, 0, 0};  // the element's index in the box
    for (uint64_t e = 0; e < n; e++) {
        bool in = true;
        uint64_t src = t.addr;
        for (int d = 0; d < t.rank; d++) {
            const int64_t g = (int64_t)coords[d] + idx[d];
            in = in && g >= 0 && g < (int64_t)t.dim[d];
            src += (uint64_t)g * t.stride[d];
        }
        unsigned char *p = cta_ptr(c, swz(dst + (uint32_t)(e * t.elsize), t.swizzle), t.elsize);
        if (in) memcpy(p, (const void *)(uintptr_t)src, t.elsize);
        else memset(p, 0, t.elsize);
        for (int d = 0; d < t.rank && ++idx[d] == t.box[d]; d++) idx[d] = 0;
    }
    return bytes;
}
const tmap &tma_map_for(const CUtensorMap *map, int dims, uint32_t dst) {
    const tmap &t = tmap_of(map);
    if (dims != t.rank) emu_fail("cp.async.bulk.tensor.%dd with a rank-%d tensor map", dims, t.rank);
    if (dst & 127) emu_fail("cp.async.bulk.tensor: shared destination 0x%x not 128-byte aligned", dst);
    return t;
}
}  // namespace

// The box at coords into shared memory at dst (a shared::cluster address: the executing block's, or another's with
// its mbarrier in the same block), then complete_tx of the box's full bytes (the out-of-bounds ones included) on the
// mbarrier. Lands at issue, as the bulk copies.
void emu_tma_load(uint32_t dst, const CUtensorMap *map, const int32_t *coords, int dims, uint32_t bar) {
    uint32_t off, boff;
    cta_state *c = cta_of(dst, &off, "cp.async.bulk.tensor"), *cb = cta_of(bar, &boff, "cp.async.bulk.tensor");
    if (c != cb) emu_fail("cp.async.bulk.tensor: the destination and its mbarrier in different blocks");
    const tmap &t = tma_map_for(map, dims, off);
    complete_tx(c, boff, tma_box_into(c, off, t, coords));
}
// .multicast::cluster: the box into every block of cta_mask at dst's offset, complete_tx on each one's mbarrier at
// bar's offset (PTX ISA: "the same CTA-relative offset ... in each destination CTA").
void emu_tma_load_mc(uint32_t dst, const CUtensorMap *map, const int32_t *coords, int dims, uint32_t bar,
                     uint16_t mask) {
    const tmap &t = tma_map_for(map, dims, dst & CL_OFFSET);
    if (!mask) emu_fail("cp.async.bulk.tensor .multicast::cluster with an empty ctaMask");
    for (int r = 0; r < 16; r++)
        if (mask >> r & 1) {
            cta_state *c = cta_addressed(r, "cp.async.bulk.tensor .multicast::cluster (ctaMask)");
            complete_tx(c, bar & CL_OFFSET, tma_box_into(c, dst & CL_OFFSET, t, coords));
        }
}

int emu_cluster_ctarank(void) { return cc->rank; }
int emu_cluster_nctarank(void) { return ncta; }
// mapa.shared::cluster.u32: addr (a shared::cta address) in block `rank`; the own rank gives addr itself
uint32_t emu_cluster_map(uint32_t addr, int rank) {
    if (addr >> CL_SHIFT) emu_fail("mapa: 0x%x is not a shared::cta address", addr);
    (void)cta_addressed(rank, "mapa");
    return rank == cc->rank ? addr : ((uint32_t)(rank + 1) << CL_SHIFT) | addr;
}
// mbarrier.arrive.release.cluster.shared::cluster: one arrival on the mbarrier the address names (any block's)
void emu_mbar_arrive_cluster(uint32_t addr) {
    uint32_t off;
    cta_state *c = cta_of(addr, &off, "mbarrier.arrive.shared::cluster");
    mbar &b = bar_in(c, off);
    b.pending--;
    bar_check(b);
}
uint32_t emu_ld_cluster_u32(uint32_t addr) {
    uint32_t off, v;
    cta_state *c = cta_of(addr, &off, "ld.shared::cluster");
    if (off & 3) emu_fail("ld.shared::cluster.u32 at a misaligned address 0x%x", addr);
    memcpy(&v, cta_ptr(c, off, 4), 4);
    return v;
}

// barrier.cluster.arrive.aligned / .wait.aligned: .aligned, so every thread of the warp executes the same one (a warp
// collective first: a warp that diverges there fails as the other collectives do); the arrival counts the warp's
// threads toward the cluster's phase, which completes once every thread of the cluster not exited has arrived.
namespace {
void cluster_arrive_fn(void **io, int n) {
    for (int l = 0; l < n; l++) {
        fiber *f = (fiber *)io[l];
        if (f->cl_arrived) emu_fail("thread %d: barrier.cluster.arrive twice without a wait", f->t.id);
        f->cl_arrived = 1, f->cl_gen = clbar.gen;
    }
    clbar.arrived += n;
    cluster_bar_check();
}
}  // namespace
void emu_cluster_arrive(void) {
    collective<void>(warp_of(), warp_size_of(), lane_of(), "barrier.cluster.arrive.aligned", (void *)cur,
                     cluster_arrive_fn);
}
void emu_cluster_wait(void) {
    if (!cur->cl_arrived) emu_fail("barrier.cluster.wait without a barrier.cluster.arrive before it");
    collective<void>(warp_of(), warp_size_of(), lane_of(), "barrier.cluster.wait.aligned", NULL, NULL);
    cur->cl_arrived = 0;
    if (clbar.gen == cur->cl_gen) block_until_gen(&clbar.gen, cur->cl_gen, "barrier.cluster.wait");
}

void emu_wgmma(float *d, const uint32_t *a, uint64_t desc, int n, int scale_d, int trans_b) {
    if (n % 8 || n < 8 || n > 256) emu_fail("wgmma with N %d", n);
    wg_io io = {d, a, desc, 0, n, scale_d, trans_b, 0, 0, 0};
    fn_wgs = cur_wgs();
    collective<wg_io>(cc->wgrp_c[cur->t.id >> 7], 128, cur->t.id & 127, "wgmma.mma_async", &io, wg_fn);
}
void emu_wgmma_ss(float *d, uint64_t adesc, uint64_t bdesc, int n, int scale_d, int trans_a, int trans_b) {
    if (n % 8 || n < 8 || n > 256) emu_fail("wgmma with N %d", n);
    wg_io io = {d, NULL, bdesc, adesc, n, scale_d, trans_b, 0, 1, trans_a};
    fn_wgs = cur_wgs();
    collective<wg_io>(cc->wgrp_c[cur->t.id >> 7], 128, cur->t.id & 127, "wgmma.mma_async (A by descriptor)", &io, wg_fn);
}
void emu_wgmma_commit(void) {
    wg_io io = {};
    fn_wgs = cur_wgs();
    collective<wg_io>(cc->wgrp_c[cur->t.id >> 7], 128, cur->t.id & 127, "wgmma.commit_group", &io, wg_commit_fn);
}
void emu_wgmma_wait(int n) {
    wg_io io = {};
    io.count = n;
    fn_wgs = cur_wgs();
    collective<wg_io>(cc->wgrp_c[cur->t.id >> 7], 128, cur->t.id & 127, "wgmma.wait_group", &io, wg_wait_fn);
}

// PF_EMU_ORDER, read by the emulated runtime at start (emu_runtime.cpp; the harness tests set emu_opts
// themselves):
// "lazy" (the default: asynchronous work at its wait, threads ascending), "eager" (at issue, threads
// and blocks descending) or "shuffled[:SEED]" (at the wait, threads in a random order per round).
void emu_env_order(void) {
    const char *e = getenv("PF_EMU_ORDER");
    if (!e || !*e || !strcmp(e, "lazy")) return;
    if (!strcmp(e, "eager")) {
        emu_opts = emu_options{1, 1, 1, 0, 0};
        return;
    }
    if (!strncmp(e, "shuffled", 8) && (!e[8] || e[8] == ':')) {
        char *end = NULL;
        unsigned long long seed = e[8] ? strtoull(e + 9, &end, 10) : 1;
        if (e[8] && (!e[9] || *end)) {
            fprintf(stderr, "PF_EMU_ORDER=%s: expected a number after \"shuffled:\"\n", e);
            exit(1);
        }
        emu_opts = emu_options{0, 2, 0, seed, 0};
        return;
    }
    fprintf(stderr, "PF_EMU_ORDER=%s: expected lazy (the default), eager or shuffled[:SEED]\n", e);
    exit(1);
}

// The launch's static __shared__ arrays: site -> offset in emu_smem (from the top down), and its dynamic bytes.
static std::unordered_map<std::string, size_t> static_sites;
void *emu_static_smem_at(const char *site, size_t bytes) {
    auto it = static_sites.find(site);
    if (it != static_sites.end()) return emu_smem + it->second;
    if (bytes + 16 > static_low || ((static_low - bytes) & ~(size_t)15) < launch_smem)
        emu_fail("static __shared__ %s (%zu bytes) does not fit beside %zu dynamic bytes", site, bytes, launch_smem);
    static_low = (static_low - bytes) & ~(size_t)15;  // 16-byte aligned, as __align__(16)
    static_sites.emplace(site, static_low);
    return emu_smem + static_low;
}

// Blocks of the cluster (one without clusters) made ready to run: ranks, indices, mbarriers and wgmma groups cleared,
// shared memory 0xFF (NaN in bf16 and fp32: a read of a byte never written shows).
static void clusters_prepare(dim3 grid, dim3 cl, uint64_t ci) {
    const uint64_t gx = grid.x / cl.x, gy = grid.y / cl.y;
    const unsigned cx = (unsigned)(ci % gx), cy = (unsigned)((ci / gx) % gy), cz = (unsigned)(ci / (gx * gy));
    for (int r = 0; r < ncta; r++) {
        cta_state *c = ctas[(size_t)r];
        c->rank = r;
        c->bix = make_uint3(cx * cl.x + r % cl.x, cy * cl.y + (r / cl.x) % cl.y, cz * cl.z + r / (cl.x * cl.y));
        c->bars.clear();
        for (auto &w : c->wgs) w.open.clear(), w.groups.clear();
        if (ncta > 1) c->smem.assign(EMU_SMEM_BYTES, 0xff);
    }
    memset(emu_smem, 0xff, launch_smem);
    if (static_low < EMU_SMEM_BYTES) memset(emu_smem + static_low, 0xff, EMU_SMEM_BYTES - static_low);
    resident = ctas[0], emu_bix = ctas[0]->bix;
}

void emu_launch_cluster(dim3 grid, dim3 block, dim3 cl, size_t smem, emu_kernel_fn fn, void *ctx) {
    const int n = (int)(block.x * block.y * block.z), nc = (int)(cl.x * cl.y * cl.z);
    if (n <= 0 || n > EMU_MAX_THREADS) emu_fail("launch with %d threads per block", n);
    if (smem > EMU_SMEM_BYTES) emu_fail("launch with %zu bytes of shared memory (at most %d)", smem, EMU_SMEM_BYTES);
    if (nc < 1 || nc > 16) emu_fail("launch with a cluster of %d blocks (1 .. 16)", nc);
    if (grid.x % cl.x || grid.y % cl.y || grid.z % cl.z)
        emu_fail("grid (%u, %u, %u) not a multiple of the cluster (%u, %u, %u)", grid.x, grid.y, grid.z, cl.x, cl.y,
                 cl.z);
    emu_stats = emu_stats_t{};
    static_sites.clear(), static_low = EMU_SMEM_BYTES, launch_smem = smem;
    nthreads = n, emu_bdim = block, emu_gdim = grid, cur_fn = fn, cur_ctx = ctx;
    while ((int)ctas.size() < nc) ctas.push_back(new cta_state());
    ncta = nc;
    const uint64_t clusters = (uint64_t)grid.x * grid.y * grid.z / (uint64_t)nc;
    for (uint64_t i = 0; i < clusters; i++) {
        clusters_prepare(grid, cl, emu_opts.block_order ? clusters - 1 - i : i);
        run_cluster();
    }
    cur = NULL, emu_cur = NULL, cc = NULL, ncta = 1;
}
void emu_launch(dim3 grid, dim3 block, size_t smem, emu_kernel_fn fn, void *ctx) {
    emu_launch_cluster(grid, block, dim3(1, 1, 1), smem, fn, ctx);
}
