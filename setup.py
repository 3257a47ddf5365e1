"""Build script: declares the compiled extension, xiangqi._core (its batch calls, reference
path and RL boundary are xiangqi/_batch.pxi, _reference.pxi and _rl.pxi, included by
_core.pyx: one extension, the kernel compiled once).

All metadata lives in pyproject.toml. Set XIANGQI_ANNOTATE=1 to write the
annotated HTML next to the .pyx (yellow lines are Python interaction), and
XIANGQI_SANITIZE=1 to build with AddressSanitizer and UBSan (see scripts/).

Compiler flags are chosen per compiler family when the build runs (BuildExt below):
gcc and clang get -O3, no debug information (-g0 after Python's own -g), source paths
mapped to "." so the binary does not carry the build directory, and a stripped link
on Linux; MSVC gets /O2. Two builds of the same sources with the same compiler and
SOURCE_DATE_EPOCH therefore give byte-identical wheels.
"""

from __future__ import annotations

import os
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SANITIZE = bool(os.environ.get("XIANGQI_SANITIZE"))


def _accepts(compiler: object, flag: str) -> bool:
    """Whether a gcc/clang-style compiler takes `flag` (compiles an empty file with it)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w") as f:
            f.write("int main(void) { return 0; }\n")
        try:
            compiler.compile([source], output_dir=tmp, extra_postargs=[flag])
        except Exception:
            return False
    return True


class BuildExt(build_ext):
    """build_ext that picks optimisation, debug-info and path flags for the compiler in use."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "msvc":
            compile_args, link_args = ["/O2"], []
        elif "-fsanitize" in os.environ.get("CFLAGS", ""):
            # scripts/fuzz.sh's native builds bring their own flags: keep their symbols.
            compile_args, link_args = [], []
        elif SANITIZE:
            flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
            compile_args = ["-O1", "-g", *flags, "-fno-sanitize-recover=all"]
            link_args = flags
        else:
            # -g0 comes after the -g in Python's CFLAGS and wins; the prefix map keeps the
            # (random) build directory out of anything the compiler still records.
            compile_args = ["-O3", "-g0"]
            prefix_map = f"-ffile-prefix-map={os.getcwd()}=."
            if _accepts(self.compiler, prefix_map):
                compile_args.append(prefix_map)
            link_args = ["-Wl,-s"] if sys.platform.startswith("linux") else []
        for ext in self.extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_args]
            ext.extra_link_args = [*ext.extra_link_args, *link_args]
        super().build_extensions()


extensions = [
    # One extension: the Board boundary (_core.pyx) and the boundaries it includes
    # (Position's compiled base _position.pxi, _batch.pxi, _reference.pxi, the RL boundary
    # _rl.pxi, the book keys _book.pxi, the mate search _mate.pxi) over one copy of the
    # kernel (xiangqi/core/*.pxd, inlined).
    Extension(
        "xiangqi._core",
        ["xiangqi/_core.pyx"],
        depends=[
            "xiangqi/_position.pxi",
            "xiangqi/_batch.pxi",
            "xiangqi/_reference.pxi",
            "xiangqi/_rl.pxi",
            "xiangqi/_book.pxi",
            "xiangqi/_mate.pxi",
        ],
    ),
]

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        annotate=bool(os.environ.get("XIANGQI_ANNOTATE")),
        force=bool(os.environ.get("XIANGQI_ANNOTATE")),  # regenerate so the HTML is written
        compiler_directives={"language_level": "3"},
    ),
)
