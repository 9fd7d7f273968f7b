"""Reading the state: the player to act, the end, the score and the returns (RULES.md,
"End and scoring").
"""

from numba import njit

from .layout import (
    CFG_EXP,
    CFG_LIMIT_SCORED,
    CFG_MATS,
    CFG_NH,
    CFG_NS,
    CFG_REWARD,
    ENDER,
    NTP,
    OVER,
    TREE_POINTS,
    TURN_LIMIT_END,
    decision_depth,
    grown_at,
    insects_at,
    points_at,
    top_player,
    tree_at,
)
from .turn import is_automata


@njit(cache=True)
def current_player(state):
    if state[OVER] != 0 or decision_depth(state) == 0:
        return -1
    return top_player(state)


@njit(cache=True)
def is_terminal(state):
    return state[OVER] != 0


@njit(cache=True)
def final_score(state, cfg, s):
    egt = cfg[CFG_MATS] if (state[ENDER] == s and not is_automata(cfg, s)) else 0
    trees = 0
    if cfg[CFG_EXP] != 0:  # the expansion: 5 points per Grandfather Tree on the board
        for t in range(state[NTP]):
            if state[tree_at(t)] == s:
                trees += TREE_POINTS
    return state[points_at(s)] + state[insects_at(s)] // 2 + egt + trees


@njit(cache=True)
def _beats(state, cfg, s, t):
    """Seat s ranks above seat t: points, then mushrooms grown, then insects."""
    a = final_score(state, cfg, s)
    b = final_score(state, cfg, t)
    if a != b:
        return a > b
    if state[grown_at(s)] != state[grown_at(t)]:
        return state[grown_at(s)] > state[grown_at(t)]
    return state[insects_at(s)] > state[insects_at(t)]


@njit(cache=True)
def is_truncated(state, cfg):
    """The game was cut by the turn limit (not one of the rulebook's endings), unless the
    option turn_limit_end="score" makes the limit a scored ending."""
    return state[OVER] != 0 and state[ENDER] == TURN_LIMIT_END and cfg[CFG_LIMIT_SCORED] == 0


@njit(cache=True)
def returns(state, cfg, out):
    nh = cfg[CFG_NH]
    ns = cfg[CFG_NS]
    mode = cfg[CFG_REWARD]
    if is_truncated(state, cfg):
        for p in range(nh):
            out[p] = 0.0  # a truncation: no result (option turn_limit_end="score" scores it)
        return
    if mode == 1:
        for p in range(nh):
            out[p] = final_score(state, cfg, p)
        return
    if mode == 2:
        for p in range(nh):
            tot = 0.0
            for s in range(ns):
                if s != p:
                    tot += final_score(state, cfg, s)
            out[p] = final_score(state, cfg, p) - tot / (ns - 1)
        return
    # win/loss among all seats (the Automata included); tied winners share
    k = 0
    for s in range(ns):
        top = True
        for t in range(ns):
            if t != s and _beats(state, cfg, t, s):
                top = False
        if top:
            k += 1
    for p in range(nh):
        top = True
        for t in range(ns):
            if t != p and _beats(state, cfg, t, p):
                top = False
        if top:
            out[p] = (ns - k) / (k * (ns - 1))
        else:
            out[p] = -1.0 / (ns - 1)
