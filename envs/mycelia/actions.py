"""Mycelia's flat action space, declared as named groups (:class:`mushgym.core.ActionSpace`).

``install`` compiles ``pay_action(tile, owner)`` / ``pay_args(a)``, ``place_action(tile, edge)``
and the like into this module; the kernels import them from here. The same declaration
gives ``encode_action`` / ``decode_action`` and the action table of the env docstring.
"""

from mushgym.core import ActionSpace

from .layout import MARKET_SIZE, MAXS, NC, NMATS, NT_MAX

A = ActionSpace("mycelia_v0 actions")
A_TILE = A.add("tile", NT_MAX, dims=("tile",),
               doc="placed tile t (placement order): MOVE the M onto neighbouring tile t (main decision); step on "
                   "to t; place the M on centre tile t (setup); put the next spore on t; grow on t; pick outer tile "
                   "t / the opponent mushroom on t; destination t of a moved mushroom or M")
A_PAY = A.add("pay", (NT_MAX, MAXS), dims=("tile", "owner"), doc="fruit: pay one spore of seat `owner` from tile `tile`")
A_CARD = A.add("card", NC, dims=("card",), doc="card id c: FRUIT c (main decision); keep c (discover 2 keep 1); trade c in")
A_MARKET = A.add("market", MARKET_SIZE, dims=("slot",), doc="DISCOVER: take market card j (also the picks of \"draw two\")")
A_DECK = A.add("deck", doc="DISCOVER: take the top card of the deck")
A_PILE = A.add("pile", 2, dims=("pile",), doc="EXPLORE: draw the top tile of pile j")
A_PLACE = A.add("place", (NT_MAX, 3), dims=("tile", "edge"),
                doc="put the drawn (or moved) tile across free edge `edge` of placed tile `tile` (one action per "
                    "free cell: its lowest-index neighbour)")
A_ROT = A.add("rotate", 3, dims=("rotation",), doc="turn the tile to rotation r")
A_SPORE = A.add("spore", 1 + NMATS, dims=("source",), doc="SPORE from the M (0) or from the mushroom of mat i (1 + i)")
A_DECAY = A.add("decay", NMATS, dims=("mat",), doc="DECAY the mushroom of mat i")
A_MAT = A.add("mat", NMATS, dims=("mat",), doc="fruit: put the card on mat i")
A_SEAT = A.add("seat", MAXS, dims=("seat",), doc="choose seat s (whose M to move; whom to steal from)")
A_INSECT_MOVE = A.add("insect_move", doc="free: spend 2 insects to move another player's M")
A_REFRESH = A.add("refresh", doc="free: spend 1 insect to refresh the market")
A_TRADE = A.add("trade", doc="free: trade 3 cards for 1 insect")
A_STOP = A.add("stop", doc="stop moving; end the turn (only when no action is possible)")
NUM_ACTIONS = A.size
A.install(globals())


def decode_action(action: int) -> tuple:
    """``action`` as ``(kind, args...)``: ``("pay", tile, owner)``, ``("stop",)``; see the action table."""
    name, args = A.decode(action)
    return (name,) + tuple(int(x) for x in args)


def encode_action(kind: str, *args: int) -> int:
    """Inverse of :func:`decode_action`: ``encode_action('pay', tile, owner)``, ``encode_action('stop')``;
    a clear error naming the valid kinds or the argument's range."""
    return A.encode(kind, *args)
