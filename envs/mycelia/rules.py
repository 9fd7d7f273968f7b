"""Mycelia's kernel module: the kernel contract (:mod:`mushgym.core.batch`) over one int64 state
array, and the generated batch loops declared here (``generated/rules_loops.py``).

Sizes are for the largest table (4 seats: up to 4 players, or up to 3 players plus the Automata
seat, which always sits last); options and data tables come in ``cfg`` (built by
:class:`envs.mycelia.game.MyceliaGame`). Decisions live on the state's decision stack of entries
``(kind, player, a0, a1, a2, a3)`` (:mod:`.layout`); the player to act and the legal mask come
from its top entry. The bottom entry of a turn is ``D_MAIN`` (pick an action or a free action);
an action that needs sub-decisions (where to step, where to place a tile and how to turn it,
where a spore goes among tiles at the same distance, which spores pay for a mushroom, what a
decay action targets) pushes entries. A sub-decision with a single legal choice is applied
automatically. The Automata seat never decides: its whole turn runs inside ``step``.

The rules live in modules with one job each, lowest first (each imports only those above it in
this list); RULES.md names the function of each rule:

=====================  ==========================================================================
:mod:`.layout`         declarations: sizes, the config table, the state and its decision stack
:mod:`.actions`        the flat action space
:mod:`.board`          the lattice's geometry (neighbours, the cone beyond an edge)
:mod:`.work`           the work area (scratch tables of every kernel)
:mod:`.turn`           random draws, fate, the Automata seat and its card, action types used
:mod:`.tiles`          tiles placed, linked and moved; the pieces on them; who controls a tile
:mod:`.cards`          deck, market, hands, discard pile
:mod:`.mats`           player mats: free, blocked, a mushroom grown and decayed
:mod:`.networks`       networks and paying for a mushroom
:mod:`.spores`         the spore cone and the spread of a SPORE action
:mod:`.expansion`      the North American expansion (saplings, AGE, Grandfather Trees)
:mod:`.legality`       legal actions of each decision kind; ``legal_mask``, ``validate``
:mod:`.automata`       the Automata's whole turn
:mod:`.step`           the answer to each decision kind, the main actions, the turn order; ``step``
:mod:`.setup`          the set-up; ``init``
:mod:`.scoring`        the player to act, the end, scores and returns
:mod:`.observation`    ``observe`` (the base block, then the expansion's)
=====================  ==========================================================================

Everything those modules define is importable from here too (``rules.label_networks``,
``rules.cone_distances``, the layout's and the actions' names, the work area's offsets).
"""

from numba import njit

from mushgym.core import generated_loops, sample_masked  # noqa: F401  (sample_masked: the engine's uniform legal draw, re-exported)

from .actions import *  # noqa: F401,F403 - the action ids and their compiled helpers (rules.A_PAY, pay_action, ...)
from .automata import *  # noqa: F401,F403
from .board import band, in_cone, is_up, neighbour_c, neighbour_r  # noqa: F401
from .cards import *  # noqa: F401,F403
from .expansion import FORMATION_TILES, new_tile_sapling  # noqa: F401
from .expansion import setup as setup_expansion  # noqa: F401
from .layout import *  # noqa: F401,F403 - the declarations: sizes, cfg_*/state fields and their *_at helpers, the stack
from .legality import *  # noqa: F401,F403 - legal_mask, validate
from .mats import *  # noqa: F401,F403
from .networks import *  # noqa: F401,F403
from .observation import CF, MATF, OBS_SIZE, OBS_SIZE_NA, SEATF, TF, obs_size, observe, observe_na  # noqa: F401
from .scoring import *  # noqa: F401,F403 - current_player, is_terminal, final_score, is_truncated, returns
from .setup import *  # noqa: F401,F403 - init
from .spores import *  # noqa: F401,F403
from .step import *  # noqa: F401,F403 - step
from .tiles import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
from .validate import V_NO_ACTION, V_OK, check_state  # noqa: F401
from .work import *  # noqa: F401,F403 - W_QUEUE, W_DIST, LABEL, W_MASK, ..., WORK_SIZE

# the vector loops prefetch the rows of the env 4 places ahead into L2 (mushgym/core/README.md,
# section 5): at batch 1,024 on one thread 0.441 -> 0.543 of the rollout rate (RULES.md, "Speed
# and memory"); Mycelia's kernels read a cold state in a scattered order
PREFETCH_AHEAD = 4


# --- the names of the single-module kernel file, kept for code written against them ----------------
@njit(cache=True)
def _top(state):
    """Offset of the top entry of the decision stack (kind, player, a0..a3)."""
    return STACK + (decision_depth(state) - 1) * ENTRY


@njit(cache=True)
def _entry(state, o):
    """The decision entry at slot ``o``: (kind, player, a0, a1, a2, a3)."""
    return state[o], state[o + 1], state[o + 2], state[o + 3], state[o + 4], state[o + 5]


_acfg = automata_card_value
_after_setup = after_setup
_all_decayed = all_decayed
_apply = apply_decision
_apply_main = apply_main_action
_auto_card_colour_ok = automata_wants_colour
_auto_fruit = automata_fruit
_auto_move = automata_move
_auto_pick_layer = automata_pick_layer
_auto_place_mother = automata_place_mother
_begin_turn = begin_turn
_best_tier = best_tier
_blocked = mat_blocked
_can_fruit = can_fruit
_can_grow_on = can_grow_on
_can_move_to = can_move_to
_can_pay_from = can_pay_from
_cards_available = cards_available
_comp_avail = network_spores
_control = controller
_decay = decay_mushroom
_deck_available = deck_available
_degree = degree
_discard = discard_card
_draw_deck = draw_deck
_edge_with_symbol = edge_with_symbol
_empty_tier = empty_tier
_end_game = end_game
_enter = enter_tile
_expansion_setup = setup_expansion
_fate = fate
_feasible = payment_feasible
_find_cell = find_cell
_free_mat = free_mat
_grow = grow_mushroom
_hand_draw = hand_draw
_in_network = in_network
_insect_token_to = insect_token_to
_is_auto = is_automata
_link = link_tile
_main_allowed = main_allowed
_main_has_cheap_action = has_cheap_main_action
_main_mask = main_mask
_mask_dest_tier = mask_best_tiers
_mat = mat_index
_mother_at = mother_on
_mother_count = mother_spore_count
_move_mushroom = move_mushroom
_move_tile = move_tile
_new_tile_sapling = new_tile_sapling
_next_turn = next_turn
_other_mothers = other_mothers
_pay_mask = pay_mask
_pay_options = can_pay_tile
_place_tile = place_tile
_placement_ok = placement_ok
_put_spore = put_spore
_rand = random_below
_refill_market = refill_market
_reshuffle_discard = reshuffle_discard
_resolve_decay = resolve_decay
_roll_and_spore = roll_and_spore
_settle = settle
_spendable = spendable
_spendable_all = spendable_all
_spore_action = spore_action
_spore_from = spore_from
_spores_on = spores_on
_spread = spread_spores
_start_action = start_action
_steal = steal_card
_sub_mask = decision_mask
_symbol = wind_symbol
_take_market = take_market
_tile_colour = tile_colour
_unlink = unlink_tile

generated_loops(globals())
