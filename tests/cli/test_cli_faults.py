"""Faults met at the command line, each refused in one line with exit status 2 and no
traceback: a database file that is not a database (at the start of ``play`` and at its
end, the record kept), a record whose names or actions hold terminal escapes, paths that
cannot be written or whose directories are missing (only the last level of a directory is
made); and the words a person reads (you, plurals, how the match ended)."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit import record
from rummykit.bots import make_bot
from rummykit.engine.match import Match
from rummykit.plain import _deal_summary, _show, play
from rummykit.rules import preset
from rummykit.session import LocalGame, match_summary

RUMMYKIT = Path(sys.executable).with_name("rummykit")


def rummykit(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run([str(RUMMYKIT), *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, check=False, input=stdin, env=env)


def one_line_error(proc: subprocess.CompletedProcess[str], words: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert words in lines[0], lines[0]


def not_a_database(tmp_path: Path) -> Path:
    bad = tmp_path / "bad.db"
    bad.write_text("these are notes, not a database\n" * 10)
    return bad


def whole_match(rules: str = "one-deal", seed: int = 3) -> str:
    """Answers that play a whole match for the person (the expert's choices)."""
    game = LocalGame.start(rules=rules, players=2, seed=seed, name="You", bots="random",
                           save=None)
    me, rng = make_bot("expert"), random.Random(seed)
    lines = []
    while not game.match.is_over:
        if game.bot_to_move:
            game.play_bot(game.bot_choice()[1])
        else:
            action = me.choose(game.view(), rng)
            lines.append(str(action))
            game.play(action)
    return "\n".join(lines) + "\n"


# -- a database that is not a database -----------------------------------------------------


def test_play_refuses_a_database_file_that_is_not_one_before_the_first_deal(
        tmp_path: Path) -> None:
    bad = not_a_database(tmp_path)
    proc = rummykit("play", "--plain", "--db", f"sqlite:///{bad}", cwd=tmp_path,
                    stdin="draw stock\n")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert f"{bad} is not a SQLite database" in proc.stdout + proc.stderr
    assert "Your hand" not in proc.stdout


@pytest.mark.parametrize("saved", [True, False])
def test_a_database_that_fails_at_the_end_keeps_the_record(
        saved: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The statistics cannot take the finished match (the file is not a database): one
    line on stderr, exit 2, and the record is where --save put it, or (without --save) in
    the data directory, where the output says."""
    from rummykit.session import games_directory

    bad = not_a_database(tmp_path)
    save = tmp_path / "game.json" if saved else None
    before = set(games_directory().glob("*.json")) if games_directory().exists() else set()
    out = io.StringIO()
    code = play("one-deal", 2, 3, "You", "random", None if save is None else str(save),
                io.StringIO(whole_match()), out, stats_url=f"sqlite:///{bad}")
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        f"Statistics not stored: cannot open the database sqlite:///{bad}: file is not a "
        "database"]
    assert "Match over." in out.getvalue()
    kept = save if save is not None else next(iter(
        set(games_directory().glob("*.json")) - before))
    assert f"Record saved to {kept}" in out.getvalue()
    assert record.replay(record.load(kept)).match.is_over


def test_stats_and_simulate_refuse_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    bad = not_a_database(tmp_path)
    one_line_error(rummykit("stats", "--db", f"sqlite:///{bad}", cwd=tmp_path),
                   "file is not a database")
    one_line_error(rummykit("simulate", "--deals", "2", "--quiet", "--record-stats", "--db",
                            f"sqlite:///{bad}", cwd=tmp_path),
                   f"{bad} is not a SQLite database")
    one_line_error(rummykit("serve", "--port", "1", "--db", f"sqlite:///{bad}", cwd=tmp_path),
                   f"cannot serve: --db sqlite:///{bad}: {bad} is not a SQLite database")


# -- records that would write to the terminal ---------------------------------------------


def crafted_record(tmp_path: Path, *, name: str = "Bob", action: str | None = None) -> Path:
    m = Match(preset("basic"), players=["You", "Bob"], seed=4)
    rec = record.to_json(record.from_match(m))
    rec["players"][1] = name
    if action is not None:
        rec["deals"][0]["actions"] = [action]
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["\x1b]0;owned\x07\x1b[2J", "Bo\x9bb", "A\u202eB", "  "])
def test_a_record_with_escapes_in_a_name_is_refused(name: str, tmp_path: Path) -> None:
    path = crafted_record(tmp_path, name=name)
    with pytest.raises(record.RecordError, match="players: player 2's name"):
        record.load(path)
    proc = rummykit("replay", str(path), cwd=tmp_path)
    one_line_error(proc, "not a valid record: players: player 2's name")
    assert "\x1b" not in proc.stderr + proc.stdout and "\x9b" not in proc.stderr
    resumed = rummykit("play", "--plain", "--no-stats", "--resume", str(path), cwd=tmp_path,
                       stdin="quit\n")
    assert resumed.returncode == 2
    assert "\x1b" not in resumed.stdout + resumed.stderr
    assert "player 2's name" in resumed.stdout + resumed.stderr


def test_a_record_with_escapes_in_an_action_is_refused(tmp_path: Path) -> None:
    path = crafted_record(tmp_path, action="draw\x1b[2J stock")
    proc = rummykit("replay", str(path), cwd=tmp_path)
    one_line_error(proc, "not a valid record: deal 1, action 1: ")
    assert "\x1b" not in proc.stdout + proc.stderr


# -- paths ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "1", "--quiet", "--csv", "/proc/rummykit.csv"],
    ["ladder", "--deals", "1", "--quiet", "--markdown", "/proc/rummykit.md"],
    ["play", "--plain", "--no-stats", "--save", "/proc/rummykit.json"],
])
def test_a_file_where_none_can_be_written_is_refused_first(args: list[str],
                                                           tmp_path: Path) -> None:
    proc = rummykit(*args, cwd=tmp_path, stdin="quit\n")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "cannot write in /proc" in proc.stdout + proc.stderr


@pytest.mark.parametrize("command", [["simulate", "--deals", "1", "--quiet",
                                      "--record-stats"], ["play", "--plain"],
                                     ["serve", "--port", "1"]])
def test_a_database_in_a_missing_directory_is_refused_and_nothing_made(
        command: list[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'stats.db'}"
    proc = rummykit(*command, "--db", url, cwd=tmp_path, stdin="quit\n")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert f"there is no directory {tmp_path / 'no' / 'such'}" in proc.stdout + proc.stderr
    assert list(tmp_path.iterdir()) == []


# -- words ---------------------------------------------------------------------------------


def finished_match(rules: str, want: object) -> Match:
    """A match of experts that ends as ``want(match)`` asks, the first of some seeds."""
    for seed in range(200):
        m = Match(preset(rules), players=["You", "Expert 1"], seed=seed)
        bots, rng = [make_bot("expert"), make_bot("expert")], random.Random(seed)
        from rummykit.engine.views import view

        while not m.is_over:
            seat = m.deal.to_move
            m.apply(bots[seat].choose(view(m, seat), rng))
        if want(m):  # type: ignore[operator]
            return m
    raise AssertionError("no seed gave such a match")


def test_the_person_goes_out_as_you() -> None:
    m = finished_match("one-deal", lambda m: m.finished[0].result.winner == 0)
    lines: list[str] = []
    _deal_summary(m, 0, lines.append)
    assert lines[0] in ("Deal 1: You go out.", "Deal 1: You go out with a rummy!")
    other = finished_match("one-deal", lambda m: m.finished[0].result.winner == 1)
    lines = []
    _deal_summary(other, 0, lines.append)
    assert lines[0].startswith("Deal 1: Expert 1 goes out")


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    game = LocalGame.start(rules="basic", players=2, seed=4, name="You", bots="random",
                           save=None)
    me, rng = make_bot("expert"), random.Random(1)
    shown: list[str] = []
    while not game.match.is_over and not shown:
        if game.bot_to_move:
            game.play_bot(game.bot_choice()[1])
            continue
        v = game.view()
        if 1 in v.hand_sizes:
            _show(v, shown.append)
        game.play(me.choose(v, rng))
    if not shown:
        pytest.skip("no hand of one card in this deal")
    assert "(1 card)" in shown[1] and "(1 cards)" not in shown[1]
    proc = rummykit("play", "--plain", "--players", "1", cwd=tmp_path)
    assert "1 player: basic is played by 2 to 6" in proc.stdout + proc.stderr


def test_the_match_says_why_it_ended() -> None:
    """Classic ends when everyone has dealt once (or at 100): the summary says which."""
    m = finished_match("classic", lambda m: m.end == "dealt-once")
    text = "\n".join(match_summary(m))
    assert "The match ended when everyone had dealt once." in text
    assert "100" not in text
