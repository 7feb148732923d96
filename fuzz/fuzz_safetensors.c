// libFuzzer harness: the safetensors reader (header length, JSON header, dtypes,
// shapes against byte sizes, offsets, metadata) on arbitrary bytes, then every
// accessor on what it accepted: each tensor's bytes are read in full (ASan
// catches a view that runs past the mapping).
// Built against the reader in src/format/.
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "memfile.h"
#include "../src/format/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[64], err[1024];
    int fd = memfile(data, size, path, sizeof path);
    if (fd < 0) return 0;
    pf_st_file *f = pf_st_open(path, err, sizeof err);
    if (f) {
        volatile uint8_t sink = 0;
        for (int i = 0; i < pf_st_count(f); i++) {
            const pf_st_tensor *t = pf_st_at(f, i);
            if (pf_st_find(f, t->name) != t) __builtin_trap();  // names are unique
            if (pf_st_dtype_size(t->dtype) == 0) __builtin_trap();
            const uint8_t *b = t->data;
            for (size_t k = 0; k < t->nbytes; k++) sink ^= b[k];
        }
        for (int i = 0; i < pf_st_meta_count(f); i++) {
            const char *k, *v;
            if (pf_st_meta_at(f, i, &k, &v) != 0 || pf_st_meta(f, k) == NULL) __builtin_trap();
            sink ^= (uint8_t)strlen(v);
        }
        (void)sink;
        pf_st_close(f);
    }
    close(fd);
    return 0;
}
