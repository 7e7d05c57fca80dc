/* The bodies of the MPI_Status accessors and of the conversions between
 * the C, Fortran and Fortran 2008 forms.  All three are the same five
 * integers in the MPICH ABI, so a conversion is a copy.  Their entry
 * points, with the checks of the status and result pointers, are generated
 * (src/api/gen/bindings_status.c). */
#include <string.h>

#include "api/gen/bindings.h"
#include "core/errors.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "msg/status.h"

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "C and Fortran statuses differ");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "C and Fortran 2008 statuses differ");

#define COPY_STATUS(NAME, FROM_T, TO_T, FROM, TO)                                              \
    int tern_api_##NAME(const char *fn, const FROM_T *FROM, TO_T *TO)                          \
    {                                                                                          \
        if ((const void *)FROM == (const void *)MPI_STATUS_IGNORE)                             \
            return tern_err_comm(NULL, MPI_ERR_ARG, "%s: " #FROM " is MPI_STATUS_IGNORE", fn); \
        memcpy(TO, FROM, sizeof(MPI_Status));                                                  \
        return MPI_SUCCESS;                                                                    \
    }

COPY_STATUS(status_c2f, MPI_Status, MPI_Fint, c_status, f_status)
COPY_STATUS(status_f2c, MPI_Fint, MPI_Status, f_status, c_status)
COPY_STATUS(status_c2f08, MPI_Status, MPI_F08_status, c_status, f08_status)
COPY_STATUS(status_f082c, MPI_F08_status, MPI_Status, f08_status, c_status)
COPY_STATUS(status_f2f08, MPI_Fint, MPI_F08_status, f_status, f08_status)
COPY_STATUS(status_f082f, MPI_F08_status, MPI_Fint, f08_status, f_status)

/* One field in, one field out (MPI 4.1 accessors). */
#define STATUS_FIELD(GET, SET, FIELD, ARG)                                 \
    int tern_api_##GET(const char *fn, const MPI_Status *status, int *ARG) \
    {                                                                      \
        (void)fn;                                                          \
        *ARG = status->FIELD;                                              \
        return MPI_SUCCESS;                                                \
    }                                                                      \
    int tern_api_##SET(const char *fn, MPI_Status *status, int ARG)        \
    {                                                                      \
        (void)fn;                                                          \
        status->FIELD = ARG;                                               \
        return MPI_SUCCESS;                                                \
    }

STATUS_FIELD(status_get_source, status_set_source, MPI_SOURCE, source)
STATUS_FIELD(status_get_tag, status_set_tag, MPI_TAG, tag)
STATUS_FIELD(status_get_error, status_set_error, MPI_ERROR, err)

int tern_api_status_set_cancelled(const char *fn, MPI_Status *status, int flag)
{
    (void)fn;
    tern_status_set_cancelled(status, flag);
    return MPI_SUCCESS;
}

/* Stores the bytes that 'count' basic elements of datatype make, so that
 * MPI_Get_elements / MPI_Get_count read them back. */
static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype, long long count)
{
    if (count < 0)
        return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: count=%lld must not be negative", fn, count);
    struct tern_datatype *dt;
    int rc = tern_dt_check_valid(datatype, fn, "datatype", &dt);
    if (rc != MPI_SUCCESS) return tern_err_raise(NULL, rc);
    tern_status_set_bytes(status, tern_dt_elements_to_bytes(dt, (size_t)count));
    return MPI_SUCCESS;
}

int tern_api_status_set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype,
                                 int count)
{
    return set_elements(fn, status, datatype, count);
}

int tern_api_status_set_elements_x(const char *fn, MPI_Status *status, MPI_Datatype datatype,
                                   MPI_Count count)
{
    return set_elements(fn, status, datatype, count);
}

int tern_api_status_set_elements_c(const char *fn, MPI_Status *status, MPI_Datatype datatype,
                                   MPI_Count count)
{
    return set_elements(fn, status, datatype, count);
}
