"""Named fields mapped to offsets in one flat integer state array.

A game declares its state once, at import time::

    L = Layout()
    SEED_WORDS = L.array("rng", RNG_WORDS)
    TURN = L.scalar("turn")
    HAND = L.array("hand", 2 * 20)
    STATE_SIZE = L.size

Every call returns a plain ``int`` offset. Kept as module-level globals, numba
freezes them into the compiled kernels as compile-time constants, so a field
access ``state[TURN]`` costs one load. ``Layout.view(state)`` gives a readable
dict of the fields for debugging, tests and ``state_to_string``.
"""

from __future__ import annotations

import numpy as np

STATE_DTYPE = np.int64


class Layout:
    """Allocates consecutive slots of a 1-D ``int64`` state array by name."""

    def __init__(self) -> None:
        self.fields: dict[str, tuple[int, int]] = {}
        self.size = 0

    def array(self, name: str, length: int) -> int:
        """Reserve ``length`` consecutive slots; return the first offset."""
        if name in self.fields:
            raise ValueError(f"state field {name!r} is declared twice")
        length = int(length)
        if length < 1:
            raise ValueError(f"state field {name!r} needs a positive length, got {length}")
        offset = self.size
        self.fields[name] = (offset, length)
        self.size += length
        return offset

    def scalar(self, name: str) -> int:
        """Reserve one slot; return its offset."""
        return self.array(name, 1)

    def field(self, state: np.ndarray, name: str) -> np.ndarray:
        offset, length = self.fields[name]
        return state[offset : offset + length]

    def view(self, state: np.ndarray) -> dict[str, object]:
        """Fields of ``state`` by name: an int for scalars, a list for arrays."""
        if state.shape[-1] != self.size:
            raise ValueError(f"state has {state.shape[-1]} slots, the layout has {self.size}")
        out: dict[str, object] = {}
        for name, (offset, length) in self.fields.items():
            values = state[offset : offset + length]
            out[name] = int(values[0]) if length == 1 else [int(v) for v in values]
        return out

    def new_state(self) -> np.ndarray:
        return np.zeros(self.size, dtype=STATE_DTYPE)
