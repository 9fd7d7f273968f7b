"""``mushgym serve``: a local web app to play any env against any agent, watch replays and
read the Elo ladders (Flask, the optional ``web`` extra).

    mushgym serve                       # http://127.0.0.1:8000
    mushgym serve --port 8080 --replays runs/replays

Pages are rendered on the server; a small plain script (``static/table.js``) sends the
person's moves and redraws the table from the JSON the server answers. Every answer about
a game comes from :meth:`mushgym.web.tables.Table.view`: the person's seat only. Replays are
served from the replay folder and nowhere else: a path outside it (``..``, an absolute path,
a link pointing out) is refused with a message saying so.

Why Flask: one small, synchronous, long-maintained package (with Werkzeug's server and a test
client); the engine and the agents are synchronous CPU work, so an asynchronous stack
(Starlette, uvicorn) would add a second package and buy nothing; there is no JavaScript build
step. The server is for one machine: it listens on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import ast
import html
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..replay import SUFFIX, ReplayError, load_replay, read_replay
from .ladders import read_ladders
from .page import STATIC, replay_page, script_json
from .tables import ENGINE_LOCK, AgentFactory, Table

MAX_TABLES = 64
OPPONENTS = ("random", "greedy", "mcts:200", "mcts:1000")


def page(title: str, body: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} - mushgym</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body><header><h1>{html.escape(title)}</h1><a href="/">new game</a><a href="/replays">replays</a>
<a href="/leaderboard">leaderboard</a></header>
{body}</body></html>
"""


class EnvChoices:
    """Each env's options and their choices (read once per env)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[dict, dict]] = {}

    def envs(self) -> list[str]:
        from ..registry import list_envs

        return list_envs()

    def options(self, env_id: str) -> tuple[dict[str, list], dict[str, Any]]:
        """``(choices per option, default options)``."""
        if env_id not in self._cache:
            from ..catalog import catalog

            entry = catalog().get(env_id)
            if entry is None:
                raise ValueError(f"unknown env {env_id!r}; envs: {', '.join(self.envs())}")
            choices = {k: list(ast.literal_eval(v)) for k, v in entry["options"].items()}
            from ..registry import game as make_game

            with ENGINE_LOCK:
                defaults = dict(make_game(env_id).options)
            self._cache[env_id] = (choices, defaults)
        return self._cache[env_id]

    def parse(self, env_id: str, form) -> dict[str, Any]:
        """The options chosen in ``form`` (``option_NAME`` fields), as the game's own values."""
        choices, _ = self.options(env_id)
        out = {}
        for name, values in choices.items():
            text = form.get(f"option_{name}")
            if text is None or text == "":
                continue
            match = [v for v in values if str(v) == text]
            if not match:
                raise ValueError(f"option {name}={text!r} is not one of {values}")
            out[name] = match[0]
        return out


def _index_body(envs: EnvChoices, error: str = "") -> str:
    forms = []
    for env_id in envs.envs():
        choices, defaults = envs.options(env_id)
        fields = []
        for name, values in choices.items():
            opts = "".join(
                f'<option value="{html.escape(str(v))}"{" selected" if v == defaults.get(name) else ""}>'
                f"{html.escape(str(v))}</option>"
                for v in values
            )
            fields.append(
                f'<label>{html.escape(name)} <select name="option_{html.escape(name)}">{opts}</select></label>'
            )
        forms.append(f"""<div class="panel"><h2>{html.escape(env_id)}</h2>
<form class="newgame" method="post" action="/new"><input type="hidden" name="env" value="{html.escape(env_id)}">
<label>your seat <input name="seat" type="number" min="0" value="0" size="3"></label>
<label>opponents <input name="opponent" value="random" list="agents" size="28"></label>
<label>hints from <input name="hint" value="greedy" list="agents" size="28"></label>
{"".join(fields)}
<button type="submit" id="new-{html.escape(env_id)}">new game</button></form></div>""")
    agents = "".join(f'<option value="{a}">' for a in OPPONENTS)
    err = f'<p class="error">{html.escape(error)}</p>' if error else ""
    return (
        f"<main><div style='flex: 1 1 100%'>{err}<p class='muted'>Opponents: random, greedy, mcts:SIMS "
        "(information-set MCTS), puct:SIMS:PATH or the path of a saved model. The table is drawn from your "
        f"seat: other hands stay hidden.</p></div>{''.join(forms)}</main><datalist id='agents'>{agents}</datalist>"
    )


def _game_body(table: Table) -> str:
    return f"""<main>
<div class="table"><div class="status" id="status"></div><div id="table"></div></div>
<div class="side">
<div class="panel"><h2>Your moves</h2><div class="legal" id="legal"></div>
<div class="controls"><button id="hint">hint</button><button id="undo">undo my move</button>
<a href="/">new game</a></div><div id="hint-out"></div></div>
<div class="panel"><h2>Moves so far</h2><ol class="moves" id="moves"></ol></div>
</div></main>
<script type="application/json" id="view-data">{script_json(table.view())}</script>
<script>const TOKEN = {json.dumps(table.token)};</script>
<script src="/static/table.js"></script>"""


def _replays_body(folder: Path | None) -> str:
    if folder is None:
        return "<main><p>No replay folder: start the server with <code>--replays DIR</code>.</p></main>"
    rows = []
    for path in sorted(Path(folder).rglob(f"*{SUFFIX}")):
        rel = path.relative_to(folder).as_posix()
        try:
            r = read_replay(path)
            what = f"{html.escape(r.env_id)}, {len(r.moves)} moves: {html.escape(' vs '.join(r.players))}"
            seats = " ".join(
                f'<a href="/replays/{html.escape(rel)}?seat={p}">seat {p}</a>'
                for p in range(int(r.header.get("num_players", len(r.players))))
            )
        except ReplayError as err:
            what, seats = f'<span class="error">{html.escape(str(err))}</span>', ""
        rows.append(
            f'<tr><td><a href="/replays/{html.escape(rel)}">{html.escape(rel)}</a></td><td>{what}</td>'
            f"<td>{seats}</td></tr>"
        )
    table = (
        (
            "<table class='ladder'><tr><th>replay</th><th>game</th><th>one seat's view</th></tr>"
            + "".join(rows)
            + "</table>"
        )
        if rows
        else "<p>No replays yet.</p>"
    )
    return f"<main><div><p class='muted'>{html.escape(str(folder))}</p>{table}</div></main>"


def _interval(ladder, row: dict) -> str:
    if ladder.scale == f"{row['agent']} = 0":
        return "(anchor)"
    return f"[{row['lo']:.0f}, {row['hi']:.0f}]"


def _leaderboard_body(folder: Path | None) -> str:
    ladders, problems = read_ladders(folder)
    if not ladders:
        where = html.escape(str(folder)) if folder else "no ladder folder: start the server with --ladders DIR"
        return f"<main><p>No ladder records found ({where}).</p></main>"
    parts = []
    for lad in ladders:
        rows = "".join(
            f"<tr><td>{i + 1}</td><td>{html.escape(r['agent'])}</td><td class='num'>{r['elo']:+.0f}</td>"
            f"<td class='num'>{_interval(lad, r)}</td></tr>"
            for i, r in enumerate(lad.rows)
        )
        notes = " ".join(x for x in (lad.date, f"<code>{html.escape(lad.command)}</code>" if lad.command else "") if x)
        parts.append(
            f"<h2>{html.escape(lad.name)}</h2><p class='muted'>Elo, {html.escape(lad.scale)}; 95% "
            f"intervals. {notes}</p><table class='ladder'><tr><th>#</th><th>agent</th><th>Elo</th>"
            f"<th>95% interval</th></tr>{rows}</table>"
        )
    notes = "".join(f"<p class='error'>{html.escape(p)}</p>" for p in problems)
    return f"<main><div>{''.join(parts)}{notes}</div></main>"


def safe_replay_path(folder: Path | None, name: str) -> Path:
    """``name`` inside ``folder``, or ``ValueError`` saying why not (no folder, outside it, not a replay)."""
    if folder is None:
        raise LookupError("no replay folder: start the server with --replays DIR")
    root = Path(folder).resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root):
        raise PermissionError(f"{name!r} is outside the replay folder")
    if path.suffix != SUFFIX:
        raise PermissionError(f"{name!r} is not a replay file (*{SUFFIX})")
    if not path.is_file():
        raise LookupError(f"no replay {name!r} in the replay folder")
    return path


def create_app(agent_factory: AgentFactory, replays: str | Path | None = None, ladders: str | Path | None = None):
    """The Flask app. ``agent_factory(spec, env_id=, seed=)`` builds agents (``make_agent``);
    ``replays``: the folder to browse (finished games are saved there too); ``ladders``: the
    folder of ladder records (``*_elo.csv``; None: the leaderboard says how to name one)."""
    from flask import Flask, abort, jsonify, redirect, request

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    replay_folder = Path(replays) if replays is not None else None
    if replay_folder is not None:
        replay_folder.mkdir(parents=True, exist_ok=True)
    ladder_folder = Path(ladders) if ladders else None
    envs = EnvChoices()
    tables: OrderedDict[str, Table] = OrderedDict()
    app.extensions["mushgym_tables"] = tables  # the live games, by token (tests read the true states)

    def table_of(token: str) -> Table:
        table = tables.get(token)
        if table is None:
            abort(404, description="no such game (the server keeps the latest games only); start a new one")
        return table

    def problem(message: str, status: int = 400):
        return jsonify({"error": message}), status

    @app.get("/")
    def index():
        return page("mushgym: play", _index_body(envs))

    @app.post("/new")
    def new_game():
        form = request.form
        try:
            env_id = form.get("env", "")
            if env_id not in envs.envs():
                raise ValueError(f"unknown env {env_id!r}; envs: {', '.join(envs.envs())}")
            options = envs.parse(env_id, form)
            from ..registry import game as make_game

            with ENGINE_LOCK:
                game = make_game(env_id, **options)
            seat_text = form.get("seat", "0")
            if not seat_text.strip().isdigit():
                raise ValueError(f"your seat is a number 0..{game.num_players - 1}, got {seat_text!r}")
            table = Table(
                game,
                int(seat_text),
                form.get("opponent", "random").strip() or "random",
                agent_factory,
                hint=form.get("hint", "greedy").strip() or "greedy",
                replays=replay_folder,
            )
        except (ValueError, FileNotFoundError, ImportError, TypeError) as err:
            return page("mushgym: play", _index_body(envs, error=str(err))), 400
        tables[table.token] = table
        while len(tables) > MAX_TABLES:
            tables.popitem(last=False)
        return redirect(f"/game/{table.token}", code=303)

    @app.get("/game/<token>")
    def game_page(token: str):
        table = table_of(token)
        return page(f"{table.game.env_id}: you are player {table.seat}", _game_body(table))

    @app.get("/api/game/<token>")
    def game_view(token: str):
        return jsonify(table_of(token).view())

    @app.post("/api/game/<token>/move")
    def game_move(token: str):
        table = table_of(token)
        body = request.get_json(silent=True) or {}
        with table.lock:
            try:
                table.play(body.get("action"))
            except ValueError as err:
                return problem(str(err))
            return jsonify(table.view())

    @app.post("/api/game/<token>/undo")
    def game_undo(token: str):
        table = table_of(token)
        with table.lock:
            try:
                table.undo()
            except ValueError as err:
                return problem(str(err))
            return jsonify(table.view())

    @app.get("/api/game/<token>/hint")
    def game_hint(token: str):
        table = table_of(token)
        with table.lock:
            try:
                return jsonify(table.hint())
            except ValueError as err:
                return problem(str(err))

    @app.get("/replays")
    def replay_list():
        return page("replays", _replays_body(replay_folder))

    @app.get("/replays/<path:name>")
    def replay_view(name: str):
        try:
            path = safe_replay_path(replay_folder, name)
        except PermissionError as err:
            return page("replay refused", f"<main><p class='error'>{html.escape(str(err))}</p></main>"), 403
        except LookupError as err:
            return page("no such replay", f"<main><p class='error'>{html.escape(str(err))}</p></main>"), 404
        seat = request.args.get("seat")
        try:
            with ENGINE_LOCK:
                replay = load_replay(path)
                return replay_page(replay, None if seat in (None, "") else int(seat), back_link="/replays")
        except (ReplayError, ValueError) as err:
            return page("replay refused", f"<main><p class='error'>{html.escape(str(err))}</p></main>"), 400

    @app.get("/leaderboard")
    def leaderboard():
        return page("leaderboard", _leaderboard_body(ladder_folder))

    return app


def make_server(app, host: str = "127.0.0.1", port: int = 8000):
    """A threaded WSGI server for ``app`` (Werkzeug's); ``port=0`` picks a free port (``.port``)."""
    from werkzeug.serving import make_server as _make_server

    return _make_server(host, port, app, threaded=True)


def serve(
    agent_factory: AgentFactory,
    host: str = "127.0.0.1",
    port: int = 8000,
    replays=None,
    ladders: str | Path | None = None,
) -> None:
    """Run the app until interrupted (``mushgym serve``)."""
    server = make_server(create_app(agent_factory, replays, ladders), host, port)
    print(f"mushgym serve: http://{host}:{server.port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
