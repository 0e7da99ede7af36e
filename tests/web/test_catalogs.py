"""The pages' message catalogs (web/static/i18n/LANG.json): English, Russian and Italian
say the same things.

- every language has every key of the others (plural forms aside: Russian has "few" and
  "many" where English has "one" and "other"), and each translation keeps the
  placeholders of the English text;
- every key the pages ask for by name is in the catalogs, and every code the engine and
  the server can send (refusals, deal and match endings, hint reasons, options, presets,
  bot levels) has its text, so no refusal or reason reaches a page untranslated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from rummykit.bots import LEVELS
from rummykit.bots.hints import REASONS
from rummykit.engine.match import MatchEnd
from rummykit.engine.scoring import ENDINGS
from rummykit.errors import REFUSALS
from rummykit.rules import OPTION_HELP, PRESETS
from rummykit.server import hub

STATIC = Path(__file__).parents[2] / "src" / "rummykit" / "web" / "static"
LANGUAGES = ["en", "ru", "it"]
PLURAL = {"zero", "one", "two", "few", "many", "other"}


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def base_keys(keys: object) -> set[str]:
    """Keys with their plural form cut off ("n.cards.few" -> "n.cards")."""
    assert isinstance(keys, dict)
    return {k.rsplit(".", 1)[0] if k.rsplit(".", 1)[-1] in PLURAL else k for k in keys}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_every_language_has_every_key_with_its_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert base_keys(other) == base_keys(english)
    for key, text in other.items():
        stem = key.rsplit(".", 1)[0] if key.rsplit(".", 1)[-1] in PLURAL else key
        source = english.get(key) or english.get(f"{stem}.other", "")
        assert placeholders(text) == placeholders(source), (lang, key)
        assert text.strip(), (lang, key)
    # Every plural text has the "other" form Intl.PluralRules falls back to.
    for key in other:
        if key.rsplit(".", 1)[-1] in PLURAL:
            assert f"{key.rsplit('.', 1)[0]}.other" in other, (lang, key)


def test_every_key_the_pages_name_is_in_the_catalog() -> None:
    english = base_keys(catalog("en"))
    named: set[str] = set()
    for script in STATIC.glob("*.js"):
        text = script.read_text("utf-8")
        named |= set(re.findall(r"\btn?\(\"([a-z_.-]+)\"", text))
    for page in STATIC.glob("*.html"):
        named |= set(re.findall(r"data-i18n(?:-[a-z-]+)?=\"([a-z_.-]+)\"", page.read_text("utf-8")))
    assert len(named) > 100
    assert named - english == set()


def test_every_code_a_page_can_receive_has_a_text() -> None:
    english = base_keys(catalog("en"))
    wanted = (
        {f"refusal.{code}" for code in REFUSALS}
        | {f"refusal.{code}" for code in ("notation", "game-waiting", "hint-not-playing",
                                           "hint-not-your-turn", "hint-busy", "rate", "spectator",
                                           "seat-claimed", "seat-link", "not-creator",
                                           "no-link", "seat-in-use", "seat-in-play", "one-seat",
                                           "bad-key",
                                           "not-listed", "chat-empty", "chat-long",
                                           "chat-text", "bad-code", "no-vote",
                                           "not-in-play", "stale", "storage", "hello",
                                           "secret-in-url")}
        | {f"replay.{why}" for why in ("no_table", "not_over", "broken", "failed")}
        | {f"reason.{code}" for code in REASONS}
        | {f"end.deal.{end}" for end in ENDINGS}
        | {f"end.match.{end}" for end in get_args(MatchEnd)}
        | {f"option.{name}" for name in OPTION_HELP}
        | {f"preset.{name}" for name in PRESETS}
        | {f"level.{level}" for level in LEVELS}
        | {f"act.{who}.{kind}" for who in ("you", "other", "short", "do")
           for kind in ("draw_stock", "take", "take_more", "take_deep", "take_top", "meld",
                        "layoff", "layoff_low", "discard", "end")}
        | {f"event.{kind}" for kind in ("turn-over", "refill")}
        | {f"rank.{rank}" for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")}
        | {f"suit.{suit}" for suit in "CDHS"}
    )
    assert wanted - english == set()
    # The hub's own codes are the ones listed above (its docstring names them).
    assert hub.HubError.__doc__ is not None and "hint-busy" in hub.HubError.__doc__


def test_english_option_help_is_the_engines_own() -> None:
    """The option texts in English are the rules data's own help (one text, two places
    would drift: this keeps them equal)."""
    english = catalog("en")
    for name, help_text in OPTION_HELP.items():
        assert english[f"option.{name}"] == help_text, name
