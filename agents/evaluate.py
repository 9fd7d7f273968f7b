"""Round-robin tournaments: win/draw/loss rates with 95% intervals and Elo ratings.

    from mushgym.agents import tournament
    result = tournament("fungi_v0", ["random", "greedy", "runs/ppo/final.zip"], games=1000)
    print(result.table())
    result.to_csv("results.csv")          # pairwise rates; Elo in results_elo.csv

``mushgym eval`` writes both CSVs and the table into a fresh run folder
(``runs/eval_<env>_<date-time>/``) unless told otherwise.

Seats are rotated: in a match of ``games`` games between A and B, game ``i`` seats
the agents in a different order (A first in half of the two-player games), and
game ``i`` of every match is dealt from the same seed, so each pair plays the same
deals. In games of more than two players the seats are shared alternately between
the two agents and a game is won by the agent holding the best-scoring seat.

Elo ratings come from a Bradley-Terry fit by maximum likelihood on all games
(a draw counts half a win to each side), on the usual Elo scale
(400 points = odds of 10 to 1), with standard errors from the observed information
and 95% intervals (+-1.96 standard errors). The scale is anchored at ``greedy`` = 0
when greedy plays, otherwise centred on the mean of the agents. Not at ``random``:
strong agents beat random in nearly every game, so random's own rating is poorly
determined and everything measured from it moved by hundreds of points between
runs. Ratings are quoted to the nearest 10 points (``ELO_ROUND``): their intervals
are wider than that at any practical number of games.

Wilson intervals come from scipy (``binomtest(...).proportion_ci``) and the table
is drawn by rich (the ``eval`` extra, also in ``train``).
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from mushgym.options import parse_options

from .base import Agent
from .factory import make_agent
from .mcts import PRETRAINED
from .play import _as_game, play_seeds
from .runs import new_run_dir

ELO_SCALE = 400.0 / math.log(10.0)
ELO_ROUND = 10  # ratings and intervals are quoted to this many points
Z95 = 1.959963984540054
BASELINES = ("random", "greedy")


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (scipy's ``binomtest``)."""
    if n <= 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def round_elo(x: float) -> int:
    return int(ELO_ROUND * round(x / ELO_ROUND))


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
    wins: int  # games A won
    draws: int
    losses: int  # games A lost
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
    anchor: str | None = None  # the agent rated 0, or None: ratings centred on their mean

    def elo_interval(self, name: str) -> tuple[float, float]:
        """95% interval of ``name``'s rating (+-1.96 standard errors)."""
        return (self.elo[name] - Z95 * self.elo_se[name], self.elo[name] + Z95 * self.elo_se[name])

    @property
    def scale(self) -> str:
        return f"{self.anchor} = 0" if self.anchor else "mean of the agents = 0"

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
            row = {
                "env": self.env_id,
                "agent_a": m.a,
                "agent_b": m.b,
                "games": m.games,
                "wins_a": m.wins,
                "draws": m.draws,
                "losses_a": m.losses,
            }
            for which in ("wins", "draws", "losses"):
                lo, hi = m.interval(which)
                row[f"{which}_rate"] = round(m.rate(which), 4)
                row[f"{which}_ci95_lo"] = round(lo, 4)
                row[f"{which}_ci95_hi"] = round(hi, 4)
            row["elo_a"] = round_elo(self.elo[m.a])
            row["elo_b"] = round_elo(self.elo[m.b])
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
            w.writerow(["env", "agent", "elo", "elo_ci95_lo", "elo_ci95_hi", "elo_se", "scale"])
            for name in self.ranking():
                lo, hi = self.elo_interval(name)
                w.writerow(
                    [
                        self.env_id,
                        name,
                        round_elo(self.elo[name]),
                        round_elo(lo),
                        round_elo(hi),
                        round_elo(self.elo_se[name]),
                        self.scale,
                    ]
                )
        return path, elo_path

    def ranking(self) -> list[str]:
        return sorted(self.names, key=lambda n: -self.elo[n])

    def rich_tables(self):
        """The match table and the rating table as ``rich.table.Table`` objects."""
        from rich.table import Table
        from rich.text import Text  # names as plain text: no markup, no emoji codes ("mcts:100:greedy")

        matches = Table(title=f"{self.env_id}: round robin, seats rotated, 95% Wilson intervals", title_justify="left")
        for col in ("A", "B"):
            matches.add_column(col, overflow="fold")  # full names, folded rather than cut
        matches.add_column("games", justify="right")
        for col in ("A wins %", "draws %", "A losses %"):
            matches.add_column(col, justify="right", no_wrap=True)
        for m in self.matches:
            cells = []
            for which in ("wins", "draws", "losses"):
                lo, hi = m.interval(which)
                cells.append(f"{100 * m.rate(which):.1f} [{100 * lo:.1f}, {100 * hi:.1f}]")
            matches.add_row(Text(m.a), Text(m.b), f"{m.games:,}", *cells)
        ratings = Table(
            title=f"Bradley-Terry Elo, {self.scale}",
            title_justify="left",
            caption=f"95% intervals, rounded to {ELO_ROUND}",
            caption_justify="left",
        )
        ratings.add_column("agent", overflow="fold")
        ratings.add_column("Elo", justify="right")
        ratings.add_column("95% interval", justify="right")
        for name in self.ranking():
            lo, hi = self.elo_interval(name)
            interval = "(anchor)" if name == self.anchor else f"[{round_elo(lo)}, {round_elo(hi)}]"
            ratings.add_row(Text(name), f"{round_elo(self.elo[name])}", interval)
        return matches, ratings

    def table(self, width: int = 120) -> str:
        """Both tables as plain text."""
        from rich.console import Console

        console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
        for t in self.rich_tables():
            console.print(t)
        return console.export_text()

    def print(self) -> None:
        import sys

        from rich.console import Console

        # a terminal's own width; 160 columns in logs and pipes (rich would assume 80)
        console = Console(width=None if sys.stdout.isatty() else 160)
        for t in self.rich_tables():
            console.print(t)


def bradley_terry_elo(
    names: Sequence[str],
    matches: Sequence[MatchResult],
    anchor: str | None = None,
    prior_games: float = 0.5,
    iters: int = 200,
) -> tuple[dict[str, float], dict[str, float]]:
    """Bradley-Terry strengths by Newton's method, returned on the Elo scale.

    Written here rather than taken from a library: the fit is 30 lines of numpy, and the
    pieces it needs together (virtual draws as a prior, a chosen anchor or the mean as the
    gauge, standard errors from the observed information in that gauge) are not offered
    as one call by scipy, and ``choix`` / ``statsmodels`` would be new dependencies.

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


def check_game_count(games: Any, name: str = "games") -> None:
    """A game count must be a positive integer: ``ValueError`` naming it otherwise (0 or -3
    games would give an empty table, and 2.5 a silent truncation)."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"{name} must be a positive integer (games per pair), got {games!r}")


def play_match(
    game,
    agent_a: Agent,
    agent_b: Agent,
    games: int,
    seed: int = 0,
    name_a: str = "A",
    name_b: str = "B",
    batch_size: int = 128,
    replays: str | Path | None = None,
    replay_games: int | None = None,
) -> MatchResult:
    """``games`` games of A against B with the seats rotated (see :func:`seating`); with
    ``replays``, the first ``replay_games`` (default all) of each seating saved there as replay
    files (:mod:`mushgym.replay`)."""
    check_game_count(games)
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
        res = play_seeds(
            game, seat_agents, [seed + i for i in ids], batch_size, replays=replays, replay_games=replay_games
        )
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


def tournament(
    env_id: str,
    agents: Sequence[Any] | dict[str, Any],
    games: int = 1000,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    batch_size: int = 128,
    verbose: bool = True,
    csv_path: str | Path | None = None,
    anchor: str | None = "auto",
    trust_models: bool = False,
    replays: str | Path | None = None,
    replay_games: int | None = None,
) -> TournamentResult:
    """Round robin between ``agents`` (names ``random``/``greedy``, model paths or Agent objects).

    ``games`` games per pair. Returns a :class:`TournamentResult`; prints its
    table when ``verbose`` and writes CSVs when ``csv_path`` is given. ``anchor``:
    the agent rated 0 (``"auto"``: greedy if it plays, else the mean is 0; None: the mean).
    Loading a saved model sets torch to one thread (see :mod:`mushgym.wrappers.single_agent`).
    ``trust_models``: also load SB3 ``.zip`` archives, which are unpickled (can run code).
    ``replays``: a folder to save games in as replay files (:mod:`mushgym.replay`), the first
    ``replay_games`` (default all) of each seating of each pair.
    """
    check_game_count(games)
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
    extra = {"trust": True} if trust_models else {}
    built = {
        n: make_agent(
            s, env_id=game.env_id, seed=seed + 1000 * i, options=game.options, **(extra if isinstance(s, str) else {})
        )
        for i, (n, s) in enumerate(named)
    }
    if any(type(a).__name__ == "PolicyAgent" for a in built.values()):
        from mushgym.wrappers import set_torch_threads

        set_torch_threads(1)
    matches = []
    for a, b in itertools.combinations(names, 2):
        m = play_match(
            game,
            built[a],
            built[b],
            games,
            seed=seed,
            name_a=a,
            name_b=b,
            batch_size=batch_size,
            replays=replays,
            replay_games=replay_games,
        )
        matches.append(m)
        if verbose:
            print(
                f"  {a} vs {b}: {m.wins}-{m.draws}-{m.losses} in {m.seconds:.1f}s "
                f"({m.steps / max(m.seconds, 1e-9):,.0f} steps/s)",
                flush=True,
            )
    if anchor == "auto":
        anchor = "greedy" if "greedy" in names else None
    elif anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the agents {names}")
    elo, se = bradley_terry_elo(names, matches, anchor=anchor)
    # report every match from the side of the higher-rated agent
    matches = [
        m if elo[m.a] >= elo[m.b] else MatchResult(m.b, m.a, m.games, m.losses, m.draws, m.wins, m.steps, m.seconds)
        for m in matches
    ]
    result = TournamentResult(game.env_id, names, matches, elo, se, anchor)
    if verbose:
        result.print()
    if csv_path is not None:
        paths = result.to_csv(csv_path)
        if verbose:
            print("wrote", *paths)
    return result


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def build_eval_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(
        prog="mushgym eval",
        description="Round-robin tournament with seats rotated: win/draw/loss rates (95%% CI) and Elo.",
    )
    p.add_argument("env", help="env id, e.g. fungi_v0")
    p.add_argument(
        "agents",
        nargs="+",
        help="at least two of: random, greedy, pretrained (the network shipped for the env and "
        "options), mcts:SIMS (information-set MCTS, e.g. mcts:1000), puct:SIMS:pretrained or "
        "puct:SIMS:PATH (the same search as PUCT, with that network as prior and leaf evaluator, "
        "e.g. puct:400:pretrained), or the path of a saved model (a .pt written by mushgym train "
        "or export_policy, or a training .zip)",
    )
    p.add_argument("--games", type=_positive_int, default=1000, help="games per pair (default 1000)")
    p.add_argument(
        "--trust-model",
        action="store_true",
        help="also load SB3 .zip archives: they are unpickled, which runs any code inside them "
        "(weights-only .pt files load safely without this)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--out",
        default=None,
        help="folder for results.csv, results_elo.csv and table.txt (default: a new runs/eval_<env>_<date-time>/)",
    )
    p.add_argument(
        "--csv",
        default=None,
        help="write pairwise results to this file instead (Elo to <stem>_elo.csv, the tables to <stem>_table.txt)",
    )
    p.add_argument("--no-save", action="store_true", help="print the tables only, write no files")
    p.add_argument(
        "--anchor", default="auto", help="agent rated 0 (default: greedy if it plays, else the mean of the agents is 0)"
    )
    p.add_argument(
        "--option",
        "--opt",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option, e.g. num_players=4 (repeatable)",
    )
    p.add_argument(
        "--replays",
        default=None,
        metavar="DIR",
        help="save games as replay files in DIR (watch one with `mushgym replay FILE --out game.html`)",
    )
    p.add_argument(
        "--replay-games",
        type=_positive_int,
        default=2,
        metavar="N",
        help="with --replays: the first N games of each seating of each pair (default 2)",
    )
    return p


def eval_main(argv: Sequence[str] | None = None) -> int:
    """``mushgym eval ENV AGENT_A AGENT_B ... --games N [--seed S] [--csv PATH]``."""
    args = build_eval_parser().parse_args(argv)
    if len(args.agents) < 2:
        raise SystemExit("mushgym eval: give at least two agents")
    try:
        import rich  # noqa: F401
        import scipy.stats  # noqa: F401
    except ImportError as err:
        raise SystemExit(f"mushgym eval needs {err.name}: pip install 'mushgym[eval]'") from err
    import mushgym

    if args.env not in mushgym.list_envs():
        raise SystemExit(f"mushgym eval: unknown env {args.env!r}; registered envs: {', '.join(mushgym.list_envs())}")
    for spec in args.agents:
        problem = agent_spec_problem(spec)
        if problem:
            raise SystemExit(f"mushgym eval: {problem}")
    csv_path = None
    if not args.no_save:
        try:
            csv_path = Path(args.csv) if args.csv else new_run_dir("eval", args.env, args.out) / "results.csv"
        except FileExistsError as err:
            raise SystemExit(f"mushgym eval: {err}") from err
    try:
        result = tournament(
            args.env,
            args.agents,
            games=args.games,
            seed=args.seed,
            options=parse_options(args.option),
            csv_path=csv_path,
            verbose=True,
            anchor=None if args.anchor == "mean" else args.anchor,
            trust_models=args.trust_model,
            replays=args.replays,
            replay_games=args.replay_games,
        )
    except (ValueError, FileNotFoundError) as err:  # bad option value, model for another env, ...
        raise SystemExit(f"mushgym eval: {err}") from err
    if csv_path is not None:  # beside the CSV, named after it, so evaluations into one folder keep their tables
        table_name = f"{csv_path.stem}_table.txt" if args.csv else "table.txt"
        (csv_path.parent / table_name).write_text(result.table())
    return 0


def agent_spec_problem(spec: str) -> str | None:
    """Why ``spec`` cannot name an agent (None if it can): an unknown name or a missing file."""
    import difflib

    if spec in BASELINES or spec == PRETRAINED:
        return None
    if spec.startswith("mcts:"):
        from .mcts import parse_mcts_spec

        parsed = parse_mcts_spec(spec)
        return (
            None
            if parsed is not None and parsed[0] >= 1
            else (
                f"bad MCTS agent {spec!r}: write mcts:SIMS with SIMS a positive number of simulations, e.g. mcts:1000 "
                "(or mcts:SIMS:random / mcts:SIMS:greedy to choose the rollouts)"
            )
        )
    if spec.startswith("puct:"):
        from .mcts import parse_puct_spec

        parsed = parse_puct_spec(spec)
        if parsed is None or parsed[0] < 1:
            return (
                f"bad PUCT agent {spec!r}: write puct:SIMS:pretrained or puct:SIMS:PATH with SIMS a positive "
                "number of simulations and PATH a saved model, e.g. puct:400:pretrained"
            )
        return None if parsed[1] == PRETRAINED or Path(parsed[1]).exists() else f"{spec}: no saved model at {parsed[1]}"
    path = Path(spec)
    if path.exists():
        return None
    if path.suffix in (".zip", ".pt") or "/" in spec or "\\" in spec:
        return f"no saved model at {spec}"
    close = difflib.get_close_matches(spec, BASELINES + (PRETRAINED, "mcts:1000"), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (
        f"unknown agent {spec!r}{hint}; an agent is one of {', '.join(BASELINES)}, {PRETRAINED}, mcts:SIMS "
        "(e.g. mcts:1000), puct:SIMS:pretrained, puct:SIMS:PATH or the path of a saved model (.pt or .zip)"
    )
