"""A flat ``Discrete(N)`` action space declared as named groups with shapes.

::

    A = ActionSpace()
    TAKE = A.add("take", FOREST_SIZE, dims=("position",), doc="take the Forest card at a position")
    DECAY = A.add("take_decay", doc="take the whole decay pile")
    COOK = A.add("cook", (NTYPES, 2, 11), dims=("type", "night", "forest"), doc="cook ...")
    NUM_ACTIONS = A.size
    A.generated(globals())
    from .generated.layout import cook_action, cook_args  # noqa: E402  (written by `mushgym generate`)

Each ``add`` returns the group's first action id. The generated code (:meth:`ActionSpace.generated`,
:mod:`mushgym.core.codegen`) defines, for every group with a shape, ``cook_action(type, night, forest)``
(the action id) and ``cook_args(a)`` (the tuple back; an int for 1-D groups).
In Python: :meth:`ActionSpace.encode`, :meth:`decode`, :meth:`describe` (the
default ``action_to_string``) and :meth:`table` (the docstring's index table).
"""

from __future__ import annotations

import hashlib
import keyword
from dataclasses import dataclass

from .layout import shape_size, shape_strides


@dataclass(frozen=True)
class ActionGroup:
    name: str
    offset: int
    shape: tuple[int, ...]
    dims: tuple[str, ...]
    doc: str = ""

    size = property(lambda self: shape_size(self.shape))
    strides = property(lambda self: shape_strides(self.shape))


class ActionSpace:
    def __init__(self, name: str = "actions") -> None:
        self.name = name
        self.groups: dict[str, ActionGroup] = {}
        self.size = 0

    def add(self, name: str, shape=(), *, dims: tuple[str, ...] | None = None, doc: str = "") -> int:
        if name in self.groups:
            raise ValueError(f"action group {name!r} is declared twice")
        if not name.isidentifier():
            raise ValueError(f"action group name {name!r} must be a Python identifier")
        if isinstance(shape, int):
            shape = (shape,)
        shape = tuple(int(n) for n in shape)
        if any(n < 1 for n in shape):
            raise ValueError(f"action group {name!r}: every dimension must be positive, got {shape}")
        dims = tuple(dims) if dims is not None else tuple(f"i{k}" for k in range(len(shape)))
        if (
            len(dims) != len(shape)
            or len(set(dims)) != len(dims)
            or any(not d.isidentifier() or keyword.iskeyword(d) for d in dims)
        ):
            raise ValueError(f"action group {name!r}: dims {dims} must be {len(shape)} distinct identifiers")
        g = ActionGroup(name, self.size, shape, dims, doc)
        self.groups[name] = g
        self.size += g.size
        return g.offset

    # --- Python side ------------------------------------------------------------------
    def group_of(self, action: int) -> ActionGroup:
        a = int(action)
        for g in self.groups.values():
            if g.offset <= a < g.offset + g.size:
                return g
        raise ValueError(f"{self.name}: action {action!r} is outside 0..{self.size - 1}")

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(group name, args)`` of an action id."""
        g = self.group_of(action)
        r = int(action) - g.offset
        args = []
        for s in g.strides:
            args.append(r // s)
            r %= s
        return g.name, tuple(args)

    def encode(self, name: str, *args: int) -> int:
        """The action id of ``name(*args)``; a clear error for an unknown name or an arg out of range."""
        if name not in self.groups:
            raise ValueError(f"{self.name}: unknown action {name!r}; valid actions are {list(self.groups)}")
        g = self.groups[name]
        if len(args) != len(g.shape):
            raise ValueError(f"{self.name}: {name} takes {len(g.shape)} argument(s) {g.dims}, got {args}")
        for d, n, v in zip(g.dims, g.shape, args):
            if not 0 <= int(v) < n:
                raise ValueError(f"{self.name}: {name} argument {d}={v} is outside 0..{n - 1}")
        return g.offset + sum(int(v) * s for v, s in zip(args, g.strides))

    def describe(self, action: int) -> str:
        """``cook(type=1, night=0, forest=3)``: the default text of an action."""
        name, args = self.decode(action)
        g = self.groups[name]
        return f"{name}(" + ", ".join(f"{d}={v}" for d, v in zip(g.dims, args)) + ")" if args else name

    def table(self) -> str:
        rows = ["| index | action | arguments | meaning |", "| --- | --- | --- | --- |"]
        for g in self.groups.values():
            span = str(g.offset) if g.size == 1 else f"{g.offset}..{g.offset + g.size - 1}"
            shape = " x ".join(f"{d}={n}" for d, n in zip(g.dims, g.shape)) if g.shape else "-"
            rows.append(f"| {span} | `{g.name}` | {shape} | {g.doc} |")
        return "\n".join(rows)

    def digest(self) -> str:
        return hashlib.sha1(repr([(g.name, g.offset, g.shape) for g in self.groups.values()]).encode()).hexdigest()[:8]

    # --- compiled helpers ----------------------------------------------------------------
    def source(self) -> str:
        parts = []
        for g in self.groups.values():
            if not g.shape:
                continue
            params = ", ".join(g.dims)
            expr = " + ".join([str(g.offset)] + [f"{d} * {s}" if s != 1 else d for d, s in zip(g.dims, g.strides)])
            parts.append(
                f"@njit(cache=True)\ndef {g.name}_action({params}):\n"
                f'    """Action id of ``{g.name}({params})``."""\n    return {expr}\n'
            )
            if len(g.shape) == 1:
                body = f"    return a - {g.offset}\n"
            else:
                lines = [f"    r = a - {g.offset}"]
                for d, s in zip(g.dims[:-1], g.strides[:-1]):
                    lines.append(f"    {d} = r // {s}")
                    lines.append(f"    r -= {d} * {s}")
                lines.append(f"    return ({', '.join(g.dims[:-1])}, r)")
                body = "\n".join(lines) + "\n"
            parts.append(
                f"@njit(cache=True)\ndef {g.name}_args(a):\n"
                f'    """Arguments ({params}) of a ``{g.name}`` action id."""\n{body}'
            )
        return "\n\n".join(parts)

    def generated(self, namespace: dict) -> tuple[str, ...]:
        """Name the encoders as generated code of the module ``namespace`` (call with
        ``globals()``, then import them from ``generated/<module>.py``, written by
        ``mushgym generate``). Returns their names."""
        from .codegen import declare

        return declare(
            namespace, self, self.source(), what=f"the action space {{key}} = ActionSpace({self.name!r})"
        ).names
