/* A name whose publisher died without unpublishing it is not handed out:
 * a process (a singleton, forked before MPI_Init) publishes a name and
 * exits without MPI_Finalize; the lookup that follows fails with
 * MPI_ERR_NAME and drops the entry, and the name can be published again.
 * A live publisher's name is kept (a second publish fails).  Run without
 * mpiexec, with TERN_NAMESERVER_DIR naming an empty folder. */
#include <sys/wait.h>
#include <unistd.h>

#include "dyn_test.h"

int main(void)
{
    const char *dir = getenv("TERN_NAMESERVER_DIR");
    if (!dir) {
        fprintf(stderr, "FAIL: set TERN_NAMESERVER_DIR\n");
        return 1;
    }
    char service[64];
    snprintf(service, sizeof service, "tern-stale-%ld", (long)getpid());
    pid_t pid = fork();
    if (pid == 0) {
        MPI_Init(NULL, NULL);
        char port[MPI_MAX_PORT_NAME];
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "FAIL: the publisher ended with status %d\n", st);
        return 1;
    }
    if (dyn_dir_entries(dir, NULL) != 1) {
        fprintf(stderr, "FAIL: the dead publisher's entry is not in %s\n", dir);
        return 1;
    }
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char got[MPI_MAX_PORT_NAME] = "", port[MPI_MAX_PORT_NAME];
    int rc = MPI_Lookup_name(service, MPI_INFO_NULL, got);
    CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "lookup of a dead publisher's name: class %d, port %s",
          dyn_err_class(rc), got);
    CHECK(dyn_dir_entries(dir, NULL) == 0, "the stale entry is still in %s", dir);
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, got));
    CHECK(strcmp(got, port) == 0, "lookup gave %s, published %s", got, port);
    rc = MPI_Publish_name(service, MPI_INFO_NULL, "tern:x:1:0123456789abcdef");
    CHECK(dyn_err_class(rc) == MPI_ERR_NAME, "a second publish over a live one: class %d",
          dyn_err_class(rc));
    CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Close_port(port));
    CHECK(dyn_dir_entries(dir, NULL) == 0, "entries left in %s", dir);
    MPI_Finalize();
    printf("stale names: ok\n");
    return 0;
}
