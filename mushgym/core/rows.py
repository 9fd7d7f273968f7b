"""``row(a, i)``: the view ``a[i]`` of a C-contiguous batch array, without reference counting.

In compiled code every view of an array (``states[i]``) takes a reference on the
parent's memory block, and every call that passes it on takes and drops more:
atomic increments on one shared counter. Inside ``prange`` all threads hammer the
same counter of ``states``/``obs``/``masks``, and the cache line holding it
bounces between cores on every step of every env. ``row`` builds the same view
with no owner (like ``numba.carray``), so those counters are never touched; the
parent array must outlive the view, which holds inside one kernel call.

Outside compiled code (``NUMBA_DISABLE_JIT=1``) it is plain ``a[i]``.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array


def row(_row_a, _row_i):
    """``a[i]`` (a view of row ``i``). The odd parameter names keep the inlined
    overload from clashing with a ``prange`` index called ``i``."""
    return _row_a[_row_i]


@intrinsic
def _row_no_refcount(typingctx, arr, idx):
    if not isinstance(arr, types.Array) or arr.ndim < 2 or arr.layout != "C" or not isinstance(idx, types.Integer):
        return None
    retty = arr.copy(ndim=arr.ndim - 1, layout="C")
    sig = retty(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = make_array(aryty)(context, builder, args[0])
        out = make_array(retty)(context, builder)
        shapes = cgutils.unpack_tuple(builder, ary.shape)
        strides = cgutils.unpack_tuple(builder, ary.strides)
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        base = builder.ptrtoint(ary.data, cgutils.intp_t)
        data = builder.inttoptr(builder.add(base, builder.mul(i, strides[0])), ary.data.type)
        context.populate_array(out, data=data, shape=cgutils.pack_array(builder, shapes[1:]),
                               strides=cgutils.pack_array(builder, strides[1:]), itemsize=ary.itemsize,
                               meminfo=None)
        return out._getvalue()

    return sig, codegen


@overload(row)
def _row_overload(_row_a, _row_i):
    if isinstance(_row_a, types.Array) and _row_a.ndim >= 2 and _row_a.layout == "C":
        return lambda _row_a, _row_i: _row_no_refcount(_row_a, _row_i)
    return lambda _row_a, _row_i: _row_a[_row_i]


def borrow(_borrow_a):
    """The array itself, as a view that holds no reference (compiled code only).

    A bundle of arrays (a tuple) gives out a new reference each time one of its
    arrays is read, and in a loop over envs those reads are atomic increments and
    decrements of the arrays' shared counters. Borrowed views have no counter, so a
    bundle of them (:func:`mushgym.core.batch`'s ``_borrowed``) is read for free; the
    original arrays must outlive them, which holds inside one kernel call."""
    return _borrow_a


@intrinsic
def _borrow_no_refcount(typingctx, arr):
    if not isinstance(arr, types.Array):
        return None
    retty = arr
    sig = retty(arr)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = make_array(aryty)(context, builder, args[0])
        out = make_array(retty)(context, builder)
        context.populate_array(out, data=ary.data, shape=ary.shape, strides=ary.strides,
                               itemsize=ary.itemsize, meminfo=None)
        return out._getvalue()

    return sig, codegen


@overload(borrow)
def _borrow_overload(_borrow_a):
    if isinstance(_borrow_a, types.Array):
        return lambda _borrow_a: _borrow_no_refcount(_borrow_a)
    return lambda _borrow_a: _borrow_a
