"""mushgym.core.rows: row views without reference counts, and prefetch hints."""

import numpy as np
from numba import njit

from mushgym.core.rows import prefetch_row, prefetch_row_l1, row


@njit(cache=False)
def _sum_rows_prefetching(a, ahead, into_l1):
    """Sum of every element, prefetching the row ``ahead`` places on (as the vector loops do),
    into L2 or (``into_l1``) L1."""
    total = 0
    for i in range(a.shape[0]):
        if i + ahead < a.shape[0]:
            if into_l1:
                prefetch_row_l1(a, i + ahead)
            else:
                prefetch_row(a, i + ahead)
        r = row(a, i)
        for v in r.flat:
            total += v
    return total


@njit(cache=False)
def _write_rows(a):
    for i in range(a.shape[0]):
        prefetch_row(a, i)
        r = row(a, i)
        r[0] = i


def test_prefetch_is_only_a_hint():
    """A prefetch changes nothing: sums and writes are those of plain numpy, for int16 and
    uint8 rows, 2-D and 3-D batches, rows shorter and longer than a cache line, and a
    non-contiguous array (where it does nothing)."""
    rng = np.random.default_rng(0)
    for a in (
        rng.integers(-5, 5, (37, 1272)).astype(np.int16),
        rng.integers(0, 255, (9, 3)).astype(np.uint8),
        rng.integers(0, 9, (6, 5, 40)).astype(np.uint8),
        rng.integers(0, 9, (50, 8)).astype(np.int64).T,
    ):
        before = a.copy()
        for ahead in (1, 4):
            for into_l1 in (False, True):
                assert _sum_rows_prefetching(a, ahead, into_l1) == int(before.astype(np.int64).sum())
        np.testing.assert_array_equal(a, before)
    b = np.zeros((20, 100), np.int16)
    _write_rows(b)
    np.testing.assert_array_equal(b[:, 0], np.arange(20))
    assert not b[:, 1:].any()
    assert prefetch_row(b, 3) is None  # outside compiled code: nothing
    assert prefetch_row_l1(b, 3) is None
