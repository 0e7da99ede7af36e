"""Plural forms in the page's own language, through the page's own ``t()`` in Chromium:
Russian has one form for 1 and 21, another for 2 to 4, a third for 5 to 20; Italian and
English one for 1 and another for the rest. The expected texts are written out as a
Russian and an Italian speaker would write them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .test_browser import Pages, Server

pages = test_browser.pages

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.timeout(120)

STATIC = Path(__file__).parents[2] / "src" / "rummykit" / "web" / "static"
COUNTS = [1, 2, 5, 21]
FORMS = {"ru": {1: "one", 2: "few", 5: "many", 21: "one"},
         "it": {1: "one", 2: "other", 5: "other", 21: "other"},
         "en": {1: "one", 2: "other", 5: "other", 21: "other"}}


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    request.param = "sqlite"  # type: ignore[attr-defined]
    yield from test_browser.module_server(request, tmp_path_factory)


def page_in(pages: Pages, server: Server, lang: str) -> Any:
    page = pages.new()
    page.goto(server.url + "/")
    page.evaluate("lang => localStorage.setItem('rummykit/lang', lang)", lang)
    page.reload()
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_function("() => Object.keys(CATALOG).length > 0")
    return page


def say(page: Any, key: str, params: dict[str, Any]) -> str:
    text: str = page.evaluate("([key, params]) => t(key, params)", [key, params])
    return text


EXPECTED = {
    "ru": [
        ("n.cards", "n", ["1 карта", "2 карты", "5 карт", "21 карта"]),
        ("pile.more", "n", ["ещё 1 карта ниже", "ещё 2 карты ниже", "ещё 5 карт ниже",
                            "ещё 21 карта ниже"]),
        ("reason.why.meld-points", "points", ["1 очко уходит с руки", "2 очка уходят с руки",
                                              "5 очков уходят с руки",
                                              "21 очко уходит с руки"]),
        ("learn.rummy", "times", ["Рамми умножает выигрыш в 1 раз.",
                                  "Рамми умножает выигрыш в 2 раза.",
                                  "Рамми умножает выигрыш в 5 раз.",
                                  "Рамми умножает выигрыш в 21 раз."]),
        ("sheet.over", "n", ["Партия закончилась после 1 раздачи.",
                             "Партия закончилась после 2 раздач.",
                             "Партия закончилась после 5 раздач.",
                             "Партия закончилась после 21 раздачи."]),
        ("n.watchers", "n", ["1 зритель", "2 зрителя", "5 зрителей", "21 зритель"]),
    ],
    "it": [
        ("n.cards", "n", ["1 carta", "2 carte", "5 carte", "21 carte"]),
        ("pile.more", "n", ["ancora 1 carta sotto", "ancora 2 carte sotto",
                            "ancora 5 carte sotto", "ancora 21 carte sotto"]),
        ("seat.melded", "n", ["1 punto calato in questa smazzata",
                              "2 punti calati in questa smazzata",
                              "5 punti calati in questa smazzata",
                              "21 punti calati in questa smazzata"]),
        ("reason.why.meld-points", "points", ["1 punto esce dalla mano",
                                              "2 punti escono dalla mano",
                                              "5 punti escono dalla mano",
                                              "21 punti escono dalla mano"]),
    ],
    "en": [
        ("n.cards", "n", ["1 card", "2 cards", "5 cards", "21 cards"]),
        ("pile.more", "n", ["1 more card below", "2 more cards below", "5 more cards below",
                            "21 more cards below"]),
    ],
}


@pytest.mark.parametrize("lang", ["ru", "it", "en"])
def test_counted_texts_read_as_a_speaker_writes_them(server: Server, pages: Pages,
                                                     lang: str) -> None:
    page = page_in(pages, server, lang)
    for key, param, texts in EXPECTED[lang]:
        assert [say(page, key, {param: n}) for n in COUNTS] == texts, key
    # The count is the last number a text shows, when it is not called n: "from 3 to 21".
    if lang == "ru":
        assert say(page, "refusal.set-size", {"min": 3, "max": 21, "cards": "7♣"}) == \
            "В наборе одного достоинства от 3 до 21 карты (7♣)."
        assert say(page, "refusal.set-size", {"min": 3, "max": 4, "cards": "7♣"}) == \
            "В наборе одного достоинства от 3 до 4 карт (7♣)."


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_every_counted_text_has_its_forms_and_the_page_picks_them(server: Server, pages: Pages,
                                                                  lang: str) -> None:
    """Each pluralised key has every form the language needs (or one text that reads
    right for any count: "раздач сыграно: {n}"), and ``t`` picks the one the language's
    plural rule names for 1, 2, 5 and 21."""
    texts: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    english: dict[str, str] = json.loads((STATIC / "i18n" / "en.json").read_text("utf-8"))
    plural = sorted({key.rsplit(".", 1)[0] for key in english
                     if key.rsplit(".", 1)[-1] in ("one", "other")
                     and f"{key.rsplit('.', 1)[0]}.one" in english})
    assert len(plural) >= 15
    needed = {"ru": ["one", "few", "many", "other"], "it": ["one", "other"]}[lang]
    page = page_in(pages, server, lang)
    for stem in plural:
        neutral = texts.get(stem)
        for form in needed:
            assert neutral is not None or f"{stem}.{form}" in texts, (lang, stem, form)
        for n in COUNTS:
            text = neutral if neutral is not None else texts[f"{stem}.{FORMS[lang][n]}"]
            expected = text.replace("{n}", str(n))
            got = say(page, stem, {"n": n})
            assert got == expected, (stem, n)
    assert page.evaluate("() => [...missingKeys]") == []
