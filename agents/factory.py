"""Agents by name: ``make_agent("greedy", env_id)``, ``"pretrained"``, ``"mcts:SIMS"``, ``"puct:SIMS:PATH"``
(``"puct:SIMS:pretrained"``), a model path.

Every runner that takes agents by name (the tournament, ``mushgym eval`` and ``play``, the
opponents of :func:`mushgym.agents.train_ppo`, which hands :func:`make_agent` to its
:class:`mushgym.wrappers.OpponentPool` as the builder) resolves them here.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from mushgym.integrations.rllib_policy import export_file

from .base import Agent, RandomAgent
from .greedy import GreedyAgent
from .mcts import PRETRAINED, MCTSAgent, parse_mcts_spec, parse_puct_spec


def make_agent(
    spec: Any, env_id: str | None = None, seed: int | None = None, options: dict[str, Any] | None = None, **kwargs: Any
) -> Agent:
    """An :class:`Agent` from a name or a path.

    ``spec`` may be an :class:`Agent` (returned as is), ``"random"``, ``"greedy"``,
    ``"pretrained"`` (the network shipped for ``env_id`` with the game ``options``:
    :func:`mushgym.agents.pretrained`; needs the ``train`` extra), ``"mcts:SIMS"``
    (:class:`mushgym.agents.MCTSAgent` with SIMS simulations per move and the game's compiled
    greedy rollouts if it has them, else random ones;
    ``"mcts:SIMS:random"`` / ``"mcts:SIMS:greedy"`` choose), ``"puct:SIMS:PATH"``
    (the same search as PUCT with the saved model at PATH as prior and leaf evaluator;
    ``"puct:SIMS:pretrained"`` uses the pretrained network of the game), or
    the path of a model saved by :func:`mushgym.agents.train_ppo` (a ``.zip``) or
    exported by :func:`mushgym.agents.export_policy` (a ``.pt``); loading either needs
    the ``train`` extra. A policy of an RLlib run (``mushgym train ENV --backend rllib``)
    is its ``final.pt``, a checkpoint's ``policy.pt``, or the checkpoint folder or run
    folder holding one (weights only: loads with torch alone, nothing unpickled).
    ``env_id`` is needed by ``"greedy"``, ``"pretrained"`` and the searches; ``options`` (the
    game's options, e.g. ``{"num_players": 4}``) choose the pretrained network and the game the
    searches check themselves on.
    """
    if isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str):
        raise TypeError(
            f"an agent is an Agent, 'random', 'greedy', 'pretrained', 'mcts:SIMS' or a model path; got {spec!r}"
        )
    if spec == "random":
        return RandomAgent(seed=seed)
    if spec == "greedy":
        return GreedyAgent(env_id, seed=seed)
    if spec == PRETRAINED:
        if env_id is None:
            raise ValueError("the pretrained agent needs env_id= (the game it plays)")
        from .pretrained_models import pretrained

        kwargs.pop("trust", None)  # weights-only files need no trust
        return pretrained(env_id, seed=seed, **(options or {}), **kwargs)
    puct = parse_puct_spec(spec)
    if puct is not None:
        sims, path = puct
        if sims < 1:
            raise ValueError(f"{spec}: PUCT needs at least 1 simulation")
        return MCTSAgent(
            env_id,
            simulations=sims,
            seed=seed,
            network=path,
            trust=bool(kwargs.pop("trust", False)),
            game_options=options,
            **kwargs,
        )
    parsed = parse_mcts_spec(spec)
    if parsed is not None:
        sims, rollout = parsed
        kwargs.setdefault("rollout", rollout)
        if sims < 1:
            raise ValueError(f"{spec}: MCTS needs at least 1 simulation")
        kwargs.pop("trust", None)  # a model-loading option; MCTS loads nothing
        return MCTSAgent(env_id, simulations=sims, seed=seed, game_options=options, **kwargs)
    path = Path(spec)
    if export_file(path) is not None:  # a policy exported by an RLlib run (weights only; needs torch)
        from .exported import ExportedPolicyAgent

        kwargs.pop("trust", None)  # weights-only files need no trust
        return ExportedPolicyAgent(spec, env_id=env_id, seed=seed, **kwargs)
    if path.suffix in (".zip", ".pt") or path.exists() or Path(spec + ".zip").exists():
        from .ppo_policy import load_policy  # imports torch and sb3 (the train extra)

        return load_policy(spec, env_id=env_id, seed=seed, **kwargs)
    close = difflib.get_close_matches(spec, ["random", "greedy", PRETRAINED, "mcts:1000"], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(
        f"unknown agent {spec!r}{hint}: use 'random', 'greedy', 'pretrained', 'mcts:SIMS' (e.g. "
        "mcts:1000), 'puct:SIMS:pretrained' or the path of a saved model (.pt or .zip)"
    )
