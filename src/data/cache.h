// cache.h: the feature cache container written by `pairfold prep` and
// memory-mapped by the training sampler. Byte layout in docs/DATA.md:
// header (128 B) | entry index (64 B each) | input table (48 B each) |
// strings | records (64-byte aligned, pf_entry records, CRC-32 each).
#ifndef PF_CACHE_H
#define PF_CACHE_H
#include <stddef.h>
#include <stdint.h>
#include "entry.h"

#define PF_CACHE_MAGIC "PFCACHE"  // 8 bytes with the NUL
#define PF_CACHE_VERSION 2u  // 2: records carry every heavy atom (entry.h off_atoms)
#define PF_CACHE_ENDIAN 0x01020304u

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint64_t n_entries, n_inputs;
    uint64_t index_off, inputs_off, strings_off, strings_bytes, data_off, data_bytes, file_bytes;
    uint32_t endian;
    uint32_t meta_crc;  // CRC-32 of header (this field 0), index, input table and strings
    uint8_t reserved[32];
} pf_cache_header;  // 128 bytes

typedef struct {
    uint64_t offset, bytes;  // absolute file offset of the record, its size
    uint32_t crc;            // CRC-32 of the record bytes
    uint32_t n_res, n_chains;
    uint32_t input;          // row of the input table it came from
    char name[32];
} pf_cache_index;  // 64 bytes

enum { PF_INPUT_OK = 0, PF_INPUT_FAILED = 1 };
typedef struct {
    uint64_t hash;   // content hash of every file the input reads (and the prep settings)
    uint64_t bytes;  // total raw bytes of those files
    uint32_t key_off, key_len;  // input key (relative path(s)) in strings
    uint32_t msg_off, msg_len;  // error or warning text in strings
    uint32_t status;            // PF_INPUT_*
    uint32_t entry;             // index row, or UINT32_MAX
    uint64_t reserved;
} pf_cache_input;  // 48 bytes

typedef struct {
    int fd;
    const uint8_t *map;
    size_t size;
    const pf_cache_header *h;
    const pf_cache_index *index;
    const pf_cache_input *inputs;
    const char *strings;
} pf_cache;

// Map and validate a cache (header, bounds, meta CRC; record CRCs too when
// verify_records). 0, or -1 with "path: message".
int pf_cache_open(pf_cache *c, const char *path, int verify_records, char *err, size_t errlen);
void pf_cache_close(pf_cache *c);
int pf_cache_entry(const pf_cache *c, int64_t i, pf_entry_view *v, char *err, size_t errlen);
const uint8_t *pf_cache_record(const pf_cache *c, int64_t i, size_t *bytes);

// One input of a cache being written (keys sorted, unique).
typedef struct {
    const char *key;
    const char *msg;      // "" when none
    uint64_t hash, bytes;
    int failed;
    const uint8_t *rec;   // record bytes (NULL when failed)
    size_t rec_bytes;
} pf_cache_item;

// Write atomically (tmp + rename). Byte layout depends only on the items.
int pf_cache_write(const char *path, const pf_cache_item *items, int n, char *err, size_t errlen);

uint32_t pf_crc32(const void *p, size_t n);
// 64-bit content hash (not cryptographic): chain with seed to hash several parts.
uint64_t pf_hash_bytes(uint64_t seed, const void *p, size_t n);

#endif
