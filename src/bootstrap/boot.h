/* Bootstrap client: how a rank learns who it is, receives the job's
 * shared-memory file and exchanges the few strings needed to set up the
 * transports.
 *
 * Under Tern's mpiexec the rank talks over an inherited socket (TERN_BOOT_FD)
 * that only this job holds.  Under another process manager it talks PMIx or
 * PMI2 (boot_backend.h), where the build has them.  Without any the process
 * is a singleton, unless srun started it as one of several tasks: then
 * init fails and says which srun option is missing. */
#ifndef TERN_BOOTSTRAP_BOOT_H
#define TERN_BOOTSTRAP_BOOT_H

#include <stddef.h>

struct tern_boot_info {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank, local_size; /* as the launcher placed them; the runtime
                                 * counts again from host ids (host.h) */
    int appnum;                 /* MPMD block index, for MPI_APPNUM */
    int singleton;              /* 1 when started without a launcher */
    char job_id[64];            /* unique per job: names shared segments */
    char node[64];              /* the launcher's name for this rank's host
                                 * (Slurm's node), or "" (host.c) */
};

/* Reads the environment and connects; fills *info.  Returns 0 or -1 with a
 * message already printed to stderr. */
int tern_boot_init(struct tern_boot_info *info);

/* The shared-memory file of the ranks of one host, an unnamed file, handed
 * over once: the caller owns it and later calls get -1.  -1 as well for
 * singletons and one-rank jobs, and -1 with a message when it cannot be had.
 *
 * Under mpiexec every rank inherited it (tools/mpiexec/shmfile.c).  Under
 * PMI there is no launcher to make it, so this is collective (it fences):
 * the host's first rank ('first', the lowest world rank on this rank's
 * host) makes one (boot_shm.c) and the others open it through /proc.  The
 * first rank then keeps its descriptor open until the caller's next fence,
 * which the others pass only once they hold theirs. */
int tern_boot_take_shm_fd(int first);

/* "<device>:<inode>" of the inherited shared-memory file while it is not yet
 * taken, "-" when there is none (under PMI, or after the take): ranks whose
 * words match map one file. */
void tern_boot_shm_file_id(char *out, size_t len);

/* The number of processes the job was launched with: TERN_SIZE under
 * Tern's mpiexec, 1 for a singleton.  The same answer before MPI_Init,
 * during and after MPI_Finalize (MPI_INFO_ENV's maxprocs). */
int tern_boot_job_size(void);

/* Key-value exchange.  Keys and values are printable strings without
 * whitespace or newlines, key < 64 bytes, value at most 1024 bytes (1023
 * under PMI2).  A put becomes visible to the others after the next fence.
 * A get names the rank that put the key: PMIx files each value under the
 * process that put it, and finds it only there. */
int tern_boot_put(const char *key, const char *value);
int tern_boot_get(int owner, const char *key, char *value, size_t max); /* 0, or -1 if absent */
int tern_boot_fence(void);

/* The rank is entering MPI_Finalize: an exit after this is not an error. */
int tern_boot_finalize(void);

/* Asks the launcher to end the whole job with exit code 'code' and prints
 * 'msg' in its report; then exits this process with 'code'.  Never returns. */
_Noreturn void tern_boot_abort(int code, const char *msg);

/* Cheap test (one poll(2) with zero timeout) that the launcher is still
 * there.  Returns 1 while it is, 0 once the socket is closed.  Under PMI, 0
 * once the process that started this one (slurmstepd) has gone.
 * Singletons always get 1. */
int tern_boot_launcher_alive(void);

#endif
