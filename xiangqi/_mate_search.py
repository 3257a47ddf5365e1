"""The forced-mate search's Python face, a base of Position.

Position.find_mate checks its arguments and calls the compiled search (core/mate.pxd through
_mate.pxi); it lives here, not in position.py, so that module keeps one idea (the board and
its rules). Position inherits it and the reference lists it with Position's methods.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from . import _core
from ._checks import check_bool, check_int
from .errors import SearchLimitReached
from .move import MOVE_OF_CODE, Move

if TYPE_CHECKING:
    from ._core import Board


class MateSearch:
    """Position.find_mate; a base of Position, not used alone."""

    __slots__ = ()

    if TYPE_CHECKING:
        _board: Board

        def fen(self) -> str: ...

    def find_mate(
        self,
        max_plies: int,
        *,
        checks_only: bool = False,
        node_limit: int | None = None,
        stop: threading.Event | None = None,
        hash_mb: int = 64,
    ) -> list[Move] | None:
        """The side to move's shortest forced mate within max_plies (1..99) plies: the
        attacker's moves and the defender's longest resistance; None when proven there is
        none. checks_only=True: the attacker plays only checks. Repetitions are judged as
        the rules judge them, over the position's history since the last capture too:
        the game ends at a position's third occurrence (a second ends nothing), and a
        defender may not hold by a one-sided perpetual check (it may check until the
        third occurrence). The move rule ends a line as outcome() does (120 plies
        without a capture; a checkmate by the move that reaches it still counts), and a
        game outcome() has already ended has no mate: None, without a search. See
        https://xiangqi-rules.readthedocs.io/en/latest/mates.html.

        node_limit: the positions the search may visit before it raises
        SearchLimitReached (whose proven_plies says how far it got: no mate within that
        many plies); once a mate is proven, reading its line may visit as many again (so
        a search visits at most twice node_limit). None, the default, sets no limit: a
        large max_plies on a position with many moves may then not end in any useful
        time, unless stop ends it.

        stop: a threading.Event; when another thread sets it, the search ends (within
        milliseconds: about 15 at most on a busy machine) as at node_limit; one set
        already ends it before it starts. Ctrl-C (on the main thread) ends it too, with
        KeyboardInterrupt, and so does an exception raised by the event's is_set:
        find_mate raises it.

        hash_mb: 1..65536, the megabytes the search's tables may take (they start at
        64 KB, double as the search grows, and are freed when it ends). Up to
        max_plies 8 the search is iterative deepening; from 9 on, iterative deepening
        and a proof-number search (df-pn) take turns, and where df-pn found the mate,
        the two take turns again to prove that none is shorter.

        Raises:
            SearchLimitReached: node_limit (positions visited) was reached, or stop was
                set, first.
            ValueError: the side not to move is in check; a bad argument (TypeError
                for a wrong type).
        """
        plies = check_int("max_plies", max_plies, 1, 99)
        check_bool("checks_only", checks_only)
        limit = None if node_limit is None else check_int("node_limit", node_limit, 1, 2**62)
        if stop is not None and not isinstance(stop, threading.Event):
            raise TypeError(f"stop must be None or a threading.Event, got {type(stop).__name__}")
        megabytes = check_int("hash_mb", hash_mb, 1, 65536)
        board = self._board
        if board.in_check(1 - board.side):
            raise ValueError(f"the side not to move is in check: {self.fen()!r}")
        if stop is not None and stop.is_set() and not board.outcome():
            raise SearchLimitReached(0, 0)  # asked to stop before it began
        status, line, nodes, proven = _core.find_mate(
            board, plies, checks_only, limit, stop, megabytes
        )
        if status < 0:
            raise SearchLimitReached(nodes, proven)
        return None if line is None else [MOVE_OF_CODE[code] for code in line]
