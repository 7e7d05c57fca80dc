/* The intercommunicator side of the blocking collective entry points:
 * argument checks by role (the root passes MPI_ROOT, its group's other
 * members MPI_PROC_NULL, the other group the root's rank there; arrays of
 * counts have one entry per remote rank, except reduce_scatter's, one per
 * local rank), then the algorithm, errors raised on the communicator.
 * MPI_IN_PLACE is not defined on intercommunicators. */
#include <stdio.h>
#include <stdlib.h>

#include "api/check.h"
#include "api/count_vec.h"
#include "coll/coll_util.h"
#include "coll/inter.h"
#include "coll/op.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if ((rc = (expr)) != MPI_SUCCESS) goto out;                                                \
    } while (0)

static int result(struct tern_comm *c, int rc) { return rc ? tern_err_raise(c, rc) : rc; }

static int chk_role(struct tern_comm *c, const char *fn, int root, enum tern_inter_role *role)
{
    if (root == MPI_ROOT) *role = TERN_INTER_ROOT;
    else if (root == MPI_PROC_NULL) *role = TERN_INTER_IDLE;
    else if (root >= 0 && root < c->peer_size) *role = TERN_INTER_LEAF;
    else {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_ROOT,
                             "%s: root=%d on intercommunicator %s is not MPI_ROOT, MPI_PROC_NULL "
                             "or a rank of the remote group (size %d)",
                             fn, root, tern_comm_label(c, lb, sizeof lb), c->peer_size);
    }
    return MPI_SUCCESS;
}

/* The argument names of one side of a collective, for the messages. */
struct side {
    const char *buf, *count, *counts, *type;
};
static const struct side SEND = {"sendbuf", "sendcount", "sendcounts", "sendtype"};
static const struct side RECV = {"recvbuf", "recvcount", "recvcounts", "recvtype"};

static int chk_not_in_place(struct tern_comm *c, const char *fn, const char *arg, const void *buf)
{
    if (buf != MPI_IN_PLACE) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_BUFFER,
                         "%s: %s is MPI_IN_PLACE, which is not allowed on an intercommunicator", fn,
                         arg);
}

/* A side given as (buf, count, type). */
static int chk_block(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     MPI_Count count, MPI_Datatype type, struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, s->count))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    return tern_check_buffer(c, buf, count, *dt, fn, s->buf);
}

/* n counts, none negative; *sum their total. */
/* A side given as (buf, counts[remote size], displs, type). */
static int chk_vector(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                      const int *counts, const char *displs_arg, const int *displs,
                      MPI_Datatype type, struct tern_datatype **dt)
{
    size_t total;
    int rc;
    if ((rc = tern_check_counts(c, fn, s->counts, counts, c->peer_size, &total))) return rc;
    if (!displs) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, displs_arg);
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    return tern_check_buffer(c, buf, (long)total, *dt, fn, s->buf);
}

static int chk_op(struct tern_comm *c, const char *fn, MPI_Op h, struct tern_datatype *dt,
                  struct tern_op **out)
{
    int rc = tern_op_check_valid(h, fn, out);
    if (!rc) rc = tern_op_check(*out, dt, fn);
    return rc ? tern_err_raise(c, rc) : rc;
}

int tern_inter_barrier_call(struct tern_comm *c) { return result(c, tern_inter_barrier(c)); }

int tern_inter_bcast_call(const char *fn, struct tern_comm *c, void *buf, MPI_Count count,
                          MPI_Datatype type, int root)
{
    enum tern_inter_role role = TERN_INTER_IDLE;
    struct tern_datatype *dt = NULL;
    int rc;
    TRY(chk_role(c, fn, root, &role));
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    TRY(chk_block(c, fn, &(struct side){"buffer", "count", NULL, "datatype"}, buf, count, type,
                  &dt));
    rc = result(c, tern_inter_bcast(buf, (size_t)count, dt, root, role, c));
out:
    return rc;
}

/* Gather and scatter: the root's side is whole, the other group's one block. */
static int rooted_block(const char *fn, int gather, struct tern_comm *c, const void *sbuf,
                        MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                        MPI_Datatype rtype, int root)
{
    enum tern_inter_role role = TERN_INTER_IDLE;
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(chk_role(c, fn, root, &role));
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    if (role == TERN_INTER_ROOT ? gather : !gather)
        TRY(chk_block(c, fn, &RECV, rbuf, rcount, rtype, &rdt));
    else
        TRY(chk_block(c, fn, &SEND, sbuf, scount, stype, &sdt));
    if (gather)
        rc = tern_inter_gather(sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root, role, c);
    else
        rc = tern_inter_scatter(sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root, role,
                                c);
    rc = result(c, rc);
out:
    return rc;
}

int tern_inter_gather_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                           MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                           int root)
{
    return rooted_block(fn, 1, c, sbuf, scount, stype, rbuf, rcount, rtype, root);
}

int tern_inter_scatter_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                            MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                            int root)
{
    return rooted_block(fn, 0, c, sbuf, scount, stype, rbuf, rcount, rtype, root);
}

int tern_inter_gatherv_call(const char *fn, struct tern_comm *c, const void *sbuf, MPI_Count scount,
                            MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
                            MPI_Datatype rtype, int root)
{
    enum tern_inter_role role = TERN_INTER_IDLE;
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(chk_role(c, fn, root, &role));
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    if (role == TERN_INTER_ROOT)
        TRY(chk_vector(c, fn, &RECV, rbuf, rcounts, "displs", displs, rtype, &rdt));
    else
        TRY(chk_block(c, fn, &SEND, sbuf, scount, stype, &sdt));
    rc = result(c, tern_inter_gatherv(sbuf, (size_t)scount, sdt, rbuf, rcounts, displs, rdt, root,
                                      role, c));
out:
    return rc;
}

int tern_inter_scatterv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                             const int *scounts, const int *displs, MPI_Datatype stype, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rtype, int root)
{
    enum tern_inter_role role = TERN_INTER_IDLE;
    struct tern_datatype *sdt = NULL, *rdt = NULL;
    int rc;
    TRY(chk_role(c, fn, root, &role));
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    if (role == TERN_INTER_ROOT)
        TRY(chk_vector(c, fn, &SEND, sbuf, scounts, "displs", displs, stype, &sdt));
    else
        TRY(chk_block(c, fn, &RECV, rbuf, rcount, rtype, &rdt));
    rc = result(c, tern_inter_scatterv(sbuf, scounts, displs, sdt, rbuf, (size_t)rcount, rdt, root,
                                       role, c));
out:
    return rc;
}

/* The per-remote-rank (count, byte displacement, type) lists of one side
 * of the alltoall family. */
struct wside {
    size_t *counts;
    MPI_Aint *displs;
    struct tern_datatype **dts;
};

static int wside_alloc(struct tern_comm *c, const char *fn, struct wside *s)
{
    size_t n = (size_t)c->peer_size;
    s->counts = malloc(n * sizeof *s->counts + 1);
    s->displs = malloc(n * sizeof *s->displs + 1);
    s->dts = malloc(n * sizeof *s->dts + 1);
    if (s->counts && s->displs && s->dts) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for %zu ranks", fn, n);
}

static void wside_free(struct wside *s)
{
    free(s->counts);
    free(s->displs);
    free(s->dts);
}

/* counts == NULL: 'count' for every rank, blocks one after the other. */
static void wside_fill(struct wside *s, int n, const int *counts, MPI_Count count,
                       const int *displs, struct tern_datatype *dt)
{
    for (int i = 0; i < n; i++) {
        s->counts[i] = (size_t)(counts ? counts[i] : count);
        s->displs[i] = (MPI_Aint)(displs ? displs[i] : (MPI_Aint)i * count) * dt->extent;
        s->dts[i] = dt;
    }
}

static int alltoallw(struct tern_comm *c, const void *sbuf, struct wside *s, void *rbuf,
                     struct wside *r)
{
    return result(c, tern_inter_alltoallw(sbuf, s->counts, s->displs, s->dts, rbuf, r->counts,
                                          r->displs, r->dts, c));
}

int tern_inter_all_block_call(const char *fn, int gather, struct tern_comm *c, const void *sbuf,
                              MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                              MPI_Datatype rtype)
{
    struct tern_datatype *sdt, *rdt;
    struct wside s = {0}, r = {0};
    int rc, n = c->peer_size;
    TRY(chk_block(c, fn, &SEND, sbuf, scount, stype, &sdt));
    TRY(chk_block(c, fn, &RECV, rbuf, rcount, rtype, &rdt));
    if (gather) {
        rc = result(c, tern_inter_allgather(sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, c));
        goto out;
    }
    TRY(wside_alloc(c, fn, &s));
    TRY(wside_alloc(c, fn, &r));
    wside_fill(&s, n, NULL, scount, NULL, sdt);
    wside_fill(&r, n, NULL, rcount, NULL, rdt);
    rc = alltoallw(c, sbuf, &s, rbuf, &r);
out:
    wside_free(&s);
    wside_free(&r);
    return rc;
}

int tern_inter_allgatherv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                               MPI_Count scount, MPI_Datatype stype, void *rbuf, const int *rcounts,
                               const int *displs, MPI_Datatype rtype)
{
    struct tern_datatype *sdt, *rdt;
    int rc;
    TRY(chk_block(c, fn, &SEND, sbuf, scount, stype, &sdt));
    TRY(chk_vector(c, fn, &RECV, rbuf, rcounts, "displs", displs, rtype, &rdt));
    rc = result(c, tern_inter_allgatherv(sbuf, (size_t)scount, sdt, rbuf, rcounts, displs, rdt, c));
out:
    return rc;
}

int tern_inter_alltoallv_call(const char *fn, struct tern_comm *c, const void *sbuf,
                              const int *scounts, const int *sdispls, MPI_Datatype stype,
                              void *rbuf, const int *rcounts, const int *rdispls,
                              MPI_Datatype rtype)
{
    struct tern_datatype *sdt, *rdt;
    struct wside s = {0}, r = {0};
    int rc, n = c->peer_size;
    TRY(chk_vector(c, fn, &SEND, sbuf, scounts, "sdispls", sdispls, stype, &sdt));
    TRY(chk_vector(c, fn, &RECV, rbuf, rcounts, "rdispls", rdispls, rtype, &rdt));
    TRY(wside_alloc(c, fn, &s));
    TRY(wside_alloc(c, fn, &r));
    wside_fill(&s, n, scounts, 0, sdispls, sdt);
    wside_fill(&r, n, rcounts, 0, rdispls, rdt);
    rc = alltoallw(c, sbuf, &s, rbuf, &r);
out:
    wside_free(&s);
    wside_free(&r);
    return rc;
}

/* One side of alltoallw: counts, byte displacements and a datatype per
 * remote rank (any type where the count is 0; MPI_BYTE stands in). */
static int chk_wside(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     const int *counts, const char *displs_arg, const int *displs,
                     const char *types_arg, const MPI_Datatype *types, struct wside *w)
{
    int rc, n = c->peer_size;
    char name[48];
    if ((rc = tern_check_counts(c, fn, s->counts, counts, n, NULL))) return rc;
    if (!displs) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, displs_arg);
    if (!types) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, types_arg);
    if ((rc = chk_not_in_place(c, fn, s->buf, buf))) return rc;
    if ((rc = wside_alloc(c, fn, w))) return rc;
    for (int i = 0; i < n; i++) {
        w->counts[i] = (size_t)counts[i];
        w->displs[i] = displs[i];
        w->dts[i] = tern_dt_get(MPI_BYTE);
        if (counts[i] == 0) continue;
        snprintf(name, sizeof name, "%s[%d]", types_arg, i);
        if ((rc = tern_check_datatype(c, types[i], fn, name, &w->dts[i]))) return rc;
        if ((rc = tern_check_buffer(c, buf, counts[i], w->dts[i], fn, s->buf))) return rc;
    }
    return MPI_SUCCESS;
}

int tern_inter_alltoallw_call(const char *fn, struct tern_comm *c, const void *sbuf,
                              const int *scounts, const int *sdispls, const MPI_Datatype *stypes,
                              void *rbuf, const int *rcounts, const int *rdispls,
                              const MPI_Datatype *rtypes)
{
    struct wside s = {0}, r = {0};
    int rc;
    TRY(chk_wside(c, fn, &SEND, sbuf, scounts, "sdispls", sdispls, "sendtypes", stypes, &s));
    TRY(chk_wside(c, fn, &RECV, rbuf, rcounts, "rdispls", rdispls, "recvtypes", rtypes, &r));
    rc = alltoallw(c, sbuf, &s, rbuf, &r);
out:
    wside_free(&s);
    wside_free(&r);
    return rc;
}

/* count, datatype and op of the reductions. */
static int chk_reduction(struct tern_comm *c, const char *fn, long count, MPI_Datatype type,
                         MPI_Op op, struct tern_datatype **dt, struct tern_op **o)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, "datatype", dt))) return rc;
    return chk_op(c, fn, op, *dt, o);
}

/* A reduction buffer of n elements. */
static int chk_rbuf(struct tern_comm *c, const char *fn, const char *arg, const void *buf, long n,
                    struct tern_datatype *dt)
{
    int rc = chk_not_in_place(c, fn, arg, buf);
    return rc ? rc : tern_check_buffer(c, buf, n, dt, fn, arg);
}

int tern_inter_reduce_call(const char *fn, struct tern_comm *c, const void *sbuf, void *rbuf,
                           MPI_Count count, MPI_Datatype type, MPI_Op op, int root)
{
    enum tern_inter_role role = TERN_INTER_IDLE;
    struct tern_datatype *dt;
    struct tern_op *o;
    int rc;
    TRY(chk_role(c, fn, root, &role));
    if (role == TERN_INTER_IDLE) return MPI_SUCCESS;
    TRY(chk_reduction(c, fn, count, type, op, &dt, &o));
    if (role == TERN_INTER_ROOT)
        TRY(chk_rbuf(c, fn, "recvbuf", rbuf, count, dt));
    else
        TRY(chk_rbuf(c, fn, "sendbuf", sbuf, count, dt));
    rc = result(c, tern_inter_reduce(sbuf, rbuf, (size_t)count, dt, o, root, role, c));
out:
    return rc;
}

int tern_inter_allreduce_call(const char *fn, int allreduce, struct tern_comm *c, const void *sbuf,
                              void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    int rc;
    if (!allreduce) {
        char lb[64];
        return tern_err_comm(c, MPI_ERR_COMM,
                             "%s: %s is an intercommunicator; MPI defines this operation on "
                             "intracommunicators only",
                             fn, tern_comm_label(c, lb, sizeof lb));
    }
    TRY(chk_reduction(c, fn, count, type, op, &dt, &o));
    TRY(chk_rbuf(c, fn, "sendbuf", sbuf, count, dt));
    TRY(chk_rbuf(c, fn, "recvbuf", rbuf, count, dt));
    rc = result(c, tern_inter_allreduce(sbuf, rbuf, (size_t)count, dt, o, c));
out:
    return rc;
}

int tern_inter_reduce_scatter_call(const char *fn, struct tern_comm *c, const void *sbuf,
                                   void *rbuf, const int *rcounts, MPI_Count rcount,
                                   MPI_Datatype type, MPI_Op op)
{
    struct tern_datatype *dt;
    struct tern_op *o;
    int *counts = NULL, rc, n = c->size;
    size_t total;
    if (rcounts) {
        TRY(tern_check_counts(c, fn, "recvcounts", rcounts, n, &total));
    } else {
        TRY(tern_check_count(c, rcount, fn, "recvcount"));
        TRY(tern_count_fits_int(c, fn, "recvcount", rcount)); /* it becomes counts[] below */
        total = (size_t)rcount * (size_t)n;
    }
    TRY(chk_reduction(c, fn, 0, type, op, &dt, &o));
    TRY(chk_rbuf(c, fn, "sendbuf", sbuf, (long)total, dt));
    TRY(chk_rbuf(c, fn, "recvbuf", rbuf, rcounts ? rcounts[c->rank] : rcount, dt));
    if (!rcounts) {
        if (!(counts = malloc((size_t)n * sizeof *counts))) {
            rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for %d counts", fn, n);
            goto out;
        }
        for (int i = 0; i < n; i++)
            counts[i] = (int)rcount;
    }
    rc = result(c, tern_inter_reduce_scatter(sbuf, rbuf, rcounts ? rcounts : counts, dt, o, c));
out:
    free(counts);
    return rc;
}
