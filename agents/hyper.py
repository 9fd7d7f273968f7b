"""``--hyper NAME=VALUE`` of the training commands: the value typed like the trainer's default."""

from __future__ import annotations

from typing import Any


def parse_hyper(item: str, defaults: dict[str, Any], prog: str) -> tuple[str, Any]:
    """``NAME=VALUE`` -> (name, value), the value typed like ``defaults[name]``: a tuple (such as
    ``net_arch``) from comma-separated sizes, a bool from true/false, a string as given. A
    ``SystemExit`` naming ``prog`` and the valid names (or the wanted type) otherwise."""
    name, eq, text = item.partition("=")
    if not eq or name not in defaults:
        raise SystemExit(
            f"{prog}: --hyper wants NAME=VALUE with NAME one of {', '.join(sorted(defaults))}; got {item!r}"
        )
    default = defaults[name]
    try:
        if isinstance(default, tuple):
            return name, tuple(int(v) for v in text.split(","))
        if isinstance(default, bool):
            return name, {"true": True, "false": False}[text.lower()]
        if isinstance(default, str):
            return name, text
        return name, type(default)(text)
    except (ValueError, KeyError):
        raise SystemExit(
            f"{prog}: --hyper {name} wants a {type(default).__name__} (like {default!r}), got {text!r}"
        ) from None
