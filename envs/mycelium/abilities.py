"""Mycelium's abilities in flight: a card played goes to limbo, its ability waits on the stack
(a ``D_RESOLVE`` entry) above which every other player may cancel it with a Fly Agaric, and
after it resolves (:mod:`.effects`) or is cancelled its cards leave limbo. Also the prompt to
use a revealed card's reaction (``D_USE``).

Fly Agaric's cancel, all of it (RULES.md, "Fly Agaric"): :func:`fly_agaric_window` asks the
other players in reverse turn order (a ``D_FA`` entry each, naming the level of the ability
in question), :func:`fly_agaric_live` drops a prompt once that ability is cancelled,
:func:`fly_agaric_mask` / :func:`fly_agaric_step` play the card (its own ability, in flight
with its own window: a Fly Agaric can be cancelled too), :func:`cancel_ability` is its effect
and :func:`drop_cancelled` what becomes of a cancelled ability (its cards go to the discard
pile, nothing else happens). The state check of a window is ``validate_stack.fly_agaric_fits``.
"""

from numba import njit

from .cards import lose_public, may_hold, order_player, to_discard
from .layout import (
    A_FLY,
    A_PASS,
    A_USE,
    AB_FLY,
    AB_REINF,
    ABILITY_CARD,
    CARD_PAIR,
    CFG_NP,
    D_FA,
    D_RESOLVE,
    FLY,
    FLY_AGARIC_LEVEL,
    NO_CARD,
    RESOLVE_CANCELLED,
    USE_ABILITY,
    USE_SIDE,
    carea_at,
    decision_arg,
    decision_depth,
    hand_at,
    limbo_at,
    pop_decision,
    push_decision,
    set_decision_arg,
    top_arg,
)

# --- playing a card for its ability ---------------------------------------------------------


@njit(cache=True)
def to_limbo(state, cfg, p, t):
    lose_public(state, cfg, p, t)
    state[limbo_at(t)] += 1


@njit(cache=True)
def use_ability(state, cfg, user, ab, x1, x2, x3):
    """The ability's entry on the stack (not cancelled), then its Fly Agaric window."""
    push_decision(state, D_RESOLVE, user, ab, x1, x2, x3, 0)
    fly_agaric_window(state, cfg, user)


@njit(cache=True)
def play_card(state, cfg, p, t, ab, x1, x2, x3):
    """``p`` plays a card of type ``t`` for ability ``ab``: out of the hand in view of all,
    then the ability's Fly Agaric window."""
    to_limbo(state, cfg, p, t)
    use_ability(state, cfg, p, ab, x1, x2, x3)


@njit(cache=True)
def play_pair(state, cfg, p, t1, t2, ab, x3):
    """``p`` plays two cards as a pair (Builders, Thieves) for ability ``ab``."""
    to_limbo(state, cfg, p, t1)
    play_card(state, cfg, p, t2, ab, t1, t2, x3)


@njit(cache=True)
def release_card(state, ab, t, cancelled):
    """A card leaves limbo: to the discard pile (a reinforcement that resolved stays in the
    combat until its end)."""
    state[limbo_at(t)] -= 1
    if ab == AB_REINF and not cancelled:
        state[carea_at(t)] += 1
    else:
        to_discard(state, t, 1)


@njit(cache=True)
def release_cards(state, ab, x1, x2, cancelled):
    """The ability's cards leave limbo (after its effect, or cancelled)."""
    c = ABILITY_CARD[ab]
    if c == NO_CARD:
        return
    release_card(state, ab, c if c >= 0 else x1, cancelled)
    if c == CARD_PAIR:
        release_card(state, ab, x2, cancelled)


# --- Fly Agaric: cancel the ability in question -----------------------------------------------


@njit(cache=True)
def fly_agaric_window(state, cfg, user):
    """Fly Agaric prompts for the ability entry on top of the stack (reverse turn order: the
    next player after the user is asked first), to every other player who may hold one."""
    level = decision_depth(state) - 1
    n = cfg[CFG_NP]
    for i in range(n - 1, -1, -1):
        q = order_player(state, cfg, i)
        if q != user and may_hold(state, cfg, q, FLY, -1):
            push_decision(state, D_FA, q, level)


@njit(cache=True)
def is_cancelled(state, level):
    return decision_arg(state, level, RESOLVE_CANCELLED) != 0


@njit(cache=True)
def cancel_ability(state, level):
    """A Fly Agaric's effect: the ability at ``level`` (below it on the stack) is cancelled."""
    set_decision_arg(state, level, RESOLVE_CANCELLED, 1)


@njit(cache=True)
def drop_cancelled(state, ab, x1, x2):
    """A cancelled ability reaches the top: nothing happens, its cards go to the discard pile."""
    release_cards(state, ab, x1, x2, True)


@njit(cache=True)
def fly_agaric_live(state, cfg, p):
    """The window closes once its ability is cancelled (by an earlier Fly Agaric)."""
    return not is_cancelled(state, top_arg(state, FLY_AGARIC_LEVEL))


@njit(cache=True)
def fly_agaric_mask(state, cfg, p, mask, work):
    mask[A_PASS] = 1
    if state[hand_at(p, FLY)] > 0:
        mask[A_FLY] = 1
        return 2
    return 1


@njit(cache=True)
def fly_agaric_step(state, cfg, p, a, work):
    """Pass, or play a Fly Agaric against the ability at the window's level (its own entry
    and window go on top: the cancel resolves first, unless it is cancelled in turn)."""
    target = top_arg(state, FLY_AGARIC_LEVEL)
    pop_decision(state)
    if a == A_FLY:
        play_card(state, cfg, p, FLY, AB_FLY, target, 0, 0)


# --- the prompt to use a revealed card's reaction ---------------------------------------------


@njit(cache=True)
def use_mask(state, cfg, p, mask, work):
    mask[A_PASS] = 1
    mask[A_USE] = 1
    return 2


@njit(cache=True)
def use_step(state, cfg, p, a, work):
    ab = top_arg(state, USE_ABILITY)
    side = top_arg(state, USE_SIDE)
    pop_decision(state)
    if a == A_USE:
        use_ability(state, cfg, p, ab, side, 0, 0)
