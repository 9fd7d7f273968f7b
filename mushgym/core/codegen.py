"""Compile generated numba helpers *inside* a game's kernel module.

numba caches a compiled function under the file that defines it and judges the
cache fresh by that file's timestamp; :mod:`mushgym.core.cache` drops a game's
cache when anything it inlines changes. Helpers generated from a declaration
(layout index functions, the decision stack, action encoders) are therefore
compiled with the game module's ``__file__`` as their file name, exactly as the
generic batch loops are, so each game gets its own cached copy and the helpers
are ordinary module globals that the game's kernels call (and LLVM inlines).
"""

from __future__ import annotations

import re

_DEF = re.compile(r"^@njit\((?P<opts>[^)]*)\)\ndef (?P<name>\w+)\(", re.M)


def install_source(source: str, namespace: dict, tag: str) -> tuple[str, ...]:
    """Compile every ``@njit(...)``-decorated function of ``source`` into ``namespace``.

    ``tag`` is appended to each function's qualified name (numba's cache files are
    named after it), so helpers of two declarations never share cache entries and
    a changed declaration gets new ones. Returns the names defined.
    """
    from numba import njit

    options = {m.group("name"): m.group("opts") for m in _DEF.finditer(source)}
    plain = _DEF.sub(lambda m: f"\ndef {m.group('name')}(", source)
    clash = [n for n in options if n in namespace and not getattr(namespace[n], "_mushgym_generated", False)]
    if clash:
        raise ValueError(f"{namespace.get('__name__')}: generated helper(s) {clash} would replace names "
                         "already defined in the module; rename the field or the module's own function")
    exec(compile(plain, namespace.get("__file__", "<generated>"), "exec"), namespace)
    for name, opts in options.items():
        fn = namespace[name]
        fn.__qualname__ = f"{name}__{tag}"
        kwargs = eval(f"dict({opts})")  # only literal options written in this package
        compiled = njit(**kwargs)(fn)
        compiled._mushgym_generated = True
        namespace[name] = compiled
    return tuple(options)
