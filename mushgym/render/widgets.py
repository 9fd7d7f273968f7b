"""Shared pieces of game pictures: cards face up and down, labelled boxes, token chips, a palette."""

from __future__ import annotations

import textwrap

from .scene import Scene

PALETTE = {
    "table": "#efe8d6",
    "panel": "#e2d6b8",
    "ink": "#2b2118",
    "muted": "#7a6a55",
    "card": "#fffdf6",
    "card_edge": "#5b4a36",
    "back": "#7b4f2c",
    "back_mark": "#c79a62",
    "highlight": "#d9472b",
    "player": ("#3b6ea5", "#b5473a", "#4c8b3f", "#8a5aa8", "#c28a1d", "#3f8f8f"),
}


def card(
    scene: Scene,
    x: float,
    y: float,
    w: float,
    h: float,
    title: str,
    fill: str = PALETTE["card"],
    band: str | None = None,
    subtitle: str = "",
    size: float = 10.0,
    stroke: str = PALETTE["card_edge"],
    width: float = 1.2,
) -> None:
    """A face-up card: rounded rectangle, a coloured band at the top, its name (wrapped on two lines)."""
    scene.rect(x, y, w, h, fill=fill, stroke=stroke, width=width, radius=min(w, h) * 0.08)
    if band:
        scene.rect(x + 3, y + 3, w - 6, h * 0.22, fill=band, radius=2)
    lines = wrap(title, max(4, int(w / (size * 0.62))))
    top = y + h * (0.52 if band else 0.4) - (len(lines) - 1) * size * 0.6
    for i, line in enumerate(lines[:3]):
        scene.text(x + w / 2, top + i * size * 1.15, line, size=size, anchor="middle", fill=PALETTE["ink"])
    if subtitle:
        scene.text(x + w / 2, y + h - size * 0.9, subtitle, size=size * 0.85, anchor="middle", fill=PALETTE["muted"])


def card_back(scene: Scene, x: float, y: float, w: float, h: float, label: str = "") -> None:
    """A face-down card (hidden information): a dark back with a mark, an optional label."""
    scene.rect(x, y, w, h, fill=PALETTE["back"], stroke=PALETTE["card_edge"], width=1.2, radius=min(w, h) * 0.08)
    scene.rect(x + 4, y + 4, w - 8, h - 8, fill=None, stroke=PALETTE["back_mark"], width=1, radius=min(w, h) * 0.06)
    if label:
        scene.text(x + w / 2, y + h / 2, label, size=min(w, h) * 0.3, anchor="middle", fill="#f7ead6", bold=True)


def label_box(
    scene: Scene,
    x: float,
    y: float,
    w: float,
    h: float,
    title: str,
    fill: str = PALETTE["panel"],
    size: float = 11.0,
    stroke: str | None = None,
) -> None:
    """A panel with a title in its top-left corner."""
    scene.rect(x, y, w, h, fill=fill, stroke=stroke, width=2 if stroke else 1, radius=8)
    scene.text(x + 8, y + size, title, size=size, fill=PALETTE["ink"], bold=True)


def chip(scene: Scene, cx: float, cy: float, r: float, fill: str, text: str = "", text_fill: str = "#ffffff") -> None:
    """A round token with an optional number or letter on it."""
    scene.circle(cx, cy, r, fill=fill, stroke=PALETTE["card_edge"], width=1)
    if text:
        scene.text(cx, cy, text, size=r * 1.1, anchor="middle", fill=text_fill, bold=True)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (a long word stays whole), by the stdlib's textwrap."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]
