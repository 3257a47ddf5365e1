"""Sphinx configuration of the xiangqi docs (Sphinx + MyST Markdown).

    python -m sphinx -W --keep-going -b html docs OUT       # the site
    python -m sphinx -W --keep-going -b doctest docs OUT    # run every example on the pages

At build time this file also makes what the pages show but must not type by hand:
the SVG boards (drawn by xiangqi.svg into docs/_generated/, git-ignored) and the
rule-book figures of the game-end page (computed by running the tests' own checks on
the tests' own data, and put on the page as MyST substitutions).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import xiangqi  # noqa: E402
import xiangqi.svg  # noqa: E402

project = "xiangqi"
copyright = "the xiangqi developers (MIT licence)"
release = version = xiangqi.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
]
myst_enable_extensions = ["substitution", "colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_generated/*.md"]
html_theme = "furo"
html_title = f"xiangqi {release}"

# One docstring style: Google style (Args:/Returns:/Raises:), read by napoleon.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}

doctest_global_setup = f"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.chdir({str(ROOT)!r})  # the examples name files by their paths in a checkout
import xiangqi
from xiangqi import Move, Position, RED, BLACK
"""
doctest_test_doctest_blocks = ""  # only the ```{doctest} blocks, not every >>> in docstrings

# -- pictures: the library draws them ---------------------------------------------------

GENERATED = DOCS / "_generated"


def _boards() -> None:
    GENERATED.mkdir(exist_ok=True)
    pos = xiangqi.Position()
    boards = {"start": xiangqi.svg.board(pos, size=360)}
    pos.push_iccs("h2e2")
    boards["central-cannon"] = xiangqi.svg.board(
        pos, lastmove="h2e2", arrows=[("h9", "g7")], size=360
    )
    boards["central-cannon-black"] = xiangqi.svg.board(
        pos, lastmove="h2e2", orientation=xiangqi.BLACK, size=360
    )
    mate = xiangqi.Position("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    boards["mate"] = xiangqi.svg.board(mate, check=mate.king(xiangqi.BLACK), size=360)
    chase = xiangqi.Position("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1")
    boards["bare-kings"] = xiangqi.svg.board(chase, size=360)
    pos = xiangqi.Position()
    boards["attacks"] = xiangqi.svg.board(
        pos,
        squares=list(pos.attacks(xiangqi.parse_square("h2"))),
        fill={"h2": "#ffd54f"},
        size=360,
    )
    for name, svg in boards.items():
        path = GENERATED / f"{name}.svg"
        if not path.exists() or path.read_text(encoding="utf-8") != str(svg):
            path.write_text(str(svg), encoding="utf-8")


# -- the rule-book figures: the tests' checks on the tests' data -------------------------


def _passes(check: object, *args: object) -> bool:
    try:
        check(*args)  # type: ignore[operator]
    except AssertionError:
        return False
    return True


def _rule_figures() -> dict[str, str]:
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import test_chinese_rule_cases as cn
        import test_rules_wxf as wxf
    finally:
        sys.path.remove(str(ROOT / "tests"))
    cycles = cn.CYCLES
    chinese = sum(_passes(cn.test_the_chinese_judge_gives_the_book_verdict, c) for c in cycles)
    asian = sum(
        cn.loser(cn.play_to_third_occurrence(c), xiangqi.Rules.ASIAN) == c.verdict for c in cycles
    )
    wxf_agree = sum(_passes(wxf.test_wxf_diagram, *case) for case in wxf.WXF_CASES)
    depths = {
        int(m[1])
        for room in sorted((ROOT / "xiangqi" / "core").glob("*.pxd"))
        for m in re.finditer(r"^\s*\w*MATE_DEPTH\s*=\s*(\d+)", room.read_text(), re.M)
    }
    if len(depths) != 1:
        raise RuntimeError(f"expected one MATE_DEPTH constant in xiangqi/core/*.pxd, got {depths}")
    return {
        "mate_depth": str(depths.pop()),
        "cxa_cycles": str(len(cycles)),
        "cxa_cases": str(len(cn.CASES)),
        "cxa_chinese_agree": str(chinese),
        "cxa_chinese_misses": str(len(cycles) - chinese),
        "cxa_xfails": str(len(cn.CHINESE_MISSES)),
        "cxa_asian_agree": str(asian),
        "wxf_cases": str(len(wxf.WXF_CASES)),
        "wxf_agree": str(wxf_agree),
        "wxf_known_wrong": str(len(wxf.WXF_CASES) - wxf_agree),
    }


_boards()
myst_substitutions = _rule_figures()
