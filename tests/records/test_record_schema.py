"""The JSON Schema of records that the package ships (``rummykit.schemas.record_schema``).

The schema must accept every record rummykit writes (``conftest.py`` also validates every
record any test writes) and refuse every record that ``rummykit.record.loads`` refuses for
its shape: an unknown or missing key, a value of the wrong type, a bad card, an action not
in the notation. What depends on the rules (a layout that is the deck, one hand per player)
only the loader checks. The schema's options and presets are compared with the rules'
own, and its card and action patterns with the parsers, so that neither can drift.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
import types
import typing
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rummykit import record
from rummykit.cards import CARDS, Card
from rummykit.engine import Match
from rummykit.engine.actions import Action
from rummykit.errors import NotationError, RecordError
from rummykit.rules import OPTION_HELP, PRESETS, Rules, preset
from rummykit.schemas import RECORD_SCHEMA_FILE, record_schema

Data = dict[str, Any]
SCHEMA = record_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
CARD_PATTERN = SCHEMA["$defs"]["card"]["pattern"]
ACTION_PATTERN = SCHEMA["$defs"]["action"]["pattern"]
RULES_OPTIONS: dict[str, Any] = SCHEMA["$defs"]["rules"]["anyOf"][1]["properties"]


def schema_errors(data: object) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(data)]


def played(name: str, players: int, seed: int, actions: int | None = None) -> Data:
    """The JSON of a record of a match played with random legal actions: to its end, or for
    ``actions`` actions."""
    match = Match(preset(name), players=players, seed=seed)
    rng = random.Random(seed)
    count = 0
    while not match.is_over and (actions is None or count < actions):
        legal = sorted(match.deal.legal_actions(), key=str)
        match.apply(legal[rng.randrange(len(legal))])
        count += 1
        assert count < 50_000
    data: Data = json.loads(record.dumps(record.from_match(match)))
    return data


@cache
def _base() -> str:
    return json.dumps(played("basic", 2, seed=4, actions=40))


def base() -> Data:
    """A two-player basic record stopped in its first deal, with its layout."""
    data: Data = json.loads(_base())
    return data


HAND_WRITTEN: Data = {
    "format": "rummy-record/1",
    "rules": {"preset": "basic", "melds_per_turn": "one", "hand_size": [10, 7, 7, 6, 6],
              "target": None, "deals": 3, "pile_card_must_be_used": False},
    "players": ["Anna", "Bruno", "Zoë"],
    "seed": 7,
    "deals": [{"dealer": 2, "actions": ["draw stock", "DISCARD kc"], "layout": None,
               "result": None}],
    "result": None,
}


# -- the schema itself -------------------------------------------------------------------


def test_schema_is_a_draft_2020_12_schema_shipped_in_the_package() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)
    shipped = files("rummykit.schemas").joinpath(RECORD_SCHEMA_FILE)
    assert json.loads(shipped.read_text(encoding="utf-8")) == SCHEMA
    assert record_schema() is SCHEMA  # read once


def test_schema_options_are_the_rules_options() -> None:
    assert set(RULES_OPTIONS) - {"preset"} == set(OPTION_HELP)
    assert set(SCHEMA["$defs"]["presetName"]["enum"]) == set(PRESETS)


SAMPLES: list[object] = [0, 7, -1, True, False, 1.5, "low", "7", None, [1, 2, 3, 4, 5],
                         [1, 2], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, "5"], {}]


def _json_type_ok(hint: object, value: object) -> bool:
    """Whether ``value`` has the JSON type of an option declared as ``hint`` on Rules."""
    origin = typing.get_origin(hint)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if origin is tuple:  # a value per player count: one number or five
        return _json_type_ok(int, value) or (
            isinstance(value, list) and len(value) == len(typing.get_args(hint))
            and all(_json_type_ok(int, v) for v in value))
    if origin in (typing.Union, types.UnionType):  # X | None
        return any(value is None if arg is type(None) else _json_type_ok(arg, value)
                   for arg in typing.get_args(hint))
    raise AssertionError(f"an option of a type the schema test does not know: {hint!r}")


@pytest.mark.parametrize("option", sorted(OPTION_HELP))
def test_schema_option_types_are_the_rules_types(option: str) -> None:
    """Each option takes in the schema exactly the JSON values of its type on Rules (ranges
    are the loader's)."""
    hint = typing.get_type_hints(Rules)[option]
    samples = list(SAMPLES)
    if typing.get_origin(hint) is typing.Literal:
        samples += [*typing.get_args(hint), "nope"]
    for value in samples:
        data = base()
        data["rules"] = {"preset": "basic", option: value}
        assert (not schema_errors(data)) == _json_type_ok(hint, value), (option, value)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_option_of_every_preset_written_out_is_valid(name: str) -> None:
    rules = preset(name)
    options: Data = {"preset": name}
    for option in OPTION_HELP:
        value = getattr(rules, option)
        options[option] = list(value) if isinstance(value, tuple) else value
    data = base()
    data["rules"] = options
    assert not schema_errors(data)
    assert Rules.from_json(options) == rules


# -- records that are valid -------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "seed"), [
    ("basic", 2, 1), ("one-deal", 3, 2), ("classic", 4, 3), ("rummy500", 2, 4),
    ("limited-stock", 5, 5), ("ramino", 6, 6),
])
def test_played_records_are_valid(name: str, players: int, seed: int) -> None:
    """Whole matches in every preset, and the same stopped mid-deal."""
    for data in (played(name, players, seed), played(name, players, seed, actions=25)):
        assert not schema_errors(data)
        record.from_json(data)


def test_hand_written_records_are_valid() -> None:
    assert not schema_errors(HAND_WRITTEN)
    record.from_json(HAND_WRITTEN)
    data = base()
    lay = data["deals"][0]["layout"]
    lay["hands"][0] = [c.lower() for c in lay["hands"][0]]  # any case
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    lay["stock"] = [c.replace("10", "T")[:-1] + symbols[c[-1]] for c in lay["stock"]]
    data["deals"][0]["actions"] = [" " + a.upper() + " " for a in data["deals"][0]["actions"]]
    data["rules"] = "basic"
    assert not schema_errors(data)
    assert record.from_json(data).deals[0].layout == record.from_json(base()).deals[0].layout


# -- records that are not ----------------------------------------------------------------


def _set(path: str, value: object) -> Callable[[Data], None]:
    """A change of the base record: the value at a path such as ``deals/0/layout/pile``."""
    *parents, last = [int(p) if p.isdigit() else p for p in path.split("/")]

    def change(data: Data) -> None:
        node: Any = data
        for part in parents:
            node = node[part]
        node[last] = value
    return change


def _drop(path: str) -> Callable[[Data], None]:
    *parents, last = path.split("/")

    def change(data: Data) -> None:
        node: Any = data
        for part in parents:
            node = node[int(part) if part.isdigit() else part]
        del node[last]
    return change


def _result(data: Data) -> None:
    data["deals"][0]["result"] = {"winner": 0, "rummy": False, "points": [3, 0]}


def _both(*changes: Callable[[Data], None]) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        for one in changes:
            one(data)
    return change


MALFORMED: dict[str, Callable[[Data], None]] = {
    # unknown keys, at every level
    "unknown key in the record": _set("comment", "hi"),
    "unknown key in the rules": _set("rules", {"preset": "basic", "speed": 3}),
    "unknown key in a deal": _set("deals/0/discards", []),
    "unknown key in a layout": _set("deals/0/layout/discards", []),
    "unknown key in a deal result": _both(_result, _set("deals/0/result/margin", 1)),
    "unknown key in the match result": _set("result/margin", 1),
    # missing keys
    "no format": _drop("format"),
    "no rules": _drop("rules"),
    "no players": _drop("players"),
    "no deals": _drop("deals"),
    "no actions": _drop("deals/0/actions"),
    "no preset": _set("rules", {"melds_per_turn": "one"}),
    "no hands": _drop("deals/0/layout/hands"),
    "no stock": _drop("deals/0/layout/stock"),
    "no pile": _drop("deals/0/layout/pile"),
    "no winner in a deal result": _both(_result, _drop("deals/0/result/winner")),
    "no rummy": _both(_result, _drop("deals/0/result/rummy")),
    "no points": _both(_result, _drop("deals/0/result/points")),
    "no totals": _drop("result/totals"),
    "no match winner": _drop("result/winner"),
    "no layout and no seed": _both(_drop("deals/0/layout"), _drop("seed")),
    "null layout and null seed": _both(_set("deals/0/layout", None), _set("seed", None)),
    # wrong types and values
    "not an object": lambda data: data.clear(),
    "format 2": _set("format", "rummy-record/2"),
    "format a number": _set("format", 1),
    "rules a number": _set("rules", 1),
    "unknown preset": _set("rules", "gin"),
    "unknown preset in an object": _set("rules", {"preset": "gin"}),
    "unknown option": _set("rules", {"preset": "basic", "knock": 10}),
    "option of the wrong type": _set("rules", {"preset": "basic", "decks": "2"}),
    "choice not a choice": _set("rules", {"preset": "basic", "aces": "high"}),
    "per-count of four": _set("rules", {"preset": "basic", "hand_size": [7, 7, 7, 7]}),
    "per-count not numbers": _set("rules", {"preset": "basic", "refills": "1"}),
    "bool option a number": _set("rules", {"preset": "basic", "target_strict": 1}),
    "players not a list": _set("players", "Anna, Bruno"),
    "one player": _set("players", ["Anna"]),
    "seven players": _set("players", ["P"] * 7),
    "a name not a string": _set("players/1", 2),
    "seed a string": _set("seed", "4"),
    "seed a fraction": _set("seed", 4.5),
    "seed true": _set("seed", True),
    "deals empty": _set("deals", []),
    "deals an object": _set("deals", {}),
    "a deal not an object": _set("deals/0", ["draw stock"]),
    "dealer a string": _set("deals/0/dealer", "0"),
    "dealer negative": _set("deals/0/dealer", -1),
    "layout a list": _set("deals/0/layout", []),
    "hands not a list": _set("deals/0/layout/hands", "none"),
    "stock not a list": _set("deals/0/layout/stock", "5S"),
    "a card not a string": _set("deals/0/layout/stock/0", 5),
    "pile empty": _set("deals/0/layout/pile", []),
    "actions not a list": _set("deals/0/actions", "draw stock"),
    "an action not a string": _set("deals/0/actions/0", ["draw", "stock"]),
    "a deal result not an object": _set("deals/0/result", [0, False, [3, 0]]),
    "rummy not a bool": _both(_result, _set("deals/0/result/rummy", 0)),
    "points not a list": _both(_result, _set("deals/0/result/points", 3)),
    "points not numbers": _both(_result, _set("deals/0/result/points", ["3", "0"])),
    "deal winner a string": _both(_result, _set("deals/0/result/winner", "0")),
    "deal winner negative": _both(_result, _set("deals/0/result/winner", -1)),
    "match result a list": _set("result", [0, 0]),
    "totals not a list": _set("result/totals", 0),
    "totals not numbers": _set("result/totals", [0, "0"]),
    "match winner true": _set("result/winner", True),
    # bad cards
    "bad card in a hand": _set("deals/0/layout/hands/0/0", "1H"),
    "bad card in the stock": _set("deals/0/layout/stock/0", "11S"),
    "bad card in the pile": _set("deals/0/layout/pile/0", "JKR"),
    "suit missing": _set("deals/0/layout/stock/0", "Q"),
    "empty card": _set("deals/0/layout/stock/0", ""),
    "two cards in one": _set("deals/0/layout/stock/0", "5S 6S"),
    # bad action text
    "empty action": _set("deals/0/actions/0", ""),
    "unknown verb": _set("deals/0/actions/0", "fly"),
    "draw from nowhere": _set("deals/0/actions/0", "draw"),
    "draw stock with a card": _set("deals/0/actions/0", "draw stock 5H"),
    "draw pile with two cards": _set("deals/0/actions/0", "draw pile 5H 6H"),
    "meld of nothing": _set("deals/0/actions/0", "meld"),
    "meld of a bad card": _set("deals/0/actions/0", "meld 5H 6H 7X"),
    "lay-off without a meld": _set("deals/0/actions/0", "layoff 5H"),
    "lay-off on meld 0": _set("deals/0/actions/0", "layoff 5H 0"),
    "lay-off on meld -1": _set("deals/0/actions/0", "layoff 5H -1"),
    "lay-off on a unicode number": _set("deals/0/actions/0", "layoff 5H ５"),
    "lay-off high": _set("deals/0/actions/0", "layoff JK 2 high"),
    "discard two": _set("deals/0/actions/0", "discard 5H 6H"),
    "end with more": _set("deals/0/actions/0", "end now"),
    "verb glued to a card": _set("deals/0/actions/0", "discard5H"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_what_the_loader_refuses_the_schema_refuses(case: str) -> None:
    data = base()
    assert not schema_errors(data)
    MALFORMED[case](data)
    with pytest.raises(RecordError):
        record.from_json(data)
    with pytest.raises(RecordError):
        record.loads(json.dumps(data))
    assert schema_errors(data), f"the schema accepts a record the loader refuses: {case}"


# -- the notation: the schema's patterns agree with the parsers -----------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "T", "1", "0", "11",
         "JK", "X"]
SUITS = ["C", "D", "H", "S", "♣", "♦", "♥", "♠", "★", "", "X", "CC"]
VERBS = ["draw", "stock", "pile", "meld", "layoff", "discard", "end", "low", "high"]
NUMBERS = ["0", "1", "2", "9", "10", "01", "000001", "0000001", "999999", "1000000", "-1", "+1",
           "1.0", "１", "٣"]
SPACES = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1f", ""]


def _case(text: str, how: int) -> str:
    return (text, text.lower(), text.upper(), text.title())[how]


_card_text = st.builds(lambda r, s, how, left, right: left + _case(r + s, how) + right,
                       st.sampled_from(RANKS), st.sampled_from(SUITS), st.integers(0, 3),
                       st.sampled_from(["", " ", "\t"]), st.sampled_from(["", " ", "\n"]))
_card_word = st.one_of(
    st.builds(_case, st.sampled_from([str(c) for c in CARDS]), st.integers(0, 3)),
    _card_text.map(str.strip))
_word = st.one_of(st.builds(_case, st.sampled_from(VERBS), st.integers(0, 3)), _card_word,
                  st.sampled_from(NUMBERS))
_shape = st.one_of(  # the words of an action, mostly well formed
    st.sampled_from([["draw", "stock"], ["draw", "pile"], ["end"]]),
    _card_word.map(lambda card: ["draw", "pile", card]),
    st.lists(_card_word, min_size=1, max_size=4).map(lambda cards: ["meld", *cards]),
    st.builds(lambda card, number, low: ["layoff", card, number, *low], _card_word,
              st.sampled_from(NUMBERS), st.sampled_from([[], ["low"], ["LOW"], ["high"]])),
    _card_word.map(lambda card: ["discard", card]),
)


def _mutate(words: list[str], how: int, where: int, word: str) -> list[str]:
    """Keep the words (how 0), or drop one (1), add one (2) or change one (3)."""
    at = where % (len(words) + 1)
    if how == 1 and words:
        return words[:at] + words[at + 1:]
    if how == 2:
        return [*words[:at], word, *words[at:]]
    if how == 3 and at < len(words):
        return [*words[:at], word, *words[at + 1:]]
    return words


def _join(words: list[str], cases: list[int], seps: list[str]) -> str:
    return seps[0] + "".join(_case(w, how) + sep for w, how, sep in
                             zip(words, cases, seps[1:], strict=False))


_action_text = st.builds(
    _join,
    st.builds(_mutate, _shape, st.integers(0, 3), st.integers(0, 9), _word),
    st.lists(st.integers(0, 3), min_size=6, max_size=6),
    st.lists(st.sampled_from(SPACES), min_size=7, max_size=7))
NOTATION = settings(max_examples=400, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _parses(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except NotationError:
        return False
    return True


@NOTATION
@given(_card_text)
def test_card_pattern_is_the_card_parser(text: str) -> None:
    assert (re.search(CARD_PATTERN, text) is not None) == _parses(Card.parse, text), text


@NOTATION
@given(_action_text)
def test_action_pattern_is_the_action_parser(text: str) -> None:
    assert (re.search(ACTION_PATTERN, text) is not None) == _parses(Action.parse, text), text


def test_every_card_and_its_forms_match_the_pattern() -> None:
    for card in CARDS:
        name = str(card)
        assert re.search(CARD_PATTERN, name)
        assert re.search(CARD_PATTERN, name.lower())


# -- every record written is validated -------------------------------------------------------


def test_records_written_are_validated(record_schema_problems: list[str]) -> None:
    """``conftest.py`` wraps ``record.dumps``: a record the schema refuses is reported for the
    test that wrote it (the list is emptied here so that this test passes)."""
    rec = record.from_json(base())
    bad = copy.copy(rec)
    bad.players = ["P"] * 7
    record.dumps(bad)
    assert any("is too long" in problem for problem in record_schema_problems)
    record_schema_problems.clear()
    record.dumps(rec)
    assert not record_schema_problems


def test_record_saved_by_the_command_is_valid(tmp_path: Path) -> None:
    """A subprocess writes outside the wrapped ``dumps``: its record is checked here."""
    save = tmp_path / "saved.json"
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "play", "--rules", "ramino", "--players", "3",
         "--seed", "5", "--no-stats", "--save", str(save)],
        input="draw stock\nquit\n", capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(save.read_text(encoding="utf-8"))
    assert not schema_errors(data)
    assert data["deals"][0]["actions"]
