"""Kernels of the toy game (see the package docstring)."""

from numba import njit

from mushgym.core import RNG_WORDS, Layout, generated_loops, rng_seed, shuffle_range

L = Layout()
RNG = L.array("rng", RNG_WORDS)
DECK = L.array("deck", 10)
HIDDEN = L.array("hidden", 2)
COUNTER = L.scalar("counter")
PLAYER = L.scalar("player")
DONE = L.scalar("done")
WINNER = L.scalar("winner")
STATE_SIZE = L.size

CFG_LEAK = 0
NUM_ACTIONS = 2
OBS_SIZE = 4
TARGET = 10


@njit(cache=True)
def init(state, seed, cfg, work):
    state[:] = 0
    rng_seed(state, RNG, seed)
    for i in range(10):
        state[DECK + i] = i
    shuffle_range(state, DECK, 10, RNG)
    state[HIDDEN] = state[DECK + 9]
    state[HIDDEN + 1] = state[DECK + 8]
    state[WINNER] = -1


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    mask[0] = 1
    mask[1] = 1
    return 2


@njit(cache=True)
def step(state, action, cfg, work):
    state[COUNTER] += action + 1
    if state[COUNTER] >= TARGET:
        state[DONE] = 1
        state[WINNER] = state[PLAYER]
    else:
        state[PLAYER] = 1 - state[PLAYER]


@njit(cache=True)
def observe(state, player, cfg, out, work):
    out[0] = state[HIDDEN + player]
    out[1] = state[COUNTER]
    out[2] = 1.0 if state[PLAYER] == player else 0.0
    out[3] = state[HIDDEN + 1 - player] if cfg[CFG_LEAK] else 0.0


@njit(cache=True)
def current_player(state):
    return state[PLAYER]


@njit(cache=True)
def is_terminal(state):
    return state[DONE] != 0


@njit(cache=True)
def returns(state, cfg, out):
    w = state[WINNER]
    for p in range(2):
        out[p] = 1.0 if p == w else -1.0


generated_loops(globals())
