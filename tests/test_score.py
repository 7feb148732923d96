#!/usr/bin/env python3
"""`pairfold score` against an independent NumPy implementation, and the files
pairfold writes against gemmi and Biopython.

Real structures from data/structures are rewritten by `pairfold convert`
(the mmCIF/PDB writer) as the true structures; rotated, translated, noised,
partly shifted, hinged or truncated copies (made here with gemmi and NumPy,
with a made-up pLDDT per residue in the B-factor) are rewritten by `pairfold
convert` as the predictions. For every pair, lDDT-Ca and TM-score per chain and
overall must agree with the NumPy code below to 1e-4 (CA RMSD to 1e-3), reading
the same files with gemmi. Every file pairfold wrote must parse with gemmi and
with Biopython (warnings are failures) and hold every atom of the file it was
made from, with the pLDDT in the B-factor column. Bad inputs must fail with a
message. gemmi and Biopython are installed by setup.sh; missing, the test fails.
Prints failures only and ends with "N passed, M failed"."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from pftest import check, finish, verdict  # noqa: E402
PAIRFOLD = os.path.join(ROOT, "pairfold")
DATA = os.path.join(ROOT, "data", "structures")


try:
    import gemmi
    from Bio import BiopythonWarning
    from Bio.PDB import MMCIFParser, PDBParser
except ImportError as e:  # setup.sh installs both: a missing one is a failure, not a skip
    check(False, "imports", f"{e} (run ./setup.sh)")
    finish()


# ---- reference implementation (NumPy) ---------------------------------------

def kabsch(x, y):
    """R, t minimising |R x + t - y| (SVD, proper rotation)."""
    cx, cy = x.mean(0), y.mean(0)
    u, _, vt = np.linalg.svd((x - cx).T @ (y - cy))
    d = np.sign(np.linalg.det(vt.T @ u.T))
    r = vt.T @ np.diag([1.0, 1.0, d]) @ u.T
    return r, cy - r @ cx


def lddt_ca(pred, true, pred_mask):
    """AF2's lddt (alphafold/model/lddt.py) with a predicted-residue mask."""
    dt = np.sqrt(1e-10 + ((true[:, None] - true[None]) ** 2).sum(-1))
    dp = np.sqrt(1e-10 + ((pred[:, None] - pred[None]) ** 2).sum(-1))
    score_pairs = (dt < 15.0) * (1.0 - np.eye(len(true)))
    l1 = np.abs(dt - dp)
    s = 0.25 * ((l1 < 0.5).astype(float) + (l1 < 1.0) + (l1 < 2.0) + (l1 < 4.0))
    s = s * pred_mask[:, None] * pred_mask[None, :]
    return (1e-10 + (score_pairs * s).sum()) / (1e-10 + score_pairs.sum())


def tm_score(p, t, l_norm):
    """The TMscore program's search (Zhang & Skolnick 2004) on aligned p, t."""
    n = len(p)
    d0 = 1.24 * np.cbrt(l_norm - 15) - 1.8 if l_norm > 15 else 0.5
    d0 = max(d0, 0.5)
    d0s = min(max(d0, 4.5), 8.0)

    def score_fun(r, tr, d):
        dist = np.linalg.norm(p @ r.T + tr - t, axis=1)
        score = np.sum(1.0 / (1.0 + (dist / d0) ** 2)) / l_norm
        while True:
            cut = np.nonzero(dist < d)[0]
            if len(cut) >= 3 or n <= 3:
                return cut, score
            d += 0.5

    lmin = min(n, 4)
    lens = []
    for i in range(5):
        lens.append(n // 2 ** i)
        if lens[-1] <= lmin:
            lens[-1] = lmin
            break
    else:
        lens.append(lmin)
    best = -1.0
    for frag in lens:
        for s in range(n - frag + 1):
            r, tr = kabsch(p[s:s + frag], t[s:s + frag])
            cut, sc = score_fun(r, tr, d0s - 1)
            best = max(best, sc)
            for _ in range(20):
                if len(cut) == 0:
                    break
                used = cut
                r, tr = kabsch(p[used], t[used])
                cut, sc = score_fun(r, tr, d0s + 1)
                best = max(best, sc)
                if len(cut) == len(used) and np.array_equal(cut, used):
                    break
    return best


def ca_table(path):
    """{chain: [(num, icode, xyz)]} of amino-acid residues with a CA (first model, one conformer)."""
    st = gemmi.read_structure(path)
    st.remove_alternative_conformations()
    out = {}
    for ch in st[0]:
        for res in ch:
            info = gemmi.find_tabulated_residue(res.name)
            ca = res.find_atom("CA", "*")
            if info is None or not info.is_amino_acid() or ca is None:
                continue
            name = ch.name if ch.name.strip() else "_"
            out.setdefault(name, []).append((res.seqid.num, res.seqid.icode, np.array(ca.pos.tolist())))
    return out


def reference_scores(pred_path, true_path):
    pt, tt = ca_table(pred_path), ca_table(true_path)
    rows, allp, allt, allm = {}, [], [], []
    for chain, tres in tt.items():
        pmap = {(n, ic): x for n, ic, x in pt.get(chain, [])}
        t = np.array([x for _, _, x in tres])
        m = np.array([1.0 if (n, ic) in pmap else 0.0 for n, ic, _ in tres])
        p = np.array([pmap.get((n, ic), np.zeros(3)) for n, ic, _ in tres])
        rows[chain] = score_rows(p, t, m)
        allp.append(p), allt.append(t), allm.append(m)
    rows[""] = score_rows(np.concatenate(allp), np.concatenate(allt), np.concatenate(allm))
    return rows


def score_rows(p, t, m):
    c = m > 0
    r, tr = kabsch(p[c], t[c])
    rmsd = np.sqrt((((p[c] @ r.T + tr) - t[c]) ** 2).sum(-1).mean())
    return {"lddt_ca": lddt_ca(p, t, m), "tm_score": tm_score(p[c], t[c], len(t)), "rmsd_ca": rmsd,
            "n_true": len(t), "n_common": int(c.sum())}


# ---- making the pairs ---------------------------------------------------------

def run(*args):
    return subprocess.run([PAIRFOLD, *args], capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))


def random_rotation(rng):
    q = rng.normal(size=4)
    a, b, c, d = q / np.linalg.norm(q)
    return np.array([[a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
                     [2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)],
                     [2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d]])


def perturb(true_cif, out_pdb, kind, rng):
    """A changed copy of true_cif (gemmi writes it; pairfold rewrites it after)."""
    st = gemmi.read_structure(true_cif)
    chain0 = st[0][0]
    n0 = len(chain0)
    if kind == "missing":  # ten residues of the first chain left out of the prediction
        for i in sorted(rng.choice(n0, size=min(10, n0 // 3), replace=False), reverse=True):
            del chain0[int(i)]
    rot, shift = random_rotation(rng), rng.normal(scale=20, size=3)
    noise = {"rigid": 0.0, "noise": 0.4, "segment": 0.5, "hinge": 0.3, "far": 3.0, "missing": 1.0}[kind]
    hinge_at = len(chain0) // 2
    pivot = np.array(chain0[hinge_at].find_atom("CA", "*").pos.tolist())
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    hinge_rot = np.eye(3) + np.sin(0.7) * k + (1 - np.cos(0.7)) * k @ k  # 40 degrees (Rodrigues)
    for ci, ch in enumerate(st[0]):
        for ri, res in enumerate(ch):
            plddt = round(float(rng.uniform(30, 95)), 2)
            for atom in res:
                x = np.array(atom.pos.tolist())
                if kind == "segment" and ci == 0 and 15 <= ri < 35:
                    x = x + np.array([3.0, -4.0, 2.0])
                if kind == "hinge" and ci == 0 and ri >= hinge_at:
                    x = pivot + hinge_rot @ (x - pivot)  # the second half turns as one body
                x = rot @ x + shift + rng.normal(scale=noise, size=3)
                atom.pos = gemmi.Position(*x)
                atom.b_iso = plddt
    st.write_pdb(out_pdb)


def atoms_of(path):
    """[(chain, num, icode, resname, atom, b)] read by gemmi."""
    st = gemmi.read_structure(path)
    return [(ch.name, r.seqid.num, r.seqid.icode, r.name, a.name, round(a.b_iso, 2))
            for ch in st[0] for r in ch for a in r]


def parse_checks(path, want):
    """gemmi and Biopython (warnings as errors) read path; same atoms as want."""
    name = os.path.basename(path)
    try:
        got = atoms_of(path)
        check(got == want, f"{name} gemmi atoms", f"{len(got)} atoms vs {len(want)}; first difference "
              f"{next(((a, b) for a, b in zip(got, want) if a != b), None)}")
        if path.endswith(".cif"):
            gemmi.cif.read(path).sole_block()
    except Exception as e:  # noqa: BLE001 - any parse error is the failure
        check(False, f"{name} gemmi", repr(e))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", BiopythonWarning)
            parser = MMCIFParser(QUIET=False) if path.endswith(".cif") else PDBParser(QUIET=False)
            s = parser.get_structure("x", path)
        bio = [(a.get_parent().get_parent().id, a.get_parent().id[1], a.get_name(), round(a.get_bfactor(), 2))
               for a in s[0].get_atoms()]
        ref = [(c, n, at, b) for c, n, _, _, at, b in want]
        check(bio == ref, f"{name} Biopython atoms", f"{len(bio)} atoms vs {len(ref)}")
    except Exception as e:  # noqa: BLE001
        check(False, f"{name} Biopython", repr(e))


def compare(pred, true, label):
    r = run("score", pred, true, "--json", pred + ".json")
    if r.returncode != 0:
        check(False, label, r.stderr.strip())
        return
    with open(pred + ".json") as f:
        got = json.load(f)
    check(json.loads(r.stdout) == got, f"{label} stdout = --json file")
    ref = reference_scores(pred, true)
    rows = {"": got["overall"], **{c["chain"]: c for c in got["chains"]}}
    check(sorted(rows) == sorted(ref), f"{label} chains", f"{sorted(rows)} vs {sorted(ref)}")
    for chain, want in ref.items():
        have = rows.get(chain)
        if have is None:
            continue
        where = f"{label} chain {chain or 'overall'}"
        for key, tol in (("lddt_ca", 1e-4), ("tm_score", 1e-4), ("rmsd_ca", 1e-3)):
            check(abs(have[key] - want[key]) <= tol, f"{where} {key}", f"pairfold {have[key]:.6f} numpy {want[key]:.6f}")
        check(have["n_true"] == want["n_true"] and have["n_common"] == want["n_common"], f"{where} counts",
              f"{have['n_true']}/{have['n_common']} vs {want['n_true']}/{want['n_common']}")
    return got


def make_pairs(tmp):
    rng = np.random.default_rng(2024)
    proteins = [("102M.cif.gz", ["noise", "hinge", "far", "missing"]), ("1UBI.pdb.gz", ["rigid", "segment", "far"]),
                ("1YCR.pdb.gz", ["noise", "segment"]), ("4I6P.cif.gz", ["hinge", "missing", "far"])]
    n_pairs, spread = 0, []
    for k, (src, kinds) in enumerate(proteins):
        base = src.split(".")[0]
        true_cif, true_pdb = os.path.join(tmp, base + "_true.cif"), os.path.join(tmp, base + "_true.pdb")
        for out in (true_cif, true_pdb):
            r = run("convert", os.path.join(DATA, src), out)
            check(r.returncode == 0, f"convert {src} -> {out}", r.stderr.strip())
        want = atoms_of(true_cif)
        parse_checks(true_cif, want)
        parse_checks(true_pdb, want)
        true_gz = true_cif + ".gz"
        with open(true_cif, "rb") as f, gzip.open(true_gz, "wb") as g:
            shutil.copyfileobj(f, g)
        for j, kind in enumerate(kinds):
            mid = os.path.join(tmp, f"{base}_{kind}_gemmi.pdb")
            perturb(true_cif, mid, kind, rng)
            pred = os.path.join(tmp, f"{base}_{kind}.{'cif' if (j + k) % 2 == 0 else 'pdb'}")
            r = run("convert", mid, pred)
            check(r.returncode == 0, f"convert {mid}", r.stderr.strip())
            parse_checks(pred, atoms_of(mid))  # every atom, pLDDT as B-factor
            # TRUE: the written mmCIF gzipped, the written PDB, or the original file
            true = [true_gz, true_pdb, os.path.join(DATA, src)][j % 3]
            got = compare(pred, true, f"{base} {kind} vs {os.path.basename(true)}")
            n_pairs += 1
            if got:
                spread.append(got["overall"]["tm_score"])
    # residues only in the prediction are ignored: the true 1UBI without its last 6 residues
    st = gemmi.read_structure(os.path.join(tmp, "1UBI_true.cif"))
    for _ in range(6):
        del st[0][0][len(st[0][0]) - 1]
    short = os.path.join(tmp, "1UBI_short.pdb")
    st.write_pdb(short)
    pred = next(os.path.join(tmp, f) for f in sorted(os.listdir(tmp)) if f.startswith("1UBI_segment.") and
                not f.endswith(".json"))
    got = compare(pred, short, "1UBI segment vs 1UBI_short.pdb")
    n_pairs += 1
    check(got is not None and got["overall"]["n_pred"] == got["overall"]["n_common"] + 6, "prediction-only residues",
          f"{got and got['overall']}")
    check(n_pairs >= 10, "pairs", f"{n_pairs} structure pairs")
    # the pairs span good and poor predictions, so agreement is not only at 1.0
    check(spread and min(spread) < 0.6 and max(spread) > 0.95, "score spread", f"TM-scores {spread}")


def bad_inputs(tmp):
    true = os.path.join(tmp, "1UBI_true.cif")
    garbage = os.path.join(tmp, "garbage.pdb")
    with open(garbage, "w") as f:
        f.write("hello\n")
    st = gemmi.read_structure(true)
    renamed, renumbered, offset = (os.path.join(tmp, n) for n in ("renamed.pdb", "renumbered.pdb", "offset.pdb"))
    st[0][0].name = "Z"
    st.write_pdb(renamed)
    st = gemmi.read_structure(true)
    for res in st[0][0]:
        res.seqid.num += 1000
    st.write_pdb(renumbered)
    st = gemmi.read_structure(true)
    for res in st[0][0]:
        res.seqid.num += 1
    st.write_pdb(offset)
    cases = [((os.path.join(tmp, "missing.cif"), true), "missing.cif"), ((garbage, true), "garbage.pdb"),
             ((renamed, true), "chain Z of"), ((renumbered, true), "no residue numbers in common"),
             ((offset, true), "numbering offset"), ((true,), "two structure files")]
    cases.append(((true, true, "--json", os.path.join(tmp, "no-such-dir", "x.json")), "cannot write"))
    for args, want in cases:
        r = run("score", *args)
        check(r.returncode != 0 and want in r.stderr and "error" in r.stderr, f"score error {want}",
              f"rc {r.returncode}: {r.stderr.strip()}")


def main():
    if not os.access(PAIRFOLD, os.X_OK):
        check(False, "pairfold", f"{PAIRFOLD} not built (make)")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            make_pairs(tmp)
            bad_inputs(tmp)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
