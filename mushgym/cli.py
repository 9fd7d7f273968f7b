"""The ``mushgym`` command line: list, describe, play, replay, serve, compile, generate, bench, train, eval, golden."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .options import OptionSyntaxError, parse_options


def cmd_list(args: argparse.Namespace) -> int:
    from .catalog import catalog

    for env_id, entry in sorted(catalog().items()):
        summary = entry["doc"].splitlines()
        choices = ", ".join(f"{k}={v}" for k, v in entry["options"].items())
        print(f"{env_id:14s} {summary[0] if summary else ''}")
        print(f"{'':14s} options: {choices}")
    print("\n`mushgym describe ENV` shows an env's spec, observation and action index tables.")
    return 0


def cmd_describe(args: argparse.Namespace) -> int:
    """The env module's documentation: spec table, observation and action index tables, versions.
    Read from the catalog (no game imported) unless ``--option`` asks for other sizes."""
    import re

    from .catalog import catalog, header

    envs = catalog()
    if args.env not in envs:
        raise SystemExit(f"mushgym describe: unknown env {args.env!r}; registered envs: {', '.join(sorted(envs))}")
    doc = envs[args.env]["doc"]
    if args.opt:
        from . import registry

        top = header(args.env, registry.game(args.env, **parse_options(args.opt)))
    else:
        top = envs[args.env]["header"]
    if args.section:
        parts = re.split(r"(?m)^(?=#+ )", doc)
        wanted = [p for p in parts if p.lstrip("#").strip().lower().startswith(args.section.lower())]
        if not wanted:
            titles = [p.splitlines()[0].lstrip("# ").strip() for p in parts if p.startswith("#")]
            raise SystemExit(f"mushgym describe: no section {args.section!r}; sections: {titles}")
        doc = "\n".join(w.strip() for w in wanted)
    print(top)
    print()
    print(doc)
    return 0


def _opponents(spec: str, game, seat: int, seed: int | None) -> list:
    """One agent per seat but ``seat``, built from ``spec`` (random, greedy, pretrained, mcts:SIMS,
    puct:SIMS:pretrained, puct:SIMS:PATH or a model path)."""
    try:
        from mushgym.agents import make_agent
        from mushgym.agents.evaluate import agent_spec_problem
    except ImportError as err:  # pragma: no cover - agents ship with mushgym
        raise SystemExit(f"mushgym play: {err}") from err
    problem = agent_spec_problem(spec)
    if problem:
        raise SystemExit(f"mushgym play: --opponent: {problem}")
    agents = []
    for p in range(game.num_players):
        if p == seat:
            agents.append(None)
            continue
        try:
            agents.append(
                make_agent(spec, env_id=game.env_id, seed=None if seed is None else seed + 1 + p, options=game.options)
            )
        except (ValueError, FileNotFoundError, ImportError) as err:
            raise SystemExit(f"mushgym play: --opponent {spec}: {err}") from err
    return agents


def cmd_play(args: argparse.Namespace) -> int:
    import numpy as np

    from . import registry

    game = registry.game(args.env, **parse_options(args.opt))
    seat = args.seat
    if not 0 <= seat < game.num_players:
        raise SystemExit(f"mushgym: --seat must be in 0..{game.num_players - 1}")
    agents = _opponents(args.opponent, game, seat, args.seed)
    rng = np.random.default_rng(args.seed)
    game_seed = args.seed if args.seed is not None else int(rng.integers(2**31))
    state = game.new_state(game_seed)
    record = None
    if args.replay:
        from .replay import ReplayWriter

        names = ["you" if p == seat else args.opponent for p in range(game.num_players)]
        record = ReplayWriter(args.replay, game, game_seed, names)
    try:
        return _play_loop(game, state, seat, agents, args.opponent, record)
    finally:
        if record is not None:
            record.close()
            print(f"(the game is saved in {record.path}: `mushgym replay {record.path} --out game.html` shows it)")


def _play_loop(game, state, seat: int, agents: list, opponent: str, record) -> int:
    from .human import ask_move, legend
    from .web.page import HIDDEN_MOVE, move_seen

    who = "a random player" if opponent == "random" else opponent
    print(
        f"{game.env_id}: you are player {seat}; every other seat is {who}. "
        "Each turn, type the number of a move from the list (q quits)."
    )
    text = legend(game)
    if text:
        print(text)
    while not game.is_terminal(state):
        player = game.current_player(state)
        if player != seat:
            agent = agents[player]
            obs = game.observe(state, player)
            mask = game.legal_mask(state)
            why = None
            if record is not None:
                why = agent.explain(game, state, player)
                action = why["action"]
            elif agent.uses_state:
                action = int(agent.act_state(game, state, player, obs, mask))
            else:
                action = int(agent.act(obs, mask))
            seen = move_seen(game, state, action, seat)  # a card played face down is not named
            print(f"player {player}: {game.action_to_string(state, action) if seen else HIDDEN_MOVE}")
            if record is not None:
                record.move(state, action, why)
            state = game.step(state, action)
            continue
        print()
        print(game.render_text(state, seat))
        action = ask_move(game, state)
        if action is None:
            print("\nyou quit; the table as it stands:")
            print(game.render_text(state, seat))
            return 0
        if record is not None:
            record.move(state, action)
        state = game.step(state, action)
    if record is not None:
        record.end(state)
    print()
    print(game.render_text(state, None))
    returns = game.returns(state)
    best = returns.max()
    verdict = (
        "You win!"
        if returns[seat] == best and (returns == best).sum() == 1
        else "A tie."
        if returns[seat] == best
        else "You lose."
    )
    print(f"game over: returns {returns.tolist()} (you are player {seat}). {verdict}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """A replay file as a page (.html), a GIF or an MP4 (see mushgym.web.page)."""
    from .replay import load_replay
    from .web.page import VIDEO_SUFFIXES, replay_page, write_video

    if args.seat is not None and args.omniscient:
        raise SystemExit("mushgym replay: give --seat N (one seat's view) or --omniscient (every hand), not both")
    out = Path(args.out) if args.out else Path(args.file).with_suffix(".html")
    suffix = out.suffix.lower()
    if suffix not in (".html",) + VIDEO_SUFFIXES:
        raise SystemExit(f"mushgym replay: --out must end in .html, .gif or .mp4, got {out}")
    try:
        replay = load_replay(args.file)
        if suffix == ".html":
            out.write_text(replay_page(replay, args.seat), encoding="utf-8")
        else:
            write_video(replay, out, args.seat, fps=args.fps)
    except ValueError as err:  # a ReplayError (malformed, another version, illegal), a bad seat
        raise SystemExit(f"mushgym replay: {err}") from None
    view = "every hand shown" if args.seat is None else f"seat {args.seat}'s view"
    print(f"wrote {out} ({len(replay.moves)} moves, {view})")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The local web app (mushgym.web.server), with the agents of mushgym.agents."""
    try:
        import flask  # noqa: F401
    except ImportError:
        raise SystemExit("mushgym serve needs Flask: pip install 'mushgym[web]'") from None
    from mushgym.agents import make_agent

    from .web.server import serve

    serve(make_agent, host=args.host, port=args.port, replays=args.replays, ladders=args.ladders)
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    from .testing import regenerate_golden

    try:
        written = (
            regenerate_golden(args.dir, args.envs) if args.dir is not None else regenerate_golden(env_ids=args.envs)
        )
    except ValueError as err:
        raise SystemExit(f"mushgym golden: {err}") from None
    for path in written:
        print(f"wrote {path}")
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    """Delete numba's compiled-kernel cache of every game (the next use recompiles)."""
    from pathlib import Path

    from .core.cache import clear_all_caches
    from .registry import game_folders

    removed = clear_all_caches([Path(f) for f in game_folders()])
    print(f"removed {removed} numba cache files")
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile every kernel of the given envs (default: all) into numba's cache, groups side by side."""
    import time

    from .compiling import GROUPS
    from .precompile import compile_envs

    groups = args.group or list(GROUPS)
    t0 = time.perf_counter()
    try:
        compile_envs(args.envs or None, groups=groups, workers=args.workers)
    except ValueError as err:
        raise SystemExit(f"mushgym compile: {err}") from err
    print(f"compiled (or loaded) in {time.perf_counter() - t0:.1f} s; later processes load the cache")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    """Write the code generated from the games' declarations (``mushgym.generate``)."""
    from .generate import generate, stale_files

    paths = args.path or None
    if args.check:
        stale = stale_files(paths)
        for line in stale:
            print(line)
        if stale:
            print(
                f"{len(stale)} generated file(s) out of date: run `mushgym generate"
                f"{''.join(f' --path {p}' for p in args.path or [])}`",
                file=sys.stderr,
            )
            return 1
        print("every generated file is current")
        return 0
    changed = generate(paths)
    print(f"{len(changed)} file(s) written or removed" if changed else "every generated file is current")
    return 0


def _delegate(module: str, func: str, argv: list[str]) -> int:
    import importlib

    try:
        main = getattr(importlib.import_module(module), func)
    except ImportError as err:
        extra = {"eval_main": "eval", "train_main": "train"}.get(func, "bench")
        if func == "train_main" and any(a == "rllib" or a == "--backend=rllib" for a in argv):
            extra = "rllib"
        hint = f" (install the extra: pip install 'mushgym[{extra}]')"
        raise SystemExit(f"mushgym: this command could not be loaded: {err}{hint}") from err
    return int(main(argv) or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mushgym", description="Mushroom game RL environments.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="list the registered envs and their options")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("describe", help="an env's spec, observation and action index tables")
    p.add_argument("env")
    p.add_argument(
        "--section", default=None, help="only the section whose title starts with this (e.g. observation, action)"
    )
    p.add_argument(
        "--option",
        "--opt",
        dest="opt",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option for the sizes in the header (e.g. --option num_players=4)",
    )
    p.set_defaults(func=cmd_describe)
    p = sub.add_parser(
        "play",
        help="play an env in the terminal against random, greedy, the pretrained network, a search or a saved model",
    )
    p.add_argument("env")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument(
        "--opponent",
        default="random",
        metavar="random|greedy|pretrained|mcts:SIMS|puct:SIMS:pretrained|puct:SIMS:PATH|PATH",
        help="who plays the other seats: random (default), greedy, pretrained (the network shipped "
        "for the env and options; needs the train extra), mcts:SIMS (information-set MCTS with "
        "SIMS simulations per move, e.g. mcts:1000), puct:SIMS:pretrained or puct:SIMS:PATH (the "
        "same search with that network as prior and leaf evaluator), or a saved model (.pt or .zip)",
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--option",
        "--opt",
        dest="opt",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option, repeatable (e.g. --option num_players=4)",
    )
    p.add_argument(
        "--replay",
        default=None,
        metavar="FILE",
        help="save the game as a replay file (JSON lines; `mushgym replay FILE` shows it)",
    )
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("replay", help="watch a replay file: a self-contained HTML page, a GIF or an MP4")
    p.add_argument("file", help="a replay file (JSON lines, from mushgym play --replay, eval --replays, ...)")
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="game.html (default: the replay's name with .html), game.gif or game.mp4",
    )
    p.add_argument("--seat", type=int, default=None, help="draw the table as this seat sees it (its hand only)")
    p.add_argument("--omniscient", action="store_true", help="show every hand (the default)")
    p.add_argument("--fps", type=float, default=2.0, help="positions per second of a GIF or MP4 (default 2)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("serve", help="play any env against any agent in the browser, watch replays, read the ladders")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--replays", default=None, metavar="DIR", help="the replay folder to browse; finished games are saved there too"
    )
    p.add_argument(
        "--ladders",
        default=None,
        metavar="DIR",
        help="folder of Elo ladder records (*_elo.csv), shown as the leaderboard (default: none)",
    )
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("compile", help="compile the kernels of some envs (default: all) ahead of first use")
    p.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: every registered env)")
    p.add_argument(
        "--group",
        action="append",
        choices=["game", "rollouts", "vector", "vector_parallel", "single_agent", "single_agent_parallel"],
        help="only these kernel groups (repeatable; default: all; the *_parallel ones, used from "
        "256 envs up, take minutes)",
    )
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    p.set_defaults(func=cmd_compile)
    p = sub.add_parser(
        "generate",
        help="write the code generated from the games' declarations (layout "
        "accessors, decision stack, batch and search loops) as modules",
    )
    p.add_argument(
        "--path",
        action="append",
        type=Path,
        default=None,
        metavar="DIR",
        help="a game package, or a folder of them (repeatable; default: every game folder, "
        "the package's envs and MUSHGYM_GAMES_PATH)",
    )
    p.add_argument(
        "--check", action="store_true", help="write nothing; list the files that are out of date and exit 1 if any"
    )
    p.set_defaults(func=cmd_generate)
    p = sub.add_parser("cache-clear", help="delete the compiled-kernel cache (numba) of every game")
    p.set_defaults(func=cmd_cache)
    p = sub.add_parser(
        "golden",
        help="regenerate the golden playthrough files (default: tests/golden of a source "
        "checkout; refuses to write inside an installed package)",
    )
    p.add_argument("envs", nargs="*", metavar="ENV", help="only these env ids (default: every registered env)")
    p.add_argument("--dir", type=Path, default=None, help="folder to write the golden files into")
    p.set_defaults(func=cmd_golden)
    for name, module, func, text in (
        ("bench", "mushgym.bench", "main", "throughput of every API (see `mushgym bench -h`)"),
        (
            "train",
            "mushgym.agents.cli",
            "train_main",
            "train MaskablePPO, self-play PPO on Ray RLlib with --backend rllib, or expert iteration with --algo expert (see `mushgym train -h`)",  # noqa: E501 (a literal that reads best on one line)
        ),
        ("eval", "mushgym.agents.cli", "eval_main", "round-robin tournament with Elo (see `mushgym eval -h`)"),
    ):
        p = sub.add_parser(name, help=text, add_help=False)
        p.set_defaults(func=None, delegate=(module, func))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if not getattr(args, "delegate", None) and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if getattr(args, "delegate", None):
            module, func = args.delegate
            return _delegate(module, func, rest)
        return args.func(args)
    except OptionSyntaxError as err:
        raise SystemExit(f"mushgym: {err}") from None
    except ValueError as err:  # a bad env id, option, model file, deck file...: the library's clear message
        if os.environ.get("MUSHGYM_DEBUG"):
            raise
        print(f"mushgym {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
