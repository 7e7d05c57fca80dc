/* One error idiom for the whole library.
 *
 * The place that detects a problem builds an error code that carries the
 * class and a message naming the call, the argument and the bad value:
 *
 *     return tern_err_comm(c, MPI_ERR_RANK,
 *                          "MPI_Send: dest=%d is not a rank of %s (size %d)", ...);
 *
 * tern_err_comm() hands the code to the communicator's error handler (fatal
 * by default: the message is printed and the job ends) and returns it for
 * MPI_ERRORS_RETURN.  MPI_Error_string() on the code gives the full message
 * back for a while (the most recent messages are kept); MPI_Error_class()
 * gives the class. */
#ifndef TERN_CORE_ERRORS_H
#define TERN_CORE_ERRORS_H

#include <mpi.h>

struct tern_comm;

/* Error codes of the predefined classes are the class (< 128) plus
 * 128 * (1 + slot of the message).  The classes and codes the user adds
 * (MPI_Add_error_class/code) are TERN_ERR_DYN_BASE + 1, + 2, ... in the
 * order they were added, never reused: all above MPI_ERR_LASTCODE, as the
 * standard wants. */
#define TERN_ERR_CLASS_SPAN 128
#define TERN_ERR_DYN_BASE 0x40000000

/* The class of an error code, or -1 when it is not one (negative, a class
 * that does not exist, a user code never added or removed). */
int tern_err_class_of(int code);

/* Makes an error code with a formatted message; does not invoke a handler. */
int tern_err_make(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Invokes comm's error handler (MPI_COMM_WORLD's when comm is NULL) on an
 * existing code; returns the code when the handler returns. */
int tern_err_raise(struct tern_comm *comm, int code);

/* tern_err_make + tern_err_raise. */
int tern_err_comm(struct tern_comm *comm, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The stored message for a code, or the class's generic text. */
const char *tern_err_text(int code);
/* The generic text of a predefined class, NULL for any other value. */
const char *tern_err_class_text(int errclass);

/* User classes and codes (errors_user.c).  The class of a user value, or
 * -1; its string (NULL when none was added); the MPI_LASTUSEDCODE value. */
int tern_err_user_class(int code);
const char *tern_err_user_string(int code);
int tern_err_lastusedcode(void);

/* Internal invariant broken or resource failure that cannot be reported to
 * the caller: prints and ends the job. */
_Noreturn void tern_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Printing with the rank in front, for warnings that do not end the job. */
void tern_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same without the word "warning", for what the user asked to see. */
void tern_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
