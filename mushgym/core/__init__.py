"""Game-independent numba pieces: state layout, in-state random generator, piles, batch loops."""

from .batch import install_batch_kernels
from .layout import STATE_DTYPE, Layout
from .piles import (
    count_by_type,
    pile_draw,
    pile_push,
    pile_push_bottom,
    pile_remove_at,
    reshuffle_into,
    shuffle_range,
)
from .rng import RNG_WORDS, rng_below, rng_die, rng_next32, rng_seed

__all__ = [
    "Layout", "STATE_DTYPE", "RNG_WORDS", "rng_seed", "rng_next32", "rng_below", "rng_die",
    "shuffle_range", "pile_push", "pile_draw", "pile_push_bottom", "pile_remove_at",
    "reshuffle_into", "count_by_type", "install_batch_kernels",
]
