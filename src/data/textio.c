#include "textio.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/util.h"

void pf_errf(char *err, size_t errlen, const char *path, int64_t line, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    int k = line > 0 ? snprintf(err, errlen, "%s:%lld: ", path, (long long)line)
                     : snprintf(err, errlen, "%s: ", path);
    if (k < 0) k = 0;
    if ((size_t)k >= errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
    va_end(ap);
}

unsigned char *pf_read_raw(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        pf_errf(err, errlen, path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) pf_die("out of memory reading %s", path);
    errno = 0;
    for (;;) {
        if (n == cap) {
            if (cap >= PF_TEXT_MAX_BYTES) {
                pf_errf(err, errlen, path, 0, "file larger than %zu bytes", PF_TEXT_MAX_BYTES);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) pf_die("out of memory reading %s", path);
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(f), why = errno;  // EISDIR: a directory opens, then fails to read
    fclose(f);
    if (bad) {
        pf_errf(err, errlen, path, 0, "read error: %s", why ? strerror(why) : "unknown");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

// Inflate all gzip members of raw into a malloc'ed buffer.
static int gunzip(const unsigned char *raw, size_t len, const char *name, pf_text *t, char *err,
                  size_t errlen) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (len > PF_TEXT_MAX_BYTES || inflateInit2(&zs, 15 + 16) != Z_OK) {
        pf_errf(err, errlen, name, 0, "cannot decompress (too large or zlib failure)");
        return -1;
    }
    size_t cap = PF_MIN(len * 4 + 4096, PF_TEXT_MAX_BYTES), n = 0;
    char *out = malloc(cap + 1);
    if (!out) pf_die("out of memory decompressing %s", name);
    zs.next_in = (unsigned char *)raw;
    zs.avail_in = (uInt)len;
    const char *why = NULL;
    for (;;) {
        if (n == cap) {
            if (cap >= PF_TEXT_MAX_BYTES) {
                why = "decompressed size exceeds the 1 GiB limit";
                break;
            }
            cap = PF_MIN(cap * 2, PF_TEXT_MAX_BYTES);
            out = realloc(out, cap + 1);
            if (!out) pf_die("out of memory decompressing %s", name);
        }
        zs.next_out = (unsigned char *)out + n;
        zs.avail_out = (uInt)(cap - n);
        int rc = inflate(&zs, Z_NO_FLUSH);
        n = (size_t)((char *)zs.next_out - out);
        if (rc == Z_STREAM_END) {
            // another member may follow (concatenated gzip); zero padding is tolerated
            while (zs.avail_in > 0 && *zs.next_in == 0) zs.next_in++, zs.avail_in--;
            if (zs.avail_in == 0) break;
            if (zs.avail_in < 2 || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) {
                why = "trailing garbage after gzip data";
                break;
            }
            inflateReset(&zs);
            continue;
        }
        if (rc == Z_OK) continue;
        if (rc == Z_BUF_ERROR && zs.avail_out == 0) continue;
        if (rc == Z_BUF_ERROR) why = "truncated gzip data (stream ends early)";
        else why = zs.msg ? zs.msg : "corrupt gzip data";
        break;
    }
    inflateEnd(&zs);
    if (why) {
        free(out);
        pf_errf(err, errlen, name, 0, "%s%s", strncmp(why, "trunc", 5) && strncmp(why, "decomp", 6) &&
                strncmp(why, "trail", 5) ? "corrupt gzip data: " : "", why);
        return -1;
    }
    out[n] = 0;
    t->data = out;
    t->len = n;
    return 0;
}

int pf_text_from_bytes(const unsigned char *raw, size_t len, const char *name, pf_text *t, char *err,
                       size_t errlen) {
    memset(t, 0, sizeof *t);
    if (len >= 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
        if (gunzip(raw, len, name, t, err, errlen) != 0) return -1;
    } else {
        if (len > PF_TEXT_MAX_BYTES) {
            pf_errf(err, errlen, name, 0, "file larger than %zu bytes", PF_TEXT_MAX_BYTES);
            return -1;
        }
        t->data = malloc(len + 1);
        if (!t->data) pf_die("out of memory");
        memcpy(t->data, raw, len);
        t->data[len] = 0;
        t->len = len;
    }
    if (t->len == 0) {
        pf_text_free(t);
        pf_errf(err, errlen, name, 0, "empty file");
        return -1;
    }
    // Control bytes other than tab/newline/CR/FF/VT mean this is not a text format.
    int64_t line = 1;
    for (size_t i = 0; i < t->len; i++) {
        unsigned char c = (unsigned char)t->data[i];
        if (c == '\n') line++;
        else if ((c < 32 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 127) {
            pf_text_free(t);
            pf_errf(err, errlen, name, line, "binary data (byte 0x%02x at offset %zu): not a text file", c, i);
            return -1;
        }
    }
    return 0;
}

int pf_text_load(const char *path, pf_text *t, char *err, size_t errlen) {
    size_t n = 0;
    unsigned char *raw = pf_read_raw(path, &n, err, errlen);
    if (!raw) return -1;
    int rc = pf_text_from_bytes(raw, n, path, t, err, errlen);
    free(raw);
    return rc;
}

void pf_text_free(pf_text *t) {
    free(t->data);
    t->data = NULL;
    t->len = 0;
}

int pf_line_next(pf_lineit *it, const char **line, size_t *len) {
    if (it->p >= it->end) return 0;
    const char *s = it->p;
    const char *nl = memchr(s, '\n', (size_t)(it->end - s));
    const char *e = nl ? nl : it->end;
    it->p = nl ? nl + 1 : it->end;
    size_t n = (size_t)(e - s);
    if (n > 0 && s[n - 1] == '\r') n--;
    *line = s;
    *len = n;
    it->lineno++;
    return 1;
}

static void trim(const char **s, size_t *n) {
    while (*n > 0 && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

int pf_parse_double(const char *s, size_t n, double *out) {
    trim(&s, &n);
    if (n == 0 || n > 63) return -1;
    char buf[64];
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n || v != v || v > 1e30 || v < -1e30) return -1;
    *out = v;
    return 0;
}

int pf_parse_int(const char *s, size_t n, long *out) {
    trim(&s, &n);
    if (n == 0 || n > 20) return -1;
    char buf[24];
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end != buf + n || errno) return -1;
    if (v > 1000000000L || v < -1000000000L) return -1;
    *out = v;
    return 0;
}

const char *pf_basename(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
