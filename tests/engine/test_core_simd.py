"""mushgym.core.simd.copy_block: a block copy as one vector operation, numpy's values."""

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from mushgym.core.rows import row
from mushgym.core.simd import copy_block


@njit(cache=False)
def _copy20(dst, d, src, s):
    copy_block(dst, d, src, s, 20)


@njit(cache=False)
def _copy3_rows(dst, src, i, d, s):
    copy_block(row(dst, i), d, row(src, i), s, 3)


@njit(cache=False)
def _copy_in_slices(dst, src):
    copy_block(dst[5:40], 2, src[1:], 4, 23)


@njit(cache=False)
def _copy_runtime_count(dst, src, n):
    copy_block(dst, 0, src, 0, n)


SRC_TYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64)
DST_TYPES = (np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64)


@pytest.mark.parametrize("src_type", SRC_TYPES)
def test_values_are_numpys(src_type):
    """Every source/destination pair: the block equals numpy's ``dst[d:d+n] = src[s:s+n]``
    (low bits kept when narrowing, sign or zeros extended, floats exact), nothing outside it moves."""
    info = np.iinfo(src_type)
    rng = np.random.default_rng(1)
    src = rng.integers(info.min, int(info.max) + 1, 64, dtype=np.int64).astype(src_type)
    src[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
    for dst_type in DST_TYPES:
        for d, s in ((0, 0), (3, 5), (11, 44)):
            got = np.full(40, 7, dst_type)
            want = got.copy()
            _copy20(got, d, src, s)
            want[d : d + 20] = src[s : s + 20]
            np.testing.assert_array_equal(got, want, err_msg=f"{np.dtype(src_type)} -> {np.dtype(dst_type)}")


def test_rows_and_slices():
    """Row views (``row``) and slices of 1-D arrays: offsets count from the view's start."""
    src = np.arange(60, dtype=np.int16).reshape(3, 20) - 30
    dst = np.zeros((3, 10), np.uint8)
    _copy3_rows(dst, src, 1, 4, 7)
    want = np.zeros((3, 10), np.uint8)
    want[1, 4:7] = src[1, 7:10]
    np.testing.assert_array_equal(dst, want)
    a, b = np.zeros(50, np.float32), np.arange(40, dtype=np.int16) * 3
    _copy_in_slices(a, b)
    want = np.zeros(50, np.float32)
    want[5:40][2:25] = b[1:][4:27]
    np.testing.assert_array_equal(a, want)


@njit(cache=False)
def _copy_2d(dst, src):
    copy_block(dst, 0, src, 0, 2)


def test_bad_arguments_are_named():
    """The count is part of the vector type: a count known only at run time does not compile,
    and neither do 2-D arrays or a float source; each error says what is wrong."""
    with pytest.raises(TypingError, match="copy_block: the count must be a constant integer > 0"):
        _copy_runtime_count(np.zeros(4, np.uint8), np.zeros(4, np.int16), 4)
    with pytest.raises(TypingError, match="copy_block: dst must be a 1-D C-contiguous array"):
        _copy_2d(np.zeros((2, 2), np.uint8), np.zeros(4, np.int16))
    with pytest.raises(TypingError, match="copy_block: src must hold integers"):
        _copy_2d(np.zeros(4, np.uint8), np.zeros(4, np.float32))


def test_plain_python_is_numpys_assignment():
    """Outside compiled code (``NUMBA_DISABLE_JIT=1``) it is the numpy assignment it stands for."""
    code = (
        "import numpy as np\nfrom mushgym.core.simd import copy_block\n"
        "d = np.zeros(6, np.uint8); s = np.array([-1, 256, 3, 4, 5], np.int16)\n"
        "copy_block(d, 1, s, 0, 4); print(d.tolist())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
    )
    assert out.stdout.strip() == "[0, 255, 0, 3, 4, 0]"
