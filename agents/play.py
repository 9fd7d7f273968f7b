"""Play whole games between agents with the functional API, many games in lockstep.

Games of a batch advance together; at each tick the games are grouped by the
agent to move and each group is decided with one ``act_batch`` call (one network
forward pass for a neural policy), or one ``act_state`` call per game for agents
that look ahead with the functional API.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from mushgym.game import MASK_DTYPE, OBS_DTYPE

from .base import Agent


def _as_game(game_or_id, **options):
    if isinstance(game_or_id, str):
        import mushgym

        return mushgym.game(game_or_id, **options)
    return game_or_id


def play_games(game, seat_agents: Sequence[Agent], n_games: int, seed: int = 0,
               batch_size: int = 128, max_steps: int | None = None) -> dict:
    """Play ``n_games`` games with ``seat_agents[p]`` in seat ``p``.

    Game ``i`` is dealt from seed ``seed + i``. Returns ``returns`` (float64
    ``[n_games, num_players]``), ``lengths`` (steps per game) and ``steps``.
    """
    if n_games < 1:
        raise ValueError(f"n_games must be positive, got {n_games}")
    return play_seeds(game, seat_agents, [seed + i for i in range(n_games)], batch_size, max_steps)


def play_seeds(game, seat_agents: Sequence[Agent], seeds: Sequence[int], batch_size: int = 128,
               max_steps: int | None = None) -> dict:
    """Like :func:`play_games`, one game per seed of ``seeds``."""
    game = _as_game(game)
    n_games = len(seeds)
    P = game.num_players
    if len(seat_agents) != P:
        raise ValueError(f"{game.env_id} is played by {P} players; got {len(seat_agents)} agents")
    k = game.kernels
    cfg = game.config
    limit = max_steps or game.spec.max_game_length
    returns = np.zeros((n_games, P), dtype=np.float64)
    lengths = np.zeros(n_games, dtype=np.int64)
    for start in range(0, n_games, batch_size):
        n = min(batch_size, n_games - start)
        states = [game.new_state(int(seeds[start + i])) for i in range(n)]
        masks = np.zeros((n, game.num_actions), dtype=MASK_DTYPE)
        obs = np.zeros((n, *game.observation_shape), dtype=OBS_DTYPE)
        active = [i for i in range(n) if not k.is_terminal(states[i])]
        steps = np.zeros(n, dtype=np.int64)
        while active:
            groups: dict[int, list[int]] = {}
            players = {}
            for i in active:
                p = int(k.current_player(states[i]))
                players[i] = p
                groups.setdefault(id(seat_agents[p]), []).append(i)
                masks[i] = 0
                k.legal_mask(states[i], cfg, masks[i], game.work)
                k.observe(states[i], p, cfg, obs[i], game.work)
            for idx in groups.values():
                agent = seat_agents[players[idx[0]]]
                if agent.uses_state:
                    acts = [agent.act_state(game, states[i], players[i], obs[i], masks[i]) for i in idx]
                else:
                    acts = agent.act_batch(obs[idx], masks[idx])
                for i, a in zip(idx, acts):
                    a = int(a)
                    if not (0 <= a < game.num_actions and masks[i, a]):
                        raise ValueError(f"{agent!r} chose illegal action {a} in {game.env_id} "
                                         f"(seat {players[i]}, game seed {seeds[start + i]})")
                    k.step(states[i], a, cfg, game.work)
                    steps[i] += 1
            still = []
            for i in active:
                if k.is_terminal(states[i]):
                    continue
                if steps[i] >= limit:
                    raise RuntimeError(f"{game.env_id}: game seed {seeds[start + i]} did not end "
                                       f"within {limit} steps")
                still.append(i)
            active = still
        for i in range(n):
            k.returns(states[i], cfg, returns[start + i])
        lengths[start:start + n] = steps
    return {"returns": returns, "lengths": lengths, "steps": int(lengths.sum())}
