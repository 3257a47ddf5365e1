"""Starting an engine process: the command line, cwd and env checks, the deadlines a polite
request (quit, stop) gets before a kill, and the start itself with the handshake.

Private: shared by the asyncio protocols (uci, ucci) and the synchronous wrapper (simple).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._checks import check_bool
from .values import DEFAULT_TIMEOUT, QUOTE, Command, EngineError, check_seconds

if TYPE_CHECKING:
    from .protocol import EngineProtocol

#: Seconds to wait for the exit status after SIGKILL.
KILL_WAIT = 5.0


def grace_period(timeout: float | None) -> float:
    """How long a polite request (quit, stop) is given before the engine is killed."""
    return DEFAULT_TIMEOUT if timeout is None else timeout


def check_timeout(timeout: object, what: str = "timeout") -> None:
    """timeout is None (no deadline) or a finite number of seconds above 0."""
    if timeout is not None:
        check_seconds(what, timeout)


def command_argv(command: object) -> list[str]:
    if isinstance(command, str):
        return [command]
    if isinstance(command, Sequence) and command and all(isinstance(a, str) for a in command):
        return list(command)
    raise TypeError(f"engine command must be a str or a list of str, got {command!r:.100}")


def check_env(cwd: object, env: object) -> dict[str, str] | None:
    if cwd is not None and not isinstance(cwd, (str, os.PathLike)):
        raise TypeError(f"cwd must be a path or None, got {type(cwd).__name__}")
    if env is None:
        return None
    if not isinstance(env, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise TypeError("env must be a mapping of str to str, or None")
    return dict(env)


def check_start(
    command: object, cwd: object, env: object, setpgrp: object, timeout: object = None
) -> tuple[list[str], dict[str, str] | None]:
    """Check what starting an engine takes, before anything starts (TypeError or ValueError
    naming the argument): the timeout, the command line, cwd and env, setpgrp. Returns the
    argv list and the environment (None: this process's)."""
    check_timeout(timeout)
    argv = command_argv(command)
    environment = check_env(cwd, env)
    check_bool("setpgrp", setpgrp)
    return argv, environment


async def popen(
    factory: Callable[[], EngineProtocol],
    command: Command,
    cwd: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
    created: Callable[[EngineProtocol], None] | None = None,
    setpgrp: bool = False,
) -> tuple[asyncio.SubprocessTransport, EngineProtocol]:
    argv, environment = check_start(command, cwd, env, setpgrp)
    group: dict[str, Any] = {}
    if setpgrp and sys.platform == "win32":
        group["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
    elif setpgrp:
        group["start_new_session"] = True  # its own session and group: no terminal signals

    def make() -> EngineProtocol:
        protocol = factory()
        if created is not None:
            created(protocol)  # the caller can reap it even if this coroutine is cancelled
        return protocol

    loop = asyncio.get_running_loop()
    try:
        transport, protocol = await loop.subprocess_exec(
            make,
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=environment,
            **group,
        )
    except FileNotFoundError:
        if cwd is not None and not os.path.isdir(cwd):
            raise EngineError(
                f"engine working directory not found: {str(cwd)!r:.{QUOTE}}"
            ) from None
        raise EngineError(f"engine not found: {argv[0]!r:.{QUOTE}}") from None
    except PermissionError:
        raise EngineError(f"engine is not executable: {argv[0]!r:.{QUOTE}}") from None
    except OSError as exc:
        raise EngineError(f"cannot start engine {argv[0]!r:.{QUOTE}}: {exc}") from None
    try:
        await protocol.initialize()
    except asyncio.CancelledError:
        await protocol._abort()  # interrupted: no polite quit, no waiting
        raise
    except BaseException:
        await protocol.quit()
        raise
    return transport, protocol
