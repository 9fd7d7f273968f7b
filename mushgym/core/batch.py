"""Generic compiled loops over one game's kernels (random rollouts, batches).

numba cannot cache a compiled function that takes another compiled function as
an argument (it recompiles it in every process), and a factory closure caches
unreliably. So the generic loops are written once here, as source, and
``install_batch_kernels(globals())`` at the end of each game's kernel module
compiles them *inside that module*: they call that game's ``init``,
``legal_mask``, ``step``, ... as module globals, numba inlines them, and each
game gets its own cached copy (the cache files are named after the game module).

numba judges a cache entry fresh by the modification time of the *game's* file,
so an edit to the loops below would not invalidate it. Each loop's qualified
name therefore carries a digest of this source (``vec_step__3fa9c2e1``): a new
version of the loops gets new cache files, while the names in the module stay
the plain ones (``vec_step``).

Kernels every game module defines before calling ``install_batch_kernels``::

    init(state, seed, cfg)                      deal and set up
    legal_mask(state, cfg, mask) -> int         fill int8 mask, return #legal
    step(state, action, cfg)                    apply one legal action
    observe(state, player, cfg, out)            fill the float32 observation

``legal_mask`` and ``observe`` must write *every* element of their output
(the vector loops reuse the buffers of the previous step without clearing them).
    current_player(state) -> int
    is_terminal(state) -> bool
    returns(state, cfg, out)                    float64 return of every seat

What the loops add to the module (all ``@njit(cache=True)``; ``par_*`` and
``random_rollouts`` are ``parallel=True`` and spread over numba's threads):

    sample_masked(mask, n_legal, rng, off)      uniform legal action
    aec_refresh / aec_advance                   one env: step + mask + player, one call
    play_random_game(...) / random_rollouts(...)   whole games, in-kernel
    vec_seed / vec_reset / vec_step / vec_sample   the vector API (mushgym.vector)
    sa_reset / sa_step                          single-agent vector view (learner
                                                on one seat, random opponents)

each ``vec_*`` / ``sa_*`` is written once, as ``par_vec_*`` / ``par_sa_*`` (prange over
envs), and also compiled without ``parallel`` under the plain name.
The Python side is :mod:`mushgym.vector`; the kernels allocate nothing per step,
and take row views with :func:`mushgym.core.rows.row` (no reference counting, so
threads do not fight over the batch arrays' counters).
"""

from __future__ import annotations

import hashlib
import re
import types

# Auto-reset modes (Gymnasium's names), as passed to the kernels.
AUTORESET_NEXT_STEP = 0
AUTORESET_SAME_STEP = 1
AUTORESET_DISABLED = 2

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
    The games are cut into at most 256 contiguous chunks, each with its own
    scratch state and mask, so nothing is allocated per game.
    Returns ``(steps[n_games], returns[n_games, num_players])``.
    """
    steps = np.zeros(n_games, np.int64)
    rets = np.zeros((n_games, num_players), np.float64)
    n_chunks = min(n_games, 256)
    for c in prange(n_chunks):
        lo = c * n_games // n_chunks
        hi = (c + 1) * n_games // n_chunks
        state = np.zeros(state_size, np.int64)
        mask = np.zeros(num_actions, np.int8)
        policy_rng = np.zeros(4, np.int64)
        for i in range(lo, hi):
            _rng_seed(policy_rng, 0, (seed + i) ^ 0x5DEECE66D)
            steps[i] = play_random_game(state, mask, seed + i, cfg, policy_rng, max_len)
            if steps[i] >= 0:
                returns(state, cfg, _row(rets, i))
    return steps, rets


# --- one env, for the AEC shell: one compiled call per step ---------------------

@njit(cache=True)
def aec_refresh(state, cfg, mask):
    """Fill ``mask`` for the player to act and return that player, or clear it and
    return -1 if the game is over."""
    if is_terminal(state):
        mask[:] = 0
        return -1
    legal_mask(state, cfg, mask)
    return current_player(state)


@njit(cache=True)
def aec_advance(state, action, cfg, mask):
    """``step`` (the caller has checked ``action`` against ``mask``) then ``aec_refresh``."""
    step(state, action, cfg)
    return aec_refresh(state, cfg, mask)


# --- the vector API: one row of ``states`` per env --------------------------------

@njit(cache=True)
def _vec_seed_one(i, base, seed_rngs, policy_rngs):
    """Env ``i``'s two private streams: episode seeds and random actions."""
    _rng_seed(_row(seed_rngs, i), 0, base + i * 0x9E3779B1)
    _rng_seed(_row(policy_rngs, i), 0, (base + i * 0x9E3779B1) ^ 0x5DEECE66D)


@njit(cache=True)
def _next_episode_seed(rng):
    """The next 62-bit episode seed of an env's seed stream."""
    hi = _rng_next32(rng, 0) >> 2
    return (hi << 32) | _rng_next32(rng, 0)


@njit(cache=True, inline='always')
def _vec_refresh(i, states, cfg, obs, masks, n_legal, players, policy_rngs, rand_actions, draw):
    """Write env ``i``'s mask, player to act and that player's observation (the game's
    ``legal_mask`` and ``observe`` overwrite every element). With ``draw``, also draw a
    uniformly random legal action into ``rand_actions[i]`` while the mask is hot."""
    state = _row(states, i)
    m = _row(masks, i)
    nl = legal_mask(state, cfg, m)
    n_legal[i] = nl
    p = current_player(state)
    players[i] = p
    observe(state, p, cfg, _row(obs, i))
    if draw:
        rand_actions[i] = sample_masked(m, nl, _row(policy_rngs, i), 0) if nl > 0 else 0


@njit(cache=True, inline='always')
def _vec_reset_one(i, states, cfg, obs, masks, n_legal, players, ep_len, seed_rngs, ep_seeds,
                   policy_rngs, rand_actions, draw):
    s = _next_episode_seed(_row(seed_rngs, i))
    ep_seeds[i] = s
    ep_len[i] = 0
    init(_row(states, i), s, cfg)
    _vec_refresh(i, states, cfg, obs, masks, n_legal, players, policy_rngs, rand_actions, draw)


@njit(cache=True)
def _vec_check(actions, masks, terminated, truncated, mode):
    """Index of the first env whose action is illegal, ``n + i`` if env ``i`` is finished
    and auto-reset is disabled, or -1 if the whole batch may be stepped."""
    n = actions.shape[0]
    num_actions = masks.shape[1]
    for i in range(n):
        if terminated[i] or truncated[i]:
            if mode == 0:
                continue
            if mode == 2:
                return n + i
        a = actions[i]
        if a < 0 or a >= num_actions or masks[i, a] == 0:
            return i
    return -1


@njit(cache=True, inline='always')
def _vec_step_one(i, states, actions, cfg, obs, masks, n_legal, players, rewards, terminated,
                  truncated, ep_len, max_len, seed_rngs, ep_seeds, mode, final_obs, has_final,
                  policy_rngs, rand_actions, draw):
    state = _row(states, i)
    for k in range(rewards.shape[1]):
        rewards[i, k] = 0.0
    if mode == 1:
        has_final[i] = False
    if mode == 0 and (terminated[i] or truncated[i]):
        terminated[i] = False
        truncated[i] = False
        _vec_reset_one(i, states, cfg, obs, masks, n_legal, players, ep_len, seed_rngs, ep_seeds,
                       policy_rngs, rand_actions, draw)
        return
    p = players[i]
    step(state, actions[i], cfg)
    ep_len[i] += 1
    if is_terminal(state):
        returns(state, cfg, _row(rewards, i))
        terminated[i] = True
        truncated[i] = False
    elif max_len > 0 and ep_len[i] >= max_len:
        terminated[i] = False
        truncated[i] = True
    else:
        terminated[i] = False
        truncated[i] = False
        _vec_refresh(i, states, cfg, obs, masks, n_legal, players, policy_rngs, rand_actions, draw)
        return
    # the episode ended: the final observation is the last mover's
    if mode == 1:
        observe(state, p, cfg, _row(final_obs, i))
        has_final[i] = True
        _vec_reset_one(i, states, cfg, obs, masks, n_legal, players, ep_len, seed_rngs, ep_seeds,
                       policy_rngs, rand_actions, draw)
    else:
        observe(state, p, cfg, _row(obs, i))
        masks[i, :] = 0
        n_legal[i] = 0
        players[i] = -1
        rand_actions[i] = 0


@njit(cache=True, inline='always')
def _vec_sample_one(i, masks, n_legal, policy_rngs, out):
    if n_legal[i] > 0:
        out[i] = sample_masked(_row(masks, i), n_legal[i], _row(policy_rngs, i), 0)
    else:
        out[i] = 0


@njit(cache=True)
def vec_seed(base, seed_rngs, policy_rngs):
    for i in range(seed_rngs.shape[0]):
        _vec_seed_one(i, base, seed_rngs, policy_rngs)


@njit(cache=True, parallel=True)
def par_vec_reset(states, cfg, obs, masks, n_legal, players, ep_len, seed_rngs, ep_seeds, policy_rngs,
                  rand_actions, draw):
    for i in prange(states.shape[0]):
        _vec_reset_one(i, states, cfg, obs, masks, n_legal, players, ep_len, seed_rngs, ep_seeds,
                       policy_rngs, rand_actions, draw)


@njit(cache=True, parallel=True)
def par_vec_step(states, actions, cfg, obs, masks, n_legal, players, rewards, terminated, truncated,
                 ep_len, max_len, seed_rngs, ep_seeds, mode, final_obs, has_final, policy_rngs, rand_actions, draw):
    bad = _vec_check(actions, masks, terminated, truncated, mode)
    if bad >= 0:
        return bad
    for i in prange(states.shape[0]):
        _vec_step_one(i, states, actions, cfg, obs, masks, n_legal, players, rewards, terminated,
                      truncated, ep_len, max_len, seed_rngs, ep_seeds, mode, final_obs, has_final,
                      policy_rngs, rand_actions, draw)
    return -1


@njit(cache=True, parallel=True)
def par_vec_sample(masks, n_legal, policy_rngs, out):
    for i in prange(masks.shape[0]):
        _vec_sample_one(i, masks, n_legal, policy_rngs, out)


# --- single-agent view: a learner seat per env, random opponents in here ----------

@njit(cache=True, inline='always')
def _sa_play_opponents(i, states, cfg, masks, learner, policy_rngs):
    """Random legal moves for every seat but ``learner`` until the learner is to act
    or the game is over. Uses ``_row(masks, i)`` as scratch. Returns the number of moves."""
    state = _row(states, i)
    m = _row(masks, i)
    moves = 0
    while not is_terminal(state) and current_player(state) != learner:
        nl = legal_mask(state, cfg, m)
        step(state, sample_masked(m, nl, _row(policy_rngs, i), 0), cfg)
        moves += 1
    return moves


@njit(cache=True, inline='always')
def _sa_refresh(i, states, cfg, obs, masks, n_legal, learner):
    state = _row(states, i)
    n_legal[i] = legal_mask(state, cfg, _row(masks, i))
    observe(state, learner, cfg, _row(obs, i))


@njit(cache=True, inline='always')
def _sa_reset_one(i, states, cfg, obs, masks, n_legal, seats, seat_mode, ep_len, seed_rngs, ep_seeds,
                  policy_rngs, num_players):
    """New episode for env ``i``: deal, pick the learner's seat, play the opponents up to
    the learner's first turn (re-dealing in the rare case the game ends before it)."""
    while True:
        s = _next_episode_seed(_row(seed_rngs, i))
        ep_seeds[i] = s
        ep_len[i] = 0
        init(_row(states, i), s, cfg)
        if seat_mode < 0:
            seats[i] = _rng_below(_row(policy_rngs, i), 0, num_players)
        else:
            seats[i] = seat_mode
        _sa_play_opponents(i, states, cfg, masks, seats[i], policy_rngs)
        if not is_terminal(_row(states, i)):
            break
    _sa_refresh(i, states, cfg, obs, masks, n_legal, seats[i])


@njit(cache=True, inline='always')
def _sa_step_one(i, states, actions, cfg, obs, masks, n_legal, seats, seat_mode, rewards, terminated,
                 truncated, ep_len, max_len, seed_rngs, ep_seeds, policy_rngs, mode, final_obs,
                 has_final, seat_returns, num_players):
    state = _row(states, i)
    rewards[i] = 0.0
    if mode == 1:
        has_final[i] = False
    if mode == 0 and (terminated[i] or truncated[i]):
        terminated[i] = False
        truncated[i] = False
        _sa_reset_one(i, states, cfg, obs, masks, n_legal, seats, seat_mode, ep_len, seed_rngs, ep_seeds,
                      policy_rngs, num_players)
        return
    learner = seats[i]
    step(state, actions[i], cfg)
    ep_len[i] += 1
    _sa_play_opponents(i, states, cfg, masks, learner, policy_rngs)
    if is_terminal(state):
        rr = _row(seat_returns, i)
        rr[:] = 0.0
        returns(state, cfg, rr)
        rewards[i] = rr[learner]
        terminated[i] = True
        truncated[i] = False
    elif max_len > 0 and ep_len[i] >= max_len:
        terminated[i] = False
        truncated[i] = True
    else:
        terminated[i] = False
        truncated[i] = False
        _sa_refresh(i, states, cfg, obs, masks, n_legal, learner)
        return
    if mode == 1:
        observe(state, learner, cfg, _row(final_obs, i))
        has_final[i] = True
        _sa_reset_one(i, states, cfg, obs, masks, n_legal, seats, seat_mode, ep_len, seed_rngs, ep_seeds,
                      policy_rngs, num_players)
    else:
        observe(state, learner, cfg, _row(obs, i))
        masks[i, :] = 0
        n_legal[i] = 0


@njit(cache=True, parallel=True)
def par_sa_reset(states, cfg, obs, masks, n_legal, seats, seat_mode, ep_len, seed_rngs, ep_seeds,
                 policy_rngs, num_players):
    for i in prange(states.shape[0]):
        _sa_reset_one(i, states, cfg, obs, masks, n_legal, seats, seat_mode, ep_len, seed_rngs, ep_seeds,
                      policy_rngs, num_players)


@njit(cache=True, parallel=True)
def par_sa_step(states, actions, cfg, obs, masks, n_legal, seats, seat_mode, rewards, terminated,
                truncated, ep_len, max_len, seed_rngs, ep_seeds, policy_rngs, mode, final_obs,
                has_final, seat_returns, num_players):
    bad = _vec_check(actions, masks, terminated, truncated, mode)
    if bad >= 0:
        return bad
    for i in prange(states.shape[0]):
        _sa_step_one(i, states, actions, cfg, obs, masks, n_legal, seats, seat_mode, rewards, terminated,
                     truncated, ep_len, max_len, seed_rngs, ep_seeds, policy_rngs, mode, final_obs,
                     has_final, seat_returns, num_players)
    return -1
'''

# A short digest of the loops' source (and the core modules they compile in),
# appended to each loop's qualified name so that numba's cache (keyed by file,
# qualified name and line) sees a new version.
def _digest() -> str:
    """Digest of the loops and of the core modules compiled into them (numba's cache
    does not follow dependencies, so a change to ``rows.py`` or ``rng.py`` must
    also rename the cache files)."""
    import os

    h = hashlib.sha1(BATCH_SOURCE.encode())
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("rows.py", "rng.py"):
        try:
            with open(os.path.join(here, name), "rb") as f:
                h.update(f.read())
        except OSError:  # pragma: no cover - zipped install: the loops' digest alone
            pass
    return h.hexdigest()[:8]


SOURCE_DIGEST = _digest()

_DEF = re.compile(r"^@njit\((?P<opts>[^)]*)\)\ndef (?P<name>\w+)\(", re.M)


def _plain_source() -> tuple[str, dict[str, str]]:
    """BATCH_SOURCE without its decorators, and each function's decorator options."""
    options = {m.group("name"): m.group("opts") for m in _DEF.finditer(BATCH_SOURCE)}
    plain = _DEF.sub(lambda m: f"\ndef {m.group('name')}(", BATCH_SOURCE)
    return plain, options


# each ``par_X`` (prange over envs) is also compiled without ``parallel`` as ``X``, where
# numba runs the same prange loop serially: one source for both versions
SERIAL_TWINS = tuple(name[len("par_"):] for name in _plain_source()[1] if name.startswith("par_"))
BATCH_FUNCTIONS = tuple(_plain_source()[1]) + SERIAL_TWINS


def install_batch_kernels(namespace: dict) -> None:
    """Compile the generic loops into a game kernel module (call it last, with ``globals()``)."""
    import numpy as np
    from numba import njit, prange

    from .rng import rng_below, rng_next32, rng_seed
    from .rows import row

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
    namespace["_rng_next32"] = rng_next32
    namespace["_rng_seed"] = rng_seed
    namespace["_row"] = row
    plain, options = _plain_source()
    # the blank line replacing each decorator keeps line numbers equal to BATCH_SOURCE's
    exec(compile(plain, namespace["__file__"], "exec"), namespace)
    for name, opts in options.items():
        fn = namespace[name]
        fn.__qualname__ = f"{name}__{SOURCE_DIGEST}"
        kwargs = eval(f"dict({opts})")  # only our own literal options, e.g. cache=True, parallel=True
        namespace[name] = njit(**kwargs)(fn)
        if name.startswith("par_"):
            serial = name[len("par_"):]
            twin = types.FunctionType(fn.__code__, fn.__globals__, serial, fn.__defaults__, fn.__closure__)
            twin.__qualname__ = f"{serial}__{SOURCE_DIGEST}"
            namespace[serial] = njit(cache=True)(twin)
