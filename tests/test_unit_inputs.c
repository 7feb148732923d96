// test_unit_inputs: the two layout tables agree and drive the batch. Every model
// input taken from the batch (src/model/inputs.h) has the type and shape of that
// batch array (src/data/batch.h); every batch array is allocated with its
// table size and deep-copied by pf_batch_copy.
#include <string.h>
#include <malloc.h>
#include "testlib.h"
#include "../src/model/inputs.h"

int main(void) {
    int from_batch = 0;
    for (int k = 0; k < PF_NUM_INPUTS; k++) {
        const pf_input_desc *in = &pf_model_inputs[k];
        tl_check(in->name != NULL, "input named", "input %d", k);
        if (in->source == PF_DERIVED) continue;
        from_batch++;
        const pf_array_desc *a = NULL;
        for (int j = 0; j < pf_batch_n_arrays; j++)
            if (pf_batch_arrays[j].offset == in->source) a = &pf_batch_arrays[j];
        tl_check(a != NULL, "input source is a batch array", "%s", in->name);
        if (a)
            tl_check(a->is_int == in->is_int && a->outer == in->outer && a->inner == in->inner &&
                         a->channels == in->channels,
                     "input shape = batch array shape", "%s vs %s", in->name, a->name);
    }
    tl_check(from_batch == 11 && PF_NUM_INPUTS == 15, "input count", "%d of %d from the batch", from_batch, PF_NUM_INPUTS);

    enum { N = 5, S = 3, E = 2 };
    pf_batch b, c;
    pf_batch_alloc(&b, N, S, E);
    uint8_t v = 1;
    for (int j = 0; j < pf_batch_n_arrays; j++) {
        const pf_array_desc *a = &pf_batch_arrays[j];
        size_t bytes = (size_t)pf_array_elems(a->outer, a->inner, a->channels, N, S, E) * (a->is_int ? 4 : sizeof(real));
        unsigned char *p = *(void **)((char *)&b + a->offset);
        tl_check(malloc_usable_size(p) >= bytes, "allocated with its table size", "%s", a->name);
        for (size_t i = 0; i < bytes; i++) p[i] = v++;  // every byte distinct-ish
    }
    snprintf(b.name, sizeof b.name, "x");
    pf_batch_copy(&c, &b);
    for (int j = 0; j < pf_batch_n_arrays; j++) {
        const pf_array_desc *a = &pf_batch_arrays[j];
        size_t bytes = (size_t)pf_array_elems(a->outer, a->inner, a->channels, N, S, E) * (a->is_int ? 4 : sizeof(real));
        void *p = *(void **)((char *)&b + a->offset), *q = *(void **)((char *)&c + a->offset);
        tl_check(p != q && memcmp(p, q, bytes) == 0, "deep copy", "%s", a->name);
    }
    tl_check(c.N == N && c.S == S && c.E == E && !strcmp(c.name, "x") && c.crop_start == b.crop_start, "copy dims", "-");
    // the shapes the rest of the code assumes
    tl_check(pf_input_elems(PF_IN_MSA_FEAT, N, S, E) == (int64_t)S * N * PF_MSA_FEAT &&
                 pf_input_elems(PF_IN_DISTO_TARGET, N, S, E) == (int64_t)N * N &&
                 pf_input_elems(PF_IN_EXTRA_FEAT, N, S, 0) == 0,
             "input sizes", "-");
    pf_batch_free(&b);
    pf_batch_free(&c);
    return tl_finish();
}
