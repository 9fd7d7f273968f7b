"""
# Mycelia

| Import             | `from mushgym.envs import mycelia_v0`                                    |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n` (the Automata is part of the environment, never an agent) |
| Agents             | 1 to 4 (option `num_players`, default 2; 1 only with the Automata, which joins 1 to 3 players) |
| Action Shape       | Discrete(502)                                                            |
| Action Values      | Discrete(502)                                                            |
| Observation Shape  | (2809,) float32 for every player count; int8 `action_mask` of (502,)    |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts scaled, mostly in [0, 1]) |
| Rewards            | terminal; `reward="win_loss"` (default): +1 to a sole winner, -1/(n-1) to every other seat, k tied winners (n-k)/(k(n-1)) each, n counting the Automata seat (so not zero-sum with it); `"score"`: final score; `"score_diff"`: own final score minus the mean of the other seats' |
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
(End Game Token worth the number of mats), or after `turn_limit` rounds (default 80; scored
without the token). Options `mats` (3, 4, 5), `automata`, `automata_level`, `reward`. The
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

| index      | content |
|------------|---------|
| 0..3       | player to act, one-hot by seat offset (0 = observer) |
| 4..21      | decision kind one-hot (main, place M, move on, place tile, turn tile, spore target, fruit mat, grow tile, pay, outer tile, opponent mushroom, its destination, whose M, its destination, steal from, draw two, keep, trade) |
| 22..24     | main actions done this turn, one-hot (0, 1, 2) |
| 25..30     | action types used this turn (move, explore, spore, fruit, discover, decay) |
| 31         | turns played / turn limit |
| 32..37     | deck / 69, discard pile / 69, tile pile 0 / 50, tile pile 1 / 50, insect supply / 20, last wind-die face (0 none, 1/3 O, 2/3 U, 1 A) |
| 38..45     | the drawn tile waiting to be placed: colour one-hot (R G B Y K), insect, symbol order OAU, present |
| 46..63     | the card being fruited: 18 card features |
| 64..68     | spores still owed by colour (R, G, B, Y) / 6; black spores paid / 6 |
| 69..137    | own hand, one entry per card id |
| 138..206   | market, one entry per card id |
| 207..275   | discard pile, one entry per card id |
| 276..344   | the two cards drawn by discover-2-keep-1, shown to the player choosing only |
| 345..485   | observer: present, Automata, spore supply / 30, insects / 20, points / 60, mushrooms grown / 20, hand size / 69, game upgrades (same action twice, discover 2 keep 1, M moves 3, M spores 3); then 5 mats x 26 (token on the board, card on top, spore counter one-hot 0..2, cards under / 5, upgrades extra spore and spore with M, 18 card features of the card on top) |
| 486..908   | the next three seats clockwise, 141 values each (zeros for absent seats) |
| 909..2808  | tiles in placement order, 50 x 38: present, colour one-hot (R G B Y K), points up, column and row relative to the first tile (/100, /50), wind symbol one-hot (O U A) on edges A, B, C, for each edge A B C (neighbour present, (neighbour index + 1) / 50), insect token, M by seat offset (4), mushroom token by seat offset (4), that mushroom's spore counter / 2, spores by seat offset / 30 (4) |

Card features (18): points / 8; spores required red, green, brown, yellow / 6; spore count
/ 6; decay action one-hot (11, glossary order of RULES.md); present. Card ids are the order
of `cards.toml`; tile indices are placement order (the six centre tiles of the start star
are 0..5). The block list with lengths is `obs_fields()`; a graph encoding (node features
per tile plus an edge list, `game.graph_observation(state, player)`) is `mushgym.wrappers.GraphObservation(env)`.

### Action space

| index    | action |
|----------|--------|
| 0..49    | tile t: move the M onto neighbouring tile t (first step of MOVE, main decision); step on to t; place the M on centre tile t (setup); put the next spore on t; grow on t; pick outer tile t / opponent mushroom on t; destination t of a moved mushroom or M |
| 50..249  | pay one spore of seat o from tile t: 50 + 4 t + o |
| 250..318 | card id c: fruit c (main decision); keep c (discover 2 keep 1); trade c in |
| 319..321 | DISCOVER: take market card j (also the picks of "draw two") |
| 322      | DISCOVER: take the top card of the deck |
| 323..324 | EXPLORE: draw the top tile of pile j |
| 325..474 | place the drawn (or moved) tile across free edge e of placed tile i: 325 + 3 i + e (one action per free cell: its lowest-index neighbour) |
| 475..477 | turn the tile to rotation r |
| 478..483 | SPORE from the M (478) or from the mushroom of mat i (479 + i) |
| 484..488 | DECAY the mushroom of mat i |
| 489..493 | put the fruited card on mat i |
| 494..497 | choose seat s (whose M to move; whom to steal from) |
| 498      | free: spend 2 insects to move another player's M |
| 499      | free: spend 1 insect to refresh the market |
| 500      | free: trade 3 cards for 1 insect |
| 501      | stop moving; end the turn (only when no action is possible) |

### Version history

* v0: initial release.
"""

from mushgym.aec import make_env_classes

from .game import MyceliaGame, decode_action, encode_action, obs_fields  # noqa: F401

Game = MyceliaGame

raw_env, env = make_env_classes(MyceliaGame, module_name=__name__)

__all__ = ["Game", "MyceliaGame", "raw_env", "env", "decode_action", "encode_action", "obs_fields"]
