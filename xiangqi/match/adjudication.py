"""Adjudication: the library's rulings, the ply cap, and draws and resignations by score."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from .._checks import check_bool, check_int
from ..engine import PovScore
from ..errors import XiangqiError
from ..pieces import Color
from ..position import Position
from ..rules import Rules, check_rules
from ._text import DIGITS, INT, split_words

#: A game still running after this many plies (both sides' moves) is adjudicated a draw.
DEFAULT_MAX_PLIES = 300

#: The largest count a match setting takes (games, plies, scores...): a 64-bit word, which
#: the results file's JSON and every tool reading it can hold (a larger int cannot even be
#: written past Python's 4,300-digit limit, and would fail only once the games are played).
MAX_COUNT = 2**64 - 1


def check_count(name: str, value: object, low: int) -> int:
    """value as an int from low to MAX_COUNT (see check_int; its messages: "NAME must be
    at least LOW", "NAME must be at most MAX_COUNT")."""
    return check_int(name, check_int(name, value, low), None, MAX_COUNT)


def check_max_plies(value: object) -> int:
    """A ply cap of at least 1 (None, not 0, is no cap in Python: 0 is only the command
    line's --max-plies for none)."""
    number = check_int("max_plies", value, None, MAX_COUNT)  # the type, and at most
    try:
        return check_int("max_plies", number, 1)
    except ValueError as exc:  # the one message form, and how to say no cap
        raise ValueError(f"{exc} (None: no cap, as --max-plies 0)") from None


# -- one game ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class GameOver:
    """How a game ended: result ("1-0", "0-1", "1/2-1/2"), PGN Termination word, reason."""

    result: str
    termination: str
    reason: str
    #: The side whose engine failed (crash, illegal or no move, time), so it is restarted.
    fault: Color | None = None


@dataclasses.dataclass(frozen=True)
class Adjudication:
    """When the runner ends a game before the rules do.

    max_plies: a draw after this many plies (None: never). draw_move/draw_count/draw_score:
    from move draw_move on, a draw when the last draw_count moves of each engine all scored
    within +-draw_score centipawns (draw_count 0: off). resign_count/resign_score: an engine
    whose last resign_count moves scored -resign_score or worse loses (0: off); with
    resign_two_sided the opponent must agree with +resign_score or better. rules: the rule
    set of the library's rulings, "asian" (the default) or "chinese" (xiangqi.Rules; see
    Position.outcome), kept as a Rules member.
    """

    max_plies: int | None = DEFAULT_MAX_PLIES
    draw_move: int = 0
    draw_count: int = 0
    draw_score: int = 0
    resign_count: int = 0
    resign_score: int = 0
    resign_two_sided: bool = False
    rules: Rules | str = Rules.ASIAN

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", check_rules(self.rules))
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "rules":
                continue
            if field.name == "resign_two_sided":
                check_bool(field.name, value)
            elif field.name == "max_plies" and value is not None:
                object.__setattr__(self, field.name, check_max_plies(value))
            elif value is not None:
                object.__setattr__(self, field.name, check_count(field.name, value, 0))

    @staticmethod
    def parse_rule(text: str, kind: str) -> dict[str, Any]:
        """The fields of "movenumber=40 movecount=8 score=10" (kind "draw") or
        "movecount=3 score=600 twosided=true" (kind "resign")."""
        keys = ("movenumber", "movecount", "score") if kind == "draw" else ("movecount", "score")
        out: dict[str, Any] = {}
        for word in split_words(text, f"--{kind} settings"):
            key, sep, value = word.partition("=")
            if kind == "resign" and key == "twosided" and value.lower() in ("true", "false"):
                out["resign_two_sided"] = value.lower() == "true"
                continue
            if not sep or key not in keys or len(value) > DIGITS or not INT.fullmatch(value):
                raise XiangqiError(
                    f"--{kind} takes {', '.join(k + '=N' for k in keys)}"
                    + (" and twosided=true|false" if kind == "resign" else "")
                    + " (N a whole number, 0 or more"
                    + ("; a side resigns at -score or below)" if kind == "resign" else ")")
                    + f"; got {word!r} in {text!r:.100}"
                )
            name = {"movenumber": "move", "movecount": "count", "score": "score"}[key]
            out[f"{kind}_{name}"] = int(value)
        if not out.get(f"{kind}_count"):
            raise XiangqiError(f"--{kind} needs movecount=N (at least 1): {text!r:.100}")
        return out


def adjudicate(
    pos: Position, max_plies: int | None = DEFAULT_MAX_PLIES, rules: Rules | str = Rules.ASIAN
) -> GameOver | None:
    """The ruling on pos (with its move history), or None while the game goes on.

    The project's own rulings decide (``pos.outcome(rules=rules)``: checkmate, stalemate,
    repetition, perpetual check and chase (and under the Chinese rules perpetual mate
    threats and the mixed cycles), the move rule, insufficient material); a game longer
    than max_plies plies is a draw by adjudication.
    """
    return ruling_now(pos, max_plies, check_rules(rules))


#: Each rule set's name as the core's own constant (interned): checked once, when an
#: Adjudication is made, and handed to Position.outcome as it is on every ply.
_RULE_NAMES = {member: sys.intern(str(member.value)) for member in Rules}


def ruling_now(pos: Position, max_plies: int | None, rules: Rules) -> GameOver | None:
    """adjudicate() for a rules already checked (the runner's, on every ply)."""
    outcome = pos.outcome(rules=_RULE_NAMES[rules])
    if outcome is not None:
        reason = outcome.termination_tag()
        if outcome.winner is not None:
            loser = "Black" if outcome.winner == Color.RED else "Red"
            reason = f"{reason}: {loser} loses"
        return GameOver(outcome.result(), outcome.termination_tag(), reason)
    if max_plies is not None and len(pos.move_stack) >= max_plies:
        return GameOver("1/2-1/2", "adjudication", f"draw: the {max_plies}-ply cap was reached")
    return None


def loss_for(side: Color) -> str:
    return "0-1" if side == Color.RED else "1-0"


SIDE_NAME = {Color.RED: "Red", Color.BLACK: "Black"}
#: Centipawns that stand for a mate score in the adjudication rules.
_MATE_CP = 100_000


def score_cp(score: PovScore | None, side: Color) -> int | None:
    if score is None:
        return None
    own = score.pov(side)
    mate = own.mate()
    if mate is not None:
        return _MATE_CP if mate > 0 else -_MATE_CP
    return own.score()


def score_comment(score: PovScore | None, side: Color, depth: object, seconds: float) -> str:
    """cutechess's move comment: score in pawns from the mover's side, depth, time."""
    text = "?"
    if score is not None:
        own = score.pov(side)
        mate = own.mate()
        if mate is not None:
            text = f"+M{mate}" if mate > 0 else f"-M{-mate}"
        else:
            text = f"{(own.score() or 0) / 100:+.2f}"
    if isinstance(depth, int):
        text += f"/{depth}"
    return f"{text} {seconds:.2f}s"


def by_score(
    rules: Adjudication, scores: list[int | None], mover: Color, plies: int
) -> GameOver | None:
    """A draw or resignation by the engines' scores (mover's view, one per engine move),
    after mover's move; plies counts the game's moves so far (book moves included)."""
    if rules.resign_count and len(scores) >= 2 * rules.resign_count - 1:
        own = scores[-1::-2][: rules.resign_count]
        other = scores[-2::-2][: rules.resign_count]
        if len(own) == rules.resign_count and all(
            s is not None and s <= -rules.resign_score for s in own
        ):
            agreed = len(other) == rules.resign_count and all(
                s is not None and s >= rules.resign_score for s in other
            )
            if not rules.resign_two_sided or agreed:
                return GameOver(
                    loss_for(mover),
                    "adjudication",
                    f"{SIDE_NAME[mover]} resigns: score <= -{rules.resign_score} cp for "
                    f"{rules.resign_count} moves",
                )
    if rules.draw_count and (plies + 1) // 2 >= rules.draw_move:
        last = scores[-2 * rules.draw_count :]
        if len(last) == 2 * rules.draw_count and all(
            s is not None and abs(s) <= rules.draw_score for s in last
        ):
            return GameOver(
                "1/2-1/2",
                "adjudication",
                f"draw: both scores within {rules.draw_score} cp for {rules.draw_count} moves",
            )
    return None
