"""The PGN game tree: variations, NAGs, comments, editing, and lossless writing."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xiangqi import IllegalMoveError, Move, Position
from xiangqi.pgn import ChildNode, Game, GameNode, read_game, read_games

M = Move.from_iccs


def test_variations_nags_and_comments_are_kept_and_written_back() -> None:
    text = (
        '[Game "Chinese Chess"]\n\n'
        "{start} 1. 炮二平五 $1 马８进７! {screen horse} (1... 炮8平5 $2 {same-side cannons} "
        "2. 马二进三 (2. 车一进一)) 2. 马二进三 车9平8 *"
    )
    game = read_game(text)
    assert game is not None and game.errors == []
    assert game.comment == "start"
    first = game.next()
    assert first is not None and first.move == M("h2e2") and first.nags == {1}
    assert [v.move for v in first.variations] == [M("h9g7"), M("h7e7")]
    main, alt = first.variations
    assert main.nags == {1} and main.comment == "screen horse"
    assert alt.nags == {2} and alt.comment == "same-side cannons"
    assert [v.move for v in alt.variations] == [M("h0g2"), M("i0i1")]
    assert game.mainline_moves() == [M("h2e2"), M("h9g7"), M("h0g2"), M("i9h9")]
    written = game.to_pgn("Chinese", 200)
    assert "(1... 炮8平5 $2 {same-side cannons} 2. 马二进三 (2. 车一进一)) 2. 马二进三" in written
    again = read_game(written)
    assert again is not None and again.to_pgn("Chinese", 200) == written
    assert again.to_pgn("WXF") == game.to_pgn("WXF")


def test_starting_comment_of_a_variation() -> None:
    game = read_game("1. h2e2 h9g7 ({or} h7e7 {central}) *")
    assert game is not None and game.errors == []
    alt = game.variations[0].variations[1]
    assert alt.starting_comment == "or" and alt.comment == "central"
    assert "({or} 1... H7-E7 {central})" in game.to_pgn()


def test_tree_editing() -> None:
    game = Game()
    a = game.add_variation(M("h2e2"))
    b = game.add_variation(M("b2e2"))
    c = game.add_main_variation(M("c3c4"))
    assert [v.move for v in game.variations] == [M("c3c4"), M("h2e2"), M("b2e2")]
    assert c.is_mainline() and not a.is_mainline() and a.parent is game
    game.promote(b)
    assert game.variations == [c, b, a]
    game.demote(c)
    assert game.variations == [b, c, a]
    game.promote_to_main(M("h2e2"))
    assert game.variations[0] is a and a.is_main_variation()
    reply = a.add_variation(M("h9g7"), comment="horse", nags=[3])
    assert reply.board().fen() == Position().copy().fen() or reply.ply() == 2
    assert game.end() is reply and game.mainline_moves() == [M("h2e2"), M("h9g7")]
    game.remove_variation(b)
    assert not game.has_variation(M("b2e2")) and game.has_variation(M("c3c4"))
    with pytest.raises(IllegalMoveError):
        reply.add_variation(M("h9g7"))
    with pytest.raises(TypeError):
        game.add_variation("h2e2")  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        game.variation(M("a0a1"))
    with pytest.raises(ValueError):
        reply.add_variation(M("h0g2"), nags=[256])
    line_end = game.add_line([M("g3g4"), M("g6g5")])
    assert isinstance(line_end, ChildNode) and line_end.ply() == 2
    assert isinstance(game, GameNode) and game.ply() == 0


def test_from_board_and_headers() -> None:
    pos = Position("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7")
    pos.push(M("e9f9"))
    pos.push(M("d0d1"))
    game = Game.from_board(pos)
    assert game.fen == "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7"
    assert game.mainline_moves() == [M("e9f9"), M("d0d1")] and game.end().board() == pos
    assert game.headers is game.tags
    with pytest.raises(TypeError):
        Game.from_board("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7")  # type: ignore[arg-type]


def test_long_games_pickle_and_deepcopy_without_recursion() -> None:
    import copy
    import pickle

    cycle = [M("b0c2"), M("b9c7"), M("c2b0"), M("c7b9")]
    game = Game()
    for i in range(3000):  # deeper than the recursion limit
        game.add_move(cycle[i % 4], comment="c" if i % 500 == 0 else None)
    second = game.variations[0].variations[0]
    alt = second.add_variation(M("h0g2"), comment="alt", nags=[3])
    bad = read_game("1. h2e2 h2e2 *")
    assert bad is not None and bad.errors
    for original in (game, bad):
        for again in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
            assert again.to_pgn() == original.to_pgn()
            assert [str(e) for e in again.errors] == [str(e) for e in original.errors]
            assert [e.ply for e in again.errors] == [e.ply for e in original.errors]
    node = pickle.loads(pickle.dumps(alt))
    assert isinstance(node, ChildNode) and node.comment == "alt" and node.nags == {3}
    assert node.ply() == 3 and node.game().mainline_moves() == game.mainline_moves()


def test_the_list_and_dict_views_are_gone() -> None:
    # 0.x's game.moves / game.comments views: the tree's own methods are the one API now.
    game = Game()
    assert not hasattr(game, "moves") and not hasattr(game, "comments")
    assert not hasattr(game, "set_opening_tags")  # xiangqi.records.ecco.tag_game(game)


def test_add_move_follows_direct_edits_of_the_variation_lists() -> None:
    # No counter to bump: add_move checks that its remembered end is still the end.
    game = Game()
    first = game.add_move(M("h2e2"))
    first.variations.append(ChildNode(first, M("h9g7"), "", "", set()))  # appended by hand
    game.add_move(M("h0g2"))
    assert game.mainline_moves() == [M("h2e2"), M("h9g7"), M("h0g2")]
    last = game.end()
    assert isinstance(last, ChildNode)
    last.parent.variations.remove(last)  # the end removed by hand
    game.add_move(M("b0c2"))
    assert game.mainline_moves() == [M("h2e2"), M("h9g7"), M("b0c2")]
    game.variations.clear()
    game.add_move(M("c3c4"))
    assert game.mainline_moves() == [M("c3c4")]


def test_add_move_after_editing_still_appends_to_the_main_line() -> None:
    game = Game()
    game.add_move(M("h2e2"))
    game.add_variation(M("b2e2"))
    game.promote_to_main(M("b2e2"))
    game.add_move(M("h9g7"))
    assert game.mainline_moves() == [M("b2e2"), M("h9g7")]


def test_writer_escapes() -> None:
    game = Game(tags={"Event": 'a "quoted" \\ back\nslash\r', "Site": "x]"})
    node = game.add_move(M("h2e2"), comment='{braces} and \\} and a\n[Event "fake"]\n  [line')
    node.nags.add(14)
    game.comment = "first\n%not an escape line"
    text = game.to_pgn()
    assert '\n[Event "fake"]' not in text and "\n\\[Event" in text
    again = read_game(text)
    assert again is not None and again.errors == []
    assert again.tags["Event"] == game.tags["Event"] and again.tags["Site"] == "x]"
    assert again.variations[0].comment == node.comment
    assert again.comment == game.comment
    assert again.to_pgn() == text


def test_writer_argument_types() -> None:
    game = Game()
    with pytest.raises(TypeError, match="format"):
        game.to_pgn(1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="format"):
        game.to_pgn("ıccs")
    with pytest.raises(TypeError, match="width"):
        game.to_pgn("ICCS", "80")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="width"):
        game.to_pgn("ICCS", 0)
    with pytest.raises(TypeError):
        Game(tags={"Event": 3})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="tag name"):
        Game(tags={"Bad Name": "x"})
    game.tags["Round"] = 5  # type: ignore[assignment]
    with pytest.raises(TypeError):
        game.to_pgn()
    with pytest.raises(TypeError):
        game.add_move(M("h2e2"), comment=3)  # type: ignore[arg-type]


def test_deep_tree_is_written_without_recursion() -> None:
    game = Game()
    node: GameNode = game
    cycle = [M("b0c2"), M("b9c7"), M("c2b0"), M("c7b9")]
    for i in range(3000):  # nested variations 3000 deep
        child = node.add_variation(cycle[i % 4]) if i < 4 else None
        if child is None:
            child = ChildNode(node, cycle[i % 4], "", "", set())
            node.variations.append(child)
        side = ChildNode(node, M("h2e2") if i % 2 == 0 else M("h7e7"), "", "", set())
        node.variations.append(side)
        node = child
    text = game.to_pgn()
    again = read_game(text)
    assert again is not None and again.errors == [] and again.to_pgn() == text


# -- round trip property --------------------------------------------------------------------------

comments = st.text(alphabet=st.sampled_from(list('ab {}\\[]\n\r;()$%"*1-0 象棋')), max_size=12)


@st.composite
def trees(draw: st.DrawFn) -> Game:
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Game(tags={"Event": draw(comments), "Round": draw(comments)})
    game.comment = draw(comments)
    frontier: list[tuple[GameNode, Position]] = [(game, Position())]
    for _ in range(draw(st.integers(0, 25))):
        node, pos = rng.choice(frontier)
        legal = sorted(set(pos.legal_moves()) - {v.move for v in node.variations})
        if not legal:
            continue
        move = rng.choice(legal)
        starting = draw(comments) if node.variations else ""
        child = node.add_variation(
            move,
            comment=draw(comments),
            starting_comment=starting,
            nags=draw(st.sets(st.integers(0, 255), max_size=2)),
        )
        after = pos.copy()
        after.push(move)
        frontier.append((child, after))
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.sampled_from(["ICCS", "WXF", "Chinese"]), st.integers(1, 100))
def test_write_read_write_is_identity(game: Game, fmt: str, width: int) -> None:
    text = game.to_pgn(fmt, width)
    again = read_game(text)
    assert again is not None and again.errors == [], again.errors if again else None
    assert again.to_pgn(fmt, width) == text
    assert again.mainline_moves() == game.mainline_moves()
    assert {k: v for k, v in again.tags.items() if k != "Format"} == {
        k: v for k, v in game.tags.items() if k != "Format"
    }


pgn_pieces = st.sampled_from(
    list('[]"\\{}();$!?*.-=+ \n\r\t1234567890abcdehiCHRPKAE')
    + ["1-0", "0-1", "1/2-1/2", '[Event "x"]\n', "h2e2", "h9g7", "C2.5", "炮二平五", "马８进７"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(pgn_pieces, max_size=40).map("".join))
def test_any_text_reads_and_what_is_read_round_trips(text: str) -> None:
    for game in read_games(text):
        assert all(isinstance(e, ValueError) for e in game.errors)
        written = game.to_pgn()
        again = read_game(written)
        assert (
            again is not None
            and again.errors == []
            and again.mainline_moves() == game.mainline_moves()
        )
        assert again.to_pgn() == written


def test_from_board_takes_result_and_termination_from_the_rulings() -> None:
    """A rook checking on e- and f-files for ever loses (pyffish rules the same line a loss)."""
    import pyffish

    from xiangqi import Position
    from xiangqi.pgn import Game, read_game

    fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
    iccs_moves = ["a1e1"] + 2 * ["e9f9", "e1f1", "f9e9", "f1e1"]
    # Fairy-Stockfish writes ranks 1..10; its value is from the side to move's view (Black).
    ff = [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in iccs_moves]
    ended, value = pyffish.is_optional_game_end("xiangqi", fen, ff)
    assert ended and value > 0  # Black, to move, is the winner: Red broke the rule
    pos = Position(fen)
    for text in iccs_moves:
        pos.push_iccs(text)
    game = Game.from_board(pos)
    assert game.result == "0-1"
    assert game.tags["Termination"] == "perpetual check"
    assert game.outcome() == pos.outcome()
    again = read_game(game.to_pgn())
    assert again is not None
    assert again.tags["Termination"] == "perpetual check" and again.result == "0-1"


def test_from_board_of_a_game_in_progress_has_no_termination() -> None:
    from xiangqi import Position
    from xiangqi.pgn import Game

    pos = Position()
    pos.push_iccs("h2e2")
    game = Game.from_board(pos)
    assert game.result == "*" and "Termination" not in game.tags
    assert game.outcome() is None


# The Chinese rule book's 图8 (tests/data/chinese_rules/cases.txt, cxa2020-fig08): Red's
# rook alternates a check and a chase (一将一捉), Black's moves include an idle one. The
# book rules that Red loses; under the Asian rules the same cycle is a draw (the table's
# "asian" column).
FIG08_FEN = "3a3R1/3Nck3/3ab4/P4r3/9/8p/2p5n/C3BA2B/4A4/4K4 w - - 0 1"
FIG08_CYCLE = ["h9h3", "f8f9", "h3h9", "f9f8"]


def test_from_board_and_outcome_rule_by_the_chosen_rule_set() -> None:
    from xiangqi import Position, Rules
    from xiangqi.pgn import Game, read_game

    pos = Position(FIG08_FEN)
    for text in 2 * FIG08_CYCLE:
        pos.push_iccs(text)
    asian = Game.from_board(pos)
    assert asian.result == "1/2-1/2" and asian.tags["Termination"] == "repetition"
    assert "Rules" not in asian.tags  # the default rule set adds no tag
    game = Game.from_board(pos, rules="chinese")
    assert game.result == "0-1"  # the book: Red loses
    assert game.tags["Termination"] == "check and chase"
    assert game.tags["Rules"] == "chinese"
    assert game.outcome(rules=Rules.CHINESE) == pos.outcome(rules="chinese")
    assert game.outcome(rules="chinese") is not None
    assert game.outcome() == pos.outcome(rules="chinese")  # by its Rules tag
    assert asian.outcome() == game.outcome(rules="asian") == pos.outcome()
    again = read_game(game.to_pgn())
    assert again is not None
    assert (again.tags["Rules"], again.tags["Termination"], again.result) == (
        "chinese",
        "check and chase",
        "0-1",
    )


def test_bad_rules_are_refused_naming_the_value() -> None:
    from xiangqi import Position
    from xiangqi.pgn import Game

    pos = Position(FIG08_FEN)
    pos.push_iccs(FIG08_CYCLE[0])
    game = Game.from_board(pos)
    before = game.to_pgn()
    with pytest.raises(ValueError, match="'wxf'"):
        Game.from_board(pos, rules="wxf")
    with pytest.raises(TypeError, match="NoneType"):
        Game.from_board(pos, rules=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'Chinese'"):
        game.outcome(rules="Chinese")
    assert game.to_pgn() == before and len(pos.move_stack) == 1
