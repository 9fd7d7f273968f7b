"""One compiled specialisation per argument type, not one per constant.

When a jitted function calls another with a constant (``hand_at(p, 0)``, ``spend(state, p,
19, 1)``), numba types the constant as ``Literal[int](19)`` and compiles the callee once for
every distinct constant it is ever called with: Fungi's first AEC step compiled 134
specialisations of 81 kernels, ``spend`` 14 times and an observation accessor 13 times.
No mushgym kernel dispatches on literal values (none uses ``numba.literally`` or
``literal_unroll``), so :func:`install` makes calls into mushgym's own jitted functions type
their arguments as the plain types (``int64``): each kernel compiles once per argument
type, and the constants still fold where LLVM inlines the callee.

The hook is numba's ``types.Dispatcher.get_call_type`` (the one place where a call from
jitted code into a dispatcher is typed); functions outside mushgym are untouched. If a
future numba moves that method, :func:`install` leaves numba alone and says so once
(compilation is then only slower, never different).
"""

from __future__ import annotations

import warnings

_PREFIXES = ("mushgym.", "envs.", "agents.")
_installed = False


def _ours(dispatcher) -> bool:
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
    return module.startswith(_PREFIXES)


def install() -> bool:
    """Patch numba once per process; returns whether the hook is active."""
    global _installed
    if _installed:
        return True
    try:
        from numba.core import types

        original = types.Dispatcher.get_call_type
    except (ImportError, AttributeError):  # pragma: no cover - a numba without the hook
        warnings.warn(
            "mushgym: numba's Dispatcher.get_call_type is missing; kernels compile "
            "one specialisation per constant argument (slower first use)",
            stacklevel=2,
        )
        return False

    def get_call_type(self, context, args, kws):
        if _ours(self.dispatcher):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, context, args, kws)

    get_call_type.__wrapped__ = original
    types.Dispatcher.get_call_type = get_call_type
    _installed = True
    return True
