"""Simulation figures for Mycelium's designed data (RULES.md, "Simulation figures").

    python -m mushgym.envs.mycelium.simulate --games 200
    python -m mushgym.envs.mycelium.simulate --games 200 --variant team   # Team and 2-player games

Random play (in-kernel rollouts) and greedy play (the baseline of ``greedy.py``): game
lengths, how often the turn limit cuts a game off, win rates by seat (from the first
player), and how often each action kind (every card ability among them) is chosen by the
greedy players, so a card nobody can use shows up as a zero.

Variants: ``--emsporium`` (items bought per type, by the greedy players), ``--hero-tavern``,
``--legends``; ``--players 4`` for one player count only.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from . import rules
from .game import MyceliumGame
from .greedy import heuristic


def _choose(g, s, p, mask, greedy, rng, kinds):
    """Player ``p``'s move: the greedy heuristic's best (ties at random; its kind counted in
    ``kinds``) or a uniform legal action."""
    if greedy:
        sc = heuristic(g, s, p, None, mask)
        best = np.flatnonzero(sc == sc.max())
        a = int(best[rng.integers(best.size)])
        kinds[rules.ACTION_SPACE.group_of(a).name] += 1
        return a
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def random_figures(n_players: int, games: int, seed: int = 0, game_class=MyceliumGame, **options) -> dict:
    g = game_class(num_players=n_players, **options)
    r = g.random_rollouts(games, seed=seed, threads=1)
    firsts = np.array([int(rules.STATE.arrays(g.new_state(seed + i))["first_player"]) for i in range(games)])
    wins = r["returns"] > 0
    by_seat = np.zeros(n_players)
    for i in range(games):
        w = np.flatnonzero(wins[i])
        if w.size:
            by_seat[(w[0] - firsts[i]) % n_players] += 1
    return {
        "games": games,
        "mean_steps": r["mean_length"],
        "max_steps": r["max_length"],
        "decided": int(wins.any(axis=1).sum()),
        "wins_by_seat_from_first": by_seat.astype(int).tolist(),
    }


def greedy_figures(n_players: int, games: int, greedy_seats, seed: int = 0, game_class=MyceliumGame, **options) -> dict:
    g = game_class(num_players=n_players, **options)
    items = np.zeros(rules.NUM_ITEM_TYPES, np.int64)
    rng = np.random.default_rng(seed)
    kinds = Counter()
    turns, decided = [], 0
    by_seat = np.zeros(n_players)
    greedy_wins = 0
    for i in range(games):
        s = g.new_state(seed + i)
        first = int(rules.STATE.arrays(s)["first_player"])
        seats = {(first + k) % n_players for k in greedy_seats(i)}
        while not g.is_terminal(s):
            p = g.current_player(s)
            mask = g.legal_mask(s)
            g.step_inplace(s, _choose(g, s, p, mask, p in seats, rng, kinds), check=False)
        v = rules.STATE.arrays(s)
        items += v["items"].sum(axis=0)  # variant: emsporium
        turns.append(int(v["turn"]))
        w = int(v["winner"])
        if w >= 0:
            decided += 1
            by_seat[(w - first) % n_players] += 1
            greedy_wins += w in seats
    out = {
        "games": games,
        "mean_turns": float(np.mean(turns)),
        "decided": decided,
        "greedy_wins": greedy_wins,
        "wins_by_seat_from_first": by_seat.astype(int).tolist(),
        "greedy_action_kinds": dict(kinds.most_common()),
    }
    if options.get("emsporium"):
        from .variant_data import ITEM_NAMES

        out["items_owned_at_the_end"] = {ITEM_NAMES[i]: int(c) for i, c in enumerate(items)}
    if g.tavern_on:
        out["heroes_recruited"] = kinds.get("hero_pick", 0)
        out["hero_abilities_used"] = kinds.get("hero", 0)
    return out


# --- variant: team ----------------------------------------------------------------------------------


def team_random_figures(options: dict, games: int, seed: int = 0, game_class=MyceliumGame) -> dict:
    """Random play of the Team variant or the 2-player game: wins by team, counted as the
    first player's team and the other, and by the seat that completed the 15."""
    g = game_class(**options)
    r = g.random_rollouts(games, seed=seed, threads=1)
    states = [g.new_state(seed + i) for i in range(games)]
    firsts = np.array([int(rules.STATE.arrays(s)["first_player"]) for s in states])
    wins = r["returns"] > 0
    by_team = np.zeros(2)
    for i in range(games):
        w = np.flatnonzero(wins[i])
        if w.size:
            by_team[(w[0] - firsts[i]) % 2] += 1
    return {
        "games": games,
        "mean_steps": r["mean_length"],
        "decided": int(wins.any(axis=1).sum()),
        "wins_first_team_other_team": by_team.astype(int).tolist(),
    }


def team_greedy_figures(options: dict, games: int, greedy_teams, seed: int = 0, game_class=MyceliumGame) -> dict:
    """Greedy (``greedy_teams(i)``: the teams, 0 = the first player's, played greedily in game
    i) against random play under the Team rules; every seat of a team plays alike."""
    g = game_class(**options)
    rng = np.random.default_rng(seed)
    kinds = Counter()
    turns, decided, greedy_wins = [], 0, 0
    by_team = np.zeros(2)
    by_seat = np.zeros(4)
    for i in range(games):
        s = g.new_state(seed + i)
        first = int(rules.STATE.arrays(s)["first_player"])
        seats = {(first + k) % 4 for t in greedy_teams(i) for k in (t, t + 2)}
        while not g.is_terminal(s):
            v = rules.STATE.arrays(s)
            d = int(v["decisions_n"])
            seat = int(v["decisions"][d - 1][1]) if d else int(v["turn_player"])
            p = g.current_player(s)
            mask = g.legal_mask(s)
            g.step_inplace(s, _choose(g, s, p, mask, seat in seats, rng, kinds), check=False)
        v = rules.STATE.arrays(s)
        turns.append(int(v["turn"]))
        w = int(v["winner"])
        if w >= 0:
            decided += 1
            by_team[(w - first) % 2] += 1
            by_seat[(w - first) % 4] += 1
            greedy_wins += w in seats
    team_kinds = {k: kinds[k] for k in ("trade", "gather_take")}
    return {
        "games": games,
        "mean_turns": float(np.mean(turns)),
        "decided": decided,
        "greedy_wins": greedy_wins,
        "wins_first_team_other_team": by_team.astype(int).tolist(),
        "won_by_seat_from_first": by_seat.astype(int).tolist(),
        "team_action_kinds": team_kinds,
    }


def team_main(games: int, game_class=MyceliumGame, **variants) -> None:
    for name, options in (
        ("team (4 agents)", {"team": True, **variants}),
        ("2-player game", {"num_players": 2, **variants}),
    ):
        print(f"{name}, random:", team_random_figures(options, games, game_class=game_class))
        print(
            f"{name}, greedy x 2 teams:",
            team_greedy_figures(options, max(20, games // 5), lambda i: (0, 1), game_class=game_class),
        )
        print(
            f"{name}, 1 greedy team (alternating) + 1 random:",
            team_greedy_figures(options, max(20, games // 5), lambda i: (i % 2,), game_class=game_class),
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, choices=(3, 4), nargs="*", default=[3, 4])
    ap.add_argument("--emsporium", action="store_true")
    ap.add_argument("--hero-tavern", action="store_true")
    ap.add_argument("--legends", action="store_true")
    ap.add_argument(
        "--variant",
        choices=("base", "team"),
        default="base",
        help="base: 3 and 4 players (--players); team: the Team variant and the 2-player game "
        "(with the options above, if any)",
    )
    args = ap.parse_args(argv)
    opts = {
        k: True
        for k, on in (("emsporium", args.emsporium), ("hero_tavern", args.hero_tavern), ("legends", args.legends))
        if on
    }
    opts["game_class"] = MyceliumGame
    if args.variant == "team":
        team_main(args.games, **opts)
        return
    for n in args.players:
        print(f"{n} players, random x {n}:", random_figures(n, args.games, **opts))
        print(f"{n} players, greedy x {n}:", greedy_figures(n, max(20, args.games // 5), lambda i: range(n), **opts))
        print(
            f"{n} players, 1 greedy (rotating seat) + random:",
            greedy_figures(n, max(20, args.games // 5), lambda i: [i % n], **opts),
        )


if __name__ == "__main__":
    main()
