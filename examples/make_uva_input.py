"""Write a large random input for ``examples/uva10196.py`` (for timing).

Usage::

    python examples/make_uva_input.py [BOARDS] [SEED] > big.txt

Each board has exactly one king of each colour and a random number of other
pieces on random squares (pawns anywhere, including the back ranks).  Boards
are separated by one blank line and the input ends with the all-``.`` board.
"""

from __future__ import annotations

import random
import sys

OTHER_PIECES = "PNBRQpnbrq"


def random_board(rng: random.Random) -> str:
    """One random board as 8 lines of 8 characters (no trailing newline)."""
    squares = ["."] * 64
    picked = rng.sample(range(64), 2 + rng.randint(0, 20))
    squares[picked[0]] = "K"
    squares[picked[1]] = "k"
    for square in picked[2:]:
        squares[square] = rng.choice(OTHER_PIECES)
    return "\n".join("".join(squares[row * 8 : row * 8 + 8]) for row in range(8))


def make_input(count: int, seed: int = 10196) -> str:
    """A whole judge input of `count` random boards plus the terminating empty board."""
    rng = random.Random(seed)
    boards = [random_board(rng) for _ in range(count)]
    boards.append("\n".join(["." * 8] * 8))
    return "\n\n".join(boards) + "\n"


def main() -> int:
    """Write the input to standard output."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 10196
    sys.stdout.write(make_input(count, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
