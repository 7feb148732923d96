"""src/backend/residue_geometry.c is what tools/gen_residue_geometry.py writes from the
structures in ../shared/data: regenerated here into a temporary file, it must be
byte-identical (the table is reproducible and nobody edited it by hand). The
generator's own reconstruction check (--check: every measured residue rebuilt from
its true frame and torsions) must report a worst per-atom-type RMSD below 0.8 A.
Without ../shared/data beside the repository the comparison is skipped (said on
stdout). Prints failures only and "N passed, M failed"."""
import os
import subprocess
import sys
import tempfile

from pftest import check, finish

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "..", "shared", "data")
if not os.path.isdir(os.path.join(DATA, "structures")):
    print(f"skip: {DATA} not found (the geometry table is measured on ../shared/data)")
    finish()
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "residue_geometry.c")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_residue_geometry.py"), "--data", DATA,
                        "--out", out, "--check"], capture_output=True, text=True)
    check(p.returncode == 0, "generator runs", p.stderr[-500:])
    if p.returncode == 0:
        same = open(out).read() == open(os.path.join(ROOT, "src", "backend", "residue_geometry.c")).read()
        check(same, "src/backend/residue_geometry.c is the generator's output", "rerun tools/gen_residue_geometry.py")
        worst = [float(l.split()[3]) for l in p.stdout.splitlines() if l.startswith("worst per-atom RMSD")]
        check(len(worst) == 1 and worst[0] < 0.8, "reconstruction of the measured residues", str(worst))
finish()
