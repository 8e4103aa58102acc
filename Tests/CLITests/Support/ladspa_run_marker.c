/* A LADSPA plugin whose output depends on where its runs begin, as a limiter's envelope or a
   block-wise filter's does, for aupipe's block-size tests (a library of its own, so that the
   listings of ladspa_test_plugins.c stay as they are):
     run_marker (4201)  mono: output = input, plus 0.25 on the first sample of every run
   Built with -I Sources/CAUPipeSupport/include, whose aupipe_ladspa.h declares the structs. */
#include "aupipe_ladspa.h"
#include <stdlib.h>

typedef struct { LADSPA_Data *port[2]; } Instance;

static LADSPA_Handle instantiate(const LADSPA_Descriptor *d, unsigned long rate) {
    (void)d; (void)rate;
    return calloc(1, sizeof(Instance));
}
static void connect_port(LADSPA_Handle h, unsigned long port, LADSPA_Data *data) { if (port < 2) ((Instance *)h)->port[port] = data; }
static void cleanup(LADSPA_Handle h) { free(h); }

static void run(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[0][i];
    if (n) s->port[1][0] += 0.25f;
}

static const LADSPA_PortDescriptor ports[] = {LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
static const char *const names[] = {"Input", "Output"};
static const LADSPA_PortRangeHint hints[] = {{0, 0, 0}, {0, 0, 0}};

static const LADSPA_Descriptor descriptor = {
    4201, "run_marker", LADSPA_PROPERTY_HARD_RT_CAPABLE, "Run Marker (test)", "aupipe tests", "None",
    2, ports, names, hints, NULL, instantiate, connect_port, NULL, run, NULL, NULL, NULL, cleanup};

const LADSPA_Descriptor *ladspa_descriptor(unsigned long index) { return index == 0 ? &descriptor : NULL; }
