"""Fungi kernels: what actions do (the deal, the five actions, the follow-ups, the end of a turn)."""

from numba import njit

from mushgym.core import rng_below, rng_seed, shuffle_range

from .cards import BASKET, BUTTER, CIDRE, FLY, MOON, NIGHT0, NKINDS, NNIGHT, PAN
from .layout import (
    A_DECAY,
    A_DISCARD,
    A_FINISH,
    A_PAN,
    A_SELL,
    BUTTER_NEED,
    CFG_START_PANS,
    COOK_FOREST,
    COOK_NIGHT,
    COOK_TYPE,
    D_COOK,
    D_TRIM,
    DECAY_MAX,
    DECAY_N,
    DRAW,
    DRAW_N,
    FOREST_N,
    FOREST_SIZE,
    FREE_POSITIONS,
    LAST,
    NIGHT_N,
    NIGHTP,
    NPASSES,
    NSKIPS,
    NSTEPS,
    NTURNS,
    PAN_BUTTER,
    PAN_CIDRE,
    PAN_FOREST,
    PAN_NIGHT,
    PAN_TYPE,
    RNG,
    START,
    START_HAND,
    TERMINAL,
    TURN_PLAYER,
    baskets_at,
    cfg_copies_at,
    cfg_flavor_at,
    cfg_sticks_at,
    cook_args,
    cooked_butter_at,
    cooked_cidre_at,
    cooked_forest_at,
    cooked_night_at,
    cooked_pans_at,
    decay_at,
    discard_args,
    discard_at,
    draw_pile_at,
    empty_pans_at,
    finish_cook_args,
    fly_new_at,
    fly_old_at,
    forest_at,
    hand_at,
    hand_n_at,
    known_at,
    mushrooms_cooked_at,
    night_pile_at,
    pan_records_at,
    pop_decision,
    push_decision,
    score_at,
    sell_args,
    sticks_at,
    take_args,
    top_arg,
)
from .legality import cooked_units, current_player, has_action, trim_limit


@njit(cache=True)
def spend(state, p, k, n):
    """Remove ``n`` cards of hand kind ``k`` from p's hand (they become public)."""
    state[hand_at(p, k)] -= n
    state[hand_n_at(p)] -= n
    kn = known_at(p, k)
    v = state[kn] - n
    state[kn] = v if v > 0 else 0


@njit(cache=True)
def resolve_card(state, p, card, face_up):
    """Put a card a player gets into hand or display. Returns 1 for a Fly agaric, else 0."""
    if card == BASKET:
        state[baskets_at(p)] += 1
    elif card == FLY:
        state[fly_new_at(p)] += 1
        return 1
    elif card == MOON:
        state[discard_at(MOON)] += 1
        n = state[NIGHT_N]
        if n > 0:
            n -= 1
            nk = state[night_pile_at(n)]
            state[night_pile_at(n)] = 0
            state[NIGHT_N] = n
            state[hand_at(p, nk)] += 1
            state[hand_n_at(p)] += 1
    else:
        state[hand_at(p, card)] += 1
        state[hand_n_at(p)] += 1
        if face_up:
            state[known_at(p, card)] += 1
    return 0


@njit(cache=True)
def draw_card(state):
    n = state[DRAW_N] - 1
    card = state[draw_pile_at(n)]
    state[draw_pile_at(n)] = 0
    state[DRAW_N] = n
    return card


# ---------------------------------------------------------------------------
# Setup
@njit(cache=True)
def init(state, seed, cfg, work):
    for i in range(state.shape[0]):
        state[i] = 0
    rng_seed(state, RNG, seed)
    n = 0
    for k in range(NKINDS):
        if k >= NIGHT0 and k < NIGHT0 + NNIGHT:
            continue
        c = cfg[cfg_copies_at(k)]
        if k == PAN:
            c -= cfg[CFG_START_PANS]
        for _ in range(c):
            state[draw_pile_at(n)] = k
            n += 1
    state[DRAW_N] = n
    shuffle_range(state, DRAW, n, RNG)
    m = 0
    for t in range(NNIGHT):
        for _ in range(cfg[cfg_copies_at(NIGHT0 + t)]):
            state[night_pile_at(m)] = NIGHT0 + t
            m += 1
    state[NIGHT_N] = m
    shuffle_range(state, NIGHTP, m, RNG)
    # The Forest: 8 cards in a line.
    for i in range(FOREST_SIZE):
        state[forest_at(i)] = draw_card(state)
    state[FOREST_N] = FOREST_SIZE
    # One starting pan each (the others' pans stay in the game box if the deck sets more aside).
    sp = cfg[CFG_START_PANS]
    state[empty_pans_at(0)] = (sp + 1) // 2
    state[empty_pans_at(1)] = sp // 2
    start = rng_below(state, RNG, 2)
    state[START] = start
    # Three cards each: Basket -> display, Moon -> Night card, Fly agaric -> discard; no replacements.
    for j in range(2):
        p = start if j == 0 else 1 - start
        for _ in range(START_HAND):
            card = draw_card(state)
            if card == FLY:
                state[discard_at(FLY)] += 1
            else:
                resolve_card(state, p, card, False)
    state[TURN_PLAYER] = start
    state[LAST] = 1 - start
    if not has_action(state, start, cfg):
        advance(state, 1 - start, cfg)


# ---------------------------------------------------------------------------
# Turn structure
@njit(cache=True)
def board_end_of_turn(state):
    """Steps 1-3 after a turn: nearest card to the decay pile, slide, refill."""
    n = state[FOREST_N]
    card = state[forest_at(0)]
    for i in range(n - 1):
        state[forest_at(i)] = state[forest_at(i + 1)]
    state[forest_at(n - 1)] = 0
    n -= 1
    if state[DECAY_N] == DECAY_MAX:
        for j in range(DECAY_MAX):
            state[discard_at(state[decay_at(j)])] += 1
            state[decay_at(j)] = 0
        state[DECAY_N] = 0
    state[decay_at(state[DECAY_N])] = card
    state[DECAY_N] += 1
    while n < FOREST_SIZE and state[DRAW_N] > 0:
        state[forest_at(n)] = draw_card(state)
        n += 1
    state[FOREST_N] = n
    state[NTURNS] += 1


@njit(cache=True)
def expire_flies(state, p):
    state[discard_at(FLY)] += state[fly_old_at(p)]
    state[fly_old_at(p)] = state[fly_new_at(p)]
    state[fly_new_at(p)] = 0


@njit(cache=True)
def advance(state, last, cfg):
    """Choose who acts after ``last``'s turn: the opponent, else ``last`` again (skip), else a forced pass."""
    while True:
        if state[FOREST_N] == 0:
            state[TERMINAL] = 1
            return
        opp = 1 - last
        if has_action(state, opp, cfg):
            state[TURN_PLAYER] = opp
            return
        if has_action(state, last, cfg):
            state[TURN_PLAYER] = last
            state[NSKIPS] += 1
            return
        # Neither player can act: ``opp`` passes (its end-of-turn steps run).
        state[NPASSES] += 1
        state[LAST] = opp
        expire_flies(state, opp)
        board_end_of_turn(state)
        last = opp


@njit(cache=True)
def end_turn(state, p, cfg):
    """End p's turn (no decision is pending any more): end-of-turn steps, then who acts next."""
    state[LAST] = p
    expire_flies(state, p)
    board_end_of_turn(state)
    advance(state, p, cfg)


@njit(cache=True)
def after_take(state, p, flies, cfg):
    if state[FOREST_N] == 0:
        state[TERMINAL] = 1  # the last Forest card is taken: the game ends at once
        return
    if flies > 0 and state[hand_n_at(p)] > trim_limit(state, p):
        push_decision(state, D_TRIM, p)
        return
    end_turn(state, p, cfg)


@njit(cache=True)
def cook_pan(state, p, t, nn, f, src, b, c, cfg):
    """Cook ``f`` Forest and ``nn`` Night cards of type ``t`` (already out of the hand) in a Pan
    from the display (``src`` 0) or the hand (1) with ``b`` Butter and ``c`` Cidre; end the turn."""
    if src == 0:
        state[empty_pans_at(p)] -= 1
    else:
        spend(state, p, PAN, 1)
    if b > 0:
        spend(state, p, BUTTER, b)
    if c > 0:
        spend(state, p, CIDRE, c)
    units = cooked_units(t, nn, f, cfg)
    state[cooked_forest_at(p, t)] += f
    state[cooked_night_at(p, t)] += nn
    state[cooked_butter_at(p)] += b
    state[cooked_cidre_at(p)] += c
    state[score_at(p)] += units * cfg[cfg_flavor_at(t)] + b * cfg[cfg_flavor_at(BUTTER)] + c * cfg[cfg_flavor_at(CIDRE)]
    state[mushrooms_cooked_at(p)] += units
    i = state[cooked_pans_at(p)]
    state[pan_records_at(p, i, PAN_TYPE)] = t
    state[pan_records_at(p, i, PAN_FOREST)] = f
    state[pan_records_at(p, i, PAN_NIGHT)] = nn
    state[pan_records_at(p, i, PAN_BUTTER)] = b
    state[pan_records_at(p, i, PAN_CIDRE)] = c
    state[cooked_pans_at(p)] = i + 1
    end_turn(state, p, cfg)


# ---------------------------------------------------------------------------
# One decision
@njit(cache=True)
def step(state, action, cfg, work):
    p = current_player(state)
    state[NSTEPS] += 1
    if action < A_DECAY:
        i = take_args(action)
        if i >= FREE_POSITIONS:
            state[sticks_at(p)] -= i - 1
        card = state[forest_at(i)]
        n = state[FOREST_N]
        for j in range(i, n - 1):
            state[forest_at(j)] = state[forest_at(j + 1)]
        state[forest_at(n - 1)] = 0
        state[FOREST_N] = n - 1
        flies = resolve_card(state, p, card, True)
        after_take(state, p, flies, cfg)
    elif action == A_DECAY:
        flies = 0
        n = state[DECAY_N]
        for j in range(n):
            flies += resolve_card(state, p, state[decay_at(j)], True)
            state[decay_at(j)] = 0
        state[DECAY_N] = 0
        after_take(state, p, flies, cfg)
    elif action == A_PAN:
        spend(state, p, PAN, 1)
        state[empty_pans_at(p)] += 1
        end_turn(state, p, cfg)
    elif action < A_SELL:
        t, nn, f = cook_args(action)
        spend(state, p, t, f)
        if nn > 0:
            spend(state, p, NIGHT0 + t, nn)
        # The follow-up is skipped only when what everybody can see leaves one choice: fewer
        # than 4 mushrooms (no Butter or Cidre can go in) and a single possible pan source
        # (no empty Pan in the display, or no card left in the hand). Skipping it whenever the
        # player's face-down cards allow one choice would tell the opponent about them.
        units = cooked_units(t, nn, f, cfg)
        if units < BUTTER_NEED and (state[empty_pans_at(p)] == 0 or state[hand_n_at(p)] == 0):
            cook_pan(state, p, t, nn, f, 0 if state[empty_pans_at(p)] > 0 else 1, 0, 0, cfg)
        else:
            push_decision(state, D_COOK, p, t, nn, f)
    elif action < A_FINISH:
        t, nn, f = sell_args(action)
        units = cooked_units(t, nn, f, cfg)
        if nn > 0:
            spend(state, p, NIGHT0 + t, nn)
            state[discard_at(NIGHT0 + t)] += nn
        spend(state, p, t, f)
        state[discard_at(t)] += f
        state[sticks_at(p)] += units * cfg[cfg_sticks_at(t)]
        end_turn(state, p, cfg)
    elif action < A_DISCARD:
        src, b, c = finish_cook_args(action)
        t = top_arg(state, COOK_TYPE)
        nn = top_arg(state, COOK_NIGHT)
        f = top_arg(state, COOK_FOREST)
        pop_decision(state)
        cook_pan(state, p, t, nn, f, src, b, c, cfg)
    else:
        k = discard_args(action)
        spend(state, p, k, 1)
        state[discard_at(k)] += 1
        if state[hand_n_at(p)] <= trim_limit(state, p):
            pop_decision(state)
            end_turn(state, p, cfg)
