// safetensors_rows.c: the safetensors writer that takes tensors in row pieces
// (safetensors.h: pf_st_writer), for files too large to hold in memory at once.
// The header comes from the one-go writer's builder (safetensors_int.h) with a
// placeholder CRC, the rows are written where they belong (pwrite), and the CRC
// digits are written into the header at the end: the bytes are pf_st_write's.
#include "safetensors_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "../core/util.h"

// A streamed tensor's rows. The data section's CRC-32 is combined from per-row CRCs
// in file order at the end, because rows may come in any order (predict under dap
// gathers each rank's rows together: rows 0.., n.., 2n.. arrive side by side).
typedef struct {
    int64_t rows;      // 0: not streamed (its data given to begin)
    size_t row_bytes;
    uint32_t *crc;     // (rows) CRC-32 of each row
    uint8_t *done;     // (rows) 1 once written
} st_stream;

struct pf_st_writer {
    char *path, *tmp;
    int fd;
    int n;
    pf_st_tensor *t;   // (n) the caller's table (names and given data stay the caller's)
    uint64_t *off;     // (n) file offset of each tensor's data
    st_stream *st;     // (n)
    size_t crc_at;     // file offset of the header's 8 CRC digits
    int failed;
    char err[1024];    // the first error
};

static int fail(pf_st_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(pf_st_writer *w, const char *fmt, ...) {
    if (w->failed) return -1;
    w->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    return -1;
}

// n bytes at file offset off (short writes and EINTR retried); 0, or -1 with errno.
static int pwrite_all(int fd, const void *p, size_t n, uint64_t off) {
    const char *b = p;
    while (n > 0) {
        ssize_t k = pwrite(fd, b, n, (off_t)off);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        b += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

static void writer_free(pf_st_writer *w) {
    for (int i = 0; i < w->n; i++) {
        pf_free(w->st[i].crc);
        pf_free(w->st[i].done);
    }
    pf_free(w->st);
    pf_free(w->off);
    pf_free(w->t);
    pf_free(w->tmp);
    pf_free(w->path);
    pf_free(w);
}

void pf_st_writer_abort(pf_st_writer *w) {
    if (!w) return;
    if (w->fd >= 0) {
        close(w->fd);
        unlink(w->tmp);
    }
    writer_free(w);
}

// The table, offsets and per-row state of w from ts; the header starts the data at data0.
static int plan(pf_st_writer *w, const pf_st_tensor *ts, int n, uint64_t data0, char *err, size_t errlen) {
    w->n = n;
    w->t = pf_calloc((size_t)n + 1, sizeof *w->t);
    w->off = pf_calloc((size_t)n + 1, sizeof *w->off);
    w->st = pf_calloc((size_t)n + 1, sizeof *w->st);
    uint64_t off = data0;
    for (int i = 0; i < n; i++) {
        w->t[i] = ts[i];
        w->off[i] = off;
        off += ts[i].nbytes;
        if (ts[i].data || !ts[i].nbytes) continue;
        if (ts[i].ndim < 1) {
            snprintf(err, errlen, "%s: tensor '%s': a scalar cannot be written in rows (give its data)", w->path, ts[i].name);
            return -1;
        }
        st_stream *s = &w->st[i];
        s->rows = ts[i].shape[0];
        s->row_bytes = ts[i].nbytes / (size_t)s->rows;
        if ((z_off_t)s->row_bytes < 0 || (uint64_t)(z_off_t)s->row_bytes != s->row_bytes) {  // crc32_combine's length
            snprintf(err, errlen, "%s: tensor '%s': rows of %zu bytes are too long to stream", w->path, ts[i].name,
                     s->row_bytes);
            return -1;
        }
        s->crc = pf_calloc((size_t)s->rows, sizeof *s->crc);
        s->done = pf_calloc((size_t)s->rows, 1);
    }
    return 0;
}

pf_st_writer *pf_st_writer_begin(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv,
                                 char *err, size_t errlen) {
    if (pf_st_validate(path, ts, n, 0, err, errlen) != 0) return NULL;
    pf_st_header h;
    if (pf_st_header_build(path, ts, n, meta_kv, 0, &h, err, errlen) != 0) return NULL;  // CRC digits: at finish
    pf_st_writer *w = pf_calloc(1, sizeof *w);
    w->fd = -1;
    w->crc_at = h.crc_at;
    w->path = pf_malloc(strlen(path) + 1);
    strcpy(w->path, path);
    w->tmp = pf_malloc(strlen(path) + 32);
    sprintf(w->tmp, "%s.tmp.%d", path, (int)getpid());  // pf_write_atomic's temporary
    if (plan(w, ts, n, h.n, err, errlen) != 0) {
        free(h.s);
        pf_st_writer_abort(w);
        return NULL;
    }
    w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0 || pwrite_all(w->fd, h.s, h.n, 0) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        free(h.s);
        pf_st_writer_abort(w);
        return NULL;
    }
    free(h.s);
    return w;
}

int pf_st_writer_rows(pf_st_writer *w, int i, int64_t row0, int64_t rows, const void *data) {
    if (w->failed) return -1;
    if (i < 0 || i >= w->n || !w->st[i].rows)
        return fail(w, "%s: tensor %d is not written in rows (its data was given, or there is no such tensor)", w->path, i);
    st_stream *s = &w->st[i];
    const char *nm = w->t[i].name;
    if (rows < 0 || row0 < 0 || row0 > s->rows - rows)
        return fail(w, "%s: tensor '%s': rows %lld .. %lld outside [0, %lld)", w->path, nm, (long long)row0,
                    (long long)(row0 + rows - 1), (long long)s->rows);
    if (rows && !data) return fail(w, "%s: tensor '%s': rows from %lld: data is NULL", w->path, nm, (long long)row0);
    for (int64_t r = row0; r < row0 + rows; r++)
        if (s->done[r]) return fail(w, "%s: tensor '%s': row %lld written twice", w->path, nm, (long long)r);
    if (pwrite_all(w->fd, data, (size_t)rows * s->row_bytes, w->off[i] + (uint64_t)row0 * s->row_bytes) != 0)
        return fail(w, "%s: write failed: %s", w->path, strerror(errno));
    for (int64_t r = 0; r < rows; r++) {
        s->crc[row0 + r] = pf_st_crc32(0, (const char *)data + (size_t)r * s->row_bytes, s->row_bytes);
        s->done[row0 + r] = 1;
    }
    return 0;
}

const char *pf_st_writer_error(const pf_st_writer *w) { return w && w->failed ? w->err : NULL; }

// Every streamed row there, the given tensors written, the data section's CRC-32 in file
// order; 0 or -1 (w's error set).
static int complete(pf_st_writer *w, uint32_t *crc) {
    *crc = 0;
    for (int i = 0; i < w->n; i++) {
        const st_stream *s = &w->st[i];
        if (!s->rows) {
            if (w->t[i].nbytes && pwrite_all(w->fd, w->t[i].data, w->t[i].nbytes, w->off[i]) != 0)
                return fail(w, "%s: write failed: %s", w->path, strerror(errno));
            *crc = pf_st_crc32(*crc, w->t[i].data, w->t[i].nbytes);
            continue;
        }
        for (int64_t r = 0; r < s->rows; r++) {
            if (!s->done[r])
                return fail(w, "%s: tensor '%s': row %lld of %lld was never written", w->path, w->t[i].name, (long long)r,
                            (long long)s->rows);
            *crc = (uint32_t)crc32_combine(*crc, s->crc[r], (z_off_t)s->row_bytes);
        }
    }
    return 0;
}

int pf_st_writer_finish(pf_st_writer *w, char *err, size_t errlen) {
    uint32_t crc;
    if (!w->failed && complete(w, &crc) == 0) {
        char digits[16];
        snprintf(digits, sizeof digits, "%08x", crc);
        if (pwrite_all(w->fd, digits, 8, w->crc_at) != 0 || fsync(w->fd) != 0)
            fail(w, "%s: write failed: %s", w->path, strerror(errno));
    }
    if (!w->failed) {
        int rc = close(w->fd);
        w->fd = -1;
        if (rc != 0 || rename(w->tmp, w->path) != 0) {
            fail(w, "%s: write failed: %s", w->path, strerror(errno));
            unlink(w->tmp);
        } else pf_fsync_dir_of(w->path);
    }
    int rc = w->failed ? -1 : 0;
    if (rc) snprintf(err, errlen, "%s", w->err);
    pf_st_writer_abort(w);  // after a success: fd closed, nothing to remove
    return rc;
}
