"""The picture of a Mycelia table: the board of triangles and every seat's mats, as SVG or RGB.

``draw(game, state, viewer) -> Scene`` is the contract of the shared drawing module
(``mushgym.render``: a scene of rectangles, circles, polygons, lines and text written out
as SVG text or rasterised by Pillow); the env's ``render_mode="rgb_array"``/``"svg"`` and
``mushgym play`` use it.

The board: each tile a triangle in its colour (black tiles dark grey), its wind symbols
O/U/A written inside next to each edge, an insect token as a small brown bug, spores as
small squares in the owner's colour (with a count), a mushroom token as a circle, a Mother
mushroom as a large ringed circle with "M". The North American expansion: a sapling as a small
green stem with a crown (its spores as dots in the owners' colours on the crown), a
Grandfather Tree as a large dark-green tree with a "G" in its owner's colour. Below: each
seat's points, insects, supply (Grandfather Trees beside the mats with the expansion) and its
mats (card name and points, spore counter, cards decayed under it).
"""

from __future__ import annotations

from mushgym.render import Scene

from . import rules as R
from .board import vertices
from .data import COLOURS, SYMBOLS

TILE_FILL = {"red": "#d9534f", "green": "#5cb85c", "brown": "#8b5a2b", "yellow": "#f0c419", "black": "#3a3a3a"}
SEAT_FILL = ("#1f77b4", "#e377c2", "#ff7f0e", "#9467bd", "#17becf")
AUTOMATA_FILL = "#555555"


def _seat_fill(game, s: int) -> str:
    return AUTOMATA_FILL if game.automata and s == game.num_players else SEAT_FILL[s % len(SEAT_FILL)]


def draw(game, state, viewer: int | None = None) -> Scene:
    side = 56.0
    n = int(state[R.NTP])
    cells = [(int(state[R.T_C + t]), int(state[R.T_R + t])) for t in range(n)]
    pts = [vertices(c, r, side) for c, r in cells]
    xs = [x for p in pts for x, _ in p] or [0.0]
    ys = [y for p in pts for _, y in p] or [0.0]
    pad = 20
    bw = max(xs) - min(xs) + 2 * pad
    bh = max(ys) - min(ys) + 2 * pad
    ns = game.num_seats
    panel_h = 26 + 18 * game.options["mats"]
    width = int(max(bw, 260 * ns, 520))
    height = int(bh + 30 + panel_h + 10)
    scene = Scene(width, height, background="#f4efe1")
    ox = (width - (max(xs) - min(xs))) / 2 - min(xs)
    oy = pad + 24 - min(ys)
    over = bool(state[R.OVER])
    title = f"Mycelia - turn {int(state[R.TURN])}" + (
        " - game over" if over else f" - {game.seat_name(int(state[R.TURNP]))} to play"
    )
    scene.text(10, 14, title, size=14)
    mothers = {int(state[R.M_POS + s]): s for s in range(ns) if state[R.M_POS + s] >= 0}
    for t in range(n):
        p = [(x + ox, y + oy) for x, y in pts[t]]
        colour = COLOURS[int(game.tiles.colour[int(state[R.T_ID + t])])]
        scene.polygon(p, fill=TILE_FILL[colour], stroke="#222222", width=1.5)
        cx = sum(x for x, _ in p) / 3
        cy = sum(y for _, y in p) / 3
        up = (cells[t][0] + cells[t][1]) % 2 == 0
        # edge symbols: just inside the midpoint of each edge
        pairs = ((1, 2), (2, 0), (0, 1)) if up else ((0, 1), (1, 2), (2, 0))
        for k in range(3):
            a, b = pairs[k]
            mx = (p[a][0] + p[b][0]) / 2
            my = (p[a][1] + p[b][1]) / 2
            sx = mx + (cx - mx) * 0.28
            sy = my + (cy - my) * 0.28
            scene.text(
                sx,
                sy,
                SYMBOLS[int(R.wind_symbol(state, game.config, t, k))],
                size=9,
                fill="#ffffff" if colour in ("black", "brown") else "#000000",
                anchor="middle",
            )
        if state[R.T_INS + t]:
            scene.circle(cx, cy - 10, 4, fill="#6b3e1e", stroke="#000000")
        if game.expansion:
            _draw_expansion(game, state, scene, t, cx, cy)
        q = int(state[R.MUSH_P + t])
        if q >= 0:
            scene.circle(cx, cy + 2, 8, fill=_seat_fill(game, q), stroke="#000000", width=1.5)
        if t in mothers:
            scene.circle(cx, cy + 2, 12, fill=None, stroke=_seat_fill(game, mothers[t]), width=4)
            scene.text(cx, cy + 2, "M", size=10, fill="#000000", anchor="middle")
        k = 0
        for s in range(ns):
            v = int(state[R.SP + t * R.MAXS + s])
            if v:
                x0 = cx - 12 + 9 * k
                y0 = cy + 12
                scene.rect(x0, y0, 8, 8, fill=_seat_fill(game, s), stroke="#000000", width=0.5)
                if v > 1:
                    scene.text(x0 + 4, y0 + 13, str(v), size=7, anchor="middle")
                k += 1
    y = bh + 30
    scores = [int(R.final_score(state, game.config, s)) for s in range(ns)] if over else None
    for s in range(ns):
        x = 10 + 260 * s
        fill = _seat_fill(game, s)
        scene.rect(x, y, 250, panel_h, fill="#ffffff", stroke=fill, width=2, radius=4)
        head = (
            f"{game.seat_name(s)}: {int(state[R.PTS + s])} pts, {int(state[R.INS + s])} insects, "
            f"{int(state[R.SUPPLY + s])} spores"
        )
        if game.expansion:
            head += f", {int(state[R.TREES_LEFT + s])} G left"
        if scores:
            head = f"{game.seat_name(s)}: score {scores[s]}"
        scene.text(x + 6, y + 12, head, size=10, fill=fill)
        for i in range(game.options["mats"]):
            m = s * R.NMATS + i
            card = int(state[R.MAT_CARD + m])
            name = (
                "Automata mushroom"
                if card == R.AUTO_CARD
                else (f"{game.cards.names[card]} ({int(game.cards.points[card])})" if card >= 0 else "(free)")
            )
            ctr = int(state[R.MAT_CTR + m]) if card != -1 else 0
            txt = f"{i + 1}: {name}  spored {ctr}/2  under {int(state[R.MAT_UNDER + m])}"
            scene.text(x + 6, y + 30 + 18 * i, txt[:44], size=9)
    return scene


def _draw_expansion(game, state, scene: Scene, t: int, cx: float, cy: float) -> None:
    """A sapling (stem and crown, its spores as dots in the owners' colours) or a Grandfather Tree."""
    g = int(state[R.TREE + t])
    if g >= 0:
        scene.rect(cx + 9, cy - 2, 4, 10, fill="#5b3a1a", stroke="#000000", width=0.5)
        scene.circle(cx + 11, cy - 8, 9, fill="#1e5631", stroke=_seat_fill(game, g), width=2.5)
        scene.text(cx + 11, cy - 5, "G", size=9, fill="#ffffff", anchor="middle")
    if state[R.SAP + t]:
        scene.rect(cx - 15, cy - 4, 2, 7, fill="#5b3a1a")
        scene.circle(cx - 14, cy - 8, 5, fill="#9acd32", stroke="#2e5e1e", width=1)
        k = 0
        for s in range(game.num_seats):
            for _ in range(int(state[R.SAP_SP + t * R.MAXS + s])):
                scene.circle(cx - 18 + 4 * k, cy - 14, 1.8, fill=_seat_fill(game, s), stroke="#000000", width=0.4)
                k += 1


def svg(game, state, viewer: int | None = None) -> str:
    return draw(game, state, viewer).to_svg()


def rgb_array(game, state, viewer: int | None = None):
    return draw(game, state, viewer).to_rgb()
