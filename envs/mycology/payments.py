"""Paying for an action token by token: the DEC_PAY entry of the decision stack.

A payment with a real choice in it (which 3 of your resources, a Magic token or
the real resource, a Magic token or a Feast) is a DEC_PAY entry on top of the
stack; the player answers with one ``pay_*`` action per token, in a canonical
order (the order key, RULES.md "Paying") so that each set of tokens is paid in
one way only. A token with one legal option is paid automatically.

The helpers take ``e``, the state slot of the payment entry's arg 0
(``top_arg_slot(state, 0)``, found once per kernel call): ``state[e + ARG_OWED]``
is what is owed.
"""

from numba import njit

from .actions import A_PAY_FEAST, A_PAY_MAGIC, A_PAY_RES, pay_res_action
from .layout import (
    ARG_OWED,
    ARG_OWED_RES,
    ARG_PAY_KEY,
    ARG_PAY_TYPE,
    D_ANY,
    D_SPECIFIC,
    NUM_RES,
    feast_at,
    magic_at,
    resources_at,
)


@njit(cache=True)
def pay_feasible(state, e, p):
    """Can the rest of the payment still be made, respecting the order key?"""
    t = state[e + ARG_PAY_TYPE]
    key = state[e + ARG_PAY_KEY]
    magic = state[magic_at(p)]
    if t == D_SPECIFIC:
        short = 0
        for r in range(NUM_RES):
            d = state[e + ARG_OWED_RES + r]
            if d > 0:
                if key > 2 * r:  # Magic already used for r: the rest of r must be Magic
                    short += d
                else:
                    h = state[resources_at(p, r)]
                    if d > h:
                        short += d - h
        return short <= magic
    elif t == D_ANY:
        avail = magic
        for r in range(NUM_RES):
            if r >= key:
                avail += state[resources_at(p, r)]
        return state[e + ARG_OWED] <= avail
    else:
        avail = magic
        if key == 0:
            avail += state[feast_at(p)]
        return state[e + ARG_OWED] <= avail


@njit(cache=True)
def owed_resource(state, e):
    """The resource a harvest payment is at (the lowest still owed), -1 if none."""
    for r in range(NUM_RES):
        if state[e + ARG_OWED_RES + r] > 0:
            return r
    return -1


@njit(cache=True)
def owed(state, e):
    """Tokens still owed."""
    if state[e + ARG_PAY_TYPE] == D_SPECIFIC:
        s = 0
        for r in range(NUM_RES):
            s += state[e + ARG_OWED_RES + r]
        return s
    return state[e + ARG_OWED]


@njit(cache=True)
def apply_pay(state, e, p, a):
    """Apply pay action ``a``; returns False (state untouched) if it is not applicable."""
    t = state[e + ARG_PAY_TYPE]
    key = state[e + ARG_PAY_KEY]
    if t == D_SPECIFIC:
        r = owed_resource(state, e)
        if r < 0:
            return False
        if a == pay_res_action(r):
            if 2 * r < key or state[resources_at(p, r)] <= 0:
                return False
            state[resources_at(p, r)] -= 1
            state[e + ARG_OWED_RES + r] -= 1
            state[e + ARG_PAY_KEY] = 2 * r
            return True
        if a == A_PAY_MAGIC:
            if state[magic_at(p)] <= 0:
                return False
            state[magic_at(p)] -= 1
            state[e + ARG_OWED_RES + r] -= 1
            state[e + ARG_PAY_KEY] = 2 * r + 1
            return True
        return False
    left = state[e + ARG_OWED]
    if left <= 0:
        return False
    if t == D_ANY:
        if A_PAY_RES <= a < A_PAY_RES + NUM_RES:
            r = a - A_PAY_RES
            if r < key or state[resources_at(p, r)] <= 0:
                return False
            state[resources_at(p, r)] -= 1
            state[e + ARG_OWED] = left - 1
            state[e + ARG_PAY_KEY] = r
            return True
        if a == A_PAY_MAGIC:
            if state[magic_at(p)] <= 0:
                return False
            state[magic_at(p)] -= 1
            state[e + ARG_OWED] = left - 1
            state[e + ARG_PAY_KEY] = NUM_RES
            return True
        return False
    if a == A_PAY_FEAST:
        if key > 0 or state[feast_at(p)] <= 0:
            return False
        state[feast_at(p)] -= 1
        state[e + ARG_OWED] = left - 1
        state[e + ARG_PAY_KEY] = 0
        return True
    if a == A_PAY_MAGIC:
        if state[magic_at(p)] <= 0:
            return False
        state[magic_at(p)] -= 1
        state[e + ARG_OWED] = left - 1
        state[e + ARG_PAY_KEY] = 1
        return True
    return False


@njit(cache=True)
def pay_legal(state, e, p, a):
    """A legal pay action: applicable, and the rest stays payable (the state is restored)."""
    key = state[e + ARG_PAY_KEY]
    t = state[e + ARG_PAY_TYPE]
    r = owed_resource(state, e)
    magic_before = state[magic_at(p)]
    feast_before = state[feast_at(p)]
    if not apply_pay(state, e, p, a):
        return False
    ok = pay_feasible(state, e, p)
    # undo
    if t == D_SPECIFIC:
        state[e + ARG_OWED_RES + r] += 1
        if a == A_PAY_MAGIC:
            state[magic_at(p)] = magic_before
        else:
            state[resources_at(p, r)] += 1
    elif t == D_ANY:
        state[e + ARG_OWED] += 1
        if a == A_PAY_MAGIC:
            state[magic_at(p)] = magic_before
        else:
            state[resources_at(p, a - A_PAY_RES)] += 1
    else:
        state[e + ARG_OWED] += 1
        state[magic_at(p)] = magic_before
        state[feast_at(p)] = feast_before
    state[e + ARG_PAY_KEY] = key
    return ok


@njit(cache=True)
def pay_mask(state, e, p, mask):
    n = 0
    for a in range(A_PAY_RES, A_PAY_FEAST + 1):
        if pay_legal(state, e, p, a):
            mask[a] = 1
            n += 1
    return n


@njit(cache=True)
def only_pay_action(state, e, p):
    """The single legal pay action, or -1 if there are several (or none)."""
    found = -1
    for a in range(A_PAY_RES, A_PAY_FEAST + 1):
        if pay_legal(state, e, p, a):
            if found >= 0:
                return -1
            found = a
    return found
