/* What a window tells about itself: its attributes (MPI_WIN_BASE, SIZE,
 * DISP_UNIT, CREATE_FLAVOR, MODEL), name, group, info keys, user
 * attributes with their delete callback at MPI_Win_free; shared windows
 * through MPI_Win_shared_query, with stores into a neighbour's memory that
 * the neighbour sees; and that freeing windows leaves no mapping, no
 * descriptor and nothing in /dev/shm. */
#include <dirent.h>
#include <stdio.h>

#include "rma_util.h"

static int deleted;
static int del_fn(MPI_Win w, int kv, void *val, void *extra)
{
    (void)w, (void)kv, (void)extra;
    deleted += *(int *)val;
    return MPI_SUCCESS;
}

static int count_dir(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Mappings of window segments: O_TMPFILE files in /dev/shm or memfds. */
static int count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "tern-win") || strstr(line, "/dev/shm/#");
    if (f) fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int fds0 = count_dir("/proc/self/fd"), maps0 = count_maps();

    static const int flavor[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE,
                                 MPI_WIN_FLAVOR_SHARED, MPI_WIN_FLAVOR_DYNAMIC,
                                 MPI_WIN_FLAVOR_CREATE};
    for (int k = 0; k < NKINDS; k++) {
        struct rwin w;
        MPI_Aint n = 64 + 8 * rank;
        rwin_make(&w, (enum kind)k, n, MPI_COMM_WORLD);
        void *base;
        MPI_Aint *sz;
        int *du, *fl, *model, flag;
        CHECK_MPI(MPI_Win_get_attr(w.win, MPI_WIN_BASE, &base, &flag));
        CHECK(flag && base == (k == K_DYNAMIC ? NULL : (void *)w.mem), "%s: MPI_WIN_BASE %p",
              kind_name[k], base);
        CHECK_MPI(MPI_Win_get_attr(w.win, MPI_WIN_SIZE, &sz, &flag));
        CHECK(flag && *sz == (k == K_DYNAMIC ? 0 : n), "%s: MPI_WIN_SIZE %ld", kind_name[k],
              (long)*sz);
        CHECK_MPI(MPI_Win_get_attr(w.win, MPI_WIN_DISP_UNIT, &du, &flag));
        CHECK(flag && *du == 1, "%s: MPI_WIN_DISP_UNIT", kind_name[k]);
        CHECK_MPI(MPI_Win_get_attr(w.win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
        CHECK(flag && *fl == flavor[k], "%s: MPI_WIN_CREATE_FLAVOR %d", kind_name[k], *fl);
        CHECK_MPI(MPI_Win_get_attr(w.win, MPI_WIN_MODEL, &model, &flag));
        CHECK(flag && *model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL", kind_name[k]);

        char name[MPI_MAX_OBJECT_NAME];
        int len;
        CHECK_MPI(MPI_Win_set_name(w.win, "halo"));
        CHECK_MPI(MPI_Win_get_name(w.win, name, &len));
        CHECK(strcmp(name, "halo") == 0 && len == 4, "name %s", name);

        MPI_Group g, wg;
        int cmp;
        CHECK_MPI(MPI_Win_get_group(w.win, &g));
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_compare(g, wg, &cmp);
        CHECK(cmp == MPI_IDENT, "MPI_Win_get_group: not MPI_COMM_WORLD's group");
        MPI_Group_free(&g);
        MPI_Group_free(&wg);

        MPI_Info info;
        static const char *const keys[] = {"no_locks",
                                           "accumulate_ordering",
                                           "accumulate_ops",
                                           "same_size",
                                           "same_disp_unit",
                                           "alloc_shared_noncontig",
                                           "mpi_accumulate_granularity"};
        CHECK_MPI(MPI_Win_get_info(w.win, &info));
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            char val[64];
            int vlen, found;
            vlen = sizeof val;
            MPI_Info_get_string(info, keys[i], &vlen, val, &found);
            CHECK(found, "%s: info key %s missing", kind_name[k], keys[i]);
        }
        MPI_Info_free(&info);
        /* A hint given after creation is the one reported, whether or not
         * it can still change anything (the layout cannot). */
        for (int said = 0; said < 2; said++) {
            char val[64];
            int vlen = sizeof val, found;
            const char *want = said ? "true" : "false";
            CHECK_MPI(MPI_Info_create(&info));
            CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", want));
            CHECK_MPI(MPI_Win_set_info(w.win, info));
            MPI_Info_free(&info);
            CHECK_MPI(MPI_Win_get_info(w.win, &info));
            MPI_Info_get_string(info, "alloc_shared_noncontig", &vlen, val, &found);
            CHECK(found && strcmp(val, want) == 0, "%s: alloc_shared_noncontig set to %s reads %s",
                  kind_name[k], want, val);
            MPI_Info_free(&info);
        }

        int kv, one = 1;
        CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &kv, NULL));
        CHECK_MPI(MPI_Win_set_attr(w.win, kv, &one));
        int *back;
        CHECK_MPI(MPI_Win_get_attr(w.win, kv, &back, &flag));
        CHECK(flag && back == &one, "user attribute");

        /* TERN_RMA_ALLOC_MEM_SHM=0: MPI_Alloc_mem's memory is the heap's */
        const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
        int heap = k == K_CREATE || (k == K_ALLOC_MEM && am && !strcmp(am, "0"));
        if (heap && size > 1) {
            /* heap memory of another process: not loadable here */
            MPI_Aint qs = -1;
            int qdu;
            char *p = (char *)&qdu;
            CHECK_MPI(MPI_Win_shared_query(w.win, (rank + 1) % size, &qs, &qdu, &p));
            CHECK(qs == 0 && p == NULL, "%s: shared_query of a neighbour: %ld bytes at %p",
                  kind_name[k], (long)qs, (void *)p);
        }
        if (k == K_SHARED || k == K_ALLOCATE || (k == K_ALLOC_MEM && !heap)) {
            /* the next rank's memory, by load and store */
            int nb = (rank + 1) % size;
            MPI_Aint qs;
            int qdu;
            char *p;
            CHECK_MPI(MPI_Win_shared_query(w.win, nb, &qs, &qdu, &p));
            CHECK(qs == 64 + 8 * nb && qdu == 1, "shared_query: size %ld", (long)qs);
            CHECK_MPI(MPI_Win_lock_all(0, w.win));
            memset(p, 'a' + rank, (size_t)qs);
            CHECK_MPI(MPI_Win_sync(w.win));
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK_MPI(MPI_Win_sync(w.win));
            int pv = (rank + size - 1) % size;
            for (MPI_Aint i = 0; i < n; i++)
                CHECK(w.mem[i] == 'a' + pv, "%s: byte %ld is %c, the neighbour stored %c",
                      kind_name[k], (long)i, w.mem[i], 'a' + pv);
            CHECK_MPI(MPI_Win_unlock_all(w.win));
            if (k == K_SHARED && rank > 0) {
                char *p0;
                CHECK_MPI(MPI_Win_shared_query(w.win, rank - 1, &qs, &qdu, &p0));
                CHECK(p0 + qs == w.mem,
                      "allocate_shared: rank %d's memory does not follow "
                      "rank %d's",
                      rank, rank - 1);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        deleted = 0;
        rwin_free(&w);
        CHECK(deleted == 1, "%s: the delete callback ran %d times at MPI_Win_free", kind_name[k],
              deleted);
        CHECK_MPI(MPI_Win_free_keyval(&kv));
    }
    /* Many windows, made and freed, twice.  MPI_Alloc_mem keeps freed
     * blocks, mapped and open, for reuse (src/rma/alloc_mem.c): the second
     * round must leave what the first did, and with its blocks on the heap
     * everything is back to the start. */
    int fds1 = 0, maps1 = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 50; i++) {
            struct rwin w;
            rwin_make(&w, (enum kind)(i % NKINDS), 1 << 16, MPI_COMM_WORLD);
            rwin_free(&w);
        }
        if (round == 0) {
            fds1 = count_dir("/proc/self/fd");
            maps1 = count_maps();
        }
    }
    CHECK(count_dir("/proc/self/fd") == fds1, "descriptors: %d after 50 windows, %d after 100",
          fds1, count_dir("/proc/self/fd"));
    CHECK(count_maps() == maps1, "segments mapped: %d after 50 windows, %d after 100", maps1,
          count_maps());
    const char *am = getenv("TERN_RMA_ALLOC_MEM_SHM");
    if (am && !strcmp(am, "0")) {
        CHECK(count_dir("/proc/self/fd") == fds0, "descriptors: %d before, %d after", fds0,
              count_dir("/proc/self/fd"));
        CHECK(count_maps() == maps0, "window segments still mapped: %d before, %d after", maps0,
              count_maps());
    }
    if (rank == 0) printf("rma_objects: ok at %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
