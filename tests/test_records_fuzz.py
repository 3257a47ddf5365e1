"""Random mutations of valid XQF, CBR, CBL, CBF and DhtmlXQ files raise only documented errors.

A reader either returns games whose trees can be walked and replayed, or raises its format's
ValueError subclass; nothing else (no IndexError, no UnicodeError, no hang).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from cbr_writer import encode_cbf, encode_cbl, encode_cbr
from record_games import random_game

from xiangqi.pgn import Game, GameNode
from xiangqi.records.cbr import InvalidCbrError, read_cbf, read_cbl, read_cbr
from xiangqi.records.dhtml import InvalidDhtmlError, read_dhtml, write_dhtml
from xiangqi.records.xqf import InvalidXqfError, read_xqf, write_xqf

DATA = Path(__file__).parent / "data"


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(5)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 2:
            del out[at : at + rng.randint(1, 16)]
        elif kind == 3:
            del out[at:]
        elif out:
            # Bytes that matter to these formats: flags, digits, brackets, zero.
            out[min(at, len(out) - 1)] = rng.choice(b'\x00\x01\x02\x04\x07\xff09[]_<>"')
    return bytes(out)


def walk(game: Game) -> int:
    """Visit every node (replaying each leaf's line) so a broken tree would raise."""
    count = 0
    stack: list[GameNode] = [game]
    while stack:
        node = stack.pop()
        count += 1
        if not node.variations:
            node.board()
        stack.extend(node.variations)
    return count


def run(
    seeds: list[bytes], read: Callable[[bytes], Iterable[Game]], error: type, n: int = 400
) -> None:
    rng = random.Random(20261124)
    for i in range(n):
        data = mutate(seeds[i % len(seeds)], rng)
        try:
            games = list(read(data))
        except error:
            continue
        for game in games:
            walk(game)
            assert all(isinstance(e, ValueError) for e in game.errors)


def xqf_seeds() -> list[bytes]:
    real = [p.read_bytes() for p in sorted((DATA / "xqf").glob("*.XQF"))]
    return real + [write_xqf(random_game(seed)) for seed in range(3)]


def test_xqf_mutations() -> None:
    run(xqf_seeds(), lambda d: [read_xqf(d)], InvalidXqfError)


def test_cbr_mutations() -> None:
    seeds = [encode_cbr(random_game(seed)) for seed in range(4)]
    run(seeds, lambda d: [read_cbr(d)], InvalidCbrError)


def test_cbl_mutations() -> None:
    records = [encode_cbr(random_game(seed)) for seed in range(3)]
    # A small index (4 slots) keeps the seed short enough to mutate quickly.
    seed = encode_cbl(records, slots=4)
    run([seed], lambda d: read_cbl(d), InvalidCbrError)


def test_cbf_mutations() -> None:
    seeds = [encode_cbf(random_game(seed)) for seed in range(4)]
    run(seeds, lambda d: [read_cbf(d)], InvalidCbrError, 2000)


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030"])
def test_dhtml_mutations(encoding: str) -> None:
    real = [
        p.read_bytes() for p in sorted((DATA / "dhtml").glob("*.txt")) if "applet" not in p.name
    ]
    seeds = real + [write_dhtml(random_game(seed)).encode(encoding) for seed in range(3)]
    run(seeds, lambda d: [read_dhtml(d)], InvalidDhtmlError)


def test_cbf_with_an_unknown_encoding_is_refused_cleanly() -> None:
    # Found by the mutations above: expat raised LookupError for the declared encoding.
    with pytest.raises(InvalidCbrError, match="not CBF XML"):
        read_cbf(b'<?xml version="1.0" encoding="UTF-9"?><ChineseChessRecord/>')
