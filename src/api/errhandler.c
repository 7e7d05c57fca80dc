/* MPI error handler entry points for communicators (creating, setting,
 * freeing).  How a handler runs when an error happens is core/errors.c. */
#include "api/check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/objects.h"
#include "core/state.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if ((rc = (expr)) != MPI_SUCCESS) goto out;                                                \
    } while (0)

static int chk_errh(struct tern_comm *c, const char *fn, const char *arg, MPI_Errhandler h,
                    struct tern_errhandler **out)
{
    if (h == MPI_ERRHANDLER_NULL)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: %s is MPI_ERRHANDLER_NULL", fn, arg);
    *out = tern_errh_get(h);
    if (!*out)
        return tern_err_comm(c, MPI_ERR_ARG, "%s: %s=0x%x is not a valid error handler", fn, arg,
                             (unsigned)h);
    return MPI_SUCCESS;
}

static int create_errh(const char *fn, MPI_Comm_errhandler_function *f, MPI_Errhandler *errhandler)
{
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    if (!f) {
        rc = tern_err_comm(NULL, MPI_ERR_ARG, "%s: comm_errhandler_fn is NULL", fn);
        goto out;
    }
    TRY(tern_check_ptr(NULL, errhandler, fn, "errhandler"));
    struct tern_errhandler *e = tern_errh_create_comm(f);
    if (!e) {
        rc = tern_err_comm(NULL, MPI_ERR_NO_MEM, "%s: out of memory for an error handler", fn);
        goto out;
    }
    *errhandler = e->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return create_errh("MPI_Comm_create_errhandler", comm_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_create)
int PMPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn,
                           MPI_Errhandler *errhandler)
{
    return create_errh("MPI_Errhandler_create", comm_errhandler_fn, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Errhandler_free";
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_check_ptr(NULL, errhandler, fn, "errhandler"));
    TRY(chk_errh(NULL, fn, "*errhandler", *errhandler, &e));
    /* Communicators using it keep their references; predefined handlers
     * are never destroyed. */
    tern_errh_release(e);
    *errhandler = MPI_ERRHANDLER_NULL;
out:
    tern_unlock();
    return rc;
}

static int set_errh(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct tern_comm *c;
    struct tern_errhandler *e;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(chk_errh(c, fn, "errhandler", errhandler, &e));
    tern_errh_retain(e);
    tern_errh_release(c->errh);
    c->errh = e;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errh("MPI_Comm_set_errhandler", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errh("MPI_Errhandler_set", comm, errhandler);
}

static int get_errh(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    TRY(tern_check_ptr(c, errhandler, fn, "errhandler"));
    /* The caller gets a new reference, to free with MPI_Errhandler_free. */
    tern_errh_retain(c->errh);
    *errhandler = c->errh->handle;
out:
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errh("MPI_Comm_get_errhandler", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errh("MPI_Errhandler_get", comm, errhandler);
}

TERN_WEAK_ALIAS(MPI_Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    static const char fn[] = "MPI_Comm_call_errhandler";
    struct tern_comm *c;
    int rc;
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    TRY(tern_comm_check(comm, fn, "comm", &c));
    tern_err_raise(c, errorcode);
    /* MPI: returns MPI_SUCCESS when the handler returns. */
    rc = MPI_SUCCESS;
out:
    tern_unlock();
    return rc;
}
