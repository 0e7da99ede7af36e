"""RULES.md, "What any engine of these rules must get right": the corners an independent
audit found, and the repetition rule, each built by hand from the rule books.

Positions are written as hands, pile and stock top (see ``_build_variants``); the
expectations come from the rule texts quoted in each test, not from the engine's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit import record as records
from rummykit.cards import parse_cards
from rummykit.cli import main
from rummykit.engine import Action, Deal, Match
from rummykit.engine.melds import find_melds, make_meld
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError
from rummykit.plain import _deal_summary
from rummykit.rules import preset

from ._build_variants import deal, play, snapshot

RAMINO = preset("ramino")
RUMMY500 = preset("rummy500")
BASIC = preset("basic")


def legal_texts(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


# -- no dead ends, with twins ----------------------------------------------------------

# Ramino, two players, seat 0 starts. Seat 0 opens with K K K and Q K A of hearts (61) and
# keeps 7H and the second KH; seat 1 opens with 4-5-6 and 8-9-10-J of hearts (53) and
# throws the other 7H. Seat 0 takes that 7H from the pile: it holds 7H, 7H, KH.
TWINS_HANDS = ["KC KD KS QH KH AH 7H KH", "4H 5H 6H 8H 9H 10H JH 7H"]
TWINS_PLAY = ("draw stock", "meld KC KD KS", "meld QH KH AH", "discard 3D",
              "draw stock", "meld 4H 5H 6H", "meld 8H 9H 10H JH", "discard 7H",
              "draw pile")


def twins_deal() -> Deal:
    d = deal(RAMINO, TWINS_HANDS, "2S", "3D 2C")
    play(d, *TWINS_PLAY)
    assert sorted(d.hands[0]) == sorted(int(c) for c in parse_cards(["7H", "7H", "KH"]))
    return d


def test_rulesmd_no_dead_ends_taken_card_and_its_twin_both_laid_off_to_go_out() -> None:
    """RULES.md: «an action is legal only if the player can still finish the turn legally
    after it»; 000: «The winner is the player who goes out by playing the last card from
    his hand, whether by melding, laying off or discarding». After laying off the KH on
    the kings, the two cards left are the 7H taken from the pile and its twin: neither may
    be discarded, but one extends 4-5-6H and the other 8-9-10-JH, which goes out. So the
    lay-off of the KH is legal, listed, and the player goes out."""
    d = twins_deal()
    assert "layoff KH 1" in legal_texts(d)
    assert d.can(Action.parse("layoff KH 1"))
    play(d, "layoff KH 1")
    assert set(legal_texts(d)) == {"layoff 7H 3", "layoff 7H 4"}
    play(d, "layoff 7H 3", "layoff 7H 4")
    assert d.is_over and d.result is not None and d.result.winner == 0


def test_rulesmd_no_dead_ends_refuses_when_the_twins_cannot_all_be_laid_off() -> None:
    """The same position with only one heart run to extend (seat 1 melds 8-9-10-J of
    clubs instead of hearts): after the KH lay-off the two 7H could not both leave the hand
    (one extends 4-5-6H, the other fits nowhere, and neither may be discarded), so the
    lay-off is refused, and the refusal names both cards left."""
    hands = ["KC KD KS QH KH AH 7H KH", "4H 5H 6H 8C 9C 10C JC 7H"]
    d = deal(RAMINO, hands, "2S", "3D 2C")
    play(d, "draw stock", "meld KC KD KS", "meld QH KH AH", "discard 3D",
         "draw stock", "meld 4H 5H 6H", "meld 8C 9C 10C JC", "discard 7H", "draw pile")
    before = snapshot(d)
    assert "layoff KH 1" not in legal_texts(d)
    with pytest.raises(IllegalActionError) as err:
        d.apply("layoff KH 1")
    assert err.value.code == "dead-end"
    assert err.value.params["cards"] == "7H 7H"
    assert "7H 7H" in str(err.value)
    assert snapshot(d) == before
    # Laying off one 7H first leaves 7H and KH: the KH may be discarded, so that is legal.
    assert "layoff 7H 3" in legal_texts(d)


# -- jokers: one natural card and four jokers ------------------------------------------


def test_ramino_joker_run_of_one_natural_and_four_jokers_is_listed() -> None:
    """Ramino: «a ★ stands for any card»; RULES.md: a joker «in a run, [stands] for the card
    its place fixes», a set is 3-4 cards. 5H JK JK JK JK is five cards, too long for a set,
    so it is the run 5H-9H (5+6+7+8+9 = 35). With 9C 9D 9S (27) it opens (62 >= 50), so it
    is legal; the legal actions list it even though the hand holds the 6H as well."""
    d = deal(RAMINO, ["5H 6H JK JK JK JK 9C 9D", "AC 2C 3C 4C 5C 6C 7C 8C"], "2S", "9S")
    play(d, "draw stock")
    run = Action.parse("meld 5H JK JK JK JK")
    assert d.can(run)
    assert str(run) in legal_texts(d)
    assert len(d.legal) == len(d.legal_actions())
    assert sum(1 for a in d.legal_actions() if d.can(a)) == len(d.legal)
    meld = make_meld(run.cards, RAMINO, 0)
    assert (meld.kind, meld.low, meld.high) == ("run", 5, 9)


def test_seed003_deep_pile_draw_under_compulsory_last_discard_is_decided() -> None:
    """003: «взятая карта должна быть немедленно использована» (the card taken must be used
    at once). Taking the 4H from the bottom of a 28-card pile brings the 3H and 5H with it,
    so 3H 4H 5H can be melded and a card kept for the compulsory last discard: the draw is
    legal. (Deciding it once took a minute: a card that can never be used now cuts the
    look-ahead short.)"""
    rules = RUMMY500.replace(last_discard="required", hand_size=4)
    pile = ("4H 7S 10C 10H 10S KS 7H 8S 2S AS 10D 5H 2C KH QD KC AC KD 2D 3H 6S AH 5D 7C "
            "6D JC 8D 5C")
    d = deal(rules, ["3C 6C 9C 8H", "QC QH QS 4S"], pile, dealer=1)
    assert d.can(Action.parse("draw pile 4H"))
    assert "draw pile 4H" in legal_texts(d)
    play(d, "draw pile 4H")
    assert "meld 3H 4H 5H" in legal_texts(d)


# -- a whole suit in hand ---------------------------------------------------------------

HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
CLUBS = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"


def test_seed003_whole_suit_in_hand_can_be_played() -> None:
    """003: two players get 13 cards each; «Туз (старший или младший)» (the ace high or
    low) and sequences «не могут заходить за угол» (never round the corner). A player
    dealt all thirteen hearts can draw, see his view and meld: A-K (the ace low) or 2-A
    (the ace high), never a run that uses the one ace at both ends."""
    d = deal(RUMMY500, [HEARTS, CLUBS], "2S", "9S", dealer=1)
    assert legal_texts(d) and view(d, 0).legal_actions
    play(d, "draw stock")
    texts = legal_texts(d)
    assert "meld " + HEARTS in texts
    assert "meld 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH" in texts
    assert max(len(a.cards) for a in d.legal_actions() if a.kind == "meld") == 13
    assert all(len(m) <= 13 for m in find_melds(d.hands[0], RUMMY500))
    view(d, 0)


def test_rulesmd_ace_is_low_or_high_in_a_run_never_both() -> None:
    """RULES.md: the ace in runs is «low or high (A-2-3, Q-K-A), never round the corner».
    With two decks (ramino) a hand may hold both aces of hearts, but a run is read with the
    ace low or high: A-2-...-K-A is not a run, and a run A-...-K takes no ace at its top."""
    rules = RAMINO
    both = parse_cards((HEARTS + " AH").split())
    with pytest.raises(IllegalActionError) as err:
        make_meld(both, rules, 0)
    assert err.value.code == "run-sequence"
    assert not any(len(m) == 14 for m in find_melds(both + parse_cards(["JK"]), rules))
    low_run = make_meld(parse_cards(HEARTS.split()), rules, 0)
    assert (low_run.low, low_run.high) == (1, 13)


# -- the repetition rule ----------------------------------------------------------------

# Basic, two players, seat 0 starts; nobody draws from the stock. Seat 0 takes the 2S and
# throws the KH, seat 1 takes the KH and throws the KD, seat 0 takes the KD and throws the
# 2S, seat 1 takes the 2S and throws the KH, seat 0 takes the KH and throws the KD, seat 1
# takes the KD and throws the 2S: after these six turns every hand, the pile and the
# player to move are as at the start (the stock and the table never changed).
LOOP_HANDS = ["AC 7D JC QD KH 10D 8C 6S 3C 4D", "2H 9H 4H 5C 7C 5S 9S 10S JS KD"]
LOOP = ("draw pile", "discard KH", "draw pile", "discard KD", "draw pile", "discard 2S",
        "draw pile", "discard KH", "draw pile", "discard KD", "draw pile", "discard 2S")


def test_rulesmd_repetition_third_time_ends_the_deal_as_a_stalemate() -> None:
    """RULES.md: «a deal in which the same position comes up for the third time ... ends
    at once as a stalemate, scored as that preset scores a stalemate». The starting
    position comes up for the second time after one loop (the deal goes on) and for the
    third after two: the deal ends there, with nobody out and no points (000 scores a
    deal only for the player who goes out)."""
    d = deal(BASIC, LOOP_HANDS, "2S")
    play(d, *LOOP)
    assert not d.is_over
    play(d, *LOOP[:-1])
    assert not d.is_over
    play(d, LOOP[-1])
    assert d.is_over
    assert d.result is not None
    assert (d.result.winner, d.result.rummy, d.result.points) == (None, False, (0, 0))
    assert d.result.end == "repetition"
    assert d.legal_actions() == []
    shown = view(d, 0).to_json()["deal_result"]
    assert shown["why"] == "the same position came up 3 times"


def test_rulesmd_repetition_is_an_option() -> None:
    """RULES.md: option ``repetition``, default 3: with 4 the deal ends on the fourth time
    (after three loops), with 2 on the second (after one)."""
    assert BASIC.repetition == 3
    four = deal(BASIC.replace(repetition=4), LOOP_HANDS, "2S")
    play(four, *LOOP, *LOOP)
    assert not four.is_over
    play(four, *LOOP)
    assert four.is_over and four.result is not None and four.result.end == "repetition"
    two = deal(BASIC.replace(repetition=2), LOOP_HANDS, "2S")
    play(two, *LOOP)
    assert two.is_over


def test_rulesmd_repetition_needs_the_same_position_every_time() -> None:
    """RULES.md: a position is «every hand, the stock in order, the pile, the table, the
    player to move and the phase». After the starting position has come up twice, both
    players draw from the stock and throw the card back: hands as at the start, but the
    stock and the pile differ, so this is a new position; it ends the deal only when it
    has itself come up three times (two more loops, around the 3D now on top)."""
    d = deal(BASIC, LOOP_HANDS, "2S", "3S 3D")
    play(d, *LOOP)
    play(d, "draw stock", "discard 3S", "draw stock", "discard 3D")
    loop_3d = tuple(a.replace("2S", "3D") for a in LOOP)
    play(d, *loop_3d)
    assert not d.is_over
    play(d, *loop_3d[:-1])
    assert not d.is_over
    play(d, loop_3d[-1])
    assert d.is_over and d.result is not None and d.result.end == "repetition"


# Seat 1 to move, the 3S on top, seat 1 holds the KD and seat 0 the KH: six turns later
# everything is as it was.
LOOP_FROM_1 = ("draw pile", "discard KD", "draw pile", "discard KH", "draw pile", "discard 3S",
               "draw pile", "discard KD", "draw pile", "discard KH", "draw pile", "discard 3S")


def test_rulesmd_repetition_ends_the_loop_on_an_empty_stock() -> None:
    """000: with the stock empty the player «may either take the top discard in the normal
    way, or turn the discard pile upside down»; nothing in the rule books stops players
    who keep taking the top discard. The repetition rule ends that loop too."""
    d = deal(BASIC, LOOP_HANDS, "2S", "3S", rest_to="pile")
    play(d, "draw stock", "discard 3S")
    assert not d.stock and not d.is_over
    start = snapshot(d)
    play(d, *LOOP_FROM_1)
    assert snapshot(d)["hands"] == start["hands"] and not d.is_over
    play(d, *LOOP_FROM_1)
    assert d.is_over and d.result is not None and d.result.end == "repetition"
    assert d.result.points == (0, 0)


def test_rulesmd_repetition_scored_as_the_preset_scores_a_stalemate() -> None:
    """RULES.md: a repetition is «scored as that preset scores a stalemate». Where melded
    cards score (003's scoring), a deal that ends with nobody out is scored as usual:
    melded minus hand (here nothing is melded, so each player loses his hand's points:
    the ace counts 15 in hand)."""
    rules = RUMMY500.replace(pile_card_must_be_used=False)
    d = deal(rules, ["AC 7D JC QD KH 10D 8C 6S 3C 4D JD QS KS",
                     "2H 9H 4H 5C 7C 5S 9S 10S JS KD QC 2C 3D"], "2S")
    play(d, *LOOP, *LOOP)
    assert d.is_over and d.result is not None and d.result.end == "repetition"
    assert d.result.points == (-(15 + 7 + 10 + 10 + 10 + 10 + 8 + 6 + 3 + 4 + 10 + 10 + 10),
                               -(2 + 9 + 4 + 5 + 7 + 5 + 9 + 10 + 10 + 10 + 10 + 2 + 3))


def test_rulesmd_repetition_in_a_record_replays_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of the loop above replays to a stalemate (winner null, no points, as the
    record format scores a stalemate), and ``rummykit replay`` says why the deal ended."""
    d = deal(BASIC, LOOP_HANDS, "2S")
    match = Match(BASIC, players=["Anna", "Bruno"], first_dealer=1, layout=d.layout)
    for text in LOOP + LOOP:
        match.apply(text)
    assert len(match.finished) == 1
    rec = records.from_match(match)
    path = tmp_path / "loop.json"
    records.dump(rec, path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "deal 1: stalemate (the same position came up 3 times), points [0, 0]" in out
    replayed = records.replay(records.load(path))
    result = replayed.match.finished[0].result
    assert result is not None and result.to_json() == {
        "winner": None, "rummy": False, "points": [0, 0]}


def test_rulesmd_repetition_told_in_the_terminal_game_summary() -> None:
    """The terminal game tells a repetition like any stalemate, with its reason."""
    d = deal(BASIC, LOOP_HANDS, "2S")
    match = Match(BASIC, players=["Anna", "Bruno"], first_dealer=1, layout=d.layout)
    for text in LOOP + LOOP:
        match.apply(text)
    lines: list[str] = []
    _deal_summary(match, 0, lines.append)
    assert lines[0] == "Deal 1 ends with no one out: the same position came up 3 times."
