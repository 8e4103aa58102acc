#define _GNU_SOURCE
#include "aupipe_alsa.h"
#include "aupipe_libraries.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ALSA's types, opaque here, and the constants used (alsa/pcm.h; stable since ALSA 1.0). */
typedef struct snd_pcm snd_pcm_t;
typedef struct snd_pcm_hw_params snd_pcm_hw_params_t;
typedef struct snd_pcm_sw_params snd_pcm_sw_params_t;
typedef unsigned long snd_pcm_uframes_t;
typedef long snd_pcm_sframes_t;
enum { SND_PCM_STREAM_PLAYBACK = 0, SND_PCM_STREAM_CAPTURE = 1, SND_PCM_NONBLOCK = 1, SND_PCM_ACCESS_RW_INTERLEAVED = 3 };

/* Every call aupipe makes, bound by name. */
#define ALSA_CALLS(X) \
    X(int, snd_pcm_open, (snd_pcm_t **, const char *, int, int)) \
    X(int, snd_pcm_close, (snd_pcm_t *)) \
    X(int, snd_pcm_hw_params_malloc, (snd_pcm_hw_params_t **)) \
    X(void, snd_pcm_hw_params_free, (snd_pcm_hw_params_t *)) \
    X(int, snd_pcm_hw_params_any, (snd_pcm_t *, snd_pcm_hw_params_t *)) \
    X(int, snd_pcm_hw_params_set_access, (snd_pcm_t *, snd_pcm_hw_params_t *, int)) \
    X(int, snd_pcm_hw_params_set_format, (snd_pcm_t *, snd_pcm_hw_params_t *, int)) \
    X(int, snd_pcm_hw_params_set_channels, (snd_pcm_t *, snd_pcm_hw_params_t *, unsigned)) \
    X(int, snd_pcm_hw_params_set_rate, (snd_pcm_t *, snd_pcm_hw_params_t *, unsigned, int)) \
    X(int, snd_pcm_hw_params_set_period_time_near, (snd_pcm_t *, snd_pcm_hw_params_t *, unsigned *, int *)) \
    X(int, snd_pcm_hw_params_set_buffer_time_near, (snd_pcm_t *, snd_pcm_hw_params_t *, unsigned *, int *)) \
    X(int, snd_pcm_hw_params, (snd_pcm_t *, snd_pcm_hw_params_t *)) \
    X(int, snd_pcm_hw_params_get_period_size, (const snd_pcm_hw_params_t *, snd_pcm_uframes_t *, int *)) \
    X(int, snd_pcm_hw_params_get_buffer_size, (const snd_pcm_hw_params_t *, snd_pcm_uframes_t *)) \
    X(int, snd_pcm_hw_params_get_period_time, (const snd_pcm_hw_params_t *, unsigned *, int *)) \
    X(int, snd_pcm_hw_params_get_buffer_time, (const snd_pcm_hw_params_t *, unsigned *, int *)) \
    X(int, snd_pcm_sw_params_malloc, (snd_pcm_sw_params_t **)) \
    X(void, snd_pcm_sw_params_free, (snd_pcm_sw_params_t *)) \
    X(int, snd_pcm_sw_params_current, (snd_pcm_t *, snd_pcm_sw_params_t *)) \
    X(int, snd_pcm_sw_params_set_start_threshold, (snd_pcm_t *, snd_pcm_sw_params_t *, snd_pcm_uframes_t)) \
    X(int, snd_pcm_sw_params, (snd_pcm_t *, snd_pcm_sw_params_t *)) \
    X(snd_pcm_sframes_t, snd_pcm_readi, (snd_pcm_t *, void *, snd_pcm_uframes_t)) \
    X(snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t *, const void *, snd_pcm_uframes_t)) \
    X(int, snd_pcm_recover, (snd_pcm_t *, int, int)) \
    X(int, snd_pcm_start, (snd_pcm_t *)) \
    X(int, snd_pcm_drain, (snd_pcm_t *)) \
    X(int, snd_pcm_nonblock, (snd_pcm_t *, int)) \
    X(int, snd_pcm_delay, (snd_pcm_t *, snd_pcm_sframes_t *)) \
    X(int, snd_pcm_poll_descriptors_count, (snd_pcm_t *)) \
    X(int, snd_pcm_poll_descriptors, (snd_pcm_t *, struct pollfd *, unsigned)) \
    X(int, snd_pcm_poll_descriptors_revents, (snd_pcm_t *, struct pollfd *, unsigned, unsigned short *)) \
    X(const char *, snd_strerror, (int)) \
    X(int, snd_lib_error_set_handler, (void (*)(const char *, int, const char *, int, const char *, ...)))

#define DECLARE(ret, name, args) static ret (*p_##name) args;
ALSA_CALLS(DECLARE)

static void *handle;

/* ALSA prints its own errors on stderr ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown
   PCM x"); aupipe reports every failure in one line of its own instead. */
static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static char load_error[512];

int aupipe_alsa_load(const char *library) {
    if (handle) return 0;
    const char *name = library ? library : "libasound.so.2";
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return -1;
    }
#define BIND(ret, fn, args) \
    if (!(p_##fn = (ret (*) args)dlsym(h, #fn))) { \
        snprintf(load_error, sizeof load_error, "%s has no %s (ALSA older than 1.0.16?)", name, #fn); \
        dlclose(h); \
        return -1; \
    }
    ALSA_CALLS(BIND)
    p_snd_lib_error_set_handler(quiet);
    handle = h;
    return 0;
}

const char *aupipe_alsa_load_error(void) { return load_error; }

const char *aupipe_alsa_version(void) {
    if (!handle) return NULL;
    const char *(*version)(void) = (const char *(*)(void))dlsym(handle, "snd_asoundlib_version");
    return version ? version() : NULL;
}

const char *aupipe_alsa_strerror(int err) {
    return handle ? p_snd_strerror(err) : strerror(err < 0 ? -err : err);
}

struct aupipe_pcm { snd_pcm_t *pcm; };

static int configure(snd_pcm_t *pcm, aupipe_pcm_config *c, const char **step) {
    snd_pcm_hw_params_t *hw = NULL;
    int err = p_snd_pcm_hw_params_malloc(&hw);
    if (err < 0) { *step = "hw_params"; return err; }
    int dir = 0;
#define TRY(call, name) if ((err = (call)) < 0) { *step = name; goto out; }
    TRY(p_snd_pcm_hw_params_any(pcm, hw), "hw_params")
    TRY(p_snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "access")
    TRY(p_snd_pcm_hw_params_set_format(pcm, hw, c->format), "format")
    TRY(p_snd_pcm_hw_params_set_channels(pcm, hw, c->channels), "channels")
    TRY(p_snd_pcm_hw_params_set_rate(pcm, hw, c->rate, 0), "rate")
    /* The buffer first: the period is then chosen to fit in it. */
    TRY(p_snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &c->buffer_us, &dir), "buffer")
    dir = 0;
    TRY(p_snd_pcm_hw_params_set_period_time_near(pcm, hw, &c->period_us, &dir), "period")
    TRY(p_snd_pcm_hw_params(pcm, hw), "hw_params")
    TRY(p_snd_pcm_hw_params_get_period_size(hw, &c->period_frames, &dir), "hw_params")
    TRY(p_snd_pcm_hw_params_get_buffer_size(hw, &c->buffer_frames), "hw_params")
    p_snd_pcm_hw_params_get_period_time(hw, &c->period_us, &dir);
    p_snd_pcm_hw_params_get_buffer_time(hw, &c->buffer_us, &dir);
    if (!c->capture) {
        snd_pcm_sw_params_t *sw = NULL;
        if ((err = p_snd_pcm_sw_params_malloc(&sw)) < 0) { *step = "sw_params"; goto out; }
        unsigned long threshold = c->start_threshold ? c->start_threshold
            : (c->buffer_frames > c->period_frames ? c->buffer_frames - c->period_frames : c->buffer_frames);
        if ((err = p_snd_pcm_sw_params_current(pcm, sw)) >= 0 &&
            (err = p_snd_pcm_sw_params_set_start_threshold(pcm, sw, threshold)) >= 0)
            err = p_snd_pcm_sw_params(pcm, sw);
        p_snd_pcm_sw_params_free(sw);
        if (err < 0) { *step = "sw_params"; goto out; }
        c->start_threshold = threshold;
    }
out:
    p_snd_pcm_hw_params_free(hw);
    return err;
}

int aupipe_pcm_open(aupipe_pcm **out, const char *name, aupipe_pcm_config *c, const char **step) {
    *out = NULL;
    if (!handle) { *step = "load"; return -ENOSYS; }
    snd_pcm_t *pcm = NULL;
    int err = p_snd_pcm_open(&pcm, name, c->capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
    if (err < 0) { *step = "open"; return err; }
    if ((err = configure(pcm, c, step)) < 0) { p_snd_pcm_close(pcm); return err; }
    aupipe_pcm *p = malloc(sizeof *p);
    if (!p) { p_snd_pcm_close(pcm); *step = "open"; return -ENOMEM; }
    p->pcm = pcm;
    *out = p;
    return 0;
}

void aupipe_pcm_close(aupipe_pcm *p) {
    if (!p) return;
    p_snd_pcm_close(p->pcm);
    free(p);
}

long aupipe_pcm_readi(aupipe_pcm *p, void *buffer, unsigned long frames) { return p_snd_pcm_readi(p->pcm, buffer, frames); }
long aupipe_pcm_writei(aupipe_pcm *p, const void *buffer, unsigned long frames) { return p_snd_pcm_writei(p->pcm, buffer, frames); }
int aupipe_pcm_recover(aupipe_pcm *p, int err) { return p_snd_pcm_recover(p->pcm, err, 1); }
int aupipe_pcm_start(aupipe_pcm *p) { return p_snd_pcm_start(p->pcm); }

int aupipe_pcm_drain(aupipe_pcm *p) {
    p_snd_pcm_nonblock(p->pcm, 0);
    return p_snd_pcm_drain(p->pcm);
}

int aupipe_pcm_delay(aupipe_pcm *p, long *frames) {
    snd_pcm_sframes_t d = 0;
    int err = p_snd_pcm_delay(p->pcm, &d);
    *frames = d;
    return err;
}

int aupipe_pcm_poll_count(aupipe_pcm *p) { return p_snd_pcm_poll_descriptors_count(p->pcm); }
int aupipe_pcm_poll_fill(aupipe_pcm *p, struct pollfd *fds, unsigned space) { return p_snd_pcm_poll_descriptors(p->pcm, fds, space); }
int aupipe_pcm_poll_revents(aupipe_pcm *p, struct pollfd *fds, unsigned nfds, unsigned short *revents) {
    return p_snd_pcm_poll_descriptors_revents(p->pcm, fds, nfds, revents);
}
