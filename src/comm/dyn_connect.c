/* Two groups, each with its own communicator, become the two sides of an
 * intercommunicator through one socket between their roots (comm/dyn.h).
 *
 * Each member describes itself in a record of one size for the whole
 * group (its job key, its rank in its job's world, its UCX worker
 * address); the root gathers them, the roots swap them, and each root
 * broadcasts the other side's.  The context id is the agreement of
 * comm_create.c, with the roots' swap of each round going over the socket. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "comm/comm.h"
#include "comm/dyn.h"
#include "core/errors.h"
#include "core/pid_life.h"
#include "datatype/datatype.h"
#include "msg/procs.h"
#include "p2p/transport.h"

struct rec_head {
    uint64_t job;
    int32_t rank;
    int32_t len; /* of the address that follows */
    /* how the other side tells this process has died (msg/procs.h) */
    uint64_t pid_space;
    uint64_t start;
    int32_t pid, pad;
};

/* The roots' side of each round of the context agreement.  A broken
 * socket leaves the round as if the other side had offered the same (the
 * agreement must finish on this side, whose members wait in it); the
 * failure is reported once it has. */
struct sock_swap {
    int fd, writes_first, failed;
};

static void swap_round(void *arg, const uint32_t mine[2], uint32_t theirs[2])
{
    struct sock_swap *s = arg;
    theirs[0] = mine[0];
    theirs[1] = mine[1];
    if (s->failed) return;
    uint32_t in[2];
    int bad = tern_sock_write(s->fd, mine, sizeof in) != 0 ||
              tern_sock_read(s->fd, in, sizeof in, -1) != 0;
    if (bad) {
        s->failed = 1;
        return;
    }
    theirs[0] = in[0];
    theirs[1] = in[1];
}

/* The roots swap their groups' records over the socket: sizes, then the
 * records, the writer first, so neither blocks in a write the other does
 * not read ('arg': the struct sock_swap). */
static int swap_records(void *arg, const int32_t mine_hdr[2], const void *mine,
                        int32_t theirs_hdr[2], void **theirs)
{
    const struct sock_swap *s = arg;
    size_t mine_bytes = (size_t)mine_hdr[0] * (size_t)mine_hdr[1];
    *theirs = NULL;
    for (int step = 0; step < 2; step++) {
        if ((step == 0) == (s->writes_first != 0)) {
            if (tern_sock_write(s->fd, mine_hdr, 2 * sizeof(int32_t)) ||
                tern_sock_write(s->fd, mine, mine_bytes))
                return -1;
        } else {
            if (tern_sock_read(s->fd, theirs_hdr, 2 * sizeof(int32_t), -1)) return -1;
            if (theirs_hdr[0] < 1 || theirs_hdr[1] < (int32_t)sizeof(struct rec_head) ||
                theirs_hdr[0] > (1 << 24) || theirs_hdr[1] > (1 << 20))
                return -1;
            size_t n = (size_t)theirs_hdr[0] * (size_t)theirs_hdr[1];
            if (!(*theirs = malloc(n)) || tern_sock_read(s->fd, *theirs, n, -1)) return -1;
        }
    }
    return 0;
}

int tern_dyn_remote_group(const char *fn, int errclass, const void *records, const int32_t hdr[2],
                          struct tern_group **out)
{
    const unsigned char *recs = records;
    int n = hdr[0], slot = hdr[1];
    struct tern_group *g = tern_group_new(n);
    if (!g) return tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for a group of %d", fn, n);
    for (int i = 0; i < n; i++) {
        struct rec_head h;
        memcpy(&h, recs + (size_t)i * (size_t)slot, sizeof h);
        int w = tern_proc_intern(h.job, h.rank);
        if (w < 0) {
            tern_group_release(g);
            return tern_err_make(errclass, "%s: cannot add process %d of another job", fn, h.rank);
        }
        g->world[i] = w;
        if (w >= tern_g.world_size) {
            tern_proc_set_life(w, h.pid_space, h.pid, h.start);
            int rc = tern_p2p_foreign_connect(w, recs + (size_t)i * (size_t)slot + sizeof h,
                                              (size_t)h.len);
            if (rc) {
                tern_group_release(g);
                return tern_err_make(errclass, "%s: %s", fn, tern_err_text(rc));
            }
        }
    }
    tern_group_set_rank(g);
    *out = g;
    return MPI_SUCCESS;
}

int tern_dyn_records(const char *fn, struct tern_comm *local, int root, int root_rc, int errclass,
                     tern_dyn_swap_fn *swap, void *arg, int32_t hdr[2], void **recs)
{
    struct tern_datatype *it = tern_dt_get(MPI_INT), *bt = tern_dt_get(MPI_BYTE);
    int n = local->size, me = local->rank, lead = me == root, rc;
    void *addr = NULL;
    size_t alen = 0;
    *recs = NULL;

    /* Everyone ready (UCX up, the root connected), and the record size. */
    int my_rc = tern_p2p_foreign_address(&addr, &alen);
    int v[3] = {my_rc ? tern_err_class_of(my_rc) : 0, lead && root_rc ? 1 : 0, (int)alen}, all[3];
    rc = tern_coll_allreduce(v, all, 3, it, tern_op_get(MPI_MAX), local);
    if (rc || all[0] || all[1]) {
        free(addr);
        if (rc) return rc;
        if (my_rc) return my_rc;
        if (lead && root_rc) return root_rc;
        return tern_err_make(all[0] ? all[0] : errclass,
                             "%s: another member of the group could not take part (see its error)",
                             fn);
    }
    int slot = (int)((sizeof(struct rec_head) + (size_t)all[2] + 7) & ~(size_t)7);
    unsigned char *mine = calloc(1, (size_t)slot), *group = NULL;
    if (lead) group = malloc((size_t)slot * (size_t)n);
    if (!mine || (lead && !group)) {
        free(mine);
        free(group);
        free(addr);
        return tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory for %d records", fn, n);
    }
    struct rec_head h = {.job = tern_procs_job_key(),
                         .rank = tern_g.world_rank,
                         .len = (int32_t)alen,
                         .pid_space = tern_pid_space(),
                         .start = tern_pid_start_time((long)getpid()),
                         .pid = (int32_t)getpid()};
    memcpy(mine, &h, sizeof h);
    memcpy(mine + sizeof h, addr, alen);
    free(addr);
    rc = tern_coll_gather(mine, (size_t)slot, bt, group, (size_t)slot, bt, root, local);
    free(mine);

    /* The roots swap; then each side learns the result. */
    int32_t my_hdr[2] = {n, slot}, their_hdr[2] = {0, 0};
    void *theirs = NULL;
    int st[3] = {rc != 0, 0, 0};
    if (lead && !rc) {
        st[0] = swap(arg, my_hdr, group, their_hdr, &theirs) != 0;
        st[1] = their_hdr[0];
        st[2] = their_hdr[1];
    }
    free(group);
    if (!rc) rc = tern_coll_bcast(st, 3, it, root, local);
    if (rc || st[0]) {
        free(theirs);
        return rc ? rc
                  : tern_err_make(errclass, "%s: the other group's root went away while they met",
                                  fn);
    }
    if (!lead && !(theirs = malloc((size_t)st[1] * (size_t)st[2])))
        tern_fatal("%s: out of memory for the %d records of the other group", fn, st[1]);
    rc = tern_coll_bcast(theirs, (size_t)st[1] * (size_t)st[2], bt, root, local);
    if (rc) {
        free(theirs);
        return rc;
    }
    hdr[0] = st[1];
    hdr[1] = st[2];
    *recs = theirs;
    return MPI_SUCCESS;
}

int tern_dyn_meet(const char *fn, struct tern_comm *local, int root, int fd, int writes_first,
                  int root_rc, int errclass, struct tern_comm **out)
{
    int n = local->size, me = local->rank, lead = me == root;
    int32_t hdr[2];
    void *theirs = NULL;
    struct sock_swap sw = {fd, writes_first, 0};
    *out = NULL;
    int rc = tern_dyn_records(fn, local, root, root_rc, errclass, swap_records, &sw, hdr, &theirs);
    if (rc) return rc;

    /* The context id, agreed with the other side through the roots. */
    uint32_t ctx = 0;
    int *prank = malloc((size_t)n * sizeof(int));
    struct tern_ctx_peer x = {.swap = swap_round, .arg = &sw};
    if (!prank) rc = tern_err_make(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (!rc) {
        for (int i = 0; i < n; i++) prank[i] = (root + i) % n;
        rc = tern_ctx_agree(local, n, prank, (me - root + n) % n, TERN_TAG_CTX, lead ? &x : NULL,
                            TERN_INTER_CTX_IDS, &ctx);
    }
    free(prank);
    int failed = sw.failed;
    if (!rc) rc = tern_coll_bcast(&failed, 1, tern_dt_get(MPI_INT), root, local);
    if (!rc && failed)
        rc = tern_err_make(errclass, "%s: the other group's root went away while they met", fn);
    struct tern_group *remote = NULL;
    if (!rc) rc = tern_dyn_remote_group(fn, errclass, theirs, hdr, &remote);
    free(theirs);
    if (rc) return rc;
    rc = tern_intercomm_build(local->errh, local->group, remote, ctx, out);
    tern_group_release(remote);
    return rc;
}
