"""Tables: the rules a page offers (``/api/presets``, ``/api/rules``), the limits it
holds people's input to (``/api/config``), a new table, a seat's state, a rematch and
the lobby."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter

from rummykit.bots import BOTS, parse_bot
from rummykit.errors import RulesError
from rummykit.rules import OPTION_HELP, PRESET_SOURCES, PRESETS, Rules
from rummykit.server import app as conf
from rummykit.server.hub import HubError, SeatSpec, token_hash
from rummykit.server.middleware import Bucket, bucket_of
from rummykit.server.routes.deps import Client, HubOf, ServerOf, TableOf, Who
from rummykit.server.schemas import (
    ConfigOut,
    LobbyOut,
    PresetOut,
    PresetsOut,
    RematchOut,
    RulesOut,
    SeatLink,
    TableCreated,
    TableIn,
    TokenIn,
    ViewOut,
)

__all__ = ["router"]

router = APIRouter(prefix="/api")

TABLE_WINDOW = 600.0
"""The window, in seconds, of the allowance of new tables from one client address (the
app's ``tables_per_client``)."""
LOBBY_LIMIT = 100
"""The most tables the lobby lists."""


def options_of(rules: Rules) -> dict[str, object]:
    """Every option's value (tuples as lists, as JSON has them)."""
    values = {k: getattr(rules, k) for k in OPTION_HELP}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}


def masterly(level: str | None) -> bool:
    """Whether a bot level is the master (a search of up to a second a move)."""
    if level is None:
        return False
    try:
        name, _ = parse_bot(level)
    except ValueError:
        return False
    return name == "master"


@router.get("/presets")
async def presets(hub: HubOf) -> PresetsOut:
    """Every preset with every option's value and what the option changes."""
    return PresetsOut(presets={name: PresetOut(source=PRESET_SOURCES[name],
                                               options=options_of(rules))
                               for name, rules in PRESETS.items()},
                      help=OPTION_HELP, bots=list(BOTS), think=hub.think)


@router.get("/config")
async def config() -> ConfigOut:
    """The limits on what a person types (a name, a rules text, a chat line, a browser's
    key), so that the pages hold input to the server's own numbers."""
    return ConfigOut()


@router.get("/rules")
async def rules_check(text: str) -> RulesOut:
    """Check a rules text; answer its canonical form and every option's value."""
    try:
        rules = Rules.parse(text)
    except RulesError as err:
        raise HubError(str(err), code="rules") from None
    return RulesOut(rules=str(rules), options=options_of(rules))


def admit(server: ServerOf, body: TableIn, client: str) -> None:
    """Refuse a new table past the server's or the client's allowance (503, 429)."""
    hub = server.hub
    most = 10 * conf.MAX_OPEN_TABLES
    tables = bucket_of(server.openings, client, lambda: Bucket(
        server.tables_per_client, server.tables_per_client / TABLE_WINDOW), most)
    if sum(1 for t in hub.tables.values() if t.status != "finished") >= conf.MAX_OPEN_TABLES:
        raise HubError("the server has as many tables open as it can hold: try again "
                       "later", 503, code="tables-full")
    searching = [s.level for s in body.seats if s.kind == "bot"] + [body.standin]
    if any(masterly(level) for level in searching):
        masters = bucket_of(server.mastering, client, lambda: Bucket(
            conf.MASTER_TABLES_PER_CLIENT, conf.MASTER_TABLES_PER_CLIENT / TABLE_WINDOW),
            most)
        if not masters.take():
            raise HubError(f"at most {conf.MASTER_TABLES_PER_CLIENT} new tables with a master "
                           "in ten minutes from one place (each of its moves is a long "
                           "search): choose expert, or try again later", 429,
                           code="master-limit")
    if not tables.take():
        raise HubError(f"at most {server.tables_per_client} new tables in ten minutes from "
                       "one place: try again later", 429, retry_after=tables.wait(),
                           code="tables-per-client")
    if body.seed is not None and not server.allow_seed:
        raise HubError("the server shuffles: a chosen seed would show its chooser every "
                       "card", 403, code="seed-not-allowed")


@router.post("/tables")
async def create_table(body: TableIn, server: ServerOf, client: Client) -> TableCreated:
    admit(server, body, client)
    creator = None if body.key is None else token_hash(body.key)
    # The maker sits in the first person's seat: it is theirs from the start (the lobby
    # never offers it).
    first = next((i for i, s in enumerate(body.seats) if s.kind == "person"), None)
    table = await server.hub.open_table(
        body.rules, [SeatSpec(s.kind, s.name, s.level) for s in body.seats], seed=body.seed,
        creator_hash=creator,
        key_hashes=None if creator is None else [
            creator if i == first else None for i in range(len(body.seats))],
        turn_timer=body.timer, standin=body.standin, listed=body.public, rated=body.rated)
    server.hub.pool.own(table.id, client)  # (its bots' searches are this client's)
    return TableCreated(id=table.id, rules=str(table.rules), seats=[
        SeatLink(seat=s, name=table.seats.names[s], kind=table.seats.kinds[s],
                 link=table.seats.links[s])
        for s in range(table.players)])


@router.get("/tables/{table_id}", response_model=ViewOut, response_model_exclude_unset=True)
async def table_state(table: TableOf, who: Who, hub: HubOf) -> object:
    """What a seat sees now (as its live connection's ``view`` message)."""
    return await hub.current_state(table, hub.seat_for(table, token=who.token,
                                                       seat=who.seat, key=who.key))


@router.post("/tables/{table_id}/rematch")
async def rematch(table: TableOf, body: TokenIn, hub: HubOf) -> RematchOut:
    seat = hub.seat_for(table, token=body.token, seat=body.seat, key=body.key)
    new_id = await hub.rematch(table, seat)
    mine = body.key is not None and table.seats.owns(seat, body.key)
    hub.pool.own(new_id, hub.pool.client_of(table.id))
    # The seat's token and its browser's claim carry over to the rematch (kept hashed): a
    # browser that owns the seat goes on with its key, and no token in the address.
    link = (f"/t/{new_id}?token={quote(body.token)}" if body.token and not mine
            else f"/t/{new_id}?seat={seat}")
    return RematchOut(id=new_id, link=link)


@router.get("/lobby", response_model=LobbyOut)
async def lobby(hub: HubOf) -> object:
    """The tables listed in the lobby that are waiting or in play (at most LOBBY_LIMIT),
    those waiting for players first."""
    return {"tables": hub.lobby(LOBBY_LIMIT)}
