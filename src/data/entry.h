// entry.h: one training entry (a structure file, or a receptor/ligand pair)
// as a self-contained, position-independent record: what the feature cache
// stores and the sampler memory-maps. Layout (little-endian, every section
// 8-byte aligned, offsets relative to the record start) in docs/DATA.md.
#ifndef PF_ENTRY_H
#define PF_ENTRY_H
#include <stddef.h>
#include <stdint.h>
#include "msa.h"
#include "structure.h"

#define PF_REC_MAGIC "PFE1"

typedef struct {
    char magic[4];
    uint32_t n_chains, n_res, n_msa;
    uint64_t cluster;  // sampling cluster key (manifest label or sequence hash)
    char name[64];
    uint64_t off_chains, off_res, off_msa;
    uint64_t off_atoms;  // heavy atoms in slots (atom14.h); 0: none (records written before it)
    uint8_t reserved[8];
} pf_rec_header;  // 128 bytes

typedef struct {
    char id[8];           // author chain id
    uint32_t start, n;    // residues [start, start + n) of the entry
    uint32_t entity, sym; // entity (identical sequence) and copy index within it
    uint32_t msa;         // MSA block of this chain's entity
    uint32_t n_resolved;
    uint32_t n_msa_files; // alignment files merged into the block
    uint32_t reserved;
} pf_rec_chain;  // 40 bytes

typedef struct {
    uint32_t entity, n_rows, L, reserved;
    uint64_t off;  // tok (n_rows, L) u8 | del (n_rows, L) u8 | profile (L, 23) f32 | del_mean (L) f32
    uint64_t reserved2;
} pf_rec_msa;  // 32 bytes

// Read-only view of a record (pointers into it).
typedef struct {
    const pf_rec_header *h;
    const pf_rec_chain *chains;  // (n_chains)
    const uint8_t *aatype;       // (n_res) tokens 0..20
    const uint8_t *resolved;     // (n_res) CA present
    const uint8_t *atom_mask;    // (n_res) bits PF_AT_N..PF_AT_CB
    const int32_t *residue_index;// (n_res) 0-based within each chain
    const float *xyz;            // (n_res, PF_NUM_BB, 3)
    const float *atom14_xyz;     // (n_res, PF_MAX_RES_ATOMS, 3) or NULL (record without atoms)
    const uint16_t *atom14_mask; // (n_res) bit a: slot a present, or NULL
    const pf_rec_msa *msa;       // (n_msa)
    const uint8_t *base;
    size_t bytes;
} pf_entry_view;

// Validates magic, counts and every offset against bytes. 0 or -1 + message.
int pf_entry_view_init(pf_entry_view *v, const void *rec, size_t bytes, char *err, size_t errlen);
static inline const uint8_t *pf_view_msa_tok(const pf_entry_view *v, int k) { return v->base + v->msa[k].off; }
static inline const uint8_t *pf_view_msa_del(const pf_entry_view *v, int k) {
    return v->base + v->msa[k].off + (((uint64_t)v->msa[k].n_rows * v->msa[k].L + 7) & ~7ull);
}
static inline const float *pf_view_msa_profile(const pf_entry_view *v, int k) {
    return (const float *)(pf_view_msa_del(v, k) + (((uint64_t)v->msa[k].n_rows * v->msa[k].L + 7) & ~7ull));
}
static inline const float *pf_view_msa_del_mean(const pf_entry_view *v, int k) {
    return pf_view_msa_profile(v, k) + (size_t)v->msa[k].L * 23;
}

// Input of pf_entry_build: a chain and the alignments matched to it.
typedef struct {
    const pf_chain *chain;
    const pf_msa *const *msas;
    int n_msas;
} pf_chain_in;

typedef struct {
    int max_msa_rows;  // rows kept per MSA block after de-duplication (query included)
} pf_build_opts;

// Build a record: chains concatenated in the given order, entities by
// identical sequence, one MSA block per entity (row 0 the chain sequence,
// then the rows of every matched alignment mapped onto the chain by aligning
// the alignment's query to it, duplicates and empty rows dropped). Without
// alignments a block is the single sequence. Returns malloc'ed bytes.
uint8_t *pf_entry_build(const char *name, uint64_t cluster, const pf_chain_in *chains, int n_chains,
                        const pf_build_opts *opts, size_t *bytes);

#endif
