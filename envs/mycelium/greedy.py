"""The greedy baseline of Mycelium (``mycelium_v2``): grow toward the Nutrient Trees, gather what is there.

Scores use only what the acting player may see: its own hand, the public table (Paths,
tokens, gatherers, discard pile, revealed combat cards) and the static board. No step is
looked ahead (a step may draw a hidden card).

* Paths: an edge is worth the best tree (or Willow) value discounted by 0.8 per edge still
  between it and that location (static edge distances), more for a tree with Nutrients on it;
  a Build is taken while it can pay and a useful edge exists; tokens are paid before cards,
  cards of the highest spore value first; payment stops at a multiple of 3.
* Gatherers: on the bonded location with the most tokens (Nutrients worth 1, spores 0.3, the
  Mush Room 0.25), at most as many as bonded Paths there; unbonded trees count a little when
  the network is close (the next turn may bond them).
* Abilities: Builder pairs (2 free Paths), Workers and Thief pairs into the player's own reach,
  Bird's Nest whenever possible; every revealed reaction is used; Fly Agaric cancels an
  opponent's Penny Bun, Inky Cap or Bird's Nest and a Thief aimed at the player; Penny Bun
  against any opponent's Path; reinforcements and combat tokens only for the player's own
  side when they change the result; attacks only with a card that wins on face value
  against a Path on a tree.
* Every other type has a use when it pays: Amethyst Deceiver takes a card from the discard
  pile worth more than itself (most of all one completing a Builder or Thief pair); Parrot
  Toadstool attacks remotely a Path next to a tree with a winning card, or else views the
  hand of the leader when the hand is full anyway; Russula moves the gatherers before the
  Gather Phase when that gathers more; Veiled Lady and Magic Mushling show the nutrient cards
  drawn before the player's next Gather Phase, which the gatherer placement counts (Magic
  Mushling puts the cards feeding the player's bonded trees first); Truffle shuffles the
  nutrient deck when the cards known on top feed none of the player's trees, and the
  mushling discard pile back in when it is rich; Witch's Hat puts a rich discard pile (keep
  value, or nutrient cards for the player's bonded trees) on top of its deck; a single
  Builder removes a Path near the 20-Path limit; Exchange spawns a spore in the player's own
  cave (bonded) or draws, with two cards of little keep value (the two cards of a Mushling
  Card Type with the least keep value together, never Builders or Thieves, whose pairs have
  their own abilities; the Exchange's choice, when asked, names that pair).
* Discards: the cards with the least keep value (spore value, combat value, reactions).
* Variant (Emsporium): a Buy when the shop has an item it values (ITEM_VALUE: Backpack and
  Sword first) that its tokens and cards can pay with a Path's worth (3) to spare, or when
  no Path is worth building; it pays tokens first, then the cards of least keep value, buys
  the most valued affordable item, and stops when nothing more of value is affordable.
* Variants (Hero Tavern, Legends): one gatherer to the Tavern when it has a Combat Token per
  gatherer already there and a hero is left; the recruit, the Legends keep and the use
  follow HERO_VALUE per effect: an action ability is used at once when it pays (free Paths
  when a Path is worth building, a gathering when its gatherers stand on tokens, the others
  always); a combat reaction in its owner's battle when it is losing.
* Team variant and 2-player game (``_team_scores``): the player acts for the seat to move; a
  teammate is a friend (no Penny Bun, Inky Cap or Fly Agaric against it, reinforcements and
  combat tokens for its side too); Trade: with a hand the Draw Phase would cut the card of
  least keep value is offered (in the 2-player game also a single Builder or Thief that
  completes its other hand's pair), and the teammate accepts by giving back its least valuable card (or a Spore
  Token) when the offer is worth more to it (a card completing a pair counts double) or when
  its own hand is full; gathering takes everything except Nutrients beyond the Colony's 10,
  which are left for the teammate; gatherers go to trees only while the Colony is under 10.
"""

from __future__ import annotations

import weakref
from collections import deque

import numpy as np

from . import emsporium as EM
from . import rules as R

_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> its tables (dropped with the game)
KEEP = np.zeros(R.T)
for _t, _v in (
    (R.FLY, 3.0),
    (R.PENNY, 2.0),
    (R.CHANT, 2.5),
    (R.BLEWIT, 2.5),
    (R.BIRDS, 2.0),
    (R.NIGHT, 2.0),
    (R.MOREL, 1.5),
    (R.PARASOL, 1.2),
    (R.SHIITAKE, 1.2),
    (R.DEATH, 1.5),
    (R.INKY, 1.0),
):
    KEEP[_t] = _v


# variant: emsporium (item types in variant_data.ITEM_NAMES order: Sword, Pickaxe, Backpack,
# Bow, Flyers, Shield, Pouch, Basket)
ITEM_VALUE = np.array([0.8, 0.5, 1.0, 0.3, 0.4, 0.4, 0.2, 0.5])


def _shop_target(game, v, budget):
    """The most valued shop slot costing at most ``budget`` (-1 none)."""
    best, slot = 0.0, -1
    for s_, i in enumerate(v["shop"]):
        if i >= 0 and game.config[R.cfg_item_cost_at(int(i))] <= budget and ITEM_VALUE[i] > best:
            best, slot = ITEM_VALUE[i], s_
    return slot


def _buy_scores(game, v, p, kind_top, scores, action_mask, spore, combat, cap, best_edge):
    """Variant: emsporium. The Buy action in the menu, and the D_BUY decision."""
    if kind_top < 0:
        if R.A_BUY < len(action_mask) and action_mask[R.A_BUY]:
            slot = _shop_target(game, v, cap - 3 if best_edge > 0.25 else cap)
            if slot >= 0:
                scores[R.A_BUY] = 1.5 + ITEM_VALUE[v["shop"][slot]]
        return
    top = v["decisions"][int(v["decisions_n"]) - 1]
    paid, spent = int(top[2]), int(top[3])
    left = paid - spent
    buys = [s_ for s_ in range(R.SHOP) if action_mask[R.A_BUY_ITEM + s_]]
    if buys:
        for s_ in buys:
            scores[R.A_BUY_ITEM + s_] = 3.0 + ITEM_VALUE[v["shop"][s_]]
        return
    hand = v["hand"][p]
    more = 3 * int(v["mat_spores"][p]) + int((hand * spore).sum())
    target = _shop_target(game, v, left + more)
    scores[R.A_PAY_DONE] = 2.0 if target < 0 else -5.0
    if target >= 0:
        if action_mask[R.A_PAY_TOKEN]:
            scores[R.A_PAY_TOKEN] = 1.0
        for t in range(R.T):
            a = R.A_PAY_CARD + t
            if action_mask[a]:
                scores[a] = 0.5 + 0.1 * spore[t] - 0.2 * _keep_value(t, spore, combat)


# variant: hero_tavern (effects in variant_data.HERO_EFFECTS order: free_paths, spores,
# combat_tokens, draw, spawn, view_nutrients, gather_now, willow, combat)
HERO_VALUE = np.array([1.2, 0.7, 0.3, 0.6, 0.5, 0.1, 0.8, 0.4, 0.6])


def _hero_worth(game, h):
    return max(
        HERO_VALUE[game.config[R.cfg_hero_effect_at(h, k)]] * max(1, game.config[R.cfg_hero_amount_at(h, k)])
        for k in range(2)
    )


def _tavern_scores(game, v, p, kind, scores, action_mask, best_edge, gather_now_value, losing):
    """Variant: hero_tavern / legends. Returns True when it set the scores of this decision."""
    if kind == R.D_LEGEND:
        for k in range(2):
            h = int(v["legend_deal"][p, k])
            scores[R.A_LEGEND + k] = _hero_worth(game, h) if h >= 0 else -1.0
        return True
    if kind == R.D_HERO_PICK:
        for s_ in range(R.HERO_UP):
            if action_mask[R.A_HERO_PICK + s_]:
                scores[R.A_HERO_PICK + s_] = _hero_worth(game, int(v["hero_up"][s_]))
        if action_mask[R.A_HERO_PICK + R.HERO_UP]:
            scores[R.A_HERO_PICK + R.HERO_UP] = 0.5
        return True
    for h in range(R.NH):
        for k in range(2):
            a = R.A_HERO + 2 * h + k
            if not action_mask[a]:
                continue
            eff = int(game.config[R.cfg_hero_effect_at(h, k)])
            if kind == R.D_REINF:
                scores[a] = 1.5 if losing and eff == 8 else -1.0
            elif eff == 0:
                scores[a] = 2.5 + best_edge if best_edge > 0.25 else -1.0
            elif eff == 6:
                scores[a] = 0.9 if gather_now_value >= 1.0 else -1.0
            elif eff == 5:
                scores[a] = 0.05
            else:
                scores[a] = 0.5 + 0.1 * HERO_VALUE[eff]
    return False


def _tables(game):
    """The board tables of ``game``, computed once per game object. Keyed by the game itself, not
    ``id(game.config)``: an id is reused once its array is freed, which served one game another
    game's board (a 3-player game read a 4-player game's 10 locations)."""
    if game in _TABLES:
        return _TABLES[game]
    b = game.board
    ne = len(b.edges)
    dist = np.full((ne, ne), 99, np.int64)
    for s in range(ne):
        dist[s, s] = 0
        q = deque([s])
        while q:
            e = q.popleft()
            for n in b.edge_nbr[e]:
                if n >= 0 and dist[s, n] > dist[s, e] + 1:
                    dist[s, n] = dist[s, e] + 1
                    q.append(n)
    ng = len(b.gloc_names)
    to_loc = np.full((ne, ng), 99, np.int64)
    for g in range(ng):
        edges = [e for e in b.gloc_edges[g] if e >= 0]
        to_loc[:, g] = dist[:, edges].min(axis=1)
    spore = game.config[R.CFG_SPORE : R.CFG_SPORE + R.T].copy()
    combat = game.config[R.CFG_COMBAT : R.CFG_COMBAT + R.T].copy()
    targets = [g for g in range(ng) if b.gloc_kind[g] in (1, 2)]
    _TABLES[game] = (dist, to_loc, spore, combat, targets, ne, ng)
    return _TABLES[game]


def _cheapest_pair(game, hand, ct, keep):
    """The two cards of Mushling Card Type ``ct`` in ``hand`` whose keep values add
    up least, as (lower card id, the more valuable card of the two)."""
    cards = sorted(
        (u for u in range(R.T) if int(game.config[R.CFG_CARD_TYPE + u]) == ct for _ in range(int(hand[u]))),
        key=lambda u: keep[u],
    )
    pair = sorted(cards[:2])
    return pair[0], max(pair, key=lambda u: keep[u])


def _keep_value(t, spore, combat):
    return KEEP[t] + 0.4 * spore[t] + combat[t] / 8.0


def _card_gain(game, v, p, k):
    """Nutrients nutrient card kind ``k`` puts where ``p``'s gatherers can gather them (per location)."""
    cfg = game.config
    eff = int(cfg[R.CFG_NUT_EFFECT + k])
    out = np.zeros(len(game.board.gloc_names))
    if eff == R.NE_TREE:
        out[int(cfg[R.CFG_NUT_TARGET + k])] = 1.0
    elif eff == R.NE_CENTER:
        out[int(cfg[R.CFG_WILLOW])] = 1.0
    elif eff == R.NE_RAIN:
        for t in range(4):
            g = int(cfg[R.CFG_TREE + t])
            if g >= 0:
                out[g] = 1.0
    return out


def _upcoming(game, v, p):
    """Nutrients the nutrient cards ``p`` knows will be drawn before its next Gather Phase add
    to each location (the next ``num_players`` cards: Veiled Lady, Magic Mushling)."""
    ng = len(game.board.gloc_names)
    out = np.zeros(ng)
    top = int(v["ndeck_n"])
    for i in range(min(game.num_players, top)):
        pos = top - 1 - i
        if v["nseen"][p, pos]:
            out += _card_gain(game, v, p, int(v["ndeck"][pos]))
    return out


def _gather_value(v, p, locs, bonded, kinds, extra):
    """Nutrients (1) and spores (0.3) the gatherers on ``locs`` take (bonded Paths cap them)."""
    total = 0.0
    for g in set(locs):
        if g < 0 or g >= len(kinds):  # home, or the Hero Tavern (variant)
            continue
        k = sum(1 for x in locs if x == g)
        if kinds[g] == 3:
            total += 0.25 * k
            continue
        take = min(k, bonded[g])
        if kinds[g] == 0:
            total += 0.3 * min(take, v["loc_spores"][g])
        else:
            total += min(take, v["loc_nut"][g] + extra[g])
    return total


def _best_places(v, p, bonded, kinds, extra, ng):
    """Three locations chosen one by one for the most gathered."""
    locs = []
    for _ in range(3):
        best = max(range(ng), key=lambda g: _gather_value(v, p, locs + [g], bonded, kinds, extra))
        locs.append(best)
    return locs


class _Scoring:
    """One call of :func:`heuristic`: what the scored seat may see of ``state``, the values its
    rules read, and ``scores`` (-inf for illegal actions, 0 for legal ones until a rule sets them)."""

    def __init__(self, game, state, player, action_mask):
        self.game, self.state, self.mask = game, state, action_mask
        _dist, self.to_loc, self.spore, self.combat, self.targets, self.ne, self.ng = _tables(game)
        v = self.v = R.L.arrays(state)
        self.p = int(player)
        self.n = game.num_players
        if game.team_rules:  # variant: team: the seat to move (an agent acts for two in the 2-player game)
            d = int(v["decisions_n"])
            self.p = int(v["decisions"][d - 1][1]) if d else int(v["turn_player"])
            self.n = game.num_seats
        self.scores = np.full(game.num_actions, -np.inf)
        self.legal = np.flatnonzero(action_mask)
        self.scores[self.legal] = 0.0
        self.hand = v["hand"][self.p]
        self._network()
        self.depth = int(v["decisions_n"])
        self.kind = int(v["decisions"][self.depth - 1][0]) if self.depth else -1
        self.top = v["decisions"][self.depth - 1] if self.depth else None
        self.upcoming = _upcoming(game, v, self.p)
        self.kinds = game.board.gloc_kind
        self.my_trees = np.array([self.bonded[g] > 0 and self.kinds[g] in (1, 2) for g in range(self.ng)])

    def _network(self):
        """Bonded Paths per location, the network's distance to each location, and each tree's
        (or the Willow's) worth: 1 plus its Nutrients (all public)."""
        game, v, p, ne, ng = self.game, self.v, self.p, self.ne, self.ng
        mine = (v["paths"][:ne] == p + 1).any(axis=1)
        work = game.work
        R.bonded_edges(self.state, game.config, p, work)
        bonded_edges = work[:ne].astype(bool)
        self.bonded = np.array(
            [int(bonded_edges[[e for e in game.board.gloc_edges[g] if e >= 0]].sum()) for g in range(ng)]
        )
        self.reach = self.to_loc[mine].min(axis=0) if mine.any() else np.full(ng, 99)
        self.loc_val = np.zeros(ng)
        for g in self.targets:
            self.loc_val[g] = 1.0 + v["loc_nut"][g]

    def edge_value(self, e):
        """The best tree (or Willow) worth, discounted by 0.8 per edge between ``e`` and it and
        halved where 2 bonded Paths are there already."""
        return float(
            max(
                self.loc_val[g] * 0.8 ** self.to_loc[e, g] * (0.5 if self.bonded[g] >= 2 else 1.0) for g in self.targets
            )
        )

    def keep_values(self):
        """Every card type's keep value (spore value, combat value, reactions)."""
        return np.array([_keep_value(t, self.spore, self.combat) for t in range(R.T)])


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The greedy scores of every action (-inf where illegal) for ``player`` (under the Team
    rules, the seat to move; see the module docstring): a phase's choice when no decision is
    pending, else the pending decision's."""
    c = _Scoring(game, state, player, action_mask)
    if game.team_rules:  # variant: team
        if _team_scores(game, c.v, c.p, c.kind, c.top, c.scores, action_mask, c.spore, c.combat):
            return c.scores
        if c.v["mat_nut"][c.p] >= R.WIN_NUTRIENTS:  # a full Colony gathers no more Nutrients
            c.loc_val[:] = 0.0
            c.upcoming = np.zeros_like(c.upcoming)
    if c.depth == 0:
        phase = int(c.v["phase"])
        if phase in (R.PH_EXPLORE, R.PH_PLACE):
            _gatherer_scores(c, phase)
        elif phase == R.PH_DISCARD:
            _discard_scores(c)
        else:
            _action_phase_scores(c)
        return c.scores
    decision_scores = _DECISION_SCORES.get(c.kind)
    if decision_scores is not None:
        decision_scores(c)
    return c.scores


# --- the phases (no decision pending) -------------------------------------------------------------


def _gatherer_scores(c, phase):
    """Explore and Place Phases: a gatherer's location, by the tokens it would take there."""
    v, p, ng, bonded = c.v, c.p, c.ng, c.bonded
    mine_there = np.zeros(ng)
    for g in v["gatherer"][p]:
        if 0 <= g < ng:
            mine_there[g] += 1
    for g in range(ng):
        a = R.A_GATHERER + g
        if not c.mask[a]:
            continue
        kind_g = c.game.board.gloc_kind[g]
        k = mine_there[g]
        if kind_g == 3:
            s = 0.25
        elif kind_g == 0:
            s = 0.3 * v["loc_spores"][g] if bonded[g] > k else 0.0
            s = min(s, 0.6)
        else:
            have = v["loc_nut"][g] + 0.3 + c.upcoming[g]
            if bonded[g] > k:
                s = have / (1.0 + k)
            else:
                s = 0.5 * have * 0.6 ** max(c.reach[g] - (1 if phase == R.PH_EXPLORE else 0), 0) / (1.0 + k)
        c.scores[a] = s
    if R.A_PLACE_TAVERN < len(c.mask) and c.mask[R.A_PLACE_TAVERN]:  # variant: hero_tavern
        there = int((v["gatherer"][p] == R.TAVERN).sum())
        left = int(v["hero_deck_n"]) + int((v["hero_up"] >= 0).sum())
        c.scores[R.A_PLACE_TAVERN] = 0.9 if there == 0 and v["ctok"][p] >= 1 and left > 0 else -1.0


def _discard_scores(c):
    """Discard Phase: the cards of least keep value go first."""
    for t in range(R.T):
        if c.mask[R.A_CARD + t]:
            c.scores[R.A_CARD + t] = -_keep_value(t, c.spore, c.combat)


def _action_phase_scores(c):
    """Action Phase: the Build and the other menu actions, then every legal ability; the end of
    the turn stays at 0."""
    _action_menu_scores(c)
    facts = _AbilityFacts(c)
    for a in c.legal:
        ability_score = _ABILITY_SCORES.get(R.A.group_of(a).name)
        if ability_score is not None:
            c.scores[a] = ability_score(c, facts, a)
    c.scores[R.A_END] = 0.0


def _action_menu_scores(c):
    """A Build while it can pay and a useful edge exists, the variants' Buy and heroes, Builder
    pairs (worth more with a good edge), Workers spawning into the player's own Spore Cave, and
    Thief pairs."""
    game, v, p, mask, scores = c.game, c.v, c.p, c.mask, c.scores
    cap = 3 * int(v["mat_spores"][p]) + int((c.hand * c.spore).sum())
    best_edge = max((c.edge_value(e) for e in range(c.ne) if R.can_build_at(c.state, game.config, p, e)), default=0.0)
    if mask[R.A_BUILD] and cap >= 3 and best_edge > 0.25:
        scores[R.A_BUILD] = 1.0 + best_edge
    if game.options.get("emsporium"):  # variant: emsporium
        _buy_scores(game, v, p, -1, scores, mask, c.spore, c.combat, cap, best_edge)
    if game.tavern_on:  # variant: hero_tavern
        gv = _gather_value(v, p, list(v["gatherer"][p]), c.bonded, c.kinds, np.zeros(c.ng))
        _tavern_scores(game, v, p, -1, scores, mask, best_edge, gv, False)
    for pair in range(3):
        if mask[R.A_BPAIR + pair]:
            scores[R.A_BPAIR + pair] = 2.0 + best_edge
    for w in range(2):
        a = R.spawn_action(w, p)
        if mask[a]:
            scores[a] = 0.6
    for pair in range(3):
        for q in range(c.n):
            a = R.thief_pair_action(pair, q)
            if mask[a]:
                scores[a] = 0.4


class _AbilityFacts:
    """What the Action Phase's abilities are scored by: keep values, the strongest card in
    hand, the hand's size, the leading opponent, how many of the nutrient cards drawn before
    the next Gather Phase are known, and the player's own cave."""

    def __init__(self, c):
        v, p, n, hand = c.v, c.p, c.n, c.hand
        self.my_cave = int(c.game.board.cave_of_seat[p])
        self.keep = c.keep_values()
        self.strongest = max((c.combat[t] for t in range(R.T) if hand[t]), default=0)
        self.hand_size = int(hand.sum())
        self.leader = max((q for q in range(n) if q != p), key=lambda q: int(v["mat_nut"][q]))
        self.known_next = sum(int(v["nseen"][p, int(v["ndeck_n"]) - 1 - i]) for i in range(min(n, int(v["ndeck_n"]))))


def _on_tree(c, e):
    """Whether edge ``e`` borders a Nutrient Tree or the Willow."""
    return any(e in c.game.board.gloc_edges[g] for g in c.targets)


def _deceive_score(c, f, a):
    """Amethyst Deceiver: a discarded card worth more than itself, most of all one completing a pair."""
    hand = c.hand
    t = R.deceive_args(a)
    gain = f.keep[t] - f.keep[R.AD]
    if (t in (R.CHANT, R.BLEWIT) and hand[R.CHANT] + hand[R.BLEWIT] == 1) or (
        t in (R.PARASOL, R.SHIITAKE) and hand[R.PARASOL] + hand[R.SHIITAKE] == 1
    ):
        gain += 2.0  # completes a pair
    return 0.5 + 0.3 * gain if gain > 0.5 else -1.0


def _parrot_attack_score(c, f, a):
    """Parrot Toadstool: a remote attack on a Path next to a tree, with a winning card besides the Parrot."""
    e, _s = R.parrot_attack_args(a)
    on_tree = _on_tree(c, e)
    other = max((c.combat[t] for t in range(R.T) if c.hand[t] - (t == R.PARROT) > 0), default=0)
    return 0.35 if other >= 7 and on_tree else -1.0


def _parrot_view_score(c, f, a):
    """Parrot Toadstool: the leader's hand, when the player's own hand is full anyway."""
    q = (c.p + 1 + R.parrot_view_args(a)) % c.n
    return 0.02 if q == f.leader and f.hand_size >= R.HAND_LIMIT else -1.0


def _russula_score(c, f, a):
    """Russula: moving the gatherers when that gathers at least 0.9 more."""
    none = np.zeros(c.ng)
    now = _gather_value(c.v, c.p, list(c.v["gatherer"][c.p]), c.bonded, c.kinds, none)
    best = _gather_value(c.v, c.p, _best_places(c.v, c.p, c.bonded, c.kinds, none, c.ng), c.bonded, c.kinds, none)
    return 0.7 if best - now >= 0.9 else -1.0


def _view_nutrients_score(c, f, a):
    """Veiled Lady, Magic Mushling: while some nutrient card before the next Gather Phase is unknown."""
    return 0.15 if f.known_next < min(c.n, int(c.v["ndeck_n"])) and c.my_trees.any() else -1.0


def _truffle_score(c, f, a):
    """Truffle: the nutrient deck when the cards known to come feed none of the player's trees,
    the mushling discard pile when it is rich."""
    if R.truffle_args(a) == 1:  # the nutrient deck: the cards known to come feed none of my trees
        return 0.1 if f.known_next >= 2 and not (c.upcoming[c.my_trees] > 0).any() and c.my_trees.any() else -1.0
    d = c.v["discard"]
    rich = d.sum() >= 6 and (d * f.keep).sum() / max(d.sum(), 1) >= 2.0
    return 0.1 if rich else -1.0


def _witch_score(c, f, a):
    """Witch's Hat: a discard pile of keep value, or of nutrient cards for the player's bonded trees."""
    if R.witch_args(a) == 0:
        d = c.v["discard"]
        rich = d.sum() >= 2 and (d * f.keep).sum() / max(d.sum(), 1) >= 2.0
        return 0.2 if rich else -1.0
    nd = c.v["ndiscard"]
    feed = sum(int(nd[k]) * float((_card_gain(c.game, c.v, c.p, k) * c.my_trees).sum()) for k in range(R.NK))
    return 0.2 if nd.sum() >= 2 and feed / max(nd.sum(), 1) >= 0.5 else -1.0


def _builder_remove_score(c, f, a):
    """A single Builder: one of the player's own Paths (the least valuable first), near the 20-Path limit."""
    _b, e = R.builder_remove_args(a)
    near_limit = c.v["npaths"][c.p] >= R.MAX_PATHS - 1
    return 0.1 - c.edge_value(e) if near_limit and c.hand[R.CHANT] + c.hand[R.BLEWIT] == 1 else -1.0


def _exchange_score(c, f, a):
    """Exchange: two cards of little keep value (never a Builder or Thief) for a spore in the
    player's own cave (bonded) or a draw."""
    t, o = R.exchange_args(a)
    t = _cheapest_pair(c.game, c.hand, t, f.keep)[1]  # t is a Mushling Card Type: its cheapest pair
    if f.keep[t] > 1.2 or t in (R.CHANT, R.BLEWIT, R.PARASOL, R.SHIITAKE):
        return -1.0
    if o == 1 + c.p and c.bonded[f.my_cave] > 0:
        return 0.3
    if o == 0:
        return 0.1
    return -1.0


def _attack_score(c, f, a):
    """An attack on a Path on a tree, with a card that wins on face value."""
    e, _s = R.attack_args(a)
    on_tree = _on_tree(c, e)
    return 0.3 if f.strongest >= 8 and on_tree else -1.0


_ABILITY_SCORES = {
    "deceive": _deceive_score,
    "parrot_attack": _parrot_attack_score,
    "parrot_view": _parrot_view_score,
    "russula": _russula_score,
    "veiled_lady": _view_nutrients_score,
    "magic": _view_nutrients_score,
    "truffle": _truffle_score,
    "witch": _witch_score,
    "builder_remove": _builder_remove_score,
    "exchange": _exchange_score,
    "attack": _attack_score,
}


# --- the pending decisions --------------------------------------------------------------------------


def _fly_agaric_scores(c):
    """Fly Agaric: cancels an opponent's ability that harms the player (or its teammate)."""
    v, p = c.v, c.p
    lvl = int(c.top[2])
    ab = int(v["decisions"][lvl][2])
    user = int(v["decisions"][lvl][1])
    x1 = int(v["decisions"][lvl][3])
    friends = _friends(c.game, p)
    harmful = user not in friends and (
        ab in (R.AB_BIRDS, R.AB_PARROT_VIEW)
        or (ab in (R.AB_PENNY, R.AB_INKY) and x1 in friends)
        or ab == R.AB_THIEF_STEAL
        or ab == R.AB_FLY
    )
    if ab == R.AB_FLY:
        # cancel a Fly Agaric aimed at my own ability (or my teammate's)
        tgt = int(v["decisions"][x1][1])
        harmful = tgt in friends and user not in friends
    if c.mask[R.A_FLY]:
        c.scores[R.A_FLY] = 1.0 if harmful else -1.0


def _path_win_scores(c):
    """A new Path: Penny Bun and Inky Cap against any opponent's."""
    builder = int(c.top[2])
    friends = _friends(c.game, c.p)
    if c.mask[R.A_PENNY]:
        c.scores[R.A_PENNY] = 0.5 if builder not in friends else -1.0
    if c.mask[R.A_INKY]:
        c.scores[R.A_INKY] = 0.4 if builder not in friends else -1.0


def _use_scores(c):
    """A revealed card's reaction is always used."""
    c.scores[R.A_USE] = 1.0


def _birds_nest_scores(c):
    """Bird's Nest: the larger the subset taken, the better."""
    for sub in range(7):
        a = R.A_BIRDS + sub
        if c.mask[a]:
            c.scores[a] = 1.0 + bin(sub + 1).count("1")


def _pay_scores(c):
    """Paying for a Path: tokens first, then cards of the highest spore value; stop at a multiple of 3."""
    paid = int(c.top[2])
    if paid >= 3:
        c.scores[R.A_PAY_DONE] = 2.0 if paid % 3 == 0 else 0.5
    else:
        c.scores[R.A_PAY_DONE] = -5.0
    if c.mask[R.A_PAY_TOKEN]:
        c.scores[R.A_PAY_TOKEN] = 1.0
    for t in range(R.T):
        a = R.A_PAY_CARD + t
        if c.mask[a]:
            c.scores[a] = 0.5 + 0.1 * c.spore[t] - 0.2 * _keep_value(t, c.spore, c.combat)
            if paid % 3 + c.spore[t] > 3 and paid >= 3:
                c.scores[a] -= 1.0


def _hero_decision_scores(c):
    """Variants: hero_tavern, legends. The Legends keep and the recruit."""
    _tavern_scores(c.game, c.v, c.p, c.kind, c.scores, c.mask, 0.0, 0.0, False)


def _buy_decision_scores(c):
    """Variant: emsporium. Paying for and choosing an item."""
    _buy_scores(c.game, c.v, c.p, c.kind, c.scores, c.mask, c.spore, c.combat, 0, 0.0)


def _place_path_scores(c):
    """Where a Path goes: the most valuable edge."""
    for e in range(c.ne):
        a = R.A_PLACE_PATH + e
        if c.mask[a]:
            c.scores[a] = c.edge_value(e)


def _remove_own_scores(c):
    """The 21st Path: the player's own Path of least value is removed."""
    for e in range(c.ne):
        a = R.A_REMOVE_OWN + e
        if c.mask[a]:
            c.scores[a] = -c.edge_value(e)


def _card_choice_scores(c):
    """A combat card (attack or defence) by combat value, the cards given to an Inky Cap by least
    keep value; no defence when the hand has no strong card, the Path kept with 4 cards or more."""
    kind, hand, spore, combat = c.kind, c.hand, c.spore, c.combat
    for t in range(R.T):
        a = R.A_CARD + t
        if c.mask[a]:
            if kind == R.D_INKY_GIVE:
                c.scores[a] = -_keep_value(t, spore, combat)
            else:
                c.scores[a] = combat[t] - 0.5 * KEEP[t]
    if kind == R.D_DEFEND:
        best = max((combat[t] - 0.5 * KEEP[t] for t in range(R.T) if hand[t]), default=0)
        c.scores[R.A_NO_DEFENSE] = 3.0 if best < 3.5 else -1.0
    if kind == R.D_INKY_GIVE and c.mask[R.A_PASS]:
        c.scores[R.A_PASS] = -3.0 if hand.sum() >= 4 else 0.0


def _reinforcement_scores(c):
    """Reinforcements and combat tokens only for the player's own side (or its teammate's) when
    it is losing; every other one is refused."""
    game, v, mask, scores = c.game, c.v, c.mask, c.scores
    att, dfd = int(v["c_att"]), int(v["c_def"])
    friends = _friends(game, c.p)  # variant: team (a teammate's side is ours)
    if att in friends or dfd in friends:
        side = 0 if att in friends else 1
        va = c.combat[R.rep_card(c.state, 0)] + v["c_bonus"][0] + int(v["items"][att, EM.SWORD])  # variant: emsporium
        vd = (
            c.combat[R.rep_card(c.state, 1)]
            + v["c_bonus"][1]
            + int(v["items"][dfd, EM.SWORD])
            + int(v["items"][dfd, EM.SHIELD])
        )
        losing = (va <= vd) if side == 0 else (va > vd)
        for o in range(2):
            a = R.reinforce_action(o, side)
            if mask[a]:
                scores[a] = 1.0 if losing else -1.0
        a = R.combat_token_action(side)
        if mask[a]:
            scores[a] = 1.2 if losing else -1.0
        if game.tavern_on:  # variant: hero_tavern (a hero's combat reaction)
            _tavern_scores(game, v, c.p, c.kind, scores, mask, 0.0, 0.0, losing)
    for s in range(2):
        for o in range(2):
            a = R.reinforce_action(o, s)
            if mask[a] and scores[a] == 0.0:
                scores[a] = -1.0
        a = R.combat_token_action(s)
        if mask[a] and scores[a] == 0.0:
            scores[a] = -1.0


def _russula_pick_scores(c):
    """Russula: each gatherer's new location, for the most gathered with the ones picked."""
    picked = [int(c.top[3 + i]) for i in range(int(c.top[2]))]
    for g in range(c.ng):
        a = R.A_GATHERER + g
        if c.mask[a]:
            c.scores[a] = _gather_value(c.v, c.p, picked + [g], c.bonded, c.kinds, c.upcoming)
    if R.A_PLACE_TAVERN < len(c.mask) and c.mask[R.A_PLACE_TAVERN]:  # variant: hero_tavern (never by a Russula)
        c.scores[R.A_PLACE_TAVERN] = -1.0


def _exchange_card_scores(c):
    """The Exchange's cards (the lower card id first), the pair of least keep value."""
    keep = c.keep_values()
    ct = int(c.top[2])
    first = int(c.top[4]) - 1
    for t in range(R.T):
        a = R.A_CARD + t
        if c.mask[a]:
            partner = (
                keep[t]
                if first >= 0
                else min(
                    keep[u]
                    for u in range(t, R.T)
                    if int(c.game.config[R.CFG_CARD_TYPE + u]) == ct and c.hand[u] - (u == t) > 0
                )
            )
            c.scores[a] = -(keep[t] + partner)


def _arrange_scores(c):
    """Magic Mushling: the card feeding the player's bonded trees most comes next."""
    topn = int(c.v["ndeck_n"]) - 1
    for j in range(4):
        a = R.A_ARRANGE + j
        if c.mask[a]:
            k = int(c.v["ndeck"][topn - j])
            c.scores[a] = float((_card_gain(c.game, c.v, c.p, k) * c.my_trees).sum())


_DECISION_SCORES = {
    R.D_FA: _fly_agaric_scores,
    R.D_PATHWIN: _path_win_scores,
    R.D_USE: _use_scores,
    R.D_BN: _birds_nest_scores,
    R.D_PAY: _pay_scores,
    R.D_LEGEND: _hero_decision_scores,
    R.D_HERO_PICK: _hero_decision_scores,
    R.D_BUY: _buy_decision_scores,
    R.D_PLACE_PATH: _place_path_scores,
    R.D_REMOVE_OWN: _remove_own_scores,
    R.D_ATT_CARD: _card_choice_scores,
    R.D_DEFEND: _card_choice_scores,
    R.D_INKY_GIVE: _card_choice_scores,
    R.D_REINF: _reinforcement_scores,
    R.D_RUSSULA_PICK: _russula_pick_scores,
    R.D_EXCHANGE: _exchange_card_scores,
    R.D_ARRANGE: _arrange_scores,
}


# --- variant: team --------------------------------------------------------------------------------


def _friends(game, p):
    """``p`` and, under the Team rules, its teammate."""
    return (p, (p + 2) % 4) if game.team_rules else (p,)


SPORE_KEEP = 1.5  # a Spore Token's keep value in a Trade (3 spore value toward a Path)


def _team_scores(game, v, p, kind, top, scores, action_mask, spore, combat) -> bool:
    """The Team decisions and the Trade offer; True when ``scores`` is final."""
    hand = v["hand"][p]
    keep = np.array([_keep_value(t, spore, combat) for t in range(R.T)] + [SPORE_KEEP])
    held = np.append(hand, v["mat_spores"][p])

    def pair_bonus(t):
        for pair in ((R.CHANT, R.BLEWIT), (R.PARASOL, R.SHIITAKE)):
            if t in pair and hand[pair[0]] + hand[pair[1]] == 1:
                return keep[t]
        return 0.0

    if kind == R.D_GATHER:
        g = int(top[3])
        limit = int(np.flatnonzero(action_mask[R.A_GATHER_TAKE : R.A_GATHER_TAKE + R.MAX_GATHER_TAKE + 1]).max())
        want = limit
        if game.board.gloc_kind[g] in (1, 2):  # Nutrients beyond the Colony's 10 stay for the teammate
            want = min(limit, R.WIN_NUTRIENTS - int(v["mat_nut"][p]))
        for k in range(limit + 1):
            scores[R.A_GATHER_TAKE + k] = -abs(k - want)
        return True
    if kind == R.D_TRADE and int(top[3]) > 0:  # the proposer accepts what its teammate gives back
        scores[R.A_PASS] = 0.0
        scores[R.A_TRADE + int(top[3]) - 1] = 1.0
        return True
    if kind == R.D_TRADE:
        offered = int(top[2])
        gain = keep[offered] + (pair_bonus(offered) if offered < R.T else 0.0)
        options = [k for k in range(R.T + 1) if held[k] > 0 and action_mask[R.A_TRADE + k]]
        give = min(options, key=lambda k: keep[k])
        full = hand.sum() >= R.HAND_LIMIT + int(v["items"][p, EM.POUCH])  # variant: emsporium (Pouch)
        scores[R.A_PASS] = 0.0
        scores[R.A_TRADE + give] = 1.0 if gain > keep[give] or (full and give < R.T) else -1.0
        return True
    if kind == -1 and int(v["phase"]) == R.PH_ACTION:
        scores[R.A_TRADE : R.A_TRADE + R.T + 1][action_mask[R.A_TRADE : R.A_TRADE + R.T + 1] > 0] = -1.0
        offers = [k for k in range(R.T) if action_mask[R.A_TRADE + k]]
        if (
            offers and hand.sum() >= R.HAND_LIMIT + int(v["items"][p, EM.POUCH]) - 1
        ):  # the Draw Phase would discard a card anyway
            scores[R.A_TRADE + min(offers, key=lambda k: keep[k])] = 0.05
        if game.num_players == 2:  # the 2-player game: the other hand is mine to see
            mate = v["hand"][(p + 2) % 4]
            for pair in ((R.CHANT, R.BLEWIT), (R.PARASOL, R.SHIITAKE)):
                mine_n, mate_n = hand[pair[0]] + hand[pair[1]], mate[pair[0]] + mate[pair[1]]
                if mine_n == 1 and mate_n == 1:  # my single completes its pair
                    t = pair[0] if hand[pair[0]] else pair[1]
                    if action_mask[R.A_TRADE + t]:
                        scores[R.A_TRADE + t] = 0.5
    return False
