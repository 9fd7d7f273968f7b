"""Applying an action: the answer to the decision on top of the stack (:func:`apply_decision`),
the main actions (:func:`apply_main_action`), the decay actions of a player (:func:`resolve_decay`),
forced decisions applied on their own (:func:`settle`) and the turn order (:func:`next_turn`, where
the Automata's whole turn runs). ``step`` of the kernel contract.
"""

from numba import njit

from . import expansion
from .actions import (
    A_AGE,
    A_DECAY,
    A_DECK,
    A_INSECT_MOVE,
    A_MARKET,
    A_MAT,
    A_PAY,
    A_PAY_SEAT4,
    A_PILE,
    A_PLACE,
    A_REFRESH,
    A_ROT,
    A_SPORE,
    A_STOP,
    A_TILE,
    A_TRADE,
    NUM_ACTIONS,
    action_card,
    action_seat,
)
from .automata import automata_decay_action, automata_place_mother, automata_turn
from .board import neighbour_c, neighbour_r
from .cards import (
    cards_available,
    deck_put_bottom,
    discard_card,
    draw_deck,
    hand_draw,
    refill_market,
    steal_card,
    take_market,
)
from .layout import (
    ACTS,
    BASE_SEATS,
    BLACK,
    CFG_AUTO,
    CFG_EXP,
    CFG_NH,
    CFG_NS,
    CFG_TURN_LIMIT,
    D_AFTER_SPORE,
    D_DRAW2,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_INVEST,
    D_KEEP,
    D_MAIN,
    D_MOTHER_DEST,
    D_MOTHER_PICK,
    D_MOVE,
    D_OPPM_DEST,
    D_OPPM_PICK,
    D_OUTER_PICK,
    D_PAY,
    D_PLACE,
    D_ROT,
    D_SETUP,
    D_SPORE_PICK,
    D_STEAL,
    D_TRADE,
    DC_BOTH,
    DC_DISC2,
    DC_DRAW2,
    DC_EXTRA,
    DC_MOVE3,
    DC_OPP_MOTHER,
    DC_OPP_MUSH,
    DC_OUTER,
    DC_SAPLING_ROLL,
    DC_SPORE3,
    DC_STEAL,
    DC_TWICE,
    DRAWN,
    ENDER,
    FIRST,
    FRUIT_NET,
    GU_DISC2,
    GU_MOVE3,
    GU_SPORE3,
    GU_TWICE,
    INS_SUPPLY,
    L_BOX,
    L_PENDING,
    MARKS,
    MAT_UPG,
    MU_BOTH,
    MU_EXTRA,
    NC,
    NEED,
    NEED_WILD,
    NMATS,
    NTP,
    OVER,
    PAID_BLACK,
    SPORE_SYM,
    ST_LIMIT,
    T_DECAY,
    T_DISCOVER,
    T_EXPLORE,
    T_FRUIT,
    T_MOVE,
    T_SPORE,
    TAKEN,
    TURN,
    TURN_LIMIT_END,
    TURNP,
    USED,
    bit_set,
    bits_clear,
    bits_put,
    card_loc_at,
    cfg_require_at,
    cfg_spores_at,
    cfg_wild_at,
    count_event,
    decision_depth,
    game_upgrades_at,
    hand_count_at,
    insects_at,
    market_at,
    mat_card_at,
    mat_upgrades_at,
    mother_at,
    mushroom_owner_at,
    need_at,
    pile_count_at,
    piles_at,
    pop_decision,
    push_decision,
    replace_top,
    set_top_arg,
    set_top_kind,
    spores_at,
    supply_at,
    tile_col_at,
    tile_row_at,
    top_entry,
    top_kind,
    top_player,
)
from .legality import free_action_possible, has_cheap_main_action, legal_mask
from .mats import decay_mushroom, grow_mushroom, mat_index
from .networks import label_networks
from .spores import mother_spore_count, put_spore, roll_and_spore, spore_from
from .tiles import best_tier, degree, enter_tile, move_mushroom, move_tile, other_mothers, place_tile, tile_colour
from .turn import end_game, end_pending, is_automata, start_action
from .work import LABEL, W_MASK


@njit(cache=True)
def _place_turned(state, cfg, a0, a1, a2, rot):
    """``D_ROT`` answered: the drawn tile (``a2`` -1, explore) or the outer tile ``a2`` (decay)
    goes across free edge ``a1`` of tile ``a0``, turned ``rot``."""
    if a2 < 0:
        tid = state[DRAWN]
        state[DRAWN] = -1
        c = neighbour_c(state[tile_col_at(a0)], state[tile_row_at(a0)], a1)
        r = neighbour_r(state[tile_col_at(a0)], state[tile_row_at(a0)], a1)
        expansion.new_tile_sapling(state, cfg, place_tile(state, cfg, tid, c, r, rot))
    else:
        move_tile(state, cfg, a2, a0, a1, rot)


@njit(cache=True)
def _pick_spore_tile(state, cfg, p, t, left, layer, work):
    """``D_SPORE_PICK`` answered: a spore of ``p`` on tile ``t`` of the layer; ``left`` spores
    were to place in it (``layer``: the packed distance, second spread and symbol)."""
    put_spore(state, p, t)
    bit_set(state, MARKS, t)
    left -= 1
    if left <= 0 or state[supply_at(p)] == 0:
        pop_decision(state)
        bits_clear(state, MARKS)
        both = ((layer >> 8) & 7) - 1
        if both >= 0:
            spore_from(state, cfg, p, state[mother_at(p)], (layer // SPORE_SYM) & 3, both, -1, work)
    else:
        set_top_arg(state, 2, left)


@njit(cache=True)
def _start_payment(state, cfg, p, card, mat, grow, work):
    """``D_FRUIT_TILE`` answered: card ``card`` grows on tile ``grow``; the payment starts, from
    the network of ``grow`` (fixed now)."""
    for c in range(4):
        state[need_at(c)] = cfg[cfg_require_at(card, c)]
    state[NEED_WILD] = cfg[cfg_wild_at(card)]
    state[PAID_BLACK] = 0
    label_networks(state, p, work)
    net = 0
    for t in range(state[NTP]):
        if work[LABEL + t] == work[LABEL + grow]:
            net |= 1 << t
    bits_put(state, FRUIT_NET, net)
    replace_top(state, D_PAY, p, card, mat, grow, 0)


@njit(cache=True)
def _pay_spore(state, cfg, p, card, mat, grow, action):
    """``D_PAY`` answered: one spore (the tile and its owner in ``action``) pays a need; the
    mushroom grows once nothing is owed."""
    if action >= A_PAY_SEAT4:
        t = action - A_PAY_SEAT4
        w = BASE_SEATS
    else:
        x = action - A_PAY
        t = x // BASE_SEATS
        w = x % BASE_SEATS
    state[spores_at(t, w)] -= 1
    state[supply_at(w)] += 1
    col = tile_colour(state, cfg, t)
    if col == BLACK:
        state[PAID_BLACK] += 1
    elif state[need_at(col)] > 0:
        state[need_at(col)] -= 1
    else:
        state[NEED_WILD] -= 1
    set_top_arg(state, 3, 1)  # the grow tile's spore is paid: the rest may come from the network
    if (
        state[NEED] + state[need_at(1)] + state[need_at(2)] + state[need_at(3)] + state[NEED_WILD] - state[PAID_BLACK]
        <= 0
    ):
        pop_decision(state)
        grow_mushroom(state, cfg, p, card, mat, grow)


@njit(cache=True)
def _draw_one(state, p, left, action):
    """``D_DRAW2`` answered: a card from the deck or the market; ``left`` to draw."""
    if action == A_DECK:
        hand_draw(state, p, draw_deck(state))
    else:
        take_market(state, p, action - A_MARKET)
    if left <= 1 or cards_available(state) == 0:
        pop_decision(state)
        refill_market(state)
    else:
        set_top_arg(state, 0, left - 1)


@njit(cache=True)
def _keep_card(state, p, keep):
    """``D_KEEP`` answered: ``keep`` goes to the hand; then where the other goes (a0 1)."""
    hand_draw(state, p, keep)
    set_top_arg(state, 0, 1)


@njit(cache=True)
def _discard_kept_other(state, action):
    """``D_KEEP`` (a0 1) answered: the card not kept goes back in the box (``A_STOP``) or to the
    bottom of the deck (``A_DECK``): "either back in the box or at the bottom of the deck"."""
    pop_decision(state)
    for c in range(NC):
        if state[card_loc_at(c)] == L_PENDING:
            if action == A_DECK:
                deck_put_bottom(state, c)
            else:
                state[card_loc_at(c)] = L_BOX


@njit(cache=True)
def _trade_card(state, p, left, c):
    """``D_TRADE`` answered: card ``c`` is discarded; the third one buys an insect token."""
    state[hand_count_at(p)] -= 1
    discard_card(state, c)
    if left <= 1:
        pop_decision(state)
        state[INS_SUPPLY] -= 1
        state[insects_at(p)] += 1
    else:
        set_top_arg(state, 0, left - 1)


@njit(cache=True)
def apply_decision(state, cfg, action, work):
    """Apply ``action`` as the answer to the decision on top of the stack: it pops the entry,
    turns it into the next decision of the same action (:func:`replace_top`, ``set_top_kind``)
    or counts down its args (``set_top_arg``)."""
    kind, p, a0, a1, a2, a3 = top_entry(state)
    if kind == D_MAIN:
        apply_main_action(state, cfg, p, action, work)
    elif kind == D_SETUP:  # a0 1: p puts the Automata's Mother mushroom on the side it chose
        pop_decision(state)
        enter_tile(state, cfg[CFG_NH] if a0 == 1 else p, action - A_TILE)
        if decision_depth(state) == 0:
            after_setup(state, cfg, work)
    elif kind == D_MOVE:  # a0: steps left
        if action == A_INSECT_MOVE or action == A_REFRESH or action == A_TRADE:  # a free action between steps
            apply_main_action(state, cfg, p, action, work)
        elif action == A_STOP:
            pop_decision(state)
        else:
            enter_tile(state, p, action - A_TILE)
            if a0 <= 1:
                pop_decision(state)
            else:
                set_top_arg(state, 0, a0 - 1)
    elif kind == D_PLACE:  # a1: the tile being moved, -1 for a drawn tile
        x = action - A_PLACE
        replace_top(state, D_ROT, p, x // 3, x % 3, a1, 0)
    elif kind == D_ROT:
        pop_decision(state)
        _place_turned(state, cfg, a0, a1, a2, action - A_ROT)
    elif kind == D_SPORE_PICK:
        _pick_spore_tile(state, cfg, p, action - A_TILE, a2, a3, work)
    elif kind == D_FRUIT_MAT:
        set_top_kind(state, D_FRUIT_TILE)
        set_top_arg(state, 1, action - A_MAT)
    elif kind == D_FRUIT_TILE:
        _start_payment(state, cfg, p, a0, a1, action - A_TILE, work)
    elif kind == D_PAY:
        _pay_spore(state, cfg, p, a0, a1, a2, action)
    elif kind == D_OUTER_PICK:
        t = action - A_TILE
        replace_top(state, D_PLACE, p, 0, t, state[tile_col_at(t)], state[tile_row_at(t)])
    elif kind == D_OPPM_PICK:
        set_top_kind(state, D_OPPM_DEST)
        set_top_arg(state, 0, action - A_TILE)
    elif kind == D_OPPM_DEST:
        pop_decision(state)
        move_mushroom(state, a0, action - A_TILE)
    elif kind == D_MOTHER_PICK:  # a0: 1 moved by insects, 0 by decay (kept as a1)
        replace_top(state, D_MOTHER_DEST, p, action_seat(action), a0, a2, a3)
    elif kind == D_MOTHER_DEST:
        pop_decision(state)
        enter_tile(state, a0, action - A_TILE)
    elif kind == D_STEAL:
        pop_decision(state)
        steal_card(state, p, action_seat(action))
    elif kind == D_DRAW2:
        _draw_one(state, p, a0, action)
    elif kind == D_KEEP:  # a0 0: the card kept; 1: where the other goes
        if a0 == 0:
            _keep_card(state, p, action_card(action))
        else:
            _discard_kept_other(state, action)
    elif kind == D_TRADE:
        _trade_card(state, p, a0, action_card(action))
    elif kind >= D_INVEST:  # the expansion's decisions
        expansion.apply(state, cfg, kind, p, a0, a1, a2, a3, action, work)


@njit(cache=True)
def apply_main_action(state, cfg, p, action, work):
    if action == A_STOP:  # the turn ends (no main action left, or declining the free actions after two)
        next_turn(state, cfg, work)
        return
    if action == A_INSECT_MOVE:
        state[insects_at(p)] -= 2
        state[INS_SUPPLY] += 2
        push_decision(state, D_MOTHER_PICK, p, 1, 0, 0, 0)
        return
    if action == A_REFRESH:
        state[insects_at(p)] -= 1
        state[INS_SUPPLY] += 1
        for j in range(3):
            if state[market_at(j)] >= 0:
                discard_card(state, state[market_at(j)])
                state[market_at(j)] = -1
        refill_market(state)
        return
    if action == A_TRADE:
        push_decision(state, D_TRADE, p, 3, 0, 0, 0)
        return
    if action == A_AGE:  # the expansion: a mushroom under the new tree decays, its owner resolves it
        q, i, kind = expansion.age(state, cfg, p)
        if kind >= 0:
            resolve_decay(state, cfg, q, i, kind)
        elif q >= 0 and is_automata(cfg, q):  # an Automata mushroom: its card in play shows the action
            automata_decay_action(state, cfg, q)
        return
    if action < A_PAY:  # move: first step
        start_action(state, T_MOVE)
        enter_tile(state, p, action - A_TILE)
        steps = 3 if state[game_upgrades_at(p)] & GU_MOVE3 else 2
        push_decision(state, D_MOVE, p, steps - 1, 0, 0, 0)
        return
    if action >= A_PILE and action < A_PILE + 2:
        start_action(state, T_EXPLORE)
        j = action - A_PILE
        if cfg[CFG_EXP] != 0:  # the expansion: "explore 2 keep 1" may draw a second tile
            expansion.explore_draw(state, p, j)
            return
        state[pile_count_at(j)] -= 1
        state[DRAWN] = state[piles_at(j, state[pile_count_at(j)])]
        state[piles_at(j, state[pile_count_at(j)])] = -1
        push_decision(state, D_PLACE, p, 0, -1, 0, 0)
        return
    if action >= A_SPORE and action < A_SPORE + 6:
        start_action(state, T_SPORE)
        spore_action(state, cfg, p, action - A_SPORE, work)
        return
    if action >= A_DECAY and action < A_DECAY + NMATS:
        start_action(state, T_DECAY)
        i = action - A_DECAY
        kind = decay_mushroom(state, cfg, p, i)
        if kind >= 0:
            resolve_decay(state, cfg, p, i, kind)
        return
    if action >= A_MARKET and action <= A_DECK:
        start_action(state, T_DISCOVER)
        if action == A_DECK:
            c = draw_deck(state)
            if state[game_upgrades_at(p)] & GU_DISC2:
                c2 = draw_deck(state)
                if c2 >= 0:
                    state[card_loc_at(c)] = L_PENDING
                    state[card_loc_at(c2)] = L_PENDING
                    push_decision(state, D_KEEP, p, 0, 0, 0, 0)
                    return
            hand_draw(state, p, c)
        else:
            take_market(state, p, action - A_MARKET)
        return
    if action_card(action) >= 0:
        start_action(state, T_FRUIT)
        push_decision(state, D_FRUIT_MAT, p, action_card(action), 0, 0, 0)
        return


@njit(cache=True)
def spore_action(state, cfg, p, src, work):
    """Spore from the Mother mushroom (src 0) or the mushroom of mat src - 1."""
    if cfg[CFG_EXP] != 0:
        expansion.begin_spore(state, p)
    if src == 0:
        roll_and_spore(state, cfg, p, -1, mother_spore_count(state, p), -1, work)
        return
    i = src - 1
    upg = state[mat_upgrades_at(p, i)]
    count = cfg[cfg_spores_at(state[mat_card_at(p, i)])] + (1 if upg & MU_EXTRA else 0)
    both = mother_spore_count(state, p) if upg & MU_BOTH else -1
    roll_and_spore(state, cfg, p, i, count, both, work)


@njit(cache=True)
def resolve_decay(state, cfg, p, i, kind):
    """Apply (or push the decisions of) decay action ``kind`` of a human seat."""
    m = mat_index(p, i)
    if kind == DC_OUTER:
        for t in range(state[NTP]):
            if degree(state, t) == 1:
                push_decision(state, D_OUTER_PICK, p, 0, 0, 0, 0)
                return
    elif kind == DC_OPP_MUSH:
        if best_tier(state) >= 0:
            for t in range(state[NTP]):
                if state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != p:
                    push_decision(state, D_OPPM_PICK, p, 0, 0, 0, 0)
                    return
    elif kind == DC_OPP_MOTHER:
        if best_tier(state) >= 0 and other_mothers(state, cfg, p):
            push_decision(state, D_MOTHER_PICK, p, 0, 0, 0, 0)
    elif kind == DC_STEAL:
        for s in range(cfg[CFG_NS]):
            if s != p and state[hand_count_at(s)] > 0:
                push_decision(state, D_STEAL, p, 0, 0, 0, 0)
                return
    elif kind == DC_DRAW2:
        if cards_available(state) > 0:
            push_decision(state, D_DRAW2, p, 2, 0, 0, 0)
    elif kind == DC_EXTRA:
        state[MAT_UPG + m] |= MU_EXTRA
    elif kind == DC_BOTH:
        state[MAT_UPG + m] |= MU_BOTH
    elif kind == DC_TWICE:
        state[game_upgrades_at(p)] |= GU_TWICE
    elif kind == DC_DISC2:
        state[game_upgrades_at(p)] |= GU_DISC2
    elif kind == DC_MOVE3:
        state[game_upgrades_at(p)] |= GU_MOVE3
    elif kind == DC_SPORE3:
        state[game_upgrades_at(p)] |= GU_SPORE3
    elif kind >= DC_SAPLING_ROLL:  # the expansion's decay actions
        expansion.resolve_decay(state, cfg, p, kind)


@njit(cache=True)
def begin_turn(state, cfg, p):
    state[TURNP] = p
    state[ACTS] = 0
    state[USED] = 0
    state[TAKEN] = 0
    push_decision(state, D_MAIN, p, 0, 0, 0, 0)


@njit(cache=True)
def next_turn(state, cfg, work):
    """End the current turn: refill the market, count the turn, then the next seat plays
    (the Automata's whole turn runs here, after the last player of each round)."""
    refill_market(state)
    while decision_depth(state) > 0:
        pop_decision(state)
    nh = cfg[CFG_NH]
    p = state[TURNP]
    state[TURN] += 1
    if state[TURN] >= cfg[CFG_TURN_LIMIT]:
        count_event(state, ST_LIMIT)
        end_game(state, TURN_LIMIT_END)
        return
    if is_automata(cfg, p):
        nxt = state[FIRST]
    else:
        nxt = (p + 1) % nh
        if cfg[CFG_AUTO] != 0 and nxt == state[FIRST]:
            nxt = nh
    if is_automata(cfg, nxt):
        state[TURNP] = nxt
        automata_turn(state, cfg, nxt, work)
        if state[OVER] != 0:
            return
        refill_market(state)
        state[TURN] += 1
        if state[TURN] >= cfg[CFG_TURN_LIMIT]:
            count_event(state, ST_LIMIT)
            end_game(state, TURN_LIMIT_END)
            return
        nxt = state[FIRST]
        begin_turn(state, cfg, nxt)
        if cfg[CFG_EXP] != 0:
            expansion.after_automata(state, nxt)
        return
    begin_turn(state, cfg, nxt)


@njit(cache=True)
def after_setup(state, cfg, work):
    """Every player's Mother mushroom is placed: the Automata's goes last (unless a player is asked
    which side it sits), then the market and the first turn."""
    if cfg[CFG_AUTO] != 0 and state[mother_at(cfg[CFG_NH])] < 0:
        if not automata_place_mother(state, cfg, cfg[CFG_NH], work):
            return
    refill_market(state)
    begin_turn(state, cfg, state[FIRST])


@njit(cache=True)
def settle(state, cfg, mask, work):
    """Apply forced decisions (a sub-decision with one legal choice, the end of a turn)."""
    while state[OVER] == 0:
        if decision_depth(state) == 0:
            return
        kind = top_kind(state)
        if kind == D_MAIN and end_pending(state):  # the last decay's action is resolved: the game ends
            end_game(state, state[ENDER])
            return
        if kind == D_AFTER_SPORE:  # the expansion: investing, then spores pushed off trees
            expansion.after_spore(state, cfg, work)
            continue
        if kind == D_MAIN:
            if state[ACTS] >= 2 and not free_action_possible(state, cfg, top_player(state)):
                next_turn(state, cfg, work)
                continue
            if has_cheap_main_action(state, cfg, top_player(state)):
                return  # a real choice: no need for the full mask
        n = legal_mask(state, cfg, mask, work)
        if n == 0:
            if kind == D_MAIN:
                next_turn(state, cfg, work)
                continue
            pop_decision(state)  # a sub-decision with no choice left (cannot happen by construction)
            continue
        if n == 1 and (kind != D_MAIN or mask[A_STOP] == 1):
            a = 0
            while mask[a] == 0:
                a += 1
            apply_decision(state, cfg, a, work)
            continue
        return


@njit(cache=True)
def step(state, action, cfg, work):
    apply_decision(state, cfg, action, work)
    settle(state, cfg, work[W_MASK : W_MASK + NUM_ACTIONS], work)
