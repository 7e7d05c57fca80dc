/* tern-bench: the harness every benchmark family shares.
 *
 * Plain MPI (MPI-3.1 calls only): the same sources build against Tern,
 * MPICH and Open MPI.  Every MPI call a benchmark makes goes through TB_MPI,
 * which turns an error into a status instead of an abort (MPI_ERRORS_RETURN
 * is set at start-up), so a call an MPI does not implement becomes "not
 * supported by this MPI" rather than a crash. */
#ifndef TB_H
#define TB_H

#include <mpi.h>
#include <stddef.h>

/* ---- options ------------------------------------------------------------ */

#define TB_MAX_SIZES 64

struct tb_opts {
    size_t sizes[TB_MAX_SIZES]; /* explicit list (-m a,b,c), or empty */
    int nsizes;
    size_t min_size, max_size; /* -m MIN:MAX */
    int have_min, have_max; /* 0: that end is the benchmark's default (-m :MAX, -m MIN:), as OMB */
    int iters;              /* -i; 0: by message size, as OSU does */
    int warmup;             /* -x; -1: by message size */
    int window;             /* -w: messages in flight per bandwidth iteration */
    int fresh;              /* --fresh: each message uses memory not touched recently */
    size_t cold_bytes;      /* how much memory --fresh cycles through */
    int validate;           /* -c */
    int corrupt; /* --corrupt-for-test (hidden): every check first flips one byte of what it
                                   examines, so the tests can see that a wrong byte fails the benchmark */
    int rtype;   /* -T: element type of the reductions, enum tb_rtype */
    int json;    /* -f json */
    /* one-sided family */
    int win_kind; /* --win: enum tb_win; -1 the benchmark's default */
    int sync;     /* --sync: enum tb_sync; -1 the benchmark's default */
    /* I/O family */
    const char *dir; /* --dir: where the files go (default ".") */
    int io_sync;     /* --io-sync: MPI_File_sync inside the timed region */
    size_t io_block; /* --io-block: block of the strided patterns (default 1 KiB) */
};

/* Window kinds and synchronisations of the one-sided family (OMB's -w, -s). */
/* TB_WIN_ALLOC_MEM: MPI_Win_create on memory of MPI_Alloc_mem (TB_WIN_CREATE:
 * on the heap's, as OMB's create). */
enum tb_win { TB_WIN_CREATE, TB_WIN_ALLOCATE, TB_WIN_DYNAMIC, TB_WIN_ALLOC_MEM, TB_NWIN };
enum tb_sync {
    TB_SYNC_LOCK,
    TB_SYNC_LOCK_ALL,
    TB_SYNC_FLUSH,
    TB_SYNC_FLUSH_LOCAL,
    TB_SYNC_FENCE,
    TB_SYNC_PSCW,
    TB_NSYNC
};
extern const char *const tb_win_names[TB_NWIN];
extern const char *const tb_sync_names[TB_NSYNC];

/* Element types of the reductions (OMB's -T); MPI_CHAR is OMB 7.x's default. */
enum tb_rtype { TB_RCHAR, TB_RINT, TB_RFLOAT };
MPI_Datatype tb_reduction_type(const struct tb_opts *o);

/* Parses argv; fills names[] with the benchmark/family words.  Returns 0,
 * 1 for --help, 2 for a usage error (message printed by rank 0). */
int tb_parse(int argc, char **argv, struct tb_opts *o, const char **names, int *nnames,
             int maxnames, int rank);
void tb_usage(const char *prog);
size_t tb_parse_size(const char *s, int *ok);

/* ---- benchmarks ----------------------------------------------------------- */

struct tb_ctx;

/* How iteration counts scale by default (OMB's defaults for each kind);
 * TB_MBW: osu_mbw_mr keeps the small-message counts at every size. */
enum tb_kind { TB_LAT, TB_BW, TB_MBW, TB_COLL };

struct tb_bench {
    const char *name;
    const char *family; /* pt2pt, coll, nbc, dtype, rma, io */
    const char *what;   /* one line for --list and the header */
    int min_ranks;
    size_t def_min, def_max; /* default message sizes */
    size_t granule;          /* sizes not a multiple of this are skipped */
    int (*run)(struct tb_ctx *);
    const void *arg; /* family-specific description */
};

/* Every benchmark, in --list order; NULL-terminated tables per family. */
extern const struct tb_bench tb_pt2pt_benches[];
extern const struct tb_bench tb_coll_benches[];
extern const struct tb_bench tb_nbc_benches[];
extern const struct tb_bench tb_dtype_benches[];
extern const struct tb_bench tb_rma_benches[];
extern const struct tb_bench tb_io_benches[];

/* ---- run context ------------------------------------------------------------ */

enum tb_status { TB_OK = 0, TB_UNSUPPORTED = 1, TB_FAILED = 2 };

#define TB_MAX_COLS 8

struct tb_col {
    const char *name; /* JSON key and text header */
    const char *unit;
    int prec;   /* decimals in the text table */
    int better; /* +1 higher is better, -1 lower, 0 not a measurement */
};

struct tb_ctx {
    const struct tb_bench *b;
    const struct tb_opts *o;
    MPI_Comm comm;
    int rank, size;
    enum tb_status status;
    char err[384];
    int secondhand;  /* stopped because another rank failed */
    size_t bad_size; /* the message size whose validation failed, when have_bad_size */
    int have_bad_size;
    size_t granule; /* sizes not a multiple of this are skipped: the
                           benchmark's, or one element of -T's type */
    /* what this run allocated, freed by tb_cleanup whatever happened */
    void **mem;
    int nmem, capmem;
    void **mpimem; /* from MPI_Alloc_mem */
    int nmpimem, capmpimem;
    MPI_Datatype *types;
    int ntypes, captypes;
    MPI_Comm *comms;
    int ncomms, capcomms;
    /* result table */
    struct tb_col cols[TB_MAX_COLS];
    int ncols;
    double *rows;
    int nrows, caprows;
    /* extra header line, e.g. how pairs are formed; empty when none.  Held
     * here because the JSON is written after the benchmark has returned. */
    char note[96];
};

/* Records an MPI error: class MPI_ERR_UNSUPPORTED_OPERATION (or a call the
 * library does not have) is TB_UNSUPPORTED, anything else TB_FAILED.
 * Returns -1 so callers can 'return tb_mpi_error(...)'. */
int tb_mpi_error(struct tb_ctx *c, const char *call, int rc);
/* Records a failure (validation, allocation); returns -1. */
int tb_fail(struct tb_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After a step that may fail on some ranks only (validation): all ranks
 * learn whether any failed and stop together, rather than entering
 * different collectives.  Returns 0 when none failed, else -1. */
int tb_all_ok(struct tb_ctx *c, int local_rc);
/* tb_all_ok after the validated run of one message size: a failure
 * records the size, which the status line and the JSON report. */
int tb_validated(struct tb_ctx *c, size_t size, int local_rc);

#define TB_MPI(c, call)                                                     \
    do {                                                                    \
        int tb_rc_ = (call);                                                \
        if (tb_rc_ != MPI_SUCCESS) return tb_mpi_error((c), #call, tb_rc_); \
    } while (0)

/* Propagates a failure from a helper that returned non-zero. */
#define TB_TRY(expr)                \
    do {                            \
        if ((expr) != 0) return -1; \
    } while (0)

/* Tracked resources: freed by tb_cleanup even when a benchmark stops early. */
void *tb_alloc(struct tb_ctx *c, size_t bytes); /* page-aligned, zeroed; NULL recorded as failure */
void *tb_alloc_mpi(struct tb_ctx *c, size_t bytes);    /* the same from MPI_Alloc_mem */
int tb_type_commit(struct tb_ctx *c, MPI_Datatype *t); /* commits and tracks a new type */
void tb_track_comm(struct tb_ctx *c, MPI_Comm comm);
void tb_cleanup(struct tb_ctx *c);

/* ---- sizes, iterations, timing -------------------------------------------------- */

/* Iterates message sizes: the -m list or range (powers of two from min,
 * 0 then 1, 2, 4...), else the benchmark's default range; skips sizes that
 * are not a multiple of the benchmark's granule.  Start with *s = (size_t)-1. */
int tb_next_size(const struct tb_ctx *c, size_t *s);
size_t tb_max_size(const struct tb_ctx *c);
int tb_iters(const struct tb_ctx *c, enum tb_kind k, size_t size);
int tb_warmup(const struct tb_ctx *c, enum tb_kind k, size_t size);

/* Runs step 'warm' times, then (after a barrier of all ranks) 'iters'
 * times under the clock; *seconds is the time of the timed calls.  Ranks
 * with active == 0 only join the barrier. */
int tb_time_loop(struct tb_ctx *c, int active, int warm, int iters,
                 int (*step)(struct tb_ctx *, void *), void *arg, double *seconds);

/* The point-to-point loop of OMB: after one barrier of all ranks, 'warm'
 * untimed iterations, then 'iters' timed ones with no barrier in between
 * (the clock starts at the first timed iteration).  With 'sync', every
 * iteration starts with a barrier of all ranks that stays out of the time
 * (osu_mbw_mr, osu_multi_lat), and *seconds sums the timed iterations. */
int tb_time_omb(struct tb_ctx *c, int active, int warm, int iters, int sync,
                int (*step)(struct tb_ctx *, void *), void *arg, double *seconds);

/* Busy computation (no MPI calls) for about 'seconds'. */
void tb_compute(double seconds);

/* min, average and max of a per-rank value over the ranks that pass
 * active != 0 (results valid on every rank). */
int tb_stats(struct tb_ctx *c, int active, double v, double *min, double *avg, double *max);

/* ---- buffers ------------------------------------------------------------------------- */

/* A pool of message buffers.  Reused (the default, as OSU): every message
 * uses the same memory, cache-warm.  Fresh: successive messages walk
 * through cold_bytes of memory, so each one starts cache-cold. */
struct tb_pool {
    char *base;
    size_t bytes;  /* allocated */
    size_t stride; /* current message slot size */
    size_t nslots, next;
    int fresh;
};

int tb_pool_init(struct tb_ctx *c, struct tb_pool *p, size_t max_msg);
void tb_pool_set(struct tb_pool *p, size_t msg); /* sets the slot size; restarts at slot 0 */
char *tb_pool_next(struct tb_pool *p);
size_t tb_pool_slots(const struct tb_pool *p, size_t want); /* distinct slots 'want' messages use */

/* Data patterns for validation: byte i of a message from 'seed' is never 0,
 * and is a hash of both, so data from another message, another offset or
 * another rank differs from the expected pattern in almost every byte. */
unsigned char tb_pat(unsigned seed, size_t i);
void tb_fill(void *buf, size_t bytes, unsigned seed);
/* The same bytes as those of a pattern at offsets first.. (a piece of a
 * larger patterned whole, such as a region of a file). */
void tb_fill_at(void *buf, size_t bytes, unsigned seed, size_t first);
/* Checks data received: returns 0 or a failure naming 'what' and the first
 * wrong byte.  Every check of received data calls tb_tamper on it first. */
int tb_check(struct tb_ctx *c, void *buf, size_t bytes, unsigned seed, const char *what);
/* The same for data sent, which the send must have left alone (no tb_tamper). */
int tb_check_sent(struct tb_ctx *c, const void *buf, size_t bytes, unsigned seed, const char *what);
/* Checks of a piece of a larger pattern, as tb_fill_at made it. */
int tb_check_at(struct tb_ctx *c, void *buf, size_t bytes, unsigned seed, size_t first,
                const char *what);
int tb_check_sent_at(struct tb_ctx *c, const void *buf, size_t bytes, unsigned seed, size_t first,
                     const char *what);
/* --corrupt-for-test: flips one byte in the middle of buf, as a library
 * that delivered one wrong byte would leave it; otherwise nothing. */
void tb_tamper(const struct tb_ctx *c, void *buf, size_t bytes);

/* Element i of a buffer of the reductions' types (MPI_CHAR, MPI_INT,
 * MPI_FLOAT) and MPI_LONG_LONG, as a small integer; match compares an
 * MPI_CHAR modulo 256, as its sums wrap. */
void tb_elem_set(MPI_Datatype t, void *buf, size_t i, long v);
double tb_elem_get(MPI_Datatype t, const void *buf, size_t i);
int tb_elem_match(MPI_Datatype t, const void *buf, size_t i, long want);

/* ---- results --------------------------------------------------------------------------- */

void tb_columns(struct tb_ctx *c, int n, const struct tb_col *cols);
/* Adds a row (rank 0's values count); prints it at once in text mode. */
void tb_row(struct tb_ctx *c, const double *v);

/* Header and footer around one benchmark's output (rank 0 prints). */
void tb_print_begin(const struct tb_ctx *c, const char *library);
void tb_print_end(const struct tb_ctx *c, const char *library);

#endif
