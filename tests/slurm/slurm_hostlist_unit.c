/* mpiexec's reading of Slurm's host lists and task counts (tools/mpiexec/
 * slurm.c): exact expansions, and a clear reason for each malformed form. */
#include "mpiexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* 'want' is the expected names joined by spaces, or NULL for an error whose
 * reason contains 'why'. */
static void hostlist(const char *list, const char *want, const char *why)
{
    char err[512] = "", got[4096] = "";
    int n = -1;
    char **v = slurm_hostlist_expand(list, &n, err, sizeof err);
    if (v) {
        for (int i = 0; i < n; i++) {
            if (i) strcat(got, " ");
            if (strlen(got) + strlen(v[i]) < sizeof got - 2) strcat(got, v[i]);
            free(v[i]);
        }
        if (v[n] != NULL) {
            printf("FAIL: '%s': the array is not NULL-terminated\n", list);
            failures++;
        }
        free(v);
    }
    if (want ? !v || strcmp(got, want) != 0 : v || !strstr(err, why)) {
        printf("FAIL: '%s': got %s'%s', expected %s'%s'\n", list, v ? "" : "error ", v ? got : err,
               want ? "" : "an error with ", want ? want : why);
        failures++;
    }
}

static void tasks(const char *spec, int nhosts, const char *want, const char *why)
{
    char err[512] = "", got[512] = "";
    int counts[64];
    int rc = slurm_tasks_per_node(spec, nhosts, counts, err, sizeof err);
    for (int i = 0; rc == 0 && i < nhosts; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", i ? " " : "", counts[i]);
    if (want ? rc != 0 || strcmp(got, want) != 0 : rc == 0 || !strstr(err, why)) {
        printf("FAIL: tasks '%s' over %d: got %s'%s', expected %s'%s'\n", spec, nhosts,
               rc ? "error " : "", rc ? err : got, want ? "" : "an error with ", want ? want : why);
        failures++;
    }
}

int main(void)
{
    hostlist("node1", "node1", NULL);
    hostlist("h[1-3,5],gpu01", "h1 h2 h3 h5 gpu01", NULL);
    hostlist("n[01-10]", "n01 n02 n03 n04 n05 n06 n07 n08 n09 n10", NULL);
    hostlist("n[098-101]", "n098 n099 n100 n101", NULL);
    hostlist("a,b[7],c", "a b7 c", NULL);
    hostlist("rack[1-2]-n[1-2]", "rack1-n1 rack1-n2 rack2-n1 rack2-n2", NULL);
    hostlist("x[1-2]y,z[3,1]", "x1y x2y z3 z1", NULL);
    hostlist("node1.example.org", "node1.example.org", NULL);

    hostlist("", NULL, "no host");
    hostlist("h[1-3", NULL, "'[' without ']'");
    hostlist("h1-3]", NULL, "']' without '['");
    hostlist("h[3-1]", NULL, "a range goes down");
    hostlist("h[]", NULL, "empty brackets");
    hostlist("h[a-b]", NULL, "numbers and ranges only");
    hostlist("h[1-]", NULL, "upper bound");
    hostlist("h[1,]", NULL, "empty range");
    hostlist("a,,b", NULL, "empty entry");
    hostlist("a,", NULL, "empty entry");
    hostlist("h[[1]]", NULL, "nested brackets");
    hostlist("h[0-99999]", NULL, "too many hosts");
    hostlist("h[1234567890]", NULL, "numbers and ranges only");

    tasks("2(x3),1", 4, "2 2 2 1", NULL);
    tasks("4", 1, "4", NULL);
    tasks("1,2,3", 3, "1 2 3", NULL);
    tasks("16(x2)", 2, "16 16", NULL);

    tasks("2(x3)", 2, NULL, "names more than the 2 hosts");
    tasks("2,2", 3, NULL, "gives 2 of the 3 hosts");
    tasks("", 1, NULL, "cannot read SLURM_TASKS_PER_NODE ''");
    tasks("0", 1, NULL, "cannot read");
    tasks("2(3)", 3, NULL, "cannot read");
    tasks("2(x3", 3, NULL, "cannot read");
    tasks("2,", 1, NULL, "cannot read");
    tasks("two", 1, NULL, "cannot read");

    if (failures) return 1;
    printf("ok\n");
    return 0;
}
