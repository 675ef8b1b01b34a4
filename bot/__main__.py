"""`python -m bot`: the entry point of Tapis.

    python -m bot                 the Discord bot if DISCORD_TOKEN is set, else the sandbox
    python -m bot sandbox         the local sandbox, even with a token (--level, --lang fr|sv|en)
    python -m bot backup PATH     a consistent copy of the database at PATH
    python -m bot verify          replay every match's log; set aside the ones that differ
    python -m bot verify FILE     replay a match file (docs/notation.md); the first illegal move
    python -m bot web             serve the read-only web site (TAPIS_WEB_HOST, TAPIS_WEB_PORT)
    python -m bot health          exit 0 while the running bot is connected (a health check)
    python -m bot migrate-db --from data/tapis.db --to postgresql://…
                                  copy a SQLite database into PostgreSQL, then check the copy
    python -m bot --log-format json   logs as JSON lines (default: one key=value line each)
    python -m bot verify --list   the matches set aside, and why
    python -m bot verify --restore ID   back in play after repair, if its log replays

The database is ``data/tapis.db`` unless ``TAPIS_DB`` (or ``--db``) says otherwise, a file
or a ``postgresql://`` address (several bot processes on one database);
``TAPIS_DURABLE=1`` makes every acknowledged move survive a power loss (synchronous=FULL).
Settings may also come from a ``.env`` file in the current folder (KEY=value lines); the
environment wins over it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import sqlite3
import sys
import threading
from pathlib import Path

import ai
from bot import config, i18n
from bot.process import health, logs
from bot.process.progress import Progress
from bot.storage import sql
from bot.storage.sql import redact

SANDBOX_FOLDER = Path("data") / "sandbox"
# A database that cannot be used: a damaged or too new file, a server out of reach.
_DATABASE_TROUBLE: tuple[type[BaseException], ...] = (*sql.errors(), OSError, RuntimeError)


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=value lines from ``path`` into the environment, never overriding it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        os.environ.setdefault(key.strip(), value.strip().strip("'\""))


def run_discord(log_format: str | None = None) -> int:
    """Start the Discord bot (``bot.discord.run()``, imported only when a token is set)."""
    try:
        adapter = importlib.import_module("bot.discord")
    except ModuleNotFoundError as error:
        if error.name not in ("bot", "bot.discord"):
            raise  # the adapter is there but something it needs is not: show why
        adapter = None
    run = getattr(adapter, "run", None)
    if not callable(run):
        print(
            "Tapis: DISCORD_TOKEN is set, but this copy of Tapis has no Discord adapter "
            "(bot/discord with a run() function).\n"
            "Unset DISCORD_TOKEN to play in the local sandbox: `DISCORD_TOKEN= make run`.",
            file=sys.stderr,
        )
        return 2
    from bot.web import beside_bot  # the site, served beside the bot when asked for

    code = run(log_format, beside=beside_bot)
    return int(code) if isinstance(code, int) else 0


async def _verify(db: Path | str, durable: bool, *, listing: bool, restore: int | None) -> int:
    from bot.service import MatchService, ServiceError

    service = await MatchService.open(db, durable=durable)
    try:
        if listing:
            aside = await service.set_aside_matches()
            for match in aside:
                print(f"#{match.id} {match.game} (server {match.guild_id}): {match.problem}")
            print(f"{len(aside)} match(es) set aside.")
            return 0
        if restore is not None:
            try:
                print(f"Restored: {await service.restore(restore)}.")
            except ServiceError as error:
                print(f"Not restored: {error}.", file=sys.stderr)
                return 1
            return 0
        shown: Progress | None = None

        def told(done: int, total: int) -> None:
            nonlocal shown
            if shown is None:
                shown = Progress("Verifying", total, "matches", one="match")
            shown.update(done)

        bad = await service.verify_all(progress=told)
        if shown is not None:
            shown.done(f"{len(bad)} set aside." if bad else "All replay.")
    finally:
        await service.close()
    if bad:
        print(f"{len(bad)} match(es) did not verify and were set aside: {bad}")
        print("List them with `verify --list`; after repair, `verify --restore ID`.")
        return 1
    print("Every match replays to its stored state.")
    return 0


def verify_file(path: Path) -> int:
    """Replay a match file through its engine; say where it first goes wrong, if it does."""
    from games import notation

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"Tapis: cannot read {path}: {error}", file=sys.stderr)
        return 2
    try:
        record = notation.read(text)
    except notation.NotationError as error:
        print(f"{path}: not a Tapis match file: {error}")
        return 1
    found = notation.replay(record)
    if found.ok:
        over = found.state is not None and found.state.result is not None
        scores = " – ".join(str(s) for s in found.state.scores) if found.state else "?"
        print(
            f"{path}: {record.game}, {found.plies} moves, all legal; "
            + (f"the match is over, {scores}." if over else f"it stops unfinished at {scores}.")
        )
        return 0
    print(f"{path}: {found.error}")
    return 1


def web(db: Path | str, durable: bool, port: int | None) -> int:
    """Serve the web site until Ctrl-C."""
    from bot.web import DEFAULT_PORT, host_from_env, port_from_env, serve

    try:
        port = port or port_from_env() or DEFAULT_PORT
    except ValueError as error:
        print(f"Tapis: {error}", file=sys.stderr)
        return 2
    try:
        asyncio.run(serve(db, host_from_env(), port, durable=durable))
    except KeyboardInterrupt:
        return 0
    except OSError as error:
        print(f"Tapis: cannot serve on port {port}: {error}", file=sys.stderr)
        return 1
    return 0


def backup(db: Path, target: Path) -> int:
    """Copy ``db`` to ``target`` with VACUUM INTO: one consistent snapshot, safe while the
    bot runs; then check the copy."""
    if not db.exists():
        print(f"Tapis: there is no database at {db}.", file=sys.stderr)
        return 1
    if target.exists():
        print(f"Tapis: {target} already exists; choose a new file.", file=sys.stderr)
        return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    # Used by the copying thread while this one watches the copy grow.
    source = sqlite3.connect(db, check_same_thread=False)
    failed: list[BaseException] = []
    try:
        source.execute("PRAGMA busy_timeout = 5000")
        pages, free, size = (
            source.execute(f"PRAGMA {pragma}").fetchone()[0]
            for pragma in ("page_count", "freelist_count", "page_size")
        )
        shown = Progress("Backing up", (pages - free) * size // 1024, "KiB")
        copying = threading.Thread(
            target=_vacuum_into, args=(source, target, failed), name="tapis-backup", daemon=True
        )
        copying.start()
        # The copy is written as one statement: how far it is, is how much of the file is
        # written (the copy is the source's pages in use, compacted).
        while copying.is_alive():
            copying.join(0.2)
            with contextlib.suppress(OSError):
                shown.update(target.stat().st_size // 1024)
        shown.update(shown.total)
        if failed:
            raise failed[0]
    finally:
        source.close()
    copy = sqlite3.connect(target)
    try:
        check = copy.execute("PRAGMA integrity_check").fetchone()[0]
        matches = copy.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        moves = copy.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    finally:
        copy.close()
    shown.done(f"{matches} matches, {moves} moves.")
    if check != "ok":
        print(f"Tapis: the copy at {target} fails its integrity check: {check}", file=sys.stderr)
        return 1
    print(f"Backed up {db} to {target}: {matches} matches, {moves} moves, integrity ok.")
    return 0


def _vacuum_into(source: sqlite3.Connection, target: Path, failed: list[BaseException]) -> None:
    try:
        source.execute("VACUUM INTO ?", (str(target),))
    except BaseException as error:  # raised again on the main thread
        failed.append(error)


def migrate_db(source: Path, target: str) -> int:
    """Copy a SQLite database into an empty PostgreSQL one and check the copy."""
    from bot.service.migrate_db import MigrationError, migrate
    from bot.storage import sql

    if not sql.is_postgres(target):
        print(
            f"Tapis: --to must be a PostgreSQL address (postgresql://user:password@host/name), "
            f"not {target!r}.",
            file=sys.stderr,
        )
        return 2
    try:
        report = asyncio.run(migrate(source, target, show=True))
    except MigrationError as error:
        print(f"Tapis: nothing was copied: {error}.", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 1 if report.bad_matches else 0


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--db", default=None, help="database file or postgresql:// address (TAPIS_DB)"
    )
    parser.add_argument(
        "--log-format",
        choices=logs.FORMATS,
        default=None,
        help="one line per record: key=value text (default) or JSON lines (TAPIS_LOG_FORMAT)",
    )
    commands = parser.add_subparsers(dest="command")
    play = commands.add_parser("sandbox", help="play in the terminal against the computer")
    play.add_argument(
        "--level", default="normal", choices=ai.LEVELS, help="the computer's (default: normal)"
    )
    play.add_argument(
        "--lang",
        choices=i18n.LANGS,
        default=None,
        help="the sandbox's language (default: the terminal's locale, LANG or LC_ALL)",
    )
    copy = commands.add_parser("backup", help="a consistent copy of the database")
    copy.add_argument("path", type=Path)
    check = commands.add_parser(
        "verify", help="replay every match (set aside those that differ), or one match file"
    )
    check.add_argument("file", type=Path, nargs="?", help="a match file in the Tapis notation")
    check.add_argument("--list", action="store_true", help="list the matches set aside")
    check.add_argument("--restore", type=int, metavar="ID", help="restore a repaired match")
    site = commands.add_parser("web", help="serve the read-only web site")
    site.add_argument("--port", type=int, default=None, help="port (TAPIS_WEB_PORT, or 8080)")
    commands.add_parser("health", help="exit 0 while the running bot is connected")
    move = commands.add_parser("migrate-db", help="copy a SQLite database into PostgreSQL")
    move.add_argument("--from", dest="source", type=Path, required=True, help="the SQLite file")
    move.add_argument("--to", dest="target", required=True, help="a postgresql:// address")
    args = parser.parse_args(argv)
    env = {"TAPIS_DB": args.db} if args.db else None
    db = config.database(env)
    durable = config.durable()
    if args.command == "migrate-db":
        return migrate_db(args.source, args.target)
    if args.command == "backup":
        if isinstance(db, str):
            print(
                "Tapis: a PostgreSQL database is backed up with PostgreSQL's own tools "
                "(pg_dump), not with `backup`.",
                file=sys.stderr,
            )
            return 2
        return backup(db, args.path)
    if args.command == "verify" and args.file is not None:
        return verify_file(args.file)
    if args.command == "web":
        return web(db, durable, args.port)
    if args.command == "health":
        trouble = health.problem(health.heartbeat_path(config.database_path(env)))
        print(f"Tapis is unhealthy: {trouble}" if trouble else "Tapis is connected.")
        return 1 if trouble else 0
    if args.command is None and os.environ.get("DISCORD_TOKEN"):
        return run_discord(args.log_format)
    try:
        if args.command == "verify":
            return asyncio.run(_verify(db, durable, listing=args.list, restore=args.restore))
        from bot.sandbox import run_sandbox

        level = getattr(args, "level", "normal")
        lang = getattr(args, "lang", None)
        return asyncio.run(
            run_sandbox(db, durable=durable, folder=SANDBOX_FOLDER, level=level, lang=lang)
        )
    except KeyboardInterrupt:
        print("\nGoodbye. Your unfinished matches are kept for next time.")
        return 0
    except _DATABASE_TROUBLE as error:
        where = redact(db) if isinstance(db, str) else db
        print(f"Tapis: cannot use the database {where}: {error}", file=sys.stderr)
        print("Point TAPIS_DB (or --db) at another file, or restore a backup.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
