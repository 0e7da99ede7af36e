"""``rummykit play --save`` writes the record after every action (atomically), so a
Ctrl-C, a closed terminal or a crash loses nothing; ``--resume`` goes on from a record
that stops in the middle of a deal."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummykit import record
from rummykit.bots import make_bot
from rummykit.cards import CARDS
from rummykit.cli import play
from rummykit.cliutil import atomic_write
from rummykit.errors import OptionError
from rummykit.session import LocalGame

from .test_cli_play import Player, Scripted, cards_in, last_line

RUMMYKIT = Path(sys.executable).with_name("rummykit")


def test_the_record_is_written_after_every_action(tmp_path: Path) -> None:
    """At every prompt the file on disk replays to the position the person is shown."""
    save = tmp_path / "game.json"
    checked = 0
    player = Player(11, lambda output: checked >= 12)

    def answer(output: str) -> str | None:
        nonlocal checked
        if "Your hand: " in output:
            outcome = record.replay(record.load(save))
            deal = outcome.match.deal
            assert outcome.mid_deal and deal.to_move == 0
            shown = cards_in(last_line(output, "Your hand: ")[len("Your hand: "):])
            assert shown == sorted(CARDS[c] for c in deal.hands[0])
            checked += 1
        return player(output)

    out = io.StringIO()
    code = play("classic", 3, 7, "You", "greedy", str(save), Scripted(out, answer), out)
    assert code == 0
    assert checked >= 12
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left


def test_an_interrupted_write_leaves_the_old_record(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")

    def fail(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        atomic_write(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def _wait_for(stream: io.TextIOBase | None, text: str, seconds: float = 20) -> str:
    assert stream is not None
    seen = ""
    deadline = time.time() + seconds
    while text not in seen:
        assert time.time() < deadline, seen
        ch = stream.read(1)
        assert ch, seen
        seen += ch
    return seen


def test_ctrl_c_in_play_keeps_every_action(tmp_path: Path) -> None:
    """A real SIGINT to ``rummykit play`` at the prompt: exit 130, and the record holds
    every action played, the person's draw and discard included."""
    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [str(RUMMYKIT), "play", "--plain", "--rules", "basic", "--seed", "4", "--save",
         str(save), "--no-stats"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1)
    assert proc.stdin is not None
    seen = _wait_for(proc.stdout, "> ")
    proc.stdin.write("draw stock\n")
    proc.stdin.flush()
    seen += _wait_for(proc.stdout, "> ")
    hand = last_line(seen, "Your hand: ").split()[2]
    proc.stdin.write(f"discard {hand}\n")
    proc.stdin.flush()
    _wait_for(proc.stdout, "Your hand: ")
    _wait_for(proc.stdout, "> ")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert "Game stopped before its end." in out
    assert json.loads(save.read_text())["format"] == "rummy-record/1"
    deal = record.replay(record.load(save)).match.deal
    mine = [str(a) for seat, a in deal.moves if seat == 0]
    assert mine == ["draw stock", f"discard {hand}"]
    assert deal.to_move == 0 and deal.phase == "draw"  # the bot's turn is there too


def test_ctrl_c_in_play_stops_a_long_master_search_at_once(tmp_path: Path) -> None:
    """A real SIGINT while a master bot thinks for 20 seconds ends ``play --plain`` within
    a few, with the record of the actions played before the search (and no traceback)."""
    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [str(RUMMYKIT), "play", "--plain", "--rules", "basic", "--seed", "4", "--save",
         str(save), "--no-stats", "--bots", "master(think=20)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1)
    _wait_for(proc.stdout, "Type 'help'")
    time.sleep(2)  # the bot moves first: well into its search now
    assert proc.poll() is None
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 3
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert "Game stopped before its end." in out
    assert record.replay(record.load(save)).mid_deal


def test_resume_goes_on_from_the_middle_of_a_deal(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = LocalGame.start(rules="rummy500", players=3, seed=9, name="Ann",
                            bots="expert,greedy", save=str(save))
    for _ in range(30):
        if first.bot_to_move:
            first.play_bot(first.bot_choice()[1])
        else:
            first.play(first.view().legal_actions[0])
    before = first.match.deal
    assert not before.is_over
    again = LocalGame.resume(str(save), bots=None, save=None)
    assert again.save == save
    assert again.levels == ["expert", "greedy"]  # read from the seats' names
    assert again.names == ["Ann", "Expert 1", "Greedy 2"]
    deal = again.match.deal
    assert [str(a) for a in deal.history] == [str(a) for a in before.history]
    assert deal.hands == before.hands and deal.stock == before.stock
    assert again.view() == first.view()
    # It goes on, and the record grows from where it stopped.
    while again.bot_to_move:
        again.play_bot(again.bot_choice()[1])
    again.play(again.view().legal_actions[0])
    grown = record.load(save).deals[0].actions
    assert grown[:len(before.history)] == [str(a) for a in before.history]
    assert len(grown) > len(before.history)


def test_resume_by_the_command(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "--plain", "--rules", "classic", "--seed", "3", "--no-stats"]
    first = subprocess.run([str(RUMMYKIT), *args, "--save", str(save)], text=True,
                           input="draw stock\nquit\n", capture_output=True, timeout=60)
    assert first.returncode == 0, first.stderr
    hand = last_line(first.stdout, "Your hand: ")
    other = tmp_path / "other.json"
    again = subprocess.run([str(RUMMYKIT), *args, "--resume", str(save), "--save", str(other)],
                           text=True, input="?\nquit\n", capture_output=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert f"Going on with the game saved in {save}." in again.stdout
    assert last_line(again.stdout, "Your hand: ") == hand
    assert "Meld, lay off, or discard" in again.stdout  # drawn already
    assert record.load(other).deals[0].actions == ["draw stock"]


def test_resume_refuses_what_it_cannot_go_on_with(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(OptionError, match="not a game to go on with"):
        LocalGame.resume(str(bad), bots=None, save=None)
    over = tmp_path / "over.json"
    game = LocalGame.start(rules="one-deal", players=2, seed=1, name="You", bots="greedy",
                           save=str(over))
    person = make_bot("greedy")  # plays the person's seat
    while not game.match.is_over:
        if game.bot_to_move:
            game.play_bot(game.bot_choice()[1])
        else:
            game.play(person.choose(game.view(), random.Random(0)))
    with pytest.raises(OptionError, match="that match is over"):
        LocalGame.resume(str(over), bots=None, save=None)


def test_undo_takes_back_a_meld_before_the_discard(tmp_path: Path) -> None:
    game = LocalGame.start(rules="basic", players=2, seed=1, name="You", bots="random",
                           save=str(tmp_path / "g.json"))
    assert game.undo_problem() is not None  # nothing played yet
    for _ in range(400):
        if game.match.deal.index > 0 or game.match.is_over:
            pytest.fail("no meld came up for the person")
        if game.bot_to_move:
            game.play_bot(game.bot_choice()[1])
            continue
        view = game.view()
        melds = [a for a in view.legal_actions if a.kind == "meld"]
        if melds:
            break
        draws = [a for a in view.legal_actions if a.kind == "draw-stock"]
        game.play((draws or list(view.legal_actions))[0])
    before = game.view()
    game.play(melds[0])
    assert game.undo_problem() is None
    game.undo()
    assert game.view() == before
    assert record.load(tmp_path / "g.json").deals[0].actions == [
        str(a) for _, a in before.history]
    game.play(next(a for a in before.legal_actions if a.kind == "discard"))
    assert "only a meld or lay-off" in (game.undo_problem() or "")
