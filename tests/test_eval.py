"""pairfold eval: a structure-module checkpoint scored on the bundled set's held-out
entries (the batches validation uses): one row per entry and the mean, the same numbers
in --json, values in range (lDDT-Ca and TM-score in [0, 1], RMSD >= 0), the same bits
on a second run; refused with a message: a checkpoint without the structure module, a
missing cache, a bad --entries. Prints failures only and "N passed, M failed"."""
import atexit
import json
import shutil
import tempfile

from pftest import check, finish, run  # noqa: E402



T = tempfile.mkdtemp(prefix="pf_eval_")
atexit.register(shutil.rmtree, T, True)
rc, out = run("train", "--preset", "tiny", "--set", "structure_module=1", "--steps", "2", "--set", "val_every=0",
              "--out", f"{T}/sm", "--quiet")
check(rc == 0, "tiny checkpoint with the structure module", out[-300:])
rc, out = run("eval", "--ckpt", f"{T}/sm", "--entries", "3", "--json", f"{T}/e.json")
check(rc == 0, "eval --entries 3 --json", out[-400:])
if rc == 0:
    rows = [l.split() for l in out.splitlines() if len(l.split()) == 6 and l.split()[0] not in ("entry", "mean")]
    mean = [l.split() for l in out.splitlines() if l.startswith("mean")]
    j = json.load(open(f"{T}/e.json"))
    e = j["entries"]
    check(len(rows) == 3 and len(e) == 3 and len(mean) == 1, "three rows and a mean", out[-300:])
    ok = all(r[0] == x["name"] and int(r[1]) == x["n_res"] and abs(float(r[3]) - x["lddt_ca"]) < 1e-4
             and abs(float(r[4]) - x["rmsd_ca"]) < 1e-3 and abs(float(r[5]) - x["tm_score"]) < 1e-4 for r, x in zip(rows, e))
    check(ok, "the JSON holds the printed numbers", json.dumps(e)[:300])
    check(all(0 <= x["lddt_ca"] <= 1 and x["rmsd_ca"] >= 0 and 0 <= x["tm_score"] <= 1 and 0 < x["n_true"] <= x["n_res"]
              for x in e), "values in range")
    m = j["mean"]
    check(all(abs(m[k] - sum(x[k] for x in e) / 3) < 2e-4 for k in ("lddt_ca", "rmsd_ca", "tm_score")), "mean of the rows",
          f"{m} vs {e}")
    rc2, _ = run("eval", "--ckpt", f"{T}/sm", "--entries", "3", "--json", f"{T}/e2.json")
    check(rc2 == 0 and open(f"{T}/e.json").read() == open(f"{T}/e2.json").read(), "the same numbers on a second run")
rc, out = run("train", "--preset", "tiny", "--steps", "1", "--set", "val_every=0", "--out", f"{T}/plain", "--quiet")
rc, out = run("eval", "--ckpt", f"{T}/plain")
check(rc == 1 and "no structure module" in out, "a checkpoint without the structure module is refused", out[-200:])
rc, out = run("eval", "--ckpt", f"{T}/sm", f"{T}/missing.pfc")
check(rc == 1 and "missing.pfc" in out, "a missing cache is named", out[-200:])
rc, out = run("eval", "--ckpt", f"{T}/sm", "--entries", "0")
check(rc == 2 and "--entries" in out, "--entries 0 refused", out[-200:])
finish()
