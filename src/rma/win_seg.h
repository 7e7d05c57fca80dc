/* Private to rma/: the window's shared segment (win_seg.c). */
#ifndef TERN_RMA_WIN_SEG_H
#define TERN_RMA_WIN_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "core/progress.h"
#include "rma/win.h"

/* Bytes of the control area of a window of n ranks (a multiple of the page). */
size_t tern_win_ctl_bytes(int n);
/* Rank r's mailbox in the control area (win_mbox.h). */
struct tern_win_mbox *tern_win_mbox_of(struct tern_win *w, int r);
/* Collective over comm: makes and maps a segment of 'bytes' (control area
 * first, zeroed) into w->seg.  MPI_SUCCESS or an error code (made, not
 * raised), the same on every member. */
int tern_win_seg_open(struct tern_win *w, struct tern_comm *comm, size_t bytes);
void tern_win_seg_close(struct tern_win *w);
/* Collective over comm, for a window created on one host: when every
 * member's memory lies in a block of MPI_Alloc_mem (offered[r]: its pid
 * and shared file, fd < 0 for none), maps every other member's file into
 * w->peer[].local and sets w->mapped, on every member or on none. */
struct tern_win_file_offer {
    int32_t pid, fd;
    uint64_t ino, file_bytes, offset;
};
int tern_win_seg_map_created(struct tern_win *w, struct tern_comm *comm,
                             const struct tern_win_file_offer *offered);
/* One step of a wait for another rank's store: progress, and yield the core. */
void tern_win_spin(struct tern_waiter *wt);

/* The regions of a dynamic window (win_dyn.c). */
void tern_win_dyn_open(struct tern_win *w);
void tern_win_dyn_close(struct tern_win *w);
/* Whether every byte of [addr, addr + len) of rank r lies in a region it
 * has attached to dynamic window w. */
int tern_win_dyn_find(struct tern_win *w, int r, uint64_t addr, uint64_t len);
/* Where [addr, addr + len) of another rank r lies mapped here, when it is in
 * a region r attached from a block of MPI_Alloc_mem; NULL otherwise (CMA). */
char *tern_win_dyn_local(struct tern_win *w, int r, uint64_t addr, uint64_t len);

#endif
