"""Mycelium's Team variant (``team=True``) and 2-player game (``num_players=2``): the kernels.

The rulebook's "Team/2 Player (Variant)" pages. Teams are the diagonal Colonies: Blue + Red
(seats 0 and 2) against Green + Beige (seats 1 and 3); the clockwise seat order already
alternates between them. The Team rules, as implemented here (RULES.md, "Team variant"):

* **Trade** (once per turn, an Action Phase action; "Both teammates must consent"): the turn
  player offers one of its cards or a Spore Token (``trade(kind)``, kind 23 = a Spore Token);
  its teammate names what it gives back (``trade(kind)`` again) or refuses (``pass``); then the
  proposer accepts that (``trade(kind)`` naming it) or refuses (``pass``). Both traded things
  are shown to everyone (the cards' knowledge follows them). The turn's Trade is used when the
  Trade happens; a refused offer leaves it, but each kind is offered once per turn (state
  ``trade_offers``), which bounds the offers.
* **No friendly fire**: a teammate's Path is never attackable (also by Parrot Toadstool).
* **Optional gathering**: every gathering (the Gather Phase, a Bird's Nest) asks the player,
  location by location where it would take tokens, how many it takes (``gather_take(n)``,
  0 up to what the bond and the tokens allow); the Mush Room's draws are not tokens.
* **10 Nutrients per Colony** (the excess returns to the supply); the first team with 15
  combined wins at once; rewards are shared (+1 to each winner, -1 to each loser).

The 2-player game plays the same rules on the 4-player board with 4 seats; agent ``a``
controls seats ``a`` and ``a + 2`` (``agent_of`` in the state, since ``current_player``
has no config). Its observation is seat-relative to the seat it acts for (its other seat
is offset 2), and adds that seat's hand and what that seat knows.

The gathering choices themselves (``D_GATHER``) are stepped in :mod:`.gathering`, above this
module: they end in the gathering.
"""

from numba import njit

from .board import bonded_count, bonded_edges
from .cards import gain_public, hand_size, lose_public
from .emsporium import tokens_per_gatherer
from .layout import (
    A_PASS,
    A_TRADE,
    CFG_AGENTS,
    CFG_LIMIT_SCORED,
    CFG_NG,
    CFG_NP,
    CFG_TEAM,
    D_GATHER,
    D_TRADE,
    DONE,
    DONE_LIMIT,
    GATHER_LOCATION,
    GATHER_SUBSET,
    LK_MUSH,
    MAX_NUTRIENT_KINDS,
    MAXP,
    NDECK_N,
    NUM_MUSHLING_KINDS,
    TRADE_OFFERED,
    TRADE_OFFERS,
    TRADE_RETURNED,
    TRADE_USED,
    TURN_PLAYER,
    WIN_NUTRIENTS,
    WINNER,
    agent_of_at,
    cfg_gloc_kind_at,
    decision_depth,
    gather_take_at,
    gatherer_at,
    hand_at,
    known_at,
    loc_nut_at,
    loc_spores_at,
    mat_nut_at,
    mat_spores_at,
    ndeck_at,
    nseen_at,
    pop_decision,
    push_decision,
    top_arg,
    top_kind,
    top_player,
)
from .observation_layout import (
    O_CONTROLLED,
    O_GATHER_LOC,
    O_GATHER_MAX,
    O_KNOWN,
    O_NKNOWN,
    O_PARTNER_HAND,
    O_TEAM_DKIND,
    O_TEAM_NUT,
    O_TRADE_BACK,
    O_TRADE_OFFER,
    O_TRADE_USED,
)

TEAM_WIN = 15  # combined Nutrients of a team that win (published)
COLONY_CAP = WIN_NUTRIENTS  # at most 10 Nutrients per Colony (published); the rest returns to the supply
SPORE_KIND = NUM_MUSHLING_KINDS  # the Trade's "kind" of a Spore Token


@njit(cache=True)
def teammate(p):
    return (p + 2) % MAXP


@njit(cache=True)
def is_teammate(cfg, p, q):
    return cfg[CFG_TEAM] != 0 and q == (p + 2) % MAXP


@njit(cache=True)
def acting_seat(state):
    """The seat whose decision is pending (the top of the stack, else the turn player)."""
    if decision_depth(state) > 0:
        return top_player(state)
    return state[TURN_PLAYER]


@njit(cache=True)
def observer_seat(state, agent):
    """The seat an agent's observation is relative to: the seat it acts for now if it acts,
    else the turn player if that is one of its seats, else its first seat (the seat itself
    outside the 2-player game)."""
    s = acting_seat(state)
    if state[agent_of_at(s)] == agent:
        return s
    if state[agent_of_at(state[TURN_PLAYER])] == agent:
        return state[TURN_PLAYER]
    return agent


@njit(cache=True)
def team_init(state, cfg):
    two = cfg[CFG_AGENTS] != cfg[CFG_NP]
    for s in range(MAXP):
        state[agent_of_at(s)] = s % 2 if two else s
    if cfg[CFG_TEAM]:
        for g in range(cfg[CFG_NG]):
            state[gather_take_at(g)] = -1


# --- Trade --------------------------------------------------------------------------------


@njit(cache=True)
def holds(state, p, k):
    if k == SPORE_KIND:
        return state[mat_spores_at(p)] > 0
    return state[hand_at(p, k)] > 0


@njit(cache=True)
def trade_menu(state, cfg, p, mask):
    """The turn player's Trade offers (once per turn, the teammate must have something; a kind
    offered and refused this turn is not offered again)."""
    if state[TRADE_USED]:
        return 0
    q = teammate(p)
    if hand_size(state, q) == 0 and state[mat_spores_at(q)] == 0:
        return 0
    c = 0
    for k in range(NUM_MUSHLING_KINDS + 1):
        if holds(state, p, k) and (state[TRADE_OFFERS] >> k) & 1 == 0:
            mask[A_TRADE + k] = 1
            c += 1
    return c


@njit(cache=True)
def trade_offer(state, cfg, p, k):
    """The offer is public (every observation shows it): everyone now knows ``p`` holds a card
    of kind ``k`` (so a determinized or perturbed state keeps the card the offer names)."""
    state[TRADE_OFFERS] |= 1 << k
    if k != SPORE_KIND:
        for q in range(cfg[CFG_NP]):
            if q != p and state[known_at(q, p, k)] < 1:
                state[known_at(q, p, k)] = 1
    push_decision(state, D_TRADE, teammate(p), k, 0)


@njit(cache=True)
def give_up(state, cfg, p, k):
    if k == SPORE_KIND:
        state[mat_spores_at(p)] -= 1
    else:
        lose_public(state, cfg, p, k)


@njit(cache=True)
def receive(state, cfg, p, k):
    if k == SPORE_KIND:
        state[mat_spores_at(p)] += 1
    else:
        gain_public(state, cfg, p, k)


@njit(cache=True)
def trade_answer(state, cfg, a):
    """The teammate names what it gives back (then the proposer is asked to accept it), the
    proposer accepts (the Trade happens: the turn's Trade is used), or either refuses."""
    q = top_player(state)
    k = top_arg(state, TRADE_OFFERED)
    back = top_arg(state, TRADE_RETURNED)
    pop_decision(state)
    if a == A_PASS:
        return
    if back == 0:  # the teammate's answer, shown to all: the proposer consents next
        r = a - A_TRADE
        if r != SPORE_KIND:
            for o in range(cfg[CFG_NP]):
                if o != q and state[known_at(o, q, r)] < 1:
                    state[known_at(o, q, r)] = 1
        push_decision(state, D_TRADE, teammate(q), k, r + 1)
        return
    p, mate, r = q, teammate(q), back - 1
    state[TRADE_USED] = 1
    state[TRADE_OFFERS] = 0
    give_up(state, cfg, p, k)
    give_up(state, cfg, mate, r)
    receive(state, cfg, mate, k)
    receive(state, cfg, p, r)


# --- optional gathering, 10 per Colony, 15 per team ---------------------------------------------


@njit(cache=True)
def could_take(state, cfg, p, subset, g, work):
    """Tokens ``p``'s gatherers in ``subset`` could take from ``g`` (bonded Paths in ``work``)."""
    kind = cfg[cfg_gloc_kind_at(g)]
    if kind == LK_MUSH:
        return 0
    n = 0
    for i in range(3):
        if (subset >> i) & 1 and state[gatherer_at(p, i)] == g:
            n += 1
    b = bonded_count(cfg, g, work)
    take = n * tokens_per_gatherer(state, p)  # variant: emsporium (Backpack; gathering.gather's amount)
    take = take if take < b else b
    have = state[loc_spores_at(g)] if kind == 0 else state[loc_nut_at(g)]
    return take if take < have else have


@njit(cache=True)
def next_choice(state, cfg, p, subset, start, work):
    for g in range(start, cfg[CFG_NG]):
        if could_take(state, cfg, p, subset, g, work) > 0:
            return g
    return -1


@njit(cache=True)
def team_take(state, g, take):
    chosen = state[gather_take_at(g)]
    if chosen >= 0 and chosen < take:
        return chosen
    return take


@njit(cache=True)
def team_gathered(state, cfg, p):
    """After ``p`` gathered: the Colony cap (the excess returns to the supply); True if its
    team now holds 15."""
    if state[mat_nut_at(p)] > COLONY_CAP:
        state[mat_nut_at(p)] = COLONY_CAP
    return state[mat_nut_at(p)] + state[mat_nut_at(teammate(p))] >= TEAM_WIN


# --- the kernel contract's team parts ------------------------------------------------------------


@njit(cache=True)
def trade_mask(state, cfg, p, mask, work):
    """A ``D_TRADE`` entry: refuse, or (the teammate) give back a card (or a Spore Token) of any
    kind held, or (the proposer) accept what comes back."""
    mask[A_PASS] = 1
    c = 1
    back = top_arg(state, TRADE_RETURNED)
    if back > 0:
        mask[A_TRADE + back - 1] = 1
        return 2
    for r in range(NUM_MUSHLING_KINDS + 1):
        if holds(state, p, r):
            mask[A_TRADE + r] = 1
            c += 1
    return c


@njit(cache=True)
def trade_step(state, cfg, p, a, work):
    trade_answer(state, cfg, a)


@njit(cache=True)
def team_totals(state, team):
    return state[mat_nut_at(team)] + state[mat_nut_at(team + 2)]


@njit(cache=True)
def team_returns(state, cfg, out):
    """Shared by each team: +1 to the winners, -1 to the losers (per agent: 4 in the Team
    variant, 2 in the 2-player game). A truncation gives 0; a turn limit scored compares the
    teams' combined Nutrients (0 to all on a tie)."""
    na = cfg[CFG_AGENTS]
    win = -1
    if state[DONE] == DONE_LIMIT:
        if cfg[CFG_LIMIT_SCORED] != 0:
            a = team_totals(state, 0)
            b = team_totals(state, 1)
            win = 0 if a > b else (1 if b > a else -1)
    elif state[WINNER] >= 0:
        win = state[WINNER] % 2
    for i in range(na):
        if win < 0:
            out[i] = 0.0
        else:
            out[i] = 1.0 if i % 2 == win else -1.0


@njit(cache=True)
def team_observe(state, cfg, me, out, work):
    """The Team block of ``me``'s observation; in the 2-player game also its other seat's
    hand, and what that seat knows of the others' hands and of the nutrient deck."""
    n = cfg[CFG_NP]
    depth = decision_depth(state)
    if depth > 0:
        k = top_kind(state)
        if k == D_TRADE:
            out[O_TEAM_DKIND] = 1.0
            out[O_TRADE_OFFER + top_arg(state, TRADE_OFFERED)] = 1.0
            back = top_arg(state, TRADE_RETURNED)
            if back > 0:
                out[O_TRADE_BACK + back - 1] = 1.0
        elif k == D_GATHER:
            out[O_TEAM_DKIND + 1] = 1.0
            out[O_GATHER_LOC + top_arg(state, GATHER_LOCATION)] = 1.0
            out[O_GATHER_MAX] = gather_limit(state, cfg, work)  # public: bonds, gatherers and tokens
    out[O_TRADE_USED] = state[TRADE_USED]
    mine = me % 2
    out[O_TEAM_NUT] = team_totals(state, mine)
    out[O_TEAM_NUT + 1] = team_totals(state, 1 - mine)
    out[O_CONTROLLED] = 1.0
    if cfg[CFG_AGENTS] == cfg[CFG_NP]:
        return
    mate = teammate(me)
    out[O_CONTROLLED + 2] = 1.0
    for t in range(NUM_MUSHLING_KINDS):
        out[O_PARTNER_HAND + t] = state[hand_at(mate, t)]
    for q in range(n):
        o = (q - me) % n
        if o == 0:
            continue
        for t in range(NUM_MUSHLING_KINDS):
            kn = state[hand_at(mate, t)] if q == mate else state[known_at(mate, q, t)]
            if kn > out[O_KNOWN + (o - 1) * NUM_MUSHLING_KINDS + t]:
                out[O_KNOWN + (o - 1) * NUM_MUSHLING_KINDS + t] = kn
    top = state[NDECK_N]
    for i in range(top):
        pos = top - 1 - i
        if state[nseen_at(mate, pos)]:
            out[O_NKNOWN + i * MAX_NUTRIENT_KINDS + state[ndeck_at(pos)]] = 1.0


@njit(cache=True)
def gather_limit(state, cfg, work):
    """The most a pending D_GATHER may take (for the observation), -1 if none is pending."""
    if decision_depth(state) == 0 or top_kind(state) != D_GATHER:
        return -1
    p = top_player(state)
    bonded_edges(state, cfg, p, work)
    return could_take(state, cfg, p, top_arg(state, GATHER_SUBSET), top_arg(state, GATHER_LOCATION), work)


# --- what an agent knows (the determinizer's view; 2-player game: either of its seats) -------------


@njit(cache=True)
def owns(state, agent, seat):
    return state[agent_of_at(seat)] == agent


@njit(cache=True)
def known_by(state, agent, holder, t):
    """Cards of type ``t`` the agent knows ``holder`` still has (the most either seat knows)."""
    k = 0
    for s in range(MAXP):
        if state[agent_of_at(s)] == agent and state[known_at(s, holder, t)] > k:
            k = state[known_at(s, holder, t)]
    return k


@njit(cache=True)
def seen_by(state, agent, pos):
    for s in range(MAXP):
        if state[agent_of_at(s)] == agent and state[nseen_at(s, pos)]:
            return True
    return False
