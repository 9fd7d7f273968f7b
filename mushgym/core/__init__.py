"""Game-independent numba pieces: shaped layouts, action spaces, the decision stack, in-state
random generator, piles, breadth-first search, block copies, batch loops. How to write a game with them:
``mushgym/core/README.md``."""

from . import specialise as _specialise

_specialise.install()  # before any kernel is typed: one specialisation per argument type

from .actions import ActionSpace
from .batch import generated_loops, loops_module
from .graph import bfs, bfs_walk, bfs_walk_owned, bfs_walk_rule
from .layout import NO_DECISION, STATE_DTYPE, Layout
from .piles import (
    canonical_shuffle,
    canonical_shuffle_around,
    count_by_type,
    pile_draw,
    pile_push,
    pile_push_bottom,
    pile_remove_at,
    pile_slot,
    refill_slots,
    reshuffle_into,
    shuffle_cards,
    shuffle_range,
    sort_cards,
)
from .rng import RNG_SLOTS, RNG_WORDS, rng_below, rng_die, rng_next32, rng_seed, sample_masked
from .simd import copy_block

__all__ = [
    "Layout",
    "ActionSpace",
    "NO_DECISION",
    "STATE_DTYPE",
    "RNG_WORDS",
    "RNG_SLOTS",
    "rng_seed",
    "rng_next32",
    "rng_below",
    "rng_die",
    "shuffle_range",
    "pile_push",
    "pile_draw",
    "pile_push_bottom",
    "pile_remove_at",
    "refill_slots",
    "reshuffle_into",
    "count_by_type",
    "canonical_shuffle",
    "canonical_shuffle_around",
    "shuffle_cards",
    "sort_cards",
    "pile_slot",
    "generated_loops",
    "loops_module",
    "sample_masked",
    "copy_block",
    "bfs",
    "bfs_walk",
    "bfs_walk_owned",
    "bfs_walk_rule",
]
