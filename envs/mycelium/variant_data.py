"""Loaders of the variants' data files: ``items.toml`` (Emsporium) and ``heroes.toml`` (Hero Tavern).

Read with the checked reader :mod:`mushgym.core.data`; a malformed file raises
:class:`~.data.MyceliumDataError` naming the file, the entry and the field. The effects are
code (``emsporium.py``, ``tavern.py``) bound to the names in the fixed orders below; a file
may change the numbers only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mushgym.core.data import load_records, read_toml

from .data import MyceliumDataError

HERE = Path(__file__).resolve().parent
ITEMS_PATH = HERE / "items.toml"
HEROES_PATH = HERE / "heroes.toml"

ITEM_NAMES = ("Sword", "Pickaxe", "Backpack", "Bow", "Flyers", "Shield", "Pouch", "Basket")
NUM_ITEM_TYPES = len(ITEM_NAMES)
ITEM_COPIES = 2  # published: "There are 2 of every Emsporium Item"
NUM_ITEM_CARDS = NUM_ITEM_TYPES * ITEM_COPIES
SHOP_SIZE = 5  # published: "display 5 of them face-up"
SOURCES = ("published", "designed")
NUM_HEROES = 8  # published: "8 Hero Mushling Cards", "each Hero is unique"


@dataclass(frozen=True)
class Items:
    names: tuple[str, ...]
    cost: np.ndarray  # spore value per item type
    text: tuple[str, ...]


def _named_records(path, key, label, names):
    data = read_toml(path, MyceliumDataError)
    recs = load_records(data, key, path, MyceliumDataError, label=label)
    by_name = {}
    for r in recs:
        name = r.text("name")
        if name not in names:
            raise r.fail(f"field 'name' = {name!r} is not one of {list(names)}")
        if name in by_name:
            raise r.fail(f"{label} {name!r} listed twice")
        by_name[name] = r
    missing = [m for m in names if m not in by_name]
    if missing:
        raise MyceliumDataError(f"{path}: missing {label}s {missing}; every one of {list(names)} must be listed once")
    return by_name


def load_items(path: str | Path | None = None) -> Items:
    path = Path(path) if path is not None else ITEMS_PATH
    recs = _named_records(path, "item", "item", ITEM_NAMES)
    cost = np.zeros(NUM_ITEM_TYPES, np.int64)
    text = []
    for i, name in enumerate(ITEM_NAMES):
        r = recs[name]
        r.only(("name", "cost", "cost_source", "effect_source", "text"))
        cost[i] = r.integer("cost", 1, 30)
        r.text("cost_source", SOURCES)
        r.text("effect_source", SOURCES)
        text.append(r.text("text"))
    return Items(ITEM_NAMES, cost, tuple(text))


HERO_EFFECTS = (
    "free_paths",
    "spores",
    "combat_tokens",
    "draw",
    "spawn",
    "view_nutrients",
    "gather_now",
    "willow",
    "combat",
)
HERO_REACTION_EFFECTS = ("combat",)
MAX_HERO_AMOUNT = 4


@dataclass(frozen=True)
class Heroes:
    names: tuple[str, ...]
    effect: np.ndarray  # (NUM_HEROES, 2): index into HERO_EFFECTS of ability a, b
    amount: np.ndarray  # (NUM_HEROES, 2)


def load_heroes(path: str | Path | None = None) -> Heroes:
    """The 8 heroes in file order (each unique, 2 abilities from :data:`HERO_EFFECTS`)."""
    path = Path(path) if path is not None else HEROES_PATH
    data = read_toml(path, MyceliumDataError)
    recs = load_records(data, "hero", path, MyceliumDataError, label="hero")
    if len(recs) != NUM_HEROES:
        raise MyceliumDataError(f"{path}: {len(recs)} [[hero]] tables; the game has exactly {NUM_HEROES} heroes")
    names, effect, amount = [], np.zeros((NUM_HEROES, 2), np.int64), np.zeros((NUM_HEROES, 2), np.int64)
    for h, r in enumerate(recs):
        r.only(("name", "a_effect", "a_amount", "b_effect", "b_amount", "source", "note"))
        name = r.text("name")
        if name in names:
            raise r.fail(f"hero {name!r} listed twice (each hero is unique)")
        names.append(name)
        for k, side in enumerate("ab"):
            eff = r.text(f"{side}_effect", HERO_EFFECTS)
            effect[h, k] = HERO_EFFECTS.index(eff)
            lo = 0 if eff == "gather_now" else 1
            amount[h, k] = r.integer(f"{side}_amount", lo, MAX_HERO_AMOUNT)
        r.text("source", SOURCES)
    return Heroes(tuple(names), effect, amount)
