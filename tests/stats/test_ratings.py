"""Ratings (issue: ratings and leaderboards): a match's ranking by each preset's outcome,
the player-count groups, the shown scale, the bots' starting points from the ladder, and
the Weng-Lin update checked against its formulas worked out here apart."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from rummykit.bots import LEVELS
from rummykit.ratings import (
    BETA,
    LADDER,
    MU,
    PROVISIONAL_MATCHES,
    SETTLED,
    SIGMA,
    Skill,
    bot_start,
    display,
    group,
    ranking,
    rate,
)
from rummykit.rules import PRESETS, preset

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_classic_ranks_the_winner_then_the_highest_totals() -> None:
    # RULES.md, classic: the highest total wins the match; the others follow by total.
    assert ranking(preset("classic"), [50, 120, 80, 80], winner=1) == [4, 1, 2, 2]


def test_rummy500_ranks_by_melded_totals() -> None:
    # Seed 500 Rum ("Игра до 500"): the first to 500 wins; more points is better.
    assert ranking(preset("rummy500"), [510, 320, 455], winner=0) == [1, 3, 2]


def test_penalty_presets_rank_fewer_points_higher_and_later_knock_outs_higher() -> None:
    rules = preset("ramino")
    # Seed Ramino: a player whose penalty points pass 100 is out; the last one in wins.
    # Seat 0 went out after 4 deals, seats 1 and 3 after 6 (seat 3 with more points),
    # seat 2 won in the 7th: later out is higher, then fewer points.
    assert ranking(rules, [103, 104, 60, 121], winner=2, played=[4, 6, 7, 6]) == [4, 2, 1, 3]
    # Where nobody is knocked out (every deal played by all) fewer points rank higher.
    assert ranking(rules, [30, 12, 55], winner=1, played=[3, 3, 3]) == [2, 1, 3]


def test_a_player_who_left_is_last_and_a_match_without_a_winner_ranks_by_totals() -> None:
    rules = preset("classic")
    # The person at seat 2 left and the others ended the match: that seat is last, the
    # others by their totals (nobody won the match by its rules).
    assert ranking(rules, [60, 60, 300], winner=None, left={2}) == [1, 1, 3]
    assert ranking(rules, [60, 10, 300], winner=1, left={0, 2}) == [2, 1, 2]  # (tied last)
    # Nobody won (equal totals at the top): by the totals alone, ties as ties.
    assert ranking(rules, [60, 60, 30], winner=None) == [1, 1, 3]


def test_groups_of_player_counts() -> None:
    assert [group(n) for n in range(2, 7)] == ["2", "3-4", "3-4", "5-6", "5-6"]
    with pytest.raises(ValueError):
        group(7)


def test_the_scale() -> None:
    assert display(MU, SETTLED) == 1500
    # A newcomer's uncertainty shows lower; fewer than PROVISIONAL_MATCHES are provisional.
    assert display(MU, SIGMA) < 1000
    assert Skill(matches=PROVISIONAL_MATCHES - 1).provisional
    assert not Skill(matches=PROVISIONAL_MATCHES).provisional
    # Settled players d shown points apart: the model gives Elo's chance for d points.
    strong, weak = Skill(MU + 3, SETTLED), Skill(MU, SETTLED)
    d = strong.shown - weak.shown
    c = math.sqrt(2 * SETTLED**2 + 2 * BETA**2)
    model = math.exp(strong.mu / c) / (math.exp(strong.mu / c) + math.exp(weak.mu / c))
    elo = 1 / (1 + 10 ** (-d / 400))
    assert model == pytest.approx(elo, abs=0.01)


def test_two_newcomers_move_by_the_weng_lin_formula() -> None:
    # Weng & Lin (2011), Plackett-Luce with one player per team, two players: with the
    # dynamics term tau added to each variance first, c^2 = sum of variances + 2 beta^2,
    # each mu moves by sigma^2 / c * (won - p), p the model's chance of winning.
    tau = MU / 300
    variance = SIGMA**2 + tau**2
    c = math.sqrt(2 * variance + 2 * BETA**2)
    winner, loser = rate([Skill(), Skill()], [1, 2])
    assert winner.mu - MU == pytest.approx(variance / c * 0.5, rel=1e-6)
    assert loser.mu - MU == pytest.approx(-variance / c * 0.5, rel=1e-6)
    assert winner.sigma < SIGMA and loser.sigma < SIGMA
    assert winner.matches == loser.matches == 1
    tied = rate([Skill(), Skill()], [1, 1])
    assert tied[0].mu == pytest.approx(MU) and tied[1].mu == pytest.approx(MU)


def test_a_four_player_match_moves_the_winner_up_and_the_last_down() -> None:
    after = rate([Skill()] * 4, [1, 2, 3, 4])
    moves = [s.mu - MU for s in after]
    assert moves[0] > moves[1] > moves[2] > moves[3]
    assert moves[0] > 0 > moves[3]
    assert sum(moves) == pytest.approx(0, abs=1e-9)
    with pytest.raises(ValueError):
        rate([Skill()], [1])


def test_bots_start_at_their_ladder_rating() -> None:
    for preset_name, levels in LADDER.items():
        for level, by_players in levels.items():
            assert bot_start(preset_name, level, 2).shown == by_players[2]
            assert bot_start(preset_name, level, 6).shown == by_players[4]
    assert bot_start("classic", "master(think=2)", 3) == bot_start("classic", "master", 4)
    assert bot_start("my-house-rules", "expert", 2) == Skill()


def test_the_ladder_table_is_the_ladder_page() -> None:
    """LADDER is copied from the ladder page bench/ladders.py wrote: the two agree."""
    text = (DOCS / "ladder.md").read_text()
    found: dict[str, dict[str, dict[int, int]]] = {}
    for part in re.split(r"^### ", text, flags=re.M)[1:]:
        head = re.match(r"Bot ladder: `([a-z0-9-]+)`, (\d) players", part)
        assert head is not None
        preset_name, players = head.group(1), int(head.group(2))
        for name, rating in re.findall(r"^\| ([a-z]+)(?:\([^)]*\))? \| (\d+) \|", part,
                                       flags=re.M):
            found.setdefault(preset_name, {}).setdefault(name, {})[players] = int(rating)
    assert found == LADDER


def test_every_bot_level_has_a_ladder_rating_in_every_preset() -> None:
    """Each level a table can seat (the learned one too) starts where the ladders measured
    it, in every preset, not as a newcomer."""
    for preset_name in PRESETS:
        for level in LEVELS:
            for players in (2, 4):
                start = bot_start(preset_name, level, players)
                assert start != Skill(), (preset_name, level, players)
                assert start.shown == LADDER[preset_name][level][2 if players == 2 else 4]
