"""Game records (RECORD.md): round trips, replays of whole matches in every preset, records
that stop mid-deal, and ``rummykit replay`` with every exit code.

Exit codes: 0 a valid record (every action legal, any written result reproduced); 1 an
illegal action (``deal D, action N (TEXT): RULE``) or a result that differs; 2 a file that
is not a valid record (bad JSON, unknown preset / option / key, bad card, a layout that is
not the deck).
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit import record
from rummykit.cards import Card
from rummykit.engine import Action, Match
from rummykit.errors import IllegalActionError, RecordError
from rummykit.rules import PRESETS, Rules, preset

ILLEGAL_LINE = re.compile(r"^deal (\d+), action (\d+) \((.+)\): (.+)$")


def choose(actions: list[Action], rng: random.Random) -> Action:
    """A meld or lay-off three times in four when there is one (matches then end in a few
    deals in every preset), else any legal action."""
    actions = sorted(actions, key=str)
    lays = [a for a in actions if a.kind in ("meld", "layoff")]
    pool = lays if lays and rng.random() < 0.75 else actions
    return pool[rng.randrange(len(pool))]


def play_match(rules: Rules, players: int, seed: int, *, stop_after: int | None = None) -> Match:
    """A match played to its end (or for ``stop_after`` actions)."""
    match = Match(rules, players=players, seed=seed)
    rng = random.Random(seed)
    played = 0
    while not match.is_over and (stop_after is None or played < stop_after):
        match.apply(choose(match.deal.legal_actions(), rng))
        played += 1
        assert played < 100_000
    return match


def run_replay(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "replay", str(path), *extra],
        capture_output=True, text=True, timeout=120, check=False,
    )


def write(tmp_path: Path, data: object, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def record_json(match: Match) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(record.dumps(record.from_match(match)))
    return data


@pytest.fixture(scope="module")
def finished_classic() -> dict[str, Any]:
    """A finished three-player classic match of a few deals, as JSON."""
    match = play_match(preset("classic"), 3, seed=7)
    assert match.is_over and len(match.finished) >= 2
    return record_json(match)


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trip(name: str) -> None:
    match = play_match(preset(name), 3, seed=21, stop_after=150)
    rec = record.from_match(match)
    text = record.dumps(rec)
    again = record.loads(text)
    assert again == rec
    assert record.dumps(again) == text  # stable
    assert json.loads(text)["format"] == "rummy-record/1"
    # Field by field, not only through dumps.
    assert again.rules == rec.rules and again.rules.preset_name == name
    assert again.players == rec.players and again.seed == rec.seed
    assert again.result == rec.result
    assert len(again.deals) == len(rec.deals)
    for a, b in zip(again.deals, rec.deals, strict=True):
        assert (a.actions, a.dealer, a.layout) == (b.actions, b.dealer, b.layout)
        assert a.result == b.result


def test_round_trip_of_a_variant_and_of_bytes(tmp_path: Path) -> None:
    rules = Rules.parse("classic(melds_per_turn=many,aces=high-low)")
    match = play_match(rules, 2, seed=3, stop_after=40)
    rec = record.from_match(match)
    data = json.loads(record.dumps(rec))
    assert data["rules"] == {"preset": "classic", "aces": "high-low", "melds_per_turn": "many"}
    assert record.loads(record.dumps(rec).encode("utf-8")) == rec
    path = tmp_path / "r.json"
    record.dump(rec, path)
    assert record.load(path) == rec
    assert path.read_text(encoding="utf-8") == record.dumps(rec)


def test_records_that_differ_are_not_equal() -> None:
    match = play_match(preset("basic"), 2, seed=5, stop_after=30)
    rec = record.from_match(match)
    other = record.loads(record.dumps(rec))
    other.deals[0].actions.pop()
    assert other != rec


def test_hand_written_record_keys_in_document_order(finished_classic: dict[str, Any]) -> None:
    text = record.dumps(record.loads(json.dumps(finished_classic)))
    data = json.loads(text)
    assert list(data) == ["format", "rules", "players", "seed", "deals", "result"]
    assert list(data["deals"][0]) == ["dealer", "layout", "actions", "result"]
    assert list(data["deals"][0]["layout"]) == ["hands", "stock", "pile"]


# -- replays of whole matches ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_finished_match_replays_to_the_same_result(name: str, players: int) -> None:
    match = play_match(preset(name), players, seed=40 + players)
    assert match.is_over
    rec = record.loads(record.dumps(record.from_match(match)))
    assert rec.result == {"totals": match.totals, "winner": match.winner}
    outcome = record.replay(rec)
    assert not outcome.mid_deal
    replayed = outcome.match
    assert replayed.is_over
    assert replayed.totals == match.totals
    assert replayed.winner == match.winner
    assert [d.result for d in replayed.finished] == [d.result for d in match.finished]
    assert [d.history for d in replayed.finished] == [d.history for d in match.finished]
    data = outcome.to_json()
    assert data["result"] == {"totals": match.totals, "winner": match.winner}
    assert data["deals"] == [d.result.to_json() for d in match.finished if d.result]
    assert "state" not in data


def test_record_without_layouts_is_dealt_from_the_seed() -> None:
    """A deal without a layout is the one the engine deals from the seed and its index."""
    match = play_match(preset("basic"), 3, seed=9)
    data = record_json(match)
    for deal in data["deals"]:
        del deal["layout"]
    outcome = record.replay(record.loads(json.dumps(data)))
    assert outcome.match.totals == match.totals


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_record_stopping_mid_deal(name: str, tmp_path: Path) -> None:
    match = play_match(preset(name), 3, seed=33, stop_after=25)
    assert not match.is_over
    deal = match.deal
    rec = record.from_match(match)
    outcome = record.replay(rec)
    assert outcome.mid_deal
    state = outcome.to_json()["state"]
    assert state["deal"] == len(match.finished) + 1
    assert state["to_move"] == deal.to_move
    assert state["phase"] == deal.phase
    assert state["hand_sizes"] == [len(h) for h in deal.hands]
    assert state["stock"] == len(deal.stock)
    assert len(state["table"]) == len(deal.table)
    path = write(tmp_path, record.dumps(rec))
    proc = run_replay(path)
    assert proc.returncode == 0, proc.stderr
    assert "stopped in deal" in proc.stdout
    proc = run_replay(path, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["state"] == state
    assert out["result"] == {"totals": match.totals, "winner": None}


def test_record_stopping_after_the_first_action(tmp_path: Path) -> None:
    match = play_match(preset("classic"), 2, seed=1, stop_after=1)
    path = write(tmp_path, record.dumps(record.from_match(match)))
    proc = run_replay(path, "--json")
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)["state"]
    sizes = [10, 10]
    sizes[match.deal.to_move] = 11
    assert state["phase"] == "play" and state["hand_sizes"] == sizes


# -- rummykit replay: exit 0 -------------------------------------------------------------


@pytest.mark.parametrize("name", ["basic", "rummy500", "ramino"])
def test_cli_replay_valid(name: str, tmp_path: Path) -> None:
    match = play_match(preset(name), 3, seed=12)
    path = write(tmp_path, record.dumps(record.from_match(match)))
    proc = run_replay(path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert f"deal {len(match.finished)}:" in proc.stdout
    assert "totals:" in proc.stdout
    proc = run_replay(path, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["result"] == {"totals": match.totals, "winner": match.winner}
    assert out["deals"] == [d.result.to_json() for d in match.finished if d.result]


# -- exit 1: illegal actions and results that differ ---------------------------------------


def state_before(data: dict[str, Any], deal_no: int, action_no: int) -> Match:
    """The match just before action ``action_no`` of deal ``deal_no`` (the engine's)."""
    probe = copy.deepcopy(data)
    probe["deals"] = probe["deals"][:deal_no]
    probe["deals"][-1]["actions"] = probe["deals"][-1]["actions"][: action_no - 1]
    probe["deals"][-1].pop("result", None)
    probe.pop("result", None)
    outcome = record.replay(record.loads(json.dumps(probe)))
    assert outcome.mid_deal
    return outcome.match


def _illegal_at(data: dict[str, Any], deal_no: int, action_no: int, text: str) -> str:
    """Replace one action (dropping what follows) and return the rule the engine names
    for it, found by playing it directly."""
    match = state_before(data, deal_no, action_no)
    with pytest.raises(IllegalActionError) as err:
        match.deal.apply(Action.parse(text))
    deal = data["deals"][deal_no - 1]
    deal["actions"] = [*deal["actions"][: action_no - 1], text]
    deal.pop("result", None)
    data["deals"] = data["deals"][:deal_no]
    data.pop("result", None)
    return str(err.value)


def test_cli_illegal_action_message(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    # In deal 2, the first action after the first turn taken in a play phase: discard a
    # card that the player does not hold (one that another player holds).
    actions = data["deals"][1]["actions"]
    number = next(n for n in range(3, len(actions) + 1)
                  if state_before(data, 2, n).deal.phase == "play")
    deal = state_before(data, 2, number).deal
    absent = str(next(Card(c) for c in deal.hands[(deal.to_move + 1) % 3]))
    text = f"discard {absent}"
    rule = _illegal_at(data, 2, number, text)
    path = write(tmp_path, data)
    proc = run_replay(path)
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert "\n" not in line
    assert line == f"deal 2, action {number} ({text}): {rule}"
    assert rule == f"{absent} is not in your hand"
    m = ILLEGAL_LINE.match(line)
    assert m is not None and m.groups() == ("2", str(number), text, rule)
    # The same reason through the library.
    with pytest.raises(record.ReplayError, match=re.escape(line)):
        record.replay(record.loads(json.dumps(data)))


@pytest.mark.parametrize(
    ("action_no", "text", "reason"),
    [
        (1, "meld 2C 3C 4C", "draw first"),  # a play action in the draw phase
        (2, "draw stock", "drawn already"),  # a second draw
        (2, "layoff 9H 3", "no meld 3"),  # a meld number that does not exist
    ],
)
def test_cli_illegal_action_kinds(
    finished_classic: dict[str, Any], tmp_path: Path, action_no: int, text: str, reason: str
) -> None:
    data = copy.deepcopy(finished_classic)
    deal = data["deals"][0]
    mover = (deal["dealer"] + 1) % 3
    if text.startswith("layoff"):
        text = f"layoff {deal['layout']['hands'][mover][0]} 3"
    rule = _illegal_at(data, 1, action_no, text)
    assert reason in rule
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"deal 1, action {action_no} ({text}): {rule}"


def test_cli_wrong_deal_result(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    written = data["deals"][1]["result"]
    found = dict(written)
    wrong = dict(written, points=[p + 7 for p in written["points"]])
    data["deals"][1]["result"] = wrong
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    message = proc.stderr.strip()
    assert "\n" not in message
    assert message.startswith("deal 2")
    # Both the written and the found values are named.
    assert json.dumps(found["points"]) in message
    assert json.dumps(wrong["points"]) in message


def test_cli_wrong_deal_winner(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    result = data["deals"][0]["result"]
    result["rummy"] = not result["rummy"]
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    assert proc.stderr.startswith("deal 1")
    assert "rummy" in proc.stderr


def test_cli_wrong_match_result(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    totals = data["result"]["totals"]
    data["result"]["totals"] = [t + 1 for t in totals]
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    message = proc.stderr.strip()
    assert "match result" in message
    assert json.dumps([t + 1 for t in totals]) in message
    assert json.dumps(totals) in message
    # A wrong winner too.
    data = copy.deepcopy(finished_classic)
    data["result"]["winner"] = None if data["result"]["winner"] is not None else 0
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    assert "match result" in proc.stderr


def test_cli_result_written_for_a_deal_that_is_not_over(
    finished_classic: dict[str, Any], tmp_path: Path
) -> None:
    data = copy.deepcopy(finished_classic)
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:5]
    data["deals"] = data["deals"][:1]
    del data["result"]
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 1
    assert proc.stderr.startswith("deal 1")


# -- exit 2: not a valid record ------------------------------------------------------------


def _expect_invalid(tmp_path: Path, data: object, *needles: str) -> str:
    proc = run_replay(write(tmp_path, data))
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, (needle, proc.stderr)
    # The same through the library: a RecordError.
    with pytest.raises(RecordError):
        text = data if isinstance(data, str) else json.dumps(data)
        record.replay(record.loads(text))
    return proc.stderr


def test_cli_bad_json(tmp_path: Path) -> None:
    _expect_invalid(tmp_path, '{"format": "rummy-record/1", "rules": ', "JSON")


def test_cli_not_an_object(tmp_path: Path) -> None:
    _expect_invalid(tmp_path, "[1, 2, 3]")


def test_cli_missing_file(tmp_path: Path) -> None:
    proc = run_replay(tmp_path / "nowhere.json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_cli_unknown_preset(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["rules"] = "gin-rummy"
    _expect_invalid(tmp_path, data, "gin-rummy")


def test_cli_unknown_option(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["rules"] = {"preset": "classic", "knock_card": 10}
    _expect_invalid(tmp_path, data, "knock_card")


def test_cli_bad_option_value(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["rules"] = {"preset": "classic", "aces": "middle"}
    _expect_invalid(tmp_path, data, "aces")


def test_cli_bad_card_in_layout(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["deals"][0]["layout"]["stock"][3] = "1H"
    _expect_invalid(tmp_path, data, "1H")


def test_cli_duplicate_card_in_layout(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    layout = data["deals"][0]["layout"]
    duplicated = layout["hands"][0][0]
    layout["stock"][0] = duplicated
    _expect_invalid(tmp_path, data, duplicated)


def test_cli_missing_card_in_layout(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    layout = data["deals"][0]["layout"]
    gone = layout["stock"].pop()
    _expect_invalid(tmp_path, data, gone, "missing")


def test_cli_wrong_hand_size(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    layout = data["deals"][0]["layout"]
    layout["stock"].append(layout["hands"][1].pop())  # still the deck, one hand short
    _expect_invalid(tmp_path, data, "6 cards", "7")


def test_cli_wrong_number_of_hands(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    layout = data["deals"][0]["layout"]
    layout["stock"].extend(layout["hands"].pop())
    _expect_invalid(tmp_path, data, "hands")


def test_cli_bad_layout_in_a_later_deal(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    layout = data["deals"][1]["layout"]
    layout["stock"][0] = layout["stock"][1]
    _expect_invalid(tmp_path, data, "deal 2")


@pytest.mark.parametrize(
    ("where", "key"),
    [("record", "comment"), ("deal", "notes"), ("layout", "discards"), ("result", "margin")],
)
def test_cli_unknown_key(
    finished_classic: dict[str, Any], tmp_path: Path, where: str, key: str
) -> None:
    data = copy.deepcopy(finished_classic)
    target = {
        "record": data,
        "deal": data["deals"][0],
        "layout": data["deals"][0]["layout"],
        "result": data["deals"][0]["result"],
    }[where]
    target[key] = 1
    _expect_invalid(tmp_path, data, key)


def test_cli_wrong_format(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["format"] = "rummy-record/2"
    _expect_invalid(tmp_path, data, "rummy-record/2")


def test_cli_bad_action_notation(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["deals"][0]["actions"][2] = "discard ZZ"
    _expect_invalid(tmp_path, data, "deal 1, action 3", "ZZ")


def test_cli_bad_meld_number_notation(finished_classic: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(finished_classic)
    data["deals"][0]["actions"][2] = "layoff 8H ²"
    _expect_invalid(tmp_path, data, "deal 1, action 3")


def test_cli_refill_rules_need_a_seed(tmp_path: Path) -> None:
    match = play_match(preset("limited-stock"), 2, seed=4, stop_after=10)
    data = record_json(match)
    del data["seed"]
    _expect_invalid(tmp_path, data, "seed")


def test_record_without_seed_or_layout_is_invalid() -> None:
    match = play_match(preset("basic"), 2, seed=4, stop_after=10)
    data = record_json(match)
    del data["seed"]
    del data["deals"][0]["layout"]
    with pytest.raises(RecordError, match="seed"):
        record.loads(json.dumps(data))
