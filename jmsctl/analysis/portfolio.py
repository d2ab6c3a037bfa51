"""cvc5 where z3 gives up: the same subproblem, as z3 writes it in SMT-LIB, on cvc5's own resource
budget (``rlimit-per``: the same answer at any load, as with z3's rlimit).

z3 gives up on floating-point arithmetic over names of unknown type (`-a * f BETWEEN 2147483648 AND
n`: float and double products bit-blasted); cvc5 answers most of those in milliseconds. Its "unsat"
is taken as it is (a proof from either solver); its "sat" is read as the values of the slots' constants
and handed back to z3 with every constant fixed, so the model every caller reads is z3's, and the
witness is judged by the engine as any other (solver.py raises WitnessRejected otherwise). cvc5 is
optional: without it, or on a formula it cannot read, the answer is z3's.
"""

from __future__ import annotations

import struct
from typing import Any

import z3

from jmsctl.analysis import smt

CVC5_RLIMIT = 400_000  # cvc5's resource units per subproblem (its witnesses in the bench took 100,000-300,000)


def available() -> bool:
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True


def check(part: z3.BoolRef, rlimit: int = CVC5_RLIMIT, wall_ms: int = 60_000) -> tuple[str, list[z3.BoolRef], int]:
    """cvc5 on ``part``: ("sat", the equalities that fix each constant to cvc5's value), ("unsat",
    []), or ("unknown", []) (its budget spent, or a formula it could not read); and the resource
    units it used."""
    import cvc5

    s = z3.Solver(ctx=part.ctx)
    s.add(part)
    text = s.to_smt2().replace("(check-sat)", "")
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    for option, value in (("produce-models", "true"), ("strings-exp", "true"), ("rlimit-per", str(rlimit)),
                          ("tlimit-per", str(max(1, wall_ms)))):
        solver.setOption(option, value)
    solver.setLogic("ALL")
    try:
        parser = cvc5.InputParser(solver)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "jmsctl")
        symbols = parser.getSymbolManager()
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            cmd.invoke(solver, symbols)
        result = solver.checkSat()
    except RuntimeError:  # z3's SMT-LIB may name a function cvc5 does not know
        return "unknown", [], rlimit
    used = _used(solver, rlimit)
    if result.isUnsat():
        return "unsat", [], used
    if not result.isSat():
        return "unknown", [], used
    try:
        return "sat", [_fixed(term, solver.getValue(term), part.ctx) for term in symbols.getDeclaredTerms()], used
    except (RuntimeError, ValueError, smt.Unsupported):
        return "unknown", [], used


def _used(solver: Any, rlimit: int) -> int:
    try:
        return int(solver.getStatistics()["resource::resourceUnitsUsed"]["value"])
    except (KeyError, TypeError, ValueError, RuntimeError):
        return rlimit


def _fixed(term: Any, value: Any, ctx: z3.Context) -> z3.BoolRef:
    """``name == value`` in z3 for one of the slots' constants (Int, Bool, BitVec 64, Float32/64, String), in ``ctx`` (the part's)."""
    name, sort = str(term), term.getSort()
    if sort.isBoolean():
        return z3.Bool(name, ctx) == z3.BoolVal(value.getBooleanValue(), ctx)
    if sort.isInteger():
        return z3.Int(name, ctx) == z3.IntVal(int(value.getIntegerValue()), ctx)
    if sort.isBitVector():
        width = sort.getBitVectorSize()
        return z3.BitVec(name, width, ctx) == z3.BitVecVal(int(value.getBitVectorValue(10)), width, ctx)
    if sort.isFloatingPoint():
        ebits, sbits, bits = value.getFloatingPointValue()
        raw = int(bits.getBitVectorValue(10))
        fp_sort = z3.FPSort(ebits, sbits, ctx)
        if (ebits, sbits) == (8, 24):
            val = z3.FPVal(struct.unpack("<f", struct.pack("<I", raw))[0], fp_sort, ctx=ctx)
        elif (ebits, sbits) == (11, 53):
            val = z3.FPVal(struct.unpack("<d", struct.pack("<Q", raw))[0], fp_sort, ctx=ctx)
        else:
            raise ValueError(f"a floating-point sort ({ebits}, {sbits}) no slot has")
        x = z3.FP(name, fp_sort, ctx)
        if val.isNaN():
            return z3.fpIsNaN(x, ctx)
        negative = bool(raw >> (ebits + sbits - 1))
        sign = z3.fpIsNegative(x, ctx)
        return z3.And(z3.fpEQ(x, val, ctx), sign if negative else z3.Not(sign))
    if sort.isString():
        return z3.String(name, ctx) == smt.string_val(value.getStringValue(), ctx)
    raise ValueError(f"a constant of sort {sort} no slot has")


__all__ = ["CVC5_RLIMIT", "available", "check"]
