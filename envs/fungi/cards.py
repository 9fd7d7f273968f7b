"""The Fungi deck: card kinds, and the loader of ``cards.toml`` into int64 tables.

Card kinds (small ints, used everywhere in the state and the action space)::

    0..8    mushroom types, in the order of MUSHROOMS (Honey fungus .. Morel)
    9..16   Night cards, Night of type t = 9 + t (t = 0..7; Morel has none)
    17 Butter, 18 Cidre, 19 Pan        (the last "hand kinds": 0..19 can be held)
    20 Fly agaric, 21 Basket, 22 Moon  (never held in a hand)

``load_deck(path=None)`` reads the published deck (or a user's own file with the
same names) and returns a :class:`Deck` of numpy tables indexed by kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mushgym.core.data import DataError, Record, load_records, read_toml

DEFAULT_DECK_PATH = Path(__file__).with_name("cards.toml")

MUSHROOMS = (
    "Honey fungus",
    "Tree ear",
    "Lawyer's wig",
    "Shiitake",
    "Hen of the woods",
    "Birch bolete",
    "Porcini",
    "Chanterelle",
    "Morel",
)
NTYPES = 9
NNIGHT = 8  # one Night card kind per type but Morel
NIGHT0 = 9  # kind of the Night card of type t is NIGHT0 + t
BUTTER, CIDRE, PAN = 17, 18, 19
NHAND = 20  # kinds 0..19 can be in a hand
FLY, BASKET, MOON = 20, 21, 22
NKINDS = 23

KIND_NAMES = (
    MUSHROOMS
    + tuple(f"Night {m}" for m in MUSHROOMS[:NNIGHT])
    + ("Butter", "Cidre", "Pan", "Fly agaric", "Basket", "Moon")
)
# Short names for compact text (state_to_string, render).
KIND_SHORT = (
    "Honey",
    "TreeEar",
    "LawWig",
    "Shiitake",
    "Hen",
    "Birch",
    "Porcini",
    "Chant",
    "Morel",
    "N-Honey",
    "N-TreeEar",
    "N-LawWig",
    "N-Shiitake",
    "N-Hen",
    "N-Birch",
    "N-Porcini",
    "N-Chant",
    "Butter",
    "Cidre",
    "Pan",
    "FlyAgaric",
    "Basket",
    "Moon",
)
FOREST_NAMES = MUSHROOMS + ("Fly agaric", "Butter", "Cidre", "Pan", "Basket", "Moon")
_FOREST_KIND = {name: i for i, name in enumerate(MUSHROOMS)}
_FOREST_KIND.update({"Fly agaric": FLY, "Butter": BUTTER, "Cidre": CIDRE, "Pan": PAN, "Basket": BASKET, "Moon": MOON})

# Capacities fixed by the state layout and the action space (see layout.py).
MAX_TYPE_COPIES = 10  # Forest cards of one type used in one cook/sell action: 0..10
MAX_NIGHT_PER_TYPE = 1  # Night cards of one type used in one cook/sell action: 0..1
MAX_DRAW = 120  # capacity of the draw pile region
MAX_PANS = 16  # cooked pans recorded per player
MAX_NIGHT_DECK = 8


class DeckError(DataError):
    """A malformed deck file."""


@dataclass(frozen=True)
class Deck:
    copies: np.ndarray  # int64[NKINDS]; Pan = all pans, including the starting ones
    flavor: np.ndarray  # int64[NKINDS]; per mushroom (Night: per mushroom it counts as); Butter/Cidre per card
    sticks: np.ndarray  # int64[NKINDS]; per mushroom sold
    units: np.ndarray  # int64[NKINDS]; mushrooms a card counts as: 1 Forest mushroom, 2 Night, 0 other
    starting_pans: int
    night_counts_as: int
    path: str

    @property
    def draw_pile_size(self) -> int:
        """Forest cards shuffled into the draw pile (all but the starting pans)."""
        return int(self.copies[:NKINDS].sum() - self.copies[NIGHT0 : NIGHT0 + NNIGHT].sum() - self.starting_pans)


# Upper bounds of the per-card numbers: what the kernels' int64 sums and the observation
# bounds are sized for (a score is at most MAX_FLAVOR x the cards cooked, far below 2**31).
MAX_FLAVOR = 100
MAX_STICKS = 100


def _status(card: Record, fields: tuple[str, ...]) -> None:
    status = card.table("status")
    for f in fields:
        status.text(f, choices=("published", "designed"))


def load_deck(path: str | Path | None = None) -> Deck:
    """Read a deck file (default: the published deck) into int64 tables; raise DeckError if malformed
    (naming the file, the card and the field; every number is bounded, see mushgym.core.data)."""
    p = Path(path) if path is not None else DEFAULT_DECK_PATH
    data = read_toml(p, DeckError)
    deck = Record(data, str(p), DeckError).table("deck")
    forest = load_records(data, "forest", p, DeckError, label="forest card")
    night = load_records(data, "night", p, DeckError, label="night card")
    n_forest = deck.integer("forest_cards", 1, MAX_DRAW + MAX_PANS)
    n_night = deck.integer("night_cards", 0, MAX_NIGHT_DECK)
    starting_pans = deck.integer("starting_pans", 0, MAX_PANS)
    counts_as = deck.integer("night_counts_as", 1, 2)

    copies = np.zeros(NKINDS, np.int64)
    flavor = np.zeros(NKINDS, np.int64)
    sticks = np.zeros(NKINDS, np.int64)
    units = np.zeros(NKINDS, np.int64)
    seen: set[str] = set()
    for card in forest:
        name = card.text("name")
        if name not in _FOREST_KIND:
            raise card.fail(f"unknown card name {name!r}; expected one of {list(FOREST_NAMES)}")
        if name in seen:
            raise card.fail("listed twice")
        seen.add(name)
        k = _FOREST_KIND[name]
        copies[k] = card.integer("copies", 0, MAX_TYPE_COPIES if k < NTYPES else MAX_DRAW)
        flavor[k] = card.integer("flavor", 0, MAX_FLAVOR)
        sticks[k] = card.integer("sticks", 0, MAX_STICKS)
        card.raw("source")
        _status(card, ("copies", "flavor", "sticks"))
        if k < NTYPES:
            units[k] = 1
    missing = [n for n in FOREST_NAMES if n not in seen]
    if missing:
        raise DeckError(f"{p}: forest cards missing: {missing}")
    total = int(copies.sum())
    if total != n_forest:
        raise DeckError(f"{p}: wrong count: the forest cards add up to {total}, [deck] forest_cards says {n_forest}")
    if copies[PAN] < starting_pans:
        raise DeckError(f"{p}: forest card 'Pan': copies {copies[PAN]} < starting_pans {starting_pans}")
    if copies[PAN] > MAX_PANS:
        raise DeckError(f"{p}: forest card 'Pan': copies {copies[PAN]} exceeds {MAX_PANS} (the engine's limit)")
    if total - starting_pans > MAX_DRAW:
        raise DeckError(f"{p}: {total - starting_pans} cards in the draw pile exceed {MAX_DRAW} (the engine's limit)")
    if total - starting_pans < 14:
        raise DeckError(f"{p}: at least 14 shuffled forest cards are needed (8 in the Forest, 3 per hand)")

    seen_night: set[str] = set()
    for card in night:
        card.text("name")
        t_name = card.text("type", choices=MUSHROOMS[:NNIGHT])
        if t_name in seen_night:
            raise card.fail(f"a second Night card of type {t_name!r}")
        seen_night.add(t_name)
        t = MUSHROOMS.index(t_name)
        copies[NIGHT0 + t] = card.integer("copies", 0, MAX_NIGHT_PER_TYPE)
        card.raw("source")
        _status(card, ("copies",))
    n_total_night = int(copies[NIGHT0 : NIGHT0 + NNIGHT].sum())
    if n_total_night != n_night:
        raise DeckError(
            f"{p}: wrong count: the night cards add up to {n_total_night}, [deck] night_cards says {n_night}"
        )
    for t in range(NNIGHT):
        flavor[NIGHT0 + t] = flavor[t]
        sticks[NIGHT0 + t] = sticks[t]
        units[NIGHT0 + t] = counts_as
    return Deck(copies, flavor, sticks, units, starting_pans, counts_as, str(p))
