"""A replay as one self-contained HTML page, or as a GIF / MP4 (``mushgym replay FILE --out ...``).

    from mushgym.replay import load_replay
    from mushgym.web.page import replay_page, write_video
    replay = load_replay("game.jsonl")
    Path("game.html").write_text(replay_page(replay, seat=None))   # every hand face up
    write_video(replay, "game.gif", seat=0, fps=2)                   # player 0's view

The page holds the table's picture (SVG) at every position, the move list in words, the
acting agent's candidates where the replay has them, and step / play / speed controls
(keys: left, right, space); it needs no server and no network. From one seat's view
(``seat=N``) every picture is drawn as that seat sees the table and only that seat's own
candidates are shown (another agent's candidates would tell what it holds), and another
seat's move that the seat could not tell apart from its alternatives (a card played face down)
is not named (:func:`move_seen`); ``seat=None`` shows every hand and every move.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Iterator

import numpy as np

from ..render import draw_state, has_picture
from ..replay import Replay

STATIC = Path(__file__).parent / "static"
VIDEO_SUFFIXES = (".gif", ".mp4")


#: what a seat's page says of another seat's move it cannot tell apart from others
HIDDEN_MOVE = "a move you cannot see"


def move_seen(game, state: np.ndarray, action: int, viewer: int | None) -> bool:
    """Whether ``viewer`` (None: everyone's view) can tell ``action`` from every other legal
    move of the player acting in ``state``: its own moves always; another seat's unless some
    other move leads to a different state that the viewer sees the same (the same observation
    and the same picture from its seat). A card played face down (which card?), cards put under
    a deck (in which order?): not seen, so a seat's page names them only as :data:`HIDDEN_MOVE`.
    Two moves with the same outcome (two copies of one card) do not hide each other."""
    if viewer is None or game.current_player(state) == viewer:
        return True
    after = game.step(state, int(action))
    seen = game.observe(after, viewer)
    picture = None
    for other in game.legal_actions(state):
        if int(other) == int(action):
            continue
        alt = game.step(state, int(other))
        if np.array_equal(alt, after) or not np.array_equal(game.observe(alt, viewer), seen):
            continue
        if picture is None:
            picture = frame(game, after, viewer)
        if frame(game, alt, viewer) == picture:
            return False
    return True


def check_seat(game, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < game.num_players:
        raise ValueError(f"{game.env_id}: no seat {seat}; seats are 0..{game.num_players - 1} (or every hand)")


def frame(game, state: np.ndarray, seat: int | None) -> str:
    """The table in ``state`` seen from ``seat`` (None: every hand) as SVG, or as text for a
    game without a picture."""
    if has_picture(game):
        return draw_state(game, state, seat).to_svg()
    return f"<pre>{html.escape(game.render_text(state, seat))}</pre>"


def player_name(replay: Replay, seat: int) -> str:
    names = replay.players
    name = names[seat] if seat < len(names) else f"player {seat}"
    return f"player {seat} ({name})"


def result_text(replay: Replay, game, state: np.ndarray) -> str:
    if replay.end is not None and "reason" in replay.end:
        return f"stopped: {replay.end['reason']}"
    if not game.is_terminal(state):
        return "the game was stopped before its end"
    returns = game.returns(state)
    cut = " (cut by the turn limit)" if game.is_truncated(state) else ""
    return (
        "game over"
        + cut
        + ": returns "
        + ", ".join(f"{player_name(replay, p)} {returns[p]:g}" for p in range(game.num_players))
    )


def move_entries(replay: Replay, seat: int | None, states: list[np.ndarray]) -> list[dict]:
    game = replay.game()
    out = []
    for m, state in zip(replay.moves, states):
        words = m.words if move_seen(game, state, m.action, seat) else HIDDEN_MOVE
        entry = {"ply": m.ply, "seat": m.seat, "player": player_name(replay, m.seat), "move": words}
        if m.candidates and (seat is None or m.seat == seat):
            entry.update(candidates=m.candidates, weight_kind=m.weight_kind, value=m.value)
        out.append(entry)
    return out


def replay_data(replay: Replay, seat: int | None = None) -> dict:
    """What the page shows: a picture per position (checked replay), the moves, the result."""
    game = replay.game()
    check_seat(game, seat)
    states = replay.states()
    return {
        "frames": [frame(game, s, seat) for s in states],
        "moves": move_entries(replay, seat, states),
        "result": result_text(replay, game, states[-1]),
    }


def script_json(value) -> str:
    """JSON safe inside a ``<script>`` element."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")


def replay_title(replay: Replay, seat: int | None) -> str:
    view = "every hand shown" if seat is None else f"seen by {player_name(replay, seat)}"
    players = " vs ".join(replay.players)
    return f"{replay.env_id}, seed {replay.seed}: {players} ({view})"


def replay_page(replay: Replay, seat: int | None = None, back_link: str | None = None) -> str:
    """The self-contained HTML page of ``replay`` (see the module docstring)."""
    data = replay_data(replay, seat)
    title = html.escape(replay_title(replay, seat))
    back = f'<a href="{html.escape(back_link)}">back</a>' if back_link else ""
    options = ", ".join(f"{k}={v}" for k, v in replay.options.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{(STATIC / "style.css").read_text()}</style></head>
<body><header><h1>{title}</h1>{back}</header>
<main>
<div class="table"><div id="table"></div>
<div class="controls">
<button id="first" title="the deal">|&lt;</button><button id="prev" title="back one move (left key)">&lt;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="forward one move (right key)">&gt;</button><button id="last-pos" title="the end">&gt;|</button>
<label>speed <select id="speed"><option value="0.5">0.5</option><option value="1" selected>1</option>
<option value="2">2</option><option value="4">4</option><option value="10">10</option></select> moves/s</label>
<input id="slider" type="range" min="0" value="0" aria-label="position">
<span id="position"></span></div>
<div class="status" id="result"></div></div>
<div class="side">
<div class="panel"><h2>Last move</h2><div id="last"></div></div>
<div class="panel"><h2>Moves</h2><ol class="moves" id="moves"></ol></div>
<p class="muted">options: {html.escape(options)}; recorded with mushgym
{html.escape(str(replay.header.get("mushgym_version")))}</p>
</div></main>
<script type="application/json" id="replay-data">{script_json(data)}</script>
<script>{(STATIC / "replay.js").read_text()}</script>
</body></html>
"""


def frames_rgb(replay: Replay, seat: int | None = None) -> Iterator[np.ndarray]:
    """The table at every position as RGB arrays (the pictures the page shows)."""
    game = replay.game()
    check_seat(game, seat)
    if not has_picture(game):
        raise ValueError(f"{game.env_id} has no picture: a video needs one (the HTML page shows its text)")
    for state in replay.states():
        yield draw_state(game, state, seat).to_rgb()


def write_video(replay: Replay, path: str | Path, seat: int | None = None, fps: float = 2.0) -> Path:
    """``replay`` as an animated GIF (Pillow) or an MP4 (imageio-ffmpeg, in the ``web`` extra),
    by ``path``'s suffix; ``fps`` positions per second (the last one held two seconds)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in VIDEO_SUFFIXES:
        raise ValueError(f"{path}: a video is {' or '.join(VIDEO_SUFFIXES)}")
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    frames = list(frames_rgb(replay, seat))
    hold = max(1, int(round(2 * fps)))
    if suffix == ".gif":
        from PIL import Image

        images = [Image.fromarray(f) for f in frames]
        durations = [int(1000 / fps)] * (len(images) - 1) + [int(1000 / fps) * hold]
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)
        return path
    try:
        import imageio_ffmpeg
    except ImportError:
        raise ValueError(
            "an MP4 needs imageio-ffmpeg (pip install 'mushgym[web]'); a .gif needs nothing more"
        ) from None
    h, w = frames[0].shape[:2]
    even = [f[: h - h % 2, : w - w % 2] for f in frames]  # H.264 with yuv420p needs even sizes
    writer = imageio_ffmpeg.write_frames(
        str(path), (even[0].shape[1], even[0].shape[0]), fps=fps, macro_block_size=1, quality=7
    )
    writer.send(None)
    for f in even + [even[-1]] * (hold - 1):
        writer.send(np.ascontiguousarray(f))
    writer.close()
    return path
