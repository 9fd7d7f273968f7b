"""Play whole games between agents: :mod:`mushgym.episodes` (many games in lockstep,
one ``act_batch`` call per agent per tick) with game ids and seed ranges."""

from __future__ import annotations

from typing import Sequence

from mushgym.episodes import BATCH_SIZE, play

from .base import Agent


def _as_game(game_or_id, **options):
    if isinstance(game_or_id, str):
        import mushgym

        return mushgym.game(game_or_id, **options)
    return game_or_id


def play_games(game, seat_agents: Sequence[Agent], n_games: int, seed: int = 0,
               batch_size: int = BATCH_SIZE, max_steps: int | None = None) -> dict:
    """Play ``n_games`` games with ``seat_agents[p]`` in seat ``p``.

    Game ``i`` is dealt from seed ``seed + i``. Returns ``returns`` (float64
    ``[n_games, num_players]``), ``lengths`` (steps per game) and ``steps``.
    """
    if n_games < 1:
        raise ValueError(f"n_games must be positive, got {n_games}")
    return play_seeds(game, seat_agents, [seed + i for i in range(n_games)], batch_size, max_steps)


def play_seeds(game, seat_agents: Sequence[Agent], seeds: Sequence[int], batch_size: int = BATCH_SIZE,
               max_steps: int | None = None) -> dict:
    """Like :func:`play_games`, one game per seed of ``seeds``."""
    return play(_as_game(game), seat_agents, seeds, batch_size=batch_size, max_steps=max_steps)
