/* LADSPA plugins that misbehave the ways real libraries do, for aupipe's review tests
   (`aupipe_broken.so`):
     (index 0)             a descriptor with NULL Label and Name: must be skipped, never read
     told_latency  (4201)  mono pass-through (no delay) whose "latency" output port reports what
                           its "Report" input says; Report=-1 reports NaN, Report=-2 +infinity
     no_names      (4202)  mono pass-through with PortNames and PortRangeHints NULL
     swapped       (4203)  mono: output = input * Level, Level's hint has lower 2 > upper 0.5
     nan_out       (4204)  mono: writes NaN, +inf, -inf, then the input, in turn
     named         (4205)  mono: output = input * Name (default 1): a port whose symbol would
                           be `name`, every unit's label option
   Built with -I Sources/CAUPipeSupport/include, whose aupipe_ladspa.h declares the structs. */
#include "aupipe_ladspa.h"
#include <math.h>
#include <stdlib.h>

typedef struct { LADSPA_Data *port[4]; unsigned long frame; } Instance;

static LADSPA_Handle instantiate(const LADSPA_Descriptor *d, unsigned long rate) {
    (void)d; (void)rate;
    return calloc(1, sizeof(Instance));
}
static void connect_port(LADSPA_Handle h, unsigned long port, LADSPA_Data *data) {
    if (port < 4) ((Instance *)h)->port[port] = data;
}
static void cleanup(LADSPA_Handle h) { free(h); }

/* told_latency: 0 in, 1 out, 2 Report, 3 latency */
static void run_told(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[0][i];
    float r = *s->port[2];
    *s->port[3] = r == -1 ? NAN : r == -2 ? INFINITY : r;
}

/* no_names: 0 in, 1 out */
static void run_copy(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[0][i];
}

/* swapped: 0 in, 1 out, 2 Level */
static void run_level(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[0][i] * *s->port[2];
}

/* nan_out: 0 in, 1 out */
static void run_nan(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++, s->frame++) {
        switch (s->frame % 4) {
        case 0: s->port[1][i] = NAN; break;
        case 1: s->port[1][i] = INFINITY; break;
        case 2: s->port[1][i] = -INFINITY; break;
        default: s->port[1][i] = s->port[0][i];
        }
    }
}

static const LADSPA_PortDescriptor told_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO,
    LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL, LADSPA_PORT_OUTPUT | LADSPA_PORT_CONTROL};
static const char *const told_names[] = {"Input", "Output", "Report", "latency"};
static const LADSPA_PortRangeHint told_hints[] = {{0, 0, 0}, {0, 0, 0}, {LADSPA_HINT_DEFAULT_0, 0, 0}, {0, 0, 0}};

static const LADSPA_PortDescriptor copy_ports[] = {LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
static const LADSPA_PortRangeHint copy_hints[] = {{0, 0, 0}, {0, 0, 0}};
static const char *const copy_names[] = {"Input", "Output"};

static const LADSPA_PortDescriptor level_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL};
static const char *const level_names[] = {"Input", "Output", "Level"};
static const LADSPA_PortRangeHint level_hints[] = {
    {0, 0, 0}, {0, 0, 0}, {LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | LADSPA_HINT_DEFAULT_MIDDLE, 2, 0.5f}};

static const char *const named_names[] = {"Input", "Output", "Name"};
static const LADSPA_PortRangeHint named_hints[] = {{0, 0, 0}, {0, 0, 0}, {LADSPA_HINT_DEFAULT_1, 0, 0}};

#define PLUGIN(id, label, name, count, ports, names, hints, runner) \
    {id, label, 0, name, "aupipe tests", "None", count, ports, names, hints, NULL, \
     instantiate, connect_port, NULL, runner, NULL, NULL, NULL, cleanup}

static const LADSPA_Descriptor descriptors[] = {
    PLUGIN(4200, NULL, NULL, 2, copy_ports, copy_names, copy_hints, run_copy),
    PLUGIN(4201, "told_latency", "Told Latency (test)", 4, told_ports, told_names, told_hints, run_told),
    PLUGIN(4202, "no_names", "No Names (test)", 2, copy_ports, NULL, NULL, run_copy),
    PLUGIN(4203, "swapped", "Swapped Bounds (test)", 3, level_ports, level_names, level_hints, run_level),
    PLUGIN(4204, "nan_out", "NaN Out (test)", 2, copy_ports, copy_names, copy_hints, run_nan),
    PLUGIN(4205, "named", "Named Port (test)", 3, level_ports, named_names, named_hints, run_level),
};

const LADSPA_Descriptor *ladspa_descriptor(unsigned long index) {
    return index < sizeof(descriptors) / sizeof(descriptors[0]) ? &descriptors[index] : NULL;
}
