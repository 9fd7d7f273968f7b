"""A random generator whose words live inside the game state.

xoshiro128** (Blackman and Vigna) on four 32-bit words, each stored in one
``int64`` slot of the state array. Because the generator is part of the state,
``state.copy()`` clones the future of every shuffle and die roll, and a seed
fixes a whole game.

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


@njit(cache=True)
def rng_seed(state, off, seed):
    """Seed the four words at ``state[off:off+4]`` from a 64-bit seed."""
    s = seed & 0xFFFFFFFFFFFFFFF  # keep it non-negative in an int64 (60 bits)
    lo = s & MASK32
    hi = (s >> 32) & MASK32
    a = mix32(lo ^ 0x9E3779B9)
    b = mix32(hi ^ mix32(a + 0x7F4A7C15))
    c = mix32(a ^ mix32(b + 0x1B873593))
    d = mix32(b ^ mix32(c + 0xCC9E2D51))
    if a == 0 and b == 0 and c == 0 and d == 0:
        a = 1
    _put(state, off, 0, a)
    _put(state, off, 1, b)
    _put(state, off, 2, c)
    _put(state, off, 3, d)


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
