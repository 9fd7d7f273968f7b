"""Mycology's compiled consistency check (envs/mycology/validate.py): every reachable state of
2 and 6 players passes it, and the fuzzer's one-field corruptions are each refused or valid."""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: F401

import mushgym
from mushgym.envs.mycology import rules as R

sys.path.insert(0, str(TESTS_DIR))
from fuzz_states import make_input, run_one  # noqa: E402

GAMES = {n: mushgym.game("mycology_v1", num_players=n) for n in (2, 6)}


@pytest.mark.parametrize("players", [2, 6])
def test_every_random_state_passes(players):
    g = GAMES[players]
    mask = np.zeros(g.num_actions, np.int8)
    n = 0
    for gi in range(15):
        rng = np.random.default_rng([3, gi])
        s = g.new_state(gi)
        while True:
            code = int(R.validate(s, g.config, g.work))
            assert code == 0, (g.validation_error(code), g.state_to_string(s))
            n += 1
            if R.is_terminal(s):
                break
            R.legal_mask(s, g.config, mask, g.work)
            R.step(s, int(rng.choice(np.flatnonzero(mask))), g.config, g.work)
    assert n > 500


@pytest.mark.parametrize("players", [2, 6])
def test_no_corrupted_state_plays_on_silently(players):
    """In this process (test_hardening counts crashes in subprocesses)."""
    g = GAMES[players]
    counts = Counter(run_one(g, make_input(g, "corrupt", i, 7), np.random.default_rng(i)) for i in range(300))
    assert set(counts) <= {"refused", "ok"} and counts["refused"] > 250, counts
