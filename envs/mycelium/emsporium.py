"""The Emsporium variant of Mycelium (option ``emsporium=True``): the shop, the Buy action, the items' effects.

Kernels only; the base game's modules call them from hooks marked ``# variant: emsporium``. With the
option off every owned-item count is 0, the shop is empty (-1) and none of these change
anything (each effect below adds ``count x effect``).

* Set-up: the 16 item cards (8 types x 2, ``items.toml``) shuffled into the item deck, 5 dealt
  face up into the shop (after every draw of the base game's set-up, so a seed deals the same
  mushling cards with or without the variant).
* Buy (Action Phase): the ``D_BUY`` entry (args: paid, spent). The player pays Spore Tokens
  (3 each) and cards (their spore value) with ``pay_token`` / ``pay_card`` up to 30, buys shop
  items with ``buy_item(slot)`` while the value paid and not spent covers the item's cost, and
  ends with ``pay_done``, once at least 1 item is bought (published: "Purchase 1 or more"); the value left over is
  lost (published: "not refunded for excess
  Spore Value spent, much like the Build action"). A bought slot stays empty until the end of
  the turn (published), then refills from the item deck (while it lasts).
* Effects (published: Sword, Pickaxe, Backpack, Bow; designed: Flyers, Shield, Pouch, Basket;
  every copy stacks): see :data:`.variant_data.ITEM_NAMES` and RULES.md, "Emsporium".
"""

from numba import njit

from mushgym.core import canonical_shuffle, refill_slots, shuffle_range
from mushgym.core.graph import bfs_walk

from .board import has_path
from .cards import lose_public, payment_mask, to_discard
from .layout import (
    A_PAY_CARD,
    A_PAY_DONE,
    A_PAY_TOKEN,
    BUY_PAID,
    BUY_SPENT,
    CFG_EDGE_NBR,
    CFG_EMS,
    CFG_NE,
    D_BUY,
    HAND_LIMIT,
    IDECK,
    IDECK_N,
    MAX_PAID,
    MAXP,
    NUM_ITEM_CARDS,
    NUM_ITEM_TYPES,
    NUM_MUSHLING_KINDS,
    RNG,
    SHOP,
    SHOP_SLOTS,
    V_ITEMS,  # noqa: F401  (the validate code of the item counts; validate.py names it)
    W_ALLOWED,
    W_MARKS,
    W_QUEUE,
    buy_item_action,
    buy_item_args,
    cfg_item_cost_at,
    cfg_spore_at,
    item_deck_at,
    items_at,
    mat_spores_at,
    pay_card_args,
    pop_decision,
    push_decision,
    set_top_arg,
    shop_at,
    top_arg,
)

# item types (variant_data.ITEM_NAMES order)
SWORD = 0
PICKAXE = 1
BACKPACK = 2
BOW = 3
FLYERS = 4
SHIELD = 5
POUCH = 6
BASKET = 7


@njit(cache=True)
def owned(state, p, i):
    return state[items_at(p, i)]


@njit(cache=True)
def combat_bonus(state, p, side):
    """Sword (+1 to all your cards) and, defending (side 1), Shield (+1)."""
    b = state[items_at(p, SWORD)]
    if side == 1:
        b += state[items_at(p, SHIELD)]
    return b


@njit(cache=True)
def spawn_bonus(state, p):
    """Pickaxe: +1 Spore Token per spawn."""
    return state[items_at(p, PICKAXE)]


@njit(cache=True)
def tokens_per_gatherer(state, p):
    """Backpack: each gatherer brings back 1 + backpacks tokens (the bonded Paths still cap the location)."""
    return 1 + state[items_at(p, BACKPACK)]


@njit(cache=True)
def cards_per_mush_room_gatherer(state, p):
    """Flyers (designed): +1 Mushling Card per gatherer returning from the Mush Room."""
    return 1 + state[items_at(p, FLYERS)]


@njit(cache=True)
def hand_limit(state, p):
    """Pouch (designed): +1 maximum hand size."""
    return HAND_LIMIT + state[items_at(p, POUCH)]


@njit(cache=True)
def draw_phase_cards(state, p):
    """Basket (designed): +1 card in the Draw Phase."""
    return 1 + state[items_at(p, BASKET)]


@njit(cache=True)
def bow_reach(state, cfg, p, work):
    """Bow: marks ``work[e] = 1`` for every edge within 1 + bows corner-steps of a Path of ``p``
    (the base game reaches 1 step: a Path sharing a corner). Returns the number of bows."""
    bows = state[items_at(p, BOW)]
    if bows == 0:
        return 0
    ne = cfg[CFG_NE]
    tail = 0
    for e in range(ne):
        work[W_ALLOWED + e] = 1
        work[W_MARKS + e] = -1
        if has_path(state, e, p):
            work[W_MARKS + e] = 0
            work[W_QUEUE + tail] = e
            tail += 1
    bfs_walk(cfg, CFG_EDGE_NBR, 4, work, W_ALLOWED, W_MARKS, W_QUEUE, tail, 1)  # corner-steps from a Path
    for e in range(ne):
        d = work[W_MARKS + e]
        work[W_MARKS + e] = 1 if 0 <= d <= 1 + bows else 0
    return bows


@njit(cache=True)
def cheapest_in_shop(state, cfg):
    best = -1
    for s in range(SHOP):
        i = state[shop_at(s)]
        if i >= 0:
            c = cfg[cfg_item_cost_at(i)]
            if best < 0 or c < best:
                best = c
    return best


@njit(cache=True)
def can_start_buy(state, cfg, p, capacity):
    if cfg[CFG_EMS] == 0:
        return False
    c = cheapest_in_shop(state, cfg)
    return c >= 0 and c <= capacity and c <= MAX_PAID


@njit(cache=True)
def buy_mask(state, cfg, p, mask, work):
    """The legal actions of a ``D_BUY`` entry: pay (up to 30), buy what the value left covers,
    stop once an item is bought (published: "Purchase 1 or more Emsporium Items"). The Buy is
    offered only when the player can pay the cheapest item (:func:`can_start_buy`), so until
    the first item the value paid plus what is left to pay always covers one."""
    paid = top_arg(state, BUY_PAID)
    left = paid - top_arg(state, BUY_SPENT)
    c = 0
    if top_arg(state, BUY_SPENT) > 0:
        mask[A_PAY_DONE] = 1
        c += 1
    if paid < MAX_PAID:
        c += payment_mask(state, cfg, p, mask)
    for s in range(SHOP):
        i = state[shop_at(s)]
        if i >= 0 and cfg[cfg_item_cost_at(i)] <= left:
            mask[buy_item_action(s)] = 1
            c += 1
    return c


@njit(cache=True)
def buy_step(state, cfg, p, a, work):
    """A ``D_BUY`` entry: a payment, an item bought, or the end of the Buy."""
    if a == A_PAY_DONE:
        pop_decision(state)
    elif a == A_PAY_TOKEN:
        pay_token(state, p)
    elif A_PAY_CARD <= a < A_PAY_CARD + NUM_MUSHLING_KINDS:
        pay_card(state, cfg, p, pay_card_args(a))
    else:
        buy_item(state, cfg, p, buy_item_args(a))


@njit(cache=True)
def start_buy(state, p):
    push_decision(state, D_BUY, p, 0, 0)  # paid, spent


@njit(cache=True)
def pay_token(state, p):
    state[mat_spores_at(p)] -= 1
    set_top_arg(state, BUY_PAID, top_arg(state, BUY_PAID) + 3)


@njit(cache=True)
def pay_card(state, cfg, p, t):
    lose_public(state, cfg, p, t)
    to_discard(state, t, 1)
    set_top_arg(state, BUY_PAID, top_arg(state, BUY_PAID) + cfg[cfg_spore_at(t)])


@njit(cache=True)
def buy_item(state, cfg, p, slot):
    """The item in ``slot`` goes to ``p`` (its effect applies at once: every effect reads the
    counts); the slot stays empty until the end of the turn."""
    i = state[shop_at(slot)]
    set_top_arg(state, BUY_SPENT, top_arg(state, BUY_SPENT) + cfg[cfg_item_cost_at(i)])
    state[items_at(p, i)] += 1
    state[shop_at(slot)] = -1


@njit(cache=True)
def refill_shop(state, cfg):
    """End of the turn: empty shop slots take the top cards of the item deck (while it lasts)."""
    if cfg[CFG_EMS] == 0:
        return
    refill_slots(state, SHOP_SLOTS, SHOP, IDECK, IDECK_N)


@njit(cache=True)
def init_items(state, cfg):
    """Set-up: the shop empty; with the variant, the item deck shuffled and 5 dealt face up."""
    for s in range(SHOP):
        state[shop_at(s)] = -1
    if cfg[CFG_EMS] == 0:
        return
    for i in range(NUM_ITEM_CARDS):
        state[item_deck_at(i)] = i // 2
    state[IDECK_N] = NUM_ITEM_CARDS
    shuffle_range(state, IDECK, NUM_ITEM_CARDS, RNG)
    refill_shop(state, cfg)


@njit(cache=True)
def validate_emsporium(state, cfg):
    """0, or V_ITEMS * 1000 + the item type whose 2 cards are not all accounted for (or that
    appear without the variant)."""
    for i in range(NUM_ITEM_TYPES):
        n = 0
        for p in range(MAXP):
            n += state[items_at(p, i)]
        for s in range(SHOP):
            if state[shop_at(s)] == i:
                n += 1
        for k in range(state[IDECK_N]):
            if state[item_deck_at(k)] == i:
                n += 1
        if n != (2 if cfg[CFG_EMS] else 0):
            return V_ITEMS * 1000 + i
    return 0


@njit(cache=True)
def observe_emsporium(state, cfg, me, n, out, o_items, o_shop, o_ideck, o_buy, top_is_buy):
    for q in range(n):
        o = (q - me) % n
        for i in range(NUM_ITEM_TYPES):
            out[o_items + o * NUM_ITEM_TYPES + i] = state[items_at(q, i)]
    for s in range(SHOP):
        i = state[shop_at(s)]
        if i >= 0:
            out[o_shop + i] += 1.0
    out[o_ideck] = state[IDECK_N]
    if top_is_buy:
        paid = top_arg(state, BUY_PAID)
        out[o_buy] = min(1.0, paid / MAX_PAID)
        out[o_buy + 1] = min(1.0, (paid - top_arg(state, BUY_SPENT)) / MAX_PAID)


@njit(cache=True)
def determinize_items(state, rng):
    """The item deck's order is hidden from everyone: canonical order (by type), then a
    uniform shuffle from the search's generator ``rng`` (so the result depends only on the
    information set)."""
    canonical_shuffle(state, item_deck_at(0), state[IDECK_N], rng, 0)
