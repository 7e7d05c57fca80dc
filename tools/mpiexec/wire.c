/* The protocol between mpiexec and its proxies, over one TCP connection from
 * each proxy to its parent in the launch tree (mpiexec or the proxy above
 * it, which passes frames on unchanged).  Frames are lines of words; "o" frames (a rank's output, upward)
 * and "i" frames (its stdin, downward) carry a payload of raw bytes after
 * their line:
 *
 *   o <rank> <stream> <length>\n<length bytes>
 *   i <rank> <length>\n<length bytes>
 *
 * Words that may hold anything (environment values, arguments, paths) are
 * percent-escaped: every byte outside '!'..'~' and '%' itself becomes %XX.
 * The frames themselves are described in remote.c and proxy.c. */
#include "mpiexec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

char *wire_escape(const char *s)
{
    size_t n = strlen(s);
    char *out = xmalloc(3 * n + 1), *p = out;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c > '~' || c == '%')
            p += sprintf(p, "%%%02X", c);
        else
            *p++ = (char)c;
    }
    *p = '\0';
    return out;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int wire_unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        int hi = hexval(r[1]), lo = hi < 0 ? -1 : hexval(r[2]);
        if (lo < 0 || (hi == 0 && lo == 0)) return -1;
        *w++ = (char)(hi * 16 + lo);
        r += 2;
    }
    *w = '\0';
    return 0;
}

void wire_put(struct buf *b, const char *fmt, ...)
{
    char line[KVS_MAX_LINE + 128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof line - 1) { /* long escaped words: format again, exactly */
        char *big = xmalloc((size_t)n + 2);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        big[n] = '\n';
        buf_append(b, big, (size_t)n + 1);
        free(big);
        return;
    }
    line[n++] = '\n';
    buf_append(b, line, (size_t)n);
}

void wire_put_data(struct buf *b, int rank, int stream, const char *p, size_t n)
{
    wire_put(b, "o %d %d %zu", rank, stream, n);
    buf_append(b, p, n);
}

void wire_put_input(struct buf *b, int rank, const char *p, size_t n)
{
    wire_put(b, "i %d %zu", rank, n);
    buf_append(b, p, n);
}

char *wire_next(struct buf *b, const char **data, size_t *n, size_t *frame_len)
{
    char *p = b->data + b->head;
    char *nl = b->len ? memchr(p, '\n', b->len) : NULL;
    if (!nl) return NULL;
    size_t line_len = (size_t)(nl - p) + 1;
    *data = NULL;
    *n = 0;
    int rank, stream;
    size_t len;
    if ((p[0] == 'o' && p[1] == ' ' && sscanf(p, "o %d %d %zu", &rank, &stream, &len) == 3) ||
        (p[0] == 'i' && p[1] == ' ' && sscanf(p, "i %d %zu", &rank, &len) == 2)) {
        if (b->len - line_len < len) return NULL;
        *data = nl + 1;
        *n = len;
    }
    *nl = '\0';
    *frame_len = line_len + *n;
    return p;
}

int wire_send(int fd, struct buf *out)
{
    while (out->len > 0) {
        ssize_t w = send(fd, buf_ptr(out), out->len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            buf_consume(out, (size_t)w);
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return -1;
    }
    return 0;
}

void wire_forward(struct buf *b, const char *line, const char *data, size_t n)
{
    buf_append(b, line, strlen(line));
    buf_append(b, "\n", 1);
    if (n) buf_append(b, data, n);
}
