/* Four tiny LV2 plugins for aupipe's host tests, one bundle (the test writes its manifest.ttl):
 *   http://aupipe.test/plugins/unobtainium  passthrough that requires a feature no host has
 *   http://aupipe.test/plugins/fixedblock   passthrough that requires fixed power-of-two blocks and
 *                                            aborts if a run is given any other frame count than the
 *                                            nominal (or, without it, the maximum) block length
 *   http://aupipe.test/plugins/delay100     delays by 100 frames and reports that as its latency
 *   http://aupipe.test/plugins/cv           passthrough with a CV input port (a port type aupipe refuses)
 *   http://aupipe.test/plugins/named        multiplies by a control port whose symbol is "name" (every
 *                                            unit's label key in aupipe)
 *   http://aupipe.test/plugins/limits       passthrough that states bufsz:minBlockLength and maxBlockLength
 *                                            1000 and aborts unless its options and every run say 1000
 *   http://aupipe.test/plugins/nopow2       requires power-of-two blocks of 600...1000 frames (none exists)
 *   http://aupipe.test/plugins/refuser      logs an error ("needs a sound card") and refuses to instantiate
 *   http://aupipe.test/plugins/stateful     multiplies by a factor (1 until restored) that its state:interface
 *                                            restores from the state property http://aupipe.test/ns#factor
 *   http://aupipe.test/plugins/stateless    passthrough without a state:interface, with a preset carrying state
 * The LV2 structs are declared from the LV2 specification (stable ABI), so no lv2-dev is needed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void *LV2_Handle;
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
typedef struct { void *handle; uint32_t (*map)(void *, const char *); } LV2_URID_Map;
typedef struct { uint32_t context, subject, key, size, type; const void *value; } LV2_Options_Option;
typedef struct { void *handle; int (*printf)(void *, uint32_t, const char *, ...); } LV2_Log_Log;
typedef const void *(*LV2_State_Retrieve_Function)(void *, uint32_t, size_t *, uint32_t *, uint32_t *);
typedef struct {
    int (*save)(LV2_Handle, void *, void *, uint32_t, const LV2_Feature *const *);
    int (*restore)(LV2_Handle, LV2_State_Retrieve_Function, void *, uint32_t, const LV2_Feature *const *);
} LV2_State_Interface;

#define BUFSZ "http://lv2plug.in/ns/ext/buf-size#"

typedef struct {
    const float *in;
    float *out;
    float *latency;
    const float *cv;
    const float *factor;
    uint32_t block;      /* fixedblock: the only frame count run accepts */
    float line[100];     /* delay100: the frames held back */
    uint32_t pos;
    const LV2_URID_Map *map;  /* stateful: to map the state's keys and types */
    float state_factor;       /* stateful: 1 until restored */
} Plugin;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *features) {
    (void)rate; (void)path;
    Plugin *p = calloc(1, sizeof(Plugin));
    if (!p) return NULL;
    p->state_factor = 1;
    for (int i = 0; features && features[i]; i++)
        if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/urid#map") == 0) p->map = features[i]->data;
    if (strcmp(d->URI, "http://aupipe.test/plugins/refuser") == 0) {
        const LV2_URID_Map *map = NULL;
        const LV2_Log_Log *log = NULL;
        for (int i = 0; features && features[i]; i++) {
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/urid#map") == 0) map = features[i]->data;
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/log#log") == 0) log = features[i]->data;
        }
        if (map && log) log->printf(log->handle, map->map(map->handle, "http://lv2plug.in/ns/ext/log#Error"), "needs a sound card\n");
        free(p);
        return NULL;
    }
    if (strcmp(d->URI, "http://aupipe.test/plugins/limits") == 0) {
        const LV2_URID_Map *map = NULL;
        const LV2_Options_Option *options = NULL;
        for (int i = 0; features && features[i]; i++) {
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/urid#map") == 0) map = features[i]->data;
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/options#options") == 0) options = features[i]->data;
        }
        if (!map || !options) { free(p); return NULL; }
        uint32_t keys[3] = { map->map(map->handle, BUFSZ "minBlockLength"), map->map(map->handle, BUFSZ "maxBlockLength"),
                             map->map(map->handle, BUFSZ "nominalBlockLength") };
        int seen = 0;
        for (const LV2_Options_Option *o = options; o->key || o->value; o++)
            for (int k = 0; k < 3; k++)
                if (o->key == keys[k]) { if (*(const int32_t *)o->value != 1000) abort(); seen++; }
        if (seen != 3) abort();
        p->block = 1000;
    }
    if (strcmp(d->URI, "http://aupipe.test/plugins/fixedblock") == 0) {
        const LV2_URID_Map *map = NULL;
        const LV2_Options_Option *options = NULL;
        for (int i = 0; features && features[i]; i++) {
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/urid#map") == 0) map = features[i]->data;
            if (strcmp(features[i]->URI, "http://lv2plug.in/ns/ext/options#options") == 0) options = features[i]->data;
        }
        if (!map || !options) { free(p); return NULL; }
        uint32_t nominal = map->map(map->handle, BUFSZ "nominalBlockLength");
        uint32_t maximum = map->map(map->handle, BUFSZ "maxBlockLength");
        uint32_t atomInt = map->map(map->handle, "http://lv2plug.in/ns/ext/atom#Int");
        uint32_t fromMax = 0, fromNominal = 0;
        for (const LV2_Options_Option *o = options; o->key || o->value; o++) {
            if (o->type != atomInt || !o->value) continue;
            if (o->key == nominal) fromNominal = (uint32_t)*(const int32_t *)o->value;
            if (o->key == maximum) fromMax = (uint32_t)*(const int32_t *)o->value;
        }
        p->block = fromNominal ? fromNominal : fromMax;
        /* A power of two, as the plugin requires. */
        if (p->block == 0 || (p->block & (p->block - 1)) != 0) { free(p); return NULL; }
    }
    return p;
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    Plugin *p = h;
    switch (port) {
    case 0: p->in = data; break;
    case 1: p->out = data; break;
    case 2: p->latency = data; p->cv = data; p->factor = data; break;
    }
}

static void run_pass(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    memmove(p->out, p->in, n * sizeof(float));
}

static void run_fixed(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    if (n != p->block) abort();
    memmove(p->out, p->in, n * sizeof(float));
}

static void run_delay(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; i++) {
        float x = p->in[i];
        p->out[i] = p->line[p->pos];
        p->line[p->pos] = x;
        p->pos = (p->pos + 1) % 100;
    }
    if (p->latency) *p->latency = 100;
}

static void run_named(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; i++) p->out[i] = p->in[i] * *p->factor;
}

static void run_stateful(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; i++) p->out[i] = p->in[i] * p->state_factor;
}

static int restore(LV2_Handle h, LV2_State_Retrieve_Function retrieve, void *handle, uint32_t flags, const LV2_Feature *const *features) {
    (void)flags; (void)features;
    Plugin *p = h;
    if (!p->map) return 1;
    size_t size = 0;
    uint32_t type = 0, vflags = 0;
    const void *value = retrieve(handle, p->map->map(p->map->handle, "http://aupipe.test/ns#factor"), &size, &type, &vflags);
    if (!value) return 1;
    if (type == p->map->map(p->map->handle, "http://lv2plug.in/ns/ext/atom#Float") && size == sizeof(float)) p->state_factor = *(const float *)value;
    else if (type == p->map->map(p->map->handle, "http://lv2plug.in/ns/ext/atom#Double") && size == sizeof(double)) p->state_factor = (float)*(const double *)value;
    else return 1;
    return 0;
}

static const LV2_State_Interface state_interface = { NULL, restore };

static const void *stateful_extension_data(const char *uri) {
    return strcmp(uri, "http://lv2plug.in/ns/ext/state#interface") == 0 ? &state_interface : NULL;
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptors[] = {
    { "http://aupipe.test/plugins/unobtainium", instantiate, connect_port, NULL, run_pass, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/fixedblock", instantiate, connect_port, NULL, run_fixed, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/delay100", instantiate, connect_port, NULL, run_delay, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/cv", instantiate, connect_port, NULL, run_pass, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/named", instantiate, connect_port, NULL, run_named, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/limits", instantiate, connect_port, NULL, run_fixed, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/nopow2", instantiate, connect_port, NULL, run_pass, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/refuser", instantiate, connect_port, NULL, run_pass, NULL, cleanup, NULL },
    { "http://aupipe.test/plugins/stateful", instantiate, connect_port, NULL, run_stateful, NULL, cleanup, stateful_extension_data },
    { "http://aupipe.test/plugins/stateless", instantiate, connect_port, NULL, run_pass, NULL, cleanup, NULL },
};

__attribute__((visibility("default"))) const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
