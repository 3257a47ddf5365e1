"""Sphinx configuration of the xiangqi docs (Sphinx + MyST Markdown).

    python -m sphinx -n -W --keep-going -b html docs OUT    # the site, every link resolved
    python -m sphinx -W --keep-going -b doctest docs OUT    # run every example on the pages

At build time this file also makes what the pages show but must not type by hand:
the SVG boards (drawn by xiangqi.svg into docs/_generated/, git-ignored), the
rule-book figures of the game-end page (computed by running the tests' own checks on
the tests' own data, and put on the page as MyST substitutions) and the command-line
page's help texts (the command's own --help, into docs/_generated/cli.md).
"""

from __future__ import annotations

import doctest
import os
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
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
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
# A "Returns:" line reads "What it is: more words"; the words before the colon are prose,
# not a type to link (the signature carries the real return type, linked).
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# A signature shows its type names short (Move, not xiangqi.move.Move), each linked to its
# entry; a dataclass's ``field(default_factory=list)`` shows as ``list()`` (see
# _factory_defaults: Python's ``<factory>`` is no expression, and a signature that does not
# parse is shown as raw text, with the ``~`` of every type name).
autodoc_preserve_defaults = True
python_use_unqualified_type_names = True
autodoc_default_options = {"members": True, "show-inheritance": False}

# -- links: every name the reference shows resolves (the build runs with -n -W) ---------

nitpicky = True
# Names of third-party packages that publish no Sphinx inventory we can use offline
# (each is a type in a signature). Add a name here only for that reason.
nitpick_ignore_regex = [
    # NumPy, OpenSpiel and Gymnasium: no inventory offline (types in the RL signatures).
    ("py:.*", r"numpy\..*"),
    ("py:.*", r"pyspiel\..*"),
    ("py:.*", r"gymnasium\..*"),
    # Gymnasium's docstrings of the methods GymEnv overrides name Env's attributes.
    ("py:attr", r"render_mode|observation_space|action_space|np_random_seed|np_random|metadata"),
    ("py:class", r"ObsType|ActType"),
    # Python's asyncio classes under the module that defines them (its inventory has asyncio.X).
    ("py:class", r"asyncio\.(transports|protocols)\.\w+"),
    # Private names in signatures (TypeVars, base classes, aliases kept under TYPE_CHECKING):
    # no public page to link to; the signature still shows them.
    ("py:.*", r"xiangqi(\.\w+)*\._\w+(\.\w+)*"),
    (
        "py:.*",
        r"T|xiangqi\.pgn\.visitor\.T|SquareLike|ArrowLike|PathLike|PathArg|Source|MateAnswer",
    ),
    (
        "py:class",
        r"xiangqi\.position\.(Pseudo)?LegalMoveView|xiangqi\.rl\.openspiel\.PlanesObserver",
    ),
    # A signature's string annotation split at its comma by the annotation parser.
    ("py:class", r"tuple\[~xiangqi\.move\.Move|dict\[str"),
    # Internal modules a package's docstring names (no reference page of their own), and
    # short names in docstrings not yet written as full paths.
    ("py:mod", r"xiangqi\.(engine|match)\.\w+"),
    ("py:func", r"resume_match|convert"),
]
# Public aliases a signature names: link them to their reference entries.
autodoc_type_aliases = {
    "IccsStyle": "xiangqi.notation.IccsStyle",
    "PgnFormat": "xiangqi.pgn.PgnFormat",
}

# Python's own inventory, from a local file only: the build never fetches over the network.
# Debian's package python3-doc installs it (apt-get install python3-doc; .ci/run and
# .readthedocs.yaml install it).
_PYTHON_INVENTORIES = sorted(
    Path("/usr/share/doc").glob("python3.*/html/objects.inv"),
    key=lambda path: [int(part) for part in re.findall(r"\d+", path.parent.parent.name)],
)
intersphinx_mapping: dict[str, tuple[str, str]] = {}
if _PYTHON_INVENTORIES:
    _inventory = _PYTHON_INVENTORIES[-1]
    _version = _inventory.parent.parent.name.removeprefix("python")
    intersphinx_mapping["python"] = (f"https://docs.python.org/{_version}/", str(_inventory))

# The examples show every name they use (scripts/check_docs_paste.py runs each page as
# pasted: a fresh interpreter, nothing hidden); the one setup is the working folder, a
# checkout's root, where the tests' data files are (a page says when it reads one).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
doctest_global_setup = f"""
import os
os.chdir({str(ROOT)!r})
"""
doctest_test_doctest_blocks = ""  # only the ```{doctest} blocks, not every >>> in docstrings
# Sphinx's default flags less IGNORE_EXCEPTION_DETAIL: a shown exception's class (as Python
# prints it, module included) and message are compared too (scripts/check_docs_paste.py
# uses the same flags).
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

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
    # game-end.md: a cycle the two rule books judge differently (CXA 2020 图12)
    cycle = xiangqi.Position("3k2P2/P3a4/6rc1/8R/9/9/9/B3B4/4A4/4KA3 w - - 0 1")
    boards["two-books-cycle"] = xiangqi.svg.board(
        cycle, arrows=[("i6", "h6"), ("h7", "i7")], size=360
    )
    cycle.push_iccs("i6h6")
    cycle.push_iccs("h7i7")
    boards["two-books-cycle-half"] = xiangqi.svg.board(
        cycle, lastmove="h7i7", arrows=[("h6", "i6"), ("i7", "h7")], size=360
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


# -- the command line: its own --help, so the page cannot drift from it ------------------

#: Each command of `xiangqi`, in the order of its --help, and the guide page that shows it.
CLI_COMMANDS = [
    ("perft", "getting-started"),
    ("analyse", "getting-started"),
    ("match", "engines-and-matches"),
    ("convert", "records"),
    ("book build", "books"),
    ("book probe", "books"),
    ("mate", "mates"),
]


def _cli_help() -> None:
    import contextlib
    import io

    from xiangqi.__main__ import main

    GENERATED.mkdir(exist_ok=True)
    parts = []
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal; the page has one width
    try:
        for command, guide in [("", "index"), *CLI_COMMANDS]:
            text = io.StringIO()
            with contextlib.redirect_stdout(text), contextlib.suppress(SystemExit):
                main([*command.split(), "--help"])
            title = f"xiangqi {command}".strip()
            see = f"Shown in use: [{guide}]({guide}.md).\n\n" if command else ""
            parts.append(f"## `{title}`\n\n{see}```text\n{text.getvalue().rstrip()}\n```\n")
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    page = "\n".join(parts)
    path = GENERATED / "cli.md"
    if not path.exists() or path.read_text(encoding="utf-8") != page:
        path.write_text(page, encoding="utf-8")


_boards()
_cli_help()
myst_substitutions = _rule_figures()


# -- the reference: constants' own words, re-exported names in the inventory -------------


def _constant_comment(name: str, obj: object) -> list[str] | None:
    """The ``#:`` comment of the module that assigns ``obj`` to ``name`` (re-exports have none)."""
    from sphinx.pycode import ModuleAnalyzer

    for modname, module in sorted(sys.modules.items()):
        if not modname.startswith("xiangqi") or getattr(module, name, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # a compiled module has no source to read
            continue
        comment = docs.get(("", name))
        if comment:
            return list(comment)
    return None


def _third_party_owner(name: str) -> str | None:
    """``module.Class.method`` of the class outside xiangqi whose docstring a method inherits."""
    import importlib

    path, _, attr = name.rpartition(".")
    modname, _, clsname = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(modname), clsname)
    except (ImportError, AttributeError, ValueError):
        return None
    for base in getattr(cls, "__mro__", ())[1:]:
        doc = getattr(base.__dict__.get(attr), "__doc__", None)
        if doc:
            if base.__module__.startswith("xiangqi"):
                return None
            return f"{base.__module__}.{base.__qualname__}.{attr}"
    return None


def _own_docstrings(app, what, name, obj, options, lines) -> None:  # type: ignore[no-untyped-def]
    """Runs before napoleon: a constant shows its ``#:`` comment, never its type's docstring;
    an attribute's first line is prose even when it has a colon (the annotation is its type)."""
    import inspect

    from sphinx.util import logging
    from sphinx.util.docstrings import prepare_docstring

    borrowed = {type(obj).__doc__, getattr(obj, "__doc__", None)} - {None, ""}
    if what == "data" and not inspect.isclass(obj) and not inspect.isroutine(obj):
        if any(lines == prepare_docstring(doc) for doc in borrowed):
            comment = _constant_comment(name.rpartition(".")[2], obj)
            lines[:] = comment or []
            if not comment:
                logging.getLogger(__name__).warning(
                    "constant %s has no #: comment: it would show the docstring of %s",
                    name,
                    type(obj).__name__,
                )
    if what == "method" and lines and not getattr(obj, "__doc__", None):
        owner = _third_party_owner(name)
        if owner:  # Gymnasium's own docstring: its markup is not ours to check
            lines[:] = [f"Overrides ``{owner}``: see its documentation."]
    if what in ("attribute", "property", "data"):
        _PROSE[name] = list(lines)


#: An attribute's docstring as written: napoleon would read "What it is: more" as a type.
_PROSE: dict[str, list[str]] = {}


def _attribute_prose(app, what, name, obj, options, lines) -> None:  # type: ignore[no-untyped-def]
    """Runs after napoleon: an attribute keeps its words (its annotation is its type)."""
    if name in _PROSE:
        lines[:] = _PROSE.pop(name)


def _alias_reexports(app, env) -> list[str]:  # type: ignore[no-untyped-def]
    """Every name of a public module's ``__all__`` that is a documented class or function under
    another name (``xiangqi.match.SPRT`` is ``xiangqi.match.stats.SPRT``) goes into the
    inventory as an alias of that entry, so links and intersphinx find it by either name."""
    import importlib
    import inspect
    import pkgutil

    domain = env.domains["py"]
    modules = ["xiangqi"] + [
        info.name
        for info in pkgutil.walk_packages(xiangqi.__path__, "xiangqi.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    public: dict[str, object] = {}
    for modname in modules:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if inspect.isclass(obj) or inspect.isroutine(obj):
                public[f"{modname}.{attr}"] = obj
    documented = {}
    for fullname, obj in public.items():
        entry = domain.objects.get(fullname)
        if entry is not None and not entry.aliased:
            documented.setdefault(id(obj), entry)
    for fullname, obj in public.items():
        entry = documented.get(id(obj))
        if fullname not in domain.objects and entry is not None:
            domain.objects[fullname] = entry._replace(aliased=True)
    return []


def _check_python_inventory(app) -> None:  # type: ignore[no-untyped-def]
    if "python" not in intersphinx_mapping:
        from sphinx.util import logging

        logging.getLogger(__name__).warning(
            "no local Python inventory (/usr/share/doc/python3.*/html/objects.inv): install "
            "Debian's python3-doc; the build fetches nothing over the network"
        )


def _factory_defaults(app, what, name, obj, options, signature, return_annotation):  # type: ignore[no-untyped-def]
    """A dataclass field's ``= <factory>`` in a signature becomes ``= list()`` (its factory)."""
    import dataclasses

    if not signature or "<factory>" not in signature or not dataclasses.is_dataclass(obj):
        return None
    for field in dataclasses.fields(obj):
        factory = field.default_factory
        if factory is dataclasses.MISSING:
            continue
        start = signature.find(f"{field.name}:")
        at = signature.find("<factory>", max(start, 0))
        if start >= 0 and at >= 0:
            call = f"{getattr(factory, '__name__', 'factory')}()"
            signature = signature[:at] + call + signature[at + len("<factory>") :]
    return signature, return_annotation


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("autodoc-process-signature", _factory_defaults)
    app.connect("builder-inited", _check_python_inventory)
    app.connect("autodoc-process-docstring", _own_docstrings, priority=400)
    app.connect("autodoc-process-docstring", _attribute_prose, priority=600)
    app.connect("env-updated", _alias_reexports)
    return {"parallel_read_safe": True}
