"""Decision kinds declared once: value, named argument columns, and the functions that rule them.

A game with a decision stack (:meth:`mushgym.core.Layout.decision_stack`) answers, for the
entry on top, four questions: which actions are legal, what an action does, whether the
prompt is still live (or is dropped unasked), and, for a state coming from Python, whether
the entry fits where it sits. Written as four ``if kind == ...`` chains in four places, a
new kind touches all four. Here each kind is one declaration::

    K = DecisionKinds(args=5)
    D_PAY = K.kind(7, "pay", args=(("paid", MAX_PAY_ARG),), rules="building",
                   doc="Build: paying, spore value paid so far")
    K.generated(globals())        # PAY_PAID = 0 (the column of ``paid``), decision_arg, ...
    from .generated.layout import PAY_PAID, decision_arg  # noqa: E402  (written by `mushgym generate`)

and the game writes, in the module ``rules`` names, ``pay_mask(state, cfg, p, mask, work)
-> int``, ``pay_step(state, cfg, p, a, work)`` and optionally ``pay_live(state, cfg, p) ->
bool`` (default: always live); a kind declared ``auto=True`` is bookkeeping that the game's
advance loop processes when it reaches the top, with ``<name>_process(state, cfg, work)``
instead. In its checks module the game writes ``<name>_fits(state, cfg, lv, depth) -> int``
(0: the entry at level ``lv`` fits).

The dispatch over kinds is generated source (numba cannot cache a table of function
objects), written out by ``mushgym generate`` (:mod:`mushgym.core.codegen`):
:meth:`generated_rules` names ``kind_mask``, ``kind_step``, ``kind_live`` and ``kind_process``
(``generated/<module>.py``); :meth:`generated_checks` names ``kind_fits`` (written into the
checks module itself, between two marker lines, as it calls that module's functions).

Values are written out (``K.kind(7, ...)``) and must number the kinds 0, 1, 2, ... in the
order declared; each argument's range is a number (the largest value allowed) or a negative
code the game's validator reads (a range that depends on the game: a player, an edge).
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass

import numpy as np

FIRST_ARG_COLUMN = 2  # an entry of the decision stack: kind, player, then the arguments


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

    def kind(
        self, value: int, name: str, args=(), *, rules: str | None = None, auto: bool = False, doc: str = ""
    ) -> int:
        """Declare kind ``value`` (the next one) and return the value."""
        if value != len(self.kinds):
            raise ValueError(
                f"{self.name}: kind {name!r} has value {value}; the next kind's value is "
                f"{len(self.kinds)} (declare them in order, without gaps)"
            )
        if not name.isidentifier() or any(k.name == name for k in self.kinds):
            raise ValueError(f"{self.name}: kind name {name!r} must be a new Python identifier")
        args = tuple((str(a), int(r)) for a, r in args)
        if len(args) > self.width:
            raise ValueError(f"{self.name}: kind {name!r} has {len(args)} arguments; an entry holds {self.width}")
        if len({a for a, _ in args}) != len(args) or any(not a.isidentifier() for a, _ in args):
            raise ValueError(
                f"{self.name}: kind {name!r}: argument names {[a for a, _ in args]} must be distinct identifiers"
            )
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

    def generated(self, namespace: dict) -> tuple[str, ...]:
        """Name the argument columns (``PAY_PAID = 0``) and ``decision_arg(state, level, i)`` /
        ``set_decision_arg(state, level, i, v)`` (argument ``i`` of the entry at ``level``) as
        generated code of the game's declarations module (after its layout's ``generated``: they
        call its ``decision_at``); import them from ``generated/<module>.py``."""
        from .codegen import declare

        source = (
            f"@njit(cache=True)\ndef decision_arg(state, level, i):\n"
            f'    """Argument ``i`` of the entry at ``level`` (0 = bottom)."""\n'
            f"    return decision_at(state, level, {FIRST_ARG_COLUMN} + i)\n\n\n"
            f"@njit(cache=True)\ndef set_decision_arg(state, level, i, v):\n"
            f'    """Set argument ``i`` of the entry at ``level`` (0 = bottom)."""\n'
            f"    set_decision_at(state, level, {FIRST_ARG_COLUMN} + i, v)\n"
        )
        return declare(
            namespace,
            self,
            source,
            constants=self.names(),
            what=f"the decision kinds {{key}} = DecisionKinds({self.width}): argument columns",
        ).names

    # --- the generated dispatch ----------------------------------------------------------
    def _bind(self, namespace: dict, module: str, fname: str, required: bool, imports: dict):
        """``fname`` of the kinds' module ``module`` (beside the declaring module), noted in
        ``imports`` (module -> names) for the generated code; None if optional and missing."""
        package = namespace.get("__package__") or ""
        mod = importlib.import_module(f"{package}.{module}" if package else module)
        fn = getattr(mod, fname, None)
        if fn is None:
            if required:
                raise TypeError(f"{self.name}: {mod.__name__} lacks {fname}, declared by its decision kind")
            return None
        imports.setdefault(module, []).append(fname)
        return fname

    def rules_source(self, namespace: dict, imports: dict | None = None) -> str:
        imports = {} if imports is None else imports
        mask, step, live, process = [], [], [], []
        for k in self.kinds:
            if k.auto:
                f = self._bind(namespace, k.rules, f"{k.name}_process", True, imports)
                process.append(f"    if k == {k.value}:\n        {f}(state, cfg, work)\n        return True\n")
                continue
            f = self._bind(namespace, k.rules, f"{k.name}_mask", True, imports)
            mask.append(f"    if k == {k.value}:\n        return {f}(state, cfg, p, mask, work)\n")
            f = self._bind(namespace, k.rules, f"{k.name}_step", True, imports)
            step.append(f"    if k == {k.value}:\n        {f}(state, cfg, p, a, work)\n        return\n")
            f = self._bind(namespace, k.rules, f"{k.name}_live", False, imports)
            if f:
                live.append(f"    if k == {k.value}:\n        return {f}(state, cfg, p)\n")
        return (
            "@njit(cache=True)\ndef kind_mask(state, cfg, k, p, mask, work):\n"
            '    """The legal actions of the pending decision of kind ``k`` (player ``p``)."""\n'
            + "".join(mask)
            + "    return 0\n\n\n"
            "@njit(cache=True)\ndef kind_step(state, cfg, k, p, a, work):\n"
            '    """Apply action ``a`` to the pending decision of kind ``k`` (player ``p``)."""\n'
            + "".join(step)
            + "    return\n\n\n"
            "@njit(cache=True)\ndef kind_live(state, cfg, k, p):\n"
            '    """Whether the prompt on top (kind ``k``, player ``p``) is still asked."""\n'
            + "".join(live)
            + "    return True\n\n\n"
            "@njit(cache=True)\ndef kind_process(state, cfg, k, work):\n"
            '    """Process a bookkeeping entry on top; False if kind ``k`` is a decision."""\n'
            + "".join(process)
            + "    return False\n"
        )

    def generated_rules(self, namespace: dict) -> tuple[str, ...]:
        """Name ``kind_mask``, ``kind_step``, ``kind_live`` and ``kind_process`` as generated code
        of the module that steps decisions (call with ``globals()``, then import them from
        ``generated/<module>.py``; it imports the modules the kinds name, so they must not
        import this one)."""
        from .codegen import declare

        imports: dict[str, list[str]] = {}
        source = self.rules_source(namespace, imports)
        lines = tuple(f"from ..{m} import {', '.join(sorted(set(names)))}" for m, names in sorted(imports.items()))
        return declare(
            namespace, self, source, suffix=".rules", imports=lines, what="the dispatch over the decision kinds {key}"
        ).names

    def generated_checks(self, namespace: dict) -> tuple[str, ...]:
        """Name ``kind_fits(state, cfg, k, lv, depth)`` as generated code written into the game's
        checks module itself, right after this call (it calls that module's own ``<name>_fits``
        for each kind; call with ``globals()`` after they are defined)."""
        from .codegen import declare

        missing = [f"{k.name}_fits" for k in self.kinds if f"{k.name}_fits" not in namespace]
        if missing:
            raise TypeError(f"{namespace.get('__name__')}: lacks {missing}, declared by its decision kinds")
        body = "".join(
            f"    if k == {k.value}:\n        return {k.name}_fits(state, cfg, lv, depth)\n" for k in self.kinds
        )
        source = (
            "@njit(cache=True)\ndef kind_fits(state, cfg, k, lv, depth):\n"
            '    """0 if the entry of kind ``k`` at level ``lv`` fits where it sits."""\n' + body + "    return -1\n"
        )
        return declare(namespace, self, source, suffix=".checks", target="", what="{key}").names
