#include "api/check.h"

#include "core/errors.h"
#include "core/handle.h"

int tern_check_comm(MPI_Comm h, const char *fn, struct tern_comm **out)
{
    struct tern_comm *c = tern_comm_get(h);
    if (__builtin_expect(c != NULL, 1)) {
        *out = c;
        return MPI_SUCCESS;
    }
    if (h == MPI_COMM_NULL)
        return tern_err_comm(NULL, MPI_ERR_COMM, "%s: comm is MPI_COMM_NULL", fn);
    return tern_err_comm(NULL, MPI_ERR_COMM,
                         "%s: comm=0x%x is not a communicator (freed, or never created)%s", fn,
                         (unsigned)h, tern_comm_absent_note(h));
}

int tern_check_count(struct tern_comm *c, long count, const char *fn, const char *arg)
{
    if (__builtin_expect(count >= 0, 1)) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s=%ld must not be negative", fn, arg, count);
}

/* Point-to-point ranks name the remote group on an intercommunicator. */
static int bad_rank(struct tern_comm *c, int rank, const char *fn, const char *arg,
                    const char *extra)
{
    char label[64];
    int n = c->peer_size;
    return tern_err_comm(
        c, MPI_ERR_RANK, "%s: %s=%d is not a rank of %s%s, which has %d rank%s (valid: 0..%d%s)",
        fn, arg, rank, c->is_inter ? "the remote group of " : "",
        tern_comm_label(c, label, sizeof label), n, n == 1 ? "" : "s", n - 1, extra);
}

int tern_check_dest(struct tern_comm *c, int rank, const char *fn, const char *arg)
{
    if (__builtin_expect((unsigned)rank < (unsigned)c->peer_size || rank == MPI_PROC_NULL, 1))
        return MPI_SUCCESS;
    return bad_rank(c, rank, fn, arg, " or MPI_PROC_NULL");
}

int tern_check_source(struct tern_comm *c, int rank, const char *fn, const char *arg)
{
    if (__builtin_expect((unsigned)rank < (unsigned)c->peer_size || rank == MPI_PROC_NULL ||
                             rank == MPI_ANY_SOURCE,
                         1))
        return MPI_SUCCESS;
    return bad_rank(c, rank, fn, arg, ", MPI_ANY_SOURCE or MPI_PROC_NULL");
}

int tern_check_send_tag(struct tern_comm *c, int tag, const char *fn)
{
    if (__builtin_expect(tag >= 0, 1)) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_TAG,
                         "%s: tag=%d is not valid for a send (valid: 0..%d, MPI_TAG_UB)", fn, tag,
                         TERN_TAG_UB);
}

int tern_check_recv_tag(struct tern_comm *c, int tag, const char *fn)
{
    if (__builtin_expect(tag >= 0 || tag == MPI_ANY_TAG, 1)) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_TAG, "%s: tag=%d is not valid (valid: 0..%d or MPI_ANY_TAG)",
                         fn, tag, TERN_TAG_UB);
}

int tern_check_datatype(struct tern_comm *c, MPI_Datatype h, const char *fn, const char *arg,
                        struct tern_datatype **out)
{
    int rc = tern_dt_check(h, fn, arg, out);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

int tern_check_type_valid(struct tern_comm *c, MPI_Datatype h, const char *fn, const char *arg,
                          struct tern_datatype **out)
{
    int rc = tern_dt_check_valid(h, fn, arg, out);
    return rc == MPI_SUCCESS ? rc : tern_err_raise(c, rc);
}

int tern_check_buffer(struct tern_comm *c, const void *buf, long count,
                      const struct tern_datatype *dt, const char *fn, const char *arg)
{
    if (__builtin_expect(buf != NULL || count == 0 || !dt->predefined || dt->size == 0, 1))
        return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_BUFFER, "%s: %s is NULL but count=%ld", fn, arg, count);
}

int tern_check_ptr(struct tern_comm *c, const void *p, const char *fn, const char *arg)
{
    if (__builtin_expect(p != NULL, 1)) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

int tern_check_counts(struct tern_comm *c, const char *fn, const char *arg, const int *a, int n,
                      size_t *sum)
{
    size_t s = 0;
    if (!a && n > 0) return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    for (int i = 0; i < n; i++) {
        if (a[i] < 0)
            return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s[%d]=%d is negative", fn, arg, i, a[i]);
        s += (size_t)a[i];
    }
    if (sum) *sum = s;
    return MPI_SUCCESS;
}

int tern_check_send_args(const char *fn, const void *buf, long count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm, struct tern_comm **c,
                         struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_comm(comm, fn, c))) return rc;
    if ((rc = tern_check_count(*c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(*c, datatype, fn, "datatype", dt))) return rc;
    if ((rc = tern_check_buffer(*c, buf, count, *dt, fn, "buf"))) return rc;
    if ((rc = tern_check_dest(*c, dest, fn, "dest"))) return rc;
    return tern_check_send_tag(*c, tag, fn);
}

int tern_check_recv_args(const char *fn, const void *buf, long count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm, struct tern_comm **c,
                         struct tern_datatype **dt)
{
    int rc;
    if ((rc = tern_check_comm(comm, fn, c))) return rc;
    if ((rc = tern_check_count(*c, count, fn, "count"))) return rc;
    if ((rc = tern_check_datatype(*c, datatype, fn, "datatype", dt))) return rc;
    if ((rc = tern_check_buffer(*c, buf, count, *dt, fn, "buf"))) return rc;
    if ((rc = tern_check_source(*c, source, fn, "source"))) return rc;
    return tern_check_recv_tag(*c, tag, fn);
}
