/* MPI_Info objects (MPI-4.1 chapter 10): ordered (key, value) string pairs.
 *
 * Keys keep the order of their first setting; setting a key again changes
 * its value in place.  Lengths are checked by the entry points
 * (src/api/info.c); the functions here take any strings.  Callers hold the
 * big lock.
 *
 * Info calls may come before MPI_Init and after MPI_Finalize (MPI-4.1
 * 11.4.1), so objects live until MPI_Info_free and nothing here depends on
 * initialisation. */
#ifndef TERN_CORE_INFO_H
#define TERN_CORE_INFO_H

#include <mpi.h>

struct tern_comm;

struct tern_info_entry {
    char *key, *val;
};

struct tern_info {
    int handle; /* 0 until published */
    int n, cap;
    struct tern_info_entry *ent;
};

/* The object behind a handle (MPI_INFO_ENV included), or NULL for
 * MPI_INFO_NULL and anything that is not a live info. */
struct tern_info *tern_info_get(MPI_Info h);

/* What other parts of the library use to read hints: the value of 'key' in
 * 'info', or NULL when info is MPI_INFO_NULL (or not an info) or has no such
 * key.  The pointer stays valid while the info lives and the key is not set
 * again. */
const char *tern_info_lookup(MPI_Info info, const char *key);

/* A new empty object without a handle, or NULL when out of memory. */
struct tern_info *tern_info_new(void);
/* A copy (without a handle), or NULL when out of memory. */
struct tern_info *tern_info_dup(const struct tern_info *in);
/* MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_info_set(struct tern_info *info, const char *key, const char *val);
/* The value, or NULL. */
const char *tern_info_find(const struct tern_info *info, const char *key);
/* 1 when the key was there. */
int tern_info_delete(struct tern_info *info, const char *key);
/* Gives the object a handle: MPI_SUCCESS or MPI_ERR_NO_MEM (object kept). */
int tern_info_publish(struct tern_info *info, MPI_Info *out);
/* Removes the handle (if any) and frees the object. */
void tern_info_destroy(struct tern_info *info);

/* MPI_INFO_ENV's contents, built for argc/argv (NULL argv: the process's
 * own command line).  NULL when out of memory. */
struct tern_info *tern_info_env_new(int argc, char *argv[]);

/* The check of an info argument for the entry points: a
 * live info, or MPI_INFO_NULL when null_ok (then *out = NULL).  Otherwise
 * an MPI_ERR_INFO error naming fn and arg, raised on c's handler
 * (MPI_COMM_WORLD's when c is NULL), is returned. */
int tern_info_check(MPI_Info h, int null_ok, const char *fn, const char *arg, struct tern_comm *c,
                    struct tern_info **out);

/* ---- Communicator hints (comm_info.c) ----
 * Tern keeps the MPI-4 assertions mpi_assert_no_any_tag,
 * mpi_assert_no_any_source, mpi_assert_exact_length,
 * mpi_assert_allow_overtaking and mpi_assert_strict_persistent_collective_
 * ordering (values "true"/"false"; bits of tern_comm.hints in that order);
 * other keys are ignored, as MPICH does.  Only the last changes anything:
 * persistent collectives started in the same order everywhere may use the
 * shared-memory lane (coll/shm_nbc.c).  MPI_Comm_get_info also reports
 * mpi_hw_resource_type on a communicator that a hardware
 * MPI_Comm_split_type made, and on its dups. */
#define TERN_COMM_STRICT_PCOLL (1u << 4)
/* Sets the hints 'info' names (MPI_INFO_NULL or NULL: none). */
void tern_comm_hints_apply(struct tern_comm *c, const struct tern_info *info);
/* A new info (without a handle) with every hint Tern keeps and its value,
 * or NULL when out of memory (MPI_Comm_get_info). */
struct tern_info *tern_comm_hints_info(const struct tern_comm *c);

#endif
