/* Results: a text table printed as rows arrive, or one JSON object per
 * benchmark.  Only rank 0 prints. */
#include "tb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

/* "name(unit)", or "name" without a unit. */
static void heading(const struct tb_col *col, char *head, size_t n)
{
    if (col->unit[0])
        snprintf(head, n, "%s(%s)", col->name, col->unit);
    else
        snprintf(head, n, "%s", col->name);
}

static void text_cell(const struct tb_col *col, double v, int first)
{
    char head[48];
    heading(col, head, sizeof head);
    int w = (int)strlen(head) > 12 ? (int)strlen(head) : 12;
    if (first)
        printf("%-*.*f", w + 2, col->prec, v);
    else
        printf(" %*.*f", w, col->prec, v);
}

void tb_columns(struct tb_ctx *c, int n, const struct tb_col *cols)
{
    c->ncols = n < TB_MAX_COLS ? n : TB_MAX_COLS;
    memcpy(c->cols, cols, (size_t)c->ncols * sizeof *cols);
    if (c->rank || c->o->json) return;
    if (c->note[0]) printf("# %s\n", c->note);
    for (int i = 0; i < c->ncols; i++) {
        char head[48];
        heading(&c->cols[i], head, sizeof head);
        int w = (int)strlen(head) > 12 ? (int)strlen(head) : 12;
        if (i == 0)
            printf("# %-*s", w, head);
        else
            printf(" %*s", w, head);
    }
    printf("\n");
    fflush(stdout);
}

void tb_row(struct tb_ctx *c, const double *v)
{
    if (c->rank) return;
    if (c->o->json) {
        if (c->nrows == c->caprows) {
            int ncap = c->caprows ? 2 * c->caprows : 32;
            double *p = realloc(c->rows, (size_t)ncap * TB_MAX_COLS * sizeof *p);
            if (!p) {
                tb_fail(c, "out of memory for results");
                return;
            }
            c->rows = p;
            c->caprows = ncap;
        }
        memcpy(c->rows + (size_t)c->nrows * TB_MAX_COLS, v, (size_t)c->ncols * sizeof *v);
        c->nrows++;
        return;
    }
    for (int i = 0; i < c->ncols; i++) text_cell(&c->cols[i], v[i], i == 0);
    printf("\n");
    fflush(stdout);
}

static const char *buffers(const struct tb_opts *o)
{
    return o->fresh ? "fresh (cache-cold)" : "reused (cache-warm)";
}

/* The element type of this benchmark's reduction, or NULL when it reduces
 * nothing (the collective families carry it: OMB's -T). */
static const char *reduction_type(const struct tb_ctx *c)
{
    static const char *const names[] = {"MPI_CHAR", "MPI_INT", "MPI_FLOAT"};
    const char *f = c->b->family;
    if (strcmp(f, "coll") && strcmp(f, "nbc")) return NULL;
    return names[c->o->rtype];
}

static void iter_text(const struct tb_opts *o, char *buf, size_t n)
{
    if (o->iters)
        snprintf(buf, n, "%d", o->iters);
    else
        snprintf(buf, n, "by size");
}

void tb_print_begin(const struct tb_ctx *c, const char *library)
{
    if (c->rank || c->o->json) return;
    char it[32], wu[32];
    iter_text(c->o, it, sizeof it);
    if (c->o->warmup >= 0)
        snprintf(wu, sizeof wu, "%d", c->o->warmup);
    else
        snprintf(wu, sizeof wu, "by size");
    printf("# tern-bench %s: %s\n", c->b->name, c->b->what);
    printf("# library: %s\n", library);
    printf("# ranks: %d, iterations: %s, warm-up: %s, buffers: %s, validation: %s", c->size, it, wu,
           buffers(c->o), c->o->validate ? "on" : "off");
    if (reduction_type(c)) printf(", reductions: %s", reduction_type(c));
    printf("\n");
    fflush(stdout);
}

void tb_print_end(const struct tb_ctx *c, const char *library)
{
    if (c->rank) return;
    static const char *status[] = {"ok", "not supported by this MPI", "failed"};
    if (!c->o->json) {
        if (c->status == TB_OK)
            printf("# %s: ok\n\n", c->b->name);
        else if (c->have_bad_size)
            printf("# %s: %s at size %zu B: %s\n\n", c->b->name, status[c->status], c->bad_size,
                   c->err);
        else
            printf("# %s: %s: %s\n\n", c->b->name, status[c->status], c->err);
        fflush(stdout);
        return;
    }
    printf("{\"benchmark\": ");
    json_string(c->b->name);
    printf(", \"family\": ");
    json_string(c->b->family);
    printf(", \"what\": ");
    json_string(c->b->what);
    printf(", \"library\": ");
    json_string(library);
    printf(", \"ranks\": %d, \"iterations\": %d, \"warmup\": %d, \"window\": %d", c->size,
           c->o->iters, c->o->warmup, c->o->window);
    printf(", \"buffers\": \"%s\", \"validate\": %s", c->o->fresh ? "fresh" : "reused",
           c->o->validate ? "true" : "false");
    if (reduction_type(c)) printf(", \"reduction_type\": \"%s\"", reduction_type(c));
    printf(", \"status\": \"%s\"", c->status == TB_OK            ? "ok"
                                   : c->status == TB_UNSUPPORTED ? "unsupported"
                                                                 : "failed");
    if (c->status != TB_OK) {
        printf(", \"error\": ");
        json_string(c->err);
        if (c->have_bad_size) printf(", \"failed_size\": %zu", c->bad_size);
    }
    if (c->note[0]) {
        printf(", \"note\": ");
        json_string(c->note);
    }
    printf(", \"columns\": [");
    for (int i = 0; i < c->ncols; i++) {
        printf("%s{\"name\": ", i ? ", " : "");
        json_string(c->cols[i].name);
        printf(", \"unit\": ");
        json_string(c->cols[i].unit);
        printf(", \"better\": \"%s\"}", c->cols[i].better > 0   ? "higher"
                                        : c->cols[i].better < 0 ? "lower"
                                                                : "");
    }
    printf("], \"rows\": [");
    for (int r = 0; r < c->nrows; r++) {
        printf("%s[", r ? ", " : "");
        for (int i = 0; i < c->ncols; i++) {
            double v = c->rows[(size_t)r * TB_MAX_COLS + i];
            if (isfinite(v))
                printf("%s%.10g", i ? ", " : "", v);
            else
                printf("%snull", i ? ", " : "");
        }
        printf("]");
    }
    printf("]}\n");
    fflush(stdout);
}
