// textio.h: whole-file input for the readers. Files are read raw (for content
// hashing), gunzipped in memory when they start with the gzip magic (any
// number of members), and checked to be text, so every reader sees one
// NUL-terminated buffer and reports errors as "path:line: message".
#ifndef PF_TEXTIO_H
#define PF_TEXTIO_H
#include <stddef.h>
#include <stdint.h>

#define PF_TEXT_MAX_BYTES ((size_t)1 << 30)  // decompressed size limit (zip bombs)

typedef struct {
    char *data;  // NUL-terminated text
    size_t len;
} pf_text;

// Read a file's raw bytes (no decompression). NULL and a message on failure.
unsigned char *pf_read_raw(const char *path, size_t *len, char *err, size_t errlen);
// Decompress (if gzip) and validate raw bytes as text. 0 on success, -1 with
// "name[:line]: message" in err (truncated gzip, corrupt data, binary bytes).
int pf_text_from_bytes(const unsigned char *raw, size_t len, const char *name, pf_text *t, char *err,
                       size_t errlen);
// Both of the above.
int pf_text_load(const char *path, pf_text *t, char *err, size_t errlen);
void pf_text_free(pf_text *t);

// Line iteration over a buffer; lines exclude "\n" and a trailing "\r".
typedef struct {
    const char *p, *end;
    int64_t lineno;  // 1-based number of the line last returned
} pf_lineit;
static inline pf_lineit pf_lines(const char *data, size_t len) {
    pf_lineit it = {data, data + len, 0};
    return it;
}
int pf_line_next(pf_lineit *it, const char **line, size_t *len);  // 0 at end

// snprintf of "path:line: message" (line omitted when <= 0) into err.
void pf_errf(char *err, size_t errlen, const char *path, int64_t line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

// Helpers for fixed-column and whitespace-separated fields.
int pf_parse_double(const char *s, size_t n, double *out);  // whole field, spaces trimmed
int pf_parse_int(const char *s, size_t n, long *out);
const char *pf_basename(const char *path);

#endif
