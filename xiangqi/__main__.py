"""Command line: ``python -m xiangqi perft|analyse|match ...`` (``--help`` for each).

Also installed as the ``xiangqi`` console script. ``perft DEPTH [--fen FEN] [--divide]``
counts leaves; ``analyse --engine CMD`` prints an engine's principal variations;
``match --engine CMD --engine CMD`` plays engine-vs-engine games (see xiangqi.match).
An engine CMD is a command line, prefixed "ucci:" for a UCCI engine. ``convert IN... OUT``
converts game records, files and folders, into one file (see xiangqi.records.convert).
``book build RECORDS... -o FILE`` builds an opening book from game records and
``book probe FILE [FEN]`` lists a position's book moves
(see xiangqi.book). ``mate FEN [--plies N] [--checks-only] [--nodes N] [--hash-mb MB]``
prints the shortest forced mate (exit status 0), or says that none exists within N plies
(exit status 1; see Position.find_mate).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from ._words import counted
from .errors import XiangqiError
from .fen import START_FEN
from .position import Position

if TYPE_CHECKING:
    from .engine import PovScore
    from .match import MatchSettings
    from .move import Move

#: The match settings --resume may change (the rest it reads from the results file: given,
#: whatever the value, 0 included, they are refused): --concurrency (the games at once from
#: then on) and --ray (where the rounds run); --pgn and --results are the outputs.
_RESUME_MAY_CHANGE = ("concurrency", "ray")

#: Deepest perft the command line runs. perft(8) from the start is about 5 * 10**12
#: leaves, a day of counting; a larger depth is a typo, not a job.
MAX_CLI_DEPTH = 10


def _perft(args: argparse.Namespace) -> int:
    pos = Position(args.fen)
    print(f"FEN: {pos.fen()}")
    for depth in range(min(1, args.depth), args.depth + 1):  # depth 0 counts the root: 1
        start = time.perf_counter()
        nodes = pos.perft(depth)
        elapsed = time.perf_counter() - start
        nps = nodes / elapsed if elapsed > 0 else float("inf")
        print(f"perft({depth}) = {nodes:>14,}   {elapsed:9.3f} s   {nps:>15,.0f} nodes/s")
    if args.divide and args.depth >= 1:
        print(f"\ndivide({args.depth}):")
        counts = pos.divide(args.depth)
        for move in sorted(counts, key=str):
            print(f"{move} {counts[move]}")
        print(f"moves: {len(counts)}  nodes: {sum(counts.values())}")
    return 0


def _mate(args: argparse.Namespace) -> int:
    from .errors import SearchLimitReached
    from .puzzles import position_of

    pos = position_of(args.fen)
    start = time.perf_counter()
    try:
        line = pos.find_mate(
            args.plies, checks_only=args.checks_only, node_limit=args.nodes, hash_mb=args.hash_mb
        )
    except SearchLimitReached as stopped:
        print(f"unknown: {stopped}")
        return 3
    except MemoryError as exc:  # find_mate names hash_mb; the option is --hash-mb
        print(f"xiangqi: error: {str(exc).replace('hash_mb', '--hash-mb')}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - start
    kind = "checking mate" if args.checks_only else "mate"
    if line is None:
        print(f"no {kind} within {counted(args.plies, 'ply')} (proven, {elapsed:.3f} s)")
        return 1
    moves = " ".join(str(move) for move in line)
    plies = counted(len(line), "ply")
    print(f"{kind} in {(len(line) + 1) // 2} ({plies}, {elapsed:.3f} s): {moves}")
    return 0


def _score_text(score: PovScore) -> str:
    red = score.red()
    mate = red.mate()
    if mate is not None:
        return f"mate {mate:+d} (Red's view)"
    return f"{(red.score() or 0) / 100:+.2f} (Red's view)"


def _write_line(pos: Position, moves: list[Move], notation: str) -> str:
    from .notation import chinese, iccs, wxf

    board = pos.copy()
    words = []
    for move in moves:
        if notation == "wxf":
            words.append(wxf(board, move))
        elif notation == "chinese":
            words.append(chinese(board, move))
        else:
            words.append(iccs(move))
        board.push(move)
    return " ".join(words)


def _analyse(args: argparse.Namespace) -> int:
    from .engine import Limit
    from .match import EngineSpec

    pos = Position(args.fen)
    if args.movetime is not None:
        limit = Limit(time=args.movetime / 1000)
    else:
        limit = Limit(depth=args.depth if args.depth is not None else 12)
    with EngineSpec.parse(args.engine).open() as engine:
        infos = engine.analyse(pos, limit, multipv=args.multipv)
        print(f"FEN: {pos.fen()}")
        print(f"engine: {engine.id.get('name', '?')} ({engine.dialect.value})")
        for info in infos:
            score = _score_text(info["score"]) if "score" in info else "no score"
            line = _write_line(pos, info.get("pv", []), args.notation)
            print(f"{info.get('multipv', 1)}. depth {info.get('depth', '?')}  {score}  {line}")
    return 0


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (a `kill`, a closed terminal) stops a match, a conversion or a book
    build as Ctrl-C does."""

    #: The signals received while the command ran (the last gives the exit status).
    received: list[int] = []

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop_on_termination() -> dict[int, Any]:
    """Make SIGTERM and SIGHUP raise _Terminated in the main thread while a command runs, so
    it stops as on Ctrl-C: a match's finished games and results are written (--resume goes
    on from them), a conversion's or a book's temporary file is removed and the old output
    left; the handlers they replaced, to put back. Nothing is changed outside the main
    thread."""
    import signal
    import threading

    def stop(signum: int, frame: object) -> None:
        _Terminated.received.append(signum)
        raise _Terminated(signum)

    replaced: dict[int, Any] = {}
    _Terminated.received.clear()
    if threading.current_thread() is not threading.main_thread():
        return replaced
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            replaced[number] = signal.signal(number, stop)
    return replaced


def _restore_handlers(replaced: dict[int, Any]) -> None:
    import signal

    for number, handler in replaced.items():
        if handler is not None:  # None: set outside Python, cannot be put back
            signal.signal(number, handler)


def _match_setting_names() -> set[str]:
    import dataclasses

    from .match import MatchSettings

    return {field.name for field in dataclasses.fields(MatchSettings)}


def _match_settings(args: argparse.Namespace) -> MatchSettings:
    """The MatchSettings of the match options given (the others keep their defaults)."""
    from .match import MatchSettings

    given = {k: getattr(args, k) for k in _match_setting_names() if hasattr(args, k)}
    given = {k: v for k, v in given.items() if v is not None}
    if "each" in given:  # one --each a group of settings
        given["each"] = " ".join(given["each"])
    if given.get("max_plies") == 0:  # --max-plies 0: no cap
        given["max_plies"] = None
    return MatchSettings(**given)


def _match(args: argparse.Namespace) -> int:
    """The match, or the resumed one, as run_match / resume_match play it (every setting and
    output checked before any engine starts; see xiangqi.match.output); printed here."""
    from .match import prepare_match, resume_match
    from .match.output import run_to_files

    names = ("--pgn", "--results")
    handlers = _stop_on_termination()
    try:
        if args.resume is not None:
            result = resume_match(
                args.resume,
                pgn_file=args.pgn,
                results_file=args.results,
                ray=args.ray,
                concurrency=args.concurrency,
                progress=sys.stderr,
                keep_games=False,
                names=names,
            )
        else:
            plan = prepare_match(settings=_match_settings(args))
            result = run_to_files(
                plan, args.pgn, args.results, progress=sys.stderr, keep_games=False, names=names
            )
    except KeyboardInterrupt:
        print("xiangqi: interrupted; finished games and results are written", file=sys.stderr)
        # (what reaches here may be a plain KeyboardInterrupt: Ray re-raises its own)
        return 128 + _Terminated.received[-1] if _Terminated.received else 130
    except (ValueError, TypeError) as exc:  # a setting: XiangqiError and the checks' errors
        print(f"xiangqi: error: {exc}", file=sys.stderr)
        return 2
    finally:
        _restore_handlers(handlers)
    print(result.summary())
    if result.stopped in ("H0", "H1"):
        print(f"SPRT ({result.sprt}): {result.stopped} accepted, LLR {result.llr:.2f}")
    return 0


def _convert(args: argparse.Namespace) -> int:
    from .records import convert

    # Every argument is checked (the output against every input) before a file is read;
    # OUT is replaced only when every game is written (see xiangqi.records.convert).
    inputs: list[str] = args.input
    shown = inputs[0] if len(inputs) == 1 else f"{len(inputs)} inputs"
    progress = _Progress(f"converting {shown}") if args.progress or sys.stderr.isatty() else None
    handlers = _stop_on_termination()
    try:
        summary = convert(
            inputs,
            args.output,
            to=args.to,
            from_format=args.from_format,
            notation=args.notation,
            recursive=args.recursive,
            progress=progress.report if progress is not None else None,
        )
    except KeyboardInterrupt:
        print(f"xiangqi: interrupted; {args.output} left as it was", file=sys.stderr)
        return 128 + _Terminated.received[-1] if _Terminated.received else 130
    finally:
        _restore_handlers(handlers)
        if progress is not None:
            progress.close()
    # Warnings on stderr; the summary, the command's answer, on stdout.
    for skipped in summary.skipped:
        print(f"xiangqi: skipped {skipped.path}: {skipped.reason}", file=sys.stderr)
    counts = f"{counted(summary.games, 'game')}, {counted(summary.plies, 'ply')}"
    line = f"{counts} written to {args.output}"
    if len(summary.files) != 1 or summary.skipped:
        line += f" from {counted(len(summary.files), 'file')}"
        if summary.skipped:
            line += f" ({len(summary.skipped)} skipped)"
    if summary.games_with_errors:
        bad, first = summary.games_with_errors, summary.first_error
        line += f"; {counted(bad, 'game')} had errors (the first: {first})"
    print(line, flush=True)
    return 0


def _book_build(args: argparse.Namespace) -> int:
    from .book import build

    started = time.monotonic()
    progress = _Progress(f"building {_shown(args.output)}")
    handlers = _stop_on_termination()
    try:
        summary = build(
            args.records,
            args.output,
            args.plies,
            args.min_games,
            args.mirror,
            recursive=args.recursive,
            progress=progress.report,
        )
    except KeyboardInterrupt:
        progress.close()
        print(f"xiangqi: interrupted; {_shown(args.output)} left as it was", file=sys.stderr)
        return 128 + _Terminated.received[-1] if _Terminated.received else 130
    finally:
        _restore_handlers(handlers)
        progress.close()
    # Warnings on stderr; the summary, the command's answer, on stdout.
    for skipped in summary.skipped:
        print(f"xiangqi: skipped {_shown(skipped.path)}: {skipped.reason}", file=sys.stderr)
    if summary.bad_games:
        print(
            f"xiangqi: {counted(summary.bad_games, 'game')} had errors (each counted up to "
            "its first bad move); the first:",
            file=sys.stderr,
        )
        for line in summary.first_errors:
            print(f"  {_shown(line)}", file=sys.stderr)
    print(
        f"{counted(summary.games, 'game')}, {counted(summary.plies, 'ply')} read; "
        f"{counted(summary.positions, 'position')}, {counted(summary.entries, 'move')} "
        f"written to {_shown(summary.path)} ({time.monotonic() - started:.1f} s)",
        flush=True,
    )
    return 0


def _shown(name: str) -> str:
    """A file name (or a line holding one) printable on any stream: a byte that is not
    UTF-8 (held as a surrogate escape) shown as its escape, \\udcXX."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _book_probe(args: argparse.Namespace) -> int:
    from .book import SQLiteReader, open_reader
    from .notation import wxf

    pos = Position(" ".join(args.fen) if args.fen else START_FEN)
    with open_reader(args.file) as reader:
        entries = list(reader.find_all(pos))
        kind = "xiangqi book" if isinstance(reader, SQLiteReader) else "ElephantEye book"
        print(f"{kind} {_shown(args.file)} ({len(reader)} entries); position {pos.fen()}")
    if not entries:
        print("no book moves for this position")
        return 1
    total = sum(entry.weight for entry in entries)
    counts = entries[0].wins is not None
    header = f"{'move':<6}{'wxf':<7}{'weight':>8}{'share':>8}"
    print(header + (f"{'won':>7}{'drawn':>7}{'lost':>7}" if counts else ""))
    for entry in entries:
        line = (
            f"{entry.move.iccs():<6}{wxf(pos, entry.move):<7}{entry.weight:>8}"
            f"{100 * entry.weight / total:>7.1f}%"
        )
        if counts:
            line += f"{entry.wins:>7}{entry.draws:>7}{entry.losses:>7}"
        print(line)
    return 0


class _Progress:
    """A progress line on stderr for long conversions: rewritten in place on a terminal;
    otherwise (convert --progress into a pipe or a file) a line for the first game, then a
    line every PLAIN_EVERY seconds, and the last counts when the work ends."""

    TTY_EVERY = 0.2
    PLAIN_EVERY = 10.0

    def __init__(self, what: str) -> None:
        self.what = what
        self.tty = sys.stderr.isatty()
        self.started = time.monotonic()
        self.last: float | None = None  # when a line was last printed; None: not yet
        self.shown = False  # a terminal's line awaits its newline
        self.pending: tuple[int, int] | None = None  # counts not printed yet

    def _line(self, games: int, plies: int, now: float) -> str:
        rate = games / max(now - self.started, 1e-9)
        counts = f"{counted(games, 'game')}, {counted(plies, 'ply')}"
        return f"{self.what}: {counts} ({rate:.0f} games/s)"

    def report(self, games: int, plies: int) -> None:
        """The progress callback: games and plies so far."""
        now = time.monotonic()
        every = self.TTY_EVERY if self.tty else self.PLAIN_EVERY
        if self.last is not None and now - self.last < every:
            self.pending = (games, plies)
            return
        self.last, self.pending = now, None
        line = self._line(games, plies, now)
        if self.tty:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
            self.shown = True
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.pending is not None:
            self.last = None
            self.report(*self.pending)
        if self.shown:
            print(file=sys.stderr)
            self.shown = False


class _Parser(argparse.ArgumentParser):
    """The subcommands' parser: match, convert, book and mate report a bad argument in one
    "xiangqi: error:" line, as they report a bad input."""

    def error(self, message: str) -> NoReturn:
        if self.prog.rsplit(" ", 1)[-1] in ("match", "convert", "book", "build", "probe", "mate"):
            self.exit(2, f"xiangqi: error: {message}\n")
        super().error(message)


def _said(exc: BaseException) -> str:
    """An error as its line says it: an OSError without Python's "[Errno N] " prefix."""
    text = str(exc)
    if isinstance(exc, OSError) and exc.errno is not None:
        prefix = f"[Errno {exc.errno}] "
        text = text.removeprefix(prefix)
    return text


def _whole(text: str) -> int:
    """A whole number, written in ASCII digits (a minus sign allowed: the caller's range
    check then says what the option takes)."""
    digits = text[1:] if text[:1] == "-" else text
    if not digits.isascii() or not digits.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(text)


def _count(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text) if text.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {text!r}")
    return value


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def _hash_mb(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= 65536:
        raise argparse.ArgumentTypeError(f"must be in 1..65536, got {text!r}")
    return value


def _mate_plies(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= 99:
        raise argparse.ArgumentTypeError(f"must be in 1..99, got {text!r}")
    return value


def _match_options(match: argparse.ArgumentParser) -> None:
    """The match options: one a MatchSettings field (the same name), its default from it,
    and --pgn, --results and --resume."""
    from .match import DEFAULT_BOOK_PLIES, DEFAULT_TC, MatchSettings
    from .match.openings import OPENING_ORDERS

    default = MatchSettings.default
    match.add_argument(
        "--engine",
        dest="engines",
        metavar="ENGINE",
        action="append",
        help="engine settings, twice: \"name=N cmd=PATH 'option.Skill Level=0' tc=10+0.1\" "
        '(or a command line, "ucci:" for UCCI)',
    )
    match.add_argument("--each", action="append", help="settings for both engines")
    count = match.add_mutually_exclusive_group()
    count.add_argument("--games", type=_positive, help="games to play (default: one round)")
    count.add_argument("--rounds", type=_positive, help="game pairs, colours reversed")
    match.add_argument(
        "--tc", help=f"40/60+0.6, 10+0.1, st=S, depth=N, nodes=N (default {DEFAULT_TC})"
    )
    match.add_argument("--openings", help="openings: PGN (main lines) or FEN/EPD list")
    match.add_argument("--opening-format", choices=("pgn", "epd"), help="default: guessed")
    match.add_argument("--opening-plies", type=_count, help="use the first N plies of a PGN")
    match.add_argument(
        "--opening-order",
        choices=OPENING_ORDERS,
        help=f"default: {default('opening_order')}",
    )
    match.add_argument("--seed", type=_count, help="seed of the random opening order or book")
    match.add_argument(
        "--book",
        help="opening book (ElephantEye .dat or xiangqi book build's SQLite): each round plays"
        " its first --book-plies plies from it, weighted, seeded with --seed",
    )
    match.add_argument(
        "--book-plies", type=_count, help=f"plies played from --book (default {DEFAULT_BOOK_PLIES})"
    )
    match.add_argument(
        "--concurrency",
        type=_positive,
        help=f"games at once on this machine ({default('concurrency')}; with --resume: "
        "from then on)",
    )
    match.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the rounds on a Ray cluster: auto (this machine's cluster), local (a Ray "
        "of the match's own) or the head's address (see "
        "https://xiangqi-rules.readthedocs.io/en/latest/distributed.html)",
    )
    match.add_argument(
        "--ray-retries",
        type=_count,
        help="times a round whose Ray worker or node was lost is played again "
        f"({default('ray_retries')})",
    )
    match.add_argument(
        "--ray-resource",
        metavar="NAME",
        help="each round takes one unit of this custom Ray resource instead of a CPU",
    )
    match.add_argument(
        "--max-plies",
        type=_count,
        help=f"draw after this many plies ({default('max_plies')}; 0: none)",
    )
    match.add_argument("--draw", help='draw adjudication: "movenumber=N movecount=N score=CP"')
    match.add_argument("--resign", help='resign adjudication: "movecount=N score=CP"')
    match.add_argument(
        "--rules",
        choices=("asian", "chinese"),
        help="the rule set the library's rulings adjudicate by "
        f"({default('rules')}; see xiangqi.Rules)",
    )
    match.add_argument(
        "--time-margin", type=_seconds, help=f"seconds over the clock ({default('time_margin')})"
    )
    match.add_argument("--sprt", help='"elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=logistic]"')
    match.add_argument(
        "--pgn", help="write the games to this PGN file (replaced once the match has a result)"
    )
    match.add_argument("--results", help="write the results to this JSON file (replaced likewise)")
    match.add_argument("--event", help=f'the PGN Event tag ("{default("event")}")')
    match.add_argument(
        "--resume",
        metavar="RESULTS",
        help="continue the interrupted match whose results file this is (its settings, "
        "openings and finished rounds; the results are written back to it)",
    )


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="xiangqi", description="Xiangqi rules tools.")
    parser.add_argument("--version", action="version", version=f"xiangqi {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    perft = sub.add_parser("perft", help="count leaf nodes of the legal move tree")
    perft.add_argument("depth", type=int, help=f"depth in plies (0..{MAX_CLI_DEPTH})")
    perft.add_argument("--fen", default=START_FEN, help="start from this FEN (default: start)")
    perft.add_argument("--divide", action="store_true", help="also list counts per root move")
    analyse = sub.add_parser("analyse", help="print an engine's principal variations")
    analyse.add_argument("--engine", required=True, help='engine command ("ucci:" for UCCI)')
    analyse.add_argument("--fen", default=START_FEN, help="position (default: start)")
    search = analyse.add_mutually_exclusive_group()
    search.add_argument("--depth", type=_positive, help="search depth (default 12)")
    search.add_argument("--movetime", type=_positive, help="search time in milliseconds")
    analyse.add_argument("--multipv", type=_positive, default=1, help="lines to show")
    analyse.add_argument(
        "--notation", choices=("iccs", "wxf", "chinese"), default="iccs", help="move text"
    )
    match = sub.add_parser("match", help="play engine-vs-engine games (see xiangqi.match)")
    if "match" in (sys.argv[1:] if argv is None else argv):  # its options import xiangqi.match
        _match_options(match)
    convert = sub.add_parser(
        "convert",
        help="convert game records between formats",
        description="Read every game of each IN (a file, its format recognised from its "
        "content, or a folder: every game record in it; files that are no record are skipped "
        "and listed) and write them to OUT in the format its extension names (.pgn, .xqf, "
        ".dhtml). OUT is checked against every IN before anything is read and replaced only "
        "when every game is written.",
    )
    convert.add_argument(
        "input", nargs="+", metavar="IN", help="game-record files or folders to read"
    )
    convert.add_argument("output", metavar="OUT", help="file to write (.pgn, .xqf, .dhtml)")
    convert.add_argument(
        "--notation",
        choices=("iccs", "wxf", "chinese", "san"),
        default="iccs",
        help="move text of PGN output (default iccs)",
    )
    convert.add_argument("--from", dest="from_format", help="format of IN (default: recognised)")
    convert.add_argument("--to", help="format of OUT (default: from its extension)")
    convert.add_argument(
        "-r", "--recursive", action="store_true", help="read the folders' subfolders too"
    )
    convert.add_argument(
        "--progress",
        action="store_true",
        help="print progress lines on stderr even when it is no terminal (default: only on "
        "a terminal)",
    )
    book = sub.add_parser(
        "book",
        help="build or probe an opening book (see xiangqi.book)",
        description="Build a book of the library's own from game records, or list a "
        "position's moves in a book (ElephantEye's .dat or the library's SQLite books).",
    )
    book_sub = book.add_subparsers(dest="book_command", required=True, parser_class=_Parser)
    book_build = book_sub.add_parser(
        "build",
        help="build a book (SQLite) from game records",
        description="Count the moves played in the first plies of every game of RECORDS (any "
        "format xiangqi.open_games reads) into a book file of the library's own.",
    )
    book_build.add_argument(
        "records", nargs="+", metavar="RECORDS", help="game-record files and folders"
    )
    book_build.add_argument("-o", "--output", required=True, metavar="FILE", help="book to write")
    book_build.add_argument(
        "--plies", type=_positive, default=20, help="plies of each game to count (20)"
    )
    book_build.add_argument(
        "--min-games", type=_positive, default=1, help="keep moves played in N games or more (1)"
    )
    book_build.add_argument(
        "--mirror", action="store_true", help="merge positions with their left-right mirror"
    )
    book_build.add_argument(
        "-r", "--recursive", action="store_true", help="read the folders' subfolders too"
    )
    book_probe = book_sub.add_parser(
        "probe",
        help="list a position's book moves",
        description="List the moves FILE holds for a position (default: the start), highest "
        "weight first. Exit status 1 when there are none.",
    )
    book_probe.add_argument("file", metavar="FILE", help="book file (.dat or the library's)")
    book_probe.add_argument(  # default=[]: argparse calls a "*" positional without one required
        "fen", nargs="*", default=[], metavar="FEN", help="position (default: start)"
    )

    mate = sub.add_parser(
        "mate",
        help="find the shortest forced mate of the side to move",
        description="Search FEN for the side to move's shortest forced mate (exit status 0), "
        "or prove there is none within --plies plies (exit status 1; 3: --nodes reached).",
    )
    mate.add_argument("fen", metavar="FEN", help="the position (a composition's diagram too)")
    mate.add_argument("--plies", type=_mate_plies, default=11, help="longest mate (plies, 11)")
    mate.add_argument("--checks-only", action="store_true", help="the attacker only checks")
    mate.add_argument("--nodes", type=_positive, help="stop after this many positions")
    mate.add_argument(
        "--hash-mb",
        type=_hash_mb,
        default=64,
        help="megabytes the search's tables may take (1..65536, 64)",
    )
    args, extra = parser.parse_known_args(argv)
    if extra:  # as parse_args() reports them, but in the subcommand's manner
        {"match": match, "convert": convert, "book": book, "mate": mate}.get(
            args.command, parser
        ).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "perft" and not 0 <= args.depth <= MAX_CLI_DEPTH:
        parser.error(f"depth must be in 0..{MAX_CLI_DEPTH}, got {args.depth}")
    if args.command == "match" and args.resume is not None:
        given = [
            action.option_strings[0]
            for action in match._actions
            if action.dest in _match_setting_names()
            and action.dest not in _RESUME_MAY_CHANGE
            and getattr(args, action.dest) is not None
        ]
        if given:
            match.error(f"--resume takes the match's settings from its results file: {given[0]}")
    elif args.command == "match" and len(args.engines or ()) != 2:
        match.error("match needs --engine exactly twice")
    errors: tuple[type[Exception], ...] = (XiangqiError, OSError)
    # perft and convert keep start-up free of asyncio and the engine client
    if args.command not in ("perft", "convert", "book", "mate"):
        from .engine import EngineError

        errors = (*errors, EngineError)
    try:
        if args.command == "analyse":
            return _analyse(args)
        if args.command == "match":
            return _match(args)
        if args.command == "convert":
            return _convert(args)
        if args.command == "book":
            return _book_build(args) if args.book_command == "build" else _book_probe(args)

        if args.command == "mate":
            return _mate(args)
        return _perft(args)
    except errors as exc:
        print(f"xiangqi: error: {_said(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
