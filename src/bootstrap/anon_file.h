/* Shared-memory files that never have a name, and opening another
 * process's copy of one.
 *
 * No name means nothing to remove: the kernel frees the file with its last
 * descriptor, so however a job ends nothing is left in /dev/shm.  A process
 * that did not inherit the descriptor opens /proc/<pid>/fd/<n> of one that
 * holds it, which needs what reading that process's memory needs (the same
 * user, not made undumpable): the ranks of one job have that.
 *
 * Standard C and Linux calls only: tools/mpiexec compiles this file into the
 * launcher, which does not link the library. */
#ifndef TERN_BOOTSTRAP_ANON_FILE_H
#define TERN_BOOTSTRAP_ANON_FILE_H

/* An empty, close-on-exec file with no name: O_TMPFILE in /dev/shm, else a
 * memfd called memfd_name.  Returns the descriptor, or -1 with errno set by
 * memfd_create and *tmpfile_errno (when not NULL) by the O_TMPFILE open, so
 * that the caller can say why both failed. */
int tern_anon_file_create(const char *memfd_name, int *tmpfile_errno);

/* What tern_anon_file_open_peer returns when /proc/<pid>/fd/<fd> opens but
 * is not an unnamed regular file (errno is EINVAL then). */
#define TERN_ANON_FILE_NOT_UNNAMED (-2)

/* Opens, read-write and close-on-exec, the unnamed file that process pid
 * holds as descriptor fd.  Returns the descriptor; -1 with errno when the
 * open fails; TERN_ANON_FILE_NOT_UNNAMED when what opened is not such a
 * file.  path (when not NULL, of path_len bytes) receives the /proc path
 * for the caller's messages. */
int tern_anon_file_open_peer(long pid, int fd, char *path, unsigned path_len);

#endif
