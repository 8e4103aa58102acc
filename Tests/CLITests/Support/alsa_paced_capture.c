/* A capture PCM for the tests, as an ALSA external (ioplug) plugin: it runs on the clock as a
   sound card does (a timerfd ticks every period), so a reader that stalls longer than the
   buffer gets an overrun, which is what the tests provoke. Samples are S16_LE, mono: a counter,
   frame k captured holding (int16_t)k, so the tests can see exactly what was kept and what an
   overrun lost.

   Build: cc -shared -fPIC -o libasound_module_pcm_paced.so alsa_paced_capture.c -lasound
   Use:   pcm_type.paced { lib "/path/libasound_module_pcm_paced.so" }  pcm.paced { type paced } */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    struct timespec started;  /* when the stream (re)started */
    uint64_t first_frame;     /* the counter value of the first frame since the (re)start */
    uint64_t delivered;       /* frames handed to the application since the (re)start */
} paced_t;

static uint64_t frames_since(paced_t *p) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double s = (now.tv_sec - p->started.tv_sec) + (now.tv_nsec - p->started.tv_nsec) / 1e9;
    return (uint64_t)(s * p->io.rate);
}

static int paced_start(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    clock_gettime(CLOCK_MONOTONIC, &p->started);
    p->delivered = 0;
    long ns = (long)((double)io->period_size / io->rate * 1e9);
    struct itimerspec t = { { ns / 1000000000, ns % 1000000000 }, { ns / 1000000000, ns % 1000000000 } };
    return timerfd_settime(p->timer, 0, &t, NULL) < 0 ? -errno : 0;
}

static int paced_stop(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    struct itimerspec t = { { 0, 0 }, { 0, 0 } };
    timerfd_settime(p->timer, 0, &t, NULL);
    return 0;
}

/* The hardware position in the buffer; an overrun when the clock ran more than a buffer ahead
   of what was read (the frames in between are lost, as on a card). */
static snd_pcm_sframes_t paced_pointer(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    if (io->state != SND_PCM_STATE_RUNNING) return 0;
    uint64_t now = frames_since(p);
    if (now - p->delivered > io->buffer_size) {
        p->first_frame += now; /* what the card captured meanwhile is gone */
        return -EPIPE;
    }
    return now % io->buffer_size;
}

static snd_pcm_sframes_t paced_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                        snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    paced_t *p = io->private_data;
    int16_t *out = (int16_t *)((char *)areas[0].addr + (areas[0].first + areas[0].step * offset) / 8);
    for (snd_pcm_uframes_t i = 0; i < size; i++) out[i] = (int16_t)(p->first_frame + p->delivered + i);
    p->delivered += size;
    return size;
}

static int paced_prepare(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    p->delivered = 0;
    return 0;
}

static int paced_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *fds, unsigned nfds, unsigned short *revents) {
    paced_t *p = io->private_data;
    uint64_t ticks;
    if (nfds && (fds[0].revents & POLLIN)) { ssize_t n = read(p->timer, &ticks, sizeof ticks); (void)n; }
    *revents = fds[0].revents & POLLIN ? POLLIN : 0;
    return 0;
}

static int paced_close(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    close(p->timer);
    free(p);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = paced_start, .stop = paced_stop, .pointer = paced_pointer, .transfer = paced_transfer,
    .prepare = paced_prepare, .poll_revents = paced_poll_revents, .close = paced_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(paced) {
    (void)root; (void)conf;
    if (stream != SND_PCM_STREAM_CAPTURE) return -EINVAL;
    paced_t *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    p->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    p->io.version = SND_PCM_IOPLUG_VERSION;
    p->io.name = "aupipe test: paced capture";
    p->io.callback = &callbacks;
    p->io.private_data = p;
    p->io.poll_fd = p->timer;
    p->io.poll_events = POLLIN;
    int err = snd_pcm_ioplug_create(&p->io, name, stream, mode);
    if (err < 0) { close(p->timer); free(p); return err; }
    static const unsigned int access[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 1)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_RATE, 8000, 192000)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 1 << 20)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0) {
        snd_pcm_ioplug_delete(&p->io);
        return err;
    }
    *pcmp = p->io.pcm;
    return 0;
}
SND_PCM_PLUGIN_SYMBOL(paced);
