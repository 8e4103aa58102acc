/* aec: the floor for `aupipe aec ref=FAR tail=T [preprocess=0|1]`. A bare loop around speexdsp:
 * reads the microphone (16-bit mono WAV) from stdin and the far end from FAR, 160-frame frames
 * (10 ms at 16 kHz), speex_echo_cancellation on each, then (with PRE=1) speex_preprocess_run with
 * the echo state attached and aupipe's settings (denoise on with a 0 dB noise floor, residual echo
 * suppression -40 dB / -15 dB while both talk), and writes a WAV. A part-filled last frame is
 * padded and trimmed. aupipe also removes the preprocessor's one-frame delay, so only PRE=0
 * outputs can be compared byte for byte.
 * With DELAY_MS the far end is delayed by that much (zeros first) before the canceller sees it:
 * bench/aec/run gives it a scene's true delay; FRAME_MS sets another frame (10 ms by default).
 * Usage: aec TAIL_MS PRE FAR.wav [DELAY_MS [FRAME_MS]] < mic.wav > out.wav */
#include <fcntl.h>
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include "wav.h"

#define MAXFRAME 1600

int main(int argc, char **argv) {
    if (argc < 4 || argc > 6) { fprintf(stderr, "usage: aec TAIL_MS PRE FAR.wav [DELAY_MS [FRAME_MS]] < mic.wav > out.wav\n"); return 64; }
    int tail_ms = atoi(argv[1]), pre = atoi(argv[2]);
    int far_fd = open(argv[3], O_RDONLY);
    if (far_fd < 0) { perror(argv[3]); return 66; }
    struct wav mic = wav_read_header(0), far = wav_read_header(far_fd);
    if (mic.channels != 1 || far.channels != 1 || mic.rate != far.rate) { fprintf(stderr, "aec: mono, same rates\n"); return 65; }
    int rate = (int)mic.rate, tail = tail_ms * rate / 1000;
    long delay = argc >= 5 ? atol(argv[4]) * rate / 1000 : 0;   /* far-end samples still to come as zeros */
    int frame = argc == 6 ? atoi(argv[5]) * rate / 1000 : rate / 100;
    if (frame < 16 || frame > MAXFRAME) { fprintf(stderr, "aec: FRAME_MS gives %d frames; 16...%d allowed\n", frame, MAXFRAME); return 64; }
    size_t FRAME = (size_t)frame;
    SpeexEchoState *st = speex_echo_state_init(frame, tail);
    speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
    SpeexPreprocessState *pp = NULL;
    if (pre) {
        pp = speex_preprocess_state_init(frame, rate);
        int on = 1, zero = 0, es = -40, esa = -15;
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_DENOISE, &on);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &zero);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_STATE, st);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &es);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &esa);
    }
    unsigned char h[44];
    wav_header(h, mic, 0xFFFFFFFFu);
    write_full(1, h, 44);
    int16_t in[MAXFRAME], ref[MAXFRAME], out[MAXFRAME];
    uint64_t total = 0;
    for (;;) {
        size_t got = read_full(0, in, FRAME * 2) / 2;
        if (got == 0) break;
        size_t z = delay < frame ? (size_t)delay : FRAME;
        for (size_t i = 0; i < z; i++) ref[i] = 0;
        delay -= (long)z;
        size_t r = z + read_full(far_fd, ref + z, (FRAME - z) * 2) / 2;
        for (size_t i = got; i < FRAME; i++) in[i] = 0;
        for (size_t i = r; i < FRAME; i++) ref[i] = 0;
        speex_echo_cancellation(st, in, ref, out);
        if (pp) speex_preprocess_run(pp, out);
        write_full(1, out, got * 2);
        total += got * 2;
        if (got < FRAME) break;
    }
    wav_patch(1, mic, total);
    if (pp) speex_preprocess_state_destroy(pp);
    speex_echo_state_destroy(st);
    return 0;
}
