#include <stdlib.h>

#include "coll/coll_util.h"

struct tern_datatype *tern_coll_byte(void)
{
    static struct tern_datatype *byte;
    if (!byte) byte = tern_dt_get(MPI_BYTE);
    return byte;
}

void *tern_coll_tmpbuf(const struct tern_datatype *dt, size_t count, void **mem)
{
    MPI_Aint lo = dt->true_lb, hi = dt->true_ub;
    if (count > 1) {
        MPI_Aint span = (MPI_Aint)(count - 1) * dt->extent;
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    size_t bytes = count ? (size_t)(hi - lo) : 0;
    char *m = malloc(bytes ? bytes : 1);
    *mem = m;
    if (!m) return NULL;
    return m - lo;
}

int *tern_coll_displs_of(const int *counts, int n, size_t *total)
{
    int *displs = malloc((size_t)(n > 0 ? n : 1) * sizeof *displs);
    size_t sum = 0;
    if (!displs) return NULL;
    for (int i = 0; i < n; i++) {
        displs[i] = (int)sum;
        sum += (size_t)counts[i];
    }
    *total = sum;
    return displs;
}

int tern_coll_nomem(const char *what, size_t bytes)
{
    return tern_err_make(MPI_ERR_NO_MEM, "%s: cannot allocate %zu bytes of scratch space", what,
                         bytes);
}
