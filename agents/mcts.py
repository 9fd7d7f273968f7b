"""Information-set Monte Carlo tree search as an agent: ``MCTSAgent``.

    from mushgym.agents import MCTSAgent, play_games
    agent = MCTSAgent("fungi_v0", simulations=1000, seed=0)
    play_games("fungi_v0", [agent, "greedy"], games=100)

    mushgym eval fungi_v0 mcts:1000 mcts:1000:greedy greedy --games 200
    mushgym play fungi_v0 --opponent mcts:1000

    # PUCT: the pretrained network as prior and leaf evaluator, 8 leaves per network call
    agent = MCTSAgent("fungi_v0", simulations=400, network="pretrained", batch=8)
    mushgym eval fungi_v0 puct:400:pretrained greedy
    mushgym eval fungi_v0 puct:400:runs/<run>/final.pt greedy      # a network of yours

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) over the functional
API, compiled: see :mod:`mushgym.search` for the algorithm, the determinizers and the
documented fallback. The agent looks ahead on the true state (``uses_state``) but
only through the game's determinizer, which redraws everything its player cannot
see before every simulation (``tests/agents/test_agents.py`` checks that redrawing the
hidden cards does not change its move).

Parameters: ``simulations`` per tree; ``c`` the UCT exploration constant on returns
normalised to [0, 1] (default 0.7); ``rollout`` ``"auto"`` (default: the game's compiled
``rollout_policy`` when it has one, else random; ``mcts:SIMS``), ``"random"``
(``mcts:SIMS:random``) or ``"greedy"`` (``mcts:SIMS:greedy``, needs the game's
``rollout_policy``); ``widen`` and ``widen_order`` progressive widening and which move a
widened node adds next, ``horizon`` a playout cut (each ``"auto"``: the game's tuned value, see
:mod:`mushgym.search`); ``threads`` root-parallel trees, one per
thread, merged by root visit counts; ``seed`` (with the state) fixes every move.

``network``: a policy/value network turns the search into PUCT (AlphaZero-style; see
:mod:`mushgym.search` for what it is fed and how values are backed up): the path of a
saved model (loaded as ``mushgym eval`` loads models: weights-only ``.pt`` safely, an SB3
``.zip`` only with ``trust=True``), ``"pretrained"`` (the shipped network of each game searched,
:func:`mushgym.agents.pretrained`, chosen by the game's env id and options), a
:class:`mushgym.agents.ppo.PolicyAgent`, or any
callable ``observations -> (logits, values)``. ``batch`` leaves are evaluated per network
call (default 8), with ``virtual_loss`` (default 1) steering the descents of one batch
apart; ``c`` then defaults to 1.25. The trees of all the games one ``act_batch`` call searches
(and their root-parallel trees) share each network call (leaf pooling, ``pool_trees=``
trees at a time, default 32; see :mod:`mushgym.search`). As a spec: ``puct:SIMS:PATH`` or
``puct:SIMS:pretrained``. ``game_options``: the options of the game to check the agent on when
it is made (default: the env's defaults).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

from .base import Agent, _check_mask, _need_states, top_candidates

SPEC = re.compile(r"^mcts:(\d+)(?::(random|greedy))?$")
PUCT_SPEC = re.compile(r"^puct:(\d+):(.+)$")
#: the name of the shipped networks, as an agent and as PUCT's network
PRETRAINED = "pretrained"


def parse_mcts_spec(spec: str) -> tuple[int, str] | None:
    """``"mcts:1000"`` -> ``(1000, "auto")``, ``"mcts:1000:greedy"`` -> ``(1000, "greedy")``,
    ``"mcts:1000:random"`` -> ``(1000, "random")``; None if ``spec`` is not of that form."""
    m = SPEC.match(spec) if isinstance(spec, str) else None
    return (int(m.group(1)), m.group(2) or "auto") if m else None


def parse_puct_spec(spec: str) -> tuple[int, str] | None:
    """``"puct:400:model.pt"`` -> ``(400, "model.pt")``; None if ``spec`` is not of that form."""
    m = PUCT_SPEC.match(spec) if isinstance(spec, str) else None
    return (int(m.group(1)), m.group(2)) if m else None


def network_callable(network: Any, env_id: str | None, trust: bool = False, options: dict | None = None):
    """``network`` as a callable ``observations -> (logits, values)``: ``"pretrained"`` is the
    shipped network of ``env_id`` with game ``options``, a model path is loaded (weights only
    unless ``trust``), a PolicyAgent gives its ``policy_value``."""
    from pathlib import Path

    if isinstance(network, str) and network == PRETRAINED:
        if env_id is None:
            raise ValueError("PUCT with the pretrained network needs the env id of the game it searches")
        from .pretrained_models import pretrained

        network = pretrained(env_id, **(options or {}))
    elif isinstance(network, (str, Path)):
        from .ppo_policy import load_policy

        network = load_policy(network, env_id=env_id, trust=trust)
    pv = getattr(network, "policy_value", None)
    if callable(pv):
        return pv
    if callable(network):
        return network
    raise ValueError(
        f"network must be a model path, a PolicyAgent or a callable observations -> (logits, values); got {network!r}"
    )


class MCTSAgent(Agent):
    """SO-ISMCTS with UCT (see the module docstring)."""

    uses_state = True

    def __init__(
        self,
        env_id: str | None = None,
        simulations: int = 1000,
        c: float | None = None,
        rollout: str = "auto",
        value: str = "auto",
        widen: float | str = "auto",
        widen_order: str = "auto",
        horizon: int | str = "auto",
        threads: int = 1,
        seed: int | None = 0,
        network: Any = None,
        batch: int | None = None,
        virtual_loss: float = 1.0,
        trust: bool = False,
        game_options: dict[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        from mushgym.search_config import SearchConfig

        if batch is not None and network is None:
            raise ValueError("batch= (leaves per network call) needs network=")
        puct = {} if network is None else {"virtual_loss": virtual_loss, **({} if batch is None else {"batch": batch})}
        #: the search's settings, each "auto" answered per game by the searcher (mushgym.search_config)
        self.config = SearchConfig.with_settings(
            simulations=simulations,
            c=c,
            rollout=rollout,
            value=value,
            widen=widen,
            widen_order=widen_order,
            horizon=horizon,
            threads=threads,
            seed=0 if seed is None else seed,
            **puct,
            **settings,
        )
        self.env_id = env_id
        self.seed = int(self.config.seed)
        # the pretrained network depends on the game searched: chosen per game in searcher()
        self._pretrained = isinstance(network, str) and network == PRETRAINED
        self.network = None if network is None or self._pretrained else network_callable(network, env_id, trust)
        if network is None:
            self.name = f"mcts:{self.simulations}" + ("" if rollout == "auto" else f":{rollout}")
        else:
            path = network if isinstance(network, str) else getattr(network, "__fspath__", lambda: "net")()
            self.name = f"puct:{self.simulations}:{path}"
        self._searchers: dict[Any, Any] = {}
        if env_id is not None:  # fail early on a bad option or a game it cannot search
            import mushgym

            self.searcher(mushgym.game(env_id, **(game_options or {})))

    @property
    def simulations(self) -> int:
        return int(self.config.simulations)

    @property
    def rollout(self) -> str:
        """The rollout as asked ("auto" until a game answers it: ``searcher(game).config.rollout``)."""
        return self.config.rollout

    def searcher(self, game):
        """The compiled searcher for ``game`` (one per game and option set)."""
        if self.env_id is not None and self.env_id != game.env_id:
            raise ValueError(f"this MCTSAgent was made for {self.env_id}, not {game.env_id}")
        key = (game.env_id, tuple(sorted(game.options.items())))
        s = self._searchers.get(key)
        if s is None:
            from mushgym.search import Searcher

            network = self.network
            if self._pretrained:
                network = network_callable(PRETRAINED, game.env_id, options=game.options)
            s = Searcher(game, dataclasses.replace(self.config, seed=self.seed), network=network)
            self._searchers[key] = s
        return s

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
            for s in self._searchers.values():
                s.seed = self.seed & 0xFFFFFFFFFFFF

    def act_batch(self, observations, action_masks, *, game=None, states=None, players=None) -> np.ndarray:
        _need_states(self, game, states, players)
        s = self.searcher(game)
        action_masks = np.asarray(action_masks)
        n_legal = np.count_nonzero(action_masks, axis=1)
        if (n_legal == 0).any():
            _check_mask(action_masks[int(np.flatnonzero(n_legal == 0)[0])])
        out = np.argmax(action_masks, axis=1).astype(np.int64)  # a forced move needs no search
        why: list | None = (
            [top_candidates(action_masks[j], action_masks[j], "visit share") for j in range(len(out))]
            if self.explain_moves
            else None
        )
        rows = np.flatnonzero(n_legal > 1)
        if rows.size:
            visits, values = s.search_many(np.asarray(states)[rows], np.asarray(players)[rows])
            for k, j in enumerate(rows):
                out[j] = s.choose(visits[k], values[k], action_masks[j])
                if why is not None:
                    why[j] = self._explanation(visits[k], values[k], action_masks[j], out[j])
        self.last_explanations = why
        return out

    @staticmethod
    def _explanation(visits: np.ndarray, values: np.ndarray, mask: np.ndarray, chosen: int) -> dict:
        """The root's visit shares and the chosen move's mean value (the searcher's [0, 1] scale)."""
        total = max(int(visits[np.flatnonzero(mask)].sum()), 1)
        value = values[chosen] / visits[chosen] if visits[chosen] else None
        return top_candidates(visits / total, mask, "visit share", value, chosen=chosen)

    def act_state(self, game, state, player, observation=None, action_mask=None) -> int:
        if action_mask is None:
            action_mask = game.legal_mask(state)
        legal = _check_mask(action_mask)
        if legal.size == 1:
            return int(legal[0])  # a forced move needs no search
        s = self.searcher(game)
        visits, values = s.search_many(np.asarray(state)[None], np.array([int(player)]))
        return s.choose(visits[0], values[0], action_mask)

    def act(self, observation, action_mask) -> int:
        raise TypeError(
            "MCTSAgent searches with the functional API and needs the game state: call "
            "act_state(game, state, player) or act_batch(..., game=, states=, players=), or play it "
            "through mushgym.agents.play_games / tournament (see GreedyAgent for the AEC loop)"
        )
