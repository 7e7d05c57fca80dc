/* Schedules of the rooted data movers: bcast, gather(v), scatter(v)
 * (intercommunicators: nbc_inter.c; which algorithm runs: select.c).
 *
 * Bcast, gather and scatter use binomial trees over ranks relative to the
 * root (the same trees as the blocking forms): the subtree of relative rank
 * vr is [vr, vr + lowbit(vr)), cut at n, and its parent is vr - lowbit(vr).
 * Gather and scatter move a subtree's blocks packed in one message, so a
 * rank takes part in ceil(log2 n) rounds at most; the root receives or
 * sends each subtree's blocks straight in its buffer, packing only the one
 * subtree whose ranks wrap past n - 1.
 *
 * Linear (the blocking forms too, through sched_blocking.c): every message
 * to or from the root at once, the root's own copy last.  Above the eager
 * size on one host each receiver then reads the root's buffer itself
 * (CMA), or a sender waiting in MPI writes into it, all at the same time
 * and each when it runs, where a tree makes a rank wait for its parent's
 * copy (log2 n handshakes in a row, each needing both sides on a core when
 * ranks outnumber cores).  Gatherv and scatterv are linear only, since
 * only the root knows the counts. */
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/sched.h"

/* The subtree size of relative rank vr; *parent its parent's real rank. */
static int subtree(int vr, int n, int root, int *parent)
{
    int sub = vr == 0 ? n : tern_coll_lowbit(vr);
    if (sub > n - vr) sub = n - vr;
    *parent = vr == 0 ? -1 : (vr - tern_coll_lowbit(vr) + root) % n;
    return sub;
}

int tern_nbc_bcast_binomial(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                            int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (n == 1 || count * dt->size == 0) return MPI_SUCCESS;
    int vr = (r - root + n) % n, mask = 1;
    for (; mask < n; mask <<= 1)
        if (vr & mask) {
            tern_sched_recv(s, buf, count, dt, (r - mask + n) % n);
            tern_sched_round(s);
            break;
        }
    /* Children, the largest subtree first. */
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n) tern_sched_send(s, buf, count, dt, (r + mask) % n);
    return tern_sched_round(s);
}

int tern_nbc_gather_binomial(struct tern_sched *s, const void *sbuf, size_t scount,
                             struct tern_datatype *sdt, void *rbuf, size_t rcount,
                             struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank, vr = (r - root + n) % n, parent;
    size_t blk = r == root ? rcount * rdt->size : scount * sdt->size;
    if (blk == 0) return MPI_SUCCESS; /* every rank's block is empty then */
    struct tern_datatype *bt = tern_coll_byte();

    if (r == root && sbuf != MPI_IN_PLACE)
        tern_sched_copy(s, sbuf, scount, sdt,
                        tern_coll_elem(rbuf, rdt, (MPI_Aint)root * (MPI_Aint)rcount), rcount, rdt);
    if (n == 1) return tern_sched_round(s);
    int sub = subtree(vr, n, root, &parent);
    if (sub == 1) return tern_sched_send(s, sbuf, scount, sdt, parent);

    if (r == root) {
        int wrap_first = -1, wrap_cnt = 0;
        char *tmp = NULL;
        for (int mask = 1; mask < n; mask <<= 1) {
            int cnt = n - mask < mask ? n - mask : mask, first = (root + mask) % n;
            if (first + cnt <= n) {
                tern_sched_recv(s, tern_coll_elem(rbuf, rdt, (MPI_Aint)first * (MPI_Aint)rcount),
                                (size_t)cnt * rcount, rdt, first);
            } else if ((tmp = tern_sched_buf(s, (size_t)cnt * blk))) {
                wrap_first = first;
                wrap_cnt = cnt;
                tern_sched_recv(s, tmp, (size_t)cnt * blk, bt, first);
            }
        }
        tern_sched_round(s);
        for (int j = 0; j < wrap_cnt; j++)
            tern_sched_copy(
                s, tmp + (size_t)j * blk, blk, bt,
                tern_coll_elem(rbuf, rdt, (MPI_Aint)((wrap_first + j) % n) * (MPI_Aint)rcount),
                rcount, rdt);
        return tern_sched_round(s);
    }
    /* Block j of tmp is relative rank vr + j's. */
    char *tmp = tern_sched_buf(s, (size_t)sub * blk);
    if (!tmp) return tern_sched_round(s);
    tern_sched_copy(s, sbuf, scount, sdt, tmp, blk, bt);
    for (int mask = 1; mask < sub; mask <<= 1) {
        int cnt = sub - mask < mask ? sub - mask : mask;
        tern_sched_recv(s, tmp + (size_t)mask * blk, (size_t)cnt * blk, bt, (vr + mask + root) % n);
    }
    tern_sched_round(s);
    return tern_sched_send(s, tmp, (size_t)sub * blk, bt, parent);
}

/* Block i of rbuf (at the root): count(i) elements at disp(i) extents,
 * from rcounts and displs, or rcount each in rank order when rcounts is
 * NULL. */
#define COUNT_OF(i) (counts ? (size_t)counts[i] : count)
#define DISP_OF(i) (displs ? (MPI_Aint)displs[i] : (MPI_Aint)(i) * (MPI_Aint)count)

/* Every rank to the root at once. */
static int gather_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                         struct tern_datatype *sdt, void *rbuf, const int *counts,
                         const int *displs, size_t count, struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (r != root) {
        if (scount * sdt->size == 0) return MPI_SUCCESS;
        return tern_sched_send(s, sbuf, scount, sdt, root);
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        if (COUNT_OF(i) * rdt->size != 0)
            tern_sched_recv(s, tern_coll_elem(rbuf, rdt, DISP_OF(i)), COUNT_OF(i), rdt, i);
    }
    if (sbuf != MPI_IN_PLACE)
        tern_sched_copy(s, sbuf, scount, sdt, tern_coll_elem(rbuf, rdt, DISP_OF(root)),
                        COUNT_OF(root), rdt);
    return tern_sched_round(s);
}

/* The root to every rank at once. */
static int scatter_linear(struct tern_sched *s, const void *sbuf, const int *counts,
                          const int *displs, size_t count, struct tern_datatype *sdt, void *rbuf,
                          size_t rcount, struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (r != root) {
        if (rcount * rdt->size == 0) return MPI_SUCCESS;
        return tern_sched_recv(s, rbuf, rcount, rdt, root);
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        if (COUNT_OF(i) * sdt->size != 0)
            tern_sched_send(s, tern_coll_elem(sbuf, sdt, DISP_OF(i)), COUNT_OF(i), sdt, i);
    }
    if (rbuf != MPI_IN_PLACE)
        tern_sched_copy(s, tern_coll_elem(sbuf, sdt, DISP_OF(root)), COUNT_OF(root), sdt, rbuf,
                        rcount, rdt);
    return tern_sched_round(s);
}
#undef COUNT_OF
#undef DISP_OF

int tern_nbc_gather_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                           struct tern_datatype *sdt, void *rbuf, size_t rcount,
                           struct tern_datatype *rdt, int root)
{
    return gather_linear(s, sbuf, scount, sdt, rbuf, NULL, NULL, rcount, rdt, root);
}

int tern_nbc_gatherv_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, void *rbuf, const int *rcounts,
                            const int *displs, struct tern_datatype *rdt, int root)
{
    return gather_linear(s, sbuf, scount, sdt, rbuf, rcounts, displs, 0, rdt, root);
}

int tern_nbc_scatter_linear(struct tern_sched *s, const void *sbuf, size_t scount,
                            struct tern_datatype *sdt, void *rbuf, size_t rcount,
                            struct tern_datatype *rdt, int root)
{
    return scatter_linear(s, sbuf, NULL, NULL, scount, sdt, rbuf, rcount, rdt, root);
}

int tern_nbc_bcast_linear(struct tern_sched *s, void *buf, size_t count, struct tern_datatype *dt,
                          int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (count * dt->size == 0) return MPI_SUCCESS;
    if (r != root)
        tern_sched_recv(s, buf, count, dt, root);
    else
        for (int k = 1; k < n; k++) tern_sched_send(s, buf, count, dt, (root + k) % n);
    return tern_sched_round(s);
}

int tern_nbc_scatter_binomial(struct tern_sched *s, const void *sbuf, size_t scount,
                              struct tern_datatype *sdt, void *rbuf, size_t rcount,
                              struct tern_datatype *rdt, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank, vr = (r - root + n) % n, parent;
    size_t blk = r == root ? scount * sdt->size : rcount * rdt->size;
    if (blk == 0) return MPI_SUCCESS;
    struct tern_datatype *bt = tern_coll_byte();

    if (n == 1) {
        if (rbuf != MPI_IN_PLACE) tern_sched_copy(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        return tern_sched_round(s);
    }
    int sub = subtree(vr, n, root, &parent);
    if (sub == 1) return tern_sched_recv(s, rbuf, rcount, rdt, parent);

    if (r == root) {
        int top = 1;
        while (top * 2 < n) top *= 2;
        for (int mask = top; mask > 0; mask >>= 1) {
            int cnt = n - mask < mask ? n - mask : mask, first = (root + mask) % n;
            if (first + cnt <= n) {
                tern_sched_send(s, tern_coll_elem(sbuf, sdt, (MPI_Aint)first * (MPI_Aint)scount),
                                (size_t)cnt * scount, sdt, first);
                continue;
            }
            char *tmp = tern_sched_buf(s, (size_t)cnt * blk);
            if (!tmp) return tern_sched_round(s);
            for (int j = 0; j < cnt; j++)
                tern_sched_copy(
                    s, tern_coll_elem(sbuf, sdt, (MPI_Aint)((first + j) % n) * (MPI_Aint)scount),
                    scount, sdt, tmp + (size_t)j * blk, blk, bt);
            tern_sched_send(s, tmp, (size_t)cnt * blk, bt, first); /* after the copies */
        }
        /* the root's own block while the children take theirs */
        if (rbuf != MPI_IN_PLACE)
            tern_sched_copy(s, tern_coll_elem(sbuf, sdt, (MPI_Aint)root * (MPI_Aint)scount), scount,
                            sdt, rbuf, rcount, rdt);
        return tern_sched_round(s);
    }
    char *tmp = tern_sched_buf(s, (size_t)sub * blk);
    if (!tmp) return tern_sched_round(s);
    tern_sched_recv(s, tmp, (size_t)sub * blk, bt, parent);
    tern_sched_round(s);
    tern_sched_copy(s, tmp, blk, bt, rbuf, rcount, rdt);
    int mask = 1;
    while (mask < sub) mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int cnt = sub - mask < mask ? sub - mask : mask;
        tern_sched_send(s, tmp + (size_t)mask * blk, (size_t)cnt * blk, bt, (vr + mask + root) % n);
    }
    return tern_sched_round(s);
}

int tern_nbc_scatterv_linear(struct tern_sched *s, const void *sbuf, const int *scounts,
                             const int *displs, struct tern_datatype *sdt, void *rbuf,
                             size_t rcount, struct tern_datatype *rdt, int root)
{
    return scatter_linear(s, sbuf, scounts, displs, 0, sdt, rbuf, rcount, rdt, root);
}
