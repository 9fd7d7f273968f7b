"""A small declaration exercising shaped fields, the decision stack and an action space."""

from numba import njit

from mushgym.core import ActionSpace, Layout

L = Layout("state")
TURN = L.field("turn", doc="turn counter")
HAND = L.field("hand", (3, 5), dims=("player", "kind"), doc="cards per player and kind")
CUBE = L.field("cube", (2, 3, 4))
L.decision_stack(depth=3, args=2)
STATE_SIZE = L.size
L.generated(globals())
# fmt: off
from .generated.decl import (  # noqa: E402,F401  (generated from L by `mushgym generate`)  # isort: skip
    NO_DECISION, clear_decisions, cube_at, decision_at, decision_depth, hand_at, pop_decision, push_decision,
    replace_top, set_decision_at, set_top_arg, set_top_kind, top_arg, top_arg_slot, top_entry, top_kind,
    top_player,
)
# fmt: on

A = ActionSpace()
PASS = A.add("pass", doc="pass")
TAKE = A.add("take", 4, dims=("position",), doc="take a card")
COOK = A.add("cook", (3, 2, 5), dims=("kind", "night", "count"), doc="cook")
NUM_ACTIONS = A.size
A.generated(globals())
# fmt: off
from .generated.decl import (  # noqa: E402,F401  (generated from A by `mushgym generate`)  # isort: skip
    cook_action, cook_args, take_action, take_args,
)
# fmt: on


@njit(cache=True)
def fill_hand(state):
    for p in range(3):
        for k in range(5):
            state[hand_at(p, k)] = 10 * p + k


@njit(cache=True)
def roundtrip(a):
    k, n, c = cook_args(a)
    return cook_action(k, n, c)
