#ifndef AUPIPE_ALSA_H
#define AUPIPE_ALSA_H
/* ALSA PCM access for --capture, --monitor and --play, with libasound loaded at run time
   (dlopen), so that aupipe builds and runs where ALSA is absent. Only the calls aupipe makes
   are bound; their prototypes are declared here from ALSA's stable ABI (libasound.so.2), so no
   ALSA headers are needed to build.

   Return values follow ALSA: >= 0 success, a negative errno on failure
   (aupipe_alsa_strerror turns it into text). */
#include <poll.h>

/* Loads `library` (NULL: "libasound.so.2") and binds every call. 0 on success; -1 when the
   library or a symbol is missing, with the reason in aupipe_alsa_load_error(). Idempotent. */
int aupipe_alsa_load(const char *library);
const char *aupipe_alsa_load_error(void);
const char *aupipe_alsa_strerror(int err);

/* An open PCM (snd_pcm_t *), opaque. */
typedef struct aupipe_pcm aupipe_pcm;

/* What aupipe_pcm_open asks for and what the device granted. Times are in microseconds. */
typedef struct {
    int capture;             /* 1 capture, 0 playback */
    int format;              /* snd_pcm_format_t: 2 S16_LE, 14 FLOAT_LE, ... */
    unsigned channels;
    unsigned rate;           /* exact: no rate near */
    unsigned period_us;      /* asked, then granted */
    unsigned buffer_us;      /* asked, then granted */
    unsigned long period_frames; /* granted */
    unsigned long buffer_frames; /* granted */
    unsigned long start_threshold; /* playback: frames queued before it starts (0: a whole buffer minus a period) */
} aupipe_pcm_config;

/* Opens `name` non-blocking and sets it up (interleaved read/write access, the format,
   channels, rate, period and buffer). On failure returns the ALSA error and names the step in
   *failed_step ("open", "format", "channels", "rate", "period", "buffer", "hw_params",
   "sw_params"). */
int aupipe_pcm_open(aupipe_pcm **pcm, const char *name, aupipe_pcm_config *config, const char **failed_step);
void aupipe_pcm_close(aupipe_pcm *pcm);

/* Interleaved frames; a negative result is an ALSA error (-EAGAIN: nothing ready now,
   -EPIPE: overrun/underrun, -ESTRPIPE: suspended). */
long aupipe_pcm_readi(aupipe_pcm *pcm, void *buffer, unsigned long frames);
long aupipe_pcm_writei(aupipe_pcm *pcm, const void *buffer, unsigned long frames);
/* snd_pcm_recover, silent. */
int aupipe_pcm_recover(aupipe_pcm *pcm, int err);
int aupipe_pcm_start(aupipe_pcm *pcm);
/* Blocks until everything written has been played, then stops. */
int aupipe_pcm_drain(aupipe_pcm *pcm);
/* Frames between the application and the converter: for playback what is queued and not yet
   played, for capture what was captured and not yet read. */
int aupipe_pcm_delay(aupipe_pcm *pcm, long *frames);

/* The descriptors to poll for this PCM (at most `space`), and their events translated. */
int aupipe_pcm_poll_count(aupipe_pcm *pcm);
int aupipe_pcm_poll_fill(aupipe_pcm *pcm, struct pollfd *fds, unsigned space);
int aupipe_pcm_poll_revents(aupipe_pcm *pcm, struct pollfd *fds, unsigned nfds, unsigned short *revents);
#endif
