"""The policy interface shared by every mushgym agent, and the uniform random baseline.

An agent answers one question, *which legal action now?*, in one of two ways:

* ``act(observation, action_mask) -> int`` from what the acting player sees (the
  observation vector and the 0/1 legal mask of the AEC env), and the batched
  ``act_batch(observations, action_masks) -> int64[n]`` (one row per decision);
* ``act_state(game, state, player, observation, action_mask) -> int`` for agents
  that look ahead with the functional API (``game.step`` on a copy of ``state``).
  Such agents set ``uses_state = True``. They receive the true state because the
  functional API needs one, and must decide **only from what ``player`` may see**:
  ``tests/agents/test_agents.py`` checks this by asking the same question on a state whose
  hidden part was redrawn with ``game.perturb_hidden`` and demanding the same answer.

Runners (:mod:`mushgym.episodes`, behind :func:`mushgym.agents.play_games`, the
tournament and the single-agent training envs) ask for a whole batch at once:
``act_batch(observations, action_masks)``, and for ``uses_state`` agents
``act_batch(observations, action_masks, game=game, states=states, players=players)``
(row ``j`` is ``players[j]``'s decision in ``states[j]``). The defaults loop over
``act`` / ``act_state``, so an agent written for PettingZoo's loop
(``agent.act(obs["observation"], obs["action_mask"])``) works everywhere; override
``act_batch`` to answer a batch in one go (one network forward pass).

Agents may explain their moves (replays and the web table's hints show it; see
:mod:`mushgym.replay`): with ``explain_moves = True`` such an agent sets
``last_explanations`` after each ``act_batch`` call, one entry per row, each None or
``{"candidates": [(action, weight), ...], "weight_kind": "visit share" | "probability" |
"score", "value": float | None}`` (its best few moves, best first, and its estimate of its
own outcome). :meth:`Agent.explain` asks for one decision's explanation.
"""

from __future__ import annotations

import numpy as np

from mushgym.policies import uniform_legal_actions


class Agent:
    """Base class of mushgym agents (see the module docstring for the contract)."""

    name: str = "agent"
    uses_state: bool = False
    #: set by runners that record why (``mushgym.episodes.play(explain=True)``); see the module docstring
    explain_moves: bool = False
    last_explanations: list | None = None

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (and reseed the agent's own randomness if ``seed`` is given)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise NotImplementedError

    def act_batch(
        self,
        observations: np.ndarray,
        action_masks: np.ndarray,
        *,
        game=None,
        states: np.ndarray | None = None,
        players: np.ndarray | None = None,
    ) -> np.ndarray:
        """One action per row. Runners pass ``game``, ``states`` and ``players`` to
        ``uses_state`` agents. The default loops over :meth:`act_state` for those and
        over :meth:`act` for the others."""
        if self.uses_state:
            _need_states(self, game, states, players)
            return np.array(
                [
                    self.act_state(game, s, int(p), o, m)
                    for s, p, o, m in zip(states, players, observations, action_masks)
                ],
                dtype=np.int64,
            )
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks)], dtype=np.int64)

    def act_state(
        self,
        game,
        state: np.ndarray,
        player: int,
        observation: np.ndarray | None = None,
        action_mask: np.ndarray | None = None,
    ) -> int:
        """Decide in ``state`` for ``player``; the default observes and calls :meth:`act`."""
        if observation is None:
            observation = game.observe(state, player)
        if action_mask is None:
            action_mask = game.legal_mask(state)
        return self.act(observation, action_mask)

    def act_aec(self, env) -> int:
        """The action of ``env.agent_selection`` in a mushgym PettingZoo AEC env (wrapped or raw)::

        for name in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            env.step(None if term or trunc else agents[name].act_aec(env))
        """
        obs, _, _, _, _ = env.last()
        raw = env.unwrapped
        if self.uses_state:
            player = raw.agent_name_mapping[env.agent_selection]
            return int(self.act_state(raw.game, raw.game_state, player, obs["observation"], obs["action_mask"]))
        return int(self.act(obs["observation"], obs["action_mask"]))

    def explain(self, game, state: np.ndarray, player: int) -> dict:
        """This agent's decision for ``player`` in ``state`` with its reasons:
        ``{"action": a, "candidates": [(action, weight), ...], "weight_kind": ..., "value": ...}``
        (only ``"action"`` for an agent that gives no reasons). Decides from what ``player``
        may see, as :meth:`act_state` does."""
        before = self.explain_moves
        self.explain_moves = True
        self.last_explanations = None
        try:
            obs = game.observe(state, player)[None]
            mask = game.legal_mask(state)[None]
            if self.uses_state:
                acts = self.act_batch(
                    obs,
                    mask,
                    game=game,
                    states=np.asarray(state)[None],
                    players=np.array([int(player)], dtype=np.int64),
                )
            else:
                acts = self.act_batch(obs, mask)
        finally:
            self.explain_moves = before
        got = self.last_explanations
        out = dict(got[0]) if got is not None and len(got) == 1 and got[0] else {}
        out["action"] = int(np.asarray(acts)[0])
        return out

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.act(observation, action_mask)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _need_states(agent: Agent, game, states, players) -> None:
    if game is None or states is None or players is None:
        raise TypeError(
            f"{agent!r} looks ahead with the functional API: act_batch needs game=, states= and "
            f"players= (mushgym.episodes passes them to agents with uses_state = True)"
        )


def top_candidates(
    weights: np.ndarray,
    action_mask: np.ndarray,
    kind: str,
    value: float | None = None,
    top: int = 5,
    chosen: int | None = None,
) -> dict:
    """An explanation (see the module docstring) from per-action ``weights``: the ``top`` legal
    actions by weight, best first (ties: ``chosen`` first, then by lower id)."""
    legal = np.flatnonzero(action_mask)
    w = np.asarray(weights, dtype=np.float64)[legal]
    order = np.lexsort((legal, legal != chosen, -w))[:top]
    return {
        "candidates": [(int(legal[i]), float(w[i])) for i in order],
        "weight_kind": kind,
        "value": None if value is None or not np.isfinite(value) else float(value),
    }


def _check_mask(action_mask: np.ndarray) -> np.ndarray:
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError(
            "no legal action: the action mask is all zeros (is the game over, or is it another player's turn?)"
        )
    return legal


class RandomAgent(Agent):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = _check_mask(action_mask)
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, **context) -> np.ndarray:
        return uniform_legal_actions(action_masks, self.rng)


class FunctionAgent(Agent):
    """Wrap a plain function ``f(observation, action_mask) -> action`` as an agent."""

    def __init__(self, fn, name: str = "function") -> None:
        self.fn = fn
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.fn(observation, action_mask))
