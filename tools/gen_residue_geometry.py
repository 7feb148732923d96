#!/usr/bin/env python3
"""Ideal rigid-group geometry of the 20 amino acids, measured on real structures.

Writes src/backend/residue_geometry.c: for every residue type, each heavy atom's
rigid group (AF2 supplement 1.8: backbone, pre-omega, phi, psi, chi1..4) and its
position in that group's frame, and each group's default frame in its parent's
frame. pairfold's all-atom construction (AF2 Alg. 24, src/cpu/cpu_allatom.c)
places atoms from these numbers.

Source of the numbers: not a copied table. The local coordinates are the mean,
over well-ordered residues of the high-resolution X-ray structures bundled in
../shared/data/structures (resolution <= 2.0 A, every heavy atom present once,
occupancy 1, no alternate locations, every atom's B-factor below 30 A^2), of
each atom's coordinates in its group's frame, with the frames defined as below.
The chemistry (which atoms exist, the chi angle atoms, which atoms move with
which chi) is the IUPAC-IUB convention (Biochemistry 9:3471, 1970).

Frames (pairfold's convention, the one structure_truth.c uses for torsions):
frame(p0, p1, p2) has its origin at p2, its x axis along p2 - p1 and p0 in its
xy plane with y > 0. Rotating it by the torsion angle of (p0, p1, p2, p3) about
x brings p3 into the xy plane with y > 0. So a group's frame in a structure is
frame(p3, p1, p2) with (p0, p1, p2, p3) the atoms of its torsion, and:
  backbone  origin CA, x along C - CA, N in the xy plane
  psi       frame(O, CA, C)     origin C (the default frame is turned by pi,
                                psi = dihedral(N, CA, C, O) + pi, as AF2)
  chi k     frame(a3, a1, a2)   (a0, a1, a2, a3) the chi's atoms
  pre-omega identity, phi frame(C, CA, N): no heavy atom moves with them.
Default frames (torsion 0) in the parent's frame: chi1 and psi from the mean N,
CA, CB / N, CA, C of the backbone group; chi k > 1 in chi k-1's frame from
(-1, 0, 0) (the direction back to a1 of chi k-1), the origin and a3 of chi k-1.

Usage: tools/gen_residue_geometry.py [--data DIR] [--out FILE] [--check]
(--check: reconstruct every measured residue from its true frame and torsions
with the table and print per-atom RMSDs). Needs gemmi and NumPy. The output is
deterministic: running it again gives the same file (tests/test_residue_geometry.py).
"""
import argparse
import glob
import os
import sys

import numpy as np

AA_ORDER = "ARNDCQEGHILKMFPSTWYV"  # pairfold / AF2 token order
THREE = ["ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE",
         "LEU", "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL"]
# Side-chain heavy atoms in PDB order, each with the index of the chi whose group
# it moves with (0: backbone group, k: chi k).
SIDE = {
    "ALA": [("CB", 0)],
    "ARG": [("CB", 0), ("CG", 1), ("CD", 2), ("NE", 3), ("CZ", 4), ("NH1", 4), ("NH2", 4)],
    "ASN": [("CB", 0), ("CG", 1), ("OD1", 2), ("ND2", 2)],
    "ASP": [("CB", 0), ("CG", 1), ("OD1", 2), ("OD2", 2)],
    "CYS": [("CB", 0), ("SG", 1)],
    "GLN": [("CB", 0), ("CG", 1), ("CD", 2), ("OE1", 3), ("NE2", 3)],
    "GLU": [("CB", 0), ("CG", 1), ("CD", 2), ("OE1", 3), ("OE2", 3)],
    "GLY": [],
    "HIS": [("CB", 0), ("CG", 1), ("ND1", 2), ("CD2", 2), ("CE1", 2), ("NE2", 2)],
    "ILE": [("CB", 0), ("CG1", 1), ("CG2", 1), ("CD1", 2)],
    "LEU": [("CB", 0), ("CG", 1), ("CD1", 2), ("CD2", 2)],
    "LYS": [("CB", 0), ("CG", 1), ("CD", 2), ("CE", 3), ("NZ", 4)],
    "MET": [("CB", 0), ("CG", 1), ("SD", 2), ("CE", 3)],
    "PHE": [("CB", 0), ("CG", 1), ("CD1", 2), ("CD2", 2), ("CE1", 2), ("CE2", 2), ("CZ", 2)],
    "PRO": [("CB", 0), ("CG", 1), ("CD", 2)],
    "SER": [("CB", 0), ("OG", 1)],
    "THR": [("CB", 0), ("OG1", 1), ("CG2", 1)],
    "TRP": [("CB", 0), ("CG", 1), ("CD1", 2), ("CD2", 2), ("NE1", 2), ("CE2", 2), ("CE3", 2),
            ("CZ2", 2), ("CZ3", 2), ("CH2", 2)],
    "TYR": [("CB", 0), ("CG", 1), ("CD1", 2), ("CD2", 2), ("CE1", 2), ("CE2", 2), ("CZ", 2), ("OH", 2)],
    "VAL": [("CB", 0), ("CG1", 1), ("CG2", 1)],
}
# IUPAC chi angles: the four atoms of each.
CHI = {
    "ARG": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD"), ("CB", "CG", "CD", "NE"), ("CG", "CD", "NE", "CZ")],
    "ASN": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "OD1")],
    "ASP": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "OD1")],
    "CYS": [("N", "CA", "CB", "SG")],
    "GLN": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD"), ("CB", "CG", "CD", "OE1")],
    "GLU": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD"), ("CB", "CG", "CD", "OE1")],
    "HIS": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "ND1")],
    "ILE": [("N", "CA", "CB", "CG1"), ("CA", "CB", "CG1", "CD1")],
    "LEU": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD1")],
    "LYS": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD"), ("CB", "CG", "CD", "CE"), ("CG", "CD", "CE", "NZ")],
    "MET": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "SD"), ("CB", "CG", "SD", "CE")],
    "PHE": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD1")],
    "PRO": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD")],
    "SER": [("N", "CA", "CB", "OG")],
    "THR": [("N", "CA", "CB", "OG1")],
    "TRP": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD1")],
    "TYR": [("N", "CA", "CB", "CG"), ("CA", "CB", "CG", "CD1")],
    "VAL": [("N", "CA", "CB", "CG1")],
}
# Chi angles whose atoms are symmetric under a rotation by pi (the other naming
# of the same side chain gives chi + pi), and the atom pairs swapped by it.
PI_PERIODIC = {"ASP": 2, "GLU": 3, "PHE": 2, "TYR": 2}
SWAPS = {"ASP": [("OD1", "OD2")], "GLU": [("OE1", "OE2")],
         "PHE": [("CD1", "CD2"), ("CE1", "CE2")], "TYR": [("CD1", "CD2"), ("CE1", "CE2")]}
G_BB, G_PREOMEGA, G_PHI, G_PSI, G_CHI1 = 0, 1, 2, 3, 4
MAX_ATOMS = 14
MAX_B, MAX_RES = 30.0, 2.0


def atoms_of(res):
    """[(name, element, group)] in pairfold's per-residue order: N, CA, C, O, side chain."""
    out = [("N", "N", G_BB), ("CA", "C", G_BB), ("C", "C", G_BB), ("O", "O", G_PSI)]
    for name, chi in SIDE[res]:
        out.append((name, name[0], G_BB if chi == 0 else G_CHI1 + chi - 1))
    return out


def frame(p0, p1, p2):
    """(R, t): origin p2, x along p2 - p1, p0 in the xy plane with y > 0 (columns of R = axes)."""
    e1 = p2 - p1
    e1 = e1 / np.linalg.norm(e1)
    u = p0 - p2
    u = u - e1 * np.dot(e1, u)
    e2 = u / np.linalg.norm(u)
    return np.stack([e1, e2, np.cross(e1, e2)], axis=1), p2


def bb_frame(n, ca, c):
    """Alg. 21: origin CA, x along C - CA, N in the xy plane."""
    return frame(n, 2 * ca - c, ca)


def local(F, x):
    return F[0].T @ (x - F[1])


def compose(A, B):
    return A[0] @ B[0], A[0] @ B[1] + A[1]


def rot_x(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]]), np.zeros(3)


def torsion(p0, p1, p2, p3):
    l = local(frame(p0, p1, p2), p3)
    return np.arctan2(l[2], l[1])


def group_frames(res, x):
    """Every group's frame in a structure from its atoms x (name -> xyz); None where not defined."""
    F = [None] * 8
    F[G_BB] = bb_frame(x["N"], x["CA"], x["C"])
    F[G_PSI] = frame(x["O"], x["CA"], x["C"])
    for k, (a0, a1, a2, a3) in enumerate(CHI.get(res, [])):
        F[G_CHI1 + k] = frame(x[a3], x[a1], x[a2])
    return F


def read_residues(data_dir):
    """{res: [name -> xyz]} of the well-ordered residues of the high-resolution structures."""
    import gemmi
    out = {r: [] for r in THREE}
    for path in sorted(glob.glob(os.path.join(data_dir, "structures", "*"))):
        try:
            st = gemmi.read_structure(path)
        except Exception as e:  # a few Docking Benchmark files have malformed charge columns
            print(f"skipped {os.path.basename(path)}: {e}", file=sys.stderr)
            continue
        if not (0 < st.resolution <= MAX_RES):
            continue
        st.remove_hydrogens()
        for ch in st[0]:
            for r in ch:
                if r.name not in out:
                    continue
                want = [a[0] for a in atoms_of(r.name)]
                got = {}
                ok = True
                for a in r:
                    if a.altloc != "\0" or a.occ < 1.0 or a.b_iso >= MAX_B or a.name in got:
                        ok = False
                    got[a.name] = np.array(a.pos.tolist())
                if ok and all(n in got for n in want):
                    out[r.name].append(got)
    return out


# Pairs of same-element atoms whose names files do not always give by the IUPAC
# rule: ARG NH1 is cis to CD; VAL CG1 / CG2 and LEU CD1 / CD2 by the chirality of
# (a, b, c) about the centre (the sign most residues have). Each residue is put
# in the canonical naming before measuring, else the two positions would blur.
CHIRAL = {"VAL": ("CB", "CA", "CG1", "CG2"), "LEU": ("CG", "CB", "CD1", "CD2")}


def canonical(res, rs):
    def swap(x, a, b):
        x[a], x[b] = x[b], x[a]
    if res == "ARG":
        for x in rs:
            if abs(torsion(x["CD"], x["NE"], x["CZ"], x["NH1"])) > np.pi / 2:
                swap(x, "NH1", "NH2")
    if res in CHIRAL:
        c, a, b, d = CHIRAL[res]
        vol = [np.dot(x[a] - x[c], np.cross(x[b] - x[c], x[d] - x[c])) for x in rs]
        sign = np.sign(np.sum(np.sign(vol)))
        for x, v in zip(rs, vol):
            if np.sign(v) != sign:
                swap(x, b, d)


def measure(residues):
    """Mean local coordinates of every atom in its group's frame, per residue type,
    rounded to 0.001 A (the default frames are derived from the rounded numbers, so
    atoms built from true frames reproduce those frames exactly)."""
    table = {}
    for res in THREE:
        acc = {name: [] for name, _, _ in atoms_of(res)}
        canonical(res, residues[res])
        for x in residues[res]:
            F = group_frames(res, x)
            for name, _, g in atoms_of(res):
                acc[name].append(local(F[g], x[name]))
        table[res] = {n: np.mean(v, axis=0) for n, v in acc.items()}
        for n, v in acc.items():  # exact zeros by construction (frame origin / axes)
            if n == "CA":
                table[res][n] = np.zeros(3)
        table[res]["N"][2] = table[res]["C"][1] = table[res]["C"][2] = table[res]["O"][2] = 0.0
        for k, chi in enumerate(CHI.get(res, [])):
            table[res][chi[3]][2] = 0.0
        for n in table[res]:
            table[res][n] = np.round(table[res][n], 3) + 0.0  # + 0.0: no -0.0
    return table


def default_frames(res, pos):
    """Default frame (torsion 0) of each group in its parent's frame: (R, t) or identity."""
    ident = (np.eye(3), np.zeros(3))
    D = [ident] * 8
    D[G_PHI] = frame(pos["C"], pos["CA"], pos["N"])
    D[G_PSI] = compose(frame(pos["N"], pos["CA"], pos["C"]), rot_x(np.pi))
    for k, (a0, a1, a2, a3) in enumerate(CHI.get(res, [])):
        if k == 0:
            D[G_CHI1] = frame(pos[a0], pos[a1], pos[a2])
        else:  # in chi k-1's frame: a1 = its origin, a0 back along -x, a2 = its a3
            D[G_CHI1 + k] = frame(np.array([-1.0, 0, 0]), np.zeros(3), pos[a2])
    return D


def parent(g):
    return G_BB if g <= G_CHI1 else g - 1


def build(res, pos, D, bb, tors):
    """Alg. 24 in NumPy: atoms from the backbone frame and torsions (pre-omega, phi, psi, chi1..4)."""
    F = [bb] + [None] * 7
    for g in range(1, 8):
        F[g] = compose(compose(F[parent(g)], D[g]), rot_x(tors[g - 1]))
    return {n: F[g][0] @ pos[n] + F[g][1] for n, _, g in atoms_of(res)}


def check(residues, table):
    """Reconstruct each measured residue from its true frame and torsions; RMSD per atom type."""
    worst = 0.0
    for res in THREE:
        pos, D = table[res], default_frames(res, table[res])
        err = {n: [] for n, _, _ in atoms_of(res)}
        for x in residues[res]:
            tors = [0.0, 0.0, torsion(x["N"], x["CA"], x["C"], x["O"]) + np.pi, 0, 0, 0, 0]
            for k, c in enumerate(CHI.get(res, [])):
                tors[3 + k] = torsion(*[x[a] for a in c])
            y = build(res, pos, D, bb_frame(x["N"], x["CA"], x["C"]), tors)
            for n in err:
                err[n].append(np.sum((y[n] - x[n]) ** 2))
        rms = {n: float(np.sqrt(np.mean(v))) for n, v in err.items()}
        worst = max(worst, max(rms.values()))
        print(f"{res} n={len(residues[res]):4d} " + " ".join(f"{n}:{v:.2f}" for n, v in rms.items()))
    print(f"worst per-atom RMSD {worst:.3f} A")


def c_vec(v, digits=3):
    z = 0.5 * 10.0 ** -digits
    return "{" + ", ".join(f"{float(a):.{digits}f}" if abs(a) >= z else f"{0:.{digits}f}" for a in v) + "}"


def write_c(path, table, counts):
    L = ["// residue_geometry.c: GENERATED by tools/gen_residue_geometry.py (do not edit;",
         "// rerun it). Rigid-group geometry of the 20 amino acids measured on the bundled",
         "// X-ray structures (resolution <= %.1f A, B < %.0f A^2); see the script for the" % (MAX_RES, MAX_B),
         "// frame conventions and residue_geometry.h for the layout.",
         "#include \"residue_geometry.h\"", "#include <string.h>", "",
         "const pf_residue_geometry pf_residue_geometry_table[PF_NUM_RESTYPES] = {"]
    for i, res in enumerate(THREE + ["UNK"]):
        src = "ALA" if res == "UNK" else res
        pos, D = table[src], default_frames(src, table[src])
        atoms = atoms_of(src)
        chis = CHI.get(src, [])
        L.append(f"    {{  // {res}: measured on {counts[src]} residues" + (" (UNK: alanine's)" if res == "UNK" else ""))
        L.append(f"        \"{res}\", {len(atoms)}, {len(chis)}, {PI_PERIODIC.get(src, 0)},")
        L.append("        {" + ", ".join("{" + ", ".join(f"\"{a}\"" for a in c) + "}" for c in chis) + "},")
        L.append("        {")
        for name, el, g in atoms:
            L.append(f"            {{\"{name}\", \"{el}\", {g}, {c_vec(pos[name])}}},")
        L.append("        },")
        L.append("        {")
        for g in range(8):
            R, t = D[g]
            L.append("            {" + ", ".join(c_vec(R[r], 12) for r in range(3)) + f", {c_vec(t, 12)}}},")
        L.append("        },")
        sw = SWAPS.get(src, [])
        L.append("        {" + ", ".join("{\"%s\", \"%s\"}" % p for p in sw) + "},")
        L.append("    },")
    L.append("};")
    L += ["", "int pf_rg_atom_index(int tok, const char *name) {",
          "    if (tok < 0 || tok >= PF_NUM_RESTYPES) return -1;",
          "    const pf_residue_geometry *g = &pf_residue_geometry_table[tok];",
          "    for (int a = 0; a < g->n_atoms; a++)",
          "        if (!strcmp(g->atoms[a].name, name)) return a;",
          "    return -1;", "}"]
    text = "\n".join(L) + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--out", default=os.path.join(here, "..", "src", "backend", "residue_geometry.c"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    residues = read_residues(a.data)
    counts = {r: len(v) for r, v in residues.items()}
    few = [r for r in THREE if counts[r] < 20]
    if few:
        sys.exit(f"too few well-ordered residues of {few} under {a.data}")
    table = measure(residues)
    write_c(a.out, table, counts)
    if a.check:
        check(residues, table)


if __name__ == "__main__":
    main()
