"""Rules options and notation: the string and JSON forms of every preset and of variants
round-trip; unknown options, bad values and contradictory options are RulesError naming
the option; cards and actions parse and print in the notation of RULES.md, and bad
notation is a NotationError."""

from __future__ import annotations

import json

import pytest

from rummykit.cards import (
    CARDS,
    JOKER,
    JOKER_CODE,
    Card,
    card,
    format_cards,
    make_deck,
    parse_cards,
)
from rummykit.engine import Action
from rummykit.errors import NotationError, RulesError, RummyError
from rummykit.rules import PRESETS, Rules, preset

PRESET_NAMES = ["basic", "one-deal", "classic", "rummy500", "limited-stock", "ramino"]

VARIANTS = [
    "classic(aces=high-low,melds_per_turn=many)",
    "classic(last_discard=required)",
    "basic(target=none,deals=5)",
    "basic(hand_size=9/7/7/6/6)",
    "basic(target=150,target_strict=true)",
    "basic(turn_overs=0)",
    "one-deal(next_dealer=left)",
    "rummy500(target=300)",
    "rummy500(melds_per_turn=one,aces=low)",
    "limited-stock(refills=2/2/2/3/4)",
    "limited-stock(target=50/60/70/80/90)",
    "ramino(opening=40,jokers=2)",
    "ramino(target=201)",
    "classic(pile_card_must_be_used=true)",
    "basic(jokers=2,joker_points=15)",
]


# -- presets ---------------------------------------------------------------------------


def test_the_six_presets_exist() -> None:
    assert sorted(PRESETS) == sorted(PRESET_NAMES)
    for name in PRESET_NAMES:
        assert preset(name).preset_name == name
        assert Rules.preset(name) is preset(name)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_string_and_json_forms(name: str) -> None:
    rules = preset(name)
    assert str(rules) == name
    assert rules.to_json() == name
    assert rules.options() == {}
    assert Rules.parse(name) == rules
    assert Rules.parse(f" {name} ") == rules
    assert Rules.parse(f"{name}()") == rules
    assert Rules.from_json(name) == rules
    assert Rules.from_json({"preset": name}) == rules
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_fixed_option_names_and_defaults() -> None:
    """RULES.md: the spelling of melds_per_turn, aces and last_discard, and their defaults."""
    for name in PRESET_NAMES:
        rules = preset(name)
        assert rules.melds_per_turn == ("one" if name == "classic" else "many")
        assert rules.aces == ("high-low" if name in ("rummy500", "ramino") else "low")
        assert rules.last_discard == "optional"


# -- variants ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", VARIANTS)
def test_variant_string_round_trip(text: str) -> None:
    rules = Rules.parse(text)
    assert rules.preset_name == text.split("(")[0]
    assert rules != preset(rules.preset_name)
    printed = str(rules)
    again = Rules.parse(printed)
    assert again == rules and again.preset_name == rules.preset_name
    assert str(again) == printed  # stable
    # The printed form names exactly the changed options.
    body = printed[printed.index("(") + 1 : -1]
    assert sorted(part.split("=")[0] for part in body.split(",")) == sorted(rules.options())


@pytest.mark.parametrize("text", VARIANTS)
def test_variant_json_round_trip(text: str) -> None:
    rules = Rules.parse(text)
    data = rules.to_json()
    assert isinstance(data, dict) and data["preset"] == rules.preset_name
    again = Rules.from_json(json.loads(json.dumps(data)))
    assert again == rules and again.preset_name == rules.preset_name
    assert again.to_json() == data


def test_printed_form_examples() -> None:
    rules = Rules.parse("classic( melds_per_turn = many , aces=high-low )")
    assert str(rules) == "classic(aces=high-low,melds_per_turn=many)"
    assert rules.to_json() == {"preset": "classic", "aces": "high-low",
                               "melds_per_turn": "many"}
    assert rules == preset("classic").replace(melds_per_turn="many", aces="high-low")
    # Setting an option to its preset value is the preset.
    assert str(Rules.parse("classic(melds_per_turn=one)")) == "classic"
    # Per-count values: one number for all counts, five otherwise.
    assert Rules.parse("basic(hand_size=8)").hand_size == (8, 8, 8, 8, 8)
    assert str(Rules.parse("basic(hand_size=8)")) == "basic(hand_size=8)"
    assert Rules.parse("basic(hand_size=9/7/7/6/6)").to_json() == {
        "preset": "basic", "hand_size": [9, 7, 7, 6, 6]}
    assert Rules.parse("basic(target=none,deals=5)").to_json() == {
        "preset": "basic", "target": None, "deals": 5}


def test_replace_and_per_count_accessors() -> None:
    rules = preset("limited-stock").replace(refills=(1, 1, 1, 2, 5))
    assert rules.refills_for(6) == 5 and rules.refills_for(2) == 1
    assert preset("limited-stock").target_for(3) == 100
    assert preset("limited-stock").target_for(4) == 200
    assert preset("rummy500").hand_size_for(2) == 13 and preset("rummy500").hand_size_for(5) == 7
    assert preset("basic").hand_size_for(2) == 10 and preset("basic").hand_size_for(6) == 6
    assert preset("ramino").deck_size == 108 and preset("basic").deck_size == 52


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("classic(knock_card=10)", "knock_card"),
        ("gin-rummy", "gin-rummy"),
        ("Classic", "Classic"),
    ],
)
def test_unknown_preset_or_option(text: str, named: str) -> None:
    with pytest.raises(RulesError, match=f"unknown (option|preset) '{named}'"):
        Rules.parse(text)


def test_unknown_option_in_every_form() -> None:
    with pytest.raises(RulesError, match="'knock_card'"):
        preset("basic").replace(knock_card=10)
    with pytest.raises(RulesError, match="'knock_card'"):
        Rules.from_json({"preset": "basic", "knock_card": 10})
    with pytest.raises(RulesError, match="'preset_name'"):
        Rules.from_json({"preset": "basic", "preset_name": "classic"})
    with pytest.raises(RulesError, match="'gin'"):
        Rules.from_json("gin")
    with pytest.raises(RulesError, match="'gin'"):
        Rules.from_json({"preset": "gin"})


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("classic(aces=middle)", "aces"),
        ("classic(aces=LOW)", "aces"),
        ("classic(melds_per_turn=two)", "melds_per_turn"),
        ("classic(last_discard=never)", "last_discard"),
        ("classic(hand_size=abc)", "hand_size"),
        ("classic(hand_size=10/7)", "hand_size"),
        ("classic(hand_size=10/7/7/6/6/6)", "hand_size"),
        ("classic(hand_size=0)", "hand_size"),
        ("classic(decks=3)", "decks"),
        ("classic(jokers=5)", "jokers"),
        ("classic(target_strict=maybe)", "target_strict"),
        ("basic(deals=0)", "deals"),
        ("basic(deals=2/3)", "deals"),
        ("basic(set_min=2)", "set_min"),
        ("basic(set_max=5)", "set_max"),
        ("basic(opening=-1)", "opening"),
        ("basic(turn_overs=x)", "turn_overs"),
        ("basic(target=0)", "target"),
        ("basic(stock_out=never)", "stock_out"),
    ],
)
def test_bad_value_names_the_option(text: str, named: str) -> None:
    with pytest.raises(RulesError, match=f"^{named}"):
        Rules.parse(text)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"decks": True}, "decks"),
        ({"decks": 1.5}, "decks"),
        ({"hand_size": [1, 2]}, "hand_size"),
        ({"target": "100"}, "target"),
        ({"pile_card_must_be_used": "yes"}, "pile_card_must_be_used"),
        ({"aces": None}, "aces"),
    ],
)
def test_bad_json_value_names_the_option(options: dict[str, object], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        Rules.from_json({"preset": "basic", **options})


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # A penalty race needs penalty scoring.
        ("basic(match_end=elimination)", ("match_end=elimination", "scoring")),
        ("ramino(scoring=collect)", ("match_end=elimination", "scoring")),
        # More cards than the deck holds.
        ("basic(hand_size=20)", ("hand_size=20",)),
        ("basic(hand_size=10/7/7/6/9)", ("hand_size=9", "6 players")),
        ("ramino(hand_size=18)", ("hand_size=18", "108")),
        # A set's bounds in the wrong order.
        ("basic(set_min=4,set_max=3)", ("set_max=3", "set_min=4")),
        # Ending on an empty stock needs the whole pile to draw from.
        ("basic(stock_out=end)", ("stock_out=end", "draw_pile")),
        ("rummy500(draw_pile=top)", ("stock_out=end", "draw_pile")),
        # A match needs an end.
        ("basic(target=none)", ("match_end=target", "target")),
        ("ramino(target=none)", ("match_end=elimination", "target")),
        ("classic(deals=3)", ("deals", "dealt-once")),
    ],
)
def test_contradictory_options(text: str, named: tuple[str, ...]) -> None:
    with pytest.raises(RulesError) as err:
        Rules.parse(text)
    for name in named:
        assert name in str(err.value)


def test_contradictions_are_caught_in_every_form() -> None:
    with pytest.raises(RulesError, match="scoring"):
        preset("ramino").replace(scoring="collect")
    with pytest.raises(RulesError, match="set_max"):
        Rules.from_json({"preset": "basic", "set_min": 4, "set_max": 3})
    with pytest.raises(RulesError, match="hand_size"):
        Rules.from_json({"preset": "basic", "hand_size": 20})


@pytest.mark.parametrize(
    "text",
    ["classic(aces=low,aces=high-low)", "classic(aces=low", "classic(aces)",
     "classic(aces=high-low,)"],
)
def test_malformed_rules_string(text: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(text)


@pytest.mark.parametrize("data", [5, None, [], {"melds_per_turn": "many"}, {"preset": 3}])
def test_malformed_rules_json(data: object) -> None:
    with pytest.raises(RulesError, match="preset"):
        Rules.from_json(data)


def test_errors_are_value_errors() -> None:
    assert issubclass(RulesError, RummyError) and issubclass(RummyError, ValueError)
    assert issubclass(NotationError, ValueError)


# -- card notation ---------------------------------------------------------------------------


def test_all_53_cards_round_trip() -> None:
    names = [str(card(code)) for code in range(JOKER_CODE + 1)]
    assert len(set(names)) == 53
    for code, name in enumerate(names):
        parsed = Card.parse(name)
        assert parsed == code and str(parsed) == name
        assert Card.parse(name.lower()) == code
        assert card(name) == code and card(code) == code
        assert repr(parsed) == f"Card({name!r})"
    assert names[:13] == ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC",
                          "QC", "KC"]
    assert names[-1] == "JK" and JOKER == JOKER_CODE and JOKER.is_joker
    assert [c.suit for c in CARDS[:52:13]] == [0, 1, 2, 3]
    assert [CARDS[c].rank for c in range(13)] == list(range(1, 14))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TH", "10H"), ("th", "10H"), ("Tc", "10C"), ("10h", "10H"),
        ("5♣", "5C"), ("5♦", "5D"), ("5♥", "5H"), ("5♠", "5S"), ("T♥", "10H"), ("t♥", "10H"),
        ("A♠", "AS"), ("10♦", "10D"), ("q♣", "QC"),
        ("★", "JK"), ("jk", "JK"), ("Jk", "JK"), ("JK", "JK"),
        ("qd", "QD"), ("Qd", "QD"), ("as", "AS"), (" 5C ", "5C"),
    ],
)
def test_card_aliases(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["", " ", "1H", "11H", "0S", "10X", "H10", "JKK", "ZZ", "10", "♥", "♠", "5HH", "B3",
     "10 H", "JOKER", "J K", "x", "1C0", "KK"],
)
def test_bad_card_notation(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


@pytest.mark.parametrize("code", [53, -1, 100])
def test_bad_card_code(code: int) -> None:
    with pytest.raises(NotationError):
        card(code)


def test_card_lists_round_trip() -> None:
    deck = make_deck(2, 4)
    assert len(deck) == 108 and deck.count(JOKER) == 4
    text = format_cards(deck)
    assert parse_cards(text.split()) == deck
    assert format_cards(parse_cards(["th", "★", "q♠"])) == "10H JK QS"


# -- action notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("draw stock", "draw stock"),
        ("DRAW Stock", "draw stock"),
        ("draw pile", "draw pile"),
        ("draw pile 5c", "draw pile 5C"),
        ("meld 5h 6h 7h", "meld 5H 6H 7H"),
        ("meld th jh qh", "meld 10H JH QH"),
        ("meld 5H ★ 7H", "meld 5H JK 7H"),
        ("layoff 8H 2", "layoff 8H 2"),
        ("layoff jk 2 LOW", "layoff JK 2 low"),
        ("layoff JK 12", "layoff JK 12"),
        ("  discard   kc  ", "discard KC"),
        ("end", "end"),
    ],
)
def test_action_notation_round_trip(text: str, canonical: str) -> None:
    action = Action.parse(text)
    assert str(action) == canonical
    assert Action.parse(canonical) == action
    assert str(Action.parse(str(action))) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "draw", "draw deck", "draw stock now", "draw pile 5C 6C", "meld", "meld 5H 6H XX",
     "layoff 5H", "layoff 5H x", "layoff 5H 0", "layoff 5H -1", "layoff 8H 2 high",
     "layoff 8H 2 low low", "discard", "discard 5H 6H", "discard 1H", "end now", "jump",
     "pass"],
)
def test_bad_action_notation(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_action_that_is_not_a_string() -> None:
    with pytest.raises(NotationError):
        Action.parse(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["layoff 8H ²", "layoff 8H 1²"])
def test_meld_number_with_superscript_digit(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)
