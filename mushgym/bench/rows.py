"""What ``mushgym bench`` measures of one env: (a) in-kernel rollouts, (b) the vector API,
(c) the PettingZoo AEC loop, (d) compile and start-up in subprocesses, (e) the episode
loop with agents' decisions in Python, (f) information-set MCTS simulations; and :func:`bench_env`, the table of
one env."""

from __future__ import annotations

import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, NamedTuple

import numpy as np

from .measure import BATCH_SIZES, Row, make_row, resolve_env, timed, timed_rounds

# --- (a) in-kernel rollouts -------------------------------------------------------


def _calibrate_games(game, threads: int, budget: float) -> int:
    """A number of games that takes about ``budget`` seconds on ``threads`` threads."""
    n = 16
    while True:
        t0 = time.perf_counter()
        game.random_rollouts(n, seed=12345, threads=threads)
        dt = time.perf_counter() - t0
        if dt > budget / 4 or n >= 1 << 24:
            return max(1, int(n * budget / max(dt, 1e-9)))
        n *= 4


class Measurement(NamedTuple):
    """One throughput row before it is timed: its runner (``run(budget) -> (steps, games)``)
    and what :func:`make_row` needs to build the row from the rates."""

    group: str
    name: str
    threads: int | None
    run: Callable[[float], tuple[int, int]]
    note: str
    extra: dict[str, Any]

    def row(self, rates: tuple[list[float], list[float]], rounds: int | None = None) -> Row:
        """The row; with ``rounds`` (an id shared by rows timed in the same interleaved
        rounds) it keeps each round's rate, for ratios round by round (``round_ratio``)."""
        extra = dict(self.extra)
        if rounds is not None:
            extra.update(round_rates=list(rates[0]), rounds=rounds)
        return make_row(self.group, self.name, self.threads, rates, note=self.note, **extra)


def rollouts_measurement(game, threads: int, budget: float) -> Measurement:
    game.random_rollouts(2, seed=0, threads=threads)  # load or compile the kernel first
    n = _calibrate_games(game, threads, budget)
    seed = [0]

    def run(_budget: float) -> tuple[int, int]:
        res = game.random_rollouts(n, seed=seed[0], threads=threads)
        seed[0] += n
        return res["steps"], res["games"]

    return Measurement("a. in-kernel rollouts", "Game.random_rollouts", threads, run, f"{n} games per repeat", {})


def bench_rollouts(game, threads: int, budget: float, repeats: int) -> Row:
    m = rollouts_measurement(game, threads, budget)
    return m.row(timed(m.run, budget, repeats))


# --- (b) vector API ---------------------------------------------------------------

#: the vector variants measured at the largest batch besides the default one (narrowest
#: exact observations, the layout's state dtype): no observations at all, and the storage
#: before narrow dtypes (int64 states, float32 observations) as the in-run baseline
VECTOR_VARIANTS = {
    "default": {},
    "no obs": {"with_obs": False},
    "int64 state, float32 obs": {"state_dtype": np.int64, "obs_dtype": np.float32},
}


def vector_bytes(game) -> dict[str, dict[str, int]]:
    """Bytes per env step of each vector variant, by part (state, obs, mask, rewards, rest)."""
    from ..vector import MushroomVectorEnv

    return {name: MushroomVectorEnv(game, 1, seed=0, **kw).bytes_per_step_parts for name, kw in VECTOR_VARIANTS.items()}


def vector_measurement(
    game, batch: int, threads: int | None, variant: str = "default", parallel: bool | None = None
) -> Measurement:
    from ..vector import MushroomVectorEnv

    vec = MushroomVectorEnv(game, batch, seed=batch, threads=threads, parallel=parallel, **VECTOR_VARIANTS[variant])
    vec.reset()
    for _ in range(3):  # compile (if needed) and warm the caches
        vec.step(vec.sample_random_actions())

    def run(budget_s: float) -> tuple[int, int]:
        calls = ended = steps = 0
        sample, step = vec.sample_random_actions, vec.step
        t_end = time.perf_counter() + budget_s
        pending = int(np.count_nonzero(vec.terminated | vec.truncated))  # envs whose next call is a reset
        while True:
            for _ in range(8):
                _, _, term, trunc, _, _, _ = step(sample())
                steps += batch - pending
                pending = int(np.count_nonzero(term)) + int(np.count_nonzero(trunc))
                ended += pending
                calls += 1
            if time.perf_counter() >= t_end:
                break
        return steps, ended

    serial = parallel is False and batch >= _parallel_threshold()
    threads_used = 1 if batch < _parallel_threshold() or serial else threads
    name = f"batch {batch:,}" if variant == "default" else f"batch {batch:,}, {variant}"
    name += ", serial loop" if serial else ""
    what = {"default": f"{vec.obs_dtype.name} obs", "no obs": "no obs"}.get(variant, "obs")
    return Measurement(
        "b. vector API",
        name,
        threads_used,
        run,
        f"{what} + masks + random actions; {vec.bytes_per_step:,} B/env step",
        dict(batch=batch, variant=variant, bytes_per_env=vec.bytes_per_env, bytes_per_step=vec.bytes_per_step),
    )


def bench_vector(
    game,
    batch: int,
    threads: int | None,
    budget: float,
    repeats: int,
    variant: str = "default",
    parallel: bool | None = None,
) -> Row:
    m = vector_measurement(game, batch, threads, variant, parallel)
    return m.row(timed(m.run, budget, repeats))


def bench_throughput(game, batches: tuple[int, ...], budget: float, repeats: int) -> list[Row]:
    """Rows (a) and (b) of the full table, timed in interleaved rounds (:func:`timed_rounds`):
    each repeat is one round of every measurement, the rollouts on all threads just before
    the largest batch, so that the ratios between them are taken round by round. Rows in
    the table's order: rollouts (1 thread, all), vector at each batch, the variants at the
    largest batch, then the largest batch on 1 thread."""
    import numba

    all_threads = numba.config.NUMBA_NUM_THREADS
    big = batches[-1]
    roll_1, roll_all = rollouts_measurement(game, 1, budget), rollouts_measurement(game, all_threads, budget)
    vectors = [vector_measurement(game, b, None) for b in batches]
    variants = [vector_measurement(game, big, None, v) for v in VECTOR_VARIANTS if v != "default"]
    one_thread = (
        [vector_measurement(game, big, 1), vector_measurement(game, big, 1, "no obs")] if all_threads > 1 else []
    )
    table = [roll_1, roll_all, *vectors, *variants, *one_thread]
    timing = [roll_1, *one_thread, roll_all, vectors[-1], *vectors[:-1], *variants]
    rates = timed_rounds([m.run for m in timing], budget, repeats)
    by_measurement = {id(m): r for m, r in zip(timing, rates)}
    rounds = f"{game.env_id or 'env'}@{time.monotonic_ns()}"  # the rounds these rows share
    return [m.row(by_measurement[id(m)], rounds=rounds) for m in table]


def _parallel_threshold() -> int:
    from ..vector import PARALLEL_THRESHOLD

    return PARALLEL_THRESHOLD


# --- (c) the AEC loop -------------------------------------------------------------


def aec_random_loop(env, budget: float, seed: int = 0) -> tuple[int, int]:
    """PettingZoo's standard loop with a mask-aware random choice, whole games until ``budget`` s."""
    steps = games = 0
    t_end = time.perf_counter() + budget
    while True:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else info.get("action_mask")
                action = env.action_space(agent).sample(mask)
                steps += 1
            env.step(action)
        games += 1
        if time.perf_counter() >= t_end:
            return steps, games


def _null_env_classes():
    """A do-nothing two-player AEC env with a masked dict observation, like a classic env's shell."""
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from ..spaces import MaskedDiscrete

    class NullEnv(AECEnv):
        metadata = {"name": "null_v0", "render_modes": [], "is_parallelizable": False}
        GAME_LENGTH = 50

        def __init__(self):
            super().__init__()
            self.possible_agents = ["player_0", "player_1"]
            self._obs = np.zeros(4, np.float32)
            self._mask = np.ones(8, np.int8)
            self.action_spaces = {a: MaskedDiscrete(8) for a in self.possible_agents}
            box = spaces.Box(0, 1, (4,), np.float32)
            mbox = spaces.Box(0, 1, (8,), np.int8)
            self.observation_spaces = {
                a: spaces.Dict({"observation": box, "action_mask": mbox}) for a in self.possible_agents
            }

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]
            self._t = 0

        def observe(self, agent):
            return {"observation": self._obs, "action_mask": self._mask}

        def step(self, action):
            if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self._t += 1
            if self._t >= self.GAME_LENGTH:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = self.agents[self._t % 2]
            self._accumulate_rewards()

    def wrapped():
        e = NullEnv()
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        e = wrappers.OrderEnforcingWrapper(e)
        return e

    return NullEnv, wrapped


def _standard_wrappers(env):
    """PettingZoo classic's ``env()`` stack: TerminateIllegal, AssertOutOfBounds, OrderEnforcing."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def bench_aec(module, budget: float, repeats: int) -> list[Row]:
    """Raw env, wrapped env and the do-nothing wrapped baseline, interleaved repeat by repeat."""
    null_raw, null_wrapped = _null_env_classes()
    variants = {
        "do-nothing env, raw": null_raw(),
        "do-nothing env, wrapped (baseline)": null_wrapped(),
        "raw_env()": module.raw_env(),
        "env() (one-layer standard wrapper)": module.env(),
        "raw_env() in PettingZoo's 3 wrappers": _standard_wrappers(module.raw_env()),
    }
    for e in variants.values():
        aec_random_loop(e, 0.05)  # warm-up (and compile if needed)
    results: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in variants}
    for _ in range(repeats):
        for name, e in variants.items():
            s, g = timed(lambda b, e=e: aec_random_loop(e, b), budget, 1)
            results[name][0].extend(s)
            results[name][1].extend(g)
    return [make_row("c. PettingZoo AEC loop", name, 1, results[name]) for name in variants]


# --- (d) compile and start-up in subprocesses -------------------------------------

_STARTUP_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import mushgym
from mushgym.bench import resolve_env
t_import = time.perf_counter()
module = resolve_env(sys.argv[1])
env = module.env()
env.reset(seed=0)
agent = env.agent_selection
obs, *_ = env.last()
env.step(env.action_space(agent).sample(obs["action_mask"]))
t_first = time.perf_counter()
out = {"import_s": t_import - t0, "first_step_s": t_first - t0}
if sys.argv[2] == "all":
    game = module.Game()
    game.random_rollouts(4, seed=0, threads=1)
    t_roll = time.perf_counter()
    from mushgym.vector import MushroomVectorEnv, SingleAgentVectorEnv
    for n in (1, 64):
        vec = MushroomVectorEnv(game, n, seed=0)
        vec.reset()
        vec.step(vec.sample_random_actions())
    t_vec = time.perf_counter()
    out.update(rollouts_s=t_roll - t_first, vector_s=t_vec - t_roll, total_s=t_vec - t0)
print("MUSHGYM-BENCH " + json.dumps(out))
"""


def _run_startup(spec: str, what: str, cache_dir: str | None, extra_path: list[str]) -> dict[str, Any]:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    path = [p for p in extra_path if p] + [env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _STARTUP_SCRIPT, spec, what], env=env, capture_output=True, text=True, timeout=900
    )
    wall = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("MUSHGYM-BENCH "):
            out = json.loads(line[len("MUSHGYM-BENCH ") :])
            out["process_wall_s"] = wall
            return out
    raise RuntimeError(f"start-up subprocess failed:\n{proc.stderr[-2000:]}")


def _import_root(spec: str) -> str:
    """The sys.path entry a module path was imported from (for the subprocesses)."""
    from pathlib import Path

    name = spec.split(":")[0]
    mod = importlib.import_module(name)
    depth = len(name.split(".")) - (0 if Path(mod.__file__).name == "__init__.py" else 1)
    return str(Path(mod.__file__).parents[depth])


def bench_startup(spec: str, repeats: int) -> list[Row]:
    extra = [_import_root(spec)] if "." in spec else []
    with tempfile.TemporaryDirectory(prefix="mushgym-cold-cache-") as cold:
        cold_res = _run_startup(spec, "all", cold, extra)
    _run_startup(spec, "all", None, extra)  # make sure the normal cache is populated
    warm = [_run_startup(spec, "first", None, extra) for _ in range(repeats)]
    firsts = [w["first_step_s"] for w in warm]
    walls = [w["process_wall_s"] for w in warm]
    rows = [
        Row(
            "d. compile and start-up",
            "cold cache: import..first AEC step",
            1,
            note="seconds",
            extra={"seconds": cold_res["first_step_s"], **cold_res},
        ),
        Row(
            "d. compile and start-up",
            "cold cache: + rollouts + vector kernels",
            1,
            note="seconds",
            extra={"seconds": cold_res["total_s"], **cold_res},
        ),
        Row(
            "d. compile and start-up",
            "warm cache: import, make, reset, first step",
            1,
            note="seconds",
            repeats=len(firsts),
            spread=(min(firsts), max(firsts)),
            extra={
                "seconds": statistics.median(firsts),
                "process_wall_s": statistics.median(walls),
                "import_s": statistics.median(w["import_s"] for w in warm),
            },
        ),
    ]
    return rows


# --- (e) the episode loop: agents deciding in Python -----------------------------------

EPISODE_BATCHES = (1, 128)


def bench_episodes(game, batch: int, budget: float, repeats: int) -> Row:
    """Whole games through :func:`mushgym.episodes.play` with a random agent per seat: the
    rate a Python agent's games run at (one ``act_batch`` call per seat per tick)."""
    from ..episodes import play
    from ..policies import UniformRandomPolicy

    agents = [UniformRandomPolicy(seed) for seed in range(game.num_players)]
    play(game, agents, range(2), batch_size=batch)  # load or compile the kernels first
    seed = [0]

    def run(budget_s: float) -> tuple[int, int]:
        steps = games = 0
        t_end = time.perf_counter() + budget_s
        while True:
            res = play(game, agents, range(seed[0], seed[0] + batch), batch_size=batch)
            seed[0] += batch
            steps += res["steps"]
            games += batch
            if time.perf_counter() >= t_end:
                return steps, games

    return make_row(
        "e. episode loop (agents in Python)",
        f"mushgym.episodes.play, batch {batch:,}",
        1,
        timed(run, budget, repeats),
        note="random agents, one act_batch call per seat per tick",
        games_per_call=batch,
    )


# --- one env ------------------------------------------------------------------------

# --- (f) search ----------------------------------------------------------------------

SEARCH_SIMULATIONS = 1000


def search_positions(game, n: int = 4, seed: int = 0) -> list:
    """Up to ``n`` running positions a few random moves (0-11) into games dealt from seeds
    100, 101, ...: the positions the search rows time."""
    rng = np.random.default_rng(seed)
    positions = []
    for g in range(n):
        s = game.new_state(100 + g)
        for _ in range(int(rng.integers(0, 12))):
            legal = game.legal_actions(s)
            nxt = game.step(s, int(legal[rng.integers(legal.size)]))
            if game.is_terminal(nxt):
                break
            s = nxt
        if not game.is_terminal(s):
            positions.append(s)
    return positions


def bench_search(game, threads: int, budget: float, repeats: int, rollout: str = "random") -> Row:
    """Information-set MCTS (mushgym.search): simulations per second over every thread
    (``threads`` root-parallel trees of ``SEARCH_SIMULATIONS`` each), from positions met in
    random play, with ``rollout`` playouts ("random", or "greedy": the game's compiled
    ``rollout_policy``, what ``mcts:SIMS`` plays). steps/s = simulations/s; games/s = searches
    (moves)/s."""
    from ..search import Searcher

    searcher = Searcher(game, simulations=SEARCH_SIMULATIONS, threads=threads, seed=0, rollout=rollout)
    positions = search_positions(game)
    searcher.search(positions[0], game.current_player(positions[0]))  # compile or load
    k = [0]

    def run(budget_s: float) -> tuple[int, int]:
        t_end = time.perf_counter() + budget_s
        searches = 0
        while True:
            s = positions[k[0] % len(positions)]
            k[0] += 1
            searcher.search(s, game.current_player(s))
            searches += 1
            if time.perf_counter() >= t_end:
                break
        return searches * SEARCH_SIMULATIONS * threads, searches

    kind = "" if rollout == "random" else f", {rollout} rollouts"
    return make_row(
        "f. search",
        f"ISMCTS {SEARCH_SIMULATIONS} sims x {threads} tree(s){kind}",
        threads,
        timed(run, budget, repeats),
        note=f"steps = simulations ({rollout} rollouts, {searcher.mode} determinization); games = moves",
    )


def search_rollouts(game) -> tuple[str, ...]:
    """The playouts the search rows time: random, and the game's compiled greedy when it has one."""
    from ..search import find_kernel

    return ("random", "greedy") if find_kernel(game.kernels, "rollout_policy") is not None else ("random",)


def _search_kernel(game):
    from ..search import determinization_mode, search_namespace

    return search_namespace(game, determinization_mode(game))["mcts_search"]


#: the kernel groups (mushgym.compiling.GROUPS) the quick table compiles, each with a function
#: of the game that the group compiles (cold when numba has no cache index for it); the full
#: table compiles these and FULL_GROUPS
QUICK_GROUPS = {
    "game": lambda g: g.compiled("aec_advance"),
    "rollouts": lambda g: g.loops.random_rollouts,
    "vector": lambda g: g.loops.vec_step,
}
FULL_GROUPS = {"vector_parallel": lambda g: g.loops.par_vec_step, "search": _search_kernel}


def compile_estimate(specs: list[str], quick: bool) -> tuple[float, list[str]]:
    """Rough seconds of compiling ahead of a bench run on this cache (2 idle cores), and what:
    the groups whose kernels numba has not cached yet (a module's loops serve all its envs)."""
    from ..compiling import GROUPS, _cold

    seconds, what, seen = 0.0, [], set()
    for spec in specs:
        try:
            game = resolve_env(spec).Game()
        except Exception:  # noqa: BLE001 - the run reports a broken env itself
            continue
        for group, kernel in (QUICK_GROUPS if quick else {**QUICK_GROUPS, **FULL_GROUPS}).items():
            key = (game.kernels.__name__, group)
            if key in seen:
                continue
            seen.add(key)
            try:
                cold = _cold(kernel(game))
            except ValueError:  # a game the search refuses
                continue
            if cold:
                seconds += GROUPS[group][1]
                what.append(f"{game.env_id} {GROUPS[group][0]}")
    return seconds, what


def bench_env(
    spec: str, quick: bool, budget: float, repeats: int, startup: bool, batches: tuple[int, ...] = BATCH_SIZES
) -> dict[str, Any]:
    import numba

    module = resolve_env(spec)
    game = module.Game()
    env_id = game.env_id or spec
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows: list[Row] = []
    if quick:
        rows += bench_aec(module, budget, repeats)
        rows.append(bench_rollouts(game, all_threads, budget, repeats))
        # the serial loop: the quick look skips the parallel (prange) loops' compilation, the
        # longest a game has (the full table measures them)
        rows.append(bench_vector(game, 1024, None, budget, repeats, parallel=False))
        rows.append(bench_episodes(game, EPISODE_BATCHES[-1], budget, repeats))
    else:
        rows += bench_throughput(game, batches, budget, repeats)
        rows += bench_aec(module, budget, repeats)
        for b in EPISODE_BATCHES:
            rows.append(bench_episodes(game, b, budget, repeats))
        try:
            for rollout in search_rollouts(game):
                rows.append(bench_search(game, 1, budget, repeats, rollout))
                if all_threads > 1:
                    rows.append(bench_search(game, all_threads, budget, repeats, rollout))
        except ValueError as exc:  # a game search refuses (hidden information, no redraw)
            print(f"{env_id}: no search rows ({exc})", file=sys.stderr)
        if startup:
            rows += bench_startup(spec, max(3, repeats // 2))
    return {
        "env_id": env_id,
        "spec": spec,
        "state_size": game.state_size,
        "state_bytes": game.state_size * 8,
        "bytes_per_env_step": vector_bytes(game),
        "num_actions": game.num_actions,
        "observation_shape": list(game.observation_shape),
        "rows": rows,
    }
