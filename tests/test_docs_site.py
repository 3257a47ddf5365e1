"""The built docs site: every public name is a Python object of its inventory, no page shows
directive text, and the guides' cross-references are links.

The site is the one in ``$XIANGQI_DOCS_HTML`` when set (CI builds it once, nitpicky with
warnings as errors, and points this test at it); otherwise the test builds it once into a
temporary directory (about a minute: marked slow). Without Sphinx it skips, saying so.
"""

from __future__ import annotations

import html
import importlib
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from test_docs_reference import public_modules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("sphinx") is None
        or importlib.util.find_spec("myst_parser") is None,
        reason="the docs toolchain is not installed (pip install -e '.[docs]')",
    ),
]

#: Directive and role text that only shows on a page when MyST or docutils left it unparsed.
RAW = re.compile(
    r"\.\. (py|auto)\w*::|\{eval-rst\}|\{auto\w+\}|\{py:\w+\}|^\s*:(module|type|value|canonical):",
    re.M,
)
#: A guide's cross-reference role, e.g. {py:func}`~xiangqi.open_games`.
ROLE = re.compile(r"\{py:(\w+)\}`~?([\w.]+)`")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = os.environ.get("XIANGQI_DOCS_HTML")
    if built:
        path = Path(built)
        assert (path / "objects.inv").exists(), f"XIANGQI_DOCS_HTML={built} holds no built site"
        return path
    out = tmp_path_factory.mktemp("html")
    cmd = [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-b", "html"]
    run = subprocess.run([*cmd, str(DOCS), str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-4000:]
    return out


def inventory(site: Path) -> dict[str, tuple[str, str]]:
    """objects.inv read by hand (format v2: four header lines, then zlib): name -> (role, uri)."""
    data = (site / "objects.inv").read_bytes()
    header = data.split(b"\n", 4)
    assert header[0] == b"# Sphinx inventory version 2", header[0]
    entries = {}
    line = re.compile(r"(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S+)\s+(.*)")
    for text in zlib.decompress(header[4]).decode("utf-8").splitlines():
        m = line.fullmatch(text)
        assert m, text
        name, role, _, uri, _ = m.groups()
        if uri.endswith("$"):
            uri = uri[:-1] + name
        entries[name] = (role, uri)
    return entries


def public_names() -> list[str]:
    names = []
    for module in public_modules():
        mod = importlib.import_module(module)
        names += [f"{module}.{attr}" for attr in getattr(mod, "__all__", ())]
    return names


def pages(site: Path) -> list[Path]:
    return [p for p in site.rglob("*.html") if "_modules" not in p.parts]


def text_of(page: Path, *, literals: bool = True) -> str:
    """A page's visible text: what a reader sees (scripts, styles and tags dropped); without
    the inline literals an author wrote (``{eval-rst}`` in a sentence about it) on request."""
    source = page.read_text(encoding="utf-8")
    source = re.sub(r"<(script|style)\b.*?</\1>", "", source, flags=re.S)
    if not literals:
        source = re.sub(r'<code class="docutils literal[^"]*">.*?</code>', "", source, flags=re.S)
    main = re.search(r'<article[^>]*role="main"[^>]*>(.*)</article>', source, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", main.group(1) if main else source))


def test_every_public_name_is_a_python_object_of_the_inventory(site: Path) -> None:
    objects = {n: r for n, (r, _) in inventory(site).items() if r.startswith("py:")}
    assert len(public_names()) > 150
    missing = [name for name in public_names() if name not in objects]
    assert missing == [], "public names the built reference does not document"


def test_each_public_module_is_a_module_of_the_inventory(site: Path) -> None:
    objects = inventory(site)
    documented = [m for m in public_modules() if getattr(importlib.import_module(m), "__all__", 0)]
    missing = [m for m in documented if objects.get(m, ("",))[0] != "py:module"]
    # a module whose names live on another page (xiangqi.pgn.tree) needs no page of its own
    pages_ = {p.stem for p in (DOCS / "reference").glob("*.md")}
    assert [m for m in missing if m in pages_] == []


def test_a_documented_function_shows_its_signature_and_docstring(site: Path) -> None:
    """Independent of autodoc: the page of xiangqi.parse_square holds its parameter and the
    first words of its docstring, as the source says them."""
    import xiangqi

    entries = inventory(site)
    role, uri = entries["xiangqi.parse_square"]
    assert role == "py:function"
    page, _, anchor = uri.partition("#")
    source = (site / page).read_text(encoding="utf-8")
    assert f'id="{anchor}"' in source
    text = " ".join(text_of(site / page).split())
    # the first words of the docstring (before any quote: the site typesets quotes)
    first = " ".join(xiangqi.parse_square.__doc__.split('"')[0].split())
    assert "parse_square(name" in text.replace(" (", "(").replace("( ", "(")
    assert len(first) > 15 and first in text


def test_constants_show_their_own_words_not_their_types(site: Path) -> None:
    seen = " ".join(text_of(p) for p in (site / "reference").glob("*.html"))
    for borrowed in (str.__doc__, int.__doc__, tuple.__doc__, dict.__doc__):
        first = " ".join(borrowed.strip().split("\n")[0].split())
        assert first not in seen, first


def test_no_page_shows_directive_text(site: Path) -> None:
    raw = {}
    for page in pages(site):
        found = list(RAW.finditer(text_of(page, literals=False)))
        if found:
            raw[str(page.relative_to(site))] = [m.group(0) for m in found][:3]
    assert raw == {}


def test_every_cross_reference_of_the_guides_is_a_link(site: Path) -> None:
    objects = inventory(site)
    checked = 0
    for guide in sorted(DOCS.glob("*.md")):
        source = guide.read_text(encoding="utf-8")
        roles = ROLE.findall(source)
        if not roles:
            continue
        built = (site / guide.with_suffix(".html").name).read_text(encoding="utf-8")
        for role, target in roles:
            assert target in objects, f"{guide.name}: {{py:{role}}}`{target}` has no target"
            _, uri = objects[target]
            anchor = uri.partition("#")[2] or target
            link = re.compile(rf'<a class="reference internal" href="[^"]*#{re.escape(anchor)}"')
            assert link.search(built), f"{guide.name}: {{py:{role}}}`{target}` is not a link"
            checked += 1
    assert checked >= 30


#: What a reference page shows only when a signature or a docstring was not parsed: a type
#: name's ``~`` (a signature shown as raw text), Python's ``<factory>`` default, reST's
#: double backquotes left over.
UNPARSED = re.compile(r"~(xiangqi|typing|collections)\.|<factory>|``")


def test_the_reference_shows_no_markup_leftovers(site: Path) -> None:
    found = {}
    for page in sorted((site / "reference").glob("*.html")):
        hits = [m.group(0) for m in UNPARSED.finditer(text_of(page))]
        if hits:
            found[page.name] = hits[:3]
    assert found == {}


def test_the_command_line_page_shows_each_commands_own_help(site: Path) -> None:
    # The page is made from the command's --help at build time; a reader finds on it the
    # usage line of every subcommand the installed command has, as the command prints it.
    shown = text_of(site / "command-line.html")
    commands = [["perft"], ["analyse"], ["match"], ["convert"], ["book", "build"]]
    commands += [["book", "probe"], ["mate"]]
    for command in commands:
        run = subprocess.run(
            [sys.executable, "-m", "xiangqi", *command, "--help"],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "88"},
            check=True,
        )
        usage = run.stdout.split("\n\n")[0]  # the usage paragraph, wrapped at 88 columns
        assert usage in shown, f"xiangqi {' '.join(command)}: its usage is not on the page"
    assert "xiangqi: error:" in shown  # the exit statuses' paragraph
