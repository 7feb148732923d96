// test_unit_npz: the .npz writer (src/format/npz.c) read back by a small zip reader
// written from the format (APPNOTE), both ways of storing: the entries' names,
// sizes, CRC-32, the .npy header numpy parses (magic, version 1.0, dict, data at a
// multiple of 64) and the data, stored or inflated. (numpy itself loads the files
// predict writes in tests/test_predict_formats.py.)
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include "testlib.h"
#include "../src/core/util.h"
#include "../src/format/npz.h"

static unsigned get16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t get32(const unsigned char *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

// Entry k's uncompressed bytes (caller frees) via the central directory, checking the
// local header agrees with it and the CRC. NULL on any mismatch.
static unsigned char *entry(const unsigned char *z, size_t n, int k, char *name, size_t *len) {
    if (n < 22 || get32(z + n - 22) != 0x06054b50) return NULL;
    const unsigned char *c = z + get32(z + n - 22 + 16);
    for (int i = 0; i < k; i++) c += 46 + get16(c + 28);
    if (get32(c) != 0x02014b50) return NULL;
    unsigned method = get16(c + 10), nl = get16(c + 28);
    uint32_t crc = get32(c + 16), csize = get32(c + 20), usize = get32(c + 24);
    const unsigned char *l = z + get32(c + 42);
    if (get32(l) != 0x04034b50 || memcmp(l + 4, c + 6, 26) || memcmp(l + 30, c + 46, nl)) return NULL;
    memcpy(name, c + 46, nl);
    name[nl] = 0;
    const unsigned char *data = l + 30 + nl;
    unsigned char *out = malloc(usize + 1);
    if (method == 0) memcpy(out, data, usize);
    else {
        z_stream s;
        memset(&s, 0, sizeof s);
        inflateInit2(&s, -15);
        s.next_in = (Bytef *)data, s.avail_in = csize, s.next_out = out, s.avail_out = usize;
        int rc = inflate(&s, Z_FINISH);
        inflateEnd(&s);
        if (rc != Z_STREAM_END || s.total_out != usize) { free(out); return NULL; }
    }
    if (crc32(0L, out, usize) != crc) { free(out); return NULL; }
    *len = usize;
    return out;
}

static void check_file(const char *path, int deflate, const float *f, const int32_t *iv) {
    size_t n;
    unsigned char *z = (unsigned char *)pf_read_file(path, &n);
    tl_check(z != NULL, "npz written", "%s", path);
    if (!z) return;
    tl_check(get16(z + n - 22 + 10) == 3, "three entries", "deflate %d", deflate);
    tl_check(get16(z + 8) == (deflate ? 8u : 0u), "method stored / deflate", "deflate %d: %u", deflate, get16(z + 8));
    static const char *names[3] = {"distogram.npy", "idx.npy", "scalar.npy"};
    static const char *dicts[3] = {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }",
                                   "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }",
                                   "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"};
    const void *want[3] = {f, iv, NULL};
    size_t want_n[3] = {24 * 4, 5 * 4, 8};
    for (int k = 0; k < 3; k++) {
        char name[128];
        size_t len = 0;
        unsigned char *e = entry(z, n, k, name, &len);
        tl_check(e != NULL, "entry readable, CRC right", "deflate %d entry %d", deflate, k);
        if (!e) continue;
        unsigned hl = get16(e + 8);
        tl_check(!strcmp(name, names[k]), "entry name", "%s", name);
        tl_check(!memcmp(e, "\x93NUMPY\x01\x00", 8) && (10 + hl) % 64 == 0 && e[10 + hl - 1] == '\n',
                 "npy magic, version 1.0, data aligned to 64", "entry %d header %u", k, hl);
        tl_check(!strncmp((char *)e + 10, dicts[k], strlen(dicts[k])), "npy header dict", "%.*s", (int)hl, e + 10);
        tl_check(len == 10 + hl + want_n[k] && (!want[k] || !memcmp(e + 10 + hl, want[k], want_n[k])), "npy data",
                 "entry %d: %zu bytes", k, len);
        free(e);
    }
    free(z);
}

int main(void) {
    float f[24];
    int32_t iv[5] = {0, -1, 7, 100000, 3};
    double sc = 2.5;
    for (int i = 0; i < 24; i++) f[i] = 0.25f * (float)i - 1.0f;
    pf_npy_array a[3] = {{"distogram", "<f4", 3, {2, 3, 4}, f, sizeof f},
                         {"idx", "<i4", 1, {5}, iv, sizeof iv},
                         {"scalar", "<f8", 0, {0}, &sc, sizeof sc}};
    char dir[] = "/tmp/pf_npz_XXXXXX", path[64], err[512];
    tl_check(mkdtemp(dir) != NULL, "temp dir", "%s", dir);
    for (int deflate = 0; deflate < 2; deflate++) {
        snprintf(path, sizeof path, "%s/t%d.npz", dir, deflate);
        tl_check(pf_npz_write(path, a, 3, deflate, err, sizeof err) == 0, "pf_npz_write", "%s", err);
        check_file(path, deflate, f, iv);
        unlink(path);
    }
    pf_npy_array bad = {"a_name_that_is_far_too_long_for_the_writer_to_accept_as_an_entry_name_at_all_x", "<f4", 1, {1}, f, 4};
    snprintf(path, sizeof path, "%s/bad.npz", dir);
    tl_check(pf_npz_write(path, &bad, 1, 0, err, sizeof err) != 0 && strstr(err, "bad.npz") && access(path, F_OK) != 0,
             "a bad entry is an error naming the file, nothing written", "%s", err);
    snprintf(path, sizeof path, "%s/no/such/dir/x.npz", dir);
    tl_check(pf_npz_write(path, a, 1, 0, err, sizeof err) != 0 && strstr(err, "x.npz"), "an unwritable path is an error",
             "%s", err);
    rmdir(dir);
    return tl_finish();
}
