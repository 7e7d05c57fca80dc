/* Derived datatypes against packing by hand: a ping-pong between ranks 0
 * and 1 of non-contiguous data, once sent with a derived datatype and once
 * copied into a contiguous buffer by a loop, sent as bytes and copied out
 * on arrival (the copies are inside the timing).  Reports the one-way
 * latency of both and their ratio.
 *   vector: every other double (MPI_Type_vector, stride 2); size = data bytes
 *   struct: an array of {double[3], int, char} (MPI_Type_create_struct,
 *           resized to the C struct); size = bytes of the array */
#include "dtype.h"

#include <stddef.h>
#include <string.h>

struct particle {
    double pos[3];
    int id;
    char tag;
};
#define PARTICLE_DATA (3 * sizeof(double) + sizeof(int) + sizeof(char))

struct dt_case {
    size_t granule; /* bytes of 'size' per element */
    int (*make)(struct tb_ctx *c, int count, MPI_Datatype *t, int *tcount);
    size_t layout; /* bytes of memory per element */
    size_t packed; /* bytes of data per element */
    void (*pack)(const char *layout, char *packed, int count);
    void (*unpack)(const char *packed, char *layout, int count);
    void (*fill)(char *layout, int count, unsigned seed);
    int (*check)(struct tb_ctx *c, char *layout, int count, unsigned seed);
};

/* ---- vector --------------------------------------------------------------------------- */

static int vec_make(struct tb_ctx *c, int count, MPI_Datatype *t, int *tcount)
{
    TB_MPI(c, MPI_Type_vector(count, 1, 2, MPI_DOUBLE, t));
    *tcount = 1;
    return tb_type_commit(c, t);
}
static void vec_pack(const char *layout, char *packed, int count)
{
    const double *s = (const double *)layout;
    double *d = (double *)packed;
    for (int i = 0; i < count; i++) d[i] = s[2 * i];
}
static void vec_unpack(const char *packed, char *layout, int count)
{
    const double *s = (const double *)packed;
    double *d = (double *)layout;
    for (int i = 0; i < count; i++) d[2 * i] = s[i];
}
static void vec_fill(char *layout, int count, unsigned seed)
{
    double *d = (double *)layout;
    for (int i = 0; i < count; i++) {
        d[2 * i] = (double)seed * 1e6 + i;
        d[2 * i + 1] = -1;
    }
}
/* The data elements hold what was sent; the gaps between them, zeroed
 * before the receive, must stay zero. */
static int vec_check(struct tb_ctx *c, char *layout, int count, unsigned seed)
{
    double *d = (double *)layout;
    tb_tamper(c, layout, (size_t)count * 2 * sizeof *d);
    for (int i = 0; i < count; i++) {
        if (d[2 * i] != (double)seed * 1e6 + i)
            return tb_fail(c,
                           "validation: rank %d, vector element %d of %d is %.17g, expected %.17g",
                           c->rank, i, count, d[2 * i], (double)seed * 1e6 + i);
        if (d[2 * i + 1] != 0)
            return tb_fail(
                c, "validation: rank %d, the gap after vector element %d of %d is %g, expected 0",
                c->rank, i, count, d[2 * i + 1]);
    }
    return 0;
}

/* ---- struct --------------------------------------------------------------------------- */

static int st_make(struct tb_ctx *c, int count, MPI_Datatype *t, int *tcount)
{
    int len[3] = {3, 1, 1};
    MPI_Aint disp[3] = {offsetof(struct particle, pos), offsetof(struct particle, id),
                        offsetof(struct particle, tag)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, raw;
    TB_MPI(c, MPI_Type_create_struct(3, len, disp, types, &raw));
    int rc = MPI_Type_create_resized(raw, 0, sizeof(struct particle), t);
    MPI_Type_free(&raw);
    if (rc != MPI_SUCCESS) return tb_mpi_error(c, "MPI_Type_create_resized", rc);
    *tcount = count;
    return tb_type_commit(c, t);
}
static void st_pack(const char *layout, char *packed, int count)
{
    const struct particle *p = (const struct particle *)layout;
    for (int i = 0; i < count; i++, packed += PARTICLE_DATA) {
        memcpy(packed, p[i].pos, sizeof p[i].pos);
        memcpy(packed + sizeof p[i].pos, &p[i].id, sizeof p[i].id);
        packed[sizeof p[i].pos + sizeof p[i].id] = p[i].tag;
    }
}
static void st_unpack(const char *packed, char *layout, int count)
{
    struct particle *p = (struct particle *)layout;
    for (int i = 0; i < count; i++, packed += PARTICLE_DATA) {
        memcpy(p[i].pos, packed, sizeof p[i].pos);
        memcpy(&p[i].id, packed + sizeof p[i].pos, sizeof p[i].id);
        p[i].tag = packed[sizeof p[i].pos + sizeof p[i].id];
    }
}
static void st_fill(char *layout, int count, unsigned seed)
{
    struct particle *p = (struct particle *)layout;
    for (int i = 0; i < count; i++) {
        for (int j = 0; j < 3; j++) p[i].pos[j] = (double)seed + i * 3 + j;
        p[i].id = (int)(seed % 100000u) * 1000 + i;
        p[i].tag = (char)(1 + (seed + (unsigned)i) % 100);
    }
}
/* Every field holds what was sent; the padding after 'tag', zeroed before
 * the receive, must stay zero. */
static int st_check(struct tb_ctx *c, char *layout, int count, unsigned seed)
{
    struct particle *p = (struct particle *)layout;
    tb_tamper(c, layout, (size_t)count * sizeof *p);
    for (int i = 0; i < count; i++) {
        const char *what = NULL;
        for (int j = 0; j < 3; j++)
            if (p[i].pos[j] != (double)seed + i * 3 + j) what = "pos";
        if (p[i].id != (int)(seed % 100000u) * 1000 + i) what = "id";
        if (p[i].tag != (char)(1 + (seed + (unsigned)i) % 100)) what = "tag";
        const unsigned char *b = (const unsigned char *)&p[i];
        for (size_t o = offsetof(struct particle, tag) + 1; o < sizeof *p; o++)
            if (b[o]) what = "padding (written by the receive)";
        if (what)
            return tb_fail(
                c, "validation: rank %d, struct element %d of %d: %s differs from what was sent",
                c->rank, i, count, what);
    }
    return 0;
}

static const struct dt_case vec_case = {sizeof(double), vec_make, 2 * sizeof(double),
                                        sizeof(double), vec_pack, vec_unpack,
                                        vec_fill,       vec_check};
static const struct dt_case st_case = {sizeof(struct particle),
                                       st_make,
                                       sizeof(struct particle),
                                       PARTICLE_DATA,
                                       st_pack,
                                       st_unpack,
                                       st_fill,
                                       st_check};

/* ---- the ping-pong --------------------------------------------------------------------------- */

struct pp {
    const struct dt_case *k;
    int packed; /* 0: derived datatype, 1: packed by hand */
    int count, tcount;
    MPI_Datatype type;
    int peer, initiator;
    char *slay, *rlay; /* layouts sent from and received into */
    char *spk, *rpk;   /* contiguous buffers */
};

static int pp_send(struct tb_ctx *c, struct pp *p)
{
    if (!p->packed) {
        TB_MPI(c, MPI_Send(p->slay, p->tcount, p->type, p->peer, 1, c->comm));
        return 0;
    }
    p->k->pack(p->slay, p->spk, p->count);
    TB_MPI(c,
           MPI_Send(p->spk, (int)(p->k->packed * (size_t)p->count), MPI_BYTE, p->peer, 1, c->comm));
    return 0;
}

static int pp_recv(struct tb_ctx *c, struct pp *p)
{
    if (!p->packed) {
        TB_MPI(c, MPI_Recv(p->rlay, p->tcount, p->type, p->peer, 1, c->comm, MPI_STATUS_IGNORE));
        return 0;
    }
    TB_MPI(c, MPI_Recv(p->rpk, (int)(p->k->packed * (size_t)p->count), MPI_BYTE, p->peer, 1,
                       c->comm, MPI_STATUS_IGNORE));
    p->k->unpack(p->rpk, p->rlay, p->count);
    return 0;
}

static int pp_step(struct tb_ctx *c, void *arg)
{
    struct pp *p = arg;
    if (p->initiator) {
        TB_TRY(pp_send(c, p));
        return pp_recv(c, p);
    }
    TB_TRY(pp_recv(c, p));
    return pp_send(c, p);
}

/* One untimed round trip with patterned data, checked on arrival. */
static int validate(struct tb_ctx *c, struct pp *p)
{
    p->k->fill(p->slay, p->count, (unsigned)c->rank + 1);
    memset(p->rlay, 0, (size_t)p->count * p->k->layout);
    TB_TRY(pp_step(c, p));
    return p->k->check(c, p->rlay, p->count, (unsigned)p->peer + 1);
}

static int run_pingpong(struct tb_ctx *c)
{
    const struct dt_case *k = c->b->arg;
    int active = c->rank < 2;
    struct pp p = {k,    0,    0,    0,   MPI_DATATYPE_NULL, c->rank ^ 1, c->rank == 0,
                   NULL, NULL, NULL, NULL};
    size_t maxcount = tb_max_size(c) / k->granule;
    p.slay = tb_alloc(c, maxcount * k->layout);
    p.rlay = tb_alloc(c, maxcount * k->layout);
    p.spk = tb_alloc(c, maxcount * k->packed);
    p.rpk = tb_alloc(c, maxcount * k->packed);
    if (!p.slay || !p.rlay || !p.spk || !p.rpk) return -1;
    tb_columns(c, 4, dt_cols);
    for (size_t size = (size_t)-1; tb_next_size(c, &size);) {
        p.count = (int)(size / k->granule);
        TB_TRY(k->make(c, p.count, &p.type, &p.tcount));
        int iters = tb_iters(c, TB_COLL, size), warm = tb_warmup(c, TB_COLL, size);
        double us[2];
        for (p.packed = 0; p.packed < 2; p.packed++) {
            if (c->o->validate) TB_TRY(tb_validated(c, size, active ? validate(c, &p) : 0));
            double t, mn, mx;
            TB_TRY(tb_time_loop(c, active, warm, iters, pp_step, &p, &t));
            TB_TRY(tb_stats(c, active, t * 1e6 / (2.0 * iters), &mn, &us[p.packed], &mx));
        }
        double row[4] = {(double)size, us[0], us[1], us[1] > 0 ? us[0] / us[1] : 0};
        tb_row(c, row);
    }
    return 0;
}

const struct tb_col dt_cols[4] = {{"size", "B", 0, 0},
                                  {"derived", "us", 2, -1},
                                  {"packed", "us", 2, -1},
                                  {"derived/packed", "x", 2, 0}};

#define KiB(n) ((size_t)(n) << 10)
#define MiB(n) ((size_t)(n) << 20)

const struct tb_bench tb_dtype_benches[] = {
    {"vector", "dtype",
     "ping-pong of every other double: MPI_Type_vector vs packed by hand (size: data bytes)", 2,
     KiB(1), MiB(16), sizeof(double), run_pingpong, &vec_case},
    {"struct", "dtype",
     "ping-pong of {double[3],int,char} structs: MPI_Type_create_struct vs packed by hand (size: "
     "array bytes)",
     2, KiB(1), MiB(16), sizeof(struct particle), run_pingpong, &st_case},
    {"halo2d", "dtype",
     "2D halo exchange in strips, 2 column faces (MPI_Type_create_subarray) vs packed by hand "
     "(size: bytes of one face)",
     1, KiB(1), MiB(16), 8, tb_run_halo, &tb_halo2d},
    {"halo3d", "dtype",
     "3D halo exchange in pencils, 4 faces of long rows (MPI_Type_create_subarray) vs packed by "
     "hand (size: bytes of "
     "one face)",
     1, KiB(1), MiB(16), 8, tb_run_halo, &tb_halo3d},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL},
};
