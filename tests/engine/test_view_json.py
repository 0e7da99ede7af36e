"""A view's full JSON and back (``View.to_json(full=True)``, ``View.from_json``): what a
program at a server's table hears (docs/protocol.md) makes the engine's own view again.

The expectation is the engine's view itself: at many positions of random matches of every
preset, the view rebuilt from its JSON (sent through ``json`` text, as over the wire)
equals the view the engine made, field for field, knowledge included; a bot given either
chooses the same action; and a view's ``sight()`` is the engine's sight of the seat. Bad
JSON is refused with a ValueError that says what is wrong.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rummykit.bots import make_bot
from rummykit.engine.match import Match
from rummykit.engine.views import View, sight, view
from rummykit.errors import NotationError
from rummykit.rules import PRESETS


def wire(v: View, **options: Any) -> dict[str, Any]:
    text = json.dumps(v.to_json(full=True, **options))
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.mark.uncompiled
@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_a_full_views_json_makes_the_same_view(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}/{players}")
    greedy = make_bot("greedy")
    checked = 0
    for seed in range(2):
        match = Match(PRESETS[preset], players=players, seed=seed)
        for step in range(1500):
            if match.is_over:
                break
            if step % 6 == 0:
                for seat in range(players):
                    v = view(match, seat)
                    assert View.from_json(wire(v)) == v
                    # A view's sight is the engine's (the hand in the view's order).
                    engine = sight(match, seat)
                    assert v.sight() == engine._replace(hand=tuple(sorted(engine.hand)))
                    cut = view(match, seat, recent=5)
                    assert View.from_json(wire(cut)) == cut
                    checked += 1
            mover = view(match, match.deal.to_move)
            match.push(greedy.choose(mover, rng))
    assert checked > 30


@pytest.mark.parametrize("level", ["random", "greedy", "learned", "expert",
                                   "master(think=0.01,rollouts=4)"])
def test_a_bot_plays_the_same_from_the_rebuilt_view(level: str) -> None:
    """Same view, same random generator: the same action, turn after turn of a deal."""
    bot = make_bot(level)
    match = Match(PRESETS["classic"], players=2, seed=3)
    for turn in range(60):
        if match.is_over:
            break
        seat = match.deal.to_move
        v = view(match, seat)
        mine = bot.choose(v, random.Random(turn))
        rebuilt = bot.choose(View.from_json(wire(v)), random.Random(turn))
        assert rebuilt == mine
        match.push(mine)


def test_bad_json_is_refused_in_words() -> None:
    good = wire(view(Match(PRESETS["classic"], players=2, seed=1), 0))
    browser = view(Match(PRESETS["classic"], players=2, seed=1), 0).to_json()
    with pytest.raises(ValueError, match="full=True"):
        View.from_json(browser)
    with pytest.raises(ValueError, match="a view is a JSON object"):
        View.from_json([good])
    cases: list[tuple[str, object, type[Exception], str]] = [
        ("hand", ["ZZ"], NotationError, "not a card"),
        ("seat", "0", ValueError, "whole number"),
        ("phase", "sleep", ValueError, "the phase is one of"),
        ("legal_actions", ["fly away"], NotationError, ""),
        ("rules", "chess", ValueError, "chess"),
        ("match_over", 1, ValueError, "true or false"),
        ("knowledge", None, ValueError, "knowledge is a JSON object"),
        ("melds", [{"kind": "pair"}], ValueError, "set or run"),
        ("events", [[3, "flood"]], ValueError, "an event is one of"),
    ]
    for key, value, error, words in cases:
        with pytest.raises(error, match=words):
            View.from_json({**good, key: value})
    # Parts that do not agree: a bot would read them together.
    for key, value, words in [("seat", 5, "not one of its 2 seats"),
                              ("totals", [0, 0, 0], "one entry for each"),
                              ("to_move", -1, "not one of its 2 seats")]:
        with pytest.raises(ValueError, match=words):
            View.from_json({**good, key: value})
    with pytest.raises(ValueError, match="another seat's"):
        View.from_json({**good, "knowledge": {**good["knowledge"], "seat": 1}})
    missing = {k: v for k, v in good.items() if k != "totals"}
    with pytest.raises(ValueError, match="totals"):
        View.from_json(missing)
