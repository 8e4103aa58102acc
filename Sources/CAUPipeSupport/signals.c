#define _GNU_SOURCE
#include "aupipe_support.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal = 0;
/* The self-pipe: the handler writes a byte, readers poll the read end with their input. */
static int stop_pipe[2] = {-1, -1};

static void on_stop(int signo) {
    stop_signal = signo;
    if (stop_pipe[1] >= 0) {
        char b = 1;
        ssize_t n = write(stop_pipe[1], &b, 1); /* async-signal-safe; a full pipe already says "stop" */
        (void)n;
    }
}

/* A parent may have left signals blocked (a test runner's thread, a supervisor): the mask is
   inherited across exec. Unblock the ones aupipe handles, or they would stay pending forever. */
static void unblock(int signo) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void on_user(int signo);
static int catch_user_signal(int signo);

void aupipe_install_signal_handlers(void) {
    if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) stop_pipe[0] = stop_pipe[1] = -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: a blocked call returns EINTR and the loop stops reading */
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    unblock(SIGINT);
    unblock(SIGTERM);
    /* SIGUSR1/SIGUSR2 are only counted (a unit such as `mute signal=` reads the counts): a
       run that does not listen to them must not die of one sent to every aupipe on the host.
       A handler, not SIG_IGN, so that a program aupipe might start gets the default back. */
    catch_user_signal(SIGUSR1);
    catch_user_signal(SIGUSR2);
}

int aupipe_stop_signal(void) { return stop_signal; }

static int closed_standard = 0;

int aupipe_guard_standard_descriptors(void) {
    /* 0 is opened write-only and 1 read-only, so that using them fails (EBADF) instead of
       reading an empty input or writing into nothing; stderr's messages go to /dev/null. */
    static const int modes[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) != -1) continue;
        closed_standard |= 1 << fd;
        int got = open("/dev/null", modes[fd]);
        if (got >= 0 && got != fd) { dup2(got, fd); close(got); }
    }
    return closed_standard;
}

int aupipe_closed_standard_descriptors(void) { return closed_standard; }

int aupipe_stop_fd(void) { return stop_pipe[0]; }

static volatile sig_atomic_t user_counts[3];

static void on_user(int signo) { user_counts[signo == SIGUSR1 ? 1 : 2]++; }

static int catch_user_signal(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_user;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART; /* a toggle must not cut a read or write short */
    if (sigaction(signo, &action, NULL) != 0) return -1;
    unblock(signo);
    return 0;
}

int aupipe_count_user_signal(int which) {
    if (which != 1 && which != 2) return -1;
    return catch_user_signal(which == 1 ? SIGUSR1 : SIGUSR2);
}

unsigned long aupipe_user_signal_count(int which) {
    return (which == 1 || which == 2) ? (unsigned long)user_counts[which] : 0;
}
