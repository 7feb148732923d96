"""predict with a structure module (structure_module = 1): beside the distogram it writes
OUT.cif, OUT.pdb (every heavy atom placed from the predicted frames and torsions, AF2
Alg. 24; pLDDT in the B-factors) and OUT_confidence.json (pLDDT, PAE, pTM). Checked: both
files parse with gemmi and Biopython without warnings, every residue has exactly its heavy
atoms (the list below, written out from the PDB chemical component dictionary's names,
independent of pairfold's table) with the right element, every covalent bond inside a
residue (list below) is 1.2-1.9 A and within 0.05 A of its usual length, atoms 2-3 bonds
apart are at least 2.1 A apart, residues numbered from 1 per chain with the AlphaFold 3 JSON's chain ids,
B-factors equal the JSON's pLDDT, PAE in [0, 31.75], pTM in [0, 1]; a checkpoint without
the module writes none of them. Prints failures only and "N passed, M failed"."""
import atexit
import json
import os
import shutil
import sys
import tempfile
import warnings

import numpy as np

from pftest import check, finish, run  # noqa: E402

try:
    import gemmi
    from Bio import BiopythonWarning
    from Bio.PDB import MMCIFParser, PDBParser
except ImportError as e:  # setup.sh installs both: a missing one is a failure, not a skip
    check(False, "imports", f"{e} (run ./setup.sh)")
    finish()



T = tempfile.mkdtemp(prefix="pf_pstruct_")
atexit.register(shutil.rmtree, T, True)
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "2", "--set", "val_every=0",
              "--set", "structure_module=1", "--out", f"{T}/sm", "--quiet")
check(rc == 0, "tiny checkpoint with the structure module", out[-300:])
SEQ = "MVLSEGEWQLVLHVWAKVEADVAGHGQDILIRLFKSHPETLEKFDRFKHLKTEAEMKASEDLKKAGVTVL"
open(f"{T}/q.fasta", "w").write(">q\n" + SEQ + "\n")
JOB = {"dialect": "alphafold3", "version": 3, "name": "two chains", "modelSeeds": [1], "sequences": [
    {"protein": {"id": "H", "sequence": SEQ[:30], "unpairedMsa": f">q\n{SEQ[:30]}\n", "pairedMsa": ""}},
    {"protein": {"id": "L", "sequence": "GSHMKLLVG", "unpairedMsa": ">q\nGSHMKLLVG\n"}}]}
json.dump(JOB, open(f"{T}/job.json", "w"))


# Heavy atoms of each residue (PDB names) and its covalent bonds beyond the backbone's
# N-CA, CA-C, C-O (with their usual lengths, A).
SC = {
    "A": "CB", "R": "CB CG CD NE CZ NH1 NH2", "N": "CB CG OD1 ND2", "D": "CB CG OD1 OD2", "C": "CB SG",
    "Q": "CB CG CD OE1 NE2", "E": "CB CG CD OE1 OE2", "G": "", "H": "CB CG ND1 CD2 CE1 NE2", "I": "CB CG1 CG2 CD1",
    "L": "CB CG CD1 CD2", "K": "CB CG CD CE NZ", "M": "CB CG SD CE", "F": "CB CG CD1 CD2 CE1 CE2 CZ",
    "P": "CB CG CD", "S": "CB OG", "T": "CB OG1 CG2", "W": "CB CG CD1 CD2 NE1 CE2 CE3 CZ2 CZ3 CH2",
    "Y": "CB CG CD1 CD2 CE1 CE2 CZ OH", "V": "CB CG1 CG2"}
BONDS = {
    "R": "CB-CG CG-CD CD-NE NE-CZ CZ-NH1 CZ-NH2", "N": "CB-CG CG-OD1 CG-ND2", "D": "CB-CG CG-OD1 CG-OD2",
    "C": "CB-SG", "Q": "CB-CG CG-CD CD-OE1 CD-NE2", "E": "CB-CG CG-CD CD-OE1 CD-OE2",
    "H": "CB-CG CG-ND1 CG-CD2 ND1-CE1 CD2-NE2 CE1-NE2", "I": "CB-CG1 CB-CG2 CG1-CD1", "L": "CB-CG CG-CD1 CG-CD2",
    "K": "CB-CG CG-CD CD-CE CE-NZ", "M": "CB-CG CG-SD SD-CE", "F": "CB-CG CG-CD1 CG-CD2 CD1-CE1 CD2-CE2 CE1-CZ CE2-CZ",
    "P": "CB-CG CG-CD", "S": "CB-OG", "T": "CB-OG1 CB-CG2",
    "W": "CB-CG CG-CD1 CG-CD2 CD1-NE1 NE1-CE2 CD2-CE2 CD2-CE3 CE2-CZ2 CE3-CZ3 CZ2-CH2 CZ3-CH2",
    "Y": "CB-CG CG-CD1 CG-CD2 CD1-CE1 CD2-CE2 CE1-CZ CE2-CZ CZ-OH", "V": "CB-CG1 CB-CG2"}
# Proline's ring closure CD-N holds only for proline-like chi1 / chi2, which an untrained
# model does not predict (test_unit_structure places 1CTF's and 1UBI's prolines from their
# true torsions); it is not a bond of the tree the atoms are placed along.
# usual lengths by the element pair and bond kind (Engh & Huber ranges, rounded)
LENGTH = {"CC": (1.37, 1.54), "CN": (1.31, 1.50), "CO": (1.23, 1.43), "CS": (1.80, 1.82), "NC": (1.31, 1.50)}


def residue_problems(aa, r):
    """Atom names, elements and bond lengths of one residue; [] when right."""
    want = {"N", "CA", "C", "O"} | set(SC.get(aa, "CB").split())
    names = {a.name for a in r}
    if names != want:
        return [f"atoms {sorted(names)} want {sorted(want)}"]
    x = {a.name: np.array(a.pos.tolist()) for a in r}
    el = {a.name: a.element.name for a in r}
    bad = [f"element {n} {e}" for n, e in el.items() if e != n[0]]
    bonds = [b.split("-") for b in ("N-CA CA-C C-O" + (" CA-CB " if "CB" in want else " ") + BONDS.get(aa, "")).split()]
    for a, b in bonds:
        d = np.linalg.norm(x[a] - x[b])
        lo, hi = LENGTH[el[a] + el[b]] if el[a] + el[b] in LENGTH else LENGTH[el[b] + el[a]]
        if not (1.2 <= d <= 1.9 and lo - 0.05 <= d <= hi + 0.05):
            bad.append(f"bond {a}-{b} {d:.3f}")
    # atoms 2 or 3 bonds apart are at least 2.1 A apart whatever the torsions (farther
    # pairs can clash when an untrained model predicts the chi angles)
    nb = {a: set() for a in x}
    for a, b in bonds:
        nb[a].add(b), nb[b].add(a)
    for a in sorted(x):
        near = {c for b in nb[a] for c in nb[b]} | {d for b in nb[a] for c in nb[b] for d in nb[c]}
        for b in sorted(near - nb[a] - {a}):
            if a < b and np.linalg.norm(x[a] - x[b]) < 2.1:
                bad.append(f"atoms {a}-{b} 2-3 bonds apart at {np.linalg.norm(x[a] - x[b]):.3f}")
    return bad


def parse_quietly(parser, path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", BiopythonWarning)
        return parser.get_structure("m", path)


def check_model(stem, chains, label):
    """chains: {id: sequence}. The .cif, .pdb and _confidence.json of one prediction."""
    ok = all(os.path.exists(stem + e) for e in (".cif", ".pdb", "_confidence.json"))
    check(ok, f"{label}: .cif, .pdb and _confidence.json written", stem)
    if not ok:
        return
    conf = json.load(open(stem + "_confidence.json"))
    pl, pae = np.array(conf["plddt"]), np.array(conf["pae"])
    n = sum(len(s) for s in chains.values())
    check(pl.shape == (n,) and pae.shape == (n, n), f"{label}: pLDDT (N) and PAE (N, N)", f"{pl.shape} {pae.shape}")
    check(np.all((pl >= 0) & (pl <= 100)) and abs(conf["mean_plddt"] - pl.mean()) < 0.011, f"{label}: pLDDT in [0, 100], mean")
    check(np.all((pae >= 0) & (pae <= 31.76)) and 0 <= conf["ptm"] <= 1 and abs(conf["max_pae"] - pae.max()) < 0.011,
          f"{label}: PAE in [0, 31.75], pTM in [0, 1]", f"{pae.min()} {pae.max()} {conf['ptm']}")
    for fmt, parser in ((".cif", MMCIFParser(QUIET=False)), (".pdb", PDBParser(QUIET=False))):
        try:
            bs = parse_quietly(parser, stem + fmt)
            check(sorted(c.id for c in bs[0]) == sorted(chains), f"{label}{fmt}: Biopython reads the chains")
        except Exception as e:  # noqa: BLE001
            check(False, f"{label}{fmt}: Biopython parses without warnings", str(e))
        st = gemmi.read_structure(stem + fmt)
        k = 0
        for ch in st[0]:
            seq = chains.get(ch.name, "")
            check(len(ch) == len(seq), f"{label}{fmt}: chain {ch.name} has every residue", f"{len(ch)} vs {len(seq)}")
            for i, r in enumerate(ch):
                bad = residue_problems(seq[i], r)
                b_ok = all(abs(a.b_iso - pl[k]) < 0.006 for a in r)
                if bad or not (b_ok and r.seqid.num == i + 1 and gemmi.find_tabulated_residue(r.name).one_letter_code.upper() == seq[i]):
                    check(False, f"{label}{fmt}: chain {ch.name} residue {i + 1} {r.name}",
                          f"{bad[:4]}, b {[a.b_iso for a in r][:1]} vs {pl[k]:.2f}, number {r.seqid.num}")
                    return
                k += 1
        check(k == n, f"{label}{fmt}: heavy atoms, elements, bond lengths, numbering, names and B-factors of all {n} residues",
              str(k))
        seen = {r.name for ch in st[0] for r in ch}
        check(len(seen) >= min(20, len(set("".join(chains.values())))), f"{label}{fmt}: residue types", str(sorted(seen)))


rc, out = run("predict", "--ckpt", f"{T}/sm", "--msa", f"{T}/q.fasta", "--out", f"{T}/q.safetensors")
check(rc == 0 and "q.cif" in out and "mean pLDDT" in out, "predict names the structure files", out[-400:])
check_model(f"{T}/q", {"A": SEQ}, "one chain")
# every residue type once (and a disulfide-free cysteine, a proline after a glycine)
ALL20 = "MACDEFGHIKLMNPQRSTVWYGPW"
open(f"{T}/all20.fasta", "w").write(">all20\n" + ALL20 + "\n")
rc, out = run("predict", "--ckpt", f"{T}/sm", "--msa", f"{T}/all20.fasta", "--out", f"{T}/all20.safetensors")
check(rc == 0, "predict the 20 residue types", out[-300:])
check_model(f"{T}/all20", {"A": ALL20}, "20 residue types")
rc, out = run("predict", "--ckpt", f"{T}/sm", "--json", f"{T}/job.json", "--out", f"{T}/af3")
check(rc == 0, "predict --json (two chains)", out[-300:])
check_model(f"{T}/af3/two_chains", {"H": SEQ[:30], "L": "GSHMKLLVG"}, "two chains")

# a checkpoint without the module: the distogram only
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "1", "--set", "val_every=0", "--out",
              f"{T}/plain", "--quiet")
rc2, out2 = run("predict", "--ckpt", f"{T}/plain", "--msa", f"{T}/q.fasta", "--out", f"{T}/p.safetensors")
check(rc == 0 and rc2 == 0 and os.path.exists(f"{T}/p.safetensors") and not os.path.exists(f"{T}/p.cif")
      and not os.path.exists(f"{T}/p_confidence.json"), "no structure module: no structure files", out2[-300:])
finish()
