"""Elo ladder of search against learning and baselines: random, greedy, the pretrained network
(if the library has one for the env and option set), information-set MCTS at 100 and 1,000
simulations (10,000 with --big). Round robin with seats rotated (mushgym.agents.tournament's
seating), Bradley-Terry Elo with 95% intervals, greedy rated 0. Writes <env>_<n>p.csv,
<env>_<n>p_elo.csv, <env>_<n>p.txt and a plot <env>_<n>p.png into benchmarks/search_ladder/.

    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 60
    python benchmarks/search_ladder.py mycology_v1 --players 2 --games 16 --skip random,mcts:100 --skip random,mcts:1000
    python benchmarks/search_ladder.py mycology_v1 --players 4 --games 12 --skip random,mcts:100 --skip random,mcts:1000
    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 60 \
        --agents greedy pretrained mcts:400 puct:400:pretrained \
        --tag _puct
    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 40 --big --games-for mcts:10000=10 --tag _big
    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 40 --big --games-for mcts:10000=10 --tag _big \
        --report
    python benchmarks/search_ladder.py mycelia_v1 --players 2 --games 40 --option expansion=north_america --tag _na

(``--option NAME=VALUE`` plays a variant: the option set goes into the game and into the record;
give the run a ``--tag`` of its own so its files do not mix with the base game's.)

(``pretrained`` in --agents, alone or as ``puct:SIMS:pretrained``, is the library's network for the
env and option set, :func:`mushgym.agents.pretrained`; ``puct:SIMS:PATH`` searches with a network of yours.)

Long runs survive being cut: every pairing writes its games as they finish (``chunk_size``: two
at a time from 1,000 simulations, one seat rotation of 2 x players games for smaller searches,
all at once without search), to ``<stem>_pairs/<A>__<B>.csv`` (one row per
chunk: the first game, games, A's wins, draws, A's losses, steps, seconds); a rerun of the same
command resumes each pairing where it stopped (same seeds, same seats), and ``--report`` writes
the ladder from whatever games the pairing files hold. Pairings run cheapest first. The same
command started in several shells shares the games: each claims the next chunk no other live
process plays (one process per core halves a long pairing's wall clock).
``--games-for AGENT=N`` plays N games (instead of --games) in every pairing with AGENT;
``--games-pair A,B=N`` plays N games in the pairing of A and B (over both).

(random's Mycology games last ~500 decisions, so MCTS against random is the slowest pair and
the least informative: skipped there; random is rated through greedy.)
"""

from __future__ import annotations

import argparse
import csv
import datetime
import itertools
import os
import re
import subprocess
import time
from pathlib import Path

import mushgym
from mushgym.agents import make_agent
from mushgym.agents.evaluate import MatchResult, TournamentResult, bradley_terry_elo, seating
from mushgym.agents.play import play_seeds
from mushgym.bench.measure import describe_machine, machine
from mushgym.options import parse_options

HERE = Path(__file__).resolve().parent
OUT = HERE / "search_ladder"
PAIR_FIELDS = ["start", "games", "wins", "draws", "losses", "steps", "seconds"]


def has_pretrained(env: str, options: dict) -> bool:
    """Whether the library ships a network for ``env`` with these game ``options``."""
    from mushgym.agents.pretrained_models import find_manifest

    try:
        find_manifest(env, **options)
    except ValueError:
        return False
    return True


def simulations(name: str) -> int:
    """The simulations per move of an ``mcts:``/``puct:`` spec (0 for the others): the cost order."""
    m = re.match(r"^(?:mcts|puct):(\d+)", name)
    return int(m.group(1)) if m else 0


def pair_path(folder: Path, a: str, b: str) -> Path:
    return folder / f"{label(a).replace(':', '-')}__{label(b).replace(':', '-')}.csv"


def read_pair(path: Path, a: str, b: str) -> MatchResult | None:
    """The games a pairing file holds, summed over its chunks (None if it has none)."""
    if not path.exists():
        return None
    with path.open() as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    tot = {k: sum(float(r[k]) for r in rows) for k in PAIR_FIELDS[1:]}
    return MatchResult(
        a,
        b,
        int(tot["games"]),
        int(tot["wins"]),
        int(tot["draws"]),
        int(tot["losses"]),
        int(tot["steps"]),
        tot["seconds"],
    )


def play_range(game, agent_a, agent_b, a: str, b: str, start: int, n: int, seed: int) -> MatchResult:
    """Games ``start .. start + n - 1`` of a match of A against B, dealt and seated as ``play_match``
    deals and seats them (game ``i``: seed ``seed + i``, seats of arrangement ``i % (2 or 2P)``,
    see ``seating``). Agents drawing from their own generator (random, greedy's tie-breaks)
    continue it across chunks, so their moves can differ from one long call's; MCTS's cannot
    (its generator is seeded from its seed and what it sees)."""
    P = game.num_players
    n_arr = 2 if P == 2 else 2 * P
    wins = draws = losses = steps = 0
    t0 = time.perf_counter()
    for arrangement in range(n_arr):
        ids = [i for i in range(start, start + n) if i % n_arr == arrangement]
        if not ids:
            continue
        who = seating(arrangement, P)
        res = play_seeds(game, [agent_a if w == 0 else agent_b for w in who], [seed + i for i in ids], 64)
        rets = res["returns"]
        best_a = rets[:, [s for s in range(P) if who[s] == 0]].max(axis=1)
        best_b = rets[:, [s for s in range(P) if who[s] == 1]].max(axis=1)
        wins += int((best_a > best_b).sum())
        losses += int((best_a < best_b).sum())
        draws += int((best_a == best_b).sum())
        steps += res["steps"]
    return MatchResult(a, b, n, wins, draws, losses, steps, time.perf_counter() - t0)


def chunk_size(a: str, b: str, players: int, games: int) -> int:
    """Games per row of a pairing file: a cut run loses at most one chunk. Searches write one
    seat rotation (2 x players games: a board game's ``mcts:100`` takes seconds a game) or, from
    1,000 simulations, 2 games; pairings without search write all their games at once."""
    sims = max(simulations(a), simulations(b))
    if sims >= 1000:
        return 2
    return min(games, 2 * players) if sims > 0 else games


def done_games(path: Path) -> set[int]:
    """The game indices a pairing file's rows hold (row: first game, games, ...)."""
    if not path.exists():
        return set()
    with path.open() as f:
        return {g for r in csv.DictReader(f) for g in range(int(r["start"]), int(r["start"]) + int(r["games"]))}


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (signal 0 only asks; another user's process refuses it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def claimed_games(path: Path) -> set[int]:
    """The games other processes are playing: ``<pairing>.<first>.claim`` files holding ``pid games``.
    A claim whose process has died is removed (its chunk is played again)."""
    taken: set[int] = set()
    for claim in path.parent.glob(f"{path.stem}.*.claim"):
        try:
            pid, n = (int(x) for x in claim.read_text().split())
            first = int(claim.name[len(path.stem) + 1 : -len(".claim")])
        except (OSError, ValueError):
            continue  # being written, or just released
        if _alive(pid):
            taken.update(range(first, first + n))
        else:
            claim.unlink(missing_ok=True)
    return taken


def claim_chunk(path: Path, games: int, chunk: int) -> tuple[int, int, Path] | None:
    """Claim the next ``chunk`` games of a pairing that no row holds and no live process plays: the
    first such game and the free games after it. Returns (first, games, claim file), or None when
    every game is played or being played. Processes running the same command share the work."""
    while True:
        taken = done_games(path) | claimed_games(path)
        free = next((g for g in range(games) if g not in taken), None)
        if free is None:
            return None
        n = 1
        while n < chunk and free + n < games and free + n not in taken:
            n += 1
        claim = path.parent / f"{path.stem}.{free}.claim"
        try:
            fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            continue  # another process claimed it first
        with os.fdopen(fd, "w") as f:
            f.write(f"{os.getpid()} {n}")
        return free, n, claim


def play_pair(
    game, agent_a, agent_b, a: str, b: str, games: int, seed: int, path: Path, chunk: int
) -> MatchResult | None:
    """Play (or resume) ``games`` games of a pairing, appending a row to ``path`` per chunk of
    ``chunk`` games: game ``i`` has seed ``seed + i`` and the seats of arrangement ``i``, as in
    one ``play_match`` call of all the games, however they are cut into chunks. Several processes
    running the same command share a pairing's chunks (``claim_chunk``): start the command once
    per core. Returns the games the file holds: None if none has finished yet (other processes
    play them all)."""
    if not path.exists():
        with path.open("w", newline="") as f:
            csv.writer(f).writerow(PAIR_FIELDS)
    while (claimed := claim_chunk(path, games, chunk)) is not None:
        start, n, claim = claimed
        try:
            m = play_range(game, agent_a, agent_b, a, b, start, n, seed)
            with path.open("a", newline="") as f:
                csv.writer(f).writerow([start, m.games, m.wins, m.draws, m.losses, m.steps, round(m.seconds, 2)])
        finally:
            claim.unlink(missing_ok=True)
        print(f"    {a} vs {b}: {len(done_games(path))}/{games} games", flush=True)
    return read_pair(path, a, b)


def record_fields() -> dict[str, str]:
    """What dates a benchmark record: date (UTC), machine and commit."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return {"date": when, "machine": describe_machine(machine()), "commit": commit}


def record_header(command: str) -> str:
    """The lines that date a ladder record: date, machine, commit and the command that made it."""
    f = record_fields()
    return f"{command}\n\ndate: {f['date']}\nmachine: {f['machine']}\ncommit: {f['commit']}\n"


def label(name: str) -> str:
    """A short label: a model path by its file stem (``puct:400:<path>`` as ``puct:400:<stem>``)."""
    if name.startswith("puct:") and "/" in name:
        head, _, path = name.partition(":")[2].partition(":")
        return f"puct:{head}:{Path(path).stem}"
    return Path(name).stem if "/" in name else name


def plot(result, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(result.names, key=lambda n: result.elo[n])
    elo = [result.elo[n] for n in names]
    lo = [result.elo[n] - result.elo_interval(n)[0] for n in names]
    hi = [result.elo_interval(n)[1] - result.elo[n] for n in names]
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(names)))
    ax.errorbar(elo, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), [label(n) for n in names])
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel(f"Elo ({result.scale}), 95% interval")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=60, help="games per pair (seats rotated)")
    ap.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="AGENT=N",
        help="games in every pairing with AGENT (repeatable; the smallest applies)",
    )
    ap.add_argument(
        "--games-pair",
        action="append",
        default=[],
        metavar="A,B=N",
        help="games in the pairing of A and B (repeatable; overrides --games and --games-for)",
    )
    ap.add_argument("--big", action="store_true", help="also MCTS at 10,000 simulations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--agents",
        nargs="+",
        default=None,
        help="the agents (default: random, greedy, the pretrained network if any, mcts:100, mcts:1000)",
    )
    ap.add_argument("--tag", default="", help="suffix of the output files")
    ap.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="A,B",
        help="do not play this pair (repeatable); the ratings still connect through the others",
    )
    ap.add_argument(
        "--option",
        "--opt",
        dest="opt",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option, repeatable (e.g. --option team=true); num_players comes from --players",
    )
    ap.add_argument(
        "--report", action="store_true", help="play nothing: write the ladder from the games the pairing files hold"
    )
    args = ap.parse_args(argv)
    agents = ["random", "greedy"]
    if has_pretrained(args.env, {**parse_options(args.opt), "num_players": args.players}):
        agents.append("pretrained")
    agents += ["mcts:100", "mcts:1000"] + (["mcts:10000"] if args.big else [])

    if args.agents:
        agents = list(args.agents)
    games_for = {}
    for item in args.games_for:
        name, _, n = item.partition("=")
        if not n.isdigit() or int(n) < 1:
            raise SystemExit(f"--games-for wants AGENT=N with N a positive integer, got {item!r}")
        games_for[name] = int(n)
    games_pair = {}
    for item in args.games_pair:
        names, _, n = item.rpartition("=")
        if not n.isdigit() or int(n) < 1 or len(names.split(",")) != 2:
            raise SystemExit(f"--games-pair wants A,B=N with N a positive integer, got {item!r}")
        games_pair[frozenset(names.split(","))] = int(n)
    game = mushgym.game(args.env)
    options = parse_options(args.opt)
    if "num_players" in options:
        raise SystemExit("give the player count with --players, not --option num_players=N")
    if "num_players" in game.option_choices:
        options["num_players"] = args.players
    OUT.mkdir(exist_ok=True)
    stem = f"{args.env}_{args.players}p{args.tag}"
    pairs_dir = OUT / f"{stem}_pairs"
    pairs_dir.mkdir(exist_ok=True)
    game = mushgym.game(args.env, **options)
    skip = {frozenset(p.split(",")) for p in args.skip}
    pairs = [(a, b) for a, b in itertools.combinations(agents, 2) if frozenset((a, b)) not in skip]
    pairs.sort(key=lambda ab: (max(simulations(ab[0]), simulations(ab[1])), simulations(ab[0]) + simulations(ab[1])))

    def n_games(a, b):
        if frozenset((a, b)) in games_pair:
            return games_pair[frozenset((a, b))]
        return min([args.games] + [games_for[x] for x in (a, b) if x in games_for])

    matches = []
    if args.report:
        matches = [m for a, b in pairs if (m := read_pair(pair_path(pairs_dir, a, b), a, b)) is not None]
    else:
        built = {n: make_agent(n, env_id=args.env, seed=args.seed + 1000 * i) for i, n in enumerate(agents)}
        if any(type(a).__name__ == "PolicyAgent" or getattr(a, "network", None) is not None for a in built.values()):
            from mushgym.wrappers import set_torch_threads

            set_torch_threads(1)  # as mushgym eval does: torch's threads fight the search's
        for a, b in pairs:
            m = play_pair(
                game,
                built[a],
                built[b],
                a,
                b,
                n_games(a, b),
                args.seed,
                pair_path(pairs_dir, a, b),
                chunk_size(a, b, args.players, n_games(a, b)),
            )
            if m is None:  # every game of it is being played by other processes, none finished yet
                print(f"  {a} vs {b}: played by another process", flush=True)
                continue
            matches.append(m)
            print(f"  {a} vs {b}: {m.wins}-{m.draws}-{m.losses} in {m.seconds:.1f}s", flush=True)
    played = [n for n in agents if any(n in (m.a, m.b) for m in matches)]
    elo, se = bradley_terry_elo(played, matches, anchor="greedy")
    matches = [
        m if elo[m.a] >= elo[m.b] else MatchResult(m.b, m.a, m.games, m.losses, m.draws, m.wins, m.steps, m.seconds)
        for m in matches
    ]
    result = TournamentResult(game.env_id, played, matches, elo, se, "greedy")
    result.print()
    result.to_csv(OUT / f"{stem}.csv")
    command = (
        f"python benchmarks/search_ladder.py {args.env} --players {args.players} --games {args.games}"
        + "".join(f" --games-for {g}" for g in args.games_for)
        + "".join(f" --games-pair {g}" for g in args.games_pair)
        + f"{' --big' if args.big else ''} --seed {args.seed}"
        + "".join(f" --skip {p}" for p in args.skip)
        + "".join(f" --option {o}" for o in args.opt)
        + (f" --agents {' '.join(args.agents)}" if args.agents else "")
        + (f" --tag {args.tag}" if args.tag else "")
    )
    planned = "\n".join(
        f"  {label(a)} vs {label(b)}: {(m.games if m else 0)} of {n_games(a, b)} games played"
        for a, b in pairs
        for m in [read_pair(pair_path(pairs_dir, a, b), a, b)]
    )
    (OUT / f"{stem}.txt").write_text(
        record_header(command) + "\npairings (planned, played):\n" + planned + "\n\n" + result.table()
    )
    games_text = (
        f"{args.games} games per pair"
        + "".join(f", {g.replace('=', ': ')}" for g in args.games_for)
        + "".join(f", {g.replace(',', ' vs ').replace('=', ': ')}" for g in args.games_pair)
    )
    variant = "".join(f", {o}" for o in args.opt)
    plot(result, OUT / f"{stem}.png", f"{args.env}{variant}, {args.players} players, {games_text}")
    print("wrote", OUT / f"{stem}.png")


if __name__ == "__main__":
    main()
