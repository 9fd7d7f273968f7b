"""The North American expansion's observation block, APPENDED after the base game's 1,652 values.

Present only when ``expansion="north_america"`` (the base game's observation is the prefix and
never moves). Seat-relative like the base game's (offset k = k seats after the observer). It
holds what the base block cannot: the fifth seat (offset 4: its seat block, its turn to act, its
spores on each tile), the expansion's decision kinds and cards, the wild spores and expansion
decay actions of cards, the upgrades and Grandfather Trees of each seat, and per tile the
sapling, its spores by seat offset and the Grandfather Tree.

``observe_na`` writes it after the base game's ``observe_base`` (which cleared the whole vector).
"""

import numpy as np
from numba import njit

from mushgym.core import Layout

from .data import MAX_REQUIRE
from .layout import (
    BASE_SEATS,
    CFG_NS,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_KEEP_TILE,
    D_PAY,
    FORMATION,
    GU_EXPLORE2,
    GU_REROLL,
    INVESTED,
    L_DISCARD,
    L_HAND,
    L_MARKET,
    L_PENDING,
    MAXS,
    NC,
    NC_BASE,
    NC_NA,
    NDECAYS,
    NDECAYS_ALL,
    NEED_WILD,
    NMATS,
    NT_MAX,
    NTP,
    NUM_DECISIONS,
    NUM_DECISIONS_BASE,
    OVER,
    SAP_SUPPLY,
    SAPLING_SPORES,
    SAPLINGS,
    SPORES_EACH,
    T_AGE,
    TREES_EACH,
    USED,
    card_loc_at,
    cfg_decay_at,
    cfg_tile_colour_at,
    cfg_tile_insect_at,
    cfg_tile_order_at,
    cfg_wild_at,
    decision_depth,
    game_upgrades_at,
    mat_card_at,
    sapling_at,
    sapling_spores_at,
    spores_at,
    top_arg,
    top_kind,
    top_player,
    tree_at,
    trees_left_at,
)
from .observation_base import (
    CARDS_DISCARD,
    CARDS_HAND,
    CARDS_MARKET,
    CARDS_PENDING,
    CARDS_UNSEEN,
    OBS_SIZE,
    base_observation_layout,
    seat_block,
    seat_fields,
    seat_offset,
)

ONE = dict(low=0, high=1)
NA_TF = 9  # per tile: sapling, sapling spores by seat offset (5), Grandfather Tree owner offset + 1, seat 4's spores, -


def add_expansion_fields(OL: Layout) -> None:
    """Append the expansion's block to the observation declaration ``OL``."""
    OL.field("na_to_act_seat4", doc="the fifth seat (offset 4) is to act", **ONE)
    OL.field(
        "na_decision",
        NUM_DECISIONS - NUM_DECISIONS_BASE,
        dims=("kind",),
        doc="expansion decision kind one-hot (spore on a sapling tile: tile or sapling, symbiosis bonus spore, "
        "keep or re-roll, push a spore off a Grandfather Tree, sapling to add a spore to, tile for a sapling, "
        "sapling to remove a spore from, whose sapling spore, tile to keep, symbiosis explore's pile; the last "
        "kind, after a SPORE action, is resolved by the kernels and never observed)",
        **ONE,
    )
    OL.field(
        "na_state",
        5,
        dims=("value",),
        doc="saplings in the supply, the start formation + 1 (1 O, 2 U, 3 A), the SPORE action under way has "
        "invested, AGE used this turn, wild spores still owed",
        low=0,
        high=np.array([SAPLINGS, 3, 1, 1, MAX_REQUIRE]),
    )
    OL.field(
        "na_fruit_card",
        2,
        dims=("value",),
        doc="the card being fruited: wild spores required, expansion decay action (0 none, 1..5 glossary order)",
        low=0,
        high=np.array([MAX_REQUIRE, NDECAYS_ALL - NDECAYS]),
    )
    OL.field(
        "na_cards",
        NC_NA,
        dims=("card",),
        doc="where each expansion card (ids 69..103) is, as `cards`",
        low=0,
        high=CARDS_PENDING,
    )
    OL.field(
        "na_seats",
        (MAXS, 4),
        dims=("seat_offset", "value"),
        doc="per seat offset: Grandfather Trees beside the mats, Grandfather Trees on the board, re-roll "
        "upgrade, explore-2-keep-1 upgrade",
        low=0,
        high=np.array([TREES_EACH, TREES_EACH, 1, 1]),
    )
    OL.field(
        "na_mats",
        (MAXS, NMATS, 2),
        dims=("seat_offset", "mat", "value"),
        doc="the card on each mat: wild spores required, expansion decay action (0 none, 1..5)",
        low=0,
        high=np.array([MAX_REQUIRE, NDECAYS_ALL - NDECAYS]),
    )
    OL.field(
        "na_keep_tiles",
        (2, 3),
        dims=("which", "value"),
        doc="explore 2 keep 1: the two tiles drawn (seen by all): colour id + 1, insect symbol, symbol order is O A U",
        low=0,
        high=np.array([5, 1, 1]),
    )
    seat_fields(OL, "na_seat4_", "seat +4 (the fifth seat; zeros if absent)", True)
    OL.field(
        "na_tiles",
        (NT_MAX, NA_TF),
        dims=("tile", "feature"),
        doc="per tile in placement order: a sapling stands there, spores on the sapling by seat offset (5), "
        "the Grandfather Tree's owner offset + 1 (0 none), spores of seat offset 4 on the tile, 0",
        low=0,
        high=np.array([1] + [SAPLING_SPORES] * MAXS + [MAXS, SPORES_EACH, 0]),
    )


def _full_layout() -> Layout:
    OL = base_observation_layout(expansion=True)
    add_expansion_fields(OL)
    return OL


_NA = _full_layout()
OBS_SIZE_NA = _NA.size
O_NA_ACT = _NA.fields["na_to_act_seat4"].offset
O_NA_DECISION = _NA.fields["na_decision"].offset
O_NA_STATE = _NA.fields["na_state"].offset
O_NA_FRUIT = _NA.fields["na_fruit_card"].offset
O_NA_CARDS = _NA.fields["na_cards"].offset
O_NA_SEATS = _NA.fields["na_seats"].offset
O_NA_MATS = _NA.fields["na_mats"].offset
O_NA_KEEP = _NA.fields["na_keep_tiles"].offset
O_NA_SEAT4 = _NA.fields["na_seat4_present"].offset
O_NA_TILES = _NA.fields["na_tiles"].offset
assert O_NA_ACT == OBS_SIZE and O_NA_TILES + NT_MAX * NA_TF == OBS_SIZE_NA


@njit(cache=True)
def _na_decay(cfg, card):
    """The card's expansion decay action as 1..5, or 0 (a base-game action or no card)."""
    if card < 0:
        return 0
    d = cfg[cfg_decay_at(card)]
    return d - NDECAYS + 1 if d >= NDECAYS else 0


@njit(cache=True)
def observe_na(state, player, cfg, out, work):
    """Write the expansion's block (the vector was cleared by ``observe_base``)."""
    ns = cfg[CFG_NS]
    over = state[OVER] != 0
    depth = decision_depth(state)
    cur = -1 if (over or depth == 0) else top_player(state)
    if cur >= 0 and seat_offset(cur, player, ns) >= BASE_SEATS:
        out[O_NA_ACT] = 1
    kind = top_kind(state) if depth > 0 and not over else -1
    if kind >= NUM_DECISIONS_BASE:
        out[O_NA_DECISION + kind - NUM_DECISIONS_BASE] = 1
    out[O_NA_STATE] = state[SAP_SUPPLY]
    out[O_NA_STATE + 1] = state[FORMATION] + 1
    out[O_NA_STATE + 2] = state[INVESTED]
    out[O_NA_STATE + 3] = (state[USED] >> T_AGE) & 1
    out[O_NA_STATE + 4] = state[NEED_WILD]
    if kind == D_KEEP_TILE:
        for j in range(2):
            tid = top_arg(state, j)
            out[O_NA_KEEP + j * 3] = cfg[cfg_tile_colour_at(tid)] + 1
            out[O_NA_KEEP + j * 3 + 1] = cfg[cfg_tile_insect_at(tid)]
            out[O_NA_KEEP + j * 3 + 2] = 1 if cfg[cfg_tile_order_at(tid, 1)] == 1 else 0
    if kind == D_FRUIT_MAT or kind == D_FRUIT_TILE or kind == D_PAY:
        card = top_arg(state, 0)
        out[O_NA_FRUIT] = cfg[cfg_wild_at(card)]
        out[O_NA_FRUIT + 1] = _na_decay(cfg, card)
    for c in range(NC_BASE, NC):
        loc = state[card_loc_at(c)]
        v = CARDS_UNSEEN
        if loc == L_HAND + player:
            v = CARDS_HAND
        elif loc == L_MARKET:
            v = CARDS_MARKET
        elif loc == L_DISCARD:
            v = CARDS_DISCARD
        elif loc == L_PENDING and cur == player:
            v = CARDS_PENDING
        out[O_NA_CARDS + c - NC_BASE] = v
    n = state[NTP]
    for x in range(ns):
        k = seat_offset(x, player, ns)
        if k == BASE_SEATS:
            seat_block(state, cfg, x, out, O_NA_SEAT4)
        o = O_NA_SEATS + k * 4
        out[o] = state[trees_left_at(x)]
        on_board = 0
        for t in range(n):
            if state[tree_at(t)] == x:
                on_board += 1
        out[o + 1] = on_board
        up = state[game_upgrades_at(x)]
        out[o + 2] = 1 if up & GU_REROLL else 0
        out[o + 3] = 1 if up & GU_EXPLORE2 else 0
        for i in range(NMATS):
            card = state[mat_card_at(x, i)]
            if card >= 0:
                m = O_NA_MATS + (k * NMATS + i) * 2
                out[m] = cfg[cfg_wild_at(card)]
                out[m + 1] = _na_decay(cfg, card)
    for t in range(n):
        o = O_NA_TILES + t * NA_TF
        out[o] = state[sapling_at(t)]
        for x in range(ns):
            k = seat_offset(x, player, ns)
            out[o + 1 + k] = state[sapling_spores_at(t, x)]
            if k == BASE_SEATS:
                out[o + 7] = state[spores_at(t, x)]
        g = state[tree_at(t)]
        if g >= 0:
            out[o + 6] = seat_offset(g, player, ns) + 1
