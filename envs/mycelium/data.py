"""Loaders of Mycelium's data files into int64 tables: the board, the mushling cards, the nutrient deck.

* ``board.toml``: the two board sides as hex locations in axial coordinates; the edges
  (where Paths go) and their connections (edges sharing a corner) are derived here.
* ``cards.toml``: the 23 mushling cards (Mushling Card Type, combat value, spore value, copies).
* ``nutrients.toml``: the nutrient card kinds (effect, copies, Walnut cards).

Every malformed file raises :class:`MyceliumDataError` naming the file, the entry and the
field. Fixed orders used by the kernels:

* mushling types: the order of :data:`MUSHLING_NAMES` (the Field Guide's order); the file
  may list them in any order but must list each exactly once;
* gather locations (where gatherers go): the Spore Caves by seat, the Nutrient Trees in the
  order Oak, Birch, Pine, Walnut (those on the side), the Willow, the Mush Room.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mushgym.core.data import read_toml

HERE = Path(__file__).resolve().parent
BOARD_PATH = HERE / "board.toml"
CARDS_PATH = HERE / "cards.toml"
NUTRIENTS_PATH = HERE / "nutrients.toml"

MUSHLING_NAMES = (
    "Amethyst Deceiver",
    "Chicken of the Woods",
    "Common Puffball",
    "Death Cap",
    "Liberty Cap",
    "Bird's Nest",
    "Parrot Toadstool",
    "Russula",
    "Veiled Lady",
    "Fly Agaric",
    "Inky Cap",
    "Penny Bun",
    "Blue Oyster",
    "Pink Oyster",
    "Chanterelle",
    "Wood Blewit",
    "Night Light",
    "Yellow Morel",
    "Magic Mushling",
    "Truffle",
    "Witch's Hat",
    "Parasol",
    "Shiitake",
)
MUSHLING_TYPES = ("builder", "thief", "enforcer", "warrior", "reinforcement", "wizard", "scout", "worker")
#: the types the abilities name, with the cards they are coded for (rules.py): a card file
#: keeps these types to exactly these cards
TYPED_ABILITY_CARDS = {
    "builder": ("Chanterelle", "Wood Blewit"),
    "thief": ("Parasol", "Shiitake"),
    "reinforcement": ("Blue Oyster", "Pink Oyster"),
}
NUM_MUSHLING_CARDS = 54
NUM_NUTRIENT_CARDS = 17
TREE_NAMES = ("Oak", "Birch", "Pine", "Walnut")
NUTRIENT_EFFECTS = ("tree", "center", "spores", "rain")
LOCATION_KINDS = ("colony", "cave", "tree", "center", "mush_room", "hero_tavern")

# gather-location kinds, as the kernels see them
LK_CAVE, LK_TREE, LK_CENTER, LK_MUSH = 0, 1, 2, 3

MAX_EDGES = 132  # a radius-3 hexagon of hexes has 132 edges
MAX_GATHER_LOCS = 10  # 4 caves + 4 trees + Willow + Mush Room
MAX_NUTRIENT_KINDS = 8

# axial neighbour directions, in order around a hex (consecutive ones are adjacent)
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class MyceliumDataError(ValueError):
    """A malformed Mycelium data file; the message names the file, the entry and the field."""


def _field(path, label, entry, key, kinds):
    if key not in entry:
        raise MyceliumDataError(f"{path}: {label}: missing field {key!r}")
    v = entry[key]
    if not isinstance(v, kinds) or (
        isinstance(v, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,))
    ):
        raise MyceliumDataError(f"{path}: {label}: field {key!r} has the wrong type ({type(v).__name__}: {v!r})")
    return v


def _int(path, label, entry, key, lo, hi):
    v = _field(path, label, entry, key, int)
    if not lo <= v <= hi:
        raise MyceliumDataError(f"{path}: {label}: field {key!r} must be in {lo}..{hi}, got {v}")
    return v


# --- mushling cards ---------------------------------------------------------------------


@dataclass(frozen=True)
class Mushlings:
    names: tuple[str, ...]
    types: tuple[str, ...]
    combat: np.ndarray  # [23]
    spore: np.ndarray  # [23]
    copies: np.ndarray  # [23]


def load_mushlings(path: str | Path | None = None) -> Mushlings:
    path = Path(path) if path is not None else CARDS_PATH
    data = read_toml(path, MyceliumDataError)
    entries = data.get("mushling")
    if not isinstance(entries, list):
        raise MyceliumDataError(f"{path}: expected [[mushling]] tables")
    n = len(MUSHLING_NAMES)
    combat = np.full(n, -1, np.int64)
    spore = np.zeros(n, np.int64)
    copies = np.zeros(n, np.int64)
    types = [""] * n
    seen = set()
    for i, e in enumerate(entries):
        label = f"mushling #{i + 1}"
        name = _field(path, label, e, "name", str)
        label = f"mushling #{i + 1} ({name!r})"
        if name not in MUSHLING_NAMES:
            raise MyceliumDataError(
                f"{path}: {label}: field 'name' is not a Field Guide type; valid names are {list(MUSHLING_NAMES)}"
            )
        if name in seen:
            raise MyceliumDataError(f"{path}: {label}: type listed twice")
        seen.add(name)
        k = MUSHLING_NAMES.index(name)
        t = _field(path, label, e, "type", str)
        if t not in MUSHLING_TYPES:
            raise MyceliumDataError(f"{path}: {label}: field 'type' must be one of {list(MUSHLING_TYPES)}, got {t!r}")
        types[k] = t
        combat[k] = _int(path, label, e, "combat", 0, 20)
        spore[k] = _int(path, label, e, "spore", 0, 9)
        copies[k] = _int(path, label, e, "copies", 1, 20)
    missing = [m for m in MUSHLING_NAMES if m not in seen]
    if missing:
        raise MyceliumDataError(f"{path}: missing mushling types {missing}")
    if int(copies.sum()) != NUM_MUSHLING_CARDS:
        raise MyceliumDataError(
            f"{path}: field 'copies' must add up to {NUM_MUSHLING_CARDS} cards, they add up to {int(copies.sum())}"
        )
    # the abilities that name a Mushling Card Type are coded for these cards: the Builder and
    # Thief pairs, Common Puffball's "any Thief", the reinforcement round's "Reinforcement
    # Mushling Cards"; so these types hold exactly these cards (the Exchange reads every type)
    for kind, members in TYPED_ABILITY_CARDS.items():
        for m in members:
            if types[MUSHLING_NAMES.index(m)] != kind:
                raise MyceliumDataError(
                    f"{path}: mushling {m!r}: field 'type' must be {kind!r} (its ability names the type)"
                )
        others = [MUSHLING_NAMES[k] for k in range(n) if types[k] == kind and MUSHLING_NAMES[k] not in members]
        if others:
            raise MyceliumDataError(
                f"{path}: mushling {others[0]!r}: field 'type' may not be {kind!r}: the "
                f"{kind} abilities are coded for {list(members)} only"
            )
    return Mushlings(MUSHLING_NAMES, tuple(types), combat, spore, copies)


# --- nutrient cards ----------------------------------------------------------------------


@dataclass(frozen=True)
class Nutrients:
    names: tuple[str, ...]  # per kind
    effect: np.ndarray  # [kinds] index into NUTRIENT_EFFECTS
    tree: np.ndarray  # [kinds] index into TREE_NAMES, -1 if none
    copies: np.ndarray  # [kinds]
    four_player_only: np.ndarray  # [kinds] 0/1


def load_nutrients(path: str | Path | None = None) -> Nutrients:
    path = Path(path) if path is not None else NUTRIENTS_PATH
    data = read_toml(path, MyceliumDataError)
    entries = data.get("nutrient")
    if not isinstance(entries, list) or not entries:
        raise MyceliumDataError(f"{path}: expected [[nutrient]] tables")
    if len(entries) > MAX_NUTRIENT_KINDS:
        raise MyceliumDataError(f"{path}: at most {MAX_NUTRIENT_KINDS} nutrient kinds, got {len(entries)}")
    names, effect, tree, copies, four = [], [], [], [], []
    for i, e in enumerate(entries):
        name = _field(path, f"nutrient #{i + 1}", e, "name", str)
        label = f"nutrient #{i + 1} ({name!r})"
        names.append(name)
        copies.append(_int(path, label, e, "copies", 1, NUM_NUTRIENT_CARDS))
        eff = _field(path, label, e, "effect", str)
        if eff not in NUTRIENT_EFFECTS:
            raise MyceliumDataError(
                f"{path}: {label}: field 'effect' must be one of {list(NUTRIENT_EFFECTS)}, got {eff!r}"
            )
        effect.append(NUTRIENT_EFFECTS.index(eff))
        if eff == "tree":
            t = _field(path, label, e, "tree", str)
            if t not in TREE_NAMES:
                raise MyceliumDataError(f"{path}: {label}: field 'tree' must be one of {list(TREE_NAMES)}, got {t!r}")
            tree.append(TREE_NAMES.index(t))
        else:
            tree.append(-1)
        four.append(int(bool(_field(path, label, e, "four_player_only", bool))))
    if sum(copies) != NUM_NUTRIENT_CARDS:
        raise MyceliumDataError(f"{path}: field 'copies' must add up to {NUM_NUTRIENT_CARDS} cards, got {sum(copies)}")
    walnut = sum(c for c, f in zip(copies, four) if f)
    if walnut != 3:
        raise MyceliumDataError(
            f"{path}: the rulebook has 3 Walnut cards (four_player_only = true), the file has {walnut}"
        )
    return Nutrients(
        tuple(names),
        np.array(effect, np.int64),
        np.array(tree, np.int64),
        np.array(copies, np.int64),
        np.array(four, np.int64),
    )


# --- the board -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    players: int
    colours: tuple[str, ...]
    radius: int
    hexes: tuple[tuple[int, int], ...]  # every hex of the board
    edges: tuple[tuple[tuple[int, int], tuple[int, int]], ...]  # (hex a, hex b), b may be off the board
    edge_corners: np.ndarray  # [E, 2] corner ids
    edge_nbr: np.ndarray  # [E, 4] connected edges (-1 padded)
    edge_gloc: np.ndarray  # [E, 2] gather locations on either side (-1 none)
    permanent: np.ndarray  # [E] seat whose permanent Path lies there, -1 none
    gloc_names: tuple[str, ...]
    gloc_kind: np.ndarray  # [G] LK_*
    gloc_hex: tuple[tuple[int, int], ...]
    gloc_edges: np.ndarray  # [G, 6]
    cave_of_seat: np.ndarray  # [players] gather-location id of the seat's Spore Cave
    tree_gloc: np.ndarray  # [4] gather-location id of Oak, Birch, Pine, Walnut (-1 absent)
    willow: int
    mush_room: int
    colony_hex: tuple[tuple[int, int], ...]
    tavern_hex: tuple[int, int] | None


def _edge_key(a, b):
    return (a, b) if a <= b else (b, a)


def _corner_key(h, i):
    a = (h[0] + DIRS[i][0], h[1] + DIRS[i][1])
    b = (h[0] + DIRS[(i + 1) % 6][0], h[1] + DIRS[(i + 1) % 6][1])
    return tuple(sorted((h, a, b)))


def hex_edges(h):
    """The 6 edge keys of hex ``h`` and the two corner keys of each, in direction order."""
    out = []
    for i in range(6):
        n = (h[0] + DIRS[i][0], h[1] + DIRS[i][1])
        out.append((_edge_key(h, n), _corner_key(h, (i - 1) % 6), _corner_key(h, i)))
    return out


def load_board(players: int, path: str | Path | None = None) -> Board:
    path = Path(path) if path is not None else BOARD_PATH
    data = read_toml(path, MyceliumDataError)
    side_name = f"side{players}"
    side = data.get(side_name)
    if not isinstance(side, dict):
        raise MyceliumDataError(f"{path}: missing table [{side_name}] (the {players}-player side)")
    radius = _int(path, f"[{side_name}]", side, "radius", 1, 3)
    if _int(path, f"[{side_name}]", side, "players", 3, 4) != players:
        raise MyceliumDataError(f"{path}: [{side_name}]: field 'players' must be {players}")
    colours = _field(path, f"[{side_name}]", side, "colours", list)
    if len(colours) != players or not all(isinstance(c, str) for c in colours):
        raise MyceliumDataError(f"{path}: [{side_name}]: field 'colours' must list {players} names")
    hexes = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]
    hexset = set(hexes)
    locs = side.get("location")
    if not isinstance(locs, list):
        raise MyceliumDataError(f"{path}: [{side_name}]: expected [[{side_name}.location]] tables")
    colonies, caves, trees = {}, {}, {}
    center = mush = tavern = None
    used = {}
    for i, e in enumerate(locs):
        name = _field(path, f"{side_name} location #{i + 1}", e, "name", str)
        label = f"{side_name} location #{i + 1} ({name!r})"
        kind = _field(path, label, e, "kind", str)
        if kind not in LOCATION_KINDS:
            raise MyceliumDataError(
                f"{path}: {label}: field 'kind' must be one of {list(LOCATION_KINDS)}, got {kind!r}"
            )
        h = (_int(path, label, e, "q", -radius, radius), _int(path, label, e, "r", -radius, radius))
        if h not in hexset:
            raise MyceliumDataError(f"{path}: {label}: hex (q={h[0]}, r={h[1]}) is off the radius-{radius} board")
        if h in used:
            raise MyceliumDataError(f"{path}: {label}: hex (q={h[0]}, r={h[1]}) is already {used[h]!r}")
        used[h] = name
        if kind in ("colony", "cave"):
            seat = _int(path, label, e, "seat", 0, players - 1)
            table = colonies if kind == "colony" else caves
            if seat in table:
                raise MyceliumDataError(f"{path}: {label}: seat {seat} has two {kind} locations")
            table[seat] = (h, name)
        elif kind == "tree":
            if name not in TREE_NAMES:
                raise MyceliumDataError(f"{path}: {label}: a tree's name must be one of {list(TREE_NAMES)}")
            trees[name] = h
        elif kind == "center":
            center = (h, name)
        elif kind == "mush_room":
            mush = (h, name)
        else:
            tavern = h
    for what, table in (("colony", colonies), ("cave", caves)):
        if sorted(table) != list(range(players)):
            raise MyceliumDataError(
                f"{path}: [{side_name}]: every seat 0..{players - 1} needs a {what}; got seats {sorted(table)}"
            )
    needed = set(TREE_NAMES[:3]) | ({"Walnut"} if players == 4 else set())
    if not needed <= set(trees):
        raise MyceliumDataError(f"{path}: [{side_name}]: missing trees {sorted(needed - set(trees))}")
    if center is None or mush is None:
        raise MyceliumDataError(f"{path}: [{side_name}]: needs a 'center' (Willow) and a 'mush_room' location")
    for s in range(players):
        ch, cvh = colonies[s][0], caves[s][0]
        if max(abs(ch[0] - cvh[0]), abs(ch[1] - cvh[1]), abs(ch[0] + ch[1] - cvh[0] - cvh[1])) != 1:
            raise MyceliumDataError(f"{path}: {caves[s][1]!r}: a Spore Cave must be next to its Colony")

    # edges: every edge of every board hex
    edge_ids: dict = {}
    corners: dict = {}
    edge_list, edge_corners = [], []
    for h in hexes:
        for key, c0, c1 in hex_edges(h):
            if key not in edge_ids:
                edge_ids[key] = len(edge_list)
                edge_list.append(key)
                edge_corners.append((corners.setdefault(c0, len(corners)), corners.setdefault(c1, len(corners))))
    E = len(edge_list)
    if E > MAX_EDGES:
        raise MyceliumDataError(f"{path}: [{side_name}]: {E} edges, the kernels hold at most {MAX_EDGES}")
    ec = np.array(edge_corners, np.int64)
    by_corner: dict = {}
    for e, (c0, c1) in enumerate(edge_corners):
        by_corner.setdefault(c0, []).append(e)
        by_corner.setdefault(c1, []).append(e)
    nbr = np.full((MAX_EDGES, 4), -1, np.int64)
    for e, (c0, c1) in enumerate(edge_corners):
        ns = sorted({x for c in (c0, c1) for x in by_corner[c] if x != e})
        assert len(ns) <= 4
        nbr[e, : len(ns)] = ns

    # gather locations
    glocs = [(caves[s][0], caves[s][1], LK_CAVE) for s in range(players)]
    tree_gloc = np.full(4, -1, np.int64)
    for t, tname in enumerate(TREE_NAMES):
        if tname in trees:
            tree_gloc[t] = len(glocs)
            glocs.append((trees[tname], tname, LK_TREE))
    willow = len(glocs)
    glocs.append((center[0], center[1], LK_CENTER))
    mush_id = len(glocs)
    glocs.append((mush[0], mush[1], LK_MUSH))
    gloc_edges = np.full((MAX_GATHER_LOCS, 6), -1, np.int64)
    edge_gloc = np.full((MAX_EDGES, 2), -1, np.int64)
    for g, (h, _n, _k) in enumerate(glocs):
        for i, (key, _c0, _c1) in enumerate(hex_edges(h)):
            e = edge_ids[key]
            gloc_edges[g, i] = e
            slot = 0 if edge_gloc[e, 0] < 0 else 1
            edge_gloc[e, slot] = g
    permanent = np.full(MAX_EDGES, -1, np.int64)
    for s in range(players):
        for key, _c0, _c1 in hex_edges(colonies[s][0]):
            e = edge_ids[key]
            if permanent[e] >= 0:
                raise MyceliumDataError(f"{path}: [{side_name}]: colonies of seats {permanent[e]} and {s} touch")
            permanent[e] = s
    return Board(
        players,
        tuple(colours),
        radius,
        tuple(hexes),
        tuple(edge_list),
        ec,
        nbr,
        edge_gloc,
        permanent,
        tuple(g[1] for g in glocs),
        np.array([g[2] for g in glocs], np.int64),
        tuple(g[0] for g in glocs),
        gloc_edges,
        np.array([s for s in range(players)], np.int64),
        tree_gloc,
        willow,
        mush_id,
        tuple(colonies[s][0] for s in range(players)),
        tavern,
    )


def paths_to_bond(board: Board, seat: int, gloc: int) -> int:
    """Fewest Paths ``seat`` must build (alone on the board) to have a bonded Path on ``gloc``."""
    from collections import deque

    E = len(board.edges)
    dist = np.full(E, 10**9, np.int64)
    q = deque()
    for e in range(E):
        if board.permanent[e] == seat:
            dist[e] = 0
            q.append(e)
    while q:
        e = q.popleft()
        for n in board.edge_nbr[e]:
            if n >= 0 and board.permanent[n] < 0 and dist[n] > dist[e] + 1:
                dist[n] = dist[e] + 1
                q.append(n)
    return int(min(dist[e] for e in board.gloc_edges[gloc] if e >= 0))
