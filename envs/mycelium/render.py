"""The picture of a Mycelium table (``render_mode="rgb_array"`` / ``"svg"``), drawn with :mod:`mushgym.render`.

Left: the hex board, every location coloured by kind (Colonies in their player's colour,
Spore Caves, Nutrient Trees, the Willow, the Mush Room, the Hero Tavern corner), the Paths
as coloured strokes on the edges (two Paths on one edge side by side; permanent Colony
Paths darker), the Nutrient (gold) and Spore (blue) tokens on each location and the
gatherers as small discs in their player's colour. Right: the turn, the phase and the
decision pending; the combat in progress (face-down cards as card backs until the reveal,
except the viewer's own); one panel per player with Nutrients, spores, combat tokens,
Paths and gatherers at home, and the hand: the viewer's face up, the others' as a count.
Team variant and 2-player game: a line with each team's combined Nutrients and the turn's
Trade, each panel titled with its team; in the 2-player game both of the viewer's hands
are face up.

Variants: with the Emsporium, the shop's 5 face-up items under the board (an empty slot
until the end of the turn it was bought in) and each player's items in its panel.

The state is read by field name through the game's layout (``game.layout.arrays``).
"""

from __future__ import annotations

import math

from mushgym.render import PALETTE, Scene, card, card_back, chip, label_box

from . import rules
from .data import MUSHLING_NAMES, hex_edges

WIDTH, HEIGHT = 1100, 700
HEX = 40.0
CX, CY = 330.0, 350.0
PANEL_X = 680  # the side panel's left edge
KIND_FILL = {
    "forest": "#cfe0b4",
    "cave": "#9a9a9a",
    "tree": "#3f7d3a",
    "center": "#2f8c84",
    "mush_room": "#8a5aa8",
    "hero_tavern": "#a07a4a",
}
NUT = "#e0b21b"
COLOUR = {"Blue": "#3b6ea5", "Red": "#b5473a", "Green": "#4c8b3f", "Beige": "#b89b6a"}
SPORE = "#3b7bd1"


def _center(h):
    q, r = h
    return CX + HEX * math.sqrt(3) * (q + r / 2), CY + HEX * 1.5 * r


def _corner(key):
    pts = [_center(h) for h in key]
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _hex_points(h):
    x, y = _center(h)
    return [
        (x + HEX * math.cos(math.radians(60 * i - 30)), y + HEX * math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]


def draw(game, state, viewer):
    """The picture of ``state`` as ``viewer`` sees it (None: every hand and combat card face up)."""
    v = game.layout.arrays(state)
    b = game.board
    colours = [COLOUR.get(c, PALETTE["player"][i]) for i, c in enumerate(b.colours)]
    scene = Scene(WIDTH, HEIGHT, background=PALETTE["table"])
    _board(scene, game, v, colours)
    _paths(scene, b, v, colours)
    y = _status(scene, game, v)
    if v["c_active"]:
        _combat(scene, b, v, viewer, colours, y)
        y += 104
    _player_panels(scene, game, v, viewer, colours, y)
    if game.options.get("emsporium"):  # variant: emsporium
        _shop(scene, v)
    if game.tavern_on:  # variant: hero_tavern
        _tavern(scene, game, v, viewer)
    return scene


# --- board -------------------------------------------------------------------------------


def _board(scene, game, v, colours):
    """Every hex filled by kind, then each one's name, home gatherers, tokens and gatherers."""
    b = game.board
    kinds = {}
    for g, h in enumerate(b.gloc_hex):
        kinds[h] = (("cave", "tree", "center", "mush_room")[int(b.gloc_kind[g])], g)
    colony = {h: s for s, h in enumerate(b.colony_hex)}
    for h in b.hexes:
        if h in colony:
            fill = colours[colony[h]]
        elif h in kinds:
            fill = KIND_FILL[kinds[h][0]]
        elif h == b.tavern_hex:
            fill = KIND_FILL["hero_tavern"]
        else:
            fill = KIND_FILL["forest"]
        scene.polygon(_hex_points(h), fill=fill, stroke="#8d9a78", width=1)
    n = game.num_seats  # variant: team (4 seats for 2 agents in the 2-player game)
    for h in b.hexes:
        x, y = _center(h)
        if h in colony:
            scene.text(x, y - 8, b.colours[colony[h]], size=10, anchor="middle", fill="#ffffff", bold=True)
            home = int((v["gatherer"][colony[h]] < 0).sum())
            scene.text(x, y + 8, f"home {home}", size=8, anchor="middle", fill="#ffffff")
        elif h in kinds:
            g = kinds[h][1]
            name = b.gloc_names[g].replace(" Spore Cave", " cave")
            scene.text(x, y - 20, name, size=8, anchor="middle", fill="#ffffff", bold=True)
            if v["loc_nut"][g]:
                chip(scene, x - 11, y - 4, 8, NUT, str(int(v["loc_nut"][g])), text_fill=PALETTE["ink"])
            if v["loc_spores"][g]:
                chip(scene, x + 11, y - 4, 8, SPORE, str(int(v["loc_spores"][g])))
            _gatherers(scene, v, colours, n, g, x, y)
        elif h == b.tavern_hex:
            scene.text(x, y, "Hero Tavern", size=7, anchor="middle", fill="#ffffff")
            _gatherers(scene, v, colours, n, rules.TAVERN, x, y)  # variant: hero_tavern (gatherers on the Tavern)


def _gatherers(scene, v, colours, n, where, x, y):
    """The gatherers on location ``where`` (or the Hero Tavern), a row of discs under (x, y)."""
    k = 0
    for p in range(n):
        for i in range(3):
            if v["gatherer"][p, i] == where:
                scene.circle(x - 18 + 9 * k, y + 15, 4.5, fill=colours[p], stroke="#ffffff", width=1)
                k += 1


def _paths(scene, b, v, colours):
    """The Paths as strokes on the edges (two on one edge side by side, a permanent Colony Path
    darker), and a ring on the edge fought over."""
    edge_corners = {}
    for h in b.hexes:
        for key, c0, c1 in hex_edges(h):
            edge_corners.setdefault(key, (c0, c1))
    for e, key in enumerate(b.edges):
        owners = [int(o) - 1 for o in v["paths"][e] if o]
        if not owners:
            continue
        (x0, y0), (x1, y1) = (_corner(c) for c in edge_corners[key])
        dx, dy = x1 - x0, y1 - y0
        norm = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / norm * 3.5, dx / norm * 3.5
        for i, p in enumerate(owners):
            shift = 0.0 if len(owners) == 1 else (-1 if i == 0 else 1)
            perm = int(b.permanent[e]) == p
            sx, sy = ox * shift, oy * shift
            scene.line(
                x0 + sx + dx * 0.12,
                y0 + sy + dy * 0.12,
                x1 + sx - dx * 0.12,
                y1 + sy - dy * 0.12,
                stroke="#222222" if perm else colours[p],
                width=4 if perm else 5,
            )
            if perm:
                scene.line(
                    x0 + sx + dx * 0.14,
                    y0 + sy + dy * 0.14,
                    x1 + sx - dx * 0.14,
                    y1 + sy - dy * 0.14,
                    stroke=colours[p],
                    width=2,
                )
    if v["c_active"] and v["c_edge"] >= 0:
        (x0, y0), (x1, y1) = (_corner(c) for c in edge_corners[b.edges[int(v["c_edge"])]])
        scene.circle((x0 + x1) / 2, (y0 + y1) / 2, 9, fill=None, stroke=PALETTE["highlight"], width=3)


# --- side panel ----------------------------------------------------------------------------


def _status(scene, game, v):
    """The turn and phase (or the result), the decision pending, the decks, and under the Team
    rules the teams' Nutrients and the Trade; returns the height the panel goes on from."""
    from .game import DECISION_NAMES, PHASE_NAMES

    b = game.board
    tp = int(v["turn_player"])
    status = f"turn {int(v['turn'])}: {b.colours[tp]} - {PHASE_NAMES[int(v['phase'])]}"
    if v["done"]:
        status = (
            f"{b.colours[int(v['winner'])]} wins with {int(v['mat_nut'][int(v['winner'])])} Nutrients"
            if v["winner"] >= 0
            else "turn limit reached"
        )
        if game.team_rules and v["winner"] >= 0:  # variant: team
            w = int(v["winner"]) % 2
            status = (
                f"{b.colours[w]} + {b.colours[w + 2]} win with {int(v['mat_nut'][w] + v['mat_nut'][w + 2])} Nutrients"
            )
    scene.text(PANEL_X, 22, status, size=15, bold=True, fill=PALETTE["ink"])
    depth = int(v["decisions_n"])
    if depth and not v["done"]:
        top = v["decisions"][depth - 1]
        scene.text(
            PANEL_X,
            44,
            f"waiting for {b.colours[int(top[1])]}: {DECISION_NAMES[int(top[0])]}",
            size=11,
            fill=PALETTE["highlight"],
        )
    scene.text(
        PANEL_X,
        64,
        f"mushling deck {int(v['deck_n'])}, discard {int(v['discard'].sum())}; nutrient deck {int(v['ndeck_n'])}",
        size=10,
        fill=PALETTE["muted"],
    )
    if not game.team_rules:
        return 80
    totals = [int(v["mat_nut"][t] + v["mat_nut"][t + 2]) for t in range(2)]  # variant: team
    scene.text(
        PANEL_X,
        80,
        f"teams: {b.colours[0]} + {b.colours[2]} {totals[0]}, {b.colours[1]} + {b.colours[3]} "
        f"{totals[1]} (15 wins); trade {'used' if v['trade_used'] else 'open'}",
        size=10,
        bold=True,
        fill=PALETTE["ink"],
    )
    return 90


def _combat(scene, b, v, viewer, colours, y):
    """The combat in progress: each side's card (a card back until the reveal, except to its
    owner), its replacement and its bonus."""
    label_box(scene, PANEL_X, y, 400, 96, f"combat: {b.colours[int(v['c_att'])]} attacks {b.colours[int(v['c_def'])]}")
    for side in range(2):
        who = int(v["c_att"] if side == 0 else v["c_def"])
        c = int(v["c_card"][side])
        x = PANEL_X + 12 + side * 200
        if c < 0:
            scene.text(x, y + 50, "no card", size=10, fill=PALETTE["muted"])
        elif v["c_revealed"] or viewer is None or int(v["agent_of"][who]) == viewer:
            card(scene, x, y + 22, 62, 68, MUSHLING_NAMES[c], band=colours[who], size=8)
        else:
            card_back(scene, x, y + 22, 62, 68)
        r = int(v["c_repl"][side])
        if r >= 0:
            card(scene, x + 68, y + 22, 62, 68, MUSHLING_NAMES[r], band=colours[who], size=8)
        scene.text(x + 140, y + 56, f"+{int(v['c_bonus'][side])}", size=12, bold=True)


def _player_panels(scene, game, v, viewer, colours, y):
    """One panel per seat from height ``y`` down, the turn player's outlined in its colour."""
    n = game.num_seats
    team = game.team_rules
    tp = int(v["turn_player"])
    b = game.board
    ph = (HEIGHT - y - 10) / n
    for p in range(n):
        top_y = y + p * ph
        mine = viewer is not None and int(v["agent_of"][p]) == viewer
        you = " (you)" if mine else ""
        title = f"{b.colours[p]}{you}"
        if team:  # variant: team: the panel names the teammate
            title += f" + {b.colours[(p + 2) % 4]}"
        label_box(scene, PANEL_X, top_y, 400, ph - 8, title, stroke=colours[p] if p == tp else None)
        scene.text(
            PANEL_X + (180 if team else 150),
            top_y + 11,
            f"nutrients {int(v['mat_nut'][p])}  "
            f"spores {int(v['mat_spores'][p])}  combat {int(v['ctok'][p])}  paths {int(v['npaths'][p])}",
            size=9,
        )
        _hand(scene, v["hand"][p], viewer is None or mine, top_y, ph)
        if game.options.get("emsporium"):  # variant: emsporium
            _player_items(scene, v, p, PANEL_X, top_y + ph - 12)
        if game.tavern_on:  # variant: hero_tavern
            _player_heroes(scene, game, v, p, PANEL_X + 200, top_y + ph - 12)


def _hand(scene, hand, face_up, top_y, ph):
    """A hand in its panel: the cards face up (as many as fit), or card backs and the count."""
    px = PANEL_X
    if face_up:
        x = px + 8
        for t in range(rules.NUM_MUSHLING_KINDS):
            for _ in range(int(hand[t])):
                if x > px + 370:
                    break
                card(scene, x, top_y + 22, 44, min(56, ph - 36), MUSHLING_NAMES[t], size=6.5)
                x += 46
    else:
        k = int(hand.sum())
        for i in range(min(k, 8)):
            card_back(scene, px + 8 + i * 14, top_y + 22, 40, min(52, ph - 36))
        scene.text(px + 8 + min(k, 8) * 14 + 40, top_y + 40, f"{k} cards", size=10, fill=PALETTE["muted"])


def _player_heroes(scene, game, v, p, x, y):
    """Variant: hero_tavern. The heroes a player holds (public), one line."""
    held = [game.heroes.names[h] for h in range(rules.NUM_HEROES) if v["heroes"][p, h]]
    scene.text(x, y, "heroes: " + (", ".join(held) if held else "none"), size=8, fill=PALETTE["ink"])


def _tavern(scene, game, v, viewer):
    """Variant: hero_tavern. The 2 face-up heroes and the hero deck; the viewer's own
    Legends deal while it decides."""
    x0, y0 = 360, 612
    scene.text(x0, y0 - 4, f"Hero Tavern (hero deck {int(v['hero_deck_n'])})", size=10, bold=True, fill=PALETTE["ink"])
    shown = [int(h) for h in v["hero_up"]]
    if viewer is not None and (v["legend_deal"][viewer] >= 0).any():
        shown = [int(h) for h in v["legend_deal"][viewer]]
        scene.text(x0 + 140, y0 - 4, "(your Legends deal)", size=9, fill=PALETTE["highlight"])
    for s_, h in enumerate(shown):
        if h >= 0:
            card(scene, x0 + s_ * 76, y0 + 4, 70, 76, game.heroes.names[h], band="#7a3fa0", size=7)


def _player_items(scene, v, p, x, y):
    """Variant: emsporium. The items a player owns (public), one line."""
    from .variant_data import ITEM_NAMES

    owned = [f"{ITEM_NAMES[i]}{' x' + str(int(c)) if c > 1 else ''}" for i, c in enumerate(v["items"][p]) if c]
    scene.text(x + 8, y, "items: " + (", ".join(owned) if owned else "none"), size=8, fill=PALETTE["ink"])


def _shop(scene, v):
    """Variant: emsporium. The shop's 5 face-up items (costs from the config are in the text
    of ``items.toml``) and the item deck's size, under the board."""
    from .variant_data import ITEM_NAMES

    x0, y0 = 20, 612
    scene.text(
        x0, y0 - 4, f"Emsporium shop (item deck {int(v['item_deck_n'])})", size=10, bold=True, fill=PALETTE["ink"]
    )
    for s_, i in enumerate(v["shop"]):
        x = x0 + s_ * 66
        if i >= 0:
            card(scene, x, y0 + 4, 60, 76, ITEM_NAMES[int(i)], band="#c9a227", size=8)
        else:
            scene.text(x + 8, y0 + 40, "(sold)", size=9, fill=PALETTE["muted"])
