"""``rummykit analyze`` as a person meets it: the review as tables or JSON, one seat, the
progress on stderr, a bad record or a bad option refused in one line (exit 2), and Ctrl-C
(a real SIGINT) that stops the review and its worker processes at once (exit 130)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from rummykit import record as records

from ..analysis._support import played
from .test_cli_commands import refused

RUMMYKIT = Path(sys.executable).with_name("rummykit")


def rummykit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run([str(RUMMYKIT), *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, check=False, env=env)


def _record(tmp_path: Path, name: str = "game.json", seed: int = 8) -> Path:
    path = tmp_path / name
    records.dump(played("one-deal", ("greedy", "random"), seed=seed), path)
    return path


def test_analyze_prints_the_review_as_json(tmp_path: Path) -> None:
    _record(tmp_path)
    proc = rummykit("analyze", "game.json", "--json", "--budget", "4", "--jobs", "1",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [s["name"] for s in data["seats"]] == ["Anna", "Bruno"]
    assert data["decisions"] and {"deal", "seat", "step", "played", "best", "loss",
                                  "class"} <= set(data["decisions"][0])
    # Progress went to stderr, a line at a time (stderr is not a terminal here).
    total = len(data["decisions"])
    assert f"reviewed {total} of {total} decisions" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_analyze_one_seat_as_tables(tmp_path: Path) -> None:
    _record(tmp_path)
    proc = rummykit("analyze", "game.json", "--seat", "1", "--budget", "4", "--jobs", "2",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Review of one-deal" in out and "accuracy" in out and "Deal by deal" in out
    assert "Bruno" in out and "Anna" not in out


def test_analyze_refuses_what_it_cannot_review(tmp_path: Path) -> None:
    (tmp_path / "not.json").write_text("{not json", encoding="utf-8")
    refused(rummykit("analyze", "not.json", cwd=tmp_path), "not a valid record: not JSON")
    refused(rummykit("analyze", "missing.json", cwd=tmp_path),
            "not a valid record: cannot read missing.json")
    path = _record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["deals"][0]["actions"][3] = "discard 2C" if data["deals"][0]["actions"][3] != \
        "discard 2C" else "discard 3C"
    data["deals"][0].pop("result", None)
    data.pop("result", None)
    (tmp_path / "illegal.json").write_text(json.dumps(data), encoding="utf-8")
    refused(rummykit("analyze", "illegal.json", "--budget", "4", cwd=tmp_path),
            "not a valid record: the record does not replay: deal 1, action 4")
    refused(rummykit("analyze", "game.json", "--seat", "2", cwd=tmp_path),
            "--seat 2: the record has seats 0 to 1")
    proc = rummykit("analyze", "game.json", "--budget", "lots", cwd=tmp_path)
    assert proc.returncode == 2 and "budget 'lots'" in proc.stderr and proc.stdout == ""


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def test_ctrl_c_stops_a_review_at_once(tmp_path: Path) -> None:
    _record(tmp_path)
    proc = subprocess.Popen([str(RUMMYKIT), "analyze", "game.json", "--budget", "5000",
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path)
    deadline = time.time() + 30
    workers: set[int] = set()
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the review never started its workers"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 10
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "interrupted: the review was stopped"
    assert len(err.strip().splitlines()) <= 2  # (a progress line may come first)
    assert out == ""
    gone = time.time() + 5
    while time.time() < gone and any(Path(f"/proc/{p}").exists() for p in workers):
        time.sleep(0.1)
    assert not any(Path(f"/proc/{p}").exists() for p in workers)
