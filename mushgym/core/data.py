"""Reading the data files (``cards.toml``) that decks and boards live in.

Every game's loader reads its file through :func:`load_records` / :class:`Record`, so a
malformed file gets one kind of error everywhere, naming the file, the record (card,
tile, ...) and the field: a file that is not UTF-8 text or not TOML, a record that is
not a table (``forest = [1, 2, 3]``), a missing field, a value of the wrong type, and a
number outside the range the kernels and the observation bounds assume (every integer
field has an upper bound: a flavor of 2**62 would overflow the int64 sums)::

    data = read_toml(path, DeckError)
    deck = Record(data, str(path), DeckError).table("deck")
    n = deck.integer("forest_cards", 1, MAX_DRAW)
    for card in load_records(data, "forest", path, DeckError, label="forest card"):
        copies = card.integer("copies", 0, MAX_COPIES)
        name = card.text("name", choices=NAMES)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

_MISSING = object()


class DataError(ValueError):
    """A malformed data file (games subclass it: ``DeckError``)."""


def read_toml(path: str | Path, error: type[Exception] = DataError) -> dict:
    """Parse a TOML file; a missing, unreadable, non-UTF-8 or malformed file raises ``error`` naming it."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise error(f"{path}: cannot be read: {exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not UTF-8 text (byte {exc.start}: {raw[exc.start : exc.start + 1]!r}); save the file as UTF-8"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from exc


class Record:
    """One table of a data file (the file itself, a ``[deck]`` section, one card), read with
    checks: every error is ``error(f"{where}: field {key!r} ...")``, ``where`` naming the file
    and the record."""

    def __init__(self, data: Any, where: str, error: type[Exception] = DataError) -> None:
        if not isinstance(data, dict):
            raise error(f"{where}: must be a table (key = value lines), got {_show(data)}")
        self.data, self.where, self.error = data, where, error

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def fail(self, message: str) -> Exception:
        return self.error(f"{self.where}: {message}")

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.data:
            if default is _MISSING:
                raise self.fail(f"missing field {key!r}")
            return default
        return self.data[key]

    def integer(self, key: str, low: int, high: int, default: Any = _MISSING) -> int:
        """An integer field within ``low..high`` (booleans, floats and strings refused)."""
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"field {key!r} must be an integer in {low}..{high}, got {_show(v)}")
        if not low <= v <= high:
            neg = "negative, " if v < 0 else ""
            raise self.fail(f"field {key!r} = {v} is {neg}outside {low}..{high} (the engine's limits)")
        return v

    def text(self, key: str, choices: Iterable[str] | None = None, default: Any = _MISSING) -> str:
        """A non-empty string field, one of ``choices`` if given."""
        v = self.raw(key, default)
        if not isinstance(v, str) or not v.strip():
            raise self.fail(f"field {key!r} must be a non-empty string, got {_show(v)}")
        if choices is not None:
            choices = list(choices)
            if v not in choices:
                raise self.fail(f"field {key!r} = {v!r} is not one of {choices}")
        return v

    def boolean(self, key: str, default: Any = _MISSING) -> bool:
        v = self.raw(key, default)
        if not isinstance(v, bool):
            raise self.fail(f"field {key!r} must be true or false, got {_show(v)}")
        return v

    def table(self, key: str, default: Any = _MISSING) -> "Record":
        """A sub-table (``[deck]``, ``cost = { ... }``) as a Record."""
        return Record(self.raw(key, default), f"{self.where} [{key}]" if self.where else key, self.error)

    def text_list(self, key: str, choices: Iterable[str], distinct: bool = True) -> list[str]:
        """A non-empty list of strings from ``choices``."""
        v = self.raw(key)
        choices = list(choices)
        if (
            not isinstance(v, list)
            or not v
            or any(not isinstance(x, str) or x not in choices for x in v)
            or (distinct and len(set(v)) != len(v))
        ):
            raise self.fail(
                f"field {key!r} must be a non-empty list of {'distinct ' if distinct else ''}"
                f"names from {choices}, got {_show(v)}"
            )
        return v

    def only(self, fields: Iterable[str]) -> None:
        """Refuse fields not in ``fields`` (a typo would otherwise be ignored)."""
        fields = list(fields)
        unknown = sorted(set(self.data) - set(fields))
        if unknown:
            raise self.fail(f"unknown field(s) {unknown}; fields are {fields}")


def load_records(
    data: dict,
    key: str,
    path: str | Path,
    error: type[Exception] = DataError,
    label: str = "record",
    name_field: str = "name",
) -> list[Record]:
    """The list of tables ``[[key]]`` of a parsed file, each as a :class:`Record` whose errors
    read ``{file} {label} {i} ({name}): ...``; a missing key, a non-list or a non-table entry
    (``forest = [1, 2, 3]``) raises ``error`` naming the file and the entry."""
    if key not in data:
        raise error(f"{path}: missing [[{key}]] tables")
    items = data[key]
    if not isinstance(items, list):
        raise error(f"{path}: {key!r} must be a list of [[{key}]] tables, got {_show(items)}")
    out = []
    for i, item in enumerate(items):
        where = f"{path}: {label} {i + 1}"
        if isinstance(item, dict) and isinstance(item.get(name_field), str):
            where += f" ({item[name_field]})"
        out.append(Record(item, where, error))
    return out


def _show(v: Any) -> str:
    text = repr(v)
    return f"{type(v).__name__} {text[:60] + '...' if len(text) > 60 else text}"
