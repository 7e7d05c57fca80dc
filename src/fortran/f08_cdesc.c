/* Choice buffers of mpi_f08 from their C descriptors (f08_cdesc.h). */
#include "fortran/f08_cdesc.h"

#include "fortran/f77_runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

CFI_cdesc_t *tern_gfc_to_cfi(const struct tern_gfc_desc *g, CFI_cdesc_t *c)
{
    c->base_addr = g->base_addr;
    c->elem_len = g->dtype.elem_len;
    c->version = CFI_VERSION;
    c->rank = (CFI_rank_t)g->dtype.rank;
    c->attribute = CFI_attribute_other;
    c->type = CFI_type_other;
    for (int i = 0; i < g->dtype.rank; i++) {
        c->dim[i].lower_bound = 0;
        c->dim[i].extent = g->dim[i].upper_bound - g->dim[i].lower_bound + 1;
        c->dim[i].sm = g->dim[i].stride * g->span;
    }
    return c;
}

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
                                    "or attached buffer), and no datatype of Tern's can "
                                    "describe it there: the buffer needs a count and a "
                                    "datatype of its own whose elements are the array's "
                                    "(MPI_SUBARRAYS_SUPPORTED = .FALSE.); pass a contiguous "
                                    "array") == MPI_SUCCESS)
        noncontig_code = code;
}

int tern_f08_buf_in(struct tern_f08_buf *b, const CFI_cdesc_t *d, enum tern_f08_buf_mode mode)
{
    size_t nelems;
    b->d = d;
    b->tmp = NULL;
    b->has_section = 0;
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

/* The first count elements of the section, in array element order, each one
 * element of type: one hvector per dimension when they are all of them (or
 * the section has one dimension), their displacements otherwise. */
static int section_type(const CFI_cdesc_t *d, size_t nelems, MPI_Count count, MPI_Datatype type,
                        MPI_Datatype *out)
{
    if (d->rank == 1) return PMPI_Type_create_hvector_c(count, 1, d->dim[0].sm, type, out);
    if ((size_t)count == nelems) {
        MPI_Datatype cur = type, next;
        for (int i = 0; i < d->rank; i++) {
            int rc = PMPI_Type_create_hvector_c(d->dim[i].extent, 1, d->dim[i].sm, cur, &next);
            if (cur != type) PMPI_Type_free(&cur);
            if (rc != MPI_SUCCESS) return rc;
            cur = next;
        }
        *out = cur;
        return MPI_SUCCESS;
    }
    MPI_Aint *displs = malloc((size_t)count * sizeof *displs);
    if (displs == NULL) return MPI_ERR_NO_MEM;
    CFI_index_t idx[CFI_MAX_RANK] = {0};
    for (MPI_Count k = 0; k < count; k++) {
        displs[k] = 0;
        for (int i = 0; i < d->rank; i++) displs[k] += idx[i] * d->dim[i].sm;
        for (int i = 0; i < d->rank && ++idx[i] == d->dim[i].extent; i++) idx[i] = 0;
    }
    int rc = count <= 0x7fffffff ? PMPI_Type_create_hindexed_block((int)count, 1, displs, type, out)
                                 : MPI_ERR_COUNT;
    free(displs);
    return rc;
}

int tern_f08_buf_in_typed(struct tern_f08_buf *b, const CFI_cdesc_t *d, enum tern_f08_buf_mode mode,
                          MPI_Count *count, MPI_Datatype *type)
{
    size_t nelems;
    if (mode != TERN_F08_BUF_KEEP || contiguous(d, &nelems)) return tern_f08_buf_in(b, d, mode);
    b->d = d;
    b->tmp = NULL;
    b->has_section = 0;
    /* Each element of the message must be one element of the array. */
    MPI_Count size = 0, lb = 0, extent = 0;
    if (PMPI_Type_size_c(*type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent_c(*type, &lb, &extent) != MPI_SUCCESS ||
        size != (MPI_Count)d->elem_len || extent != size || lb != 0 || *count < 0 ||
        (size_t)*count > nelems)
        return tern_f08_buf_in(b, d, mode);
    b->addr = d->base_addr;
    if (*count == 0) return MPI_SUCCESS;
    int rc = section_type(d, nelems, *count, *type, &b->section);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&b->section);
    if (rc != MPI_SUCCESS) return rc;
    b->has_section = 1;
    *count = 1;
    *type = b->section;
    return MPI_SUCCESS;
}

void tern_f08_buf_out(struct tern_f08_buf *b, int copy_back)
{
    if (b->has_section) {
        PMPI_Type_free(&b->section);
        b->has_section = 0;
    }
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
