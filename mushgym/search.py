"""Search over the functional API: information-set MCTS for every registered game.

    from mushgym.search import Searcher
    searcher = Searcher(game, simulations=1000, c=0.7, rollout="random", threads=2, seed=0)
    visits, values = searcher.search(state, player)      # per action, merged over the trees
    action = searcher.best_action(state, player)
    puct = Searcher(game, simulations=400, network=policy_agent.policy_value, batch=8)   # PUCT

The compiled loop is :mod:`mushgym.core.search` (SO-ISMCTS, UCB1 with availability
counts). What the searching player may not see is redrawn at every iteration by the
game's **determinizer**, found through the engine contract with no code here:

1. ``determinize(state, player, cfg, work, rng)`` in the game's kernel module, or in a
   ``determinize`` module of the game's package (``envs/<game>/determinize.py``): a
   compiled kernel that redraws, in place, everything hidden from ``player`` (other
   hands, deck orders, face-down cards) consistently with the public information and
   ``player``'s own knowledge, drawing from the search's generator ``rng`` (an
   ``int64[4]`` xoshiro128** state, :mod:`mushgym.core.rng`). It must leave ``player``'s
   observation unchanged; ``tests/agents/test_search.py`` checks that, the game's invariants, and
   that every consistent hidden card shows up over many draws, for every registered env
   that provides one.
2. Otherwise (**the documented fallback**), the searcher draws a pool of
   ``min(simulations, pool)`` states with the game's ``perturb_hidden(state, player,
   rng)`` (Python; every registered game must provide it, the harness tests it) before
   the compiled loop, which cycles through them. It is observation-consistent but costs
   Python time per decision and samples fewer worlds; a compiled ``determinize``
   replaces it.
3. A game declared ``perfect_information`` needs neither: the state is searched as it
   is. A game with hidden information whose ``perturb_hidden`` is missing is refused
   (``ValueError``): the search would otherwise read the hidden cards.

In every case the state's own generator (the kernel module's ``RNG`` offset) is
reseeded from the search's generator at each iteration, so dice and reshuffles are
drawn afresh and the search never sees the true future.

The game may also provide ``rollout_policy(state, cfg, mask, n_legal, work, rng) ->
action`` (in the kernel module, ``envs/<game>/search.py`` or ``determinize.py``) for ``rollout="greedy"``: a
compiled, cheap greedy used in the
simulations. Without it ``rollout="greedy"`` is refused with a clear error.
``rollout="auto"`` (what ``MCTSAgent`` and ``mcts:SIMS`` use) takes the game's
``rollout_policy`` when it has one, else random rollouts: on Fungi, uniformly random
playouts are too noisy to rank moves (MCTS at 1,000 simulations won 62% of 60 games
against greedy with them, and 72% with ``c=0.25`` instead of 0.7 over 40: the
exploration constant is not the cause), while the compiled greedy playouts won 88 of 100
(the docs' Agents page, "How the search defaults were chosen"). ``Searcher`` itself defaults to ``"random"``,
the game-independent primitive the speed benchmarks measure.

**What a finished simulation is worth** (``value=``): ``"returns"`` (``Searcher``'s default)
backs up the game's returns normalised to [0, 1]; ``"game"`` uses the game's compiled
``search_value(state, cfg, lo, hi, out)`` (kernel module or ``envs/<game>/search.py``): a
value in [0, 1] for every player of a finished game, with more signal than a win/loss
return (Mycology's: win/loss plus a score-margin term, see ``envs/mycology/search.py``).
``"auto"`` (``MCTSAgent``, ``mcts:SIMS``) takes ``search_value`` when the game has one, else
the returns. Without it ``value="game"`` is refused. PUCT backs up the returns (its network
is trained on them).

**Progressive widening** (``widen=k``, 0 = off): a tree node gets a new child only while
it has fewer than ``1 + k sqrt(visits)`` children (or none legal in this
determinization), and with greedy rollouts the rollout policy's move is expanded first
(Chaslot et al. 2008, "Progressive strategies for MCTS"). Plain UCT (``widen=0``) tries
every legal move of a node once before it prefers any, so with three opponents between
two of its own moves (Mycology, 4 players) the opponents of its tree play nearly at
random. ``"auto"`` (``MCTSAgent``, ``mcts:SIMS``) takes the game's ``SEARCH_WIDEN``
constant (kernel module or ``envs/<game>/search.py``) when the rollouts are the game's
policy, else 0: tuned per game because it helps Mycology and Mycelium (0.25 each) and hurts Fungi
(measured below; Mycelium: the docs' Agents page).

**Which move a widened node adds next** (``widen_order=``): ``"first"`` adds the rollout
policy's move first, then uniformly random legal moves; ``"ranked"`` asks the rollout policy
again among the legal moves not yet in the tree, so each new child is the game's heuristic's
next choice (its best move, then its second best, ...; with the policy's own random share), a
move ordering for progressive widening without a network. ``"auto"`` (``MCTSAgent``,
``mcts:SIMS``) takes the game's ``SEARCH_WIDEN_ORDER`` constant beside ``SEARCH_WIDEN`` when the
rollouts are the game's policy, else ``"first"``. With four Mycelium players the random second
child is most often a poor move that takes its share of the visits; ranked, the search weighs
greedy's best moves against each other (Mycelium's docstring has the figures).

**Mycology, the harvest rollout.** ``mcts:1000`` against greedy, wins-draws-losses
on the same deals, one change at a time (2 players: seeds 0-39; 4 players: seeds 0-31;
seats rotated; ``MCTSAgent("mycology_v1", simulations=1000, ...)`` against ``greedy`` with
``mushgym.agents.play_match``; the commands are on the docs' Agents page):

======================================================  ===========  ===========
change (each row adds to the rows above it)             2 players    4 players
======================================================  ===========  ===========
first default: harvest by points, else a random move      10-0-10 (a)  2-0-6 (b)
rollout: harvest, pay the most plentiful, else end      30-0-10      9-3-20
``value="game"`` (win/loss + 0.3 x score margin)        28-0-12      13-0-19
rollout trades 3 and 4 when they open a harvest         32-2-6       13-0-19
``widen=0.25`` (**the default now**)                    35-0-5       18-1-13
======================================================  ===========  ===========

(a) seeds 0-19 only; (b) the first ladder's 8 games. Tried and not kept: ``c`` 0.3 and 1.4
instead of 0.7 (4 players, before widening: 13-1-18 and 9-2-21), ``widen`` 0.5 and 1.0
(2 players 30-1-9 at 0.5; 4 players 19-1-12 and 16-1-15), a margin weight of 0.6 instead
of 0.3 (4 players, ``widen=0.5``: 16-0-16 against 19-1-12), and a
progressive bias ``b / (visits + 1)`` toward the rollout policy's move (4 players, b = 0.3
and 1.0: 18-0-14 and 20-1-11 against 18-1-13). Why it was weak: the old rollout made a
random legal move whenever it could not harvest, and those random trades spend the
resources and Feast that decide who harvests next, so a playout hardly depended on the move
under test (and lasted long). Fungi keeps ``widen=0``: with 0.25 ``mcts:1000`` won 29-0-11
of 40 Fungi deals, without it 36-0-4 (its big ladder: 92 of 100); Fungi has no
``search_value``, so its search is unchanged. With 4 players ``mcts:1000`` still only about
matched greedy then. **The greedy rollout:** Mycology's rollout became its greedy baseline compiled
(Poison priced, trades 1-5 as ``envs/mycology/greedy.py``) with a 5% random move: ``mcts:1000``
against greedy 41-0-7 of 48 seeded deals with 4 players, 37-1-2 of 40 with 2; in the ``_greedy_rollouts``
ladder 69-5-22 of 96 games with 4 players (71.9% [62.2, 79.9]) and 24-0-0 with 2
(the docs' Agents page, "How the search defaults were chosen").

Exploration constant: returns are normalised to ``[0, 1]`` with the game's
``reward_range``, and ``c`` defaults to 0.7 (the value Cowling, Powley and Whitehouse
used for ISMCTS with rewards in [0, 1]; sqrt(2)/2 ~ 0.71, half of UCB1's sqrt(2)).

**PUCT with a policy/value network** (``network=``, AlphaZero-style, Silver et al. 2018):
the same determinized descents, but no rollouts. ``network(observations) -> (logits,
values)`` takes a float32 batch ``[n, *observation_shape]`` of observations (exactly what
the game's ``observe`` kernel gives, the env's observation) and returns the action logits
``[n, num_actions]`` and the value ``[n]`` of the observed player, in the game's reward
units (``mushgym.agents.ppo.PolicyAgent.policy_value`` wraps a PPO model so). Each leaf
of the tree, reached in a determinization ``d``, is evaluated by observing ``d`` once for
every player ``q`` (``observe(d, q)``: the searcher's own view of the leaf, and each
other player's view *in that determinization*, so the network never reads the true
hidden cards):

* prior ``P(s, a)``: softmax of the acting player's logits, **over the actions legal in
  the determinization being searched** (the network's weights for all actions are kept;
  an illegal action never gets prior mass; a node whose legal actions all had zero
  weight falls back to uniform);
* values: ``V_q(s)`` from player ``q``'s own observation, normalised to ``[0, 1]`` with
  ``reward_range`` (clipped), backed up for every player, so with N players each
  maximises its own value, as with rollouts.

Selection maximises ``Q_p(s, a) + c * P(s, a) * sqrt(N(s)) / (1 + N(s, a))`` for the
player ``p`` to act, where an unvisited action's ``Q`` is the node's own mean value for
``p`` (first-play urgency). ``c`` defaults to 1.25 (AlphaZero's ``c_init``). Terminal
states met in a descent are scored by the game's returns and need no network call.

The network is called on **batches**: the compiled ``puct_collect`` runs descents until
``batch`` of them end at leaves needing evaluation (a *virtual loss* of ``virtual_loss``
visits worth 0 on each node of a pending path steers the next descents elsewhere), hands
their observations to Python, ``network`` evaluates them in one call, and the compiled
``puct_apply`` expands the leaves (first evaluation of a node sets its priors) and backs
the values up. With ``batch=1`` the virtual loss never acts (it is removed before the
next descent): that is sequential PUCT. With ``batch=K`` the first K descents all stop at
the root (it has no priors yet): K value samples of the root, one network call. The tree's arrays (node table,
per-player value
sums, a prior row and a child-index row per expanded node) are preallocated per searcher.

**Leaf pooling across trees**: ``search_many`` (what ``MCTSAgent.act_batch`` calls for the
games of a batch) grows the PUCT trees of all its rows and root-parallel trees together, up
to ``pool_trees`` (default 32, fewer if their prior tables would pass 256 MB) at a time: each
round, every unfinished tree runs ``puct_collect`` and one network call evaluates the leaves
of all of them, so 64 games searched at once make 64 times fewer, larger calls. Every tree
still grows exactly as if searched alone (its descents depend on its own generator and its
own leaves' evaluations), given a network that evaluates each observation of a batch
independently (an MLP does, up to the last bits of float rounding across batch sizes).
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .core.search import NODE_FIELDS, OPTIONAL, PUCT_NODE_FIELDS, search_source
from .game import MASK_DTYPE, Game
from .search_config import (  # noqa: F401  (the settings' choices and defaults, named here too)
    DEFAULT_BATCH,
    DEFAULT_C,
    DEFAULT_C_PUCT,
    DEFAULT_POOL,
    DEFAULT_POOL_TREES,
    ROLLOUTS,
    VALUES,
    WIDEN_ORDERS,
    SearchConfig,
)
from .search_kernels import _package_module, determinization_mode, find_kernel, kernel_home, tuned_setting  # noqa: F401  (named here too: mushgym.search.find_kernel)

POOL_BYTES = 256 << 20  # the pooled PUCT trees' prior and child tables together stay below this

_namespaces: dict[tuple[str, str], dict] = {}
_lock = threading.Lock()


def search_part(kernels):
    """The search loop generated for the kernel module ``kernels`` (a :class:`~mushgym.core.codegen.Part`)."""
    from .core.codegen import Part

    found = {name: home for name in OPTIONAL if (home := kernel_home(kernels, name)) is not None}
    body, imports = search_source(kernels.__name__.rpartition(".")[2], found)
    return Part(
        kernels.__name__,
        "search",
        kernels.__name__.rpartition(".")[2] + "_search",
        body,
        imports,
        what=f"the kernels of {kernels.__name__}" + "".join(f", {n} of its module {m}" for n, m in found.items()),
    )


def search_namespace(game: Game, mode: str) -> dict:
    """The compiled search loop for ``game``'s kernels: the globals of its generated module
    (``generated/<kernels>_search.py``, checked against the game's kernels)."""
    from .core.codegen import check_current

    kernels = game.kernels
    key = (kernels.__name__, mode)
    with _lock:
        ns = _namespaces.get(key)
        if ns is None:
            ns = vars(check_current(search_part(kernels)))
            _namespaces[key] = ns
    return ns


class _Buffers:
    """One tree's preallocated arrays (reused by every search of that tree slot)."""

    def __init__(self, game: Game, max_nodes: int) -> None:
        self.nodes = np.zeros((max_nodes, NODE_FIELDS), np.int64)
        self.values = np.zeros(max_nodes, np.float64)
        self.path = np.zeros(max_nodes + 1, np.int64)
        self.state = np.zeros(game.state_size, np.int64)
        self.mask = np.zeros(game.num_actions, MASK_DTYPE)
        self.mark = np.zeros(game.num_actions, MASK_DTYPE)
        self.rets = np.zeros(game.num_players, np.float64)
        self.work = np.zeros(max(1, game.work_size), np.int64)
        self.rng = np.zeros(4, np.int64)


class _PuctBuffers(_Buffers):
    """One PUCT tree's preallocated arrays: the node table, per-player value sums, a prior row
    and a child-index row per expanded node, and one batch of pending leaves."""

    def __init__(self, game: Game, max_nodes: int, batch: int, max_depth: int) -> None:
        super().__init__(game, 1)
        P, A = game.num_players, game.num_actions
        self.pn = np.zeros((max_nodes, PUCT_NODE_FIELDS), np.int64)
        self.pw = np.zeros((max_nodes, P), np.float64)
        self.prior = np.zeros((max_nodes, A), np.float32)
        self.child = np.full((max_nodes, A), -1, np.int32)
        self.counters = np.zeros(3, np.int64)
        self.paths = np.zeros((batch, max_depth + 1), np.int64)
        self.depths = np.zeros(batch, np.int64)
        self.leaf_player = np.zeros(batch, np.int64)
        self.obs = np.zeros((batch * P, *game.observation_shape), np.float32)
        self.weights = np.zeros((batch, A), np.float32)
        self.leaf_values = np.zeros((batch, P), np.float64)


class Searcher:
    """SO-ISMCTS for one game (see the module docstring).

    ``simulations`` iterations per tree; ``threads`` root-parallel trees (each with
    ``simulations`` iterations and its own generator), run on that many threads and
    merged by summing root visit counts. ``seed`` with the state fixes the result:
    each tree's generator is seeded from ``(seed, tree, digest of the player's observation)``,
    so with a determinizer that draws from what the player knows only (Fungi's and
    Mycology's put the unseen cards in a canonical order first) the move does not change
    when the hidden part of the state is redrawn.
    """

    def __init__(self, game: Game, config: SearchConfig | None = None, network: Any = None, **settings: Any) -> None:
        """``config`` (a :class:`SearchConfig`; default: its defaults) with any ``settings``
        given by name over it (``Searcher(game, simulations=400, rollout="auto")``);
        ``network``, a callable ``observations -> (logits, values)``, makes the search PUCT."""
        if network is not None and not callable(network):
            raise ValueError(f"network must be a callable observations -> (logits, values), got {network!r}")
        self.config = SearchConfig.with_settings(config, **settings).resolve(game, has_network=network is not None)
        self.game = game
        self.network = network
        self.last_root_prior: np.ndarray | None = None
        self.network_calls = 0
        self.simulations = self.config.simulations
        self.threads = self.config.threads
        self.seed = int(self.config.seed) & 0xFFFFFFFFFFFF
        self.mode = determinization_mode(game)
        self.ns = search_namespace(game, self.mode)
        lo, hi = game.spec.reward_range
        self.lo, self.hi = float(lo), float(hi)
        self.rng_off = int(getattr(game.kernels, "RNG", -1)) if game.spec.chance else -1
        self.max_len = int(game.spec.max_game_length)
        self._buffers: list[_Buffers] = []
        self._executor: ThreadPoolExecutor | None = None
        self.last_nodes = 0

    # --- one tree ------------------------------------------------------------------
    def _buffer(self, slot: int) -> _Buffers:
        while len(self._buffers) <= slot:
            if self.network is None:
                self._buffers.append(_Buffers(self.game, self.simulations + 1))
            else:
                depth = min(self.simulations + 1, self.max_len + 1)
                self._buffers.append(_PuctBuffers(self.game, self.simulations + 1, self.config.batch, depth))
        return self._buffers[slot]

    def _roots(self, state: np.ndarray, player: int, tree_seed: int) -> np.ndarray:
        if self.mode != "pool":
            return state.reshape(1, -1)
        rng = np.random.default_rng(tree_seed)
        return np.stack([self.game.perturb_hidden(state, player, rng) for _ in range(self.config.pool)])

    def _tree_seed(self, state: np.ndarray, player: int, tree: int, work: np.ndarray) -> int:
        """From the seed, the tree and what ``player`` sees (never the hidden part of the state)."""
        obs = np.zeros(self.game.observation_shape, np.float32)
        self.game.kernels.observe(state, int(player), self.game.config, obs, work)
        h = hashlib.blake2b(obs.tobytes(), digest_size=8, key=f"{self.seed}:{int(player)}:{tree}".encode()).digest()
        return int.from_bytes(h, "little") & 0xFFFFFFFFFFFFFFF

    def _run_tree(
        self, slot: int, state: np.ndarray, player: int, tree: int, visits: np.ndarray, values: np.ndarray
    ) -> int:
        b = self._buffer(slot)
        seed = self._tree_seed(state, player, tree, b.work)
        self.ns["search_rng_seed"](b.rng, seed)
        roots = self._roots(state, player, seed)
        if self.network is not None:
            return self._run_puct(b, roots, int(player), visits, values)
        return int(
            self.ns["mcts_search"](
                roots,
                roots.shape[0],
                1 if self.mode == "kernel" else 0,
                int(player),
                self.simulations,
                self.config.c,
                1 if self.config.rollout == "greedy" else 0,
                1 if self.config.value == "game" else 0,
                self.config.widen,
                1 if self.config.widen_order == "ranked" else 0,
                self.config.horizon,
                self.rng_off,
                self.lo,
                self.hi,
                self.max_len,
                self.game.config,
                b.nodes,
                b.values,
                b.state,
                b.mask,
                b.mark,
                b.rets,
                b.work,
                b.rng,
                b.path,
                visits,
                values,
            )
        )

    def _evaluate(self, b: _PuctBuffers, n: int) -> None:
        """The network on ``n`` pending leaves: prior weights ``b.weights[:n]`` (exp of the acting
        player's logits, unnormalised) and per-player values ``b.leaf_values[:n]`` in [0, 1]."""
        logits, vals = self.network(b.obs[: n * self.game.num_players])
        self.network_calls += 1
        self._take_evaluation(b, n, *self._check_evaluation(logits, vals, n * self.game.num_players))

    def _check_evaluation(self, logits, vals, rows: int) -> tuple[np.ndarray, np.ndarray]:
        A = self.game.num_actions
        logits = np.asarray(logits, dtype=np.float64).reshape(rows, -1)
        vals = np.asarray(vals, dtype=np.float64).reshape(-1)
        if logits.shape[1] != A or vals.shape[0] != rows:
            raise ValueError(
                f"network returned logits {logits.shape} and values {vals.shape} for {rows} "
                f"observations; expected ({rows}, {A}) and ({rows},)"
            )
        return logits, vals

    def _take_evaluation(self, b: _PuctBuffers, n: int, logits: np.ndarray, vals: np.ndarray) -> None:
        P = self.game.num_players
        own = logits[np.arange(n) * P + b.leaf_player[:n]]
        own = np.where(np.isfinite(own), own, -np.inf)
        top = own.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0
        b.weights[:n] = np.exp(own - top)
        scale = 1.0 / (self.hi - self.lo) if self.hi > self.lo else 1.0
        b.leaf_values[:n] = np.clip(
            (np.nan_to_num(vals, nan=0.5 * (self.lo + self.hi)) - self.lo) * scale, 0.0, 1.0
        ).reshape(n, P)

    def _collect(self, b: _PuctBuffers, roots: np.ndarray, player: int) -> int:
        return int(
            self.ns["puct_collect"](
                roots,
                roots.shape[0],
                1 if self.mode == "kernel" else 0,
                player,
                self.config.batch,
                self.simulations,
                self.config.virtual_loss,
                self.config.c,
                self.rng_off,
                self.lo,
                self.hi,
                self.game.config,
                b.pn,
                b.pw,
                b.prior,
                b.child,
                b.counters,
                b.state,
                b.mask,
                b.rets,
                b.work,
                b.rng,
                b.paths,
                b.depths,
                b.leaf_player,
                b.obs,
            )
        )

    def _apply(self, b: _PuctBuffers, n: int) -> None:
        self.ns["puct_apply"](n, b.pn, b.pw, b.prior, b.child, b.counters, b.paths, b.depths, b.weights, b.leaf_values)

    def _run_puct(self, b: _PuctBuffers, roots: np.ndarray, player: int, visits: np.ndarray, values: np.ndarray) -> int:
        self.ns["puct_begin"](b.pn, b.pw, b.counters)
        while b.counters[2] < self.simulations:
            n = self._collect(b, roots, player)
            if n:
                self._evaluate(b, n)
                self._apply(b, n)
        return self._puct_result(b, roots, player, visits, values)

    def _puct_result(
        self, b: _PuctBuffers, roots: np.ndarray, player: int, visits: np.ndarray, values: np.ndarray
    ) -> int:
        """Add the root's children's visits and values into ``visits`` / ``values``."""
        slot = int(b.pn[0, 2])
        if slot >= 0:
            kids = b.child[slot]
            has = np.flatnonzero(kids >= 0)
            visits[has] += b.pn[kids[has], 3]
            values[has] += b.pw[kids[has], player]
            mask = self.game.legal_mask(roots[0])
            w = np.where(mask != 0, b.prior[slot].astype(np.float64), 0.0)
            self.last_root_prior = w / w.sum() if w.sum() > 0 else (mask != 0) / max(1, np.count_nonzero(mask))
        return int(b.counters[0])

    def _run_puct_pooled(
        self, jobs: list, states: np.ndarray, players: np.ndarray, visits: np.ndarray, values: np.ndarray
    ) -> int:
        """PUCT for several trees at once (``jobs``: (row, tree) pairs), in lockstep: each round
        every unfinished tree collects its batch of leaves, and ONE network call evaluates the
        leaves of all of them (leaf pooling across trees and games). Each tree's descents depend
        only on its own generator and its own leaves' evaluations, so every tree grows exactly
        as when searched alone (with a network that evaluates each observation independently
        of the others in its batch); only the number and size of the calls change."""
        P = self.game.num_players
        used = 0
        # at most pool_trees trees at once, and their prior and child tables within POOL_BYTES
        per_tree = (self.simulations + 1) * self.game.num_actions * 8
        width = max(1, min(self.config.pool_trees, POOL_BYTES // per_tree))
        for start in range(0, len(jobs), width):
            wave = []
            for slot, (i, t) in enumerate(jobs[start : start + width]):
                b = self._buffer(slot)
                player = int(players[i])
                seed = self._tree_seed(states[i], player, t, b.work)
                self.ns["search_rng_seed"](b.rng, seed)
                roots = self._roots(states[i], player, seed)
                self.ns["puct_begin"](b.pn, b.pw, b.counters)
                wave.append((b, roots, player, i, t))
            active = wave
            while active:
                pending = []
                for job in active:
                    n = self._collect(job[0], job[1], job[2])
                    if n:
                        pending.append((job[0], n))
                if pending:
                    obs = (
                        np.concatenate([b.obs[: n * P] for b, n in pending])
                        if len(pending) > 1
                        else pending[0][0].obs[: pending[0][1] * P]
                    )
                    logits, vals = self._check_evaluation(*self.network(obs), obs.shape[0])
                    self.network_calls += 1
                    at = 0
                    for b, n in pending:
                        self._take_evaluation(b, n, logits[at : at + n * P], vals[at : at + n * P])
                        self._apply(b, n)
                        at += n * P
                active = [job for job in active if job[0].counters[2] < self.simulations]
            for b, roots, player, i, t in wave:
                used = max(used, self._puct_result(b, roots, player, visits[i, t], values[i, t]))
        return used

    # --- public ----------------------------------------------------------------------
    def search_many(self, states: np.ndarray, players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Root visit counts and summed values ``[n, num_actions]`` for each ``(state, player)``,
        every row searched with ``threads`` trees; jobs spread over ``threads`` threads. With a
        network, the trees of all rows (up to ``pool_trees`` at a time) are grown in lockstep on
        the calling thread and share each network call (leaf pooling; each tree grows as when
        searched alone)."""
        states = np.ascontiguousarray(states, dtype=np.int64).reshape(-1, self.game.state_size)
        players = np.asarray(players, dtype=np.int64).reshape(-1)
        n = states.shape[0]
        A = self.game.num_actions
        visits = np.zeros((n, self.threads, A), np.int64)
        values = np.zeros((n, self.threads, A), np.float64)
        jobs = [(i, t) for i in range(n) for t in range(self.threads)]
        if self.network is not None and len(jobs) > 1:
            self.last_nodes = self._run_puct_pooled(jobs, states, players, visits, values)
            return visits.sum(axis=1), values.sum(axis=1)
        workers = min(self.threads, len(jobs))
        self._buffer(max(workers, 1) - 1)  # every slot's arrays exist before the threads start

        def run(slot: int) -> int:
            used = 0
            for i, t in jobs[slot::workers]:
                used = max(used, self._run_tree(slot, states[i], int(players[i]), t, visits[i, t], values[i, t]))
            return used

        if workers <= 1:
            used = [run(0)]
        else:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="mcts")
            used = list(self._executor.map(run, range(workers)))
        self.last_nodes = max(used) if used else 0
        return visits.sum(axis=1), values.sum(axis=1)

    def search(self, state: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
        """Root visit counts and summed values per action for ``player`` to act in ``state``."""
        self.game.validate(state)
        if self.game.is_terminal(state):
            raise ValueError(f"{self.game.env_id}: the game is over; there is nothing to search")
        if int(player) != self.game.current_player(state):
            raise ValueError(
                f"{self.game.env_id}: player {player} is not to act (player {self.game.current_player(state)} is)"
            )
        v, w = self.search_many(state[None], np.array([player]))
        return v[0], w[0]

    @staticmethod
    def choose(visits: np.ndarray, values: np.ndarray, mask: np.ndarray) -> int:
        """The most visited legal action (ties: the best mean value, then the lowest id)."""
        legal = np.flatnonzero(mask)
        v = visits[legal]
        top = legal[v == v.max()]
        if top.size > 1:
            mean = values[top] / np.maximum(visits[top], 1)
            top = top[mean == mean.max()]
        return int(top[0])

    def best_action(self, state: np.ndarray, player: int) -> int:
        visits, values = self.search(state, player)
        return self.choose(visits, values, self.game.legal_mask(state))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None

    def __del__(self) -> None:  # pragma: no cover - interpreter shutdown order
        try:
            self.close()
        except Exception:
            pass

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_executor"] = None
        d["_buffers"] = []
        d["ns"] = None
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self.ns = search_namespace(self.game, self.mode)
