/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size and their
 * large-count forms (MPI 4.1 section 5.2.2).  "external32" is the only
 * data representation; any other name is MPI_ERR_ARG.  The int forms
 * differ only in the count's type, so each pair shares one body.  The
 * entry points are generated (src/api/gen/bindings_datatype_external.c). */
#include <limits.h>
#include <string.h>

#include "api/check.h"
#include "api/gen/bindings.h"
#include "datatype/dt_api.h"

static int check_datarep(const char *fn, const char *datarep)
{
    int rc = tern_arg_ptr(datarep, fn, "datarep");
    if (rc) return rc;
    if (strcmp(datarep, "external32") != 0)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: datarep=\"%.64s\" is not a known data representation (only "
                             "\"external32\" is)",
                             fn, datarep);
    return MPI_SUCCESS;
}

/* external32 bytes of one element of dt */
static int ext_elem(const char *fn, const struct tern_datatype *dt, size_t *one)
{
    if (tern_dt_ext32_size(dt, 1, one) == MPI_SUCCESS) return MPI_SUCCESS;
    return tern_err_comm(NULL, MPI_ERR_ARG, "%s: the external32 size of datatype 0x%x overflows",
                         fn, (unsigned)dt->handle);
}

static int pack_external(const char *fn, const char *datarep, const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    struct tern_datatype *dt;
    size_t one, bytes;
    int rc;
    if ((rc = check_datarep(fn, datarep)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(NULL, inbuf, (long)incount, dt, fn, "inbuf")) ||
        (rc = tern_arg_nonneg(outsize, MPI_ERR_ARG, fn, "outsize")) ||
        (rc = tern_arg_ptr(position, fn, "position")) || (rc = ext_elem(fn, dt, &one)) ||
        (rc = tern_check_packed(NULL, fn, &tern_pack_args, incount, dt, one, outbuf, outsize,
                                *position, &bytes)))
        return rc;
    if (bytes) tern_dt_ext32_pack(dt, inbuf, (size_t)incount, (char *)outbuf + *position);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int tern_api_pack_external(const char *fn, const char datarep[], const void *inbuf, int incount,
                           MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                           MPI_Aint *position)
{
    return pack_external(fn, datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int tern_api_pack_external_c(const char *fn, const char datarep[], const void *inbuf,
                             MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                             MPI_Count outsize, MPI_Count *position)
{
    return pack_external(fn, datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

static int unpack_external(const char *fn, const char *datarep, const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    struct tern_datatype *dt;
    size_t one, bytes;
    int rc;
    if ((rc = check_datarep(fn, datarep)) ||
        (rc = tern_arg_nonneg(insize, MPI_ERR_ARG, fn, "insize")) ||
        (rc = tern_arg_ptr(position, fn, "position")) ||
        (rc = tern_arg_nonneg(outcount, MPI_ERR_COUNT, fn, "outcount")) ||
        (rc = tern_arg_type_committed(datatype, fn, "datatype", &dt)) ||
        (rc = tern_check_buffer(NULL, outbuf, (long)outcount, dt, fn, "outbuf")) ||
        (rc = ext_elem(fn, dt, &one)) ||
        (rc = tern_check_packed(NULL, fn, &tern_unpack_args, outcount, dt, one, inbuf, insize,
                                *position, &bytes)))
        return rc;
    if (bytes) tern_dt_ext32_unpack(dt, outbuf, (size_t)outcount, (const char *)inbuf + *position);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int tern_api_unpack_external(const char *fn, const char datarep[], const void *inbuf,
                             MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount,
                             MPI_Datatype datatype)
{
    return unpack_external(fn, datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int tern_api_unpack_external_c(const char *fn, const char datarep[], const void *inbuf,
                               MPI_Count insize, MPI_Count *position, void *outbuf,
                               MPI_Count outcount, MPI_Datatype datatype)
{
    return unpack_external(fn, datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

static int pack_external_size(const char *fn, const char *datarep, MPI_Count incount,
                              MPI_Datatype datatype, MPI_Count *size)
{
    struct tern_datatype *dt;
    size_t bytes;
    int rc;
    if ((rc = check_datarep(fn, datarep)) ||
        (rc = tern_arg_nonneg(incount, MPI_ERR_COUNT, fn, "incount")) ||
        (rc = tern_arg_type(datatype, fn, "datatype", &dt)) ||
        (rc = tern_arg_ptr(size, fn, "size")))
        return rc;
    if (tern_dt_ext32_size(dt, (size_t)incount, &bytes) || bytes > (size_t)LONG_MAX)
        return tern_err_comm(NULL, MPI_ERR_ARG,
                             "%s: incount=%ld elements take more bytes than an MPI_Aint holds", fn,
                             (long)incount);
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int tern_api_pack_external_size(const char *fn, const char datarep[], int incount,
                                MPI_Datatype datatype, MPI_Aint *size)
{
    return pack_external_size(fn, datarep, incount, datatype, size);
}

int tern_api_pack_external_size_c(const char *fn, const char datarep[], MPI_Count incount,
                                  MPI_Datatype datatype, MPI_Count *size)
{
    return pack_external_size(fn, datarep, incount, datatype, size);
}
