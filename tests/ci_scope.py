"""What a default test run compiles, and what waits for the full run.

Most of a cold run's time goes to numba. A game's rules are compiled again for each compiled
loop that calls them with other array types or a ``prange``: the vector loops (narrow int16
states), the single-agent batch, and the parallel random rollouts. For the board games each such
loop costs one to three minutes of a 2-core machine (``MUSHGYM_COMPILE_LOG`` +
``benchmarks/compile_log.py``). The default run (CI: 20 minutes on 2 cores) therefore compiles
these loops for Fungi and the toy games, which go through every loop of the engine, and for
Mycology's vector; the board games (Mycelia, Mycelium) and the rest of Mycology run them with
``MUSHGYM_HARNESS=full`` or ``MUSHGYM_SLOW_SCALE>1``, like the harness's other option sets.
Their functional API, AEC env, episode loop, search and every rule test run by default.
The checks that play many long games step by step (the many-games property run, greedy's
hidden-information check and its match against random) play fewer of the board games' and
Mycology's games by default, all of them in the full run.
"""

from __future__ import annotations

import os

import pytest

from mushgym.testing import slow_scale

FULL = os.environ.get("MUSHGYM_HARNESS", "") == "full" or slow_scale() > 1

# envs whose vector and single-agent batch loops a default run compiles
VECTOR_ENVS = ("fungi_v0", "mycology_v1", "toy", "toyrace_v0", "tinyrace_v0")
# envs whose parallel random rollouts (``Game.random_rollouts``) a default run compiles
ROLLOUT_ENVS = ("fungi_v0", "toy", "toyrace_v0", "tinyrace_v0")

REASON = "this env's batch loops compile in the full run (MUSHGYM_HARNESS=full or MUSHGYM_SLOW_SCALE>1)"
REASON_RLLIB = "further RLlib training cases run in the full run (MUSHGYM_HARNESS=full or MUSHGYM_SLOW_SCALE>1)"


def _params(values, keep, reason):
    """``values`` as pytest parameters; those ``keep`` refuses are skipped with ``reason``."""
    return [
        v if keep(i, v) else pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.skip(reason=reason))
        for i, v in enumerate(values)
    ]


def runs_vector(env_id: str) -> bool:
    return FULL or env_id in VECTOR_ENVS


def runs_rollouts(env_id: str) -> bool:
    return FULL or env_id in ROLLOUT_ENVS


def vector_params(env_ids):
    """``env_ids`` as pytest parameters, those whose vector loops wait for the full run skipped."""
    return _params(env_ids, lambda _i, e: runs_vector(e), REASON)


def need_rollouts(env_id: str) -> None:
    if not runs_rollouts(env_id):
        pytest.skip(REASON)


def vector_test(env_id: str):
    """Mark a test of ``env_id``'s vector or single-agent batch loops."""
    return pytest.mark.skipif(not runs_vector(env_id), reason=REASON)


def rollouts_test(env_id: str):
    """Mark a test of ``env_id``'s compiled random rollouts."""
    return pytest.mark.skipif(not runs_rollouts(env_id), reason=REASON)


# An older version kept for its users that runs the current version's kernels with one rule
# read differently: a default run plays its defaults through the harness's property checks; its
# other option sets and combinations are played there by the current version, and by both in the
# full run. (None today: a retired version's id names its successor instead.)
LEGACY_ENVS: tuple[str, ...] = ()
LEGACY_REASON = "an older version on its successor's kernels: the successor runs this case, the full run both"

# games of the slow many-games check in a default run, for the board games (a Mycelium game with
# every check on every step takes about 2 s on one core) and Mycology (five player counts, each
# 20-30 s at 40 games); the full run plays 40 x MUSHGYM_SLOW_SCALE
MANY_GAMES = {"mycelium_v2": 10, "mycelia_v1": 10, "mycology_v1": 20}


# the board games' games are 10 to 50 times longer than the card games': a check run in Python on
# every few states of random games (greedy's hidden information) samples them more thinly by default
BOARD_GAMES = ("mycelia_v1", "mycelium_v2")


def state_sample(env_id: str, n_games: int, every: int) -> tuple[int, int]:
    """``(n_games, every)`` of a check over random states: as asked in the full run and for the
    card games; for the board games by default, half the games and every tenth of those states."""
    if FULL or env_id not in BOARD_GAMES:
        return n_games, every
    return max(1, n_games // 2), every * 10


def match_games(env_id: str, games: int) -> int:
    """Games of a Python-side match (greedy against random): a quarter of them (at least 20) for
    the board games by default, whose games are long; all of them in the full run."""
    if FULL or env_id not in BOARD_GAMES:
        return games
    return max(20, games // 4)


def need_current_version(env_id: str, options: dict) -> None:
    if not FULL and env_id in LEGACY_ENVS and options:
        pytest.skip(LEGACY_REASON)


def many_games(env_id: str, games: int) -> int:
    return games if FULL else min(games, MANY_GAMES.get(env_id, games))


def current_versions(env_ids):
    """``env_ids`` as pytest parameters, the older versions of :data:`LEGACY_ENVS` skipped
    outside the full run (their current version plays the same kernels)."""
    return _params(env_ids, lambda _i, e: FULL or e not in LEGACY_ENVS, LEGACY_REASON)


def rllib_training_cases(cases):
    """The RLlib training cases (about 6 minutes each on 2 cores, most of it Ray's runners
    starting and compiling): the first one by default, all of them in the full run."""
    return _params(cases, lambda i, _c: FULL or i == 0, REASON_RLLIB)
