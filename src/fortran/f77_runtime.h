/* What the Fortran entry points share: the names they are exported under,
 * the recognition of the sentinels Fortran programs pass by address, and the
 * conversions of LOGICAL, character and file-handle arguments.
 *
 * Handles are the C handles: in the MPICH ABI every handle but MPI_File is an
 * int, the size of a Fortran INTEGER, so a Fortran handle is passed to C as it
 * is (MPI_Comm_c2f is the identity there too). */
#ifndef TERN_FORTRAN_F77_RUNTIME_H
#define TERN_FORTRAN_F77_RUNTIME_H

#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(MPI_Comm) && sizeof(MPI_Fint) == sizeof(MPI_Datatype) &&
                   sizeof(MPI_Fint) == sizeof(MPI_Request) && sizeof(MPI_Fint) == sizeof(MPI_Win),
               "Fortran handles are C handles only where both are ints");
/* A Fortran status is the C MPI_Status read as MPI_STATUS_SIZE integers. */
_Static_assert(sizeof(MPI_Status) == 5 * sizeof(MPI_Fint), "MPI_STATUS_SIZE is 5 (MPICH)");

#define TERN_F77_STR_(x) #x
#define TERN_F77_STR(x) TERN_F77_STR_(x)

/* Every Fortran procedure is defined once as pmpi_x_ (gfortran's name for
 * PMPI_X) and exported under the eight names MPICH's library has: the
 * compilers' manglings (x, x_, x__, X) of MPI_X and PMPI_X.  Only pmpi_x_ is
 * strong, so a tool may interpose any other. */
#define TERN_F77_ALIAS(fn, name) extern __typeof__(fn) name __attribute__((weak, alias(#fn)));
#define TERN_F77_NAMES(l, U)          \
    TERN_F77_ALIAS(p##l##_, l)        \
    TERN_F77_ALIAS(p##l##_, l##_)     \
    TERN_F77_ALIAS(p##l##_, l##__)    \
    TERN_F77_ALIAS(p##l##_, U)        \
    TERN_F77_ALIAS(p##l##_, p##l)     \
    TERN_F77_ALIAS(p##l##_, p##l##__) \
    TERN_F77_ALIAS(p##l##_, P##U)

/* A Fortran procedure whose body is the C function fn, in the eight names. */
#define TERN_F77_CALLBACK(l, U, fn)                            \
    extern __typeof__(fn) p##l##_ __attribute__((alias(#fn))); \
    TERN_F77_NAMES(l, U)

/* The common blocks mpif.h and the mpi module declare (MPICH's layout: a
 * program compiled against MPICH's mpif.h passes their addresses). */
struct tern_f_priv1 {
    MPI_Fint bottom, in_place, status_ignore[5];
};
struct tern_f_priv2 {
    MPI_Fint statuses_ignore[5], errcodes_ignore;
};
struct tern_f_privc {
    char argvs_null, argv_null;
};
extern struct tern_f_priv1 mpipriv1_;
extern struct tern_f_priv2 mpipriv2_;
extern struct tern_f_privc mpiprivc_;
extern MPI_Fint mpifcmb5_, mpifcmb9_;

/* The sentinels of `use mpi_f08`: MPI_IN_PLACE, MPI_BOTTOM and the status
 * ignores are mpi.h's MPIR_F08_ objects; the others are variables of the
 * module mpi_f08_link_constants (src/fortran/gen/mpi_f08.f90), named as
 * gfortran names them, as in MPICH's module of the same name. */
extern MPI_Fint
    tern_f08_errcodes_ignore[1] __asm__("__mpi_f08_link_constants_MOD_mpi_errcodes_ignore");
extern MPI_Fint tern_f08_unweighted[1] __asm__("__mpi_f08_link_constants_MOD_mpi_unweighted");
extern MPI_Fint tern_f08_weights_empty[1] __asm__("__mpi_f08_link_constants_MOD_mpi_weights_empty");
extern char tern_f08_argv_null[1] __asm__("__mpi_f08_link_constants_MOD_mpi_argv_null");
extern char tern_f08_argvs_null[1] __asm__("__mpi_f08_link_constants_MOD_mpi_argvs_null");
/* mpi_f08's MPI_CONVERSION_FN_NULL, a procedure of module mpi_f08_callbacks. */
extern char tern_f08_conversion_null[] __asm__("__mpi_f08_callbacks_MOD_mpi_conversion_fn_null");

/* A procedure of `use mpi_f08` whose arguments are those of its Fortran 77
 * form (everything by reference, hidden lengths last; an absent OPTIONAL
 * ierror is NULL) is the Fortran 77 entry point under MPICH's two names for
 * it: TERN_F08_NAMES(mpi_comm_rank, comm_rank_f08_) gives mpi_comm_rank_f08_
 * and pmpir_comm_rank_f08_. */
#define TERN_F08_NAMES(l, x)         \
    TERN_F77_ALIAS(p##l##_, mpi_##x) \
    TERN_F77_ALIAS(p##l##_, pmpir_##x)
/* The profiling name of an mpi_f08 entry point defined as mpi_x. */
#define TERN_F08_PMPIR(x) TERN_F77_ALIAS(mpi_##x, pmpir_##x)

/* ierror is OPTIONAL in mpi_f08: NULL when the program leaves it out. */
static inline void tern_f_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror) *ierror = rc;
}

static inline void *tern_f_buf(const void *p)
{
    if (p == &mpipriv1_.bottom || p == &MPIR_F08_MPI_BOTTOM) return MPI_BOTTOM;
    if (p == &mpipriv1_.in_place || p == &MPIR_F08_MPI_IN_PLACE) return MPI_IN_PLACE;
    return (void *)p;
}

static inline MPI_Status *tern_f_status(const MPI_Fint *s)
{
    if (s == mpipriv1_.status_ignore || (const void *)s == &MPIR_F08_MPI_STATUS_IGNORE_OBJ)
        return MPI_STATUS_IGNORE;
    return (MPI_Status *)s;
}

static inline MPI_Status *tern_f_statuses(const MPI_Fint *s)
{
    if (s == mpipriv2_.statuses_ignore || (const void *)s == MPIR_F08_MPI_STATUSES_IGNORE_OBJ)
        return MPI_STATUSES_IGNORE;
    return (MPI_Status *)s;
}

static inline int *tern_f_errcodes(MPI_Fint *e)
{
    if (e == &mpipriv2_.errcodes_ignore || e == tern_f08_errcodes_ignore)
        return MPI_ERRCODES_IGNORE;
    return e;
}

static inline int *tern_f_weights(const MPI_Fint *w)
{
    if (w == &mpifcmb5_ || w == tern_f08_unweighted) return MPI_UNWEIGHTED;
    if (w == &mpifcmb9_ || w == tern_f08_weights_empty) return MPI_WEIGHTS_EMPTY;
    return (int *)w;
}

/* gfortran: .FALSE. is 0, any other value true; MPICH writes 1 for .TRUE. */
static inline int tern_f_l2c(MPI_Fint l) { return l != 0; }
static inline MPI_Fint tern_c_l2f(int c) { return c ? 1 : 0; }

/* A Fortran string in: a NUL-terminated copy without the trailing blanks
 * (free() it).  NULL when memory runs out: C then reports the argument. */
char *tern_f_str_in(const char *s, size_t len);
/* A Fortran string out: a C buffer large enough for any string MPI writes
 * (MPI_MAX_LIBRARY_VERSION_STRING) and for len characters; then copied into
 * the Fortran variable, blank-padded, and freed. */
char *tern_f_str_out_buf(size_t len);
void tern_f_str_out(char *f, size_t len, char *c);

/* File handles are pointers in C: Fortran gets an index into a table. */
MPI_File tern_f_file_f2c(MPI_Fint f);
MPI_Fint tern_f_file_c2f(MPI_File c);

#endif
