"""A match's input files: read once, never hanging, and a hostile results file refused
clearly.

A FIFO given as a results file, or as the openings file or book a results file names, is
refused at once (a resumed match reads them again); an openings pipe given to a new match
(``--openings <(cat op.pgn)``) is read once, its bytes both parsed and hashed. A results
file that is not UTF-8, or whose settings miss a field or hold one of the wrong type or out
of range, is refused naming the file and the field, before any engine starts.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi.match.resume
from xiangqi.__main__ import main
from xiangqi.match import prepare_match, resume_match, run_match
from xiangqi.match.resume import read_results

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

OPENINGS = Path(__file__).resolve().parent.parent / "examples" / "openings.pgn"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete 4-game match from the example openings: r.json and g.pgn."""
    folder = tmp_path_factory.mktemp("inputs")
    run_match(
        [str(FAIRY), str(FAIRY)],
        4,
        "depth=1",
        max_plies=4,
        openings=OPENINGS,
        pgn_file=folder / "g.pgn",
        results_file=folder / "r.json",
    )
    return folder


@pytest.fixture
def results(base: Path, tmp_path: Path) -> Path:
    shutil.copy(base / "r.json", tmp_path / "r.json")
    shutil.copy(base / "g.pgn", tmp_path / "g.pgn")
    return tmp_path / "r.json"


def refused(path: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    before = path.read_bytes() if path.is_file() else None
    try:
        code = main(["match", "--resume", str(path)])
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    for word in (repr(str(path)), *words):
        assert word in err, (word, err)
    if before is not None:
        assert path.read_bytes() == before
    return err


def in_a_process(code: str) -> subprocess.CompletedProcess[str]:
    """Run code in a Python of its own: a FIFO that hangs it fails the test, not the run."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def resume_fifo(path: Path) -> str:
    done = in_a_process(
        f"import sys, xiangqi.__main__ as m; sys.exit(m.main({['match', '--resume', str(path)]!r}))"
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and repr(str(path)) in done.stderr, done.stderr
    return done.stderr


@pytest.mark.slow
def test_a_fifo_is_refused_as_the_results_to_resume(tmp_path: Path) -> None:
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    assert "not a regular file" in resume_fifo(fifo)
    link = tmp_path / "link.json"
    link.symlink_to(fifo.name)
    assert "not a regular file" in resume_fifo(link)


@pytest.mark.parametrize("key", ["openings", "book"])
def test_a_fifo_named_by_the_settings_is_refused(results: Path, key: str) -> None:
    fifo = results.parent / "fifo"
    os.mkfifo(fifo)
    data = json.loads(results.read_text(encoding="utf-8"))
    if key == "book":
        seed = data["settings"]["openings"]["seed"]
        data["settings"]["openings"] = None
        data["settings"]["book"] = {"file": "", "plies": 8, "seed": seed or 1, "sha256": "0"}
    data["settings"][key]["file"] = str(fifo)
    results.write_text(json.dumps(data), encoding="utf-8")
    err = resume_fifo(results)
    assert str(fifo) in err and "not a regular file" in err, err


@pytest.mark.parametrize(("key", "words"), [("openings", "no openings"), ("book", "not a regular")])
def test_a_fifo_with_no_writer_given_as_openings_or_book_does_not_hang(
    tmp_path: Path, key: str, words: str
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = in_a_process(
        "import xiangqi.match as m\n"
        f"try: m.prepare_match(['cmd=/bin/true', 'cmd=/bin/true'], {key}={str(fifo)!r})\n"
        "except ValueError as exc: print(exc)"
    )
    assert words in done.stdout and str(fifo) in done.stdout, (done.stdout, done.stderr)


def test_an_openings_pipe_is_read_once_and_hashed_as_read() -> None:
    data = OPENINGS.read_bytes()
    read, write = os.pipe()

    def feed() -> None:
        with open(write, "wb") as handle:
            handle.write(data)

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        plan = prepare_match([str(FAIRY), str(FAIRY)], openings=f"/dev/fd/{read}")
    finally:
        feeder.join()
        os.close(read)
    assert plan.opening_file is not None
    assert plan.opening_file["sha256"] == hashlib.sha256(data).hexdigest()
    assert plan.openings.index(0) == 0


def test_a_results_file_that_is_not_utf8_is_named(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results.write_bytes(results.read_bytes().replace(b"xiangqi match", b"xiangqi m\xe4tch", 1))
    refused(results, capsys, "not UTF-8")


def test_a_results_file_with_a_bom_is_read(results: Path) -> None:
    results.write_bytes(b"\xef\xbb\xbf" + results.read_bytes())
    assert len(read_results(results).records) == 4


def setting(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(settings: dict[str, Any]) -> None:
        where = settings
        for key in path[:-1]:
            where = where[key]
        if value is KeyError:
            del where[path[-1]]
        else:
            where[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (setting(["adjudication"], {}), ["'adjudication.max_plies' is missing"]),
        (setting(["adjudication", "bogus"], 1), ["'adjudication.bogus' is unknown"]),
        (setting(["sprt"], {}), ["'sprt.elo0' is missing"]),
        (setting(["ray"], []), ["'ray' is []"]),
        (setting(["engines", 0, "name"], 5), ["engine 1", "'name'"]),
        (setting(["engines", 1, "command"], "fairy-stockfish"), ["engine 2", "'command'"]),
        (setting(["engines", 0, "timeout"], 1e308), ["engine timeout"]),
        (setting(["openings", "file"], KeyError), ["'openings.file' is missing"]),
        (setting(["games"], 0), ["games must be at least 1"]),
        (setting(["openings", "seed"], 10**1000), ["seed", "bits"]),
    ],
)
def test_hostile_settings_are_refused_naming_the_file_and_field(
    results: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], None],
    words: list[str],
) -> None:
    data = json.loads(results.read_text(encoding="utf-8"))
    change(data["settings"])
    results.write_text(json.dumps(data), encoding="utf-8")
    err = refused(results, capsys, "settings", *words)
    assert len(err) < 1000  # a huge number is abbreviated


def test_line_numbers_are_found_by_bisection_not_by_counting(
    results: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counting the newlines before each record made reading quadratic (20,000 records took
    # minutes); each record's line and each of its fields' is now one bisection of the
    # line starts, found once.
    calls = []
    bisect_right = xiangqi.match.resume.bisect.bisect_right

    def counted(*args: Any) -> int:
        calls.append(args[1])
        return bisect_right(*args)

    monkeypatch.setattr(xiangqi.match.resume.bisect, "bisect_right", counted)
    data = json.loads(results.read_text(encoding="utf-8"))
    record = data["games"][0]
    data["games"] = [dict(record, game=k, round=(k + 1) // 2) for k in range(1, 201)]
    text = json.dumps(data, indent=1)
    results.write_text(text, encoding="utf-8")
    read = read_results(results)
    assert len(calls) == sum(1 + len(r) for r in read.records)
    line = read.lines[150]["game"]  # checked against the text itself
    assert text.splitlines()[line - 1].strip() == '"game": 151,'


def test_resume_match_refuses_a_wrong_argument_before_anything(results: Path) -> None:
    with pytest.raises(TypeError, match="resume"):
        resume_match(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="names"):
        resume_match(results, names=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="keep_games"):
        resume_match(results, keep_games="no")  # type: ignore[arg-type]
