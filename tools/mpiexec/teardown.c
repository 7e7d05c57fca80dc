/* Ending a job: who died and how, the one report, the kill sequence, and the
 * exit code of mpiexec.
 *
 * A rank has failed when it exits with a non-zero code, is killed by a
 * signal, or exits with code 0 after it connected to the bootstrap server
 * (sent anything) but before it sent "fin".  A rank that never connected and
 * exits 0 is a non-MPI program that finished normally (mpiexec -n 2 hostname).
 *
 * On the first failure mpiexec prints one line to stderr, sends SIGTERM (then
 * SIGCONT, for stopped ranks) to every rank still running, SIGKILL 0.5 s
 * later to any that remain, and reaps them all.  When mpiexec is
 * interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT) the signal itself is
 * forwarded and the grace period is 1 s; a second one kills at once.  Only the
 * first event is reported: the deaths that teardown causes are not.
 *
 * Exit codes:
 *   all ranks exited 0 (and finalized if they connected)    0
 *   rank failures          the highest code among the ranks that failed on
 *                          their own (128+N for signal N; 1 for an exit 0
 *                          without MPI_Finalize); ranks killed by the
 *                          teardown do not count
 *   MPI_Abort(comm, C)     C & 255, except that a code that is 0 modulo 256
 *                          gives 1: an aborted job never looks successful.
 *                          (Hydra's server-side abort handler exits with the
 *                          code as given, which turns MPI_Abort(comm, 0) into
 *                          success; we deliberately do not.)
 *   --timeout              124, as timeout(1)
 *   SIGINT/SIGTERM/...     128 + the signal (130, 143, 129, 131)
 *   program cannot be run  2, like a usage error
 *   bootstrap misuse       1 */
#include "mpiexec.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FAIL_GRACE_MS 500
#define SIGNAL_GRACE_MS 1000
#define GIVEUP_MS 1000

int abort_exit_code(long code)
{
    int e = (int)((unsigned long)code & 0xffu);
    return e == 0 ? 1 : e;
}

void job_signal_all(struct job *job, int sig)
{
    remote_signal_all(job, sig); /* the proxies signal their ranks alike */
    for (int i = 0; i < job->size; i++) {
        struct rank *r = &job->ranks[i];
        if (r->pid <= 0 || r->reaped || r->host >= 0) continue;
        /* The rank leads its own group, which includes its children, unless
         * it moved itself elsewhere.  An unreaped pid cannot have been
         * reused, so neither can its group id. */
        if (getpgid(r->pid) != r->pid || kill(-r->pid, sig) < 0) kill(r->pid, sig);
    }
}

void job_end(struct job *job, int sig, int grace_ms)
{
    job->term_signal = sig;
    relay_stop(job);
    if (job->alive == 0) return;
    job_signal_all(job, sig);
    if (sig != SIGKILL && sig != SIGCONT) job_signal_all(job, SIGCONT);
    job->t_kill = now_ms() + grace_ms;
}

static void kill_now(struct job *job)
{
    job_signal_all(job, SIGKILL);
    job->killed = 1;
    job->t_kill = 0;
    job->t_giveup = now_ms() + GIVEUP_MS;
}

void job_fail(struct job *job, enum end_reason why, int code, const char *fmt, ...)
{
    if (job->reason != END_NONE) return;
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    output_report(job, "%s", line);
    job->reason = why;
    job->exit_code = code;
    job_end(job, SIGTERM, FAIL_GRACE_MS);
}

static struct rank *find_pid(struct job *job, pid_t pid)
{
    for (int i = 0; i < job->size; i++)
        if (job->ranks[i].pid == pid && job->ranks[i].host < 0) return &job->ranks[i];
    return NULL;
}

/* Everything the dead rank wrote is already in its socket and pipes: read it
 * before judging, so that an abort or fin sent just before exit counts and
 * the rank's last words come out before the report. */
static void drain(struct job *job, struct rank *r)
{
    for (int k = 0; k < 64 && kvs_read(job, r); k++) {}
    for (int s = 0; s < 2; s++)
        if (r->pipe[s] >= 0) output_read(job, r, s, 1);
}

static void describe(const struct job *job, const struct rank *r, int code, char *out, size_t len)
{
    char how[160];
    if (WIFSIGNALED(r->status)) {
        int sig = WTERMSIG(r->status);
        snprintf(how, sizeof how, "was killed by signal %d (%s)%s", sig, strsignal(sig),
                 WCOREDUMP(r->status) ? " and dumped core" : "");
    } else {
        snprintf(how, sizeof how, "exited with code %d", WEXITSTATUS(r->status));
    }
    const char *when = "";
    if (WIFSIGNALED(r->status))
        when = "";
    else if (r->connected && !r->finalized)
        when = " before MPI_Finalize";
    else if (r->finalized && code != 0)
        when = " after MPI_Finalize";
    char where[300] = "";
    if (r->host >= 0) snprintf(where, sizeof where, " on %.256s", job->opt->hosts[r->host].name);
    int others = job->alive, n;
    if (others > 1)
        n = snprintf(out, len, "mpiexec: rank %d (pid %ld%s) %s%s; ending the other %d ranks",
                     r->rank, (long)r->pid, where, how, when, others);
    else if (others == 1)
        n = snprintf(out, len, "mpiexec: rank %d (pid %ld%s) %s%s; ending the other rank", r->rank,
                     (long)r->pid, where, how, when);
    else
        n = snprintf(out, len, "mpiexec: rank %d (pid %ld%s) %s%s", r->rank, (long)r->pid, where,
                     how, when);
    /* A cut line says so rather than passing for the whole report. */
    if (n >= (int)len && len > 4) memcpy(out + len - 4, "...", 4);
}

static void judge(struct job *job, struct rank **batch, size_t nb, int running);

void job_reap(struct job *job)
{
    int running = job->reason == END_NONE;
    struct rank **batch = NULL;
    size_t nb = 0, cap = 0;
    for (;;) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid < 0 && errno == EINTR) continue;
        if (pid <= 0) break;
        struct rank *r = find_pid(job, pid);
        if (!r && remote_reaped(job, pid, st)) continue;
        if (!r || r->reaped) continue;
        drain(job, r);
        r->reaped = 1;
        r->status = st;
        job->alive--;
        if (r->rank == 0) relay_stop(job);
        if (nb == cap) {
            cap = cap ? 2 * cap : 16;
            batch = xrealloc(batch, cap * sizeof *batch);
        }
        batch[nb++] = r;
    }
    judge(job, batch, nb, running);
    free(batch);
}

/* All of the batch died before any teardown signal of ours. */
static void judge(struct job *job, struct rank **batch, size_t nb, int running)
{
    int start_teardown = 0;
    for (size_t i = 0; running && i < nb; i++) {
        struct rank *r = batch[i];
        if (r->aborted || r->exec_errno) continue; /* reported when the message arrived */
        int code = WIFSIGNALED(r->status) ? 128 + WTERMSIG(r->status) : WEXITSTATUS(r->status);
        if (code == 0 && !(r->connected && !r->finalized)) continue;
        int eff = code ? code : 1;
        /* A rank killed by SIGPIPE after our own reader went away (mpiexec
         * ... | head) ends the job as in a shell pipeline: without a report. */
        int quiet = WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGPIPE && output_broken(job);
        if (job->reason == END_NONE) {
            char line[400];
            describe(job, r, code, line, sizeof line);
            if (!quiet) output_report(job, "%s", line);
            job->reason = END_FAILED;
            job->exit_code = eff;
            start_teardown = 1;
        } else if (job->reason == END_FAILED && eff > job->exit_code) {
            job->exit_code = eff;
        }
    }
    if (start_teardown) job_end(job, SIGTERM, FAIL_GRACE_MS);
    if (nb > 0) kvs_check_fence(job);
}

void job_remote_exit(struct job *job, struct rank *r, pid_t pid, int st)
{
    int running = job->reason == END_NONE;
    r->pid = pid;
    r->reaped = 1;
    r->status = st;
    job->alive--;
    if (r->rank == 0) relay_stop(job);
    judge(job, &r, 1, running);
}

void job_forget(struct job *job, struct rank *r)
{
    if (r->reaped) return;
    r->reaped = 1;
    r->status = 0;
    r->finalized = 1; /* its end was reported with its host's */
    r->line[0].eof = r->line[1].eof = 1;
    job->alive--;
    kvs_check_fence(job);
}

static void on_interrupt(struct job *job, int sig, int count)
{
    if (job->reason == END_SIGNAL || count > 1 || (job->reason != END_NONE && sig == SIGINT)) {
        if (!job->killed && job->alive > 0) {
            output_report(job, "mpiexec: SIG%s again; killing the remaining %d rank%s",
                          sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", job->alive,
                          job->alive == 1 ? "" : "s");
            kill_now(job);
        }
        if (job->reason == END_NONE) {
            job->reason = END_SIGNAL;
            job->exit_code = 128 + sig;
        }
        return;
    }
    if (job->reason != END_NONE) return; /* already ending for another reason */
    output_report(job, "mpiexec: got SIG%s; passing it to the %d running rank%s",
                  sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", job->alive,
                  job->alive == 1 ? "" : "s");
    job->reason = END_SIGNAL;
    job->exit_code = 128 + sig;
    job_end(job, sig, SIGNAL_GRACE_MS);
}

/* The signals that arrived since the last call; SIGCHLD is handled by the
 * loop itself. */
void job_signals(struct job *job)
{
    static const int ending[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        int n = signals_take(ending[i]);
        if (n) on_interrupt(job, ending[i], n);
    }
    if (signals_take(SIGTSTP)) {
        /* Ctrl-Z: stop the ranks, then ourselves; SIGCONT resumes them. */
        job_signal_all(job, SIGTSTP);
        raise(SIGSTOP);
    }
    if (signals_take(SIGCONT)) job_signal_all(job, SIGCONT);
}

void job_deadlines(struct job *job)
{
    int64_t now = now_ms();
    if (job->reason == END_NONE && job->t_timeout && now >= job->t_timeout) {
        output_report(job, "mpiexec: job exceeded the timeout of %s s; ending it",
                      job->opt->timeout_text ? job->opt->timeout_text : "?");
        job->reason = END_TIMEOUT;
        job->exit_code = 124;
        job_end(job, SIGTERM, FAIL_GRACE_MS);
    }
    if (job->t_kill && now >= job->t_kill && !job->killed && job->alive > 0) kill_now(job);
}
