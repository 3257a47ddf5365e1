"""xiangqi.records.convert, the front door `xiangqi convert` only calls: several inputs and
folders into one output, files that are no record skipped with their reason, the output
checked against every input before anything is read, and never a FIFO, a device or an input.

Expected game counts come from the files themselves by other means than the readers: the
``[Event`` tag lines of a PGN (every game of these files has one) and the ``XQ`` magic of an
XQF file (one game a file).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from xiangqi.__main__ import main
from xiangqi.errors import XiangqiError
from xiangqi.pgn import read_games
from xiangqi.records import (
    ConvertSummary,
    OutputFileError,
    RecordFileError,
    UnknownFormatError,
    convert,
)

DATA = Path(__file__).parent / "data"
GAMES = DATA / "games"
XQF = DATA / "xqf"  # three XQF files, a PGN and a README
TWO = GAMES / "two-games.pgn"
ONE = GAMES / "1999-national-r5-xu-yinchuan-liu-dianzhong.pgn"
TANDEM = GAMES / "tandem-pawns-wxf.pgn"


def events(path: Path) -> int:
    """Games in a PGN file, counted by its [Event tag lines (any encoding: bytes)."""
    return len(re.findall(rb"^\[Event ", path.read_bytes(), re.M))


def is_xqf(path: Path) -> bool:
    return path.read_bytes()[:2] == b"XQ"


def expected_games(paths: list[Path]) -> int:
    return sum(1 if is_xqf(p) else events(p) for p in paths)


def games_in(path: Path) -> int:
    return len(list(read_games(path.read_bytes())))


def test_several_inputs_go_into_one_output(tmp_path: Path) -> None:
    out = tmp_path / "all.pgn"
    summary = convert([TWO, ONE, TANDEM], out)
    assert isinstance(summary, ConvertSummary)
    want = events(TWO) + events(ONE) + events(TANDEM)
    assert want == 4 and summary.games == want == games_in(out)
    assert summary.files == (str(TWO), str(ONE), str(TANDEM)) and summary.skipped == ()
    assert summary.output == os.path.realpath(out) and summary.format == "pgn"
    # In the order given.
    first = re.search(rb'^\[Event "([^"]*)"', TWO.read_bytes(), re.M)
    assert first is not None
    assert next(iter(read_games(out.read_bytes()))).tags["Event"] == first[1].decode()


def test_a_folder_gives_every_record_in_it_and_skips_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "xqf.pgn"
    summary = convert(XQF, out)
    records = [p for p in sorted(XQF.iterdir()) if p.suffix.upper() in (".XQF", ".PGN")]
    assert [p.name for p in records] == ["SAMPLE.PGN", "SAMPLE.XQF", "XQFEXAMA.XQF", "XQFEXAMB.XQF"]
    assert summary.games == expected_games(records) == 4 == games_in(out)
    assert sorted(summary.files) == sorted(str(p) for p in records)
    assert [(Path(s.path).name, s.reason) for s in summary.skipped] == [
        ("README.md", "not a game record of a known format")
    ]


def test_recursive_descends_into_subfolders(tmp_path: Path) -> None:
    top = tmp_path / "in"
    (top / "a" / "b").mkdir(parents=True)
    shutil.copy(TWO, top / "two.pgn")
    shutil.copy(ONE, top / "a" / "one.pgn")
    shutil.copy(XQF / "SAMPLE.XQF", top / "a" / "b" / "sample.xqf")
    out = tmp_path / "out.pgn"
    flat = convert(top, out)
    assert flat.games == events(TWO) == games_in(out)
    assert [(Path(s.path).name, s.reason) for s in flat.skipped] == [
        ("a", "a folder (read with recursive)")
    ]
    deep = convert(top, out, recursive=True)
    assert deep.games == events(TWO) + events(ONE) + 1 == games_in(out)
    assert len(deep.files) == 3 and deep.skipped == ()


def test_files_that_are_no_records_are_skipped_with_their_reason(tmp_path: Path) -> None:
    top = tmp_path / "in"
    top.mkdir()
    shutil.copy(TWO, top / "games.pgn")
    (top / "notes.md").write_text("# My games\n\nSome prose.\n", encoding="utf-8")
    (top / "empty.pgn").write_bytes(b"")
    (top / "broken.xqf").write_bytes(b"XQ\x0a" + b"\x00" * 20)  # an XQF too short to hold one
    (top / ".hidden.pgn").write_bytes(TWO.read_bytes())
    os.mkfifo(top / "pipe.pgn")  # never opened: reading it would hang
    out = tmp_path / "out.pgn"
    summary = convert(top, out)
    assert summary.games == events(TWO) == games_in(out)
    assert summary.files == (str(top / "games.pgn"),)
    reasons = {Path(s.path).name: s.reason for s in summary.skipped}
    assert set(reasons) == {"notes.md", "empty.pgn", "broken.xqf", ".hidden.pgn", "pipe.pgn"}
    assert reasons["notes.md"] == reasons["empty.pgn"] == "not a game record of a known format"
    assert "XQF" in reasons["broken.xqf"]
    assert reasons[".hidden.pgn"] == "a hidden file" and reasons["pipe.pgn"] == "not a regular file"


def test_from_format_keeps_only_that_format_in_a_folder(tmp_path: Path) -> None:
    summary = convert(XQF, tmp_path / "out.pgn", from_format="xqf")
    assert summary.games == sum(1 for p in XQF.iterdir() if is_xqf(p)) == 3
    assert {Path(s.path).name: s.reason for s in summary.skipped}["SAMPLE.PGN"] == (
        "a PGN record, not an XQF"
    )


def test_an_output_inside_an_input_folder_is_not_read(tmp_path: Path) -> None:
    top = tmp_path / "in"
    top.mkdir()
    shutil.copy(TWO, top / "a.pgn")
    shutil.copy(ONE, top / "b.pgn")
    out = top / "all.pgn"
    shutil.copy(TANDEM, out)  # an earlier result: not to be read as an input
    summary = convert(top, out)
    assert summary.games == events(TWO) + events(ONE) == games_in(out)
    assert [(Path(s.path).name, s.reason) for s in summary.skipped] == [
        ("all.pgn", "the output itself")
    ]
    # Again (the output now holds games): the same count, not doubled.
    assert convert(top, out).games == summary.games == games_in(out)
    assert sorted(os.listdir(top)) == ["a.pgn", "all.pgn", "b.pgn"]  # no temporary left


def test_an_output_that_is_one_input_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    a = tmp_path / "a.pgn"
    shutil.copy(TWO, a)
    before = a.read_bytes()
    link = tmp_path / "link.pgn"
    link.symlink_to(a)
    hard = tmp_path / "hard.pgn"
    os.link(a, hard)
    for output in (a, link, hard):
        with pytest.raises(OutputFileError, match="also the input"):
            convert([ONE, a], output)
        with pytest.raises(RecordFileError):  # the same class
            convert([a], output)
    assert a.read_bytes() == before and link.is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["a.pgn", "hard.pgn", "link.pgn"]


def test_the_output_is_checked_before_any_input_is_read(tmp_path: Path) -> None:
    # A FIFO input with no writer would block whoever opens it: a convert that read its
    # inputs before checking the output would hang here instead of refusing.
    fifo = tmp_path / "pipe.pgn"
    os.mkfifo(fifo)
    a = tmp_path / "a.pgn"
    shutil.copy(TWO, a)
    code = (
        "import sys\nfrom xiangqi.__main__ import main\n"
        "sys.exit(main(['convert', sys.argv[1], sys.argv[2], sys.argv[2]]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(fifo), str(a)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "also the input" in run.stderr
    assert a.read_bytes() == TWO.read_bytes()


def test_dev_null_as_the_output_is_refused_and_left_a_device(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # As root, the old convert replaced /dev/null with a regular file.
    assert main(["convert", str(TWO), "/dev/null", "--to", "pgn"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "character device" in err and "/dev/null" in err
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    with pytest.raises(OutputFileError, match="character device"):
        convert(TWO, "/dev/null", to="pgn")


def test_a_fifo_as_the_output_is_refused_and_left_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.pgn"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "xiangqi", "convert", str(TWO), str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and run.stderr.startswith("xiangqi: error:") and "FIFO" in run.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["out.pgn"]


def test_a_full_disk_while_writing_is_one_error_line_and_keeps_the_old_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import xiangqi.records as records

    out = tmp_path / "out.pgn"
    out.write_bytes(b"an earlier conversion\n")

    def full_writer(notation: str = "ICCS") -> object:
        def write(games: object, handle: object) -> int:
            handle.write(b"[Event ")  # type: ignore[attr-defined]
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        return write

    monkeypatch.setattr(records, "pgn_writer", full_writer)
    assert main(["convert", str(TWO), str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and os.strerror(errno.ENOSPC) in err
    assert out.read_bytes() == b"an earlier conversion\n" and os.listdir(tmp_path) == ["out.pgn"]


def test_a_named_input_that_is_no_record_stops_the_conversion(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# not games\n", encoding="utf-8")
    out = tmp_path / "out.pgn"
    out.write_bytes(b"old")
    with pytest.raises(UnknownFormatError, match="not a game record"):
        convert([TWO, notes], out)
    assert out.read_bytes() == b"old" and sorted(os.listdir(tmp_path)) == ["notes.md", "out.pgn"]
    with pytest.raises(FileNotFoundError):
        convert([TWO, tmp_path / "missing.pgn"], out)
    assert out.read_bytes() == b"old"


def test_progress_is_called_after_each_game(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    summary = convert([TWO, ONE], tmp_path / "out.pgn", progress=lambda g, p: calls.append((g, p)))
    assert [g for g, _ in calls] == list(range(1, summary.games + 1))
    assert calls[-1] == (summary.games, summary.plies)


def test_bad_arguments_are_refused_before_a_file_is_touched(tmp_path: Path) -> None:
    out = tmp_path / "out.pgn"
    with pytest.raises(TypeError, match="inputs"):
        convert(42, out)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="output"):
        convert(TWO, 42)  # type: ignore[arg-type]
    with pytest.raises(XiangqiError, match="at least one input"):
        convert([], out)
    with pytest.raises(UnknownFormatError, match="PGN output"):
        convert(TWO, tmp_path / "out.xqf", notation="WXF")
    with pytest.raises(TypeError, match="progress"):
        convert(TWO, out, progress=3)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


def test_the_cli_converts_folders_and_prints_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    top = tmp_path / "in"
    (top / "sub").mkdir(parents=True)
    shutil.copy(ONE, top / "sub" / "one.pgn")
    (top / "readme.txt").write_text("prose, no games\n", encoding="utf-8")
    out = tmp_path / "out.pgn"
    assert main(["convert", str(TWO), str(top), str(out), "-r"]) == 0
    shown = capsys.readouterr()  # stderr is no terminal: no progress lines
    want = events(TWO) + events(ONE)
    assert games_in(out) == want
    assert shown.err.splitlines() == [
        f"xiangqi: skipped {top / 'readme.txt'}: not a game record of a known format",
    ]
    assert shown.out.splitlines() == [
        f"{want} games, {shown.out.split(' games, ')[1].split()[0]} plies written to "
        f"{out} from 2 files (1 skipped)",
    ]


def test_a_non_utf8_folder_and_output_name_work(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"\xc6\xe5\xc6\xd7")  # GBK for 棋谱
    os.mkdir(folder)
    shutil.copy(os.fsencode(TWO), os.path.join(folder, b"\xff.pgn"))
    out = os.path.join(folder, b"\xfe-out.pgn")
    summary = convert(folder, out)
    assert summary.games == events(TWO)
    with open(out, "rb") as handle:
        assert len(list(read_games(handle.read()))) == events(TWO)


def test_ctrl_c_while_converting_is_one_line_and_keeps_the_old_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import xiangqi.records as records

    out = tmp_path / "out.pgn"
    out.write_bytes(b"an earlier conversion\n")

    def interrupted_writer(notation: str = "ICCS") -> object:
        def write(games: object, handle: object) -> int:
            raise KeyboardInterrupt

        return write

    monkeypatch.setattr(records, "pgn_writer", interrupted_writer)
    assert main(["convert", str(TWO), str(out)]) == 130
    assert capsys.readouterr().err == f"xiangqi: interrupted; {out} left as it was\n"
    assert out.read_bytes() == b"an earlier conversion\n" and os.listdir(tmp_path) == ["out.pgn"]


# -- the output among a folder's files, folders at any depth, FIFOs, no games -------------------

PRECIOUS = b'[Event "PRECIOUS"]\n\n1. h2e2 *\n'
OTHER = b'[Event "other"]\n\n1. b2e2 *\n'


def _club(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    club.mkdir()
    (club / "a.pgn").write_bytes(PRECIOUS)
    (club / "b.pgn").write_bytes(OTHER)
    return club


def test_an_output_that_is_a_folders_file_under_another_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `ln -s club/a.pgn link.pgn; xiangqi convert club link.pgn` replaced a.pgn, whose games
    # were skipped as "the output itself": only that very name in that folder is skipped.
    club = _club(tmp_path)
    link = tmp_path / "link.pgn"
    link.symlink_to(club / "a.pgn")
    hard = tmp_path / "hard.pgn"
    os.link(club / "a.pgn", hard)
    for output in (link, hard):
        with pytest.raises(OutputFileError, match="also the input.*a.pgn"):
            convert(club, output)
        assert main(["convert", str(club), str(output)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("xiangqi: error:") and "also the input" in err
    # A link inside the folder to the output: the output's file under another name too.
    out = tmp_path / "out.pgn"
    out.write_bytes(OTHER)
    (club / "c.pgn").symlink_to(out)
    with pytest.raises(OutputFileError, match="also the input"):
        convert(club, out)
    (club / "c.pgn").unlink()
    assert (club / "a.pgn").read_bytes() == PRECIOUS and out.read_bytes() == OTHER
    assert link.is_symlink() and sorted(os.listdir(club)) == ["a.pgn", "b.pgn"]


def test_no_game_found_is_an_error_and_keeps_the_old_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty output is no game record (nothing reads it back): refused, the old file kept.
    empty = tmp_path / "empty"
    empty.mkdir()
    prose = tmp_path / "prose"
    prose.mkdir()
    (prose / "notes.txt").write_text("prose, no games\n", encoding="utf-8")
    keep = tmp_path / "keep.xqf"
    keep.write_bytes(b"an earlier conversion\n")
    for folder in (empty, prose):
        with pytest.raises(XiangqiError, match="no game found"):
            convert(folder, keep)
        assert main(["convert", str(folder), str(keep)]) == 2
        assert "no game found" in capsys.readouterr().err
    assert keep.read_bytes() == b"an earlier conversion\n"
    assert sorted(os.listdir(tmp_path)) == ["empty", "keep.xqf", "prose"]


@pytest.mark.slow  # a thousand folders made and walked
def test_recursive_reads_a_thousand_nested_folders(tmp_path: Path) -> None:
    top = tmp_path / "deep"
    folders = [top]
    for _ in range(1000):  # deeper than Python's recursion limit
        folders.append(folders[-1] / "d")
    try:
        for folder in folders:
            folder.mkdir()
        (folders[-1] / "x.pgn").write_bytes(PRECIOUS)
        (top / "d" / "y.pgn").write_bytes(OTHER)
        out = tmp_path / "out.pgn"
        summary = convert(top, out, recursive=True)
        # Depth first in name order: d/d/.../x.pgn ("d" sorts before "y.pgn"), then d/y.pgn.
        assert [Path(p).name for p in summary.files] == ["x.pgn", "y.pgn"]
        assert summary.games == 2 == games_in(out)
    finally:  # bottom up: shutil.rmtree (and pytest's clean-up) recurse, as convert did
        for folder in reversed(folders):
            for name in ("x.pgn", "y.pgn"):
                (folder / name).unlink(missing_ok=True)
            if folder.exists():
                folder.rmdir()


def test_a_folder_file_that_cannot_be_reached_is_skipped_when_the_output_exists(
    tmp_path: Path,
) -> None:
    # A subfolder that can be listed (r) but not entered (no x): its files' names are known,
    # they cannot be opened nor stat'ed. Root reaches every file: run as nobody.
    if os.geteuid() != 0:
        pytest.skip("needs root to become another user")
    base = Path(tempfile.mkdtemp(prefix="xiangqi-convert-"))
    try:
        os.chmod(base, 0o777)
        top = base / "in"
        (top / "sub").mkdir(parents=True)
        (top / "a.pgn").write_bytes(PRECIOUS)
        (top / "sub" / "x.pgn").write_bytes(OTHER)
        os.chmod(top / "sub", 0o744)
        out = base / "out.pgn"
        out.write_bytes(b"an earlier conversion\n")
        os.chown(out, 65534, 65534)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child, as nobody: never returns into pytest
            try:
                os.close(read)
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
                try:
                    summary = convert(top, out, recursive=True)
                    answer = f"{summary.games}\n" + "\n".join(
                        f"{s.path}: {s.reason}" for s in summary.skipped
                    )
                except BaseException as exc:
                    answer = f"{type(exc).__name__}: {exc}"
                os.write(write, answer.encode("utf-8", "backslashreplace"))
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            answer = pipe.read().decode("utf-8")
        os.waitpid(pid, 0)
        assert answer.splitlines() == [
            "1",
            f"{top / 'sub' / 'x.pgn'}: cannot be read: {os.strerror(errno.EACCES)}",
        ]
        assert games_in(out) == 1
    finally:
        shutil.rmtree(base)


def test_a_fifo_named_as_an_input_with_no_writer_does_not_hang(tmp_path: Path) -> None:
    # A named input is read whatever it is (a pipe such as <(...) as it comes); a FIFO that
    # nobody writes reads as empty: no game, an error, not a hang.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out.pgn"
    for extra in (["--from", "pgn"], []):
        run = subprocess.run(
            [sys.executable, "-m", "xiangqi", "convert", str(fifo), str(out), *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and run.stderr.startswith("xiangqi: error:"), run.stderr
    assert sorted(os.listdir(tmp_path)) == ["fifo"]


def test_a_pipe_named_as_an_input_is_read(tmp_path: Path) -> None:
    read, write = os.pipe()  # what a shell's <(cat two-games.pgn) names as /dev/fd/N
    try:
        with os.fdopen(write, "wb") as writer:
            writer.write(PRECIOUS)  # fits in the pipe's buffer
        out = tmp_path / "out.pgn"
        assert convert(f"/dev/fd/{read}", out).games == 1 == games_in(out)
    finally:
        os.close(read)


def test_a_folder_file_made_a_fifo_after_listing_is_skipped_not_waited_for(
    tmp_path: Path,
) -> None:
    club = _club(tmp_path)
    out = tmp_path / "out.pgn"
    # In a child with a timeout: an open() of a FIFO with no writer blocks for ever.
    code = (
        "import os, sys\nimport xiangqi.records as records\n"
        "listed = records._folder_files\n"
        "def swapped(*args, **kwargs):\n"
        "    found = listed(*args, **kwargs)\n"
        "    os.unlink(found[0]); os.mkfifo(found[0])\n"
        "    return found\n"
        "records._folder_files = swapped\n"
        "summary = records.convert(sys.argv[1], sys.argv[2])\n"
        "print(summary.games, [(os.path.basename(s.path), s.reason) for s in summary.skipped])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(club), str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.stdout == "1 [('a.pgn', 'not a regular file (when it was opened)')]\n", run.stderr
    assert stat.S_ISFIFO(os.lstat(club / "a.pgn").st_mode) and games_in(out) == 1
