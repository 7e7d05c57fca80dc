/* tern-proxy: the state shared by proxy_main.c (start-up) and proxy.c (the
 * loop). */
#ifndef TERN_MPIEXEC_PROXY_H
#define TERN_MPIEXEC_PROXY_H

#include "mpiexec.h"

struct child { /* a proxy of our subtree that we started */
    int node;
    char *name;
    pid_t agent;
    int err_fd;
    struct buf err;
    int done;
};

struct proxy {
    struct job job; /* this host's ranks; rank numbers are the job's */
    struct options opt;
    int node, size, nhosts, fanout;
    char job_id[64];
    char *name; /* this host, as mpiexec's host list names it */
    int up;     /* connection to mpiexec */
    struct buf up_in, up_out;
    int bye, lost;
    int stdin_eof, stdin_closed; /* "ie" came; "ic" went (relay of rank 0's stdin) */
    struct agent_conf agent;
    struct child *children;
    int nchildren;
    char **sub_names; /* host name of each node of the subtree, by node */
    int *sub_nodes;
    int nsub;
    char *addrs, *port, *token, *self;
};

int proxy_run(struct proxy *px); /* the loop; returns the exit code */
void proxy_start_children(struct proxy *px);

#endif
