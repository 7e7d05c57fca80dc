/* mpiexec: parse the command line, check everything that can be checked
 * before a process exists, start the ranks, serve them until they are all
 * gone, and exit with the job's status (see teardown.c for the codes). */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A closed 0/1/2 would be taken by the first socket or pipe we open. */
static void keep_std_fds_open(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) {
            int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd) {
                dup2(n, fd);
                close(n);
            }
        }
}

static void make_job_id(char *id, size_t len)
{
    unsigned rnd = 0;
    if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd)
        rnd = (unsigned)now_ms() * 2654435761u;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(id, len, "t%lx-%llx-%08x", (long)getpid(),
             (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)(ts.tv_nsec / 1000),
             rnd);
}

/* Three per rank here; across hosts the proxies hold the ranks', and
 * mpiexec a connection, an agent's stderr and for a moment a connection
 * not yet introduced per host (poll(2) refuses more descriptors than the
 * limit, open or not). */
static int enough_fds(const struct options *o, int size)
{
    char why[128];
    int n = o->remote ? o->nhosts : size;
    if (open_files_ensure((size_t)n * 3 + 32, why, sizeof why) == 0) return 0;
    fprintf(stderr, "mpiexec: %d %s %s\n", n, o->remote ? "hosts" : "ranks", why);
    return -1;
}

static int check_programs(struct options *o)
{
    for (int k = 0; k < o->nblocks; k++) {
        struct block *b = &o->blocks[k];
        if (b->wdir) {
            struct stat st;
            if (stat(b->wdir, &st) < 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "mpiexec: cannot use -wdir '%s': %s\n", b->wdir,
                        strerror(errno ? errno : ENOTDIR));
                return -1;
            }
        }
        b->path = resolve_program(b->argv[0], envbuild_lookup(o, b, "PATH"), b->wdir);
        if (!b->path) return -1;
    }
    return 0;
}

static int start_ranks(struct job *job)
{
    struct options *o = job->opt;
    int next = 0;
    for (int k = 0; k < o->nblocks; k++) {
        const struct block *b = &o->blocks[k];
        struct rank_env re;
        envbuild_block(&re, o, b, job->size, k, job->job_id, job->shm_fd);
        if (o->verbose)
            fprintf(stderr, "mpiexec: job %s: ranks %d-%d run %s\n", job->job_id, next,
                    next + b->nprocs - 1, b->path);
        for (int i = 0; i < b->nprocs; i++, next++)
            if (spawn_rank(job, &job->ranks[next], &re, b) < 0) {
                envbuild_free(&re);
                return -1;
            }
        envbuild_free(&re);
    }
    return 0;
}

static void job_free(struct job *job)
{
    for (int i = 0; i < job->size; i++) {
        struct rank *r = &job->ranks[i];
        if (r->sock >= 0) close(r->sock);
        for (int s = 0; s < 2; s++)
            if (r->pipe[s] >= 0) close(r->pipe[s]);
        buf_free(&r->in);
        buf_free(&r->out);
    }
    output_free(job);
    relay_stop(job);
    relay_after_spawn(job);
    kvstore_free(&job->kvs);
    if (job->devnull >= 0) close(job->devnull);
    if (job->shm_fd >= 0) close(job->shm_fd);
    free(job->ranks);
}

int main(int argc, char **argv)
{
    keep_std_fds_open();
    struct options o;
    int rc = options_parse(argc, argv, &o);
    if (rc != 0) {
        options_free(&o);
        return rc == 1 ? 0 : 2;
    }
    if (check_programs(&o) < 0) {
        options_free(&o);
        return 2;
    }

    struct job job;
    memset(&job, 0, sizeof job);
    job.opt = &o;
    for (int k = 0; k < o.nblocks; k++) job.size += o.blocks[k].nprocs;
    if (enough_fds(&o, job.size) < 0 || signals_init() < 0) {
        options_free(&o);
        return 1;
    }
    job.shm_fd = -1;
    /* Across hosts each proxy makes its host's file. */
    if (job.size > 1 && !o.remote && (job.shm_fd = shmfile_create()) < 0) {
        options_free(&o);
        return 1;
    }
    job.ranks = xcalloc((size_t)job.size, sizeof *job.ranks);
    for (int k = 0, next = 0; k < o.nblocks; k++)
        for (int i = 0; i < o.blocks[k].nprocs; i++, next++) {
            struct rank *r = &job.ranks[next];
            r->rank = next;
            r->block = k;
            r->sock = r->pipe[0] = r->pipe[1] = -1;
            r->host = -1;
        }
    if (o.remote) {
        int *host_of = xcalloc((size_t)job.size, sizeof *host_of);
        placement_compute(&o, job.size, host_of);
        for (int i = 0; i < job.size; i++) job.ranks[i].host = host_of[i];
        free(host_of);
    }
    make_job_id(job.job_id, sizeof job.job_id);
    job.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    output_init(&job);
    kvstore_init(&job.kvs);
    if (o.remote) /* across hosts rank 0's proxy gets our stdin */
        relay_remote_setup(&job);
    else
        relay_setup(&job);
    if (o.timeout > 0) job.t_timeout = now_ms() + (int64_t)(o.timeout * 1000.0 + 0.5);

    if (o.remote) {
        if (remote_start(&job) < 0) {
            /* nothing ran yet, or the first agents die with us (agent.c) */
            job.reason = END_EXEC;
            job.exit_code = 2;
            job.alive = 0;
            remote_finish(&job);
            job_free(&job);
            options_free(&o);
            return 2;
        }
    } else if (job.devnull < 0 || start_ranks(&job) < 0)
        job_fail(&job, END_EXEC, 1, "mpiexec: could not start all %d ranks; ending the %d started",
                 job.size, job.spawned);
    relay_after_spawn(&job);
    /* The ranks hold the file now; our descriptor would only keep its
     * memory until mpiexec exits. */
    if (job.shm_fd >= 0) {
        close(job.shm_fd);
        job.shm_fd = -1;
    }

    int code = job_run(&job);
    if (o.verbose) { /* mpiexec's own share of a launch (bench/launch/tree.sh) */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr, "mpiexec: CPU time %.3f s user, %.3f s system\n",
                (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
                (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
    }
    job_free(&job);
    options_free(&o);
    return code;
}
