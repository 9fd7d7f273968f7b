"""Mycelium's Build action and the Paths it places: paying (``D_PAY``), placing Paths one at a
time (``D_PLACE_PATH``), the 21st Path (``D_REMOVE_OWN``), and the windows a new Path opens:
Penny Bun and Inky Cap (``D_PATHWIN``), an Inky Cap's gift (``D_INKY_GIVE``).
"""

from numba import njit

from .abilities import play_card
from .board import any_build_edge, any_removable, can_build_at, connected_to_own, has_path, place_path, remove_path
from .cards import hand_card_mask, hand_size, lose_hidden, lose_public, may_hold, order_player, payment_mask, to_discard
from .layout import (
    A_INKY,
    A_PASS,
    A_PAY_DONE,
    A_PAY_TOKEN,
    A_PENNY,
    AB_INKY,
    AB_PENNY,
    CFG_NE,
    CFG_NP,
    D_PATHWIN,
    D_PLACE_PATH,
    D_REMOVE_OWN,
    INKY,
    INKY_GIVE_EDGE,
    INKY_GIVE_GIVEN,
    INKY_GIVE_RECEIVER,
    MAX_PAID,
    MAX_PATHS,
    PATH_WINDOW_BUILDER,
    PATH_WINDOW_EDGE,
    PAY_PAID,
    PENNY,
    PLACE_PATH_LEFT,
    REMOVE_OWN_EDGE,
    card_args,
    cfg_permanent_at,
    cfg_spore_at,
    hand_at,
    known_at,
    mat_spores_at,
    npaths_at,
    pay_card_args,
    place_path_action,
    place_path_args,
    pop_decision,
    push_decision,
    remove_own_action,
    remove_own_args,
    set_top_arg,
    top_arg,
)


@njit(cache=True)
def push_path_window(state, cfg, builder, e):
    """Penny Bun / Inky Cap prompts after ``builder``'s new Path on ``e`` (reverse turn order),
    to the players with a Path connected to it who may hold either card."""
    n = cfg[CFG_NP]
    for i in range(n - 1, -1, -1):
        q = order_player(state, cfg, i)
        if q != builder and connected_to_own(state, cfg, q, e) and may_hold(state, cfg, q, PENNY, INKY):
            push_decision(state, D_PATHWIN, q, builder, e)


# --- Build: pay, then place floor(paid / 3) Paths ------------------------------------------------


@njit(cache=True)
def pay_mask(state, cfg, p, mask, work):
    """Pay a Spore Token or a card (up to 30), or stop once a Path is paid for (published:
    "Spend 3 Spore Value to build each Path"; the Build is offered only with 3 to pay)."""
    paid = top_arg(state, PAY_PAID)
    c = 0
    if paid >= 3:
        mask[A_PAY_DONE] = 1
        c += 1
    if paid < MAX_PAID:
        c += payment_mask(state, cfg, p, mask)
    return c


@njit(cache=True)
def pay_step(state, cfg, p, a, work):
    paid = top_arg(state, PAY_PAID)
    if a == A_PAY_DONE:
        pop_decision(state)
        push_decision(state, D_PLACE_PATH, p, paid // 3)
    elif a == A_PAY_TOKEN:
        state[mat_spores_at(p)] -= 1
        set_top_arg(state, PAY_PAID, paid + 3)
    else:
        t = pay_card_args(a)
        lose_public(state, cfg, p, t)
        to_discard(state, t, 1)
        set_top_arg(state, PAY_PAID, paid + cfg[cfg_spore_at(t)])


@njit(cache=True)
def place_path_live(state, cfg, p):
    return top_arg(state, PLACE_PATH_LEFT) > 0 and any_build_edge(state, cfg, p)


@njit(cache=True)
def place_path_mask(state, cfg, p, mask, work):
    c = 0
    for e in range(cfg[CFG_NE]):
        if can_build_at(state, cfg, p, e):
            mask[place_path_action(e)] = 1
            c += 1
    return c


@njit(cache=True)
def place_path_step(state, cfg, p, a, work):
    """One Path; then the windows it opens, and the 21st Path's removal."""
    e = place_path_args(a)
    left = top_arg(state, PLACE_PATH_LEFT) - 1
    if left <= 0:
        pop_decision(state)
    else:
        set_top_arg(state, PLACE_PATH_LEFT, left)
    place_path(state, cfg, p, e)
    push_path_window(state, cfg, p, e)
    if state[npaths_at(p)] > MAX_PATHS:
        push_decision(state, D_REMOVE_OWN, p, e)


@njit(cache=True)
def remove_own_live(state, cfg, p):
    return any_removable(state, cfg, p, top_arg(state, REMOVE_OWN_EDGE))


@njit(cache=True)
def remove_own_mask(state, cfg, p, mask, work):
    keep = top_arg(state, REMOVE_OWN_EDGE)
    c = 0
    for e in range(cfg[CFG_NE]):
        if e != keep and has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
            mask[remove_own_action(e)] = 1
            c += 1
    return c


@njit(cache=True)
def remove_own_step(state, cfg, p, a, work):
    pop_decision(state)
    remove_path(state, p, remove_own_args(a))


# --- Penny Bun / Inky Cap after a new Path -------------------------------------------------------


@njit(cache=True)
def path_window_live(state, cfg, p):
    """Asked while the builder's new Path is still there."""
    return has_path(state, top_arg(state, PATH_WINDOW_EDGE), top_arg(state, PATH_WINDOW_BUILDER))


@njit(cache=True)
def path_window_mask(state, cfg, p, mask, work):
    mask[A_PASS] = 1
    c = 1
    if state[hand_at(p, PENNY)] > 0:
        mask[A_PENNY] = 1
        c += 1
    if state[hand_at(p, INKY)] > 0:
        mask[A_INKY] = 1
        c += 1
    return c


@njit(cache=True)
def path_window_step(state, cfg, p, a, work):
    builder = top_arg(state, PATH_WINDOW_BUILDER)
    e = top_arg(state, PATH_WINDOW_EDGE)
    pop_decision(state)
    if a == A_PENNY:
        play_card(state, cfg, p, PENNY, AB_PENNY, builder, e, 0)
    elif a == A_INKY:
        play_card(state, cfg, p, INKY, AB_INKY, builder, e, 0)


@njit(cache=True)
def inky_give_live(state, cfg, p):
    return has_path(state, top_arg(state, INKY_GIVE_EDGE), p) and hand_size(state, p) > 0


@njit(cache=True)
def inky_give_mask(state, cfg, p, mask, work):
    """Give a card (2 in all), or refuse before the first and lose the Path."""
    c = hand_card_mask(state, p, mask)
    if top_arg(state, INKY_GIVE_GIVEN) == 0:
        mask[A_PASS] = 1
        c += 1
    return c


@njit(cache=True)
def inky_give_step(state, cfg, p, a, work):
    recv = top_arg(state, INKY_GIVE_RECEIVER)
    e = top_arg(state, INKY_GIVE_EDGE)
    given = top_arg(state, INKY_GIVE_GIVEN)
    if a == A_PASS:
        pop_decision(state)
        remove_path(state, p, e)
    else:
        t = card_args(a)
        lose_hidden(state, cfg, p, t, recv)
        state[hand_at(recv, t)] += 1
        state[known_at(p, recv, t)] += 1
        if given + 1 >= 2:
            pop_decision(state)
        else:
            set_top_arg(state, INKY_GIVE_GIVEN, given + 1)
