#!/usr/bin/env python3
"""Generate the MPI entry points of the procedures listed in BINDINGS.

For each, src/api/gen/bindings_<chapter>.c gets PMPI_X and its weak alias
MPI_X, which
  - returns the "not initialised" error before MPI_Init (TERN_REQUIRE_INIT),
  - takes the library lock (unless the entry says lock=False),
  - checks each argument whose role (tools/gen/param_kinds.py) has a CHECKS
    entry: object handles first, in the order of the parameters, then the
    pointers the results go to,
  - calls the hand-written body tern_api_<x>(fn, ...) with the objects the
    checks found in place of their handles,
  - releases the lock on every path and returns the body's code.
src/api/gen/bindings.h declares the bodies, so a body whose parameters do not
match its entry point does not compile.

A parameter that has invalid values in param_kinds.ROLES but no check here
makes the generator warn, unless its entry lists it in "custom": the body
checks it, because the order or the condition of that check is the
procedure's own (MPI_Group_translate_ranks checks ranks2 only when n > 0).

Outputs (committed, so building Tern never needs Python)
  src/api/gen/bindings.h, src/api/gen/bindings_<chapter>.c

Run:  python3 tools/gen/gen_bindings.py && python3 tools/gen/genapi.py
(genapi.py then sees the generated TERN_WEAK_ALIAS lines: the procedures are
implemented).  tools/gen/check.sh fails when the committed files are stale.

To generate a procedure's entry point: add it to BINDINGS under its
chapter, rerun, and turn its hand-written PMPI_X into the tern_api_x body
that bindings.h declares (the checks, the lock and the init test go).
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genapi  # noqa: E402  (the same reading of the standard)
from param_kinds import CHECKS, ROLES, role_of, standard_signatures  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT_DIR = Path("src/api/gen")

# chapter -> {procedure: options}.  Options: "custom": parameters the body
# checks (ALL: every one, in the procedure's own order, which the
# generated order -- handles, then result pointers -- would change; such an
# entry point is the init test and the lock); "checks": the only
# parameters the entry point checks, the body checking the others (a
# collective checks its communicator, then the rest in an order of its
# own); "lock": False for a call that does not take the library lock,
# IF_HELD for one that may create it (MPI_Session_init asks for threads
# before any initialisation: only what was locked is unlocked);
# "init": False for a call that MPI allows before MPI_Init and after
# MPI_Finalize (the info calls, MPI-4.1 11.4.1); "like": a procedure of
# the standard whose checks and body a deprecated one (MPI-1 names the
# database no longer has, genapi.LEGACY_PROCEDURES) shares.
# The body of MPI_X is tern_api_x, in src/api/<chapter>.c.
ALL = "*"
IF_HELD = "if_held"
# The collectives with a blocking, a nonblocking and a persistent form, each
# with a large-count one (MPI_Barrier has none).
COLLECTIVES = ("Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv",
               "Alltoall", "Alltoallv", "Alltoallw", "Reduce", "Allreduce", "Reduce_scatter",
               "Reduce_scatter_block", "Scan", "Exscan")
NEIGHBOR_COLLECTIVES = ("allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw")
BINDINGS = {
    "group": {
        "MPI_Group_size": {},
        "MPI_Group_rank": {},
        "MPI_Group_incl": {"custom": ["n", "ranks"]},
        "MPI_Group_excl": {"custom": ["n", "ranks"]},
        "MPI_Group_range_incl": {"custom": ["n", "ranges"]},
        "MPI_Group_range_excl": {"custom": ["n", "ranges"]},
        "MPI_Group_union": {},
        "MPI_Group_intersection": {},
        "MPI_Group_difference": {},
        # ranks1 and ranks2 are read only when n > 0.
        "MPI_Group_translate_ranks": {"custom": ["n", "ranks1", "ranks2"]},
        "MPI_Group_compare": {},
        "MPI_Group_free": {},
    },
    "info": {
        "MPI_Info_create": {"init": False},
        "MPI_Info_dup": {"init": False},
        "MPI_Info_free": {"init": False},
        # The value's message names the key.
        "MPI_Info_set": {"init": False, "custom": ["value"]},
        "MPI_Info_delete": {"init": False},
        # valuelen, then value, after flag.
        "MPI_Info_get": {"init": False, "custom": ["valuelen", "value"]},
        "MPI_Info_get_valuelen": {"init": False},
        # value is read only when *buflen > 0.
        "MPI_Info_get_string": {"init": False, "custom": ["buflen", "value"]},
        "MPI_Info_get_nkeys": {"init": False},
        # n is a key's index, checked against the info's keys.
        "MPI_Info_get_nthkey": {"init": False, "custom": ["n"]},
        "MPI_Info_create_env": {"init": False},
        "MPI_Comm_set_info": {},
        "MPI_Comm_get_info": {},
    },
    "errhandler": {
        # The function is checked after the result pointer.
        "MPI_Comm_create_errhandler": {},
        "MPI_Errhandler_create": {"like": "MPI_Comm_create_errhandler"},
        "MPI_Win_create_errhandler": {},
        "MPI_File_create_errhandler": {},
        "MPI_Errhandler_free": {},
        "MPI_Comm_set_errhandler": {},
        "MPI_Errhandler_set": {"like": "MPI_Comm_set_errhandler"},
        "MPI_Comm_get_errhandler": {},
        "MPI_Errhandler_get": {"like": "MPI_Comm_get_errhandler"},
        "MPI_Comm_call_errhandler": {},
        # A file's errors go to MPI_FILE_NULL's handler, not MPI_COMM_WORLD's.
        "MPI_File_set_errhandler": {"custom": ["errhandler"]},
        "MPI_File_get_errhandler": {"custom": ["errhandler"]},
        "MPI_File_call_errhandler": {},
    },
    "attr": {
        "MPI_Comm_create_keyval": {},
        "MPI_Keyval_create": {},
        "MPI_Comm_free_keyval": {},
        "MPI_Keyval_free": {},
        "MPI_Comm_set_attr": {},
        "MPI_Attr_put": {},
        # Predefined keyvals are read on every communicator; a user keyval is
        # looked up after the result pointers are checked.
        "MPI_Comm_get_attr": {"custom": ["comm_keyval"]},
        "MPI_Attr_get": {"custom": ["keyval"]},
        "MPI_Comm_delete_attr": {},
        "MPI_Attr_delete": {},
        "MPI_Type_create_keyval": {},
        "MPI_Type_free_keyval": {},
        "MPI_Type_set_attr": {},
        "MPI_Type_get_attr": {"custom": ["type_keyval"]},
        "MPI_Type_delete_attr": {},
        "MPI_Win_create_keyval": {},
        "MPI_Win_free_keyval": {},
    },
    "comm": {
        "MPI_Comm_size": {},
        "MPI_Comm_rank": {},
        "MPI_Comm_compare": {},
        "MPI_Comm_free": {},
        "MPI_Comm_disconnect": {},
        "MPI_Comm_get_parent": {},
        "MPI_Comm_group": {},
        "MPI_Comm_set_name": {},
        # MPI_COMM_NULL has a name too; the pointers' errors go to comm's
        # handler when it is a communicator.
        "MPI_Comm_get_name": {"custom": ["comm", "comm_name", "resultlen"]},
        "MPI_Comm_test_inter": {},
        "MPI_Comm_remote_size": {},
        "MPI_Comm_remote_group": {},
    },
    # Sessions.  MPI_Session_init and MPI_Session_create_errhandler run
    # before any initialisation and take the lock only once it exists;
    # MPI_Session_init sends its errors to the handler it is given, not yet
    # attached to a session, so its body checks everything.
    "session": {
        "MPI_Session_init": {"init": False, "lock": IF_HELD, "custom": ALL},
        # The function, then the result pointer.
        "MPI_Session_create_errhandler": {"init": False, "lock": IF_HELD,
                                          "custom": ["errhandler"]},
        "MPI_Session_finalize": {},
        "MPI_Session_get_info": {},
        # A session error handler, raised on the session.
        "MPI_Session_set_errhandler": {"custom": ["errhandler"]},
        "MPI_Session_get_errhandler": {},
        "MPI_Session_call_errhandler": {},
    },
    # The hints and the process set's name are checked on the session
    # before the result pointers.
    "session_pset": {
        "MPI_Session_get_num_psets": {"custom": ["info", "npset_names"]},
        "MPI_Session_get_nth_pset": {"custom": ["info", "pset_len", "pset_name"]},
        "MPI_Session_get_pset_info": {"custom": ["pset_name", "info"]},
        "MPI_Group_from_session_pset": {"custom": ["pset_name", "newgroup"]},
    },
    # Topologies.  The checks whose array lengths come from the topology or
    # from another argument stay in the bodies, and so do the result
    # pointers checked after them.
    "topo_cart": {
        "MPI_Cart_create": {"custom": ["ndims", "dims"]},
        "MPI_Cartdim_get": {},
        "MPI_Cart_get": {"custom": ["maxdims", "dims", "periods", "coords"]},
        "MPI_Cart_rank": {"custom": ["coords", "rank"]},
        "MPI_Cart_coords": {"custom": ["maxdims", "coords"]},
        "MPI_Cart_shift": {},
        "MPI_Cart_sub": {"custom": ["remain_dims", "newcomm"]},
        "MPI_Cart_map": {"custom": ["ndims", "dims", "newrank"]},
        "MPI_Dims_create": {"custom": ["nnodes", "ndims", "dims"]},
    },
    "topo_graph": {
        "MPI_Graph_create": {"custom": ["nnodes", "index", "edges"]},
        "MPI_Graphdims_get": {},
        "MPI_Graph_get": {"custom": ["maxindex", "maxedges", "index", "edges"]},
        "MPI_Graph_neighbors_count": {},
        "MPI_Graph_neighbors": {"custom": ["maxneighbors", "neighbors"]},
        "MPI_Graph_map": {"custom": ["nnodes", "index", "edges", "newrank"]},
        "MPI_Topo_test": {},
    },
    "topo_dist": {
        # The hints are checked after the result pointer.
        "MPI_Dist_graph_create_adjacent": {
            "custom": ["indegree", "sources", "sourceweights", "outdegree", "destinations",
                       "destweights", "info"]},
        "MPI_Dist_graph_create": {"custom": ["n", "sources", "degrees", "destinations", "weights",
                                             "info"]},
        "MPI_Dist_graph_neighbors_count": {},
        "MPI_Dist_graph_neighbors": {
            "custom": ["maxindegree", "sources", "sourceweights", "maxoutdegree", "destinations",
                       "destweights"]},
    },
    # ---- requests (src/api/request.c) ----
    # The arrays, their lengths and the handles are checked by the body,
    # after the pointers before them; a status array is checked last, and
    # only when the count is positive.
    "request": {
        "MPI_Wait": {},
        "MPI_Test": {},
        "MPI_Waitall": {"custom": ["count", "array_of_requests", "array_of_statuses"]},
        "MPI_Testall": {"custom": ["count", "array_of_requests", "array_of_statuses"]},
        "MPI_Waitany": {"custom": ["count", "array_of_requests"]},
        "MPI_Testany": {"custom": ["count", "array_of_requests"]},
        "MPI_Waitsome": {"custom": ["incount", "array_of_requests", "array_of_indices",
                                    "array_of_statuses"]},
        "MPI_Testsome": {"custom": ["incount", "array_of_requests", "array_of_indices",
                                    "array_of_statuses"]},
        "MPI_Start": {},
        "MPI_Startall": {"custom": ["count", "array_of_requests"]},
        "MPI_Cancel": {},
        "MPI_Request_free": {},
        "MPI_Test_cancelled": {"init": False, "lock": False},
        # The handle is looked up after flag and status.
        "MPI_Request_get_status": {"custom": ["request"]},
        "MPI_Request_get_status_all": {"custom": ["count", "array_of_requests",
                                                  "array_of_statuses"]},
        # The status is checked after the handles.
        "MPI_Request_get_status_any": {"custom": ["count", "array_of_requests", "status"]},
        "MPI_Request_get_status_some": {"custom": ["incount", "array_of_requests",
                                                   "array_of_indices", "array_of_statuses"]},
    },
    # ---- statuses (src/api/status.c) ----
    # Reading and converting a status needs no MPI state (MPI-4.1 19.3.5).
    "status": {
        **{f"MPI_Status_{conv}": {"init": False, "lock": False}
           for conv in ("c2f", "f2c", "c2f08", "f082c", "f2f08", "f082f")},
        **{f"MPI_Status_{op}_{field}": {"init": False, "lock": False}
           for field in ("source", "tag", "error") for op in ("get", "set")},
        "MPI_Status_set_cancelled": {"init": False, "lock": False},
        # The count is checked before the datatype.
        **{f"MPI_Status_set_elements{sfx}": {"custom": ["datatype", "count"]}
           for sfx in ("", "_x", "_c")},
    },
    # ---- generalized requests (src/api/greq.c) ----
    # The callbacks, then the result pointer; the handle of a generalized
    # request is looked up by the body.
    "greq": {
        "MPI_Grequest_start": {"custom": ["request"]},
        "MPI_Grequest_complete": {"custom": ["request"]},
    },
    # ---- datatypes (src/api/datatype_*.c) ----
    # The constructors and queries check their arguments in the order
    # MPICH does (a count before the old type, an array's entries before
    # the result pointer), shared by the int and large-count forms: the
    # bodies check them all.
    "datatype_array": {
        f"MPI_Type_create_{k}{sfx}": {"custom": ALL}
        for k in ("subarray", "darray") for sfx in ("", "_c")
    },
    "datatype_create": {
        **{f"MPI_Type_{k}{sfx}": {"custom": ALL}
           for k in ("contiguous", "vector", "create_hvector", "indexed", "create_hindexed",
                     "create_indexed_block", "create_hindexed_block", "create_struct",
                     "create_resized")
           for sfx in ("", "_c")},
        "MPI_Type_hvector": {"like": "MPI_Type_create_hvector", "custom": ALL},
        "MPI_Type_hindexed": {"like": "MPI_Type_create_hindexed", "custom": ALL},
        "MPI_Type_struct": {"like": "MPI_Type_create_struct", "custom": ALL},
        "MPI_Type_dup": {"custom": ALL},
        "MPI_Type_commit": {"custom": ALL},
        "MPI_Type_free": {"custom": ALL},
    },
    "datatype_external": {
        f"MPI_{k}{sfx}": {"custom": ALL}
        for k in ("Pack_external", "Unpack_external", "Pack_external_size") for sfx in ("", "_c")
    },
    "datatype_f90": {
        f"MPI_Type_create_f90_{k}": {"custom": ALL} for k in ("integer", "real", "complex")
    },
    "datatype_pack": {
        **{f"MPI_{k}{sfx}": {"custom": ALL}
           for k in ("Pack", "Unpack", "Pack_size", "Get_count") for sfx in ("", "_c")},
        **{f"MPI_Get_elements{sfx}": {"custom": ALL} for sfx in ("", "_x", "_c")},
    },
    "datatype_query": {
        **{f"MPI_Type_{k}{sfx}": {"custom": ALL}
           for k in ("size", "get_extent", "get_true_extent") for sfx in ("", "_x", "_c")},
        # MPI-1, one bound at a time.
        **{f"MPI_Type_{k}": {"custom": ALL} for k in ("extent", "lb", "ub")},
        "MPI_Type_set_name": {"custom": ALL},
        "MPI_Type_get_name": {"custom": ALL},
        **{f"MPI_Type_get_{k}{sfx}": {"custom": ALL}
           for k in ("envelope", "contents") for sfx in ("", "_c")},
        "MPI_Type_match_size": {"custom": ALL},
        "MPI_Type_get_value_index": {"custom": ALL},
        # Address arithmetic needs no MPI state.
        "MPI_Get_address": {"init": False, "lock": False},
        "MPI_Address": {"like": "MPI_Get_address", "init": False, "lock": False},
    },
    # ---- reduction ops (src/api/op.c) ----
    "op": {
        # The function, then the result pointer.
        "MPI_Op_create": {"custom": ["op"]},
        "MPI_Op_create_c": {"custom": ["op"]},
        "MPI_Op_free": {},
        "MPI_Op_commutative": {},
        # The count before the datatype and the op, then the buffers.
        "MPI_Reduce_local": {"custom": ALL},
        "MPI_Reduce_local_c": {"custom": ALL},
    },
    # ---- buffered-send buffers (src/api/bsend_buffer.c) ----
    # The buffer and its size are checked where they are attached.
    "bsend_buffer": {
        **{f"MPI_{k}{sfx}": {"custom": ["buffer", "size"]}
           for k in ("Buffer_attach", "Comm_attach_buffer", "Session_attach_buffer")
           for sfx in ("", "_c")},
        **{f"MPI_{k}{sfx}": {}
           for k in ("Buffer_detach", "Comm_detach_buffer", "Session_detach_buffer")
           for sfx in ("", "_c")},
        **{f"MPI_{k}": {}
           for k in ("Buffer_flush", "Buffer_iflush", "Comm_flush_buffer", "Comm_iflush_buffer",
                     "Session_flush_buffer", "Session_iflush_buffer")},
    },
    # ---- collectives (src/api/coll.c) ----
    # The communicator, then the rest in the collective's own order: the
    # root, then the root's arguments only at the root, the other side's
    # only elsewhere, by the rules of an intercommunicator on one.
    "coll": {
        "MPI_Barrier": {"checks": ["comm"]},
        **{f"MPI_{k}{sfx}": {"checks": ["comm"]} for k in COLLECTIVES for sfx in ("", "_c")},
    },
    # ---- nonblocking collectives (src/api/coll_nb.c) ----
    # As the blocking ones; the request pointer is checked last.
    "coll_nb": {
        "MPI_Ibarrier": {"checks": ["comm"]},
        **{f"MPI_I{k.lower()}{sfx}": {"checks": ["comm"]}
           for k in COLLECTIVES for sfx in ("", "_c")},
    },
    # ---- persistent collectives (src/api/coll_persist.c) ----
    # The communicator, then the hints, then the checks of the nonblocking
    # form.
    "coll_persist": {
        "MPI_Barrier_init": {"checks": ["comm", "info"]},
        **{f"MPI_{k}_init{sfx}": {"checks": ["comm", "info"]}
           for k in COLLECTIVES for sfx in ("", "_c")},
    },
    # ---- neighbourhood collectives (src/api/coll_neighbor_api.c) ----
    # The communicator (and the persistent forms' hints), then its
    # topology and the rest, as the other collectives.
    "coll_neighbor_api": {
        **{f"MPI_{pre}eighbor_{k}{sfx}": {"checks": ["comm"]}
           for pre in ("N", "In") for k in NEIGHBOR_COLLECTIVES for sfx in ("", "_c")},
        **{f"MPI_Neighbor_{k}_init{sfx}": {"checks": ["comm", "info"]}
           for k in NEIGHBOR_COLLECTIVES for sfx in ("", "_c")},
    },
    # ---- communicator constructors (src/api/comm_ctor.c) ----
    # The handles, then the result pointer, then what only the body knows
    # how to check (a colour, a tag, a subgroup); the hints of
    # MPI_Comm_split_type come after the result pointer.
    "comm_ctor": {
        "MPI_Comm_dup": {},
        "MPI_Comm_dup_with_info": {},
        "MPI_Comm_idup": {},
        "MPI_Comm_idup_with_info": {},
        "MPI_Comm_split": {"custom": ["color"]},
        "MPI_Comm_split_type": {"checks": ["comm", "newcomm"]},
        "MPI_Comm_create": {},
        # The tag after the communicator's kind.
        "MPI_Comm_create_group": {"custom": ["tag"]},
    },
    # ---- intercommunicators and constructors from groups (src/api/comm_inter.c) ----
    "comm_inter": {
        # The peer communicator and the remote leader matter at the local
        # leader only, after the local leader and the result pointer.
        "MPI_Intercomm_create": {"checks": ["local_comm"]},
        "MPI_Intercomm_merge": {},
        # The leaders, then the tag, the error handler and the result
        # pointer, then the hints.
        "MPI_Comm_create_from_group": {"checks": ["group"]},
        "MPI_Intercomm_create_from_groups": {"checks": ["local_group", "remote_group"]},
    },
    # ---- hardware resources (src/api/hw_info.c) ----
    "hw_info": {
        "MPI_Get_hw_resource_info": {},
    },
}

NOTICE = ("/* Generated by tools/gen/gen_bindings.py from its BINDINGS table and\n"
          " * tools/gen/param_kinds.py: do not edit.  Edit those, then run\n"
          " * python3 tools/gen/gen_bindings.py && python3 tools/gen/genapi.py. */")


def fail(msg):
    print(f"gen_bindings.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def warn(msg):
    print(f"gen_bindings.py: warning: {msg}", file=sys.stderr)


def body_name(proc):
    return "tern_api_" + proc[len("MPI_"):].lower()


def checked_as(proc, opts):
    """The procedure whose parameter kinds and body proc uses."""
    return opts.get("like", proc)


class Entry:
    """One generated entry point: its prototype, checks and body call."""

    def __init__(self, proc, sig, params, opts):
        self.proc = proc
        self.sig = sig              # genapi.Proc: the C declarations
        self.opts = opts
        custom = opts.get("custom", ())
        custom = {p.name for p in params} if custom == ALL else set(custom)
        if "checks" in opts:
            if custom:
                fail(f"BINDINGS: {proc} has both checks and custom")
            custom = {p.name for p in params} - set(opts["checks"])
            unknown = set(opts["checks"]) - {p.name for p in params}
            if unknown:
                fail(f"BINDINGS: {proc} has no parameter {', '.join(sorted(unknown))}")
        unknown = custom - {p.name for p in params}
        if unknown:
            fail(f"BINDINGS: {proc} has no parameter {', '.join(sorted(unknown))}")
        self.checked = []           # (order, index, param, check)
        for i, p in enumerate(params):
            role = role_of(checked_as(proc, opts), p)
            check = CHECKS.get(role)
            if p.name in custom:
                continue
            if check is None:
                if ROLES.get(role, (None, []))[1]:
                    warn(f"{proc}({p.name}): role '{role}' has invalid values but no check "
                         f"in param_kinds.CHECKS; list it as custom if the body checks it")
                continue
            self.checked.append((check["order"], i, p, check))
        self.checked.sort(key=lambda t: (t[0], t[1]))
        self.by_name = {p.name: check for _, _, p, check in self.checked}

    def body_params(self):
        """The body's parameters after fn: (declaration, argument)."""
        out = []
        for decl, pname in self.sig.params:
            check = self.by_name.get(pname)
            if check is None or check["obj"] is None:
                out.append((decl, pname))
                continue
            if check.get("keep"):
                out.append((decl, pname))
            out.append((f"{check['obj']}{pname}_o", f"{pname}_o"))
        return out

    def prototype(self):
        params = [("const char *fn", None)] + [(d, None) for d, _ in self.body_params()]
        return genapi.declarator("int", body_name(self.proc), params, ";")

    def body(self):
        return body_name(checked_as(self.proc, self.opts))

    def render(self):
        lock = self.opts.get("lock", True)
        out = [f"TERN_WEAK_ALIAS({self.proc})",
               genapi.declarator(self.sig.ret, self.sig.pname, self.sig.params, ""), "{",
               f'    static const char fn[] = "{self.proc}";']
        for _, _, p, check in self.checked:
            if check["obj"]:
                out.append(f"    {check['obj']}{p.name}_o;")
        out.append("    int rc;")
        if self.opts.get("init", True):
            out.append("    TERN_REQUIRE_INIT(fn);")
        if lock == IF_HELD:
            out.append("    int locked = tern_g.thread_multiple;")
        if lock:
            out.append("    tern_lock();")
        # Errors go to the handler of the call's (first) communicator once
        # it is known to be valid (MPI-4.1 9.3), before that to
        # MPI_COMM_WORLD's.
        # A session's errors go to its handler the same way.
        errc, errc_kind = "NULL", "comm"
        for _, _, p, check in self.checked:
            codes = check["code"]
            if errc_kind != "comm" and any("$E" in c for c in codes):
                codes = check.get("code_" + errc_kind)
                if codes is None:
                    fail(f"{self.proc}({p.name}): CHECKS has no code_{errc_kind} for its errors")
            for code in codes:
                code = code.replace("$o", f"{p.name}_o").replace("$p", p.name)
                code = code.replace("$E", errc)
                out.append(f"    TRY({code});")
            if check.get("errc") and errc == "NULL":
                errc, errc_kind = f"{p.name}_o", check["errc"]
        args = ", ".join(["fn"] + [a for _, a in self.body_params()])
        call = f"    rc = {self.body()}({args});"
        out.append(call if len(call) <= genapi.LINE_WIDTH else
                   genapi.declarator("    rc =", self.body(),
                                     [(a, None) for a in ["fn"] + [a for _, a in self.body_params()]],
                                     ";"))
        if self.checked:
            out.append("out:")
        if lock == IF_HELD:
            out.append("    if (locked) tern_unlock();")
        elif lock:
            out.append("    tern_unlock();")
        out.append("    return rc;")
        out.append("}")
        return "\n".join(out)


def entries():
    sigs = standard_signatures()
    decls = {p.name: p for p in genapi.standard_procedures() + genapi.legacy_procedures()}
    out = {}
    for chapter, procs in BINDINGS.items():
        out[chapter] = []
        for proc, opts in procs.items():
            like = checked_as(proc, opts)
            if proc not in decls:
                fail(f"BINDINGS: {proc} is not a procedure of the standard")
            if decls[proc].ret != "int":
                fail(f"BINDINGS: {proc} returns {decls[proc].ret}, not an error code")
            if like not in sigs:
                # An MPI-1 procedure with no successor of its parameters: it
                # needs no kinds when its body checks them all.
                if not decls[proc].legacy or opts.get("custom") != ALL or "like" in opts:
                    fail(f"BINDINGS: {proc} is not a procedure of the standard")
                out[chapter].append(Entry(proc, decls[proc], [], opts))
                continue
            if [n for _, n in decls[proc].params] != [p.name for p in sigs[like][1]]:
                fail(f"BINDINGS: {proc} does not take the parameters of {like}")
            out[chapter].append(Entry(proc, decls[proc], sigs[like][1], opts))
    return out


def object_structs(chapters):
    """The structs the bodies receive, declared in bindings.h."""
    out = set()
    for ents in chapters.values():
        for e in ents:
            for _, _, _, check in e.checked:
                m = re.fullmatch(r"struct (\w+) \*", check["obj"] or "")
                if m:
                    out.add(m.group(1))
    return sorted(out)


def render_header(chapters):
    out = [NOTICE, "", "/* The hand-written bodies of the generated entry points (src/api/gen/).",
           " * Each runs initialised, under the library lock, with the arguments that",
           " * have a check in tools/gen/param_kinds.py already checked and their",
           " * handles turned into objects (the parameter's name with _o); fn is the",
           " * MPI name, for error messages.  An error is raised before it is returned. */",
           "#ifndef TERN_API_GEN_BINDINGS_H", "#define TERN_API_GEN_BINDINGS_H", "",
           "#include <mpi.h>", ""]
    out += [f"struct {name};" for name in object_structs(chapters)]
    for chapter, ents in chapters.items():
        out.append("")
        out.append(f"/* src/api/{chapter}.c */")
        out.extend(e.prototype() for e in ents if "like" not in e.opts)
    out += ["", "#endif", ""]
    return "\n".join(out)


def render_chapter(chapter, ents):
    includes = {"api/check.h", "api/gen/bindings.h", "core/api.h", "core/state.h"}
    for e in ents:
        for _, _, _, check in e.checked:
            includes.update(check.get("include", ()))
    out = [NOTICE, ""] + [f'#include "{h}"' for h in sorted(includes)]
    for e in ents:
        out.append("")
        out.append(e.render())
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", type=Path, default=REPO,
                    help="root under which to write the outputs (default: the repository)")
    args = ap.parse_args()
    chapters = entries()
    outdir = args.outdir.resolve()
    genapi.write(outdir / OUT_DIR / "bindings.h", render_header(chapters))
    for chapter, ents in chapters.items():
        genapi.write(outdir / OUT_DIR / f"bindings_{chapter}.c", render_chapter(chapter, ents))
    n = sum(len(e) for e in chapters.values())
    print(f"gen_bindings.py: {n} entry points in {len(chapters)} chapters", file=sys.stderr)


if __name__ == "__main__":
    main()
