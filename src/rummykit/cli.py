"""The ``rummykit`` command: play in the terminal, replay records, review them, read the
rules.

Exit codes of ``rummykit replay``: 0 when every action is legal and any written result
matches, 1 when an action is illegal or a result differs, 2 when the file is not a valid
record. ``rummykit analyze``: 0 when reviewed, 2 when the record is not one to review
(it does not read or replay), 130 when stopped with Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
from collections.abc import Callable, Sequence

from rummykit import record as records
from rummykit.analysis import Budget, Review, ReviewError, review
from rummykit.bots import BOTS, make_bot
from rummykit.cliutil import HelpFormatter, UsageError, check_database, flag_words
from rummykit.engine.scoring import describe_end
from rummykit.errors import OptionError, RecordError, RulesError
from rummykit.plain import play
from rummykit.remote import LinkError, RemoteError, parse_link, play_at
from rummykit.rules import OPTION_HELP, PRESET_SOURCES, PRESET_SUMMARIES, PRESETS, Rules
from rummykit.rules.options import option_text
from rummykit.server.workers import (
    Wire,
    allowed_hosts,
    freeze_startup,
    listen,
    serve_workers,
    server_config,
)
from rummykit.session import review_lines, review_tables
from rummykit.sim.cli import add_commands

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (| head): end quietly, and let Python's last flush of
        # stdout go nowhere instead of printing another error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("rummykit")
    except Exception:  # not installed (run from a source tree)
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummykit", description="Rummy in every rule set people play: play in the "
        "terminal, replay records, simulate bots, serve the web app.",
        formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"rummykit {_version()}")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")

    play = sub.add_parser(
        "play", help="play a match in the terminal against computer players",
        description="Play a match in the terminal against computer players. In a terminal "
        "with the tui extra installed this opens the terminal app; --plain (or input that "
        "is not a terminal) keeps the line interface.", formatter_class=HelpFormatter)
    play.add_argument("--rules", default="basic",
                      help="a preset, with options if wanted: 'classic(melds_per_turn=many)'")
    play.add_argument("--players", type=int, default=2, help="2 to 6 players, you included")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of the shuffles (default: a random one, told at the end)")
    play.add_argument("--name", default="You", help="your name at the table")
    play.add_argument("--bots", default=None,
                      help="the other seats' bots, one level or a comma list (fewer than the "
                      f"seats repeat the last): {', '.join(BOTS)}; options in parentheses: "
                      "'master(think=0.5)' (default random; with --resume, the record's)")
    play.add_argument("--save", metavar="FILE",
                      help="keep the game as a record in FILE, written after every action")
    play.add_argument("--resume", metavar="FILE",
                      help="go on with the game saved in FILE (and keep saving it there "
                      "unless --save names another file)")
    play.add_argument("--plain", action="store_true",
                      help="the line interface even in a terminal")
    play.add_argument("--db", metavar="URL", help="statistics database URL (default: "
                      "DATABASE_URL or a SQLite file in your data directory)")
    play.add_argument("--no-stats", action="store_true",
                      help="do not store the finished match in the statistics")
    play.set_defaults(handler=_play)

    rep = sub.add_parser("replay", help="replay a game record and check it",
                         formatter_class=HelpFormatter)
    rep.add_argument("file", help="the record (JSON)")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")
    rep.set_defaults(handler=_replay)

    analyze = sub.add_parser(
        "analyze", help="review a match: where each player lost points, and what was better",
        description="Review every decision of a game record with the master bot's search, "
        "from the deciding player's view at that moment (never a card they could not see): "
        "each player's accuracy, points lost per decision, and their inaccuracies, mistakes "
        "and blunders with the better action and why. Progress goes to stderr; Ctrl-C "
        "stops.", formatter_class=HelpFormatter)
    analyze.add_argument("file", metavar="RECORD", help="the record (JSON)")
    analyze.add_argument("--seat", type=int, metavar="N",
                         help="review only this seat's decisions (0 is the first player)")
    analyze.add_argument("--json", action="store_true",
                         help="print the review as JSON (docs/review.md gives its shape)")
    analyze.add_argument("--budget", type=_budget, default=Budget(),
                         help="the search's budget per decision: imagined deals (96), "
                         "seconds (0.5s) or both (96,2s); more is slower and less noisy")
    analyze.add_argument("--jobs", type=_in_range(int, 1, 64, "a number of processes"),
                         default=None, metavar="N",
                         help="worker processes (default: every core of this machine)")
    analyze.set_defaults(handler=_analyze)

    bot = sub.add_parser(
        "bot", help="play a seat at a server's table with a computer player",
        description="Take the seat of LINK (a seat's link, as the table's maker shares it: "
        "http://host:port/t/TABLE?token=TOKEN) at a rummykit server and play the match with "
        "a computer player, as a person would at that seat: it hears only what the seat "
        "may see. A lost connection is opened again. Each deal's end is told on stderr; "
        "Ctrl-C leaves the table (the server's stand-in plays on for the seat).",
        formatter_class=HelpFormatter)
    bot.add_argument("link", metavar="LINK", help="the seat's link")
    bot.add_argument("--bot", default="expert",
                     help=f"the computer player: {', '.join(BOTS)}; options in parentheses: "
                     "'master(think=0.5)'")
    bot.add_argument("--key", default=None,
                     help="the key that claims the seat (22 to 64 letters, digits, - or _; "
                     "default: a new random one); needed for a ?seat=N link")
    bot.add_argument("--seed", type=int, default=None,
                     help="seed of the computer player's random choices")
    bot.add_argument("--json", action="store_true",
                     help="print the match's outcome as JSON")
    bot.set_defaults(handler=_bot)

    add_commands(sub)

    serve = sub.add_parser("serve", help="start the web app", formatter_class=HelpFormatter)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to serve on (default 127.0.0.1: this machine only; "
                       "0.0.0.0: every address)")
    serve.add_argument("--port", type=_port, default=8000, help="port, 1 to 65535")
    serve.add_argument("--db", metavar="URL", help="database URL (default: DATABASE_URL or "
                       "a SQLite file in your data directory)")
    serve.add_argument("--bot-delay", type=float, default=0.6,
                       help="seconds a bot waits before it moves, so people see it play")
    serve.add_argument("--think", type=_seconds, default=1.0,
                       help="seconds the master bot thinks over each decision")
    serve.add_argument("--allow-seed", action="store_true",
                       help="let a table's creator choose its seed (for tests and demos: "
                       "the seed shows every card)")
    serve.add_argument("--api-docs", action="store_true",
                       help="serve the API's OpenAPI pages at /docs and /openapi.json")
    serve.add_argument("--tables-per-client", type=int, default=30, metavar="N",
                       help="tables one client address may open in ten minutes")
    serve.add_argument("--timer-unit", type=_seconds, default=1.0, metavar="S",
                       help="real seconds in a second of a table's turn timer (less only "
                       "for tests and demonstrations)")
    serve.add_argument("--header-timeout", type=_seconds, default=10.0, metavar="S",
                       help="seconds a client has to send a request's headers")
    serve.add_argument("--trust-proxy", metavar="ADDRESSES",
                       default=os.environ.get("FORWARDED_ALLOW_IPS"),
                       help="comma-separated addresses of the reverse proxies whose "
                       "X-Forwarded-For names the visitor (default: FORWARDED_ALLOW_IPS, "
                       "else none: every client is its own connection's address)")
    serve.add_argument("--allowed-hosts", metavar="NAMES",
                       help="comma-separated host names the server answers to (the Host "
                       "header; '*' for any). Default: localhost, 127.0.0.1 and ::1 when "
                       "serving on a loopback address, else any")
    serve.add_argument("--ws-deflate", action="store_true",
                       help="offer WebSocket compression (permessage-deflate) to browsers: "
                       "messages about a quarter the size, for an eighth of the server's "
                       "throughput (off by default)")
    serve.add_argument("--access-log", action="store_true",
                       help="write a line on stderr for each request: the time, the method, "
                       "the path (never its query string) and the status")
    serve.add_argument("--review-budget", type=_budget, default=Budget(), metavar="BUDGET",
                       help="the search's budget per decision of a game review: imagined "
                       "deals (96), seconds (0.5s) or both (96,2s)")
    serve.add_argument("--reviews", type=_in_range(int, 1, 64, "a number of reviews"),
                       default=1, metavar="N",
                       help="game reviews run at once (the others wait in a queue)")
    serve.add_argument("--review-jobs", type=_in_range(int, 1, 64, "a number of processes"),
                       default=2, metavar="N", help="worker processes of each game review")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="server processes; more than one needs a PostgreSQL database "
                       "(--db postgresql+psycopg://...)")
    serve.set_defaults(handler=_serve)

    rules = sub.add_parser("rules", help="list the presets and options",
                           formatter_class=HelpFormatter)
    rules.add_argument("preset", nargs="?", help="show one preset (with options) in full")
    rules.add_argument("--json", action="store_true", help="print as JSON")
    rules.set_defaults(handler=_rules)
    return parser


def _in_range(kind: type[int] | type[float], low: float, high: float, what: str,
              unit: str = "") -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``."""
    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range ({low} to {high}{unit})")
        return value
    return convert


def _budget(text: str) -> Budget:
    """An argparse type: a review's budget per decision (:meth:`Budget.parse`)."""
    try:
        return Budget.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


_port = _in_range(int, 1, 65535, "a port number")
"""A TCP port: 1 to 65535."""
_seconds = _in_range(float, 0.01, 60, "a number of seconds", " seconds")
"""A think time: a number of seconds from 0.01 to 60."""


# -- bot -----------------------------------------------------------------------------


def _bot(args: argparse.Namespace) -> int:
    try:
        link = parse_link(args.link)
        player = make_bot(args.bot)
    except ValueError as err:
        print(f"rummykit bot: {err}", file=sys.stderr)
        return 2
    try:
        outcome = play_at(link, player, key=args.key, rng=random.Random(args.seed),
                          say=lambda line: print(line, file=sys.stderr, flush=True))
    except LinkError as err:
        print(f"rummykit bot: {err}", file=sys.stderr)
        return 2
    except RemoteError as err:
        print(f"rummykit bot: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted: the seat is handed to the table's stand-in", file=sys.stderr)
        return 130
    names = outcome.names
    if args.json:
        print(json.dumps({"seat": outcome.seat, "names": list(names),
                          "totals": list(outcome.totals), "winner": outcome.winner,
                          "ended_by": outcome.ended_by, "deals": outcome.deals,
                          "moves": outcome.moves, "reconnects": outcome.reconnects,
                          "refused": outcome.refused, "errors": outcome.errors}))
        return 0
    winner = "no single winner" if outcome.winner is None else f"{names[outcome.winner]} wins"
    if outcome.ended_by is not None:
        winner = f"ended by a vote after someone left; {winner}"
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, outcome.totals, strict=True))
    print(f"match over after {outcome.deals} deal{'s' if outcome.deals != 1 else ''}: "
          f"{winner}; totals {totals} ({player.name} played seat {outcome.seat}, "
          f"{names[outcome.seat]}, {outcome.moves} moves)")
    return 0


# -- replay --------------------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    try:
        rec = records.load(args.file)
        outcome = records.replay(rec)
    except RecordError as err:
        print(f"not a valid record: {err}", file=sys.stderr)
        return 2
    except records.ReplayError as err:
        print(err, file=sys.stderr)
        return 1
    data = outcome.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    match = outcome.match
    for d, (result, deal) in enumerate(zip(data["deals"], match.finished, strict=True), 1):
        assert deal.result is not None
        winner = (f"stalemate ({describe_end(deal.result, match.rules, match.names)})"
                  if result["winner"] is None else match.names[result["winner"]])
        rummy = " (rummy)" if result["rummy"] else ""
        print(f"deal {d}: {winner}{rummy}, points {result['points']}")
    if outcome.mid_deal:
        state = data["state"]
        print(f"stopped in deal {state['deal']}: {match.names[state['to_move']]} to "
              f"{state['phase']}; hands {state['hand_sizes']}, stock {state['stock']}, "
              f"pile top {state['pile_top']}, table {state['table']}")
    totals = ", ".join(f"{n} {t}" for n, t in zip(match.names, match.totals, strict=True))
    status = (f"winner {match.names[match.winner]}" if match.winner is not None
              else "no winner" if match.is_over else "the match goes on")
    print(f"totals: {totals}; {status}")
    return 0


# -- analyze -------------------------------------------------------------------------


def _analyze(args: argparse.Namespace) -> int:
    try:
        rec = records.load(args.file)
    except RecordError as err:
        print(f"not a valid record: {err}", file=sys.stderr)
        return 2
    if args.seat is not None and not 0 <= args.seat < len(rec.players):
        print(f"--seat {args.seat}: the record has seats 0 to {len(rec.players) - 1}",
              file=sys.stderr)
        return 2
    seats = None if args.seat is None else [args.seat]
    rich = _has_rich()
    try:
        if rich and sys.stderr.isatty():
            found = _review_with_bar(rec, args.budget, seats, args.jobs)
        else:  # a file or a pipe (or no Rich): a line now and then
            found = review(rec, budget=args.budget, seats=seats, jobs=args.jobs,
                           progress=_progress_lines)
    except ReviewError as err:
        print(f"not a valid record: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the review was stopped", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(found.to_json()))
    elif rich:
        from rich.console import Console

        out = Console() if sys.stdout.isatty() else Console(width=160)
        for table in review_tables(found):
            out.print(table)
    else:
        print("\n".join(review_lines(found)))
    return 0


def _has_rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def _progress_lines(done: int, total: int) -> None:
    """Progress on stderr where it is not a terminal: a line at each tenth of the way."""
    if done == total or (total >= 10 and done % (total // 10) == 0) or total < 10:
        print(f"reviewed {done} of {total} decisions", file=sys.stderr, flush=True)


def _review_with_bar(rec: records.Record, budget: Budget, seats: list[int] | None,
                     jobs: int | None) -> Review:
    """The review, with a progress bar on stderr (gone when it is done)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task("review", total=None)

        def shown(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return review(rec, budget=budget, seats=seats, jobs=jobs, progress=shown)


# -- serve ---------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from rummykit.server.app import create_app
    except ImportError:
        print("the web app needs its extra: pip install 'rummykit[web]'", file=sys.stderr)
        return 2
    from sqlalchemy.exc import ArgumentError, DatabaseError

    from rummykit.stats import database_problem

    if not 1 <= args.workers <= 64:
        print("--workers is 1 to 64", file=sys.stderr)
        return 2
    try:
        check_database(args.db)
    except (UsageError, OptionError) as err:
        print(f"cannot serve: {err}", file=sys.stderr)
        return 2
    hosts = allowed_hosts(args.allowed_hosts, args.host)
    if hosts is None:
        print("--allowed-hosts names hosts such as example.org,www.example.org (or '*')",
              file=sys.stderr)
        return 2
    options = {"database_url": args.db, "bot_delay": args.bot_delay,
               "allow_seed": args.allow_seed, "think": args.think,
               "api_docs": args.api_docs, "tables_per_client": args.tables_per_client,
               "timer_unit": args.timer_unit, "allowed_hosts": hosts,
               "review_budget": str(args.review_budget), "reviews_at_once": args.reviews,
               "review_jobs": args.review_jobs}
    wire = Wire(header_timeout=args.header_timeout, trusted_proxies=args.trust_proxy,
                access_log=args.access_log, deflate=args.ws_deflate)
    if args.workers > 1:
        from rummykit.db import connect

        try:
            # Migrated once, here, before the workers start.
            engine = connect(args.db)
        except (ArgumentError, DatabaseError, ValueError) as err:
            print(f"cannot open the database: {database_problem(err)}", file=sys.stderr)
            return 2
        dialect = engine.dialect.name
        engine.dispose()
        if dialect != "postgresql":
            print(f"--workers {args.workers} needs a PostgreSQL database (--db "
                  "postgresql+psycopg://USER@HOST/NAME or DATABASE_URL): the processes "
                  f"tell each other what changed through it; this one is {dialect}",
                  file=sys.stderr)
            return 2
        return serve_workers(options, workers=args.workers, host=args.host, port=args.port,
                             wire=wire)
    try:
        app = create_app(**options)
    except (ArgumentError, DatabaseError, ValueError) as err:
        print(f"cannot open the database: {database_problem(err)}", file=sys.stderr)
        return 2
    listener = listen(args.host, args.port)
    if listener is None:
        return 2
    address = f"http://{args.host}:{args.port}/"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:  # (listening now: the address works)
                print(f"rummykit: open {address} in a browser", flush=True)

    config = server_config(app, wire)
    freeze_startup()
    with listener:
        Server(config).run(sockets=[listener])
    return 0


# -- rules ---------------------------------------------------------------------------


def _rules(args: argparse.Namespace) -> int:
    if args.preset:
        try:
            rules = Rules.parse(args.preset)
        except RulesError as err:
            print(err, file=sys.stderr)
            return 2
        opts = {name: getattr(rules, name) for name in OPTION_HELP}
        if args.json:
            print(json.dumps({"rules": str(rules), "options": {
                k: list(v) if isinstance(v, tuple) else v for k, v in opts.items()}}))
            return 0
        print(f"{rules}: {PRESET_SOURCES[rules.preset_name]}")
        for name in opts:
            print(f"  {name} = {option_text(rules, name)}\n      {OPTION_HELP[name]}")
        return 0
    if args.json:
        print(json.dumps({"presets": {n: PRESET_SOURCES[n] for n in PRESETS},
                          "options": OPTION_HELP}))
        return 0
    print("Presets (the game each plays, then its rules in one line):")
    for name in PRESETS:
        print(f"  {name:14} {PRESET_SOURCES[name]}: {PRESET_SUMMARIES[name]}")
    print("Show one with its every option: rummykit rules PRESET")
    return 0


# -- play ----------------------------------------------------------------------------

PLAY_FLAGS = {"name": "--name", "bots": "--bots", "save": "--save", "resume": "--resume"}
"""The flag of each option of a local game that a library error may name."""


def _play_words(err: BaseException) -> str:
    return flag_words(err, PLAY_FLAGS)


def _play(args: argparse.Namespace) -> int:
    stats_url: str | None = None
    if not args.no_stats:
        try:
            stats_url = check_database(args.db) if _has_stats() else ""
        except (UsageError, OptionError) as err:
            print(f"cannot start: {err}", file=sys.stderr)
            return 2
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from rummykit.tui import run_app
        except ImportError:
            pass  # the tui extra is not installed: the line interface
        else:
            return run_app(rules=args.rules, players=args.players, seed=args.seed,
                           name=args.name, bots=args.bots, save=args.save, resume=args.resume,
                           stats_url=stats_url, words=_play_words)
    return play(args.rules, args.players, args.seed, args.name, args.bots, args.save,
                sys.stdin, sys.stdout, stats_url=stats_url, resume=args.resume,
                words=_play_words)


def _has_stats() -> bool:
    try:
        import sqlalchemy  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
