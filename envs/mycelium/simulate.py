"""Simulation figures for Mycelium's designed data (RULES.md, "Simulation figures").

    python -m mushgym.envs.mycelium.simulate --games 200
    python -m mushgym.envs.mycelium.simulate --games 200 --variant team   # Team and 2-player games

Random play (in-kernel rollouts) and greedy play (the baseline of ``greedy.py``): game
lengths, how often the turn limit cuts a game off, win rates by seat (from the first
player), and how often each action kind (every card ability among them) is chosen by the
greedy players, so a card nobody can use shows up as a zero.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from . import rules as R
from .game import MyceliumGame
from .greedy import heuristic


def random_figures(n_players: int, games: int, seed: int = 0) -> dict:
    g = MyceliumGame(num_players=n_players)
    r = g.random_rollouts(games, seed=seed, threads=1)
    firsts = np.array([int(R.L.arrays(g.new_state(seed + i))["first_player"]) for i in range(games)])
    wins = r["returns"] > 0
    by_seat = np.zeros(n_players)
    for i in range(games):
        w = np.flatnonzero(wins[i])
        if w.size:
            by_seat[(w[0] - firsts[i]) % n_players] += 1
    return {"games": games, "mean_steps": r["mean_length"], "max_steps": r["max_length"],
            "decided": int(wins.any(axis=1).sum()), "wins_by_seat_from_first": by_seat.astype(int).tolist()}


def greedy_figures(n_players: int, games: int, greedy_seats, seed: int = 0) -> dict:
    g = MyceliumGame(num_players=n_players)
    rng = np.random.default_rng(seed)
    kinds = Counter()
    turns, decided = [], 0
    by_seat = np.zeros(n_players)
    greedy_wins = 0
    for i in range(games):
        s = g.new_state(seed + i)
        first = int(R.L.arrays(s)["first_player"])
        seats = {(first + k) % n_players for k in greedy_seats(i)}
        while not g.is_terminal(s):
            p = g.current_player(s)
            mask = g.legal_mask(s)
            if p in seats:
                sc = heuristic(g, s, p, None, mask)
                best = np.flatnonzero(sc == sc.max())
                a = int(best[rng.integers(best.size)])
                kinds[R.A.group_of(a).name] += 1
            else:
                legal = np.flatnonzero(mask)
                a = int(legal[rng.integers(legal.size)])
            g.step_inplace(s, a, check=False)
        v = R.L.arrays(s)
        turns.append(int(v["turn"]))
        w = int(v["winner"])
        if w >= 0:
            decided += 1
            by_seat[(w - first) % n_players] += 1
            greedy_wins += w in seats
    return {"games": games, "mean_turns": float(np.mean(turns)), "decided": decided,
            "greedy_wins": greedy_wins, "wins_by_seat_from_first": by_seat.astype(int).tolist(),
            "greedy_action_kinds": dict(kinds.most_common())}


# --- variant: team ----------------------------------------------------------------------------------

def team_random_figures(options: dict, games: int, seed: int = 0) -> dict:
    """Random play of the Team variant or the 2-player game: wins by team, counted as the
    first player's team and the other, and by the seat that completed the 15."""
    g = MyceliumGame(**options)
    r = g.random_rollouts(games, seed=seed, threads=1)
    states = [g.new_state(seed + i) for i in range(games)]
    firsts = np.array([int(R.L.arrays(s)["first_player"]) for s in states])
    wins = r["returns"] > 0
    by_team = np.zeros(2)
    for i in range(games):
        w = np.flatnonzero(wins[i])
        if w.size:
            by_team[(w[0] - firsts[i]) % 2] += 1
    return {"games": games, "mean_steps": r["mean_length"], "decided": int(wins.any(axis=1).sum()),
            "wins_first_team_other_team": by_team.astype(int).tolist()}


def team_greedy_figures(options: dict, games: int, greedy_teams, seed: int = 0) -> dict:
    """Greedy (``greedy_teams(i)``: the teams, 0 = the first player's, played greedily in game
    i) against random play under the Team rules; every seat of a team plays alike."""
    g = MyceliumGame(**options)
    rng = np.random.default_rng(seed)
    kinds = Counter()
    turns, decided, greedy_wins = [], 0, 0
    by_team = np.zeros(2)
    by_seat = np.zeros(4)
    for i in range(games):
        s = g.new_state(seed + i)
        first = int(R.L.arrays(s)["first_player"])
        seats = {(first + k) % 4 for t in greedy_teams(i) for k in (t, t + 2)}
        while not g.is_terminal(s):
            v = R.L.arrays(s)
            d = int(v["decisions_n"])
            seat = int(v["decisions"][d - 1][1]) if d else int(v["turn_player"])
            p = g.current_player(s)
            mask = g.legal_mask(s)
            if seat in seats:
                sc = heuristic(g, s, p, None, mask)
                best = np.flatnonzero(sc == sc.max())
                a = int(best[rng.integers(best.size)])
                kinds[R.A.group_of(a).name] += 1
            else:
                legal = np.flatnonzero(mask)
                a = int(legal[rng.integers(legal.size)])
            g.step_inplace(s, a, check=False)
        v = R.L.arrays(s)
        turns.append(int(v["turn"]))
        w = int(v["winner"])
        if w >= 0:
            decided += 1
            by_team[(w - first) % 2] += 1
            by_seat[(w - first) % 4] += 1
            greedy_wins += w in seats
    team_kinds = {k: kinds[k] for k in ("trade", "gather_take")}
    return {"games": games, "mean_turns": float(np.mean(turns)), "decided": decided, "greedy_wins": greedy_wins,
            "wins_first_team_other_team": by_team.astype(int).tolist(),
            "won_by_seat_from_first": by_seat.astype(int).tolist(), "team_action_kinds": team_kinds}


def team_main(games: int) -> None:
    for name, options in (("team (4 agents)", {"team": True}), ("2-player game", {"num_players": 2})):
        print(f"{name}, random:", team_random_figures(options, games))
        print(f"{name}, greedy x 2 teams:", team_greedy_figures(options, max(20, games // 5), lambda i: (0, 1)))
        print(f"{name}, 1 greedy team (alternating) + 1 random:",
              team_greedy_figures(options, max(20, games // 5), lambda i: (i % 2,)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--variant", choices=("base", "team"), default="base",
                    help="base: 3 and 4 players; team: the Team variant and the 2-player game")
    args = ap.parse_args(argv)
    if args.variant == "team":
        team_main(args.games)
        return
    for n in (3, 4):
        print(f"{n} players, random x {n}:", random_figures(n, args.games))
        print(f"{n} players, greedy x {n}:", greedy_figures(n, max(20, args.games // 5), lambda i: range(n)))
        print(f"{n} players, 1 greedy (rotating seat) + random:",
              greedy_figures(n, max(20, args.games // 5), lambda i: [i % n]))


if __name__ == "__main__":
    main()
