# Builds xq_api_probe against xiangqi.get_include() (tests/test_cython_api.py runs it).
from Cython.Build import cythonize
from setuptools import Extension, setup

import xiangqi

setup(
    ext_modules=cythonize(
        [Extension("xq_api_probe", ["xq_api_probe.pyx"], include_dirs=[xiangqi.get_include()])],
        include_path=[xiangqi.get_include()],
        quiet=True,
    ),
)
