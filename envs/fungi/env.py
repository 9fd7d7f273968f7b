"""
# Fungi

| Import             | `from mushgym.envs import fungi_v0`                    |
|--------------------|--------------------------------------------------------|
| Actions            | Discrete, masked                                       |
| Parallel API       | No                                                     |
| Manual Control     | No (the `mushgym play` CLI)                            |
| Agents             | `agents= ['player_0', 'player_1']`                     |
| Agents             | 2                                                      |
| Action Shape       | Discrete(450)                                          |
| Action Values      | Discrete(450)                                          |
| Observation Shape  | (347,) float32, with an int8 `action_mask` of (450,)    |
| Observation Values | integers, per-element bounds in `Game().obs_low/high`  |
| Rewards            | terminal; `reward="win_loss"` (default): +1 / -1 / 0, ties broken by mushrooms cooked (Night = 2); `reward="score_diff"`: own flavor points minus the opponent's |
| Chance             | shuffles inside the state (seeded by `reset(seed)`)    |

Fungi (Pegasus Spiele; first edition *Morels*, Two Lanterns Games) is a two-player card
game: gather mushrooms from a sliding Forest line of 8 cards and a decay pile, sell them
for sticks (which buy cards deep in the Forest), and cook 3 or more of a kind in a Pan
(Butter and Cidre add points) to score flavor points. The game ends when the Forest is
empty. The full rules as implemented, with every point where the rulebook is silent and
the choice made, are in `RULES.md` next to this file.

An agent's turn may take several decisions: cooking is "cook (type, Night cards, Forest
cards)" followed by "which pan, how many Butter and Cidre" (skipped when public
information leaves only one choice), and taking a Fly agaric with a hand over the new limit is followed by one
"discard a card" decision per card to discard. Those follow-ups are AEC turns of the same
agent. A player who cannot act is skipped (the opponent acts again).

### Observation space (player-relative: "my" = the observing agent)

| index    | content                                                                    |
|----------|----------------------------------------------------------------------------|
| 0..19    | my hand, count per hand kind (kinds below)                                 |
| 20       | my hand size                                                               |
| 21       | my current hand limit (8 or 4 with an active Fly agaric, +2 per Basket)   |
| 22       | opponent's hand size                                                       |
| 23..42   | opponent's publicly known hand cards per hand kind (taken face up, not yet spent) |
| 43..69   | my display (27 values, below)                                              |
| 70..96   | opponent's display (27 values)                                             |
| 97..280  | the Forest, position i (0 = next to the decay pile) one-hot over 23 kinds at 97 + 23 i |
| 281      | Forest size                                                                |
| 282..304 | decay pile, count per kind                                                 |
| 305      | decay pile size                                                            |
| 306..328 | discard pile, count per kind                                               |
| 329      | draw pile size                                                             |
| 330      | Night pile size                                                            |
| 331      | 1 if I am to act                                                           |
| 332..334 | phase one-hot: act, cook follow-up, Fly agaric discard                     |
| 335..343 | type being cooked (one-hot), during a cook follow-up                       |
| 344      | mushrooms being cooked (Night = 2), during a cook follow-up                |
| 345      | cards still to discard, during a Fly agaric trim                           |
| 346      | 1 if I was the start player                                                |

Display block (offset + j): 0 Baskets, 1 sticks, 2 empty Pans, 3 Fly agarics taken this
(or the last) own turn, 4 Fly agarics expiring at the end of the next own turn,
5 cooked pans, 6..14 cooked Forest mushrooms per type, 15..22 cooked Night cards per type,
23 Butter cooked, 24 Cidre cooked, 25 flavor points, 26 mushrooms cooked (Night = 2).

Card kinds: 0 Honey fungus, 1 Tree ear, 2 Lawyer's wig, 3 Shiitake, 4 Hen of the woods,
5 Birch bolete, 6 Porcini, 7 Chanterelle, 8 Morel, 9..16 the Night cards of types 0..7,
17 Butter, 18 Cidre, 19 Pan (hand kinds end here), 20 Fly agaric, 21 Basket, 22 Moon.

### Action space

| index    | action                                                                      |
|----------|-----------------------------------------------------------------------------|
| 0..7     | take the Forest card at position i (0, 1 free; i >= 2 costs i - 1 sticks)  |
| 8        | take the whole decay pile                                                   |
| 9        | put down a Pan from the hand                                                |
| 10..207  | cook: 10 + (t * 2 + n) * 11 + f: type t, n in {0,1} Night cards, f in 0..10 Forest cards; f + 2n >= 3 and a Pan available |
| 208..405 | sell: 208 + (t * 2 + n) * 11 + f, f + 2n >= 2; gains (f + 2n) x the type's sticks |
| 406..429 | cook follow-up: 406 + (src * 4 + b) * 3 + c: src 0 = an empty Pan of the display, 1 = a Pan from the hand; b Butter (0..3), c Cidre (0..2), 4b + 5c <= mushrooms |
| 430..449 | discard one card of hand kind k (Fly agaric trim only)                     |

### Version history

* v0: initial release.
"""

from mushgym.aec import make_env_classes

from .game import FungiGame, decode_action, encode_action

Game = FungiGame
raw_env, env = make_env_classes(FungiGame, module_name=__name__)

__all__ = ["Game", "FungiGame", "raw_env", "env", "decode_action", "encode_action"]
