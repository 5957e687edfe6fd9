"""Games kept in SQLite as what determines them: the variant and its options, the seed of
the walls, each deal's dealer, and every decision taken, in order.

Nothing else is stored: a deal is rebuilt by dealing its wall again and applying its
decisions, so a server restarted mid-deal resumes exactly where it was. Each decision is
written as it is applied (one row, one transaction), before the answer leaves the server.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    pace REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    deltas TEXT,
    PRIMARY KEY (game, number)
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL,
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, deal, seq)
);
"""


@dataclass(slots=True)
class StoredDeal:
    number: int
    dealer: int
    deltas: list[int] | None
    decisions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


@dataclass(slots=True)
class StoredGame:
    id: str
    variant: str
    options: dict[str, str]
    seed: int
    pace: float
    deals: list[StoredDeal]


class Store:
    """One SQLite database shared by the server's threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create(self, game_id: str, variant: str, options: dict[str, str], seed: int, pace: float,
               dealer: int) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, variant, json.dumps(options, sort_keys=True), seed, pace, time.time()))
            db.execute("INSERT INTO deals VALUES (?, 0, ?, NULL)", (game_id, dealer))

    def decision(self, game_id: str, deal: int, seq: int, seat: int, action: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO decisions VALUES (?, ?, ?, ?, ?)",
                       (game_id, deal, seq, seat, json.dumps(action, sort_keys=True)))

    def finish(self, game_id: str, deal: int, deltas: list[int]) -> None:
        with self._transaction() as db:
            db.execute("UPDATE deals SET deltas = ? WHERE game = ? AND number = ?", (json.dumps(deltas), game_id, deal))

    def next_deal(self, game_id: str, number: int, dealer: int) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO deals VALUES (?, ?, ?, NULL)", (game_id, number, dealer))

    def set_pace(self, game_id: str, pace: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET pace = ? WHERE id = ?", (pace, game_id))

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute("SELECT variant, options, seed, pace FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            deals = [StoredDeal(n, dealer, json.loads(d) if d is not None else None)
                     for n, dealer, d in self._db.execute(
                         "SELECT number, dealer, deltas FROM deals WHERE game = ? ORDER BY number", (game_id,))]
            last = deals[-1]
            last.decisions = [(seat, json.loads(a)) for seat, a in self._db.execute(
                "SELECT seat, action FROM decisions WHERE game = ? AND deal = ? ORDER BY seq", (game_id, last.number))]
        return StoredGame(game_id, row[0], json.loads(row[1]), row[2], row[3], deals)
