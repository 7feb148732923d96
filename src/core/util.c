#include "util.h"
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <libgen.h>
#include <sys/stat.h>

void pf_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pairfold: error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

void pf_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pairfold: warning: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

void *pf_malloc(size_t bytes) {
    void *p = NULL;
    if (bytes == 0) bytes = 64;
    if (posix_memalign(&p, 64, (bytes + 63) & ~(size_t)63) != 0 || !p)
        pf_die("out of host memory allocating %zu bytes", bytes);
    return p;
}

void *pf_calloc(size_t n, size_t size) {
    size_t bytes = n * size;
    void *p = pf_malloc(bytes);
    memset(p, 0, bytes);
    return p;
}

void pf_free(void *p) { free(p); }

void pf_strbuf_printf(pf_strbuf *t, const char *fmt, ...) {
    for (;;) {
        size_t room = t->s ? t->cap - t->n : 0;
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, room, fmt, ap);
        va_end(ap);
        if (k < 0) pf_die("text formatting failed");
        if ((size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        t->cap = (t->cap ? t->cap * 2 : 1 << 12) + (size_t)k + 1;
        t->s = realloc(t->s, t->cap);
        if (!t->s) pf_die("out of memory");
    }
}

double pf_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int pf_fsync_dir_of(const char *path) {
    char *copy = strdup(path);
    if (!copy) return -1;
    const char *dir = dirname(copy);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    int rc = 0;
    if (fd >= 0) {
        rc = fsync(fd);
        close(fd);
    }
    free(copy);
    return rc;
}

int pf_write_atomic_v(const char *path, const void *const *parts, const size_t *sizes, int nparts) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    for (int i = 0; i < nparts; i++) {
        const char *p = parts[i];
        size_t left = sizes[i];
        while (left > 0) {
            ssize_t w = write(fd, p, left);
            if (w < 0) {
                if (errno == EINTR) continue;
                int e = errno;
                close(fd);
                unlink(tmp);
                errno = e;
                return -1;
            }
            p += w;
            left -= (size_t)w;
        }
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    pf_fsync_dir_of(path);
    return 0;
}

int pf_write_atomic(const char *path, const void *data, size_t n) {
    const void *parts[1] = {data};
    size_t sizes[1] = {n};
    return pf_write_atomic_v(path, parts, sizes, 1);
}

char *pf_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) { fclose(f); errno = ENOMEM; return NULL; }
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); errno = ENOMEM; return NULL; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) { free(buf); errno = EIO; return NULL; }
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

int pf_mkdir_p(const char *path) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    return 0;
}

const char *pf_parse_long_arg(const char *s, long lo, long hi, const char *what, long *out) {
    static _Thread_local char msg[256];
    if (!s) s = "";
    const char *d = s + (*s == '-' || *s == '+');
    if (*d < '0' || *d > '9') {
        snprintf(msg, sizeof msg, "%s '%.64s' is not an integer", what, s);
        return msg;
    }
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end) {
        snprintf(msg, sizeof msg, "%s '%.64s' is not an integer", what, s);
        return msg;
    }
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(msg, sizeof msg, "%s %.64s is outside [%ld, %ld]", what, s, lo, hi);
        return msg;
    }
    *out = v;
    return NULL;
}
