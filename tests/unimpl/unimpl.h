/* The missing-procedure test: what the generated cases (unimpl_gen.c,
 * written by tools/gen/gen_unimpl_test.py) and the driver (unimpl_main.c)
 * share. */
#ifndef UNIMPL_H
#define UNIMPL_H

#include <mpi.h>

/* Where the standard sends the procedure's error. */
enum un_route {
    UN_FILE, /* the file's handler; MPI_FILE_NULL's without a valid file */
    UN_COMM, /* the communicator argument's */
    UN_WIN,  /* the window argument's */
    UN_NONE, /* no object: MPI_COMM_SELF's */
};

/* What a call of a procedure that returns no error code returns: its zero
 * value came back, or something else did. */
#define UN_NO_CODE (-1)
#define UN_BAD_VALUE (-2)

struct un_case {
    const char *fn; /* "MPI_File_open" */
    enum un_route route;
    int returns_code; /* 0: the procedure returns no error code (MPI_File_c2f) */
    /* Calls fn with these handles where it takes such a handle, 0 elsewhere. */
    int (*call)(MPI_Comm comm, MPI_Win win, MPI_File file);
};

extern const struct un_case un_cases[];
extern const int un_ncases;

#endif
