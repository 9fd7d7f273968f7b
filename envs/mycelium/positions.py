"""Mycelium positions from a readable description (``MyceliumGame.state_from``) and back
(``MyceliumGame.describe``), for combat studies, endgames, search tests and scenario tests.

A description is a set of keyword fields, all optional (:data:`FIELDS` lists them with their
defaults). Cards are named by kind (a name of cards.toml, any case, or its number), locations
by name (``"Oak"``, ``"Blue Spore Cave"``, ``"Hero Tavern"``) or number, players by seat:

==================== ==================================================================
paths                ``{edge: seat}`` (one Path, beside the edge's permanent one) or
                     ``{edge: [slot 0 seat or None, slot 1 seat or None]}``; the permanent Paths
                     are in place unless an edge says otherwise
gatherers            ``{seat: [location or None (at the Colony)] * 3}``
hands                ``{seat: {kind: n}}`` or ``{seat: [kinds]}``; ``known``:
                     ``{viewer: {holder: {kind: n}}}`` (cards the viewer knows the holder has)
discard, limbo, combat_area   ``{kind: n}``: the discard pile, abilities in flight, reinforcements played
nutrient_discard     ``{nutrient kind: n}``
spores, nutrients, combat_tokens   ``{seat: n}`` on each mat; ``location_spores``,
                     ``location_nutrients``: ``{location: n}``
phase                ``"explore"``, ``"nutrient"``, ``"action"``, ``"place"``, ``"discard"``, ``"over"``
turn_player, first_player, turn, placed, actions_used, last_hand, last_edge (None or an edge)
done, winner         ``"running"``, ``"rules"`` (10 Nutrients), ``"turn_limit"``; the winning seat
birds_nest_played    seats that played a Bird's Nest this Nutrient Card Phase; ``birds_nest_trees``:
                     the locations a Nutrient was placed on this phase
combat               None, or ``{"attacker", "defender", "edge", "cards": [kind or None] * 2,
                     "replaced": [...], "bonus": [a, d], "no_thief": [0/1] * 2, "defended",
                     "revealed", "stage" (a ``CS_*`` name: "reveal", "reinf", ...), "sub",
                     "passes", "next", "winner" (None, 0 attacker, 1 defender)}``
pending              the decision stack, bottom first: ``(kind, player, a0, ..., a4)``, a kind named
                     as the layout's ``D_*`` (``"resolve"``, ``"fa"``, ``"pathwin"``, ``"reinf"``, ...:
                     the reaction windows and sub-decisions; a new kind is read the same way)
deck_top, deck_top_n the public set a Witch's Hat put on the mushling deck and how many are still on
                     top; ``nutrient_top`` the nutrient cards it put there (all still on top)
nutrients_seen       ``{seat: {position: nutrient kind}}``: deck positions (0 the bottom) a player saw
items, shop          Emsporium: ``{seat: {item: n}}``, the 5 shop slots (item or None)
heroes, hero_up, legend_deal   Hero Tavern / Legends: ``{seat: [heroes]}``, the 2 face-up
                     heroes (or None), ``{seat: [hero or None] * 2}``
trade_used, trade_offers, gather_take   team: the Trade made this turn; the kinds offered this turn
                     without a Trade (card names, "Spore Token"); ``{location: tokens chosen}``
deck, nutrient_deck, item_deck, hero_deck   the hidden piles (bottom first); left out, every
                     card not placed goes there, shuffled by ``seed`` (the public sets on top and
                     the seen positions kept)
==================== ==================================================================

Every mushling, nutrient, item and hero card is accounted for; the Path counts and the
agent of each seat follow from the pieces. The state goes through ``Game.validate`` (bounds
and the ``validate`` kernel, which ``check_invariants`` runs too); anything wrong is a
ValueError naming the field and the valid choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mushgym.positions import (
    begin,
    checked,
    counts,
    decision_kinds,
    describe_stack,
    exact_pile,
    index_of,
    named_counts,
    number,
    per_seat,
    refuse,
    shuffled,
    stack_entries,
)

from . import rules

if TYPE_CHECKING:
    from .game import MyceliumGame

KINDS = decision_kinds(rules)
PHASES = tuple(
    n[3:].lower()
    for n in sorted((n for n in vars(rules) if n.startswith("PH_") and n != "PH_OVER"), key=lambda n: getattr(rules, n))
) + ("over",)
STAGES = tuple(
    n[3:].lower() for n in sorted((n for n in vars(rules) if n.startswith("CS_")), key=lambda n: getattr(rules, n))
)
DONE = ("running", "rules", "turn_limit")
TAVERN_NAME = "Hero Tavern"
COMBAT_KEYS = (
    "active",
    "attacker",
    "defender",
    "edge",
    "cards",
    "replaced",
    "bonus",
    "no_thief",
    "defended",
    "revealed",
    "stage",
    "sub",
    "passes",
    "next",
    "winner",
)
FIELDS: dict[str, Any] = {
    "paths": None,
    "gatherers": None,
    "hands": None,
    "known": None,
    "discard": None,
    "limbo": None,
    "combat_area": None,
    "nutrient_discard": None,
    "spores": None,
    "nutrients": None,
    "combat_tokens": None,
    "location_spores": None,
    "location_nutrients": None,
    "phase": "action",
    "turn_player": 0,
    "first_player": None,
    "turn": 0,
    "placed": 0,
    "actions_used": 0,
    "last_hand": 0,
    "last_edge": None,
    "done": "running",
    "winner": None,
    "birds_nest_played": (),
    "birds_nest_trees": (),
    "combat": None,
    "pending": None,
    "deck_top": None,
    "deck_top_n": 0,
    "nutrient_top": None,
    "nutrients_seen": None,
    "items": None,
    "shop": None,
    "heroes": None,
    "hero_up": None,
    "legend_deal": None,
    "trade_used": 0,
    "trade_offers": (),
    "gather_take": None,
    "deck": None,
    "nutrient_deck": None,
    "item_deck": None,
    "hero_deck": None,
    "seed": 0,
}
PER_SEAT = {
    "spores": ("mat_spores", rules.SPORE_TOKENS),
    "nutrients": ("mat_nut", rules.NUTRIENT_TOKENS),
    "combat_tokens": ("ctok", rules.COMBAT_TOKENS),
}
PER_LOCATION = {
    "location_spores": ("loc_spores", rules.SPORE_TOKENS),
    "location_nutrients": ("loc_nut", rules.NUTRIENT_TOKENS),
}
PUBLIC_KINDS = {"discard": "discard", "limbo": "limbo", "combat_area": "carea"}


def state_from(game: MyceliumGame, check: bool = True, **description: Any) -> np.ndarray:
    """A Mycelium state with exactly the position described (the fields: module docstring).

    ``check=False`` skips ``check_invariants`` (the validator: it runs once anyway, before)."""
    d, s, v = begin(game, FIELDS, description, rules.STATE, rules.RNG)
    fresh = rules.STATE.arrays(game.new_state(0))
    v["agent_of"][:] = fresh["agent_of"]  # fixed by the options
    _board(game, v, d, fresh)
    _tokens(game, v, d)
    _turn(game, v, d)
    _combat(game, v, d)
    _mushlings(game, v, d)
    _nutrients(game, v, d)
    _variants(game, v, d, fresh)
    return checked(game, s, check)


def _locations(game: MyceliumGame) -> list[str]:
    return list(game.board.gloc_names) + ([TAVERN_NAME] if game.tavern_on else [])


def _location(game: MyceliumGame, field: str, value: Any) -> int:
    g = index_of(game.env_id, field, value, _locations(game), "location")
    return rules.TAVERN if g == len(game.board.gloc_names) else g


def _edge(game: MyceliumGame, field: str, value: Any) -> int:
    return number(game.env_id, field, value, 0, len(game.board.edges) - 1)


def _board(game: MyceliumGame, v: dict, d: dict, fresh: dict) -> None:
    """Paths (the permanent ones in place unless an edge is given), their counts and the gatherers."""
    ns = game.num_seats
    perm = game.board.permanent
    for e in range(len(game.board.edges)):
        if perm[e] >= 0:
            v["paths"][e, 0] = perm[e] + 1
    paths = d["paths"] or {}
    if not isinstance(paths, Mapping):
        raise refuse(
            game.env_id, "paths", f"must be a dict {{edge: seat or [seat or None, seat or None]}}, got {paths!r}"
        )
    for e, owners in paths.items():
        e = _edge(game, "paths", e)
        field = f"paths[{e}]"
        if isinstance(owners, (list, tuple)):
            if len(owners) != 2:
                raise refuse(
                    game.env_id, field, f"an edge holds 2 Paths: [slot 0, slot 1] (seat or None), got {owners!r}"
                )
            v["paths"][e] = [0 if o is None else number(game.env_id, field, o, 0, ns - 1) + 1 for o in owners]
        else:
            slot = 1 if perm[e] >= 0 else 0
            v["paths"][e, slot] = number(game.env_id, field, owners, 0, ns - 1) + 1
            if slot == 0:
                v["paths"][e, 1] = 0
        a, b = v["paths"][e]
        if a and a == b:
            raise refuse(game.env_id, field, f"an edge never holds two Paths of one player (seat {a - 1})")
        if perm[e] >= 0 and perm[e] + 1 not in (a, b):
            raise refuse(game.env_id, field, f"edge {e} holds seat {perm[e]}'s permanent Path; keep it in one slot")
    ne = len(game.board.edges)
    for p in range(ns):
        built = ((v["paths"][:ne] == p + 1).any(axis=1) & (perm[:ne] != p)).sum()
        if built > rules.MAX_PATHS + 1:
            raise refuse(
                game.env_id,
                "paths",
                f"seat {p} has {built} Paths; a player has {rules.MAX_PATHS} "
                f"(one more only while the 21st Path rule asks which to remove)",
            )
        v["npaths"][p] = built
    v["gatherer"][:] = fresh["gatherer"]  # at the Colony (the absent seats' as dealt)
    for p, where in per_seat(game.env_id, "gatherers", d["gatherers"], ns).items():
        if not isinstance(where, (list, tuple)) or len(where) > 3:
            raise refuse(
                game.env_id,
                f"gatherers[{p}]",
                f"a player has 3 gatherers: a list of locations (None: at the Colony), got {where!r}",
            )
        for i, g in enumerate(where):
            v["gatherer"][p, i] = -1 if g is None else _location(game, f"gatherers[{p}][{i}]", g)


def _tokens(game: MyceliumGame, v: dict, d: dict) -> None:
    """Spore, Nutrient and combat tokens on mats and locations (within the game's supplies)."""
    ns = game.num_seats
    for field, (slot, most) in PER_SEAT.items():
        for p, n in per_seat(game.env_id, field, d[field], ns).items():
            v[slot][p] = number(game.env_id, f"{field}[{p}]", n, 0, most)
    for field, (slot, most) in PER_LOCATION.items():
        given = d[field] or {}
        if not isinstance(given, Mapping):
            raise refuse(game.env_id, field, f"must be a dict {{location: n}}, got {given!r}")
        for g, n in given.items():
            g = index_of(game.env_id, field, g, game.board.gloc_names, "location")
            v[slot][g] = number(game.env_id, f"{field}[{game.board.gloc_names[g]}]", n, 0, most)
    if d["spores"] is None and d["location_spores"] is None:  # the set-up: 3 on each mat and in each cave
        v["mat_spores"][:ns] = 3
        v["loc_spores"][game.config[rules.CFG_CAVE : rules.CFG_CAVE + ns]] = 3
    for what, total, most in (
        ("Spore", v["mat_spores"].sum() + v["loc_spores"].sum(), rules.SPORE_TOKENS),
        ("Nutrient", v["mat_nut"].sum() + v["loc_nut"].sum(), rules.NUTRIENT_TOKENS),
        ("combat", v["ctok"].sum(), rules.COMBAT_TOKENS),
    ):
        if total > most:
            raise refuse(
                game.env_id, f"{what.lower()} tokens", f"{int(total)} {what} Tokens placed; the game has {most}"
            )


def _turn(game: MyceliumGame, v: dict, d: dict) -> None:
    """Whose turn, the phase and its counters, the end of the game and the decision stack."""
    ns = game.num_seats
    tp = number(game.env_id, "turn_player", d["turn_player"], 0, ns - 1)
    v["turn_player"][...] = tp
    v["first_player"][...] = number(
        game.env_id, "first_player", tp if d["first_player"] is None else d["first_player"], 0, ns - 1
    )
    v["phase"][...] = index_of(game.env_id, "phase", d["phase"], PHASES, "phase")
    v["turn"][...] = number(game.env_id, "turn", d["turn"], 0, 240)
    v["placed"][...] = number(game.env_id, "placed", d["placed"], 0, 2)
    v["actions_used"][...] = number(game.env_id, "actions_used", d["actions_used"], 0, rules.MAX_ACTIONS_PER_TURN)
    v["last_hand"][...] = number(game.env_id, "last_hand", d["last_hand"], 0, rules.NUM_MUSHLING_CARDS)
    v["last_edge"][...] = -1 if d["last_edge"] is None else _edge(game, "last_edge", d["last_edge"])
    v["done"][...] = index_of(game.env_id, "done", d["done"], DONE, "end")
    if (v["done"] != 0) != (v["phase"] == rules.PH_OVER):
        raise refuse(
            game.env_id,
            "done",
            f"phase 'over' goes with done 'rules' or 'turn_limit' (and only with them); "
            f"got phase {d['phase']!r}, done {d['done']!r}",
        )
    v["winner"][...] = -1 if d["winner"] is None else number(game.env_id, "winner", d["winner"], 0, ns - 1)
    bits = 0
    for j, p in enumerate(d["birds_nest_played"]):
        bits |= 1 << number(game.env_id, f"birds_nest_played[{j}]", p, 0, ns - 1)
    v["bn_played"][...] = bits
    bits = 0
    for j, g in enumerate(d["birds_nest_trees"]):
        bits |= 1 << index_of(game.env_id, f"birds_nest_trees[{j}]", g, game.board.gloc_names, "location")
    v["bn_trigger"][...] = bits
    entries = stack_entries(
        game.env_id, d["pending"] or [], KINDS, ns, v["decisions"].shape[1] - 2, v["decisions"].shape[0]
    )
    for i, e in enumerate(entries):
        v["decisions"][i] = e
    v["decisions_n"][...] = len(entries)


def _combat(game: MyceliumGame, v: dict, d: dict) -> None:
    """The combat in progress (its two face-down cards are placed with the other mushlings)."""
    ns = game.num_seats
    c = d["combat"]
    v["c_card"][:] = -1
    v["c_repl"][:] = -1
    v["c_att"][...] = v["c_def"][...] = v["c_edge"][...] = v["c_winner"][...] = -1
    if c is None:
        return
    if not isinstance(c, Mapping):
        raise refuse(game.env_id, "combat", f"must be None or a dict with keys {list(COMBAT_KEYS)}, got {c!r}")
    bad = sorted(set(c) - set(COMBAT_KEYS))
    if bad:
        raise refuse(game.env_id, "combat", f"unknown key(s) {bad}; valid keys are {list(COMBAT_KEYS)}")
    names = game.mushlings.names
    active = bool(c.get("active", True))
    v["c_active"][...] = int(active)
    for key, slot in (("attacker", "c_att"), ("defender", "c_def")):
        x = c.get(key, None if active else -1)
        v[slot][...] = -1 if x == -1 and not active else number(game.env_id, f"combat {key}", x, 0, ns - 1)
    x = c.get("edge", None if active else -1)
    v["c_edge"][...] = -1 if x == -1 and not active else _edge(game, "combat edge", x)
    for key, slot in (("cards", "c_card"), ("replaced", "c_repl")):
        pair = c.get(key, (None, None))
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise refuse(
                game.env_id, f"combat {key}", f"one card (kind or None) per side, attacker first, got {pair!r}"
            )
        v[slot][:] = [-1 if k is None else index_of(game.env_id, f"combat {key}", k, names, "kind") for k in pair]
    for key, slot, most in (("bonus", "c_bonus", 2**31), ("no_thief", "c_nothief", 1)):
        pair = c.get(key, (0, 0))
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise refuse(game.env_id, f"combat {key}", f"one number per side, attacker first, got {pair!r}")
        v[slot][:] = [number(game.env_id, f"combat {key}", x, 0, most) for x in pair]
    v["c_defended"][...] = number(game.env_id, "combat defended", int(c.get("defended", 0)), 0, 1)
    v["c_revealed"][...] = number(game.env_id, "combat revealed", int(c.get("revealed", 0)), 0, 1)
    v["c_stage"][...] = index_of(game.env_id, "combat stage", c.get("stage", "reveal"), STAGES, "stage")
    v["c_sub"][...] = number(game.env_id, "combat sub", c.get("sub", 0), 0, 2)
    v["c_passes"][...] = number(game.env_id, "combat passes", c.get("passes", 0), 0, 2**31)
    v["c_next"][...] = number(game.env_id, "combat next", c.get("next", 0), 0, ns - 1)
    w = c.get("winner")
    v["c_winner"][...] = -1 if w is None else number(game.env_id, "combat winner", w, 0, 1)


def _mushlings(game: MyceliumGame, v: dict, d: dict) -> None:
    """Hands, what each player knows of them, the public piles, then the deck: every card of the
    54 somewhere (the public set on top of the deck kept)."""
    ns = game.num_seats
    names = game.mushlings.names
    copies = np.asarray(game.mushlings.copies, np.int64)
    placed = np.zeros(len(names), np.int64)
    where: dict[int, list[str]] = {}

    def use(field: str, kinds: np.ndarray) -> None:
        for k in np.flatnonzero(kinds):
            where.setdefault(int(k), []).append(f"{field} {int(kinds[k])}")
        placed[:] += kinds
        over = np.flatnonzero(placed > copies)
        if len(over):
            k = int(over[0])
            raise refuse(
                game.env_id,
                field,
                f"too many {names[k]}: the game has {int(copies[k])}, the description places "
                f"{int(placed[k])} ({', '.join(where[k])})",
            )

    for p, held in per_seat(game.env_id, "hands", d["hands"], ns).items():
        v["hand"][p] = counts(game.env_id, f"hands[{p}]", held, names, "kind")
        use(f"hands[{p}]", v["hand"][p])
    for viewer, by_holder in per_seat(game.env_id, "known", d["known"], ns).items():
        for holder, kinds in per_seat(game.env_id, f"known[{viewer}]", by_holder, ns).items():
            v["known"][viewer, holder] = counts(game.env_id, f"known[{viewer}][{holder}]", kinds, names, "kind")
            if (v["known"][viewer, holder] > v["hand"][holder]).any():
                raise refuse(
                    game.env_id,
                    f"known[{viewer}][{holder}]",
                    f"player {viewer} cannot know of cards player {holder} does not hold",
                )
    for field, slot in PUBLIC_KINDS.items():
        v[slot][:] = counts(game.env_id, field, d[field], names, "kind")
        use(field, v[slot])
    for slot in ("c_card", "c_repl"):
        use(f"combat {slot[2:]}", np.bincount(v[slot][v[slot] >= 0], minlength=len(names)))
    left = copies - placed
    top = counts(game.env_id, "deck_top", d["deck_top"], names, "kind")
    n_top = number(game.env_id, "deck_top_n", d["deck_top_n"], 0, int(top.sum()))
    if d["deck"] is not None:
        deck = exact_pile(game.env_id, "deck", d["deck"], names, left, "kind")
    else:
        can = np.minimum(top, left)
        if n_top > can.sum():
            raise refuse(
                game.env_id,
                "deck_top_n",
                f"{n_top} cards of the set on top, but only {int(can.sum())} of them are not placed elsewhere",
            )
        on_top = shuffled([k for k in range(len(names)) for _ in range(can[k])], d["seed"])[:n_top]
        rest = left - np.bincount(on_top, minlength=len(names)) if on_top else left
        deck = shuffled([k for k in range(len(names)) for _ in range(rest[k])], d["seed"]) + on_top
    v["deck"][: len(deck)] = deck
    v["deck_n"][...] = len(deck)
    v["deck_top"][:] = top
    v["deck_top_n"][...] = n_top


def _nutrients(game: MyceliumGame, v: dict, d: dict) -> None:
    """The nutrient discard pile and deck (the Witch's Hat set on top and the seen positions kept)."""
    names = game.nutrients.names
    nn = int(game.config[rules.CFG_NNUT])
    in_play = np.bincount(game.config[rules.CFG_NUT_DECK : rules.CFG_NUT_DECK + nn], minlength=len(names))
    v["ndiscard"][: len(names)] = counts(game.env_id, "nutrient_discard", d["nutrient_discard"], names, "nutrient card")
    left = in_play - v["ndiscard"][: len(names)]
    if (left < 0).any():
        k = int(np.flatnonzero(left < 0)[0])
        raise refuse(game.env_id, "nutrient_discard", f"too many {names[k]}: the game has {int(in_play[k])}")
    top = counts(game.env_id, "nutrient_top", d["nutrient_top"], names, "nutrient card")
    seen = {}
    for p, by_pos in per_seat(game.env_id, "nutrients_seen", d["nutrients_seen"], game.num_seats).items():
        for pos, k in dict(by_pos).items():
            pos = number(game.env_id, f"nutrients_seen[{p}] position", pos, 0, int(left.sum()) - 1)
            k = index_of(game.env_id, f"nutrients_seen[{p}][{pos}]", k, names, "nutrient card")
            if seen.get(pos, k) != k:
                raise refuse(
                    game.env_id, f"nutrients_seen[{p}][{pos}]", f"another player saw a {names[seen[pos]]} there"
                )
            seen[pos] = k
            v["nseen"][p, pos] = 1
    if d["nutrient_deck"] is not None:
        deck = exact_pile(game.env_id, "nutrient_deck", d["nutrient_deck"], names, left, "nutrient card")
    else:
        deck = _nutrient_deck(game.env_id, left, top, seen, d["seed"], names)
    v["ndeck"][: len(deck)] = deck
    v["ndeck_n"][...] = len(deck)
    v["ndeck_top"][: len(names)] = top
    v["ndeck_top_n"][...] = int(top.sum())


def _nutrient_deck(env: str, left: np.ndarray, top: np.ndarray, seen: dict, seed: int, names) -> list[int]:
    """The cards ``left`` in a deck with the set ``top`` on top and the ``seen`` positions as seen."""
    n, nt = int(left.sum()), int(top.sum())
    deck: list[int | None] = [None] * n
    for pos, k in seen.items():
        deck[pos] = k
    rest = left.copy()
    for k in seen.values():
        rest[k] -= 1
    top_rest = top.copy()
    for pos in range(n - nt, n):
        if deck[pos] is not None:
            top_rest[deck[pos]] -= 1
    if (rest < 0).any() or (top_rest < 0).any() or (top_rest > rest).any():
        raise refuse(
            env,
            "nutrients_seen",
            f"the cards seen and the set on top do not fit the nutrient deck {named_counts(left, names)}",
        )
    pool_top = shuffled([k for k in range(len(rest)) for _ in range(top_rest[k])], seed)
    for k in pool_top:
        rest[k] -= 1
    pool = shuffled([k for k in range(len(rest)) for _ in range(rest[k])], seed)
    for pos in range(n):
        if deck[pos] is None:
            deck[pos] = pool_top.pop() if pos >= n - nt else pool.pop()
    return [int(k) for k in deck]


def _variants(game: MyceliumGame, v: dict, d: dict, fresh: dict) -> None:
    """Emsporium items, Hero Tavern heroes and Legends deals, the team's Trade and gathering."""
    ns = game.num_seats
    on = {"items": bool(game.options["emsporium"]), "heroes": bool(game.tavern_on), "team": bool(game.team_rules)}
    for field, variant, option in (
        ("items", "items", "emsporium"),
        ("shop", "items", "emsporium"),
        ("item_deck", "items", "emsporium"),
        ("heroes", "heroes", "hero_tavern"),
        ("hero_up", "heroes", "hero_tavern"),
        ("legend_deal", "heroes", "legends"),
        ("hero_deck", "heroes", "hero_tavern"),
        ("gather_take", "team", "team"),
    ):
        if d[field] is not None and not on[variant]:
            raise refuse(game.env_id, field, f"only with the {option} variant ({option}=True)")
    for field in ("trade_used", "trade_offers"):
        if d[field] and not on["team"]:
            raise refuse(game.env_id, field, "only with the team variant (team=True)")
    if d["legend_deal"] is not None and not game.options["legends"]:
        raise refuse(game.env_id, "legend_deal", "only with the legends variant (legends=True)")
    v["shop"][:] = -1
    v["hero_up"][:] = -1
    v["legend_deal"][:] = -1
    v["gather_take"][:] = fresh["gather_take"]
    v["trade_used"][...] = number(game.env_id, "trade_used", int(d["trade_used"]), 0, 1)
    offer_kinds = list(game.mushlings.names) + ["Spore Token"]
    v["trade_offers"][...] = sum(
        1 << index_of(game.env_id, "trade_offers", k, offer_kinds, "kind") for k in set(d["trade_offers"] or ())
    )
    if on["items"]:
        _cards_of(game.env_id, v, d, "items", "shop", "item_deck", game.items.names, 2, ns, fresh)
    if on["heroes"]:
        _cards_of(game.env_id, v, d, "heroes", "hero_up", "hero_deck", game.heroes.names, 1, ns, fresh)
    if on["team"]:
        for g, n in dict(d["gather_take"] or {}).items():
            g = index_of(game.env_id, "gather_take", g, game.board.gloc_names, "location")
            v["gather_take"][g] = number(game.env_id, f"gather_take[{g}]", n, -1, rules.MAX_GATHER_TAKE)


def _cards_of(
    env: str, v: dict, d: dict, owned: str, face_up: str, deck_field: str, names, per: int, ns: int, fresh: dict
) -> None:
    """Items or heroes: owned (counts or a list), face up, dealt (Legends), the deck the rest."""
    left = np.full(len(names), per, np.int64)

    def use(field: str, k: int) -> None:
        left[k] -= 1
        if left[k] < 0:
            raise refuse(env, field, f"too many {names[k]}: the game has {per}")

    given_owned = d[owned]
    if given_owned is None and d[face_up] is None and d[deck_field] is None and d["legend_deal"] is None:
        given_owned, up = {}, [None if x < 0 else int(x) for x in fresh[face_up]]  # as dealt
        deal = (
            {p: [None if x < 0 else int(x) for x in fresh["legend_deal"][p]] for p in range(ns)}
            if owned == "heroes"
            else {}
        )
    else:
        up = d[face_up] or [None] * v[face_up].shape[0]
        deal = per_seat(env, "legend_deal", d["legend_deal"], ns) if owned == "heroes" else {}
    for p, held in per_seat(env, owned, given_owned, ns).items():
        v[owned][p] = counts(env, f"{owned}[{p}]", held, names, owned[:-1])
        for k in np.flatnonzero(v[owned][p]):
            for _ in range(int(v[owned][p, k])):
                use(f"{owned}[{p}]", int(k))
    if not isinstance(up, (list, tuple)) or len(up) != v[face_up].shape[0]:
        raise refuse(env, face_up, f"must be {v[face_up].shape[0]} slots ({owned[:-1]} or None), got {up!r}")
    for j, x in enumerate(up):
        if x is not None:
            v[face_up][j] = index_of(env, f"{face_up}[{j}]", x, names, owned[:-1])
            use(f"{face_up}[{j}]", int(v[face_up][j]))
    for p, pair in deal.items():
        for k, x in enumerate(pair):
            if x is not None:
                v["legend_deal"][p, k] = index_of(env, f"legend_deal[{p}][{k}]", x, names, "hero")
                use(f"legend_deal[{p}]", int(v["legend_deal"][p, k]))
    if d[deck_field] is not None:
        deck = exact_pile(env, deck_field, d[deck_field], names, left, owned[:-1])
    else:
        deck = shuffled([k for k in range(len(names)) for _ in range(left[k])], d["seed"])
    v[deck_field][: len(deck)] = deck
    v[f"{deck_field}_n"][...] = len(deck)


# --- describe: the inverse ------------------------------------------------------------------
def describe(game: MyceliumGame, state: np.ndarray, hidden: bool = False) -> dict[str, Any]:
    """The description of ``state`` that :func:`state_from` reads back into the same position.

    The hidden piles (mushling, nutrient, item and hero decks) are written only with
    ``hidden=True``; without them ``state_from`` deals them afresh, keeping everything any player
    knows of them (the public sets on top, the seen positions)."""
    game.validate(state)
    v = rules.STATE.arrays(np.asarray(state).astype(np.int64))
    ns, ne = game.num_seats, len(game.board.edges)
    names, nut = game.mushlings.names, game.nutrients.names
    locs = _locations(game)
    perm = game.board.permanent

    def loc_name(g: int):
        return None if g < 0 else locs[len(game.board.gloc_names) if g == rules.TAVERN else g]

    def slots(e: int) -> list:
        return [None if o == 0 else int(o) - 1 for o in v["paths"][e]]

    out: dict[str, Any] = {
        "paths": {
            e: slots(e)
            for e in range(ne)
            if v["paths"][e].any() and slots(e) != [int(perm[e]) if perm[e] >= 0 else None, None]
        },
        "gatherers": {p: [loc_name(int(g)) for g in v["gatherer"][p]] for p in range(ns)},
        "hands": {p: named_counts(v["hand"][p], names) for p in range(ns)},
        "known": {
            a: {b: named_counts(v["known"][a, b], names) for b in range(ns) if v["known"][a, b].any()}
            for a in range(ns)
            if v["known"][a].any()
        },
        **{field: named_counts(v[slot], names) for field, slot in PUBLIC_KINDS.items()},
        "nutrient_discard": named_counts(v["ndiscard"][: len(nut)], nut),
        **{field: {p: int(v[slot][p]) for p in range(ns)} for field, (slot, _) in PER_SEAT.items()},
        **{
            field: {game.board.gloc_names[g]: int(x) for g, x in enumerate(v[slot][: len(game.board.gloc_names)]) if x}
            for field, (slot, _) in PER_LOCATION.items()
        },
        "phase": PHASES[int(v["phase"])],
        "turn_player": int(v["turn_player"]),
        "first_player": int(v["first_player"]),
        "turn": int(v["turn"]),
        "placed": int(v["placed"]),
        "actions_used": int(v["actions_used"]),
        "last_hand": int(v["last_hand"]),
        "last_edge": None if v["last_edge"] < 0 else int(v["last_edge"]),
        "done": DONE[int(v["done"])],
        "winner": None if v["winner"] < 0 else int(v["winner"]),
        "birds_nest_played": [p for p in range(ns) if int(v["bn_played"]) >> p & 1],
        "birds_nest_trees": [
            game.board.gloc_names[g] for g in range(len(game.board.gloc_names)) if int(v["bn_trigger"]) >> g & 1
        ],
        "combat": _describe_combat(v, names),
        "pending": describe_stack(v["decisions"], int(v["decisions_n"]), KINDS),
        "deck_top": named_counts(v["deck_top"], names),
        "deck_top_n": int(v["deck_top_n"]),
        "nutrient_top": named_counts(v["ndeck_top"][: len(nut)], nut),
        "nutrients_seen": {
            p: {pos: nut[int(v["ndeck"][pos])] for pos in np.flatnonzero(v["nseen"][p])}
            for p in range(ns)
            if v["nseen"][p].any()
        },
    }
    if game.options["emsporium"]:
        out["items"] = {p: named_counts(v["items"][p], game.items.names) for p in range(ns)}
        out["shop"] = [None if x < 0 else game.items.names[x] for x in v["shop"]]
    if game.tavern_on:
        hn = game.heroes.names
        out["heroes"] = {p: [hn[h] for h in np.flatnonzero(v["heroes"][p])] for p in range(ns)}
        out["hero_up"] = [None if x < 0 else hn[x] for x in v["hero_up"]]
        if game.options["legends"]:
            out["legend_deal"] = {p: [None if x < 0 else hn[x] for x in v["legend_deal"][p]] for p in range(ns)}
    if game.team_rules:
        out["trade_used"] = int(v["trade_used"])
        offer_kinds = list(names) + ["Spore Token"]
        out["trade_offers"] = [offer_kinds[k] for k in range(len(offer_kinds)) if (int(v["trade_offers"]) >> k) & 1]
        out["gather_take"] = {
            game.board.gloc_names[g]: int(x) for g, x in enumerate(v["gather_take"][: len(game.board.gloc_names)])
        }
    if hidden:
        out["deck"] = [names[k] for k in v["deck"][: int(v["deck_n"])]]
        out["nutrient_deck"] = [nut[k] for k in v["ndeck"][: int(v["ndeck_n"])]]
        if game.options["emsporium"]:
            out["item_deck"] = [game.items.names[k] for k in v["item_deck"][: int(v["item_deck_n"])]]
        if game.tavern_on:
            out["hero_deck"] = [game.heroes.names[k] for k in v["hero_deck"][: int(v["hero_deck_n"])]]
    return out


def _describe_combat(v: dict, names) -> dict | None:
    """The combat fields; None when idle (no combat, and none of the last one's marks left)."""
    idle = {"c_att": -1, "c_def": -1, "c_edge": -1, "c_card": -1, "c_repl": -1, "c_winner": -1}
    if not any(
        (np.asarray(v[f"c_{k}"]) != idle.get(f"c_{k}", 0)).any()
        for k in (
            "active",
            "att",
            "def",
            "edge",
            "card",
            "repl",
            "bonus",
            "nothief",
            "defended",
            "revealed",
            "stage",
            "sub",
            "passes",
            "next",
            "winner",
        )
    ):
        return None

    def kind(x: int):
        return None if x < 0 else names[x]

    return {
        "active": bool(v["c_active"]),
        "attacker": int(v["c_att"]),
        "defender": int(v["c_def"]),
        "edge": int(v["c_edge"]),
        "cards": [kind(int(x)) for x in v["c_card"]],
        "replaced": [kind(int(x)) for x in v["c_repl"]],
        "bonus": [int(x) for x in v["c_bonus"]],
        "no_thief": [int(x) for x in v["c_nothief"]],
        "defended": int(v["c_defended"]),
        "revealed": int(v["c_revealed"]),
        "stage": STAGES[int(v["c_stage"])],
        "sub": int(v["c_sub"]),
        "passes": int(v["c_passes"]),
        "next": int(v["c_next"]),
        "winner": None if v["c_winner"] < 0 else int(v["c_winner"]),
    }


__all__ = ["FIELDS", "KINDS", "describe", "state_from"]
