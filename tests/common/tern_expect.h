/* The check of the argument-error tests under MPI_ERRORS_RETURN: the call
 * failed with class cls, and its message names the call and, if given,
 * the word (the argument or value). */
#ifndef TERN_TEST_EXPECT_H
#define TERN_TEST_EXPECT_H

#include <string.h>

#include "tern_test.h"

static inline void expect(int rc, int cls, const char *call, const char *word)
{
    int got = -1, len;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK(rc != MPI_SUCCESS, "%s succeeded, expected class %d", call, cls);
    MPI_Error_class(rc, &got);
    MPI_Error_string(rc, msg, &len);
    CHECK(got == cls, "%s: class %d, expected %d (%s)", call, got, cls, msg);
    CHECK(strstr(msg, call) != NULL, "message does not name %s: %s", call, msg);
    CHECK(word == NULL || strstr(msg, word) != NULL, "message does not name '%s': %s", word, msg);
}

#endif
