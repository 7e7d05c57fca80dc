/* The invalid-argument sweep: what the generated cases (errsweep_gen.c,
 * written by tools/gen/gen_errsweep.py) and the hand-written driver
 * (errsweep_main.c) share.
 *
 * A case calls one MPI function with every argument valid except at most
 * one, and returns what the call returned; the driver runs it in a forked
 * child of the rank, so a crash or a hang is reported with the case's name
 * instead of ending the sweep.  Only standard MPI is used here: the same
 * program is built against MPICH to calibrate the expected classes. */
#ifndef ERRSWEEP_H
#define ERRSWEEP_H

#include <mpi.h>

struct es_case {
    const char *fn;    /* "MPI_Send" */
    const char *arg;   /* the invalid parameter; "-" for the all-valid call */
    const char *value; /* what it is given: "MPI_COMM_NULL", "-1", ... */
    int expect;        /* the error class expected; MPI_SUCCESS for "-" */
    const char *known; /* non-NULL: a known gap, the reason (generator's KNOWN_FAILURES) */
    int (*run)(void);
};

extern const struct es_case es_cases[];
extern const int es_ncases;
/* Implemented functions the generator could not call, one per line. */
extern const char es_not_covered[];

/* A case returns this when its invalid value cannot be built here (a tag
 * above MPI_TAG_UB when MPI_TAG_UB is INT_MAX). */
#define ES_NOT_APPLICABLE (-424242)

/* A communicator the cases use, with the caller's rank, the size and the
 * group (MPI_COMM_WORLD or MPI_COMM_SELF). */
struct es_comm {
    MPI_Comm h;
    int rank, size;
    MPI_Group group;
};
extern struct es_comm es_world, es_self;
/* Communicators with a topology, all over MPI_COMM_SELF so that the
 * collective calls on them (MPI_Cart_sub, neighbourhood collectives)
 * complete on one rank while the other ranks wait their turn: a 1-D
 * periodic Cartesian grid of one process, a graph of one node with an edge
 * to itself, and a weighted distributed graph with one edge to itself. */
extern struct es_comm es_cart, es_graph, es_dist;
/* The group of the next rank of MPI_COMM_WORLD (the caller's own at 1). */
extern MPI_Group es_peer_group;

/* Handles that were valid once and have been freed. */
struct es_freed {
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Group group;
    MPI_Op op;
    MPI_Request request;
    MPI_Errhandler errhandler;
    MPI_Session session;
};
extern struct es_freed es_freed;
/* A session initialised with MPI_ERRORS_RETURN. */
extern MPI_Session es_session;

#define ES_MAXP 64 /* array arguments have this many elements */
#define ES_BUF_BYTES 65536

extern char es_sbuf[ES_BUF_BYTES], es_rbuf[ES_BUF_BYTES];
extern int es_ones[ES_MAXP], es_iota[ES_MAXP], es_neg_first[ES_MAXP];
extern MPI_Aint es_aiota[ES_MAXP]; /* i * sizeof(int) */
extern MPI_Count es_cones[ES_MAXP], es_cneg_first[ES_MAXP],
    es_caiota[ES_MAXP]; /* for the _c forms */
extern MPI_Datatype es_ints[ES_MAXP], es_null_first[ES_MAXP];
extern MPI_Datatype es_uncommitted; /* contiguous 2 x MPI_INT, never committed */
extern MPI_Datatype es_derived;     /* a committed vector, for get_contents */
extern MPI_Status es_status0;       /* zeroed */
extern int es_tag_ub;
extern MPI_Info es_bogus_info; /* no object of any kind has this handle */
extern MPI_Info es_info;       /* holds the key "errsweep" */
/* A new empty file in the sweep's directory (removed at the end). */
const char *es_new_file(void);
extern MPI_File es_file;      /* open read-write on MPI_COMM_SELF, deleted on close */
extern char es_long_string[]; /* longer than MPI_MAX_INFO_VAL */
/* User keyvals, one per object kind (no attribute is set with them). */
extern int es_comm_keyval, es_type_keyval, es_win_keyval;
/* A user error class with one code, which has a string. */
extern int es_user_class, es_user_code;
/* MPI_T (initialised by the set-up): a control variable handle whose value
 * es_cvar_value holds (writable back where the MPI allows any write; else
 * MPI_T_CVAR_HANDLE_NULL), a session with a handle on a startable, writable
 * performance variable (MPI_T_PVAR_HANDLE_NULL when none), an enumeration,
 * and names that the *_get_index calls find. */
extern MPI_T_cvar_handle es_cvar;
extern char es_cvar_value[256];
extern MPI_T_pvar_session es_pvar_session;
extern MPI_T_pvar_handle es_pvar_handle;
extern int es_pvar_index, es_pvar_class;
extern MPI_T_enum es_t_enum;
extern char es_cvar_name[256], es_pvar_name[256], es_cat_name[256];

/* Where an output argument of the case's parameter I goes. */
#define ES_OUT(T, i) ((T *)(void *)es_out_slot(i))
void *es_out_slot(int i);
/* The address of a fresh copy of a value (lives until the case returns). */
#define ES_PTR(T, v) (&(T){v})

/* Fresh objects, for arguments that a call consumes or changes. */
MPI_Datatype es_new_type(void); /* uncommitted contiguous */
MPI_Comm es_new_comm(void);     /* a dup of MPI_COMM_SELF */
MPI_Group es_new_group(void);
MPI_Op es_new_op(void);
MPI_Errhandler es_new_errhandler(void);
MPI_Session es_new_session(void);  /* with MPI_ERRORS_RETURN */
MPI_Request es_new_prequest(void); /* inactive persistent receive from self */
MPI_Request es_new_irecv(void);    /* active receive from self, nothing sent */
/* A started partitioned pair on MPI_COMM_SELF (2 partitions of one int,
 * none ready): its send side when send, else its receive side. */
MPI_Request es_new_part(int send);
void *es_new_mem(void); /* from MPI_Alloc_mem */
MPI_Info es_new_info(void);
int es_new_comm_keyval(void);
int es_new_type_keyval(void);
int es_new_win_keyval(void);
int es_new_error_class(void); /* with no codes */
int es_new_error_code(void);  /* in es_user_class, without a string */
MPI_T_cvar_handle es_new_cvar_handle(void);
MPI_T_pvar_session es_new_pvar_session(void);
MPI_T_pvar_handle es_new_pvar_handle(void); /* in es_pvar_session */
MPI_Status *es_fresh_status(void);          /* a zeroed status to write */
/* What some calls need before they can succeed. */
int es_self_send(const struct es_comm *c);  /* a tag-0 int from self, buffered */
int es_post_irecv(const struct es_comm *c); /* a tag-0 receive from self */
int es_attach_buffer(void);                 /* a buffer for MPI_Bsend */
void *es_bsend_buffer(void);                /* a buffer for MPI_Buffer_attach */
int es_bsend_buffer_size(void);
/* Callbacks, one per C type (the generator's CALLBACKS). */
void es_user_fn(void *in, void *inout, int *len, MPI_Datatype *type);
void es_user_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type);
void es_errhandler_fn(MPI_Comm *comm, int *code, ...);
void es_win_errhandler_fn(MPI_Win *win, int *code, ...);
void es_file_errhandler_fn(MPI_File *file, int *code, ...);
int es_datarep_extent_fn(MPI_Datatype datatype, MPI_Aint *extent, void *extra_state);
void es_session_errhandler_fn(MPI_Session *session, int *code, ...);
void es_t_event_cb_fn(MPI_T_event_instance event, MPI_T_event_registration reg,
                      MPI_T_cb_safety safety, void *user_data);
void es_t_event_free_cb_fn(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user_data);
void es_t_event_dropped_cb_fn(MPI_Count count, MPI_T_event_registration reg, int source_index,
                              MPI_T_cb_safety safety, void *user_data);
int es_greq_query_fn(void *extra_state, MPI_Status *status);
int es_greq_free_fn(void *extra_state);
int es_greq_cancel_fn(void *extra_state, int complete);
MPI_Request es_new_greq(void); /* an incomplete generalized request */

#endif
