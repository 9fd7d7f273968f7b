"""Self-play with a search expert: the positions expert iteration learns from.

    from mushgym.agents.selfplay import SelfPlay, new_network
    worker = SelfPlay("fungi_v0", games=64, simulations=400, seed=0)     # MCTS with the game's rollouts
    data = worker.play(positions=2_000)          # obs, masks, policy targets, returns, ...
    worker.set_network(net_arch=[256, 256], weights=policy.state_dict())  # from now on PUCT with it

:class:`SelfPlay` plays ``games`` games in lockstep, every seat by the same expert. At each
tick it searches the position of every running game in one :meth:`Searcher.search_many
<mushgym.search.Searcher.search_many>` call: information-set MCTS with the game's compiled
rollouts while there is no network (``rollout``, ``value``, ``widen``, ``widen_order`` and
``horizon`` all ``"auto"``: what ``mcts:SIMS`` plays), PUCT with the network as prior and leaf value once
:meth:`SelfPlay.set_network` gave it one (the trees of all games share each network call).
The search sees only what its player sees: the game's determinizer redraws every hidden card
before each simulation, and the network is fed observations, never the state.

Each decision becomes a sample: the mover's observation (exactly the env's), its legal
actions, the search's root visit distribution (the policy target) and, once the game is
over, the mover's return (the value target). With ``opponent="greedy"`` (any agent name of
:func:`mushgym.agents.factory.make_agent`) half of each game's seats are that fixed agent's
(seats 0 and 2 of four in one game, 1 and 3 in the next); only the expert's decisions are
searched and become samples: a network distilled from them learns to beat that opponent, on
the positions its games against it reach. Exploration: for the first ``explore_moves``
decisions of each game the move is drawn from the visit distribution (temperature 1), after
that it is the most visited move. Root Dirichlet noise (AlphaZero) is not used: the
determinizers already give every search a different world, and the temperature spreads the
openings.

The class holds plain data and compiled kernels only, so a Ray actor can own one
(:mod:`mushgym.agents.expert_ray`).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

import mushgym
from mushgym.episodes import EpisodeBatch, decide
from mushgym.search import Searcher

try:  # the train extra
    import torch
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mushgym.agents.selfplay needs the train extra: pip install 'mushgym[train]' (missing: {e.name})"
    ) from e

from mushgym.weights import one_torch_thread
from mushgym.wrappers import make_encoder

SAMPLE_FIELDS = ("obs", "masks", "policy", "returns", "players", "lengths")


def new_network(game, net_arch=(256, 256), encoder: str = "scaled", activation: str = "tanh"):
    """A fresh policy/value network for ``game``: sb3-contrib's MaskableActorCriticPolicy (what
    :func:`mushgym.agents.ppo_policy.save_policy_weights` saves and ``load_policy`` rebuilds), and
    its observation encoder."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from .ppo_policy import ACTIVATIONS

    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}; choices: {sorted(ACTIVATIONS)}")
    enc = make_encoder(encoder, game)
    policy = MaskableActorCriticPolicy(
        enc.space,
        spaces.Discrete(game.num_actions),
        lambda _: 0.0,
        net_arch=[int(n) for n in net_arch],
        activation_fn=ACTIVATIONS[activation],
    )
    policy.set_training_mode(False)
    return policy, enc


class SelfPlay:
    """``games`` games of ``env_id`` in lockstep, every move chosen by a search (module docstring).

    ``simulations`` per move, one tree per move; ``threads`` searchers on as many cores, each
    searching its share of the games; ``puct_simulations`` per move once a
    network is set (default ``simulations``); ``explore_moves`` decisions per game drawn from
    the visit distribution; ``opponent`` (an agent name, default none) plays half the seats.
    ``seed`` fixes the deals and every search.
    """

    def __init__(
        self,
        env_id: str,
        options: dict[str, Any] | None = None,
        games: int = 64,
        simulations: int = 400,
        puct_simulations: int | None = None,
        threads: int = 1,
        explore_moves: int = 10,
        batch: int = 8,
        seed: int = 0,
        opponent: str | None = None,
    ) -> None:
        for name, value in (("games", games), ("simulations", simulations), ("threads", threads), ("batch", batch)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"SelfPlay: {name} must be a positive integer, got {value!r}")
        if isinstance(explore_moves, bool) or not isinstance(explore_moves, (int, np.integer)) or explore_moves < 0:
            raise ValueError(f"SelfPlay: explore_moves must be an integer >= 0, got {explore_moves!r}")
        self.game = mushgym.game(env_id, **(options or {}))
        self.env_id, self.options = env_id, dict(options or {})
        self.games, self.threads, self.batch = int(games), int(threads), int(batch)
        self.simulations = int(simulations)
        self.puct_simulations = int(puct_simulations or simulations)
        self.explore_moves = int(explore_moves)
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.network = None  # a PolicyAgent once set_network is called
        self.network_version = -1
        self.searches = 0
        self.timers = {"search": 0.0, "network": 0.0, "game": 0.0}
        self.counts = {"positions": 0, "games": 0, "simulations": 0}
        # one searcher per thread, each searching its share of the games' rows (one tree per move)
        self._mcts = [
            Searcher(
                self.game,
                simulations=self.simulations,
                rollout="auto",
                value="auto",
                widen="auto",
                widen_order="auto",
                horizon="auto",
                seed=self._next_seed(),
            )
            for _ in range(self.threads)
        ]
        self._puct: list[Searcher] | None = None
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="selfplay") if self.threads > 1 else None
        self._batch = EpisodeBatch(self.game, self.games, max_steps=self.game.spec.max_game_length)
        rows = np.arange(self.games, dtype=np.int64)
        self._batch.deal(rows, self._deals(self.games))
        self._moves = np.zeros(self.games, dtype=np.int64)
        self._pending: list[list[tuple]] = [[] for _ in range(self.games)]
        self._opponent = self._make_opponent(opponent)
        self._side = (
            np.arange(self.games, dtype=np.int64) % 2
        )  # per row: the parity of the expert's seats, flipped each deal

    def _make_opponent(self, opponent: str | None):
        """The fixed agent of the other seats (``opponent``), or None: every seat is the expert's."""
        if opponent is None or opponent == "":
            return None
        if not isinstance(opponent, str):
            raise ValueError(f"SelfPlay: opponent must be an agent name such as 'greedy', got {opponent!r}")
        from .factory import make_agent

        agent = make_agent(opponent, env_id=self.env_id, seed=self._next_seed())
        agent.reset(seed=self._next_seed())
        return agent

    @classmethod
    def from_hyper(cls, env_id: str, options: dict[str, Any], hp: dict, seed: int, threads: int) -> "SelfPlay":
        """The self-play worker of an expert-iteration run's settings ``hp``
        (:data:`mushgym.agents.expert.DEFAULTS`), in this process or in a Ray actor."""
        return cls(
            env_id,
            options,
            games=hp["games"],
            simulations=hp["simulations"],
            puct_simulations=hp["puct_simulations"],
            threads=threads,
            explore_moves=hp["explore_moves"],
            batch=hp["batch"],
            seed=seed,
            opponent=hp["opponent"] or None,
        )

    def _opponent_rows(self, rows: np.ndarray) -> np.ndarray:
        """Which of ``rows`` (running games) the opponent moves in: the seats whose parity is not
        the row's side (the expert holds seats 0 and 2 of four in one game, 1 and 3 in the next)."""
        if self._opponent is None:
            return np.zeros(rows.size, dtype=bool)
        return self._batch.players[rows] % 2 != self._side[rows]

    def _next_seed(self) -> int:
        return int(self.rng.integers(0, 2**48))

    def _deals(self, n: int) -> np.ndarray:
        return self.rng.integers(0, 2**62, size=n)

    @property
    def expert(self) -> str:
        """``"mcts"`` (the game's rollouts) or ``"puct"`` (with the network set last)."""
        return "puct" if self.network is not None else "mcts"

    def set_network(
        self,
        net_arch=None,
        weights: dict | None = None,
        encoder: str = "scaled",
        activation: str = "tanh",
        version: int = 0,
    ) -> None:
        """Search with PUCT from now on, the network (``net_arch`` sizes, ``weights`` a state dict
        of tensors or numpy arrays) as prior and leaf value; ``weights=None``: back to MCTS."""
        if weights is None:
            self.network, self._puct, self.network_version = None, None, -1
            return
        from .ppo_policy import PolicyAgent

        one_torch_thread()
        policy, enc = new_network(self.game, net_arch, encoder, activation)
        policy.load_state_dict({k: torch.as_tensor(np.asarray(v)) for k, v in weights.items()})
        for p in policy.parameters():
            p.requires_grad_(False)
        self.network = PolicyAgent(policy, enc, deterministic=True, name=f"network{version}")
        self.network_version = int(version)
        pv = self.network.policy_value
        timers = self.timers

        def timed(observations):
            t0 = time.perf_counter()
            out = pv(observations)
            timers["network"] += time.perf_counter() - t0
            return out

        # a batch of leaves as large as the budget would spend every simulation on the root
        batch = max(1, min(self.batch, self.puct_simulations // 4))
        self._puct = [
            Searcher(self.game, simulations=self.puct_simulations, network=timed, batch=batch, seed=self._next_seed())
            for _ in range(self.threads)
        ]

    def _search(self, rows: np.ndarray) -> np.ndarray:
        """Root visit counts of every row's position: the rows split in ``threads`` parts, each
        searched by its own searcher on its own thread (the compiled loops release the GIL, and so
        do torch's PUCT network calls)."""
        b = self._batch
        searchers = self._puct if self._puct is not None else self._mcts
        t0 = time.perf_counter()
        parts = [part for part in np.array_split(rows, len(searchers)) if part.size]
        if self._pool is None or len(parts) == 1:
            visits, _ = searchers[0].search_many(b.states[rows], b.players[rows])
        else:
            futures = [
                self._pool.submit(s.search_many, b.states[part], b.players[part]) for s, part in zip(searchers, parts)
            ]
            visits = np.concatenate([f.result()[0] for f in futures])
        self.timers["search"] += time.perf_counter() - t0
        self.counts["simulations"] += int(visits.sum())
        return visits

    def _choose(self, rows: np.ndarray, visits: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.empty(rows.size, dtype=np.int64)
        for j in range(rows.size):
            v = np.where(masks[j] != 0, visits[j], 0).astype(np.float64)
            if v.sum() <= 0:  # a tree that never left the root: uniform over the legal moves
                v = (masks[j] != 0).astype(np.float64)
            if self._moves[rows[j]] < self.explore_moves:
                actions[j] = int(self.rng.choice(v.size, p=v / v.sum()))
            else:
                actions[j] = Searcher.choose(v, v, masks[j])
        return actions

    def play(self, positions: int) -> dict[str, np.ndarray]:
        """Play on until at least ``positions`` decisions of finished games are ready; returns
        them (``SAMPLE_FIELDS``; ``obs`` raw observations, ``policy`` float32 visit
        distributions, ``returns`` the mover's final return) and ``games`` finished."""
        if isinstance(positions, bool) or not isinstance(positions, (int, np.integer)) or positions < 1:
            raise ValueError(f"SelfPlay.play: positions must be a positive integer, got {positions!r}")
        b = self._batch
        out: list[tuple] = []
        ready = finished = 0
        while ready < positions:
            running = b.running()
            theirs = self._opponent_rows(running)
            rows = running[~theirs]
            masks = b.masks[rows].copy()
            visits = self._search(rows) if rows.size else np.zeros((0, self.game.num_actions), np.int64)
            actions = self._choose(rows, visits, masks)
            total = np.maximum(np.where(masks != 0, visits, 0).sum(axis=1, keepdims=True), 1)
            policy = (np.where(masks != 0, visits, 0) / total).astype(np.float32)
            for j, i in enumerate(rows):
                if visits[j][masks[j] != 0].sum() > 0:  # a search that never left the root teaches nothing
                    self._pending[i].append((b.obs[i].copy(), masks[j] != 0, policy[j], int(b.players[i])))
            t0 = time.perf_counter()
            if theirs.any():
                them = running[theirs]
                rows = np.concatenate([rows, them])
                actions = np.concatenate([actions, decide(self._opponent, self.game, b, them)])
            bad = b.step(rows, actions)
            self.timers["game"] += time.perf_counter() - t0
            if bad >= 0:
                raise RuntimeError(
                    f"{self.env_id}: the search or the opponent chose an illegal action "
                    f"(game row {rows[bad % rows.size]})"
                )
            self._moves[rows] += 1
            over = rows[b.players[rows] < 0]
            for i in over:
                returns = b.rewards[i].copy()
                n = len(self._pending[i])
                out.extend((o, m, p, np.float32(returns[q]), q, n) for o, m, p, q in self._pending[i])
                ready += n
                finished += 1
                self._pending[i] = []
            overran = b.overran(over)
            if overran.size:
                raise RuntimeError(f"{self.env_id}: a self-play game did not end within its proven length")
            if over.size:
                b.deal(over, self._deals(over.size))
                self._moves[over] = 0
                self._side[over] ^= 1
        self.counts["positions"] += ready
        self.counts["games"] += finished
        obs, masks, policy, returns, players, lengths = (
            np.stack(col) if k < 3 else np.asarray(col) for k, col in enumerate(zip(*out))
        )
        return {
            "obs": obs,
            "masks": masks,
            "policy": policy,
            "returns": returns.astype(np.float32),
            "players": players.astype(np.int64),
            "lengths": lengths.astype(np.int64),
            "games": np.int64(finished),
        }

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def stats(self) -> dict[str, Any]:
        """Counters and seconds so far: positions, games, simulations; search (network included), network,
        game; and the process's CPU seconds (``time.process_time``: an actor's own, in its process)."""
        return {
            **self.counts,
            "cpu_seconds": time.process_time(),
            **{f"seconds_{k}": v for k, v in self.timers.items()},
            "expert": self.expert,
            "network_version": self.network_version,
        }
