/* Shared by the topology tests: checking that a call failed with the
 * right class and a message naming the call. */
#ifndef TOPO_UTIL_H
#define TOPO_UTIL_H

#include <string.h>

#include "tern_test.h"

#define EXPECT_ERR(call, cls, name)                                                             \
    do {                                                                                        \
        int rc__ = (call);                                                                      \
        int cl__ = -1, len__ = 0;                                                               \
        char s__[MPI_MAX_ERROR_STRING] = "";                                                    \
        if (rc__ != MPI_SUCCESS) {                                                              \
            MPI_Error_class(rc__, &cl__);                                                       \
            MPI_Error_string(rc__, s__, &len__);                                                \
        }                                                                                       \
        CHECK(cl__ == (cls), "%s gave class %d (want %d): %s", #call, cl__, (cls), s__);        \
        CHECK(strstr(s__, (name)) != NULL, "message of %s does not name %s: %s", #call, (name), \
              s__);                                                                             \
    } while (0)

#endif
