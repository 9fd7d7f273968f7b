"""Mycelium's determinizer for information-set search (``mushgym.search``): a compiled kernel.

Kept in its own file on purpose (the game's rules are being reworked elsewhere): it
depends only on these names of :mod:`.rules`: ``CFG_NP``, ``T`` (mushling types),
``DECK``, ``DECK_N``, ``NDECK``, ``NDECK_N``, ``C_ACTIVE``,
``C_REVEALED``, ``C_ATT``, ``C_DEF`` and the index helpers ``hand_at(player, kind)``,
``known_at(viewer, holder, kind)``, ``c_card_at(side)``, ``nseen_at(player, pos)``,
``cfg_card_type_at(kind)`` (and ``exchange.kept_type``).

``determinize(state, player, cfg, work, rng)`` is :meth:`MyceliumGame.perturb_hidden`
compiled, drawing from the search's generator ``rng``:

* the other players' hand cards beyond what ``player`` knows of them (but
  the cards of a pending Exchange's type in its chooser's hand), the other side's
  face-down combat card (a combat not yet revealed) and the mushling deck are pooled,
  put in canonical order (by type), shuffled, and dealt back: hands first (seat order),
  then the face-down cards, the rest becomes the deck;
* the nutrient cards ``player`` has not seen are shuffled among their positions;
* what the other players know (``known`` and ``nseen`` of the other viewers) is
  forgotten, as in ``perturb_hidden``: ``player`` cannot tell what they saw;
* variants: the Emsporium's item deck and the hero deck (their order is hidden from
  everyone) are reshuffled, with the other players' undecided Legends deals.

Every pile is redrawn by :func:`mushgym.core.canonical_shuffle` (canonical order, then a
uniform shuffle). Scratch: ``work[0:players]`` (the cards dealt back to each hand), then
``work[0:NN]`` (the unseen nutrient cards of one part of the nutrient deck; ``WORK_SIZE``
is far larger).

The state's own generator is reseeded by the search. No allocation.
"""

from numba import njit

from mushgym.core import canonical_shuffle, canonical_shuffle_around, pile_slot

from . import emsporium as _EM  # variant: emsporium (the item deck's order)
from . import exchange as _EX  # a pending Exchange choice keeps its type's cards
from . import tavern as _TV  # variant: hero_tavern, legends (the hero deck, the others' Legends deals)
from .rules import (
    BUY_SPENT,
    C_ACTIVE,
    C_ATT,
    C_DEF,
    C_REVEALED,
    CFG_NP,
    D_BUY,
    D_EXCHANGE,
    D_PAY,
    DECK,
    DECK_N,
    DECK_TOP_N,
    NDECK,
    NDECK_N,
    NDECK_TOP_N,
    NUM_MUSHLING_KINDS,
    PAY_PAID,
    c_card_at,
    cfg_card_type_at,
    cfg_spore_at,
    decision_depth,
    hand_at,
    known_at,
    nseen_at,
    top_arg,
    top_kind,
    top_player,
)
from .team import known_by, owns, seen_by  # variant: team (2-player game: an agent is two seats)


@njit(cache=True)
def _shuffle_unseen(state, player, lo, hi, work, rng):
    """Canonical order (by kind), then a uniform shuffle, of the nutrient cards in positions
    ``lo..hi-1`` that ``player`` has not seen: gathered into ``work``, redrawn, put back."""
    m = 0
    for pos in range(lo, hi):
        if not seen_by(state, player, pos):
            work[m] = state[NDECK + pos]
            m += 1
    canonical_shuffle(work, 0, m, rng, 0)
    m = 0
    for pos in range(lo, hi):
        if not seen_by(state, player, pos):
            state[NDECK + pos] = work[m]
            m += 1


@njit(cache=True)
def kept_in_hand(state, cfg, q, t):
    """``q``'s cards of kind ``t`` stay in a redraw: a choice of ``q``'s own is pending whose next
    card is among them (an Exchange's cards of its type; a Build's payment before 3, a Buy's
    before its first item: the cards with a spore value, so the payment can still be made)."""
    if decision_depth(state) == 0 or top_player(state) != q:
        return False
    k = top_kind(state)
    if k == D_EXCHANGE:
        return cfg[cfg_card_type_at(t)] == _EX.kept_type(state, q)
    if (k == D_PAY and top_arg(state, PAY_PAID) < 3) or (k == D_BUY and top_arg(state, BUY_SPENT) == 0):
        return cfg[cfg_spore_at(t)] > 0
    return False


@njit(cache=True)
def determinize(state, player, cfg, work, rng):
    n_players = cfg[CFG_NP]
    n = state[DECK_N]
    deck_n = n
    for q in range(n_players):  # hidden hand cards join the deck
        work[q] = 0
        if not owns(state, player, q):
            for t in range(NUM_MUSHLING_KINDS):
                u = state[hand_at(q, t)] - known_by(state, player, q, t)
                if kept_in_hand(state, cfg, q, t):
                    u = 0  # q's pending choice names its next card among them
                for _ in range(u):
                    state[DECK + n] = t
                    n += 1
                state[hand_at(q, t)] -= u
                work[q] += u  # cards to deal back to q (scratch)
    combat = state[C_ACTIVE] != 0 and state[C_REVEALED] == 0
    hide0 = combat and not owns(state, player, state[C_ATT]) and state[c_card_at(0)] >= 0
    hide1 = combat and not owns(state, player, state[C_DEF]) and state[c_card_at(1)] >= 0
    if hide0:
        state[DECK + n] = state[c_card_at(0)]
        n += 1
    if hide1:
        state[DECK + n] = state[c_card_at(1)]
        n += 1
    keep_n = state[DECK_TOP_N]  # a Witch's Hat's public set stays on top,
    keep_lo = deck_n - keep_n  # shuffled among itself; the pool is the rest
    p = n - keep_n  # the pool steps over the public set
    canonical_shuffle_around(state, DECK, p, keep_lo, keep_n, rng, 0)
    i = 0
    for q in range(n_players):  # deal back: hands, face-down cards, deck
        for _ in range(work[q]):
            state[hand_at(q, state[pile_slot(DECK, i, keep_lo, keep_n)])] += 1
            i += 1
    if hide0:
        state[c_card_at(0)] = state[pile_slot(DECK, i, keep_lo, keep_n)]
        i += 1
    if hide1:
        state[c_card_at(1)] = state[pile_slot(DECK, i, keep_lo, keep_n)]
        i += 1
    for k in range(keep_lo):  # the rest of the pool under the public set
        state[DECK + k] = state[pile_slot(DECK, i + k, keep_lo, keep_n)]
    for k in range(deck_n, n):  # the pool's slots above the deck's top: empty again
        state[DECK + k] = 0
    canonical_shuffle(state, DECK + keep_lo, keep_n, rng, 0)  # the public set (in place) among itself
    # nutrient cards player has not seen: shuffled among their positions, those of a Witch's
    # Hat's public set on top (exactly known as a set) only among themselves
    nn = state[NDECK_N]
    ntop = nn - state[NDECK_TOP_N]
    _shuffle_unseen(state, player, 0, ntop, work, rng)  # work is free again: the deal back is done
    _shuffle_unseen(state, player, ntop, nn, work, rng)
    for q in range(n_players):  # what the others know: player cannot tell
        if not owns(state, player, q):
            for pos in range(nn):
                state[nseen_at(q, pos)] = 0
            for h in range(n_players):
                for t in range(NUM_MUSHLING_KINDS):
                    state[known_at(q, h, t)] = 0
    _EM.determinize_items(state, rng)  # variant: emsporium
    _TV.determinize_heroes(state, player, cfg, rng)  # variant: hero_tavern, legends
