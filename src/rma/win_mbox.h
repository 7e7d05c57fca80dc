/* Private to rma/: operations handed to their target (win_mbox.c).
 *
 * A member's memory that the others do not map (MPI_Win_create on memory
 * not from MPI_Alloc_mem, dynamic windows) is reached with CMA, and one
 * process_vm_readv/writev call costs a microsecond or more where a copy of
 * a few bytes costs nanoseconds.  A target that is inside MPI polls a
 * mailbox in the window's segment on every progress pass; an origin hands
 * it a small put, get, accumulate or compare-and-swap there and the target
 * does it on its own memory by load and store.  An origin whose request is
 * not taken within TERN_RMA_TARGET_WAIT takes it back and uses CMA, and the
 * mailbox then stays marked idle, so later operations go straight to CMA
 * until the target progresses again: a target computing outside MPI
 * delays an origin once, by that wait, not at every operation.
 *
 * A large put or get is one core's copy (by load and store on memory the
 * origin maps, by CMA otherwise); the target, when inside MPI, takes a
 * share of it (by CMA, into or out of the origin's buffer) while the
 * origin copies the rest, so that two cores move the data.  That origin
 * never waits for an absent target: it copies every piece left untaken. */
#ifndef TERN_RMA_WIN_MBOX_H
#define TERN_RMA_WIN_MBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rma/win.h"

enum tern_win_mbox_kind {
    TERN_WIN_MBOX_PUT = 1,
    TERN_WIN_MBOX_GET,
    TERN_WIN_MBOX_ACC, /* data: the origin's packed elements; fetch: the old ones come back */
    TERN_WIN_MBOX_CAS, /* data: the new value, then the compare value; the old one comes back */
    TERN_WIN_MBOX_PUT_STREAM, /* larger than a piece: in pieces, two in flight */
    TERN_WIN_MBOX_GET_STREAM,
    TERN_WIN_MBOX_PUT_SHARE, /* contiguous: origin and target copy pieces from its two ends */
    TERN_WIN_MBOX_GET_SHARE,
};

/* One per member, for requests to it, on lines of its own: this header,
 * then the data (w->mbox_capacity bytes).  The data
 * starts in the header's line: a request of up to 32 bytes (a
 * fetch-and-op, a compare-and-swap with its compare value) and its answer
 * each cross between the cores as one line. */
struct tern_win_mbox {
    _Alignas(64) _Atomic uint32_t state;
    uint16_t kind;
    uint16_t fetch;
    union {
        struct {
            int32_t op;    /* MPI_Op of an accumulate */
            int32_t basic; /* its predefined element type */
        } acc;
        uint64_t piece; /* a stream's bytes per piece */
        struct {
            int32_t world; /* the origin's world rank, for CMA */
        } share;
    } u;
    uint64_t addr; /* in the target's address space, contiguous */
    uint64_t bytes;
    _Alignas(32) char data[];
};

/* Bytes of each mailbox, header and data, in a window of n members, whole
 * pages: TERN_RMA_TARGET_BOX of data, less where the n mailboxes would
 * pass 4 MiB; and of all n, in the window's control area. */
size_t tern_win_mbox_stride(int n);
size_t tern_win_mbox_bytes(int n);

/* Window w takes part: its members serve their mailbox when they progress.
 * Called on every member once the segment is mapped; close before it goes. */
void tern_win_mbox_open(struct tern_win *w);
void tern_win_mbox_close(struct tern_win *w);
/* At MPI init: the progress engine has forgotten its hook. */
void tern_win_mbox_reset(void);

/* The mailbox of 'rank', claimed for a request of 'bytes' of data, or NULL
 * when the caller must do the operation itself: the window takes no
 * part, the data is too large, another origin holds the mailbox, or the
 * target has not progressed since a request went untaken.  Puts and gets
 * of more than TERN_WIN_MBOX_STREAM_MIN take tern_win_mbox_share (both
 * sides contiguous) or tern_win_mbox_stream. */
struct tern_win_mbox *tern_win_mbox_claim(struct tern_win *w, int rank, size_t bytes);
/* Posts the request filled into m and waits: 1 when the target has done
 * it (what comes back is in m->data; tern_win_mbox_release then), 0 when
 * it was taken back untouched and the caller must do it itself. */
int tern_win_mbox_post(struct tern_win_mbox *m);
void tern_win_mbox_release(struct tern_win_mbox *m);

/* Puts and gets of more than this many bytes stream. */
#define TERN_WIN_MBOX_STREAM_MIN 4096
/* A put (get = 0) or get of 'bytes' between o and the target's contiguous
 * memory at addr, more than TERN_WIN_MBOX_STREAM_MIN and at most
 * TERN_RMA_TARGET_MAX, through rank's mailbox in pieces (two at least), the
 * origin packing one while the target copies the other: 1 when done, 0
 * when the caller must do it itself (nothing moved). */
int tern_win_mbox_stream(struct tern_win *w, int rank, int get, uint64_t addr, size_t bytes,
                         const struct tern_rma_side *o);

/* How the origin copies bytes [off, off + len) of a share itself: 0, or
 * -errno. */
typedef int (*tern_win_share_fn)(void *ctx, size_t off, size_t len);
/* A contiguous put (get = 0) or get of 'bytes' between buf here and rank's
 * memory at 'there' in the target (the sizes win_ops.c shares): pieces
 * taken in turn by this process (with 'copy') from the front and by the
 * target, if it is inside MPI, from the back (by CMA).  Done on return,
 * whatever the target did: 0, or the first error of this process's
 * copies.  cma: those copies are CMA calls (larger ones pay). */
int tern_win_mbox_share(struct tern_win *w, int rank, int get, uint64_t there, char *buf,
                        size_t bytes, tern_win_share_fn copy, void *ctx, int cma);

#endif
