"""Users' output files (xiangqi._files): one test per rule. An output that is a FIFO, a
device, a socket or a directory is refused and left as it was (never opened: a FIFO does
not hang); an output that is an input by identity is refused; a symlinked target is written
through; permission bits are kept; a failed write leaves the old bytes and no temporary
file; paths in any encoding work."""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from xiangqi._files import (
    OutputFileError,
    ReplacingFile,
    check_output,
    check_outputs,
    replace_file,
)
from xiangqi.errors import XiangqiError

OLD = b"the user's old file\n"


def _write(data: bytes) -> Callable[[IO[bytes]], int]:
    def write(out: IO[bytes]) -> int:
        out.write(data)
        return len(data)

    return write


def test_output_file_error_is_a_value_error() -> None:
    assert issubclass(OutputFileError, XiangqiError) and issubclass(OutputFileError, ValueError)


def test_a_fifo_is_refused_not_replaced_and_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pgn"
    os.mkfifo(fifo)
    # In a child with a timeout: opening a FIFO with no reader would block for ever.
    code = (
        "import sys\nfrom xiangqi._files import replace_file, OutputFileError\n"
        "try:\n    replace_file(sys.argv[1], lambda out: out.write(b'x'))\n"
        "except OutputFileError as exc:\n    print(exc)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert "FIFO" in run.stdout and str(fifo) in run.stdout, run.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe.pgn"]


def test_dev_null_is_refused_and_stays_a_character_device() -> None:
    with pytest.raises(OutputFileError, match="character device.*/dev/null"):
        check_output("/dev/null")
    with pytest.raises(OutputFileError, match="character device"):
        replace_file("/dev/null", _write(b"x"))
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        with pytest.raises(OutputFileError, match="socket"):
            replace_file(path, _write(b"x"))
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        server.close()


def test_a_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "games.pgn"
    folder.mkdir()
    with pytest.raises(OutputFileError, match="directory"):
        replace_file(folder, _write(b"x"))
    assert folder.is_dir() and os.listdir(tmp_path) == ["games.pgn"]


def test_a_missing_parent_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="no directory"):
        check_output(tmp_path / "nowhere" / "out.pgn")
    assert os.listdir(tmp_path) == []


def test_the_same_file_as_an_input_by_hard_link_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.pgn"
    source.write_bytes(OLD)
    alias = tmp_path / "alias.pgn"
    os.link(source, alias)
    with pytest.raises(OutputFileError, match="also the input"):
        check_output(alias, inputs=[source])
    st = source.stat()
    with pytest.raises(OutputFileError, match="also the input"):
        replace_file(alias, _write(b"x"), inputs=[(st.st_dev, st.st_ino)])
    assert source.read_bytes() == OLD
    # Another file of the same name elsewhere is not the input.
    other = tmp_path / "other.pgn"
    other.write_bytes(OLD)
    assert check_output(other, inputs=[source]) == os.path.realpath(other)


def test_the_same_file_as_an_input_by_symlink_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.pgn"
    source.write_bytes(OLD)
    link = tmp_path / "link.pgn"
    link.symlink_to(source)
    with pytest.raises(OutputFileError, match="also the input"):
        check_output(link, inputs=[source])
    with pytest.raises(OutputFileError, match="also the input"):
        check_output(source, inputs=[link])
    assert source.read_bytes() == OLD


def test_two_outputs_naming_one_file_are_refused(tmp_path: Path) -> None:
    a = tmp_path / "a.pgn"
    link = tmp_path / "b.pgn"
    link.symlink_to(a)  # a does not exist yet: one target all the same
    with pytest.raises(OutputFileError, match="--pgn and --results name the same file"):
        check_outputs({"--results": a, "--pgn": link})
    assert check_outputs({"--pgn": a, "--results": None}) == {"--pgn": os.path.realpath(a)}


def test_a_symlinked_target_is_written_through_and_the_link_stays(tmp_path: Path) -> None:
    real = tmp_path / "real.pgn"
    real.write_bytes(OLD)
    link = tmp_path / "link.pgn"
    link.symlink_to(real)
    assert check_output(link) == os.path.realpath(real)
    assert replace_file(link, _write(b"new")) == 3
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "out.pgn"
    path.write_bytes(OLD)
    os.chmod(path, 0o644)
    replace_file(path, _write(b"new"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and path.read_bytes() == b"new"
    os.chmod(path, 0o600)
    replace_file(path, _write(b"newer"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_new_file_gets_the_umasks_mode(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        replace_file(tmp_path / "new.pgn", _write(b"x"))
        # What open() itself gives a new file under this umask: the independent reference.
        with open(tmp_path / "plain", "wb"):
            pass
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.pgn").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == 0o640


def test_an_exception_in_the_writer_leaves_the_old_bytes_and_no_temporary(
    tmp_path: Path,
) -> None:
    path = tmp_path / "out.pgn"
    path.write_bytes(OLD)

    def fail(out: IO[bytes]) -> None:
        out.write(b"half a game")
        raise RuntimeError("the writer failed")

    with pytest.raises(RuntimeError, match="the writer failed"):
        replace_file(path, fail)
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == ["out.pgn"]


def test_a_full_disk_leaves_the_old_bytes_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.pgn"
    path.write_bytes(OLD)

    def full(out: IO[bytes]) -> None:
        out.write(b"x" * 10_000)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(OSError) as info:
        replace_file(path, full)
    assert info.value.errno == errno.ENOSPC
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == ["out.pgn"]


def test_ctrl_c_in_the_writer_leaves_the_old_bytes_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.pgn"
    path.write_bytes(OLD)

    def interrupted(out: IO[bytes]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        replace_file(path, interrupted)
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == ["out.pgn"]


def test_replacing_file_commits_or_discards(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(OLD)
    with ReplacingFile(path) as out:
        out.handle.write("game 1\n")
        out.handle.write("game 2\n")
        assert path.read_bytes() == OLD  # nothing replaced before the end
    assert path.read_text(encoding="utf-8") == "game 1\ngame 2\n"
    with pytest.raises(KeyboardInterrupt), ReplacingFile(path, text=False) as binary:
        binary.handle.write(b"partial")
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == "game 1\ngame 2\n"
    explicit = ReplacingFile(path)
    explicit.handle.write("dropped")
    explicit.discard()
    assert path.read_text(encoding="utf-8") == "game 1\ngame 2\n"
    assert os.listdir(tmp_path) == ["games.pgn"]


def test_a_fifo_made_while_writing_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    out = ReplacingFile(path)
    out.handle.write("a long match")
    os.mkfifo(path)
    with pytest.raises(OutputFileError, match="FIFO"):
        out.commit()
    assert stat.S_ISFIFO(os.lstat(path).st_mode) and os.listdir(tmp_path) == ["games.pgn"]


def test_a_non_utf8_bytes_path_works(tmp_path: Path) -> None:
    name = b"\xff\xfe-games.pgn"  # not UTF-8; Linux file names are bytes
    path = os.path.join(os.fsencode(tmp_path), name)
    replace_file(path, _write(OLD))
    assert os.listdir(os.fsencode(tmp_path)) == [name]
    with open(path, "rb") as handle:
        assert handle.read() == OLD
    with pytest.raises(OutputFileError, match="also the input"):
        check_output(path, inputs=[path])


def test_a_surrogate_escaped_str_path_works(tmp_path: Path) -> None:
    name = os.fsdecode(b"\xc4\xe3\xba\xc3.pgn")  # GBK bytes: not UTF-8, kept by surrogateescape
    path = tmp_path / name
    with ReplacingFile(path) as out:
        out.handle.write("1. h2e2 *\n")
    assert os.listdir(os.fsencode(tmp_path)) == [b"\xc4\xe3\xba\xc3.pgn"]
    assert path.read_text(encoding="utf-8") == "1. h2e2 *\n"


def test_a_long_file_name_gets_a_temporary_name_that_fits(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 250 + ".pgn")  # 254 bytes: the limit is 255
    replace_file(path, _write(OLD))
    assert path.read_bytes() == OLD


def test_a_path_of_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="path"):
        check_output(42)  # type: ignore[arg-type]
