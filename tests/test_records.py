"""The front door to game records: xiangqi.open_games, the format registry, `xiangqi convert`."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from xqf_writer import encode

import xiangqi
from xiangqi import Move
from xiangqi.__main__ import main
from xiangqi.pgn import Game, read_games
from xiangqi.records import (
    RecordFormat,
    UnknownFormatError,
    find_format,
    formats,
    open_games,
    register,
    write_games,
)

GAMES = Path(__file__).parent / "data" / "games"
BIG5 = GAMES / "ccpd-big5" / "master-000.pgn"
WUKONG = GAMES / "wukong" / "wukong_chinese.pgn"


def sample_game() -> Game:
    game = Game(tags={"Event": "test", "Red": "red", "Black": "black", "Result": "1-0"})
    node = game.add_move(Move.from_iccs("h2e2"), comment="central cannon")
    game.add_move(Move.from_iccs("h9g7"))
    node.add_variation(Move.from_iccs("b9c7"))
    game.add_move(Move.from_iccs("h0g2"))
    return game


def moves_of(games: Iterator[Game] | list[Game]) -> list[list[str]]:
    return [[m.iccs() for m in g.mainline_moves()] for g in games]


def test_open_games_reads_pgn_in_any_encoding_from_paths_and_files() -> None:
    expected = list(read_games(BIG5.read_bytes().decode("cp950")))
    assert moves_of(xiangqi.open_games(BIG5)) == moves_of(expected)
    assert moves_of(xiangqi.open_games(str(BIG5))) == moves_of(expected)
    with BIG5.open("rb") as handle:
        assert moves_of(open_games(handle)) == moves_of(expected)
    with WUKONG.open(encoding="utf-8") as text:
        assert len(list(open_games(text))) == 100


class Pipe(io.RawIOBase):
    """A non-seekable binary stream, as a pipe is."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), len(self.data), 1000)
        buffer[:n] = self.data[:n]
        self.data = self.data[n:]
        return n


@pytest.mark.slow
def test_open_games_sniffs_a_pipe_without_losing_its_head() -> None:
    data = WUKONG.read_bytes()
    games = list(open_games(io.BufferedReader(Pipe(data))))
    assert moves_of(games) == moves_of(read_games(data.decode("utf-8")))
    xqf = encode(sample_game())
    (game,) = open_games(io.BufferedReader(Pipe(xqf)))
    assert moves_of([game]) == [["h2e2", "h9g7", "h0g2"]]


def test_open_games_recognises_xqf_by_its_magic(tmp_path: Path) -> None:
    path = tmp_path / "game.bin"  # the extension does not matter when reading
    path.write_bytes(encode(sample_game()))
    (game,) = xiangqi.open_games(path)
    assert moves_of([game]) == [["h2e2", "h9g7", "h0g2"]]
    assert game.variations[0].comment == "central cannon"
    assert [c.move.iccs() for c in game.variations[0].variations] == ["h9g7", "b9c7"]
    assert game.tags["Red"] == "red" and game.result == "1-0"


def test_unknown_content_and_names_are_refused() -> None:
    with pytest.raises(UnknownFormatError, match="not a game record.*x00"):
        list(open_games(io.BytesIO(b"\x00\x01\x02binary")))
    with pytest.raises(UnknownFormatError, match="no game-record format 'cbz'"):
        open_games(io.BytesIO(b""), format="cbz")
    with pytest.raises(TypeError, match="bytes"):
        open_games(b"[Event]")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int"):
        open_games(3)  # type: ignore[arg-type]


def test_a_registered_format_is_sniffed_before_the_text_fallback() -> None:
    seen: list[bytes] = []

    def sniff(head: bytes) -> bool:
        return head.startswith(b"TOYFMT")

    def read(handle: IO[bytes]) -> Iterator[Game]:
        seen.append(handle.read())
        yield sample_game()

    register(RecordFormat("toy", (".toy",), sniff, read, priority=20))
    try:
        assert [f.name for f in formats()].index("toy") < [f.name for f in formats()].index("pgn")
        (game,) = open_games(io.BytesIO(b"TOYFMT 1. h2e2 *"))
        assert seen == [b"TOYFMT 1. h2e2 *"]  # the reader gets the file from its start
        assert game.tags["Event"] == "test"
        assert find_format("TOY").name == "toy"
    finally:
        from xiangqi import records

        del records._FORMATS["toy"]


def test_write_games_by_extension_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "out.pgn"
    assert write_games([sample_game(), sample_game()], out) == 2
    games = list(open_games(out))
    assert len(games) == 2 and games[0].to_pgn() == sample_game().to_pgn()
    with pytest.raises(UnknownFormatError, match="'.txt'"):
        write_games([sample_game()], tmp_path / "out.txt")


# -- the command line ---------------------------------------------------------------------------


def test_convert_big5_pgn_to_pgn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pgn"
    assert main(["convert", str(BIG5), str(out), "--notation", "chinese"]) == 0
    text = out.read_text(encoding="utf-8")
    assert '[Red "洪磊鑫"]' in text and "炮二平四" in text
    expected = list(read_games(BIG5.read_bytes().decode("cp950")))
    assert moves_of(read_games(text)) == moves_of(expected)
    assert "1 game, 63 plies written" in capsys.readouterr().out
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.slow
def test_convert_shows_a_progress_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from xiangqi.__main__ import _Progress

    monkeypatch.setattr(_Progress, "PLAIN_EVERY", 0.0)  # a line per game (stderr is no tty)
    out = tmp_path / "out.pgn"
    assert main(["convert", str(WUKONG), str(out), "--notation", "wxf", "--progress"]) == 0
    shown = capsys.readouterr()
    lines = shown.err.splitlines()
    assert len(lines) == 100 and shown.out.startswith("100 games, 9830 plies written")
    assert lines[0].startswith(f"converting {WUKONG}: 1 game, ")
    assert lines[99].startswith(f"converting {WUKONG}: 100 games, 9830 plies")
    assert len(list(read_games(out.read_text(encoding="utf-8")))) == 100


def test_convert_xqf_to_pgn(tmp_path: Path) -> None:
    source = tmp_path / "game.xqf"
    source.write_bytes(encode(sample_game()))
    out = tmp_path / "game.pgn"
    assert main(["convert", str(source), str(out)]) == 0
    (game,) = list(read_games(out.read_text(encoding="utf-8")))
    assert game.to_pgn() == sample_game().to_pgn()


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.pgn", "out.pgn"], "No such file"),
        (["in.pgn", "out.txt"], "no game-record format is written as '.txt'"),
        (["in.pgn", "in.pgn"], "the output is also the input"),
        (["in.pgn", "out.pgn", "--from", "cbz"], "no game-record format 'cbz'"),
        (["in.pgn", "out.pgn", "--from", "xqf"], "not an XQF file"),
    ],
)
def test_convert_bad_arguments_give_one_error_line_and_status_2(
    args: list[str], message: str, tmp_path: Path
) -> None:
    (tmp_path / "in.pgn").write_text("1. h2e2 *\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "xiangqi", "convert", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
    )
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xiangqi: error:"), run.stderr
    assert message in lines[0]
    assert "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pgn"]


# -- every format through the front door -------------------------------------------------------

DATA = Path(__file__).parent / "data"


def _real_record_files() -> list[tuple[Path, str]]:
    files = [(p, "xqf") for p in sorted((DATA / "xqf").glob("*.XQF"))]
    files += [
        (DATA / "dhtml" / name, "dhtml")
        for name in ("dpxq_liu_zhang.txt", "ccbridge_chen_wang.txt", "annotated_fragment.txt")
    ]
    return files


@pytest.mark.parametrize("path, name", _real_record_files(), ids=lambda v: getattr(v, "name", v))
def test_open_games_recognises_real_files_and_reads_what_their_reader_reads(
    path: Path, name: str
) -> None:
    from xiangqi.records.dhtml import read_dhtml
    from xiangqi.records.xqf import read_xqf

    own = {"xqf": read_xqf, "dhtml": read_dhtml}[name](path)
    (game,) = open_games(path)
    assert game.to_pgn() == own.to_pgn()
    assert len(list(game.mainline_moves())) > 0


def test_open_games_recognises_the_ccbridge_formats(tmp_path: Path) -> None:
    from cbr_writer import encode_cbf, encode_cbl, encode_cbr

    game = sample_game()
    (tmp_path / "a.bin").write_bytes(encode_cbr(game))
    (tmp_path / "b.bin").write_bytes(encode_cbl([encode_cbr(game), encode_cbr(game)]))
    (tmp_path / "c.bin").write_bytes(encode_cbf(game))
    main_line = [m.iccs() for m in game.mainline_moves()]
    assert moves_of(open_games(tmp_path / "a.bin")) == [main_line]
    assert moves_of(open_games(tmp_path / "b.bin")) == [main_line, main_line]
    assert moves_of(open_games(tmp_path / "c.bin")) == [main_line]
    assert [f.name for f in formats()][:3] == ["cbl", "cbr", "xqf"]


@pytest.mark.parametrize("suffix", [".xqf", ".dhtml"])
def test_convert_pgn_to_each_writable_format_reads_back(tmp_path: Path, suffix: str) -> None:
    source = tmp_path / "game.pgn"
    source.write_text(sample_game().to_pgn(), encoding="utf-8")
    out = tmp_path / f"game{suffix}"
    assert main(["convert", str(source), str(out)]) == 0
    (back,) = open_games(out)
    assert moves_of([back]) == moves_of([sample_game()])
    assert back.tags["Red"] == "red" and back.tags["Black"] == "black"
    assert back.next() is not None and back.next().comment == "central cannon"  # type: ignore[union-attr]


def test_a_one_game_format_refuses_a_second_game_and_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "two.xqf"
    with pytest.raises(UnknownFormatError, match="one game"):
        write_games([sample_game(), sample_game()], out)
    assert not out.exists()
