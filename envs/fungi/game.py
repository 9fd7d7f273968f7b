"""FungiGame: the functional API of Fungi (``fungi_v0``) over the kernels of :mod:`rules`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mushgym.game import Game, GameSpec

from . import rules as R
from .cards import (
    BASKET, BUTTER, CIDRE, FLY, KIND_NAMES, KIND_SHORT, MOON, MUSHROOMS, NHAND, NIGHT0, NKINDS,
    NNIGHT, NTYPES, PAN, Deck, load_deck,
)

PHASE_NAMES = ("act", "cook: choose pan / butter / cidre", "fly agaric: discard")


def decode_action(action: int) -> tuple:
    """``action`` as a tuple: ('take', pos) | ('decay',) | ('pan',) | ('cook'|'sell', t, n, f)
    | ('finish', src, b, c) | ('discard', kind)."""
    a = int(action)
    if not 0 <= a < R.NUM_ACTIONS:
        raise ValueError(f"fungi_v0: action {a} out of range 0..{R.NUM_ACTIONS - 1}")
    if a < R.A_DECAY:
        return ("take", a - R.A_TAKE)
    if a == R.A_DECAY:
        return ("decay",)
    if a == R.A_PAN:
        return ("pan",)
    if a < R.A_FINISH:
        kind = "cook" if a < R.A_SELL else "sell"
        x = a - (R.A_COOK if a < R.A_SELL else R.A_SELL)
        f = x % R.F_VALUES
        tn = x // R.F_VALUES
        return (kind, tn // R.N_VALUES, tn % R.N_VALUES, f)
    if a < R.A_DISCARD:
        x = a - R.A_FINISH
        return ("finish", x // (R.B_VALUES * R.C_VALUES), (x // R.C_VALUES) % R.B_VALUES, x % R.C_VALUES)
    return ("discard", a - R.A_DISCARD)


def encode_action(*parts) -> int:
    """Inverse of :func:`decode_action`: ``encode_action('cook', t, n, f)`` etc."""
    kind = parts[0]
    if kind == "take":
        return R.A_TAKE + int(parts[1])
    if kind == "decay":
        return R.A_DECAY
    if kind == "pan":
        return R.A_PAN
    if kind in ("cook", "sell"):
        t, n, f = (int(x) for x in parts[1:])
        base = R.A_COOK if kind == "cook" else R.A_SELL
        return base + (t * R.N_VALUES + n) * R.F_VALUES + f
    if kind == "finish":
        src, b, c = (int(x) for x in parts[1:])
        return R.A_FINISH + (src * R.B_VALUES + b) * R.C_VALUES + c
    if kind == "discard":
        return R.A_DISCARD + int(parts[1])
    raise ValueError(f"unknown action kind {kind!r}")


def _counts(counts, names=KIND_SHORT) -> str:
    parts = [f"{int(n)}x{names[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "-"


class FungiGame(Game):
    """Fungi for two players. Options: ``reward`` = "win_loss" (+1/-1/0, ties broken by
    mushrooms cooked) or "score_diff" (own flavor points minus the opponent's)."""

    env_id: ClassVar[str] = "fungi_v0"
    kernels = R
    option_choices: ClassVar[dict[str, tuple]] = {
        "num_players": (2,),
        "reward": ("win_loss", "score_diff"),
    }
    default_options: ClassVar[dict[str, Any]] = {"num_players": 2, "reward": "win_loss"}
    #: A deck file to load instead of the published one (subclass and set it to play your own deck).
    deck_path: ClassVar[str | None] = None

    layout = R.L
    obs_layout = R.OL

    # --- construction ------------------------------------------------------------
    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        self.deck: Deck = load_deck(self.deck_path)
        cfg = np.zeros(R.CFG_SIZE, np.int64)
        cfg[R.CFG_REWARD] = 1 if options["reward"] == "score_diff" else 0
        cfg[R.CFG_START_PANS] = self.deck.starting_pans
        cfg[R.CFG_COPIES:R.CFG_COPIES + NKINDS] = self.deck.copies
        cfg[R.CFG_FLAVOR:R.CFG_FLAVOR + NKINDS] = self.deck.flavor
        cfg[R.CFG_STICKS:R.CFG_STICKS + NKINDS] = self.deck.sticks
        cfg[R.CFG_UNITS:R.CFG_UNITS + NKINDS] = self.deck.units
        return cfg

    def max_score(self) -> int:
        d = self.deck
        s = sum(int(d.copies[k] * d.units[k] * d.flavor[k]) for k in range(NIGHT0 + NNIGHT))
        return s + int(d.copies[BUTTER] * d.flavor[BUTTER] + d.copies[CIDRE] * d.flavor[CIDRE])

    def max_sticks(self) -> int:
        d = self.deck
        return sum(int(d.copies[k] * d.units[k] * d.sticks[k]) for k in range(NIGHT0 + NNIGHT))

    def max_game_length(self) -> int:
        """A proven bound on the decisions in one game (see RULES.md, "Game length").

        turns <= cards in Forest + draw pile after the deal (each turn, forced passes
        included, moves one of them to the decay pile, or the game ends);
        cook follow-ups <= pans in the game (each cook fills a distinct pan);
        discards <= 7 per Fly agaric trim, and at most one trim per Fly agaric.
        """
        turns = self.deck.draw_pile_size - 2 * R.START_HAND
        return int(turns + self.deck.copies[PAN] + 7 * self.deck.copies[FLY])

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        if options["reward"] == "score_diff":
            m = float(self.max_score())
            rr = (-m, m)
        else:
            rr = (-1.0, 1.0)
        return GameSpec(
            env_id=self.env_id, num_players=2, num_actions=R.NUM_ACTIONS,
            observation_shape=(R.OBS_SIZE,), state_size=R.STATE_SIZE,
            max_game_length=self.max_game_length(), reward_range=rr,
            perfect_information=False, chance=True, zero_sum=True, options=dict(options),
        )

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        d = self.deck
        lo = np.zeros(R.OBS_SIZE, np.float32)
        hi = np.zeros(R.OBS_SIZE, np.float32)
        copies = d.copies.astype(np.float32)
        max_hand = float(R.BASE_LIMIT + R.BASKET_BONUS * d.copies[BASKET])
        hi[R.O_HAND:R.O_HAND + NHAND] = copies[:NHAND]
        hi[R.O_OPP_KNOWN:R.O_OPP_KNOWN + NHAND] = copies[:NHAND]
        hi[R.O_HAND_N] = hi[R.O_OPP_HAND_N] = max_hand + 3   # a Fly agaric from the decay: up to 3 over before trimming
        hi[R.O_LIMIT] = max_hand
        for o in (R.O_MY_DISP, R.O_OPP_DISP):
            hi[o + R.DISP_BASKETS] = copies[BASKET]
            hi[o + R.DISP_STICKS] = self.max_sticks()
            hi[o + R.DISP_EMPTY_PANS] = copies[PAN]
            hi[o + R.DISP_FLY_NEW] = copies[FLY]
            hi[o + R.DISP_FLY_OLD] = copies[FLY]
            hi[o + R.DISP_NCOOKED] = copies[PAN]
            hi[o + R.DISP_COOKED_F:o + R.DISP_COOKED_F + NTYPES] = copies[:NTYPES]
            hi[o + R.DISP_COOKED_NT:o + R.DISP_COOKED_NT + NNIGHT] = copies[NIGHT0:NIGHT0 + NNIGHT]
            hi[o + R.DISP_BUTTER] = copies[BUTTER]
            hi[o + R.DISP_CIDRE] = copies[CIDRE]
            hi[o + R.DISP_SCORE] = self.max_score()
            hi[o + R.DISP_UNITS] = sum(int(d.copies[k] * d.units[k]) for k in range(NIGHT0 + NNIGHT))
        hi[R.O_FOREST:R.O_FOREST + R.FOREST_SIZE * NKINDS] = 1
        hi[R.O_FOREST_N] = R.FOREST_SIZE
        hi[R.O_DECAY:R.O_DECAY + NKINDS] = np.minimum(copies, R.DECAY_MAX)
        hi[R.O_DECAY_N] = R.DECAY_MAX
        hi[R.O_DISCARD:R.O_DISCARD + NKINDS] = copies
        hi[R.O_DRAW_N] = d.draw_pile_size
        hi[R.O_NIGHT_N] = copies[NIGHT0:NIGHT0 + NNIGHT].sum()
        hi[R.O_TO_ACT] = 1
        hi[R.O_PHASE:R.O_PHASE + 3] = 1
        hi[R.O_PEND_TYPE:R.O_PEND_TYPE + NTYPES] = 1
        hi[R.O_PEND_UNITS] = max(int(d.copies[t] + (d.copies[NIGHT0 + t] * d.units[NIGHT0 + t] if t < NNIGHT else 0))
                                 for t in range(NTYPES))
        hi[R.O_TRIM_LEFT] = 7
        hi[R.O_I_STARTED] = 1
        return lo, hi

    # --- text --------------------------------------------------------------------
    def action_to_string(self, state: np.ndarray, action: int) -> str:
        act = decode_action(action)
        if act[0] == "take":
            i = act[1]
            cost = i - 1 if i >= R.FREE_POSITIONS else 0
            card = ""
            if state is not None and i < state[R.FOREST_N]:
                card = " " + KIND_NAMES[int(state[R.FOREST + i])]
            return f"take Forest #{i}{card}" + (f" ({cost} stick{'s' if cost > 1 else ''})" if cost else " (free)")
        if act[0] == "decay":
            return "take the decay pile"
        if act[0] == "pan":
            return "put down a Pan"
        if act[0] in ("cook", "sell"):
            _, t, n, f = act
            what = [f"{f} {MUSHROOMS[t]}"] if f else []
            if n:
                what.append(f"{n} Night {MUSHROOMS[t]}")
            units = f + 2 * n
            return f"{act[0]} {' + '.join(what)} ({units} mushrooms)"
        if act[0] == "finish":
            _, src, b, c = act
            pan = "a Pan from hand" if src else "an empty Pan of the display"
            extra = []
            if b:
                extra.append(f"{b} Butter")
            if c:
                extra.append(f"{c} Cidre")
            return f"cook in {pan}" + (" with " + " and ".join(extra) if extra else "")
        return f"discard {KIND_NAMES[act[1]]}"

    def view(self, state: np.ndarray) -> dict[str, object]:
        """The state's fields by name (the Layout view)."""
        return R.L.view(state)

    def view_text(self, state: np.ndarray, skip_zero: bool = True) -> str:
        """The Layout view as text, one field a line (zero fields left out unless asked)."""
        lines = []
        for name, value in R.L.view(state).items():
            if skip_zero and not (any(value) if isinstance(value, list) else value):
                continue
            lines.append(f"{name:>18}: {value}")
        return "\n".join(lines)

    def _display_lines(self, state: np.ndarray, p: int) -> list[str]:
        s = state
        pans = []
        for i in range(int(s[R.NCOOKED + p])):
            r = R.PANS + (p * R.MAX_PANS + i) * R.PAN_REC
            t, f, n, b, c = (int(x) for x in s[r:r + 5])
            txt = f"{f}{'+' + str(n) + 'N' if n else ''} {KIND_SHORT[t]}"
            txt += f" +{b}B" if b else ""
            txt += f" +{c}C" if c else ""
            pans.append(f"[{txt}]")
        fly = ""
        if s[R.FLY_NEW + p] or s[R.FLY_OLD + p]:
            fly = (f"  Fly agaric: {int(s[R.FLY_NEW + p])} new (expires after next turn), "
                   f"{int(s[R.FLY_OLD + p])} old (expires after this/coming turn)")
        return [
            f"  display: {int(s[R.BASKETS + p])} Basket, {int(s[R.STICKS + p])} sticks, "
            f"{int(s[R.EMPTY_PANS + p])} empty Pan; hand limit {int(R.hand_limit(s, p))}{fly}",
            f"  cooked ({int(s[R.SCORE + p])} points, {int(s[R.UNITS + p])} mushrooms): "
            + (" ".join(pans) if pans else "-"),
        ]

    def _forest_line(self, state: np.ndarray) -> str:
        cells = []
        for i in range(int(state[R.FOREST_N])):
            cost = i - 1 if i >= R.FREE_POSITIONS else 0
            cells.append(f"{i}:{KIND_SHORT[int(state[R.FOREST + i])]}({cost})")
        decay = ", ".join(KIND_SHORT[int(state[R.DECAY + j])] for j in range(int(state[R.DECAY_N])))
        return f"decay [{decay or '-'}] | forest " + " ".join(cells)

    def _status_line(self, state: np.ndarray) -> str:
        s = state
        if s[R.TERMINAL]:
            return (f"game over after {int(s[R.NSTEPS])} decisions; scores "
                    f"{int(s[R.SCORE])}-{int(s[R.SCORE + 1])}")
        line = f"player {int(s[R.CUR])} to {PHASE_NAMES[int(s[R.PHASE])]}"
        if s[R.PHASE] == R.PH_COOK:
            t = int(s[R.PEND_T])
            line += f" (cooking {int(s[R.PEND_F])} {MUSHROOMS[t]} + {int(s[R.PEND_N])} Night)"
        elif s[R.PHASE] == R.PH_TRIM:
            cp = int(s[R.CUR])
            line += f" ({int(s[R.HAND_N + cp] - R.trim_limit(s, cp))} more)"
        return line

    def state_to_string(self, state: np.ndarray) -> str:
        s = state
        lines = [
            f"Fungi  turn {int(s[R.NTURNS])}, decision {int(s[R.NSTEPS])}, start player {int(s[R.START])}; "
            + self._status_line(s),
            self._forest_line(s),
            f"draw pile ({int(s[R.DRAW_N])}, top last): "
            + " ".join(KIND_SHORT[int(k)] for k in s[R.DRAW:R.DRAW + int(s[R.DRAW_N])]),
            f"night pile ({int(s[R.NIGHT_N])}, top last): "
            + " ".join(KIND_SHORT[int(k)] for k in s[R.NIGHTP:R.NIGHTP + int(s[R.NIGHT_N])]),
            "discard: " + _counts(s[R.DISCARD:R.DISCARD + NKINDS]),
        ]
        for p in range(2):
            h = s[R.HAND + p * NHAND:R.HAND + (p + 1) * NHAND]
            k = s[R.KNOWN + p * NHAND:R.KNOWN + (p + 1) * NHAND]
            lines.append(f"player {p}: hand ({int(s[R.HAND_N + p])}) {_counts(h)}; publicly known {_counts(k)}")
            lines += self._display_lines(s, p)
        lines.append(f"skips {int(s[R.NSKIPS])}, forced passes {int(s[R.NPASSES])}")
        return "\n".join(lines)

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        if player is None:
            return self.state_to_string(state)
        s = state
        me, opp = int(player), 1 - int(player)
        h = s[R.HAND + me * NHAND:R.HAND + (me + 1) * NHAND]
        k = s[R.KNOWN + opp * NHAND:R.KNOWN + (opp + 1) * NHAND]
        lines = [
            f"Fungi, you are player {me}. " + self._status_line(s),
            self._forest_line(s),
            f"draw pile {int(s[R.DRAW_N])} cards, night pile {int(s[R.NIGHT_N])} cards; discard: "
            + _counts(s[R.DISCARD:R.DISCARD + NKINDS]),
            f"opponent (player {opp}): {int(s[R.HAND_N + opp])} cards in hand, known: {_counts(k)}",
        ]
        lines += self._display_lines(s, opp)
        lines.append(f"you: hand ({int(s[R.HAND_N + me])}) {_counts(h)}")
        lines += self._display_lines(s, me)
        return "\n".join(lines)

    # --- checks ------------------------------------------------------------------
    def card_locations(self, state: np.ndarray) -> np.ndarray:
        """Count of every card kind over all locations (must equal the deck's copies)."""
        s = state
        tot = np.zeros(NKINDS, np.int64)
        for k in s[R.DRAW:R.DRAW + int(s[R.DRAW_N])]:
            tot[k] += 1
        for k in s[R.NIGHTP:R.NIGHTP + int(s[R.NIGHT_N])]:
            tot[k] += 1
        for k in s[R.FOREST:R.FOREST + int(s[R.FOREST_N])]:
            tot[k] += 1
        for k in s[R.DECAY:R.DECAY + int(s[R.DECAY_N])]:
            tot[k] += 1
        tot += s[R.DISCARD:R.DISCARD + NKINDS]
        for p in range(2):
            tot[:NHAND] += s[R.HAND + p * NHAND:R.HAND + (p + 1) * NHAND]
            tot[BASKET] += s[R.BASKETS + p]
            tot[FLY] += s[R.FLY_NEW + p] + s[R.FLY_OLD + p]
            tot[PAN] += s[R.EMPTY_PANS + p] + s[R.NCOOKED + p]
            tot[:NTYPES] += s[R.COOKED_F + p * NTYPES:R.COOKED_F + (p + 1) * NTYPES]
            tot[NIGHT0:NIGHT0 + NNIGHT] += s[R.COOKED_NT + p * NTYPES:R.COOKED_NT + p * NTYPES + NNIGHT]
            tot[BUTTER] += s[R.COOKED_B + p]
            tot[CIDRE] += s[R.COOKED_C + p]
        if s[R.PHASE] == R.PH_COOK and not s[R.TERMINAL]:
            t = int(s[R.PEND_T])
            tot[t] += s[R.PEND_F]
            if t < NNIGHT:
                tot[NIGHT0 + t] += s[R.PEND_N]
        return tot

    def check_invariants(self, state: np.ndarray) -> None:
        s = state
        self._check_state(s)
        d = self.deck
        tot = self.card_locations(s)
        bad = [f"{KIND_NAMES[k]}: {int(tot[k])} found, {int(d.copies[k])} in the deck"
               for k in range(NKINDS) if tot[k] != d.copies[k]]
        assert not bad, "cards not accounted for exactly once: " + "; ".join(bad)
        for name, off, n, cap in (("draw pile", R.DRAW_N, None, R.MAX_DRAW), ("night pile", R.NIGHT_N, None, 8),
                                  ("forest", R.FOREST_N, None, R.FOREST_SIZE), ("decay pile", R.DECAY_N, None, R.DECAY_MAX)):
            assert 0 <= s[off] <= cap, f"{name} size {int(s[off])} outside 0..{cap}"
        full = R.FOREST_SIZE - (1 if s[R.PHASE] == R.PH_TRIM else 0)   # a take mid-turn leaves a gap
        assert s[R.DRAW_N] == 0 or s[R.FOREST_N] >= full or s[R.TERMINAL], \
            f"forest has {int(s[R.FOREST_N])} cards while the draw pile has {int(s[R.DRAW_N])}"
        for k in s[R.NIGHTP:R.NIGHTP + int(s[R.NIGHT_N])]:
            assert NIGHT0 <= k < NIGHT0 + NNIGHT, f"night pile holds a non-Night card {KIND_NAMES[k]}"
        for name, off, count in (("draw pile", R.DRAW, R.DRAW_N), ("forest", R.FOREST, R.FOREST_N),
                                 ("decay pile", R.DECAY, R.DECAY_N)):
            for k in s[off:off + int(s[count])]:
                assert not (NIGHT0 <= k < NIGHT0 + NNIGHT), f"{name} holds a Night card"
        assert s[R.PHASE] in (R.PH_ACT, R.PH_COOK, R.PH_TRIM), f"phase {int(s[R.PHASE])} unknown"
        assert s[R.CUR] in (0, 1), f"current player {int(s[R.CUR])}"
        assert (s[R.FOREST_N] == 0) == bool(s[R.TERMINAL]), \
            f"terminal flag {int(s[R.TERMINAL])} but forest has {int(s[R.FOREST_N])} cards"
        assert s[R.NIGHT_N] >= self._moons_left(s) or d.copies[MOON] > d.copies[NIGHT0:NIGHT0 + NNIGHT].sum(), \
            "fewer Night cards left than Moons still to be taken"
        for p in range(2):
            h = s[R.HAND + p * NHAND:R.HAND + (p + 1) * NHAND]
            k = s[R.KNOWN + p * NHAND:R.KNOWN + (p + 1) * NHAND]
            assert (h >= 0).all(), f"player {p} holds a negative count"
            assert h.sum() == s[R.HAND_N + p], f"player {p} hand size {int(s[R.HAND_N + p])} != {int(h.sum())} cards"
            assert ((k >= 0) & (k <= h)).all(), f"player {p} publicly known cards {k.tolist()} not within hand {h.tolist()}"
            assert s[R.STICKS + p] >= 0, f"player {p} has {int(s[R.STICKS + p])} sticks"
            for name, off in (("baskets", R.BASKETS), ("empty pans", R.EMPTY_PANS), ("fly new", R.FLY_NEW),
                              ("fly old", R.FLY_OLD)):
                assert s[off + p] >= 0, f"player {p} {name} negative"
            in_trim = s[R.PHASE] == R.PH_TRIM and s[R.CUR] == p and not s[R.TERMINAL]
            if not in_trim and not s[R.TERMINAL]:
                assert s[R.HAND_N + p] <= R.hand_limit(s, p), \
                    f"player {p} holds {int(s[R.HAND_N + p])} cards over the hand limit {int(R.hand_limit(s, p))}"
            if in_trim:
                assert s[R.HAND_N + p] > R.trim_limit(s, p), "trim phase with nothing to trim"
                assert s[R.FLY_NEW + p] > 0, "trim phase without a Fly agaric taken this turn"
            elif not s[R.TERMINAL]:
                assert s[R.FLY_NEW + p] == 0, \
                    f"player {p} has a Fly agaric marked as taken this turn outside its own trim"
            assert (k[NIGHT0:NIGHT0 + NNIGHT] == 0).all(), \
                f"player {p} has Night cards marked publicly known (they are drawn face down)"
            # Scores from the pans.
            score = units = 0
            fsum = np.zeros(NTYPES, np.int64)
            nsum = np.zeros(NTYPES, np.int64)
            bs = cs = 0
            for i in range(int(s[R.NCOOKED + p])):
                r = R.PANS + (p * R.MAX_PANS + i) * R.PAN_REC
                t, f, n, b, c = (int(x) for x in s[r:r + 5])
                u = f + (n * int(d.units[NIGHT0 + t]) if t < NNIGHT else 0)
                assert n == 0 or t < NNIGHT, f"player {p} pan {i}: a Night Morel"
                assert u >= 3, f"player {p} pan {i} holds only {u} mushrooms"
                assert 4 * b + 5 * c <= u, f"player {p} pan {i}: {b} Butter + {c} Cidre on {u} mushrooms"
                score += u * int(d.flavor[t]) + b * int(d.flavor[BUTTER]) + c * int(d.flavor[CIDRE])
                units += u
                fsum[t] += f
                nsum[t] += n
                bs += b
                cs += c
            assert score == s[R.SCORE + p], f"player {p} score {int(s[R.SCORE + p])} != {score} from the cooked pans"
            assert units == s[R.UNITS + p], f"player {p} mushrooms cooked {int(s[R.UNITS + p])} != {units}"
            assert (fsum == s[R.COOKED_F + p * NTYPES:R.COOKED_F + (p + 1) * NTYPES]).all(), \
                f"player {p} cooked forest totals disagree with the pans"
            assert (nsum == s[R.COOKED_NT + p * NTYPES:R.COOKED_NT + (p + 1) * NTYPES]).all(), \
                f"player {p} cooked night totals disagree with the pans"
            assert bs == s[R.COOKED_B + p] and cs == s[R.COOKED_C + p], f"player {p} butter/cidre totals disagree"
        if s[R.PHASE] == R.PH_COOK and not s[R.TERMINAL]:
            t = int(s[R.PEND_T])
            u = int(s[R.PEND_F]) + (int(s[R.PEND_N]) * int(d.units[NIGHT0 + t]) if t < NNIGHT else 0)
            assert u >= 3, f"pending cook of {u} mushrooms"
        if not s[R.TERMINAL]:
            assert self.kernels.has_action(s, int(s[R.CUR]), self.config) or s[R.PHASE] != R.PH_ACT, \
                f"player {int(s[R.CUR])} to act has no legal action"
        assert s[R.NSTEPS] <= self.spec.max_game_length, \
            f"{int(s[R.NSTEPS])} decisions exceed max_game_length {self.spec.max_game_length}"

    @staticmethod
    def _moons_left(s: np.ndarray) -> int:
        n = 0
        for k in s[R.DRAW:R.DRAW + int(s[R.DRAW_N])]:
            n += k == MOON
        for k in s[R.FOREST:R.FOREST + int(s[R.FOREST_N])]:
            n += k == MOON
        for k in s[R.DECAY:R.DECAY + int(s[R.DECAY_N])]:
            n += k == MOON
        return int(n)

    def perturb_hidden(self, state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
        """Re-deal what ``player`` cannot see: the opponent's not publicly known hand cards
        together with the draw pile (Forest cards), the opponent's Night cards together
        with the Night pile, and the order of both piles. Sizes and public counts are kept.

        The result is consistent with what ``player`` can see right now: an opponent to act
        must keep a legal action (else it would have been skipped), an opponent that was
        just skipped must keep having none, an opponent in a cook follow-up must keep a Pan
        to finish with. After a few tries only the pile order is permuted. (Constraints
        from earlier in the game's public history are not enforced.)"""
        for attempt in range(20):
            s = self._redeal(state, player, rng, hands=attempt < 19)
            if self._consistent_for(s, int(player)):
                return s
        return state.copy()

    def _consistent_for(self, s: np.ndarray, player: int) -> bool:
        if s[R.TERMINAL]:
            return True
        opp = 1 - player
        cp = int(s[R.CUR])
        if s[R.PHASE] == R.PH_ACT:
            if cp == opp:
                return bool(R.has_action(s, opp, self.config))
            if s[R.LAST] == player:  # the observer acts again after its own turn: opp was skipped
                return not R.has_action(s, opp, self.config)
            return True
        if s[R.PHASE] == R.PH_COOK and cp == opp:
            return R.legal_mask(s, self.config, np.zeros(R.NUM_ACTIONS, np.int8), self.work) > 0
        return True

    def _redeal(self, state: np.ndarray, player: int, rng: np.random.Generator, hands: bool) -> np.ndarray:
        s = state.copy()
        opp = 1 - int(player)
        hb = R.HAND + opp * NHAND
        kb = R.KNOWN + opp * NHAND
        for night in (False, True):
            kinds = range(NIGHT0, NIGHT0 + NNIGHT) if night else [k for k in range(NHAND)
                                                                  if not NIGHT0 <= k < NIGHT0 + NNIGHT]
            pile, count = (R.NIGHTP, R.NIGHT_N) if night else (R.DRAW, R.DRAW_N)
            pool = [int(x) for x in s[pile:pile + int(s[count])]]
            n_pile = len(pool)
            n_hidden = 0
            for k in kinds:
                u = int(s[hb + k] - s[kb + k]) if hands else 0
                pool += [k] * u
                n_hidden += u
                s[hb + k] -= u
            pool = np.array(pool, np.int64)
            holdable = np.flatnonzero(pool < NHAND)
            chosen = rng.choice(holdable, size=n_hidden, replace=False) if n_hidden else np.zeros(0, np.int64)
            for k in pool[chosen]:
                s[hb + int(k)] += 1
            rest = np.delete(pool, chosen)
            s[pile:pile + n_pile] = rng.permutation(rest)
        return s
