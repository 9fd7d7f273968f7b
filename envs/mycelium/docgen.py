"""Regenerate the docstrings of env.py and env_v1.py from the layouts (so their index tables cannot drift).

    python -m mushgym.envs.mycelium.docgen
"""

from pathlib import Path

from . import rules as R

#: the spec table's rows both versions share
COMMON_ROWS = '''| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2, 3 or 4 (option `num_players`, default 4; 2: each agent acts for two diagonal Colonies) |'''

HEAD = '''"""
# Mycelium: A Mushling Game

| Import             | `from mushgym.envs import mycelium_v0`                                   |
|--------------------|--------------------------------------------------------------------------|
%(COMMON)s
| Action Shape       | Discrete(%(AB)d) with every variant off; Discrete(%(AI)d) with Emsporium, Hero Tavern or Legends on (Team rules off); Discrete(%(A)d) under the Team rules (`team=True` or `num_players=2`, with or without the others). Appended groups: the ids above stay |
| Action Values      | Discrete(%(AB)d) / Discrete(%(AI)d) / Discrete(%(A)d), as above              |
| Observation Shape  | (%(OB)d,) / (%(OI)d,) / (%(O)d,) float32, as above (appended fields), seat-relative (offset 0 = the observer; in the 2-player game the seat it acts for); int8 `action_mask` of the action count |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts raw, flags 0/1)      |
| State              | one int64 array of %(S)d slots (`Game().state_size`)                     |
| Rewards            | terminal: +1 to the player who gathers 10 Nutrients, -1/(n-1) to each other player. The turn limit is a **truncation** with rewards 0 by default (`truncations` set, not `terminations`); `turn_limit_end="score"` scores it: the k players with the most Nutrients get (n-k)/(k(n-1)) each, the others -1/(n-1). Team rules: +1 to each agent of the first team to hold 15 Nutrients (10 at most per Colony), -1 to the others; a scored turn limit compares the teams' totals |
| Chance             | the shuffles, the first player, thefts: the generator inside the state (seeded by `reset(seed)`) |
| Options            | `num_players` (2, 3, 4; default 4; 2 = the 2-player game, Team rules), `reaction_prompts` ("public" default, "holders": faster, reveals who holds a reaction card), `turn_limit` (60, 120, 240 turns; default 120), `turn_limit_end` ("truncate" default, "score"), `emsporium` (False default, True: the Emsporium variant, shop of 5 items and the Buy action), `hero_tavern` (False default, True: the Hero Tavern and its 8 heroes), `legends` (False default, True: each player starts with 1 of 2 heroes dealt; implies the Tavern), `team` (False default; True: the Team variant, 4 players: Blue + Red against Green + Beige, Trade, no friendly fire, optional gathering, 15 per team wins); any combination (`team=True` needs 4 players) |

Mycelium for 3 or 4 players: build Paths on the edges of a hex board, place 3 gatherers on
Nutrient Trees, the Willow, Spore Caves and the Mush Room, gather through bonded Paths, play
23 kinds of mushling cards for their abilities or their spore value, and attack other
players' Paths with face-down cards. The first player to hold 10 Nutrients wins at once.
The rules as implemented, the designed board, cards and nutrient deck, and every point where
the rulebook is silent are in `RULES.md` next to this file.

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
Token; the teammate answers with `trade` of its own or `pass`; both shown to everyone); no
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
ends with the last block of an option that is on: every variant off, the first %(AB)d actions
and %(OB)d values (exactly the base game); Emsporium, Hero Tavern or Legends on without the
Team rules, %(AI)d and %(OI)d; the Team rules on (with or without the others), all %(A)d and
%(O)d (a Team game without the items has their groups masked and their fields 0).

### Observation space

%(OT)s

### Action space

%(AT)s

### State (omniscient, `env.state()`)

%(ST)s

### Version history

* v1 (`mycelium_v1`, recommended): the Exchange takes 2 cards of one Mushling Card Type, as the
  rulebook says, not 2 copies of one card; see its docstring. v0 stays as it was.
* v0: initial release (base game, 3 and 4 players); the Emsporium, Hero Tavern and Legends variants as
  options (`emsporium`, `hero_tavern`, `legends`), the Team variant (`team`) and the 2-player game
  (`num_players=2`, issue 17), in any combination; with them all off the game, its action ids and
  its observation are unchanged.
"""
'''

HEAD_V1 = '''"""
# Mycelium: A Mushling Game (v1: the Exchange by Mushling Card Type)

| Import             | `from mushgym.envs import mycelium_v1`                                   |
|--------------------|--------------------------------------------------------------------------|
%(COMMON)s
| Action Shape       | Discrete(%(AB)d) with every variant off; Discrete(%(AI)d) with Emsporium, Hero Tavern or Legends on (Team rules off); Discrete(%(A)d) under the Team rules, as `mycelium_v0` |
| Action Values      | Discrete(%(AB)d) / Discrete(%(AI)d) / Discrete(%(A)d), as above              |
| Observation Shape  | (%(XB)d,) / (%(XI)d,) / (%(X)d,) float32: `mycelium_v0`'s observation of the same options, then the %(XS)d values of the Exchange block; int8 `action_mask` of the action count |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts raw, flags 0/1)      |
| State              | one int64 array of %(S)d slots (`Game().state_size`), `mycelium_v0`'s layout |
| Rewards            | as `mycelium_v0` (terminal; the turn limit a truncation unless `turn_limit_end="score"`; Team rules: shared by the team) |
| Chance             | as `mycelium_v0`: the generator inside the state (seeded by `reset(seed)`) |
| Options            | as `mycelium_v0`: `num_players`, `reaction_prompts`, `turn_limit`, `turn_limit_end`, `emsporium`, `hero_tavern`, `legends`, `team` |

`mycelium_v1` is **Mycelium with the Exchange of the rulebook**: "Discard 2 Mushling Cards of
the same type", the type being one of the 8 Mushling Card Types (Builder, Thief, Enforcer,
Warrior, Reinforcement, Wizard, Scout, Worker; each card's `type` in `cards.toml`), so a Death
Cap and a Liberty Cap (two Warriors) make an Exchange, as do two copies of one card.
`mycelium_v0` exchanged only two copies of one card; it stays, playing as before. Every other
rule, the options, the state layout and the deal of a seed are v0's, on the same compiled
kernels (the config flag `exchange_by_type`; `exchange.py`). RULES.md, "The Exchange by
Mushling Card Type", has the rule and its choices; the rest of the game is described in
`mycelium_v0`'s docstring and RULES.md.

What changed:

* the action `exchange(type, option)` (ids %(X0)d..%(X1)d: v0's first %(XN)d `exchange` ids):
  discard 2 cards of that Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior,
  4 reinforcement, 5 wizard, 6 scout, 7 worker); option 0 draws a card, 1 + c spawns a spore in
  seat c's Spore Cave (while the supply has one). Ids %(U0)d..%(U1)d (the rest of v0's
  Exchange by card) are the group `unused`, never legal: every other id is v0's;
* the Exchange's cards are a sub-decision on the decision stack (`D_EXCHANGE`, the turn
  player's): the player names its 2 cards with `card(kind)`, the lower card id first (so each
  pair is named one way only); each card named is discarded at once, in view of all; both are
  asked even when the hand allows one pair only (a skipped question would tell the table that
  the hand holds no other card of that type); then the draw or the spore;
* the observation appends the Exchange block (at the end of v0's observation of the same
  options: offset %(XB0)d, %(XI0)d or %(X0B)d; `Game().exchange_obs`):

%(XT)s

### Observation space (`mycelium_v0`'s fields; the Exchange block follows the last field of the options' spaces)

%(OT)s

### Action space

%(AT)s

### State (omniscient, `env.state()`)

%(ST)s

### Version history

* v1: the Exchange by Mushling Card Type (the action `exchange(type, option)`, the decision
  `D_EXCHANGE`, the observation's Exchange block); otherwise `mycelium_v0`.
* v0: see `mycelium_v0`'s docstring.
"""
'''


def docstring() -> str:
    return HEAD % dict(COMMON=COMMON_ROWS, A=R.NUM_ACTIONS, O=R.OBS_SIZE, AB=R.NUM_ACTIONS_BASE, OB=R.OBS_SIZE_BASE, AI=R.NUM_ACTIONS_ITEMS,
                       OI=R.OBS_SIZE_ITEMS, S=R.STATE_SIZE, OT=R.O.table(), AT=R.A.table(), ST=R.L.table())


def docstring_v1() -> str:
    from .exchange import XO, XO_SIZE
    from .game_v1 import A_V1

    ex, un = A_V1.groups["exchange"], A_V1.groups["unused"]
    sizes = dict(B=R.OBS_SIZE_BASE, I=R.OBS_SIZE_ITEMS, F=R.OBS_SIZE)
    return HEAD_V1 % dict(COMMON=COMMON_ROWS, A=R.NUM_ACTIONS, AB=R.NUM_ACTIONS_BASE, AI=R.NUM_ACTIONS_ITEMS, S=R.STATE_SIZE,
                          XB=sizes["B"] + XO_SIZE, XI=sizes["I"] + XO_SIZE, X=sizes["F"] + XO_SIZE, XS=XO_SIZE,
                          XB0=sizes["B"], XI0=sizes["I"], X0B=sizes["F"],
                          X0=ex.offset, X1=ex.offset + ex.size - 1, XN=ex.size, U0=un.offset,
                          U1=un.offset + un.size - 1, XT=XO.table(), OT=R.O.table(), AT=A_V1.table(),
                          ST=R.L.table())


def main() -> None:
    for name, text in (("env.py", docstring()), ("env_v1.py", docstring_v1())):
        path = Path(__file__).with_name(name)
        body = path.read_text().split('"""', 2)[2]
        path.write_text(text + "\n" + body.lstrip("\n"))


if __name__ == "__main__":
    main()
