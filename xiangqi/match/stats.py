"""Match statistics as engine testers compute them: Elo, LOS and a pentanomial GSPRT.

Standard library only. The formulas are fishtest's (official-stockfish/fishtest,
``server/fishtest/stats/``), after Michel Van den Bergh's notes: "support_MLE_multinomial",
"normalized_elo_practical" (https://www.cantate.be/Fishtest/). This module is its own code.

Results are counted from the first engine's side. A game is a loss, draw or win (0, 1/2, 1
point). A *pair* is two games from the same opening with colours reversed; its points
0, 1/2, 1, 3/2, 2 give the *pentanomial* counts ``[LL, LD, LW+DD, DW, WW]`` (index = points
times 2). Pairs are what fishtest counts: the two games of a pair are correlated through
their opening, and counting them as a pair measures the variance honestly.

Elo (logistic)
    ``elo(s) = -400 log10(1/s - 1)`` of the mean score per game s. The 95 % interval maps the
    interval ``s +- 1.96 sigma / sqrt(games)`` through the same function.
Normalized Elo
    ``nElo = (s - 1/2) / sigma * 800 / ln 10`` with sigma the standard deviation of one game's
    score (for pentanomial counts: ``sqrt(2)`` times that of a pair's mean score). It does not
    depend on the draw rate, so bounds in nElo mean the same at every time control.
LOS
    ``Phi((s - 1/2) / (sigma / sqrt(games)))``, the likelihood that the first engine is the
    stronger.
GSPRT
    The generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0): for each
    hypothesis the maximum-likelihood distribution of the observed categories under the
    constraint (mean score, or t-value ``(s - 1/2)/sigma`` for normalized Elo), and
    ``LLR = N * sum(p_i * log(p1_i / p0_i))`` over the N pairs (or games). The test accepts H1
    when ``LLR >= log((1 - beta) / alpha)`` and H0 when ``LLR <= log(beta / (1 - alpha))``.
    Empty categories count as 0.001 (fishtest's regularization).
"""

from __future__ import annotations

import dataclasses
import math
import shlex
from collections.abc import Sequence

from .._checks import check_real
from ..errors import XiangqiError

__all__ = [
    "NELO_PER_T",
    "SPRT",
    "Estimate",
    "Tally",
    "elo_from_score",
    "llr",
    "los",
    "score_from_elo",
]

#: nElo per unit of t-value (s - 1/2) / sigma: 800 / ln(10).
NELO_PER_T = 800 / math.log(10)
#: What an empty category counts as (fishtest's regularization).
_EPSILON = 1e-3
#: The 97.5 % quantile of the standard normal law.
_Z975 = 1.959963984540054


def score_from_elo(elo: float) -> float:
    """The expected score per game of a player elo (logistic) Elo points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of a mean score per game (clamped to 0.001..0.999, +-1200)."""
    score = min(max(score, _EPSILON), 1 - _EPSILON)
    return -400 * math.log10(1 / score - 1)


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _check_counts(counts: Sequence[int | float]) -> list[float]:
    if len(counts) not in (3, 5):
        raise XiangqiError(f"expected 3 (L, D, W) or 5 (pentanomial) counts, got {counts!r}")
    for count in counts:
        check_real("each count", count, 0)
    return [float(c) if c > 0 else _EPSILON for c in counts]


def _pdf(counts: Sequence[int | float]) -> tuple[float, list[tuple[float, float]]]:
    """(N, [(score, probability)]) with scores 0..1 in equal steps; empty counts regularized."""
    regular = _check_counts(counts)
    total = sum(regular)
    last = len(regular) - 1
    return total, [(i / last, c / total) for i, c in enumerate(regular)]


def _moments(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The x with sum(p_i a_i / (1 + x a_i)) = 0, where the a_i take both signs.

    The sum falls strictly in x on the interval where every 1 + x a_i > 0, from +inf to -inf,
    so bisection finds its one root.
    """
    low_a = min(a for a, _ in pdf)
    high_a = max(a for a, _ in pdf)
    if not low_a < 0 < high_a:
        raise XiangqiError("the hypothesis lies outside the range of the observed scores")
    low, high = -1 / high_a, -1 / low_a
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        total = sum(p * a / (1 + mid * a) for a, p in pdf)
        if total > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _mle_mean(pdf: Sequence[tuple[float, float]], mean: float) -> list[float]:
    """Maximum-likelihood probabilities of the categories given that the mean score is mean."""
    x = _secular([(a - mean, p) for a, p in pdf])
    return [p / (1 + x * (a - mean)) for a, p in pdf]


def _mle_t(pdf: Sequence[tuple[float, float]], t: float) -> list[float]:
    """Maximum-likelihood probabilities given that (mean - 1/2) / sigma is t.

    The fixed-point iteration of "normalized_elo_practical", section 4.1: start from the
    uniform distribution and solve a secular equation whose values depend on the current
    mean and sigma, until the probabilities settle.
    """
    probs = [1 / len(pdf)] * len(pdf)
    for _ in range(100):
        mean, var = _moments([(a, q) for (a, _), q in zip(pdf, probs)])
        sigma = math.sqrt(var)
        shifted = [(a - 0.5 - t * sigma * (1 + ((mean - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _secular(shifted)
        new = [p / (1 + x * b) for (b, p) in shifted]
        settled = max(abs(u - v) for u, v in zip(new, probs)) < 1e-12
        probs = new
        if settled:
            break
    return probs


def llr(
    counts: Sequence[int | float], elo0: float, elo1: float, model: str = "normalized"
) -> float:
    """The GSPRT's log-likelihood ratio of Elo elo1 against elo0 for the counts.

    counts: ``[L, D, W]`` or pentanomial ``[LL, LD, LW+DD, DW, WW]``. model: "normalized"
    (elo0/elo1 in nElo; fishtest's default) or "logistic" (Elo as ``score_from_elo``).
    """
    total, pdf = _pdf(counts)
    if model == "logistic":
        p0 = _mle_mean(pdf, score_from_elo(elo0))
        p1 = _mle_mean(pdf, score_from_elo(elo1))
    elif model == "normalized":
        # A pair's mean score has 1/sqrt(2) of a game's sigma: its t-value is sqrt(2) times.
        scale = math.sqrt(2) if len(counts) == 5 else 1.0
        p0 = _mle_t(pdf, elo0 / NELO_PER_T * scale)
        p1 = _mle_t(pdf, elo1 / NELO_PER_T * scale)
    else:
        raise XiangqiError(f"Elo model must be 'normalized' or 'logistic', got {model!r}")
    return total * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


def los(counts: Sequence[int | float]) -> float:
    """Likelihood of superiority of the first engine, 0..1, from L/D/W or pentanomial counts."""
    return _estimate(counts).los


@dataclasses.dataclass(frozen=True)
class Estimate:
    """Elo estimates with 95 % intervals (low, high) and the LOS, from one set of counts."""

    games: float  #: games the counts stand for (two per pair)
    score: float  #: mean score per game, 0..1
    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_low: float
    nelo_high: float
    los: float

    @property
    def elo_error(self) -> float:
        """Half the width of the 95 % Elo interval, as "Elo +- error" prints it."""
        return (self.elo_high - self.elo_low) / 2

    @property
    def nelo_error(self) -> float:
        """Half the width of the 95 % normalized Elo interval."""
        return (self.nelo_high - self.nelo_low) / 2


def _estimate(counts: Sequence[int | float]) -> Estimate:
    total, pdf = _pdf(counts)
    per = 2 if len(counts) == 5 else 1
    games = total * per
    mean, var = _moments(pdf)  # of a game's score, or of a pair's mean score
    sigma_game = math.sqrt(var * per)  # per game; a pair's mean has var / 2 of a game's
    se = sigma_game / math.sqrt(games)
    low, high = mean - _Z975 * se, mean + _Z975 * se
    nelo = (mean - 0.5) / sigma_game * NELO_PER_T
    nerr = _Z975 / math.sqrt(games) * NELO_PER_T
    return Estimate(
        games=games,
        score=mean,
        elo=elo_from_score(mean),
        elo_low=elo_from_score(low),
        elo_high=elo_from_score(high),
        nelo=nelo,
        nelo_low=nelo - nerr,
        nelo_high=nelo + nerr,
        los=_phi((mean - 0.5) / se),
    )


@dataclasses.dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test: H0 Elo = elo0 against H1 Elo = elo1.

    alpha: the chance to accept H1 when H0 holds; beta: to accept H0 when H1 holds. model:
    "normalized" (fishtest's and fastchess's default) or "logistic".
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            # kept as the plain float checked (a NumPy int would not go into the results)
            object.__setattr__(self, name, check_real(f"SPRT {name}", getattr(self, name)))
        if not self.elo0 < self.elo1:
            raise XiangqiError(f"SPRT needs elo0 < elo1, got {self.elo0!r} and {self.elo1!r}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise XiangqiError(f"SPRT {name} must be in (0, 0.5), got {getattr(self, name)!r}")
        if self.model not in ("normalized", "logistic"):
            raise XiangqiError(f"SPRT model must be 'normalized' or 'logistic', got {self.model!r}")
        # Bounds the model cannot compute fail here, not mid-match: the LLR of L/D/W and of
        # pentanomial counts. The maximum-likelihood fit starts from the uniform law whatever
        # the counts, so whether it converges depends on the bounds only (measured: the
        # normalized model fails beyond about 340 nElo for L/D/W and 231 for pairs).
        for counts in ((1, 1, 1), (1, 1, 1, 1, 1)):
            try:
                value = llr(counts, self.elo0, self.elo1, self.model)
            except (ArithmeticError, ValueError) as exc:
                why = (
                    "a score that far from 1/2 overflows"
                    if isinstance(exc, ArithmeticError)
                    else exc
                )
                raise XiangqiError(
                    f"SPRT bounds elo0={self.elo0:g} elo1={self.elo1:g} cannot be computed "
                    f"with the {self.model} model ({why}); choose bounds nearer 0"
                ) from None
            if not math.isfinite(value):
                raise XiangqiError(
                    f"SPRT bounds elo0={self.elo0:g} elo1={self.elo1:g} give no finite "
                    f"log-likelihood ratio with the {self.model} model; choose bounds nearer 0"
                )

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """Read "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" (any subset, any order)."""
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise XiangqiError(f"SPRT settings: {exc}: {text!r}") from None
        values: dict[str, object] = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise XiangqiError(
                    f"SPRT settings are elo0=, elo1=, alpha=, beta=, model=; got {word!r} "
                    f"in {text!r}"
                )
            if key == "model":
                values[key] = value
                continue
            try:
                values[key] = float(value)
            except ValueError:
                raise XiangqiError(f"SPRT {key} must be a number, got {value!r}") from None
        return cls(**values)  # type: ignore[arg-type]

    @property
    def lower_bound(self) -> float:
        """LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int | float]) -> float:
        """The log-likelihood ratio for L/D/W or pentanomial counts (0 when there are none)."""
        if not sum(counts):
            return 0.0
        return llr(counts, self.elo0, self.elo1, self.model)

    def state(self, value: float) -> str:
        """ "H1" (accepted: elo1 holds), "H0" (elo0 holds) or "" (go on) for an LLR value."""
        if value >= self.upper_bound:
            return "H1"
        if value <= self.lower_bound:
            return "H0"
        return ""

    def __str__(self) -> str:
        return (
            f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
            f"model={self.model}"
        )


@dataclasses.dataclass
class Tally:
    """Running counts from the first engine's side: W/D/L over games and pentanomial pairs."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Pairs by the first engine's points in them times 2: [LL, LD, LW+DD, DW, WW].
    pentanomial: list[int] = dataclasses.field(default_factory=lambda: [0] * 5)

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        """Complete pairs counted."""
        return sum(self.pentanomial)

    @property
    def score(self) -> float:
        """The first engine's points: 1 a win, 1/2 a draw."""
        return self.wins + self.draws / 2

    def add_game(self, points: float) -> None:
        """Count one game worth points (0, 0.5 or 1) to the first engine."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        elif points == 0.5:
            self.draws += 1
        else:
            raise XiangqiError(f"a game is worth 0, 0.5 or 1 points, got {points!r}")

    def add_pair(self, points: float) -> None:
        """Count one complete pair worth points (0, 0.5, ..., 2) to the first engine."""
        index = round(points * 2)
        if not 0 <= index <= 4 or index != points * 2:
            raise XiangqiError(f"a pair is worth 0, 0.5, ..., 2 points, got {points!r}")
        self.pentanomial[index] += 1

    def counts(self) -> list[int]:
        """The pentanomial counts once a pair is complete, else [L, D, W]."""
        if self.pairs:
            return list(self.pentanomial)
        return [self.losses, self.draws, self.wins]

    def estimate(self) -> Estimate | None:
        """Elo, nElo and LOS from the pairs (from the games until a pair is complete)."""
        if not self.games and not self.pairs:
            return None
        return _estimate(self.counts())
