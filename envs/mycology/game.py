"""MycologyGame: the functional API of Mycology (``mycology_v0``) over the kernels of :mod:`rules`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mushgym.game import Game, GameSpec

from . import rules as R
from .cards import (
    MAX_COST_UNITS, NUM_CARDS, RESOURCE_NAMES, RESOURCE_SHORT, SEASON_NAMES, SPECIALS, Deck, load_deck,
)

PHASE_NAMES = ("act", "pay", "order cards under the deck", "game over")
KIND_NAMES = ("harvest", "trade 3 resources for a resource", "trade 3 resources for a Feast",
              "trade a Feast for a resource", "trade a Feast to advance the season",
              "trade a Feast to replace a field row", "trade 2 Feast to exchange mushrooms")
REWARDS = ("win_loss", "score", "score_diff")
TURN_LIMITS = (120, 240, 480)


def decode_action(action: int) -> tuple:
    """``action`` as a tuple: ('harvest', slot) | ('trade1', r) | ('trade2',) | ('trade3', r)
    | ('trade4',) | ('trade5', row) | ('trade6', seat_offset) | ('end',) | ('pay_res', r)
    | ('pay_magic',) | ('pay_feast',) | ('bottom', column)."""
    a = int(action)
    if not 0 <= a < R.NUM_ACTIONS:
        raise ValueError(f"mycology_v0: action {a} out of range 0..{R.NUM_ACTIONS - 1}")
    if a < R.A_T1:
        return ("harvest", a)
    if a < R.A_T2:
        return ("trade1", a - R.A_T1)
    if a == R.A_T2:
        return ("trade2",)
    if a < R.A_T4:
        return ("trade3", a - R.A_T3)
    if a == R.A_T4:
        return ("trade4",)
    if a < R.A_T6:
        return ("trade5", a - R.A_T5)
    if a < R.A_END:
        return ("trade6", a - R.A_T6 + 1)
    if a == R.A_END:
        return ("end",)
    if a < R.A_PAY_MAGIC:
        return ("pay_res", a - R.A_PAY_RES)
    if a == R.A_PAY_MAGIC:
        return ("pay_magic",)
    if a == R.A_PAY_FEAST:
        return ("pay_feast",)
    return ("bottom", a - R.A_BOTTOM)


def encode_action(kind: str, arg: int = 0) -> int:
    """Inverse of :func:`decode_action`: ``encode_action('harvest', 3)``, ``encode_action('trade6', 1)``."""
    base = {"harvest": R.A_HARVEST, "trade1": R.A_T1, "trade2": R.A_T2, "trade3": R.A_T3, "trade4": R.A_T4,
            "trade5": R.A_T5, "trade6": R.A_T6 - 1, "end": R.A_END, "pay_res": R.A_PAY_RES,
            "pay_magic": R.A_PAY_MAGIC, "pay_feast": R.A_PAY_FEAST, "bottom": R.A_BOTTOM}
    if kind not in base:
        raise ValueError(f"unknown action kind {kind!r}; kinds are {list(base)}")
    return base[kind] + int(arg)


def obs_fields(n: int) -> list[tuple[str, int]]:
    """The observation as (name, length) blocks, in order (documented in env.py)."""
    f = [("season one-hot (Winter, Spring, Summer, Fall)", 4),
         ("phase one-hot (act, pay, order under deck)", 3),
         ("actions left one-hot (0, 1, 2)", 3),
         ("last dice total one-hot (2..12)", 11),
         ("player to act, one-hot by seat offset (0 = observer)", n),
         ("turns played / turn limit", 1),
         ("cards in the deck / 84", 1),
         ("payment type one-hot (specific, any resources, Feast)", 3),
         ("specific resources owed (OP, PP, WR, SY, SD)", 5),
         ("ANY resources owed", 1),
         ("Feast owed", 1),
         ("payment order key / 10", 1),
         ("pending action one-hot (harvest, trade 1..6)", 7),
         ("pending argument one-hot (field slot / resource / row / seat offset)", 8),
         ("cards waiting to go under the deck: 4 x card features", 4 * R.CF),
         ("field: 8 slots x (present, card features)", R.FIELD_SIZE * (1 + R.CF))]
    for k in range(n):
        who = "observer" if k == 0 else f"seat +{k}"
        f.append((f"{who}: resources OP PP WR SY SD, Feast, Magic, Poison, score, basket fill W Sp Su F "
                  f"(/capacity), stinkhorn on top, first player", 15))
        f.append((f"{who}: baskets, 10 slots (W; Sp x2; Su x3; F x4, bottom to top) x (present, card features)",
                  R.BASKET_SLOTS * (1 + R.CF)))
    f.append(("cards still in the deck (card id one-hot set; order hidden)", NUM_CARDS))
    assert sum(x for _, x in f) == R.obs_size(n)
    return f


CARD_FEATURES = ("points/10", "winter", "spring", "summer", "fall", "cost OP/4", "cost PP/4", "cost WR/4",
                 "cost SY/4", "cost SD/4", "feast/4", "poison", "stinkhorn", "magic",
                 "poison resource OP", "PP", "WR", "SY", "SD")


class MycologyGame(Game):
    """Mycology for 2 to 6 players.

    Options: ``num_players`` (2..6, default 2); ``reward`` = "win_loss" (default: +1 to a
    sole winner, -1/(n-1) to each other player; k tied winners each get (n-k)/(k(n-1))),
    "score" (each player's final score) or "score_diff" (own final score minus the mean of
    the others'); ``turn_limit`` (120, 240, 480 turns, default 240, rounded up to whole
    rounds: the game also ends, scored normally, after that many turns).
    """

    env_id: ClassVar[str] = "mycology_v0"
    kernels = R
    option_choices: ClassVar[dict[str, tuple]] = {
        "num_players": (2, 3, 4, 5, 6),
        "reward": REWARDS,
        "turn_limit": TURN_LIMITS,
    }
    default_options: ClassVar[dict[str, Any]] = {"num_players": 2, "reward": "win_loss", "turn_limit": 240}
    #: A card file to load instead of the designed one (subclass and set it to play the real cards).
    deck_path: ClassVar[str | None] = None

    layout = R.L

    # --- construction ------------------------------------------------------------
    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        self.deck: Deck = load_deck(self.deck_path)
        n = options["num_players"]
        d = self.deck
        cfg = np.zeros(R.CFG_SIZE, np.int64)
        cfg[R.CFG_NUM_PLAYERS] = n
        cfg[R.CFG_REWARD] = REWARDS.index(options["reward"])
        self.max_turns = -(-options["turn_limit"] // n) * n
        cfg[R.CFG_MAX_TURNS] = self.max_turns
        cfg[R.CFG_POINTS:R.CFG_POINTS + NUM_CARDS] = d.points
        cfg[R.CFG_SEASONS:R.CFG_SEASONS + NUM_CARDS] = d.seasons
        cfg[R.CFG_FEAST:R.CFG_FEAST + NUM_CARDS] = d.feast
        cfg[R.CFG_SPECIAL:R.CFG_SPECIAL + NUM_CARDS] = d.special
        cfg[R.CFG_POISON_RES:R.CFG_POISON_RES + NUM_CARDS] = d.poison_res
        cfg[R.CFG_COST:R.CFG_COST + NUM_CARDS * 5] = d.cost.ravel()
        return cfg

    def steps_per_action(self) -> int:
        """Most decisions one action can take: the choice, then one per unit paid or card ordered."""
        max_cost = int(self.deck.cost.sum(axis=1).max())
        return 1 + max(max_cost, 3, 1 + 3, 2)

    def max_game_length(self) -> int:
        """Proven bound: at most ``max_turns`` turns (the turn limit ends the game), each of at
        most 2 actions (the turn ends automatically after the second), each of at most
        ``steps_per_action`` decisions; an early end of turn is one decision replacing an action."""
        return self.max_turns * 2 * self.steps_per_action()

    def token_bound(self) -> int:
        """Bound on a player's resources + Feast + Magic: only dice rolls (+1 each) and harvests
        (+Feast +1 Magic, at most 10 per player) increase the sum; every trade lowers or keeps it."""
        return 5 + 2 + self.max_turns + 10 * (int(self.deck.feast.max()) + 1)

    def score_bounds(self) -> tuple[int, int]:
        best_cards = int(np.sort(self.deck.points)[-10:].sum())
        # Poison: at most one token per poison card held (<= 10) per roll
        return -2 * 10 * self.max_turns, best_cards + self.token_bound()

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        n = options["num_players"]
        lo, hi = self.score_bounds()
        zero_sum = options["reward"] != "score"
        if options["reward"] == "win_loss":
            rr = (-1.0, 1.0)
        elif options["reward"] == "score":
            rr = (float(lo), float(hi))
        else:
            rr = (float(lo - hi), float(hi - lo))
        return GameSpec(
            env_id=self.env_id, num_players=n, num_actions=R.NUM_ACTIONS,
            observation_shape=(R.obs_size(n),), state_size=R.STATE_SIZE,
            max_game_length=self.max_game_length(), reward_range=rr,
            perfect_information=False, chance=True, zero_sum=zero_sum, options=dict(options),
        )

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        n = self.options["num_players"]
        d = self.deck
        size = R.obs_size(n)
        lo = np.zeros(size, np.float32)
        hi = np.ones(size, np.float32)
        cf_hi = np.ones(R.CF, np.float32)
        cf_hi[0] = float(d.points.max()) / 10.0
        cf_hi[5:10] = d.cost.max(axis=0).astype(np.float32) / 4.0
        cf_hi[10] = float(d.feast.max()) / 4.0
        tb = float(self.token_bound())
        smin, smax = self.score_bounds()
        o = 0
        for name, length in obs_fields(n):
            if name.startswith("specific resources owed"):
                hi[o:o + 5] = d.cost.max(axis=0)
            elif name.startswith("ANY resources"):
                hi[o] = 3
            elif name.startswith("Feast owed"):
                hi[o] = 2
            elif name.startswith("cards waiting"):
                hi[o:o + length] = np.tile(cf_hi, 4)
            elif name.startswith("field") or "baskets" in name:
                hi[o:o + length] = np.tile(np.concatenate([[1.0], cf_hi]), length // (1 + R.CF))
            elif "resources OP PP" in name:
                hi[o:o + 7] = tb
                hi[o + 7] = 10 * self.max_turns
                lo[o + 8] = smin
                hi[o + 8] = smax
            o += length
        return lo, hi

    # --- text ----------------------------------------------------------------------
    def card_name(self, card: int) -> str:
        return self.deck.names[card] if card >= 0 else "-"

    def card_text(self, card: int) -> str:
        if card < 0:
            return "(empty)"
        d = self.deck
        seasons = "".join("WPSF"[s] if (d.seasons[card] >> s) & 1 else "." for s in range(4))
        cost = "+".join(f"{int(d.cost[card, r])}{RESOURCE_SHORT[r]}" for r in range(5) if d.cost[card, r])
        sp = SPECIALS[int(d.special[card])]
        extra = ""
        if sp == "poison":
            extra = f" poison:{RESOURCE_SHORT[int(d.poison_res[card])]}"
        elif sp != "none":
            extra = f" {sp}"
        return f"#{card} {d.names[card]} [{int(d.points[card])}pt {seasons} {cost} {int(d.feast[card])}F{extra}]"

    def action_to_string(self, state: np.ndarray, action: int) -> str:
        kind = decode_action(action)
        n = self.num_players
        p = int(state[R.CUR])
        k = kind[0]
        if k == "harvest":
            return f"harvest field slot {kind[1]}: {self.card_text(int(state[R.FIELD + kind[1]]))}"
        if k == "trade1":
            return f"trade 3 resources for 1 {RESOURCE_NAMES[kind[1]]}"
        if k == "trade2":
            return "trade 3 resources for 1 Feast"
        if k == "trade3":
            return f"trade 1 Feast for 1 {RESOURCE_NAMES[kind[1]]}"
        if k == "trade4":
            return "trade 1 Feast to advance the season"
        if k == "trade5":
            return f"trade 1 Feast to replace the {('top', 'bottom')[kind[1]]} row of the field"
        if k == "trade6":
            return f"trade 2 Feast to exchange top mushrooms of the current season with player {(p + kind[1]) % n}"
        if k == "end":
            return "end the turn"
        if k == "pay_res":
            return f"pay 1 {RESOURCE_NAMES[kind[1]]}"
        if k == "pay_magic":
            t = int(state[R.DEBT_TYPE])
            if t == R.D_SPECIFIC:
                r = next((r for r in range(5) if state[R.DEBT + r] > 0), 0)
                return f"pay 1 Magic token as {RESOURCE_NAMES[r]}"
            return "pay 1 Magic token" + (" as a Feast" if t == R.D_FEAST else " as a resource")
        if k == "pay_feast":
            return "pay 1 Feast"
        return f"put {self.card_text(int(state[R.BOTTOM_CARDS + kind[1]]))} under the deck"

    def view(self, state: np.ndarray) -> dict[str, object]:
        return R.L.view(state)

    def _player_lines(self, state: np.ndarray, p: int) -> list[str]:
        res = " ".join(f"{RESOURCE_SHORT[r]}{int(state[R.RES + p * 5 + r])}" for r in range(5))
        lines = [f"player {p}: {res} Feast{int(state[R.FEAST + p])} Magic{int(state[R.MAGIC + p])} "
                 f"Poison{int(state[R.POISON + p])} score {int(state[R.SCORE + p])}"]
        for s in range(4):
            cnt = int(state[R.BCOUNT + p * 4 + s])
            cards = [self.card_text(int(state[R.BASKET + p * 10 + int(R.BASKET_OFF[s]) + k])) for k in range(cnt)]
            lines.append(f"  {SEASON_NAMES[s]:6} {cnt}/{int(R.CAPACITY[s])}: " + ("; ".join(cards) if cards else "-"))
        return lines

    def _table_lines(self, state: np.ndarray) -> list[str]:
        n = self.num_players
        ph = int(state[R.PHASE])
        roll = int(state[R.ROLL])
        d1 = int(state[R.DIE1])
        lines = [f"season {SEASON_NAMES[int(state[R.SEASON])]}; turn {int(state[R.TURN])}/{self.max_turns}; "
                 f"first player {int(state[R.FIRST])}; last roll {d1}+{roll - d1}={roll}"]
        if ph == R.PH_OVER:
            ender = int(state[R.ENDER])
            how = f"player {ender} filled their baskets" if ender >= 0 else "turn limit reached"
            lines.append(f"game over ({how})")
        else:
            lines.append(f"to act: player {int(state[R.CUR])}, phase {PHASE_NAMES[ph]}, "
                         f"actions left {int(state[R.ACTIONS_LEFT])}")
        if ph in (R.PH_PAY, R.PH_BOTTOM):
            kind = int(state[R.PEND_KIND])
            arg = int(state[R.PEND_ARG])
            lines.append(f"pending: {KIND_NAMES[kind]} (arg {arg})")
        if ph == R.PH_PAY:
            t = int(state[R.DEBT_TYPE])
            if t == R.D_SPECIFIC:
                owed = " ".join(f"{RESOURCE_SHORT[r]}{int(state[R.DEBT + r])}" for r in range(5) if state[R.DEBT + r])
            elif t == R.D_ANY:
                owed = f"{int(state[R.DEBT_ANY])} ANY resources"
            else:
                owed = f"{int(state[R.DEBT_FEAST])} Feast"
            lines.append(f"owed: {owed} (order key {int(state[R.PAY_MIN])})")
        if ph == R.PH_BOTTOM:
            lines.append("to put under the deck: " + "; ".join(
                f"[{j}] {self.card_text(int(state[R.BOTTOM_CARDS + j]))}" for j in range(4)
                if state[R.BOTTOM_CARDS + j] >= 0))
        for row in range(2):
            lines.append(f"field {('top', 'bottom')[row]}: " + "; ".join(
                f"[{row * 4 + j}] {self.card_text(int(state[R.FIELD + row * 4 + j]))}" for j in range(4)))
        for p in range(n):
            lines.extend(self._player_lines(state, p))
        return lines

    def state_to_string(self, state: np.ndarray) -> str:
        self._check_state(state)
        lines = self._table_lines(state)
        nd = int(state[R.DECK_N])
        lines.append(f"deck ({nd} cards, top first): " + " ".join(str(int(state[R.DECK + i])) for i in range(nd - 1, -1, -1)))
        return "\n".join(lines)

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        self._check_state(state)
        lines = self._table_lines(state)
        lines.append(f"deck: {int(state[R.DECK_N])} cards")
        if player is not None:
            lines.insert(0, f"(view of player {player})")
        return "\n".join(lines)

    # --- checks ----------------------------------------------------------------------
    def card_locations(self, state: np.ndarray) -> list[list[str]]:
        where: list[list[str]] = [[] for _ in range(NUM_CARDS)]
        for i in range(int(state[R.DECK_N])):
            c = int(state[R.DECK + i])
            assert 0 <= c < NUM_CARDS, f"deck position {i} holds {c}, not a card id"
            where[c].append("deck")
        for j in range(R.FIELD_SIZE):
            c = int(state[R.FIELD + j])
            if c >= 0:
                assert c < NUM_CARDS, f"field slot {j} holds {c}, not a card id"
                where[c].append(f"field {j}")
        for j in range(4):
            c = int(state[R.BOTTOM_CARDS + j])
            if c >= 0:
                assert c < NUM_CARDS, f"bottom slot {j} holds {c}"
                where[c].append(f"going under the deck {j}")
        for p in range(self.num_players):
            for s in range(4):
                for k in range(int(state[R.BCOUNT + p * 4 + s])):
                    c = int(state[R.BASKET + p * 10 + int(R.BASKET_OFF[s]) + k])
                    assert 0 <= c < NUM_CARDS, f"player {p} {SEASON_NAMES[s]} basket slot {k} holds {c}"
                    where[c].append(f"player {p} {SEASON_NAMES[s]} basket")
        return where

    def check_invariants(self, state: np.ndarray) -> None:
        self._check_state(state)
        n = self.num_players
        d = self.deck
        where = self.card_locations(state)
        for c, places in enumerate(where):
            assert len(places) == 1, f"card {c} ({d.names[c]}) is in {len(places)} places: {places}"
        nd = int(state[R.DECK_N])
        assert 0 <= nd <= NUM_CARDS, f"deck count {nd} out of range"
        ph = int(state[R.PHASE])
        assert ph in (R.PH_MAIN, R.PH_PAY, R.PH_BOTTOM, R.PH_OVER), f"unknown phase {ph}"
        if ph != R.PH_BOTTOM:
            assert all(state[R.BOTTOM_CARDS + j] == -1 for j in range(4)), "cards waiting to go under the deck outside that phase"
        if ph != R.PH_PAY:
            assert state[R.DEBT:R.DEBT + 5].sum() == 0 and state[R.DEBT_ANY] == 0 and state[R.DEBT_FEAST] == 0, \
                "a debt outstanding outside the payment phase"
        assert 0 <= state[R.SEASON] < 4, f"season {int(state[R.SEASON])} out of range"
        assert 0 <= state[R.CUR] < n, f"current player {int(state[R.CUR])} out of range"
        assert 0 <= state[R.ACTIONS_LEFT] <= 2, f"actions left {int(state[R.ACTIONS_LEFT])} out of range"
        assert 0 <= state[R.TURN] <= self.max_turns, f"turn {int(state[R.TURN])} beyond the limit {self.max_turns}"
        assert 2 <= state[R.ROLL] <= 12, f"dice total {int(state[R.ROLL])} impossible"
        if ph != R.PH_OVER:
            for j in range(R.FIELD_SIZE):
                assert state[R.FIELD + j] >= 0 or nd == 0, f"field slot {j} empty while the deck has {nd} cards"
        full = []
        for p in range(n):
            for r in range(5):
                assert state[R.RES + p * 5 + r] >= 0, f"player {p} has negative {RESOURCE_NAMES[r]}"
            for name, off in (("Feast", R.FEAST), ("Magic", R.MAGIC), ("Poison", R.POISON)):
                assert state[off + p] >= 0, f"player {p} has negative {name} tokens"
            total = 0
            points = 0
            for s in range(4):
                cnt = int(state[R.BCOUNT + p * 4 + s])
                assert 0 <= cnt <= R.CAPACITY[s], f"player {p} {SEASON_NAMES[s]} basket holds {cnt} > capacity {int(R.CAPACITY[s])}"
                total += cnt
                for k in range(int(R.CAPACITY[s])):
                    c = int(state[R.BASKET + p * 10 + int(R.BASKET_OFF[s]) + k])
                    if k < cnt:
                        assert (d.seasons[c] >> s) & 1, f"player {p} holds {d.names[c]} in the {SEASON_NAMES[s]} basket, not its season"
                        points += int(d.points[c])
                    else:
                        assert c == -1, f"player {p} {SEASON_NAMES[s]} basket slot {k} above the stack is not empty"
            if total == 10:
                full.append(p)
            score = points + int(state[R.FEAST + p]) + int(state[R.MAGIC + p]) - 2 * int(state[R.POISON + p])
            assert state[R.SCORE + p] == score, (
                f"player {p} score {int(state[R.SCORE + p])} != cards {points} + Feast + Magic - 2 x Poison = {score}")
            tb = self.token_bound()
            tokens = int(state[R.RES + p * 5:R.RES + p * 5 + 5].sum() + state[R.FEAST + p] + state[R.MAGIC + p])
            assert tokens <= tb, f"player {p} holds {tokens} tokens, above the proven bound {tb}"
        ender = int(state[R.ENDER])
        if ph == R.PH_OVER:
            assert full == ([ender] if ender >= 0 else []), f"game over with full baskets {full}, ender {ender}"
            if ender == -1:
                assert state[R.TURN] == self.max_turns, "turn-limit end before the limit"
        else:
            assert ender == -2 and not full, f"game running with full baskets {full}"

    def perturb_hidden(self, state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
        """Reorder the deck (nothing else is hidden). Returns an unchanged copy only if the
        deck has fewer than 2 cards."""
        other = state.copy()
        nd = int(state[R.DECK_N])
        if nd < 2:
            return other
        deck = other[R.DECK:R.DECK + nd]
        for _ in range(10):
            rng.shuffle(deck)
            if not np.array_equal(deck, state[R.DECK:R.DECK + nd]):
                break
        else:
            deck[0], deck[1] = deck[1], deck[0]
        return other
