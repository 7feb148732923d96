// mem_plan.cu: the memory plan of one block on the CUDA backend's sizes, without a
// GPU: each step's saved and workspace bytes (the cu_NAME_mem functions of the
// CUDA backend, bf16 or fp32, on a backend struct that computes nothing), and the
// block forward + backward's planned total as `pairfold bench` allocates it: four
// copies of the largest stream (x, dx, delta, d delta), the masks, the block's
// saved region and its workspace (the largest step's). Weights and cuBLASLt
// scratch are not counted. Sizes in GiB and in z-sized copies (N^2 c_z act).
// --dap P (Pairformer): also the plan of one rank of P with the pair tensor sharded
// (src/model/dap.c: the cu_*_dap_mem sizes, saved summed over the steps, one
// workspace for the largest step and the transposes; z^T is made in place),
// the streams as bench/dap_bench.c allocates them (z, d z, delta, d delta: the
// rank's rows; the two pair masks' rows), and its ratio to the one-GPU total.
// --trunk K (AF3 preset): the whole trunk's training step instead (the MSA module's
// blocks and the Pairformer stack, recompute K, --msa-rows S MSA rows, default 128),
// as model.c and model_dap.c size their arenas: the model's tensors (full-size z, d z,
// z_prev and two scratch copies on every rank), the blocks' saved arena (every
// block's regions, or with K one block's region and the snapshots) and workspace;
// with --dap P also one rank's plan (the MSA module and the stack sharded, and the
// executor's shard buffers) with the model's z-sized tensors whole on every rank
// (the layout where a block that touches z runs replicated) and as the rank's rows
// (model_dap_heads.c: the layout when every such block runs sharded; the executor's
// z and d z are then the model's); --budget G then prints the largest crops whose
// plans fit G GiB. The plan is the arenas alone; each trunk line then adds what the device holds besides
// them (trunk_extra): the parameters and optimizer state (data, grad, Adam m and v, the EMA copy where
// ema_decay > 0: fp32 each), the backend's fixed buffers (scratch pool, cuBLASLt workspace) and bf16
// weight copies (at most one per parameter), and the distogram loss's stream-ordered temporaries (one
// process, or dap with z whole: cu_heads.cu's blocks of rows, their fp32 logits and gradient; `pairfold
// train`'s reported peak leaves these out, cu_backend.cu); --budget then also searches by that device total.
// Not counted anywhere: the CUDA context and module images, and the allocator's rounding.
// --keep-attn (with --trunk K >= 1, one GPU): recompute_keep_attn's kept attention outputs
// (every block's attention o and lse) in the saved arena too.
//   build/mem_plan [--preset af3] [--kind pairformer|evoformer|msa_module] [--fp32] [--dap P]
//                  [--trunk K [--msa-rows S] [--budget GiB] [--keep-attn]] N...
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "../src/cuda/cu_dap.cuh"
extern "C" {
#include "../src/model/block.h"
#include "../src/model/dap.h"
#include "../src/model/config.h"
#include "../src/model/params.h"
#include "../src/model/inputs.h"
#include "../src/model/model.h"
#include "../src/model/distogram.h"
}

static double gib(double b) { return b / (double)(1u << 30); }

// Returns the block f+b total (bytes).
static double plan(pf_backend *be, const pf_config *cfg, int kind, int64_t N, int64_t S) {
    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, kind, cfg, &P, "block");
    pf_block_plan(&b, be, N, S);
    double z = (double)N * N * cfg->c_z * be->act_bytes;
    int cm = kind == PF_BLOCK_EXTRA_MSA ? cfg->c_e : cfg->c_m;
    double big = z, m = (double)S * N * cm * be->act_bytes;
    if (kind != PF_BLOCK_PAIRFORMER && m > big) big = m;
    printf("%s N %lld S %lld (z-sized copy %.2f GiB)\n", pf_block_kind_name(kind), (long long)N, (long long)S, gib(z));
    printf("  %-40s %10s %10s %10s\n", "step", "saved GiB", "ws GiB", "ws_fwd GiB");
    for (int i = 0; i < b.n; i++)
        printf("  %-40s %10.2f %10.2f %10.2f\n", b.step[i].name, gib((double)b.step[i].mem.saved),
               gib((double)b.step[i].mem.ws), gib((double)b.step[i].mem.ws_fwd));
    double streams = 4 * big + (double)N * N * be->act_bytes + (kind == PF_BLOCK_PAIRFORMER ? 0 : (double)S * N * be->act_bytes);
    double total = streams + (double)b.saved_bytes + (double)b.ws_bytes;
    printf("  saved %.2f GiB (%.2f z), ws %.2f GiB (%.2f z), streams + masks %.2f GiB (%.2f z)\n",
           gib((double)b.saved_bytes), b.saved_bytes / z, gib((double)b.ws_bytes), b.ws_bytes / z, gib(streams),
           streams / z);
    printf("  block f+b planned: %.2f GiB (%.2f z); forward only: %.2f GiB\n", gib(total), total / z,
           gib(2 * big + (double)b.ws_fwd_bytes));
    pf_params_free(&P);
    return total;
}

// One rank of a dap group of P (rank 0; every rank plans the same sizes).
static void plan_dap(pf_backend *be, const pf_config *cfg, int64_t N, int Pn, double one_gpu) {
    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, PF_BLOCK_PAIRFORMER, cfg, &P, "block");
    pf_dap_comm c;
    memset(&c, 0, sizeof c);
    c.size = Pn;
    pf_dap_block db;
    memset(&db, 0, sizeof db);
    real dummy = 0;
    db.b = &b;
    db.discard = &dummy;  // kept by the plan: nothing is allocated
    pf_dap_block_plan(&db, &b, be, &c, N, 1);
    const double es = be->act_bytes, shard = (double)db.n * db.Np * cfg->c_z * es;
    printf("  dap P %d: rank's rows n %lld of Np %lld (shard of z %.2f GiB)\n", Pn, (long long)db.n, (long long)db.Np,
           gib(shard));
    printf("  %-40s %10s %10s\n", "step (one rank)", "saved GiB", "ws GiB");
    for (int i = 0; i < b.n; i++)
        printf("  %-40s %10.2f %10.2f\n", b.step[i].name, gib((double)db.mem[i].saved), gib((double)db.mem[i].ws));
    double big = fmax(shard, (double)db.Np * cfg->c_s * es);
    double streams = 4 * big + 2.0 * db.n * db.Np * es + db.Np * es + 2.0 * db.Np * cfg->c_s * es;
    double total = streams + (double)db.saved_bytes + (double)db.ws_bytes;
    printf("  saved %.2f GiB, ws %.2f GiB (the largest op or the transposes), streams + masks %.2f GiB\n",
           gib((double)db.saved_bytes), gib((double)db.ws_bytes), gib(streams));
    printf("  dap block f+b planned per rank: %.2f GiB = %.3fx one GPU (%.2f GiB)\n", gib(total), total / one_gpu,
           gib(one_gpu));
    pf_params_free(&P);
}

static double al(double b) { return ceil(b / 256) * 256; }

// The model's tensors (model.c carve): inputs, m, z, s and their gradients, the
// recycled m0, z, s, two scratch buffers of the largest stream, the (tokens, max
// channels) scratch. zpos: the positions of each z-sized tensor (z, d z, z_prev,
// the scratch): N^2, or a rank's rows n Np (then the scratch holds the distogram's
// n Np n_bins too, and the (Np, C) vectors the embedding broadcasts).
static double model_arena(const pf_backend *be, const pf_config *c, int64_t N, int64_t S, double zpos, double Np) {
    const double es = be->act_bytes, rows = zpos < (double)N * N, zel = zpos * c->c_z;
    double t = 0, big = fmax(fmax((double)S * N * fmax(c->c_m, PF_MSA_FEAT), rows ? zpos * c->n_bins : 0), zel);
    big = fmax(big, (double)N * c->c_s);
    for (int k = 0; k < PF_NUM_INPUTS; k++)
        t += al((double)pf_input_elems(k, N, S, 0) * (pf_model_inputs[k].is_int ? 4 : es));
    const double e[] = {2.0 * S * N * c->c_m, 2 * zel, 2.0 * N * c->c_s, (double)N * c->c_m, zel,
                        (double)N * c->c_s, 2 * big, Np * fmax(fmax(c->c_m, c->c_z), fmax(c->c_s, PF_MSA_FEAT))};
    for (size_t k = 0; k < sizeof e / sizeof e[0]; k++) t += al(e[k] * es);
    return t;
}

// What the device holds besides the plan's arenas (bytes; the header's list): rep, the part `pairfold
// train` reports in its peak (parameters, optimizer state, backend buffers, weight copies), and tmp,
// the distogram loss's stream-ordered temporaries (cu_disto_tmp_bytes), which it does not, or the
// validation's distogram prediction (pf_distogram_predict_device_bytes: A whole or its blocks), which it
// does, whichever is larger (they never run at once; disto_n: the pair tensor's N where both run on it
// whole, 0 where they work in the model's scratch rows).
typedef struct {
    double rep, tmp;
} trunk_extra_t;
static trunk_extra_t trunk_extra(const pf_backend *be, const pf_config *c, int64_t disto_n) {
    static double n = -1;  // the parameter count: one preset per run, declared once (largest_crops calls per N)
    if (n < 0) {
        pf_model *M = pf_model_declare(c);
        n = (double)M->P.total;
        pf_model_free(M);
    }
    const double state = n * 4 * (4 + (c->ema_decay > 0)), fixed = (256.0 + 64.0) * (1u << 20), copies = n * 2;
    const pf_disto_dims dd = {disto_n, c->c_z, c->n_bins};
    const double loss = disto_n ? (double)cu_disto_tmp_bytes((const cu_impl *)be->impl, &dd) : 0,
                 pred = disto_n ? (double)pf_distogram_predict_device_bytes(be, disto_n, c->n_bins, c->c_z) : 0;
    trunk_extra_t e = {state + fixed + copies, fmax(loss, pred)};
    return e;
}
static void print_extra(trunk_extra_t e, double plan, const char *who) {
    printf("    %s besides the plan: parameters, optimizer state, backend buffers and weight copies %.2f GiB (in "
           "train's reported peak: %.2f GiB), the distogram's temporaries (the loss's or validation's) %.2f GiB: device %.2f GiB + the CUDA "
           "context\n", who, gib(e.rep), gib(plan + e.rep), gib(e.tmp), gib(plan + e.rep + e.tmp));
}

// One GPU: the whole trunk (MSA module + Pairformer stack): model.c's own plan of its arenas
// (pf_model_plan_arenas: the activations, the saved arena with recompute K, the workspace).
static int keep_attn = 0;  // --keep-attn
static double trunk_one(pf_backend *be, const pf_config *c, int64_t N, int64_t S, int K, int quiet) {
    pf_config mc = *c;
    mc.recompute = K, mc.recompute_keep_attn = K && keep_attn, mc.recompute_offload = 0;
    pf_dims d = {N, S, 0};
    size_t act, sv, w;
    pf_model_plan_arenas(&mc, be, d, &act, &sv, &w);
    const double z = (double)N * N * c->c_z * be->act_bytes, arena = (double)act, saved = (double)sv, ws = (double)w;
    const double total = arena + saved + ws;
    if (!quiet) {
        printf("trunk N %lld S %lld recompute %d, one GPU: model tensors %.2f GiB (%.1f z), saved %.2f GiB (%.1f z), "
               "ws %.2f GiB (%.1f z): %.2f GiB (%.1f z-sized copies of %.2f GiB)\n", (long long)N, (long long)S, K,
               gib(arena), arena / z, gib(saved), saved / z, gib(ws), ws / z, gib(total), total / z, gib(z));
        print_extra(trunk_extra(be, c, N), total, "one GPU:");
    }
    return total;
}

// One rank of P's totals (bytes) as model.c and model_dap.c allocate them: with the
// model's z-sized tensors whole on every rank, and as the rank's rows.
typedef struct {
    double whole, rows;
} trunk_dap_plan;

// One rank of P: the MSA module and the stack on model_dap.c's executor.
static trunk_dap_plan trunk_dap(pf_backend *be, const pf_config *c, int64_t N, int64_t S, int K, int Pn, double one,
                                int quiet) {
    pf_params P;
    pf_params_init_registry(&P);
    pf_block a, b;
    pf_block_declare(&a, PF_BLOCK_MSA_MODULE, c, &P, "msa");
    pf_block_declare(&b, PF_BLOCK_PAIRFORMER, c, &P, "pf");
    pf_dap_comm cm;
    memset(&cm, 0, sizeof cm);
    cm.size = Pn;
    pf_dap_block da, db;
    real dummy = 0;
    memset(&da, 0, sizeof da), memset(&db, 0, sizeof db);
    da.b = &a, db.b = &b, da.discard = db.discard = &dummy;  // kept by the plan: nothing is allocated
    pf_dap_block_plan(&da, &a, be, &cm, N, S);
    pf_dap_block_plan(&db, &b, be, &cm, N, S);
    const double es = be->act_bytes, z = (double)N * N * c->c_z * es;
    const double n = (double)db.n, Np = (double)db.Np, rows = n * Np * c->c_z, mm = (double)db.Sp * n * c->c_m;
    const double big = fmax(fmax(fmax(rows, Pn * Np * c->c_z), Np * c->c_s), fmax(mm, fmax(2 * n * Np, 2.0 * db.s * Np)));
    const double e[] = {rows, rows, Np * c->c_s, Np * c->c_s, n * Np, n * Np, Np, big, big,
                        Pn * mm, mm, mm, db.Sp * n, db.s * Np};  // z is gathered in pieces through delta
    double bufs = 0;
    for (size_t k = 0; k < sizeof e / sizeof e[0]; k++) bufs += al(e[k] * es);
    // rows: no z, d z of the executor's own; the distogram's target (int32) and mask
    // rows; the scratch holds P rows of A (validation's gather)
    const double big_r = fmax(big, Pn * Np * c->n_bins);
    const double bufs_rows = bufs - 2 * al(rows * es) + al(n * Np * 4) + al(n * Np * es) + 2 * (al(big_r * es) - al(big * es));
    const int nb = c->n_msa_blocks + c->n_blocks;
    const double snap = al(rows * es) + al(mm * es) + al(Np * c->c_s * es);
    double saved = (double)c->n_msa_blocks * da.saved_bytes + (double)c->n_blocks * db.saved_bytes;
    if (K) saved = al(fmax(da.saved_bytes, db.saved_bytes)) + (ceil((double)nb / K) + PF_MAX(0, PF_MIN(K, nb) - 2)) * snap;
    double arena = model_arena(be, c, N, S, (double)N * N, (double)N), ws = fmax(da.ws_bytes, db.ws_bytes);
    double arena_rows = model_arena(be, c, N, S, n * Np, Np);
    double ws_rows = fmax(ws, al(2 * n * Np * c->n_bins * es));  // the distogram head's transposes
    trunk_dap_plan r = {arena + bufs + saved + ws, arena_rows + bufs_rows + saved + ws_rows};
    if (!quiet) {
        printf("  dap P %d, one rank, the model's z-sized tensors whole: model tensors %.2f GiB (%.1f z), shard "
               "buffers %.2f GiB (%.1f z), saved %.2f GiB (%.1f z), ws %.2f GiB (%.1f z): %.2f GiB = %.3fx one GPU\n",
               Pn, gib(arena), arena / z, gib(bufs), bufs / z, gib(saved), saved / z, gib(ws), ws / z, gib(r.whole),
               r.whole / one);
        printf("  dap P %d, one rank, the model's z-sized tensors as the rank's rows: model tensors %.2f GiB (%.1f z), "
               "shard buffers %.2f GiB (%.1f z), ws %.2f GiB: %.2f GiB = %.3fx one GPU\n", Pn, gib(arena_rows),
               arena_rows / z, gib(bufs_rows), bufs_rows / z, gib(ws_rows), gib(r.rows), r.rows / one);
        print_extra(trunk_extra(be, c, N), r.whole, "z whole:");
        print_extra(trunk_extra(be, c, 0), r.rows, "rows:");
    }
    pf_params_free(&P);
    return r;
}

// --budget G (with --trunk): the largest crop, in steps of 32, whose plan fits G GiB:
// one GPU, and with --dap P one rank's in both layouts (trunk_dap above).
static void largest_crops(pf_backend *be, const pf_config *c, int64_t S, int K, int Pn, double budget) {
    const double lim = budget * (double)(1u << 30);
    const trunk_extra_t rows = trunk_extra(be, c, 0);
    int64_t best[2][3] = {{0, 0, 0}, {0, 0, 0}};  // [the plan alone, the device total][one, whole, rows]
    for (int64_t N = 256; N <= 65536; N += 32) {
        int fits = 0;
        const trunk_extra_t e = trunk_extra(be, c, N);
        double one = trunk_one(be, c, N, S, K, 1);
        double t[2][3] = {{one, 0, 0}, {one + e.rep + e.tmp, 0, 0}};
        if (Pn) {
            trunk_dap_plan r = trunk_dap(be, c, N, S, K, Pn, one, 1);
            t[0][1] = r.whole, t[0][2] = r.rows;
            t[1][1] = r.whole + e.rep + e.tmp, t[1][2] = r.rows + rows.rep + rows.tmp;
        }
        for (int a = 0; a < 2; a++)
            for (int k = 0; k < (Pn ? 3 : 1); k++)
                if (t[a][k] <= lim) best[a][k] = N, fits = 1;
        if (!fits) break;
    }
    for (int a = 0; a < 2; a++) {
        const int64_t *b = best[a];
        printf("largest crop within %.1f GiB (steps of 32), %s: one GPU %lld", budget,
               a ? "the device total (plan + parameters, optimizer, buffers, distogram temporaries)" : "the plan alone",
               (long long)b[0]);
        if (Pn)
            printf("; dap %d with the z-sized model tensors whole %lld (%.3fx), as the rank's rows %lld (%.3fx)", Pn,
                   (long long)b[1], (double)b[1] / b[0], (long long)b[2], (double)b[2] / b[0]);
        printf("\n");
    }
}

int main(int argc, char **argv) {
    const char *preset = "af3", *kind_name = "pairformer";
    int fp32 = 0, first = 1, dap = 0, trunk = -1, msa_rows = 128;
    double budget = 0;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--preset") && first + 1 < argc) preset = argv[++first];
        else if (!strcmp(argv[first], "--kind") && first + 1 < argc) kind_name = argv[++first];
        else if (!strcmp(argv[first], "--fp32")) fp32 = 1;
        else if (!strcmp(argv[first], "--dap") && first + 1 < argc) dap = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--trunk") && first + 1 < argc) trunk = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--msa-rows") && first + 1 < argc) msa_rows = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--budget") && first + 1 < argc) budget = atof(argv[++first]);
        else if (!strcmp(argv[first], "--keep-attn")) keep_attn = 1;
        else {
            fprintf(stderr, "usage: mem_plan [--preset P] [--kind K] [--fp32] [--dap P] [--trunk K [--msa-rows S] [--budget GiB] "
                            "[--keep-attn]] N...\n");
            return 2;
        }
    }
    pf_config cfg;
    if (pf_config_preset(&cfg, preset)) { fprintf(stderr, "mem_plan: unknown preset '%s'\n", preset); return 2; }
    int kind = !strcmp(kind_name, "pairformer") ? PF_BLOCK_PAIRFORMER
               : !strcmp(kind_name, "evoformer") ? PF_BLOCK_EVOFORMER
               : !strcmp(kind_name, "msa_module") ? PF_BLOCK_MSA_MODULE : -1;
    if (kind < 0) { fprintf(stderr, "mem_plan: unknown kind '%s'\n", kind_name); return 2; }
    if (trunk >= 0 && (cfg.trunk != PF_TRUNK_PAIRFORMER || msa_rows < 1)) {
        fprintf(stderr, "mem_plan: --trunk plans the AF3 trunk (a pairformer preset) with --msa-rows >= 1\n");
        return 2;
    }
    if (dap && (dap < 2 || kind != PF_BLOCK_PAIRFORMER)) {
        fprintf(stderr, "mem_plan: --dap P needs P >= 2 and the pairformer kind\n");
        return 2;
    }
    cu_impl ci;
    memset(&ci, 0, sizeof ci);
    ci.bf16 = !fp32;
    pf_backend be = *pf_backend_cpu();  // the CPU's slots say which ops exist; only mem() is called
    be.name = fp32 ? "cuda-fp32 (plan)" : "cuda (plan)";
    be.impl = &ci;
    be.act_bytes = fp32 ? 4 : 2;
#define PF_MODULE_OP(name, NAME, D, Pt, n_in) be.name##_mem = cu_##name##_mem;
#include "../src/backend/ops.def"
    be.attn_dap_mem = cu_attn_dap_mem;  // the CUDA backend's sharded entries (cu_dap.cuh)
    be.trimul_dap_mem = cu_trimul_dap_mem;
    be.opm_dap_mem = cu_opm_dap_mem;
    be.pwavg_dap_mem = cu_pwavg_dap_mem;
    be.attn_keep_bytes = cu_attn_keep_bytes;
    for (int i = first; i < argc; i++) {
        int64_t N = atoll(argv[i]);
        if (N < 1) { fprintf(stderr, "mem_plan: bad N '%s'\n", argv[i]); return 2; }
        if (trunk >= 0) {
            double one = trunk_one(&be, &cfg, N, msa_rows, trunk, 0);
            if (dap) trunk_dap(&be, &cfg, N, msa_rows, trunk, dap, one, 0);
            continue;
        }
        double one = plan(&be, &cfg, kind, N, kind == PF_BLOCK_PAIRFORMER ? 1 : cfg.msa_rows);
        if (dap) plan_dap(&be, &cfg, N, dap, one);
    }
    if (trunk >= 0 && budget > 0) largest_crops(&be, &cfg, msa_rows, trunk, dap, budget);
    return 0;
}
