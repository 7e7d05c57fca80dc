/* MPI_T without communication: initialisation and reference counting
 * before MPI_Init and after MPI_Finalize, control variables (names, types,
 * the string convention, enumerations, reading the environment, writing),
 * categories, the list of performance variables, no events, and the error
 * class of every bad index, name and handle.
 *
 *   mpit_query EAGER      EAGER: the value TERN_SMP_EAGERSIZE must read (the
 *                    test is run with it set in the environment)
 *   mpit_query --list     prints "NAME VALUE" per control variable, for the
 *                    comparison with tern-info (cvar_list.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_util.h"

static void check_not_initialized(void)
{
    int n;
    MPI_T_pvar_session s;
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
}

/* Prints every control variable as tern-info shows it. */
static int list_cvars(void)
{
    int provided, n;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        char name[128], value[300];
        int len = sizeof name, count;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_T_cvar_handle h;
        CHECK_T(MPI_T_cvar_get_info(i, name, &len, NULL, &dt, &et, NULL, NULL, NULL, NULL),
                MPI_SUCCESS);
        CHECK_T(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
        if (dt == MPI_CHAR) {
            CHECK(count <= (int)sizeof value, "%s: count %d", name, count);
            CHECK_T(MPI_T_cvar_read(h, value), MPI_SUCCESS);
        } else if (dt == MPI_UNSIGNED_LONG_LONG) {
            unsigned long long v;
            CHECK_T(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
            snprintf(value, sizeof value, "%llu", v);
        } else {
            int v, k;
            CHECK_T(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
            snprintf(value, sizeof value, "%d", v);
            if (et != MPI_T_ENUM_NULL) {
                len = sizeof value;
                CHECK_T(MPI_T_enum_get_item(et, v, &k, value, &len), MPI_SUCCESS);
            }
        }
        CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
        printf("%s %s\n", name, value);
    }
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    return 0;
}

static void check_strings(void)
{
    int i = cvar_index("TERN_SMP_EAGERSIZE"), len;
    char buf[64];
    const char *want = "TERN_SMP_EAGERSIZE";
    int full = (int)strlen(want) + 1;
    len = 0;
    CHECK_T(MPI_T_cvar_get_info(i, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_SUCCESS);
    CHECK(len == full, "len 0 in: %d out, want %d", len, full);
    len = 7;
    CHECK_T(MPI_T_cvar_get_info(i, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_SUCCESS);
    CHECK(len == full, "NULL name: len %d, want %d", len, full);
    memset(buf, 'x', sizeof buf);
    len = 5;
    CHECK_T(MPI_T_cvar_get_info(i, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_SUCCESS);
    CHECK(len == 5 && !strcmp(buf, "TERN") && buf[5] == 'x', "truncated: len %d '%s'", len, buf);
    len = sizeof buf;
    CHECK_T(MPI_T_cvar_get_info(i, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_SUCCESS);
    CHECK(len == full && !strcmp(buf, want), "full: len %d '%s'", len, buf);
    /* A NULL length returns nothing and leaves the buffer alone. */
    strcpy(buf, "untouched");
    CHECK_T(MPI_T_cvar_get_info(i, buf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_SUCCESS);
    CHECK(!strcmp(buf, "untouched"), "buffer written without a length: '%s'", buf);
}

static void check_cvars(void)
{
    int n;
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 13, "only %d control variables", n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[1024];
        int nlen = sizeof name, dlen = sizeof desc, verbosity, bind, scope, back = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK_T(
            MPI_T_cvar_get_info(i, name, &nlen, &verbosity, &dt, &et, desc, &dlen, &bind, &scope),
            MPI_SUCCESS);
        CHECK(!strncmp(name, "TERN_", 5) && nlen == (int)strlen(name) + 1,
              "cvar %d name '%s' len %d", i, name, nlen);
        CHECK(dlen > 20 && dlen == (int)strlen(desc) + 1, "%s: description '%s'", name, desc);
        CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL,
              "%s: verbosity %d", name, verbosity);
        CHECK(bind == MPI_T_BIND_NO_OBJECT, "%s: bind %d", name, bind);
        CHECK(scope == MPI_T_SCOPE_LOCAL || scope == MPI_T_SCOPE_ALL_EQ, "%s: scope %d", name,
              scope);
        CHECK(dt == MPI_INT || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_CHAR, "%s: datatype 0x%x",
              name, (unsigned)dt);
        CHECK(et == MPI_T_ENUM_NULL || dt == MPI_INT, "%s: an enumeration needs MPI_INT", name);
        CHECK_T(MPI_T_cvar_get_index(name, &back), MPI_SUCCESS);
        CHECK(back == i, "%s: index %d, get_index says %d", name, i, back);
    }
    /* What the parameters' types become. */
    struct {
        const char *name;
        MPI_Datatype dt;
        int is_enum, scope;
    } want[] = {
        {"TERN_SMP_EAGERSIZE", MPI_UNSIGNED_LONG_LONG, 0, MPI_T_SCOPE_LOCAL},
        {"TERN_SMP_QUEUE_LENGTH", MPI_UNSIGNED_LONG_LONG, 0, MPI_T_SCOPE_ALL_EQ},
        {"TERN_SMP_USE_CMA", MPI_INT, 0, MPI_T_SCOPE_ALL_EQ},
        {"TERN_SMP_SEND_BUFFERS", MPI_INT, 0, MPI_T_SCOPE_ALL_EQ},
        {"TERN_SMP_RNDV_PROTOCOL", MPI_INT, 1, MPI_T_SCOPE_ALL_EQ},
        {"TERN_WAIT_POLICY", MPI_INT, 1, MPI_T_SCOPE_LOCAL},
        {"TERN_LIVENESS_INTERVAL_MS", MPI_INT, 0, MPI_T_SCOPE_LOCAL},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        MPI_Datatype dt;
        MPI_T_enum et;
        int scope;
        CHECK_T(MPI_T_cvar_get_info(cvar_index(want[k].name), NULL, NULL, NULL, &dt, &et, NULL,
                                    NULL, NULL, &scope),
                MPI_SUCCESS);
        CHECK(dt == want[k].dt && (et != MPI_T_ENUM_NULL) == want[k].is_enum &&
                  scope == want[k].scope,
              "%s: datatype 0x%x enum %p scope %d", want[k].name, (unsigned)dt, (void *)et, scope);
    }

    int i;
    MPI_T_cvar_handle h;
    int count;
    CHECK_T(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_index("TERN_NO_SUCH_PARAMETER", &i), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_cvar_get_index("SMP_EAGERSIZE", &i), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_cvar_get_index(NULL, &i), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_handle_alloc(0, NULL, &h, NULL), MPI_T_ERR_INVALID);
}

static void check_enum(void)
{
    MPI_T_enum et;
    int num, value, len;
    char name[64];
    CHECK_T(MPI_T_cvar_get_info(cvar_index("TERN_WAIT_POLICY"), NULL, NULL, NULL, NULL, &et, NULL,
                                NULL, NULL, NULL),
            MPI_SUCCESS);
    len = sizeof name;
    CHECK_T(MPI_T_enum_get_info(et, &num, name, &len), MPI_SUCCESS);
    CHECK(num == 3 && !strcmp(name, "TERN_WAIT_POLICY"), "enum: %d items, name '%s'", num, name);
    const char *items[] = {"spin", "yield", "auto"};
    for (int k = 0; k < 3; k++) {
        len = sizeof name;
        CHECK_T(MPI_T_enum_get_item(et, k, &value, name, &len), MPI_SUCCESS);
        CHECK(value == k && !strcmp(name, items[k]), "item %d: value %d name '%s'", k, value, name);
    }
    CHECK_T(MPI_T_enum_get_item(et, 3, &value, name, &len), MPI_T_ERR_INVALID_ITEM);
    CHECK_T(MPI_T_enum_get_item(et, -1, &value, name, &len), MPI_T_ERR_INVALID_ITEM);
    CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, name, &len), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_info((MPI_T_enum)(void *)name, &num, name, &len),
            MPI_T_ERR_INVALID_HANDLE);
    /* The default "auto" reads as its position. */
    CHECK(cvar_read_int("TERN_WAIT_POLICY") == 2, "TERN_WAIT_POLICY reads %d",
          cvar_read_int("TERN_WAIT_POLICY"));
}

/* Before MPI_Init: every parameter can be set; bad values are refused. */
static void check_writes_before_init(void)
{
    MPI_T_cvar_handle h = cvar_handle("TERN_SMP_COOP_CHUNK");
    unsigned long long big = 128 * 1024, huge = ~0ULL;
    CHECK_T(MPI_T_cvar_write(h, &big), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_write(h, &huge), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_write(h, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(h == MPI_T_CVAR_HANDLE_NULL, "handle not set to MPI_T_CVAR_HANDLE_NULL");
    CHECK(cvar_read_ull("TERN_SMP_COOP_CHUNK") == big,
          "TERN_SMP_COOP_CHUNK did not take the write");

    int two = 2, minus = -1, three = 3;
    h = cvar_handle("TERN_SMP_USE_CMA");
    CHECK_T(MPI_T_cvar_write(h, &two), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    h = cvar_handle("TERN_WAIT_POLICY");
    CHECK_T(MPI_T_cvar_write(h, &three), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_write(h, &minus), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    h = cvar_handle("TERN_LIVENESS_INTERVAL_MS");
    CHECK_T(MPI_T_cvar_write(h, &minus), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(cvar_read_int("TERN_LIVENESS_INTERVAL_MS") == 200, "a refused write changed the value");

    /* A freed handle, or one never allocated, is refused. */
    MPI_T_cvar_handle stale = cvar_handle("TERN_SMP_USE_CMA"), copy = stale;
    int v;
    CHECK_T(MPI_T_cvar_handle_free(&stale), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_read(copy, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(&copy), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(NULL), MPI_T_ERR_INVALID);
}

/* After MPI_Init: what MPI_Init read is fixed; run-time parameters move. */
static void check_writes_after_init(unsigned long long eager)
{
    MPI_T_cvar_handle h = cvar_handle("TERN_SMP_EAGERSIZE");
    unsigned long long v = 1024;
    CHECK_T(MPI_T_cvar_write(h, &v), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(cvar_read_ull("TERN_SMP_EAGERSIZE") == eager,
          "a refused write changed TERN_SMP_EAGERSIZE");
    /* Set before MPI_Init through MPI_T: MPI_Init kept it. */
    CHECK(cvar_read_ull("TERN_SMP_COOP_CHUNK") == 128 * 1024, "MPI_Init lost TERN_SMP_COOP_CHUNK");

    h = cvar_handle("TERN_LIVENESS_INTERVAL_MS");
    int ms = 150;
    CHECK_T(MPI_T_cvar_write(h, &ms), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(cvar_read_int("TERN_LIVENESS_INTERVAL_MS") == 150,
          "TERN_LIVENESS_INTERVAL_MS did not take the write");
}

static void check_categories(void)
{
    int ncat, ncvar, npvar, root;
    CHECK_T(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_get_num(&ncvar), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_get_num(&npvar), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_index("TERN", &root), MPI_SUCCESS);
    int nc, np, nsub;
    CHECK_T(MPI_T_category_get_info(root, NULL, NULL, NULL, NULL, &nc, &np, &nsub), MPI_SUCCESS);
    CHECK(nc == 0 && np == 0 && nsub == ncat - 1, "TERN: %d cvars %d pvars %d subcategories of %d",
          nc, np, nsub, ncat);
    int subs[64], seen_cvar[256] = {0}, seen_pvar[256] = {0}, tmp[256];
    CHECK(ncat <= 64 && ncvar <= 256 && npvar <= 256, "too many to check");
    CHECK_T(MPI_T_category_get_categories(root, 64, subs), MPI_SUCCESS);
    for (int k = 0; k < nsub; k++) {
        int c = subs[k], back;
        char name[64];
        int len = sizeof name;
        CHECK(c != root && c >= 0 && c < ncat, "subcategory %d", c);
        CHECK_T(MPI_T_category_get_info(c, name, &len, NULL, NULL, &nc, &np, NULL), MPI_SUCCESS);
        CHECK_T(MPI_T_category_get_index(name, &back), MPI_SUCCESS);
        CHECK(back == c && !strncmp(name, "TERN_", 5), "category %d '%s' index %d", c, name, back);
        CHECK(nc + np > 0, "category %s is empty", name);
        CHECK_T(MPI_T_category_get_cvars(c, 256, tmp), MPI_SUCCESS);
        for (int j = 0; j < nc; j++) seen_cvar[tmp[j]]++;
        CHECK_T(MPI_T_category_get_pvars(c, 256, tmp), MPI_SUCCESS);
        for (int j = 0; j < np; j++) seen_pvar[tmp[j]]++;
        int ne = -1;
        CHECK_T(MPI_T_category_get_num_events(c, &ne), MPI_SUCCESS);
        CHECK(ne == 0, "%s: %d events", name, ne);
    }
    for (int j = 0; j < ncvar; j++)
        CHECK(seen_cvar[j] == 1, "cvar %d is in %d categories", j, seen_cvar[j]);
    for (int j = 0; j < npvar; j++)
        CHECK(seen_pvar[j] == 1, "pvar %d is in %d categories", j, seen_pvar[j]);

    /* The parameter groups of params.def. */
    int smp, eager = cvar_index("TERN_SMP_EAGERSIZE");
    CHECK_T(MPI_T_category_get_index("TERN_SMP", &smp), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_cvars(smp, 1, tmp), MPI_SUCCESS);
    CHECK(tmp[0] == eager, "TERN_SMP starts with cvar %d, not TERN_SMP_EAGERSIZE (%d)", tmp[0],
          eager);

    int update = -1, i;
    CHECK_T(MPI_T_category_changed(&update), MPI_SUCCESS);
    CHECK(update == 0, "update number %d", update);
    CHECK_T(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_cvars(-1, 1, tmp), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_cvars(root, -1, tmp), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_category_get_pvars(root, 1, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_category_get_events(root, 0, NULL), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_num_events(ncat, &i), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_index("TERN_NOTHING", &i), MPI_T_ERR_INVALID_NAME);
}

static void check_pvars(void)
{
    int n;
    CHECK_T(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 18, "only %d performance variables", n);
    for (int i = 0; i < n; i++) {
        char name[128];
        int len = sizeof name, verbosity, cls, bind, ro, cont, atomic, back = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK_T(MPI_T_pvar_get_info(i, name, &len, &verbosity, &cls, &dt, &et, NULL, NULL, &bind,
                                    &ro, &cont, &atomic),
                MPI_SUCCESS);
        CHECK(!strncmp(name, "tern_", 5), "pvar %d: name '%s'", i, name);
        CHECK(cls == MPI_T_PVAR_CLASS_COUNTER || cls == MPI_T_PVAR_CLASS_LEVEL ||
                  cls == MPI_T_PVAR_CLASS_HIGHWATERMARK,
              "%s: class %d", name, cls);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG && et == MPI_T_ENUM_NULL && bind == MPI_T_BIND_NO_OBJECT,
              "%s: type", name);
        CHECK(ro == (cls == MPI_T_PVAR_CLASS_LEVEL) && atomic == !ro, "%s: readonly %d atomic %d",
              name, ro, atomic);
        CHECK_T(MPI_T_pvar_get_index(name, cls, &back), MPI_SUCCESS);
        CHECK(back == i, "%s: index %d, get_index says %d", name, i, back);
    }
    struct {
        const char *name;
        int cls, continuous;
    } want[] = {
        {"tern_self_messages", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_shm_eager_bytes", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_shm_cma_messages", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_shm_pipeline_bytes", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_eager_sends", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER, 0},
        {"tern_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, 1},
        {"tern_unexpected_queue_max_length", MPI_T_PVAR_CLASS_HIGHWATERMARK, 1},
        {"tern_posted_queue_search_entries", MPI_T_PVAR_CLASS_COUNTER, 1},
        {"tern_posted_queue_search_max", MPI_T_PVAR_CLASS_HIGHWATERMARK, 1},
        {"tern_unexpected_queue_search_max", MPI_T_PVAR_CLASS_HIGHWATERMARK, 1},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int cont;
        CHECK_T(MPI_T_pvar_get_info(pvar_index(want[k].name, want[k].cls), NULL, NULL, NULL, NULL,
                                    NULL, NULL, NULL, NULL, NULL, NULL, &cont, NULL),
                MPI_SUCCESS);
        CHECK(cont == want[k].continuous, "%s: continuous %d", want[k].name, cont);
    }
    int i;
    CHECK_T(MPI_T_pvar_get_index("tern_eager_sends", MPI_T_PVAR_CLASS_LEVEL, &i),
            MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_pvar_get_index("no_such_pvar", MPI_T_PVAR_CLASS_COUNTER, &i),
            MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID);
}

static void check_no_events(void)
{
    int n = -1, i;
    char name[16];
    int len = sizeof name;
    MPI_T_event_registration reg;
    MPI_Count ts;
    CHECK_T(MPI_T_event_get_num(&n), MPI_SUCCESS);
    CHECK(n == 0, "%d events", n);
    CHECK_T(MPI_T_source_get_num(&n), MPI_SUCCESS);
    CHECK(n == 0, "%d sources", n);
    CHECK_T(
        MPI_T_event_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_get_index("tern_event", &i), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_handle_free(NULL, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_register_callback(NULL, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
            MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_read(NULL, 0, name), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_get_timestamp(NULL, &ts), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_source_get_timestamp(0, &ts), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_get_num(NULL), MPI_T_ERR_INVALID);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--list")) return list_cvars();
    CHECK(argc > 1, "usage: mpit_query EAGER | mpit_query --list");
    unsigned long long eager = strtoull(argv[1], NULL, 0);

    /* Before MPI_Init, and before MPI_T_init_thread. */
    check_not_initialized();
    int provided = -1;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided),
            MPI_SUCCESS); /* a second, nested user */

    CHECK(cvar_read_ull("TERN_SMP_EAGERSIZE") == eager,
          "TERN_SMP_EAGERSIZE reads %llu before MPI_Init, want %llu",
          cvar_read_ull("TERN_SMP_EAGERSIZE"), eager);
    check_strings();
    check_cvars();
    check_enum();
    check_writes_before_init();

    MPI_Init(&argc, &argv);
    CHECK(cvar_read_ull("TERN_SMP_EAGERSIZE") == eager,
          "TERN_SMP_EAGERSIZE reads %llu after MPI_Init", cvar_read_ull("TERN_SMP_EAGERSIZE"));
    check_writes_after_init(eager);
    check_categories();
    check_pvars();
    check_no_events();
    MPI_Finalize();

    /* After MPI_Finalize MPI_T still answers. */
    CHECK(cvar_read_int("TERN_LIVENESS_INTERVAL_MS") == 150, "after MPI_Finalize");
    MPI_T_pvar_session s;
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_T_cvar_handle left = cvar_handle("TERN_SMP_USE_CMA"); /* the last MPI_T_finalize frees it */

    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    CHECK(cvar_read_ull("TERN_SMP_EAGERSIZE") == eager, "one MPI_T_finalize of two ended MPI_T");
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    check_not_initialized();

    /* Initialised again: the old session and handle are gone. */
    int v;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_read(left, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    printf("mpit query: ok\n");
    return 0;
}
