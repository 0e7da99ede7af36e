"""The card faces (web/static/cards.js) in Chromium: every card of the deck, the joker, a
joker standing for a card and the back, drawn in a page of the app (the rules page, which
loads no game) from the module itself, as the table draws them.

A card looks like a playing card: its corner index (rank above suit) top left and turned
round bottom right, the pips of its rank in the classic layout or a court figure, red
hearts and diamonds and black clubs and spades (or the four-colour deck), a name for
screen readers in the page's language, and a corner index that stays readable on a
phone's small card. The screenshots go to the test's tmp dir, and to
``tests/server/screenshots/`` when ``RUMMYKIT_SCREENSHOTS=1``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .test_browser import SCREENSHOTS, Pages, Server, axe_problems

pages = test_browser.pages
server = test_browser.server

pytest.importorskip("playwright.sync_api")

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
RED, BLACK = "rgb(192, 38, 45)", "rgb(22, 22, 22)"
FOUR = {"C": "rgb(21, 122, 58)", "D": "rgb(29, 79, 184)", "H": RED, "S": BLACK}

# Lays out the cards (kind:card, kind one of face, four, joker-as, back) in a box of
# its own, each in a holder of the given size, and says what each one is made of.
RENDER = """async ([cards, width, height]) => {
  const deck = await import("/static/cards.js");
  document.getElementById("deck")?.remove();
  const box = document.createElement("section");
  box.id = "deck";
  box.setAttribute("aria-label", "cards");
  const look = {display: "flex", flexWrap: "wrap", gap: "6px", padding: "6px",
                background: "#1d5c3a"};
  for (const [key, value] of Object.entries(look)) box.style[key] = value;
  const made = [];
  for (const item of cards) {
    const [kind, card] = item.split(":");
    const svg = kind === "back" ? deck.cardBack() : kind === "joker-as" ? deck.jokerAs(card)
      : deck.cardFace(card, {fourColour: kind === "four"});
    const holder = document.createElement("div");
    holder.style.width = `${width}px`;
    holder.style.height = `${height}px`;
    svg.style.display = "block";
    svg.style.width = "100%";
    svg.style.height = "100%";
    holder.append(svg);
    box.append(holder);
    made.push(svg);
  }
  document.querySelector("main").prepend(box);
  const fill = (node) => node ? getComputedStyle(node).fill : null;
  return made.map((svg) => ({
    tag: svg.tagName,
    role: svg.getAttribute("role"),
    label: svg.getAttribute("aria-label"),
    viewBox: svg.getAttribute("viewBox"),
    sized: svg.hasAttribute("width") || svg.hasAttribute("height"),
    pips: svg.querySelectorAll(".pip").length,
    pipFills: [...new Set([...svg.querySelectorAll(".pip")].map(fill))],
    index: [...svg.querySelectorAll(".index text")].map((n) => n.textContent),
    indexFills: [...new Set([...svg.querySelectorAll(".index text, .index-suit")].map(fill))],
    figure: svg.querySelector(".court")?.dataset.figure ?? null,
    figureShapes: [...svg.querySelectorAll(".court use")].map((n) => n.getAttribute("href")),
    uses: [...svg.querySelectorAll("use")].map((n) => n.getAttribute("href")),
    badge: svg.querySelector(".joker-badge") !== null,
    paper: svg.querySelector(".paper")?.getAttribute("fill") ?? null,
    nodes: svg.querySelectorAll("*").length + 1,
  }));
}"""


def render(page: Any, cards: list[str], width: int = 80, height: int = 112) -> list[dict[str, Any]]:
    made: list[dict[str, Any]] = page.evaluate(RENDER, [cards, width, height])
    return made


def open_rules(pages: Pages, server: Server, **options: Any) -> Any:
    page = pages.new(**options)
    page.goto(server.url + "/rules")
    page.wait_for_function("() => document.querySelectorAll('#presets .preset').length > 0")
    return page


def keep(tmp_path: Path, page: Any, name: str) -> Path:
    """A screenshot of the cards alone, in tmp (and in tests/server/screenshots/ on demand)."""
    path = tmp_path / f"{name}.png"
    page.locator("#deck").screenshot(path=str(path))
    if os.environ.get("RUMMYKIT_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(exist_ok=True)
        shutil.copyfile(path, SCREENSHOTS / f"{name}.png")
    return path


def test_every_card_has_its_pips_or_figure_its_colour_and_its_name(server: Server,
                                                                    pages: Pages) -> None:
    page = open_rules(pages, server)
    made = render(page, [f"face:{card}" for card in DECK])
    for card, svg in zip(DECK, made, strict=True):
        rank, suit = card[:-1], card[-1]
        assert svg["tag"] == "svg" and svg["role"] == "img", card
        assert svg["viewBox"] == "0 0 250 350" and not svg["sized"], card
        # The corner index, twice: the rank above the suit, top left and bottom right.
        assert svg["index"] == [rank, rank], card
        colour = RED if suit in "HD" else BLACK
        assert svg["indexFills"] == [colour], card
        if rank in ("J", "Q", "K"):
            assert svg["pips"] == 0 and svg["figure"] == rank, card
            assert svg["figureShapes"].count(f"#rk-court-{rank}") == 2, card  # double-headed
        else:
            assert svg["pips"] == (1 if rank == "A" else int(rank)), card
            assert svg["pipFills"] == [colour], card
            assert svg["figure"] is None, card
    names = {card: svg["label"] for card, svg in zip(DECK, made, strict=True)}
    assert names["7H"] == "seven of hearts"
    assert names["10S"] == "ten of spades"
    assert names["QD"] == "queen of diamonds"
    assert names["AC"] == "ace of clubs"
    assert len(set(names.values())) == 52


def test_the_four_colour_deck_colours_each_suit(server: Server, pages: Pages) -> None:
    page = open_rules(pages, server)
    cards = ["5C", "5D", "5H", "5S", "KC", "KD", "AD", "AC"]
    made = render(page, [f"four:{card}" for card in cards])
    for card, svg in zip(cards, made, strict=True):
        assert svg["indexFills"] == [FOUR[card[-1]]], card
        if svg["pips"]:
            assert svg["pipFills"] == [FOUR[card[-1]]], card
    # Without the option, the same cards are red and black.
    plain = render(page, [f"face:{card}" for card in cards])
    assert [svg["indexFills"][0] for svg in plain] == [BLACK, RED, RED, BLACK,
                                                       BLACK, RED, RED, BLACK]


def test_the_joker_a_joker_on_the_table_and_the_back(server: Server, pages: Pages) -> None:
    page = open_rules(pages, server)
    joker, seven, queen, plain, back = render(
        page, ["face:JK", "joker-as:7H", "joker-as:QS", "face:7H", "back"])
    assert joker["role"] == "img" and joker["label"] == "joker"
    assert "#rk-joker" in joker["uses"] and joker["pips"] == 0
    assert page.evaluate("() => document.querySelector('#rk-joker text').textContent") == "JOKER"
    # A joker standing for a card shows that card, marked as a joker.
    assert seven["label"] == "joker as seven of hearts"
    assert seven["pips"] == 7 and seven["index"] == ["7", "7"] and seven["badge"]
    assert seven["paper"] != plain["paper"] and not plain["badge"]
    assert queen["label"] == "joker as queen of spades" and queen["figure"] == "Q"
    assert back["role"] == "img" and back["label"] == "card back"
    assert back["uses"] == ["#rk-back"] and back["viewBox"] == "0 0 250 350"


def test_a_hand_is_a_few_hundred_nodes_and_the_shapes_are_defined_once(server: Server,
                                                                       pages: Pages) -> None:
    """A table re-renders often: a card is a handful of nodes using shared shapes."""
    page = open_rules(pages, server)
    hand = ["10C", "10D", "10H", "10S", "9C", "9D", "8H", "KS", "QH", "JD", "JK", "AS", "7C", "6D"]
    for _ in range(3):
        made = render(page, [f"face:{card}" for card in hand])
    assert sum(svg["nodes"] for svg in made) < 400
    assert page.evaluate("() => document.querySelectorAll('#rk-card-defs').length") == 1
    assert page.evaluate("() => document.querySelectorAll('symbol[id=\"rk-suit-H\"]').length") == 1


@pytest.mark.parametrize(("locale", "names", "letters", "joker"), [
    ("ru-RU", {"7H": "семёрка червей", "QS": "дама пик", "back": "рубашка карты",
               "as": "джокер вместо: семёрка червей", "JK": "джокер"}, ["Т", "В", "Д", "К"],
     "ДЖОКЕР"),
    ("it-IT", {"7H": "sette di cuori", "QS": "donna di picche", "back": "dorso della carta",
               "as": "jolly al posto di sette di cuori", "JK": "jolly"}, ["A", "J", "Q", "K"],
     "JOLLY"),
])
def test_cards_are_named_and_lettered_in_the_pages_language(server: Server, pages: Pages,
                                                            locale: str, names: dict[str, str],
                                                            letters: list[str],
                                                            joker: str) -> None:
    page = open_rules(pages, server, locale=locale)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=locale[:2])
    made = render(page, ["face:7H", "face:QS", "back", "joker-as:7H", "face:JK",
                         "face:AD", "face:JD", "face:QD", "face:KD"])
    wanted = [names[k] for k in ("7H", "QS", "back", "as", "JK")]
    assert [svg["label"] for svg in made[:5]] == wanted
    assert [svg["index"][0] for svg in made[5:]] == letters
    # The joker's corners spell its name in the page's language.
    assert page.evaluate("() => document.querySelector('#rk-joker text').textContent") == joker


def test_a_card_that_is_not_one_is_refused(server: Server, pages: Pages) -> None:
    page = open_rules(pages, server)
    for bad in ["1H", "7X", "", "JKK", "11S", "7h"]:
        message = page.evaluate("""async (card) => {
          const deck = await import("/static/cards.js");
          try { deck.cardFace(card); return null; } catch (err) { return err.message; }
        }""", bad)
        assert message == f'not a card: "{bad}"', bad
    message = page.evaluate("""async () => {
      const deck = await import("/static/cards.js");
      try { deck.jokerAs("JK"); return null; } catch (err) { return err.message; }
    }""")
    assert message == 'not a card: "JK"'


def test_the_corner_index_is_readable_on_a_phones_card(server: Server, pages: Pages,
                                                       tmp_path: Path) -> None:
    """At 34x48 CSS px (a phone's card) the rank's capitals are about 10 px tall, in the top-left
    quarter, and no pip or figure touches it, in English and in Russian (whose letters
    are wider); screenshots at 34x48 and 80x112."""
    every = ([f"face:{card}" for card in DECK] + ["face:JK", "joker-as:7H", "joker-as:KD", "back"]
             + [f"four:{card}" for card in ("10C", "10D", "QH", "AS")])
    for width, height in [(34, 48), (80, 112)]:
        page = open_rules(pages, server, viewport={"width": 16 * (width + 6) + 40, "height": 900})
        render(page, every, width, height)
        keep(tmp_path, page, f"cards-{width}x{height}")
    for locale in ["en-US", "ru-RU"]:
        page = open_rules(pages, server, locale=locale)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=locale[:2])
        render(page, [f"face:{card}" for card in DECK], 34, 48)
        index_stands_clear(page)


def index_stands_clear(page: Any) -> None:
    """Every card's rank: a text box at least 13 px tall (capitals of about 9 px and
    more), in the card's top-left quarter, clear of every pip and of the court's panel."""
    boxes = page.evaluate("""() => [...document.querySelectorAll("#deck svg")].map((svg) => {
      const box = (n) => {
        const r = n.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      const rank = svg.querySelector(".index text");
      return { card: svg.dataset.card, svg: box(svg), rank: box(rank),
               others: [...svg.querySelectorAll(".pip, .court > rect")].map(box) };
    })""")
    for item in boxes:
        left, top, right, bottom = item["svg"]
        r_left, r_top, r_right, r_bottom = item["rank"]
        assert r_bottom - r_top >= 13, item["card"]
        assert r_left >= left and r_top >= top, item["card"]
        assert r_right <= (left + right) / 2 and r_bottom <= (top + bottom) / 2, item["card"]
        for o_left, o_top, o_right, o_bottom in item["others"]:
            apart = (o_left >= r_right or o_right <= r_left
                     or o_top >= r_bottom or o_bottom <= r_top)
            assert apart, item["card"]


def test_cards_on_a_page_pass_axe(server: Server, pages: Pages) -> None:
    pytest.importorskip("axe_playwright_python")
    page = open_rules(pages, server, viewport={"width": 390, "height": 844})
    extra = ["face:JK", "joker-as:7H", "back", "four:QC"]
    render(page, [f"face:{card}" for card in DECK] + extra, 34, 48)
    assert axe_problems(page) == []
