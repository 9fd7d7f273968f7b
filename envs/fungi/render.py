"""The picture of a Fungi table (``render_mode="rgb_array"`` / ``"svg"``), drawn with :mod:`mushgym.render`.

Seen from ``viewer``'s seat: the opponent's hand face down at the top (with the cards
publicly known to be in it listed), the Forest line in the middle (position 0 next to
the decay pile, stick cost under each card), the draw and Night piles as face-down
stacks with their sizes, each player's display (sticks, baskets, empty Pans, Fly
agarics, cooked pans with their points), and the viewer's hand face up at the bottom.
``viewer=None`` shows both hands face up.

The state is read by field name through the game's layout (``game.layout.view``), so
this file does not depend on where a field sits in the state array.
"""

from __future__ import annotations

import numpy as np

from mushgym.render import PALETTE, Scene, card, card_back, chip, label_box

from .cards import BASKET, BUTTER, CIDRE, FLY, KIND_NAMES, KIND_SHORT, MOON, MUSHROOMS, NIGHT0, NNIGHT, PAN

WIDTH, HEIGHT = 900, 520
TYPE_COLORS = ("#c9a227", "#6b3e26", "#d8d2c4", "#9c6b3c", "#8e7a5a", "#a8743f", "#7d4a1e", "#e39b2d", "#5c4b3b")
OTHER_COLORS = {BUTTER: "#f3dc6b", CIDRE: "#d98c3a", PAN: "#8c9097", FLY: "#d23a2a", BASKET: "#a57a45", MOON: "#6d5fa8"}
NIGHT_COLOR = "#27305a"
PHASES = ("to act", "to finish cooking", "to discard (Fly agaric)")


def kind_color(kind: int) -> str:
    if kind < len(MUSHROOMS):
        return TYPE_COLORS[kind]
    if NIGHT0 <= kind < NIGHT0 + NNIGHT:
        return NIGHT_COLOR
    return OTHER_COLORS.get(kind, "#999999")


def _fields(game, state) -> dict[str, np.ndarray]:
    """The layout's fields as arrays, per-player fields shaped ``(players, ...)``."""
    view = game.layout.view(state)
    return {name: np.asarray(value) for name, value in view.items()}


def _per_player(f: dict, name: str, players: int = 2) -> np.ndarray:
    return f[name].reshape(players, -1)


def _hand_cards(scene: Scene, x: float, y: float, avail: float, counts: np.ndarray, h: float = 78) -> None:
    kinds = [k for k in range(len(counts)) if counts[k]]
    if not kinds:
        scene.text(x, y + h / 2, "(empty hand)", size=12, fill=PALETTE["muted"])
        return
    w = min(62.0, avail / len(kinds) - 6)
    for i, k in enumerate(kinds):
        card(
            scene,
            x + i * (w + 6),
            y,
            w,
            h,
            KIND_NAMES[k],
            band=kind_color(k),
            size=9,
            subtitle=f"x{int(counts[k])}" if counts[k] > 1 else "",
        )


def _hidden_hand(scene: Scene, x: float, y: float, n: int, h: float = 78) -> None:
    w = 52
    step = min(26.0, 360.0 / max(n, 1))
    for i in range(n):
        card_back(scene, x + i * step, y, w, h)
    if n:
        scene.text(x + (n - 1) * step + w + 10, y + h / 2, f"{n} cards", size=12, fill=PALETTE["ink"])
    else:
        scene.text(x, y + h / 2, "(no cards in hand)", size=12, fill=PALETTE["muted"])


def _display(scene: Scene, x: float, y: float, f: dict, p: int, game) -> None:
    """Sticks, baskets, empty pans, Fly agarics and the cooked pans of player ``p``."""
    sticks = int(_per_player(f, "sticks")[p, 0])
    baskets = int(_per_player(f, "baskets")[p, 0])
    empty = int(_per_player(f, "empty_pans")[p, 0])
    fly = int(_per_player(f, "fly_new")[p, 0] + _per_player(f, "fly_old")[p, 0])
    chip(scene, x + 14, y + 14, 12, "#8b5a2b", str(sticks))
    scene.text(x + 30, y + 14, "sticks", size=11)
    chip(scene, x + 88, y + 14, 12, OTHER_COLORS[BASKET], str(baskets))
    scene.text(x + 104, y + 14, "baskets", size=11)
    chip(scene, x + 168, y + 14, 12, OTHER_COLORS[PAN], str(empty))
    scene.text(x + 184, y + 14, "empty pans", size=11)
    if fly:
        chip(scene, x + 266, y + 14, 12, OTHER_COLORS[FLY], str(fly))
        scene.text(x + 282, y + 14, "Fly agaric", size=11)
    pans = f["pan_records"].reshape(2, -1, 5)[p]
    n = int(_per_player(f, "cooked_pans")[p, 0])
    for i in range(n):
        t, forest, night, butter, cidre = (int(v) for v in pans[i])
        cx = x + i * 50
        units = forest + 2 * night
        scene.circle(cx + 22, y + 52, 20, fill="#4a4a4f", stroke=PALETTE["card_edge"], width=1)
        scene.circle(cx + 22, y + 52, 14, fill=kind_color(t))
        scene.text(cx + 22, y + 52, str(units), size=12, anchor="middle", fill="#ffffff", bold=True)
        extras = ("+B" * butter) + ("+C" * cidre)
        scene.text(cx + 22, y + 80, KIND_SHORT[t] + extras, size=8, anchor="middle")
    if n == 0:
        scene.text(x, y + 52, "nothing cooked yet", size=11, fill=PALETTE["muted"])


def draw(game, state, viewer: int | None) -> Scene:
    f = _fields(game, state)
    me = 0 if viewer is None else viewer
    opp = 1 - me
    scene = Scene(WIDTH, HEIGHT, background=PALETTE["table"])
    score = _per_player(f, "score")[:, 0]
    hand = _per_player(f, "hand")
    hand_n = _per_player(f, "hand_n")[:, 0]
    known = _per_player(f, "known")
    terminal = bool(f["terminal"])
    cur = game.current_player(state)

    # --- status line
    if terminal:
        rets = game.returns(state)
        result = "a tie" if rets[0] == rets[1] else f"player {int(np.argmax(rets))} wins"
        status = f"Game over, {result}: {int(score[0])} - {int(score[1])} points"
    else:
        who = "you" if viewer is not None and cur == viewer else f"player {cur}"
        status = f"Fungi, turn {int(f['turns']) + 1}: {who} {PHASES[int(game.kernels.phase(state))]}"
    scene.text(16, 18, status, size=15, bold=True, fill=PALETTE["ink"])
    seat = "whole table, face up" if viewer is None else f"seen by player {viewer}"
    scene.text(WIDTH - 16, 18, seat, size=11, anchor="end", fill=PALETTE["muted"])

    # --- opponent (top)
    top = 36
    mark = PALETTE["highlight"] if not terminal and cur == opp else None
    label_box(scene, 10, top, WIDTH - 20, 136, f"player {opp}  -  {int(score[opp])} points", stroke=mark)
    if viewer is None:
        _hand_cards(scene, 24, top + 24, 500, hand[opp])
    else:
        _hidden_hand(scene, 24, top + 24, int(hand_n[opp]))
        kn = [f"{int(known[opp][k])}x {KIND_NAMES[k]}" for k in range(known.shape[1]) if known[opp][k]]
        scene.text(
            24, top + 114, "known in hand: " + (", ".join(kn) if kn else "nothing"), size=10, fill=PALETTE["muted"]
        )
    _display(scene, 520, top + 20, f, opp, game)

    # --- forest line, decay pile, piles (middle)
    mid = top + 146
    scene.rect(10, mid, WIDTH - 20, 150, fill="#cfe0bf", radius=8)
    scene.text(18, mid + 12, "decay pile", size=10, fill=PALETTE["ink"], bold=True)
    decay = f["decay"][: int(f["decay_n"])]
    for j, k in enumerate(decay):
        card(scene, 18 + j * 12, mid + 24 + j * 6, 60, 84, KIND_NAMES[int(k)], band=kind_color(int(k)), size=8)
    if len(decay) == 0:
        scene.rect(18, mid + 24, 60, 84, fill=None, stroke=PALETTE["muted"], width=1, radius=5)
    scene.text(130, mid + 12, "forest  (position 0 is next to the decay pile)", size=10, bold=True)
    forest = f["forest"][: int(f["forest_n"])]
    for i, k in enumerate(forest):
        x = 130 + i * 72
        card(scene, x, mid + 24, 66, 92, KIND_NAMES[int(k)], band=kind_color(int(k)), size=9)
        cost = i - 1 if i >= 2 else 0
        scene.text(
            x + 33,
            mid + 128,
            f"#{i}  " + ("free" if cost == 0 else f"{cost} stick" + ("s" if cost > 1 else "")),
            size=9,
            anchor="middle",
            fill=PALETTE["ink"],
        )
    px = 130 + 8 * 72 + 6
    card_back(scene, px, mid + 24, 52, 72, str(int(f["draw_n"])))
    scene.text(px + 26, mid + 108, "draw", size=9, anchor="middle")
    card_back(scene, px + 60, mid + 24, 52, 72, str(int(f["night_n"])))
    scene.text(px + 86, mid + 108, "night", size=9, anchor="middle")
    scene.text(px + 56, mid + 128, f"discarded {int(f['discard'].sum())}", size=9, anchor="middle")

    # --- the viewer (bottom)
    bot = mid + 158
    mark = PALETTE["highlight"] if not terminal and cur == me else None
    who = f"you (player {me})" if viewer is not None else f"player {me}"
    label_box(scene, 10, bot, WIDTH - 20, HEIGHT - bot - 10, f"{who}  -  {int(score[me])} points", stroke=mark)
    _hand_cards(scene, 24, bot + 24, 500, hand[me])
    scene.text(24, bot + 116, f"{int(hand_n[me])} cards in hand", size=10, fill=PALETTE["muted"])
    _display(scene, 520, bot + 20, f, me, game)
    return scene


def legend() -> str:
    """The short card names of the text view (``render_text``), spelled out."""
    from .cards import KIND_SHORT

    pairs = [f"{s} = {n}" for s, n in zip(KIND_SHORT, KIND_NAMES) if s != n and not s.startswith("N-")]
    return (
        "Card names: " + ", ".join(pairs) + "; N-<name> = the Night card of that mushroom "
        "(counts as 2). A pan [3+1N Porcini +1B] holds 3 Porcini, 1 Night Porcini and 1 Butter."
    )
