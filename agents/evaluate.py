"""Round-robin tournaments: win/draw/loss rates with 95% intervals and Elo ratings.

    from mushgym.agents import tournament
    result = tournament("fungi_v0", ["random", "greedy", "runs/ppo/final.zip"], games=1000)
    print(result.table())
    result.to_csv("results.csv")          # pairwise rates; Elo in results_elo.csv

Seats are rotated: in a match of ``games`` games between A and B, game ``i`` seats
the agents in a different order (A first in half of the two-player games), and
game ``i`` of every match is dealt from the same seed, so each pair plays the same
deals. In games of more than two players the seats are shared alternately between
the two agents and a game is won by the agent holding the best-scoring seat.

Elo ratings come from a Bradley-Terry fit by maximum likelihood on all games
(a draw counts half a win to each side), on the usual Elo scale
(400 points = odds of 10 to 1), anchored at 0 for ``random`` when it plays
(otherwise at the mean), with standard errors from the observed information.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .base import Agent, make_agent
from .play import _as_game, play_seeds
from mushgym.options import parse_options

ELO_SCALE = 400.0 / math.log(10.0)


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(i: int, num_players: int) -> list[int]:
    """Which of the two agents (0 = A, 1 = B) holds each seat in game ``i`` of a match."""
    if num_players == 2:
        return [0, 1] if i % 2 == 0 else [1, 0]
    r = (i // 2) % num_players
    first = i % 2
    return [first if ((s - r) % num_players) % 2 == 0 else 1 - first for s in range(num_players)]


@dataclass
class MatchResult:
    a: str
    b: str
    games: int
    wins: int      # games A won
    draws: int
    losses: int    # games A lost
    steps: int = 0
    seconds: float = 0.0

    def rate(self, which: str) -> float:
        return getattr(self, which) / self.games

    def interval(self, which: str) -> tuple[float, float]:
        return wilson_interval(getattr(self, which), self.games)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games


@dataclass
class TournamentResult:
    env_id: str
    names: list[str]
    matches: list[MatchResult]
    elo: dict[str, float] = field(default_factory=dict)
    elo_se: dict[str, float] = field(default_factory=dict)

    def match(self, a: str, b: str) -> MatchResult:
        for m in self.matches:
            if (m.a, m.b) == (a, b):
                return m
            if (m.a, m.b) == (b, a):
                return MatchResult(a, b, m.games, m.losses, m.draws, m.wins, m.steps, m.seconds)
        raise KeyError(f"no match between {a!r} and {b!r}")

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for m in self.matches:
            row = {"env": self.env_id, "agent_a": m.a, "agent_b": m.b, "games": m.games,
                   "wins_a": m.wins, "draws": m.draws, "losses_a": m.losses}
            for which in ("wins", "draws", "losses"):
                lo, hi = m.interval(which)
                row[f"{which}_rate"] = round(m.rate(which), 4)
                row[f"{which}_ci95_lo"] = round(lo, 4)
                row[f"{which}_ci95_hi"] = round(hi, 4)
            row["elo_a"] = round(self.elo.get(m.a, float("nan")), 1)
            row["elo_b"] = round(self.elo.get(m.b, float("nan")), 1)
            row["steps"] = m.steps
            row["seconds"] = round(m.seconds, 2)
            rows.append(row)
        return rows

    def to_csv(self, path: str | Path) -> tuple[Path, Path]:
        """Write the pairwise results to ``path`` and the ratings to ``<stem>_elo.csv``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = self.rows()
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        elo_path = path.with_name(path.stem + "_elo.csv")
        with elo_path.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["env", "agent", "elo", "elo_se"])
            for name in sorted(self.names, key=lambda n: -self.elo[n]):
                w.writerow([self.env_id, name, round(self.elo[name], 1), round(self.elo_se[name], 1)])
        return path, elo_path

    def table(self) -> str:
        lines = [f"{self.env_id}: round robin, seats rotated, 95% Wilson intervals"]
        head = f"{'A':>24} {'B':>24} {'games':>6}  {'A wins':>20}  {'draws':>20}  {'A losses':>20}"
        lines.append(head)
        lines.append("-" * len(head))
        for m in self.matches:
            cells = []
            for which in ("wins", "draws", "losses"):
                lo, hi = m.interval(which)
                cells.append(f"{m.rate(which):6.1%} [{lo:5.1%},{hi:5.1%}]")
            lines.append(f"{_short(m.a):>24} {_short(m.b):>24} {m.games:>6}  " + "  ".join(f"{c:>20}" for c in cells))
        lines.append("")
        lines.append(f"{'agent':>24} {'Elo':>8} {'+-se':>6}")
        for name in sorted(self.names, key=lambda n: -self.elo[n]):
            lines.append(f"{_short(name):>24} {self.elo[name]:8.1f} {self.elo_se[name]:6.1f}")
        return "\n".join(lines)


def _short(name: str, width: int = 24) -> str:
    return name if len(name) <= width else "..." + name[-(width - 3):]


def bradley_terry_elo(names: Sequence[str], matches: Sequence[MatchResult], anchor: str | None = None,
                      prior_games: float = 0.5, iters: int = 200) -> tuple[dict[str, float], dict[str, float]]:
    """Bradley-Terry strengths by Newton's method, returned on the Elo scale.

    ``prior_games`` virtual draws between every pair keep the fit finite when an
    agent wins (or loses) every game. Returns ``(elo, standard_error)``.
    """
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    W = np.zeros((k, k))  # W[i, j] = score of i against j (draws count half)
    N = np.zeros((k, k))
    for m in matches:
        i, j = idx[m.a], idx[m.b]
        W[i, j] += m.wins + 0.5 * m.draws
        W[j, i] += m.losses + 0.5 * m.draws
        N[i, j] += m.games
        N[j, i] += m.games
    played = N > 0
    W = W + prior_games * 0.5 * played
    N = N + prior_games * played
    theta = np.zeros(k)
    ref = idx[anchor] if anchor in idx else None
    for _ in range(iters):
        d = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        grad = (W - N * p).sum(axis=1)
        H = -(N * p * (1 - p))
        H[np.diag_indices(k)] = 0.0
        H[np.diag_indices(k)] = -H.sum(axis=1)
        # fix the gauge: theta[ref] = 0 (or sum 0) by dropping one coordinate
        keep = [i for i in range(k) if i != (ref if ref is not None else 0)]
        if not keep:
            break
        step = np.linalg.solve(H[np.ix_(keep, keep)] + 1e-9 * np.eye(len(keep)), grad[keep])
        theta[keep] += step
        if np.abs(step).max() < 1e-10:
            break
    d = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-d))
    H = -(N * p * (1 - p))
    H[np.diag_indices(k)] = 0.0
    H[np.diag_indices(k)] = -H.sum(axis=1)
    pivot = ref if ref is not None else 0
    keep = [i for i in range(k) if i != pivot]
    se = np.zeros(k)
    if ref is None:  # ratings centred on their mean: the covariance in that gauge
        se = np.sqrt(np.maximum(np.diag(np.linalg.pinv(H)), 0.0))
    elif keep:
        cov = np.linalg.pinv(H[np.ix_(keep, keep)])
        se[keep] = np.sqrt(np.maximum(np.diag(cov), 0.0))
    if ref is None:
        theta -= theta.mean()
    elo = {n: float(theta[idx[n]] * ELO_SCALE) for n in names}
    elo_se = {n: float(se[idx[n]] * ELO_SCALE) for n in names}
    return elo, elo_se


def play_match(game, agent_a: Agent, agent_b: Agent, games: int, seed: int = 0,
               name_a: str = "A", name_b: str = "B", batch_size: int = 128) -> MatchResult:
    """``games`` games of A against B with the seats rotated (see :func:`seating`)."""
    game = _as_game(game)
    P = game.num_players
    wins = draws = losses = steps = 0
    t0 = time.perf_counter()
    n_arr = 2 if P == 2 else 2 * P
    for arrangement in range(n_arr):
        ids = list(range(arrangement, games, n_arr))
        if not ids:
            continue
        who = seating(arrangement, P)
        seat_agents = [agent_a if w == 0 else agent_b for w in who]
        res = play_seeds(game, seat_agents, [seed + i for i in ids], batch_size)
        rets = res["returns"]
        a_seats = [s for s in range(P) if who[s] == 0]
        b_seats = [s for s in range(P) if who[s] == 1]
        best_a = rets[:, a_seats].max(axis=1)
        best_b = rets[:, b_seats].max(axis=1)
        wins += int((best_a > best_b).sum())
        losses += int((best_a < best_b).sum())
        draws += int((best_a == best_b).sum())
        steps += res["steps"]
    return MatchResult(name_a, name_b, games, wins, draws, losses, steps, time.perf_counter() - t0)


def tournament(env_id: str, agents: Sequence[Any] | dict[str, Any], games: int = 1000, seed: int = 0,
               options: dict[str, Any] | None = None, batch_size: int = 128, verbose: bool = True,
               csv_path: str | Path | None = None) -> TournamentResult:
    """Round robin between ``agents`` (names ``random``/``greedy``, model paths or Agent objects).

    ``games`` games per pair. Returns a :class:`TournamentResult`; prints its
    table when ``verbose`` and writes CSVs when ``csv_path`` is given.
    """
    game = _as_game(env_id, **(options or {}))
    if isinstance(agents, dict):
        named = list(agents.items())
    else:
        named = []
        for i, spec in enumerate(agents):
            name = spec if isinstance(spec, str) else getattr(spec, "name", f"agent{i}")
            named.append((name, spec))
    names = [n for n, _ in named]
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be distinct: {names}")
    if len(named) < 2:
        raise ValueError("a tournament needs at least two agents")
    built = {n: make_agent(s, env_id=game.env_id, seed=seed + 1000 * i) for i, (n, s) in enumerate(named)}
    matches = []
    for a, b in itertools.combinations(names, 2):
        m = play_match(game, built[a], built[b], games, seed=seed, name_a=a, name_b=b, batch_size=batch_size)
        matches.append(m)
        if verbose:
            print(f"  {a} vs {b}: {m.wins}-{m.draws}-{m.losses} in {m.seconds:.1f}s "
                  f"({m.steps / max(m.seconds, 1e-9):,.0f} steps/s)", flush=True)
    anchor = "random" if "random" in names else None
    elo, se = bradley_terry_elo(names, matches, anchor=anchor)
    # report every match from the side of the higher-rated agent
    matches = [m if elo[m.a] >= elo[m.b] else MatchResult(m.b, m.a, m.games, m.losses, m.draws, m.wins, m.steps, m.seconds)
               for m in matches]
    result = TournamentResult(game.env_id, names, matches, elo, se)
    if verbose:
        print(result.table())
    if csv_path is not None:
        paths = result.to_csv(csv_path)
        if verbose:
            print("wrote", *paths)
    return result


def build_eval_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(prog="mushgym eval",
                                          description="Round-robin tournament with seats rotated: "
                                                      "win/draw/loss rates (95%% CI) and Elo.")
    p.add_argument("env", help="env id, e.g. fungi_v0")
    p.add_argument("agents", nargs="+", help="random, greedy, or a saved model path (.zip); at least two")
    p.add_argument("--games", type=int, default=1000, help="games per pair (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--csv", default=None, help="write pairwise results here (Elo to <stem>_elo.csv)")
    p.add_argument("--option", "--opt", action="append", default=[], metavar="NAME=VALUE",
                   help="game option, e.g. num_players=4 (repeatable)")
    return p


def eval_main(argv: Sequence[str] | None = None) -> int:
    """``mushgym eval ENV AGENT_A AGENT_B ... --games N [--seed S] [--csv PATH]``."""
    args = build_eval_parser().parse_args(argv)
    if len(args.agents) < 2:
        raise SystemExit("mushgym eval: give at least two agents")
    tournament(args.env, args.agents, games=args.games, seed=args.seed,
               options=parse_options(args.option), csv_path=args.csv)
    return 0


if __name__ == "__main__":
    raise SystemExit(eval_main())
