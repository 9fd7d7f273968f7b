"""MyceliumV1Game: ``mycelium_v1``, Mycelium with the Exchange by Mushling Card Type (:mod:`.exchange`).

Everything but the Exchange is :class:`~.game.MyceliumGame`'s, on the same compiled kernels
(:mod:`.rules`, with the config flag ``exchange_by_type`` = 1): options, the other rules, the
state layout, the deal of a seed. What changes:

* the action ``exchange(type, option)``: ids 2..41 (v0's first 40 ``exchange`` ids), the type
  one of the 8 Mushling Card Types (``data.MUSHLING_TYPES``); ids 42..116 (the rest of v0's
  Exchange by card) are the group ``unused``, never legal, so that every other id is v0's;
* the decision ``D_EXCHANGE``: the two cards, named with ``card(kind)``, the lower id first;
* the observation: v0's of the same options, then the Exchange block (:data:`.exchange.XO`,
  37 values).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mushgym.core import ActionSpace

from . import rules as R
from .data import MUSHLING_TYPES
from .exchange import XO, XO_SIZE
from .game import MyceliumGame

EXCHANGE_TYPES = len(MUSHLING_TYPES)


def _actions_v1() -> ActionSpace:
    """v0's action space with its Exchange group split: ``exchange(type, option)`` on v0's first
    40 ids, ``unused`` on the other 75; every other group keeps its ids and meaning."""
    a1 = ActionSpace()
    for g in R.A.groups.values():
        if g.name == "exchange":
            kinds, options = g.shape
            a1.add("exchange", (EXCHANGE_TYPES, options), dims=("type", "option"),
                   doc="discard 2 cards of a Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior, "
                       "4 reinforcement, 5 wizard, 6 scout, 7 worker): option 0 draw a card, 1 + c spawn a "
                       "spore in seat c's Spore Cave; the 2 cards are named next (`card`, the lower id first)")
            a1.add("unused", (kinds - EXCHANGE_TYPES) * options,
                   doc="never legal (mycelium_v0's Exchange by card beyond these ids), so every later id is v0's")
        else:   # (the 23 cards are "kinds" here: a "type" is a Mushling Card Type)
            doc = g.doc.replace(" of this type", " of this kind").replace(
                "a card given to an Inky Cap,", "a card given to an Inky Cap, a card of an Exchange,")
            a1.add(g.name, g.shape, dims=g.dims, doc=doc)
    assert a1.size == R.A.size and all(a1.groups[n].offset == g.offset for n, g in R.A.groups.items() if n != "exchange")
    return a1


A_V1 = _actions_v1()


class MyceliumV1Game(MyceliumGame):
    __doc__ = MyceliumGame.__doc__ + """
    ``mycelium_v1`` (recommended): the Exchange takes 2 cards of one Mushling Card Type
    (``exchange(type, option)``, then the two cards named with ``card``); the
    observation adds the Exchange block after v0's. Everything else is ``mycelium_v0``'s.
    """

    env_id: ClassVar[str] = "mycelium_v1"
    actions = A_V1

    @classmethod
    def space_sizes(cls, options: dict[str, Any]) -> tuple[int, int]:
        """(actions, observation values): v0's, and the Exchange block after v0's observation."""
        actions, obs = MyceliumGame.space_sizes(options)
        return actions, obs + XO_SIZE

    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        cfg = super().build_config(options)
        c = R.C.arrays(cfg)
        c["exchange_by_type"][...] = 1
        c["exchange_obs"][...] = MyceliumGame.space_sizes(options)[1]
        return cfg

    @property
    def exchange_obs(self) -> int:
        """Offset of the Exchange block in this game's observation."""
        return int(self.config[R.CFG_XOBS])

    def observation_bounds(self):
        low, high = R.O.bounds()
        xlow, xhigh = XO.bounds()
        k = self.exchange_obs
        return np.concatenate([low[:k], xlow]), np.concatenate([high[:k], xhigh])

    def action_to_string(self, state, action) -> str:
        name, args = A_V1.decode(int(action))
        if name == "exchange":
            ct, o = args
            what = "draw a card" if o == 0 else f"spawn a spore in {self.board.gloc_names[int(self.config[R.cfg_cave_at(o - 1)])]}"
            return f"exchange 2 {MUSHLING_TYPES[ct]} cards: {what}"
        if name == "unused":
            return f"unused {args[0]} (never legal)"
        return super().action_to_string(state, action)
