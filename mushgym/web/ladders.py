"""The Elo ladders of ``mushgym serve``'s leaderboard, read from the ladder records.

The records are ``<ladder>_elo.csv`` files (``mushgym eval`` and
the search-ladder script of the benchmark suite write them: ``env,agent,elo,elo_ci95_lo,elo_ci95_hi,...``),
with the command and date in ``<ladder>.txt`` beside them when there is one. Whatever is
there is shown: a missing folder gives no ladders, an unreadable file a note naming it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Ladder:
    name: str
    env_id: str
    rows: list[dict] = field(default_factory=list)  # agent, elo, lo, hi: best first
    scale: str = ""
    command: str = ""
    date: str = ""


def _notes(txt: Path) -> tuple[str, str]:
    command = date = ""
    try:
        lines = txt.read_text(encoding="utf-8", errors="replace").splitlines()[:8]
    except OSError:
        return command, date
    for line in lines:
        if not command and line.startswith(("python ", "mushgym ")):
            command = line.strip()
        if not date and line.startswith("date:"):
            date = line.split(":", 1)[1].strip()
    return command, date


def read_ladders(folder: Path | None) -> tuple[list[Ladder], list[str]]:
    """The ladders in ``folder`` (by env, then name) and notes on the files that could not be read."""
    if folder is None or not Path(folder).is_dir():
        return [], []
    ladders, problems = [], []
    for path in sorted(Path(folder).glob("*_elo.csv")):
        name = path.name[: -len("_elo.csv")]
        try:
            with path.open(newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            ladder = Ladder(name, rows[0]["env"] if rows else "?", scale=rows[0].get("scale", "") if rows else "")
            for r in rows:
                ladder.rows.append(
                    {
                        "agent": r["agent"],
                        "elo": float(r["elo"]),
                        "lo": float(r["elo_ci95_lo"]),
                        "hi": float(r["elo_ci95_hi"]),
                    }
                )
        except (OSError, KeyError, ValueError, IndexError) as err:
            problems.append(f"{path.name}: not a ladder record ({type(err).__name__}: {err})")
            continue
        ladder.rows.sort(key=lambda r: -r["elo"])
        ladder.command, ladder.date = _notes(path.with_name(name + ".txt"))
        ladders.append(ladder)
    ladders.sort(key=lambda lad: (lad.env_id, lad.name))
    return ladders, problems
