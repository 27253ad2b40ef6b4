#!/usr/bin/env python3
"""Writes Sources/ObscuraAV/simd/SIMDMatrixShapes.swift: simd's matrix shapes that the hand-written
files (SIMDMatrix.swift, SIMDFloat4x4.swift) do not define, the transposes and products between every
pair of compatible shapes, and the simd_make_* vector overloads.

simd names a matrix by columns then rows: simd_float2x3 has two columns of three rows. Run from the
repository root: python3 tools/generate_simd_matrices.py
"""

LANES = "xyzw"
SCALARS = {"float": "Float", "double": "Double"}
# Shapes (columns, rows) written by hand for Float; everything else is generated.
HAND_WRITTEN = {("float", 3, 3), ("float", 4, 3), ("float", 4, 4)}
# Products already written by hand: (scalar, a, b).
HAND_PRODUCTS = {("float", (3, 3), (3, 3)), ("float", (3, 3), (4, 3)), ("float", (4, 3), (4, 4)), ("float", (4, 4), (4, 4))}
HAND_VECTOR_PRODUCTS = {("float", 3, 3), ("float", 4, 3), ("float", 4, 4)}
HAND_ROW_PRODUCTS = {("float", 3, 3)}
HAND_TRANSPOSE = {("float", 3, 3), ("float", 4, 4)}
HAND_ARITHMETIC = {("float", 3, 3), ("float", 4, 4)}


def mat(s, c, r):
    return f"simd_{s}{c}x{r}"


def vec(s, n):
    return f"simd_{s}{n}"


def shape_struct(s, c, r):
    t, v, S = mat(s, c, r), vec(s, r), SCALARS[s]
    cols = ", ".join([v] * c)
    idx = range(c)
    out = [f"/// A {c}-column × {r}-row {S.lower()} matrix stored as columns, simd's layout (`{t}`)."]
    out.append(f"public struct {t}: Sendable, Equatable {{")
    out.append(f"    public var columns: ({cols})")
    out.append("")
    out.append("    /// The zero matrix.")
    out.append(f"    public init() {{ columns = ({', '.join(['.zero'] * c)}) }}")
    out.append("")
    out.append(f"    public init(columns: ({cols})) {{ self.columns = columns }}")
    out.append("")
    out.append(f"    /// From {c} columns.")
    params = ", ".join(f"_ col{i}: {v}" for i in idx)
    out.append(f"    public init({params}) {{ columns = ({', '.join(f'col{i}' for i in idx)}) }}")
    out.append("")
    out.append(f"    /// From an array of exactly {c} columns.")
    out.append(f"    public init(_ columns: [{v}]) {{")
    out.append(f'        precondition(columns.count == {c}, "{t} needs {c} columns")')
    out.append(f"        self.columns = ({', '.join(f'columns[{i}]' for i in idx)})")
    out.append("    }")
    out.append("")
    rv = vec(s, c)
    out.append(f"    /// From exactly {r} rows of {c} (transposed into columns).")
    out.append(f"    public init(rows: [{rv}]) {{")
    out.append(f'        precondition(rows.count == {r}, "{t} needs {r} rows")')
    colexprs = [f"{v}({', '.join(f'rows[{j}].{LANES[i]}' for j in range(r))})" for i in idx]
    out.append(f"        columns = ({', '.join(colexprs)})")
    out.append("    }")
    if c == r:
        out.append("")
        out.append("    /// A diagonal matrix.")
        out.append(f"    public init(diagonal: {v}) {{")
        diag = []
        for i in idx:
            lanes = ", ".join(f"diagonal.{LANES[i]}" if j == i else "0" for j in range(r))
            diag.append(f"{v}({lanes})")
        out.append(f"        columns = ({', '.join(diag)})")
        out.append("    }")
        out.append("")
        out.append("    /// `scalar` times the identity.")
        out.append(f"    public init(_ scalar: {S}) {{ self.init(diagonal: {v}(repeating: scalar)) }}")
    out.append("")
    out.append("    /// A column.")
    out.append(f"    public subscript(column: Int) -> {v} {{")
    out.append("        get {")
    out.append("            switch column {")
    for i in idx:
        out.append(f"            case {i}: return columns.{i}")
    out.append('            default: preconditionFailure("column index out of range")')
    out.append("            }")
    out.append("        }")
    out.append("        set {")
    out.append("            switch column {")
    for i in idx:
        out.append(f"            case {i}: columns.{i} = newValue")
    out.append('            default: preconditionFailure("column index out of range")')
    out.append("            }")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// An element by column and row.")
    out.append(f"    public subscript(column: Int, row: Int) -> {S} {{")
    out.append("        get { self[column][row] }")
    out.append("        set { self[column][row] = newValue }")
    out.append("    }")
    out.append("")
    out.append(f"    public static func == (a: {t}, b: {t}) -> Bool {{")
    out.append("        " + " && ".join(f"a.columns.{i} == b.columns.{i}" for i in idx))
    out.append("    }")
    out.append("}")
    out.append(f"/// `matrix_{s}{c}x{r}`, simd's older name.")
    out.append(f"public typealias matrix_{s}{c}x{r} = {t}")
    if c == r:
        out.append(f"/// The {c}×{c} identity.")
        out.append(f"public let matrix_identity_{s}{c}x{c} = {t}(diagonal: {v}(repeating: 1))")
    return "\n".join(out)


def operations(s, c, r):
    t, S = mat(s, c, r), SCALARS[s]
    vr, vc = vec(s, r), vec(s, c)
    idx = range(c)
    out = [f"extension {t} {{"]
    if (s, c, r) not in HAND_TRANSPOSE:
        tt = mat(s, r, c)
        out.append("    /// The transpose.")
        out.append(f"    public var transpose: {tt} {{")
        rows = [f"{vc}({', '.join(f'columns.{i}.{LANES[j]}' for i in idx)})" for j in range(r)]
        out.append(f"        {tt}({', '.join(rows)})")
        out.append("    }")
        out.append("")
    if (s, c, r) not in HAND_VECTOR_PRODUCTS:
        out.append("    /// Matrix × column vector: a combination of the columns.")
        out.append(f"    public static func * (m: {t}, v: {vc}) -> {vr} {{")
        out.append("        " + " + ".join(f"m.columns.{i} * v.{LANES[i]}" for i in idx))
        out.append("    }")
        out.append("")
    if (s, c, r) not in HAND_ROW_PRODUCTS:
        out.append("    /// Row vector × matrix.")
        out.append(f"    public static func * (v: {vr}, m: {t}) -> {vc} {{")
        out.append(f"        {vc}({', '.join(f'simd_dot(v, m.columns.{i})' for i in idx)})")
        out.append("    }")
        out.append("")
    if (s, c, r) not in HAND_ARITHMETIC:
        for op in "+-":
            out.append(f"    public static func {op} (a: {t}, b: {t}) -> {t} {{")
            out.append(f"        {t}({', '.join(f'a.columns.{i} {op} b.columns.{i}' for i in idx)})")
            out.append("    }")
            out.append("")
        out.append(f"    public static func * (s: {S}, m: {t}) -> {t} {{")
        out.append(f"        {t}({', '.join(f's * m.columns.{i}' for i in idx)})")
        out.append("    }")
        out.append("")
    # Products: (c×r) · (k×c) → (k×r).
    for k in (2, 3, 4):
        if (s, (c, r), (k, c)) in HAND_PRODUCTS:
            continue
        b, res = mat(s, k, c), mat(s, k, r)
        out.append(f"    /// {t} × {b}.")
        out.append(f"    public static func * (a: {t}, b: {b}) -> {res} {{")
        out.append(f"        {res}({', '.join(f'a * b.columns.{i}' for i in range(k))})")
        out.append("    }")
        out.append("")
    if out[-1] == "":
        out.pop()
    out.append("}")
    return "\n".join(out)


def free_functions(s, c, r):
    t = mat(s, c, r)
    vr, vc = vec(s, r), vec(s, c)
    out = []
    if (s, c, r) not in HAND_TRANSPOSE:
        out.append(f"/// `simd_transpose`.")
        out.append(f"public func simd_transpose(_ m: {t}) -> {mat(s, r, c)} {{ m.transpose }}")
    hand_mul_vec = {("float", 3, 3), ("float", 4, 3), ("float", 4, 4)}
    if (s, c, r) not in hand_mul_vec:
        out.append(f"/// `simd_mul`: matrix × vector.")
        out.append(f"public func simd_mul(_ m: {t}, _ v: {vc}) -> {vr} {{ m * v }}")
    out.append(f"/// `simd_mul`: row vector × matrix.")
    out.append(f"public func simd_mul(_ v: {vr}, _ m: {t}) -> {vc} {{ v * m }}")
    hand_mul = {("float", (3, 3), (3, 3)), ("float", (3, 3), (4, 3)), ("float", (4, 4), (4, 4))}
    for k in (2, 3, 4):
        if (s, (c, r), (k, c)) in hand_mul:
            continue
        out.append(f"/// `simd_mul`: {t} × {mat(s, k, c)}.")
        out.append(f"public func simd_mul(_ a: {t}, _ b: {mat(s, k, c)}) -> {mat(s, k, r)} {{ a * b }}")
    if c == r and (s, c, r) not in HAND_WRITTEN:
        out.append(f"/// `simd_matrix` from columns.")
        params = ", ".join(f"_ col{i}: {vr}" for i in range(c))
        out.append(f"public func simd_matrix({params}) -> {t} {{ {t}({', '.join(f'col{i}' for i in range(c))}) }}")
    return "\n".join(out)


def make_functions():
    """simd_make_<type><n> overloads: every way of filling n lanes from scalars and shorter vectors
    in order, and the one-argument conversions (narrowing keeps the first lanes, widening zeroes
    the rest)."""
    types = {"float": "Float", "double": "Double", "int": "Int32"}
    hand = {
        ("float", 2, (1, 1)), ("float", 3, (1, 1, 1)), ("float", 3, ("v4",)), ("float", 3, (2, 1)),
        ("float", 4, (1, 1, 1, 1)), ("float", 4, (3, 1)),
    }
    out = []

    def compositions(n):
        if n == 0:
            yield ()
            return
        for first in range(1, min(n, 3) + 1):
            for rest in compositions(n - first):
                yield (first,) + rest

    for s, S in types.items():
        for n in (2, 3, 4):
            res = vec(s, n)
            for parts in compositions(n):
                if len(parts) == 1:
                    continue
                if (s, n, parts) in hand:
                    continue
                params, lanes, lane = [], [], 0
                names = iter("abcd")
                for p in parts:
                    name = next(names)
                    if p == 1:
                        params.append(f"_ {name}: {S}")
                        lanes.append(name)
                    else:
                        params.append(f"_ {name}: {vec(s, p)}")
                        lanes += [f"{name}.{LANES[i]}" for i in range(p)]
                out.append(f"/// `simd_make_{s}{n}` from lanes in order.")
                out.append(f"public func simd_make_{s}{n}({', '.join(params)}) -> {res} {{ {res}({', '.join(lanes)}) }}")
            # One argument: a scalar or another vector.
            for m in (1, 2, 3, 4):
                if (s, n, ("v4",)) in hand and m == 4:
                    continue
                arg = S if m == 1 else vec(s, m)
                if m == 1:
                    lanes = ["other"] + ["0"] * (n - 1)
                else:
                    lanes = [f"other.{LANES[i]}" if i < m else "0" for i in range(n)]
                what = "the same lanes" if m == n else ("its first lanes" if m > n else "zeros after it")
                out.append(f"/// `simd_make_{s}{n}` from one {'value' if m == 1 else 'vector'}: {what}.")
                out.append(f"public func simd_make_{s}{n}(_ other: {arg}) -> {res} {{ {res}({', '.join(lanes)}) }}")
    return "\n".join(out)


def main():
    blocks = [
        "// Generated by tools/generate_simd_matrices.py; do not edit by hand.",
        "// simd's matrix shapes beyond those of SIMDMatrix.swift and SIMDFloat4x4.swift, with simd's",
        "// column-major meaning: simd_floatCxR has C columns of R rows, `m * v` combines m's columns, and",
        "// (C×R) · (K×C) gives K×R.",
        "",
    ]
    shapes = [(s, c, r) for s in SCALARS for c in (2, 3, 4) for r in (2, 3, 4)]
    for s, c, r in shapes:
        if (s, c, r) not in HAND_WRITTEN:
            blocks.append(shape_struct(s, c, r))
            blocks.append("")
    for s, c, r in shapes:
        blocks.append(operations(s, c, r))
        blocks.append("")
    for s, c, r in shapes:
        blocks.append(free_functions(s, c, r))
    blocks.append("")
    blocks.append(make_functions())
    blocks.append("")
    with open("Sources/ObscuraAV/simd/SIMDMatrixShapes.swift", "w") as f:
        f.write("\n".join(blocks))


if __name__ == "__main__":
    main()
