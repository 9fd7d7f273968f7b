"""Reading the data files (``cards.toml``) that decks and boards live in."""

from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib


def read_toml(path: str | Path, error: type[Exception]) -> dict:
    """Parse a TOML file; a missing, unreadable or malformed file raises ``error`` naming it."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise error(f"{path}: cannot be read: {exc}") from exc
