"""Where a simulation of the compiled search goes: microseconds per simulation of each part of
``mushgym.core.search.mcts_search`` (random rollouts), from the positions that
``benchmarks/search_speed.py`` times, measured by subtraction in one process, best of
``--repeats`` interleaved rounds (the machine is shared; the best round is the least disturbed):

* ``copy``: copy the root state (the start of every iteration);
* ``determinize``: + the game's ``determinize`` and reseeding the state's generator;
* ``flat``: + a uniformly random rollout to the end (``legal_mask``, ``sample_masked``,
  ``step`` per move): flat Monte Carlo, a simulation without the tree;
* ``legal_mask`` / ``sample``: the same with ``legal_mask`` (or the sampling) done twice
  per move: the difference is what one of them costs per simulation;
* ``mcts``: the full search (``Searcher(game, simulations=1000)``, one thread); ``mcts - flat``
  is the tree: selection (UCB1 over the available children), expansion and backup.

    python benchmarks/search_profile.py                 # fungi_v0
    python benchmarks/search_profile.py mycology_v0 --repeats 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mushgym
from mushgym.bench.rows import search_positions
from mushgym.search import Searcher

# compiled over the game's search module's globals (its kernels, determinize, sample_masked), uncached:
# a measuring tool, not part of the package
PROFILE_SOURCE = r'''
def profile_loop(root, player, n, mode, rng_off, max_len, cfg, state, mask, work, rng):
    """``n`` iterations of part of a simulation: mode 0 copy, 1 + determinize, 2 + random
    rollout, 3 rollout with legal_mask twice per move, 4 with the sampling twice."""
    total = 0
    for it in range(n):
        for i in range(state.shape[0]):
            state[i] = root[i]
        if mode >= 1:
            determinize(state, player, cfg, work, rng)
            if rng_off >= 0:
                _rng_seed(state, rng_off, (_rng_next32(rng, 0) << 28) ^ _rng_next32(rng, 0))
        if mode >= 2:
            steps = 0
            while not is_terminal(state) and steps < max_len:
                nl = legal_mask(state, cfg, mask, work)
                if mode == 3:
                    nl = legal_mask(state, cfg, mask, work)
                if nl <= 0:
                    break
                a = sample_masked(mask, nl, rng, 0)
                if mode == 4:
                    a = sample_masked(mask, nl, rng, 0)
                step(state, a, cfg, work)
                steps += 1
            total += steps
    return total
'''

PARTS = ("copy", "determinize", "flat", "legal_mask x2", "sample x2")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env", nargs="?", default="fungi_v0")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--simulations", type=int, default=1000)
    args = ap.parse_args(argv)
    game = mushgym.game(args.env)
    searcher = Searcher(game, simulations=args.simulations, seed=0)
    if searcher.mode != "kernel":
        raise SystemExit(f"{args.env}: no compiled determinize kernel to profile (mode {searcher.mode!r})")
    from numba import njit

    ns = dict(searcher.ns)
    exec(compile(PROFILE_SOURCE, "<search_profile>", "exec"), ns)
    loop = njit(nogil=True)(ns["profile_loop"])
    states = search_positions(game)
    b = searcher._buffer(0)
    rng = np.zeros(4, np.int64)
    ns["search_rng_seed"](rng, 1)
    n = args.simulations

    def part(mode):
        steps = 0
        t0 = time.perf_counter()
        for s in states:
            steps += loop(s, game.current_player(s), n, mode, searcher.rng_off, searcher.max_len, game.config,
                          b.state, b.mask, b.work, rng)
        return (time.perf_counter() - t0) / (len(states) * n), steps / (len(states) * n)

    def full():
        t0 = time.perf_counter()
        for s in states:
            searcher.search(s, game.current_player(s))
        return (time.perf_counter() - t0) / (len(states) * n), 0.0

    for mode in range(len(PARTS)):
        loop(states[0], game.current_player(states[0]), 2, mode, searcher.rng_off, searcher.max_len, game.config,
             b.state, b.mask, b.work, rng)
    full()
    best = {k: float("inf") for k in PARTS + ("mcts",)}
    moves = 0.0
    for _ in range(args.repeats):
        for mode, name in enumerate(PARTS):
            t, m = part(mode)
            best[name] = min(best[name], t)
            moves = max(moves, m)
        best["mcts"] = min(best["mcts"], full()[0])
    us = {k: 1e6 * v for k, v in best.items()}
    rows = [
        ("copy the root", us["copy"]),
        ("determinize + reseed", us["determinize"] - us["copy"]),
        (f"rollout ({moves:.1f} moves)", us["flat"] - us["determinize"]),
        ("  of which legal_mask", us["legal_mask x2"] - us["flat"]),
        ("  of which sampling", us["sample x2"] - us["flat"]),
        ("  of which step and the rest", 3 * us["flat"] - us["determinize"] - us["legal_mask x2"] - us["sample x2"]),
        ("tree: selection, expansion, backup", us["mcts"] - us["flat"]),
        ("whole simulation (mcts)", us["mcts"]),
    ]
    print(f"{args.env}: microseconds per simulation, best of {args.repeats} (mcts at {n:,} simulations: "
          f"{1e6 / us['mcts']:,.0f} simulations/s; flat Monte Carlo {1e6 / us['flat']:,.0f}/s)")
    for name, v in rows:
        print(f"  {name:<36} {v:7.2f} us  {100 * v / us['mcts']:5.1f}%")


if __name__ == "__main__":
    main()
