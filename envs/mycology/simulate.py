"""Check the designed Mycology deck by simulation (figures recorded in RULES.md).

    python -m mushgym.envs.mycology.simulate               # default: 400 games per table
    python -m mushgym.envs.mycology.simulate --games 2000 --players 2 4 6

Policies (one greedy, ``envs/mycology/greedy.py``, with different parameters):

* ``random``: a uniformly random legal action (pay and ordering decisions included);
* ``greedy``: the greedy ranking cards by points, disregarding poison;
* ``greedy_feast``: ranking cards by points + Feast (+1 for Magic), disregarding poison;
* ``greedy_safe``: ranking cards by points, never harvesting poison cards;
* ``greedy_agent``: the default greedy (``GreedyAgent``): points + Feast, minus the
  Poison a card is expected to bring, and trading 3 resources for a Feast when they buy
  nothing (the other greedy variants never make that trade);
* ``greedy_exchange``: ``greedy_agent`` that also exchanges (trade 6) when taking another
  player's best current-season mushroom for its own worst is worth more than the 2 Feast
  (dumping its poison cards on others; blocked by their stinkhorns);
* ``greedy_late_poison``: ranking cards by points, taking poison cards only once 7 basket
  places are filled (poison timing).

Each greedy harvests its best affordable card, trades for a resource that makes an
in-season card affordable, advances the season or replaces a row when nothing fits the
basket, and pays with the most plentiful resources, Magic last (greedy.py).

Printed: game length, end by turn limit, score spread, win rate by seat from the first
player, win rates between the policies, and how often each card is harvested and how
often its harvester wins.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from mushgym.episodes import play as play_episodes

from .actions import A_T1
from .cards import NKINDS
from .game import MycologyGame
from .greedy import Greedy
from .layout import L


def greedy_variants(game: MycologyGame) -> list[Greedy]:
    """The greedy policies compared: one greedy (greedy.py) with different parameters."""
    return [
        Greedy(game, "points", "ignore", feast_trade=False, name="greedy"),
        Greedy(game, "points_feast", "ignore", feast_trade=False, name="greedy_feast"),
        Greedy(game, "points", "avoid", feast_trade=False, name="greedy_safe"),
        Greedy(game, name="greedy_agent"),
        Greedy(game, exchange=True, name="greedy_exchange"),
        Greedy(game, "points", "late", feast_trade=False, name="greedy_late_poison"),
    ]


class RandomPolicy:
    name = "random"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def act(self, s, mask) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))

    def act_batch(self, observations, masks) -> np.ndarray:
        return np.array([self.act(None, m) for m in masks], dtype=np.int64)


class _StatePolicy:
    """A policy that reads the state (``act(state, mask)``), for the episode loop."""

    uses_state = True

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def act_batch(self, observations, masks, game=None, states=None, players=None) -> np.ndarray:
        return np.array([self.policy.act(s, m) for s, m in zip(states, masks)], dtype=np.int64)


def play(game: MycologyGame, policies, seeds):
    """Games in lockstep (mushgym.episodes), one per seed, ``policies[p]`` in seat ``p``; per game
    (turns, steps, ended_by_limit, scores, first, harvested[player] list)."""
    harvested = [[[] for _ in range(game.num_players)] for _ in seeds]

    def record_harvests(tick):
        for i, g, p, a in zip(tick.rows, tick.games, tick.players, tick.actions):
            st = tick.states[i]
            if game.phase(st) == 0 and a < A_T1:
                harvested[g][p].append(int(L.arrays(st)["field"][a]))

    agents = [p if hasattr(p, "act_batch") else _StatePolicy(p) for p in policies]
    res = play_episodes(game, agents, seeds, on_step=record_harvests, keep_states=True)
    out = []
    for st, steps, hv in zip(res["states"], res["lengths"], harvested):
        v = L.arrays(st)
        out.append(
            (int(v["turn"]), int(steps), int(v["ender"]) == -1, np.array(game.scores(st)), int(v["first_player"]), hv)
        )
    return out


def make_game(n: int, deck: str | Path | None = None) -> MycologyGame:
    """The game for ``n`` players with the designed deck, or with the card file ``deck``."""
    if deck is None:
        return MycologyGame(num_players=n)
    cls = type("MycologyDeckGame", (MycologyGame,), {"deck_path": str(deck)})
    return cls(num_players=n)


def run_table(n: int, games: int, kind: str, seed: int = 0, deck: str | Path | None = None):
    """kind: 'random', 'greedy', or 'mixed' (seat policies rotate over greedy variants and random);
    ``deck``: a card file to simulate instead of the designed ``cards.toml``."""
    game = make_game(n, deck)
    rng = np.random.default_rng(seed)
    variants = greedy_variants(game) + [RandomPolicy(rng)]
    turns, steps, limit, spread, margin = [], [], 0, [], []
    seat_wins = np.zeros(n)
    pol_wins, pol_games = defaultdict(float), defaultdict(int)
    card_h = np.zeros(NKINDS)
    card_w = np.zeros(NKINDS)
    # games with the same seating are played together: game i seats variants[(i + j) % k] in seat j
    arrangements = 1 if kind in ("random", "greedy") else len(variants)
    played = []
    for r in range(arrangements):
        ids = list(range(r, games, arrangements))
        if kind == "random":
            pols = [RandomPolicy(rng)] * n
        elif kind == "greedy":
            pols = [variants[0]] * n
        else:
            pols = [variants[(r + j) % len(variants)] for j in range(n)]
        if ids:
            played += [(pols, out) for out in play(game, pols, [seed * 100003 + i for i in ids])]
    for pols, (t, st, lim, sc, first, hv) in played:
        turns.append(t)
        steps.append(st)
        limit += lim
        best = sc.max()
        winners = np.flatnonzero(sc == best)
        srt = np.sort(sc)
        spread.append(sc.std())
        margin.append(srt[-1] - srt[-2])
        for w in winners:
            seat_wins[(w - first) % n] += 1.0 / len(winners)
            pol_wins[pols[w].name] += 1.0 / len(winners)
        for j in range(n):
            pol_games[pols[j].name] += 1
            for c in hv[j]:
                card_h[c] += 1
                card_w[c] += (1.0 / len(winners)) if j in winners else 0.0
    return {
        "n": n,
        "games": games,
        "kind": kind,
        "turns": np.array(turns),
        "steps": np.array(steps),
        "limit": limit / games,
        "spread": float(np.mean(spread)),
        "margin": float(np.mean(margin)),
        "seat_wins": seat_wins / games,
        "pol": {k: (pol_wins[k] / pol_games[k] * n, pol_games[k]) for k in pol_games},
        "card_h": card_h / games,
        "card_w": np.divide(card_w, card_h, out=np.full(NKINDS, np.nan), where=card_h > 0),
        "game": game,
    }


def report(t) -> str:
    n = t["n"]
    tr = t["turns"]
    lines = [
        f"### {n} players, {t['kind']} ({t['games']} games)",
        "",
        f"- turns per game: mean {tr.mean():.1f} (rounds {tr.mean() / n:.1f}), median {np.median(tr):.0f}, "
        f"max {tr.max()}; decisions per game: mean {t['steps'].mean():.0f}, max {t['steps'].max()}",
        f"- ended by the turn limit: {100 * t['limit']:.1f}%",
        f"- final scores: mean standard deviation across seats {t['spread']:.1f}, mean winning margin {t['margin']:.1f}",  # noqa: E501 (a literal that reads best on one line)
        "- win share by seat from the first player (fair = "
        + f"{1 / n:.2f}): "
        + ", ".join(f"+{k}: {w:.3f}" for k, w in enumerate(t["seat_wins"])),
    ]
    if t["kind"] == "mixed":
        lines.append(
            "- win rate relative to a fair share (1.0 = fair): "
            + ", ".join(f"{k} {v:.2f} ({g} seats)" for k, (v, g) in sorted(t["pol"].items()))
        )
    h = t["card_h"]
    d = t["game"].deck
    never = [d.names[c] for c in range(NKINDS) if h[c] == 0]
    order = np.argsort(h)
    lines.append(
        f"- harvests per card per game: mean {h.mean():.3f}; least {', '.join(f'{d.names[c]} {h[c]:.3f}' for c in order[:4])}; "  # noqa: E501 (a literal that reads best on one line)
        f"most {', '.join(f'{d.names[c]} {h[c]:.3f}' for c in order[-4:][::-1])}"
        + (f"; never harvested: {never}" if never else "; every card was harvested")
    )
    w = t["card_w"]
    ok = np.flatnonzero(h * t["games"] >= 30)
    if ok.size:
        o2 = ok[np.argsort(w[ok])]
        lines.append(
            f"- harvester's win share by card (cards harvested >= 30 times; fair {1 / n:.2f}): "
            f"lowest {', '.join(f'{d.names[c]} {w[c]:.2f}' for c in o2[:3])}; "
            f"highest {', '.join(f'{d.names[c]} {w[c]:.2f}' for c in o2[-3:][::-1])}"
        )
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 4, 6])
    ap.add_argument("--kinds", nargs="*", default=["random", "greedy", "mixed"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deck", type=Path, default=None, help="a card file to simulate instead of cards.toml")
    args = ap.parse_args(argv)
    for n in args.players:
        for kind in args.kinds:
            print(report(run_table(n, args.games, kind, args.seed, args.deck)))
            print()
            sys.stdout.flush()


if __name__ == "__main__":
    main()
