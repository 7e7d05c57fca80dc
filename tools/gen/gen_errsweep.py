#!/usr/bin/env python3
"""Generate the invalid-argument sweep: tests/errsweep/errsweep_gen.c.

For every procedure that tools/gen/api_list.txt marks "implemented", and that
returns an error code, the sweep calls it
  - once with every argument valid (it must return MPI_SUCCESS), and
  - once per invalid value of each parameter whose kind has invalid values,
    every other argument valid,
and compares the error class returned under MPI_ERRORS_RETURN with the one
expected.  tests/errsweep/errsweep_main.c runs each call in a forked child.

How an argument is made is data, below:
  ROLE_RULES   the parameter's kind in the standard (pympistandard), its
               direction, its C shape and name -> a role
  ROLES        per role: a valid C expression, and the invalid values with
               the error class each must give
  FUNCS        per procedure, where the kinds are not enough: the
               communicator used, a prelude, other valid values, more invalid
               values, or why it is skipped
  EXPECT       expected classes that differ from the role's, per case
  KNOWN_FAILURES  gaps in Tern's checks that another part owns: reported,
               not failed; remove an entry once its fix is merged
  MPICH_NOTES  where MPICH (the behaviour reference) does not agree with the
               expectation: they are the standard's class

In expressions: $C is the communicator fixture of the case (es_world,
es_self or es_ring, see FUNCS), $T the parameter's C base type, $i its position.

Run:  python3 tools/gen/gen_errsweep.py      (after genapi.py)
tools/gen/check.sh regenerates into a temporary directory and fails when the
committed file differs, so a procedure implemented later is swept as soon as
both generators are rerun.
"""

import argparse
import fnmatch
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genapi  # noqa: E402  (the same reading of the standard)

REPO = Path(__file__).resolve().parents[2]
API_LIST = Path("tools/gen/api_list.txt")
OUT = Path("tests/errsweep/errsweep_gen.c")

# --------------------------------------------------------------------------
# Data: error classes the driver can name
# --------------------------------------------------------------------------

CLASSES = """MPI_SUCCESS MPI_ERR_BUFFER MPI_ERR_COUNT MPI_ERR_TYPE MPI_ERR_TAG MPI_ERR_COMM
MPI_ERR_RANK MPI_ERR_ROOT MPI_ERR_GROUP MPI_ERR_OP MPI_ERR_TOPOLOGY MPI_ERR_DIMS MPI_ERR_ARG
MPI_ERR_UNKNOWN MPI_ERR_TRUNCATE MPI_ERR_OTHER MPI_ERR_INTERN MPI_ERR_IN_STATUS MPI_ERR_PENDING
MPI_ERR_REQUEST MPI_ERR_INFO MPI_ERR_INFO_KEY MPI_ERR_INFO_VALUE MPI_ERR_INFO_NOKEY MPI_ERR_NO_MEM
MPI_ERR_UNSUPPORTED_OPERATION MPI_ERR_WIN MPI_ERR_BASE MPI_ERR_KEYVAL MPI_ERR_SIZE MPI_ERR_DISP
MPI_ERR_SESSION MPI_ERR_VALUE_TOO_LARGE MPI_ERR_ERRHANDLER""".split()

# --------------------------------------------------------------------------
# Data: parameter -> role.  First matching rule wins.  Keys (all optional):
#   kind: regex on the standard's kind; dir: "in", "out", "inout" (or a
#   "|"-list); shape: "" (scalar), "*", "[]", "[][3]"; name: regex on the
#   parameter's name; fn: regex on the procedure's name.
# --------------------------------------------------------------------------

COUNT_KINDS = "POLYXFER_NUM_ELEM_NNI|POLYDTYPE_NUM_ELEM_NNI|ARRAY_LENGTH_NNI|XFER_NUM_ELEM_NNI"

ROLE_RULES = [
    ({"kind": "VARARGS"}, None),
    # A status may hold any source, tag or error.
    ({"fn": r"MPI_Status_set_\w+", "kind": "RANK|TAG", "dir": "in", "shape": ""}, "int_any"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": ""}, "comm"),
    ({"kind": "COMMUNICATOR", "dir": "inout", "shape": "*"}, "comm_inout"),
    ({"kind": "RANK", "dir": "in", "shape": "", "name": "root"}, "root"),
    ({"kind": "RANK", "dir": "in", "shape": "", "name": "source"}, "source"),
    ({"kind": "RANK", "dir": "in", "shape": ""}, "dest"),
    ({"kind": "RANK", "dir": "in", "shape": "[]"}, "rank_array"),
    ({"kind": "RANK", "dir": "in", "shape": "[][3]"}, "rank_ranges"),
    ({"kind": "TAG", "dir": "in", "shape": ""}, "tag"),
    ({"kind": COUNT_KINDS, "dir": "in", "shape": ""}, "count"),
    # Integers in the database, counts in the text.
    ({"kind": "POLYXFER_NUM_ELEM|XFER_NUM_ELEM", "dir": "in", "shape": ""}, "count"),
    ({"kind": "POLYDTYPE_NUM_ELEM", "dir": "in", "shape": "", "name": "outcount"}, "count"),
    ({"kind": "ARRAY_LENGTH", "dir": "in", "shape": ""}, "length"),
    ({"kind": "POLYNUM_BYTES_NNI|NUM_BYTES_NNI", "dir": "in", "shape": ""}, "bytes"),
    ({"kind": COUNT_KINDS, "dir": "in", "shape": "[]"}, "count_array"),
    ({"kind": "POLYDISPLACEMENT|POLYDISPLACEMENT_COUNT", "dir": "in", "shape": "[]"}, "displs"),
    ({"kind": "POLYDISPLACEMENT_AINT_COUNT", "dir": "in", "shape": "[]"}, "adispls"),
    ({"kind": "DATATYPE", "dir": "in", "shape": ""}, "datatype"),
    ({"kind": "DATATYPE", "dir": "in", "shape": "[]"}, "datatype_array"),
    ({"kind": "DATATYPE", "dir": "inout", "shape": "*"}, "datatype_inout"),
    ({"kind": "OPERATION", "dir": "in", "shape": ""}, "op"),
    ({"kind": "OPERATION", "dir": "inout", "shape": "*"}, "op_inout"),
    ({"kind": "GROUP", "dir": "in", "shape": ""}, "group"),
    ({"kind": "GROUP", "dir": "inout", "shape": "*"}, "group_inout"),
    ({"kind": "REQUEST", "dir": "in", "shape": ""}, "request"),
    # Requests that must be live (not MPI_REQUEST_NULL).
    ({"kind": "REQUEST", "dir": "in|inout", "shape": "*",
      "fn": r"MPI_(Start|Request_free|Cancel)"}, "request_live"),
    ({"kind": "REQUEST", "dir": "inout", "shape": "[]", "fn": r"MPI_Startall"}, "request_live_array"),
    ({"kind": "REQUEST", "dir": "in|inout", "shape": "*"}, "request_inout"),
    ({"kind": "REQUEST", "dir": "inout", "shape": "[]"}, "request_array"),
    ({"kind": "ERRHANDLER", "dir": "in", "shape": ""}, "errhandler"),
    ({"kind": "ERRHANDLER", "dir": "inout", "shape": "*"}, "errhandler_inout"),
    ({"kind": "INFO", "dir": "in", "shape": ""}, "info"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*", "fn": r"MPI_(Get_address|Address)"}, "location"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*", "fn": r"MPI_Free_mem"}, "alloc_mem"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*"}, "sbuf"),
    ({"kind": "BUFFER", "dir": "out|inout", "shape": "*"}, "rbuf"),
    ({"kind": "STATUS", "dir": "in", "shape": "*"}, "status_in"),
    ({"kind": "STATUS", "dir": "inout", "shape": "*"}, "status_inout"),
    ({"kind": "STATUS", "dir": "out", "shape": "*"}, "status_out"),
    ({"kind": "STATUS", "dir": "out", "shape": "[]"}, "statuses_out"),
    ({"kind": "F90_STATUS|F08_STATUS", "dir": "in", "shape": "*"}, "fstatus_in"),
    ({"kind": "KEYVAL", "dir": "in", "shape": ""}, "keyval"),
    ({"kind": "STRING", "dir": "in", "shape": "*"}, "string_in"),
    ({"kind": "MESSAGE", "dir": "inout", "shape": "*"}, "message_inout"),
    ({"kind": "FUNCTION|POLYFUNCTION", "dir": "in", "name": "user_fn"}, "op_fn"),
    ({"kind": "FUNCTION|POLYFUNCTION", "dir": "in"}, "errhandler_fn"),
    ({"kind": "ERROR_CODE", "dir": "in", "shape": "", "fn": r"MPI_Error_(class|string)"}, "errorcode"),
    ({"kind": "COLOR", "dir": "in", "shape": ""}, "color"),
    ({"kind": "SPLIT_TYPE", "dir": "in", "shape": ""}, "split_type"),
    ({"kind": "ALLOC_MEM_NUM_BYTES", "dir": "in", "shape": ""}, "alloc_size"),
    ({"kind": "POLYDISPLACEMENT_COUNT", "dir": "inout", "shape": "*"}, "position"),
    ({"kind": "ATTRIBUTE_VAL", "dir": "in"}, "ptr_any"),
    ({"kind": "INFO_VALUE_LENGTH|STRING_LENGTH", "dir": "inout", "shape": "*"}, "length_inout"),
    # Any other output: a place to write, never NULL.
    ({"dir": "out", "shape": "*|[]"}, "out"),
    # Any other integer input: every value means something.
    ({"dir": "in", "shape": "", "ctype": "int"}, "int_any"),
    ({"dir": "in", "shape": "", "ctype": "MPI_Aint|MPI_Count|MPI_Offset"}, "aint_any"),
]

ARG, BUF, COMM, COUNT, TYPE = "MPI_ERR_ARG", "MPI_ERR_BUFFER", "MPI_ERR_COMM", "MPI_ERR_COUNT", "MPI_ERR_TYPE"

# role -> (valid expression, [(label, invalid expression, class[, guard])]).
# A guard is a C condition under which the value cannot be built: the case
# then counts as not applicable.
ROLES = {
    "comm": ("$C.h", [("MPI_COMM_NULL", "MPI_COMM_NULL", COMM),
                      ("freed", "es_freed.comm", COMM)]),
    "comm_inout": ("ES_PTR(MPI_Comm, es_new_comm())",
                   [("&MPI_COMM_NULL", "ES_PTR(MPI_Comm, MPI_COMM_NULL)", COMM),
                    ("&freed", "ES_PTR(MPI_Comm, es_freed.comm)", COMM),
                    ("NULL", "NULL", ARG)]),
    "dest": ("$C.rank", [("size", "$C.size", "MPI_ERR_RANK"), ("-5", "-5", "MPI_ERR_RANK")]),
    "source": ("$C.rank", [("size", "$C.size", "MPI_ERR_RANK"), ("-5", "-5", "MPI_ERR_RANK")]),
    "root": ("0", [("-1", "-1", "MPI_ERR_ROOT"), ("size", "$C.size", "MPI_ERR_ROOT")]),
    "rank_array": ("es_iota", [("{size}", "(int[]){$C.size}", "MPI_ERR_RANK"),
                               ("{-5}", "(int[]){-5}", "MPI_ERR_RANK")]),
    "rank_ranges": ("(int[][3]){{0, 0, 1}}",
                    [("{{size,size,1}}", "(int[][3]){{$C.size, $C.size, 1}}", "MPI_ERR_RANK"),
                     ("{{-5,0,1}}", "(int[][3]){{-5, 0, 1}}", "MPI_ERR_RANK")]),
    "tag": ("0", [("-5", "-5", "MPI_ERR_TAG"),
                  ("MPI_TAG_UB+1", "es_tag_ub + 1", "MPI_ERR_TAG", "es_tag_ub == INT_MAX")]),
    "count": ("1", [("-1", "-1", COUNT)]),
    # MPICH's class for a negative array length or byte size.
    "length": ("1", [("-1", "-1", ARG)]),
    "bytes": ("1", [("-1", "-1", ARG)]),
    "count_array": ("es_ones", [("{-1,..}", "es_neg_first", COUNT)]),
    "displs": ("es_iota", []),
    "adispls": ("es_aiota", []),
    "datatype": ("MPI_INT", [("MPI_DATATYPE_NULL", "MPI_DATATYPE_NULL", TYPE),
                             ("freed", "es_freed.type", TYPE)]),
    # Only where data moves (FUNCS adds it through "uncommitted").
    "datatype_array": ("es_ints", [("{MPI_DATATYPE_NULL,..}", "es_null_first", TYPE)]),
    "datatype_inout": ("ES_PTR(MPI_Datatype, es_new_type())",
                       [("&MPI_DATATYPE_NULL", "ES_PTR(MPI_Datatype, MPI_DATATYPE_NULL)", TYPE),
                        ("&freed", "ES_PTR(MPI_Datatype, es_freed.type)", TYPE),
                        ("NULL", "NULL", ARG)]),
    "op": ("MPI_SUM", [("MPI_OP_NULL", "MPI_OP_NULL", "MPI_ERR_OP"),
                       ("freed", "es_freed.op", "MPI_ERR_OP")]),
    "op_inout": ("ES_PTR(MPI_Op, es_new_op())",
                 [("&MPI_OP_NULL", "ES_PTR(MPI_Op, MPI_OP_NULL)", "MPI_ERR_OP"),
                  ("&MPI_SUM", "ES_PTR(MPI_Op, MPI_SUM)", "MPI_ERR_OP"),
                  ("NULL", "NULL", ARG)]),
    "group": ("$C.group", [("MPI_GROUP_NULL", "MPI_GROUP_NULL", "MPI_ERR_GROUP"),
                           ("freed", "es_freed.group", "MPI_ERR_GROUP")]),
    "group_inout": ("ES_PTR(MPI_Group, es_new_group())",
                    [("&MPI_GROUP_NULL", "ES_PTR(MPI_Group, MPI_GROUP_NULL)", "MPI_ERR_GROUP"),
                     ("&freed", "ES_PTR(MPI_Group, es_freed.group)", "MPI_ERR_GROUP"),
                     ("NULL", "NULL", ARG)]),
    "request": ("MPI_REQUEST_NULL", [("freed", "es_freed.request", "MPI_ERR_REQUEST")]),
    "request_inout": ("ES_PTR(MPI_Request, MPI_REQUEST_NULL)",
                      [("&freed", "ES_PTR(MPI_Request, es_freed.request)", "MPI_ERR_REQUEST"),
                       ("NULL", "NULL", ARG)]),
    "request_live": ("ES_PTR(MPI_Request, es_new_prequest())",
                     [("&MPI_REQUEST_NULL", "ES_PTR(MPI_Request, MPI_REQUEST_NULL)", "MPI_ERR_REQUEST"),
                      ("&freed", "ES_PTR(MPI_Request, es_freed.request)", "MPI_ERR_REQUEST"),
                      ("NULL", "NULL", ARG)]),
    "request_array": ("(MPI_Request[]){MPI_REQUEST_NULL}",
                      [("{freed}", "(MPI_Request[]){es_freed.request}", "MPI_ERR_REQUEST"),
                       ("NULL", "NULL", ARG)]),
    "request_live_array": ("(MPI_Request[]){es_new_prequest()}",
                           [("{freed}", "(MPI_Request[]){es_freed.request}", "MPI_ERR_REQUEST"),
                            ("{MPI_REQUEST_NULL}", "(MPI_Request[]){MPI_REQUEST_NULL}", "MPI_ERR_REQUEST"),
                            ("NULL", "NULL", ARG)]),
    "errhandler": ("MPI_ERRORS_RETURN", [("MPI_ERRHANDLER_NULL", "MPI_ERRHANDLER_NULL", ARG),
                                         ("freed", "es_freed.errhandler", ARG)]),
    "errhandler_inout": ("ES_PTR(MPI_Errhandler, es_new_errhandler())",
                         [("&MPI_ERRHANDLER_NULL", "ES_PTR(MPI_Errhandler, MPI_ERRHANDLER_NULL)", ARG),
                          ("NULL", "NULL", ARG)]),
    "info": ("MPI_INFO_NULL", [("bogus", "es_bogus_info", "MPI_ERR_INFO")]),
    "location": ("es_sbuf", []),
    "alloc_mem": ("es_new_mem()", []),
    "sbuf": ("es_sbuf", [("NULL", "NULL", BUF)]),
    "rbuf": ("es_rbuf", [("NULL", "NULL", BUF)]),
    "status_in": ("&es_status0", [("NULL", "NULL", ARG)]),
    "status_inout": ("es_fresh_status()", [("NULL", "NULL", ARG)]),
    "status_out": ("ES_OUT(MPI_Status, $i)", [("NULL", "NULL", ARG)]),
    "statuses_out": ("ES_OUT(MPI_Status, $i)", [("NULL", "NULL", ARG)]),
    "fstatus_in": ("($T *)(void *)&es_status0", [("NULL", "NULL", ARG)]),
    "keyval": ("MPI_TAG_UB", [("MPI_KEYVAL_INVALID", "MPI_KEYVAL_INVALID", "MPI_ERR_KEYVAL"),
                              ("12345", "12345", "MPI_ERR_KEYVAL")]),
    "string_in": ('"errsweep"', [("NULL", "NULL", ARG)]),
    "message_inout": ("ES_PTR(MPI_Message, MPI_MESSAGE_NO_PROC)",
                      [("&MPI_MESSAGE_NULL", "ES_PTR(MPI_Message, MPI_MESSAGE_NULL)", "MPI_ERR_REQUEST"),
                       ("NULL", "NULL", ARG)]),
    "op_fn": ("es_user_fn", [("NULL", "NULL", ARG)]),
    "errhandler_fn": ("es_errhandler_fn", [("NULL", "NULL", ARG)]),
    "errorcode": ("MPI_ERR_OTHER", [("-1", "-1", ARG)]),
    "color": ("0", [("-5", "-5", ARG)]),
    "split_type": ("MPI_COMM_TYPE_SHARED", [("12345", "12345", ARG)]),
    "alloc_size": ("64", [("-1", "-1", ARG)]),
    "position": ("ES_PTR($T, 0)", [("NULL", "NULL", ARG)]),
    "out": ("ES_OUT($T, $i)", [("NULL", "NULL", ARG)]),
    "ptr_any": ("es_sbuf", []),
    "length_inout": ("ES_PTR(int, 64)", [("NULL", "NULL", ARG)]),
    "int_any": ("0", []),
    "aint_any": ("0", []),
}

# Point-to-point calls that move data, blocking, nonblocking, persistent.
P2P = (r"I?(Send|Bsend|Ssend|Rsend|send|bsend|ssend|rsend)(_init)?|I?(Recv|recv)(_init)?|"
       r"I?(Sendrecv|sendrecv)(_replace)?|I?(Mrecv|mrecv)")

# Procedures whose calls never reach another rank through MPI_COMM_WORLD
# (point-to-point with the caller itself, local queries, groups) use
# MPI_COMM_WORLD; every other one uses MPI_COMM_SELF, so a collective
# completes alone and a check that is missing cannot disturb another rank.
WORLD_FUNCS = re.compile(
    r"MPI_(" + P2P + r"|Probe|Iprobe|Mprobe|Improbe|"
    r"Comm_(rank|size|compare|group|test_inter|[gs]et_attr|[gs]et_name|[gs]et_errhandler|"
    r"call_errhandler|remote_size|remote_group)|Attr_get|Errhandler_[gs]et|Pack|Unpack|Pack_size|"
    r"Group_\w+)(_c|_x)?$")

# Neighbourhood collectives need a process topology: they use es_ring, a
# periodic 1-d grid of MPI_COMM_SELF (both neighbours are the caller).
RING_FUNCS = re.compile(r"MPI_(Ineighbor_\w+|Neighbor_\w+)$")


def fixture_of(fn):
    if RING_FUNCS.fullmatch(fn):
        return "es_ring"
    return "es_world" if WORLD_FUNCS.fullmatch(fn) else "es_self"

# Per procedure.  Keys:
#   skip: why it is not swept
#   prelude: C statements run before the call (all cases of the procedure)
#   baseline: False when no all-valid call can be made here (with why)
#   valid: {param: expression} replacing the role's valid value
#   invalid: {param: [(label, expr, class[, guard])]} replacing the role's
#   extra: {param: [(label, expr, class[, guard])]} added to the role's
#   uncommitted: a datatype parameter that moves data, so an uncommitted
#                type is invalid there (see DATA_MOVERS)
UNCOMMITTED = ("uncommitted", "es_uncommitted", TYPE)

FUNCS = {
    "MPI_Init": {"skip": "already called; a second call is not an argument error"},
    "MPI_Init_thread": {"skip": "already called; a second call is not an argument error"},
    "MPI_Finalize": {"skip": "ends MPI for the process"},
    "MPI_Abort": {"skip": "ends the job whatever its arguments"},
    "MPI_Pcontrol": {"skip": "variadic; every level is valid"},

    # A blocking send to self may wait for its receive (MPICH's does).
    "MPI_Send": {"prelude": "(void)es_post_irecv(&$C);"},
    "MPI_Ssend": {"prelude": "(void)es_post_irecv(&$C);"},
    "MPI_Rsend": {"prelude": "(void)es_post_irecv(&$C);"},
    "MPI_Irsend": {"prelude": "(void)es_post_irecv(&$C);"},
    "MPI_Bsend": {"prelude": "(void)es_attach_buffer();"},
    "MPI_Ibsend": {"prelude": "(void)es_attach_buffer();"},
    "MPI_Recv": {"prelude": "(void)es_self_send(&$C);"},
    "MPI_Probe": {"prelude": "(void)es_self_send(&$C);"},
    "MPI_Mprobe": {"prelude": "(void)es_self_send(&$C);"},
    "MPI_Buffer_attach": {"valid": {"buffer": "es_bsend_buffer()", "size": "es_bsend_buffer_size()"}},
    "MPI_Buffer_detach": {"prelude": "(void)es_attach_buffer();"},
    "MPI_Cancel": {"valid": {"request": "ES_PTR(MPI_Request, es_new_irecv())"}},
    "MPI_Comm_remote_group": {"baseline": "needs an intercommunicator",
                              "extra": {"comm": [("intracomm", "$C.h", COMM)]}},
    "MPI_Comm_remote_size": {"baseline": "needs an intercommunicator",
                             "extra": {"comm": [("intracomm", "$C.h", COMM)]}},
    "MPI_Comm_free": {"extra": {"comm": [("&MPI_COMM_WORLD", "ES_PTR(MPI_Comm, MPI_COMM_WORLD)", COMM)]}},
    "MPI_Type_free": {"extra": {"datatype": [("&MPI_INT", "ES_PTR(MPI_Datatype, MPI_INT)", TYPE)]}},
    "MPI_Type_get_contents": {
        "valid": {"datatype": "es_derived", "max_integers": "8", "max_addresses": "8",
                  "max_datatypes": "8"},
        "invalid": {"max_integers": [], "max_addresses": [], "max_datatypes": []},
        "extra": {"datatype": [("MPI_INT", "MPI_INT", TYPE)]}},
    "MPI_Type_get_contents_c": {
        "valid": {"datatype": "es_derived", "max_integers": "8", "max_addresses": "8",
                  "max_large_counts": "8", "max_datatypes": "8"},
        "invalid": {"max_integers": [], "max_addresses": [], "max_large_counts": [],
                    "max_datatypes": []},
        "extra": {"datatype": [("MPI_INT", "MPI_INT", TYPE)]}},
    "MPI_Type_match_size": {"valid": {"typeclass": "MPI_TYPECLASS_INTEGER", "size": "4"},
                            "extra": {"typeclass": [("12345", "12345", ARG)],
                                      "size": [("3", "3", ARG)]}},
    "MPI_Pack": {"valid": {"outsize": "64"}},
    "MPI_Unpack": {"valid": {"insize": "64"}},
    "MPI_Pack_c": {"valid": {"outsize": "64"}},
    "MPI_Unpack_c": {"valid": {"insize": "64"}},
    "MPI_Group_excl": {"valid": {"ranks": "(int[]){0}"}},
    "MPI_Group_incl": {"valid": {"ranks": "(int[]){0}"}},
    "MPI_Group_translate_ranks": {"valid": {"ranks1": "(int[]){0}"}},
    # MPI-4.1: the null handles have names ("MPI_COMM_NULL", "MPI_DATATYPE_NULL").
    "MPI_Comm_get_name": {"invalid": {"comm": [("freed", "es_freed.comm", COMM)]}},
    "MPI_Type_get_name": {"invalid": {"datatype": [("freed", "es_freed.type", TYPE)]}},
    "MPI_Status_c2f": {"extra": {"c_status": [("MPI_STATUS_IGNORE", "MPI_STATUS_IGNORE", ARG)]}},
    "MPI_Status_c2f08": {"extra": {"c_status": [("MPI_STATUS_IGNORE", "MPI_STATUS_IGNORE", ARG)]}},
}

# Procedures whose datatype arguments describe data that moves: there an
# uncommitted type is invalid (queries and constructors take it).
DATA_MOVERS = re.compile(
    r"MPI_(" + P2P + r"|"
    r"I?(bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|"
    r"reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|"
    r"(Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Reduce|"
    r"Allreduce|Reduce_scatter|Reduce_scatter_block|Scan|Exscan)(_init)?|Reduce_local|Pack|Unpack)(_c)?$")

# Collectives whose send and receive buffers must not be the same memory.
ALIAS_CHECKED = re.compile(
    r"MPI_I?(Allgather|Allgatherv|Allreduce|Alltoall|Alltoallv|Alltoallw|Exscan|Gather|Gatherv|Reduce|"
    r"Reduce_scatter|Reduce_scatter_block|Scan|Scatter|Scatterv)(_init)?(_c)?$")

# Legacy procedures (no kinds in the standard's database): the kinds of the
# procedure they were renamed to, by parameter name.
LEGACY_TWIN = {
    "MPI_Address": ("MPI_Get_address", {}),
    "MPI_Errhandler_create": ("MPI_Comm_create_errhandler", {"comm_errhandler_fn": "comm_errhandler_fn"}),
    "MPI_Errhandler_get": ("MPI_Comm_get_errhandler", {}),
    "MPI_Errhandler_set": ("MPI_Comm_set_errhandler", {}),
    "MPI_Type_extent": ("MPI_Type_get_extent", {}),
    "MPI_Type_lb": ("MPI_Type_get_extent", {"displacement": "lb"}),
    "MPI_Type_ub": ("MPI_Type_get_extent", {"displacement": "lb"}),
    "MPI_Type_hindexed": ("MPI_Type_create_hindexed", {}),
    "MPI_Type_hvector": ("MPI_Type_create_hvector", {}),
    "MPI_Type_struct": ("MPI_Type_create_struct", {}),
}

# The three tables below are keyed by (procedure, parameter, value label)
# patterns, shell-style ("MPI_Group_*"); the first matching entry counts,
# and each entry must match some case.

# Expected classes that differ from the role's.  Where the standard names
# no class, the expectation is MPICH's, unless MPICH's is MPI_ERR_OTHER or
# MPI_ERR_INTERN (which say nothing about the argument), or the standard has
# a class for exactly that kind of argument: MPI_ERR_BUFFER ("invalid buffer
# pointer") for every NULL buffer that data would move through, where MPICH
# says MPI_ERR_ARG for some (MPI_Pack, MPI_Unpack, MPI_Buffer_attach).
EXPECT = {
    ("MPI_Group_range_*", "ranges", "*"): ARG,
}

# Tern gaps in files that other parts own right now -> why.  Reported as
# KNOWN, not failed.  Remove an entry once its fix is merged (the sweep then
# reports the case as XPASS).
KNOWN_FAILURES = {
    ("MPI_Alltoallw", "*buf", "NULL"): "src/api/coll.c does not check NULL buffers (crashes)",
    ("MPI_Alltoallw", "sendbuf", "recvbuf"): "src/api/coll.c does not check that sendbuf and recvbuf differ",
    ("MPI_Comm_split_type", "info", "bogus"):
        "src/api/comm.c does not check info (tern_check_info_arg in src/api/check.h does)",
    ("MPI_Error_string", "errorcode", "-1"): "src/core/errors.c accepts any code",
    ("MPI_Group_range_*", "ranges", "*"): "src/api/group.c gives MPI_ERR_RANK where MPICH gives MPI_ERR_ARG",
    ("MPI_Request_get_status", "status", "NULL"): "src/api/request.c does not check status (crashes)",
    ("MPI_Test", "status", "NULL"): "src/api/request.c does not check status (crashes)",
    ("MPI_Test[as]*", "*status*", "NULL"): "src/api/request.c does not check statuses (crashes or ignores)",
    ("MPI_Wait*", "*status*", "NULL"): "src/api/request.c does not check statuses (crashes or ignores)",
}

# Where MPICH 4.0.2 (mpicc.mpich / mpiexec.mpich on Debian 12; see
# tests/errsweep/calibrate_mpich.sh) does not give the expected class ->
# what it does instead.  The expectation stays the standard's.
MPICH_NOTES = {
    ("*", "*", "freed"): "does not detect a freed handle: crashes or succeeds",
    ("*", "*", "&freed"): "does not detect a freed handle: crashes or fails with MPI_ERR_OTHER/INTERN",
    ("*", "*", "{freed}"): "does not detect a freed handle: aborts",
    ("MPI_*[Rr]educe*", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_*[Ss]can", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_Reduce_local", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_*[Rr]educe*", "*count", "-1"): "succeeds (MPI_COMM_SELF)",
    ("MPI_*[Ss]can", "count", "-1"): "aborts",
    ("MPI_Reduce_local", "*", "NULL"): "crashes",
    ("MPI_Reduce_local", "count", "-1"): "crashes",
    ("MPI_Buffer_attach", "buffer", "NULL"): "MPI_ERR_ARG",
    ("MPI_Comm_remote_*", "comm", "intracomm"): "succeeds",
    ("MPI_Comm_split", "color", "-5"): "succeeds",
    ("MPI_Error_*", "errorcode", "-1"): "succeeds",
    ("MPI_Pack", "inbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Pack", "outbuf", "NULL"): "crashes",
    ("MPI_Unpack", "inbuf", "NULL"): "crashes",
    ("MPI_Unpack", "outbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Status_*", "*", "NULL"): "crashes or fails with MPI_ERR_OTHER",
    ("MPI_Status_c2f", "c_status", "MPI_STATUS_IGNORE"): "MPI_ERR_OTHER",
    ("MPI_Type_commit", "datatype", "NULL"): "crashes",
    ("MPI_Type_free", "datatype", "NULL"): "crashes",
}


# --------------------------------------------------------------------------
# Reading the standard
# --------------------------------------------------------------------------


class Param:
    def __init__(self, name, kind, direction, ctype, shape, index):
        self.name, self.kind, self.dir = name, kind, direction
        self.ctype, self.shape, self.index = ctype, shape, index


def shape_of(ptr_level, array):
    if array:
        return array if ptr_level == 0 else "*" * ptr_level + array
    return "*" * ptr_level


def params_of(expr):
    out = []
    for i, p in enumerate(expr.parameters):
        kind = p.kind.name
        if kind == "VARARGS":
            out.append(Param("...", kind, "in", "", "", i))
            continue
        out.append(Param(p.name, kind, p.direction.value.lower(), p.base_type,
                         shape_of(p.pointer_level, p.array), i))
    return out


def standard_signatures():
    """{name: (return type, [Param])} for every C procedure of the standard."""
    import pympistandard
    pympistandard.use_api_version(1, force_bundled=True)
    sigs = {}
    for key in sorted(pympistandard.PROCEDURES):
        proc = pympistandard.PROCEDURES[key]
        exprs = [proc.express.iso_c]
        if proc.has_embiggenment():
            exprs.append(proc.express.embiggen.iso_c)
        for e in exprs:
            if e is not None:
                sigs[e.name] = (e.return_type, params_of(e))
    return sigs


def legacy_signatures(sigs):
    out = {}
    for ret, name, decls in genapi.LEGACY_PROCEDURES:
        twin, renames = LEGACY_TWIN[name]
        twin_params = {p.name: p for p in sigs[twin][1]}
        params = []
        for i, decl in enumerate(decls):
            m = re.match(r"(?:const\s+)?([A-Za-z_]\w*)\s*(\**)\s*([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)$", decl)
            base, stars, pname, array = m.groups()
            t = twin_params.get(renames.get(pname, pname))
            if t is None:
                fail(f"no kind for {name}({pname}): extend LEGACY_TWIN")
            params.append(Param(pname, t.kind, t.dir, base, shape_of(len(stars), array), i))
        out[name] = (ret, params)
    return out


def fail(msg):
    print(f"gen_errsweep.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def implemented(api_list):
    names = []
    for line in api_list.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1] == "implemented":
            names.append(parts[0])
    return names


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


def rule_matches(rule, fn, p):
    def full(rx, s):
        return re.fullmatch(rx, s) is not None
    if "kind" in rule and not full(rule["kind"], p.kind):
        return False
    if "dir" in rule and p.dir not in rule["dir"].split("|"):
        return False
    if "shape" in rule and p.shape not in rule["shape"].split("|"):
        return False
    if "name" in rule and not full(rule["name"], p.name):
        return False
    if "fn" in rule and not full(rule["fn"], fn):
        return False
    if "ctype" in rule and not full(rule["ctype"], p.ctype):
        return False
    return True


def role_of(fn, p):
    for rule, role in ROLE_RULES:
        if rule_matches(rule, fn, p):
            return role
    return None


def lookup(table, key):
    for pat, v in table.items():
        if all(fnmatch.fnmatchcase(k, p) for k, p in zip(key, pat)):
            return v
    return None


def unused_patterns(table, keys, excluded):
    return [pat for pat in table
            if not any(all(fnmatch.fnmatchcase(k, p) for k, p in zip(key, pat)) for key in keys)
            and pat[0] not in excluded]


class Case:
    def __init__(self, fn, arg, label, args, expect, guard=None):
        self.fn, self.arg, self.label, self.args = fn, arg, label, args
        self.expect, self.guard = expect, guard


# The int array fixtures as the large-count (_c) forms take them: MPI_Count[].
COUNT_ARRAYS = {"es_ones": "(MPI_Count[]){1, 1, 1, 1, 1, 1, 1, 1}",
                "es_neg_first": "(MPI_Count[]){-1, 1, 1, 1, 1, 1, 1, 1}",
                "es_iota": "es_aiota"}


def subst(expr, comm, p):
    if p.ctype == "MPI_Count":
        expr = COUNT_ARRAYS.get(expr, expr)
    return (expr.replace("$C", comm).replace("$T", p.ctype).replace("$i", str(p.index)))


def cases_of(fn, params):
    """(cases, None) or ([], why the procedure cannot be swept)."""
    spec = FUNCS.get(fn, {})
    comm = fixture_of(fn)
    valid, invalid = [], []
    has_op = any(role_of(fn, p) == "op" for p in params)
    for p in params:
        role = role_of(fn, p)
        if role is None:
            return [], f"{p.name}: no role for kind {p.kind} ({p.dir} {p.ctype}{p.shape})"
        v, bad = ROLES[role]
        v = spec.get("valid", {}).get(p.name, v)
        bad = list(spec.get("invalid", {}).get(p.name, bad))
        bad += spec.get("extra", {}).get(p.name, [])
        # No predefined op applies to a derived type: in a reduction an
        # uncommitted type would not be the only error.
        if role == "datatype" and DATA_MOVERS.fullmatch(fn) and not has_op:
            bad.append(UNCOMMITTED)
        if p.name == "sendbuf" and ALIAS_CHECKED.fullmatch(fn):
            bad.append(("recvbuf", "es_rbuf", BUF))
        valid.append(subst(v, comm, p))
        invalid.append([(lab, subst(e, comm, p), cls, *(subst(g, comm, p) for g in rest))
                        for lab, e, cls, *rest in bad])
    cases = []
    if spec.get("baseline", True) is True:
        cases.append(Case(fn, "-", "all valid", valid, "MPI_SUCCESS"))
    for i, p in enumerate(params):
        for lab, e, cls, *rest in invalid[i]:
            args = list(valid)
            args[i] = e
            cls = lookup(EXPECT, (fn, p.name, lab)) or cls
            cases.append(Case(fn, p.name, lab, args, cls, rest[0] if rest else None))
    return cases, None


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(procs, skipped, uncovered):
    out = [
        "/* Generated by tools/gen/gen_errsweep.py from tools/gen/api_list.txt and the MPI",
        " * standard (pympistandard): do not edit.  Edit the generator's data, then run",
        " * python3 tools/gen/gen_errsweep.py.",
        " *",
        " * One function per case: every argument valid but at most one. */",
        "#include <limits.h>",
        "#include <stddef.h>",
        "",
        '#include "errsweep.h"',
        "",
        "#if defined(__GNUC__)",
        "/* The cases pass NULL where the prototypes say nonnull, on purpose. */",
        '#pragma GCC diagnostic ignored "-Wnonnull"',
        "#endif",
    ]
    if skipped:
        out.append("")
        out.append("/* Not swept:")
        for fn, why in skipped:
            out.append(f" *   {fn}: {why}")
        out.append(" */")
    table = []
    n = 0
    for fn, cases in procs:
        prelude = FUNCS.get(fn, {}).get("prelude")
        comm = fixture_of(fn)
        for c in cases:
            key = (c.fn, c.arg, c.label)
            name = f"c{n}"
            n += 1
            out.append("")
            note = lookup(MPICH_NOTES, key) if c.arg != "-" else None
            out.append(f"/* {c.fn}: {c.arg} = {c.label} -> {c.expect}"
                       + (f"\n * MPICH: {note}" if note else "") + " */")
            out.append(f"static int {name}(void)")
            out.append("{")
            if c.guard:
                out.append(f"    if ({c.guard}) return ES_NOT_APPLICABLE;")
            if prelude:
                out.append("    " + prelude.replace("$C", comm))
            out.append(genapi.declarator("return", c.fn, [(a, None) for a in c.args], ";", "    ")
                       if c.args else f"    return {c.fn}();")
            out.append("}")
            known = lookup(KNOWN_FAILURES, key)
            table.append(f"    {{{c_string(c.fn)}, {c_string(c.arg)}, {c_string(c.label)}, {c.expect}, "
                         f"{c_string(known) if known else 'NULL'}, {name}}},")
    out.append("")
    out.append("const struct es_case es_cases[] = {")
    out.extend(table)
    out.append("};")
    out.append(f"const int es_ncases = {n};")
    out.append("")
    out.append("const char es_not_covered[] =")
    for fn, why in uncovered:
        out.append("    " + c_string(f"  {fn}: {why}")[:-1] + '\\n"')
    out.append('    "";')
    out.append("")
    out.append("const char *es_class_name(int cls);")
    out.append("const char *es_class_name(int cls)")
    out.append("{")
    out.append("    switch (cls) {")
    for cname in CLASSES:
        out.append(f"#ifdef {cname}" if cname != "MPI_SUCCESS" else "#if 1")
        out.append(f"    case {cname}: return {c_string(cname)};")
        out.append("#endif")
    out.append("    default: return NULL;")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def check_mpich(tsv):
    bad = 0
    for line in tsv.read_text(encoding="utf-8", errors="replace").splitlines():
        row = line.split("\t")
        if len(row) >= 7 and row[1] == "FAIL" and lookup(MPICH_NOTES, (row[2], row[3], row[4])) is None:
            print(f"not in MPICH_NOTES: {row[2]}({row[3]}={row[4]}): expected {row[5]}, MPICH: {row[6]}")
            bad += 1
    print(f"gen_errsweep.py: {bad} MPICH disagreement(s) not in MPICH_NOTES", file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--api-list", type=Path, default=REPO / API_LIST,
                    help="the list of implemented procedures (default: the repository's)")
    ap.add_argument("--outdir", type=Path, default=REPO,
                    help="root under which to write the output (default: the repository)")
    ap.add_argument("--exclude", default="",
                    help="comma-separated procedures to leave out (those another MPI lacks, "
                         "when calibrating against it)")
    ap.add_argument("--check-mpich", type=Path, metavar="TSV",
                    help="read the rows of tests/errsweep/calibrate_mpich.sh and list the failed "
                         "cases that MPICH_NOTES does not explain (exit 1 if any); write nothing")
    args = ap.parse_args()
    if args.check_mpich:
        sys.exit(check_mpich(args.check_mpich))
    excluded = set(filter(None, args.exclude.split(",")))

    sigs = standard_signatures()
    sigs.update(legacy_signatures(sigs))
    procs, skipped, uncovered = [], [], []
    for fn in implemented(args.api_list):
        if fn not in sigs:
            fail(f"{fn} is not in the standard nor a legacy procedure")
        if fn in excluded:
            skipped.append((fn, "excluded on the command line"))
            continue
        ret, params = sigs[fn]
        spec = FUNCS.get(fn, {})
        if "skip" in spec:
            skipped.append((fn, spec["skip"]))
            continue
        if ret != "int":
            skipped.append((fn, f"returns {ret}, no error code"))
            continue
        cases, why = cases_of(fn, params)
        if why:
            uncovered.append((fn, why))
            print(f"gen_errsweep.py: warning: {fn} not covered: {why}", file=sys.stderr)
            continue
        baseline = spec.get("baseline", True)
        if baseline is not True:
            skipped.append((fn + " (all-valid call)", baseline))
        procs.append((fn, cases))

    keys = {(c.fn, c.arg, c.label) for _, cs in procs for c in cs}
    unused = [pat for t in (KNOWN_FAILURES, EXPECT, MPICH_NOTES)
              for pat in unused_patterns(t, keys, excluded)]
    if unused:
        fail(f"data names cases that do not exist: {unused}")

    text = render(procs, skipped, uncovered)
    genapi.write(args.outdir.resolve() / OUT, text)
    ncases = sum(len(c) for _, c in procs)
    print(f"gen_errsweep.py: {len(procs)} procedures, {ncases} cases, {len(skipped)} skipped, "
          f"{len(uncovered)} not covered", file=sys.stderr)


if __name__ == "__main__":
    main()
