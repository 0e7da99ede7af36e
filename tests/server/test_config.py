"""The limits on people's input come from one home (``rummykit.limits``): the server's
request models hold input to them, ``GET /api/config`` sends them, and the pages take
theirs from there rather than writing the numbers again."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit import limits

from . import test_browser
from ._support import person
from .test_browser import Pages, Server

pages = test_browser.pages
server = test_browser.server

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def test_the_config_sends_the_limits_of_the_library(client: Any) -> None:
    config = client.get("/api/config").json()
    assert config["name_length"] == limits.NAME_LENGTH
    assert config["chat_length"] == limits.CHAT_LENGTH
    assert config["rules_length"] == limits.RULES_LENGTH
    assert config["players"] == list(limits.PLAYERS)
    assert config["timer_range"] == list(limits.TIMER_RANGE)
    assert config["timer_choices"] == list(limits.TIMER_CHOICES)
    low, high = limits.TIMER_RANGE
    assert all(low <= s <= high for s in limits.TIMER_CHOICES)
    shortest, longest = limits.KEY_LENGTH
    key = re.compile(config["key_pattern"])
    assert key.fullmatch("a" * shortest) and key.fullmatch("-_" * (longest // 2))
    assert not key.fullmatch("a" * (shortest - 1)) and not key.fullmatch("a" * (longest + 1))
    assert not key.fullmatch("a" * (shortest - 1) + "+")
    alphabet = {c for c in map(chr, range(128)) if key.fullmatch(c * shortest)}
    assert alphabet == set(limits.KEY_ALPHABET)


@pytest.mark.parametrize("name, status", [
    ("x" * limits.NAME_LENGTH, 200), ("x" * (limits.NAME_LENGTH + 1), 422)])
def test_a_new_tables_names_are_held_to_the_name_length(client: Any, name: str,
                                                          status: int) -> None:
    answer = client.post("/api/tables", json={"rules": "classic",
                                               "seats": [person(name), person("Bob")]})
    assert answer.status_code == status, answer.text


@pytest.fixture
def short_names(pages: Pages) -> Iterator[Any]:
    """A page whose server says names are at most 7 characters."""
    page = pages.new()

    def handle(route: Any) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, body=json.dumps({**answer.json(), "name_length": 7,
                                                        "chat_length": 9,
                                                        "timer_choices": [45, 90]}))

    page.route("**/api/config", handle)
    yield page


def test_the_start_page_takes_the_name_length_from_the_config(
        short_names: Any, server: Server) -> None:
    page = short_names
    page.goto(server.url + "/")
    page.wait_for_selector("#seats [name=name]", state="attached")
    page.wait_for_function("() => document.getElementById('player-name').maxLength === 7")
    boxes = page.eval_on_selector_all("#seats [name=name]", "els => els.map(e => e.maxLength)")
    assert boxes and set(boxes) == {7}
    # The turn timers offered are the server's too ("" is no timer).
    timers = page.eval_on_selector_all("#timer option", "els => els.map(e => e.value)")
    assert timers == ["", "45", "90"]


def test_the_table_page_takes_the_chat_length_from_the_config(
        short_names: Any, server: Server) -> None:
    page = short_names
    made = server.table([person("Ann"), person("Bob")])
    page.goto(server.url + made["seats"][0]["link"])
    page.wait_for_function("() => document.getElementById('chat-text').maxLength === 9")
