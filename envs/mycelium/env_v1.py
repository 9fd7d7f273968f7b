"""
# Mycelium: A Mushling Game (v1: the Exchange by Mushling Card Type)

| Import             | `from mushgym.envs import mycelium_v1`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2, 3 or 4 (option `num_players`, default 4; 2: each agent acts for two diagonal Colonies) |
| Action Shape       | Discrete(@AB@) with every variant off; Discrete(@AI@) with Emsporium, Hero Tavern or Legends on (Team rules off); Discrete(@A@) under the Team rules, as `mycelium_v0` |
| Action Values      | Discrete(@AB@) / Discrete(@AI@) / Discrete(@A@), as above              |
| Observation Shape  | (@XB@,) / (@XI@,) / (@X@,) float32: `mycelium_v0`'s observation of the same options, then the @XS@ values of the Exchange block; int8 `action_mask` of the action count |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts raw, flags 0/1)      |
| State              | one int64 array of @S@ slots (`Game().state_size`), `mycelium_v0`'s layout |
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

* the action `exchange(type, option)` (ids @X0@..@X1@: v0's first @XN@ `exchange` ids):
  discard 2 cards of that Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior,
  4 reinforcement, 5 wizard, 6 scout, 7 worker); option 0 draws a card, 1 + c spawns a spore in
  seat c's Spore Cave (while the supply has one). Ids @U0@..@U1@ (the rest of v0's
  Exchange by card) are the group `unused`, never legal: every other id is v0's;
* the Exchange's cards are a sub-decision on the decision stack (`D_EXCHANGE`, the turn
  player's): the player names its 2 cards with `card(kind)`, the lower card id first (so each
  pair is named one way only); each card named is discarded at once, in view of all; both are
  asked even when the hand allows one pair only (a skipped question would tell the table that
  the hand holds no other card of that type); then the draw or the spore;
* the observation appends the Exchange block (at the end of v0's observation of the same
  options: offset @XB0@, @XI0@ or @X0B@; `Game().exchange_obs`):

@XT@

### Observation space (`mycelium_v0`'s fields; the Exchange block follows the last field of the options' spaces)

@OT@

### Action space

@AT@

### State (omniscient, `env.state()`)

@ST@

### Version history

* v1: the Exchange by Mushling Card Type (the action `exchange(type, option)`, the decision
  `D_EXCHANGE`, the observation's Exchange block); otherwise `mycelium_v0`.
* v0: see `mycelium_v0`'s docstring.
"""

from mushgym.aec import make_env_classes
from mushgym.docsite import fill_env_docstring

from . import rules as R
from .exchange import XO, XO_SIZE
from .game_v1 import A_V1, MyceliumV1Game


def _docstring_values() -> dict:
    """The values of the docstring's placeholders, from the layouts (so its tables cannot drift)."""
    ex, un = A_V1.groups["exchange"], A_V1.groups["unused"]
    return dict(A=R.NUM_ACTIONS, AB=R.NUM_ACTIONS_BASE, AI=R.NUM_ACTIONS_ITEMS, S=R.STATE_SIZE,
                XB=R.OBS_SIZE_BASE + XO_SIZE, XI=R.OBS_SIZE_ITEMS + XO_SIZE, X=R.OBS_SIZE + XO_SIZE, XS=XO_SIZE,
                XB0=R.OBS_SIZE_BASE, XI0=R.OBS_SIZE_ITEMS, X0B=R.OBS_SIZE,
                X0=ex.offset, X1=ex.offset + ex.size - 1, XN=ex.size, U0=un.offset,
                U1=un.offset + un.size - 1, XT=XO.table(), OT=R.O.table(), AT=A_V1.table(),
                ST=R.L.table())


__doc__ = fill_env_docstring(__doc__, _docstring_values())

Game = MyceliumV1Game

raw_env, env = make_env_classes(MyceliumV1Game, module_name=__name__)

__all__ = ["Game", "MyceliumV1Game", "raw_env", "env"]
