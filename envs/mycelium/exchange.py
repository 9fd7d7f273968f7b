"""The Exchange by Mushling Card Type: kernels.

Rulebook (Action Phase, "Exchange Mushling Cards"): "Discard 2 Mushling Cards of the same
type to perform one of the following actions: Spawn 1 Spore Token in any Spore Cave (add
from the supply); Draw 1 new Mushling Card", and right under it "Mushling Card Types:
Builder, Thief, Enforcer, Warrior, Reinforcement, Wizard, Scout, Worker". A card's type is
its ``type`` field in ``cards.toml`` (config ``card_type``). The choice of the cards is the
decision kind ``D_EXCHANGE`` (``exchange_choice``).

Encoding (RULES.md, "The Exchange by Mushling Card Type"):

* the menu action ``exchange(type, option)`` (type 0..7 in ``data.MUSHLING_TYPES`` order),
  legal when the hand holds 2 cards or more of that type; option 0 draws a card, 1 + c
  spawns a spore in seat c's Spore Cave (only while the supply has a spore);
* the two cards are named one at a time, the lower kind first (each pair is named one way
  only); a card named is discarded at once (in view of all). A pick with one legal answer
  is made without asking (:func:`forced_picks`): a hand with exactly 2 cards of the type, or
  only copies of one card of it, is never asked; a pick with a choice is the decision
  ``D_EXCHANGE`` (args: type, option, first card + 1 or 0) on top of the stack, answered
  with ``card(kind)``. After the second card, the option's effect (:func:`exchange_effect`).
* while the choice is pending, what the player discards next is among its cards of that
  type: the determinizer and ``perturb_hidden`` keep them in its hand (:func:`kept_type`).

No Fly Agaric window: an Exchange is no card ability.
"""

from numba import njit

from .cards import draw_cards, lose_public, spore_supply, to_discard
from .emsporium import spawn_bonus
from .layout import (
    CFG_NP,
    D_EXCHANGE,
    DONE,
    EXCHANGE_CHOICE_FIRST,
    EXCHANGE_CHOICE_OPTION,
    EXCHANGE_CHOICE_TYPE,
    NUM_CARD_TYPES,
    NUM_MUSHLING_KINDS,
    card_action,
    card_args,
    cfg_card_type_at,
    cfg_cave_at,
    decision_depth,
    exchange_action,
    hand_at,
    loc_spores_at,
    pop_decision,
    push_decision,
    set_top_arg,
    top_arg,
    top_kind,
    top_player,
)
from .observation_layout import O_X_DECISION, O_X_FIRST, O_X_OPTION, O_X_TYPE


@njit(cache=True)
def type_count(state, cfg, p, c):
    """Cards of Mushling Card Type ``c`` in ``p``'s hand."""
    s = 0
    for t in range(NUM_MUSHLING_KINDS):
        if cfg[cfg_card_type_at(t)] == c:
            s += state[hand_at(p, t)]
    return s


@njit(cache=True)
def exchange_menu(state, cfg, p, mask, spawn_ok):
    """The menu's ``exchange(type, option)`` actions; returns how many are legal."""
    n = cfg[CFG_NP]
    c = 0
    for ct in range(NUM_CARD_TYPES):
        if type_count(state, cfg, p, ct) >= 2:
            mask[exchange_action(ct, 0)] = 1
            c += 1
            if spawn_ok:
                for q in range(n):
                    mask[exchange_action(ct, 1 + q)] = 1
                    c += 1
    return c


@njit(cache=True)
def pick_ok(state, cfg, p, ct, first, t):
    """Card ``t`` may be named now: the first card (``first`` < 0) when a card of type ``ct``
    of the same or a higher kind remains to pair it with, the second when it is of type ``ct``
    and not of a lower kind than the first (already discarded)."""
    if cfg[cfg_card_type_at(t)] != ct or state[hand_at(p, t)] == 0:
        return False
    if first >= 0:
        return t >= first
    if state[hand_at(p, t)] >= 2:
        return True
    for u in range(t + 1, NUM_MUSHLING_KINDS):
        if cfg[cfg_card_type_at(u)] == ct and state[hand_at(p, u)] > 0:
            return True
    return False


@njit(cache=True)
def picks(state, cfg, p, ct, first):
    """(how many cards may be named now, the last of them)."""
    c = 0
    last = -1
    for t in range(NUM_MUSHLING_KINDS):
        if pick_ok(state, cfg, p, ct, first, t):
            c += 1
            last = t
    return c, last


@njit(cache=True)
def exchange_discard(state, cfg, p, t):
    """An Exchange discards a card of kind ``t`` from ``p``'s hand, in view of all."""
    lose_public(state, cfg, p, t)
    to_discard(state, t, 1)


@njit(cache=True)
def exchange_effect(state, cfg, p, o):
    """The Exchange's action once its 2 cards are discarded: option 0 draws a card, 1 + c
    spawns a spore in seat c's Spore Cave."""
    if o == 0:
        draw_cards(state, p, 1)
    else:
        amount = 1 + spawn_bonus(state, p)  # variant: emsporium (Pickaxe)
        s = spore_supply(state, cfg)
        state[loc_spores_at(cfg[cfg_cave_at(o - 1)])] += amount if amount < s else s


@njit(cache=True)
def apply_pick(state, cfg, p, t):
    """The Exchange on top names card ``t``: discarded; after the second, the effect."""
    first = top_arg(state, EXCHANGE_CHOICE_FIRST) - 1
    o = top_arg(state, EXCHANGE_CHOICE_OPTION)
    exchange_discard(state, cfg, p, t)
    if first < 0:
        set_top_arg(state, EXCHANGE_CHOICE_FIRST, t + 1)
    else:
        pop_decision(state)
        exchange_effect(state, cfg, p, o)


@njit(cache=True)
def forced_picks(state, cfg, p):
    """Name the pending Exchange's cards while a pick has one legal answer (a choice the rules
    force is not asked): the hand holds exactly 2 cards of the type, or copies of one card
    only, or the first card leaves one partner."""
    while decision_depth(state) > 0 and top_kind(state) == D_EXCHANGE:
        ct = top_arg(state, EXCHANGE_CHOICE_TYPE)
        answers, last = picks(state, cfg, p, ct, top_arg(state, EXCHANGE_CHOICE_FIRST) - 1)
        if answers != 1:
            return
        apply_pick(state, cfg, p, last)


@njit(cache=True)
def start_exchange(state, cfg, p, ct, o):
    """``exchange(ct, o)`` from the menu: the choice of the 2 cards (asked only when there is
    one), then the effect."""
    push_decision(state, D_EXCHANGE, p, ct, o, 0)  # type, option, no card named yet
    forced_picks(state, cfg, p)


@njit(cache=True)
def exchange_choice_step(state, cfg, p, a, work):
    """``card(t)`` answering the Exchange's choice."""
    apply_pick(state, cfg, p, card_args(a))
    forced_picks(state, cfg, p)


@njit(cache=True)
def kept_type(state, q):
    """The Mushling Card Type of ``q``'s pending Exchange choice (-1 none): a redraw of what
    others cannot see keeps ``q``'s cards of that type in its hand."""
    if decision_depth(state) > 0 and top_kind(state) == D_EXCHANGE and top_player(state) == q:
        return top_arg(state, EXCHANGE_CHOICE_TYPE)
    return -1


@njit(cache=True)
def exchange_choice_mask(state, cfg, p, mask, work):
    ct = top_arg(state, EXCHANGE_CHOICE_TYPE)
    first = top_arg(state, EXCHANGE_CHOICE_FIRST) - 1
    c = 0
    for t in range(NUM_MUSHLING_KINDS):
        if pick_ok(state, cfg, p, ct, first, t):
            mask[card_action(t)] = 1
            c += 1
    return c


@njit(cache=True)
def observe_exchange(state, cfg, me, n, out):
    """The Exchange block (public: everyone sees the Exchange and the cards discarded)."""
    if state[DONE] != 0 or decision_depth(state) == 0 or top_kind(state) != D_EXCHANGE:
        return
    out[O_X_DECISION] = 1.0
    out[O_X_TYPE + top_arg(state, EXCHANGE_CHOICE_TYPE)] = 1.0
    opt = top_arg(state, EXCHANGE_CHOICE_OPTION)
    out[O_X_OPTION + (0 if opt == 0 else 1 + (opt - 1 - me) % n)] = 1.0
    f = top_arg(state, EXCHANGE_CHOICE_FIRST)
    if f > 0:
        out[O_X_FIRST + f - 1] = 1.0
