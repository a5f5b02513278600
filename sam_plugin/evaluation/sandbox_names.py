"""What a baseline script may reach of each module it imports (``sandbox_child.py``): one list of
allowed names per view, never a list of forbidden ones, so what a newer numpy adds (or what
this one has that nobody looked at) is not in the box.

Arrays, their arithmetic and reductions, linear algebra, random numbers and FFTs are in;
numpy's introspection helpers (``info``, ``lookfor``, ``source``, ``who``, ``test``,
``show_config``, ``get_include``, ...) are not, as ``numpy.info(..., toplevel=NAME)`` imports
any installed module by name; neither is anything that reads or writes a file (``load``,
``save``, ``fromfile``, ``memmap``, ...), prints settings, or takes a callback that numpy keeps.
``math`` is all functions and constants. Of ``sam`` a script gets the database, the session and
the host's errors; of ``samConstants`` its constants (``sandbox_child.constants_view``).
"""

from __future__ import annotations

MATH = frozenset({
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "comb",
    "copysign", "cos", "cosh", "degrees", "dist", "e", "erf", "erfc", "exp", "exp2", "expm1",
    "fabs", "factorial", "floor", "fma", "fmod", "frexp", "fsum", "gamma", "gcd", "hypot",
    "inf", "isclose", "isfinite", "isinf", "isnan", "isqrt", "lcm", "ldexp", "lgamma", "log",
    "log10", "log1p", "log2", "modf", "nan", "nextafter", "perm", "pi", "pow", "prod",
    "radians", "remainder", "sin", "sinh", "sqrt", "sumprod", "tan", "tanh", "tau", "trunc",
    "ulp",
})

_NUMPY_CREATE = {
    "array", "asarray", "asanyarray", "ascontiguousarray", "copy", "zeros", "ones", "empty",
    "full", "zeros_like", "ones_like", "empty_like", "full_like", "arange", "linspace",
    "logspace", "geomspace", "eye", "identity", "diag", "diagflat", "diagonal", "tri", "tril",
    "triu", "meshgrid", "mgrid", "ogrid", "indices", "fromiter",
}
_NUMPY_SHAPE = {
    "reshape", "ravel", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze",
    "concatenate", "stack", "vstack", "hstack", "dstack", "column_stack", "split",
    "array_split", "hsplit", "vsplit", "tile", "repeat", "flip", "fliplr", "flipud", "roll",
    "rot90", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "broadcast_arrays",
    "append", "insert", "delete", "resize", "pad", "shape", "ndim", "size", "take",
    "take_along_axis", "put", "choose", "compress", "select", "extract", "place",
}
_NUMPY_ARITHMETIC = {
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "negative",
    "positive", "power", "float_power", "mod", "remainder", "fmod", "divmod", "absolute", "abs",
    "fabs", "sign", "sqrt", "cbrt", "square", "reciprocal", "exp", "exp2", "expm1", "log",
    "log2", "log10", "log1p", "logaddexp", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
    "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "hypot", "degrees",
    "radians", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "rint", "round", "around", "fix",
    "clip", "maximum", "minimum", "fmax", "fmin", "copysign", "nan_to_num", "interp", "unwrap",
    "gcd", "lcm", "conj", "conjugate", "real", "imag", "angle",
}
_NUMPY_LOGIC = {
    "isnan", "isinf", "isfinite", "isclose", "allclose", "array_equal", "array_equiv",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_not", "logical_xor", "where", "nonzero", "argwhere", "flatnonzero",
    "count_nonzero", "all", "any", "isin",
}
_NUMPY_REDUCE = {
    "sum", "prod", "cumsum", "cumprod", "mean", "median", "average", "std", "var", "min",
    "max", "amin", "amax", "argmin", "argmax", "ptp", "nansum", "nanmean", "nanmin", "nanmax",
    "nanargmin", "nanargmax", "nanstd", "nanvar", "nanmedian", "percentile", "quantile",
    "diff", "ediff1d", "gradient", "trapezoid", "histogram", "bincount", "digitize",
    "searchsorted", "sort", "argsort", "lexsort", "partition", "argpartition", "unique",
    "intersect1d", "union1d", "setdiff1d", "setxor1d",
}
_NUMPY_PRODUCTS = {
    "dot", "vdot", "inner", "outer", "cross", "matmul", "tensordot", "einsum", "kron", "trace",
}
_NUMPY_TYPES = {
    "ndarray", "dtype", "float64", "float32", "float16", "int64", "int32", "int16", "int8",
    "uint64", "uint32", "uint16", "uint8", "intp", "bool", "bool_", "complex128",
    "floating", "integer", "number", "finfo", "iinfo", "newaxis", "pi", "e", "inf", "nan",
    "euler_gamma",
}
NUMPY = frozenset(_NUMPY_CREATE | _NUMPY_SHAPE | _NUMPY_ARITHMETIC | _NUMPY_LOGIC
                  | _NUMPY_REDUCE | _NUMPY_PRODUCTS | _NUMPY_TYPES)
NUMPY_SUBMODULES = {
    "linalg": frozenset({
        "norm", "solve", "inv", "det", "eig", "eigh", "eigvals", "eigvalsh", "svd", "qr",
        "cholesky", "lstsq", "pinv", "matrix_rank", "matrix_power", "cond", "slogdet", "cross",
        "LinAlgError",
    }),
    "random": frozenset({
        "default_rng", "seed", "rand", "randn", "random", "random_sample", "randint",
        "uniform", "normal", "choice", "shuffle", "permutation",
    }),
    "fft": frozenset({
        "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "fftfreq",
        "rfftfreq", "fftshift", "ifftshift",
    }),
}
SAM = frozenset({"mdb", "session", "MdbFileError", "RepositoryKeyError"})
