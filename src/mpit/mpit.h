/* The MPI tool information interface (MPI-4.1 chapter 15), internal view.
 *
 * MPI_T calls may come before MPI_Init, after MPI_Finalize and from any
 * thread, so they have their own lock and reference count, independent of
 * the MPI library's state.  They never invoke an error handler: each returns
 * MPI_SUCCESS or one of the MPI_T_ERR_* classes as is, which tools compare
 * with the constants directly.
 *
 *   mpit.c      MPI_T_init_thread / MPI_T_finalize, the lock, strings
 *   cvar.c      control variables: the parameters of src/core/params.def
 *   enum.c      enumerations: parameters with a fixed set of words
 *   pvar.c      performance variables: the counters of src/core/pvars.h
 *   session.c   performance experiment sessions and pvar handles
 *   category.c  categories: parameter groups and pvar groups
 *   event.c     events and event sources (Tern has none) */
#ifndef TERN_MPIT_MPIT_H
#define TERN_MPIT_MPIT_H

#include <mpi.h>
#include <stdint.h>

/* Number of parameters in params.def, as a constant expression. */
enum {
    TERN_T_NPARAM =
#define TERN_PARAM(...) 1 +
#include "core/params.def"
#undef TERN_PARAM
        0
};

/* ---- mpit.c ---- */

/* Takes the MPI_T lock (and the library's big lock under
 * MPI_THREAD_MULTIPLE, so counters and parameters hold still); returns
 * what tern_t_leave needs. */
int tern_t_enter(void);
void tern_t_leave(int token);
int tern_t_initialized(void);

/* The body of every MPI_T entry point but init and finalize: locked, and
 * MPI_T_ERR_NOT_INITIALIZED outside MPI_T_init_thread/MPI_T_finalize. */
#define TERN_T_CALL(expr)                                                    \
    do {                                                                     \
        int token_ = tern_t_enter();                                         \
        int rc_ = tern_t_initialized() ? (expr) : MPI_T_ERR_NOT_INITIALIZED; \
        tern_t_leave(token_);                                                \
        return rc_;                                                          \
    } while (0)

/* Returns a string by the standard's convention: nothing when len is NULL;
 * only the length (with the terminating null) when buf is NULL or *len is
 * 0; otherwise at most *len - 1 characters and a null, and *len is set to
 * what was written, null included. */
void tern_t_string(const char *s, char *buf, int *len);

/* Stores v through p when p is not NULL (optional get_info outputs). */
#define TERN_T_OUT(p, v)   \
    do {                   \
        if (p) *(p) = (v); \
    } while (0)

/* ---- cvar.c ---- */
void tern_t_cvars_finalize(void);

/* ---- enum.c ---- */
/* The enumeration of parameter i, or MPI_T_ENUM_NULL when it has no choices. */
MPI_T_enum tern_t_enum_of_param(int i);

/* ---- pvar.c ---- */
enum tern_t_pvar_kind { TERN_T_PV_COUNTER, TERN_T_PV_LEVEL, TERN_T_PV_HWM };

struct tern_t_pvar {
    const char *name, *desc;
    enum tern_t_pvar_kind kind;
    int continuous;        /* active from handle allocation, cannot be stopped */
    int group;             /* TERN_T_PVAR_GROUP_* */
    uint64_t (*now)(void); /* the counter, level or peak as it is now */
    /* HWM only: the process-wide peak that a reset lowers, and the level it
     * restarts from (NULL: from 0). */
    uint64_t *peak;
    const uint64_t *level;
};
enum {
    TERN_T_PVAR_GROUP_TRANSPORT,
    TERN_T_PVAR_GROUP_MATCHING,
    TERN_T_PVAR_GROUP_IO,
    TERN_T_PVAR_GROUP_THREADS,
    TERN_T_PVAR_GROUP_COLL,
    TERN_T_PVAR_GROUP_RMA,
    TERN_T_NPVAR_GROUPS
};
struct tern_t_pvar_group {
    const char *name, *desc;
};
extern const struct tern_t_pvar tern_t_pvars[];
extern const int tern_t_npvars;
extern const struct tern_t_pvar_group tern_t_pvar_groups[TERN_T_NPVAR_GROUPS];
int tern_t_pvar_class(const struct tern_t_pvar *v);
int tern_t_pvar_readonly(const struct tern_t_pvar *v);

/* ---- session.c ---- */
void tern_t_sessions_finalize(void);

/* ---- category.c ---- */
/* MPI_T_VERBOSITY_* of parameter i (that of its group). */
int tern_t_param_verbosity(int i);

#endif
