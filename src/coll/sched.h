/* The schedule engine behind nonblocking and persistent collectives.
 *
 * A schedule is a list of rounds; a round is a list of steps started
 * together.  Steps are started in the order they were added: local steps
 * (reduce, copy, callback) run to completion when started, sends and
 * receives are posted.  A round ends when every send and receive in it has
 * completed; then the next round starts.  So a round may first combine what
 * the previous round received and then send the result on.
 *
 * The progress engine (core/progress.c) advances every started schedule on
 * each pass, so a collective completes while the user only calls MPI_Test,
 * or only MPI_Wait, or is inside an unrelated blocking call.
 *
 * Building one (what every MPI_I<coll> and MPI_<coll>_init does):
 *
 *     struct tern_sched *s;
 *     rc = tern_sched_create(c, "MPI_Ibcast", &s);     // takes c's next tag
 *     tern_sched_recv(s, buf, count, dt, parent);        // round 0
 *     tern_sched_round(s);
 *     tern_sched_send(s, buf, count, dt, child);         // round 1
 *     rc = tern_sched_post(s, rc_of_building, persistent, &request);
 *
 * Builders record what to do with which buffer; nothing is read or written
 * until the schedule runs, so a persistent collective, which runs the same
 * schedule at every MPI_Start, sees the buffers' contents of that start.  Everything a step
 * needs is copied or referenced by the schedule (datatypes and ops are
 * retained), so the caller's count and displacement arrays may go away
 * after building.
 *
 * Matching: every schedule takes a tag of its own from its communicator's
 * sequence number c->coll_seq, counted alike on every rank because MPI
 * requires collectives to be called in the same order everywhere.  Several
 * collectives outstanding on one communicator, or one whose rounds start
 * late, therefore never match each other's messages, nor those of the
 * blocking collectives (coll/coll.h: fixed tags from -1000 up), which this
 * range lies wholly below; MPI_ANY_TAG (-1) is never used.  A persistent
 * collective keeps its tag for all its starts: successive starts of one
 * request send to each peer in the same order the peer receives, and
 * point-to-point does not overtake.  Tags repeat only after 2^30 schedules
 * while an older one is still in use.
 *
 * Messages travel on the communicator's collective context
 * (TERN_CTX_COLL).  All calls are made under the library lock.
 *
 * Intercommunicators: a schedule on one may also send and receive over its
 * local communicator (tern_sched_local), with the same tag.  That
 * communicator has no handle: only its intercommunicator's schedules and
 * constructors (fixed tags, above this range) use it, so the tag, counted
 * on the intercommunicator, is unique there as well. */
#ifndef TERN_COLL_SCHED_H
#define TERN_COLL_SCHED_H

#include <mpi.h>
#include <stddef.h>

struct tern_comm;
struct tern_datatype;
struct tern_op;
struct tern_request;
struct tern_sched;

/* The tag range of schedules: TERN_SCHED_TAG_TOP - (seq mod SPAN). */
#define TERN_SCHED_TAG_TOP (-4096)
#define TERN_SCHED_TAG_SPAN (1 << 30)

/* A new empty schedule on c (which it retains) with the next tag of c.
 * 'fn' names the MPI call in error messages.  MPI_ERR_NO_MEM on failure. */
int tern_sched_create(struct tern_comm *c, const char *fn, struct tern_sched **out);

/* The schedule's communicator, rank and size (for builders): the one steps
 * added now go over. */
struct tern_comm *tern_sched_comm(const struct tern_sched *s);

/* Intercommunicator schedules: with local != 0, the sends and receives
 * added from now on go over the local communicator (c->local_comm), which
 * tern_sched_comm then returns, so the intracommunicator builders add the
 * local phases; with 0, back to c itself. */
void tern_sched_local(struct tern_sched *s, int local);

/* The steps added from now on go over 'part', some of the schedule's
 * communicator's ranks with context ids of their own (the host parts of
 * coll/coll_hier.c), kept at least as long as that communicator; NULL:
 * back to the communicator itself.  The tag stays the schedule's. */
void tern_sched_over(struct tern_sched *s, struct tern_comm *part);

/* Steps of the current round.  They return MPI_SUCCESS or MPI_ERR_NO_MEM;
 * an error also sticks to the schedule, so a builder may check only the
 * last call (tern_sched_post refuses a schedule with a stuck error).
 * Counts of zero bytes are fine (the step does nothing but match). */
int tern_sched_send(struct tern_sched *s, const void *buf, size_t count, struct tern_datatype *dt,
                    int peer);
int tern_sched_recv(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                    int peer);
/* inout = in op inout, element by element ('in' stands for the lower
 * ranks when the op is not commutative).  Both laid out as (buf, count, dt). */
int tern_sched_reduce(struct tern_sched *s, const void *in, void *inout, size_t count,
                      struct tern_datatype *dt, struct tern_op *op);
/* Typed local copy (pack or unpack when one side is MPI_BYTE). */
int tern_sched_copy(struct tern_sched *s, const void *src, size_t scount, struct tern_datatype *sdt,
                    void *dst, size_t dcount, struct tern_datatype *ddt);
/* fn(arg) when the step starts; a non-MPI_SUCCESS return becomes the
 * collective's error.  'arg' is not owned by the schedule (see tern_sched_buf). */
typedef int tern_sched_fn(void *arg);
int tern_sched_callback(struct tern_sched *s, tern_sched_fn *fn, void *arg);

/* A step that runs a state machine of its own (the shared-memory
 * collectives, coll/shm_nbc.c).  start(arg) runs when the schedule starts
 * a run (the post of a nonblocking collective, each MPI_Start of a
 * persistent one), for every such step in the order they were added,
 * whatever their round: what must be taken in call order (a sequence
 * number counted alike on every rank) is taken there.  poll(arg) runs when
 * the step's round starts and at every later poll of the schedule until it
 * returns nonzero (done); it never waits.  dt, ddt and op (any may be
 * NULL) are retained for the schedule's life. */
struct tern_sched_machine {
    void (*start)(void *arg);
    int (*poll)(void *arg);
};
int tern_sched_machine(struct tern_sched *s, const struct tern_sched_machine *m, void *arg,
                       struct tern_datatype *dt, struct tern_datatype *ddt, struct tern_op *op);

/* Keeps dt for the schedule's life, for a machine that reads more
 * datatypes than the two it retains (alltoallw's, one per peer); a step
 * that does nothing when it starts. */
int tern_sched_keep(struct tern_sched *s, struct tern_datatype *dt);

/* Whether a step added now may take something in call order at each start
 * (tern_sched_machine): the schedule is on its own communicator (not the
 * local one of an intercommunicator, whose phases start in later rounds)
 * and its starts are the user's calls, made in the same order on every
 * rank (not marked by tern_sched_unordered). */
int tern_sched_in_order(const struct tern_sched *s);

/* Marks a schedule whose starts come at moments or in an order that
 * differ between ranks (MPI_Comm_idup's rounds, which the library restarts
 * from the progress engine; a persistent collective, started by the user
 * in any order): its builders then take only steps matched by its tag. */
void tern_sched_unordered(struct tern_sched *s);

/* Ends the current round: steps added later start once it has completed.
 * An empty round is dropped. */
int tern_sched_round(struct tern_sched *s);

/* Scratch memory owned by the schedule, freed with it; NULL when out of
 * memory (the error sticks).  tern_sched_tmp gives room for 'count'
 * elements of dt laid out as in a user buffer (the address to use may lie
 * outside the allocation when the type's lower bound is not 0). */
void *tern_sched_buf(struct tern_sched *s, size_t bytes);
void *tern_sched_tmp(struct tern_sched *s, const struct tern_datatype *dt, size_t count);

/* Wraps a built schedule in a collective request (TERN_REQ_COLL).  'rc' is
 * the builder's result: on any error the schedule is freed and the error
 * raised on the communicator.  A nonblocking collective (persistent == 0)
 * starts at once; a persistent one waits for MPI_Start.  *out is the
 * user's handle on success. */
int tern_sched_post(struct tern_sched *s, int rc, int persistent, MPI_Request *out);

/* A blocking collective: runs the built schedule to completion and frees
 * it.  Returns the builder's 'rc' or the run's error, not raised: the
 * blocking algorithm's caller raises it like any other. */
int tern_sched_run(struct tern_sched *s, int rc);

/* MPI_Start of a persistent collective request: runs its schedule again. */
int tern_sched_restart(struct tern_request *r);

/* Frees a schedule that was never posted. */
void tern_sched_free(struct tern_sched *s);

#endif
