"""Play whole games between agents: :mod:`mushgym.episodes` (many games in lockstep,
one ``act_batch`` call per agent per tick) with game ids and seed ranges.

``replays=FOLDER`` saves games as replay files (:mod:`mushgym.replay`), each move with the
acting agent's candidates where it gives them (``replay_games``: how many of the games, the
first ones; default all)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from mushgym.episodes import BATCH_SIZE, play
from mushgym.replay import ReplayRecorder

from .base import Agent


def _as_game(game_or_id, **options):
    if isinstance(game_or_id, str):
        import mushgym

        return mushgym.game(game_or_id, **options)
    return game_or_id


def play_games(
    game,
    seat_agents: Sequence[Agent],
    n_games: int,
    seed: int = 0,
    batch_size: int = BATCH_SIZE,
    max_steps: int | None = None,
    replays: str | Path | None = None,
    replay_games: int | None = None,
) -> dict:
    """Play ``n_games`` games with ``seat_agents[p]`` in seat ``p``.

    Game ``i`` is dealt from seed ``seed + i``. Returns ``returns`` (float64
    ``[n_games, num_players]``), ``lengths`` (steps per game) and ``steps``; with
    ``replays``, also ``replay_files`` (the paths written).
    """
    if n_games < 1:
        raise ValueError(f"n_games must be positive, got {n_games}")
    return play_seeds(
        game,
        seat_agents,
        [seed + i for i in range(n_games)],
        batch_size,
        max_steps,
        replays=replays,
        replay_games=replay_games,
    )


def play_seeds(
    game,
    seat_agents: Sequence[Agent],
    seeds: Sequence[int],
    batch_size: int = BATCH_SIZE,
    max_steps: int | None = None,
    replays: str | Path | None = None,
    replay_games: int | None = None,
) -> dict:
    """Like :func:`play_games`, one game per seed of ``seeds``."""
    game = _as_game(game)
    if replays is None:
        return play(game, seat_agents, seeds, batch_size=batch_size, max_steps=max_steps)
    seeds = [int(s) for s in seeds]
    names = [getattr(a, "name", type(a).__name__) for a in seat_agents]
    wanted = range(len(seeds) if replay_games is None else min(int(replay_games), len(seeds)))
    recorder = ReplayRecorder(game, replays, seeds, names, games=wanted)
    result = play(game, seat_agents, seeds, batch_size=batch_size, max_steps=max_steps, on_step=recorder, explain=True)
    result["replay_files"] = recorder.finish(result)
    return result
