/* "Did you mean": the valid name closest to a mistyped one, by edit distance
 * (insertions, deletions, substitutions and swaps of neighbours each cost 1).
 * A name that starts with the typed word counts as one edit away, so an
 * abbreviation such as --time finds --timeout. */
#include "mpiexec.h"

#include <string.h>

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 62 || lb > 62) return (size_t)-1;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[la][lb];
}

const char *suggest_nearest(const char *word, const char *const *names, size_t n)
{
    const char *best = n ? names[0] : "";
    size_t best_d = (size_t)-1;
    size_t lw = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, names[i]);
        if (lw >= 2 && strncmp(names[i], word, lw) == 0 && d > 1) d = 1;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}
