"""What a spectator sees (``views.public_view``): only what every player sees alike.

The check is independent of how the public view is made: at many positions of random
matches of every preset, the public view equals every seat's own view with that seat's
private parts (its number, its hand, its legal actions) taken out. Whatever one seat sees
and another does not (a hand, a card drawn from the stock) would differ between the
seats' views and fail the check; the stock's order is in no seat's view.
"""

from __future__ import annotations

import random

import pytest

from rummykit.engine.match import Match
from rummykit.engine.views import public_view, view
from rummykit.rules import PRESETS

PRIVATE = ("seat", "hand", "legal_actions")


def without_private(json: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in json.items() if k not in PRIVATE}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_the_public_view_is_what_every_seat_sees_alike(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}/{players}")
    checked = 0
    for seed in range(3):
        match = Match(PRESETS[preset], players=players, seed=seed)
        for step in range(400):
            if match.is_over:
                break
            if step % 7 == 0:
                public = public_view(match, recent=20)
                assert public["seat"] is None and public["hand"] == []
                assert public["legal_actions"] == []
                for seat in range(players):
                    assert without_private(public) == without_private(
                        view(match, seat, recent=20).to_json())
                checked += 1
            legal = match.deal.legal_actions()
            match.apply(rng.choice(legal))
    assert checked > 10
