"""Scenario builder for Mycelium tests: a state edited by name, then driven action by action."""

from __future__ import annotations

import numpy as np

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import MUSHLING_NAMES
from mushgym.envs.mycelium.game import MyceliumGame

K = {name: i for i, name in enumerate(MUSHLING_NAMES)}


def ring(board, p):
    """The edges of ``p``'s Colony ring (its permanent Paths)."""
    return [e for e in range(len(board.edges)) if board.permanent[e] == p]


def nbrs(board, e):
    return [int(x) for x in board.edge_nbr[e] if x >= 0]


def spokes(board, p):
    """Non-permanent edges touching ``p``'s Colony ring."""
    own = set(ring(board, p))
    return sorted({n for e in own for n in nbrs(board, e) if board.permanent[n] < 0})


class Scenario:
    """A game at the start of ``tp``'s Action Phase (turn 1), hands empty unless given.

    Built by ``MyceliumGame.state_from``: the dealt game's description (``describe``) with the
    turn, the phase and empty hands, then ``position`` (any fields of ``state_from``: paths,
    hands, tokens, a combat in progress, pending decisions, ...) over it."""

    def __init__(self, num_players=4, tp=0, seed=0, position=None, game_class=MyceliumGame, **options):
        self.game = game_class(num_players=num_players, **options)
        self.n = num_players
        self.board = self.game.board
        dealt = self.game.describe(self.game.new_state(seed), hidden=True)
        for hidden in ("deck", "hands", "known"):
            dealt.pop(hidden)
        dealt.update(phase="action", turn_player=tp, first_player=(tp - 1) % self.game.num_seats, turn=1, seed=seed)
        for field, value in (position or {}).items():  # dicts by seat or location: merged over the dealt ones
            both = isinstance(value, dict) and isinstance(dealt.get(field), dict)
            dealt[field] = {**dealt[field], **value} if both else value
        self.s = self.game.state_from(**dealt)
        self.v = rules.STATE.arrays(self.s)
        self.deck_top = []
        if "deck" not in (position or {}):
            self.rebuild_deck()

    # --- editing ------------------------------------------------------------------------
    def give(self, p, *names):
        for name in names:
            self.v["hand"][p, K[name]] += 1
        self.rebuild_deck()

    def discard(self, *names):
        for name in names:
            self.v["discard"][K[name]] += 1
        self.rebuild_deck()

    def top(self, *names):
        """The next cards drawn, in order."""
        self.deck_top = [K[x] for x in names]
        self.rebuild_deck()

    def nutrient_on_top(self, kind):
        """A nutrient card of ``kind`` (an index) on top of the nutrient deck, swapped in from the
        deck or the discard pile so that every nutrient card stays in one place."""
        v = self.v
        n = int(v["ndeck_n"])
        top = int(v["ndeck"][n - 1])
        below = np.flatnonzero(v["ndeck"][:n] == kind)
        if len(below):
            v["ndeck"][below[0]] = top
        else:
            assert v["ndiscard"][kind] > 0, "no nutrient card of that kind to put on top"
            v["ndiscard"][kind] -= 1
            v["ndiscard"][top] += 1
        v["ndeck"][n - 1] = kind

    def rebuild_deck(self):
        v = self.v
        rest = self.game.mushlings.copies - v["hand"].sum(axis=0) - v["discard"] - v["limbo"] - v["carea"]
        for t in self.deck_top:
            rest[t] -= 1
        assert (rest >= 0).all(), "more cards than copies"
        deck = list(np.repeat(np.arange(rules.NUM_MUSHLING_KINDS), rest)) + self.deck_top[::-1]
        v["deck"][...] = 0
        v["deck"][: len(deck)] = deck
        v["deck_n"][...] = len(deck)

    def path(self, p, e):
        slot = 0 if self.v["paths"][e, 0] == 0 else 1
        self.v["paths"][e, slot] = p + 1
        self.v["npaths"][p] += 1

    # --- board geometry ------------------------------------------------------------------
    def ring(self, p):
        return ring(self.board, p)

    def nbrs(self, e):
        return nbrs(self.board, e)

    def spokes(self, p):
        return spokes(self.board, p)

    def gloc(self, name):
        return self.board.gloc_names.index(name)

    # --- playing --------------------------------------------------------------------------
    def legal(self, name, *args):
        return bool(self.game.legal_mask(self.s)[self.game.encode_action(name, *args)])

    def act(self, name, *args, player=None):
        if player is not None:
            assert self.who() == player, f"expected player {player} to act, {self.who()} acts:\n{self.text()}"
        a = self.game.encode_action(name, *args)
        self.game.step_inplace(self.s, a)
        self.game.check_invariants(self.s)

    def end_turn_on_mush_room(self, next_player):
        """The turn player ends its Action Phase, places its gatherers on the Mush Room, discards
        down to 7, and every prompt is passed until ``next_player`` acts."""
        self.act("end_actions")
        for _ in range(3):
            self.act("place_gatherer", self.gloc("Mush Room"))
        while self.v["phase"] == rules.PH_DISCARD:
            self.act("card", int(np.flatnonzero(self.v["hand"][int(self.v["turn_player"])])[0]))
        self.pass_all_but(next_player)

    def who(self):
        return self.game.current_player(self.s)

    def top_kind(self):
        n = int(self.v["decisions_n"])
        return int(self.v["decisions"][n - 1][0]) if n else -1

    def pass_all_but(self, *keep):
        """Answer 'pass' for every prompt until a player in ``keep`` (or the turn player's menu) acts."""
        while self.v["decisions_n"] > 0 and self.who() not in keep and self.legal("pass"):
            self.act("pass")

    def text(self):
        return self.game.state_to_string(self.s)
