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
                                  common blocks, no procedure interfaces

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
    if kname in ("BUFFER", "C_BUFFER2") or ftype == "<type>":
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
        if ctype not in WIDE and ftype not in ("INTEGER",):
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


def render_binding(b):
    c = b.c
    fparams = list(b.fexpr.parameters)
    has_ierror = bool(fparams) and fparams[-1].name == "IERROR"
    if has_ierror:
        fparams = fparams[:-1]
    byname = {p.name.lower(): p for p in fparams}
    used = set()
    e = Emitter()
    for (decl, pname), kind in zip(c.params, c.kinds):
        fparam = byname.get(pname.lower())
        if fparam is not None:
            used.add(pname.lower())
        convert(e, b, decl, pname, kind, fparam)
    extra = sorted(set(byname) - used)
    if extra:
        fail(f"{b.name}: Fortran parameters without a C counterpart: {extra}")
    # Keep the Fortran order of the arguments (it is C's in every generated case).
    forder = [p.name.lower() for p in fparams]
    corder = [pname.lower() for _, pname in c.params if pname.lower() in byname]
    if forder != corder:
        fail(f"{b.name}: the Fortran arguments are not in C's order ({forder} vs {corder})")

    lower = c.name.lower()
    ret = "void"
    if has_ierror:
        e.args.append("MPI_Fint *ierror")
    elif c.ret != "int":
        ret = c.ret
    else:
        fail(f"{c.name}: a Fortran form without IERROR returning int")
    args = e.args + [f"size_t {p}_len" for p in e.hidden]
    out = [genapi.declarator(ret, f"p{lower}_", [(a, None) for a in args], "")]
    out.append("{")
    out += [f"    {line}" for line in e.locals]
    call = f"P{c.name}({', '.join(e.call)})"
    if ret != "void":
        if e.after:
            fail(f"{c.name}: conversions after a value-returning call")
        out.append(f"    return {call};")
    else:
        out.append(f"    int rc = {call};")
        out += [f"    {line}" for line in e.after]
        out.append("    *ierror = rc;")
    out.append("}")
    out.append(f"TERN_F77_NAMES({lower}, {c.name.upper()})")
    return "\n".join(out)


GENERATED = ("Generated by tools/gen/gen_fortran.py from the MPI standard (pympistandard): "
             "do not edit.")


def render_c(bindings):
    out = [
        "/* " + GENERATED,
        " *",
        " * The Fortran 77 entry points (mpif.h and `use mpi`): each takes its",
        " * arguments by reference as gfortran passes them, hidden character lengths",
        " * last, converts what differs from C (LOGICAL, strings, the sentinels of",
        " * f77_runtime.c, file handles) and calls the C procedure.  The procedures",
        " * whose mapping needs judgement are in f77_special.c. */",
        "",
        '#include "fortran/f77_runtime.h"',
    ]
    for b in bindings:
        if b.name in HAND_WRITTEN:
            continue
        out.append("")
        out.append(render_binding(b))
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


def render_mpif(constants):
    """mpif.h: valid as fixed and as free form (statements from column 7, no
    continuation lines, '!' comments), as programs include it from both."""
    out = ["! " + GENERATED,
           "! Tern's Fortran include file: the constants of mpi.h (MPICH's values),",
           "! and the sentinels as the common blocks MPICH's mpif.h declares, so that",
           "! programs built against either header run on either library."]

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
    for name in CALLBACKS:
        out.append(f"      EXTERNAL {name}")
    out.append("      DOUBLE PRECISION MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK")
    out.append("      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK")
    out.append("      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD, MPI_AINT_DIFF")
    out.append("      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF")
    return "\n".join(out) + "\n"


def render_module():
    """mpi.f90: `use mpi` gives what mpif.h gives, and no interfaces for the
    procedures (each keeps its Fortran 77 calling convention, so any choice
    buffer, of any type and rank, is accepted)."""
    return "\n".join([
        "! " + GENERATED,
        "module mpi",
        "  implicit none",
        "  include 'mpif.h'",
        "end module mpi",
    ]) + "\n"

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", type=Path, default=REPO,
                    help="root under which to write the outputs (default: the repository)")
    args = ap.parse_args()
    bindings, fortran_only = fortran_procedures()
    outdir = args.outdir.resolve()
    genapi.write(outdir / OUT_C, render_c(bindings))
    genapi.write(outdir / OUT_LIST, render_list(bindings, fortran_only))
    genapi.write(outdir / OUT_MPIFH, render_mpif(header_constants()))
    genapi.write(outdir / OUT_MOD, render_module())
    n = sum(1 for b in bindings if b.name not in HAND_WRITTEN)
    print(f"gen_fortran.py: {len(bindings)} Fortran procedures with a C form, {n} generated",
          file=sys.stderr)


if __name__ == "__main__":
    main()
