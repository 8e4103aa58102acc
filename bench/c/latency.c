/* latency: how long a filter holds live audio. Starts CMD with its stdin and stdout on pipes,
 * waits SETTLE ms (so that start-up does not count), then plays a paced writer: 16-bit mono raw
 * (a 440 Hz sine at -6 dBFS) in chunks of CHUNK frames, one chunk every CHUNK/IN_RATE seconds on
 * CLOCK_MONOTONIC with absolute deadlines (no drift), for SECONDS seconds. A reader thread
 * read()s CMD's stdout (no stdio) and stamps the arrival of every piece of output.
 *
 * Chunk k (0-based) counts as covered when the output holds at least
 *     round((k + 1) * CHUNK * OUT_RATE / IN_RATE) - LOOKAHEAD
 * frames (LOOKAHEAD in output frames: what a resampler may hold back as its own delay), and
 * its latency is the time from the start of its write() to the read() that brought that frame.
 * The first-byte latency is from the first write() to the first read() that returned data.
 * After the last measured chunk the writer goes on pacing (more of the sine) until every
 * measured chunk is covered or TAIL more seconds have passed, so that a filter that buffers is
 * measured by its live behaviour, not by the flush at end of input; then it closes CMD's stdin
 * and reads to EOF.
 *
 * Prints one line on stdout, key=value, times in ms:
 *   first= median= p95= max= covered=C/N writes=W late=W maxlate= reads=R bytes=B exit=S
 * (p95 by nearest rank over the covered chunks; writes = chunks written, tail included; late =
 * writes that started more than 1 ms after their deadline, maxlate the worst; reads = reads that returned data while measured chunks
 * were being covered; exit = CMD's exit status, or 128 + signal). With -t FILE, writes "k write_ms covered_ms latency_ms" per chunk there.
 * CMD's stderr is left alone. Exit status 0, or 70 when CMD cannot be started.
 * Usage: latency [-r IN_RATE] [-o OUT_RATE] [-c CHUNK] [-s SECONDS] [-l LOOKAHEAD]
 *                [-w SETTLE_MS] [-T TAIL_S] [-t FILE] -- CMD [ARG]... */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_until(int64_t ns) {
    struct timespec t = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {}
}

/* What the reader thread records: one stamp per read() that returned data. */
struct stamp { int64_t ns; int64_t total; };    /* arrival time, output bytes so far */
static struct stamp *stamps;
static size_t nstamps, capstamps;
static int64_t out_total;                         /* read with __atomic by the writer */
static int out_fd;

static void *reader(void *arg) {
    (void)arg;
    static char buf[65536];
    for (;;) {
        ssize_t n = read(out_fd, buf, sizeof buf);
        int64_t t = now_ns();
        if (n == 0) return NULL;
        if (n < 0) { if (errno == EINTR) continue; perror("latency: read"); return NULL; }
        if (nstamps == capstamps) {
            capstamps = capstamps ? capstamps * 2 : 4096;
            stamps = realloc(stamps, capstamps * sizeof *stamps);
            if (!stamps) { perror("latency: realloc"); exit(70); }
        }
        int64_t total = __atomic_load_n(&out_total, __ATOMIC_RELAXED) + n;
        stamps[nstamps++] = (struct stamp){ t, total };
        __atomic_store_n(&out_total, total, __ATOMIC_RELEASE);
    }
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static double ms(int64_t ns) { return ns / 1e6; }

static void usage(void) {
    fprintf(stderr, "usage: latency [-r IN_RATE] [-o OUT_RATE] [-c CHUNK] [-s SECONDS] [-l LOOKAHEAD]\n"
                    "               [-w SETTLE_MS] [-T TAIL_S] [-t FILE] -- CMD [ARG]...\n");
    exit(64);
}

int main(int argc, char **argv) {
    long in_rate = 16000, out_rate = 0, chunk = 160, lookahead = 0, settle_ms = 250;
    double seconds = 3, tail_s = 3;
    const char *trace = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "+r:o:c:s:l:w:T:t:")) != -1) {
        switch (opt) {
        case 'r': in_rate = atol(optarg); break;
        case 'o': out_rate = atol(optarg); break;
        case 'c': chunk = atol(optarg); break;
        case 's': seconds = atof(optarg); break;
        case 'l': lookahead = atol(optarg); break;
        case 'w': settle_ms = atol(optarg); break;
        case 'T': tail_s = atof(optarg); break;
        case 't': trace = optarg; break;
        default: usage();
        }
    }
    if (optind >= argc || in_rate <= 0 || chunk <= 0 || seconds <= 0) usage();
    if (out_rate <= 0) out_rate = in_rate;
    long nchunks = lround(seconds * in_rate / chunk);
    long ntail = lround(tail_s * in_rate / chunk);
    int64_t period = (int64_t)chunk * 1000000000 / in_rate;

    /* Start CMD on two pipes. */
    int in_pipe[2], out_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC)) { perror("latency: pipe"); return 70; }
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0) { perror("latency: fork"); return 70; }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        dup2(in_pipe[0], 0);
        dup2(out_pipe[1], 1);
        execvp(argv[optind], argv + optind);
        fprintf(stderr, "latency: cannot run %s: %s\n", argv[optind], strerror(errno));
        _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    out_fd = out_pipe[0];
    pthread_t th;
    if (pthread_create(&th, NULL, reader, NULL)) { fprintf(stderr, "latency: pthread_create failed\n"); return 70; }

    /* The paced writer. */
    int16_t *pcm = malloc((size_t)chunk * 2);
    int64_t *written = malloc((size_t)nchunks * sizeof *written);
    int64_t *need = malloc((size_t)nchunks * sizeof *need);  /* output bytes that cover chunk k */
    for (long k = 0; k < nchunks; k++) {
        int64_t frames = ((k + 1) * chunk * out_rate * 2 + in_rate) / (2 * in_rate) - lookahead;
        need[k] = (frames < 1 ? 1 : frames) * 2;
    }
    long late = 0, sent = 0;
    int64_t max_late = 0, start = now_ns() + (int64_t)settle_ms * 1000000;
    for (long k = 0; k < nchunks + ntail; k++) {
        for (long i = 0; i < chunk; i++)
            pcm[i] = (int16_t)lrint(16384 * sin(2 * M_PI * 440 * (double)(k * chunk + i) / in_rate));
        int64_t deadline = start + k * period;
        sleep_until(deadline);
        if (k >= nchunks && __atomic_load_n(&out_total, __ATOMIC_ACQUIRE) >= need[nchunks - 1]) break;
        int64_t t = now_ns();
        if (t - deadline > 1000000) late++;
        if (t - deadline > max_late) max_late = t - deadline;
        if (k < nchunks) written[k] = t;
        ssize_t done = 0, n;
        while (done < chunk * 2) {
            n = write(in_pipe[1], (char *)pcm + done, (size_t)(chunk * 2 - done));
            if (n < 0) { if (errno == EINTR) continue; break; }
            done += n;
        }
        if (done < chunk * 2) { fprintf(stderr, "latency: write: %s\n", strerror(errno)); break; }
        sent = k + 1;
    }
    close(in_pipe[1]);
    pthread_join(th, NULL);
    int status;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return 70;

    /* Figures. */
    int64_t *lat = malloc((size_t)nchunks * sizeof *lat);
    FILE *tf = trace ? fopen(trace, "w") : NULL;
    long covered = 0, reads = 0;
    size_t s = 0;
    int64_t first = nstamps && sent ? stamps[0].ns - written[0] : -1, last = 0;
    for (long k = 0; k < nchunks && k < sent; k++) {
        while (s < nstamps && stamps[s].total < need[k]) s++;
        if (s == nstamps) break;                     /* never covered */
        lat[covered++] = stamps[s].ns - written[k];
        last = stamps[s].ns;
        if (tf) fprintf(tf, "%ld %.3f %.3f %.3f\n", k, ms(written[k] - written[0]),
                        ms(stamps[s].ns - written[0]), ms(stamps[s].ns - written[k]));
    }
    for (size_t i = 0; covered && i < nstamps && stamps[i].ns <= last; i++) reads++;
    if (tf) fclose(tf);
    qsort(lat, (size_t)covered, sizeof *lat, cmp_i64);
    double med = covered ? ms(lat[(covered - 1) / 2]) : -1;
    double p95 = covered ? ms(lat[(long)ceil(0.95 * covered) - 1]) : -1;
    double max = covered ? ms(lat[covered - 1]) : -1;
    printf("first=%.2f median=%.2f p95=%.2f max=%.2f covered=%ld/%ld writes=%ld late=%ld maxlate=%.2f reads=%ld bytes=%lld exit=%d\n",
           first < 0 ? -1 : ms(first), med, p95, max, covered, nchunks, sent, late, ms(max_late), reads,
           (long long)out_total, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
