"""A match on a Ray cluster: each round (game pair) a Ray task on the cluster's workers.

The driver (this process) submits rounds in round order, keeps a window of them in flight
(about twice the games the cluster can play at once), and counts each pair as its task
returns (``ray.wait``), through the same Runner as a local match: Elo, pentanomial counts
and the SPRT update as pairs arrive, the PGN is written in game order, the results file is a
local match's plus, in each game record, where its pair ran (``node``, ``host``) and its
``attempt``, and under "ray" the rounds that were played again. Once the SPRT decides (or on
Ctrl-C) the outstanding tasks are cancelled and their pairs not counted.

A task starts its engines on its worker (commands, options and ``dir=`` resolved there) and
keeps them in the worker process for the next round, as a local worker thread does; it plays
its pair with the local runner's :func:`~xiangqi.match.runner.play_numbered`, so an engine
that crashes on a worker loses its game there as it would locally. A worker process or a node
lost mid-round (WorkerCrashedError, NodeDiedError, ...) gets its round played again from the
start, elsewhere when the node is gone, up to ``ray_retries`` times: a pair is counted once,
from the one attempt that returned. Any other error of a task (an engine that cannot start)
stops the match and is raised, as locally.

Each task asks for one CPU (or, when the engines are given ``option.Threads=N``, N), so a
node plays as many games at once as it has CPUs; with ``ray_resource=NAME`` it asks for one
unit of the custom resource NAME instead (``ray start --resources='{"NAME": 4}'``).

Ray is imported only when a match runs on it (``pip install 'xiangqi-rules[ray]'``).
"""

from __future__ import annotations

import atexit
import collections
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..engine import SimpleEngine
from ..errors import XiangqiError
from .runner import (
    GameSetup,
    MatchResult,
    Runner,
    close_engine,
    engine_names,
    open_pair,
    play_numbered,
)

if TYPE_CHECKING:
    from .adjudication import GameOver
    from .openings import Opening
    from .spec import EngineSpec

#: What to tell a user whose Python has no Ray.
INSTALL_HINT = "pip install 'xiangqi-rules[ray]'"

#: Seconds the driver waits for cancelled tasks to stop (they kill their engines) before it
#: disconnects.
CANCEL_WAIT = 5.0

#: Ray's errors that say a task's worker process or node was lost, not that the task failed.
_LOST = (
    "WorkerCrashedError",
    "NodeDiedError",
    "LocalRayletDiedError",
    "ObjectLostError",
    "OwnerDiedError",
    "ObjectFetchTimedOutError",
    "OutOfMemoryError",
)


def import_ray() -> Any:
    """The ray module; XiangqiError saying how to install it when it is missing."""
    try:
        import ray
    except ImportError as exc:
        raise XiangqiError(
            f"--ray needs Ray, which is not installed here ({exc}): {INSTALL_HINT}"
        ) from None
    return ray


# -- in a Ray worker process -------------------------------------------------------------------

#: The engines a worker process keeps between rounds: (specs, the engine pair), or empty.
_KEPT: dict[str, Any] = {}


def _close_kept() -> None:
    specs_pair = _KEPT.pop("pair", None)
    if specs_pair is not None:
        for engine in specs_pair[1]:
            if engine is not None:
                close_engine(engine)


def _kill(engines: Sequence[SimpleEngine | None]) -> None:
    """Kill engines that may be in a search (a cancelled round), then reap them."""
    for engine in engines:
        if engine is None:
            continue
        if engine.pid is not None and engine.returncode is None:
            try:
                os.kill(engine.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        close_engine(engine)


def play_round(setup: GameSetup, games: Sequence[tuple[int, Opening]]) -> dict[str, Any]:
    """Play games (numbers from 0, each with its round's opening) with this worker's
    engines, started here if it has none for setup.specs; the body of a round's Ray task.

    Returns the PGN text and GameOver of each game, the names, and where it ran: Ray's node
    id, the host name, the worker's and the engines' process ids.
    """
    import ray

    specs: tuple[EngineSpec, EngineSpec] = setup.specs
    kept = _KEPT.pop("pair", None)
    pair: list[SimpleEngine | None] = [None, None]
    if kept is not None and kept[0] == specs:
        pair = kept[1]
    elif kept is not None:
        _KEPT["pair"] = kept
        _close_kept()
    if not _KEPT.get("atexit"):
        atexit.register(_close_kept)
        _KEPT["atexit"] = True
    played = []
    try:
        open_pair(specs, pair)
        names = engine_names(specs, pair)
        engine_pids = [e.pid for e in pair if e is not None]
        for k, opening in games:
            game, over = play_numbered(setup, k, opening, pair, names)
            played.append((k, game.to_pgn(), over))
            open_pair(specs, pair)  # the one that failed, for the next game
    except BaseException:  # cancelled (KeyboardInterrupt) or failed: no engine is kept
        _kill(pair)
        raise
    _KEPT["pair"] = (specs, pair)
    return {
        "games": played,
        "names": names,
        "node": ray.get_runtime_context().get_node_id(),
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "engines": engine_pids,
    }


# -- the driver --------------------------------------------------------------------------------


def _termination_handlers() -> dict[int, Any]:
    """The SIGTERM and SIGHUP handlers set in Python (the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    found = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not None:
            found[number] = signal.getsignal(number)
    return found


def _threads(spec: EngineSpec) -> int:
    for name, value in spec.options:
        if name.lower() == "threads":
            try:
                return max(1, int(value))
            except ValueError:
                return 1
    return 1


#: Ray's word for a refused token, in an error's text (when Ray reports it inside a
#: RuntimeError's traceback text rather than as the exception): the reason, without the
#: advice Ray appends.
_AUTHENTICATION_TEXT = re.compile(
    r"AuthenticationError: (.+?)(?:\.? Note: RAY_AUTH_MODE|\.? Ensure that|$)", re.MULTILINE
)

#: The docs site's page on distributed matches, named in the errors (an installed package
#: has no docs/ folder).
DOCS = "https://xiangqi-rules.readthedocs.io/en/latest/distributed.html"

#: What a driver needs to join a cluster with token authentication (Ray's own names:
#: ray/_private/authentication and ray.exceptions.AuthenticationError).
AUTHENTICATION_HINT = (
    "the cluster uses Ray's token authentication: run the match with RAY_AUTH_MODE=token "
    "and the cluster's token (`ray get-auth-token` on the head prints it) in RAY_AUTH_TOKEN, "
    f"in a file named by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token (see {DOCS})"
)


def _authentication_error(ray: Any) -> tuple[type[BaseException], ...]:
    found = getattr(getattr(ray, "exceptions", None), "AuthenticationError", None)
    return (found,) if isinstance(found, type) and issubclass(found, BaseException) else ()


def authentication_reason(exc: BaseException) -> str | None:
    """Ray's reason when exc (or an error it was raised from) says the cluster refused this
    driver's authentication token, else None."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__name__ == "AuthenticationError":  # ray.exceptions'
            message = getattr(current, "message", None)
            return str(message if isinstance(message, str) else current.args[0]).rstrip(".")
        found = _AUTHENTICATION_TEXT.search(str(current))
        if found is not None:
            return found.group(1).strip().rstrip(".")
        current = current.__cause__ or current.__context__
    return None


def connection_error(address: str | None, exc: BaseException) -> XiangqiError:
    """The error to raise when ray.init(address) failed with exc: an authentication
    failure, with Ray's reason and what to set, or no cluster there."""
    reason = authentication_reason(exc)
    if reason is not None:
        return XiangqiError(
            f"the Ray cluster at {address!r} refused this driver: authentication failed "
            f"(Ray: {reason}); {AUTHENTICATION_HINT}"
        )
    return XiangqiError(
        f"no Ray cluster at {address!r} ({exc}); start one with `ray start --head` (see {DOCS})"
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def run_on_ray(runner: Runner, results_out: TextIO | None, extra: Mapping[str, Any]) -> MatchResult:
    """Play runner's match on the Ray cluster at plan.ray (see the module's docstring), as
    run_local plays it here. A process already connected to Ray (ray.init) plays on that
    connection and stays connected."""
    plan = runner.plan
    ray = import_ray()
    lost = tuple(getattr(ray.exceptions, name) for name in _LOST if hasattr(ray.exceptions, name))
    connected = ray.is_initialized()
    failures: tuple[type[BaseException], ...] = (
        ConnectionError,
        ValueError,
        RuntimeError,
        *_authentication_error(ray),
    )
    if not connected:
        handlers = _termination_handlers()
        try:
            ray.init(
                address=plan.ray,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except failures as exc:
            raise connection_error(plan.ray, exc) from None
        finally:  # ray.init's SIGTERM handler exits at once: the caller's writes the results
            for number, handler in handlers.items():
                signal.signal(number, handler)
    retried: list[dict[str, Any]] = []
    nodes: dict[str, str] = {}
    pending: dict[Any, tuple[int, list[int], int]] = {}  # ref -> (round, games, attempt)
    try:
        if plan.ray_resource is not None:
            per_task = {"num_cpus": 0, "resources": {plan.ray_resource: 1}}
            unit, need = plan.ray_resource, 1.0
        else:
            need = float(max(_threads(spec) for spec in plan.specs))
            per_task = {"num_cpus": need}
            unit = "CPU"
        task = ray.remote(play_round).options(max_retries=0, **per_task)
        setup_ref = ray.put(runner.setup)
        queue: collections.deque[tuple[int, list[int], int]] = collections.deque()
        for r in range((plan.total + 1) // 2):
            games = [k for k in (2 * r, 2 * r + 1) if k < plan.total and k not in runner.skip]
            if games:
                queue.append((r, games, 1))

        def submit(r: int, games: list[int], attempt: int) -> None:
            opening = plan.openings.opening(r)
            ref = task.remote(setup_ref, [(k, opening) for k in games])
            pending[ref] = (r, games, attempt)

        window_at = 0.0
        window = 2
        while (queue or pending) and not runner.stop.is_set():
            if time.monotonic() - window_at > 1.0:  # nodes come and go
                slots = int(ray.cluster_resources().get(unit, 0.0) // need)
                window, window_at = max(2, 2 * slots), time.monotonic()
            while queue and len(pending) < window:
                submit(*queue.popleft())
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in ready:
                r, games, attempt = pending.pop(ref)
                try:
                    out = ray.get(ref)
                except lost as exc:
                    retried.append({"round": r + 1, "attempt": attempt, "error": _first_line(exc)})
                    if attempt > plan.ray_retries:
                        raise XiangqiError(
                            f"round {r + 1} was lost {attempt} times on the Ray cluster "
                            f"(the last: {_first_line(exc)}); the finished pairs are written, "
                            "--resume continues the match"
                        ) from None
                    queue.appendleft((r, games, attempt + 1))
                    continue
                except ray.exceptions.RayTaskError as exc:  # the task's own error
                    cause = getattr(exc, "cause", None)
                    raise (cause if isinstance(cause, BaseException) else exc) from None
                _count(runner, out, attempt, nodes)
                if runner.stop.is_set():
                    break
    except BaseException:  # Ctrl-C, a round lost too often, a task's error: --resume goes on
        runner.result.stopped = "interrupted"
        runner.stop.set()
        raise
    finally:
        try:
            _cancel(ray, list(pending))
            placed = {
                "address": plan.ray,
                "max_retries": plan.ray_retries,
                "resource": plan.ray_resource,
                "nodes": [{"node": node, "host": host} for node, host in sorted(nodes.items())],
                "retried": retried,
            }
            result = runner.finish(results_out, {**extra, "ray": placed})
        finally:
            if not connected:
                ray.shutdown()
    return result


def _count(runner: Runner, out: Mapping[str, Any], attempt: int, nodes: dict[str, str]) -> None:
    """Count a returned round's games (together: the SPRT decides between pairs)."""
    with runner.lock:
        if not runner.named:
            runner.result.names = (str(out["names"][0]), str(out["names"][1]))
            runner.named = True
    nodes[out["node"]] = out["host"]
    where = {"node": out["node"], "host": out["host"], "attempt": attempt}
    batch: list[tuple[int, str, GameOver, bool, Mapping[str, Any]]] = [
        (k, text, over, k % 2 == 0, where) for k, text, over in out["games"]
    ]
    runner.record_games(batch)


def _cancel(ray: Any, refs: list[Any]) -> None:
    """Cancel outstanding rounds (a running one gets KeyboardInterrupt and kills its
    engines) and give them CANCEL_WAIT seconds to stop."""
    for ref in refs:
        try:
            ray.cancel(ref)
        except Exception:  # already finished or lost: nothing to stop
            pass
    if refs:
        try:
            ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT)
        except Exception:
            pass
