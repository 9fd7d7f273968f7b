"""What a game gives its search, and where: the compiled kernels and tuned constants that
:mod:`mushgym.search` looks up by name (``determinize``, ``rollout_policy``, ``search_value``,
``search_estimate``, ``SEARCH_WIDEN`` ...), in the game's kernel module or in a module of its
package (``envs/<game>/search.py``, ``envs/<game>/determinize.py``)."""

from __future__ import annotations

from .game import Game


def _package_module(kernels, name: str):
    """The module ``name`` beside a kernel module (``envs/<game>/<name>.py``), or None."""
    from .registry import sibling_module

    return sibling_module(kernels.__name__, name)


def find_kernel(kernels, name: str):
    """The game's compiled ``name`` (``determinize``, ``rollout_policy``): in its kernel module,
    else in the module of that name in its package; None if it has none."""
    fn = getattr(kernels, name, None)
    if fn is not None:
        return fn
    module = _package_module(kernels, "determinize" if name == "determinize" else "search")
    if module is None and name != "determinize":
        module = _package_module(kernels, "determinize")
    return getattr(module, name, None) if module is not None else None


def tuned_setting(game: Game, name: str, default):
    """The game's tuned search constant ``name`` (``SEARCH_WIDEN``, ``SEARCH_WIDEN_ORDER``,
    ``SEARCH_HORIZON``: beside its rollout policy), or ``default`` when it sets none."""
    value = find_kernel(game.kernels, name)
    return default if value is None else value


def determinization_mode(game: Game) -> str:
    """``"kernel"`` (the game's compiled determinize), ``"pool"`` (perturb_hidden fallback) or
    ``"open"`` (perfect information: nothing to redraw)."""
    if find_kernel(game.kernels, "determinize") is not None:
        return "kernel"
    if game.spec.perfect_information:
        return "open"
    if type(game).perturb_hidden is Game.perturb_hidden:
        raise ValueError(
            f"{game.env_id} has hidden information but provides neither a compiled determinize(state, player, "
            f"cfg, work, rng) kernel nor Game.perturb_hidden: MCTS would read the cards its player cannot see. "
            f"Add envs/<game>/determinize.py (see mushgym/search.py)"
        )
    return "pool"


def kernel_home(kernels, name: str) -> str | None:
    """The module (its name in the game's package) :func:`find_kernel` takes ``name`` from."""
    if getattr(kernels, name, None) is not None:
        return kernels.__name__.rpartition(".")[2]
    sibling = "determinize" if name == "determinize" else "search"
    module = _package_module(kernels, sibling)
    if module is None and name != "determinize":
        sibling, module = "determinize", _package_module(kernels, "determinize")
    return sibling if module is not None and getattr(module, name, None) is not None else None
