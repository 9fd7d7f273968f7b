"""Mycelium's gathering: the gatherers bring tokens home (the Gather Phase, a Bird's Nest, a
hero's gathering), the win at 10 Nutrients, and under the Team rules (variant: team) the
player's choices of what it takes first (the ``D_GATHER`` decision kind)."""

from numba import njit

from .board import bonded_count, bonded_edges
from .cards import draw_cards
from .emsporium import cards_per_mush_room_gatherer, tokens_per_gatherer
from .layout import (
    CFG_NG,
    CFG_TEAM,
    D_GATHER,
    DONE,
    DONE_RULES,
    GATHER_LOCATION,
    GATHER_SUBSET,
    LK_CAVE,
    LK_MUSH,
    PH_OVER,
    PHASE,
    WIN_NUTRIENTS,
    WINNER,
    cfg_gloc_kind_at,
    clear_decisions,
    gather_take_action,
    gather_take_args,
    gather_take_at,
    gatherer_at,
    loc_nut_at,
    loc_spores_at,
    mat_nut_at,
    mat_spores_at,
    pop_decision,
    push_decision,
    set_top_arg,
    top_arg,
)
from .team import could_take, next_choice, team_gathered, team_take


@njit(cache=True)
def gather(state, cfg, p, subset, work):
    """Gather with the gatherers of ``p`` in bit mask ``subset``; they come home. Checks the win."""
    bonded_edges(state, cfg, p, work)
    for g in range(cfg[CFG_NG]):
        n = 0
        for i in range(3):
            if (subset >> i) & 1 and state[gatherer_at(p, i)] == g:
                n += 1
        if n == 0:
            continue
        kind = cfg[cfg_gloc_kind_at(g)]
        if kind == LK_MUSH:
            draw_cards(state, p, n * cards_per_mush_room_gatherer(state, p))  # variant: emsporium (Flyers)
            continue
        b = bonded_count(cfg, g, work)
        take = n * tokens_per_gatherer(state, p)  # variant: emsporium (Backpack)
        take = take if take < b else b
        if cfg[CFG_TEAM]:  # variant: team (optional gathering: the player's choice)
            take = team_take(state, g, take)
        if kind == LK_CAVE:
            have = state[loc_spores_at(g)]
            take = take if take < have else have
            state[loc_spores_at(g)] -= take
            state[mat_spores_at(p)] += take
        else:
            have = state[loc_nut_at(g)]
            take = take if take < have else have
            state[loc_nut_at(g)] -= take
            state[mat_nut_at(p)] += take
    for i in range(3):
        if (subset >> i) & 1:
            state[gatherer_at(p, i)] = -1
    if cfg[CFG_TEAM]:  # variant: team (10 per Colony, 15 per team wins)
        if team_gathered(state, cfg, p):
            state[DONE] = DONE_RULES
            state[WINNER] = p
            state[PHASE] = PH_OVER
            clear_decisions(state)
        return
    if state[mat_nut_at(p)] >= WIN_NUTRIENTS:
        state[DONE] = DONE_RULES
        state[WINNER] = p
        state[PHASE] = PH_OVER
        clear_decisions(state)


@njit(cache=True)
def start_gathering(state, cfg, p, subset, work):
    """A gathering (the Gather Phase, a Bird's Nest, a hero's gather_now): :func:`gather`, or
    under the Team rules (variant: team) the player's choices of what it takes first
    (:func:`start_team_gather`, a ``D_GATHER`` decision when there is a choice)."""
    if cfg[CFG_TEAM]:
        start_team_gather(state, cfg, p, subset, work)
    else:
        gather(state, cfg, p, subset, work)


# --- variant: team: optional gathering (the D_GATHER decision kind) --------------------------


@njit(cache=True)
def start_team_gather(state, cfg, p, subset, work):
    """A gathering under the Team rules: the player first chooses, location by location, how
    many tokens it takes (a ``D_GATHER`` decision), then :func:`gather` runs."""
    for g in range(cfg[CFG_NG]):
        state[gather_take_at(g)] = -1
    bonded_edges(state, cfg, p, work)
    g = next_choice(state, cfg, p, subset, 0, work)
    if g < 0:
        gather(state, cfg, p, subset, work)
    else:
        push_decision(state, D_GATHER, p, subset, g)


@njit(cache=True)
def gather_mask(state, cfg, p, mask, work):
    """A ``D_GATHER`` entry: take 0 up to what the bond and the tokens allow."""
    bonded_edges(state, cfg, p, work)
    m = could_take(state, cfg, p, top_arg(state, GATHER_SUBSET), top_arg(state, GATHER_LOCATION), work)
    for n in range(m + 1):
        mask[gather_take_action(n)] = 1
    return m + 1


@njit(cache=True)
def gather_step(state, cfg, p, a, work):
    """The choice for one location; after the last one, the gathering."""
    subset = top_arg(state, GATHER_SUBSET)
    g = top_arg(state, GATHER_LOCATION)
    state[gather_take_at(g)] = gather_take_args(a)
    bonded_edges(state, cfg, p, work)
    nxt = next_choice(state, cfg, p, subset, g + 1, work)
    if nxt >= 0:
        set_top_arg(state, GATHER_LOCATION, nxt)
        return
    pop_decision(state)
    gather(state, cfg, p, subset, work)
    for g in range(cfg[CFG_NG]):
        state[gather_take_at(g)] = -1
