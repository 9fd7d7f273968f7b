"""The greedy baseline of Mycelium (``mycelium_v2``): grow toward the Nutrient Trees, gather what is there.

One compiled scoring serves both greedy players: :func:`greedy_scores` (``greedy_scores(state,
cfg, mask, work, out)``) writes every legal action's score; :func:`heuristic` wraps it for
``GreedyAgent`` (which plays the best, ties broken by its own seeded generator), and the rollout
policy's ``greedy_move`` (search.py) plays the best of the same scores, ties uniformly at random.
The board valuations the scores read (per-location tables, the edge values toward the Nutrient
Trees, gathering, the variants' shop and hero values) and the value tables (``KEEP``,
``ITEM_VALUE``, ``HERO_VALUE``, ``SPORE_KEEP``) are in ``greedy_board.py``. Everything is
allocation-free.

Scores use only what the seat to act may see: its own hand, the public table (Paths, tokens,
gatherers, discard pile, revealed combat cards) and the static board (in the 2-player game both
hands of the agent). No step is looked ahead (a step may draw a hidden card). What it does:

* Paths: an edge is worth the best tree (or Willow) value discounted by 0.8 per edge still
  between it and that location (static edge distances), more for a tree with Nutrients on it;
  a Build is taken while it can pay and a useful edge exists; tokens are paid before cards,
  cards of the highest spore value first; payment stops at a multiple of 3.
* Gatherers: on the bonded location with the most tokens (Nutrients worth 1, spores 0.3, the
  Mush Room 0.25), at most as many as bonded Paths there; unbonded trees count a little when
  the network is close (the next turn may bond them).
* Abilities: Builder pairs (2 free Paths), Workers and Thief pairs into the player's own reach,
  Bird's Nest whenever possible; every revealed reaction is used; Fly Agaric cancels an
  opponent's Penny Bun, Inky Cap or Bird's Nest and a Thief aimed at the player; Penny Bun
  against any opponent's Path; reinforcements and combat tokens only for the player's own
  side when they change the result; attacks only with a card that wins on face value
  against a Path on a tree.
* Every other type has a use when it pays: Amethyst Deceiver takes a card from the discard
  pile worth more than itself (most of all one completing a Builder or Thief pair); Parrot
  Toadstool attacks remotely a Path next to a tree with a winning card, or else views the
  hand of the leader when the hand is full anyway; Russula moves the gatherers before the
  Gather Phase when that gathers more; Veiled Lady and Magic Mushling show the nutrient cards
  drawn before the player's next Gather Phase, which the gatherer placement counts (Magic
  Mushling puts the cards feeding the player's bonded trees first); Truffle shuffles the
  nutrient deck when the cards known on top feed none of the player's trees, and the
  mushling discard pile back in when it is rich; Witch's Hat puts a rich discard pile (keep
  value, or nutrient cards for the player's bonded trees) on top of its deck; a single
  Builder removes a Path near the 20-Path limit; Exchange spawns a spore in the player's own
  cave (bonded) or draws, with two cards of little keep value (the two cards of a Mushling
  Card Type with the least keep value together, never Builders or Thieves, whose pairs have
  their own abilities; the Exchange's choice, when asked, names that pair).
* Discards: the cards with the least keep value (spore value, combat value, reactions).
* Variant (Emsporium): a Buy when the shop has an item it values (ITEM_VALUE: Backpack and
  Sword first) that its tokens and cards can pay with a Path's worth (3) to spare, or when
  no Path is worth building; it pays tokens first, then the cards of least keep value, buys
  the most valued affordable item, and stops when nothing more of value is affordable.
* Variants (Hero Tavern, Legends): one gatherer to the Tavern when it has a Combat Token per
  gatherer already there and a hero is left; the recruit, the Legends keep and the use
  follow HERO_VALUE per effect: an action ability is used at once when it pays (free Paths
  when a Path is worth building, a gathering when its gatherers stand on tokens, the others
  always); a combat reaction in its owner's battle when it is losing.
* Team variant and 2-player game (``trade_offer_score``, ``trade_answer_score``,
  ``gather_take_score``): the player acts for the seat to move; a
  teammate is a friend (no Penny Bun, Inky Cap or Fly Agaric against it, reinforcements and
  combat tokens for its side too); Trade: with a hand the Draw Phase would cut the card of
  least keep value is offered (in the 2-player game also a single Builder or Thief that
  completes its other hand's pair), and the teammate accepts by giving back its least valuable card (or a Spore
  Token) when the offer is worth more to it (a card completing a pair counts double) or when
  its own hand is full; gathering takes everything except Nutrients beyond the Colony's 10,
  which are left for the teammate; gatherers go to trees only while the Colony is under 10.
"""

import numpy as np
from numba import njit

from .cards import hand_size, pay_capacity
from .emsporium import SHIELD, SWORD, hand_limit
from .greedy_board import (
    ITEM_VALUE,
    KEEP,
    NONE,
    SPORE_KEEP,
    best_places_value,
    bonded_counts,
    edge_value,
    edge_values,
    feeds_my_trees,
    gather_now,
    gather_value,
    gatherer_score,
    hero_use_score,
    hero_worth,
    is_friend,
    is_target,
    keep_value,
    nibble,
    on_tree,
    seat_to_act,
    shop_target,
    upcoming_counts,
)
from .rules import (
    A_ARRANGE,
    A_ATTACK,
    A_BIRDS,
    A_BPAIR,
    A_BREMOVE,
    A_BUILD,
    A_BUY,
    A_BUY_ITEM,
    A_CARD,
    A_DECEIVE,
    A_END,
    A_FLY,
    A_GATHER_TAKE,
    A_GATHERER,
    A_HERO,
    A_HERO_PICK,
    A_INKY,
    A_LEGEND,
    A_MAGIC,
    A_NO_DEFENSE,
    A_PASS,
    A_PATTACK,
    A_PAY_CARD,
    A_PAY_DONE,
    A_PAY_TOKEN,
    A_PENNY,
    A_PLACE_PATH,
    A_PLACE_TAVERN,
    A_PVIEW,
    A_REMOVE_OWN,
    A_RUSSULA,
    A_TRADE,
    A_TRUFFLE,
    A_USE,
    A_VEILED,
    A_WITCH,
    AB_BIRDS,
    AB_FLY,
    AB_INKY,
    AB_PARROT_VIEW,
    AB_PENNY,
    AB_THIEF_STEAL,
    ACTION_SPACE,
    BLEWIT,
    C_ATT,
    C_DEF,
    CFG_AGENTS,
    CFG_NE,
    CFG_NG,
    CFG_NP,
    CFG_TAVERN,
    CFG_TEAM,
    CHANT,
    D_ARRANGE,
    D_ATT_CARD,
    D_BN,
    D_BUY,
    D_DEFEND,
    D_EXCHANGE,
    D_FA,
    D_GATHER,
    D_HERO_PICK,
    D_INKY_GIVE,
    D_LEGEND,
    D_PATHWIN,
    D_PAY,
    D_PLACE_PATH,
    D_REINF,
    D_REMOVE_OWN,
    D_RUSSULA_PICK,
    D_TRADE,
    D_USE,
    DECEIVER,
    HAND_LIMIT,
    HDECK_N,
    HERO_UP,
    MAX_EDGES,
    MAX_GATHER_TAKE,
    MAX_NUTRIENT_KINDS,
    MAX_PATHS,
    MAXP,
    NDECK_N,
    NUM_HEROES,
    NUM_MUSHLING_KINDS,
    PARASOL,
    PARROT,
    PH_ACTION,
    PH_DISCARD,
    PH_EXPLORE,
    PH_PLACE,
    PHASE,
    SHIITAKE,
    SHOP,
    TAVERN,
    WIN_NUTRIENTS,
    c_bonus_at,
    can_build_at,
    cfg_card_type_at,
    cfg_cave_at,
    cfg_combat_at,
    cfg_hero_effect_at,
    cfg_spore_at,
    combat_token_action,
    ctok_at,
    decision_at,
    decision_depth,
    discard_at,
    gatherer_at,
    hand_at,
    hero_up_at,
    items_at,
    legend_deal_at,
    mat_nut_at,
    mat_spores_at,
    ndeck_at,
    ndiscard_at,
    npaths_at,
    nseen_at,
    reinforce_action,
    rep_card,
    shop_at,
    spawn_action,
    thief_pair_action,
)

EXCHANGE_FIRST = ACTION_SPACE.groups["exchange"].offset  # the Exchange actions: Mushling Card Type x option
EXCHANGE_OPTIONS = ACTION_SPACE.groups["exchange"].shape[1]  # option 0 draw, 1 + c a spore into seat c's cave
EXCHANGE_LAST = EXCHANGE_FIRST + ACTION_SPACE.groups["exchange"].size


# --- the Action Phase --------------------------------------------------------------------------
@njit(cache=True)
def pair_completed(state, p, t):
    """Card type ``t`` completes p's Builder or Thief pair (it holds one of the pair)."""
    if t == CHANT or t == BLEWIT:
        return state[hand_at(p, CHANT)] + state[hand_at(p, BLEWIT)] == 1
    if t == PARASOL or t == SHIITAKE:
        return state[hand_at(p, PARASOL)] + state[hand_at(p, SHIITAKE)] == 1
    return False


@njit(cache=True)
def cheapest_pair_top(state, cfg, p, ct):
    """Of the two cards of Mushling Card Type ``ct`` in p's hand whose keep values add up least,
    the more valuable one (the lower card id on equal values)."""
    u1 = -1
    for u in range(NUM_MUSHLING_KINDS):
        if (
            cfg[cfg_card_type_at(u)] == ct
            and state[hand_at(p, u)] > 0
            and (u1 < 0 or keep_value(cfg, u) < keep_value(cfg, u1))
        ):
            u1 = u
    if u1 < 0 or state[hand_at(p, u1)] >= 2:
        return u1
    u2 = -1
    for u in range(NUM_MUSHLING_KINDS):
        if (
            u != u1
            and cfg[cfg_card_type_at(u)] == ct
            and state[hand_at(p, u)] > 0
            and (u2 < 0 or keep_value(cfg, u) < keep_value(cfg, u2))
        ):
            u2 = u
    if u2 < 0:
        return u1
    lo, hi = (u1, u2) if u1 < u2 else (u2, u1)
    return hi if keep_value(cfg, hi) > keep_value(cfg, lo) else lo


@njit(cache=True)
def exchange_card_score(state, cfg, p, a, ct, first):
    """The Exchange's choice of a card (the lower card id first): the pair of least keep value."""
    if not (A_CARD <= a < A_CARD + NUM_MUSHLING_KINDS):
        return 0.0
    t = a - A_CARD
    partner = keep_value(cfg, t)
    if first < 0:
        partner = 1e9
        for u in range(t, NUM_MUSHLING_KINDS):
            if cfg[cfg_card_type_at(u)] == ct and state[hand_at(p, u)] - (1 if u == t else 0) > 0:
                partner = min(partner, keep_value(cfg, u))
    return -(keep_value(cfg, t) + partner)


@njit(cache=True)
def exchange_score(state, cfg, p, a, bonded):
    """An Exchange action (discard 2 cards of a Mushling Card Type; option 0 draw, 1 + c a spore
    into seat c's cave): only with cards of little keep value (the type's cheapest pair), for a
    spore in p's own bonded cave, else a draw."""
    t = cheapest_pair_top(state, cfg, p, (a - EXCHANGE_FIRST) // EXCHANGE_OPTIONS)
    o = (a - EXCHANGE_FIRST) % EXCHANGE_OPTIONS
    if keep_value(cfg, t) > 1.2 or t == CHANT or t == BLEWIT or t == PARASOL or t == SHIITAKE:
        return -1.0
    if o == 1 + p and nibble(bonded, cfg[cfg_cave_at(p)]) > 0:
        return 0.3
    if o == 0:
        return 0.1
    return -1.0


@njit(cache=True)
def discard_rich(state, cfg, least):
    """At least ``least`` cards in the mushling discard pile, of average keep value >= 2."""
    n = 0
    total = 0.0
    for t in range(NUM_MUSHLING_KINDS):
        n += state[discard_at(t)]
        total += state[discard_at(t)] * keep_value(cfg, t)
    return n >= least and total / max(n, 1) >= 2.0


@njit(cache=True)
def action_phase_score(state, cfg, p, a, bonded, upcoming, full, best_edge, work):
    """The score of an Action Phase action other than the Builds, the pairs and the spawns."""
    n = cfg[CFG_NP]
    if A_DECEIVE <= a < A_DECEIVE + NUM_MUSHLING_KINDS:
        t = a - A_DECEIVE
        gain = keep_value(cfg, t) - keep_value(cfg, DECEIVER)
        if pair_completed(state, p, t):
            gain += 2.0
        return 0.5 + 0.3 * gain if gain > 0.5 else -1.0
    if A_PATTACK <= a < A_PATTACK + 2 * MAX_EDGES:
        other = 0
        for t in range(NUM_MUSHLING_KINDS):
            if state[hand_at(p, t)] - (1 if t == PARROT else 0) > 0:
                other = max(other, cfg[cfg_combat_at(t)])
        return 0.35 if other >= 7 and on_tree(cfg, (a - A_PATTACK) // 2) else -1.0
    if A_PVIEW <= a < A_PVIEW + MAXP - 1:
        q = (p + 1 + a - A_PVIEW) % n
        leader, most = -1, -1
        for r in range(n):
            if r != p and state[mat_nut_at(r)] > most:
                leader, most = r, state[mat_nut_at(r)]
        hs = 0
        for t in range(NUM_MUSHLING_KINDS):
            hs += state[hand_at(p, t)]
        return 0.02 if q == leader and hs >= HAND_LIMIT else -1.0
    if a == A_RUSSULA:
        return 0.7 if best_places_value(state, cfg, bonded) - gather_now(state, cfg, p, bonded) >= 0.9 else -1.0
    my_trees = False
    fed = False
    for g in range(cfg[CFG_NG]):
        if nibble(bonded, g) > 0 and is_target(cfg, g):
            my_trees = True
            if nibble(upcoming, g) > 0:
                fed = True
    known_next = 0
    top = state[NDECK_N]
    for i in range(min(n, top)):
        known_next += state[nseen_at(p, top - 1 - i)]
    if a == A_VEILED or a == A_MAGIC:
        return 0.15 if known_next < min(n, top) and my_trees else -1.0
    if A_TRUFFLE <= a < A_TRUFFLE + 2:
        if a - A_TRUFFLE == 1:
            return 0.1 if known_next >= 2 and not fed and my_trees else -1.0
        return 0.1 if discard_rich(state, cfg, 6) else -1.0
    if A_WITCH <= a < A_WITCH + 2:
        if a - A_WITCH == 0:
            return 0.2 if discard_rich(state, cfg, 2) else -1.0
        nd = 0
        feed = 0
        for k in range(MAX_NUTRIENT_KINDS):
            nd += state[ndiscard_at(k)]
            feed += state[ndiscard_at(k)] * feeds_my_trees(cfg, k, bonded)
        return 0.2 if nd >= 2 and feed / max(nd, 1) >= 0.5 else -1.0
    if A_BREMOVE <= a < A_BREMOVE + 2 * MAX_EDGES:
        near_limit = state[npaths_at(p)] >= MAX_PATHS - 1
        alone = state[hand_at(p, CHANT)] + state[hand_at(p, BLEWIT)] == 1
        return 0.1 - edge_value(work, (a - A_BREMOVE) % MAX_EDGES) if near_limit and alone else -1.0
    if EXCHANGE_FIRST <= a < EXCHANGE_LAST:
        return exchange_score(state, cfg, p, a, bonded)
    if A_ATTACK <= a < A_ATTACK + 2 * MAX_EDGES:
        strongest = 0
        for t in range(NUM_MUSHLING_KINDS):
            if state[hand_at(p, t)] > 0:
                strongest = max(strongest, cfg[cfg_combat_at(t)])
        return 0.3 if strongest >= 8 and on_tree(cfg, (a - A_ATTACK) // 2) else -1.0
    return 0.0


@njit(cache=True)
def menu_score(state, cfg, p, a, bonded, upcoming, full, cap, best_edge, work):
    """The score of an Action Phase menu action (depth 0, PH_ACTION)."""
    if a == A_END:
        return 0.0
    if a == A_BUILD:
        return 1.0 + best_edge if cap >= 3 and best_edge > 0.25 else 0.0
    if a == A_BUY:  # variant: emsporium
        slot = shop_target(state, cfg, cap - 3 if best_edge > 0.25 else cap)
        return 1.5 + ITEM_VALUE[state[shop_at(slot)]] if slot >= 0 else 0.0
    if A_HERO <= a < A_HERO + 2 * NUM_HEROES:  # variant: hero_tavern
        return hero_use_score(cfg, a, best_edge, gather_now(state, cfg, p, bonded))
    if A_BPAIR <= a < A_BPAIR + 3:
        return 2.0 + best_edge
    for w in range(2):
        if a == spawn_action(w, p):
            return 0.6
    for pair in range(3):
        for q in range(cfg[CFG_NP]):
            if a == thief_pair_action(pair, q):
                return 0.4
    if A_TRADE <= a < A_TRADE + NUM_MUSHLING_KINDS + 1:  # variant: team
        return trade_offer_score(state, cfg, p, a)
    return action_phase_score(state, cfg, p, a, bonded, upcoming, full, best_edge, work)


# --- variant: team ------------------------------------------------------------------------------
@njit(cache=True)
def keep_or_spore(state, cfg, t):
    """A card type's keep value; t = T: a Spore Token's (SPORE_KEEP)."""
    return SPORE_KEEP if t == NUM_MUSHLING_KINDS else keep_value(cfg, t)


@njit(cache=True)
def trade_offer_score(state, cfg, p, a):
    """The turn player's Trade offer (the Action Phase): the card of
    least keep value when the Draw Phase would cut the hand anyway, 0.05; in the 2-player game a
    single Builder or Thief completing the other hand's pair, 0.5; every other offer -1."""
    t = a - A_TRADE
    if t >= NUM_MUSHLING_KINDS:
        return -1.0
    if cfg[CFG_AGENTS] == 2:
        mate = (p + 2) % MAXP
        for pair in range(2):
            x = CHANT if pair == 0 else PARASOL
            y = BLEWIT if pair == 0 else SHIITAKE
            mine = state[hand_at(p, x)] + state[hand_at(p, y)]
            theirs = state[hand_at(mate, x)] + state[hand_at(mate, y)]
            single = x if state[hand_at(p, x)] != 0 else y
            if mine == 1 and theirs == 1 and t == single:
                return 0.5
    return -1.0


@njit(cache=True)
def least_kept_offer(state, cfg, p, mask):
    """The card type of least keep value p may offer in a Trade (-1 none): the 0.05 offer
    when the Draw Phase would cut the hand anyway."""
    if hand_size(state, p) < hand_limit(state, p) - 1:
        return -1
    best, best_k = -1, NONE
    for t in range(NUM_MUSHLING_KINDS):
        if A_TRADE + t < mask.shape[0] and mask[A_TRADE + t] != 0:
            k = keep_value(cfg, t)
            if best < 0 or k < best_k:
                best, best_k = t, k
    return best


@njit(cache=True)
def trade_answer_score(state, cfg, p, a0, a, mask):
    """The teammate's answer to a Trade offer of type ``a0``."""
    if a == A_PASS:
        return 0.0
    gain = keep_or_spore(state, cfg, a0)
    if a0 < NUM_MUSHLING_KINDS and pair_completed(state, p, a0):
        gain += keep_value(cfg, a0)
    give, give_k = -1, NONE
    for k in range(NUM_MUSHLING_KINDS + 1):
        held = state[mat_spores_at(p)] if k == NUM_MUSHLING_KINDS else state[hand_at(p, k)]
        if held > 0 and mask[A_TRADE + k] != 0:
            v = keep_or_spore(state, cfg, k)
            if give < 0 or v < give_k:
                give, give_k = k, v
    if a != A_TRADE + give:
        return 0.0
    full = hand_size(state, p) >= hand_limit(state, p)
    return 1.0 if gain > give_k or (full and give < NUM_MUSHLING_KINDS) else -1.0


@njit(cache=True)
def gather_take_score(state, cfg, p, a1, a, mask):
    """How many tokens to take (Team rules): all, but Nutrients beyond the Colony's 10."""
    limit = 0
    for k in range(MAX_GATHER_TAKE + 1):
        if mask[A_GATHER_TAKE + k] != 0:
            limit = k
    want = limit
    if is_target(cfg, a1):
        want = min(limit, WIN_NUTRIENTS - state[mat_nut_at(p)])
    if A_GATHER_TAKE <= a <= A_GATHER_TAKE + MAX_GATHER_TAKE:
        return -float(abs(a - A_GATHER_TAKE - want))
    return 0.0


# --- the stack's decisions -----------------------------------------------------------------------
@njit(cache=True)
def fly_agaric_score(state, cfg, p, lvl, a):
    """Cancel an opponent's ability aimed at p's side (Bird's Nest, Parrot's view, Penny Bun or Inky
    Cap on a friend's Path, a Thief's steal, a Fly Agaric on a friend's ability)."""
    if a != A_FLY:
        return 0.0
    ab = decision_at(state, lvl, 2)
    user = decision_at(state, lvl, 1)
    x1 = decision_at(state, lvl, 3)
    foe = not is_friend(cfg, p, user)
    harmful = foe and (
        ab == AB_BIRDS
        or ab == AB_PARROT_VIEW
        or ((ab == AB_PENNY or ab == AB_INKY) and is_friend(cfg, p, x1))
        or ab == AB_THIEF_STEAL
        or ab == AB_FLY
    )
    if ab == AB_FLY:
        harmful = foe and is_friend(cfg, p, decision_at(state, x1, 1))
    return 1.0 if harmful else -1.0


@njit(cache=True)
def pay_score(state, cfg, paid, a):
    """Paying for a Build: tokens first, then cards of high spore value and low keep value; stop at
    a multiple of 3."""
    if a == A_PAY_DONE:
        if paid >= 3:
            return 2.0 if paid % 3 == 0 else 0.5
        return -5.0
    if a == A_PAY_TOKEN:
        return 1.0
    if A_PAY_CARD <= a < A_PAY_CARD + NUM_MUSHLING_KINDS:
        t = a - A_PAY_CARD
        s = 0.5 + 0.1 * cfg[cfg_spore_at(t)] - 0.2 * keep_value(cfg, t)
        if paid % 3 + cfg[cfg_spore_at(t)] > 3 and paid >= 3:
            s -= 1.0
        return s
    return 0.0


@njit(cache=True)
def buy_score(state, cfg, p, paid, spent, a, mask):
    """Variant: emsporium, the D_BUY decision: buy the most valued items, pay while one is in reach."""
    any_buy = False
    for s in range(SHOP):
        if mask[A_BUY_ITEM + s] != 0:
            any_buy = True
    if any_buy:
        if A_BUY_ITEM <= a < A_BUY_ITEM + SHOP:
            return 3.0 + ITEM_VALUE[state[shop_at(a - A_BUY_ITEM)]]
        return 0.0
    target = shop_target(state, cfg, paid - spent + pay_capacity(state, cfg, p))
    if a == A_PAY_DONE:
        return 2.0 if target < 0 else -5.0
    if target >= 0:
        if a == A_PAY_TOKEN:
            return 1.0
        if A_PAY_CARD <= a < A_PAY_CARD + NUM_MUSHLING_KINDS:
            t = a - A_PAY_CARD
            return 0.5 + 0.1 * cfg[cfg_spore_at(t)] - 0.2 * keep_value(cfg, t)
    return 0.0


@njit(cache=True)
def card_score(state, cfg, p, kind, a):
    """Face-down combat cards, defence, cards given to an Inky Cap."""
    if A_CARD <= a < A_CARD + NUM_MUSHLING_KINDS:
        t = a - A_CARD
        if kind == D_INKY_GIVE:
            return -keep_value(cfg, t)
        return cfg[cfg_combat_at(t)] - 0.5 * KEEP[t]
    if kind == D_DEFEND and a == A_NO_DEFENSE:
        best = 0.0
        seen = False
        for t in range(NUM_MUSHLING_KINDS):
            if state[hand_at(p, t)] > 0:
                v = cfg[cfg_combat_at(t)] - 0.5 * KEEP[t]
                if not seen or v > best:
                    best, seen = v, True
        return 3.0 if best < 3.5 else -1.0
    if kind == D_INKY_GIVE and a == A_PASS:
        return -3.0 if hand_size(state, p) >= 4 else 0.0
    return 0.0


@njit(cache=True)
def side_value(state, cfg, side):
    """A combat side's total: its card, reinforcements and tokens, Sword (and the defender's Shield)."""
    pl = state[C_ATT] if side == 0 else state[C_DEF]
    c = rep_card(state, side)
    v = (cfg[cfg_combat_at(c)] if c >= 0 else 0) + state[c_bonus_at(side)]
    if pl < 0:
        return v
    v += state[items_at(pl, SWORD)]
    if side == 1:
        v += state[items_at(pl, SHIELD)]
    return v


@njit(cache=True)
def reinforce_score(state, cfg, p, a):
    """Reinforcements, combat tokens and a hero's combat reaction: only for p's side, when losing."""
    att, dfd = state[C_ATT], state[C_DEF]
    if is_friend(cfg, p, att) or is_friend(cfg, p, dfd):
        side = 0 if is_friend(cfg, p, att) else 1
        va, vd = side_value(state, cfg, 0), side_value(state, cfg, 1)
        losing = (va <= vd) if side == 0 else (va > vd)
        for o in range(2):
            if a == reinforce_action(o, side):
                return 1.0 if losing else -1.0
        if a == combat_token_action(side):
            return 1.2 if losing else -1.0
        if cfg[CFG_TAVERN] != 0 and A_HERO <= a < A_HERO + 2 * NUM_HEROES:
            eff = cfg[cfg_hero_effect_at((a - A_HERO) // 2, (a - A_HERO) % 2)]
            return 1.5 if losing and eff == 8 else -1.0
    for s in range(2):
        for o in range(2):
            if a == reinforce_action(o, s):
                return -1.0
        if a == combat_token_action(s):
            return -1.0
    return 0.0


@njit(cache=True)
def stack_score(state, cfg, p, kind, a, bonded, upcoming, mask, work):
    """The score of legal action ``a`` at a stack decision of this kind (work: edge values)."""
    lvl = decision_depth(state) - 1
    a0 = decision_at(state, lvl, 2)
    a1 = decision_at(state, lvl, 3)
    if kind == D_FA:
        return fly_agaric_score(state, cfg, p, a0, a)
    if kind == D_PATHWIN:
        if a == A_PENNY:
            return 0.5 if not is_friend(cfg, p, a0) else -1.0
        if a == A_INKY:
            return 0.4 if not is_friend(cfg, p, a0) else -1.0
        return 0.0
    if kind == D_USE:
        return 1.0 if a == A_USE else 0.0
    if kind == D_BN:
        if A_BIRDS <= a < A_BIRDS + 7:
            sub = a - A_BIRDS + 1
            return 1.0 + (sub & 1) + ((sub >> 1) & 1) + ((sub >> 2) & 1)
        return 0.0
    if kind == D_PAY:
        return pay_score(state, cfg, a0, a)
    if kind == D_LEGEND:
        h = state[legend_deal_at(p, a - A_LEGEND)] if A_LEGEND <= a < A_LEGEND + 2 else -1
        return hero_worth(cfg, h) if h >= 0 else (-1.0 if A_LEGEND <= a < A_LEGEND + 2 else 0.0)
    if kind == D_HERO_PICK:
        if A_HERO_PICK <= a < A_HERO_PICK + HERO_UP:
            return hero_worth(cfg, state[hero_up_at(a - A_HERO_PICK)])
        return 0.5 if a == A_HERO_PICK + HERO_UP else 0.0
    if kind == D_BUY:
        return buy_score(state, cfg, p, a0, a1, a, mask)
    if kind == D_PLACE_PATH:
        return edge_value(work, a - A_PLACE_PATH) if A_PLACE_PATH <= a < A_PLACE_PATH + MAX_EDGES else 0.0
    if kind == D_REMOVE_OWN:
        return -edge_value(work, a - A_REMOVE_OWN) if A_REMOVE_OWN <= a < A_REMOVE_OWN + MAX_EDGES else 0.0
    if kind == D_ATT_CARD or kind == D_DEFEND or kind == D_INKY_GIVE:
        return card_score(state, cfg, p, kind, a)
    if kind == D_REINF:
        return reinforce_score(state, cfg, p, a)
    if kind == D_RUSSULA_PICK:
        if not (A_GATHERER <= a < A_GATHERER + cfg[CFG_NG]):
            return -1.0 if a == A_PLACE_TAVERN else 0.0  # variant: hero_tavern (never by a Russula)
        g = a - A_GATHERER
        l0 = a1 if a0 > 0 else g
        l1 = (decision_at(state, lvl, 4) if a0 > 1 else g) if a0 > 0 else -1
        l2 = g if a0 > 1 else -1
        return gather_value(state, cfg, l0, l1, l2, -1, bonded, upcoming)
    if kind == D_ARRANGE:
        if A_ARRANGE <= a < A_ARRANGE + 4:
            k = state[ndeck_at(state[NDECK_N] - 1 - (a - A_ARRANGE))]
            return float(feeds_my_trees(cfg, k, bonded))
        return 0.0
    if kind == D_GATHER:  # variant: team
        return gather_take_score(state, cfg, p, a1, a, mask)
    if kind == D_TRADE:  # variant: team
        if a1 > 0:  # the proposer accepts what its teammate gives back
            return 1.0 if a == A_TRADE + a1 - 1 else 0.0
        return trade_answer_score(state, cfg, p, a0, a, mask)
    if kind == D_EXCHANGE:
        return exchange_card_score(state, cfg, p, a, a0, decision_at(state, lvl, 4) - 1)
    return 0.0


@njit(cache=True)
def turn_score(state, cfg, p, a, bonded, upcoming, full, cap, best_edge, mask, work):
    """The score of the turn player's action with an empty stack (the phases)."""
    phase = state[PHASE]
    if phase == PH_EXPLORE or phase == PH_PLACE:
        if A_GATHERER <= a < A_GATHERER + cfg[CFG_NG]:
            return gatherer_score(state, cfg, p, a - A_GATHERER, bonded, upcoming, work)
        if a == A_PLACE_TAVERN:  # variant: hero_tavern
            there = 0
            for i in range(3):
                if state[gatherer_at(p, i)] == TAVERN:
                    there += 1
            left = state[HDECK_N]
            for s in range(HERO_UP):
                if state[hero_up_at(s)] >= 0:
                    left += 1
            return 0.9 if there == 0 and state[ctok_at(p)] >= 1 and left > 0 else -1.0
        return 0.0
    if phase == PH_DISCARD:
        return -keep_value(cfg, a - A_CARD) if A_CARD <= a < A_CARD + NUM_MUSHLING_KINDS else 0.0
    return menu_score(state, cfg, p, a, bonded, upcoming, full, cap, best_edge, work)


# --- every action's score ----------------------------------------------------------------------
@njit(cache=True)
def greedy_context(state, cfg, mask, work):
    """What the scores of one position read, computed once: the seat to act, the pending decision's
    kind (-1: none, a phase's choice), p's bonded Paths and the Nutrients the nutrient cards it knows
    come add (both packed per location), a full Colony (Team rules), in the Action Phase the
    payment capacity, the best edge a Build may take and the Trade offer of least keep value (-1
    none). The edge values go to ``work`` (the Action Phase and the Path decisions)."""
    p = seat_to_act(state)
    depth = decision_depth(state)
    kind = decision_at(state, depth - 1, 0) if depth > 0 else -1
    bonded = bonded_counts(state, cfg, p, work)
    full = cfg[CFG_TEAM] != 0 and state[mat_nut_at(p)] >= WIN_NUTRIENTS  # variant: team
    upcoming = 0 if full else upcoming_counts(state, cfg, p)
    cap = 0
    best_edge = 0.0
    offer = -1
    if depth == 0 and state[PHASE] == PH_ACTION:
        edge_values(state, cfg, bonded, full, work)
        cap = pay_capacity(state, cfg, p)
        for e in range(cfg[CFG_NE]):
            if can_build_at(state, cfg, p, e):
                best_edge = max(best_edge, edge_value(work, e))
        if cfg[CFG_TEAM] != 0:
            offer = least_kept_offer(state, cfg, p, mask)
    elif kind == D_PLACE_PATH or kind == D_REMOVE_OWN:
        edge_values(state, cfg, bonded, full, work)
    return p, kind, bonded, upcoming, full, cap, best_edge, offer


@njit(cache=True)
def action_score(state, cfg, mask, work, context, a):
    """The greedy score of legal action ``a`` in the position ``context`` (:func:`greedy_context`) describes."""
    p, kind, bonded, upcoming, full, cap, best_edge, offer = context
    if kind >= 0:
        return stack_score(state, cfg, p, kind, a, bonded, upcoming, mask, work)
    sc = turn_score(state, cfg, p, a, bonded, upcoming, full, cap, best_edge, mask, work)
    if offer >= 0 and a == A_TRADE + offer and sc < 0.05:
        sc = 0.05
    return sc


@njit(cache=True)
def greedy_scores(state, cfg, mask, work, out):
    """Every action's greedy score into ``out``: -inf where ``mask`` says illegal."""
    context = greedy_context(state, cfg, mask, work)
    for a in range(mask.shape[0]):
        out[a] = action_score(state, cfg, mask, work, context, a) if mask[a] != 0 else -np.inf


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The greedy scores of every action (-inf where illegal), for ``GreedyAgent``: the compiled
    :func:`greedy_scores` for the seat to act (``player`` must be the player to act; under the
    Team rules the agent of that seat). ``observation`` is not read: the scores read only what
    the seat to act may see of ``state``."""
    state = np.asarray(state)
    game.validate(state)
    to_act = game.current_player(state)
    if int(player) != to_act:
        raise ValueError(f"{game.env_id}: greedy scores the player to act ({to_act}), not player {player}")
    mask = np.ascontiguousarray(action_mask, dtype=np.int8)  # legal_mask's type: one compiled form
    if mask.shape != (game.num_actions,):
        raise ValueError(f"{game.env_id}: an action mask of {game.num_actions} entries is needed, not {mask.shape}")
    scores = np.empty(game.num_actions)
    greedy_scores(state, game.config, mask, game.work, scores)
    return scores
