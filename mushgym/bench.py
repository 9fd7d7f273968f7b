"""``mushgym bench``: random-game throughput of every env, through every API.

    mushgym bench                      # every registered env, full table, anchors
    mushgym bench fungi_v0 --quick     # the short table (seconds per env)
    mushgym bench --json bench.json    # everything measured, machine-readable
    python -m mushgym.bench ...        # the same without the CLI

For each env it measures, as steps/s and games/s (median of several repeats,
with the min-max spread):

(a) in-kernel random rollouts (``Game.random_rollouts``) on 1 thread and on all;
(b) the vector API (``mushgym.vector``) at batch 1, 64, 1,024 and 8,192, random
    legal actions sampled in compiled code (``sample_random_actions``);
(c) the PettingZoo AEC env, raw and with PettingZoo's standard wrappers, driven by
    the standard ``agent_iter`` loop with ``env.action_space(agent).sample(mask)``,
    next to a do-nothing AEC env inside the same wrappers measured in the same run
    (its rate is the ceiling of that loop on this machine);
(d) compile time on a cold numba cache and start-up time on a warm one, each in a
    fresh subprocess;

and the memory of one state. When PettingZoo's classic games or OpenSpiel are
installed, their random games through the same loops are measured in the same
run as anchors, and mushgym's figures are printed as ratios to them.

An ENV is a registered env id (``mushgym.list_envs()``) or the import path of a
module that defines ``Game``, ``raw_env`` and ``env`` (e.g. a test game).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

BATCH_SIZES = (1, 64, 1024, 8192)


# --- measurement ------------------------------------------------------------------

@dataclass
class Row:
    """One measured line of a table."""

    group: str
    name: str
    threads: int | None
    steps_per_s: float | None = None
    games_per_s: float | None = None
    spread: tuple[float, float] | None = None  # min, max of steps/s over the repeats
    repeats: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _timed(fn: Callable[[float], tuple[int, int]], budget: float, repeats: int) -> tuple[list[float], list[float]]:
    """Run ``fn(budget)`` ``repeats`` times; each returns (steps, games) done in about ``budget`` s."""
    steps_rates, games_rates = [], []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            steps, games = fn(budget)
            dt = time.perf_counter() - t0
        finally:
            gc.enable()
        steps_rates.append(steps / dt)
        games_rates.append(games / dt)
    return steps_rates, games_rates


def _row(group: str, name: str, threads: int | None, rates: tuple[list[float], list[float]], note: str = "",
         **extra: Any) -> Row:
    s, g = rates
    return Row(group, name, threads, statistics.median(s), statistics.median(g), (min(s), max(s)), len(s),
               note, extra)


def _machine() -> dict[str, Any]:
    import numba

    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": _threading_layer(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "platform": platform.platform(),
    }


def _threading_layer() -> str:
    import numba

    try:
        return numba.threading_layer()
    except ValueError:  # no parallel function has run yet
        return "not yet chosen"


# --- env resolution ---------------------------------------------------------------

def resolve_env(spec: str):
    """The env module of a registered env id or of a module import path."""
    from .registry import env_module, env_modules

    if spec in env_modules():
        return env_module(spec)
    if "." in spec or ":" in spec:
        mod = importlib.import_module(spec.split(":")[0])
        for name in ("Game", "raw_env", "env"):
            if not hasattr(mod, name):
                raise ValueError(f"module {spec!r} defines no {name!r}")
        return mod
    raise ValueError(f"unknown env {spec!r}; registered envs: {sorted(env_modules())}")


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


def bench_rollouts(game, threads: int, budget: float, repeats: int) -> Row:
    game.random_rollouts(2, seed=0, threads=threads)  # load or compile the kernel first
    n = _calibrate_games(game, threads, budget)
    seed = [0]

    def run(_budget: float) -> tuple[int, int]:
        res = game.random_rollouts(n, seed=seed[0], threads=threads)
        seed[0] += n
        return res["steps"], res["games"]

    return _row("a. in-kernel rollouts", "Game.random_rollouts", threads, _timed(run, budget, repeats),
                note=f"{n} games per repeat")


# --- (b) vector API ---------------------------------------------------------------

def bench_vector(game, batch: int, threads: int | None, budget: float, repeats: int) -> Row:
    from .vector import MushroomVectorEnv

    vec = MushroomVectorEnv(game, batch, seed=batch, threads=threads)
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

    threads_used = 1 if batch < _parallel_threshold() else threads
    return _row("b. vector API", f"batch {batch:,}", threads_used, _timed(run, budget, repeats),
                note="obs + masks + random actions", batch=batch,
                bytes_per_env=vec.bytes_per_env)


def _parallel_threshold() -> int:
    from .vector import PARALLEL_THRESHOLD

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

    from .spaces import MaskedDiscrete

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
            self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mbox})
                                       for a in self.possible_agents}

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
            s, g = _timed(lambda b, e=e: aec_random_loop(e, b), budget, 1)
            results[name][0].extend(s)
            results[name][1].extend(g)
    return [_row("c. PettingZoo AEC loop", name, 1, results[name]) for name in variants]


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
    proc = subprocess.run([sys.executable, "-c", _STARTUP_SCRIPT, spec, what], env=env,
                          capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("MUSHGYM-BENCH "):
            out = json.loads(line[len("MUSHGYM-BENCH "):])
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
        Row("d. compile and start-up", "cold cache: import..first AEC step", 1, note="seconds",
            extra={"seconds": cold_res["first_step_s"], **cold_res}),
        Row("d. compile and start-up", "cold cache: + rollouts + vector kernels", 1, note="seconds",
            extra={"seconds": cold_res["total_s"], **cold_res}),
        Row("d. compile and start-up", "warm cache: import, make, reset, first step", 1, note="seconds",
            repeats=len(firsts), spread=(min(firsts), max(firsts)),
            extra={"seconds": statistics.median(firsts), "process_wall_s": statistics.median(walls),
                   "import_s": statistics.median(w["import_s"] for w in warm)}),
    ]
    return rows


# --- anchors: peer libraries through the same loops ----------------------------------

def bench_anchors(budget: float, repeats: int) -> list[Row]:
    rows: list[Row] = []
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    except Exception as exc:  # pragma: no cover - depends on optional installs
        rows.append(Row("anchors", "PettingZoo classic", None, note=f"not installed: {exc}"))
    else:
        for name, mod in (("connect_four_v3", connect_four_v3), ("tictactoe_v3", tictactoe_v3)):
            e = mod.env()
            aec_random_loop(e, 0.05)
            rows.append(_row("anchors", f"PettingZoo {name} (AEC loop, wrapped)", 1,
                             _timed(lambda b, e=e: aec_random_loop(e, b), budget, repeats)))
    try:
        import pyspiel
    except Exception as exc:  # pragma: no cover
        rows.append(Row("anchors", "OpenSpiel", None, note=f"not installed: {exc}"))
    else:
        for name in ("connect_four", "leduc_poker"):
            g = pyspiel.load_game(name)
            rng = np.random.default_rng(0)
            _openspiel_loop(g, rng, 0.05)
            rows.append(_row("anchors", f"OpenSpiel {name} (Python loop)", 1,
                             _timed(lambda b, g=g, rng=rng: _openspiel_loop(g, rng, b), budget, repeats)))
    return rows


def _openspiel_loop(game, rng, budget: float) -> tuple[int, int]:
    """Random games: uniform over legal actions, chance sampled from its outcomes; decisions counted."""
    steps = games = 0
    t_end = time.perf_counter() + budget
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                state.apply_action(outcomes[k][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
        games += 1
        if time.perf_counter() >= t_end:
            return steps, games


# --- one env ------------------------------------------------------------------------

def bench_env(spec: str, quick: bool, budget: float, repeats: int, startup: bool,
              batches: tuple[int, ...] = BATCH_SIZES) -> dict[str, Any]:
    import numba

    module = resolve_env(spec)
    game = module.Game()
    env_id = game.env_id or spec
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows: list[Row] = []
    if quick:
        rows += bench_aec(module, budget, repeats)
        rows.append(bench_rollouts(game, all_threads, budget, repeats))
        rows.append(bench_vector(game, 1024, None, budget, repeats))
    else:
        rows.append(bench_rollouts(game, 1, budget, repeats))
        rows.append(bench_rollouts(game, all_threads, budget, repeats))
        for b in batches:
            rows.append(bench_vector(game, b, None, budget, repeats))
        if all_threads > 1:
            rows.append(bench_vector(game, batches[-1], 1, budget, repeats))
        rows += bench_aec(module, budget, repeats)
        if startup:
            rows += bench_startup(spec, max(3, repeats // 2))
    return {
        "env_id": env_id,
        "spec": spec,
        "state_size": game.state_size,
        "state_bytes": game.state_size * 8,
        "num_actions": game.num_actions,
        "observation_shape": list(game.observation_shape),
        "rows": rows,
    }


# --- targets and ratios ----------------------------------------------------------------

def _find(rows: list[Row], group: str, name: str, threads: int | None = "any") -> Row | None:
    for r in rows:
        if r.group.startswith(group) and r.name == name and (threads == "any" or r.threads == threads):
            return r
    return None


def derived(result: dict[str, Any], anchors: list[Row]) -> dict[str, Any]:
    """Ratios between rows of one run (the numbers that survive a noisy machine)."""
    import numba

    rows = result["rows"]
    nt = numba.config.NUMBA_NUM_THREADS
    out: dict[str, Any] = {}
    base = _find(rows, "c.", "do-nothing env, wrapped (baseline)")
    wrapped = _find(rows, "c.", "raw_env() in PettingZoo's 3 wrappers")
    fast = _find(rows, "c.", "env() (one-layer standard wrapper)")
    raw = _find(rows, "c.", "raw_env()")
    roll1 = _find(rows, "a.", "Game.random_rollouts", 1)
    rolln = _find(rows, "a.", "Game.random_rollouts", nt)
    vec_big = [r for r in rows if r.group.startswith("b.") and r.threads in (None, nt) and r.extra.get("batch")]
    vec_big = max(vec_big, key=lambda r: r.extra["batch"]) if vec_big else None
    if base and wrapped:
        out["AEC raw env in PettingZoo's 3 wrappers / do-nothing wrapped"] = wrapped.steps_per_s / base.steps_per_s
    if base and fast:
        out["AEC env() (one layer) / do-nothing wrapped"] = fast.steps_per_s / base.steps_per_s
    if raw:
        out["AEC raw_env() steps/s"] = raw.steps_per_s
    if roll1:
        out["rollouts 1 thread steps/s"] = roll1.steps_per_s
    if vec_big and rolln:
        out[f"vector batch {vec_big.extra['batch']} / rollouts ({nt} threads)"] = vec_big.steps_per_s / rolln.steps_per_s
        out[f"vector batch {vec_big.extra['batch']} steps/s"] = vec_big.steps_per_s
    for r in rows:
        if r.name.startswith("warm cache"):
            out["warm start s"] = r.extra["seconds"]
    for a in anchors:
        if a.steps_per_s is None:
            continue
        if wrapped:
            out[f"AEC in PettingZoo's 3 wrappers / {a.name}"] = wrapped.steps_per_s / a.steps_per_s
        if vec_big:
            out[f"vector batch {vec_big.extra['batch']} / {a.name}"] = vec_big.steps_per_s / a.steps_per_s
        if roll1:
            out[f"rollouts 1 thread / {a.name}"] = roll1.steps_per_s / a.steps_per_s
    return out


# --- printing ---------------------------------------------------------------------------

def _fmt_rate(x: float | None) -> str:
    if x is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


def _table_rows(rows: list[Row]) -> list[list[str]]:
    out = []
    for r in rows:
        threads = "all" if r.threads is None else str(r.threads)
        if "seconds" in r.extra:
            spread = f"{r.spread[0]:.2f}-{r.spread[1]:.2f} s" if r.spread else ""
            out.append([r.group, r.name, threads, f"{r.extra['seconds']:.2f} s", "", spread, r.note])
            continue
        spread = f"{_fmt_rate(r.spread[0])}-{_fmt_rate(r.spread[1])}" if r.spread else ""
        out.append([r.group, r.name, threads, _fmt_rate(r.steps_per_s), _fmt_rate(r.games_per_s), spread, r.note])
    return out


HEADER = ["measurement", "threads", "steps/s", "games/s", "spread (steps/s)", "note"]


def _print_table(title: str, rows: list[list[str]], footer: list[str], console) -> None:
    if console is not None:
        from rich.table import Table

        table = Table(title=title, title_justify="left")
        for i, h in enumerate(HEADER):
            table.add_column(h, justify="right" if 1 <= i <= 4 else "left", no_wrap=i < 5)
        last_group = None
        for r in rows:
            if r[0] != last_group:
                if last_group is not None:
                    table.add_section()
                table.add_row(f"[bold]{r[0]}[/bold]", *[""] * (len(HEADER) - 1))
                last_group = r[0]
            table.add_row("  " + r[1], *r[2:])
        console.print(table)
        for line in footer:
            console.print("  " + line, highlight=False)
        console.print()
        return
    lines: list[list[str]] = []
    last_group = None
    for r in rows:
        if r[0] != last_group:
            lines.append([r[0]] + [""] * (len(HEADER) - 1))
            last_group = r[0]
        lines.append(["  " + r[1]] + r[2:])
    widths = [max([len(HEADER[i])] + [len(x[i]) for x in lines]) for i in range(len(HEADER))]
    print(title)
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for x in lines:
        print("  ".join(c.rjust(w) if 1 <= i <= 4 else c.ljust(w) for i, (c, w) in enumerate(zip(x, widths))).rstrip())
    for line in footer:
        print("  " + line)
    print()


def _console(plain: bool):
    if plain:
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    return console


def _footer(result: dict[str, Any], ratios: dict[str, Any]) -> list[str]:
    lines = [f"state: {result['state_size']} int64 = {result['state_bytes']:,} bytes per game; "
             f"{result['num_actions']} actions; observation {tuple(result['observation_shape'])}"]
    for r in result["rows"]:
        if r.extra.get("bytes_per_env") and r.extra.get("batch") == max(BATCH_SIZES):
            lines.append(f"vector memory: {r.extra['bytes_per_env']:,} bytes per env (state, obs, final obs, mask, "
                         f"bookkeeping)")
            break
    for k, v in ratios.items():
        if k.endswith("steps/s"):
            lines.append(f"{k}: {_fmt_rate(v)}")
        elif k.endswith(" s"):
            lines.append(f"{k}: {v:.2f}")
        else:
            lines.append(f"{k}: {v:.3g}x")
    return lines


# --- main ---------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mushgym bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: every registered env)")
    parser.add_argument("--quick", action="store_true", help="short table: random games through the AEC env "
                        "and through compiled loops (seconds per env)")
    parser.add_argument("--json", metavar="PATH", help="write every measurement to PATH")
    parser.add_argument("--budget", type=float, default=None, help="seconds per repeat (default 1.0; 0.25 quick)")
    parser.add_argument("--repeats", type=int, default=None, help="repeats per measurement (default 5; 3 quick)")
    parser.add_argument("--no-anchors", action="store_true", help="skip PettingZoo classic and OpenSpiel rows")
    parser.add_argument("--no-startup", action="store_true", help="skip the compile / start-up subprocesses")
    parser.add_argument("--batches", default=None, help="comma-separated vector batch sizes (default 1,64,1024,8192)")
    parser.add_argument("--plain", action="store_true", help="plain text tables even if rich is installed")
    args = parser.parse_args(argv)

    from .registry import list_envs

    budget = args.budget if args.budget is not None else (0.25 if args.quick else 1.0)
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    batches = tuple(int(b) for b in args.batches.split(",")) if args.batches else BATCH_SIZES
    envs = args.envs or list_envs()
    console = _console(args.plain)

    report: dict[str, Any] = {"machine": _machine(), "quick": args.quick, "budget_s": budget,
                              "repeats": repeats, "envs": {}, "anchors": [], "errors": {}}
    anchors: list[Row] = []
    if not args.quick and not args.no_anchors:
        anchors = bench_anchors(budget, repeats)
        report["anchors"] = [asdict(a) for a in anchors]
        _print_table("anchors: peer libraries, random games, same run", _table_rows(anchors), [], console)

    status = 0
    for spec in envs:
        try:
            result = bench_env(spec, args.quick, budget, repeats, startup=not args.no_startup, batches=batches)
        except Exception as exc:  # one broken env must not hide the others' numbers
            msg = f"{type(exc).__name__}: {exc}"
            report["errors"][spec] = msg
            print(f"{spec}: skipped ({msg})", file=sys.stderr)
            status = 1
            continue
        ratios = derived(result, anchors)
        title = f"{result['env_id']}: random games ({'quick' if args.quick else 'full'}; median of {repeats} x {budget:g} s)"
        _print_table(title, _table_rows(result["rows"]), _footer(result, ratios), console)
        result["ratios"] = ratios
        result["rows"] = [asdict(r) for r in result["rows"]]
        report["envs"][result["env_id"]] = result
    report["machine"]["threading_layer"] = _threading_layer()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, default=_json_default)
        print(f"wrote {args.json}")
    return status


def _json_default(x: Any):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


if __name__ == "__main__":
    sys.exit(main())
