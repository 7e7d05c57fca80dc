/* Derived datatypes through point-to-point, two ranks: the sender and the
 * receiver use different layouts of one type signature, at sizes that go
 * eager, by rendezvous and through the pipeline (the registered variants
 * move the thresholds), plus a send to self; the receive status counts
 * elements; a type freed while its send is pending stays usable. */
#include "dt_ref.h"

static int rank;

/* rank 0 sends count_s x s, rank 1 receives count_r x r */
static void exchange(const rtype *s, int count_s, const rtype *r, int count_r, const char *what)
{
    int ssize, rsize;
    CHECK_MPI(MPI_Type_size(s->h, &ssize));
    CHECK_MPI(MPI_Type_size(r->h, &rsize));
    size_t bytes = (size_t)ssize * (size_t)count_s;
    CHECK(bytes <= (size_t)rsize * (size_t)count_r, "%s: receive too small", what);
    if (rank == 0) {
        rbuf b = rb_alloc(s, count_s, 8);
        rb_fill(&b, 5);
        CHECK_MPI(MPI_Send(b.base, count_s, s->h, 1, 7, MPI_COMM_WORLD));
        free(b.mem);
    } else if (rank == 1) {
        rbuf sb = rb_alloc(s, count_s, 8), got = rb_alloc(r, count_r, 8);
        rbuf want = rb_alloc(r, count_r, 8);
        rb_fill(&sb, 5); /* what rank 0 sent */
        char *stream = rt_xalloc(bytes + 1);
        rt_pack(s, sb.base, count_s, stream);
        memset(want.mem, 0x77, want.bytes);
        memset(got.mem, 0x77, got.bytes);
        /* the model unpacks only the first 'bytes': unpack whole elements of
         * the receive type into a scratch copy and keep what was sent */
        {
            size_t rbytes = (size_t)rsize * (size_t)count_r;
            char *full = rt_xalloc(rbytes + 1);
            memset(full, 0, rbytes + 1);
            memcpy(full, stream, bytes);
            /* entries of the receive typemap past 'bytes' must stay 0x77:
             * unpack entry by entry up to 'bytes' */
            MPI_Aint ext = rt_extent(r->h);
            size_t pos = 0;
            for (int k = 0; k < count_r && pos < bytes; k++)
                for (long e = 0; e < r->n && pos < bytes; e++) {
                    size_t l = (size_t)r->len[e];
                    if (l > bytes - pos) l = bytes - pos;
                    memcpy(want.base + (k * ext + r->disp[e]), full + pos, l);
                    pos += (size_t)r->len[e];
                }
            free(full);
        }
        MPI_Status st;
        CHECK_MPI(MPI_Recv(got.base, count_r, r->h, 0, 7, MPI_COMM_WORLD, &st));
        CHECK(memcmp(got.mem, want.mem, got.bytes) == 0, "%s: received memory differs", what);
        int c, e, es;
        CHECK_MPI(MPI_Get_count(&st, s->h, &c));
        CHECK(c == count_s, "%s: MPI_Get_count with the send type %d, expected %d", what, c,
              count_s);
        CHECK_MPI(MPI_Get_elements(&st, r->h, &e));
        CHECK_MPI(MPI_Get_elements(&st, s->h, &es));
        CHECK(e == es, "%s: elements %d by the receive type, %d by the send type", what, e, es);
        free(stream);
        free(sb.mem);
        free(got.mem);
        free(want.mem);
    }
}

/* the same on rank 0 alone, through MPI_Sendrecv to itself */
static void self_copy(const rtype *s, int count_s, const rtype *r, int count_r, const char *what)
{
    if (rank != 0) return;
    rbuf sb = rb_alloc(s, count_s, 8), got = rb_alloc(r, count_r, 8);
    rbuf want = rb_alloc(r, count_r, 8);
    rb_fill(&sb, 11);
    int ssize;
    CHECK_MPI(MPI_Type_size(s->h, &ssize));
    char *stream = rt_xalloc((size_t)ssize * (size_t)count_s + 1);
    rt_pack(s, sb.base, count_s, stream);
    memset(want.mem, 0, want.bytes);
    memset(got.mem, 0, got.bytes);
    rt_unpack(r, want.base, count_r, stream);
    CHECK_MPI(MPI_Sendrecv(sb.base, count_s, s->h, 0, 3, got.base, count_r, r->h, 0, 3,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(memcmp(got.mem, want.mem, got.bytes) == 0, "%s: self copy differs", what);
    free(stream);
    free(sb.mem);
    free(got.mem);
    free(want.mem);
}

int main(int argc, char **argv)
{
    int size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs 2 ranks");

    rtype f64 = rt_basic(MPI_DOUBLE), i32 = rt_basic(MPI_INT), si = rt_basic(MPI_SHORT_INT);
    rtype vec = rt_vector(64, 1, 3, &f64); /* 64 doubles, strided */
    rtype con = rt_contiguous(64, &f64);   /* the same, packed */
    int bl[3] = {16, 32, 16}, d[3] = {100, 0, 40};
    rtype idx = rt_indexed(3, bl, d, &f64); /* the same, shuffled */
    rtype rs = rt_resized(&f64, 0, 24);     /* one double every 24 bytes */
    int sbl[2] = {2, 3};
    MPI_Aint sd[2] = {0, 16};
    const rtype *sty[2] = {&i32, &si};
    rtype st = rt_struct(2, sbl, sd, sty); /* int int short int short int short int */
    rtype stv = rt_vector(5, 2, 3, &st);
    rtype *ts[] = {&vec, &con, &idx, &rs, &st, &stv};
    for (int i = 0; i < 6; i++) CHECK_MPI(MPI_Type_commit(&ts[i]->h));

    static const int counts[] = {1, 30, 1000, 8000}; /* 512 B .. 4 MB */
    for (int i = 0; i < 4; i++) {
        int c = counts[i];
        exchange(&vec, c, &con, c, "vector -> contiguous");
        exchange(&con, c, &idx, c, "contiguous -> indexed");
        exchange(&idx, c, &vec, c, "indexed -> vector");
        exchange(&vec, c, &rs, 64 * c, "vector -> resized");
        exchange(&stv, c, &st, 10 * c, "vector of struct -> struct");
        exchange(&vec, c, &vec, c + 3, "vector -> longer vector");
        self_copy(&vec, c, &idx, c, "self vector -> indexed");
        self_copy(&stv, c, &st, 10 * c, "self vector of struct -> struct");
    }

    /* a type freed while its send is pending */
    if (rank == 0) {
        MPI_Datatype t;
        MPI_Request req;
        CHECK_MPI(MPI_Type_vector(50000, 1, 2, MPI_INT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        int *buf = rt_xalloc(100000 * sizeof(int));
        for (int i = 0; i < 100000; i++) buf[i] = i;
        CHECK_MPI(MPI_Isend(buf, 1, t, 1, 9, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Type_free(&t));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        free(buf);
    } else if (rank == 1) {
        int *buf = rt_xalloc(50000 * sizeof(int));
        CHECK_MPI(MPI_Recv(buf, 50000, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < 50000; i++)
            CHECK(buf[i] == 2 * i, "freed type send [%d]=%d", i, buf[i]);
        free(buf);
    }

    for (int i = 5; i >= 0; i--) rt_free(ts[i]);
    rt_free(&f64);
    rt_free(&i32);
    rt_free(&si);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
