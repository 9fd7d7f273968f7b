"""``row(a, i)``: the view ``a[i]`` of a C-contiguous batch array, without reference counting.

In compiled code every view of an array (``states[i]``) takes a reference on the
parent's memory block, and every call that passes it on takes and drops more:
atomic increments on one shared counter. Inside ``prange`` all threads hammer the
same counter of ``states``/``obs``/``masks``, and the cache line holding it
bounces between cores on every step of every env. ``row`` builds the same view
with no owner (like ``numba.carray``), so those counters are never touched; the
parent array must outlive the view, which holds inside one kernel call.

Outside compiled code (``NUMBA_DISABLE_JIT=1``) it is plain ``a[i]``.

``prefetch_row(a, i)`` asks the CPU to bring row ``i`` into its L2 cache (one
``prefetcht1`` per 64-byte line) and returns at once: the vector loops call it for an
env a few places ahead of the one they step, so that its state, mask and observation
rows arrive while the current env computes (a batch of thousands of envs does not stay
in the core's caches). L2 by default: Mycelia's 2.5 KB rows fetched ahead into L1 evicted
the current env's lines there and measured slower. ``prefetch_row_l1(a, i)`` brings the row
into L1 (``prefetcht0``): for small rows read in a scattered order it is the L2-to-L1 wait that
costs (Fungi, 1.5 KB per env: 1.1x vector steps/s at batch 8,192). Outside compiled code both
do nothing.
"""

from llvmlite import ir
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
        context.populate_array(
            out,
            data=data,
            shape=cgutils.pack_array(builder, shapes[1:]),
            strides=cgutils.pack_array(builder, strides[1:]),
            itemsize=ary.itemsize,
            meminfo=None,
        )
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
        context.populate_array(
            out, data=ary.data, shape=ary.shape, strides=ary.strides, itemsize=ary.itemsize, meminfo=None
        )
        return out._getvalue()

    return sig, codegen


@overload(borrow)
def _borrow_overload(_borrow_a):
    if isinstance(_borrow_a, types.Array):
        return lambda _borrow_a: _borrow_no_refcount(_borrow_a)
    return lambda _borrow_a: _borrow_a


#: bytes of a cache line (x86-64 and ARMv8 servers)
CACHE_LINE = 64


def prefetch_row(_pf_a, _pf_i):
    """Prefetch row ``i`` of ``a`` into the L2 cache (a hint; nothing outside compiled code)."""
    return None


def prefetch_row_l1(_pf_a, _pf_i):
    """Prefetch row ``i`` of ``a`` into the L1 cache (a hint; nothing outside compiled code)."""
    return None


def _prefetch_intrinsic(locality):
    """An intrinsic prefetching the line that holds the byte at offset ``off`` of row ``idx`` of
    ``arr``: LLVM's ``llvm.prefetch`` (read, data cache) with ``locality`` 2 (x86-64:
    ``prefetcht1``, into L2) or 3 (``prefetcht0``, into L1)."""

    @intrinsic
    def _prefetch_line(typingctx, arr, idx, off):
        if (
            not isinstance(arr, types.Array)
            or arr.ndim < 2
            or not isinstance(idx, types.Integer)
            or not isinstance(off, types.Integer)
        ):
            return None
        sig = types.void(arr, idx, off)

        def codegen(context, builder, signature, args):
            ary = make_array(signature.args[0])(context, builder, args[0])
            strides = cgutils.unpack_tuple(builder, ary.strides)
            i = context.cast(builder, args[1], signature.args[1], types.intp)
            o = context.cast(builder, args[2], signature.args[2], types.intp)
            base = builder.ptrtoint(ary.data, cgutils.intp_t)
            ptr_t = ir.IntType(8).as_pointer()
            ptr = builder.inttoptr(builder.add(base, builder.add(builder.mul(i, strides[0]), o)), ptr_t)
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [ptr_t, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, locality), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return sig, codegen

    return _prefetch_line


_prefetch_line = _prefetch_intrinsic(2)
_prefetch_line_l1 = _prefetch_intrinsic(3)


def _prefetch_row_overload(line):
    """The compiled ``prefetch_row`` / ``prefetch_row_l1``: ``line`` on every 64-byte line of the
    row (a C-contiguous array of 2 or more dimensions; anything else: nothing)."""

    def overload_impl(_pf_a, _pf_i):
        if isinstance(_pf_a, types.Array) and _pf_a.ndim >= 2 and _pf_a.layout == "C":

            def impl(_pf_a, _pf_i):
                nbytes = _pf_a.strides[0]
                for off in range(0, nbytes, CACHE_LINE):
                    line(_pf_a, _pf_i, off)

            return impl
        return lambda _pf_a, _pf_i: None

    return overload_impl


overload(prefetch_row)(_prefetch_row_overload(_prefetch_line))
overload(prefetch_row_l1)(_prefetch_row_overload(_prefetch_line_l1))
