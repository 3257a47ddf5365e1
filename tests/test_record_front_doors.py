"""The record front doors without traps (issue 27 item 6) and a user's file never destroyed
(issue 30 section 1): a file name is never read as PGN text, a non-record is refused, and
write_games / convert check everything first, write beside the target and replace it only
on success, and refuse an output that is the input by identity."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pyffish
import pytest

from xiangqi import Move, Position, generate_legal
from xiangqi.__main__ import main
from xiangqi.notation import iccs
from xiangqi.pgn import Game, GameNode, read_game, read_games
from xiangqi.records import (
    RecordFileError,
    UnknownFormatError,
    open_games,
    write_games,
)

BIG5 = Path(__file__).parent / "data" / "games" / "ccpd-big5" / "master-002.pgn"
TWO_GAMES = '[Event "one"]\n\n1. h2e2 h9g7 *\n\n[Event "two"]\n\n1. c3c4 1-0\n'
MARKDOWN = "# Notes\n\nSome *prose* about xiangqi, with a [link](https://example.org).\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- a file name is never read as PGN text ------------------------------------------------


def test_a_str_naming_a_file_is_refused_saying_to_pass_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "games.pgn", TWO_GAMES)
    monkeypatch.chdir(tmp_path)
    for name in (str(path), "games.pgn"):  # absolute, and relative to the working directory
        with pytest.raises(TypeError, match="pathlib.Path"):
            read_game(name)
        with pytest.raises(TypeError, match="pathlib.Path"):
            read_games(name)
    # A str that names no file is PGN text, as before.
    game = read_game("1. h2e2 h9g7 *")
    assert game is not None and [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]


def test_a_path_opens_the_file_with_its_encoding_sniffed(tmp_path: Path) -> None:
    path = write(tmp_path / "games.pgn", TWO_GAMES)
    first = read_game(path)
    assert first is not None and first.tags["Event"] == "one"
    games = read_games(path)
    assert iter(games) is games  # always an iterator (issue 26)
    assert [g.tags["Event"] for g in games] == ["one", "two"]
    # A Big5 file from the Chinese Chess Practical Dataset: decoded by Python's cp950 codec
    # (independent of the sniffing), then read as text, gives the same game.
    expected = read_game(BIG5.read_bytes().decode("cp950"))
    got = read_game(BIG5)
    assert got is not None and expected is not None
    assert got.tags == expected.tags and got.errors == []
    assert got.mainline_moves() == expected.mainline_moves()


# -- a non-record is refused ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        MARKDOWN,
        "1. Install the package\n2. Run it\n",
        "hello world\n",
        "".join(map(chr, range(32, 127))),
    ],
)
def test_open_games_refuses_what_is_no_game_record(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "notes.md", text)
    with pytest.raises(UnknownFormatError, match="not a game record"):
        open_games(path)


@pytest.mark.parametrize(
    "text",
    [
        "1. h2e2 h9g7 *\n",  # move text only
        '[Event "x"]\n',  # tags only
        "%escape\n; a line comment\n{a comment} 1. 炮二平五 马８进７ *\n",
        "炮二平五 马８进７ *\n",  # Chinese moves without numbers
        "1. Che3 Hg8 *\n",  # SAN
    ],
)
def test_open_games_recognises_pgn_by_its_structure(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "game.txt", text)
    games = list(open_games(path))
    assert len(games) == 1 and games[0].errors == []


def test_convert_refuses_a_markdown_file_with_a_status_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "README.md", MARKDOWN)
    target = tmp_path / "out.pgn"
    assert main(["convert", str(source), str(target)]) == 2
    assert "not a game record" in capsys.readouterr().err
    assert not target.exists() and os.listdir(tmp_path) == ["README.md"]


# -- SAN on game nodes --------------------------------------------------------------------------


@pytest.mark.slow
def test_node_san_is_fairy_stockfishs_san_over_random_games() -> None:
    rng = random.Random(27)
    checked = 0
    for _ in range(20):
        game = Game()
        pos = Position()
        node = game
        for _ in range(rng.randrange(10, 60)):
            moves = generate_legal(pos)
            if not moves:
                break
            move = rng.choice(moves)
            expected = pyffish.get_san(
                "xiangqi", pos.fen(), iccs(move, "ranks1"), False, pyffish.NOTATION_SAN
            )
            node = node.add_variation(move)
            assert node.san() == expected, (pos.fen(), move)
            pos.push(move)
            checked += 1
    assert checked > 300


# -- a user's file is never destroyed -------------------------------------------------------


def test_convert_a_part_file_to_its_own_name_keeps_the_input(tmp_path: Path) -> None:
    # The old convert wrote OUT + ".part": here that is IN, which it truncated.
    source = write(tmp_path / "games.pgn.part", TWO_GAMES)
    target = tmp_path / "games.pgn"
    assert main(["convert", str(source), str(target)]) == 0
    assert source.read_text(encoding="utf-8") == TWO_GAMES
    assert [g.tags["Event"] for g in read_games(target)] == ["one", "two"]
    assert sorted(os.listdir(tmp_path)) == ["games.pgn", "games.pgn.part"]  # no temporary left


def test_convert_refuses_an_output_that_is_the_input_by_identity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "games.pgn", TWO_GAMES)
    alias = tmp_path / "alias.pgn"
    os.link(source, alias)  # another name, the same file
    link = tmp_path / "link.pgn"
    link.symlink_to(source)
    for target in (source, alias, link):
        assert main(["convert", str(source), str(target)]) == 2
        assert "the output is also the input" in capsys.readouterr().err
    assert source.read_text(encoding="utf-8") == TWO_GAMES


def test_write_games_refuses_to_write_over_the_file_it_reads(tmp_path: Path) -> None:
    path = write(tmp_path / "games.pgn", TWO_GAMES)
    games = open_games(path)
    with pytest.raises(RecordFileError, match="the output is also the input"):
        write_games(games, path)
    games.close()  # type: ignore[attr-defined]
    assert path.read_text(encoding="utf-8") == TWO_GAMES
    # ... also through another name of the same file
    alias = tmp_path / "alias.pgn"
    os.link(path, alias)
    games = open_games(path)
    with pytest.raises(RecordFileError):
        write_games(games, alias)
    games.close()  # type: ignore[attr-defined]
    assert path.read_text(encoding="utf-8") == TWO_GAMES
    # Read into memory first, then writing back is fine.
    games_read = list(open_games(path))
    assert write_games(games_read, path) == 2
    assert [g.tags["Event"] for g in read_games(path)] == ["one", "two"]


def test_a_failed_write_games_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "game.xqf"
    old = b"an earlier file, not to be lost"
    path.write_bytes(old)
    os.chmod(path, 0o640)
    games = list(read_games(TWO_GAMES))
    with pytest.raises(UnknownFormatError, match="one game"):
        write_games(games, path)  # XQF holds one game: fails at the second
    assert path.read_bytes() == old and os.listdir(tmp_path) == ["game.xqf"]
    # A success replaces it and keeps its permissions.
    assert write_games(games[:1], path) == 1
    assert path.read_bytes().startswith(b"XQ") and (path.stat().st_mode & 0o777) == 0o640


def test_write_games_checks_its_arguments_before_touching_a_file(tmp_path: Path) -> None:
    path = tmp_path / "out.pgn"
    games = [Game()]
    with pytest.raises(UnknownFormatError):
        write_games(games, path, format="nonsense")
    with pytest.raises(UnknownFormatError):
        write_games(games, tmp_path / "out.unknown")
    with pytest.raises(TypeError):
        write_games(games, 42)  # type: ignore[arg-type]
    (tmp_path / "dir.pgn").mkdir()
    with pytest.raises(RecordFileError, match="directory"):
        write_games(games, tmp_path / "dir.pgn")
    assert sorted(os.listdir(tmp_path)) == ["dir.pgn"]
    assert write_games(games, path) == 1
    again = read_game(path)
    assert again is not None and again.mainline_moves() == [] and again.errors == []


# -- formats by their structure (issue 30 section 3) ---------------------------------------


def test_a_pgn_quoting_dhtml_or_cbf_in_a_comment_is_still_pgn(tmp_path: Path) -> None:
    for quote in (
        "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
        "<ChineseChessRecord>",
    ):
        text = (
            '[Event "one"]\n\n{the site wrote it as ' + quote + "} 1. h2e2 h9g7 *\n\n"
            '[Event "two"]\n\n1. c3c4 *\n\n[Event "three"]\n\n1. b2e2 *\n'
        )
        path = write(tmp_path / "games.pgn", text)
        games = list(open_games(path))
        assert [g.tags["Event"] for g in games] == ["one", "two", "three"], quote
        assert quote in games[0].comment


@pytest.mark.parametrize(
    "xml",
    [
        '<Move value="77²7"/>',
        '<Move value="7' + "7" * 5000 + '"/>',
    ],
)
def test_odd_numbers_in_cbf_fields_give_the_librarys_errors(tmp_path: Path, xml: str) -> None:
    for result in ("²", "1" * 5000):
        text = (
            '<?xml version="1.0" encoding="utf-8"?><ChineseChessRecord Version="1.0"><Head>'
            f"<RecordResult>{result}</RecordResult></Head>"
            f'<MoveList><Move value="00-00"/>{xml}</MoveList></ChineseChessRecord>'
        )
        path = write(tmp_path / "game.cbf", text)
        (game,) = list(open_games(path))
        assert game.result == "*" and game.variations == [] and game.errors
        assert main(["convert", str(path), str(tmp_path / "out.pgn")]) == 0


# -- null moves (issue 30 section 4) ----------------------------------------------------------


def null_game() -> Game:
    game = Game()
    for move in (Move.from_iccs("h2e2"), Move.null(), Move.from_iccs("h0g2")):
        game.add_move(move)
    game.add_move(Move.from_iccs("h9g7"))
    game.variations[0].add_variation(Move.from_iccs("h9g7"))  # a variation beside the pass
    return game


@pytest.mark.parametrize("fmt", ["ICCS", "WXF", "Chinese", "SAN"])
def test_pgn_writes_a_null_move_as_python_chess_does_and_reads_it_back(fmt: str) -> None:
    game = null_game()
    text = game.to_pgn(fmt)
    assert " -- " in text and "00-00" not in text  # python-chess's token for a null move
    again = read_game(text)
    assert again is not None and again.errors == []
    assert again.mainline_moves() == game.mainline_moves()
    assert again.to_pgn(fmt) == text


def test_a_null_move_while_in_check_is_read_as_an_error() -> None:
    # Red's rook moves to e0 and checks: Black may not pass (Position.push refuses it).
    game = read_game('[FEN "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1"]\n\n1. f0e0 -- *\n')
    assert game is not None and len(game.errors) == 1
    assert "null move" in str(game.errors[0]) and game.unread == ["--"]


def test_notation_writers_refuse_a_null_move_saying_so() -> None:
    from xiangqi.notation import chinese, san, wxf

    for write in (wxf, chinese, san):
        with pytest.raises(ValueError, match="null move"):
            write(Position(), Move.null())


@pytest.mark.parametrize("suffix", [".xqf", ".dhtml"])
def test_xqf_and_dhtml_refuse_a_null_move_and_leave_the_file(tmp_path: Path, suffix: str) -> None:
    from xiangqi.records import UnwritableGameError

    path = tmp_path / f"game{suffix}"
    path.write_bytes(b"old")
    with pytest.raises(UnwritableGameError, match="null move.*ply 2"):
        write_games([null_game()], path)
    assert path.read_bytes() == b"old"


def random_tree_with_passes(seed: int) -> Game:
    """A random tree (variations, comments, NAGs) where about one move in eight is a pass."""
    rng = random.Random(seed)
    game = Game()
    nodes: list[GameNode] = [game]
    for _ in range(rng.randrange(5, 80)):
        node = rng.choice(nodes)
        pos = node.board()
        moves = list(generate_legal(pos))
        if not pos.is_check() and rng.random() < 0.125:
            moves = [Move.null()]
        moves = [m for m in moves if not node.has_variation(m)]
        if not moves:
            continue
        child = node.add_variation(
            rng.choice(moves), comment=rng.choice(["", "c", "注"]), nags=rng.choice([(), (1,)])
        )
        nodes.append(child)
    return game


@pytest.mark.slow
def test_random_trees_with_passes_survive_every_writer_or_are_refused() -> None:
    from record_games import tree

    from xiangqi.records import UnwritableGameError
    from xiangqi.records.dhtml import read_dhtml, write_dhtml
    from xiangqi.records.xqf import read_xqf, write_xqf

    passes = 0
    for seed in range(150):
        game = random_tree_with_passes(seed)
        has_pass = any(not n.move for n in _nodes(game))
        passes += has_pass
        for fmt in ("ICCS", "WXF", "Chinese", "SAN"):
            again = read_game(game.to_pgn(fmt))
            assert again is not None and again.errors == [], (seed, fmt)
            assert tree(again) == tree(game), (seed, fmt)
        for write, read in ((write_xqf, read_xqf), (write_dhtml, read_dhtml)):
            if has_pass:
                with pytest.raises(UnwritableGameError):
                    write(game)
            else:
                assert tree(read(write(game))) == tree(game), seed  # type: ignore[arg-type]
    assert 30 < passes < 150


def _nodes(game: Game) -> list[GameNode]:
    out: list[GameNode] = []
    stack: list[GameNode] = [game]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.variations)
    return out[1:]
