/* LADSPA plugins made for aupipe's tests, each with one behaviour to check deterministically:
     latency_delay (4101)  mono: delays by 37 frames and reports it on an output port "latency";
                           also reports the block's peak on "Peak"
     one_to_two    (4102)  one audio input, two outputs: a channel mismatch to refuse
     odd_port      (4103)  a port that is neither audio nor control: refused as unsupported
     hinted        (4104)  mono: "Cutoff" bounded 0...0.5 x the sample rate (default middle),
                           "Invert" a toggle (default 0), "Steps" an integer 0...3 (default 1,
                           which multiplies by Steps); output = input * Steps * (Invert ? -1 : 1)
     nan_burst     (4105)  mono: output = input, except NaN at the stream's samples 4800-4809
                           and +infinity at sample 9600 (a faulty plugin's output)
   Built with -I Sources/CAUPipeSupport/include, whose aupipe_ladspa.h declares the structs. */
#include "aupipe_ladspa.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define DELAY 37

typedef struct {
    LADSPA_Data *port[6];
    float line[DELAY];
    int pos;
    unsigned long count;
} Instance;

static LADSPA_Handle instantiate(const LADSPA_Descriptor *d, unsigned long rate) {
    (void)d; (void)rate;
    return calloc(1, sizeof(Instance));
}
static void connect_port(LADSPA_Handle h, unsigned long port, LADSPA_Data *data) { ((Instance *)h)->port[port] = data; }
static void cleanup(LADSPA_Handle h) { free(h); }

/* latency_delay: 0 in, 1 out, 2 latency, 3 Peak */
static void run_delay(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    float peak = 0;
    for (unsigned long i = 0; i < n; i++) {
        float x = s->port[0][i];
        s->port[1][i] = s->line[s->pos];
        s->line[s->pos] = x;
        s->pos = (s->pos + 1) % DELAY;
        if (fabsf(x) > peak) peak = fabsf(x);
    }
    *s->port[2] = DELAY;
    if (s->port[3]) *s->port[3] = peak;
}

/* one_to_two: 0 in, 1 left, 2 right */
static void run_split(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[2][i] = s->port[0][i];
}

/* hinted: 0 in, 1 out, 2 Cutoff, 3 Invert, 4 Steps */
static void run_hinted(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    float k = *s->port[4] * (*s->port[3] > 0.5f ? -1.0f : 1.0f);
    for (unsigned long i = 0; i < n; i++) s->port[1][i] = s->port[0][i] * k;
}

/* nan_burst: 0 in, 1 out */
static void run_nan_burst(LADSPA_Handle h, unsigned long n) {
    Instance *s = h;
    for (unsigned long i = 0; i < n; i++, s->count++) {
        float x = s->port[0][i];
        if (s->count >= 4800 && s->count < 4810) x = NAN;
        if (s->count == 9600) x = INFINITY;
        s->port[1][i] = x;
    }
}

static const LADSPA_PortDescriptor delay_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO,
    LADSPA_PORT_OUTPUT | LADSPA_PORT_CONTROL, LADSPA_PORT_OUTPUT | LADSPA_PORT_CONTROL};
static const char *const delay_names[] = {"Input", "Output", "latency", "Peak"};
static const LADSPA_PortRangeHint delay_hints[] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};

static const LADSPA_PortDescriptor split_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
static const char *const split_names[] = {"Input", "Left", "Right"};
static const LADSPA_PortRangeHint split_hints[] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};

static const LADSPA_PortDescriptor odd_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_INPUT};
static const char *const odd_names[] = {"Input", "Output", "Mystery"};

static const LADSPA_PortDescriptor mono_ports[] = {LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
static const char *const mono_names[] = {"Input", "Output"};

static const LADSPA_PortDescriptor hinted_ports[] = {
    LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO,
    LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL, LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL, LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL};
static const char *const hinted_names[] = {"Input", "Output", "Cutoff (Hz)", "Invert", "Steps"};
static const LADSPA_PortRangeHint hinted_hints[] = {
    {0, 0, 0}, {0, 0, 0},
    {LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | LADSPA_HINT_SAMPLE_RATE | LADSPA_HINT_DEFAULT_MIDDLE, 0, 0.5f},
    {LADSPA_HINT_TOGGLED | LADSPA_HINT_DEFAULT_0, 0, 0},
    {LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | LADSPA_HINT_INTEGER | LADSPA_HINT_DEFAULT_1, 0, 3}};

#define PLUGIN(id, label, name, ports, names, hints, runner) \
    {id, label, LADSPA_PROPERTY_HARD_RT_CAPABLE, name, "aupipe tests", "None", \
     sizeof(ports) / sizeof(ports[0]), ports, names, hints, NULL, \
     instantiate, connect_port, NULL, runner, NULL, NULL, NULL, cleanup}

static const LADSPA_Descriptor descriptors[] = {
    PLUGIN(4101, "latency_delay", "Latency Delay (test)", delay_ports, delay_names, delay_hints, run_delay),
    PLUGIN(4102, "one_to_two", "One To Two (test)", split_ports, split_names, split_hints, run_split),
    PLUGIN(4103, "odd_port", "Odd Port (test)", odd_ports, odd_names, split_hints, run_split),
    PLUGIN(4104, "hinted", "Hinted Ports (test)", hinted_ports, hinted_names, hinted_hints, run_hinted),
    PLUGIN(4105, "nan_burst", "NaN Burst (test)", mono_ports, mono_names, split_hints, run_nan_burst),
};

const LADSPA_Descriptor *ladspa_descriptor(unsigned long index) {
    return index < sizeof(descriptors) / sizeof(descriptors[0]) ? &descriptors[index] : NULL;
}

#ifdef ANNOUNCE_LOAD
/* Built with -DANNOUNCE_LOAD, the library says when it is loaded: tests use it to show that a
   run without a plugin, and `aupipe units`, scan no plugin directory. */
#include <unistd.h>
__attribute__((constructor)) static void announce(void) {
    ssize_t r = write(2, "aupipe_test loaded\n", 19);
    (void)r;
}
#endif
