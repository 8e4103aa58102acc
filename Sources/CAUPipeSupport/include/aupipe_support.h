#ifndef AUPIPE_SUPPORT_H
#define AUPIPE_SUPPORT_H
/* Async-signal-safe bits aupipe needs from C. */

/* Installs SIGINT and SIGTERM handlers (without SA_RESTART, so a blocked read returns EINTR)
   that set a flag, ignores SIGPIPE so that writing to a closed pipe returns EPIPE, and counts
   SIGUSR1/SIGUSR2 (with SA_RESTART) instead of dying of them: only a unit that asks for them
   (`mute signal=`) reads the counts, for every other run they change nothing. */
void aupipe_install_signal_handlers(void);

/* 0 until SIGINT or SIGTERM arrived, then the signal number. */
int aupipe_stop_signal(void);

/* A descriptor that becomes readable when SIGINT or SIGTERM arrives (a self-pipe), so that a
   reader can poll it together with its input and never miss a stop that comes just before
   it blocks. -1 before aupipe_install_signal_handlers. */
int aupipe_stop_fd(void);

/* Occupies each of descriptors 0, 1 and 2 that is closed (`<&-`) with /dev/null, so that no
   descriptor aupipe opens later (its stop pipe, a side input, a FIFO) takes a standard number
   and is mistaken for stdin or stdout. Call it first. Returns the mask of those that were closed
   (bit 0: stdin, bit 1: stdout, bit 2: stderr). */
int aupipe_guard_standard_descriptors(void);

/* The mask aupipe_guard_standard_descriptors returned (0 before it ran). */
int aupipe_closed_standard_descriptors(void);

/* Makes sure SIGUSR1 (which = 1) or SIGUSR2 (which = 2) is counted, instead of dying of it
   (aupipe_install_signal_handlers already does so). Returns 0, or -1 for another `which`. */
int aupipe_count_user_signal(int which);

/* How many SIGUSR1 (1) or SIGUSR2 (2) have arrived since counting began. */
unsigned long aupipe_user_signal_count(int which);
#endif
