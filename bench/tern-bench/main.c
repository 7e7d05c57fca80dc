/* tern-bench: which benchmarks exist, and running the ones asked for.
 *
 *   tern-bench --list [FAMILY]
 *   mpiexec -n N tern-bench NAME|FAMILY|all ... [options]
 */
#include "tb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tb_bench *const families[] = {tb_pt2pt_benches, tb_coll_benches, tb_nbc_benches,
                                                  tb_dtype_benches, tb_rma_benches,  tb_io_benches};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

/* Does word select benchmark b: its name, its family, or "all". */
static int selects(const char *word, const struct tb_bench *b)
{
    return !strcmp(word, "all") || !strcmp(word, b->name) || !strcmp(word, b->family);
}

static int known(const char *word)
{
    for (int f = 0; f < NFAMILIES; f++)
        for (const struct tb_bench *b = families[f]; b->name; b++)
            if (selects(word, b)) return 1;
    return 0;
}

static int list(const char *word)
{
    int n = 0;
    for (int f = 0; f < NFAMILIES; f++)
        for (const struct tb_bench *b = families[f]; b->name; b++)
            if (!word || selects(word, b)) {
                printf("%-24s %-6s %s\n", b->name, b->family, b->what);
                n++;
            }
    return n ? 0 : 2;
}

/* The first line of the library's version string. */
static void library(char *buf)
{
    int len = 0;
    if (MPI_Get_library_version(buf, &len) != MPI_SUCCESS) strcpy(buf, "unknown MPI");
    buf[strcspn(buf, "\n")] = 0;
    for (char *p = buf; *p; p++)
        if (*p == '\t') *p = ' ';
    /* Open MPI ends its line with a comma and a release date. */
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == ',' || buf[l - 1] == ' ')) buf[--l] = 0;
}

/* All ranks agree on the outcome, and rank 0 learns the message of the
 * lowest rank that has one (a failure may happen on one side only). */
static void agree(struct tb_ctx *c)
{
    int worst = c->status, first = c->status != TB_OK && !c->secondhand ? c->rank : c->size;
    int all_worst = worst, all_first = first;
    if (MPI_Allreduce(&worst, &all_worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Allreduce(&first, &all_first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
        c->status = TB_FAILED;
        return;
    }
    if (all_first < c->size)
        MPI_Bcast(c->err, (int)sizeof c->err, MPI_CHAR, all_first, MPI_COMM_WORLD);
    c->status = (enum tb_status)all_worst;
}

static enum tb_status run_one(const struct tb_bench *b, const struct tb_opts *o, const char *lib)
{
    struct tb_ctx c;
    memset(&c, 0, sizeof c);
    c.b = b;
    c.o = o;
    c.comm = MPI_COMM_WORLD;
    c.granule = b->granule;
    MPI_Comm_rank(c.comm, &c.rank);
    MPI_Comm_size(c.comm, &c.size);
    tb_print_begin(&c, lib);
    if (c.size < b->min_ranks) {
        tb_fail(&c, "needs at least %d ranks", b->min_ranks);
    } else {
        MPI_Barrier(c.comm);
        b->run(&c);
    }
    agree(&c);
    tb_print_end(&c, lib);
    tb_cleanup(&c);
    /* Whatever happened, start the next benchmark together. */
    MPI_Barrier(MPI_COMM_WORLD);
    return c.status;
}

int main(int argc, char **argv)
{
    const char *names[64];
    int nnames = 0;
    struct tb_opts o;
    /* --list and --help need no MPI job. */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) return list(i + 1 < argc ? argv[i + 1] : NULL);
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            tb_usage(argv[0]);
            return 0;
        }
    }

    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Errors come back as codes: a missing MPI function is a result
     * ("not supported"), not the end of the job.  MPI-4 raises errors
     * without a communicator on MPI_COMM_SELF, MPI-3 on MPI_COMM_WORLD. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    int rc = tb_parse(argc, argv, &o, names, &nnames, 64, rank);
    for (int i = 0; i < nnames && !rc; i++) {
        if (!known(names[i])) {
            if (rank == 0)
                fprintf(stderr, "%s: no benchmark or family named '%s' (see --list)\n", argv[0],
                        names[i]);
            rc = 2;
        }
    }
    if (!rc && !nnames) {
        if (rank == 0) fprintf(stderr, "%s: name a benchmark (see --list) or 'all'\n", argv[0]);
        rc = 2;
    }
    if (rc) {
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    library(lib);
    int worst = TB_OK;
    for (int f = 0; f < NFAMILIES; f++) {
        for (const struct tb_bench *b = families[f]; b->name; b++) {
            int want = 0;
            for (int i = 0; i < nnames; i++) want |= selects(names[i], b);
            if (!want) continue;
            enum tb_status s = run_one(b, &o, lib);
            if ((int)s > worst) worst = (int)s;
        }
    }
    MPI_Finalize();
    return worst == TB_OK ? 0 : worst == TB_UNSUPPORTED ? 3 : 1;
}
