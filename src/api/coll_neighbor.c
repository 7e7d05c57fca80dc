/* The neighbourhood collectives' argument checks against the
 * communicator's neighbour counts, and the bodies that every form of each
 * collective shares (coll_neighbor.h); the entry points' bodies are in
 * coll_neighbor_api.c, the entry points generated
 * (src/api/gen/bindings_coll_neighbor_api.c).  MPI_IN_PLACE has no meaning for these calls and is
 * refused. */
#include <stdio.h>
#include <stdlib.h>

#include "api/check.h"
#include "api/coll_neighbor.h"
#include "api/topo_check.h"
#include "coll/neighbor.h"
#include "coll/sched.h"
#include "core/errors.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

/* The argument names of one side, for the messages. */
struct side {
    const char *buf, *count, *counts, *displs, *type, *types;
};
static const struct side SEND = {"sendbuf", "sendcount", "sendcounts",
                                 "sdispls", "sendtype",  "sendtypes"};
static const struct side RECV = {"recvbuf", "recvcount", "recvcounts",
                                 "rdispls", "recvtype",  "recvtypes"};

/* The communicator's topology (of any kind) and its neighbour counts. */
static int chk_topo(struct tern_comm *c, const char *fn, int *indeg, int *outdeg)
{
    struct tern_topo *t;
    int rc = tern_topo_require(c, 0, fn, &t);
    if (rc) return rc;
    *indeg = t->indeg;
    *outdeg = t->outdeg;
    return MPI_SUCCESS;
}

static int chk_not_in_place(struct tern_comm *c, const char *fn, const struct side *s,
                            const void *buf)
{
    if (buf != MPI_IN_PLACE) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_BUFFER,
                         "%s: %s is MPI_IN_PLACE, which neighbourhood collectives do not allow", fn,
                         s->buf);
}

static int chk_buf(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                   long total, const struct tern_datatype *dt)
{
    int rc = chk_not_in_place(c, fn, s, buf);
    return rc ? rc : tern_check_buffer(c, buf, total, dt, fn, s->buf);
}

/* (buf, count, type) repeated over n neighbours. */
static int chk_block(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                     MPI_Count count, MPI_Datatype type, int n, struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_count(c, count, fn, s->count))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    return chk_buf(c, fn, s, buf, (long)count * n, *dt);
}

/* counts[n], present and none negative; *total their sum. */
static int chk_counts(struct tern_comm *c, const char *fn, const struct side *s, const int *counts,
                      int n, long *total)
{
    int rc = tern_topo_chk_array(c, fn, s->counts, counts, n);
    long sum = 0;
    for (int i = 0; !rc && i < n; i++) {
        if (counts[i] < 0)
            return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s[%d]=%d is negative", fn, s->counts, i,
                                 counts[i]);
        sum += counts[i];
    }
    *total = sum;
    return rc;
}

/* (buf, counts[n], displs[n], type). */
static int chk_vector(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                      const int *counts, const void *displs, MPI_Datatype type, int n,
                      struct tern_datatype **dt)
{
    long total;
    int rc;
    if ((rc = chk_counts(c, fn, s, counts, n, &total))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, s->displs, displs, n))) return rc;
    if ((rc = tern_check_datatype(c, type, fn, s->type, dt))) return rc;
    return chk_buf(c, fn, s, buf, total, *dt);
}

/* (buf, counts[n], displs[n], types[n]); entries with count 0 may name any
 * type (MPI_DATATYPE_NULL is common) and move nothing. */
static int chk_w(struct tern_comm *c, const char *fn, const struct side *s, const void *buf,
                 const int *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n,
                 struct tern_datatype **dts)
{
    long total;
    int rc;
    char name[32];
    if ((rc = chk_counts(c, fn, s, counts, n, &total))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, s->displs, displs, n))) return rc;
    if ((rc = tern_topo_chk_array(c, fn, s->types, types, n))) return rc;
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0) {
            dts[i] = tern_dt_get(MPI_BYTE);
            continue;
        }
        snprintf(name, sizeof name, "%s[%d]", s->types, i);
        /* No buffer check: a NULL buffer is MPI_BOTTOM, and the byte
         * displacements may hold absolute addresses even for predefined
         * types. */
        if ((rc = tern_check_datatype(c, types[i], fn, name, &dts[i]))) return rc;
    }
    return chk_not_in_place(c, fn, s, buf);
}

/* The request argument of the nonblocking and persistent forms, then a
 * schedule for the call.  It takes the communicator's next collective tag:
 * only calls that passed every check take one, so all ranks count alike
 * (the blocking form counts too, since MPI orders it among the others). */
static int create(struct tern_comm *c, const char *fn, enum tern_nbr_mode mode,
                  MPI_Request *request, struct tern_sched **s)
{
    if (mode != TERN_NBR_BLOCKING && !request)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: request is NULL", fn);
    int rc = tern_sched_create(c, fn, s);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

/* Hands the built schedule ('rc': the builder's result) to its request; the
 * blocking form waits for it here.  Errors have gone through c's handler. */
static int finish(struct tern_comm *c, struct tern_sched *s, int rc, enum tern_nbr_mode mode,
                  MPI_Request *request)
{
    if (mode != TERN_NBR_BLOCKING)
        return tern_sched_post(s, rc, mode == TERN_NBR_PERSISTENT, request);
    MPI_Request h;
    if ((rc = tern_sched_post(s, rc, 0, &h))) return rc;
    rc = tern_wait(tern_req_get(h), MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

int tern_api_nbr_allgather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                           MPI_Request *request)
{
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc, indeg, outdeg;
    TRY(chk_topo(c, fn, &indeg, &outdeg));
    TRY(chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, 1, &sdt));
    TRY(chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, indeg, &rdt));
    TRY(create(c, fn, mode, request, &s));
    rc = finish(
        c, s,
        tern_nbr_allgather(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt),
        mode, request);
out:
    return rc;
}

int tern_api_nbr_allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, struct tern_vec recvcounts_v,
                            struct tern_vec displs_v, MPI_Datatype recvtype, struct tern_comm *c,
                            enum tern_nbr_mode mode, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *recvcounts = NULL, *displs = NULL;
    static const struct side recv_v = {"recvbuf", "recvcount", "recvcounts",
                                       "displs",  "recvtype",  "recvtypes"};
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc, indeg, outdeg;
    TRY(chk_topo(c, fn, &indeg, &outdeg));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, indeg, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "displs", displs_v, indeg, 1, &tmp, &displs));
    TRY(chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, 1, &sdt));
    TRY(chk_vector(c, fn, &recv_v, recvbuf, recvcounts, displs, recvtype, indeg, &rdt));
    TRY(create(c, fn, mode, request, &s));
    rc = finish(
        c, s,
        tern_nbr_allgatherv(s, sendbuf, (size_t)sendcount, sdt, recvbuf, recvcounts, displs, rdt),
        mode, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbr_alltoall(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                          MPI_Request *request)
{
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc, indeg, outdeg;
    TRY(chk_topo(c, fn, &indeg, &outdeg));
    TRY(chk_block(c, fn, &SEND, sendbuf, sendcount, sendtype, outdeg, &sdt));
    TRY(chk_block(c, fn, &RECV, recvbuf, recvcount, recvtype, indeg, &rdt));
    TRY(create(c, fn, mode, request, &s));
    rc = finish(
        c, s,
        tern_nbr_alltoall(s, sendbuf, (size_t)sendcount, sdt, recvbuf, (size_t)recvcount, rdt),
        mode, request);
out:
    return rc;
}

int tern_api_nbr_alltoallv(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                           struct tern_vec sdispls_v, MPI_Datatype sendtype, void *recvbuf,
                           struct tern_vec recvcounts_v, struct tern_vec rdispls_v,
                           MPI_Datatype recvtype, struct tern_comm *c, enum tern_nbr_mode mode,
                           MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *sdispls = NULL, *recvcounts = NULL, *rdispls = NULL;
    struct tern_datatype *sdt, *rdt;
    struct tern_sched *s;
    int rc, indeg, outdeg;
    TRY(chk_topo(c, fn, &indeg, &outdeg));
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, outdeg, 1, &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "sdispls", sdispls_v, outdeg, 1, &tmp, &sdispls));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, indeg, 1, &tmp, &recvcounts));
    TRY(tern_vec_ints(c, fn, "rdispls", rdispls_v, indeg, 1, &tmp, &rdispls));
    TRY(chk_vector(c, fn, &SEND, sendbuf, sendcounts, sdispls, sendtype, outdeg, &sdt));
    TRY(chk_vector(c, fn, &RECV, recvbuf, recvcounts, rdispls, recvtype, indeg, &rdt));
    TRY(create(c, fn, mode, request, &s));
    rc = finish(
        c, s,
        tern_nbr_alltoallv(s, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt),
        mode, request);
out:
    tern_vec_tmp_free(&tmp);
    return rc;
}

int tern_api_nbr_alltoallw(const char *fn, const void *sendbuf, struct tern_vec sendcounts_v,
                           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                           struct tern_vec recvcounts_v, const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], struct tern_comm *c,
                           enum tern_nbr_mode mode, MPI_Request *request)
{
    struct tern_vec_tmp tmp = TERN_VEC_TMP_INIT;
    const int *sendcounts = NULL, *recvcounts = NULL;
    struct tern_datatype **dts = NULL; /* receive types, then send types */
    struct tern_sched *s;
    int rc, indeg, outdeg;
    TRY(chk_topo(c, fn, &indeg, &outdeg));
    TRY(tern_vec_ints(c, fn, "sendcounts", sendcounts_v, outdeg, 1, &tmp, &sendcounts));
    TRY(tern_vec_ints(c, fn, "recvcounts", recvcounts_v, indeg, 1, &tmp, &recvcounts));
    dts = calloc((size_t)(indeg + outdeg ? indeg + outdeg : 1), sizeof *dts);
    if (!dts) {
        rc = tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory for %d datatypes", fn,
                           indeg + outdeg);
        goto out;
    }
    TRY(chk_w(c, fn, &SEND, sendbuf, sendcounts, sdispls, sendtypes, outdeg, dts + indeg));
    TRY(chk_w(c, fn, &RECV, recvbuf, recvcounts, rdispls, recvtypes, indeg, dts));
    TRY(create(c, fn, mode, request, &s));
    /* The schedule retains the types it uses: the array can go. */
    rc = finish(c, s,
                tern_nbr_alltoallw(s, sendbuf, sendcounts, sdispls, dts + indeg, recvbuf,
                                   recvcounts, rdispls, dts),
                mode, request);
out:
    tern_vec_tmp_free(&tmp);
    free(dts);
    return rc;
}
