/* MPI_Status accessors and the conversions between the C, Fortran and
 * Fortran 2008 forms.  All three are the same five integers in the MPICH
 * ABI, so a conversion is a copy. */
#include <string.h>

#include "core/api.h"
#include "core/errors.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/status.h"

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "C and Fortran statuses differ");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "C and Fortran 2008 statuses differ");

static int null_arg(const char *fn, const char *arg)
{
    return tern_err_comm(NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

#define COPY_STATUS(NAME, FROM_T, TO_T, FROM, TO)                                  \
    int PMPI_##NAME(const FROM_T *FROM, TO_T *TO)                                  \
    {                                                                              \
        if (!FROM || !TO) return null_arg("MPI_" #NAME, !FROM ? #FROM : #TO);      \
        if ((const void *)FROM == (const void *)MPI_STATUS_IGNORE)                 \
            return tern_err_comm(NULL, MPI_ERR_ARG,                                \
                                 "MPI_" #NAME ": " #FROM " is MPI_STATUS_IGNORE"); \
        memcpy(TO, FROM, sizeof(MPI_Status));                                      \
        return MPI_SUCCESS;                                                        \
    }

TERN_WEAK_ALIAS(MPI_Status_c2f)
COPY_STATUS(Status_c2f, MPI_Status, MPI_Fint, c_status, f_status)
TERN_WEAK_ALIAS(MPI_Status_f2c)
COPY_STATUS(Status_f2c, MPI_Fint, MPI_Status, f_status, c_status)
TERN_WEAK_ALIAS(MPI_Status_c2f08)
COPY_STATUS(Status_c2f08, MPI_Status, MPI_F08_status, c_status, f08_status)
TERN_WEAK_ALIAS(MPI_Status_f082c)
COPY_STATUS(Status_f082c, MPI_F08_status, MPI_Status, f08_status, c_status)
TERN_WEAK_ALIAS(MPI_Status_f2f08)
COPY_STATUS(Status_f2f08, MPI_Fint, MPI_F08_status, f_status, f08_status)
TERN_WEAK_ALIAS(MPI_Status_f082f)
COPY_STATUS(Status_f082f, MPI_F08_status, MPI_Fint, f08_status, f_status)

/* One field in, one field out (MPI 4.1 accessors). */
#define STATUS_FIELD(GET, SET, FIELD, ARG)                                            \
    int PMPI_##GET(const MPI_Status *status, int *ARG)                                \
    {                                                                                 \
        if (!status || !ARG) return null_arg("MPI_" #GET, !status ? "status" : #ARG); \
        *ARG = status->FIELD;                                                         \
        return MPI_SUCCESS;                                                           \
    }                                                                                 \
    int PMPI_##SET(MPI_Status *status, int ARG)                                       \
    {                                                                                 \
        if (!status) return null_arg("MPI_" #SET, "status");                          \
        status->FIELD = ARG;                                                          \
        return MPI_SUCCESS;                                                           \
    }

TERN_WEAK_ALIAS(MPI_Status_get_source)
TERN_WEAK_ALIAS(MPI_Status_set_source)
STATUS_FIELD(Status_get_source, Status_set_source, MPI_SOURCE, source)
TERN_WEAK_ALIAS(MPI_Status_get_tag)
TERN_WEAK_ALIAS(MPI_Status_set_tag)
STATUS_FIELD(Status_get_tag, Status_set_tag, MPI_TAG, tag)
TERN_WEAK_ALIAS(MPI_Status_get_error)
TERN_WEAK_ALIAS(MPI_Status_set_error)
STATUS_FIELD(Status_get_error, Status_set_error, MPI_ERROR, err)

TERN_WEAK_ALIAS(MPI_Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (!status) return null_arg("MPI_Status_set_cancelled", "status");
    tern_status_set_cancelled(status, flag);
    return MPI_SUCCESS;
}

/* Stores the bytes that 'count' basic elements of datatype make, so that
 * MPI_Get_elements / MPI_Get_count read them back. */
static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype, long long count)
{
    TERN_REQUIRE_INIT(fn);
    if (!status) return null_arg(fn, "status");
    if (count < 0)
        return tern_err_comm(NULL, MPI_ERR_COUNT, "%s: count=%lld must not be negative", fn, count);
    tern_lock();
    struct tern_datatype *dt;
    int rc = tern_dt_check_valid(datatype, fn, "datatype", &dt);
    if (rc == MPI_SUCCESS)
        tern_status_set_bytes(status, tern_dt_elements_to_bytes(dt, (size_t)count));
    else
        rc = tern_err_raise(NULL, rc);
    tern_unlock();
    return rc;
}

TERN_WEAK_ALIAS(MPI_Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return set_elements("MPI_Status_set_elements", status, datatype, count);
}

TERN_WEAK_ALIAS(MPI_Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

TERN_WEAK_ALIAS(MPI_Status_set_elements_c)
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}
