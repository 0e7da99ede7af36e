"""The database schema: the statistics store and the web app's tables, one metadata.

The schema is created and changed by the Alembic migrations in ``migrations/``; every
program that opens the database runs them first (:func:`rummykit.db.connect`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from rummykit.limits import BOT_LEVEL_LENGTH, RULES_LENGTH

__all__ = ["ActionRow", "Base", "BoardNameRow", "GameRow", "RatingChangeRow", "RatingRow",
           "ReviewJobRow", "ReviewRow", "ReviewSeatRow", "SeatRow", "TableRow", "TableSeatRow"]


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
    rules: Mapped[str] = mapped_column(String(RULES_LENGTH))
    preset: Mapped[str] = mapped_column(String(40), index=True)
    scoring: Mapped[str] = mapped_column(String(10), server_default="collect")
    """How deals were scored: with ``penalty`` the lowest total is the best."""
    players: Mapped[int] = mapped_column(Integer, index=True)
    finished: Mapped[bool] = mapped_column(Boolean)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deals: Mapped[int] = mapped_column(Integer)
    abandoned: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A match the computer players finished after every person had left (web games): it
    is stored unfinished, won and lost by nobody."""
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Played at a rated table (or rated in the terminal): it moves its players' ratings."""
    left_seats: Mapped[str] = mapped_column(String(20), server_default="")
    """The seats of people who left, comma-separated (their loss, in a rated match): the
    table ended the match then, or the computer played their seat to its end."""
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
    player_key: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The hashed key of the browser that played the seat (web games), or None."""
    kind: Mapped[str] = mapped_column(String(10))
    """``person`` or ``bot``."""
    total: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    deals_won: Mapped[int] = mapped_column(Integer)
    deals_played: Mapped[int] = mapped_column(Integer)
    """Deals the seat played (a ramino player who is out sits the later ones out)."""
    deal_points: Mapped[int] = mapped_column(Integer)
    """The sum of the points the seat scored, deal by deal."""
    rummies: Mapped[int] = mapped_column(Integer)
    game: Mapped[GameRow] = relationship(back_populates="seats")


class TableRow(Base):
    """A table of the web app: its rules, its seats and (in ``actions``) every action."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rules: Mapped[str] = mapped_column(String(RULES_LENGTH))
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that deals first; None: as the rules say."""
    status: Mapped[str] = mapped_column(String(12), index=True)
    """``waiting`` (for people to join), ``playing``, ``finished``, or ``broken`` (this
    version can no longer rebuild its game: refused with 410)."""
    previous: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table this one is a rematch of."""
    next_table: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The rematch of this table, once someone asked for it."""
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The finished match in the statistics."""
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of the key of the browser that made the table (it may issue new
    links for the seats)."""
    public: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Listed in the lobby, where anyone may take a free seat."""
    turn_timer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds a person has for a turn before a computer player plays it; None: no timer."""
    standin: Mapped[str | None] = mapped_column(String(BOT_LEVEL_LENGTH), nullable=True)
    """The level of the computer player that plays for a person who is away."""
    ended_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat whose person left, when the others chose to end the match then."""
    abandoned: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Every person had left when the match ended: the stand-ins played it to its end, and
    it counts for nobody."""
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A rated table: no hints, no undo, no chosen seed; its match moves the ratings."""
    seats: Mapped[list[TableSeatRow]] = relationship(
        back_populates="table", cascade="all", order_by="TableSeatRow.seat")
    actions: Mapped[list[ActionRow]] = relationship(
        back_populates="table", cascade="all", order_by="ActionRow.seq")


class TableSeatRow(Base):
    __tablename__ = "table_seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    """(wider than :data:`~rummykit.limits.NAME_LENGTH`, as stored since the first
    schema: a longer name is refused before it is stored)"""
    kind: Mapped[str] = mapped_column(String(10))
    """``person`` or ``bot``."""
    level: Mapped[str | None] = mapped_column(String(BOT_LEVEL_LENGTH), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """No longer written (tokens are kept hashed, in ``token_hash``); older rows' tokens
    were hashed by migration 0004."""
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of the seat's token (hex): a person's seat only."""
    joined: Mapped[bool] = mapped_column(Boolean)
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The SHA-256 of the key of the browser that claimed the seat (None: unclaimed)."""
    away: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Its person handed the seat to the table's computer player and left."""
    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionRow(Base):
    """One action played at a table, in order: the game is rebuilt from these."""

    __tablename__ = "table_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(120))
    table: Mapped[TableRow] = relationship(back_populates="actions")

    __table_args__ = (UniqueConstraint("table_id", "seq"),)


class RatingRow(Base):
    """One rating (:mod:`rummykit.ratings`): a person's (by browser key, or by name in
    the terminal) or a bot level's, in one preset and player-count group."""

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(primary_key=True)
    subject: Mapped[str] = mapped_column(String(100))
    """``key:<hashed browser key>``, ``name:<name>`` (terminal) or ``bot:<level>``."""
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(80))
    """The name the subject last played under (a bot: its level)."""
    preset: Mapped[str] = mapped_column(String(40))
    grp: Mapped[str] = mapped_column(String(4))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("subject", "preset", "grp"),
                      Index("ix_ratings_board", "preset", "grp", "kind"))


class RatingChangeRow(Base):
    """What one rated match did to one seat's rating: the history of a rating, and the
    mark that the match was rated (once: one row per game and seat)."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    subject: Mapped[str] = mapped_column(String(100), index=True)
    preset: Mapped[str] = mapped_column(String(40))
    grp: Mapped[str] = mapped_column(String(4))
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    shown_before: Mapped[int] = mapped_column(Integer)
    shown_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("game_id", "seat"),)


class BoardNameRow(Base):
    """A person's choice for the leaderboard: the name shown there, or hidden from it."""

    __tablename__ = "board_names"

    subject: Mapped[str] = mapped_column(String(100), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    hidden: Mapped[bool] = mapped_column(Boolean)


class ReviewRow(Base):
    """A finished game review (:mod:`rummykit.analysis`), kept so that opening it again
    is instant. Its id is worked out from the record and the search's budget: the same
    record reviewed with the same budget is the same review, whoever asks."""

    __tablename__ = "reviews"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rules: Mapped[str] = mapped_column(String(RULES_LENGTH))
    budget: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    """The table whose match it reviews (None: an uploaded record)."""
    result: Mapped[str] = mapped_column(Text)
    """The review's JSON (:meth:`rummykit.analysis.Review.to_json`)."""


class ReviewJobRow(Base):
    """A review waiting or running in one of the server's processes, as the others see
    it: its state, written again every few seconds by the process that runs it (one not
    written for a while is of a process that is gone, and is taken over). The row goes
    when the review is stored in ``reviews``."""

    __tablename__ = "review_jobs"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    status: Mapped[str] = mapped_column(String(10))
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewSeatRow(Base):
    """One seat of a reviewed table's match, as the statistics count it (the player as
    in ``seats``: a person's name and key, a bot's level), for the accuracy column."""

    __tablename__ = "review_seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    review_id: Mapped[str] = mapped_column(ForeignKey("reviews.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(80), index=True)
    player_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    kind: Mapped[str] = mapped_column(String(10))
    preset: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    decisions: Mapped[int] = mapped_column(Integer)
    accuracy: Mapped[float] = mapped_column(Float)
    points_lost: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("review_id", "seat"),)
