"""The match's output files: checked against its inputs, written beside, moved over at the end.

:func:`run_to_files` is what ``run_match(pgn_file=..., results_file=...)``,
:func:`~xiangqi.match.resume_match` and ``xiangqi match --pgn/--results/--resume`` do. Every
output is checked first (:func:`xiangqi._files.check_outputs`, the house's one way of
writing a user's file): a directory, a FIFO, a device (``/dev/null``) or a socket is
refused, never opened nor replaced, and so is an output that is the same file as an input
(the openings, an opening book, an engine's program, the results being resumed; by identity,
so a hard link or a symlink under another name is caught) or as the other output, before any
engine starts. The PGN and results are then written to temporary files in their targets'
directories and each is moved over its target (``os.replace``, keeping its permission bits,
through a symlink) only once the match has a result: complete, decided by the SPRT,
interrupted with Ctrl-C, or stopped by an error after it had played games. A match that
fails before producing anything, or a process killed outright, leaves every existing file as
it was (and at worst a ``.NAME.*.part`` file).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

from .._files import PathArg, ReplacingFile, check_outputs
from .resume import check_records, kept_games

if TYPE_CHECKING:
    from .plan import MatchPlan
    from .runner import MatchResult


def run_to_files(
    plan: MatchPlan,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
    *,
    finished: Sequence[Mapping[str, Any]] = (),
    kept: Mapping[int, str] | None = None,
    resumed: PathArg | None = None,
    progress: TextIO | None = None,
    keep_games: bool = True,
    names: tuple[str, str] = ("pgn_file", "results_file"),
) -> MatchResult:
    """Play plan writing its PGN to pgn_file and its results to results_file (either may be
    None), each replaced only once the match has a result (see the module's docstring).

    finished: the game records of complete rounds of an earlier run (see
    :func:`~xiangqi.match.resume_match`), counted, not played; kept: their games' PGN text
    by game index (from 0), written in game order among the new ones (None: read from
    pgn_file, which must then be that match's PGN: see
    :func:`~xiangqi.match.resume.kept_games`). resumed: the results file they come from,
    which the PGN may not be (the results may: they are rewritten). names: the two outputs'
    names in messages. OutputFileError (a XiangqiError) for a refused output, before
    anything starts. A KeyboardInterrupt is raised again once the finished games and
    results are written. A match that fails before a new game is played leaves both files
    as they were; a results file is replaced only by a complete one; whatever fails, no
    temporary file is left.
    """
    finished = check_records(finished, plan)
    inputs: list[PathArg] = [*plan.inputs()]
    pgn_name, results_name = names
    check_outputs({pgn_name: pgn_file}, [*inputs, *([resumed] if resumed is not None else [])])
    check_outputs({pgn_name: pgn_file, results_name: results_file}, inputs)
    if kept is None:
        kept = {}
        if finished and pgn_file is not None:
            kept = kept_games(
                os.fsdecode(pgn_file),
                finished,
                plan.event,
                plan.total,
                "" if resumed is None else os.fsdecode(resumed),
            )
    outputs: list[ReplacingFile] = []
    pgn = results = None
    try:
        if pgn_file is not None:
            pgn = ReplacingFile(pgn_file, inputs=inputs, what=pgn_name)
            outputs.append(pgn)
        if results_file is not None:
            results = ReplacingFile(results_file, inputs=inputs, what=results_name)
            outputs.append(results)
    except BaseException:
        for output in outputs:
            output.discard()
        raise
    extra: dict[str, Any] = {}
    if pgn_file is not None:
        # Relative to the results file's folder when both are given: a copied folder's
        # results name the copy's PGN, not the original's.
        where = os.path.abspath(os.fsdecode(pgn_file))
        if results_file is not None:
            where = os.path.relpath(
                where, os.path.dirname(os.path.abspath(os.fsdecode(results_file)))
            )
        extra["pgn"] = where
    produced = False
    try:
        result = plan.run(
            None if pgn is None else cast(TextIO, pgn.handle),
            None if results is None else cast(TextIO, results.handle),
            progress=progress,
            keep_games=keep_games,
            finished=finished,
            kept=kept,
            **extra,
        )
        produced = True
    except KeyboardInterrupt:
        produced = True  # the finished games and the results are written, then it goes on
        raise
    except BaseException:
        # An error after new games were played still writes them; one before (an engine
        # that does not start, a bad option) leaves the files as they were.
        produced = (results is not None and _played(results, finished)) or (
            pgn is not None and _games_in(pgn) > len(kept)
        )
        raise
    finally:
        _close_all(outputs, produced, results)
    return result


def _close_all(outputs: list[ReplacingFile], produced: bool, results: ReplacingFile | None) -> None:
    """Commit every output when produced (the results only when complete), else discard it;
    once one commit fails the others are discarded, and every temporary file is removed
    whatever fails; the first error is raised."""
    error: BaseException | None = None
    for output in outputs:
        try:
            if produced and error is None and (output is not results or _complete(output)):
                output.commit()
            else:
                output.discard()
        except BaseException as exc:
            error = error or exc
            output.discard()  # commit removes its temporary file; this makes sure
    if error is not None:
        raise error


def _complete(output: ReplacingFile) -> bool:
    """Does output's temporary file hold a whole JSON document (the runner wrote it all)?"""
    try:
        output.handle.flush()
        with open(output.temporary, encoding="utf-8") as handle:
            json.load(handle)
    except (OSError, ValueError):
        return False
    return True


def _games_in(output: ReplacingFile) -> int:
    """The games written to output's temporary PGN file (its Event tag lines)."""
    try:
        output.handle.flush()
        with open(output.temporary, encoding="utf-8") as handle:
            return sum(1 for line in handle if line.startswith("[Event "))
    except (OSError, ValueError):
        return 0


def _played(output: ReplacingFile, finished: Sequence[Mapping[str, Any]]) -> bool:
    """Does the results file written to output count more games than the resumed ones?"""
    try:
        output.handle.flush()
        with open(output.temporary, encoding="utf-8") as handle:
            return int(json.load(handle)["totals"]["games"]) > len(finished)
    except (OSError, ValueError, KeyError, TypeError):
        return False
