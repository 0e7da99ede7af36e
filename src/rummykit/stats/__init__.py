"""The statistics store: every finished game in a real database, through SQLAlchemy.

A SQLite file in the user's data directory by default (:func:`rummykit.db.default_url`);
any SQLAlchemy URL (PostgreSQL included) through ``DATABASE_URL`` or an explicit URL. The
terminal game, the simulator and the web app write to the same store; ``rummykit stats``
reads it per player (a person's name or a bot level), per preset and per player count.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Integer, case, func, select
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError
from sqlalchemy.orm import Session

from rummykit.db import connect, database_url
from rummykit.db.models import BoardNameRow, GameRow, ReviewSeatRow, SeatRow
from rummykit.engine.deal import DealResult
from rummykit.engine.match import Match
from rummykit.engine.scoring import POINTS_AGAINST
from rummykit.errors import shown
from rummykit.limits import NAME_LENGTH, STORED_NAME_LENGTH
from rummykit.ratings import Group
from rummykit.rules import Rules
from rummykit.stats import rated
from rummykit.stats.rated import rate_game

__all__ = ["StatLine", "Store", "StoreError", "database_problem", "player_id",
           "shown_url"]


def player_id(key_hash: str) -> str:
    """The public mark of a player's key: eight hex digits that tell two players of the
    same name apart and say nothing of the key (a hash of its stored hash)."""
    return hashlib.sha256(f"rummykit/player/{key_hash}".encode()).hexdigest()[:8]


@dataclass(frozen=True, slots=True)
class StatLine:
    """One line of ``rummykit stats``."""

    player: str
    kind: str
    preset: str
    players: int
    matches: int
    matches_won: int
    win_pct: float
    deals: int
    deals_won: int
    points_per_deal: float
    rummies: int
    best_score: int | None
    player_id: str | None = None
    """For results of a player's key (web games from a browser that claimed its seat):
    :func:`player_id`; such results are never counted with another key's or a name's."""
    reviewed: int = 0
    """Matches of these that the game review looked at (web tables' reviews)."""
    accuracy: float | None = None
    """The review's accuracy (0 to 100) over those matches' decisions (None: none
    reviewed): each decision counts once, whichever match it was in."""

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "player_id": self.player_id, "kind": self.kind,
            "preset": self.preset,
            "players": self.players, "matches": self.matches, "matches_won": self.matches_won,
            "win_pct": self.win_pct, "deals": self.deals, "deals_won": self.deals_won,
            "points_per_deal": self.points_per_deal, "rummies": self.rummies,
            "best_score": self.best_score, "reviewed": self.reviewed,
            "accuracy": self.accuracy,
        }


class StoreError(Exception):
    """A database the store cannot use, in one line for a person."""


def database_problem(err: Exception) -> str:
    """The first line of a database error's text, without SQLAlchemy's wrapping: "file is
    not a database", "unable to open database file"."""
    inner = getattr(err, "orig", None)
    text = str(inner if inner is not None else err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def shown_url(url: str) -> str:
    """A database URL as it may be printed: its password hidden (in quotes where it is
    no URL at all)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


class Store:
    """The statistics store on one database."""

    def __init__(self, url: str | None = None, *, engine: Engine | None = None) -> None:
        self.engine: Engine = engine if engine is not None else connect(url)
        self._owns_engine = engine is None

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """The store at ``url`` (see :func:`rummykit.db.database_url`); a URL that does not
        parse, a database that cannot be opened or a file that is not a database is a
        :class:`StoreError` that says so in one line."""
        found = database_url(url)
        try:
            return cls(found)
        except (ArgumentError, DatabaseError, ValueError) as err:
            raise StoreError(f"cannot open the database {shown_url(found)}: "
                             f"{database_problem(err)}") from None


    def close(self) -> None:
        if self._owns_engine:
            self.engine.dispose()

    # -- writing -------------------------------------------------------------------

    def add_game(
        self, *, rules: Rules, names: Sequence[str], kinds: Sequence[str],
        results: Sequence[DealResult], totals: Sequence[int], winner: int | None,
        finished: bool, unit: str = "match", source: str = "play", record: str | None = None,
        played: Sequence[int] | None = None, keys: Sequence[str | None] | None = None,
        abandoned: bool = False, rated: bool = False, left: Sequence[int] = (),
        session: Session | None = None,
    ) -> int:
        """Store one game and return its id.

        ``played`` counts the deals each seat took part in (all of them by default);
        ``keys`` holds each seat's player key, hashed (None where there is none). A
        ``rated`` game moves its players' ratings (:mod:`rummykit.stats.rated`) in the
        transaction that stores it; ``left`` holds the seats of people who left (their
        table ended the match then, or the computer played their seat to its end): they
        lost it. With ``session`` the game is added to
        that session's transaction, which the caller commits (with what else it stores
        there); otherwise it is committed here."""
        if len(names) != len(kinds) or len(names) != len(totals):
            raise ValueError("one name, kind and total per seat")
        for name in names:
            if not name or len(name) > STORED_NAME_LENGTH:
                raise ValueError(f"a player's name has 1 to {STORED_NAME_LENGTH} characters: "
                                 f"{shown(name)}")
        game = GameRow(
            created_at=datetime.now(UTC), source=source, unit=unit, rules=str(rules),
            preset=rules.preset_name, scoring=rules.scoring, players=len(names),
            finished=finished, winner=winner,
            deals=len(results), record=record, abandoned=abandoned, rated=rated,
            left_seats=",".join(str(s) for s in sorted(left)),
        )
        for seat, (name, kind) in enumerate(zip(names, kinds, strict=True)):
            game.seats.append(SeatRow(
                seat=seat, player=name, kind=kind, total=totals[seat],
                player_key=None if keys is None else keys[seat],
                won=finished and winner == seat,
                deals_won=sum(1 for r in results if r.winner == seat),
                deals_played=len(results) if played is None else played[seat],
                deal_points=sum(r.points[seat] for r in results),
                rummies=sum(1 for r in results if r.winner == seat and r.rummy),
            ))
        if session is not None:
            session.add(game)
            session.flush()
            rate_game(session, game)
            return game.id
        with Session(self.engine) as own, own.begin():
            own.add(game)
            own.flush()
            rate_game(own, game)
            return game.id

    def add_match(
        self, match: Match, kinds: Sequence[str], *, names: Sequence[str] | None = None,
        source: str = "play", record: str | None = None,
        keys: Sequence[str | None] | None = None, abandoned: bool = False,
        rated: bool = False, left: Sequence[int] = (), session: Session | None = None,
    ) -> int:
        """Store a match (``names`` default to the match's: a bot's level goes here). An
        ``abandoned`` match (the computer players finished it after every person had left)
        is stored unfinished: nobody won or lost it, and it is not rated unless someone
        in ``left`` lost it. ``rated``, ``left`` and ``session``: as :meth:`add_game`."""
        results = [d.result for d in match.finished if d.result is not None]
        played = [sum(1 for d in match.finished if d.active[seat])
                  for seat in range(match.players)]
        return self.add_game(
            rules=match.rules, names=list(names or match.names), kinds=kinds, results=results,
            totals=match.totals, winner=None if abandoned else match.winner,
            finished=match.is_over and not abandoned, source=source, record=record,
            played=played, keys=keys, abandoned=abandoned,
            rated=rated and (not abandoned or bool(left)), left=left, session=session,
        )

    # -- ratings -------------------------------------------------------------------

    def rating_changes(self, game_id: int) -> list[rated.Change]:
        """What the stored game ``game_id`` did to each seat's rating (empty: unrated)."""
        with Session(self.engine) as session:
            return rated.changes(session, game_id)

    def board(self, preset: str, grp: Group, *, limit: int = 100) -> list[rated.BoardLine]:
        """The leaderboard of a preset and player-count group."""
        with Session(self.engine) as session:
            return rated.board(session, preset, grp, limit=limit)

    def history(self, subject: str, preset: str, grp: Group) -> list[tuple[datetime, int]]:
        with Session(self.engine) as session:
            return rated.history(session, subject, preset, grp)

    def rerate(self) -> int:
        """Work every rating out again from the stored games (one transaction); the
        number of games rated."""
        with Session(self.engine) as session, session.begin():
            return rated.rerate(session)

    def set_board_name(self, subject: str, name: str | None, *, hidden: bool) -> None:
        """A person's choice for the leaderboard: the name shown there (None: the one
        they play under), or hidden from it."""
        if name is not None and not 1 <= len(name) <= NAME_LENGTH:
            raise ValueError(f"a name has 1 to {NAME_LENGTH} characters: {shown(name)}")
        with Session(self.engine) as session, session.begin():
            row = session.get(BoardNameRow, subject)
            if row is None:
                row = BoardNameRow(subject=subject)
                session.add(row)
            row.name, row.hidden = name, hidden

    # -- reading -------------------------------------------------------------------

    def lines(self, *, preset: str | None = None, players: int | None = None,
              player: str | None = None) -> list[StatLine]:
        """Statistics per player, preset and player count."""
        seat, game = SeatRow, GameRow
        is_match = game.unit == "match"
        against = sorted(POINTS_AGAINST)
        query = (
            select(
                seat.player, seat.player_key, seat.kind, game.preset, game.players,
                func.sum(func.cast(is_match, Integer)),
                func.sum(func.cast(is_match & seat.won, Integer)),
                func.sum(seat.deals_played), func.sum(seat.deals_won),
                func.sum(seat.deal_points), func.sum(seat.rummies),
                func.max(case((is_match & game.scoring.not_in(against), seat.total),
                              else_=None)),
                func.min(case((is_match & game.scoring.in_(against), seat.total),
                              else_=None)),
            )
            .join(game, seat.game_id == game.id)
            .group_by(seat.player, seat.player_key, seat.kind, game.preset, game.players)
            .order_by(game.preset, game.players, seat.player, seat.player_key)
        )
        if preset is not None:
            query = query.where(game.preset == preset)
        if players is not None:
            query = query.where(game.players == players)
        if player is not None:
            query = query.where(seat.player == player)
        reviewed = self._reviewed(preset=preset, players=players, player=player)
        out = []
        with Session(self.engine) as session:
            for row in session.execute(query):
                (name, key, kind, preset_name, count, matches, won, deals, deals_won,
                 points, rummies, highest, lowest) = row
                # Where totals count against the player (penalty) the lowest is best.
                best = highest if highest is not None else lowest
                matches, won, deals = int(matches or 0), int(won or 0), int(deals or 0)
                out.append(StatLine(
                    player=name, kind=kind, preset=preset_name, players=count,
                    matches=matches, matches_won=won,
                    win_pct=100.0 * won / matches if matches else 0.0,
                    deals=deals, deals_won=int(deals_won or 0),
                    points_per_deal=int(points or 0) / deals if deals else 0.0,
                    rummies=int(rummies or 0), best_score=None if best is None else int(best),
                    player_id=None if key is None else player_id(key),
                    **reviewed.get((name, key, kind, preset_name, count), {}),
                ))
        return out

    def _reviewed(self, *, preset: str | None, players: int | None, player: str | None
                  ) -> dict[tuple[Any, ...], dict[str, Any]]:
        """The reviewed matches and accuracy of each line's player (its key)."""
        rs = ReviewSeatRow
        query = (select(rs.player, rs.player_key, rs.kind, rs.preset, rs.players,
                        func.count(), func.sum(rs.decisions),
                        func.sum(rs.accuracy * rs.decisions))
                 .group_by(rs.player, rs.player_key, rs.kind, rs.preset, rs.players))
        if preset is not None:
            query = query.where(rs.preset == preset)
        if players is not None:
            query = query.where(rs.players == players)
        if player is not None:
            query = query.where(rs.player == player)
        found: dict[tuple[Any, ...], dict[str, Any]] = {}
        with Session(self.engine) as session:
            for name, key, kind, preset_name, count, matches, decisions, weighted in \
                    session.execute(query):
                decisions = int(decisions or 0)
                found[(name, key, kind, preset_name, count)] = {
                    "reviewed": int(matches),
                    "accuracy": round(float(weighted) / decisions, 1) if decisions else None}
        return found

