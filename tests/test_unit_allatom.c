// test_unit_allatom: the side-chain truth on its way from a structure file to
// the structure module: a cache record (data/entry.h) keeps every heavy atom in
// its slot (data/atom14.h) and hands it back through the view; records written
// before the atom section read as "no atoms"; the model's truth
// (pf_truth_side_chains) then has chi targets for the residues with side chains.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "../src/data/entry.h"
#include "../src/data/atom14.h"
#include "../src/model/structure_atoms.h"

static void test_record(const pf_chain *ch) {
    pf_chain_in in = {ch, NULL, 0};
    size_t bytes = 0;
    uint8_t *rec = pf_entry_build("1UBI", 1, &in, 1, NULL, &bytes);
    pf_entry_view v;
    char err[256];
    int rc = pf_entry_view_init(&v, rec, bytes, err, sizeof err);
    tl_check(rc == 0 && v.atom14_xyz && v.atom14_mask, "record with atoms", "%s", rc ? err : "no atom section");
    if (rc || !v.atom14_xyz) { free(rec); return; }
    // every heavy atom of the file (no hydrogens, no OXT) is in its slot, at its place
    int file_atoms = 0, kept = 0, wrong = 0;
    for (int i = 0; i < ch->n; i++) {
        for (int k = ch->atom_start[i]; k < ch->atom_start[i + 1]; k++) {
            const pf_atom *a = &ch->atoms[k];
            if (!strcmp(a->element, "H") || !strcmp(a->name, "OXT")) continue;
            file_atoms++;
            int s = pf_rg_atom_index(ch->tok[i], a->name);
            if (s < 0 || !(v.atom14_mask[i] >> s & 1)) continue;
            kept++;
            const float *x = v.atom14_xyz + ((size_t)i * PF_MAX_RES_ATOMS + s) * 3;
            wrong += x[0] != a->xyz[0] || x[1] != a->xyz[1] || x[2] != a->xyz[2];
        }
        for (int s = 0; s < PF_NUM_BB; s++)  // the backbone slots agree with the backbone arrays
            wrong += (s < pf_residue_geometry_table[ch->tok[i] < 21 ? ch->tok[i] : 20].n_atoms) &&
                     ((v.atom14_mask[i] >> s & 1) != (v.atom_mask[i] >> s & 1));
    }
    tl_check(file_atoms > 550 && kept == file_atoms && wrong == 0, "every heavy atom kept in its slot",
             "%d of %d atoms, %d wrong", kept, file_atoms, wrong);
    // the model's truth from them: chi targets
    const int64_t N = ch->n;
    real *x = tl_zeros(N * 42), *am = tl_zeros(N * 14), *tors = tl_zeros(N * 14), *alt = tl_zeros(N * 14), *tm = tl_zeros(N * 7);
    int32_t *aa = malloc(sizeof(int32_t) * (size_t)N), *bits = malloc(sizeof(int32_t) * (size_t)N);
    int want_chi = 0;
    for (int64_t i = 0; i < N; i++) {
        aa[i] = v.aatype[i];
        bits[i] = v.atom14_mask[i];
        for (int k = 0; k < 42; k++) x[i * 42 + k] = v.atom14_xyz[i * 42 + k];
        want_chi += ch->resolved[i] ? pf_residue_geometry_table[aa[i]].n_chi : 0;
    }
    int any = pf_truth_side_chains(N, aa, x, bits, NULL, am, tors, alt, tm);
    int chi = 0, alt_diff = 0;
    for (int64_t k = 0; k < N * 7; k++) {
        chi += k % 7 >= 3 && tm[k] == 1;
        alt_diff += tors[2 * k] != alt[2 * k];
    }
    tl_check(any && chi >= want_chi - 6 && chi <= want_chi && alt_diff > 0 && tm[0 * 7 + 2] == 0,
             "chi targets from the record's atoms", "%d of %d chi, %d pi-shifted alternatives", chi, want_chi, alt_diff);
    // a record from before the atom section (off_atoms 0) has none, and the truth none
    ((pf_rec_header *)rec)->off_atoms = 0;
    rc = pf_entry_view_init(&v, rec, bytes, err, sizeof err);
    tl_check(rc == 0 && !v.atom14_xyz && !v.atom14_mask, "record without atoms reads as none", "%s", rc ? err : "");
    memset(bits, 0, sizeof(int32_t) * (size_t)N);
    memset(tm, 0, sizeof(real) * (size_t)(N * 7));
    tl_check(pf_truth_side_chains(N, aa, x, bits, NULL, am, tors, alt, tm) == 0 && tl_max_abs(tm, N * 7) == 0,
             "no atoms: no side-chain truth", " ");
    // an atom section past the record's end is refused
    ((pf_rec_header *)rec)->off_atoms = (bytes - 64) & ~(size_t)7;
    tl_check(pf_entry_view_init(&v, rec, bytes, err, sizeof err) != 0, "atom section out of range refused", " ");
    free(aa), free(bits), free(rec);
}

int main(void) {
    pf_structure st;
    char err[256];
    if (pf_read_structure("data/structures/1UBI.pdb.gz", &st, err, sizeof err)) {
        tl_check(0, "read data/structures/1UBI.pdb.gz", "%s", err);
        return tl_finish();
    }
    test_record(&st.chains[0]);
    pf_structure_free(&st);
    return tl_finish();
}
