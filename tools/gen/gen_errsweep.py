#!/usr/bin/env python3
"""Generate the invalid-argument sweep: tests/errsweep/errsweep_gen.c under --outdir.

For every procedure that tools/gen/api_list.txt marks "implemented", and that
returns an error code, the sweep calls it
  - once with every argument valid (it must return MPI_SUCCESS), and
  - once per invalid value of each parameter whose kind has invalid values,
    every other argument valid,
and compares the error class returned under MPI_ERRORS_RETURN with the one
expected.  tests/errsweep/errsweep_main.c runs each call in a forked child.

How an argument is made is data.  In tools/gen/param_kinds.py, the table of
parameter kinds that the generated entry points share:
  ROLE_RULES   the parameter's kind in the standard (pympistandard), its
               direction, its C shape and name -> a role
  ROLES        per role: a valid C expression, and the invalid values with
               the error class each must give
Below, what only the sweep needs:
  NO_VALID     roles whose valid value cannot exist in Tern (windows, MPI_T
               events): only that argument is swept, no all-valid call
  CALLBACKS    per callback C type: the function passed, its invalid values
  COMM_FIXTURES  per procedure-name pattern: the communicator of its cases
               ($C: MPI_COMM_WORLD, MPI_COMM_SELF or one with a topology)
  CLASS_MAP    per family, classes that differ (MPI_T_ERR_* for MPI_T)
  FAMILIES, FUNCS  per procedure pattern / procedure, where the kinds are not
               enough: a prelude, other valid values, more invalid values,
               no all-valid call (why), or why it is skipped; a big-count
               form (_c) shares its procedure's FUNCS entry
  EXPECT       expected classes that differ from the role's, per case
  KNOWN_FAILURES  gaps in Tern's checks that another part owns: reported,
               not failed; remove an entry once its fix is merged
  MPICH_NOTES  where MPICH (the behaviour reference) does not agree with the
               expectation: they are the standard's class

In expressions: $C is the communicator fixture of the case (es_world or
es_self, see FUNCS), $T the parameter's C base type, $i its position.

The output is not committed: the build runs this generator
(tests/errsweep/CMakeLists.txt) on the committed tools/gen/api_list.txt, so a
procedure implemented later is swept as soon as genapi.py has listed it.
tools/gen/check.sh also runs it, so that data naming cases that no longer
exist fails there.  By hand:
  python3 tools/gen/gen_errsweep.py --outdir /tmp/es   (-> /tmp/es/tests/errsweep/errsweep_gen.c)
"""

import argparse
import fnmatch
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genapi  # noqa: E402  (the same reading of the standard)
from param_kinds import (  # noqa: E402  (the table of parameter kinds)
    ARG, BUF, COMM, KEYVAL, NO_TOPOLOGY, NULL_ARG, RANK, ROLES, T_INVALID, TYPE,
    Param, role_of, shape_of, standard_signatures)

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
MPI_ERR_SESSION MPI_ERR_VALUE_TOO_LARGE MPI_ERR_ERRHANDLER MPI_ERR_FILE
MPI_ERR_AMODE MPI_ERR_UNSUPPORTED_DATAREP MPI_ERR_NO_SUCH_FILE MPI_ERR_BAD_FILE
MPI_T_ERR_MEMORY MPI_T_ERR_NOT_INITIALIZED MPI_T_ERR_CANNOT_INIT MPI_T_ERR_INVALID_INDEX
MPI_T_ERR_INVALID_ITEM MPI_T_ERR_INVALID_HANDLE MPI_T_ERR_OUT_OF_HANDLES MPI_T_ERR_OUT_OF_SESSIONS
MPI_T_ERR_INVALID_SESSION MPI_T_ERR_CVAR_SET_NOT_NOW MPI_T_ERR_CVAR_SET_NEVER
MPI_T_ERR_PVAR_NO_STARTSTOP MPI_T_ERR_PVAR_NO_WRITE MPI_T_ERR_PVAR_NO_ATOMIC MPI_T_ERR_INVALID_NAME
MPI_T_ERR_INVALID MPI_T_ERR_NOT_SUPPORTED MPI_T_ERR_NOT_ACCESSIBLE""".split()

# has no all-valid call, and only that parameter's invalid values are swept
# (any other invalid argument would meet the invalid object first).
NO_VALID = {
    "win": "a window call's all-valid form needs the epoch that another call opens (tests/rma "
           "covers them); the sweep checks the window argument only",
    "win_inout": "MPI_Win_free of a valid window is collective and ends it (tests/rma covers "
                 "it); the sweep checks the window argument only",
    "intercomm": "no intercommunicator exists here: making one needs two groups calling at once",
    "t_event_index": "no event or event source exists: Tern raises no MPI_T events",
    "event_registration": "no event registration can exist: Tern raises no MPI_T events",
    "event_instance": "no event instance can exist: Tern raises no MPI_T events",
}

# Callbacks by C type -> (valid, invalid values).  The attribute copy and
# delete callbacks may be NULL: that is MPI_*_NULL_COPY_FN / _DELETE_FN.
CALLBACKS = {
    "MPI_User_function": ("es_user_fn", NULL_ARG),
    "MPI_User_function_c": ("es_user_fn_c", NULL_ARG),
    "MPI_Comm_errhandler_function": ("es_errhandler_fn", NULL_ARG),
    "MPI_Handler_function": ("es_errhandler_fn", NULL_ARG),
    "MPI_Win_errhandler_function": ("es_win_errhandler_fn", NULL_ARG),
    "MPI_File_errhandler_function": ("es_file_errhandler_fn", NULL_ARG),
    "MPI_Session_errhandler_function": ("es_session_errhandler_fn", NULL_ARG),
    "MPI_Comm_copy_attr_function": ("MPI_COMM_DUP_FN", []),
    "MPI_Comm_delete_attr_function": ("MPI_COMM_NULL_DELETE_FN", []),
    "MPI_Type_copy_attr_function": ("MPI_TYPE_DUP_FN", []),
    "MPI_Type_delete_attr_function": ("MPI_TYPE_NULL_DELETE_FN", []),
    "MPI_Win_copy_attr_function": ("MPI_WIN_DUP_FN", []),
    "MPI_Win_delete_attr_function": ("MPI_WIN_NULL_DELETE_FN", []),
    "MPI_Copy_function": ("MPI_DUP_FN", []),
    "MPI_Delete_function": ("MPI_NULL_DELETE_FN", []),
    "MPI_T_event_cb_function": ("es_t_event_cb_fn", [("NULL", "NULL", T_INVALID)]),
    "MPI_T_event_free_cb_function": ("es_t_event_free_cb_fn", []),
    "MPI_T_event_dropped_cb_function": ("es_t_event_dropped_cb_fn", []),
    "MPI_Grequest_query_function": ("es_greq_query_fn", NULL_ARG),
    "MPI_Grequest_free_function": ("es_greq_free_fn", NULL_ARG),
    "MPI_Grequest_cancel_function": ("es_greq_cancel_fn", NULL_ARG),
    # MPI_CONVERSION_FN_NULL is a valid conversion function.
    "MPI_Datarep_conversion_function": ("MPI_CONVERSION_FN_NULL", []),
    "MPI_Datarep_conversion_function_c": ("MPI_CONVERSION_FN_NULL_C", []),
    "MPI_Datarep_extent_function": ("es_datarep_extent_fn", NULL_ARG),
}

# Point-to-point calls that move data, blocking, nonblocking, persistent.
P2P = (r"I?(Send|Bsend|Ssend|Rsend|send|bsend|ssend|rsend)(_init)?|I?(Recv|recv)(_init)?|"
       r"I?(Sendrecv|sendrecv)(_replace)?|I?(Mrecv|mrecv)")

# Neighbourhood collectives, blocking, nonblocking, persistent.
NEIGHBOR = r"I?[Nn]eighbor_(allgather|allgatherv|alltoall|alltoallv|alltoallw)(_init)?"

# The communicator fixture of a procedure's cases ($C): the first pattern
# that matches.  Calls that never reach another rank through MPI_COMM_WORLD
# (point-to-point with the caller itself, local queries, groups) use
# MPI_COMM_WORLD; collective calls use communicators of MPI_COMM_SELF, so
# that they complete alone and a missing check cannot disturb another rank;
# topology calls use a communicator with that topology.
COMM_FIXTURES = [
    (r"MPI_(" + P2P + r"|Probe|Iprobe|Mprobe|Improbe|"
     r"Comm_(rank|size|compare|group|test_inter|[gs]et_attr|[gs]et_name|[gs]et_errhandler|"
     r"call_errhandler|remote_size|remote_group)|Attr_get|Errhandler_[gs]et|Pack|Unpack|Pack_size|"
     r"Group_\w+)(_c|_x)?", "es_world"),
    (r"MPI_Cart_(coords|get|rank|shift|sub)|MPI_Cartdim_get|MPI_" + NEIGHBOR + "(_c)?", "es_cart"),
    (r"MPI_Graph_(get|neighbors|neighbors_count)|MPI_Graphdims_get", "es_graph"),
    (r"MPI_Dist_graph_neighbors(_count)?", "es_dist"),
    (r".*", "es_self"),
]

# The class an invalid value gives, per family, where it differs from the
# role's: MPI_T procedures do not use the MPI error classes.
CLASS_MAP = [
    (r"MPI_T_\w+", {ARG: T_INVALID, BUF: T_INVALID}),
]

# Per procedure.  Keys:
#   skip: why it is not swept
#   prelude: C statements run before the call (all cases of the procedure)
#   baseline: False when no all-valid call can be made here (with why)
#   valid: {param: expression} replacing the role's valid value
#   invalid: {param: [(label, expr, class[, guard])]} replacing the role's
#   extra: {param: [(label, expr, class[, guard])]} added to the role's
# FAMILIES has the same keys per procedure-name pattern: every matching
# entry applies, then FUNCS's entry (valid, invalid and extra merge by
# parameter; the rest is replaced).
UNCOMMITTED = ("uncommitted", "es_uncommitted", TYPE)

FAMILIES = [
    # The topology queries' communicators are roles of their own
    # (param_kinds.py: cart_comm, ...); a neighbourhood collective takes any.
    (r"MPI_" + NEIGHBOR + "(_c)?", {"extra": {"comm": [NO_TOPOLOGY]}}),
    # Intercommunicator creation needs both groups' leaders in the call at
    # once: the sweep runs one rank at a time.  The remote group is the next
    # rank's (es_peer_group), which overlaps the local one at 1 process.
    (r"MPI_Intercomm_create(_from_groups)?",
     {"baseline": "needs two groups calling at once; the sweep runs one rank at a time",
      "valid": {"peer_comm": "MPI_COMM_WORLD"}}),
    (r"MPI_Intercomm_create_from_groups",
     {"prelude": "if (es_world.size < 2) return ES_NOT_APPLICABLE;",
      "valid": {"remote_group": "es_peer_group", "remote_leader": "0"},
      "invalid": {"remote_leader": [("size", "1", RANK), ("-5", "-5", RANK)]}}),
    # Window creation (over the MPI_COMM_SELF fixture): a NULL base is
    # valid with size 0; the displacement unit must be positive.
    (r"MPI_Win_(create|allocate|allocate_shared)(_c)?",
     {"valid": {"disp_unit": "1"},
      "invalid": {"base": [], "disp_unit": [("0", "0", "MPI_ERR_DISP")],
                  "size": [("-1", "-1", "MPI_ERR_SIZE")]}}),
    # MPICH refuses MPI_INFO_NULL where info is set.
    (r"MPI_\w+_set_info", {"valid": {"info": "es_info"}}),
    (r"MPI_T_enum_\w+", {"prelude": "if (es_t_enum == MPI_T_ENUM_NULL) return ES_NOT_APPLICABLE;"}),
    # MPI_T: valid values from the set-up's search of the variables.
    (r"MPI_T_pvar_(start|stop|reset|read|readreset|write|handle_alloc|handle_free|get_index)",
     {"prelude": "if (es_pvar_index < 0) return ES_NOT_APPLICABLE;"}),
]

PART_NOT_SEND = [("MPI_REQUEST_NULL", "MPI_REQUEST_NULL", "MPI_ERR_REQUEST"),
                 ("Recv_init", "es_new_prequest()", "MPI_ERR_REQUEST"),
                 ("receive", "es_new_part(0)", "MPI_ERR_REQUEST")]

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
    "MPI_Comm_attach_buffer": {"valid": {"buffer": "es_bsend_buffer()", "size": "es_bsend_buffer_size()"}},
    "MPI_Group_from_session_pset": {"valid": {"pset_name": '"mpi://WORLD"'}},
    # Dynamic processes: an all-valid call waits for another job, or
    # changes the name service every job on the machine shares.
    "MPI_Comm_accept": {"baseline": "waits for another job to connect"},
    "MPI_Comm_connect": {"baseline": "needs another job accepting on the port"},
    "MPI_Comm_join": {"baseline": "needs another process joining over a socket"},
    "MPI_Close_port": {"baseline": "needs a port opened by MPI_Open_port"},
    "MPI_Publish_name": {"baseline": "writes into the name service other jobs share"},
    "MPI_Lookup_name": {"baseline": "needs a name another job published"},
    "MPI_Unpublish_name": {"baseline": "needs a name this process published"},
    "MPI_Comm_spawn": {"skip": "starts processes; its argument errors are tests/dynamic's"},
    "MPI_Comm_spawn_multiple": {"skip": "starts processes; its argument errors are tests/dynamic's"},
    "MPI_Session_get_pset_info": {"valid": {"pset_name": '"mpi://SELF"'}},
    "MPI_Session_attach_buffer": {"valid": {"buffer": "es_bsend_buffer()", "size": "es_bsend_buffer_size()"}},
    "MPI_Cancel": {"valid": {"request": "ES_PTR(MPI_Request, es_new_irecv())"}},
    "MPI_Grequest_complete": {"valid": {"request": "es_new_greq()"},
                              "extra": {"request": [("MPI_REQUEST_NULL", "MPI_REQUEST_NULL", "MPI_ERR_REQUEST"),
                                                    ("irecv", "es_new_irecv()", "MPI_ERR_REQUEST")]}},
    # Partitioned: the send calls need an active partitioned send, Parrived
    # a receive; a receive names its source and tag.
    "MPI_Pready": {"valid": {"request": "es_new_part(1)"}, "extra": {"request": PART_NOT_SEND}},
    "MPI_Pready_range": {"valid": {"request": "es_new_part(1)", "partition_high": "1"},
                         "extra": {"request": PART_NOT_SEND}},
    "MPI_Pready_list": {"valid": {"request": "es_new_part(1)"}, "extra": {"request": PART_NOT_SEND}},
    "MPI_Parrived": {"valid": {"request": "es_new_part(0)"},
                     "extra": {"request": [("send", "es_new_part(1)", "MPI_ERR_REQUEST")]}},
    "MPI_Precv_init": {"extra": {"source": [("MPI_ANY_SOURCE", "MPI_ANY_SOURCE", RANK)],
                                 "tag": [("MPI_ANY_TAG", "MPI_ANY_TAG", "MPI_ERR_TAG")]}},
    "MPI_Comm_remote_group": {"baseline": "needs an intercommunicator",
                              "extra": {"comm": [("intracomm", "$C.h", COMM)]}},
    "MPI_Comm_remote_size": {"baseline": "needs an intercommunicator",
                             "extra": {"comm": [("intracomm", "$C.h", COMM)]}},
    "MPI_Comm_free": {"extra": {"comm": [("&MPI_COMM_WORLD", "ES_PTR(MPI_Comm, MPI_COMM_WORLD)", COMM)]}},
    "MPI_Comm_disconnect": {"extra": {"comm": [("&MPI_COMM_WORLD", "ES_PTR(MPI_Comm, MPI_COMM_WORLD)", COMM),
                                               ("&MPI_COMM_SELF", "ES_PTR(MPI_Comm, MPI_COMM_SELF)", COMM)]}},
    "MPI_Type_free": {"extra": {"datatype": [("&MPI_INT", "ES_PTR(MPI_Datatype, MPI_INT)", TYPE)]}},
    "MPI_Type_get_contents": {
        "valid": {"datatype": "es_derived", "max_integers": "8", "max_addresses": "8",
                  "max_large_counts": "8", "max_datatypes": "8"},
        "invalid": {"max_integers": [], "max_addresses": [], "max_large_counts": [], "max_datatypes": []},
        "extra": {"datatype": [("MPI_INT", "MPI_INT", TYPE)]}},
    "MPI_Type_match_size": {"valid": {"typeclass": "MPI_TYPECLASS_INTEGER", "size": "4"},
                            "extra": {"typeclass": [("12345", "12345", ARG)],
                                      "size": [("3", "3", ARG)]}},
    "MPI_Pack": {"valid": {"outsize": "64"}},
    "MPI_Pack_external": {"valid": {"incount": "1", "outsize": "64"}},
    "MPI_Pack_external_size": {"valid": {"incount": "1"}},
    "MPI_Unpack_external": {"valid": {"insize": "64"}},
    "MPI_Type_create_subarray": {"valid": {"array_of_starts": "($T[ES_MAXP]){0}"}},
    "MPI_Unpack": {"valid": {"insize": "64"}},
    "MPI_Group_excl": {"valid": {"ranks": "(int[]){0}"}},
    "MPI_Group_incl": {"valid": {"ranks": "(int[]){0}"}},
    "MPI_Group_translate_ranks": {"valid": {"ranks1": "(int[]){0}"}},
    # MPI-4.1: the null handles have names ("MPI_COMM_NULL", "MPI_DATATYPE_NULL").
    "MPI_Comm_get_name": {"invalid": {"comm": [("freed", "es_freed.comm", COMM)]}},
    "MPI_Type_get_name": {"invalid": {"datatype": [("freed", "es_freed.type", TYPE)]}},
    "MPI_Win_get_name": {"invalid": {"win": [("not a window", "(MPI_Win)0xa0000001", "MPI_ERR_WIN")]}},
    "MPI_Status_c2f": {"extra": {"c_status": [("MPI_STATUS_IGNORE", "MPI_STATUS_IGNORE", ARG)]}},
    "MPI_Status_c2f08": {"extra": {"c_status": [("MPI_STATUS_IGNORE", "MPI_STATUS_IGNORE", ARG)]}},

    # Topologies.  A grid or graph bigger than the communicator.
    "MPI_Cart_create": {"extra": {"dims": [("{size+1}", "(int[]){$C.size + 1}", ARG)]}},
    "MPI_Graph_create": {"extra": {"nnodes": [("size+1", "$C.size + 1", ARG)]}},
    "MPI_Dims_create": {"extra": {"dims": [("{2} for 1 node", "(int[ES_MAXP]){2}", "MPI_ERR_DIMS")]}},
    # Predefined keyvals cannot be set, deleted or freed.
    "MPI_Comm_set_attr": {"extra": {"comm_keyval": [("MPI_TAG_UB", "MPI_TAG_UB", KEYVAL)]}},
    "MPI_Attr_put": {"extra": {"keyval": [("MPI_TAG_UB", "MPI_TAG_UB", KEYVAL)]}},
    "MPI_Comm_delete_attr": {"extra": {"comm_keyval": [("MPI_TAG_UB", "MPI_TAG_UB", KEYVAL)]}},
    "MPI_Attr_delete": {"extra": {"keyval": [("MPI_TAG_UB", "MPI_TAG_UB", KEYVAL)]}},
    "MPI_Comm_free_keyval": {"extra": {"comm_keyval": [("&MPI_TAG_UB", "ES_PTR(int, MPI_TAG_UB)", KEYVAL)]}},
    "MPI_Keyval_free": {"extra": {"keyval": [("&MPI_TAG_UB", "ES_PTR(int, MPI_TAG_UB)", KEYVAL)]}},
    # MPI-IO: es_file is open on MPI_COMM_SELF; es_new_file() makes a file
    # in the sweep's directory.  An _end call needs its _begin.
    "MPI_File_open": {"valid": {"filename": "es_new_file()", "amode": "MPI_MODE_RDWR"},
                      "extra": {"amode": [("0", "0", "MPI_ERR_AMODE"),
                                          ("RDONLY|CREATE", "MPI_MODE_RDONLY | MPI_MODE_CREATE",
                                           "MPI_ERR_AMODE")],
                                "filename": [('"/no/such/dir/f"', '"/no/such/dir/f"',
                                              "MPI_ERR_NO_SUCH_FILE")]}},
    "MPI_File_delete": {"valid": {"filename": "es_new_file()"},
                        "extra": {"filename": [('"/no/such/file"', '"/no/such/file"',
                                                "MPI_ERR_NO_SUCH_FILE")]}},
    "MPI_File_seek": {"valid": {"whence": "MPI_SEEK_SET"},
                      "extra": {"whence": [("12345", "12345", ARG)]}},
    "MPI_File_seek_shared": {"valid": {"whence": "MPI_SEEK_SET"},
                             "extra": {"whence": [("12345", "12345", ARG)]}},
    "MPI_File_set_view": {"valid": {"datarep": '"native"'},
                          "extra": {"datarep": [('"bogus"', '"bogus"', "MPI_ERR_UNSUPPORTED_DATAREP")]}},
    "MPI_File_read_all_end": {"prelude": "(void)MPI_File_read_all_begin(es_file, es_rbuf, 0, MPI_INT);",
                              "invalid": {"buf": []}},
    "MPI_File_write_all_end": {"prelude": "(void)MPI_File_write_all_begin(es_file, es_sbuf, 0, MPI_INT);",
                               "invalid": {"buf": []}},
    "MPI_File_read_at_all_end": {
        "prelude": "(void)MPI_File_read_at_all_begin(es_file, 0, es_rbuf, 0, MPI_INT);",
        "invalid": {"buf": []}},
    "MPI_File_write_at_all_end": {
        "prelude": "(void)MPI_File_write_at_all_begin(es_file, 0, es_sbuf, 0, MPI_INT);",
        "invalid": {"buf": []}},
    "MPI_File_read_ordered_end": {
        "prelude": "(void)MPI_File_read_ordered_begin(es_file, es_rbuf, 0, MPI_INT);",
        "invalid": {"buf": []}},
    "MPI_File_write_ordered_end": {
        "prelude": "(void)MPI_File_write_ordered_begin(es_file, es_sbuf, 0, MPI_INT);",
        "invalid": {"buf": []}},
    # Info: a key that es_info does not hold.
    "MPI_File_set_errhandler": {"extra": {"errhandler": [("comm errhandler", "es_new_errhandler()", ARG)]}},
    "MPI_Info_delete": {"extra": {"key": [('"nokey"', '"nokey"', "MPI_ERR_INFO_NOKEY")]}},
    # MPI_T: names the set-up found; the enumeration, handles and pvar of
    # the set-up.
    "MPI_T_pvar_get_index": {"valid": {"name": "es_pvar_name", "var_class": "es_pvar_class"}},
    "MPI_T_category_get_index": {"valid": {"name": "es_cat_name"}},
    "MPI_T_pvar_handle_alloc": {"valid": {"pvar_index": "es_pvar_index"}},
    "MPI_T_cvar_write": {"valid": {"buf": "es_cvar_value"},
                         "prelude": "if (es_cvar == MPI_T_CVAR_HANDLE_NULL) return ES_NOT_APPLICABLE;"},
    "MPI_T_event_get_index": {"baseline": "no event exists: Tern raises no MPI_T events"},
}

# Procedures whose datatype arguments describe data that moves: there an
# uncommitted type is invalid (queries and constructors take it).
DATA_MOVERS = re.compile(
    r"MPI_(" + P2P + r"|" + NEIGHBOR + r"|"
    r"I?(bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|"
    r"reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|"
    r"(Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Reduce|"
    r"Allreduce|Reduce_scatter|Reduce_scatter_block|Scan|Exscan)(_init)?|Reduce_local|Pack|Unpack)(_c)?$")

# Collectives whose send and receive buffers must not be the same memory.
ALIAS_COLLS = ("Allgather Allgatherv Allreduce Alltoall Alltoallv Alltoallw Exscan Gather Gatherv Reduce "
               "Reduce_scatter Reduce_scatter_block Scan Scatter Scatterv").split()
ALIAS_CHECKED = re.compile(
    r"MPI_(" + "|".join(f"{c}(_init)?|I{c.lower()}" for c in ALIAS_COLLS) + r")(_c)?$")

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
    ("MPI_Graph_*", "edges", "*"): ARG,
}

# Tern gaps in files that other parts own right now -> why.  Reported as
# KNOWN, not failed.  Remove an entry once its fix is merged (the sweep then
# reports the case as XPASS).
KNOWN_FAILURES = {
}

# Gaps so bad that running the case would spoil the sweep (a call that goes
# on to communicate and hangs: the killed child leaves the shared transport
# of its parent in disorder) -> why.  Not run (counted as not applicable);
# remove an entry once its fix is merged.
DISABLED = {
    ("MPI_*[Aa]lltoallw*", "*buf", "NULL"):
        "not an invalid value: NULL is MPI_BOTTOM, and byte displacements may hold absolute addresses",
}

# Where MPICH 4.0.2 (mpicc.mpich / mpiexec.mpich on Debian 12; see
# tests/errsweep/calibrate_mpich.sh) does not give the expected class ->
# what it does instead.  The expectation stays the standard's.
MPICH_NOTES = {
    ("*", "*", "freed"): "does not detect a freed handle: crashes or succeeds",
    ("*", "*", "&freed"): "does not detect a freed handle: crashes or fails with MPI_ERR_OTHER/INTERN",
    ("*", "*", "{freed}"): "does not detect a freed handle: aborts",
    ("MPI_*[Rr]educe*", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_*[Ss]can*", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_Reduce_local*", "datatype", "MPI_DATATYPE_NULL"): "MPI_ERR_OP (checks the op against the type first)",
    ("MPI_*[Rr]educe*", "*count", "-1"): "succeeds (MPI_COMM_SELF)",
    ("MPI_*[Ss]can*", "count", "-1"): "aborts or fails with MPI_ERR_OTHER",
    ("MPI_Reduce_local*", "*", "NULL"): "crashes",
    ("MPI_Reduce_local*", "count", "-1"): "crashes",
    ("MPI_Buffer_attach*", "buffer", "NULL"): "MPI_ERR_ARG",
    ("MPI_Comm_remote_*", "comm", "intracomm"): "succeeds",
    ("MPI_P[ra]*", "*partition*", "*"): "MPI_ERR_OTHER for a partition out of range",
    ("MPI_Comm_split", "color", "-5"): "succeeds",
    ("MPI_Error_*", "errorcode", "-1"): "succeeds",
    ("MPI_Pack", "inbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Pack", "outbuf", "NULL"): "crashes",
    ("MPI_Unpack", "inbuf", "NULL"): "crashes",
    ("MPI_Unpack", "outbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Pack_c", "inbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Pack_c", "outbuf", "NULL"): "crashes",
    ("MPI_Unpack_c", "inbuf", "NULL"): "crashes",
    ("MPI_Unpack_c", "outbuf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Status_*", "*", "NULL"): "crashes or fails with MPI_ERR_OTHER",
    ("MPI_Status_c2f", "c_status", "MPI_STATUS_IGNORE"): "MPI_ERR_OTHER",
    ("MPI_Type_commit", "datatype", "NULL"): "crashes",
    ("MPI_Type_free", "datatype", "NULL"): "crashes",
    ("MPI_Add_error_code", "errorclass", "*"): "succeeds (does not check the class)",
    ("MPI_Add_error_string", "errorcode", "MPI_ERR_ARG"): "succeeds (changes a predefined code's string)",
    ("MPI_Cart_create", "dims", "{-1,..}"): "succeeds",
    ("MPI_Cart_map", "dims", "{-1,..}"): "succeeds",
    ("MPI_Cart_get", "comm", "*"): "crashes on a communicator without a Cartesian topology",
    ("MPI_Dist_graph_create", "*", "{size}"): "aborts",
    ("MPI_Dist_graph_create", "*", "{-5}"): "aborts",
    ("MPI_Dist_graph_create*", "*", "{-1,..}"): "succeeds (negative degrees or weights)",
    ("MPI_Dist_graph_create_adjacent", "*", "{*"): "succeeds (does not check ranks)",
    ("MPI_Dist_graph_neighbors", "*weights", "NULL"): "crashes",
    ("MPI_File_*", "f*", "bogus"): "crashes or succeeds",
    ("MPI_Graph_create", "nnodes", "-1"): "succeeds",
    ("MPI_Graph_create", "edges", "{size}"): "succeeds (checks only negative edges)",
    ("MPI_Graph_map", "*", "{*"): "succeeds",
    ("MPI_Graph_map", "nnodes", "-1"): "succeeds",
    ("MPI_Info_*", "info", "*MPI_INFO_NULL"): "MPI_ERR_ARG",
    ("MPI_Info_set", "value", "NULL"): "MPI_ERR_ARG",
    ("MPI_*[Nn]eighbor_*", "comm", "no topology"): "MPI_ERR_COUNT, MPI_ERR_TYPE or crashes",
    ("MPI_Intercomm_create_from_groups", "*_leader", "*"): "crashes or MPI_ERR_COMM",
    ("MPI_Intercomm_merge", "intercomm", "intracomm"): "aborts",
    ("MPI_*[Pp]ack_external*", "datarep", "NULL"): "succeeds",
    ("MPI_*[Pp]ack_external*", "*buf", "NULL"): "MPI_ERR_ARG",
    ("MPI_Type_create_darray*", "size", "0"): "MPI_ERR_RANK (rank 0 is not below size 0)",
    ("MPI_Type_create_darray*", "*", "*"): "crashes or succeeds (does not check)",
    ("MPI_Type_create_subarray*", "*", "*"): "succeeds (does not check)",
    ("MPI_T_category_get_events", "indices", "NULL"): "MPI_ERR_ARG (an MPI class from an MPI_T call)",
    ("MPI_T_*", "*", "NULL"): "crashes",
    ("MPI_T_pvar_get_info", "-", "all valid"): "crashes (on its variable 0)",
}


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


def lookup(table, key):
    for pat, v in table.items():
        if all(fnmatch.fnmatchcase(k, p) for k, p in zip(key, pat)):
            return v
    return None


def unused_patterns(table, keys, swept, known):
    """Patterns that match no case although they name a procedure that is
    swept, or that name no procedure of the standard at all (a typo).  Those
    for procedures not implemented yet wait for them."""
    def names(pat, among):
        return any(fnmatch.fnmatchcase(fn, pat[0]) for fn in among)
    return [pat for pat in table
            if not any(all(fnmatch.fnmatchcase(k, p) for k, p in zip(key, pat)) for key in keys)
            and (names(pat, swept) or not names(pat, known))]


class Case:
    def __init__(self, fn, arg, label, args, expect, guard=None):
        self.fn, self.arg, self.label, self.args = fn, arg, label, args
        self.expect, self.guard = expect, guard


def subst(expr, comm, p):
    return (expr.replace("$C", comm).replace("$T", p.ctype).replace("$i", str(p.index)))


def spec_of(fn):
    """FAMILIES' entries that match fn, then FUNCS's: per-parameter tables
    merge, other keys are replaced."""
    spec = {}
    # A big-count form shares its procedure's entry.
    own = FUNCS.get(fn, FUNCS.get(fn[:-2], {}) if fn.endswith("_c") else {})
    for pat, more in FAMILIES + [(re.escape(fn), own)]:
        if not re.fullmatch(pat, fn):
            continue
        for k, v in more.items():
            if k in ("valid", "invalid", "extra"):
                merged = dict(spec.get(k, {}))
                for name, val in v.items():
                    merged[name] = merged.get(name, []) + val if k == "extra" else val
                spec[k] = merged
            else:
                spec[k] = v
    return spec


def comm_of(fn):
    return next(c for pat, c in COMM_FIXTURES if re.fullmatch(pat, fn))


def class_of(fn, cls):
    for pat, table in CLASS_MAP:
        if re.fullmatch(pat, fn):
            return table.get(cls, cls)
    return cls


def cases_of(fn, params):
    """(cases, None) or ([], why the procedure cannot be swept)."""
    spec = spec_of(fn)
    comm = comm_of(fn)
    valid, invalid, no_valid = [], [], []
    has_op = any(role_of(fn, p) == "op" for p in params)
    for p in params:
        role = role_of(fn, p)
        if role is None:
            return [], f"{p.name}: no role for kind {p.kind} ({p.dir} {p.ctype}{p.shape})", None
        if role == "callback":
            if p.ctype not in CALLBACKS:
                return [], f"{p.name}: no callback of type {p.ctype} in CALLBACKS", None
            v, bad = CALLBACKS[p.ctype]
        else:
            v, bad = ROLES[role]
        if role in NO_VALID:
            no_valid.append((p.index, NO_VALID[role]))
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
    baseline = no_valid[0][1] if no_valid else spec.get("baseline", True)
    if baseline is True:
        cases.append(Case(fn, "-", "all valid", valid, "MPI_SUCCESS"))
    for i, p in enumerate(params):
        # Beside an object that cannot exist, only that object is swept.
        if no_valid and i not in [j for j, _ in no_valid]:
            continue
        for lab, e, cls, *rest in invalid[i]:
            args = list(valid)
            args[i] = e
            cls = lookup(EXPECT, (fn, p.name, lab)) or class_of(fn, cls)
            cases.append(Case(fn, p.name, lab, args, cls, rest[0] if rest else None))
    return cases, None, baseline


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
        prelude = spec_of(fn).get("prelude")
        comm = comm_of(fn)
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
            disabled = lookup(DISABLED, key)
            if disabled:
                out.append(f"    return ES_NOT_APPLICABLE; /* disabled: {disabled} */")
            else:
                if c.guard:
                    out.append(f"    if ({c.guard}) return ES_NOT_APPLICABLE;")
                if prelude:
                    out.append("    " + prelude.replace("$C", comm))
                out.append(genapi.declarator("return", c.fn, [(a, None) for a in c.args], ";", "    ")
                           if c.args else f"    return {c.fn}();")
            out.append("}")
            known = lookup(KNOWN_FAILURES, key) or disabled
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
    ap.add_argument("--outdir", type=Path,
                    help="root under which to write the output (the build tree's; the output "
                         "is not committed)")
    ap.add_argument("--exclude", default="",
                    help="comma-separated procedures to leave out (those another MPI lacks, "
                         "when calibrating against it)")
    ap.add_argument("--check-mpich", type=Path, metavar="TSV",
                    help="read the rows of tests/errsweep/calibrate_mpich.sh and list the failed "
                         "cases that MPICH_NOTES does not explain (exit 1 if any); write nothing")
    args = ap.parse_args()
    if args.check_mpich:
        sys.exit(check_mpich(args.check_mpich))
    if args.outdir is None:
        ap.error("--outdir is needed (the sweep is generated into a build tree)")
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
        spec = spec_of(fn)
        if "skip" in spec:
            skipped.append((fn, spec["skip"]))
            continue
        if ret != "int":
            skipped.append((fn, f"returns {ret}, no error code"))
            continue
        cases, why, baseline = cases_of(fn, params)
        if why:
            uncovered.append((fn, why))
            print(f"gen_errsweep.py: warning: {fn} not covered: {why}", file=sys.stderr)
            continue
        if baseline is not True:
            skipped.append((fn + " (all-valid call)", baseline))
        procs.append((fn, cases))

    keys = {(c.fn, c.arg, c.label) for _, cs in procs for c in cs}
    unused = [pat for t in (KNOWN_FAILURES, DISABLED, EXPECT, MPICH_NOTES)
              for pat in unused_patterns(t, keys, {fn for fn, _ in procs}, sigs)]
    if unused:
        fail(f"data names cases that do not exist: {unused}")

    text = render(procs, skipped, uncovered)
    genapi.write(args.outdir.resolve() / OUT, text)
    ncases = sum(len(c) for _, c in procs)
    print(f"gen_errsweep.py: {len(procs)} procedures, {ncases} cases, {len(skipped)} skipped, "
          f"{len(uncovered)} not covered", file=sys.stderr)


if __name__ == "__main__":
    main()
