#include "cache.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "../core/rng.h"
#include "../core/util.h"
#include "textio.h"

_Static_assert(sizeof(pf_cache_header) == 128, "header layout");
_Static_assert(sizeof(pf_cache_index) == 64, "index layout");
_Static_assert(sizeof(pf_cache_input) == 48, "input layout");
_Static_assert(sizeof(pf_rec_header) == 128, "record header layout");
_Static_assert(sizeof(pf_rec_chain) == 40, "record chain layout");
_Static_assert(sizeof(pf_rec_msa) == 32, "record msa layout");

uint32_t pf_crc32(const void *p, size_t n) {
    uLong c = crc32(0L, Z_NULL, 0);
    const Bytef *b = p;
    while (n > 0) {
        uInt k = (uInt)PF_MIN(n, (size_t)1 << 30);
        c = crc32(c, b, k);
        b += k;
        n -= k;
    }
    return (uint32_t)c;
}

uint64_t pf_hash_bytes(uint64_t seed, const void *p, size_t n) {
    const uint8_t *b = p;
    uint64_t h = pf_mix64(seed ^ (uint64_t)n);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = pf_mix64(h ^ w) + 0x9E3779B97F4A7C15ull;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i + k < n; k++) tail |= (uint64_t)b[i + k] << (8 * k);
    return pf_mix64(h ^ tail ^ 0xA5A5A5A5A5A5A5A5ull);
}

static size_t up64(size_t x) { return (x + 63) & ~(size_t)63; }

int pf_cache_write(const char *path, const pf_cache_item *items, int n, char *err, size_t errlen) {
    // strings: keys and messages, in item order
    size_t sbytes = 0;
    int n_entries = 0;
    for (int i = 0; i < n; i++) {
        sbytes += strlen(items[i].key) + 1 + strlen(items[i].msg ? items[i].msg : "") + 1;
        n_entries += !items[i].failed && items[i].rec;
    }
    size_t meta = sizeof(pf_cache_header) + (size_t)n_entries * sizeof(pf_cache_index) +
                  (size_t)n * sizeof(pf_cache_input) + sbytes;
    size_t data_off = up64(meta);
    uint8_t *head = calloc(1, data_off);
    if (!head) pf_die("out of memory");
    pf_cache_header *h = (pf_cache_header *)head;
    pf_cache_index *ix = (pf_cache_index *)(head + sizeof *h);
    pf_cache_input *in = (pf_cache_input *)(ix + n_entries);
    char *str = (char *)(in + n);
    size_t so = 0, off = data_off;
    int e = 0;
    for (int i = 0; i < n; i++) {
        const pf_cache_item *it = &items[i];
        const char *msg = it->msg ? it->msg : "";
        in[i].hash = it->hash;
        in[i].bytes = it->bytes;
        in[i].key_off = (uint32_t)so;
        in[i].key_len = (uint32_t)strlen(it->key);
        memcpy(str + so, it->key, in[i].key_len + 1);
        so += in[i].key_len + 1;
        in[i].msg_off = (uint32_t)so;
        in[i].msg_len = (uint32_t)strlen(msg);
        memcpy(str + so, msg, in[i].msg_len + 1);
        so += in[i].msg_len + 1;
        in[i].status = it->failed ? PF_INPUT_FAILED : PF_INPUT_OK;
        in[i].entry = UINT32_MAX;
        if (!it->failed && it->rec) {
            const pf_rec_header *rh = (const pf_rec_header *)it->rec;
            ix[e].offset = off;
            ix[e].bytes = it->rec_bytes;
            ix[e].crc = pf_crc32(it->rec, it->rec_bytes);
            ix[e].n_res = rh->n_res;
            ix[e].n_chains = rh->n_chains;
            ix[e].input = (uint32_t)i;
            snprintf(ix[e].name, sizeof ix[e].name, "%.31s", rh->name);
            in[i].entry = (uint32_t)e;
            off = up64(off + it->rec_bytes);
            e++;
        }
    }
    memcpy(h->magic, PF_CACHE_MAGIC, 8);
    h->version = PF_CACHE_VERSION;
    h->header_bytes = sizeof *h;
    h->n_entries = (uint64_t)n_entries;
    h->n_inputs = (uint64_t)n;
    h->index_off = sizeof *h;
    h->inputs_off = sizeof *h + (uint64_t)n_entries * sizeof(pf_cache_index);
    h->strings_off = h->inputs_off + (uint64_t)n * sizeof(pf_cache_input);
    h->strings_bytes = sbytes;
    h->data_off = data_off;
    h->data_bytes = off - data_off;
    h->file_bytes = off;
    h->endian = PF_CACHE_ENDIAN;
    h->meta_crc = 0;
    h->meta_crc = pf_crc32(head, meta);
    // pieces: head, then each record followed by zero padding to 64 bytes
    int np = 1 + 2 * n_entries;
    const void **parts = malloc((size_t)np * sizeof(void *));
    size_t *sizes = malloc((size_t)np * sizeof(size_t));
    static const uint8_t zeros[64];
    parts[0] = head;
    sizes[0] = data_off;
    int k = 1;
    for (int i = 0; i < n; i++) {
        if (items[i].failed || !items[i].rec) continue;
        parts[k] = items[i].rec;
        sizes[k++] = items[i].rec_bytes;
        parts[k] = zeros;
        sizes[k++] = up64(items[i].rec_bytes) - items[i].rec_bytes;
    }
    int rc = pf_write_atomic_v(path, parts, sizes, np);
    if (rc != 0) pf_errf(err, errlen, path, 0, "cannot write cache: %s", strerror(errno));
    free(parts);
    free(sizes);
    free(head);
    return rc;
}

void pf_cache_close(pf_cache *c) {
    if (c->map) munmap((void *)c->map, c->size);
    if (c->fd >= 0) close(c->fd);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

int pf_cache_open(pf_cache *c, const char *path, int verify_records, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    c->fd = open(path, O_RDONLY);
    if (c->fd < 0) {
        pf_errf(err, errlen, path, 0, "cannot open cache: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(c->fd, &st) != 0 || st.st_size < (off_t)sizeof(pf_cache_header)) {
        pf_errf(err, errlen, path, 0, "not a pairfold cache (too small)");
        pf_cache_close(c);
        return -1;
    }
    c->size = (size_t)st.st_size;
    void *m = mmap(NULL, c->size, PROT_READ, MAP_SHARED, c->fd, 0);
    if (m == MAP_FAILED) {
        pf_errf(err, errlen, path, 0, "mmap failed: %s", strerror(errno));
        c->map = NULL;
        pf_cache_close(c);
        return -1;
    }
    c->map = m;
    const pf_cache_header *h = m;
    c->h = h;
    const char *why = NULL;
    if (memcmp(h->magic, PF_CACHE_MAGIC, 8) != 0) why = "bad magic: not a pairfold cache";
    else if (h->version != PF_CACHE_VERSION) why = "unsupported cache version (re-run pairfold prep)";
    else if (h->endian != PF_CACHE_ENDIAN) why = "cache written on a machine of other byte order";
    else if (h->header_bytes != sizeof *h || h->file_bytes != c->size) why = "size mismatch (truncated cache?)";
    else if (h->n_entries > h->n_inputs || h->n_inputs > (1u << 30) || h->index_off != sizeof *h ||
             h->inputs_off != h->index_off + h->n_entries * sizeof(pf_cache_index) ||
             h->strings_off != h->inputs_off + h->n_inputs * sizeof(pf_cache_input) ||
             h->strings_off + h->strings_bytes > h->data_off || h->data_off + h->data_bytes != c->size ||
             (h->data_off & 63))
        why = "corrupt header";
    if (!why) {
        pf_cache_header tmp = *h;
        tmp.meta_crc = 0;
        uint32_t crc = pf_crc32(&tmp, sizeof tmp);
        crc = (uint32_t)crc32(crc, (const Bytef *)c->map + sizeof tmp, (uInt)(h->strings_off + h->strings_bytes - sizeof tmp));
        if (crc != h->meta_crc) why = "index checksum mismatch (corrupt cache)";
    }
    if (!why) {
        c->index = (const pf_cache_index *)(c->map + h->index_off);
        c->inputs = (const pf_cache_input *)(c->map + h->inputs_off);
        c->strings = (const char *)(c->map + h->strings_off);
        for (uint64_t i = 0; i < h->n_inputs && !why; i++) {
            const pf_cache_input *in = &c->inputs[i];
            if ((uint64_t)in->key_off + in->key_len >= h->strings_bytes ||
                (uint64_t)in->msg_off + in->msg_len >= h->strings_bytes || c->strings[in->key_off + in->key_len] ||
                c->strings[in->msg_off + in->msg_len] || (in->entry != UINT32_MAX && in->entry >= h->n_entries))
                why = "corrupt input table";
        }
        for (uint64_t i = 0; i < h->n_entries && !why; i++) {
            const pf_cache_index *ix = &c->index[i];
            if (ix->offset < h->data_off || (ix->offset & 63) || ix->bytes > c->size || ix->offset + ix->bytes > c->size ||
                ix->input >= h->n_inputs)
                why = "corrupt entry index";
            else if (verify_records && pf_crc32(c->map + ix->offset, ix->bytes) != ix->crc) {
                snprintf(err, errlen, "%s: record %llu (%.31s) checksum mismatch (corrupt cache)", path,
                         (unsigned long long)i, ix->name);
                pf_cache_close(c);
                return -1;
            }
        }
    }
    if (why) {
        pf_errf(err, errlen, path, 0, "%s", why);
        pf_cache_close(c);
        return -1;
    }
    return 0;
}

const uint8_t *pf_cache_record(const pf_cache *c, int64_t i, size_t *bytes) {
    const pf_cache_index *ix = &c->index[i];
    *bytes = ix->bytes;
    return c->map + ix->offset;
}

int pf_cache_entry(const pf_cache *c, int64_t i, pf_entry_view *v, char *err, size_t errlen) {
    if (i < 0 || (uint64_t)i >= c->h->n_entries) {
        pf_errf(err, errlen, "cache", 0, "entry %lld out of range", (long long)i);
        return -1;
    }
    size_t n;
    const uint8_t *r = pf_cache_record(c, i, &n);
    return pf_entry_view_init(v, r, n, err, errlen);
}
