"""PGN files as published: one encoding per file (Big5, GBK, UTF-8, UTF-16), random access by
tell()/seek(), and a writer that refuses what its reader could not read back."""

from __future__ import annotations

import copy
import io
import pickle
from pathlib import Path

import pytest

from xiangqi import Move, Position
from xiangqi.pgn import Game, read_game, read_games

BIG5 = Path(__file__).parent / "data" / "games" / "ccpd-big5"
WUKONG = Path(__file__).parent / "data" / "games" / "wukong" / "wukong_iccs.pgn"


def iccs_list(text: str) -> list[Move]:
    return [Move.from_iccs(m) for m in text.split()]


# -- encodings ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_ccpd_big5_files_read_from_their_bytes_as_transcoded() -> None:
    # 150 files of the Chinese Chess Practical Dataset exactly as published, in Big5. Read from
    # their bytes (the encoding sniffed), each must give what the same file gives transcoded to
    # UTF-8 by Python's cp950 codec (an independent decoding), and read clean.
    files = sorted(BIG5.glob("*.pgn"))
    assert len(files) == 150
    black_first = 0
    for path in files:
        games = list(read_games(path))
        expected = list(read_games(path.read_bytes().decode("cp950")))
        assert [g.to_pgn() for g in games] == [g.to_pgn() for g in expected], path.name
        assert [g.tags for g in games] == [g.tags for g in expected], path.name
        for game in games:
            assert game.errors == [], (path.name, game.errors[:1])
            assert len(game.mainline_moves()) > 0, path.name
            black_first += game.board().turn == 1
    assert black_first > 0  # positions where Black moves first, numbered "1."


def test_big5_file_read_through_a_binary_handle_and_bytes() -> None:
    path = BIG5 / "master-000.pgn"
    (from_path,) = list(read_games(path))
    with path.open("rb") as handle:
        (from_handle,) = list(read_games(handle))
    (from_bytes,) = list(read_games(path.read_bytes()))
    assert from_path.tags["Red"] == "洪磊鑫" and from_path.tags["Site"] == "承德"
    assert from_handle.to_pgn() == from_path.to_pgn() == from_bytes.to_pgn()


GBK_TEXT = (
    '[Game "Chinese Chess"]\n[Event "全国象棋个人赛"]\n[Red "郑惟桐"]\n[Black "许银川"]\n\n'
    "1. h2e2 h9g7 2. h0g2 i9h9 *\n"
)


def test_gbk_tag_values_come_back_right_with_iccs_moves() -> None:
    # ICCS moves give no Chinese move to decide by: the tags alone must decide the encoding.
    (game,) = list(read_games(io.BytesIO(GBK_TEXT.encode("gbk"))))
    assert game.tags["Event"] == "全国象棋个人赛"
    assert (game.tags["Red"], game.tags["Black"]) == ("郑惟桐", "许银川")
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9") and game.errors == []


def test_big5_tag_values_come_back_right_with_iccs_moves() -> None:
    text = GBK_TEXT.replace("全国象棋个人赛", "全國象棋個人賽").replace("许银川", "許銀川")
    text = text.replace("郑", "鄭")
    (game,) = list(read_games(io.BytesIO(text.encode("big5"))))
    assert game.tags["Event"] == "全國象棋個人賽" and game.tags["Black"] == "許銀川"


def test_encoding_is_decided_once_for_the_whole_file() -> None:
    # Line by line, a GBK line that happens to be valid UTF-8 would be decoded as UTF-8. One
    # decision for the file decodes every line the same way. "涓" in GBK (0xE4 0xB8) followed
    # by an ASCII byte is no UTF-8; the game after many ASCII lines still reads as GBK.
    lines = ['[Event "one"]', "", "1. h2e2 h9g7 *", ""] * 200
    text = "\n".join(lines) + '\n[Event "象棋"]\n[Red "郑惟桐"]\n\n1. 炮二平五 马８进７ *\n'
    games = list(read_games(io.BytesIO(text.encode("gbk"))))
    assert len(games) == 201
    assert games[-1].tags["Red"] == "郑惟桐" and games[-1].tags["Event"] == "象棋"
    assert games[-1].mainline_moves() == iccs_list("h2e2 h9g7")


def test_stray_bytes_in_a_utf8_file_are_reported_on_their_game() -> None:
    # One bad byte does not make a UTF-8 file GBK: the file stays UTF-8 and the game with the
    # bad bytes records them (game number, ply 0 in the tags).
    text = '[Event "象棋"]\n\n1. 炮二平五 马８进７ *\n\n[Event "b"]\n[Red "x'.encode()
    text += b'\xff\xfe"]\n\n1. h2e2 *\n'
    first, second = list(read_games(io.BytesIO(text)))
    assert first.tags["Event"] == "象棋" and first.errors == []
    assert first.mainline_moves() == iccs_list("h2e2 h9g7")
    (error,) = second.errors
    assert error.game_number == 2 and error.ply == 0
    assert "not utf-8" in str(error) and "ff fe" in str(error)
    assert second.tags["Red"] == "x\ufffd\ufffd" and second.mainline_moves() == iccs_list("h2e2")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_encoding_argument_of_the_utf16_family_is_honoured(encoding: str) -> None:
    text = GBK_TEXT.replace("1. h2e2 h9g7", "1. 炮二平五 马８进７") + GBK_TEXT
    games = list(read_games(io.BytesIO(text.encode(encoding)), encoding=encoding))
    assert len(games) == 2
    for game in games:
        assert game.tags["Red"] == "郑惟桐" and game.errors == []
        assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9")


def test_encoding_argument_is_used_over_the_sniffing() -> None:
    raw = GBK_TEXT.encode("gbk")
    (game,) = list(read_games(io.BytesIO(raw), encoding="latin-1"))
    assert game.tags["Red"] == raw.split(b'Red "')[1].split(b'"')[0].decode("latin-1")


# -- random access ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["text", "binary"])
def test_tell_then_seek_reads_game_k(mode: str) -> None:
    # python-chess's pattern: note f.tell() before each game, then seek there to read game k.
    handle = WUKONG.open("rb") if mode == "binary" else WUKONG.open(encoding="utf-8")
    reader = read_game if mode == "text" else (lambda f: next(iter(read_games(f)), None))
    with handle:
        index: list[tuple[int, str, int]] = []
        while True:
            offset = handle.tell()
            game = reader(handle)
            if game is None:
                break
            index.append((offset, game.tags["Red"], len(game.mainline_moves())))
        assert len(index) == 100
        assert len({offset for offset, _, _ in index}) == 100
        for k in (57, 0, 99, 3, 3, 42):
            handle.seek(index[k][0])
            game = reader(handle)
            assert game is not None
            assert (game.tags["Red"], len(game.mainline_moves())) == index[k][1:], k


def test_seek_to_zero_reads_the_first_game_again() -> None:
    text = '[Event "a"]\n\n1. h2e2 *\n\n[Event "b"]\n\n1. c3c4 *\n'
    handle = io.StringIO(text)
    assert read_game(handle).tags["Event"] == "a"  # type: ignore[union-attr]
    handle.seek(0)
    assert read_game(handle).tags["Event"] == "a"  # type: ignore[union-attr]
    assert read_game(handle).tags["Event"] == "b"  # type: ignore[union-attr]
    assert read_game(handle) is None


def test_games_on_one_line_still_read_in_order_from_a_file() -> None:
    text = " ".join(f'[Event "g{i}"] 1. h2e2 h9g7 1-0' for i in range(50)) + "\n"
    handle = io.StringIO(text)
    events = []
    while (game := read_game(handle)) is not None:
        events.append(game.tags["Event"])
    assert events == [f"g{i}" for i in range(50)]


# -- the writer refuses what cannot be read back ------------------------------------------------


def test_writer_refuses_a_nag_outside_0_255() -> None:
    game = Game()
    node = game.add_move(Move.from_iccs("h2e2"))
    node.nags.add(256)
    for fmt in ("ICCS", "WXF", "Chinese"):
        with pytest.raises(ValueError, match="NAG.*0..255.*256"):
            game.to_pgn(fmt)
    node.nags = {255}
    assert read_game(game.to_pgn()).variations[0].nags == {255}  # type: ignore[union-attr]


@pytest.mark.parametrize("field", ["comment", "starting_comment"])
def test_writer_refuses_a_comment_that_is_not_text(field: str) -> None:
    game = Game()
    node = game.add_move(Move.from_iccs("h2e2"))
    setattr(node, field, None)
    with pytest.raises(TypeError, match=f"{field}.*str.*NoneType"):
        game.to_pgn()
    game.comment = 5  # type: ignore[assignment]
    setattr(node, field, "")
    with pytest.raises(TypeError, match="comment"):
        game.to_pgn()


def test_writer_refuses_a_nag_that_is_not_an_int() -> None:
    game = Game()
    game.add_move(Move.from_iccs("h2e2")).nags.add("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="NAG"):
        game.to_pgn()


# -- copies of long trees are linear ------------------------------------------------------------


@pytest.mark.slow
def test_copy_and_pickle_of_a_long_tree_with_variations_push_each_move_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A 24,000-ply main line with a one-move variation at every ply. Rebuilding used to replay
    # the path from the start for each variation (quadratic); count the Position pushes.
    cycle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    plies = 24_000
    text = " ".join(f"{cycle[i % 4]} ({'a0a1' if i % 2 == 0 else 'a9a8'})" for i in range(plies))
    game = read_game(text + " *")
    assert game is not None and game.errors == [] and len(game.mainline_moves()) == plies
    pushes = 0
    real_push = Position.push

    def counting_push(self: Position, move: Move) -> None:
        nonlocal pushes
        pushes += 1
        real_push(self, move)

    monkeypatch.setattr(Position, "push", counting_push)
    for clone in (copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))):
        pushes = 0
        again = clone(game)
        assert pushes <= 2 * plies + 10
        monkeypatch.setattr(Position, "push", real_push)
        assert again.to_pgn() == game.to_pgn()
        monkeypatch.setattr(Position, "push", counting_push)
