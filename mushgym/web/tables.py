"""The game tables of ``mushgym serve``: one game of one env between a person and agents.

A :class:`Table` holds the true state on the server and answers only from its person's
seat: :meth:`Table.view` is everything the browser receives (the picture drawn from that
seat's view, the seat's own legal moves in words, the moves played so far in words, except
another seat's move the person could not tell apart from its alternatives, such as a card
played face down: :func:`mushgym.web.page.move_seen`; the result), never the state, the seed
or another seat's cards. ``tests/integrations/test_web.py`` checks
that the view of a state and of the same state with every hidden card redrawn
(``game.perturb_hidden``) are the same, on the HTTP responses.

Agents come from the ``agent_factory`` the command line passes in (``make_agent``): the
library does not import the agents.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..replay import ReplayWriter
from .page import HIDDEN_MOVE, frame, move_seen

#: the engine's scratch arrays are shared per game object: one move at a time
ENGINE_LOCK = threading.RLock()

AgentFactory = Callable[..., Any]


@dataclass
class Played:
    seat: int
    action: int
    words: str
    state_before: np.ndarray = field(repr=False)
    explanation: dict | None = None
    seen: bool = True  # whether the person's seat can tell this move from the other legal ones


class Table:
    """One game: ``seat`` is the person's, every other seat plays ``opponent`` (an agent spec);
    ``hint`` names the agent whose candidates the hint button shows (default: greedy)."""

    def __init__(
        self,
        game,
        seat: int,
        opponent: str,
        agent_factory: AgentFactory,
        hint: str = "greedy",
        seed: int | None = None,
        replays: Path | None = None,
    ) -> None:
        if not 0 <= seat < game.num_players:
            raise ValueError(f"{game.env_id}: no seat {seat}; seats are 0..{game.num_players - 1}")
        self.token = secrets.token_urlsafe(16)
        self.game = game
        self.seat = int(seat)
        self.opponent = opponent
        self.hint_spec = hint
        self._seed = int(secrets.randbits(31) if seed is None else seed)  # never sent to the browser
        self.agents = {
            p: agent_factory(opponent, env_id=game.env_id, seed=self._seed + 1 + p)
            for p in range(game.num_players)
            if p != seat
        }
        self._factory = agent_factory
        self._hint_agent = None
        self.replays = replays
        self.replay_file: Path | None = None
        self.state = game.new_state(self._seed)
        self.history: list[Played] = []
        self.lock = threading.Lock()
        self.run_agents()

    # --- playing -------------------------------------------------------------------------------
    def over(self) -> bool:
        return bool(self.game.is_terminal(self.state))

    def to_act(self) -> int:
        return -1 if self.over() else int(self.game.current_player(self.state))

    def _apply(self, action: int, explanation: dict | None = None) -> None:
        g = self.game
        words = g.action_to_string(self.state, action)
        seen = move_seen(g, self.state, int(action), self.seat)
        self.history.append(Played(self.to_act(), int(action), words, self.state.copy(), explanation, seen))
        self.state = g.step(self.state, int(action))

    def run_agents(self) -> None:
        """Let the agents move until it is the person's turn or the game is over."""
        with ENGINE_LOCK:
            while not self.over() and self.to_act() != self.seat:
                p = self.to_act()
                why = self.agents[p].explain(self.game, self.state, p)
                self._apply(int(why.pop("action")), why or None)
        if self.over():
            self.save_replay()

    def play(self, action: Any) -> None:
        """The person's move ``action`` (an action id from :meth:`view`'s legal moves)."""
        if self.over():
            raise ValueError("the game is over; start a new one")
        if self.to_act() != self.seat:
            raise ValueError(f"it is not your turn (player {self.to_act()} is to act)")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"a move is an action id (an integer), got {action!r}") from None
        with ENGINE_LOCK:
            mask = self.game.legal_mask(self.state)
            if not 0 <= a < mask.shape[0] or not mask[a]:
                raise ValueError(f"action {a} is not one of your legal moves now")
            self._apply(a)
        self.run_agents()

    def undo(self) -> None:
        """Take back the person's last move (and the agents' moves after it)."""
        mine = [i for i, m in enumerate(self.history) if m.seat == self.seat]
        if not mine:
            raise ValueError("no move of yours to take back")
        i = mine[-1]
        self.state = self.history[i].state_before
        del self.history[i:]
        self.replay_file = None

    def hint(self) -> dict:
        """The hint agent's choice and candidates for the person's move (from the person's view)."""
        if self.over() or self.to_act() != self.seat:
            raise ValueError("a hint is for your own move: it is not your turn")
        with ENGINE_LOCK:
            if self._hint_agent is None:
                self._hint_agent = self._factory(self.hint_spec, env_id=self.game.env_id, seed=0)
            why = self._hint_agent.explain(self.game, self.state, self.seat)
            cands = why.get("candidates") or [(why["action"], 1.0)]
            return {
                "agent": self.hint_spec,
                "weight_kind": why.get("weight_kind", ""),
                "value": why.get("value"),
                "candidates": [
                    {
                        "action": int(a),
                        "move": self.game.action_to_string(self.state, int(a)),
                        "weight": round(float(w), 4),
                    }
                    for a, w in cands
                ],
            }

    # --- what the browser receives -------------------------------------------------------------
    def result_text(self) -> str:
        returns = self.game.returns(self.state)
        mine = returns[self.seat]
        best = returns.max()
        verdict = (
            "You win!" if mine == best and (returns == best).sum() == 1 else "A tie." if mine == best else "You lose."
        )
        cut = " (cut by the turn limit)" if self.game.is_truncated(self.state) else ""
        return f"Game over{cut}: returns {', '.join(f'{r:g}' for r in returns)}. {verdict}"

    def view(self) -> dict:
        """Everything the person's page shows, from the person's seat only (module docstring)."""
        g = self.game
        with ENGINE_LOCK:
            turn = self.to_act()
            legal = []
            if turn == self.seat:
                legal = [
                    {"action": int(a), "move": g.action_to_string(self.state, int(a))}
                    for a in g.legal_actions(self.state)
                ]
            picture = frame(g, self.state, self.seat)
        if turn < 0:
            status = self.result_text()
        elif turn == self.seat:
            status = "Your move."
        else:
            status = f"Player {turn} is to act."
        names = ["you" if p == self.seat else self.opponent for p in range(g.num_players)]
        return {
            "env_id": g.env_id,
            "seat": self.seat,
            "players": names,
            "picture": picture,
            "status": status,
            "your_turn": turn == self.seat,
            "over": turn < 0,
            "legal": legal,
            "history": [
                {"player": names[m.seat] + f" ({m.seat})", "move": m.words if m.seen else HIDDEN_MOVE}
                for m in self.history
            ],
            "can_undo": any(m.seat == self.seat for m in self.history),
            "replay": self.replay_file.name if self.replay_file else None,
        }

    def save_replay(self) -> Path | None:
        """At the end of the game, the whole game as a replay file in the replay folder (if any)."""
        if self.replays is None or self.replay_file is not None:
            return self.replay_file
        names = ["you" if p == self.seat else self.opponent for p in range(self.game.num_players)]
        stem = f"{self.game.env_id}-served-{self.token[:8]}"
        with ReplayWriter(Path(self.replays) / f"{stem}.jsonl", self.game, self._seed, names) as rec:
            for m in self.history:
                rec.move(m.state_before, m.action, m.explanation)
            rec.end(self.state)
        self.replay_file = rec.path
        return rec.path
