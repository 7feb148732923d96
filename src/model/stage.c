// stage.c: the batch's way to the device. A batch is packed into a host staging
// buffer (page-locked when the backend offers it, so every copy is a DMA queued on
// the backend's stream and the host goes on at once) and copied region by region.
//
// Two slots: the trainer packs the next batch (pf_model_stage) while the GPU
// still runs this step's backward, so the only host work left between steps is
// queueing the copies. Slot safety: a slot is repacked only two uploads after
// its copies were queued, and every step and evaluation synchronises in between
// (the loss is read back), so copies in flight never see new data.
#include "model.h"
#include "stage.h"
#include "distogram.h"
#include <string.h>
#include <math.h>
#include "../core/util.h"

// Regions of a slot for dims d, one per model input (inputs.h), each 64-byte aligned.
typedef struct {
    void *in[PF_NUM_INPUTS];
    size_t bytes;
} layout;

static size_t input_bytes(int k, pf_dims d) {
    return (size_t)pf_input_elems(k, d.N, d.S, d.E) * (pf_model_inputs[k].is_int ? sizeof(int32_t) : sizeof(real));
}

// Offsets are summed as sizes, so the sizing pass (base NULL) does no pointer
// arithmetic on NULL.
static layout lay_out(void *base, pf_dims d) {
    layout L;
    size_t off = 0;
    for (int k = 0; k < PF_NUM_INPUTS; k++) {
        L.in[k] = base ? (char *)base + off : NULL;
        off += (input_bytes(k, d) + 63) & ~(size_t)63;
    }
    L.bytes = off;
    return L;
}

void pf_stage_free(pf_model *M) {
    for (int s = 0; s < 2; s++) {
        if (!M->stage[s]) continue;
        if (M->be->host_free) M->be->host_free(M->be, M->stage[s]);
        else pf_free(M->stage[s]);
        M->stage[s] = NULL;
        M->staged[s] = NULL;
    }
}

void pf_stage_alloc(pf_model *M, pf_dims cap) {
    pf_stage_free(M);
    M->stage_bytes = lay_out(NULL, cap).bytes;
    for (int s = 0; s < 2; s++)
        M->stage[s] = M->be->host_alloc ? M->be->host_alloc(M->be, M->stage_bytes) : pf_malloc(M->stage_bytes);
    M->stage_cap = cap;
}

pf_dims pf_batch_dims(const pf_model *M, const pf_batch *b) {
    int extra = pf_extra_msa_rows(&M->cfg) > 0;
    pf_dims d = {b->N, b->S, extra ? b->E : 0};
    if (extra && b->E <= 0) pf_die("batch '%s' has no extra-MSA rows but the extra-MSA stack is enabled", b->name);
    return d;
}

// A batch is recognised by its feature array (the struct itself may be copied).
static const void *key(const pf_batch *b) { return b->target_feat; }

// The inputs the batch does not hold as they are (PF_DERIVED in inputs.h).
static void derive(const pf_model *M, const pf_batch *b, pf_dims d, layout *L) {
    int64_t N = d.N;
    real *pair_mask = L->in[PF_IN_PAIR_MASK], *disto_mask = L->in[PF_IN_DISTO_MASK];
    int32_t *disto_target = L->in[PF_IN_DISTO_TARGET], *bert_target = L->in[PF_IN_BERT_TARGET];
    for (int64_t k = 0; k < d.S * N; k++) {
        int t = b->bert_target[k];
        bert_target[k] = t >= 0 && t < PF_NUM_TOK ? t : PF_TOK_GAP;
    }
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            pair_mask[i * N + j] = b->seq_mask[i] * b->seq_mask[j];
            disto_mask[i * N + j] = b->pseudo_beta_mask[i] * b->pseudo_beta_mask[j];
            const real *a = b->pseudo_beta + 3 * i, *c = b->pseudo_beta + 3 * j;
            double dx = a[0] - c[0], dy = a[1] - c[1], dz = a[2] - c[2];
            disto_target[i * N + j] = pf_disto_bin(sqrt(dx * dx + dy * dy + dz * dz), &M->cfg);
        }
}

static void pack(pf_model *M, int slot, const pf_batch *b, pf_dims d) {
    layout L = lay_out(M->stage[slot], d);
    for (int k = 0; k < PF_NUM_INPUTS; k++) {
        size_t src = pf_model_inputs[k].source;
        if (src != PF_DERIVED && input_bytes(k, d) > 0)
            memcpy(L.in[k], *(void *const *)((const char *)b + src), input_bytes(k, d));
    }
    derive(M, b, d, &L);
    M->staged[slot] = key(b);
}

static int fits(const pf_model *M, pf_dims d) {
    return M->stage[0] && d.N <= M->stage_cap.N && d.S <= M->stage_cap.S && d.E <= M->stage_cap.E;
}

void pf_model_stage(pf_model *M, const pf_batch *b) {
    pf_dims d = pf_batch_dims(M, b);
    if (!fits(M, d)) return;  // larger than planned: packed at upload, after the arenas grow
    pack(M, 1 - M->last_slot, b, d);
}

double pf_stage_upload(pf_model *M, const pf_batch *b, pf_dims d) {
    pf_backend *be = M->be;
    double t0 = pf_now_ms();
    int slot = -1;
    for (int s = 0; s < 2; s++)
        if (M->staged[s] && M->staged[s] == key(b)) slot = s;
    if (slot < 0) {  // not staged ahead: pack now, leaving a pending staged batch alone
        slot = M->staged[1 - M->last_slot] ? M->last_slot : 1 - M->last_slot;
        pack(M, slot, b, d);
    }
    layout L = lay_out(M->stage[slot], d);
    for (int k = 0; k < PF_NUM_INPUTS; k++) {
        int64_t n = pf_input_elems(k, d.N, d.S, d.E);
        if (n == 0) continue;  // e.g. no extra MSA
        if (pf_model_inputs[k].is_int) be->upload(be, M->in[k], L.in[k], sizeof(int32_t) * (size_t)n);
        else be->act_from_real(be, M->in[k], L.in[k], n);
    }
    M->staged[slot] = NULL;  // consumed: the batch may be freed and its address reused
    M->last_slot = slot;
    return pf_now_ms() - t0;
}
