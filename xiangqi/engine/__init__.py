"""Talk to xiangqi engines over UCI or UCCI: an asyncio core and a synchronous wrapper.

The shape follows python-chess's ``chess.engine``: one protocol object per engine process,
of a class per dialect on a shared base (:class:`UciProtocol` and :class:`UcciProtocol` on
:class:`EngineProtocol`, as python-chess has UciProtocol and XBoardProtocol), driven by
asyncio; :class:`SimpleEngine` running that protocol's event loop in a background thread for
ordinary blocking code; :class:`Limit` (with python-chess's clock fields), :class:`PlayResult`,
:class:`PovScore` with :class:`Cp` and :class:`Mate`, info dicts, and ``analysis()`` objects
to iterate over and ``stop()``. Standard library only.

Squares are public numbers 0..89 (file + 9 * rank, ranks 0..9 from Red's side); moves are
:class:`xiangqi.Move` objects. On the wire a move is ICCS text in the engine's dialect:

``Dialect.UCI``
    Pikafish-style UCI: ``uci``/``uciok``, ``setoption name N value V``, ranks 0..9 ("h2e2").
    Clocks go as ``wtime``/``btime``/``winc``/``binc``/``movestogo`` (milliseconds).
``Dialect.FAIRY``
    Fairy-Stockfish's UCI: as UCI, but ``setoption name UCI_Variant value xiangqi`` is sent
    after the handshake and squares have ranks 1..10 ("h3e3"). Detected when the engine
    offers a ``UCI_Variant`` option whose choices include ``xiangqi``.
``Dialect.UCCI``
    ElephantEye's UCCI: ``ucci``/``ucciok``, ``option NAME type ...``, ``setoption NAME V``,
    ranks 0..9, ``banmoves`` for excluded moves, ``nobestmove`` when there is no move, and the
    position is sent from the last capture (the protocol's rule). ``go`` takes ``depth``,
    ``nodes``, and ``time``/``increment``/``movestogo``/``opptime``/... (see UcciProtocol).

Every move an engine sends (``bestmove``, ``ponder`` and each ``pv``) is read in its dialect
and checked against the position; an unreadable or illegal one raises :class:`EngineError`
quoting the engine's line. The engine is a peer, not a source of truth. Lines that are not
part of the protocol are logged (logger ``xiangqi.engine``) and skipped, and so are malformed
info fields: words are separated by spaces and tabs only, numbers are ASCII decimal digits
with an optional sign, counters are at least 0 and ``multipv`` at least 1.

Bounds: output written while no command runs is logged at debug level and dropped (a
warning after _IDLE_WARN lines); during a command at most _MAX_QUEUED lines wait before
reading pauses (the engine then blocks on its own output); an ``analysis()`` keeps at most
ANALYSIS_QUEUE unread infos. Every wait has a deadline, checked before every line (a flood
cannot hold a command past its timeout); ``timeout=None`` waits without one. An engine that
exits raises :class:`EngineTerminatedError`, and closing always reaps the process (killing
it when it ignores ``quit`` for the grace period) and closes its pipes. KeyboardInterrupt in
any SimpleEngine call cancels the command and leaves no process, fd or thread behind: see
SimpleEngine.

Layers: :mod:`xiangqi.engine.values` (errors, Dialect, Limit, scores, PlayResult, Option),
:mod:`xiangqi.engine.parsing` (the pure line parsers), :mod:`xiangqi.engine.protocol` (the
asyncio core, EngineProtocol and AnalysisResult), :mod:`xiangqi.engine.uci` and
:mod:`xiangqi.engine.ucci` (one protocol class per dialect), :mod:`xiangqi.engine.simple`
(SimpleEngine). Import the public names from ``xiangqi.engine``.
"""

from __future__ import annotations

from .protocol import ANALYSIS_QUEUE, AnalysisResult, EngineProtocol
from .simple import SimpleAnalysisResult, SimpleEngine
from .ucci import UcciProtocol, popen_ucci
from .uci import UciProtocol, popen_uci
from .values import (
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_TIMEOUT,
    Command,
    Cp,
    Dialect,
    EngineError,
    EngineOptionError,
    EngineTerminatedError,
    Info,
    Limit,
    Mate,
    Option,
    PlayResult,
    PovScore,
    Score,
)
from .values import LOGGER as LOGGER  # the logger "xiangqi.engine", as before the split

__all__ = [
    "ANALYSIS_QUEUE",
    "DEFAULT_SEARCH_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "AnalysisResult",
    "Command",
    "Cp",
    "Dialect",
    "EngineError",
    "EngineOptionError",
    "EngineProtocol",
    "EngineTerminatedError",
    "Info",
    "Limit",
    "Mate",
    "Option",
    "PlayResult",
    "PovScore",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UcciProtocol",
    "UciProtocol",
    "popen_ucci",
    "popen_uci",
]
