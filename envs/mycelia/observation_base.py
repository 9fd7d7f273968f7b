"""Mycelia's base-game observation: its declaration (with bounds) and the ``observe_base`` kernel
(the whole observation, with the expansion's block appended: :mod:`.observation`).

The observation is seat-relative (seat blocks and per-tile seat features rotate so that
the observer comes first) and has one length for every player count. It is declared as
records: ``CARD`` (the features of a mushroom card), ``MAT`` (one player mat), ``SEAT``
(one seat: counts, upgrades and its 5 mats), ``TILE`` (one placed tile), joined by
:func:`base_observation_layout` into the whole observation (``OL``) whose ``bounds()`` are the
game's ``observation_bounds`` and whose ``table()`` is the env docstring's.

Every value is an integer within its declared bounds (all in 0..255: the vector API writes
uint8). Per tile and for the card sets the features are ids rather than one-hot blocks
(colour, wind symbols, the neighbour across each edge, whose Mother mushroom or mushroom
token; where each card is), which keeps the vector small (1,652 values; the ``onehot``
encoder of ``mushgym.wrappers`` expands such ids for a network). ``observe_base`` clears the
vector but the placed tiles' rows once (a memset), writes the placed tiles' rows whole and
elsewhere only what is non-zero, with as few branches on the data as it can: the vector API
calls it on every step over a batch of states that are not in the cache, where mispredicted
branches cost more than the stores they save (RULES.md, "Speed and memory").
"""

import numpy as np
from numba import njit

from mushgym.core import Layout

from .data import MAX_POINTS, MAX_REQUIRE, MAX_SPORES
from .layout import (
    ACTS,
    BASE_SEATS,
    CFG_AUTO,
    CFG_NH,
    CFG_NS,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_PAY,
    DECK_N,
    DISC_N,
    DRAWN,
    INS_SUPPLY,
    INSECTS_MAX,
    INSECTS_TOTAL,
    L_DISCARD,
    L_HAND,
    L_MARKET,
    L_PENDING,
    MAXS,
    NC,
    NC_BASE,
    NDECAYS,
    NMATS,
    NT_MAX,
    NTP,
    NTYPES,
    NUM_DECISIONS_BASE,
    OVER,
    PAID_BLACK,
    ROLL,
    SPORES_EACH,
    TURN,
    USED,
    adjacency_at,
    card_loc_at,
    cfg_decay_at,
    cfg_points_at,
    cfg_require_at,
    cfg_spores_at,
    cfg_tile_colour_at,
    cfg_tile_insect_at,
    cfg_tile_order_at,
    decision_depth,
    game_upgrades_at,
    grown_at,
    hand_count_at,
    insects_at,
    mat_card_at,
    mat_counter_at,
    mat_tile_at,
    mat_under_at,
    mat_upgrades_at,
    mother_at,
    mushroom_mat_at,
    mushroom_owner_at,
    need_at,
    pile_count_at,
    points_at,
    spores_at,
    supply_at,
    tile_col_at,
    tile_id_at,
    tile_insect_at,
    tile_rot_at,
    tile_row_at,
    top_arg,
    top_kind,
    top_player,
)

ONE = dict(low=0, high=1)
#: values of the ``cards`` field
CARDS_UNSEEN, CARDS_HAND, CARDS_MARKET, CARDS_DISCARD, CARDS_PENDING = range(5)
#: lattice offsets of the observation are shifted by this much: a tile is at most NT_MAX - 1
#: flat-edge steps from tile 0 on the connected board, and a step moves the column and the
#: row by at most 1, so ``col - col(tile 0) + POS_SHIFT`` lies in 0..2 * POS_SHIFT
POS_SHIFT = NT_MAX - 1
#: the longest turn limit in rounds (the docstring's bound of ``round``; a game's own is its option)
ROUNDS_MAX = 160
#: a seat's points are observed saturating here, so that every value fits a uint8 (a seat would
#: need 32 cards of 8 points; no simulated game comes near it: RULES.md, "Observation"); the exact
#: points are in the state, the text and the final scores
POINTS_MAX = 255

# --- a mushroom card (18 values) -------------------------------------------------------
CARD = Layout("card features")
CF_POINTS = CARD.field("points", doc="points", low=0, high=MAX_POINTS)
CF_REQUIRE = CARD.field(
    "require", 4, dims=("colour",), doc="spores required red, green, brown, yellow", low=0, high=MAX_REQUIRE
)
CF_SPORES = CARD.field("spores", doc="spore count", low=0, high=MAX_SPORES)
CF_DECAY = CARD.field(
    "decay", NDECAYS, dims=("action",), doc="decay action one-hot (glossary order of RULES.md)", **ONE
)
CF_PRESENT = CARD.field("present", doc="1: there is a card", **ONE)
CF = CARD.size
CARD_LOW, CARD_HIGH = CARD.bounds()

# --- a player mat (26 values) ----------------------------------------------------------
MAT = Layout("mat features")
MF_ON_BOARD = MAT.field("on_board", doc="the mat's mushroom token is on the board", **ONE)
MF_HAS_CARD = MAT.field("has_card", doc="a card (or an Automata mushroom) is on top", **ONE)
MF_COUNTER = MAT.field("counter", 3, dims=("value",), doc="spore counter one-hot 0..2 (token on the board)", **ONE)
MF_UNDER = MAT.field("under", doc="decayed cards under the mat", low=0, high=NC_BASE)
MF_UPGRADES = MAT.field("upgrades", 2, dims=("upgrade",), doc="mushroom upgrades: extra spore, spore with the M", **ONE)
MF_CARD = MAT.field("card", CF, dims=("feature",), doc="card features of the card on top", low=CARD_LOW, high=CARD_HIGH)
MATF = MAT.size

# --- a seat (141 values) ---------------------------------------------------------------
SEAT = Layout("seat")
SF_PRESENT = SEAT.field("present", doc="the seat is in the game", **ONE)
SF_AUTOMATA = SEAT.field("automata", doc="the seat is the Automata", **ONE)
SF_SUPPLY = SEAT.field("supply", doc="spores in supply", low=0, high=SPORES_EACH)
SF_INSECTS = SEAT.field("insects", doc="insect tokens", low=0, high=INSECTS_TOTAL)
SF_POINTS = SEAT.field("points", doc=f"points of grown mushrooms, saturating at {POINTS_MAX}", low=0, high=POINTS_MAX)
SF_GROWN = SEAT.field("grown", doc="mushrooms grown", low=0, high=NC_BASE + 20)
SF_HAND = SEAT.field("hand_size", doc="cards in hand", low=0, high=NC_BASE)
SF_UPGRADES = SEAT.field(
    "upgrades",
    4,
    dims=("upgrade",),
    doc="game upgrades: same action twice, discover 2 keep 1, M moves 3, M spores 3",
    **ONE,
)
SF_MATS = SEAT.field("mats", (NMATS, MATF), dims=("mat", "feature"), doc="the 5 mats (mat features)")
SEATF = SEAT.size

# --- a placed tile (19 values) ---------------------------------------------------------
TILE = Layout("tile features")
TF_PRESENT = TILE.field("present", doc="a tile is placed here", **ONE)
TF_COLOUR = TILE.field("colour", doc="colour id + 1 (1 R, 2 G, 3 B, 4 Y, 5 K)", low=0, high=5)
TF_UP = TILE.field("points_up", doc="the triangle points up", **ONE)
TF_COL = TILE.field("col", doc=f"lattice column minus the first tile's, + {POS_SHIFT}", low=0, high=2 * POS_SHIFT)
TF_ROW = TILE.field("row", doc=f"lattice row minus the first tile's, + {POS_SHIFT}", low=0, high=2 * POS_SHIFT)
TF_SYMBOL = TILE.field(
    "symbol", 3, dims=("edge",), doc="wind symbol id + 1 (1 O, 2 U, 3 A) on edges A, B, C", low=0, high=3
)
TF_NEIGHBOUR = TILE.field(
    "neighbour",
    3,
    dims=("edge",),
    doc="across edges A, B, C: the neighbour's placement index + 1 (0: none)",
    low=0,
    high=NT_MAX,
)
TF_INSECT = TILE.field("insect", doc="an insect token lies here", **ONE)
TF_MOTHER = TILE.field(
    "mother",
    doc="Mother mushroom: its seat offset + 1 (1 = observer; 0 none; 5 the fifth seat with the expansion)",
    low=0,
    high=BASE_SEATS,
)
TF_MUSHROOM = TILE.field("mushroom", doc="mushroom token: its seat offset + 1 (0 none)", low=0, high=BASE_SEATS)
TF_COUNTER = TILE.field("counter", doc="that mushroom's spore counter (0..2)", low=0, high=2)
TF_SPORES = TILE.field(
    "spores",
    BASE_SEATS,
    dims=("seat_offset",),
    doc="spores by seat offset (offset 4, with the expansion, in its block)",
    low=0,
    high=SPORES_EACH,
)
TF = TILE.size


def base_observation_layout(rounds_high: int = ROUNDS_MAX, expansion: bool = False) -> Layout:
    """The base game's observation as one Layout (seat k = k seats after the observer); with
    the expansion, the bounds that it raises (cards, insects, the fifth seat's offset). The
    expansion's block is appended by :func:`.observation.observation_layout`."""
    OL = Layout("observation")
    ncards = NC if expansion else NC_BASE
    insects = INSECTS_MAX if expansion else INSECTS_TOTAL
    OL.field(
        "to_act", BASE_SEATS, dims=("seat_offset",), doc="player to act, one-hot by seat offset (0 = observer)", **ONE
    )
    OL.field(
        "decision",
        NUM_DECISIONS_BASE,
        dims=("kind",),
        doc="decision kind one-hot (main, place M, move on, place tile, turn tile, spore target, fruit mat, grow "
        "tile, pay, outer tile, opponent mushroom, its destination, whose M, its destination, steal from, "
        "draw two, keep, trade); all 0 when the game is over",
        **ONE,
    )
    OL.field("actions_done", 3, dims=("done",), doc="main actions done this turn, one-hot (0, 1, 2)", **ONE)
    OL.field(
        "types_used",
        NTYPES,
        dims=("type",),
        doc="action types used this turn (move, explore, spore, fruit, discover, decay)",
        **ONE,
    )
    OL.field("round", doc="rounds played (turns played // seats; the turn limit is in rounds)", low=0, high=rounds_high)
    OL.field("deck", doc="cards in the deck", low=0, high=ncards)
    OL.field("discard", doc="cards in the discard pile", low=0, high=ncards)
    OL.field("piles", 2, dims=("pile",), doc="tiles in piles 0 and 1", low=0, high=NT_MAX)
    OL.field("insect_supply", doc="insect tokens in the supply", low=0, high=insects)
    OL.field("last_roll", doc="last wind-die face (0 none, 1 O, 2 U, 3 A)", low=0, high=3)
    OL.field(
        "drawn_colour",
        5,
        dims=("colour",),
        doc="the drawn tile waiting to be placed: colour one-hot (R G B Y K)",
        **ONE,
    )
    OL.field("drawn_insect", doc="the drawn tile shows the insect symbol", **ONE)
    OL.field("drawn_order", doc="the drawn tile's symbol order is O A U (clockwise)", **ONE)
    OL.field("drawn_present", doc="a drawn tile waits to be placed", **ONE)
    OL.field(
        "fruit_card", CF, dims=("feature",), doc="the card being fruited (card features)", low=CARD_LOW, high=CARD_HIGH
    )
    OL.field("owed", 4, dims=("colour",), doc="spores still owed by colour (R, G, B, Y)", low=0, high=MAX_REQUIRE)
    OL.field("paid_black", doc="black spores paid", low=0, high=MAX_REQUIRE)
    OL.field(
        "cards",
        NC_BASE,
        dims=("card",),
        doc=f"where each card is, as far as the observer knows: {CARDS_UNSEEN} elsewhere or unseen, {CARDS_HAND} "
        f"own hand, {CARDS_MARKET} market, {CARDS_DISCARD} discard pile, {CARDS_PENDING} drawn by the "
        "observer's discover-2-keep-1 (cards on mats are in the seats' mat blocks)",
        low=0,
        high=CARDS_PENDING,
    )
    for k in range(BASE_SEATS):
        who = "observer" if k == 0 else f"seat +{k} (zeros if absent)"
        seat_fields(OL, f"seat{k}_", who, expansion)
    tile_low, tile_high = TILE.bounds()
    if expansion:  # the fifth seat's offset
        tile_high = np.array(tile_high, copy=True)
        tile_high[TF_MOTHER] = tile_high[TF_MUSHROOM] = MAXS
    OL.field(
        "tiles",
        (NT_MAX, TF),
        dims=("tile", "feature"),
        doc="tiles in placement order (tile features)",
        low=tile_low,
        high=tile_high,
    )
    return OL


def seat_fields(OL: Layout, prefix: str, who: str, expansion: bool) -> None:
    """One seat's block (the SEAT record) as fields of ``OL``, with the expansion's bounds if on."""
    mat_low, mat_high = MAT.bounds()
    ncards = NC if expansion else NC_BASE
    if expansion:
        mat_high = np.array(mat_high, copy=True)
        mat_high[MF_UNDER] = NC
    for f in SEAT.fields.values():
        low, high = (mat_low, mat_high) if f.name == "mats" else (f.low, f.high)
        if f.name == "grown":
            high = ncards + 20
        elif f.name == "hand_size":
            high = ncards
        elif f.name == "insects":
            high = INSECTS_MAX if expansion else INSECTS_TOTAL
        OL.field(f"{prefix}{f.name}", f.shape, dims=f.dims, doc=f"{who}: {f.doc}", low=low, high=high)


OL = base_observation_layout()
OBS_SIZE = OL.size
O_TO_ACT = OL.fields["to_act"].offset
O_DECISION = OL.fields["decision"].offset
O_ACTS = OL.fields["actions_done"].offset
O_USED = OL.fields["types_used"].offset
O_ROUND = OL.fields["round"].offset
O_DECK = OL.fields["deck"].offset
O_DRAWN = OL.fields["drawn_colour"].offset
O_FRUIT = OL.fields["fruit_card"].offset
O_OWED = OL.fields["owed"].offset
O_CARDS = OL.fields["cards"].offset
O_SEATS = OL.fields["seat0_present"].offset
O_TILES = OL.fields["tiles"].offset
assert OL.fields["seat1_present"].offset - O_SEATS == SEATF and O_TILES == O_SEATS + BASE_SEATS * SEATF
assert OL.fields["drawn_present"].offset == O_DRAWN + 7 and OL.fields["paid_black"].offset == O_OWED + 4


def obs_size() -> int:
    return OBS_SIZE


@njit(cache=True)
def _card_features(cfg, card, out, o):
    """Write the non-zero features of ``card`` at ``out[o:o + CF]`` (already zero)."""
    if card < 0:
        return
    out[o + CF_POINTS] = cfg[cfg_points_at(card)]
    for c in range(4):
        out[o + CF_REQUIRE + c] = cfg[cfg_require_at(card, c)]
    out[o + CF_SPORES] = cfg[cfg_spores_at(card)]
    d = cfg[cfg_decay_at(card)]
    if d < NDECAYS:  # the expansion's decay actions are in its block
        out[o + CF_DECAY + d] = 1
    out[o + CF_PRESENT] = 1


@njit(cache=True)
def seat_offset(s, player, ns):
    """Seat ``s`` as seen by ``player``: seats after the observer in play order (0 = the observer)."""
    d = s - player
    return d + ns if d < 0 else d


@njit(cache=True)
def observe_base(state, player, cfg, out, work):
    """The base game's observation of ``player`` (clears the whole vector)."""
    ns = cfg[CFG_NS]
    n = state[NTP]
    # clear all but the placed tiles' rows, which ``_tiles`` writes whole
    out[:O_TILES] = 0
    out[O_TILES + n * TF :] = 0
    over = state[OVER] != 0
    depth = decision_depth(state)
    cur = -1 if (over or depth == 0) else top_player(state)
    if cur >= 0 and seat_offset(cur, player, ns) < BASE_SEATS:  # the fifth seat: the expansion's block
        out[O_TO_ACT + seat_offset(cur, player, ns)] = 1
    kind = top_kind(state) if depth > 0 and not over else -1
    if 0 <= kind < NUM_DECISIONS_BASE:  # the expansion's kinds: its block
        out[O_DECISION + kind] = 1
    if not over and 0 <= state[ACTS] < 3:
        out[O_ACTS + state[ACTS]] = 1
    for k in range(NTYPES):
        if (state[USED] >> k) & 1:
            out[O_USED + k] = 1
    out[O_ROUND] = state[TURN] // ns
    out[O_DECK] = state[DECK_N]
    out[O_DECK + 1] = state[DISC_N]
    out[O_DECK + 2] = state[pile_count_at(0)]
    out[O_DECK + 3] = state[pile_count_at(1)]
    out[O_DECK + 4] = state[INS_SUPPLY]
    out[O_DECK + 5] = state[ROLL] + 1
    # the drawn tile waiting to be placed (seen by everyone)
    if state[DRAWN] >= 0:
        tid = state[DRAWN]
        out[O_DRAWN + cfg[cfg_tile_colour_at(tid)]] = 1
        out[O_DRAWN + 5] = cfg[cfg_tile_insect_at(tid)]
        out[O_DRAWN + 6] = 1 if cfg[cfg_tile_order_at(tid, 1)] == 1 else 0
        out[O_DRAWN + 7] = 1
    # the card being fruited and what is still owed
    if kind == D_FRUIT_MAT or kind == D_FRUIT_TILE or kind == D_PAY:
        _card_features(cfg, top_arg(state, 0), out, O_FRUIT)
    for c in range(4):
        out[O_OWED + c] = state[need_at(c)]
    out[O_OWED + 4] = state[PAID_BLACK]
    # card sets: own hand, market, discard pile, own pending (discover 2 keep 1)
    # (comparisons, not a chain of branches on each card's place: the places are distinct)
    hand = L_HAND + player
    pending = L_PENDING if cur == player else -1
    for c in range(NC_BASE):  # the expansion's cards: its block
        loc = state[card_loc_at(c)]
        out[O_CARDS + c] = (
            (loc == hand) * CARDS_HAND
            + (loc == L_MARKET) * CARDS_MARKET
            + (loc == L_DISCARD) * CARDS_DISCARD
            + (loc == pending) * CARDS_PENDING
        )
    # seats, rotated so that the observer comes first
    for k in range(min(ns, BASE_SEATS)):  # the fifth seat: the expansion's block
        s = player + k if player + k < ns else player + k - ns
        o = O_SEATS + k * SEATF
        seat_block(state, cfg, s, out, o)
    # tiles in placement order: every value of a placed tile is written (no branch on the
    # data where a store of 0 does the same: a batch's states are cold, and mispredicted
    # branches cost more than the stores); the rows above the placed tiles were cleared
    _tiles(state, player, ns, cfg, out, n)


@njit(cache=True, inline="always")
def seat_block(state, cfg, s, out, o):
    """Seat ``s``'s block (the SEAT record) at ``out[o:o + SEATF]``, the rows cleared by the
    caller (also the expansion's fifth seat, :mod:`.observation_na`)."""
    out[o + SF_PRESENT] = 1
    if cfg[CFG_AUTO] != 0 and s == cfg[CFG_NH]:
        out[o + SF_AUTOMATA] = 1
    out[o + SF_SUPPLY] = state[supply_at(s)]
    out[o + SF_INSECTS] = state[insects_at(s)]
    pts = state[points_at(s)]
    out[o + SF_POINTS] = pts if pts < POINTS_MAX else POINTS_MAX
    out[o + SF_GROWN] = state[grown_at(s)]
    out[o + SF_HAND] = state[hand_count_at(s)]
    up = state[game_upgrades_at(s)]
    for b in range(4):
        out[o + SF_UPGRADES + b] = (up >> b) & 1
    for i in range(NMATS):
        m = o + SF_MATS + i * MATF
        tile = state[mat_tile_at(s, i)]
        card = state[mat_card_at(s, i)]
        on_board = 1 if tile >= 0 else 0
        out[m + MF_ON_BOARD] = on_board
        ctr = state[mat_counter_at(s, i)]
        if 0 <= ctr < 3:  # one-hot while the token is on the board (a store of 0 otherwise)
            out[m + MF_COUNTER + ctr] = on_board
        out[m + MF_HAS_CARD] = 1 if card != -1 else 0
        out[m + MF_UNDER] = state[mat_under_at(s, i)]
        upg = state[mat_upgrades_at(s, i)]
        out[m + MF_UPGRADES] = upg & 1
        out[m + MF_UPGRADES + 1] = (upg >> 1) & 1
        _card_features(cfg, card, out, m + MF_CARD)


@njit(cache=True, inline="always")
def _tiles(state, player, ns, cfg, out, n):
    """The ``tiles`` block of the ``n`` placed tiles (the caller cleared the rows above them)."""
    c0 = state[tile_col_at(0)] - POS_SHIFT
    r0 = state[tile_row_at(0)] - POS_SHIFT
    # seat offset of seats 0..3 as seen by ``player`` (loop invariant; seats >= ns unused)
    d0 = seat_offset(0, player, ns)
    d1 = seat_offset(1, player, ns)
    d2 = seat_offset(2, player, ns) if ns > 2 else 0
    d3 = seat_offset(3, player, ns) if ns > 3 else 0
    o = O_TILES
    for t in range(n):
        tid = state[tile_id_at(t)]
        if tid < 0:  # not reached on a valid state (placed tiles have ids); written as absent
            for f in range(TF):
                out[o + f] = 0
            o += TF
            continue
        c = state[tile_col_at(t)]
        r = state[tile_row_at(t)]
        out[o + TF_PRESENT] = 1
        out[o + TF_COLOUR] = cfg[cfg_tile_colour_at(tid)] + 1
        out[o + TF_UP] = 1 - ((c + r) & 1)  # board.is_up(c, r)
        out[o + TF_COL] = c - c0
        out[o + TF_ROW] = r - r0
        j = state[tile_rot_at(t)]
        out[o + TF_SYMBOL] = cfg[cfg_tile_order_at(tid, j)] + 1
        j = j + 1 if j < 2 else 0
        out[o + TF_SYMBOL + 1] = cfg[cfg_tile_order_at(tid, j)] + 1
        j = j + 1 if j < 2 else 0
        out[o + TF_SYMBOL + 2] = cfg[cfg_tile_order_at(tid, j)] + 1
        out[o + TF_NEIGHBOUR] = state[adjacency_at(t, 0)] + 1
        out[o + TF_NEIGHBOUR + 1] = state[adjacency_at(t, 1)] + 1
        out[o + TF_NEIGHBOUR + 2] = state[adjacency_at(t, 2)] + 1
        out[o + TF_INSECT] = state[tile_insect_at(t)]
        out[o + TF_MOTHER] = 0  # written below for the tiles with a Mother mushroom
        mp = state[mushroom_owner_at(t)]
        if mp >= 0:
            out[o + TF_MUSHROOM] = seat_offset(mp, player, ns) + 1
            out[o + TF_COUNTER] = state[mat_counter_at(mp, state[mushroom_mat_at(t)])]
        else:
            out[o + TF_MUSHROOM] = 0
            out[o + TF_COUNTER] = 0
        so = o + TF_SPORES
        if ns <= BASE_SEATS:
            out[so + 2] = 0  # the offsets of absent seats stay 0
            out[so + 3] = 0
            out[so + d0] = state[spores_at(t, 0)]
            out[so + d1] = state[spores_at(t, 1)]
            if ns > 2:
                out[so + d2] = state[spores_at(t, 2)]
                if ns > 3:
                    out[so + d3] = state[spores_at(t, 3)]
        else:  # the expansion's fifth seat: offset 4's spores are in its block
            for x in range(ns):
                d = seat_offset(x, player, ns)
                if d < BASE_SEATS:
                    out[so + d] = state[spores_at(t, x)]
        o += TF
    for x in range(ns):
        mt = state[mother_at(x)]
        if 0 <= mt < n:
            out[O_TILES + mt * TF + TF_MOTHER] = seat_offset(x, player, ns) + 1
