"""predict with a structure module (structure_module = 1): beside the distogram it writes
OUT.cif, OUT.pdb (backbone atoms N, CA, C, O, CB from the predicted frames, pLDDT in the
B-factors) and OUT_confidence.json (pLDDT, PAE, pTM). Checked: both files parse with gemmi
and Biopython without warnings, every residue has its atoms (no CB for glycine) with ideal
bond lengths, residues numbered from 1 per chain with the AlphaFold 3 JSON's chain ids,
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
                want = {"N", "CA", "C", "O"} | (set() if seq[i] == "G" else {"CB"})
                names = {a.name for a in r}
                x = {a.name: np.array(a.pos.tolist()) for a in r}
                bonds_ok = names == want and abs(np.linalg.norm(x["N"] - x["CA"]) - 1.460) < 0.01 and \
                    abs(np.linalg.norm(x["CA"] - x["C"]) - 1.526) < 0.01 and abs(np.linalg.norm(x["C"] - x["O"]) - 1.233) < 0.01 and \
                    ("CB" not in x or abs(np.linalg.norm(x["CA"] - x["CB"]) - 1.53) < 0.02)
                b_ok = all(abs(a.b_iso - pl[k]) < 0.006 for a in r)
                if not (bonds_ok and b_ok and r.seqid.num == i + 1 and gemmi.find_tabulated_residue(r.name).one_letter_code.upper() == seq[i]):
                    check(False, f"{label}{fmt}: chain {ch.name} residue {i + 1}",
                          f"atoms {sorted(names)}, b {[a.b_iso for a in r][:1]} vs {pl[k]:.2f}, number {r.seqid.num}, {r.name}")
                    return
                k += 1
        check(k == n, f"{label}{fmt}: atoms, bond lengths, numbering, names and B-factors of all {n} residues", str(k))


rc, out = run("predict", "--ckpt", f"{T}/sm", "--msa", f"{T}/q.fasta", "--out", f"{T}/q.safetensors")
check(rc == 0 and "q.cif" in out and "mean pLDDT" in out, "predict names the structure files", out[-400:])
check_model(f"{T}/q", {"A": SEQ}, "one chain")
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
