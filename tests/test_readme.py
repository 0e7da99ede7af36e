"""The examples of the README and of the documentation pages are run, so that they stay true.

The pages are README.md and every page of docs/ (the API reference's included), the
README first and then the pages in the order of :data:`PAGES`. Every Python block of a
page runs, in order, in one namespace for that page (a later block may use what an earlier
one of the same page made), in a scratch directory; a line ``expression  # literal`` must
give that literal. Every ``rummykit`` command of the shell blocks of every page runs in
one scratch directory, in order (the game saved by ``play`` is then replayed), with the
long runs made short (``--deals 2``, ``--matches 1``, a master that thinks for 0.01 s):
each must exit 0. ``make`` lines, ``serve`` (a server runs until it is stopped) and the
Ray cluster example (it needs a cluster) are left out.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUMMYKIT = Path(sys.executable).with_name("rummykit")
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(page.read_text(encoding="utf-8"))
            if lang == language]


def expected(line: str) -> tuple[str, Any] | None:
    """``(expression, value)`` for a line that says what it gives, else None."""
    code, sep, comment = line.partition("#")
    if not sep or not code.strip():
        return None
    try:
        ast.parse(code.strip(), mode="eval")  # an expression, not an assignment
        return code.strip(), ast.literal_eval(comment.strip())
    except (ValueError, SyntaxError):
        return None


def run_python(page: Path) -> int:
    """Run the Python blocks of ``page`` in one namespace; the number of claims checked."""
    names: dict[str, Any] = {}
    checked = 0
    for block in blocks(page, "python"):
        exec(compile(block, str(page), "exec"), names)
        for line in block.splitlines():
            claim = expected(line)
            if claim is not None:
                assert eval(claim[0], names) == claim[1], f"{page.name}: {line}"
                checked += 1
    return checked


def test_every_page_with_examples_is_run() -> None:
    with_python = {page.name for page in PAGES if blocks(page, "python")}
    assert {"README.md", "engine.md", "bots.md", "rl.md", "records.md",
            "rules.md"} <= with_python


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_python_examples_run_and_give_what_they_say(
        page: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    run_python(page)


def test_the_python_examples_say_what_they_give() -> None:
    claims = sum(1 for page in PAGES for block in blocks(page, "python")
                 for line in block.splitlines() if expected(line) is not None)
    assert claims >= 4


def commands() -> list[str]:
    out = []
    for page in PAGES:
        for block in blocks(page, "sh"):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #", 1)[0].strip()
                if (line.startswith("rummykit ") and "..." not in line
                        and not line.startswith("rummykit serve")):
                    out.append(line)
    return out


def shortened(command: str) -> list[str]:
    """The command with its long runs made short."""
    command = re.sub(r"--deals \d+", "--deals 2", command)
    command = re.sub(r"--matches \d+", "--matches 1", command)
    command = re.sub(r"think=[0-9.]+", "think=0.01", command)
    words = shlex.split(command)
    if words[1] == "ladder" and "--deals" not in words:
        words += ["--deals", "1"]
    return words


@pytest.mark.long
def test_the_shell_examples_run(tmp_path: Path) -> None:
    found = commands()
    assert {shlex.split(c)[1] for c in found} >= {"play", "replay", "simulate", "ladder",
                                                    "stats"}
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    for command in found:
        words = shortened(command)
        stdin = "quit\n" if words[1] == "play" else ""
        if words[1] == "play":
            words.insert(2, "--plain")
        done = subprocess.run([str(RUMMYKIT), *words[1:]], cwd=tmp_path, env=env,
                              input=stdin, capture_output=True, text=True, timeout=300)
        assert done.returncode in ((0, 130) if words[1] == "play" else (0,)), (
            command, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (command, done.stderr)
    assert (tmp_path / "game.json").is_file() and (tmp_path / "ladder.md").is_file()
