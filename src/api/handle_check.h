/* Checks of the handles and keys that only one chapter's calls take, for
 * the generated entry points (tools/gen/param_kinds.py, CHECKS); each is
 * defined in its chapter's file.  Each returns MPI_SUCCESS or a code
 * already raised on c (MPI_COMM_WORLD's handler when c is NULL) or s. */
#ifndef TERN_API_HANDLE_CHECK_H
#define TERN_API_HANDLE_CHECK_H

#include <mpi.h>

#include "core/attr.h"
#include "core/objects.h"

/* api/info.c: a key of 1..MPI_MAX_INFO_KEY characters. */
int tern_chk_info_key(struct tern_comm *c, const char *fn, const char *key);

/* api/errhandler.c */
int tern_chk_errh(struct tern_comm *c, const char *fn, const char *arg, MPI_Errhandler h,
                  struct tern_errhandler **out);
/* MPI_FILE_NULL, the only file; an error goes to its handler. */
int tern_chk_file(const char *fn, MPI_File file);

/* api/session.c: a result pointer of a call on session s, whose handler
 * gets the error. */
int tern_chk_session_ptr(struct tern_session *s, const void *p, const char *fn, const char *arg);

/* api/request.c: a status a call writes (MPI_STATUS_IGNORE is none). */
int tern_chk_status_ptr(struct tern_comm *c, const void *p, const char *fn, const char *arg);

/* api/op.c: a live reduction op, predefined or not. */
struct tern_op;
int tern_chk_op(struct tern_comm *c, const char *fn, MPI_Op h, struct tern_op **out);

/* api/attr.c: a keyval of objects of the given kind (predefined ones are
 * refused). */
int tern_chk_keyval(struct tern_comm *c, const char *fn, int keyval, enum tern_attr_kind kind,
                    struct tern_keyval **out);

#endif
