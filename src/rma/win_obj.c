/* The window objects: their handles, their error handler, their labels. */
#include <stdarg.h>
#include <stdio.h>

#include "core/errhandler.h"
#include "core/errors.h"
#include "rma/win.h"

struct tern_objtab tern_win_table = {.kind = TERN_KIND_WIN};

int tern_win_raise(struct tern_win *w, int code)
{
    return tern_err_raise_win(w ? w->errh : &tern_errh_fatal, w ? w->handle : MPI_WIN_NULL, code);
}

int tern_win_err(struct tern_win *w, int errclass, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tern_win_raise(w, tern_err_make(errclass, "%s", msg));
}

const char *tern_win_label(const struct tern_win *w, char *buf, int len)
{
    if (w->name[0])
        snprintf(buf, (size_t)len, "window \"%s\"", w->name);
    else
        snprintf(buf, (size_t)len, "window 0x%x", (unsigned)w->handle);
    return buf;
}

const char *tern_win_name(const struct tern_win *w)
{
    /* Messages are made under the library lock: one buffer serves. */
    static char buf[MPI_MAX_OBJECT_NAME + 16];
    return tern_win_label(w, buf, sizeof buf);
}
