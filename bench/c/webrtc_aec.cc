/* webrtc_aec: WebRTC's echo canceller (Debian's webrtc-audio-processing 0.3) as a filter, for the
 * aec comparison of bench/aec/run. A VoiceProcessing-like configuration: the full AEC
 * (echo_cancellation(), not AECM) at kHighSuppression with the extended filter, noise
 * suppression (kHigh) and the high-pass filter; no AGC. 10 ms frames: the far end goes to
 * ProcessReverseStream, the microphone to ProcessStream.
 *   DELAY = a number: set_stream_delay_ms(DELAY) before every frame (give the scene's true
 *           delay: WebRTC's best case, a device that reports its latency exactly);
 *   DELAY = agnostic: the DelayAgnostic config (WebRTC finds the delay itself), stream delay 0.
 * Reads the microphone (16-bit mono WAV) from stdin and the far end from FAR, writes a WAV of
 * the same length (a part-filled last frame is padded and trimmed).
 * Usage: webrtc_aec DELAY|agnostic FAR.wav < mic.wav > out.wav */
#include <fcntl.h>
#include <string.h>
extern "C" {
#include "wav.h"
}
#include <webrtc/modules/audio_processing/include/audio_processing.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: webrtc_aec DELAY_MS|agnostic FAR.wav < mic.wav > out.wav\n"); return 64; }
    bool agnostic = strcmp(argv[1], "agnostic") == 0;
    int delay = agnostic ? 0 : atoi(argv[1]);
    int far_fd = open(argv[2], O_RDONLY);
    if (far_fd < 0) { perror(argv[2]); return 66; }
    struct wav mic = wav_read_header(0), far = wav_read_header(far_fd);
    if (mic.channels != 1 || far.channels != 1 || mic.rate != far.rate) { fprintf(stderr, "webrtc_aec: mono, same rates\n"); return 65; }
    int rate = (int)mic.rate, frame = rate / 100;
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(agnostic));
    webrtc::AudioProcessing *apm = webrtc::AudioProcessing::Create(config);
    apm->high_pass_filter()->Enable(true);
    apm->echo_cancellation()->enable_drift_compensation(false);
    apm->echo_cancellation()->set_suppression_level(webrtc::EchoCancellation::kHighSuppression);
    apm->echo_cancellation()->Enable(true);
    apm->noise_suppression()->set_level(webrtc::NoiseSuppression::kHigh);
    apm->noise_suppression()->Enable(true);
    webrtc::StreamConfig sc(rate, 1, false);
    unsigned char h[44];
    wav_header(h, mic, 0xFFFFFFFFu);
    write_full(1, h, 44);
    int16_t in[960], ref[960], out[960];
    float fin[960], fref[960];
    uint64_t total = 0;
    for (;;) {
        size_t got = read_full(0, in, frame * 2) / 2;
        if (got == 0) break;
        size_t r = read_full(far_fd, ref, frame * 2) / 2;
        for (size_t i = got; i < (size_t)frame; i++) in[i] = 0;
        for (size_t i = r; i < (size_t)frame; i++) ref[i] = 0;
        for (int i = 0; i < frame; i++) { fin[i] = in[i] / 32768.0f; fref[i] = ref[i] / 32768.0f; }
        float *rp = fref, *ip = fin;
        if (apm->ProcessReverseStream(&rp, sc, sc, &rp) != 0) { fprintf(stderr, "webrtc_aec: ProcessReverseStream failed\n"); return 70; }
        apm->set_stream_delay_ms(delay);
        if (apm->ProcessStream(&ip, sc, sc, &ip) != 0) { fprintf(stderr, "webrtc_aec: ProcessStream failed\n"); return 70; }
        for (int i = 0; i < frame; i++) {
            float x = fin[i] * 32768.0f;
            out[i] = (int16_t)(x >= 32767.0f ? 32767 : x <= -32768.0f ? -32768 : lrintf(x));
        }
        write_full(1, out, got * 2);
        total += got * 2;
        if (got < (size_t)frame) break;
    }
    wav_patch(1, mic, total);
    delete apm;
    return 0;
}
