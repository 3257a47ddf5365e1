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
from .resume import check_records

if TYPE_CHECKING:
    from .plan import MatchPlan
    from .runner import MatchResult


def run_to_files(
    plan: MatchPlan,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
    *,
    finished: Sequence[Mapping[str, Any]] = (),
    resumed: PathArg | None = None,
    progress: TextIO | None = None,
    keep_games: bool = True,
    names: tuple[str, str] = ("pgn_file", "results_file"),
) -> MatchResult:
    """Play plan writing its PGN to pgn_file and its results to results_file (either may be
    None), each replaced only once the match has a result (see the module's docstring).

    finished: the game records of complete rounds of an earlier run (see
    :func:`~xiangqi.match.resume_match`), counted, not played; their games are copied from
    the PGN file being replaced. resumed: the results file they come from, which the PGN
    may not be (the results may: they are rewritten). names: the two outputs' names in
    messages. OutputFileError (a XiangqiError) for a refused output, before anything starts.
    A KeyboardInterrupt is raised again once the finished games and results are written.
    """
    finished = check_records(finished, plan)
    inputs: list[PathArg] = [*plan.inputs()]
    pgn_name, results_name = names
    check_outputs({pgn_name: pgn_file}, [*inputs, *([resumed] if resumed is not None else [])])
    check_outputs({pgn_name: pgn_file, results_name: results_file}, inputs)
    old_games = _kept_games(pgn_file, finished) if finished and pgn_file is not None else []
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
    if pgn is not None:
        for game in old_games:
            pgn.handle.write(game)
    produced = False
    try:
        result = plan.run(
            None if pgn is None else cast(TextIO, pgn.handle),
            None if results is None else cast(TextIO, results.handle),
            progress=progress,
            keep_games=keep_games,
            finished=finished,
            **({} if pgn_file is None else {"pgn": os.path.abspath(os.fsdecode(pgn_file))}),
        )
        produced = True
    except KeyboardInterrupt:
        produced = True  # the finished games and the results are written, then it goes on
        raise
    except BaseException:
        # An error after games were played still writes them; one before leaves the files.
        produced = bool(old_games) or (pgn is not None and os.path.getsize(pgn.temporary) > 0)
        produced = produced or (results is not None and _played(results.temporary, finished))
        raise
    finally:
        for output in outputs:
            if produced:
                output.commit()
            else:
                output.discard()
    return result


def _kept_games(path: PathArg, finished: Sequence[Mapping[str, Any]]) -> list[str]:
    """The games of the PGN being resumed that belong to the finished rounds (a round cut
    short by the interrupt is played again, both games), as PGN text."""
    from ..pgn import read_games

    rounds = {str(record["round"]) for record in finished}
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [g.to_pgn() + "\n" for g in read_games(handle) if g.tags.get("Round") in rounds]


def _played(path: str, finished: Sequence[Mapping[str, Any]]) -> bool:
    """Does the results file written at path count more games than the resumed ones?"""
    try:
        with open(path, encoding="utf-8") as handle:
            return int(json.load(handle)["totals"]["games"]) > len(finished)
    except (OSError, ValueError, KeyError, TypeError):
        return False
