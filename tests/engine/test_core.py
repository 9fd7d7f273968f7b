"""The game-independent core: layout, in-state generator, piles, option validation, the Game API."""

import numpy as np
import pytest

from mushgym.core import (
    RNG_SLOTS,
    RNG_WORDS,
    Layout,
    canonical_shuffle,
    canonical_shuffle_around,
    count_by_type,
    pile_draw,
    pile_push,
    pile_push_bottom,
    pile_remove_at,
    reshuffle_into,
    rng_below,
    rng_next32,
    rng_seed,
    shuffle_cards,
    shuffle_range,
)
from mushgym.core.rng import mix32, mul32
from mushgym.game import validate_options


def test_layout_offsets_are_consecutive_and_named():
    L = Layout()
    a = L.scalar("a")
    b = L.array("b", 3)
    c = L.scalar("c")
    assert (a, b, c, L.size) == (0, 1, 4, 5)
    state = L.new_state()
    state[b : b + 3] = [7, 8, 9]
    assert L.view(state) == {"a": 0, "b": [7, 8, 9], "c": 0}
    with pytest.raises(ValueError, match="declared twice"):
        L.scalar("a")
    with pytest.raises(ValueError, match="positive length"):
        L.array("z", 0)
    with pytest.raises(ValueError, match="slots"):
        L.view(np.zeros(3, np.int64))


def test_mul32_matches_modular_arithmetic():
    rng = np.random.default_rng(0)
    for a, b in rng.integers(0, 2**32, size=(200, 2)):
        assert mul32(np.int64(a), np.int64(b)) == (int(a) * int(b)) % 2**32
    assert mix32(0) == 0 and mix32(1) != 1


def _stream(seed, n, compiled=True):
    state = np.zeros(RNG_WORDS, np.int64)
    seed_fn = rng_seed if compiled else rng_seed.py_func
    next_fn = rng_next32 if compiled else rng_next32.py_func
    seed_fn(state, 0, np.int64(seed))
    return [int(next_fn(state, 0)) for _ in range(n)]


def test_generator_is_deterministic_and_same_without_jit():
    assert _stream(42, 50) == _stream(42, 50)
    assert _stream(42, 50) != _stream(43, 50)
    assert _stream(2**62 + 5, 20, compiled=True) == _stream(2**62 + 5, 20, compiled=False)


@pytest.mark.parametrize("dtype", [np.int32, np.int16])
def test_generator_in_narrow_words_gives_the_same_stream_compiled_or_not(dtype):
    """A game whose vector states are int32 or int16 keeps its generator's words there, bit
    for bit (int16: two slots per word, low half first)."""
    for compiled in (True, False):
        seed_fn = rng_seed if compiled else rng_seed.py_func
        next_fn = rng_next32 if compiled else rng_next32.py_func
        wide, narrow = np.zeros(RNG_SLOTS, np.int64), np.zeros(RNG_SLOTS, dtype)
        seed_fn(wide, 0, np.int64(99))
        seed_fn(narrow, 0, np.int64(99))
        seen_negative = False
        for _ in range(200):
            assert next_fn(wide, 0) == next_fn(narrow, 0)
            n = narrow.astype(np.int64)
            seen_negative |= bool((n < 0).any())
            if dtype == np.int32:
                assert np.array_equal(n[:RNG_WORDS] & 0xFFFFFFFF, wide[:RNG_WORDS])
            else:
                assert np.array_equal((n[0::2] & 0xFFFF) | ((n[1::2] & 0xFFFF) << 16), wide[:RNG_WORDS])
            assert not wide[RNG_WORDS:].any()
        assert seen_negative  # words with the top bit set were stored and read back


def test_layout_vector_dtype_checks_bounds_and_converts():
    lay = Layout("state", vector_dtype=np.int32, words32=("rng",))
    lay.field("rng", 4, low=0, high=2**32 - 1)
    lay.field("score", low=0, high=2**31 - 1)
    lay.check_vector_dtype()
    s = np.array([2**32 - 1, 0, 2**31, 5, 2**31 - 1], np.int64)
    assert np.array_equal(lay.from_vector(lay.to_vector(s)), s)
    with pytest.raises(ValueError, match="score"):
        lay.to_vector(np.array([0, 0, 0, 0, 2**31], np.int64))
    lay.bound("score", high=2**31)
    with pytest.raises(ValueError, match="score"):
        lay.check_vector_dtype()
    with pytest.raises(ValueError, match="int64"):
        Layout("state", vector_dtype=np.int8)
    small = Layout("state", vector_dtype=np.int16, words32=("rng",))
    small.field("rng", RNG_SLOTS, low=0, high=np.array([2**32 - 1] * RNG_WORDS + [0] * RNG_WORDS))
    small.field("count", low=0, high=100)
    small.check_vector_dtype()
    s = np.array([2**32 - 1, 0, 2**31, 5, 0, 0, 0, 0, 77], np.int64)
    assert small.to_vector(s).dtype == np.int16
    assert np.array_equal(small.from_vector(small.to_vector(np.stack([s, s]))), np.stack([s, s]))
    with pytest.raises(ValueError, match="count"):
        small.to_vector(np.array([0] * 8 + [40000], np.int64))


def test_generator_words_live_in_the_state_so_copy_clones_the_future():
    state = np.zeros(RNG_WORDS, np.int64)
    rng_seed(state, 0, 7)
    rng_next32(state, 0)
    clone = state.copy()
    assert [rng_next32(state, 0) for _ in range(5)] == [rng_next32(clone, 0) for _ in range(5)]


def test_rng_below_is_roughly_uniform():
    state = np.zeros(RNG_WORDS, np.int64)
    rng_seed(state, 0, 1)
    counts = np.bincount([rng_below(state, 0, 6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_400 and counts.max() < 10_600  # 10k expected, > 6 sigma margin
    assert all(0 <= rng_below(state, 0, 1) < 1 for _ in range(100))


def test_shuffle_is_a_permutation_and_depends_on_seed():
    L = Layout()
    rng = L.array("rng", RNG_WORDS)
    deck = L.array("deck", 20)
    perms = set()
    for seed in range(30):
        s = L.new_state()
        rng_seed(s, rng, seed)
        s[deck : deck + 20] = np.arange(20)
        shuffle_range(s, deck, 20, rng)
        assert sorted(s[deck : deck + 20]) == list(range(20))
        perms.add(tuple(s[deck : deck + 20]))
    assert len(perms) == 30


def _generator(seed):
    gen = np.zeros(RNG_SLOTS, np.int64)
    rng_seed(gen, 0, seed)
    return gen


def _fisher_yates(cards, gen):
    """The textbook shuffle, drawing i = n-1 .. 1 from the generator: what every pile kernel must match."""
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = rng_below(gen, 0, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_canonical_shuffle_depends_only_on_the_cards_and_draws_as_fisher_yates():
    rng = np.random.default_rng(3)
    for trial in range(60):
        n = int(rng.integers(0, 30))
        cards = rng.integers(0, 8, n)
        expected = _fisher_yates(sorted(cards), _generator(trial))
        for order in range(3):  # the same cards in any order: the same redraw
            buf = np.full(n + 6, -9, np.int64)
            buf[3 : 3 + n] = rng.permutation(cards)
            gen = _generator(trial)
            canonical_shuffle(buf, 3, n, gen, 0)
            assert list(buf[3 : 3 + n]) == expected and (buf[:3] == -9).all() and (buf[3 + n :] == -9).all()
            assert np.array_equal(gen, _generator_after(trial, max(n - 1, 0)))  # n - 1 draws, no more


def _generator_after(seed, draws):
    gen = _generator(seed)
    for _ in range(draws):
        rng_next32(gen, 0)
    return gen


def test_a_pile_with_a_hole_shuffles_around_it():
    rng = np.random.default_rng(4)
    for trial in range(40):
        n, hole, hole_n = int(rng.integers(0, 20)), int(rng.integers(0, 20)), int(rng.integers(0, 5))
        hole = min(hole, n)
        cards = rng.integers(0, 6, n)
        buf = np.concatenate([cards[:hole], 100 + np.arange(hole_n), cards[hole:], [-1]]).astype(np.int64)
        canonical_shuffle_around(buf, 0, n, hole, hole_n, _generator(trial), 0)
        assert list(buf[hole : hole + hole_n]) == list(100 + np.arange(hole_n)) and buf[-1] == -1
        got = list(buf[:hole]) + list(buf[hole + hole_n : hole_n + n])
        assert got == _fisher_yates(sorted(cards), _generator(trial))


def test_shuffle_range_is_the_plain_shuffle_with_the_states_generator():
    state = np.zeros(12 + RNG_SLOTS, np.int64)
    state[:12] = np.arange(12)[::-1]
    rng_seed(state, 12, 5)
    other = state.copy()
    shuffle_range(state, 0, 12, 12)
    shuffle_cards(other, 0, 12, 0, 0, other, 12)
    assert np.array_equal(state, other)
    assert list(state[:12]) == _fisher_yates(list(range(12))[::-1], _generator(5))


def test_piles_push_draw_bottom_remove_and_reshuffle():
    L = Layout()
    rng = L.array("rng", RNG_WORDS)
    deck, deck_n = L.array("deck", 10), L.scalar("deck_n")
    disc, disc_n = L.array("disc", 10), L.scalar("disc_n")
    s = L.new_state()
    rng_seed(s, rng, 3)
    for card in (1, 2, 3):
        pile_push(s, deck, deck_n, card)
    assert pile_draw(s, deck, deck_n) == 3 and s[deck_n] == 2
    pile_push_bottom(s, deck, deck_n, 9)
    assert list(s[deck : deck + 3]) == [9, 1, 2]
    assert pile_remove_at(s, deck, deck_n, 1) == 1 and list(s[deck : deck + 2]) == [9, 2]
    for card in (4, 5, 6):
        pile_push(s, disc, disc_n, card)
    reshuffle_into(s, disc, disc_n, deck, deck_n, rng)
    assert s[disc_n] == 0 and s[deck_n] == 5
    assert sorted(s[deck : deck + 5]) == [2, 4, 5, 6, 9]
    counts = np.zeros(10, np.int64)
    count_by_type(s, deck, 5, counts)
    assert counts[[2, 4, 5, 6, 9]].tolist() == [1, 1, 1, 1, 1]
    assert pile_draw(s, disc, disc_n) == -1


def test_option_validation_names_the_valid_choices():
    choices = {"num_players": (2, 3), "reward": ("win_loss", "score")}
    defaults = {"num_players": 2, "reward": "win_loss"}
    assert validate_options("x_v0", choices, defaults, {"num_players": 3})["num_players"] == 3
    with pytest.raises(ValueError, match=r"invalid player count: 7; valid choices are \[2, 3\]"):
        validate_options("x_v0", choices, defaults, {"num_players": 7})
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['colour'\].*reward=\['win_loss', 'score'\]"):
        validate_options("x_v0", choices, defaults, {"colour": "red"})
    with pytest.raises(ValueError, match=r"option 'reward'"):
        validate_options("x_v0", choices, defaults, {"reward": "elo"})


def test_game_api_rejects_bad_states_seeds_and_players():
    from toygame.game import ToyGame

    game = ToyGame()
    with pytest.raises(TypeError, match="seed must be an integer"):
        game.new_state("abc")
    with pytest.raises(ValueError, match="1-D int64 array"):
        game.legal_mask(np.zeros(3))
    state = game.new_state(1)
    with pytest.raises(ValueError, match="no player 5"):
        game.observe(state, 5)
    with pytest.raises(ValueError, match="illegal action 9"):
        game.step(state, 9)
    while not game.is_terminal(state):
        state = game.step(state, 1)
    with pytest.raises(ValueError, match="game is over"):
        game.step(state, 0)
    assert game.legal_mask(state).sum() == 0
    with pytest.raises(ValueError, match="n_games"):
        game.random_rollouts(0)


def test_game_cache_is_dropped_when_inlined_sources_change(tmp_path):
    from mushgym.core.cache import STAMP_NAME, refresh_game_caches

    game = tmp_path / "somegame"
    (game / "__pycache__").mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "cards.py").write_text("N = 1\n")
    (game / "rules.py").write_text("from numba import njit\nfrom .cards import N\n")
    (game / "render.py").write_text("WIDTH = 100\n")  # pure Python: not a source of the kernels
    cached = game / "__pycache__" / "rules.step-10.py311.nbi"
    cached.write_text("x")
    refresh_game_caches(tmp_path)  # no stamp yet: unknown provenance, dropped
    assert not cached.exists() and (game / "__pycache__" / STAMP_NAME).exists()
    cached.write_text("x")
    refresh_game_caches(tmp_path)  # nothing changed: kept
    assert cached.exists()
    (game / "render.py").write_text("WIDTH = 200\n")  # the picture changed: the kernels did not
    refresh_game_caches(tmp_path)
    assert cached.exists()
    (game / "cards.py").write_text("N = 2\n")  # a constant the kernels inline changed
    refresh_game_caches(tmp_path)
    assert not cached.exists()


def test_cache_follows_imports_at_any_depth_and_into_other_games(tmp_path):
    """A game split into a subpackage, or an expansion importing its base game: an edit to
    any module its kernels import (transitively) drops its cache."""
    from mushgym.core.cache import game_sources, refresh_game_caches

    base = tmp_path / "basegame"
    (base / "board").mkdir(parents=True)
    (base / "__init__.py").write_text("")
    (base / "board" / "__init__.py").write_text("")
    (base / "board" / "geometry.py").write_text("SIDES = 3\n")
    (base / "rules.py").write_text("from .board.geometry import SIDES\n")
    exp = tmp_path / "expansion"
    (exp / "__pycache__").mkdir(parents=True)
    (exp / "__init__.py").write_text("")
    (exp / "rules.py").write_text("from numba import njit\nfrom mushgym.envs.basegame.rules import SIDES\n")
    # resolve mushgym.envs.* against this folder (as MUSHGYM_GAMES_PATH does)
    sources = {p.name for p in game_sources(exp, "mushgym.envs.expansion")}
    assert {"rules.py", "geometry.py", "batch.py", "layout.py"} <= sources
    cached = exp / "__pycache__" / "rules.step-1.py311.nbi"
    refresh_game_caches(tmp_path)
    cached.write_text("x")
    refresh_game_caches(tmp_path)
    assert cached.exists()
    (base / "board" / "geometry.py").write_text("SIDES = 4\n")  # two imports away, in another game
    refresh_game_caches(tmp_path)
    assert not cached.exists()
