"""
# Mycology (v1: compact integral observation)

| Import             | `from mushgym.envs import mycology_v1`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2 to 6 (option `num_players`, default 2)                                 |
| Action Shape       | Discrete(@NUM_ACTIONS@)                                                  |
| Action Values      | Discrete(@NUM_ACTIONS@)                                                  |
| Observation Shape  | @OBS_SHAPE@ |
| Observation Values | integers in 0..255 (ids, counts, flags) within per-element bounds `Game().obs_low/high`; the vector API writes them as `uint8` (exact); the `scaled` encoder maps them to [0, 1], `onehot` expands the ids |
| Rewards            | as `mycology_v0`: terminal; `reward="win_loss"` (default), `"score"`, `"score_diff"`; the turn limit is a truncation unless `turn_limit_end="score"` |
| Chance             | as `mycology_v0`: the deck shuffle, the first player and every 2d6 roll come from the generator inside the state (seeded by `reset(seed)`) |

`mycology_v1` is **the same game as `mycology_v0`**: the same options, rules, actions,
state (slot for slot; only the state header names the version), seeds and golden
playthroughs (the same action sequences). Only the observation differs: v0's is scaled
fractions and a 19-value feature block per card place (807 float32 values with 2
players); v1's is @OBS2@ small integers with 2 players, so the vector API moves one byte a
value (`obs_dtype=np.uint8` by default) and about 3.8x fewer bytes per env step than
int64 states with float32 observations (`mushgym bench mycology_v1`). The rules, options and the text are
documented in `mycology_v0`'s docstring and `RULES.md`.

What changed, field by field (RULES.md, "The compact observation (v1)"):

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

v1's observation is a function of v0's information and v0's of v1's (with the card data):
`tests/test_mycology_v1.py` rebuilds v0's observation from v1's on random games.

### Observation space (seat-relative: seat blocks rotate so that the observing agent is first)

Generated from the declaration in `observation_v1.py` (`MycologyV1Game(num_players=n).observation_layout()`
gives it for any n, with bounds). With n players there are n seat blocks (`seat<k>_...`,
k seats after the observer in play order; 0 = the observer), then the deck's card set;
the table is for n = 2:

@OBSERVATION_TABLE@

Card ids are the order of `cards.toml` (`Game().card_text(id)` describes one).

### Action space

@ACTION_TABLE@

### Version history

* v1: the compact integral observation above (`uint8` in the vector API, 3x
  fewer bytes per env step); rules, actions, state and seeds unchanged from v0.
* v0: initial release (see `mycology_v0`'s docstring for its revisions).
"""

from mushgym.aec import make_env_classes

from .env import fill_docstring
from .game_v1 import MycologyV1Game
from .observation_v1 import obs_size


__doc__ = fill_docstring(__doc__, MycologyV1Game(), obs_size, "float32 of integers (uint8 in the vector API)",
                         extra=(("OBS2", obs_size(2)),))

Game = MycologyV1Game

raw_env, env = make_env_classes(MycologyV1Game, module_name=__name__)

__all__ = ["Game", "MycologyV1Game", "raw_env", "env"]
