// libFuzzer harness: the feature-cache container (header, entry index, input
// table, strings) on arbitrary bytes. The header's checksum is recomputed for
// the fuzzed bytes when the sizes allow, so the fuzzer gets past it into the
// bounds checks of the index, input table and strings (a cache that fails its
// checksum is refused before any of them). Then every entry accepted is viewed.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "memfile.h"
#include "../src/data/cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    if (size >= sizeof(pf_cache_header)) {
        pf_cache_header h;
        memcpy(&h, buf, sizeof h);
        uint64_t end = h.strings_off + h.strings_bytes;
        if (end >= h.strings_off && end >= sizeof h && end <= size) {
            h.meta_crc = 0;
            uint32_t crc = pf_crc32(&h, sizeof h);
            crc = (uint32_t)crc32(crc, buf + sizeof h, (uInt)(end - sizeof h));
            memcpy(buf + offsetof(pf_cache_header, meta_crc), &crc, sizeof crc);
        }
    }
    char path[64], err[1024];
    int fd = memfile(buf, size, path, sizeof path);
    if (fd >= 0) {
        pf_cache c;
        if (pf_cache_open(&c, path, 1, err, sizeof err) == 0) {
            for (int64_t i = 0; i < (int64_t)c.h->n_entries && i < 64; i++) {
                pf_entry_view v;
                size_t bytes;
                (void)pf_cache_entry(&c, i, &v, err, sizeof err);
                (void)pf_cache_record(&c, i, &bytes);
            }
            pf_cache_close(&c);
        }
        close(fd);
    }
    free(buf);
    return 0;
}
