/* Argument checks shared by the MPI entry points.  Each returns
 * MPI_SUCCESS or an error code that has already gone through the error
 * handler (so the caller just returns it).  The message names the call,
 * the argument and the bad value. */
#ifndef TERN_API_CHECK_H
#define TERN_API_CHECK_H

#include <mpi.h>
#include <stddef.h>

#include "core/objects.h"
#include "datatype/datatype.h"

/* Runs one check of an entry point whose body ends at the label 'out'
 * (which releases what the body holds, the lock included): on an error the
 * code is kept in the caller's 'rc' and the body is left. */
#define TRY(expr)                                   \
    do {                                            \
        if ((rc = (expr)) != MPI_SUCCESS) goto out; \
    } while (0)

int tern_check_comm(MPI_Comm h, const char *fn, struct tern_comm **out);
int tern_check_count(struct tern_comm *c, long count, const char *fn, const char *arg);
/* A destination: a rank of c or MPI_PROC_NULL. */
int tern_check_dest(struct tern_comm *c, int rank, const char *fn, const char *arg);
/* A source: also MPI_ANY_SOURCE. */
int tern_check_source(struct tern_comm *c, int rank, const char *fn, const char *arg);
int tern_check_send_tag(struct tern_comm *c, int tag, const char *fn);
int tern_check_recv_tag(struct tern_comm *c, int tag, const char *fn);
int tern_check_datatype(struct tern_comm *c, MPI_Datatype h, const char *fn, const char *arg,
                        struct tern_datatype **out);
/* A datatype handle that names a type, committed or not (what the calls
 * that do not move data need). */
int tern_check_type_valid(struct tern_comm *c, MPI_Datatype h, const char *fn, const char *arg,
                          struct tern_datatype **out);
/* NULL with a positive count of a predefined type (MPI_BOTTOM is fine with
 * derived types holding absolute addresses). */
int tern_check_buffer(struct tern_comm *c, const void *buf, long count,
                      const struct tern_datatype *dt, const char *fn, const char *arg);
int tern_check_ptr(struct tern_comm *c, const void *p, const char *fn, const char *arg);
/* An array of n counts (a vector collective's): present when n > 0, none
 * negative; *sum, unless sum is NULL, their total. */
int tern_check_counts(struct tern_comm *c, const char *fn, const char *arg, const int *a, int n,
                      size_t *sum);

/* Everything a send-like call checks, in the standard's order. */
int tern_check_send_args(const char *fn, const void *buf, long count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm, struct tern_comm **c,
                         struct tern_datatype **dt);
int tern_check_recv_args(const char *fn, const void *buf, long count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm, struct tern_comm **c,
                         struct tern_datatype **dt);

#endif
