"""Engine-vs-engine matches with clocks, openings, adjudication, Elo and an SPRT.

Squares are public numbers 0..89 and moves xiangqi.Move objects, as everywhere in the package.
The runner follows cutechess-cli and fastchess, the tools chess engine authors test with:

Engines (:class:`EngineSpec`)
    ``name=weak cmd=/usr/games/fairy-stockfish 'option.Skill Level=0'`` (key=value words,
    quoted as a shell would): ``cmd`` (the program), ``arg`` (one argument, repeatable),
    ``name``, ``proto`` (``uci``, covering Pikafish and Fairy-Stockfish, or ``ucci``), ``dir``
    (working directory), ``option.NAME=VALUE``, ``timeout`` (seconds for the handshake and
    commands), and the time control keys below. The same binary may play itself with
    different options. A plain command line (``"ucci:/opt/eleeye"``) still works.
Time controls (:class:`TimeControl`)
    ``tc=40/60+0.6`` (40 moves in 60 s, 0.6 s added a move, the clock refilled every 40
    moves), ``tc=10+0.1`` (the whole game), ``st=0.5`` (seconds a move), ``depth=N``,
    ``nodes=N``. The runner keeps the clocks itself: a move that takes longer than the time
    left plus the margin (``time_margin``, 0.1 s by default) loses on time (Termination
    ``time forfeit``).
Openings (:func:`load_openings`)
    A PGN file (each game's main line, optionally its first N plies) or a FEN/EPD list, one
    position a line. Games come in pairs from one opening with colours reversed (a *round*),
    openings in file order or shuffled with a seed. The last book ply carries the comment
    ``end of opening`` in the PGN, as the book plies of cutechess's games carry ``book``.
Adjudication (:class:`Adjudication`)
    The library's rulings (``Position.outcome()``: mate, stalemate, perpetual check and chase,
    repetition, the move rule) under the rule set chosen with ``rules`` / ``--rules``
    (``asian``, the default, or ``chinese``: xiangqi.Rules), a draw when both engines'
    scores stay within ``draw_score`` centipawns for ``draw_count`` moves each after move
    ``draw_move``, a resignation when an engine's score stays at or below ``-resign_score``
    for ``resign_count`` of its moves, and a draw at the ply cap.
Statistics (:mod:`xiangqi.match.stats`)
    W/D/L, pentanomial pair counts, Elo and normalized Elo with 95 % intervals, LOS, and an
    optional SPRT that stops the match when its log-likelihood ratio reaches a bound.
Output
    PGN in game order (Event, Site, Date, Round, Red, Black, Result, TimeControl, Termination,
    Rules: the rule set the rulings used, ``asian`` or ``chinese``; the opening's end, and
    each engine move's score/depth and time as a comment), a JSON results file (each game,
    the totals and the rule set), and a progress line.
Faults
    An engine that crashes (or dies of a signal, SIGINT included), sends an illegal or no
    move, or runs out of time loses the game and is restarted for the next one. Engines run
    in process groups of their own, so a terminal's Ctrl-C reaches only the match: the
    KeyboardInterrupt stops every game at once, kills the engines in mid-search, closes the
    others, writes every finished game and the results, and raises again. Games are
    numbered as they start: nothing is allocated per game before it is played.
Checks, outputs, resuming
    :func:`prepare_match` checks every setting before any engine starts; ``run_match(...,
    pgn_file=, results_file=)`` and the command line's ``--pgn``/``--results`` check the
    outputs against the inputs (a FIFO or device is refused) and write them beside their
    targets (:mod:`xiangqi.match.output`); :func:`resume_match` (``--resume RESULTS``)
    continues an interrupted match from the settings and finished rounds its results file
    holds, each record checked field by field (:mod:`xiangqi.match.resume`).

On a Ray cluster
    ``--ray auto|local|ADDRESS`` (``run_match(..., ray=...)``) plays the rounds as Ray tasks
    on the cluster's workers; a round whose worker or node is lost is played again
    (:mod:`xiangqi.match.distributed`; the docs' page:
    https://xiangqi-rules.readthedocs.io/en/latest/distributed.html). Ray is an optional extra and
    is imported only then.

Modules: :mod:`~xiangqi.match.timecontrol`, :mod:`~xiangqi.match.spec` (EngineSpec),
:mod:`~xiangqi.match.openings`, :mod:`~xiangqi.match.adjudication`,
:mod:`~xiangqi.match.runner` (play_game, the local runner, MatchResult),
:mod:`~xiangqi.match.settings` (MatchSettings: every setting, its default and its check),
:mod:`~xiangqi.match.plan` (prepare_match, MatchPlan, run_match, resume_match),
:mod:`~xiangqi.match.output` (the output files), :mod:`~xiangqi.match.resume` (results files),
:mod:`~xiangqi.match.distributed` (Ray) and :mod:`~xiangqi.match.stats` (SPRT, Elo). Import
the public names from ``xiangqi.match``.
"""

from __future__ import annotations

from .adjudication import DEFAULT_MAX_PLIES, Adjudication, GameOver, adjudicate
from .openings import (
    DEFAULT_BOOK_PLIES,
    BookOpenings,
    Opening,
    OpeningList,
    OpeningSource,
    load_openings,
    opening_source,
)
from .plan import MatchPlan, prepare_match, resume_match, run_match
from .runner import DEFAULT_TIME_MARGIN, MatchResult, play_game
from .settings import DEFAULT_RAY_RETRIES, MatchSettings
from .spec import DEFAULT_ENGINE_TIMEOUT, EngineSpec
from .stats import SPRT, Estimate, Tally
from .timecontrol import DEFAULT_TC, TimeControl, make_limit, parse_tc

__all__ = [
    "DEFAULT_BOOK_PLIES",
    "DEFAULT_ENGINE_TIMEOUT",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_RAY_RETRIES",
    "DEFAULT_TC",
    "DEFAULT_TIME_MARGIN",
    "SPRT",
    "Adjudication",
    "BookOpenings",
    "EngineSpec",
    "Estimate",
    "GameOver",
    "MatchPlan",
    "MatchResult",
    "MatchSettings",
    "Opening",
    "OpeningList",
    "OpeningSource",
    "Tally",
    "TimeControl",
    "adjudicate",
    "load_openings",
    "make_limit",
    "opening_source",
    "parse_tc",
    "play_game",
    "prepare_match",
    "resume_match",
    "run_match",
]
