"""
# Mycelium: A Mushling Game

| Import             | `from mushgym.envs import mycelium_v2`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2, 3 or 4 (option `num_players`, default 4; 2: each agent acts for two diagonal Colonies) |
| Action Shape       | Discrete(@NUM_ACTIONS_BASE@) with every variant off; Discrete(@NUM_ACTIONS_ITEMS@) with Emsporium, Hero Tavern or Legends on (Team rules off); Discrete(@NUM_ACTIONS@) under the Team rules (`team=True` or `num_players=2`, with or without the others). Appended groups: the ids above stay |
| Action Values      | Discrete(@NUM_ACTIONS_BASE@) / Discrete(@NUM_ACTIONS_ITEMS@) / Discrete(@NUM_ACTIONS@), as above              |
| Observation Shape  | (@OBS_SIZE_BASE@,) / (@OBS_SIZE_ITEMS@,) / (@OBS_SIZE@,) float32, as above (appended fields), seat-relative (offset 0 = the observer; in the 2-player game the seat it acts for); int8 `action_mask` of the action count |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts raw, flags 0/1)      |
| State              | one int64 array of @STATE_SIZE@ slots (`Game().state_size`)                     |
| Rewards            | terminal: +1 to the player who gathers 10 Nutrients, -1/(n-1) to each other player. The turn limit is a **truncation** with rewards 0 by default (`truncations` set, not `terminations`); `turn_limit_end="score"` scores it: the k players with the most Nutrients get (n-k)/(k(n-1)) each, the others -1/(n-1). Team rules: +1 to each agent of the first team to hold 15 Nutrients (10 at most per Colony), -1 to the others; a scored turn limit compares the teams' totals |
| Chance             | the shuffles, the first player, thefts: the generator inside the state (seeded by `reset(seed)`) |
| Options            | `num_players` (2, 3, 4; default 4; 2 = the 2-player game, Team rules), `reaction_prompts` ("public" default, "holders": faster, reveals who holds a reaction card), `turn_limit` (60, 120, 240 turns; default 120), `turn_limit_end` ("truncate" default, "score"), `emsporium` (False default, True: the Emsporium variant, shop of 5 items and the Buy action), `hero_tavern` (False default, True: the Hero Tavern and its 8 heroes), `legends` (False default, True: each player starts with 1 of 2 heroes dealt; implies the Tavern), `team` (False default; True: the Team variant, 4 players: Blue + Red against Green + Beige, Trade, no friendly fire, optional gathering, 15 per team wins); any combination (`team=True` needs 4 players) |

Mycelium for 3 or 4 players: build Paths on the edges of a hex board, place 3 gatherers on
Nutrient Trees, the Willow, Spore Caves and the Mush Room, gather through bonded Paths, play
23 kinds of mushling cards for their abilities or their spore value, and attack other
players' Paths with face-down cards. The first player to hold 10 Nutrients wins at once.
The rules as implemented, the designed board, cards and nutrient deck, and every point where
the rulebook is silent are in `RULES.md` next to this file.

The Exchange is the rulebook's: "Discard 2 Mushling Cards of the same type", the type one of
the 8 Mushling Card Types (Builder, Thief, Enforcer, Warrior, Reinforcement, Wizard, Scout,
Worker; each card's `type` in `cards.toml`): the action `exchange(type, option)` (option 0
draws a card, 1 + c spawns a spore in seat c's Spore Cave), then the 2 cards are named with
`card(kind)`, the lower card id first, each discarded at once in view of all; a pick with one
legal answer (exactly 2 cards of the type, copies of one card only) is made without asking.

Every decision is an AEC turn of the player who makes it, taken from the top of the
decision stack: the turn player's Action Phase menu, and, outside one's turn, Fly Agaric
windows after any ability, Penny Bun / Inky Cap windows after a Path is built next to you,
the defender's face-down card, reinforcements and combat tokens (in turn order until all
pass), the revealed cards' reactions (attacker first), Bird's Nest in a Nutrient Card Phase.
With `reaction_prompts="public"` a window asks every player whom public information leaves
able to hold a matching card, so a prompt tells nobody anything; with "holders" only the
players who hold one are asked: faster, but it reveals to everyone who holds which reaction.
What a player has been shown (a hand seen with Parrot Toadstool, a stolen or given card,
nutrient cards viewed or arranged) stays in its observation while it is still true.

Team variant (`team=True`) and 2-player game (`num_players=2`): the Team rules of the
rulebook (`team.py`, RULES.md "Team variant"): Blue + Red against Green + Beige, turns
alternating between the teams; the `trade` action (once per turn: offer a card or a Spore
Token; the teammate answers with `trade` of its own or `pass`, then the proposer accepts with
`trade` or refuses with `pass`; both shown to everyone; a refused offer is no Trade); no
attack on a teammate's Path; `gather_take` decisions make gathering optional; 10 Nutrients
per Colony, the first team to 15 wins, rewards shared. A teammate's hand stays hidden (the
table talk is public). In the 2-player game agent 0 acts for Blue and Red, agent 1 for
Green and Beige (`agent_selection` follows the seat to move); an agent's observation is
relative to the seat it acts for and adds its other seat's hand (`partner_hand`) and what
that seat knows; everything counts as a 4-player game (Veiled Lady views 4 cards). The
Team actions and observation fields follow the items' (their indices stay).

Spaces of the variants: the action groups and observation fields come in three blocks, the
base game's, the items' (Emsporium, Hero Tavern, Legends: `buy` .. `legend_keep`,
`variant_decision` .. `hero_picks`) and the Team block (`trade`, `gather_take`,
`team_decision` .. `partner_hand`). A game's spaces are the prefix of the tables below that
ends with the last block of an option that is on: every variant off, the first @NUM_ACTIONS_BASE@ actions
and @OBS_SIZE_BASE@ values (exactly the base game); Emsporium, Hero Tavern or Legends on without the
Team rules, @NUM_ACTIONS_ITEMS@ and @OBS_SIZE_ITEMS@; the Team rules on (with or without the others), all @NUM_ACTIONS@ and
@OBS_SIZE@ (a Team game without the items has their groups masked and their fields 0).

### Observation space

@OBSERVATION_TABLE@

### Action space

@ACTION_TABLE@

### State (omniscient, `env.state()`)

@STATE_TABLE@

### Version history

* v2 (`mycelium_v2`, the one current version): v1's rules with the rulebook's breaches fixed
  (RULES.md, "Changes in mycelium_v2"): a card an Amethyst Deceiver draws gives no "if
  revealed" reaction (Thief, Chicken of the Woods, Liberty Cap, Common Puffball); a Buy buys
  at least 1 item; a hero's spawn counts the Pickaxe; a Build pays at least 3 and places a
  Path; the Team Trade asks both teammates (the proposer accepts what comes back) and a
  refused offer leaves the turn's Trade; a Russula may send gatherers to the Hero Tavern; a
  Witch's Hat needs a discarded card; a forced Exchange card is not asked; no cap of 30
  actions per Action Phase: only attacks and Amethyst Deceiver exchanges, the actions that
  can give back what they cost, are bounded (30 each Action Phase); a combat's edge must
  hold a Path the attacker may attack (validation). Spaces: the Exchange group is
  `exchange(type, option)` (40 ids, no unused ids) and its observation fields are the base
  game's, so the ids and offsets after them differ from v1's; the Team block adds
  `trade_back`, the state `trade_offers`.
* v1 (retired, `mycelium_v1` names v2): the Exchange takes 2 cards of one Mushling Card Type,
  as the rulebook says, not 2 copies of one card.
* v0 (retired, `mycelium_v0` names v2): initial release (base game, 3 and 4 players); the
  Emsporium, Hero Tavern and Legends variants as options (`emsporium`, `hero_tavern`,
  `legends`), the Team variant (`team`) and the 2-player game (`num_players=2`), in any
  combination; with them all off the game, its action ids and its observation are unchanged.
"""

from mushgym.aec import make_env_classes
from mushgym.docsite import fill_env_docstring

from . import rules
from .game import MyceliumGame

__doc__ = fill_env_docstring(
    __doc__,
    {
        "NUM_ACTIONS": rules.NUM_ACTIONS,
        "OBS_SIZE": rules.OBS_SIZE,
        "NUM_ACTIONS_BASE": rules.NUM_ACTIONS_BASE,
        "OBS_SIZE_BASE": rules.OBS_SIZE_BASE,
        "NUM_ACTIONS_ITEMS": rules.NUM_ACTIONS_ITEMS,
        "OBS_SIZE_ITEMS": rules.OBS_SIZE_ITEMS,
        "STATE_SIZE": rules.STATE_SIZE,
        "OBSERVATION_TABLE": rules.OBSERVATION.table(),
        "ACTION_TABLE": rules.ACTION_SPACE.table(),
        "STATE_TABLE": rules.STATE.table(),
    },
)

Game = MyceliumGame

raw_env, env = make_env_classes(MyceliumGame, module_name=__name__)

__all__ = ["Game", "MyceliumGame", "raw_env", "env"]
