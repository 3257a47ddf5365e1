"""`xiangqi match --ray` losing a whole node mid-match (issue 32 item 2), on a real Ray
cluster of two nodes on this machine (ray.cluster_utils.Cluster: a head and a second raylet,
each a real Ray node with its own worker processes) and a real Fairy-Stockfish.

Marked ray: it runs only inside a network namespace with loopback only (see conftest).
The second node is killed (its raylet and workers, not gracefully) while it plays a round;
the round is played again on the head, and every pair is counted once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON
from test_match_ray import check_counted_once, match_while

from xiangqi.match import distributed

pytestmark = [pytest.mark.ray, pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)]


@pytest.fixture
def two_nodes() -> Iterator[tuple[Any, Any]]:
    """A head with one CPU and a second node with one CPU, this process their driver."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        second = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        try:
            yield cluster, second
        finally:
            ray.shutdown()
    finally:
        cluster.shutdown()


def test_a_node_lost_mid_match_gets_its_round_played_again_elsewhere(
    two_nodes: tuple[Any, Any],
) -> None:
    cluster, second = two_nodes
    lost = second.node_id  # Ray's node id of the second node
    head = cluster.head_node.node_id
    when: list[float] = []

    def kill_the_second_node(done: threading.Event) -> None:  # once it plays a round
        while not done.is_set():
            if _busy(second):
                time.sleep(0.5)
                when.append(time.monotonic())
                cluster.remove_node(second, allow_graceful=False)
                return
            time.sleep(0.05)

    data, pgn = match_while(kill_the_second_node, 8)
    assert when, "the second node never played a round"
    retried = data["ray"]["retried"]
    assert retried and all(r["attempt"] == 1 for r in retried), retried
    # Ray's word for a lost worker or node, not a task's own error
    assert all(r["error"].split(":")[0] in distributed._LOST for r in retried), retried
    again = {r["round"] for r in retried}
    for record in data["games"]:
        if record["round"] in again:  # played again, on the node still there
            assert record["attempt"] == 2 and record["node"] == head
    check_counted_once(data, pgn, 8)
    assert {n["node"] for n in data["ray"]["nodes"]} <= {head, lost}


def _busy(node: Any) -> bool:
    """Does a worker process of node play a round now (its title is ray::play_round)?"""
    from test_match_ray import _cmdline, _pids, _ppid

    raylet = [p.process.pid for p in node.all_processes.get("raylet", [])]
    return any(
        _ppid(pid) in raylet and _cmdline(pid).startswith("ray::play_round") for pid in _pids()
    )
