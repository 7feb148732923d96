"""pftest.py: what the Python tests share (the counterpart of testlib.h): the repository
root, the pairfold binary, an environment with one OpenMP thread unless the caller set
it, check() which prints only failures, run() of the pairfold binary, and the verdict line "N passed, M failed"."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PF = os.path.join(ROOT, "pairfold")
ENV = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
_count = {"passed": 0, "failed": 0}


def check(ok, name, detail=""):
    """Counts one check; prints it only when it fails."""
    if ok:
        _count["passed"] += 1
    else:
        _count["failed"] += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))
    return ok


def run(*args):
    """pairfold ARGS... from the repository root: (exit status, stdout + stderr)."""
    r = subprocess.run([PF, *args], cwd=ROOT, env=ENV, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def raises(fn, exc, text):
    """True when fn() raises exc with text in its message."""
    try:
        fn()
    except exc as e:
        return text in str(e)
    return False


def verdict():
    """Prints the verdict line; returns the exit status (1 on any failure)."""
    print(f"{_count['passed']} passed, {_count['failed']} failed")
    return 1 if _count["failed"] else 0


def finish():
    sys.exit(verdict())
