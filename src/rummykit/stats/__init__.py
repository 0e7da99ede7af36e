"""The statistics store: every finished game in a real database, through SQLAlchemy.

A SQLite file under ``./var/`` by default; any SQLAlchemy URL (PostgreSQL included) through
``DATABASE_URL`` or an explicit URL. The terminal game, the simulator and the web app write
to the same store; ``rummykit stats`` reads it per player (a person's name or a bot level),
per preset and per player count.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    case,
    create_engine,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from rummykit.engine.deal import DealResult
from rummykit.engine.match import Match
from rummykit.rules import Rules

__all__ = ["DEFAULT_URL", "Base", "GameRow", "SeatRow", "StatLine", "Store", "database_url"]

DEFAULT_URL = "sqlite:///var/rummykit.db"


def database_url(explicit: str | None = None) -> str:
    """The URL to use: the one given, else ``DATABASE_URL``, else the SQLite file."""
    return explicit or os.environ.get("DATABASE_URL") or DEFAULT_URL


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One stored game: a whole match, or a single deal played on its own (simulations)."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source: Mapped[str] = mapped_column(String(20))
    unit: Mapped[str] = mapped_column(String(10))
    """``match`` or ``deal``."""
    rules: Mapped[str] = mapped_column(String(400))
    preset: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[int] = mapped_column(Integer, index=True)
    finished: Mapped[bool] = mapped_column(Boolean)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deals: Mapped[int] = mapped_column(Integer)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    seats: Mapped[list[SeatRow]] = relationship(back_populates="game", cascade="all")


class SeatRow(Base):
    """One seat of a stored game."""

    __tablename__ = "game_seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(80), index=True)
    """A person's name, or a bot's level."""
    kind: Mapped[str] = mapped_column(String(10))
    """``person`` or ``bot``."""
    total: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    deals_won: Mapped[int] = mapped_column(Integer)
    deal_points: Mapped[int] = mapped_column(Integer)
    """The sum of the points the seat scored, deal by deal."""
    rummies: Mapped[int] = mapped_column(Integer)
    game: Mapped[GameRow] = relationship(back_populates="seats")


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

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "kind": self.kind, "preset": self.preset,
            "players": self.players, "matches": self.matches, "matches_won": self.matches_won,
            "win_pct": self.win_pct, "deals": self.deals, "deals_won": self.deals_won,
            "points_per_deal": self.points_per_deal, "rummies": self.rummies,
            "best_score": self.best_score,
        }


class Store:
    """The statistics store on one database."""

    def __init__(self, url: str | None = None, *, create: bool = True) -> None:
        self.url = database_url(url)
        if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:///:memory:"):
            Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(self.url, future=True)
        if create:
            Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------

    def add_game(
        self, *, rules: Rules, names: Sequence[str], kinds: Sequence[str],
        results: Sequence[DealResult], totals: Sequence[int], winner: int | None,
        finished: bool, unit: str = "match", source: str = "play", record: str | None = None,
    ) -> int:
        """Store one game and return its id."""
        game = GameRow(
            created_at=datetime.now(UTC), source=source, unit=unit, rules=str(rules),
            preset=rules.preset_name, players=len(names), finished=finished, winner=winner,
            deals=len(results), record=record,
        )
        for seat, (name, kind) in enumerate(zip(names, kinds, strict=True)):
            game.seats.append(SeatRow(
                seat=seat, player=name, kind=kind, total=totals[seat],
                won=finished and winner == seat,
                deals_won=sum(1 for r in results if r.winner == seat),
                deal_points=sum(r.points[seat] for r in results),
                rummies=sum(1 for r in results if r.winner == seat and r.rummy),
            ))
        with Session(self.engine) as session:
            session.add(game)
            session.commit()
            return game.id

    def add_match(
        self, match: Match, kinds: Sequence[str], *, names: Sequence[str] | None = None,
        source: str = "play", record: str | None = None,
    ) -> int:
        """Store a match (``names`` default to the match's: a bot's level goes here)."""
        results = [d.result for d in match.finished if d.result is not None]
        return self.add_game(
            rules=match.rules, names=list(names or match.names), kinds=kinds, results=results,
            totals=match.totals, winner=match.winner, finished=match.is_over, source=source,
            record=record,
        )

    # -- reading -------------------------------------------------------------------

    def lines(self, *, preset: str | None = None, players: int | None = None,
              player: str | None = None) -> list[StatLine]:
        """Statistics per player, preset and player count."""
        seat, game = SeatRow, GameRow
        is_match = game.unit == "match"
        query = (
            select(
                seat.player, seat.kind, game.preset, game.players,
                func.sum(func.cast(is_match, Integer)),
                func.sum(func.cast(is_match & seat.won, Integer)),
                func.sum(game.deals), func.sum(seat.deals_won), func.sum(seat.deal_points),
                func.sum(seat.rummies),
                func.max(case((is_match, seat.total), else_=None)),
                func.min(case((is_match, seat.total), else_=None)),
            )
            .join(game, seat.game_id == game.id)
            .group_by(seat.player, seat.kind, game.preset, game.players)
            .order_by(game.preset, game.players, seat.player)
        )
        if preset is not None:
            query = query.where(game.preset == preset)
        if players is not None:
            query = query.where(game.players == players)
        if player is not None:
            query = query.where(seat.player == player)
        out = []
        with Session(self.engine) as session:
            for row in session.execute(query):
                (name, kind, preset_name, count, matches, won, deals, deals_won, points,
                 rummies, highest, lowest) = row
                best = lowest if _penalties(preset_name) else highest
                matches, won, deals = int(matches or 0), int(won or 0), int(deals or 0)
                out.append(StatLine(
                    player=name, kind=kind, preset=preset_name, players=count,
                    matches=matches, matches_won=won,
                    win_pct=100.0 * won / matches if matches else 0.0,
                    deals=deals, deals_won=int(deals_won or 0),
                    points_per_deal=int(points or 0) / deals if deals else 0.0,
                    rummies=int(rummies or 0), best_score=None if best is None else int(best),
                ))
        return out


def _penalties(preset_name: str) -> bool:
    """Whether totals count against the player (then the best score is the lowest)."""
    from rummykit.rules import PRESETS

    rules = PRESETS.get(preset_name)
    return rules is not None and rules.scoring == "penalty"
