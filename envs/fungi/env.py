"""
# Fungi

| Import             | `from mushgym.envs import fungi_v0`                    |
|--------------------|--------------------------------------------------------|
| Actions            | Discrete, masked                                       |
| Parallel API       | No                                                     |
| Manual Control     | No (the `mushgym play` CLI)                            |
| Agents             | `agents= ['player_0', 'player_1']`                     |
| Agents             | 2                                                      |
| Action Shape       | Discrete(@NUM_ACTIONS@)                                          |
| Action Values      | Discrete(@NUM_ACTIONS@)                                          |
| Observation Shape  | (@OBS_SIZE@,) float32, with an int8 `action_mask` of (@NUM_ACTIONS@,)    |
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
agent (entries of the state's decision stack, whose top gives the player to act and the
legal actions). A player who cannot act is skipped (the opponent acts again).

### Observation space (player-relative: "my" = the observing agent)

@OBSERVATION_TABLE@

Display block (`display[who, entry]`, who 0 = mine, 1 = the opponent's):

@DISPLAY_TABLE@

Card kinds: 0 Honey fungus, 1 Tree ear, 2 Lawyer's wig, 3 Shiitake, 4 Hen of the woods,
5 Birch bolete, 6 Porcini, 7 Chanterelle, 8 Morel, 9..16 the Night cards of types 0..7,
17 Butter, 18 Cidre, 19 Pan (hand kinds end here), 20 Fly agaric, 21 Basket, 22 Moon.

### Action space

An action id is the first index of its group plus its arguments in row-major order
(`game.encode_action("cook", type, night, forest)`, `game.decode_action(a)`).

@ACTION_TABLE@

### Version history

* v0: initial release.
"""

from mushgym.aec import make_env_classes
from mushgym.docsite import fill_env_docstring

from .game import FungiGame, decode_action, encode_action
from .layout import DL, NUM_ACTIONS, OBS_SIZE, OL, A

__doc__ = fill_env_docstring(
    __doc__,
    {
        "OBSERVATION_TABLE": OL.table(),
        "DISPLAY_TABLE": DL.table(),
        "ACTION_TABLE": A.table(),
        "NUM_ACTIONS": NUM_ACTIONS,
        "OBS_SIZE": OBS_SIZE,
    },
)

Game = FungiGame
raw_env, env = make_env_classes(FungiGame, module_name=__name__)

__all__ = ["Game", "FungiGame", "raw_env", "env", "decode_action", "encode_action"]
