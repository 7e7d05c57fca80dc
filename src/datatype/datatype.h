/* Datatypes: what the rest of the library may know about them.
 *
 * Point-to-point and the collectives see a datatype through this header
 * only: its size and bounds, whether 'count' elements are one contiguous
 * block, and pack/unpack of any byte range of the packed stream (so a
 * pipelined transfer can resume at any offset). */
#ifndef TERN_DATATYPE_DATATYPE_H
#define TERN_DATATYPE_DATATYPE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/handle.h"

struct tern_dt_layout; /* private to src/datatype */

struct tern_datatype {
    int handle;
    int refcount;            /* the user's reference plus pending operations */
    size_t size;             /* bytes of data in one element */
    MPI_Aint lb, ub, extent; /* extent = ub - lb */
    MPI_Aint true_lb, true_ub;
    /* Nonzero when 'count' elements of this type are the bytes
     * [buf + true_lb, buf + true_lb + count * size): one block per element and
     * extent == size.  Every predefined type is, except the pair types with
     * padding (MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
     * MPI_LONG_DOUBLE_INT: extent > size).  Set by commit. */
    int contig;
    int committed;
    int predefined;
    /* For reductions: when every basic element of the type is the same
     * predefined type, that type and how many of it one element holds;
     * otherwise MPI_DATATYPE_NULL. */
    MPI_Datatype basic;
    size_t basic_count;
    char name[MPI_MAX_OBJECT_NAME];
    struct tern_dt_layout *layout;
    void *attrs;
};

/* Handle -> object (predefined or created); NULL if not a live datatype. */
struct tern_datatype *tern_dt_get(MPI_Datatype h);

/* The predefined types but the pair types, by the low byte of their
 * handles (NULL where none): the lookup of the API's fast paths, which
 * leave every other handle to tern_dt_get and tern_dt_check. */
extern struct tern_datatype *const tern_dt_basic_by_id[256];
static inline struct tern_datatype *tern_dt_get_basic(MPI_Datatype h)
{
    if (tern_handle_tier(h) != TERN_TIER_BUILTIN || tern_handle_kind(h) != TERN_KIND_DATATYPE)
        return NULL;
    struct tern_datatype *d = tern_dt_basic_by_id[(unsigned)h & 0xffu];
    return d && d->handle == h ? d : NULL;
}

/* Validates a datatype argument for communication: live, committed, not
 * MPI_DATATYPE_NULL.  Returns MPI_SUCCESS or an error code whose message
 * names 'fn' and 'argname'. */
int tern_dt_check(MPI_Datatype h, const char *fn, const char *argname, struct tern_datatype **out);

/* Copies bytes [offset, offset + len) of the packed representation of
 * (buf, count, dt) to 'out'; returns the bytes copied (less than len only at
 * the end of the data). */
size_t tern_dt_pack(const struct tern_datatype *dt, const void *buf, size_t count, size_t offset,
                    void *out, size_t len);
/* The reverse: bytes [offset, offset + len) of the packed stream from 'in'
 * land where (buf, count, dt) puts them. */
size_t tern_dt_unpack(const struct tern_datatype *dt, void *buf, size_t count, size_t offset,
                      const void *in, size_t len);

/* ---- Walking the data from anywhere, and describing it to a peer ----
 *
 * The data of (buf, count, dt) in packed order is a loop nest: levels of
 * (count, stride) repetition around a unit, the same list of blocks each
 * time (typemap order, adjacent blocks merged).  A vector is one block and
 * one level however long it is; a contiguous buffer one block, once.
 *
 * A view is that nest with its block list readable here: made from our own
 * type (no allocation) or from a description a peer sent (tern_dt_desc:
 * plain numbers and addresses in the peer's memory), so that a process can
 * turn any byte range of the peer's data into iovecs without knowing the
 * peer's datatype.  That is what lets a rendezvous move scattered data
 * straight into scattered data with one process_vm_readv/writev. */
struct tern_dt_block {
    MPI_Aint disp;
    size_t len;
};

/* Levels of repetition a layout keeps (deeper nests spell out their
 * outermost levels as blocks); a view adds one for the count. */
#define TERN_DT_LEVELS 6
struct tern_dt_level {
    size_t count;
    MPI_Aint stride;
};

struct tern_dt_desc {
    uint64_t base;          /* buf: block displacements count from here */
    uint64_t blocks;        /* the owner's address of its block list (nblocks > 1) */
    uint64_t nblocks, unit; /* blocks in one unit, and their bytes */
    int64_t disp0;          /* the block, when there is one */
    uint64_t len0;
    uint64_t bytes; /* the whole packed stream */
    uint64_t nlevels;
    struct {
        uint64_t count;
        int64_t stride;
    } level[TERN_DT_LEVELS + 1];
};

struct tern_dt_view {
    const struct tern_dt_block *blocks;
    const size_t *prefix; /* prefix[i]: bytes of blocks[0..i-1] */
    size_t nblocks, unit;
    int nlevels; /* innermost first; at least one */
    struct tern_dt_level level[TERN_DT_LEVELS + 1];
    uintptr_t base;
    size_t bytes;
    struct tern_dt_block one; /* 'blocks' when there is a single block: do not copy a view */
    size_t one_prefix[2];
    void *owned; /* what tern_dt_view_free releases */
};

/* Our own buffer: never allocates, never fails. */
void tern_dt_view_local(struct tern_dt_view *v, const struct tern_datatype *dt, const void *buf,
                        size_t count);
/* The description of v for a peer (v must be a local view). */
void tern_dt_describe(const struct tern_dt_view *v, struct tern_dt_desc *d);
/* A peer's buffer: 'blocks' is a malloc'd copy of its d->nblocks blocks
 * when d->nblocks > 1 (the view takes it over), else NULL.  MPI_SUCCESS or
 * MPI_ERR_NO_MEM (then 'blocks' is freed too). */
int tern_dt_view_remote(struct tern_dt_view *v, const struct tern_dt_desc *d,
                        struct tern_dt_block *blocks);
void tern_dt_view_free(struct tern_dt_view *v);
/* Mean length of the contiguous pieces (a copy call pays per piece). */
size_t tern_dt_view_piece(const struct tern_dt_view *v);
size_t tern_dt_desc_piece(const struct tern_dt_desc *d);
/* Up to 'max' iovecs for bytes [offset, offset + len) of the packed
 * stream, adjacent pieces merged; *bytes gets what they cover (less than
 * len when 'max' ran out, or at the end of the data).  Returns the count. */
size_t tern_dt_view_iov(const struct tern_dt_view *v, size_t offset, size_t len, struct iovec *iov,
                        size_t max, size_t *bytes);

/* tern_dt_pack / tern_dt_unpack over a local view. */
size_t tern_dt_view_pack(const struct tern_dt_view *v, size_t offset, void *out, size_t len);
size_t tern_dt_view_unpack(const struct tern_dt_view *v, size_t offset, const void *in, size_t len);

/* Local copy between two typed buffers with the same type signature (up to
 * the shorter of the two); used by sends to self and collectives.  Returns
 * the bytes copied. */
size_t tern_dt_copy(const void *src, size_t scount, const struct tern_datatype *sdt, void *dst,
                    size_t rcount, const struct tern_datatype *rdt);

/* Reference counting for pending operations (MPI_Type_free while a send is
 * outstanding keeps the type alive). */
void tern_dt_retain(struct tern_datatype *dt);
void tern_dt_release(struct tern_datatype *dt);

/* Also sets up / tears down the reduction operations (src/coll/op.c), so
 * MPI_Init and MPI_Finalize need to call only these two. */
int tern_datatypes_init(void);
void tern_datatypes_finalize(void);

/* ---------------------------------------------------------------------------
 * Added by the datatype module: what the API layer (src/api/datatype_*.c)
 * and other internal users need beyond the contract above.
 * ------------------------------------------------------------------------- */

/* Like tern_dt_check, but an uncommitted type is accepted: constructors and
 * queries take any live type. */
int tern_dt_check_valid(MPI_Datatype h, const char *fn, const char *argname,
                        struct tern_datatype **out);

/* A printable name for messages: "MPI_INT", the user's name with the handle,
 * or the handle in hex ("0x8c000010"). */
const char *tern_dt_label(const struct tern_datatype *dt, char *buf, size_t len);

/* A constructor's array argument: int[] from the int forms, or MPI_Count[]
 * (the same type as MPI_Aint[]) from the large-count and address forms. */
struct tern_dt_arr {
    const int *i;
    const MPI_Count *c;
};
static inline MPI_Count tern_dt_arr_at(struct tern_dt_arr a, size_t k)
{
    return a.i ? (MPI_Count)a.i[k] : a.c[k];
}

/* Constructors.  Arguments are checked by the caller (counts and block
 * lengths >= 0, arrays present, types live, subarray and darray shapes
 * valid); the old types need not be committed.  On success *out is a new
 * uncommitted type holding one user reference, with a handle.  Returns
 * MPI_SUCCESS, MPI_ERR_NO_MEM, or MPI_ERR_ARG when the size or a bound of
 * the new type would overflow. */
int tern_dt_contiguous(MPI_Count count, struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                   struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                    struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_indexed(MPI_Count count, struct tern_dt_arr blocklengths, struct tern_dt_arr displs,
                    struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_hindexed(MPI_Count count, struct tern_dt_arr blocklengths, const MPI_Aint displs[],
                     struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_indexed_block(MPI_Count count, MPI_Count blocklength, struct tern_dt_arr displs,
                          struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_hindexed_block(MPI_Count count, MPI_Count blocklength, const MPI_Aint displs[],
                           struct tern_datatype *old, struct tern_datatype **out);
int tern_dt_struct(MPI_Count count, struct tern_dt_arr blocklengths, const MPI_Aint displs[],
                   struct tern_datatype *const types[], struct tern_datatype **out);
int tern_dt_resized(struct tern_datatype *old, MPI_Aint lb, MPI_Aint extent,
                    struct tern_datatype **out);
/* order: MPI_ORDER_C or MPI_ORDER_FORTRAN */
int tern_dt_subarray(int ndims, struct tern_dt_arr sizes, struct tern_dt_arr subsizes,
                     struct tern_dt_arr starts, int order, struct tern_datatype *old,
                     struct tern_datatype **out);
int tern_dt_darray(int size, int rank, int ndims, struct tern_dt_arr gsizes, const int distribs[],
                   const int dargs[], const int psizes[], int order, struct tern_datatype *old,
                   struct tern_datatype **out);
/* Records that a new type came from a large-count (_c) constructor: its
 * envelope and contents then give its counts as large counts. */
void tern_dt_mark_large(struct tern_datatype *dt);
/* The copy is committed when the original is (MPI_Type_dup). */
int tern_dt_dup(struct tern_datatype *old, struct tern_datatype **out);

/* MPI_Type_commit: compiles the layout (no-op for predefined and committed
 * types).  Returns MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_dt_commit(struct tern_datatype *dt);
/* MPI_Type_free on a created type: the handle dies now, the object when the
 * last reference (derived types built from it, pending operations) goes. */
void tern_dt_free_handle(struct tern_datatype *dt);
/* A pending operation that will still give the handle to the program's
 * code (a conversion function called when a nonblocking read completes)
 * pins it: the handle stays valid past MPI_Type_free until the unpin, and
 * the object with it.  No-ops on predefined types. */
void tern_dt_pin_handle(struct tern_datatype *dt);
void tern_dt_unpin_handle(struct tern_datatype *dt);
/* Whether the program still holds a handle of dt (a pinned handle the
 * program freed does not count): MPI_Type_free refuses a second free. */
int tern_dt_user_held(const struct tern_datatype *dt);

/* Basic elements (MPI_Get_elements): how many whole basic elements the
 * first 'bytes' bytes of the packed stream of (buf, n, dt) hold, n large
 * enough.  Returns 0, or -1 when 'bytes' ends inside a basic element. */
int tern_dt_count_elements(const struct tern_datatype *dt, size_t bytes, size_t *elements);
/* The inverse (MPI_Status_set_elements): bytes in the first 'elements'
 * basic elements of the packed stream. */
size_t tern_dt_elements_to_bytes(const struct tern_datatype *dt, size_t elements);

/* Another representation of the basic types (dt_rep.c): basic_size gives
 * the bytes of one element of a basic type (a named type with data, called
 * for each one met) or an error code, which the walks pass on. */
struct tern_dt_rep {
    int (*basic_size)(const struct tern_datatype *basic, size_t *bytes, void *arg);
    void *arg;
};
/* The bytes of count elements of dt in rep; MPI_ERR_ARG on overflow. */
int tern_dt_rep_size(const struct tern_datatype *dt, size_t count, const struct tern_dt_rep *rep,
                     size_t *bytes);
/* dt laid out in rep (byte-aligned, displacements in elements scaled, those
 * in bytes kept, MPI-4.1 14.5.1): a committed type without a handle, one
 * reference the caller releases.  MPI_SUCCESS, basic_size's error,
 * MPI_ERR_NO_MEM, MPI_ERR_ARG (a bound overflows). */
int tern_dt_rep_type(struct tern_datatype *dt, const struct tern_dt_rep *rep,
                     struct tern_datatype **out);

/* The "external32" representation (MPI_Pack_external): *bytes gets the
 * size of count elements of dt (MPI_ERR_ARG if it overflows); pack and
 * unpack convert all of them at once. */
int tern_dt_ext32_size(const struct tern_datatype *dt, size_t count, size_t *bytes);
void tern_dt_ext32_pack(const struct tern_datatype *dt, const void *buf, size_t count, void *out);
void tern_dt_ext32_unpack(const struct tern_datatype *dt, void *buf, size_t count, const void *in);

/* MPI_Type_get_envelope(_c) / MPI_Type_get_contents(_c).  large_form: the
 * caller is the large-count variant (num_large_counts exists).  A type from
 * a large-count constructor has no int-form envelope: the int forms must
 * refuse it (tern_dt_needs_large).  Derived types returned by contents
 * carry a new user reference (the caller must free them, as the standard
 * says).  contents returns MPI_SUCCESS, MPI_ERR_ARG when a max_* is too
 * small (nothing is written then) or MPI_ERR_NO_MEM. */
struct tern_dt_env {
    MPI_Count nints, naddrs, ncounts, ntypes;
    int combiner;
};
int tern_dt_needs_large(const struct tern_datatype *dt);
void tern_dt_envelope(const struct tern_datatype *dt, int large_form, struct tern_dt_env *env);
int tern_dt_contents(struct tern_datatype *dt, int large_form, const struct tern_dt_env *max,
                     int ints[], MPI_Aint addrs[], MPI_Count counts[], MPI_Datatype types[]);

/* MPI_Type_create_f90_integer/real/complex (combiner MPI_COMBINER_F90_*;
 * p is ignored for integers): the same type for the same arguments, never
 * freed by the user.  MPI_SUCCESS, MPI_ERR_ARG when no kind has that
 * precision and range, or MPI_ERR_NO_MEM. */
int tern_dt_f90(int combiner, int p, int r, struct tern_datatype **out);

/* ---- Attributes of datatypes (dt_attr.c; the lists are core/attr.h's) ---- */
/* Copy callbacks for a type made from another; delete callbacks at the
 * MPI_Type_free of the last user handle. */
int tern_attr_type_copy(struct tern_datatype *old, struct tern_datatype *nt);
int tern_attr_type_free(struct tern_datatype *dt);
/* A predefined datatype got an attribute: its attributes are deleted at
 * MPI_Finalize.  MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_attr_note_predefined_type(struct tern_datatype *dt);
/* MPI_Finalize: deletes the attributes of the predefined datatypes, after
 * those of the predefined communicators (tern_attr_finalize_callbacks). */
void tern_attr_type_finalize_callbacks(void);

#endif
