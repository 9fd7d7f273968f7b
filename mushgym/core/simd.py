"""``copy_block(dst, d, src, s, n)``: ``dst[d:d+n] = src[s:s+n]`` as one vector load, convert, store.

numba compiles with LLVM's loop vectorizer but not its SLP vectorizer
(``NUMBA_SLP_VECTORIZE`` is off by default), and a copy of a few dozen elements with a
constant count is unrolled before the loop vectorizer sees it: a game's ``observe``
copying a 20-card hand from an int16 state into a uint8 observation became 20 scalar
loads and 20 byte stores. An observation is mostly such blocks (hands, counts, piles), and
the vector API writes one per env per step, so the stores are what it costs.

``copy_block`` emits the block as LLVM vector operations: one load of ``<n x src type>``,
one conversion to the destination type, one store of ``<n x dst type>``, which LLVM
lowers to a few SIMD instructions whatever ``n`` is (a 20-value int16 -> uint8 block: two
loads, a pack, two stores). ``n`` must be a constant in the source (a literal), the
arrays 1-D and C-contiguous (row views, :func:`mushgym.core.rows.row`, and slices of them),
``src`` of integers and ``dst`` of integers or floats. Like every array access in the
kernels, the offsets are not bounds-checked: the caller's layout guarantees them.

The conversion is numpy's (unsafe casting, as ``dst[d:d+n] = src[s:s+n]`` does): a
narrower integer keeps the low bits, a wider one extends the sign (or zeros for an
unsigned source), a float takes the integer's value. Outside compiled code
(``NUMBA_DISABLE_JIT=1``) it is that numpy assignment.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core.errors import TypingError
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array


def copy_block(_cb_dst, _cb_d, _cb_src, _cb_s, _cb_n):
    """``dst[d:d+n] = src[s:s+n]`` (numpy's unsafe casting); compiled: one vector operation."""
    _cb_dst[_cb_d : _cb_d + _cb_n] = _cb_src[_cb_s : _cb_s + _cb_n]


def _convert(builder, value, src: types.Integer, dst, vec_t):
    if isinstance(dst, types.Float):
        return builder.sitofp(value, vec_t) if src.signed else builder.uitofp(value, vec_t)
    if dst.bitwidth < src.bitwidth:
        return builder.trunc(value, vec_t)
    if dst.bitwidth > src.bitwidth:
        return builder.sext(value, vec_t) if src.signed else builder.zext(value, vec_t)
    return value


def _block_type(context, dtype, n: int):
    return ir.VectorType(context.get_value_type(dtype), n)


def _argument_problem(dst, d, src, s, n) -> str | None:
    """What is wrong with these argument types for ``copy_block``, or None."""
    for name, a in (("dst", dst), ("src", src)):
        if not (isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C"):
            return f"{name} must be a 1-D C-contiguous array (a row view or a slice of one), got {a}"
    if not isinstance(src.dtype, types.Integer):
        return f"src must hold integers, got {src.dtype}"
    if not isinstance(dst.dtype, (types.Integer, types.Float)):
        return f"dst must hold integers or floats, got {dst.dtype}"
    if not (isinstance(d, types.Integer) and isinstance(s, types.Integer)):
        return f"the offsets must be integers, got {d} and {s}"
    if not (isinstance(n, types.IntegerLiteral) and n.literal_value > 0):
        return f"the count must be a constant integer > 0 written in the source (it sizes the vector), got {n}"
    return None


@intrinsic
def _copy_block_intrinsic(typingctx, dst, d, src, s, n):
    if _argument_problem(dst, d, src, s, n) is not None:
        return None
    count = int(n.literal_value)
    sig = types.void(dst, d, src, s, n)

    def codegen(context, builder, signature, args):
        dst_ty, d_ty, src_ty, s_ty, _ = signature.args
        out = make_array(dst_ty)(context, builder, args[0])
        inp = make_array(src_ty)(context, builder, args[2])
        d_i = context.cast(builder, args[1], d_ty, types.intp)
        s_i = context.cast(builder, args[3], s_ty, types.intp)
        src_vec = _block_type(context, src_ty.dtype, count)
        dst_vec = _block_type(context, dst_ty.dtype, count)
        src_ptr = builder.bitcast(builder.gep(inp.data, [s_i], inbounds=True), src_vec.as_pointer())
        dst_ptr = builder.bitcast(builder.gep(out.data, [d_i], inbounds=True), dst_vec.as_pointer())
        block = builder.load(src_ptr, align=1)
        builder.store(_convert(builder, block, src_ty.dtype, dst_ty.dtype, dst_vec), dst_ptr, align=1)
        return context.get_dummy_value()

    return sig, codegen


@overload(copy_block)
def _copy_block_overload(_cb_dst, _cb_d, _cb_src, _cb_s, _cb_n):
    problem = _argument_problem(_cb_dst, _cb_d, _cb_src, _cb_s, _cb_n)
    if problem is not None:
        raise TypingError(f"copy_block: {problem}")
    count = int(_cb_n.literal_value)  # a constant of the implementation: typed as a literal again

    def impl(_cb_dst, _cb_d, _cb_src, _cb_s, _cb_n):
        _copy_block_intrinsic(_cb_dst, _cb_d, _cb_src, _cb_s, count)

    return impl
