"""The picture of a Mycology table (``render_mode="rgb_array"`` / ``"svg"``), drawn with :mod:`mushgym.render`.

At the top: the season wheel (the current season lit), the last dice roll, the deck
(face down, with its size) and the Mushroom Field, two rows of four cards, each card
with its points, seasons, cost in resource tokens and Feast value. Below, one panel
per player: resource tokens, Feast, Magic and Poison tokens, the score, and the four
season baskets (1, 2, 3 and 4 places) with the cards in them. Everything but the
deck order is public in Mycology, so every seat sees the same picture (``viewer``
only marks "you").

The state is read by field name through the game's layout (``game.layout.view``).
"""

from __future__ import annotations

import numpy as np

from mushgym.render import PALETTE, Scene, card, card_back, chip, label_box

from .cards import RESOURCE_NAMES, RESOURCE_SHORT, SEASON_NAMES

RES_COLORS = ("#8d5fa8", "#4f9a3c", "#8a5a2b", "#d9a21b", "#5a4632")
SEASON_COLORS = ("#9fc3e6", "#9ed48c", "#f2c94c", "#e08a3c")
CAPACITY = (1, 2, 3, 4)
SPECIAL_MARK = {1: ("poison", "#7a2d8c"), 2: ("stinkhorn", "#6b6b2d"), 3: ("magic", "#2d6b8c")}
WIDTH = 980
DICE = ("2/12", "3/11", "4/10", "5/9", "6/8")


def _fields(game, state) -> dict[str, np.ndarray]:
    return {name: np.asarray(value) for name, value in game.layout.view(state).items()}


def _field_card(scene: Scene, game, x: float, y: float, c: int, w: float = 112, h: float = 118) -> None:
    if c < 0:
        scene.rect(x, y, w, h, fill=None, stroke=PALETTE["muted"], width=1, radius=8)
        return
    d = game.deck
    seasons = int(d.seasons[c])
    band = next((SEASON_COLORS[s] for s in range(4) if (seasons >> s) & 1), "#cccccc")
    card(scene, x, y, w, h, d.names[c], band=band, size=9.5)
    scene.text(x + 8, y + 14, f"{int(d.points[c])} pt", size=10, bold=True)
    scene.text(
        x + w - 8, y + 14, "".join(SEASON_NAMES[s][:2] for s in range(4) if (seasons >> s) & 1), size=8, anchor="end"
    )
    cx = x + 12
    for r in range(5):
        for _ in range(int(d.cost[c, r])):
            chip(scene, cx, y + h - 26, 6, RES_COLORS[r])
            cx += 13
    scene.text(x + w - 8, y + h - 10, f"{int(d.feast[c])} Feast", size=8, anchor="end", fill=PALETTE["muted"])
    special = int(d.special[c])
    if special in SPECIAL_MARK:
        name, color = SPECIAL_MARK[special]
        if special == 1:
            name += " " + RESOURCE_SHORT[int(d.poison_res[c])]
        scene.text(x + 8, y + h - 10, name, size=8, fill=color, bold=True)


def _die(scene: Scene, x: float, y: float, value: int, size: float = 34) -> None:
    scene.rect(x, y, size, size, fill="#ffffff", stroke=PALETTE["card_edge"], width=1.5, radius=6)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    }
    for px, py in pips.get(value, []):
        scene.circle(x + size * (0.25 + 0.25 * px), y + size * (0.25 + 0.25 * py), size * 0.08, fill=PALETTE["ink"])


def draw(game, state, viewer: int | None) -> Scene:
    f = _fields(game, state)
    n = game.num_players
    rows = (n + 1) // 2
    panel_h = 170
    top_h = 330
    scene = Scene(WIDTH, top_h + rows * (panel_h + 10) + 10, background=PALETTE["table"])
    season = int(f["season"])
    phase = game.phase(state)
    over = game.is_terminal(state)
    cur = game.current_player(state)
    score = f["score"][:n]

    # --- status
    if over:
        best = int(score.max())
        winners = [p for p in range(n) if score[p] == best]
        status = "Game over: " + ", ".join(f"player {p}" for p in winners) + f" with {best} points"
    else:
        who = "you" if viewer is not None and cur == viewer else f"player {cur}"
        status = (
            f"Mycology, {SEASON_NAMES[season]}, turn {int(f['turn']) + 1}: {who} to act, "
            f"{int(f['actions_left'])} action{'s' if int(f['actions_left']) != 1 else ''} left"
        )
        if phase == 1:
            status += " (paying)"
        elif phase == 2:
            status += " (ordering cards under the deck)"
    scene.text(16, 18, status, size=15, bold=True)

    # --- season wheel, dice, deck (right)
    wx, wy = 800, 110
    for s in range(4):
        x0, y0 = wx + (s % 2) * 62, wy - 70 + (s // 2) * 62
        lit = s == season
        scene.rect(
            x0,
            y0,
            58,
            58,
            fill=SEASON_COLORS[s] if lit else "#ece4d0",
            stroke=PALETTE["highlight"] if lit else PALETTE["muted"],
            width=3 if lit else 1,
            radius=10,
        )
        scene.text(x0 + 29, y0 + 29, SEASON_NAMES[s], size=11, anchor="middle", bold=lit)
    roll, d1 = int(f["roll"]), int(f["die1"])
    if roll:
        _die(scene, wx, wy + 70, d1)
        _die(scene, wx + 42, wy + 70, roll - d1)
        scene.text(wx + 84, wy + 87, f"= {roll}", size=12)
    card_back(scene, wx + 10, wy + 120, 60, 82, str(int(f["deck_count"])))
    scene.text(wx + 40, wy + 214, "deck", size=10, anchor="middle")

    # --- field: two rows of four
    scene.rect(10, 34, 510, top_h - 44, fill="#cfe0bf", radius=8)
    scene.text(20, 48, "Mushroom Field", size=11, bold=True)
    field = f["field"]
    for slot in range(8):
        row, col = divmod(slot, 4)
        x, y = 20 + col * 124, 60 + row * 130
        _field_card(scene, game, x, y, int(field[slot]))
        scene.text(x + 56, y + 124, f"#{slot}", size=8, anchor="middle", fill=PALETTE["muted"])
    if phase == 2:
        bottom = game.decision(state)["cards"]
        scene.text(536, 48, "going under the deck:", size=10, bold=True)
        for j in range(4):
            if bottom[j] >= 0:
                _field_card(scene, game, 536 + (j % 2) * 124, 60 + (j // 2) * 130, int(bottom[j]))
    else:  # legend: what each resource is and which dice totals give it
        scene.text(540, 48, "resources (dice totals)", size=10, bold=True)
        for r in range(5):
            chip(scene, 552, 72 + r * 26, 9, RES_COLORS[r])
            scene.text(568, 72 + r * 26, f"{RESOURCE_NAMES[r]}  ({DICE[r]})", size=10)
        scene.text(540, 72 + 5 * 26, "7: the season advances", size=10, fill=PALETTE["muted"])

    # --- players
    res = f["resources"].reshape(-1, 5)
    counts = f["basket_count"].reshape(-1, 4)
    baskets = game.arrays(state)["basket"]  # (player, season, place)
    d = game.deck
    for p in range(n):
        px = 10 + (p % 2) * (WIDTH // 2)
        py = top_h + (p // 2) * (panel_h + 10)
        pw = WIDTH // 2 - 20
        name = f"player {p}" + (" (you)" if viewer == p else "")
        mark = PALETTE["highlight"] if not over and cur == p else None
        label_box(scene, px, py, pw, panel_h, f"{name}  -  {int(score[p])} points", stroke=mark)
        scene.circle(px + pw - 16, py + 12, 7, fill=PALETTE["player"][p % 6])
        x = px + 14
        for r in range(5):
            chip(scene, x + 10, py + 40, 11, RES_COLORS[r], str(int(res[p, r])))
            scene.text(x + 10, py + 60, RESOURCE_SHORT[r], size=8, anchor="middle")
            x += 30
        for label, key, color in (
            ("Feast", "feast", "#b0413e"),
            ("Magic", "magic", "#2d6b8c"),
            ("Poison", "poison", "#7a2d8c"),
        ):
            chip(scene, x + 14, py + 40, 11, color, str(int(f[key][p])))
            scene.text(x + 14, py + 60, label, size=8, anchor="middle")
            x += 40
        # baskets: season s has CAPACITY[s] places
        bx = px + 14
        for s in range(4):
            bw = 16 + CAPACITY[s] * 36
            scene.rect(bx, py + 74, bw - 6, 88, fill="#f3ead2", stroke=SEASON_COLORS[s], width=2, radius=6)
            scene.text(bx + 6, py + 84, f"{SEASON_NAMES[s]} {int(counts[p, s])}/{CAPACITY[s]}", size=8)
            for k in range(CAPACITY[s]):
                cx = bx + 5 + k * 36
                if k < counts[p, s]:
                    c = int(baskets[p, s, k])
                    card(
                        scene,
                        cx,
                        py + 94,
                        32,
                        62,
                        d.names[c],
                        band=SEASON_COLORS[s],
                        size=6.5,
                        subtitle=f"{int(d.points[c])}pt",
                    )
                else:
                    scene.rect(cx, py + 94, 32, 62, fill=None, stroke="#cdbf9c", width=1, radius=4)
            bx += bw
    return scene


def legend() -> str:
    """The abbreviations of the text view (``render_text``), spelled out."""
    res = ", ".join(f"{s} = {n}" for s, n in zip(RESOURCE_SHORT, RESOURCE_NAMES))
    return (
        f"Resources: {res}. A card [3pt .PS. 2OP+1SD 1F] scores 3 points, grows in the seasons "
        "shown (W Winter, P sPring, S Summer, F Fall; . = not), costs 2 OP and 1 SD and gives 1 Feast."
    )
