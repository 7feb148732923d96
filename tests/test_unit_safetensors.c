// test_unit_safetensors: the safetensors writer and reader. A round trip of
// every dtype (with a scalar and an empty tensor) and metadata, then corrupt
// files built by hand: each must give an error naming the file, never a crash;
// the row-piece writer (pf_st_writer) against pf_st_write, byte for byte, and its
// failures. `test_unit_safetensors --rewrite IN OUT` writes IN's content again with
// pf_st_write (tests/test_predict_dap.sh compares predict's streamed files with it).
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/resource.h>
#include "testlib.h"
#include "../src/format/safetensors.h"
#include "../src/core/util.h"

static char dir[256];

static const char *tmp_path(const char *name) {
    static char p[4][512];
    static int k = 0;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

// A file from a raw header (padded with spaces to a multiple of 8 when pad) and data.
static void write_raw(const char *path, const char *header, int pad, const void *data, size_t n) {
    size_t h = strlen(header), hp = pad ? (h + 7) / 8 * 8 : h;
    unsigned char len8[8];
    for (int b = 0; b < 8; b++) len8[b] = (unsigned char)((uint64_t)hp >> (8 * b));
    FILE *f = fopen(path, "wb");
    fwrite(len8, 1, 8, f);
    fwrite(header, 1, h, f);
    for (size_t i = h; i < hp; i++) fputc(' ', f);
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

static void write_bytes(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

// Opening must fail with a message that names the file and contains `word`.
static void expect_open_error(const char *label, const char *path, const char *word) {
    char err[512] = "";
    pf_st_file *f = pf_st_open(path, err, sizeof err);
    tl_check(!f && strstr(err, path) && (!word || strstr(err, word)), label, "err \"%s\"", err);
    pf_st_close(f);
}

static void test_round_trip(void) {
    float f32[6] = {1, -2, 3.5f, 1e-30f, -0.0f, 6};
    double f64 = 3.141592653589793;
    uint16_t bf16[5] = {0x3f80, 0xbf80, 0x4000, 0x0000, 0x7fc0};
    int32_t i32[4] = {-1, 0, 1, 2147483647};
    int64_t i64[4] = {-5, INT64_MAX, INT64_MIN, 7};
    uint8_t u8[3] = {0, 128, 255};
    pf_st_tensor ts[] = {
        {"a.weight", "F32", 2, {2, 3}, f32, sizeof f32},
        {"scalar", "F64", 0, {0}, &f64, sizeof f64},
        {"bf", "BF16", 1, {5}, bf16, sizeof bf16},
        {"ints", "I32", 1, {4}, i32, sizeof i32},
        {"longs", "I64", 2, {2, 2}, i64, sizeof i64},
        {"bytes", "U8", 1, {3}, u8, sizeof u8},
        {"empty", "F16", 2, {0, 4}, NULL, 0},
        {"name \"quoted\"\\", "U8", 1, {1}, u8, 1},
    };
    int n = (int)(sizeof ts / sizeof ts[0]);
    const char *meta[] = {"format", "pt", "step", "1200", "odd", "tab\tquote\"backslash\\ unicode \xc3\xa9", NULL};
    const char *path = tmp_path("rt.safetensors");
    char err[512] = "";
    int rc = pf_st_write(path, ts, n, meta, err, sizeof err);
    tl_check(rc == 0, "write round-trip file", "%s", err);

    pf_st_file *f = pf_st_open(path, err, sizeof err);
    tl_check(f != NULL, "open round-trip file", "%s", err);
    if (!f) return;
    tl_check(pf_st_count(f) == n, "tensor count", "%d vs %d", pf_st_count(f), n);
    int bad = 0;
    for (int i = 0; i < n && i < pf_st_count(f); i++) {
        const pf_st_tensor *t = pf_st_at(f, i), *w = &ts[i];
        int ok = !strcmp(t->name, w->name) && !strcmp(t->dtype, w->dtype) && t->ndim == w->ndim &&
                 t->nbytes == w->nbytes && (!w->nbytes || !memcmp(t->data, w->data, w->nbytes));
        for (int d = 0; d < w->ndim; d++) ok = ok && t->shape[d] == w->shape[d];
        ok = ok && pf_st_find(f, w->name) == t;
        if (!ok) { bad++; printf("     mismatch in tensor %d '%s'\n", i, w->name); }
    }
    tl_check(!bad, "tensors round trip in order (names, dtypes, shapes, bytes)", "%d bad", bad);
    tl_check(pf_st_find(f, "absent") == NULL && pf_st_at(f, n) == NULL && pf_st_at(f, -1) == NULL,
             "absent tensor lookups give NULL", NULL);
    const char *v1 = pf_st_meta(f, "step"), *v2 = pf_st_meta(f, "odd");
    tl_check(v1 && !strcmp(v1, "1200") && v2 && !strcmp(v2, meta[5]) && !pf_st_meta(f, "nope") &&
             pf_st_meta_count(f) == 4, "metadata round trip (and the checksum)", "step=%s odd=%s", v1 ? v1 : "(null)", v2 ? v2 : "(null)");
    const char *k0 = NULL, *val0 = NULL, *k3 = NULL;
    tl_check(pf_st_meta_at(f, 0, &k0, &val0) == 0 && !strcmp(k0, "format") && !strcmp(val0, "pt") &&
             pf_st_meta_at(f, 3, &k3, NULL) == 0 && !strcmp(k3, PF_ST_CRC_KEY) && pf_st_meta_at(f, 4, NULL, NULL) == -1,
             "metadata in order, the checksum last", NULL);
    const pf_st_tensor *a = pf_st_find(f, "a.weight");
    tl_check(a && ((uintptr_t)a->data % 8) == 0, "data section is 8-byte aligned", NULL);
    pf_st_close(f);

    // the header length is a multiple of 8, the data follow it packed
    size_t len;
    char *raw = pf_read_file(path, &len);
    uint64_t hl = 0;
    for (int b = 0; b < 8; b++) hl |= (uint64_t)(unsigned char)raw[b] << (8 * b);
    size_t total = 0;
    for (int i = 0; i < n; i++) total += ts[i].nbytes;
    tl_check(hl % 8 == 0 && 8 + hl + total == len && raw[8] == '{', "layout: padded header, packed data",
             "header %llu, file %zu, data %zu", (unsigned long long)hl, len, total);
    free(raw);

    // no tensors, no metadata: "{}" padded
    rc = pf_st_write(tmp_path("empty.safetensors"), NULL, 0, NULL, err, sizeof err);
    f = rc ? NULL : pf_st_open(tmp_path("empty.safetensors"), err, sizeof err);
    tl_check(f && pf_st_count(f) == 0 && pf_st_meta_count(f) == 1, "empty file round trip", "%s", err);
    pf_st_close(f);
}

// The data section's CRC-32 in the metadata: one flipped bit anywhere in the
// data is reported ("checksum mismatch in FILE"); a file without the key (other
// writers) opens; a malformed value is an error.
static void test_checksum(void) {
    float x[64];
    for (int i = 0; i < 64; i++) x[i] = (float)i * 0.5f;
    pf_st_tensor ts[2] = {{"a", "F32", 1, {16}, x, 64}, {"b", "F32", 2, {6, 8}, x + 16, 192}};
    const char *good = tmp_path("crc.safetensors"), *p = tmp_path("crc_bad.safetensors");
    char err[512] = "";
    tl_check(pf_st_write(good, ts, 2, NULL, err, sizeof err) == 0, "checksum: write", "%s", err);
    size_t len;
    char *raw = pf_read_file(good, &len);
    int caught = 0, tries = 0;
    for (size_t at = len - 256; at < len; at += 37, tries++) {  // bytes of both tensors
        raw[at] ^= 0x04;
        write_bytes(p, raw, len);
        raw[at] ^= 0x04;
        pf_st_file *f = pf_st_open(p, err, sizeof err);
        caught += !f && strstr(err, "checksum mismatch in") && strstr(err, p);
        pf_st_close(f);
    }
    tl_check(caught == tries, "checksum: every flipped data bit is reported", "%d of %d: %s", caught, tries, err);
    // without the key: what Python's safetensors writes, or an older pairfold
    char *k = memmem(raw, len, "\"" PF_ST_CRC_KEY "\"", strlen(PF_ST_CRC_KEY) + 2);
    if (k) memcpy(k + 1, "other_key_", 10);
    write_bytes(p, raw, len);
    pf_st_file *f = pf_st_open(p, err, sizeof err);
    tl_check(f && !pf_st_meta(f, PF_ST_CRC_KEY) && pf_st_count(f) == 2, "checksum: a file without one opens", "%s", f ? "" : err);
    pf_st_close(f);
    if (k) memcpy(k + 1, PF_ST_CRC_KEY, 10);
    char *v = k ? strchr(k + strlen(PF_ST_CRC_KEY) + 2, '"') : NULL;  // the value's opening quote
    if (v) v[1] = 'z';
    write_bytes(p, raw, len);
    expect_open_error("checksum: a malformed value is an error", p, PF_ST_CRC_KEY);
    free(raw);
}

static void test_write_errors(void) {
    float x[6] = {0};
    const char *path = tmp_path("bad_write.safetensors");
    char err[512];
    struct { const char *label, *word; pf_st_tensor t[2]; int n; } cases[] = {
        {"write: shape/size mismatch", "bytes", {{"x", "F32", 2, {2, 3}, x, 20}}, 1},
        {"write: unknown dtype", "dtype", {{"x", "F128", 1, {6}, x, 24}}, 1},
        {"write: duplicate name", "twice", {{"x", "F32", 1, {6}, x, 24}, {"x", "F32", 1, {6}, x, 24}}, 2},
        {"write: negative dimension", "negative", {{"x", "F32", 1, {-6}, x, 24}}, 1},
        {"write: reserved name", "name", {{"__metadata__", "F32", 1, {6}, x, 24}}, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        err[0] = 0;
        unlink(path);
        int rc = pf_st_write(path, cases[c].t, cases[c].n, NULL, err, sizeof err);
        tl_check(rc == -1 && strstr(err, path) && strstr(err, cases[c].word) && access(path, F_OK) != 0,
                 cases[c].label, "rc %d err \"%s\"", rc, err);
    }
    const char *odd_meta[] = {"key_without_value", NULL};
    pf_st_tensor t = {"x", "F32", 1, {6}, x, 24};
    tl_check(pf_st_write(path, &t, 1, odd_meta, err, sizeof err) == -1 && strstr(err, path),
             "write: metadata key without value", "err \"%s\"", err);
    tl_check(pf_st_write("/nonexistent_dir/x.safetensors", &t, 1, NULL, err, sizeof err) == -1 &&
             strstr(err, "/nonexistent_dir/x.safetensors"), "write: unwritable path", "err \"%s\"", err);
}

static void test_read_errors(void) {
    float x[6] = {1, 2, 3, 4, 5, 6};
    char err[512];
    // a valid file, truncated by 5 bytes: the last tensor reaches beyond the data
    pf_st_tensor ts[2] = {{"a", "F32", 1, {2}, x, 8}, {"b", "F32", 1, {4}, x + 2, 16}};
    const char *good = tmp_path("good.safetensors");
    pf_st_write(good, ts, 2, NULL, err, sizeof err);
    size_t len;
    char *raw = pf_read_file(good, &len);
    const char *p = tmp_path("truncated.safetensors");
    write_bytes(p, raw, len - 5);
    expect_open_error("read: truncated file", p, "'b'");
    // truncated inside the header, and inside the length field
    write_bytes(p, raw, 20);
    expect_open_error("read: truncated in the header", p, "header length");
    write_bytes(p, raw, 5);
    expect_open_error("read: shorter than 8 bytes", p, "8-byte");
    write_bytes(p, raw, 0);
    expect_open_error("read: empty file", p, "8-byte");
    // header length beyond the file (and a huge one)
    raw[0] = (char)0xff; raw[1] = (char)0xff;
    write_bytes(p, raw, len);
    expect_open_error("read: header length beyond the file", p, "header length");
    memset(raw, 0xff, 8);
    write_bytes(p, raw, len);
    expect_open_error("read: header length 2^64 - 1", p, "header length");
    free(raw);
    expect_open_error("read: missing file", tmp_path("does_not_exist.safetensors"), "cannot open");

    struct { const char *label, *word, *header; } cases[] = {
        {"read: overlapping offsets", "overlap",
         "{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}"},
        {"read: bad JSON", "JSON", "{\"a\":{\"dtype\":\"F32\",\"shape\":[4],"},
        {"read: not an object", "'{'", "[1, 2, 3]"},
        {"read: trailing garbage", "trailing", "{\"a\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0,24]}} x"},
        {"read: shape/size mismatch", "'shape'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,20]}}"},
        {"read: unknown dtype", "'dtype'", "{\"a\":{\"dtype\":\"Q7\",\"shape\":[6],\"data_offsets\":[0,24]}}"},
        {"read: missing dtype", "'dtype'", "{\"a\":{\"shape\":[6],\"data_offsets\":[0,24]}}"},
        {"read: negative dimension", "'shape'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[-6],\"data_offsets\":[0,24]}}"},
        {"read: fractional dimension", "'shape'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,6]}}"},
        {"read: too many dimensions", "'shape'", "{\"a\":{\"dtype\":\"U8\",\"shape\":[1,1,1,1,1,1,1,1,1],\"data_offsets\":[0,1]}}"},
        {"read: offsets not a pair", "'data_offsets'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0]}}"},
        {"read: offsets as strings", "'data_offsets'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[\"0\",\"24\"]}}"},
        {"read: end before begin", "'data_offsets'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,0]}}"},
        {"read: offsets beyond data", "'data_offsets'", "{\"a\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[0,32]}}"},
        {"read: entry not an object", "not an object", "{\"a\":3}"},
        {"read: non-string metadata", "__metadata__", "{\"__metadata__\":{\"k\":1}}"},
        {"read: metadata not an object", "__metadata__", "{\"__metadata__\":[\"k\"]}"},
        {"read: duplicate tensor", "twice",
         "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char name[64];
        snprintf(name, sizeof name, "bad%zu.safetensors", c);
        const char *path = tmp_path(name);
        write_raw(path, cases[c].header, 1, x, sizeof x);
        expect_open_error(cases[c].label, path, cases[c].word);
    }

    // accepted: an unpadded header, gaps between tensors, zero-size tensors anywhere
    const char *path = tmp_path("lenient.safetensors");
    write_raw(path, "{\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,4]},"
                    "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                    "\"b\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[12,24]}}", 0, x, sizeof x);
    pf_st_file *f = pf_st_open(path, err, sizeof err);
    const pf_st_tensor *b = f ? pf_st_find(f, "b") : NULL;
    tl_check(f && pf_st_count(f) == 3 && b && !memcmp(b->data, x + 3, 12), "read: gaps and empty tensors accepted",
             "%s", f ? "" : err);
    pf_st_close(f);
}

// ---- the row-piece writer ----

// Files under dir named "*.tmp.*" (a writer's temporaries left behind).
static int temporaries(void) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
    if (d) closedir(d);
    return n;
}

static int same_file(const char *a, const char *b) {
    size_t la, lb;
    char *x = pf_read_file(a, &la), *y = pf_read_file(b, &lb);
    int same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

// A table like predict's: a big F32 (7, 5, 3) tensor first, a second streamed one
// later, and given ones (an empty one and a scalar among them); data[k] the content.
enum { R = 7 };
static float big[R * 5 * 3], second[R * 2];
static float exp7[R * R];
static int32_t q7[R];
static double sc = -1.25;
static uint16_t bf[3] = {0x3f80, 0x4000, 0xc040};
static void rows_table(pf_st_tensor *ts, int streamed) {
    for (int i = 0; i < R * 15; i++) big[i] = (float)i * 0.25f - 3.0f;
    for (int i = 0; i < R * 2; i++) second[i] = (float)(i * i) + 0.5f;
    for (int i = 0; i < R * R; i++) exp7[i] = (float)i / 7.0f;
    for (int i = 0; i < R; i++) q7[i] = i * 3 - 5;
    pf_st_tensor t[7] = {
        {"distogram_probs", "F32", 3, {R, 5, 3}, streamed ? NULL : big, sizeof big},
        {"expected", "F32", 2, {R, R}, exp7, sizeof exp7},
        {"empty", "F16", 2, {0, 4}, NULL, 0},
        {"second", "F32", 2, {R, 2}, streamed ? NULL : second, sizeof second},
        {"query", "I32", 1, {R}, q7, sizeof q7},
        {"scalar", "F64", 0, {0}, &sc, sizeof sc},
        {"bf", "BF16", 1, {3}, bf, sizeof bf},
    };
    memcpy(ts, t, sizeof t);
}

// pieces: {tensor, row0, rows} in the order written
typedef struct { int t; int64_t row0, rows; } piece;
static int stream_pieces(const char *path, const piece *pc, int np, const char *const *meta, char *err, size_t errlen) {
    pf_st_tensor ts[7];
    rows_table(ts, 1);
    pf_st_writer *w = pf_st_writer_begin(path, ts, 7, meta, err, errlen);
    if (!w) return -1;
    for (int k = 0; k < np; k++) {
        const float *src = pc[k].t == 0 ? big + pc[k].row0 * 15 : second + pc[k].row0 * 2;
        pf_st_writer_rows(w, pc[k].t, pc[k].row0, pc[k].rows, src);
    }
    return pf_st_writer_finish(w, err, errlen);
}

// The same content by pf_st_write and by the row writer, its rows in order one by one,
// out of order in uneven pieces, and all at once: the same bytes; the file opens (CRC).
static void test_rows_identical(void) {
    const char *meta[] = {"sequence", "MKV", "odd", "q\"uote\\", NULL};
    pf_st_tensor ts[7];
    rows_table(ts, 0);
    const char *ref = tmp_path("one_go.safetensors"), *p = tmp_path("rows.safetensors");
    char err[512] = "";
    tl_check(pf_st_write(ref, ts, 7, meta, err, sizeof err) == 0, "rows: the one-go file", "%s", err);
    piece in_order[2 * R], uneven[] = {{3, 5, 2}, {0, 3, 3}, {0, 0, 2}, {3, 0, 5}, {0, 6, 1}, {0, 2, 1}, {0, 6, 0}},
          whole[] = {{0, 0, R}, {3, 0, R}};
    for (int r = 0; r < R; r++) in_order[r] = (piece){0, r, 1}, in_order[R + r] = (piece){3, r, 1};
    struct { const char *label; const piece *pc; int n; } cases[] = {
        {"rows: one at a time, in order = pf_st_write's bytes", in_order, 2 * R},
        {"rows: uneven pieces out of order, tensors interleaved, an empty piece = pf_st_write's bytes", uneven, 7},
        {"rows: each tensor in one piece = pf_st_write's bytes", whole, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unlink(p);
        int rc = stream_pieces(p, cases[c].pc, cases[c].n, meta, err, sizeof err);
        tl_check(rc == 0 && same_file(ref, p) && !temporaries(), cases[c].label, "rc %d: %s", rc, rc ? err : "bytes differ");
    }
    pf_st_file *f = pf_st_open(p, err, sizeof err);
    const pf_st_tensor *t = f ? pf_st_find(f, "distogram_probs") : NULL;
    tl_check(t && !memcmp(t->data, big, sizeof big) && pf_st_meta(f, PF_ST_CRC_KEY), "rows: the file opens, CRC checked",
             "%s", f ? "" : err);
    pf_st_close(f);
    // no streamed tensor at all: still pf_st_write's bytes
    pf_st_writer *w = pf_st_writer_begin(p, ts, 7, meta, err, sizeof err);
    tl_check(w && pf_st_writer_finish(w, err, sizeof err) == 0 && same_file(ref, p), "rows: nothing streamed = pf_st_write",
             "%s", err);
}

// Misuse: each error names the file, finish fails with the first one, no file and no
// temporary are left, and a file already at the path stays as it was.
static void test_rows_errors(void) {
    const char *p = tmp_path("rows_bad.safetensors"), *ref = tmp_path("rows_ref.safetensors");
    char err[512];
    pf_st_tensor ts[7];
    rows_table(ts, 0);
    tl_check(pf_st_write(ref, ts, 7, NULL, err, sizeof err) == 0, "rows errors: reference", "%s", err);
    piece missing[] = {{0, 0, 3}, {0, 4, 3}, {3, 0, R}}, twice[] = {{0, 0, 4}, {0, 3, 4}, {3, 0, R}},
          outside[] = {{0, 5, 3}, {3, 0, R}}, given[] = {{1, 0, 1}};
    struct { const char *label, *word; const piece *pc; int n; } cases[] = {
        {"rows: a row never written", "row 3 of 7 was never written", missing, 3},
        {"rows: a row written twice", "row 3 written twice", twice, 3},
        {"rows: rows outside the tensor", "outside [0, 7)", outside, 2},
        {"rows: a tensor whose data was given", "not written in rows", given, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        err[0] = 0;
        unlink(p);
        int rc = stream_pieces(p, cases[c].pc, cases[c].n, NULL, err, sizeof err);
        tl_check(rc == -1 && strstr(err, p) && strstr(err, cases[c].word) && access(p, F_OK) != 0 && !temporaries(),
                 cases[c].label, "rc %d err \"%s\"", rc, err);
    }
    // over an existing file: a failed stream leaves it as it was
    rename(ref, p);
    rows_table(ts, 0);
    int rc = stream_pieces(p, missing, 3, NULL, err, sizeof err);
    rows_table(ts, 0);
    pf_st_write(ref, ts, 7, NULL, err + 256, 256);
    tl_check(rc == -1 && same_file(p, ref) && !temporaries(), "rows: a failed stream leaves the old file", "rc %d", rc);
    // the directory cannot hold the file (a regular file on the path): begin fails, naming it
    char bad[600];
    snprintf(bad, sizeof bad, "%s/x.safetensors", ref);
    rows_table(ts, 1);
    pf_st_writer *w = pf_st_writer_begin(bad, ts, 7, NULL, err, sizeof err);
    tl_check(!w && strstr(err, bad) && strstr(err, "write failed"), "rows: an impossible path fails at begin, named",
             "err \"%s\"", err);
    pf_st_writer_abort(w);
    w = pf_st_writer_begin(p, ts, 7, NULL, err, sizeof err);
    if (w) pf_st_writer_rows(w, 0, 0, 2, big);
    pf_st_writer_abort(w);
    tl_check(w && same_file(p, ref) && !temporaries(), "rows: abort removes the temporary", NULL);
}

// A write that fails half way (the file size limit: EFBIG, as a full disk's ENOSPC
// would): the error names the file and says why; nothing is left behind.
static void test_rows_io_failure(void) {
    const char *p = tmp_path("rows_big.safetensors");
    static float rows[64 * 1024];  // 64 rows of 4 KiB
    for (int i = 0; i < 64 * 1024; i++) rows[i] = (float)i;
    pf_st_tensor t = {"x", "F32", 2, {64, 1024}, NULL, sizeof rows};
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 100 * 1024;  // room for the header and ~24 rows
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG instead of a signal
    setrlimit(RLIMIT_FSIZE, &lim);
    char err[512] = "";
    pf_st_writer *w = pf_st_writer_begin(p, &t, 1, NULL, err, sizeof err);
    int first_fail = -1;
    for (int k = 0; w && k < 8; k++)
        if (pf_st_writer_rows(w, 0, 8 * k, 8, rows + k * 8 * 1024) != 0 && first_fail < 0) first_fail = k;
    int rc = w ? pf_st_writer_finish(w, err, sizeof err) : -2;
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);
    tl_check(rc == -1 && first_fail > 0 && strstr(err, p) && strstr(err, "write failed") && access(p, F_OK) != 0 &&
                 !temporaries(),
             "rows: a write failing half way: clear error, no file, no temporary", "rc %d, failed at piece %d: \"%s\"",
             rc, first_fail, err);
}

// IN's tensors and metadata (header order) written again by pf_st_write to OUT: the one-go
// writer's bytes for the same content. 0, or 1 with the reason on stderr.
static int rewrite(const char *in, const char *out) {
    char err[512];
    pf_st_file *f = pf_st_open(in, err, sizeof err);
    if (!f) { fprintf(stderr, "%s\n", err); return 1; }
    int n = pf_st_count(f), nm = pf_st_meta_count(f);
    pf_st_tensor *ts = calloc((size_t)n + 1, sizeof *ts);
    const char **meta = calloc((size_t)(2 * nm + 1), sizeof *meta);
    for (int i = 0; i < n; i++) ts[i] = *pf_st_at(f, i);
    for (int i = 0; i < nm; i++) pf_st_meta_at(f, i, &meta[2 * i], &meta[2 * i + 1]);
    int rc = pf_st_write(out, ts, n, meta, err, sizeof err);  // its own CRC replaces IN's, last as always
    if (rc) fprintf(stderr, "%s\n", err);
    free(ts);
    free(meta);
    pf_st_close(f);
    return rc ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--rewrite")) return rewrite(argv[2], argv[3]);
    snprintf(dir, sizeof dir, "/tmp/pf_st_test_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 2; }
    double t0 = pf_now_ms();
    test_round_trip();
    test_write_errors();
    test_read_errors();
    test_checksum();
    test_rows_identical();
    test_rows_errors();
    test_rows_io_failure();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    if (tl_verbose || getenv("PF_TEST_VERBOSE")) printf("     %.1f ms\n", pf_now_ms() - t0);
    return tl_finish();
}
