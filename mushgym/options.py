"""Game options written as ``NAME=VALUE`` text (command lines, config files) -> a dict.

Below the command line and the agents' entry points, which both use it: nothing in
the library imports :mod:`mushgym.cli`.
"""

from __future__ import annotations

import ast
from typing import Any


class OptionSyntaxError(ValueError):
    """A game option not written as ``NAME=VALUE``."""


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["num_players=4", "reward=score"]`` -> ``{"num_players": 4, "reward": "score"}``.

    Values are Python literals where they parse as one (``4``, ``0.5``, ``True``;
    also ``true``/``false``), else strings. Validation is the game's job.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise OptionSyntaxError(f"option {pair!r} is not of the form NAME=VALUE")
        key, value = pair.split("=", 1)
        if value in ("true", "false"):
            options[key] = value == "true"
            continue
        try:
            options[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[key] = value
    return options
