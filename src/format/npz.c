// npz.c: .npz writer (zip archive of .npy entries; PKWARE APPNOTE 4.3.7 / 4.3.12 /
// 4.3.16 records, version 2.0, no zip64; NEP 1 .npy header version 1.0).
#include "npz.h"
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <zlib.h>
#include "../core/util.h"

#define ZIP_LIMIT 0xFFFFFFFFull  // 32-bit sizes and offsets without zip64

static void put16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint64_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }

// The .npy header (magic, version 1.0, length, dict padded so data starts at a
// multiple of 64). Returns its length (<= cap) or 0 if it does not fit.
static size_t npy_header(const pf_npy_array *a, unsigned char *out, size_t cap) {
    char dict[256], shape[160] = "";
    size_t o = 0;
    for (int d = 0; d < a->ndim; d++)
        o += (size_t)snprintf(shape + o, sizeof shape - o, "%lld%s", (long long)a->shape[d],
                              a->ndim == 1 || d + 1 < a->ndim ? ", " : "");
    if (a->ndim == 1) shape[o - 1] = 0;  // "(5,)"
    int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", a->descr, shape);
    size_t total = 10 + (size_t)dl + 1;
    total = (total + 63) / 64 * 64;
    if (dl < 0 || total > cap) return 0;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    put16(out + 8, (unsigned)(total - 10));
    memcpy(out + 10, dict, (size_t)dl);
    memset(out + 10 + dl, ' ', total - 10 - (size_t)dl - 1);
    out[total - 1] = '\n';
    return total;
}

// Raw deflate of the npy header followed by the data into a new buffer. Level 1:
// level 6 made no smaller file of a distogram (4.42 MB against 4.35 MB of 6.07 MB, N = 154)
// and took seconds longer.
static unsigned char *deflate_entry(const unsigned char *hdr, size_t hl, const void *data, size_t n, size_t *out_len) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    size_t cap = deflateBound(&zs, (uLong)(hl + n)) + 64;
    unsigned char *buf = pf_malloc(cap);
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    zs.next_in = (Bytef *)hdr;
    zs.avail_in = (uInt)hl;
    int rc = deflate(&zs, Z_NO_FLUSH);
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)n;
    if (rc == Z_OK) rc = deflate(&zs, Z_FINISH);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) { pf_free(buf); return NULL; }
    return buf;
}

typedef struct {
    unsigned char local[30 + 80], npy[256];
    size_t name_len, npy_len, comp_len, raw_len;
    uint32_t crc;
    uint64_t offset;       // of the local header in the archive
    unsigned char *zdata;  // deflated npy header + data (NULL: stored)
} npz_entry;

static void local_header(npz_entry *e, int method) {
    unsigned char *h = e->local;
    put32(h, 0x04034b50);
    put16(h + 4, 20);
    put16(h + 6, 0);
    put16(h + 8, (unsigned)method);
    put16(h + 10, 0);           // time 00:00:00
    put16(h + 12, (1 << 5) | 1);  // date 1980-01-01
    put32(h + 14, e->crc);
    put32(h + 18, e->comp_len);
    put32(h + 22, e->raw_len);
    put16(h + 26, (unsigned)e->name_len);
    put16(h + 28, 0);
}

static void central_record(const npz_entry *e, int method, unsigned char *c) {
    put32(c, 0x02014b50);
    put16(c + 4, 20);
    memcpy(c + 6, e->local + 4, 26);  // version needed .. name length, as in the local header
    put16(c + 32, 0);                 // comment length
    put16(c + 34, 0);                 // disk
    put16(c + 36, 0);                 // internal attributes
    put32(c + 38, 0);                 // external attributes
    put32(c + 42, e->offset);
    memcpy(c + 46, e->local + 30, e->name_len);
}

// Fill entry k (headers, CRC, compressed data). 0 or -1 with err.
static int make_entry(const pf_npy_array *a, int deflate, npz_entry *e, const char *path, char *err, size_t errlen) {
    e->name_len = strlen(a->name) + 4;
    if (e->name_len > 80 || a->ndim < 0 || a->ndim > PF_NPY_MAX_NDIM) {
        snprintf(err, errlen, "%s: array '%s': name over 76 characters or more than %d dimensions", path, a->name,
                 PF_NPY_MAX_NDIM);
        return -1;
    }
    memcpy(e->local + 30, a->name, e->name_len - 4);
    memcpy(e->local + 30 + e->name_len - 4, ".npy", 4);
    e->npy_len = npy_header(a, e->npy, sizeof e->npy);
    e->raw_len = e->npy_len + a->nbytes;
    if (!e->npy_len || e->raw_len >= ZIP_LIMIT) {
        snprintf(err, errlen, "%s: array '%s' of %zu bytes does not fit a zip entry without zip64 (4 GiB)", path,
                 a->name, a->nbytes);
        return -1;
    }
    uLong crc = crc32(0L, e->npy, (uInt)e->npy_len);
    e->crc = (uint32_t)(a->nbytes ? crc32(crc, a->data, (uInt)a->nbytes) : crc);
    e->comp_len = e->raw_len;
    if (deflate && !(e->zdata = deflate_entry(e->npy, e->npy_len, a->data, a->nbytes, &e->comp_len))) {
        snprintf(err, errlen, "%s: array '%s': zlib deflate failed", path, a->name);
        return -1;
    }
    local_header(e, deflate ? 8 : 0);
    return 0;
}

int pf_npz_write(const char *path, const pf_npy_array *a, int n, int deflate, char *err, size_t errlen) {
    npz_entry *e = pf_calloc((size_t)n + 1, sizeof *e);
    const void **parts = pf_calloc((size_t)(3 * n + 2), sizeof *parts);
    size_t *sizes = pf_calloc((size_t)(3 * n + 2), sizeof *sizes);
    unsigned char *cd = pf_calloc((size_t)n * (46 + 80) + 22, 1);
    int np = 0, rc = -1;
    uint64_t off = 0, cd_len = 0;
    for (int k = 0; k < n; k++) {
        if (make_entry(&a[k], deflate, &e[k], path, err, errlen) != 0) goto done;
        e[k].offset = off;
        parts[np] = e[k].local, sizes[np++] = 30 + e[k].name_len;
        if (e[k].zdata) parts[np] = e[k].zdata, sizes[np++] = e[k].comp_len;
        else {
            parts[np] = e[k].npy, sizes[np++] = e[k].npy_len;
            parts[np] = a[k].data, sizes[np++] = a[k].nbytes;
        }
        off += 30 + e[k].name_len + e[k].comp_len;
        central_record(&e[k], deflate ? 8 : 0, cd + cd_len);
        cd_len += 46 + e[k].name_len;
    }
    if (off + cd_len + 22 >= ZIP_LIMIT || n > 0xFFFF) {
        snprintf(err, errlen, "%s: %llu bytes in %d arrays: over what a zip archive holds without zip64", path,
                 (unsigned long long)(off + cd_len), n);
        goto done;
    }
    unsigned char *end = cd + cd_len;  // end of central directory record
    put32(end, 0x06054b50);
    put16(end + 4, 0);
    put16(end + 6, 0);
    put16(end + 8, (unsigned)n);
    put16(end + 10, (unsigned)n);
    put32(end + 12, cd_len);
    put32(end + 16, off);
    put16(end + 20, 0);
    parts[np] = cd, sizes[np++] = cd_len + 22;
    rc = pf_write_atomic_v(path, parts, sizes, np);
    if (rc) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
done:
    for (int k = 0; k < n; k++) pf_free(e[k].zdata);
    pf_free(e); pf_free(parts); pf_free(sizes); pf_free(cd);
    return rc;
}
