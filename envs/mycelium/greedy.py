"""The greedy baseline of Mycelium (``mycelium_v0``): grow toward the Nutrient Trees, gather what is there.

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
* Discards: the cards with the least keep value (spore value, combat value, reactions).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from . import rules as R

_TABLES: dict = {}
KEEP = np.zeros(R.T)
for _t, _v in ((R.FLY, 3.0), (R.PENNY, 2.0), (R.CHANT, 2.5), (R.BLEWIT, 2.5), (R.BIRDS, 2.0), (R.NIGHT, 2.0),
               (R.MOREL, 1.5), (R.PARASOL, 1.2), (R.SHIITAKE, 1.2), (R.DEATH, 1.5), (R.INKY, 1.0)):
    KEEP[_t] = _v


def _tables(game):
    key = id(game.config)
    if key in _TABLES:
        return _TABLES[key]
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
    spore = game.config[R.CFG_SPORE:R.CFG_SPORE + R.T].copy()
    combat = game.config[R.CFG_COMBAT:R.CFG_COMBAT + R.T].copy()
    targets = [g for g in range(ng) if b.gloc_kind[g] in (1, 2)]
    _TABLES[key] = (dist, to_loc, spore, combat, targets, ne, ng)
    return _TABLES[key]


def _keep_value(t, spore, combat):
    return KEEP[t] + 0.4 * spore[t] + combat[t] / 8.0


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    dist, to_loc, spore, combat, targets, ne, ng = _tables(game)
    v = R.L.arrays(state)
    p = int(player)
    n = game.num_players
    scores = np.full(game.num_actions, -np.inf)
    legal = np.flatnonzero(action_mask)
    scores[legal] = 0.0
    hand = v["hand"][p]
    paths = v["paths"][:ne]
    mine = (paths == p + 1).any(axis=1)
    # bonded count per location and network distance per location (public)
    work = game.work
    R.bonded_edges(state, game.config, p, work)
    bonded_edges = work[:ne].astype(bool)
    bonded = np.array([int(bonded_edges[[e for e in game.board.gloc_edges[g] if e >= 0]].sum()) for g in range(ng)])
    reach = to_loc[mine].min(axis=0) if mine.any() else np.full(ng, 99)
    loc_val = np.zeros(ng)
    for g in targets:
        loc_val[g] = 1.0 + v["loc_nut"][g]
    depth = int(v["decisions_n"])
    kind = int(v["decisions"][depth - 1][0]) if depth else -1
    top = v["decisions"][depth - 1] if depth else None

    def edge_value(e):
        return float(max(loc_val[g] * 0.8 ** to_loc[e, g] * (0.5 if bonded[g] >= 2 else 1.0) for g in targets))

    if depth == 0:
        phase = int(v["phase"])
        if phase in (R.PH_EXPLORE, R.PH_PLACE):
            mine_there = np.zeros(ng)
            for g in v["gatherer"][p]:
                if g >= 0:
                    mine_there[g] += 1
            for g in range(ng):
                a = R.A_GATHERER + g
                if not action_mask[a]:
                    continue
                kind_g = game.board.gloc_kind[g]
                k = mine_there[g]
                if kind_g == 3:
                    s = 0.25
                elif kind_g == 0:
                    s = 0.3 * v["loc_spores"][g] if bonded[g] > k else 0.0
                    s = min(s, 0.6)
                else:
                    have = v["loc_nut"][g] + 0.3
                    if bonded[g] > k:
                        s = have / (1.0 + k)
                    else:
                        s = 0.5 * have * 0.6 ** max(reach[g] - (1 if phase == R.PH_EXPLORE else 0), 0) / (1.0 + k)
                scores[a] = s
            return scores
        if phase == R.PH_DISCARD:
            for t in range(R.T):
                if action_mask[R.A_CARD + t]:
                    scores[R.A_CARD + t] = -_keep_value(t, spore, combat)
            return scores
        # Action Phase
        cap = 3 * int(v["mat_spores"][p]) + int((hand * spore).sum())
        best_edge = max((edge_value(e) for e in range(ne) if R.can_build_at(state, game.config, p, e)), default=0.0)
        if action_mask[R.A_BUILD] and cap >= 3 and best_edge > 0.25:
            scores[R.A_BUILD] = 1.0 + best_edge
        for pair in range(3):
            if action_mask[R.A_BPAIR + pair]:
                scores[R.A_BPAIR + pair] = 2.0 + best_edge
        my_cave = int(game.board.cave_of_seat[p])
        for w in range(2):
            a = R.spawn_action(w, p)
            if action_mask[a]:
                scores[a] = 0.6
        for pair in range(3):
            for q in range(n):
                a = R.thief_pair_action(pair, q)
                if action_mask[a]:
                    scores[a] = 0.4
        if action_mask[R.A_MAGIC]:
            scores[R.A_MAGIC] = 0.05
        for a in legal:
            name = R.A.group_of(a).name
            if name in ("exchange", "deceive", "parrot_view", "parrot_attack", "builder_remove", "russula",
                        "veiled_lady", "truffle", "witch"):
                scores[a] = -1.0
            elif name == "attack":
                e, s = R.attack_args(a)
                strongest = max((combat[t] for t in range(R.T) if hand[t]), default=0)
                on_tree = any(e in game.board.gloc_edges[g] for g in targets)
                scores[a] = 0.3 if strongest >= 8 and on_tree else -1.0
        scores[R.A_END] = 0.0
        _ = my_cave
        return scores
    p_top = int(top[1])
    a0, a1 = int(top[2]), int(top[3])
    if kind == R.D_FA:
        lvl = a0
        ab = int(v["decisions"][lvl][2])
        user = int(v["decisions"][lvl][1])
        x1 = int(v["decisions"][lvl][3])
        harmful = user != p and (ab in (R.AB_BIRDS, R.AB_PARROT_VIEW) or (ab in (R.AB_PENNY, R.AB_INKY) and x1 == p)
                                 or (ab == R.AB_THIEF_STEAL and user != p) or ab == R.AB_FLY)
        if ab == R.AB_FLY:
            # cancel a Fly Agaric aimed at my own ability
            tgt = int(v["decisions"][x1][1])
            harmful = tgt == p
        if action_mask[R.A_FLY]:
            scores[R.A_FLY] = 1.0 if harmful else -1.0
        return scores
    if kind == R.D_PATHWIN:
        builder = a0
        if action_mask[R.A_PENNY]:
            scores[R.A_PENNY] = 0.5 if builder != p else -1.0
        if action_mask[R.A_INKY]:
            scores[R.A_INKY] = 0.4 if builder != p else -1.0
        return scores
    if kind == R.D_USE:
        scores[R.A_USE] = 1.0
        return scores
    if kind == R.D_BN:
        for sub in range(7):
            a = R.A_BIRDS + sub
            if action_mask[a]:
                scores[a] = 1.0 + bin(sub + 1).count("1")
        return scores
    if kind == R.D_PAY:
        paid = a0
        if paid >= 3:
            scores[R.A_PAY_DONE] = 2.0 if paid % 3 == 0 else 0.5
        else:
            scores[R.A_PAY_DONE] = -5.0
        if action_mask[R.A_PAY_TOKEN]:
            scores[R.A_PAY_TOKEN] = 1.0
        for t in range(R.T):
            a = R.A_PAY_CARD + t
            if action_mask[a]:
                scores[a] = 0.5 + 0.1 * spore[t] - 0.2 * _keep_value(t, spore, combat)
                if paid % 3 + spore[t] > 3 and paid >= 3:
                    scores[a] -= 1.0
        return scores
    if kind == R.D_PLACE_PATH:
        for e in range(ne):
            a = R.A_PLACE_PATH + e
            if action_mask[a]:
                scores[a] = edge_value(e)
        return scores
    if kind == R.D_REMOVE_OWN:
        for e in range(ne):
            a = R.A_REMOVE_OWN + e
            if action_mask[a]:
                scores[a] = -edge_value(e)
        return scores
    if kind in (R.D_ATT_CARD, R.D_DEFEND, R.D_INKY_GIVE):
        for t in range(R.T):
            a = R.A_CARD + t
            if action_mask[a]:
                if kind == R.D_INKY_GIVE:
                    scores[a] = -_keep_value(t, spore, combat)
                else:
                    scores[a] = combat[t] - 0.5 * KEEP[t]
        if kind == R.D_DEFEND:
            best = max((combat[t] - 0.5 * KEEP[t] for t in range(R.T) if hand[t]), default=0)
            scores[R.A_NO_DEFENSE] = 3.0 if best < 3.5 else -1.0
        if kind == R.D_INKY_GIVE and action_mask[R.A_PASS]:
            scores[R.A_PASS] = -3.0 if hand.sum() >= 4 else 0.0
        return scores
    if kind == R.D_REINF:
        att, dfd = int(v["c_att"]), int(v["c_def"])
        if p in (att, dfd):
            side = 0 if p == att else 1
            va = combat[R.rep_card(state, 0)] + v["c_bonus"][0]
            vd = combat[R.rep_card(state, 1)] + v["c_bonus"][1]
            losing = (va <= vd) if side == 0 else (va > vd)
            for o in range(2):
                a = R.reinforce_action(o, side)
                if action_mask[a]:
                    scores[a] = 1.0 if losing else -1.0
            a = R.combat_token_action(side)
            if action_mask[a]:
                scores[a] = 1.2 if losing else -1.0
        for s in range(2):
            for o in range(2):
                a = R.reinforce_action(o, s)
                if action_mask[a] and scores[a] == 0.0:
                    scores[a] = -1.0
            a = R.combat_token_action(s)
            if action_mask[a] and scores[a] == 0.0:
                scores[a] = -1.0
        return scores
    if kind == R.D_RUSSULA_PICK:
        for g in range(ng):
            a = R.A_GATHERER + g
            if action_mask[a]:
                scores[a] = v["loc_nut"][g] if bonded[g] else 0.0
        return scores
    _ = p_top, a1
    return scores
