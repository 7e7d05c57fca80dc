/* Schedules of the reductions (intercommunicators: nbc_inter.c; which
 * algorithm runs: select.c).
 *
 * A reduce step computes inout = in op inout.  When the op is not
 * commutative and the data at hand belongs to the lower ranks, the builder
 * reduces into the other buffer instead and from then on treats that one
 * as the accumulator: the swap happens while building, so the schedule
 * itself only names fixed buffers.
 *
 * Reduce: binomial tree (rooted at rank 0 for non-commutative ops, where
 * every subtree is a contiguous range of ranks, then sent to the root).
 * Allreduce: recursive doubling, the ranks beyond the largest power of two
 * folded into their neighbours first.  Scan and exscan: recursive doubling.
 * Reduce_scatter(_block): every contribution sent to its owner at once,
 * then combined in rank order (valid for any op), two rounds. */
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "coll/nbc_inter.h"
#include "coll/op.h"
#include "coll/sched.h"

/* Combines *got (from the peer) into *acc; 'lower' when the peer's ranks
 * come before ours.  *acc and *got may trade places. */
static void combine(struct tern_sched *s, struct tern_op *op, int lower, char **acc, char **got,
                    size_t count, struct tern_datatype *dt)
{
    if (lower || op->commutative) {
        tern_sched_reduce(s, *got, *acc, count, dt, op);
    } else { /* got = acc op got, which becomes the accumulator */
        tern_sched_reduce(s, *acc, *got, count, dt, op);
        char *t = *acc;
        *acc = *got;
        *got = t;
    }
}

int tern_nbc_reduce_binomial(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                             struct tern_datatype *dt, struct tern_op *op, int root)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (count == 0) return MPI_SUCCESS;
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf; /* only at the root */
    if (n == 1) {
        if (sbuf != rbuf) tern_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
        return tern_sched_round(s);
    }
    int troot = op->commutative ? root : 0, vr = (r - troot + n) % n;
    /* Commutative: a leaf sends its own buffer, the root accumulates in
     * rbuf, an inner rank in scratch; the first child's vector lands there
     * and the own one is combined into it, with no copy of it first.  (A
     * rank has children exactly when vr is even and vr + 1 < n.) */
    int has_child = !(vr & 1) && vr + 1 < n, first_in_acc = 0;
    char *acc, *got = NULL;
    if (op->commutative && r == root) {
        acc = rbuf;
        first_in_acc = sbuf != rbuf;
    } else if (op->commutative && !has_child) {
        acc = (char *)sbuf;
    } else {
        if (!(acc = tern_sched_tmp(s, dt, count))) return tern_sched_round(s);
        first_in_acc = op->commutative;
        if (!first_in_acc) tern_sched_copy(s, sbuf, count, dt, acc, count, dt);
    }
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            tern_sched_send(s, acc, count, dt, (vr - mask + troot) % n);
            tern_sched_round(s);
            break;
        }
        if (vr + mask >= n) continue;
        if (mask == 1 && first_in_acc) {
            tern_sched_recv(s, acc, count, dt, (vr + 1 + troot) % n);
            tern_sched_round(s);
            tern_sched_reduce(s, sbuf, acc, count, dt, op);
            continue;
        }
        if (!got && !(got = tern_sched_tmp(s, dt, count))) return tern_sched_round(s);
        tern_sched_recv(s, got, count, dt, (vr + mask + troot) % n);
        tern_sched_round(s);
        combine(s, op, 0, &acc, &got, count, dt); /* children hold higher ranks */
    }
    if (r == troot && r == root) {
        if (acc != (char *)rbuf) tern_sched_copy(s, acc, count, dt, rbuf, count, dt);
    } else if (r == troot)
        tern_sched_send(s, acc, count, dt, root);
    else if (r == root)
        tern_sched_recv(s, rbuf, count, dt, troot);
    return tern_sched_round(s);
}

int tern_nbc_allreduce_recursive_doubling(struct tern_sched *s, const void *sbuf, void *rbuf,
                                          size_t count, struct tern_datatype *dt,
                                          struct tern_op *op)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (count == 0) return MPI_SUCCESS;
    int pof2 = 1;
    while (pof2 * 2 <= n) pof2 *= 2;
    int rem = n - pof2, newrank = r - rem;
    /* Commutative, out of place, and in the exchanges from the start: the
     * first partner's vector lands in rbuf and the own one is combined into
     * it, with no copy of it first. */
    int first_in_rbuf = op->commutative && sbuf != MPI_IN_PLACE && r >= 2 * rem && pof2 > 1;
    if (sbuf != MPI_IN_PLACE && !first_in_rbuf)
        tern_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
    if (n == 1) return tern_sched_round(s);
    /* rbuf is ours until the end: it serves as either buffer. */
    char *acc = rbuf, *got = tern_sched_tmp(s, dt, count);
    if (!got) return tern_sched_round(s);

    if (r < 2 * rem) { /* pairs (even, odd): the odd one goes on for both */
        if (r % 2 == 0) {
            tern_sched_send(s, acc, count, dt, r + 1);
            newrank = -1;
        } else {
            tern_sched_recv(s, got, count, dt, r - 1);
            newrank = r / 2;
        }
        tern_sched_round(s);
        if (r % 2) combine(s, op, 1, &acc, &got, count, dt);
    }
    for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
        int nd = newrank ^ mask;
        int dst = nd < rem ? nd * 2 + 1 : nd + rem;
        if (mask == 1 && first_in_rbuf) {
            tern_sched_send(s, sbuf, count, dt, dst);
            tern_sched_recv(s, rbuf, count, dt, dst);
            tern_sched_round(s);
            tern_sched_reduce(s, sbuf, rbuf, count, dt, op);
            continue;
        }
        tern_sched_send(s, acc, count, dt, dst);
        tern_sched_recv(s, got, count, dt, dst);
        tern_sched_round(s);
        combine(s, op, dst < r, &acc, &got, count, dt);
    }
    if (r < 2 * rem) {
        if (r % 2)
            tern_sched_send(s, acc, count, dt, r - 1);
        else
            tern_sched_recv(s, rbuf, count, dt, r + 1);
    }
    if (acc != (char *)rbuf) tern_sched_copy(s, acc, count, dt, rbuf, count, dt);
    return tern_sched_round(s);
}

static int scan_common(struct tern_sched *s, const void *sbuf, void *rbuf, size_t count,
                       struct tern_datatype *dt, struct tern_op *op, int exclusive)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    if (count == 0) return MPI_SUCCESS;
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (!exclusive && src != rbuf) tern_sched_copy(s, src, count, dt, rbuf, count, dt);
    if (n == 1) return tern_sched_round(s);

    /* partial: the reduction of the aligned block of ranks heard of so far. */
    char *partial = tern_sched_tmp(s, dt, count), *got = tern_sched_tmp(s, dt, count);
    if (!partial || !got) return tern_sched_round(s);
    tern_sched_copy(s, src, count, dt, partial, count, dt);
    int have_result = !exclusive; /* exscan: rbuf is set by the first lower contribution */
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= n) continue;
        tern_sched_send(s, partial, count, dt, peer);
        tern_sched_recv(s, got, count, dt, peer);
        tern_sched_round(s);
        if (peer < r) {
            tern_sched_reduce(s, got, partial, count, dt, op);
            if (have_result)
                tern_sched_reduce(s, got, rbuf, count, dt, op);
            else
                tern_sched_copy(s, got, count, dt, rbuf, count, dt);
            have_result = 1;
        } else {
            combine(s, op, 0, &partial, &got, count, dt);
        }
    }
    return tern_sched_round(s);
}

int tern_nbc_scan_recursive_doubling(struct tern_sched *s, const void *sbuf, void *rbuf,
                                     size_t count, struct tern_datatype *dt, struct tern_op *op)
{
    return scan_common(s, sbuf, rbuf, count, dt, op, 0);
}

int tern_nbc_exscan_recursive_doubling(struct tern_sched *s, const void *sbuf, void *rbuf,
                                       size_t count, struct tern_datatype *dt, struct tern_op *op)
{
    return scan_common(s, sbuf, rbuf, count, dt, op, 1);
}

/* Block i is rcounts[i] elements, or rcount for every rank when rcounts is
 * NULL. */
static int reduce_scatter_common(struct tern_sched *s, const void *sbuf, void *rbuf,
                                 const int *rcounts, size_t rcount, struct tern_datatype *dt,
                                 struct tern_op *op)
{
    struct tern_comm *c = tern_sched_comm(s);
    int n = c->size, r = c->rank;
    MPI_Aint *displs = tern_sched_buf(s, (size_t)(n + 1) * sizeof *displs);
    if (!displs) return tern_sched_round(s);
    displs[0] = 0;
    for (int i = 0; i < n; i++)
        displs[i + 1] = displs[i] + (MPI_Aint)(rcounts ? (size_t)rcounts[i] : rcount);
    if (displs[n] == 0) return MPI_SUCCESS;
    const char *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t mine = (size_t)(displs[r + 1] - displs[r]);
    if (n == 1) {
        if (src != rbuf) tern_sched_copy(s, src, mine, dt, rbuf, mine, dt);
        return tern_sched_round(s);
    }

    /* got holds the n - 1 contributions of the others to my block, in rank order. */
    char *got = mine ? tern_sched_tmp(s, dt, mine * (size_t)(n - 1)) : NULL;
    char *acc = mine ? tern_sched_tmp(s, dt, mine) : NULL;
    if (mine && (!got || !acc)) return tern_sched_round(s);
    for (int k = 1; k < n && mine; k++) {
        int from = (r - k + n) % n;
        tern_sched_recv(
            s, tern_coll_elem(got, dt, (MPI_Aint)(from < r ? from : from - 1) * (MPI_Aint)mine),
            mine, dt, from);
    }
    for (int k = 1; k < n; k++) {
        int to = (r + k) % n;
        size_t cnt = (size_t)(displs[to + 1] - displs[to]);
        if (cnt) tern_sched_send(s, tern_coll_elem(src, dt, displs[to]), cnt, dt, to);
    }
    tern_sched_round(s);
    if (!mine) return MPI_SUCCESS;
    /* acc = c_0 op (c_1 op (... op c_{n-1})): rank order for any op. */
    for (int i = n - 1; i >= 0; i--) {
        const char *ci =
            i == r ? tern_coll_elem(src, dt, displs[r])
                   : tern_coll_elem(got, dt, (MPI_Aint)(i < r ? i : i - 1) * (MPI_Aint)mine);
        if (i == n - 1)
            tern_sched_copy(s, ci, mine, dt, acc, mine, dt);
        else
            tern_sched_reduce(s, ci, acc, mine, dt, op);
    }
    /* Every send has completed: rbuf may be overwritten even in place. */
    tern_sched_copy(s, acc, mine, dt, rbuf, mine, dt);
    return tern_sched_round(s);
}

int tern_nbc_reduce_scatter_direct(struct tern_sched *s, const void *sbuf, void *rbuf,
                                   const int *rcounts, struct tern_datatype *dt, struct tern_op *op)
{
    return reduce_scatter_common(s, sbuf, rbuf, rcounts, 0, dt, op);
}

int tern_nbc_reduce_scatter_block_direct(struct tern_sched *s, const void *sbuf, void *rbuf,
                                         size_t rcount, struct tern_datatype *dt,
                                         struct tern_op *op)
{
    return reduce_scatter_common(s, sbuf, rbuf, NULL, rcount, dt, op);
}

int tern_nbc_reduce_scatter_inter_leader(struct tern_sched *s, const void *sbuf, void *rbuf,
                                         const int *rcounts, struct tern_datatype *dt,
                                         struct tern_op *op)
{
    return tern_nbc_inter_reduce_scatter(s, sbuf, rbuf, rcounts, 0, dt, op);
}

int tern_nbc_reduce_scatter_block_inter_leader(struct tern_sched *s, const void *sbuf, void *rbuf,
                                               size_t rcount, struct tern_datatype *dt,
                                               struct tern_op *op)
{
    return tern_nbc_inter_reduce_scatter(s, sbuf, rbuf, NULL, rcount, dt, op);
}
