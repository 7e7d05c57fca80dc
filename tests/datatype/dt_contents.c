/* Envelope and contents for every combiner, and the large-count forms,
 * one process.
 *
 * Round trip: each type is rebuilt from what MPI_Type_get_contents(_c)
 * returns (by the constructor its combiner names) and must have the same
 * size, bounds and packed bytes as the original; derived inner types come
 * back as new handles that must be freed, predefined ones as themselves.
 * Each _c constructor builds the type its int form builds; the int forms
 * of envelope and contents refuse a type from a _c constructor; the _c
 * queries (size, extent, true extent, pack, unpack, pack size, count,
 * elements) agree with the int ones and handle counts beyond an int. */
#include <string.h>

#include "dt_expect.h"

/* Two types are the same when size, bounds and the packing of one element
 * from a patterned buffer agree. */
static void same_type(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Count sa, sb, la, lb, ea, eb, tla, tlb, tea, teb;
    CHECK_MPI(MPI_Type_size_c(a, &sa));
    CHECK_MPI(MPI_Type_size_c(b, &sb));
    CHECK_MPI(MPI_Type_get_extent_c(a, &la, &ea));
    CHECK_MPI(MPI_Type_get_extent_c(b, &lb, &eb));
    CHECK_MPI(MPI_Type_get_true_extent_c(a, &tla, &tea));
    CHECK_MPI(MPI_Type_get_true_extent_c(b, &tlb, &teb));
    CHECK(sa == sb && la == lb && ea == eb && tla == tlb && tea == teb,
          "%s: size %ld/%ld lb %ld/%ld extent %ld/%ld true %ld,%ld/%ld,%ld", what, (long)sa,
          (long)sb, (long)la, (long)lb, (long)ea, (long)eb, (long)tla, (long)tea, (long)tlb,
          (long)teb);
    MPI_Datatype ca, cb;
    CHECK_MPI(MPI_Type_dup(a, &ca));
    CHECK_MPI(MPI_Type_dup(b, &cb));
    CHECK_MPI(MPI_Type_commit(&ca));
    CHECK_MPI(MPI_Type_commit(&cb));
    static char buf[8192], pa[8192], pb[8192];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)(i * 7 + 3);
    char *base = buf + 4096 - tla;
    MPI_Count qa = 0, qb = 0;
    CHECK(tla >= -4000 && tea < 4000, "%s: test buffer too small", what);
    CHECK_MPI(MPI_Pack_c(base, 1, ca, pa, sizeof pa, &qa, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_c(base, 1, cb, pb, sizeof pb, &qb, MPI_COMM_WORLD));
    CHECK(qa == sa && qb == sa && memcmp(pa, pb, (size_t)sa) == 0, "%s: packed bytes differ", what);
    CHECK_MPI(MPI_Type_free(&ca));
    CHECK_MPI(MPI_Type_free(&cb));
}

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, c;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &c));
    return c == MPI_COMBINER_NAMED;
}

/* Rebuilds t from its contents (large: through the _c forms). */
static MPI_Datatype rebuild(MPI_Datatype t, int large)
{
    MPI_Count ni, na, nc, nd;
    int comb = envelope(t, large, &ni, &na, &nc, &nd);
    int *I = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *A = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Count *C = malloc(sizeof(MPI_Count) * (size_t)(nc + 1));
    MPI_Datatype *T = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1)), r;
    if (large)
        CHECK_MPI(MPI_Type_get_contents_c(t, ni, na, nc, nd, I, A, C, T));
    else
        CHECK_MPI(MPI_Type_get_contents(t, (int)ni, (int)na, (int)nd, I, A, T));
    switch (comb) {
    case MPI_COMBINER_DUP: CHECK_MPI(MPI_Type_dup(T[0], &r)); break;
    case MPI_COMBINER_CONTIGUOUS:
        CHECK_MPI(large ? MPI_Type_contiguous_c(C[0], T[0], &r)
                        : MPI_Type_contiguous(I[0], T[0], &r));
        break;
    case MPI_COMBINER_VECTOR:
        CHECK_MPI(large ? MPI_Type_vector_c(C[0], C[1], C[2], T[0], &r)
                        : MPI_Type_vector(I[0], I[1], I[2], T[0], &r));
        break;
    case MPI_COMBINER_HVECTOR:
        CHECK_MPI(large ? MPI_Type_create_hvector_c(C[0], C[1], C[2], T[0], &r)
                        : MPI_Type_create_hvector(I[0], I[1], A[0], T[0], &r));
        break;
    case MPI_COMBINER_INDEXED:
        CHECK_MPI(large ? MPI_Type_indexed_c(C[0], C + 1, C + 1 + C[0], T[0], &r)
                        : MPI_Type_indexed(I[0], I + 1, I + 1 + I[0], T[0], &r));
        break;
    case MPI_COMBINER_HINDEXED:
        CHECK_MPI(large ? MPI_Type_create_hindexed_c(C[0], C + 1, C + 1 + C[0], T[0], &r)
                        : MPI_Type_create_hindexed(I[0], I + 1, A, T[0], &r));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_MPI(large ? MPI_Type_create_indexed_block_c(C[0], C[1], C + 2, T[0], &r)
                        : MPI_Type_create_indexed_block(I[0], I[1], I + 2, T[0], &r));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        CHECK_MPI(large ? MPI_Type_create_hindexed_block_c(C[0], C[1], C + 2, T[0], &r)
                        : MPI_Type_create_hindexed_block(I[0], I[1], A, T[0], &r));
        break;
    case MPI_COMBINER_STRUCT:
        CHECK_MPI(large ? MPI_Type_create_struct_c(C[0], C + 1, C + 1 + C[0], T, &r)
                        : MPI_Type_create_struct(I[0], I + 1, A, T, &r));
        break;
    case MPI_COMBINER_RESIZED:
        CHECK_MPI(large ? MPI_Type_create_resized_c(T[0], C[0], C[1], &r)
                        : MPI_Type_create_resized(T[0], A[0], A[1], &r));
        break;
    default: CHECK(0, "unexpected combiner %d", comb);
    }
    for (MPI_Count i = 0; i < nd; i++)
        if (!is_named(T[i])) CHECK_MPI(MPI_Type_free(&T[i]));
    free(I);
    free(A);
    free(C);
    free(T);
    return r;
}

/* t rebuilt must be t, and its combiner the expected one */
static void round_trip(MPI_Datatype t, int combiner, int large, const char *what)
{
    MPI_Count ni, na, nc, nd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    CHECK(comb == combiner, "%s: combiner %d, expected %d", what, comb, combiner);
    CHECK((nc > 0) == (large && combiner != MPI_COMBINER_DUP), "%s: %ld large counts", what,
          (long)nc);
    MPI_Datatype r = rebuild(t, large);
    same_type(t, r, what);
    CHECK_MPI(MPI_Type_free(&r));
    if (large && combiner != MPI_COMBINER_DUP) {
        /* no int form for a large-count type */
        int i, a, d, c, ec;
        int rc = MPI_Type_get_envelope(t, &i, &a, &d, &c);
        MPI_Error_class(rc, &ec);
        CHECK(ec == MPI_ERR_TYPE, "%s: int envelope of a _c type: class %d", what, ec);
        int I[64];
        MPI_Aint A[64];
        MPI_Datatype T[8];
        rc = MPI_Type_get_contents(t, 64, 64, 8, I, A, T);
        MPI_Error_class(rc, &ec);
        CHECK(ec == MPI_ERR_TYPE, "%s: int contents of a _c type: class %d", what, ec);
    }
}

static void every_combiner(void)
{
    MPI_Datatype inner, v, t[2];
    /* a derived inner type with a negative lower bound */
    CHECK_MPI(MPI_Type_create_resized(MPI_SHORT, -2, 6, &inner));
    int bl[3] = {2, 0, 1}, id[3] = {3, 7, -1};
    MPI_Aint ad[3] = {16, 0, -8};
    MPI_Count cbl[3] = {2, 0, 1}, cid[3] = {3, 7, -1}, cad[3] = {16, 0, -8};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_CHAR, inner};
    for (int large = 0; large < 2; large++) {
        for (int k = 0; k < 2; k++) {
            MPI_Datatype old = k ? inner : MPI_INT;
            if (large) {
                CHECK_MPI(MPI_Type_contiguous_c(3, old, &t[0]));
                round_trip(t[0], MPI_COMBINER_CONTIGUOUS, 1, "contiguous_c");
                CHECK_MPI(MPI_Type_contiguous(3, old, &t[1]));
                same_type(t[0], t[1], "contiguous_c = contiguous");
            } else {
                CHECK_MPI(MPI_Type_contiguous(3, old, &t[0]));
                round_trip(t[0], MPI_COMBINER_CONTIGUOUS, 0, "contiguous");
                CHECK_MPI(MPI_Type_dup(t[0], &t[1]));
                round_trip(t[1], MPI_COMBINER_DUP, 0, "dup");
            }
            CHECK_MPI(MPI_Type_free(&t[0]));
            CHECK_MPI(MPI_Type_free(&t[1]));

#define PAIR(CALL_C, CALL, COMB, NAME)                      \
    do {                                                    \
        CHECK_MPI(CALL_C);                                  \
        CHECK_MPI(CALL);                                    \
        round_trip(large ? t[0] : t[1], COMB, large, NAME); \
        same_type(t[0], t[1], NAME " _c = int form");       \
        CHECK_MPI(MPI_Type_free(&t[0]));                    \
        CHECK_MPI(MPI_Type_free(&t[1]));                    \
    } while (0)
            PAIR(MPI_Type_vector_c(3, 2, -4, old, &t[0]), MPI_Type_vector(3, 2, -4, old, &t[1]),
                 MPI_COMBINER_VECTOR, "vector");
            PAIR(MPI_Type_create_hvector_c(2, 3, 40, old, &t[0]),
                 MPI_Type_create_hvector(2, 3, 40, old, &t[1]), MPI_COMBINER_HVECTOR, "hvector");
            PAIR(MPI_Type_indexed_c(3, cbl, cid, old, &t[0]),
                 MPI_Type_indexed(3, bl, id, old, &t[1]), MPI_COMBINER_INDEXED, "indexed");
            PAIR(MPI_Type_create_hindexed_c(3, cbl, cad, old, &t[0]),
                 MPI_Type_create_hindexed(3, bl, ad, old, &t[1]), MPI_COMBINER_HINDEXED,
                 "hindexed");
            PAIR(MPI_Type_create_indexed_block_c(3, 2, cid, old, &t[0]),
                 MPI_Type_create_indexed_block(3, 2, id, old, &t[1]), MPI_COMBINER_INDEXED_BLOCK,
                 "indexed_block");
            PAIR(MPI_Type_create_hindexed_block_c(3, 1, cad, old, &t[0]),
                 MPI_Type_create_hindexed_block(3, 1, ad, old, &t[1]), MPI_COMBINER_HINDEXED_BLOCK,
                 "hindexed_block");
            PAIR(MPI_Type_create_resized_c(old, -12, 40, &t[0]),
                 MPI_Type_create_resized(old, -12, 40, &t[1]), MPI_COMBINER_RESIZED, "resized");
        }
        PAIR(MPI_Type_create_struct_c(3, cbl, cad, types, &t[0]),
             MPI_Type_create_struct(3, bl, ad, types, &t[1]), MPI_COMBINER_STRUCT, "struct");
    }
    /* a derived inner type whose handle is gone comes back as a new one */
    CHECK_MPI(MPI_Type_vector(2, 1, 3, inner, &v));
    MPI_Datatype keep = inner;
    CHECK_MPI(MPI_Type_free(&inner));
    int I[3];
    MPI_Aint A[1];
    MPI_Datatype T[1];
    CHECK_MPI(MPI_Type_get_contents(v, 3, 0, 1, I, A, T));
    CHECK(T[0] != MPI_DATATYPE_NULL, "inner type handle");
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(T[0], &lb, &ext));
    CHECK(lb == -2 && ext == 6, "inner type from contents: lb %ld extent %ld", (long)lb, (long)ext);
    (void)keep;
    CHECK_MPI(MPI_Type_free(&T[0]));
    CHECK_MPI(MPI_Type_free(&v));
    /* predefined types have no contents */
    int rc = MPI_Type_get_contents(MPI_INT, 0, 0, 0, I, A, T), ec;
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_TYPE, "contents of MPI_INT: class %d", ec);
}

static void large_queries(void)
{
    /* beyond an int: 2^31 + 10 doubles, built, never touched */
    MPI_Datatype big;
    MPI_Count n = ((MPI_Count)1 << 31) + 10, sz, lb, ext;
    CHECK_MPI(MPI_Type_contiguous_c(n, MPI_DOUBLE, &big));
    CHECK_MPI(MPI_Type_size_c(big, &sz));
    CHECK(sz == n * 8, "size_c %ld", (long)sz);
    int isz;
    CHECK_MPI(MPI_Type_size(big, &isz));
    CHECK(isz == MPI_UNDEFINED, "int size of a huge type %d", isz);
    CHECK_MPI(MPI_Type_get_extent_c(big, &lb, &ext));
    CHECK(lb == 0 && ext == n * 8, "extent_c %ld %ld", (long)lb, (long)ext);
    CHECK_MPI(MPI_Pack_size_c(3, big, MPI_COMM_WORLD, &sz));
    CHECK(sz == 3 * n * 8, "pack_size_c %ld", (long)sz);
    int rc = MPI_Pack_size(1, big, MPI_COMM_WORLD, &isz), ec;
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_ARG, "int pack size of a huge type: class %d", ec);

    MPI_Status st;
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_DOUBLE, n));
    MPI_Count cnt;
    CHECK_MPI(MPI_Get_count_c(&st, big, &cnt));
    CHECK(cnt == 1, "get_count_c %ld", (long)cnt);
    CHECK_MPI(MPI_Get_count_c(&st, MPI_DOUBLE, &cnt));
    CHECK(cnt == n, "get_count_c doubles %ld", (long)cnt);
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &isz));
    CHECK(isz == MPI_UNDEFINED, "int get_count beyond an int %d", isz);
    CHECK_MPI(MPI_Get_elements_c(&st, big, &cnt));
    CHECK(cnt == n, "get_elements_c %ld", (long)cnt);
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_DOUBLE, 5));
    CHECK_MPI(MPI_Get_count_c(&st, big, &cnt));
    CHECK(cnt == MPI_UNDEFINED, "get_count_c partial %ld", (long)cnt);
    CHECK_MPI(MPI_Get_elements_c(&st, big, &cnt));
    CHECK(cnt == 5, "get_elements_c partial %ld", (long)cnt);
    CHECK_MPI(MPI_Type_free(&big));

    /* pack_c / unpack_c and their positions */
    int src[6] = {1, 2, 3, 4, 5, 6}, dst[6] = {0};
    char buf[64];
    MPI_Count pos = 4;
    CHECK_MPI(MPI_Pack_c(src, 6, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 28, "pack_c position %ld", (long)pos);
    pos = 4;
    CHECK_MPI(MPI_Unpack_c(buf, sizeof buf, &pos, dst, 6, MPI_INT, MPI_COMM_WORLD));
    CHECK(pos == 28 && memcmp(src, dst, sizeof src) == 0, "unpack_c");
    pos = 48;
    rc = MPI_Pack_c(src, 6, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_TRUNCATE && pos == 48, "pack_c past the end: class %d", ec);
    rc = MPI_Pack_c(src, -1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COUNT, "pack_c negative count: class %d", ec);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    every_combiner();
    large_queries();
    MPI_Finalize();
    return 0;
}
