"""Check the designed Mycology deck by simulation (figures recorded in RULES.md).

    python -m mushgym.envs.mycology.simulate               # default: 400 games per table
    python -m mushgym.envs.mycology.simulate --games 2000 --players 2 4 6

Policies:

* ``random``: a uniformly random legal action (pay and ordering decisions included);
* ``greedy``: harvest the affordable card with the most points (ties: more Feast);
  otherwise make a sensible trade: if a card in season with a free basket place is one
  resource short, trade 3 spare resources (or 1 Feast) for it; if the current season's
  basket is full or no field card can go into it, spend a Feast to advance the season
  (or to replace the field row with fewer in-season cards); else end the turn. Pays with
  the most plentiful resources, real tokens before Magic;
* ``greedy_feast``: as greedy, ranking cards by points + Feast;
* ``greedy_safe``: as greedy, never harvesting poison cards.

Printed: game length, end by turn limit, score spread, win rate by seat from the first
player, win rates between the policies, and how often each card is harvested and how
often its harvester wins.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import numpy as np

from . import rules as R
from .cards import RESOURCE_SHORT
from .game import MycologyGame


class Greedy:
    def __init__(self, game: MycologyGame, value: str = "points", avoid_poison: bool = False):
        self.g = game
        d = game.deck
        self.value = d.points + (d.feast if value == "points_feast" else 0)
        self.avoid_poison = avoid_poison
        self.name = {"points": "greedy", "points_feast": "greedy_feast"}[value] + ("_safe" if avoid_poison else "")
        if avoid_poison:
            self.name = "greedy_safe"

    def _ok(self, card: int) -> bool:
        return not (self.avoid_poison and self.g.deck.special[card] == R.SP_POISON)

    def act(self, s: np.ndarray, mask: np.ndarray) -> int:
        g, d = self.g, self.g.deck
        p = int(s[R.CUR])
        ph = int(s[R.PHASE])
        if ph == R.PH_BOTTOM:
            return int(np.flatnonzero(mask)[0])
        res = s[R.RES + p * 5:R.RES + p * 5 + 5]
        if ph == R.PH_PAY:
            best, best_key = -1, None
            for a in np.flatnonzero(mask):
                if R.A_PAY_RES <= a < R.A_PAY_RES + 5:
                    key = (2, int(res[a - R.A_PAY_RES]))
                elif a == R.A_PAY_FEAST:
                    key = (2, 0)
                else:
                    key = (1, 0)
                if best_key is None or key > best_key:
                    best, best_key = int(a), key
            return best
        # main phase: harvest the best affordable card
        best, best_v = -1, None
        for slot in range(8):
            if mask[R.A_HARVEST + slot]:
                c = int(s[R.FIELD + slot])
                if not self._ok(c):
                    continue
                v = (int(self.value[c]), int(d.feast[c]), -int(d.cost[c].sum()))
                if best_v is None or v > best_v:
                    best, best_v = slot, v
        if best >= 0:
            return R.A_HARVEST + best
        season = int(s[R.SEASON])
        room = s[R.BCOUNT + p * 4 + season] < R.CAPACITY[season]
        feast = int(s[R.FEAST + p] + s[R.MAGIC + p])
        in_season = [int(s[R.FIELD + j]) for j in range(8)
                     if s[R.FIELD + j] >= 0 and (d.seasons[s[R.FIELD + j]] >> season) & 1 and self._ok(int(s[R.FIELD + j]))]
        if room and in_season:
            # one resource short of an in-season card: trade for it
            for c in sorted(in_season, key=lambda c: -int(self.value[c])):
                short = np.maximum(d.cost[c] - res, 0)
                if short.sum() - int(s[R.MAGIC + p]) == 1:
                    r = int(np.flatnonzero(short)[0])
                    spare = int((res - np.minimum(res, d.cost[c])).sum())
                    if spare >= 3 and mask[R.A_T1 + r]:
                        return R.A_T1 + r
                    if feast >= 2 and mask[R.A_T3 + r]:
                        return R.A_T3 + r
            return R.A_END
        if not room and feast >= 1 and mask[R.A_T4]:
            return R.A_T4
        if room and not in_season and feast >= 1:
            counts = [sum(1 for j in range(4) if s[R.FIELD + row * 4 + j] >= 0
                          and (d.seasons[s[R.FIELD + row * 4 + j]] >> season) & 1) for row in range(2)]
            row = 0 if counts[0] <= counts[1] else 1
            if mask[R.A_T5 + row]:
                return R.A_T5 + row
        return R.A_END


class RandomPolicy:
    name = "random"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def act(self, s, mask) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def play(game: MycologyGame, policies, seed: int, harvest_counts=None):
    """One game; returns (turns, steps, ended_by_limit, scores, first, harvested[player] list)."""
    s = game.new_state(seed)
    mask = np.zeros(game.num_actions, np.int8)
    k = game.kernels
    harvested = [[] for _ in range(game.num_players)]
    steps = 0
    while not k.is_terminal(s):
        k.legal_mask(s, game.config, mask, game.work)
        p = int(s[R.CUR])
        a = policies[p].act(s, mask)
        assert mask[a], (a, policies[p].name)
        if s[R.PHASE] == R.PH_MAIN and a < R.A_T1:
            harvested[p].append(int(s[R.FIELD + a]))
        k.step(s, a, game.config, game.work)
        steps += 1
    scores = s[R.SCORE:R.SCORE + game.num_players].copy()
    return int(s[R.TURN]), steps, int(s[R.ENDER]) == -1, scores, int(s[R.FIRST]), harvested


def run_table(n: int, games: int, kind: str, seed: int = 0):
    """kind: 'random', 'greedy', or 'mixed' (seat policies rotate over greedy variants and random)."""
    game = MycologyGame(num_players=n)
    rng = np.random.default_rng(seed)
    variants = [Greedy(game), Greedy(game, "points_feast"), Greedy(game, avoid_poison=True), RandomPolicy(rng)]
    turns, steps, limit, spread, margin = [], [], 0, [], []
    seat_wins = np.zeros(n)
    pol_wins, pol_games = defaultdict(float), defaultdict(int)
    card_h = np.zeros(84)
    card_w = np.zeros(84)
    for i in range(games):
        if kind == "random":
            pols = [RandomPolicy(rng)] * n
        elif kind == "greedy":
            pols = [Greedy(game)] * n
        else:
            pols = [variants[(i + j) % len(variants)] for j in range(n)]
        t, st, lim, sc, first, hv = play(game, pols, seed * 100003 + i)
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
        "n": n, "games": games, "kind": kind, "turns": np.array(turns), "steps": np.array(steps),
        "limit": limit / games, "spread": float(np.mean(spread)), "margin": float(np.mean(margin)),
        "seat_wins": seat_wins / games, "pol": {k: (pol_wins[k] / pol_games[k] * n, pol_games[k]) for k in pol_games},
        "card_h": card_h / games, "card_w": np.divide(card_w, card_h, out=np.full(84, np.nan), where=card_h > 0),
        "game": game,
    }


def report(t) -> str:
    n = t["n"]
    tr = t["turns"]
    lines = [f"### {n} players, {t['kind']} ({t['games']} games)", "",
             f"- turns per game: mean {tr.mean():.1f} (rounds {tr.mean() / n:.1f}), median {np.median(tr):.0f}, "
             f"max {tr.max()}; decisions per game: mean {t['steps'].mean():.0f}, max {t['steps'].max()}",
             f"- ended by the turn limit: {100 * t['limit']:.1f}%",
             f"- final scores: mean standard deviation across seats {t['spread']:.1f}, mean winning margin {t['margin']:.1f}",
             "- win share by seat from the first player (fair = " + f"{1 / n:.2f}): "
             + ", ".join(f"+{k}: {w:.3f}" for k, w in enumerate(t["seat_wins"]))]
    if t["kind"] == "mixed":
        lines.append("- win rate relative to a fair share (1.0 = fair): "
                     + ", ".join(f"{k} {v:.2f} ({g} seats)" for k, (v, g) in sorted(t["pol"].items())))
    h = t["card_h"]
    d = t["game"].deck
    never = [d.names[c] for c in range(84) if h[c] == 0]
    order = np.argsort(h)
    lines.append(f"- harvests per card per game: mean {h.mean():.3f}; least {', '.join(f'{d.names[c]} {h[c]:.3f}' for c in order[:4])}; "
                 f"most {', '.join(f'{d.names[c]} {h[c]:.3f}' for c in order[-4:][::-1])}"
                 + (f"; never harvested: {never}" if never else "; every card was harvested"))
    w = t["card_w"]
    ok = np.flatnonzero(h * t["games"] >= 30)
    if ok.size:
        o2 = ok[np.argsort(w[ok])]
        lines.append(f"- harvester's win share by card (cards harvested >= 30 times; fair {1 / n:.2f}): "
                     f"lowest {', '.join(f'{d.names[c]} {w[c]:.2f}' for c in o2[:3])}; "
                     f"highest {', '.join(f'{d.names[c]} {w[c]:.2f}' for c in o2[-3:][::-1])}")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 4, 6])
    ap.add_argument("--kinds", nargs="*", default=["random", "greedy", "mixed"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for n in args.players:
        for kind in args.kinds:
            print(report(run_table(n, args.games, kind, args.seed)))
            print()
            sys.stdout.flush()


if __name__ == "__main__":
    main()
