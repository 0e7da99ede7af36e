"""The one parser of the ``name(key=value, ...)`` syntax, and its two users agreeing."""

from __future__ import annotations

import pytest

from rummykit.bots import parse_bot
from rummykit.errors import RulesError
from rummykit.rules import Rules
from rummykit.rules.syntax import CallSyntaxError, parse_call


@pytest.mark.parametrize(("text", "expected"), [
    ("classic", ("classic", [])),
    ("  classic  ", ("classic", [])),
    ("classic()", ("classic", [])),
    ("classic(  )", ("classic", [])),
    ("classic(aces=low)", ("classic", [("aces", "low")])),
    (" classic ( aces = low ,  jokers=2 ) ", ("classic", [("aces", "low"), ("jokers", "2")])),
    ("master(think=0.5,rollouts=10)", ("master", [("think", "0.5"), ("rollouts", "10")])),
    ("master(think=)", ("master", [("think", "")])),
    ("m(a=b=c)", ("m", [("a", "b=c")])),
])
def test_good_texts(text: str, expected: tuple[str, list[tuple[str, str]]]) -> None:
    assert parse_call(text) == expected


@pytest.mark.parametrize(("text", "reason", "name", "part"), [
    ("classic(aces=low", "unclosed", "classic", ""),
    ("classic(", "unclosed", "classic", ""),
    ("classic(aces=low))", "after", "classic", ""),
    ("classic(aces=low) x", "after", "classic", ""),
    ("classic(aces=low)(jokers=2)", "after", "classic", ""),
    ("classic((aces=low))", "nested", "classic", ""),
    ("classic(aces=(low))", "nested", "classic", ""),
    ("classic(aces)", "no-equals", "classic", "aces"),
    ("classic(aces=low, jokers)", "no-equals", "classic", "jokers"),
    ("classic(aces=low,)", "empty", "classic", ""),
    ("classic(,aces=low)", "empty", "classic", ""),
    ("classic(aces=low,,jokers=2)", "empty", "classic", ""),
    ("classic(aces=low, aces=high-low)", "twice", "classic", "aces=high-low"),
    ("nosuch(aces", "unclosed", "nosuch", ""),
])
def test_bad_texts(text: str, reason: str, name: str, part: str) -> None:
    with pytest.raises(CallSyntaxError) as caught:
        parse_call(text)
    error = caught.value
    assert (error.reason, error.name, error.part) == (reason, name, part)
    assert 0 <= error.position <= len(text.strip())
    assert isinstance(error, ValueError)


def test_the_position_points_at_the_problem() -> None:
    with pytest.raises(CallSyntaxError) as caught:
        parse_call("classic(aces=low,,jokers=2)")
    assert caught.value.position == len("classic(aces=low,")
    with pytest.raises(CallSyntaxError) as caught:
        parse_call("classic((aces=low))")
    assert caught.value.position == len("classic(")


@pytest.mark.parametrize("options", [
    "(think=1,)", "(,think=1)", "(think=1,,rollouts=5)", "(think)", "(think=1", "(",
    "(think=1))", "((think=1))", "(think=1)x", "(think=1,think=2)",
])
def test_rules_and_bots_refuse_the_same_malformed_texts(options: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse("classic" + options.replace("think", "aces").replace("=1", "=low")
                    .replace("=2", "=high-low").replace("rollouts=5", "jokers=2"))
    with pytest.raises(ValueError):
        parse_bot("master" + options)


def test_an_empty_option_is_refused_by_both_in_their_words() -> None:
    with pytest.raises(RulesError, match="an option is empty"):
        Rules.parse("classic(aces=low,)")
    with pytest.raises(ValueError, match="an option is empty"):
        parse_bot("master(think=1,)")
