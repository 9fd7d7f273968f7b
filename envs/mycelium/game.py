"""MyceliumGame: the functional API of Mycelium (``mycelium_v2``) over the kernels of :mod:`rules`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mushgym.game import Game, GameSpec

from . import emsporium as EM
from . import rules
from . import tavern as TV
from .data import MUSHLING_NAMES, MUSHLING_TYPES, load_board, load_mushlings, load_nutrients
from .positions import describe, state_from
from .variant_data import HERO_EFFECTS, ITEM_NAMES, load_heroes, load_items  # variants

PHASE_NAMES = ("explore", "nutrient", "action", "place", "discard", "over")
DECISION_NAMES = (
    "resolve",
    "combat",
    "fly agaric window",
    "path window (Penny Bun / Inky Cap)",
    "reinforcements",
    "bird's nest",
    "use a reaction",
    "pay",
    "place path",
    "remove own path",
    "attack card",
    "defend",
    "give to Inky Cap",
    "Russula placement",
    "arrange nutrient cards",
    "buy items",
    "pick a hero",
    "keep a legend",  # variants emsporium, hero_tavern, legends
    "trade offer (teammate)",
    "gathering choice",  # variant team
    "exchange: choose the cards",
)
ABILITY_NAMES = (
    "Amethyst Deceiver (exchange)",
    "Amethyst Deceiver (replace)",
    "Chicken of the Woods (defend)",
    "Chicken of the Woods (attack)",
    "Common Puffball",
    "Liberty Cap",
    "Bird's Nest",
    "Parrot Toadstool (view)",
    "Parrot Toadstool (attack)",
    "Russula",
    "Veiled Lady",
    "Fly Agaric",
    "Inky Cap",
    "Penny Bun",
    "Reinforcement",
    "Builder pair",
    "Builder (remove)",
    "Worker (spawn)",
    "Magic Mushling",
    "Truffle",
    "Witch's Hat",
    "Thief pair",
    "Thief (steal)",
)
REACTION_PROMPTS = ("public", "holders")
TURN_LIMITS = (60, 120, 240)
TURN_LIMIT_ENDS = ("truncate", "score")
#: a bound on the actions of one Action Phase (RULES.md, gap 19): every action but an attack and
#: the Amethyst Deceiver's exchange (30 of those at most, ``MAX_ACTIONS_PER_TURN``) lowers
#: 2 x cards in hand + mat Spore Tokens + 30 x heroes held (at most 2 x 54 + 50 + 30 x 8 = 398)
#: by 1 or more; each of the 30 raises it by at most 8; Trade offers are at most 24 and the
#: Trade itself 1: 398 + 30 x 8 + 30 + 25 + the end = 694 < 700.
ACTIONS_PER_PHASE = 700
#: a bound on the steps of one turn: each action at most 2,000 steps (a payment of <= 31 steps,
#: <= 10 Paths, or one combat; inside any window every step that is not a pass plays a card or a
#: token out of a hand, and no card returns to a hand before the window closes, so a window sees
#: at most 54 + 16 plays, each opening at most 4 prompts), plus the Nutrient, Place and Draw
#: Phases (<= 500).
STEPS_PER_TURN = ACTIONS_PER_PHASE * 2_000 + 500
EXPLORE_STEPS = 12


class MyceliumGame(Game):
    """Mycelium: A Mushling Game for 2 (two Colonies each), 3 or 4 players.

    Options: ``num_players`` (2, 3 or 4, default 4: the board side and the nutrient deck follow;
    2 is the 2-player game below);
    ``reaction_prompts``: "public" (default) asks, at every reaction window, every player whom
    public information leaves able to hold a matching card (a hand that is not empty while some
    copy is not in a public place), so being asked tells nobody anything; "holders" asks only
    the players who really hold one, which is faster but REVEALS to everyone watching the
    prompts who holds a Fly Agaric, Penny Bun, Inky Cap, Bird's Nest or Oyster;
    ``turn_limit`` (60, 120, 240 turns, default 120): the game stops after that many turns;
    ``turn_limit_end``: "truncate" (default) makes that stop a **truncation** (the kernel
    ``is_truncated``: PettingZoo ``truncations``, the vector loops' and SB3's
    ``TimeLimit.truncated``, every return 0), "score" an ending scored by Nutrients (the k
    players with the most share the win: (n-k)/(k(n-1)) each, -1/(n-1) to the others).

    Variants (RULES.md, one section each; any combination, Legends implies the Tavern):
    ``emsporium`` (False/True): the shop of 5 items, the Buy action, the items' effects
    (``items.toml``); ``hero_tavern`` (False/True): the Hero Tavern location and the 8 heroes
    (``heroes.toml``); ``legends`` (False/True): each player starts with 1 of 2 heroes dealt
    (implies the Tavern); ``team`` (False/True; ``team.py``, RULES.md "Team variant"): the
    Team rules, 4 players only: Blue + Red against Green + Beige, the Trade action, no
    attacks on a teammate, optional gathering, 10 Nutrients per Colony, the first team to 15
    wins, rewards shared by the team; ``num_players=2``: the 2-player game, which plays the
    Team rules on the 4-player board, each agent acting for two diagonal Colonies (agent 0:
    Blue and Red, agent 1: Green and Beige; ``team`` is implied). Team and the 2-player game
    combine with Emsporium, the Tavern and Legends (RULES.md, "Combining the variants").

    Spaces: the variants' action groups and observation fields are appended in two blocks
    after the base game's, the items' block (Emsporium, Hero Tavern, Legends) and then the
    Team block; a game's action space and observation are the prefix of the full ones that
    ends with the last block of an option that is on (:meth:`space_sizes`): every variant off,
    the base game's 1,235 actions and 1,506 values; Emsporium, Hero Tavern or Legends on (Team
    off), 1,263 and 1,614; the Team rules on (``team=True`` or 2 players, with or without the
    others), 1,294 and 1,705. The base game's ids and offsets never move.
    """

    env_id: ClassVar[str] = "mycelium_v2"
    kernels = rules
    actions = rules.ACTION_SPACE
    layout = rules.STATE
    #: the variants the rulebook lets players combine: the harness plays every allowed combination
    combinable_options: ClassVar[tuple[str, ...]] = ("num_players", "emsporium", "hero_tavern", "legends", "team")
    #: CI's small form of that run: games cut at 60 turns (MUSHGYM_SLOW_SCALE>1 plays them whole)
    combination_small_options: ClassVar[dict] = {"turn_limit": 60}
    option_choices: ClassVar[dict[str, tuple]] = {
        "num_players": (2, 3, 4),
        "reaction_prompts": REACTION_PROMPTS,
        "turn_limit": TURN_LIMITS,
        "turn_limit_end": TURN_LIMIT_ENDS,
        "emsporium": (False, True),  # variant: emsporium
        "hero_tavern": (False, True),  # variant: hero_tavern
        "legends": (False, True),  # variant: legends (implies the Tavern)
        "team": (False, True),  # variant: team
    }
    default_options: ClassVar[dict[str, Any]] = {
        "num_players": 4,
        "reaction_prompts": "public",
        "turn_limit": 120,
        "turn_limit_end": "truncate",
        "emsporium": False,
        "hero_tavern": False,
        "legends": False,
        "team": False,
    }
    #: the shared harness's default run plays a quarter of its games for these option sets
    #: (the full runs are behind the ``slow`` marker): variant: team
    harness_small_options: ClassVar[tuple] = ("team", ("num_players", 2))
    board_path: ClassVar[str | None] = None
    cards_path: ClassVar[str | None] = None
    nutrients_path: ClassVar[str | None] = None
    items_path: ClassVar[str | None] = None  # variant: emsporium
    heroes_path: ClassVar[str | None] = None  # variant: hero_tavern

    @staticmethod
    def variants_on(options: dict[str, Any]) -> bool:
        """Emsporium, Hero Tavern or Legends on: the action space and the observation carry the items' block."""
        return bool(options.get("emsporium") or options.get("hero_tavern") or options.get("legends"))

    @staticmethod
    def team_on(options: dict[str, Any]) -> bool:
        """The Team rules (``team=True`` or the 2-player game): the spaces carry the Team block."""
        return bool(options.get("team")) or int(options["num_players"]) == 2

    @classmethod
    def space_sizes(cls, options: dict[str, Any]) -> tuple[int, int]:
        """(actions, observation values): the prefix of the full spaces up to the last block of
        an option that is on (base game | items' block | Team block)."""
        if cls.team_on(options):
            return rules.NUM_ACTIONS, rules.OBS_SIZE
        if cls.variants_on(options):
            return rules.NUM_ACTIONS_ITEMS, rules.OBS_SIZE_ITEMS
        return rules.NUM_ACTIONS_BASE, rules.OBS_SIZE_BASE

    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        agents = int(options["num_players"])
        # variant: team: the 2-player game plays the Team rules with 4 seats (two per agent)
        if options["team"] and agents == 3:
            raise ValueError(
                f"{self.env_id}: team=True needs 4 players (Blue + Red against Green + Beige) or "
                "num_players=2 (two Colonies each); got num_players=3. Allowed: team=True with "
                "num_players=4 or 2, team=False with 2, 3 or 4 (2 players always play the Team rules)"
            )
        n = self.num_seats = 4 if agents == 2 else agents
        self.team_rules = bool(options["team"]) or agents == 2
        self.board = board = load_board(n, self.board_path)
        self.mushlings = mush = load_mushlings(self.cards_path)
        self.nutrients = nut = load_nutrients(self.nutrients_path)
        cfg = np.zeros(rules.CFG_SIZE, np.int64)
        c = rules.CONFIG.arrays(cfg)
        c["num_players"][...] = n
        c["holders"][...] = int(options["reaction_prompts"] == "holders")
        c["turn_limit"][...] = int(options["turn_limit"])
        c["turn_limit_scored"][...] = TURN_LIMIT_ENDS.index(options["turn_limit_end"])
        c["n_edges"][...] = len(board.edges)
        c["n_glocs"][...] = len(board.gloc_names)
        c["willow"][...] = board.willow
        c["mush_room"][...] = board.mush_room
        c["edge_nbr"][...] = board.edge_nbr
        c["edge_gloc"][...] = board.edge_gloc
        c["permanent"][...] = board.permanent
        c["gloc_edges"][...] = board.gloc_edges
        c["gloc_kind"][:] = -1
        c["gloc_kind"][: len(board.gloc_names)] = board.gloc_kind
        c["cave"][:] = -1
        c["cave"][:n] = board.cave_of_seat
        c["tree"][...] = board.tree_gloc
        c["combat"][...] = mush.combat
        c["spore"][...] = mush.spore
        c["copies"][...] = mush.copies
        c["card_type"][...] = [MUSHLING_TYPES.index(t) for t in mush.types]
        c["deck"][...] = np.repeat(np.arange(len(MUSHLING_NAMES)), mush.copies)
        nut_cards = [
            k for k in range(len(nut.names)) for _ in range(int(nut.copies[k])) if n == 4 or not nut.four_player_only[k]
        ]
        c["n_nutrient_cards"][...] = len(nut_cards)
        c["nut_deck"][: len(nut_cards)] = nut_cards
        c["nut_effect"][:] = -1
        c["nut_effect"][: len(nut.names)] = nut.effect
        c["nut_target"][:] = -1
        for k in range(len(nut.names)):
            if nut.tree[k] >= 0:
                c["nut_target"][k] = board.tree_gloc[nut.tree[k]]
        # variant: emsporium
        self.items = items = load_items(self.items_path)
        c["emsporium"][...] = int(options["emsporium"])
        c["item_cost"][...] = items.cost
        # variant: hero_tavern, legends (Legends implies the Tavern)
        self.heroes = heroes = load_heroes(self.heroes_path)
        c["hero_tavern"][...] = int(options["hero_tavern"] or options["legends"])
        c["legends"][...] = int(options["legends"])
        c["hero_effect"][...] = heroes.effect
        c["hero_amount"][...] = heroes.amount
        c["team"][...] = int(self.team_rules)  # variant: team
        c["agents"][...] = agents
        return cfg

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        n = int(options["num_players"])
        num_actions, obs_size = self.space_sizes(options)
        return GameSpec(
            self.env_id,
            n,
            num_actions,
            (obs_size,),
            rules.STATE_SIZE,
            max_game_length=EXPLORE_STEPS + int(options["turn_limit"]) * STEPS_PER_TURN,
            reward_range=(-1.0, 1.0),
            perfect_information=False,
            chance=True,
            zero_sum=True,
            options=dict(options),
        )

    def validation_error(self, code: int) -> str:
        from .validate import VALIDATION_ERRORS

        what, detail = divmod(int(code), 1000)
        if what == EM.V_ITEMS:
            name = f" ({ITEM_NAMES[detail]})" if detail < len(ITEM_NAMES) else ""
        elif what == TV.V_HEROES:
            name = f" ({self.heroes.names[detail]})" if detail < len(self.heroes.names) else ""
        else:
            name = f" ({MUSHLING_NAMES[detail]})" if detail < len(MUSHLING_NAMES) else ""
        n = self.num_seats if self.num_seats == self.num_players else f"{self.num_seats}-seat, 2-agent"
        text = VALIDATION_ERRORS.get(what, "consistency check code {d}").format(d=detail, n=n, name=name)
        return f"{text} [code {code}]"

    @property
    def tavern_on(self) -> bool:
        return bool(self.options["hero_tavern"] or self.options["legends"])

    def location_name(self, g: int) -> str:
        return "Hero Tavern" if g == rules.TAVERN else self.board.gloc_names[g]

    def observation_bounds(self):
        low, high = rules.OBSERVATION.bounds()
        size = self.observation_shape[0]
        return low[:size], high[:size]

    # --- text ---------------------------------------------------------------------------
    def seat_name(self, p: int) -> str:
        if self.num_seats != self.num_players:  # variant: team (2-player game: two seats per agent)
            return f"{self.board.colours[p]} (player_{p % 2})"
        return f"{self.board.colours[p]} (player_{p})"

    def action_to_string(self, state, action) -> str:
        name, args = rules.ACTION_SPACE.decode(int(action))
        E_args = ("attack", "parrot_attack", "place_path", "remove_own")
        if name in ("card", "pay_card", "deceive"):
            return f"{name} {MUSHLING_NAMES[args[0]]}"
        if name == "exchange":
            ct, o = args
            what = (
                "draw a card"
                if o == 0
                else f"spawn a spore in {self.board.gloc_names[int(self.config[rules.cfg_cave_at(o - 1)])]}"
            )
            return f"exchange 2 {MUSHLING_TYPES[ct]} cards: {what}"
        if name == "place_gatherer":
            return f"place a gatherer on {self.board.gloc_names[args[0]]}"
        if name == "hero":  # variant: hero_tavern
            h, k = args
            eff = HERO_EFFECTS[int(self.config[rules.cfg_hero_effect_at(h, k)])]
            amount = int(self.config[rules.cfg_hero_amount_at(h, k)])
            return f"hero {self.heroes.names[h]} ability {'ab'[k]} ({eff} {amount})"
        if name == "legend_keep":  # variant: legends
            p = self.current_player(state)
            h = int(state[rules.legend_deal_at(p, args[0])])
            return f"legend_keep {args[0]} ({self.heroes.names[h] if h >= 0 else '?'})"
        if name == "buy_item":  # variant: emsporium
            i = int(state[rules.shop_at(args[0])])
            return f"buy_item slot {args[0]} ({ITEM_NAMES[i] if i >= 0 else 'empty'})"
        if name in E_args:
            e = args[0]
            (a, b) = self.board.edges[e]
            extra = f" slot {args[1]} (of {self._owner(state, e, args[1])})" if len(args) > 1 else ""
            return f"{name} edge {e} {a}|{b}{extra}"
        return rules.ACTION_SPACE.describe(int(action))

    def _owner(self, state, e, slot):
        q = int(state[rules.paths_at(e, slot)]) - 1
        return self.board.colours[q] if q >= 0 else "nobody"

    def state_to_string(self, state) -> str:
        v = rules.STATE.arrays(state)
        n = self.num_seats
        lines = [
            f"turn {int(v['turn'])} turn player {self.seat_name(int(v['turn_player']))} "
            f"phase {PHASE_NAMES[int(v['phase'])]} actions {int(v['actions_used'])}"
            + (f" winner {self.seat_name(int(v['winner']))}" if v["winner"] >= 0 else "")
            + (" (turn limit)" if v["done"] == rules.DONE_LIMIT else "")
        ]
        for p in range(n):
            hand = {MUSHLING_NAMES[t]: int(c) for t, c in enumerate(v["hand"][p]) if c}
            gl = [self.location_name(g) if g >= 0 else "home" for g in v["gatherer"][p]]
            lines.append(
                f"  {self.seat_name(p)}: nutrients {int(v['mat_nut'][p])} spores {int(v['mat_spores'][p])} "
                f"combat tokens {int(v['ctok'][p])} paths {int(v['npaths'][p])} gatherers {gl} hand {hand}"
            )
        locs = ", ".join(
            f"{name}: {int(v['loc_nut'][g])}n {int(v['loc_spores'][g])}s"
            for g, name in enumerate(self.board.gloc_names)
        )
        lines.append(f"  locations: {locs}")
        paths = {
            e: [self.board.colours[q - 1] for q in v["paths"][e] if q]
            for e in range(len(self.board.edges))
            if v["paths"][e].any() and self.board.permanent[e] < 0
        }
        lines.append(f"  paths: {paths}")
        lines.append(
            f"  mushling deck {int(v['deck_n'])} discard "
            f"{ {MUSHLING_NAMES[t]: int(c) for t, c in enumerate(v['discard']) if c} } "
            f"nutrient deck {[self.nutrients.names[k] for k in v['ndeck'][: int(v['ndeck_n'])][::-1]]}"
        )
        if v["c_active"]:
            cards = [MUSHLING_NAMES[c] if c >= 0 else "-" for c in v["c_card"]]
            lines.append(
                f"  combat: {self.seat_name(int(v['c_att']))} attacks {self.seat_name(int(v['c_def']))} "
                f"on edge {int(v['c_edge'])}, cards {cards}, bonus {v['c_bonus'].tolist()}, "
                f"stage {int(v['c_stage'])}"
            )
        if self.options["emsporium"]:  # variant: emsporium
            lines.extend(self._emsporium_lines(v))
        if self.tavern_on:  # variant: hero_tavern
            lines.extend(self._tavern_lines(v))
        depth = int(v["decisions_n"])
        for lv in range(depth - 1, -1, -1):
            row = v["decisions"][lv]
            lines.append(f"  stack[{lv}]: {DECISION_NAMES[row[0]]} player {int(row[1])} args {row[2:].tolist()}")
        if self.team_rules:  # variant: team
            lines.append(f"  {self.team_text(state)}")
        return "\n".join(lines)

    def _emsporium_lines(self, v) -> list[str]:
        shop = [ITEM_NAMES[i] if i >= 0 else "-" for i in v["shop"]]
        owned = {
            self.board.colours[p]: {ITEM_NAMES[i]: int(c) for i, c in enumerate(v["items"][p]) if c}
            for p in range(self.num_seats)
        }
        return [f"  emsporium: shop {shop} item deck {int(v['item_deck_n'])} items {owned}"]

    def _tavern_lines(self, v) -> list[str]:
        names = self.heroes.names
        up = [names[h] if h >= 0 else "-" for h in v["hero_up"]]
        held = {
            self.board.colours[p]: [names[h] for h in np.flatnonzero(v["heroes"][p])] for p in range(self.num_seats)
        }
        out = [f"  hero tavern: face up {up} hero deck {int(v['hero_deck_n'])} heroes {held}"]
        deals = {
            self.board.colours[p]: [names[h] for h in v["legend_deal"][p] if h >= 0]
            for p in range(self.num_seats)
            if (v["legend_deal"][p] >= 0).any()
        }
        if deals:
            out.append(f"  legends dealt: {deals}")
        return out

    def team_names(self, team: int) -> str:
        """'Blue + Red' (team 0) or 'Green + Beige' (team 1), with the agents."""
        return " + ".join(self.seat_name(s) for s in (team, team + 2))

    def team_text(self, state) -> str:
        """Variant team: the teams' combined Nutrients and the turn's Trade."""
        v = rules.STATE.arrays(state)
        totals = [int(v["mat_nut"][t] + v["mat_nut"][t + 2]) for t in range(2)]
        return (
            f"teams: {self.team_names(0)} {totals[0]} Nutrients, {self.team_names(1)} {totals[1]} "
            f"(15 wins); trade {'used' if v['trade_used'] else 'open'} this turn"
        )

    def render_text(self, state, player=None) -> str:
        return self.state_to_string(state) if player is None else self.public_text(state, player)

    # --- positions from a description (positions.py) ---------------------------------
    def state_from(self, check: bool = True, **description: Any) -> np.ndarray:
        """A state with exactly the position described: Paths, gatherers, hands, tokens, the
        phase, the combat in progress, the reaction windows and sub-decisions on the stack, the
        variants' items and heroes. See :mod:`positions` for the fields."""
        return state_from(self, check, **description)

    def describe(self, state: np.ndarray, hidden: bool = False) -> dict[str, Any]:
        """The description of ``state`` (:meth:`state_from` reads it back); the hidden decks
        only with ``hidden=True``."""
        return describe(self, state, hidden)

    def public_text(self, state, player: int) -> str:
        """What ``player`` may see: the table without other hands and deck orders."""
        v = rules.STATE.arrays(state)
        lines = [
            line
            for line in self.state_to_string(state).splitlines()
            if not line.strip().startswith(("mushling deck", "combat:"))
        ]
        out = []
        own = [self.seat_name(s) for s in range(self.num_seats) if int(v["agent_of"][s]) == player]
        for line in lines:
            if " hand {" in line and not line.strip().startswith(tuple(own)):
                line = line.split(" hand {")[0] + f" hand ({int(v['hand'][lines.index(line) - 1].sum())} cards)"
            out.append(line)
        return "\n".join(out)

    # --- checks -------------------------------------------------------------------------

    def kept_in_hand(self, state, seat) -> np.ndarray:
        """The kinds of ``seat``'s hand that a redraw of hidden cards keeps (a bool mask): a
        choice of its own is pending whose next card is among them (an Exchange's cards of its
        type; a Build's payment before 3 or a Buy's before its first item: the cards with a
        spore value, so the payment can still be made). :func:`.determinize.kept_in_hand`."""
        from .determinize import kept_in_hand

        s = np.asarray(state, np.int64)
        return np.array([kept_in_hand(s, self.config, int(seat), t) for t in range(rules.NUM_MUSHLING_KINDS)], bool)

    def perturb_hidden(self, state, player, rng):
        """Redeal what ``player`` cannot see: other hands beyond what it knows, the deck order,
        the other side's face-down combat card, unseen nutrient cards."""
        new = state.copy()
        v = rules.STATE.arrays(new)
        n = self.num_seats
        nd = int(v["deck_n"])
        tn = int(v["deck_top_n"])  # a Witch's Hat's public set on top stays on top
        pool = list(v["deck"][: nd - tn])
        slots = []  # (kind, who) of every hidden card
        # variant: team: in the 2-player game an agent is two seats and knows what either knows
        own = [s for s in range(n) if int(v["agent_of"][s]) == player]
        known = v["known"][own].max(axis=0)
        depth = int(v["decisions_n"])
        top = v["decisions"][depth - 1] if depth else None
        for q in range(n):
            if q in own:
                continue
            free = v["hand"][q] - known[q]
            free[self.kept_in_hand(state, q)] = 0  # q's pending choice names its next card among them
            for t in range(rules.NUM_MUSHLING_KINDS):
                pool += [t] * int(free[t])
            slots.append(("hand", q, int(free.sum())))
            v["hand"][q] -= free
        hidden_combat = []
        if v["c_active"] and not v["c_revealed"]:
            for side, who in ((0, int(v["c_att"])), (1, int(v["c_def"]))):
                if who not in own and v["c_card"][side] >= 0:
                    pool.append(int(v["c_card"][side]))
                    hidden_combat.append(side)
        rng.shuffle(pool)
        i = 0
        for _kind, q, k in slots:
            for t in pool[i : i + k]:
                v["hand"][q, t] += 1
            i += k
        for side in hidden_combat:
            v["c_card"][side] = pool[i]
            i += 1
        v["deck"][: nd - tn] = pool[i : i + nd - tn]
        top = v["deck"][nd - tn : nd].copy()
        rng.shuffle(top)
        v["deck"][nd - tn : nd] = top
        # nutrient cards the player has not seen (those of a Witch's Hat's public set stay on top)
        nn = int(v["ndeck_n"])
        ntn = int(v["ndeck_top_n"])
        for lo, hi in ((0, nn - ntn), (nn - ntn, nn)):
            unseen = [pos for pos in range(lo, hi) if not v["nseen"][own, pos].any()]
            kinds = [int(v["ndeck"][pos]) for pos in unseen]
            rng.shuffle(kinds)
            for pos, k in zip(unseen, kinds):
                v["ndeck"][pos] = k
        v["nseen"][[q for q in range(n) if q not in own]] = 0
        v["known"][[q for q in range(n) if q not in own]] = 0
        # variant: hero_tavern / legends: the hero deck's order and the others' Legends deals
        # (variant: team: in the 2-player game both of the agent's seats' deals stay)
        pool_h = list(v["hero_deck"][: int(v["hero_deck_n"])])
        for q in range(n):
            if q not in own:
                pool_h += [int(h) for h in v["legend_deal"][q] if h >= 0]
        pool_h = list(rng.permutation(np.array(pool_h, np.int64))) if pool_h else []
        for q in range(n):
            if q not in own:
                for k in range(2):
                    if v["legend_deal"][q, k] >= 0:
                        v["legend_deal"][q, k] = pool_h.pop()
        v["hero_deck"][: len(pool_h)] = pool_h
        # variant: emsporium: the item deck's order is hidden from everyone
        ni = int(v["item_deck_n"])
        v["item_deck"][:ni] = rng.permutation(v["item_deck"][:ni])
        v["rng"][...] = rng.integers(1, 2**32, size=rules.RNG_WORDS)
        return new
