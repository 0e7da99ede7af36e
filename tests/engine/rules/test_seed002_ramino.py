"""Seed 002, variant "Italian Ramino": the `ramino` preset, row by row of RULES.md.

The seed's whole text for it: «Italian Ramino. Two decks and four ★, eight cards each. Your
first meld must be worth at least 50 points, a ★ stands for any card and is worth 25. The
cards left in your hand count against you, and whoever goes past the agreed score is out.»
"""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.cards import JOKER, format_cards, make_deck
from rummykit.engine import Deal, DealResult, Layout, Match
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError, RecordError, RulesError
from rummykit.rules import preset

from ._build_variants import cards, deal, hand, match, no_shuffle, play, snapshot

R = preset("ramino")

LOSER = "AS AH KD QC JH JK 5C 2D"  # 11+11+10+10+10+25+5+2 = 84
LOSER2 = "3C 3D 4S 6H 8D 10C JK 7S"  # 3+3+4+6+8+10+25+7 = 66
OUT8 = "10H JH QH KH 9S 9D 9C 9H"  # 40 + 36: opens and goes out discarding the 4D drawn
OUT_ACTIONS = ("draw stock", "meld 10H JH QH KH", "meld 9S 9D 9C 9H", "discard 4D")


# -- players, deck, deal -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed002_ramino_two_to_six_players_eight_cards_each(players: int) -> None:
    """«Two decks and four ★, eight cards each» for 2-6 players."""
    m = Match(R, players=players, seed=2)
    assert [len(h) for h in m.deal.hands] == [8] * players
    assert len(m.deal.pile) == 1
    assert len(m.deal.stock) == 108 - 8 * players - 1


@pytest.mark.parametrize("players", [1, 7])
def test_seed002_ramino_other_player_counts_refused(players: int) -> None:
    """RULES.md: ramino is for 2-6 players."""
    with pytest.raises(RulesError):
        Match(R, players=players, seed=2)


def test_seed002_ramino_two_decks_and_four_jokers() -> None:
    """«Two decks and four ★»: 108 cards, each natural card twice."""
    d = Deal.start(R, players=4, dealer=0, seed=12)
    counts = Counter(d.all_cards())
    assert d.card_count() == 108
    assert counts[int(JOKER)] == 4
    assert all(counts[c] == 2 for c in range(52))


def test_seed002_ramino_dealt_one_at_a_time_then_pile_card(monkeypatch) -> None:
    """RULES.md: one card at a time clockwise from the dealer's left, then one face up."""
    no_shuffle(monkeypatch)
    d = Deal.start(R, players=2, dealer=1, seed=0)
    assert d.to_move == 0
    assert hand(d, 0) == "AC 3C 5C 7C 9C JC KC 2D"
    assert hand(d, 1) == "2C 4C 6C 8C 10C QC AD 3D"
    assert format_cards(d.pile) == "4D"
    d.apply("draw stock")
    assert format_cards(d.hands[0][-1:]) == "5D"


def test_seed002_ramino_player_left_of_dealer_starts_play_goes_clockwise() -> None:
    """RULES.md: the player on the dealer's left starts; play goes clockwise."""
    d = Deal.start(R, players=6, dealer=4, seed=3)
    seen = []
    for _ in range(7):
        seen.append(d.to_move)
        d.apply("draw stock")
        d.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
    assert seen == [5, 0, 1, 2, 3, 4, 5]


def test_seed002_ramino_next_dealer_is_the_player_on_the_left() -> None:
    """RULES.md: the next deal is dealt by the player on the left."""
    m = match(R, [OUT8, LOSER, LOSER2], "4S", "4D", dealer=2)
    play(m, *OUT_ACTIONS)
    assert len(m.finished) == 1
    assert m.deal.dealer == 0
    assert m.deal.to_move == 1


# -- melds -------------------------------------------------------------------------------


def test_seed002_ramino_ace_high_or_low_in_runs() -> None:
    """RULES.md: the ace is low or high in a run (A-2-3 and Q-K-A)."""
    d = deal(R, ["QH KH AH 9S 9D 9C AC 2C", LOSER], "4S", "3C")
    play(d, "draw stock", "meld QH KH AH", "meld 9S 9D 9C", "meld AC 2C 3C")
    assert [(m.low, m.high) for m in d.table] == [(12, 14), (0, 0), (1, 3)]
    assert d.is_over


def test_seed002_ramino_runs_never_go_round_the_corner() -> None:
    """RULES.md: not round the corner (no K-A-2), also with a joker for the ace."""
    d = deal(R, ["KD AD 2D JK 5S 6S 7S 8S", LOSER], "4C", "4S")
    d.apply("draw stock")
    before = snapshot(d)
    for meld in ("KD AD 2D", "KD JK 2D", "JK AD 2D"):
        with pytest.raises(IllegalActionError, match="never K-A-2"):
            d.apply(f"meld {meld}")
        assert snapshot(d) == before


def test_seed002_ramino_set_suits_all_different() -> None:
    """RULES.md: a set is 3-4 of a rank, all suits different (two 7H in a set refused)."""
    d = deal(R, ["7H 7H 7C JK KS KD KC QH", LOSER], "4S", "7D")
    d.apply("draw stock")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="the suits of a set must all differ"):
        d.apply("meld 7H 7H 7C")
    with pytest.raises(IllegalActionError, match="a set is 3 to 4 cards of one rank"):
        d.apply("meld 7H 7H 7C 7D JK")
    assert snapshot(d) == before
    play(d, "meld KS KD KC", "meld 7H 7C JK")
    assert d.table[1].kind == "set"
    with pytest.raises(IllegalActionError, match="at most 4 cards"):
        play(d, "layoff 7D 2", "layoff 7H 2")
    d.apply("discard QH")
    assert format_cards(d.hands[0]) == "7H"


def test_seed002_ramino_joker_in_a_set_stands_for_a_missing_suit() -> None:
    """«a ★ stands for any card»; RULES.md: in a set, for a suit the set lacks."""
    d = deal(R, ["7H 7H 7C JK KS KD KC QH", LOSER], "4S", "7D")
    play(d, "draw stock", "meld KS KD KC", "meld 7H 7C JK")
    assert d.table[1].represented() == ["7C", "7H", "7D"]
    assert d.turn_value == 30 + 21  # the joker counts as a 7
    d.apply("layoff 7D 2")
    assert d.table[1].represented() == ["7C", "7D", "7H", "7S"]


def test_seed002_ramino_joker_place_in_a_run_fixes_its_card() -> None:
    """RULES.md: `meld 5H JK 7H` — in a run the joker's place fixes the card (6H)."""
    d = deal(R, ["5H JK 7H 10S JS QS KS 2C", LOSER], "4S", "9D")
    d.apply("draw stock")
    d.apply("meld 10S JS QS KS")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="written in order"):
        d.apply("meld 5H 7H JK")
    assert snapshot(d) == before
    d.apply("meld 5H JK 7H")
    assert d.table[1].represented() == ["5H", "6H", "7H"]
    assert (d.table[1].low, d.table[1].high) == (5, 7)
    assert d.turn_value == 40 + 18
    d.apply("discard 2C")
    assert format_cards(d.hands[0]) == "9D"


def test_seed002_ramino_runs_of_three_or_more_in_suit() -> None:
    """RULES.md: a run is 3+ cards of one suit in sequence."""
    d = deal(R, ["10S JS QS KS 5H 6H 6D 7H", LOSER], "4S", "7C")
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="3 or more cards in sequence"):
        d.apply("meld 5H 6H")
    with pytest.raises(IllegalActionError, match="a run cards of one suit"):
        d.apply("meld 5H 6D 7C")
    play(d, "meld 10S JS QS KS", "meld 5H 6H 7H")
    assert [(m.kind, m.low, m.high) for m in d.table] == [("run", 10, 13), ("run", 5, 7)]


# -- the draw and the turn ---------------------------------------------------------------

DRAW = ["9H 2C 5D 7S KC QD 3H 8S", LOSER]


def test_seed002_ramino_draw_top_of_stock_or_top_of_pile() -> None:
    """RULES.md: draw as in 000, the top of the stock or the top of the pile."""
    d = deal(R, DRAW, "4C 9H", "JD")
    assert format_cards(view(d, 1).pile) == "9H"
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="only the top card of the pile"):
        d.apply("draw pile 4C")
    assert snapshot(d) == before
    d.apply("draw pile")
    assert format_cards(d.pile) == "4C"
    assert d.taken == cards("9H")[0]
    e = deal(R, DRAW, "4C 9H", "JD")
    e.apply("draw stock")
    assert sorted(e.hands[0]) == sorted(cards("9H 2C 5D 7S KC QD 3H 8S JD"))


def test_seed002_ramino_taken_discard_may_not_be_discarded_nor_its_twin() -> None:
    """RULES.md: the taken discard may not be discarded that turn (as 000), nor its twin."""
    d = deal(R, DRAW, "4C 9H", "JD")
    d.apply("draw pile")
    assert sorted(d.hands[0]).count(cards("9H")[0]) == 2
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="took 9H from the pile this turn"):
        d.apply("discard 9H")
    assert snapshot(d) == before
    d.apply("discard 2C")
    assert d.to_move == 1


def test_seed002_ramino_any_number_of_melds_per_turn() -> None:
    """RULES.md: any number of melds per turn (here three in the opening turn)."""
    d = deal(R, ["QH KH AH AC 2C 3C 9S 9D", LOSER], "4S", "9C")
    play(d, "draw stock", "meld QH KH AH", "meld AC 2C 3C", "meld 9S 9D 9C")
    assert len(d.table) == 3


def test_seed002_ramino_go_out_by_discarding_the_last_card() -> None:
    """RULES.md: go out as in 000 (here by discarding the last card)."""
    d = deal(R, [OUT8, LOSER], "4S", "4D")
    play(d, *OUT_ACTIONS)
    assert d.is_over
    assert d.result == DealResult(0, True, (0, 84))


def test_seed002_ramino_go_out_by_melding_the_last_card() -> None:
    """RULES.md: go out as in 000 (here by melding the last card)."""
    d = deal(R, [OUT8, LOSER], "4S", "8H")
    play(d, "draw stock", "meld 9S 9D 9C", "meld 8H 9H 10H JH QH KH")
    assert d.is_over
    assert d.result == DealResult(0, True, (0, 84))


# -- lay-offs and jokers ------------------------------------------------------------------


def test_seed002_ramino_layoff_joker_high_end_and_low_end() -> None:
    """RULES.md: `layoff JK 1` extends run 1 at the high end, `layoff JK 1 low` at the low end."""
    d = deal(R, ["10H JH QH KH 9S 9D 9C JK", LOSER], "4S", "JK")
    play(d, "draw stock", "meld 10H JH QH KH", "meld 9S 9D 9C", "layoff JK 1")
    assert d.table[0].represented() == ["10H", "JH", "QH", "KH", "AH"]
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="cannot go higher"):
        d.apply("layoff JK 1")
    assert snapshot(d) == before
    d.apply("layoff JK 1 low")
    assert d.table[0].represented() == ["9H", "10H", "JH", "QH", "KH", "AH"]
    assert (d.table[0].low, d.table[0].high) == (9, 14)
    assert d.is_over
    assert d.result == DealResult(0, True, (0, 84))


def test_seed002_ramino_layoffs_only_after_opening_also_later_in_the_opening_turn() -> None:
    """RULES.md: lay-offs only once opened (later in the opening turn too), not counted in 50."""
    d = deal(R, ["10H JH QH KH 9S 9D 9C 4D", "5C 6C 7C 8C KS KD KC 9H"], "4S", "10H 2S")
    d.apply("draw stock")
    d.apply("meld JH QH KH")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="opening: lay-offs come once you have opened"):
        d.apply("layoff 10H 1")
    assert snapshot(d) == before
    d.apply("meld 9S 9D 9C")
    assert d.opened(0)
    play(d, "layoff 10H 1", "discard 4D")  # later in the opening turn
    assert format_cards(d.hands[0]) == "10H"
    # seat 1 lays off on seat 0's meld, but only once opened
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="opening"):
        d.apply("layoff 9H 1")
    d.apply("meld 5C 6C 7C 8C")
    with pytest.raises(IllegalActionError, match="opening"):
        d.apply("layoff 9H 1")
    assert d.turn_value == 26
    d.apply("meld KS KD KC")
    assert d.turn_value == 56
    d.apply("layoff 9H 1")
    assert d.turn_value == 56  # the lay-off does not count toward the opening
    assert d.table[0].layers == (1, 0, 0, 0, 0)
    d.apply("discard 2S")
    assert d.result == DealResult(1, True, (10, 0))


# -- the opening ---------------------------------------------------------------------------


def test_seed002_ramino_opening_values_ace_11_but_1_at_the_low_end() -> None:
    """«first meld ... at least 50 points»: A 11, but 1 at a run's low end; no discard below 50."""
    d = deal(R, ["QH KH AH AC 2C 3C 9S 9D", LOSER], "4S", "9C")
    play(d, "draw stock", "meld QH KH AH")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="worth 31; a first melding turn needs 50"):
        d.apply("discard 9S")
    assert snapshot(d) == before
    d.apply("meld AC 2C 3C")
    with pytest.raises(IllegalActionError, match="worth 37"):
        d.apply("discard 9S")
    assert not d.opened(0)
    d.apply("meld 9S 9D 9C")
    assert d.opened(0)
    assert d.result == DealResult(0, True, (0, 84))


def test_seed002_ramino_aces_in_a_set_count_11_toward_the_opening() -> None:
    """RULES.md: an ace in a set counts 11: A A A (33) + 5C 6C 7C (18) = 51 opens."""
    d = deal(R, ["AS AH AD 5C 6C 7C 9S 2D", LOSER], "4S", "KH")
    play(d, "draw stock", "meld AS AH AD")
    assert d.turn_value == 33
    d.apply("meld 5C 6C 7C")
    assert d.turn_value == 51
    assert d.opened(0)
    d.apply("discard 9S")
    assert d.to_move == 1


def test_seed002_ramino_opening_of_exactly_50_opens() -> None:
    """«at least 50 points»: 40 + (1+2+3+4) = 50 is enough; then the discard is allowed."""
    d = deal(R, ["10H JH QH KH AC 2C 3C 4C", LOSER], "4S", "9S")
    play(d, "draw stock", "meld 10H JH QH KH")
    with pytest.raises(IllegalActionError, match="worth 40"):
        d.apply("discard 9S")
    d.apply("meld AC 2C 3C 4C")
    assert d.turn_value == 50
    assert d.opened(0)
    d.apply("discard 9S")
    assert d.result == DealResult(0, True, (0, 84))


def test_seed002_ramino_discard_allowed_once_opened_in_the_turn() -> None:
    """RULES.md: discard refused while the turn's melds are worth 1..49, allowed at 50+."""
    d = deal(R, ["10H JH QH KH 9S 9D 9C 4D", LOSER], "4S", "2S")
    play(d, "draw stock", "meld 10H JH QH KH")
    with pytest.raises(IllegalActionError, match="worth 40"):
        d.apply("discard 4D")
    play(d, "meld 9S 9D 9C", "discard 4D")
    assert d.to_move == 1
    assert format_cards(d.hands[0]) == "2S"


def test_seed002_ramino_no_melds_then_any_discard() -> None:
    """RULES.md: the 50 is about a melding turn; a turn without melds ends with a discard."""
    d = deal(R, ["10H JH QH KH 2C 3C 4C 8S", LOSER], "4S", "9S")
    play(d, "draw stock", "discard 9S")
    assert d.to_move == 1
    assert not d.opened(0)


def test_seed002_ramino_jokers_count_as_the_card_they_stand_for_in_the_opening() -> None:
    """«a ★ stands for any card»: in the opening it counts as that card (6H, high AS, low AD)."""
    d = deal(R, ["5H JK 7H QS KS JK JK 2D", "AS AH KD QC JH 8D 5C 2D"], "4S", "3D")
    play(d, "draw stock", "meld 5H JK 7H")
    assert d.turn_value == 5 + 6 + 7
    d.apply("meld QS KS JK")
    assert d.turn_value == 18 + 10 + 10 + 11
    assert not d.opened(0)
    d.apply("meld JK 2D 3D")
    assert d.table[2].represented() == ["AD", "2D", "3D"]
    assert d.opened(0)
    # 11+11+10+10+10+8+5+2
    assert d.result == DealResult(0, True, (0, 67))


def test_seed002_ramino_meld_after_which_50_cannot_be_reached_is_refused() -> None:
    """RULES.md: a meld after which the opening can no longer reach 50 is refused (here 49)."""
    d = deal(R, ["10H JH QH KH 2C 3C 4C 8S", LOSER], "4S", "9S")
    d.apply("draw stock")
    before = snapshot(d)
    for meld in ("10H JH QH KH", "2C 3C 4C", "JH QH KH"):
        with pytest.raises(IllegalActionError, match="could no longer reach 50"):
            d.apply(f"meld {meld}")
        assert snapshot(d) == before


def test_seed002_ramino_meld_spoiling_the_opening_is_refused() -> None:
    """RULES.md: a meld leaving cards that cannot bring the turn to 50 is refused; others not."""
    d = deal(R, ["8H 9H 10H JH 9S 9D 2C 3C", LOSER], "4S", "9C")
    d.apply("draw stock")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="could no longer reach 50"):
        d.apply("meld 9H 9S 9D 9C")
    assert snapshot(d) == before
    play(d, "meld 8H 9H 10H JH", "meld 9S 9D 9C", "discard 2C")
    assert d.opened(0)


# -- the stock runs out --------------------------------------------------------------------


def test_seed002_ramino_stock_out_pile_turned_over_without_shuffle() -> None:
    """RULES.md: stock empty: take the top discard, or turn the pile over unshuffled and draw."""
    d = deal(R, [OUT8, LOSER], "QS", "KS", rest_to="pile")
    play(d, "draw stock", "discard KS")
    assert d.stock == []
    assert not d.is_over
    old_pile = list(d.pile)
    e = d.copy()
    e.apply("draw pile")  # the top discard may be taken instead
    assert format_cards(e.hands[1][-1:]) == "KS"
    d.apply("draw stock")
    assert d.turn_overs_used == 1
    assert d.hands[1][-1] == old_pile[0]  # the pile's bottom card is the new top
    assert d.stock[::-1] == old_pile[1:]
    assert d.pile == []
    assert d.card_count() == 108


def test_seed002_ramino_stalemate_after_three_turn_overs() -> None:
    """RULES.md: after 3 turn-overs, the next empty stock ends the deal: stalemate, no points."""
    d = deal(R, [OUT8, LOSER], "QS", "KS", rest_to="pile")
    pile = len(d.pile)
    turns = 0
    while not d.is_over:
        d.apply("draw stock")
        d.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
        turns += 1
    assert d.turn_overs_used == 3
    assert turns == 1 + pile + 1 + 2 * (pile + 1)
    assert d.result == DealResult(None, False, (0, 0))


# -- scoring -----------------------------------------------------------------------------


def test_seed002_ramino_hand_values_ace_11_court_10_joker_25() -> None:
    """«a ★ ... is worth 25»; RULES.md: in hand A 11, J Q K 10, others pip."""
    d = deal(R, [OUT8, "AS AH KD QC JH JK 5C 2D", "3C 3D 4S 6H 8D 10C JK 7S"], "4S", "4D")
    play(d, *OUT_ACTIONS)
    assert d.result is not None
    assert d.result.points == (0, 11 + 11 + 10 + 10 + 10 + 25 + 5 + 2,
                               3 + 3 + 4 + 6 + 8 + 10 + 25 + 7)


def test_seed002_ramino_hand_points_count_against_the_loser_winner_adds_0() -> None:
    """«The cards left in your hand count against you»: added to each loser, winner adds 0."""
    m = match(R, [OUT8, LOSER, LOSER2], "4S", "4D", totals=[10, 20, 30])
    play(m, *OUT_ACTIONS)
    assert m.finished[0].result == DealResult(0, True, (0, 84, 66))
    assert m.totals == [10, 104, 96]


def test_seed002_ramino_no_rummy_bonus() -> None:
    """RULES.md: no rummy bonus by default: going out in one turn adds the plain hand totals."""
    d = deal(R, [OUT8, LOSER, LOSER2], "4S", "4D")
    play(d, *OUT_ACTIONS)
    assert d.result == DealResult(0, True, (0, 84, 66))


# -- the match -----------------------------------------------------------------------------


def _three_player_match(totals: list[int]) -> Match:
    m = match(R, [OUT8, LOSER, LOSER2], "4S", "4D", totals=totals)
    play(m, *OUT_ACTIONS)
    return m


def test_seed002_ramino_total_of_101_stays_in() -> None:
    """«whoever goes past the agreed score is out»: out above 101, so exactly 101 stays in."""
    m = _three_player_match([0, 17, 0])
    assert m.totals == [0, 101, 66]
    assert m.active == [True, True, True]
    assert not m.is_over


def test_seed002_ramino_total_past_101_is_out() -> None:
    """«whoever goes past the agreed score is out»: 102 is out; the next deal skips him."""
    m = _three_player_match([0, 18, 0])
    assert m.totals == [0, 102, 66]
    assert m.active == [True, False, True]
    assert not m.is_over
    assert m.deal.dealer == 0
    assert m.deal.hands[1] == []
    assert m.deal.to_move == 2  # seat 1 is skipped
    assert [len(h) for h in m.deal.hands] == [8, 0, 8]


def test_seed002_ramino_last_player_left_wins() -> None:
    """RULES.md: a player whose total is > 101 is out; the last one left wins."""
    m = _three_player_match([0, 18, 36])
    assert m.totals == [0, 102, 102]
    assert m.active == [True, False, False]
    assert m.is_over
    assert m.winner == 0
    assert m.end == "elimination"


def test_seed002_ramino_next_dealer_skips_players_who_are_out() -> None:
    """RULES.md: the deal passes to the player on the left among those still in."""
    m = match(R, [LOSER2, LOSER, OUT8], "4C", "5S 4D", dealer=0, totals=[0, 50, 0])
    play(m, "draw stock", "discard 5S", *OUT_ACTIONS)
    assert m.finished[0].result == DealResult(2, True, (66, 84, 0))
    assert m.totals == [66, 134, 0]
    assert m.active == [True, False, True]
    assert m.deal.dealer == 2
    assert m.deal.to_move == 0


# -- illegal actions ---------------------------------------------------------------------


def test_seed002_ramino_illegal_actions_name_the_rule_and_change_nothing() -> None:
    """RULES.md: an illegal action is refused naming the rule, and the state is unchanged."""
    d = deal(R, ["9H 9C 5D 7S KC QD 3H 8S", LOSER], "4C 9H", "JD")
    refused = {
        "meld 9H 9C 9H": "must draw first",
        "end": "not a move in these rules",
        "draw pile 4C": "only the top card of the pile",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before
    d.apply("draw pile")
    refused = {
        "meld 9H 9H 9C": "the suits of a set must all differ",
        "discard 9H": "may not discard it",
        "layoff 9C 1": "opening: lay-offs come once you have opened",
        "meld JK 5D 7D": "JK is not in your hand",
        "meld 9H 9C JK": "JK is not in your hand",
        "draw stock": "drawn already",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before


def test_seed002_ramino_deck_size_in_layouts() -> None:
    """«Two decks and four ★»: the layout must hold exactly 2x52 + 4 jokers."""
    deck = [int(c) for c in make_deck(2, 4)]
    assert len(deck) == 108
    hands = (tuple(deck[:8]), tuple(deck[8:16]))
    Deal(R, players=2, dealer=1, layout=Layout(hands, tuple(deck[17:]), (deck[16],)))
    with pytest.raises(RecordError, match="not the deck: JK missing"):
        Deal(R, players=2, dealer=1, layout=Layout(hands, tuple(deck[17:107]), (deck[16],)))
