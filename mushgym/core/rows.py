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
