"""``rummykit simulate``, ``rummykit ladder`` and ``rummykit stats``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rummykit.bots import BOTS, seat_levels, split_bots
from rummykit.cliutil import (
    HelpFormatter,
    UsageError,
    check_database,
    check_dir,
    check_file,
    flag_words,
    make_dir,
)
from rummykit.engine.deal import DealResult
from rummykit.errors import OptionError, RummyError
from rummykit.names import shown_name
from rummykit.rules import PRESETS, Rules
from rummykit.sim import Config, Interrupted, check, check_workers, simulate
from rummykit.sim.ladder import LadderInterrupted, plan_ladder, run_ladder
from rummykit.sim.runner import Outcome

__all__ = ["add_commands"]

FLAGS = {"bots": "--bots", "workers": "--workers"}
"""The flag of each option of the simulator that a library error may name."""

LADDER_DEFAULT = ("random", "greedy", "learned", "expert")
"""The levels ``rummykit ladder`` rates unless ``--bots`` names others (not the master
bot: its search is slow)."""


def add_commands(sub: Any) -> None:
    sim = sub.add_parser("simulate", help="play many seeded games between bots",
                         description="Play many seeded games between bots and report each "
                         "bot's results. Ctrl-C stops at once and reports the games played.",
                         formatter_class=HelpFormatter)
    _table_options(sim)
    sim.add_argument("--bots", default="expert,greedy",
                     help=f"one level per seat, comma separated ({', '.join(BOTS)}; options "
                     "in parentheses: 'master(think=0.5)'); fewer than the seats repeat the "
                     "last")
    unit = sim.add_mutually_exclusive_group()
    unit.add_argument("--deals", type=int, help="play this many deals (default 100)")
    unit.add_argument("--matches", type=int, help="play this many whole matches instead")
    sim.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    sim.add_argument("--workers", type=int, default=1, help="processes to play on")
    sim.add_argument("--duplicate", action="store_true",
                     help="play every deal once per rotation of the bots around the table")
    sim.add_argument("--backend", choices=("local", "ray"), default="local",
                     help="where to play: local processes or a Ray cluster")
    sim.add_argument("--address", help="Ray cluster address (with --backend ray)")
    out = sim.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--csv", nargs="?", const="-", metavar="FILE",
                     help="the results as CSV: printed, or written to FILE")
    sim.add_argument("--save", metavar="DIR", help="keep every game as a record in DIR")
    sim.add_argument("--record-stats", action="store_true",
                     help="store every game in the statistics database")
    sim.add_argument("--db", metavar="URL", help="statistics database URL (default: "
                     "DATABASE_URL or a SQLite file in your data directory)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(handler=_simulate)

    ladder = sub.add_parser("ladder", help="rate bot levels in a round robin",
                            description="Rate bot levels in a round robin on the Elo scale. "
                            "Ctrl-C stops at once and rates the games played.",
                            formatter_class=HelpFormatter)
    _table_options(ladder)
    ladder.add_argument("--bots", default=",".join(LADDER_DEFAULT),
                        help="the levels to rate, comma separated, at least two (default "
                        f"{','.join(LADDER_DEFAULT)}; the master bot, a slow search, plays "
                        "only when named, with its options if you like: --bots "
                        "'random,greedy,expert,master(think=0.2)')")
    ladder.add_argument("--deals", type=int, default=200, help="deals per pair")
    ladder.add_argument("--seed", type=int, default=0, help="seed of the whole ladder")
    ladder.add_argument("--workers", type=int, default=1, help="processes to play on")
    ladder.add_argument("--markdown", metavar="FILE", default=None,
                        help="also write the tables as Markdown to FILE")
    ladder.add_argument("--json", action="store_true", help="print the results as JSON")
    ladder.add_argument("--quiet", action="store_true", help="no progress bar")
    ladder.set_defaults(handler=_ladder)

    stats = sub.add_parser("stats", help="statistics per player, preset and player count",
                           formatter_class=HelpFormatter)
    stats.add_argument("--db", metavar="URL", help="database URL (default: DATABASE_URL or "
                       "a SQLite file in your data directory)")
    stats.add_argument("--preset", help="only this preset (all of them when left out)")
    stats.add_argument("--players", type=int, help="only games of this many players")
    stats.add_argument("--player", help="one person's name or bot level")
    stats.add_argument("--json", action="store_true", help="print the lines as JSON")
    stats.add_argument("--ratings", action="store_true",
                       help="the leaderboards: each rating per preset and player-count group")
    stats.add_argument("--rerate", action="store_true",
                       help="work every rating out again from the stored rated games")
    stats.set_defaults(handler=_stats)


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="classic",
                        help="a preset, with options if wanted: 'classic(melds_per_turn=many)'")
    parser.add_argument("--players", type=int, default=2, help="2 to 6 seats")


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


def _out_console() -> Any:
    """The console for results: the terminal's width, or, piped, as wide as the lines
    are (a table's columns are never squeezed into 80 characters of a file)."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=10_000)


def _err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _simulate(args: argparse.Namespace) -> int:
    import time

    matches = args.matches is not None
    count = args.matches if matches else (100 if args.deals is None else args.deals)
    try:
        levels = seat_levels(args.bots, args.players) if args.players >= 1 else []
        config = Config(
            rules=args.rules, players=args.players, bots=tuple(levels),
            mode="matches" if matches else "deals", count=count,
            seed=args.seed, duplicate=args.duplicate, keep_records=bool(args.save),
        )
        check(config)
        check_workers(args.workers)
        if args.address and args.backend != "ray":
            raise UsageError("--address names a Ray cluster: use it with --backend ray")
        csv_file = (check_file(args.csv, "--csv")
                    if args.csv is not None and args.csv != "-" else None)
        save_dir, plan = check_dir(args.save, "--save") if args.save else (None, "")
        db_url = check_database(args.db) if args.record_stats else None
    except (RummyError, ValueError) as err:
        print(f"cannot simulate: {flag_words(err, FLAGS)}", file=sys.stderr)
        return 2
    store = None
    if db_url is not None:
        store = _open_store(db_url)
        if store is None:
            return 2
    if save_dir is not None:
        try:
            make_dir(save_dir, "--save")
        except OptionError as err:
            print(f"cannot simulate: {err}", file=sys.stderr)
            if store is not None:
                store.close()
            return 2
        print(plan, file=sys.stderr)
    rules = Rules.parse(config.rules)

    def keep(outcome: Outcome) -> None:
        if save_dir is not None and outcome.record is not None:
            unit = "match" if config.mode == "matches" else "deal"
            name = f"{unit}-{outcome.index:06d}-r{outcome.rotation}.json"
            (save_dir / name).write_text(outcome.record, encoding="utf-8")
        if store is not None:
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

    from sqlalchemy.exc import DatabaseError

    from rummykit.stats import database_problem, shown_url

    start = time.perf_counter()
    code = 0
    try:
        with _progress_bar(args.quiet or args.json or args.csv == "-") as bar:
            task = bar.add_task(f"{config.rules}, {config.players} players",
                                total=config.total, rate="")

            def progress(done: int, total: int) -> None:
                rate = done / max(time.perf_counter() - start, 1e-9)
                bar.update(task, completed=done, rate=f"{rate:,.0f} {config.mode}/s")

            try:
                report = simulate(config, workers=args.workers, backend=args.backend,
                                  address=args.address, progress=progress, on_outcome=keep)
            except (RummyError, ValueError) as err:
                print(f"cannot simulate: {err}", file=sys.stderr)
                return 2
            except DatabaseError as err:
                print(f"stopped: cannot store a game in the database {shown_url(db_url or '')}"
                      f": {database_problem(err)}", file=sys.stderr)
                return 2
            except OSError as err:
                print(f"stopped: cannot write a record: {err.strerror or err}"
                      + (f": {err.filename}" if err.filename else ""), file=sys.stderr)
                return 2
    except Interrupted as stop:
        report = stop.report
        code = 130
        print(f"interrupted: the results of the {report.games} games played of "
              f"{config.total}", file=sys.stderr)
    finally:
        if store is not None:
            store.close()
    if args.json:
        print(json.dumps(report.to_json()))
    elif csv_file is not None:
        csv_file.write_text(report.to_csv(), encoding="utf-8")
        print(f"written to {csv_file}", file=sys.stderr)
    elif args.csv == "-":
        sys.stdout.write(report.to_csv())
    else:
        _print_report(report)
    if save_dir is not None:
        print(f"records kept in {save_dir}", file=sys.stderr)
    return code


def pace_text(deals: int, seconds: float) -> str:
    """The pace of a run in words: whole deals a second when fast, to a tenth when a slow
    bot plays a deal or two a second (never "1 deals/s")."""
    rate = deals / max(seconds, 1e-9)
    return f"{rate:,.0f} deals/s" if rate >= 10 else f"{rate:.1f} deals a second"


def _print_report(report: Any) -> None:
    from rich.table import Table

    config = report.config
    stopped = (f"; stopped after {report.games} of {config.total} games"
               if report.interrupted else "")
    pace = pace_text(report.deals, report.seconds)
    table = Table(title=f"{config.rules}, {config.players} players, {report.deals} deals "
                  f"({report.seconds:.1f} s, {pace}{stopped})")
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
    _out_console().print(table)


def _ladder(args: argparse.Namespace) -> int:
    try:
        # Every level is checked (and the rules, players, deals and the file to write)
        # before any game.
        if args.bots.strip() and any(not name for name in split_bots(args.bots, keep_empty=True)):
            raise UsageError(f"--bots {args.bots!r}: a bot name is empty")
        levels = split_bots(args.bots)
        plan_ladder(args.rules, args.players, levels, deals=args.deals, seed=args.seed)
        check_workers(args.workers)
        target = check_file(args.markdown, "--markdown") if args.markdown else None
    except (RummyError, ValueError) as err:
        print(f"cannot run the ladder: {flag_words(err, FLAGS)}", file=sys.stderr)
        return 2
    code = 0
    try:
        with _progress_bar(args.quiet or args.json) as bar:
            task = bar.add_task(f"ladder: {args.rules}, {args.players} players", total=None,
                                rate="")

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = run_ladder(args.rules, args.players, levels, deals=args.deals,
                                seed=args.seed, workers=args.workers, progress=progress)
    except LadderInterrupted as stop:
        if stop.result is None:
            print("interrupted before a game was played", file=sys.stderr)
            return 130
        result = stop.result
        code = 130
        print("interrupted: the ratings of the games played", file=sys.stderr)
    text = result.markdown()
    if args.json:
        print(json.dumps(result.to_json()))
    elif sys.stdout.isatty():
        from rich.markdown import Markdown

        _out_console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    if target is not None:
        target.write_text(text, encoding="utf-8")
        print(f"written to {target}", file=sys.stderr if args.json else sys.stdout)
    return code


def _open_store(url: str | None) -> Any:
    """The statistics store, or None after saying why the database cannot be used."""
    from rummykit.stats import Store, StoreError

    try:
        return Store.open(url)
    except StoreError as err:
        print(err, file=sys.stderr)
        return None


def _stats(args: argparse.Namespace) -> int:
    from rummykit.db import database_url

    url = database_url(args.db)
    missing = _missing_sqlite_file(url)
    if missing is not None:
        # Reading never makes a database: there is nothing to show.
        if args.json:
            print(json.dumps({"stats": []}))
        else:
            print(f"no statistics yet: there is no database at {missing} (games are "
                  "stored there by rummykit play, simulate --record-stats and serve; "
                  "--db or DATABASE_URL names another)")
        return 0
    from sqlalchemy.exc import DatabaseError

    from rummykit.stats import database_problem, shown_url

    store = _open_store(url)
    if store is None:
        return 2
    try:
        if args.rerate or args.ratings:
            return _ratings(args, store)
        lines = store.lines(preset=args.preset, players=args.players, player=args.player)
    except DatabaseError as err:
        print(f"cannot read the database {shown_url(url)}: {database_problem(err)}",
              file=sys.stderr)
        return 2
    finally:
        store.close()
    if args.json:
        print(json.dumps({"stats": [line.to_json() for line in lines]}))
        return 0
    if not lines:
        asked = [f"{name} {value}" for name, value in (
            ("preset", args.preset), ("players", args.players), ("player", args.player))
            if value is not None]
        print("no statistics " + (f"match {', '.join(asked)}" if asked else "stored yet")
              + f" (in {url})")
        return 0
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="rummykit statistics")
    for col in ("player", "preset", "players", "matches", "won", "win %", "deals won",
                "points/deal", "rummies", "best score", "accuracy"):
        table.add_column(col, justify="left" if col in ("player", "preset") else "right")
    for line in lines:
        table.add_row(
            escape(shown_name(line.player)) + (" (bot)" if line.kind == "bot" else "")
            + (f" #{line.player_id}" if line.player_id else ""),
            escape(line.preset),
            str(line.players), str(line.matches), str(line.matches_won), f"{line.win_pct:.1f}",
            f"{line.deals_won}/{line.deals}", f"{line.points_per_deal:.2f}", str(line.rummies),
            "-" if line.best_score is None else str(line.best_score),
            "-" if line.accuracy is None else f"{line.accuracy:.1f} ({line.reviewed})",
        )
    _out_console().print(table)
    return 0


def _ratings(args: argparse.Namespace, store: Any) -> int:
    """``stats --rerate`` and ``stats --ratings``: work the ratings out again, and show
    the leaderboards (people by name, and a number for those with a browser key)."""
    from rummykit.ratings import GROUPS, PROVISIONAL_MATCHES, group

    if args.preset is not None and args.preset not in PRESETS:
        print(f"no preset {args.preset!r}; the presets are: {', '.join(PRESETS)}",
              file=sys.stderr)
        return 2
    if args.players is not None and not 2 <= args.players <= 6:
        print(f"a rated match has 2 to 6 players, not {args.players}", file=sys.stderr)
        return 2
    if args.rerate:
        count = store.rerate()
        print(f"ratings worked out again from {count} rated matches",
              file=sys.stderr if args.json else sys.stdout)
        if not args.ratings:
            return 0
    presets = [args.preset] if args.preset is not None else list(PRESETS)
    groups = [group(args.players)] if args.players is not None else list(GROUPS)
    boards = [(p, g, store.board(p, g)) for p in presets for g in groups]
    boards = [(p, g, lines) for p, g, lines in boards if lines]
    if args.json:
        print(json.dumps({"ratings": [{"preset": p, "group": g,
                                       "lines": [line.to_json() for line in lines]}
                                      for p, g, lines in boards]}))
        return 0
    if not boards:
        print("no rated matches stored yet (rated tables in the browser rate them)")
        return 0
    from rich.markup import escape
    from rich.table import Table

    console = _out_console()
    for preset_name, grp, lines in boards:
        table = Table(title=f"ratings: {preset_name}, {grp} players")
        for col in ("#", "player", "rating", "matches"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for line in lines:
            table.add_row(str(line.place),
                          escape(shown_name(line.name)) + (" (bot)" if line.kind == "bot"
                                                           else ""),
                          f"{line.rating}" + ("?" if line.provisional else ""),
                          str(line.matches))
        console.print(table)
    print(f"? provisional: fewer than {PROVISIONAL_MATCHES} rated matches")
    return 0


def _missing_sqlite_file(url: str) -> str | None:
    """The path of a SQLite database file that does not exist (None for any other URL)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None  # opening it says what is wrong
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    return None if Path(name).exists() else str(Path(name).resolve())
