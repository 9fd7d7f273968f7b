"""The Automata (RULES.md, "The Automata"): its whole turn runs inside ``step``
(:func:`automata_turn`), with no decision of any player.

Each turn it draws its card and takes two actions in the order Fruit > Decay > Spore > Move
(an Explore when a spore would start from an outer tile, or when it cannot move); ties are drawn
by fate (:func:`.turn.fate`). Its walks over the board are breadth-first searches in the work
area (:func:`mushgym.core.bfs_walk_rule`).
"""

from numba import njit

from mushgym.core import bfs_walk_rule, shuffle_range

from . import expansion
from .board import neighbour_c, neighbour_r
from .cards import draw_deck, hand_draw, steal_card
from .layout import (
    A_CARDNOW,
    ADJ,
    AUTO_CARD,
    AUTO_DECK,
    AUTO_DECK_N,
    BLACK,
    CFG_ACOL,
    CFG_ADEC,
    CFG_AMOVE,
    CFG_AREQ,
    CFG_ASPO,
    CFG_MATS,
    CFG_NH,
    CFG_NS,
    D_SETUP,
    DC_DRAW2,
    DC_OPP_MOTHER,
    DC_OPP_MUSH,
    DC_OUTER,
    DC_STEAL,
    ENDER,
    INS_SUPPLY,
    MAT_CARD,
    MAT_CTR,
    MAT_TILE,
    MAT_UNDER,
    MAXS,
    MT_COLOUR,
    MT_INSECT,
    MT_OPP_MOTHER,
    MT_OPP_MUSH,
    MT_OWN_MUSH,
    NA_CARDS,
    NTP,
    OVER,
    PILE_N,
    RNG,
    ST_AUTO,
    ST_DECAY,
    ST_WALK,
    adjacency_at,
    automata_deck_at,
    count_event,
    grown_at,
    hand_count_at,
    insects_at,
    mat_tile_at,
    mother_at,
    mushroom_mat_at,
    mushroom_owner_at,
    pile_count_at,
    piles_at,
    points_at,
    push_decision,
    spores_at,
    supply_at,
    tile_col_at,
    tile_insect_at,
    tile_row_at,
)
from .mats import decay_mushroom, mat_blocked, mat_index
from .networks import label_networks, network_spores, spendable, spendable_all
from .spores import roll_and_spore
from .tiles import (
    automata_centre_best,
    automata_centre_score,
    best_tier,
    degree,
    edge_with_symbol,
    empty_tier,
    enter_tile,
    mother_on,
    move_mushroom,
    move_tile,
    nearest_players,
    place_tile,
    placement_ok,
    spores_on,
    tile_colour,
)
from .turn import automata_card_value, end_game, end_pending, fate, random_below
from .work import LABEL, W_AUX, W_DIST, W_QUEUE, W_QUEUE_AUX, W_TRIED


@njit(cache=True, inline="always")
def _enters_unless_mother(args, u):
    """The walk's rule for :func:`_board_distances`: ``args = (state, avoid_mothers_of)``."""
    state, avoid_mothers_of = args
    if avoid_mothers_of < 0:
        return True
    m = mother_on(state, u)
    return m < 0 or m == avoid_mothers_of


@njit(cache=True)
def _board_distances(state, src, avoid_mothers_of, work):
    """Distances from tile ``src`` over flat edges into ``work[W_DIST + t]`` (-1 unreached).
    Tiles with a Mother mushroom of a seat other than ``avoid_mothers_of`` are not entered
    (pass -1 to walk everywhere). Returns the number reached."""
    for t in range(state[NTP]):
        work[W_DIST + t] = -1
    work[W_DIST + src] = 0
    work[W_QUEUE] = src
    return bfs_walk_rule(state, ADJ, 3, _enters_unless_mother, (state, avoid_mothers_of), work, W_DIST, W_QUEUE, 1, 1)


@njit(cache=True)
def automata_place_mother(state, cfg, a, work):
    """The Automata's Mother mushroom goes last: opposite the player's in the solo game, else
    equidistant from the players' (the free centre tile whose distances to them spread least).
    Among tied tiles fate draws the players the place is next to (a "spore from the hat": Example
    C, two of three players: the tile between them); when the drawn player is next to several of
    them, that player decides which side (Example B): a ``D_SETUP`` decision (a0 1) is pushed and
    False returned. True once placed."""
    nh = cfg[CFG_NH]
    best = automata_centre_best(state, cfg, nh)
    # the distinct sets of nearest players among the best tiles, in tile order (W_AUX: each tile's set)
    nsets = 0
    for t in range(6):
        work[W_AUX + t] = -1
        if automata_centre_score(state, cfg, nh, t) != best:
            continue
        bits = nearest_players(state, nh, t) if nh > 1 else 1
        work[W_AUX + t] = bits
        new = True
        for u in range(t):
            if work[W_AUX + u] == bits:
                new = False
        if new:
            nsets += 1
    k = fate(state, nsets)
    bits = -1
    for t in range(6):
        if work[W_AUX + t] < 0:
            continue
        new = True
        for u in range(t):
            if work[W_AUX + u] == work[W_AUX + t]:
                new = False
        if new:
            if k == 0:
                bits = work[W_AUX + t]
                break
            k -= 1
    cnt = 0
    for t in range(6):
        if work[W_AUX + t] == bits:
            cnt += 1
    if cnt > 1 and nh > 1 and bits & (bits - 1) == 0:  # one player, several sides: that player decides
        p = 0
        while (bits >> p) & 1 == 0:
            p += 1
        push_decision(state, D_SETUP, p, 1, 0, 0, 0)
        return False
    k = fate(state, cnt)
    for t in range(6):
        if work[W_AUX + t] == bits:
            if k == 0:
                enter_tile(state, a, t)
                return True
            k -= 1
    return True


@njit(cache=True)
def automata_fruit(state, cfg, a, ncomp, work):
    """Fruit for the Automata if one of its networks pays its card (coloured spores by colour or
    black, wild spores from anything, each taken from the most populated tile); the networks
    are tried from the richest. Returns True if it grew a mushroom. (Labels must be fresh.)"""
    slot = -1
    for i in range(cfg[CFG_MATS]):
        m = mat_index(a, i)
        if state[MAT_CARD + m] == -1 and state[MAT_TILE + m] < 0 and state[MAT_UNDER + m] == 0:
            slot = i
            break
    if slot < 0:
        return False
    tried = W_TRIED
    for lab in range(ncomp):
        work[tried + lab] = 0
    for _ in range(ncomp):
        best_lab = -1
        best_n = -1
        for lab in range(ncomp):
            if work[tried + lab] != 0:
                continue
            a0, a1, a2, a3, a4 = network_spores(state, cfg, a, lab, work)
            n = a0 + a1 + a2 + a3 + a4
            if n > best_n:
                best_n = n
                best_lab = lab
        work[tried + best_lab] = 1
        if _auto_pay(state, cfg, a, best_lab, slot, work):
            return True
    return False


@njit(cache=True)
def _fits(state, cfg, t, col):
    """A spore on tile ``t`` pays need ``col`` (0..3 a colour: that colour or black; 4 wild: any)."""
    tc = tile_colour(state, cfg, t)
    return col == 4 or tc == col or tc == BLACK


@njit(cache=True)
def _plan_payment(state, cfg, a, lab, force, work):
    """Plan the payment of the Automata's card from network ``lab`` into ``WORK[W_QUEUE + t]``
    (spores taken from tile ``t``): each spore from the most populated tile that fits (coloured
    needs first, from their colour, else black); ``force`` >= 0: one spore from that tile first
    (the tile to grow on). False if the network cannot pay."""
    n = state[NTP]
    take = W_QUEUE
    for t in range(n):
        work[take + t] = 0
    skip = -1  # the need the forced spore pays: its colour, else (black) the first colour owed, else wild
    if force >= 0:
        if spendable_all(state, a, force) <= 0:
            return False
        for col in range(5):
            if automata_card_value(cfg, state, CFG_AREQ, 5, col) > 0 and _fits(state, cfg, force, col):
                skip = col
                break
        if skip < 0:
            return False
        work[take + force] = 1
    for col in range(5):  # 0..3 coloured needs (tile of that colour, else black), 4 wild
        need = automata_card_value(cfg, state, CFG_AREQ, 5, col) - (1 if col == skip else 0)
        for _ in range(need):
            best = -1
            bv = -1
            for pass_ in range(2):
                for t in range(n):
                    if work[LABEL + t] != lab:
                        continue
                    tc = tile_colour(state, cfg, t)
                    if col < 4:
                        if pass_ == 0 and tc != col:
                            continue
                        if pass_ == 1 and tc != BLACK:
                            continue
                    left = spendable_all(state, a, t) - work[take + t]
                    if left <= 0:
                        continue
                    v = spores_on(state, t) - work[take + t]
                    if v > bv:
                        bv = v
                        best = t
                if best >= 0 or col == 4:
                    break
            if best < 0:
                return False
            work[take + best] += 1
    return True


@njit(cache=True)
def _card_colour_tile(state, cfg, t):
    tc = tile_colour(state, cfg, t)
    return tc < 4 and automata_card_value(cfg, state, CFG_AREQ, 5, tc) > 0


@njit(cache=True)
def _grow_tile(state, cfg, a, work):
    """Where the planned payment grows: a paid tile with no mushroom, of a colour on the card,
    else the one closest to an opponent; -1 if every paid tile holds a mushroom."""
    n = state[NTP]
    for t in range(n):
        if work[W_QUEUE + t] > 0 and state[mushroom_owner_at(t)] < 0 and _card_colour_tile(state, cfg, t):
            return t
    grow = -1
    bestd = 1 << 20
    for t in range(n):
        if work[W_QUEUE + t] > 0 and state[mushroom_owner_at(t)] < 0:
            d = _dist_to_opponent(state, cfg, a, t, work)
            if d < bestd:
                bestd = d
                grow = t
    return grow


@njit(cache=True)
def _forced_grow_tile(state, cfg, a, lab, work):
    """When the most-populated payment leaves no paid tile free to grow on: the tile of the network
    with no mushroom that another payment (one spore from it first) can pay from, of a colour on
    the card first, else the closest to an opponent; -1 if none."""
    n = state[NTP]
    for t in range(n):
        if (
            work[LABEL + t] == lab
            and state[mushroom_owner_at(t)] < 0
            and _card_colour_tile(state, cfg, t)
            and (_plan_payment(state, cfg, a, lab, t, work))
        ):
            return t
    grow = -1
    bestd = 1 << 20
    for t in range(n):
        if work[LABEL + t] == lab and state[mushroom_owner_at(t)] < 0 and _plan_payment(state, cfg, a, lab, t, work):
            d = _dist_to_opponent(state, cfg, a, t, work)
            if d < bestd:
                bestd = d
                grow = t
    return grow


@njit(cache=True)
def _auto_pay(state, cfg, a, lab, slot, work):
    """Plan the payment (WORK[t] = spores taken from tile t) and, if it works, pay and grow. The
    spores come from the most populated tiles; if no tile paid that way is free to grow on,
    another payment that takes one spore from a free tile first is planned (RULES.md)."""
    n = state[NTP]
    take = W_QUEUE
    if not _plan_payment(state, cfg, a, lab, -1, work):
        return False
    grow = _grow_tile(state, cfg, a, work)
    if grow < 0:
        grow = _forced_grow_tile(state, cfg, a, lab, work)
        if grow < 0:
            return False
        _plan_payment(state, cfg, a, lab, grow, work)
    for t in range(n):
        k = work[take + t]
        # the others' spores first, its own last (helping the Automata: it keeps its network)
        for o in range(MAXS):
            w = (a + 1 + o) % MAXS
            while k > 0 and spendable(state, a, t, w) > 0:
                state[spores_at(t, w)] -= 1
                state[supply_at(w)] += 1
                k -= 1
    m = mat_index(a, slot)
    state[MAT_CARD + m] = AUTO_CARD
    state[MAT_TILE + m] = grow
    state[MAT_CTR + m] = 0
    state[mushroom_owner_at(grow)] = a
    state[mushroom_mat_at(grow)] = slot
    state[points_at(a)] += 5
    state[grown_at(a)] += 1
    return True


@njit(cache=True)
def _dist_to_opponent(state, cfg, a, t, work):
    """Distance (over the board) from tile ``t`` to the nearest opponent Mother mushroom. Its own
    tables (``W_AUX``, ``W_QUEUE_AUX``): the caller's queue and distances stay intact."""
    for u in range(state[NTP]):
        work[W_AUX + u] = -1
    work[W_AUX + t] = 0
    work[W_QUEUE_AUX] = t
    bfs_walk_rule(state, ADJ, 3, _enters_unless_mother, (state, -1), work, W_AUX, W_QUEUE_AUX, 1, 1)
    best = 1 << 20
    for s in range(cfg[CFG_NS]):
        if s != a and state[mother_at(s)] >= 0 and work[W_AUX + state[mother_at(s)]] >= 0:
            best = min(best, work[W_AUX + state[mother_at(s)]])
    return best


@njit(cache=True)
def _auto_decay_slot(state, cfg, a):
    for i in range(cfg[CFG_MATS]):
        m = mat_index(a, i)
        if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] >= 2 and not mat_blocked(state, a, i):
            return i
    return -1


@njit(cache=True)
def _auto_spore_origin(state, cfg, a):
    """-2 none possible; -1 the Mother mushroom; else the slot whose mushroom spores next
    (the lowest counter first, so all have spored once before any spores twice)."""
    on_board = False
    best = -2
    bc = 99
    for i in range(cfg[CFG_MATS]):
        m = mat_index(a, i)
        if state[MAT_TILE + m] >= 0:
            on_board = True
            if state[MAT_CTR + m] < 2 and not mat_blocked(state, a, i) and state[MAT_CTR + m] < bc:
                bc = state[MAT_CTR + m]
                best = i
    if not on_board:
        return -1
    return best


@njit(cache=True)
def _auto_explore(state, cfg, a, near):
    """The Automata explores: a tile from the fuller pile, placed across a free edge of tile
    ``near`` if it has one (else anywhere), edge and rotation drawn by fate. False if no tile."""
    j = 0 if state[PILE_N] >= state[pile_count_at(1)] else 1
    if state[pile_count_at(j)] == 0:
        return False
    state[pile_count_at(j)] -= 1
    tid = state[piles_at(j, state[pile_count_at(j)])]
    state[piles_at(j, state[pile_count_at(j)])] = -1
    placed0 = state[NTP]
    cnt = 0
    if near >= 0:
        for k in range(3):
            if state[adjacency_at(near, k)] < 0:
                cnt += 1
    if cnt > 0:
        x = fate(state, cnt)
        for k in range(3):
            if state[adjacency_at(near, k)] < 0:
                if x == 0:
                    place_tile(
                        state,
                        cfg,
                        tid,
                        neighbour_c(state[tile_col_at(near)], state[tile_row_at(near)], k),
                        neighbour_r(state[tile_col_at(near)], state[tile_row_at(near)], k),
                        fate(state, 3),
                    )
                    break
                x -= 1
    else:
        for i in range(state[NTP]):
            for k in range(3):
                if placement_ok(state, i, k, -1, 0, 0):
                    cnt += 1
        x = fate(state, cnt)
        done = False
        for i in range(state[NTP]):
            if done:
                break
            for k in range(3):
                if placement_ok(state, i, k, -1, 0, 0):
                    if x == 0:
                        place_tile(
                            state,
                            cfg,
                            tid,
                            neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k),
                            neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k),
                            fate(state, 3),
                        )
                        done = True
                        break
                    x -= 1
    if state[NTP] > placed0:
        expansion.new_tile_sapling(state, cfg, state[NTP] - 1)
    count_event(state, ST_AUTO + 4)
    return True


@njit(cache=True)
def _auto_spore(state, cfg, a, origin_slot, work):
    """The Automata spores its card's count from its M (``origin_slot`` -1) or a mushroom."""
    roll_and_spore(state, cfg, a, origin_slot, automata_card_value(cfg, state, CFG_ASPO, 1, 0), -1, work)
    # (the expansion: its spores on a Grandfather Tree are pushed by the tree's owner after its turn,
    # expansion.after_automata)
    count_event(state, ST_AUTO + 2)


@njit(cache=True)
def _auto_is_target(state, cfg, a, t, target):
    if target == MT_COLOUR:
        return tile_colour(state, cfg, t) == automata_card_value(cfg, state, CFG_ACOL, 1, 0)
    if target == MT_OPP_MUSH:
        return state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
    if target == MT_OWN_MUSH:
        return state[mushroom_owner_at(t)] == a
    if target == MT_OPP_MOTHER:
        m = mother_on(state, t)
        return m >= 0 and m != a
    if target == MT_INSECT:
        return state[tile_insect_at(t)] != 0
    # opponent spores: the most populated tile(s)
    best = 0
    for u in range(state[NTP]):
        v = spores_on(state, u) - state[spores_at(u, a)]
        best = max(best, v)
    return best > 0 and spores_on(state, t) - state[spores_at(t, a)] == best


@njit(cache=True)
def automata_move(state, cfg, a, work):
    """MOVE by the card's symbol for the rolled face; False if the M did not move at all."""
    face = random_below(state, 3)
    target = automata_card_value(cfg, state, CFG_AMOVE, 3, face)
    start = state[mother_at(a)]
    _board_distances(state, start, a, work)
    dist = W_DIST
    # nearest target: a tile to stand on, or (opponent's M) a tile next to it
    best = 1 << 20
    for t in range(state[NTP]):
        if t == start or not _auto_is_target(state, cfg, a, t, target):
            continue
        if target == MT_OPP_MOTHER:
            for e in range(3):
                u = state[adjacency_at(t, e)]
                if u >= 0 and work[dist + u] >= 0 and work[dist + u] < best:
                    best = work[dist + u]
        elif work[dist + t] > 0 and work[dist + t] < best:
            best = work[dist + t]
    moved = False
    if best < (1 << 20) and best > 0:
        # goal tiles at distance ``best``; fate picks one; walk a shortest path up to 2 steps
        cnt = 0
        for t in range(state[NTP]):
            if work[dist + t] == best and _auto_goal(state, cfg, a, t, target, start):
                cnt += 1
        k = fate(state, cnt)
        goal = -1
        for t in range(state[NTP]):
            if work[dist + t] == best and _auto_goal(state, cfg, a, t, target, start):
                if k == 0:
                    goal = t
                    break
                k -= 1
        # path: walk back from the goal
        steps = min(2, best)
        cur = goal
        while work[dist + cur] > steps:
            for e in range(3):
                u = state[adjacency_at(cur, e)]
                if u >= 0 and work[dist + u] == work[dist + cur] - 1:
                    cur = u
                    break
        # cur is at distance ``steps``; enter the tiles along the way (insects picked up)
        path0 = cur
        if steps == 2:
            for e in range(3):
                u = state[adjacency_at(cur, e)]
                if u >= 0 and work[dist + u] == 1:
                    enter_tile(state, a, u)
                    break
        enter_tile(state, a, path0)
        moved = True
        if target == MT_INSECT and best == 1:  # a second insect token next to the first
            for e in range(3):
                u = state[adjacency_at(path0, e)]
                if u >= 0 and state[tile_insect_at(u)] != 0 and mother_on(state, u) < 0:
                    enter_tile(state, a, u)
                    break
    else:
        count_event(state, ST_WALK)
        for _ in range(2):
            sym = random_below(state, 3)
            cur = state[mother_at(a)]
            k = edge_with_symbol(state, cfg, cur, sym)
            u = state[adjacency_at(cur, k)]
            if u >= 0 and mother_on(state, u) < 0:
                enter_tile(state, a, u)
        moved = state[mother_at(a)] != start
    if moved:
        count_event(state, ST_AUTO + 3)
    return moved


@njit(cache=True)
def _auto_goal(state, cfg, a, t, target, start):
    if target == MT_OPP_MOTHER:
        for e in range(3):
            u = state[adjacency_at(t, e)]
            if u >= 0 and _auto_is_target(state, cfg, a, u, target):
                return True
        return False
    return t != start and _auto_is_target(state, cfg, a, t, target)


@njit(cache=True)
def _auto_decay_action(state, cfg, a, kind):
    """The Automata resolves an instant decay action, choosing what helps it (fate on ties)."""
    if kind == DC_STEAL:
        cnt = 0
        for s in range(cfg[CFG_NS]):
            if s != a and state[hand_count_at(s)] > 0:
                cnt += 1
        if cnt > 0:
            k = fate(state, cnt)
            for s in range(cfg[CFG_NS]):
                if s != a and state[hand_count_at(s)] > 0:
                    if k == 0:
                        steal_card(state, a, s)
                        break
                    k -= 1
    elif kind == DC_DRAW2:
        for _ in range(2):
            c = draw_deck(state)
            if c >= 0:
                hand_draw(state, a, c)
    elif kind == DC_OPP_MUSH or kind == DC_OPP_MOTHER:
        best = best_tier(state)
        if best < 0:
            return
        cnt = 0
        for t in range(state[NTP]):
            if kind == DC_OPP_MUSH:
                ok = state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
            else:
                m = mother_on(state, t)
                ok = m >= 0 and m != a
            if ok:
                cnt += 1
        if cnt == 0:
            return
        k = fate(state, cnt)
        src = -1
        for t in range(state[NTP]):
            if kind == DC_OPP_MUSH:
                ok = state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
            else:
                m = mother_on(state, t)
                ok = m >= 0 and m != a
            if ok:
                if k == 0:
                    src = t
                    break
                k -= 1
        dcnt = 0
        for t in range(state[NTP]):
            if empty_tier(state, t) == best:
                dcnt += 1
        k = fate(state, dcnt)
        for t in range(state[NTP]):
            if empty_tier(state, t) == best:
                if k == 0:
                    if kind == DC_OPP_MUSH:
                        move_mushroom(state, src, t)
                    else:
                        enter_tile(state, mother_on(state, src), t)
                    break
                k -= 1
    elif kind == DC_OUTER:
        # move an outer tile that holds none of its pieces next to its Mother mushroom
        cnt = 0
        for t in range(state[NTP]):
            if (
                degree(state, t) == 1
                and state[mother_at(a)] != t
                and state[mushroom_owner_at(t)] != a
                and state[spores_at(t, a)] == 0
            ):
                cnt += 1
        if cnt == 0:
            return
        k = fate(state, cnt)
        mt = state[mother_at(a)]
        for t in range(state[NTP]):
            if (
                degree(state, t) == 1
                and state[mother_at(a)] != t
                and state[mushroom_owner_at(t)] != a
                and state[spores_at(t, a)] == 0
            ):
                if k == 0:
                    oc = state[tile_col_at(t)]
                    orr = state[tile_row_at(t)]
                    # a free edge of the M's tile, else any placement
                    for e in range(3):
                        if state[adjacency_at(mt, e)] < 0 and placement_ok(state, mt, e, t, oc, orr):
                            move_tile(state, cfg, t, mt, e, fate(state, 3))
                            return
                    for i in range(state[NTP]):
                        for e in range(3):
                            if placement_ok(state, i, e, t, oc, orr):
                                move_tile(state, cfg, t, i, e, fate(state, 3))
                                return
                    return
                k -= 1


@njit(cache=True)
def automata_decay_action(state, cfg, a):
    """The decay action of the Automata's card in play, for a mushroom of its that decayed (its own
    DECAY, or a Grandfather Tree aged over it)."""
    if state[A_CARDNOW] < 0:
        return
    kind = automata_card_value(cfg, state, CFG_ADEC, 1, 0)
    count_event(state, ST_DECAY + kind)
    _auto_decay_action(state, cfg, a, kind)


@njit(cache=True)
def _move_blocker_away(state, a, t, work):
    """One insect of the Automata moves the Mother mushroom on tile ``t`` (blocking its mushroom)
    to a tile as far away as possible without a Mother mushroom (fate among the farthest)."""
    s = mother_on(state, t)
    _board_distances(state, t, -1, work)
    far = -1
    for u in range(state[NTP]):
        if mother_on(state, u) < 0 and work[W_DIST + u] > far:
            far = work[W_DIST + u]
    cnt = 0
    for u in range(state[NTP]):
        if mother_on(state, u) < 0 and work[W_DIST + u] == far:
            cnt += 1
    k = fate(state, cnt)
    for u in range(state[NTP]):
        if mother_on(state, u) < 0 and work[W_DIST + u] == far:
            if k == 0:
                state[insects_at(a)] -= 1
                state[INS_SUPPLY] += 1
                enter_tile(state, s, u)
                return
            k -= 1


@njit(cache=True)
def automata_turn(state, cfg, a, work):
    """The Automata's whole turn: draw its card, then two actions, Fruit > Decay > Spore > Move."""
    if state[AUTO_DECK_N] == 0:
        for i in range(NA_CARDS):
            state[automata_deck_at(i)] = i
        state[AUTO_DECK_N] = NA_CARDS
        shuffle_range(state, AUTO_DECK, NA_CARDS, RNG)
    state[AUTO_DECK_N] -= 1
    state[A_CARDNOW] = state[automata_deck_at(state[AUTO_DECK_N])]
    done = 0
    tried = 0  # bits: 1 fruit, 2 decay, 4 spore, 8 move
    while done < 2 and state[OVER] == 0:
        if tried & 1 == 0:
            tried |= 1
            ncomp = label_networks(state, a, work)
            if ncomp > 0 and automata_fruit(state, cfg, a, ncomp, work):
                count_event(state, ST_AUTO)
                done += 1
            continue
        if tried & 2 == 0:
            tried |= 2
            i = _auto_decay_slot(state, cfg, a)
            if i >= 0:
                decay_mushroom(state, cfg, a, i)  # no mushroom card: the decay action is its card's
                count_event(state, ST_AUTO + 1)
                done += 1
                automata_decay_action(state, cfg, a)
                if end_pending(state):  # it decayed in every slot: the game ends after the action
                    end_game(state, state[ENDER])
                    return
            continue
        if tried & 4 == 0:
            tried |= 4
            src = _auto_spore_origin(state, cfg, a)
            if src == -2 or state[supply_at(a)] == 0:
                continue
            origin = state[mother_at(a)] if src < 0 else state[mat_tile_at(a, src)]
            if degree(state, origin) == 1 and (state[PILE_N] + state[pile_count_at(1)]) > 0:
                _auto_explore(state, cfg, a, origin)
                done += 1
                if done == 2:
                    break
            _auto_spore(state, cfg, a, src, work)
            done += 1
            continue
        if tried & 8 == 0:
            tried |= 8
            # only MOVE left because a mushroom is blocked: one insect moves the blocker far away
            blocked = -1
            for i in range(cfg[CFG_MATS]):
                if mat_blocked(state, a, i):
                    blocked = i
            if done == 0 and blocked >= 0 and state[insects_at(a)] >= 1:
                t = state[mat_tile_at(a, blocked)]
                _move_blocker_away(state, a, t, work)
                count_event(state, ST_AUTO + 5)
                done += 1
                _auto_explore(state, cfg, a, t)
                done += 1
                continue
            if not automata_move(state, cfg, a, work):
                _auto_explore(state, cfg, a, state[mother_at(a)])
            done += 1
            continue
        break
