"""Seed 004 (Rummy with stock-refill limits): the `limited-stock` preset, row by row."""

from __future__ import annotations

import pytest

from rummykit.cards import format_cards, make_deck
from rummykit.engine import Deal, DealResult, Match
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError, RulesError
from rummykit.rules import preset

from ._build_variants import cards, deal, hand, match, no_shuffle, play, snapshot

R = preset("limited-stock")

# Seat 0 goes out in its first turn with the KD it draws (rummy); 1 and 2 hold 42 and 45.
OUT = ["2C 3C 4C 5C 9D 9H 9S", "AS AH KC QD JH 8S 2S", "3D 4D 6H 7S 10C 10H 5S"]
OUT_ACTIONS = ("draw stock", "meld 2C 3C 4C 5C", "meld 9D 9H 9S", "discard KD")


# -- players, deck, deal -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed004_two_to_six_players(players: int) -> None:
    """«Rummy can be played with 2 to 6 players»."""
    m = Match(R, players=players, seed=4)
    assert m.players == players
    assert m.deal.card_count() == 52


@pytest.mark.parametrize("players", [1, 7])
def test_seed004_other_player_counts_refused(players: int) -> None:
    """«Rummy can be played with 2 to 6 players»: 1 or 7 are refused."""
    with pytest.raises(RulesError):
        Match(R, players=players, seed=4)


def test_seed004_standard_52_card_deck() -> None:
    """«using the standard 52-card deck»."""
    d = Deal.start(R, players=4, dealer=0, seed=9)
    assert sorted(d.all_cards()) == list(range(52))
    assert R.deck_size == 52


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_seed004_cards_dealt_by_player_count(players: int, size: int) -> None:
    """«2-player game: 10 cards per player ... 5-player game: 6»: 10/7/7/6/6."""
    d = Deal.start(R, players=players, dealer=0, seed=8)
    assert [len(h) for h in d.hands] == [size] * players
    assert len(d.pile) == 1
    assert len(d.stock) == 52 - players * size - 1


def test_seed004_dealt_one_at_a_time_then_one_card_turned_up(monkeypatch) -> None:
    """«One card is turned up ... the start of the discard pile», after dealing one at a time."""
    no_shuffle(monkeypatch)
    d = Deal.start(R, players=2, dealer=0, seed=0)
    assert hand(d, 1) == "AC 3C 5C 7C 9C JC KC 2D 4D 6D"
    assert hand(d, 0) == "2C 4C 6C 8C 10C QC AD 3D 5D 7D"
    assert format_cards(d.pile) == "8D"
    d.apply("draw stock")
    assert format_cards(d.hands[1][-1:]) == "9D"


def test_seed004_player_left_of_dealer_starts_play_goes_clockwise() -> None:
    """RULES.md: the player left of the dealer starts (2 players: the non-dealer), clockwise."""
    assert Deal.start(R, players=2, dealer=1, seed=1).to_move == 0
    d = Deal.start(R, players=5, dealer=3, seed=1)
    seen = []
    for _ in range(6):
        seen.append(d.to_move)
        d.apply("draw stock")
        d.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
    assert seen == [4, 0, 1, 2, 3, 4]


def test_seed004_next_dealer_is_the_player_on_the_left() -> None:
    """RULES.md: the next deal is dealt by the player on the left."""
    m = match(R, ["2C 3C 4C 9D 9H 9S 5C", OUT[1], OUT[2]], "4S", "KD 8C 8H 9C", dealer=2)
    play(m, "draw stock", "meld 2C 3C 4C", "discard KD",
         "draw stock", "discard 8C", "draw stock", "discard 8H",
         "draw stock", "meld 9C 9D 9H 9S", "layoff 5C 1")
    assert m.totals == [87, 0, 0]
    assert len(m.finished) == 1
    assert m.deal.dealer == 0
    assert m.deal.to_move == 1


# -- melds -------------------------------------------------------------------------------


def test_seed004_ace_low_only() -> None:
    """«Aces worth 1 point each» and RULES.md: the ace is low only (A-2-3, not Q-K-A)."""
    d = deal(R, ["JH QH KH AH AC 2C 3C", "KD QD 8S 8C 7D 6D 2S", "10H JS 9H 4D 3H 3S 2D"],
             "4S", "KC")
    d.apply("draw stock")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match=r"ace low only \(A-2-3\)"):
        d.apply("meld QH KH AH")
    assert snapshot(d) == before
    d.apply("meld JH QH KH")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match=r"aces are low only"):
        d.apply("layoff AH 1")
    assert snapshot(d) == before
    d.apply("meld AC 2C 3C")
    assert (d.table[1].low, d.table[1].high) == (1, 3)
    d.apply("discard KC")
    assert format_cards(d.hands[0]) == "AH"


def test_seed004_sets_of_three_or_more_at_most_four_with_one_deck() -> None:
    """«a group of three or more cards of the same rank»: 3+, at most 4 with one deck."""
    d = deal(R, ["9C 9D 9H 4C 4D KS 2H", "KD QD 8S 8C 7D 6D 2S", "JH JS 10H 4H 3H 3S 2D"],
             "4S", "9S")
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="a set is 3 to 4 cards of one rank"):
        d.apply("meld 4C 4D")
    play(d, "meld 9C 9D 9H", "layoff 9S 1")
    assert (d.table[0].kind, len(d.table[0].cards)) == ("set", 4)
    with pytest.raises(RulesError):
        R.replace(set_max=5)


def test_seed004_runs_of_three_or_more_in_suit() -> None:
    """«a sequence of three or more consecutive cards of the same suit»."""
    d = deal(R, ["9S 10S JS QS 5H 6H 6D", "KD QD 8S 8C 7D 2D 2S", "JH 4S 10H 4D 3H 3S QC"],
             "4C", "7C")
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="3 or more cards in sequence"):
        d.apply("meld 5H 6H")
    with pytest.raises(IllegalActionError, match="a run cards of one suit"):
        d.apply("meld 5H 6D 7C")
    with pytest.raises(IllegalActionError, match="in sequence"):
        d.apply("meld 9S 10S QS")
    d.apply("meld 9S 10S JS QS")
    assert (d.table[0].kind, d.table[0].low, d.table[0].high) == ("run", 9, 12)


# -- the turn ----------------------------------------------------------------------------

DRAW = ["9C 9D 5S 6S 2H 3D KC", "KD QD 8S 8C 7D 6D 2S", "JH JS 10H 4H 3H 3S QC"]


def test_seed004_draw_top_of_stock_or_top_of_pile_only() -> None:
    """«picking up a card from either the top of the stock or the top of the discard pile»."""
    d = deal(R, DRAW, "2C 9H 4D", "JD")
    assert format_cards(view(d, 1).pile) == "4D"  # only the top is shown
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="only the top card of the pile"):
        d.apply("draw pile 9H")
    assert snapshot(d) == before
    d.apply("draw pile 4D")
    assert format_cards(d.pile) == "2C 9H"
    assert d.taken == cards("4D")[0]
    e = deal(R, DRAW, "2C 9H 4D", "JD")
    e.apply("draw stock")
    assert sorted(e.hands[0]) == sorted(cards("9C 9D 5S 6S 2H 3D KC JD"))
    assert format_cards(e.pile) == "2C 9H 4D"


def test_seed004_any_number_of_melds_per_turn() -> None:
    """«can create a meld and lay off a card any number of times in a single turn»."""
    d = deal(R, OUT, "4S", "KD")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9D 9H 9S")
    assert d.turn_melds == 2
    assert len(d.table) == 2


def test_seed004_first_meld_may_be_anything() -> None:
    """RULES.md: no minimum for a first meld."""
    d = deal(R, ["AC 2C 3C 9D 5H 7S KS", "KD QD 8S 8C 7D 6D 2S", "JH JS 10H 4D 3H 3S 2D"],
             "4S", "QC")
    assert d.opened(0)
    play(d, "draw stock", "meld AC 2C 3C", "discard QC")
    assert d.to_move == 1


def test_seed004_lay_off_on_another_players_meld() -> None:
    """«Add a card in their hand to a meld that has previously been created by any player»."""
    d = deal(R, ["5H 6H 7H 2C 4D 9S KC", "8H 3S 10C KD QS 4C 6D", "JH JS 10H 8D 3H 5S QC"],
             "4S", "JC 9C")
    play(d, "draw stock", "meld 5H 6H 7H", "discard JC", "draw stock", "layoff 8H 1")
    assert format_cards(d.table[0].cards) == "5H 6H 7H 8H"
    assert d.table[0].layers == (0, 0, 0, 1)
    d.apply("discard KD")


def test_seed004_taken_discard_may_not_be_discarded() -> None:
    """«picking up a card from the discard pile, they may not discard that card in the same turn»"""
    d = deal(R, OUT, "4S QS", "KD")
    d.apply("draw pile")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="may not discard it"):
        d.apply("discard QS")
    assert snapshot(d) == before
    d.apply("meld 2C 3C 4C 5C")
    with pytest.raises(IllegalActionError, match="unless it is your last card"):
        d.apply("discard QS")
    d.apply("discard 9D")  # another card may be discarded
    assert d.to_move == 1


def test_seed004_taken_discard_may_be_discarded_as_the_last_card() -> None:
    """«unless it is the only card remaining in the player's hand»: then it goes out."""
    d = deal(R, OUT, "4S QS", "KD")
    play(d, "draw pile", "meld 2C 3C 4C 5C", "meld 9D 9H 9S")
    assert format_cards(d.hands[0]) == "QS"
    d.apply("discard QS")
    assert d.is_over
    assert d.result == DealResult(0, True, (2 * (42 + 45), 0, 0))


def test_seed004_go_out_by_discarding_the_last_card() -> None:
    """«until one player has gotten rid of all their cards»: here by discarding the last."""
    d = deal(R, OUT, "4S", "KD")
    play(d, *OUT_ACTIONS)
    assert d.is_over
    assert d.result is not None and d.result.winner == 0


def test_seed004_go_out_by_melding_the_last_card() -> None:
    """«get rid of all of their cards by discarding them or by creating melds»: by melding."""
    d = deal(R, OUT, "4S", "9C")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    assert d.is_over
    assert d.result == DealResult(0, True, (174, 0, 0))


def test_seed004_go_out_by_laying_off_the_last_card() -> None:
    """RULES.md: the last card melded, laid off or discarded (here laid off)."""
    d = deal(R, ["2C 3C 4C 9D 9H 9S 5C", OUT[1], OUT[2]], "4S", "6C")
    play(d, "draw stock", "meld 2C 3C 4C", "meld 9D 9H 9S", "layoff 5C 1", "layoff 6C 1")
    assert d.is_over
    assert d.result == DealResult(0, True, (174, 0, 0))


# -- the stock runs out ------------------------------------------------------------------

TWO = ["2C 3C 4C 5C 9D 9H 9S JH QH KH", "AS AD 3S 4S 6D 7D 8C 10S 5H 5D"]  # seat 1: 50


def test_seed004_stock_refilled_from_pile_but_its_top() -> None:
    """«cards from the discard pile, other than the top card, are shuffled ... the new stock»."""
    d = deal(R, TWO, "QS", "KS", rest_to="pile")
    d.apply("draw stock")
    assert d.stock == []
    old_pile = list(d.pile)
    d.apply("discard KS")
    assert d.to_move == 1
    assert d.refills_used == 1
    assert format_cards(d.pile) == "KS"
    assert sorted(d.stock) == sorted(old_pile)
    assert len(d.stock) == 31
    new_top_first = d.stock[::-1]
    assert new_top_first not in (old_pile, old_pile[::-1])  # shuffled
    assert d.card_count() == 52


def test_seed004_refill_shuffle_is_reproducible_from_the_seed() -> None:
    """RULES.md: the same rules, seed and actions give the same deal, every time."""
    stocks = []
    for seed in (7, 7, 8):
        d = deal(R, TWO, "QS", "KS", rest_to="pile", seed=seed)
        play(d, "draw stock", "discard KS")
        stocks.append(list(d.stock))
    assert stocks[0] == stocks[1]
    assert stocks[0] != stocks[2]


def _draw_and_discard_until_over(d: Deal) -> int:
    turns = 0
    while not d.is_over:
        d.apply("draw stock")
        d.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
        turns += 1
    return turns


@pytest.mark.parametrize(("players", "limit"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 3)])
def test_seed004_refill_limit_by_players_then_stalemate(players: int, limit: int) -> None:
    """«2-player game: 1 time ... 5-player: 2 ... 6-player: 3», then stalemate, no points."""
    size = R.hand_size_for(players)
    deck = [int(c) for c in make_deck()]
    hands = [format_cards(deck[i * size:(i + 1) * size]) for i in range(players)]
    stock_top = format_cards(deck[players * size:players * size + 1])
    d = deal(R, hands, "", stock_top, rest_to="pile")
    pile = 52 - players * size - 1
    turns = _draw_and_discard_until_over(d)
    assert d.refills_used == limit
    # one stock card, then each refill brings back all of the pile but its top
    assert turns == 1 + limit * pile
    assert d.result == DealResult(None, False, (0,) * players)


def test_seed004_stalemate_scores_nothing_and_the_match_goes_on() -> None:
    """«If the round ends in stalemate, no one receives any point in the round»."""
    m = match(R, TWO, "QS", "KS", rest_to="pile", totals=[30, 40])
    turns = 0
    d = m.deal
    while m.deal is d:
        m.apply("draw stock")
        m.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
        turns += 1
    assert turns == 1 + 31
    assert d.result == DealResult(None, False, (0, 0))
    assert m.totals == [30, 40]
    assert not m.is_over
    assert m.deal.dealer == 0


# -- scoring -----------------------------------------------------------------------------


def test_seed004_winner_scores_the_hand_totals_of_the_others() -> None:
    """«adding up the values of all the cards remaining in the other players' hands»."""
    d = deal(R, ["2C 3C 4C 9D 9H 9S 5C", OUT[1], OUT[2]], "4S", "KD 8C 8H 9C")
    play(d, "draw stock", "meld 2C 3C 4C", "discard KD",
         "draw stock", "discard 8C", "draw stock", "discard 8H",
         "draw stock", "meld 9C 9D 9H 9S", "layoff 5C 1")
    assert d.is_over
    assert d.result == DealResult(0, False, (42 + 45, 0, 0))


def test_seed004_card_values_ace_1_court_10_others_pip() -> None:
    """«face value, with Aces worth 1 point each and Jacks, Queens, and Kings worth 10»."""
    d = deal(R, OUT, "4S", "9C")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    assert d.result is not None
    # AS AH KC QD JH 8S 2S = 1+1+10+10+10+8+2; 3D 4D 6H 7S 10C 10H 5S = 45
    assert d.result.points[0] == 2 * ((1 + 1 + 10 + 10 + 10 + 8 + 2) + 45)


def test_seed004_rummy_doubles_the_score() -> None:
    """«the player is said to have gone rummy, and their score for the round doubles»."""
    d = deal(R, OUT, "4S", "KD")
    play(d, *OUT_ACTIONS)
    assert d.result == DealResult(0, True, (2 * 87, 0, 0))


# -- the match ---------------------------------------------------------------------------

# Seat 0's hand by hand size, and the melds that take all of it but the KD drawn.
_SEAT0 = {
    10: ("2C 3C 4C 5C 9D 9H 9S JH QH KH", ("2C 3C 4C 5C", "9D 9H 9S", "JH QH KH")),
    7: ("2C 3C 4C 5C 9D 9H 9S", ("2C 3C 4C 5C", "9D 9H 9S")),
    6: ("2C 3C 4C 9D 9H 9S", ("2C 3C 4C", "9D 9H 9S")),
}


def _first_deal_won_by_seat0(players: int, totals: list[int]) -> Match:
    """Seat 0 goes out (rummy) in the first turn; the others hold the next cards of the deck."""
    size = R.hand_size_for(players)
    first, melds = _SEAT0[size]
    used = set(cards(first + " KD"))
    pool = [int(c) for c in make_deck() if int(c) not in used]
    hands = [first] + [format_cards(pool[i * size:(i + 1) * size]) for i in range(players - 1)]
    m = match(R, hands, "", "KD", rest_to="pile", totals=totals)
    play(m, "draw stock", *(f"meld {meld}" for meld in melds), "discard KD")
    result = m.finished[-1].result
    assert result is not None and result.winner == 0 and result.rummy
    return m


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 100), (4, 200), (5, 200),
                                                 (6, 200)])
def test_seed004_reaching_the_target_exactly_does_not_end_the_match(
    players: int, target: int
) -> None:
    """«until one player exceeds 100 points (2-3 players) or 200 (4-6)»: equal is not enough."""
    probe = _first_deal_won_by_seat0(players, [0] * players)
    points = probe.totals[0]
    m = _first_deal_won_by_seat0(players, [target - points] + [0] * (players - 1))
    assert m.totals[0] == target
    assert not m.is_over
    assert m.winner is None


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 100), (4, 200), (5, 200),
                                                 (6, 200)])
def test_seed004_first_total_past_the_target_wins(players: int, target: int) -> None:
    """«The first player whose total score ... exceeds 100 ... or 200 points ... wins»."""
    probe = _first_deal_won_by_seat0(players, [0] * players)
    points = probe.totals[0]
    m = _first_deal_won_by_seat0(players, [target + 1 - points] + [0] * (players - 1))
    assert m.totals[0] == target + 1
    assert m.is_over
    assert m.winner == 0


def test_seed004_two_players_exact_points_to_100() -> None:
    """«exceeds 100 points (in 2-player ... games)»: 100 goes on, 101 wins."""
    m = match(R, TWO, "8S", "2D", totals=[0, 0])
    play(m, "draw stock", "meld 2C 3C 4C 5C", "meld 9D 9H 9S", "meld JH QH KH", "discard 2D")
    assert m.totals == [100, 0]
    assert not m.is_over
    m = match(R, TWO, "8S", "2D", totals=[1, 0])
    play(m, "draw stock", "meld 2C 3C 4C 5C", "meld 9D 9H 9S", "meld JH QH KH", "discard 2D")
    assert m.totals == [101, 0]
    assert m.is_over
    assert m.winner == 0


# -- illegal actions ---------------------------------------------------------------------


def test_seed004_illegal_actions_name_the_rule_and_change_nothing() -> None:
    """RULES.md: an illegal action is refused naming the rule, and the state is unchanged."""
    d = deal(R, DRAW, "2C 9H 4D", "JD")
    refused = {
        "meld 9C 9D 9H": "must draw first",
        "discard KC": "must draw first",
        "end": "not a move in these rules",
        "draw pile 2C": "only the top card of the pile",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before
    d.apply("draw pile")
    refused = {
        "draw stock": "drawn already",
        "discard 4D": "took 4D from the pile this turn and may not discard it",
        "meld 9C 9D 9S": "9S is not in your hand",
        "layoff 9C 1": "no meld 1",
        "meld 2H 3D 4D": "a run cards of one suit",
        "meld 9C 9D": "a set is 3 to 4 cards of one rank",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before
