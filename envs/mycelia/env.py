"""
# Mycelia

| Import             | `from mushgym.envs import mycelia_v1`                                    |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n` (the Automata is part of the environment, never an agent) |
| Agents             | 1 to 4 (option `num_players`, default 2; 1 only with the Automata, which joins 1 to 3 players); 5 with the North American expansion |
| Action Shape       | Discrete(@NUM_ACTIONS_BASE@); Discrete(@NUM_ACTIONS@) with `expansion="north_america"` (its groups appended) |
| Action Values      | Discrete(@NUM_ACTIONS_BASE@) / Discrete(@NUM_ACTIONS@)                  |
| Observation Shape  | (@OBS_SIZE@,) float32 for every player count; (@OBS_SIZE_NA@,) with the expansion (its block appended); int8 `action_mask` of the action count |
| Observation Values | integers (counts, ids, flags, shifted lattice positions) within per-element bounds `Game().obs_low/high`; the vector API writes them as uint8 (exact); the `scaled` encoder maps them to [0, 1] |
| Rewards            | terminal; `reward="win_loss"` (default): +1 to a sole winner, -1/(n-1) to every other seat, k tied winners (n-k)/(k(n-1)) each, n counting the Automata seat (so not zero-sum with it); `"score"`: final score; `"score_diff"`: own final score minus the mean of the other seats'. The turn limit (option `turn_limit`) is a **truncation** with rewards 0 by default (`truncations` set, not `terminations`); `turn_limit_end="score"` scores it as a normal ending |
| Chance             | tile and card shuffles, the first player, every wind-die roll and the Automata's card draws and "fate" come from the generator inside the state |

Mycelia (1-4 players) grows mushrooms on a board of triangle tiles that grows tile by tile.
On a turn a player takes 2 different actions among move (the Mother mushroom, M, up to 2
steps over flat edges), explore (draw a tile from one of two face-down piles, place and turn
it), spore (roll the wind die: spores spread from a mushroom or the M through the tile edge
showing the rolled symbol into the larger triangle beyond), fruit (pay a card's spores by
colour from one connected network, grow a mushroom token, score the card), discover (take a
card) and decay (a mushroom that spored twice goes under its mat and its decay action
resolves). Free actions: 2 insects move another player's M, 1 insect refreshes the market,
3 cards buy 1 insect. The game ends the moment a player has a decayed card under every mat
(End Game Token worth the number of mats); `turn_limit` rounds (default 80) cut the game: a
truncation unless `turn_limit_end="score"` (then scored without the token). Options `mats`
(3, 4, 5), `automata`, `automata_level`, `turn_limit`, `turn_limit_end`, `reward`,
`expansion` ("north_america": the North American expansion: 35 more cards with wild spores,
saplings and the symbiosis roll, the AGE action, Grandfather Trees worth 5, its decay actions,
a fifth player) and `sapling_setup` ("roll", "O", "U", "A": the saplings' start formation). The
rules as implemented, every point where the rulebook is silent with the choice made, the
designed data (cards.toml, tiles.toml, automata.toml) and simulation figures are in
`RULES.md` next to this file.

A compound action is a short sequence of AEC turns of the same agent (sub-decisions):
where the M steps next or stop; which tile position and rotation; which tile gets a
spore when spores run short among tiles at the same distance; which mat, which tile to
grow on and which spores pay (one spore per decision, any owner's spore on a tile you
control); decay targets. A sub-decision with a single legal choice is applied
automatically. The wind-die roll is part of the spore action.

### Observation space (seat-relative: seat blocks and per-tile seat features rotate so that the observer comes first)

Generated from the declaration in `observation.py` (`MyceliaGame().observation_layout()`, with
bounds: every value is an integer in its range, shown for the default options: the `round`
bound is the `turn_limit` option); one
length for every player count (absent seats are zeros):

@OBSERVATION_TABLE@

Seat features (@SEATF@ values per seat, `seat<k>_...` above, k seats after the observer):

@SEAT_TABLE@

Mat features (@MATF@ values per mat):

@MAT_TABLE@

Card features (@CF@ values per card):

@CARD_TABLE@

Tile features (@TF@ values per tile of `tiles`):

@TILE_TABLE@

Card ids are the order of `cards.toml` (69..103: `cards_north_america.toml`); tile indices are
placement order (the six centre tiles of the start star are 0..5).

### The North American expansion's observation block (`expansion="north_america"` only)

Appended after the base game's @OBS_SIZE@ values (which keep their offsets; with the expansion
their bounds for cards, insects and the fifth seat's offset are raised):

@NA_TABLE@
 A graph encoding (node features per tile plus an edge
list, `game.graph_observation(state, player)`) is `mushgym.wrappers.GraphObservation(env)`.

### Action space

Generated from the declaration in `actions.py` (`encode_action("pay", tile, owner)`,
`decode_action(a)`, and the compiled `pay_action` / `pay_args` in the kernels):

@ACTION_TABLE@

### Version history

* v1: the rules read again against both rulebooks (RULES.md names each choice with the
  rulebook's words). Free actions are offered after the second action (the turn then ends with
  `stop`) and between the steps of a MOVE; the spore triangle is bounded by the spore count
  (1 row for 1 spore, 2 rows for 2-4, 3 rows for 5-9: spores past a missing tile stop at its
  edge, Examples C and D); the game-ending decay resolves its decay action before the game
  ends; discover 2 keep 1 asks where the other card goes (`stop`: the box, `deck`: the bottom
  of the deck); a tile with a sapling is not an empty triangle; the Automata grows on a free
  tile another payment allows, a player decides the side of the Automata's Mother mushroom at
  set-up when the hat draws one (`D_SETUP` with a0 1), tree owners push the Automata's spores
  (after its turn) and an AGE over an Automata mushroom resolves its card's decay action;
  a chain of Grandfather Tree pushes is followed spore by spore. Same action and observation
  spaces as v0.
* v0 (retired): initial release. The North American expansion came as an option whose action
  groups and observation block are appended: the base game's spaces did not change. Revised before any release: the state, config, observation
  and actions are declared as shaped layouts and named action groups (the tables above are
  generated from them); the turn limit is a truncation (option `turn_limit_end`); the state
  declares its bounds (`Game.validate` refuses corrupted states); the observation is integral
  (counts, ids and flags instead of scaled fractions; ids instead of one-hot blocks per tile
  and for the card sets, 2,809 -> 1,652 values; rounds played instead of the fraction of the
  turn limit; lattice positions shifted to be non-negative; seat points saturating at 255).
"""

import numpy as np

from mushgym.aec import make_env_classes
from mushgym.docsite import fill_env_docstring

from .actions import NUM_ACTIONS, NUM_ACTIONS_BASE, A
from .game import MyceliaGame, decode_action, encode_action, obs_fields  # noqa: F401
from .observation import CARD, CF, MAT, MATF, OBS_SIZE, SEAT, SEATF, TF, TILE
from .observation_na import OBS_SIZE_NA


def _table(layout) -> str:
    """The layout's index table with a column for each field's integer range (its declared bounds)."""
    rows = layout.table().split("\n")
    out = [rows[0] + " range |", rows[1] + " --- |"]
    for row, f in zip(rows[2:], layout.fields.values()):
        if f.low is None or f.high is None:  # a block of records (seat mats): see its own table
            out.append(row + " see below |")
            continue
        lo, hi = int(np.min(f.low)), int(np.max(f.high))
        out.append(row + f" {lo}..{hi} |")
    return "\n".join(out)


def _docstring(template: str) -> str:
    """The docstring with its tables generated from the declarations (they cannot drift)."""
    na = MyceliaGame(expansion="north_america").observation_layout()
    na_rows = _table(na).split("\n")
    na_table = "\n".join(na_rows[:2] + [r for r, f in zip(na_rows[2:], na.fields.values()) if f.offset >= OBS_SIZE])
    return fill_env_docstring(
        template,
        {
            "NUM_ACTIONS_BASE": NUM_ACTIONS_BASE,
            "NUM_ACTIONS": NUM_ACTIONS,
            "OBS_SIZE_NA": OBS_SIZE_NA,
            "NA_TABLE": na_table,
            "OBS_SIZE": OBS_SIZE,
            "OBSERVATION_TABLE": _table(MyceliaGame().observation_layout()),
            "SEAT_TABLE": _table(SEAT),
            "SEATF": SEATF,
            "MAT_TABLE": _table(MAT),
            "MATF": MATF,
            "CARD_TABLE": _table(CARD),
            "CF": CF,
            "TILE_TABLE": _table(TILE),
            "TF": TF,
            "ACTION_TABLE": A.table(),
        },
    )


__doc__ = _docstring(__doc__)

Game = MyceliaGame

raw_env, env = make_env_classes(MyceliaGame, module_name=__name__)

__all__ = ["Game", "MyceliaGame", "raw_env", "env", "decode_action", "encode_action", "obs_fields"]
