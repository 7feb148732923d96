// libFuzzer harness: validation of cache records (pf_entry_view_init), the
// guard between a memory-mapped cache and the sampler. Input byte 0 picks:
//   even: the remaining bytes are a record, validated as they are;
//   odd:  the remaining bytes are a PDB file; its record is built, must
//         validate, then a few bytes chosen by the input are flipped and it
//         is validated again.
// Whatever validates is cropped and its MSA blocks touched at their ends.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../src/core/rng.h"
#include "../src/data/cache.h"
#include "../src/data/entry.h"
#include "../src/data/sampler.h"
#include "../src/data/structure.h"

static void exercise(const void *rec, size_t n) {
    pf_entry_view v;
    char err[256];
    if (pf_entry_view_init(&v, rec, n, err, sizeof err) != 0 || v.h->n_res > 100000) return;
    int *sel = malloc((size_t)v.h->n_res * sizeof(int)), centre;
    pf_rng r = pf_rng_make(1, 2);
    pf_crop_contiguous(&v, 16, &r, sel);
    pf_crop_spatial(&v, 16, &r, sel, &centre);
    for (uint32_t k = 0; k < v.h->n_msa; k++) {
        const pf_rec_msa *m = &v.msa[k];
        volatile uint8_t x = pf_view_msa_tok(&v, (int)k)[(size_t)m->n_rows * m->L - 1] ^
                             pf_view_msa_del(&v, (int)k)[(size_t)m->n_rows * m->L - 1];
        volatile float y = pf_view_msa_del_mean(&v, (int)k)[m->L - 1];
        (void)x, (void)y;
    }
    free(sel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t *body = data + 1;
    size_t n = size - 1;
    if ((data[0] & 1) == 0) {
        uint64_t *buf = malloc(n / 8 * 8 + 8);  // records are 8-byte aligned
        if (n) memcpy(buf, body, n);
        exercise(buf, n);
        free(buf);
        return 0;
    }
    char *txt = malloc(n ? n : 1);
    if (n) memcpy(txt, body, n);
    pf_structure s;
    char err[256];
    if (pf_parse_pdb(txt, n, "fuzz.pdb", &s, err, sizeof err) == 0) {
        pf_chain_in *ci = calloc((size_t)s.n_chains, sizeof(pf_chain_in));
        for (int c = 0; c < s.n_chains; c++) ci[c].chain = &s.chains[c];
        size_t bytes;
        pf_build_opts o = {64};
        uint8_t *rec = pf_entry_build("fuzz", 1, ci, s.n_chains, &o, &bytes);
        pf_entry_view v;
        if (pf_entry_view_init(&v, rec, bytes, err, sizeof err) != 0) abort();  // built records must validate
        uint64_t h = pf_hash_bytes(0xF0, data, size);
        for (int k = 0; k < 3; k++) rec[(h >> (k * 20)) % bytes] ^= (uint8_t)(h >> (k * 8 + 3));
        exercise(rec, bytes);
        free(rec);
        free(ci);
        pf_structure_free(&s);
    }
    free(txt);
    return 0;
}
