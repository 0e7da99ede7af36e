"""The hub's storage: the only part of the hub that speaks to the database (SQLAlchemy).

A table is stored as its row, its seats' rows and its actions' rows; it is rebuilt by
replaying its stored actions through the engine's checked path. Every write runs in the
hub's one writer thread (:meth:`rummykit.server.hub.Hub._write`).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError as Conflict
from sqlalchemy.exc import SQLAlchemyError as StorageError
from sqlalchemy.orm import Session, selectinload

from rummykit import record as records
from rummykit.bots import parse_bot
from rummykit.db.models import ActionRow, TableRow, TableSeatRow
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.errors import RulesError, RummyError
from rummykit.rules import Rules
from rummykit.server.bus import Bus
from rummykit.server.hub.errors import HubError, RebuildError
from rummykit.server.hub.table import STANDIN, Seats, Table
from rummykit.stats import Store

__all__ = ["BROKEN", "BROKEN_MESSAGE", "Conflict", "Engine", "Storage", "StorageError",
           "table_row"]

log = logging.getLogger("rummykit.server")

BROKEN = "broken"
"""The status of a table whose stored game this version can no longer rebuild."""

BROKEN_MESSAGE = "this table can no longer be rebuilt by this version of rummykit"
"""What a client hears of a broken table (the reason is in the server's log)."""


def table_row(session: Session, table_id: str) -> TableRow | None:
    """A stored table with its seats and actions."""
    return session.scalars(
        select(TableRow).where(TableRow.id == table_id)
        .options(selectinload(TableRow.seats), selectinload(TableRow.actions))
    ).first()


class Storage:
    """What the hub reads from and writes to the database (a part of :class:`Hub`)."""

    engine: Engine
    bus: Bus
    broken: set[str]
    """Tables found broken: refused at once, never rebuilt again."""

    def _rebuild_unfinished(self) -> list[Table]:
        """Every unfinished table rebuilt from its stored actions; one that cannot be is
        marked ``broken`` (:meth:`_rebuild`)."""
        rebuilt: list[Table] = []
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.status.not_in(("finished", BROKEN)))
                .options(selectinload(TableRow.seats), selectinload(TableRow.actions))
            ).all()
            for row in rows:
                table = self._rebuild(row)
                if table is None:
                    row.status = BROKEN
                else:
                    rebuilt.append(table)
            session.commit()
        return rebuilt

    def _read_table(self, table_id: str) -> Table | None:
        """The stored table ``table_id`` rebuilt, or None if it cannot be (:meth:`_rebuild`);
        404 if there is none, 410 if it is marked broken."""
        with Session(self.engine) as session:
            row = table_row(session, table_id)
            if row is None:
                raise HubError("there is no such table", 404, code="no-table")
            if row.status == BROKEN:
                self.broken.add(table_id)
                raise HubError(BROKEN_MESSAGE, 410, code="table-broken")
            return self._rebuild(row)

    def _save_new(self, table: Table, first_dealer: int | None) -> None:
        """Store a table just made, with its seats."""
        with Session(self.engine) as session:
            session.add(TableRow(
                id=table.id, created_at=datetime.now(UTC), rules=str(table.rules),
                seed=table.seed, first_dealer=first_dealer, status=table.status,
                previous=table.previous, creator_hash=table.creator_hash,
                turn_timer=table.turn_timer, standin=table.standin, public=table.listed,
                rated=table.rated,
                seats=[TableSeatRow(seat=i, name=table.seats.names[i], kind=table.seats.kinds[i],
                                    level=table.seats.levels[i],
                                    token_hash=table.seats.token_hashes[i],
                                    key_hash=table.seats.key_hashes[i],
                                    joined=table.seats.joined[i]) for i in range(table.players)],
            ))
            session.commit()

    def _claimed(self, digest: str, limit: int) -> list[dict[str, Any]]:
        """The stored tables where the browser whose key hashes to ``digest`` claimed a
        seat, newest first: id, rules, status, the seat, every seat's name, when made."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(TableRow, TableSeatRow.seat).join(TableSeatRow)
                .where(TableSeatRow.key_hash == digest)
                .order_by(TableRow.created_at.desc()).limit(limit)
                .options(selectinload(TableRow.seats))
            ).all()
            return [{"id": row.id, "rules": row.rules, "status": row.status, "seat": seat,
                     "names": [s.name for s in row.seats],
                     "created": row.created_at.isoformat()} for row, seat in rows]

    def _load_row(self, row: TableRow) -> Table:
        """The table of ``row``, its stored actions replayed; :class:`RebuildError` (naming
        the reason) if this version cannot rebuild it."""
        try:
            rules = Rules.parse(row.rules)
        except RulesError as err:
            raise RebuildError(f"its rules {row.rules!r} no longer parse: {err}") from err
        seats = sorted(row.seats, key=lambda s: s.seat)
        names = [s.name for s in seats]
        try:
            match = Match(rules, players=names, seed=row.seed, first_dealer=row.first_dealer)
        except RummyError as err:
            raise RebuildError(f"its match cannot be dealt (seed {row.seed}, first dealer "
                               f"{row.first_dealer}, {len(names)} seats): {err}") from err
        table = Table(
            id=row.id, rules=rules, seed=row.seed,
            seats=Seats(names=names, kinds=[s.kind for s in seats],
                        levels=[s.level for s in seats],
                        token_hashes=[s.token_hash for s in seats],
                        joined=[s.joined for s in seats],
                        key_hashes=[s.key_hash for s in seats],
                        standing=[s.away for s in seats], away=[s.away for s in seats]),
            status=row.status, match=match, previous=row.previous, next_table=row.next_table,
            creator_hash=row.creator_hash,
            turn_timer=row.turn_timer, standin=row.standin or STANDIN, listed=row.public,
            rated=row.rated,
            ended_by=row.ended_by, abandoned=row.abandoned,
        )
        for action in sorted(row.actions, key=lambda a: a.seq):
            # The stored actions were checked when played; replay them through the checked
            # path all the same, so a damaged database cannot make an impossible game.
            try:
                match.apply(Action.parse(action.text))
            except RummyError as err:
                raise RebuildError(f"its stored action {action.seq} ({action.text!r}) is "
                                   f"refused: {err}") from err
            table.seq = action.seq
            table.last = [f"{names[action.seat]}: {action.text}"]
            table.actions.append(action.text)
        return table

    def _rebuild(self, row: TableRow) -> Table | None:
        """:meth:`_load_row`, or None for a table that cannot be rebuilt: that is logged
        and remembered (the caller marks its row ``broken``)."""
        try:
            return self._load_row(row)
        except Exception as err:  # whatever the reason: this table, not the server, fails
            expected = isinstance(err, RebuildError)
            reason = str(err) if expected else f"{type(err).__name__}: {err}"
            log.error("table %s can no longer be rebuilt and is marked broken: %s", row.id,
                      reason, exc_info=not expected)
            self.broken.add(row.id)
            return None

    def _save_broken(self, table_id: str) -> None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is not None:
                row.status = BROKEN
                session.commit()

    def _saved(self, future: Future[None]) -> None:
        err = future.exception()
        if err is not None:
            log.error("marking a table broken failed", exc_info=err)

    def _save_join(self, table_id: str, seat: int) -> None:
        """Store that ``seat`` joined; the game starts once every seat has (decided by
        the stored seats, the table's row locked: with several server processes, two
        people joining at once through two of them start it once)."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id, with_for_update=True)
            assert row is not None
            for s in row.seats:
                if s.seat == seat:
                    s.joined = True
            if row.status == "waiting" and all(s.joined for s in row.seats):
                row.status = "playing"
            session.commit()

    def _save_next(self, table_id: str, next_id: str) -> None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            assert row is not None
            row.next_table = next_id
            session.commit()

    def _save_seat(self, table_id: str, seat: int, values: dict[str, object]) -> None:
        """Store ``values`` (column: value) in one seat's row."""
        with Session(self.engine) as session:
            row = session.scalars(select(TableSeatRow).where(
                TableSeatRow.table_id == table_id, TableSeatRow.seat == seat)).one()
            for column, value in values.items():
                setattr(row, column, value)
            session.commit()

    def _delete_action(self, table_id: str, seq: int) -> None:
        with Session(self.engine) as session:
            row = session.scalars(select(ActionRow).where(
                ActionRow.table_id == table_id, ActionRow.seq == seq)).one()
            session.delete(row)
            session.commit()

    def _save_actions(self, actions: list[tuple[str, int, int, str]]) -> None:
        """Store ``actions`` (table, number, seat, text) in one transaction: all or none.
        One insert of many rows (SQLAlchemy Core, no ORM objects: the hot path)."""
        with Session(self.engine) as session:
            session.execute(insert(ActionRow), [
                {"table_id": table_id, "seq": seq, "seat": seat, "text": text}
                for table_id, seq, seat, text in actions])
            # The commonest change comes whole, announced by its own commit: the other
            # server processes play it without reading the table again.
            for table_id, seq, seat, text in actions:
                self.bus.publish_with(session, {"k": "action", "t": table_id, "seq": seq,
                                                "seat": seat, "text": text})
            session.commit()

    def _save_finish(self, table: Table) -> None:
        store = Store(engine=self.engine)
        levels = table.seats.levels
        players = [parse_bot(level)[0] if table.seats.kinds[s] == "bot" and level
                   else table.seats.names[s]
                   for s, level in enumerate(levels)]
        # A person's results belong to the key of the browser that claimed the seat.
        keys = [table.seats.key_hashes[s] if table.seats.kinds[s] == "person" else None
                for s in range(table.players)]
        seats = table.seats
        people = [s for s in range(table.players) if seats.kinds[s] == "person"]
        # Who left a rated match lost it: the seat whose leaving ended it, and each person
        # whose seat the computer played to its end (handed over, or gone). Where every
        # person of several left, nobody played it: it is not rated (``abandoned``).
        gone = {s for s in people
                if seats.standing[s] and (seats.away[s] or not table.presence.connected(s))}
        left = sorted(gone | ({table.ended_by} if table.ended_by is not None else set()))
        if len(people) > 1 and gone == set(people):
            left = []
        # A person is rated by their browser's key: a seat played without one (through
        # the API) leaves the match unrated.
        rated = table.rated and all(seats.key_hashes[s] for s in people)
        # The match's game, its ratings and the table's end: one transaction (a crash
        # between them neither loses the match nor counts or rates it twice).
        with Session(self.engine) as session, session.begin():
            row = session.get(TableRow, table.id, with_for_update=True)
            assert row is not None
            if row.status == "finished":
                return  # (stored already, by another process)
            row.game_id = store.add_match(
                table.match, table.seats.kinds, names=players, source="web",
                record=records.dumps(records.from_match(table.match)), keys=keys,
                abandoned=table.abandoned, rated=rated, left=left,
                session=session)
            row.status = "finished"
            row.ended_by = table.ended_by
            row.abandoned = table.abandoned

    def _stored_seqs(self, table_ids: list[str]) -> dict[str, tuple[int, str]]:
        """For each of ``table_ids``: the number of its last stored action, and its
        stored status."""
        out: dict[str, tuple[int, str]] = {}
        with Session(self.engine) as session:
            for start in range(0, len(table_ids), 500):
                chunk = table_ids[start:start + 500]
                last: dict[str, int] = {
                    table_id: seq for table_id, seq in session.execute(
                        select(ActionRow.table_id, func.max(ActionRow.seq))
                        .where(ActionRow.table_id.in_(chunk))
                        .group_by(ActionRow.table_id))}
                for table_id, status in session.execute(
                        select(TableRow.id, TableRow.status).where(TableRow.id.in_(chunk))):
                    out[table_id] = (last.get(table_id) or 0, status)
        return out

    def _reread(self, table_id: str, since: int) -> dict[str, Any] | None:
        """A table's stored seats and status, and its actions numbered ``since`` or more."""
        with Session(self.engine) as session:
            row = session.scalars(select(TableRow).where(TableRow.id == table_id)
                                  .options(selectinload(TableRow.seats))).first()
            if row is None:
                return None
            actions = session.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.text)
                .where(ActionRow.table_id == table_id, ActionRow.seq >= since)
                .order_by(ActionRow.seq)).all()
            return {
                "status": row.status, "next_table": row.next_table,
                "ended_by": row.ended_by, "abandoned": row.abandoned, "listed": row.public,
                "seats": [{"name": s.name, "joined": s.joined, "key_hash": s.key_hash,
                           "token_hash": s.token_hash, "away": s.away}
                          for s in sorted(row.seats, key=lambda s: s.seat)],
                "actions": [(seq, seat, text) for seq, seat, text in actions],
            }
