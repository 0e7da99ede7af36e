"""A seat's view of the game as the live protocol sends it (``View.to_json``): the
:class:`GameView` model and the models of its parts, whose attribute docstrings describe
every field on the protocol page (docs/protocol.md, "The view"). The server builds views
as plain dictionaries; a test validates what its clients receive against these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["GameView"]


class Described(BaseModel):
    """A model whose attribute docstrings are its fields' descriptions (in the schema and
    on the protocol page); unknown fields are refused, as in every model the server sends."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class MeldOut(Described):
    """A meld on the table as every player sees it."""

    number: int
    """Its number, counted from 1 in the order melds reached the table (a lay-off names it)."""
    kind: Literal["set", "run"]
    cards: list[str]
    """Its cards (a run's from its low end, jokers where they stand)."""
    represents: list[str]
    """The card each place stands for (a joker's too)."""
    owner: int
    """The seat that laid it down."""
    laid_by: list[int]
    """Who laid each card (lay-offs score for who laid them)."""


class EngineMeldOut(Described):
    """A table meld as the engine holds it (a full view's ``melds``)."""

    kind: Literal["set", "run"]
    cards: list[str]
    layers: list[int]
    owner: int
    rank: int
    """A set's rank (1-13; 0 for a run)."""
    suit: int
    """A run's suit (0-3: clubs, diamonds, hearts, spades; 0 for a set)."""
    low: int
    """A run's lowest place (1: a low ace; 0 for a set)."""
    high: int
    """A run's highest place (14: a high ace; 0 for a set)."""


class HiddenOut(Described):
    """Cards the seat cannot place, and the places they fill: any card of ``cards`` may be
    in any of them, every way equally likely."""

    cards: list[str]
    hands: list[int]
    """For each seat, how many of its cards are places of this group (0 for this seat)."""
    stock: list[int]
    """The stock places of this group, counted from the top (0)."""
    mine: list[str]
    """The seat's own cards that the others count in this group."""


class KnowledgeOut(Described):
    """What the seat knows of where every card of the deal is (a full view only)."""

    seat: int
    hand: list[str]
    pile: list[str]
    """The whole pile, bottom first (every card of it was seen face up)."""
    known: list[list[str]]
    """For each seat, the cards every player knows it holds."""
    stock: list[str | None]
    """Each stock place, top first: its card where known (a stock turned over from the
    pile), else null."""
    hidden: list[HiddenOut]


class ResultOut(Described):
    """How a deal ended."""

    winner: int | None
    """The seat that went out (null: nobody did)."""
    rummy: bool
    """Whether it went out all at once (rummy)."""
    points: list[int]
    """What the deal adds to each seat's total."""
    end: str | None
    """Why it ended: ``out``, ``turn-overs``, ``refills``, ``declined`` or ``repetition``."""
    why: str
    """The same in English words."""


class LastDealOut(ResultOut):
    """The previous deal of the match as it ended (all of it public by then)."""

    hands: list[list[str]]
    table: list[MeldOut]
    pile: list[str]
    last: tuple[int, str] | None
    """Its last move: the seat and the action."""


class GameView(Described):
    """A seat's view of the game (``View.to_json``): all the seat may see, and nothing
    more. A spectator's has ``seat`` null, an empty ``hand`` and no ``legal_actions``. The
    fields from ``knowledge`` on come only to a program's connection (its hello's
    ``full``), whose ``history`` is the deal's whole history."""

    seat: int | None
    """The seat this view is for (null: a spectator's)."""
    rules: str
    """The table's rules, as a preset and its options (``classic(target=250)``)."""
    names: list[str]
    """Each seat's name."""
    deal_number: int
    """The deal of the match, from 1."""
    dealer: int
    """The seat that dealt this deal."""
    to_move: int
    """The seat to move."""
    phase: Literal["draw", "play", "over"]
    """Whether the seat to move draws or plays, or the deal is over."""
    hand: list[str]
    """The seat's own hand, by suit then rank."""
    hand_sizes: list[int]
    """How many cards each seat holds."""
    stock_size: int
    pile: list[str]
    """The pile as the rules show it, bottom first: all of it where any card may be
    drawn, else its top."""
    pile_size: int
    """How many cards the whole pile holds."""
    table: list[MeldOut]
    """The melds on the table."""
    history: list[tuple[int, str]]
    """The deal's actions with the seat that played each (the last 60 only, but on a full
    view)."""
    history_length: int
    """How many actions the deal has had."""
    events: list[tuple[int, Literal["turn-over", "refill"]]]
    """Each turn-over and refill of the stock, with how many actions came before it."""
    pile_draws: list[tuple[int, list[str]]]
    """Every draw from the pile this deal: who, and which cards."""
    totals: list[int]
    """Each seat's match total."""
    active: list[bool]
    """Whether each seat is still in the match."""
    opened: list[bool]
    """Whether each seat has opened (where the rules ask for an opening)."""
    laid: list[bool]
    """Whether each seat melded or laid off in an earlier turn of this deal."""
    taken: str | None
    """The card the seat to move took from the pile this turn."""
    must_use: str | None
    """The pile card the seat to move must still meld or lay off."""
    melds_this_turn: int
    """Melds the seat to move has laid this turn."""
    legal_actions: list[str]
    """What the seat may play now, in the record notation (empty when it is not its move)."""
    deal_result: ResultOut | None
    """How the deal ended, once it is over."""
    revealed_hands: list[list[str]] | None
    """Every hand, once the deal is over."""
    match_over: bool
    match_winner: int | None
    """The seat that won the match (null: not over, or no single winner)."""
    match_end: str | None
    """Why the match ended: ``one-deal``, ``elimination``, ``target``, ``dealt-once`` or
    ``deals``."""
    sheet: list[list[int]]
    """The score sheet: what each finished deal added to each total."""
    last_deal: LastDealOut | None
    """How the previous deal of the match ended."""
    knowledge: KnowledgeOut | None = None
    """A full view: what the seat knows of where every card is."""
    melds: list[EngineMeldOut] | None = None
    """The table's melds as the engine holds them."""
    turn_value: int | None = None
    """Points melded this turn towards an opening."""
    turn_laid: bool | None = None
    """Whether the seat to move melded or laid off this turn."""
    turn_overs_used: int | None = None
    """Times the pile was turned over into the stock this deal."""
    refills_used: int | None = None
    """Times the stock was refilled this deal."""
