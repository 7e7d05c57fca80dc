/* The data objects of MPICH's Fortran library and the conversions of
 * f77_runtime.h. */
#include "fortran/f77_runtime.h"

#include <pthread.h>
#include <string.h>

/* The common blocks, with the sizes MPICH's mpif.h gives them.  A program's
 * own (COMMON) copy takes their place at load time; the bindings compare
 * addresses through the GOT, so they see whichever copy won. */
#define TERN_F_COMMON __attribute__((aligned(32))) /* as gfortran aligns a COMMON */
TERN_F_COMMON struct tern_f_priv1 mpipriv1_;
TERN_F_COMMON struct tern_f_priv2 mpipriv2_;
TERN_F_COMMON struct tern_f_privc mpiprivc_;
TERN_F_COMMON MPI_Fint mpifcmb5_;
TERN_F_COMMON MPI_Fint mpifcmb9_;

/* The addresses MPICH's library publishes for C code that receives Fortran
 * arguments (MPI_F_ERRCODES_IGNORE and friends, MPI-4.1 19.3.4). */
void *MPIR_F_MPI_BOTTOM = &mpipriv1_.bottom;
void *MPIR_F_MPI_IN_PLACE = &mpipriv1_.in_place;
void *MPIR_F_MPI_UNWEIGHTED = &mpifcmb5_;
void *MPIR_F_MPI_WEIGHTS_EMPTY = &mpifcmb9_;
MPI_Fint *MPI_F_ERRCODES_IGNORE = &mpipriv2_.errcodes_ignore;
char *MPI_F_ARGV_NULL = &mpiprivc_.argv_null;
char *MPI_F_ARGVS_NULL = &mpiprivc_.argvs_null;
/* MPICH's flag for "the Fortran sentinels are not set up yet"; these are
 * static, so it is never set. */
int MPIR_F_NeedInit = 0;

char *tern_f_str_in(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ') len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

char *tern_f_str_out_buf(size_t len)
{
    char *c = malloc(len + MPI_MAX_LIBRARY_VERSION_STRING + 1);
    if (c) c[0] = '\0';
    return c;
}

void tern_f_str_out(char *f, size_t len, char *c)
{
    if (c == NULL) return;
    size_t n = strnlen(c, len);
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
    free(c);
}

/* Index 0 is MPI_FILE_NULL; an entry is reused after its file is closed. */
static pthread_mutex_t files_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_File *files;
static MPI_Fint nfiles;

MPI_File tern_f_file_f2c(MPI_Fint f)
{
    pthread_mutex_lock(&files_lock);
    MPI_File c = (f > 0 && f < nfiles) ? files[f] : MPI_FILE_NULL;
    pthread_mutex_unlock(&files_lock);
    return c;
}

MPI_Fint tern_f_file_c2f(MPI_File c)
{
    if (c == MPI_FILE_NULL) return 0;
    MPI_Fint f, free_slot = 0;
    pthread_mutex_lock(&files_lock);
    for (f = 1; f < nfiles; f++) {
        if (files[f] == c) break;
        if (files[f] == MPI_FILE_NULL && free_slot == 0) free_slot = f;
    }
    if (f >= nfiles) { /* not there (the table may still be empty) */
        if (free_slot) {
            f = free_slot;
        } else {
            MPI_File *grown = realloc(files, (size_t)(nfiles + 16) * sizeof *files);
            if (grown == NULL) {
                pthread_mutex_unlock(&files_lock);
                return 0;
            }
            files = grown;
            memset(files + nfiles, 0, 16 * sizeof *files);
            f = nfiles ? nfiles : 1;
            nfiles += 16;
        }
        files[f] = c;
    }
    pthread_mutex_unlock(&files_lock);
    return f;
}
