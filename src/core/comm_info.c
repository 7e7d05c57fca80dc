/* Communicator hints: what MPI_Comm_set_info, MPI_Comm_get_info and
 * MPI_Comm_dup_with_info keep (see info.h). */
#include <string.h>

#include "core/info.h"
#include "core/objects.h"

static const char *const hint_keys[] = {
    "mpi_assert_no_any_tag",
    "mpi_assert_no_any_source",
    "mpi_assert_exact_length",
    "mpi_assert_allow_overtaking",
    "mpi_assert_strict_persistent_collective_ordering", /* TERN_COMM_STRICT_PCOLL */
};
#define N_HINTS (int)(sizeof hint_keys / sizeof hint_keys[0])

void tern_comm_hints_apply(struct tern_comm *c, const struct tern_info *info)
{
    if (!info) return;
    for (int i = 0; i < N_HINTS; i++) {
        const char *v = tern_info_find(info, hint_keys[i]);
        /* A value that is not a boolean is ignored, like an unknown key. */
        if (v && strcmp(v, "true") == 0)
            c->hints |= 1u << i;
        else if (v && strcmp(v, "false") == 0)
            c->hints &= ~(1u << i);
    }
}

struct tern_info *tern_comm_hints_info(const struct tern_comm *c)
{
    struct tern_info *info = tern_info_new();
    if (!info) return NULL;
    for (int i = 0; i < N_HINTS; i++) {
        if (tern_info_set(info, hint_keys[i], (c->hints >> i) & 1u ? "true" : "false")) {
            tern_info_destroy(info);
            return NULL;
        }
    }
    if (c->hw_type && tern_info_set(info, "mpi_hw_resource_type", c->hw_type)) {
        tern_info_destroy(info);
        return NULL;
    }
    return info;
}
