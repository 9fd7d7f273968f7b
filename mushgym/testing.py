"""The checks every registered game must pass, usable from tests and by game authors.

``tests/harness/test_harness.py`` runs them over the whole registry, so a new game is
covered the moment it registers. Regenerate the golden playthrough files with::

    python -m mushgym.testing --regen-golden
"""

from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from .game import Game

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
GOLDEN_SEED = 20261129


def option_sets(game_class: type[Game]) -> list[dict[str, Any]]:
    """Defaults, then every non-default value of each option one at a time (all player counts).
    A value the game refuses on its own (e.g. Mycelia's fifth player without its expansion) is
    left out: it is played through ``combinable_options`` (:func:`option_combinations`).

    A game class may name its own list instead (``harness_option_sets``): a new version of a
    game that differs from the old one only in what the harness checks once (e.g.
    another observation of the same rules), so that CI
    does not play the same rules twice with every option set."""
    declared = getattr(game_class, "harness_option_sets", None)
    if declared is not None:
        return [dict(o) for o in declared]
    sets: list[dict[str, Any]] = [{}]
    for name, choices in game_class.option_choices.items():
        if name.endswith("_path"):
            continue
        for value in choices:
            if value != game_class.default_options.get(name):
                if value in game_class.needs_other_options.get(name, ()):
                    continue
                sets.append({name: value})
    return sets


def harness_games(game_class: type[Game], options: dict[str, Any], games: int) -> int:
    """How many games a default-run harness check plays for this option set: ``games``, or a
    quarter of it (at least 1) when the set sets an option the game lists in
    ``harness_small_options`` (a name, or a ``(name, value)`` pair; variants whose full-size
    runs are behind the ``slow`` marker)."""
    small = getattr(game_class, "harness_small_options", ())
    hit = any(name in small or (name, value) in small for name, value in options.items())
    return max(1, games // 4) if hit else games


def option_combinations(game_class: type[Game]) -> list[dict[str, Any]]:
    """Every allowed combination of two or more non-default values of the options the game
    lists in ``combinable_options`` (variants meant to be played together); the game's own
    constructor decides what is allowed (a refused combination raises ValueError and is left
    out: the refusal is tested with its message by the game's tests). Single options are
    :func:`option_sets`'s."""
    import itertools

    names = tuple(getattr(game_class, "combinable_options", ()))
    from .core.header import HEADER_WORDS

    out: list[dict[str, Any]] = []
    seen = {game_class(**o).config[:-HEADER_WORDS].tobytes() for o in option_sets(game_class)} if names else set()
    for values in itertools.product(*(game_class.option_choices[n] for n in names)):
        opts = {n: v for n, v in zip(names, values) if v != game_class.default_options.get(n)}
        if len(opts) < 2:
            continue
        try:
            game = game_class(**opts)
        except ValueError:
            continue
        # the same rules under two names (legends implies the Tavern; 2 players play the Team
        # rules) give the same config table before its header: one case
        config = game.config[:-HEADER_WORDS].tobytes()
        if config in seen:
            continue
        seen.add(config)
        out.append(opts)
    return out


def options_id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"


def random_states(game: Game, n_games: int = 6, seed: int = 0, every: int = 3) -> list[np.ndarray]:
    """Copies of the states met in uniform-random play (every ``every``-th decision) of the
    games dealt from ``seed``, ``seed + 1``, ... (``n_games`` of them)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(n_games):
        s = game.new_state(seed + g)
        t = 0
        while not game.is_terminal(s):
            if t % every == 0:
                out.append(s.copy())
            legal = game.legal_actions(s)
            game.step_inplace(s, int(legal[rng.integers(legal.size)]))
            t += 1
    return out


def random_trajectory(
    game: Game, seed: int, check: bool = True, max_steps: int | None = None
) -> Iterator[tuple[np.ndarray, int]]:
    """Yield ``(state, action)`` along one uniform-random game (``state`` before ``action``).

    With ``check``, after every step: the game's own invariants, a non-empty mask
    while the game is running, the observation's shape, dtype and bounds for every
    player, and the declared maximum length.
    """
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    limit = game.spec.max_game_length if max_steps is None else max_steps
    steps = 0
    while not game.is_terminal(state):
        if check:
            game.check_invariants(state)
            check_observations(game, state)
        legal = game.legal_actions(state)
        assert legal.size > 0, f"{game.env_id} seed {seed}: no legal action at step {steps} in a running game"
        assert steps < game.spec.max_game_length, (
            f"{game.env_id} seed {seed}: game still running after the declared max length {game.spec.max_game_length}"
        )
        if steps >= limit:
            return
        action = int(legal[rng.integers(legal.size)])
        yield state, action
        state = game.step(state, action)
        steps += 1
    if check:
        game.check_invariants(state)
        check_observations(game, state)
        rets = game.returns(state)
        lo, hi = game.spec.reward_range
        assert ((rets >= lo) & (rets <= hi)).all(), f"{game.env_id}: returns {rets} outside {game.spec.reward_range}"
        if game.spec.zero_sum:
            assert abs(rets.sum()) < 1e-9, f"{game.env_id}: zero-sum game returned {rets}"
        assert not game.legal_mask(state).any(), f"{game.env_id}: terminal state has legal actions"
    yield state, -1


def check_observations(game: Game, state: np.ndarray) -> None:
    """Shape, dtype, bounds; and the kernels write every element of their buffers.

    The AEC and vector APIs hand ``observe`` and ``legal_mask`` uninitialised
    buffers, so both are called here on buffers full of junk and must give the
    same result as on zeroed ones.
    """
    if not game.is_terminal(state):
        junk_mask = np.full(game.num_actions, 7, dtype=np.int8)
        game.kernels.legal_mask(state, game.config, junk_mask, game.work)
        assert np.array_equal(junk_mask, game.legal_mask(state)), (
            f"{game.env_id}: legal_mask does not overwrite every element of its buffer"
        )
    for p in range(game.num_players):
        obs = game.observe(state, p)
        assert obs.shape == tuple(game.observation_shape) and obs.dtype == np.float32
        junk = np.full(game.observation_shape, np.nan, dtype=np.float32)
        game.kernels.observe(state, p, game.config, junk, game.work)
        assert np.array_equal(junk, obs), f"{game.env_id}: observe does not write every element of its buffer"
        bad = (obs < game.obs_low) | (obs > game.obs_high)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            raise AssertionError(
                f"{game.env_id}: observation[{i}] = {obs.ravel()[i]} for player {p} outside "
                f"[{game.obs_low.ravel()[i]}, {game.obs_high.ravel()[i]}]"
            )


def play_random_games(game: Game, n_games: int, seed: int = 0, batch_size: int = 64) -> dict[str, Any]:
    """Random play through :mod:`mushgym.episodes` with every check on every step.

    Before each step of each game: the game's invariants, a non-empty mask, the
    observations of every player (shape, dtype, bounds, every element written) and
    the declared maximum length; at the end: invariants, observations, returns
    within the reward range (summing to 0 in a zero-sum game) and no legal action.
    Returns ``lengths`` and ``returns``.
    """
    from .episodes import play
    from .policies import UniformRandomPolicy

    def check(tick):
        for i, p in zip(tick.rows, tick.players):
            state = tick.states[i]
            game.check_invariants(state)
            check_observations(game, state)
            assert game.current_player(state) == p
            assert game.legal_mask(state).any(), f"{game.env_id}: no legal action in a running game"

    policy = UniformRandomPolicy(seed)
    res = play(
        game,
        [policy] * game.num_players,
        range(seed, seed + n_games),
        batch_size=batch_size,
        on_step=check,
        keep_states=True,
    )
    lo, hi = game.spec.reward_range
    for state, rets in zip(res["states"], res["returns"]):
        assert game.is_terminal(state)
        game.check_invariants(state)
        check_observations(game, state)
        np.testing.assert_array_equal(rets, game.returns(state))
        assert ((rets >= lo) & (rets <= hi)).all(), f"{game.env_id}: returns {rets} outside {game.spec.reward_range}"
        if game.spec.zero_sum:
            assert abs(rets.sum()) < 1e-9, f"{game.env_id}: zero-sum game returned {rets}"
        assert not game.legal_mask(state).any(), f"{game.env_id}: terminal state has legal actions"
    return {"lengths": res["lengths"], "returns": res["returns"]}


def check_hidden_information(game: Game, n_games: int, seed: int = 0, every: int = 3) -> int:
    """Perturb what a player may not see; that player's observation (and mask) must not move.

    Returns how many perturbations changed the state; a checker that never
    changes anything proves nothing, so callers assert it is large.
    """
    rng = np.random.default_rng(seed)
    changed = 0
    for g in range(n_games):
        for i, (state, _a) in enumerate(random_trajectory(game, seed + g, check=False)):
            if i % every or game.is_terminal(state):
                continue
            for p in range(game.num_players):
                other = game.perturb_hidden(state, p, rng)
                assert other.shape == state.shape and other.dtype == state.dtype
                if not np.array_equal(other, state):
                    changed += 1
                obs, obs2 = game.observe(state, p), game.observe(other, p)
                if not np.array_equal(obs, obs2):
                    idx = np.flatnonzero(obs != obs2)[:10].tolist()
                    raise AssertionError(
                        f"{game.env_id}: player {p}'s observation depends on hidden information "
                        f"(elements {idx} moved when only what player {p} cannot see was changed)"
                    )
                if game.current_player(state) == p:
                    assert np.array_equal(game.legal_mask(state), game.legal_mask(other)), (
                        f"{game.env_id}: player {p}'s legal actions depend on hidden information"
                    )
    return changed


def trajectory_digest(module_name: str, options: dict[str, Any], seed: int, max_steps: int | None = None) -> str:
    """SHA-256 over every state and action of one seeded random game (for cross-process checks).

    ``module_name`` is an env module (``mushgym.envs.fungi_v0``) defining ``Game``.
    """
    import importlib

    game = importlib.import_module(module_name).Game(**options)
    h = hashlib.sha256()
    for state, action in random_trajectory(game, seed, check=False, max_steps=max_steps):
        h.update(state.tobytes())
        h.update(int(action).to_bytes(8, "little", signed=True))
    return h.hexdigest()


def _fmt_obs(obs: np.ndarray) -> str:
    return " ".join(str(int(v)) if float(v).is_integer() else f"{v:g}" for v in obs.ravel())


def _golden_obs(game: Game, obs: np.ndarray, step: int) -> str:
    """The observation as golden files show it: every value; or, for a game with
    ``golden_observation = "digest"`` (large observations), a SHA-256 digest of its float32
    values and its count of non-zero entries, with the non-zero entries themselves
    (``index:value``) at step 0 only. Any change of any value still moves the digest."""
    if getattr(game, "golden_observation", "full") != "digest":
        return _fmt_obs(obs)
    flat = np.ascontiguousarray(obs, dtype=np.float32).ravel()
    nz = np.flatnonzero(flat)
    text = f"sha256:{hashlib.sha256(flat.tobytes()).hexdigest()[:20]} nonzero {len(nz)}/{flat.size}"
    if step == 0:
        text += ": " + " ".join(f"{i}:{_fmt_obs(flat[i : i + 1])}" for i in nz.tolist())
    return text


def playthrough_text(game: Game, seed: int = GOLDEN_SEED, detailed_steps: int = 60) -> str:
    """OpenSpiel-style playthrough of one seeded random game.

    The first ``detailed_steps`` steps show the state text, the acting player's
    observation, the legal actions and the action; later steps one line each
    (player and action), so long games stay reviewable; the final state is
    always shown in full with the returns.
    """
    lines = [
        f"game: {game.env_id}",
        f"options: {options_id(game.options)}",
        f"seed: {seed}",
        f"num_actions: {game.num_actions}",
        f"observation_shape: {tuple(game.observation_shape)}",
        "",
    ]
    for step, (state, action) in enumerate(random_trajectory(game, seed, check=False)):
        if action < 0:
            lines.append(f"# final state after {step} steps")
            lines.extend("  " + ln for ln in game.state_to_string(state).splitlines())
            lines.append(f"terminal: returns {game.returns(state).tolist()}")
            break
        p = game.current_player(state)
        if step >= detailed_steps:
            lines.append(f"step {step}: player {p} action {action} ({game.action_to_string(state, action)})")
            continue
        lines.append(f"# step {step}")
        lines.extend("  " + ln for ln in game.state_to_string(state).splitlines())
        lines.append(f"current_player: {p}")
        lines.append(f"observation[{p}]: {_golden_obs(game, game.observe(state, p), step)}")
        lines.append(f"legal: {game.legal_actions(state).tolist()}")
        lines.append(f"action: {action} ({game.action_to_string(state, action)})")
        lines.append("")
    return "\n".join(lines) + "\n"


def golden_path(env_id: str, options: dict[str, Any], directory: Path = GOLDEN_DIR) -> Path:
    return directory / f"{env_id}__{options_id(options)}.txt"


def golden_cases() -> list[tuple[str, dict[str, Any]]]:
    from .registry import env_module, list_envs

    return [(e, o) for e in list_envs() for o in option_sets(env_module(e).Game)]


def inside_installed_package(directory: Path) -> bool:
    """True when ``directory`` lies inside an installed (site-packages) copy of mushgym."""
    import site
    import sysconfig

    target = Path(directory).resolve()
    roots = {
        Path(p).resolve() for p in (sysconfig.get_paths().get("purelib"), sysconfig.get_paths().get("platlib")) if p
    }
    roots |= {Path(p).resolve() for p in site.getsitepackages() if p}
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        roots.add(Path(site.getusersitepackages()).resolve())
    package = Path(__file__).resolve().parent
    if any(package.is_relative_to(r) for r in roots) and target.is_relative_to(package.parent):
        return True  # the package itself is installed: its neighbours are other installed packages
    return any(target.is_relative_to(r) for r in roots)


def regenerate_golden(directory: Path = GOLDEN_DIR, env_ids: list[str] | None = None) -> list[Path]:
    """Write every golden playthrough (of ``env_ids``, default all) into ``directory`` (refused
    inside an installed package)."""
    from .registry import game as make_game

    directory = Path(directory)
    if inside_installed_package(directory):
        raise ValueError(
            f"refusing to write golden files into {directory}: it is inside an installed package "
            "(site-packages); pass a folder of your own (mushgym golden --dir DIR)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    if env_ids:
        unknown = sorted(set(env_ids) - {e for e, _ in golden_cases()})
        if unknown:
            raise ValueError(f"unknown env id(s) {unknown}; registered envs: {sorted({e for e, _ in golden_cases()})}")
    for env_id, options in golden_cases():
        if env_ids and env_id not in env_ids:
            continue
        path = golden_path(env_id, options, directory)
        path.write_text(playthrough_text(make_game(env_id, **options)))
        written.append(path)
    return written


def slow_scale() -> int:
    """How much bigger the ``slow`` property runs are (env MUSHGYM_SLOW_SCALE, default 1 = CI size)."""
    try:
        return max(1, int(os.environ.get("MUSHGYM_SLOW_SCALE", "1")))
    except ValueError:
        raise ValueError("MUSHGYM_SLOW_SCALE must be a positive integer") from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mushgym.testing", description=__doc__)
    parser.add_argument("--regen-golden", action="store_true", help="rewrite tests/golden/*.txt")
    parser.add_argument("--dir", type=Path, default=GOLDEN_DIR)
    args = parser.parse_args(argv)
    if not args.regen_golden:
        parser.print_help()
        return
    for path in regenerate_golden(args.dir):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
