"""predict with several seeds (--seeds, or a JSON job's modelSeeds): one model per seed,
each seeing the alignment's rows after the query shuffled by its seed, written as
OUT_seed<S>.*, ranked by mean pLDDT in OUT_ranking.json. Checked: files per seed, the
ranking sorted and equal to each model's confidence file, seeds change the prediction
when the alignment has more rows than the model takes, the same seeds give the same
bytes, one seed = no seed (file order), refusals (duplicate or bad seeds, --seeds
without a structure module). Prints failures only and "N passed, M failed"."""
import atexit
import json
import os
import random
import shutil
import tempfile

from pftest import check, finish, run

T = tempfile.mkdtemp(prefix="pf_seeds_")
atexit.register(shutil.rmtree, T, True)
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "2", "--set", "val_every=0",
              "--set", "structure_module=1", "--out", f"{T}/sm", "--quiet")
check(rc == 0, "tiny checkpoint with the structure module", out[-300:])
rc, out = run("train", "--preset", "tiny", "--data", "synthetic", "--steps", "1", "--set", "val_every=0",
              "--out", f"{T}/dg", "--quiet")
check(rc == 0, "tiny checkpoint without it", out[-300:])

# an alignment of 40 rows (the query and mutated copies) against a model taking 4 + 4
SEQ = "MVLSEGEWQLVLHVWAKVEADVAGHGQDILIRLFKSHPETLEKF"
rnd = random.Random(5)
rows = [SEQ] + ["".join(c if rnd.random() < 0.7 else rnd.choice("ACDEFGHIKLMNPQRSTVWY-") for c in SEQ) for _ in range(39)]
open(f"{T}/q.a3m", "w").write("".join(f">r{i}\n{r}\n" for i, r in enumerate(rows)))
ROWS = ["--set", "msa_rows=4", "--set", "extra_msa_rows=4"]


def predict(ckpt, out, *extra):
    return run("predict", "--ckpt", ckpt, "--msa", f"{T}/q.a3m", "--out", out, *ROWS, *extra)


rc, out = predict(f"{T}/sm", f"{T}/m.safetensors", "--seeds", "3,1,2")
check(rc == 0, "three seeds", out[-400:])
for s in (3, 1, 2):
    for ext in (".safetensors", ".cif", ".pdb", "_confidence.json"):
        check(os.path.exists(f"{T}/m_seed{s}{ext}"), f"seed {s}: {ext} written")
check(not os.path.exists(f"{T}/m.safetensors"), "no unseeded output beside the seeded ones")
rank = json.load(open(f"{T}/m_ranking.json")) if os.path.exists(f"{T}/m_ranking.json") else {"models": []}
ms = rank["models"]
check(rank.get("ranked_by") == "mean_plddt" and [m["rank"] for m in ms] == [1, 2, 3], "ranking: three ranks", str(rank)[:300])
check(sorted(m["seed"] for m in ms) == [1, 2, 3], "ranking: every seed once", str(ms))
check(all(ms[i]["mean_plddt"] >= ms[i + 1]["mean_plddt"] for i in range(len(ms) - 1)), "ranking: by mean pLDDT, highest first")
ties = [m["seed"] for m in ms if m["mean_plddt"] == ms[0]["mean_plddt"]]
check(ties == [s for s in (3, 1, 2) if s in ties], "ranking: ties keep the seeds' order", str(ms))
for m in ms:
    conf = json.load(open(f"{T}/m_seed{m['seed']}_confidence.json"))
    check(abs(conf["mean_plddt"] - m["mean_plddt"]) < 1e-3 and abs(conf["ptm"] - m["ptm"]) < 1e-4,
          f"ranking: seed {m['seed']} matches its confidence file", f"{conf['mean_plddt']} {m['mean_plddt']}")
    check(m["prediction"] == f"m_seed{m['seed']}.safetensors", "ranking names the file", m["prediction"])
blobs = [open(f"{T}/m_seed{s}.safetensors", "rb").read() for s in (1, 2, 3)]
check(len(set(blobs)) >= 2, "seeds change the prediction (40 rows, the model takes 8)")
rc, _ = predict(f"{T}/sm", f"{T}/again.safetensors", "--seeds", "1,2")
check(rc == 0 and open(f"{T}/again_seed1.safetensors", "rb").read() == blobs[0]
      and open(f"{T}/again_seed2.safetensors", "rb").read() == blobs[1], "same seed, same bytes")

rc1, _ = predict(f"{T}/sm", f"{T}/one.safetensors", "--seeds", "9")
rc0, _ = predict(f"{T}/sm", f"{T}/none.safetensors")
check(rc1 == 0 and rc0 == 0 and open(f"{T}/one.safetensors", "rb").read() == open(f"{T}/none.safetensors", "rb").read(),
      "one seed = no seed: one model, rows in file order")

for bad, why in (("1,1", "twice"), ("1,x", "not a non-negative integer"), ("-3", "not a non-negative integer"),
                 ("1,,2", "comma-separated"), (",".join(str(i) for i in range(65)), "at most 64")):
    rc, out = predict(f"{T}/sm", f"{T}/bad.safetensors", "--seeds", bad)
    check(rc != 0 and why in out, f"--seeds {bad[:20]} refused", out[-200:])
rc, out = predict(f"{T}/dg", f"{T}/dg.safetensors", "--seeds", "1,2")
check(rc == 2 and "no structure module" in out, "--seeds without a structure module refused", out[-200:])

JOB = {"dialect": "alphafold3", "version": 3, "name": "job", "modelSeeds": [7, 8], "sequences": [
    {"protein": {"id": "A", "sequence": SEQ, "unpairedMsa": "".join(f">r{i}\n{r}\n" for i, r in enumerate(rows)),
                 "pairedMsa": ""}}]}
json.dump(JOB, open(f"{T}/job.json", "w"))
rc, out = run("predict", "--ckpt", f"{T}/sm", "--json", f"{T}/job.json", "--out", f"{T}/js", *ROWS)
check(rc == 0 and all(os.path.exists(f"{T}/js/job_seed{s}.cif") for s in (7, 8)) and os.path.exists(f"{T}/js/job_ranking.json"),
      "JSON modelSeeds [7, 8]: two ranked models", out[-300:])
rc, out = run("predict", "--ckpt", f"{T}/dg", "--json", f"{T}/job.json", "--out", f"{T}/jd", *ROWS)
check(rc == 0 and os.path.exists(f"{T}/jd/job.safetensors") and "no structure module" in out,
      "JSON modelSeeds without a structure module: one model and a note", out[-300:])
finish()
