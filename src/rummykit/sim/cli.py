"""``rummykit simulate``, ``rummykit ladder`` and ``rummykit stats``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rummykit.bots import BOTS, split_bots
from rummykit.errors import RummyError

__all__ = ["add_commands"]

LADDER_DEFAULT = ("random", "greedy", "expert")
"""The levels ``rummykit ladder`` rates unless ``--bots`` names others (not the master
bot: its search is slow)."""


def add_commands(sub: Any) -> None:
    sim = sub.add_parser("simulate", help="play many seeded games between bots")
    sim.add_argument("--rules", default="classic")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--bots", default="expert,greedy",
                     help=f"one level per seat, comma separated ({', '.join(BOTS)}); fewer "
                     "than the seats repeat the last")
    unit = sim.add_mutually_exclusive_group()
    unit.add_argument("--deals", type=int, help="play this many deals (the default, 100)")
    unit.add_argument("--matches", type=int, help="play this many whole matches")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--workers", type=int, default=1, help="processes to play on")
    sim.add_argument("--duplicate", action="store_true",
                     help="play every deal once per rotation of the bots around the table")
    sim.add_argument("--backend", choices=("local", "ray"), default="local")
    sim.add_argument("--address", help="Ray cluster address (with --backend ray)")
    out = sim.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--csv", action="store_true", help="print the results as CSV")
    sim.add_argument("--save", metavar="DIR", help="keep every game as a record in DIR")
    sim.add_argument("--record-stats", action="store_true",
                     help="store every game in the statistics database")
    sim.add_argument("--db", help="statistics database URL (default: DATABASE_URL or "
                     "sqlite:///var/rummykit.db)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(handler=_simulate)

    ladder = sub.add_parser("ladder", help="rate bot levels in a round robin")
    ladder.add_argument("--rules", default="classic")
    ladder.add_argument("--players", type=int, default=2)
    ladder.add_argument("--bots", default=",".join(LADDER_DEFAULT),
                        help="the levels to rate, comma separated, at least two (default "
                        f"{','.join(LADDER_DEFAULT)}; the master bot, a slow search, plays "
                        "only when named, with its options if you like: --bots "
                        "'random,greedy,expert,master(think=0.2)')")
    ladder.add_argument("--deals", type=int, default=200, help="deals per pair")
    ladder.add_argument("--seed", type=int, default=0)
    ladder.add_argument("--workers", type=int, default=1)
    ladder.add_argument("--markdown", metavar="FILE", default=None,
                        help="write the table as Markdown here (default docs/ladder.md)")
    ladder.add_argument("--json", action="store_true")
    ladder.set_defaults(handler=_ladder)

    stats = sub.add_parser("stats", help="statistics per player, preset and player count")
    stats.add_argument("--db", help="database URL (default: DATABASE_URL or the SQLite file)")
    stats.add_argument("--preset")
    stats.add_argument("--players", type=int)
    stats.add_argument("--player", help="one person's name or bot level")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=_stats)


def _progress_bar(quiet: bool) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
        console=_err_console(), disable=quiet, transient=True,
    )


def _err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _simulate(args: argparse.Namespace) -> int:
    import time

    from rummykit.sim import Config, check, simulate
    from rummykit.sim.runner import Outcome

    levels = split_bots(args.bots)
    if not levels:
        print("name at least one bot", file=sys.stderr)
        return 2
    if len(levels) > args.players:
        print(f"cannot simulate: {len(levels)} bots named for {args.players} seats",
              file=sys.stderr)
        return 2
    levels += [levels[-1]] * (args.players - len(levels))
    matches = args.matches is not None
    count = args.matches if matches else (100 if args.deals is None else args.deals)
    config = Config(
        rules=args.rules, players=args.players, bots=tuple(levels),
        mode="matches" if matches else "deals", count=count,
        seed=args.seed, duplicate=args.duplicate, keep_records=bool(args.save),
    )
    try:
        check(config)
    except (RummyError, ValueError) as err:
        print(f"cannot simulate: {err}", file=sys.stderr)
        return 2
    save_dir = Path(args.save) if args.save else None
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    store = None
    if args.record_stats:
        store = _open_store(args.db)
        if store is None:
            return 2
    from rummykit.rules import Rules

    rules = Rules.parse(config.rules)

    def keep(outcome: Outcome) -> None:
        if save_dir is not None and outcome.record is not None:
            unit = "match" if config.mode == "matches" else "deal"
            name = f"{unit}-{outcome.index:06d}-r{outcome.rotation}.json"
            (save_dir / name).write_text(outcome.record, encoding="utf-8")
        if store is not None:
            from rummykit.engine.deal import DealResult

            results = [DealResult(w, r, tuple(p)) for p, w, r in zip(
                outcome.deal_points, outcome.deal_winners, outcome.deal_rummies, strict=True)]
            store.add_game(
                rules=rules, names=[config.bots[b] for b in outcome.bot_of],
                kinds=["bot"] * config.players, results=results, totals=outcome.totals,
                winner=outcome.match_winner if config.mode == "matches" else (
                    results[0].winner if results else None),
                finished=outcome.match_finished if config.mode == "matches" else bool(results),
                unit="match" if config.mode == "matches" else "deal", source="simulate",
                record=outcome.record,
                played=[sum(1 for active in outcome.deal_active if active[seat])
                        for seat in range(config.players)],
            )

    start = time.perf_counter()
    with _progress_bar(args.quiet or args.json or args.csv) as bar:
        task = bar.add_task(f"{config.rules}, {config.players} players", total=len(config.jobs()),
                            rate="")

        def progress(done: int, total: int) -> None:
            rate = done / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=done, rate=f"{rate:,.0f} {config.mode}/s")

        try:
            report = simulate(config, workers=args.workers, backend=args.backend,
                              address=args.address, progress=progress, on_outcome=keep)
        except (RummyError, ValueError) as err:
            print(f"cannot simulate: {err}", file=sys.stderr)
            return 2
    if store is not None:
        store.close()
    if args.json:
        print(json.dumps(report.to_json()))
    elif args.csv:
        sys.stdout.write(report.to_csv())
    else:
        _print_report(report)
    return 0


def _print_report(report: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    config = report.config
    table = Table(title=f"{config.rules}, {config.players} players, {report.deals} deals "
                  f"({report.seconds:.1f} s, {report.deals / max(report.seconds, 1e-9):,.0f} "
                  "deals/s)")
    for col in ("bot", "deals won", "win rate [95% CI]", "matches won", "points/deal [95% CI]",
                "rummy rate", "stalemates", "decisions/deal"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in report.bots:
        matches = f"{b.matches_won}/{b.matches}" if b.matches else "-"
        table.add_row(
            b.name, f"{b.deals_won}/{b.deals}",
            f"{b.win_rate.mean:.1%} [{b.win_rate.low:.1%}, {b.win_rate.high:.1%}]", matches,
            f"{b.points_per_deal.mean:.2f} [{b.points_per_deal.low:.2f}, "
            f"{b.points_per_deal.high:.2f}]",
            f"{b.rummy_rate:.1%}", str(b.stalemates), f"{b.decisions_per_deal:.1f}",
        )
    Console().print(table)


def _ladder(args: argparse.Namespace) -> int:
    from rummykit.sim.ladder import run_ladder

    try:
        # Every level is checked (and the rules, players and deals) before any game.
        result = run_ladder(args.rules, args.players, split_bots(args.bots),
                            deals=args.deals, seed=args.seed, workers=args.workers)
    except (RummyError, ValueError) as err:
        print(f"cannot run the ladder: {err}", file=sys.stderr)
        return 2
    text = result.markdown()
    if args.json:
        if args.markdown:
            Path(args.markdown).write_text(text, encoding="utf-8")
        print(json.dumps(result.to_json()))
    else:
        target = Path(args.markdown or "docs/ladder.md")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
        print(f"written to {target}")
    return 0


def _open_store(url: str | None) -> Any:
    """The statistics store, or None after saying why the database cannot be used."""
    from sqlalchemy.exc import ArgumentError, OperationalError

    from rummykit.stats import Store

    try:
        return Store(url)
    except (ArgumentError, OperationalError, ValueError) as err:
        print(f"cannot open the database {url!r}: {str(err).splitlines()[0]}", file=sys.stderr)
        return None


def _stats(args: argparse.Namespace) -> int:
    store = _open_store(args.db)
    if store is None:
        return 2
    try:
        lines = store.lines(preset=args.preset, players=args.players, player=args.player)
    finally:
        store.close()
    if args.json:
        print(json.dumps({"stats": [line.to_json() for line in lines]}))
        return 0
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from rummykit.names import shown_name

    table = Table(title="rummykit statistics")
    for col in ("player", "preset", "players", "matches", "won", "win %", "deals won",
                "points/deal", "rummies", "best score"):
        table.add_column(col, justify="left" if col in ("player", "preset") else "right")
    for line in lines:
        table.add_row(
            escape(shown_name(line.player)) + (" (bot)" if line.kind == "bot" else "")
            + (f" #{line.player_id}" if line.player_id else ""),
            escape(line.preset),
            str(line.players), str(line.matches), str(line.matches_won), f"{line.win_pct:.1f}",
            f"{line.deals_won}/{line.deals}", f"{line.points_per_deal:.2f}", str(line.rummies),
            "-" if line.best_score is None else str(line.best_score),
        )
    Console().print(table)
    return 0
