"""Simulation figures of Mycelia's designed data (RULES.md, "Simulation figures").

    python -m mushgym.envs.mycelia.simulate --games 200

Random play (uniform legal actions) and greedy play for several tables: game length in
steps and turns, how games end, final scores, how often each decay action and each
Automata branch fires. Everything comes from the state's event counters (``STATS``).
"""

from __future__ import annotations

import argparse

import numpy as np

from . import rules as R
from .data import DECAYS
from .game import MyceliaGame

AUTO_BRANCHES = ("fruit", "decay", "spore", "move", "explore", "insect-move")


def play(game: MyceliaGame, seed: int, policies) -> np.ndarray:
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    steps = 0
    while not game.is_terminal(s):
        p = game.current_player(s)
        mask = game.legal_mask(s)
        pol = policies[p]
        if pol is None:
            legal = np.flatnonzero(mask)
            a = int(legal[rng.integers(len(legal))])
        else:
            scores = pol(game, s, p, None, mask)
            best = np.flatnonzero(scores == scores.max())
            a = int(best[rng.integers(len(best))])
        game.step_inplace(s, a, check=False)
        steps += 1
    return s, steps


def figures(options: dict, games: int, greedy_seats=(), seed: int = 0) -> dict:
    from .greedy import heuristic

    g = MyceliaGame(**options)
    pol = [heuristic if p in greedy_seats else None for p in range(g.num_players)]
    lengths, turns, ends, scores, winners = [], [], [], [], []
    stats = np.zeros(32)
    trees = 0
    for i in range(games):
        s, n = play(g, seed + i, pol)
        lengths.append(n)
        turns.append(int(s[R.TURN]))
        ends.append(int(s[R.ENDER]))
        sc = g.final_scores(s)
        scores.append(sc)
        winners.append(int(np.argmax(g.returns(s))) if g.returns(s).max() > 0 else -1)
        stats += s[R.STATS : R.STATS + 32]
        trees += int((s[R.TREE : R.TREE + R.NT_MAX] >= 0).sum())
    scores = np.array(scores)
    return {
        "options": options,
        "games": games,
        "greedy_seats": list(greedy_seats),
        "steps_mean": float(np.mean(lengths)),
        "steps_max": int(np.max(lengths)),
        "turns_mean": float(np.mean(turns)),
        "turns_p90": float(np.percentile(turns, 90)),
        "ended_by_decay": float(np.mean([e >= 0 for e in ends])),
        "ended_by_automata": float(np.mean([e == g.num_players and g.automata for e in ends])),
        "score_mean_by_seat": scores.mean(axis=0).round(1).tolist(),
        "score_sd": float(scores[:, : g.num_players].std()),
        "score_max": int(scores.max()),
        "wins_by_seat": [int(sum(w == p for w in winners)) for p in range(g.num_players)],
        "decay_per_game": {
            DECAYS[k]: round(
                float(stats[R.ST_DECAY + k if k < R.NDECAYS else R.ST_NA_DECAY + k - R.NDECAYS] / games), 2
            )
            for k in range(len(DECAYS) if g.expansion else R.NDECAYS)
        },
        "automata_per_game": {b: round(float(stats[R.ST_AUTO + k] / games), 2) for k, b in enumerate(AUTO_BRANCHES)},
        "automata_random_walks_per_game": round(float(stats[R.ST_WALK] / games), 2),
        "fate_draws_per_game": round(float(stats[R.ST_FATE] / games), 2),
        "spore_choices_per_game": round(float(stats[R.ST_PICKS] / games), 2),
        **(
            {
                "expansion_per_game": {
                    k: round(float(stats[slot] / games), 2)
                    for k, slot in (
                        ("investments", R.ST_INVEST),
                        ("symbiosis_bonuses", R.ST_BONUS),
                        ("ages", R.ST_AGE),
                        ("tree_pushes", R.ST_PUSH),
                    )
                },
                "trees_on_board_at_end": round(trees / games, 2),
            }
            if g.expansion
            else {}
        ),
    }


TABLES = (
    ({"num_players": 2}, ()),
    ({"num_players": 2}, (0,)),
    ({"num_players": 2}, (0, 1)),
    ({"num_players": 3}, ()),
    ({"num_players": 4}, ()),
    ({"num_players": 2, "mats": 3}, ()),
    ({"num_players": 1}, ()),
    ({"num_players": 1}, (0,)),
    ({"num_players": 1, "automata_level": "hard"}, (0,)),
    ({"num_players": 2, "automata": True}, (0, 1)),
)
NA = "north_america"
TABLES_NA = (  # the North American expansion (--expansion)
    ({"num_players": 2, "expansion": NA}, ()),
    ({"num_players": 2, "expansion": NA}, (0,)),
    ({"num_players": 2, "expansion": NA}, (0, 1)),
    ({"num_players": 5, "expansion": NA}, ()),
    ({"num_players": 1, "expansion": NA}, (0,)),
)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--expansion", action="store_true", help="the North American expansion's tables")
    args = ap.parse_args(argv)
    for options, greedy in TABLES_NA if args.expansion else TABLES:
        f = figures(options, args.games, greedy)
        print(f)


if __name__ == "__main__":
    main()
