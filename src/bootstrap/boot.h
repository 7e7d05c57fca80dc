/* Bootstrap client: how a rank learns who it is, receives the job's
 * shared-memory file and exchanges the few strings needed to set up the
 * transports.
 *
 * Under Tern's mpiexec the rank talks over an inherited socket (TERN_BOOT_FD)
 * that only this job holds.  Without it the process is a singleton. */
#ifndef TERN_BOOTSTRAP_BOOT_H
#define TERN_BOOTSTRAP_BOOT_H

#include <stddef.h>

struct tern_boot_info {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank, local_size; /* as the launcher placed them; the runtime
                                 * counts again from host ids (host.h) */
    int appnum;                 /* MPMD block index, for MPI_APPNUM */
    int singleton;              /* 1 when started without mpiexec */
    char job_id[64];            /* unique per job: names shared segments */
};

/* Reads the environment and connects; fills *info.  Returns 0 or -1 with a
 * message already printed to stderr. */
int tern_boot_init(struct tern_boot_info *info);

/* The job's shared-memory file as inherited from mpiexec (an unnamed file:
 * tools/mpiexec/shmfile.c), handed over once: the caller owns it and later
 * calls get -1.  -1 as well for singletons and one-rank jobs. */
int tern_boot_take_shm_fd(void);

/* The number of processes the job was launched with: TERN_SIZE under
 * Tern's mpiexec, 1 for a singleton.  The same answer before MPI_Init,
 * during and after MPI_Finalize (MPI_INFO_ENV's maxprocs). */
int tern_boot_job_size(void);

/* Key-value exchange.  Keys and values are printable strings without
 * whitespace or newlines, key < 64 bytes, value < 1024 bytes.  A put becomes
 * visible to the others after the next fence. */
int tern_boot_put(const char *key, const char *value);
int tern_boot_get(const char *key, char *value, size_t max); /* 0, or -1 if absent */
int tern_boot_fence(void);

/* The rank is entering MPI_Finalize: an exit after this is not an error. */
int tern_boot_finalize(void);

/* Asks the launcher to end the whole job with exit code 'code' and prints
 * 'msg' in its report; then exits this process with 'code'.  Never returns. */
_Noreturn void tern_boot_abort(int code, const char *msg);

/* Cheap test (one poll(2) with zero timeout) that the launcher is still
 * there.  Returns 1 while it is, 0 once the socket is closed.  Singletons
 * always get 1. */
int tern_boot_launcher_alive(void);

#endif
