"""rummykit benchmark: random play speed of the engine, and of peer engines for comparison.

What is measured, each in this one process, with the same time budget (``--seconds``) per cell:

* rummykit, for every rules preset and player count: whole deals of random play. A deal is
  started with ``Deal.start(rules, players=n, dealer=i % n, seed=i, index=0)`` for
  i = 0, 1, 2, ...; at every decision the action is drawn uniformly (one ``random.Random``
  per cell, seeded with ``--seed``) from ``deal.legal_actions()`` and applied with
  ``deal.push(action)``, until ``deal.is_over``. A decision is one player action (one push).
  Dealing is inside the timed loop. deals/s and decisions/s are counts over the time taken.
* rummykit copies: ``deal.copy()`` of a mid-game state (halfway, in decisions, through the
  deal played from seed ``--seed``) per second, for every preset and player count.
* rummykit determinized rollouts, what a search bot does many times a decision: from the
  same mid-game state, the view of the player to move is taken once; each rollout deals the
  hidden cards at random in agreement with that view (``determinize(view, rng)``, the
  information-set API the master bot uses) and plays the imagined deal to its end at random
  as above. rollouts/s counts whole rollouts (the determinization and the play).
* Peers (two-player gin rummy only): OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``,
  played the same way; see bench/peers.py for exactly how each is driven. A peer whose package
  cannot be imported is reported as skipped and the bench goes on.
* Ratios: rummykit classic 2-player decisions/s divided by each peer's decisions/s (and the
  same for copies); every rummykit cell's decisions/s divided by classic 2-player's.
* Speed targets, all ratios measured in this one run: classic 2-player decisions/s at
  least 2.0x OpenSpiel's and 5.0x RLCard's game engine; classic 2-player copies at least 20x
  OpenSpiel's clones; every preset's decisions/s with 2 players at least 0.5x classic
  2-player's, and with 6 players at least 0.3x classic 2-player's. Each is printed as met or
  MISSED (a target whose cells were not measured is left out). Speed is never asserted in a
  test: the verdicts are information, and the exit status does not depend on them.

Every measurement plays whole deals until its budget is spent, after one untimed warm-up deal.
Every measurement is made once in each of ``--rounds`` rounds (every cell once a round, in
the same order, each round playing the same deals from the same seeds), and each cell keeps
its fastest round: on a shared machine a burst of other work slows the rounds it lands in
and never speeds one up, so the fastest round is the one nearest the engine's own speed
(as ``timeit`` keeps the least time of its repeats). The rate of every round is in the JSON.
A rummykit cell that raises (a preset not implemented yet, an engine bug, a deal that never
ends) is reported as an error; the bench then exits with status 1.

Usage::

    python bench/run.py                      # table
    python bench/run.py --json               # one JSON object on stdout, progress on stderr
    python bench/run.py --seconds 0.5 --presets classic basic --players 2 4
    python bench/run.py --rounds 1           # one round: quicker, more at the mercy of noise
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, TypedDict

from peers import (
    MAX_DECISIONS_PER_DEAL,
    PEERS,
    CopyRate,
    DealTooLong,
    PeerUnavailable,
    Rate,
    time_copies,
    time_deals,
)

PRESETS: tuple[str, ...] = ("basic", "one-deal", "classic", "rummy500", "limited-stock", "ramino")
PLAYER_COUNTS: tuple[int, ...] = (2, 4, 6)

TARGET_PRESET = "classic"
TARGET_PLAYERS = 2

#: (peer, measured key, least ratio of rummykit classic 2p over the peer).
PEER_TARGETS: tuple[tuple[str, str, float], ...] = (
    ("open_spiel_gin_rummy", "decisions_per_s", 2.0),
    ("rlcard_gin_rummy", "decisions_per_s", 5.0),
    ("open_spiel_gin_rummy", "copies_per_s", 20.0),
)
#: Least decisions/s of every preset at a player count, as a share of classic 2p's.
PRESET_TARGETS: dict[int, float] = {2: 0.5, 6: 0.3}

ENGINE = "rummykit"


class Cell(TypedDict, total=False):
    """One engine x rules x player count measurement, as it appears in the JSON output."""

    deals_per_s: float
    decisions_per_s: float
    deals: int
    decisions: int
    seconds: float
    decisions_per_deal: float
    copies_per_s: float
    copies: int
    copy_seconds: float
    rollouts_per_s: float
    rollouts: int
    rollout_seconds: float
    rounds_decisions_per_s: list[float]
    rounds_copies_per_s: list[float]
    rounds_rollouts_per_s: list[float]
    error: str


# --------------------------------------------------------------------------------------------
# rummykit measurements
# --------------------------------------------------------------------------------------------


def _load_rummykit() -> tuple[Any, Any]:
    """Return (Rules, Deal) from rummykit; raise ImportError with the reason if unavailable."""
    from rummykit.engine import Deal
    from rummykit.rules import Rules

    return Rules, Deal


def _mid_game(rules: Any, deal_cls: Any, players: int, seed: int) -> Any:
    """The state halfway (in decisions) through the random deal played from ``seed``."""

    def start() -> Any:
        return deal_cls.start(rules, players=players, dealer=0, seed=seed, index=0)

    length = _play_rummykit(start(), random.Random(seed))
    deal = start()
    _play_rummykit(deal, random.Random(seed), stop_after=length // 2)
    return deal


def _play_rummykit(deal: Any, rng: random.Random, stop_after: int | None = None) -> int:
    """Play ``deal`` at random to its end (or until ``stop_after`` decisions); return decisions."""
    decisions = 0
    randrange = rng.randrange
    legal_actions = deal.legal_actions
    push = deal.push
    while not deal.is_over:
        if decisions == stop_after:
            break
        actions = legal_actions()
        push(actions[randrange(len(actions))])
        decisions += 1
        if decisions > MAX_DECISIONS_PER_DEAL:
            raise DealTooLong(f"deal did not end within {MAX_DECISIONS_PER_DEAL} decisions")
    return decisions


def measure_rummykit(
    rules_cls: Any, deal_cls: Any, preset: str, players: int, seconds: float, seed: int
) -> Rate:
    """Random play of whole rummykit deals for one preset and player count."""
    rules = rules_cls.preset(preset)
    rng = random.Random(seed)

    def play_deal(index: int) -> int:
        deal = deal_cls.start(rules, players=players, dealer=index % players, seed=index, index=0)
        return _play_rummykit(deal, rng)

    return time_deals(play_deal, seconds)


def measure_rummykit_copy(
    rules_cls: Any, deal_cls: Any, preset: str, players: int, seconds: float, seed: int
) -> CopyRate:
    """``deal.copy()`` of a rummykit state halfway through a random deal."""
    deal = _mid_game(rules_cls.preset(preset), deal_cls, players, seed)
    return time_copies(deal.copy, seconds)


def measure_rummykit_rollout(
    rules_cls: Any, deal_cls: Any, preset: str, players: int, seconds: float, seed: int
) -> Rate:
    """Determinized rollouts from a rummykit state halfway through a random deal: each
    deals the hidden cards again from the view of the player to move, then plays to the
    end at random (a "deal" of the returned rate is one rollout)."""
    from rummykit.engine import determinize
    from rummykit.engine.views import view

    deal = _mid_game(rules_cls.preset(preset), deal_cls, players, seed)
    seen = view(deal, deal.to_move)
    rng = random.Random(seed)

    def rollout(_index: int) -> int:
        return _play_rummykit(determinize(seen, rng), rng)

    return time_deals(rollout, seconds)


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

HEADER = (
    f"{'engine':<22} {'rules':<14} {'players':>7} {'deals/s':>10} {'decisions/s':>12} "
    f"{'dec/deal':>9} {'copies/s':>11} {'rollouts/s':>10}  note"
)


def _fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def format_row(engine: str, rules: str, players: int, cell: Cell) -> str:
    """One line of the table."""
    if "error" in cell and "decisions_per_s" not in cell:
        return f"{engine:<22} {rules:<14} {players:>7}  ERROR: {cell['error']}"
    note = ""
    if "error" in cell:
        note = (note + "; " if note else "") + f"ERROR: {cell['error']}"
    return (
        f"{engine:<22} {rules:<14} {players:>7} {_fmt(cell.get('deals_per_s'), 1):>10} "
        f"{_fmt(cell.get('decisions_per_s')):>12} {_fmt(cell.get('decisions_per_deal'), 1):>9} "
        f"{_fmt(cell.get('copies_per_s')):>11} {_fmt(cell.get('rollouts_per_s')):>10}  "
        f"{note}".rstrip()
    )


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        description="Random-play speed of rummykit and of peer rummy engines."
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="time budget of each measurement (default: 2.0)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds of every measurement; each cell keeps its fastest (default: 3)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )
    parser.add_argument(
        "--presets",
        nargs="+",
        default=list(PRESETS),
        metavar="PRESET",
        help=f"rummykit presets to measure (default: {' '.join(PRESETS)})",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        type=int,
        default=list(PLAYER_COUNTS),
        metavar="N",
        help="player counts to measure for rummykit (default: 2 4 6)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the action choices")
    parser.add_argument("--no-peers", action="store_true", help="measure rummykit only")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def add_rate(cell: Cell, rate: Rate) -> None:
    """Store a play measurement in ``cell``, where it is the fastest round so far."""
    cell.setdefault("rounds_decisions_per_s", []).append(rate["decisions_per_s"])
    if rate["decisions_per_s"] < cell.get("decisions_per_s", 0.0):
        return
    cell["deals_per_s"] = rate["deals_per_s"]
    cell["decisions_per_s"] = rate["decisions_per_s"]
    cell["deals"] = rate["deals"]
    cell["decisions"] = rate["decisions"]
    cell["seconds"] = rate["seconds"]
    cell["decisions_per_deal"] = rate["decisions"] / rate["deals"]


def add_copy_rate(cell: Cell, rate: CopyRate) -> None:
    """Store a copy measurement in ``cell``, where it is the fastest round so far."""
    cell.setdefault("rounds_copies_per_s", []).append(rate["copies_per_s"])
    if rate["copies_per_s"] < cell.get("copies_per_s", 0.0):
        return
    cell["copies_per_s"] = rate["copies_per_s"]
    cell["copies"] = rate["copies"]
    cell["copy_seconds"] = rate["seconds"]


def add_rollout_rate(cell: Cell, rate: Rate) -> None:
    """Store a rollout measurement in ``cell``, where it is the fastest round so far."""
    cell.setdefault("rounds_rollouts_per_s", []).append(rate["deals_per_s"])
    if rate["deals_per_s"] < cell.get("rollouts_per_s", 0.0):
        return
    cell["rollouts_per_s"] = rate["deals_per_s"]
    cell["rollouts"] = rate["deals"]
    cell["rollout_seconds"] = rate["seconds"]


def run_rummykit(
    args: argparse.Namespace,
    say: Callable[[str], None],
    results: dict[str, dict[str, dict[str, Cell]]],
    skipped: dict[str, str],
    errors: list[str],
) -> None:
    """Measure every rummykit cell once (one round), adding to ``results``; a cell that
    failed in an earlier round is not measured again."""
    if ENGINE in skipped:
        return
    try:
        rules_cls, deal_cls = _load_rummykit()
    except Exception as exc:
        skipped[ENGINE] = f"cannot import rummykit: {type(exc).__name__}: {exc}"
        say(f"{ENGINE:<22} skipped: {skipped[ENGINE]}")
        errors.append(skipped[ENGINE])
        return
    engine_results = results.setdefault(ENGINE, {})
    for preset in args.presets:
        for players in args.players:
            cell = engine_results.setdefault(preset, {}).setdefault(str(players), {})
            if "error" in cell:
                continue
            try:
                measured = (rules_cls, deal_cls, preset, players, args.seconds, args.seed)
                add_rate(cell, measure_rummykit(*measured))
                add_copy_rate(cell, measure_rummykit_copy(*measured))
                add_rollout_rate(cell, measure_rummykit_rollout(*measured))
            except Exception as exc:
                cell["error"] = f"{type(exc).__name__}: {exc}"
                errors.append(f"{ENGINE} {preset} {players}p: {cell['error']}")


def run_peers(
    args: argparse.Namespace,
    say: Callable[[str], None],
    results: dict[str, dict[str, dict[str, Cell]]],
    skipped: dict[str, str],
) -> None:
    """Measure every peer once (one round), adding to ``results``; a peer that is missing
    or failed is skipped from then on."""
    for peer in PEERS:
        if peer.name in skipped:
            continue
        cell = results.setdefault(peer.name, {}).setdefault(peer.rules, {}).setdefault(
            str(peer.players), {})
        try:
            add_rate(cell, peer.measure(args.seconds, args.seed))
            if peer.measure_copy is not None:
                add_copy_rate(cell, peer.measure_copy(args.seconds, args.seed))
        except PeerUnavailable as exc:
            skipped[peer.name] = str(exc)
        except Exception as exc:  # a peer's own failure must not stop the bench
            skipped[peer.name] = f"failed: {type(exc).__name__}: {exc}"
        if peer.name in skipped:
            del results[peer.name]
            say(f"{peer.name:<22} skipped: {skipped[peer.name]}")


def compute_ratios(results: dict[str, dict[str, dict[str, Cell]]]) -> dict[str, float]:
    """rummykit classic 2p rates divided by each peer's."""
    ratios: dict[str, float] = {}
    ours = results.get(ENGINE, {}).get(TARGET_PRESET, {}).get(str(TARGET_PLAYERS))
    if ours is None:
        return ratios
    prefix = f"{TARGET_PRESET}_{TARGET_PLAYERS}p"
    for peer in PEERS:
        theirs = results.get(peer.name, {}).get(peer.rules, {}).get(str(peer.players))
        if theirs is None:
            continue
        if "decisions_per_s" in ours and "decisions_per_s" in theirs:
            ratios[f"{prefix}_vs_{peer.name}"] = ours["decisions_per_s"] / theirs["decisions_per_s"]
        if "copies_per_s" in ours and "copies_per_s" in theirs:
            ratios[f"{prefix}_copy_vs_{peer.name}"] = ours["copies_per_s"] / theirs["copies_per_s"]
    if "decisions_per_s" in ours:
        for preset, cells in results.get(ENGINE, {}).items():
            for players, cell in cells.items():
                if "decisions_per_s" in cell:
                    ratios[f"{preset}_{players}p_vs_{prefix}"] = (
                        cell["decisions_per_s"] / ours["decisions_per_s"])
    return ratios


class Target(TypedDict):
    """One speed target: a ratio measured in this run and the least it should be."""

    what: str
    ratio: float
    target: float
    met: bool


def compute_targets(ratios: dict[str, float]) -> list[Target]:
    """The targets whose ratios were measured, each with its verdict."""
    prefix = f"{TARGET_PRESET}_{TARGET_PLAYERS}p"
    wanted: list[tuple[str, str, float]] = []
    for peer, key, least in PEER_TARGETS:
        copy = "_copy" if key == "copies_per_s" else ""
        label = "copies/s" if copy else "decisions/s"
        wanted.append((f"{prefix}{copy}_vs_{peer}",
                       f"{TARGET_PRESET} {TARGET_PLAYERS}p {label} / {peer}", least))
    for players, least in PRESET_TARGETS.items():
        for preset in PRESETS:
            wanted.append((f"{preset}_{players}p_vs_{prefix}",
                           f"{preset} {players}p decisions/s / {TARGET_PRESET} "
                           f"{TARGET_PLAYERS}p", least))
    return [
        Target(what=what, ratio=ratios[key], target=least, met=ratios[key] >= least)
        for key, what, least in wanted if key in ratios
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    args = parse_args(argv)
    as_json: bool = args.json

    def say(line: str) -> None:
        """Progress and table lines: stdout for the table, stderr when stdout carries JSON."""
        print(line, file=sys.stderr if as_json else sys.stdout, flush=True)

    results: dict[str, dict[str, dict[str, Cell]]] = {}
    skipped: dict[str, str] = {}
    errors: list[str] = []
    say(f"rummykit bench: {args.seconds:g} s per measurement, the fastest of {args.rounds} "
        f"round{'s' if args.rounds > 1 else ''}, Python {platform.python_version()}")
    for round_number in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"round {round_number} of {args.rounds}", file=sys.stderr, flush=True)
        run_rummykit(args, say, results, skipped, errors)
        if not args.no_peers:
            run_peers(args, say, results, skipped)
    peer_info = {} if args.no_peers else {peer.name: peer.description for peer in PEERS}
    say(HEADER)
    for engine, by_rules in results.items():
        for rules_name, by_players in by_rules.items():
            for players, cell in by_players.items():
                say(format_row(engine, rules_name, int(players), cell))

    ratios = compute_ratios(results)
    targets = compute_targets(ratios)

    if as_json:
        report = {
            "seconds_per_measurement": args.seconds,
            "rounds": args.rounds,
            "seed": args.seed,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "versions": {
                name: _version(name) for name in ("rummykit", "open_spiel", "rlcard", "numpy")
            },
            "peers": peer_info,
            "results": results,
            "ratios": ratios,
            "targets": targets,
            "skipped": skipped,
            "errors": errors,
        }
        print(json.dumps(report, indent=2))
    else:
        print()
        print(f"ratios ({ENGINE} {TARGET_PRESET} {TARGET_PLAYERS}p over each peer; each cell over "
              f"{TARGET_PRESET} {TARGET_PLAYERS}p):")
        if not ratios:
            print("  none (classic 2p or every peer missing)")
        for key, value in ratios.items():
            print(f"  {key:<48} {value:8.2f}x")
        print()
        print("speed targets:")
        if not targets:
            print("  none measured")
        for t in targets:
            verdict = "met" if t["met"] else "MISSED"
            print(f"  {t['what']:<54} {t['ratio']:6.2f}x  >= {t['target']:.1f}x  {verdict}")
        if skipped:
            print()
            print("skipped:")
            for name, reason in skipped.items():
                print(f"  {name}: {reason}")
        if errors:
            print()
            print("errors:")
            for error in errors:
                print(f"  {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
