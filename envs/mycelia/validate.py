"""Mycelia's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every index within its table; this kernel
checks what depends on the options and on several slots at once: the game's one set of
invariants (``MyceliaGame.check_invariants`` raises the same verdict as an ``AssertionError``).
The seats of the player count (nothing of an absent seat, no mat beyond the ``mats`` option),
every tile id exactly once (board, piles, the drawn tile; no black tile in the solo game), one
tile per lattice cell, the adjacency table symmetric and equal to the lattice positions, a
connected board, spores and insect tokens conserved, Mother mushrooms on distinct placed tiles,
mushroom tokens and mats agreeing (one token per tile, a counter only on the board, a mat's
card located on it), every card in one place (deck, market, discard, box, hands, mats, under
mats, the cards drawn to keep) with the lists and counts agreeing, points equal to the grown
cards (5 per Automata mushroom), the end of the game, the turn limit, the decision stack
(kinds, players, arguments by kind, a fruit payment within its card, tile sets within the
board), the expansion's pieces, the Automata's deck, and the player to act having a legal
action. ``check_state`` does all but the last (the legal mask lives in rules.py, whose
``validate`` kernel runs both). 0 means a consistent state, else one of the
``V_*`` codes (:data:`VALIDATION_ERRORS` says what each means). It allocates nothing (bit
sets in integers; the legal-action count uses the work area's mask) and is never run by
the fast paths (``step_inplace(check=False)``, the batch kernels).
"""

from numba import njit

from .board import neighbour_c, neighbour_r
from .layout import (
    AUTO_CARD,
    BITSET_BITS,
    BITSET_WORDS,
    BLACK,
    CFG_AUTO,
    CFG_EXP,
    CFG_INSECTS,
    CFG_MATS,
    CFG_NCARDS,
    CFG_NH,
    CFG_NS,
    CFG_NTILES,
    CFG_TURN_LIMIT,
    D_AFTER_SPORE,
    D_BONUS_PILE,
    D_DRAW2,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_INVEST,
    D_KEEP,
    D_KEEP_TILE,
    D_MAIN,
    D_MOTHER_DEST,
    D_MOTHER_PICK,
    D_MOVE,
    D_OPPM_DEST,
    D_OPPM_PICK,
    D_OUTER_PICK,
    D_PAY,
    D_PLACE,
    D_REROLL,
    D_ROT,
    D_SAP_ADD,
    D_SAP_PICK,
    D_SAP_REMOVE,
    D_SAP_REMOVE_SEAT,
    D_SETUP,
    D_SPORE_PICK,
    D_STEAL,
    D_SYM_SPORE,
    D_TRADE,
    D_TREE_PUSH,
    DECK_N,
    DISC_N,
    DRAWN,
    ENDER,
    ENTRY,
    FIRST,
    FORMATION,
    FRUIT_NET,
    INS_SUPPLY,
    INVESTED,
    L_ABSENT,
    L_BOX,
    L_DECK,
    L_DISCARD,
    L_HAND,
    L_MARKET,
    L_PENDING,
    L_TOP,
    L_UNDER,
    MARKET_SIZE,
    MARKS,
    MAXS,
    NA_CARDS,
    NC,
    NEED_WILD,
    NMATS,
    NT_MAX,
    NTP,
    NUM_DECISIONS,
    OVER,
    PAID_BLACK,
    RUNNING,
    SAP_SUPPLY,
    SAPLING_SPORES,
    SAPLINGS,
    SPORE_ROWS,
    SPORES_EACH,
    STACK,
    STACK_MAX,
    TILES_OUT,
    TREES_EACH,
    TURN,
    TURN_LIMIT_END,
    TURNP,
    adjacency_at,
    automata_deck_at,
    card_loc_at,
    cfg_points_at,
    cfg_require_at,
    cfg_tile_colour_at,
    cfg_wild_at,
    decision_depth,
    deck_at,
    discard_at,
    grown_at,
    hand_count_at,
    insects_at,
    market_at,
    mat_card_at,
    mat_counter_at,
    mat_tile_at,
    mat_under_at,
    mother_at,
    mushroom_mat_at,
    mushroom_owner_at,
    need_at,
    pile_count_at,
    piles_at,
    points_at,
    sapling_at,
    sapling_spores_at,
    spores_at,
    supply_at,
    tile_col_at,
    tile_id_at,
    tile_insect_at,
    tile_row_at,
    tree_at,
    trees_left_at,
)

V_OK = 0
V_SEATS = 1
V_TILES = 2
V_CELLS = 3
V_ADJACENCY = 4
V_CONNECTED = 5
V_SPORES = 6
V_INSECTS = 7
V_MOTHERS = 8
V_MUSHROOMS = 9
V_CARDS = 10
V_POINTS = 11
V_END = 12
V_STACK = 13
V_DECISION = 14
V_PAYMENT = 15
V_AUTOMATA = 16
V_NO_ACTION = 17
V_EXPANSION = 18
V_MAT_CARD = 19

VALIDATION_ERRORS = {
    V_SEATS: "an absent seat (spores on the board, on saplings or in supply, insects, mats, points), or a mat "
    "beyond the mats option, holds something (or the turn player is not a seat)",
    V_TILES: "a tile id is missing or in two places (board, piles, the drawn tile), or a black tile is in the "
    "solo game",
    V_CELLS: "two placed tiles share a lattice cell, or slots beyond the placed tiles are not empty",
    V_ADJACENCY: "the adjacency table is not symmetric or disagrees with the tiles' lattice positions",
    V_CONNECTED: "the board is not connected",
    V_SPORES: "a seat's spores on the board plus its supply are not 30 (or spores lie outside the board)",
    V_INSECTS: "the insect tokens (supply, tiles, players) are not 20",
    V_MOTHERS: "two Mother mushrooms share a tile, one is off the board after setup, or one is on setup "
    "while the stack says otherwise",
    V_MUSHROOMS: "a mushroom token and its mat disagree (owner, mat, card on top, spore counter)",
    V_CARDS: "a card is missing or in two places (deck, market, discard, box, hands, mats, under mats, the cards "
    "drawn to keep), or a list and its count disagree",
    V_POINTS: "a seat's points or mushrooms grown are not what its mats hold",
    V_END: "the end of the game is inconsistent (who ended it, the turn limit, a decision after the end)",
    V_STACK: "the decision stack is impossible (unknown kind, a decision of another seat or of the Automata, "
    "no main decision under a sub-decision)",
    V_DECISION: "a pending decision's arguments are impossible for its kind",
    V_PAYMENT: "a fruit payment is impossible (more owed than the card asks, owed outside a payment, tile sets "
    "outside the board)",
    V_AUTOMATA: "the Automata's card deck is not a shuffle of its 10 cards",
    V_NO_ACTION: "the player to act has no legal action",
    V_EXPANSION: "the North American expansion's pieces are inconsistent (saplings: one per tile on placed tiles, "
    "15 in all, never on a Grandfather Tree; sapling spores: only on saplings, at most 3; Grandfather "
    "Trees: 3 a player, on placed tiles without spores or mushroom tokens; nothing of the expansion "
    "without it)",
    V_MAT_CARD: "a card grown on a mat is recorded elsewhere (its location is not the top of that mat)",
}


@njit(cache=True)
def _cell_of(state, n, c, r):
    for u in range(n):
        if state[tile_col_at(u)] == c and state[tile_row_at(u)] == r:
            return u
    return -1


@njit(cache=True)
def _bit(bits, i):
    return (bits >> i) & 1


@njit(cache=True)
def _card_seen(lo, mid, hi, c):
    """Card ``c`` in the three-word card set (lo, mid, hi): cards 0..47 in lo, 48..95 in mid, 96..NC-1 in hi."""
    if c < 48:
        return _bit(lo, c)
    return _bit(mid, c - 48) if c < 96 else _bit(hi, c - 96)


@njit(cache=True)
def _card_add(lo, mid, hi, c):
    if c < 48:
        return lo | (1 << c), mid, hi
    if c < 96:
        return lo, mid | (1 << (c - 48)), hi
    return lo, mid, hi | (1 << (c - 96))


@njit(cache=True)
def _set_bits(state, off):
    """The tile bit set stored at ``state[off:off + BITSET_WORDS]`` as one integer."""
    b = 0
    for i in range(BITSET_WORDS):
        b |= state[off + i] << (i * BITSET_BITS)
    return b


@njit(cache=True)
def _tiles(state, cfg):
    """Tile ids, board cells, adjacency and connectivity."""
    n = state[NTP]
    seen = 0
    count = 0
    for t in range(NT_MAX):
        x = state[tile_id_at(t)]
        if t >= n:
            if x != -1:
                return V_CELLS
            continue
        if x < 0 or _bit(seen, x):
            return V_TILES
        seen |= 1 << x
        count += 1
    for j in range(2):
        pn = state[pile_count_at(j)]
        for i in range(NT_MAX):
            x = state[piles_at(j, i)]
            if i >= pn:
                if x != -1:
                    return V_TILES
                continue
            if x < 0 or _bit(seen, x):
                return V_TILES
            seen |= 1 << x
            count += 1
    x = state[DRAWN]
    if x >= 0:
        if _bit(seen, x):
            return V_TILES
        seen |= 1 << x
        count += 1
    # the expansion: tiles discarded by "explore 2 keep 1", and the two drawn to keep one of
    out = _set_bits(state, TILES_OUT)
    if out >> NT_MAX or (out != 0 and cfg[CFG_EXP] == 0) or out & seen:
        return V_TILES
    seen |= out
    for i in range(NT_MAX):
        count += (out >> i) & 1
    for lvl in range(decision_depth(state)):
        o = STACK + lvl * ENTRY
        if state[o] == D_KEEP_TILE:
            for j in range(2):
                x = state[o + 2 + j]
                if x < 0 or x >= NT_MAX or _bit(seen, x) or state[DRAWN] >= 0:
                    return V_TILES
                seen |= 1 << x
                count += 1
    if count != cfg[CFG_NTILES]:
        return V_TILES
    if cfg[CFG_NTILES] < NT_MAX:  # the solo game plays without the black tiles
        for x in range(NT_MAX):
            if _bit(seen, x) and cfg[cfg_tile_colour_at(x)] == BLACK:
                return V_TILES
    for t in range(n):
        c = state[tile_col_at(t)]
        r = state[tile_row_at(t)]
        for u in range(t):
            if state[tile_col_at(u)] == c and state[tile_row_at(u)] == r:
                return V_CELLS
        for k in range(3):
            u = state[adjacency_at(t, k)]
            if u >= n or u == t:
                return V_ADJACENCY
            if u != _cell_of(state, n, neighbour_c(c, r, k), neighbour_r(c, r, k)):
                return V_ADJACENCY
            if u >= 0 and state[adjacency_at(u, k)] != t:
                return V_ADJACENCY
    for t in range(n, NT_MAX):
        for k in range(3):
            if state[adjacency_at(t, k)] != -1:
                return V_CELLS
        if state[tile_insect_at(t)] != 0 or state[mushroom_owner_at(t)] != -1:
            return V_CELLS
    if n > 0:  # connected: grow the set reached from tile 0 until it stops
        reached = 1
        grew = True
        while grew:
            grew = False
            for t in range(n):
                if _bit(reached, t):
                    for k in range(3):
                        u = state[adjacency_at(t, k)]
                        if u >= 0 and not _bit(reached, u):
                            reached |= 1 << u
                            grew = True
        if reached != (1 << n) - 1:
            return V_CONNECTED
    return V_OK


@njit(cache=True)
def _pieces(state, cfg, setup):
    """Spores, insects, Mother mushrooms, mushroom tokens and mats."""
    n = state[NTP]
    ns = cfg[CFG_NS]
    mats = cfg[CFG_MATS]
    for s in range(MAXS):
        on_board = 0
        for t in range(NT_MAX):
            v = state[spores_at(t, s)]
            if v != 0 and (t >= n or s >= ns):
                return V_SPORES
            on_board += v
        for t in range(NT_MAX):  # spores on saplings (the expansion) are the seat's too
            v = state[sapling_spores_at(t, s)]
            if v != 0 and s >= ns:
                return V_SEATS
            on_board += v
        if s < ns and on_board + state[supply_at(s)] != SPORES_EACH:
            return V_SPORES
        if s >= ns and state[supply_at(s)] != 0:
            return V_SEATS
    ins = state[INS_SUPPLY]
    for t in range(NT_MAX):
        ins += state[tile_insect_at(t)]
    for s in range(MAXS):
        if s >= ns and state[insects_at(s)] != 0:
            return V_SEATS
        ins += state[insects_at(s)]
    if ins != cfg[CFG_INSECTS]:
        return V_INSECTS
    placed = 0
    for s in range(MAXS):
        mt = state[mother_at(s)]
        if mt >= 0:
            if s >= ns:
                return V_SEATS
            if mt >= n or _bit(placed, mt):
                return V_MOTHERS
            placed |= 1 << mt
        elif s < ns and not setup:
            return V_MOTHERS
    # mushroom tokens on tiles <-> mats
    for t in range(n):
        q = state[mushroom_owner_at(t)]
        if q >= 0:
            i = state[mushroom_mat_at(t)]
            if q >= ns or i >= mats or state[mat_tile_at(q, i)] != t:
                return V_MUSHROOMS
    for s in range(MAXS):
        for i in range(NMATS):
            tile = state[mat_tile_at(s, i)]
            card = state[mat_card_at(s, i)]
            if s >= ns or i >= mats:
                if tile != -1 or card != -1 or state[mat_under_at(s, i)] != 0 or state[mat_counter_at(s, i)] != 0:
                    return V_SEATS
                continue
            auto = cfg[CFG_AUTO] != 0 and s == cfg[CFG_NH]
            if (card == AUTO_CARD) != (auto and tile >= 0):
                return V_MUSHROOMS
            if (tile >= 0) != (card != -1):
                return V_MUSHROOMS
            if card >= 0 and state[card_loc_at(card)] != L_TOP + s * NMATS + i:
                return V_MAT_CARD
            if tile >= 0:
                if tile >= n or state[mushroom_owner_at(tile)] != s or state[mushroom_mat_at(tile)] != i:
                    return V_MUSHROOMS
            elif state[mat_counter_at(s, i)] != 0:
                return V_MUSHROOMS
    return V_OK


@njit(cache=True)
def _listed(state, at0, count, loc):
    """The ``count`` card ids at ``at0`` are distinct, located at ``loc``, and exactly the cards
    located there."""
    lo = 0
    mid = 0
    hi = 0
    for i in range(count):
        c = state[at0 + i]
        if c < 0 or _card_seen(lo, mid, hi, c) or state[card_loc_at(c)] != loc:
            return False
        lo, mid, hi = _card_add(lo, mid, hi, c)
    total = 0
    for c in range(NC):
        if state[card_loc_at(c)] == loc:
            total += 1
    return total == count


@njit(cache=True)
def _cards(state, cfg, kind):
    ns = cfg[CFG_NS]
    mats = cfg[CFG_MATS]
    nh = cfg[CFG_NH]
    auto = cfg[CFG_AUTO] != 0
    pending = 0
    nc = cfg[CFG_NCARDS]
    for c in range(NC):
        x = state[card_loc_at(c)]
        if (x == L_ABSENT) != (c >= nc):  # the expansion's cards are in the game exactly with it
            return V_CARDS
        if x == L_ABSENT:
            continue
        if x == L_DECK or x == L_MARKET or x == L_DISCARD or x == L_BOX:
            continue
        if x == L_PENDING:
            pending += 1
            continue
        if L_HAND <= x < L_HAND + ns:
            continue
        if L_TOP <= x < L_UNDER:
            m = x - L_TOP
            s, i = m // NMATS, m % NMATS
            if s < ns and i < mats and state[mat_card_at(s, i)] == c:
                continue
            return V_CARDS
        if L_UNDER <= x < L_UNDER + MAXS * NMATS:
            m = x - L_UNDER
            s, i = m // NMATS, m % NMATS
            if s < ns and i < mats and not (auto and s == nh):
                continue
        return V_CARDS
    if pending != 0 and kind != D_KEEP:
        return V_CARDS
    if kind == D_KEEP and not 1 <= pending <= 2 - state[STACK + (decision_depth(state) - 1) * ENTRY + 2]:
        return V_CARDS
    if not _listed(state, deck_at(0), state[DECK_N], L_DECK):
        return V_CARDS
    if not _listed(state, discard_at(0), state[DISC_N], L_DISCARD):
        return V_CARDS
    lo = 0
    mid = 0
    hi = 0
    k = 0
    for j in range(MARKET_SIZE):
        c = state[market_at(j)]
        if c >= 0:
            if _card_seen(lo, mid, hi, c) or state[card_loc_at(c)] != L_MARKET:
                return V_CARDS
            lo, mid, hi = _card_add(lo, mid, hi, c)
            k += 1
    total = 0
    for c in range(NC):
        if state[card_loc_at(c)] == L_MARKET:
            total += 1
    if total != k:
        return V_CARDS
    for s in range(MAXS):
        h = 0
        for c in range(NC):
            if state[card_loc_at(c)] == L_HAND + s:
                h += 1
        if h != state[hand_count_at(s)]:
            return V_SEATS if s >= ns else V_CARDS
    # points and mushrooms grown: every mushroom grown is on its mat or under it
    for s in range(ns):
        grown = 0
        for i in range(mats):
            u = state[mat_under_at(s, i)]
            if auto and s == nh and u > 1:  # an Automata mat holds one decayed mushroom at most
                return V_POINTS
            grown += u + (1 if state[mat_tile_at(s, i)] >= 0 else 0)
        if grown != state[grown_at(s)]:
            return V_POINTS
        if auto and s == nh:
            if state[points_at(s)] != 5 * state[grown_at(s)]:
                return V_POINTS
            continue
        pts = 0
        for i in range(mats):
            card = state[mat_card_at(s, i)]
            if card >= 0:
                pts += cfg[cfg_points_at(card)]
            under = 0
            for c in range(NC):
                if state[card_loc_at(c)] == L_UNDER + s * NMATS + i:
                    under += 1
                    pts += cfg[cfg_points_at(c)]
            if under != state[mat_under_at(s, i)]:
                return V_CARDS
        if pts != state[points_at(s)]:
            return V_POINTS
    for s in range(ns, MAXS):
        if state[points_at(s)] != 0 or state[grown_at(s)] != 0:
            return V_SEATS
    return V_OK


@njit(cache=True)
def _stack(state, cfg, over, setup):
    """The decision stack: kinds, players and arguments by kind."""
    ns = cfg[CFG_NS]
    nh = cfg[CFG_NH]
    mats = cfg[CFG_MATS]
    n = state[NTP]
    depth = decision_depth(state)
    tp = state[TURNP]
    if over:
        return V_END if depth != 0 else V_OK
    if depth == 0:
        return V_STACK
    for lvl in range(STACK_MAX):
        o = STACK + lvl * ENTRY
        if lvl >= depth:
            for j in range(ENTRY):
                if state[o + j] != 0:
                    return V_STACK
            continue
        kind = state[o]
        p = state[o + 1]
        a0 = state[o + 2]
        a1 = state[o + 3]
        a2 = state[o + 4]
        a3 = state[o + 5]
        if kind < 0 or kind >= NUM_DECISIONS or p >= nh:
            return V_STACK
        if setup:
            if kind != D_SETUP or a0 < 0 or a0 > 1 or a1 != 0 or a2 != 0 or a3 != 0:
                return V_STACK
            if a0 == 1:  # p places the Automata's Mother mushroom, every player's placed
                if depth != 1 or cfg[CFG_AUTO] == 0 or state[mother_at(nh)] >= 0:
                    return V_STACK
                for s in range(nh):
                    if state[mother_at(s)] < 0:
                        return V_MOTHERS
            elif state[mother_at(p)] >= 0:
                return V_MOTHERS
            continue
        if p != tp and not (cfg[CFG_EXP] != 0 and lvl > 0):
            return V_STACK  # (the expansion: a tree's owner pushes spores, a mushroom aged over decays)
        if (lvl == 0) != (kind == D_MAIN):
            return V_STACK
        if kind == D_MAIN:
            if a0 != 0 or a1 != 0 or a2 != 0 or a3 != 0:
                return V_DECISION
        elif kind == D_MOVE:
            if not (1 <= a0 <= 2 and a1 == 0 and a2 == 0 and a3 == 0):
                return V_DECISION
        elif kind == D_PLACE:
            # explore: a0 0, a1 -1 (a drawn tile); decay's outer tile: a0 0, a1 the tile, a2/a3 its old cell
            if a0 != 0 or a1 >= n:
                return V_DECISION
            if a1 < 0 and (state[DRAWN] < 0 or a2 != 0 or a3 != 0):
                return V_DECISION
            if a1 >= 0 and state[DRAWN] >= 0:
                return V_DECISION
        elif kind == D_ROT:
            if a0 < 0 or a0 >= n or a1 < 0 or a1 > 2 or a2 >= n or a3 != 0:
                return V_DECISION
            if (a2 < 0) != (state[DRAWN] >= 0):
                return V_DECISION
        elif kind == D_SPORE_PICK:
            if a0 < 0 or a0 >= n or a1 < 0 or a1 > 2 or a2 < 1 or a3 < 0 or a3 // SPORE_ROWS < 2:
                return V_DECISION
        elif kind == D_FRUIT_MAT or kind == D_FRUIT_TILE or kind == D_PAY:
            if a0 < 0 or state[card_loc_at(a0)] != L_HAND + p:
                return V_DECISION
            if kind == D_FRUIT_MAT:
                if a1 != 0 or a2 != 0 or a3 != 0:
                    return V_DECISION
            else:
                if a1 < 0 or a1 >= mats or state[mat_card_at(p, a1)] != -1 or state[mat_tile_at(p, a1)] != -1:
                    return V_DECISION
                if kind == D_FRUIT_TILE and (a2 != 0 or a3 != 0):
                    return V_DECISION
                if kind == D_PAY and (a2 < 0 or a2 >= n or a3 < 0 or a3 > 1 or state[mushroom_owner_at(a2)] >= 0):
                    return V_DECISION
        elif kind == D_KEEP:  # a0 0: keep one of two cards; 1: where the other goes
            if a0 < 0 or a0 > 1 or a1 != 0 or a2 != 0 or a3 != 0:
                return V_DECISION
        elif kind == D_OUTER_PICK or kind == D_OPPM_PICK or kind == D_STEAL:
            if a0 != 0 or a1 != 0 or a2 != 0 or a3 != 0:
                return V_DECISION
        elif kind == D_OPPM_DEST:
            if a0 < 0 or a0 >= n or a1 != 0 or a2 != 0 or a3 != 0:
                return V_DECISION
            q = state[mushroom_owner_at(a0)]
            if q < 0 or q == p:
                return V_DECISION
        elif kind == D_MOTHER_PICK:
            if a0 < 0 or a0 > 1 or a1 != 0 or a2 != 0 or a3 != 0:
                return V_DECISION
        elif kind == D_MOTHER_DEST:
            if a0 < 0 or a0 >= ns or a0 == p or a1 < 0 or a1 > 1 or a2 != 0 or a3 != 0:
                return V_DECISION
        elif kind == D_DRAW2:
            if not (1 <= a0 <= 2 and a1 == 0 and a2 == 0 and a3 == 0):
                return V_DECISION
        elif kind == D_TRADE:
            if not (1 <= a0 <= 3 and a1 == 0 and a2 == 0 and a3 == 0):
                return V_DECISION
        elif kind >= D_INVEST and cfg[CFG_EXP] != 0:  # the expansion's decisions
            if not _expansion_decision(state, kind, p, a0, a1, a2, a3, n):
                return V_DECISION
        else:  # D_SETUP after the setup
            return V_STACK
    return V_OK


@njit(cache=True)
def _payment(state, cfg, kind, o):
    """Spores owed by a fruit payment, and the tile sets, agree with the pending decision."""
    n = state[NTP]
    full = (1 << n) - 1
    marks = _set_bits(state, MARKS)
    net = _set_bits(state, FRUIT_NET)
    if marks & ~full or net & ~full:
        return V_PAYMENT
    if kind != D_SPORE_PICK and kind != D_TREE_PUSH and kind != D_AFTER_SPORE and marks != 0:
        return V_PAYMENT
    if kind != D_PAY:
        if net != 0 and kind != D_FRUIT_TILE and kind != D_FRUIT_MAT:
            return V_PAYMENT
        for c in range(4):
            if state[need_at(c)] != 0:
                return V_PAYMENT
        return V_PAYMENT if state[PAID_BLACK] != 0 or state[NEED_WILD] != 0 else V_OK
    card = state[o + 2]
    grow = state[o + 4]
    if not _bit(net, grow):
        return V_PAYMENT
    owed = 0
    asked = 0
    for c in range(4):
        v = state[need_at(c)]
        r = cfg[cfg_require_at(card, c)]
        if v > r:
            return V_PAYMENT
        owed += v
        asked += r
    w = state[NEED_WILD]
    if w > cfg[cfg_wild_at(card)]:
        return V_PAYMENT
    owed += w
    asked += cfg[cfg_wild_at(card)]
    pb = state[PAID_BLACK]
    if pb > asked or owed - pb <= 0:
        return V_PAYMENT
    return V_OK


@njit(cache=True)
def _expansion_decision(state, kind, p, a0, a1, a2, a3, n):
    """The arguments of an expansion decision (kinds D_INVEST .. D_AFTER_SPORE)."""
    if kind == D_AFTER_SPORE:
        # a2: the tree + 1 a chain of pushes goes on from (0 none), a3: whose spore
        return (
            0 <= a0 <= 1
            and 0 <= a1 <= 1
            and 0 <= a2 <= n
            and 0 <= a3 < MAXS
            and (a2 > 0 or a3 == 0)
            and (a2 == 0 or state[tree_at(a2 - 1)] >= 0)
        )
    if kind == D_TREE_PUSH:
        return (
            0 <= a0 < n
            and state[tree_at(a0)] == p
            and 0 <= a1 < MAXS
            and state[spores_at(a0, a1)] > 0
            and 0 <= a2 <= 1
            and a3 == 0
        )
    if kind == D_REROLL:
        return 1 <= a0 <= SAPLING_SPORES and 0 <= a1 <= 2 and a2 == 0 and a3 == 0
    if kind == D_INVEST or kind == D_SYM_SPORE or kind == D_BONUS_PILE or kind == D_SAP_PICK or kind == D_SAP_REMOVE:
        return a0 == 0 and a1 == 0 and a2 == 0 and a3 == 0
    if kind == D_SAP_ADD:
        return 1 <= a0 <= 2 and a1 == 0 and a2 == 0 and a3 == 0
    if kind == D_SAP_REMOVE_SEAT:
        return 0 <= a0 < n and state[sapling_at(a0)] != 0 and a1 == 0 and a2 == 0 and a3 == 0
    if kind == D_KEEP_TILE:
        return 0 <= a0 < NT_MAX and 0 <= a1 < NT_MAX and a0 != a1 and a2 == 0 and a3 == 0  # (ids: _tiles)
    return False


@njit(cache=True)
def _expansion(state, cfg):
    """The North American expansion's pieces (all empty without it)."""
    n = state[NTP]
    on = cfg[CFG_EXP] != 0
    if (state[FORMATION] >= 0) != on or (state[INVESTED] != 0 and not on) or (state[NEED_WILD] != 0 and not on):
        return V_EXPANSION
    saplings = state[SAP_SUPPLY]
    pushing = state[OVER] != 0  # (an AGE whose mushroom's decay ended the game leaves them there)
    for lvl in range(decision_depth(state)):
        if state[STACK + lvl * ENTRY] == D_AFTER_SPORE:
            pushing = True
    for t in range(NT_MAX):
        sap = state[sapling_at(t)]
        g = state[tree_at(t)]
        held = 0
        for s in range(MAXS):
            held += state[sapling_spores_at(t, s)]
        if held > SAPLING_SPORES or (held > 0 and sap == 0):
            return V_EXPANSION
        if t >= n and (sap != 0 or g != -1):
            return V_EXPANSION
        saplings += sap
        if g >= 0:
            if g >= cfg[CFG_NH] or sap != 0 or state[mushroom_owner_at(t)] >= 0:
                return V_EXPANSION
            for s in range(MAXS):  # spores wait on a tree only to be pushed off (after a SPORE action)
                if state[spores_at(t, s)] != 0 and not pushing:
                    return V_EXPANSION
    if saplings != (SAPLINGS if on else 0):
        return V_EXPANSION
    for s in range(MAXS):
        trees = state[trees_left_at(s)]
        for t in range(n):
            if state[tree_at(t)] == s:
                trees += 1
        if trees != (TREES_EACH if on and s < cfg[CFG_NH] else 0):
            return V_EXPANSION
    return V_OK


@njit(cache=True)
def check_state(state, cfg):
    """Every check but the last (``rules.validate`` adds: the player to act has a legal action)."""
    ns = cfg[CFG_NS]
    over = state[OVER] != 0
    tp = state[TURNP]
    if tp >= ns or state[FIRST] >= ns:
        return V_SEATS
    depth = decision_depth(state)
    o = STACK + (depth - 1) * ENTRY
    kind = state[o] if depth > 0 else -1
    setup = depth > 0 and kind == D_SETUP
    # the end of the game and the turn limit
    e = state[ENDER]
    if over:
        if e == RUNNING:
            return V_END
        if e == TURN_LIMIT_END:
            if state[TURN] < cfg[CFG_TURN_LIMIT]:
                return V_END
        else:
            if e >= ns:
                return V_END
            for i in range(cfg[CFG_MATS]):
                if state[mat_under_at(e, i)] == 0:
                    return V_END
    else:
        if state[TURN] >= cfg[CFG_TURN_LIMIT]:
            return V_END
        if e != RUNNING:  # a decay completed e's mats: its decay action's decisions are pending
            if e < 0 or e >= ns or depth < 2 or kind == D_MAIN:
                return V_END
            for i in range(cfg[CFG_MATS]):
                if state[mat_under_at(e, i)] == 0:
                    return V_END
    code = _stack(state, cfg, over, setup)
    if code != V_OK:
        return code
    code = _tiles(state, cfg)
    if code != V_OK:
        return code
    code = _pieces(state, cfg, setup)
    if code != V_OK:
        return code
    code = _cards(state, cfg, kind)
    if code != V_OK:
        return code
    code = _payment(state, cfg, kind, o)
    if code != V_OK:
        return code
    code = _expansion(state, cfg)
    if code != V_OK:
        return code
    # the Automata's deck: a shuffle of its cards, the drawn ones below the count
    if cfg[CFG_AUTO] != 0:  # (unused without the Automata)
        seen = 0
        for i in range(NA_CARDS):
            x = state[automata_deck_at(i)]
            if _bit(seen, x):
                return V_AUTOMATA
            seen |= 1 << x
    return V_OK
