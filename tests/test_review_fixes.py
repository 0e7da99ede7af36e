"""Regressions found in review: dead ends, one-meld lay-offs, record checks at load time,
simulator records that replay, the replay viewer's cost."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rummykit import record as records
from rummykit.engine import Deal, Layout, Match
from rummykit.errors import RecordError
from rummykit.rules import Rules, preset
from rummykit.sim import Config
from rummykit.sim.runner import Job, play_job


def test_seed003_required_last_discard_never_leaves_a_player_without_action() -> None:
    """RULES.md, no dead ends: under last_discard=required a rummy500 turn can always be
    finished, whatever legal actions were taken before."""
    rules = preset("rummy500").replace(last_discard="required")
    for seed in range(12):
        deal = Deal.start(rules, players=3, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            legal = deal.legal_actions()
            assert legal, f"seed {seed}: no legal action after {deal.history[-3:]}"
            lays = [a for a in legal if a.kind in ("meld", "layoff")]
            deal.push(rng.choice(lays) if lays and rng.random() < 0.7 else rng.choice(legal))


def _layout(rules: Rules, hands: list[str], stock_top: str, pile: str) -> Layout:
    from collections import Counter

    from rummykit.cards import Card, make_deck

    hand_cards = [tuple(int(Card.parse(w)) for w in h.split()) for h in hands]
    top = [int(Card.parse(w)) for w in stock_top.split()]
    pile_cards = tuple(int(Card.parse(w)) for w in pile.split())
    rest = Counter(int(c) for c in make_deck(rules.decks, rules.jokers))
    rest.subtract([c for h in hand_cards for c in h] + top + list(pile_cards))
    stock = tuple(top) + tuple(sorted(rest.elements()))
    return Layout(tuple(hand_cards), stock, pile_cards)


def test_seed003_layoff_then_meld_with_one_meld_per_turn() -> None:
    """Seed 003 with one meld per turn: a lay-off before the turn's meld leaves that meld
    possible, so the 4D taken from the pile can still go into 4D 5D 6D."""
    rules = preset("rummy500").replace(melds_per_turn="one")
    layout = _layout(rules, ["5D 6D 9C 9H KC QD JC 3C 7C 8H 10H 2D 2H",
                             "2S 3S 4S 6H 7H 9D 10D JD QS KS KD 4C 8C"], "AC 5S", "4D")
    deal = Deal(rules, players=2, dealer=0, layout=layout)
    # Seat 1 melds spades and throws AC; seat 0 draws 5S and throws it; seat 1 passes.
    for text in ("draw stock", "meld 2S 3S 4S", "discard AC", "draw stock", "discard 5S",
                 "draw stock", "discard 4C"):
        deal.apply(text)
    deal.apply("draw pile 4D")  # takes 4D 5S AC... the cards above 4D
    deal.apply("layoff 5S 1")
    deal.apply("meld 4D 5D 6D")
    assert deal.pending == -1


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli", "replay", *args],
                          capture_output=True, text=True, timeout=120)


def _finished_record() -> dict[str, object]:
    match = Match(preset("basic"), players=["A", "B"], seed=4)
    rng = random.Random(4)
    while len(match.finished) < 2:
        legal = match.deal.legal_actions()
        match.apply(rng.choice(legal))
    data: dict[str, object] = json.loads(records.dumps(records.from_match(match)))
    return data


@pytest.mark.parametrize("mutate", ["nested", "no deals", "empty pile", "deal 2 not the deck",
                                    "winner out of range"])
def test_record_problems_are_found_before_any_action(tmp_path: Path, mutate: str) -> None:
    """RECORD.md: a layout that is not the deck is refused before any action is read
    (exit 2), and so is every other malformed record."""
    data = _finished_record()
    deals = data["deals"]
    assert isinstance(deals, list)
    if mutate == "nested":
        text = "[" * 100_000 + "]" * 100_000
    else:
        deals[0]["actions"][0] = "discard KS" if deals[0]["actions"][0] != "discard KS" else (
            "discard QS")
        if mutate == "no deals":
            data["deals"] = []
        elif mutate == "empty pile":
            lay = deals[0]["layout"]
            lay["stock"].append(lay["pile"].pop())
        elif mutate == "deal 2 not the deck":
            lay = deals[1]["layout"]
            lay["stock"][0] = lay["pile"][0]
        elif mutate == "winner out of range":
            data["result"] = {"totals": [0, 0], "winner": 5}
        text = json.dumps(data)
    path = tmp_path / "r.json"
    path.write_text(text)
    proc = _run(str(path))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_classic_record_needs_a_seed_or_a_first_dealer() -> None:
    data = {"format": "rummy-record/1", "rules": "classic", "players": ["A", "B"],
            "deals": [{"actions": []}]}
    with pytest.raises(RecordError, match="seed"):
        records.from_json(data)


@pytest.mark.parametrize("rules", ["limited-stock", "basic"])
def test_simulator_records_replay_refills_included(rules: str) -> None:
    """RECORD.md: the seed drives any shuffle during a deal; a saved simulation record
    replays to the same result."""
    config = Config(rules=rules, players=2, bots=("random", "random"), count=12, seed=3,
                    keep_records=True)
    for index in range(config.count):
        outcome = play_job(config, Job(index, 0))
        assert outcome.record is not None
        replayed = records.replay(records.loads(outcome.record))
        assert [d.result.points for d in replayed.match.finished if d.result] == [
            tuple(p) for p in outcome.deal_points]


def test_replay_frames_name_who_played_each_action() -> None:
    """The viewer's frames: one per deal start and per action, each naming its player."""
    from rummykit.server.app import frames

    match = Match(preset("basic").replace(deals=3, target=None), players=["A", "B"], seed=2)
    rng = random.Random(2)
    while not match.is_over:
        match.apply(rng.choice(match.deal.legal_actions()))
    data = frames(records.from_match(match))
    expected: list[int | None] = []
    for deal in match.finished:
        expected += [None] + [seat for seat, _ in deal.moves]
    assert [f["by"] for f in data["frames"]] == expected


def test_web_tables_refuse_a_chosen_seed_unless_allowed(tmp_path: Path) -> None:
    """A chosen seed would show its chooser every card: the server shuffles by itself."""
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    body = {"rules": "classic", "seed": 7, "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "bot", "name": "Bob", "level": "random"}]}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}")) as client:
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 403 and "seed" in refused.json()["error"]
        made = client.post("/api/tables", json={k: v for k, v in body.items() if k != "seed"})
        assert made.status_code == 200
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.get(made.json()["id"]).seed >= 0
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", allow_seed=True)) as client:
        assert client.post("/api/tables", json=body).status_code == 200


def test_one_deal_rematch_is_dealt_by_the_winner(tmp_path: Path) -> None:
    """Seed 001: the winner of each hand deals the next; a rematch goes on that way."""
    import asyncio

    from rummykit.db import connect
    from rummykit.server.hub import Hub, SeatSpec

    engine = connect(f"sqlite:///{tmp_path / 'r.db'}")
    hub = Hub(engine, bot_delay=0)

    async def play() -> None:
        table = hub.create("one-deal", [SeatSpec("person", "Ann"), SeatSpec("person", "Bob")],
                           seed=11)
        await hub.join(table, 0)
        await hub.join(table, 1)
        rng = random.Random(11)
        while not table.match.is_over:
            seat = table.match.deal.to_move
            await hub.act(table, seat, str(rng.choice(table.match.deal.legal_actions())))
        winner = table.match.finished[-1].result
        assert winner is not None
        new = hub.get(await hub.rematch(table, 0))
        expected = winner.winner if winner.winner is not None else (
            table.match.deal.dealer + 1) % 2
        assert new.match.deal.dealer == expected
        reloaded = Hub(engine, bot_delay=0)
        assert reloaded.get(new.id).match.deal.dealer == expected

    # A thread of its own: browser tests may leave an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, play()).result()
    engine.dispose()
