"""Networks and paying for a mushroom (RULES.md, "Ownership, blocking and networks" and "FRUIT").

A network of a seat is a set of flat-edge-connected tiles each holding one of its pieces and not
controlled by another seat (:func:`label_networks`, one breadth-first search per network over the
work area). The payment rules: which spores a seat may spend (:func:`spendable`), whether needs by
colour and wild spores can be paid from a network's spores (:func:`payment_feasible`), whether one
more spore from a tile keeps the payment possible (:func:`can_pay_from`), whether a card can be
fruited at all (:func:`can_fruit`).
"""

from numba import njit

from mushgym.core import bfs_walk_rule

from .layout import (
    ADJ,
    BLACK,
    NEED,
    NEED_WILD,
    NTP,
    PAID_BLACK,
    cfg_require_at,
    cfg_wild_at,
    mushroom_owner_at,
    need_at,
    spores_at,
    tree_at,
)
from .tiles import controller, spores_on, tile_colour
from .work import LABEL, W_QUEUE


@njit(cache=True)
def in_network(state, p, t):
    if state[tree_at(t)] == p:  # the expansion: a Grandfather Tree is its owner's, whatever M stands there
        return True
    c = controller(state, t)
    if c == p:
        return True
    return c < 0 and state[spores_at(t, p)] > 0


@njit(cache=True)
def spendable(state, p, t, o):
    """Spores of seat ``o`` on tile ``t`` that seat ``p`` may spend."""
    c = controller(state, t)
    if c == p:
        return state[spores_at(t, o)]
    if c < 0 and o == p:
        return state[spores_at(t, p)]
    return 0


@njit(cache=True)
def spendable_all(state, p, t):
    c = controller(state, t)
    if c == p:
        return spores_on(state, t)
    if c < 0:
        return state[spores_at(t, p)]
    return 0


@njit(cache=True, inline="always")
def enters_network(args, u):
    """The walk's rule for :func:`label_networks`: ``args = (state, p)``, tile ``u`` is in a network of ``p``."""
    state, p = args
    return in_network(state, p, u)


@njit(cache=True)
def label_networks(state, p, work):
    """Label ``p``'s networks in ``LABEL`` (tile -> component id, -1 outside); return the count.

    A network is a set of flat-edge-connected tiles each holding a piece of ``p`` (Mother
    mushroom, mushroom token or spore) and not controlled by another seat: one breadth-first
    walk (``step`` 0: a label, not a distance) per network, asking :func:`in_network` of the
    tiles it reaches.
    """
    n = state[NTP]
    for t in range(n):
        work[LABEL + t] = -1
    comps = 0
    for t0 in range(n):
        if work[LABEL + t0] < 0 and in_network(state, p, t0):
            work[LABEL + t0] = comps
            work[W_QUEUE] = t0
            bfs_walk_rule(state, ADJ, 3, enters_network, (state, p), work, LABEL, W_QUEUE, 1, 0)
            comps += 1
    return comps


@njit(cache=True)
def payment_feasible(n0, n1, n2, n3, a0, a1, a2, a3, ablack, paid_black, wild=0):
    """Needs ``n*`` by colour and ``wild`` (any colour) payable from ``a*`` by colour and ``ablack``
    black spores, ``paid_black`` black spores already paid (each covers any need): black covers the
    colour deficit, and what is left of every colour and of black covers the wild spores."""
    deficit = max(0, n0 - a0) + max(0, n1 - a1) + max(0, n2 - a2) + max(0, n3 - a3)
    if max(0, deficit - paid_black) > ablack:
        return False
    if wild <= 0:
        return True
    surplus = max(0, a0 - n0) + max(0, a1 - n1) + max(0, a2 - n2) + max(0, a3 - n3)
    return deficit + wild <= surplus + paid_black + ablack


@njit(cache=True)
def network_spores(state, cfg, p, lab, work):
    """(red, green, brown, yellow, black) spendable by ``p`` in component ``lab``."""
    a0 = 0
    a1 = 0
    a2 = 0
    a3 = 0
    a4 = 0
    for t in range(state[NTP]):
        if work[LABEL + t] != lab:
            continue
        v = spendable_all(state, p, t)
        col = tile_colour(state, cfg, t)
        if col == 0:
            a0 += v
        elif col == 1:
            a1 += v
        elif col == 2:
            a2 += v
        elif col == 3:
            a3 += v
        else:
            a4 += v
    return a0, a1, a2, a3, a4


@njit(cache=True)
def can_grow_on(state, cfg, p, t, n0, n1, n2, n3, a0, a1, a2, a3, a4, nw=0):
    """Can ``p`` grow on tile ``t`` of a component with availability ``a*``: no mushroom on
    ``t``, and a payment of needs ``n*`` (``nw`` wild) taking at least one spore from ``t`` exists."""
    if state[mushroom_owner_at(t)] >= 0 or spendable_all(state, p, t) == 0:
        return False
    return can_pay_from(tile_colour(state, cfg, t), n0, n1, n2, n3, nw, a0, a1, a2, a3, a4, 0)


@njit(cache=True)
def can_pay_from(col, n0, n1, n2, n3, nw, a0, a1, a2, a3, a4, pb):
    """A spore from a tile of colour ``col`` can be paid now (needs ``n*``, ``nw`` wild, ``pb`` black
    paid; availability ``a*`` counts that spore): a coloured spore pays its colour while it is owed,
    else a wild spore; a black one covers anything."""
    if n0 + n1 + n2 + n3 + nw - pb <= 0:
        return False
    if col == BLACK:
        return payment_feasible(n0, n1, n2, n3, a0, a1, a2, a3, a4 - 1, pb + 1, nw)
    if col == 0:
        if n0 > 0:
            return payment_feasible(n0 - 1, n1, n2, n3, a0 - 1, a1, a2, a3, a4, pb, nw)
        return nw > 0 and payment_feasible(n0, n1, n2, n3, a0 - 1, a1, a2, a3, a4, pb, nw - 1)
    if col == 1:
        if n1 > 0:
            return payment_feasible(n0, n1 - 1, n2, n3, a0, a1 - 1, a2, a3, a4, pb, nw)
        return nw > 0 and payment_feasible(n0, n1, n2, n3, a0, a1 - 1, a2, a3, a4, pb, nw - 1)
    if col == 2:
        if n2 > 0:
            return payment_feasible(n0, n1, n2 - 1, n3, a0, a1, a2 - 1, a3, a4, pb, nw)
        return nw > 0 and payment_feasible(n0, n1, n2, n3, a0, a1, a2 - 1, a3, a4, pb, nw - 1)
    if n3 > 0:
        return payment_feasible(n0, n1, n2, n3 - 1, a0, a1, a2, a3 - 1, a4, pb, nw)
    return nw > 0 and payment_feasible(n0, n1, n2, n3, a0, a1, a2, a3 - 1, a4, pb, nw - 1)


@njit(cache=True)
def can_fruit(state, cfg, p, card, ncomp, work):
    """Some network of ``p`` pays for ``card`` with a tile to grow on (labels must be fresh)."""
    n0 = cfg[cfg_require_at(card, 0)]
    n1 = cfg[cfg_require_at(card, 1)]
    n2 = cfg[cfg_require_at(card, 2)]
    n3 = cfg[cfg_require_at(card, 3)]
    nw = cfg[cfg_wild_at(card)]
    for lab in range(ncomp):
        a0, a1, a2, a3, a4 = network_spores(state, cfg, p, lab, work)
        if not payment_feasible(n0, n1, n2, n3, a0, a1, a2, a3, a4, 0, nw):
            continue
        for t in range(state[NTP]):
            if work[LABEL + t] == lab and can_grow_on(state, cfg, p, t, n0, n1, n2, n3, a0, a1, a2, a3, a4, nw):
                return True
    return False


@njit(cache=True)
def can_pay_tile(state, cfg, p, grow, grow_paid, t, work):
    """Can ``p`` pay one spore from tile ``t`` now (for some owner)? (labels fresh in LABEL)"""
    if work[LABEL + t] != work[LABEL + grow] or work[LABEL + t] < 0:
        return False
    if grow_paid == 0 and t != grow:
        return False
    if spendable_all(state, p, t) == 0:
        return False
    a0, a1, a2, a3, a4 = network_spores(state, cfg, p, work[LABEL + grow], work)
    n0 = state[NEED]
    n1 = state[need_at(1)]
    n2 = state[need_at(2)]
    n3 = state[need_at(3)]
    pb = state[PAID_BLACK]
    return can_pay_from(tile_colour(state, cfg, t), n0, n1, n2, n3, state[NEED_WILD], a0, a1, a2, a3, a4, pb)
