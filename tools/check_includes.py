#!/usr/bin/env python3
"""The include graph of src/ follows the layers: a file may include headers of
its own folder and of folders in lower layers, never of a folder in a higher (or
another same-level) layer. Prints every violation and one verdict line; exit
status 1 on any violation. Usage: tools/check_includes.py [ROOT]"""
import os
import re
import sys

# Lowest first. Folders of one level (cpu, cuda: the two backends) may not
# include each other. A new folder under src/ must be placed here.
LAYERS = [
    ["core"],              # utilities, RNG, the `real` type
    ["backend"],           # the backend interface (backend.h, modules.h) and the device descriptor
    ["cpu", "cuda"],       # the backends
    ["registry"],          # backends by device: the one place that knows every backend
    ["data"],              # readers, preparation / cache, sampler, batches
    ["eval"],              # structure comparison: superposition, lDDT-Ca, TM-score, scoring two structures
    ["model"],             # configuration, parameters, blocks, the network, staging, distogram head
    ["optim"],             # AdamW, schedules, weight EMA
    ["format"],            # file formats: safetensors, checkpoints
    ["train"],             # sources, data parallelism, the training loop
    ["cli", "api"],        # the pairfold command; the C API of libpairfold.so (src/api/pairfold.h)
]
LEVEL = {f: i for i, fs in enumerate(LAYERS) for f in fs}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    src = os.path.join(root, "src")
    bad = []
    files = 0
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in LEVEL:
            bad.append(f"src/{folder}/: folder not placed in a layer (tools/check_includes.py LAYERS)")
            continue
        for name in sorted(os.listdir(path)):
            if not re.search(r"\.(c|h|cu|cuh)$", name):
                continue
            files += 1
            with open(os.path.join(path, name), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = os.path.normpath(os.path.join(path, m.group(1)))
                    rel = os.path.relpath(target, src)
                    parts = rel.split(os.sep)
                    where = f"src/{folder}/{name}:{lineno}"
                    if len(parts) < 2 or parts[0] == "..":
                        bad.append(f"{where}: includes {m.group(1)}, outside src/")
                        continue
                    to = parts[0]
                    if to == folder:
                        continue
                    if to not in LEVEL:
                        bad.append(f"{where}: includes {m.group(1)} in unplaced folder src/{to}")
                    elif LEVEL[to] >= LEVEL[folder]:
                        bad.append(f"{where}: {folder} (layer {LEVEL[folder]}) includes {rel} "
                                   f"({to}, layer {LEVEL[to]})")
    for b in bad:
        print("FAIL " + b)
    print(f"include layers: {files} files checked, {len(bad)} violation{'s' if len(bad) != 1 else ''}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
