"""The docs' examples work when pasted: each page shows every name and file it uses.

scripts/check_docs_paste.py runs each docs page's shown ``>>>`` examples in a fresh interpreter
in an empty temporary folder. These tests check that it catches what a reader would hit (a
missing import, a name from hidden setup, a name another page imported, a file in the
checkout's folder) and, marked slow, that every page passes it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "check_docs_paste.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "check_docs_paste")


def _page(folder: Path, name: str, *blocks: tuple[str, str]) -> Path:
    text = f"# {name}\n\n" + "".join(
        f"```{{{kind}}}\n{body}```\n\nProse.\n\n" for kind, body in blocks
    )
    path = folder / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


def _run(*pages: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, pages)], capture_output=True, text=True, timeout=120
    )


def _figures(out: str, name: str) -> tuple[int, int]:
    match = re.search(rf"^{re.escape(name)}\.md\s+(\d+) examples run,\s+(\d+) passed", out, re.M)
    assert match, out
    return int(match[1]), int(match[2])


def test_a_page_that_imports_what_it_uses_passes(tmp_path: Path) -> None:
    page = _page(
        tmp_path,
        "good",
        ("doctest", ">>> import xiangqi\n>>> len(xiangqi.Position().legal_moves)\n44\n"),
        ("doctest", ">>> xiangqi.Position().turn\n<Color.RED: 0>\n"),
    )
    done = _run(page)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _figures(done.stdout, "good") == (3, 3)


def test_a_page_missing_an_import_fails(tmp_path: Path) -> None:
    page = _page(tmp_path, "bad", ("doctest", ">>> len(Position().legal_moves)\n44\n"))
    done = _run(page)
    assert done.returncode == 1
    assert _figures(done.stdout, "bad") == (1, 0)
    assert "NameError: name 'Position' is not defined" in done.stderr


def test_hidden_setup_does_not_count(tmp_path: Path) -> None:
    page = _page(
        tmp_path,
        "hidden",
        ("testsetup", "import xiangqi\n"),
        (
            "doctest",
            ":options: +NORMALIZE_WHITESPACE\n\n>>> xiangqi.Position().turn\n<Color.RED: 0>\n",
        ),
        ("testcleanup", ">>> 1/0\n"),
    )
    done = _run(page)
    assert done.returncode == 1
    assert _figures(done.stdout, "hidden") == (1, 0)


def test_pages_share_no_names_and_run_in_an_empty_folder(tmp_path: Path) -> None:
    first = _page(tmp_path, "first", ("doctest", ">>> import xiangqi.svg\n>>> answer = 42\n"))
    (tmp_path / "data.txt").write_text("beside the page", encoding="utf-8")
    second = _page(
        tmp_path,
        "second",
        ("doctest", ">>> import xiangqi\n>>> xiangqi.svg.board\n<function board at ...>\n"),
        ("doctest", ">>> answer\n42\n"),
        ("doctest", ">>> open('data.txt').read()\n'beside the page'\n"),
    )
    done = _run(first, second)
    assert done.returncode == 1
    assert _figures(done.stdout, "first") == (2, 2)
    assert _figures(done.stdout, "second") == (4, 1)  # only its import passes


def test_a_page_that_reads_the_checkouts_files_fails(tmp_path: Path) -> None:
    """``Path(xiangqi.__file__).parent.parent`` is the checkout only in an editable install:
    after ``pip install .`` it is site-packages, so an example reading tests/ or examples/
    from there fails for the reader; the check says so although the example passes here."""
    import xiangqi

    if not (Path(xiangqi.__file__).resolve().parent.parent / "examples" / "openings.pgn").exists():
        pytest.skip("xiangqi is imported from an installed wheel here, not from a checkout")
    body = (
        ">>> from pathlib import Path\n>>> import xiangqi\n"
        ">>> ROOT = Path(xiangqi.__file__).resolve().parent.parent\n"
        ">>> len((ROOT / 'examples' / 'openings.pgn').read_bytes()) > 0\nTrue\n"
    )
    done = _run(_page(tmp_path, "checkout", ("doctest", body)))
    assert done.returncode == 1
    assert _figures(done.stdout, "checkout") == (4, 4)  # every example passes in a checkout
    assert "an example reads examples/openings.pgn from the checkout" in done.stderr


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    done = _run(tmp_path / "missing.md")
    assert done.returncode == 2 and "no such page" in done.stderr


def test_shown_blocks_skip_hidden_and_option_lines() -> None:
    text = (
        "```{testsetup}\n>>> hidden = 1\n```\n"
        "```{doctest}\n:options: +ELLIPSIS\n\n>>> 1 + 1\n2\n```\n"
        "```python\nno examples here\n```\n"
        ":::{doctest}\n>>> 'colon fence'\n'colon fence'\n:::\n"
        "```{doctest}\n:hide:\n\n>>> 'hidden by option'\n```\n"
    )
    blocks = _script().shown_blocks(text)
    assert [source.strip() for _, source in blocks] == [
        ">>> 1 + 1\n2",
        ">>> 'colon fence'\n'colon fence'",
    ]
    assert [line for line, _ in blocks] == [5, 13]  # 0-based, as doctest counts a test's line


def test_sphinx_doctest_setup_defines_no_names() -> None:
    """docs/conf.py's global doctest setup sets the working folder and nothing else."""
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    match = re.search(r'^doctest_global_setup = f?"""(.*?)"""', conf, re.M | re.S)
    assert match
    lines = [line.strip() for line in match[1].strip().splitlines()]
    assert lines == ["import os", "os.chdir({str(ROOT)!r})"]
    pages = "".join(p.read_text("utf-8") for p in (ROOT / "docs").glob("*.md"))
    assert not re.search(r"^(```|:::)\{testsetup\}", pages, re.M)


def test_the_game_end_example_is_the_rule_books_case() -> None:
    """The cycle the game-end page shows, and both verdicts, are the case file's (图12)."""
    cases = (ROOT / "tests" / "data" / "chinese_rules" / "cases.txt").read_text("utf-8")
    line = next(x for x in cases.splitlines() if x.startswith("cxa2020-fig12 |"))
    _, _, _, fen, moves, verdict, axf, asian, clauses, _ = (f.strip() for f in line.split(" | "))
    assert (verdict, axf, asian) == ("black-loses", "differs", "draw")
    assert clauses.startswith("2020 24.11")
    page = (ROOT / "docs" / "game-end.md").read_text("utf-8")
    assert f'xiangqi.Position("{fen}")' in page
    assert f'"{moves}".split() * 2' in page
    winner = {"black-loses": "<Color.RED: 0>", "red-loses": "<Color.BLACK: 1>"}[verdict]
    chinese = f"Outcome(termination=<Termination.PERPETUAL_CHASE: 4>, winner={winner})"
    assert f'>>> fig12.outcome(rules="chinese")\n{chinese}\n' in page
    drawn = "Outcome(termination=<Termination.REPETITION: 5>, winner=None)"
    assert f'>>> fig12.outcome(rules="asian")\n{drawn}\n' in page


@pytest.mark.slow
def test_every_docs_page_runs_as_pasted() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout + done.stderr[-5000:]
    assert re.search(r"^all pages\s+(\d+) examples run,\s+\1 passed$", done.stdout, re.M)


def test_a_shown_exceptions_class_and_message_are_compared(tmp_path: Path) -> None:
    """A wrong message, or a class not named as Python prints it, fails (no
    IGNORE_EXCEPTION_DETAIL), in the paste check and in the Sphinx doctest build alike."""
    import doctest

    shown = (
        ">>> import xiangqi\n>>> xiangqi.Move.from_iccs('h2x9')\n"
        "Traceback (most recent call last):\n  ...\n"
    )
    right = (
        "xiangqi.errors.InvalidMoveError: expected ICCS move text of two squares a0..i9 "
        "such as 'h2e2', got 'h2x9'\n"
    )
    short = right.removeprefix("xiangqi.errors.")
    wrong = right.replace("'h2e2'", "'h0g2'")
    pages = [
        _page(tmp_path, name, ("doctest", shown + text))
        for name, text in [("right", right), ("short", short), ("wrong", wrong)]
    ]
    done = _run(*pages)
    assert [_figures(done.stdout, name) for name in ("right", "short", "wrong")] == [
        (2, 2),
        (2, 1),
        (2, 1),
    ]
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    flags = re.search(r"^doctest_default_flags = (.+)$", conf, re.M)
    assert flags is not None, "docs/conf.py sets doctest_default_flags"
    assert eval(flags[1], {"doctest": doctest}) == _script().FLAGS
    assert not _script().FLAGS & doctest.IGNORE_EXCEPTION_DETAIL
