"""The pages' message catalogs (web/static/i18n/LANG.json): English, Russian and Italian
say the same things.

- every language has every key of the others (plural forms aside: Russian has "few" and
  "many" where English has "one" and "other"), and each translation keeps the
  placeholders of the English text;
- every key the pages ask for by name is in the catalogs, and every code the engine and
  the server can send (refusals, the server's own from rummykit.server.refusals, deal and
  match endings, hint reasons, options, presets, bot levels) has its text, so no refusal or
  reason reaches a page untranslated.
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
from rummykit.server.refusals import WEB_REFUSALS

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
        | {f"refusal.{code}" for code in WEB_REFUSALS}
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


def test_english_option_help_is_the_engines_own() -> None:
    """The option texts in English are the rules data's own help (one text, two places
    would drift: this keeps them equal)."""
    english = catalog("en")
    for name, help_text in OPTION_HELP.items():
        assert english[f"option.{name}"] == help_text, name


# -- names are never inflected, and a phrase about a person reads right for anyone -----

PERSON = re.compile(r"\{(?:name|mine|names|who|player)\}")
RU_PAST = re.compile(r"\b[а-яё]+(?:ал|ял|ел|ил|ыл|ул|ёл|ла|лся|лась|лись)\b")
"""A Russian past tense (masculine or feminine): "ушёл", "вышла", "вернулся"."""
RU_REFUSED = re.compile(r"\b(?:вернулся|вернулась|подключён|подключена|пришёл|пришла|ушёл|"
                        r"ушла|выбыл|выбыла)\b")
"""Said of the player or of a person: "Я вернулся", "не подключён"."""
RU_INFLECTING = re.compile(r"(?:вместо|для|у|к|от|скрыть|показать)\s+\{name\}", re.IGNORECASE)
"""Words after which a Russian name would have to change its ending ("вместо Анны")."""
IT_NAMED_PARTICIPLE = re.compile(r"\{(?:name|mine)\}\s+(?:non\s+)?(?:è|era|sarà)\s+"
                                 r"[a-zàèéìòù]+(?:at|it|ut|ess|ers)[oa]\b")
"""An Italian past with "essere" about a named person: "{name} è uscito"."""
IT_REFUSED = re.compile(r"\b(?:sono|sei|eri|ero)\s+[a-zàèéìòù]+(?:at|it|ut)[oa]\b|"
                        r"\b(?:a lui|a lei)\b|\b(?:tornato|tornata|uscito|arrivato|arrivata)\b",
                        re.IGNORECASE)


def test_russian_texts_about_a_person_have_no_gendered_past_and_no_inflected_name() -> None:
    problems = []
    for key, text in catalog("ru").items():
        lowered = text.lower()
        if PERSON.search(text) and RU_PAST.search(lowered):
            problems.append((key, RU_PAST.findall(lowered), text))
        if RU_REFUSED.search(lowered) or RU_INFLECTING.search(text):
            problems.append((key, "refused word", text))
    assert problems == []


def test_italian_texts_about_a_person_have_no_gendered_past() -> None:
    problems = [(key, text) for key, text in catalog("it").items()
                if IT_NAMED_PARTICIPLE.search(text) or IT_REFUSED.search(text)]
    assert problems == []


@pytest.mark.parametrize(("lang", "key", "text"), [
    ("ru", "status.ended_left", "Партия окончена: {name} ушёл."),
    ("ru", "btn.back", "Я вернулся"),
    ("ru", "chat.mute", "Скрыть {name}"),
    ("ru", "lobby.take", "Сесть вместо {name}"),
    ("it", "status.ended_left", "La partita è finita: {name} è uscito."),
    ("it", "btn.back", "Sono tornato"),
    ("it", "notice.no_seat", "Chiedilo a lui."),
])
def test_the_gender_checks_catch_what_they_are_for(lang: str, key: str, text: str) -> None:
    """The checks above refuse the very texts the catalogs had."""
    if lang == "ru":
        lowered = text.lower()
        assert (PERSON.search(text) and RU_PAST.search(lowered)) or RU_REFUSED.search(lowered) \
            or RU_INFLECTING.search(text), key
    else:
        assert IT_NAMED_PARTICIPLE.search(text) or IT_REFUSED.search(text), key


def test_the_start_page_names_every_option_and_value_in_every_language() -> None:
    """Option keys and values are the rules text's; the page shows their names."""
    choices = {"melds_per_turn": ["one", "many"], "aces": ["low", "high-low"],
               "last_discard": ["optional", "required"], "draw_pile": ["top", "any"],
               "taken_discard": ["forbidden", "last-card"],
               "stock_out": ["turn-over", "refill", "end"],
               "scoring": ["collect", "melded", "penalty"],
               "match_end": ["target", "one-deal", "dealt-once", "elimination"],
               "first_dealer": ["random", "first"], "next_dealer": ["left", "winner"],
               "pile_card_must_be_used": ["false", "true"], "target_strict": ["false", "true"]}
    for lang in LANGUAGES:
        texts = catalog(lang)
        for name in OPTION_HELP:
            assert texts.get(f"optname.{name}", "").strip(), (lang, name)
            assert texts[f"optname.{name}"] != name, (lang, name)
        for name, values in choices.items():
            for value in values:
                assert texts.get(f"optvalue.{name}:{value}", "").strip(), (lang, name, value)
