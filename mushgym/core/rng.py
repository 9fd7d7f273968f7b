"""A random generator whose words live inside the game state.

xoshiro128** (Blackman and Vigna) on four 32-bit words, each stored in one
``int64`` slot of the state array. Because the generator is part of the state,
``state.copy()`` clones the future of every shuffle and die roll, and a seed
fixes a whole game. The words are seeded by numpy's SeedSequence algorithm
(:func:`rng_seed`); :func:`seed_key` folds any non-negative Python integer into the
63-bit seed the kernels take.

All arithmetic stays below 2**63, so the same code gives the same numbers
compiled by numba and run as plain Python (``NUMBA_DISABLE_JIT=1``): 32-bit
products are formed from 16-bit halves instead of relying on overflow.

The words may also live in a narrower array (a game whose layout declares a narrower
``vector_dtype``, see :class:`mushgym.core.Layout`): in ``int32`` a word is stored as the
signed integer with the same bits; in ``int16`` it takes two slots (low half first), so
such a game reserves :data:`RNG_SLOTS` slots for its generator (the int64 form uses the
first :data:`RNG_WORDS`, the others stay 0). The sequence is the same whatever the width.
"""

from numba import njit

RNG_WORDS = 4
#: slots a generator takes in a state stored as narrow as int16 (two per word)
RNG_SLOTS = 2 * RNG_WORDS
MASK32 = 0xFFFFFFFF


@njit(cache=True, inline="always")
def mul32(a, b):
    """(a * b) mod 2**32 for 0 <= a, b < 2**32 without 64-bit overflow."""
    lo = a * (b & 0xFFFF)
    hi = ((a * (b >> 16)) & 0xFFFF) << 16
    return (lo + hi) & MASK32


@njit(cache=True, inline="always")
def rotl32(x, k):
    return ((x << k) | (x >> (32 - k))) & MASK32


@njit(cache=True, inline="always")
def _word(state, off, k):
    """Word ``k`` of the generator at ``state[off:]`` (0 <= word < 2**32), whatever the width."""
    if state.itemsize == 2:
        return (int(state[off + 2 * k]) & 0xFFFF) | ((int(state[off + 2 * k + 1]) & 0xFFFF) << 16)
    return int(state[off + k]) & MASK32


@njit(cache=True, inline="always")
def _put(state, off, k, x):
    """Store word ``k`` (0 <= x < 2**32): one slot of 64 bits, or one of 32 bits holding the
    signed integer with the same bits, or two of 16 bits (low half first), likewise signed."""
    if state.itemsize == 2:
        lo = x & 0xFFFF
        hi = x >> 16
        state[off + 2 * k] = lo - ((lo >> 15) << 16)
        state[off + 2 * k + 1] = hi - ((hi >> 15) << 16)
    elif state.itemsize == 4:
        state[off + k] = x - ((x >> 31) << 32)
    else:
        state[off + k] = x


@njit(cache=True)
def mix32(x):
    """murmur3's 32-bit finaliser: a bijective avalanche of a 32-bit word."""
    x = x & MASK32
    x ^= x >> 16
    x = mul32(x, 0x85EBCA6B)
    x ^= x >> 13
    x = mul32(x, 0xC2B2AE35)
    x ^= x >> 16
    return x


# numpy's SeedSequence constants (numpy/random/bit_generator.pyx)
_SS_INIT_A = 0x43B0D7E5
_SS_MULT_A = 0x931E8875
_SS_INIT_B = 0x8B51F9DD
_SS_MULT_B = 0x58F38DED
_SS_MIX_L = 0xCA01F9DD
_SS_MIX_R = 0x4973F715


@njit(cache=True, inline="always")
def _ss_hash(v, h):
    """SeedSequence's hashmix: hash ``v`` with the running constant ``h``; returns both updated."""
    v ^= h
    h = mul32(h, _SS_MULT_A)
    v = mul32(v, h)
    v ^= v >> 16
    return v, h


@njit(cache=True, inline="always")
def _ss_mix(x, y):
    r = (mul32(_SS_MIX_L, x) - mul32(_SS_MIX_R, y)) & MASK32
    return r ^ (r >> 16)


@njit(cache=True, inline="always")
def _ss_out(v, h):
    """SeedSequence's generate_state step for one word."""
    v ^= h
    h = mul32(h, _SS_MULT_B)
    v = mul32(v, h)
    v ^= v >> 16
    return v, h


@njit(cache=True)
def rng_seed(state, off, seed):
    """Seed the four words at ``state[off:off+4]`` from the whole of ``seed`` (0 <= seed < 2**63).

    The words are exactly ``numpy.random.SeedSequence(seed).generate_state(4, numpy.uint32)``
    (the same mixing, written here with 32-bit arithmetic so that compiled code and plain
    Python agree): every bit of the seed matters, so 0 and 2**60 deal different games.
    The pool lives in four local words (straight-line code: quick to compile) and is stored
    once, through ``_put``, so narrow (int32/int16) states get the same words.
    """
    lo = seed & MASK32
    hi = (seed >> 32) & MASK32  # a seed below 2**32 is one entropy word, else two
    h = _SS_INIT_A
    p0, h = _ss_hash(lo, h)  # mix_entropy: hash the entropy words into the pool
    p1, h = _ss_hash(hi, h)
    p2, h = _ss_hash(0, h)
    p3, h = _ss_hash(0, h)
    # every source word mixed into every other word, in numpy's order (src outer, dst inner)
    v, h = _ss_hash(p0, h)
    p1 = _ss_mix(p1, v)
    v, h = _ss_hash(p0, h)
    p2 = _ss_mix(p2, v)
    v, h = _ss_hash(p0, h)
    p3 = _ss_mix(p3, v)
    v, h = _ss_hash(p1, h)
    p0 = _ss_mix(p0, v)
    v, h = _ss_hash(p1, h)
    p2 = _ss_mix(p2, v)
    v, h = _ss_hash(p1, h)
    p3 = _ss_mix(p3, v)
    v, h = _ss_hash(p2, h)
    p0 = _ss_mix(p0, v)
    v, h = _ss_hash(p2, h)
    p1 = _ss_mix(p1, v)
    v, h = _ss_hash(p2, h)
    p3 = _ss_mix(p3, v)
    v, h = _ss_hash(p3, h)
    p0 = _ss_mix(p0, v)
    v, h = _ss_hash(p3, h)
    p1 = _ss_mix(p1, v)
    v, h = _ss_hash(p3, h)
    p2 = _ss_mix(p2, v)
    h = _SS_INIT_B  # generate_state(4, uint32)
    p0, h = _ss_out(p0, h)
    p1, h = _ss_out(p1, h)
    p2, h = _ss_out(p2, h)
    p3, h = _ss_out(p3, h)
    if p0 == 0 and p1 == 0 and p2 == 0 and p3 == 0:
        p0 = 1
    _put(state, off, 0, p0)
    _put(state, off, 1, p1)
    _put(state, off, 2, p2)
    _put(state, off, 3, p3)


@njit(cache=True)
def rng_next32(state, off):
    """Next 32-bit output (0 <= x < 2**32); advances the generator."""
    s0 = _word(state, off, 0)
    s1 = _word(state, off, 1)
    s2 = _word(state, off, 2)
    s3 = _word(state, off, 3)
    result = mul32(rotl32(mul32(s1, 5), 7), 9)
    t = (s1 << 9) & MASK32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl32(s3, 11)
    _put(state, off, 0, s0)
    _put(state, off, 1, s1)
    _put(state, off, 2, s2)
    _put(state, off, 3, s3)
    return result


@njit(cache=True)
def rng_below(state, off, n):
    """Uniform integer in [0, n) for 1 <= n < 2**31 (multiply-shift, bias < n / 2**32)."""
    return (rng_next32(state, off) * n) >> 32


@njit(cache=True)
def rng_die(state, off, sides):
    """One roll of a die with ``sides`` faces: 1..sides."""
    return rng_below(state, off, sides) + 1


SEED_MAX = 2**63 - 1


def seed_key(seed) -> int:
    """The kernels' 63-bit seed of a user's seed: itself below 2**63, larger seeds folded by
    ``SeedSequence`` (every bit counts). Python and numpy integers; a clear error otherwise."""
    import numpy as np

    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__} {seed!r}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    if seed <= SEED_MAX:
        return seed
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]) >> 1


@njit(cache=True)
def sample_masked(mask, n_legal, rng, rng_off):
    """A uniformly random legal action of ``mask`` (which has ``n_legal`` ones), drawn from the
    generator at ``rng[rng_off:]``; -1 if the mask has fewer ones than ``n_legal`` says."""
    k = rng_below(rng, rng_off, n_legal)
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1
