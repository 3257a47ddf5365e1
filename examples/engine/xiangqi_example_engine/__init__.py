"""An example xiangqi engine built on xiangqi's Cython API (xiangqi.core.api).

``Searcher`` holds a board and a transposition table and searches it; ``perft(fen, depth)``
counts leaves through the API. ``xiangqi-example-engine`` (``uci.main``) speaks UCI.
"""

from ._search import Searcher, perft, piece_sides

__all__ = ["Searcher", "perft", "piece_sides"]
