"""Fuzz the functional API with bad states, in subprocesses so that a crash is counted.

    python tests/fuzz_states.py fungi_v0 --random 1000 --corrupt 1000
    python tests/fuzz_states.py mycology_v1 --options '{"num_players": 6}' --corrupt 1000 --show

Inputs: ``random`` states (uniform int64 of the right length) and ``corrupt`` states
(a state reached by random play with one slot replaced: half the time by a uniform
int64, half by a small value in -10..300, which the bounds may let through). Each
input goes through ``current_player``, ``is_terminal``, ``returns``, ``observe`` of
every seat, ``legal_mask``, then up to 20 random legal ``step`` calls. Outcome:

* ``refused``: a ValueError/TypeError/RuntimeError with a message (a clear error);
* ``ok``: accepted and played on with every invariant holding (a valid state);
* ``silent``: accepted, but ``check_invariants`` failed or an observation left its bounds;
* ``unclear``: another exception (IndexError, numba errors, ...);
* ``crash``: the worker process died (segfault, abort).

The parent runs a worker per chunk and restarts it after the input that killed it.
``--show`` prints every silent, unclear or ok input (its number, the slot corrupted and why),
``--tree`` runs the workers on another source tree (e.g. an export of main, for before/after
counts).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np

CLEAR = (ValueError, TypeError, RuntimeError)


def make_input(game, kind: str, i: int, seed: int) -> np.ndarray:
    return make_input_slot(game, kind, i, seed)[0]


def make_input_slot(game, kind: str, i: int, seed: int) -> tuple[np.ndarray, int]:
    """The input and the slot corrupted (-1 for a random state)."""
    rng = np.random.default_rng([seed, i, 0 if kind == "random" else 1])
    if kind == "random":
        return rng.integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, game.state_size, dtype=np.int64, endpoint=True
        ), -1
    s = game.new_state(int(rng.integers(0, 2**31)))
    for _ in range(int(rng.integers(0, 40))):
        if game.kernels.is_terminal(s):
            break
        mask = np.zeros(game.num_actions, np.int8)
        game.kernels.legal_mask(s, game.config, mask, game.work)
        game.kernels.step(s, int(rng.choice(np.flatnonzero(mask))), game.config, game.work)
    slot = int(rng.integers(0, game.state_size))
    if rng.random() < 0.5:
        s[slot] = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, dtype=np.int64, endpoint=True)
    else:
        s[slot] = rng.integers(-10, 301)
    return s, slot


def run_one(game, state: np.ndarray, rng: np.random.Generator) -> str:
    return run_one_why(game, state, rng)[0]


def run_one_why(game, state: np.ndarray, rng: np.random.Generator) -> tuple[str, str]:
    """The outcome of one input and, for silent or unclear ones, why."""
    try:
        game.current_player(state)
        game.is_terminal(state)
        game.returns(state)
        for p in range(game.num_players):
            obs = game.observe(state, p)
            if (obs < game.obs_low).any() or (obs > game.obs_high).any():
                bad = int(np.flatnonzero((obs < game.obs_low) | (obs > game.obs_high))[0])
                return "silent", f"observation of player {p}: value {float(obs.flat[bad])} at {bad} out of bounds"
        for k in range(20):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            if len(legal) == 0:
                return "silent", f"no legal action after {k} steps"
            state = game.step(state, int(rng.choice(legal)))
        try:
            game.check_invariants(state)
        except AssertionError as err:
            return "silent", f"invariant: {err}"
        return "ok", ""
    except CLEAR as err:
        return ("refused", "") if str(err) else ("unclear", f"{type(err).__name__} without a message")
    except AssertionError as err:
        return "silent", f"assertion: {err}"
    except Exception as err:  # noqa: BLE001 - everything else is what we count
        return "unclear", f"{type(err).__name__}: {err}"


def worker(env_id: str, kind: str, options: str, start: int, stop: int, seed: int) -> None:
    import mushgym
    from mushgym.core.validate import slot_name

    game = mushgym.game(env_id, **json.loads(options))
    for i in range(start, stop):
        print(f"start {i}", flush=True)
        state, slot = make_input_slot(game, kind, i, seed)
        out, why = run_one_why(game, state, np.random.default_rng([seed, i, 2]))
        if why or out == "ok":
            where = slot_name(game.layout, slot) if 0 <= slot < game.layout.size else slot
            print(f"why {i} {out} slot {where} = {int(state[slot]) if slot >= 0 else ''}: {why}", flush=True)
        print(f"done {i} {out}", flush=True)


def run_chunks(command: list[str], n: int, seed: int, env: dict | None = None, timeout: float = 1800) -> Counter:
    """Run ``command + [start, stop, seed]`` (a worker printing ``start i`` / ``done i outcome``)
    until ``n`` inputs are done, restarting it after the input that killed it (a crash)."""
    counts: Counter = Counter()
    why = []
    i = 0
    while i < n:
        proc = subprocess.run(
            [*command, str(i), str(n), str(seed)], capture_output=True, text=True, env=env, timeout=timeout
        )
        last_started = None
        for line in proc.stdout.splitlines():
            parts = line.split()
            if parts[:1] == ["start"]:
                last_started = int(parts[1])
            elif parts[:1] == ["why"]:
                why.append(line[4:])
            elif parts[:1] == ["done"]:
                counts[parts[2]] += 1
                i = int(parts[1]) + 1
        if i < n and proc.returncode != 0:
            if last_started is None or last_started < i:  # died before its first input: not a fuzz result
                raise RuntimeError(f"fuzz worker failed to start: {proc.stderr[-2000:]}")
            counts["crash"] += 1
            i = last_started + 1
    counts["inputs"] = n
    counts.why = why  # the silent, unclear and ok inputs (fuzz_states workers), one line each
    return counts


def fuzz(
    env_id: str,
    kind: str,
    n: int,
    seed: int = 0,
    python: str = sys.executable,
    env: dict | None = None,
    timeout: float = 1800,
    options: dict | None = None,
) -> Counter:
    """Outcomes of ``n`` inputs of ``kind`` for ``env_id`` (made with ``options``), crashes
    included (see the module doc); the returned Counter's ``why`` lists the silent, unclear
    and ok inputs."""
    return run_chunks(
        [python, os.path.abspath(__file__), "--worker", env_id, kind, json.dumps(options or {})], n, seed, env, timeout
    )


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("env_id", nargs="?")
    p.add_argument("--random", type=int, default=100)
    p.add_argument("--corrupt", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--options", default="{}", help="the game's options as JSON, e.g. '{\"num_players\": 6}'")
    p.add_argument(
        "--tree",
        default=None,
        help="run the workers on another source tree (PYTHONPATH), e.g. an export of main, for before/after counts",
    )
    p.add_argument("--show", action="store_true", help="print every silent, unclear or ok input (and why)")
    p.add_argument("--worker", nargs=6, metavar=("ENV", "KIND", "OPTIONS", "START", "STOP", "SEED"))
    args = p.parse_args(argv)
    if args.worker:
        e, k, o, a, b, s = args.worker
        worker(e, k, o, int(a), int(b), int(s))
        return
    options = json.loads(args.options)
    env = dict(os.environ, PYTHONPATH=args.tree) if args.tree else None
    for kind, n in (("random", args.random), ("corrupt", args.corrupt)):
        if n:  # one line per kind, as soon as it is done
            counts = fuzz(args.env_id, kind, n, args.seed, env=env, timeout=7200, options=options)
            name = args.env_id + (f" {options}" if options else "")
            print(json.dumps({name: {kind: dict(counts)}}), flush=True)
            if args.show:
                for line in counts.why:
                    print(f"  {kind} {line}", flush=True)


if __name__ == "__main__":
    main()
