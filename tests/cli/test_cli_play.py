"""``rummykit play``: the terminal game, driven through its input.

The person is seat 0; random bots take the other seats. The game shows the sorted hand,
the numbered melds, the pile and the scores; it takes actions in the record notation,
refuses an illegal one with the rule's reason, lists the legal actions on ``?``, never
shows another seat's hand before the deal ends, and ``quit`` with ``--save`` writes a
record that ``rummykit replay`` accepts.

Most tests call :func:`rummykit.cli.play` directly with a scripted input that reads the
game's output so far (so it can answer what it is shown); a few run the command.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rummykit import record
from rummykit.bots import hints as hint_module
from rummykit.cards import CARDS, Card
from rummykit.cli import play
from rummykit.engine import Deal

CARD_NAMES = {str(c) for c in CARDS}
SUMMARY = re.compile(r"^(?:> )?Deal (\d+)(: .* go(?:es)? out| ends with no one out)",
                     re.MULTILINE)


class Scripted(io.TextIOBase):
    """An input whose next line is chosen by ``answer(output so far)``; None ends it."""

    def __init__(self, out: io.StringIO, answer: Callable[[str], str | None]) -> None:
        self.out = out
        self.answer = answer
        self.lines: list[str] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = self.answer(self.out.getvalue())
        if line is None:
            return ""
        self.lines.append(line)
        return line + "\n"


class Player:
    """Asks '?' at each prompt, then plays one of the legal actions listed (a meld or
    lay-off three times in four when there is one); ``stop(output)``, asked after the '?',
    says when to quit instead."""

    def __init__(self, seed: int, stop: Callable[[str], bool]) -> None:
        self.rng = random.Random(seed)
        self.stop = stop
        self.asked = False
        self.prompts = 0

    def __call__(self, output: str) -> str | None:
        self.prompts += 1
        assert self.prompts < 20_000, "the game does not end"
        if not self.asked:
            self.asked = True
            return "?"
        self.asked = False
        if self.stop(output):
            return "quit"
        legal = last_line(output, "Legal: ")[len("Legal: "):].split(" | ")
        lays = [a for a in legal if a.startswith(("meld", "layoff"))]
        pool = lays if lays and self.rng.random() < 0.75 else legal
        return pool[self.rng.randrange(len(pool))]


def last_line(output: str, prefix: str) -> str:
    """The last line starting with ``prefix`` (after the prompt '> ' it may follow)."""
    lines = [line.removeprefix("> ") for line in output.splitlines()]
    lines = [line for line in lines if line.startswith(prefix)]
    assert lines, f"no line starting with {prefix!r}"
    return lines[-1]


def run_play(
    answer: Callable[[str], str | None], *, rules: str = "basic", players: int = 2,
    seed: int = 5, save: Path | None = None,
) -> tuple[int, str, Scripted]:
    out = io.StringIO()
    stdin = Scripted(out, answer)
    code = play(rules, players, seed, "You", "random", None if save is None else str(save),
                stdin, out)
    return code, out.getvalue(), stdin


def last_board(output: str) -> list[str]:
    """The lines of the last board shown (from its 'Deal N:' line to the prompt)."""
    lines = output.splitlines()
    start = max(i for i, line in enumerate(lines) if re.match(r"^Deal \d+: You ", line))
    return lines[start:]


def cards_in(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split() if w in CARD_NAMES]


def replayed_deal(path: Path) -> Deal:
    outcome = record.replay(record.load(path))
    assert outcome.mid_deal
    return outcome.match.deal


# -- what the board shows --------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("basic", 2, 5), ("classic", 3, 8), ("rummy500", 2, 3), ("ramino", 3, 1),
])
def test_board_shows_hand_melds_pile_and_scores(
    rules: str, players: int, seed: int, tmp_path: Path
) -> None:
    """Play until two melds are on the table, quit, and compare the last board with the
    position the saved record replays to."""
    save = tmp_path / "game.json"

    def two_melds(output: str) -> bool:
        board = last_board(output)
        return sum(1 for line in board if line.startswith("  meld ")) >= 2

    code, output, _ = run_play(Player(seed, two_melds), rules=rules, players=players,
                               seed=seed, save=save)
    assert code == 0
    assert "Game stopped before its end." in output
    assert f"Record saved to {save}" in output
    deal = replayed_deal(save)
    assert deal.to_move == 0
    board = last_board(output)
    # Scores and hand sizes: "Deal 1: You 0 (10 cards), Random 1 0 (10 cards)".
    totals = record.replay(record.load(save)).match.totals
    names = ["You"] + [f"Random {i}" for i in range(1, players)]
    assert board[0] == f"Deal {deal.index + 1}: " + ", ".join(
        f"{n} {t} ({len(h)} cards)" for n, t, h in zip(names, totals, deal.hands, strict=True))
    # The melds, numbered from 1 in the order they reached the table.
    meld_lines = [line for line in board if line.startswith("  meld ")]
    assert len(meld_lines) == len(deal.table) >= 2
    for number, (line, meld) in enumerate(zip(meld_lines, deal.table, strict=True), 1):
        assert line.startswith(f"  meld {number}: ")
        shown = line.split(": ", 1)[1].split("   by ")[0]
        assert cards_in(shown) == [CARDS[c] for c in meld.cards]
        assert line.endswith(f"by {names[meld.owner]}")
    # The stock count and the pile as the rules expose it.
    stock_line = next(line for line in board if line.startswith("  stock "))
    pile_shown = cards_in(stock_line.split("pile ", 1)[1])
    visible = deal.pile if deal.rules.draw_pile == "any" else deal.pile[-1:]
    assert pile_shown == [CARDS[c] for c in visible]
    assert stock_line.startswith(f"  stock {len(deal.stock)}, ")
    # The hand, sorted.
    hand_line = next(line for line in board if line.startswith("Your hand: "))
    hand = cards_in(hand_line[len("Your hand: "):])
    assert hand == sorted(hand)
    assert hand == sorted(CARDS[c] for c in deal.hands[0])
    # '?' listed exactly the legal actions of that position.
    legal = last_line(output, "Legal: ")[len("Legal: "):].split(" | ")
    assert legal == [str(a) for a in deal.legal_actions()]


def test_question_mark_lists_the_legal_draws() -> None:
    answers = iter(["?", "quit"])
    code, output, _ = run_play(lambda _: next(answers), rules="classic", players=2, seed=4)
    assert code == 0
    assert "Legal: draw stock | draw pile" in output
    assert "Draw: 'draw stock' or 'draw pile'." in output


def test_hint_gives_a_legal_move_with_its_reason_and_plays_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``hint`` (or ``h``) in the line interface: the master's move for this position, one
    of the legal actions, with its reason; asked twice, the same; nothing is played. (The
    time cap is lifted: on a slow machine it could cut one search short of the other.)"""
    monkeypatch.setattr(hint_module, "THINK", 60.0)
    answers = iter(["hint", "h", "?", "quit"])
    code, output, _ = run_play(lambda _: next(answers), rules="classic", players=2, seed=4)
    assert code == 0
    hints = [m.group(1) for m in re.finditer(r"^(?:> )?Hint: (.*)$", output, re.MULTILINE)]
    assert len(hints) == 2 and hints[0] == hints[1]
    legal = last_line(output, "Legal: ")[len("Legal: "):].split(" | ")
    said = {"draw from the stock": "draw stock", "take the": "draw pile"}
    assert any(hints[0].startswith(words) and action in legal for words, action in said.items())
    assert ": " in hints[0]  # the move, then why


def test_actions_in_notation_and_refusals_with_the_reason(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = iter(["discard 2C", "fly away", "meld", "DRAW stock", "draw stock", "?"])
    chosen: list[str] = []

    def answer(output: str) -> str | None:
        line = next(script, None)
        if line is None and not chosen:
            # Discard the lowest card shown, in lower case notation.
            hand = cards_in(last_line(output, "Your hand: ")[len("Your hand: "):])
            chosen.append(str(hand[0]))
            return f"discard {str(hand[0]).lower()}"
        return "quit" if line is None else line

    code, output, _ = run_play(answer, rules="basic", players=2, seed=6, save=save)
    assert code == 0
    refusals = [line for line in output.splitlines() if "Not allowed: " in line]
    assert refusals[0].endswith("Not allowed: you must draw first: 'draw stock' or "
                                "'draw pile'")
    assert "unknown action 'fly'" in refusals[1]
    assert "name the cards of the meld" in refusals[2]
    # 'DRAW stock' is the notation (the verb case-insensitive): accepted; then a second
    # draw is refused, naming the rule.
    assert "you have drawn already this turn" in refusals[3]
    assert len(refusals) == 4
    history = [str(a) for a in replayed_deal(save).history]
    assert history.count("draw stock") >= 1
    assert f"discard {chosen[0]}" in history
    # The bot played after the discard: the record goes on past it.
    assert history.index(f"discard {chosen[0]}") < len(history) - 1


@pytest.mark.parametrize("seed", [8, 10, 12])
def test_never_shows_another_hand_before_the_deal_ends(seed: int, tmp_path: Path) -> None:
    """Play one whole deal; every card of a bot's hand at the end (shown in the deal
    summary) that nobody ever saw must not appear in the output before the summary."""
    save = tmp_path / "game.json"

    def deal_over(output: str) -> bool:
        return SUMMARY.search(output) is not None

    code, output, _ = run_play(Player(seed, deal_over), rules="basic", players=3, seed=seed,
                               save=save)
    assert code == 0
    match = SUMMARY.search(output)
    assert match is not None
    before = output[: match.start()]
    rec = record.load(save)
    replayed = record.replay(rec).match
    deal = replayed.finished[0]
    seen: set[int] = set(deal.layout.pile)
    for action in deal.history:
        seen.update(action.cards)
    # Every card seat 0 ever held in this deal, replaying the deal action by action.
    mine: set[int] = set(deal.layout.hands[0])
    probe = Deal(deal.rules, players=deal.players, dealer=deal.dealer, layout=deal.layout,
                 seed=deal.seed)
    for action in deal.history:
        probe.apply(action)
        mine.update(probe.hands[0])
    secret = {c for seat in (1, 2) for c in deal.hands[seat]} - seen - mine
    assert secret, "the test needs bots that end the deal holding cards nobody saw"
    named = set(cards_in(before.replace(",", " ")))
    assert not named & {CARDS[c] for c in secret}
    # After the summary, the hands are shown.
    after = output[match.start():]
    for seat, name in ((1, "Random 1"), (2, "Random 2")):
        line = next(line for line in after.splitlines() if line.startswith(f"  {name}: "))
        assert cards_in(line.split(": ", 1)[1]) == sorted(CARDS[c] for c in deal.hands[seat])


def test_bad_meld_number_is_refused_not_a_crash() -> None:
    answers = iter(["layoff 8H ²", "quit"])
    code, output, _ = run_play(lambda _: next(answers), rules="basic", players=2, seed=4)
    assert code == 0
    assert "Not allowed: " in output


def test_a_whole_match_is_played_to_its_end(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, output, _ = run_play(Player(2, lambda _: False), rules="one-deal", players=2,
                               seed=2, save=save)
    assert code == 0
    assert "Match over." in output
    assert "Winner: " in output or "No single winner." in output
    outcome = record.replay(record.load(save))
    assert outcome.match.is_over and not outcome.mid_deal
    winner = outcome.match.winner
    if winner is not None:
        assert f"Winner: {['You', 'Random 1'][winner]}" in output


def test_the_match_end_offers_its_review(tmp_path: Path) -> None:
    """At the end the person is asked; "y" reviews their own decisions and shows where
    the points went, in lines; anything else (here the end of input) ends the game."""
    player = Player(2, lambda _: False)

    def answer(output: str) -> str | None:
        if output.rstrip().splitlines()[-2].startswith("Review this match?"):
            return "y"
        return player(output)

    out = io.StringIO()
    code = play("one-deal", 2, 2, "You", "random", None, Scripted(out, answer), out,
                review_budget=4)
    output = out.getvalue()
    assert code == 0
    assert "Match over." in output
    review = output[output.index("Review this match?"):]
    assert "Reviewing: 0 of " in review
    assert "Review of one-deal: " in review
    assert re.search(r"You: accuracy \d+, [\d.]+ points lost a decision", review)
    assert "Random 1:" not in review  # the person's decisions only
    # Declined (end of input): the game ends as before.
    code, output, _ = run_play(Player(2, lambda _: False), rules="one-deal", players=2,
                               seed=2)
    assert code == 0 and "Review this match?" in output and "Review of" not in output


def test_end_of_input_stops_the_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, output, _ = run_play(lambda _: None, rules="classic", players=4, seed=3, save=save)
    assert code == 0
    assert "Game stopped before its end." in output
    deal = replayed_deal(save)
    assert deal.to_move == 0 and deal.phase == "draw"


def test_ctrl_c_stops_the_game_and_keeps_the_record(tmp_path: Path) -> None:
    """Ctrl-C at the prompt (the terminal raises KeyboardInterrupt in the read) stops the
    game as 'quit' does, with no traceback: the record of the actions so far is saved and
    replays, the seed is told, and the exit code says it was interrupted (130)."""
    save = tmp_path / "game.json"
    asked = 0

    def answer(output: str) -> str | None:
        nonlocal asked
        asked += 1
        if asked == 1:
            return "draw stock"
        if asked == 2:  # the first card of the hand shown
            return "discard " + last_line(output, "Your hand: ").split()[2]
        raise KeyboardInterrupt

    code, output, _ = run_play(answer, rules="basic", players=2, seed=4, save=save)
    assert code == 130
    assert "Game stopped before its end." in output
    assert "(The shuffles came from seed 4.)" in output
    deal = replayed_deal(save)
    assert deal.to_move == 0 and deal.phase == "draw"  # stopped at the person's next prompt
    moves = [str(a) for _, a in deal.moves]
    assert moves[0] == "draw stock" and moves[1].startswith("discard ")


@pytest.mark.parametrize(("rules", "players"), [("nonsense", 2), ("classic(aces=up)", 2),
                                                 ("basic", 7)])
def test_cannot_start(rules: str, players: int) -> None:
    out = io.StringIO()
    code = play(rules, players, 1, "You", "random", None, io.StringIO("quit\n"), out)
    assert code == 2
    assert out.getvalue().startswith("cannot start: ")


# -- the command -------------------------------------------------------------------------


def run_command(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rummykit.cli", *args], input=text, capture_output=True,
        text=True, timeout=120, check=False,
    )


def test_command_play_quit_save_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    proc = run_command(
        ["play", "--rules", "basic", "--players", "3", "--seed", "5", "--save", str(save)],
        "?\ndiscard 2C\nfly\ndraw stock\n?\nquit\n",
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Legal: draw stock | draw pile" in out
    assert "Not allowed: you must draw first" in out
    assert "Not allowed: 'fly': unknown action 'fly'" in out
    assert "Game stopped before its end." in out
    # The hand shown is sorted.
    for line in out.splitlines():
        if line.startswith("Your hand: "):
            hand = cards_in(line[len("Your hand: "):])
            assert hand == sorted(hand)
    assert save.exists()
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["format"] == "rummy-record/1"
    assert data["deals"][0]["actions"][-1] == "draw stock"
    rep = run_command(["replay", str(save)], "")
    assert rep.returncode == 0, rep.stderr
    assert "stopped in deal 1: You to play" in rep.stdout
    rep = run_command(["replay", "--json", str(save)], "")
    assert rep.returncode == 0
    state = json.loads(rep.stdout)["state"]
    assert state["to_move"] == 0 and state["phase"] == "play"
    assert state["hand_sizes"] == [8, 7, 7]


def test_command_play_same_seed_same_game(tmp_path: Path) -> None:
    args = ["play", "--rules", "classic", "--players", "3", "--seed", "9"]
    first = run_command(args, "draw stock\n?\nquit\n")
    second = run_command(args, "draw stock\n?\nquit\n")
    assert first.returncode == second.returncode == 0

    def game(out: str) -> list[str]:  # (each run keeps its record in a file of its own)
        return [line for line in out.splitlines() if not line.startswith("Record saved to ")]

    assert game(first.stdout) == game(second.stdout)
    kept = [line for line in (first.stdout + second.stdout).splitlines()
            if line.startswith("Record saved to ")]
    assert len(kept) == 2 and kept[0] != kept[1]


def test_terminal_matches_are_rated_unless_helped_or_seeded(tmp_path: Path) -> None:
    """(Issue: ratings) A terminal match against bots, played on the server's shuffle
    without a hint, moves the person's rating (by name) and the bot level's in the local
    database; a chosen seed, a hint (said) or house rules leave the match unrated."""
    from rummykit.stats import Store

    db = f"sqlite:///{tmp_path / 'stats.db'}"

    def one(seed: int | None, hinted: bool, rules: str = "one-deal") -> str:
        player = Player(3, lambda _: False)
        asked = [not hinted]

        def answer(output: str) -> str | None:
            if output.rstrip().splitlines()[-2].startswith("Review this match?"):
                return None
            if not asked[0] and output.rstrip().endswith(">"):
                asked[0] = True
                return "hint"
            return player(output)

        out = io.StringIO()
        assert play(rules, 2, seed, "Zoe", "random", None, Scripted(out, answer), out,
                    stats_url=db) == 0
        return out.getvalue()

    output = one(None, hinted=False)
    said = last_line(output, "Match stored in the statistics.")
    assert re.search(r"Your one-deal rating: \d+ → \d+ \([+-]\d+\), provisional", said)
    store = Store(db)
    try:
        board = {line.name: line for line in store.board("one-deal", "2")}
        assert board["Zoe"].kind == "person" and board["random"].kind == "bot"
        assert board["Zoe"].matches == board["random"].matches == 1
        seeded = one(7, hinted=False)
        assert "rating" not in last_line(seeded, "Match stored in the statistics")
        hinted = one(None, hinted=True)
        assert "(With a hint this match is no longer rated.)" in hinted
        assert "rating" not in last_line(hinted, "Match stored in the statistics")
        # House rules: a rating is per preset, so the match is not rated.
        house = one(None, hinted=False, rules="one-deal(aces=high-low)")
        assert "rating" not in last_line(house, "Match stored in the statistics")
        assert {line.name: line.matches for line in store.board("one-deal", "2")} == {
            "Zoe": 1, "random": 1}
    finally:
        store.close()
