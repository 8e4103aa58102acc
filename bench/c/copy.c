/* copy: the floor for a no-op chain. A bare read()/write() loop with a 64 KiB buffer from
 * stdin to stdout, bytes untouched (no header parsing): "cat speed" without any of cat's
 * tricks. Usage: copy < in > out */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    static char buf[65536];
    for (;;) {
        ssize_t n = read(0, buf, sizeof buf);
        if (n == 0) return 0;
        if (n < 0) { if (errno == EINTR) continue; perror("read"); return 74; }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(1, buf + done, (size_t)(n - done));
            if (w < 0) { if (errno == EINTR) continue; perror("write"); return 74; }
            done += w;
        }
    }
}
