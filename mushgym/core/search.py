"""The compiled search loop: single-observer information-set MCTS over one game's kernels.

Like the batch loops (:mod:`mushgym.core.batch`), the loop is written once here, as
source, and generated for each game beside its kernel module (``generated/<module>_search.py``,
written by ``mushgym generate``: :func:`search_source`), where it imports that game's
``legal_mask``, ``step``, ``returns``, ... as globals and numba inlines them. This module
knows no game; :mod:`mushgym.search` finds a game's ``determinize`` and its generated module.

The algorithm is SO-ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set
Monte Carlo Tree Search", Algorithm 3). Each iteration:

1. *determinize*: copy the root state and redraw what the searching player cannot
   see (``determinize(state, player, cfg, work, rng)``, the game's kernel), or take
   the next of a pool of states redrawn beforehand (``use_det == 0``); then reseed
   the state's own generator (``rng_off``) from the search's generator, so chance
   (dice, reshuffles) is drawn afresh and the search never reads the true future;
2. *select*: from the root, while every action legal in this determinization has a
   child, go to the available child maximising
   ``mean + c * sqrt(ln(availability) / visits)`` for the player to act there (UCB1
   with availability counts, the ISMCTS "subset-armed bandit"); every available
   child's availability count is incremented;
3. *expand*: add one child for a legal action not yet in the tree (uniformly; with
   progressive widening, ``widen`` > 0, only while the node has fewer than
   ``1 + widen sqrt(visits)`` children, the rollout policy's action first, and with
   ``ranked`` 1 every new child the rollout policy's choice among the actions not yet in
   the tree);
4. *simulate*: play to the end with uniform random legal actions (``rollout_kind``
   0), or with the game's compiled ``rollout_policy`` (1);
5. *backpropagate*: each node on the path adds the value of the finished game to
   the player who chose the action leading to it, so with N players each maximises
   its own: the normalised return ``(r - lo) / (hi - lo)`` (``value_kind`` 0), or
   the game's compiled ``search_value(state, cfg, lo, hi, out)`` (1), a value in
   [0, 1] per player with more signal than the return (Mycology: win/loss plus a
   score-margin term). With ``horizon`` > 0 a playout stops that many moves past the
   tree and the game's compiled ``search_estimate(state, cfg, work, out)`` values the unfinished
   state (a value in [0, 1] per player): in a long game a full playout's result hardly depends
   on the move under test (Mycelium: about 350 decisions with four players).

Chance lives inside ``step`` (the state's generator), so tree nodes are sequences
of decisions (open loop over chance), as in ISMCTS. The tree lives in
preallocated arrays (``nodes`` ``int64[max_nodes, NODE_FIELDS]``, ``values``
``float64[max_nodes]``), children as linked lists; one iteration allocates nothing.
The function is ``nogil``: root-parallel trees run on Python threads.

PUCT (``PUCT_SOURCE``, the same namespace) splits the loop where a network is needed:
``puct_collect`` runs determinized descents (selection by ``Q + c P sqrt(N) / (1 + N_a)``
with a virtual loss on pending paths) until ``batch`` of them wait at unexpanded leaves,
leaving every player's observation of each leaf in a buffer; the caller evaluates them
(:mod:`mushgym.search`); ``puct_apply`` expands the leaves (a prior row and a child-index
row per expanded node) and backs up one value per player. Its node table is
``int64[max_nodes, PUCT_NODE_FIELDS]`` with per-player value sums ``float64[max_nodes, P]``;
nothing is allocated per descent either.
"""

from __future__ import annotations

# columns of the node table
N_ACTION, N_PARENT, N_FIRST, N_NEXT, N_MOVER, N_VISITS, N_AVAIL = range(7)
NODE_FIELDS = 7

SEARCH_SOURCE = r'''
@njit(cache=True, nogil=True)
def search_rng_seed(rng, seed):
    _rng_seed(rng, 0, seed)


@njit(cache=True, nogil=True)
def _search_world(roots, it, n_roots, use_det, player, rng_off, cfg, state, work, rng):
    """The world of iteration ``it`` in ``state``: the root redrawn by ``determinize`` (or the
    pool's next state), its own generator reseeded from the search's, so chance is fresh."""
    src = 0 if use_det != 0 else it % n_roots
    for i in range(state.shape[0]):
        state[i] = roots[src, i]
    if use_det != 0:
        determinize(state, player, cfg, work, rng)
    if rng_off >= 0:
        _rng_seed(state, rng_off, (_rng_next32(rng, 0) << 28) ^ _rng_next32(rng, 0))


@njit(cache=True, nogil=True)
def _search_new_node(nodes, values, n, action, parent, mover):
    nodes[n, 0] = action
    nodes[n, 1] = parent
    nodes[n, 2] = -1
    nodes[n, 3] = nodes[parent, 2] if parent >= 0 else -1
    nodes[n, 4] = mover
    nodes[n, 5] = 0
    nodes[n, 6] = 1
    values[n] = 0.0
    if parent >= 0:
        nodes[parent, 2] = n


@njit(cache=True, nogil=True)
def mcts_search(roots, n_roots, use_det, player, sims, c, rollout_kind, value_kind, widen, ranked, horizon,
                rng_off, lo, hi,
                max_len, cfg,
                nodes, values, state, mask, mark, rets, work, rng, path, out_visits, out_values):
    """Run ``sims`` iterations of SO-ISMCTS from ``roots[0]`` (or the pool ``roots[:n_roots]``)
    for ``player``; add each root child's visits and summed value into ``out_visits`` /
    ``out_values`` (indexed by action). ``rng`` is the search's generator (seeded by the
    caller). Returns the number of tree nodes used."""
    A = mask.shape[0]
    max_nodes = nodes.shape[0]
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    _search_new_node(nodes, values, 0, -1, -1, -1)
    n_nodes = 1
    S = state.shape[0]
    for it in range(sims):
        _search_world(roots, it, n_roots, use_det, player, rng_off, cfg, state, work, rng)
        node = 0
        depth = 0
        path[0] = 0
        steps = 0
        # selection and expansion
        while not is_terminal(state):
            nl = legal_mask(state, cfg, mask, work)
            if nl <= 0:
                break
            p = current_player(state)
            best = -1
            best_score = -1e300
            matched = 0
            ch = nodes[node, 2]
            while ch >= 0:
                a = nodes[ch, 0]
                if mask[a] != 0:
                    matched += 1
                    nodes[ch, 6] += 1
                    v = nodes[ch, 5]
                    if v > 0:
                        sc = values[ch] / v + c * np.sqrt(np.log(nodes[ch, 6]) / v)
                    else:
                        sc = 1e300
                    if sc > best_score:
                        best_score = sc
                        best = ch
                ch = nodes[ch, 3]
            limit = nl if widen <= 0.0 else 1 + int(widen * np.sqrt(nodes[node, 5]))
            if matched < nl and (matched == 0 or matched < limit) and n_nodes < max_nodes:
                # expand: a legal action without a child; with widening, the rollout policy's
                # action first (rollout_kind 1), else a uniformly chosen one; ranked widening
                # (``ranked`` 1) asks the rollout policy again among the actions not yet in the
                # tree, so the game's heuristic orders every new child (its next-best move)
                ask = widen > 0.0 and rollout_kind == 1      # the rollout policy picks the child
                narrow = ask and ranked == 1                 # ... among the actions not in the tree
                ch = nodes[node, 2]
                while ch >= 0:
                    a = nodes[ch, 0]
                    mark[a] = 1
                    if narrow and mask[a] != 0:
                        mask[a] = 0
                        mark[a] = 2                          # legal here: its mask bit comes back below
                    ch = nodes[ch, 3]
                chosen = -1
                if ask:
                    a0 = rollout_policy(state, cfg, mask, nl - matched if narrow else nl, work, rng)
                    if mark[a0] == 0:
                        chosen = a0
                if narrow:
                    ch = nodes[node, 2]
                    while ch >= 0:
                        if mark[nodes[ch, 0]] == 2:
                            mask[nodes[ch, 0]] = 1
                        ch = nodes[ch, 3]
                if chosen < 0:
                    k = _rng_below(rng, 0, nl - matched)
                    for a in range(A):
                        if mask[a] != 0 and mark[a] == 0:
                            if k == 0:
                                chosen = a
                                break
                            k -= 1
                ch = nodes[node, 2]
                while ch >= 0:
                    mark[nodes[ch, 0]] = 0
                    ch = nodes[ch, 3]
                _search_new_node(nodes, values, n_nodes, chosen, node, p)
                node = n_nodes
                n_nodes += 1
                depth += 1
                path[depth] = node
                step(state, chosen, cfg, work)
                steps += 1
                break
            if best < 0:
                break
            node = best
            depth += 1
            path[depth] = node
            step(state, nodes[node, 0], cfg, work)
            steps += 1
        # simulation (to the end, or ``horizon`` moves past the tree when horizon > 0)
        played = 0
        while not is_terminal(state) and steps < max_len and (horizon <= 0 or played < horizon):
            nl = legal_mask(state, cfg, mask, work)
            if nl <= 0:
                break
            if rollout_kind == 1:
                a = rollout_policy(state, cfg, mask, nl, work, rng)
            else:
                a = sample_masked(mask, nl, rng, 0)
            step(state, a, cfg, work)
            steps += 1
            played += 1
        # backpropagation (normalised returns; a rollout cut at the horizon is worth the game's
        # search_estimate, one cut by the length limit counts as the middle)
        if is_terminal(state):
            if value_kind == 1:
                search_value(state, cfg, lo, hi, rets)
            else:
                returns(state, cfg, rets)
                for q in range(rets.shape[0]):
                    rets[q] = (rets[q] - lo) * scale
        elif horizon > 0 and played >= horizon:
            search_estimate(state, cfg, work, rets)
        else:
            for q in range(rets.shape[0]):
                rets[q] = 0.5
        nodes[0, 5] += 1
        for d in range(1, depth + 1):
            n = path[d]
            nodes[n, 5] += 1
            values[n] += rets[nodes[n, 4]]
    ch = nodes[0, 2]
    while ch >= 0:
        out_visits[nodes[ch, 0]] += nodes[ch, 5]
        out_values[nodes[ch, 0]] += values[ch]
        ch = nodes[ch, 3]
    return n_nodes
'''

# columns of the PUCT node table (mushgym.search.Searcher with a network)
P_ACTION, P_PARENT, P_SLOT, P_VISITS, P_INFLIGHT = range(5)
PUCT_NODE_FIELDS = 5
# counters shared by puct_collect / puct_apply: nodes used, expanded slots used, descents done
C_NODES, C_SLOTS, C_DESCENTS = range(3)

PUCT_SOURCE = r'''
@njit(cache=True, nogil=True)
def puct_begin(pn, pw, counters):
    """Reset the tree to its root: one node, not yet evaluated (no slot)."""
    pn[0, 0] = -1
    pn[0, 1] = -1
    pn[0, 2] = -1
    pn[0, 3] = 0
    pn[0, 4] = 0
    for q in range(pw.shape[1]):
        pw[0, q] = 0.0
    counters[0] = 1
    counters[1] = 0
    counters[2] = 0


@njit(cache=True, nogil=True)
def _puct_backup(pn, pw, paths, k, depth, vals, inflight):
    for d in range(depth + 1):
        n = paths[k, d]
        pn[n, 3] += 1
        pn[n, 4] -= inflight
        for q in range(pw.shape[1]):
            pw[n, q] += vals[q]


@njit(cache=True, nogil=True)
def puct_collect(roots, n_roots, use_det, player, batch, budget, vloss, c, rng_off, lo, hi, cfg,
                 pn, pw, prior, child, counters, state, mask, rets, work, rng, paths, depths, leaf_player, obs):
    """Descend from the root (a fresh determinization each time) until ``batch`` descents have
    reached a leaf that needs the network, or ``budget`` descents are done. A descent ending
    in a terminal state is backed up at once with the game's returns; one ending at a leaf
    leaves its path in ``paths[k, :depths[k] + 1]``, the player to act there in
    ``leaf_player[k]``, every player's observation of the leaf state in ``obs[k * P + q]``,
    and one virtual visit (worth 0) on each node of its path. Returns the number of leaves."""
    A = mask.shape[0]
    P = pw.shape[1]
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    n_leaves = 0
    while n_leaves < batch and counters[2] < budget:
        _search_world(roots, counters[2], n_roots, use_det, player, rng_off, cfg, state, work, rng)
        counters[2] += 1
        node = 0
        depth = 0
        paths[n_leaves, 0] = 0
        while True:
            if is_terminal(state):
                returns(state, cfg, rets)
                for q in range(P):
                    rets[q] = (rets[q] - lo) * scale
                _puct_backup(pn, pw, paths, n_leaves, depth, rets, 0)
                break
            nl = legal_mask(state, cfg, mask, work)
            if nl <= 0:
                for q in range(P):
                    rets[q] = 0.5
                _puct_backup(pn, pw, paths, n_leaves, depth, rets, 0)
                break
            slot = pn[node, 2]
            if slot < 0:
                # a leaf: the network evaluates it
                for d in range(depth + 1):
                    pn[paths[n_leaves, d], 4] += 1
                for q in range(P):
                    observe(state, q, cfg, obs[n_leaves * P + q], work)
                leaf_player[n_leaves] = current_player(state)
                depths[n_leaves] = depth
                n_leaves += 1
                break
            p = current_player(state)
            total = 0.0
            for a in range(A):
                if mask[a] != 0:
                    total += prior[slot, a]
            uniform = total <= 0.0
            nv = pn[node, 3]
            sq = np.sqrt(max(nv + vloss * pn[node, 4], 1.0))
            fpu = pw[node, p] / nv if nv > 0 else 0.5
            best = -1
            best_score = -1e300
            for a in range(A):
                if mask[a] == 0:
                    continue
                pa = 1.0 / nl if uniform else prior[slot, a] / total
                ch = child[slot, a]
                if ch >= 0:
                    n = pn[ch, 3] + vloss * pn[ch, 4]
                    qv = pw[ch, p] / n if n > 0 else fpu
                else:
                    n = 0.0
                    qv = fpu
                sc = qv + c * pa * sq / (1.0 + n)
                if sc > best_score:
                    best_score = sc
                    best = a
            ch = child[slot, best]
            if ch < 0:
                ch = counters[0]
                counters[0] += 1
                pn[ch, 0] = best
                pn[ch, 1] = node
                pn[ch, 2] = -1
                pn[ch, 3] = 0
                pn[ch, 4] = 0
                for q in range(P):
                    pw[ch, q] = 0.0
                child[slot, best] = ch
            node = ch
            depth += 1
            paths[n_leaves, depth] = node
            step(state, best, cfg, work)
    return n_leaves


@njit(cache=True, nogil=True)
def puct_apply(n_leaves, pn, pw, prior, child, counters, paths, depths, weights, leaf_values):
    """Expand each collected leaf not yet expanded (its priors: ``weights[k]``, the network's
    unnormalised probabilities over all actions, normalised over the legal ones when used)
    and back its values ``leaf_values[k]`` (one per player, in [0, 1]) up its path, removing
    its virtual visits."""
    for k in range(n_leaves):
        depth = depths[k]
        leaf = paths[k, depth]
        if pn[leaf, 2] < 0:
            slot = counters[1]
            counters[1] += 1
            pn[leaf, 2] = slot
            for a in range(prior.shape[1]):
                prior[slot, a] = weights[k, a]
                child[slot, a] = -1
        _puct_backup(pn, pw, paths, k, depth, leaf_values[k], 1)
'''


NO_DETERMINIZE = '''
@njit(cache=True, nogil=True)
def determinize(state, player, cfg, work, rng):
    """Stand-in: this namespace searches a pool of states redrawn beforehand."""
    return
'''

NO_SEARCH_VALUE = '''
@njit(cache=True, nogil=True)
def search_value(state, cfg, lo, hi, out):
    """Stand-in: the game has no search_value kernel (the caller then uses its returns)."""
    return
'''

NO_SEARCH_ESTIMATE = '''
@njit(cache=True, nogil=True)
def search_estimate(state, cfg, work, out):
    """Stand-in: the game has no search_estimate kernel (the caller then refuses horizon > 0)."""
    for q in range(out.shape[0]):
        out[q] = 0.5
'''

NO_ROLLOUT_POLICY = '''
@njit(cache=True, nogil=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    """Stand-in: the game has no compiled rollout policy (the caller refuses rollout="greedy")."""
    return sample_masked(mask, n_legal, rng, 0)
'''


#: the game's optional kernels the search calls, each with the stand-in used when it has none
OPTIONAL = {
    "determinize": NO_DETERMINIZE,
    "rollout_policy": NO_ROLLOUT_POLICY,
    "search_value": NO_SEARCH_VALUE,
    "search_estimate": NO_SEARCH_ESTIMATE,
}
#: the kernels every search calls
SEARCH_KERNELS = ("current_player", "is_terminal", "legal_mask", "observe", "returns", "step")


def search_source(kernels: str, found: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    """The search loop over the kernel module named ``kernels`` (its last dotted part: the loop is
    written beside it, in ``generated/``) and the imports it needs; ``found`` maps each optional
    kernel the game provides to the module (a sibling of ``kernels``) it comes from."""
    imports = [
        "import numpy as np",
        "from numba import njit",
        "from mushgym.core.rng import rng_below as _rng_below, rng_next32 as _rng_next32, rng_seed as _rng_seed",
        "from mushgym.core.rng import sample_masked",
        f"from ..{kernels} import {', '.join(SEARCH_KERNELS)}",
    ]
    by_module: dict[str, list[str]] = {}
    for name, module in found.items():
        by_module.setdefault(module, []).append(name)
    imports += [f"from ..{m} import {', '.join(sorted(names))}" for m, names in sorted(by_module.items())]
    stand_ins = [OPTIONAL[name].strip("\n") for name in OPTIONAL if name not in found]
    body = "\n\n\n".join(stand_ins + [SEARCH_SOURCE.strip("\n"), PUCT_SOURCE.strip("\n")]) + "\n"
    return body, tuple(imports)
