"""MyceliaGame: the functional API of Mycelia (``mycelia_v1``) over the kernels of :mod:`rules`."""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

import numpy as np

from mushgym.game import Game, GameSpec

from . import rules as R
from .actions import A, decode_action, encode_action  # noqa: F401 - re-exported
from .board import neighbour_c, neighbour_r
from .data import COLOURS, DECAYS, SYMBOLS, join_cards, load_automata, load_cards, load_tiles
from .observation import OL, observation_layout
from .positions import describe, state_from

REWARDS = ("win_loss", "score", "score_diff")
TURN_LIMITS = (40, 80, 160)  # rounds
TURN_LIMIT_ENDS = ("truncate", "score")
EXPANSIONS = (None, "north_america")
SAPLING_SETUPS = ("roll", "O", "U", "A")  # "roll": the wind die picks the formation (0 O, 1 U, 2 A)
DECISION_NAMES = (
    "main",
    "place Mother mushroom",
    "move on",
    "place tile",
    "turn tile",
    "spore target",
    "fruit: mat",
    "fruit: grow tile",
    "fruit: pay",
    "decay: outer tile",
    "decay: opponent mushroom",
    "decay: mushroom destination",
    "Mother mushroom: whose",
    "Mother mushroom: destination",
    "decay: steal from",
    "decay: draw two",
    "discover: keep",
    "trade: card",
    # the North American expansion
    "spore on a sapling tile: tile or sapling",
    "symbiosis: bonus spore",
    "symbiosis: keep or re-roll",
    "Grandfather Tree: push the spore",
    "decay: sapling to add a spore to",
    "decay: tile for a sapling",
    "decay: sapling to remove a spore from",
    "decay: whose sapling spore",
    "explore: tile to keep",
    "symbiosis: explore pile",
    "after a SPORE action",
)
COLOUR_SHORT = ("R", "G", "B", "Y", "K")
STEPS_PER_TURN = 256  # bound on decisions in one turn (see max_game_length)


def obs_fields() -> list[tuple[str, int]]:
    """The observation as (field name, length) blocks, in order (generated from its declaration)."""
    return [(f.name, f.size) for f in OL.fields.values()]


class MyceliaGame(Game):
    """Mycelia for 1 to 4 players (1 only with the Automata; 5 with the North American expansion).

    Options: ``num_players`` (1..4, default 2); ``automata`` (None: the Automata plays only in
    the solo game or when ``automata_level`` is given; True: add it to 1-3 players; False:
    never); ``automata_level`` ("medium", "hard"; default medium when it plays); ``mats``
    (3, 4, 5: the short game uses 3 or 4 player mats and the End Game Token is worth as much);
    ``turn_limit`` (40, 80, 160 rounds, default 80: the game is cut after that many rounds);
    ``turn_limit_end`` ("truncate", default: reaching the limit is a truncation, rewards 0,
    reported as ``truncations`` by the AEC env and ``truncated`` by the vector, episode and
    single-agent APIs; "score": the limit ends the game scored normally, without the End Game
    Token, as a termination); ``reward`` ("win_loss", "score", "score_diff");
    ``expansion`` (None, default: the base game; "north_america": the North American expansion,
    RULES.md "North American expansion": 35 more cards with wild spores, saplings, the AGE
    action, Grandfather Trees, its decay actions and a fifth player, ``num_players`` up to 5);
    ``sapling_setup`` ("roll", default: the wind die picks the start formation of the saplings;
    "O", "U", "A": that formation; only with the expansion).

    Spaces: the expansion's action groups and observation block are APPENDED after the base
    game's (:meth:`space_sizes`): without it, the base game's 502 actions and 1,652 values
    (ids and offsets never move); with it, 595 actions and the expansion block after them.
    """

    env_id: ClassVar[str] = "mycelia_v1"
    kernels = R
    option_choices: ClassVar[dict[str, tuple]] = {
        "num_players": (1, 2, 3, 4, 5),
        "automata": (None, False, True),
        "automata_level": (None, "medium", "hard"),
        "mats": (3, 4, 5),
        "turn_limit": TURN_LIMITS,
        "turn_limit_end": TURN_LIMIT_ENDS,
        "reward": REWARDS,
        "expansion": EXPANSIONS,
        "sapling_setup": SAPLING_SETUPS,
    }
    default_options: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "automata": None,
        "automata_level": None,
        "mats": 5,
        "turn_limit": 80,
        "turn_limit_end": "truncate",
        "reward": "win_loss",
        "expansion": None,
        "sapling_setup": "roll",
    }
    #: values allowed only together with another option (the harness plays them through
    #: ``combinable_options``): a fifth player and a chosen sapling formation need the expansion
    needs_other_options: ClassVar[dict[str, tuple]] = {"num_players": (5,), "sapling_setup": ("O", "U", "A")}
    #: the variants played together by the harness (testing.option_combinations)
    combinable_options: ClassVar[tuple[str, ...]] = ("num_players", "expansion", "automata")
    #: CI's small form of that run: games cut at 40 rounds
    combination_small_options: ClassVar[dict] = {"turn_limit": 40}
    #: the shared harness's default run plays a quarter of its games with the expansion (the full
    #: runs are behind the ``slow`` marker; tests/games/mycelia/test_mycelia_expansion.py plays it besides)
    harness_small_options: ClassVar[tuple] = (("expansion", "north_america"),)
    #: Data files to load instead of the designed ones (e.g. the real cards typed in).
    cards_path: ClassVar[str | None] = None
    cards_na_path: ClassVar[str | None] = None  # the expansion's cards (cards_north_america.toml)
    tiles_path: ClassVar[str | None] = None
    automata_path: ClassVar[str | None] = None
    layout = R.L
    actions = A
    #: golden files show a digest of each observation (1,652 values), see mushgym.testing
    golden_observation = "digest"
    #: counts, ids, flags and shifted lattice positions: the vector API writes them as uint8
    obs_integral = True

    # --- construction ------------------------------------------------------------
    @staticmethod
    def resolve_automata(options: dict[str, Any]) -> bool:
        n = options["num_players"]
        auto = options["automata"]
        level = options["automata_level"]
        if auto is False and level is not None:
            raise ValueError(
                f"mycelia_v1: automata_level={level!r} needs the Automata; pass automata=True (or leave automata unset)"
            )
        if auto is None:
            auto = n == 1 or level is not None
        if n == 1 and not auto:
            raise ValueError(
                "mycelia_v1: the solo game (num_players=1) is played against the Automata; "
                "valid choices are automata=True or None with 1 player, or num_players 2..4"
            )
        if auto and n >= 4:
            raise ValueError(
                f"mycelia_v1: the Automata joins 1 to 3 players; "
                f"valid choices with num_players={n} are automata=False or None"
            )
        return bool(auto)

    @staticmethod
    def resolve_expansion(options: dict[str, Any]) -> bool:
        """The expansion is on; a fifth player or a chosen sapling formation without it is refused."""
        on = options["expansion"] == "north_america"
        if not on and options["num_players"] == 5:
            raise ValueError(
                "mycelia_v1: 5 players need the North American expansion; valid choices are "
                "num_players 1..4 (1 with the Automata), or num_players 1..5 with "
                "expansion='north_america'"
            )
        if not on and options["sapling_setup"] != "roll":
            raise ValueError(
                f"mycelia_v1: sapling_setup={options['sapling_setup']!r} needs the North American "
                "expansion (expansion='north_america'); without it leave sapling_setup='roll'"
            )
        return on

    @classmethod
    def space_sizes(cls, options: dict[str, Any]) -> tuple[int, int]:
        """(actions, observation values): the base game's, or with the expansion the full spaces
        (the expansion's groups and block appended)."""
        if options.get("expansion") == "north_america":
            return R.NUM_ACTIONS, R.OBS_SIZE_NA
        return R.NUM_ACTIONS_BASE, R.OBS_SIZE

    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        self.expansion = self.resolve_expansion(options)
        self.automata = self.resolve_automata(options)
        base = load_cards(self.cards_path)
        self.cards_na = load_cards(self.cards_na_path, expansion=True) if self.expansion else None
        self.cards = join_cards(base, self.cards_na)  # the cards in play (ids 69.. the expansion's)
        self.tiles = load_tiles(self.tiles_path)
        self.auto_cards = load_automata(self.automata_path)
        nh = options["num_players"]
        ns = nh + int(self.automata)
        self.num_seats = ns
        self.max_turns = options["turn_limit"] * ns
        cfg = np.zeros(R.CFG_SIZE, np.int64)
        f = R.C.arrays(cfg)
        f["human_players"][...] = nh
        f["seats"][...] = ns
        f["automata"][...] = int(self.automata)
        f["automata_level"][...] = 1 if options["automata_level"] == "hard" else 0
        f["mats"][...] = options["mats"]
        f["turn_limit"][...] = self.max_turns
        f["turn_limit_scored"][...] = TURN_LIMIT_ENDS.index(options["turn_limit_end"])
        f["reward"][...] = REWARDS.index(options["reward"])
        solo = nh == 1
        f["tiles_in_play"][...] = R.NT_MAX - (int((self.tiles.colour == 4).sum()) if solo else 0)
        c = base
        nb = R.NC_BASE
        f["points"][:nb] = c.points
        f["spores"][:nb] = c.spores
        f["require"][:nb] = c.require
        f["decay"][:nb] = c.decay
        f["cards"][...] = nb
        f["insects"][...] = R.INSECTS_TOTAL
        f["sapling_setup"][...] = -1
        if self.expansion:  # the North American expansion: cards 69..103, 30 insects, the formation
            x = self.cards_na
            f["expansion"][...] = 1
            f["cards"][...] = R.NC
            f["insects"][...] = R.INSECTS_MAX
            f["points"][nb:] = x.points
            f["spores"][nb:] = x.spores
            f["require"][nb:] = x.require
            f["wild"][nb:] = x.wild
            f["decay"][nb:] = x.decay
            f["sapling_setup"][...] = SAPLING_SETUPS.index(options["sapling_setup"]) - 1
        t = self.tiles
        f["tile_colour"][:] = t.colour
        f["tile_insect"][:] = t.insect
        f["tile_order"][:] = t.order
        a = self.auto_cards
        f["auto_colour"][:] = a.colour
        f["auto_require"][:] = a.require
        f["auto_spores"][:] = a.spores
        f["auto_move"][:] = a.move
        f["auto_decay"][:] = a.decay
        return cfg

    def max_game_length(self) -> int:
        """Bound: at most ``max_turns`` turns, each of at most STEPS_PER_TURN decisions (2 actions
        of at most 12 decisions each; free actions are paid with insects, 20 in the game, or with
        3 cards each, at most 23 trades of 4 decisions; refresh 1, Mother move 3 decisions),
        plus one Mother mushroom placement per player."""
        return self.max_turns * STEPS_PER_TURN + 4

    def score_bound(self) -> int:
        if self.expansion:
            return int(self.cards.points.sum()) + R.INSECTS_MAX // 2 + 5 + 5 * R.NC + R.TREE_POINTS * R.TREES_EACH
        return int(self.cards.points.sum()) + R.INSECTS_TOTAL // 2 + 5 + 5 * R.NC_BASE

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        n = options["num_players"]
        hi = self.score_bound()
        rr = {"win_loss": (-1.0, 1.0), "score": (0.0, float(hi)), "score_diff": (-float(hi), float(hi))}[
            options["reward"]
        ]
        zero_sum = options["reward"] != "score" and not self.automata
        num_actions, obs_size = self.space_sizes(options)
        return GameSpec(
            env_id=self.env_id,
            num_players=n,
            num_actions=num_actions,
            observation_shape=(obs_size,),
            state_size=R.STATE_SIZE,
            max_game_length=self.max_game_length(),
            reward_range=rr,
            perfect_information=False,
            chance=True,
            zero_sum=zero_sum,
            options=dict(options),
        )

    def observation_layout(self):
        """The observation's declaration (:mod:`.observation`) with its data-dependent bounds."""
        return observation_layout(self.options["turn_limit"], self.expansion)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.observation_layout().bounds()

    # --- text ----------------------------------------------------------------------
    def card_text(self, card: int) -> str:
        if card < 0:
            return "-"
        c = self.cards
        req = "+".join(f"{int(c.require[card, k])}{COLOUR_SHORT[k]}" for k in range(4) if c.require[card, k])
        if c.wild[card]:
            req += f"+{int(c.wild[card])}W"
        return f"#{card} {c.names[card]} [{int(c.points[card])}pt {req} spores {int(c.spores[card])} {DECAYS[int(c.decay[card])]}]"  # noqa: E501 (a literal that reads best on one line)

    def tile_text(self, state: np.ndarray, t: int) -> str:
        tid = int(state[R.T_ID + t])
        return f"t{t}({COLOURS[int(self.tiles.colour[tid])]} @{int(state[R.T_C + t])},{int(state[R.T_R + t])})"

    def action_to_string(self, state: np.ndarray, action: int) -> str:
        kind = decode_action(action)
        top = self._top(state)
        dk = top[0] if top else -1
        k = kind[0]
        if k == "tile":
            t = kind[1]
            what = {
                R.D_MAIN: "move the Mother mushroom to",
                R.D_SETUP: "place the Mother mushroom on",
                R.D_MOVE: "move on to",
                R.D_SPORE_PICK: "put the next spore on",
                R.D_FRUIT_TILE: "grow on",
                R.D_OUTER_PICK: "move the outer tile",
                R.D_OPPM_PICK: "move the opponent's mushroom on",
                R.D_OPPM_DEST: "put the mushroom on",
                R.D_MOTHER_DEST: "put that Mother mushroom on",
                R.D_INVEST: "invest the spore that landed on",
                R.D_SYM_SPORE: "put the bonus spore on",
                R.D_TREE_PUSH: "push the spore on to",
                R.D_SAP_PICK: "add a spore to the sapling on",
                R.D_SAP_ADD: "add a sapling to",
                R.D_SAP_REMOVE: "remove a spore from the sapling on",
            }.get(dk, "tile")
            if dk == R.D_SETUP and top[2] == 1:
                what = "place the Automata's Mother mushroom on"
            return f"{what} {self.tile_text(state, t)}" if t < int(state[R.NTP]) else f"{what} tile {t}"
        if k == "pay":
            return f"pay a spore of player {kind[2]} from {self.tile_text(state, kind[1])}"
        if k == "pay_seat4":
            return f"pay a spore of player 4 from {self.tile_text(state, kind[1])}"
        if k == "card_na":
            kind = ("card", kind[1] + R.NC_BASE)
            k = "card"
        if k == "seat4":
            kind = ("seat", 4)
            k = "seat"
        if k == "push_sapling":
            return f"push the spore onto the sapling on {self.tile_text(state, kind[1])}"
        if k == "age":
            return "AGE: the sapling under the Mother mushroom becomes a Grandfather Tree"
        if k == "reroll":
            return "re-roll the symbiosis roll" if kind[1] else "keep the symbiosis roll"
        if k == "keep_tile":
            tid = int(top[2 + kind[1]]) if top and dk == R.D_KEEP_TILE else -1
            what = f" ({COLOURS[int(self.tiles.colour[tid])]}, tile {tid})" if tid >= 0 else ""
            return f"keep drawn tile {kind[1]}{what}, discard the other"
        if k == "no_invest":
            return (
                "every spore the tree cannot push goes back to its owner"
                if dk == R.D_TREE_PUSH
                else "invest no spore in a sapling"
            )
        if k == "card":
            what = {R.D_MAIN: "fruit", R.D_KEEP: "keep", R.D_TRADE: "trade in"}.get(dk, "card")
            return f"{what} {self.card_text(kind[1])}"
        if k == "market":
            return f"take market card {kind[1]}: {self.card_text(int(state[R.MARKET + kind[1]]))}"
        if k == "deck":
            if dk == R.D_KEEP:
                return "put the card not kept at the bottom of the deck"
            return "take the top card of the deck"
        if k == "pile":
            return f"{'symbiosis ' if dk == R.D_BONUS_PILE else ''}explore: draw from tile pile {kind[1]}"
        if k == "place":
            i, e = kind[1], kind[2]
            c = neighbour_c(int(state[R.T_C + i]), int(state[R.T_R + i]), e)
            r = neighbour_r(int(state[R.T_C + i]), int(state[R.T_R + i]), e)
            return f"place the tile at {c},{r} (across edge {'ABC'[e]} of {self.tile_text(state, i)})"
        if k == "rotate":
            return f"turn the tile to rotation {kind[1]}"
        if k == "spore":
            return "spore from the Mother mushroom" if kind[1] == 0 else f"spore from the mushroom of mat {kind[1] - 1}"
        if k == "decay":
            return f"decay the mushroom of mat {kind[1]}"
        if k == "mat":
            return f"put the card on mat {kind[1]}"
        if k == "seat":
            return f"choose player {kind[1]}"
        return {
            "insect_move": "spend 2 insects: move another player's Mother mushroom",
            "refresh": "spend 1 insect: refresh the market",
            "trade": "trade 3 cards for 1 insect",
            "stop": {R.D_MOVE: "stop", R.D_KEEP: "put the card not kept back in the box"}.get(dk, "end the turn"),
        }[k]

    @staticmethod
    def _top(state: np.ndarray) -> tuple[int, ...]:
        n = int(state[R.STACK_N])
        if n == 0:
            return ()
        o = R.STACK + (n - 1) * R.ENTRY
        return tuple(int(x) for x in state[o : o + R.ENTRY])

    def view(self, state: np.ndarray) -> dict[str, object]:
        return R.L.view(state)

    # --- positions from a description (positions.py) ---------------------------------
    def state_from(self, check: bool = True, **description: Any) -> np.ndarray:
        """A state with exactly the position described: board tiles, Mother mushrooms, spores,
        mats, hands, market, insects, the player to act and the pending decisions; the
        expansion's saplings and Grandfather Trees. See :mod:`positions` for the fields."""
        return state_from(self, check, **description)

    def describe(self, state: np.ndarray, hidden: bool = False) -> dict[str, Any]:
        """The description of ``state`` (:meth:`state_from` reads it back); the hidden piles
        only with ``hidden=True``."""
        return describe(self, state, hidden)

    def final_scores(self, state: np.ndarray) -> list[int]:
        return [int(R.final_score(state, self.config, s)) for s in range(self.num_seats)]

    def seat_name(self, s: int) -> str:
        return "Automata" if self.automata and s == self.num_players else f"player {s}"

    def _board_lines(self, state: np.ndarray) -> list[str]:
        lines = []
        for t in range(int(state[R.NTP])):
            syms = "".join(SYMBOLS[int(R.wind_symbol(state, self.config, t, k))] for k in range(3))
            adj = ",".join(str(int(x)) for x in state[R.ADJ + t * 3 : R.ADJ + t * 3 + 3])
            bits = []
            m = int(R.mother_on(state, t))
            if m >= 0:
                bits.append(f"M{m}")
            if state[R.MUSH_P + t] >= 0:
                q = int(state[R.MUSH_P + t])
                mm = int(state[R.MUSH_M + t])
                bits.append(f"mush{q}/mat{mm}({int(state[R.MAT_CTR + q * R.NMATS + mm])})")
            sp = [int(state[R.SP + t * R.MAXS + s]) for s in range(self.num_seats)]
            if any(sp):
                bits.append("spores " + "/".join(map(str, sp)))
            if state[R.T_INS + t]:
                bits.append("insect")
            if self.expansion:
                if state[R.SAP + t]:
                    held = [int(state[R.SAP_SP + t * R.MAXS + s]) for s in range(self.num_seats)]
                    bits.append("sapling" + (" " + "/".join(map(str, held)) if any(held) else ""))
                if state[R.TREE + t] >= 0:
                    bits.append(f"G{int(state[R.TREE + t])}")
            lines.append(
                f"  {self.tile_text(state, t)} {'up' if (int(state[R.T_C + t]) + int(state[R.T_R + t])) % 2 == 0 else 'dn'} "  # noqa: E501 (a literal that reads best on one line)
                f"edges ABC={syms} adj={adj} {' '.join(bits)}"
            )
        return lines

    def _seat_lines(self, state: np.ndarray, s: int, show_hand: bool) -> list[str]:
        ups = [
            n
            for b, n in zip(
                (1, 2, 4, 8, 16, 32), ("same-twice", "discover-2", "moves-3", "spores-3", "re-roll", "explore-2")
            )
            if state[R.GUPG + s] & b
        ]
        lines = [
            f"{self.seat_name(s)}: points {int(state[R.PTS + s])} grown {int(state[R.GROWN + s])} "
            f"insects {int(state[R.INS + s])} supply {int(state[R.SUPPLY + s])} hand {int(state[R.HAND_N + s])} "
            f"M@t{int(state[R.M_POS + s])} upgrades {ups or '-'}"
            + (f" trees left {int(state[R.TREES_LEFT + s])}" if self.expansion else "")
        ]
        if show_hand:
            hand = [c for c in range(R.NC) if state[R.LOC + c] == R.L_HAND + s]
            lines.append("  hand: " + ("; ".join(self.card_text(c) for c in hand) or "-"))
        for i in range(self.options["mats"]):
            m = s * R.NMATS + i
            card = int(state[R.MAT_CARD + m])
            top = "Automata mushroom" if card == R.AUTO_CARD else self.card_text(card)
            tile = int(state[R.MAT_TILE + m])
            lines.append(
                f"  mat {i}: {top} token {'t' + str(tile) if tile >= 0 else 'on mat'} "
                f"counter {int(state[R.MAT_CTR + m])} under {int(state[R.MAT_UNDER + m])} upg {int(state[R.MAT_UPG + m])}"  # noqa: E501 (a literal that reads best on one line)
            )
        return lines

    def state_to_string(self, state: np.ndarray) -> str:
        self._check_state(state)
        top = self._top(state)
        lines = [
            f"turn {int(state[R.TURN])}/{self.max_turns}, turn of {self.seat_name(int(state[R.TURNP]))}, "
            f"actions done {int(state[R.ACTS])}, first player {int(state[R.FIRST])}"
        ]
        if state[R.OVER]:
            e = int(state[R.ENDER])
            lines.append(
                "game over: "
                + (
                    f"{self.seat_name(e)} decayed under every mat"
                    if e >= 0
                    else "turn limit (scored)"
                    if self.options["turn_limit_end"] == "score"
                    else "turn limit (a truncation: rewards 0)"
                )
                + f"; scores {self.final_scores(state)}"
            )
        elif top:
            lines.append(f"to decide: {DECISION_NAMES[top[0]]} by player {top[1]} args {list(top[2:])}")
        if state[R.DRAWN] >= 0:
            tid = int(state[R.DRAWN])
            lines.append(f"drawn tile: {COLOURS[int(self.tiles.colour[tid])]} (tile {tid})")
        lines.append("market: " + "; ".join(self.card_text(int(c)) for c in state[R.MARKET : R.MARKET + 3]))
        lines.append(
            f"deck {int(state[R.DECK_N])}, discard {int(state[R.DISC_N])}, piles "
            f"{int(state[R.PILE_N])}/{int(state[R.PILE_N + 1])}, insect supply {int(state[R.INS_SUPPLY])}"
            + (
                f", sapling supply {int(state[R.SAP_SUPPLY])}, formation {'OUA'[int(state[R.FORMATION])]}"
                if self.expansion
                else ""
            )
        )
        lines.append("board:")
        lines.extend(self._board_lines(state))
        for s in range(self.num_seats):
            lines.extend(self._seat_lines(state, s, show_hand=True))
        return "\n".join(lines)

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        if player is None:
            return self.state_to_string(state)
        top = self._top(state)
        lines = [f"turn {int(state[R.TURN])}, {self.seat_name(int(state[R.TURNP]))} to play"]
        if top:
            lines.append(f"to decide: {DECISION_NAMES[top[0]]} by player {top[1]}")
        lines.append("market: " + "; ".join(self.card_text(int(c)) for c in state[R.MARKET : R.MARKET + 3]))
        lines.append("board:")
        lines.extend(self._board_lines(state))
        for s in range(self.num_seats):
            lines.extend(self._seat_lines(state, s, show_hand=(s == player)))
        return "\n".join(lines)

    # --- invariants ----------------------------------------------------------------
    def networks(self, state: np.ndarray, p: int) -> list[set[int]]:
        """``p``'s networks recomputed in Python (independently of the kernels)."""
        n = int(state[R.NTP])
        mothers = {int(state[R.M_POS + s]): s for s in range(self.num_seats) if state[R.M_POS + s] >= 0}

        def control(t):
            if t in mothers:
                return mothers[t]
            return int(state[R.MUSH_P + t])

        def member(t):
            if state[R.TREE + t] == p:  # the expansion: a Grandfather Tree is its owner's, whatever M is there
                return True
            c = control(t)
            return c == p or (c < 0 and state[R.SP + t * R.MAXS + p] > 0)

        seen, comps = set(), []
        for t0 in range(n):
            if t0 in seen or not member(t0):
                continue
            comp, dq = {t0}, deque([t0])
            seen.add(t0)
            while dq:
                t = dq.popleft()
                for k in range(3):
                    u = int(state[R.ADJ + t * 3 + k])
                    if u >= 0 and u not in seen and member(u):
                        seen.add(u)
                        comp.add(u)
                        dq.append(u)
            comps.append(comp)
        return comps

    def validation_error(self, code: int) -> str:
        from .validate import VALIDATION_ERRORS

        return VALIDATION_ERRORS.get(code, super().validation_error(code))

    # --- hidden information ----------------------------------------------------------
    def perturb_hidden(self, state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
        """Reshuffle what ``player`` cannot see: the cards in the deck, in the other seats'
        hands (sizes kept; a card being fruited is public and stays), in the box and (when
        another seat decides) drawn to keep; and the order of the tiles in the two piles (pile
        sizes kept)."""
        other = state.copy()
        top = self._top(state)
        own_pending = bool(top) and top[0] == R.D_KEEP and top[1] == player
        hidden_locs = [R.L_DECK, R.L_BOX] + [R.L_HAND + s for s in range(self.num_seats) if s != player]
        if not own_pending:
            hidden_locs.append(R.L_PENDING)
        # a card being fruited is public (the observation shows it): it stays in its hand
        fruiting = {
            int(state[R.STACK + lvl * R.ENTRY + 2])
            for lvl in range(int(state[R.STACK_N]))
            if int(state[R.STACK + lvl * R.ENTRY]) in (R.D_FRUIT_MAT, R.D_FRUIT_TILE, R.D_PAY)
        }
        cards = [c for c in range(R.NC) if int(state[R.LOC + c]) in hidden_locs and c not in fruiting]
        slots = [int(state[R.LOC + c]) for c in cards]
        perm = rng.permutation(len(cards))
        deck_n = int(state[R.DECK_N])
        deck_slots = []
        for c, new_loc in zip([cards[i] for i in perm], slots):
            other[R.LOC + c] = new_loc
            if new_loc == R.L_DECK:
                deck_slots.append(c)
        rng.shuffle(deck_slots)
        assert len(deck_slots) == deck_n
        other[R.DECK : R.DECK + deck_n] = deck_slots
        tiles = []
        for j in range(2):
            tiles += [int(x) for x in state[R.PILE + j * R.NT_MAX : R.PILE + j * R.NT_MAX + int(state[R.PILE_N + j])]]
        rng.shuffle(tiles)
        k = 0
        for j in range(2):
            for i in range(int(state[R.PILE_N + j])):
                other[R.PILE + j * R.NT_MAX + i] = tiles[k]
                k += 1
        return other


def graph_observation(game: MyceliaGame, state: np.ndarray, player: int) -> dict[str, np.ndarray]:
    """The board of ``player``'s observation as a graph, for GNN policies.

    ``nodes``: (placed tiles, 19) the per-tile features of the flat observation (placement
    order); ``edge_links``: (2 x shared edges, 2) directed pairs (tile, neighbour);
    ``edges``: (same, 3) one-hot of the edge family (A horizontal, B "/", C "\\") they share;
    ``globals``: everything of the flat observation before the tile block.
    """
    obs = game.observe(state, player)
    n = int(state[R.NTP])
    start = R.obs_size() - R.NT_MAX * R.TF
    nodes = obs[start : start + n * R.TF].reshape(n, R.TF).copy()
    links, feats = [], []
    for t in range(n):
        for k in range(3):
            u = int(state[R.ADJ + t * 3 + k])
            if u >= 0:
                links.append((t, u))
                feats.append(np.eye(3, dtype=np.float32)[k])
    return {
        "nodes": nodes,
        "edge_links": np.asarray(links, np.int64).reshape(-1, 2),
        "edges": np.asarray(feats, np.float32).reshape(-1, 3),
        "globals": obs[:start].copy(),
    }


MyceliaGame.graph_observation = graph_observation
MyceliaGame.graph_node_features = R.TF
MyceliaGame.graph_edge_features = 3
