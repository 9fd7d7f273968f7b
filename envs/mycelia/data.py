"""Mycelia's data files (``cards.toml``, ``tiles.toml``, ``automata.toml``) loaded into int64 tables.

Ids are file order: card ``k`` is the k-th ``[[card]]`` of ``cards.toml``, tile ``t`` the t-th
``[[tile]]`` of ``tiles.toml``. Colours are numbered ``0 red, 1 green, 2 brown, 3 yellow,
4 black``; wind symbols ``0 O, 1 U, 2 A``. A malformed file raises :class:`MyceliaDataError`
naming the file, the entry and the field, and listing the valid choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mushgym.core.data import read_toml

HERE = Path(__file__).resolve().parent
NUM_CARDS = 69
NUM_CARDS_NA = 35
NUM_TILES = 50
NUM_AUTOMATA_CARDS = 10
COLOURS = ("red", "green", "brown", "yellow", "black")
SYMBOLS = ("O", "U", "A")
ORDERS = ("OUA", "OAU")
#: Decay actions, glossary order (RULES.md, "Decay actions"). Indices are used by the kernels.
DECAYS = (
    "move_outer_tile",  # instant: move a tile with one touching edge, with all its contents
    "move_opponent_mushroom",  # instant: move an opponent's mushroom token to an empty triangle
    "steal_card",  # instant: randomly steal a card from an opponent's hand
    "draw_two",  # instant: pick up two new cards (market or deck)
    "extra_spore",  # mushroom upgrade: +1 spore for mushrooms grown on this mat
    "spore_with_mother",  # mushroom upgrade: spore this mat's mushroom and the M with one roll
    "same_action_twice",  # game upgrade: the two actions of a turn may be the same
    "discover_two_keep_one",  # game upgrade: discovering from the deck draws 2, keeps 1
    "mother_moves_three",  # game upgrade: the M moves up to 3
    "mother_spores_three",  # game upgrade: the M spores 3
    "move_opponent_mother",  # instant (The Prince): move an opponent's M to an empty triangle
    # the North American expansion's glossary (its cards only)
    "sapling_spore_roll",  # instant: add a spore from the supply to any sapling and roll for a symbiosis bonus
    "reroll_symbiosis",  # game upgrade: re-roll (once) any future symbiosis roll
    "explore_two_keep_one",  # game upgrade: EXPLORE draws two tiles, places one, discards the other
    "add_two_saplings",  # instant: add two saplings from the supply to the board (one per tile)
    "remove_sapling_spore",  # instant: remove a spore of any colour from any sapling (back to its owner)
)
BASE_DECAYS = 11
INSTANT_DECAYS = (0, 1, 2, 3, 10)
MOVE_TARGETS = ("coloured_tile", "opponent_mushroom", "own_mushroom", "opponent_spores", "opponent_mother", "insect")
MAX_REQUIRE = 6
MAX_SPORES = 6
MAX_POINTS = 8


class MyceliaDataError(ValueError):
    """A malformed Mycelia data file; the message names the file, the entry and the field."""


@dataclass(frozen=True)
class Cards:
    names: tuple[str, ...]
    latin: tuple[str, ...]
    points: np.ndarray  # [69]
    spores: np.ndarray  # [69] spore count
    require: np.ndarray  # [69, 4] spores required by colour (red, green, brown, yellow)
    decay: np.ndarray  # [69] index into DECAYS
    wild: np.ndarray | None = None  # [n] wild spores required (the expansion's cards; zeros for the base game's)


@dataclass(frozen=True)
class Tiles:
    colour: np.ndarray  # [50] 0..4
    insect: np.ndarray  # [50] 0/1
    order: np.ndarray  # [50, 3] wind symbol on each edge, clockwise


@dataclass(frozen=True)
class AutomataCards:
    colour: np.ndarray  # [2 sides, 10] colour of the coloured-tile move target
    require: np.ndarray  # [2, 10, 5] red, green, brown, yellow, wild
    spores: np.ndarray  # [2, 10]
    move: np.ndarray  # [2, 10, 3] move target per die face O, U, A
    decay: np.ndarray  # [2, 10] index into DECAYS (instant ones only)


def _entries(path: Path, key: str, count: int) -> list:
    data = read_toml(path, MyceliaDataError)
    entries = data.get(key)
    if not isinstance(entries, list):
        raise MyceliaDataError(f"{path}: expected [[{key}]] tables")
    if len(entries) != count:
        raise MyceliaDataError(f"{path}: Mycelia has {count} {key}s, the file has {len(entries)}")
    return entries


def _int(where: str, table: dict, key: str, lo: int, hi: int) -> int:
    if key not in table:
        raise MyceliaDataError(f"{where}: missing field {key!r}")
    v = table[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise MyceliaDataError(f"{where}: field {key!r} must be an integer in {lo}..{hi}, got {v!r}")
    return v


def _choice(where: str, table: dict, key: str, choices: tuple[str, ...]) -> int:
    if key not in table:
        raise MyceliaDataError(f"{where}: missing field {key!r}")
    v = table[key]
    if v not in choices:
        raise MyceliaDataError(f"{where}: field {key!r} is {v!r}; valid choices are {list(choices)}")
    return choices.index(v)


def _require(where: str, table: dict, wild: bool) -> list[int]:
    req = table.get("require")
    if not isinstance(req, dict):
        raise MyceliaDataError(f"{where}: field 'require' must be a table colour -> count")
    names = COLOURS[:4] + (("wild",) if wild else ())
    out = [0] * len(names)
    for colour, n in req.items():
        if colour not in names:
            raise MyceliaDataError(f"{where}: field 'require' has colour {colour!r}; valid choices are {list(names)}")
        out[names.index(colour)] = _int(where, req, colour, 1, MAX_REQUIRE)
    if not 1 <= sum(out) <= MAX_REQUIRE:
        raise MyceliaDataError(
            f"{where}: field 'require' asks for {sum(out)} spores; valid totals are 1..{MAX_REQUIRE}"
        )
    return out


def load_cards(path: str | Path | None = None, expansion: bool = False) -> Cards:
    """The base game's 69 cards (``cards.toml``), or with ``expansion`` the North American
    expansion's 35 (``cards_north_america.toml``: wild spores and the expansion's decay actions
    allowed)."""
    default = "cards_north_america.toml" if expansion else "cards.toml"
    count = NUM_CARDS_NA if expansion else NUM_CARDS
    decays = DECAYS if expansion else DECAYS[:BASE_DECAYS]
    path = Path(path) if path is not None else HERE / default
    entries = _entries(path, "card", count)
    names, latin = [], []
    points = np.zeros(count, np.int64)
    spores = np.zeros(count, np.int64)
    require = np.zeros((count, 4), np.int64)
    wild = np.zeros(count, np.int64)
    decay = np.zeros(count, np.int64)
    for k, card in enumerate(entries):
        name = card.get("name") if isinstance(card, dict) else None
        if not isinstance(name, str) or not name:
            raise MyceliaDataError(f"{path}: card {k}: missing field 'name'")
        where = f"{path}: card {k} ({name})"
        names.append(name)
        latin.append(str(card.get("latin", "")))
        points[k] = _int(where, card, "points", 2, MAX_POINTS)
        spores[k] = _int(where, card, "spores", 1, MAX_SPORES)
        req = _require(where, card, wild=expansion)
        require[k] = req[:4]
        if expansion:
            wild[k] = req[4]
        decay[k] = _choice(where, card, "decay", decays)
    return Cards(tuple(names), tuple(latin), points, spores, require, decay, wild)


def load_tiles(path: str | Path | None = None) -> Tiles:
    path = Path(path) if path is not None else HERE / "tiles.toml"
    entries = _entries(path, "tile", NUM_TILES)
    colour = np.zeros(NUM_TILES, np.int64)
    insect = np.zeros(NUM_TILES, np.int64)
    order = np.zeros((NUM_TILES, 3), np.int64)
    for t, tile in enumerate(entries):
        where = f"{path}: tile {t}"
        if not isinstance(tile, dict):
            raise MyceliaDataError(f"{where}: expected a table")
        colour[t] = _choice(where, tile, "colour", COLOURS)
        ins = tile.get("insect")
        if not isinstance(ins, bool):
            raise MyceliaDataError(f"{where}: field 'insect' must be true or false, got {ins!r}")
        insect[t] = int(ins)
        o = _choice(where, tile, "order", ORDERS)
        order[t] = [SYMBOLS.index(ch) for ch in ORDERS[o]]
    return Tiles(colour, insect, order)


def load_automata(path: str | Path | None = None) -> AutomataCards:
    path = Path(path) if path is not None else HERE / "automata.toml"
    entries = _entries(path, "card", NUM_AUTOMATA_CARDS)
    colour = np.zeros((2, NUM_AUTOMATA_CARDS), np.int64)
    require = np.zeros((2, NUM_AUTOMATA_CARDS, 5), np.int64)
    spores = np.zeros((2, NUM_AUTOMATA_CARDS), np.int64)
    move = np.zeros((2, NUM_AUTOMATA_CARDS, 3), np.int64)
    decay = np.zeros((2, NUM_AUTOMATA_CARDS), np.int64)
    instant = tuple(DECAYS[i] for i in INSTANT_DECAYS)
    for k, card in enumerate(entries):
        for s, side in enumerate(("medium", "hard")):
            where = f"{path}: Automata card {k} side {side}"
            t = card.get(side) if isinstance(card, dict) else None
            if not isinstance(t, dict):
                raise MyceliaDataError(f"{where}: missing table {side!r}")
            colour[s, k] = _choice(where, t, "colour", COLOURS[:4])
            require[s, k] = _require(where, t, wild=True)
            spores[s, k] = _int(where, t, "spores", 1, MAX_SPORES)
            mv = t.get("move")
            if not isinstance(mv, list) or len(mv) != 3 or any(m not in MOVE_TARGETS for m in mv):
                raise MyceliaDataError(
                    f"{where}: field 'move' must list 3 targets (die faces O, U, A) "
                    f"from {list(MOVE_TARGETS)}, got {mv!r}"
                )
            move[s, k] = [MOVE_TARGETS.index(m) for m in mv]
            decay[s, k] = DECAYS.index(instant[_choice(where, t, "decay", instant)])
    return AutomataCards(colour, require, spores, move, decay)


def join_cards(base: Cards, extra: Cards | None) -> Cards:
    """The cards in play: the base game's, then (ids 69..) the expansion's; the base game's
    get wild 0."""
    wild = np.zeros(len(base.names), np.int64) if base.wild is None else base.wild
    if extra is None:
        return Cards(base.names, base.latin, base.points, base.spores, base.require, base.decay, wild)
    return Cards(
        base.names + extra.names,
        base.latin + extra.latin,
        np.concatenate([base.points, extra.points]),
        np.concatenate([base.spores, extra.spores]),
        np.concatenate([base.require, extra.require]),
        np.concatenate([base.decay, extra.decay]),
        np.concatenate([wild, extra.wild]),
    )
