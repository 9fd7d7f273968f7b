"""FungiGame: the functional API of Fungi (``fungi_v0``) over the kernels of :mod:`rules`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mushgym.game import Game, GameSpec

from . import rules as R
from .cards import FLY, KIND_NAMES, KIND_SHORT, MUSHROOMS, NHAND, NIGHT0, NNIGHT, PAN, Deck, load_deck
from .layout import _BIG as STATE_MAX
from .layout import PHASE_NAMES, max_score, max_sticks, observation_layouts
from .positions import describe_pending, state_from


def decode_action(action: int) -> tuple:
    """``action`` as a flat tuple ``(name, *args)``: ('take', position) | ('take_decay',) |
    ('put_pan',) | ('cook' | 'sell', type, night, forest) | ('finish_cook', source, butter, cidre)
    | ('discard', kind). ``FungiGame().decode_action`` gives ``(name, args)``."""
    name, args = R.A.decode(action)
    return (name, *args)


def encode_action(name: str, *args: int) -> int:
    """Inverse of :func:`decode_action`: ``encode_action('cook', t, n, f)`` etc."""
    return R.A.encode(name, *(int(x) for x in args))


def _counts(counts, names=KIND_SHORT) -> str:
    parts = [f"{int(n)}x{names[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "-"


class FungiGame(Game):
    """Fungi for two players. Options: ``reward`` = "win_loss" (+1/-1/0, ties broken by
    mushrooms cooked) or "score_diff" (own flavor points minus the opponent's)."""

    env_id: ClassVar[str] = "fungi_v0"
    kernels = R
    actions = R.A
    option_choices: ClassVar[dict[str, tuple]] = {"num_players": (2,), "reward": ("win_loss", "score_diff")}
    default_options: ClassVar[dict[str, Any]] = {"num_players": 2, "reward": "win_loss"}
    #: A deck file to load instead of the published one (subclass and set it to play your own deck).
    deck_path: ClassVar[str | None] = None

    layout = R.L
    obs_layout = R.OL
    obs_integral = True  # cards, counts, flags: the vector API writes them as uint8

    # --- construction ------------------------------------------------------------
    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        self.deck: Deck = load_deck(self.deck_path)
        for what, most in (("score", max_score(self.deck)), ("sticks", max_sticks(self.deck))):
            if most > STATE_MAX:  # the state's bounds (and its int16 form in the vector API) stop there
                raise ValueError(
                    f"{self.env_id}: this deck allows a {what} of {most}, above the state's limit {STATE_MAX}"
                )
        cfg = np.zeros(R.CFG_SIZE, np.int64)
        c = R.CL.arrays(cfg)
        c["reward"][...] = 1 if options["reward"] == "score_diff" else 0
        c["starting_pans"][...] = self.deck.starting_pans
        c["copies"][:] = self.deck.copies
        c["flavor"][:] = self.deck.flavor
        c["sticks"][:] = self.deck.sticks
        c["units"][:] = self.deck.units
        return cfg

    def max_score(self) -> int:
        return max_score(self.deck)

    def max_sticks(self) -> int:
        return max_sticks(self.deck)

    def max_game_length(self) -> int:
        """A proven bound on the decisions in one game (see RULES.md, "Game length").

        turns <= cards in Forest + draw pile after the deal (each turn, forced passes
        included, moves one of them to the decay pile, or the game ends);
        cook follow-ups <= pans in the game (each cook fills a distinct pan);
        discards <= 7 per Fly agaric trim, and at most one trim per Fly agaric.
        """
        turns = self.deck.draw_pile_size - 2 * R.START_HAND
        return int(turns + self.deck.copies[PAN] + R.MAX_TRIM * self.deck.copies[FLY])

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        if options["reward"] == "score_diff":
            m = float(self.max_score())
            rr = (-m, m)
        else:
            rr = (-1.0, 1.0)
        return GameSpec(
            env_id=self.env_id,
            num_players=2,
            num_actions=R.NUM_ACTIONS,
            observation_shape=(R.OBS_SIZE,),
            state_size=R.STATE_SIZE,
            max_game_length=self.max_game_length(),
            reward_range=rr,
            perfect_information=False,
            chance=True,
            zero_sum=True,
            options=dict(options),
        )

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """From the observation layout declared with this game's deck (``layout.observation_layouts``)."""
        ol = observation_layouts(self.deck)[1]
        assert ol.digest() == R.OL.digest(), "observation offsets must not depend on the deck"
        return ol.bounds(np.float32)

    # --- named public values ---------------------------------------------------------
    def fields(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Writable numpy views of every state field, shaped as declared (``hand[p, kind]``, ...)."""
        return R.L.arrays(state)

    def scores(self, state: np.ndarray) -> tuple[int, int]:
        """Flavor points of both players."""
        return int(state[R.score_at(0)]), int(state[R.score_at(1)])

    def mushrooms_cooked(self, state: np.ndarray) -> tuple[int, int]:
        """Mushrooms cooked by both players (the tie-break; a Night card counts as it says)."""
        return int(state[R.mushrooms_cooked_at(0)]), int(state[R.mushrooms_cooked_at(1)])

    def hand_limit(self, state: np.ndarray, player: int) -> int:
        """``player``'s current hand limit (8, or 4 with an active Fly agaric; +2 per Basket)."""
        return int(R.hand_limit(state, int(player)))

    def hand_sizes(self, state: np.ndarray) -> tuple[int, int]:
        return int(state[R.hand_n_at(0)]), int(state[R.hand_n_at(1)])

    def sticks(self, state: np.ndarray) -> tuple[int, int]:
        return int(state[R.sticks_at(0)]), int(state[R.sticks_at(1)])

    def take_cost(self, position: int) -> int:
        """Sticks to take the Forest card at ``position``."""
        return position - 1 if position >= R.FREE_POSITIONS else 0

    def phase(self, state: np.ndarray) -> str:
        """ "act", "cook" (a cook follow-up is pending) or "trim" (Fly agaric discards); "over" at the end."""
        if state[R.TERMINAL]:
            return "over"
        return ("act", "cook", "trim")[int(R.phase(state))]

    def pending(self, state: np.ndarray) -> tuple | None:
        """The pending decision: None, ("cook", type, night, forest) or ("trim", cards still to discard)."""
        return describe_pending(state)

    def can_act(self, state: np.ndarray, player: int) -> bool:
        """Would ``player`` have a legal action if its turn began now (the skip rule)?"""
        return bool(R.has_action(state, int(player), self.config))

    def state_from(self, **description: Any) -> np.ndarray:
        """A state from a readable description of a position; see :func:`positions.state_from`."""
        return state_from(self, **description)

    # --- text --------------------------------------------------------------------
    def action_to_string(self, state: np.ndarray, action: int) -> str:
        act = decode_action(action)
        if act[0] == "take":
            i = act[1]
            cost = self.take_cost(i)
            card = ""
            if state is not None and i < state[R.FOREST_N]:
                card = " " + KIND_NAMES[int(state[R.forest_at(i)])]
            return f"take Forest #{i}{card}" + (f" ({cost} stick{'s' if cost > 1 else ''})" if cost else " (free)")
        if act[0] == "take_decay":
            return "take the decay pile"
        if act[0] == "put_pan":
            return "put down a Pan"
        if act[0] in ("cook", "sell"):
            _, t, n, f = act
            what = [f"{f} {MUSHROOMS[t]}"] if f else []
            if n:
                what.append(f"{n} Night {MUSHROOMS[t]}")
            units = f + (n * int(self.deck.units[NIGHT0 + t]) if t < NNIGHT else 0)
            return f"{act[0]} {' + '.join(what)} ({units} mushrooms)"
        if act[0] == "finish_cook":
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
        v = R.L.arrays(state)
        pans = []
        for i in range(int(v["cooked_pans"][p])):
            t, f, n, b, c = (int(x) for x in v["pan_records"][p, i])
            txt = f"{f}{'+' + str(n) + 'N' if n else ''} {KIND_SHORT[t]}"
            txt += f" +{b}B" if b else ""
            txt += f" +{c}C" if c else ""
            pans.append(f"[{txt}]")
        fly = ""
        if v["fly_new"][p] or v["fly_old"][p]:
            fly = (
                f"  Fly agaric: {int(v['fly_new'][p])} new (expires after next turn), "
                f"{int(v['fly_old'][p])} old (expires after this/coming turn)"
            )
        return [
            f"  display: {int(v['baskets'][p])} Basket, {int(v['sticks'][p])} sticks, "
            f"{int(v['empty_pans'][p])} empty Pan; hand limit {self.hand_limit(state, p)}{fly}",
            f"  cooked ({int(v['score'][p])} points, {int(v['mushrooms_cooked'][p])} mushrooms): "
            + (" ".join(pans) if pans else "-"),
        ]

    def _forest_line(self, state: np.ndarray) -> str:
        v = R.L.arrays(state)
        cells = [
            f"{i}:{KIND_SHORT[int(k)]}({self.take_cost(i)})" for i, k in enumerate(v["forest"][: int(v["forest_n"])])
        ]
        decay = ", ".join(KIND_SHORT[int(k)] for k in v["decay"][: int(v["decay_n"])])
        return f"decay [{decay or '-'}] | forest " + " ".join(cells)

    def _status_line(self, state: np.ndarray) -> str:
        s = state
        if s[R.TERMINAL]:
            a, b = self.scores(s)
            return f"game over after {int(s[R.NSTEPS])} decisions; scores {a}-{b}"
        line = f"player {self.current_player(s)} to {PHASE_NAMES[int(R.phase(s))]}"
        pending = self.pending(s)
        if pending and pending[0] == "cook":
            _, t, n, f = pending
            line += f" (cooking {f} {MUSHROOMS[t]} + {n} Night)"
        elif pending:
            line += f" ({pending[1]} more)"
        return line

    def state_to_string(self, state: np.ndarray) -> str:
        s = state
        v = R.L.arrays(s)
        lines = [
            f"Fungi  turn {int(s[R.NTURNS])}, decision {int(s[R.NSTEPS])}, start player {int(s[R.START])}; "
            + self._status_line(s),
            self._forest_line(s),
            f"draw pile ({int(s[R.DRAW_N])}, top last): "
            + " ".join(KIND_SHORT[int(k)] for k in v["draw_pile"][: int(s[R.DRAW_N])]),
            f"night pile ({int(s[R.NIGHT_N])}, top last): "
            + " ".join(KIND_SHORT[int(k)] for k in v["night_pile"][: int(s[R.NIGHT_N])]),
            "discard: " + _counts(v["discard"]),
        ]
        for p in range(2):
            lines.append(
                f"player {p}: hand ({int(v['hand_n'][p])}) {_counts(v['hand'][p])}; "
                f"publicly known {_counts(v['known'][p])}"
            )
            lines += self._display_lines(s, p)
        lines.append(f"skips {int(s[R.NSKIPS])}, forced passes {int(s[R.NPASSES])}")
        return "\n".join(lines)

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        if player is None:
            return self.state_to_string(state)
        s = state
        v = R.L.arrays(s)
        me, opp = int(player), 1 - int(player)
        lines = [
            f"Fungi, you are player {me}. " + self._status_line(s),
            self._forest_line(s),
            f"draw pile {int(s[R.DRAW_N])} cards, night pile {int(s[R.NIGHT_N])} cards; discard: "
            + _counts(v["discard"]),
            f"opponent (player {opp}): {int(v['hand_n'][opp])} cards in hand, known: {_counts(v['known'][opp])}",
        ]
        lines += self._display_lines(s, opp)
        lines.append(f"you: hand ({int(v['hand_n'][me])}) {_counts(v['hand'][me])}")
        lines += self._display_lines(s, me)
        return "\n".join(lines)

    # --- checks ------------------------------------------------------------------
    def validation_error(self, code: int) -> str:
        from .validate import VALIDATION_ERRORS

        return VALIDATION_ERRORS.get(code, super().validation_error(code))

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
        cp = self.current_player(s)
        kind = int(R.top_kind(s))
        if kind == R.NO_DECISION:
            if cp == opp:
                return bool(R.has_action(s, opp, self.config))
            if s[R.LAST] == player:  # the observer acts again after its own turn: opp was skipped
                return not R.has_action(s, opp, self.config)
            return True
        if kind == R.D_COOK and cp == opp:
            return R.legal_mask(s, self.config, np.zeros(R.NUM_ACTIONS, np.int8), self.work) > 0
        return True

    def _redeal(self, state: np.ndarray, player: int, rng: np.random.Generator, hands: bool) -> np.ndarray:
        s = state.copy()
        v = R.L.arrays(s)
        opp = 1 - int(player)
        hand, known = v["hand"][opp], v["known"][opp]
        for night in (False, True):
            kinds = (
                range(NIGHT0, NIGHT0 + NNIGHT)
                if night
                else [k for k in range(NHAND) if not NIGHT0 <= k < NIGHT0 + NNIGHT]
            )
            pile, count = (v["night_pile"], int(v["night_n"])) if night else (v["draw_pile"], int(v["draw_n"]))
            pool = [int(x) for x in pile[:count]]
            n_hidden = 0
            for k in kinds:
                u = int(hand[k] - known[k]) if hands else 0
                pool += [k] * u
                n_hidden += u
                hand[k] -= u
            pool = np.array(pool, np.int64)
            holdable = np.flatnonzero(pool < NHAND)
            chosen = rng.choice(holdable, size=n_hidden, replace=False) if n_hidden else np.zeros(0, np.int64)
            for k in pool[chosen]:
                hand[int(k)] += 1
            rest = np.delete(pool, chosen)
            pile[:count] = rng.permutation(rest)
        return s
