/* tern-info: prints the version of the Tern library it is linked with, the
 * build options and every runtime parameter with its value and the source
 * of the value (default, TERN_<NAME>, MV2_ alias); with --coll, the
 * collective algorithms the automatic choice takes.  The text comes from
 * the library itself (tern_info_print, tern_coll_info_print), so it always
 * describes the libmpi that is actually loaded. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll_info.h"
#include "core/info_print.h"

static void usage(FILE *out, const char *prog)
{
    fprintf(out,
            "Usage: %s [--version | --params | --coll [--np N] [--ppn P] | --algorithms | --help]\n"
            "Prints Tern's version, build options and every runtime parameter with its\n"
            "current value and where the value came from (default, TERN_<NAME>, or the\n"
            "MVAPICH2 alias MV2_<NAME>).  Set variables in the environment to see their\n"
            "effect, e.g. TERN_SMP_EAGERSIZE=32K %s --params\n"
            "  --version   only the version line\n"
            "  --params    only the parameter table\n"
            "  --coll      the collective algorithms chosen automatically, by collective and\n"
            "              message size, on an intracommunicator of N ranks (default: the\n"
            "              cores here), P to a host (default N: one host), with the tuning\n"
            "              table TERN_COLL_TUNING_FILE names and the TERN_<COLL>_ALGORITHM\n"
            "              settings of the environment\n"
            "  --algorithms  each collective's algorithms for intracommunicators, one\n"
            "              collective a line (the words of the tuning table)\n"
            "  --help      this text\n",
            prog, prog);
}

/* Prints the part of the library's report selected by 'what': the first
 * line (version) or everything from the parameter table's header on. */
static int print_part(const char *what)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        perror("tern-info: open_memstream");
        return 1;
    }
    tern_info_print(mem);
    if (fclose(mem) != 0 || !text) {
        perror("tern-info");
        free(text);
        return 1;
    }

    int rc = 0;
    if (!strcmp(what, "version")) {
        size_t n = strcspn(text, "\n");
        printf("%.*s\n", (int)n, text);
    } else {
        /* The table starts at the line that begins with "PARAMETER". */
        const char *p = text;
        while (*p && strncmp(p, "PARAMETER", 9)) {
            const char *nl = strchr(p, '\n');
            p = nl ? nl + 1 : p + strlen(p);
        }
        if (*p) {
            fputs(p, stdout);
        } else {
            fputs(text, stdout); /* unknown layout: better everything than nothing */
            rc = 1;
        }
    }
    free(text);
    return rc;
}

/* A count of at least 1, or -1. */
static int count_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= 1 && v <= INT_MAX ? (int)v : -1;
}

/* tern-info --coll [--np N] [--ppn P], in any order after --coll. */
static int coll_mode(const char *prog, int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int np = cores > 1 ? (int)cores : 2, ppn = 0;
    for (int i = 2; i < argc; i += 2) {
        int *to = !strcmp(argv[i], "--np") || !strcmp(argv[i], "-n") ? &np
                  : !strcmp(argv[i], "--ppn")                        ? &ppn
                                                                     : NULL;
        if (!to || i + 1 == argc || (*to = count_arg(argv[i + 1])) < 0) {
            fprintf(stderr,
                    "%s: --coll takes --np N and --ppn P (counts of 1 or more), not '%s%s%s'\n",
                    prog, argv[i], to && i + 1 < argc ? " " : "",
                    to && i + 1 < argc ? argv[i + 1] : "");
            usage(stderr, prog);
            return 2;
        }
    }
    if (ppn > np) {
        fprintf(stderr, "%s: --ppn %d is more than --np %d\n", prog, ppn, np);
        return 2;
    }
    int rc = tern_coll_info_print(stdout, stderr, np, ppn ? ppn : np);
    return fflush(stdout) || rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (argc > 1 && !strcmp(argv[1], "--coll")) return coll_mode(prog, argc, argv);
    if (argc == 1) {
        tern_info_print(stdout);
        return fflush(stdout) ? 1 : 0;
    }
    if (argc > 2) {
        fprintf(stderr, "%s: one option at a time\n", prog);
        usage(stderr, prog);
        return 2;
    }
    const char *opt = argv[1];
    if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
        usage(stdout, prog);
        return 0;
    }
    if (!strcmp(opt, "--version") || !strcmp(opt, "-v")) return print_part("version");
    if (!strcmp(opt, "--params") || !strcmp(opt, "-p")) return print_part("params");
    if (!strcmp(opt, "--algorithms")) {
        tern_coll_info_algorithms(stdout);
        return fflush(stdout) ? 1 : 0;
    }
    fprintf(stderr, "%s: unknown option '%s'\n", prog, opt);
    usage(stderr, prog);
    return 2;
}
