"""Game reviews on the server: a bounded pool, a queue, progress, and the finished ones kept.

A review (:mod:`rummykit.analysis`) takes the master's search over every decision of a
match: seconds to minutes of the processor. So the server runs at most ``at_once``
reviews together (each in a thread of its own, its decisions judged in ``jobs`` worker
processes) and queues the others, at most ``QUEUE_LIMIT``, each told its place in the
queue. A person (a browser's key) has one review waiting or running at a time. A
review's id is worked out from the record and the budget, so the same match reviewed
again, by anyone, is the same review: once done it is stored in the database
(``reviews``) and answered from there at once, after a restart too.

A review is of a finished match: a table's (whoever has the table's link may see it, as
its replay) or an uploaded record's (whoever has the record). With several server
processes, each runs its own queue, and each writes the state of its reviews waiting or
running to the database (``review_jobs``) every few seconds: a page whose next question
reaches another process is answered from there, and no process starts a review that
another one runs. A row not written for ``SHARED_STALE`` seconds is of a process that is
gone: the next to ask takes that review over. A finished review is seen by all.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rummykit import record as records
from rummykit.analysis import DEFAULT_BUDGET, Budget, ReviewError, review
from rummykit.analysis.review import Stopped
from rummykit.db.models import (
    GameRow,
    ReviewJobRow,
    ReviewRow,
    ReviewSeatRow,
    SeatRow,
    TableRow,
)
from rummykit.server.hub import HubError

__all__ = ["AT_ONCE", "QUEUE_LIMIT", "REVIEW_STEPS", "SHARED_EVERY", "SHARED_STALE", "Job",
           "Reviews", "review_id"]

log = logging.getLogger("rummykit.server")

AT_ONCE = 1
"""Reviews the server runs together by default (each uses ``jobs`` processes)."""

QUEUE_LIMIT = 50
"""Reviews that may wait for their turn; more are refused until the queue shortens."""

REVIEW_STEPS = 5000
"""The most actions a reviewed record may have (a long rummy500 match has about 1,500)."""

SHARED_EVERY = 2.0
"""Seconds between two writes of this process's reviews to ``review_jobs``."""

SHARED_STALE = 30.0
"""Seconds after which a review's row nobody wrote again is of a process that is gone."""

Status = Literal["queued", "running", "done", "failed"]


def review_id(record: records.Record, budget: Budget) -> str:
    """The review's id: the same record and budget give the same id (and review)."""
    digest = hashlib.sha256(f"{budget}\n{records.dumps(record)}".encode())
    return digest.hexdigest()[:32]


@dataclass(eq=False)
class Job:
    """One review asked for: waiting, running, done or failed."""

    id: str
    record: records.Record
    table_id: str | None
    owner: str
    """The SHA-256 of the browser key that asked (one review at a time each)."""
    status: Status = "queued"
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None


class Reviews:
    """The server's reviews (``app.state.server.reviews``)."""

    def __init__(self, engine: Engine, *, budget: Budget | str | int = DEFAULT_BUDGET,
                 at_once: int = AT_ONCE, jobs: int = 2, queue_limit: int = QUEUE_LIMIT
                 ) -> None:
        self.engine = engine
        self.budget = Budget.parse(budget)
        self.at_once = at_once
        self.jobs = jobs
        self.queue_limit = queue_limit
        self.known: dict[str, Job] = {}
        """Reviews waiting or running, and those that ended in this process (a failed
        one is kept so that its page can say why)."""
        self.waiting: deque[Job] = deque()
        self.running: set[Job] = set()
        self.stop = threading.Event()
        self.threads = ThreadPoolExecutor(max_workers=at_once,
                                          thread_name_prefix="rummykit-review")
        self._tasks: set[asyncio.Task[None]] = set()
        self._sharing: asyncio.Task[None] | None = None

    # asking

    async def ask(self, record: records.Record, key: str, table_id: str | None = None
                  ) -> dict[str, Any]:
        """Start (or join) the review of ``record`` for the browser with ``key``: its
        state (:meth:`state`). A table's review (``table_id``) counts in the statistics,
        for the players its stored game counts. Refused: a record too long, a second
        review of this person's while one waits or runs, a full queue."""
        steps = sum(len(deal.actions) for deal in record.deals)
        if steps > REVIEW_STEPS:
            raise HubError(f"that record has {steps} actions; a review takes at most "
                           f"{REVIEW_STEPS}", code="review-long",
                           params={"steps": steps, "max": REVIEW_STEPS})
        rid = review_id(record, self.budget)
        job = self.known.get(rid)
        if job is not None and job.status != "failed":
            if table_id is not None:
                job.table_id = table_id
            return self.state(job)
        stored = await asyncio.to_thread(self._load, rid)
        if stored is not None:
            if table_id is not None:  # (it may have been asked for as an upload first)
                await asyncio.to_thread(self._count, rid, table_id, stored["review"])
            return stored
        owner = hashlib.sha256(key.encode()).hexdigest()
        if any(j.owner == owner for j in (*self.waiting, *self.running)):
            raise HubError("you have a review waiting or running: one at a time", 429,
                           code="review-busy")
        if len(self.waiting) >= self.queue_limit:
            raise HubError("too many reviews are waiting: try again in a few minutes", 503,
                           code="review-queue-full")
        job = Job(rid, record, table_id, owner)
        elsewhere = await asyncio.to_thread(self._claim, job, len(self.waiting) + 1)
        if elsewhere is not None:  # another process runs it
            return elsewhere
        self.known[rid] = job
        self.waiting.append(job)
        self._next()
        self._share_soon()
        return self.state(job)

    async def get(self, rid: str) -> dict[str, Any]:
        """The state of the review ``rid``: this process's, or the stored one."""
        job = self.known.get(rid)
        if job is not None:
            return self.state(job)
        stored = await asyncio.to_thread(self._load, rid)
        if stored is None:
            stored = await asyncio.to_thread(self._shared, rid)
        if stored is None:
            raise HubError("there is no such review", 404, code="no-review")
        return stored

    def state(self, job: Job) -> dict[str, Any]:
        """What a page is told of a review: its status, progress, place in the queue
        (1: next) and, once done, the review."""
        position = 0
        if job.status == "queued":
            position = next(i for i, j in enumerate(self.waiting, 1) if j is job)
        return {"id": job.id, "status": job.status, "done": job.done, "total": job.total,
                "position": position, "budget": str(self.budget), "error": job.error,
                "review": job.result}

    # running

    def _next(self) -> None:
        while self.waiting and len(self.running) < self.at_once and not self.stop.is_set():
            job = self.waiting.popleft()
            self.running.add(job)
            job.status = "running"
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job) -> None:
        try:
            def progress(done: int, total: int) -> None:
                job.done, job.total = done, total

            done = await asyncio.get_running_loop().run_in_executor(
                self.threads, lambda: review(job.record, budget=self.budget, jobs=self.jobs,
                                             progress=progress, stop=self.stop))
            result = done.to_json()
            await asyncio.to_thread(self._store, job, result)
            job.result = result
            job.status = "done"
            log.info("review %s: %d decisions in %.1f s", job.id, len(done.decisions),
                     done.seconds)
        except Stopped:
            job.status = "failed"
            job.error = "the server stopped before the review was done"
        except ReviewError as err:
            job.status = "failed"
            job.error = str(err)
        except Exception:
            log.exception("review %s failed", job.id)
            job.status = "failed"
            job.error = "the review failed on the server"
        finally:
            self.running.discard(job)
            if job.status == "done":
                self.known.pop(job.id, None)  # (the database has it now)
            elif not self.stop.is_set():
                await asyncio.to_thread(self._write, [job])  # (failed: say why to all)
            self._next()

    async def shutdown(self) -> None:
        """Stop every review (a waiting one is dropped; a running one ends at once)."""
        self.stop.set()
        if self._sharing is not None:
            self._sharing.cancel()
        dropped = [*self.waiting, *self.running]
        self.waiting.clear()
        for task in list(self._tasks):
            await asyncio.wait([task], timeout=10)
        self.threads.shutdown(wait=False, cancel_futures=True)
        try:  # another process may take them over at once
            await asyncio.to_thread(self._release, [job.id for job in dropped])
        except Exception:
            log.exception("the reviews waiting or running could not be released")

    # shared with the other processes

    def _share_soon(self) -> None:
        if self._sharing is None or self._sharing.done():
            self._sharing = asyncio.get_running_loop().create_task(self._share())

    async def _share(self) -> None:
        """Write this process's reviews waiting or running every ``SHARED_EVERY``
        seconds, while there are any."""
        while not self.stop.is_set() and (self.waiting or self.running):
            try:
                await asyncio.to_thread(self._write, [*self.running, *self.waiting])
            except Exception:
                log.exception("the reviews' state could not be written")
            await asyncio.sleep(SHARED_EVERY)

    def _claim(self, job: Job, position: int) -> dict[str, Any] | None:
        """Take the review ``job`` for this process (None), unless another process runs
        it: then its state as that process last wrote it."""
        now = datetime.now(UTC)
        try:
            with Session(self.engine) as session, session.begin():
                row = session.get(ReviewJobRow, job.id, with_for_update=True)
                if row is not None and row.status in ("queued", "running") and \
                        (now - _aware(row.seen_at)).total_seconds() < SHARED_STALE:
                    return _row_state(row, str(self.budget))
                if row is None:
                    row = ReviewJobRow(id=job.id)
                    session.add(row)
                row.status, row.done, row.total = "queued", 0, 0
                row.position, row.error, row.seen_at = position, None, now
        except IntegrityError:  # another process took it in the same moment
            return self._shared(job.id)
        return None

    def _write(self, jobs: list[Job]) -> None:
        now = datetime.now(UTC)
        with Session(self.engine) as session, session.begin():
            for job in jobs:
                if job.status == "done" or session.get(ReviewRow, job.id) is not None:
                    continue  # (stored: its row went with it)
                row = session.get(ReviewJobRow, job.id)
                if row is None:
                    row = ReviewJobRow(id=job.id)
                    session.add(row)
                row.status, row.done, row.total = job.status, job.done, job.total
                row.position = self.state(job)["position"] if job in self.waiting else 0
                row.error = (job.error or "")[:200] or None
                row.seen_at = now

    def _release(self, ids: list[str]) -> None:
        if ids:
            with Session(self.engine) as session, session.begin():
                session.execute(delete(ReviewJobRow).where(ReviewJobRow.id.in_(ids)))

    def _shared(self, rid: str) -> dict[str, Any] | None:
        """The state of a review another process waits with or runs (or failed)."""
        with Session(self.engine) as session:
            row = session.get(ReviewJobRow, rid)
            if row is None:
                return None
            if row.status != "failed" and \
                    (datetime.now(UTC) - _aware(row.seen_at)).total_seconds() >= SHARED_STALE:
                return None  # (its process is gone: asking again starts it here)
            return _row_state(row, str(self.budget))

    # storage

    def _store(self, job: Job, result: dict[str, Any]) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(ReviewJobRow).where(ReviewJobRow.id == job.id))
            if session.get(ReviewRow, job.id) is None:
                session.add(ReviewRow(id=job.id, created_at=datetime.now(UTC),
                                      rules=str(job.record.rules), budget=str(self.budget),
                                      table_id=job.table_id,
                                      result=json.dumps(result, separators=(",", ":"))))
        if job.table_id is not None:
            self._count(job.id, job.table_id, result)

    def _count(self, rid: str, table_id: str, result: dict[str, Any]) -> None:
        """The review's seats in the statistics (once), each as the table's stored game
        counts its player (a person by name and key, a bot by level)."""
        with Session(self.engine) as session, session.begin():
            if session.scalar(select(ReviewSeatRow.id).where(
                    ReviewSeatRow.review_id == rid).limit(1)) is not None:
                return
            table = session.get(TableRow, table_id)
            if table is None or table.game_id is None:
                return
            game = {row.seat: row for row in session.scalars(
                select(SeatRow).where(SeatRow.game_id == table.game_id))}
            stored = session.get(GameRow, table.game_id)
            if stored is None:
                return
            preset, players = stored.preset, stored.players
            for report in result["seats"]:
                counted = game.get(report["seat"])
                if counted is None:
                    continue
                session.add(ReviewSeatRow(
                    review_id=rid, seat=report["seat"], player=counted.player,
                    player_key=counted.player_key, kind=counted.kind, preset=preset,
                    players=players, decisions=report["decisions"],
                    accuracy=report["accuracy"], points_lost=report["points_lost"]))

    def _load(self, rid: str) -> dict[str, Any] | None:
        with Session(self.engine) as session:
            row = session.execute(select(ReviewRow).where(ReviewRow.id == rid)).scalar()
            if row is None:
                return None
            result = json.loads(row.result)
            total = len(result.get("decisions", []))
            return {"id": rid, "status": "done", "done": total, "total": total,
                    "position": 0, "budget": row.budget, "error": None, "review": result}


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _row_state(row: ReviewJobRow, budget: str) -> dict[str, Any]:
    return {"id": row.id, "status": row.status, "done": row.done, "total": row.total,
            "position": row.position, "budget": budget, "error": row.error, "review": None}
