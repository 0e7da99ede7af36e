"""Seed 000 (basic Rummy), rule by rule: the `basic` column of RULES.md's table."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import JOKER, make_deck
from rummykit.engine import Deal, Layout, Match, deal_layout
from rummykit.errors import RecordError, RulesError, RummyError
from rummykit.rules import Rules, preset

from ._build_basic import (
    LOSER_69,
    LOSER_99,
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

BASIC = preset("basic")


# -- players, deck, deal --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed000_players_two_to_six_accepted(players: int) -> None:
    """'2-6 players - 1 pack (52)': every count from two to six gets a deal."""
    match = Match(BASIC, players=players, seed=1)
    assert len(match.deal.hands) == players
    deal = Deal.start(BASIC, players=players, dealer=0, seed=1)
    assert all(len(h) == SIZES[players] for h in deal.hands)


@pytest.mark.parametrize("players", [1, 7])
def test_seed000_players_one_and_seven_refused(players: int) -> None:
    """'2-6 players': a match of one or seven players is refused, naming the rule."""
    with pytest.raises(RulesError, match="2 to 6"):
        Match(BASIC, players=players, seed=1)


def test_seed000_deal_of_one_player_refused() -> None:
    """'2-6 players': a single deal for one player is refused, naming the rule."""
    with pytest.raises(RulesError, match="2 to 6"):
        Deal.start(BASIC, players=1, dealer=0, seed=1)


def test_seed000_deal_of_seven_players_refused() -> None:
    """'2-6 players': a single deal for seven players is refused, naming the rule."""
    with pytest.raises(RummyError, match="2 to 6"):
        Deal.start(BASIC, players=7, dealer=0, seed=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_seed000_deck_is_one_pack_of_52(seed: int) -> None:
    """'1 pack (52)': the deal holds each of the 52 cards once and no joker."""
    assert BASIC.deck_size == 52 and BASIC.jokers == 0
    deal = Deal.start(BASIC, players=4, dealer=1, seed=seed)
    assert sorted(deal.all_cards()) == list(range(52))


def test_seed000_layout_with_a_joker_refused() -> None:
    """'1 pack (52)': a position that holds a joker is not this game's deck."""
    good = layout(BASIC, [OTHER, MELDS3], "2S")
    bad = Layout(good.hands, (*good.stock[:-1], int(JOKER)), good.pile)
    with pytest.raises(RecordError, match="not the deck"):
        Deal(BASIC, players=2, dealer=0, layout=bad)


@pytest.mark.parametrize(("players", "size"), sorted(SIZES.items()))
def test_seed000_cards_dealt_by_player_count(players: int, size: int) -> None:
    """'If two play, ten each; three or four receive seven each; five or six receive six'."""
    deal = Deal.start(BASIC, players=players, dealer=0, seed=3)
    assert [len(h) for h in deal.hands] == [size] * players
    assert len(deal.pile) == 1
    assert len(deal.stock) == 52 - players * size - 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 11])
def test_seed000_deal_one_at_a_time_then_pile_from_stock(players: int, seed: int) -> None:
    """'Deal cards face down and one at a time ... Take the top card of stock and place it
    face up to start the discard pile': from the dealer's left, clockwise."""
    dealer = seed % players
    deck = [int(c) for c in make_deck()]
    random.Random(f"rummykit/deal/{seed}/0").shuffle(deck)
    deal = Deal.start(BASIC, players=players, dealer=dealer, seed=seed)
    size = SIZES[players]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(deal.hands[seat]) == sorted(deck[k:players * size:players])
    assert deal.pile == [deck[players * size]]
    rest = deck[players * size + 1:]
    assert deal.stock[::-1] == rest  # top first
    assert deal.layout == deal_layout(BASIC, players, dealer, seed, 0)
    starter = deal.to_move
    deal.apply("draw stock")
    assert deal.hands[starter][-1] == rest[0]


# -- turns and dealers ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed000_player_left_of_dealer_starts_then_clockwise(players: int) -> None:
    """'Each in turn': the player on the dealer's left starts, then play goes clockwise."""
    for dealer in range(players):
        deal = Deal.start(BASIC, players=players, dealer=dealer, seed=5)
        assert deal.to_move == (dealer + 1) % players
        pass_turn(deal)
        assert deal.to_move == (dealer + 2) % players


def test_seed000_two_players_non_dealer_starts() -> None:
    """With two players the player on the dealer's left is the non-dealer."""
    assert Deal.start(BASIC, players=2, dealer=0, seed=2).to_move == 1
    assert Deal.start(BASIC, players=2, dealer=1, seed=2).to_move == 0


def test_seed000_next_dealer_is_player_on_left() -> None:
    """The deal passes to the left, whoever won (here seat 2 wins, seat 1 deals next)."""
    m = Match(BASIC, players=3, seed=4,
              layout=winning_layout(BASIC, players=3, dealer=0, winner=2,
                                    losers=[LOW_A, LOW_B], rummy=False))
    assert m.deal.dealer == 0
    play_win(m, 2, rummy=False)
    assert m.totals == [0, 0, 51]
    assert len(m.finished) == 1 and not m.is_over
    assert m.deal.dealer == 1 and m.deal.to_move == 2
    assert m.deal.layout == deal_layout(BASIC, 3, 1, 4, 1)


# -- melds ----------------------------------------------------------------------------


def test_seed000_ace_low_run_accepted() -> None:
    """'Ace is low (A-2-3 only)': A-2-3 of one suit is a run."""
    deal = playing(BASIC, "AH 2H 3H 9C 9D 5S 7S 8S JD QC", other=OTHER)
    assert_legal(deal, "meld AH 2H 3H")


def test_seed000_queen_king_ace_refused() -> None:
    """'Ace is low (A-2-3 only)': Q-K-A is not a run, and K-A-2 never is."""
    hand = "QH KH AH 2H 9C 9D 5S 6S 8S JD"
    deal = playing(BASIC, hand, other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_refused(deal, "meld QH KH AH", "ace low only")
    assert_refused(deal, "meld KH AH 2H", "run")


def test_seed000_aces_high_option_allows_queen_king_ace_not_round_corner() -> None:
    """Option aces=high-low: Q-K-A is a run too, K-A-2 still is not."""
    rules = BASIC.replace(aces="high-low")
    deal = playing(rules, "QH KH AH 2H 9C 9D 5S 6S 8S JD",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld QH KH AH")
    assert_refused(deal, "meld KH AH 2H", "never K-A-2")
    deal.apply("meld QH KH AH")
    assert_refused(deal, "layoff 2H 1", "does not fit")


def test_seed000_ace_laid_off_low_only() -> None:
    """'Ace is low': an ace extends 2-3-4 below, never J-Q-K above."""
    hand = "JH QH KH 2S 3S 4S AH AS 9C 9D"
    deal = playing(BASIC, hand, other="AC 7D JC QD 10D 8C 6C 3C 4D 2D", pile="5D")
    deal.apply("meld JH QH KH")
    deal.apply("meld 2S 3S 4S")
    assert_refused(deal, "layoff AH 1", "aces are low only")
    assert_legal(deal, "layoff AS 2")


def test_seed000_set_of_three_or_four_of_a_rank() -> None:
    """'A meld is a group of cards of the same rank' of three or more (four at most)."""
    hand = "9C 9D 9H 9S 5C 5D 2H 3S KD JH"
    deal = playing(BASIC, hand, other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld 9C 9D 9H")
    assert_legal(deal, "meld 9C 9D 9H 9S")
    assert_refused(deal, "meld 5C 5D", "3 to 4 cards of one rank")
    assert_refused(deal, "meld 5C 5D 3S", "one rank")


def test_seed000_run_three_or_more_consecutive_in_suit() -> None:
    """'A sequence in the same suit' of three or more cards."""
    hand = "4H 5H 6H 7H 8H 10H 9S 2C 2D KC"
    deal = playing(BASIC, hand, other="AC 7D JC QD 10D 8C 6C 3C 4D 9D")
    assert_legal(deal, "meld 4H 5H 6H")
    assert_legal(deal, "meld 4H 5H 6H 7H 8H")
    assert_refused(deal, "meld 4H 5H", "3 or more cards in sequence")
    assert_refused(deal, "meld 6H 7H 8H 10H", "in sequence")
    assert_refused(deal, "meld 7H 8H 9S", "one suit")


# -- the turn -------------------------------------------------------------------------


def test_seed000_draw_top_of_stock_or_top_of_pile() -> None:
    """'Draw the top card of either the stock or the discard pile'."""
    other, hand = OTHER, MELDS3
    deal = deal_from(BASIC, [other, hand], "6H 2S", "QS")
    assert {str(a) for a in deal.legal_actions()} == {"draw stock", "draw pile"}
    assert_refused(deal, "draw pile 6H", "only the top card")
    stock_deal = deal.copy()
    stock_deal.apply("draw stock")
    assert stock_deal.hands[1][-1] == cards("QS")[0]
    assert stock_deal.pile == cards("6H 2S")
    deal.apply("draw pile")
    assert deal.hands[1][-1] == cards("2S")[0]
    assert deal.pile == cards("6H")
    assert deal.stock[-1] == cards("QS")[0]


def test_seed000_several_melds_in_one_turn() -> None:
    """'One or more melds and/or lay-offs may be made at the same time'."""
    deal = playing(BASIC, MELDS3, other=OTHER, draw="QS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    assert_legal(deal, "meld 9S 10S JS QS")
    deal.apply("meld 9S 10S JS QS")
    assert [m.owner for m in deal.table] == [1, 1, 1]


def test_seed000_lay_off_on_any_players_meld() -> None:
    """'An Ace may be played to A-A-A, or Five and Nine of Hearts to 6-7-8 of Hearts',
    regardless of who made the meld."""
    mine = "AC AD AS 6H 7H 8H KC QC JC 2D"
    yours = "AH 5H 9H 2C 3C 4C 10S JS QS 7D"
    deal = deal_from(BASIC, [mine, yours], "2S", "KD 8D", dealer=1)
    pass_turn_with_meld(deal, "meld AC AD AS")
    assert deal.to_move == 1
    deal.apply("draw stock")
    deal.apply("meld 10S JS QS")
    assert_refused(deal, "layoff 5H 1", "the set is of As")
    deal.apply("layoff AH 1")
    assert deal.table[0].cards == tuple(cards("AC AD AH AS"))
    assert deal.table[0].owner == 0 and deal.table[0].layers == (0, 0, 1, 0)
    # The 6-7-8 of hearts is seat 0's meld of the next turn.
    deal.apply("discard 8D")
    deal.apply("draw stock")
    drawn = deal.hands[0][-1]
    deal.apply("meld 6H 7H 8H")
    deal.apply(f"discard {names([drawn])}")
    deal.apply("draw stock")
    assert_refused(deal, "layoff 2C 3", "the run is in H")
    deal.apply("layoff 5H 3")
    deal.apply("layoff 9H 3")
    assert deal.table[2].cards == tuple(cards("5H 6H 7H 8H 9H"))
    assert deal.table[2].owner == 0 and deal.table[2].layers == (1, 0, 0, 0, 1)


def test_seed000_lay_off_must_extend_an_end() -> None:
    """A card that extends a meld may be laid off; one that leaves a gap may not."""
    deal = playing(BASIC, "6H 7H 8H 10H 5H 9C 9D 2C 3C KS",
                   other="AC 7D JC QD 10D 8C 6C 4C 4D 2D", draw="QS")
    deal.apply("meld 6H 7H 8H")
    assert_refused(deal, "layoff 10H 1", "extend it at one end")
    assert_legal(deal, "layoff 5H 1")


def test_seed000_taken_discard_may_not_be_discarded() -> None:
    """'A player who has drawn the top discard must discard something different'."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "2S", "QS")
    deal.apply("draw pile")
    assert deal.taken == cards("2S")[0]
    assert_refused(deal, "discard 2S", "may not discard it")
    assert_legal(deal, "discard KD")
    # From the stock, the card drawn may go straight back.
    deal2 = deal_from(BASIC, [OTHER, MELDS3], "2S", "QS")
    deal2.apply("draw stock")
    assert_legal(deal2, "discard QS")


def test_seed000_taken_discard_cannot_be_left_as_the_only_card() -> None:
    """The taken discard may not be thrown, so a meld that leaves only it is refused
    (unless it can be laid off: then it goes out)."""
    hand = "5C 5D 5H 9S 10S JS QS 2H 3H 4H"
    deal = deal_from(BASIC, [OTHER, hand], "KC", "8D")
    deal.apply("draw pile")
    deal.apply("meld 5C 5D 5H")
    deal.apply("meld 9S 10S JS QS")
    assert_refused(deal, "meld 2H 3H 4H", "could not end the turn")
    assert_legal(deal, "discard 2H")
    other = "AC 7D JC QD 10D 8C 6S 3C 4D 2D"
    deal = deal_from(BASIC, [other, hand], "KS", "8D")
    deal.apply("draw pile")
    deal.apply("meld 5C 5D 5H")
    deal.apply("meld 9S 10S JS QS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("layoff KS 2")
    assert deal.is_over and deal.result is not None and deal.result.winner == 1


# -- going out ------------------------------------------------------------------------


def test_seed000_go_out_by_discarding_last_card() -> None:
    """'The winner is the player who goes out by playing the last card ... discarding'."""
    deal = Deal(BASIC, players=2, dealer=0,
                layout=winning_layout(BASIC, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.is_over and deal.hands[1] == []
    assert deal.pile[-1] == cards("KD")[0]
    assert deal.result is not None and deal.result.winner == 1
    assert deal.legal_actions() == []
    assert_refused(deal, "draw stock", "the deal is over")


def test_seed000_go_out_by_melding_last_cards() -> None:
    """'... by playing the last card from his hand, whether by melding': no discard."""
    deal = playing(BASIC, "2H 3H 4H 5C 5D 5S 9S 10S JS QS", other=OTHER, draw="KS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    deal.apply("meld 9S 10S JS QS KS")
    assert deal.is_over and deal.hands[1] == []
    assert deal.pile == cards("2S")
    assert deal.result is not None and deal.result.winner == 1


def test_seed000_go_out_by_laying_off_last_card() -> None:
    """'... whether by melding, laying off or discarding': the last card laid off."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "2S", "5H 8H QS")
    deal.apply("draw stock")  # 5H
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    deal.apply("meld 9S 10S JS")
    deal.apply("discard KD")
    assert deal.hands[1] == cards("5H")
    pass_turn(deal)
    deal.apply("draw stock")  # QS
    deal.apply("layoff QS 3")
    deal.apply("layoff 5H 2")
    assert deal.is_over and deal.hands[1] == []
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.points == (0, 69)


# -- the stock runs out ---------------------------------------------------------------


def _exhaust_stock() -> tuple[Deal, list[int]]:
    """Play 'draw stock, throw it back' until the stock is empty; return the discards."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "2S")
    discards = [pass_turn(deal) for _ in range(31)]
    assert deal.stock == [] and not deal.is_over and deal.phase == "draw"
    return deal, discards


def test_seed000_stock_out_may_take_top_discard() -> None:
    """'If there are no cards in stock ... he may either take the top discard'."""
    deal, discards = _exhaust_stock()
    assert deal.to_move == 0
    assert {str(a) for a in deal.legal_actions()} == {"draw stock", "draw pile"}
    deal.apply("draw pile")
    assert deal.hands[0][-1] == discards[-1]
    assert deal.stock == [] and deal.turn_overs_used == 0
    assert_refused(deal, f"discard {names(discards[-1:])}", "may not discard it")
    deal.apply("discard 4D")
    assert deal.to_move == 1 and not deal.is_over and deal.stock == []


def test_seed000_stock_out_turn_pile_over_without_shuffle() -> None:
    """'... or turn the discard pile upside down to form a new stock, in which case he must
    continue his turn by drawing the top card of it': no shuffle."""
    deal, discards = _exhaust_stock()
    assert deal.pile == cards("2S") + discards
    deal.apply("draw stock")
    # Upside down: the pile's bottom card (the first up card) is the new stock's top.
    assert deal.hands[0][-1] == cards("2S")[0]
    assert deal.stock[::-1] == discards
    assert deal.pile == [] and deal.turn_overs_used == 1
    assert deal.phase == "play" and deal.to_move == 0


def test_seed000_turn_over_cap_ends_in_stalemate() -> None:
    """A deal always ends: after three turn-overs, an empty stock is a stalemate, no points."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "2S")
    turns = 0
    while not deal.is_over:
        if not deal.stock:
            assert deal.turn_overs_used < 3
        pass_turn(deal)
        turns += 1
    # 31 cards in stock, then three times a 32-card pile turned over.
    assert turns == 31 + 3 * 32
    assert deal.turn_overs_used == 3 and deal.stock == []
    assert deal.result is not None
    assert deal.result.winner is None and deal.result.rummy is False
    assert deal.result.points == (0, 0)
    assert_refused(deal, "draw pile", "the deal is over")


def test_seed000_stalemate_scores_nothing_and_deal_passes_left() -> None:
    """A stalemate adds nothing to the totals; the next deal is dealt by the next player."""
    m = Match(BASIC, players=2, seed=9, layout=layout(BASIC, [OTHER, MELDS3], "2S"))
    while not m.finished:
        pass_turn(m)
    assert m.finished[0].result is not None and m.finished[0].result.winner is None
    assert m.totals == [0, 0] and not m.is_over
    assert m.deal.dealer == 1


# -- scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(("loser", "points"), [
    (LOSER_69, 69),
    ("AC AD AS 2C 3D 6C 7C 9D 10S JS", 50),
    (LOSER_100, 100),
])
def test_seed000_card_values_ace_one_court_ten(loser: str, points: int) -> None:
    """'Ace counts one and court cards ten each', other cards their face value."""
    deal = Deal(BASIC, players=2, dealer=0,
                layout=winning_layout(BASIC, players=2, dealer=0, winner=1,
                                      losers=[loser], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None and deal.result.points == (0, points)


def test_seed000_each_opponent_pays_winner_his_hand_total() -> None:
    """'Each opponent pays the winner ... the combined face values of all the cards left in
    his hand': 16 + 35 to the winner of a three-player deal."""
    deal = Deal(BASIC, players=3, dealer=0,
                layout=winning_layout(BASIC, players=3, dealer=0, winner=2,
                                      losers=[LOW_A, LOW_B], rummy=False))
    play_win(deal, 2, rummy=False)
    assert deal.result is not None
    assert deal.result.winner == 2 and deal.result.rummy is False
    assert deal.result.points == (0, 0, 51)


def test_seed000_rummy_pays_double() -> None:
    """'Going rummy ... he receives or scores double against each opponent'."""
    deal = playing(BASIC, MELDS3, other=OTHER, draw="QS")
    deal.apply("meld 2H 3H 4H")
    deal.apply("meld 5C 5D 5S")
    deal.apply("meld 9S 10S JS QS")
    deal.apply("discard KD")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.rummy is True
    assert deal.result.points == (0, 138)


def test_seed000_rummy_pays_double_three_players() -> None:
    """Rummy doubles what every opponent pays: 2 x (16 + 35)."""
    deal = Deal(BASIC, players=3, dealer=0,
                layout=winning_layout(BASIC, players=3, dealer=0, winner=2,
                                      losers=[LOW_A, LOW_B], rummy=True))
    play_win(deal, 2, rummy=True)
    assert deal.result is not None
    assert deal.result.rummy is True and deal.result.points == (0, 0, 102)


def test_seed000_no_rummy_after_melding_in_an_earlier_turn() -> None:
    """'... without having melded or laid off a single card in the current deal': a
    winner who melded in an earlier turn scores single."""
    deal = Deal(BASIC, players=2, dealer=0,
                layout=winning_layout(BASIC, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None
    assert deal.result.rummy is False and deal.result.points == (0, 69)


def test_seed000_no_rummy_after_laying_off_in_an_earlier_turn() -> None:
    """'... without having melded or laid off a single card': one lay-off in an earlier
    turn is enough to lose the rummy bonus."""
    loser = "3C 3D 3S AC 7D JC QD 10D 8C 2C"
    winner = "3H 5C 5D 5H 9S 10S JS QS KS 6C"
    deal = deal_from(BASIC, [loser, winner], "2S", "4H 6H 7H 5S", dealer=1)
    pass_turn_with_meld(deal, "meld 3C 3D 3S")
    deal.apply("draw stock")
    deal.apply("layoff 3H 1")
    deal.apply("discard 6H")
    pass_turn(deal)
    deal.apply("draw stock")  # 5S
    deal.apply("meld 5C 5D 5H 5S")
    deal.apply("meld 9S 10S JS QS KS")
    deal.apply("discard 6C")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.rummy is False
    assert deal.result.points == (0, 48)


def test_seed000_rummy_counts_lay_offs_in_the_going_out_turn() -> None:
    """'... by any combination of melding, laying off and discarding' in one turn: a
    lay-off on another player's meld in that turn keeps the rummy."""
    loser = "3C 3D 3S AC 7D JC QD 10D 8C 2C"
    winner = "3H 5C 5D 5H 9S 10S JS QS KS 6C"
    deal = deal_from(BASIC, [loser, winner], "2S", "4H 5S", dealer=1)
    pass_turn_with_meld(deal, "meld 3C 3D 3S")
    deal.apply("draw stock")  # 5S
    deal.apply("layoff 3H 1")
    deal.apply("meld 5C 5D 5H 5S")
    deal.apply("meld 9S 10S JS QS KS")
    deal.apply("discard 6C")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.rummy is True
    assert deal.result.points == (0, 96)


# -- the match ------------------------------------------------------------------------


def _match(rules: Rules, loser: str, *, rummy: bool, seed: int = 0) -> Match:
    return Match(rules, players=2, seed=seed,
                 layout=winning_layout(rules, players=2, dealer=0, winner=1,
                                       losers=[loser], rummy=rummy))


def test_seed000_match_ends_when_a_total_reaches_100() -> None:
    """'Played up to a previously agreed target score' (default 100): 100 ends it."""
    m = _match(BASIC, LOSER_100, rummy=False)
    play_win(m, 1, rummy=False)
    assert m.totals == [0, 100]
    assert m.is_over and m.winner == 1
    assert m.end == "target"


def test_seed000_match_goes_on_below_100() -> None:
    """The target is not reached at 99: the next deal is dealt, by the player on the left."""
    m = _match(BASIC, LOSER_99, rummy=False)
    play_win(m, 1, rummy=False)
    assert m.totals == [0, 99]
    assert not m.is_over and m.winner is None
    assert len(m.finished) == 1 and m.deal.dealer == 1 and m.deal.to_move == 0


def test_seed000_match_target_is_an_option() -> None:
    """'An agreed target': target=200 lets 138 go on."""
    rules = Rules.parse("basic(target=200)")
    m = _match(rules, OTHER, rummy=True)
    play_win(m, 1, rummy=True)
    assert m.totals == [0, 138] and not m.is_over


def test_seed000_match_of_an_agreed_number_of_deals() -> None:
    """'A game may consist of any agreed number of deals': deals=2, no target, ends after
    the second deal whatever the totals."""
    rules = Rules.parse("basic(target=none, deals=2)")
    m = _match(rules, LOSER_100, rummy=True)
    m.auto_deal = False
    play_win(m, 1, rummy=True)
    assert m.totals == [0, 200] and not m.is_over
    m.start_next_deal(layout=winning_layout(rules, players=2, dealer=1, winner=0,
                                            losers=[LOSER_69], rummy=False))
    assert m.deal.dealer == 1
    play_win(m, 0, rummy=False)
    assert m.totals == [69, 200]
    assert m.is_over and m.winner == 1
    assert m.end == "deals"


def test_seed000_match_needs_a_target_or_a_number_of_deals() -> None:
    """Neither a target nor a number of deals: the match could not end, so it is refused."""
    with pytest.raises(RulesError, match="target or a number of deals"):
        Rules.parse("basic(target=none)")


# -- illegal actions ------------------------------------------------------------------


@pytest.mark.parametrize(("before", "action", "reason"), [
    ([], "discard KD", "must draw first"),
    ([], "meld 2H 3H 4H", "must draw first"),
    ([], "draw pile 6H", "only the top card of the pile"),
    ([], "draw pile 7C", "not in the pile"),
    (["draw pile"], "draw stock", "drawn already"),
    (["draw pile"], "discard 2S", "may not discard it"),
    (["draw pile"], "meld 6C 7C 8C", "not in your hand"),
    (["draw pile"], "meld 9S 10S", "3 or more"),
    (["draw pile"], "meld 5C 5D", "3 to 4"),
    (["draw pile"], "meld 2S 9S 10S", "in sequence"),
    (["draw pile"], "layoff KD 1", "no meld 1"),
    (["draw pile", "meld 2H 3H 4H"], "layoff 9S 1", "the run is in H"),
    (["draw pile", "meld 2H 3H 4H"], "meld 2H 3H 4H", "not in your hand"),
])
def test_seed000_illegal_action_names_rule_and_changes_nothing(
    before: list[str], action: str, reason: str
) -> None:
    """An illegal action is refused with a reason that names the rule, the state unchanged."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "6H 2S", "QS")
    for a in before:
        deal.apply(a)
    assert_refused(deal, action, reason)


def test_seed000_refused_action_leaves_everything_unchanged() -> None:
    """The refusal changes nothing: hands, stock, pile, table and the player to move."""
    deal = deal_from(BASIC, [OTHER, MELDS3], "6H 2S", "QS")
    deal.apply("draw pile")
    deal.apply("meld 2H 3H 4H")
    before = snapshot(deal)
    for action in ("discard 2S", "meld 5C 5D 9S", "layoff 5C 1", "draw stock"):
        with pytest.raises(RummyError):
            deal.apply(action)
    assert snapshot(deal) == before
    assert deal.to_move == 1 and deal.phase == "play"
