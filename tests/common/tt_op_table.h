/* The predefined reduction ops and the groups of types MPI 4.1 section
 * 6.9.2 defines them on, for the tests that walk the op x type table. */
#ifndef TERN_TEST_OP_TABLE_H
#define TERN_TEST_OP_TABLE_H

#include <mpi.h>

static const MPI_Op tt_all_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM,  MPI_PROD, MPI_LAND,   MPI_BAND,
                                    MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC};
#define TT_NOPS ((int)(sizeof tt_all_ops / sizeof tt_all_ops[0]))

/* MULTI: MPI_AINT, MPI_OFFSET, MPI_COUNT; OTHER: no predefined op at all
 * (MPI_WCHAR, MPI_PACKED).  MPI_CHAR and MPI_CHARACTER count as C integers
 * and the logical ops apply to more groups than the standard lists,
 * because MPICH accepts them and Tern accepts what MPICH does. */
enum tt_group { C_INT, F_INT, FLT, CPLX, LOGIC, BYTE, MULTI, PAIR, OTHER };

static inline int tt_op_allowed(MPI_Op op, int g)
{
    if (op == MPI_MAX || op == MPI_MIN) return g == C_INT || g == F_INT || g == FLT || g == MULTI;
    if (op == MPI_SUM || op == MPI_PROD)
        return g == C_INT || g == F_INT || g == FLT || g == CPLX || g == MULTI;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return g == C_INT || g == F_INT || g == FLT || g == MULTI || g == LOGIC; /* as MPICH */
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return g == C_INT || g == F_INT || g == BYTE || g == MULTI;
    return g == PAIR;
}

static inline const char *tt_op_name(MPI_Op op)
{
    static const char *names[] = {"?",          "MPI_MAX",     "MPI_MIN",  "MPI_SUM",
                                  "MPI_PROD",   "MPI_LAND",    "MPI_BAND", "MPI_LOR",
                                  "MPI_BOR",    "MPI_LXOR",    "MPI_BXOR", "MPI_MINLOC",
                                  "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};
    unsigned i = (unsigned)op & 0xffu;
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

#endif
