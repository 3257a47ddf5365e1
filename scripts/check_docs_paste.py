"""Run each docs page's examples as a reader who pastes them would: nothing hidden.

    python scripts/check_docs_paste.py                  # every docs/*.md page
    python scripts/check_docs_paste.py docs/notation.md # some pages

For each page, the ``>>>`` examples of its shown code blocks (``{doctest}`` blocks and plain
fenced blocks; never the hidden ``{testsetup}``, ``{testcleanup}`` or ``:hide:`` ones) run in
order, in a fresh Python interpreter (so no page sees what another imported), with an empty
namespace and an empty temporary working folder: an example that needs a name must import or
make it, and one that needs a file must create it or show where it comes from. Prints, per page,
the examples run and passed, and each failure; exits 1 if any example failed, 2 on bad usage.
The option flags are docs/conf.py's ``doctest_default_flags`` (ELLIPSIS, DONT_ACCEPT_TRUE_FOR_1:
a shown exception's class and message are compared). A file an example reads from the checkout
(outside the package's own folder) is a failure: a reader who installed the package has no
checkout.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Fenced blocks a reader never sees: Sphinx's hidden setup and cleanup.
HIDDEN = {"testsetup", "testcleanup"}
FLAGS = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\s*(?P<info>.*)$")


def shown_blocks(text: str) -> list[tuple[int, str]]:
    """(line, source) of each shown fenced block holding ``>>>`` examples; line is 0-based."""
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, info = opening["fence"], opening["info"].strip()
        directive = re.match(r"\{([\w-]+)\}", info)
        body: list[str] = []
        start = i + 1
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        hidden = directive is not None and directive[1] in HIDDEN
        # directive options (":hide:", ":options: ...") open a directive's body
        options = []
        while directive and body and body[0].startswith(":"):
            options.append(body.pop(0))
            start += 1
        if hidden or any(o.strip() == ":hide:" for o in options):
            continue
        source = "\n".join(body) + "\n"
        if re.search(r"^\s*>>>", source, re.M):
            blocks.append((start, source))
    return blocks


def _checkout_files(failures: list[str]) -> None:
    """Report each file an example opens from the checkout outside the package's own folder:
    a reader who installed with ``pip install .`` has the package, not the checkout's
    ``tests/`` or ``examples/`` (an editable install would hide that from this run)."""
    import xiangqi  # the package's own files (its data included) are installed too

    package = Path(xiangqi.__file__).resolve().parent
    # The checkout this script sits in, and the one xiangqi was imported from when that is a
    # checkout too (an editable install of another copy of the tree: CI's sanitizer copy).
    roots = [ROOT]
    if (package.parent / "pyproject.toml").exists() and package.parent != ROOT:
        roots.append(package.parent)

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event != "open" or not isinstance(args[0], (str, bytes, os.PathLike)):
            return
        try:
            path = Path(os.fsdecode(args[0])).resolve()
        except (OSError, ValueError):
            return
        for root in roots:
            if path.is_relative_to(root) and not path.is_relative_to(package):
                message = f"an example reads {path.relative_to(root)} from the checkout"
                if message not in failures:
                    failures.append(message)
                return

    sys.addaudithook(hook)


def run_page(page: Path) -> dict[str, object]:
    """Run one page's shown examples here (this interpreter, the current folder)."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict[str, object] = {"__name__": "__main__"}
    failures: list[str] = []
    text = page.read_text(encoding="utf-8")
    _checkout_files(failures)
    for lineno, source in shown_blocks(text):
        test = parser.get_doctest(source, globs, page.name, str(page), lineno)
        test.globs = globs  # DocTest copies its globs: share one namespace across the page
        out: list[str] = []
        runner.run(test, out=out.append, clear_globs=False)
        failures.extend(out)
    tries, failed = runner.tries, runner.failures
    return {"page": page.name, "run": tries, "passed": tries - failed, "failures": failures}


def check(page: Path) -> dict[str, object]:
    """Run one page in a fresh interpreter inside an empty temporary folder."""
    with tempfile.TemporaryDirectory(prefix="docs-paste-") as folder:
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        done = subprocess.run(
            [sys.executable, "-I", str(Path(__file__).resolve()), "--one", str(page.resolve())],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {
            "page": page.name,
            "run": 0,
            "passed": 0,
            "failures": [f"the interpreter exited {done.returncode}:\n{done.stderr[-3000:]}"],
        }
    result: dict[str, object] = json.loads(lines[-1])
    return result


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"] and len(argv) == 2:
        print(json.dumps(run_page(Path(argv[1]))))
        return 0
    pages = [Path(a) for a in argv] or sorted(DOCS.glob("*.md"))
    missing = [str(p) for p in pages if not p.is_file()]
    if missing:
        print(f"check_docs_paste: no such page: {', '.join(missing)}", file=sys.stderr)
        return 2
    total_run = total_passed = 0
    bad: list[str] = []
    for page in pages:
        result = check(page)
        run, passed = int(result["run"]), int(result["passed"])  # type: ignore[call-overload]
        failures = result["failures"]
        assert isinstance(failures, list)
        total_run += run
        total_passed += passed
        status = "ok" if not failures else "FAILED"
        print(f"{page.name:28} {run:4} examples run, {passed:4} passed  {status}", flush=True)
        if failures:
            bad.append(page.name)
            for failure in failures:
                print(failure, file=sys.stderr)
    print(f"{'all pages':28} {total_run:4} examples run, {total_passed:4} passed")
    if bad:
        print(f"pages with failures: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
