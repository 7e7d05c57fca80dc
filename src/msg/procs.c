/* The table of known processes (msg/procs.h).  Foreign processes are few
 * (those of the jobs this one connects to): a linear search, from the most
 * recently found, maps a sender's (job, rank) to its index. */
#include "msg/procs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/pid_life.h"
#include "core/state.h"

struct foreign {
    uint64_t job;
    int rank;
    int pid;                  /* 0 when unknown */
    uint64_t space;           /* its pid space */
    unsigned long long start; /* its start time */
    uint8_t dead;
};

static uint64_t job_key;
static struct foreign *foreign; /* index world_size + i */
static int nforeign, cap, last_hit;
static int (*route_new)(int w);
static int nnew_dead; /* marked and not yet returned by tern_procs_watch */

/* FNV-1a: job ids are unique strings; a 64-bit hash of them is unique in
 * practice among the few jobs one process meets. */
static uint64_t hash_id(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int tern_procs_init(int (*route_new_fn)(int w))
{
    route_new = route_new_fn;
    job_key = hash_id(tern_g.job_id);
    nforeign = cap = last_hit = nnew_dead = 0;
    tern_g.nprocs = tern_g.world_size;
    return MPI_SUCCESS;
}

void tern_procs_finalize(void)
{
    free(foreign);
    foreign = NULL;
    nforeign = cap = 0;
    tern_g.nprocs = tern_g.world_size;
}

uint64_t tern_procs_job_key(void) { return job_key; }

int tern_procs_count(void) { return tern_g.nprocs; }

static int find(uint64_t job, int rank)
{
    for (int k = 0; k < nforeign; k++) {
        int i = (last_hit + k) % nforeign;
        if (foreign[i].job == job && foreign[i].rank == rank) {
            last_hit = i;
            return tern_g.world_size + i;
        }
    }
    return -1;
}

/* The host table grows with the processes (a foreign process shares no
 * host's memory with this job: -1, never equal to a host index); the
 * route grows in route_new. */
static int grow(int n)
{
    int *h = realloc(tern_g.host_of, (size_t)n * sizeof *h);
    if (!h) return -1;
    tern_g.host_of = h;
    return 0;
}

int tern_proc_intern(uint64_t job, int rank)
{
    if (job == job_key) return rank;
    int w = find(job, rank);
    if (w >= 0) return w;
    if (nforeign == cap) {
        int ncap = cap ? 2 * cap : 16;
        struct foreign *p = realloc(foreign, (size_t)ncap * sizeof *p);
        if (!p) return -1;
        foreign = p;
        cap = ncap;
    }
    w = tern_g.world_size + nforeign;
    if (grow(w + 1) != 0 || !route_new || route_new(w) != 0) return -1;
    tern_g.host_of[w] = -1;
    foreign[nforeign++] = (struct foreign){.job = job, .rank = rank};
    tern_g.nprocs = w + 1;
    return w;
}

void tern_proc_id(int w, uint64_t *job, int *rank)
{
    if (w < tern_g.world_size) {
        *job = job_key;
        *rank = w;
    } else {
        *job = foreign[w - tern_g.world_size].job;
        *rank = foreign[w - tern_g.world_size].rank;
    }
}

int tern_proc_before(int a, int b)
{
    uint64_t ja, jb;
    int ra, rb;
    tern_proc_id(a, &ja, &ra);
    tern_proc_id(b, &jb, &rb);
    return ja != jb ? ja < jb : ra < rb;
}

static struct foreign *foreign_of(int w)
{
    return w >= tern_g.world_size && w < tern_g.world_size + nforeign
               ? &foreign[w - tern_g.world_size]
               : NULL;
}

void tern_proc_set_life(int w, uint64_t space, int pid, unsigned long long start)
{
    struct foreign *f = foreign_of(w);
    if (!f) return;
    f->space = space;
    f->pid = pid;
    f->start = start;
}

int tern_proc_pid_visible(int w)
{
    const struct foreign *f = foreign_of(w);
    return f && f->pid > 0 && f->space == tern_pid_space();
}

void tern_proc_mark_dead(int w)
{
    struct foreign *f = foreign_of(w);
    if (!f || f->dead) return;
    f->dead = 1;
    nnew_dead++;
}

int tern_proc_is_dead(int w)
{
    const struct foreign *f = foreign_of(w);
    return f && f->dead;
}

int tern_procs_watch(void)
{
    for (int i = 0; i < nforeign; i++) {
        struct foreign *f = &foreign[i];
        if (!f->dead && tern_proc_pid_visible(tern_g.world_size + i) &&
            tern_pid_gone(f->pid, f->start))
            tern_proc_mark_dead(tern_g.world_size + i);
    }
    int n = nnew_dead;
    nnew_dead = 0;
    return n;
}

const char *tern_proc_describe(int w)
{
    static char text[96];
    const struct foreign *f = foreign_of(w);
    if (!f)
        snprintf(text, sizeof text, "rank %d of this job", w);
    else if (f->pid > 0)
        snprintf(text, sizeof text, "rank %d of its job, pid %d", f->rank, f->pid);
    else
        snprintf(text, sizeof text, "rank %d of its job", f->rank);
    return text;
}
