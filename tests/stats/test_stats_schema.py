"""The statistics schema's second revision: deals each seat played and each game's
scoring (a penalty game's best total is its lowest)."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from rummykit.db import MIGRATIONS
from rummykit.engine import DealResult, Match
from rummykit.rules import Rules, preset
from rummykit.stats import Store


def _alembic(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


def test_upgrade_from_the_first_revision_keeps_old_games(db_url: str) -> None:
    """Games stored under revision 0001 count every deal for every seat after the upgrade,
    and ramino games keep their lowest total as the best."""
    _alembic(db_url, "0001")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, created_at, source, unit, rules, preset, players, finished,"
            " winner, deals) VALUES (1, CURRENT_TIMESTAMP, 'play', 'match', 'ramino', 'ramino',"
            " 2, TRUE, 0, 4)"))
        conn.execute(text(
            "INSERT INTO game_seats (game_id, seat, player, kind, total, won, deals_won,"
            " deal_points, rummies) VALUES (1, 0, 'Ann', 'person', 40, TRUE, 3, 40, 0),"
            " (1, 1, 'Bob', 'person', 120, FALSE, 1, 120, 0)"))
    engine.dispose()
    store = Store(db_url)  # runs the remaining migrations
    try:
        lines = {line.player: line for line in store.lines()}
    finally:
        store.close()
    assert lines["Ann"].deals == 4 and lines["Ann"].points_per_deal == 10.0
    assert lines["Ann"].best_score == 40 and lines["Bob"].best_score == 120


def test_seats_out_of_a_ramino_match_count_only_the_deals_they_played(db_url: str) -> None:
    """Seed 002, Ramino: whoever goes past the agreed score is out; the deals after that
    are not his, so they do not lower his points per deal."""
    rules = preset("ramino")
    match = Match(rules, players=["Ann", "Bob", "Cid"], seed=1)
    results = [DealResult(0, False, (0, 60, 10)), DealResult(0, False, (0, 50, 10)),
               DealResult(2, False, (20, 0, 0))]
    store = Store(db_url)
    try:
        store.add_game(rules=rules, names=match.names, kinds=["person"] * 3, results=results,
                       totals=[20, 110, 20], winner=None, finished=False,
                       played=[3, 2, 3])
        lines = {line.player: line for line in store.lines()}
    finally:
        store.close()
    assert lines["Bob"].deals == 2 and lines["Bob"].points_per_deal == 55.0
    assert lines["Ann"].deals == 3


def test_best_score_follows_the_game_scoring_not_the_preset_name(db_url: str) -> None:
    """A basic game played with penalty scoring: its best total is the lowest one."""
    rules = Rules.parse("basic(scoring=penalty)")
    store = Store(db_url)
    try:
        for totals in ([30, 80], [10, 120]):
            store.add_game(rules=rules, names=["Ann", "Bob"], kinds=["person"] * 2,
                           results=[DealResult(0, False, (0, totals[1]))], totals=totals,
                           winner=0, finished=True)
        lines = {line.player: line for line in store.lines()}
    finally:
        store.close()
    assert lines["Ann"].best_score == 10 and lines["Bob"].best_score == 80


def test_names_longer_than_the_column_are_refused_on_every_database(db_url: str) -> None:
    store = Store(db_url)
    try:
        with pytest.raises(ValueError, match="1 to 80 characters"):
            store.add_game(rules=preset("basic"), names=["A" * 81, "Bob"],
                           kinds=["person"] * 2, results=[], totals=[0, 0], winner=None,
                           finished=False)
        assert store.lines() == []
    finally:
        store.close()
