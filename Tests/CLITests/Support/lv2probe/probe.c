/* A test LV2 plugin that reports, on its output control ports, what its host gave it: the
   options (sample rate, nominal block, sequence size), the worker's round trips, whether the
   atom buffers were reset before every run, whether an optional CV port was left unconnected,
   whether every run had the nominal block length. Audio passes unchanged. Built by the tests
   (LV2HostFeatureTests) into a bundle with manifest.ttl and probe.ttl. No LV2 headers needed. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef void *LV2_Handle;
typedef uint32_t LV2_URID;
typedef struct { const char *URI; void *data; } LV2_Feature;
typedef struct LV2_Descriptor {
    const char *URI;
    LV2_Handle (*instantiate)(const struct LV2_Descriptor *, double, const char *, const LV2_Feature *const *);
    void (*connect_port)(LV2_Handle, uint32_t, void *);
    void (*activate)(LV2_Handle);
    void (*run)(LV2_Handle, uint32_t);
    void (*deactivate)(LV2_Handle);
    void (*cleanup)(LV2_Handle);
    const void *(*extension_data)(const char *);
} LV2_Descriptor;
typedef struct { void *handle; LV2_URID (*map)(void *, const char *); } LV2_URID_Map;
typedef struct { int context; uint32_t subject; LV2_URID key; uint32_t size; LV2_URID type; const void *value; } LV2_Options_Option;
typedef struct { void *handle; int (*printf)(void *, LV2_URID, const char *, ...); int (*vprintf)(void *, LV2_URID, const char *, va_list); } LV2_Log_Log;
typedef int (*Respond)(void *, uint32_t, const void *);
typedef struct { int (*work)(LV2_Handle, Respond, void *, uint32_t, const void *); int (*work_response)(LV2_Handle, uint32_t, const void *); int (*end_run)(LV2_Handle); } LV2_Worker_Interface;
typedef struct { void *handle; int (*schedule_work)(void *, uint32_t, const void *); } LV2_Worker_Schedule;
typedef struct { uint32_t size; uint32_t type; } LV2_Atom;
typedef struct { LV2_Atom atom; uint32_t unit; uint32_t pad; } LV2_Atom_Sequence;

#define PROBE_URI "urn:aupipe:test:probe"
typedef struct {
    float *in, *out, *ports[17];
    LV2_Atom_Sequence *control, *notify;
    void *cv;
    LV2_Worker_Schedule *schedule;
    LV2_URID sequence, chunk;
    float rate, block, sequence_size, fixed, worked, ended, activated, irregular;
} Probe;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *bundle, const LV2_Feature *const *features) {
    (void)d; (void)rate; (void)bundle;
    LV2_URID_Map *map = NULL; const LV2_Options_Option *options = NULL; LV2_Log_Log *log = NULL;
    Probe *p = calloc(1, sizeof *p);
    for (int i = 0; features[i]; i++) {
        const char *u = features[i]->URI;
        if (!strcmp(u, "http://lv2plug.in/ns/ext/urid#map")) map = features[i]->data;
        else if (!strcmp(u, "http://lv2plug.in/ns/ext/options#options")) options = features[i]->data;
        else if (!strcmp(u, "http://lv2plug.in/ns/ext/log#log")) log = features[i]->data;
        else if (!strcmp(u, "http://lv2plug.in/ns/ext/worker#schedule")) p->schedule = features[i]->data;
        else if (!strcmp(u, "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength")) p->fixed = 1;
    }
    if (!map || !options || !log || !p->schedule) { free(p); return NULL; }
    p->sequence = map->map(map->handle, "http://lv2plug.in/ns/ext/atom#Sequence");
    p->chunk = map->map(map->handle, "http://lv2plug.in/ns/ext/atom#Chunk");
    LV2_URID f = map->map(map->handle, "http://lv2plug.in/ns/ext/atom#Float");
    LV2_URID n = map->map(map->handle, "http://lv2plug.in/ns/ext/atom#Int");
    LV2_URID sr = map->map(map->handle, "http://lv2plug.in/ns/ext/parameters#sampleRate");
    LV2_URID nb = map->map(map->handle, "http://lv2plug.in/ns/ext/buf-size#nominalBlockLength");
    LV2_URID ss = map->map(map->handle, "http://lv2plug.in/ns/ext/buf-size#sequenceSize");
    for (const LV2_Options_Option *o = options; o->key; o++) {
        if (o->key == sr && o->type == f) p->rate = *(const float *)o->value;
        if (o->key == nb && o->type == n) p->block = (float)*(const int32_t *)o->value;
        if (o->key == ss && o->type == n) p->sequence_size = (float)*(const int32_t *)o->value;
    }
    /* Quiet unless asked, so that tests of a clean stderr can use the probe. */
    if (getenv("AUPIPE_PROBE_LOG")) {
        log->printf(log->handle, map->map(map->handle, "http://lv2plug.in/ns/ext/log#Warning"), "probe says %s", "hello");
        log->printf(log->handle, map->map(map->handle, "http://lv2plug.in/ns/ext/log#Trace"), "probe traces\n");
    }
    return p;
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    Probe *p = h;
    if (port == 0) p->in = data;
    else if (port == 1) p->out = data;
    else if (port == 2) p->control = data;
    else if (port == 3) p->notify = data;
    else if (port == 10) p->cv = data;
    else if (port < 17) p->ports[port] = data;
}

static void activate(LV2_Handle h) { ((Probe *)h)->activated += 1; }

/* Output ports: 4 rate, 5 block, 6 worked, 7 ended, 8 sequences, 9 fixed, 13 cvnull, 14 seqsize,
   15 activated, 16 irregular. */
static void run(LV2_Handle h, uint32_t frames) {
    Probe *p = h;
    int ok = p->control->atom.type == p->sequence && p->control->atom.size == 8
        && p->notify->atom.type == p->chunk && p->notify->atom.size + 8 == (uint32_t)p->sequence_size;
    /* Leave the notify buffer as an empty sequence: the host must reset it before the next run. */
    p->notify->atom.type = p->sequence;
    p->notify->atom.size = 8;
    p->control->atom.size = 0;
    *p->ports[8] = ok && *p->ports[8] != 0 ? 1 : 0;
    *p->ports[4] = p->rate;
    *p->ports[5] = p->block;
    *p->ports[9] = p->fixed;
    *p->ports[13] = p->cv == NULL;
    *p->ports[14] = p->sequence_size;
    *p->ports[15] = p->activated;
    if ((float)frames != p->block) p->irregular = 1;
    *p->ports[16] = p->irregular;
    for (uint32_t i = 0; i < frames; i++) p->out[i] = p->in[i];
    p->schedule->schedule_work(p->schedule->handle, sizeof frames, &frames);
}

static int work(LV2_Handle h, Respond respond, void *handle, uint32_t size, const void *data) {
    (void)h;
    uint32_t twice = *(const uint32_t *)data * 2;
    return size == 4 ? respond(handle, sizeof twice, &twice) : 1;
}
static int work_response(LV2_Handle h, uint32_t size, const void *body) {
    Probe *p = h;
    if (size == 4) p->worked += (float)*(const uint32_t *)body;
    *p->ports[6] = p->worked;
    return 0;
}
static int end_run(LV2_Handle h) { Probe *p = h; p->ended += 1; *p->ports[7] = p->ended; return 0; }
static const LV2_Worker_Interface worker = { work, work_response, end_run };
static const void *extension_data(const char *uri) {
    return strcmp(uri, "http://lv2plug.in/ns/ext/worker#interface") == 0 ? &worker : NULL;
}
static void deactivate(LV2_Handle h) { (void)h; }
static void cleanup(LV2_Handle h) { free(h); }
static const LV2_Descriptor descriptor = { PROBE_URI, instantiate, connect_port, activate, run, deactivate, cleanup, extension_data };
__attribute__((visibility("default"))) const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
