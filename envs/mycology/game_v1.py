"""MycologyV1Game: ``mycology_v1``, Mycology with the compact integral observation of :mod:`.observation_v1`.

Everything but the observation is :class:`~.game.MycologyGame`'s: options, rules,
actions, the state (a v1 state's body is the v0 state's, slot for slot, for the same
seed and actions; only its header names ``mycology_v1``), seeds and the golden
playthroughs' action sequences.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np

from mushgym.game import GameSpec

from . import rules_v1
from .game import MycologyGame
from .observation_v1 import BYTE, CATEGORICAL, observation_layout, obs_size


class MycologyV1Game(MycologyGame):
    __doc__ = MycologyGame.__doc__ + """
    ``mycology_v1``: the observation is :mod:`.observation_v1`'s (integers in 0..255, written
    as ``uint8`` by the vector API); everything else is ``mycology_v0``'s.
    """

    env_id: ClassVar[str] = "mycology_v1"
    kernels = rules_v1
    obs_integral = True   # ids, counts and flags in 0..255: the vector API writes them as uint8
    #: the same game as mycology_v0, which the shared harness covers with every option set: v1's
    #: own checks (its observation, its header, its compiled loops) run on these
    harness_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({}, {"num_players": 6}, {"turn_limit": 480})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.obs_categorical = self._categorical()

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        return replace(super().make_spec(options), observation_shape=(obs_size(options["num_players"]),))

    def card_points_bound(self) -> int:
        """Most card points a player's 10 basket places can hold."""
        return int(np.sort(self.deck.points)[-10:].sum())

    def observation_layout(self):
        """The v1 observation of this game as one :class:`~mushgym.core.Layout`, with its bounds."""
        n = self.options["num_players"]
        bounds = {"round": self.max_turns // n, "owed": self.deck.cost.max(axis=0),
                  "card_points": self.card_points_bound(), "tokens_256": self.token_bound() // BYTE,
                  "poison_256": self.poison_bound() // BYTE}
        wide = {k: int(np.max(v)) for k, v in bounds.items() if np.max(v) > BYTE - 1}
        if wide:   # only a card file far beyond the designed one (or a longer turn limit) gets here
            raise ValueError(f"{self.env_id}: observation values {wide} would not fit in a byte; "
                             "this card data or turn limit needs mycology_v0's observation")
        return observation_layout(n, bounds)

    def _categorical(self) -> np.ndarray:
        """One boolean per observation element: an id (a card, a season, a decision, a seat
        offset, ...), not a count; the ``onehot`` encoder expands every id whatever its range."""
        mask = np.zeros(self.observation_shape, bool)
        for f in self.observation_layout().fields.values():
            if re.sub(r"^seat\d+_", "", f.name) in CATEGORICAL:
                mask[f.offset:f.offset + f.size] = True
        return mask

    def validation_error(self, code: int) -> str:
        return rules_v1.VALIDATION_ERRORS_V1.get(code) or super().validation_error(code)
