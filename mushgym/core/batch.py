"""Generic compiled loops over one game's kernels (random rollouts, batches).

numba cannot cache a compiled function that takes another compiled function as
an argument (it recompiles it in every process), and a factory closure caches
unreliably. So the generic loops are written once here, as source, and
``install_batch_kernels(globals())`` at the end of each game's kernel module
compiles them *inside that module*: they call that game's ``init``,
``legal_mask``, ``step``, ... as module globals, numba inlines them, and each
game gets its own cached copy (the cache files are named after the game module).

Kernels every game module defines before calling ``install_batch_kernels``::

    init(state, seed, cfg)                      deal and set up
    legal_mask(state, cfg, mask) -> int         fill int8 mask, return #legal
    step(state, action, cfg)                    apply one legal action
    observe(state, player, cfg, out)            fill the float32 observation
    current_player(state) -> int
    is_terminal(state) -> bool
    returns(state, cfg, out)                    float64 return of every seat
"""

from __future__ import annotations

BATCH_SOURCE = r'''
@njit(cache=True)
def sample_masked(mask, n_legal, rng, rng_off):
    """A uniformly random legal action of ``mask`` (which has ``n_legal`` ones)."""
    k = _rng_below(rng, rng_off, n_legal)
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def play_random_game(state, mask, seed, cfg, policy_rng, max_len):
    """Deal a game from ``seed`` and play it to the end with uniform random legal actions.

    Returns the number of steps, or -1 if the game was still running after
    ``max_len`` steps or a non-terminal state had no legal action.
    """
    init(state, seed, cfg)
    steps = 0
    while not is_terminal(state):
        if steps >= max_len:
            return -1
        n_legal = legal_mask(state, cfg, mask)
        if n_legal <= 0:
            return -1
        a = sample_masked(mask, n_legal, policy_rng, 0)
        step(state, a, cfg)
        steps += 1
    return steps


@njit(cache=True, parallel=True)
def random_rollouts(n_games, seed, cfg, state_size, num_actions, num_players, max_len):
    """Play ``n_games`` uniform-random games, spread over numba's threads.

    Game ``i`` is dealt from seed ``seed + i`` and its policy drawn from an
    independent stream, so the result does not depend on the thread count.
    Returns ``(steps[n_games], returns[n_games, num_players])``.
    """
    steps = np.zeros(n_games, np.int64)
    rets = np.zeros((n_games, num_players), np.float64)
    for i in prange(n_games):
        state = np.zeros(state_size, np.int64)
        mask = np.zeros(num_actions, np.int8)
        policy_rng = np.zeros(4, np.int64)
        _rng_seed(policy_rng, 0, (seed + i) ^ 0x5DEECE66D)
        steps[i] = play_random_game(state, mask, seed + i, cfg, policy_rng, max_len)
        if steps[i] >= 0:
            returns(state, cfg, rets[i])
    return steps, rets
'''


def install_batch_kernels(namespace: dict) -> None:
    """Compile the generic loops into a game kernel module (call it last, with ``globals()``)."""
    import numpy as np
    from numba import njit, prange

    from .rng import rng_below, rng_seed

    missing = [
        name
        for name in ("init", "legal_mask", "step", "observe", "current_player", "is_terminal", "returns")
        if name not in namespace
    ]
    if missing:
        raise TypeError(f"{namespace.get('__name__')}: game kernel module lacks {missing}")
    namespace.setdefault("np", np)
    namespace.setdefault("njit", njit)
    namespace.setdefault("prange", prange)
    namespace["_rng_below"] = rng_below
    namespace["_rng_seed"] = rng_seed
    exec(compile(BATCH_SOURCE, namespace["__file__"], "exec"), namespace)
