"""Builds the example engine's extension against the INSTALLED xiangqi's Cython API:
xiangqi.get_include() is where `cimport xiangqi.core.api` is found (as numpy.get_include())."""

from Cython.Build import cythonize
from setuptools import Extension, setup

import xiangqi

setup(
    ext_modules=cythonize(
        [
            Extension(
                "xiangqi_example_engine._search",
                ["xiangqi_example_engine/_search.pyx"],
                include_dirs=[xiangqi.get_include()],
                extra_compile_args=["-O3"],
            )
        ],
        include_path=[xiangqi.get_include()],
        compiler_directives={"language_level": "3"},
    ),
)
