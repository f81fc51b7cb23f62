"""The `judge` command line (argparse, stdlib): one subcommand per job.

Each command imports what it uses inside its own function, and this module imports nothing of the judge's at
the top: `judge adjudicate` is started once per batch of cases by the programs that call it, and its start-up
should pay for the contract and the engine only, not for the maps, the database or the mail (tests/test_startup.py
keeps it so)."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager  # typing imports it anyway
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from sqlalchemy.orm import Session

    from judge.config import Config


def _adjudicate(args: argparse.Namespace) -> int:
    import gc

    # the engine's import makes only what lives as long as the process: the cycle collector, walking it again
    # and again while it is made, would find nothing to free (a twentieth of the start), so it waits, and what
    # was made is frozen out of its sight
    gc.disable()
    from judge.contract.stream import adjudicate_lines, adjudicate_one

    gc.freeze()
    gc.enable()
    sys.stdout.flush()
    if not args.jsonl:
        return adjudicate_one(sys.stdin.buffer, sys.stdout.buffer, sys.stderr, args.variant)
    # outcomes go out in blocks of 64 KiB whatever PYTHONUNBUFFERED says (unbuffered, each outcome was a write of
    # its own); adjudicate_lines flushes whenever the program feeding the cases may be waiting for one
    with open(sys.stdout.fileno(), "wb", buffering=1 << 16, closefd=False) as out:
        return adjudicate_lines(sys.stdin.buffer, out, args.variant)


def _map_check(args: argparse.Namespace) -> int:
    """Each argument is a map file, or the name of a map the judge ships (`standard`); none: every shipped map."""
    from pathlib import Path

    from judge.board.loader import check_map_file, map_names, maps_dir

    failed = 0
    for name in args.files or map_names():
        path = Path(name)
        if not path.is_file() and name in map_names():
            path = maps_dir() / f"{name}.toml"
        problems = check_map_file(path)
        if problems:
            failed += 1
            for problem in problems:
                print(f"{name}: {problem}")
        else:
            print(f"{name}: ok")
    return 1 if failed else 0


def _map_draw(args: argparse.Namespace) -> int:
    """A variant's starting position, or a case's or outcome's position, as SVG or PNG (judge/picture/); with
    `--history`, a game's outcomes as an animated GIF."""
    import json
    from pathlib import Path

    from judge.board.geometry import GeometryError
    from judge.contract import CaseError
    from judge.picture.animation import history_gif
    from judge.picture.command import drawing, render
    from judge.variants import UnknownVariant

    out = Path(args.output) if args.output else None
    fmt = "png" if out is not None and out.suffix.lower() == ".png" else "svg"
    if args.history and (out is None or out.suffix.lower() != ".gif"):
        print("judge map draw --history: the output file (-o) must end in .gif", file=sys.stderr)
        return 2
    if not args.history and out is not None and out.suffix.lower() not in (".png", ".svg"):
        print("judge map draw: the output file must end in .svg or .png", file=sys.stderr)
        return 2
    try:
        if args.history:
            data = history_gif(args.variant, _read_history(args.history), scale=args.scale)
        else:
            case = None
            if args.case:
                with open(args.case, encoding="utf-8") as handle:
                    case = json.load(handle)
                if not isinstance(case, dict):
                    raise CaseError("a case is a JSON object")
            picture = drawing(args.variant, case, with_orders=args.orders)
            data = render(picture, fmt, only_board=args.board, columns=args.columns, scale=args.scale)
    except (OSError, json.JSONDecodeError, CaseError, GeometryError, ValueError) as exc:
        print(f"judge map draw: {exc}", file=sys.stderr)
        return 2
    except UnknownVariant as exc:
        print(f"judge map draw: {exc.args[0]}", file=sys.stderr)
        return 2
    if out is None:
        sys.stdout.write(data.decode("utf-8"))
    else:
        out.write_bytes(data)
    return 0


def _variants(args: argparse.Namespace) -> int:
    from judge.variants import VARIANTS, get_variant

    if args.options:
        variant = get_variant(args.options)
        for name, option in variant.options.items():
            choices = ", ".join(str(c) for c in option.choices)
            kind = f"one of {choices}" if option.choices else "a whole number"
            print(f"{name}: {option.description}; {kind} (default {option.default})")
        return 0
    for variant in VARIANTS.values():
        print(f"{variant.name}: {variant.title}")
    return 0


def _db_upgrade(args: argparse.Namespace) -> int:
    from judge.config import load_config
    from judge.store.db import current_revision, open_database

    url = args.url or load_config(args.config).database_url
    db = open_database(url)
    print(f"database at revision {current_revision(db.engine)}")
    db.dispose()
    return 0


def _serve(args: argparse.Namespace) -> int:
    from judge.config import load_config
    from judge.serve import serve

    return serve(load_config(args.config))


@contextmanager
def _game_store(args: argparse.Namespace) -> Iterator[tuple[Config, Session]]:
    """The settings and one transaction on the judge's database, for the commands that look into it."""
    from judge.config import load_config
    from judge.store import open_database

    config = load_config(args.config)
    db = open_database(config.database_url)
    try:
        with db.transaction() as session:
            yield config, session
    finally:
        db.dispose()


def _outbox(args: argparse.Namespace) -> int:
    """The outgoing queue: what waits (and which process has it), what failed and why; retry or drop one."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from judge.mail.claims import alive
    from judge.mail.reading import read_mail
    from judge.store import OutboundMail, OutboundStatus

    with _game_store(args) as (_, s):
        if args.outbox_command == "list":
            shown = (OutboundStatus.QUEUED, OutboundStatus.FAILED)
            rows = s.scalars(select(OutboundMail).where(OutboundMail.status.in_(shown)).order_by(OutboundMail.id))
            for listed in rows:
                owner = ""
                if listed.claimed_by and listed.status == OutboundStatus.QUEUED:
                    state = {True: "running", False: "gone", None: "elsewhere"}[alive(listed.claimed_by)]
                    owner = f"claimed by {listed.claimed_by} ({state})"
                to = ", ".join(map(str, listed.recipients))
                why = listed.last_error or ""
                print(f"{listed.id:6}  {listed.status:7} {listed.kind:12} {to:30} {listed.attempts} try  {owner}"
                      f"{why}"[:200])  # fmt: skip
            return 0
        row = s.get(OutboundMail, args.id)
        if row is None:
            print(f"judge outbox: no outgoing mail {args.id}", file=sys.stderr)
            return 1
        if args.outbox_command == "show":
            mail = read_mail(row.message, own_address="")
            print(f"outgoing mail {row.id} ({row.kind}): {row.status}, {row.attempts} attempt(s)")
            print(f"to: {', '.join(map(str, row.recipients))}")
            print(f"claimed by: {row.claimed_by or '-'}; with the relay since: {row.sending_since or '-'}")
            print(f"next try: {row.next_try_at}; last error: {row.last_error or '-'}")
            print(f"subject: {mail.subject}")
            print("\n".join(mail.lines))
            return 0
        if row.status == OutboundStatus.SENT:
            print(f"judge outbox: mail {args.id} was sent at {row.sent_at}", file=sys.stderr)
            return 1
        if args.outbox_command == "retry":
            row.status = OutboundStatus.QUEUED
            row.attempts = 0
            row.next_try_at = datetime.now(UTC)
            row.claimed_by = None
            row.sending_since = None
            print(f"outgoing mail {row.id} is queued again")
            return 0
        row.status = OutboundStatus.DROPPED
        print(f"outgoing mail {row.id} is dropped: it will not be sent")
        return 0


def _shunt(args: argparse.Namespace) -> int:
    from sqlalchemy import select

    from judge.mail.reading import read_mail
    from judge.render.dates import when_text
    from judge.store import InboundMail, MailStatus

    with _game_store(args) as (config, s):
        if args.shunt_command == "list":
            rows = s.scalars(
                select(InboundMail).where(InboundMail.status == MailStatus.SHUNTED).order_by(InboundMail.id)
            )
            for listed in rows:
                when = when_text(listed.received_at)
                print(f"{listed.id:6}  {when}  {listed.envelope_from or '-':30}  {listed.error or ''}"[:160])
            return 0
        row = s.get(InboundMail, args.id)
        if row is None:
            print(f"judge shunt: no message {args.id}", file=sys.stderr)
            return 1
        if args.shunt_command == "show":
            mail = read_mail(row.raw, own_address=config.address)
            print(f"message {row.id}: {row.status}, {row.attempts} attempt(s), from {mail.sender}")
            print(f"error: {row.error}")
            print(f"subject: {mail.subject}")
            print("\n".join(mail.lines))
            return 0
        if row.status != MailStatus.SHUNTED:
            print(f"judge shunt: message {args.id} is {row.status}, not shunted", file=sys.stderr)
            return 1
        row.status = MailStatus.RECEIVED
        row.attempts = 0
        print(f"message {row.id} is queued again")
        return 0


def _status(args: argparse.Namespace) -> int:
    """What the judge has to do, read from its database: mail waiting to be handled, replies waiting to go out,
    shunted and failed mail, the games and the next deadline. A judge that is up and idle shows nothing waiting."""
    from sqlalchemy import func, select

    from judge.config import load_config
    from judge.render.dates import when_text
    from judge.store import Game, GameStatus, InboundMail, MailStatus, OutboundMail, OutboundStatus, open_database

    config = load_config(args.config)
    db = open_database(config.database_url)
    try:
        with db.transaction() as s:
            inbound = dict(s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all())
            outbound = dict(s.execute(select(OutboundMail.status, func.count()).group_by(OutboundMail.status)).all())
            games = dict(s.execute(select(Game.status, func.count()).group_by(Game.status)).all())
            deadline = s.scalar(select(func.min(Game.deadline)).where(Game.status == GameStatus.ACTIVE))
        waiting = inbound.get(MailStatus.RECEIVED, 0)
        queued = outbound.get(OutboundStatus.QUEUED, 0)
        print(f"database: {config.database_url.split('@')[-1]}")
        handled, ignored = inbound.get(MailStatus.PROCESSED, 0), inbound.get(MailStatus.IGNORED, 0)
        shunted = inbound.get(MailStatus.SHUNTED, 0)
        print(f"mail in: {waiting} waiting, {handled} handled, {ignored} ignored, {shunted} shunted")
        sent, failed = outbound.get(OutboundStatus.SENT, 0), outbound.get(OutboundStatus.FAILED, 0)
        print(f"mail out: {queued} queued, {sent} sent, {failed} failed")
        print("games: " + (", ".join(f"{n} {status}" for status, n in sorted(games.items())) or "none"))
        print(f"next deadline: {when_text(deadline)}" if deadline else "next deadline: none")
        print("idle: nothing waiting" if not waiting and not queued else "busy: mail waiting")
        return 0
    finally:
        db.dispose()


def _web_export(args: argparse.Namespace) -> int:
    """The read-only site as static files (docs/web.md)."""
    from pathlib import Path

    from judge.config import load_config
    from judge.game import Games
    from judge.store import open_database
    from judge.web.export import ExportRefused, export_site
    from judge.web.site import site_info

    config = load_config(args.config)
    db = open_database(config.database_url)
    try:
        out = Path(args.directory)
        done = export_site(Games(db), site_info(config), out, config.web.base_url, only=args.game)
    except ExportRefused as refused:
        print(f"judge web export: {refused}", file=sys.stderr)
        return 2
    finally:
        db.dispose()
    private = f", {done.private} private game(s) listed only" if done.private else ""
    removed = f", {done.removed} left from before removed" if done.removed else ""
    print(f"{done.games} game(s) exported{private}: {done.files} files{removed}; "
          f"open {(out / 'index.html').resolve()}")  # fmt: skip
    return 0


def _demo(args: argparse.Namespace) -> int:
    import logging

    from judge.demo import run_demo
    from judge.variants import UnknownVariant, get_variant

    try:
        get_variant(args.variant)
    except UnknownVariant as exc:
        print(f"judge demo: {exc.args[0]}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from pathlib import Path

    return run_demo(args.variant, phases=args.phases, seed=args.seed, site=Path(args.site) if args.site else None)


def _adjudicate_arguments(adj: argparse.ArgumentParser) -> None:
    adj.add_argument("--variant", help="override the case's variant")
    adj.add_argument("--jsonl", action="store_true", help="one case per input line, one outcome per output line")
    adj.set_defaults(run=_adjudicate)


def _read_history(path: str) -> list[dict[str, Any]]:
    """`--history FILE`: a game's outcomes in the order played, as a JSON list or one outcome a line."""
    import json

    from judge.contract import CaseError

    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
    if raw.lstrip().startswith("["):
        outcomes = json.loads(raw)
    else:
        outcomes = [json.loads(line) for line in raw.splitlines() if line.strip()]
    if not isinstance(outcomes, list) or not all(isinstance(o, dict) for o in outcomes):
        raise CaseError("a history is a list of judge adjudicate outcomes (JSON objects)")
    return outcomes


def _map_arguments(maps: argparse.ArgumentParser) -> None:
    map_sub = maps.add_subparsers(dest="map_command", required=True)
    check = map_sub.add_parser("check", help="check map files and print every problem")
    check.add_argument("files", nargs="*", help="map files or shipped map names (default: every shipped map)")
    check.set_defaults(run=_map_check)
    draw = map_sub.add_parser("draw", help="draw a variant's starting position, or a case's or outcome's (SVG, PNG)")
    draw.add_argument("variant", help="the variant (judge variants lists them)")
    draw.add_argument("--case", metavar="FILE", help="a judge adjudicate case or outcome (JSON) to draw")
    draw.add_argument("--orders", action="store_true", help="draw the case's orders as arrows with their results")
    draw.add_argument("-o", "--output", metavar="FILE", help="FILE.svg or FILE.png (default: SVG on standard output)")
    draw.add_argument("--board", type=int, help="on a variant of several boards, draw only this board")
    draw.add_argument("--columns", type=int, help="on a variant of several boards, boards side by side (default 4)")
    draw.add_argument("--scale", type=float, help="PNG pixels per map unit (default 0.8; less for several boards)")
    draw.add_argument(
        "--history", metavar="FILE", help="a list of outcomes (JSON list or one a line): the game as an animated GIF"
    )
    draw.set_defaults(run=_map_draw)


def _db_arguments(db: argparse.ArgumentParser) -> None:
    db_sub = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_sub.add_parser("upgrade", help="create or upgrade the database schema")
    upgrade.add_argument("--url", help="database URL (default: from the settings)")
    upgrade.set_defaults(run=_db_upgrade)


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.set_defaults(run=_serve)


def _shunt_arguments(shunt: argparse.ArgumentParser) -> None:
    shunt_sub = shunt.add_subparsers(dest="shunt_command", required=True)
    shunt_sub.add_parser("list", help="list shunted messages").set_defaults(run=_shunt)
    for verb, text in (("show", "show a shunted message and its error"), ("retry", "queue a shunted message again")):
        one = shunt_sub.add_parser(verb, help=text)
        one.add_argument("id", type=int)
        one.set_defaults(run=_shunt)


def _outbox_arguments(outbox: argparse.ArgumentParser) -> None:
    outbox_sub = outbox.add_subparsers(dest="outbox_command", required=True)
    outbox_sub.add_parser("list", help="list queued and failed outgoing mail").set_defaults(run=_outbox)
    for verb, text in (
        ("show", "show an outgoing mail, its claim and its last error"),
        ("retry", "queue an outgoing mail again now (a failed one too)"),
        ("drop", "take an outgoing mail out of the queue"),
    ):
        one = outbox_sub.add_parser(verb, help=text)
        one.add_argument("id", type=int)
        one.set_defaults(run=_outbox)


def _status_arguments(status: argparse.ArgumentParser) -> None:
    status.set_defaults(run=_status)


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("variant", nargs="?", default="standard", help="the variant to play (default: standard)")
    demo.add_argument("--phases", type=int, default=4, help="how many phases to play (default: 4)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the players' orders (default: 1)")
    demo.add_argument("--site", metavar="DIR", help="where to write the game's web pages (default: a new folder)")
    demo.set_defaults(run=_demo)


def _web_arguments(web: argparse.ArgumentParser) -> None:
    web_sub = web.add_subparsers(dest="web_command", required=True)
    export = web_sub.add_parser("export", help="write the site as static files (private games listed only)")
    export.add_argument("directory", help="the folder to write (made if missing)")
    export.add_argument("--game", help="only this game's pages (and the list)")
    export.set_defaults(run=_web_export)


def _records_arguments(records: argparse.ArgumentParser) -> None:
    records_sub = records.add_subparsers(dest="records_command", required=True)
    rebuild = records_sub.add_parser(
        "rebuild", help="work out every player's record and rating again from the games' events, and print them"
    )
    rebuild.add_argument("--json", action="store_true", help="one JSON object a player, a line")
    rebuild.set_defaults(run=_records_rebuild)


def _records_rebuild(args: argparse.Namespace) -> int:
    """Every player's record and ratings from every game's stored events (docs/ratings.md): after a migration or an
    import, what the judge now shows. Records are never stored (each read works them out from the events), so this
    reads what every WHOIS and page would, all at once, and prints it."""
    import json
    import time

    from judge.config import load_config
    from judge.game.ratings import all_ratings
    from judge.game.records import all_records, forget_walks
    from judge.store import open_database

    config = load_config(args.config)
    db = open_database(config.database_url)
    started = time.perf_counter()
    forget_walks()
    try:
        with db.transaction() as s:
            records = all_records(s)
            ratings = all_ratings(s)
    finally:
        db.dispose()
    took = time.perf_counter() - started
    for pid, record in sorted(records.items(), key=lambda item: item[1].name.casefold()):
        rated = {family: round(scale[pid].rating, 1) for family, scale in sorted(ratings.items()) if pid in scale}
        total = record.total
        if args.json:
            line = {"player": record.name, "record": total.as_json(), "ratings": rated,
                    "by_variant": {v: f.as_json() for v, f in sorted(record.by_variant.items())}}  # fmt: skip
            print(json.dumps(line, ensure_ascii=False))
            continue
        shown = ", ".join(f"{family} {value:.0f}" for family, value in rated.items()) or "unrated"
        print(f"{record.name}: {total.started} started, {total.finished} finished, dedication {total.dedication}, "
              f"on time {total.on_time_ratio:.2f}, civil disorder {total.resignation_ratio:.2f}; {shown}")  # fmt: skip
    if not args.json:
        print(f"{len(records)} player(s), {sum(len(scale) for scale in ratings.values())} rating(s) in {took:.2f} s")
    return 0


def _import(args: argparse.Namespace) -> int:
    """A game moved here from an njudge judge: created at the position its results mails leave (issue 45)."""
    from datetime import UTC, datetime
    from pathlib import Path

    from judge.config import load_config
    from judge.game.errors import GameError
    from judge.game.layer import Games
    from judge.mail.notifier import Notifier
    from judge.mail.outbox import queue_rows
    from judge.njudge.importer import import_game, texts_of
    from judge.njudge.reader import ReadError
    from judge.store import open_database

    players: dict[str, str] = {}
    for given in args.player or []:
        power, equals, address = given.partition("=")
        if not equals or not power.strip() or not address.strip():
            print(f"--player {given}: write it POWER=ADDRESS (England=ann@example.org)", file=sys.stderr)
            return 2
        players[power.strip()] = address.strip()
    config = load_config(args.config)
    db = open_database(config.database_url)
    try:
        with db.transaction() as session:
            games = Games(db).bound(session)
            try:
                done = import_game(
                    games,
                    texts_of([Path(p) for p in args.mails]),
                    name=args.game,
                    gm=args.gm,
                    password=args.password,
                    players=players,
                    variant=args.variant,
                )
            except (GameError, ReadError, OSError) as error:
                print(f"judge import: {error}", file=sys.stderr)
                return 1
            queue_rows(session, Notifier(config).rows(games.take_events(), now=datetime.now(UTC)))
    finally:
        db.dispose()
    phase = done.phase
    print(f"{done.game} ({done.variant}) imported at {phase['season']} {phase['year']} {phase['type']}.")
    if done.started:
        print("Every power has its player: the game has started from the imported position.")
    else:
        print(f"Its players join with JOIN {done.game} <password> <power>; it starts when the last has joined.")
    return 0


def _import_arguments(imp: argparse.ArgumentParser) -> None:
    imp.add_argument("game", help="the game's name here")
    imp.add_argument("mails", nargs="+", help="the game's njudge mails in order: text files, messages or an mbox")
    imp.add_argument("--gm", required=True, help="the GM's address (registered here)")
    imp.add_argument("--password", required=True, help="the password the players join with")
    imp.add_argument("--player", action="append", metavar="POWER=ADDRESS", help="a power's player (registered)")
    imp.add_argument("--variant", help="the variant, where the mails' :: Judge: line does not name it")
    imp.set_defaults(run=_import)


def _variants_arguments(var: argparse.ArgumentParser) -> None:
    var.add_argument("--options", metavar="NAME", help="list the options of this variant")
    var.set_defaults(run=_variants)


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "adjudicate": ("adjudicate one phase given as JSON on standard input", _adjudicate_arguments),
    "map": ("map files", _map_arguments),
    "db": ("the game database", _db_arguments),
    "serve": ("run the judge: mail intake, processing, sending and deadlines", _serve_arguments),
    "shunt": ("mail that could not be processed", _shunt_arguments),
    "outbox": ("the outgoing queue: waiting and failed mail", _outbox_arguments),
    "status": ("what the judge has waiting: mail in and out, shunted mail, games", _status_arguments),
    "demo": ("play a scripted game by mail on embedded defaults and print the results", _demo_arguments),
    "variants": ("list the variants, or one variant's options", _variants_arguments),
    "web": ("the read-only web site: export it as static files", _web_arguments),
    "records": ("the players' records and ratings, worked out from the games' events", _records_arguments),
    "import": ("start a game from an njudge game's results mails (a game moved here)", _import_arguments),
}
"""each command: its help line, and what adds its own arguments"""


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, given the terminal's width: left to find it, argparse imports shutil (and with
    it zlib, bz2 and lzma) for that one number when it builds each parser, 3 ms of every start."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    """A parser whose help is formatted by `_Formatter` (its subcommands' parsers too: argparse makes them of the
    class of the parser that adds them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command with its arguments; given `command`, the others are listed (usage and help read the same)
    but get no arguments of their own. argparse pays per parser and per argument (a help formatter and a few
    translation look-ups each): building every command took about 4 ms of each `judge adjudicate` start,
    building the one it runs takes about 1.5 ms."""
    parser = _Parser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument("--config", help="settings file (default: judge.toml, or $JUDGE_CONFIG)")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (text, add_arguments) in COMMANDS.items():
        one = sub.add_parser(name, help=text)
        if command is None or command == name:
            add_arguments(one)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    # a command named first is the one argparse runs (nothing before it can take it as a value): build only it
    command = arguments[0] if arguments and arguments[0] in COMMANDS else None
    args = build_parser(command).parse_args(arguments)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
