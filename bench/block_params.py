"""Names and shapes of a trunk block's parameters, read from `pairfold inspect
--preset ...` (the declarations in src/model/block.c are the one source; the
PyTorch reference bench/torch_blocks.py takes its parameter list from here).
Needs no torch, so it is tested in the CPU build (tests/test_block_params.py)."""
import re
import subprocess

# block kind -> (trunk whose stack holds it, name of that stack)
STACKS = {"pairformer": ("pairformer", "pairformer_stack"), "evoformer": ("evoformer", "evoformer")}

_LINE = re.compile(r"^(\S+)\s+(\w+)\s+\[([0-9, ]*)\]$")


def parse_inspect(text):
    """{name: shape tuple} of every tensor line of `pairfold inspect` output
    ("NAME DTYPE [d0, d1]"); '#' lines are comments. A line of another form
    raises ValueError naming its line number."""
    out = {}
    for no, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"pairfold inspect output line {no}: not 'NAME DTYPE [SHAPE]': {line[:120]!r}")
        dims = [d.strip() for d in m.group(3).split(",") if d.strip()]
        out[m.group(1)] = tuple(int(d) for d in dims)
    return out


def block_shapes(text, kind):
    """{name relative to the block: shape} of block 0 of `kind`'s stack."""
    if kind not in STACKS:
        raise ValueError(f"unknown block kind {kind!r} (known: {', '.join(STACKS)})")
    prefix = STACKS[kind][1] + ".blocks.0."
    shapes = {n[len(prefix):]: s for n, s in parse_inspect(text).items() if n.startswith(prefix)}
    if not shapes:
        raise ValueError(f"no parameters under {prefix!r} in the pairfold inspect output")
    return shapes


def inspect_cmd(kind, dims, pairfold="./pairfold", preset="tiny"):
    """The `pairfold inspect` command line: `preset`, the trunk holding `kind`,
    and every entry of `dims` (config field -> value) as --set."""
    cmd = [pairfold, "inspect", "--preset", preset, "--trunk", STACKS[kind][0]]
    for k, v in dims.items():
        cmd += ["--set", f"{k}={v}"]
    return cmd


def inspect_block_shapes(kind, dims, pairfold="./pairfold", preset="tiny"):
    """Names and shapes of a `kind` block as pairfold declares it with `dims`."""
    if kind not in STACKS:
        raise ValueError(f"unknown block kind {kind!r} (known: {', '.join(STACKS)})")
    r = subprocess.run(inspect_cmd(kind, dims, pairfold, preset), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(inspect_cmd(kind, dims, pairfold, preset))} failed: {r.stderr.strip()[-400:]}")
    return block_shapes(r.stdout, kind)
