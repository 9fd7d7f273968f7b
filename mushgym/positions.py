"""Reading a position's description: the pieces every game's ``state_from`` shares.

A game's ``positions.py`` turns a readable description (names or numbers for cards, tiles,
locations and decision kinds; dicts by seat) into a state, and ``describe`` reads a state
back into the same description. What they share is here: looking a name up among the valid
choices, per-seat dicts, the decision stack written as ``(kind, player, args...)`` with the
kinds read from the layout's ``D_*`` declarations (a new kind needs no edit here), and the
final check (the layout's bounds, the game's ``validate`` kernel, ``check_invariants``). Every
refusal is a ``ValueError`` that names the field and the valid choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from .core import rng_seed


def begin(
    game: Any, fields: Mapping[str, Any], description: Mapping[str, Any], layout: Any, rng: int
) -> tuple[dict, np.ndarray, dict]:
    """The description over the defaults (unknown fields refused), a zero state with the
    game's header and its generator seeded by the ``seed`` field, and the layout's views."""
    unknown = sorted(set(description) - set(fields))
    if unknown:
        raise ValueError(f"{game.env_id}: unknown description field(s) {unknown}; valid fields are {list(fields)}")
    d = {**fields, **description}
    state = game.stamp_header(np.zeros(game.state_size, np.int64))
    rng_seed(state, rng, number(game.env_id, "seed", d["seed"], 0, 2**63 - 1))
    return d, state, layout.arrays(state)


def exact_pile(
    env_id: str, field: str, given: Sequence, names: Sequence[str], left: np.ndarray, what: str
) -> list[int]:
    """A hidden pile given in full: its kinds, which must be exactly the ``left`` not placed."""
    pile = [index_of(env_id, f"{field}[{j}]", k, names, what) for j, k in enumerate(given)]
    if (np.bincount(pile, minlength=len(names)) != left).any():
        raise refuse(env_id, field, f"must hold exactly the {what}s not placed: {named_counts(left, names)}")
    return pile


def is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def refuse(env_id: str, field: str, problem: str) -> ValueError:
    """The error for a bad description: ``env_id: field: problem``."""
    return ValueError(f"{env_id}: {field}: {problem}")


def index_of(env_id: str, field: str, value: Any, names: Sequence[str], what: str = "value") -> int:
    """``value`` as an index into ``names``: a number in range or a name (any case)."""
    if is_int(value):
        if 0 <= int(value) < len(names):
            return int(value)
        raise refuse(env_id, field, f"{what} {value} is outside 0..{len(names) - 1} ({_choices(names)})")
    if isinstance(value, str):
        low = [n.lower() for n in names]
        if value.lower() in low:
            return low.index(value.lower())
    raise refuse(env_id, field, f"unknown {what} {value!r}; valid choices are {_choices(names)} or 0..{len(names) - 1}")


def _choices(names: Sequence[str]) -> str:
    unique = list(dict.fromkeys(names))
    return ", ".join(repr(n) for n in unique[:40]) + (", ..." if len(unique) > 40 else "")


def number(env_id: str, field: str, value: Any, low: int, high: int) -> int:
    """An integer in ``low..high``; a clear error otherwise."""
    if not is_int(value) or not low <= int(value) <= high:
        raise refuse(env_id, field, f"must be an integer in {low}..{high}, got {value!r}")
    return int(value)


def per_seat(env_id: str, field: str, given: Any, seats: int) -> dict[int, Any]:
    """``{seat: value}`` from a dict or a list (one value per seat); seats are 0..seats-1."""
    if given is None:
        return {}
    if isinstance(given, Mapping):
        out = dict(given)
    elif isinstance(given, (list, tuple)):
        out = dict(enumerate(given))
    else:
        raise refuse(env_id, field, f"must be a dict {{seat: value}} or a list by seat, got {given!r}")
    bad = [p for p in out if not (is_int(p) and 0 <= p < seats)]
    if bad:
        raise refuse(env_id, field, f"seat(s) {bad} do not exist; seats are 0..{seats - 1}")
    return {int(p): v for p, v in out.items()}


def counts(env_id: str, field: str, given: Any, names: Sequence[str], what: str = "card") -> np.ndarray:
    """``{name: n}`` or ``[name, name, ...]`` -> counts per index of ``names``."""
    out = np.zeros(len(names), np.int64)
    if given is None:
        return out
    if isinstance(given, Mapping):
        for key, n in given.items():
            k = index_of(env_id, field, key, names, what)
            if not is_int(n) or n < 0:
                raise refuse(env_id, field, f"the count of {names[k]!r} must be a non-negative integer, got {n!r}")
            out[k] += int(n)
    elif isinstance(given, Iterable) and not isinstance(given, (str, bytes)):
        for key in given:
            out[index_of(env_id, field, key, names, what)] += 1
    else:
        raise refuse(env_id, field, f"must be a dict {{{what}: count}} or a list of {what}s, got {given!r}")
    return out


def named_counts(values: np.ndarray, names: Sequence[str]) -> dict[str, int]:
    """The inverse of :func:`counts`: ``{name: n}`` for the non-zero counts."""
    return {names[k]: int(n) for k, n in enumerate(values) if n}


def decision_kinds(module: ModuleType) -> dict[str, int]:
    """The decision kinds a layout module declares (``D_MAIN = 0`` -> ``{"main": 0}``)."""
    kinds = {name[2:].lower(): int(v) for name, v in vars(module).items() if name.startswith("D_") and is_int(v)}
    return dict(sorted(kinds.items(), key=lambda kv: kv[1]))


def stack_entries(
    env_id: str, pending: Any, kinds: Mapping[str, int], players: int, args: int, depth: int
) -> list[list[int]]:
    """The decision stack, bottom first, from ``[(kind, player, arg0, ...), ...]``: a kind by
    name (the layout's ``D_*`` names, lower case without ``D_``) or number; missing arguments 0."""
    if pending is None:
        return []
    if not isinstance(pending, (list, tuple)) or (pending and not isinstance(pending[0], (list, tuple))):
        raise refuse(
            env_id, "pending", f"must be a list of (kind, player, arg...) entries, bottom first, got {pending!r}"
        )
    if len(pending) > depth:
        raise refuse(env_id, "pending", f"the decision stack holds at most {depth} entries, got {len(pending)}")
    names = list(kinds)
    by_value = {v: k for k, v in kinds.items()}
    out = []
    for i, entry in enumerate(pending):
        where = f"pending[{i}]"
        if not 2 <= len(entry) <= 2 + args:
            raise refuse(env_id, where, f"an entry is (kind, player) and up to {args} arguments, got {entry!r}")
        kind = entry[0]
        if is_int(kind) and int(kind) in by_value:
            k = int(kind)
        elif isinstance(kind, str) and kind.lower() in kinds:
            k = kinds[kind.lower()]
        else:
            raise refuse(env_id, where, f"unknown decision kind {kind!r}; valid choices are {names}")
        player = number(env_id, f"{where} player", entry[1], 0, players - 1)
        rest = [number(env_id, f"{where} argument {j}", a, -(2**31), 2**31 - 1) for j, a in enumerate(entry[2:])]
        out.append([k, player, *rest, *([0] * (args - len(rest)))])
    return out


def describe_stack(decisions: np.ndarray, depth: int, kinds: Mapping[str, int]) -> list[tuple]:
    """The inverse of :func:`stack_entries`: ``[(kind name, player, arg0, ...), ...]`` bottom first."""
    by_value = {v: k for k, v in kinds.items()}
    return [(by_value.get(int(e[0]), int(e[0])), *(int(x) for x in e[1:])) for e in decisions[:depth]]


def checked(game: Any, state: np.ndarray, invariants: bool = True) -> np.ndarray:
    """Run the game's validator (bounds and ``validate`` kernel) and its invariants on a built
    state; a broken rule becomes a ValueError naming it."""
    game.validate(state)
    if invariants:
        try:
            game.check_invariants(state)
        except AssertionError as e:
            raise ValueError(f"{game.env_id}: the described position breaks a rule of the game: {e}") from None
    return state


class Pool:
    """The pieces of one sort a description places, each at most once: named by id or by name
    (a name takes the first copy not placed yet). ``left()`` lists the pieces never placed, for
    the hidden piles."""

    def __init__(self, env_id: str, what: str, names: Sequence[str], in_play: Iterable[int]):
        self.env_id, self.what, self.names = env_id, what, list(names)
        self.in_play = sorted(int(i) for i in in_play)
        self.where: dict[int, str] = {}

    def take(self, value: Any, field: str) -> int:
        play = set(self.in_play)
        if is_int(value):
            i = int(value)
            if i not in play:
                raise refuse(
                    self.env_id,
                    field,
                    f"{self.what} {i} is not in this game; its {self.what}s are {_ranges(self.in_play)}",
                )
        elif isinstance(value, str):
            low = value.lower()
            copies = [i for i in self.in_play if self.names[i].lower() == low]
            if not copies:
                names = [self.names[i] for i in self.in_play]
                raise refuse(
                    self.env_id,
                    field,
                    f"unknown {self.what} {value!r}; valid choices are "
                    f"{_choices(names)} or their numbers {_ranges(self.in_play)}",
                )
            free = [i for i in copies if i not in self.where]
            if not free:
                raise refuse(
                    self.env_id,
                    field,
                    f"too many {self.names[copies[0]]}: the game has {len(copies)} "
                    f"and all are placed already ({self._places(copies)})",
                )
            i = free[0]
        else:
            raise refuse(self.env_id, field, f"a {self.what} is a name or a number, got {value!r}")
        if i in self.where:
            raise refuse(
                self.env_id, field, f"{self.what} {i} ({self.names[i]}) is placed twice: also in {self.where[i]}"
            )
        self.where[i] = field
        return i

    def take_all(self, values: Any, field: str) -> list[int]:
        if values is None:
            return []
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
            raise refuse(self.env_id, field, f"must be a list of {self.what}s, got {values!r}")
        return [self.take(x, f"{field}[{j}]") for j, x in enumerate(values)]

    def left(self) -> list[int]:
        return [i for i in self.in_play if i not in self.where]

    def rest(self, field: str, seed: int) -> list[int]:
        """Every piece not placed yet, in an order fixed by ``seed``, now placed in ``field``."""
        out = shuffled(self.left(), seed)
        self.where.update({i: field for i in out})
        return out

    def _places(self, ids: list[int]) -> str:
        return ", ".join(sorted({self.where[i] for i in ids}))


def _ranges(ids: Sequence[int]) -> str:
    if not ids:
        return "none"
    out, start, prev = [], ids[0], ids[0]
    for i in list(ids[1:]) + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        out.append(f"{start}..{prev}" if prev > start else f"{start}")
        if i is not None:
            start = prev = i
    return ", ".join(out)


def shuffled(ids: list[int], seed: int) -> list[int]:
    """``ids`` in an order fixed by ``seed`` (the hidden piles a description leaves out)."""
    out = list(ids)
    np.random.default_rng(seed).shuffle(out)
    return out
