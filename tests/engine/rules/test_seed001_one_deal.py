"""Seed 001 (a one-deal Rummy), rule by rule: the `one-deal` column of RULES.md's table."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import make_deck
from rummykit.engine import Deal, Match, deal_layout
from rummykit.errors import IllegalActionError, RulesError
from rummykit.rules import preset

from ._build_basic import (
    LOSER_69,
    LOSER_100,
    LOW_A,
    LOW_B,
    MELDS3,
    OTHER,
    SIZES,
    assert_legal,
    assert_refused,
    cards,
    deal_from,
    layout,
    names,
    pass_turn,
    pass_turn_with_meld,
    play_win,
    playing,
    snapshot,
    winning_layout,
)

ONE = preset("one-deal")


# -- players, deck, deal --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed001_players_two_to_six_accepted(players: int) -> None:
    """Two to six players by default: each count gets a game."""
    match = Match(ONE, players=players, seed=2)
    assert len(match.deal.hands) == players


@pytest.mark.parametrize("players", [1, 7])
def test_seed001_players_one_and_seven_refused(players: int) -> None:
    """Outside two to six players the game is refused, naming the rule."""
    with pytest.raises(RulesError, match="2 to 6"):
        Match(ONE, players=players, seed=2)


def test_seed001_deck_is_52_cards() -> None:
    """One 52-card pack ('K (high), Q, J, 10 ... 2, A' in four suits), no joker."""
    assert ONE.deck_size == 52 and ONE.jokers == 0
    deal = Deal.start(ONE, players=2, dealer=0, seed=4)
    assert sorted(deal.all_cards()) == list(range(52))


def test_seed001_ten_cards_each_for_two() -> None:
    """'The dealer gives each person 10 cards facedown': 10 each for two players."""
    deal = Deal.start(ONE, players=2, dealer=1, seed=8)
    assert [len(h) for h in deal.hands] == [10, 10]
    assert len(deal.stock) == 52 - 20 - 1


@pytest.mark.parametrize(("players", "size"), [(3, 7), (4, 7), (5, 6), (6, 6)])
def test_seed001_more_players_get_basic_hand_sizes(players: int, size: int) -> None:
    """Seed 001 names 10 cards for two; for more players 000's 7/7/6/6 is the default."""
    deal = Deal.start(ONE, players=players, dealer=0, seed=8)
    assert [len(h) for h in deal.hands] == [size] * players


@pytest.mark.parametrize("players", [2, 4, 6])
def test_seed001_deal_then_up_card_starts_the_pile(players: int) -> None:
    """'The top card of the stock is turned face up and becomes the up card ... to start the
    discard pile', after the hands are dealt one at a time from the dealer's left."""
    seed, dealer = 21, players - 1
    deck = [int(c) for c in make_deck()]
    random.Random(f"rummykit/deal/{seed}/0").shuffle(deck)
    deal = Deal.start(ONE, players=players, dealer=dealer, seed=seed)
    size = SIZES[players]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(deal.hands[seat]) == sorted(deck[k:players * size:players])
    assert deal.pile == [deck[players * size]]
    assert deal.stock[::-1] == deck[players * size + 1:]
    assert deal.layout == deal_layout(ONE, players, dealer, seed, 0)


# -- turns and dealers ----------------------------------------------------------------


def test_seed001_opposite_player_begins() -> None:
    """'Beginning with the opposite play[er]': with two, the non-dealer moves first."""
    assert Deal.start(ONE, players=2, dealer=0, seed=1).to_move == 1
    assert Deal.start(ONE, players=2, dealer=1, seed=1).to_move == 0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seed001_player_left_of_dealer_begins_then_clockwise(players: int) -> None:
    """With more players the one on the dealer's left begins, then play goes clockwise."""
    deal = Deal.start(ONE, players=players, dealer=2, seed=1)
    assert deal.to_move == 3 % players
    pass_turn(deal)
    assert deal.to_move == 4 % players


def test_seed001_winner_deals_the_next_game() -> None:
    """'The winner of each hand deals the next': seat 2 wins, so seat 2 deals (not seat 1)."""
    m = Match(ONE, players=3, seed=6,
              layout=winning_layout(ONE, players=3, dealer=0, winner=2,
                                    losers=[LOW_A, LOW_B], rummy=False))
    play_win(m, 2, rummy=False)
    assert m.is_over and m.winner == 2
    assert m.end == "one-deal"
    assert m.next_dealer() == 2
    again = Match(ONE, players=3, seed=7, first_dealer=m.next_dealer())
    assert again.deal.dealer == 2 and again.deal.to_move == 0


def test_seed001_winner_deals_next_even_when_he_dealt() -> None:
    """The dealer who wins deals again (the deal does not pass to the left)."""
    m = Match(ONE, players=2, seed=6, first_dealer=1,
              layout=winning_layout(ONE, players=2, dealer=1, winner=1,
                                    losers=[LOSER_69], rummy=False))
    assert m.deal.dealer == 1 and m.deal.to_move == 0
    play_win(m, 1, rummy=False)
    assert m.winner == 1 and m.next_dealer() == 1


# -- melds ----------------------------------------------------------------------------


def test_seed001_ace_is_low_only() -> None:
    """'K (high), Q, J, ... 2, A': A-2-3 is a sequence, Q-K-A is not, K-A-2 neither."""
    deal = playing(ONE, "QH KH AH 2H 3H 9C 9D 5S 8S JD",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld AH 2H 3H")
    assert_refused(deal, "meld QH KH AH", "ace low only")
    assert_refused(deal, "meld KH AH 2H", "run")


def test_seed001_groups_of_three_or_four_of_a_kind() -> None:
    """'Groups of three or four of a kind'; two are not a group."""
    deal = playing(ONE, "9C 9D 9H 9S 5C 5D 2H 3S KD JH",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld 9C 9D 9H")
    assert_legal(deal, "meld 9C 9D 9H 9S")
    assert_refused(deal, "meld 5C 5D", "3 to 4 cards of one rank")


def test_seed001_sequences_of_three_or_more_same_suit() -> None:
    """'Sequences of three or more cards of the same suit'."""
    deal = playing(ONE, "4H 5H 6H 7H 8H 10H 9S 2C 2D KC",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 9D")
    assert_legal(deal, "meld 4H 5H 6H 7H")
    assert_refused(deal, "meld 4H 5H", "3 or more cards in sequence")
    assert_refused(deal, "meld 7H 8H 10H", "in sequence")
    assert_refused(deal, "meld 7H 8H 9S", "one suit")


# -- the turn -------------------------------------------------------------------------


def test_seed001_draw_top_of_stock_or_of_discard_pile() -> None:
    """'Either draw the top card of the stock or takes the top card of the discard pile'."""
    deal = deal_from(ONE, [OTHER, MELDS3], "6H 2S", "QS")
    assert_refused(deal, "draw pile 6H", "only the top card")
    other = deal.copy()
    other.apply("draw stock")
    assert other.hands[1][-1] == cards("QS")[0] and other.pile == cards("6H 2S")
    deal.apply("draw pile")
    assert deal.hands[1][-1] == cards("2S")[0] and deal.pile == cards("6H")


def test_seed001_any_number_of_sets_laid_down() -> None:
    """'The player may also lay down on the table ... any matched set': several in a turn."""
    deal = playing(ONE, MELDS3, other=OTHER, draw="QS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    assert_legal(deal, "meld 9S 10S JS QS")


def test_seed001_lay_off_examples() -> None:
    """'If threes are showing, they may add the fourth three; if 10, 9, or 8 are showing,
    they may add J, or Q, J, 7, or 7, 6' -- on another player's meld."""
    mine = "3C 3D 3S 8H 9H 10H AD 2D 4D 5D"
    yours = "3H JH QH 7H 6H 2C 4C KS QS JS"
    deal = deal_from(ONE, [mine, yours], "9C", "KC 8C", dealer=1)
    pass_turn_with_meld(deal, "meld 3C 3D 3S")
    deal.apply("draw stock")
    deal.apply("layoff 3H 1")
    assert deal.table[0].cards == tuple(cards("3C 3D 3H 3S"))
    deal.apply("discard 8C")
    pass_turn_with_meld(deal, "meld 8H 9H 10H")
    deal.apply("draw stock")
    assert_refused(deal, "layoff QH 2", "extend it at one end")
    for card in ("JH", "QH", "7H", "6H"):
        deal.apply(f"layoff {card} 2")
    assert deal.table[1].cards == tuple(cards("6H 7H 8H 9H 10H JH QH"))
    assert deal.table[1].owner == 0


def test_seed001_taken_discard_not_discarded_same_turn() -> None:
    """'NB: If the player has drawn from the discard pile, he may not discard the same card
    on that turn'."""
    deal = deal_from(ONE, [OTHER, MELDS3], "2S", "QS")
    deal.apply("draw pile")
    assert_refused(deal, "discard 2S", "may not discard it")
    deal.apply("discard KD")
    assert deal.pile[-1] == cards("KD")[0] and deal.to_move == 0


# -- going out ------------------------------------------------------------------------


def test_seed001_go_out_by_getting_rid_of_all_cards() -> None:
    """'When a player gets rid of all of their cards, they win the game' (last discard)."""
    deal = Deal(ONE, players=2, dealer=0,
                layout=winning_layout(ONE, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.is_over and deal.hands[1] == []
    assert deal.result is not None and deal.result.winner == 1


def test_seed001_go_out_laying_down_without_discarding() -> None:
    """'If all of their remaining cards are matched, the player may lay them down without
    discarding them on their last turn'."""
    deal = playing(ONE, "2H 3H 4H 5C 5D 5S 9S 10S JS QS", other=OTHER, draw="KS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    deal.apply("meld 9S 10S JS QS KS")
    assert deal.is_over and deal.pile == cards("2S")
    assert deal.result is not None and deal.result.winner == 1


def test_seed001_go_out_laying_off_last_card() -> None:
    """The last card may also go by being laid off (no discard needed)."""
    deal = deal_from(ONE, [OTHER, MELDS3], "2S", "5H 8H QS")
    deal.apply("draw stock")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    deal.apply("meld 9S 10S JS")
    deal.apply("discard KD")
    pass_turn(deal)
    deal.apply("draw stock")
    deal.apply("layoff QS 3")
    deal.apply("layoff 5H 2")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.points == (0, 69)


# -- the stock runs out ---------------------------------------------------------------


def _exhaust_stock() -> tuple[Deal, list[int]]:
    deal = deal_from(ONE, [OTHER, MELDS3], "2S")
    discards = [pass_turn(deal) for _ in range(31)]
    assert deal.stock == [] and not deal.is_over
    return deal, discards


def test_seed001_stock_out_take_top_of_discard_pile() -> None:
    """'If the last card of the stock has been drawn ... the next player may either take the
    top of the discard pile'."""
    deal, discards = _exhaust_stock()
    deal.apply("draw pile")
    assert deal.hands[0][-1] == discards[-1] and deal.stock == []
    assert_refused(deal, f"discard {names(discards[-1:])}", "may not discard it")


def test_seed001_stock_out_turn_pile_over_without_shuffling() -> None:
    """'... or may turn the discard pile over to form a new stock (without shuffling it) and
    draw the top card'."""
    deal, discards = _exhaust_stock()
    deal.apply("draw stock")
    assert deal.hands[0][-1] == cards("2S")[0]
    assert deal.stock[::-1] == discards and deal.pile == []
    deal.apply("discard 4D")
    assert deal.to_move == 1
    deal.apply("draw stock")
    assert deal.hands[1][-1] == discards[0]


def test_seed001_turn_over_cap_ends_in_stalemate() -> None:
    """A deal always ends: the pile is turned over three times at most, then no points."""
    deal = deal_from(ONE, [OTHER, MELDS3], "2S")
    turns = 0
    while not deal.is_over:
        pass_turn(deal)
        turns += 1
    assert turns == 31 + 3 * 32 and deal.turn_overs_used == 3
    assert deal.result is not None
    assert deal.result.winner is None and deal.result.points == (0, 0)


# -- scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(("loser", "points"), [
    (LOSER_69, 69),
    (LOSER_100, 100),  # all of it in matched sets: they count all the same
    ("AC AD AS 2C 3D 6C 7C 9D 10S JS", 50),
])
def test_seed001_pay_pip_value_whether_matched_or_not(loser: str, points: int) -> None:
    """'Each player pays to the winner the pip value of the cards remaining in their hand,
    whether the cards form matched sets or not. Face cards count 10 each, Aces 1 each'."""
    deal = Deal(ONE, players=2, dealer=0,
                layout=winning_layout(ONE, players=2, dealer=0, winner=1,
                                      losers=[loser], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None and deal.result.points == (0, points)


def test_seed001_each_player_pays_the_winner() -> None:
    """Three players: the winner collects both hands, 16 + 35."""
    deal = Deal(ONE, players=3, dealer=0,
                layout=winning_layout(ONE, players=3, dealer=0, winner=1,
                                      losers=[LOW_A, LOW_B], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None and deal.result.points == (0, 51, 0)


def test_seed001_rummy_pays_double() -> None:
    """'A player goes "rummy" when they get rid of all cards in their hand at once, without
    previously having put down or laid off any cards': double (the default bonus)."""
    deal = Deal(ONE, players=2, dealer=0,
                layout=winning_layout(ONE, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=True))
    play_win(deal, 1, rummy=True)
    assert deal.result is not None
    assert deal.result.rummy is True and deal.result.points == (0, 138)


def test_seed001_no_rummy_after_putting_down_earlier() -> None:
    """'... without previously having put down ... any cards': melding in an earlier turn
    leaves single points."""
    deal = Deal(ONE, players=2, dealer=0,
                layout=winning_layout(ONE, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None
    assert deal.result.rummy is False and deal.result.points == (0, 69)


# -- the match ------------------------------------------------------------------------


def test_seed001_game_is_one_deal() -> None:
    """'This ends the game, and there is no further play': the match is over after one deal,
    whatever the score."""
    m = Match(ONE, players=2, seed=3,
              layout=winning_layout(ONE, players=2, dealer=0, winner=1,
                                    losers=[LOSER_69], rummy=False))
    play_win(m, 1, rummy=False)
    assert m.is_over and m.winner == 1
    assert m.totals == [0, 69] and len(m.finished) == 1
    with pytest.raises(IllegalActionError, match="the match is over"):
        m.apply("draw stock")


def test_seed001_stalemate_also_ends_the_game() -> None:
    """A deal ended without a winner still ends the one-deal game, with no points."""
    m = Match(ONE, players=2, seed=3, layout=layout(ONE, [OTHER, MELDS3], "2S"))
    while not m.is_over:
        pass_turn(m)
    assert m.totals == [0, 0] and m.winner is None and len(m.finished) == 1


# -- illegal actions ------------------------------------------------------------------


@pytest.mark.parametrize(("before", "action", "reason"), [
    ([], "discard KD", "must draw first"),
    ([], "draw pile 6H", "only the top card of the pile"),
    (["draw pile"], "discard 2S", "may not discard it"),
    (["draw pile"], "draw pile", "drawn already"),
    (["draw pile"], "meld 5C 5D 9S", "one rank, a run cards of one suit"),
    (["draw pile", "meld 5C 5D 5S"], "layoff 4H 1", "the set is of 5s"),
])
def test_seed001_illegal_action_names_rule_and_changes_nothing(
    before: list[str], action: str, reason: str
) -> None:
    """An illegal action is refused with a reason that names the rule, the state unchanged."""
    deal = deal_from(ONE, [OTHER, MELDS3], "6H 2S", "QS")
    for a in before:
        deal.apply(a)
    before_state = snapshot(deal)
    assert_refused(deal, action, reason)
    assert snapshot(deal) == before_state
