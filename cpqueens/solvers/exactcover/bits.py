"""Two machine instructions for the compiled kernels: population count, trailing zeros.

numba has no operator for either, and a loop over the bits would cost more than
the rest of a node's work; LLVM's intrinsics compile to ``popcnt`` and ``tzcnt``
(or ``bsf``) on the processor the kernels are compiled for. This module imports
numba at the top, so only the kernels import it.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, word):
    """The number of set bits of an integer, as an int64."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _to_int64(builder, builder.ctpop(args[0]))

    return types.int64(word), codegen


@intrinsic
def trailing_zeros(typingctx, word):
    """The index of the lowest set bit of a nonzero integer, as an int64."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # The flag says that a zero input needs no defined answer: never asked here.
        zero_is_poison = ir.Constant(ir.IntType(1), 1)
        return _to_int64(builder, builder.cttz(args[0], zero_is_poison))

    return types.int64(word), codegen


def _to_int64(builder, value):
    width = value.type.width
    if width == 64:
        return value
    if width < 64:
        return builder.zext(value, ir.IntType(64))
    return builder.trunc(value, ir.IntType(64))
