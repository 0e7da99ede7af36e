"""Seed 003 (500 Rum, in Russian): the `rummy500` preset, row by row of RULES.md."""

from __future__ import annotations

import pytest

from rummykit.cards import JOKER, format_cards, make_deck
from rummykit.engine import Deal, DealResult, Layout, Match
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError, RecordError, RulesError
from rummykit.rules import preset

from ._build_variants import cards, deal, hand, match, no_shuffle, play, snapshot

R = preset("rummy500")


def _points(d: Deal) -> tuple[int, ...]:
    assert d.result is not None
    return d.result.points


# -- players, deck, deal -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed003_two_to_six_players(players: int) -> None:
    """RULES.md: 500 Rum is played by 2-6 players (default)."""
    m = Match(R, players=players, seed=3)
    assert m.players == players
    assert m.deal.card_count() == 52


@pytest.mark.parametrize("players", [1, 7])
def test_seed003_fewer_than_two_or_more_than_six_players_refused(players: int) -> None:
    """RULES.md: 2-6 players; other counts are refused."""
    with pytest.raises(RulesError):
        Match(R, players=players, seed=3)


def test_seed003_two_decks_is_an_option_above_four_players() -> None:
    """RULES.md: two decks above 4 players is an option of 500 Rum."""
    d = Deal.start(R.replace(decks=2), players=6, dealer=0, seed=1)
    assert d.card_count() == 104
    assert len(d.hands[0]) == 7


def test_seed003_standard_52_card_deck() -> None:
    """«Используется стандартная колода из 52 карт» (a standard 52-card deck is used)."""
    d = Deal.start(R, players=3, dealer=0, seed=11)
    assert sorted(d.all_cards()) == list(range(52))
    assert R.deck_size == 52
    assert R.jokers == 0


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 7), (4, 7), (5, 7), (6, 7)])
def test_seed003_thirteen_cards_for_two_players_seven_otherwise(players: int, size: int) -> None:
    """«по семь карт (кроме игры вдвоем ... по 13 карт)»: seven each, 13 with two players."""
    d = Deal.start(R, players=players, dealer=0, seed=5)
    assert [len(h) for h in d.hands] == [size] * players
    assert len(d.pile) == 1
    assert len(d.stock) == 52 - players * size - 1


def test_seed003_dealt_one_at_a_time_from_dealers_left_then_pile_card(monkeypatch) -> None:
    """RULES.md: dealt one at a time from the dealer's left; «Верхняя карта» starts the pile."""
    no_shuffle(monkeypatch)  # deck order AC..KC, AD..KD, AH..KH, AS..KS
    d = Deal.start(R, players=3, dealer=0, seed=0)
    assert hand(d, 1) == "AC 4C 7C 10C KC 3D 6D"
    assert hand(d, 2) == "2C 5C 8C JC AD 4D 7D"
    assert hand(d, 0) == "3C 6C 9C QC 2D 5D 8D"
    assert format_cards(d.pile) == "9D"
    d.apply("draw stock")
    assert format_cards(d.hands[1][-1:]) == "10D"


def test_seed003_player_left_of_dealer_starts_play_goes_clockwise() -> None:
    """«начиная с игрока слева от дилера» (starting left of the dealer), then clockwise."""
    assert Deal.start(R, players=4, dealer=1, seed=2).to_move == 2
    assert Deal.start(R, players=2, dealer=0, seed=2).to_move == 1
    d = Deal.start(R, players=4, dealer=2, seed=2)
    seen = []
    for _ in range(5):
        seen.append(d.to_move)
        d.apply("draw stock")
        d.apply(f"discard {format_cards(d.hands[d.to_move][-1:])}")
    assert seen == [3, 0, 1, 2, 3]


ONE_TURN_OUT = [
    "2C 3C 4C 5C 9D 9H 9S",  # melds everything with the 9C it draws: 14 + 36 = 50
    "KD QD 8S 8C 7D 6D 2S",  # 10+10+8+8+7+6+2 = 51
    "JH JS 10H 4D 3H 3S 2D",  # 10+10+10+4+3+3+2 = 42
]


def test_seed003_next_dealer_is_the_player_on_the_left() -> None:
    """RULES.md: the next deal is dealt by the player on the left."""
    m = match(R, ONE_TURN_OUT, "4S", "9C", dealer=2)
    play(m, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    assert len(m.finished) == 1
    assert m.deal.dealer == 0
    assert m.deal.to_move == 1


# -- melds -------------------------------------------------------------------------------

ACES = [
    "QH KH AH AC 2C 3C KD AD 2D 2H 8S 5D 6C",
    "4H 5H 6H 7H 8H 9H 10H JC QC KC 4S 5S 6S",
]


def test_seed003_ace_high_or_low_in_runs() -> None:
    """«A, K, Q или A, 2, 3 могут быть соединены» (Q-K-A and A-2-3 may be melded)."""
    d = deal(R, ACES, "10D", "JD")
    play(d, "draw stock", "meld QH KH AH", "meld AC 2C 3C")
    assert [(m.kind, m.low, m.high) for m in d.table] == [("run", 12, 14), ("run", 1, 3)]


def test_seed003_runs_never_go_round_the_corner() -> None:
    """«Последовательности не могут «заходить за угол»... не K, A, 2» (no K-A-2)."""
    d = deal(R, ACES, "10D", "JD")
    play(d, "draw stock", "meld QH KH AH")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="never K-A-2"):
        d.apply("meld KD AD 2D")
    with pytest.raises(IllegalActionError, match="does not fit"):
        d.apply("layoff 2H 1")  # Q-K-A then 2: round the corner
    assert snapshot(d) == before


def test_seed003_sets_of_three_or_four() -> None:
    """«наборах из 3 или 4 совпадающих чисел» (sets of 3 or 4 of the same rank)."""
    d = deal(R, ["9C 9D 9H 9S 4C 4D KS", "7C 7D 7H 2S 3S 10C JD", "QC QD 5H 6D 8C 8D 10S"],
             "4S", "AS 7S 3H")
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="a set is 3 to 4 cards of one rank"):
        d.apply("meld 4C 4D")
    d.apply("meld 9C 9D 9H 9S")
    assert (d.table[0].kind, len(d.table[0].cards), d.table[0].rank) == ("set", 4, 9)
    d.apply("discard AS")
    play(d, "draw stock", "meld 7C 7D 7H", "layoff 7S 2")
    assert (d.table[1].kind, len(d.table[1].cards)) == ("set", 4)


def test_seed003_runs_of_three_or_more_in_suit() -> None:
    """«последовательностях из 3 или более карт одной масти» (runs: 3+ cards of one suit)."""
    d = deal(R, ["5H 6H 7H 8H 5S 6S 6D", "KD QD 8S 8C 7D 2D 2S", "JH JS 10H 4D 3H 3S QC"],
             "4S", "7C")
    d.apply("draw stock")
    with pytest.raises(IllegalActionError, match="3 or more cards in sequence"):
        d.apply("meld 5S 6S")
    with pytest.raises(IllegalActionError, match="a run cards of one suit"):
        d.apply("meld 5S 6D 7C")
    with pytest.raises(IllegalActionError, match="in sequence"):
        d.apply("meld 5H 6H 8H")
    d.apply("meld 5H 6H 7H 8H")
    assert (d.table[0].kind, d.table[0].low, d.table[0].high) == ("run", 5, 8)


# -- the draw ----------------------------------------------------------------------------

DRAW = ["9C 9D 5S 6S 2H 3D KC", "KD QD 8S 8C 7D 6D 2S", "JH JS 10H 4H 3H 3S QC"]
DRAW_PILE = "2C 9H 4D KS 7S"  # bottom first: 7S on top


def test_seed003_draw_top_of_stock() -> None:
    """«может вытянуть либо верхнюю карту из колоды» (may draw the top card of the stock)."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    d.apply("draw stock")
    assert sorted(d.hands[0]) == sorted(cards("9C 9D 5S 6S 2H 3D KC JD"))
    assert format_cards(d.pile) == DRAW_PILE
    assert d.pending == -1


def test_seed003_whole_pile_is_visible() -> None:
    """«Стопка сброса должна быть слегка разложена» (the pile is spread: all cards seen)."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    assert format_cards(view(d, 1).pile) == DRAW_PILE


def test_seed003_draw_any_pile_card_with_all_cards_above_it() -> None:
    """«игрок должен взять все карты выше выбранной карты» (take all cards above the chosen)."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    d.apply("draw pile 9H")
    assert format_cards(d.pile) == "2C"
    assert sorted(d.hands[0]) == sorted(cards("9C 9D 5S 6S 2H 3D KC 9H 4D KS 7S"))
    assert d.pending == cards("9H")[0]
    assert d.phase == "play"


def test_seed003_two_decks_a_twin_on_the_pile_is_taken_from_its_top_most_place() -> None:
    """«все карты выше выбранной карты» with the two-deck option (RULES.md): a card can lie
    on the pile twice, and naming it takes it from its top-most place, so it is a legal
    draw only when that copy, with the cards above it, can be used."""
    two = R.replace(decks=2)
    d = deal(two, ["6H 2D 4C JS QD 3S 10C", "KD QC 5C 9C 7D 6D 2S", "JH 5S 10H 4H 3H 3D QS"],
             "8H 7H 8H KS")  # bottom first: the lower 8H would be usable (6H 7H 8H)
    legal = {str(a) for a in d.legal_actions()}
    assert "draw pile 7H" in legal  # 7H 8H KS: 6H 7H 8H
    assert "draw pile 8H" not in legal  # the top-most 8H, with KS alone: no meld
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="can be taken only to be melded or laid"):
        d.apply("draw pile 8H")
    assert snapshot(d) == before
    d.apply("draw pile 7H")
    assert format_cards(d.pile) == "8H"
    assert d.pending == cards("7H")[0]


def test_seed003_a_layoff_elsewhere_keeps_a_chosen_card_the_hand_reaches() -> None:
    """RULES.md, the chosen pile card must be used: 3C is drawn to be laid off once 4C
    extends 5C-9C; laying off 10C first leaves that way open (listed and accepted)."""
    d = deal(R, ["5C 6C 7C 8C 9C 2H KS", "4C 10C 4D 6D QH JS 2D", "JH 5S 10H 4H 3H 3D QS"],
             "3C", "AH")
    play(d, "draw stock", "meld 5C 6C 7C 8C 9C", "discard KS", "draw pile 3C")
    assert d.pending == cards("3C")[0]
    listed = {str(a) for a in d.legal_actions()}
    assert {"layoff 10C 1", "layoff 4C 1"} <= listed
    assert not any(a.startswith("discard") for a in listed)
    play(d, "layoff 10C 1", "layoff 4C 1", "layoff 3C 1", "discard KS")
    assert format_cards(d.table[0].cards) == "3C 4C 5C 6C 7C 8C 9C 10C"


def test_seed003_two_decks_a_meld_of_one_twin_keeps_the_other_for_the_chosen_card() -> None:
    """RULES.md, the chosen pile card must be used, with the two-deck option: melding one
    9C of two leaves the other for 9C 9D 9H, so the meld is legal (listed and accepted)."""
    two = R.replace(decks=2)
    d = deal(two, ["7C 8C 9C 9C 9D 2S KS", "KD QC 5C 4C 7D 6D 2H", "JH 5S 10H 4H 3H 3D QS"],
             "9H")
    d.apply("draw pile")
    assert "meld 7C 8C 9C" in {str(a) for a in d.legal_actions()}
    play(d, "meld 7C 8C 9C", "meld 9C 9D 9H", "discard KS")
    assert [format_cards(m.cards) for m in d.table] == ["7C 8C 9C", "9C 9D 9H"]


def test_seed003_draw_pile_alone_takes_the_top_card_only() -> None:
    """RULES.md: ANY pile card with all above it — the top card alone too."""
    d = deal(R, DRAW, "2C 9H 4D KS 7S 9S", "JD")
    d.apply("draw pile")
    assert format_cards(d.pile) == "2C 9H 4D KS 7S"
    assert d.pending == cards("9S")[0]


def test_seed003_chosen_pile_card_must_be_used() -> None:
    """«взятая карта должна быть немедленно использована» (used at once; no discard before)."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    d.apply("draw pile 9H")
    for card in ("4D", "KC", "9H"):
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match="must meld or lay it off"):
            d.apply(f"discard {card}")
        assert snapshot(d) == before
    d.apply("meld 5S 6S 7S")  # does not use the 9H: still pending
    assert d.pending == cards("9H")[0]
    with pytest.raises(IllegalActionError, match="must meld or lay it off"):
        d.apply("discard 4D")
    d.apply("meld 9C 9D 9H")
    assert d.pending == -1
    d.apply("discard 2H")
    assert d.to_move == 1


def test_seed003_other_taken_pile_cards_may_be_discarded() -> None:
    """«Оставшиеся карты, взятые при сбросе» (the other taken cards) may be discarded."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    play(d, "draw pile 9H", "meld 9C 9D 9H", "discard KS")
    assert format_cards(d.pile) == "2C KS"
    assert d.to_move == 1


def test_seed003_pile_draw_of_an_unusable_card_is_refused() -> None:
    """RULES.md: a pile draw whose chosen card cannot be melded or laid off is refused."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    before = snapshot(d)
    for chosen in ("2C", "4D", "KS"):
        with pytest.raises(IllegalActionError, match="can be taken only to be melded or laid"):
            d.apply(f"draw pile {chosen}")
        assert snapshot(d) == before
    d.apply("draw pile")  # the 7S on top: usable in 5S 6S 7S


def test_seed003_meld_leaving_the_chosen_card_unusable_is_refused() -> None:
    """RULES.md, no dead ends: a meld leaving the chosen pile card unusable is refused."""
    d = deal(R, ["9C 9D 7C 8C 2H 3D KC", "KD QD 8S 6C 5D 6D 2S", "JH JS 10H 4H 3H 3S QC"],
             "2C 9H 4D", "JD")
    d.apply("draw pile 9H")
    listed = {str(a) for a in d.legal_actions()}
    assert "meld 7C 8C 9C" not in listed and "meld 9C 9D 9H" in listed
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="must still meld or lay off 9H"):
        d.apply("meld 7C 8C 9C")
    assert snapshot(d) == before
    play(d, "meld 9C 9D 9H", "discard 4D")


def test_seed003_meld_the_chosen_card_then_fits_is_legal() -> None:
    """RULES.md: the chosen pile card may be used by laying it off on a meld laid this
    turn: 8H drawn, 5H 6H 7H melded without it (listed and accepted), then 8H laid off."""
    d = deal(R, ["5H 6H 7H 2C 4D KS 9S", "3S 4S 10C JD QD 6C 7D", "JS 2D 3D 8C 10S QC 5C"],
             "8H", "AC")
    assert "draw pile" in {str(a) for a in d.legal_actions()}
    d.apply("draw pile")
    assert "meld 5H 6H 7H" in {str(a) for a in d.legal_actions()}
    play(d, "meld 5H 6H 7H")
    assert {str(a) for a in d.legal_actions()} == {"layoff 8H 1"}
    play(d, "layoff 8H 1", "discard KS")
    assert format_cards(d.table[0].cards) == "5H 6H 7H 8H"


LAYOFF = ["5H 6H 7H 8H 2C 4D 9S", "2S 3S 10C KD QS 4C 6D", "JH JS 10H 8D 3H 5S QC"]


def test_seed003_top_pile_card_used_by_laying_it_off_on_another_players_meld() -> None:
    """«выкладывания на уже имеющийся на столе набор»: used by a lay-off on another's meld."""
    d = deal(R, LAYOFF, "4S", "JC")
    play(d, "draw stock", "meld 5H 6H 7H", "discard 8H")
    d.apply("draw pile")
    assert d.pending == cards("8H")[0]
    play(d, "layoff 8H 1", "discard KD")
    assert format_cards(d.table[0].cards) == "5H 6H 7H 8H"
    assert d.table[0].owner == 0
    assert d.table[0].layers == (0, 0, 0, 1)


def test_seed003_pile_card_usable_after_another_layoff_may_be_drawn() -> None:
    """RULES.md: 9H can be laid off once 8H extends 5H-7H, so drawing it is not refused."""
    d = deal(R, ["5H 6H 7H 8H 2C 4D KS", "3S 4S 10C JD QD 6C 7D", "9H JS 2D 3D 8C 10S QC"],
             "5S", "AC 2S 8S")
    play(d, "draw stock", "meld 5H 6H 7H", "discard AC", "draw stock", "discard 2S",
         "draw stock", "discard 9H")
    play(d, "draw pile", "layoff 8H 1", "layoff 9H 1", "discard KS")
    assert format_cards(d.table[0].cards) == "5H 6H 7H 8H 9H"


def test_seed003_high_ace_usable_after_the_king_extends_a_run_may_be_drawn() -> None:
    """RULES.md (aces high or low): AH can be laid off once KH extends 10H-QH, so drawing
    it is not refused (the king held beside the ace is what reaches the run)."""
    d = deal(R, ["10H JH QH KH 2C 4D 9S", "AH 3S 4S 10C JD 6C 7D", "JS 2D 3D 8C 10S QC 5C"],
             "5S", "AC 2S 8S")
    play(d, "draw stock", "meld 10H JH QH", "discard AC", "draw stock", "discard AH",
         "draw stock", "discard 8S")
    assert "draw pile AH" in {str(a) for a in d.legal_actions()}
    play(d, "draw pile AH", "layoff KH 1", "layoff AH 1", "discard 8S")
    assert format_cards(d.table[0].cards) == "10H JH QH KH AH"


# -- the turn ----------------------------------------------------------------------------


def test_seed003_any_number_of_melds_per_turn() -> None:
    """«может выложить любой совпавший набор» (may lay down any meld): several per turn."""
    d = deal(R, ["AH 2H 3H QS KS AS 9D", "4H 7C 7D 7H 8C JD AC", "10C JC QC KC 5S 6S 2S"],
             "4S", "8S")
    play(d, "draw stock", "meld AH 2H 3H", "meld QS KS AS")
    assert len(d.table) == 2
    assert d.turn_melds == 2


def test_seed003_first_meld_may_be_anything() -> None:
    """RULES.md: no minimum for the first meld; a player may lay off before melding."""
    d = deal(R, ["AH 2H 3H 6C 8C JD 9D", "4H 7C 7D 10H 8D 2C 3C", "10C JC QC KC 5S 6S 2S"],
             "4S", "8S 9S")
    assert all(d.opened(s) for s in range(3))
    play(d, "draw stock", "meld AH 2H 3H", "discard 8S")  # worth 6
    play(d, "draw stock", "layoff 4H 1", "discard 9S")  # a lay-off before any own meld
    assert d.table[0].layers == (0, 0, 0, 1)


def test_seed003_go_out_by_discarding_the_last_card() -> None:
    """RULES.md: go out as in 000, here by discarding the last card."""
    d = deal(R, ONE_TURN_OUT, "4S", "KC")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9D 9H 9S", "discard KC")
    assert d.is_over
    assert d.result == DealResult(0, True, (41, -51, -42))


def test_seed003_go_out_by_melding_the_last_card() -> None:
    """«избавляется от всех своих карт, игра немедленно заканчивается»: out by melding."""
    d = deal(R, ONE_TURN_OUT, "4S", "9C")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    assert d.is_over
    assert d.result == DealResult(0, True, (50, -51, -42))


def test_seed003_go_out_by_laying_off_the_last_card() -> None:
    """RULES.md: the last card may be laid off to go out."""
    d = deal(R, ["2C 3C 4C 9D 9H 9S 5C", "KD QD 8S 8C 7D 6D 2S", "JH JS 10H 4D 3H 3S 2D"],
             "4S", "6C")
    play(d, "draw stock", "meld 2C 3C 4C", "meld 9D 9H 9S", "layoff 5C 1", "layoff 6C 1")
    assert d.is_over
    assert d.result == DealResult(0, True, (2 + 3 + 4 + 5 + 6 + 27, -51, -42))


# -- the end of the stock ------------------------------------------------------------------

STOCK_END = ["AH 2H 3H AS AD AC 5C", "KD QD 9S 8C 7D 6D 2S", "JH JS 10H 4D 3C 3S 2D"]


def test_seed003_stock_empty_and_end_closes_the_deal() -> None:
    """RULES.md: stock empty and `end`: the deal ends, melded minus hand, winner None."""
    d = deal(R, STOCK_END, "4S", "QC", rest_to="pile")
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="only when the stock is empty"):
        d.apply("end")
    assert snapshot(d) == before
    play(d, "draw stock", "meld AH 2H 3H", "meld AS AD AC", "discard QC")
    assert d.stock == []
    assert not d.is_over
    assert d.to_move == 1
    before = snapshot(d)
    with pytest.raises(IllegalActionError, match="the stock is empty"):
        d.apply("draw stock")
    assert snapshot(d) == before
    d.apply("end")
    assert d.is_over
    # seat 0: 1+2+3 + 15*3 - 5; seat 1: -(10+10+9+8+7+6+2); seat 2: -(10+10+10+4+3+3+2)
    assert d.result == DealResult(None, False, (46, -52, -42))


def test_seed003_stock_empty_player_may_still_take_from_the_pile() -> None:
    """RULES.md: with the stock empty a player may take from the pile instead of `end`."""
    d = deal(R, STOCK_END, "5D 4S", "QC", rest_to="pile")
    play(d, "draw stock", "meld AH 2H 3H", "meld AS AD AC", "discard QC")
    assert d.stock == []
    play(d, "draw pile 5D", "meld 5D 6D 7D", "discard QC")
    assert not d.is_over
    assert d.to_move == 2
    assert d.stock == []


# -- scoring -----------------------------------------------------------------------------

SCORING = ["AH 2H 3H QS KS AS 9D", "4H 7C 7D 7H 8C JD AC", "10C JC QC KC 5S 6S 2S"]
SCORING_ACTIONS = (
    "draw stock", "meld AH 2H 3H", "meld QS KS AS", "discard 8S",
    "draw stock", "layoff 4H 1", "meld 7C 7D 7H", "discard 9S",
    "draw stock", "meld 10C JC QC KC", "discard 10S",
    "draw stock", "layoff 5H 1", "discard 9D",
)


def test_seed003_deal_score_is_melded_minus_hand_for_every_player() -> None:
    """«очко за все карты, которые он выложил на стол» minus hand, for every player."""
    d = deal(R, SCORING, "4S", "8S 9S 10S 5H")
    play(d, *SCORING_ACTIONS)
    assert d.is_over
    assert d.table[0].layers == (0, 0, 0, 1, 0)
    # seat 0: A-2-3 (1+2+3) + Q-K-A (10+10+15) + 5H = 46
    # seat 1: 4H + 7C 7D 7H = 25, minus 8C JD AC = 8+10+15 = 33
    # seat 2: 10+10+10+10 = 40, minus 5S 6S 2S = 13
    assert d.result == DealResult(0, False, (46, -8, 27))


def test_seed003_deal_score_added_to_running_totals() -> None:
    """«Разница прибавляется или вычитается из очков игрока» (added to the running total)."""
    m = match(R, SCORING, "4S", "8S 9S 10S 5H", totals=[10, 20, 30])
    play(m, *SCORING_ACTIONS)
    assert m.totals == [56, 12, 57]
    assert not m.is_over


def test_seed003_layoffs_score_for_the_player_who_laid_them() -> None:
    """RULES.md: lay-offs score for who laid them, on another's meld too (low A 1, high A 15)."""
    d = deal(R, ["2H 3H 4H QS KS JS 9D", "AH AS 5C 6C 7D 10D 10S", "JH 4S 5S 8D 2D 3D KC"],
             "4C", "8C 3C 9C", rest_to="pile")
    play(d, "draw stock", "meld 2H 3H 4H", "meld JS QS KS", "discard 8C",
         "draw stock", "layoff AH 1", "layoff AS 2", "discard 3C",
         "draw stock", "discard 9C")
    assert d.table[0].layers == (1, 0, 0, 0)
    assert d.table[1].layers == (0, 0, 0, 1)
    d.apply("end")
    # seat 0: 9 + 30 - 9; seat 1: 1 + 15 - (5+6+7+10+10); seat 2: -(10+4+5+8+2+3+10)
    assert d.result == DealResult(None, False, (30, -22, -42))


def test_seed003_card_values_ace_15_low_ace_in_run_1_court_10() -> None:
    """RULES.md: A 15, but 1 at the low end of a melded run; J Q K 10; others pip."""
    d = deal(R, SCORING, "4S", "8S 9S 10S 5H")
    play(d, *SCORING_ACTIONS)
    assert d.result is not None
    # A-2-3 run: ace 1; Q-K-A: ace 15; AC in seat 1's hand: 15; JD 10
    assert d.result.points[0] == (1 + 2 + 3) + (10 + 10 + 15) + 5
    assert d.result.points[1] == (4 + 7 * 3) - (8 + 10 + 15)
    e = deal(R, STOCK_END, "4S", "QC", rest_to="pile")
    play(e, "draw stock", "meld AH 2H 3H", "meld AS AD AC", "discard QC", "end")
    assert _points(e)[0] == (1 + 2 + 3) + 15 * 3 - 5  # aces in a set: 15 each


def test_seed003_no_rummy_bonus() -> None:
    """RULES.md: no rummy bonus by default: going out in one turn is scored as usual."""
    d = deal(R, ONE_TURN_OUT, "4S", "9C")
    play(d, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    assert d.result is not None
    assert d.result.rummy is True
    assert d.result.points == (50, -51, -42)
    assert R.rummy_multiplier == 1


# -- the match ---------------------------------------------------------------------------


def _one_turn_out_match(totals: list[int]) -> Match:
    m = match(R, ONE_TURN_OUT, "4S", "9C", totals=totals)
    play(m, "draw stock", "meld 2C 3C 4C 5C", "meld 9C 9D 9H 9S")
    return m


def test_seed003_match_won_by_first_total_reaching_500() -> None:
    """«Первый игрок, чей счет достигнет +500, побеждает» (the first to reach 500 wins)."""
    m = _one_turn_out_match([450, 0, 0])
    assert m.totals == [500, -51, -42]
    assert m.is_over
    assert m.winner == 0


def test_seed003_match_goes_on_below_500() -> None:
    """«Первый игрок, чей счет достигнет +500» (reaching +500 is what ends it): 499 does not."""
    m = _one_turn_out_match([449, 0, 0])
    assert m.totals == [499, -51, -42]
    assert not m.is_over
    assert m.winner is None
    assert len(m.finished) == 1
    assert m.deal.dealer == 0  # next deal, dealt by the player on the left


def test_seed003_several_reach_500_at_once_highest_wins() -> None:
    """«Если два или более игроков достигают 500 ... с наибольшим счетом» (highest wins)."""
    m = match(R, SCORING, "4S", "8S 9S 10S 5H", totals=[460, 0, 480])
    play(m, *SCORING_ACTIONS)
    assert m.totals == [506, -8, 507]
    assert m.is_over
    assert m.winner == 2  # not seat 0, who went out


# -- illegal actions ---------------------------------------------------------------------


def test_seed003_illegal_actions_name_the_rule_and_change_nothing() -> None:
    """RULES.md: an illegal action is refused naming the rule, and the state is unchanged."""
    d = deal(R, DRAW, DRAW_PILE, "JD")
    refused = {
        "meld 9C 9D 9H": "must draw first",
        "discard KC": "must draw first",
        "end": "only when the stock is empty",
        "draw pile 2C": "can be taken only to be melded or laid off",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before
    d.apply("draw pile 9H")
    refused = {
        "draw stock": "drawn already",
        "discard 4D": "must meld or lay it off",
        "meld 9C 9D 9S": "9S is not in your hand",
        "layoff 9H 1": "no meld 1",
        "meld 2H 3D 4D": "a run cards of one suit",
    }
    for action, reason in refused.items():
        before = snapshot(d)
        with pytest.raises(IllegalActionError, match=reason):
            d.apply(action)
        assert snapshot(d) == before


def test_seed003_deck_has_no_jokers() -> None:
    """«стандартная колода из 52 карт»: a layout with a joker is not the rummy500 deck."""
    deck = [int(c) for c in make_deck()]
    with pytest.raises(RecordError, match="not the deck"):
        Deal(R, players=3, dealer=2, layout=Layout(
            (tuple(deck[:7]), tuple(deck[7:14]), tuple(deck[14:21])),
            (*deck[22:51], int(JOKER)), (deck[21],)))
