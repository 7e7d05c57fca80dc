/* Communicators, groups and error handlers. */
#ifndef TERN_CORE_OBJECTS_H
#define TERN_CORE_OBJECTS_H

#include <mpi.h>
#include <stdint.h>

#include "core/handle.h"
#include "core/state.h"

struct tern_session;
struct tern_bbuf;
struct tern_coll_sel;

struct tern_group {
    int handle;
    int refcount;
    int size;
    int rank;                     /* this process's rank in the group, or MPI_UNDEFINED */
    int *world;                   /* world rank of each member */
    struct tern_session *session; /* MPI_Group_from_session_pset: its session (a reference) */
};

enum tern_errh_kind {
    TERN_ERRH_FATAL,
    TERN_ERRH_RETURN,
    TERN_ERRH_ABORT,
    TERN_ERRH_USER_COMM,
    TERN_ERRH_USER_WIN,
    TERN_ERRH_USER_FILE,
    TERN_ERRH_USER_SESSION,
};

struct tern_errhandler {
    int handle;
    int refcount;
    enum tern_errh_kind kind;
    MPI_Comm_errhandler_function *comm_fn;
    MPI_Win_errhandler_function *win_fn;
    MPI_File_errhandler_function *file_fn;
    MPI_Session_errhandler_function *session_fn;
};

/* Context ids: every communicator owns two consecutive ids, one for
 * point-to-point and one for its collectives, so the two never match each
 * other's messages. */
#define TERN_CTX_P2P 0
#define TERN_CTX_COLL 1
/* Partitioned communication (src/p2p/part.c) uses ctx with the top bit
 * set: allocated ids never get that high, so its messages match nothing
 * else.  An int offset like the others; (uint32_t)INT_MIN is 0x80000000. */
#define TERN_CTX_PART (-0x7fffffff - 1)

/* The largest tag (MPI_TAG_UB): point-to-point matches every tag in 0..INT_MAX. */
#define TERN_TAG_UB 0x7fffffff

struct tern_comm {
    int handle;
    int refcount;             /* the user's reference plus pending operations */
    uint32_t ctx;             /* point-to-point context id; ctx+1 for collectives */
    int rank, size;           /* in the local group */
    struct tern_group *group; /* the local group */
    struct tern_errhandler *errh;
    int is_inter;
    /* The ranks point-to-point addresses: the group itself, or the remote
     * group of an intercommunicator.  Chosen at construction so the message
     * path reads one pointer whatever the kind. */
    int peer_size;
    const int *peer_world;           /* world rank of each */
    struct tern_group *remote_group; /* intercommunicators: the other side */
    struct tern_comm *local_comm;    /* intercommunicators: an intracommunicator over the
                                        local group (collectives, merge), no handle */
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs;                  /* attribute list, owned by the attribute module */
    void *topo;                   /* topology, owned by the topology module */
    unsigned hints;               /* info hints kept (bits of core/comm_info.c) */
    const char *hw_type;          /* mpi_hw_resource_type of the hardware split that made it
                                 (a static name from comm/comm_hw.c), or NULL */
    uint32_t coll_seq;            /* nonblocking/persistent collectives started: see coll/sched.h */
    struct tern_session *session; /* the session it derives from (a reference), or NULL */
    struct tern_bbuf *bsend;      /* MPI_Comm_attach_buffer's buffer (p2p/bsend.h), or NULL */
    struct tern_coll_sel *coll_sel; /* collective algorithms chosen (coll/select.h), or NULL */
    struct tern_shmc *coll_shm; /* its shared-memory collective area (coll/shm_coll.h), or NULL */
    struct tern_coll_hier *coll_hier; /* its parts by host (coll/coll_hier.c), or NULL */
};

extern struct tern_comm tern_comm_world, tern_comm_self;
extern struct tern_group tern_group_empty;
extern struct tern_errhandler tern_errh_fatal, tern_errh_return, tern_errh_abort;

extern struct tern_objtab tern_comm_table, tern_group_table, tern_errh_table;

/* Handle -> object, NULL if the handle is not a live object of that kind. */
static inline struct tern_comm *tern_comm_get(MPI_Comm h)
{
    /* The predefined communicators are the world model's: a process using
     * only sessions, or past MPI_Finalize with sessions open, has none. */
    if (h == MPI_COMM_WORLD)
        return tern_g.world_state == TERN_STATE_ACTIVE ? &tern_comm_world : NULL;
    if (h == MPI_COMM_SELF) return tern_g.world_state == TERN_STATE_ACTIVE ? &tern_comm_self : NULL;
    return (struct tern_comm *)tern_objtab_lookup(&tern_comm_table, h);
}
/* What to add to "not a communicator" when h is a predefined one that
 * tern_comm_get refused. */
static inline const char *tern_comm_absent_note(MPI_Comm h)
{
    return h == MPI_COMM_WORLD || h == MPI_COMM_SELF
               ? " (MPI_COMM_WORLD and MPI_COMM_SELF exist only between MPI_Init and MPI_Finalize)"
               : "";
}
struct tern_group *tern_group_get(MPI_Group h);
struct tern_errhandler *tern_errh_get(MPI_Errhandler h);

/* The world rank of the process that point-to-point rank r of c names (in
 * the remote group on an intercommunicator). */
static inline int tern_comm_world_rank(const struct tern_comm *c, int r)
{
    return c->peer_world[r];
}

void tern_comm_release(struct tern_comm *c);
struct tern_group *tern_group_new(int size);    /* world[] to be filled by the caller */
void tern_group_set_rank(struct tern_group *g); /* computes g->rank from world[] */
void tern_group_release(struct tern_group *g);
void tern_errh_release(struct tern_errhandler *e);

/* A printable name for messages: "MPI_COMM_WORLD", the user's name, or the handle in hex. */
const char *tern_comm_label(const struct tern_comm *c, char *buf, int len);

int tern_comms_init(void); /* world, self */
void tern_comms_finalize(void);

/* ---- Added by the communicator/collectives work (declarations only; the
 * ones above are unchanged). ---- */

static inline void tern_comm_retain(struct tern_comm *c) { c->refcount++; }
static inline void tern_group_retain(struct tern_group *g) { g->refcount++; }
static inline void tern_errh_retain(struct tern_errhandler *e) { e->refcount++; }

/* Validates a communicator argument (not MPI_COMM_NULL, a live
 * communicator).  On failure the error goes to MPI_COMM_WORLD's handler with
 * a message naming fn and argname, and its code is returned. */
int tern_comm_check(MPI_Comm h, const char *fn, const char *argname, struct tern_comm **out);

/* MPI_Comm_free: the handle stops being valid at once; the object lives on
 * while operations still hold references. */
void tern_comm_free_handle(struct tern_comm *c);

/* What layers above core hang on a communicator (its topology, its
 * buffered-send buffer, the collective algorithms chosen for it) is theirs
 * to release: each registers how (runtime/init.c, before the first
 * communicator exists).  'free' hooks run at MPI_Comm_free, for a part
 * that must be gone when the call returns (the user's buffer); 'destroy'
 * hooks when the last reference goes, and on the predefined communicators
 * at finalize.  Registering a function twice registers it once. */
typedef void (*tern_comm_hook_fn)(struct tern_comm *c);
void tern_comm_on_free(tern_comm_hook_fn fn);
void tern_comm_on_destroy(tern_comm_hook_fn fn);

/* An intracommunicator over 'group' (a reference taken) with context ids
 * ctx, ctx+1 and handler errh; a handle only when with_handle. */
int tern_comm_build(struct tern_errhandler *errh, struct tern_group *group, uint32_t ctx,
                    int with_handle, struct tern_comm **out);

/* A communicator made from 'parent' derives from its session when its own
 * group knows none. */
void tern_comm_inherit_session(struct tern_comm *c, const struct tern_comm *parent);

/* ranks[i] = the rank in 'in' of member i of g; MPI_ERR_GROUP (with
 * MPI_UNDEFINED entries) when some member of g is not in 'in'. */
int tern_group_ranks_in(const struct tern_group *g, const struct tern_group *in, int *ranks);

/* Hands the caller's reference to g to the user: *out is its handle (made
 * on first use).  An empty group is released and becomes MPI_GROUP_EMPTY.
 * Returns MPI_SUCCESS or MPI_ERR_NO_MEM (g released). */
int tern_group_publish(struct tern_group *g, MPI_Group *out);

/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL, as MPI_Group_compare. */
int tern_group_compare(const struct tern_group *a, const struct tern_group *b);

int tern_errh_is_predefined(const struct tern_errhandler *e);
/* A new user handler (refcount 1, the user's), or NULL when out of memory. */
struct tern_errhandler *tern_errh_create_comm(MPI_Comm_errhandler_function *fn);
/* The same for windows and files (kind TERN_ERRH_USER_WIN / _FILE). */
struct tern_errhandler *tern_errh_create_win(MPI_Win_errhandler_function *fn);
struct tern_errhandler *tern_errh_create_file(MPI_File_errhandler_function *fn);
struct tern_errhandler *tern_errh_create_session(MPI_Session_errhandler_function *fn);

/* Called by tern_comms_finalize. */
void tern_group_finalize(void);
void tern_errh_finalize(void);

#endif
