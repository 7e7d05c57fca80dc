#!/usr/bin/env python3
"""Generate Tern's Fortran bindings from the MPI Forum's machine-readable standard.

Inputs
  pympistandard         the standard's procedure database; each procedure's
                        Fortran (mpif.h / use mpi) expression is paired with
                        the C procedure genapi.py reads, parameter by name
  include/mpi.h         the values of the constants (MPICH's)

Outputs (committed, so building Tern never needs Python)
  src/fortran/gen/f77_bindings.c  one C entry point per Fortran procedure in
                                  the eight names MPICH's libmpifort exports
                                  (mpi_x, mpi_x_, mpi_x__, MPI_X and their
                                  pmpi forms); each converts its arguments
                                  and calls PMPI_X
  src/fortran/gen/f77_list.txt    the Fortran procedures, and which are
                                  generated or written by hand
  src/fortran/gen/mpif.h          fixed-form include file: constants, common
                                  blocks (those of src/fortran/f77_runtime.c)
  src/fortran/gen/mpi.f90         the `use mpi` module: the same constants and
                                  common blocks, and an explicit interface for
                                  each procedure without a choice buffer
  src/fortran/gen/mpi_list.txt    how `use mpi` declares each procedure, and
                                  why those it gives no interface have none
  tests/fortran/mpi_calls_gen.f90 a program calling every interface of
                                  `use mpi` with the standard's argument kinds
  src/fortran/gen/mpi_f08.f90     the `use mpi_f08` modules (MPICH's module
                                  names): types, constants, sentinels, callback
                                  interfaces, an interface per procedure, and
                                  pmpi_f08 (PMPI_ names)
  src/fortran/gen/f08_bindings.c  the mpi_f08 entry points with choice
                                  buffers, and the large-count forms
  src/fortran/gen/f08_list.txt    each mpi_f08 entry point and where it is

Run it from anywhere:  python3 tools/gen/gen_fortran.py
tools/gen/check.sh regenerates into a temporary directory and compares.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genapi  # noqa: E402  (the C side: procedures, parameter kinds, writing)

REPO = genapi.REPO
OUT_C = Path("src/fortran/gen/f77_bindings.c")
OUT_LIST = Path("src/fortran/gen/f77_list.txt")
OUT_MPIFH = Path("src/fortran/gen/mpif.h")
OUT_MOD = Path("src/fortran/gen/mpi.f90")

# Written by hand in src/fortran/f77_special.c: the Fortran mapping of these
# needs judgement (callbacks called with Fortran conventions, attribute
# values that are C pointers, arguments the Fortran form drops, the argv of
# spawn, the legacy forms whose Fortran integers are not C's MPI_Aint).
HAND_WRITTEN = frozenset({
    "MPI_Init", "MPI_Init_thread", "MPI_Pcontrol",
    "MPI_Comm_get_attr", "MPI_Type_get_attr", "MPI_Win_get_attr", "MPI_Attr_get",
    "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval",
    "MPI_Keyval_create",
    "MPI_Grequest_start", "MPI_Register_datarep",
    "MPI_Comm_spawn", "MPI_Comm_spawn_multiple",
    "MPI_Info_get_string",
    "MPI_Status_f082f", "MPI_Status_f2f08",
    # Fortran only (MPI_SIZEOF is a generic of the modules, no symbol).
    "MPI_F_sync_reg",
})
# The legacy procedures (genapi.LEGACY_PROCEDURES) and the predefined
# attribute callbacks are hand-written too; f77_list.txt names them.
HAND_WRITTEN_EXTRA = (
    "MPI_Address", "MPI_Errhandler_create", "MPI_Errhandler_get", "MPI_Errhandler_set",
    "MPI_Type_extent", "MPI_Type_hindexed", "MPI_Type_hvector", "MPI_Type_lb",
    "MPI_Type_struct", "MPI_Type_ub",
    "MPI_Null_copy_fn", "MPI_Null_delete_fn", "MPI_Dup_fn",
    "MPI_Comm_null_copy_fn", "MPI_Comm_null_delete_fn", "MPI_Comm_dup_fn",
    "MPI_Type_null_copy_fn", "MPI_Type_null_delete_fn", "MPI_Type_dup_fn",
    "MPI_Win_null_copy_fn", "MPI_Win_null_delete_fn", "MPI_Win_dup_fn",
    "MPI_Conversion_fn_null",
)

# C types that are int in the MPICH ABI and so need no conversion from a
# Fortran INTEGER (f77_runtime.h asserts their size).
INT_HANDLES = frozenset({
    "int", "MPI_Fint", "MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Info", "MPI_Request",
    "MPI_Op", "MPI_Errhandler", "MPI_Win", "MPI_Message", "MPI_Session",
})
WIDE = frozenset({"MPI_Aint", "MPI_Offset", "MPI_Count"})


def fail(msg):
    print(f"gen_fortran.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


class Binding:
    """One Fortran procedure and the C procedure it calls."""

    def __init__(self, fexpr, cproc):
        self.fexpr = fexpr
        self.c = cproc
        self.name = cproc.name


def fortran_procedures():
    import pympistandard
    pympistandard.use_api_version(1, force_bundled=True)
    cprocs = {p.name: p for p in genapi.standard_procedures()}
    bindings, fortran_only = [], []
    for key in sorted(pympistandard.PROCEDURES):
        proc = pympistandard.PROCEDURES[key]
        attrs = proc._parseset["attributes"]
        if attrs.get("callback") or attrs.get("predefined_function"):
            continue
        fexpr = proc.express.f90
        if fexpr is None:
            continue
        cexpr = proc.express.iso_c
        if cexpr is None:
            fortran_only.append(fexpr.name)
            continue
        if genapi.is_mpi5_abi(cexpr.name):
            continue
        if cexpr.name not in cprocs:
            fail(f"{cexpr.name} has a Fortran form but genapi.py generates no C procedure")
        bindings.append(Binding(fexpr, cprocs[cexpr.name]))
    return bindings, fortran_only


# --------------------------------------------------------------------------
# One entry point
# --------------------------------------------------------------------------

def base_type(decl, pname):
    """('const '?, C base type) of a C parameter declaration."""
    text = re.sub(rf"\b{pname}\b", " ", decl).replace("*", " ")
    text = re.sub(r"\[[^\]]*\]", " ", text)
    words = text.split()
    const = "const " if words and words[0] == "const" else ""
    words = [w for w in words if w != "const"]
    return const, " ".join(words)


class Emitter:
    """The pieces of one generated entry point."""

    def __init__(self):
        self.args = []      # the C parameters of the Fortran entry point
        self.hidden = []    # hidden character lengths, in order
        self.locals = []    # declarations before the call
        self.call = []      # the C call's arguments
        self.after = []     # statements after the call
        self.buffers = []   # mpi_f08 choice buffers: (name, C parameter kind)


def convert(e, b, decl, pname, kind, fparam):
    """Add the Fortran argument for C parameter pname to e."""
    kname, direction, level, array = kind
    const, ctype = base_type(decl, pname)
    if fparam is None:
        # The Fortran form drops it (MPI_Info_create_env's argc, argv).
        e.call.append("NULL" if level or array else "0")
        return
    ftype = fparam.type
    is_array = bool(array) or bool(fparam.dimensions)
    if ftype.startswith("TYPE(*)"):
        # mpi_f08's TYPE(*), DIMENSION(..): a C descriptor (f08_cdesc.h).
        e.args.append(f"CFI_cdesc_t *{pname}")
        e.locals.append(f"struct tern_f08_buf b_{pname} = {{0}};")
        e.buffers.append((pname, "out" if direction != "in" and not const else "in"))
        e.call.append(f"b_{pname}.addr")
    elif kname in ("BUFFER", "C_BUFFER2") or ftype == "<type>":
        e.args.append(f"{const}void *{pname}")
        e.call.append(f"tern_f_buf({pname})" if kname == "BUFFER" else pname)
    elif kname == "C_BUFFER":
        # MPI_Alloc_mem and friends: C stores a pointer through a void *,
        # Fortran passes an INTEGER(KIND=MPI_ADDRESS_KIND) to hold it.
        e.args.append(f"MPI_Aint *{pname}")
        e.call.append(pname)
    elif kname == "STATUS":
        e.args.append(f"{const}MPI_Fint *{pname}")
        helper = "tern_f_statuses" if array else "tern_f_status"
        e.call.append(f"{helper}({pname})")
    elif kname == "LOGICAL" and not is_array:
        if direction == "in":
            e.args.append(f"const MPI_Fint *{pname}")
            e.call.append(f"tern_f_l2c(*{pname})")
        else:
            e.args.append(f"MPI_Fint *{pname}")
            e.locals.append(f"int c_{pname} = 0;")
            e.call.append(f"&c_{pname}")
            e.after.append(f"*{pname} = tern_c_l2f(c_{pname});")
    elif kname == "LOGICAL":
        # gfortran's .TRUE. is 1 and .FALSE. 0: a LOGICAL array reads as C's
        # int truth values, and Tern's C writes 1 and 0 into one.
        e.args.append(f"{const}MPI_Fint *{pname}")
        e.call.append(pname)
    elif kname == "STRING" and (direction == "in" or const):
        e.args.append(f"const char *{pname}")
        e.hidden.append(pname)
        e.locals.append(f"char *c_{pname} = tern_f_str_in({pname}, {pname}_len);")
        e.call.append(f"c_{pname}")
        e.after.append(f"free(c_{pname});")
    elif kname == "STRING":
        e.args.append(f"char *{pname}")
        e.hidden.append(pname)
        e.locals.append(f"char *c_{pname} = tern_f_str_out_buf({pname}_len);")
        e.call.append(f"c_{pname}")
        e.after.append(f"tern_f_str_out({pname}, {pname}_len, c_{pname});")
    elif kname == "FILE":
        if level == 0 and not array:
            e.args.append(f"const MPI_Fint *{pname}")
            e.call.append(f"tern_f_file_f2c(*{pname})")
        else:
            e.args.append(f"MPI_Fint *{pname}")
            first = f"tern_f_file_f2c(*{pname})" if direction == "inout" else "MPI_FILE_NULL"
            e.locals.append(f"MPI_File c_{pname} = {first};")
            e.call.append(f"&c_{pname}")
            e.after.append(f"*{pname} = tern_f_file_c2f(c_{pname});")
    elif kname in ("FUNCTION", "POLYFUNCTION"):
        # The handler and reduction function types take every argument by
        # reference, as a Fortran subroutine does: the Fortran procedure is
        # the C callback.
        e.args.append(f"{ctype} *{pname}")
        e.call.append(pname)
    elif kname == "ATTRIBUTE_VAL" and direction == "in":
        e.args.append(f"const MPI_Aint *{pname}")
        e.call.append(f"(void *)*{pname}")
    elif kname == "ATTRIBUTE_VAL_10" and direction == "in":
        e.args.append(f"const MPI_Fint *{pname}")
        e.call.append(f"(void *)(MPI_Aint)*{pname}")
    elif kname == "ERROR_CODE" and array:
        e.args.append(f"MPI_Fint *{pname}")
        e.call.append(f"tern_f_errcodes({pname})")
    elif kname == "WEIGHT" and array:
        e.args.append(f"{const}MPI_Fint *{pname}")
        e.call.append(f"tern_f_weights({pname})")
    elif ctype in INT_HANDLES or ctype in WIDE:
        if ctype not in WIDE and ftype != "INTEGER" and ftype != f"TYPE({ctype})":
            fail(f"{b.name}({pname}): C {ctype} from Fortran {ftype}")
        if ctype in WIDE and "KIND" not in ftype:
            fail(f"{b.name}({pname}): C {ctype} from Fortran {ftype}")
        if level == 0 and not array:
            e.args.append(f"const {ctype} *{pname}")
            e.call.append(f"*{pname}")
        else:
            e.args.append(decl)
            e.call.append(pname)
    else:
        fail(f"{b.name}({pname}): no mapping for kind {kname} ({decl}, Fortran {ftype}): "
             f"map it in convert() or write the procedure by hand (HAND_WRITTEN)")


def render_binding(b, aliased):
    c = b.c
    fparams = list(b.fexpr.parameters)
    has_ierror = bool(fparams) and fparams[-1].name == "IERROR"
    if has_ierror:
        fparams = fparams[:-1]
    lower = c.name.lower()
    out = render_entry(c, fparams, has_ierror, f"p{lower}_", Emitter())
    out.append(f"TERN_F77_NAMES({lower}, {c.name.upper()})")
    if b.name in aliased:
        out.append(f"TERN_F08_NAMES({lower}, {aliased[b.name]})")
    if b.name in F08_MPICH_NAMES:
        out.append(f"TERN_F08_NAMES({lower}, {F08_MPICH_NAMES[b.name]})")
    return "\n".join(out)


def render_entry(c, fparams, has_ierror, fname, e, error_of=None, storage=""):
    """The C function fname taking the Fortran arguments fparams (IERROR
    excluded) and calling P<c.name>: a list of lines.  With choice buffers
    (mpi_f08's descriptors, e.buffers), error_of names the call's object for
    the error of a buffer the procedure cannot take; each buffer comes as
    gfortran's descriptor and becomes a C descriptor."""
    byname = {p.name.lower(): p for p in fparams}
    used = set()
    for (decl, pname), kind in zip(c.params, c.kinds):
        fparam = byname.get(pname.lower())
        if fparam is not None:
            used.add(pname.lower())
        convert(e, c, decl, pname, kind, fparam)
    typed = typed_buffers(c) if e.buffers else {}
    for i, pname in typed.items():
        # The buffer's own count and datatype, which a section replaces.
        ctype = base_type(c.params[i + 1][0], c.params[i + 1][1])[1]
        e.locals.append(f"MPI_Count n_{pname} = {e.call[i + 1]};")
        e.locals.append(f"MPI_Datatype t_{pname} = {e.call[i + 2]};")
        e.call[i + 1] = f"({ctype})n_{pname}" if ctype != "MPI_Count" else f"n_{pname}"
        e.call[i + 2] = f"t_{pname}"
    for pname, _ in e.buffers:
        e.args[e.args.index(f"CFI_cdesc_t *{pname}")] = f"const struct tern_gfc_desc *g_{pname}"
        e.locals[:0] = [f"CFI_CDESC_T(CFI_MAX_RANK) c_{pname};",
                        f"CFI_cdesc_t *{pname} = tern_gfc_to_cfi(g_{pname}, (CFI_cdesc_t *)&c_{pname});"]
    extra = sorted(set(byname) - used)
    if extra:
        fail(f"{c.name}: Fortran parameters without a C counterpart: {extra}")
    # Keep the Fortran order of the arguments (it is C's in every generated case).
    forder = [p.name.lower() for p in fparams]
    corder = [pname.lower() for _, pname in c.params if pname.lower() in byname]
    if forder != corder:
        fail(f"{c.name}: the Fortran arguments are not in C's order ({forder} vs {corder})")

    ret = "void"
    if has_ierror:
        e.args.append("MPI_Fint *ierror")
    elif c.ret != "int":
        ret = c.ret
    else:
        fail(f"{c.name}: a Fortran form without IERROR returning int")
    args = e.args + [f"size_t {p}_len" for p in e.hidden]
    out = [genapi.declarator(storage + ret, fname, [(a, None) for a in args], "")]
    out.append("{")
    out += [f"    {line}" for line in e.locals]
    call = f"P{c.name}({', '.join(e.call)})"
    if ret != "void":
        if e.after or e.buffers:
            fail(f"{c.name}: conversions after a value-returning call")
        out.append(f"    return {call};")
    elif e.buffers:
        mode = f08_buffer_mode(c)
        first = True
        for pname, _ in e.buffers:
            take = f"tern_f08_buf_in(&b_{pname}, {pname}, {mode})"
            if pname in typed.values():
                take = (f"tern_f08_buf_in_typed(&b_{pname}, {pname}, {mode}, &n_{pname}, "
                        f"&t_{pname})")
            out.append(f"    int rc = {take};" if first else f"    if (rc == MPI_SUCCESS) rc = {take};")
            first = False
        out.append(f"    rc = rc == MPI_SUCCESS ? {call} : {error_of or 'tern_f08_world_error(rc)'};")
        for pname, direction in e.buffers:
            out.append(f"    tern_f08_buf_out(&b_{pname}, {int(direction == 'out')});")
        out += [f"    {line}" for line in e.after]
        out.append("    tern_f_ierror(ierror, rc);")
    else:
        out.append(f"    int rc = {call};")
        out += [f"    {line}" for line in e.after]
        out.append("    tern_f_ierror(ierror, rc);")
    out.append("}")
    return out


GENERATED = ("Generated by tools/gen/gen_fortran.py from the MPI standard (pympistandard): "
             "do not edit.")


def render_c(bindings, aliased):
    out = [
        "/* " + GENERATED,
        " *",
        " * The Fortran 77 entry points (mpif.h and `use mpi`): each takes its",
        " * arguments by reference as gfortran passes them, hidden character lengths",
        " * last, converts what differs from C (LOGICAL, strings, the sentinels of",
        " * f77_runtime.c, file handles) and calls the C procedure.  The procedures",
        " * whose mapping needs judgement are in f77_special.c.  The procedures of",
        " * `use mpi_f08` without choice buffers pass their arguments in the same",
        " * way, so each is its Fortran 77 entry point under MPICH's mpi_f08 names",
        " * (TERN_F08_NAMES). */",
        "",
        '#include "fortran/f77_runtime.h"',
    ]
    for b in bindings:
        if b.name in HAND_WRITTEN:
            continue
        out.append("")
        out.append(render_binding(b, aliased))
    return "\n".join(out) + "\n"


def render_list(bindings, fortran_only):
    rows = []
    for b in bindings:
        rows.append((b.name, "hand-written" if b.name in HAND_WRITTEN else "generated"))
    for name in fortran_only:
        # pympistandard spells Fortran-only procedures in capitals.
        pretty = {"MPI_F_SYNC_REG": "MPI_F_sync_reg", "MPI_SIZEOF": "MPI_Sizeof"}.get(name, name)
        if pretty in HAND_WRITTEN:
            rows.append((pretty, "hand-written"))
        elif pretty == "MPI_Sizeof":
            rows.append((pretty, "a generic of the mpi module (mpi_sizeofs), no procedure"))
        else:
            rows.append((pretty, "missing"))
    for name in HAND_WRITTEN_EXTRA:
        rows.append((name, "hand-written"))
    width = max(len(n) for n, _ in rows) + 2
    return "\n".join(f"{n:<{width}}{s}" for n, s in sorted(rows)) + "\n"


# --------------------------------------------------------------------------
# mpif.h and mpi.f90
# --------------------------------------------------------------------------

HEADER = REPO / "include" / "mpi.h"
DEFINE_RE = re.compile(r"^#define\s+(MPI_[A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$")
ENUM_RE = re.compile(r"^\s*(MPI_[A-Z0-9_]+)\s*=\s*([-+]?(?:0x[0-9a-fA-F]+|\d+))\s*,?")
# "((MPI_Comm)0x44000000)", "(-2)", "12": a handle cast or an integer.
VALUE_RE = re.compile(r"^\(*(?:\((?:MPI_[A-Za-z]+)\))?([-+]?(?:0x[0-9a-fA-F]+|\d+))\)*$")

# Fortran's own constants (MPICH's values): the status is five INTEGERs
# with the source, tag and error at these (1-based) places.
FORTRAN_INTEGERS = [
    ("MPI_STATUS_SIZE", 5), ("MPI_SOURCE", 3), ("MPI_TAG", 4), ("MPI_ERROR", 5),
    ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8), ("MPI_COUNT_KIND", 8),
    ("MPI_INTEGER_KIND", 4),
]
# The predefined attribute keyvals: Fortran's are C's + 1 (MPICH's values),
# which tells the attribute code that Fortran asks for the value itself.
FORTRAN_KEYVALS = frozenset(
    "MPI_TAG_UB MPI_HOST MPI_IO MPI_WTIME_IS_GLOBAL MPI_UNIVERSE_SIZE MPI_LASTUSEDCODE "
    "MPI_APPNUM MPI_WIN_BASE MPI_WIN_SIZE MPI_WIN_DISP_UNIT MPI_WIN_CREATE_FLAVOR "
    "MPI_WIN_MODEL".split())
# Datatypes MPICH's mpif.h names that Tern does not have.
ABSENT_DATATYPES = ("MPI_INTEGER16",)
# Constants of a wider kind than INTEGER.
WIDE_CONSTANTS = {"MPI_DISPLACEMENT_CURRENT": "MPI_OFFSET_KIND"}
# Defined in mpi.h for C alone, or set above for Fortran.
C_ONLY = re.compile(r"^MPI_(T_|F_STATUS|F08_|STATUS_SIZE$|SOURCE$|TAG$|ERROR$)")


def header_constants():
    """[(name, value)] of mpi.h's integer constants, in the header's order."""
    values, order = {}, []
    text = HEADER.read_text(encoding="utf-8")
    for line in text.splitlines():
        m = DEFINE_RE.match(line) or ENUM_RE.match(line)
        if not m:
            continue
        name, expr = m.group(1), m.group(2).strip()
        if C_ONLY.match(name) or name in values:
            continue
        v = VALUE_RE.match(expr)
        if v:
            value = int(v.group(1), 0)
        elif expr in values:              # an alias: MPI_LONG_LONG
            value = values[expr]
        else:
            continue                      # pointers, functions, macros with arguments
        if value >= 2**31:                # handles with the high bit set
            value -= 2**32
        if name in FORTRAN_KEYVALS:
            value += 1
        elif name.startswith("MPI_MAX_"):
            value -= 1                    # a Fortran string holds no NUL
        values[name] = value
        order.append(name)
    for name in ABSENT_DATATYPES:
        if name not in values:
            values[name] = values["MPI_DATATYPE_NULL"]
            order.append(name)
    return [(n, values[n]) for n in order]


CALLBACKS = ("MPI_DUP_FN MPI_NULL_DELETE_FN MPI_NULL_COPY_FN MPI_COMM_DUP_FN "
             "MPI_COMM_NULL_DELETE_FN MPI_COMM_NULL_COPY_FN MPI_WIN_DUP_FN "
             "MPI_WIN_NULL_DELETE_FN MPI_WIN_NULL_COPY_FN MPI_TYPE_DUP_FN "
             "MPI_TYPE_NULL_DELETE_FN MPI_TYPE_NULL_COPY_FN MPI_CONVERSION_FN_NULL").split()


# The procedures mpif.h declares, a typed function or a callback passed by
# name, by their declaration: (type or None, names).  `use mpi` declares
# those it has an interface for by that interface instead.
MPIF_PROCEDURES = [(None, [name]) for name in CALLBACKS] + [
    ("DOUBLE PRECISION", ["MPI_WTIME", "MPI_WTICK", "PMPI_WTIME", "PMPI_WTICK"]),
    ("INTEGER(KIND=MPI_ADDRESS_KIND)", ["MPI_AINT_ADD", "MPI_AINT_DIFF"]),
]


def mpif_lines(constants, interfaced=frozenset()):
    """The statements of mpif.h, less the declarations of the procedures in
    interfaced (upper-case names)."""
    out = []

    def integer(name, value, kind=None):
        decl = f"INTEGER(KIND={kind})" if kind else "INTEGER"
        out.append(f"      {decl} {name}")
        out.append(f"      PARAMETER ({name}={value})")

    for name, value in FORTRAN_INTEGERS:
        integer(name, value)
    for name, value in constants:
        integer(name, value, WIDE_CONSTANTS.get(name))
    out.append("      LOGICAL MPI_SUBARRAYS_SUPPORTED")
    out.append("      PARAMETER (MPI_SUBARRAYS_SUPPORTED=.FALSE.)")
    out.append("      LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING")
    out.append("      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)")
    out += [
        "      INTEGER MPI_BOTTOM, MPI_IN_PLACE",
        "      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
        "      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)",
        "      INTEGER MPI_ERRCODES_IGNORE(1)",
        "      CHARACTER*1 MPI_ARGVS_NULL(1,1)",
        "      CHARACTER*1 MPI_ARGV_NULL(1)",
        "      INTEGER MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY",
        "      COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE",
        "      COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE",
        "      COMMON /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL",
        "      COMMON /MPIFCMB5/ MPI_UNWEIGHTED",
        "      COMMON /MPIFCMB9/ MPI_WEIGHTS_EMPTY",
        "      SAVE /MPIPRIV1/, /MPIPRIV2/, /MPIPRIVC/, /MPIFCMB5/, /MPIFCMB9/",
    ]
    for ftype, names in MPIF_PROCEDURES:
        names = ", ".join(n for n in names if n not in interfaced)
        if names and ftype:
            out.append(f"      {ftype} {names}")
        if names:
            out.append(f"      EXTERNAL {names}")
    return out


def render_mpif(constants):
    """mpif.h: valid as fixed and as free form (statements from column 7, no
    continuation lines, '!' comments), as programs include it from both."""
    out = ["! " + GENERATED,
           "! Tern's Fortran include file: the constants of mpi.h (MPICH's values),",
           "! and the sentinels as the common blocks MPICH's mpif.h declares, so that",
           "! programs built against either header run on either library."]
    return "\n".join(out + mpif_lines(constants)) + "\n"


# MPI_SIZEOF: a generic of the modules, one specific per type and kind, under
# MPICH's names (mpi_sizeofs for `use mpi`, mpi_f08_types for mpi_f08).
SIZEOF_MPI = [("i", "integer"), ("i1", "integer(kind=int8)"), ("i2", "integer(kind=int16)"),
              ("i8", "integer(kind=int64)"), ("r", "real"), ("d", "double precision"),
              ("cx", "complex"), ("l", "logical"), ("ch", "character(len=*)")]
SIZEOF_F08 = [("xint8", "integer(kind=int8)"), ("xint16", "integer(kind=int16)"),
              ("xint32", "integer(kind=int32)"), ("xint64", "integer(kind=int64)"),
              ("xreal32", "real(kind=real32)"), ("xreal64", "real(kind=real64)"),
              ("xreal128", "real(kind=real128)"), ("xcomplex32", "complex(kind=real32)"),
              ("xcomplex64", "complex(kind=real64)"), ("xcomplex128", "complex(kind=real128)"),
              ("logical", "logical"), ("character", "character(len=*)")]


def render_sizeofs(table, dims, optional):
    """The generic MPI_SIZEOF and its specifics (module text, then the
    procedures after CONTAINS)."""
    specs = [(f"mpi_sizeof_{n}{suffix}", ftype, dim) for n, ftype in table
             for suffix, dim in dims]
    head = ["  interface MPI_Sizeof"]
    head += fwrap(f"module procedure {', '.join(s for s, _, _ in specs)}", "    ")
    head.append("  end interface")
    body = []
    for name, ftype, dim in specs:
        opt = ", optional" if optional else ""
        body += [f"  subroutine {name}(x, size, ierror)",
                 f"    {ftype}{dim}, intent(in) :: x",
                 "    integer, intent(out) :: size",
                 f"    integer{opt}, intent(out) :: ierror",
                 f"    size = storage_size({'x(1)' if '*' in dim else 'x'}) / 8"]
        body.append("    if (present(ierror)) ierror = 0" if optional else "    ierror = 0")
        body.append(f"  end subroutine {name}")
    return head, body


# --------------------------------------------------------------------------
# use mpi: an explicit interface per procedure without a choice buffer
# --------------------------------------------------------------------------
#
# The standard's mpi-module binding is its mpif.h binding (pympistandard's
# f90 expression): types, kinds and array shapes, no INTENT (MPICH's module
# declares none either).  A procedure with a choice buffer keeps no
# interface, as in MPICH's module: programs pass buffers of any type and
# rank, which an interface without TYPE(*) would refuse.

OUT_MPI_LIST = Path("src/fortran/gen/mpi_list.txt")
OUT_MPI_CALLS = Path("tests/fortran/mpi_calls_gen.f90")

# Procedures without a choice buffer that `use mpi` leaves without an
# interface, and why: mostly, programs built against MPICH's module (which
# has no interface for these either) pass arguments in forms the standard's
# interface would refuse.
WEIGHTS_WHY = ("the weights arrays: programs pass MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY, "
               "scalars in mpif.h's common blocks; MPICH's module has no interface either")
ONE_ELEMENT_WHY = ("programs pass a scalar for a one-element array (a 1-D topology: "
                   "MPI_CART_CREATE(comm, 1, n, .true., ...); one request, one rank), which "
                   "an interface refuses; MPICH's module has no interface either")
F08_STATUS_WHY = "TYPE(MPI_Status) is mpi_f08's; `use mpi` does not define it (nor does MPICH's)"
MPI_MODULE_OPEN = {
    "MPI_Dist_graph_create": WEIGHTS_WHY, "MPI_Dist_graph_create_adjacent": WEIGHTS_WHY,
    "MPI_Dist_graph_neighbors": WEIGHTS_WHY,
    "MPI_Status_f082f": F08_STATUS_WHY, "MPI_Status_f2f08": F08_STATUS_WHY,
    **{name: ONE_ELEMENT_WHY for name in (
        "MPI_Cart_coords", "MPI_Cart_create", "MPI_Cart_get", "MPI_Cart_map", "MPI_Cart_rank",
        "MPI_Cart_sub", "MPI_Dims_create", "MPI_Graph_create", "MPI_Graph_neighbors",
        "MPI_Group_translate_ranks", "MPI_Startall", "MPI_Waitall", "MPI_Waitany",
        "MPI_Waitsome", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
        "MPI_Request_get_status_all", "MPI_Request_get_status_any",
        "MPI_Request_get_status_some")},
    "MPI_Pcontrol": ("programs call it as the standard writes it, MPI_PCONTROL(LEVEL), and "
                     "with an IERROR, as MPICH's library takes it; MPICH's module has no "
                     "interface either"),
}
# The procedures MPI-3 removed, which pympistandard lacks and f77_special.c
# still serves: their MPI-2.2 Fortran bindings.
LEGACY_F90 = {
    "MPI_Address": ("(LOCATION, ADDRESS, IERROR)", "<type> LOCATION(*)", "INTEGER ADDRESS, IERROR"),
    "MPI_Errhandler_create": ("(FUNCTION, ERRHANDLER, IERROR)", "EXTERNAL FUNCTION",
                              "INTEGER ERRHANDLER, IERROR"),
    "MPI_Errhandler_get": ("(COMM, ERRHANDLER, IERROR)", "INTEGER COMM, ERRHANDLER, IERROR"),
    "MPI_Errhandler_set": ("(COMM, ERRHANDLER, IERROR)", "INTEGER COMM, ERRHANDLER, IERROR"),
    "MPI_Type_extent": ("(DATATYPE, EXTENT, IERROR)", "INTEGER DATATYPE, EXTENT, IERROR"),
    "MPI_Type_hindexed": ("(COUNT, ARRAY_OF_BLOCKLENGTHS, ARRAY_OF_DISPLACEMENTS, OLDTYPE, "
                          "NEWTYPE, IERROR)",
                          "INTEGER COUNT, ARRAY_OF_BLOCKLENGTHS(*), ARRAY_OF_DISPLACEMENTS(*), "
                          "OLDTYPE, NEWTYPE, IERROR"),
    "MPI_Type_hvector": ("(COUNT, BLOCKLENGTH, STRIDE, OLDTYPE, NEWTYPE, IERROR)",
                         "INTEGER COUNT, BLOCKLENGTH, STRIDE, OLDTYPE, NEWTYPE, IERROR"),
    "MPI_Type_lb": ("(DATATYPE, DISPLACEMENT, IERROR)", "INTEGER DATATYPE, DISPLACEMENT, IERROR"),
    "MPI_Type_struct": ("(COUNT, ARRAY_OF_BLOCKLENGTHS, ARRAY_OF_DISPLACEMENTS, ARRAY_OF_TYPES, "
                        "NEWTYPE, IERROR)",
                        "INTEGER COUNT, ARRAY_OF_BLOCKLENGTHS(*), ARRAY_OF_DISPLACEMENTS(*), "
                        "ARRAY_OF_TYPES(*), NEWTYPE, IERROR"),
    "MPI_Type_ub": ("(DATATYPE, DISPLACEMENT, IERROR)", "INTEGER DATATYPE, DISPLACEMENT, IERROR"),
}
# The standard's overloads (MPI-4.1 9.2): BASEPTR, which C's procedure sets
# to the memory's address, is INTEGER(KIND=MPI_ADDRESS_KIND) or TYPE(C_PTR).
# The TYPE(C_PTR) form, MPI_X_CPTR, is the same entry point (BIND(C) under
# its name: every argument is passed by reference, as Fortran passes them,
# and none is a string, so no hidden length differs).
MPI_MODULE_CPTR = ("MPI_Alloc_mem", "MPI_Win_allocate", "MPI_Win_allocate_shared",
                   "MPI_Win_shared_query")
# The types an interface of `use mpi` may give an argument.
MPI_ARG_TYPES = ("INTEGER", "INTEGER(KIND=MPI_ADDRESS_KIND)", "INTEGER(KIND=MPI_OFFSET_KIND)",
                 "INTEGER(KIND=MPI_COUNT_KIND)", "LOGICAL", "CHARACTER*(*)", "EXTERNAL")


class MpiSig:
    """One procedure of `use mpi`: its name, its result type (None for a
    subroutine) and its arguments as (name, type, shape), shape "" for a
    scalar or the bounds as the standard writes them: "(*)",
    "(MPI_STATUS_SIZE, *)"; generic, the generic name it is a form of."""

    def __init__(self, name, result, args, generic=None):
        self.name, self.result, self.args = name, result, args
        self.generic = generic or name

    @property
    def choice(self):
        return any(t.upper() == "<TYPE>" for _, t, _ in self.args)


def split_args(text):
    """The comma-separated items of text, commas inside parentheses kept."""
    items, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            items.append(cur.strip())
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    return items + ([cur.strip()] if cur.strip() else [])


def sig_from_f90(name, fexpr):
    args = []
    for p in fexpr.parameters:
        text = str(p)
        shape = text[len(p.name):] if "(" in text else ""
        # A bound naming another argument (ARRAY_OF_ARGV(COUNT, *)) in its spelling.
        shape = re.sub(r"\b(?!MPI_)[A-Z]\w*", lambda m: m.group(0).lower(), shape)
        args.append((p.name.lower(), p.type, shape))
    return MpiSig(name, fexpr.return_type, args)


def sig_from_legacy(name, spec):
    order, *decls = spec
    types = {}
    for decl in decls:
        ftype, rest = re.match(r"(INTEGER|EXTERNAL|<type>)\s+(.*)", decl).groups()
        for item in split_args(rest):
            m = re.match(r"(\w+)(\(.*\))?$", item)
            types[m.group(1)] = (ftype, m.group(2) or "")
    args = [(a.lower(), *types[a]) for a in split_args(order.strip("()"))]
    return MpiSig(name, None, args)


def mpi_module_procedures(bindings, fortran_only):
    """[(name, MpiSig or None, how)] for every Fortran 77 procedure (and
    mpif.h's PMPI_ functions): how `use mpi` declares it."""
    import pympistandard
    rows = []
    for b in bindings:
        rows.append((b.name, sig_from_f90(b.name, b.fexpr)))
        if b.name in ("MPI_Wtime", "MPI_Wtick"):
            rows.append(("P" + b.name, sig_from_f90("P" + b.name, b.fexpr)))
    for name in HAND_WRITTEN_EXTRA:
        if name in LEGACY_F90:
            rows.append((name, sig_from_legacy(name, LEGACY_F90[name])))
            continue
        pf = pympistandard.PREDEFINED_FUNCTIONS[name.lower()].express.f90
        rows.append((name, sig_from_f90(name, pf)))
    out = []
    for name, sig in rows:
        if sig.choice:
            out.append((name, None, "no interface: a choice buffer"))
        elif name in MPI_MODULE_CPTR:
            out.append((name, sig, "interface, generic with " + name + "_cptr for a TYPE(C_PTR) "
                        "baseptr"))
        elif name in MPI_MODULE_OPEN:
            out.append((name, None, "no interface: " + MPI_MODULE_OPEN[name]))
        else:
            for arg, ftype, _ in sig.args:
                if ftype not in MPI_ARG_TYPES:
                    fail(f"{name}({arg}): no `use mpi` interface for type {ftype}: "
                         f"map it or list the procedure in MPI_MODULE_OPEN")
            out.append((name, sig, "interface"))
    fortran_only_how = {"MPI_F_SYNC_REG": ("MPI_F_sync_reg", "no interface: a choice buffer"),
                        "MPI_SIZEOF": ("MPI_Sizeof", "generic of mpi_sizeofs")}
    for name in fortran_only:
        pretty, how = fortran_only_how.get(name, (name, "no interface: missing"))
        out.append((pretty, None, how))
    return sorted(out, key=lambda r: r[0])


def mpi_declarations(sig):
    """The declarations of sig's arguments, one per type in the order of
    first use, and the module's names they need (IMPORT)."""
    groups = {}
    for name, ftype, shape in sig.args:
        groups.setdefault(ftype, []).append(name + shape.replace(" ", "").replace(",", ", "))
    decls = []
    for ftype, items in groups.items():
        decl = {"CHARACTER*(*)": "CHARACTER(LEN=*)"}.get(ftype, ftype)
        decls.append(f"{decl} :: {', '.join(items)}")
    needed = sorted(set(re.findall(r"\b(MPI_\w+)", " ".join(decls))))
    uses = ["use, intrinsic :: iso_c_binding, only : C_PTR"] if "TYPE(C_PTR)" in groups else []
    return uses, decls, needed


def cptr_sig(sig):
    """The TYPE(C_PTR) form of sig, one of MPI_MODULE_CPTR."""
    args = [(a, "TYPE(C_PTR)" if a == "baseptr" else t, shape) for a, t, shape in sig.args]
    if args == sig.args:
        fail(f"{sig.name}: no BASEPTR argument for its TYPE(C_PTR) form")
    return MpiSig(sig.name + "_cptr", sig.result, args, generic=sig.name)


def mpi_interface(sig, indent, bind=""):
    """The interface body of sig (BIND(C) to the entry point bind)."""
    uses, decls, needed = mpi_declarations(sig)
    args = ", ".join(a for a, _, _ in sig.args)
    kind = "function" if sig.result else "subroutine"
    suffix = f' bind(C, name="{bind}")' if bind else ""
    out = fwrap(f"{sig.result + ' ' if sig.result else ''}{kind} {sig.name}({args}){suffix}",
                indent)
    inner = indent + "  "
    out += [inner + u for u in uses]
    if needed:
        out += fwrap(f"import :: {', '.join(needed)}", inner)
    out.append(inner + "implicit none")
    for d in decls:
        out += fwrap(d, inner)
    out.append(f"{indent}end {kind} {sig.name}")
    return out


def render_module(constants, procs):
    """mpi.f90: mpi_sizeofs (the generic MPI_SIZEOF) and mpi: mpif.h's
    constants and common blocks, and the interfaces."""
    head, body = render_sizeofs(SIZEOF_MPI, (("", ""), ("v", ", dimension(*)")), False)
    sigs = [sig for _, sig, _ in procs if sig is not None]
    interfaced = frozenset(sig.name.upper() for sig in sigs)
    out = ["! " + GENERATED,
           "module mpi_sizeofs",
           "  use, intrinsic :: iso_fortran_env, only : int8, int16, int64",
           "  implicit none",
           "  private :: int8, int16, int64",
           *head,
           "contains",
           *body,
           "end module mpi_sizeofs",
           "",
           "! `use mpi`: mpif.h's constants and common blocks (the same storage, so",
           "! mpif.h and `use mpi` units mix), MPI_SIZEOF, and an explicit interface for",
           "! each procedure without a choice buffer, with the types, kinds and array",
           "! shapes of the standard's binding.  A procedure with a choice buffer",
           "! (MPI_Send, MPI_Bcast, ...) has no interface, as in MPICH's module: it takes",
           "! buffers of any type and rank.  src/fortran/gen/mpi_list.txt says how each",
           "! procedure is declared, and why those without a choice buffer that have",
           "! no interface have none.",
           "module mpi",
           "  use :: mpi_sizeofs",
           "  implicit none"]
    out += ["  " + line.strip() for line in mpif_lines(constants, interfaced)]
    out.append("  interface")
    for sig in sigs:
        if sig.name not in MPI_MODULE_CPTR:
            out += mpi_interface(sig, "    ")
    out.append("  end interface")
    for sig in sigs:
        if sig.name in MPI_MODULE_CPTR:
            out.append(f"  interface {sig.name}")
            out += mpi_interface(sig, "    ")
            out += mpi_interface(cptr_sig(sig), "    ", bind=sig.name.lower() + "_")
            out.append("  end interface")
    out.append("end module mpi")
    return "\n".join(out) + "\n"


def render_mpi_list(procs):
    width = max(len(n) for n, _, _ in procs) + 2
    return "".join(f"{n:<{width}}{how}\n" for n, _, how in procs)


def render_mpi_calls(procs):
    """A program that calls every interfaced procedure of `use mpi` with
    arguments of the standard's types and kinds: built, it shows that the
    interfaces take them; linked, that each procedure is defined."""
    out = ["! " + GENERATED,
           "! Every procedure `use mpi` has an interface for, called with arguments of",
           "! the standard's types, kinds and shapes (each form of a generic once).",
           "! Built and linked, it shows that each interface takes them and each",
           "! procedure is defined; run, it calls nothing (the calls are behind a",
           "! condition the test never meets).",
           "program mpi_calls", "  use :: mpi",
           "  use, intrinsic :: iso_c_binding, only : C_PTR", "  implicit none",
           "  external :: tern_stub_callback",
           "  if (command_argument_count() < 1000) then", "    print *, 'ok'", "    stop",
           "  end if"]
    sigs = [sig for _, sig, _ in procs if sig is not None]
    sigs += [cptr_sig(sig) for sig in sigs if sig.name in MPI_MODULE_CPTR]
    for sig in sigs:
        decls, args = {}, []
        for name, ftype, shape in sig.args:
            if ftype == "EXTERNAL":
                args.append("tern_stub_callback")
                continue
            ltype = "CHARACTER(LEN=16)" if ftype == "CHARACTER*(*)" else ftype
            bounds = [b.strip() for b in shape.strip("()").split(",")] if shape else []
            dims = ", ".join(b if b == "MPI_STATUS_SIZE" else "4" for b in bounds)
            decls.setdefault(ltype, []).append(f"{name}({dims})" if dims else name)
            args.append(name)
        out.append("  block")
        for ltype, names in decls.items():
            out += fwrap(f"{ltype} :: {', '.join(names)}", "    ")
        if sig.result:
            out.append(f"    {sig.result} :: res")
            out += fwrap(f"res = {sig.generic}({', '.join(args)})", "    ")
        else:
            out += fwrap(f"call {sig.generic}({', '.join(args)})", "    ")
        out.append("  end block")
    out += ["end program mpi_calls", "",
            "! Stands for every callback argument (an EXTERNAL dummy takes any procedure).",
            "subroutine tern_stub_callback()", "end subroutine tern_stub_callback"]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# use mpi_f08
# --------------------------------------------------------------------------
#
# MPICH's names: MPI_X_f08 (MPI_X_f08ts with a choice buffer, "_large" added
# for the large-count form), exported as mpi_x_f08_ and pmpir_x_f08_, each an
# external procedure that is not BIND(C): gfortran passes the arguments by
# reference, an absent OPTIONAL ierror as NULL, character lengths last, and a
# TYPE(*), DIMENSION(..) buffer as its own array descriptor.  So:
#   - without a choice buffer, the small form is the Fortran 77 entry point
#     under the mpi_f08 names (f77_bindings.c, f77_special.c);
#   - the large form without a choice buffer is a C function of its own
#     (f08_bindings.c);
#   - with a choice buffer, the entry point is a C function (f08_bindings.c)
#     that reads gfortran's descriptor (struct tern_gfc_desc, f08_cdesc.h):
#     a scalar or an array of adjacent elements goes straight to PMPI_X;
#     any other shape becomes the standard's C descriptor, CFI_cdesc_t, for
#     tern_f08_x, which f08_cdesc.c serves with a temporary or a datatype.
OUT_F08_MOD = Path("src/fortran/gen/mpi_f08.f90")
OUT_F08_C = Path("src/fortran/gen/f08_bindings.c")
OUT_F08_LIST = Path("src/fortran/gen/f08_list.txt")

# Module procedures of mpi_f08_types in MPICH's module (no external name).
F08_IN_MODULE = frozenset({"MPI_Status_f082f", "MPI_Status_f2f08"})
# Written by hand in f77_special.c: mpi_f08's form differs from mpif.h's.
F08_HAND_WRITTEN = frozenset({"MPI_Pcontrol"})
# The buffer is an address the library keeps or computes, not data.
F08_ADDRESS_ONLY = frozenset({"MPI_Get_address", "MPI_Free_mem", "MPI_Win_attach",
                              "MPI_Win_detach"})
# MPICH 4.0's module names these procedures as an MPI-4.1 draft did: the
# same entry points under those names too, for programs built against it.
F08_MPICH_NAMES = {
    "MPI_Remove_error_class": "delete_error_class_f08_",
    "MPI_Remove_error_code": "delete_error_code_f08_",
    "MPI_Remove_error_string": "delete_error_string_f08_",
}
# Large-count forms with names of their own, which MPICH's module lacks: the
# standard's MPI_Op_create_c (its user function is called as C's is).
F08_OWN_LARGE = frozenset({"MPI_Op_create_c"})
HANDLE_TYPES = ("MPI_Comm", "MPI_Datatype", "MPI_Errhandler", "MPI_File", "MPI_Group",
                "MPI_Info", "MPI_Message", "MPI_Op", "MPI_Request", "MPI_Session", "MPI_Win")


class F08Param:
    """What convert() reads of a Fortran parameter, for an mpi_f08 one."""

    def __init__(self, p):
        self.name = p.name
        self.type = p.type
        self.dimensions = "(" in str(p)


class F08Proc:
    """One specific procedure of mpi_f08 and the C procedure it calls."""

    def __init__(self, fexpr, cproc, large):
        self.fexpr = fexpr
        self.c = cproc
        self.large = large
        self.choice = any(p.type.startswith("TYPE(*)") for p in fexpr.parameters)
        self.generic = fexpr.name
        self.specific = fexpr.name + ("_f08ts" if self.choice else "_f08") + \
            ("_large" if large else "")
        self.suffix = self.specific.lower()[4:] + "_"     # send_f08ts_
        self.how = None

    @property
    def params(self):
        ps = list(self.fexpr.parameters)
        return ps[:-1] if self.has_ierror else ps

    @property
    def has_ierror(self):
        ps = list(self.fexpr.parameters)
        return bool(ps) and ps[-1].name == "ierror"


def f08_procedures(bindings):
    """[F08Proc] with .how set, and [(name, why)] of the forms left out."""
    import pympistandard
    f77 = {b.name: b for b in bindings}
    cprocs = {p.name: p for p in genapi.standard_procedures()}
    procs, left_out = [], []
    for key in sorted(pympistandard.PROCEDURES):
        proc = pympistandard.PROCEDURES[key]
        fexpr = proc.express.f08
        if fexpr is None:
            continue
        if fexpr.name == "MPI_F_sync_reg":
            fp = F08Proc(fexpr, None, False)
            fp.how = "buffer"
            procs.append(fp)
            continue
        cexpr = proc.express.iso_c
        if cexpr is None or genapi.is_mpi5_abi(cexpr.name):
            continue
        small = F08Proc(fexpr, cprocs[cexpr.name], False)
        forms = [small]
        if proc.has_embiggenment() and proc.express.embiggen.f08 is not None:
            big = proc.express.embiggen.f08
            if big.name in F08_OWN_LARGE:
                forms.append(F08Proc(big, cprocs[proc.express.embiggen.iso_c.name], False))
            elif big.name != fexpr.name:
                left_out.append((big.name, "its Fortran callbacks take their arguments "
                                           "unlike C's (mpif.h's MPI_REGISTER_DATAREP "
                                           "ignores them too); MPICH has no such name"))
            elif f08_signature(big) == f08_signature(fexpr):
                left_out.append((big.name + " (large)", "the same kinds as the small form "
                                 "(MPI_COUNT_KIND = MPI_ADDRESS_KIND = 8): no generic can "
                                 "tell them apart, as in MPICH"))
            else:
                forms.append(F08Proc(big, cprocs[proc.express.embiggen.iso_c.name], True))
        for fp in forms:
            name = fp.c.name
            f90 = f77.get(name)
            if name in F08_IN_MODULE:
                fp.how = "module"
            elif fp.choice:
                fp.how = "buffer"
            elif name in F08_HAND_WRITTEN:
                fp.how = "hand-written"
            elif fp.large or name in F08_OWN_LARGE:
                fp.how = "generated"
            elif f90 is not None and same_arguments(f90, fp):
                fp.how = "alias"
            else:
                fail(f"{name}: mpi_f08's arguments differ from mpif.h's and it is not "
                     f"generated: add it to F08_HAND_WRITTEN and write it")
            procs.append(fp)
    return procs, left_out


def f08_signature(fexpr):
    """The type and kind of each argument, with the kinds that are all 8 alike."""
    sig = []
    for desc, params in fexpr.groupings.items():
        kind = re.sub(r"MPI_(COUNT|OFFSET)_KIND", "MPI_ADDRESS_KIND", desc.split(",")[0])
        sig += [(p.name, kind) for p in params]
    return sorted(sig)


def same_arguments(f90, fp):
    """mpif.h's form and mpi_f08's take the same arguments in the same way."""
    a = [p.name.lower() for p in f90.fexpr.parameters]
    b = [p.name.lower() for p in fp.fexpr.parameters]
    return a == b


def f08_buffer_mode(c):
    """How a non-contiguous array section may reach C procedure c."""
    base = c.name[:-2] if c.name.endswith("_c") else c.name
    if base in F08_ADDRESS_ONLY:
        return "TERN_F08_BUF_ADDRESS"
    keeps = ("attach" in base.lower() or base.endswith("_begin") or base.endswith("_end")
             or any(k[0] == "WINDOW" for k in c.kinds)
             or any(k[0] == "REQUEST" and k[1] != "in" for k in c.kinds))
    # The library keeps the buffer past the call: a copy cannot stand in.
    return "TERN_F08_BUF_KEEP" if keeps else "TERN_F08_BUF_COPY"


def typed_buffers(c):
    """{index: name} of the choice buffers followed by a count and a datatype
    of their own (scalars, in) that describe the whole buffer, when every
    buffer of c has them: a datatype over a section may then stand in for
    that count and datatype."""
    if re.search(r"gather|scatter|alltoall", c.name.lower()):
        # One block per process: a datatype over the first block's section
        # would not place the others.
        return {}
    found = {}
    nbuf = 0
    for i, ((decl, pname), k) in enumerate(zip(c.params, c.kinds)):
        if k[0] != "BUFFER":
            continue
        nbuf += 1
        if i + 2 >= len(c.params):
            continue
        (cdecl, cname), ck = c.params[i + 1], c.kinds[i + 1]
        dk = c.kinds[i + 2]
        ctype = base_type(cdecl, cname)[1]
        if (ctype in ("int", "MPI_Count") and ck[1] == "in" and not ck[2] and not ck[3]
                and dk[0] == "DATATYPE" and dk[1] == "in" and not dk[2] and not dk[3]):
            found[i] = pname
    return found if len(found) == nbuf else {}


def f08_error_of(c):
    """The call that raises a buffer's error on the procedure's object."""
    for (decl, pname), k in zip(c.params, c.kinds):
        if k[1] != "in" or k[2] or k[3]:
            continue
        if k[0] == "COMMUNICATOR":
            return f"tern_f08_comm_error(*{pname}, rc)"
        if k[0] == "WINDOW":
            return f"tern_f08_win_error(*{pname}, rc)"
        if k[0] == "FILE":
            return f"tern_f08_file_error(tern_f_file_f2c(*{pname}), rc)"
    return "tern_f08_world_error(rc)"


def render_f08_buffer_entry(fp, fparams, general):
    """The entry point mpi_x_f08ts_ of a procedure with choice buffers: C's
    procedure straight away when every buffer is plain, else the general
    function on C descriptors made from gfortran's."""
    c = fp.c
    e = Emitter()
    byname = {p.name.lower(): p for p in fparams}
    names = []
    for (decl, pname), kind in zip(c.params, c.kinds):
        fparam = byname.get(pname.lower())
        n = len(e.args)
        convert(e, c, decl, pname, kind, fparam)
        if len(e.args) > n:
            names.append(pname)
    bufs = [p for p, _ in e.buffers]
    args = [a.replace("CFI_cdesc_t *", "const struct tern_gfc_desc *") for a in e.args]
    args += ["MPI_Fint *ierror"] + [f"size_t {p}_len" for p in e.hidden]
    call = [x for x in e.call]
    for p in bufs:
        call = [x.replace(f"b_{p}.addr", f"tern_f_buf({p}->base_addr)") for x in call]
    fname = f"mpi_{fp.suffix}"
    out = [genapi.declarator("void", fname, [(a, None) for a in args], "")]
    out.append("{")
    plain = " && ".join(f"tern_gfc_plain({p})" for p in bufs)
    out.append(f"    if (!{plain if len(bufs) == 1 else '(' + plain + ')'}) {{")
    actual = names + ["ierror"] + [f"{p}_len" for p in e.hidden]
    out.append(f"        {general}({', '.join(actual)});")
    out.append("        return;")
    out.append("    }")
    out += [f"    {line}" for line in e.locals if not line.startswith("struct tern_f08_buf")]
    out.append(f"    int rc = P{c.name}({', '.join(call)});")
    out += [f"    {line}" for line in e.after]
    out.append("    tern_f_ierror(ierror, rc);")
    out.append("}")
    out.append(f"TERN_F08_PMPIR({fp.suffix})")
    return out


def render_f08_c(procs):
    out = [
        "/* " + GENERATED,
        " *",
        " * The mpi_f08 entry points that are not Fortran 77 ones under another name:",
        " * the large-count forms (mpi_x_f08_large_), and the procedures with choice",
        " * buffers (mpi_x_f08ts_), which take gfortran's descriptor per buffer and",
        " * hand any but the plain ones on to tern_f08_x as C descriptors. */",
        "",
        '#include "fortran/f08_cdesc.h"',
        '#include "fortran/f77_runtime.h"',
    ]
    for fp in procs:
        if fp.how not in ("buffer", "generated"):
            continue
        if fp.c is None:
            # MPI_F_sync_reg: the call itself is the barrier to the compiler's
            # code motion; there is nothing to do.
            out += ["", f"void mpi_{fp.suffix}(const struct tern_gfc_desc *buf) {{ (void)buf; }}",
                    f"TERN_F08_PMPIR({fp.suffix})"]
            continue
        fparams = [F08Param(p) for p in fp.params]
        if fp.how == "buffer":
            fname = f"tern_f08_{fp.c.name.lower()[4:]}"
            lines = render_entry(fp.c, fparams, fp.has_ierror, fname, Emitter(),
                                 f08_error_of(fp.c), storage="static TERN_F08_SHAPED ")
            lines += [""] + render_f08_buffer_entry(fp, fparams, fname)
        else:
            lines = render_entry(fp.c, fparams, fp.has_ierror, f"mpi_{fp.suffix}", Emitter())
            lines.append(f"TERN_F08_PMPIR({fp.suffix})")
        out.append("")
        out += lines
    return "\n".join(out) + "\n"


def render_f08_list(procs, left_out):
    what = {"alias": "Fortran 77 entry point", "hand-written": "hand-written (f77_special.c)",
            "generated": "generated (f08_bindings.c)", "module": "module procedure (mpi_f08_types)",
            "buffer": "generated (f08_bindings.c), gfortran's descriptor"}
    rows = [(f"mpi_{fp.suffix}", what[fp.how]) for fp in procs if fp.how != "module"]
    rows += [(fp.specific, what[fp.how]) for fp in procs if fp.how == "module"]
    rows += [(name, "missing: " + why) for name, why in left_out]
    rows.append(("MPI_Sizeof", "a generic of mpi_f08_types, no external procedure"))
    width = max(len(n) for n, _ in rows) + 2
    return "\n".join(f"{n:<{width}}{s}" for n, s in sorted(rows)) + "\n"


# ---- Fortran text ----

def fwrap(line, indent):
    """A free-form statement in lines of at most 100 characters."""
    text = indent + line
    if len(text) <= 100:
        return [text]
    out, cur = [], indent
    for word in re.split(r"(?<=,) ", line):
        if len(cur) + len(word) > 96 and cur.strip():
            out.append(cur.rstrip() + " &")
            cur = indent + "    "
        cur += word + " "
    out.append(cur.rstrip())
    return out


def f08_declarations(fexpr, c_interop=False):
    """(use lines, declaration lines, names needed from the modules, hidden
    lengths) of a pympistandard mpi_f08 expression.  With c_interop, a
    CHARACTER(LEN=*) argument is declared as C's char array and its length
    becomes a VALUE argument (the Fortran 77 convention, as C expects it)."""
    uses, decls, hidden = [], [], []
    if fexpr.intrinsic:
        uses.append(fexpr.intrinsic)
    for desc, params in fexpr.groupings.items():
        if c_interop and desc.startswith("CHARACTER(LEN=*)"):
            cdesc = desc.replace("CHARACTER(LEN=*)", "CHARACTER(KIND=C_CHAR)")
            for p in params:
                text = str(p)
                decls.append(f"{cdesc} :: {text if '(' in text else text + '(*)'}")
                hidden.append(p.name)
            continue
        decls.append(f"{desc} :: {', '.join(map(str, params))}")
    text = " ".join(decls)
    # Types, kinds, MPI_MAX_ lengths and callback interfaces.
    needed = sorted(set(re.findall(r"\b(MPI_\w+)", text)))
    if hidden:
        uses.append("USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_CHAR, C_SIZE_T")
        decls.append(f"INTEGER(KIND=C_SIZE_T), VALUE :: {', '.join(h + '_len' for h in hidden)}")
    return uses, decls, needed, hidden


def f08_uses(needed, indent):
    """USE statements for names of the mpi_f08_types and the constants modules."""
    types = [n for n in needed if n in HANDLE_TYPES or n == "MPI_Status" or n.endswith("_KIND")]
    consts = [n for n in needed if n not in types]
    out = []
    if types:
        out += fwrap(f"use :: mpi_f08_types, only : {', '.join(types)}", indent)
    if consts:
        out += fwrap(f"use :: mpi_f08_compile_constants, only : {', '.join(consts)}", indent)
    return out


def f08_interface(fexpr, name, indent, head_extra="", module=True, extra_uses=()):
    """The interface body (or the head of the procedure) of name."""
    uses, decls, needed, _ = f08_declarations(fexpr)
    uses = uses + list(extra_uses)
    args = ", ".join(p.name for p in fexpr.parameters)
    out = []
    if fexpr.return_type:
        out += fwrap(f"function {name}({args}) result(res){head_extra}", indent)
    else:
        out += fwrap(f"subroutine {name}({args}){head_extra}", indent)
    inner = indent + "  "
    for u in uses:
        out.append(inner + u)
    if needed:
        if module:
            out += fwrap(f"import :: {', '.join(needed)}", inner)
        else:
            out += f08_uses(needed, inner)
    out.append(inner + "implicit none")
    for d in decls:
        out += fwrap(d, inner)
    if fexpr.return_type:
        out.append(f"{inner}{fexpr.return_type} :: res")
    return out


def header_handle_types():
    """{constant: C handle type} of mpi.h's handle constants."""
    types = {}
    cast = re.compile(r"^\(*\((MPI_[A-Za-z]+)\)")
    for line in HEADER.read_text(encoding="utf-8").splitlines():
        m = DEFINE_RE.match(line)
        if not m:
            continue
        name, expr = m.group(1), m.group(2).strip()
        c = cast.match(expr)
        if c and c.group(1) in HANDLE_TYPES:
            types[name] = c.group(1)
        elif expr in types:
            types[name] = types[expr]
    for name in ABSENT_DATATYPES:
        types.setdefault(name, "MPI_Datatype")
    return types


# The bodies of the predefined callbacks, by the end of their names.
PREDEFINED_BODIES = {
    "_CONVERSION_FN_NULL_C": ["ierror = 0"],
    "_NULL_COPY_FN": ["flag = .false.", "ierror = 0"],
    "_DUP_FN": ["attribute_val_out = attribute_val_in", "flag = .true.", "ierror = 0"],
    "_NULL_DELETE_FN": ["ierror = 0"],
    "_CONVERSION_FN_NULL": ["ierror = 0"],
}


def render_f08_module(constants, procs):
    """mpi_f08.f90: the modules, named as MPICH names them, so that gfortran
    gives their data and procedures MPICH's names."""
    import pympistandard
    out = ["! " + GENERATED,
           "! `use mpi_f08`: the handle types, the constants, and an interface for each",
           "! procedure, under MPICH's module and procedure names."]

    # mpi_f08_types
    sizeof_head, sizeof_body = render_sizeofs(SIZEOF_F08, (("", ", dimension(..)"),), True)
    out += ["", "module mpi_f08_types",
            "  use, intrinsic :: iso_fortran_env, only : int8, int16, int32, int64, real32, "
            "real64, real128",
            "  implicit none",
            "  private :: tern_handle_eq, int8, int16, int32, int64, real32, real64, real128"]
    for name, value in FORTRAN_INTEGERS:
        out.append(f"  integer, parameter :: {name} = {value}")
    for t in HANDLE_TYPES:
        out += [f"  type, bind(C) :: {t}", "    integer :: MPI_VAL", f"  end type {t}"]
    out += ["  ! MPICH's layout, that of C's MPI_Status: MPI_STATUS_SIZE integers.",
            "  type, bind(C) :: MPI_Status",
            "    integer :: count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR",
            "  end type MPI_Status"]
    ops = []
    for t in HANDLE_TYPES:
        lt = t.lower()
        ops.append((lt, t))
    for op, suffix in (("==", "eq"), ("/=", "neq")):
        names = []
        for lt, _ in ops:
            names += [f"{lt}_{suffix}", f"{lt}_f08_{suffix}_f", f"{lt}_f_{suffix}_f08"]
        out.append(f"  interface operator({op})")
        out += fwrap(f"module procedure {', '.join(names)}", "    ")
        out.append("  end interface")
    out += sizeof_head
    out += ["  interface MPI_Status_f082f", "    module procedure mpi_status_f082f",
            "  end interface",
            "  interface MPI_Status_f2f08", "    module procedure mpi_status_f2f08",
            "  end interface", "contains",
            "  elemental logical function tern_handle_eq(x, y)",
            "    integer, intent(in) :: x, y", "    tern_handle_eq = x == y",
            "  end function tern_handle_eq"]
    for lt, t in ops:
        for suffix, neg in (("eq", ""), ("neq", ".not. ")):
            for fname, a, b, av, bv in (
                    (f"{lt}_{suffix}", f"type({t})", f"type({t})", "x%MPI_VAL", "y%MPI_VAL"),
                    (f"{lt}_f08_{suffix}_f", f"type({t})", "integer", "x%MPI_VAL", "y"),
                    (f"{lt}_f_{suffix}_f08", "integer", f"type({t})", "x", "y%MPI_VAL")):
                out += [f"  elemental logical function {fname}(x, y)",
                        f"    {a}, intent(in) :: x", f"    {b}, intent(in) :: y",
                        f"    {fname} = {neg}tern_handle_eq({av}, {bv})",
                        f"  end function {fname}"]
    out += ["  subroutine mpi_status_f082f(f08_status, f_status, ierror)",
            "    type(MPI_Status), intent(in) :: f08_status",
            "    integer, intent(out) :: f_status(MPI_STATUS_SIZE)",
            "    integer, optional, intent(out) :: ierror",
            "    f_status = (/ f08_status%count_lo, f08_status%count_hi_and_cancelled, &",
            "                  f08_status%MPI_SOURCE, f08_status%MPI_TAG, f08_status%MPI_ERROR /)",
            "    if (present(ierror)) ierror = 0",
            "  end subroutine mpi_status_f082f",
            "  subroutine mpi_status_f2f08(f_status, f08_status, ierror)",
            "    integer, intent(in) :: f_status(MPI_STATUS_SIZE)",
            "    type(MPI_Status), intent(out) :: f08_status",
            "    integer, optional, intent(out) :: ierror",
            "    f08_status = MPI_Status(f_status(1), f_status(2), f_status(3), f_status(4), &",
            "                            f_status(5))",
            "    if (present(ierror)) ierror = 0",
            "  end subroutine mpi_status_f2f08"]
    out += sizeof_body
    out.append("end module mpi_f08_types")

    # mpi_f08_compile_constants
    types = header_handle_types()
    out += ["", "module mpi_f08_compile_constants", "  use :: mpi_f08_types", "  implicit none"]
    for name, value in constants:
        if name in types:
            t = types[name]
            out.append(f"  type({t}), parameter :: {name} = {t}({value})")
        elif name in WIDE_CONSTANTS:
            out.append(f"  integer(kind={WIDE_CONSTANTS[name]}), parameter :: {name} = {value}")
        else:
            out.append(f"  integer, parameter :: {name} = {value}")
    out += ["  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.",
            "  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.",
            "end module mpi_f08_compile_constants"]

    # mpi_f08_link_constants: the sentinels, recognised by their addresses.
    out += ["", "module mpi_f08_link_constants",
            "  use, intrinsic :: iso_c_binding, only : c_int",
            "  use :: mpi_f08_types", "  implicit none", "  private :: c_int",
            "  type(MPI_Status), bind(C, name=\"MPIR_F08_MPI_STATUS_IGNORE_OBJ\"), target :: &",
            "      MPI_STATUS_IGNORE",
            "  type(MPI_Status), bind(C, name=\"MPIR_F08_MPI_STATUSES_IGNORE_OBJ\"), target :: &",
            "      MPI_STATUSES_IGNORE(1)",
            "  integer(c_int), bind(C, name=\"MPIR_F08_MPI_IN_PLACE\"), target :: MPI_IN_PLACE",
            "  integer(c_int), bind(C, name=\"MPIR_F08_MPI_BOTTOM\"), target :: MPI_BOTTOM",
            "  integer, target :: MPI_ERRCODES_IGNORE(1), MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)",
            "  character(len=1), target :: MPI_ARGV_NULL(1), MPI_ARGVS_NULL(1, 1)",
            "end module mpi_f08_link_constants"]

    # mpi_f08_callbacks: the abstract interfaces and the predefined callbacks.
    out += ["", "module mpi_f08_callbacks", "  use :: mpi_f08_types", "  implicit none"]
    for key in sorted(pympistandard.CALLBACKS):
        cb = pympistandard.CALLBACKS[key]
        forms = [cb.express.f08]
        if cb.has_embiggenment():
            forms.append(cb.express.embiggen.f08)
        for f in forms:
            if f is None or f.name.startswith("MPI_T_"):
                continue
            out.append("  abstract interface")
            out += f08_interface(f, f.name, "    ")
            out.append(f"    end subroutine {f.name}")
            out.append("  end interface")
    out.append("contains")
    forms = []
    for key in sorted(pympistandard.PREDEFINED_FUNCTIONS):
        pf = pympistandard.PREDEFINED_FUNCTIONS[key]
        forms.append(pf.express.f08)
        if pf.has_embiggenment():
            forms.append(pf.express.embiggen.f08)
    for f in forms:
        if f is None:
            continue
        body = next(b for end, b in PREDEFINED_BODIES.items() if f.name.endswith(end))
        lines = f08_interface(f, f.name, "  ", module=False)
        # In the module, the types come from its own use of mpi_f08_types.
        out += [l for l in lines if "use :: mpi_f08_" not in l]
        out += [f"    {b}" for b in body]
        out.append(f"  end subroutine {f.name}")
    out.append("end module mpi_f08_callbacks")

    # mpi_f08
    out += ["", "module mpi_f08", "  use :: mpi_f08_types", "  use :: mpi_f08_compile_constants",
            "  use :: mpi_f08_link_constants", "  use :: mpi_f08_callbacks", "  implicit none"]
    out += f08_generics(procs, "MPI", "MPI")
    out.append("end module mpi_f08")

    # pmpi_f08: the same under PMPI_, bound to MPICH's profiling names.
    out += ["", "module pmpi_f08", "  use :: mpi_f08_types", "  use :: mpi_f08_compile_constants",
            "  use :: mpi_f08_link_constants", "  use :: mpi_f08_callbacks", "  implicit none"]
    out += f08_generics(procs, "PMPI", "PMPIR")
    out.append("end module pmpi_f08")
    return "\n".join(out) + "\n"


def f08_generics(procs, generic_prefix, specific_prefix):
    """An interface block per generic name, with its specific procedures."""
    generics, out = {}, []
    for fp in procs:
        if fp.how != "module":
            generics.setdefault(fp.generic, []).append(fp)
    for generic in sorted(generics):
        out.append(f"  interface {generic_prefix}{generic[3:]}")
        for fp in generics[generic]:
            specific = specific_prefix + fp.specific[3:]
            out += f08_interface(fp.fexpr, specific, "    ")
            kind = "function" if fp.fexpr.return_type else "subroutine"
            out.append(f"    end {kind} {specific}")
        out.append("  end interface")
    return out


OUT_F08_CALLS = Path("tests/fortran/f08_calls_gen.f90")


def f08_local(desc, param):
    """A local variable standing for one argument: its declaration, or None
    for a procedure argument (the stub of its interface is passed)."""
    if desc.startswith("PROCEDURE("):
        return None
    text = str(param)
    name = param.name
    if desc.startswith("TYPE(*)"):
        return f"INTEGER :: {name}(4)"
    words = [w.strip() for w in desc.split(",")]
    keep = [w for w in words if not re.match(r"(INTENT|OPTIONAL|VALUE|ASYNCHRONOUS)", w)]
    # A length given by another argument (MPI_Info_get's valuelen) is a constant here.
    ftype = re.sub(r"CHARACTER\(LEN=(\*|[a-z]\w*)\)", "CHARACTER(LEN=16)", ", ".join(keep))
    if "(" in text:
        dims = text[text.index("(") + 1:-1].split(",")
        text = name + "(" + ", ".join(d.strip() if d.strip().isdigit() or d.strip() ==
                                      "MPI_STATUS_SIZE" else "4" for d in dims) + ")"
    return f"{ftype} :: {text}"


def render_f08_calls(procs):
    """A program that calls every generic of mpi_f08 with the argument types
    the standard gives (each specific form once), so that building it checks
    the interfaces resolve and linking it that every specific is defined."""
    import pympistandard
    out = ["! " + GENERATED,
           "! Every procedure of `use mpi_f08`, called once per specific form with",
           "! arguments of the standard's types.  Built and linked, it shows that each",
           "! generic resolves and each specific procedure is defined; run, it calls",
           "! nothing (the calls are behind a condition the test never meets).",
           "module f08_calls_stubs", "  use :: mpi_f08", "  implicit none", "contains"]
    stubs = {}
    for key in sorted(pympistandard.CALLBACKS):
        cb = pympistandard.CALLBACKS[key]
        forms = [cb.express.f08] + ([cb.express.embiggen.f08] if cb.has_embiggenment() else [])
        for f in forms:
            if f is None or f.name.startswith("MPI_T_"):
                continue
            stub = "stub_" + f.name.lower()
            stubs[f.name] = stub
            lines = f08_interface(f, stub, "  ", module=False)
            out += [l for l in lines if "use :: mpi_f08_" not in l]
            out.append(f"  end subroutine {stub}")
    out += ["end module f08_calls_stubs", "",
            "program f08_calls", "  use :: mpi_f08", "  use :: f08_calls_stubs",
            "  use, intrinsic :: iso_c_binding, only : c_ptr", "  implicit none",
            "  if (command_argument_count() < 1000) then", "    print *, 'ok'", "    stop",
            "  end if"]
    for fp in procs:
        if fp.how == "module":
            continue
        f = fp.fexpr
        decls, args = [], []
        for desc, params in f.groupings.items():
            for p in params:
                local = f08_local(desc, p)
                if local is not None:
                    decls.append(local)
        for p in f.parameters:
            if p.type.startswith("PROCEDURE("):
                args.append(stubs[re.match(r"PROCEDURE\((\w+)\)", p.type).group(1)])
            else:
                args.append(p.name)
        out.append("  block")
        for d in decls:
            out += fwrap(d, "    ")
        if f.return_type:
            out.append(f"    {f.return_type} :: res")
            out += fwrap(f"res = {fp.generic}({', '.join(args)})", "    ")
        else:
            out += fwrap(f"call {fp.generic}({', '.join(args)})", "    ")
        out.append("  end block")
    out.append("end program f08_calls")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", type=Path, default=REPO,
                    help="root under which to write the outputs (default: the repository)")
    args = ap.parse_args()
    bindings, fortran_only = fortran_procedures()
    outdir = args.outdir.resolve()
    procs, left_out = f08_procedures(bindings)
    aliased = {fp.c.name: fp.suffix for fp in procs if fp.how == "alias"}
    genapi.write(outdir / OUT_C, render_c(bindings, aliased))
    genapi.write(outdir / OUT_LIST, render_list(bindings, fortran_only))
    genapi.write(outdir / OUT_MPIFH, render_mpif(header_constants()))
    mpi_procs = mpi_module_procedures(bindings, fortran_only)
    genapi.write(outdir / OUT_MOD, render_module(header_constants(), mpi_procs))
    genapi.write(outdir / OUT_MPI_LIST, render_mpi_list(mpi_procs))
    genapi.write(outdir / OUT_MPI_CALLS, render_mpi_calls(mpi_procs))
    genapi.write(outdir / OUT_F08_MOD, render_f08_module(header_constants(), procs))
    genapi.write(outdir / OUT_F08_C, render_f08_c(procs))
    genapi.write(outdir / OUT_F08_LIST, render_f08_list(procs, left_out))
    genapi.write(outdir / OUT_F08_CALLS, render_f08_calls(procs))
    n = sum(1 for b in bindings if b.name not in HAND_WRITTEN)
    print(f"gen_fortran.py: {len(bindings)} Fortran procedures with a C form, {n} generated",
          file=sys.stderr)


if __name__ == "__main__":
    main()
