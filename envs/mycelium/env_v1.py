"""
# Mycelium: A Mushling Game (v1: the Exchange by Mushling Card Type)

| Import             | `from mushgym.envs import mycelium_v1`                                   |
|--------------------|--------------------------------------------------------------------------|
| Actions            | Discrete, masked                                                         |
| Parallel API       | No                                                                       |
| Manual Control     | No (the `mushgym play` CLI)                                              |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`, `num_players=n`             |
| Agents             | 2, 3 or 4 (option `num_players`, default 4; 2: each agent acts for two diagonal Colonies) |
| Action Shape       | Discrete(1310) with every variant off; Discrete(1338) with Emsporium, Hero Tavern or Legends on (Team rules off); Discrete(1369) under the Team rules, as `mycelium_v0` |
| Action Values      | Discrete(1310) / Discrete(1338) / Discrete(1369), as above              |
| Observation Shape  | (1505,) / (1613,) / (1680,) float32: `mycelium_v0`'s observation of the same options, then the 37 values of the Exchange block; int8 `action_mask` of the action count |
| Observation Values | per-element bounds in `Game().obs_low/high` (counts raw, flags 0/1)      |
| State              | one int64 array of 1515 slots (`Game().state_size`), `mycelium_v0`'s layout |
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

* the action `exchange(type, option)` (ids 2..41: v0's first 40 `exchange` ids):
  discard 2 cards of that Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior,
  4 reinforcement, 5 wizard, 6 scout, 7 worker); option 0 draws a card, 1 + c spawns a spore in
  seat c's Spore Cave (while the supply has one). Ids 42..116 (the rest of v0's
  Exchange by card) are the group `unused`, never legal: every other id is v0's;
* the Exchange's cards are a sub-decision on the decision stack (`D_EXCHANGE`, the turn
  player's): the player names its 2 cards with `card(kind)`, the lower card id first (so each
  pair is named one way only); each card named is discarded at once, in view of all; both are
  asked even when the hand allows one pair only (a skipped question would tell the table that
  the hand holds no other card of that type); then the draw or the spore;
* the observation appends the Exchange block (at the end of v0's observation of the same
  options: offset 1468, 1576 or 1643; `Game().exchange_obs`):

| index | field | shape | content |
| --- | --- | --- | --- |
| 0 | `exchange_decision` | scalar | the pending decision is the Exchange's choice of its 2 cards |
| 1..8 | `exchange_type` | i0=8 | its Mushling Card Type, one-hot (builder, thief, enforcer, warrior, reinforcement, wizard, scout, worker) |
| 9..13 | `exchange_option` | i0=5 | its action: 0 draw a card, 1 + k spawn a spore in the Spore Cave of seat offset k |
| 14..36 | `exchange_first` | i0=23 | the first of its 2 cards, already discarded, one-hot |

### Observation space (`mycelium_v0`'s fields; the Exchange block follows the last field of the options' spaces)

| index | field | shape | content |
| --- | --- | --- | --- |
| 0..5 | `phase` | i0=6 | phase one-hot (explore, nutrient, action, place, discard, over) |
| 6..20 | `decision` | i0=15 | kind of the pending decision on top of the stack, one-hot |
| 21..24 | `actor` | i0=4 | player to act, by seat offset from the observer |
| 25..28 | `turn_player` | i0=4 | turn player, by seat offset |
| 29..32 | `first_player` | i0=4 | first player, by seat offset |
| 33 | `turn` | scalar | turns completed / turn limit |
| 34 | `actions_used` | scalar | Action Phase actions this turn / cap |
| 35..57 | `ability` | i0=23 | the ability in question (Fly Agaric window, use prompt, ability in flight), one-hot |
| 58..61 | `ability_user` | i0=4 | its user, by seat offset |
| 62..63 | `ability_side` | i0=2 | combat side it concerns (attacker, defender) |
| 64..86 | `ability_kind` | i0=23 | card type it names (Amethyst Deceiver's pick, reinforcement) |
| 87..96 | `ability_locs` | i0=10 | locations it names (spawn or thief cave, Russula's 3 placements: counts) |
| 97..100 | `ability_target` | i0=4 | player it names (Parrot view, path builder), by seat offset |
| 101..232 | `focus_edge` | i0=132 | edge in question (new Path, attack target, Path to remove), one-hot |
| 233..234 | `pay` | i0=2 | Build: spore value paid / 30, Paths left to place / 10 |
| 235..242 | `combat` | i0=8 | combat: active, defended, revealed, winner attacker, winner defender, bonus A / 20, bonus D / 20, I am a combatant |
| 243..250 | `combat_players` | side=2 x offset=4 | attacker and defender by seat offset |
| 251..258 | `combat_stage` | i0=8 | combat stage one-hot |
| 259..304 | `combat_cards` | side=2 x kind=23 | face-down card of each side once revealed (or my own) |
| 305..350 | `combat_repl` | side=2 x kind=23 | card an Amethyst Deceiver drew in its place |
| 351..352 | `combat_nothief` | i0=2 | Thief of this side cancelled by a Common Puffball |
| 353..880 | `paths` | edge=132 x offset=4 | a Path of the player at this seat offset on the edge |
| 881..1012 | `permanent` | edge=132 | the edge holds a permanent Colony Path |
| 1013..1022 | `loc_nutrients` | i0=10 | Nutrient Tokens on each gather location |
| 1023..1032 | `loc_spores` | i0=10 | Spore Tokens on each gather location |
| 1033..1072 | `loc_gatherers` | gloc=10 x offset=4 | gatherers of each seat offset on each location |
| 1073..1082 | `my_bonded` | i0=10 | my bonded Paths on each location |
| 1083..1092 | `bn_trigger` | i0=10 | a Nutrient was placed on this tree in this Nutrient Card Phase |
| 1093..1124 | `players` | offset=4 x value=8 | per seat offset: present, hand size, mat spores, mat nutrients, combat tokens, Paths, gatherers home, played Bird's Nest this phase |
| 1125..1147 | `my_hand` | i0=23 | my cards per type |
| 1148..1216 | `known` | offset=3 x kind=23 | cards I know seat offset + 1 still holds (Parrot Toadstool, thefts, gifts) |
| 1217..1239 | `discard` | i0=23 | mushling discard pile per type |
| 1240..1262 | `limbo` | i0=23 | cards of abilities in flight |
| 1263..1285 | `carea` | i0=23 | reinforcements played in this combat |
| 1286..1287 | `decks` | i0=2 | mushling deck size, nutrient deck size |
| 1288..1295 | `nutrient_discard` | i0=8 | nutrient discard pile per kind |
| 1296..1318 | `deck_top` | i0=23 | the public set the top mushling cards come from (a Witch's Hat's shuffle) |
| 1319..1326 | `nutrient_top` | i0=8 | the nutrient cards a Witch's Hat put on top that are still there (public) |
| 1327..1328 | `top_n` | i0=2 | how many cards on top of the mushling / nutrient deck those are |
| 1329..1464 | `nutrient_known` | from_top=17 x nkind=8 | nutrient cards I know, by position from the top of the deck |
| 1465..1467 | `supply` | i0=3 | supply of spores, nutrients, combat tokens |
| 1468..1470 | `variant_decision` | i0=3 | variant decision on top (buy, hero pick, legend), one-hot |
| 1471..1502 | `items` | offset=4 x item=8 | Emsporium items owned, by seat offset |
| 1503..1510 | `shop` | i0=8 | Emsporium items face up in the shop, per type |
| 1511 | `item_deck` | scalar | cards in the item deck |
| 1512..1513 | `buy` | i0=2 | Buy: spore value paid / 30, value left to spend / 30 |
| 1514..1545 | `heroes` | offset=4 x hero=8 | Hero Tavern: heroes held, by seat offset |
| 1546..1553 | `hero_up` | i0=8 | heroes face up at the Tavern |
| 1554 | `hero_deck` | scalar | heroes in the hero deck |
| 1555..1570 | `legend_deal` | k=2 x hero=8 | Legends: the 2 heroes dealt to me, until I keep one |
| 1571..1574 | `tavern_gatherers` | i0=4 | gatherers on the Hero Tavern, by seat offset |
| 1575 | `hero_picks` | scalar | heroes still to recruit in this Gather Phase |
| 1576..1577 | `team_decision` | i0=2 | Team: the pending decision is a Trade offer to answer / a gathering choice |
| 1578..1581 | `controlled` | i0=4 | Team: seats (by offset) I act for: 0, and 2 in the 2-player game |
| 1582..1605 | `trade_offer` | i0=24 | Team: the kind offered in the pending Trade (23: a Spore Token) |
| 1606 | `trade_used` | scalar | Team: the turn player has used its Trade this turn |
| 1607..1616 | `gather_loc` | i0=10 | Team: the location of the pending gathering choice |
| 1617 | `gather_max` | scalar | Team: the most tokens that choice may take (up to 3, 6 with Backpacks) |
| 1618..1619 | `team_nutrients` | i0=2 | Team: combined Nutrients of my team and of the other team |
| 1620..1642 | `partner_hand` | i0=23 | 2-player game: the hand of my other Colony (0 in the Team variant) |

### Action space

| index | action | arguments | meaning |
| --- | --- | --- | --- |
| 0 | `end_actions` | - | end the Action Phase (Gather, then Place) |
| 1 | `build` | - | Build a Path: pay, then place the Paths one at a time |
| 2..41 | `exchange` | type=8 x option=5 | discard 2 cards of a Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior, 4 reinforcement, 5 wizard, 6 scout, 7 worker): option 0 draw a card, 1 + c spawn a spore in seat c's Spore Cave; the 2 cards are named next (`card`, the lower id first) |
| 42..116 | `unused` | i0=75 | never legal (mycelium_v0's Exchange by card beyond these ids), so every later id is v0's |
| 117..380 | `attack` | edge=132 x slot=2 | attack the Path in this slot of this edge |
| 381..403 | `deceive` | kind=23 | Amethyst Deceiver: exchange it for a card of this kind from the discard pile |
| 404..406 | `parrot_view` | offset=3 | Parrot Toadstool: view the hand of the player offset + 1 seats after you |
| 407..670 | `parrot_attack` | edge=132 x slot=2 | Parrot Toadstool: attack any Path with another card |
| 671 | `russula` | - | Russula: place/replace your 3 gatherers (3 choices follow) |
| 672 | `veiled_lady` | - | Veiled Lady: view the top Nutrient Cards |
| 673..675 | `builder_pair` | pair=3 | two Builders (0 Chanterelle x2, 1 Chanterelle + Wood Blewit, 2 Wood Blewit x2): 2 free Paths |
| 676..939 | `builder_remove` | builder=2 x edge=132 | a Builder (0 Chanterelle, 1 Wood Blewit): remove your Path, gain a spore |
| 940..947 | `spawn` | worker=2 x cave=4 | Night Light (0, 2 spores) / Yellow Morel (1, 1 spore) into seat c's Spore Cave |
| 948 | `magic` | - | Magic Mushling: view and rearrange the top Nutrient Cards |
| 949..950 | `truffle` | deck=2 | Truffle: shuffle deck + discard (0 mushling, 1 nutrient) |
| 951..952 | `witch` | deck=2 | Witch's Hat: shuffle the discard onto the deck (0 mushling, 1 nutrient) |
| 953..964 | `thief_pair` | pair=3 x cave=4 | two Thieves (0 Parasol x2, 1 Parasol + Shiitake, 2 Shiitake x2): 1 spore from seat c's cave |
| 965 | `pay_token` | - | Build: pay a Spore Token (3) |
| 966..988 | `pay_card` | kind=23 | Build: pay a card for its spore value |
| 989 | `pay_done` | - | Build: stop paying; place floor(paid / 3) Paths |
| 990..1121 | `place_path` | edge=132 | place a Path on this edge |
| 1122..1253 | `remove_own` | edge=132 | remove your Path on this edge (the 21st Path rule) |
| 1254..1276 | `card` | kind=23 | choose a card of this kind: face-down attack/defence, a card given to an Inky Cap, a card of an Exchange, a discard |
| 1277 | `no_defense` | - | defender: play no card (the Path is removed) |
| 1278 | `pass` | - | pass a reaction window / decline a reaction / refuse an Inky Cap |
| 1279 | `fly_agaric` | - | Fly Agaric: cancel the ability in question |
| 1280 | `penny_bun` | - | Penny Bun: remove the Path just built |
| 1281 | `inky_cap` | - | Inky Cap: the builder gives you 2 cards or loses the Path |
| 1282..1285 | `reinforce` | oyster=2 x side=2 | Blue (0, +2) / Pink (1, +3) Oyster for the attacker (0) or defender (1) |
| 1286..1287 | `combat_token` | side=2 | spend a combat token: +1 to the attacker (0) or defender (1) |
| 1288..1294 | `birds_nest` | subset=7 | Bird's Nest: gather with the gatherers in bit mask subset + 1 |
| 1295 | `use` | - | use the reaction in question (a revealed card's, Amethyst Deceiver's) |
| 1296..1305 | `place_gatherer` | gloc=10 | place a gatherer on this location |
| 1306..1309 | `arrange` | pos=4 | Magic Mushling: the viewed card at this position goes next from the top |
| 1310 | `buy` | - | Emsporium: Buy items (pay with pay_token / pay_card, then buy_item, then pay_done) |
| 1311..1315 | `buy_item` | slot=5 | Emsporium: buy the item in this shop slot with the value paid |
| 1316 | `place_tavern` | - | Hero Tavern: place a gatherer on the Hero Tavern |
| 1317..1332 | `hero` | hero=8 x ability=2 | Hero Tavern: use ability a (0) or b (1) of a hero you hold |
| 1333..1335 | `hero_pick` | choice=3 | Hero Tavern: recruit face-up hero 0 / 1, or (2) the top of the hero deck |
| 1336..1337 | `legend_keep` | k=2 | Legends: keep dealt hero k (the other goes back) |
| 1338..1361 | `trade` | kind=24 | Team: offer (turn player, once per turn) or give back (teammate) a card of this kind; 23 = a Spore Token |
| 1362..1368 | `gather_take` | n=7 | Team: take this many tokens from the location in question (optional gathering; above 3 only with Backpacks) |

### State (omniscient, `env.state()`)

| index | field | shape | content |
| --- | --- | --- | --- |
| 0..3 | `rng` | i0=4 | the game's random generator (xoshiro128**) |
| 4 | `turn` | scalar | turns completed (the Explore Phase is not a turn) |
| 5 | `turn_player` | scalar | seat whose turn it is (the explorer in the Explore Phase) |
| 6 | `first_player` | scalar | seat that played the first turn |
| 7 | `phase` | scalar | PH_* of the turn |
| 8 | `placed` | scalar | gatherers placed so far in this Explore/Place Phase |
| 9 | `actions_used` | scalar | Action Phase actions taken this turn |
| 10 | `done` | scalar | 0 running, 1 ended by the rules (10 Nutrients), 2 cut by the turn limit |
| 11 | `winner` | scalar | winning seat, -1 none |
| 12 | `bn_played` | scalar | bit per seat: played a Bird's Nest in this Nutrient Card Phase |
| 13 | `bn_trigger` | scalar | bit per gather location: a Nutrient was placed on this tree this phase |
| 14 | `last_edge` | scalar | edge of the last Path built or removed (-1) |
| 15 | `last_hand` | scalar | hand size of the last player to finish a Draw Phase, at that moment |
| 16..279 | `paths` | edge=132 x slot=2 | owner + 1 of each of the 2 Paths an edge holds (0 empty) |
| 280..283 | `npaths` | player=4 | Paths built and in play (the 6 permanent ones not counted) |
| 284..375 | `hand` | player=4 x kind=23 | mushling cards in hand per type |
| 376..743 | `known` | viewer=4 x holder=4 x kind=23 | cards the viewer knows the holder still has (a lower bound kept true) |
| 744..797 | `deck` | pos=54 | mushling deck, bottom first |
| 798 | `deck_n` | scalar | cards in the mushling deck |
| 799..821 | `discard` | kind=23 | mushling discard pile per type (public) |
| 822..844 | `limbo` | kind=23 | cards of abilities in flight (public) |
| 845..867 | `carea` | kind=23 | reinforcements played in the current combat (public) |
| 868..884 | `ndeck` | pos=17 | nutrient deck (kinds), bottom first |
| 885 | `ndeck_n` | scalar | cards in the nutrient deck |
| 886..893 | `ndiscard` | nkind=8 | nutrient discard pile per kind (public) |
| 894..916 | `deck_top` | kind=23 | public: the cards a Witch's Hat put on top of the mushling deck, less those seen drawn; the top deck_top_n cards are among them |
| 917 | `deck_top_n` | scalar | cards still on top of the mushling deck from a Witch's Hat's shuffle |
| 918..925 | `ndeck_top` | nkind=8 | public: the nutrient cards a Witch's Hat put on top of the nutrient deck that are still there |
| 926 | `ndeck_top_n` | scalar | how many: the top ndeck_top_n nutrient cards are exactly ndeck_top |
| 927..994 | `nseen` | player=4 x pos=17 | 1: the player knows the nutrient card at pos |
| 995..998 | `mat_spores` | player=4 | Spore Tokens on each player's mat |
| 999..1002 | `mat_nut` | player=4 | Nutrient Tokens on each player's mat (10 wins) |
| 1003..1006 | `ctok` | player=4 | combat tokens |
| 1007..1016 | `loc_spores` | gloc=10 | Spore Tokens on each gather location |
| 1017..1026 | `loc_nut` | gloc=10 | Nutrient Tokens on each gather location |
| 1027..1038 | `gatherer` | player=4 x g=3 | gather location of each gatherer, -1 at the Colony |
| 1039 | `c_active` | scalar | a combat is in progress |
| 1040 | `c_att` | scalar | combat: the attacker (-1 none) |
| 1041 | `c_def` | scalar | combat: the defender, owner of the attacked Path (-1 none) |
| 1042 | `c_edge` | scalar | combat: the attacked Path's edge (-1 none) |
| 1043..1044 | `c_card` | side=2 | face-down card of attacker (0) and defender (1), -1 none |
| 1045..1046 | `c_repl` | side=2 | card drawn by an Amethyst Deceiver in its place, -1 none |
| 1047..1048 | `c_bonus` | side=2 | reinforcements and combat tokens added to each side |
| 1049..1050 | `c_nothief` | side=2 | this side's Thief ability is cancelled by a Common Puffball |
| 1051 | `c_defended` | scalar | the defender played a face-down card |
| 1052 | `c_revealed` | scalar | the face-down cards are revealed |
| 1053 | `c_stage` | scalar | CS_* step of the combat |
| 1054 | `c_sub` | scalar | side (or sub-step) within the stage |
| 1055 | `c_passes` | scalar | reinforcement round: players who passed in a row |
| 1056 | `c_next` | scalar | reinforcement round: the next player asked |
| 1057 | `c_winner` | scalar | 0 attacker, 1 defender, -1 undecided |
| 1058 | `decisions_n` | scalar | pending decisions on the stack |
| 1059..1394 | `decisions` | level=48 x column=7 | pending decisions, bottom first: kind, player, args |
| 1395..1426 | `items` | player=4 x item=8 | Emsporium items each player owns, per type (public) |
| 1427..1431 | `shop` | slot=5 | item type face up in each shop slot, -1 empty (refilled at the end of the turn) |
| 1432..1447 | `item_deck` | pos=16 | Emsporium item deck (types), bottom first (order hidden) |
| 1448 | `item_deck_n` | scalar | cards in the item deck |
| 1449..1480 | `heroes` | player=4 x hero=8 | 1: the player holds this hero (public) |
| 1481..1482 | `hero_up` | slot=2 | hero face up at the Tavern in each slot, -1 none |
| 1483..1490 | `hero_deck` | pos=8 | hero deck, bottom first (order hidden) |
| 1491 | `hero_deck_n` | scalar | cards in the hero deck |
| 1492..1499 | `legend_deal` | player=4 x k=2 | Legends: the 2 heroes dealt to each player, -1 once kept |
| 1500..1503 | `agent_of` | seat=4 | agent acting for each seat: the seat itself, or seat % 2 in the 2-player game |
| 1504 | `trade_used` | scalar | team: the turn player has made its Trade offer this turn |
| 1505..1514 | `gather_take` | gloc=10 | team: tokens the gathering player chose to take from each location (-1 not asked) |

### Version history

* v1: the Exchange by Mushling Card Type (the action `exchange(type, option)`, the decision
  `D_EXCHANGE`, the observation's Exchange block); otherwise `mycelium_v0`.
* v0: see `mycelium_v0`'s docstring.
"""

from mushgym.aec import make_env_classes

from .game_v1 import MyceliumV1Game

Game = MyceliumV1Game

raw_env, env = make_env_classes(MyceliumV1Game, module_name=__name__)

__all__ = ["Game", "MyceliumV1Game", "raw_env", "env"]
