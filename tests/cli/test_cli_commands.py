"""Every ``rummykit`` command as a person meets it: the help, the version, options that
tell their defaults, the rules in the command line's own words, paths checked before any
work starts, nonsense refused in one line, Ctrl-C (a real SIGINT) that stops a simulation
or a ladder at once with the results so far, and jobs made as they are played."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from importlib.metadata import version
from pathlib import Path

import pytest

from rummykit.bots import seat_levels
from rummykit.cli import _parser
from rummykit.rules import PRESET_SOURCES
from rummykit.sim import Config, run_jobs
from rummykit.sim.report import mean_ci, sum_ci, summarize

RUMMYKIT = Path(sys.executable).with_name("rummykit")


def rummykit(*args: str, cwd: Path | None = None, stdin: str = ""
             ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run([str(RUMMYKIT), *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, check=False, input=stdin, env=env)


def refused(proc: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit 2, one line on stderr that says ``words``, nothing played or printed."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert words in lines[0]
    assert proc.stdout == ""


# -- help, version, options ------------------------------------------------------------


def test_no_command_prints_the_help(tmp_path: Path) -> None:
    proc = rummykit(cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: rummykit")
    for command in ("play", "replay", "simulate", "ladder", "stats", "serve", "rules"):
        assert f"    {command} " in proc.stdout


def test_version() -> None:
    proc = rummykit("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"rummykit {version('rummykit')}"


def _commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_option_has_help_that_tells_its_default(command: str) -> None:
    parser = _commands()[command]
    text = " ".join(parser.format_help().split())
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{command} {name} has no help"
        default = action.default
        if action.option_strings and default not in (None, False):
            assert (f"(default {default})" in text or "default" in action.help), (
                f"{command} {name}: the help does not tell the default {default!r}")
    # Never a Python value where a person reads the help.
    assert "default: None" not in text and "(default False)" not in text


def test_rules_are_shown_in_the_command_lines_words() -> None:
    proc = rummykit("rules", "ramino")
    assert proc.returncode == 0
    assert "  target_strict = true" in proc.stdout
    assert "  deals = none" in proc.stdout
    assert "  hand_size = 8\n" in proc.stdout  # one number for every player count
    for word in ("True", "False", "None"):
        assert f"= {word}" not in proc.stdout
    listing = rummykit("rules").stdout
    for name, game in PRESET_SOURCES.items():
        assert f"  {name:14} {game}: " in listing


# -- paths checked first, nonsense refused ----------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["simulate", "--workers", "0"], "--workers takes 1 to 1024 processes, not 0"),
    (["simulate", "--workers", "-3"], "--workers takes 1 to 1024"),
    (["simulate", "--bots", "expert,,greedy"], "a bot name is empty"),
    (["simulate", "--bots", " "], "a bot name is empty"),
    (["simulate", "--players", "2", "--bots", "random,greedy,expert"],
     "--bots names 3 bots for 2 seats"),
    (["simulate", "--address", "10.0.0.1:6379"], "with --backend ray"),
    (["simulate", "--csv", "."], "--csv .: is a directory"),
    (["simulate", "--csv", "no/such/dir/out.csv"], "there is no directory no/such/dir"),
    (["simulate", "--record-stats", "--db", "not a url"], "is not a database URL"),
    (["simulate", "--save", "a-file"], "--save a-file: is a file, not a directory"),
    (["ladder", "--workers", "0"], "--workers takes 1 to 1024"),
    (["ladder", "--bots", "random,,greedy"], "a bot name is empty"),
    (["ladder", "--markdown", "no/such/dir/ladder.md"], "there is no directory no/such/dir"),
])
def test_bad_input_is_refused_before_any_work(args: list[str], words: str, tmp_path: Path
                                              ) -> None:
    (tmp_path / "a-file").write_text("x")
    start = time.perf_counter()
    proc = rummykit(*args, "--deals", "100000", cwd=tmp_path)
    refused(proc, words)
    assert time.perf_counter() - start < 10  # refused at once, not after 100,000 deals
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # nothing written


@pytest.mark.parametrize(("args", "words"), [
    (["--save", "no/such/dir/game.json"], "cannot start: --save no/such/dir/game.json: "
                                          "there is no directory no/such/dir"),
    (["--save", "."], "is a directory"),
    (["--bots", "random,,greedy", "--players", "4"], "a bot name is empty"),
    (["--bots", "random,greedy,expert"], "--bots names 3 bots for 1 seat"),
    (["--db", "not a url"], "is not a database URL"),
    (["--resume", "missing.json"], "--resume missing.json: not a game to go on with"),
])
def test_play_refuses_bad_input_before_the_first_deal(args: list[str], words: str,
                                                      tmp_path: Path) -> None:
    proc = rummykit("play", "--plain", *args, cwd=tmp_path, stdin="draw stock\n")
    assert proc.returncode == 2, proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert words in proc.stdout + proc.stderr
    assert "Your hand" not in proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_serve_refuses_a_bad_port_at_once() -> None:
    proc = rummykit("serve", "--port", "70000")
    assert proc.returncode == 2
    assert "70000 is out of range (1 to 65535)" in proc.stderr


def test_simulate_save_into_a_directory_says_what_it_will_do(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "mine.txt").write_text("keep me")
    proc = rummykit("simulate", "--deals", "2", "--save", str(games), "--quiet", "--json")
    assert proc.returncode == 0, proc.stderr
    assert (f"records go into {games}, which holds 1 file already: a record of the same "
            "name is replaced, the others are left") in proc.stderr
    assert (games / "mine.txt").read_text() == "keep me"
    assert len(list(games.glob("deal-*.json"))) == 2
    fresh = rummykit("simulate", "--deals", "1", "--save", str(tmp_path / "new"),
                     "--quiet", "--json")
    assert f"records go into {tmp_path / 'new'} (made now)" in fresh.stderr
    assert len(list((tmp_path / "new").glob("deal-*.json"))) == 1


@pytest.mark.parametrize("where", ["missing/a/b", "/proc/rummykit-games", "/proc/x/y"])
def test_simulate_save_makes_only_the_last_level(where: str, tmp_path: Path) -> None:
    """A directory that --save names is made, but never the chain above it: a typo must
    not leave a tree of folders (nor, under /proc, a traceback)."""
    proc = rummykit("simulate", "--deals", "1", "--save", where, "--quiet", "--json",
                    cwd=tmp_path)
    refused(proc, "cannot simulate: --save ")
    assert list(tmp_path.iterdir()) == []


def test_simulate_csv_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    proc = rummykit("simulate", "--deals", "3", "--csv", str(target), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert target.read_text().startswith("name,deals,")
    assert proc.stdout == ""


def test_ladder_writes_no_file_unless_asked(tmp_path: Path) -> None:
    proc = rummykit("ladder", "--bots", "random,greedy", "--deals", "3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert list(tmp_path.iterdir()) == []
    # Piped, the Markdown is printed as it is.
    assert "## Bot ladder: `classic`, 2 players" in proc.stdout
    assert "| random vs greedy | 6 |" in proc.stdout


@pytest.mark.long
def test_stats_reads_without_making_a_database(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command's database is one file in the user's data directory (here moved by
    XDG_DATA_HOME), whatever directory it runs in; reading makes no database."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = rummykit("stats", cwd=elsewhere)
    assert proc.returncode == 0
    where = data / "rummykit" / "rummykit.db"
    assert f"no statistics yet: there is no database at {where}" in proc.stdout
    assert not data.exists() and list(elsewhere.iterdir()) == []
    played = rummykit("simulate", "--rules", "one-deal", "--deals", "2", "--record-stats",
                      "--quiet", "--json", cwd=elsewhere)
    assert played.returncode == 0, played.stderr
    assert where.is_file() and list(elsewhere.iterdir()) == []
    counted = rummykit("stats", "--json", cwd=tmp_path)
    assert counted.returncode == 0 and "one-deal" in counted.stdout, counted.stdout
    db = f"sqlite:///{tmp_path / 'stats.db'}"
    stored = rummykit("simulate", "--deals", "2", "--record-stats", "--db", db, "--quiet",
                      "--json")
    assert stored.returncode == 0, stored.stderr
    found = rummykit("stats", "--db", db, "--preset", "ramino")
    assert found.returncode == 0
    assert found.stdout.startswith("no statistics match preset ramino")
    assert "expert" in rummykit("stats", "--db", db, "--preset", "classic").stdout


def test_piped_tables_are_not_squeezed() -> None:
    proc = rummykit("simulate", "--deals", "2", "--bots", "master(rollouts=2),random",
                    "--quiet")
    assert proc.returncode == 0, proc.stderr
    header = next(line for line in proc.stdout.splitlines() if "points/deal" in line)
    for column in ("bot", "deals won", "win rate [95% CI]", "matches won",
                   "points/deal [95% CI]", "rummy rate", "stalemates", "decisions/deal"):
        assert column in header  # every column's title on one line, none cut
    assert "master(rollouts=2)" in proc.stdout


def test_a_closed_pipe_ends_quietly() -> None:
    """Output piped into a reader that has gone (``| head`` that stopped reading) ends
    the command without a traceback or any message: here the reading end is closed
    before the command writes anything, so its first write finds it gone."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    for args in (["rules", "--json"], ["simulate", "--deals", "3", "--json"], ["--help"]):
        read, write = os.pipe()
        os.close(read)
        try:
            proc = subprocess.run([str(RUMMYKIT), *args], stdout=write, stderr=subprocess.PIPE,
                                  env=env, timeout=120, check=False)
        finally:
            os.close(write)
        assert proc.stderr.decode() == "", (args, proc.stderr.decode())


def test_play_and_simulate_read_bots_the_same_way() -> None:
    assert seat_levels("expert", 3) == ["expert"] * 3
    assert seat_levels("expert, random", 3) == ["expert", "random", "random"]
    assert seat_levels("master(think=0.2,width=3),greedy", 2) == [
        "master(think=0.2,width=3)", "greedy"]
    for bad, words in (("expert,", "empty"), ("", "empty"), ("a,b,c", "3 bots for 2"),
                       ("wizard", "unknown bot")):
        with pytest.raises(ValueError, match=words):
            seat_levels(bad, 2)


# -- Ctrl-C, lazy jobs ------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(p) for p in text)
    return found


def _interrupt(args: list[str], after: float, tmp_path: Path, expected: int = 0
               ) -> tuple[subprocess.CompletedProcess[str], float, set[int]]:
    """Start the command, send it SIGINT ``after`` seconds once its ``expected`` worker
    processes run; its result, how long it took to stop and the worker processes it had."""
    proc = subprocess.Popen([str(RUMMYKIT), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    if expected:
        # A busy machine may take longer than ``after`` to start the workers.
        deadline = time.time() + 30
        while time.time() < deadline and len(_children(proc.pid)) < expected:
            time.sleep(0.2)
    time.sleep(after)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # It did not stop: end it and its workers, so they do not slow the other tests.
        for pid in _children(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.communicate()
        raise
    stopped = time.perf_counter() - sent
    return subprocess.CompletedProcess(args, proc.returncode, out, err), stopped, workers


def _gone(pids: set[int]) -> bool:
    deadline = time.time() + 5
    while time.time() < deadline:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.1)
    return False


def test_ctrl_c_stops_a_simulation_at_once_with_the_games_played(tmp_path: Path) -> None:
    proc, stopped, workers = _interrupt(
        ["simulate", "--deals", "10000000", "--workers", "2", "--json", "--save", "games"],
        2.0, tmp_path, expected=2)
    assert proc.returncode == 130
    assert stopped < 5  # at once: a worker's chunk is not waited for
    assert "Traceback" not in proc.stderr
    assert len(workers) == 2
    assert _gone(workers)
    data = json.loads(proc.stdout)
    assert data["interrupted"] is True and data["count"] == 10_000_000
    assert 0 < data["games"] == data["deals"] < 10_000_000
    assert sum(b["deals"] for b in data["bots"]) == 2 * data["deals"]
    # Every game played was saved, no other.
    assert len(list((tmp_path / "games").iterdir())) == data["games"]
    assert f"interrupted: the results of the {data['games']} games played" in proc.stderr


def test_ctrl_c_stops_a_ladder_with_the_ratings_so_far(tmp_path: Path) -> None:
    proc, stopped, _ = _interrupt(
        ["ladder", "--deals", "100000", "--markdown", "ladder.md"], 3.0, tmp_path)
    assert proc.returncode == 130
    assert stopped < 5  # at once: a worker's chunk is not waited for
    assert "Traceback" not in proc.stderr
    text = (tmp_path / "ladder.md").read_text()
    assert "Stopped before its end: these are the games played so far." in text
    assert "| random vs greedy |" in text
    assert "| expert | - | not played | 0 |" in text  # its pairs come later


def test_jobs_are_made_as_they_are_played() -> None:
    config = Config(rules="classic", players=2, bots=("greedy", "random"), count=10_000_000)
    tracemalloc.start()
    start = time.perf_counter()
    outcomes = run_jobs(config, progress=lambda done, total: None)
    first = [next(outcomes)]
    took = time.perf_counter() - start  # one deal played: no ten million jobs made first
    first += [next(outcomes) for _ in range(19)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    outcomes.close()
    assert took < 1.0  # one deal of greedy against random: some milliseconds
    assert peak < 5_000_000  # a list of ten million jobs alone would be hundreds of MB
    assert [o.index for o in first] == list(range(20))


def test_running_sums_give_the_interval_of_the_values() -> None:
    values = [3, -7, 0, 12, 12, 5, -1]
    direct = mean_ci([float(v) for v in values])
    summed = sum_ci(len(values), sum(values), sum(v * v for v in values))
    assert summed.mean == pytest.approx(direct.mean)
    assert summed.low == pytest.approx(direct.low)
    assert summed.high == pytest.approx(direct.high)
    # The order of the outcomes changes nothing, to the last bit.
    config = Config(rules="classic", players=2, bots=("greedy", "random"), count=30, seed=2)
    outcomes = list(run_jobs(config))
    assert summarize(config, outcomes, 0.0) == summarize(config, outcomes[::-1], 0.0)


def test_serve_says_its_address_once_it_listens(tmp_path: Path) -> None:
    """The address is printed once the server answers on it (a request made the moment
    the line appears is served), and a port already in use is one line, exit 2."""
    import socket
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    server = subprocess.Popen(
        [str(RUMMYKIT), "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'serve.db'}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=tmp_path, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.strip() == f"rummykit: open http://127.0.0.1:{port}/ in a browser"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=5) as got:
            assert got.status == 200
        taken = rummykit("serve", "--port", str(port), "--db",
                         f"sqlite:///{tmp_path / 'other.db'}", cwd=tmp_path)
        refused(taken, f"cannot listen on 127.0.0.1:{port}")
        assert "in use" in taken.stderr
    finally:
        server.terminate()
        server.wait(20)
