"""The simulator: determinism across seeds, workers and backends; duplicate seating;
matches; the ``rummykit simulate`` and ``rummykit ladder`` commands."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from rummykit import record as records
from rummykit.sim import Config, Outcome, check, run_jobs, simulate
from rummykit.sim.cli import pace_text
from rummykit.sim.ladder import resample_deals, run_ladder
from rummykit.sim.report import mean_ci, wilson

RUMMYKIT = Path(sys.executable).with_name("rummykit")
LEVELS = ("random", "greedy", "expert")


def rummykit(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command; ``env`` is added to a copy of the environment with no expert
    tuning knobs in it."""
    full = {k: v for k, v in os.environ.items() if k not in ("KEEP", "DANGER", "MARGIN", "CLOSE")}
    full.update(env or {})
    return subprocess.run([str(RUMMYKIT), *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, check=False, env=full)


def _sorted(outcomes: list[Outcome]) -> list[Outcome]:
    return sorted(outcomes, key=lambda o: (o.index, o.rotation))


# -- determinism -----------------------------------------------------------------------


def test_same_seed_same_report_and_another_seed_another() -> None:
    config = Config(rules="classic", players=3, bots=LEVELS, count=30, seed=11)
    first = simulate(config)
    second = simulate(config)
    assert first.same_results(second)
    assert first.to_json()["bots"] == second.to_json()["bots"]
    other = simulate(Config(rules="classic", players=3, bots=LEVELS, count=30, seed=12))
    assert not first.same_results(other)


def test_results_do_not_depend_on_the_environment() -> None:
    args = ("simulate", "--bots", "expert,greedy", "--deals", "20", "--json")
    plain = json.loads(rummykit(*args, env={}).stdout)["bots"]
    for name, value in (("KEEP", "0"), ("DANGER", "9"), ("CLOSE", "9")):
        proc = rummykit(*args, env={name: value})
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["bots"] == plain, f"{name}={value} changed the results"


def test_one_worker_and_two_give_the_same_results() -> None:
    config = Config(rules="basic", players=2, bots=("expert", "random"), count=40, seed=5,
                    duplicate=True)
    one = simulate(config, workers=1)
    two = simulate(config, workers=2)
    assert one.same_results(two)
    assert _sorted(list(run_jobs(config, workers=1))) == _sorted(
        list(run_jobs(config, workers=2)))


def test_report_counts_add_up() -> None:
    config = Config(rules="rummy500", players=3, bots=("greedy", "greedy", "random"),
                    count=20, seed=3)
    outcomes = _sorted(list(run_jobs(config)))
    report = simulate(config)
    assert [b.name for b in report.bots] == ["greedy", "greedy (2)", "random"]
    assert report.deals == 20 == len(outcomes)
    winners = [o.deal_winners[0] for o in outcomes]
    for b, result in enumerate(report.bots):
        seat = b  # no rotation: bot b sits in seat b
        points = [o.deal_points[0][seat] for o in outcomes]
        assert result.deals == 20
        assert result.deals_won == winners.count(seat)
        assert result.win_rate.mean == pytest.approx(result.deals_won / 20)
        assert result.points_per_deal.mean == pytest.approx(sum(points) / 20)
        assert result.stalemates == winners.count(None) == report.stalemates
        assert result.win_rate.low <= result.win_rate.mean <= result.win_rate.high
        assert result.points_per_deal.low <= result.points_per_deal.mean
        assert result.points_per_deal.mean <= result.points_per_deal.high
        assert result.decisions_per_deal == pytest.approx(
            sum(o.decisions[seat] for o in outcomes) / 20)


def test_progress_reports_every_job() -> None:
    config = Config(rules="classic", players=2, bots=("greedy", "random"), count=40, seed=1,
                    duplicate=True)
    calls: list[tuple[int, int]] = []
    simulate(config, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (80, 80)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


@pytest.mark.parametrize(("changes", "message"), [
    ({"bots": ("random", "nobody")}, "unknown bot 'nobody'"),
    ({"players": 7, "bots": ("random",) * 7}, "2 to 6"),
    ({"bots": ("random",) * 3}, "3 bots for 2 seats"),
    ({"rules": "gin"}, "unknown preset 'gin'"),
    ({"count": 0}, "at least one"),
])
def test_check_refuses_a_configuration_that_cannot_run(
    changes: dict[str, object], message: str
) -> None:
    base: dict[str, object] = {"rules": "classic", "players": 2, "bots": ("random", "random")}
    config = Config(**{**base, **changes})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        check(config)
    with pytest.raises(ValueError, match=message):
        simulate(config)


def test_unknown_backend_is_an_error() -> None:
    config = Config(rules="classic", players=2, bots=("random", "random"), count=1)
    with pytest.raises(ValueError, match="unknown backend"):
        simulate(config, backend="dask")


@pytest.mark.parametrize("trials", [3, 10, 12])
def test_wilson_interval_holds_a_proportion_of_0_or_1(trials: int) -> None:
    """Regression: rounding put the interval of 0 successes above 0 (2.8e-17 for 3
    trials) and of n out of n below 1, outside the estimate."""
    none, every = wilson(0, trials), wilson(trials, trials)
    assert none.low == 0.0 == none.mean < none.high
    assert every.low < every.mean == 1.0 == every.high


def test_wilson_interval_of_a_known_proportion() -> None:
    estimate = wilson(5, 20)  # p = 0.25; the Wilson 95% interval is [0.1119, 0.4687]
    assert estimate.mean == 0.25
    assert estimate.low == pytest.approx(0.1119, abs=1e-4)
    assert estimate.high == pytest.approx(0.4687, abs=1e-4)
    mean = mean_ci([1.0, 2.0, 3.0, 4.0])  # sd 1.2910: half width 1.96 * 1.2910 / 2
    assert mean.mean == 2.5
    assert mean.high - mean.mean == pytest.approx(1.959964 * 1.290994 / 2, rel=1e-5)


# -- duplicate -------------------------------------------------------------------------


def test_duplicate_seats_every_bot_in_every_seat_on_the_same_deal() -> None:
    config = Config(rules="classic", players=3, bots=LEVELS, count=4, seed=8, duplicate=True,
                    keep_records=True)
    outcomes = _sorted(list(run_jobs(config)))
    assert [(o.index, o.rotation) for o in outcomes] == [
        (i, r) for i in range(4) for r in range(3)]
    for index in range(4):
        jobs = [o for o in outcomes if o.index == index]
        seats_of: dict[int, set[int]] = defaultdict(set)
        for o in jobs:
            assert sorted(o.bot_of) == [0, 1, 2]
            for seat, b in enumerate(o.bot_of):
                seats_of[b].add(seat)
        assert seats_of == {0: {0, 1, 2}, 1: {0, 1, 2}, 2: {0, 1, 2}}
        # Every rotation plays the very same deal: same dealer, same cards.
        deals = [records.loads(o.record or "").deals[0] for o in jobs]
        assert len({(d.dealer, d.layout) for d in deals}) == 1
        # The record names each seat's bot.
        for o in jobs:
            assert records.loads(o.record or "").players == [LEVELS[b] for b in o.bot_of]
    report = simulate(config)
    assert report.deals == 12
    assert [b.deals for b in report.bots] == [12, 12, 12]


def test_duplicate_rotation_is_the_swapped_seating() -> None:
    """Rotation 1 of (greedy, expert) is the seating (expert, greedy): both bots ignore
    their random generators, so the deal goes the same way, point for point."""
    swapped = Config(rules="classic", players=2, bots=("greedy", "expert"), count=15, seed=4,
                     duplicate=True)
    direct = Config(rules="classic", players=2, bots=("expert", "greedy"), count=15, seed=4)
    rotated = {o.index: o for o in run_jobs(swapped) if o.rotation == 1}
    for o in run_jobs(direct):
        r = rotated[o.index]
        assert r.bot_of == [1, 0] and o.bot_of == [0, 1]
        assert (r.deal_points, r.deal_winners, r.decisions) == (
            o.deal_points, o.deal_winners, o.decisions)


def test_duplicate_summary_balances_the_seats() -> None:
    """With duplicate, a bot playing itself scores the same as its twin in total."""
    config = Config(rules="basic", players=2, bots=("greedy", "greedy"), count=25, seed=2,
                    duplicate=True)
    a, b = simulate(config).bots
    assert (a.name, b.name) == ("greedy", "greedy (2)")
    assert a.points_per_deal.mean == pytest.approx(b.points_per_deal.mean)
    assert a.deals_won == b.deals_won


# -- matches ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "ramino"])
def test_matches_mode_plays_whole_matches(rules: str) -> None:
    config = Config(rules=rules, players=3, bots=LEVELS, mode="matches", count=4, seed=6,
                    keep_records=True)
    outcomes = _sorted(list(run_jobs(config)))
    report = simulate(config)
    assert all(o.match_finished for o in outcomes)
    assert [b.matches for b in report.bots] == [4, 4, 4]
    assert report.deals == sum(len(o.deal_points) for o in outcomes)
    assert report.deals > 4  # these matches last more than one deal
    for b, result in enumerate(report.bots):
        assert result.matches_won == sum(1 for o in outcomes if o.match_winner == b)
        assert result.match_win_rate.mean == pytest.approx(result.matches_won / 4)
    for o in outcomes:
        # The totals are the deals' points added up, and the record replays to them.
        assert o.totals == [sum(p[s] for p in o.deal_points) for s in range(3)]
        outcome = records.replay(records.loads(o.record or ""))
        assert outcome.match.is_over
        assert outcome.match.totals == o.totals
        assert outcome.match.winner == o.match_winner
    assert simulate(config).same_results(report)


# -- the command -----------------------------------------------------------------------


def test_simulate_json() -> None:
    proc = rummykit("simulate", "--rules", "classic", "--bots", "greedy,random", "--deals",
                    "12", "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["rules"] == "classic" and data["players"] == 2 and data["deals"] == 12
    assert [b["name"] for b in data["bots"]] == ["greedy", "random"]
    for b in data["bots"]:
        for key in ("points_per_deal", "win_rate"):
            estimate = b[key]
            assert isinstance(estimate["mean"], float | int)
            low, high = estimate["ci95"]
            # (rounding: see test_wilson_interval_holds_a_proportion_of_0_or_1)
            assert low - 1e-9 <= estimate["mean"] <= high + 1e-9
        assert 0 <= b["win_rate"]["ci95"][0] <= b["win_rate"]["ci95"][1] <= 1
        assert b["deals"] == 12
    # The same as the library's report for the same configuration.
    report = simulate(Config(rules="classic", players=2, bots=("greedy", "random"), count=12,
                             seed=3))
    assert data["bots"] == [b.to_json() for b in report.bots]


def test_simulate_says_a_slow_pace_to_a_tenth() -> None:
    """The report's title gives the pace: rounded to whole deals a second when fast, to a
    tenth when a slow bot plays a deal or two a second (never "1 deals/s")."""
    proc = rummykit("simulate", "--rules", "classic", "--bots", "greedy,random", "--deals",
                    "6", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\d deals/s\)", proc.stdout), proc.stdout
    assert pace_text(2, 1.7) == "1.2 deals a second"
    assert pace_text(1, 1.0) == "1.0 deals a second"
    assert pace_text(99, 10.0) == "9.9 deals a second"
    assert pace_text(10, 1.0) == "10 deals/s"
    assert pace_text(12_344, 2.0) == "6,172 deals/s"


def test_simulate_csv() -> None:
    proc = rummykit("simulate", "--rules", "basic", "--players", "3", "--bots",
                    "expert,greedy,random", "--deals", "9", "--csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    header, body = rows[0], rows[1:]
    assert header[0] == "name"
    assert {"deals", "deals_won", "win_rate", "points_per_deal"} <= set(header)
    assert [r[0] for r in body] == ["expert", "greedy", "random"]
    assert all(len(r) == len(header) for r in body)
    for row in body:
        fields = dict(zip(header, row, strict=True))
        assert int(fields["deals"]) == 9
        assert 0.0 <= float(fields["win_rate"]) <= 1.0
        assert float(fields["points_per_deal_low"]) <= float(fields["points_per_deal"])
        assert not math.isnan(float(fields["points_per_deal"]))


def test_simulate_fewer_bots_than_seats_repeats_the_last() -> None:
    proc = rummykit("simulate", "--players", "4", "--bots", "expert,random", "--deals", "3",
                    "--json")
    assert proc.returncode == 0, proc.stderr
    names = [b["name"] for b in json.loads(proc.stdout)["bots"]]
    assert names == ["expert", "random", "random (2)", "random (3)"]


@pytest.mark.parametrize("unit", ["deals", "matches"])
def test_simulate_save_writes_records_that_replay(tmp_path: Path, unit: str) -> None:
    target = tmp_path / "games"
    proc = rummykit("simulate", "--rules", "one-deal" if unit == "matches" else "rummy500",
                    "--bots", "expert,random", f"--{unit}", "3", "--duplicate", "--save",
                    str(target), "--quiet")
    assert proc.returncode == 0, proc.stderr
    files = sorted(target.glob("*.json"))
    assert len(files) == 6  # 3 games x 2 rotations
    for path in files:
        assert path.name.startswith("deal-" if unit == "deals" else "match-")
        check_replay = rummykit("replay", str(path), "--json")
        assert check_replay.returncode == 0, (path.name, check_replay.stderr)
        assert json.loads(check_replay.stdout)["deals"]


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,wizard"], "unknown bot 'wizard'"),
    (["--players", "7"], "2 to 6"),
    (["--players", "1", "--bots", "random"], "2 to 6"),
    (["--rules", "canasta"], "unknown preset 'canasta'"),
    (["--rules", "classic(wild=yes)"], "unknown option 'wild'"),
    (["--deals", "-4"], "at least one"),
])
def test_simulate_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    proc = rummykit("simulate", "--quiet", *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stdout == ""


def test_simulate_more_bots_than_seats_exits_2() -> None:
    """Regression: bots named beyond the seats used to be dropped silently."""
    proc = rummykit("simulate", "--players", "2", "--bots", "random,greedy,expert", "--deals",
                    "2", "--json")
    assert proc.returncode == 2
    assert "3 bots" in proc.stderr and "2 seats" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("unit", ["--deals", "--matches"])
def test_simulate_zero_games_exits_2(unit: str) -> None:
    """Regression: 0 is falsy, and --deals 0 / --matches 0 used to play 100 deals."""
    proc = rummykit("simulate", "--bots", "greedy,greedy", unit, "0", "--json")
    assert proc.returncode == 2
    assert "at least one" in proc.stderr
    assert proc.stdout == ""


# -- ladder ----------------------------------------------------------------------------


def _markdown_table(lines: list[str], first_cell: str) -> list[dict[str, str]]:
    """The rows of the Markdown table whose header starts with ``first_cell``."""
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("|") and line.split("|")[1].strip() == first_cell)
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    assert set(lines[start + 1].replace("|", "")) <= {"-", ":", " "}
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == len(header)
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def test_ladder_writes_a_markdown_table_of_the_levels(tmp_path: Path) -> None:
    target = tmp_path / "l.md"
    proc = rummykit("ladder", "--deals", "20", "--markdown", str(target), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#") and "classic" in lines[0]
    assert any("bootstrap intervals over whole deals" in line for line in lines)
    rows = _markdown_table(lines, "bot")
    default = ("random", "greedy", "learned", "expert")  # the ladder's default levels
    assert sorted(r["bot"] for r in rows) == sorted(default)
    # Each level plays three pairs of 20 deals, each deal twice (seats rotated): 120 games.
    assert [r["games"] for r in rows] == ["120"] * 4
    assert rows[-1]["bot"] == "random"  # strongest first; random far behind
    pairs = _markdown_table(lines, "pair")
    assert sorted(p["pair"] for p in pairs) == sorted(
        f"{a} vs {b}" for i, a in enumerate(default) for b in default[i + 1:])
    assert str(target) in proc.stdout
    assert not (tmp_path / "docs").exists()  # --markdown replaces the default place


def test_run_ladder_rates_random_below_the_others() -> None:
    result = run_ladder("classic", 2, list(LEVELS), deals=30, seed=1)
    assert [r.name for r in result.ratings][-1] == "random"
    assert {r.name for r in result.ratings} == set(LEVELS)
    assert [r.games for r in result.ratings] == [120, 120, 120]
    assert [p.deals for p in result.pairs] == [60, 60, 60]
    assert [r.elo for r in result.ratings] == sorted((r.elo for r in result.ratings),
                                                     reverse=True)
    assert all(r.low <= r.high for r in result.ratings)
    by_pair = {(p.first, p.second): p for p in result.pairs}
    assert by_pair["random", "greedy"].points_diff < 0
    assert by_pair["random", "expert"].points_diff < 0
    assert result.to_json()["ratings"][0]["name"] == result.ratings[0].name
    again = run_ladder("classic", 2, list(LEVELS), deals=30, seed=1)
    assert again == result  # seeded: the bootstrap intervals too


def test_ladder_default_leaves_out_the_slow_master() -> None:
    proc = rummykit("ladder", "--help")
    assert proc.returncode == 0
    assert "master(think=0.2)" in proc.stdout  # how to name it


@pytest.mark.parametrize(("bots", "message"), [
    ("random,bogus", "'bogus'"),
    ("random,master(speed=3)", "'speed'"),
    ("random,master(think=0.2", "master(think=0.2"),
    ("random,greedy,random", "'random' is named twice"),
    ("master(think=0.2),master(think=0.20)", "named twice"),
    ("master,master(think=1)", "the same as 'master'"),  # 1 s is its default
    ("expert", "at least two"),
    ("", "at least two"),
])
def test_ladder_bad_bots_exit_2_naming_the_level(tmp_path: Path, bots: str, message: str
                                                 ) -> None:
    target = tmp_path / "l.md"
    proc = rummykit("ladder", "--bots", bots, "--deals", "2", "--markdown", str(target),
                    cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "cannot run the ladder" in proc.stderr
    assert proc.stdout == ""
    assert not target.exists()  # nothing played, nothing written


def test_ladder_bots_rates_just_those_levels(tmp_path: Path) -> None:
    proc = rummykit("ladder", "--bots", "random,greedy", "--deals", "10", "--json",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert sorted(r["name"] for r in out["ratings"]) == ["greedy", "random"]
    assert [r["games"] for r in out["ratings"]] == [20, 20]
    assert [(p["first"], p["second"]) for p in out["pairs"]] == [("random", "greedy")]
    assert not (tmp_path / "docs").exists()  # --json alone writes no file


def test_ladder_bootstrap_resamples_whole_deals() -> None:
    """Every resample is made of whole deals: a deal's rotation games are drawn together
    (drawing games one by one, as the ladder once did, splits them)."""
    groups = {(0, 1): [[(d, r) for r in range(3)] for d in range(8)],
              (0, 2): [[(100 + d, r) for r in range(3)] for d in range(5)]}
    rng = random.Random(7)
    drawn: set[int] = set()
    for _ in range(50):
        sample = resample_deals(groups, rng)
        assert sample.keys() == groups.keys()
        for pair, deals in groups.items():
            games = sample[pair]
            assert len(games) == sum(len(deal) for deal in deals)
            chunks = [games[k:k + 3] for k in range(0, len(games), 3)]
            assert all(chunk in deals for chunk in chunks)  # whole deals, in one piece
            drawn.update(game[0] for game in games)
    assert len(drawn) == 13  # with replacement, every deal drawn at some point
    again = resample_deals(groups, random.Random(7))
    assert again == resample_deals(groups, random.Random(7))  # seeded


def test_ladder_bootstrap_of_a_deal_split_evenly_has_no_spread() -> None:
    """Each deal won once and lost once (one win per rotation): resampling whole deals can
    only give an even score, so the interval is the point; resampling games one by one
    would spread it."""
    scores = {(0, 1): [[1.0, 0.0] for _ in range(20)]}
    rng = random.Random(0)
    for _ in range(20):
        assert sum(resample_deals(scores, rng)[(0, 1)]) == 20


def test_run_ladder_takes_bot_specs_as_names() -> None:
    result = run_ladder("classic", 2, ["greedy", "master(rollouts=2)"], deals=2, seed=3,
                        resamples=20)
    assert {r.name for r in result.ratings} == {"greedy", "master(rollouts=2)"}
    assert [r.games for r in result.ratings] == [4, 4]
    assert [(p.first, p.second, p.deals) for p in result.pairs] == [
        ("greedy", "master(rollouts=2)", 4)]
    assert "| master(rollouts=2) |" in result.markdown()
    assert "greedy vs master(rollouts=2)" in result.markdown()
    assert {r["name"] for r in result.to_json()["ratings"]} == {"greedy", "master(rollouts=2)"}


def test_run_ladder_refuses_bad_levels_before_playing() -> None:
    with pytest.raises(ValueError, match="named twice"):
        run_ladder("classic", 2, ["random", "greedy", " greedy"], deals=1)
    with pytest.raises(ValueError, match="unknown bot"):
        run_ladder("classic", 2, ["random", "greedy", "wizard"], deals=1)


# -- Ray -------------------------------------------------------------------------------


@pytest.mark.ray
@pytest.mark.long
def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray")
    config = Config(rules="classic", players=3, bots=LEVELS, count=12, seed=9, duplicate=True)
    local = simulate(config)
    local_outcomes = _sorted(list(run_jobs(config)))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(config, backend="ray")
        ray_outcomes = _sorted(list(run_jobs(config, backend="ray")))
        assert ray.is_initialized()  # the simulator leaves a cluster it did not start
    finally:
        ray.shutdown()
    assert on_ray.same_results(local)
    assert ray_outcomes == local_outcomes
