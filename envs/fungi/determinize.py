"""Fungi's determinizer for information-set search (``mushgym.search``): a compiled kernel.

``determinize(state, player, cfg, work, rng)`` redraws, in place, everything ``player``
cannot see, from the search's generator ``rng`` (``int64[4]``, :mod:`mushgym.core.rng`):

* the opponent's hand cards that are not publicly known (``known``: taken face up and
  not spent) are pooled with the draw pile (Forest-deck kinds) and with the Night pile
  (Night cards); the opponent gets back as many cards as it had hidden, a uniformly
  random subset of the holdable cards of each pool (Moons, Fly agarics and Baskets are
  never held), and the rest of each pool becomes the pile in a uniformly random order;
* sizes, public counts, the Forest, the decay and discard piles, every display and the
  player's own hand are untouched, so the player's observation does not change.

It is :meth:`FungiGame.perturb_hidden` compiled, with the same consistency conditions
(an opponent to act keeps a legal action; an opponent that was just skipped keeps
having none; an opponent finishing a cook keeps a Pan): a redraw breaking one is
drawn again, up to ``TRIES`` times (redrawing a redrawn state gives the same
distribution, so no copy of the state is needed); after that the last draw stands.
Constraints from earlier in the public history (what the opponent did not take when it
could) are not enforced, as in ``perturb_hidden`` (RULES.md, "Search").

The pooled cards are put in a canonical order (by kind) before the shuffle, so for a
given ``rng`` the result depends only on what ``player`` knows (the multiset of unseen
cards), never on the true hand or pile order: the search's moves are exactly unchanged
when the hidden cards are redrawn (``tests/agents/test_search.py``). The state's own
generator is left alone (the search reseeds it). No allocation.
"""

from numba import njit

from mushgym.core import canonical_shuffle

from .cards import NHAND, NIGHT0, NNIGHT
from .layout import D_COOK, DRAW, DRAW_N, LAST, NIGHT_N, NIGHTP, NO_DECISION, TERMINAL, hand_at, known_at, top_kind
from .legality import current_player, finish_legal, has_action

TRIES = 20


@njit(cache=True, inline="always")
def _is_night(k):
    return NIGHT0 <= k < NIGHT0 + NNIGHT


@njit(cache=True)
def _redeal_pool(state, opp, pile, count_at, night, rng):
    """Pool ``opp``'s hidden cards of one kind family with ``pile`` (``count_at`` slots),
    shuffle, give ``opp`` back the first holdable ones, compact the rest into the pile."""
    n = state[count_at]
    hidden = 0
    for k in range(NHAND):
        if _is_night(k) == night:
            u = state[hand_at(opp, k)] - state[known_at(opp, k)]
            for _ in range(u):
                state[pile + n] = k
                n += 1
            hidden += u
            state[hand_at(opp, k)] -= u
    # canonical order (by kind), then shuffled: the draw depends on what player knows, not on the true order
    canonical_shuffle(state, pile, n, rng, 0)
    w = 0
    for i in range(n):
        k = state[pile + i]
        if hidden > 0 and k < NHAND:
            state[hand_at(opp, k)] += 1
            hidden -= 1
        else:
            state[pile + w] = k
            w += 1
    state[count_at] = w


@njit(cache=True)
def _consistent(state, player, cfg):
    """The conditions of ``FungiGame._consistent_for`` (what ``player`` saw happen)."""
    if state[TERMINAL] != 0:
        return True
    opp = 1 - player
    cp = current_player(state)
    kind = top_kind(state)
    if kind == NO_DECISION:
        if cp == opp:
            return has_action(state, opp, cfg)
        if state[LAST] == player:  # player acts again after its own turn: opp was skipped
            return not has_action(state, opp, cfg)
        return True
    if kind == D_COOK and cp == opp:
        return finish_legal(state, opp, 0, 0, 0, cfg) or finish_legal(state, opp, 1, 0, 0, cfg)
    return True


@njit(cache=True)
def determinize(state, player, cfg, work, rng):
    if state[TERMINAL] != 0:
        return
    opp = 1 - player
    for _ in range(TRIES):
        _redeal_pool(state, opp, DRAW, DRAW_N, False, rng)
        _redeal_pool(state, opp, NIGHTP, NIGHT_N, True, rng)
        if _consistent(state, player, cfg):
            return
