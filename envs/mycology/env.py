"""
# Mycology

| Import             | `from mushgym.envs import mycology_v0`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2 to 6 (option `num_players`, default 2)                                 |
| Action Shape       | Discrete(39)                                                             |
| Action Values      | Discrete(39)                                                             |
| Observation Shape  | (369 + 216 n,) float32: (801,) 2p, (1017,) 3p, (1233,) 4p, (1449,) 5p, (1665,) 6p; int8 `action_mask` of (39,) |
| Observation Values | per-element bounds in `Game().obs_low/high` (card features scaled, counts raw) |
| Rewards            | terminal; `reward="win_loss"` (default): +1 to a sole winner, -1/(n-1) to every other player; k tied winners get (n-k)/(k(n-1)) each (0 for a 2-player tie); `reward="score"`: final score; `reward="score_diff"`: own final score minus the mean of the others' |
| Chance             | the deck shuffle, the first player and every 2d6 roll come from the generator inside the state (seeded by `reset(seed)`) |

Mycology (2-6 players) is a set-collection game about mushroom foraging. Each turn the
active player's 2d6 roll either advances the season (7) or gives every player one Ecology
Resource (2/12 Other Parasite, 3/11 Plant Parasite, 4/10 Wood Rot, 5/9 Symbiont, 6/8
Soil/Dung; poison mushrooms add Poison tokens). Then the player takes up to 2 actions:
harvest a Mushroom Card of the current season from the 8-card field into that season's
basket (capacities 1/2/3/4), or one of six trades. The game ends when a player has all 10
basket places filled (or at the turn limit, option `turn_limit`, default 240 turns rounded
up to whole rounds); score = card points + Feast + Magic - 2 x Poison. The rules as
implemented, every point where the rulebook is silent and the choice made, the designed
card data and simulation figures are in `RULES.md` next to this file.

Decisions inside one action are AEC turns of the same agent: paying "ANY 3" resources or
choosing to spend a Magic token is done token by token in the pay phase (only when there
is a real choice; forced payments are automatic), and after a row replacement the player
puts the replaced cards under the deck one by one. The dice roll is not an action: it is
made as the turn starts.

### Observation space (seat-relative: blocks rotate so that the observing agent is first)

With n players (the player-to-act block has n entries, so every later index shifts by n;
the table gives the n = 2 indices, `mushgym.envs.mycology.game.obs_fields(n)` lists the
blocks for any n):

| index (n = 2) | content |
|---------------|---------|
| 0..3     | season one-hot (Winter, Spring, Summer, Fall) |
| 4..6     | phase one-hot (act, pay, order under the deck); all 0 when the game is over |
| 7..9     | actions left this turn, one-hot (0, 1, 2) |
| 10..20   | last dice total one-hot (2..12) |
| 21..22   | player to act, one-hot by seat offset (0 = observer) |
| 23       | turns played / turn limit |
| 24       | cards in the deck / 84 |
| 25..27   | payment type one-hot (specific resources, ANY resources, Feast), pay phase only |
| 28..32   | specific resources owed (OP, PP, WR, SY, SD) |
| 33       | ANY resources still owed |
| 34       | Feast still owed |
| 35       | payment order key / 10 (see RULES.md, "Paying") |
| 36..42   | pending action one-hot (harvest, trade 1..6), pay and ordering phases |
| 43..50   | pending argument one-hot: field slot (harvest), resource (trades 1, 3), row (trade 5), seat offset (trade 6) |
| 51..126  | the 4 replaced cards waiting to go under the deck: 4 x 19 card features |
| 127..286 | field slot 0..7 (0..3 top row, 4..7 bottom row): 20 values each (present, 19 card features) |
| 287..301 | observer: resources OP PP WR SY SD, Feast, Magic, Poison, score, basket fill W Sp Su F (count / capacity), stinkhorn on top of a basket, first player |
| 302..501 | observer's baskets: 10 slots (Winter; Spring x 2; Summer x 3; Fall x 4; each bottom to top) x (present, 19 card features) |
| 502..716 | the next seat clockwise, the same 15 + 200 values (and so on for every seat, in play order) |
| 717..800 | the set of cards still in the deck, one entry per card id (public by elimination; the order is hidden) |

Card features (19): points/10; seasons Winter, Spring, Summer, Fall (0/1); cost in OP,
PP, WR, SY, SD (count/4); Feast/4; poison, stinkhorn, magic (0/1); poison resource
one-hot (OP, PP, WR, SY, SD). Card ids are the order of `cards.toml`.

### Action space

| index  | action |
|--------|--------|
| 0..7   | harvest the field card in slot i (in season, a free place in the season's basket, cost payable with Magic covering shortfalls) |
| 8..12  | trade 3 ANY resources for 1 resource r (OP, PP, WR, SY, SD) |
| 13     | trade 3 ANY resources for 1 Feast |
| 14..18 | trade 1 Feast for 1 resource r |
| 19     | trade 1 Feast to advance the season |
| 20..21 | trade 1 Feast to replace the top (20) or bottom (21) row of the field |
| 22..26 | trade 2 Feast to exchange the top mushroom of your current-season basket with the top one of the player k = 1..5 seats after you (22 + k - 1; only k < n) |
| 27     | end the turn (the turn also ends by itself after the second action) |
| 28..32 | pay phase: pay 1 real resource r |
| 33     | pay phase: pay 1 Magic token (as the resource or Feast owed) |
| 34     | pay phase: pay 1 Feast token |
| 35..38 | ordering phase: put the replaced card of column j under the deck next (the last one put is the bottom card) |

### Version history

* v0: initial release.
"""

from mushgym.aec import make_env_classes

from .game import MycologyGame, decode_action, encode_action, obs_fields  # noqa: F401

Game = MycologyGame

raw_env, env = make_env_classes(MycologyGame, module_name=__name__)

__all__ = ["Game", "MycologyGame", "raw_env", "env", "decode_action", "encode_action", "obs_fields"]
