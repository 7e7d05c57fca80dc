/* Integer collectives for MPI-IO's agreements (see io_coll.h). */
#include "io/io_coll.h"

#include "coll/coll.h"
#include "coll/op.h"
#include "core/objects.h"
#include "datatype/datatype.h"

int tern_io_bcast_int(struct tern_comm *c, int *v, int root)
{
    return tern_coll_bcast(v, 1, tern_dt_get(MPI_INT), root, c);
}

int tern_io_bcast_i64(struct tern_comm *c, int64_t *v, int root)
{
    return tern_coll_bcast(v, 1, tern_dt_get(MPI_INT64_T), root, c);
}

int tern_io_allreduce_max_int(struct tern_comm *c, int *v)
{
    int in = *v;
    return tern_coll_allreduce(&in, v, 1, tern_dt_get(MPI_INT), tern_op_get(MPI_MAX), c);
}

int tern_io_allgather_i64(struct tern_comm *c, int64_t v, int64_t *all)
{
    struct tern_datatype *dt = tern_dt_get(MPI_INT64_T);
    return tern_coll_allgather(&v, 1, dt, all, 1, dt, c);
}
