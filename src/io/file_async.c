/* Nonblocking independent access: one I/O thread does the reads and writes
 * while the program computes.  The thread only makes system calls on the
 * job it was given (io/file_xfer.c's raw path: no error handler, no MPI
 * object changed); the request's poll function, run by the progress engine
 * under the big lock, sees the job done and completes the request.  A
 * thread rather than POSIX AIO (a thread pool of its own in glibc, one
 * operation per piece) or io_uring (not in every kernel and container):
 * one job is a whole view's worth of preadv/pwritev calls, in order.
 * Conversion to and from the file's representation stays on the program's
 * threads (a write's when it starts, a read's when it completes): a user's
 * conversion function may call MPI. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "datatype/datatype.h"
#include "io/io.h"
#include "msg/request.h"
#include "msg/status.h"

struct io_job {
    struct io_job *next;
    struct tern_file *f;
    MPI_File handle; /* for the error handler at completion */
    const char *fn;
    enum tern_io_dir dir;
    MPI_Offset off;
    void *buf;
    size_t count;
    struct tern_datatype *dt;
    struct tern_io_conv conv; /* what the thread moves */
    size_t bytes;
    int err;
    const char *what;
    _Atomic int done;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, finished = PTHREAD_COND_INITIALIZER;
static struct io_job *head, *tail;
static int started;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (!head) pthread_cond_wait(&work, &mu);
        struct io_job *j = head;
        head = j->next;
        if (!head) tail = NULL;
        pthread_mutex_unlock(&mu);
        j->err = tern_file_xfer_raw(j->f, j->dir, j->off, j->conv.buf, j->conv.count, j->conv.dt,
                                    &j->bytes, &j->what);
        pthread_mutex_lock(&mu);
        atomic_fetch_sub_explicit(&j->f->pending, 1, memory_order_release);
        atomic_store_explicit(&j->done, 1, memory_order_release);
        pthread_cond_broadcast(&finished);
    }
    return NULL;
}

/* A child of fork() (the error sweep forks) has no I/O thread: it starts
 * its own on first use. */
static void after_fork_child(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&work, NULL);
    pthread_cond_init(&finished, NULL);
    head = tail = NULL;
    started = 0;
}

static int start_worker(void)
{
    static int atfork;
    if (started) return 0;
    if (!atfork && pthread_atfork(NULL, NULL, after_fork_child) == 0) atfork = 1;
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&t, &a, worker, NULL);
    pthread_attr_destroy(&a);
    if (err) return err;
    started = 1;
    return 0;
}

static int job_poll(struct tern_request *r)
{
    struct io_job *j = r->sched;
    if (!atomic_load_explicit(&j->done, memory_order_acquire)) return 0;
    size_t bytes = 0;
    tern_status_empty(&r->status, MPI_ANY_SOURCE);
    if (j->err) {
        bytes = j->conv.tmp ? 0 : j->bytes; /* converted data is all or nothing */
        tern_file_conv_free(&j->conv);
        r->status.MPI_ERROR = tern_err_make(tern_io_errno_class(j->err), "%s: %s '%s': %s", j->fn,
                                            j->what, j->f->path, strerror(j->err));
    } else {
        r->status.MPI_ERROR = tern_file_conv_end(j->fn, j->f, j->dir, &j->conv, j->buf, j->count,
                                                 j->dt, j->bytes, &bytes);
    }
    if (j->dir == TERN_IO_READ && j->bytes) {
        MPI_Offset lo, hi;
        tern_file_access_range(j->f, j->off, j->bytes, &lo, &hi);
        tern_file_read_done(j->f, lo, hi);
    }
    tern_status_set_bytes(&r->status, bytes);
    tern_dt_unpin_handle(j->dt);
    j->dt = NULL;
    tern_req_poll_remove(r);
    tern_req_complete(r);
    return 1;
}

static void job_free(struct tern_request *r)
{
    struct io_job *j = r->sched;
    if (!j) return;
    /* Released only once complete (a freed pending request is an orphan
     * until then), so the thread is done with the job. */
    if (j->dt) tern_dt_unpin_handle(j->dt);
    tern_file_conv_free(&j->conv);
    free(j);
    r->sched = NULL;
}

int tern_file_async_start(const char *fn, struct tern_file *f, enum tern_io_dir dir, MPI_Offset off,
                          void *buf, size_t count, struct tern_datatype *dt,
                          struct tern_request **out)
{
    int rc = tern_file_access_allowed(fn, f, dir);
    if (rc) return rc;
    struct io_job *j = calloc(1, sizeof *j);
    struct tern_request *r = j ? tern_req_alloc(TERN_REQ_IO) : NULL;
    if (!r) {
        free(j);
        return tern_io_err(f, MPI_ERR_NO_MEM, "%s: cannot allocate a request", fn);
    }
    pthread_mutex_lock(&mu);
    int err = start_worker();
    pthread_mutex_unlock(&mu);
    if (err) {
        free(j);
        tern_req_free(r);
        return tern_io_err(f, MPI_ERR_OTHER, "%s: cannot start the I/O thread: %s", fn,
                           strerror(err));
    }
    struct tern_io_conv conv;
    if ((rc = tern_file_conv_begin(fn, f, dir, buf, count, dt, &conv))) {
        free(j);
        tern_req_free(r);
        return tern_io_raise(f, rc);
    }
    *j = (struct io_job){.f = f,
                         .handle = tern_file_handle(f),
                         .fn = fn,
                         .dir = dir,
                         .off = off,
                         .buf = buf,
                         .count = count,
                         .dt = dt,
                         .conv = conv};
    /* A read's conversion function gets dt's handle at completion, which
     * may come after the program's MPI_Type_free. */
    tern_dt_pin_handle(dt);
    r->sched = j;
    r->poll_fn = job_poll;
    r->free_fn = job_free;
    atomic_fetch_add_explicit(&f->pending, 1, memory_order_relaxed);
    pthread_mutex_lock(&mu);
    if (tail)
        tail->next = j;
    else
        head = j;
    tail = j;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&mu);
    tern_req_poll_add(r);
    *out = r;
    return MPI_SUCCESS;
}

void tern_file_async_drain(struct tern_file *f)
{
    pthread_mutex_lock(&mu);
    while (atomic_load_explicit(&f->pending, memory_order_acquire) > 0)
        pthread_cond_wait(&finished, &mu);
    pthread_mutex_unlock(&mu);
}

int tern_file_req_raise(struct tern_request *r, int code)
{
    struct io_job *j = r->sched;
    return tern_io_raise(j ? tern_file_get(j->handle) : NULL, code);
}
