/* The predefined datatypes: static objects, found by handle.
 *
 * A basic type's handle is 0x4c00SSII (SS its size in bytes, II an id that
 * is unique among them), so a 256-entry table indexed by II finds it.  The
 * value-index pair types MPI_FLOAT_INT..MPI_LONG_DOUBLE_INT have handles
 * 0x8c000000..0x8c000004 in the created tier (as in MPICH); created types
 * start at index 16. */
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "datatype/dt_internal.h"

/* Every basic type: its handle and a C type with its size and alignment.
 * The spelling of the handle is the type's name: MPI_C_COMPLEX rather than
 * its alias MPI_C_FLOAT_COMPLEX, as MPICH answers MPI_Type_get_name. */
#define TERN_DT_BASIC_LIST(X)                            \
    X(MPI_CHAR, char)                                    \
    X(MPI_SIGNED_CHAR, signed char)                      \
    X(MPI_UNSIGNED_CHAR, unsigned char)                  \
    X(MPI_BYTE, unsigned char)                           \
    X(MPI_WCHAR, wchar_t)                                \
    X(MPI_SHORT, short)                                  \
    X(MPI_UNSIGNED_SHORT, unsigned short)                \
    X(MPI_INT, int)                                      \
    X(MPI_UNSIGNED, unsigned)                            \
    X(MPI_LONG, long)                                    \
    X(MPI_UNSIGNED_LONG, unsigned long)                  \
    X(MPI_LONG_LONG_INT, long long)                      \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long)        \
    X(MPI_FLOAT, float)                                  \
    X(MPI_DOUBLE, double)                                \
    X(MPI_LONG_DOUBLE, long double)                      \
    X(MPI_PACKED, unsigned char)                         \
    X(MPI_2INT, int[2])                                  \
    X(MPI_CHARACTER, char)                               \
    X(MPI_LOGICAL, int)                                  \
    X(MPI_INTEGER, int)                                  \
    X(MPI_REAL, float)                                   \
    X(MPI_DOUBLE_PRECISION, double)                      \
    X(MPI_COMPLEX, float _Complex)                       \
    X(MPI_DOUBLE_COMPLEX, double _Complex)               \
    X(MPI_2INTEGER, int[2])                              \
    X(MPI_2REAL, float[2])                               \
    X(MPI_2DOUBLE_PRECISION, double[2])                  \
    X(MPI_INTEGER1, int8_t)                              \
    X(MPI_INTEGER2, int16_t)                             \
    X(MPI_INTEGER4, int32_t)                             \
    X(MPI_INTEGER8, int64_t)                             \
    X(MPI_REAL4, float)                                  \
    X(MPI_REAL8, double)                                 \
    X(MPI_REAL16, long double)                           \
    X(MPI_COMPLEX8, float _Complex)                      \
    X(MPI_COMPLEX16, double _Complex)                    \
    X(MPI_COMPLEX32, long double _Complex)               \
    X(MPI_INT8_T, int8_t)                                \
    X(MPI_INT16_T, int16_t)                              \
    X(MPI_INT32_T, int32_t)                              \
    X(MPI_INT64_T, int64_t)                              \
    X(MPI_UINT8_T, uint8_t)                              \
    X(MPI_UINT16_T, uint16_t)                            \
    X(MPI_UINT32_T, uint32_t)                            \
    X(MPI_UINT64_T, uint64_t)                            \
    X(MPI_C_BOOL, _Bool)                                 \
    X(MPI_C_COMPLEX, float _Complex)                     \
    X(MPI_C_DOUBLE_COMPLEX, double _Complex)             \
    X(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex)   \
    X(MPI_CXX_BOOL, _Bool)                               \
    X(MPI_CXX_FLOAT_COMPLEX, float _Complex)             \
    X(MPI_CXX_DOUBLE_COMPLEX, double _Complex)           \
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex) \
    X(MPI_AINT, MPI_Aint)                                \
    X(MPI_OFFSET, MPI_Offset)                            \
    X(MPI_COUNT, MPI_Count)                              \
    TERN_DT_FLOAT16(X)

#ifdef MPIX_C_FLOAT16
#define TERN_DT_FLOAT16(X) X(MPIX_C_FLOAT16, uint16_t)
#else
#define TERN_DT_FLOAT16(X)
#endif

/* The value-index pairs: a struct of the value followed by an int. */
#define TERN_DT_PAIR_LIST(X)  \
    X(MPI_FLOAT_INT, float)   \
    X(MPI_DOUBLE_INT, double) \
    X(MPI_LONG_INT, long)     \
    X(MPI_SHORT_INT, short)   \
    X(MPI_LONG_DOUBLE_INT, long double)

#define TERN_DT_HSIZE(h) (((unsigned)(h) >> 8) & 0xffu)
#define TERN_DT_ID(h) ((unsigned)(h)&0xffu)

/* MPI_2INT and its kin are two basic elements each for MPI_Get_elements:
 * the standard defines them as MPI_Type_contiguous(2, ...), as it defines
 * the value-index pairs as structs of two. */
#define TERN_DT_IS_TWIN(H) \
    ((H) == MPI_2INT || (H) == MPI_2INTEGER || (H) == MPI_2REAL || (H) == MPI_2DOUBLE_PRECISION)

/* A basic type: one block, contiguous. */
#define TERN_DT_DEF_BASIC(H, T)                                                                  \
    _Static_assert(sizeof(T) == TERN_DT_HSIZE(H), #H ": size differs from its handle");          \
    static struct tern_dt_obj dt_##H = {                                                         \
        .pub = {.handle = H,                                                                     \
                .refcount = 1,                                                                   \
                .size = sizeof(T),                                                               \
                .lb = 0,                                                                         \
                .ub = sizeof(T),                                                                 \
                .extent = sizeof(T),                                                             \
                .true_lb = 0,                                                                    \
                .true_ub = sizeof(T),                                                            \
                .contig = 1,                                                                     \
                .committed = 1,                                                                  \
                .predefined = 1,                                                                 \
                .basic = H,                                                                      \
                .basic_count = 1,                                                                \
                .name = #H,                                                                      \
                .layout =                                                                        \
                    &(struct tern_dt_layout){.nblocks = 1,                                       \
                                             .unit = sizeof(T),                                  \
                                             .blocks = (struct tern_dt_block[]){{0, sizeof(T)}}, \
                                             .prefix = (size_t[]){0, sizeof(T)},                 \
                                             .is_static = 1}},                                   \
        .urefs = 1,                                                                              \
        .combiner = MPI_COMBINER_NAMED,                                                          \
        .align = _Alignof(T),                                                                    \
        .nelems = TERN_DT_IS_TWIN(H) ? 2 : 1};

/* A pair type: the value's bytes, then (after padding, if any) the int. */
#define TERN_DT_PAIR_STRUCT(V) \
    struct {                   \
        V v;                   \
        int i;                 \
    }
#define TERN_DT_PAIR_SIZE(V) (sizeof(V) + sizeof(int))
#define TERN_DT_PAIR_IOFF(V) offsetof(TERN_DT_PAIR_STRUCT(V), i)
#define TERN_DT_PAIR_ONEBLOCK(V) (TERN_DT_PAIR_IOFF(V) == sizeof(V))
#define TERN_DT_DEF_PAIR(H, V)                                                                    \
    static struct tern_dt_obj dt_##H = {                                                          \
        .pub = {.handle = H,                                                                      \
                .refcount = 1,                                                                    \
                .size = TERN_DT_PAIR_SIZE(V),                                                     \
                .lb = 0,                                                                          \
                .ub = sizeof(TERN_DT_PAIR_STRUCT(V)),                                             \
                .extent = sizeof(TERN_DT_PAIR_STRUCT(V)),                                         \
                .true_lb = 0,                                                                     \
                .true_ub = TERN_DT_PAIR_IOFF(V) + sizeof(int),                                    \
                .contig = TERN_DT_PAIR_ONEBLOCK(V) &&                                             \
                          TERN_DT_PAIR_SIZE(V) == sizeof(TERN_DT_PAIR_STRUCT(V)),                 \
                .committed = 1,                                                                   \
                .predefined = 1,                                                                  \
                .basic = H,                                                                       \
                .basic_count = 1,                                                                 \
                .name = #H,                                                                       \
                .layout =                                                                         \
                    &(struct tern_dt_layout){                                                     \
                        .nblocks = TERN_DT_PAIR_ONEBLOCK(V) ? 1 : 2,                              \
                        .unit = TERN_DT_PAIR_SIZE(V),                                             \
                        .blocks =                                                                 \
                            (struct tern_dt_block[]){                                             \
                                {0, TERN_DT_PAIR_ONEBLOCK(V) ? TERN_DT_PAIR_SIZE(V) : sizeof(V)}, \
                                {(MPI_Aint)TERN_DT_PAIR_IOFF(V), sizeof(int)}},                   \
                        .prefix = (size_t[]){0,                                                   \
                                             TERN_DT_PAIR_ONEBLOCK(V) ? TERN_DT_PAIR_SIZE(V)      \
                                                                      : sizeof(V),                \
                                             TERN_DT_PAIR_SIZE(V)},                               \
                        .is_static = 1}},                                                         \
        .urefs = 1,                                                                               \
        .combiner = MPI_COMBINER_NAMED,                                                           \
        .align = _Alignof(TERN_DT_PAIR_STRUCT(V)),                                                \
        .nelems = 2};

/* The bound markers: no data, an explicit lower or upper bound at 0. */
#define TERN_DT_DEF_MARKER(H, IS_LB, IS_UB)                          \
    static struct tern_dt_obj dt_##H = {                             \
        .pub = {.handle = H,                                         \
                .refcount = 1,                                       \
                .contig = 1,                                         \
                .committed = 1,                                      \
                .predefined = 1,                                     \
                .basic = MPI_DATATYPE_NULL,                          \
                .name = #H,                                          \
                .layout = &(struct tern_dt_layout){.is_static = 1}}, \
        .urefs = 1,                                                  \
        .combiner = MPI_COMBINER_NAMED,                              \
        .sticky_lb = IS_LB,                                          \
        .sticky_ub = IS_UB,                                          \
        .align = 1};

TERN_DT_BASIC_LIST(TERN_DT_DEF_BASIC)
TERN_DT_PAIR_LIST(TERN_DT_DEF_PAIR)
TERN_DT_DEF_MARKER(MPI_LB, 1, 0)
TERN_DT_DEF_MARKER(MPI_UB, 0, 1)

#define TERN_DT_BY_ID(H, T) [TERN_DT_ID(H)] = &dt_##H,
static struct tern_dt_obj *const builtin_by_id[256] = {
    TERN_DT_BASIC_LIST(TERN_DT_BY_ID)[TERN_DT_ID(MPI_LB)] = &dt_MPI_LB,
    [TERN_DT_ID(MPI_UB)] = &dt_MPI_UB,
};
static struct tern_dt_obj *const pair_by_id[5] = {TERN_DT_PAIR_LIST(TERN_DT_BY_ID)};

#define TERN_DT_PUB_BY_ID(H, T) [TERN_DT_ID(H)] = &dt_##H.pub,
struct tern_datatype *const tern_dt_basic_by_id[256] = {
    TERN_DT_BASIC_LIST(TERN_DT_PUB_BY_ID)[TERN_DT_ID(MPI_LB)] = &dt_MPI_LB.pub,
    [TERN_DT_ID(MPI_UB)] = &dt_MPI_UB.pub,
};

/* The handle's own record of its name, to undo MPI_Type_set_name at
 * finalize. */
#define TERN_DT_NAME_BY_ID(H, T) [TERN_DT_ID(H)] = #H,
static const char *const name_by_id[256] = {
    TERN_DT_BASIC_LIST(TERN_DT_NAME_BY_ID)[TERN_DT_ID(MPI_LB)] = "MPI_LB",
    [TERN_DT_ID(MPI_UB)] = "MPI_UB",
};
static const char *const pair_name_by_id[5] = {TERN_DT_PAIR_LIST(TERN_DT_NAME_BY_ID)};

struct tern_dt_obj *tern_dt_builtin_get(MPI_Datatype h)
{
    unsigned u = (unsigned)h;
    if (tern_handle_kind(h) != TERN_KIND_DATATYPE) return NULL;
    if (tern_handle_tier(h) == TERN_TIER_BUILTIN) {
        struct tern_dt_obj *t = builtin_by_id[u & 0xffu];
        return t && t->pub.handle == h ? t : NULL;
    }
    if (tern_handle_tier(h) == TERN_TIER_CREATED && tern_handle_index(h) < 5u)
        return pair_by_id[tern_handle_index(h)];
    return NULL;
}

static void reset_name(struct tern_dt_obj *t, const char *name)
{
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof t->pub.name; i++) t->pub.name[i] = name[i];
    t->pub.name[i] = '\0';
}

void tern_dt_builtin_reset_names(void)
{
    for (unsigned i = 0; i < 256; i++)
        if (builtin_by_id[i]) reset_name(builtin_by_id[i], name_by_id[i]);
    for (unsigned i = 0; i < 5; i++) reset_name(pair_by_id[i], pair_name_by_id[i]);
}
