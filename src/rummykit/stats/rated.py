"""Ratings in the statistics store: a rated game moves its players' ratings in the same
transaction that stores it, so that a crash rates a match either once or, with the game
itself, not at all; every change is kept (each rating's history), and all of them can be
worked out again from the stored games (:func:`rerate`).

Who a rating belongs to (its *subject*): a person by their browser key
(``key:<hashed key>``, as the statistics count them), a person in the terminal by name
(``name:<name>``), a bot by its level (``bot:<level>``). Two seats of one subject in one
match (two bots of the same level, most often) are each rated from the same rating; the
subject's new rating is the mean of theirs, one match more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, distinct, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rummykit.db.models import (
    BoardNameRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
)
from rummykit.ratings import GROUPS, Group, Skill, bot_start, group, ranking, rate
from rummykit.rules import Rules

__all__ = ["Against", "BoardLine", "Change", "Mine", "MyRating", "against", "board", "changes",
           "history", "mine", "rate_game", "rerate", "subject_of"]


def subject_of(seat: SeatRow) -> str:
    """Whose rating a stored seat moves."""
    if seat.kind == "bot":
        return f"bot:{seat.player}"
    if seat.player_key is not None:
        return f"key:{seat.player_key}"
    return f"name:{seat.player}"


@dataclass(frozen=True)
class Change:
    """What a rated match did to one seat's rating."""

    seat: int
    subject: str
    place: int
    before: int
    after: int
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "place": self.place, "before": self.before,
                "after": self.after, "change": self.after - self.before,
                "provisional": self.provisional}


def rate_game(session: Session, game: GameRow) -> list[Change]:
    """Rate the stored ``game`` (flushed, in ``session``'s transaction): its seats'
    ratings move by its outcome and each change is kept. Nothing for a game that is not
    rated, has no outcome (stored unfinished, and nobody left) or was rated already."""
    if not game.rated or game.unit != "match":
        return []
    seats = sorted(game.seats, key=lambda s: s.seat)
    totals = [s.total for s in seats]
    left = {int(s) for s in game.left_seats.split(",") if s}
    if (not game.finished and not left) or len(seats) < 2:
        return []  # (no outcome: the stand-ins finished it after everyone left)
    places = ranking(Rules.parse(game.rules), totals,
                     game.winner if game.finished else None, left,
                     [s.deals_played for s in seats])
    if session.scalar(select(RatingChangeRow.id).where(
            RatingChangeRow.game_id == game.id).limit(1)) is not None:
        return []
    grp = group(game.players)
    subjects = [subject_of(s) for s in seats]
    # A subject's first rating here is made first, each in a savepoint: where another
    # server process makes the same one in the same moment, its row is taken instead.
    for seat, subject in zip(seats, subjects, strict=True):
        if _rows(session, [subject], game.preset, grp, lock=False):
            continue
        start = (bot_start(game.preset, seat.player, game.players) if seat.kind == "bot"
                 else Skill())
        try:
            with session.begin_nested():
                session.add(RatingRow(subject=subject, kind=seat.kind, name=seat.player,
                                      preset=game.preset, grp=grp, mu=start.mu,
                                      sigma=start.sigma, matches=0,
                                      updated_at=game.created_at))
        except IntegrityError:
            pass
    rows = _rows(session, sorted(set(subjects)), game.preset, grp)
    before = [Skill(rows[s].mu, rows[s].sigma, rows[s].matches) for s in subjects]
    after = rate(before, places)
    merged: dict[str, list[Skill]] = {}
    for subject, skill in zip(subjects, after, strict=True):
        merged.setdefault(subject, []).append(skill)
    for subject, skills in merged.items():
        row = rows[subject]
        row.mu = sum(s.mu for s in skills) / len(skills)
        row.sigma = sum(s.sigma for s in skills) / len(skills)
        row.matches += 1
        row.updated_at = game.created_at
        row.name = next(s.player for s, sub in zip(seats, subjects, strict=True)
                        if sub == subject)
    out = []
    for seat, subject, old, place in zip(seats, subjects, before, places, strict=True):
        row = rows[subject]
        new = Skill(row.mu, row.sigma, row.matches)
        session.add(RatingChangeRow(
            game_id=game.id, seat=seat.seat, subject=subject, preset=game.preset, grp=grp,
            place=place, mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
            sigma_after=new.sigma, shown_before=old.shown, shown_after=new.shown,
            at=game.created_at))
        out.append(Change(seat.seat, subject, place, old.shown, new.shown, new.provisional))
    return out


def _rows(session: Session, subjects: Sequence[str], preset: str, grp: str, *,
          lock: bool = True) -> dict[str, RatingRow]:
    """The subjects' ratings; with ``lock``, locked until the transaction ends (another
    server process rating a match of the same players waits for this one)."""
    query = (select(RatingRow)
             .where(RatingRow.subject.in_(subjects), RatingRow.preset == preset,
                    RatingRow.grp == grp)
             .order_by(RatingRow.subject))
    if lock:
        query = query.with_for_update()
    return {row.subject: row for row in session.scalars(query)}


def rerate(session: Session) -> int:
    """Work every rating out again from the stored rated games, in the order they were
    rated; the number of games rated."""
    # The order they were rated in: the order of their first changes (with several server
    # processes, a match may be stored before another one and rated after it, waiting
    # for the other's ratings); games that moved no rating after them, as stored.
    first = {game_id: change_id for game_id, change_id in session.execute(
        select(RatingChangeRow.game_id, func.min(RatingChangeRow.id))
        .group_by(RatingChangeRow.game_id))}
    games = sorted(session.scalars(select(GameRow).where(GameRow.rated)),
                   key=lambda g: (g.id not in first, first.get(g.id, 0), g.id))
    session.execute(delete(RatingChangeRow))
    session.execute(delete(RatingRow))
    session.flush()
    count = 0
    for game in games:
        if rate_game(session, game):
            count += 1
        session.flush()
    return count


def changes(session: Session, game_id: int) -> list[Change]:
    """What the rated game ``game_id`` did to each seat's rating (empty: not rated)."""
    rows = session.scalars(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id)
                           .order_by(RatingChangeRow.seat))
    out = []
    for row in list(rows):
        played = session.scalar(select(func.count(distinct(RatingChangeRow.game_id))).where(
            RatingChangeRow.subject == row.subject, RatingChangeRow.preset == row.preset,
            RatingChangeRow.grp == row.grp, RatingChangeRow.id <= row.id))
        out.append(Change(row.seat, row.subject, row.place, row.shown_before,
                          row.shown_after, Skill(matches=int(played or 0)).provisional))
    return out


@dataclass(frozen=True)
class BoardLine:
    """One line of a leaderboard."""

    place: int
    subject: str
    kind: str
    name: str
    rating: int
    provisional: bool
    matches: int

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "kind": self.kind, "name": self.name,
                "rating": self.rating, "provisional": self.provisional,
                "matches": self.matches}


def board(session: Session, preset: str, grp: Group, *, limit: int = 100) -> list[BoardLine]:
    """The leaderboard of ``preset`` and ``grp``: people (under the name they chose, or
    the one they last played under; those who chose to be hidden are not there) and bot
    levels, the highest rating first."""
    names = {row.subject: row for row in session.scalars(select(BoardNameRow))}
    rows = session.scalars(select(RatingRow).where(RatingRow.preset == preset,
                                                   RatingRow.grp == grp))
    lines = []
    for row in rows:
        choice = names.get(row.subject)
        if choice is not None and choice.hidden:
            continue
        name = choice.name if choice is not None and choice.name else row.name
        skill = Skill(row.mu, row.sigma, row.matches)
        lines.append((skill.shown, row, name, skill))
    lines.sort(key=lambda item: (-item[0], item[1].subject))
    return [BoardLine(place, row.subject, row.kind, name, shown, skill.provisional,
                      row.matches)
            for place, (shown, row, name, skill) in enumerate(lines[:limit], 1)]


def history(session: Session, subject: str, preset: str, grp: Group
            ) -> list[tuple[datetime, int]]:
    """A rating's history: when each rated match ended and the rating after it."""
    rows = session.execute(
        select(RatingChangeRow.at, RatingChangeRow.shown_after, RatingChangeRow.game_id)
        .where(RatingChangeRow.subject == subject, RatingChangeRow.preset == preset,
               RatingChangeRow.grp == grp)
        .order_by(RatingChangeRow.id))
    seen: set[int] = set()
    out = []
    for at, shown, game_id in rows:
        if game_id in seen:
            continue
        seen.add(game_id)
        moment = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
        out.append((moment, shown))
    return out


@dataclass(frozen=True)
class Against:
    """A subject's results against one kind of opponent in its rated matches: a bot
    level, or people (``level`` None). Each opponent seat of each match is one result:
    finished ahead of it (won), behind it (lost) or level with it (tied)."""

    level: str | None
    won: int
    lost: int
    tied: int

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "won": self.won, "lost": self.lost, "tied": self.tied}


def against(session: Session, subject: str, preset: str, grp: Group) -> list[Against]:
    """``subject``'s results by opponent (people first, then the bot levels by name) in
    its rated matches of ``preset`` and ``grp``."""
    rows = session.execute(
        select(RatingChangeRow.game_id, RatingChangeRow.seat, RatingChangeRow.subject,
               RatingChangeRow.place)
        .where(RatingChangeRow.game_id.in_(
            select(RatingChangeRow.game_id).where(
                RatingChangeRow.subject == subject, RatingChangeRow.preset == preset,
                RatingChangeRow.grp == grp)))).all()
    places: dict[int, list[tuple[str, int]]] = {}
    for game_id, _, who, place in sorted(rows):
        places.setdefault(game_id, []).append((who, place))
    tally: dict[str | None, list[int]] = {}
    for seats in places.values():
        own = [place for who, place in seats if who == subject]
        for who, place in seats:
            if who == subject:
                continue
            level = who.removeprefix("bot:") if who.startswith("bot:") else None
            counts = tally.setdefault(level, [0, 0, 0])
            counts[0 if own[0] < place else 1 if own[0] > place else 2] += 1
    return [Against(level, *counts)
            for level, counts in sorted(tally.items(), key=lambda i: (i[0] is not None,
                                                                      i[0] or ""))]


@dataclass(frozen=True)
class MyRating:
    """One of a subject's ratings, with its history and its results by opponent."""

    preset: str
    group: str
    rating: int
    provisional: bool
    matches: int
    history: list[tuple[datetime, int]]
    against: list[Against]


@dataclass(frozen=True)
class Mine:
    """A subject's ratings and their choice for the leaderboard."""

    ratings: list[MyRating]
    name: str | None
    hidden: bool


def mine(engine: Engine, subject: str) -> Mine:
    """Every rating of ``subject`` (by preset, then group), each with its history."""
    with Session(engine) as session:
        rows = session.scalars(select(RatingRow).where(RatingRow.subject == subject)
                               .order_by(RatingRow.preset, RatingRow.grp)).all()
        found = []
        for row in rows:
            skill = Skill(row.mu, row.sigma, row.matches)
            grp = next(g for g in GROUPS if g == row.grp)
            found.append(MyRating(row.preset, row.grp, skill.shown, skill.provisional,
                                  row.matches, history(session, subject, row.preset, grp),
                                  against(session, subject, row.preset, grp)))
        choice = session.get(BoardNameRow, subject)
        return Mine(found, None if choice is None else choice.name,
                    choice is not None and choice.hidden)
