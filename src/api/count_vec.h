/* Count and displacement arrays of the vector collectives, read through
 * one body for MPI_X (int[]) and MPI_X_c (MPI_Count[] counts, MPI_Aint[]
 * displacements; both are 'long' in this ABI).  The algorithms take int
 * arrays, so a large-count array is copied into ints, and a value that does
 * not fit is refused with MPI_ERR_COUNT: Tern's vector collectives move at
 * most INT_MAX elements per peer and take displacements up to INT_MAX
 * (scalar counts have no such limit). */
#ifndef TERN_API_COUNT_VEC_H
#define TERN_API_COUNT_VEC_H

#include <mpi.h>

struct tern_comm;

struct tern_vec {
    const int *i;  /* the int form's array, or */
    const long *l; /* the large-count form's array */
};

static inline struct tern_vec tern_vec_int(const int *a) { return (struct tern_vec){a, 0}; }
static inline struct tern_vec tern_vec_long(const long *a) { return (struct tern_vec){0, a}; }

/* Copies made for one call, freed together. */
#define TERN_VEC_MAX_OWNED 6
struct tern_vec_tmp {
    int *owned[TERN_VEC_MAX_OWNED];
    int n;
};
#define TERN_VEC_TMP_INIT \
    {                     \
        {0}, 0            \
    }

/* *out = v's n entries as ints: the int form's array itself (never read
 * here), NULL when the argument is not significant at this rank ('used'
 * false: MPI lets such ranks pass anything), else a copy owned by tmp.
 * MPI_ERR_COUNT (raised on c) names the entry that does not fit. */
int tern_vec_ints(struct tern_comm *c, const char *fn, const char *arg, struct tern_vec v, int n,
                  int used, struct tern_vec_tmp *tmp, const int **out);
void tern_vec_tmp_free(struct tern_vec_tmp *tmp);

/* A scalar count that an int-only path (intercommunicator reduce-scatter
 * block) must hold. */
int tern_count_fits_int(struct tern_comm *c, const char *fn, const char *arg, MPI_Count v);

#endif
