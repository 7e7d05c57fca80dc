/* Making and freeing windows (collective over their communicator). */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap/boot.h"
#include "coll/coll.h"
#include "core/attr.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/state.h"
#include "rma/alloc_mem.h"
#include "rma/win_am.h"
#include "rma/win_mbox.h"
#include "rma/win_seg.h"
#include "transport/shm/shm.h"

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* What each member tells the others at creation. */
struct offer {
    uint64_t base;
    int64_t size;
    int32_t disp_unit, pid;
    int32_t cma_ok; /* CMA reaches every other member both ways */
    int32_t pad;
    struct tern_win_file_offer file; /* its memory's shared file (MPI_Alloc_mem) */
};

static int same_host(const struct tern_group *g, int *other)
{
    int h0 = tern_g.host_of ? tern_g.host_of[g->world[0]] : 0;
    for (int i = 1; i < g->size; i++)
        if (tern_g.host_of && tern_g.host_of[g->world[i]] != h0) {
            *other = i;
            return 0;
        }
    return 1;
}

static int cma_reaches_all(const struct tern_group *g)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] != tern_g.world_rank && !tern_shm_cma_pid(g->world[i])) return 0;
    return 1;
}

static void set_default(char *dst, size_t n, const struct tern_info *info, const char *key,
                        const char *dflt)
{
    const char *v = info ? tern_info_find(info, key) : NULL;
    snprintf(dst, n, "%s", v ? v : dflt);
}

static int flag_of(const struct tern_info *info, const char *key)
{
    const char *v = info ? tern_info_find(info, key) : NULL;
    return v && strcmp(v, "true") == 0;
}

void tern_win_apply_info(struct tern_win *w, const struct tern_info *info)
{
    if (!info) return;
    /* alloc_shared_noncontig changes no layout once allocated, but the
     * value given last is the one reported. */
    unsigned keep = w->hints & (TERN_WIN_NONCONTIG | TERN_WIN_NONCONTIG_SAID);
    if (tern_info_find(info, "alloc_shared_noncontig"))
        keep = (keep & ~TERN_WIN_NONCONTIG_SAID) |
               (flag_of(info, "alloc_shared_noncontig") ? TERN_WIN_NONCONTIG_SAID : 0);
    w->hints = keep | (flag_of(info, "no_locks") ? TERN_WIN_NO_LOCKS : 0) |
               (flag_of(info, "same_size") ? TERN_WIN_SAME_SIZE : 0) |
               (flag_of(info, "same_disp_unit") ? TERN_WIN_SAME_DISP : 0);
    if (tern_info_find(info, "accumulate_ops"))
        set_default(w->acc_ops, sizeof w->acc_ops, info, "accumulate_ops", "same_op_no_op");
    if (tern_info_find(info, "accumulate_ordering"))
        set_default(w->acc_order, sizeof w->acc_order, info, "accumulate_ordering",
                    "rar,raw,war,waw");
}

struct tern_info *tern_win_info(const struct tern_win *w)
{
    struct tern_info *i = tern_info_new();
    if (!i) return NULL;
    int rc = tern_info_set(i, "no_locks", w->hints & TERN_WIN_NO_LOCKS ? "true" : "false");
    if (!rc) rc = tern_info_set(i, "accumulate_ordering", w->acc_order);
    if (!rc) rc = tern_info_set(i, "accumulate_ops", w->acc_ops);
    if (!rc) rc = tern_info_set(i, "same_size", w->hints & TERN_WIN_SAME_SIZE ? "true" : "false");
    if (!rc)
        rc = tern_info_set(i, "same_disp_unit", w->hints & TERN_WIN_SAME_DISP ? "true" : "false");
    if (!rc)
        rc = tern_info_set(i, "alloc_shared_noncontig",
                           w->hints & TERN_WIN_NONCONTIG_SAID ? "true" : "false");
    /* Accumulates are atomic per basic element (win_ops.c). */
    if (!rc) rc = tern_info_set(i, "mpi_accumulate_granularity", "0");
    if (rc) {
        tern_info_destroy(i);
        return NULL;
    }
    return i;
}

static struct tern_win *win_new(struct tern_comm *comm, int flavor)
{
    struct tern_win *w = calloc(1, sizeof *w);
    int n = comm->size;
    if (!w) return NULL;
    w->flavor = flavor;
    w->rank = comm->rank;
    w->size = n;
    w->group = comm->group;
    tern_group_retain(w->group);
    w->errh = &tern_errh_fatal;
    tern_errh_retain(w->errh);
    snprintf(w->acc_ops, sizeof w->acc_ops, "same_op_no_op");
    snprintf(w->acc_order, sizeof w->acc_order, "rar,raw,war,waw");
    w->peer = calloc((size_t)n, sizeof *w->peer);
    w->lock_held = calloc((size_t)n, 1);
    w->lock_nocheck = calloc((size_t)n, 1);
    w->started = calloc((size_t)n, 1);
    w->posted = calloc((size_t)n, 1);
    w->start_seen = calloc((size_t)n, sizeof(uint32_t));
    w->wait_seen = calloc((size_t)n, sizeof(uint32_t));
    if (!w->peer || !w->lock_held || !w->lock_nocheck || !w->started || !w->posted ||
        !w->start_seen || !w->wait_seen)
        tern_fatal("out of memory for a window of %d ranks", n);
    if (flavor == MPI_WIN_FLAVOR_DYNAMIC) tern_win_dyn_open(w);
    return w;
}

static void win_destroy(struct tern_win *w)
{
    if (w->am) {
        /* Its control area is this process's own memory (build). */
        free(w->seg);
        w->seg = NULL;
        tern_win_am_close(w);
    }
    tern_win_mbox_close(w);
    tern_win_seg_close(w);
    tern_win_dyn_close(w);
    tern_group_release(w->group);
    tern_errh_release(w->errh);
    free(w->peer);
    free(w->lock_held);
    free(w->lock_nocheck);
    free(w->started);
    free(w->posted);
    free(w->start_seen);
    free(w->wait_seen);
    free(w);
}

/* Whether the other members map this window's memory: each member's
 * shared file from the offers. */
static int map_created(struct tern_win *w, struct tern_comm *comm, const struct offer *all)
{
    struct tern_win_file_offer *files = calloc((size_t)w->size, sizeof *files);
    if (!files) tern_fatal("out of memory for a window of %d ranks", w->size);
    for (int r = 0; r < w->size; r++) files[r] = all[r].file;
    int rc = tern_win_seg_map_created(w, comm, files);
    free(files);
    return rc;
}

/* The common part of every flavor: the checks every member agrees on, the
 * exchange, the segment (ctl plus, for allocated windows, 'data' laid out
 * from the sizes) and the handle. */
static int build(const char *fn, int flavor, void *base, MPI_Aint size, int disp_unit,
                 const struct tern_info *info, struct tern_comm *comm, struct tern_win **out)
{
    char cl[64];
    int other = 0;
    int spans = !same_host(comm->group, &other);
    if (spans && flavor == MPI_WIN_FLAVOR_SHARED)
        return tern_err_comm(comm, MPI_ERR_RMA_SHARED,
                             "%s: the group of %s spans hosts (rank 0 and rank %d are on different "
                             "hosts): a shared-memory window needs every member on one host",
                             fn, tern_comm_label(comm, cl, sizeof cl), other);
    /* Across hosts MPI_Win_allocate's memory is this process's own, and
     * peers reach every kind of window by messages, not CMA. */
    void *mem = NULL;
    if (spans && flavor == MPI_WIN_FLAVOR_ALLOCATE && size > 0) {
        mem = calloc(1, (size_t)size);
        if (!mem)
            return tern_err_comm(comm, MPI_ERR_NO_MEM, "%s: out of memory for %lld bytes", fn,
                                 (long long)size);
        base = mem;
    }
    int need_cma = !spans && (flavor == MPI_WIN_FLAVOR_CREATE || flavor == MPI_WIN_FLAVOR_DYNAMIC);
    struct offer mine = {(uint64_t)(uintptr_t)base,
                         (int64_t)size,
                         disp_unit,
                         (int32_t)getpid(),
                         !need_cma || cma_reaches_all(comm->group),
                         0,
                         {(int32_t)getpid(), -1, 0, 0, 0}};
    struct tern_mem_file mf;
    if (!spans && flavor == MPI_WIN_FLAVOR_CREATE && size > 0 &&
        tern_alloc_mem_file(base, (size_t)size, &mf)) {
        mine.file.fd = mf.fd;
        mine.file.ino = mf.ino;
        mine.file.file_bytes = mf.file_bytes;
        mine.file.offset = mf.offset;
    }
    struct offer *all = calloc((size_t)comm->size, sizeof *all);
    if (!all) {
        free(mem);
        return tern_err_comm(comm, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    struct tern_datatype *byte = tern_dt_get(MPI_BYTE);
    int rc = tern_coll_allgather(&mine, sizeof mine, byte, all, sizeof mine, byte, comm);
    if (rc) {
        free(all);
        free(mem);
        return tern_err_raise(comm, rc);
    }
    struct tern_win *w = win_new(comm, flavor);
    if (flavor == MPI_WIN_FLAVOR_SHARED)
        w->hints |= flag_of(info, "alloc_shared_noncontig") ? TERN_WIN_NONCONTIG : 0;
    tern_win_apply_info(w, info);
    int n = comm->size;
    size_t ctl = tern_win_ctl_bytes(n), data = 0;
    size_t *off = calloc((size_t)n, sizeof *off);
    if (!off) tern_fatal("out of memory for a window of %d ranks", n);
    int allocated =
        !spans && (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED);
    if (allocated) {
        /* Shared windows are contiguous across ranks unless asked otherwise
         * (MPI-4.1 12.2.3); the others start each on a line of their own. */
        size_t a =
            flavor == MPI_WIN_FLAVOR_SHARED ? (w->hints & TERN_WIN_NONCONTIG ? 4096 : 1) : 64;
        for (int r = 0; r < n; r++) {
            data = align_up(data, a);
            off[r] = data;
            data += (size_t)all[r].size;
        }
    }
    if (spans) {
        /* No segment to share: the control area holds this rank's own
         * entries only (its attached regions). */
        rc = tern_win_am_open(w, comm);
        if (!rc) {
            w->am->mem = mem;
            mem = NULL;
            w->seg = calloc(1, ctl);
            if (!w->seg) tern_fatal("out of memory for a window of %d ranks", n);
            w->seg_bytes = ctl;
            w->ctl = (struct tern_win_ctl *)w->seg;
        }
    } else {
        rc = tern_win_seg_open(w, comm, ctl + align_up(data, 4096));
    }
    if (rc) {
        free(mem);
        free(off);
        free(all);
        win_destroy(w);
        return tern_err_raise(comm, rc);
    }
    w->mapped = allocated;
    for (int r = 0; r < n; r++) {
        struct tern_win_peer *p = &w->peer[r];
        p->world = comm->group->world[r];
        p->size = (MPI_Aint)all[r].size;
        p->disp_unit = all[r].disp_unit;
        if (allocated) {
            p->local = w->seg + ctl + off[r];
            p->base = (uint64_t)(uintptr_t)p->local;
        } else {
            p->base = all[r].base;
            p->pid = r == w->rank || spans ? 0 : tern_shm_cma_pid(p->world);
            if (r == w->rank) p->local = base;
        }
    }
    w->base = allocated ? (size ? w->peer[w->rank].local : NULL) : base;
    free(off);
    if (!spans && flavor == MPI_WIN_FLAVOR_CREATE) rc = map_created(w, comm, all);
    for (int r = 0; r < n && !rc && !w->mapped; r++)
        if (!all[r].cma_ok)
            rc = tern_err_make(MPI_ERR_UNSUPPORTED_OPERATION,
                               "%s: rank %d of %s cannot read and write the other ranks' "
                               "memory with CMA (process_vm_readv/writev, see "
                               "TERN_SMP_USE_CMA and ptrace permissions), which windows on "
                               "user memory need unless it comes from MPI_Alloc_mem; "
                               "MPI_Win_allocate needs no CMA",
                               fn, r, tern_comm_label(comm, cl, sizeof cl));
    free(all);
    if (rc) {
        win_destroy(w);
        return tern_err_raise(comm, rc);
    }
    if (spans) {
        rc = tern_win_ucp_open(w, comm, base, (size_t)size);
        if (rc) {
            win_destroy(w);
            return tern_err_raise(comm, rc);
        }
    }
    w->handle = tern_objtab_insert(&tern_win_table, w);
    if (!w->handle) {
        win_destroy(w);
        return tern_err_comm(comm, MPI_ERR_NO_MEM, "%s: out of memory for a window handle", fn);
    }
    if (!spans) tern_win_mbox_open(w);
    /* Nobody may reach another's control area before it is mapped everywhere. */
    tern_win_barrier(w);
    /* Where the others mapped the segment is known now (win_seg.c). */
    for (int r = 0; r < n && allocated && !spans; r++)
        w->peer[r].base = tern_win_rank_ctl(w, r)->seg_at + (uint64_t)(w->peer[r].local - w->seg);
    *out = w;
    return MPI_SUCCESS;
}

int tern_win_create(const char *fn, void *base, MPI_Aint size, int disp_unit,
                    const struct tern_info *info, struct tern_comm *comm, struct tern_win **out)
{
    return build(fn, MPI_WIN_FLAVOR_CREATE, size ? base : NULL, size, disp_unit, info, comm, out);
}

int tern_win_allocate(const char *fn, int flavor, MPI_Aint size, int disp_unit,
                      const struct tern_info *info, struct tern_comm *comm, void *baseptr,
                      struct tern_win **out)
{
    int rc = build(fn, flavor, NULL, size, disp_unit, info, comm, out);
    if (rc == MPI_SUCCESS) *(void **)baseptr = (*out)->base;
    return rc;
}

int tern_win_create_dynamic(const char *fn, const struct tern_info *info, struct tern_comm *comm,
                            struct tern_win **out)
{
    return build(fn, MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, out);
}

int tern_win_free(const char *fn, struct tern_win *w)
{
    char wl[64];
    if (w->nlocks || w->lock_all || w->start_open || w->post_open)
        return tern_win_err(w, MPI_ERR_RMA_SYNC,
                            "%s: %s still has an epoch open on rank %d (%s): close it first", fn,
                            tern_win_label(w, wl, sizeof wl), w->rank,
                            w->nlocks || w->lock_all ? "a lock"
                            : w->start_open          ? "MPI_Win_start"
                                                     : "MPI_Win_post");
    int rc = tern_attr_delete_all(&w->attrs, w->handle);
    if (rc) return tern_win_raise(w, rc);
    /* Every member's last access is over before the segment goes. */
    if (w->am && (rc = tern_win_am_flush(fn, w, -1))) return rc;
    tern_win_barrier(w);
    tern_objtab_remove(&tern_win_table, w->handle);
    win_destroy(w);
    return MPI_SUCCESS;
}
