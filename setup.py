"""Build script: declares the compiled extensions, xiangqi._core and xiangqi._rl.

All metadata lives in pyproject.toml. Set XIANGQI_ANNOTATE=1 to write the
annotated HTML next to the .pyx (yellow lines are Python interaction), and
XIANGQI_SANITIZE=1 to build with AddressSanitizer and UBSan (see scripts/).
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

compile_args = ["-O3"]
link_args: list[str] = []
if os.environ.get("XIANGQI_SANITIZE"):
    flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
    compile_args = ["-O1", "-g", *flags]
    link_args = flags

extensions = [
    Extension(
        "xiangqi._core",
        ["xiangqi/_core.pyx"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    ),
    # The RL boundary (batch encoders, VectorEnv); cimports the core's C functions.
    Extension(
        "xiangqi._rl",
        ["xiangqi/_rl.pyx"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        annotate=bool(os.environ.get("XIANGQI_ANNOTATE")),
        force=bool(os.environ.get("XIANGQI_ANNOTATE")),  # regenerate so the HTML is written
        compiler_directives={"language_level": "3"},
    )
)
