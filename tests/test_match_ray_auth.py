"""`xiangqi match --ray HEAD:PORT` against a cluster with Ray's token authentication.

A driver without the cluster's token is refused by Ray (its GCS answers "Unauthenticated");
the match says so (authentication failed, Ray's reason, what to set) instead of "no Ray
cluster". The classification is tested on Ray's own exception type and on the error chain
ray.init raised here against a real token cluster (its text copied from that run); the
cluster test (marked ray: loopback-only network namespace) starts a real head with
``RAY_AUTH_MODE=token`` and a second node with the token, as docs/distributed.md shows,
and runs the command line against it without and with the token.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi
from xiangqi.match import distributed

REASON = "RPC error: InvalidAuthToken: Authentication token is missing or incorrect"

# What ray.init(address="127.0.0.1:6391") raised against a token cluster here (Ray 2.60):
# a ConnectionError from a RuntimeError whose text holds Ray's AuthenticationError.
RUNTIME_TEXT = (
    "Failed to connect to GCS. Last connection error: Traceback (most recent call last):\n"
    '  File "python/ray/includes/common.pxi", line 119, in ray._raylet.check_status\n'
    f"ray.exceptions.AuthenticationError: {REASON}. Note: RAY_AUTH_MODE is currently "
    "'disabled' (not 'token'). Ensure that the token for the cluster is available in a "
    "local file (e.g., ~/.ray/auth_token or via RAY_AUTH_TOKEN_PATH) or as the "
    "`RAY_AUTH_TOKEN` environment variable.\n"
)


def raised_by_init(cause: BaseException) -> ConnectionError:
    try:
        try:
            raise cause
        except BaseException as exc:
            raise ConnectionError("Failed to connect to Ray cluster at 127.0.0.1:6391") from exc
    except ConnectionError as outer:
        return outer


def check_authentication_message(text: str) -> None:
    assert "authentication failed" in text and "no Ray cluster" not in text, text
    assert "Authentication token is missing or incorrect" in text, text
    assert "RAY_AUTH_MODE=token" in text and "RAY_AUTH_TOKEN" in text, text


def test_rays_authentication_error_is_an_authentication_failure() -> None:
    # Ray's own type, as ensure_token_if_auth_enabled raises it from ray.init. Ray is
    # imported here, not at collection (half a second for every worker of the default run).
    ray = pytest.importorskip("ray")
    error = ray.exceptions.AuthenticationError(REASON)
    check_authentication_message(str(distributed.connection_error("h:1", error)))
    assert distributed.authentication_reason(error) == REASON


def test_an_authentication_error_inside_the_connection_error_is_found() -> None:
    error = raised_by_init(RuntimeError(RUNTIME_TEXT))
    text = str(distributed.connection_error("127.0.0.1:6391", error))
    check_authentication_message(text)
    assert distributed.authentication_reason(error) == REASON
    assert "'127.0.0.1:6391'" in text and "Note: RAY_AUTH_MODE" not in text


def test_no_cluster_is_still_no_cluster() -> None:
    error = raised_by_init(RuntimeError("Failed to connect to GCS within 60 seconds."))
    assert distributed.authentication_reason(error) is None
    assert "no Ray cluster at '127.0.0.1:6391'" in str(
        distributed.connection_error("127.0.0.1:6391", error)
    )


# -- a real cluster with token authentication ---------------------------------------------------

PORT = 6391


def _ray_env(home: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    src = str(Path(xiangqi.__file__).resolve().parents[1])
    return {**env, "HOME": str(home), "PYTHONPATH": src, **more}


def _stop(proc: subprocess.Popen[bytes], temp_dir: Path) -> None:
    """Stop a `ray start --block` this test started (it stops its node's processes), then
    kill by pid whatever of that node is left (found by the node's own temp dir)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if str(temp_dir).encode() in cmdline:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


@pytest.fixture
def token_cluster(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A head with RAY_AUTH_MODE=token and a second node joined with the token; yields the
    head's address and the token."""
    ray_cli = str(Path(sys.executable).with_name("ray"))
    admin = tmp_path / "admin"
    admin.mkdir()
    env = _ray_env(admin)
    subprocess.run([ray_cli, "get-auth-token", "--generate"], env=env, check=True,
                   capture_output=True, timeout=60)  # fmt: skip
    token = (admin / ".ray" / "auth_token").read_text().strip()
    temp_dir = Path(tempfile.mkdtemp(prefix="xq-ray-", dir="/tmp"))  # Ray's socket paths fit
    log = tmp_path / "head.log"
    address = f"127.0.0.1:{PORT}"
    common = ["--num-cpus", "1", "--block", "--disable-usage-stats", "--temp-dir", str(temp_dir)]
    with log.open("wb") as out:  # the child keeps its own descriptor
        head = subprocess.Popen(
            [ray_cli, "start", "--head", "--port", str(PORT), "--include-dashboard", "false",
             *common],
            env=_ray_env(admin, RAY_AUTH_MODE="token"),
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    second = None
    try:
        _wait_for_nodes(address, token, admin, 1, log)
        second = subprocess.Popen(
            [ray_cli, "start", "--address", address, *common],
            env=_ray_env(admin, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        _wait_for_nodes(address, token, admin, 2, log)
        yield address, token
    finally:
        if second is not None:
            _stop(second, temp_dir)
        _stop(head, temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)


def _wait_for_nodes(address: str, token: str, home: Path, count: int, log: Path) -> None:
    """Wait (at most 120 s) until a driver with the token sees count live nodes."""
    probe = (
        "import ray, sys; ray.init(address=sys.argv[1], log_to_driver=False); "
        "print(sum(n['Alive'] for n in ray.nodes()))"
    )
    env = _ray_env(home, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    deadline = time.monotonic() + 120
    seen = ""
    while time.monotonic() < deadline:
        try:
            done = subprocess.run([sys.executable, "-c", probe, address], env=env,
                                  capture_output=True, text=True, timeout=60)  # fmt: skip
        except subprocess.TimeoutExpired:
            continue
        seen = (done.stdout.strip().splitlines() or [""])[-1]
        if done.returncode == 0 and seen == str(count):
            return
        time.sleep(1)
    head = log.read_text(errors="replace")[-2000:]
    raise AssertionError(f"the cluster never had {count} nodes (last seen: {seen!r}): {head}")


@pytest.mark.ray
@pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)
def test_a_driver_without_the_token_is_told_it_failed_authentication(
    tmp_path: Path, token_cluster: tuple[str, str]
) -> None:
    address, token = token_cluster
    nobody = tmp_path / "nobody"  # no ~/.ray/auth_token, no RAY_AUTH_* variable
    nobody.mkdir()
    argv = [sys.executable, "-m", "xiangqi", "match", "--engine", str(FAIRY),
            "--engine", str(FAIRY), "--tc", "depth=1", "--max-plies", "4", "--ray", address,
            "--results", str(tmp_path / "results.json")]  # fmt: skip
    refused = subprocess.run(argv, env=_ray_env(nobody), capture_output=True, text=True,
                             timeout=300, cwd=tmp_path)  # fmt: skip
    assert refused.returncode == 2, refused.stderr
    error = [line for line in refused.stderr.splitlines() if line.startswith("xiangqi: error:")]
    assert len(error) == 1 and "Traceback" not in refused.stderr, refused.stderr
    check_authentication_message(error[0])
    assert f"{address!r}" in error[0]
    assert not (tmp_path / "results.json").exists()
    # what the message says to set is enough: the same match with the token plays
    played = subprocess.run(
        argv, env=_ray_env(nobody, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token),
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert (tmp_path / "results.json").exists()
