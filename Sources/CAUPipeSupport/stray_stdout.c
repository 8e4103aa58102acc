#define _GNU_SOURCE
#include "aupipe_stray_stdout.h"
#include <stdio.h>
#include <stdio_ext.h>
#include <unistd.h>

size_t aupipe_divert_stray_stdout(void) {
    size_t pending = __fpending(stdout);
    if (!pending) return 0;
    fflush(stderr);
    int saved = dup(1);
    if (saved < 0 || dup2(2, 1) < 0) {
        /* Cannot point descriptor 1 elsewhere: drop the text rather than corrupt the audio. */
        if (saved >= 0) close(saved);
        __fpurge(stdout);
        return pending;
    }
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    return pending;
}
