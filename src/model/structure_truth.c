// structure_truth.c: backbone frames and torsions of the true structure
// (structure_truth.h).
#include "structure_truth.h"
#include <math.h>
#include <string.h>
#include "../backend/struct_modules.h"
#include "../cpu/cpu_structure.h"
#include "../data/structure.h"

static void atom(const real *xyz, int64_t i, int a, real *x) {
    for (int e = 0; e < 3; e++) x[e] = xyz[(i * PF_NUM_BB + a) * 3 + e];
}

// OpenFold's torsion of four points: a frame with origin p2, x axis along
// p2 - p1 and p0 in the xy plane (y > 0); the angle of p3 about that axis is
// atan2(z, y). Writes unit (sin, cos); returns 0 when the frame is degenerate.
static int torsion(const real *p0, const real *p1, const real *p2, const real *p3, real *sc) {
    real far[3], R[9], t[3], l[3];
    for (int e = 0; e < 3; e++) far[e] = 2 * p2[e] - p1[e];  // on the +x axis: p2 + (p2 - p1)
    if (pf_frame_from_3_points(p0, p2, far, R, t)) return 0;
    pf_frame_invert_apply(R, t, p3, l);
    double n = sqrt(l[1] * l[1] + l[2] * l[2]);
    if (n < 1e-6) return 0;
    sc[0] = (real)(l[2] / n);
    sc[1] = (real)(l[1] / n);
    return 1;
}

void pf_truth_from_backbone(int64_t N, const real *xyz, const int32_t *atom_mask, const int32_t *chain, real *R,
                            real *t, real *frame_mask, real *tors, real *tors_alt, real *tors_mask) {
    const unsigned bN = 1u << PF_AT_N, bA = 1u << PF_AT_CA, bC = 1u << PF_AT_C, bO = 1u << PF_AT_O;
    for (int64_t i = 0; i < N; i++) {
        real n[3], ca[3], c[3], o[3], pca[3], pc[3], *sc = tors + i * 2 * PF_NUM_TORSIONS;
        real *tm = tors_mask + i * PF_NUM_TORSIONS;
        const unsigned m = (unsigned)atom_mask[i];
        const unsigned pm = i > 0 && (!chain || chain[i - 1] == chain[i]) ? (unsigned)atom_mask[i - 1] : 0;
        atom(xyz, i, PF_AT_N, n);
        atom(xyz, i, PF_AT_CA, ca);
        atom(xyz, i, PF_AT_C, c);
        atom(xyz, i, PF_AT_O, o);
        frame_mask[i] = (m & (bN | bA | bC)) == (bN | bA | bC) && pf_frame_from_3_points(n, ca, c, R + i * 9, t + i * 3) == 0;
        if (!frame_mask[i]) pf_frame_identity(1, R + i * 9, t + i * 3);
        memset(sc, 0, sizeof(real) * 2 * PF_NUM_TORSIONS);
        memset(tm, 0, sizeof(real) * PF_NUM_TORSIONS);
        if (i > 0) {
            atom(xyz, i - 1, PF_AT_CA, pca);
            atom(xyz, i - 1, PF_AT_C, pc);
        }
        if ((pm & (bA | bC)) == (bA | bC) && (m & (bN | bA)) == (bN | bA)) tm[0] = torsion(pca, pc, n, ca, sc);
        if ((pm & bC) && (m & (bN | bA | bC)) == (bN | bA | bC)) tm[1] = torsion(pc, n, ca, c, sc + 2);
        if ((m & (bN | bA | bC | bO)) == (bN | bA | bC | bO) && torsion(n, ca, c, o, sc + 4)) {
            tm[2] = 1;
            sc[4] = -sc[4];  // psi from the O: mirrored (AF2)
            sc[5] = -sc[5];
        }
        memcpy(tors_alt + i * 2 * PF_NUM_TORSIONS, sc, sizeof(real) * 2 * PF_NUM_TORSIONS);
    }
}
