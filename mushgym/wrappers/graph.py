"""Graph observations for board games (GNN policies): a PettingZoo AEC wrapper.

A game whose ``Game`` class defines ``graph_observation(state, player) -> dict`` (with
``nodes`` (N, F), ``edge_links`` (E, 2), ``edges`` (E, G) and ``globals`` (D,)) and the
sizes ``graph_node_features`` / ``graph_edge_features`` can be observed as a graph::

    env = GraphObservation(mushgym.make_raw("mycelia_v1"))
    obs = env.observe(env.agent_selection)
    obs["graph"]          # gymnasium.spaces.GraphInstance(nodes, edges, edge_links)
    obs["globals"]        # the non-board part of the flat observation
    obs["action_mask"]

The board grows, so the number of nodes and edges changes from step to step; the space is
a ``gymnasium.spaces.Graph`` inside a ``Dict``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper


def supports_graph(game) -> bool:
    return callable(getattr(game, "graph_observation", None))


class GraphObservation(BaseWrapper):
    """Observations as ``{"graph": GraphInstance, "globals": Box, "action_mask": Box}``."""

    def __init__(self, env):
        super().__init__(env)
        game = env.unwrapped.game
        if not supports_graph(game):
            raise ValueError(f"{game.env_id} has no graph encoding (its Game defines no graph_observation)")
        self._game = game
        n_globals = len(game.graph_observation(game.new_state(0), 0)["globals"])
        self._space = spaces.Dict(
            {
                "graph": spaces.Graph(
                    node_space=spaces.Box(-1.0, np.inf, (game.graph_node_features,), np.float32),
                    edge_space=spaces.Box(0.0, 1.0, (game.graph_edge_features,), np.float32),
                ),
                "globals": spaces.Box(-np.inf, np.inf, (n_globals,), np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )

    def observation_space(self, agent):
        return self._space

    def observe(self, agent):
        base = self.env.observe(agent)
        player = self.env.unwrapped.agent_name_mapping[agent]
        g = self._game.graph_observation(self.env.unwrapped.game_state, player)
        return {
            "graph": spaces.GraphInstance(g["nodes"], g["edges"], g["edge_links"]),
            "globals": g["globals"],
            "action_mask": base["action_mask"],
        }
