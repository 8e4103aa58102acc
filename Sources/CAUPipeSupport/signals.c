#include "aupipe_support.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int signo) { stop_signal = signo; }

void aupipe_install_signal_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: read() returns EINTR and the loop stops reading */
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int aupipe_stop_signal(void) { return stop_signal; }

void aupipe_request_stop(int signo) { stop_signal = signo; }
