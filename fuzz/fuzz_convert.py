"""Coverage-guided fuzz target (atheris / libFuzzer): ``xiangqi convert`` under hostile paths.

Each input builds a fresh temporary directory and runs ``xiangqi convert`` in-process
(``xiangqi.__main__.main``) in it. The input bytes choose

    the input file: a PGN collection, an XQF file, a DhtmlXQ text, prose (no record), an empty
    file, bytes from the input, a directory, a dangling symbolic link or nothing at all (the
    files here are all readable: the fuzzer runs as root, for whom no mode bit forbids reading);
    names: spaces, a line break, CJK, a leading dash, ``.part`` names (the name of the output's
    temporary file), names cut from the input bytes;
    the output: the input's own name, ``./`` and the input, a hard link or a symbolic link to
    the input, a file in a missing directory, a directory, an existing unrelated file, a
    symbolic link to one, a new name, the input's name plus ``.part``;
    options: ``--to``, ``--from``, ``--notation`` (valid and not), ``--`` before the names.

Invariants: ``main`` returns or exits (SystemExit) and raises nothing else. Every file that was
there before is byte for byte the same (and of the same kind) unless it is the named output of
a run that exited 0; a run that names an output that is the input (the same file, whatever
the name) does not exit 0; a run that fails exits non-zero with exactly one line on standard
error, starting ``xiangqi: error:``, and no traceback; no file is left behind that was not
there, except the output of a successful run, which then holds as many games as were read.
Any other outcome is a finding.

Run: scripts/fuzz.sh (FUZZ_TARGETS=convert for this one), or by hand:
    python fuzz/fuzz_convert.py fuzz/corpus_convert fuzz/seeds_convert -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(
    __name__, "xiangqi.__main__", "xiangqi.records", "xiangqi.records.dhtml", "xiangqi.records.xqf"
)

from xiangqi import Move, pgn, records
from xiangqi import __main__ as cli
from xiangqi.records import dhtml, xqf


def _game() -> pgn.Game:
    game = pgn.Game(tags={"Event": "测试", "Red": '甲"乙'})
    for iccs in ("h2e2", "h9g7", "h0g2", "i9h9"):
        game.add_move(Move.from_iccs(iccs))
    game.variations[0].add_variation(Move.from_iccs("b9c7"), comment="变着")
    game.result = "1-0"
    return game


GAME = _game()
CONTENTS = (
    (GAME.to_pgn() + "\n" + GAME.to_pgn("Chinese")).encode("utf-8"),
    xqf.write_xqf(GAME),
    dhtml.write_dhtml(GAME).encode("utf-8"),
    b"# Notes\n\nNot a game record, just prose.\n",
    b"",
)
#: How many games each content holds (None: not a record).
GAMES = (2, 1, 1, None, None)
NAMES = (
    "in.pgn",
    "games.pgn.part",
    "with space.pgn",
    "line\nbreak.pgn",
    "-dash.pgn",
    "--to=xqf",
    "棋谱.xqf",
    ".in.dhtml",
    "in",
    "in.PGN",
    "résumé.ubb",
    "in.cbr",
)
OUT_NAMES = (
    "out.pgn",
    "out.xqf",
    "out.dhtml",
    "out.ubb",
    "out.cbr",
    "out.txt",
    "out",
    "-out.pgn",
    "新 文件\n.pgn",
    ".out.pgn.abc.part",
    "games.pgn",
)
NOTATIONS = ("iccs", "wxf", "chinese", "san", "ICCS", "bogus")
FORMATS = ("pgn", "xqf", "dhtml", "cbr", "cbf", "PGN", "nope")


def _name(b: _harness.Bytes, pool: tuple[str, ...]) -> str:
    pick = b.byte()
    if pick < 200:
        return pool[pick % len(pool)]
    # a name from the input: any characters a file name may hold
    raw = b.chunk(40).decode("utf-8", "replace").replace("/", "_").replace("\x00", "_")
    return raw if raw not in ("", ".", "..") else "x"


def snapshot(root: str) -> dict[str, tuple[str, bytes]]:
    """Every entry below root: its kind and its content (a link's target)."""
    out: dict[str, tuple[str, bytes]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                out[rel] = ("link", os.readlink(path).encode("utf-8", "surrogateescape"))
            elif os.path.isdir(path):
                out[rel] = ("dir", b"")
            else:
                with open(path, "rb") as handle:
                    out[rel] = ("file", handle.read())
    return out


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), err.getvalue()


def test_one_input(data: bytes) -> None:
    b = _harness.Bytes(data)
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="xiangqi-fuzz-convert-") as root:
        os.chdir(root)
        try:
            check(b, root)
        finally:
            os.chdir(here)


def check(b: _harness.Bytes, root: str) -> None:
    source = _name(b, NAMES)
    kind = b.byte() % 9
    games: int | None = None
    if kind < len(CONTENTS):
        with open(source, "wb") as handle:
            handle.write(CONTENTS[kind])
        games = GAMES[kind]
    elif kind == 5:
        with open(source, "wb") as handle:
            handle.write(b.chunk(64))
    elif kind == 6:
        os.mkdir(source)
    elif kind == 7:
        os.symlink("missing.pgn", source)
    # kind 8: no input at all
    unrelated = "keep.pgn"
    with open(unrelated, "wb") as handle:
        handle.write(b"unrelated, kept")

    how = b.byte() % 12
    if how == 0:
        target = source
    elif how == 1:
        target = "./" + source
    elif how == 2:
        target = _name(b, OUT_NAMES)
        linkable = os.path.islink(source) or os.path.isfile(source)  # no hard link to a dir
        if linkable and not os.path.lexists(target):
            os.link(source, target, follow_symlinks=False)
    elif how == 3:
        target = _name(b, OUT_NAMES)
        if not os.path.lexists(target):
            os.symlink(source, target)
    elif how == 4:
        target = os.path.join("missing dir", _name(b, OUT_NAMES))
    elif how == 5:
        target = _name(b, OUT_NAMES)
        if not os.path.lexists(target):
            os.mkdir(target)
    elif how == 6:
        target = unrelated
    elif how == 7:
        target = _name(b, OUT_NAMES)
        if not os.path.lexists(target):
            os.symlink(unrelated, target)
    elif how == 8:
        target = source + ".part"
    elif how == 9:
        # the output's own temporary-file pattern, taken already
        target = _name(b, OUT_NAMES)
        with open(f".{os.path.basename(target)}.taken.part", "wb") as handle:
            handle.write(b"someone else's")
    else:
        target = _name(b, OUT_NAMES)

    argv = ["convert"]
    flags = b.byte()
    if flags & 1:
        argv += ["--notation", NOTATIONS[b.byte() % len(NOTATIONS)]]
    if flags & 2:
        argv += ["--to", FORMATS[b.byte() % len(FORMATS)]]
    if flags & 4:
        argv += ["--from", FORMATS[b.byte() % len(FORMATS)]]
    if flags & 8:
        argv.append("--")
    argv += [source, target]
    if flags & 16:  # absolute paths
        argv[-2:] = [os.path.join(root, source), os.path.join(root, target)]

    was_input = os.path.lexists(source) and same_file(source, target)
    # A symlinked output is written through (xiangqi/_files.py): the file it names may change.
    through = os.path.relpath(os.path.realpath(target), root) if os.path.islink(target) else None
    before = snapshot(root)
    code, err = run(argv)
    after = snapshot(root)

    assert "Traceback" not in err, (argv, err)
    output = os.path.relpath(os.path.join(root, target), root)
    if code == 0:
        assert not was_input, ("wrote over its input", argv, err)
        changed = {p for p in before if before[p] != after.get(p)}
        assert changed <= {output, through}, (argv, changed, err)
        new = set(after) - set(before)
        assert new <= {output}, (argv, new, err)
        if output in after and (output in new or output in changed):
            assert after[output][0] == "file", (argv, after[output][0])
            if games is not None and not flags & 4:
                written = list(records.open_games(output))
                assert len(written) == games, (argv, len(written), games)
    else:
        lines = err.splitlines()
        errors = [line for line in lines if line.startswith("xiangqi: error:")]
        assert len(errors) == 1 and len(lines) == 1, (argv, err)
        assert after == before, (argv, err, set(after) ^ set(before))


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
