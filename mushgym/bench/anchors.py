"""Peer libraries through the same loops, measured in the same run: PettingZoo's classic
games through the AEC loop and OpenSpiel's games through a Python loop."""

from __future__ import annotations

import time

import numpy as np

from .measure import Row, make_row, timed
from .rows import aec_random_loop


def bench_anchors(budget: float, repeats: int) -> list[Row]:
    rows: list[Row] = []
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    except Exception as exc:  # pragma: no cover - depends on optional installs
        rows.append(Row("anchors", "PettingZoo classic", None, note=f"not installed: {exc}"))
    else:
        for name, mod in (("connect_four_v3", connect_four_v3), ("tictactoe_v3", tictactoe_v3)):
            e = mod.env()
            aec_random_loop(e, 0.05)
            rows.append(
                make_row(
                    "anchors",
                    f"PettingZoo {name} (AEC loop, wrapped)",
                    1,
                    timed(lambda b, e=e: aec_random_loop(e, b), budget, repeats),
                )
            )
    try:
        import pyspiel
    except Exception as exc:  # pragma: no cover
        rows.append(Row("anchors", "OpenSpiel", None, note=f"not installed: {exc}"))
    else:
        for name in ("connect_four", "leduc_poker"):
            g = pyspiel.load_game(name)
            rng = np.random.default_rng(0)
            _openspiel_loop(g, rng, 0.05)
            rows.append(
                make_row(
                    "anchors",
                    f"OpenSpiel {name} (Python loop)",
                    1,
                    timed(lambda b, g=g, rng=rng: _openspiel_loop(g, rng, b), budget, repeats),
                )
            )
    return rows


def _openspiel_loop(game, rng, budget: float) -> tuple[int, int]:
    """Random games: uniform over legal actions, chance sampled from its outcomes; decisions counted."""
    steps = games = 0
    t_end = time.perf_counter() + budget
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                state.apply_action(outcomes[k][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
        games += 1
        if time.perf_counter() >= t_end:
            return steps, games
