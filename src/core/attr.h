/* Attribute caching (MPI-4.1 7.7): keyvals and the attribute lists that
 * communicators, datatypes (and one day windows) carry in their 'attrs'
 * field.
 *
 * A list keeps the order MPICH keeps: a new attribute goes in front, a
 * value set again stays where it is.  Copy and delete callbacks run in list
 * order, so MPI_COMM_SELF's attributes are deleted at MPI_Finalize in the
 * reverse order of their first setting.
 *
 * The hooks the object modules call (all under the big lock):
 *   - a new communicator or datatype copied from another: tern_attr_comm_copy /
 *     tern_attr_type_copy (datatype/datatype.h) after it is built (copy callbacks);
 *   - MPI_Comm_free / MPI_Type_free of the last user handle:
 *     tern_attr_comm_free / tern_attr_type_free first (delete callbacks; on an
 *     error the object must stay);
 *   - destroying an object: tern_attr_drop(&obj->attrs) (no callbacks: only
 *     objects the user never freed still have attributes then);
 *   - MPI_Finalize: tern_attr_finalize_callbacks() and
 *     tern_attr_type_finalize_callbacks() before anything else,
 *     tern_attr_finalize() after communicators and datatypes are gone. */
#ifndef TERN_CORE_ATTR_H
#define TERN_CORE_ATTR_H

#include <mpi.h>

struct tern_comm;

enum tern_attr_kind { TERN_ATTR_COMM, TERN_ATTR_TYPE, TERN_ATTR_WIN };

/* Every copy and delete callback type of the standard has one of these
 * shapes: MPI_Comm, MPI_Datatype and MPI_Win are all int in the MPICH ABI. */
typedef int tern_attr_copy_fn(int oldobj, int keyval, void *extra_state, void *val_in,
                              void *val_out, int *flag);
typedef int tern_attr_delete_fn(int obj, int keyval, void *val, void *extra_state);

struct tern_keyval {
    int handle;
    int refcount; /* the user's handle (until freed) plus one per attribute using it */
    int freed;    /* the user freed the handle; it lives on for the attributes */
    enum tern_attr_kind kind;
    tern_attr_copy_fn *copy;  /* NULL: not copied */
    tern_attr_delete_fn *del; /* NULL: nothing to call */
    void *extra_state;
};

/* A new keyval; MPI_SUCCESS or MPI_ERR_NO_MEM. */
int tern_keyval_create(enum tern_attr_kind kind, tern_attr_copy_fn *copy, tern_attr_delete_fn *del,
                       void *extra_state, int *handle);
/* A live user keyval of 'kind' (freed by the user but still used by
 * attributes counts as live).  Otherwise an error code (made, not raised)
 * of class MPI_ERR_KEYVAL whose message names fn and the key. */
int tern_keyval_lookup(int handle, enum tern_attr_kind kind, const char *fn,
                       struct tern_keyval **out);
/* Gives up the user's reference: the keyval, and its handle, live on while
 * attributes use it (MPI-4.1 7.7.2), so those can still be read, deleted
 * and copied through a saved copy of the handle.  Freeing it again in that
 * time is accepted and changes nothing, as in MPICH (a delete callback may
 * free the keyval it is called for); once the last attribute is gone the
 * handle is invalid. */
void tern_keyval_free_handle(struct tern_keyval *kv);
/* One of the predefined communicator keys (MPI_TAG_UB, ...)? */
int tern_keyval_is_predefined_comm(int handle);
/* Its value (a pointer to an int that stays valid), or NULL when the
 * attribute is not set (MPI_APPNUM without a launcher number). */
int *tern_attr_predefined_value(int handle);

/* A list is the 'attrs' field of its object; 'obj' is the object's handle,
 * given to the callbacks.  Functions that run callbacks return MPI_SUCCESS
 * or the code the failing callback returned. */
int tern_attr_set(void **list, int obj, struct tern_keyval *kv, void *val);
int tern_attr_get(void *const *list, const struct tern_keyval *kv, void **val); /* found? */
int tern_attr_delete(void **list, int obj, struct tern_keyval *kv);
/* Copies 'from' into the empty list 'to'; on a failing copy callback the
 * attributes already copied are deleted again (with their callbacks). */
int tern_attr_copy(void *const *from, int oldobj, void **to, int newobj);
/* Deletes every attribute, each with its callback even after one fails;
 * returns the first failure. */
int tern_attr_delete_all(void **list, int obj);
void tern_attr_drop(void **list);

/* Object hooks (see the top of this file). */
int tern_attr_comm_copy(struct tern_comm *old, struct tern_comm *nc);
int tern_attr_comm_free(struct tern_comm *c);
void tern_attr_finalize_callbacks(void);
void tern_attr_finalize(void);

#endif
