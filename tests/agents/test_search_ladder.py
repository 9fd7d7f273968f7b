"""benchmarks/search_ladder.py: pairings resume where they stopped and processes share their games."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from paths import REPO_ROOT, TESTS_DIR  # noqa: F401

import mushgym
from mushgym.agents import make_agent

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
import search_ladder  # noqa: E402


def _rows(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_a_pairing_resumes_and_skips_the_games_a_live_process_has_claimed(tmp_path):
    game = mushgym.game("fungi_v0")
    a, b = make_agent("random", seed=1), make_agent("greedy", seed=2)
    path = tmp_path / "random__greedy.csv"
    first = search_ladder.play_pair(game, a, b, "random", "greedy", 4, 0, path, 2)
    assert first.games == 4 and search_ladder.done_games(path) == {0, 1, 2, 3}
    # games 4-5 are claimed by this (live) process, games 8-9 by a process that has died
    (tmp_path / "random__greedy.4.claim").write_text(f"{os.getpid()} 2")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / "random__greedy.8.claim").write_text(f"{int(dead.stdout)} 2")
    search_ladder.play_pair(game, a, b, "random", "greedy", 10, 0, path, 2)
    starts = sorted((int(r["start"]), int(r["games"])) for r in _rows(path))
    assert starts == [(0, 2), (2, 2), (6, 2), (8, 2)]
    assert search_ladder.done_games(path) == set(range(10)) - {4, 5}
    assert not (tmp_path / "random__greedy.8.claim").exists()  # the dead process's claim was released
    assert (tmp_path / "random__greedy.4.claim").exists()  # the live one is left alone


def test_a_chunk_stops_before_games_already_played(tmp_path):
    path = tmp_path / "x__y.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(search_ladder.PAIR_FIELDS)
        w.writerow([0, 1, 1, 0, 0, 10, 1.0])
        w.writerow([2, 2, 1, 0, 1, 10, 1.0])
    first, n, claim = search_ladder.claim_chunk(path, 8, 4)
    assert (first, n) == (1, 1) and claim.read_text() == f"{os.getpid()} 1"
    first2, n2, _ = search_ladder.claim_chunk(path, 8, 4)
    assert (first2, n2) == (4, 4)
    assert search_ladder.claim_chunk(path, 8, 4) is None  # every game played or claimed


def test_a_pairing_whose_games_other_processes_play_is_left_to_them(tmp_path, capsys):
    game = mushgym.game("fungi_v0")
    path = tmp_path / "random__greedy.csv"
    (tmp_path / "random__greedy.0.claim").write_text(f"{os.getpid()} 4")  # a live process plays all 4
    a, b = make_agent("random", seed=1), make_agent("greedy", seed=2)
    assert search_ladder.play_pair(game, a, b, "random", "greedy", 4, 0, path, 2) is None
    assert _rows(path) == []
