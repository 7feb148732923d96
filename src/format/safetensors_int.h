// safetensors_int.h: what the one-go writer (pf_st_write, safetensors.c) and the
// row-piece writer (pf_st_writer, safetensors_rows.c) share, so that both lay a
// file out byte for byte alike (format-internal).
#ifndef PF_SAFETENSORS_INT_H
#define PF_SAFETENSORS_INT_H
#include "safetensors.h"

// CRC-32 (zlib's) of n bytes, continuing from crc (start with 0).
uint32_t pf_st_crc32(uint32_t crc, const void *p, size_t n);

// Names, dtypes, shapes against nbytes, unique names; need_data: a non-empty tensor
// must have data. 0, or -1 with a message naming the file.
int pf_st_validate(const char *path, const pf_st_tensor *ts, int n, int need_data, char *err, size_t errlen);

// The bytes before the data section: the 8-byte length, then the JSON header padded
// with spaces to a multiple of 8. crc_at: where its PF_ST_CRC_KEY value's 8 hex
// digits are (a writer that learns the CRC only at the end writes them there).
typedef struct {
    char *s;  // free()
    size_t n, crc_at;
} pf_st_header;
int pf_st_header_build(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv, uint32_t crc,
                       pf_st_header *out, char *err, size_t errlen);

#endif
