/* Every control variable keeps the promise of its scope: one that reports
 * a writable scope (not MPI_T_SCOPE_CONSTANT or MPI_T_SCOPE_READONLY)
 * takes a write, and reading it back gives the new value; one that reports
 * a read-only scope refuses the write and keeps its value.  Checked for all
 * of them before MPI_Init (where every one is writable), after MPI_Init
 * and after MPI_Finalize.  Each value written is put back at once, so
 * MPI_Init still gets the environment's settings. */
#include <string.h>

#include "tern_test.h"

#define CHECK_T(call, want)                                                \
    do {                                                                   \
        int rc_ = (call);                                                  \
        CHECK(rc_ == (want), "%s returned %d, want %d", #call, rc_, want); \
    } while (0)

union value {
    int i;
    unsigned long long ull;
    char s[1024];
};

static int same_value(MPI_Datatype dt, const union value *a, const union value *b)
{
    if (dt == MPI_INT) return a->i == b->i;
    if (dt == MPI_UNSIGNED_LONG_LONG) return a->ull == b->ull;
    return strcmp(a->s, b->s) == 0;
}

/* Candidate new values for a variable now holding *old (k-th guess). */
static int guess(MPI_Datatype dt, MPI_T_enum et, const union value *old, int k, union value *out)
{
    memset(out, 0, sizeof *out);
    if (dt == MPI_CHAR) {
        if (k > 0) return 0;
        /* the old string with its first character changed */
        strcpy(out->s, old->s);
        out->s[0] = out->s[0] == 'x' ? 'y' : 'x';
        if (!old->s[0]) out->s[1] = 0;
        return 1;
    }
    if (dt == MPI_INT && et != MPI_T_ENUM_NULL) {
        int n = 0;
        char name[64];
        int len = sizeof name;
        CHECK_T(MPI_T_enum_get_info(et, &n, name, &len), MPI_SUCCESS);
        if (k >= n - 1) return 0;
        out->i = (old->i + 1 + k) % n; /* each other item, in turn */
        return 1;
    }
    if (dt == MPI_INT) {
        const int cand[] = {old->i ^ 1, old->i + 1, old->i - 1, old->i * 2, 1};
        if (k >= 5) return 0;
        out->i = cand[k];
        return 1;
    }
    const unsigned long long cand[] = {old->ull * 2, old->ull / 2, old->ull + 4096, 4096};
    if (k >= 4) return 0;
    out->ull = cand[k];
    return 1;
}

/* Checks every variable against its scope; returns how many were
 * writable.  'phase' names the moment in messages. */
static int check_all(const char *phase)
{
    int n, writable = 0;
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        char name[128];
        int nlen = sizeof name, scope = -1, count = 0;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK_T(MPI_T_cvar_get_info(i, name, &nlen, NULL, &dt, &et, NULL, NULL, NULL, &scope),
                MPI_SUCCESS);
        MPI_T_cvar_handle h;
        CHECK_T(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
        union value old, now, want;
        memset(&old, 0, sizeof old);
        CHECK_T(MPI_T_cvar_read(h, &old), MPI_SUCCESS);
        if (scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_READONLY) {
            CHECK(guess(dt, et, &old, 0, &want), "%s: no value to try", name);
            int rc = MPI_T_cvar_write(h, &want);
            CHECK(rc == MPI_T_ERR_CVAR_SET_NEVER || rc == MPI_T_ERR_CVAR_SET_NOT_NOW,
                  "%s %s: scope %d is read-only but the write returned %d", phase, name, scope, rc);
            CHECK_T(MPI_T_cvar_read(h, &now), MPI_SUCCESS);
            CHECK(same_value(dt, &old, &now), "%s %s: a refused write changed the value", phase,
                  name);
        } else {
            writable++;
            int taken = 0;
            for (int k = 0; !taken && guess(dt, et, &old, k, &want); k++) {
                int rc = MPI_T_cvar_write(h, &want);
                /* A value outside the variable's range may be refused as
                 * invalid; "not now" or "never" breaks the scope's promise. */
                CHECK(rc == MPI_SUCCESS || rc == MPI_T_ERR_INVALID,
                      "%s %s: scope %d says writable but the write returned %d", phase, name, scope,
                      rc);
                if (rc != MPI_SUCCESS) continue;
                memset(&now, 0, sizeof now);
                CHECK_T(MPI_T_cvar_read(h, &now), MPI_SUCCESS);
                CHECK(same_value(dt, &want, &now), "%s %s: wrote a new value, read back the %s one",
                      phase, name, same_value(dt, &old, &now) ? "old" : "wrong");
                taken = 1;
            }
            CHECK(taken, "%s %s: no write accepted", phase, name);
            CHECK_T(MPI_T_cvar_write(h, &old), MPI_SUCCESS);
            CHECK_T(MPI_T_cvar_read(h, &now), MPI_SUCCESS);
            CHECK(same_value(dt, &old, &now), "%s %s: the old value did not come back", phase,
                  name);
        }
        CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    }
    return writable;
}

int main(int argc, char **argv)
{
    int provided, n;
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    int before = check_all("before MPI_Init");
    CHECK(before == n, "before MPI_Init only %d of %d variables are writable", before, n);
    MPI_Init(&argc, &argv);
    int during = check_all("after MPI_Init");
    /* Some variables are read at MPI_Init only, some all the time. */
    CHECK(during > 0 && during < n, "after MPI_Init %d of %d variables are writable", during, n);
    MPI_Finalize();
    int after = check_all("after MPI_Finalize");
    CHECK(after == during, "after MPI_Finalize %d variables are writable, %d before it", after,
          during);
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    printf("mpit cvar_scope: ok (%d of %d writable after MPI_Init)\n", during, n);
    return 0;
}
