/* Choice buffers of mpi_f08 from their C descriptors (f08_cdesc.h). */
#include "fortran/f08_cdesc.h"

#include "fortran/f77_runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Adjacent elements: each dimension's stride is the size of the ones before
 * it.  An empty array is contiguous (there is nothing to gather). */
static int contiguous(const CFI_cdesc_t *d, size_t *nelems)
{
    size_t n = 1, want = d->elem_len;
    int adjacent = 1;
    for (int i = 0; i < d->rank; i++) {
        size_t extent = (size_t)d->dim[i].extent;
        if (extent > 1 && (size_t)d->dim[i].sm != want) adjacent = 0;
        want *= extent;
        n *= extent;
    }
    *nelems = n;
    return adjacent || n == 0;
}

/* Copies the elements of d in array element order into (to_tmp) or out of
 * the temporary, one element of elem_len bytes at a time. */
static void gather(const CFI_cdesc_t *d, char *tmp, size_t nelems, int to_tmp)
{
    CFI_index_t idx[CFI_MAX_RANK] = {0};
    for (size_t k = 0; k < nelems; k++) {
        char *p = d->base_addr;
        for (int i = 0; i < d->rank; i++) p += idx[i] * d->dim[i].sm;
        if (to_tmp)
            memcpy(tmp + k * d->elem_len, p, d->elem_len);
        else
            memcpy(p, tmp + k * d->elem_len, d->elem_len);
        for (int i = 0; i < d->rank && ++idx[i] == d->dim[i].extent; i++) idx[i] = 0;
    }
}

/* The error of a section the library would have to keep: a code of class
 * MPI_ERR_BUFFER with its own string, made once per job. */
static int noncontig_code = MPI_ERR_BUFFER;
static pthread_once_t noncontig_once = PTHREAD_ONCE_INIT;

static void make_noncontig_code(void)
{
    int code;
    if (PMPI_Add_error_code(MPI_ERR_BUFFER, &code) != MPI_SUCCESS) return;
    if (PMPI_Add_error_string(code, "MPI_ERR_BUFFER: a non-contiguous array section was given "
                                    "to a procedure that keeps its buffer past the call "
                                    "(nonblocking, persistent, one-sided, split collective "
                                    "or attached buffer): Tern's mpi_f08 has "
                                    "MPI_SUBARRAYS_SUPPORTED = .FALSE.; pass a contiguous "
                                    "array") == MPI_SUCCESS)
        noncontig_code = code;
}

int tern_f08_buf_in(struct tern_f08_buf *b, const CFI_cdesc_t *d, enum tern_f08_buf_mode mode)
{
    size_t nelems;
    b->d = d;
    b->tmp = NULL;
    if (mode == TERN_F08_BUF_ADDRESS || contiguous(d, &nelems)) {
        b->addr = tern_f_buf(d->base_addr);
        return MPI_SUCCESS;
    }
    if (mode == TERN_F08_BUF_KEEP) {
        pthread_once(&noncontig_once, make_noncontig_code);
        return noncontig_code;
    }
    b->tmp = malloc(nelems * d->elem_len);
    if (b->tmp == NULL) return MPI_ERR_NO_MEM;
    gather(d, b->tmp, nelems, 1);
    b->addr = b->tmp;
    return MPI_SUCCESS;
}

void tern_f08_buf_out(struct tern_f08_buf *b, int copy_back)
{
    if (b->tmp == NULL) return;
    if (copy_back) {
        size_t nelems;
        contiguous(b->d, &nelems);
        gather(b->d, b->tmp, nelems, 0);
    }
    free(b->tmp);
    b->tmp = NULL;
}

int tern_f08_comm_error(MPI_Comm comm, int code)
{
    PMPI_Comm_call_errhandler(comm, code);
    return code;
}

int tern_f08_win_error(MPI_Win win, int code)
{
    PMPI_Win_call_errhandler(win, code);
    return code;
}

int tern_f08_file_error(MPI_File file, int code)
{
    PMPI_File_call_errhandler(file, code);
    return code;
}

int tern_f08_world_error(int code) { return tern_f08_comm_error(MPI_COMM_WORLD, code); }
