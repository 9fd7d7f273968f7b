"""MycologyGame: the functional API of Mycology (``mycology_v1``).

Two observations of the same game, chosen by the option ``observation``: "compact" (the
default: small integers, ``uint8`` in the vector API; :mod:`.observation_v1`, kernels
:mod:`.rules_v1`) and "full" (scaled fractions and a 19-value feature block per card place,
the observation of the retired ``mycology_v0``; :mod:`.observation`, kernels :mod:`.rules`).
Both kernel modules share every kernel but ``observe`` (and one more check in ``validate``).
"""

from __future__ import annotations

import difflib
import re
from typing import Any, ClassVar

import numpy as np

from mushgym.core import RNG_WORDS, rng_below, rng_seed
from mushgym.game import Game, GameSpec

from . import rules as R
from . import rules_v1
from .actions import NUM_ACTIONS, A
from .baskets import poison_bound, update_scores
from .cards import NKINDS, RESOURCE_NAMES, RESOURCE_SHORT, SEASON_NAMES, SPECIALS, Deck, load_deck
from .layout import (
    ARG_ACTION,
    ARG_CARDS,
    ARG_GIVE,
    ARG_OWED,
    ARG_OWED_RES,
    ARG_PAY_KEY,
    ARG_PAY_TYPE,
    ARG_TARGET,
    CAPACITY,
    DEC_BOTTOM,
    DEC_PAY,
    DEC_TAKE,
    DECISION_ARGS,
    FIELD_SIZE,
    NUM_RES,
    NUM_SEASONS,
    ROW_SIZE,
    RUNNING,
    STATE_SIZE,
    C,
    L,
    decision_depth,
    top_arg,
    top_kind,
    top_player,
)
from .observation import CARD, CF, obs_size, observation_layout
from .observation_v1 import BYTE, CATEGORICAL
from .observation_v1 import obs_size as compact_obs_size
from .observation_v1 import observation_layout as compact_observation_layout

PHASE_NAMES = ("act", "pay", "order cards under the deck", "choose the mushroom to give", "choose the mushroom to take")
KIND_NAMES = (
    "harvest",
    "trade 3 resources for a resource",
    "trade 3 resources for a Feast",
    "trade a Feast for a resource",
    "trade a Feast to advance the season",
    "trade a Feast to replace a field row",
    "trade 2 Feast to exchange mushrooms",
)
REWARDS = ("win_loss", "score", "score_diff")
TURN_LIMITS = (120, 240, 480)
TURN_LIMIT_ENDS = ("truncate", "score")
POISON_RULES = ("every_collection", "dice_only")
#: the option ``observation``: its kernel module (the same kernels, another ``observe``)
OBSERVATIONS = {"compact": rules_v1, "full": R}
CARD_FEATURES = tuple(
    f"{f.name}[{i}]" if f.shape else f.name for f in CARD.fields.values() for i in range(f.size if f.shape else 1)
)


class MycologyGame(Game):
    """Mycology for 2 to 6 players.

    Options: ``num_players`` (2..6, default 2); ``reward`` = "win_loss" (default: +1 to a
    sole winner, -1/(n-1) to each other player; k tied winners each get (n-k)/(k(n-1))),
    "score" (each player's final score) or "score_diff" (own final score minus the mean of
    the others'); ``turn_limit`` (120, 240, 480 turns, default 240, rounded up to whole
    rounds); ``turn_limit_end``: "truncate" (default: reaching the limit is a truncation,
    not one of the rulebook's endings, with terminal rewards 0) or "score" (scored like a
    normal ending: finite zero-sum games); ``poison_rule``: "every_collection" (default, the
    rulebook's words: Poison whenever the player collects the resource, from the dice or
    trades 1 and 3) or "dice_only" (Poison from the dice only); ``observation``: "compact"
    (default: integers in 0..255, ``uint8`` in the vector API, the ``onehot`` encoder expands
    its ids) or "full" (the card features of every place, scaled; ``mycology_v0``'s).
    """

    env_id: ClassVar[str] = "mycology_v1"
    kernels = rules_v1  # the default observation's; an instance with observation="full" has R
    actions = A
    layout = L
    option_choices: ClassVar[dict[str, tuple]] = {
        "num_players": (2, 3, 4, 5, 6),
        "reward": REWARDS,
        "turn_limit": TURN_LIMITS,
        "turn_limit_end": TURN_LIMIT_ENDS,
        "poison_rule": POISON_RULES,
        "observation": tuple(OBSERVATIONS),
    }
    default_options: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "reward": "win_loss",
        "turn_limit": 240,
        "turn_limit_end": "truncate",
        "poison_rule": "every_collection",
        "observation": "compact",
    }
    #: A card file to load instead of the designed one (subclass and set it to play the real cards).
    deck_path: ClassVar[str | None] = None

    # --- construction ------------------------------------------------------------
    def __init__(self, **options: Any) -> None:
        # the kernel module follows the observation (an unknown value is refused by the option check)
        self.kernels = OBSERVATIONS.get(options.get("observation", "compact"), rules_v1)
        self.compact = self.kernels is rules_v1
        #: every observation value is an integer: the vector API writes the compact one as uint8
        self.obs_integral = self.compact
        super().__init__(**options)
        if self.compact:
            self.obs_categorical = self._categorical()

    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        self.deck: Deck = load_deck(self.deck_path)
        n = options["num_players"]
        d = self.deck
        self.max_turns = -(-options["turn_limit"] // n) * n
        cfg = C.new_state()
        t = C.arrays(cfg)
        t["num_players"][...] = n
        t["reward"][...] = REWARDS.index(options["reward"])
        t["max_turns"][...] = self.max_turns
        t["turn_limit_scored"][...] = TURN_LIMIT_ENDS.index(options["turn_limit_end"])
        t["poison_rule"][...] = POISON_RULES.index(options["poison_rule"])
        t["points"][:] = d.points
        t["seasons"][:] = d.seasons
        t["feast"][:] = d.feast
        t["special"][:] = d.special
        t["poison_resource"][:] = d.poison_res
        t["cost"][:] = d.cost
        # the config body has the config's offsets: the kernel's proven bound, run in Python (nothing to compile)
        self._poison_bound = int(getattr(poison_bound, "py_func", poison_bound)(cfg))
        return cfg

    def steps_per_action(self) -> int:
        """Most decisions one action can take: the choice, then one per unit paid or card ordered
        (trade 5: 1 Feast + 3 cards; trade 6: 2 Feast + the mushroom given + the one taken)."""
        max_cost = int(self.deck.cost.sum(axis=1).max())
        return 1 + max(max_cost, 3, 1 + 3, 2 + 2)

    def max_game_length(self) -> int:
        """Proven bound: at most ``max_turns`` turns (the turn limit ends the game), each of at
        most 2 actions (the turn ends automatically after the second), each of at most
        ``steps_per_action`` decisions; an early end of turn is one decision replacing an action."""
        return self.max_turns * 2 * self.steps_per_action()

    def token_bound(self) -> int:
        """Bound on a player's resources + Feast + Magic: only dice rolls (+1 each) and harvests
        (+Feast +1 Magic, at most 10 per player) increase the sum; every trade lowers or keeps it."""
        return 5 + 2 + self.max_turns + 10 * (int(self.deck.feast.max()) + 1)

    def poison_bound(self) -> int:
        """Proven bound on a player's Poison tokens (``baskets.poison_bound``: up to 3 collections
        a turn, each giving at most ``min(10, poison cards of one resource)``)."""
        return self._poison_bound

    def score_bounds(self) -> tuple[int, int]:
        best_cards = int(np.sort(self.deck.points)[-10:].sum())
        return -2 * self.poison_bound(), best_cards + self.token_bound()

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
        size = compact_obs_size(n) if options["observation"] == "compact" else obs_size(n)
        return GameSpec(
            env_id=self.env_id,
            num_players=n,
            num_actions=NUM_ACTIONS,
            observation_shape=(size,),
            state_size=STATE_SIZE,
            max_game_length=self.max_game_length(),
            reward_range=rr,
            perfect_information=False,
            chance=True,
            zero_sum=zero_sum,
            options=dict(options),
        )

    def card_feature_high(self) -> np.ndarray:
        """Highest value of each of the 19 card features with this deck."""
        d = self.deck
        hi = np.ones(CF, np.float32)
        f = CARD.fields
        hi[f["points"].offset] = float(d.points.max()) / 10.0
        hi[f["cost"].offset : f["cost"].offset + NUM_RES] = d.cost.max(axis=0) / 4.0
        hi[f["feast"].offset] = float(d.feast.max()) / 4.0
        return hi

    def card_points_bound(self) -> int:
        """Most card points a player's 10 basket places can hold."""
        return int(np.sort(self.deck.points)[-10:].sum())

    def observation_layout(self):
        """The observation of this game (its option ``observation``) as one
        :class:`~mushgym.core.Layout`, with its bounds."""
        if self.options["observation"] == "compact":
            return self.compact_observation_layout()
        return observation_layout(
            self.options["num_players"],
            {
                "card_high": self.card_feature_high(),
                "owed_high": self.deck.cost.max(axis=0),
                "token_high": float(self.token_bound()),
                "poison_high": float(self.poison_bound()),
                "score": tuple(float(x) for x in self.score_bounds()),
            },
        )

    def compact_observation_layout(self):
        """The compact observation (:mod:`.observation_v1`): every value an integer in 0..255."""
        n = self.options["num_players"]
        bounds = {
            "round": self.max_turns // n,
            "owed": self.deck.cost.max(axis=0),
            "card_points": self.card_points_bound(),
            "tokens_256": self.token_bound() // BYTE,
            "poison_256": self.poison_bound() // BYTE,
        }
        wide = {k: int(np.max(v)) for k, v in bounds.items() if np.max(v) > BYTE - 1}
        if wide:  # only a card file far beyond the designed one (or a longer turn limit) gets here
            raise ValueError(
                f"{self.env_id}: observation values {wide} would not fit in a byte; "
                "this card data or turn limit needs observation='full'"
            )
        return compact_observation_layout(n, bounds)

    def _categorical(self) -> np.ndarray:
        """One boolean per element of the compact observation: an id (a card, a season, a
        decision, a seat offset, ...), not a count; the ``onehot`` encoder expands every id."""
        mask = np.zeros(self.observation_shape, bool)
        for f in self.observation_layout().fields.values():
            if re.sub(r"^seat\d+_", "", f.name) in CATEGORICAL:
                mask[f.offset : f.offset + f.size] = True
        return mask

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.observation_layout().bounds()

    # --- named views of a state ---------------------------------------------------------
    def arrays(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Writable views of every state field, shaped as declared in :mod:`.layout`."""
        return L.arrays(state)

    def view(self, state: np.ndarray) -> dict[str, object]:
        return L.view(state)

    def scores(self, state: np.ndarray) -> list[int]:
        """Every player's score (card points + Feast + Magic - 2 x Poison)."""
        return [int(x) for x in L.arrays(state)["score"][: self.num_players]]

    def resources(self, state: np.ndarray, player: int) -> list[int]:
        """The player's Ecology Resources in the order OP, PP, WR, SY, SD."""
        return [int(x) for x in L.arrays(state)["resources"][player]]

    def tokens(self, state: np.ndarray, player: int) -> dict[str, int]:
        v = L.arrays(state)
        return {"feast": int(v["feast"][player]), "magic": int(v["magic"][player]), "poison": int(v["poison"][player])}

    def basket(self, state: np.ndarray, player: int, season: int | str) -> list[int]:
        """Card ids in the player's basket of a season, bottom first."""
        s = season_index(season)
        v = L.arrays(state)
        return [int(c) for c in v["basket"][player, s, : int(v["basket_count"][player, s])]]

    def field(self, state: np.ndarray) -> list[int]:
        """The 8 field slots (card id, -1 empty): 0..3 top row, 4..7 bottom row."""
        return [int(c) for c in L.arrays(state)["field"]]

    def deck_cards(self, state: np.ndarray) -> list[int]:
        """The deck, top first (hidden from the players: only its set is public)."""
        v = L.arrays(state)
        return [int(c) for c in v["deck"][: int(v["deck_count"])][::-1]]

    def season(self, state: np.ndarray) -> int:
        return int(state[R.SEASON])

    def turn_player(self, state: np.ndarray) -> int:
        return int(state[R.TURN_PLAYER])

    def phase(self, state: np.ndarray) -> int:
        """0 act, else the kind of the decision on top of the stack: 1 pay (DEC_PAY), 2 order cards
        under the deck (DEC_BOTTOM), 3 choose the mushroom to give (DEC_GIVE), 4 the one to take (DEC_TAKE)."""
        return int(top_kind(state)) if decision_depth(state) > 0 else 0

    def decision(self, state: np.ndarray) -> dict[str, Any] | None:
        """The pending decision on top of the stack, readable; None when the turn player simply acts."""
        kind = self.phase(state)
        if kind == 0:
            return None
        args = [int(top_arg(state, i)) for i in range(DECISION_ARGS)]
        out: dict[str, Any] = {
            "kind": PHASE_NAMES[kind],
            "player": int(top_player(state)),
            "action": KIND_NAMES[args[ARG_ACTION]],
            "target": args[ARG_TARGET],
        }
        if kind == DEC_PAY:
            out.update(
                type=("specific", "any", "feast")[args[ARG_PAY_TYPE]],
                key=args[ARG_PAY_KEY],
                owed=args[ARG_OWED],
                owed_resources=args[ARG_OWED_RES : ARG_OWED_RES + NUM_RES],
            )
        elif kind == DEC_BOTTOM:
            out["cards"] = [c for c in args[ARG_CARDS : ARG_CARDS + ROW_SIZE]]
        elif kind == DEC_TAKE:
            out["give"] = args[ARG_GIVE]
        return out

    # --- text ----------------------------------------------------------------------
    def card_id(self, card: int | str) -> int:
        """A card id from an id or a name (a clear error names close matches)."""
        if isinstance(card, (int, np.integer)) and not isinstance(card, bool):
            if not 0 <= int(card) < NKINDS:
                raise ValueError(f"{self.env_id}: card id {card} is outside 0..{NKINDS - 1}")
            return int(card)
        if isinstance(card, str) and card in self.deck.names:
            return self.deck.names.index(card)
        close = difflib.get_close_matches(str(card), self.deck.names, n=3)
        raise ValueError(
            f"{self.env_id}: unknown card {card!r}"
            + (f"; did you mean {close}?" if close else "; cards are named as in cards.toml or given by id 0..83")
        )

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
        k, args = A.decode(action)
        arg = args[0] if args else 0
        n = self.num_players
        p = int(state[R.TURN_PLAYER])
        if k == "harvest":
            return f"harvest field slot {arg}: {self.card_text(int(state[R.field_at(arg)]))}"
        if k == "trade1":
            return f"trade 3 resources for 1 {RESOURCE_NAMES[arg]}"
        if k == "trade2":
            return "trade 3 resources for 1 Feast"
        if k == "trade3":
            return f"trade 1 Feast for 1 {RESOURCE_NAMES[arg]}"
        if k == "trade4":
            return "trade 1 Feast to advance the season"
        if k == "trade5":
            return f"trade 1 Feast to replace the {('top', 'bottom')[arg]} row of the field"
        if k == "trade6":
            return f"trade 2 Feast to exchange mushrooms of the current season with player {(p + arg + 1) % n}"
        if k in ("give", "take"):
            dec = self.decision(state)
            who = p if k == "give" or dec is None else dec["target"]
            cards = self.basket(state, who, self.season(state))
            return f"{k} {self.card_text(cards[arg] if arg < len(cards) else -1)}"
        if k == "end":
            return "end the turn"
        if k == "pay_res":
            return f"pay 1 {RESOURCE_NAMES[arg]}"
        if k == "pay_magic":
            if self.phase(state) != DEC_PAY:
                return "pay 1 Magic token"
            dec = self.decision(state)
            if dec["type"] == "specific":
                r = next((r for r, x in enumerate(dec["owed_resources"]) if x > 0), 0)
                return f"pay 1 Magic token as {RESOURCE_NAMES[r]}"
            return "pay 1 Magic token" + (" as a Feast" if dec["type"] == "feast" else " as a resource")
        if k == "pay_feast":
            return "pay 1 Feast"
        card = int(top_arg(state, ARG_CARDS + arg)) if self.phase(state) == DEC_BOTTOM else -1
        return f"put {self.card_text(card)} under the deck"

    def _player_lines(self, state: np.ndarray, p: int) -> list[str]:
        res = " ".join(f"{RESOURCE_SHORT[r]}{x}" for r, x in enumerate(self.resources(state, p)))
        t = self.tokens(state, p)
        lines = [
            f"player {p}: {res} Feast{t['feast']} Magic{t['magic']} Poison{t['poison']} score {self.scores(state)[p]}"
        ]
        for s in range(NUM_SEASONS):
            cards = [self.card_text(c) for c in self.basket(state, p, s)]
            lines.append(
                f"  {SEASON_NAMES[s]:6} {len(cards)}/{int(CAPACITY[s])}: " + ("; ".join(cards) if cards else "-")
            )
        return lines

    def _table_lines(self, state: np.ndarray) -> list[str]:
        v = L.view(state)
        roll, d1 = v["roll"], v["die1"]
        lines = [
            f"season {SEASON_NAMES[v['season']]}; turn {v['turn']}/{self.max_turns}; "
            f"first player {v['first_player']}; last roll {d1}+{roll - d1}={roll}"
        ]
        ph = self.phase(state)
        if v["ender"] != RUNNING:
            ender = v["ender"]
            how = f"player {ender} filled their baskets" if ender >= 0 else "turn limit reached"
            lines.append(f"game over ({how})")
        else:
            lines.append(
                f"to act: player {v['turn_player']}, phase {PHASE_NAMES[ph]}, actions left {v['actions_left']}"
            )
        dec = self.decision(state)
        if dec is not None:
            lines.append(f"pending: {dec['action']} (arg {dec['target']})")
        if ph == DEC_PAY:
            if dec["type"] == "specific":
                owed = " ".join(f"{RESOURCE_SHORT[r]}{x}" for r, x in enumerate(dec["owed_resources"]) if x)
            elif dec["type"] == "any":
                owed = f"{dec['owed']} ANY resources"
            else:
                owed = f"{dec['owed']} Feast"
            lines.append(f"owed: {owed} (order key {dec['key']})")
        if ph == DEC_TAKE:
            given = self.basket(state, v["turn_player"], v["season"])[dec["give"]]
            lines.append(f"giving: {self.card_text(given)}")
        if ph == DEC_BOTTOM:
            lines.append(
                "to put under the deck: "
                + "; ".join(f"[{j}] {self.card_text(c)}" for j, c in enumerate(dec["cards"]) if c >= 0)
            )
        field = self.field(state)
        for row in range(2):
            lines.append(
                f"field {('top', 'bottom')[row]}: "
                + "; ".join(
                    f"[{row * ROW_SIZE + j}] {self.card_text(field[row * ROW_SIZE + j])}" for j in range(ROW_SIZE)
                )
            )
        for p in range(self.num_players):
            lines.extend(self._player_lines(state, p))
        return lines

    def state_to_string(self, state: np.ndarray) -> str:
        self._check_state(state)
        lines = self._table_lines(state)
        deck = self.deck_cards(state)
        lines.append(f"deck ({len(deck)} cards, top first): " + " ".join(str(c) for c in deck))
        return "\n".join(lines)

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        self._check_state(state)
        lines = self._table_lines(state)
        lines.append(f"deck: {int(state[R.DECK_N])} cards")
        if player is not None:
            lines.insert(0, f"(view of player {player})")
        return "\n".join(lines)

    # --- checks ----------------------------------------------------------------------
    def validation_error(self, code: int) -> str:
        from .validate import VALIDATION_ERRORS

        return rules_v1.VALIDATION_ERRORS_V1.get(code) or VALIDATION_ERRORS.get(code) or super().validation_error(code)

    def perturb_hidden(self, state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
        """Reorder the deck (nothing else is hidden). Returns an unchanged copy only if the
        deck has fewer than 2 cards."""
        other = state.copy()
        nd = int(state[R.DECK_N])
        if nd < 2:
            return other
        deck = L.arrays(other)["deck"][:nd]
        before = deck.copy()
        for _ in range(10):
            rng.shuffle(deck)
            if not np.array_equal(deck, before):
                break
        else:
            deck[0], deck[1] = deck[1], deck[0]
        return other

    # --- a state from a description -------------------------------------------------
    def state_from(
        self,
        *,
        field=None,
        baskets=None,
        resources=None,
        feast=None,
        magic=None,
        poison=None,
        season: int | str = "Winter",
        turn_player: int = 0,
        first_player: int | None = None,
        actions_left: int = 2,
        turn: int = 0,
        roll: int = 7,
        deck_top=(),
        seed: int = 0,
        next_roll: int | None = None,
    ) -> np.ndarray:
        """A position at the start of ``turn_player``'s actions (the dice already rolled).

        ``field``: 8 cards (names or ids; None for an empty slot, only with an empty
        deck), 0..3 the top row, or {slot: card} with the other slots dealt from the
        shuffled rest (all 8 dealt if omitted). ``baskets``: {player: {season: [cards, bottom first]}}.
        ``resources``: {player: [OP, PP, WR, SY, SD]}; ``feast``/``magic``/``poison``:
        {player: count} (all default 0). ``season``: name or 0..3. ``roll``: the last dice
        total shown. Every card not placed goes into the deck: ``deck_top`` first (top
        first), the rest below in an order shuffled with ``seed``. ``next_roll`` (2..12):
        seed the game's generator so that the next turn's dice make that total.
        Scores are computed; the position is checked with :meth:`validate`
        (a ValueError names what is wrong).
        """
        n = self.num_players
        state = self.stamp_header(np.zeros(self.state_size, np.int64))  # the header: mushgym.core.header
        v = L.arrays(state)

        def per_player(name, given, width=None):
            given = (
                {} if given is None else (dict(enumerate(given)) if isinstance(given, (list, tuple)) else dict(given))
            )
            bad = [p for p in given if not (isinstance(p, (int, np.integer)) and 0 <= p < n)]
            if bad:
                raise ValueError(f"{self.env_id}: {name} given for player(s) {bad}; players are 0..{n - 1}")
            return given

        used: dict[int, str] = {}

        def place(card, where):
            c = self.card_id(card)
            if c in used:
                raise ValueError(f"{self.env_id}: {self.deck.names[c]} is placed twice ({used[c]} and {where})")
            used[c] = where
            return c

        if field is None:
            field = {}
        if not isinstance(field, dict):
            if len(field) != FIELD_SIZE:
                raise ValueError(f"{self.env_id}: the field has {FIELD_SIZE} slots, {len(field)} given")
            field = dict(enumerate(field))
        bad = [j for j in field if not (isinstance(j, (int, np.integer)) and 0 <= j < FIELD_SIZE)]
        if bad:
            raise ValueError(f"{self.env_id}: field slot(s) {bad} do not exist; slots are 0..{FIELD_SIZE - 1}")
        v["field"][:] = -1
        for j, card in field.items():
            v["field"][j] = -1 if card is None else place(card, f"field {j}")
        v["basket"][:] = -1
        for p, by_season in per_player("baskets", baskets).items():
            for season_key, cards in dict(by_season).items():
                s = season_index(season_key)
                if len(cards) > CAPACITY[s]:
                    raise ValueError(
                        f"{self.env_id}: player {p}'s {SEASON_NAMES[s]} basket holds at most "
                        f"{int(CAPACITY[s])} cards, {len(cards)} given"
                    )
                for k, card in enumerate(cards):
                    v["basket"][p, s, k] = place(card, f"player {p}'s {SEASON_NAMES[s]} basket")
                v["basket_count"][p, s] = len(cards)
        for p, res in per_player("resources", resources).items():
            if len(res) != NUM_RES:
                raise ValueError(f"{self.env_id}: resources are {NUM_RES} counts (OP, PP, WR, SY, SD), got {res!r}")
            v["resources"][p] = res
        for name, given in (("feast", feast), ("magic", magic), ("poison", poison)):
            for p, x in per_player(name, given).items():
                v[name][p] = x
        top = [place(c, "the deck") for c in deck_top]
        rest = [c for c in range(NKINDS) if c not in used]
        np.random.default_rng(seed).shuffle(rest)
        for j in range(FIELD_SIZE):
            if j not in field and rest:
                v["field"][j] = rest.pop()
        deck = rest + top[::-1]  # bottom first
        v["deck"][: len(deck)] = deck
        v["deck_count"][...] = len(deck)
        if not 2 <= roll <= 12:
            raise ValueError(f"{self.env_id}: a dice total is 2..12, got {roll}")
        v["roll"][...] = roll
        v["die1"][...] = max(1, roll - 6)
        v["season"][...] = season_index(season)
        for name, x in (
            ("turn_player", turn_player),
            ("first_player", turn_player if first_player is None else first_player),
        ):
            if not 0 <= x < n:
                raise ValueError(f"{self.env_id}: {name} {x} is not a player (0..{n - 1})")
            v[name][...] = x
        v["actions_left"][...] = actions_left
        v["turn"][...] = turn
        v["ender"][...] = RUNNING
        rng_seed(state, R.RNG, seed if next_roll is None else seed_for_roll(next_roll))
        update_scores(state, self.config)
        try:
            self.validate(state)
        except ValueError as e:
            why = str(e).removeprefix(f"{self.env_id}: invalid state: ")
            raise ValueError(f"{self.env_id}: not a valid position: {why}") from None
        return state


def season_index(season: int | str) -> int:
    if isinstance(season, str):
        names = [s.lower() for s in SEASON_NAMES]
        if season.lower() not in names:
            raise ValueError(f"mycology: unknown season {season!r}; seasons are {list(SEASON_NAMES)}")
        return names.index(season.lower())
    if not 0 <= int(season) < NUM_SEASONS:
        raise ValueError(f"mycology: season {season} is outside 0..3 ({list(SEASON_NAMES)})")
    return int(season)


def seed_for_roll(total: int, start: int = 0) -> int:
    """A generator seed whose next two d6 make ``total`` (2..12)."""
    if not 2 <= total <= 12:
        raise ValueError(f"mycology: a dice total is 2..12, got {total}")
    tmp = np.zeros(RNG_WORDS, np.int64)
    for seed in range(start, start + 100000):
        rng_seed(tmp, 0, seed)
        if rng_below(tmp, 0, 6) + rng_below(tmp, 0, 6) + 2 == total:
            return seed
    raise AssertionError(f"no seed for total {total}")  # pragma: no cover (every total has many)
