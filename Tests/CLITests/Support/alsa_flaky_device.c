/* A sound device that goes away and comes back, for the device-loss tests, as an ALSA external
   (ioplug) plugin. It runs on the clock as a card does (a timerfd ticks every period), for
   capture (S16_LE mono, frame k holding 1 + k % 30000: never 0, so silence written for a gap is
   told apart from what the device captured) or playback (S16_LE, 1 or 2 channels, what is
   written is dropped). After `lose_after` periods it is unplugged: its state becomes
   DISCONNECTED, so reads and writes fail with -ENODEV as a USB card's do. Then opening it fails
   with -ENODEV `fail_opens` times (-1: for ever) before it opens again, and runs on; it goes
   away at most `losses` times (default 1). With `stall 1` it does not fail but gets stuck
   instead: its clock stops, so it delivers (or takes) nothing and its descriptor never wakes
   a poll, as a device that hangs. With `suspend 1` it is suspended instead (-ESTRPIPE) and
   never resumes (snd_pcm_resume "succeeds" and it stays suspended).

   The attempts are counted in the file `state` (one per test), so that the count holds across
   the reopens of one process whatever ALSA does with the plugin's library between them.

   Build: cc -DPIC -shared -fPIC -o libasound_module_pcm_flaky.so alsa_flaky_device.c -lasound
   Use:   pcm_type.flaky { lib "/path/libasound_module_pcm_flaky.so" }
          pcm.gone { type flaky lose_after 30 fail_opens 4 state "/tmp/x/gone.state" } */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    struct timespec started;
    uint64_t delivered;       /* capture: frames handed to the application since the start */
    uint64_t counter;         /* capture: the next frame's number */
    long lose_after;          /* periods; < 0: never */
    long stall;               /* 1: get stuck instead of being unplugged */
    long suspend;             /* 1: get suspended for good instead */
    char state[512];
    int gone;
} flaky_t;

/* The state file: down (1 while unplugged), failed (opens refused since), losses (so far). */
typedef struct { long down, failed, losses; } flaky_state;

static flaky_state load_state(const char *path) {
    flaky_state s = { 0, 0, 0 };
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld %ld %ld", &s.down, &s.failed, &s.losses) != 3) s = (flaky_state){ 0, 0, 0 };
        fclose(f);
    }
    return s;
}

static void save_state(const char *path, flaky_state s) {
    FILE *f = fopen(path, "w");
    if (f) { fprintf(f, "%ld %ld %ld\n", s.down, s.failed, s.losses); fclose(f); }
}

static uint64_t frames_since(flaky_t *p) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double s = (now.tv_sec - p->started.tv_sec) + (now.tv_nsec - p->started.tv_nsec) / 1e9;
    return (uint64_t)(s * p->io.rate);
}

/* Unplugged: reads and writes fail with -ENODEV from now on, and opens as configured. */
static void unplug(flaky_t *p) {
    if (p->gone) return;
    p->gone = 1;
    flaky_state s = load_state(p->state);
    s.down = 1;
    s.failed = 0;
    s.losses += 1;
    save_state(p->state, s);
    if (p->stall) {
        struct itimerspec t = { { 0, 0 }, { 0, 0 } };
        timerfd_settime(p->timer, 0, &t, NULL);
        p->gone = 0;  /* stuck, not failing: reads and writes find nothing to do */
        p->lose_after = -2;
    } else if (p->suspend) {
        p->gone = 0;
        p->lose_after = -2;
        snd_pcm_ioplug_set_state(&p->io, SND_PCM_STATE_SUSPENDED);
    } else {
        snd_pcm_ioplug_set_state(&p->io, SND_PCM_STATE_DISCONNECTED);
    }
}

static int flaky_start(snd_pcm_ioplug_t *io) {
    flaky_t *p = io->private_data;
    clock_gettime(CLOCK_MONOTONIC, &p->started);
    p->delivered = 0;
    long ns = (long)((double)io->period_size / io->rate * 1e9);
    struct itimerspec t = { { ns / 1000000000, ns % 1000000000 }, { ns / 1000000000, ns % 1000000000 } };
    return timerfd_settime(p->timer, 0, &t, NULL) < 0 ? -errno : 0;
}

static int flaky_stop(snd_pcm_ioplug_t *io) {
    flaky_t *p = io->private_data;
    struct itimerspec t = { { 0, 0 }, { 0, 0 } };
    timerfd_settime(p->timer, 0, &t, NULL);
    return 0;
}

/* The hardware position. Capture: it stops at the limit, and once everything up to it was read
   the device is gone. Playback: it runs on the clock until the limit. */
static snd_pcm_sframes_t flaky_pointer(snd_pcm_ioplug_t *io) {
    flaky_t *p = io->private_data;
    /* A playback stream plays on while draining. */
    if (io->state != SND_PCM_STATE_RUNNING && io->state != SND_PCM_STATE_DRAINING) return 0;
    uint64_t now = frames_since(p);
    if (p->lose_after == -2) return (snd_pcm_sframes_t)(io->hw_ptr % io->buffer_size);  /* stuck: no frame moves */
    if (p->lose_after >= 0) {
        uint64_t limit = (uint64_t)p->lose_after * io->period_size;
        if (io->stream == SND_PCM_STREAM_CAPTURE) {
            if (p->delivered >= limit) { unplug(p); return limit % io->buffer_size; }
            if (now > limit) now = limit;
        } else if (now >= limit) {
            unplug(p);
            return limit % io->buffer_size;
        }
    }
    if (io->stream == SND_PCM_STREAM_CAPTURE && now - p->delivered > io->buffer_size) {
        p->counter += now - p->delivered;   /* an overrun: what was captured meanwhile is lost */
        p->delivered = now;
        return -EPIPE;
    }
    return now % io->buffer_size;
}

static snd_pcm_sframes_t flaky_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                        snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    flaky_t *p = io->private_data;
    if (p->gone) return -ENODEV;
    if (io->stream == SND_PCM_STREAM_CAPTURE) {
        int16_t *out = (int16_t *)((char *)areas[0].addr + (areas[0].first + areas[0].step * offset) / 8);
        for (snd_pcm_uframes_t i = 0; i < size; i++) out[i] = (int16_t)(1 + (p->counter + i) % 30000);
        p->counter += size;
        p->delivered += size;
    }
    return size;
}

static int flaky_prepare(snd_pcm_ioplug_t *io) {
    flaky_t *p = io->private_data;
    p->delivered = 0;
    return p->gone ? -ENODEV : 0;
}

static int flaky_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *fds, unsigned nfds, unsigned short *revents) {
    flaky_t *p = io->private_data;
    uint64_t ticks;
    if (nfds && (fds[0].revents & POLLIN)) { ssize_t n = read(p->timer, &ticks, sizeof ticks); (void)n; }
    unsigned short ready = io->stream == SND_PCM_STREAM_CAPTURE ? POLLIN : POLLOUT;
    *revents = p->gone ? (unsigned short)(POLLERR | ready) : (fds[0].revents & POLLIN ? ready : 0);
    return 0;
}

static int flaky_close(snd_pcm_ioplug_t *io) {
    flaky_t *p = io->private_data;
    close(p->timer);
    free(p);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = flaky_start, .stop = flaky_stop, .pointer = flaky_pointer, .transfer = flaky_transfer,
    .prepare = flaky_prepare, .poll_revents = flaky_poll_revents, .close = flaky_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(flaky) {
    (void)root;
    long lose_after = -1, fail_opens = 0, losses = 1, stall = 0, suspend = 0;
    const char *state = NULL;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "lose_after")) { snd_config_get_integer(n, &lose_after); continue; }
        if (!strcmp(id, "fail_opens")) { snd_config_get_integer(n, &fail_opens); continue; }
        if (!strcmp(id, "losses")) { snd_config_get_integer(n, &losses); continue; }
        if (!strcmp(id, "stall")) { snd_config_get_integer(n, &stall); continue; }
        if (!strcmp(id, "suspend")) { snd_config_get_integer(n, &suspend); continue; }
        if (!strcmp(id, "state")) { snd_config_get_string(n, &state); continue; }
        SNDERR("flaky: unknown field %s", id);
        return -EINVAL;
    }
    if (!state) { SNDERR("flaky: needs state \"PATH\""); return -EINVAL; }
    flaky_state s = load_state(state);
    if (s.down) {
        if (fail_opens < 0 || s.failed < fail_opens) {
            s.failed += 1;
            save_state(state, s);
            return -ENODEV;
        }
        s.down = 0;
        save_state(state, s);
    }
    flaky_t *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    snprintf(p->state, sizeof p->state, "%s", state);
    p->lose_after = s.losses < losses ? lose_after : -1;
    p->stall = stall;
    p->suspend = suspend;
    p->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    p->io.version = SND_PCM_IOPLUG_VERSION;
    p->io.name = "aupipe test: flaky device";
    p->io.callback = &callbacks;
    p->io.private_data = p;
    p->io.poll_fd = p->timer;
    p->io.poll_events = POLLIN;
    int err = snd_pcm_ioplug_create(&p->io, name, stream, mode);
    if (err < 0) { close(p->timer); free(p); return err; }
    static const unsigned int access[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE };
    unsigned max_channels = stream == SND_PCM_STREAM_CAPTURE ? 1 : 2;
    if ((err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, max_channels)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_RATE, 8000, 192000)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 1 << 20)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0) {
        snd_pcm_ioplug_delete(&p->io);
        return err;
    }
    *pcmp = p->io.pcm;
    return 0;
}
SND_PCM_PLUGIN_SYMBOL(flaky);
