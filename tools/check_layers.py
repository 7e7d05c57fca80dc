#!/usr/bin/env python3
"""The layering gate (docs/architecture.md, "Who may call whom").

Each folder of src/ belongs to a layer; a file may include headers of its
own layer and of the layers below, never of one above.  Checked here:

  1. every #include "folder/..." in src/ (every file, .c and .h);
  2. no `extern` function declaration in a .c file (a call that bypasses
     the headers, and so check 1);
  3. with --objects DIR... (the folders of the library's object files, one
     per area: build/src/CMakeFiles/tern_*.dir): every symbol an object uses that
     another folder's object defines, read with nm.  A function declared in
     a low layer's header but defined in a high layer's file shows up here
     and nowhere else;
  4. no circle between folders, from the edges of checks 1 and 3.

One include goes up on purpose: core/params.def, the list of every
parameter (core/params.c turns it into the environment variables, the MPI_T
control variables and tern_param), includes the lists a component keeps
beside its code (coll/coll_params.def).  That is data an X-macro expands,
not a call: a *_params.def included by core/params.def is allowed.

Prints each violation as file:line (or object: symbol) and exits 1; exit 0
when the layers form a DAG.  Standard library only (nm from binutils for 3;
without nm, check 3 is skipped with a note).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# Lowest first.  Folders on one line form one layer: api and mpit are the
# entry points.  msg (requests, matching, delivery, the transport interface)
# sits below the transports, which implement its interface and call its
# delivery; p2p sits above them and routes to them.  Keep in step with the
# table in docs/architecture.md.
LAYERS = [
    ["bootstrap"],
    ["core"],
    ["datatype"],
    ["topo"],
    ["msg"],
    ["transport"],
    ["p2p"],
    ["coll"],
    ["comm"],
    ["io"],
    ["rma"],
    ["runtime"],
    ["api", "mpit"],
    ["fortran"],
]
LEVEL = {folder: i for i, layer in enumerate(LAYERS) for folder in layer}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/([^"]*)"')
PARAM_LIST = "core/params.def"
# An extern declaration of a function: "extern <type> name(" up to ";".
EXTERN_FN_RE = re.compile(r'^\s*extern\s+(?!"C")[^;=]*\b\w+\s*\([^;{]*\)\s*;')


def folder_of(relpath):
    return relpath.split("/", 1)[0]


def layer_name(folder):
    return "/".join(LAYERS[LEVEL[folder]])


def source_files(src):
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h", ".def", ".inc")):
                yield os.path.join(root, f)


def check_sources(src, problems, edges):
    for path in source_files(src):
        rel = os.path.relpath(path, src)
        if "/" not in rel:
            continue  # nothing but CMakeLists.txt lives at the top
        me = folder_of(rel)
        if me not in LEVEL:
            problems.append(f"src/{rel}:1: folder {me}/ is in no layer: add it to LAYERS in "
                            f"tools/check_layers.py and to docs/architecture.md")
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if m:
                    them = m.group(1)
                    if them not in LEVEL or them == me:
                        continue
                    if rel == PARAM_LIST and m.group(2).endswith("_params.def"):
                        continue
                    edges.setdefault((me, them), f"src/{rel}:{n}")
                    if LEVEL[them] > LEVEL[me]:
                        problems.append(f"src/{rel}:{n}: {me}/ (layer {layer_name(me)}) includes "
                                        f"{line.strip()[len('#include '):]} of the higher layer "
                                        f"{layer_name(them)}")
                if path.endswith(".c") and EXTERN_FN_RE.match(line):
                    problems.append(f"src/{rel}:{n}: extern function declaration in a .c file: "
                                    f"declare it in the header of the layer that defines it")


def nm_symbols(nm, obj):
    out = subprocess.run([nm, obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCVW":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def check_objects(objdirs, nm, src, problems, edges):
    if not shutil.which(nm):
        print(f"check_layers: {nm} not found: the symbol check (--objects) is skipped")
        return
    objects = []
    for objdir in objdirs:
        for root, _, files in os.walk(objdir):
            for f in files:
                if not f.endswith(".c.o"):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, objdir)[: -len(".o")]
                # An object left behind by a source file that has moved is not
                # part of the library any more.
                if os.path.exists(os.path.join(src, rel)) and "/" in rel:
                    objects.append((rel, path))
    if not objects:
        problems.append(f"{' '.join(objdirs)}: no object files of src/ found (build the library first)")
        return
    owner = {}
    used_by = {}
    for rel, path in objects:
        defined, used = nm_symbols(nm, path)
        for s in defined:
            owner[s] = rel
        used_by[rel] = used
    for rel, used in sorted(used_by.items()):
        me = folder_of(rel)
        if me not in LEVEL:
            continue  # reported by the source check
        for s in sorted(used):
            if s not in owner:
                continue
            them = folder_of(owner[s])
            if them == me or them not in LEVEL:
                continue
            edges.setdefault((me, them), f"src/{rel}: {s}")
            if LEVEL[them] > LEVEL[me]:
                problems.append(f"src/{rel}: {me}/ (layer {layer_name(me)}) uses {s}, defined in "
                                f"src/{owner[s]} of the higher layer {layer_name(them)}")


def find_circles(edges):
    """Circles between folders of different layers (folders of one layer
    may call each other: that is what makes them one layer)."""
    graph = {}
    for (a, b) in edges:
        if LEVEL.get(a) != LEVEL.get(b):
            graph.setdefault(a, set()).add(b)
    circles, state, stack = [], {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                circles.append(stack[stack.index(w):] + [w])
            elif w not in state:
                visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(graph):
        if v not in state:
            visit(v)
    return circles


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.join(here, "..", "src"), help="the src/ folder")
    ap.add_argument("--objects", nargs="+", metavar="DIR",
                    help="folders holding the library's object files, below them the sources' paths "
                         "relative to src/ (checks symbols)")
    ap.add_argument("--nm", default="nm", help="the nm to read them with")
    args = ap.parse_args()
    src = os.path.normpath(args.src)

    problems, edges = [], {}
    check_sources(src, problems, edges)
    if args.objects:
        check_objects(args.objects, args.nm, src, problems, edges)
    for c in find_circles(edges):
        steps = ", ".join(f"{a}/ -> {b}/ ({edges[(a, b)]})" for a, b in zip(c, c[1:]))
        problems.append(f"circle between folders: {steps}")

    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} violation(s); the order is LAYERS in {__file__}")
        return 1
    print("check_layers: the layers form a DAG (" + " < ".join("/".join(l) for l in LAYERS) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
