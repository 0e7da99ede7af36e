"""What one player may see: the only door from a game to a front end or a bot.

A :class:`View` holds the seat's own hand, the table, the pile as the rules expose it
(all of it where any pile card may be drawn, else its top), the number of cards in every
hand and in the stock, the public history, the scores, what the seat knows of where the
other cards are (:class:`~rummykit.engine.knowledge.Knowledge`) and, for the player to
move, the legal actions. It never holds another seat's hand nor the stock's order (but
where everybody saw it: a stock turned over from the pile); once a deal is over, every
hand is shown as it is at the table when the points are counted.

>>> from rummykit.rules import preset
>>> from rummykit.engine import Match
>>> m = Match(preset("classic"), players=3, seed=5)
>>> v = view(m, 0)
>>> len(v.hand), v.stock_size, v.hand_sizes
(7, 30, (7, 7, 7))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, get_args

from rummykit.cards import CARDS, Card, card_names
from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal, Event, Phase
from rummykit.engine.knowledge import UNKNOWN, Hidden, Knowledge
from rummykit.engine.match import Match, MatchEnd
from rummykit.engine.melds import Meld, MeldKind
from rummykit.engine.scoring import DealEnd, DealResult, describe_end
from rummykit.rules import Rules

__all__ = ["PUBLIC", "MeldView", "Sight", "View", "public_view", "sight", "view"]


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld on the table as every player sees it."""

    number: int
    kind: MeldKind
    cards: tuple[Card, ...]
    represented: tuple[str, ...]
    owner: int
    laid_by: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "kind": self.kind, "cards": card_names(self.cards),
            "represents": list(self.represented), "owner": self.owner,
            "laid_by": list(self.laid_by),
        }


class LastDeal(NamedTuple):
    """The previous deal of a match as it ended (every part of it public by then)."""

    result: DealResult
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[MeldView, ...]
    pile: tuple[Card, ...]
    last: tuple[int, Action] | None


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a game."""

    seat: int
    rules: Rules
    names: tuple[str, ...]
    deal_number: int
    dealer: int
    to_move: int
    phase: Phase
    hand: tuple[Card, ...]
    """The seat's own hand, sorted by suit then rank."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    """The visible pile, bottom first: all of it when any card may be drawn, else its top."""
    pile_size: int
    table: tuple[MeldView, ...]
    melds: tuple[Meld, ...]
    """The table's melds as the engine holds them (immutable, all public), for bots."""
    history: tuple[tuple[int, Action], ...]
    """Every action of the deal so far with the seat that played it (all of it is public:
    a draw from the stock does not say which card); the last ones only where the view was
    made with ``recent``."""
    history_length: int
    """How many actions the deal has had (``len(history)`` unless cut by ``recent``)."""
    pile_draws: tuple[tuple[int, tuple[Card, ...]], ...]
    """Every draw from the pile this deal: who, and which cards (everyone saw them)."""
    events: tuple[tuple[int, Event], ...]
    """Every turn-over and refill of the stock, with the number of actions before it."""
    totals: tuple[int, ...]
    active: tuple[bool, ...]
    opened: tuple[bool, ...]
    laid: tuple[bool, ...]
    """For each seat, whether it melded or laid off in an earlier turn of this deal (going
    out without having done so is rummy)."""
    taken: Card | None
    """The card the player to move took from the pile this turn (public)."""
    must_use: Card | None
    """The pile card the player to move must still meld or lay off (public)."""
    melds_this_turn: int
    turn_value: int
    """Points of the melds the player to move laid this turn before opening (ramino)."""
    turn_laid: bool
    """Whether the player to move melded or laid off this turn."""
    turn_overs_used: int
    refills_used: int
    legal_actions: tuple[Action, ...]
    """The seat's legal actions; empty when it is not this seat's move."""
    deal_result: DealResult | None
    revealed_hands: tuple[tuple[Card, ...], ...] | None
    """Every hand, only once the deal is over (as laid down for the count)."""
    match_over: bool
    match_winner: int | None
    knowledge: Knowledge
    """What this seat knows of where every card is (the engine's information set)."""
    last_deal: LastDeal | None = None
    """In a match: how the previous deal ended, every hand, the melds and the pile at its
    end, and its last move (all public then: a table shows them before the next deal)."""
    match_end: MatchEnd | None = None
    """Why the match ended (see :data:`rummykit.engine.match.MatchEnd`)."""
    sheet: tuple[tuple[int, ...], ...] = ()
    """The score sheet: what each finished deal of the match added to each total."""

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat and self.deal_result is None

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def to_json(self, *, full: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (what a web client receives). With ``full``, also what a
        program needs to rebuild this very view with :meth:`from_json`: the seat's
        ``knowledge``, the table's ``melds`` as the engine holds them, and this turn's
        ``turn_value``, ``turn_laid``, ``turn_overs_used`` and ``refills_used`` (a view made
        with ``recent`` is rebuilt with its history cut the same way)."""
        out = self._json()
        if full:
            out.update(
                knowledge=_knowledge_json(self.knowledge),
                melds=[_meld_json(m) for m in self.melds],
                turn_value=self.turn_value,
                turn_laid=self.turn_laid,
                turn_overs_used=self.turn_overs_used,
                refills_used=self.refills_used,
            )
        return out

    def sight(self) -> Sight:
        """The same seat's :class:`Sight` (what :func:`sight` of the game gives, the hand
        in the view's order): for code that reads sights, such as a learned policy's
        observation, given only a view (a program at a server's table)."""
        k = self.knowledge
        return Sight(
            self.seat, len(self.names), self.dealer, self.to_move, self.phase,
            tuple(map(int, self.hand)), self.hand_sizes, self.stock_size,
            tuple(map(int, self.pile)), k.pile, self.melds, k.known, self.totals,
            self.active, self.opened, self.laid,
            -1 if self.taken is None else int(self.taken),
            -1 if self.must_use is None else int(self.must_use),
            self.melds_this_turn, self.turn_value, self.turn_overs_used, self.refills_used,
            self.legal_actions,
        )

    @classmethod
    def from_json(cls, data: object) -> View:
        """The view that :meth:`to_json` with ``full`` wrote: ``View.from_json(v.to_json(
        full=True)) == v``. A bot can play from it as from the engine's own view (a
        program at a server's table gets this JSON, docs/protocol.md).

        Anything that is not such JSON (a key missing or of the wrong type, a card, action
        or rule that does not parse) is a ValueError that says what is wrong."""
        try:
            return _view_from_json(data)
        except ValueError:
            raise
        except (KeyError, TypeError, AttributeError, IndexError) as error:
            raise ValueError(f"not a full view's JSON (View.to_json(full=True)): "
                             f"{type(error).__name__}: {error}") from None

    def _json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": str(self.rules),
            "names": list(self.names),
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": card_names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": card_names(self.pile),
            "pile_size": self.pile_size,
            "table": [m.to_json() for m in self.table],
            "history": [[seat, str(action)] for seat, action in self.history],
            "history_length": self.history_length,
            "events": [[index, event] for index, event in self.events],
            "pile_draws": [[seat, card_names(cards)] for seat, cards in self.pile_draws],
            "totals": list(self.totals),
            "active": list(self.active),
            "opened": list(self.opened),
            "laid": list(self.laid),
            "taken": None if self.taken is None else str(self.taken),
            "must_use": None if self.must_use is None else str(self.must_use),
            "melds_this_turn": self.melds_this_turn,
            "legal_actions": [str(a) for a in self.legal_actions],
            "deal_result": None if self.deal_result is None else _result_json(
                self.deal_result, self.rules, self.names),
            "revealed_hands": None if self.revealed_hands is None else [
                card_names(h) for h in self.revealed_hands],
            "match_over": self.match_over,
            "match_winner": self.match_winner,
            "match_end": self.match_end,
            "sheet": [list(points) for points in self.sheet],
            "last_deal": None if self.last_deal is None else {
                **_result_json(self.last_deal.result, self.rules, self.names),
                "hands": [card_names(h) for h in self.last_deal.hands],
                "table": [m.to_json() for m in self.last_deal.table],
                "pile": card_names(self.last_deal.pile),
                "last": None if self.last_deal.last is None else [
                    self.last_deal.last[0], str(self.last_deal.last[1])],
            },
        }


def _result_json(result: DealResult, rules: Rules, names: tuple[str, ...]) -> dict[str, object]:
    """A deal's result for a front end: the record's keys, why it ended (``end``) and that
    in words (``why``)."""
    return {**result.to_json(), "end": result.end, "why": describe_end(result, rules, names)}


def _knowledge_json(k: Knowledge) -> dict[str, Any]:
    return {
        "seat": k.seat, "hand": card_names(k.hand), "pile": card_names(k.pile),
        "known": [card_names(cards) for cards in k.known],
        "stock": [None if c == UNKNOWN else str(CARDS[c]) for c in k.stock],
        "hidden": [{"cards": card_names(h.cards), "hands": list(h.hands),
                    "stock": list(h.stock), "mine": card_names(h.mine)} for h in k.hidden],
    }


def _meld_json(m: Meld) -> dict[str, Any]:
    return {"kind": m.kind, "cards": card_names(m.cards), "layers": list(m.layers),
            "owner": m.owner, "rank": m.rank, "suit": m.suit, "low": m.low, "high": m.high}


# -- reading a full view's JSON back (View.from_json) ------------------------------------


def _obj(data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} is a JSON object, not {type(data).__name__}")
    return data


def _list(data: object, what: str) -> list[Any]:
    if not isinstance(data, list):
        raise ValueError(f"{what} is a list, not {type(data).__name__}")
    return data


def _int(data: object, what: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise ValueError(f"{what} is a whole number, not {data!r}")
    return data


def _bool(data: object, what: str) -> bool:
    if not isinstance(data, bool):
        raise ValueError(f"{what} is true or false, not {data!r}")
    return data


def _str(data: object, what: str) -> str:
    if not isinstance(data, str):
        raise ValueError(f"{what} is a string, not {data!r}")
    return data


def _cards(data: object, what: str) -> tuple[Card, ...]:
    return tuple(Card.parse(_str(c, what)) for c in _list(data, what))


def _ints(data: object, what: str) -> tuple[int, ...]:
    return tuple(_int(x, what) for x in _list(data, what))


def _card_or_none(data: object, what: str) -> Card | None:
    return None if data is None else Card.parse(_str(data, what))


def _meld_view_from(data: object) -> MeldView:
    d = _obj(data, "a table meld")
    kind = d["kind"]
    if kind not in ("set", "run"):
        raise ValueError(f"a meld's kind is set or run, not {kind!r}")
    return MeldView(_int(d["number"], "a meld's number"), kind,
                    _cards(d["cards"], "a meld's cards"),
                    tuple(_str(r, "a meld's places") for r in _list(d["represents"], "places")),
                    _int(d["owner"], "a meld's owner"), _ints(d["laid_by"], "laid_by"))


def _meld_from(data: object) -> Meld:
    d = _obj(data, "a meld")
    kind = d["kind"]
    if kind not in ("set", "run"):
        raise ValueError(f"a meld's kind is set or run, not {kind!r}")
    return Meld(kind, tuple(int(c) for c in _cards(d["cards"], "a meld's cards")),
                _ints(d["layers"], "a meld's layers"), _int(d["owner"], "a meld's owner"),
                _int(d["rank"], "rank"), _int(d["suit"], "suit"), _int(d["low"], "low"),
                _int(d["high"], "high"))


def _codes(data: object, what: str) -> tuple[int, ...]:
    return tuple(int(c) for c in _cards(data, what))


def _knowledge_from(data: object) -> Knowledge:
    d = _obj(data, "knowledge")
    hidden = tuple(
        Hidden(_codes(h["cards"], "hidden cards"), _ints(h["hands"], "hidden hands"),
               _ints(h["stock"], "hidden stock places"), _codes(h["mine"], "hidden mine"))
        for h in (_obj(x, "a hidden group") for x in _list(d["hidden"], "hidden")))
    return Knowledge(
        seat=_int(d["seat"], "knowledge's seat"),
        hand=_codes(d["hand"], "knowledge's hand"),
        pile=_codes(d["pile"], "knowledge's pile"),
        known=tuple(_codes(k, "known cards") for k in _list(d["known"], "known")),
        stock=tuple(UNKNOWN if c is None else int(Card.parse(_str(c, "a stock place")))
                    for c in _list(d["stock"], "stock")),
        hidden=hidden,
    )


def _result_from(data: object) -> DealResult:
    d = _obj(data, "a deal's result")
    winner = d["winner"]
    end = d.get("end")
    if end is not None and end not in get_args(DealEnd):
        raise ValueError(f"a deal's end is one of {', '.join(get_args(DealEnd))}, not {end!r}")
    return DealResult(None if winner is None else _int(winner, "the winner"),
                      _bool(d["rummy"], "rummy"), _ints(d["points"], "points"), end)


def _action_from(data: object) -> tuple[int, Action]:
    seat, text = _list(data, "a history entry")
    return _int(seat, "a history entry's seat"), Action.parse(text)


def _view_from_json(data: object) -> View:
    d = _obj(data, "a view")
    if "knowledge" not in d or "melds" not in d:
        raise ValueError("this view's JSON was not written with full=True: it has no "
                         "knowledge or melds to rebuild the view from")
    rules = Rules.parse(_str(d["rules"], "the rules"))
    last = d["last_deal"]
    last_deal = None
    if last is not None:
        last = _obj(last, "the last deal")
        last_deal = LastDeal(
            result=_result_from(last),
            hands=tuple(_cards(h, "a hand") for h in _list(last["hands"], "hands")),
            table=tuple(_meld_view_from(m) for m in _list(last["table"], "table")),
            pile=_cards(last["pile"], "the pile"),
            last=None if last["last"] is None else _action_from(last["last"]),
        )
    revealed = d["revealed_hands"]
    match_end = d["match_end"]
    if match_end is not None and match_end not in get_args(MatchEnd):
        raise ValueError(f"the match's end is one of {', '.join(get_args(MatchEnd))}, "
                         f"not {match_end!r}")
    phase = d["phase"]
    if phase not in get_args(Phase):
        raise ValueError(f"the phase is one of {', '.join(get_args(Phase))}, not {phase!r}")
    events = []
    for entry in _list(d["events"], "events"):
        index, event = _list(entry, "an event")
        if event not in get_args(Event):
            raise ValueError(f"an event is one of {', '.join(get_args(Event))}, not {event!r}")
        events.append((_int(index, "an event's index"), event))
    winner = d["match_winner"]
    built = View(
        seat=_int(d["seat"], "the seat"),
        rules=rules,
        names=tuple(_str(n, "a name") for n in _list(d["names"], "names")),
        deal_number=_int(d["deal_number"], "deal_number"),
        dealer=_int(d["dealer"], "dealer"),
        to_move=_int(d["to_move"], "to_move"),
        phase=phase,
        hand=_cards(d["hand"], "the hand"),
        hand_sizes=_ints(d["hand_sizes"], "hand_sizes"),
        stock_size=_int(d["stock_size"], "stock_size"),
        pile=_cards(d["pile"], "the pile"),
        pile_size=_int(d["pile_size"], "pile_size"),
        table=tuple(_meld_view_from(m) for m in _list(d["table"], "table")),
        melds=tuple(_meld_from(m) for m in _list(d["melds"], "melds")),
        history=tuple(_action_from(h) for h in _list(d["history"], "history")),
        history_length=_int(d["history_length"], "history_length"),
        pile_draws=tuple((_int(s, "a pile draw's seat"), _cards(c, "a pile draw's cards"))
                         for s, c in (_list(x, "a pile draw")
                                      for x in _list(d["pile_draws"], "pile_draws"))),
        events=tuple(events),
        totals=_ints(d["totals"], "totals"),
        active=tuple(_bool(x, "active") for x in _list(d["active"], "active")),
        opened=tuple(_bool(x, "opened") for x in _list(d["opened"], "opened")),
        laid=tuple(_bool(x, "laid") for x in _list(d["laid"], "laid")),
        taken=_card_or_none(d["taken"], "taken"),
        must_use=_card_or_none(d["must_use"], "must_use"),
        melds_this_turn=_int(d["melds_this_turn"], "melds_this_turn"),
        turn_value=_int(d["turn_value"], "turn_value"),
        turn_laid=_bool(d["turn_laid"], "turn_laid"),
        turn_overs_used=_int(d["turn_overs_used"], "turn_overs_used"),
        refills_used=_int(d["refills_used"], "refills_used"),
        legal_actions=tuple(Action.parse(a) for a in _list(d["legal_actions"], "legal")),
        deal_result=None if d["deal_result"] is None else _result_from(d["deal_result"]),
        revealed_hands=None if revealed is None else tuple(
            _cards(h, "a revealed hand") for h in _list(revealed, "revealed_hands")),
        match_over=_bool(d["match_over"], "match_over"),
        match_winner=None if winner is None else _int(winner, "match_winner"),
        knowledge=_knowledge_from(d["knowledge"]),
        last_deal=last_deal,
        match_end=match_end,
        sheet=tuple(_ints(row, "a sheet row") for row in _list(d["sheet"], "sheet")),
    )
    _check_consistent(built)
    return built


def _check_consistent(v: View) -> None:
    """A view whose parts agree: every seat number names a seat, every per-seat list has a
    place for each, the knowledge is the view's seat's (a bot reads them together)."""
    players = len(v.names)
    seats = [v.seat, v.dealer, v.to_move, v.knowledge.seat,
             *(m.owner for m in v.melds), *(s for m in v.melds for s in m.layers),
             *(s for s, _ in v.history), *(s for s, _ in v.pile_draws)]
    if v.match_winner is not None:
        seats.append(v.match_winner)
    if players < 2 or any(not 0 <= s < players for s in seats):
        raise ValueError(f"a seat number of this view is not one of its {players} seats")
    per_seat = [v.hand_sizes, v.totals, v.active, v.opened, v.laid, v.knowledge.known,
                *v.sheet, *(h.hands for h in v.knowledge.hidden)]
    if any(len(part) != players for part in per_seat):
        raise ValueError(f"a list of this view has not one entry for each of its {players} "
                         "seats")
    if v.knowledge.seat != v.seat:
        raise ValueError("the knowledge is another seat's than the view's")
    if any(len(m.layers) != len(m.cards) for m in v.melds):
        raise ValueError("a meld's layers do not match its cards")


def _sorted_hand(hand: list[int]) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in sorted(hand))


def view(game: Match | Deal, seat: int, *, recent: int | None = None) -> View:
    """The view of ``seat`` (a match, or a lone deal) at this moment.

    With ``recent``, the history holds only the last ``recent`` actions (a front end that
    shows the latest ones need not carry the whole deal in every message)."""
    if isinstance(game, Match):
        match: Match | None = game
        deal = game.deal
    else:
        match = None
        deal = game
    if not 0 <= seat < deal.players:
        raise ValueError(f"seat {seat} is not at this table (0 to {deal.players - 1})")
    rules = deal.rules
    over = deal.is_over
    pile = deal.pile
    visible = tuple(CARDS[c] for c in _visible_pile(deal))
    moving = deal.to_move == seat and not over
    return View(
        seat=seat,
        rules=rules,
        names=tuple(match.names) if match else tuple(
            f"Player {i + 1}" for i in range(deal.players)),
        deal_number=deal.index + 1,
        dealer=deal.dealer,
        to_move=deal.to_move,
        phase=deal.phase,
        hand=_sorted_hand(deal.hands[seat]),
        hand_sizes=tuple(len(h) for h in deal.hands),
        stock_size=len(deal.stock),
        pile=visible,
        pile_size=len(pile),
        table=_melds(deal),
        melds=tuple(deal.table),
        history=_history(deal, recent),
        history_length=deal.move_count,
        pile_draws=tuple([_pile_draw(draw) for draw in deal.pile_draws]),
        events=deal.events,
        totals=tuple(match.totals) if match else (0,) * deal.players,
        active=deal.active,
        opened=tuple(deal.opened(s) for s in range(deal.players)),
        laid=tuple(deal.has_laid(s) for s in range(deal.players)),
        taken=CARDS[deal.taken] if deal.taken >= 0 else None,
        must_use=CARDS[deal.pending] if deal.pending >= 0 else None,
        melds_this_turn=deal.turn_melds,
        turn_value=deal.turn_value,
        turn_laid=deal.turn_laid,
        turn_overs_used=deal.turn_overs_used,
        refills_used=deal.refills_used,
        legal_actions=tuple(deal.legal_actions()) if moving else (),
        deal_result=deal.result,
        revealed_hands=tuple(_sorted_hand(h) for h in deal.hands) if over else None,
        match_over=match.is_over if match else over,
        match_winner=match.winner if match else None,
        knowledge=deal.knowledge(seat),
        last_deal=_last_deal(match, deal),
        match_end=match.end if match else None,
        sheet=tuple(d.result.points for d in match.finished if d.result is not None)
        if match else (),
    )


def _melds(deal: Deal) -> tuple[MeldView, ...]:
    return tuple([_meld_view(i, m) for i, m in enumerate(deal.table, 1)])


# Views are made at every move, and most of a table stays as it was: the parts made from
# immutable values are kept (equal melds, and equal draws, give equal parts).
@lru_cache(maxsize=1024)
def _meld_view(number: int, meld: Meld) -> MeldView:
    return MeldView(number, meld.kind, tuple(CARDS[c] for c in meld.cards),
                    tuple(meld.represented()), meld.owner, meld.layers)


@lru_cache(maxsize=1024)
def _pile_draw(draw: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[Card, ...]]:
    seat, cards = draw
    return seat, tuple([CARDS[c] for c in cards])


def _visible_pile(deal: Deal) -> list[int]:
    """The pile as the rules expose it, bottom first: all of it where any card of it may
    be drawn, else its top."""
    pile = deal.pile
    return pile[:] if deal.rules.draw_pile == "any" else pile[-1:]


class Sight(NamedTuple):
    """What one seat sees, in the engine's own terms (card codes and melds): the part of a
    :class:`View` that code looking at every move needs (a learning environment), made in
    a few microseconds. It holds nothing that :func:`view` would not show the same seat."""

    seat: int
    players: int
    dealer: int
    to_move: int
    phase: Phase
    hand: tuple[int, ...]
    """The seat's own hand, in the order the deal holds it."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[int, ...]
    """The pile as the rules expose it, bottom first (as :attr:`View.pile`)."""
    pile_cards: tuple[int, ...]
    """The whole pile, bottom first: every card of it was seen face up
    (as ``View.knowledge.pile``)."""
    melds: tuple[Meld, ...]
    known: tuple[tuple[int, ...], ...]
    """For each seat, the cards every player knows it holds (as ``View.knowledge.known``)."""
    totals: tuple[int, ...]
    active: tuple[bool, ...]
    opened: tuple[bool, ...]
    laid: tuple[bool, ...]
    taken: int
    """The card the player to move took from the pile this turn, or -1."""
    must_use: int
    """The pile card the player to move must still meld or lay off, or -1."""
    melds_this_turn: int
    turn_value: int
    turn_overs_used: int
    refills_used: int
    legal_actions: tuple[Action, ...]
    """The seat's legal actions; empty when it is not this seat's move."""


def sight(game: Match | Deal, seat: int, *, legal: bool = True) -> Sight:
    """What ``seat`` sees now, as a :class:`Sight` (the fast form of :func:`view`);
    without ``legal``, the legal actions are left out (empty), for a caller that has them.

    >>> from rummykit.rules import preset
    >>> s = sight(Match(preset("classic"), players=2, seed=5), 0)
    >>> len(s.hand), s.stock_size, len(s.pile)
    (10, 31, 1)
    """
    if isinstance(game, Match):
        deal = game.deal
        totals = tuple(game.totals)
    else:
        deal = game
        totals = (0,) * deal.players
    players = deal.players
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not at this table (0 to {players - 1})")
    moving = legal and deal.to_move == seat and not deal.is_over
    return Sight(
        seat, players, deal.dealer, deal.to_move, deal.phase, tuple(deal.hands[seat]),
        tuple(map(len, deal.hands)), len(deal.stock), tuple(_visible_pile(deal)),
        tuple(deal.pile), tuple(deal.table), deal.known_cards(), totals, deal.active,
        tuple(map(deal.opened, range(players))), tuple(map(deal.has_laid, range(players))),
        deal.taken, deal.pending, deal.turn_melds, deal.turn_value, deal.turn_overs_used,
        deal.refills_used, tuple(deal.legal_actions()) if moving else (),
    )


def _history(deal: Deal, recent: int | None) -> tuple[tuple[int, Action], ...]:
    if recent is None:
        return deal.moves
    return tuple(deal.moves_since(max(0, deal.move_count - recent)))


def _last_deal(match: Match | None, deal: Deal) -> LastDeal | None:
    if match is None:
        return None
    done = [d for d in match.finished[-2:] if d is not deal]
    if not done:
        return None
    last = done[-1]
    result = last.result
    if result is None:
        return None
    moved = last.moves_since(last.move_count - 1) if last.move_count else []
    return LastDeal(
        result=result,
        hands=tuple(_sorted_hand(h) for h in last.hands),
        table=_melds(last),
        pile=tuple(CARDS[c] for c in _visible_pile(last)),
        last=moved[-1] if moved else None,
    )


PUBLIC = frozenset({
    "rules", "names", "deal_number", "dealer", "to_move", "phase", "hand_sizes",
    "stock_size", "pile", "pile_size", "table", "history", "history_length", "events",
    "pile_draws", "totals", "active", "opened", "laid", "taken", "must_use",
    "melds_this_turn", "deal_result", "revealed_hands", "match_over", "match_winner",
    "match_end", "sheet", "last_deal",
})
"""The keys of a view's JSON that every player sees alike: what a spectator gets. A key
not listed here (the seat, its hand, its legal actions, and any key added later) is
never shown to a spectator."""


def public_view(game: Match | Deal, *, recent: int | None = None) -> dict[str, Any]:
    """What anyone watching the table may see, as JSON: the table, the pile as the rules
    expose it, every hand's size, the public history and the scores; no hand (until a
    deal is over and every hand is shown), no stock order, no legal actions. ``seat`` is
    None and ``hand`` and ``legal_actions`` are empty."""
    seen = view(game, 0, recent=recent).to_json()
    return {**{key: value for key, value in seen.items() if key in PUBLIC},
            "seat": None, "hand": [], "legal_actions": []}
