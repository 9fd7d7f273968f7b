"""The state header: a few words at the end of every state naming whose state it is.

Every state carries :data:`HEADER_WORDS` words after the game's own slots (so no
field offset moves and no kernel changes)::

    word 0      game id              15 bits of a hash of the env id
    words 1, 2  options fingerprint  30 bits of a hash of the options and the config table
                                     (player count, variants, card data)
    word 3      layout version       15 bits of a hash of the state layout (field names,
                                     offsets, shapes), its size and the game's ``state_version``

Each word holds 15 bits, so the header fits any signed state dtype from int16 up.
:class:`mushgym.Game` appends the header to its config table; the game's ``init`` is
wrapped (by the generated loops, :func:`mushgym.core.generated_loops`) so that every deal
inside the batch loops copies it from the config's tail into the state's tail
(:func:`stamp_header`). :meth:`mushgym.Game.validate` checks it on every state coming
in from Python, as the exact bounds of the last slots: a state of another game, of
other options (another player count) or of another layout version is refused with
an error saying which (:func:`header_mismatch`).
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from numba import njit

HEADER_WORDS = 4
WORD_BITS = 15
WORD_MASK = (1 << WORD_BITS) - 1
GAME_ID, OPTIONS_A, OPTIONS_B, LAYOUT_VERSION = range(HEADER_WORDS)


def _hash(*parts: Any) -> int:
    h = hashlib.blake2b(digest_size=8)
    for p in parts:
        h.update(p if isinstance(p, bytes) else repr(p).encode())
        h.update(b"\x00")
    return int.from_bytes(h.digest(), "little")


def game_id_word(env_id: str) -> int:
    return _hash("mushgym-game", env_id) & WORD_MASK


def options_fingerprint(env_id: str, options: dict, config: np.ndarray) -> int:
    """30 bits of the options and the config table they build (card data included)."""
    return _hash(
        "mushgym-options",
        env_id,
        sorted((k, repr(v)) for k, v in options.items()),
        np.ascontiguousarray(config, np.int64).tobytes(),
    ) & ((1 << (2 * WORD_BITS)) - 1)


def layout_version(layout: Any, body_size: int, state_version: int) -> int:
    fields = [(f.name, f.offset, f.shape) for f in layout.fields.values()] if layout is not None else None
    return _hash("mushgym-layout", fields, body_size, state_version) & WORD_MASK


def make_header(
    env_id: str, options: dict, config: np.ndarray, layout: Any, body_size: int, state_version: int
) -> np.ndarray:
    fp = options_fingerprint(env_id, options, config)
    return np.array(
        [game_id_word(env_id), fp & WORD_MASK, fp >> WORD_BITS, layout_version(layout, body_size, state_version)],
        np.int64,
    )


@njit(cache=True)
def stamp_header(state, cfg):
    """Copy the header kept in ``cfg``'s last words into ``state``'s last words."""
    n = state.shape[0]
    c = cfg.shape[0]
    for k in range(HEADER_WORDS):
        state[n - HEADER_WORDS + k] = cfg[c - HEADER_WORDS + k]


#: wraps a game kernel module's ``init`` (in its generated loops, :func:`mushgym.core.batch.loops_source`)
INIT_SOURCE = '''
@njit(cache=True)
def init(state, seed, cfg, work):
    """The game's own ``init`` (``_game_init``), then the state header (mushgym.core.header)."""
    _game_init(state, seed, cfg, work)
    _stamp_header(state, cfg)
'''


def header_mismatch(game: Any, found: np.ndarray, env_ids: tuple[str, ...] = ()) -> str:
    """Why the header words ``found`` are not ``game``'s (an empty string if they are);
    ``env_ids`` are the games a foreign game id is looked up among."""
    want = game.header
    found = [int(x) for x in found]
    if found[GAME_ID] != int(want[GAME_ID]):
        other = next((e for e in env_ids if game_id_word(e) == found[GAME_ID]), None)
        if other:
            return f"a state of {other}, not of {game.env_id}"
        return f"not a state of {game.env_id} nor of any mushgym game (no valid header: a corrupted or foreign array?)"
    if found[OPTIONS_A : OPTIONS_B + 1] != [int(want[OPTIONS_A]), int(want[OPTIONS_B])]:
        other = _options_named(game, found[OPTIONS_A] | (found[OPTIONS_B] << WORD_BITS))
        what = f"options {other}" if other else "other options or card data"
        return (
            f"a state of {game.env_id} dealt with {what}; this game has options {game.options} "
            "(a state belongs to the game that dealt it)"
        )
    if found[LAYOUT_VERSION] != int(want[LAYOUT_VERSION]):
        return (
            f"a state of another version of {game.env_id}'s state layout (layout version "
            f"{found[LAYOUT_VERSION]}, this one is {int(want[LAYOUT_VERSION])}), or a corrupted header: "
            "states are not portable across versions of the library"
        )
    return ""


def _options_named(game: Any, fingerprint: int, limit: int = 256) -> dict | None:
    """The option set of ``game``'s class whose fingerprint is ``fingerprint``, or None: first the
    sets that change one option of ``game``'s, then (for at most ``limit`` combinations of the
    declared choices) every combination."""
    import itertools

    names = list(game.option_choices)
    one_change = ({**game.options, n: v} for n in names for v in game.option_choices[n] if v != game.options.get(n))
    combos = 1
    for n in names:
        combos *= len(game.option_choices[n])
    every = (dict(zip(names, values)) for values in itertools.product(*(game.option_choices[n] for n in names)))
    tried = [game.options]
    for options in itertools.chain(one_change, every if combos <= limit else ()):
        if options in tried:  # (the one-option changes come again in the full product)
            continue
        tried.append(options)
        try:
            other = type(game)(**options)
        except Exception:  # noqa: BLE001 - an invalid combination
            continue
        if (int(other.header[OPTIONS_A]) | (int(other.header[OPTIONS_B]) << WORD_BITS)) == fingerprint:
            return {k: v for k, v in options.items() if v != game.options.get(k)}
    return None
    for values in itertools.product(*(game.option_choices[n] for n in names)):
        options = dict(zip(names, values))
        if options == game.options:
            continue
        try:
            other = type(game)(**options)
        except Exception:  # noqa: BLE001 - an invalid combination
            continue
        if (int(other.header[OPTIONS_A]) | (int(other.header[OPTIONS_B]) << WORD_BITS)) == fingerprint:
            return {k: v for k, v in options.items() if v != game.options.get(k)}
    return None
