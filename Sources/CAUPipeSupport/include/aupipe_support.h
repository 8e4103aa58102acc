#ifndef AUPIPE_SUPPORT_H
#define AUPIPE_SUPPORT_H
/* Async-signal-safe bits aupipe needs from C. */

/* Installs SIGINT and SIGTERM handlers (without SA_RESTART, so a blocked read returns EINTR)
   that set a flag, and ignores SIGPIPE so that writing to a closed pipe returns EPIPE. */
void aupipe_install_signal_handlers(void);

/* 0 until SIGINT or SIGTERM arrived, then the signal number. */
int aupipe_stop_signal(void);

/* Sets the flag as if `signo` had arrived (for tests). */
void aupipe_request_stop(int signo);
#endif
