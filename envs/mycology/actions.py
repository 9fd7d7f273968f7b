"""Mycology's flat action space (``A.table()`` is the env docstring's action table).

The generated ``harvest_action(slot)`` / ``harvest_args(a)`` and the like
(``generated/actions.py``, ``mushgym generate``) are imported here for the kernels; in Python ``A.encode("trade1", 3)``,
``A.decode(a)`` and ``MycologyGame().encode_action(...)``.
"""

from mushgym.core import ActionSpace

from .layout import FIELD_SIZE, MAX_CAPACITY, MAX_PLAYERS, NUM_RES, ROW_SIZE

A = ActionSpace("mycology actions")
A_HARVEST = A.add(
    "harvest",
    FIELD_SIZE,
    dims=("slot",),
    doc="harvest the field card in a slot (in season, a free place in the season's basket, "
    "cost payable with Magic covering shortfalls)",
)
A_T1 = A.add("trade1", NUM_RES, dims=("resource",), doc="trade 1: 3 ANY resources for 1 resource (OP, PP, WR, SY, SD)")
A_T2 = A.add("trade2", doc="trade 2: 3 ANY resources for 1 Feast")
A_T3 = A.add("trade3", NUM_RES, dims=("resource",), doc="trade 3: 1 Feast for 1 resource")
A_T4 = A.add("trade4", doc="trade 4: 1 Feast to advance the season")
A_T5 = A.add("trade5", 2, dims=("row",), doc="trade 5: 1 Feast to replace the top (0) or bottom (1) row of the field")
A_T6 = A.add(
    "trade6",
    MAX_PLAYERS - 1,
    dims=("opponent",),
    doc="trade 6: 2 Feast to exchange one of your current-season mushrooms with one of the player "
    "opponent + 1 seats after you (only opponent < n - 1); which ones: give, then take",
)
A_END = A.add("end", doc="end the turn (the turn also ends by itself after the second action)")
A_PAY_RES = A.add("pay_res", NUM_RES, dims=("resource",), doc="paying: pay 1 real resource")
A_PAY_MAGIC = A.add("pay_magic", doc="paying: pay 1 Magic token (as the resource or Feast owed)")
A_PAY_FEAST = A.add("pay_feast", doc="paying: pay 1 Feast token")
A_BOTTOM = A.add(
    "bottom",
    ROW_SIZE,
    dims=("column",),
    doc="ordering: put the replaced card of a column under the deck next (the last one put is the bottom card)",
)
A_GIVE = A.add(
    "give",
    MAX_CAPACITY,
    dims=("place",),
    doc="exchanging: the mushroom you give, by its place in your current-season basket (0 = bottom)",
)
A_TAKE = A.add(
    "take",
    MAX_CAPACITY,
    dims=("place",),
    doc="exchanging: the mushroom you take, by its place in the other player's current-season basket",
)
NUM_ACTIONS = A.size
A.generated(globals())
# fmt: off
from .generated.actions import (  # noqa: E402,F401  (generated from A by `mushgym generate`)  # isort: skip
    bottom_action, bottom_args, give_action, give_args, harvest_action, harvest_args, pay_res_action,
    pay_res_args, take_action, take_args, trade1_action, trade1_args, trade3_action, trade3_args,
    trade5_action, trade5_args, trade6_action, trade6_args,
)
# fmt: on
