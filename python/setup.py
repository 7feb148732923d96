"""Build hook of the pairfold Python package: bundle libpairfold.so.

`pip install ./python` (from the repository root) runs `make lib` in the repository
when libpairfold.so is missing or older than the sources, then copies the library
into the package, so the installed package works without the repository. Set
PAIRFOLD_LIB to a library to bundle that one instead (nothing is built then)."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def library():
    given = os.environ.get("PAIRFOLD_LIB")
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"PAIRFOLD_LIB={given}: no such file")
        return given
    if not os.path.isfile(os.path.join(REPO, "Makefile")):
        raise SystemExit(f"{REPO}: not a pairfold repository (no Makefile) and PAIRFOLD_LIB not set")
    # make decides whether anything is out of date
    subprocess.run(["make", "-C", REPO, "lib"], check=True)
    return os.path.join(REPO, "libpairfold.so")


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        dest = os.path.join(self.build_lib, "pairfold")
        os.makedirs(dest, exist_ok=True)
        shutil.copy2(library(), os.path.join(dest, "libpairfold.so"))


class BinaryDistribution(Distribution):
    """The wheel carries a compiled library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
