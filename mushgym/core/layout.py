"""Shaped layouts: named records with shapes mapped onto one flat integer array.

A game declares its state (and its observation, and its scratch area) once, at
import time, as named fields with shapes::

    L = Layout("state")
    RNG = L.field("rng", RNG_WORDS)
    HAND = L.field("hand", (2, NHAND), dims=("player", "kind"), doc="cards per hand kind")
    TURN = L.field("turn", doc="turns completed")
    L.decision_stack(depth=4, args=3)
    STATE_SIZE = L.size
    L.generated(globals())
    from .generated.layout import hand_at, push_decision  # noqa: E402  (written by `mushgym generate`)

Every declaration returns a plain ``int`` offset. Kept as module-level globals,
numba freezes them into the compiled kernels as compile-time constants.
``generated`` names, as generated code of the game's module (:mod:`mushgym.core.codegen`),
one index function per array field
(``hand_at(p, k)`` is the slot of ``hand[p, k]``; no ``HAND + p * NHAND + k``
arithmetic written by hand) and the decision-stack helpers (see
:meth:`Layout.decision_stack`).

From the same declaration come, in Python: named views of a state with their
shapes (:meth:`Layout.arrays`), a readable dict (:meth:`Layout.view`), the
markdown index table for a docstring (:meth:`Layout.table`), and, for
observation layouts declared with ``low``/``high``, the per-element bounds
(:meth:`Layout.bounds`).
"""

from __future__ import annotations

import hashlib
import keyword
from dataclasses import dataclass
from math import prod

import numpy as np

STATE_DTYPE = np.int64

NO_DECISION = -1  # top_kind / top_player of an empty decision stack
STACK_NAME = "decisions"


def shape_size(shape: tuple[int, ...]) -> int:
    """Slots of a shape (1 for a scalar)."""
    return prod(shape) if shape else 1


def shape_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major strides of a shape, in slots."""
    out, s = [], 1
    for n in reversed(shape):
        out.append(s)
        s *= n
    return tuple(reversed(out))


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple[int, ...]  # () for a scalar
    dims: tuple[str, ...]
    doc: str = ""
    low: object = None  # a number, or an array broadcast to ``shape`` (e.g. one bound per column)
    high: object = None

    size = property(lambda self: shape_size(self.shape))
    strides = property(lambda self: shape_strides(self.shape))

    def index(self, *idx: int) -> int:
        """The flat slot of ``field[idx]`` (Python side; kernels use ``<name>_at``)."""
        if len(idx) != len(self.shape):
            raise IndexError(f"field {self.name!r} has shape {self.shape}; got index {idx}")
        for i, n in zip(idx, self.shape):
            if not 0 <= i < n:
                raise IndexError(f"field {self.name!r} has shape {self.shape}; index {idx} is out of range")
        return self.offset + sum(i * s for i, s in zip(idx, self.strides))


def _shape(shape) -> tuple[int, ...]:
    if shape is None or shape == ():
        return ()
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    out = tuple(int(n) for n in shape)
    if any(n < 1 for n in out):
        raise ValueError(f"every dimension of a field must be positive, got {out}")
    return out


#: the state widths a layout may ask the vector API to store its states in
VECTOR_DTYPES = (np.int64, np.int32, np.int16)


class Layout:
    """Allocates consecutive slots of a 1-D array by name and shape.

    ``vector_dtype`` (state layouts only; default int64) is the width the vector API stores
    this game's states in: ``np.int32`` halves the bytes each env moves per step, ``np.int16``
    quarters them. The states of the functional API and the AEC env stay int64; the vector
    converts at its edges. A game opts in only when every slot fits: every declared bound
    must lie within the dtype (:meth:`check_vector_dtype`). The fields named in ``words32``
    hold the random generator's unsigned 32-bit words (:mod:`mushgym.core.rng`): in int64
    and int32 one word per slot (int32 keeps the same bits, signed), in int16 two slots per
    word, so such a field has :data:`~mushgym.core.rng.RNG_SLOTS` slots, of which the int64
    form uses the first half (the rest stays 0).
    """

    def __init__(self, name: str = "state", *, vector_dtype=np.int64, words32: tuple[str, ...] = ()) -> None:
        self.name = name
        self.fields: dict[str, Field] = {}
        self.size = 0
        self.stack: tuple[int, int, int] | None = None  # (offset, depth, args)
        if not any(np.dtype(vector_dtype) == np.dtype(d) for d in VECTOR_DTYPES):
            raise ValueError(
                f"{name}: vector_dtype must be one of {[np.dtype(d).name for d in VECTOR_DTYPES]}, got {vector_dtype!r}"
            )
        self.vector_dtype = np.dtype(vector_dtype)
        self.words32 = tuple(words32)

    # --- declaring --------------------------------------------------------------
    def field(
        self, name: str, shape=(), *, dims: tuple[str, ...] | None = None, doc: str = "", low=None, high=None
    ) -> int:
        """Reserve a field of ``shape`` (``()`` for a scalar); return its first offset."""
        if name in self.fields:
            raise ValueError(f"{self.name} field {name!r} is declared twice")
        if not name.isidentifier():
            raise ValueError(f"{self.name} field name {name!r} must be a Python identifier")
        shape = _shape(shape)
        if dims is None:
            dims = tuple(f"i{k}" for k in range(len(shape)))
        dims = tuple(dims)
        if len(dims) != len(shape):
            raise ValueError(f"{self.name} field {name!r}: {len(dims)} dimension names for shape {shape}")
        f = Field(name, self.size, shape, dims, doc, low, high)
        self.fields[name] = f
        self.size += f.size
        return f.offset

    def array(self, name: str, length: int, **kw) -> int:
        """A 1-D field of ``length`` slots (same as ``field(name, (length,))``)."""
        length = int(length)
        if length < 1:
            raise ValueError(f"{self.name} field {name!r} needs a positive length, got {length}")
        return self.field(name, (length,), **kw)

    def scalar(self, name: str, **kw) -> int:
        return self.field(name, (), **kw)

    def bound(self, name: str, low=None, high=None) -> None:
        """Declare (or tighten) the bounds of a declared field: a number, or an array broadcastable
        to its shape. On a state layout they are what :meth:`mushgym.Game.validate` checks."""
        from dataclasses import replace

        if name not in self.fields:
            raise KeyError(f"{self.name} has no field {name!r}; fields: {list(self.fields)}")
        f = self.fields[name]
        for b in (low, high):
            if b is not None:
                np.broadcast_to(np.asarray(b), f.shape or (1,))  # raises if the shape does not fit
        self.fields[name] = replace(f, low=f.low if low is None else low, high=f.high if high is None else high)

    def decision_stack(self, depth: int, args: int) -> int:
        """The game's stack of pending decisions: ``depth`` entries of (kind, player, args...).

        The player to act and the legal mask come from the top entry; a reaction
        window pushes one entry per eligible player (the first to answer pushed
        last); a response to a response is pushed on top and answered first.
        The generated code (:meth:`generated`) then defines::

            push_decision(state, kind, player, a0, a1, ...)   # every arg defaults to 0
            pop_decision(state)            # drop the top entry
            decision_depth(state)          # entries on the stack
            top_kind(state) / top_player(state)    # NO_DECISION (-1) when empty
            top_arg(state, i) / set_top_arg(state, i, v)
            top_arg_slot(state, i)         # the state slot of arg i of the top entry: for a
                                           # kernel that reads and writes an entry many times,
                                           # ``e = top_arg_slot(state, 0)``, then ``state[e + i]``
            decision_at(state, level, j)   # entry ``level`` (0 = bottom), column j
                                           # (0 kind, 1 player, 2 + i arg i)
            set_decision_at(state, level, j, v)    # write it (an entry below the top)
            clear_decisions(state)

        ``push_decision`` raises if the stack is full: size ``depth`` for the
        deepest nesting the rules allow.
        """
        if self.stack is not None:
            raise ValueError(f"{self.name}: a layout has one decision stack")
        depth, args = int(depth), int(args)
        if depth < 1 or args < 0:
            raise ValueError(f"decision stack needs depth >= 1 and args >= 0, got {depth}, {args}")
        self.field(f"{STACK_NAME}_n", doc="pending decisions on the stack")
        off = self.field(
            STACK_NAME,
            (depth, 2 + args),
            dims=("level", "column"),
            doc="pending decisions, bottom first: kind, player, args",
        )
        self.stack = (off, depth, args)
        return off

    def check_vector_dtype(self) -> None:
        """Raise ValueError unless every declared bound fits :attr:`vector_dtype` (the fields of
        :attr:`words32` hold 0..2**32-1 in their int64 form). Fields without bounds are the
        game's claim, checked by its vector-against-functional property tests."""
        unknown = [w for w in self.words32 if w not in self.fields]
        if unknown:
            raise ValueError(f"{self.name}: words32 names unknown fields {unknown}; fields: {list(self.fields)}")
        if self.vector_dtype == np.int64:
            return
        info = np.iinfo(self.vector_dtype)
        for f in self.fields.values():
            lo_ok, hi_ok = (0, 2**32 - 1) if f.name in self.words32 else (info.min, info.max)
            if f.name in self.words32 and self.vector_dtype == np.int16 and f.size % 2:
                raise ValueError(
                    f"{self.name} field {f.name!r}: an int16 state needs two slots per generator word, "
                    f"got {f.size} slots"
                )
            for bound, inside in ((f.low, lambda b: np.min(b) >= lo_ok), (f.high, lambda b: np.max(b) <= hi_ok)):
                if bound is not None and not inside(np.asarray(bound, np.int64)):
                    raise ValueError(
                        f"{self.name} field {f.name!r}: bounds {f.low}..{f.high} do not fit the "
                        f"vector dtype {self.vector_dtype.name} ({lo_ok}..{hi_ok})"
                    )

    def _words(self):
        """(offset, slots) of each :attr:`words32` field."""
        return [(self.fields[w].offset, self.fields[w].size) for w in self.words32]

    def to_vector(self, states: np.ndarray) -> np.ndarray:
        """int64 states (any leading shape) in :attr:`vector_dtype`; ValueError naming the first
        slot that does not fit."""
        if self.vector_dtype == np.int64:
            return np.asarray(states, np.int64)
        s = np.array(states, np.int64)
        info = np.iinfo(self.vector_dtype)
        words = {}
        for off, size in self._words():
            w = s[..., off : off + size].copy()
            words[off] = w
            s[..., off : off + size] = 0  # checked below as words, not as slots
        for off, w in words.items():
            spare = w[..., w.shape[-1] // 2 :] if self.vector_dtype == np.int16 else w[..., :0]
            if (w < 0).any() or (w > 2**32 - 1).any() or spare.any():
                name = next(f.name for f in self.fields.values() if f.offset == off)
                raise ValueError(
                    f"{self.name} field {name!r} holds no valid generator words "
                    f"(0..2**32-1{', second half 0' if spare.size else ''}): {w.tolist()}"
                )
        bad = np.argwhere((s < info.min) | (s > info.max))
        if bad.size:
            slot = int(bad[0][-1])
            name = next(f.name for f in self.fields.values() if f.offset <= slot < f.offset + f.size)
            raise ValueError(
                f"{self.name} slot {slot} (field {name!r}) = {int(np.asarray(states)[tuple(bad[0])])} "
                f"does not fit the vector dtype {self.vector_dtype.name}"
            )
        for off, w in words.items():
            if self.vector_dtype == np.int16:
                half = w.shape[-1] // 2
                lo, hi = w[..., :half] & 0xFFFF, w[..., :half] >> 16
                s[..., off : off + 2 * half : 2] = lo - ((lo >> 15) << 16)
                s[..., off + 1 : off + 2 * half : 2] = hi - ((hi >> 15) << 16)
            else:
                s[..., off : off + w.shape[-1]] = w - ((w >> 31) << 32)
        return s.astype(self.vector_dtype)

    def from_vector(self, states: np.ndarray) -> np.ndarray:
        """States stored in :attr:`vector_dtype` back as int64 (the functional API's)."""
        s = np.array(states, np.int64)
        for off, size in self._words():
            if self.vector_dtype == np.int16:
                half = size // 2
                lo = s[..., off : off + size : 2] & 0xFFFF
                hi = s[..., off + 1 : off + size : 2] & 0xFFFF
                s[..., off : off + half] = lo | (hi << 16)
                s[..., off + half : off + size] = 0
            elif self.vector_dtype == np.int32:
                s[..., off : off + size] &= 0xFFFFFFFF
        return s

    # --- reading states -----------------------------------------------------------
    def _check(self, state: np.ndarray) -> None:
        from .header import HEADER_WORDS

        # a game's state carries the header (mushgym.core.header) after the layout's slots
        if state.shape[-1] not in (self.size, self.size + HEADER_WORDS):
            raise ValueError(
                f"{self.name} has {state.shape[-1]} slots, the layout has {self.size} "
                f"(+{HEADER_WORDS} header words in a game's state)"
            )

    def view(self, state: np.ndarray) -> dict[str, object]:
        """Fields of ``state`` by name: an int for scalars, a flat list for arrays."""
        self._check(state)
        out: dict[str, object] = {}
        for name, f in self.fields.items():
            values = state[f.offset : f.offset + f.size]
            out[name] = int(values[0]) if not f.shape else [int(v) for v in values]
        return out

    def arrays(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Writable numpy views of every field of ``state``, shaped as declared (0-d for scalars)."""
        self._check(state)
        return {
            name: state[..., f.offset : f.offset + f.size].reshape(state.shape[:-1] + f.shape)
            for name, f in self.fields.items()
        }

    def get(self, state: np.ndarray, name: str) -> np.ndarray | int:
        f = self.fields[name]
        v = state[f.offset : f.offset + f.size]
        return int(v[0]) if not f.shape else v.reshape(f.shape)

    def new_state(self) -> np.ndarray:
        return np.zeros(self.size, dtype=STATE_DTYPE)

    # --- derived documents ----------------------------------------------------------
    def bounds(self, dtype=np.float32) -> tuple[np.ndarray, np.ndarray]:
        """Per-element (low, high) of a layout whose fields all declare ``low`` and ``high``.

        A bound is a number, an array broadcast to the field's shape (``high=col_high`` of
        shape ``(columns,)`` bounds each column of a ``(rows, columns)`` field) or a flat
        array with one bound per element.
        """
        low = np.zeros(self.size, dtype)
        high = np.zeros(self.size, dtype)
        for f in self.fields.values():
            if f.low is None or f.high is None:
                raise ValueError(f"{self.name} field {f.name!r} declares no low/high bound")
            for out, bound in ((low, f.low), (high, f.high)):
                b = np.asarray(bound, dtype)
                if b.ndim == 1 and b.size == f.size and b.shape != f.shape[-1:]:
                    b = b.reshape(f.shape)  # one bound per element, flat
                try:
                    out[f.offset : f.offset + f.size] = np.broadcast_to(b, f.shape).ravel()
                except ValueError:
                    raise ValueError(
                        f"{self.name} field {f.name!r}: bound of shape {np.shape(bound)} does not "
                        f"broadcast to the field's shape {f.shape}"
                    ) from None
        return low, high

    def state_bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per-slot int64 (low, high) of a state layout: the declared ``low``/``high`` of each
        field (unbounded where none is declared), the decision stack's entry count within
        ``0..depth``. None when nothing is bounded (no stack, no declared bound)."""
        info = np.iinfo(np.int64)
        low = np.full(self.size, info.min, np.int64)
        high = np.full(self.size, info.max, np.int64)
        bounded = False
        for f in self.fields.values():
            sl = slice(f.offset, f.offset + f.size)
            shape = f.shape or (1,)
            if f.low is not None:
                low[sl] = np.broadcast_to(np.asarray(f.low, np.int64), shape).ravel()
                bounded = True
            if f.high is not None:
                high[sl] = np.broadcast_to(np.asarray(f.high, np.int64), shape).ravel()
                bounded = True
        if self.stack is not None:
            n = self.fields[f"{STACK_NAME}_n"].offset
            low[n] = max(low[n], 0)
            high[n] = min(high[n], self.stack[1])
            bounded = True
        return (low, high) if bounded else None

    def table(self) -> str:
        """Markdown index table: slots, field, shape (dimension names), content."""
        rows = ["| index | field | shape | content |", "| --- | --- | --- | --- |"]
        for f in self.fields.values():
            span = str(f.offset) if f.size == 1 and not f.shape else f"{f.offset}..{f.offset + f.size - 1}"
            shape = "scalar" if not f.shape else " x ".join(f"{d}={n}" for d, n in zip(f.dims, f.shape))
            rows.append(f"| {span} | `{f.name}` | {shape} | {f.doc} |")
        return "\n".join(rows)

    def digest(self) -> str:
        h = hashlib.sha1(repr([(f.name, f.offset, f.shape) for f in self.fields.values()]).encode())
        return h.hexdigest()[:8]

    # --- compiled helpers -------------------------------------------------------------
    def source(self, prefix: str = "") -> str:
        """Source of the compiled helpers (index functions and decision stack)."""
        parts = []
        for f in self.fields.values():
            if not f.shape or (self.stack and f.name == STACK_NAME):
                continue
            names = list(f.dims)
            if len(set(names)) != len(names) or any(not n.isidentifier() or keyword.iskeyword(n) for n in names):
                names = [f"i{k}" for k in range(len(f.shape))]
            args = ", ".join(names)
            expr = " + ".join([str(f.offset)] + [f"{n} * {s}" if s != 1 else n for n, s in zip(names, f.strides)])
            parts.append(
                f"@njit(cache=True)\ndef {prefix}{f.name}_at({args}):\n"
                f'    """Slot of ``{f.name}[{args}]`` in the {self.name}."""\n'
                f"    return {expr}\n"
            )
        if self.stack is not None:
            parts.append(_stack_source(*self.stack, count=self.fields[f"{STACK_NAME}_n"].offset))
        return "\n\n".join(parts)

    def generated(self, namespace: dict, prefix: str = "") -> tuple[str, ...]:
        """Name this layout's helpers (index functions, decision stack) as generated code of the
        module ``namespace`` (call with ``globals()``, then import them from its generated module,
        ``generated/<module>.py``, written by ``mushgym generate``). Returns their names."""
        from .codegen import declare

        what = f"the layout {{key}} = Layout({self.name!r})" + (f", names prefixed {prefix!r}" if prefix else "")
        constants = {"NO_DECISION": NO_DECISION} if self.stack is not None else {}
        return declare(namespace, self, self.source(prefix), what=what, constants=constants).names


def _stack_source(off: int, depth: int, args: int, count: int) -> str:
    width = 2 + args
    arg_params = "".join(f", a{i}=0" for i in range(args))
    arg_writes = "".join(f"\n    state[e + {2 + i}] = a{i}" for i in range(args))
    entry_reads = ", ".join(f"state[e + {j}]" for j in range(width))
    return f'''
@njit(cache=True)
def decision_depth(state):
    """Entries on the decision stack."""
    return state[{count}]


@njit(cache=True)
def push_decision(state, kind, player{arg_params}):
    """Push a pending decision (kind, player, args) on top of the stack."""
    n = state[{count}]
    if n >= {depth}:
        raise ValueError("decision stack overflow: declare a deeper decision_stack")
    e = {off} + n * {width}
    state[e] = kind
    state[e + 1] = player{arg_writes}
    state[{count}] = n + 1


@njit(cache=True)
def pop_decision(state):
    """Drop the top entry (no-op on an empty stack)."""
    n = state[{count}]
    if n > 0:
        n -= 1
        e = {off} + n * {width}
        for j in range({width}):
            state[e + j] = 0
        state[{count}] = n


@njit(cache=True)
def clear_decisions(state):
    for j in range({depth * width}):
        state[{off} + j] = 0
    state[{count}] = 0


@njit(cache=True)
def replace_top(state, kind, player{arg_params}):
    """Replace the top entry by (kind, player, args): the decision goes on as another kind."""
    e = {off} + (state[{count}] - 1) * {width}
    state[e] = kind
    state[e + 1] = player{arg_writes}


@njit(cache=True)
def set_top_kind(state, kind):
    """Turn the top entry into a decision of another kind (its player and args stay)."""
    state[{off} + (state[{count}] - 1) * {width}] = kind


@njit(cache=True)
def top_entry(state):
    """The top entry as a tuple (kind, player, arg 0, ...); the stack must not be empty."""
    e = {off} + (state[{count}] - 1) * {width}
    return {entry_reads}


@njit(cache=True)
def top_kind(state):
    n = state[{count}]
    return state[{off} + (n - 1) * {width}] if n > 0 else -1


@njit(cache=True)
def top_player(state):
    n = state[{count}]
    return state[{off} + (n - 1) * {width} + 1] if n > 0 else -1


@njit(cache=True)
def top_arg(state, i):
    return state[{off} + (state[{count}] - 1) * {width} + 2 + i]


@njit(cache=True)
def top_arg_slot(state, i):
    """The state slot of arg ``i`` of the top entry."""
    return {off} + (state[{count}] - 1) * {width} + 2 + i


@njit(cache=True)
def set_top_arg(state, i, v):
    state[{off} + (state[{count}] - 1) * {width} + 2 + i] = v


@njit(cache=True)
def decision_at(state, level, j):
    """Column ``j`` (0 kind, 1 player, 2 + i arg i) of entry ``level`` (0 = bottom)."""
    return state[{off} + level * {width} + j]


@njit(cache=True)
def set_decision_at(state, level, j, v):
    """Set column ``j`` of entry ``level`` (0 = bottom): e.g. mark an entry below the top
    (a cancelled ability) without knowing the stack's offset."""
    state[{off} + level * {width} + j] = v
'''
