"""Fuzz every public entry point with bad input, in subprocesses so that a crash is counted.

    python tests/fuzz_entry.py aec fungi_v0 --n 300
    python tests/fuzz_entry.py all mycology_v1 --n 100

Entry points (``ENTRIES``): ``functional`` (states, tests/fuzz_states.py), ``aec`` (the raw
PettingZoo env), ``wrapped`` (``mushgym.make``, PettingZoo's wrappers), ``vector``
(``MushroomVectorEnv``: action arrays and ``set_state``), ``single_agent`` (``SingleAgentEnv``
and ``SingleAgentVectorEnv``), ``deck`` (the game's deck loader on mutated card files) and
``cli`` (``python -m mushgym`` with bad arguments). Each input is one call with one bad (or,
for control, good) argument drawn from :data:`BAD_VALUES` and the entry point's own cases.
Outcome of an input:

* ``refused``: a clear error (ValueError/TypeError/RuntimeError, PettingZoo's AssertionError
  in the wrapped env, an exit code 2 with a one-line message from the CLI), state unchanged;
* ``ok``: a valid input accepted (and what it produced still valid);
* ``silent``: an invalid input accepted, or a valid one refused;
* ``unclear``: another exception, a traceback from the CLI;
* ``crash``: the worker process died.

The drivers run a worker per chunk of inputs and restart it after the input that killed it
(:func:`fuzz_states.run_chunks`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

ENTRIES = ("functional", "aec", "wrapped", "vector", "single_agent", "deck", "cli")
CLEAR = (ValueError, TypeError, RuntimeError)
I64 = np.iinfo(np.int64)


def bad_value(rng: np.random.Generator, legal: int, num_actions: int):
    """``(value, valid)``: an adversarial action (or a legal one, ``valid`` True, for control)."""
    pool = [
        (legal, True),
        (np.int64(legal), True),
        (np.int32(legal), True),
        (np.array(legal), True),
        (True, False),
        (False, False),
        (np.bool_(True), False),
        (float(legal), False),
        (np.float32(legal), False),
        (-1, False),
        (num_actions, False),
        (num_actions + 449, False),
        (int(I64.max), False),
        (int(I64.min), False),
        (2**64, False),
        (-(2**70), False),
        (str(legal), False),
        (None, False),
        ([legal], False),
        (np.array([legal, legal]), False),
        (np.array([], np.int64), False),
        (float("nan"), False),
        (complex(legal, 0), False),
        ({"a": legal}, False),
        (b"\x00", False),
    ]
    return pool[int(rng.integers(len(pool)))]


# --- workers: one input per call, outcome returned -------------------------------------------


def _aec_input(env_id: str, wrapped: bool, rng: np.random.Generator) -> str:
    import mushgym

    env = mushgym.make(env_id) if wrapped else mushgym.make_raw(env_id)
    raw = env.unwrapped
    clear = CLEAR + ((AssertionError,) if wrapped else ())
    case = int(rng.integers(10))
    try:
        if case == 0:  # observe / step before reset
            try:
                (env.observe if rng.random() < 0.5 else lambda a: env.step(0))("player_0")
            except clear as e:
                return "refused" if str(e) else "unclear"
            return "silent"
        env.reset(seed=int(rng.integers(0, 2**62)))
        for _ in range(int(rng.integers(0, 30))):  # into the game
            if not env.agents:
                break
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        if not env.agents:
            try:
                env.step(0)
            except clear as e:
                return "refused" if str(e) else "unclear"
            return "silent"
        if case == 1:  # a seed
            seed, valid = [(np.int64(3), True), (2**70, True), (-1, False), (1.5, False), ("3", False), (True, False)][
                int(rng.integers(6))
            ]
            try:
                env.reset(seed=seed)
            except clear as e:
                return "refused" if not valid and str(e) else "silent" if valid else "unclear"
            return "ok" if valid else "silent"
        if case == 2:  # a state of another game / options / garbage
            game = raw.game
            other = (
                mushgym.game(env_id, num_players=game.player_counts()[-1])
                if game.num_players != game.player_counts()[-1]
                else mushgym.game(env_id, reward="score_diff")
                if "score_diff" in game.option_choices.get("reward", ())
                else None
            )
            bad = (
                other.new_state(1)
                if other is not None and rng.random() < 0.5
                else rng.integers(I64.min, I64.max, game.state_size, dtype=np.int64, endpoint=True)
            )
            before = raw.state()
            try:
                raw.set_state(bad)
            except clear as e:
                return "refused" if str(e) and np.array_equal(raw.state(), before) else "unclear"
            return "silent"
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        legal = int(rng.choice(np.flatnonzero(mask)))
        value, valid = bad_value(rng, legal, raw.game.num_actions)
        if (
            isinstance(value, (int, np.integer))
            and not isinstance(value, (bool, np.bool_))
            and 0 <= int(value) < mask.shape[0]
            and mask[int(value)]
        ):
            valid = True
        before = raw.state()
        try:
            env.step(value)
        except clear as e:
            same = np.array_equal(raw.state(), before)
            return ("refused" if str(e) and same else "unclear") if not valid else "silent"
        return "ok" if valid else "silent"
    except Exception:  # noqa: BLE001
        return "unclear"


def _vector_input(env_id: str, rng: np.random.Generator) -> str:
    import mushgym
    import mushgym.vector

    n = 4
    vec = mushgym.vector.make(env_id, num_envs=n, seed=int(rng.integers(0, 2**31)))
    try:
        if rng.random() < 0.1:
            try:
                vec.step(np.zeros(n, np.int64))
            except CLEAR as e:
                return "refused" if str(e) else "unclear"
            return "silent"
        vec.reset()
        for _ in range(int(rng.integers(0, 20))):
            vec.step(vec.sample_random_actions(out=np.zeros(n, np.int64)))
        before = vec.states.copy()
        case = int(rng.integers(4))
        if case == 0:
            game = vec.game
            bad = rng.integers(I64.min, I64.max, game.state_size, dtype=np.int64, endpoint=True)
            try:
                vec.set_state(int(rng.integers(n)), bad)
            except CLEAR as e:
                return "refused" if str(e) and np.array_equal(vec.states, before) else "unclear"
            return "silent"
        if case == 1:  # writes into the returned buffers
            try:
                vec.masks[0, :] = 1
            except ValueError:
                return "refused"
            return "silent"
        acts = vec.sample_random_actions(out=np.zeros(n, np.int64)).copy()
        i = int(rng.integers(n))
        legal = int(acts[i])
        illegal = np.flatnonzero(vec.masks[i] == 0)
        other = int(illegal[int(rng.integers(len(illegal)))]) if len(illegal) else -1
        variants = [
            (acts, True),
            (acts.tolist(), True),
            (acts.astype(np.int32), True),
            (acts.astype(np.float64), True),  # integral floats: accepted by design
            (acts + 0.5, False),
            (acts.astype(bool), False),
            (acts.astype(object), False),
            (np.where(np.arange(n) == i, other, acts), False),
            (np.where(np.arange(n) == i, -1, acts), False),
            (np.where(np.arange(n) == i, vec.num_actions, acts), False),
            (np.where(np.arange(n) == i, 2**62, acts), False),
            (np.full(n, 2**64 - 1, np.uint64), False),
            (np.full(n, np.nan), False),
            (acts[:-1], False),
            (acts.reshape(n, 1), False),
            (None, False),
            (str(legal), False),
            (legal, False),
        ]
        arg, valid = variants[int(rng.integers(len(variants)))]
        if case == 3:
            arg = np.asarray([legal] * (n + 1))
            valid = False
        try:
            vec.step(arg)
        except CLEAR as e:
            same = np.array_equal(vec.states, before)
            return ("refused" if str(e) and same else "unclear") if not valid else "silent"
        return "ok" if valid else "silent"
    except Exception:  # noqa: BLE001
        return "unclear"


def _single_agent_input(env_id: str, rng: np.random.Generator) -> str:
    from mushgym.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv(env_id, illegal_action="raise")
    try:
        if rng.random() < 0.1:
            try:
                env.step(0)
            except CLEAR as e:
                return "refused" if str(e) else "unclear"
            return "silent"
        seed, seed_ok = [(int(rng.integers(0, 2**31)), True), (np.int64(5), True), (2**70, True)][int(rng.integers(3))]
        env.reset(seed=seed)
        mask = env.action_masks()
        legal = int(rng.choice(np.flatnonzero(mask)))
        value, valid = bad_value(rng, legal, env.game.num_actions)
        if (
            isinstance(value, (int, np.integer))
            and not isinstance(value, (bool, np.bool_))
            and 0 <= int(value) < mask.shape[0]
            and mask[int(value)]
        ):
            valid = True
        try:
            env.step(value)
        except CLEAR as e:
            return ("refused" if str(e) else "unclear") if not valid else "silent"
        return "ok" if valid else "silent"
    except Exception:  # noqa: BLE001
        return "unclear"


def _deck_module(env_id: str):
    import importlib

    import mushgym

    game = mushgym.game(env_id)
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".cards")


MUTATIONS = ("4611686018427387904", "-5", "2.5", '"x"', "[1, 2, 3]", "true", "{ a = 1 }", "99999", "0", "1")


def _deck_input(env_id: str, rng: np.random.Generator) -> str:
    import re

    cards = _deck_module(env_id)
    path = Path(getattr(cards, "DEFAULT_DECK_PATH", None) or getattr(cards, "DEFAULT_PATH"))
    text = path.read_text()
    case = int(rng.integers(4))
    if case == 0:  # a value replaced
        spots = list(re.finditer(r"^(\w+) = (.+)$", text, re.M))
        m = spots[int(rng.integers(len(spots)))]
        text = text[: m.start(2)] + MUTATIONS[int(rng.integers(len(MUTATIONS)))] + text[m.end(2) :]
        data = text.encode()
    elif case == 1:  # a table array replaced by integers
        m = re.search(r"^\[\[(\w+)\]\]$", text, re.M)
        data = (f"{m.group(1)} = [1, 2, 3]\n" + text.replace(f"[[{m.group(1)}]]", "[[unused]]")).encode()
    elif case == 2:  # bytes that are not UTF-8
        raw = text.encode()
        k = int(rng.integers(len(raw)))
        data = raw[:k] + bytes([0xFF, 0xFE]) + raw[k:]
    else:  # truncated
        raw = text.encode()
        data = raw[: int(rng.integers(len(raw)))]
    with tempfile.NamedTemporaryFile("wb", suffix=".toml", delete=False) as fh:
        fh.write(data)
    try:
        deck = cards.load_deck(fh.name)
    except ValueError as e:
        msg = str(e)
        return "refused" if fh.name in msg or Path(fh.name).name in msg else "unclear"
    except Exception:  # noqa: BLE001
        return "unclear"
    finally:
        os.unlink(fh.name)
    # accepted: every table within the limits the loader declares
    for name, arr in vars(deck).items():
        if isinstance(arr, np.ndarray) and (np.abs(arr) > 10**6).any():
            return "silent"
    return "ok"


CLI_CASES = (
    ["eval", "{env}", "random", "greedy", "--games", "-3", "--no-save"],
    ["eval", "{env}", "random", "greedy", "--games", "0", "--no-save"],
    ["eval", "{env}", "random", "greedy", "--games", "abc", "--no-save"],
    ["eval", "no_such_env", "random", "random", "--no-save"],
    ["eval", "{env}", "random", "/nonexistent/model.zip", "--no-save"],
    ["describe", "no_such_env"],
    ["play", "no_such_env"],
    ["bench", "no_such_env"],
    ["compile", "no_such_env"],
    ["golden", "--dir", "{site}/mushgym/x"],
    ["describe", "{env}", "--bogus"],
    ["play", "{env}", "--seat", "-7"],
    ["nonexistent-command"],
)


def _cli_input(env_id: str, rng: np.random.Generator) -> str:
    import sysconfig

    case = [
        a.format(env=env_id, site=sysconfig.get_paths()["purelib"])
        for a in CLI_CASES[int(rng.integers(len(CLI_CASES)))]
    ]
    try:
        out = subprocess.run(
            [sys.executable, "-m", "mushgym", *case],
            capture_output=True,
            text=True,
            timeout=600,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return "unclear"
    if out.returncode < 0:
        return "crash"
    if "Traceback" in out.stderr:
        return "unclear"
    return "refused" if out.returncode != 0 and out.stderr.strip() else "silent"


def run_one(entry: str, env_id: str, i: int, seed: int) -> str:
    rng = np.random.default_rng([seed, i, ENTRIES.index(entry)])
    if entry in ("aec", "wrapped"):
        return _aec_input(env_id, entry == "wrapped", rng)
    if entry == "vector":
        return _vector_input(env_id, rng)
    if entry == "single_agent":
        return _single_agent_input(env_id, rng)
    if entry == "deck":
        return _deck_input(env_id, rng)
    if entry == "cli":
        return _cli_input(env_id, rng)
    raise ValueError(f"unknown entry point {entry!r}; entry points are {list(ENTRIES)}")


def worker(entry: str, env_id: str, start: int, stop: int, seed: int) -> None:
    import warnings

    warnings.simplefilter("ignore")
    for i in range(start, stop):
        print(f"start {i}", flush=True)
        print(f"done {i} {run_one(entry, env_id, i, seed)}", flush=True)


def fuzz(entry: str, env_id: str, n: int, seed: int = 0, env: dict | None = None, timeout: float = 3600) -> Counter:
    """Outcomes of ``n`` inputs to ``entry`` for ``env_id``, crashes included (see the module doc)."""
    if entry == "functional":
        from fuzz_states import fuzz as fuzz_states

        counts = fuzz_states(env_id, "random", n // 2, seed, env=env) + fuzz_states(
            env_id, "corrupt", n - n // 2, seed, env=env
        )
        counts["inputs"] = n
        return counts
    from fuzz_states import run_chunks

    return run_chunks([sys.executable, os.path.abspath(__file__), "--worker", entry, env_id], n, seed, env, timeout)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("entry", nargs="?", choices=ENTRIES + ("all",))
    p.add_argument("env_id", nargs="?", default="fungi_v0")
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--tree",
        default=None,
        help="run the workers on another source tree (PYTHONPATH), e.g. an export of main, for before/after counts",
    )
    p.add_argument("--worker", nargs=5, metavar=("ENTRY", "ENV", "START", "STOP", "SEED"))
    args = p.parse_args(argv)
    if args.worker:
        e, env_id, a, b, s = args.worker
        worker(e, env_id, int(a), int(b), int(s))
        return
    entries = ENTRIES if args.entry == "all" else (args.entry,)
    env = dict(os.environ, PYTHONPATH=args.tree) if args.tree else None
    print(json.dumps({args.env_id: {e: dict(fuzz(e, args.env_id, args.n, args.seed, env=env)) for e in entries}}))


if __name__ == "__main__":
    main()
