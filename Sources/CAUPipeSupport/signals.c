#include "aupipe_support.h"
#include <signal.h>
#include <pthread.h>
#include <string.h>

static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int signo) { stop_signal = signo; }

/* A parent may have left signals blocked (a test runner's thread, a supervisor): the mask is
   inherited across exec. Unblock the ones aupipe handles, or they would stay pending forever. */
static void unblock(int signo) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void aupipe_install_signal_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: read() returns EINTR and the loop stops reading */
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    unblock(SIGINT);
    unblock(SIGTERM);
}

int aupipe_stop_signal(void) { return stop_signal; }

static volatile sig_atomic_t user_counts[3];

static void on_user(int signo) { user_counts[signo == SIGUSR1 ? 1 : 2]++; }

int aupipe_count_user_signal(int which) {
    if (which != 1 && which != 2) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_user;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART; /* a toggle must not cut a read or write short */
    int signo = which == 1 ? SIGUSR1 : SIGUSR2;
    if (sigaction(signo, &action, NULL) != 0) return -1;
    unblock(signo);
    return 0;
}

unsigned long aupipe_user_signal_count(int which) {
    return (which == 1 || which == 2) ? (unsigned long)user_counts[which] : 0;
}

void aupipe_request_stop(int signo) { stop_signal = signo; }
