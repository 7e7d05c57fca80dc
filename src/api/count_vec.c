/* int views of the large-count forms' arrays (count_vec.h). */
#include "api/count_vec.h"

#include <limits.h>
#include <stdlib.h>

#include "core/errors.h"

int tern_vec_ints(struct tern_comm *c, const char *fn, const char *arg, struct tern_vec v, int n,
                  int used, struct tern_vec_tmp *tmp, const int **out)
{
    *out = v.i;
    if (!v.l || !used) return MPI_SUCCESS;
    if (tmp->n == TERN_VEC_MAX_OWNED) /* a caller converting more arrays than it declared */
        return tern_err_comm(c, MPI_ERR_INTERN, "%s: too many arrays to convert", fn);
    int *a = malloc((n > 0 ? (size_t)n : 1) * sizeof *a);
    if (!a) return tern_err_comm(c, MPI_ERR_NO_MEM, "%s: out of memory copying %s", fn, arg);
    tmp->owned[tmp->n++] = a;
    for (int k = 0; k < n; k++) {
        if (v.l[k] > INT_MAX || v.l[k] < INT_MIN)
            return tern_err_comm(c, MPI_ERR_COUNT,
                                 "%s: %s[%d]=%ld exceeds what Tern supports in a vector "
                                 "collective (INT_MAX)",
                                 fn, arg, k, v.l[k]);
        a[k] = (int)v.l[k];
    }
    *out = a;
    return MPI_SUCCESS;
}

void tern_vec_tmp_free(struct tern_vec_tmp *tmp)
{
    for (int k = 0; k < tmp->n; k++) free(tmp->owned[k]);
    tmp->n = 0;
}

int tern_count_fits_int(struct tern_comm *c, const char *fn, const char *arg, MPI_Count v)
{
    if (v <= INT_MAX) return MPI_SUCCESS;
    return tern_err_comm(c, MPI_ERR_COUNT, "%s: %s=%ld exceeds what Tern supports here (INT_MAX)",
                         fn, arg, (long)v);
}
