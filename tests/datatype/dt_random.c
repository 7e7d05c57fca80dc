/* Random nested datatypes at two ranks (seeded, deterministic; both ranks
 * build the same types): for a few hundred types of up to four levels,
 * built from every constructor with zero-length blocks, negative strides
 * and displacements and resized children,
 *   - MPI_Pack gives the reference model's packed stream and MPI_Unpack
 *     puts it back where the model does (dt_ref.h);
 *   - a message sent with the type arrives as the model says, received with
 *     the type and received as MPI_PACKED (the pack path);
 *   - a message cut short (sent as MPI_PACKED, a prefix of the stream) gives
 *     MPI_Get_elements the basic elements it holds, MPI_UNDEFINED when it
 *     ends inside one, and MPI_Get_count MPI_UNDEFINED unless whole.
 * Then the fixed cases: a type freed between MPI_Isend/MPI_Irecv and
 * MPI_Wait still serves the transfer; MPI_BOTTOM with absolute addresses;
 * sender and receiver with different layouts of one signature; subarray
 * and darray sent and received. */
#include <string.h>

#include "dt_ref.h"

static unsigned long rng = 987654321;
static int rnd(int n)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (int)((rng >> 33) % (unsigned long)n);
}

static int rank;

static rtype gen(int depth)
{
    static const MPI_Datatype basics[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_SHORT};
    if (depth == 0 || rnd(8) == 0) return rt_basic(basics[rnd(4)]);
    rtype c = gen(depth - 1), t;
    /* zero counts and block lengths now and then */
    int bl[3], id[3], count = rnd(6) ? 1 + rnd(3) : 0;
    MPI_Aint ad[3];
    for (int i = 0; i < 3; i++) {
        bl[i] = rnd(6) ? 1 + rnd(2) : 0;
        id[i] = rnd(9) - 4;
        ad[i] = rnd(81) - 40;
    }
    if (c.n * 9 > 3000) count = 1; /* keep typemaps small */
    switch (rnd(11)) {
    case 0: t = rt_contiguous(count, &c); break;
    case 1: t = rt_vector(count, bl[0], id[0], &c); break;
    case 2: t = rt_hvector(count, bl[0], ad[0], &c); break;
    case 3: t = rt_indexed(count, bl, id, &c); break;
    case 4: t = rt_hindexed(count, bl, ad, &c); break;
    case 5: t = rt_indexed_block(count, bl[0], id, &c); break;
    case 6: t = rt_hindexed_block(count, bl[0], ad, &c); break;
    case 7: t = rt_resized(&c, ad[0], 1 + rnd(24)); break;
    case 8: t = rt_dup(&c); break;
    default: {
        rtype d = gen(depth - 1);
        const rtype *cs[3] = {&c, &d, &c};
        t = rt_struct(count < 2 ? 2 : count, bl, ad, cs);
        rt_free(&d);
    }
    }
    rt_free(&c);
    return t;
}

/* Do two entries of count elements share a byte?  (A receive into such a
 * type is erroneous; those are only packed.) */
static int cmp_aint(const void *a, const void *b)
{
    MPI_Aint x = *(const MPI_Aint *)a, y = *(const MPI_Aint *)b;
    return x < y ? -1 : x > y;
}

static int overlaps(const rtype *t, int count)
{
    MPI_Aint ext = rt_extent(t->h);
    long n = t->n * count, k = 0;
    MPI_Aint *iv = rt_xalloc((size_t)n * 2 * sizeof(MPI_Aint));
    for (int e = 0; e < count; e++)
        for (long i = 0; i < t->n; i++) {
            iv[2 * k] = e * ext + t->disp[i];
            iv[2 * k + 1] = iv[2 * k] + t->len[i];
            k++;
        }
    qsort(iv, (size_t)n, 2 * sizeof(MPI_Aint), cmp_aint);
    int ov = 0;
    for (long i = 1; i < n && !ov; i++) ov = iv[2 * i] < iv[2 * i - 1];
    free(iv);
    return ov;
}

static void one_type(int which)
{
    rtype t = gen(4);
    CHECK_MPI(MPI_Type_commit(&t.h));
    int count = 1 + rnd(3), sz;
    CHECK_MPI(MPI_Type_size(t.h, &sz));
    size_t bytes = (size_t)sz * (size_t)count;
    rbuf a = rb_alloc(&t, count, 16), b = rb_alloc(&t, count, 16), m = rb_alloc(&t, count, 16);
    char *want = rt_xalloc(bytes), *got = rt_xalloc(bytes);
    rb_fill(&a, (unsigned)which);

    /* pack and unpack against the model */
    rt_pack(&t, a.base, count, want);
    int pos = 0;
    CHECK_MPI(MPI_Pack(a.base, count, t.h, got, (int)bytes, &pos, MPI_COMM_WORLD));
    CHECK(pos == (int)bytes && memcmp(want, got, bytes) == 0, "type %d: packed bytes", which);
    rb_fill(&b, 99);
    rb_fill(&m, 99);
    pos = 0;
    CHECK_MPI(MPI_Unpack(want, (int)bytes, &pos, b.base, count, t.h, MPI_COMM_WORLD));
    rt_unpack(&t, m.base, count, want);
    CHECK(memcmp(b.mem, m.mem, b.bytes) == 0, "type %d: unpacked bytes", which);

    int recv_ok = !overlaps(&t, count);
    /* a prefix of the stream, cut at a random byte (both ranks draw it) */
    int cut = bytes ? rnd((int)bytes + 1) : 0;
    if (recv_ok && rank == 0) {
        CHECK_MPI(MPI_Send(a.base, count, t.h, 1, which, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(a.base, count, t.h, 1, which, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(want, cut, MPI_PACKED, 1, which, MPI_COMM_WORLD));
    } else if (recv_ok && rank == 1) {
        MPI_Status st;
        int n;
        rb_fill(&b, 99);
        CHECK_MPI(MPI_Recv(b.base, count, t.h, 0, which, MPI_COMM_WORLD, &st));
        CHECK(memcmp(b.mem, m.mem, b.bytes) == 0, "type %d: received bytes", which);
        CHECK_MPI(MPI_Get_count(&st, t.h, &n));
        CHECK(n == (sz ? count : 0), "type %d: count %d of %d", which, n, count);
        CHECK_MPI(MPI_Recv(got, (int)bytes, MPI_PACKED, 0, which, MPI_COMM_WORLD, &st));
        CHECK(memcmp(want, got, bytes) == 0, "type %d: received as MPI_PACKED", which);
        rb_fill(&b, 99);
        CHECK_MPI(MPI_Recv(b.base, count, t.h, 0, which, MPI_COMM_WORLD, &st));
        int got_bytes;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got_bytes));
        CHECK(got_bytes == cut, "type %d: %d of %d bytes", which, got_bytes, cut);
        /* the model: entries wholly inside the prefix; undefined inside one */
        long whole = 0, at = 0, inside = 0;
        for (int e = 0; e < count; e++)
            for (long i = 0; i < t.n; i++) {
                if (at + t.len[i] <= cut)
                    whole++;
                else if (at < cut)
                    inside = 1;
                at += t.len[i];
            }
        int elems, cnt;
        CHECK_MPI(MPI_Get_elements(&st, t.h, &elems));
        CHECK_MPI(MPI_Get_count(&st, t.h, &cnt));
        CHECK(elems == (inside ? MPI_UNDEFINED : whole),
              "type %d: %d bytes hold %d elements, expected %ld%s", which, cut, elems, whole,
              inside ? " (cut inside one: MPI_UNDEFINED)" : "");
        CHECK(cnt == (sz && cut % sz == 0 ? cut / sz : MPI_UNDEFINED) || (sz == 0 && cnt == 0),
              "type %d: count %d for %d bytes of size %d", which, cnt, cut, sz);
        MPI_Count ex;
        CHECK_MPI(MPI_Get_elements_x(&st, t.h, &ex));
        CHECK(ex == elems, "type %d: get_elements_x %ld", which, (long)ex);
    }
    free(a.mem);
    free(b.mem);
    free(m.mem);
    free(want);
    free(got);
    rt_free(&t);
}

/* The type is freed right after the nonblocking call. */
static void freed_while_pending(void)
{
    int data[40], i;
    for (i = 0; i < 40; i++) data[i] = rank == 0 ? i * 3 : -1;
    MPI_Datatype t;
    MPI_Request r;
    CHECK_MPI(MPI_Type_vector(10, 2, 4, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    if (rank == 0)
        CHECK_MPI(MPI_Isend(data, 1, t, 1, 7, MPI_COMM_WORLD, &r));
    else
        CHECK_MPI(MPI_Irecv(data, 1, t, 0, 7, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "freed handle");
    /* other types come and go meanwhile, reusing the slots */
    for (i = 0; i < 4; i++) {
        MPI_Datatype u;
        CHECK_MPI(MPI_Type_contiguous(3, MPI_CHAR, &u));
        CHECK_MPI(MPI_Type_free(&u));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 1)
        for (i = 0; i < 40; i++)
            CHECK(data[i] == (i % 4 < 2 ? i * 3 : -1), "freed type: data[%d] = %d", i, data[i]);
}

/* A struct of absolute addresses of separate variables, from MPI_BOTTOM. */
static void bottom(void)
{
    double d = rank == 0 ? 2.5 : 0;
    int iv[3] = {0};
    char c = 0;
    if (rank == 0) {
        iv[0] = 4, iv[1] = 5, iv[2] = 6;
        c = 'q';
    }
    MPI_Aint addr[3];
    CHECK_MPI(MPI_Get_address(&iv[1], &addr[0]));
    CHECK_MPI(MPI_Get_address(&d, &addr[1]));
    CHECK_MPI(MPI_Get_address(&c, &addr[2]));
    int bl[3] = {2, 1, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, addr, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    if (rank == 0)
        CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, t, 1, 8, MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Recv(MPI_BOTTOM, 1, t, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(iv[0] == 0 && iv[1] == 5 && iv[2] == 6 && d == 2.5 && c == 'q',
              "MPI_BOTTOM: %d %d %d %g %c", iv[0], iv[1], iv[2], d, c);
    }
    /* pack from MPI_BOTTOM too */
    char buf[32];
    int pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 17, "pack from MPI_BOTTOM: %d bytes", pos);
    CHECK_MPI(MPI_Type_free(&t));
}

/* One signature (12 ints), three layouts. */
static void layouts(void)
{
    int src[48], dst[48], i;
    for (i = 0; i < 48; i++) src[i] = i;
    MPI_Datatype v, x, r;
    CHECK_MPI(MPI_Type_vector(4, 3, 5, MPI_INT, &v)); /* 0-2 5-7 10-12 15-17 */
    int bl[3] = {5, 0, 7}, di[3] = {40, 3, 1};
    CHECK_MPI(MPI_Type_indexed(3, bl, di, MPI_INT, &x));   /* 40-44, 1-7 */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &r)); /* every other int */
    CHECK_MPI(MPI_Type_commit(&v));
    CHECK_MPI(MPI_Type_commit(&x));
    CHECK_MPI(MPI_Type_commit(&r));
    int vidx[12] = {0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17};
    int xidx[12] = {40, 41, 42, 43, 44, 1, 2, 3, 4, 5, 6, 7};
    if (rank == 0) {
        CHECK_MPI(MPI_Send(src, 1, v, 1, 9, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(src, 1, x, 1, 9, MPI_COMM_WORLD));
    } else {
        for (i = 0; i < 48; i++) dst[i] = -1;
        CHECK_MPI(MPI_Recv(dst, 1, x, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (i = 0; i < 12; i++)
            CHECK(dst[xidx[i]] == vidx[i], "vector -> indexed %d: %d", i, dst[xidx[i]]);
        for (i = 0; i < 48; i++) dst[i] = -1;
        CHECK_MPI(MPI_Recv(dst, 12, r, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (i = 0; i < 12; i++)
            CHECK(dst[2 * i] == xidx[i] && dst[2 * i + 1] == -1, "indexed -> resized %d", i);
    }
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&x));
    CHECK_MPI(MPI_Type_free(&r));
}

/* rank 0's 3x4 block of a 6x8 array lands in rank 1's darray part */
static void arrays(void)
{
    int a[48], i;
    for (i = 0; i < 48; i++) a[i] = rank == 0 ? i : -1;
    MPI_Datatype s, d;
    int sizes[2] = {6, 8}, sub[2] = {3, 4}, st[2] = {2, 1};
    int dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
        darg[2] = {1, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 1};
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &s));
    /* rank 1 of a 2x1 grid, rows cyclic: the odd rows, 24 ints, which two
     * subarray blocks (24 ints) fill */
    CHECK_MPI(MPI_Type_create_darray(2, 1, 2, sizes, dist, darg, ps, MPI_ORDER_C, MPI_INT, &d));
    CHECK_MPI(MPI_Type_commit(&s));
    CHECK_MPI(MPI_Type_commit(&d));
    if (rank == 0) {
        int b[96];
        for (i = 0; i < 96; i++) b[i] = i < 48 ? i : 100 + i - 48;
        CHECK_MPI(MPI_Send(b, 2, s, 1, 10, MPI_COMM_WORLD)); /* the block of b, then of b+48 */
    } else {
        CHECK_MPI(MPI_Recv(a, 1, d, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int k = 0;
        for (int row = 1; row < 6; row += 2)
            for (int col = 0; col < 8; col++, k++) {
                int e = k % 12, want = (k < 12 ? 0 : 100) + (st[0] + e / 4) * 8 + st[1] + e % 4;
                CHECK(a[row * 8 + col] == want, "darray[%d][%d] = %d, expected %d", row, col,
                      a[row * 8 + col], want);
            }
        for (int row = 0; row < 6; row += 2)
            for (int col = 0; col < 8; col++) CHECK(a[row * 8 + col] == -1, "even row touched");
    }
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Type_free(&d));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int n = argc > 1 ? atoi(argv[1]) : 300;
    for (int i = 0; i < n; i++) one_type(i);
    freed_while_pending();
    bottom();
    layouts();
    arrays();
    MPI_Finalize();
    return 0;
}
