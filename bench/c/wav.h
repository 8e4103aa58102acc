/* Minimal WAV helpers shared by the bare C loops (not a general WAV library).
 * Reads a RIFF/WAVE header sequentially from a descriptor (no seeking, like aupipe on a pipe),
 * accepting PCM s16 (format 1 or WAVE_FORMAT_EXTENSIBLE) and skipping unknown chunks; writes a
 * canonical 44-byte header with streaming sizes and patches them at the end when the output is
 * a regular file. */
#ifndef BENCH_WAV_H
#define BENCH_WAV_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads exactly n bytes unless the stream ends first; returns the count read. */
static size_t read_full(int fd, void *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t r = read(fd, (char *)buf + done, n - done);
        if (r > 0) { done += (size_t)r; continue; }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { perror("read"); exit(74); }
        break;
    }
    return done;
}

static void write_full(int fd, const void *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, (const char *)buf + done, n - done);
        if (w > 0) { done += (size_t)w; continue; }
        if (w < 0 && errno == EINTR) continue;
        perror("write"); exit(74);
    }
}

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

struct wav { unsigned channels, rate, bits; };

/* Parses the header up to the start of the data chunk; exits on anything but 16-bit PCM. */
static struct wav wav_read_header(int fd) {
    unsigned char h[12], c[8], fmt[40];
    struct wav w = {0, 0, 0};
    if (read_full(fd, h, 12) != 12 || memcmp(h, "RIFF", 4) || memcmp(h + 8, "WAVE", 4)) {
        fprintf(stderr, "not a RIFF/WAVE stream\n"); exit(65);
    }
    for (;;) {
        if (read_full(fd, c, 8) != 8) { fprintf(stderr, "no data chunk\n"); exit(65); }
        uint32_t size = le32(c + 4);
        if (!memcmp(c, "data", 4)) break;
        uint32_t skip = size + (size & 1);
        if (!memcmp(c, "fmt ", 4) && size <= sizeof fmt) {
            if (read_full(fd, fmt, skip) != skip) exit(65);
            w.channels = le16(fmt + 2); w.rate = le32(fmt + 4); w.bits = le16(fmt + 14);
            continue;
        }
        unsigned char junk[4096];
        while (skip > 0) {
            size_t n = skip < sizeof junk ? skip : sizeof junk;
            if (read_full(fd, junk, n) != n) exit(65);
            skip -= (uint32_t)n;
        }
    }
    if (w.bits != 16 || w.channels == 0) { fprintf(stderr, "only s16 PCM WAV input\n"); exit(65); }
    return w;
}

/* A canonical 44-byte PCM header; data_bytes 0xFFFFFFFF means "streaming, size unknown". */
static void wav_header(unsigned char h[44], struct wav w, uint32_t data_bytes) {
    uint32_t riff = data_bytes == 0xFFFFFFFFu ? 0xFFFFFFFFu : data_bytes + 36;
    uint32_t block = w.channels * 2, byte_rate = w.rate * block;
    memcpy(h, "RIFF", 4); memcpy(h + 4, &riff, 4); memcpy(h + 8, "WAVEfmt ", 8);
    uint32_t fmt_size = 16; uint16_t pcm = 1, ch = (uint16_t)w.channels, ba = (uint16_t)block, bits = 16;
    memcpy(h + 16, &fmt_size, 4); memcpy(h + 20, &pcm, 2); memcpy(h + 22, &ch, 2);
    memcpy(h + 24, &w.rate, 4); memcpy(h + 28, &byte_rate, 4); memcpy(h + 32, &ba, 2);
    memcpy(h + 34, &bits, 2); memcpy(h + 36, "data", 4); memcpy(h + 40, &data_bytes, 4);
}

/* Patches the sizes when stdout is a regular file (as aupipe does). */
static void wav_patch(int fd, struct wav w, uint64_t data_bytes) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || data_bytes >= 0xFFFFFFFFu - 36) return;
    unsigned char h[44];
    wav_header(h, w, (uint32_t)data_bytes);
    if (pwrite(fd, h, 44, 0) != 44) { perror("pwrite"); exit(74); }
}
#endif
