"""Fungi: the numba kernels over one int64 state array.

See RULES.md for the rules as implemented (every gap of the rulebook and the
choice made) and the action / observation layouts. Kernel contract: see
:mod:`mushgym.core.batch`. Everything here is plain integer arithmetic on
arrays, so ``NUMBA_DISABLE_JIT=1`` gives the same results.

Card kinds: see :mod:`cards` (0..8 mushrooms, 9..16 Night, 17 Butter, 18 Cidre,
19 Pan, 20 Fly agaric, 21 Basket, 22 Moon). Hands are per-kind counts.
"""

import numpy as np
from numba import njit

from mushgym.core import RNG_WORDS, Layout, install_batch_kernels, rng_below, rng_seed, shuffle_range

from .cards import (
    BASKET, BUTTER, CIDRE, FLY, MAX_DRAW, MAX_NIGHT_DECK, MAX_PANS, MOON, NHAND, NIGHT0, NKINDS,
    NNIGHT, NTYPES, PAN,
)

# ---------------------------------------------------------------------------
# Rules constants
FOREST_SIZE = 8
FREE_POSITIONS = 2          # positions 0 and 1 are in front of the shoes
DECAY_MAX = 4
BASE_LIMIT = 8
FLY_LIMIT = 4
BASKET_BONUS = 2
START_HAND = 3
F_VALUES = 11               # Forest cards of the type used: 0..10
N_VALUES = 2                # Night cards of the type used: 0..1
B_VALUES = 4                # Butter added: 0..3
C_VALUES = 3                # Cidre added: 0..2
BUTTER_NEED = 4             # mushrooms needed per Butter
CIDRE_NEED = 5              # mushrooms needed per Cidre
PAN_REC = 5                 # per cooked pan: type, forest cards, night cards, butter, cidre

# Phases
PH_ACT = 0                  # choose one of the 5 actions
PH_COOK = 1                 # cook follow-up: which pan, how much Butter/Cidre
PH_TRIM = 2                 # Fly agaric: discard down to the temporary limit

# ---------------------------------------------------------------------------
# Actions
A_TAKE = 0                                  # + position 0..7 (0 = next to the decay pile)
A_DECAY = A_TAKE + FOREST_SIZE              # take the whole decay pile
A_PAN = A_DECAY + 1                         # put down a Pan from hand
A_COOK = A_PAN + 1                          # + (t * 2 + n) * 11 + f
A_SELL = A_COOK + NTYPES * N_VALUES * F_VALUES
A_FINISH = A_SELL + NTYPES * N_VALUES * F_VALUES   # + (src * 4 + b) * 3 + c ; src 0 = display pan, 1 = pan from hand
A_DISCARD = A_FINISH + 2 * B_VALUES * C_VALUES     # + hand kind 0..19
NUM_ACTIONS = A_DISCARD + NHAND

# ---------------------------------------------------------------------------
# Config (one int64 array built by FungiGame.build_config)
CFG_REWARD = 0              # 0 win/loss/draw, 1 score difference
CFG_START_PANS = 1
CFG_COPIES = 2
CFG_FLAVOR = CFG_COPIES + NKINDS
CFG_STICKS = CFG_FLAVOR + NKINDS
CFG_UNITS = CFG_STICKS + NKINDS
CFG_SIZE = CFG_UNITS + NKINDS

# ---------------------------------------------------------------------------
# State layout
L = Layout()
RNG = L.array("rng", RNG_WORDS)
PHASE = L.scalar("phase")
CUR = L.scalar("current_player")
START = L.scalar("start_player")
TERMINAL = L.scalar("terminal")
NSTEPS = L.scalar("steps")                  # decisions taken
NTURNS = L.scalar("turns")                  # turns completed (end-of-turn steps run), forced passes included
NSKIPS = L.scalar("skips")                  # times a player could not act and the opponent acted again
NPASSES = L.scalar("forced_passes")         # times neither player could act (see RULES.md)
DRAW = L.array("draw_pile", MAX_DRAW)       # kinds; top = last
DRAW_N = L.scalar("draw_n")
NIGHTP = L.array("night_pile", MAX_NIGHT_DECK)
NIGHT_N = L.scalar("night_n")
FOREST = L.array("forest", FOREST_SIZE)     # position 0 = next to the decay pile
FOREST_N = L.scalar("forest_n")
DECAY = L.array("decay", DECAY_MAX)         # in the order the cards arrived
DECAY_N = L.scalar("decay_n")
DISCARD = L.array("discard", NKINDS)        # counts per kind (order never matters)
HAND = L.array("hand", 2 * NHAND)           # counts per player and hand kind
HAND_N = L.array("hand_n", 2)
KNOWN = L.array("known", 2 * NHAND)         # cards the opponent has seen enter the hand and not leave it
BASKETS = L.array("baskets", 2)
STICKS = L.array("sticks", 2)
EMPTY_PANS = L.array("empty_pans", 2)
FLY_NEW = L.array("fly_new", 2)             # Fly agarics taken during the player's current/last turn
FLY_OLD = L.array("fly_old", 2)             # Fly agarics taken in the turn before (expire at the end of the next turn)
COOKED_F = L.array("cooked_forest", 2 * NTYPES)
COOKED_NT = L.array("cooked_night", 2 * NTYPES)   # Night cards cooked per type (Morel slot always 0)
COOKED_B = L.array("cooked_butter", 2)
COOKED_C = L.array("cooked_cidre", 2)
NCOOKED = L.array("cooked_pans", 2)
SCORE = L.array("score", 2)
UNITS = L.array("mushrooms_cooked", 2)      # tie-break: Night cards count as 2
PANS = L.array("pan_records", 2 * MAX_PANS * PAN_REC)
PEND_T = L.scalar("pending_type")
PEND_N = L.scalar("pending_night")
PEND_F = L.scalar("pending_forest")
LAST = L.scalar("last_turn_of")              # whose turn ended last (the skip rule is public)
STATE_SIZE = L.size

# ---------------------------------------------------------------------------
# Observation layout (player-relative: "me" = the observing player)
OL = Layout()
O_HAND = OL.array("my_hand", NHAND)
O_HAND_N = OL.scalar("my_hand_size")
O_LIMIT = OL.scalar("my_hand_limit")
O_OPP_HAND_N = OL.scalar("opp_hand_size")
O_OPP_KNOWN = OL.array("opp_known_cards", NHAND)
DISP_BASKETS = 0
DISP_STICKS = 1
DISP_EMPTY_PANS = 2
DISP_FLY_NEW = 3
DISP_FLY_OLD = 4
DISP_NCOOKED = 5
DISP_COOKED_F = 6
DISP_COOKED_NT = DISP_COOKED_F + NTYPES
DISP_BUTTER = DISP_COOKED_NT + NNIGHT
DISP_CIDRE = DISP_BUTTER + 1
DISP_SCORE = DISP_CIDRE + 1
DISP_UNITS = DISP_SCORE + 1
DISP_SIZE = DISP_UNITS + 1
O_MY_DISP = OL.array("my_display", DISP_SIZE)
O_OPP_DISP = OL.array("opp_display", DISP_SIZE)
O_FOREST = OL.array("forest_onehot", FOREST_SIZE * NKINDS)
O_FOREST_N = OL.scalar("forest_size")
O_DECAY = OL.array("decay_counts", NKINDS)
O_DECAY_N = OL.scalar("decay_size")
O_DISCARD = OL.array("discard_counts", NKINDS)
O_DRAW_N = OL.scalar("draw_pile_size")
O_NIGHT_N = OL.scalar("night_pile_size")
O_TO_ACT = OL.scalar("i_am_to_act")
O_PHASE = OL.array("phase_onehot", 3)
O_PEND_TYPE = OL.array("pending_cook_type_onehot", NTYPES)
O_PEND_UNITS = OL.scalar("pending_cook_mushrooms")
O_TRIM_LEFT = OL.scalar("discards_left")
O_I_STARTED = OL.scalar("i_started")
OBS_SIZE = OL.size
assert NHAND == 20 and NTYPES == 9 and NNIGHT == 8 and NKINDS == 23  # observe copies in blocks of 8/4
assert O_I_STARTED == OBS_SIZE - 1 and O_TO_ACT < O_PHASE < O_PEND_TYPE < O_PEND_UNITS < O_TRIM_LEFT < O_I_STARTED


# ---------------------------------------------------------------------------
# Small helpers
@njit(cache=True)
def hand_limit(state, p):
    if state[FLY_NEW + p] + state[FLY_OLD + p] > 0:
        return FLY_LIMIT + BASKET_BONUS * state[BASKETS + p]
    return BASE_LIMIT + BASKET_BONUS * state[BASKETS + p]


@njit(cache=True)
def trim_limit(state, p):
    return FLY_LIMIT + BASKET_BONUS * state[BASKETS + p]


@njit(cache=True)
def spend(state, p, k, n):
    """Remove ``n`` cards of hand kind ``k`` from p's hand (they become public)."""
    h = HAND + p * NHAND + k
    state[h] -= n
    state[HAND_N + p] -= n
    kn = KNOWN + p * NHAND + k
    v = state[kn] - n
    state[kn] = v if v > 0 else 0


@njit(cache=True)
def type_units(state, p, t, cfg):
    """Mushrooms of type ``t`` in p's hand (Night cards count as they say)."""
    u = state[HAND + p * NHAND + t]
    if t < NNIGHT:
        u += state[HAND + p * NHAND + NIGHT0 + t] * cfg[CFG_UNITS + NIGHT0 + t]
    return u


@njit(cache=True)
def can_take_forest(state, p, i):
    if i >= state[FOREST_N]:
        return False
    cost = i - 1 if i >= FREE_POSITIONS else 0
    if state[STICKS + p] < cost:
        return False
    card = state[FOREST + i]
    if card == BASKET or card == FLY:
        return True
    if card == MOON and state[NIGHT_N] == 0:
        return True
    return state[HAND_N + p] + 1 <= hand_limit(state, p)


@njit(cache=True)
def can_take_decay(state, p):
    n = state[DECAY_N]
    if n == 0:
        return False
    cards = 0
    baskets = 0
    moons = 0
    for j in range(n):
        c = state[DECAY + j]
        if c == FLY:
            return True         # trimmed straight away: always allowed (RULES.md)
        if c == BASKET:
            baskets += 1
        elif c == MOON:
            moons += 1
        else:
            cards += 1
    nights = state[NIGHT_N]
    cards += moons if moons < nights else nights
    return state[HAND_N + p] + cards <= hand_limit(state, p) + BASKET_BONUS * baskets


@njit(cache=True)
def has_action(state, p, cfg):
    """True if ``p`` has a legal action in the action phase (same as a non-empty mask)."""
    if state[HAND + p * NHAND + PAN] > 0:
        return True
    for i in range(state[FOREST_N]):
        if can_take_forest(state, p, i):
            return True
    if can_take_decay(state, p):
        return True
    pan = state[EMPTY_PANS + p] > 0
    for t in range(NTYPES):
        u = type_units(state, p, t, cfg)
        if u >= 2:
            return True     # selling; cooking needs 3 and a pan, so it is covered too
    return False


@njit(cache=True, inline="always")
def cooked_units(t, nn, f, cfg):
    """Mushrooms in ``f`` Forest and ``nn`` Night cards of type ``t`` (a Night card counts as it says)."""
    if t < NNIGHT:
        return f + nn * cfg[CFG_UNITS + NIGHT0 + t]
    return f


@njit(cache=True, inline="always")
def decode_cook_sell(x):
    """Offset within the cook or sell block -> (type, Night cards, Forest cards)."""
    tn = x // F_VALUES
    return tn // N_VALUES, tn % N_VALUES, x % F_VALUES


@njit(cache=True)
def finish_legal(state, p, src, b, c, cfg):
    if src == 0:
        if state[EMPTY_PANS + p] == 0:
            return False
    elif state[HAND + p * NHAND + PAN] == 0:
        return False
    if b > state[HAND + p * NHAND + BUTTER] or c > state[HAND + p * NHAND + CIDRE]:
        return False
    units = cooked_units(state[PEND_T], state[PEND_N], state[PEND_F], cfg)
    return BUTTER_NEED * b + CIDRE_NEED * c <= units


# ---------------------------------------------------------------------------
# Setup
@njit(cache=True)
def resolve_card(state, p, card, face_up):
    """Put a card a player gets into hand or display. Returns 1 for a Fly agaric, else 0."""
    if card == BASKET:
        state[BASKETS + p] += 1
    elif card == FLY:
        state[FLY_NEW + p] += 1
        return 1
    elif card == MOON:
        state[DISCARD + MOON] += 1
        n = state[NIGHT_N]
        if n > 0:
            n -= 1
            nk = state[NIGHTP + n]
            state[NIGHTP + n] = 0
            state[NIGHT_N] = n
            state[HAND + p * NHAND + nk] += 1
            state[HAND_N + p] += 1
    else:
        state[HAND + p * NHAND + card] += 1
        state[HAND_N + p] += 1
        if face_up:
            state[KNOWN + p * NHAND + card] += 1
    return 0


@njit(cache=True)
def draw_card(state):
    n = state[DRAW_N] - 1
    card = state[DRAW + n]
    state[DRAW + n] = 0
    state[DRAW_N] = n
    return card


@njit(cache=True)
def init(state, seed, cfg, work):
    for i in range(state.shape[0]):
        state[i] = 0
    rng_seed(state, RNG, seed)
    n = 0
    for k in range(NKINDS):
        if k >= NIGHT0 and k < NIGHT0 + NNIGHT:
            continue
        c = cfg[CFG_COPIES + k]
        if k == PAN:
            c -= cfg[CFG_START_PANS]
        for _ in range(c):
            state[DRAW + n] = k
            n += 1
    state[DRAW_N] = n
    shuffle_range(state, DRAW, n, RNG)
    m = 0
    for t in range(NNIGHT):
        for _ in range(cfg[CFG_COPIES + NIGHT0 + t]):
            state[NIGHTP + m] = NIGHT0 + t
            m += 1
    state[NIGHT_N] = m
    shuffle_range(state, NIGHTP, m, RNG)
    # The Forest: 8 cards in a line.
    for i in range(FOREST_SIZE):
        state[FOREST + i] = draw_card(state)
    state[FOREST_N] = FOREST_SIZE
    # One starting pan each (the others' pans stay in the game box if the deck sets more aside).
    sp = cfg[CFG_START_PANS]
    state[EMPTY_PANS] = (sp + 1) // 2
    state[EMPTY_PANS + 1] = sp // 2
    start = rng_below(state, RNG, 2)
    state[START] = start
    # Three cards each: Basket -> display, Moon -> Night card, Fly agaric -> discard; no replacements.
    for j in range(2):
        p = start if j == 0 else 1 - start
        for _ in range(START_HAND):
            card = draw_card(state)
            if card == FLY:
                state[DISCARD + FLY] += 1
            else:
                resolve_card(state, p, card, False)
    state[PHASE] = PH_ACT
    state[CUR] = start
    state[LAST] = 1 - start
    if not has_action(state, start, cfg):
        advance(state, 1 - start, cfg)


# ---------------------------------------------------------------------------
# Turn structure
@njit(cache=True)
def board_end_of_turn(state):
    """Steps 1-3 after a turn: nearest card to the decay pile, slide, refill."""
    n = state[FOREST_N]
    card = state[FOREST]
    for i in range(n - 1):
        state[FOREST + i] = state[FOREST + i + 1]
    state[FOREST + n - 1] = 0
    n -= 1
    if state[DECAY_N] == DECAY_MAX:
        for j in range(DECAY_MAX):
            state[DISCARD + state[DECAY + j]] += 1
            state[DECAY + j] = 0
        state[DECAY_N] = 0
    state[DECAY + state[DECAY_N]] = card
    state[DECAY_N] += 1
    while n < FOREST_SIZE and state[DRAW_N] > 0:
        state[FOREST + n] = draw_card(state)
        n += 1
    state[FOREST_N] = n
    state[NTURNS] += 1


@njit(cache=True)
def expire_flies(state, p):
    state[DISCARD + FLY] += state[FLY_OLD + p]
    state[FLY_OLD + p] = state[FLY_NEW + p]
    state[FLY_NEW + p] = 0


@njit(cache=True)
def advance(state, last, cfg):
    """Choose who acts after ``last``'s turn: the opponent, else ``last`` again (skip), else a forced pass."""
    while True:
        if state[FOREST_N] == 0:
            state[TERMINAL] = 1
            return
        opp = 1 - last
        if has_action(state, opp, cfg):
            state[CUR] = opp
            return
        if has_action(state, last, cfg):
            state[CUR] = last
            state[NSKIPS] += 1
            return
        # Neither player can act: ``opp`` passes (its end-of-turn steps run).
        state[NPASSES] += 1
        state[LAST] = opp
        expire_flies(state, opp)
        board_end_of_turn(state)
        last = opp


@njit(cache=True)
def end_turn(state, p, cfg):
    state[PHASE] = PH_ACT
    state[LAST] = p
    expire_flies(state, p)
    board_end_of_turn(state)
    advance(state, p, cfg)


@njit(cache=True)
def after_take(state, p, flies, cfg):
    if state[FOREST_N] == 0:
        state[TERMINAL] = 1     # the last Forest card is taken: the game ends at once
        return
    if flies > 0 and state[HAND_N + p] > trim_limit(state, p):
        state[PHASE] = PH_TRIM
        return
    end_turn(state, p, cfg)


@njit(cache=True)
def apply_finish(state, p, src, b, c, cfg):
    t = state[PEND_T]
    nn = state[PEND_N]
    f = state[PEND_F]
    if src == 0:
        state[EMPTY_PANS + p] -= 1
    else:
        spend(state, p, PAN, 1)
    if b > 0:
        spend(state, p, BUTTER, b)
    if c > 0:
        spend(state, p, CIDRE, c)
    units = cooked_units(t, nn, f, cfg)
    state[COOKED_F + p * NTYPES + t] += f
    state[COOKED_NT + p * NTYPES + t] += nn
    state[COOKED_B + p] += b
    state[COOKED_C + p] += c
    state[SCORE + p] += units * cfg[CFG_FLAVOR + t] + b * cfg[CFG_FLAVOR + BUTTER] + c * cfg[CFG_FLAVOR + CIDRE]
    state[UNITS + p] += units
    r = PANS + (p * MAX_PANS + state[NCOOKED + p]) * PAN_REC
    state[r] = t
    state[r + 1] = f
    state[r + 2] = nn
    state[r + 3] = b
    state[r + 4] = c
    state[NCOOKED + p] += 1
    state[PEND_T] = 0
    state[PEND_N] = 0
    state[PEND_F] = 0
    end_turn(state, p, cfg)


# ---------------------------------------------------------------------------
# Kernels
@njit(cache=True)
def current_player(state):
    return state[CUR]


@njit(cache=True)
def is_terminal(state):
    return state[TERMINAL] != 0


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    for a in range(mask.shape[0]):
        mask[a] = 0
    if state[TERMINAL] != 0:
        return 0
    p = state[CUR]
    h = HAND + p * NHAND
    n_legal = 0
    phase = state[PHASE]
    if phase == PH_ACT:
        for i in range(state[FOREST_N]):
            if can_take_forest(state, p, i):
                mask[A_TAKE + i] = 1
                n_legal += 1
        if can_take_decay(state, p):
            mask[A_DECAY] = 1
            n_legal += 1
        has_pan = state[h + PAN] > 0
        if has_pan:
            mask[A_PAN] = 1
            n_legal += 1
        can_cook = has_pan or state[EMPTY_PANS + p] > 0
        for t in range(NTYPES):
            fmax = state[h + t]
            nmax = 0
            nu = 0
            if t < NNIGHT:
                nmax = state[h + NIGHT0 + t]
                nu = cfg[CFG_UNITS + NIGHT0 + t]
            if fmax + nmax * nu < 2:
                continue
            if fmax > F_VALUES - 1:
                fmax = F_VALUES - 1
            if nmax > N_VALUES - 1:
                nmax = N_VALUES - 1
            for nn in range(nmax + 1):
                base = (t * N_VALUES + nn) * F_VALUES
                for f in range(fmax + 1):
                    u = f + nn * nu
                    if u >= 2:
                        mask[A_SELL + base + f] = 1
                        n_legal += 1
                        if u >= 3 and can_cook:
                            mask[A_COOK + base + f] = 1
                            n_legal += 1
    elif phase == PH_COOK:
        for src in range(2):
            for b in range(B_VALUES):
                for c in range(C_VALUES):
                    if finish_legal(state, p, src, b, c, cfg):
                        mask[A_FINISH + (src * B_VALUES + b) * C_VALUES + c] = 1
                        n_legal += 1
    else:
        for k in range(NHAND):
            if state[h + k] > 0:
                mask[A_DISCARD + k] = 1
                n_legal += 1
    return n_legal


@njit(cache=True)
def step(state, action, cfg, work):
    p = state[CUR]
    state[NSTEPS] += 1
    if action < A_DECAY:
        i = action - A_TAKE
        if i >= FREE_POSITIONS:
            state[STICKS + p] -= i - 1
        card = state[FOREST + i]
        n = state[FOREST_N]
        for j in range(i, n - 1):
            state[FOREST + j] = state[FOREST + j + 1]
        state[FOREST + n - 1] = 0
        state[FOREST_N] = n - 1
        flies = resolve_card(state, p, card, True)
        after_take(state, p, flies, cfg)
    elif action == A_DECAY:
        flies = 0
        n = state[DECAY_N]
        for j in range(n):
            flies += resolve_card(state, p, state[DECAY + j], True)
            state[DECAY + j] = 0
        state[DECAY_N] = 0
        after_take(state, p, flies, cfg)
    elif action == A_PAN:
        spend(state, p, PAN, 1)
        state[EMPTY_PANS + p] += 1
        end_turn(state, p, cfg)
    elif action < A_SELL:
        t, nn, f = decode_cook_sell(action - A_COOK)
        spend(state, p, t, f)
        if nn > 0:
            spend(state, p, NIGHT0 + t, nn)
        state[PEND_T] = t
        state[PEND_N] = nn
        state[PEND_F] = f
        state[PHASE] = PH_COOK
        # The follow-up is skipped only when what everybody can see leaves one choice: fewer
        # than 4 mushrooms (no Butter or Cidre can go in) and a single possible pan source
        # (no empty Pan in the display, or no card left in the hand). Skipping it whenever the
        # player's face-down cards allow one choice would tell the opponent about them.
        units = cooked_units(t, nn, f, cfg)
        if units < BUTTER_NEED and (state[EMPTY_PANS + p] == 0 or state[HAND_N + p] == 0):
            apply_finish(state, p, 0 if state[EMPTY_PANS + p] > 0 else 1, 0, 0, cfg)
    elif action < A_FINISH:
        t, nn, f = decode_cook_sell(action - A_SELL)
        units = cooked_units(t, nn, f, cfg)
        if nn > 0:
            spend(state, p, NIGHT0 + t, nn)
            state[DISCARD + NIGHT0 + t] += nn
        spend(state, p, t, f)
        state[DISCARD + t] += f
        state[STICKS + p] += units * cfg[CFG_STICKS + t]
        end_turn(state, p, cfg)
    elif action < A_DISCARD:
        x = action - A_FINISH
        apply_finish(state, p, x // (B_VALUES * C_VALUES), (x // C_VALUES) % B_VALUES, x % C_VALUES, cfg)
    else:
        k = action - A_DISCARD
        spend(state, p, k, 1)
        state[DISCARD + k] += 1
        if state[HAND_N + p] <= trim_limit(state, p):
            end_turn(state, p, cfg)


@njit(cache=True, inline='always')
def _obs_copy8(out, o, state, s):
    """``out[o:o+8] = state[s:s+8]``, all loads before the stores (the int64 -> float32
    conversions then do not wait on a possible alias between ``state`` and ``out``)."""
    a0 = state[s]; a1 = state[s + 1]; a2 = state[s + 2]; a3 = state[s + 3]
    a4 = state[s + 4]; a5 = state[s + 5]; a6 = state[s + 6]; a7 = state[s + 7]
    out[o] = a0; out[o + 1] = a1; out[o + 2] = a2; out[o + 3] = a3
    out[o + 4] = a4; out[o + 5] = a5; out[o + 6] = a6; out[o + 7] = a7


@njit(cache=True, inline='always')
def _obs_copy4(out, o, state, s):
    a0 = state[s]; a1 = state[s + 1]; a2 = state[s + 2]; a3 = state[s + 3]
    out[o] = a0; out[o + 1] = a1; out[o + 2] = a2; out[o + 3] = a3


# Inlined into its callers (the vector loops call it for every env at every step): no
# call, no reference counting of the argument arrays. Every element of ``out`` is written
# exactly once, except the one-hot / count blocks, which are cleared and then set.
@njit(cache=True, inline='always')
def observe(state, player, cfg, out, work):
    me = player & 1             # player is 0 or 1; the mask lets the indices below skip wraparound
    opp = 1 - me
    hm = HAND + me * NHAND
    ko = KNOWN + opp * NHAND
    _obs_copy8(out, O_HAND, state, hm)
    _obs_copy8(out, O_HAND + 8, state, hm + 8)
    _obs_copy4(out, O_HAND + 16, state, hm + 16)
    _obs_copy8(out, O_OPP_KNOWN, state, ko)
    _obs_copy8(out, O_OPP_KNOWN + 8, state, ko + 8)
    _obs_copy4(out, O_OPP_KNOWN + 16, state, ko + 16)
    out[O_HAND_N] = state[HAND_N + me]
    out[O_LIMIT] = hand_limit(state, me)
    out[O_OPP_HAND_N] = state[HAND_N + opp]
    for j in range(2):
        q = me if j == 0 else opp
        o = O_MY_DISP if j == 0 else O_OPP_DISP
        out[o + DISP_BASKETS] = state[BASKETS + q]
        out[o + DISP_STICKS] = state[STICKS + q]
        out[o + DISP_EMPTY_PANS] = state[EMPTY_PANS + q]
        out[o + DISP_FLY_NEW] = state[FLY_NEW + q]
        out[o + DISP_FLY_OLD] = state[FLY_OLD + q]
        out[o + DISP_NCOOKED] = state[NCOOKED + q]
        cf = COOKED_F + q * NTYPES
        _obs_copy8(out, o + DISP_COOKED_F, state, cf)          # NTYPES = 9
        out[o + DISP_COOKED_F + 8] = state[cf + 8]
        _obs_copy8(out, o + DISP_COOKED_NT, state, COOKED_NT + q * NTYPES)   # NNIGHT = 8
        out[o + DISP_BUTTER] = state[COOKED_B + q]
        out[o + DISP_CIDRE] = state[COOKED_C + q]
        out[o + DISP_SCORE] = state[SCORE + q]
        out[o + DISP_UNITS] = state[UNITS + q]
    for i in range(FOREST_SIZE * NKINDS):
        out[O_FOREST + i] = 0.0
    fn = state[FOREST_N]
    for i in range(fn):
        out[O_FOREST + i * NKINDS + state[FOREST + i]] = 1.0
    out[O_FOREST_N] = fn
    for k in range(NKINDS):
        out[O_DECAY + k] = 0.0
    dn = state[DECAY_N]
    for j in range(dn):
        out[O_DECAY + state[DECAY + j]] += 1.0
    out[O_DECAY_N] = dn
    _obs_copy8(out, O_DISCARD, state, DISCARD)                  # NKINDS = 23
    _obs_copy8(out, O_DISCARD + 8, state, DISCARD + 8)
    _obs_copy4(out, O_DISCARD + 16, state, DISCARD + 16)
    out[O_DISCARD + 20] = state[DISCARD + 20]
    out[O_DISCARD + 21] = state[DISCARD + 21]
    out[O_DISCARD + 22] = state[DISCARD + 22]
    out[O_DRAW_N] = state[DRAW_N]
    out[O_NIGHT_N] = state[NIGHT_N]
    for k in range(O_TO_ACT, O_I_STARTED):   # to-act flag .. discards left: set below if they apply
        out[k] = 0.0
    if state[TERMINAL] == 0:
        if state[CUR] == me:
            out[O_TO_ACT] = 1.0
        ph = state[PHASE]
        out[O_PHASE + ph] = 1.0
        if ph == PH_COOK:
            t = state[PEND_T]
            out[O_PEND_TYPE + t] = 1.0
            out[O_PEND_UNITS] = cooked_units(t, state[PEND_N], state[PEND_F], cfg)
        elif ph == PH_TRIM:
            cp = state[CUR]
            out[O_TRIM_LEFT] = state[HAND_N + cp] - trim_limit(state, cp)
    out[O_I_STARTED] = 1.0 if state[START] == me else 0.0


@njit(cache=True)
def returns(state, cfg, out):
    d = state[SCORE] - state[SCORE + 1]
    if cfg[CFG_REWARD] == 1:
        out[0] = d
        out[1] = -d
        return
    if d == 0:
        d = state[UNITS] - state[UNITS + 1]
    if d > 0:
        out[0] = 1.0
        out[1] = -1.0
    elif d < 0:
        out[0] = -1.0
        out[1] = 1.0
    else:
        out[0] = 0.0
        out[1] = 0.0


install_batch_kernels(globals())
