"""The front ends' shared layer: one deal summary, one name length, library errors that
name options (the command line words them as its flags), and front ends that do not
import each other."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from rummykit.bots import make_bot, seat_levels
from rummykit.cliutil import flag_words
from rummykit.engine.views import view
from rummykit.errors import OptionError, shown
from rummykit.limits import NAME_LENGTH, STORED_NAME_LENGTH
from rummykit.session import LocalGame, check_name, deal_summary
from rummykit.sim import check_workers

SRC = Path(__file__).resolve().parents[2] / "src" / "rummykit"


def test_one_deal_summary_for_both_front_ends_and_it_changes_nothing() -> None:
    """The line interface prints the summary's headline; the terminal app shows the same
    headline and the same hands; asking for it twice gives the same (no counter reset)."""
    from rummykit.plain import _deal_summary

    game = LocalGame.start(rules="one-deal", players=2, seed=3, name="Ann", bots="random",
                           save=None)
    me, rng = make_bot("greedy"), random.Random(1)
    match = game.match
    while not match.is_over:
        seat = match.deal.to_move
        match.apply((me if seat == 0 else game.bots[0]).choose(view(match, seat), rng))
    first = deal_summary(match, 0)
    assert deal_summary(match, 0) == first
    lines: list[str] = []
    _deal_summary(match, 0, lines.append)
    assert lines[0] == first.headline
    assert [name for name, _, _ in first.hands] == ["Ann", match.names[1]]
    assert [p for _, p, _ in first.hands] == list(match.finished[0].result.points)  # type: ignore[union-attr]
    winner = match.finished[0].result.winner  # type: ignore[union-attr]
    if winner == 0:
        assert first.headline.startswith("Deal 1: You go out")


def test_a_name_of_the_limit_is_taken_and_shown_whole() -> None:
    check_name("N" * NAME_LENGTH)
    with pytest.raises(OptionError, match=f"1 to {NAME_LENGTH} characters") as err:
        check_name("N" * (NAME_LENGTH + 1))
    assert err.value.option == "name"
    assert shown("N" * NAME_LENGTH) == repr("N" * NAME_LENGTH)
    assert shown("N" * (NAME_LENGTH + 1)).endswith("...")


def test_the_store_keeps_names_as_wide_as_its_column() -> None:
    """The statistics keep a person's name and a bot as the command line names it: the
    limit is the database column's width, and no shorter than a person's name."""
    pytest.importorskip("sqlalchemy")
    from rummykit.db.models import SeatRow

    assert SeatRow.__table__.c.player.type.length == STORED_NAME_LENGTH  # type: ignore[attr-defined]
    assert STORED_NAME_LENGTH >= NAME_LENGTH
    assert len("master(think=0.5,rollouts=200,margin=1,width=10)") <= STORED_NAME_LENGTH


@pytest.mark.parametrize(("call", "option", "flagged"), [
    (lambda: check_name(""), "name", "--name takes a name of 1 to"),
    (lambda: seat_levels("expert,,random", 3), "bots", "--bots 'expert,,random': a bot"),
    (lambda: seat_levels("expert,random,greedy", 2), "bots", "--bots names 3 bots for 2"),
    (lambda: check_workers(0), "workers", "--workers takes 1 to 1024 processes, not 0"),
    (lambda: LocalGame.resume("/nonexistent/x.json", bots=None, save=None), "resume",
     "--resume /nonexistent/x.json: "),
])
def test_library_errors_name_the_option_and_the_command_line_its_flag(
    call: object, option: str, flagged: str
) -> None:
    with pytest.raises(OptionError) as err:
        call()  # type: ignore[operator]
    assert err.value.option == option
    assert not str(err.value).startswith("--")
    flags = {"name": "--name", "bots": "--bots", "workers": "--workers", "resume": "--resume"}
    assert flag_words(err.value, flags).startswith(flagged)


def test_no_library_error_names_a_command_line_flag() -> None:
    """Outside the command line's own modules, no string that is raised names a flag."""
    command_line = {"cli.py", "cliutil.py", "sim/cli.py"}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel in command_line or rel.startswith("server/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                for part in ast.walk(node.exc):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        assert not part.value.lstrip().startswith("--"), (rel, part.value)


def test_the_front_ends_do_not_import_each_other_nor_the_command_line() -> None:
    for path in [SRC / "plain.py", *(SRC / "tui").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert "rummykit.cli" not in names, path
        other = "rummykit.tui" if path.name == "plain.py" else "rummykit.plain"
        assert not any(n and n.startswith(other) for n in names), path
