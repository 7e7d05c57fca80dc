/* MPI-IO (src/io/): file objects, views, and moving typed data between
 * memory and a file with preadv/pwritev.  Above coll/ and comm/: opening
 * a file agrees on it over the communicator, and the collective and
 * ordered accesses exchange offsets with collectives.  The entry points
 * (src/api/file*.c) check arguments and hold the big lock; every function
 * here raises its errors on the file's handler (MPI_FILE_NULL's when there
 * is no file yet) and returns the code. */
#ifndef TERN_IO_IO_H
#define TERN_IO_IO_H

#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct tern_comm;
struct tern_datatype;
struct tern_errhandler;
struct tern_info;

enum tern_io_dir { TERN_IO_READ, TERN_IO_WRITE };

/* The data representations a view may name ("internal" is "native"). */
enum tern_io_datarep {
    TERN_DATAREP_NATIVE,
    TERN_DATAREP_INTERNAL,
    TERN_DATAREP_EXTERNAL32,
    TERN_DATAREP_USER /* one the program registered */
};

/* A registered representation (io/file_datarep.c).  Of each pair of
 * conversion functions at most one is set (the _c ones by
 * MPI_Register_datarep_c); none: that direction stores the memory's bytes. */
struct tern_datarep {
    struct tern_datarep *next;
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function *read, *write;
    MPI_Datarep_conversion_function_c *read_c, *write_c;
    MPI_Datarep_extent_function *extent;
    void *extra_state;
};

struct tern_file {
    int fint;               /* the Fortran handle (MPI_File_c2f) */
    struct tern_comm *comm; /* private: the file's collectives never meet the user's */
    int fd;
    int amode;
    char *path;
    struct tern_errhandler *errh;
    struct tern_info *hints; /* the hints given, as given */

    /* The view: byte disp, then filetype tiled without end; positions count
     * etypes of the data the filetype selects. */
    MPI_Offset disp;
    struct tern_datatype *etype, *filetype;
    enum tern_io_datarep datarep;
    const struct tern_datarep *urep; /* TERN_DATAREP_USER's registration */
    /* etype and filetype as the file holds them: the same types for
     * "native", laid out again for the others (io/file_convert.c).  The
     * view's pieces and positions count in these. */
    struct tern_datatype *file_etype, *file_filetype;
    char datarep_name[MPI_MAX_DATAREP_STRING]; /* as the view named it */
    MPI_Offset pos;                            /* the individual file pointer */
    /* The shared file pointer (io/file_shared.c): one 64-bit counter in
     * memory every rank of the file maps, or, when the ranks span hosts,
     * in a hidden file beside the data file (shfp_fd; shfp_err: the errno
     * that kept it from being made). */
    _Atomic int64_t *shared;
    int shfp_fd;
    char *shfp_path;
    int shfp_err;
    int atomic;          /* MPI_File_set_atomicity */
    _Atomic int pending; /* nonblocking accesses the I/O thread has not finished */

    /* A split collective in progress (_begin called, _end not yet). */
    int split_active;
    MPI_Status split_status;

    /* Collective access's buffers (io/file_coll.c), kept from one call to
     * the next: fresh ones fault in every page on every call, which cost a
     * quarter of a page-cache read's time. */
    struct tern_io_cb_scratch {
        char *send, *recv, *block, *back, *segs, *iov;
        size_t send_cap, recv_cap, block_cap, back_cap, segs_cap, iov_cap;
    } cb;
};

/* MPI_File handle <-> object.  tern_file_get: NULL unless h is an open file. */
struct tern_file *tern_file_get(MPI_File h);
static inline MPI_File tern_file_handle(struct tern_file *f) { return (MPI_File)(void *)f; }
MPI_Fint tern_file_c2f(MPI_File h);
MPI_File tern_file_f2c(MPI_Fint i);

/* Errors: a code with the message, raised on f's handler (MPI_FILE_NULL's
 * when f is NULL); tern_io_errno names the path and strerror(err) and picks
 * the class from errno. */
int tern_io_err(struct tern_file *f, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int tern_io_errno(struct tern_file *f, const char *fn, const char *path, const char *what, int err);
int tern_io_raise(struct tern_file *f, int code);
int tern_io_errno_class(int err);

/* ---- Files (io/file.c) ---- */
/* Collective over c (an intracommunicator): *out is the new file. */
int tern_file_open(const char *fn, struct tern_comm *c, const char *path, int amode,
                   struct tern_info *info, struct tern_file **out);
int tern_file_close(const char *fn, struct tern_file *f);
int tern_file_delete(const char *fn, const char *path);
int tern_file_set_size(const char *fn, struct tern_file *f, MPI_Offset size);
int tern_file_preallocate(const char *fn, struct tern_file *f, MPI_Offset size);
int tern_file_get_size(const char *fn, struct tern_file *f, MPI_Offset *size);
int tern_file_sync(const char *fn, struct tern_file *f);
int tern_file_set_atomicity(const char *fn, struct tern_file *f, int flag);
/* A barrier over f's ranks, its error raised on f. */
int tern_file_barrier(struct tern_file *f);

/* ---- Hints (io/file_hints.c) ---- */
/* Keeps the hints of info (NULL: none) that Tern knows; MPI_SUCCESS or
 * MPI_ERR_NO_MEM. */
int tern_file_hints_set(struct tern_file *f, const struct tern_info *info);
/* Every hint in effect, the defaults included: a new info. */
struct tern_info *tern_file_hints_get(const struct tern_file *f);
/* Values the access paths read (bytes; 0/1 flags). */
size_t tern_file_hint_size(const struct tern_file *f, const char *key, size_t dflt);
/* The aggregators collective access uses (cb_nodes, by default
 * IO_AGGREGATORS_PER_HOST per host). */
int tern_file_cb_nodes(const struct tern_file *f);
void tern_file_cb_scratch_free(struct tern_file *f);
/* "enable" -> 1, "disable" -> 0, "automatic" or missing -> -1. */
int tern_file_hint_switch(const struct tern_file *f, const char *key);
/* Bytes [lo, hi) of the file were read: with access_style read_once the
 * kernel may drop them from its cache.  Program threads only (reads the
 * hints). */
void tern_file_read_done(const struct tern_file *f, MPI_Offset lo, MPI_Offset hi);

/* ---- Views (io/file_view.c) ---- */
int tern_file_set_view(const char *fn, struct tern_file *f, MPI_Offset disp,
                       struct tern_datatype *etype, struct tern_datatype *filetype,
                       const char *datarep, struct tern_info *info);
const char *tern_file_datarep_name(const struct tern_file *f);
/* MPI_File_get_type_extent: the extent of dt in the file in f's
 * representation.  Raises and returns errors. */
int tern_file_type_extent(const char *fn, struct tern_file *f, struct tern_datatype *dt,
                          MPI_Aint *extent);
/* The absolute byte of the file where view position 'off' (etypes) lies. */
MPI_Offset tern_file_byte_offset(const struct tern_file *f, MPI_Offset off);
/* The view position (etypes) of the end of the file: what MPI_SEEK_END counts from. */
int tern_file_end_position(const char *fn, struct tern_file *f, MPI_Offset *pos);

/* The pieces of the file that bytes [from, from + len) of the view's data
 * stream occupy, in order; *got gets the bytes they cover (less than len
 * only when 'max' ran out).  Returns how many were written.  Pieces are
 * (file offset, length), adjacent ones merged. */
struct tern_io_piece {
    MPI_Offset off;
    size_t len;
};
size_t tern_file_view_pieces(const struct tern_file *f, size_t from, size_t len,
                             struct tern_io_piece *out, size_t max, size_t *got);

/* ---- Registered data representations (io/file_datarep.c) ---- */
/* MPI_Register_datarep(_c): proto's functions under 'name' (raised:
 * MPI_ERR_DUP_DATAREP for a name already known). */
int tern_datarep_register(const char *fn, const char *name, const struct tern_datarep *proto);
/* NULL: not registered. */
const struct tern_datarep *tern_datarep_find(const char *name);

/* ---- Conversion between memory and a representation (io/file_convert.c) ----
 * These return error codes without raising them: the callers raise them on
 * the file's handler, or (collective, nonblocking) first agree on them or
 * keep them for the request. */
/* dt laid out in the representation (rep, urep): a new reference, dt itself
 * for "native" and "internal".  fn and path name the call and the file in
 * messages. */
int tern_file_rep_type(const char *fn, const char *path, enum tern_io_datarep rep,
                       const struct tern_datarep *urep, struct tern_datatype *dt,
                       struct tern_datatype **out);
/* One access's data on its way between memory and f.  (buf, count, dt) is
 * what moves to or from the view: the user's, or the data converted to
 * the file's representation, as bytes in tmp. */
struct tern_io_conv {
    void *buf;
    size_t count;
    struct tern_datatype *dt;
    void *tmp;    /* NULL: the memory's bytes move as they are */
    size_t felem; /* bytes in the file of one element of the user's type */
};
/* Sets c up for the user's (buf, count, dt); a write's data is converted
 * now. */
int tern_file_conv_begin(const char *fn, const struct tern_file *f, enum tern_io_dir dir, void *buf,
                         size_t count, struct tern_datatype *dt, struct tern_io_conv *c);
/* After 'moved' bytes of c's data moved: a read's whole elements are
 * converted into (buf, dt); *bytes gets the bytes of the user's data they
 * hold.  Frees c. */
int tern_file_conv_end(const char *fn, const struct tern_file *f, enum tern_io_dir dir,
                       struct tern_io_conv *c, void *buf, size_t count, struct tern_datatype *dt,
                       size_t moved, size_t *bytes);
/* Frees c (no conversion); harmless twice. */
void tern_file_conv_free(struct tern_io_conv *c);

/* ---- Moving data (io/file_xfer.c) ---- */
/* Reads or writes (buf, count, dt) at view position 'off' (etypes) of f,
 * independently, converting to and from f's representation; *bytes gets
 * the bytes of (buf, count, dt) moved (a read stops at the end of the
 * file).  Raises and returns errors. */
int tern_file_xfer(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                   void *buf, size_t count, struct tern_datatype *dt, size_t *bytes);
/* The same with data already in the file's representation. */
int tern_file_xfer_as_is(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                         void *buf, size_t count, struct tern_datatype *dt, size_t *bytes);
/* The same without raising, safe off the caller's thread (the I/O
 * thread): 0 or errno, with what failed ("cannot write") in *what. */
int tern_file_xfer_raw(const struct tern_file *f, enum tern_io_dir dir, MPI_Offset off, void *buf,
                       size_t count, const struct tern_datatype *dt, size_t *bytes,
                       const char **what);
/* The bytes of the file [*lo, *hi) an access of 'total' bytes of data
 * from view position 'off' spans (total > 0). */
void tern_file_access_range(const struct tern_file *f, MPI_Offset off, size_t total, MPI_Offset *lo,
                            MPI_Offset *hi);
/* MPI_ERR_READ_ONLY / MPI_ERR_ACCESS (raised) when f's access mode
 * forbids the direction. */
int tern_file_access_allowed(const char *fn, struct tern_file *f, enum tern_io_dir dir);
/* fcntl byte-range lock (F_RDLCK, F_WRLCK, F_UNLCK) of [from, to),
 * waiting for it: 0 or errno. */
int tern_io_lock_range(int fd, int type, MPI_Offset from, MPI_Offset to);
/* pread/pwrite until len bytes (or, reading, the end of the file): 0 or
 * errno; *got: the bytes read. */
int tern_io_pread_all(int fd, char *buf, size_t len, MPI_Offset off, size_t *got);
int tern_io_pwrite_all(int fd, const char *buf, size_t len, MPI_Offset off);
/* preadv/pwritev of iov[0..n) (any n; the iovecs are consumed) from off
 * until all of it moved (or, reading, the end of the file): 0 or errno;
 * *moved: the bytes that did. */
struct iovec;
int tern_io_rwv_all(int fd, enum tern_io_dir dir, struct iovec *iov, size_t n, MPI_Offset off,
                    size_t *moved);
/* The collective form (io/file_coll.c): every rank of f calls it.  Two-phase
 * aggregation when the hints allow and some rank's access is scattered. */
int tern_file_xfer_all(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                       void *buf, size_t count, struct tern_datatype *dt, size_t *bytes);

/* ---- Nonblocking independent access (io/file_async.c) ---- */
struct tern_request;
/* Hands the access to the I/O thread: *out is a request that completes
 * when the data has moved (an error then is the request's). */
int tern_file_async_start(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                          void *buf, size_t count, struct tern_datatype *dt,
                          struct tern_request **out);
/* Waits until the I/O thread has finished f's accesses (close). */
void tern_file_async_drain(struct tern_file *f);
/* A completed I/O request's error, raised on its file's handler. */
int tern_file_req_raise(struct tern_request *r, int code);

/* ---- The shared file pointer (io/file_shared.c) ---- */
/* Collective at open: maps the counter or opens the hidden file (rank 0
 * makes it).  A hidden file that cannot be made is no error here: the
 * calls below raise it. */
int tern_file_shared_attach(const char *fn, struct tern_file *f);
/* Unmaps or closes it; rank 0 removes the hidden file (every rank must be
 * done with it). */
void tern_file_shared_detach(struct tern_file *f);
/* Reserves n etypes: *at is the position where they start.  These three
 * raise their errors on f. */
int tern_file_shared_fetch_add(const char *fn, struct tern_file *f, MPI_Offset n, MPI_Offset *at);
int tern_file_shared_get(const char *fn, struct tern_file *f, MPI_Offset *pos);
int tern_file_shared_set(const char *fn, struct tern_file *f, MPI_Offset pos);
/* Rank 0 moves the pointer to pos (open with MPI_MODE_APPEND, set_view);
 * nothing when there is no pointer to move. */
int tern_file_shared_reset(const char *fn, struct tern_file *f, MPI_Offset pos);
/* MPI_File_delete: the hidden files of 'path' that jobs killed while it
 * was open left behind. */
void tern_file_shared_remove_stale(const char *path);
/* read_ordered/write_ordered: collective, in rank order from the shared pointer. */
int tern_file_xfer_ordered(const char *fn, struct tern_file *f, enum tern_io_dir dir, void *buf,
                           size_t count, struct tern_datatype *dt, size_t *bytes);

#endif
