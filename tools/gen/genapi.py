#!/usr/bin/env python3
"""Generate Tern's MPI API layer from the MPI Forum's machine-readable standard.

Inputs
  tools/gen/mpi.h.in    hand-written header template (types, constants, ABI)
  pympistandard         the standard's procedure database (PyPI, tested with
                        0.2.0; the bundled database is always used)
  src/**/*.c            scanned for TERN_WEAK_ALIAS(MPI_X): those procedures
                        are implemented (by hand, or generated in src/api/gen/
                        by gen_bindings.py)

Outputs (committed, so building Tern never needs Python)
  include/mpi.h             the template with every prototype filled in
  src/api/unimplemented.c   an entry point for every procedure nobody has
                            implemented yet; it reports
                            MPI_ERR_UNSUPPORTED_OPERATION naming the call, on
                            the handler the standard names for the object the
                            call refers to (see route_of)
  tools/gen/api_list.txt    every generated procedure and whether it is
                            "implemented" or "missing"

Run it from anywhere:  python3 tools/gen/genapi.py
tools/gen/check.sh regenerates into a temporary directory and fails when the
committed files differ.
"""

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "tools" / "gen" / "mpi.h.in"
OUT_HEADER = Path("include/mpi.h")
OUT_STUBS = Path("src/api/unimplemented.c")
OUT_LIST = Path("tools/gen/api_list.txt")

# Handles that are ints in the MPICH ABI: their c2f/f2c conversions are
# casts, defined as macros in the template, so they get no prototypes and no
# symbols.  (MPI_File is a pointer; MPI_File_c2f/f2c are real functions.)
MACRO_CONVERTED_HANDLES = (
    "Comm", "Type", "Group", "Info", "Request", "Op", "Errhandler", "Win",
    "Message", "Session",
)
MACRO_PROCEDURES = frozenset(
    f"MPI_{h}_{d}" for h in MACRO_CONVERTED_HANDLES for d in ("c2f", "f2c"))

# Procedures removed from MPI in 3.0 that MPICH 4.0 still declares and exports.
# Programs built against MPICH may call them, so Tern declares and exports
# them too.  The standard's database no longer lists them.
LEGACY_PROCEDURES = (
    ("int", "MPI_Address", ["void *location", "MPI_Aint *address"]),
    ("int", "MPI_Errhandler_create",
     ["MPI_Comm_errhandler_function *comm_errhandler_fn", "MPI_Errhandler *errhandler"]),
    ("int", "MPI_Errhandler_get", ["MPI_Comm comm", "MPI_Errhandler *errhandler"]),
    ("int", "MPI_Errhandler_set", ["MPI_Comm comm", "MPI_Errhandler errhandler"]),
    ("int", "MPI_Type_extent", ["MPI_Datatype datatype", "MPI_Aint *extent"]),
    ("int", "MPI_Type_hindexed",
     ["int count", "int array_of_blocklengths[]", "MPI_Aint array_of_displacements[]",
      "MPI_Datatype oldtype", "MPI_Datatype *newtype"]),
    ("int", "MPI_Type_hvector",
     ["int count", "int blocklength", "MPI_Aint stride", "MPI_Datatype oldtype",
      "MPI_Datatype *newtype"]),
    ("int", "MPI_Type_lb", ["MPI_Datatype datatype", "MPI_Aint *displacement"]),
    ("int", "MPI_Type_struct",
     ["int count", "int array_of_blocklengths[]", "MPI_Aint array_of_displacements[]",
      "MPI_Datatype array_of_types[]", "MPI_Datatype *newtype"]),
    ("int", "MPI_Type_ub", ["MPI_Datatype datatype", "MPI_Aint *displacement"]),
)

# Known mistakes in pympistandard's database: (procedure, parameter) ->
# (what the database renders, what the standard says).  The generator stops if
# the database stops rendering the mistake, so a fixed release is noticed.
ERRATA = {
    ("MPI_Info_create_env", "argv"): ("char argv[]", "char *argv[]"),
}

C_BUILTIN_TYPES = frozenset({"void", "int", "char", "double", "long"})
LINE_WIDTH = 100


class Proc:
    """One C entry point: MPI_X, or its large-count form MPI_X_c."""

    def __init__(self, ret, name, params, legacy=False, kinds=None):
        self.ret = ret            # return type, e.g. "int"
        self.name = name          # "MPI_Send"
        self.params = params      # [(declaration text, parameter name or None)]
        self.legacy = legacy
        # Per parameter, (the standard's kind, direction, pointer level,
        # array suffix): ("COMMUNICATOR", "in", 0, "").  None for the legacy
        # procedures, which the database no longer has.
        self.kinds = kinds

    @property
    def pname(self):
        return "P" + self.name

    def types_used(self):
        """Identifiers in the return and parameter types (no parameter names)."""
        found = set(re.findall(r"[A-Za-z_]\w*", self.ret))
        for text, pname in self.params:
            words = re.findall(r"[A-Za-z_]\w*", text)
            found.update(w for w in words if w not in (pname, "const"))
        return found


def fail(msg):
    print(f"genapi.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def warn(msg):
    print(f"genapi.py: warning: {msg}", file=sys.stderr)


# --------------------------------------------------------------------------
# The standard
# --------------------------------------------------------------------------

def render_param(param):
    """(declaration, name) of one pympistandard ISO C parameter, in our style."""
    if param._parseset["kind"] == "VARARGS":
        return ("...", None)
    decl = "const " if param.constant else ""
    decl += f"{param.base_type} {'*' * param.pointer_level}{param.name}{param.array}"
    return (decl, param.name)


def from_expression(expr):
    params = []
    kinds = [(p.kind.name, p.direction.value.lower(), p.pointer_level, p.array)
             for p in expr.parameters]
    for p in expr.parameters:
        decl, pname = render_param(p)
        erratum = ERRATA.get((expr.name, pname))
        if erratum is not None:
            if decl != erratum[0]:
                fail(f"erratum for {expr.name}({pname}) no longer applies: "
                     f"the database now gives '{decl}'")
            decl = erratum[1]
        params.append((decl, pname))
    ret = expr.return_type
    if ret == "\\ldots" or any(d == "\\ldots" for d, _ in params):
        fail(f"unexpected LaTeX in {expr.name}")
    return Proc(ret, expr.name, params, kinds=kinds)


def is_mpi5_abi(c_name):
    """MPI 5.0's standard-ABI chapter: not part of the MPICH ABI Tern follows."""
    return (c_name.startswith("MPI_Abi_") or c_name.endswith("_toint")
            or c_name.endswith("_fromint"))


def standard_procedures():
    try:
        import pympistandard
    except ImportError:
        fail("the Python package 'pympistandard' is needed (pip install pympistandard)")
    pympistandard.use_api_version(1, force_bundled=True)

    procs = []
    for key in sorted(pympistandard.PROCEDURES):
        proc = pympistandard.PROCEDURES[key]
        attrs = proc._parseset["attributes"]
        if attrs.get("callback") or attrs.get("predefined_function"):
            continue
        expr = proc.express.iso_c
        if expr is None:                     # Fortran-only (MPI_F_sync_reg, ...)
            continue
        if is_mpi5_abi(expr.name) or expr.name in MACRO_PROCEDURES:
            continue
        procs.append(from_expression(expr))
        if proc.has_embiggenment():
            big = proc.express.embiggen.iso_c
            if big is not None:
                procs.append(from_expression(big))
    return procs


def legacy_procedures():
    procs = []
    for ret, name, decls in LEGACY_PROCEDURES:
        params = []
        for decl in decls:
            m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])*\s*$", decl)
            params.append((decl, m.group(1)))
        procs.append(Proc(ret, name, params, legacy=True))
    return procs


# --------------------------------------------------------------------------
# The source tree
# --------------------------------------------------------------------------

COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
ALIAS_RE = re.compile(r"\bTERN_WEAK_ALIAS\s*\(\s*([A-Za-z_]\w*)\s*\)")


def scan_implemented(src_root):
    """{MPI name: file} for every TERN_WEAK_ALIAS(MPI_X) outside unimplemented.c."""
    skip = (REPO / OUT_STUBS).resolve()
    found = {}
    for path in sorted(src_root.rglob("*.c")):
        if path.resolve() == skip:
            continue
        text = COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        rel = path.relative_to(REPO).as_posix()
        for name in ALIAS_RE.findall(text):
            if name in found and found[name] != rel:
                fail(f"{name} is implemented twice: in {found[name]} and {rel}")
            found[name] = rel
    return found


# --------------------------------------------------------------------------
# The template
# --------------------------------------------------------------------------

def template_typedef_names(text):
    """Names declared by typedefs in the template (comments and # lines aside)."""
    text = COMMENT_RE.sub(" ", text)
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    # Drop struct and enum bodies (innermost braces) so that ';' ends statements.
    text = re.sub(r"\{[^{}]*\}", " ", text)
    names = set()
    for stmt in text.split(";"):
        stmt = " ".join(stmt.split())
        if not stmt.startswith("typedef "):
            # The first typedef follows 'extern "C" {' in the same statement.
            idx = stmt.find("typedef ")
            if idx < 0:
                continue
            stmt = stmt[idx:]
        func = re.match(r"typedef [^(]*\(\s*\*?\s*([A-Za-z_]\w*)\s*\)\s*\(", stmt)
        if func:
            names.add(func.group(1))
            continue
        func = re.match(r"typedef [\w\s\*]*?\b([A-Za-z_]\w*)\s*\(", stmt)
        if func:
            names.add(func.group(1))
            continue
        ident = re.findall(r"[A-Za-z_]\w*", stmt)
        if ident:
            names.add(ident[-1])
    return names


def check_types(procs, template):
    declared = template_typedef_names(template) | C_BUILTIN_TYPES
    missing = {}
    for proc in procs:
        for t in proc.types_used() - declared:
            missing.setdefault(t, proc.name)
    if missing:
        lines = "\n".join(f"  {t} (first used by {n})" for t, n in sorted(missing.items()))
        fail(f"types used by prototypes but not declared in {TEMPLATE.name}:\n{lines}")


# --------------------------------------------------------------------------
# Where a missing procedure's error goes
# --------------------------------------------------------------------------

# I/O procedures that take no file handle.  Their errors go to MPI_FILE_NULL's
# handler like MPI_File_open's: MPI-4.1 14.7 for MPI_File_delete, and 14.5.3
# ("raised using the default file error handler") for MPI_Register_datarep.
IO_WITHOUT_FILE = frozenset({"MPI_File_delete", "MPI_Register_datarep"})

# Object kinds whose handler an error may belong to but that no route below
# handles yet (a request's or message's communicator, a group's session, a
# session): a missing procedure taking one stops the generator, so that a
# route is written for it rather than the error going to MPI_COMM_SELF.
UNROUTED_KINDS = frozenset({"SESSION", "REQUEST", "MESSAGE", "GROUP"})

# Per route, the helper that raises the error (core/errors_unsupported.c)
# and the handle it is given when the procedure has none.
ROUTES = {
    "file": ("tern_err_unsupported_file", "MPI_FILE_NULL"),
    "win": ("tern_err_unsupported_win", "MPI_WIN_NULL"),
    "comm": ("tern_err_unsupported_comm", "MPI_COMM_NULL"),
}


def route_of(proc):
    """(route, parameter name, pointer level) for a missing procedure: where
    MPI-4.1 9.3 sends its errors.  route is "file", "win", "comm" or "none"
    (no object: MPI_COMM_SELF); the parameter holds the object's handle
    (None: the procedure has none, as MPI_File_open's file is an output).

    A call on a file raises on the file (MPI_FILE_NULL's handler for an I/O
    call without a valid file, open and delete included, although open takes
    a communicator); else on the window it refers to; else on its
    communicator (a window constructor's error goes there: the window does
    not exist yet); else on nothing."""
    if proc.kinds is None:
        fail(f"{proc.name} is missing but has no parameter kinds (a legacy procedure): "
             f"give it a route in route_of")
    base = proc.name[:-2] if proc.name.endswith("_c") else proc.name
    params = [(pname, kind, direction, level if not array else None)
              for (_, pname), (kind, direction, level, array) in zip(proc.params, proc.kinds)]

    def existing(kind):
        """The first parameter of that kind naming one object that exists
        before the call: an input handle, or an in-out one (MPI_Win_free's)."""
        for pname, k, direction, level in params:
            if k == kind and (direction, level) in (("in", 0), ("inout", 1)):
                return pname, level
        return None

    found = existing("FILE")
    if found:
        return ("file",) + found
    if base in IO_WITHOUT_FILE or any(k in ("FILE", "F90_FILE") for _, k, _, _ in params):
        return ("file", None, 0)
    for route, kind in (("win", "WINDOW"), ("comm", "COMMUNICATOR")):
        found = existing(kind)
        if found:
            return (route,) + found
    unrouted = sorted({k for _, k, d, _ in params if k in UNROUTED_KINDS and d != "out"})
    if unrouted:
        fail(f"{proc.name} is missing and takes a {', '.join(unrouted)}: its error belongs to "
             f"that object's handler; add a route (route_of, core/errors_unsupported.c)")
    return ("none", None, 0)


def report_call(proc):
    """The C call that reports proc's error on the right handler."""
    route, pname, level = route_of(proc)
    if route == "none":
        return f'tern_err_unsupported("{proc.name}")'
    helper, null = ROUTES[route]
    if pname is None:
        handle = null
    elif level == 0:
        handle = pname
    else:
        handle = f"{pname} ? *{pname} : {null}"
    return f'{helper}("{proc.name}", {handle})'


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------

def declarator(ret, name, params, tail, indent=""):
    """'ret name(params)tail', wrapped at LINE_WIDTH with aligned parameters."""
    decls = [d for d, _ in params] or ["void"]
    head = f"{indent}{ret} {name}("
    one = head + ", ".join(decls) + ")" + tail
    if len(one) <= LINE_WIDTH:
        return one
    pad = " " * len(head)
    lines, cur = [], head
    for i, d in enumerate(decls):
        piece = d + (", " if i + 1 < len(decls) else ")" + tail)
        if cur not in (head, pad) and len(cur) + len(piece.rstrip()) > LINE_WIDTH:
            lines.append(cur.rstrip())
            cur = pad
        cur += piece
    lines.append(cur)
    return "\n".join(lines)


def render_prototypes(procs):
    out = []
    standard = [p for p in procs if not p.legacy]
    legacy = [p for p in procs if p.legacy]
    for p in standard:
        out.append(declarator(p.ret, p.name, p.params, " TERN_API_PUBLIC;"))
        out.append(declarator(p.ret, p.pname, p.params, " TERN_API_PUBLIC;"))
    out.append("")
    out.append("/* Removed from MPI in version 3.0.  Declared and exported because programs")
    out.append(" * built against MPICH, which still has them, may call them. */")
    for p in legacy:
        out.append(declarator(p.ret, p.name, p.params, " TERN_API_PUBLIC;"))
        out.append(declarator(p.ret, p.pname, p.params, " TERN_API_PUBLIC;"))
    return "\n".join(out)


GENERATED = ("Generated by tools/gen/genapi.py from {src}: do not edit.\n"
             " * Edit the template or the generator, then run python3 tools/gen/genapi.py.")


def render_header(template, procs):
    if "@TERN_PROTOTYPES@" not in template:
        fail(f"{TEMPLATE.name} lacks the @TERN_PROTOTYPES@ marker")
    text = template.replace("@TERN_GENERATED_NOTICE@",
                            GENERATED.format(src="tools/gen/mpi.h.in"))
    text = text.replace("@TERN_PROTOTYPES@", render_prototypes(procs))
    leftover = re.findall(r"@[A-Z_]+@", text)
    if leftover:
        fail(f"unknown markers in {TEMPLATE.name}: {', '.join(sorted(set(leftover)))}")
    return text


def render_stubs(procs, implemented):
    out = [
        "/* " + GENERATED.format(src="the MPI standard (pympistandard)"),
        " *",
        " * One entry point for every MPI procedure that no file under src/ implements",
        " * yet (none has TERN_WEAK_ALIAS(MPI_X) for it).  Each reports",
        " * MPI_ERR_UNSUPPORTED_OPERATION, naming the procedure, on the handler of the",
        " * object the call refers to: its file (MPI_FILE_NULL's for I/O without a",
        " * valid file), window, communicator, or none (MPI_COMM_SELF); see",
        " * core/errors_unsupported.c.  To implement a procedure, define PMPI_X preceded",
        " * by TERN_WEAK_ALIAS(MPI_X) in the file of its chapter and regenerate: its",
        " * stub then disappears from here. */",
        "",
        '#include "core/api.h"',
    ]
    for p in procs:
        if p.name in implemented:
            continue
        out.append("")
        out.append(f"TERN_WEAK_ALIAS({p.name})")
        out.append(declarator(p.ret, p.pname, p.params, ""))
        out.append("{")
        report = report_call(p)
        for _, pname in p.params:
            if pname is not None and not re.search(rf"\b{pname}\b", report):
                out.append(f"    (void){pname};")
        if p.ret == "int":
            out.append(f"    return {report};")
        else:
            # No error code can be returned: report, then give a zero value.
            out.append(f"    (void){report};")
            out.append(f"    return ({p.ret})0;")
        out.append("}")
    return "\n".join(out) + "\n"


def render_list(procs, implemented):
    width = max(len(p.name) for p in procs) + 2
    rows = [f"{p.name:<{width}}{'implemented' if p.name in implemented else 'missing'}"
            for p in sorted(procs, key=lambda p: p.name)]
    return "\n".join(rows) + "\n"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", type=Path, default=REPO,
                    help="root under which to write the outputs (default: the repository)")
    args = ap.parse_args()

    template = TEMPLATE.read_text(encoding="utf-8")
    procs = standard_procedures() + legacy_procedures()

    names = [p.name for p in procs]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        fail(f"procedures generated twice: {', '.join(dups)}")
    procs.sort(key=lambda p: (p.legacy, p.name))
    check_types(procs, template)

    implemented = scan_implemented(REPO / "src")
    known = set(names)
    for name, where in sorted(implemented.items()):
        if name not in known:
            warn(f"{where}: TERN_WEAK_ALIAS({name}) names no generated MPI procedure")

    outdir = args.outdir.resolve()
    write(outdir / OUT_HEADER, render_header(template, procs))
    write(outdir / OUT_STUBS, render_stubs(procs, implemented))
    write(outdir / OUT_LIST, render_list(procs, implemented))

    done = sum(1 for n in names if n in implemented)
    print(f"genapi.py: {len(procs)} procedures ({len(procs) - len(LEGACY_PROCEDURES)} "
          f"from the standard, {len(LEGACY_PROCEDURES)} legacy), {done} implemented, "
          f"{len(procs) - done} stubbed", file=sys.stderr)


if __name__ == "__main__":
    main()
