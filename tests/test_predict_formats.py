"""test_predict_formats: `pairfold predict --formats rr,csv,npz,png`: the contacts as CASP
RR and CSV (1-based residue numbers, chain ids), the distogram in AlphaFold 3's
distogram.npz layout, loaded with numpy and checked against the safetensors output,
and the maps as a PNG;
one chain (A3M) and three chains (AlphaFold 3 JSON); bad options are clear errors."""
import atexit
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from safetensors.numpy import load_file

from pftest import check, ENV, finish, PF, ROOT, run  # noqa: E402



T = tempfile.mkdtemp(prefix="pf_formats_")
atexit.register(shutil.rmtree, T, True)
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "2", "--set", "val_every=0", "--out",
              f"{T}/run", "--quiet")
check(rc == 0, "tiny checkpoint", out[-300:])
# small queries keep the test fast: 70 residues of 102M (one chain), and a 30-residue
# homodimer with an 8-residue peptide (three chains)
SEQ = "MVLSEGEWQLVLHVWAKVEADVAGHGQDILIRLFKSHPETLEKFDRFKHLKTEAEMKASEDLKKAGVTVL"
MSA = f"{T}/q70.fasta"
open(MSA, "w").write(">q70\n" + SEQ + "\n")
JOB = {"dialect": "alphafold3", "version": 3, "name": "dimer peptide", "modelSeeds": [1], "sequences": [
    {"protein": {"id": ["A", "B"], "sequence": SEQ[:30], "unpairedMsa": f">q\n{SEQ[:30]}\n", "pairedMsa": ""}},
    {"protein": {"id": "C", "sequence": "GSHMKLLV", "unpairedMsa": ">q\nGSHMKLLV\n>h\nGSHMRLLV\n"}}]}
json.dump(JOB, open(f"{T}/job.json", "w"))
rc, out = run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/q.safetensors", "--formats", "rr,csv,npz",
              "--contacts-top", "50")
check(rc == 0 and "q.distogram.npz" in out and "q.rr" in out and "q.contacts.csv" in out,
      "predict --formats rr,csv,npz names the files it writes", out[-400:])
st = load_file(f"{T}/q.safetensors")
N = st["query"].shape[0]
contact, expected = st["contact_probability_8A"], st["expected_distance"]
seq = "".join("ARNDCQEGHILKMFPSTWYVX"[min(a, 20)] for a in st["query"])

# ---- npz: AlphaFold 3's key, numpy loads it ----
z = np.load(f"{T}/q.distogram.npz")
check("distogram" in z.files and z["distogram"].shape == (N, N, 64) and z["distogram"].dtype == np.float32,
      "npz: key 'distogram' (N, N, 64) float32", str(z.files))
check(np.array_equal(z["distogram"], st["distogram_probs"]), "npz distogram = the safetensors probabilities")
check(np.abs(z["distogram"].sum(-1) - 1).max() < 1e-4, "npz: probabilities sum to 1")
check(np.array_equal(z["bin_edges"], st["bin_edges"]) and np.array_equal(z["contact_probs"], contact)
      and np.array_equal(z["residue_index"], st["residue_index"]), "npz: bin_edges, contact_probs, residue_index")

# ---- CASP RR, one chain ----
lines = open(f"{T}/q.rr").read().splitlines()
check(lines[:3] == ["PFRMAT RR", "TARGET q", "AUTHOR pairfold"] and lines[-1] == "END", "RR: header and END",
      str(lines[:4]))
mi = lines.index("MODEL  1") if "MODEL  1" in lines else -1
seq_lines = [l for l in lines[mi + 1:-1] if l.isalpha()]
check(mi > 0 and "".join(seq_lines) == seq and all(len(l) <= 50 for l in seq_lines), "RR: sequence, 50 per line")
rows = [l.split() for l in lines[mi + 1:-1] if not l.isalpha()]
ok = len(rows) == 50 and all(len(r) == 5 and r[2:4] == ["0", "8"] for r in rows)
ij = [(int(r[0]), int(r[1]), float(r[4])) for r in rows] if ok else []
ok = ok and all(1 <= i < j <= N and j - i >= 6 for i, j, _ in ij)
check(ok, "RR: 50 lines 'i j 0 8 p', 1-based, i < j, |i - j| >= 6", str(rows[:2]))
check(ok and all(abs(p - contact[i - 1, j - 1]) < 1e-5 for i, j, p in ij), "RR: p = P(d < 8 A) of that pair")
check(ok and all(a[2] >= b[2] for a, b in zip(ij, ij[1:])), "RR: most likely first")
mask = np.triu(np.ones((N, N), bool), 6)
check(ok and abs(ij[0][2] - contact[mask].max()) < 1e-5, "RR: the first is the most likely pair")

# ---- CSV, one chain ----
rows = list(csv.DictReader(open(f"{T}/q.contacts.csv")))
check(len(rows) == 50 and list(rows[0]) == ["chain_i", "residue_i", "aa_i", "chain_j", "residue_j", "aa_j",
                                            "probability", "expected_distance"], "CSV: header and 50 rows")
ok = all(r["chain_i"] == "A" == r["chain_j"] and seq[int(r["residue_i"]) - 1] == r["aa_i"]
         and seq[int(r["residue_j"]) - 1] == r["aa_j"] for r in rows)
check(ok, "CSV: chain ids, 1-based residues (amino acids agree with the sequence)")
ok = all(abs(float(r["probability"]) - contact[int(r["residue_i"]) - 1, int(r["residue_j"]) - 1]) < 1e-5
         and abs(float(r["expected_distance"]) - expected[int(r["residue_i"]) - 1, int(r["residue_j"]) - 1]) < 1e-3
         for r in rows)
check(ok, "CSV: probability and expected distance of that pair")
# without --contacts-top: every pair with P >= 0.01 (at most 10 N)
run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/all.safetensors", "--formats", "csv")
rows = list(csv.DictReader(open(f"{T}/all.contacts.csv")))
want = min(int((contact[mask] >= 0.01).sum()), 10 * N)
check(len(rows) == want and not os.path.exists(f"{T}/all.rr"), "CSV default: pairs with P >= 0.01; only the formats asked",
      f"{len(rows)} vs {want}")

# ---- three chains (AlphaFold 3 JSON: A, B homodimer + C peptide) ----
rc, out = run("predict", "--ckpt", f"{T}/run", "--json", f"{T}/job.json", "--out", f"{T}/af3",
              "--formats", "rr,csv", "--contacts-top", "400")
stem = f"{T}/af3/dimer_peptide"
check(rc == 0 and os.path.exists(stem + ".rr") and os.path.exists(stem + ".contacts.csv"), "predict --json --formats",
      out[-300:])
d = load_file(stem + ".safetensors")
ci, ri, c3 = d["chain_index"], d["residue_index"], d["contact_probability_8A"]
rows = list(csv.DictReader(open(stem + ".contacts.csv")))
chains = {r["chain_i"] for r in rows} | {r["chain_j"] for r in rows}
check(chains <= {"A", "B", "C"} and len(chains) >= 2 and any(r["chain_i"] != r["chain_j"] for r in rows),
      "CSV, 3 chains: chain ids A/B/C, pairs across chains", str(chains))
name = {0: "A", 1: "B", 2: "C"}
tok = {(name[int(c)], int(r) + 1): k for k, (c, r) in enumerate(zip(ci, ri))}
ok = all((r["chain_i"], int(r["residue_i"])) in tok and (r["chain_j"], int(r["residue_j"])) in tok for r in rows)
ok = ok and all(abs(float(r["probability"]) - c3[tok[r["chain_i"], int(r["residue_i"])], tok[r["chain_j"], int(r["residue_j"])]]) < 1e-5
                for r in rows)
check(ok and max(int(r["residue_i"]) for r in rows if r["chain_i"] == "C") <= 8 if any(r["chain_i"] == "C" for r in rows) else ok,
      "CSV, 3 chains: residues numbered from 1 within each chain")
rr = [l.split() for l in open(stem + ".rr").read().splitlines() if l[:1] in "ABC" and len(l.split()) == 5]
check(len(rr) == 400 and all(r[0][0] in "ABC" and r[0][1:].isdigit() and r[1][0] in "ABC" for r in rr),
      "RR, 3 chains: residues written CHAIN + number", str(rr[:2]))

# ---- png: the maps, drawn by `pairfold plot` in a child process ----
rc, out = run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/g.safetensors", "--formats", "png")
ok = rc == 0 and os.path.exists(f"{T}/g.png")
if ok:
    import matplotlib.image as mpimg
    img = mpimg.imread(f"{T}/g.png")
    ok = img.shape[:2] == (550, 1200) and float((img[..., :3].min(-1) < 0.9).mean()) > 0.1
check(ok, "predict --formats png: the contact / distance maps (1200x550, not blank)", out[-300:])
env = dict(ENV, PAIRFOLD_PLOT=f"{T}/no_plot.py")
r = subprocess.run([PF, "predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/h.safetensors", "--formats",
                    "png"], cwd=ROOT, env=env, capture_output=True, text=True)
check(r.returncode == 1 and "no_plot.py" in r.stderr and "--formats png" in r.stderr and os.path.exists(f"{T}/h.safetensors"),
      "predict --formats png without the plot script: exit 1, said why, prediction kept", r.stderr[-300:])

# ---- bad options ----
rc, out = run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/x.safetensors", "--formats", "rr,pdf")
check(rc == 2 and "unknown format 'pdf'" in out, "--formats with an unknown format", out[-200:])
rc, out = run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/x.safetensors", "--contacts-top", "-3")
check(rc == 2 and "--contacts-top" in out, "--contacts-top -3", out[-200:])
rc, out = run("predict", "--ckpt", f"{T}/run", "--msa", MSA, "--out", f"{T}/nodir/x.safetensors", "--formats", "npz")
check(rc != 0 and "nodir" in out, "an unwritable output is an error naming it", out[-200:])

finish()
