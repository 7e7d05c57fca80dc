/* Windows and one-sided communication (MPI-4.1 chapter 12): the entry
 * points check their arguments and call rma/ (win.h says how windows
 * work).  Errors of a call on a valid window go to the window's handler;
 * an invalid window handle, and errors of the creation calls, to the
 * communicator's (MPI_COMM_WORLD's when it has none).  The error-handler,
 * attribute and info calls on windows live with their kind, in
 * errhandler.c, attr.c and info.c. */
#include <string.h>

#include "api/check.h"
#include "api/win_check.h"
#include "core/api.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/state.h"
#include "msg/request.h"
#include "msg/status.h"
#include "rma/win.h"

int tern_check_win(MPI_Win h, const char *fn, struct tern_win **out)
{
    struct tern_win *w = h == MPI_WIN_NULL ? NULL : tern_win_lookup(h);
    if (w) {
        *out = w;
        return MPI_SUCCESS;
    }
    return h == MPI_WIN_NULL ? tern_err_comm(NULL, MPI_ERR_WIN, "%s: win is MPI_WIN_NULL", fn)
                             : tern_err_comm(NULL, MPI_ERR_WIN,
                                             "%s: win=0x%x is not a window (freed, or never made)",
                                             fn, (unsigned)h);
}

/* ---- creation ---- */

static int check_comm_intra(const char *fn, MPI_Comm comm, struct tern_comm **c)
{
    int rc = tern_check_comm(comm, fn, c);
    if (rc == MPI_SUCCESS && (*c)->is_inter)
        rc = tern_err_comm(*c, MPI_ERR_COMM, "%s: comm is an intercommunicator", fn);
    return rc;
}

static int check_create(const char *fn, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Comm comm, const void *out, struct tern_comm **c, struct tern_info **io)
{
    int rc = check_comm_intra(fn, comm, c);
    if (rc) return rc;
    if (size < 0)
        return tern_err_comm(*c, MPI_ERR_SIZE, "%s: size=%lld is negative", fn, (long long)size);
    if (disp_unit <= 0 || disp_unit > 0x7fffffff)
        return tern_err_comm(*c, MPI_ERR_DISP, "%s: disp_unit=%lld is not positive", fn,
                             (long long)disp_unit);
    if ((rc = tern_info_check(info, 1, fn, "info", *c, io))) return rc;
    return tern_check_ptr(*c, out, fn, "win");
}

static int create(const char *fn, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                  MPI_Comm comm, MPI_Win *win)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_comm *c = NULL;
    struct tern_info *io = NULL;
    struct tern_win *w = NULL;
    int rc = check_create(fn, size, disp_unit, info, comm, win, &c, &io);
    if (!rc && size > 0 && !base)
        rc = tern_err_comm(c, MPI_ERR_BASE, "%s: base is NULL with size=%lld", fn, (long long)size);
    if (!rc) rc = tern_win_create(fn, base, size, (int)disp_unit, io, c, &w);
    if (!rc) *win = w->handle;
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return create("MPI_Win_create", base, size, disp_unit, info, comm, win);
}

TERN_WEAK_ALIAS(MPI_Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win)
{
    return create("MPI_Win_create_c", base, size, disp_unit, info, comm, win);
}

static int allocate(const char *fn, int flavor, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_comm *c = NULL;
    struct tern_info *io = NULL;
    struct tern_win *w = NULL;
    int rc = check_create(fn, size, disp_unit, info, comm, win, &c, &io);
    if (!rc) rc = tern_check_ptr(c, baseptr, fn, "baseptr");
    if (!rc) rc = tern_win_allocate(fn, flavor, size, (int)disp_unit, io, c, baseptr, &w);
    if (!rc) *win = w->handle;
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    return allocate("MPI_Win_allocate", MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit, info, comm,
                    baseptr, win);
}

TERN_WEAK_ALIAS(MPI_Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
    return allocate("MPI_Win_allocate_c", MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit, info, comm,
                    baseptr, win);
}

TERN_WEAK_ALIAS(MPI_Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    return allocate("MPI_Win_allocate_shared", MPI_WIN_FLAVOR_SHARED, size, disp_unit, info, comm,
                    baseptr, win);
}

TERN_WEAK_ALIAS(MPI_Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win)
{
    return allocate("MPI_Win_allocate_shared_c", MPI_WIN_FLAVOR_SHARED, size, disp_unit, info, comm,
                    baseptr, win);
}

TERN_WEAK_ALIAS(MPI_Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    static const char fn[] = "MPI_Win_create_dynamic";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_comm *c = NULL;
    struct tern_info *io = NULL;
    struct tern_win *w = NULL;
    int rc = check_create(fn, 0, 1, info, comm, win, &c, &io);
    if (!rc) rc = tern_win_create_dynamic(fn, io, c, &w);
    if (!rc) *win = w->handle;
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char fn[] = "MPI_Win_attach";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && size < 0)
        rc = tern_win_err(w, MPI_ERR_SIZE, "%s: size=%lld is negative", fn, (long long)size);
    if (!rc && size > 0 && !base)
        rc = tern_win_err(w, MPI_ERR_BASE, "%s: base is NULL with size=%lld", fn, (long long)size);
    if (!rc) rc = tern_win_attach(fn, w, base, size);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char fn[] = "MPI_Win_detach";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc) rc = tern_win_detach(fn, w, base);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    static const char fn[] = "MPI_Win_free";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_ptr(NULL, win, fn, "win");
    if (!rc) rc = tern_check_win(*win, fn, &w);
    if (!rc) rc = tern_win_free(fn, w);
    if (!rc) *win = MPI_WIN_NULL;
    tern_unlock();
    return rc;
}

static int shared_query(const char *fn, MPI_Win win, int rank, MPI_Aint *size, void *disp_unit,
                        int big, void *baseptr)
{
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        rc = tern_win_err(w, MPI_ERR_RANK, "%s: rank=%d is not a rank of the window (size %d)", fn,
                          rank, w->size);
    if (!rc && (!size || !disp_unit || !baseptr))
        rc = tern_win_err(w, MPI_ERR_ARG, "%s: %s is NULL", fn,
                          !size        ? "size"
                          : !disp_unit ? "disp_unit"
                                       : "baseptr");
    if (!rc) {
        /* MPI_PROC_NULL: the first rank with memory (MPI-4.1 12.2.3). */
        int r = rank;
        if (r == MPI_PROC_NULL)
            for (r = 0; r < w->size - 1 && w->peer[r].size == 0; r++) continue;
        const struct tern_win_peer *p = &w->peer[r];
        /* Memory this process cannot load and store (another rank's user
         * memory, unless it came from MPI_Alloc_mem) is reported empty, as
         * MPI-4.1 12.2.3 says. */
        int reach = p->local && (r == w->rank || tern_win_mapped(w));
        *size = reach ? p->size : 0;
        if (big)
            *(MPI_Aint *)disp_unit = p->disp_unit;
        else
            *(int *)disp_unit = p->disp_unit;
        *(void **)baseptr = reach && p->size ? p->local : NULL;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    return shared_query("MPI_Win_shared_query", win, rank, size, disp_unit, 0, baseptr);
}

TERN_WEAK_ALIAS(MPI_Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, 1, baseptr);
}

TERN_WEAK_ALIAS(MPI_Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char fn[] = "MPI_Win_get_group";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && !group) rc = tern_win_err(w, MPI_ERR_ARG, "%s: group is NULL", fn);
    if (!rc) {
        tern_group_retain(w->group);
        rc = tern_group_publish(w->group, group);
        if (rc) rc = tern_win_err(w, rc, "%s: out of memory", fn);
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char fn[] = "MPI_Win_get_name";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    /* MPI-4.1 names the null handle too, and MPICH answers it: mpi4py asks. */
    int rc = win == MPI_WIN_NULL ? MPI_SUCCESS : tern_check_win(win, fn, &w);
    if (rc == MPI_SUCCESS) rc = tern_check_ptr(NULL, win_name, fn, "win_name");
    if (rc == MPI_SUCCESS) rc = tern_check_ptr(NULL, resultlen, fn, "resultlen");
    if (rc == MPI_SUCCESS) {
        const char *name = w ? w->name : "MPI_WIN_NULL";
        size_t n = strlen(name);
        memcpy(win_name, name, n + 1);
        *resultlen = (int)n;
    }
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    static const char fn[] = "MPI_Win_set_name";
    TERN_REQUIRE_INIT(fn);
    tern_lock();
    struct tern_win *w = NULL;
    int rc = tern_check_win(win, fn, &w);
    if (!rc && !win_name) rc = tern_win_err(w, MPI_ERR_ARG, "%s: win_name is NULL", fn);
    if (!rc) {
        size_t n = strnlen(win_name, MPI_MAX_OBJECT_NAME - 1);
        memcpy(w->name, win_name, n);
        w->name[n] = '\0';
    }
    tern_unlock();
    return rc;
}
