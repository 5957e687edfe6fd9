"""``cardavia serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--pace SECONDS] [--open]``:
the site, its rules pages and its tables, served by uvicorn."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardavia.commands import fail, say


def default_db() -> Path:
    """The games' database under the user's data directory."""
    from platformdirs import user_data_path

    return user_data_path("cardavia", appauthor=False) / "games.sqlite3"


def register(sub: argparse._SubParsersAction) -> None:
    from cardavia.web.games import DEFAULT_PACE, MAX_PACE

    p = sub.add_parser(
        "serve", help="serve the site: the rules and a table to play at",
        description="Serve the site in seven languages: the rules of every game, and a table where you play "
                    "whole deals against three computer players. Games are kept in an SQLite database, so a "
                    "restarted server resumes every deal where it was.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--db", metavar="PATH", help=f"the games' database (default {default_db()})")
    p.add_argument("--pace", type=float, default=DEFAULT_PACE, metavar="SECONDS",
                   help=f"seconds between two of the computer players' moves (default {DEFAULT_PACE}, "
                        f"at most {MAX_PACE:g}; ?pace=0 on /play/VARIANT for one game)")
    p.add_argument("--open", action="store_true", help="open the site in a browser")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.web.games import MAX_PACE

    if not 0 <= args.port <= 65535:
        return fail(f"--port {args.port}: expected a port from 0 to 65535")
    if not 0 <= args.pace <= MAX_PACE:
        return fail(f"--pace {args.pace:g}: expected seconds from 0 to {MAX_PACE:g}")
    db = Path(args.db) if args.db else default_db()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(f"cannot create the folder of the database {db}: {exc.strerror or exc}")
    import sqlite3

    import uvicorn

    from cardavia.web.app import create_app

    try:
        app = create_app(db, pace=args.pace)
    except sqlite3.Error as exc:
        return fail(f"cannot open the database {db}: {exc}")
    host = f"[{args.host}]" if ":" in args.host else args.host
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    address = f"http://{host}:{args.port}/"

    if args.open:
        import threading
        import webbrowser

        def opener() -> None:
            import time

            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(address)

        threading.Thread(target=opener, daemon=True).start()
    say(f"Cardavia is served at {address} (games kept in {db}); Ctrl-C stops it")
    server.run()
    return 0 if server.started else 1
