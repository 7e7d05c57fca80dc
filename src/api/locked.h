/* The body of the entry points whose work is a helper that takes the MPI
 * name first and returns early on errors (datatype, op and pack calls):
 * initialised, under the library lock, released on every path.  A macro
 * because the helpers' arguments differ; genapi.py still needs the literal
 * TERN_WEAK_ALIAS(MPI_X) line before each PMPI_X using it. */
#ifndef TERN_API_LOCKED_H
#define TERN_API_LOCKED_H

#include "core/state.h"

#define TERN_LOCKED_CALL(name, helper, ...)  \
    do {                                     \
        TERN_REQUIRE_INIT(name);             \
        tern_lock();                         \
        int rc_ = helper(name, __VA_ARGS__); \
        tern_unlock();                       \
        return rc_;                          \
    } while (0)

#endif
