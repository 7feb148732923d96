// safetensors.c: the safetensors reader (mmap + cJSON, validating everything
// a corrupt or truncated file could get wrong) and writer (atomic replace); the
// header builder it shares with the row-piece writer (safetensors_rows.c).
#include "safetensors.h"
#include "safetensors_int.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "../core/util.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors data is little-endian; this host is not"
#endif

// Python's safetensors refuses headers above 100 MB; so do we (a guard
// against a corrupt length field as much as a limit).
#define ST_MAX_HEADER 100000000ull

static const struct { const char *name; size_t size; } st_dtypes[] = {
    {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8}, {"I32", 4}, {"I16", 2},
    {"I8", 1},  {"U64", 8}, {"U32", 4}, {"U16", 2},  {"U8", 1},   {"BOOL", 1},
    {"F8_E4M3", 1}, {"F8_E5M2", 1},
};

static const char *dtype_canon(const char *dtype) {
    for (size_t i = 0; dtype && i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
        if (!strcmp(dtype, st_dtypes[i].name)) return st_dtypes[i].name;
    return NULL;
}

size_t pf_st_dtype_size(const char *dtype) {
    for (size_t i = 0; dtype && i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
        if (!strcmp(dtype, st_dtypes[i].name)) return st_dtypes[i].size;
    return 0;
}

static void seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

// Bytes of a tensor of this shape and dtype size; -1 on a negative dimension or overflow.
static int64_t shape_bytes(int ndim, const int64_t *shape, size_t dsize) {
    uint64_t n = dsize;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0 || __builtin_mul_overflow(n, (uint64_t)shape[d], &n)) return -1;
    }
    return n > (uint64_t)INT64_MAX ? -1 : (int64_t)n;
}

// CRC-32 (zlib's) of n bytes, continuing from crc (start with 0).
uint32_t pf_st_crc32(uint32_t crc, const void *p, size_t n) {
    const unsigned char *b = p;
    uLong c = crc;
    while (n > 0) {  // zlib takes 32-bit lengths
        uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
        c = crc32(c, b, k);
        b += k;
        n -= k;
    }
    return (uint32_t)c;
}

// ---------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------

typedef struct { char *s; size_t n, cap; int oom; } sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->n + n + 1 > cap) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) { b->oom = 1; return; }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}
static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_fmt(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_fmt(sbuf *b, const char *fmt, ...) {
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_put(b, tmp, (size_t)(k < (int)sizeof tmp ? k : (int)sizeof tmp - 1));
}
// A JSON string literal: quotes, backslashes and control characters escaped;
// other bytes (UTF-8) pass through.
static void sb_json(sbuf *b, const char *s) {
    sb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') { char e[2] = {'\\', (char)*p}; sb_put(b, e, 2); }
        else if (*p < 0x20) sb_fmt(b, "\\u%04x", *p);
        else sb_put(b, (const char *)p, 1);
    }
    sb_put(b, "\"", 1);
}

int pf_st_validate(const char *path, const pf_st_tensor *ts, int n, int need_data, char *err, size_t errlen) {
    if (n < 0 || (n > 0 && !ts)) { seterr(err, errlen, "%s: bad tensor list (n = %d)", path, n); return -1; }
    for (int i = 0; i < n; i++) {
        const pf_st_tensor *t = &ts[i];
        if (!t->name || !*t->name || !strcmp(t->name, "__metadata__")) {
            seterr(err, errlen, "%s: tensor %d: invalid name '%s'", path, i, t->name ? t->name : "(null)");
            return -1;
        }
        size_t ds = pf_st_dtype_size(t->dtype);
        if (!ds) { seterr(err, errlen, "%s: tensor '%s': unknown dtype '%s'", path, t->name, t->dtype ? t->dtype : "(null)"); return -1; }
        if (t->ndim < 0 || t->ndim > PF_ST_MAX_NDIM) { seterr(err, errlen, "%s: tensor '%s': ndim %d outside [0, %d]", path, t->name, t->ndim, PF_ST_MAX_NDIM); return -1; }
        int64_t nb = shape_bytes(t->ndim, t->shape, ds);
        if (nb < 0) { seterr(err, errlen, "%s: tensor '%s': shape has a negative dimension or overflows", path, t->name); return -1; }
        if ((uint64_t)nb != (uint64_t)t->nbytes) {
            seterr(err, errlen, "%s: tensor '%s': shape and dtype %s give %lld bytes, nbytes is %zu",
                   path, t->name, t->dtype, (long long)nb, t->nbytes);
            return -1;
        }
        if (need_data && t->nbytes && !t->data) { seterr(err, errlen, "%s: tensor '%s': data is NULL", path, t->name); return -1; }
        for (int j = 0; j < i; j++)
            if (!strcmp(ts[j].name, t->name)) { seterr(err, errlen, "%s: tensor name '%s' given twice", path, t->name); return -1; }
    }
    return 0;
}

int pf_st_header_build(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv, uint32_t crc,
                       pf_st_header *out, char *err, size_t errlen) {
    char crctext[16];
    snprintf(crctext, sizeof crctext, "%08x", crc);
    sbuf h = {0};
    sb_put(&h, "\0\0\0\0\0\0\0\0", 8);  // the length, filled in below
    sb_str(&h, "{\"__metadata__\":{");
    for (int k = 0; meta_kv && meta_kv[k]; k += 2) {
        if (!meta_kv[k + 1]) { free(h.s); seterr(err, errlen, "%s: metadata key '%s' has no value", path, meta_kv[k]); return -1; }
        if (!strcmp(meta_kv[k], PF_ST_CRC_KEY)) continue;  // ours replaces a copied one
        sb_json(&h, meta_kv[k]);
        sb_str(&h, ":");
        sb_json(&h, meta_kv[k + 1]);
        sb_str(&h, ",");
    }
    sb_json(&h, PF_ST_CRC_KEY);
    sb_str(&h, ":");
    out->crc_at = h.n + 1;  // after the opening quote: 8 hex digits, never escaped
    sb_json(&h, crctext);
    sb_str(&h, "}");
    uint64_t off = 0;
    for (int i = 0; i < n; i++) {
        const pf_st_tensor *t = &ts[i];
        sb_str(&h, ",");
        sb_json(&h, t->name);
        sb_fmt(&h, ":{\"dtype\":\"%s\",\"shape\":[", dtype_canon(t->dtype));
        for (int d = 0; d < t->ndim; d++) sb_fmt(&h, d ? ",%lld" : "%lld", (long long)t->shape[d]);
        sb_fmt(&h, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)off, (unsigned long long)(off + t->nbytes));
        off += t->nbytes;
    }
    sb_str(&h, "}");
    while (!h.oom && (h.n - 8) % 8) sb_str(&h, " ");  // data starts 8-byte aligned
    if (h.oom) { free(h.s); seterr(err, errlen, "%s: out of memory building the header", path); return -1; }
    for (int b = 0; b < 8; b++) h.s[b] = (char)(unsigned char)((uint64_t)(h.n - 8) >> (8 * b));
    out->s = h.s;
    out->n = h.n;
    return 0;
}

int pf_st_write(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv,
                char *err, size_t errlen) {
    // everything validated before the first byte is written
    if (pf_st_validate(path, ts, n, 1, err, errlen) != 0) return -1;
    // the data section's checksum goes last into the metadata (pf_st_open verifies it)
    uint32_t crc = 0;
    for (int i = 0; i < n; i++) crc = pf_st_crc32(crc, ts[i].data, ts[i].nbytes);
    pf_st_header h;
    if (pf_st_header_build(path, ts, n, meta_kv, crc, &h, err, errlen) != 0) return -1;
    const void **parts = malloc(sizeof(void *) * (size_t)(n + 1));
    size_t *sizes = malloc(sizeof(size_t) * (size_t)(n + 1));
    if (!parts || !sizes) { free(parts); free(sizes); free(h.s); seterr(err, errlen, "%s: out of memory", path); return -1; }
    int np = 0;
    parts[np] = h.s; sizes[np++] = h.n;
    for (int i = 0; i < n; i++)
        if (ts[i].nbytes) { parts[np] = ts[i].data; sizes[np++] = ts[i].nbytes; }
    int rc = pf_write_atomic_v(path, parts, sizes, np);
    if (rc) seterr(err, errlen, "%s: write failed: %s", path, strerror(errno));
    free(parts);
    free(sizes);
    free(h.s);
    return rc ? -1 : 0;
}

// ---------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------

struct pf_st_file {
    char *path;
    void *map;
    size_t map_size;
    pf_st_tensor *t;
    const pf_st_tensor **byname;  // sorted by name, for pf_st_find
    int n;
    char **meta;  // key, value, key, value, ...
    int n_meta;
};

void pf_st_close(pf_st_file *f) {
    if (!f) return;
    if (f->map) munmap(f->map, f->map_size);
    for (int i = 0; i < f->n; i++) free((char *)f->t[i].name);
    for (int i = 0; i < 2 * f->n_meta; i++) free(f->meta[i]);
    free(f->t);
    free(f->byname);
    free(f->meta);
    free(f->path);
    free(f);
}

// A JSON number that is a non-negative integer (exact up to 2^53).
static int json_u64(const cJSON *x, uint64_t *v) {
    if (!cJSON_IsNumber(x)) return 0;
    double d = x->valuedouble;
    if (!(d >= 0) || d != floor(d) || d > 9007199254740992.0) return 0;
    *v = (uint64_t)d;
    return 1;
}

// Parse one tensor entry; returns 0 or -1 with err set.
static int parse_tensor(const char *path, const cJSON *e, uint64_t data_size, pf_st_tensor *t,
                        uint64_t off[2], char *err, size_t errlen) {
    const char *nm = e->string;
    if (!cJSON_IsObject(e)) { seterr(err, errlen, "%s: tensor '%s': entry is not an object", path, nm); return -1; }
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    if (!cJSON_IsString(dt)) { seterr(err, errlen, "%s: tensor '%s': field 'dtype' missing or not a string", path, nm); return -1; }
    t->dtype = dtype_canon(dt->valuestring);
    if (!t->dtype) { seterr(err, errlen, "%s: tensor '%s': field 'dtype': unknown dtype '%s'", path, nm, dt->valuestring); return -1; }
    if (!cJSON_IsArray(sh)) { seterr(err, errlen, "%s: tensor '%s': field 'shape' missing or not an array", path, nm); return -1; }
    int nd = cJSON_GetArraySize(sh);
    if (nd > PF_ST_MAX_NDIM) { seterr(err, errlen, "%s: tensor '%s': field 'shape': %d dimensions (at most %d)", path, nm, nd, PF_ST_MAX_NDIM); return -1; }
    t->ndim = nd;
    int d = 0;
    for (const cJSON *x = sh->child; x; x = x->next, d++) {
        uint64_t v;
        if (!json_u64(x, &v)) { seterr(err, errlen, "%s: tensor '%s': field 'shape': dimension %d is not a non-negative integer", path, nm, d); return -1; }
        t->shape[d] = (int64_t)v;
    }
    if (!cJSON_IsArray(of) || cJSON_GetArraySize(of) != 2 || !json_u64(of->child, &off[0]) || !json_u64(of->child->next, &off[1])) {
        seterr(err, errlen, "%s: tensor '%s': field 'data_offsets' is not [begin, end] of non-negative integers", path, nm);
        return -1;
    }
    if (off[1] < off[0]) { seterr(err, errlen, "%s: tensor '%s': field 'data_offsets' [%llu, %llu] ends before it begins", path, nm, (unsigned long long)off[0], (unsigned long long)off[1]); return -1; }
    if (off[1] > data_size) {
        seterr(err, errlen, "%s: tensor '%s': field 'data_offsets' [%llu, %llu] reaches beyond the data section (%llu bytes): truncated file?",
               path, nm, (unsigned long long)off[0], (unsigned long long)off[1], (unsigned long long)data_size);
        return -1;
    }
    int64_t nb = shape_bytes(t->ndim, t->shape, pf_st_dtype_size(t->dtype));
    if (nb < 0 || (uint64_t)nb != off[1] - off[0]) {
        seterr(err, errlen, "%s: tensor '%s': field 'shape' with dtype %s gives %lld bytes, 'data_offsets' span %llu",
               path, nm, t->dtype, (long long)nb, (unsigned long long)(off[1] - off[0]));
        return -1;
    }
    t->nbytes = (size_t)nb;
    return 0;
}

typedef struct { uint64_t b, e; int i; } st_span;
static int span_cmp(const void *a, const void *b) {
    const st_span *x = a, *y = b;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return x->e < y->e ? -1 : x->e > y->e;
}
static int name_cmp(const void *a, const void *b) {
    const pf_st_tensor *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

// The file mapped read-only into f->map; *size: its bytes.
static int map_file(pf_st_file *f, const char *path, uint64_t *size, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno)); return -1; }
    struct stat st;
    if (fstat(fd, &st) != 0) { seterr(err, errlen, "%s: cannot stat: %s", path, strerror(errno)); close(fd); return -1; }
    *size = (uint64_t)st.st_size;
    if (*size < 8) { seterr(err, errlen, "%s: %llu bytes, too short for the 8-byte header length", path, (unsigned long long)*size); close(fd); return -1; }
    f->map = mmap(NULL, (size_t)*size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f->map == MAP_FAILED) { f->map = NULL; seterr(err, errlen, "%s: mmap failed: %s", path, strerror(errno)); return -1; }
    f->map_size = (size_t)*size;
    return 0;
}

// The header: an 8-byte little-endian length *hlen, then that many bytes of one
// JSON object (trailing blanks allowed). Returns the parsed object, NULL on error.
static cJSON *parse_header(const pf_st_file *f, const char *path, uint64_t size, uint64_t *hlen, char *err, size_t errlen) {
    const unsigned char *base = f->map;
    uint64_t n = 0;
    for (int b = 0; b < 8; b++) n |= (uint64_t)base[b] << (8 * b);
    *hlen = n;
    if (n > size - 8) {
        seterr(err, errlen, "%s: header length %llu reaches beyond the file (%llu bytes)", path, (unsigned long long)n, (unsigned long long)size);
        return NULL;
    }
    if (n > ST_MAX_HEADER) { seterr(err, errlen, "%s: header length %llu above the %llu limit", path, (unsigned long long)n, ST_MAX_HEADER); return NULL; }
    const char *hdr = (const char *)base + 8;
    if (n == 0 || hdr[0] != '{') { seterr(err, errlen, "%s: header does not start with '{'", path); return NULL; }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(hdr, (size_t)n, &end, 0);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long pos = at && at >= hdr && at <= hdr + n ? (long)(at - hdr) : -1;
        seterr(err, errlen, "%s: header is not valid JSON (near byte %ld of %llu)", path, pos, (unsigned long long)n);
        return NULL;
    }
    for (const char *p = end; p && p < hdr + n; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            seterr(err, errlen, "%s: header has trailing bytes after the JSON object (byte %ld)", path, (long)(p - hdr));
            cJSON_Delete(root);
            return NULL;
        }
    if (!cJSON_IsObject(root)) { seterr(err, errlen, "%s: header is not a JSON object", path); cJSON_Delete(root); return NULL; }
    return root;
}

// No two tensors may share bytes (empty tensors occupy none). spans: (f->n,), sorted here.
static int check_overlaps(const pf_st_file *f, st_span *spans, const char *path, char *err, size_t errlen) {
    qsort(spans, (size_t)f->n, sizeof *spans, span_cmp);
    int last = -1;
    for (int k = 0; k < f->n; k++) {
        if (spans[k].e == spans[k].b) continue;
        if (last >= 0 && spans[k].b < spans[last].e) {
            seterr(err, errlen, "%s: tensors '%s' [%llu, %llu] and '%s' [%llu, %llu]: field 'data_offsets' overlap", path,
                   f->t[spans[last].i].name, (unsigned long long)spans[last].b, (unsigned long long)spans[last].e,
                   f->t[spans[k].i].name, (unsigned long long)spans[k].b, (unsigned long long)spans[k].e);
            return -1;
        }
        if (last < 0 || spans[k].e > spans[last].e) last = k;
    }
    return 0;
}

// The header's tensor entries into f->t (data pointing into the data section),
// checked one by one and for overlaps; *meta: the '__metadata__' entry, NULL if none.
static int read_tensors(pf_st_file *f, const cJSON *root, const unsigned char *data, uint64_t data_size, const cJSON **meta,
                        char *err, size_t errlen) {
    const char *path = f->path;
    int nt = 0;
    *meta = NULL;
    for (const cJSON *e = root->child; e; e = e->next) {
        if (e->string && !strcmp(e->string, "__metadata__")) {
            if (*meta) { seterr(err, errlen, "%s: '__metadata__' given twice", path); return -1; }
            *meta = e;
        } else nt++;
    }
    f->t = calloc((size_t)(nt ? nt : 1), sizeof *f->t);
    st_span *spans = calloc((size_t)(nt ? nt : 1), sizeof *spans);
    int rc = -1;
    if (!f->t || !spans) { seterr(err, errlen, "%s: out of memory", path); goto done; }
    for (const cJSON *e = root->child; e; e = e->next) {
        if (e == *meta) continue;
        pf_st_tensor *t = &f->t[f->n];
        uint64_t off[2];
        if (!e->string || !*e->string) { seterr(err, errlen, "%s: tensor with an empty name", path); goto done; }
        if (parse_tensor(path, e, data_size, t, off, err, errlen)) goto done;
        if (!(t->name = strdup(e->string))) { seterr(err, errlen, "%s: out of memory", path); goto done; }
        t->data = data + off[0];
        spans[f->n] = (st_span){off[0], off[1], f->n};
        f->n++;
    }
    rc = check_overlaps(f, spans, path, err, errlen);
done:
    free(spans);
    return rc;
}

// f->byname: the tensors sorted by name, for pf_st_find; a name given twice is an error.
static int index_by_name(pf_st_file *f, char *err, size_t errlen) {
    const pf_st_tensor **byname = malloc(sizeof *byname * (size_t)(f->n > 0 ? f->n : 1));
    if (!byname) { seterr(err, errlen, "%s: out of memory", f->path); return -1; }
    f->byname = byname;
    for (int k = 0; k < f->n; k++) byname[k] = &f->t[k];
    qsort(byname, (size_t)f->n, sizeof *byname, name_cmp);
    for (int k = 1; k < f->n; k++)
        if (!strcmp(byname[k]->name, byname[k - 1]->name)) { seterr(err, errlen, "%s: tensor '%s' appears twice", f->path, byname[k]->name); return -1; }
    return 0;
}

// '__metadata__': an object of strings, into f->meta as key, value pairs
static int read_metadata(pf_st_file *f, const cJSON *meta, char *err, size_t errlen) {
    const char *path = f->path;
    if (!cJSON_IsObject(meta)) { seterr(err, errlen, "%s: field '__metadata__' is not an object", path); return -1; }
    int nm = cJSON_GetArraySize(meta);
    f->meta = calloc((size_t)(2 * nm + 1), sizeof(char *));
    if (!f->meta) { seterr(err, errlen, "%s: out of memory", path); return -1; }
    for (const cJSON *e = meta->child; e; e = e->next) {
        if (!cJSON_IsString(e)) { seterr(err, errlen, "%s: field '__metadata__': value of '%s' is not a string", path, e->string); return -1; }
        char *k = strdup(e->string), *v = strdup(e->valuestring);
        f->meta[2 * f->n_meta] = k;
        f->meta[2 * f->n_meta + 1] = v;
        f->n_meta++;
        if (!k || !v) { seterr(err, errlen, "%s: out of memory", path); return -1; }
    }
    return 0;
}

// The data section against the CRC-32 in the metadata, when there is one: a
// flipped bit in the data is reported, never used.
static int check_crc(const pf_st_file *f, const unsigned char *data, uint64_t data_size, char *err, size_t errlen) {
    const char *path = f->path;
    const char *want = pf_st_meta(f, PF_ST_CRC_KEY);
    if (!want) return 0;
    char *end = NULL;
    unsigned long w = strtoul(want, &end, 16);
    uint32_t got = pf_st_crc32(0, data, (size_t)data_size);
    if (strlen(want) != 8 || *end) { seterr(err, errlen, "%s: field '__metadata__': malformed %s '%s'", path, PF_ST_CRC_KEY, want); return -1; }
    if ((uint32_t)w != got) {
        seterr(err, errlen, "checksum mismatch in %s: the data section's CRC-32 is %08x, the header says %s (the file is corrupt)",
               path, got, want);
        return -1;
    }
    return 0;
}

pf_st_file *pf_st_open(const char *path, char *err, size_t errlen) {
    pf_st_file *f = calloc(1, sizeof *f);
    cJSON *root = NULL;
    if (!f || !(f->path = strdup(path))) { seterr(err, errlen, "%s: out of memory", path); goto fail; }
    uint64_t size, hlen;
    if (map_file(f, path, &size, err, errlen) != 0) goto fail;
    if (!(root = parse_header(f, path, size, &hlen, err, errlen))) goto fail;
    const uint64_t data_size = size - 8 - hlen;
    const unsigned char *data = (const unsigned char *)f->map + 8 + hlen;
    const cJSON *meta;
    if (read_tensors(f, root, data, data_size, &meta, err, errlen) != 0) goto fail;
    if (index_by_name(f, err, errlen) != 0) goto fail;
    if (meta && read_metadata(f, meta, err, errlen) != 0) goto fail;
    if (check_crc(f, data, data_size, err, errlen) != 0) goto fail;
    cJSON_Delete(root);
    return f;
fail:
    cJSON_Delete(root);
    pf_st_close(f);
    return NULL;
}

int pf_st_count(const pf_st_file *f) { return f->n; }
const pf_st_tensor *pf_st_at(const pf_st_file *f, int i) { return i >= 0 && i < f->n ? &f->t[i] : NULL; }
const pf_st_tensor *pf_st_find(const pf_st_file *f, const char *name) {
    pf_st_tensor key = {.name = name};
    const pf_st_tensor *kp = &key, **hit = bsearch(&kp, f->byname, (size_t)f->n, sizeof *f->byname, name_cmp);
    return hit ? *hit : NULL;
}
const char *pf_st_meta(const pf_st_file *f, const char *key) {
    for (int i = 0; i < f->n_meta; i++)
        if (!strcmp(f->meta[2 * i], key)) return f->meta[2 * i + 1];
    return NULL;
}
int pf_st_meta_count(const pf_st_file *f) { return f->n_meta; }
int pf_st_meta_at(const pf_st_file *f, int i, const char **key, const char **value) {
    if (i < 0 || i >= f->n_meta) return -1;
    if (key) *key = f->meta[2 * i];
    if (value) *value = f->meta[2 * i + 1];
    return 0;
}
