/* mpiexec: Tern's launcher, and tern-proxy, its helper on each host of a
 * job that spans several.  Shared declarations.
 *
 * One file per job:
 *   main.c       the order of things: parse, check, spawn, run, report
 *   options.c    the command line (Hydra and mpirun_rsh styles)
 *   suggest.c    "did you mean" for unknown options
 *   help.c       --help and --version text
 *   hosts.c      -hosts / -f: the host list; is it only this machine?
 *   slurm.c      the host list of a Slurm allocation
 *   placement.c  which host each rank runs on
 *   params.c     mpiexec's own parameters (TERN_LAUNCHER...), declared once
 *   agent.c      starting a proxy on a host: ssh, rsh, a command, or fork
 *   tree.c       the launch tree's shape: who starts and relays for whom
 *   tcp.c        listening, connecting, this machine's addresses
 *   wire.c       the framed protocol between mpiexec and the proxies
 *   links.c      a node of the tree and the proxies it starts: their
 *                agents and connections (mpiexec and tern-proxy alike)
 *   spec.c       the description of the job a proxy gets for its subtree
 *   remote.c     mpiexec's side of a job on several hosts
 *   proxy_main.c, proxy.c  tern-proxy: one host's ranks, and a relay for
 *                the proxies below it
 *   resolve.c    finding the program before anything is started
 *   envbuild.c   the environment each rank gets
 *   shmfile.c    the job's unnamed shared-memory file
 *   spawn.c      fork/exec of one rank
 *   signals.c    signal handlers and the self-pipe
 *   loop.c       the poll loop
 *   output.c     line-by-line forwarding of the ranks' stdout/stderr
 *   stdin_relay.c  terminal stdin to rank 0
 *   kvs_server.c the bootstrap protocol (described at its top)
 *   kvstore.c    the key-value table behind it
 *   teardown.c   reports, killing, exit codes
 *   util.c       buffers, allocation, time
 */
#ifndef TERN_MPIEXEC_H
#define TERN_MPIEXEC_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#define MPIEXEC_MAX_RANKS 8192
#define KVS_MAX_KEY 64     /* key length must be < this */
#define KVS_MAX_VALUE 1024 /* value length must be <= this */
#define KVS_MAX_LINE 2048  /* longest protocol line, newline excluded */

/* ---- util.c ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int64_t now_ms(void); /* CLOCK_MONOTONIC in milliseconds */
int set_nonblock(int fd);
int set_cloexec(int fd, int on);
/* Raises the soft limit on open files to 'need' where the hard one allows;
 * -1 with "need N open files; the limit is M ..." in why otherwise. */
int open_files_ensure(size_t need, char *why, size_t len);

/* A growable byte buffer consumed from the front. */
struct buf {
    char *data;
    size_t head, len, cap; /* valid bytes are data[head .. head+len) */
};
void buf_append(struct buf *b, const void *p, size_t n);
void buf_consume(struct buf *b, size_t n);
void buf_free(struct buf *b);
static inline const char *buf_ptr(const struct buf *b) { return b->data + b->head; }

/* ---- options.c ---- */
struct envvar {
    char *name, *value;
};
struct envlist {
    struct envvar *v;
    size_t n, cap;
};
void envlist_set(struct envlist *l, const char *name, const char *value);
void envlist_free(struct envlist *l);

struct block {          /* one MPMD block: [-n N] [-env ..] prog args */
    int nprocs;         /* -1 when not given */
    struct envlist env; /* -env and NAME=VALUE words */
    char **argv;        /* NULL-terminated copy; argv[0] as given */
    char *path;         /* resolved executable (resolve.c) */
    char *wdir;         /* -wdir, or NULL */
    int nargs;          /* -nargs: arguments after the program, -1 when not given */
};

struct host {
    char *name;
    int slots; /* from host:N, 1 if not given */
};

enum genv_mode { GENV_ALL, GENV_LIST, GENV_NONE };

struct options {
    struct block *blocks;
    int nblocks;
    struct envlist genv;
    enum genv_mode genv_mode; /* what of our environment remote ranks get */
    char **genvlist;          /* -genvlist names, NULL-terminated */
    struct host *hosts;       /* -hosts / -f, merged by name */
    int nhosts;
    int remote;          /* some host is not this machine: proxies run the job */
    char *launcher;      /* -launcher, or NULL for the parameter's value */
    char *launcher_exec; /* -launcher-exec, or NULL */
    int label;           /* -l: prefix lines with "[rank] " */
    double timeout;      /* seconds; 0 = none */
    char *timeout_text;  /* as the user wrote it, for the report */
    int bind;            /* -1 not given, 0 none, 1 core/hwthread */
    int ppn;             /* -1 not given */
    int host_slots;      /* sum of host counts from -hosts/-f; 0 when none */
    int verbose;
};

/* Returns 0 to run, 1 when done (help/version printed: exit 0), 2 on a usage
 * error (message printed: exit 2). */
int options_parse(int argc, char **argv, struct options *o);
void options_free(struct options *o);

/* ---- suggest.c ---- */
const char *suggest_nearest(const char *word, const char *const *names, size_t n);

/* ---- help.c ---- */
void help_print(void);
void version_print(void);

/* ---- hosts.c ---- */
int hosts_parse_list(const char *list, struct options *o); /* 0 or -1 (printed) */
int hosts_parse_file(const char *path, struct options *o); /* 0 or -1 (printed) */
int hosts_is_this_host(const char *h);
void hosts_this_name(char *name, size_t len);
/* One host with 'count' slots, merged with an earlier one of that name;
 * -1 (printed, naming 'where') when the job would have too many slots. */
int hosts_add(struct options *o, const char *name, int count, const char *where);

/* ---- slurm.c ---- */
/* Slurm's host list ("h[1-3,5],gpu01", "n[01-10]") expanded in order: a
 * NULL-terminated array of malloc'd names and their number in *n, or NULL
 * with the reason in err. */
char **slurm_hostlist_expand(const char *list, int *n, char *err, size_t errlen);
/* SLURM_TASKS_PER_NODE ("2(x3),1") into counts[nhosts]; -1 with the reason
 * in err when it cannot be read or does not cover exactly nhosts. */
int slurm_tasks_per_node(const char *spec, int nhosts, int *counts, char *err, size_t errlen);
/* With no -hosts/-f inside an allocation: the allocation's hosts, with
 * -ppn or Slurm's task counts as slots, and srun as the default agent.
 * 0 (also outside Slurm) or -1 (printed). */
int slurm_hosts_take(struct options *o);

/* ---- placement.c ---- */
/* host_of[rank] for 'size' ranks over o->hosts: each host in turn takes -ppn
 * ranks (or its slot count), round and round, as Hydra places them. */
void placement_compute(const struct options *o, int size, int *host_of);

/* ---- params.c ---- */
/* The value of one of mpiexec's parameters: TERN_<name>, else its alias, else
 * the default.  names: "LAUNCHER", "LAUNCHER_EXEC", "LAUNCH_FANOUT". */
const char *param_get(const char *name);
void params_help(void);

/* ---- wire.c ---- */
/* Words on the wire are percent-escaped so that any byte string is one word. */
char *wire_escape(const char *s); /* malloc'd */
int wire_unescape(char *s);       /* in place; -1 if malformed */
void wire_put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wire_put_data(struct buf *b, int rank, int stream, const char *p, size_t n);
void wire_put_input(struct buf *b, int rank, const char *p, size_t n); /* stdin for a rank */
/* Takes one frame from b: a line (NUL-terminated in place, without its
 * newline) and, for "o" and "i" frames, the *n payload bytes at *data.  Returns the
 * line, or NULL when the frame is not complete yet.  Call wire_done after. */
char *wire_next(struct buf *b, const char **data, size_t *n, size_t *frame_len);
int wire_send(int fd, struct buf *out); /* nonblocking; -1 when the peer is gone */
/* A frame wire_next took, appended to b unchanged (a relay passing it on). */
void wire_forward(struct buf *b, const char *line, const char *data, size_t n);

/* ---- agent.c ---- */
struct agent_conf {
    char kind[16]; /* ssh, rsh, srun, exec or fork */
    char *exec;    /* the command: ssh, rsh, srun's words or -launcher-exec's */
};
int agent_conf_init(struct agent_conf *c, const char *kind, const char *exec); /* -1: printed */
/* Starts the proxy for 'host' (tree node 'node') through the agent; the
 * agent's stderr comes back on *err_fd.  Returns the pid or -1 (printed). */
pid_t agent_start(const struct agent_conf *c, const char *host, char *const proxy_argv[],
                  int *err_fd);
/* "ssh exited 255: ..." from a wait status and the tail of the agent's stderr. */
void agent_describe(const struct agent_conf *c, int status, const char *err, char *out, size_t len);

/* ---- tree.c ---- */
/* The children of tree node 'node' (mpiexec is node 0, hosts are 1..nhosts)
 * with fan-out k: [*first, *last], empty when *first > *last. */
void tree_children(int node, int nhosts, int k, int *first, int *last);
/* The child of 'from' whose subtree holds 'node'; -1 when node is not below from. */
int tree_toward(int from, int node, int k);
int tree_holds(int root, int node, int k); /* node is root or below it */

/* ---- tcp.c ---- */
int tcp_listen(int *port); /* any address, a free port; nonblocking; -1 on error */
/* Connects to addr:port within timeout_ms; the fd (nonblocking) or -1 with errno. */
int tcp_connect(const char *addr, int port, int timeout_ms);
char *tcp_addresses(void); /* this machine's IPv4 addresses, loopback last (malloc'd) */

/* ---- links.c ---- */
struct pollfd;
struct link { /* one child of a node of the launch tree */
    int node;
    const char *name; /* its host */
    pid_t agent;      /* -1: it could not be started */
    int err_fd;       /* the agent's stderr; -1 at its end */
    struct buf err;   /* what it said (the first 16 KiB) */
    int agent_done, agent_status;
    int fd; /* the child's connection after hello; -1 before and once closed */
    struct buf in, out;
    int hello, closed, bye;
};

struct link_pending { /* accepted, hello not yet read */
    int fd;
    struct buf in;
};

struct links {
    int self, nhosts, fanout;
    const char *token;
    int listen_fd, port; /* -1 and 0 for a node without children */
    struct link *l;      /* l[i] is the child first + i */
    int n;
    struct link_pending *pend;
    int npend;
};

/* What a node does when one of its children says hello, sends a frame, or
 * closes its connection without having been told "bye". */
struct link_ops {
    void (*hello)(void *ctx, struct link *l);
    void (*frame)(void *ctx, struct link *l, char *line, const char *data, size_t n);
    void (*closed)(void *ctx, struct link *l);
};

/* The children of node 'self', named by names[node]; listens when it has
 * any.  -1 (printed, 'who' says which program) when it cannot listen. */
int links_init(struct links *ls, int self, int nhosts, int fanout, const char *token,
               char *const *names, const char *who);
/* Starts every child's proxy: PROXY NODE PORT ADDRS TOKEN through the agent.
 * Returns how many could not be started (their agent is -1, agent_done set). */
int links_start(struct links *ls, const struct agent_conf *a, const char *proxy, const char *addrs);
struct link *links_toward(struct links *ls, int node); /* the child whose subtree holds node */
void links_send(struct link *l);                       /* what is queued on l->out, nonblocking */
void links_broadcast(struct links *ls, const char *line); /* a frame to every child called */
size_t links_poll_max(const struct links *ls);
/* 'reading': whether to take frames from the children now (backpressure). */
size_t links_poll_add(struct links *ls, struct pollfd *pfd, int reading);
void links_poll_handle(struct links *ls, struct pollfd *pfd, size_t n, const struct link_ops *ops,
                       void *ctx);
/* The child whose agent 'pid' was: its end recorded, its stderr read to the
 * end and NUL-terminated in l->err.  NULL when pid is no agent of ours. */
struct link *links_reaped(struct links *ls, pid_t pid, int st);
/* A child's connection closed: waits up to ms for its agent's end, so that a
 * report can say how it ended.  1 when it was reaped here (as links_reaped). */
int links_await(struct link *l, int ms);
/* "bye" to every child, sent within a second; agents that do not end within
 * wait_ms more are killed with their process group. */
void links_bye(struct links *ls, int wait_ms);
void links_kill(struct links *ls, int sig); /* every agent's process group */
void links_free(struct links *ls);

/* ---- spec.c ---- */
/* The tree as a parent knows it: names[node] for the nodes of its subtree,
 * and for each rank of the job its node and block (-1 outside the subtree). */
struct spec_tree {
    int nhosts, fanout, size;
    char *const *names;
    const int *rank_node, *rank_block;
};
/* The description of the job for the proxy of 'root' and its subtree:
 * 'common' (what every host gets, conf to blocks), the hosts and ranks of the
 * subtree, "go". */
void spec_put(struct buf *b, const struct buf *common, const struct spec_tree *t, int root);

/* ---- resolve.c ---- */
/* Finds argv0 like execvp would with the given PATH; on failure prints
 * "mpiexec: cannot run 'x': reason" and returns NULL. */
char *resolve_program(const char *argv0, const char *path_env, const char *wdir);

/* ---- envbuild.c ---- */
/* The environment of one block, with three slots that change per rank. */
struct rank_env {
    char **envp; /* NULL-terminated; the last three entries are ours */
    size_t n;    /* entries before the NULL */
    char slot_rank[32], slot_local[48], slot_fd[32];
};
void envbuild_block(struct rank_env *re, const struct options *o, const struct block *b, int size,
                    int appnum, const char *job_id, int shm_fd);
void envbuild_rank(struct rank_env *re, int rank, int boot_fd);
void envbuild_free(struct rank_env *re);
const char *envbuild_lookup(const struct options *o, const struct block *b, const char *name);

/* ---- kvstore.c ---- */
struct kv_entry;
struct kvstore {
    struct kv_entry **bucket;
    size_t nbucket, count;
};
void kvstore_init(struct kvstore *s);
void kvstore_put(struct kvstore *s, const char *key, const char *value);
const char *kvstore_get(const struct kvstore *s, const char *key);
void kvstore_free(struct kvstore *s);

/* ---- the job ---- */
enum { OUT_STDOUT = 0, OUT_STDERR = 1 };

struct linebuf { /* bytes of one rank's stream not yet forwarded */
    struct buf b;
    int mid_line; /* a long line is being forwarded in pieces */
    int eof;      /* the pipe is closed; b holds the last bytes */
};

struct rank {
    int rank, block;
    int host;    /* index in opt->hosts when proxies run the job, else -1 */
    pid_t pid;   /* 0 before spawn */
    int sock;    /* our end of the socketpair; -1 when closed */
    int pipe[2]; /* read ends of stdout, stderr; -1 at EOF */
    struct linebuf line[2];
    struct buf in, out; /* protocol bytes from / to the rank */
    pid_t claimed_pid;  /* pid sent in "init" */
    unsigned connected : 1, finalized : 1, in_fence : 1, aborted : 1, reaped : 1;
    int exec_errno; /* from "execfail", 0 if none */
    int status;     /* wait status once reaped */
};

struct outq { /* our own stdout or stderr */
    int fd;
    struct buf q;
    int broken;      /* write failed (EPIPE...): discard from now on */
    int owner;       /* rank in the middle of a long line, or -1 */
    struct buf held; /* mpiexec's reports waiting for that line's end */
    int pass_needed; /* the owner's line ended: others may have lines ready */
    int line_start;  /* what we queued so far ends with a newline */
};

enum end_reason {
    END_NONE,
    END_FAILED,
    END_ABORT,
    END_TIMEOUT,
    END_SIGNAL,
    END_EXEC,
    END_PROTOCOL
};

struct stdin_relay {
    int active;   /* stdin is a terminal we forward to rank 0 */
    int src_open; /* still reading fd 0 */
    int pipe_w;   /* write end to rank 0; -1 when closed */
    int child_r;  /* read end handed to rank 0 at spawn; -1 after */
    struct buf pending;
    long long sent, written; /* across hosts: bytes sent to rank 0's proxy, and put in its pipe */
};

struct job {
    struct options *opt;
    struct rank *ranks;
    int size;
    int alive; /* spawned and not reaped */
    int spawned;
    char job_id[64];
    struct outq out[2];
    struct kvstore kvs;
    int fence_waiting;
    int fences_done;
    enum end_reason reason; /* END_NONE while running */
    int exit_code;
    int term_signal;   /* signal forwarded on teardown (SIGTERM, SIGINT...) */
    int killed;        /* SIGKILL has been sent */
    int64_t t_timeout; /* deadlines in now_ms() time; 0 = none */
    int64_t t_kill;
    int64_t t_giveup;
    int64_t t_drain;
    int devnull; /* /dev/null for the stdin of ranks > 0 */
    int shm_fd;  /* the shared-memory file the ranks inherit; -1 after spawning */
    struct stdin_relay relay;
    struct remote *remote; /* the proxies, when the job spans hosts (remote.c) */
};

/* ---- signals.c ---- */
int signals_init(void); /* self-pipe + handlers; 0 or -1 */
int signals_fd(void);   /* read end of the self-pipe */
void signals_drain(void);
int signals_take(int sig);             /* count of 'sig' since last take */
void signals_child_reset(void);        /* in the child before exec */
void signals_block_all(sigset_t *old); /* around fork */
void signals_restore(const sigset_t *old);

/* ---- shmfile.c ---- */
int shmfile_create(void); /* a close-on-exec fd, or -1 (printed) */

/* ---- spawn.c ---- */
int spawn_rank(struct job *job, struct rank *r, struct rank_env *re, const struct block *b);

/* ---- output.c ---- */
void output_init(struct job *job);
void output_feed(struct job *job, struct rank *r, int stream, const char *p, size_t n);
void output_eof(struct job *job, struct rank *r, int stream); /* a remote stream ended */
int output_read(struct job *job, struct rank *r, int stream, int unlimited);
int output_can_read(const struct job *job, const struct rank *r, int stream);
int output_broken(const struct job *job);            /* a reader went away */
void output_write_some(struct job *job, int stream); /* after POLLOUT */
void output_finish(struct job *job);                 /* at exit: all of it, blocking */
void output_report(struct job *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void output_free(struct job *job);

/* ---- stdin_relay.c ---- */
void relay_setup(struct job *job);
int relay_open(struct job *job); /* the pipe to rank 0, unconditionally; -1 if none */
/* Across hosts, mpiexec's half: read stdin while rank 0's proxy keeps up. */
void relay_remote_setup(struct job *job);
int relay_remote_wants(const struct job *job);
void relay_remote_read(struct job *job, struct buf *out); /* one "i" (or "ie") frame */
void relay_remote_written(struct job *job, long long n);  /* "ia n" from the proxy */
void relay_after_spawn(struct job *job);
void relay_read(struct job *job);
void relay_write(struct job *job);
void relay_stop(struct job *job);
int relay_wants_input(const struct job *job);

/* ---- kvs_server.c ---- */
int kvs_read(struct job *job, struct rank *r);   /* POLLIN on r->sock; 1: call again */
void kvs_write(struct job *job, struct rank *r); /* POLLOUT on r->sock */
void kvs_check_fence(struct job *job);           /* after a rank is reaped */
int kvs_want_read(const struct rank *r);
void kvs_line(struct job *job, struct rank *r, char *line); /* one request, from a proxy */

/* ---- teardown.c ---- */
void job_reap(struct job *job); /* after SIGCHLD */
void job_fail(struct job *job, enum end_reason why, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void job_end(struct job *job, int sig, int grace_ms);
void job_deadlines(struct job *job); /* timeouts, SIGKILL escalation */
void job_signals(struct job *job);   /* SIGINT, SIGTERM... received */
void job_signal_all(struct job *job, int sig);
int abort_exit_code(long code);
/* A rank on another host exited (the proxy reaped it) with wait status st. */
void job_remote_exit(struct job *job, struct rank *r, pid_t pid, int st);
/* Ranks that will never report (their host was lost): counted as gone. */
void job_forget(struct job *job, struct rank *r);

/* ---- remote.c ---- */
int remote_start(struct job *job); /* listen, start the first proxies; -1: printed */
void remote_answer(struct job *job, struct rank *r, const char *a, const char *b);
/* Adds what remote.c waits for to the poll set; returns the count added. */
size_t remote_poll_add(struct job *job, struct pollfd *pfd, size_t max);
void remote_poll_handle(struct job *job, struct pollfd *pfd, size_t n);
size_t remote_poll_max(const struct job *job);
int remote_reaped(struct job *job, pid_t pid, int st); /* 1 if pid was an agent */
void remote_signal_all(struct job *job, int sig);
int remote_streams_open(const struct job *job);
void remote_finish(struct job *job); /* bye to every proxy, agents ended */
void remote_deadlines(struct job *job);
int64_t remote_next_deadline(const struct job *job);

/* ---- loop.c ---- */
int job_run(struct job *job); /* returns the exit code */

#endif
