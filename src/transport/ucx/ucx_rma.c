/* One-sided access through UCP for windows that span hosts (ucx.h):
 * registrations, remote keys, put, get and flushes.  Waiting is the
 * caller's (it progresses with tern_progress_wait), so these only start
 * operations and test them. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "transport/ucx/ucx.h"
#include "transport/ucx/ucx_internal.h"

static int rma_error(const char *what, int world, ucs_status_t st)
{
    return tern_err_make(MPI_ERR_OTHER, "UCX: %s (world rank %d) failed: %s", what, world,
                         ucs_status_string(st));
}

int tern_ucx_up(void) { return ucx.worker != NULL; }

/* Registrations and unpacked keys handed out, so that those of windows
 * never freed go before ucp_cleanup (which insists). */
struct ucx_held_obj {
    struct ucx_held_obj *next, **prev;
    void *h;
    int is_rkey;
};
static struct ucx_held_obj *held_objs;

static struct ucx_held_obj *hold(void *h, int is_rkey)
{
    struct ucx_held_obj *o = malloc(sizeof *o);
    if (!o) return NULL;
    *o = (struct ucx_held_obj){held_objs, &held_objs, h, is_rkey};
    if (held_objs) held_objs->prev = &o->next;
    held_objs = o;
    return o;
}

static void drop(struct ucx_held_obj *o)
{
    *o->prev = o->next;
    if (o->next) o->next->prev = o->prev;
    if (o->is_rkey)
        ucp_rkey_destroy((ucp_rkey_h)o->h);
    else
        ucp_mem_unmap(ucx.ctx, (ucp_mem_h)o->h);
    free(o);
}

void ucx_rma_release_all(void)
{
    /* Keys first: a key may name a registration of this process. */
    for (int pass = 1; pass >= 0; pass--)
        for (struct ucx_held_obj *o = held_objs, *next; o; o = next) {
            next = o->next;
            if (o->is_rkey == pass) drop(o);
        }
}

static ucp_rkey_h rkey_of(void *rkey) { return (ucp_rkey_h)((struct ucx_held_obj *)rkey)->h; }

int tern_ucx_mem_map(void *addr, size_t len, void **memh, void **packed, size_t *plen)
{
    ucp_mem_map_params_t mp = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = addr,
        .length = len,
    };
    ucp_mem_h mh;
    ucs_status_t st = ucp_mem_map(ucx.ctx, &mp, &mh);
    if (st != UCS_OK) return rma_error("ucp_mem_map", -1, st);
    void *buf;
    size_t n;
    st = ucp_rkey_pack(ucx.ctx, mh, &buf, &n);
    if (st != UCS_OK) {
        ucp_mem_unmap(ucx.ctx, mh);
        return rma_error("ucp_rkey_pack", -1, st);
    }
    *packed = malloc(n);
    if (!*packed) {
        ucp_rkey_buffer_release(buf);
        ucp_mem_unmap(ucx.ctx, mh);
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a remote key");
    }
    memcpy(*packed, buf, n);
    ucp_rkey_buffer_release(buf);
    *plen = n;
    if (!(*memh = hold(mh, 0))) {
        free(*packed);
        ucp_mem_unmap(ucx.ctx, mh);
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a registration");
    }
    return MPI_SUCCESS;
}

void tern_ucx_mem_unmap(void *memh)
{
    if (memh) drop(memh);
}

int tern_ucx_rkey_unpack(int world, const void *packed, void **rkey)
{
    int err;
    ucp_ep_h ep = ucx_ep(world, &err);
    if (!ep) return err;
    ucp_rkey_h rk;
    ucs_status_t st = ucp_ep_rkey_unpack(ep, packed, &rk);
    if (st != UCS_OK) return rma_error("ucp_ep_rkey_unpack", world, st);
    if (!(*rkey = hold(rk, 1))) {
        ucp_rkey_destroy(rk);
        return tern_err_make(MPI_ERR_NO_MEM, "out of memory for a remote key");
    }
    return MPI_SUCCESS;
}

void tern_ucx_rkey_destroy(void *rkey)
{
    if (rkey) drop(rkey);
}

/* A started operation: NULL (done), a request, or an error. */
static int started(const char *what, int world, ucs_status_ptr_t p, void **req)
{
    if (UCS_PTR_IS_ERR(p)) return rma_error(what, world, UCS_PTR_STATUS(p));
    *req = p;
    return MPI_SUCCESS;
}

int tern_ucx_put(int world, const void *buf, size_t len, uint64_t raddr, void *rkey, void **req)
{
    int err;
    ucp_ep_h ep = ucx_ep(world, &err);
    if (!ep) return err;
    ucp_request_param_t rp = {.op_attr_mask = 0};
    return started("ucp_put_nbx", world, ucp_put_nbx(ep, buf, len, raddr, rkey_of(rkey), &rp), req);
}

int tern_ucx_get(int world, void *buf, size_t len, uint64_t raddr, void *rkey, void **req)
{
    int err;
    ucp_ep_h ep = ucx_ep(world, &err);
    if (!ep) return err;
    ucp_request_param_t rp = {.op_attr_mask = 0};
    return started("ucp_get_nbx", world, ucp_get_nbx(ep, buf, len, raddr, rkey_of(rkey), &rp), req);
}

int tern_ucx_flush(int world, void **req)
{
    int err;
    ucp_ep_h ep = ucx_ep(world, &err);
    if (!ep) return err;
    ucp_request_param_t rp = {.op_attr_mask = 0};
    return started("ucp_ep_flush_nbx", world, ucp_ep_flush_nbx(ep, &rp), req);
}

int tern_ucx_req_test(void *req, int *err)
{
    ucs_status_t st = ucp_request_check_status(req);
    if (st == UCS_INPROGRESS) return 0;
    ucp_request_free(req);
    *err = st == UCS_OK ? MPI_SUCCESS : rma_error("a one-sided operation", -1, st);
    return 1;
}

int tern_ucx_atomic(int world, enum tern_ucx_amo op, const void *buf, size_t es, uint64_t raddr,
                    void *rkey, void *reply, void **req)
{
    static const ucp_atomic_op_t opcode[] = {
        [TERN_UCX_AMO_ADD] = UCP_ATOMIC_OP_ADD,
        [TERN_UCX_AMO_SWAP] = UCP_ATOMIC_OP_SWAP,
        [TERN_UCX_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
    };
    int err;
    ucp_ep_h ep = ucx_ep(world, &err);
    if (!ep) return err;
    ucp_request_param_t rp = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | (reply ? UCP_OP_ATTR_FIELD_REPLY_BUFFER : 0),
        .datatype = ucp_dt_make_contig(es),
        .reply_buffer = reply,
    };
    return started("ucp_atomic_op_nbx", world,
                   ucp_atomic_op_nbx(ep, opcode[op], buf, 1, raddr, rkey_of(rkey), &rp), req);
}
