"""Mycelia positions from a readable description (``MyceliaGame.state_from``) and back
(``MyceliaGame.describe``), for endgame studies, puzzles, search tests and scenario tests.

A description is a set of keyword fields (all optional but ``tiles``; :data:`FIELDS` lists
them with their defaults):

============== ======================================================================
tiles          the board in placement order: ``(col, row, tile)`` or ``(col, row, tile, rotation)``;
               a tile is its id (tiles.toml order) or a colour (``"red"``: the first such tile
               not placed yet); tile indices below count in this order
insects        tile indices with an insect token
mothers        ``{seat: tile index}`` (every seat's, except during the set-up)
spores         ``{tile index: {seat: n}}``
mats           ``{seat: {mat: {"card": c, "tile": t, "counter": n, "under": [cards], "upgrades": bits,
               "decayed": n}}}`` (or ``{mat: (card, tile[, counter])}``); ``card`` is a card or
               ``"automata"`` for an Automata mushroom; the mushroom token stands on ``tile``
hands          ``{seat: [cards]}``; a card is its id or its name (the first copy not placed yet)
market         three cards (None: an empty slot); default: drawn from the top of the deck
discard        the discard pile, bottom first; ``box``: cards out of the game; ``drawn``: cards
               drawn by DISCOVER, waiting for the keep decision
held_insects   ``{seat: insect tokens}`` (default: 1 each, 2 for the Automata)
upgrades       ``{seat: game-upgrade bits}``; ``grown`` ``{seat: mushrooms grown}`` (default: the
               seat's mushrooms and decayed cards)
turn_player, first_player, turns_played, actions_done, market_taken
action_types   the main action types used this turn (``"move"``, ``"explore"``, ``"spore"``,
               ``"fruit"``, ``"discover"``, ``"decay"``, ``"age"``)
pending        the decision stack, bottom first: ``(kind, player, a0, a1, a2, a3)``, a kind named as
               in the layout (``"main"``, ``"move"``, ``"pay"``, ..., every ``D_*`` there);
               default ``[("main", turn_player)]``
need, need_wild, paid_black   a fruit payment under way (spores owed by colour, wild, black paid)
marks, fruit_network, landed  tile indices of the spore layer, of the paying network, of the SPORE
               action's landings
drawn_tile     a tile (id or colour) drawn by EXPLORE; ``last_roll`` the wind die ("O", "U", "A")
over, ender    a finished game (``ender`` a seat, or None: the turn limit)
automata_drawn the Automata cards (0..9) drawn since its deck was shuffled, first drawn first: the
               last is the card in play; ``automata_deck`` the rest (hidden; bottom first)
saplings, trees, formation, tiles_discarded, invested   the North American expansion:
               ``{tile index: {seat: spores}}`` (or a list of tiles), ``{tile index: seat}``,
               ``"O"``/``"U"``/``"A"``, tile ids out of the game, 1 if the SPORE action invested
pile_counts    the sizes of the two tile piles (default: the tiles not placed, halved)
deck, piles    the hidden piles: the deck (bottom first) and the two tile piles (bottom first);
               left out, every card and tile not placed goes there, shuffled by ``seed``
============== ======================================================================

Spore supplies, the insect supply, the sapling supply, the Grandfather Trees beside the mats,
points and the adjacency follow from the pieces, so every card, tile, spore, insect, sapling
and tree is accounted for. The state then goes through ``Game.validate`` (the layout's bounds
and the ``validate`` kernel) and ``check_invariants``; anything wrong is a ValueError naming
the field and the valid choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mushgym.positions import (
    Pool,
    begin,
    checked,
    decision_kinds,
    describe_stack,
    index_of,
    number,
    per_seat,
    refuse,
    shuffled,
    stack_entries,
)

from . import layout as LY
from .board import neighbour_c, neighbour_r
from .data import COLOURS, SYMBOLS

if TYPE_CHECKING:
    from .game import MyceliaGame

ENV = "mycelia_v1"
KINDS = decision_kinds(LY)
ACTION_TYPES = ("move", "explore", "spore", "fruit", "discover", "decay", "age")
AUTOMATA_MUSHROOM = "automata"
FIELDS: dict[str, Any] = {
    "tiles": (),
    "insects": (),
    "mothers": None,
    "spores": None,
    "mats": None,
    "hands": None,
    "market": None,
    "discard": (),
    "box": (),
    "drawn": (),
    "held_insects": None,
    "upgrades": None,
    "grown": None,
    "turn_player": 0,
    "first_player": None,
    "turns_played": 0,
    "actions_done": 0,
    "market_taken": 0,
    "action_types": (),
    "pending": None,
    "need": (0, 0, 0, 0),
    "need_wild": 0,
    "paid_black": 0,
    "marks": (),
    "fruit_network": (),
    "landed": (),
    "drawn_tile": None,
    "last_roll": None,
    "over": False,
    "ender": None,
    "automata_drawn": None,
    "automata_deck": None,
    "saplings": None,
    "trees": None,
    "formation": None,
    "tiles_discarded": (),
    "invested": 0,
    "pile_counts": None,
    "deck": None,
    "piles": None,
    "seed": 0,
}


def state_from(game: MyceliaGame, check: bool = True, **description: Any) -> np.ndarray:
    """A Mycelia state with exactly the position described (the fields: module docstring).

    ``check=False`` skips ``check_invariants`` (the bounds and the ``validate`` kernel still run)."""
    d, s, v = begin(game, FIELDS, description, LY.L, LY.RNG)
    in_play = [
        t for t in range(LY.NT_MAX) if game.config[LY.CFG_NTILES] == LY.NT_MAX or game.tiles.colour[t] != LY.BLACK
    ]
    tiles = Pool(ENV, "tile", [COLOURS[c] for c in game.tiles.colour], in_play)
    cards = Pool(ENV, "card", game.cards.names, range(int(game.config[LY.CFG_NCARDS])))
    _board(game, v, d, tiles)
    _pieces(game, v, d)
    _expansion(game, v, d)
    _cards(game, v, d, cards)
    _turn(game, v, d, tiles)
    _tile_piles(v, d, tiles)
    return checked(game, s, check)


def _tile_index(v: dict, field: str, t: Any) -> int:
    return (
        number(ENV, field, t, 0, int(v["tiles_placed"]) - 1) if int(v["tiles_placed"]) else number(ENV, field, t, 0, -1)
    )


def _board(game: MyceliaGame, v: dict, d: dict, tiles: Pool) -> None:
    """The placed tiles (ids, cells, rotations), their adjacency and the insect tokens on them."""
    given = d["tiles"]
    if not isinstance(given, (list, tuple)) or len(given) > LY.NT_MAX:
        raise refuse(ENV, "tiles", f"must be a list of at most {LY.NT_MAX} (col, row, tile[, rotation]), got {given!r}")
    v["tile_id"][:] = -1
    v["adjacency"][:] = -1
    cells: dict[tuple[int, int], int] = {}
    for i, tile in enumerate(given):
        field = f"tiles[{i}]"
        if not isinstance(tile, (list, tuple)) or len(tile) not in (3, 4):
            raise refuse(ENV, field, f"a tile is (col, row, tile) or (col, row, tile, rotation), got {tile!r}")
        c = number(ENV, f"{field} col", tile[0], LY.CELL["low"], LY.CELL["high"])
        r = number(ENV, f"{field} row", tile[1], LY.CELL["low"], LY.CELL["high"])
        if (c, r) in cells:
            raise refuse(ENV, field, f"cell ({c}, {r}) already holds tiles[{cells[(c, r)]}]")
        cells[(c, r)] = i
        v["tile_id"][i] = tiles.take(tile[2], field)
        v["tile_col"][i], v["tile_row"][i] = c, r
        v["tile_rot"][i] = number(ENV, f"{field} rotation", tile[3], 0, 2) if len(tile) == 4 else 0
        for k in range(3):
            j = cells.get((neighbour_c(c, r, k), neighbour_r(c, r, k)), -1)
            if j >= 0 and j != i:
                v["adjacency"][i, k] = j
                v["adjacency"][j, k] = i
    v["tiles_placed"][...] = len(given)
    seen, todo = {0}, [0]
    while todo and given:
        t = todo.pop()
        for u in v["adjacency"][t]:
            if u >= 0 and int(u) not in seen:
                seen.add(int(u))
                todo.append(int(u))
    apart = [t for t in range(len(given)) if t not in seen]
    if given and apart:
        raise refuse(
            ENV,
            f"tiles[{apart[0]}]",
            f"cell {tuple(int(x) for x in given[apart[0]][:2])} is off the "
            f"board: no chain of neighbours joins it to tiles[0]",
        )
    v["mushroom_owner"][:] = -1
    v["tree"][:] = -1
    for t in _tile_list(v, d["insects"], "insects"):
        v["tile_insect"][t] = 1


def _tile_list(v: dict, given: Any, field: str) -> list[int]:
    if isinstance(given, (str, bytes, Mapping)) or not hasattr(given, "__iter__"):
        raise refuse(ENV, field, f"must be a list of tile indices, got {given!r}")
    out = [_tile_index(v, f"{field}[{j}]", t) for j, t in enumerate(given)]
    if len(set(out)) != len(out):
        raise refuse(ENV, field, f"a tile is listed twice: {out}")
    return out


def _pieces(game: MyceliaGame, v: dict, d: dict) -> None:
    """Mother mushrooms, spores, insects held, upgrades and the spore and insect supplies."""
    ns = game.num_seats
    v["mother"][:] = -1
    for seat, t in per_seat(ENV, "mothers", d["mothers"], ns).items():
        t = _tile_index(v, f"mothers[{seat}]", t)
        if t in v["mother"]:
            raise refuse(
                ENV,
                f"mothers[{seat}]",
                f"tile {t} already holds the Mother mushroom of seat {int(np.flatnonzero(v['mother'] == t)[0])}",
            )
        v["mother"][seat] = t
    spores = d["spores"] or {}
    if not isinstance(spores, Mapping):
        raise refuse(ENV, "spores", f"must be a dict {{tile index: {{seat: n}}}}, got {spores!r}")
    for t, by_seat in spores.items():
        t = _tile_index(v, "spores", t)
        for seat, n in per_seat(ENV, f"spores[{t}]", by_seat, ns).items():
            v["spores"][t, seat] = number(ENV, f"spores[{t}][{seat}]", n, 0, LY.SPORES_EACH)
    held = {s: (2 if game.automata and s == game.num_players else 1) for s in range(ns)}
    held.update(per_seat(ENV, "held_insects", d["held_insects"], ns))
    for seat, n in held.items():
        v["insects"][seat] = number(ENV, f"held_insects[{seat}]", n, 0, int(game.config[LY.CFG_INSECTS]))
    for seat, bits in per_seat(ENV, "upgrades", d["upgrades"], ns).items():
        v["game_upgrades"][seat] = number(ENV, f"upgrades[{seat}]", bits, 0, 63)
    supply = int(game.config[LY.CFG_INSECTS]) - int(v["tile_insect"].sum()) - int(v["insects"].sum())
    if supply < 0:
        raise refuse(
            ENV,
            "insects",
            f"{-supply} insect tokens too many on tiles and held: the game has {int(game.config[LY.CFG_INSECTS])}",
        )
    v["insect_supply"][...] = supply


def _expansion(game: MyceliaGame, v: dict, d: dict) -> None:
    """Saplings, their spores, Grandfather Trees and the formation (the North American expansion);
    then every seat's spore supply."""
    ns = game.num_seats
    on = game.expansion
    for field in ("saplings", "trees", "formation"):
        if d[field] is not None and not on:
            raise refuse(ENV, field, "only with the North American expansion (expansion='north_america')")
    if d["tiles_discarded"] and not on:
        raise refuse(ENV, "tiles_discarded", "only with the North American expansion (expansion='north_america')")
    saplings = d["saplings"] or {}
    if not isinstance(saplings, Mapping):
        saplings = {t: {} for t in saplings}
    for t, held in saplings.items():
        t = _tile_index(v, "saplings", t)
        v["sapling"][t] = 1
        for seat, n in per_seat(ENV, f"saplings[{t}]", held, ns).items():
            v["sapling_spores"][t, seat] = number(ENV, f"saplings[{t}][{seat}]", n, 0, LY.SAPLING_SPORES)
    trees = d["trees"] or {}
    if not isinstance(trees, Mapping):
        raise refuse(ENV, "trees", f"must be a dict {{tile index: seat}}, got {trees!r}")
    for t, seat in trees.items():
        t = _tile_index(v, "trees", t)
        v["tree"][t] = number(ENV, f"trees[{t}]", seat, 0, game.num_players - 1)
    if on:
        v["sapling_formation"][...] = index_of(ENV, "formation", d["formation"] or "O", SYMBOLS, "formation")
        v["sapling_supply"][...] = LY.SAPLINGS - int(v["sapling"].sum())
        for seat in range(game.num_players):
            v["trees_left"][seat] = LY.TREES_EACH - int((v["tree"] == seat).sum())
        if v["sapling_supply"] < 0 or (v["trees_left"] < 0).any():
            raise refuse(
                ENV,
                "saplings" if v["sapling_supply"] < 0 else "trees",
                f"the game has {LY.SAPLINGS} saplings and {LY.TREES_EACH} Grandfather Trees a player",
            )
    else:
        v["sapling_formation"][...] = -1
    for seat in range(ns):
        left = LY.SPORES_EACH - int(v["spores"][:, seat].sum()) - int(v["sapling_spores"][:, seat].sum())
        if left < 0:
            raise refuse(
                ENV,
                "spores",
                f"seat {seat} has {LY.SPORES_EACH - left} spores on tiles and saplings; a seat has {LY.SPORES_EACH}",
            )
        v["supply"][seat] = left


def _mat_entry(seat: int, mat: int, given: Any) -> dict:
    field = f"mats[{seat}][{mat}]"
    if isinstance(given, (list, tuple)):
        if not 2 <= len(given) <= 3:
            raise refuse(ENV, field, f"a mat is (card, tile[, counter]) or a dict, got {given!r}")
        given = dict(zip(("card", "tile", "counter"), given))
    if not isinstance(given, Mapping):
        raise refuse(ENV, field, f"a mat is a dict with card, tile, counter, under, upgrades, decayed; got {given!r}")
    bad = sorted(set(given) - {"card", "tile", "counter", "under", "upgrades", "decayed"})
    if bad:
        raise refuse(ENV, field, f"unknown key(s) {bad}; valid keys are card, tile, counter, under, upgrades, decayed")
    return dict(given)


def _cards(game: MyceliaGame, v: dict, d: dict, cards: Pool) -> None:
    """Mats (mushrooms, decayed cards), hands, the market, the discard pile, the box, the cards
    drawn to keep, the deck; points and mushrooms grown."""
    ns = game.num_seats
    loc = v["card_loc"]
    loc[:] = LY.L_ABSENT
    v["mat_card"][:] = -1
    v["mat_tile"][:] = -1
    auto = game.num_players if game.automata else -1
    grown = np.zeros(LY.MAXS, np.int64)
    for seat, by_mat in per_seat(ENV, "mats", d["mats"], ns).items():
        if not isinstance(by_mat, Mapping):
            raise refuse(ENV, f"mats[{seat}]", f"must be a dict {{mat: ...}}, got {by_mat!r}")
        for mat, given in by_mat.items():
            field = f"mats[{seat}][{mat}]"
            mat = number(ENV, f"mats[{seat}] mat", mat, 0, game.options["mats"] - 1)
            e = _mat_entry(seat, mat, given)
            card = e.get("card")
            if card is not None:
                if card == AUTOMATA_MUSHROOM:
                    if seat != auto:
                        raise refuse(ENV, field, "an Automata mushroom stands only on the Automata's mats")
                    v["mat_card"][seat, mat] = LY.AUTO_CARD
                else:
                    c = cards.take(card, f"{field} card")
                    v["mat_card"][seat, mat] = c
                    loc[c] = LY.L_TOP + seat * LY.NMATS + mat
                t = _tile_index(v, f"{field} tile", e.get("tile"))
                if v["mushroom_owner"][t] >= 0:
                    raise refuse(ENV, f"{field} tile", f"tile {t} already holds a mushroom token")
                v["mat_tile"][seat, mat] = t
                v["mushroom_owner"][t], v["mushroom_mat"][t] = seat, mat
                v["mat_counter"][seat, mat] = number(ENV, f"{field} counter", e.get("counter", 0), 0, 2)
                grown[seat] += 1
            elif e.get("tile") is not None or e.get("counter"):
                raise refuse(ENV, field, "a mushroom token on a tile needs its card (or 'automata')")
            under = cards.take_all(e.get("under", ()), f"{field} under")
            for c in under:
                loc[c] = LY.L_UNDER + seat * LY.NMATS + mat
            decayed = e.get("decayed", len(under))
            v["mat_under"][seat, mat] = number(ENV, f"{field} decayed", decayed, len(under), LY.NC)
            grown[seat] += int(decayed)
            v["mat_upgrades"][seat, mat] = number(ENV, f"{field} upgrades", e.get("upgrades", 0), 0, 3)
    for seat, held in per_seat(ENV, "hands", d["hands"], ns).items():
        for c in cards.take_all(held, f"hands[{seat}]"):
            loc[c] = LY.L_HAND + seat
        v["hand_count"][seat] = int((loc == LY.L_HAND + seat).sum())
    market = d["market"]
    if market is not None:
        if not isinstance(market, (list, tuple)) or len(market) != LY.MARKET_SIZE:
            raise refuse(ENV, "market", f"must be {LY.MARKET_SIZE} cards (None for an empty slot), got {market!r}")
        market = [-1 if c is None else cards.take(c, f"market[{j}]") for j, c in enumerate(market)]
    for field, where, code in (
        ("discard", "discard", LY.L_DISCARD),
        ("box", None, LY.L_BOX),
        ("drawn", None, LY.L_PENDING),
    ):
        placed = cards.take_all(d[field], field)
        loc[placed] = code
        if where:
            v[where][: len(placed)] = placed
            v["discard_count"][...] = len(placed)
    deck = cards.take_all(d["deck"], "deck") if d["deck"] is not None else cards.rest("deck", d["seed"])
    if cards.left():
        raise refuse(ENV, "deck", f"cards {cards.left()} are nowhere: a deck given must hold every card not placed")
    if market is None:  # drawn from the top of the deck, as the game refills it
        market = [deck.pop() if deck else -1 for _ in range(LY.MARKET_SIZE)]
    v["market"][:] = market
    loc[[c for c in market if c >= 0]] = LY.L_MARKET
    v["deck"][: len(deck)] = deck
    v["deck_count"][...] = len(deck)
    loc[deck] = LY.L_DECK
    for seat, n in per_seat(ENV, "grown", d["grown"], ns).items():
        grown[seat] = number(ENV, f"grown[{seat}]", n, 0, LY.COUNT_MAX)
    v["grown"][:] = grown
    points = game.cards.points
    for seat in range(ns):
        if seat == auto:
            v["points"][seat] = 5 * grown[seat]
        else:
            on_mats = [int(c) for c in v["mat_card"][seat] if c >= 0]
            v["points"][seat] = sum(int(points[c]) for c in on_mats) + sum(
                int(points[c])
                for c in range(LY.NC)
                if LY.L_UNDER + seat * LY.NMATS <= loc[c] < LY.L_UNDER + (seat + 1) * LY.NMATS
            )


def _bits(v: dict, field: str, tiles: list[int]) -> None:
    bits = 0
    for t in tiles:
        bits |= 1 << t
    for i in range(LY.BITSET_WORDS):
        v[field][i] = (bits >> (i * LY.BITSET_BITS)) & ((1 << LY.BITSET_BITS) - 1)


def _turn(game: MyceliaGame, v: dict, d: dict, tiles: Pool) -> None:
    """Whose turn, its counters, the decision stack and the payment and spore layer under way."""
    ns = game.num_seats
    tp = number(ENV, "turn_player", d["turn_player"], 0, ns - 1)
    v["turn_player"][...] = tp
    v["first_player"][...] = number(
        ENV, "first_player", tp if d["first_player"] is None else d["first_player"], 0, ns - 1
    )
    v["turns_played"][...] = number(ENV, "turns_played", d["turns_played"], 0, LY.COUNT_MAX)
    v["actions_done"][...] = number(ENV, "actions_done", d["actions_done"], 0, 2)
    v["market_taken"][...] = number(ENV, "market_taken", d["market_taken"], 0, LY.MARKET_SIZE)
    used = 0
    for j, typ in enumerate(d["action_types"]):
        used |= 1 << index_of(ENV, f"action_types[{j}]", typ, ACTION_TYPES, "action type")
    v["action_types_used"][...] = used
    over = bool(d["over"])
    v["over"][...] = int(over)
    if d["ender"] is not None and not over:
        raise refuse(ENV, "ender", "only a finished game (over=True) has an ender")
    v["ender"][...] = (
        LY.RUNNING
        if not over
        else LY.TURN_LIMIT_END
        if d["ender"] is None
        else number(ENV, "ender", d["ender"], 0, ns - 1)
    )
    pending = d["pending"]
    if pending is None:
        pending = [] if over else [("main", tp)]
    entries = stack_entries(ENV, pending, KINDS, ns, LY.ENTRY - 2, LY.STACK_MAX)
    if over and entries:
        raise refuse(ENV, "pending", "a finished game has no pending decision")
    if not over and not entries:
        raise refuse(ENV, "pending", f"a running game has a decision to take; kinds are {list(KINDS)}")
    for i, e in enumerate(entries):
        v["decisions"][i] = e
    v["decisions_n"][...] = len(entries)
    if entries and entries[-1][0] == LY.D_KEEP_TILE:  # the two tiles drawn to keep one of
        for j in (2, 3):
            tiles.take(entries[-1][j], f"pending[{len(entries) - 1}] argument {j - 2}")
    need = d["need"]
    if not isinstance(need, (list, tuple)) or len(need) != LY.NCOL:
        raise refuse(ENV, "need", f"spores owed by colour: {LY.NCOL} counts ({', '.join(COLOURS[:4])}), got {need!r}")
    v["need"][:] = [number(ENV, f"need[{k}]", x, 0, 1 << 10) for k, x in enumerate(need)]
    v["need_wild"][...] = number(ENV, "need_wild", d["need_wild"], 0, 1 << 10)
    v["paid_black"][...] = number(ENV, "paid_black", d["paid_black"], 0, 1 << 10)
    for field in ("marks", "fruit_network", "landed"):
        _bits(v, field, _tile_list(v, d[field], field))
    v["invested"][...] = number(ENV, "invested", d["invested"], 0, 1)
    v["drawn_tile"][...] = -1 if d["drawn_tile"] is None else tiles.take(d["drawn_tile"], "drawn_tile")
    v["last_roll"][...] = -1 if d["last_roll"] is None else index_of(ENV, "last_roll", d["last_roll"], SYMBOLS, "face")
    _bits(v, "tiles_discarded", [tiles.take(t, f"tiles_discarded[{j}]") for j, t in enumerate(d["tiles_discarded"])])
    _automata(game, v, d)


def _automata(game: MyceliaGame, v: dict, d: dict) -> None:
    """The Automata's cards: drawn since its deck was last shuffled (the last in play), and the rest."""
    if not game.automata:
        for field in ("automata_drawn", "automata_deck"):
            if d[field] is not None:
                raise refuse(ENV, field, "only in a game with the Automata (automata=True)")
        return
    drawn = [
        number(ENV, f"automata_drawn[{j}]", c, 0, LY.NA_CARDS - 1) for j, c in enumerate(d["automata_drawn"] or ())
    ]
    deck = d["automata_deck"]
    if deck is None:
        deck = shuffled([i for i in range(LY.NA_CARDS) if i not in drawn], d["seed"])
    deck = [number(ENV, f"automata_deck[{j}]", c, 0, LY.NA_CARDS - 1) for j, c in enumerate(deck)]
    if sorted(deck + drawn) != list(range(LY.NA_CARDS)):
        raise refuse(
            ENV,
            "automata_deck",
            f"the Automata's deck and the cards drawn from it hold each of its "
            f"{LY.NA_CARDS} cards (0..{LY.NA_CARDS - 1}) once; got {deck} and {drawn}",
        )
    v["automata_deck"][:] = deck + drawn[::-1]  # drawn from the top: the first drawn sits highest
    v["automata_deck_count"][...] = len(deck)
    v["automata_card"][...] = drawn[-1] if drawn else -1


def _tile_piles(v: dict, d: dict, tiles: Pool) -> None:
    """The two face-down tile piles: given, or every tile not placed, shuffled and halved."""
    piles = d["piles"]
    if piles is None:
        rest = tiles.rest("piles", d["seed"])
        half = (len(rest) + 1) // 2
        sizes = d["pile_counts"]
        if sizes is not None:
            if not isinstance(sizes, (list, tuple)) or len(sizes) != 2:
                raise refuse(ENV, "pile_counts", f"must be the two piles' sizes, got {sizes!r}")
            half = number(ENV, "pile_counts[0]", sizes[0], 0, len(rest))
            number(ENV, "pile_counts[1]", sizes[1], len(rest) - half, len(rest) - half)
        piles = (rest[:half], rest[half:])
    elif not isinstance(piles, (list, tuple)) or len(piles) != 2:
        raise refuse(ENV, "piles", f"must be the two tile piles (bottom first), got {piles!r}")
    else:
        piles = [tiles.take_all(p, f"piles[{j}]") for j, p in enumerate(piles)]
        if tiles.left():
            raise refuse(ENV, "piles", f"tiles {tiles.left()} are nowhere: piles given must hold every tile not placed")
    v["piles"][:] = -1
    for j, pile in enumerate(piles):
        v["piles"][j, : len(pile)] = pile
        v["pile_count"][j] = len(pile)


# --- describe: the inverse ------------------------------------------------------------------
def describe(game: MyceliaGame, state: np.ndarray, hidden: bool = False) -> dict[str, Any]:
    """The description of ``state`` that :func:`state_from` reads back into the same position.

    The hidden piles (the deck, the tile piles, the Automata deck's order) are written only
    with ``hidden=True``; without them ``state_from`` deals them afresh, so the position is the
    same for every player's observation."""
    game.validate(state)
    v = LY.L.arrays(np.asarray(state).astype(np.int64))
    ns, n = game.num_seats, int(v["tiles_placed"])
    loc = v["card_loc"]
    out: dict[str, Any] = {
        "tiles": [
            (int(v["tile_col"][t]), int(v["tile_row"][t]), int(v["tile_id"][t]), int(v["tile_rot"][t]))
            for t in range(n)
        ],
        "insects": [t for t in range(n) if v["tile_insect"][t]],
        "mothers": {s: int(v["mother"][s]) for s in range(ns) if v["mother"][s] >= 0},
        "spores": {
            t: {s: int(v["spores"][t, s]) for s in range(ns) if v["spores"][t, s]}
            for t in range(n)
            if v["spores"][t].any()
        },
        "mats": _describe_mats(game, v),
        "hands": {s: [c for c in range(LY.NC) if loc[c] == LY.L_HAND + s] for s in range(ns)},
        "market": [None if c < 0 else int(c) for c in v["market"]],
        "discard": [int(c) for c in v["discard"][: int(v["discard_count"])]],
        "box": [c for c in range(LY.NC) if loc[c] == LY.L_BOX],
        "drawn": [c for c in range(LY.NC) if loc[c] == LY.L_PENDING],
        "held_insects": {s: int(v["insects"][s]) for s in range(ns)},
        "upgrades": {s: int(v["game_upgrades"][s]) for s in range(ns) if v["game_upgrades"][s]},
        "grown": {s: int(v["grown"][s]) for s in range(ns)},
        "turn_player": int(v["turn_player"]),
        "first_player": int(v["first_player"]),
        "turns_played": int(v["turns_played"]),
        "actions_done": int(v["actions_done"]),
        "market_taken": int(v["market_taken"]),
        "action_types": [a for k, a in enumerate(ACTION_TYPES) if int(v["action_types_used"]) >> k & 1],
        "pending": describe_stack(v["decisions"], int(v["decisions_n"]), KINDS),
        "need": [int(x) for x in v["need"]],
        "need_wild": int(v["need_wild"]),
        "paid_black": int(v["paid_black"]),
        "marks": _tiles_of(v, "marks"),
        "fruit_network": _tiles_of(v, "fruit_network"),
        "landed": _tiles_of(v, "landed"),
        "drawn_tile": None if v["drawn_tile"] < 0 else int(v["drawn_tile"]),
        "last_roll": None if v["last_roll"] < 0 else SYMBOLS[int(v["last_roll"])],
        "over": bool(v["over"]),
        "ender": int(v["ender"]) if v["ender"] >= 0 else None,
        "invested": int(v["invested"]),
        "pile_counts": [int(x) for x in v["pile_count"]],
    }
    if game.expansion:
        out["saplings"] = {
            t: {s: int(v["sapling_spores"][t, s]) for s in range(ns) if v["sapling_spores"][t, s]}
            for t in range(n)
            if v["sapling"][t]
        }
        out["trees"] = {t: int(v["tree"][t]) for t in range(n) if v["tree"][t] >= 0}
        out["formation"] = SYMBOLS[int(v["sapling_formation"])]
        out["tiles_discarded"] = _tiles_of(v, "tiles_discarded")
    if game.automata:
        n_auto = int(v["automata_deck_count"])
        out["automata_drawn"] = [int(c) for c in v["automata_deck"][n_auto:][::-1]] if v["automata_card"] >= 0 else []
        if hidden:
            out["automata_deck"] = [int(c) for c in v["automata_deck"][:n_auto]]
    if hidden:
        out["deck"] = [int(c) for c in v["deck"][: int(v["deck_count"])]]
        out["piles"] = [[int(t) for t in v["piles"][j, : int(v["pile_count"][j])]] for j in range(2)]
    return out


def _tiles_of(v: dict, field: str) -> list[int]:
    bits = sum(int(w) << (i * LY.BITSET_BITS) for i, w in enumerate(v[field]))
    return [t for t in range(LY.NT_MAX) if bits >> t & 1]


def _describe_mats(game: MyceliaGame, v: dict) -> dict:
    out: dict[int, dict] = {}
    loc = v["card_loc"]
    for s in range(game.num_seats):
        for i in range(game.options["mats"]):
            card, under = int(v["mat_card"][s, i]), int(v["mat_under"][s, i])
            entry: dict[str, Any] = {}
            if card != -1:
                entry = {
                    "card": AUTOMATA_MUSHROOM if card == LY.AUTO_CARD else card,
                    "tile": int(v["mat_tile"][s, i]),
                    "counter": int(v["mat_counter"][s, i]),
                }
            cards_under = [c for c in range(LY.NC) if loc[c] == LY.L_UNDER + s * LY.NMATS + i]
            if cards_under:
                entry["under"] = cards_under
            if under != len(cards_under):
                entry["decayed"] = under
            if v["mat_upgrades"][s, i]:
                entry["upgrades"] = int(v["mat_upgrades"][s, i])
            if entry:
                out.setdefault(s, {})[i] = entry
    return out


def is_hidden_field(name: str) -> bool:
    """The layout fields a description does not fix: the hidden piles' order and the generator."""
    return name in ("rng", "deck", "piles", "automata_deck", "stats")


__all__ = ["FIELDS", "KINDS", "describe", "is_hidden_field", "state_from"]
