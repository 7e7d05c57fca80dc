/* The window argument of the window calls (win.c, and the error-handler,
 * attribute and info calls on windows). */
#ifndef TERN_API_WIN_CHECK_H
#define TERN_API_WIN_CHECK_H

#include <mpi.h>

struct tern_win;

/* A live window; otherwise MPI_ERR_WIN, raised on MPI_COMM_WORLD's handler
 * (an invalid handle names no window whose handler could run). */
int tern_check_win(MPI_Win h, const char *fn, struct tern_win **out);

#endif
