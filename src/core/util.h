// util.h: errors, checked allocation, small helpers shared by every file.
#ifndef PF_UTIL_H
#define PF_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stddef.h>

// Print "pairfold: error: ..." and exit(1). For bad input that must stop the run.
void pf_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void pf_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *pf_malloc(size_t bytes);           // never returns NULL; 64-byte aligned
void *pf_calloc(size_t n, size_t size);  // zeroed, 64-byte aligned
void pf_free(void *p);

double pf_now_ms(void);  // monotonic clock, milliseconds

// Atomic file write: data goes to "<path>.tmp.<pid>", is fsync'ed, then renamed
// over path, and the directory is fsync'ed. Returns 0 on success, -1 with errno.
int pf_write_atomic(const char *path, const void *data, size_t n);
// Text built in memory (then written atomically): printf appends, growing s;
// s is NULL until the first append and is released with free() / pf_free().
typedef struct {
    char *s;
    size_t n, cap;
} pf_strbuf;
void pf_strbuf_printf(pf_strbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Same, from several pieces (avoids a copy for large checkpoints).
int pf_write_atomic_v(const char *path, const void *const *parts, const size_t *sizes, int nparts);
// fsync of the directory holding path (a rename into it is durable after this); 0 or -1.
int pf_fsync_dir_of(const char *path);

// Read a whole file into memory (NUL-terminated). Returns NULL and sets errno on failure.
char *pf_read_file(const char *path, size_t *len);

int pf_mkdir_p(const char *path);  // 0 on success or if it exists

// Strict integer parsing (command-line values, environment variables): the whole
// of s must be a base-10 integer (optional sign, no spaces, nothing after it) in
// [lo, hi]. Returns NULL and sets *out, or a message naming what ("WORLD_SIZE
// 'abc' is not an integer", "--n 0 is outside [1, 8192]"); the message lives in
// a thread-local buffer until the next call.
const char *pf_parse_long_arg(const char *s, long lo, long hi, const char *what, long *out);

#define PF_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PF_MAX(a, b) ((a) > (b) ? (a) : (b))
#define PF_UNUSED(x) ((void)(x))

#endif
