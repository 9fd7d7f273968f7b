"""Generic compiled loops over one game's kernels (random rollouts, batches).

numba cannot cache a compiled function that takes another compiled function as
an argument (it recompiles it in every process), and a factory closure caches
unreliably. So the generic loops are written once here, as source, and
``generated_loops(globals())`` at the end of each game's kernel module names them
as that module's generated code: ``mushgym generate`` writes them to
``generated/<module>_loops.py`` beside it (:mod:`mushgym.core.codegen`), where they
import that game's ``init``, ``legal_mask``, ``step``, ... as module globals; numba
inlines them, and each game gets its own cached copy (:func:`loops_module` finds it).
:mod:`mushgym.core.cache` drops a game's cache when any source it inlines changes.

Kernels every game module defines before calling ``generated_loops``
(``work`` is the game's scratch area, ``WORK_SIZE`` int64 slots; see
``mushgym/core/README.md``)::

    init(state, seed, cfg, work)                deal and set up (wrapped here so that every deal
                                                also stamps the state header, mushgym.core.header)
    legal_mask(state, cfg, mask, work) -> int   fill the int8 mask, return #legal
    step(state, action, cfg, work)              apply one legal action
    observe(state, player, cfg, out, work)      fill the observation (float32, or a narrower
                                                exact dtype in the vector API)
    current_player(state) -> int
    is_terminal(state) -> bool
    returns(state, cfg, out)                    float64 return of every seat
    is_truncated(state, cfg) -> bool            optional: the game was cut (e.g. a turn limit),
                                                not ended by its rules; reported as a truncation

``legal_mask`` and ``observe`` must write *every* element of their output
(the vector loops reuse the buffers of the previous step without clearing them).

What the loops module holds (all ``@njit(cache=True)``; ``par_*`` and
``random_rollouts`` are ``parallel=True`` and spread over numba's threads):

    init(state, seed, cfg, work)                the game's ``init``, then the state header
    aec_refresh / aec_advance                   one env: step + mask + player, one call
    play_random_game(...) / random_rollouts(...)   whole games, in-kernel
    vec_seed / vec_reset / vec_step / vec_sample   the vector API (mushgym.vector)
    ep_deal / ep_step / ep_observe              chosen rows of a batch only, seeded deals, no
                                                auto-reset (mushgym.episodes: games played
                                                by agents)
    sa_reset / sa_step                          single-agent vector view (learner
                                                on one seat, random opponents)

The vector loops take their arrays as one named bundle, :class:`Batch`. Each
``vec_*`` / ``sa_*`` is written once, as ``par_vec_*`` / ``par_sa_*`` (prange
over envs), and also compiled without ``parallel`` under the plain name. The
kernels allocate nothing per step: each chunk of envs uses its own row of
``Batch.works``, and row views come from :func:`mushgym.core.rows.row` (no
reference counting, so threads do not fight over the batch arrays' counters).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

# ``flags`` of the vector kernels: draw random actions during the step, write observations.
FLAG_DRAW = 1
FLAG_OBS = 2

# Auto-reset modes (Gymnasium's names), as passed to the kernels.
AUTORESET_NEXT_STEP = 0
AUTORESET_SAME_STEP = 1
AUTORESET_DISABLED = 2

NEVER_TRUNCATED = "@njit(cache=True)\ndef is_truncated(state, cfg):\n    return False\n"

BATCH_SOURCE = r'''
@njit(cache=True, inline='always')
def _borrowed(b):
    """The bundle as borrowed views: reading an array from a tuple takes a reference every
    time (atomic counter traffic in the loops over envs); borrowed views have none."""
    return _Batch(_borrow(b.states), _borrow(b.obs), _borrow(b.final_obs), _borrow(b.has_final),
                  _borrow(b.masks), _borrow(b.n_legal), _borrow(b.players), _borrow(b.rewards),
                  _borrow(b.learner_rewards), _borrow(b.terminated), _borrow(b.truncated), _borrow(b.ep_len),
                  _borrow(b.ep_seeds), _borrow(b.seed_rngs), _borrow(b.policy_rngs), _borrow(b.rand_actions),
                  _borrow(b.works))


@njit(cache=True)
def play_random_game(state, mask, work, seed, cfg, policy_rng, max_len):
    """Deal a game from ``seed`` and play it to the end with uniform random legal actions.

    Returns the number of steps, or -1 if the game was still running after
    ``max_len`` steps or a non-terminal state had no legal action.
    """
    init(state, seed, cfg, work)
    steps = 0
    while not is_terminal(state):
        if steps >= max_len:
            return -1
        n_legal = legal_mask(state, cfg, mask, work)
        if n_legal <= 0:
            return -1
        a = sample_masked(mask, n_legal, policy_rng, 0)
        step(state, a, cfg, work)
        steps += 1
    return steps


@njit(cache=True, parallel=True)
def random_rollouts(n_games, seed, cfg, state_size, num_actions, num_players, max_len):
    """Play ``n_games`` uniform-random games, spread over numba's threads.

    Game ``i`` is dealt from seed ``seed + i`` and its policy drawn from an
    independent stream, so the result does not depend on the thread count.
    The games are cut into at most 256 contiguous chunks, each with its own
    state, mask and work area, so nothing is allocated per game.
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
        work = np.zeros(WORK_SIZE, np.int64)
        policy_rng = np.zeros(4, np.int64)
        for i in range(lo, hi):
            _rng_seed(policy_rng, 0, (seed + i) ^ 0x5DEECE66D)
            steps[i] = play_random_game(state, mask, work, seed + i, cfg, policy_rng, max_len)
            if steps[i] >= 0:
                returns(state, cfg, _row(rets, i))
    return steps, rets


# --- one env, for the AEC shell: one compiled call per step ---------------------

@njit(cache=True)
def aec_refresh(state, cfg, mask, work):
    """Fill ``mask`` for the player to act and return that player, or clear it and
    return -1 if the game is over."""
    if is_terminal(state):
        mask[:] = 0
        return -1
    legal_mask(state, cfg, mask, work)
    return current_player(state)


@njit(cache=True)
def aec_advance(state, action, cfg, mask, work):
    """``step`` (the caller has checked ``action`` against ``mask``) then ``aec_refresh``."""
    step(state, action, cfg, work)
    return aec_refresh(state, cfg, mask, work)


# --- the vector API: one row of every array of the bundle ``b`` per env -------------
# ``b`` is a :class:`mushgym.core.batch.Batch`. The envs are cut into as many contiguous
# chunks as ``b.works`` has rows, each chunk with its own scratch row (numba's
# ``get_thread_id`` cannot be used: cached code calling it crashes when reloaded).

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


@njit(cache=True)
def _observe_into(state, player, cfg, out, work):
    """``observe`` behind a call: the rare paths (a final observation, the agents' rows, the
    single-agent view) share this one compiled copy instead of inlining the game's
    ``observe`` at every site (each inlined copy costs compile time, not speed)."""
    observe(state, player, cfg, out, work)


@njit(cache=True, inline='always')
def _vec_mask(i, b, cfg, work, flags):
    """Write env ``i``'s mask and player to act; return that player. With ``flags & 1``,
    also draw a uniformly random legal action into ``b.rand_actions[i]`` while the mask is hot."""
    state = _row(b.states, i)
    m = _row(b.masks, i)
    nl = legal_mask(state, cfg, m, work)
    b.n_legal[i] = nl
    p = current_player(state)
    b.players[i] = p
    if flags & 1:
        b.rand_actions[i] = sample_masked(m, nl, _row(b.policy_rngs, i), 0) if nl > 0 else 0
    return p


@njit(cache=True, inline='always')
def _vec_refresh(i, b, cfg, work, flags):
    """``_vec_mask``, then (with ``flags & 2``) that player's observation (the game's
    ``legal_mask`` and ``observe`` overwrite every element)."""
    p = _vec_mask(i, b, cfg, work, flags)
    if flags & 2:
        _observe_into(_row(b.states, i), p, cfg, _row(b.obs, i), work)


@njit(cache=True, inline='always')
def _vec_deal(i, b, cfg, work):
    """Env ``i``'s next episode from its seed stream (state only)."""
    s = _next_episode_seed(_row(b.seed_rngs, i))
    b.ep_seeds[i] = s
    b.ep_len[i] = 0
    init(_row(b.states, i), s, cfg, work)


@njit(cache=True, inline='always')
def _vec_reset_one(i, b, cfg, work, flags):
    _vec_deal(i, b, cfg, work)
    p = _vec_mask(i, b, cfg, work, flags)
    if flags & 2:
        observe(_row(b.states, i), p, cfg, _row(b.obs, i), work)


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
def _episode_end(i, b, state, cfg, max_len):
    """After a step of env ``i``: set its terminated/truncated flags (and the seats'
    returns in ``b.rewards`` on a terminal state). True if the episode ended."""
    b.ep_len[i] += 1
    if is_terminal(state):
        returns(state, cfg, _row(b.rewards, i))
        cut = is_truncated(state, cfg)
        b.terminated[i] = not cut
        b.truncated[i] = cut
        return True
    b.terminated[i] = False
    b.truncated[i] = max_len > 0 and b.ep_len[i] >= max_len
    return b.truncated[i]


@njit(cache=True, inline='always')
def _vec_step_one(i, b, actions, cfg, work, max_len, mode, flags):
    """One env's step. The game's ``init``, ``legal_mask`` and ``observe`` each have one call
    site here (each inlined copy costs compile time): the observation is of the player to
    act, or of the last mover when the episode just ended; the final observation of the
    same-step mode goes through ``_observe_into``."""
    state = _row(b.states, i)
    for k in range(b.rewards.shape[1]):
        b.rewards[i, k] = 0.0
    if mode == 1:
        b.has_final[i] = False
    who = b.players[i]
    deal = False
    refresh = True
    if mode == 0 and (b.terminated[i] or b.truncated[i]):
        b.terminated[i] = False
        b.truncated[i] = False
        deal = True
    else:
        step(state, actions[i], cfg, work)
        if _episode_end(i, b, state, cfg, max_len):
            if mode == 1:   # keep the last mover's view, deal the next game in the same step
                if flags & 2:
                    _observe_into(state, who, cfg, _row(b.final_obs, i), work)
                b.has_final[i] = True
                deal = True
            else:           # the observation is the last mover's; no mask, no player
                refresh = False
                b.masks[i, :] = 0
                b.n_legal[i] = 0
                b.players[i] = -1
                b.rand_actions[i] = 0
    if deal:
        _vec_deal(i, b, cfg, work)
    if refresh:
        who = _vec_mask(i, b, cfg, work, flags)
    if flags & 2:
        observe(state, who, cfg, _row(b.obs, i), work)


@njit(cache=True, inline='always')
def _prefetch_env(i, b, flags):
    """Ask for env ``i``'s state, mask and (with ``flags & 2``) observation rows ahead of its
    step: a large batch does not stay in cache, and the kernels' scattered reads and writes
    of cold rows cost more than a stream of prefetches (``mushgym.core.rows.prefetch_row``)."""
    _prefetch_row(b.states, i)   # into L2, or L1 with the module's PREFETCH_L1 (generated_loops)
    _prefetch_row(b.masks, i)
    if flags & 2:
        _prefetch_row(b.obs, i)


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


@njit(cache=True)
def _vec_reset_chunk(c, nc, b, cfg, flags):
    """Chunk ``c`` of ``nc`` (contiguous envs) with its own scratch row. Kept out of the
    prange body: parfors lose writes made through the bundle's arrays in the loop body."""
    b = _borrowed(b)
    n = b.states.shape[0]
    work = _row(b.works, c)
    hi = (c + 1) * n // nc
    for env in range(c * n // nc, hi):
        if PREFETCH_AHEAD > 0 and env + PREFETCH_AHEAD < hi:
            _prefetch_env(env + PREFETCH_AHEAD, b, flags)
        _vec_reset_one(env, b, cfg, work, flags)


@njit(cache=True, parallel=True)
def par_vec_reset(b, cfg, flags):
    nc = b.works.shape[0]
    for c in prange(nc):
        _vec_reset_chunk(c, nc, b, cfg, flags)


@njit(cache=True)
def _vec_step_chunk(c, nc, b, actions, cfg, max_len, mode, flags):
    """Chunk ``c`` of ``nc`` (contiguous envs) with its own scratch row. Kept out of the
    prange body: parfors lose writes made through the bundle's arrays in the loop body."""
    b = _borrowed(b)
    n = b.states.shape[0]
    work = _row(b.works, c)
    hi = (c + 1) * n // nc
    for env in range(c * n // nc, hi):
        if PREFETCH_AHEAD > 0 and env + PREFETCH_AHEAD < hi:   # a constant: compiled away when 0
            _prefetch_env(env + PREFETCH_AHEAD, b, flags)
        _vec_step_one(env, b, actions, cfg, work, max_len, mode, flags)


@njit(cache=True, parallel=True)
def par_vec_step(b, actions, cfg, max_len, mode, flags):
    bad = _vec_check(actions, b.masks, b.terminated, b.truncated, mode)
    if bad >= 0:
        return bad
    nc = b.works.shape[0]
    for c in prange(nc):
        _vec_step_chunk(c, nc, b, actions, cfg, max_len, mode, flags)
    return -1


@njit(cache=True, parallel=True)
def par_vec_sample(masks, n_legal, policy_rngs, out):
    for i in prange(masks.shape[0]):
        _vec_sample_one(i, masks, n_legal, policy_rngs, out)


# --- episodes: chosen rows only (mushgym.episodes: agents' decisions, seeded deals) --------
# ``rows`` lists the envs to touch; the others are left exactly as they are (a finished
# game keeps its final state, flags and returns; a game waiting for another agent keeps
# its observation and mask). No auto-reset: the caller deals new games with ``ep_deal``.

@njit(cache=True, inline='always')
def _ep_end_row(i, b, cfg, work):
    """Env ``i`` is over (or cut short): every seat's return, no mask, no player to act."""
    state = _row(b.states, i)
    if is_terminal(state):
        returns(state, cfg, _row(b.rewards, i))
    b.masks[i, :] = 0
    b.n_legal[i] = 0
    b.players[i] = -1


@njit(cache=True, inline='always')
def _ep_deal_one(i, b, seed, cfg, work):
    b.ep_seeds[i] = seed
    b.ep_len[i] = 0
    for k in range(b.rewards.shape[1]):
        b.rewards[i, k] = 0.0
    b.truncated[i] = False
    state = _row(b.states, i)
    init(state, seed, cfg, work)
    if is_terminal(state):  # a game over at the deal
        b.terminated[i] = True
        _ep_end_row(i, b, cfg, work)
    else:
        b.terminated[i] = False
        _vec_refresh(i, b, cfg, work, 2)


@njit(cache=True, inline='always')
def _ep_step_one(i, b, action, cfg, work, max_len):
    step(_row(b.states, i), action, cfg, work)
    if _episode_end(i, b, _row(b.states, i), cfg, max_len):
        _ep_end_row(i, b, cfg, work)
    else:
        _vec_refresh(i, b, cfg, work, 2)


@njit(cache=True)
def _ep_check(rows, actions, b):
    """Position in ``rows`` of the first row whose action is illegal (or whose game is
    over: ``len(rows) + k``), or -1."""
    num_actions = b.masks.shape[1]
    for k in range(rows.shape[0]):
        i = rows[k]
        if b.terminated[i] or b.truncated[i]:
            return rows.shape[0] + k
        a = actions[k]
        if a < 0 or a >= num_actions or b.masks[i, a] == 0:
            return k
    return -1


@njit(cache=True)
def _ep_deal_chunk(c, nc, b, rows, seeds, cfg):
    """Chunk ``c`` of ``nc`` of the listed rows, with its own scratch row (kept out of the
    prange body: parfors lose writes made through the bundle's arrays in the loop body)."""
    b = _borrowed(b)
    n = rows.shape[0]
    work = _row(b.works, c)
    for k in range(c * n // nc, (c + 1) * n // nc):
        _ep_deal_one(rows[k], b, seeds[k], cfg, work)


@njit(cache=True)
def _ep_step_chunk(c, nc, b, rows, actions, cfg, max_len):
    b = _borrowed(b)
    n = rows.shape[0]
    work = _row(b.works, c)
    for k in range(c * n // nc, (c + 1) * n // nc):
        _ep_step_one(rows[k], b, actions[k], cfg, work, max_len)


@njit(cache=True, parallel=True)
def par_ep_deal(b, rows, seeds, cfg):
    """Deal env ``rows[k]`` the game of ``seeds[k]`` and write its mask, player to act and
    that player's observation (a game over at the deal is marked terminated)."""
    nc = b.works.shape[0]
    for c in prange(nc):
        _ep_deal_chunk(c, nc, b, rows, seeds, cfg)


@njit(cache=True, parallel=True)
def par_ep_step(b, rows, actions, cfg, max_len):
    """Apply ``actions[k]`` to env ``rows[k]`` (the others are untouched), then write its
    mask, player and observation, or its returns and flags if the game ended. Returns -1,
    or what ``_ep_check`` found (nothing is stepped then)."""
    bad = _ep_check(rows, actions, b)
    if bad >= 0:
        return bad
    nc = b.works.shape[0]
    for c in prange(nc):
        _ep_step_chunk(c, nc, b, rows, actions, cfg, max_len)
    return -1


@njit(cache=True)
def ep_observe(b, rows, seats, cfg, out):
    """``out[k]`` = seat ``seats[k]``'s observation of env ``rows[k]`` (any state, ended too)."""
    work = _row(b.works, 0)
    for k in range(rows.shape[0]):
        _observe_into(_row(b.states, rows[k]), seats[k], cfg, _row(out, k), work)


# --- single-agent view: a learner seat per env (``b.players``), random opponents -----

@njit(cache=True, inline='always')
def _sa_play_opponents(i, b, cfg, work):
    """Random legal moves for every seat but env ``i``'s learner until the learner is to
    act or the game is over. Uses ``b.masks[i]`` as scratch. Returns the number of moves."""
    state = _row(b.states, i)
    m = _row(b.masks, i)
    learner = b.players[i]
    moves = 0
    while not is_terminal(state) and current_player(state) != learner:
        nl = legal_mask(state, cfg, m, work)
        step(state, sample_masked(m, nl, _row(b.policy_rngs, i), 0), cfg, work)
        moves += 1
    return moves


@njit(cache=True, inline='always')
def _sa_refresh(i, b, cfg, work):
    state = _row(b.states, i)
    b.n_legal[i] = legal_mask(state, cfg, _row(b.masks, i), work)
    _observe_into(state, b.players[i], cfg, _row(b.obs, i), work)


@njit(cache=True, inline='always')
def _sa_reset_one(i, b, cfg, work, seat_mode, num_players):
    """New episode for env ``i``: deal, pick the learner's seat, play the opponents up to
    the learner's first turn (re-dealing in the rare case the game ends before it)."""
    while True:
        s = _next_episode_seed(_row(b.seed_rngs, i))
        b.ep_seeds[i] = s
        b.ep_len[i] = 0
        init(_row(b.states, i), s, cfg, work)
        if seat_mode < 0:
            b.players[i] = _rng_below(_row(b.policy_rngs, i), 0, num_players)
        else:
            b.players[i] = seat_mode
        _sa_play_opponents(i, b, cfg, work)
        if not is_terminal(_row(b.states, i)):
            break
    _sa_refresh(i, b, cfg, work)


@njit(cache=True, inline='always')
def _sa_step_one(i, b, actions, cfg, work, seat_mode, max_len, mode, num_players):
    state = _row(b.states, i)
    b.learner_rewards[i] = 0.0
    if mode == 1:
        b.has_final[i] = False
    if mode == 0 and (b.terminated[i] or b.truncated[i]):
        b.terminated[i] = False
        b.truncated[i] = False
        _sa_reset_one(i, b, cfg, work, seat_mode, num_players)
        return
    learner = b.players[i]
    step(state, actions[i], cfg, work)
    _sa_play_opponents(i, b, cfg, work)
    for k in range(b.rewards.shape[1]):
        b.rewards[i, k] = 0.0
    if not _episode_end(i, b, state, cfg, max_len):
        _sa_refresh(i, b, cfg, work)
        return
    b.learner_rewards[i] = b.rewards[i, learner]
    if mode == 1:
        _observe_into(state, learner, cfg, _row(b.final_obs, i), work)
        b.has_final[i] = True
        _sa_reset_one(i, b, cfg, work, seat_mode, num_players)
    else:
        _observe_into(state, learner, cfg, _row(b.obs, i), work)
        b.masks[i, :] = 0
        b.n_legal[i] = 0


@njit(cache=True)
def _sa_reset_chunk(c, nc, b, cfg, seat_mode, num_players):
    """Chunk ``c`` of ``nc`` (contiguous envs) with its own scratch row. Kept out of the
    prange body: parfors lose writes made through the bundle's arrays in the loop body."""
    b = _borrowed(b)
    n = b.states.shape[0]
    work = _row(b.works, c)
    for env in range(c * n // nc, (c + 1) * n // nc):
        _sa_reset_one(env, b, cfg, work, seat_mode, num_players)


@njit(cache=True, parallel=True)
def par_sa_reset(b, cfg, seat_mode, num_players):
    nc = b.works.shape[0]
    for c in prange(nc):
        _sa_reset_chunk(c, nc, b, cfg, seat_mode, num_players)


@njit(cache=True)
def _sa_step_chunk(c, nc, b, actions, cfg, seat_mode, max_len, mode, num_players):
    """Chunk ``c`` of ``nc`` (contiguous envs) with its own scratch row. Kept out of the
    prange body: parfors lose writes made through the bundle's arrays in the loop body."""
    b = _borrowed(b)
    n = b.states.shape[0]
    work = _row(b.works, c)
    for env in range(c * n // nc, (c + 1) * n // nc):
        _sa_step_one(env, b, actions, cfg, work, seat_mode, max_len, mode, num_players)


@njit(cache=True, parallel=True)
def par_sa_step(b, actions, cfg, seat_mode, max_len, mode, num_players):
    bad = _vec_check(actions, b.masks, b.terminated, b.truncated, mode)
    if bad >= 0:
        return bad
    nc = b.works.shape[0]
    for c in prange(nc):
        _sa_step_chunk(c, nc, b, actions, cfg, seat_mode, max_len, mode, num_players)
    return -1
'''


class Batch(NamedTuple):
    """The arrays of a batch of envs, passed to the vector kernels as one named bundle
    (row ``i`` of each belongs to env ``i``; ``works`` has one row per thread)."""

    states: np.ndarray  # (n, state_size) int64, or the layout's narrower vector_dtype
    obs: np.ndarray  # (n, *obs_shape) float32 or the vector's obs_dtype
    final_obs: np.ndarray  # (n, *obs_shape) like obs: last observation of an ended episode
    has_final: np.ndarray  # (n,) bool
    masks: np.ndarray  # (n, num_actions) int8
    n_legal: np.ndarray  # (n,) int64
    players: np.ndarray  # (n,) int64: player to act (vector) or learner seat (single-agent)
    rewards: np.ndarray  # (n, num_players) float64: every seat's return at the end
    learner_rewards: np.ndarray  # (n,) float64: the learner's (single-agent view)
    terminated: np.ndarray  # (n,) bool
    truncated: np.ndarray  # (n,) bool
    ep_len: np.ndarray  # (n,) int64
    ep_seeds: np.ndarray  # (n,) int64
    seed_rngs: np.ndarray  # (n, 4) int64: each env's stream of episode seeds
    policy_rngs: np.ndarray  # (n, 4) int64: each env's stream of random actions
    rand_actions: np.ndarray  # (n,) int64: random legal actions drawn during a step
    works: np.ndarray  # (chunks, work_size) int64: the kernels' scratch, one per chunk of envs


def new_batch(
    n: int,
    state_size: int,
    obs_shape: tuple[int, ...],
    num_actions: int,
    num_players: int,
    work_size: int,
    obs_dtype=np.float32,
    mask_dtype=np.int8,
    state_dtype=np.int64,
) -> Batch:
    """Zeroed arrays for ``n`` envs."""
    import numba

    return Batch(
        states=np.zeros((n, state_size), state_dtype),
        obs=np.zeros((n,) + tuple(obs_shape), obs_dtype),
        final_obs=np.zeros((n,) + tuple(obs_shape), obs_dtype),
        has_final=np.zeros(n, np.bool_),
        masks=np.zeros((n, num_actions), mask_dtype),
        n_legal=np.zeros(n, np.int64),
        players=np.zeros(n, np.int64),
        rewards=np.zeros((n, num_players), np.float64),
        learner_rewards=np.zeros(n, np.float64),
        terminated=np.zeros(n, np.bool_),
        truncated=np.zeros(n, np.bool_),
        ep_len=np.zeros(n, np.int64),
        ep_seeds=np.zeros(n, np.int64),
        seed_rngs=np.zeros((n, 4), np.int64),
        policy_rngs=np.zeros((n, 4), np.int64),
        rand_actions=np.zeros(n, np.int64),
        works=np.zeros((min(n, CHUNKS_PER_THREAD * numba.config.NUMBA_NUM_THREADS), max(1, int(work_size))), np.int64),
    )


#: Below this many envs a batch step runs on the calling thread only (the vector API of
#: mushgym.vector and the episode batches of mushgym.episodes). On a quiet machine prange
#: already pays from about 32 envs, but when other processes keep the cores busy every
#: parallel region waits for a descheduled worker (milliseconds per call), which ruins small
#: batches; ``parallel=True`` forces prange at any size.
PARALLEL_THRESHOLD = 256

#: envs are stepped in contiguous chunks, this many per numba thread, each with its own
#: scratch row (more chunks than threads lets TBB balance the load)
CHUNKS_PER_THREAD = 8

KERNELS = ("init", "legal_mask", "step", "observe", "current_player", "is_terminal", "returns")
LOOP_NAMES = tuple(m.group(1) for m in re.finditer(r"^def (\w+)\(", BATCH_SOURCE, re.M))
# each ``par_X`` (prange over envs) is also compiled without ``parallel`` as ``X``, where
# numba runs the same prange loop serially: one source for both versions
SERIAL_TWINS = tuple(name[len("par_") :] for name in LOOP_NAMES if name.startswith("par_"))
BATCH_FUNCTIONS = LOOP_NAMES + SERIAL_TWINS


#: what the generated loops import from the engine (``sample_masked`` is :mod:`mushgym.core.rng`'s)
ENGINE_IMPORTS = (
    "import numpy as np",
    "from numba import njit, prange",
    "from mushgym.core.batch import Batch as _Batch",
    "from mushgym.core.header import stamp_header as _stamp_header",
    "from mushgym.core.rng import rng_below as _rng_below, rng_next32 as _rng_next32, rng_seed as _rng_seed",
    "from mushgym.core.rng import sample_masked",
)
#: module constants the loops read, with their defaults when the game sets none
LOOP_CONSTANTS = {"WORK_SIZE": 1, "PREFETCH_AHEAD": 0}


def _functions(source: str) -> list[tuple[str, str]]:
    """``(name, text)`` of each decorated function of a source, in order."""
    blocks = re.split(r"\n(?=@njit)", "\n" + source.strip("\n"))
    out = []
    for block in blocks:
        if block.strip():
            out.append((re.search(r"^def (\w+)\(", block, re.M).group(1), block.strip("\n")))
    return out


def loops_source(namespace: dict) -> tuple[str, tuple[str, ...]]:
    """The generated loops over the kernel module ``namespace`` and the imports they need.

    Every ``par_X`` (prange over envs) is written twice: as is, and without ``parallel`` as
    ``X``, where numba runs the same prange loop serially."""
    stem = namespace["__name__"].rpartition(".")[2]
    kernels = [k for k in KERNELS if k != "init"] + (["is_truncated"] if "is_truncated" in namespace else [])
    kernels += [c for c in LOOP_CONSTANTS if c in namespace]
    rows = (
        "prefetch_row_l1 as _prefetch_row" if namespace.get("PREFETCH_L1", False) else "prefetch_row as _prefetch_row"
    )
    imports = ENGINE_IMPORTS + (
        f"from mushgym.core.rows import borrow as _borrow, {rows}, row as _row",
        f"from ..{stem} import init as _game_init  # the game's own deal: ``init`` below adds the header",
        f"from ..{stem} import {', '.join(sorted(kernels))}",
    )
    parts = [f"{c} = {v!r}  # the game module sets none" for c, v in LOOP_CONSTANTS.items() if c not in namespace]
    from .header import INIT_SOURCE

    parts.append(INIT_SOURCE.strip("\n"))
    if "is_truncated" not in namespace:  # optional kernel: by default games end only by their rules
        parts.append(NEVER_TRUNCATED.strip("\n"))
    for name, text in _functions(BATCH_SOURCE):
        parts.append(text)
        if name.startswith("par_"):
            serial = name[len("par_") :]
            twin = text.replace(f"def {name}(", f"def {serial}(", 1)
            parts.append(twin.replace("@njit(cache=True, parallel=True)", "@njit(cache=True)", 1))
    return "\n\n\n".join(parts) + "\n", imports


def generated_loops(namespace: dict) -> None:
    """Name the generic loops over this game kernel module's kernels as its generated code,
    ``generated/<module>_loops.py`` (call it last, with ``globals()``; ``mushgym generate`` writes
    the file and :func:`loops_module` finds it: the kernel module does not import it).

    The module's ``WORK_SIZE`` (default 1) sizes the scratch area its kernels get;
    its ``PREFETCH_AHEAD`` (default 0) makes the vector loops prefetch the rows of the env
    that many places ahead into L2, or into L1 with ``PREFETCH_L1 = True``
    (``mushgym/core/README.md``, section 5).
    """
    from .codegen import Part, caller_line, register

    missing = [name for name in KERNELS if name not in namespace]
    if missing:
        raise TypeError(f"{namespace.get('__name__')}: game kernel module lacks {missing}")
    module = namespace["__name__"]
    body, imports = loops_source(namespace)
    register(
        namespace,
        Part(
            module,
            "loops",
            module.rpartition(".")[2] + "_loops",
            body,
            imports,
            line=caller_line(1),
            what=f"the kernels of {module}: init, legal_mask, step, observe, ...",
        ),
    )


_loops: dict[str, object] = {}


def loops_module(kernels):
    """The generated loops over the kernel module ``kernels`` (checked, once per process, against
    what its ``generated_loops`` call declares)."""
    from .codegen import check_current, parts

    found = _loops.get(kernels.__name__)
    if found is None:
        part = next((p for p in parts(kernels.__name__) if p.key == "loops"), None)
        if part is None:
            raise TypeError(
                f"{kernels.__name__} declares no batch loops: end the kernel module with "
                "`generated_loops(globals())` and run `mushgym generate`"
            )
        found = _loops[kernels.__name__] = check_current(part)
    return found
