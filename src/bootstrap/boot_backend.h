/* A process manager other than Tern's mpiexec that starts ranks and serves
 * their key-value exchange: Slurm's PMI2 (boot_pmi2.c) or PMIx
 * (boot_pmix.c), each built when CMake finds its library (TERN_WITH_PMI2,
 * TERN_WITH_PMIX).  boot.c picks one from the environment and calls it
 * under its lock, after checking keys and values, so a backend neither
 * locks nor validates. */
#ifndef TERN_BOOTSTRAP_BOOT_BACKEND_H
#define TERN_BOOTSTRAP_BOOT_BACKEND_H

#include <stddef.h>

#include "bootstrap/boot.h"

struct tern_boot_backend {
    const char *name;        /* "PMI2", "PMIx": in messages */
    const char *srun_option; /* what asks srun for it: "--mpi=pmi2" */
    /* 1 when the environment says this process manager started us. */
    int (*present)(void);
    /* The job's size as the environment gives it before init, or -1. */
    int (*env_size)(void);
    /* Connects; fills everything but 'singleton'.  0, or -1 with a message. */
    int (*init)(struct tern_boot_info *info);
    int (*put)(const char *key, const char *value);
    int (*get)(int owner, const char *key, char *value, size_t max); /* -1: absent */
    int (*fence)(void);
    int (*finalize)(void);
    /* Ends the whole job; may return, then the caller exits. */
    void (*abort)(int code, const char *msg);
};

#if defined(TERN_WITH_PMIX)
extern const struct tern_boot_backend tern_boot_pmix;
#endif
#if defined(TERN_WITH_PMI2)
extern const struct tern_boot_backend tern_boot_pmi2;
#endif

/* tern_boot_take_shm_fd's work under a backend (boot_shm.c). */
int tern_boot_shm_share(int first, int me);

/* Turns s into a word the key-value exchange and segment names accept. */
void tern_boot_to_word(char *s);

#endif
