"""Seed 002 (Classic Rummy and its variants), rule by rule: the `classic` column of
RULES.md's table and the options of 002's "Variants to agree on first"."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import JOKER, make_deck
from rummykit.engine import Deal, Layout, Match, deal_layout
from rummykit.errors import RecordError, RulesError
from rummykit.rules import Rules, preset

from ._build_basic import (
    LOSER_69,
    LOSER_99,
    LOSER_100,
    LOW_A,
    LOW_B,
    LOW_C,
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

CLASSIC = preset("classic")
TWO_RUNS = "6H 7H 8H 5H 9H 10H 4C 5C 6C KD"


def classic_match(loser: str, *, rummy: bool, players: int = 2, dealer: int = 0) -> Match:
    winner = (dealer + 1) % players
    return Match(CLASSIC, players=players, seed=0, first_dealer=dealer,
                 layout=winning_layout(CLASSIC, players=players, dealer=dealer, winner=winner,
                                       losers=[loser], rummy=rummy))


# -- players, deck, deal --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed002_players_two_to_six_accepted(players: int) -> None:
    """'Players 2–6': each count gets a match."""
    match = Match(CLASSIC, players=players, seed=3)
    assert len(match.deal.hands) == players


@pytest.mark.parametrize("players", [1, 7])
def test_seed002_players_one_and_seven_refused(players: int) -> None:
    """'For 2 to 6 players': one or seven are refused, naming the rule."""
    with pytest.raises(RulesError, match="2 to 6"):
        Match(CLASSIC, players=players, seed=3)


def test_seed002_deck_is_52_cards_no_jokers() -> None:
    """'Deck: 52 cards: remove the jokers'."""
    assert CLASSIC.deck_size == 52 and CLASSIC.jokers == 0
    deal = Deal.start(CLASSIC, players=3, dealer=2, seed=5)
    assert sorted(deal.all_cards()) == list(range(52))
    good = layout(CLASSIC, [OTHER, TWO_RUNS], "2S")
    bad = Layout(good.hands, (int(JOKER), *good.stock[1:]), good.pile)
    with pytest.raises(RecordError, match="not the deck"):
        Deal(CLASSIC, players=2, dealer=0, layout=bad)


@pytest.mark.parametrize(("players", "size"), sorted(SIZES.items()))
def test_seed002_cards_in_hand_by_player_count(players: int, size: int) -> None:
    """'Cards each: 10 with two, 7 with 3-4, 6 with 5-6'."""
    deal = Deal.start(CLASSIC, players=players, dealer=0, seed=9)
    assert [len(h) for h in deal.hands] == [size] * players
    assert len(deal.stock) == 52 - players * size - 1 and len(deal.pile) == 1


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seed002_deal_clockwise_one_at_a_time_then_discard_pile(players: int) -> None:
    """'They deal the cards clockwise, one at a time. The next card is turned face up: it
    starts the discard pile'."""
    seed = 13
    m = Match(CLASSIC, players=players, seed=seed)
    dealer = m.deal.dealer
    deck = [int(c) for c in make_deck()]
    random.Random(f"rummykit/deal/{seed}/0").shuffle(deck)
    size = SIZES[players]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(m.deal.hands[seat]) == sorted(deck[k:players * size:players])
    assert m.deal.pile == [deck[players * size]]
    assert m.deal.stock[::-1] == deck[players * size + 1:]
    assert m.deal.layout == deal_layout(CLASSIC, players, dealer, seed, 0)


def test_seed002_first_dealer_at_random_from_the_seed() -> None:
    """'Pick a dealer at random': any seat may deal first, the same seed the same seat."""
    dealers = [Match(CLASSIC, players=4, seed=s).deal.dealer for s in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Match(CLASSIC, players=4, seed=s).deal.dealer for s in range(40)]
    for s in range(5):
        m = Match(CLASSIC, players=4, seed=s)
        assert m.deal.to_move == (m.deal.dealer + 1) % 4
    # basic has no random first dealer: seat 0 deals.
    assert {Match(preset("basic"), players=4, seed=s).deal.dealer for s in range(10)} == {0}


# -- turns and dealers ----------------------------------------------------------------


def test_seed002_example_carla_deals_anna_starts() -> None:
    """'Anna, Bruno and Carla play with three players, seven cards each. Carla deals, so
    Anna, on her left, starts. The top of the discard pile is the 9♣'."""
    hands = [LOW_A, LOW_B, "AH 2H 3H 4H 5H 6H KD"]
    m = Match(CLASSIC, players=["Anna", "Bruno", "Carla"], first_dealer=2,
              layout=layout(CLASSIC, hands, "9C"))
    assert m.deal.dealer == 2 and m.deal.to_move == 0
    assert [len(h) for h in m.deal.hands] == [7, 7, 7]
    assert m.deal.pile == cards("9C")
    pass_turn(m)
    assert m.deal.to_move == 1  # clockwise: Bruno


def test_seed002_two_players_non_dealer_starts() -> None:
    """'With two players, the non-dealer starts'."""
    for dealer in (0, 1):
        assert Deal.start(CLASSIC, players=2, dealer=dealer, seed=4).to_move == 1 - dealer


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seed002_player_on_dealers_left_starts(players: int) -> None:
    """'The player on the dealer's left starts, then play goes clockwise'."""
    for dealer in range(players):
        deal = Deal.start(CLASSIC, players=players, dealer=dealer, seed=4)
        assert deal.to_move == (dealer + 1) % players
        pass_turn(deal)
        assert deal.to_move == (dealer + 2) % players


def test_seed002_deal_passes_to_the_left() -> None:
    """'The deal passes to the player on the left' (seat 2 won, seat 1 deals next)."""
    m = Match(CLASSIC, players=3, seed=8, first_dealer=0,
              layout=winning_layout(CLASSIC, players=3, dealer=0, winner=2,
                                    losers=[LOW_A, LOW_B], rummy=False))
    play_win(m, 2, rummy=False)
    assert m.totals == [0, 0, 51] and not m.is_over
    assert m.deal.dealer == 1 and m.deal.to_move == 2
    assert m.deal.layout == deal_layout(CLASSIC, 3, 1, 8, 1)


# -- melds ----------------------------------------------------------------------------


def test_seed002_ace_low_only() -> None:
    """'The A is low only: A♥ 2♥ 3♥ is a run, Q♥ K♥ A♥ is not'."""
    deal = playing(CLASSIC, "QH KH AH 2H 3H 9C 9D 5S 8S JD",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld AH 2H 3H")
    assert_refused(deal, "meld QH KH AH", "ace low only")
    assert_refused(deal, "meld KH AH 2H", "run")


def test_seed002_variant_aces_high_and_low() -> None:
    """'Aces high and low. The A counts as 1 or above the K: Q K A becomes a run too' (never
    K-A-2)."""
    rules = Rules.parse("classic(aces=high-low)")
    deal = playing(rules, "QH KH AH 2H 3H 9C 9D 5S 8S JD",
                   other="AC 7D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld QH KH AH")
    assert_legal(deal, "meld AH 2H 3H")
    assert_refused(deal, "meld KH AH 2H", "never K-A-2")
    deal.apply("meld QH KH AH")
    assert_refused(deal, "layoff 2H 1", "does not fit")


def test_seed002_variant_aces_high_lets_ace_extend_a_king() -> None:
    """With aces high and low the A may be laid off above the K (J Q K + A)."""
    hand = "JH QH KH AH 9C 9D 5S 8S JD 2C"
    other = "AC 7D JC QD 10D 8C 6C 3C 4D 2D"
    low = playing(CLASSIC, hand, other=other)
    low.apply("meld JH QH KH")
    assert_refused(low, "layoff AH 1", "aces are low only")
    high = playing(Rules.parse("classic(aces=high-low)"), hand, other=other)
    high.apply("meld JH QH KH")
    high.apply("layoff AH 1")
    assert high.table[0].cards == tuple(cards("JH QH KH AH"))


def test_seed002_set_of_three_or_four_same_rank() -> None:
    """'Set: three or four cards of the same rank, such as 7♠ 7♥ 7♦'."""
    deal = playing(CLASSIC, "7D 7H 7S 7C 5C 5D 2H 3S KD JH",
                   other="AC 8D JC QD 10D 8C 6C 3C 4D 2D")
    assert_legal(deal, "meld 7D 7H 7S")
    assert_legal(deal, "meld 7C 7D 7H 7S")
    assert_refused(deal, "meld 5C 5D", "3 to 4 cards of one rank")
    assert_refused(deal, "meld 5C 5D 3S", "one rank")


def test_seed002_run_three_or_more_same_suit_in_sequence() -> None:
    """'Run: three or more cards of the same suit in sequence, such as 4♣ 5♣ 6♣'."""
    deal = playing(CLASSIC, "4C 5C 6C 7C 9C 6D 2H 3S KD JH",
                   other="AC 8D JC QD 10D 8C 3C 4D 2D 5S")
    assert_legal(deal, "meld 4C 5C 6C")
    assert_legal(deal, "meld 4C 5C 6C 7C")
    assert_refused(deal, "meld 4C 5C", "3 or more cards in sequence")
    assert_refused(deal, "meld 6C 7C 9C", "in sequence")
    assert_refused(deal, "meld 4C 5C 6D", "one suit")


# -- the turn -------------------------------------------------------------------------


def test_seed002_draw_top_of_stock_or_of_discard_pile() -> None:
    """'Draw one card: the top card of the stock or the top card of the discard pile'."""
    deal = deal_from(CLASSIC, [OTHER, TWO_RUNS], "QS 2S", "JS")
    assert {str(a) for a in deal.legal_actions()} == {"draw stock", "draw pile"}
    assert_refused(deal, "draw pile QS", "only the top card")
    other = deal.copy()
    other.apply("draw stock")
    assert other.hands[1][-1] == cards("JS")[0]
    deal.apply("draw pile")
    assert deal.hands[1][-1] == cards("2S")[0] and deal.pile == cards("QS")


def test_seed002_at_most_one_meld_per_turn() -> None:
    """'You may lay one meld face up in front of you. At most one per turn.'"""
    deal = playing(CLASSIC, TWO_RUNS, other=OTHER, draw="2S", pile="QS")
    deal.apply("meld 6H 7H 8H")
    err = assert_refused(deal, "meld 4C 5C 6C", "one meld per turn")
    assert "lay-offs" in str(err)
    assert not [a for a in deal.legal_actions() if a.kind == "meld"]


def test_seed002_any_number_of_lay_offs_after_the_meld() -> None:
    """'Lay down at most one meld. Lay off as many cards as you like on any meld'."""
    deal = playing(CLASSIC, TWO_RUNS, other=OTHER, draw="2S", pile="QS")
    deal.apply("meld 6H 7H 8H")
    deal.apply("layoff 5H 1")
    deal.apply("layoff 9H 1")
    deal.apply("layoff 10H 1")
    assert deal.table[0].cards == tuple(cards("5H 6H 7H 8H 9H 10H"))
    deal.apply("discard KD")
    pass_turn(deal)
    # A new turn: a new meld.
    deal.apply("draw stock")
    assert_legal(deal, "meld 4C 5C 6C")


def test_seed002_lay_offs_before_the_one_meld() -> None:
    """Lay-offs do not use up the turn's meld: lay off first, then meld once."""
    hand = "6H 7H 8H 9H 4C 5C 6C 10S JS QS"
    deal = deal_from(CLASSIC, [OTHER, hand], "2S", "3D 2D")
    pass_turn_with_meld(deal, "meld 6H 7H 8H")
    pass_turn(deal)
    deal.apply("draw stock")
    deal.apply("layoff 9H 1")
    deal.apply("meld 4C 5C 6C")
    assert_refused(deal, "meld 10S JS QS", "one meld per turn")


def test_seed002_variant_several_melds_per_turn() -> None:
    """'Several melds per turn. You can lay down as many melds as you like in a turn'."""
    rules = Rules.parse("classic(melds_per_turn=many)")
    deal = playing(rules, TWO_RUNS, other=OTHER, draw="2S", pile="QS")
    deal.apply("meld 6H 7H 8H")
    assert_legal(deal, "meld 4C 5C 6C")
    deal.apply("meld 4C 5C 6C")
    assert len(deal.table) == 2


@pytest.mark.parametrize(("their_meld", "extra", "result"), [
    ("7D 7H 7S", "7C", "7C 7D 7H 7S"),
    ("4C 5C 6C", "7C", "4C 5C 6C 7C"),
])
def test_seed002_lay_off_on_anyones_meld(their_meld: str, extra: str, result: str) -> None:
    """'Add cards to the melds on the table, yours or anyone else's ... a fourth 7 to a set
    of 7, the 7♣ to the run 4♣ 5♣ 6♣'."""
    theirs = f"{their_meld} AD 2D 9S JC QC KC 10D"
    mine = f"{extra} 2H 3H 5H 8H 9H 10S JS QS KS"
    deal = deal_from(CLASSIC, [theirs, mine], "3S", "AS 8C", dealer=1)
    pass_turn_with_meld(deal, f"meld {their_meld}")
    deal.apply("draw stock")
    assert_legal(deal, f"layoff {extra} 1")
    deal.apply(f"layoff {extra} 1")
    assert deal.table[0].cards == tuple(cards(result))
    assert deal.table[0].owner == 0 and 1 in deal.table[0].layers


def test_seed002_melds_are_never_taken_apart() -> None:
    """'Melds on the table are never taken apart': a table card cannot go into a new meld,
    and a lay-off keeps the meld whole."""
    theirs = "4C 5C 6C 7C AD 2D 9S JC QC KC"
    mine = "7D 7H 8C 2H 3H 5H 8H 10S JS QS"
    deal = deal_from(CLASSIC, [theirs, mine], "3S", "AS 9H", dealer=1)
    pass_turn_with_meld(deal, "meld 4C 5C 6C 7C")
    deal.apply("draw stock")
    assert_refused(deal, "meld 7C 7D 7H", "7C is not in your hand")
    assert_refused(deal, "meld 5C 6C 7C", "not in your hand")
    deal.apply("layoff 8C 1")
    assert len(deal.table) == 1
    assert deal.table[0].cards == tuple(cards("4C 5C 6C 7C 8C"))


def test_seed002_taken_discard_may_not_be_thrown_back() -> None:
    """'Can I take the top discard and throw it straight back? No.'"""
    deal = deal_from(CLASSIC, [OTHER, TWO_RUNS], "2S", "JS")
    deal.apply("draw pile")
    assert_refused(deal, "discard 2S", "may not discard it")
    assert "discard 2S" not in {str(a) for a in deal.legal_actions()}
    deal.apply("discard KD")
    assert deal.pile == cards("KD")


# -- going out ------------------------------------------------------------------------


def test_seed002_go_out_by_discarding_the_last_card() -> None:
    """'The deal ends when a player runs out of cards, by ... discarding the last one'."""
    deal = Deal(CLASSIC, players=2, dealer=0,
                layout=winning_layout(CLASSIC, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.is_over and deal.pile[-1] == cards("KD")[0]
    assert deal.result is not None and deal.result.winner == 1


def test_seed002_go_out_by_melding_the_last_cards() -> None:
    """'... by melding ... the last one': one meld of the whole hand, no discard."""
    deal = playing(CLASSIC, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H", other=OTHER, draw="JH")
    deal.apply("meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH")
    assert deal.is_over and deal.pile == cards("2S")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.points == (0, 138)


def test_seed002_go_out_by_laying_off_the_last_card() -> None:
    """'... by laying off ... the last one'."""
    deal = deal_from(CLASSIC, [OTHER, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], "2S", "QS 8D JH")
    pass_turn_with_meld(deal, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H")
    pass_turn(deal)
    deal.apply("draw stock")
    deal.apply("layoff 10H 1")
    deal.apply("layoff JH 1")
    assert deal.is_over and deal.pile[-1] == cards("8D")[0]
    assert deal.result is not None and deal.result.points == (0, 69)


REQUIRED = Rules.parse("classic(last_discard=required)")


def test_seed002_variant_compulsory_last_discard_refuses_melding_out() -> None:
    """'Compulsory last discard. To go out you must discard your last card: you cannot go
    out by melding ... everything'."""
    deal = playing(REQUIRED, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H", other=OTHER, draw="JH")
    assert_refused(deal, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH", "compulsory last discard")
    deal.apply("meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H")
    deal.apply("discard JH")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.rummy is True
    assert deal.result.points == (0, 138)


def test_seed002_variant_compulsory_last_discard_refuses_laying_off_out() -> None:
    """'... you cannot go out by ... laying off everything': the last card is discarded."""
    deal = deal_from(REQUIRED, [OTHER, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], "2S", "QS 8D JH")
    pass_turn_with_meld(deal, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H")
    pass_turn(deal)
    deal.apply("draw stock")
    deal.apply("layoff 10H 1")
    assert_refused(deal, "layoff JH 1", "compulsory last discard")
    deal.apply("discard JH")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.points == (0, 69)


def _last_two_cards(rules: Rules) -> Deal:
    """Seat 1 holds the 10H against its run A-9H and has taken the JH from the pile."""
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"
    deal = deal_from(rules, [OTHER, hand], "2S", "QS JH")
    pass_turn_with_meld(deal, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H")
    pass_turn(deal)  # seat 0 throws the JH
    deal.apply("draw pile")
    assert deal.hands[1] == cards("10H JH") and deal.taken == cards("JH")[0]
    return deal


def test_seed002_variant_compulsory_last_discard_keeps_a_throwable_card() -> None:
    """Under the compulsory last discard the card kept must be one that may be thrown: not
    the discard just taken, although it could be laid off."""
    deal = _last_two_cards(REQUIRED)
    assert_refused(deal, "discard JH", "may not discard it")
    assert_refused(deal, "layoff 10H 1", "could not end the turn")
    deal.apply("discard 10H")
    assert deal.hands[1] == cards("JH") and not deal.is_over


def test_seed002_go_out_laying_off_the_taken_discard() -> None:
    """Without the variant the taken discard may be the last card laid off to go out."""
    deal = _last_two_cards(CLASSIC)
    deal.apply("layoff 10H 1")
    deal.apply("layoff JH 1")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.points == (0, 69)


# -- the stock runs out ---------------------------------------------------------------


def _exhaust_stock() -> tuple[Deal, list[int]]:
    deal = deal_from(CLASSIC, [OTHER, TWO_RUNS], "2S")
    discards = [pass_turn(deal) for _ in range(31)]
    assert deal.stock == [] and not deal.is_over and deal.phase == "draw"
    return deal, discards


def test_seed002_stock_out_turn_pile_over_without_shuffling() -> None:
    """'If the stock is empty and the player whose turn it is does not want the discard,
    turn the pile over without shuffling to form the new stock'."""
    deal, discards = _exhaust_stock()
    deal.apply("draw stock")
    assert deal.hands[0][-1] == cards("2S")[0]
    assert deal.stock[::-1] == discards and deal.pile == []
    assert deal.turn_overs_used == 1


def test_seed002_stock_out_may_take_the_discard() -> None:
    """The player at the empty stock may still want the top discard instead."""
    deal, discards = _exhaust_stock()
    deal.apply("draw pile")
    assert deal.hands[0][-1] == discards[-1]
    assert deal.stock == [] and deal.pile == cards("2S") + discards[:-1]
    assert_refused(deal, f"discard {names(discards[-1:])}", "may not discard it")


def test_seed002_turn_over_cap_ends_in_stalemate() -> None:
    """A deal always ends: after three turn-overs an empty stock ends it, no points."""
    m = Match(CLASSIC, players=2, seed=0, first_dealer=0,
              layout=layout(CLASSIC, [OTHER, TWO_RUNS], "2S"))
    turns = 0
    while not m.finished:
        pass_turn(m)
        turns += 1
    deal = m.finished[0]
    assert turns == 31 + 3 * 32 and deal.turn_overs_used == 3
    assert deal.result is not None
    assert deal.result.winner is None and deal.result.points == (0, 0)
    assert m.totals == [0, 0] and m.deal.dealer == 1


def test_seed002_turn_over_cap_is_an_option() -> None:
    """The cap is an option: turn_overs=1 ends the deal when the stock runs out again."""
    rules = Rules.parse("classic(turn_overs=1)")
    deal = deal_from(rules, [OTHER, TWO_RUNS], "2S")
    turns = 0
    while not deal.is_over:
        pass_turn(deal)
        turns += 1
    assert turns == 31 + 32 and deal.turn_overs_used == 1


# -- scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(("loser", "points"), [
    (LOSER_69, 69),
    (LOSER_100, 100),
    ("AC AD AS 2C 3D 6C 7C 9D 10S JS", 50),
])
def test_seed002_card_points_court_ten_ace_one(loser: str, points: int) -> None:
    """'Court cards 10, A 1, the others their number'."""
    deal = Deal(CLASSIC, players=2, dealer=0,
                layout=winning_layout(CLASSIC, players=2, dealer=0, winner=1,
                                      losers=[loser], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None and deal.result.points == (0, points)


def test_seed002_winner_collects_others_hands() -> None:
    """'Whoever went out collects the points of the cards left in the other players' hands'."""
    deal = Deal(CLASSIC, players=4, dealer=3,
                layout=winning_layout(CLASSIC, players=4, dealer=3, winner=1,
                                      losers=[LOW_A, LOW_B, LOW_C], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None
    assert deal.result.points == (0, 16 + 35 + 58, 0, 0)


def test_seed002_rummy_pays_double() -> None:
    """'Rummy ×2: going out by laying down the whole hand in a single turn, having melded
    nothing before' -- one meld and lay-offs, one on another player's meld."""
    theirs = "3C 3D 3H AC 7D JC QD 10D 8C 2S"
    mine = "6H 7H 8H 9H 10H JH QH KH 3S 5H"
    deal = deal_from(CLASSIC, [theirs, mine], "9S", "4D 9D KC")
    pass_turn(deal)  # seat 1 lays nothing down
    pass_turn_with_meld(deal, "meld 3C 3D 3H")
    deal.apply("draw stock")  # KC
    deal.apply("meld 6H 7H 8H 9H 10H JH QH KH")
    deal.apply("layoff 5H 2")
    deal.apply("layoff 3S 1")
    deal.apply("discard KC")
    assert deal.result is not None
    assert deal.result.winner == 1 and deal.result.rummy is True
    assert deal.result.points == (0, 2 * 48)


def test_seed002_no_rummy_after_an_earlier_meld() -> None:
    """'... having melded nothing before': a winner who melded in an earlier turn scores
    single points."""
    deal = Deal(CLASSIC, players=2, dealer=0,
                layout=winning_layout(CLASSIC, players=2, dealer=0, winner=1,
                                      losers=[LOSER_69], rummy=False))
    play_win(deal, 1, rummy=False)
    assert deal.result is not None
    assert deal.result.rummy is False and deal.result.points == (0, 69)


# -- the match ------------------------------------------------------------------------


def test_seed002_match_ends_when_someone_reaches_100() -> None:
    """'... or when someone reaches the agreed score' (100): over after the first deal."""
    m = classic_match(LOSER_100, rummy=False)
    play_win(m, 1, rummy=False)
    assert m.totals == [0, 100]
    assert m.is_over and m.winner == 1 and len(m.finished) == 1
    assert m.end == "target"


def test_seed002_match_goes_on_at_99() -> None:
    """99 has not reached 100, and only one of two players has dealt: another deal."""
    m = classic_match(LOSER_99, rummy=False)
    play_win(m, 1, rummy=False)
    assert m.totals == [0, 99] and not m.is_over
    assert m.end is None
    assert m.deal.dealer == 1


def test_seed002_match_ends_once_everyone_has_dealt() -> None:
    """'Until everyone has dealt once': three players, three deals, no one near 100;
    'the highest score ... wins'."""
    m = Match(CLASSIC, players=3, seed=0, first_dealer=0,
              layout=winning_layout(CLASSIC, players=3, dealer=0, winner=1,
                                    losers=[LOW_A, LOW_B], rummy=False))
    m.auto_deal = False
    play_win(m, 1, rummy=False)
    assert m.totals == [0, 51, 0] and not m.is_over
    m.start_next_deal(layout=winning_layout(CLASSIC, players=3, dealer=1, winner=2,
                                            losers=[LOW_A, LOW_B], rummy=False))
    play_win(m, 2, rummy=False)
    assert m.totals == [0, 51, 51] and not m.is_over
    m.start_next_deal(layout=winning_layout(CLASSIC, players=3, dealer=2, winner=0,
                                            losers=[LOW_A, LOW_C], rummy=False))
    assert m.dealers == [0, 1, 2]
    play_win(m, 0, rummy=False)
    assert m.totals == [74, 51, 51]
    assert m.is_over and m.winner == 0
    assert m.end == "dealt-once"


def test_seed002_match_agreed_score_is_an_option() -> None:
    """'An agreed score, for example 100': target=200 lets 138 go on."""
    rules = Rules.parse("classic(target=200)")
    m = Match(rules, players=3, seed=0, first_dealer=0,
              layout=winning_layout(rules, players=3, dealer=0, winner=1,
                                    losers=[LOW_C, "AC 2C 3C AD 2D 3D 4D"], rummy=True))
    play_win(m, 1, rummy=True)
    assert m.totals == [0, 2 * (58 + 16), 0] and not m.is_over


# -- illegal actions ------------------------------------------------------------------


@pytest.mark.parametrize(("before", "action", "reason"), [
    ([], "meld 6H 7H 8H", "must draw first"),
    ([], "draw pile QS", "only the top card of the pile"),
    (["draw pile"], "discard 2S", "may not discard it"),
    (["draw pile"], "draw stock", "drawn already"),
    (["draw pile", "meld 6H 7H 8H"], "meld 4C 5C 6C", "one meld per turn"),
    (["draw pile", "meld 6H 7H 8H"], "layoff 4C 1", "the run is in H"),
    (["draw pile", "meld 6H 7H 8H"], "layoff KD 2", "no meld 2"),
    (["draw pile"], "meld QH KH AH", "not in your hand"),
])
def test_seed002_illegal_action_names_rule_and_changes_nothing(
    before: list[str], action: str, reason: str
) -> None:
    """An illegal action is refused with a reason that names the rule, the state unchanged."""
    deal = deal_from(CLASSIC, [OTHER, TWO_RUNS], "QS 2S", "JS")
    for a in before:
        deal.apply(a)
    state = snapshot(deal)
    assert_refused(deal, action, reason)
    assert snapshot(deal) == state
