"""Ahead-of-time compilation: ``mushgym compile [ENV...]`` fills numba's cache for every later process.

:func:`compile_envs` calls every kernel group of :data:`mushgym.compiling.GROUPS` once through
the public API (the AEC env, the functional API's rollouts, the vector and single-agent
vector envs in their serial and parallel forms, the search loop), each (env, group) a job in
its own worker process so that both cores work at once.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Iterable, Sequence

from . import vector
from .compiling import GROUPS
from .registry import check_current, game, list_envs, make
from .search import Searcher


def _exercise(env_id: str, group: str) -> None:
    """Call every kernel of ``group`` once through the public API (compiling or loading it)."""
    if group == "game":
        env = make(env_id)
        env.reset(seed=0)
        obs, *_ = env.last()
        env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
        g = env.unwrapped.game
        state = g.new_state(0)
        g.observe(state, 0)
        g.returns(state)
    elif group == "rollouts":
        game(env_id).random_rollouts(2, seed=0)
    elif group in ("vector", "vector_parallel"):
        vec = vector.make(env_id, num_envs=2, seed=0, parallel=group == "vector_parallel")
        vec.reset()
        vec.step(vec.sample_random_actions())
        vec.step(vec.sample_random_actions())
    elif group in ("single_agent", "single_agent_parallel"):
        sa = vector.make_single_agent(env_id, num_envs=2, seed=0, parallel=group == "single_agent_parallel")
        sa.reset()
        sa.step(sa.action_masks().argmax(axis=1))
    elif group == "search":
        g = game(env_id)
        state = g.new_state(0)
        try:
            Searcher(g, simulations=4).search(state, g.current_player(state))
        except ValueError:  # a game the search refuses (hidden information and no redraw)
            pass
    else:
        raise ValueError(f"unknown kernel group {group!r}; groups: {list(GROUPS)}")


def _worker(job: tuple[str, str]) -> tuple[str, str, float]:
    t0 = time.perf_counter()
    _exercise(*job)
    return job[0], job[1], time.perf_counter() - t0


def compile_envs(
    env_ids: Sequence[str] | None = None,
    groups: Iterable[str] = tuple(GROUPS),
    workers: int | None = None,
    report: Callable[[str], None] | None = print,
) -> dict:
    """Compile (or load) every kernel of ``env_ids`` (default: all) into numba's cache.

    Each (env, group) is a job; ``workers`` processes (default: one per core) take
    jobs in turn, so the groups compile side by side. Returns ``{(env, group): seconds}``.
    """
    env_ids = list(env_ids or list_envs())
    for env_id in env_ids:
        check_current(env_id)
    groups = list(groups)
    for g in groups:
        if g not in GROUPS:
            raise ValueError(f"unknown kernel group {g!r}; groups: {list(GROUPS)}")
    # the biggest jobs first, so two workers finish together
    jobs = sorted(((e, g) for e in env_ids for g in groups), key=lambda j: -GROUPS[j[1]][1])
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    done: dict[tuple[str, str], float] = {}
    if workers == 1:
        for job in jobs:
            env_id, group, seconds = _worker(job)
            done[(env_id, group)] = seconds
            if report:
                report(f"{env_id:14s} {GROUPS[group][0]:30s} {seconds:6.1f} s")
        return done
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # spawn: numba's threading layers and fork do not mix
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_worker, job) for job in jobs]
        for fut in as_completed(futures):
            env_id, group, seconds = fut.result()
            done[(env_id, group)] = seconds
            if report:
                report(f"{env_id:14s} {GROUPS[group][0]:30s} {seconds:6.1f} s")
    return done
