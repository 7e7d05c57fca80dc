/* The context ids this process has given out or offered (comm_ctx.h).
 *
 * An agreement offers one range of ids per round and keeps it only when
 * every participant offered the same; several agreements may be under way
 * at once (nonblocking MPI_Comm_idup beside other constructors), so an
 * offered range is held, and no other agreement can offer it, until its
 * owner drops or keeps it.  Kept ids are never given out again, so a late
 * message for a freed communicator cannot match a new one.
 *
 * Everything below 'floor' is kept; above it, a short sorted list of held
 * and kept ranges (holes between them are free: ids a process offered and
 * then dropped when the others had higher ones). */
#include <stdlib.h>
#include <string.h>

#include "core/comm_ctx.h"
#include "core/errors.h"

/* Ids 0-1 are MPI_COMM_WORLD's, 2-3 MPI_COMM_SELF's. */
#define CTX_FIRST_FREE 4u

struct range {
    uint32_t start, n;
    uint64_t owner; /* the holder's priority key; kept ranges: unused */
    int kept;
};

static uint32_t floor_id = CTX_FIRST_FREE;
static struct range *ranges;
static int nranges, cap;

void tern_ctx_reset(void)
{
    floor_id = CTX_FIRST_FREE;
    free(ranges);
    ranges = NULL;
    nranges = cap = 0;
}

static int overlaps(const struct range *r, uint32_t start, uint32_t n)
{
    return r->start < start + n && start < r->start + r->n;
}

int tern_ctx_hold(uint32_t from, uint32_t n, uint64_t owner, uint32_t *start)
{
    uint32_t s = from > floor_id ? from : floor_id;
    int i = 0;
    for (; i < nranges; i++) {
        if (ranges[i].start + ranges[i].n <= s) continue;
        if (ranges[i].start >= s + n) break;
        s = ranges[i].start + ranges[i].n;
    }
    if (s > TERN_CTX_LAST - n)
        return tern_err_make(MPI_ERR_INTERN, "no context id left for a new communicator");
    if (nranges == cap) {
        int ncap = cap ? 2 * cap : 16;
        struct range *p = realloc(ranges, (size_t)ncap * sizeof *p);
        if (!p) return tern_err_make(MPI_ERR_NO_MEM, "out of memory for context ids");
        ranges = p;
        cap = ncap;
    }
    memmove(&ranges[i + 1], &ranges[i], (size_t)(nranges - i) * sizeof *ranges);
    ranges[i] = (struct range){s, n, owner, 0};
    nranges++;
    *start = s;
    return MPI_SUCCESS;
}

static int find(uint32_t start)
{
    for (int i = 0; i < nranges; i++)
        if (ranges[i].start == start && !ranges[i].kept) return i;
    return -1;
}

void tern_ctx_drop(uint32_t start)
{
    int i = find(start);
    if (i < 0) return;
    memmove(&ranges[i], &ranges[i + 1], (size_t)(nranges - i - 1) * sizeof *ranges);
    nranges--;
}

void tern_ctx_keep(uint32_t start)
{
    int i = find(start);
    if (i < 0) return;
    ranges[i].kept = 1;
    /* Kept ranges that reach the floor join it, so the list holds only
     * what lies beyond a hole. */
    int k = 0;
    while (k < nranges && ranges[k].kept && ranges[k].start == floor_id) floor_id += ranges[k++].n;
    memmove(&ranges[0], &ranges[k], (size_t)(nranges - k) * sizeof *ranges);
    nranges -= k;
}

int tern_ctx_yields(uint32_t start, uint32_t n, uint64_t owner)
{
    for (int i = 0; i < nranges && ranges[i].start < start + n; i++)
        if (!ranges[i].kept && ranges[i].owner < owner && overlaps(&ranges[i], start, n)) return 1;
    return 0;
}
