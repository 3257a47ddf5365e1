"""The mirror images of a composition (排局) and of a diagram the rules forbid are read the
same way: flip_horizontal() and mirror() of Position.from_diagram(...) work and give the
mirrored diagram. Expected FENs come from a string transform of the FEN text here.
"""

from __future__ import annotations

import pytest

from xiangqi import InvalidFenError, Position


def expand(rank: str) -> str:
    return "".join("." * int(ch) if ch.isdigit() else ch for ch in rank)


def compress(rank: str) -> str:
    out, empty = "", 0
    for ch in rank:
        if ch == ".":
            empty += 1
        else:
            out += (str(empty) if empty else "") + ch
            empty = 0
    return out + (str(empty) if empty else "")


def flipped_fen(fen: str) -> str:
    """FEN mirrored left to right: each rank's text reversed."""
    board, *rest = fen.split()
    ranks = [compress(expand(r)[::-1]) for r in board.split("/")]
    return " ".join(["/".join(ranks), *rest])


def mirrored_fen(fen: str) -> str:
    """FEN with ranks flipped, colours swapped and the other side to move."""
    board, side, *rest = fen.split()
    ranks = [r.swapcase() for r in reversed(board.split("/"))]
    return " ".join(["/".join(ranks), "b" if side in "wr" else "w", *rest])


COMPOSITIONS = [
    "3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1",  # a Red pawn behind its start rank
    "3k5/9/9/9/9/9/1P7/9/9/5K3 w - - 3 12",  # a Red pawn between the pawn files
    "5k3/1p7/9/9/9/9/9/9/9/3K5 b - - 0 1",  # a Black pawn behind its start rank
    "2bk5/4a4/4b4/1p7/9/9/9/9/9/4K4 w - - 0 1",  # a Black pawn between the pawn files
]
DIAGRAMS = [
    "4k4/4R4/9/9/9/9/9/9/4r4/4K4 w - - 0 1",  # both kings in check
    "3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1",  # the kings facing
    "5k3/9/9/9/5R3/3r5/9/9/9/3K5 b - - 0 1",  # both kings in check, Black to move
]


@pytest.mark.parametrize("fen", COMPOSITIONS)
def test_the_mirror_images_of_a_composition_are_compositions(fen: str) -> None:
    pos = Position.from_diagram(fen, composition=True)
    with pytest.raises(InvalidFenError):
        Position(fen)  # not a position the rules could reach
    flipped, mirrored = pos.flip_horizontal(), pos.mirror()
    assert flipped.fen() == flipped_fen(fen)
    assert mirrored.fen() == mirrored_fen(fen)
    assert flipped.status() == pos.status() == mirrored.status()
    assert flipped.flip_horizontal().fen() == fen and mirrored.mirror().fen() == fen
    # each image is the composition of its FEN, and plays as one
    assert flipped == Position.from_diagram(flipped_fen(fen), composition=True)
    assert mirrored == Position.from_diagram(mirrored_fen(fen), composition=True)
    assert len(list(flipped.legal_moves)) == len(list(pos.legal_moves))
    assert len(list(mirrored.legal_moves)) == len(list(pos.legal_moves))


@pytest.mark.parametrize("fen", DIAGRAMS)
def test_the_mirror_images_of_a_diagram_are_diagrams(fen: str) -> None:
    pos = Position.from_diagram(fen)
    assert pos.flip_horizontal().fen() == flipped_fen(fen)
    assert pos.mirror().fen() == mirrored_fen(fen)
    assert pos.flip_horizontal().status() == pos.status() == pos.mirror().status()


def test_a_puzzles_composition_mirrors() -> None:
    # puzzles.py reads a puzzle's FEN as a composition when the rules refuse it
    from xiangqi.puzzles import position_of

    fen = COMPOSITIONS[0]
    assert position_of(fen).mirror().fen() == mirrored_fen(fen)
    assert position_of(fen).flip_horizontal().fen() == flipped_fen(fen)


def test_the_mirror_images_of_a_position_stay_checked() -> None:
    pos = Position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert pos.mirror().fen() == mirrored_fen(pos.fen())
    assert pos.flip_horizontal().fen() == flipped_fen(pos.fen())
    with pytest.raises(InvalidFenError):  # an arbitrary mapping is still checked as FEN is
        pos.transform(lambda sq: (sq + 9) % 90)
