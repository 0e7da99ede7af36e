"""A program at a server's table (``rummykit bot``, :mod:`rummykit.remote`): it plays whole
matches over the live protocol, hears exactly the engine's view of its seat and nothing
more, comes back after a lost connection, and says clearly why a seat is refused.

The server is ``rummykit serve`` in a subprocess; the programs run in threads of the test.
What a program heard is checked against the engine: the match replayed here from the
table's record (its seed and actions), and the engine's own view of the seat at each
position.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummykit import record as records
from rummykit import remote
from rummykit.bots import make_bot
from rummykit.cards import CARDS
from rummykit.engine import Match
from rummykit.engine.views import View, view
from rummykit.remote import LinkError, Outcome, RemoteError, parse_link, play_at
from rummykit.rules import PRESETS

from ._support import bot, card_words, person, served

pytestmark = pytest.mark.timeout(240)

OPTIONS = ("--bot-delay", "0.01", "--allow-seed", "--tables-per-client", "1000")


def new_table(port: int, seats: list[dict[str, Any]], rules: str = "classic",
              seed: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"rules": rules, "seats": seats}
    if seed is not None:
        body["seed"] = seed
    answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def link_of(port: int, table: dict[str, Any], seat: int) -> str:
    return f"http://127.0.0.1:{port}{table['seats'][seat]['link']}"


def record_of(port: int, table_id: str) -> records.Record:
    answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/record", timeout=10)
    assert answer.status_code == 200, answer.text
    return records.loads(answer.content)


class Heard:
    """A connection opener that keeps every message the program heard."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def __call__(self, url: str) -> AbstractContextManager[Any]:
        from websockets.sync.client import connect

        return self._wrapped(connect(url, open_timeout=10, max_size=2**22))

    @contextmanager
    def _wrapped(self, opened: Any) -> Iterator[Any]:
        messages = self.messages

        class Tapped:
            def send(self, message: str) -> None:
                opened.send(message)

            def __iter__(self) -> Iterator[str | bytes]:
                for raw in opened:
                    messages.append(json.loads(raw))
                    yield raw

        with opened:
            yield Tapped()


def in_thread(run: Callable[[], Outcome]) -> Callable[[], Outcome]:
    """Start ``run`` in a thread; a function that waits for its outcome (or error)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["outcome"] = run()
        except BaseException as error:  # handed to the test's thread
            box["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def result() -> Outcome:
        thread.join(180)
        assert not thread.is_alive(), "the program did not finish the match"
        if "error" in box:
            raise box["error"]
        outcome: Outcome = box["outcome"]
        return outcome

    return result


def replayed(rec: records.Record) -> Iterator[Match]:
    """The match at every position of the record, from the first (the same object, moved
    on one action at a time)."""
    assert rec.seed is not None
    match = Match(rec.rules, players=rec.players, seed=rec.seed)
    yield match
    for deal in rec.deals:
        for text in deal.actions:
            match.apply(text)
            yield match


# -- the link ------------------------------------------------------------------------


def test_a_seat_link_is_read_and_anything_else_is_refused_in_words() -> None:
    link = parse_link("https://rummy.example:8443/t/ab12cd?token=T0k-en_")
    assert (link.socket, link.table, link.token, link.seat) == (
        "wss://rummy.example:8443/ws/ab12cd", "ab12cd", "T0k-en_", None)
    assert parse_link("http://h/t/x?seat=2").seat == 2
    for bad, words in [("nonsense", r"not an http\(s\) link"),
                       ("ftp://h/t/x?token=a", r"not an http\(s\) link"),
                       ("http://h/replay?token=a", "does not open a table"),
                       ("http://h/t/x", "names no seat"),
                       ("http://h/t/x?seat=two", "the seat is a number")]:
        with pytest.raises(LinkError, match=words):
            parse_link(bad)
    with pytest.raises(LinkError, match="key that claimed"):
        play_at("http://h/t/x?seat=1", make_bot("random"))


# -- whole matches -------------------------------------------------------------------


def test_two_programs_play_a_whole_match_and_hear_only_their_own_seat(
        tmp_path: Path) -> None:
    """Two programs (expert and greedy) at the two seats of a classic table play the whole
    match. Every view each heard is the engine's view of its seat at that position
    (``View.to_json(full=True)``, from the match replayed from the table's record): the
    only door to the game. No card another seat holds unseen is in any of it but the
    seat's list of cards it cannot place (``knowledge.hidden``), which names every such
    card, where it is not."""
    with served(tmp_path, *OPTIONS) as port:
        table = new_table(port, [person("Ann"), person("Bob")], seed=11)
        heard = [Heard(), Heard()]
        runs = [in_thread(lambda s=s, level=level: play_at(
            link_of(port, table, s), make_bot(level), rng=random.Random(s), connect=heard[s]))
            for s, level in ((0, "expert"), (1, "greedy"))]
        outcomes = [run() for run in runs]
        rec = record_of(port, table["id"])
    assert rec.rules.decks == 1 and rec.rules.jokers == 0
    views = [[m for m in tap.messages if m["type"] == "view"] for tap in heard]
    assert all(len(seen) > 20 for seen in views)
    checked = seq = 0
    deal_number, face_up = 0, set()
    for seq, game in enumerate(replayed(rec)):
        if game.deal_number != deal_number:
            deal_number, face_up = game.deal_number, set()
        # Every card face up at some moment of the deal (the pile, the table): worked out
        # here from the replayed game, not from what the program heard.
        face_up |= {str(CARDS[c]) for c in game.deal.pile}
        face_up |= {str(CARDS[c]) for m in game.deal.table for c in m.cards}
        for seat in range(2):
            for message in (m for m in views[seat] if m["table"]["seq"] == seq):
                check_heard(message, game, seat, face_up)
                checked += 1
    assert checked == len(views[0]) + len(views[1])
    assert game.is_over
    for seat, outcome in enumerate(outcomes):
        assert outcome.seat == seat and outcome.refused == []
        assert outcome.totals == tuple(game.totals) and outcome.winner == game.winner
        assert outcome.deals == len(rec.deals)
    assert outcomes[0].moves + outcomes[1].moves == seq


def check_heard(message: dict[str, Any], game: Match, seat: int, face_up: set[str]) -> None:
    """``message``, a view ``seat`` heard at ``game``'s position, is the engine's full view
    of the seat, and names no card the seat cannot know but in its list of them: no card
    that was never face up and is in another hand or the stock."""
    expected = view(game, seat).to_json(full=True)
    expected["history_length"] = game.deal.move_count
    assert message["view"] == expected
    assert View.from_json(message["view"]) == view(game, seat)
    deal = game.deal
    if deal.is_over:
        return
    assert message["view"]["revealed_hands"] is None
    others = [s for s in range(deal.players) if s != seat]
    never_seen = {str(CARDS[c]) for s in others for c in deal.hands[s]}
    never_seen |= {str(CARDS[c]) for c in deal.stock}
    never_seen -= face_up
    knowledge = message["view"]["knowledge"]
    placed = {c for cards in knowledge["known"] for c in cards}
    placed |= {c for c in knowledge["stock"] if c is not None}
    assert placed <= face_up  # what the seat knows where it is, it saw
    assert never_seen <= {c for group in knowledge["hidden"] for c in group["cards"]}
    assert card_words({k: v for k, v in message["view"].items()
                       if k not in ("knowledge", "last_deal")}).isdisjoint(never_seen)
    # One deck: a card's name is the card. What the seat cannot know: the cards of other
    # hands that nobody saw them take, and the stock's unseen places.
    secret = {str(CARDS[c]) for s in others for c in deal.hands[s]}
    secret -= {c for s in others for c in knowledge["known"][s]}
    stock = [str(CARDS[c]) for c in reversed(deal.stock)]  # top first
    secret |= {c for c, place in zip(stock, knowledge["stock"], strict=True) if place is None}
    # They are all in the seat's list of cards it cannot place, which names nothing else;
    # and nowhere else in what it heard of this deal.
    assert {c for group in knowledge["hidden"] for c in group["cards"]} == secret
    rest = {k: v for k, v in message["view"].items() if k not in ("knowledge", "last_deal")}
    assert card_words(rest).isdisjoint(secret)
    if deal.move_count:  # (before the first move, the last line is the last deal's)
        assert card_words(message["table"]).isdisjoint(secret)


# -- what the program does with each message (a socket of the test's own) ---------------


class Recorder:
    """A socket that keeps what the program sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: str) -> None:
        self.sent.append(json.loads(message))

    def __iter__(self) -> Iterator[str]:
        return iter(())


def view_message(match: Match, seat: int, **table: Any) -> dict[str, Any]:
    facts = {"seq": match.deal.move_count, "status": "playing", "reading": [], "left": [],
             "votes": {}, "ended_by": None, **table}
    return {"type": "view", "table": facts, "view": view(match, seat).to_json(full=True)}


def at_once(monkeypatch: pytest.MonkeyPatch) -> tuple[Match, int, remote._Player, Recorder]:
    """A match, its seat to move, a program for it that sends without waiting, a socket."""
    monkeypatch.setattr(remote, "RATE_WAIT", 0.0)
    monkeypatch.setattr(remote, "GAP", 0.0)
    match = Match(PRESETS["classic"], players=2, seed=1)
    player = remote._Player(make_bot("expert"), random.Random(1), lambda _: None)
    return match, match.deal.to_move, player, Recorder()


def test_the_program_acts_once_a_position_and_stops_when_a_vote_ends_the_match(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match, seat, player, ws = at_once(monkeypatch)
    assert not player.heard(ws, view_message(match, seat))
    assert not player.heard(ws, view_message(match, seat))  # the same position again
    assert [m["type"] for m in ws.sent] == ["action"]
    # Someone left; the program votes to play on, once.
    assert not player.heard(ws, view_message(match, seat, left=[1 - seat]))
    assert not player.heard(ws, view_message(match, seat, left=[1 - seat]))
    assert ws.sent[-1] == {"type": "vote", "end": False} and len(ws.sent) == 2
    # The others voted to end it: the match is over though its last deal is not.
    assert player.heard(ws, view_message(match, seat, status="finished", ended_by=1 - seat))
    assert player.outcome.over and player.outcome.ended_by == 1 - seat


def test_a_refused_move_is_tried_again_and_one_refused_again_and_again_ends_the_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match, seat, player, ws = at_once(monkeypatch)
    refusal = {"type": "error", "message": "not now", "code": "illegal"}
    for attempt in range(remote.REFUSALS):
        assert not player.heard(ws, view_message(match, seat))
        assert ws.sent[-1]["type"] == "action"
        if attempt < remote.REFUSALS - 1:
            assert not player.heard(ws, refusal)
            assert ws.sent[-1] == {"type": "sync"}
    with pytest.raises(RemoteError, match=f"refused the bot's move {remote.REFUSALS} times"):
        player.heard(ws, refusal)
    assert player.outcome.refused == ["not now"] * remote.REFUSALS
    # A refused vote is not a refused move; a message that is not the protocol's ends the
    # play in words.
    other = remote._Player(make_bot("expert"), random.Random(1), lambda _: None)
    other.heard(ws, view_message(match, 1 - seat, left=[seat]))
    other.heard(ws, {"type": "error", "message": "too late", "code": "no-vote"})
    assert other.outcome.errors == ["too late"] and other.outcome.refused == []
    with pytest.raises(RemoteError, match="could not take"):
        remote._heard(other, ws, '{"type": "view", "table": {}}')
    with pytest.raises(RemoteError, match="could not take"):
        remote._heard(other, ws, "not json")


@pytest.mark.long
def test_a_lost_connection_is_opened_again_and_the_match_goes_on(tmp_path: Path) -> None:
    """The server stops mid-match and starts again on the same port: the program comes
    back to its seat (the same key) and plays the match to its end."""
    port = free_port()
    slow = ("--bot-delay", "0.3", *OPTIONS[2:])  # (the match lasts past the restart)
    with served(tmp_path, *slow, port=port):
        table = new_table(port, [person("Ann"), bot("Bea", "expert")], seed=5)
        said: list[str] = []
        heard = Heard()
        run = in_thread(lambda: play_at(link_of(port, table, 0), make_bot("greedy"),
                                        rng=random.Random(2), say=said.append, connect=heard))
        deadline = time.monotonic() + 60
        while not any(m["type"] == "view" and m["table"]["seq"] >= 6 for m in heard.messages):
            assert time.monotonic() < deadline, "the match did not start"
            time.sleep(0.05)
    with served(tmp_path, *OPTIONS, port=port):
        outcome = run()
        rec = record_of(port, table["id"])
    assert outcome.reconnects >= 1
    assert any(line.startswith("connection lost") for line in said)
    *_, game = replayed(rec)
    assert game.is_over and outcome.totals == tuple(game.totals)
    assert outcome.winner == game.winner and outcome.refused == []


def test_a_refused_seat_says_why(tmp_path: Path) -> None:
    """A wrong token, a table that is not there, a seat another key claimed, no server:
    each ends the play with the reason (nothing is played)."""
    with served(tmp_path, *OPTIONS) as port:
        table = new_table(port, [person("Ann"), bot("Bea")])
        base = f"http://127.0.0.1:{port}/t/{table['id']}"
        with pytest.raises(RemoteError, match="does not open a seat at this table"):
            play_at(f"{base}?token=not-the-token", make_bot("random"))
        with pytest.raises(RemoteError, match="no such table"):
            play_at(f"http://127.0.0.1:{port}/t/nosuchtable?token=x", make_bot("random"))
        # The seat is claimed by a program's key: another key cannot open it.
        first = in_thread(lambda: play_at(link_of(port, table, 0), make_bot("greedy"),
                                          key="k" * 30))
        assert first().over
        with pytest.raises(RemoteError, match="belongs to the browser that opened its link first"):
            play_at(link_of(port, table, 0), make_bot("random"), key="z" * 30)
    with pytest.raises(RemoteError, match="could not open the seat"):
        play_at(f"http://127.0.0.1:{free_port()}/t/x?token=y", make_bot("random"))


def test_the_command_plays_a_match_and_refuses_bad_input(tmp_path: Path) -> None:
    """``rummykit bot LINK``: plays the seat's match and prints its outcome; a claimed seat
    exits 1 with the server's reason, bad input exits 2 with what is wrong."""
    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rummykit.cli", "bot", *args],
                              capture_output=True, text=True, timeout=120)

    with served(tmp_path, *OPTIONS) as port:
        table = new_table(port, [bot("Bea", "greedy"), person("Ann")], rules="one-deal")
        done = command(link_of(port, table, 1), "--bot", "expert", "--seed", "3", "--json")
        assert done.returncode == 0, done.stderr
        outcome = json.loads(done.stdout)
        assert outcome["seat"] == 1 and outcome["deals"] == 1 and outcome["moves"] > 0
        rec = record_of(port, table["id"])
        assert rec.result is not None and outcome["totals"] == rec.result["totals"]
        again = command(link_of(port, table, 1), "--bot", "expert")
        assert again.returncode == 1, again.stderr
        assert "belongs to the browser that opened its link first" in again.stderr
        for args, words in [(("nonsense",), "not an http(s) link"),
                            ((link_of(port, table, 1), "--bot", "wizard"), "unknown bot"),
                            ((link_of(port, table, 1), "--bot", "master(think=-1)"),
                             "think")]:
            bad = command(*args)
            assert bad.returncode == 2 and words in bad.stderr, bad.stderr
            assert "Traceback" not in bad.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.long
def test_ctrl_c_hands_the_seat_to_the_stand_in_and_the_match_goes_on(tmp_path: Path) -> None:
    """Ctrl-C stops ``rummykit bot`` (exit 130) and hands its seat to the table's stand-in,
    as a person's leave does: the server's bot does not wait for it, and the match ends."""
    import signal

    slow = ("--bot-delay", "0.2", *OPTIONS[2:])
    with served(tmp_path, *slow) as port:
        table = new_table(port, [person("Ann"), bot("Bea", "greedy")])
        proc = subprocess.Popen(
            [sys.executable, "-m", "rummykit.cli", "bot", link_of(port, table, 0), "--bot",
             "greedy", "--key", "k" * 30], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        try:
            deadline = time.monotonic() + 60
            key = {"X-Rummykit-Key": "k" * 30}
            url = f"http://127.0.0.1:{port}/api/tables/{table['id']}?seat=0"
            def played() -> int:  # (refused until the program has claimed the seat)
                answer = httpx.get(url, headers=key, timeout=5)
                return int(answer.json()["table"]["seq"]) if answer.status_code == 200 else 0

            while played() < 4:
                assert time.monotonic() < deadline, "the program did not play"
                time.sleep(0.1)
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
        assert proc.returncode == 130, err
        assert "handed to the table's stand-in" in err and "Traceback" not in err
        deadline = time.monotonic() + 120
        while True:  # the stand-in plays the seat to the match's end
            answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table['id']}/record",
                               timeout=5)
            if answer.status_code == 200:
                break
            assert time.monotonic() < deadline, "the match did not go on without the program"
            time.sleep(0.2)
