"""The Mycology deck: the loader of ``cards.toml`` into int64 tables.

Cards are numbered 0..83 in file order; that number (the card id) is what the
state, the observation and the kernels use. Resources are numbered in the order
of the dice table::

    0 Other Parasite (2/12)   1 Plant Parasite (3/11)   2 Wood Rot (4/10)
    3 Symbiont (5/9)          4 Soil/Dung (6/8)

Seasons are 0 Winter, 1 Spring, 2 Summer, 3 Fall; a card's seasons are a bit
mask (bit ``s`` set = playable in season ``s``). Specials: 0 none, 1 poison,
2 stinkhorn, 3 magic.

``load_deck(path=None)`` reads the designed deck (or a user's own file in the
same format, e.g. the real cards typed in) and returns a :class:`Deck`. A
malformed file raises ``DeckError`` naming the card and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mushgym.core.data import DataError, load_records, read_toml

NKINDS = 84  # card ids 0..83 (file order); one card of each kind
RESOURCES = ("other_parasite", "plant_parasite", "wood_rot", "symbiont", "soil_dung")
RESOURCE_NAMES = ("Other Parasite", "Plant Parasite", "Wood Rot", "Symbiont", "Soil/Dung")
RESOURCE_SHORT = ("OP", "PP", "WR", "SY", "SD")
SEASONS = ("winter", "spring", "summer", "fall")
SEASON_NAMES = ("Winter", "Spring", "Summer", "Fall")
SPECIALS = ("none", "poison", "stinkhorn", "magic")
MAX_POINTS = 20  # sanity limits on a card (they also bound the reward range)
MAX_FEAST = 10
MAX_COST_UNITS = 8  # per card, summed over resources (bounds the payment sub-decisions)

DEFAULT_PATH = Path(__file__).with_name("cards.toml")
FIELDS = ("name", "latin", "points", "seasons", "cost", "feast", "special", "poison_resource", "designed", "reason")


class DeckError(DataError):
    """A malformed card file; the message names the card and the field."""


@dataclass(frozen=True)
class Deck:
    names: tuple[str, ...]
    latin: tuple[str, ...]
    points: np.ndarray  # [84] int64
    seasons: np.ndarray  # [84] int64 bit mask, bit s = season s
    cost: np.ndarray  # [84, 5] int64
    feast: np.ndarray  # [84] int64
    special: np.ndarray  # [84] int64 (0 none, 1 poison, 2 stinkhorn, 3 magic)
    poison_res: np.ndarray  # [84] int64 (resource index, -1 if not a poison card)
    designed: tuple[bool, ...]


def load_deck(path: str | Path | None = None) -> Deck:
    path = Path(path) if path is not None else DEFAULT_PATH
    data = read_toml(path, DeckError)
    cards = load_records(data, "card", path, DeckError, label="card")
    if len(cards) != NKINDS:
        raise DeckError(f"{path}: Mycology has {NKINDS} cards, the file has {len(cards)}")
    names, latin, designed = [], [], []
    points = np.zeros(NKINDS, np.int64)
    seasons = np.zeros(NKINDS, np.int64)
    cost = np.zeros((NKINDS, 5), np.int64)
    feast = np.zeros(NKINDS, np.int64)
    special = np.zeros(NKINDS, np.int64)
    poison_res = np.full(NKINDS, -1, np.int64)
    for i, card in enumerate(cards):
        card.only(FIELDS)
        names.append(card.text("name"))
        latin.append(card.text("latin"))
        points[i] = card.integer("points", 0, MAX_POINTS)
        feast[i] = card.integer("feast", 0, MAX_FEAST)
        for s in card.text_list("seasons", SEASONS):
            seasons[i] |= 1 << SEASONS.index(s)
        c = card.table("cost")
        if not c.data:
            raise card.fail(f"field 'cost' must be a table resource -> count with resources from {list(RESOURCES)}")
        for r in c.data:
            if r not in RESOURCES:
                raise card.fail(f"field 'cost' names unknown resource {r!r}; resources are {list(RESOURCES)}")
            cost[i, RESOURCES.index(r)] = c.integer(r, 1, MAX_COST_UNITS)
        if cost[i].sum() > MAX_COST_UNITS:
            raise card.fail(f"field 'cost' totals {cost[i].sum()} resources, at most {MAX_COST_UNITS}")
        sp = card.text("special", choices=SPECIALS, default="none")
        special[i] = SPECIALS.index(sp)
        if sp == "poison":
            poison_res[i] = RESOURCES.index(card.text("poison_resource", choices=RESOURCES))
        elif "poison_resource" in card:
            raise card.fail("field 'poison_resource' is only for poison cards")
        d = card.boolean("designed", default=False)
        if d:
            card.text("reason")
        designed.append(d)
    if len(set(names)) != NKINDS:
        dup = sorted({n for n in names if names.count(n) > 1})
        raise DeckError(f"{path}: card names must be distinct; repeated: {dup}")
    return Deck(tuple(names), tuple(latin), points, seasons, cost, feast, special, poison_res, tuple(designed))
