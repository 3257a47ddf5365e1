"""Match statistics (xiangqi.match.stats) against values computed independently.

Sources of the expected values:

- The GSPRT's LLR is by definition ``max log L(p | mean or t-value = H1) - max log L(p | ... =
  H0)`` over distributions p of the categories (fishtest, server/fishtest/stats/LLRcalc.py:
  LLR_logistic with statistic "expectation", LLR_normalized with statistic "t_value"; empty
  categories count as 0.001). The LLR vectors below were computed by maximizing those two
  constrained likelihoods directly with scipy.optimize.minimize (SLSQP), not by the secular
  equation the module solves; test_llr_matches_a_direct_maximization repeats that computation
  when scipy is installed. The first vector is fishtest's own example in stat_util.py
  (pentanomial [10789, 19328, 33806, 19402, 10543], elo0 = -3, elo1 = 1); the second is the
  pentanomial of fishtest's SPRT_elo examples.
- Elo, its interval and LOS follow fishtest's stat_util.get_elo, re-derived in
  fishtest_get_elo() below from the published formula, and hand-checked points
  (a score of 3/4 is 400 log10(3) Elo).
- The error rates of the SPRT are measured by simulating matches at the hypotheses' Elo.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest

from xiangqi.errors import XiangqiError
from xiangqi.match.stats import NELO_PER_T, SPRT, Tally, elo_from_score, llr, los, score_from_elo

# (counts, elo0, elo1, LLR logistic, LLR normalized), from SLSQP (see the module docstring).
LLR_VECTORS = [
    ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.1310678118024953, 0.30083503702189773),
    ([39, 2226, 31451, 2412, 40], 0.2, 0.9, 2.1625425800048106, 1.2165967462751723),
    ([5, 20, 40, 30, 10], 0, 10, 0.9355891529231712, 0.7076475382275191),
    ([30, 40, 50], 0, 20, 1.4333717997704127, 1.2119241220657102),
    ([0, 3, 10, 12, 4], 0, 50, 3.825683620414722, 2.7093835565479267),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "logistic", "normalized"), LLR_VECTORS)
def test_llr_vectors(
    counts: list[int], elo0: float, elo1: float, logistic: float, normalized: float
) -> None:
    assert llr(counts, elo0, elo1, "logistic") == pytest.approx(logistic, rel=1e-6)
    # SLSQP's tolerance on the t-value constraint limits the largest sample to 1e-4.
    assert llr(counts, elo0, elo1, "normalized") == pytest.approx(normalized, rel=2e-4)


def _slsqp_llr(counts: list[int], h0: float, h1: float, model: str) -> float:
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")
    c = np.array([x if x > 0 else 1e-3 for x in counts], float)
    a = np.linspace(0, 1, len(c))

    def constraint(p, h):  # type: ignore[no-untyped-def]
        mean = (p * a).sum()
        if model == "logistic":
            return mean - h
        return (mean - 0.5) - h * math.sqrt((p * (a - mean) ** 2).sum())

    def best(h: float) -> float:
        r = optimize.minimize(
            lambda p: -(c * np.log(np.maximum(p, 1e-300))).sum(),
            c / c.sum(),
            constraints=[
                {"type": "eq", "fun": lambda p: p.sum() - 1},
                {"type": "eq", "fun": lambda p: constraint(p, h)},
            ],
            bounds=[(1e-12, 1)] * len(c),
            method="SLSQP",
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        return float(-r.fun)

    if model == "logistic":
        return best(score_from_elo(h1)) - best(score_from_elo(h0))
    scale = math.sqrt(2) if len(counts) == 5 else 1
    return best(h1 / NELO_PER_T * scale) - best(h0 / NELO_PER_T * scale)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_llr_matches_a_direct_maximization(model: str) -> None:
    for counts, elo0, elo1, *_ in LLR_VECTORS[2:]:
        expected = _slsqp_llr(counts, elo0, elo1, model)
        assert llr(counts, elo0, elo1, model) == pytest.approx(expected, rel=1e-6)


def fishtest_get_elo(results: list[int]) -> tuple[float, float, float]:
    """fishtest's stat_util.get_elo as published: (elo, elo95 half width, los)."""
    results = [r if r else 1e-3 for r in results]
    n = len(results)
    pairs = sum(results)
    games = pairs * (n - 1) / 2
    mu = sum(r * (i / 2) for i, r in enumerate(results)) / games
    mu_ = (n - 1) / 2 * mu
    var = sum(r * (i / 2 - mu_) ** 2 for i, r in enumerate(results)) / games
    stdev = math.sqrt(var)
    z = NormalDist().inv_cdf(0.975)

    def elo(x: float) -> float:
        x = min(max(x, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / x - 1)

    lo, hi = mu - z * stdev / math.sqrt(games), mu + z * stdev / math.sqrt(games)
    return elo(mu), (elo(hi) - elo(lo)) / 2, NormalDist().cdf((mu - 0.5) / (stdev / games**0.5))


@pytest.mark.parametrize(
    "counts", [[1, 60, 500, 1200, 600], [10, 20, 30], [5, 20, 40, 30, 10], [0, 0, 3, 4, 2]]
)
def test_elo_interval_and_los_as_fishtest(counts: list[int]) -> None:
    elo, half, likelihood = fishtest_get_elo(counts)
    tally = Tally()
    if len(counts) == 5:
        tally.pentanomial = list(counts)
    else:
        tally.losses, tally.draws, tally.wins = counts
    est = tally.estimate()
    assert est is not None
    assert est.elo == pytest.approx(elo, rel=1e-9)
    assert est.elo_error == pytest.approx(half, rel=1e-9)
    assert est.los == pytest.approx(likelihood, rel=1e-9)
    assert los(counts) == pytest.approx(likelihood, rel=1e-9)
    assert est.elo_low < est.elo < est.elo_high


def test_elo_points_by_hand() -> None:
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.5) == 0
    assert score_from_elo(400 * math.log10(3)) == pytest.approx(0.75)
    # Even W/L: score 1/2, Elo 0, LOS 1/2; normalized Elo 0.
    tally = Tally(wins=10, draws=5, losses=10, pentanomial=[2, 3, 5, 3, 2])
    est = tally.estimate()
    assert est is not None and est.elo == pytest.approx(0) and est.los == pytest.approx(0.5)
    assert est.nelo == pytest.approx(0)
    # Normalized Elo of the trinomial [L, D, W] = [1, 2, 1] + 1 win: mean 0.6, a game's
    # sigma = sqrt(0.6 * 0.16 + ...) worked out: scores 0, .5, .5, 1, 1 -> var 0.14.
    est = Tally(wins=2, draws=2, losses=1).estimate()
    assert est is not None
    assert est.nelo == pytest.approx(0.1 / math.sqrt(0.14) * 800 / math.log(10))


def test_tally_counts_pairs() -> None:
    tally = Tally()
    for points in (1, 0.5, 0, 0):
        tally.add_game(points)
    tally.add_pair(1.5)
    tally.add_pair(0)
    assert (tally.wins, tally.draws, tally.losses) == (1, 1, 2)
    assert tally.pentanomial == [1, 0, 0, 1, 0] and tally.counts() == [1, 0, 0, 1, 0]
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        tally.add_game(0.25)
    with pytest.raises(ValueError, match="pair is worth"):
        tally.add_pair(2.5)


def test_sprt_bounds_and_parse() -> None:
    sprt = SPRT.parse("elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic")
    assert sprt == SPRT(0, 5, 0.05, 0.1, "logistic")
    assert sprt.lower_bound == pytest.approx(math.log(0.1 / 0.95))
    assert sprt.upper_bound == pytest.approx(math.log(0.9 / 0.05))
    assert sprt.state(3.0) == "H1" and sprt.state(-2.3) == "H0" and sprt.state(0.1) == ""
    assert SPRT.parse("elo1=10") == SPRT(elo1=10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("elo0=5 elo1=0", "elo0 < elo1"),
        ("elo0=x", "must be a number"),
        ("alpha=0.7", "alpha must be in"),
        ("gamma=1", "SPRT settings are"),
        ("model=bayes", "model must be"),
        ("elo0='0", "No closing quotation"),
        ("elo1=nan", "finite"),
    ],
)
def test_sprt_parse_rejects(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SPRT.parse(text)


def _penta_probs(elo: float, draw: float = 0.3) -> list[float]:
    score = score_from_elo(elo)
    win = score - draw / 2
    game = [1 - draw - win, draw, win]
    probs = [0.0] * 5
    for i in range(3):
        for j in range(3):
            probs[i + j] += game[i] * game[j]
    return probs


def _decisions(sprt: SPRT, elo: float, matches: int, seed: int) -> dict[str, int]:
    """Run matches to the SPRT's decision with pairs drawn at elo; count the decisions."""
    rng = random.Random(seed)
    probs = _penta_probs(elo)
    out = {"H0": 0, "H1": 0}
    for _ in range(matches):
        counts = [0] * 5
        while True:
            counts[rng.choices(range(5), probs)[0]] += 1
            state = sprt.state(sprt.llr(counts))
            if state:
                out[state] += 1
                break
    return out


def _nelo(elo: float, draw: float = 0.3) -> float:
    score = score_from_elo(elo)
    win = score - draw / 2
    loss = 1 - draw - win
    var = win * (1 - score) ** 2 + draw * (0.5 - score) ** 2 + loss * score**2
    return (score - 0.5) / math.sqrt(var) * NELO_PER_T


# A GSPRT's error rates are at most about alpha and beta (the overshoot past a bound makes
# them a little smaller). Over 1,000 matches the binomial standard deviation at 0.1 is 0.0095;
# the seeds make the counts fixed, and the band (alpha/4, alpha + 0.03) leaves room for any
# correct implementation detail (bisection tolerance, summation order).
@pytest.mark.slow
def test_sprt_error_rates_by_simulation_logistic() -> None:
    sprt = SPRT(0, 100, alpha=0.1, beta=0.1, model="logistic")
    at_h0 = _decisions(sprt, 0, 1000, seed=1)
    at_h1 = _decisions(sprt, 100, 1000, seed=2)
    alpha_seen = at_h0["H1"] / 1000
    beta_seen = at_h1["H0"] / 1000
    assert 0.025 < alpha_seen < 0.13, at_h0
    assert 0.025 < beta_seen < 0.13, at_h1


@pytest.mark.slow
def test_sprt_error_rates_by_simulation_normalized() -> None:
    sprt = SPRT(0, _nelo(100), alpha=0.1, beta=0.1, model="normalized")
    at_h0 = _decisions(sprt, 0, 1000, seed=3)
    at_h1 = _decisions(sprt, 100, 1000, seed=4)
    assert 0.025 < at_h0["H1"] / 1000 < 0.13, at_h0
    assert 0.025 < at_h1["H0"] / 1000 < 0.13, at_h1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"elo0": 0, "elo1": 5000},  # normalized: no law on 0..1 has that t-value
        {"elo0": -1e6, "elo1": 5, "model": "logistic"},  # 10 ** 2500 overflows
        {"elo0": 0, "elo1": 400},
    ],
)
def test_sprt_refuses_bounds_it_cannot_compute(kwargs: dict[str, object]) -> None:
    with pytest.raises(XiangqiError, match="cannot be computed"):
        SPRT(**kwargs)  # type: ignore[arg-type]


def test_sprt_takes_wide_bounds_it_can_compute() -> None:
    # The logistic model still fits 5000 Elo (an expected score of 1 - 3e-13).
    sprt = SPRT(elo0=0, elo1=5000, model="logistic")
    assert math.isfinite(sprt.llr([3, 10, 40, 10, 3]))
    assert math.isfinite(SPRT(elo0=-200, elo1=200).llr([3, 10, 40, 10, 3]))
