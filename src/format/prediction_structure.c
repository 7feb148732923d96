// prediction_structure.c: a prediction's structure and confidence files
// (prediction.h): mmCIF / PDB with pLDDT in the B-factors, and the confidence
// JSON (per-residue pLDDT, PAE matrix, pTM).
#include "prediction.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include "struct_write.h"
#include "../core/util.h"
#include "../model/structure_atoms.h"

// Residue i's atoms into chain ch at residue position k.
static void add_residue(const pf_prediction *p, int64_t i, pf_chain *ch, int k) {
    real R[9], t[3], tors[2 * PF_NUM_TORSIONS], xyz[PF_MAX_RES_ATOMS][3];
    for (int q = 0; q < 9; q++) R[q] = p->frames[i * 12 + q];
    for (int q = 0; q < 3; q++) t[q] = p->frames[i * 12 + 9 + q];
    for (int q = 0; p->torsions && q < 2 * PF_NUM_TORSIONS; q++) tors[q] = p->torsions[i * 2 * PF_NUM_TORSIONS + q];
    const int tok = p->aatype[i] >= 0 && p->aatype[i] < PF_NUM_RESTYPES ? p->aatype[i] : PF_NUM_RESTYPES - 1;
    const pf_residue_geometry *G = &pf_residue_geometry_table[tok];
    int mask = pf_residue_atoms(R, t, p->torsions ? tors : NULL, tok, xyz);
    for (int a = 0; a < G->n_atoms; a++) {
        if (!(mask >> a & 1)) continue;
        float x[3] = {(float)xyz[a][0], (float)xyz[a][1], (float)xyz[a][2]};
        pf_chain_add_atom(ch, k, G->atoms[a].name, G->atoms[a].element, x, 1.0f, p->plddt[i]);
    }
}

int pf_prediction_structure(const pf_prediction *p, const char *chains, pf_structure *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    if (!p->has_structure) {
        snprintf(err, errlen, "the checkpoint has no structure module (structure_module = 0): no coordinates");
        return -1;
    }
    char names[64][8];
    int n_names = pf_chain_names(chains, names, 64);
    for (int64_t i0 = 0; i0 < p->N;) {  // one chain per run of equal chain_index
        int64_t i1 = i0;
        while (i1 < p->N && p->chain_index[i1] == p->chain_index[i0]) i1++;
        int n = (int)(i1 - i0), c = p->chain_index[i0];
        uint8_t *tok = pf_malloc((size_t)n);
        for (int k = 0; k < n; k++) tok[k] = (uint8_t)(p->aatype[i0 + k] >= 0 && p->aatype[i0 + k] <= 20 ? p->aatype[i0 + k] : 20);
        char id[8];
        snprintf(id, sizeof id, "%s", c >= 0 && c < n_names ? names[c] : "A");
        pf_chain *ch = pf_structure_add_chain(s, id, n, tok);
        pf_free(tok);
        for (int k = 0; k < n; k++) {
            ch->auth_num[k] = p->residue_index[i0 + k] + 1;
            add_residue(p, i0 + k, ch, k);
        }
        i0 = i1;
    }
    return 0;
}

int pf_prediction_write_structure(const pf_prediction *p, const char *chains, const char *path, char *err,
                                  size_t errlen) {
    pf_structure s;
    if (pf_prediction_structure(p, chains, &s, err, errlen) != 0) return -1;
    int rc = pf_write_structure(path, &s, NULL, err, errlen);
    pf_structure_free(&s);
    return rc;
}

// A float for JSON: 2 decimals, non-finite values as null.
static void json_num(pf_strbuf *b, double v) {
    if (isfinite(v)) pf_strbuf_printf(b, "%.2f", v);
    else pf_strbuf_printf(b, "null");
}

int pf_prediction_write_confidence(const pf_prediction *p, const char *path, char *err, size_t errlen) {
    if (!p->has_structure) {
        snprintf(err, errlen, "the checkpoint has no structure module (structure_module = 0): no pLDDT / PAE");
        return -1;
    }
    pf_strbuf b = {0};
    double mean = 0, max_pae = 0;
    pf_strbuf_printf(&b, "{\"plddt\": [");
    for (int64_t i = 0; i < p->N; i++) {
        pf_strbuf_printf(&b, i ? ", " : "");
        json_num(&b, p->plddt[i]);
        mean += p->plddt[i] / (double)p->N;
    }
    for (int64_t k = 0; k < p->N * p->N; k++) max_pae = fmax(max_pae, p->pae[k]);
    pf_strbuf_printf(&b, "],\n \"mean_plddt\": ");
    json_num(&b, mean);
    pf_strbuf_printf(&b, ", \"ptm\": %.4f, \"max_pae\": ", isfinite(p->ptm) ? p->ptm : 0.0);
    json_num(&b, max_pae);
    pf_strbuf_printf(&b, ",\n \"pae\": [");
    for (int64_t i = 0; i < p->N; i++) {
        pf_strbuf_printf(&b, i ? ",\n  [" : "\n  [");
        for (int64_t j = 0; j < p->N; j++) {
            pf_strbuf_printf(&b, j ? ", " : "");
            json_num(&b, p->pae[i * p->N + j]);
        }
        pf_strbuf_printf(&b, "]");
    }
    pf_strbuf_printf(&b, "]}\n");
    int rc = pf_write_atomic(path, b.s, b.n);
    if (rc) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    pf_free(b.s);
    return rc;
}
