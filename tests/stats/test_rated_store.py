"""Ratings in the statistics store (issue: ratings and leaderboards, "Storage and
correctness"): a rated match is rated in the transaction that stores it (a failure
between the two stores neither), once; a match without an outcome is not rated; a person
who left is last; bots start at their ladder rating; two seats of one bot level move its
one rating; ``stats --rerate`` works out the same numbers again; ``stats --ratings`` shows
the leaderboards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rummykit.cli import main
from rummykit.db.models import GameRow, RatingChangeRow, RatingRow
from rummykit.ratings import Skill, bot_start, rate
from rummykit.rules import preset
from rummykit.stats import Store, rated

from .test_stats import _bot_match


def count(store: Store, row: Any) -> int:
    with Session(store.engine) as session:
        return int(session.scalar(select(func.count()).select_from(row)) or 0)


def test_a_person_against_two_bots_of_one_level(store: Store) -> None:
    rules = preset("classic")
    match = _bot_match(rules, ["expert", "greedy", "greedy"], seed=21)
    game_id = store.add_match(match, ["person", "bot", "bot"],
                              names=["Ann", "greedy", "greedy"], rated=True)
    changes = store.rating_changes(game_id)
    assert [c.seat for c in changes] == [0, 1, 2]
    # Worked out apart: the newcomer and the greedy level from the ladder, by the ranking
    # of the match's outcome (classic: the winner, then the higher totals).
    start = bot_start("classic", "greedy", 3)
    def above(a: int, b: int) -> bool:  # a placed above b
        if a == match.winner or b == match.winner:
            return a == match.winner and b != match.winner
        return match.totals[a] > match.totals[b]

    places = [1 + sum(above(o, s) for o in range(3)) for s in range(3)]
    after = rate([Skill(), start, start], places)
    assert [c.place for c in changes] == places
    assert changes[0].before == Skill().shown and changes[0].after == after[0].shown
    # The level's one rating: the mean of its two seats', one match more.
    board = {line.name: line for line in store.board("classic", "3-4")}
    mean = Skill((after[1].mu + after[2].mu) / 2, (after[1].sigma + after[2].sigma) / 2, 1)
    assert board["greedy"].rating == mean.shown and board["greedy"].matches == 1
    assert board["Ann"].kind == "person" and board["greedy"].kind == "bot"
    assert count(store, RatingRow) == 2 and count(store, RatingChangeRow) == 3


def test_unrated_abandoned_and_left(store: Store) -> None:
    rules = preset("classic")
    match = _bot_match(rules, ["expert", "greedy"], seed=3)
    # Not asked to rate: nothing moves.
    store.add_match(match, ["person", "bot"], names=["Ann", "greedy"])
    # The stand-ins finished it after everyone left: stored unfinished, not rated.
    store.add_match(match, ["person", "bot"], names=["Ann", "greedy"], rated=True,
                    abandoned=True)
    assert count(store, RatingChangeRow) == 0
    # Ann left and the table ended the match: her loss, whatever the totals.
    game_id = store.add_match(match, ["person", "person"], names=["Ann", "Bob"],
                              rated=True, left=[0])
    places = {c.seat: c.place for c in store.rating_changes(game_id)}
    assert places == {0: 2, 1: 1}
    # Alone against the computer, she left and it played her seat to the end: her loss
    # (stored unfinished, and rated).
    game_id = store.add_match(match, ["person", "bot"], names=["Ann", "greedy"],
                              rated=True, abandoned=True, left=[0])
    assert {c.seat: c.place for c in store.rating_changes(game_id)} == {0: 2, 1: 1}


def test_a_failure_before_the_commit_stores_and_rates_nothing(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    match = _bot_match(preset("classic"), ["expert", "greedy"], seed=5)

    def broken(session: Session, game: GameRow) -> list[rated.Change]:
        rated.rate_game(session, game)  # (the rows are written in the transaction...)
        raise ConnectionError("the database went away")  # (...which never commits)

    monkeypatch.setattr("rummykit.stats.rate_game", broken)
    with pytest.raises(ConnectionError):
        store.add_match(match, ["person", "bot"], names=["Ann", "greedy"], rated=True)
    assert count(store, GameRow) == count(store, RatingChangeRow) == count(store, RatingRow) == 0
    monkeypatch.undo()
    game_id = store.add_match(match, ["person", "bot"], names=["Ann", "greedy"], rated=True)
    assert len(store.rating_changes(game_id)) == 2
    # Rating the stored game again changes nothing (once per match).
    with Session(store.engine) as session, session.begin():
        game = session.get(GameRow, game_id)
        assert game is not None
        assert rated.rate_game(session, game) == []
    assert count(store, RatingChangeRow) == 2


def test_rerate_and_the_command(store: Store, db_url: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    rules = preset("one-deal")
    for seed in range(6):
        match = _bot_match(rules, ["expert", "random"], seed=seed)
        store.add_match(match, ["person", "bot"], names=["Ann", "random"], rated=True,
                        keys=["k" * 64, None])
    before = [line.to_json() for line in store.board("one-deal", "2")]
    assert [line["name"] for line in before] == ["Ann", "random"]
    assert store.rerate() == 6
    assert [line.to_json() for line in store.board("one-deal", "2")] == before
    assert main(["stats", "--ratings", "--json", "--db", db_url]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown == {"ratings": [{"preset": "one-deal", "group": "2", "lines": before}]}
    assert main(["stats", "--rerate", "--db", db_url]) == 0
    assert "from 6 rated matches" in capsys.readouterr().out
    assert main(["stats", "--ratings", "--db", db_url]) == 0
    table = capsys.readouterr().out
    assert "ratings: one-deal, 2 players" in table and "random (bot)" in table
    assert main(["stats", "--ratings", "--preset", "gin", "--db", db_url]) == 2
    assert "no preset 'gin'" in capsys.readouterr().err


def places_of(match: Any, players: int) -> list[int]:
    """Each seat's place in a classic match, worked out apart from the engine's ranking:
    the winner first, then the higher totals (equal totals tie)."""
    def above(a: int, b: int) -> bool:
        if a == match.winner or b == match.winner:
            return a == match.winner and b != match.winner
        return bool(match.totals[a] > match.totals[b])

    return [1 + sum(above(o, s) for o in range(players)) for s in range(players)]


def test_results_by_opponent(store: Store) -> None:
    """The statistics page's "results per opponent level": each opponent seat of each
    rated match is one result for Ann, won when she placed above it."""
    rules = preset("classic")
    expected: dict[str | None, list[int]] = {}
    for seed, kinds, names in [
            (5, ["person", "bot", "bot"], ["Ann", "greedy", "random"]),
            (6, ["person", "bot", "bot"], ["Ann", "greedy", "random"]),
            (7, ["person", "person", "bot"], ["Ann", "Bob", "greedy"])]:
        levels = [n if k == "bot" else "expert" for k, n in zip(kinds, names, strict=True)]
        match = _bot_match(rules, levels, seed=seed)
        store.add_match(match, kinds, names=names, rated=True)
        places = places_of(match, 3)
        for seat in (1, 2):
            level = names[seat] if kinds[seat] == "bot" else None
            tally = expected.setdefault(level, [0, 0, 0])
            tally[0 if places[0] < places[seat] else 1 if places[0] > places[seat] else 2] += 1
    found = rated.mine(store.engine, "name:Ann")
    assert [(r.preset, r.group, r.matches) for r in found.ratings] == [("classic", "3-4", 3)]
    got = {a.level: [a.won, a.lost, a.tied] for a in found.ratings[0].against}
    assert got == expected
    assert [a.level for a in found.ratings[0].against] == [None, "greedy", "random"]
    assert sum(map(sum, got.values())) == 6


def test_rerate_follows_the_order_matches_were_rated(store: Store) -> None:
    """With several server processes a match stored first may be rated second (it waited
    for the other's ratings): ``--rerate`` replays the order they were rated in, and a
    rating's history follows it."""
    rules = preset("one-deal")
    ids = []
    for seed in (2, 3, 4):  # Ann wins the first, greedy the others: the order matters
        match = _bot_match(rules, ["expert", "greedy"], seed=seed)
        ids.append(store.add_match(match, ["person", "bot"], names=["Ann", "greedy"]))
    with Session(store.engine) as session, session.begin():
        for game_id in reversed(ids):  # the last stored rated first
            game = session.get(GameRow, game_id)
            assert game is not None
            game.rated = True
            session.flush()
            assert rated.rate_game(session, game)
    before = [line.to_json() for line in store.board("one-deal", "2")]
    shown = [value for _, value in store.history("name:Ann", "one-deal", "2")]
    # Worked out apart, in the order rated.
    skill = Skill()
    expected = []
    for game_id in reversed(ids):
        with Session(store.engine) as session:
            game = session.get(GameRow, game_id)
            assert game is not None
            place = 1 if game.winner == 0 else 2
        with Session(store.engine) as session:
            bot = session.scalar(select(RatingChangeRow).where(
                RatingChangeRow.game_id == game_id, RatingChangeRow.seat == 1))
            assert bot is not None
            other = Skill(bot.mu_before, bot.sigma_before, 0)
        skill = rate([skill, other], [place, 3 - place])[0]
        expected.append(skill.shown)
    assert shown == expected
    assert store.rerate() == 3
    assert [line.to_json() for line in store.board("one-deal", "2")] == before
    assert [value for _, value in store.history("name:Ann", "one-deal", "2")] == shown
