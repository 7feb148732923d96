// safetensors.h: read and write the safetensors format (the one Python's
// `safetensors` package reads and writes), used for checkpoints and weights.
//
// Layout: an 8-byte little-endian header length n, n bytes of JSON
//   {"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, ...,
//    "__metadata__": {"key": "value", ...}}
// padded with spaces to a multiple of 8, then the data section; offsets are
// relative to the start of the data section. Tensors are row-major, little-endian.
#ifndef PF_SAFETENSORS_H
#define PF_SAFETENSORS_H
#include <stddef.h>
#include <stdint.h>

#define PF_ST_MAX_NDIM 8

typedef struct {
    const char *name;
    const char *dtype;  // "F32", "F64", "BF16", "F16", "I32", "I64", "U8", ...
    int ndim;           // 0 (a scalar) .. PF_ST_MAX_NDIM
    int64_t shape[PF_ST_MAX_NDIM];
    const void *data;   // nbytes bytes; from pf_st_open: inside the read-only mapping
    size_t nbytes;      // product(shape) * dtype size
} pf_st_tensor;

typedef struct pf_st_file pf_st_file;

// Bytes per element of a dtype name; 0 if unknown.
size_t pf_st_dtype_size(const char *dtype);

// Metadata key of the CRC-32 of the data section (8 hex digits), written by
// pf_st_write and verified by pf_st_open when present (files from other
// writers have none).
#define PF_ST_CRC_KEY "data_crc32"

// Write tensors (in the order given, packed without gaps, as Python's
// `safetensors` requires) and optional metadata: meta_kv is NULL or a
// NULL-terminated list key, value, key, value, ..., NULL; PF_ST_CRC_KEY is
// always added last. The file is replaced atomically. Returns 0, or -1 with a
// message naming the file in err.
int pf_st_write(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv,
                char *err, size_t errlen);

// The same file written in pieces, for tensors too large to hold at once (predict's
// distogram probabilities: (N, N, n_bins) float32, 102 GB at N = 20,000): the bytes
// are pf_st_write's for the same content. begin writes the header (every tensor's
// final shape and offsets) to a temporary beside path ("<path>.tmp.<pid>", as
// pf_write_atomic). A tensor with data NULL and nbytes > 0 is streamed: its rows
// (along dimension 0) come through pf_st_writer_rows, in any order, each row once.
// The others' data is written at finish: it (and every tensor's name) must stay
// valid, and be final, until then. finish checks that every streamed row came,
// writes the CRC-32 into the header (combined from per-row CRCs), fsyncs and
// renames the temporary over path; on any error the temporary is removed and path
// is left as it was. Errors name path.
typedef struct pf_st_writer pf_st_writer;
pf_st_writer *pf_st_writer_begin(const char *path, const pf_st_tensor *ts, int n, const char *const *meta_kv,
                                 char *err, size_t errlen);
// Rows row0 .. row0 + rows - 1 of streamed tensor i (its index in ts): data holds
// them back to back. 0, or -1: the first error is kept (pf_st_writer_error), later
// rows are ignored and finish fails with it (so a caller in the middle of a
// computation other processes take part in can carry on and report at the end).
int pf_st_writer_rows(pf_st_writer *w, int i, int64_t row0, int64_t rows, const void *data);
const char *pf_st_writer_error(const pf_st_writer *w);  // NULL while none
// 0, or -1 with the message; w is freed either way.
int pf_st_writer_finish(pf_st_writer *w, char *err, size_t errlen);
void pf_st_writer_abort(pf_st_writer *w);  // the temporary removed, w freed; NULL is fine

// Map a file read-only and validate it: header length, JSON, dtypes, shapes
// against byte sizes, offsets within the file and not overlapping, unique
// names, and the data's CRC-32 when the metadata has PF_ST_CRC_KEY ("checksum
// mismatch in FILE"). Returns NULL with a message naming the file (and the
// field) in err.
// Tensor data points into the mapping: it stays valid until pf_st_close. It is
// aligned to the dtype when the writer laid it out so (pf_st_write callers
// that put wider dtypes first, as Python does, get aligned data).
pf_st_file *pf_st_open(const char *path, char *err, size_t errlen);
int pf_st_count(const pf_st_file *f);
const pf_st_tensor *pf_st_at(const pf_st_file *f, int i);  // header order; NULL if out of range
const pf_st_tensor *pf_st_find(const pf_st_file *f, const char *name);  // NULL if absent
const char *pf_st_meta(const pf_st_file *f, const char *key);          // NULL if absent
int pf_st_meta_count(const pf_st_file *f);
// The i-th metadata pair (header order); 0 on success, -1 if out of range.
int pf_st_meta_at(const pf_st_file *f, int i, const char **key, const char **value);
void pf_st_close(pf_st_file *f);  // NULL is fine

#endif
