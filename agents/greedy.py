"""One-step greedy baselines: the best immediate gain by the game's own score.

``GreedyAgent(env_id)`` scores every legal action with the game's heuristic and
plays the best one, breaking ties at random from its own seeded generator. A
game supplies its heuristic as ``heuristic`` in ``envs/<game>/greedy.py`` (found
through the registry, no edit here); :func:`register_greedy` overrides it or adds
one for a game outside the registry. A heuristic is a function::

    heuristic(game, state, player, observation, action_mask) -> float64[num_actions]

which may look one step ahead with ``game.step`` on a copy of ``state`` but must
score only what ``player`` may see (its own display and hand, the public table):
never a hidden card or the deck order. ``tests/agents/test_agents.py`` checks every
registered env by redrawing the hidden part of the state (``game.perturb_hidden``)
and requiring the same scores.

Games without a heuristic of their own get :func:`immediate_win_heuristic`
(win now if an action ends the game in the player's favour).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .base import Agent, _check_mask, _need_states, top_candidates

Heuristic = Callable[..., np.ndarray]
_HEURISTICS: dict[str, Heuristic] = {}


def register_greedy(env_id: str, heuristic: Heuristic) -> None:
    """Make ``heuristic`` the greedy policy of ``env_id`` (see the module docstring)."""
    _HEURISTICS[env_id] = heuristic


def greedy_heuristic(env_id: str) -> Heuristic:
    if env_id not in _HEURISTICS:
        _load_builtin(env_id)
    return _HEURISTICS.get(env_id, immediate_win_heuristic)


def _load_builtin(env_id: str) -> None:
    """A game's own greedy policy: ``heuristic`` in its package's ``greedy`` module, if any."""
    from mushgym.registry import game_module, list_envs

    if env_id not in list_envs():
        return
    module = game_module(env_id, "greedy")
    if module is not None and hasattr(module, "heuristic"):
        _HEURISTICS[env_id] = module.heuristic


def immediate_win_heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """Score each legal action by the player's return if it ends the game, else 0."""
    scores = np.full(game.num_actions, -np.inf)
    k, cfg = game.kernels, game.config
    rets = np.zeros(game.num_players)
    for a in np.flatnonzero(action_mask):
        s = state.copy()
        k.step(s, int(a), cfg, game.work)
        if k.is_terminal(s):
            k.returns(s, cfg, rets)
            scores[a] = rets[player]
        else:
            scores[a] = 0.0
    return scores


class GreedyAgent(Agent):
    """Plays the legal action with the best one-step score (ties broken at random)."""

    name = "greedy"
    uses_state = True

    def __init__(self, env_id: str | None = None, seed: int | None = None, heuristic: Heuristic | None = None) -> None:
        self.env_id = env_id
        self.rng = np.random.default_rng(seed)
        self._heuristic = heuristic

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def heuristic_for(self, game) -> Heuristic:
        if self._heuristic is None:
            if self.env_id is not None and self.env_id != game.env_id:
                raise ValueError(f"this GreedyAgent was made for {self.env_id}, not {game.env_id}")
            self._heuristic = greedy_heuristic(game.env_id)
        return self._heuristic

    def scores(self, game, state, player, observation=None, action_mask=None) -> np.ndarray:
        if observation is None:
            observation = game.observe(state, player)
        if action_mask is None:
            action_mask = game.legal_mask(state)
        return self.heuristic_for(game)(game, state, player, observation, action_mask)

    def act_state(self, game, state, player, observation=None, action_mask=None) -> int:
        if action_mask is None:
            action_mask = game.legal_mask(state)
        legal = _check_mask(action_mask)
        s = np.asarray(self.scores(game, state, player, observation, action_mask), dtype=np.float64)
        self._last_scores = s
        vals = s[legal]
        best = legal[vals >= vals.max() - 1e-9]
        return int(best[self.rng.integers(best.size)]) if best.size > 1 else int(best[0])

    def act_batch(self, observations, action_masks, *, game=None, states=None, players=None) -> np.ndarray:
        if not self.explain_moves:
            return super().act_batch(observations, action_masks, game=game, states=states, players=players)
        _need_states(self, game, states, players)
        out = np.empty(len(states), dtype=np.int64)
        why = []
        for j, (s, p, o, m) in enumerate(zip(states, players, observations, action_masks)):
            out[j] = self.act_state(game, s, int(p), o, m)
            why.append(top_candidates(self._last_scores, m, "score", chosen=int(out[j])))
        self.last_explanations = why
        return out

    def act(self, observation, action_mask) -> int:
        raise TypeError(
            "GreedyAgent looks one step ahead with the functional API and needs the game "
            "state: call act_state(game, state, player) or act_batch(observations, masks, "
            "game=, states=, players=), or play it through "
            "mushgym.agents.play_games / tournament / mushgym.wrappers.SingleAgentEnv, "
            "or in an AEC loop with agent.act_state(env.unwrapped.game, "
            "env.unwrapped.game_state, player)"
        )
