/* Events and event sources.  Tern raises no events and so has no sources:
 * the counts are 0, every index is MPI_T_ERR_INVALID_INDEX, every name
 * MPI_T_ERR_INVALID_NAME, and since no registration or event instance can
 * exist, every handle passed in is MPI_T_ERR_INVALID_HANDLE. */
#include "core/api.h"
#include "mpit/mpit.h"

static int zero(int *num)
{
    if (!num) return MPI_T_ERR_INVALID;
    *num = 0;
    return MPI_SUCCESS;
}

static int no_name(const char *name, int *index)
{
    return name && index ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID;
}

TERN_WEAK_ALIAS(MPI_T_source_get_num)
int PMPI_T_source_get_num(int *num_sources) { TERN_T_CALL(zero(num_sources)); }

TERN_WEAK_ALIAS(MPI_T_source_get_info)
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                           MPI_Count *max_ticks, MPI_Info *info)
{
    (void)source_index, (void)name, (void)name_len, (void)desc, (void)desc_len;
    (void)ordering, (void)ticks_per_second, (void)max_ticks, (void)info;
    TERN_T_CALL(MPI_T_ERR_INVALID_INDEX);
}

TERN_WEAK_ALIAS(MPI_T_source_get_timestamp)
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    (void)source_index, (void)timestamp;
    TERN_T_CALL(MPI_T_ERR_INVALID_INDEX);
}

TERN_WEAK_ALIAS(MPI_T_event_get_num)
int PMPI_T_event_get_num(int *num_events) { TERN_T_CALL(zero(num_events)); }

TERN_WEAK_ALIAS(MPI_T_event_get_info)
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc,
        (void)desc_len;
    (void)bind;
    TERN_T_CALL(MPI_T_ERR_INVALID_INDEX);
}

TERN_WEAK_ALIAS(MPI_T_event_get_index)
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    TERN_T_CALL(no_name(name, event_index));
}

TERN_WEAK_ALIAS(MPI_T_event_handle_alloc)
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    TERN_T_CALL(MPI_T_ERR_INVALID_INDEX);
}

/* ---- calls on a registration: none can exist ---- */

TERN_WEAK_ALIAS(MPI_T_event_handle_free)
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_handle_get_info)
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_handle_set_info)
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)event_registration, (void)info;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_register_callback)
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_callback_get_info)
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_callback_set_info)
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_set_dropped_handler)
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

/* ---- calls on an event instance: they exist only inside a callback ---- */

TERN_WEAK_ALIAS(MPI_T_event_read)
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_copy)
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_get_timestamp)
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}

TERN_WEAK_ALIAS(MPI_T_event_get_source)
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance, (void)source_index;
    TERN_T_CALL(MPI_T_ERR_INVALID_HANDLE);
}
