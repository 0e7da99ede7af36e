"""Game records (docs/records.md): load, dump and replay.

A record is one JSON document holding a whole match. Reading one is strict: unknown keys,
bad cards, unknown presets or options and layouts that are not the deck are
:class:`~rummykit.errors.RecordError`. Replaying checks every action; the first illegal one
stops the replay with :class:`ReplayError`, as does a written result that differs.

>>> from rummykit.rules import preset
>>> from rummykit.engine import Match
>>> m = Match(preset("one-deal"), players=["Anna", "Bruno"], seed=1)
>>> rec = from_match(m)
>>> loads(dumps(rec)) == rec
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit.cards import CARDS, Card
from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal
from rummykit.engine.layout import Layout, check_layout
from rummykit.engine.match import Match
from rummykit.engine.scoring import DealResult
from rummykit.errors import (
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
    RummyError,
    shown,
)
from rummykit.names import printable_name
from rummykit.rules import Rules

__all__ = [
    "FORMAT",
    "DealRecord",
    "Record",
    "ReplayError",
    "ReplayOutcome",
    "dump",
    "dumps",
    "from_match",
    "load",
    "loads",
    "replay",
]

FORMAT = "rummy-record/1"


class ReplayError(RummyError):
    """A record whose play is wrong: an illegal action, or a result that differs."""


@dataclass(slots=True)
class DealRecord:
    """One deal of a record."""

    actions: list[str]
    dealer: int | None = None
    layout: Layout | None = None
    result: DealResult | None = None


@dataclass(slots=True)
class Record:
    """A whole match: rules, players clockwise, seed, deals and the match result."""

    rules: Rules
    players: list[str]
    deals: list[DealRecord] = field(default_factory=list)
    seed: int | None = None
    result: dict[str, Any] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and dumps(self) == dumps(other)


# -- reading -------------------------------------------------------------------------


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RecordError(f"not JSON: {err}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    except ValueError:  # json reads no number of more than sys.get_int_max_str_digits()
        raise RecordError("not a record: a number too long to read") from None
    return from_json(data)


def load(path: str | Path) -> Record:
    """Read a record from a file."""
    try:
        text = Path(path).read_bytes()
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    return loads(text)


def _keys(where: str, data: dict[str, Any], required: set[str], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}")
    missing = sorted(required - set(data))
    if missing:
        raise RecordError(f"{where}: missing key {missing[0]!r}")


def _int(where: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: a whole number is needed, not {shown(value)}")
    try:
        str(value)
    except ValueError:  # more digits than JSON text can carry: the record could not be written
        raise RecordError(f"{where}: a number too large") from None
    return value


def _seat(where: str, what: str, value: object, players: int) -> int:
    seat = _int(f"{where} {what}", value)
    if not 0 <= seat < players:
        raise RecordError(f"{where}: {what} {shown(seat)} is not a player")
    return seat


def _cards(where: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: a list of cards is needed")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise RecordError(f"{where}: {shown(item)} is not a card")
        try:
            out.append(int(Card.parse(item)))
        except NotationError as err:
            raise RecordError(f"{where}: {err}") from None
    return tuple(out)


def _result(where: str, value: object, players: int) -> DealResult:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: a result is an object")
    _keys(where, value, {"winner", "rummy", "points"}, {"winner", "rummy", "points"})
    winner = value["winner"]
    if winner is not None:
        _seat(where, "winner", winner, players)
    if not isinstance(value["rummy"], bool):
        raise RecordError(f"{where}: rummy is true or false")
    points = value["points"]
    if not isinstance(points, list) or len(points) != players:
        raise RecordError(f"{where}: points lists one number per player")
    return DealResult(winner, value["rummy"], tuple(_int(where, p) for p in points))


def from_json(data: object) -> Record:
    """Check and read a record's JSON value."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    _keys("record", data, {"format", "rules", "players", "deals"},
          {"format", "rules", "players", "seed", "deals", "result"})
    if data["format"] != FORMAT:
        raise RecordError(f"format {shown(data['format'])} is not {FORMAT!r}")
    try:
        rules = Rules.from_json(data["rules"])
    except RummyError as err:
        raise RecordError(f"rules: {err}") from None
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players: a list of names")
    try:
        rules.check_players(len(players))
    except RulesError as err:
        raise RecordError(f"players: {err}") from None
    for seat, name in enumerate(players, 1):
        if not _is_text(name):
            raise RecordError(f"players: {shown(name)} is not text (it holds a lone "
                              "surrogate)")
        # The rule of every name (names.py): a record's names are printed by replay and
        # by the terminal game, so an escape sequence in one could rewrite the screen.
        if not name.strip() or not printable_name(name):
            raise RecordError(f"players: player {seat}'s name {shown(name)} is not a name: "
                              "letters, digits, spaces and punctuation, no control, "
                              "invisible or direction-changing characters")
    n = len(players)
    seed = None if data.get("seed") is None else _int("seed", data["seed"])
    if not isinstance(data["deals"], list) or not data["deals"]:
        raise RecordError("deals: a list of at least one deal")
    deals = []
    for d, raw in enumerate(data["deals"], 1):
        where = f"deal {d}"
        if not isinstance(raw, dict):
            raise RecordError(f"{where}: an object")
        _keys(where, raw, {"actions"}, {"dealer", "layout", "actions", "result"})
        dealer = (None if raw.get("dealer") is None
                  else _seat(where, "dealer", raw["dealer"], n))
        layout = None
        if raw.get("layout") is not None:
            lay = raw["layout"]
            if not isinstance(lay, dict):
                raise RecordError(f"{where} layout: an object")
            _keys(f"{where} layout", lay, {"hands", "stock", "pile"}, {"hands", "stock", "pile"})
            if not isinstance(lay["hands"], list):
                raise RecordError(f"{where} layout: hands is a list of hands")
            layout = Layout(
                tuple(_cards(f"{where} hand {i + 1}", h) for i, h in enumerate(lay["hands"])),
                _cards(f"{where} stock", lay["stock"]),
                _cards(f"{where} pile", lay["pile"]),
            )
            try:
                check_layout(rules, layout, players=n)
            except RecordError as err:
                raise RecordError(f"{where} layout: {err}") from None
        elif seed is None:
            raise RecordError(f"{where}: no layout and no seed to deal it from")
        actions = raw["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError(f"{where}: actions is a list of strings")
        for k, text in enumerate(actions, 1):
            # An action's text is printed as written (replay's messages): the notation
            # never needs a control or invisible character.
            if not printable_name(text):
                raise RecordError(f"deal {d}, action {k}: {shown(text)} holds a control, "
                                  "invisible or direction-changing character")
            try:
                Action.parse(text)
            except NotationError as err:
                raise RecordError(f"deal {d}, action {k} ({text}): {err}") from None
        result = None if raw.get("result") is None else _result(f"{where} result",
                                                                   raw["result"], n)
        deals.append(DealRecord(list(actions), dealer, layout, result))
    if seed is None and deals[0].dealer is None and rules.first_dealer == "random":
        raise RecordError("deal 1: these rules draw the first dealer from the seed: give the "
                          "record a seed or deal 1 a dealer")
    if rules.stock_out == "refill" and seed is None:
        raise RecordError("seed: these rules shuffle during a deal, so the record needs a seed")
    result = data.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError("result: an object")
        _keys("result", result, {"totals", "winner"}, {"totals", "winner"})
        totals = result["totals"]
        if not isinstance(totals, list) or len(totals) != n:
            raise RecordError("result: totals lists one number per player")
        for t in totals:
            _int("result totals", t)
        if result["winner"] is not None:
            _seat("result", "winner", result["winner"], n)
    return Record(rules, list(players), deals, seed, result)


def _is_text(value: str) -> bool:
    """Whether a string is Unicode text that can be written as UTF-8: JSON's ``\\ud800``
    escape reads as a lone surrogate, which no file can hold."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# -- writing -------------------------------------------------------------------------


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON value (the order of keys of docs/records.md)."""
    out: dict[str, Any] = {"format": FORMAT, "rules": record.rules.to_json(),
                           "players": list(record.players)}
    if record.seed is not None:
        out["seed"] = record.seed
    deals = []
    for deal in record.deals:
        item: dict[str, Any] = {}
        if deal.dealer is not None:
            item["dealer"] = deal.dealer
        if deal.layout is not None:
            item["layout"] = {
                "hands": [[str(CARDS[c]) for c in h] for h in deal.layout.hands],
                "stock": [str(CARDS[c]) for c in deal.layout.stock],
                "pile": [str(CARDS[c]) for c in deal.layout.pile],
            }
        item["actions"] = list(deal.actions)
        if deal.result is not None:
            item["result"] = deal.result.to_json()
        deals.append(item)
    out["deals"] = deals
    if record.result is not None:
        out["result"] = record.result
    return out


def dumps(record: Record) -> str:
    """The record as JSON text: one line per action, readable by a person."""
    return json.dumps(to_json(record), indent=1, ensure_ascii=False) + "\n"


def dump(record: Record, path: str | Path) -> None:
    Path(path).write_text(dumps(record), encoding="utf-8")


def from_match(match: Match) -> Record:
    """The record of a match so far (finished deals with results, the current one without)."""
    deals = []
    played = list(match.finished)
    if not match.is_over and match.deal not in played:
        played.append(match.deal)
    for deal in played:
        deals.append(DealRecord(
            [str(a) for a in deal.history], deal.dealer, deal.layout, deal.result))
    result = {"totals": list(match.totals), "winner": match.winner if match.is_over else None}
    return Record(match.rules, list(match.names), deals, match.seed, result)


# -- replay --------------------------------------------------------------------------


@dataclass(slots=True)
class ReplayOutcome:
    """What a replay reached: the match, and whether it stopped in the middle of a deal."""

    match: Match
    mid_deal: bool

    def to_json(self) -> dict[str, Any]:
        m = self.match
        out: dict[str, Any] = {
            "deals": [d.result.to_json() for d in m.finished if d.result is not None],
            "result": {"totals": list(m.totals), "winner": m.winner if m.is_over else None},
        }
        if self.mid_deal:
            deal = m.deal
            out["state"] = {
                "deal": len(m.finished) + 1,
                "to_move": deal.to_move,
                "phase": deal.phase,
                "hand_sizes": [len(h) for h in deal.hands],
                "stock": len(deal.stock),
                "pile_top": str(CARDS[deal.pile[-1]]) if deal.pile else None,
                "table": [
                    " ".join(str(CARDS[c]) for c in meld.cards) for meld in deal.table
                ],
            }
        return out


def replay(
    record: Record, on_step: Callable[[Match, int, str | None], None] | None = None
) -> ReplayOutcome:
    """Replay every deal and action; raise :class:`ReplayError` at the first that is wrong.

    ``on_step(match, deal_number, action_text)`` is called at the start of each deal (with
    no action) and after each action: the replay viewer takes its frames there."""
    if not record.deals:
        raise ReplayError("the record has no deal")
    first = record.deals[0]
    try:
        match = Match(record.rules, players=record.players, seed=record.seed or 0,
                      first_dealer=first.dealer, layout=first.layout)
    except RecordError as err:
        raise RecordError(f"deal 1: {err}") from None
    match.auto_deal = False
    mid_deal = False
    for d, deal_rec in enumerate(record.deals, 1):
        if d > 1:
            if match.is_over:
                raise ReplayError(f"deal {d}: the match was over after deal {d - 1}")
            expected = match.next_dealer()
            if deal_rec.dealer is not None and deal_rec.dealer != expected:
                raise ReplayError(
                    f"deal {d}: dealer is {deal_rec.dealer} in the record, but the rules make "
                    f"player {expected} the dealer"
                )
            try:
                match.start_next_deal(layout=deal_rec.layout)
            except RecordError as err:
                raise RecordError(f"deal {d}: {err}") from None
        deal: Deal = match.deal
        if on_step is not None:
            on_step(match, d, None)
        for k, text in enumerate(deal_rec.actions, 1):
            if deal.is_over:
                raise ReplayError(f"deal {d}, action {k} ({text}): the deal is over")
            try:
                match.apply(Action.parse(text))
            except IllegalActionError as err:
                raise ReplayError(f"deal {d}, action {k} ({text}): {err}") from None
            if on_step is not None:
                on_step(match, d, text)
        if not deal.is_over:
            if d != len(record.deals):
                raise ReplayError(f"deal {d}: the actions end before the deal does")
            if deal_rec.result is not None:
                raise ReplayError(f"deal {d}: the record gives a result, but the deal is not over")
            mid_deal = True
            break
        found = deal.result
        if deal_rec.result is not None and deal_rec.result != found:
            assert found is not None
            raise ReplayError(
                f"deal {d}: the record's result {_show(deal_rec.result.to_json())} differs from "
                f"the replay's {_show(found.to_json())}"
            )
    if record.result is not None:
        found_result = {"totals": list(match.totals),
                        "winner": match.winner if match.is_over else None}
        if record.result != found_result:
            raise ReplayError(
                f"match result: the record's {_show(record.result)} differs from the replay's "
                f"{_show(found_result)}"
            )
    return ReplayOutcome(match, mid_deal)


def _show(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "))
