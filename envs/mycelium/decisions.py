"""Mycelium's decisions: the legal actions and the step of the pending decision, and the loop
between decisions.

The kinds are declared once, in :data:`.layout.K` (value, named arguments, the module of their
rules); the dispatch over them (``kind_mask``, ``kind_step``, ``kind_live``, ``kind_process``)
is generated here from that declaration (:mod:`mushgym.core.kinds`). The turn player's own
decisions (the stack empty) are :mod:`.menu`'s.
"""

from numba import njit

from .cards import hand_size
from .emsporium import hand_limit
from .layout import (
    ARG_EDGE,
    ARG_GLOC,
    ARG_PLACE,
    ARG_PLAYER,
    ARG_TYPE,
    CFG_NE,
    CFG_NG,
    CFG_NP,
    DECISION_KINDS,
    DONE,
    NUM_MUSHLING_KINDS,
    PH_ACTION,
    PH_DISCARD,
    PH_NUTRIENT,
    PHASE,
    TAVERN,
    TURN_PLAYER,
    agent_of_at,
    decision_depth,
    pop_decision,
    top_kind,
    top_player,
)
from .menu import phase_mask, phase_step
from .tavern import on
from .turn import end_turn

DECISION_KINDS.generated_rules(globals())
# fmt: off
from .generated.decisions import (  # noqa: E402,F401  (generated from DECISION_KINDS.rules by `mushgym generate`)  # isort: skip
    kind_live, kind_mask, kind_process, kind_step,
)
# fmt: on


@njit(cache=True)
def prompt_live(state, cfg):
    """Whether the decision on top is still asked (else :func:`advance` drops it)."""
    return kind_live(state, cfg, top_kind(state), top_player(state))


@njit(cache=True)
def advance(state, cfg, work):
    """Process bookkeeping entries and lapsed prompts until a decision is pending (or the
    game is over)."""
    while True:
        if state[DONE]:
            return
        if decision_depth(state) > 0:
            if kind_process(state, cfg, top_kind(state), work):
                continue
            if not prompt_live(state, cfg):
                pop_decision(state)
                continue
            return
        ph = state[PHASE]
        if ph == PH_NUTRIENT:
            state[PHASE] = PH_ACTION
            continue
        if ph == PH_DISCARD and hand_size(state, state[TURN_PLAYER]) <= hand_limit(
            state, state[TURN_PLAYER]
        ):  # variant: emsporium
            end_turn(state, cfg)
            continue
        return


@njit(cache=True)
def current_player(state):
    """The agent to act: the seat's own index, except in the 2-player game (variant: team),
    where an agent acts for two seats (``agent_of``)."""
    if decision_depth(state) > 0:
        return state[agent_of_at(top_player(state))]
    return state[agent_of_at(state[TURN_PLAYER])]


@njit(cache=True)
def arg_ok(state, cfg, v, code, level):
    if code >= 0:
        return 0 <= v <= code
    if code == ARG_PLAYER:
        return 0 <= v < cfg[CFG_NP]
    if code == ARG_EDGE:
        return 0 <= v < cfg[CFG_NE]
    if code == ARG_GLOC:
        return 0 <= v < cfg[CFG_NG]
    if code == ARG_TYPE:
        return 0 <= v < NUM_MUSHLING_KINDS
    if code == ARG_PLACE:  # variant: hero_tavern (a Russula may send a gatherer to the Tavern)
        return 0 <= v < cfg[CFG_NG] or (v == TAVERN and on(cfg))
    return 0 <= v < level  # ARG_LEVEL: an entry below this one


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    mask[:] = 0
    if state[DONE]:
        return 0
    if decision_depth(state) > 0:
        return kind_mask(state, cfg, top_kind(state), top_player(state), mask, work)
    return phase_mask(state, cfg, mask, work)


@njit(cache=True)
def step(state, action, cfg, work):
    if decision_depth(state) > 0:
        kind_step(state, cfg, top_kind(state), top_player(state), action, work)
    else:
        phase_step(state, cfg, action, work)
    advance(state, cfg, work)
