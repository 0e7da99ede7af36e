"""The announcements between server processes (rummykit.server.announcements): each
kind parses into its type, and a bad one is refused by name, never shown by value."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.server.announcements import (
    Alive,
    BadAnnouncement,
    Chat,
    Here,
    Kick,
    Played,
    Question,
    Standing,
    Transfer,
    Who,
    parse,
)

KEY = "k3y-of-a-player-0123456789abcdef"


def test_each_kind_parses_into_its_type() -> None:
    assert parse({"k": "alive", "from": "p1"}) == Alive()
    assert parse({"k": "who"}) == Who(None)
    assert parse({"k": "who", "t": "abc"}) == Who("abc")
    assert parse({"k": "transfer", "code": "ABCD1234", "key": KEY}) == Transfer("ABCD1234",
                                                                                 KEY)
    assert parse({"k": "action", "t": "abc", "seq": 3, "seat": 1, "text": "draw stock"}) == (
        Played("abc", 3, 1, "draw stock"))
    assert parse({"k": "here", "t": "abc", "seats": [0, 2], "watchers": 1}) == (
        Here("abc", frozenset({0, 2}), 1))
    assert parse({"k": "chat", "t": "abc", "m": {"text": "hi"}}) == Chat("abc", {"text": "hi"})
    assert parse({"k": "standing", "t": "abc", "seat": 1, "on": True}) == (
        Standing("abc", 1, True))
    assert parse({"k": "question", "t": "abc", "left": [1], "votes": {"0": True}}) == (
        Question("abc", (1,), {0: True}))
    assert parse({"k": "kick", "t": "abc", "seat": 0, "reason": "revoked"}) == (
        Kick("abc", 0, "revoked"))


@pytest.mark.parametrize("message", [
    {},
    {"k": 3},
    {"k": "nonsense", "t": "abc"},
    {"k": "transfer", "key": KEY},
    {"k": "transfer", "code": 5, "key": KEY},
    {"k": "action", "t": "abc", "seq": "3", "seat": 1, "text": "draw stock"},
    {"k": "action", "seq": 3, "seat": 1, "text": "draw stock"},
    {"k": "here", "t": "abc", "seats": [0, "x"], "watchers": 1},
    {"k": "standing", "t": "abc", "seat": True, "on": True},
    {"k": "standing", "t": "abc", "seat": -1, "on": True},
    {"k": "question", "t": "abc", "left": [1], "votes": {"zero": True}},
    {"k": "kick", "t": "abc", "seat": 0},
])
def test_a_bad_announcement_is_refused_by_name(message: dict[str, Any]) -> None:
    with pytest.raises(BadAnnouncement) as refused:
        parse(message)
    text = str(refused.value)
    assert "\n" not in text and KEY not in text and "draw stock" not in text
