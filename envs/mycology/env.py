"""
# Mycology

| Import             | `from mushgym.envs import mycology_v1`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2 to 6 (option `num_players`, default 2)                                 |
| Action Shape       | Discrete(@NUM_ACTIONS@)                                                  |
| Action Values      | Discrete(@NUM_ACTIONS@)                                                  |
| Observation Shape  | @OBS_SHAPE@ (option `observation="full"`: @FULL_SHAPE@) |
| Observation Values | integers in 0..255 (ids, counts, flags) within per-element bounds `Game().obs_low/high`; the vector API writes them as `uint8` (exact); the `scaled` encoder maps them to [0, 1], `onehot` expands the ids |
| Rewards            | terminal; `reward="win_loss"` (default): +1 to a sole winner, -1/(n-1) to every other player; k tied winners get (n-k)/(k(n-1)) each (0 for a 2-player tie); `reward="score"`: final score; `reward="score_diff"`: own final score minus the mean of the others'. The turn limit is a truncation unless `turn_limit_end="score"` |
| Chance             | the deck shuffle, the first player and every 2d6 roll come from the generator inside the state (seeded by `reset(seed)`) |

Mycology (2-6 players) is a set-collection game about mushroom foraging. Each turn the
active player's 2d6 roll either advances the season (7) or gives every player one Ecology
Resource (2/12 Other Parasite, 3/11 Plant Parasite, 4/10 Wood Rot, 5/9 Symbiont, 6/8
Soil/Dung; poison mushrooms add Poison tokens). Then the player takes up to 2 actions:
harvest a Mushroom Card of the current season from the 8-card field into that season's
basket (capacities 1/2/3/4), or one of six trades. The game ends when a player has all 10
basket places filled (the turn limit, option `turn_limit`, default 240 turns rounded up to
whole rounds, cuts the game: a truncation unless `turn_limit_end="score"`); score = card points + Feast + Magic - 2 x Poison. The rules as
implemented, every point where the rulebook is silent and the choice made, the designed
card data and simulation figures are in `RULES.md` next to this file.

Decisions inside one action are AEC turns of the same agent: paying "ANY 3" resources or
choosing to spend a Magic token is done token by token in the pay phase (only when there
is a real choice; forced payments are automatic), and after a row replacement the player
puts the replaced cards under the deck one by one; after paying for an exchange the player
chooses the mushroom to give, then the one to take (each automatic with a single card).
The dice roll is not an action: it is made as the turn starts.

### Two observations (option `observation`)

The default, `observation="compact"`, is @OBS2@ small integers with 2 players: the vector API
moves one byte a value (`obs_dtype=np.uint8` by default), about 3.8x fewer bytes per env step
than int64 states with float32 observations (`mushgym bench mycology_v1`).
`observation="full"` is the observation of the retired `mycology_v0`: scaled fractions and a
19-value feature block per card place (807 float32 values with 2 players), for networks trained
on it. Both describe the same information: `tests/games/mycology/test_mycology_v1.py` rebuilds the full
observation from the compact one on random games. The compact one differs from the full one as
follows (RULES.md, "The compact observation (v1)"):

* categories are ids, not one-hot blocks: season, decision (`phase`: 0 = the game is
  over, 1 act, 2 pay, 3 order cards under the deck, 4/5 choose the mushroom to give/take),
  actions left, dice total, player to act (seat offset), payment type, pending action and
  its argument, the place given in an exchange (the `onehot` encoder expands them);
* a card is its **id + 1** (0 = no card) instead of its features: the card data
  (`cards.toml`, `Game().deck`) is fixed, so the id says all the features said;
* turns played are `round` (turns div n) and `turn_in_round` (turns mod n) instead of a
  fraction of the limit; basket fill is a count of cards; the payment order key is its
  integer;
* token counts that may exceed a byte in a long game (resources, Feast, Magic, Poison)
  are two fields, `<name>` = count mod 256 and `<name>_256` = count div 256 (the second is
  0 in any real game);
* the score is given exactly by its parts: **score = card_points + feast + magic - 2 x
  poison** (`card_points`: the points of the cards in the baskets, at most 54 with the
  designed deck).

### Observation space (seat-relative: seat blocks rotate so that the observing agent is first)

Generated from the declaration in `observation_v1.py` (`MycologyGame(num_players=n).observation_layout()`
gives it for any n, with bounds). With n players there are n seat blocks (`seat<k>_...`,
k seats after the observer in play order; 0 = the observer), then the deck's card set;
the table is for n = 2:

@OBSERVATION_TABLE@

Card ids are the order of `cards.toml` (`Game().card_text(id)` describes one).

### The full observation (`observation="full"`; seat-relative: blocks rotate so that the observing agent is first)

Generated from the declaration in `observation.py` (`MycologyGame(num_players=n).observation_layout()`
gives it for any n, with bounds). With n players the player-to-act block has n entries and
there are n seat blocks (`seat<k>_...`, k seats after the observer in play order; 0 = the
observer), so later indices shift; the table is for n = 2:

@FULL_OBSERVATION_TABLE@

Card features (@CF@ values per card, in this order):

@CARD_TABLE@

Card ids are the order of `cards.toml`.

### Action space

@ACTION_TABLE@

The decisions other than the turn player's next action (paying, ordering cards under the
deck, choosing the mushrooms of an exchange) live on the state's decision stack (`layout.py`); the player to act and the legal
actions come from its top entry.

### Version history

* v1: the compact integral observation above, by default (`uint8` in the vector API, 3x fewer
  bytes per env step); v0's observation is the option `observation="full"`. Rules, actions,
  state and seeds unchanged from v0 (the same golden action sequences).
* v0 (retired: `mushgym.make("mycology_v0")` raises an error naming
  `mycology_v1(observation="full")`): initial release. Revised before any release: reaching the turn limit is a
  truncation (option `turn_limit_end`), an exchange may give and take any mushroom of the
  current season (actions `give`, `take`: 47 actions), and Poison comes with every
  collection of the resource, trades included (option `poison_rule`). Designed deck
  rebalanced (id kept): the poison cards' bonus points are +0.5..+2.5 by poison
  resource (were +3..+10, which made poison taken late a bonus: the late-poison greedy won
  1.55x / 1.88x its fair share at 2 / 4 players); Panther Cap (the Fly Agaric's toxins)
  became Deadly Fibrecap, Split Gill is edible (1 Feast), and four tropical or
  southern-hemisphere species became temperate ones (Leafy Brain, Snaketongue
  Truffleclub, Netted Stinkhorn, Elegant Stinkhorn). See RULES.md, "Simulation figures".
"""

from mushgym.aec import make_env_classes
from mushgym.docsite import fill_env_docstring

from .actions import NUM_ACTIONS, A
from .game import MycologyGame
from .observation import CARD, CF
from .observation import obs_size as full_obs_size
from .observation_v1 import obs_size


def shape_line(obs_size, dtype: str) -> str:
    """The observation shape of every player count, ``(fixed + per_player n,)``."""
    fixed, per_player = obs_size(2) - 2 * (obs_size(3) - obs_size(2)), obs_size(3) - obs_size(2)
    return f"({fixed} + {per_player} n,) {dtype}: " + ", ".join(f"({obs_size(n)},) {n}p" for n in range(2, 7))


def fill_docstring(template: str) -> str:
    """The env docstring with its tables generated from the declarations (they cannot drift)."""
    return fill_env_docstring(
        template,
        {
            "NUM_ACTIONS": NUM_ACTIONS,
            "OBS_SHAPE": shape_line(obs_size, "float32 of integers (uint8 in the vector API)")
            + f"; int8 `action_mask` of ({NUM_ACTIONS},)",
            "FULL_SHAPE": shape_line(full_obs_size, "float32"),
            "OBSERVATION_TABLE": MycologyGame().observation_layout().table(),
            "FULL_OBSERVATION_TABLE": MycologyGame(observation="full").observation_layout().table(),
            "ACTION_TABLE": A.table(),
            "CARD_TABLE": CARD.table(),
            "CF": CF,
            "OBS2": obs_size(2),
        },
    )


__doc__ = fill_docstring(__doc__)

Game = MycologyGame

raw_env, env = make_env_classes(MycologyGame, module_name=__name__)

__all__ = ["Game", "MycologyGame", "raw_env", "env"]
