"""Shared helpers for the pytest-benchmark files in benchmarks/.

Run them with ``python -m pytest benchmarks --benchmark-only``; the default
``python -m pytest`` collects only tests/. No benchmark asserts on time: the
tests assert correctness (perft counts, move counts, round trips) and record
rates in ``benchmark.extra_info``, which this file also prints as a short
"rates" table at the end of the run (pytest-benchmark's own table shows times only).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from typing import Any

import pytest

RecordRate = Callable[..., None]

_RATES = pytest.StashKey[list[tuple[str, str, float, float, float, str]]]()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """No workers for the -n auto of pyproject.toml's addopts: a benchmark times alone, in
    one process (pytest-benchmark switches itself off under pytest-xdist)."""
    return 0


def _load_average() -> str:
    try:
        return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "n/a"


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_RATES] = []


def pytest_report_header(config: pytest.Config) -> str:
    """Say which machine and load the figures come from (other work on it skews them)."""
    return (
        f"benchmarks: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cpus, load average {_load_average()}"
    )


@pytest.fixture
def record_rate(request: pytest.FixtureRequest) -> RecordRate:
    """Return record(benchmark, unit, ops, **extra), which stores rates in extra_info.

    ops is how many operations (nodes, calls, pairs) one timed call performs.
    extra_info gets "<unit>_per_call", "<unit>_per_second" (by the mean time),
    "<unit>_per_second_median" and "<unit>_per_second_best" (by the fastest round),
    plus any extra items. The median resists noise from other work on the machine.
    """

    def record(benchmark: Any, unit: str, ops: int, **extra: object) -> None:
        info = benchmark.extra_info
        info[f"{unit}_per_call"] = ops
        info.update(extra)
        meta = benchmark.stats
        if meta is None:  # --benchmark-disable: the function ran once, untimed
            return
        stats = meta.stats
        if stats.mean <= 0 or stats.median <= 0 or stats.min <= 0:
            return
        mean_rate, median_rate, best_rate = ops / stats.mean, ops / stats.median, ops / stats.min
        info[f"{unit}_per_second"] = round(mean_rate)
        info[f"{unit}_per_second_median"] = round(median_rate)
        info[f"{unit}_per_second_best"] = round(best_rate)
        name = request.node.nodeid.split("::", 1)[-1]
        shown = " ".join(f"{k}={v}" for k, v in extra.items() if isinstance(v, (int, float)))
        request.config.stash[_RATES].append((name, unit, mean_rate, median_rate, best_rate, shown))

    return record


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    rates = config.stash.get(_RATES, [])
    if not rates:
        return
    terminalreporter.section("rates (from benchmark.extra_info)")
    width = max(len(name) for name, *_ in rates)
    terminalreporter.write_line(
        f"{'benchmark':<{width}}  {'unit':<6} {'per s (mean)':>14} {'(median)':>14} {'(best)':>14}"
        "  notes"
    )
    for name, unit, mean_rate, median_rate, best_rate, shown in rates:
        terminalreporter.write_line(
            f"{name:<{width}}  {unit:<6} {mean_rate:>14,.0f} {median_rate:>14,.0f}"
            f" {best_rate:>14,.0f}  {shown}"
        )
    terminalreporter.write_line(f"load average at the end: {_load_average()}")
