"""The one table of MPI parameter kinds that Tern's generators share.

Each parameter of each MPI procedure has, in the MPI Forum's database
(pympistandard), a kind (COMMUNICATOR, RANK, POLYXFER_NUM_ELEM_NNI, ...), a
direction and a C shape.  ROLE_RULES turns those (and, where the kind alone
does not say enough, the procedure's or the parameter's name) into a role:
what the argument is to Tern.  Per role:

  ROLES    a valid C expression and the invalid values, with the error class
           each must give: the cases of the invalid-argument sweep
           (gen_errsweep.py, tests/errsweep)
  CHECKS   the C check the generated entry points run on such an argument,
           and the object it yields (gen_bindings.py, src/api/gen/)

A role with invalid values in ROLES but no entry in CHECKS is checked by the
hand-written body; gen_bindings.py warns about such parameters unless the
procedure's entry in tools/gen/bindings.py lists them as custom.
"""

import re

# --------------------------------------------------------------------------
# Data: parameter -> role.  First matching rule wins.  Keys (all optional):
#   kind: regex on the standard's kind; dir: "in", "out", "inout" (or a
#   "|"-list); shape: "" (scalar), "*", "[]", "[][3]"; name: regex on the
#   parameter's name; fn: regex on the procedure's name; ctype: regex on
#   the parameter's C base type.
# --------------------------------------------------------------------------

COUNT_KINDS = "POLYXFER_NUM_ELEM_NNI|POLYDTYPE_NUM_ELEM_NNI|ARRAY_LENGTH_NNI|XFER_NUM_ELEM_NNI"
DISPL_KINDS = "POLYDISPLACEMENT|POLYDISPLACEMENT_COUNT|POLYDISPLACEMENT_AINT_COUNT|DISPLACEMENT"
T_INDEX_KINDS = "CVAR_INDEX|CVAR_INDEX_SPECIAL|PVAR_INDEX|CAT_INDEX"
# The three families of attribute procedures, by the object they take.
COMM_ATTR = r"MPI_(Comm_\w+_(attr|keyval)|Attr_\w+|Keyval_\w+)"
TYPE_ATTR = r"MPI_Type_\w+_(attr|keyval)"
WIN_ATTR = r"MPI_Win_\w+_(attr|keyval)"
# Topology queries, by the kind of topology their communicator must have,
# and the constructors, which take an intracommunicator.
CART_QUERY = r"MPI_Cart_(coords|get|rank|shift|sub)|MPI_Cartdim_get"
GRAPH_QUERY = r"MPI_Graph_(get|neighbors|neighbors_count)|MPI_Graphdims_get"
DIST_GRAPH_QUERY = r"MPI_Dist_graph_neighbors(_count)?"
TOPO_CREATE = r"MPI_(Cart|Graph|Dist_graph)_create(_adjacent)?"

ROLE_RULES = [
    ({"kind": "VARARGS"}, None),
    # A status may hold any source, tag or error.
    ({"fn": r"MPI_Status_set_\w+", "kind": "RANK|TAG", "dir": "in", "shape": ""}, "int_any"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": "", "name": "intercomm"}, "intercomm"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": "", "fn": CART_QUERY}, "cart_comm"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": "", "fn": GRAPH_QUERY}, "graph_comm"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": "", "fn": DIST_GRAPH_QUERY}, "dist_graph_comm"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": "", "fn": TOPO_CREATE}, "intracomm"),
    ({"kind": "COMMUNICATOR", "dir": "in", "shape": ""}, "comm"),
    ({"kind": "COMMUNICATOR", "dir": "inout", "shape": "*"}, "comm_inout"),
    # Intercommunicator creation: the remote leader is a rank of the peer
    # communicator (or of the remote group), not of the local one.
    ({"kind": "RANK", "dir": "in", "shape": "", "name": "remote_leader"}, "remote_leader"),
    ({"kind": "RANK", "dir": "in", "shape": "", "name": "root"}, "root"),
    ({"kind": "RANK", "dir": "in", "shape": "", "name": "source"}, "source"),
    # A process of a topology: MPI_PROC_NULL is none.
    ({"kind": "RANK", "dir": "in", "shape": "", "fn": r"MPI_(Cart_coords|Graph_neighbors(_count)?)"},
     "topo_rank"),
    ({"kind": "RANK", "dir": "in", "shape": ""}, "dest"),
    ({"kind": "RANK|RANK_NNI", "dir": "in", "shape": "[]"}, "rank_array"),
    ({"kind": "RANK", "dir": "in", "shape": "[][3]"}, "rank_ranges"),
    ({"kind": "TAG", "dir": "in", "shape": ""}, "tag"),
    # Topology array lengths are not counts of elements (MPICH: MPI_ERR_ARG).
    ({"kind": "ARRAY_LENGTH_NNI", "dir": "in", "shape": "", "fn": r"MPI_Dist_graph_\w+"}, "length"),
    ({"kind": COUNT_KINDS, "dir": "in", "shape": ""}, "count"),
    # Integers in the database, counts in the text.
    ({"kind": "POLYXFER_NUM_ELEM|XFER_NUM_ELEM", "dir": "in", "shape": ""}, "count"),
    ({"kind": "POLYDTYPE_NUM_ELEM", "dir": "in", "shape": "", "name": "outcount"}, "count"),
    ({"kind": "ARRAY_LENGTH", "dir": "in", "shape": ""}, "length"),
    ({"kind": "INFO_VALUE_LENGTH", "dir": "in", "shape": ""}, "valuelen"),
    ({"kind": "POLYNUM_BYTES_NNI|NUM_BYTES_NNI", "dir": "in", "shape": ""}, "bytes"),
    # Arrays by their C type: the big-count (_c) forms take MPI_Count and
    # MPI_Aint arrays where the others take int.
    ({"kind": COUNT_KINDS, "dir": "in", "shape": "[]", "ctype": "MPI_Count"}, "count_array_c"),
    ({"kind": COUNT_KINDS, "dir": "in", "shape": "[]"}, "count_array"),
    ({"kind": DISPL_KINDS, "dir": "in", "shape": "[]", "ctype": "int"}, "displs"),
    ({"kind": DISPL_KINDS, "dir": "in", "shape": "[]", "ctype": "MPI_Aint"}, "adispls"),
    ({"kind": DISPL_KINDS, "dir": "in", "shape": "[]", "ctype": "MPI_Count"}, "cdispls"),
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
    ({"kind": "REQUEST", "dir": "in|inout", "shape": "[]"}, "request_array"),
    # The request a nonblocking or persistent call (MPI_Ibcast,
    # MPI_Bcast_init, MPI_Comm_idup) returns.
    ({"kind": "REQUEST", "dir": "out", "shape": "*"}, "request_out"),
    ({"kind": "ERRHANDLER", "dir": "in", "shape": ""}, "errhandler"),
    ({"kind": "ERRHANDLER", "dir": "inout", "shape": "*"}, "errhandler_inout"),
    # An info object that the procedure reads or changes, not hints.
    ({"kind": "INFO", "dir": "in", "shape": "", "fn": r"MPI_Info_\w+"}, "info_obj"),
    ({"kind": "INFO", "dir": "in", "shape": ""}, "info"),
    ({"kind": "INFO", "dir": "inout", "shape": "*"}, "info_inout"),
    ({"kind": "STRING", "dir": "in", "shape": "*", "fn": r"MPI_Info_\w+", "name": "key"}, "info_key"),
    ({"kind": "STRING", "dir": "in", "shape": "*", "fn": r"MPI_Info_set", "name": "value"}, "info_value"),
    ({"kind": "KEY_INDEX", "dir": "in", "shape": ""}, "key_index"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*", "fn": r"MPI_(Get_address|Address)"}, "location"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*", "fn": r"MPI_Free_mem"}, "alloc_mem"),
    ({"kind": "BUFFER", "dir": "in", "shape": "*"}, "sbuf"),
    ({"kind": "BUFFER", "dir": "out|inout", "shape": "*"}, "rbuf"),
    # A conversion's result is a place to write, not a status to ignore.
    ({"kind": "STATUS", "dir": "out", "shape": "*", "fn": r"MPI_Status_\w+"}, "out"),
    ({"kind": "STATUS", "dir": "in", "shape": "*"}, "status_in"),
    ({"kind": "STATUS", "dir": "inout", "shape": "*"}, "status_inout"),
    ({"kind": "STATUS", "dir": "out", "shape": "*"}, "status_out"),
    ({"kind": "STATUS", "dir": "out", "shape": "[]"}, "statuses_out"),
    ({"kind": "F90_STATUS|F08_STATUS", "dir": "in", "shape": "*"}, "fstatus_in"),
    # Keyvals: predefined ones can be read; setting, deleting and freeing
    # take a user keyval of the procedure's object kind.
    ({"kind": "KEYVAL", "dir": "in", "shape": "", "fn": r"MPI_(Comm_(set|delete)_attr|Attr_(put|delete))"},
     "comm_keyval"),
    ({"kind": "KEYVAL", "dir": "in", "shape": "", "fn": TYPE_ATTR}, "type_keyval"),
    ({"kind": "KEYVAL", "dir": "in", "shape": "", "fn": WIN_ATTR}, "win_keyval"),
    ({"kind": "KEYVAL", "dir": "in", "shape": ""}, "keyval"),
    ({"kind": "KEYVAL", "dir": "inout", "shape": "*", "fn": COMM_ATTR}, "comm_keyval_inout"),
    ({"kind": "KEYVAL", "dir": "inout", "shape": "*", "fn": TYPE_ATTR}, "type_keyval_inout"),
    ({"kind": "KEYVAL", "dir": "inout", "shape": "*", "fn": WIN_ATTR}, "win_keyval_inout"),
    ({"kind": "EXTRA_STATE|EXTRA_STATE2|TOOL_MPI_OBJ", "dir": "in"}, "null_ok"),
    ({"kind": "STRING", "dir": "in", "shape": "*", "fn": r"MPI_T_\w+_get_index", "name": "name"}, "t_name"),
    ({"kind": "STRING", "dir": "in", "shape": "*"}, "string_in"),
    ({"kind": "STRING", "dir": "in", "name": "datarep"}, "datarep"),
    ({"kind": "MESSAGE", "dir": "inout", "shape": "*"}, "message_inout"),
    # Callbacks: by their C type (CALLBACKS).
    ({"kind": "FUNCTION|POLYFUNCTION|EVENT_\\w+_FUNCTION", "dir": "in"}, "callback"),
    ({"kind": "ERROR_CODE", "dir": "in", "shape": "", "fn": r"MPI_Error_(class|string)"}, "errorcode"),
    # User error classes and codes (MPI_Add_error_*, MPI_Remove_error_*).
    ({"kind": "ERROR_CLASS", "dir": "in", "shape": "", "fn": r"MPI_Add_error_code"}, "user_class"),
    ({"kind": "ERROR_CLASS", "dir": "in", "shape": "", "fn": r"MPI_Remove_error_class"}, "fresh_class"),
    ({"kind": "ERROR_CODE", "dir": "in", "shape": "", "fn": r"MPI_Remove_error_code"}, "fresh_code"),
    ({"kind": "ERROR_CODE", "dir": "in", "shape": "", "fn": r"MPI_(Add|Remove)_error_string"}, "user_code"),
    ({"kind": "COLOR", "dir": "in", "shape": ""}, "color"),
    ({"kind": "SPLIT_TYPE", "dir": "in", "shape": ""}, "split_type"),
    ({"kind": "ALLOC_MEM_NUM_BYTES", "dir": "in", "shape": ""}, "alloc_size"),
    ({"kind": "POLYDISPLACEMENT_COUNT|POLYLOCATION", "dir": "inout", "shape": "*"}, "position"),
    # Subarrays and distributed arrays (one dimension of one element).
    ({"kind": "POLYDTYPE_NUM_ELEM_PI|PROCESS_GRID_SIZE", "dir": "in", "shape": "[]", "ctype": "MPI_Count"},
     "pos_array_c"),
    ({"kind": "POLYDTYPE_NUM_ELEM_PI|PROCESS_GRID_SIZE", "dir": "in", "shape": "[]"}, "pos_array"),
    ({"kind": "ARRAY_LENGTH_PI|COMM_SIZE_PI", "dir": "in", "shape": ""}, "pos_int"),
    ({"kind": "ORDER", "dir": "in", "shape": ""}, "order"),
    ({"kind": "DISTRIB_ENUM", "dir": "in", "shape": "[]"}, "distribs"),
    ({"kind": "DTYPE_DISTRIBUTION", "dir": "in", "shape": "[]"}, "dargs"),
    ({"kind": "ATTRIBUTE_VAL|ATTRIBUTE_VAL_10", "dir": "in"}, "ptr_any"),
    # Topologies (the fixtures are of one process: see COMM_FIXTURES).
    ({"kind": "NUM_DIMS", "dir": "in", "shape": ""}, "ndims"),
    ({"kind": "DIMENSION", "dir": "in", "shape": "[]"}, "dims"),
    ({"kind": "DIMENSION", "dir": "inout", "shape": "[]"}, "dims_inout"),
    ({"kind": "COMM_SIZE", "dir": "in", "shape": ""}, "nnodes"),
    ({"kind": "INDEX", "dir": "in", "shape": "[]"}, "graph_index"),
    ({"kind": "INDEX", "dir": "in", "shape": "", "fn": r"MPI_Cart_shift"}, "direction"),
    ({"kind": "LOGICAL", "dir": "in", "shape": "[]"}, "logicals"),
    ({"kind": "COORDINATE", "dir": "in", "shape": "[]"}, "coords"),
    ({"kind": "DEGREE", "dir": "in", "shape": ""}, "degree"),
    ({"kind": "DEGREE", "dir": "in", "shape": "[]"}, "degrees"),
    ({"kind": "WEIGHT", "dir": "in", "shape": "[]"}, "weights"),
    ({"kind": "ARGUMENT_COUNT", "dir": "inout", "shape": ""}, "int_any"),
    ({"kind": "ARGUMENT_LIST", "dir": "inout"}, "null_ok"),
    # MPI_T.  Every output of an MPI_T_*_get_info may be NULL (MPI-4.1
    # 15.3.1: the implementation then ignores it).
    ({"fn": r"MPI_T_(cvar|pvar|category|enum|source|event)_get_info", "dir": "out|inout", "shape": "*|[]"},
     "out_optional"),
    # Strings follow MPI-4.1 15.3.3: a NULL buffer or length returns none.
    ({"fn": r"MPI_T_\w+", "kind": "STRING|STRING_LENGTH", "dir": "out|inout"}, "out_optional"),
    ({"kind": "EVENT_INDEX|SOURCE_INDEX", "dir": "in", "shape": ""}, "t_event_index"),
    ({"kind": T_INDEX_KINDS, "dir": "in", "shape": ""}, "t_index"),
    ({"kind": "TOOLENUM_INDEX", "dir": "in", "shape": ""}, "t_item"),
    ({"kind": "TOOLS_ENUM", "dir": "in", "shape": ""}, "t_enum"),
    ({"kind": "CVAR", "dir": "in", "shape": ""}, "cvar"),
    ({"kind": "CVAR", "dir": "inout", "shape": "*"}, "cvar_inout"),
    ({"kind": "SESSION", "dir": "in", "shape": ""}, "session"),
    ({"kind": "SESSION", "dir": "inout", "shape": "*"}, "session_inout"),
    ({"kind": "PVAR_SESSION", "dir": "in", "shape": ""}, "pvar_session"),
    ({"kind": "PVAR_SESSION", "dir": "inout", "shape": "*"}, "pvar_session_inout"),
    ({"kind": "PVAR", "dir": "in", "shape": ""}, "pvar"),
    ({"kind": "PVAR", "dir": "inout", "shape": "*"}, "pvar_inout"),
    ({"kind": "EVENT_REGISTRATION", "dir": "in", "shape": ""}, "event_registration"),
    ({"kind": "EVENT_INSTANCE", "dir": "in", "shape": ""}, "event_instance"),
    ({"kind": "CALLBACK_SAFETY", "dir": "in", "shape": ""}, "cb_safety"),
    ({"kind": "PVAR_CLASS", "dir": "in", "shape": ""}, "int_any"),
    ({"kind": "INFO_VALUE_LENGTH|STRING_LENGTH|ARRAY_LENGTH_NNI", "dir": "inout", "shape": "*"}, "length_inout"),
    # Windows, and handles of objects Tern does not have (files).
    ({"kind": "WINDOW", "dir": "in", "shape": ""}, "win"),
    ({"kind": "WINDOW", "dir": "inout", "shape": "*"}, "win_inout"),
    ({"kind": "FILE", "dir": "in", "shape": ""}, "file"),
    ({"kind": "FILE", "dir": "inout", "shape": "*"}, "file_inout"),
    # Any other output: a place to write, never NULL.
    ({"dir": "out", "shape": "*|[]"}, "out"),
    # Partitioned communication: the fixtures have 2 partitions.
    ({"kind": "PARTITION", "dir": "in", "shape": "", "name": "partitions"}, "partitions"),
    ({"kind": "PARTITION", "dir": "in", "shape": ""}, "partition"),
    ({"kind": "PARTITION", "dir": "in", "shape": "[]"}, "partition_array"),
    # Any other integer input: every value means something.
    ({"dir": "in", "shape": "", "ctype": "int"}, "int_any"),
    ({"dir": "in", "shape": "", "ctype": "MPI_Aint|MPI_Count|MPI_Offset"}, "aint_any"),
]

ARG, BUF, COMM, COUNT, TYPE = "MPI_ERR_ARG", "MPI_ERR_BUFFER", "MPI_ERR_COMM", "MPI_ERR_COUNT", "MPI_ERR_TYPE"
KEYVAL, TOPO, RANK, INFO = "MPI_ERR_KEYVAL", "MPI_ERR_TOPOLOGY", "MPI_ERR_RANK", "MPI_ERR_INFO"
T_INVALID, T_HANDLE = "MPI_T_ERR_INVALID", "MPI_T_ERR_INVALID_HANDLE"
NULL_ARG = [("NULL", "NULL", ARG)]


def keyval_roles(kind, other):
    """The roles of a keyval of one object kind (es_KIND_keyval is the user
    keyval the set-up made), and one of another kind, which is invalid."""
    bad = [("MPI_KEYVAL_INVALID", "MPI_KEYVAL_INVALID", KEYVAL), ("12345", "12345", KEYVAL),
           (f"{other} keyval", f"es_{other}_keyval", KEYVAL)]
    return {
        f"{kind}_keyval": (f"es_{kind}_keyval", bad),
        f"{kind}_keyval_inout": (f"ES_PTR(int, es_new_{kind}_keyval())",
                                 [("&" + lab, f"ES_PTR(int, {e})", c) for lab, e, c in bad] + NULL_ARG),
    }


# role -> (valid expression, [(label, invalid expression, class[, guard])]).
# A guard is a C condition under which the value cannot be built: the case
# then counts as not applicable.
BAD_COMMS = [("MPI_COMM_NULL", "MPI_COMM_NULL", COMM), ("freed", "es_freed.comm", COMM)]
NO_TOPOLOGY = ("no topology", "es_self.h", TOPO)

ROLES = {
    "comm": ("$C.h", BAD_COMMS),
    # The sweep has no intercommunicator to pass (gen_errsweep.NO_VALID).
    "intracomm": ("$C.h", BAD_COMMS),
    # A query's communicator without a topology, or with one of another kind.
    "cart_comm": ("$C.h", BAD_COMMS + [NO_TOPOLOGY, ("graph", "es_graph.h", TOPO)]),
    "graph_comm": ("$C.h", BAD_COMMS + [NO_TOPOLOGY, ("cartesian", "es_cart.h", TOPO)]),
    "dist_graph_comm": ("$C.h", BAD_COMMS + [NO_TOPOLOGY, ("graph", "es_graph.h", TOPO)]),
    "intercomm": ("$C.h", [("MPI_COMM_NULL", "MPI_COMM_NULL", COMM), ("freed", "es_freed.comm", COMM),
                           ("intracomm", "$C.h", COMM)]),
    "comm_inout": ("ES_PTR(MPI_Comm, es_new_comm())",
                   [("&MPI_COMM_NULL", "ES_PTR(MPI_Comm, MPI_COMM_NULL)", COMM),
                    ("&freed", "ES_PTR(MPI_Comm, es_freed.comm)", COMM),
                    ("NULL", "NULL", ARG)]),
    "dest": ("$C.rank", [("size", "$C.size", RANK), ("-5", "-5", RANK)]),
    "topo_rank": ("$C.rank", [("size", "$C.size", RANK), ("-5", "-5", RANK)]),
    "source": ("$C.rank", [("size", "$C.size", RANK), ("-5", "-5", RANK)]),
    "root": ("0", [("-1", "-1", "MPI_ERR_ROOT"), ("size", "$C.size", "MPI_ERR_ROOT")]),
    # The peer's rank in MPI_COMM_WORLD, the usual peer communicator.
    "remote_leader": ("(es_world.rank + 1) % es_world.size",
                      [("size", "es_world.size", RANK), ("-5", "-5", RANK)]),
    "rank_array": ("es_iota", [("{size}", "(int[]){$C.size}", RANK),
                               ("{-5}", "(int[]){-5}", RANK)]),
    "rank_ranges": ("(int[][3]){{0, 0, 1}}",
                    [("{{size,size,1}}", "(int[][3]){{$C.size, $C.size, 1}}", RANK),
                     ("{{-5,0,1}}", "(int[][3]){{-5, 0, 1}}", RANK)]),
    "tag": ("0", [("-5", "-5", "MPI_ERR_TAG"),
                  ("MPI_TAG_UB+1", "es_tag_ub + 1", "MPI_ERR_TAG", "es_tag_ub == INT_MAX")]),
    "count": ("1", [("-1", "-1", COUNT)]),
    # MPICH's class for a negative array length or byte size.
    "length": ("1", [("-1", "-1", ARG)]),
    # Room for the value es_info holds (a shorter one is MPI_ERR_INFO_VALUE
    # in MPICH and Tern: the value was truncated).
    "valuelen": ("64", [("-1", "-1", ARG)]),
    "bytes": ("1", [("-1", "-1", ARG)]),
    "count_array": ("es_ones", [("{-1,..}", "es_neg_first", COUNT)]),
    "count_array_c": ("es_cones", [("{-1,..}", "es_cneg_first", COUNT)]),
    "displs": ("es_iota", []),
    "adispls": ("es_aiota", []),
    "cdispls": ("es_caiota", []),
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
    # The case returns without waiting: the request dies with the child.
    "request_out": ("ES_OUT(MPI_Request, $i)", NULL_ARG),
    "errhandler": ("MPI_ERRORS_RETURN", [("MPI_ERRHANDLER_NULL", "MPI_ERRHANDLER_NULL", ARG),
                                         ("freed", "es_freed.errhandler", ARG)]),
    "errhandler_inout": ("ES_PTR(MPI_Errhandler, es_new_errhandler())",
                         [("&MPI_ERRHANDLER_NULL", "ES_PTR(MPI_Errhandler, MPI_ERRHANDLER_NULL)", ARG),
                          ("NULL", "NULL", ARG)]),
    "info": ("MPI_INFO_NULL", [("bogus", "es_bogus_info", INFO)]),
    "info_obj": ("es_info", [("MPI_INFO_NULL", "MPI_INFO_NULL", INFO), ("bogus", "es_bogus_info", INFO)]),
    "info_inout": ("ES_PTR(MPI_Info, es_new_info())",
                   [("&MPI_INFO_NULL", "ES_PTR(MPI_Info, MPI_INFO_NULL)", INFO),
                    ("&bogus", "ES_PTR(MPI_Info, es_bogus_info)", INFO), ("NULL", "NULL", ARG)]),
    # The key es_info holds.
    "info_key": ('"errsweep"', [("NULL", "NULL", "MPI_ERR_INFO_KEY"), ('""', '""', "MPI_ERR_INFO_KEY"),
                                ("too long", "es_long_string", "MPI_ERR_INFO_KEY")]),
    "info_value": ('"value"', [("NULL", "NULL", "MPI_ERR_INFO_VALUE"),
                               ("too long", "es_long_string", "MPI_ERR_INFO_VALUE")]),
    "key_index": ("0", [("-1", "-1", ARG), ("nkeys", "1", ARG)]),
    "location": ("es_sbuf", []),
    "alloc_mem": ("es_new_mem()", []),
    "sbuf": ("es_sbuf", [("NULL", "NULL", BUF)]),
    "rbuf": ("es_rbuf", [("NULL", "NULL", BUF)]),
    "status_in": ("&es_status0", [("NULL", "NULL", ARG)]),
    "status_inout": ("es_fresh_status()", [("NULL", "NULL", ARG)]),
    "status_out": ("ES_OUT(MPI_Status, $i)", [("NULL", "NULL", ARG)]),
    "statuses_out": ("ES_OUT(MPI_Status, $i)", [("NULL", "NULL", ARG)]),
    "fstatus_in": ("($T *)(void *)&es_status0", [("NULL", "NULL", ARG)]),
    "keyval": ("MPI_TAG_UB", [("MPI_KEYVAL_INVALID", "MPI_KEYVAL_INVALID", KEYVAL),
                              ("12345", "12345", KEYVAL), ("type keyval", "es_type_keyval", KEYVAL)]),
    **keyval_roles("comm", "type"),
    **keyval_roles("type", "comm"),
    **keyval_roles("win", "comm"),
    "null_ok": ("NULL", []),
    "string_in": ('"errsweep"', [("NULL", "NULL", ARG)]),
    "message_inout": ("ES_PTR(MPI_Message, MPI_MESSAGE_NO_PROC)",
                      [("&MPI_MESSAGE_NULL", "ES_PTR(MPI_Message, MPI_MESSAGE_NULL)", "MPI_ERR_REQUEST"),
                       ("NULL", "NULL", ARG)]),
    "callback": (None, None),  # by C type: CALLBACKS
    "errorcode": ("MPI_ERR_OTHER", [("-1", "-1", ARG)]),
    "user_class": ("es_user_class", [("-1", "-1", ARG), ("unused", "es_user_class + 1000", ARG)]),
    "fresh_class": ("es_new_error_class()",
                    [("-1", "-1", ARG), ("MPI_ERR_ARG", "MPI_ERR_ARG", ARG),
                     ("class with codes", "es_user_class", ARG)]),
    "fresh_code": ("es_new_error_code()",
                   [("-1", "-1", ARG), ("MPI_ERR_ARG", "MPI_ERR_ARG", ARG),
                    ("a class", "es_user_class", ARG)]),
    "user_code": ("es_user_code", [("-1", "-1", ARG), ("MPI_ERR_ARG", "MPI_ERR_ARG", ARG)]),
    "color": ("0", [("-5", "-5", ARG)]),
    "split_type": ("MPI_COMM_TYPE_SHARED", [("12345", "12345", ARG)]),
    "alloc_size": ("64", [("-1", "-1", ARG)]),
    "position": ("ES_PTR($T, 0)", [("NULL", "NULL", ARG)]),
    "datarep": ('"external32"', [("NULL", "NULL", ARG)]),
    # Extents in elements: Tern says MPI_ERR_COUNT (MPICH does not check).
    "pos_array": ("es_ones", [("{-1,..}", "es_neg_first", COUNT)]),
    "pos_array_c": ("es_cones", [("{-1,..}", "es_cneg_first", COUNT)]),
    "pos_int": ("1", [("0", "0", ARG)]),
    "order": ("MPI_ORDER_C", [("12345", "12345", ARG)]),
    "distribs": ("(int[ES_MAXP]){MPI_DISTRIBUTE_BLOCK}", [("{12345}", "(int[ES_MAXP]){12345}", ARG)]),
    "dargs": ("(int[ES_MAXP]){MPI_DISTRIBUTE_DFLT_DARG}", []),
    "out": ("ES_OUT($T, $i)", [("NULL", "NULL", ARG)]),
    "out_optional": ("ES_OUT($T, $i)", []),
    "ptr_any": ("es_sbuf", []),
    "length_inout": ("ES_PTR(int, 64)", [("NULL", "NULL", ARG)]),
    "partitions": ("2", [("-1", "-1", ARG)]),
    "partition": ("0", [("-1", "-1", ARG), ("2", "2", ARG)]),
    "partition_array": ("(int[]){0}", [("{-1}", "(int[]){-1}", ARG), ("{2}", "(int[]){2}", ARG), ("NULL", "NULL", ARG)]),
    "int_any": ("0", []),
    "aint_any": ("0", []),
    # Topologies: one dimension, one node.
    # A negative count of dimensions: MPI_ERR_ARG in MPICH (MPI_ERR_DIMS is
    # for the extents).
    "ndims": ("1", [("-1", "-1", ARG)]),
    "dims": ("es_ones", [("{-1,..}", "es_neg_first", "MPI_ERR_DIMS")]),
    "dims_inout": ("(int[ES_MAXP]){0}", [("{-1}", "(int[ES_MAXP]){-1}", "MPI_ERR_DIMS"), ("NULL", "NULL", ARG)]),
    "nnodes": ("1", [("-1", "-1", ARG)]),
    "graph_index": ("es_ones", [("{-1,..}", "es_neg_first", ARG)]),
    "direction": ("0", [("-1", "-1", ARG), ("ndims", "1", ARG)]),
    "logicals": ("es_ones", []),
    "coords": ("(int[ES_MAXP]){0}", []),
    "degree": ("1", [("-1", "-1", ARG)]),
    "degrees": ("es_ones", [("{-1,..}", "es_neg_first", ARG)]),
    "weights": ("es_ones", [("{-1,..}", "es_neg_first", ARG)]),
    # MPI_T: the fixtures of the set-up.
    "t_event_index": ("0", [("-1", "-1", "MPI_T_ERR_INVALID_INDEX"),
                            ("INT_MAX", "INT_MAX", "MPI_T_ERR_INVALID_INDEX")]),
    "t_index": ("0", [("-1", "-1", "MPI_T_ERR_INVALID_INDEX"), ("INT_MAX", "INT_MAX", "MPI_T_ERR_INVALID_INDEX")]),
    "t_name": ("es_cvar_name", [("NULL", "NULL", T_INVALID),
                                ('"errsweep"', '"errsweep"', "MPI_T_ERR_INVALID_NAME")]),
    "t_item": ("0", [("-1", "-1", "MPI_T_ERR_INVALID_ITEM"), ("INT_MAX", "INT_MAX", "MPI_T_ERR_INVALID_ITEM")]),
    "t_enum": ("es_t_enum", [("MPI_T_ENUM_NULL", "MPI_T_ENUM_NULL", T_HANDLE)]),
    "cvar": ("es_cvar", [("MPI_T_CVAR_HANDLE_NULL", "MPI_T_CVAR_HANDLE_NULL", T_HANDLE)]),
    "cvar_inout": ("ES_PTR(MPI_T_cvar_handle, es_new_cvar_handle())",
                   [("&MPI_T_CVAR_HANDLE_NULL", "ES_PTR(MPI_T_cvar_handle, MPI_T_CVAR_HANDLE_NULL)", T_HANDLE),
                    ("NULL", "NULL", T_INVALID)]),
    "session": ("es_session", [("MPI_SESSION_NULL", "MPI_SESSION_NULL", "MPI_ERR_SESSION"),
                               ("freed", "es_freed.session", "MPI_ERR_SESSION")]),
    "session_inout": ("ES_PTR(MPI_Session, es_new_session())",
                      [("&MPI_SESSION_NULL", "ES_PTR(MPI_Session, MPI_SESSION_NULL)", "MPI_ERR_SESSION"),
                       ("&freed", "ES_PTR(MPI_Session, es_freed.session)", "MPI_ERR_SESSION"), ("NULL", "NULL", ARG)]),
    "pvar_session": ("es_pvar_session",
                     [("MPI_T_PVAR_SESSION_NULL", "MPI_T_PVAR_SESSION_NULL", "MPI_T_ERR_INVALID_SESSION")]),
    "pvar_session_inout": ("ES_PTR(MPI_T_pvar_session, es_new_pvar_session())",
                           [("&MPI_T_PVAR_SESSION_NULL", "ES_PTR(MPI_T_pvar_session, MPI_T_PVAR_SESSION_NULL)",
                             "MPI_T_ERR_INVALID_SESSION"),
                            ("NULL", "NULL", T_INVALID)]),
    "pvar": ("es_pvar_handle", [("MPI_T_PVAR_HANDLE_NULL", "MPI_T_PVAR_HANDLE_NULL", T_HANDLE)]),
    "pvar_inout": ("ES_PTR(MPI_T_pvar_handle, es_new_pvar_handle())",
                   [("&MPI_T_PVAR_HANDLE_NULL", "ES_PTR(MPI_T_pvar_handle, MPI_T_PVAR_HANDLE_NULL)", T_HANDLE),
                    ("NULL", "NULL", T_INVALID)]),
    "event_registration": ("(MPI_T_event_registration)NULL",
                           [("NULL", "(MPI_T_event_registration)NULL", T_HANDLE)]),
    "event_instance": ("(MPI_T_event_instance)NULL", [("NULL", "(MPI_T_event_instance)NULL", T_HANDLE)]),
    "cb_safety": ("MPI_T_CB_REQUIRE_NONE", []),
    # The sweep has no window fixture (see NO_VALID in gen_errsweep.py).
    # es_file is a file the sweep opens on MPI_COMM_SELF.
    "win": ("MPI_WIN_NULL", [("MPI_WIN_NULL", "MPI_WIN_NULL", "MPI_ERR_WIN")]),
    "win_inout": ("ES_PTR(MPI_Win, MPI_WIN_NULL)",
                  [("&MPI_WIN_NULL", "ES_PTR(MPI_Win, MPI_WIN_NULL)", "MPI_ERR_WIN"),
                   ("NULL", "NULL", ARG)]),
    "file": ("es_file", [("bogus", "(MPI_File)(void *)es_sbuf", "MPI_ERR_FILE")]),
    "file_inout": ("ES_PTR(MPI_File, es_file)",
                   [("&MPI_FILE_NULL", "ES_PTR(MPI_File, MPI_FILE_NULL)", "MPI_ERR_FILE"),
                    ("&bogus", "ES_PTR(MPI_File, (MPI_File)(void *)es_sbuf)", "MPI_ERR_FILE"),
                    ("NULL", "NULL", ARG)]),
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


# --------------------------------------------------------------------------
# Data: role -> the check a generated entry point runs (gen_bindings.py).
#   obj     the C type of the object the check yields (None: none); the
#           body receives it in place of the handle ($o is its variable)
#   keep    the body receives the parameter itself too, before the object
#           (an in-out handle that the body resets)
#   order   0: object handles, checked first in the order of the
#           parameters; 1: pointers for results, checked after all handles
#   code    the checks, each returning MPI_SUCCESS or a raised error code:
#           $p the parameter, $o the object, $E the communicator the error
#           is raised on (the call's, once checked; NULL: none, so
#           MPI_COMM_WORLD's handler)
#   code_session  the same checks where $E is a session (errc "session")
#   errc    "comm" or "session": the object is the communicator or the
#           session whose handler gets the errors of the checks after it
#   include headers the checks need
# --------------------------------------------------------------------------

HANDLE_CHECK = "api/handle_check.h"
TOPO_CHECK = "api/topo_check.h"

def _keyval_checks(obj, kind):
    return {
        f"{obj}_keyval": {"obj": "struct tern_keyval *", "order": 0, "include": [HANDLE_CHECK],
                          "code": [f'tern_chk_keyval($E, fn, $p, {kind}, &$o)']},
        f"{obj}_keyval_inout": {"obj": "struct tern_keyval *", "keep": True, "order": 0,
                                "include": [HANDLE_CHECK],
                                "code": ['tern_check_ptr($E, $p, fn, "$p")',
                                         f'tern_chk_keyval($E, fn, *$p, {kind}, &$o)']},
    }


CHECKS = {
    "comm": {"obj": "struct tern_comm *", "order": 0, "errc": "comm", "include": ["core/objects.h"],
             "code": ['tern_comm_check($p, fn, "$p", &$o)']},
    "comm_inout": {"obj": "struct tern_comm *", "keep": True, "order": 0, "errc": "comm",
                   "include": ["core/objects.h"],
                   "code": ['tern_check_ptr($E, $p, fn, "$p")', 'tern_comm_check(*$p, fn, "*$p", &$o)']},
    # Topologies: the query's communicator must have one of the kind; the
    # body finds it in $o->topo.
    **{role: {"obj": "struct tern_comm *", "order": 0, "errc": "comm", "include": [TOPO_CHECK],
              "code": ['tern_comm_check($p, fn, "$p", &$o)', f'tern_topo_chk_kind($o, {kind}, fn)']}
       for role, kind in (("cart_comm", "MPI_CART"), ("graph_comm", "MPI_GRAPH"),
                          ("dist_graph_comm", "MPI_DIST_GRAPH"))},
    "intracomm": {"obj": "struct tern_comm *", "order": 0, "errc": "comm",
                  "include": ["api/comm_check.h"],
                  "code": ['tern_comm_check($p, fn, "$p", &$o)', 'tern_chk_intra($o, fn)']},
    "intercomm": {"obj": "struct tern_comm *", "order": 0, "errc": "comm",
                  "include": ["api/comm_check.h"],
                  "code": ['tern_comm_check($p, fn, "$p", &$o)', 'tern_chk_inter($o, fn)']},
    "topo_rank": {"obj": None, "order": 0, "include": [TOPO_CHECK],
                  "code": ['tern_topo_chk_rank($E, fn, "$p", $p)']},
    "direction": {"obj": None, "order": 0, "include": [TOPO_CHECK],
                  "code": ['tern_topo_chk_direction($E, fn, $p)']},
    "group": {"obj": "struct tern_group *", "order": 0, "include": ["api/comm_check.h"],
              "code": ['tern_chk_group($E, fn, "$p", $p, &$o)']},
    "group_inout": {"obj": "struct tern_group *", "keep": True, "order": 0, "include": ["api/comm_check.h"],
                    "code": ['tern_check_ptr($E, $p, fn, "$p")',
                             'tern_chk_group($E, fn, "*$p", *$p, &$o)']},
    # Hints: MPI_INFO_NULL is none.
    "info": {"obj": "struct tern_info *", "order": 0, "include": ["core/info.h"],
             "code": ['tern_info_check($p, 1, fn, "$p", $E, &$o)']},
    "info_obj": {"obj": "struct tern_info *", "order": 0, "include": ["core/info.h"],
                 "code": ['tern_info_check($p, 0, fn, "$p", $E, &$o)']},
    "info_inout": {"obj": "struct tern_info *", "keep": True, "order": 0, "include": ["core/info.h"],
                   "code": ['tern_check_ptr($E, $p, fn, "$p")',
                            'tern_info_check(*$p, 0, fn, "*$p", $E, &$o)']},
    "info_key": {"obj": None, "order": 0, "include": [HANDLE_CHECK],
                 "code": ['tern_chk_info_key($E, fn, $p)']},
    "errhandler": {"obj": "struct tern_errhandler *", "order": 0, "include": [HANDLE_CHECK],
                   "code": ['tern_chk_errh($E, fn, "$p", $p, &$o)']},
    "errhandler_inout": {"obj": "struct tern_errhandler *", "keep": True, "order": 0,
                         "include": [HANDLE_CHECK],
                         "code": ['tern_check_ptr($E, $p, fn, "$p")',
                                  'tern_chk_errh($E, fn, "*$p", *$p, &$o)']},
    # Only MPI_FILE_NULL exists; its errors go to its own handler.
    "file": {"obj": None, "order": 0, "include": [HANDLE_CHECK], "code": ['tern_chk_file(fn, $p)']},
    # A valid handle, committed or not (communication checks that too).
    "datatype": {"obj": "struct tern_datatype *", "order": 0,
                 "code": ['tern_check_type_valid($E, $p, fn, "$p", &$o)']},
    **_keyval_checks("comm", "TERN_ATTR_COMM"),
    **_keyval_checks("type", "TERN_ATTR_TYPE"),
    **_keyval_checks("win", "TERN_ATTR_WIN"),
    # A session's errors go to its own handler (MPI-4.1 9.3).
    "session": {"obj": "struct tern_session *", "order": 0, "errc": "session",
                "include": ["core/session.h"], "code": ['tern_session_check($p, fn, "$p", &$o)']},
    "session_inout": {"obj": "struct tern_session *", "keep": True, "order": 0, "errc": "session",
                      "include": ["core/session.h"],
                      "code": ['tern_check_ptr($E, $p, fn, "$p")',
                               'tern_session_check(*$p, fn, "*$p", &$o)']},
    "out": {"obj": None, "order": 1, "include": [HANDLE_CHECK],
            "code": ['tern_check_ptr($E, $p, fn, "$p")'],
            "code_session": ['tern_chk_session_ptr($E, $p, fn, "$p")']},
    "string_in": {"obj": None, "order": 1, "code": ['tern_check_ptr($E, $p, fn, "$p")']},
    # Requests and statuses (api/request.c, api/status.c).  The handle a
    # pointer holds is looked up by the body, after the status pointer.
    **{role: {"obj": None, "order": 0, "code": ['tern_check_ptr($E, $p, fn, "$p")']}
       for role in ("request_inout", "request_live", "status_in", "status_inout", "fstatus_in")},
    "status_out": {"obj": None, "order": 1, "include": [HANDLE_CHECK],
                   "code": ['tern_chk_status_ptr($E, $p, fn, "$p")']},
    # The request a call starts (a nonblocking flush, collective, ...).
    "request_out": {"obj": None, "order": 1, "include": [HANDLE_CHECK],
                    "code": ['tern_check_ptr($E, $p, fn, "$p")'],
                    "code_session": ['tern_chk_session_ptr($E, $p, fn, "$p")']},
    # Reduction ops (api/op.c): a live op, predefined or not.
    "op": {"obj": "struct tern_op *", "order": 0, "include": [HANDLE_CHECK],
           "code": ['tern_chk_op($E, fn, $p, &$o)']},
    "op_inout": {"obj": "struct tern_op *", "keep": True, "order": 0, "include": [HANDLE_CHECK],
                 "code": ['tern_check_ptr($E, $p, fn, "$p")', 'tern_chk_op($E, fn, *$p, &$o)']},
}
