"""Pictures of games: one small drawing module every game reuses.

A game supplies ``envs/<game>/render.py`` with one function::

    def draw(game, state, viewer: int | None) -> Scene

that reads the state through the game's layout by field name (``game.layout.view``)
and returns a :class:`Scene` of primitives. ``viewer`` is the seat whose view is
drawn (others' hidden cards face down); ``None`` draws the whole table face up.
Everything else (SVG text, RGB arrays for Gymnasium's video recorder, PNG files,
the AEC env's ``render_mode="rgb_array"``/``"svg"``/``"human"``) is generic:

    from mushgym.render import draw_state
    scene = draw_state(game, state, viewer=0)
    scene.to_svg(); scene.to_rgb(); scene.save("table.png")
"""

from __future__ import annotations

from typing import Any

from .scene import Scene, Shape
from .widgets import PALETTE, card, card_back, chip, label_box

__all__ = [
    "PALETTE",
    "Scene",
    "Shape",
    "card",
    "card_back",
    "chip",
    "draw_state",
    "has_picture",
    "label_box",
    "render_module",
]


def render_module(game: Any):
    """The ``render`` module next to the game's class (``mushgym.envs.<game>.render``), or None."""
    from ..registry import sibling_module

    cls = game if isinstance(game, type) else type(game)
    return sibling_module(cls.__module__, "render")


def has_picture(game: Any) -> bool:
    return render_module(game) is not None


def draw_state(game: Any, state, viewer: int | None = None) -> Scene:
    """The game's picture of ``state`` as seen by ``viewer`` (None: everything face up)."""
    module = render_module(game)
    if module is None:
        raise NotImplementedError(f"{game.env_id} has no picture yet (no render.py in its folder)")
    if viewer is not None and not 0 <= int(viewer) < game.num_players:
        raise ValueError(f"{game.env_id}: no player {viewer}; players are 0..{game.num_players - 1}")
    return module.draw(game, state, None if viewer is None else int(viewer))
