/* The one-sided operations (MPI-4.1 12.3): put, get, the accumulates and
 * their request-based forms.  rma/ does each at once (the origin moves the
 * data itself), so the request of MPI_Rput and its kin is complete when
 * the call returns. */
#include "api/check.h"
#include "api/win_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "msg/request.h"
#include "msg/status.h"
#include "rma/win.h"
#include "rma/win_fast.h"

/* One side's buffer: a count that is not negative and a committed type. */
static int check_side(struct tern_win *w, const char *fn, MPI_Count count, MPI_Datatype h,
                      const char *cname, const char *tname, struct tern_datatype **dt)
{
    if (count < 0)
        return tern_win_err(w, MPI_ERR_COUNT, "%s: %s=%lld is negative", fn, cname,
                            (long long)count);
    int rc = tern_dt_check(h, fn, tname, dt);
    return rc ? tern_win_raise(w, rc) : MPI_SUCCESS;
}

/* A completed request for an operation the origin has finished (across
 * hosts: once the target has applied it). */
static int done_request(struct tern_win *w, const char *fn, int rank, MPI_Request *request)
{
    if (!request) return tern_win_err(w, MPI_ERR_ARG, "%s: request is NULL", fn);
    int rc = tern_win_op_done(fn, w, rank);
    if (rc) return rc;
    struct tern_request *r = tern_req_alloc(TERN_REQ_RMA);
    if (!r) return tern_win_err(w, MPI_ERR_NO_MEM, "%s: out of memory for a request", fn);
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    tern_req_complete(r);
    *request = r->handle;
    return MPI_SUCCESS;
}

enum kind { PUT, GET };

/* The type of a call whose two sides are 'count' elements of one
 * predefined type; NULL when the call must take the general path. */
static inline const struct tern_datatype *fast_type(int ocount, MPI_Datatype odt, int tcount,
                                                    MPI_Datatype tdt)
{
    if (odt != tdt || ocount != tcount || ocount <= 0) return NULL;
    const struct tern_datatype *d = tern_dt_get_basic(odt);
    return d && d->contig && d->size ? d : NULL;
}
static inline size_t fast_bytes(int ocount, MPI_Datatype odt, int tcount, MPI_Datatype tdt)
{
    const struct tern_datatype *d = fast_type(ocount, odt, tcount, tdt);
    return d ? (size_t)ocount * d->size : 0;
}

static int put_get(const char *fn, enum kind k, const void *obuf, MPI_Count ocount,
                   MPI_Datatype odt, int rank, MPI_Aint disp, MPI_Count tcount, MPI_Datatype tdt,
                   MPI_Win win, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    struct tern_datatype *o, *t;
    int rc = tern_check_win(win, fn, &w);
    if (!rc) rc = check_side(w, fn, ocount, odt, "origin_count", "origin_datatype", &o);
    if (!rc) rc = check_side(w, fn, tcount, tdt, "target_count", "target_datatype", &t);
    if (!rc) {
        struct tern_rma_side s = {obuf, (size_t)ocount, o};
        rc = k == PUT ? tern_win_put(fn, w, s, rank, disp, (size_t)tcount, t)
                      : tern_win_get(fn, w, s, rank, disp, (size_t)tcount, t);
    }
    if (!rc && request) rc = done_request(w, fn, rank, request);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win)
{
    struct tern_win *w = tern_win_fast_lookup(win);
    size_t n = fast_bytes(origin_count, origin_datatype, target_count, target_datatype);
    if (w && n && tern_win_put_fast(w, origin_addr, n, target_rank, target_disp))
        return MPI_SUCCESS;
    return put_get("MPI_Put", PUT, origin_addr, origin_count, origin_datatype, target_rank,
                   target_disp, target_count, target_datatype, win, NULL);
}

TERN_WEAK_ALIAS(MPI_Put_c)
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return put_get("MPI_Put_c", PUT, origin_addr, origin_count, origin_datatype, target_rank,
                   target_disp, target_count, target_datatype, win, NULL);
}

TERN_WEAK_ALIAS(MPI_Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    struct tern_win *w = tern_win_fast_lookup(win);
    size_t n = fast_bytes(origin_count, origin_datatype, target_count, target_datatype);
    if (w && n && tern_win_get_fast(w, origin_addr, n, target_rank, target_disp))
        return MPI_SUCCESS;
    return put_get("MPI_Get", GET, origin_addr, origin_count, origin_datatype, target_rank,
                   target_disp, target_count, target_datatype, win, NULL);
}

TERN_WEAK_ALIAS(MPI_Get_c)
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return put_get("MPI_Get_c", GET, origin_addr, origin_count, origin_datatype, target_rank,
                   target_disp, target_count, target_datatype, win, NULL);
}

static int rput_get(const char *fn, enum kind k, const void *obuf, MPI_Count ocount,
                    MPI_Datatype odt, int rank, MPI_Aint disp, MPI_Count tcount, MPI_Datatype tdt,
                    MPI_Win win, MPI_Request *request)
{
    if (!request) {
        TERN_REQUIRE_INIT(fn);
        tern_lock();
        struct tern_win *w = NULL;
        int rc = tern_check_win(win, fn, &w);
        if (!rc) rc = tern_win_err(w, MPI_ERR_ARG, "%s: request is NULL", fn);
        tern_unlock();
        return rc;
    }
    return put_get(fn, k, obuf, ocount, odt, rank, disp, tcount, tdt, win, request);
}

TERN_WEAK_ALIAS(MPI_Rput)
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request)
{
    return rput_get("MPI_Rput", PUT, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request);
}

TERN_WEAK_ALIAS(MPI_Rput_c)
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return rput_get("MPI_Rput_c", PUT, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request);
}

TERN_WEAK_ALIAS(MPI_Rget)
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return rput_get("MPI_Rget", GET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request);
}

TERN_WEAK_ALIAS(MPI_Rget_c)
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return rput_get("MPI_Rget_c", GET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request);
}

/* ---- accumulates ---- */

struct acc_args {
    const void *obuf;
    MPI_Count ocount;
    MPI_Datatype odt;
    void *rbuf; /* NULL: no result (MPI_Accumulate) */
    MPI_Count rcount;
    MPI_Datatype rdt;
    int rank;
    MPI_Aint disp;
    MPI_Count tcount;
    MPI_Datatype tdt;
    MPI_Op op;
};

static int accumulate(const char *fn, int with_result, const struct acc_args *a, MPI_Win win,
                      int want_request, MPI_Request *request)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    struct tern_datatype *o = NULL, *r = NULL, *t = NULL;
    int rc = tern_check_win(win, fn, &w);
    /* MPI_NO_OP ignores the origin buffer and its type (MPI-4.1 12.3.4). */
    if (!rc && a->op != MPI_NO_OP)
        rc = check_side(w, fn, a->ocount, a->odt, "origin_count", "origin_datatype", &o);
    if (!rc && with_result)
        rc = check_side(w, fn, a->rcount, a->rdt, "result_count", "result_datatype", &r);
    if (!rc) rc = check_side(w, fn, a->tcount, a->tdt, "target_count", "target_datatype", &t);
    if (!rc && want_request && !request)
        rc = tern_win_err(w, MPI_ERR_ARG, "%s: request is NULL", fn);
    if (!rc) {
        struct tern_rma_side os = {a->obuf, o ? (size_t)a->ocount : 0, o};
        struct tern_rma_side rs = {with_result ? a->rbuf : NULL, (size_t)a->rcount, r};
        rc = tern_win_accumulate(fn, w, os, rs, a->rank, a->disp, (size_t)a->tcount, t, a->op);
    }
    if (!rc && want_request) rc = done_request(w, fn, a->rank, request);
    tern_unlock();
    return rc;
}

#define ACC_ARGS                                                                             \
    {                                                                                        \
        origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank, \
            target_disp, target_count, target_datatype, op                                   \
    }
#define GACC_ARGS                                                                               \
    {                                                                                           \
        origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, \
            target_rank, target_disp, target_count, target_datatype, op                         \
    }

TERN_WEAK_ALIAS(MPI_Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    struct tern_win *w = tern_win_fast_lookup(win);
    const struct tern_datatype *d =
        fast_type(origin_count, origin_datatype, target_count, target_datatype);
    if (w && d &&
        tern_win_acc_fast(w, origin_addr, NULL, (size_t)origin_count, d, target_rank, target_disp,
                          op))
        return MPI_SUCCESS;
    struct acc_args a = ACC_ARGS;
    return accumulate("MPI_Accumulate", 0, &a, win, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    struct acc_args a = ACC_ARGS;
    return accumulate("MPI_Accumulate_c", 0, &a, win, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Raccumulate)
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    struct acc_args a = ACC_ARGS;
    return accumulate("MPI_Raccumulate", 0, &a, win, 1, request);
}

TERN_WEAK_ALIAS(MPI_Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request)
{
    struct acc_args a = ACC_ARGS;
    return accumulate("MPI_Raccumulate_c", 0, &a, win, 1, request);
}

TERN_WEAK_ALIAS(MPI_Get_accumulate)
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    struct tern_win *w = tern_win_fast_lookup(win);
    const struct tern_datatype *d =
        fast_type(result_count, result_datatype, target_count, target_datatype);
    if (w && d &&
        (op == MPI_NO_OP || (origin_count == target_count && origin_datatype == target_datatype)) &&
        tern_win_acc_fast(w, origin_addr, result_addr, (size_t)target_count, d, target_rank,
                          target_disp, op))
        return MPI_SUCCESS;
    struct acc_args a = GACC_ARGS;
    return accumulate("MPI_Get_accumulate", 1, &a, win, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Get_accumulate_c)
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    struct acc_args a = GACC_ARGS;
    return accumulate("MPI_Get_accumulate_c", 1, &a, win, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Rget_accumulate)
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    struct acc_args a = GACC_ARGS;
    return accumulate("MPI_Rget_accumulate", 1, &a, win, 1, request);
}

TERN_WEAK_ALIAS(MPI_Rget_accumulate_c)
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    struct acc_args a = GACC_ARGS;
    return accumulate("MPI_Rget_accumulate_c", 1, &a, win, 1, request);
}

TERN_WEAK_ALIAS(MPI_Fetch_and_op)
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    struct tern_win *w = tern_win_fast_lookup(win);
    const struct tern_datatype *d = tern_dt_get_basic(datatype);
    if (w && d &&
        tern_win_acc_fast(w, origin_addr, result_addr, 1, d, target_rank, target_disp, op))
        return MPI_SUCCESS;
    struct acc_args a = {origin_addr, 1,           datatype, result_addr, 1, datatype,
                         target_rank, target_disp, 1,        datatype,    op};
    return accumulate("MPI_Fetch_and_op", 1, &a, win, 0, NULL);
}

TERN_WEAK_ALIAS(MPI_Compare_and_swap)
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    static const char fn[] = "MPI_Compare_and_swap";
    struct tern_win *fw = tern_win_fast_lookup(win);
    const struct tern_datatype *d = tern_dt_get_basic(datatype);
    if (fw && d &&
        tern_win_cas_fast(fw, origin_addr, compare_addr, result_addr, d, target_rank, target_disp))
        return MPI_SUCCESS;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    struct tern_datatype *dt;
    int rc = tern_check_win(win, fn, &w);
    if (!rc) rc = check_side(w, fn, 1, datatype, "count", "datatype", &dt);
    if (!rc && (!origin_addr || !compare_addr || !result_addr))
        rc = tern_win_err(w, MPI_ERR_BUFFER, "%s: %s is NULL", fn,
                          !origin_addr    ? "origin_addr"
                          : !compare_addr ? "compare_addr"
                                          : "result_addr");
    if (!rc)
        rc = tern_win_cas(fn, w, origin_addr, compare_addr, result_addr, dt, target_rank,
                          target_disp);
    tern_unlock();
    return rc;
}
