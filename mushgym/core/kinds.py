"""Decision kinds declared once: value, named argument columns, and the functions that rule them.

A game with a decision stack (:meth:`mushgym.core.Layout.decision_stack`) answers, for the
entry on top, four questions: which actions are legal, what an action does, whether the
prompt is still live (or is dropped unasked), and, for a state coming from Python, whether
the entry fits where it sits. Written as four ``if kind == ...`` chains in four places, a
new kind touches all four. Here each kind is one declaration::

    K = DecisionKinds(args=5)
    D_PAY = K.kind(7, "pay", args=(("paid", MAX_PAY_ARG),), rules="building",
                   doc="Build: paying, spore value paid so far")
    K.install(globals())          # PAY_PAID = 0 (the column of ``paid``), decision_arg, ...

and the game writes, in the module ``rules`` names, ``pay_mask(state, cfg, p, mask, work)
-> int``, ``pay_step(state, cfg, p, a, work)`` and optionally ``pay_live(state, cfg, p) ->
bool`` (default: always live); a kind declared ``auto=True`` is bookkeeping that the game's
advance loop processes when it reaches the top, with ``<name>_process(state, cfg, work)``
instead. In its checks module the game writes ``<name>_fits(state, cfg, lv, depth) -> int``
(0: the entry at level ``lv`` fits).

The dispatch over kinds is generated source (numba cannot cache a table of function
objects), compiled inside the game's module as the batch loops are
(:mod:`mushgym.core.codegen`): :meth:`install_rules` defines ``kind_mask``, ``kind_step``,
``kind_live`` and ``kind_process``; :meth:`install_checks` defines ``kind_fits``.

Values are written out (``K.kind(7, ...)``) and must number the kinds 0, 1, 2, ... in the
order declared; each argument's range is a number (the largest value allowed) or a negative
code the game's validator reads (a range that depends on the game: a player, an edge).
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass

import numpy as np

FIRST_ARG_COLUMN = 2   # an entry of the decision stack: kind, player, then the arguments


@dataclass(frozen=True)
class DecisionKind:
    value: int
    name: str
    args: tuple[tuple[str, int], ...]
    rules: str | None
    auto: bool
    doc: str


class DecisionKinds:
    def __init__(self, args: int, name: str = "decisions") -> None:
        self.width = int(args)
        self.name = name
        self.kinds: list[DecisionKind] = []

    def kind(self, value: int, name: str, args=(), *, rules: str | None = None, auto: bool = False,
             doc: str = "") -> int:
        """Declare kind ``value`` (the next one) and return the value."""
        if value != len(self.kinds):
            raise ValueError(f"{self.name}: kind {name!r} has value {value}; the next kind's value is "
                             f"{len(self.kinds)} (declare them in order, without gaps)")
        if not name.isidentifier() or any(k.name == name for k in self.kinds):
            raise ValueError(f"{self.name}: kind name {name!r} must be a new Python identifier")
        args = tuple((str(a), int(r)) for a, r in args)
        if len(args) > self.width:
            raise ValueError(f"{self.name}: kind {name!r} has {len(args)} arguments; an entry holds {self.width}")
        if len({a for a, _ in args}) != len(args) or any(not a.isidentifier() for a, _ in args):
            raise ValueError(f"{self.name}: kind {name!r}: argument names {[a for a, _ in args]} must be "
                             "distinct identifiers")
        if rules is None:
            raise ValueError(f"{self.name}: kind {name!r} names no module of its rules (rules=...)")
        self.kinds.append(DecisionKind(int(value), name, args, rules, bool(auto), doc))
        return int(value)

    @property
    def size(self) -> int:
        return len(self.kinds)

    def column(self, kind: str, arg: str) -> int:
        """Index of argument ``arg`` of ``kind`` (for ``top_arg(state, i)``)."""
        for k in self.kinds:
            if k.name == kind:
                for i, (a, _) in enumerate(k.args):
                    if a == arg:
                        return i
                raise ValueError(f"{self.name}: kind {kind!r} has no argument {arg!r}; it has {[a for a, _ in k.args]}")
        raise ValueError(f"{self.name}: unknown kind {kind!r}; kinds are {[k.name for k in self.kinds]}")

    def arg_ranges(self) -> np.ndarray:
        """(kinds, args) int64: each argument's range (0 where a kind has no such argument)."""
        out = np.zeros((len(self.kinds), self.width), np.int64)
        for k in self.kinds:
            for i, (_, r) in enumerate(k.args):
                out[k.value, i] = r
        return out

    def table(self) -> str:
        rows = ["| value | kind | arguments | rules in | meaning |", "| --- | --- | --- | --- | --- |"]
        for k in self.kinds:
            args = ", ".join(a for a, _ in k.args) or "-"
            rows.append(f"| {k.value} | `{k.name}` | {args} | `{k.rules}` | {k.doc} |")
        return "\n".join(rows)

    def digest(self) -> str:
        text = repr([(k.value, k.name, k.args, k.rules, k.auto) for k in self.kinds])
        return hashlib.sha1(text.encode()).hexdigest()[:8]

    # --- the declarations' names ---------------------------------------------------------
    def names(self) -> dict[str, int]:
        """``<KIND>_<ARG>``: the column of each named argument."""
        return {f"{k.name}_{a}".upper(): i for k in self.kinds for i, (a, _) in enumerate(k.args)}

    def install(self, namespace: dict) -> tuple[str, ...]:
        """Define the argument columns (``PAY_PAID``) and ``decision_arg(state, level, i)`` /
        ``set_decision_arg(state, level, i, v)`` (argument ``i`` of the entry at ``level``) in the
        game's declarations module (after its ``decision_stack``: they call ``decision_at``)."""
        from .codegen import install_source

        cols = self.names()
        clash = [n for n in cols if n in namespace and namespace[n] != cols[n]]
        if clash:
            raise ValueError(f"{namespace.get('__name__')}: argument columns {clash} would replace names "
                             "already defined in the module; rename the kind or its argument")
        namespace.update(cols)
        source = (f"@njit(cache=True)\ndef decision_arg(state, level, i):\n"
                  f"    \"\"\"Argument ``i`` of the entry at ``level`` (0 = bottom).\"\"\"\n"
                  f"    return decision_at(state, level, {FIRST_ARG_COLUMN} + i)\n\n\n"
                  f"@njit(cache=True)\ndef set_decision_arg(state, level, i, v):\n"
                  f"    \"\"\"Set argument ``i`` of the entry at ``level`` (0 = bottom).\"\"\"\n"
                  f"    set_decision_at(state, level, {FIRST_ARG_COLUMN} + i, v)\n")
        return tuple(cols) + install_source(source, namespace, f"k{self.digest()}")

    # --- the generated dispatch ----------------------------------------------------------
    def _bind(self, namespace: dict, module: str, fname: str, required: bool):
        package = namespace.get("__package__") or ""
        mod = importlib.import_module(f"{package}.{module}" if package else module)
        fn = getattr(mod, fname, None)
        if fn is None:
            if required:
                raise TypeError(f"{self.name}: {mod.__name__} lacks {fname}, declared by its decision kind")
            return None
        have = namespace.get(fname)
        if have is not None and have is not fn:
            raise ValueError(f"{namespace.get('__name__')}: {fname} is already a different object here")
        namespace[fname] = fn
        return fname

    def rules_source(self, namespace: dict) -> str:
        mask, step, live, process = [], [], [], []
        for k in self.kinds:
            if k.auto:
                f = self._bind(namespace, k.rules, f"{k.name}_process", True)
                process.append(f"    if k == {k.value}:\n        {f}(state, cfg, work)\n        return True\n")
                continue
            f = self._bind(namespace, k.rules, f"{k.name}_mask", True)
            mask.append(f"    if k == {k.value}:\n        return {f}(state, cfg, p, mask, work)\n")
            f = self._bind(namespace, k.rules, f"{k.name}_step", True)
            step.append(f"    if k == {k.value}:\n        {f}(state, cfg, p, a, work)\n        return\n")
            f = self._bind(namespace, k.rules, f"{k.name}_live", False)
            if f:
                live.append(f"    if k == {k.value}:\n        return {f}(state, cfg, p)\n")
        return (
            "@njit(cache=True)\ndef kind_mask(state, cfg, k, p, mask, work):\n"
            "    \"\"\"The legal actions of the pending decision of kind ``k`` (player ``p``).\"\"\"\n"
            + "".join(mask) + "    return 0\n\n\n"
            "@njit(cache=True)\ndef kind_step(state, cfg, k, p, a, work):\n"
            "    \"\"\"Apply action ``a`` to the pending decision of kind ``k`` (player ``p``).\"\"\"\n"
            + "".join(step) + "    return\n\n\n"
            "@njit(cache=True)\ndef kind_live(state, cfg, k, p):\n"
            "    \"\"\"Whether the prompt on top (kind ``k``, player ``p``) is still asked.\"\"\"\n"
            + "".join(live) + "    return True\n\n\n"
            "@njit(cache=True)\ndef kind_process(state, cfg, k, work):\n"
            "    \"\"\"Process a bookkeeping entry on top; False if kind ``k`` is a decision.\"\"\"\n"
            + "".join(process) + "    return False\n"
        )

    def install_rules(self, namespace: dict) -> tuple[str, ...]:
        """Compile ``kind_mask``, ``kind_step``, ``kind_live`` and ``kind_process`` into the
        game module that steps decisions (call with ``globals()``; it imports the modules the
        kinds name, so they must not import it)."""
        from .codegen import install_source

        return install_source(self.rules_source(namespace), namespace, f"r{self.digest()}")

    def install_checks(self, namespace: dict) -> tuple[str, ...]:
        """Compile ``kind_fits(state, cfg, k, lv, depth)`` into the game's checks module: it
        calls that module's own ``<name>_fits`` for each kind (call with ``globals()`` after
        they are defined)."""
        from .codegen import install_source

        missing = [f"{k.name}_fits" for k in self.kinds if f"{k.name}_fits" not in namespace]
        if missing:
            raise TypeError(f"{namespace.get('__name__')}: lacks {missing}, declared by its decision kinds")
        body = "".join(f"    if k == {k.value}:\n        return {k.name}_fits(state, cfg, lv, depth)\n"
                       for k in self.kinds)
        source = ("@njit(cache=True)\ndef kind_fits(state, cfg, k, lv, depth):\n"
                  "    \"\"\"0 if the entry of kind ``k`` at level ``lv`` fits where it sits.\"\"\"\n"
                  + body + "    return -1\n")
        return install_source(source, namespace, f"c{self.digest()}")
