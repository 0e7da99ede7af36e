"""The README's examples are run, so that they stay true.

Every Python block runs, in order, in one namespace (a later block may use what an
earlier one made); a line ``expression  # literal`` must give that literal. Every
``rummykit`` command of the shell blocks runs in one scratch directory, in order (the
game saved by ``play`` is then replayed), with the long runs made short (``--deals 2``,
``--matches 1``, a master that thinks for 0.01 s): each must exit 0. ``make`` lines and
the Ray cluster example (it needs a cluster) are left out.
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

README = Path(__file__).resolve().parents[1] / "README.md"
RUMMYKIT = Path(sys.executable).with_name("rummykit")
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text(encoding="utf-8"))
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


def test_the_python_examples_run_and_give_what_they_say(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    names: dict[str, Any] = {}
    checked = 0
    found = blocks("python")
    assert len(found) >= 5
    for block in found:
        exec(compile(block, str(README), "exec"), names)
        for line in block.splitlines():
            claim = expected(line)
            if claim is not None:
                assert eval(claim[0], names) == claim[1], line
                checked += 1
    assert checked >= 2


def commands() -> list[str]:
    out = []
    for block in blocks("sh"):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("rummykit ") and "..." not in line:
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
