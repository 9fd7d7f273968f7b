"""Replay files: a whole game in a few lines of JSON, played back exactly from its seed and actions.

    from mushgym.replay import ReplayWriter, load_replay
    with ReplayWriter("game.jsonl", game, seed=7, players=["me", "greedy"]) as rec:
        ...
        rec.move(state, action, explanation)      # before ``state`` takes ``action``
        ...
        rec.end(state)
    replay = load_replay("game.jsonl")              # checked: version, legality, result
    for state, move in replay.positions(): ...      # the state before each move, and the move

Written by ``mushgym.agents.play_games`` / ``tournament`` (``replays=DIR``), ``mushgym eval
--replays DIR``, ``mushgym play --replay FILE`` and the AEC wrapper
:class:`mushgym.wrappers.RecordReplay`; shown by ``mushgym replay FILE --out game.html``
(a page, a GIF or an MP4) and ``mushgym serve``.

The format (JSON lines, UTF-8; ``FORMAT_VERSION`` 1):

* line 1, the header: ``{"format": "mushgym-replay", "format_version": 1, "env_id":
  "fungi_v0", "options": {...every option...}, "seed": 7, "mushgym_version": "0.2.0",
  "state_header": [4 ints], "num_players": 2, "players": ["greedy", "random"]}``.
  ``state_header`` is the game's state header (:mod:`mushgym.core.header`: game id, option
  fingerprint, state layout version): a replay of another version of the env is refused.
* one line per move, in order: ``{"ply": 0, "seat": 1, "action": 17, "move": "words"}``,
  and where the acting agent explained its choice ``"candidates": [{"action": a, "move":
  "words", "weight": w}, ...]`` (its best few, best first), ``"weight_kind"`` (``"visit
  share"`` for a search, ``"probability"`` for a policy network, ``"score"`` for a
  heuristic) and ``"value"`` (its estimate of its own outcome, on its own scale: a search's
  mean value in [0, 1], a network's predicted return).
* the last line once the game is over: ``{"end": true, "plies": n, "returns": [...],
  "truncated": false}``; a game stopped before its end (a player quit) has no such line,
  one ended by an illegal move outside the engine has ``"reason"`` instead of returns.

The engine is deterministic: the seed deals the game and the actions replay it move for
move. :func:`load_replay` checks every line: a malformed line, a replay of an env this
version of mushgym does not have or of another version of one, a move by the wrong seat,
an illegal action or a result that differs are each a :class:`ReplayError` naming the
file, the line and the problem.

Agents explain a move through an optional protocol (no agent is imported here): an agent
with ``explain_moves = True`` sets ``last_explanations`` after each ``act_batch`` call, one
entry per row, each None or ``{"candidates": [(action, weight), ...], "weight_kind": str,
"value": float | None}``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

FORMAT = "mushgym-replay"
FORMAT_VERSION = 1
#: candidate moves kept per move (the best ones)
TOP_CANDIDATES = 5
SUFFIX = ".jsonl"


class ReplayError(ValueError):
    """A replay file that cannot be played back (the message names the file, line and problem)."""


@dataclass
class Move:
    """One recorded move: ``seat`` took ``action`` (``words``) at ``ply``."""

    ply: int
    seat: int
    action: int
    words: str
    candidates: list[dict] | None = None
    weight_kind: str | None = None
    value: float | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"ply": self.ply, "seat": self.seat, "action": self.action, "move": self.words}
        if self.candidates:
            out["candidates"] = self.candidates
            out["weight_kind"] = self.weight_kind
        if self.value is not None:
            out["value"] = self.value
        return out


@dataclass
class Replay:
    """A parsed replay file; :meth:`positions` plays it back (and checks it)."""

    header: dict
    moves: list[Move]
    end: dict | None = None
    path: Path | None = None
    _game: Any = field(default=None, repr=False)
    #: the state after the last move, once :meth:`positions` has run to the end
    final_state: np.ndarray | None = field(default=None, repr=False)

    @property
    def env_id(self) -> str:
        return self.header["env_id"]

    @property
    def options(self) -> dict:
        return dict(self.header.get("options") or {})

    @property
    def seed(self) -> int:
        return int(self.header["seed"])

    @property
    def players(self) -> list[str]:
        return list(self.header.get("players") or [])

    def _where(self, line: int | None = None) -> str:
        name = str(self.path) if self.path is not None else "replay"
        return f"{name}, line {line}" if line is not None else name

    def game(self):
        """The game the replay was recorded with; :class:`ReplayError` if this mushgym does not
        have that env, or has another version of it (another state header)."""
        if self._game is not None:
            return self._game
        from .registry import game as make_game
        from .registry import list_envs

        envs = list_envs()
        recorded = self.header.get("mushgym_version", "?")
        if self.env_id not in envs:
            raise ReplayError(
                f"{self._where()}: a replay of {self.env_id!r} (recorded with mushgym {recorded}), "
                f"an env this mushgym does not have; its envs: {', '.join(envs)}"
            )
        try:
            game = make_game(self.env_id, **self.options)
        except (ValueError, TypeError) as err:
            raise ReplayError(f"{self._where()}: its options do not make a {self.env_id} game: {err}") from None
        header = [int(x) for x in game.header]
        if list(self.header["state_header"]) != header:
            raise ReplayError(
                f"{self._where()}: a replay of another version of {self.env_id} (recorded with mushgym {recorded}, "
                f"state header {self.header['state_header']}; this mushgym {_version()} has {header}: the rules, "
                "options or state layout changed); play it back with the mushgym version that recorded it"
            )
        self._game = game
        return game

    def positions(self) -> Iterator[tuple[np.ndarray, Move]]:
        """``(state before the move, move)`` for every move, the game replayed from its seed; then
        the end is checked against the recorded result. Raises :class:`ReplayError` at the first
        move that does not fit (wrong seat, illegal action, a game already over)."""
        game = self.game()
        state = game.new_state(self.seed)
        for i, move in enumerate(self.moves):
            line = i + 2
            if game.is_terminal(state):
                raise ReplayError(f"{self._where(line)}: move {move.ply} after the end of the game")
            seat = game.current_player(state)
            if move.seat != seat:
                raise ReplayError(
                    f"{self._where(line)}: move {move.ply} is recorded for seat {move.seat}, but seat {seat} is to act"
                )
            mask = game.legal_mask(state)
            if not 0 <= move.action < game.num_actions or not mask[move.action]:
                legal = np.flatnonzero(mask)
                raise ReplayError(
                    f"{self._where(line)}: move {move.ply}, action {move.action} ({move.words!r}) is "
                    f"illegal here; the legal actions are {legal.tolist()[:30]}"
                    f"{' ...' if legal.size > 30 else ''}"
                )
            yield state.copy(), move
            game.step_inplace(state, move.action, check=False)
        self._check_end(game, state)
        self.final_state = state

    def _check_end(self, game, state: np.ndarray) -> None:
        if self.end is None or "returns" not in self.end:
            return
        line = len(self.moves) + 2
        if not game.is_terminal(state):
            raise ReplayError(
                f"{self._where(line)}: the replay says the game ended after {len(self.moves)} moves, but it is not over"
            )
        returns = [float(x) for x in game.returns(state)]
        if not np.allclose(returns, self.end["returns"]):
            raise ReplayError(
                f"{self._where(line)}: the recorded returns {self.end['returns']} differ from the "
                f"replayed ones {returns}"
            )

    def states(self) -> list[np.ndarray]:
        """Every state of the game: before the first move, ..., after the last (checked)."""
        out = [s for s, _ in self.positions()]
        out.append(self.final_state.copy())
        return out


def _version() -> str:
    from . import __version__

    return __version__


# --- reading ---------------------------------------------------------------------------------

_HEADER_KEYS = {"env_id": str, "seed": int, "state_header": list, "options": dict}


def _parse_line(text: str, where: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"{where}: not JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(value, dict):
        raise ReplayError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def _check_header(head: dict, where: str) -> None:
    if head.get("format") != FORMAT:
        raise ReplayError(f'{where}: not a mushgym replay (the first line must have "format": "{FORMAT}")')
    if head.get("format_version") != FORMAT_VERSION:
        raise ReplayError(
            f"{where}: replay format version {head.get('format_version')!r}; this mushgym reads "
            f"version {FORMAT_VERSION}"
        )
    for key, kind in _HEADER_KEYS.items():
        if not isinstance(head.get(key), kind) or isinstance(head.get(key), bool):
            raise ReplayError(f"{where}: the header's {key!r} must be a {kind.__name__}, got {head.get(key)!r}")
    if head["seed"] < 0:
        raise ReplayError(f"{where}: the header's seed must be non-negative, got {head['seed']}")


def _parse_move(row: dict, where: str, ply: int) -> Move:
    for key in ("seat", "action"):
        if not isinstance(row.get(key), int) or isinstance(row.get(key), bool):
            raise ReplayError(f"{where}: a move needs an integer {key!r}, got {row.get(key)!r}")
    if row.get("ply", ply) != ply:
        raise ReplayError(f"{where}: move numbered {row.get('ply')!r}, expected {ply}")
    value = row.get("value")
    return Move(
        ply,
        row["seat"],
        row["action"],
        str(row.get("move", "")),
        row.get("candidates"),
        row.get("weight_kind"),
        None if value is None else float(value),
    )


def parse_replay(text: str, path: Path | None = None) -> Replay:
    """A :class:`Replay` from the text of a replay file (format checked, the game not replayed)."""
    name = str(path) if path is not None else "replay"
    lines = [(i + 1, t) for i, t in enumerate(text.splitlines()) if t.strip()]
    if not lines:
        raise ReplayError(f"{name}: empty file, not a mushgym replay")
    head = _parse_line(lines[0][1], f"{name}, line {lines[0][0]}")
    _check_header(head, f"{name}, line {lines[0][0]}")
    moves: list[Move] = []
    end = None
    for n, t in lines[1:]:
        where = f"{name}, line {n}"
        if end is not None:
            raise ReplayError(f"{where}: a line after the end of the game")
        row = _parse_line(t, where)
        if row.get("end"):
            end = row
            continue
        moves.append(_parse_move(row, where, len(moves)))
    return Replay(head, moves, end, path)


def read_replay(path: str | Path) -> Replay:
    """Parse the replay file at ``path`` (format checked; :func:`load_replay` also replays it)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such replay file") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{path}: not a text file (a replay is UTF-8 JSON lines)") from None
    return parse_replay(text, path)


def load_replay(path: str | Path) -> Replay:
    """Parse the replay at ``path`` and play it back once: every check of the module docstring."""
    replay = read_replay(path)
    for _ in replay.positions():
        pass
    return replay


# --- writing ---------------------------------------------------------------------------------


def move_record(game, state: np.ndarray, action: int, explanation: dict | None = None, ply: int = 0) -> Move:
    """The :class:`Move` of ``action`` in ``state`` (before it is applied), with the acting
    agent's explanation (see the module docstring) turned into words."""
    action = int(action)
    move = Move(ply, int(game.current_player(state)), action, game.action_to_string(state, action))
    if explanation:
        cands = [(int(a), float(w)) for a, w in (explanation.get("candidates") or [])][:TOP_CANDIDATES]
        if cands:
            move.candidates = [
                {"action": a, "move": game.action_to_string(state, a), "weight": round(w, 4)} for a, w in cands
            ]
            move.weight_kind = str(explanation.get("weight_kind") or "weight")
        value = explanation.get("value")
        if value is not None and np.isfinite(value):
            move.value = round(float(value), 4)
    return move


def header_record(game, seed: int, players: Sequence[str] | None = None, **extra: Any) -> dict:
    head = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "env_id": game.env_id,
        "options": dict(game.options),
        "seed": int(seed),
        "mushgym_version": _version(),
        "state_header": [int(x) for x in game.header],
        "num_players": int(game.num_players),
        "players": [str(p) for p in players] if players else [f"player_{i}" for i in range(game.num_players)],
    }
    head.update(extra)
    return head


def end_record(game, state: np.ndarray, plies: int) -> dict:
    return {
        "end": True,
        "plies": int(plies),
        "returns": [float(x) for x in game.returns(state)],
        "truncated": bool(game.is_truncated(state)),
    }


def dumps(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


class ReplayWriter:
    """Writes one game to ``path`` as it is played (each line flushed: a game stopped midway
    leaves a valid replay of its moves so far). See the module docstring."""

    def __init__(self, path: str | Path, game, seed: int, players: Sequence[str] | None = None, **extra: Any) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.plies = 0
        self.ended = False
        self._file = self.path.open("w", encoding="utf-8")
        self._write(header_record(game, seed, players, **extra))

    def _write(self, record: dict) -> None:
        self._file.write(dumps(record) + "\n")
        self._file.flush()

    def move(self, state: np.ndarray, action: int, explanation: dict | None = None) -> Move:
        """Record ``action`` about to be taken in ``state``."""
        move = move_record(self.game, state, action, explanation, self.plies)
        self._write(move.to_json())
        self.plies += 1
        return move

    def end(self, state: np.ndarray | None = None, reason: str | None = None) -> None:
        """The game is over in ``state`` (its returns recorded), or stopped for ``reason``."""
        if self.ended:
            return
        self.ended = True
        if reason is not None:
            self._write({"end": True, "plies": self.plies, "reason": reason})
        elif state is not None and self.game.is_terminal(state):
            self._write(end_record(self.game, state, self.plies))
        self.close()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> "ReplayWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def slug(text: str) -> str:
    """``text`` as a file-name part: a model path becomes its file stem, odd characters dashes."""
    if "/" in text or "\\" in text or text.endswith((".pt", ".zip")):
        text = re.split(r"[/\\]", text.rstrip("/\\"))[-1].rsplit(".", 1)[0] or "model"
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "agent"


class ReplayRecorder:
    """Records games of :func:`mushgym.episodes.play` as replay files in ``folder``: pass it as
    ``on_step`` (with ``explain=True`` for the agents' candidates), then call :meth:`finish`
    with the result. ``games``: the indices (in ``seeds``) to record (default all)."""

    def __init__(
        self,
        game,
        folder: str | Path,
        seeds: Sequence[int],
        players: Sequence[str],
        games: Sequence[int] | None = None,
        prefix: str | None = None,
    ) -> None:
        self.game = game
        self.folder = Path(folder)
        self.seeds = [int(s) for s in seeds]
        self.players = [str(p) for p in players]
        self.wanted = set(range(len(self.seeds)) if games is None else (int(g) for g in games))
        self.prefix = prefix or "-".join([game.env_id] + [slug(p) for p in self.players])
        self.moves: dict[int, list[Move]] = {g: [] for g in self.wanted}
        self.written: list[Path] = []

    def __call__(self, tick) -> None:
        explanations = getattr(tick, "explanations", None)
        for j, g in enumerate(tick.games):
            g = int(g)
            if g not in self.wanted:
                continue
            state = tick.states[tick.rows[j]]
            expl = explanations[j] if explanations is not None else None
            moves = self.moves[g]
            moves.append(move_record(self.game, state, int(tick.actions[j]), expl, len(moves)))

    def path_of(self, g: int) -> Path:
        return self.folder / f"{self.prefix}-seed{self.seeds[g]}{SUFFIX}"

    def finish(self, result: dict) -> list[Path]:
        """Write every recorded game (its end from ``result``'s returns); the paths written."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for g in sorted(self.wanted):
            path = self.path_of(g)
            lines = [header_record(self.game, self.seeds[g], self.players)]
            lines += [m.to_json() for m in self.moves[g]]
            lines.append(
                {
                    "end": True,
                    "plies": len(self.moves[g]),
                    "returns": [float(x) for x in result["returns"][g]],
                    "truncated": bool(result["truncated"][g]),
                }
            )
            path.write_text("".join(dumps(r) + "\n" for r in lines), encoding="utf-8")
            self.written.append(path)
        return self.written
