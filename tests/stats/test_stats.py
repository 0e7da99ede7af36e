"""The statistics store, on SQLite and on a real PostgreSQL server: exact lines for
hand-made games, filters, the ``rummykit stats`` command, games stored by
``rummykit simulate --record-stats`` and by the terminal game."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from rummykit import record as records
from rummykit.bots import make_bot
from rummykit.cli import play
from rummykit.db.models import GameRow
from rummykit.engine import DealResult, Match
from rummykit.engine.views import view
from rummykit.rules import Rules, preset
from rummykit.stats import StatLine, Store

RUMMYKIT = Path(sys.executable).with_name("rummykit")


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}  # rich tables unwrapped
    env.pop("DATABASE_URL", None)
    return subprocess.run([str(RUMMYKIT), *args], capture_output=True, text=True, timeout=300,
                          check=False, env=env)


def R(winner: int | None, rummy: bool, *points: int) -> DealResult:
    return DealResult(winner, rummy, tuple(points))


def _fill(store: Store) -> None:
    """Hand-made games of known statistics (see the expected lines below)."""
    classic, ramino, r500 = preset("classic"), preset("ramino"), preset("rummy500")
    pair, kinds = ["Ann", "greedy"], ["person", "bot"]
    # Classic, Ann against the greedy bot: Ann wins the first, greedy the second, a tie.
    store.add_game(rules=classic, names=pair, kinds=kinds, winner=0, finished=True,
                   results=[R(0, True, 40, 0), R(1, False, 0, 25), R(0, False, 70, 0)],
                   totals=[110, 25])
    store.add_game(rules=classic, names=pair, kinds=kinds, winner=1, finished=True,
                   results=[R(1, False, 0, 60), R(None, False, 0, 0), R(1, True, 0, 50)],
                   totals=[0, 110])
    store.add_game(rules=classic, names=pair, kinds=kinds, winner=None, finished=True,
                   results=[R(0, False, 30, 0), R(1, False, 0, 30)], totals=[30, 30])
    # A single deal of a simulation: counts its deal, but is no match (nor a best score).
    store.add_game(rules=classic, names=pair, kinds=kinds, winner=1, finished=True,
                   results=[R(1, True, 0, 200)], totals=[0, 200], unit="deal",
                   source="simulate")
    # Ramino (penalties: the best score is the lowest total), three players.
    trio = ["Ann", "expert", "Bob"]
    store.add_game(rules=ramino, names=trio, kinds=["person", "bot", "person"], winner=0,
                   finished=True, results=[R(1, False, 30, 0, 45), R(0, True, 0, 60, 70)],
                   totals=[30, 60, 115])
    store.add_game(rules=ramino, names=trio, kinds=["person", "bot", "person"], winner=1,
                   finished=True, results=[R(1, False, 105, 0, 50), R(1, False, 0, 20, 0)],
                   totals=[105, 20, 50])
    # 500 Rum: totals can be negative; the best is still the highest.
    store.add_game(rules=r500, names=["Ann", "Bob"], kinds=["person", "person"], winner=1,
                   finished=True, results=[R(1, False, -35, 80)], totals=[-35, 80])


def line(player: str, kind: str, preset_name: str, players: int, matches: int, won: int,
         deals: int, deals_won: int, points: int, rummies: int, best: int | None) -> StatLine:
    return StatLine(player=player, kind=kind, preset=preset_name, players=players,
                    matches=matches, matches_won=won,
                    win_pct=100.0 * won / matches if matches else 0.0, deals=deals,
                    deals_won=deals_won, points_per_deal=points / deals if deals else 0.0,
                    rummies=rummies, best_score=best)


EXPECTED = [
    # classic: 3 matches (8 deals) and one lone deal.
    line("Ann", "person", "classic", 2, 3, 1, 9, 3, 140, 1, 110),
    line("greedy", "bot", "classic", 2, 3, 1, 9, 5, 365, 2, 110),
    # ramino: penalties, lowest total best.
    line("Ann", "person", "ramino", 3, 2, 1, 4, 1, 135, 1, 30),
    line("Bob", "person", "ramino", 3, 2, 0, 4, 0, 165, 0, 50),
    line("expert", "bot", "ramino", 3, 2, 1, 4, 3, 80, 0, 20),
    # rummy500
    line("Ann", "person", "rummy500", 2, 1, 0, 1, 0, -35, 0, -35),
    line("Bob", "person", "rummy500", 2, 1, 1, 1, 1, 80, 0, 80),
]


def _approx(lines: list[StatLine]) -> list[dict[str, object]]:
    return [{k: pytest.approx(v) if isinstance(v, float) else v
             for k, v in ln.to_json().items()} for ln in lines]


def test_lines_are_exact_for_hand_made_games(store: Store) -> None:
    _fill(store)
    got = store.lines()
    assert [ln.to_json() for ln in got] == _approx(EXPECTED)
    ann = got[0]
    assert ann.win_pct == pytest.approx(100 / 3)
    assert ann.points_per_deal == pytest.approx(140 / 9)


def test_empty_store_has_no_lines(store: Store) -> None:
    assert store.lines() == []


@pytest.mark.parametrize(("filters", "expected"), [
    ({"preset": "ramino"}, [2, 3, 4]),
    ({"players": 2}, [0, 1, 5, 6]),
    ({"player": "Ann"}, [0, 2, 5]),
    ({"player": "Bob", "players": 2}, [6]),
    ({"preset": "classic", "player": "greedy"}, [1]),
    ({"preset": "basic"}, []),
    ({"player": "nobody"}, []),
])
def test_lines_filter_by_preset_players_and_player(
    store: Store, filters: dict[str, object], expected: list[int]
) -> None:
    _fill(store)
    got = store.lines(**filters)  # type: ignore[arg-type]
    assert [ln.to_json() for ln in got] == _approx([EXPECTED[i] for i in expected])


def test_store_is_shared_between_connections(db_url: str) -> None:
    first = Store(db_url)
    _fill(first)
    first.close()
    second = Store(db_url)  # the migrations run again on the existing schema
    try:
        assert [ln.to_json() for ln in second.lines()] == _approx(EXPECTED)
    finally:
        second.close()


def _bot_match(rules: Rules, levels: list[str], seed: int) -> Match:
    match = Match(rules, players=[f"{lv} seat" for lv in levels], seed=seed)
    bots = [make_bot(lv) for lv in levels]
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.deal.to_move
        match.apply(bots[seat].choose(view(match, seat), rng))
    return match


def test_add_match_stores_a_played_match(store: Store) -> None:
    match = _bot_match(preset("classic"), ["greedy", "random", "expert"], seed=21)
    game_id = store.add_match(match, ["person", "bot", "bot"],
                              names=["Ann", "random", "expert"])
    assert isinstance(game_id, int)
    results = [d.result for d in match.finished if d.result is not None]
    by_player = {ln.player: ln for ln in store.lines()}
    assert set(by_player) == {"Ann", "random", "expert"}
    for seat, name in enumerate(["Ann", "random", "expert"]):
        ln = by_player[name]
        assert (ln.kind, ln.preset, ln.players) == (
            "person" if seat == 0 else "bot", "classic", 3)
        assert (ln.matches, ln.matches_won) == (1, int(match.winner == seat))
        assert ln.deals == len(results)
        assert ln.deals_won == sum(1 for r in results if r.winner == seat)
        assert ln.points_per_deal == pytest.approx(
            sum(r.points[seat] for r in results) / len(results))
        assert ln.rummies == sum(1 for r in results if r.winner == seat and r.rummy)
        assert ln.best_score == match.totals[seat]
    # Without names, the match's own names are stored.
    store.add_match(match, ["bot"] * 3)
    assert {ln.player for ln in store.lines(player="greedy seat")} == {"greedy seat"}


# -- the commands ----------------------------------------------------------------------


@pytest.mark.long
def test_stats_command_json(store: Store, db_url: str) -> None:
    _fill(store)
    proc = rummykit("stats", "--json", "--db", db_url)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"stats": _approx(EXPECTED)}
    proc = rummykit("stats", "--json", "--db", db_url, "--preset", "ramino", "--player", "Ann")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"stats": _approx([EXPECTED[2]])}
    proc = rummykit("stats", "--json", "--db", db_url, "--players", "3")
    assert [s["player"] for s in json.loads(proc.stdout)["stats"]] == ["Ann", "Bob", "expert"]
    table = rummykit("stats", "--db", db_url)  # the table for people
    assert table.returncode == 0, table.stderr
    assert "greedy (bot)" in table.stdout and "Ann" in table.stdout


def test_simulate_record_stats_then_stats(db_url: str) -> None:
    proc = rummykit("simulate", "--rules", "basic", "--bots", "expert,random", "--deals", "6",
                    "--duplicate", "--record-stats", "--db", db_url, "--json")
    assert proc.returncode == 0, proc.stderr
    report = {b["name"]: b for b in json.loads(proc.stdout)["bots"]}
    proc = rummykit("simulate", "--rules", "one-deal", "--bots", "greedy", "--matches", "3",
                    "--record-stats", "--db", db_url, "--quiet")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(rummykit("stats", "--json", "--db", db_url).stdout)["stats"]
    got = {(s["preset"], s["player"]): s for s in stats}
    assert set(got) == {("basic", "expert"), ("basic", "random"), ("one-deal", "greedy")}
    assert all(s["kind"] == "bot" and s["players"] == 2 for s in stats)
    for level in ("expert", "random"):
        s = got["basic", level]
        assert s["matches"] == 0 and s["best_score"] is None  # single deals are no matches
        assert s["deals"] == 12 == report[level]["deals"]
        assert s["deals_won"] == report[level]["deals_won"]
        assert s["points_per_deal"] == pytest.approx(report[level]["points_per_deal"]["mean"])
    # Greedy against itself: both seats are "greedy", 3 one-deal matches.
    s = got["one-deal", "greedy"]
    assert s["matches"] == 6 and s["deals"] == 6
    assert s["matches_won"] == s["deals_won"] <= 3


# -- the terminal game -----------------------------------------------------------------


class Player:
    """Stdin of the terminal game, played through its own commands: ask for the legal
    actions ('?'), then answer one of them (read back from the game's output)."""

    def __init__(self, out: io.StringIO, seed: int, stop_after: int | None = None) -> None:
        self.out = out
        self.rng = random.Random(seed)
        self.asking = True
        self.moves = 0
        self.stop_after = stop_after

    def readline(self) -> str:
        if self.stop_after is not None and self.moves >= self.stop_after:
            return ""  # end of input: the player leaves
        if self.asking:
            self.asking = False
            return "?\n"
        self.asking = True
        text = self.out.getvalue()
        legal = text[text.rindex("Legal: ") + len("Legal: "):].splitlines()[0].split(" | ")
        # Lay down what can be laid down, else a random legal action.
        laying = [a for a in legal if a.startswith(("meld", "layoff"))]
        self.moves += 1
        return self.rng.choice(laying or legal) + "\n"


def _play(db_url: str | None, rules: str, seed: int, stop_after: int | None = None,
          name: str = "Ann") -> str:
    out = io.StringIO()
    stdin = Player(out, seed, stop_after)
    code = play(rules, 2, seed, name, "greedy", None, stdin, out,  # type: ignore[arg-type]
                stats_url=db_url)
    assert code == 0, out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("rules", ["one-deal", "classic"])
def test_finished_play_match_is_stored_as_a_person(db_url: str, rules: str) -> None:
    text = _play(db_url, rules, seed=3)
    assert "Match over." in text and "Match stored in the statistics" in text
    store = Store(db_url)
    try:
        by_player = {ln.player: ln for ln in store.lines()}
        assert set(by_player) == {"Ann", "greedy"}
        assert by_player["Ann"].kind == "person" and by_player["greedy"].kind == "bot"
        assert by_player["Ann"].matches == by_player["greedy"].matches == 1
        assert by_player["Ann"].preset == rules
        with Session(store.engine) as session:
            game = session.scalars(select(GameRow)).one()
            assert (game.source, game.unit, game.finished) == ("play", "match", True)
            replayed = records.replay(records.loads(game.record or "")).match
            assert replayed.is_over
            assert [s.total for s in sorted(game.seats, key=lambda s: s.seat)] == \
                replayed.totals
            assert game.winner == replayed.winner
            won = [ln.player for ln in by_player.values() if ln.matches_won]
            assert won == ([] if game.winner is None else [["Ann", "greedy"][game.winner]])
    finally:
        store.close()


def test_unfinished_or_no_stats_play_stores_nothing(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the default SQLite file would land here
    monkeypatch.setenv("DATABASE_URL", db_url)
    text = _play(db_url, "classic", seed=4, stop_after=3)
    assert "Game stopped before its end." in text
    assert "stored" not in text
    text = _play(None, "one-deal", seed=5)  # --no-stats
    assert "Match over." in text and "stored" not in text
    store = Store(db_url)
    try:
        assert store.lines() == []
        # "" is the default database: DATABASE_URL here.
        assert "Match stored" in _play("", "one-deal", seed=5)
        assert {ln.player for ln in store.lines()} == {"Ann", "greedy"}
    finally:
        store.close()
    assert not (tmp_path / "var").exists()


def test_long_names_are_refused_before_the_match_and_40_characters_stored(
    db_url: str
) -> None:
    """The store's player column is VARCHAR(80) (PostgreSQL enforces it, SQLite does not):
    the terminal game refuses names over 40 characters before dealing (it used to crash
    after the match on PostgreSQL, storing nothing), and a 40-character name is stored
    whole on every database."""
    out = io.StringIO()
    code = play("one-deal", 2, 3, "N" * 41, "greedy", None, Player(out, 3),  # type: ignore[arg-type]
                out, stats_url=db_url)
    assert code == 2
    assert "1 to 40 characters" in out.getvalue()
    name = "Annabel " * 5  # 40 characters
    text = _play(db_url, "one-deal", seed=3, name=name)
    assert "Match stored in the statistics" in text
    store = Store(db_url)
    try:
        people = [ln for ln in store.lines() if ln.kind == "person"]
        assert [ln.player for ln in people] == [name]
        assert people[0].matches == 1
    finally:
        store.close()


@pytest.mark.parametrize("command", [["stats"], ["simulate", "--deals", "1", "--record-stats"]])
def test_unusable_database_url_exits_2_with_a_message(command: list[str]) -> None:
    """Regression: a URL SQLAlchemy cannot parse used to end in a traceback (exit 1)."""
    proc = rummykit(*command, "--db", "not a database url")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    # One line that names the URL and says it is no database URL SQLAlchemy reads.
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "'not a database url'" in proc.stderr
    assert ("is not a database URL" in proc.stderr
            or "Could not parse SQLAlchemy URL" in proc.stderr)
    assert proc.stdout == ""


def test_unreachable_database_exits_2_with_a_message() -> None:
    proc = rummykit("stats", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "cannot open the database" in proc.stderr


def test_the_stats_table_prints_odd_names_as_escapes(store: Store, db_url: str) -> None:
    """A name stored before names were checked (or by another program) with a terminal
    escape, a bidirectional override or Rich markup is printed as text: its control and
    invisible characters as escapes, its brackets as brackets."""
    classic = preset("classic")
    odd = ["A\x1b[31mred", "B\u202eC"]
    store.add_game(rules=classic, names=odd, kinds=["person", "person"], winner=0,
                   finished=True, results=[R(0, False, 10, 0)], totals=[10, 0])
    store.add_game(rules=classic, names=["[bold]Dan", "Eve"], kinds=["person", "person"],
                   winner=0, finished=True, results=[R(0, False, 10, 0)], totals=[10, 0])
    table = rummykit("stats", "--db", db_url)
    assert table.returncode == 0, table.stderr
    assert "\x1b" not in table.stdout and "\u202e" not in table.stdout
    assert "A\\x1b[31mred" in table.stdout and "B\\u202eC" in table.stdout
    assert "[bold]Dan" in table.stdout


def test_play_refuses_a_name_with_control_characters() -> None:
    proc = rummykit("play", "--name", "A\u202eB", "--bots", "random")
    assert proc.returncode == 2
    assert "control, invisible or direction-changing" in proc.stdout + proc.stderr
