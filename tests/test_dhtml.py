"""DhtmlXQ: real records from web sites, cross-checked against other encodings; round trips."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from record_games import random_game, tree

from xiangqi import START_FEN, Move, Position
from xiangqi.notation import parse_chinese
from xiangqi.pgn import Game
from xiangqi.records.dhtml import InvalidDhtmlError, read_dhtml, sniff, write_dhtml

DATA = Path(__file__).parent / "data" / "dhtml"
M = Move.from_iccs


def test_dpxq_ubb_equals_the_same_sites_chinese_move_text() -> None:
    # dpxq.com exported one game twice: DhtmlXQ digits and Chinese move text. The Chinese
    # text is read by xiangqi.notation, independently of the DhtmlXQ reader.
    game = read_dhtml(DATA / "dpxq_liu_zhang.txt")
    assert game.errors == []
    words = re.findall(r"[^\s.0-9]{4}", (DATA / "dpxq_liu_zhang_text.txt").read_text("utf-8"))
    pos = Position()
    expected = []
    for word in words:
        move = parse_chinese(pos, word)
        expected.append(move)
        pos.push(move)
    assert len(expected) == 107
    assert list(game.mainline_moves()) == expected
    assert game.fen == START_FEN
    assert game.tags["Red"] == "北京 刘永富" and game.tags["Black"] == "北京 张永生"
    assert game.tags["Result"] == "0-1"  # 黑胜
    assert game.tags["Event"] == "2026年第137届龙马鹏程大兴月赛"
    assert game.tags["Opening"] == "B00 中炮局" and game.tags["ECCO"] == "B00"
    assert game.tags["Site"] == "北京市大兴区大悦春风里1层"


def test_ccbridge_record_equals_its_java_applet_move_list() -> None:
    # The same game as CCBridge's applet parameter: "xy-xy", x the file 1..9, y the row
    # 0..9 from Black's side.
    game = read_dhtml((DATA / "ccbridge_chen_wang.txt").read_bytes())
    assert game.errors == []
    applet = (DATA / "ccbridge_chen_wang_applet.txt").read_text("ascii").split()
    expected = []
    for pair in applet:
        (fx, fy), (tx, ty) = ((int(a) - 1, int(b)) for a, b in (pair[:2], pair[3:]))
        expected.append(Move(fx + 9 * (9 - fy), tx + 9 * (9 - ty)))
    assert list(game.mainline_moves()) == expected and len(expected) == 63
    assert game.tags["Result"] == "1-0"  # 紅勝, in traditional characters
    assert game.tags["Red"] == "陳建宇" and game.tags["ECCO"] == "D29"


def test_a_branch_and_comments_where_another_reader_put_them() -> None:
    # From another importer's test suite: two lines, comment13 on main-line ply 13,
    # comment1_24 on ply 24 of branch 1 (which replaces main-line ply 13).
    game = read_dhtml(DATA / "annotated_fragment.txt")
    assert game.errors == []
    node = game
    for _ in range(12):
        node = node.variations[0]
    assert len(node.variations) == 2  # ply 13: the main move and branch 1
    assert node.variations[0].comment == "形势紧迫，红方飞相撵车是积极的应着。"
    branch = node.variations[1]
    for _ in range(24 - 13):
        branch = branch.variations[0]
    assert branch.comment == "黑方优势。" and branch.ply() == 24


def test_nested_branches_follow_the_documented_numbering() -> None:
    # The example of the format's readers: move_0_2_1 replaces ply 2 of the main line,
    # move_1_3_2 replaces ply 3 of branch 1; commentB_I sits on ply I of branch B.
    binit = "8979695949392919097717866646260600102030405060708012720323436383"
    text = (
        f"[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]"
        "[DhtmlXQ_movelist]796770621927[/DhtmlXQ_movelist]"
        "[DhtmlXQ_move_0_2_1]03041927[/DhtmlXQ_move_0_2_1]"
        "[DhtmlXQ_move_1_3_2]0605[/DhtmlXQ_move_1_3_2]"
        "[DhtmlXQ_comment0]全局说明。[/DhtmlXQ_comment0]"
        "[DhtmlXQ_comment2]主线第二着注解。[/DhtmlXQ_comment2]"
        "[DhtmlXQ_comment1_3]第一变第三着注解。[/DhtmlXQ_comment1_3]"
        "[DhtmlXQ_comment2_3]嵌套变着注解。[/DhtmlXQ_comment2_3]"
    )
    game = read_dhtml(text)
    assert game.errors == [] and game.comment == "全局说明。"
    assert tree(game) == [
        (
            "h0g2",
            "",
            [
                ("h9g7", "主线第二着注解。", [("b0c2", "", [])]),
                (
                    "a6a5",
                    "",
                    [("b0c2", "第一变第三着注解。", []), ("a3a4", "嵌套变着注解。", [])],
                ),
            ],
        )
    ]


def test_black_moving_first_and_a_sparse_binit() -> None:
    # Kings e0 and d9, a Red advisor e1, Black's rook a9; Black's rook moves first.
    slots = ["99"] * 32
    slots[4], slots[3], slots[20], slots[16] = "49", "48", "30", "00"
    text = (
        f"[DhtmlXQ_binit]{''.join(slots)}[/DhtmlXQ_binit][DhtmlXQ_movelist]0001[/DhtmlXQ_movelist]"
    )
    game = read_dhtml(text)
    assert game.fen == "r2k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1"
    assert game.mainline_moves() == [M("a9a8")]


@pytest.mark.parametrize("seed", range(40))
def test_random_games_round_trip(seed: int) -> None:
    game = random_game(seed)
    text = write_dhtml(game)
    again = read_dhtml(text)
    assert again.errors == []
    assert tree(again) == tree(game) and again.comment == game.comment
    if game.variations:
        assert again.fen == game.fen
    for tag in ("Event", "Red", "Black", "Date", "Result"):
        assert again.tags[tag] == game.tags[tag]
    assert write_dhtml(again) == text


@pytest.mark.parametrize(
    "name", ["dpxq_liu_zhang.txt", "ccbridge_chen_wang.txt", "annotated_fragment.txt"]
)
def test_real_records_read_write_read_the_same(name: str) -> None:
    game = read_dhtml(DATA / name)
    again = read_dhtml(write_dhtml(game))
    assert again.errors == [] and tree(again) == tree(game) and again.fen == game.fen
    for tag in ("Title", "Event", "Red", "Black", "Result", "Opening", "ECCO"):
        assert again.tags.get(tag) == game.tags.get(tag)


def test_comments_with_brackets_bars_and_line_breaks_survive() -> None:
    game = Game(tags={"Event": "a[b]c"})
    game.add_move(M("h2e2"), comment="行一\n行二 [/DhtmlXQ_comment1] a||b \\u0041")
    again = read_dhtml(write_dhtml(game))
    assert again.variations[0].comment == game.variations[0].comment
    assert again.tags["Event"] == "a[b]c"


def test_sources_and_errors(tmp_path: Path) -> None:
    text = (DATA / "annotated_fragment.txt").read_text("utf-8")
    path = tmp_path / "DhtmlXQ_game.txt"  # a path naming the format is still a path
    path.write_text(text, encoding="gb18030")
    for source in (str(path), path, io.BytesIO(path.read_bytes()), text.encode("utf-8")):
        assert tree(read_dhtml(source)) == tree(read_dhtml(text))  # type: ignore[arg-type]
    with pytest.raises(InvalidDhtmlError, match="no \\[DhtmlXQ_"):
        read_dhtml("hello world")
    with pytest.raises(InvalidDhtmlError, match="no \\[DhtmlXQ_"):
        read_dhtml(b"<html>hello</html>")
    with pytest.raises(InvalidDhtmlError, match="64 digits"):
        read_dhtml("[DhtmlXQ_binit]12345[/DhtmlXQ_binit]")
    with pytest.raises(TypeError):
        read_dhtml(3.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        write_dhtml("game")  # type: ignore[arg-type]
    # An illegal move drops the rest of its line, recorded with its ply.
    game = read_dhtml("[DhtmlXQ_movelist]77477747[/DhtmlXQ_movelist]")
    assert game.mainline_moves() == [M("h2e2")]
    assert len(game.errors) == 1 and game.errors[0].ply == 2
    # A branch hanging from a ply its parent does not have is skipped and recorded.
    game = read_dhtml(
        "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_0_9_1]7062[/DhtmlXQ_move_0_9_1]"
    )
    assert game.mainline_moves() == [M("h2e2")] and "no ply 9" in str(game.errors[0])


def test_sniff() -> None:
    assert sniff((DATA / "dpxq_liu_zhang.txt").read_bytes()[:200])
    assert sniff(write_dhtml(Game()).encode("utf-16-le"))
    assert not sniff(b"XQ\x0a" + bytes(100))


def test_the_main_line_as_dpxqs_player_names_it() -> None:
    game = read_dhtml("[DhtmlXQ_move_0_1_0]77477062[/DhtmlXQ_move_0_1_0]")
    assert game.mainline_moves() == [M("h2e2"), M("h9g7")] and game.errors == []


# -- issue 30: formats by their structure, odd fields, linear reading -----------------------


def test_an_escaped_character_outside_the_bmp_is_one_character(tmp_path: Path) -> None:
    # \ud83d\ude00 is the UTF-16 pair of U+1F600; a lone half becomes U+FFFD, so the text
    # can be written (convert died on the lone surrogates).
    text = (
        "[DhtmlXQ][DhtmlXQ_title]a\\ud83d\\ude00b[/DhtmlXQ_title]"
        "[DhtmlXQ_event]x\\ud83dy[/DhtmlXQ_event][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
        "[/DhtmlXQ]"
    )
    game = read_dhtml(text)
    assert game.tags["Title"] == "a\U0001f600b" and game.tags["Event"] == "x\ufffdy"
    source = tmp_path / "game.dhtml"
    source.write_text(text, encoding="utf-8")
    from xiangqi.__main__ import main

    assert main(["convert", str(source), str(tmp_path / "game.pgn")]) == 0
    assert "a\U0001f600b" in (tmp_path / "game.pgn").read_text(encoding="utf-8")


def test_black_to_move_without_moves_round_trips_and_the_fen_tags_side_is_read() -> None:
    fen = "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1"
    game = Game(fen=fen)
    assert read_dhtml(write_dhtml(game)).fen == fen
    text = f"[DhtmlXQ][DhtmlXQ_fen]{fen}[/DhtmlXQ_fen][/DhtmlXQ]"
    assert read_dhtml(text).fen == fen
    assert read_dhtml(text.replace(" b ", " w ")).fen == fen.replace(" b ", " w ")


@pytest.mark.parametrize("word", ["和局", "和棋", "和", "红和"])
def test_the_draw_as_published_records_write_it(word: str) -> None:
    text = f"[DhtmlXQ][DhtmlXQ_result]{word}[/DhtmlXQ_result][/DhtmlXQ]"
    assert read_dhtml(text).result == "1/2-1/2"


@pytest.mark.parametrize(
    "field",
    [
        "[DhtmlXQ_movelist]77²7[/DhtmlXQ_movelist]",  # a superscript two is a "digit" to str
        "[DhtmlXQ_binit]" + "²" * 64 + "[/DhtmlXQ_binit]",
        "[DhtmlXQ_move_0_1_" + "9" * 5000 + "]7747[/DhtmlXQ_move_0_1_" + "9" * 5000 + "]",
        "[DhtmlXQ_comment" + "1" * 5000 + "]x[/DhtmlXQ_comment" + "1" * 5000 + "]",
    ],
)
def test_odd_numbers_in_fields_give_the_librarys_errors(field: str) -> None:
    text = f"[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title]{field}[/DhtmlXQ]"
    try:
        game = read_dhtml(text)
    except InvalidDhtmlError:
        return
    assert game.variations == [] or game.errors


def test_reading_plays_each_move_once_not_from_the_root_per_branch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A 300-ply main line with a one-move branch at every ply: the old reader replayed the
    # main line from the root for each branch (about 45,000 pushes here; a 485 KB record
    # took 12.5 s). Count the moves played while reading.
    game = Game()
    cycle = [M(t) for t in ("h0g2", "h9g7", "g2h0", "g7h9")]
    others = [M("b0c2"), M("b9c7"), M("b0a2"), M("b9a7")]
    node = game
    for ply in range(300):
        node.add_variation(others[ply % 4])
        node = node.add_variation(cycle[ply % 4], comment=f"c{ply}")
        node.parent.promote_to_main(node)
    text = write_dhtml(game)
    pushes = 0
    real_push = Position.push

    def counting_push(self: Position, move: Move) -> None:
        nonlocal pushes
        pushes += 1
        real_push(self, move)

    monkeypatch.setattr(Position, "push", counting_push)
    again = read_dhtml(text)
    assert tree(again) == tree(game) and again.errors == []
    assert pushes == 600  # each of the 600 moves once


def test_a_tab_in_a_tag_value_round_trips() -> None:
    # Found by fuzz/fuzz_roundtrip.py: a Site of one tab came back "?" (written raw, then
    # stripped by the reader). Control characters are written \uXXXX and stay (the
    # format's escape; the fuzzer's contract).
    game = Game()
    game.tags["Site"] = "\t"
    game.tags["Event"] = "\ta b\t"
    again = read_dhtml(write_dhtml(game))
    assert again.tags["Site"] == "\t"
    assert again.tags["Event"] == "\ta b\t"
