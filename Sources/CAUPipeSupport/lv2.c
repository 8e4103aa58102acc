#define _GNU_SOURCE
#include "aupipe_lv2.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* lilv's types, opaque here (lilv/lilv.h, stable since lilv 0.24). Collections and iterators
   are void in lilv itself. */
typedef struct LilvWorldImpl LilvWorld;
typedef struct LilvPluginImpl LilvPlugin;
typedef struct LilvPortImpl LilvPort;
typedef struct LilvNodeImpl LilvNode;
typedef struct LilvScalePointImpl LilvScalePoint;
typedef struct LilvStateImpl LilvState;
typedef void LilvIter;
typedef void LilvPlugins;
typedef void LilvNodes;
typedef void LilvScalePoints;

/* The LV2 structures aupipe uses, from the LV2 specification (lv2core, urid, options, log,
   worker, atom; a stable ABI). */
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
/* lilv's LilvInstance, whose calls (connect_port, run, ...) are static inline in lilv.h. */
typedef struct { const LV2_Descriptor *lv2_descriptor; LV2_Handle lv2_handle; void *pimpl; } LilvInstance;
typedef struct { void *handle; LV2_URID (*map)(void *, const char *); } LV2_URID_Map;
typedef struct { void *handle; const char *(*unmap)(void *, LV2_URID); } LV2_URID_Unmap;
typedef enum { LV2_OPTIONS_INSTANCE = 0 } LV2_Options_Context;
typedef struct {
    LV2_Options_Context context;
    uint32_t subject;
    LV2_URID key;
    uint32_t size;
    LV2_URID type;
    const void *value;
} LV2_Options_Option;
typedef struct {
    void *handle;
    int (*printf)(void *, LV2_URID, const char *, ...);
    int (*vprintf)(void *, LV2_URID, const char *, va_list);
} LV2_Log_Log;
typedef enum { LV2_WORKER_SUCCESS = 0, LV2_WORKER_ERR_UNKNOWN = 1, LV2_WORKER_ERR_NO_SPACE = 2 } LV2_Worker_Status;
typedef LV2_Worker_Status (*LV2_Worker_Respond_Function)(void *, uint32_t, const void *);
typedef struct {
    LV2_Worker_Status (*work)(LV2_Handle, LV2_Worker_Respond_Function, void *, uint32_t, const void *);
    LV2_Worker_Status (*work_response)(LV2_Handle, uint32_t, const void *);
    LV2_Worker_Status (*end_run)(LV2_Handle);
} LV2_Worker_Interface;
typedef struct { void *handle; LV2_Worker_Status (*schedule_work)(void *, uint32_t, const void *); } LV2_Worker_Schedule;
typedef struct { uint32_t size; uint32_t type; } LV2_Atom;
typedef struct { uint32_t unit; uint32_t pad; } LV2_Atom_Sequence_Body;
typedef struct { LV2_Atom atom; LV2_Atom_Sequence_Body body; } LV2_Atom_Sequence;

#define LV2_CORE "http://lv2plug.in/ns/lv2core#"
#define LV2_ATOM "http://lv2plug.in/ns/ext/atom#"
#define LV2_BUFSZ "http://lv2plug.in/ns/ext/buf-size#"
#define LV2_LOG "http://lv2plug.in/ns/ext/log#"
#define LV2_UNITS "http://lv2plug.in/ns/extensions/units#"
#define LV2_URID_NS "http://lv2plug.in/ns/ext/urid#"
#define LV2_OPTIONS_NS "http://lv2plug.in/ns/ext/options#"
#define LV2_WORKER "http://lv2plug.in/ns/ext/worker#"
#define LV2_PARAMETERS "http://lv2plug.in/ns/ext/parameters#"
#define LV2_STATE "http://lv2plug.in/ns/ext/state#"
#define LILV_OPTION_LV2_PATH "http://drobilla.net/ns/lilv#lv2-path"

typedef void (*LilvSetPortValueFunc)(const char *, void *, const void *, uint32_t, uint32_t);

/* Every lilv call aupipe makes, bound by name. */
#define LILV_CALLS(X) \
    X(LilvWorld *, lilv_world_new, (void)) \
    X(void, lilv_world_set_option, (LilvWorld *, const char *, const LilvNode *)) \
    X(void, lilv_world_load_all, (LilvWorld *)) \
    X(void, lilv_world_load_bundle, (LilvWorld *, const LilvNode *)) \
    X(LilvNode *, lilv_new_file_uri, (LilvWorld *, const char *, const char *)) \
    X(const LilvNode *, lilv_plugin_get_bundle_uri, (const LilvPlugin *)) \
    X(const LilvNodes *, lilv_plugin_get_data_uris, (const LilvPlugin *)) \
    X(int, lilv_world_load_resource, (LilvWorld *, const LilvNode *)) \
    X(LilvNode *, lilv_world_get, (LilvWorld *, const LilvNode *, const LilvNode *, const LilvNode *)) \
    X(const LilvPlugins *, lilv_world_get_all_plugins, (const LilvWorld *)) \
    X(unsigned, lilv_plugins_size, (const LilvPlugins *)) \
    X(LilvIter *, lilv_plugins_begin, (const LilvPlugins *)) \
    X(const LilvPlugin *, lilv_plugins_get, (const LilvPlugins *, LilvIter *)) \
    X(LilvIter *, lilv_plugins_next, (const LilvPlugins *, LilvIter *)) \
    X(bool, lilv_plugins_is_end, (const LilvPlugins *, LilvIter *)) \
    X(const LilvPlugin *, lilv_plugins_get_by_uri, (const LilvPlugins *, const LilvNode *)) \
    X(const LilvNode *, lilv_plugin_get_uri, (const LilvPlugin *)) \
    X(LilvNode *, lilv_plugin_get_name, (const LilvPlugin *)) \
    X(const LilvNode *, lilv_plugin_get_library_uri, (const LilvPlugin *)) \
    X(uint32_t, lilv_plugin_get_num_ports, (const LilvPlugin *)) \
    X(const LilvPort *, lilv_plugin_get_port_by_index, (const LilvPlugin *, uint32_t)) \
    X(LilvNodes *, lilv_plugin_get_required_features, (const LilvPlugin *)) \
    X(bool, lilv_plugin_has_feature, (const LilvPlugin *, const LilvNode *)) \
    X(LilvNodes *, lilv_plugin_get_related, (const LilvPlugin *, const LilvNode *)) \
    X(LilvInstance *, lilv_plugin_instantiate, (const LilvPlugin *, double, const LV2_Feature *const *)) \
    X(void, lilv_instance_free, (LilvInstance *)) \
    X(bool, lilv_port_is_a, (const LilvPlugin *, const LilvPort *, const LilvNode *)) \
    X(const LilvNodes *, lilv_port_get_classes, (const LilvPlugin *, const LilvPort *)) \
    X(bool, lilv_port_has_property, (const LilvPlugin *, const LilvPort *, const LilvNode *)) \
    X(const LilvNode *, lilv_port_get_symbol, (const LilvPlugin *, const LilvPort *)) \
    X(LilvNode *, lilv_port_get_name, (const LilvPlugin *, const LilvPort *)) \
    X(LilvNode *, lilv_port_get, (const LilvPlugin *, const LilvPort *, const LilvNode *)) \
    X(LilvNodes *, lilv_port_get_value, (const LilvPlugin *, const LilvPort *, const LilvNode *)) \
    X(void, lilv_port_get_range, (const LilvPlugin *, const LilvPort *, LilvNode **, LilvNode **, LilvNode **)) \
    X(LilvScalePoints *, lilv_port_get_scale_points, (const LilvPlugin *, const LilvPort *)) \
    X(LilvIter *, lilv_scale_points_begin, (const LilvScalePoints *)) \
    X(const LilvScalePoint *, lilv_scale_points_get, (const LilvScalePoints *, LilvIter *)) \
    X(LilvIter *, lilv_scale_points_next, (const LilvScalePoints *, LilvIter *)) \
    X(bool, lilv_scale_points_is_end, (const LilvScalePoints *, LilvIter *)) \
    X(void, lilv_scale_points_free, (LilvScalePoints *)) \
    X(const LilvNode *, lilv_scale_point_get_label, (const LilvScalePoint *)) \
    X(const LilvNode *, lilv_scale_point_get_value, (const LilvScalePoint *)) \
    X(unsigned, lilv_nodes_size, (const LilvNodes *)) \
    X(LilvIter *, lilv_nodes_begin, (const LilvNodes *)) \
    X(const LilvNode *, lilv_nodes_get, (const LilvNodes *, LilvIter *)) \
    X(LilvIter *, lilv_nodes_next, (const LilvNodes *, LilvIter *)) \
    X(bool, lilv_nodes_is_end, (const LilvNodes *, LilvIter *)) \
    X(bool, lilv_nodes_contains, (const LilvNodes *, const LilvNode *)) \
    X(void, lilv_nodes_free, (LilvNodes *)) \
    X(LilvNode *, lilv_new_uri, (LilvWorld *, const char *)) \
    X(LilvNode *, lilv_new_string, (LilvWorld *, const char *)) \
    X(void, lilv_node_free, (LilvNode *)) \
    X(bool, lilv_node_equals, (const LilvNode *, const LilvNode *)) \
    X(bool, lilv_node_is_uri, (const LilvNode *)) \
    X(bool, lilv_node_is_float, (const LilvNode *)) \
    X(bool, lilv_node_is_int, (const LilvNode *)) \
    X(const char *, lilv_node_as_string, (const LilvNode *)) \
    X(const char *, lilv_node_as_uri, (const LilvNode *)) \
    X(float, lilv_node_as_float, (const LilvNode *)) \
    X(int, lilv_node_as_int, (const LilvNode *)) \
    X(char *, lilv_file_uri_parse, (const char *, char **)) \
    X(void, lilv_free, (void *)) \
    X(LilvState *, lilv_state_new_from_world, (LilvWorld *, LV2_URID_Map *, const LilvNode *)) \
    X(void, lilv_state_emit_port_values, (const LilvState *, LilvSetPortValueFunc, void *)) \
    X(void, lilv_state_free, (LilvState *)) \
    X(unsigned, lilv_state_get_num_properties, (const LilvState *)) \
    X(void, lilv_state_restore, (const LilvState *, LilvInstance *, LilvSetPortValueFunc, void *, uint32_t, const LV2_Feature *const *)) \
    X(bool, lilv_plugin_has_extension_data, (const LilvPlugin *, const LilvNode *))

#define DECLARE(ret, name, args) static ret (*p_##name) args;
LILV_CALLS(DECLARE)

static void *handle;
static char load_error[512];
/* Every use of lilv (a world is not thread-safe) and of the URID table. */
static pthread_mutex_t lilv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t urid_lock = PTHREAD_MUTEX_INITIALIZER;

int aupipe_lv2_load(const char *library) {
    const char *name = library ? library : "liblilv-0.so.0";
    pthread_mutex_lock(&lilv_lock);
    int result = 0;
    if (handle) {
        /* Bound already: only check that the other name loads too. */
        void *other = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (!other) other = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (other) dlclose(other);
        else { snprintf(load_error, sizeof load_error, "%s", dlerror()); result = -1; }
        pthread_mutex_unlock(&lilv_lock);
        return result;
    }
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        pthread_mutex_unlock(&lilv_lock);
        return -1;
    }
#define BIND(ret, fn, args) \
    if (!(p_##fn = (ret (*) args)dlsym(h, #fn))) { \
        snprintf(load_error, sizeof load_error, "%s has no %s (lilv older than 0.24?)", name, #fn); \
        dlclose(h); \
        pthread_mutex_unlock(&lilv_lock); \
        return -1; \
    }
    LILV_CALLS(BIND)
    handle = h;
    pthread_mutex_unlock(&lilv_lock);
    return 0;
}

const char *aupipe_lv2_load_error(void) { return load_error; }

/* ---- urid:map and urid:unmap: one process-wide table, ids from 1, never removed. ---- */

static char **urids;
static uint32_t urid_count, urid_capacity;

static LV2_URID urid_map(void *unused, const char *uri) {
    (void)unused;
    if (!uri) return 0;
    pthread_mutex_lock(&urid_lock);
    for (uint32_t i = 0; i < urid_count; i++)
        if (strcmp(urids[i], uri) == 0) { pthread_mutex_unlock(&urid_lock); return i + 1; }
    LV2_URID id = 0;
    if (urid_count == urid_capacity) {
        uint32_t capacity = urid_capacity ? urid_capacity * 2 : 256;
        char **grown = realloc(urids, capacity * sizeof *grown);
        if (!grown) { pthread_mutex_unlock(&urid_lock); return 0; }
        urids = grown;
        urid_capacity = capacity;
    }
    char *copy = strdup(uri);
    if (copy) {
        urids[urid_count++] = copy;
        id = urid_count;
    }
    pthread_mutex_unlock(&urid_lock);
    return id;
}

static const char *urid_unmap(void *unused, LV2_URID id) {
    (void)unused;
    pthread_mutex_lock(&urid_lock);
    const char *uri = id >= 1 && id <= urid_count ? urids[id - 1] : NULL;
    pthread_mutex_unlock(&urid_lock);
    return uri;
}

static LV2_URID_Map urid_map_feature = { NULL, urid_map };
static LV2_URID_Unmap urid_unmap_feature = { NULL, urid_unmap };

/* ---- The features aupipe provides. ---- */

static const char *const provided_features[] = {
    LV2_URID_NS "map",
    LV2_URID_NS "unmap",
    LV2_OPTIONS_NS "options",
    LV2_BUFSZ "boundedBlockLength",
    LV2_BUFSZ "fixedBlockLength",
    LV2_BUFSZ "powerOf2BlockLength",
    LV2_BUFSZ "coarseBlockLength",
    LV2_LOG "log",
    LV2_WORKER "schedule",
    NULL
};

/* Properties, not features, that some plugins list as features; they need nothing. */
static const char *const property_features[] = {
    LV2_CORE "isLive",
    LV2_CORE "hardRTCapable",
    LV2_CORE "inPlaceBroken",
    NULL
};

const char *const *aupipe_lv2_provided_features(void) { return provided_features; }

int aupipe_lv2_feature_is_provided(const char *uri) {
    for (const char *const *f = provided_features; *f; f++) if (strcmp(*f, uri) == 0) return 1;
    for (const char *const *f = property_features; *f; f++) if (strcmp(*f, uri) == 0) return 1;
    return 0;
}

/* ---- The world. ---- */

/* The URIs discovery asks about, made once per world. */
#define WORLD_NODES(X) \
    X(audio_port, LV2_CORE "AudioPort") \
    X(control_port, LV2_CORE "ControlPort") \
    X(cv_port, LV2_CORE "CVPort") \
    X(input_port, LV2_CORE "InputPort") \
    X(output_port, LV2_CORE "OutputPort") \
    X(atom_port, LV2_ATOM "AtomPort") \
    X(buffer_type, LV2_ATOM "bufferType") \
    X(sequence, LV2_ATOM "Sequence") \
    X(event_port, "http://lv2plug.in/ns/ext/event#EventPort") \
    X(integer, LV2_CORE "integer") \
    X(toggled, LV2_CORE "toggled") \
    X(logarithmic, "http://lv2plug.in/ns/ext/port-props#logarithmic") \
    X(connection_optional, LV2_CORE "connectionOptional") \
    X(sample_rate, LV2_CORE "sampleRate") \
    X(designation, LV2_CORE "designation") \
    X(latency, LV2_CORE "latency") \
    X(reports_latency, LV2_CORE "reportsLatency") \
    X(units_unit, LV2_UNITS "unit") \
    X(units_symbol, LV2_UNITS "symbol") \
    X(minimum_size, "http://lv2plug.in/ns/ext/resize-port#minimumSize") \
    X(fixed_block_length, LV2_BUFSZ "fixedBlockLength") \
    X(power_of_2_block_length, LV2_BUFSZ "powerOf2BlockLength") \
    X(min_block_length, LV2_BUFSZ "minBlockLength") \
    X(max_block_length, LV2_BUFSZ "maxBlockLength") \
    X(nominal_block_length, LV2_BUFSZ "nominalBlockLength") \
    X(in_place_broken, LV2_CORE "inPlaceBroken") \
    X(preset, "http://lv2plug.in/ns/ext/presets#Preset") \
    X(state_interface, LV2_STATE "interface") \
    X(label, "http://www.w3.org/2000/01/rdf-schema#label")

struct aupipe_lv2_world {
    LilvWorld *world;
    uint32_t plugin_count;
    const LilvPlugin **plugins;
#define NODE_FIELD(field, uri) LilvNode *field;
    WORLD_NODES(NODE_FIELD)
};

/* stderr sent to a temporary file between capture_begin and capture_end (see the header). */
static FILE *captured_file;
static int captured_saved_fd = -1;

void aupipe_lv2_stderr_capture_begin(void) {
    if (captured_file) return;
    const char *log_setting = getenv("AUPIPE_LV2_LOG");
    if (log_setting && strcmp(log_setting, "1") == 0) return;
    FILE *f = tmpfile();
    if (!f) return;
    fflush(stderr);
    int saved = dup(2);
    if (saved < 0 || dup2(fileno(f), 2) < 0) {
        if (saved >= 0) close(saved);
        fclose(f);
        return;
    }
    captured_file = f;
    captured_saved_fd = saved;
}

char *aupipe_lv2_stderr_capture_end(void) {
    if (!captured_file) return NULL;
    fflush(stderr);
    dup2(captured_saved_fd, 2);
    close(captured_saved_fd);
    captured_saved_fd = -1;
    FILE *file = captured_file;
    captured_file = NULL;
    char *text = NULL;
    long size = ftell(file);
    if (size > 0) {
        if (size > 65536) size = 65536;
        text = malloc((size_t)size + 1);
        if (text) {
            rewind(file);
            size_t n = fread(text, 1, (size_t)size, file);
            text[n] = 0;
            if (n == 0) { free(text); text = NULL; }
        }
    }
    fclose(file);
    return text;
}

static aupipe_lv2_world *world_finish(aupipe_lv2_world *w);

aupipe_lv2_world *aupipe_lv2_world_open(const char *lv2_path) {
    if (!handle) return NULL;
    pthread_mutex_lock(&lilv_lock);
    aupipe_lv2_world *w = calloc(1, sizeof *w);
    if (!w || !(w->world = p_lilv_world_new())) { free(w); pthread_mutex_unlock(&lilv_lock); return NULL; }
    if (lv2_path) {
        LilvNode *path = p_lilv_new_string(w->world, lv2_path);
        p_lilv_world_set_option(w->world, LILV_OPTION_LV2_PATH, path);
        p_lilv_node_free(path);
    }
    p_lilv_world_load_all(w->world);
    return world_finish(w);
}

aupipe_lv2_world *aupipe_lv2_world_open_bundles(const char *const *bundle_paths, uint32_t count) {
    if (!handle) return NULL;
    pthread_mutex_lock(&lilv_lock);
    aupipe_lv2_world *w = calloc(1, sizeof *w);
    if (!w || !(w->world = p_lilv_world_new())) { free(w); pthread_mutex_unlock(&lilv_lock); return NULL; }
    for (uint32_t i = 0; i < count; i++) {
        size_t n = strlen(bundle_paths[i]);
        char *dir = malloc(n + 2);
        if (!dir) continue;
        memcpy(dir, bundle_paths[i], n + 1);
        if (n == 0 || dir[n - 1] != '/') { dir[n] = '/'; dir[n + 1] = 0; }  /* a bundle URI ends in '/' */
        LilvNode *bundle = p_lilv_new_file_uri(w->world, NULL, dir);
        if (bundle) { p_lilv_world_load_bundle(w->world, bundle); p_lilv_node_free(bundle); }
        free(dir);
    }
    return world_finish(w);
}

/* Appends the directory of file URI `uri` (a bundle's own URI ends in '/') to `list` as a line,
   unless it is there already. */
static void append_directory(char **list, size_t *length, const char *uri) {
    char *path = uri ? p_lilv_file_uri_parse(uri, NULL) : NULL;
    if (!path) return;
    char *slash = strrchr(path, '/');
    if (slash && slash != path) *slash = 0;
    size_t n = strlen(path);
    for (const char *line = *list; line && *line; ) {
        const char *end = strchr(line, '\n');
        if ((size_t)(end - line) == n && strncmp(line, path, n) == 0) { p_lilv_free(path); return; }
        line = end + 1;
    }
    char *grown = realloc(*list, *length + n + 2);
    if (grown) {
        memcpy(grown + *length, path, n);
        grown[*length + n] = '\n';
        grown[*length + n + 1] = 0;
        *list = grown;
        *length += n + 1;
    }
    p_lilv_free(path);
}

char *aupipe_lv2_world_plugin_bundles(aupipe_lv2_world *w, uint32_t index) {
    if (!w || index >= w->plugin_count) return NULL;
    pthread_mutex_lock(&lilv_lock);
    const LilvPlugin *p = w->plugins[index];
    char *list = NULL;
    size_t length = 0;
    const LilvNode *bundle = p_lilv_plugin_get_bundle_uri(p);
    if (bundle) append_directory(&list, &length, p_lilv_node_as_uri(bundle));
    const LilvNodes *data = p_lilv_plugin_get_data_uris(p);
    if (data)
        for (LilvIter *i = p_lilv_nodes_begin(data); !p_lilv_nodes_is_end(data, i); i = p_lilv_nodes_next(data, i))
            append_directory(&list, &length, p_lilv_node_as_uri(p_lilv_nodes_get(data, i)));
    /* A preset's bundle is where its data lies (rdfs:seeAlso in that bundle's manifest). */
    LilvNode *see_also = p_lilv_new_uri(w->world, "http://www.w3.org/2000/01/rdf-schema#seeAlso");
    LilvNodes *presets = p_lilv_plugin_get_related(p, w->preset);
    if (presets) {
        for (LilvIter *i = p_lilv_nodes_begin(presets); !p_lilv_nodes_is_end(presets, i); i = p_lilv_nodes_next(presets, i)) {
            LilvNode *file = p_lilv_world_get(w->world, p_lilv_nodes_get(presets, i), see_also, NULL);
            if (file && p_lilv_node_is_uri(file)) append_directory(&list, &length, p_lilv_node_as_uri(file));
            if (file) p_lilv_node_free(file);
        }
        p_lilv_nodes_free(presets);
    }
    if (see_also) p_lilv_node_free(see_also);
    pthread_mutex_unlock(&lilv_lock);
    return list;
}

/* Makes the world's nodes and its list of plugins; called with lilv_lock held, releases it. */
static aupipe_lv2_world *world_finish(aupipe_lv2_world *w) {
#define NODE_NEW(field, uri) w->field = p_lilv_new_uri(w->world, uri);
    WORLD_NODES(NODE_NEW)
    const LilvPlugins *plugins = p_lilv_world_get_all_plugins(w->world);
    unsigned count = p_lilv_plugins_size(plugins);
    w->plugins = calloc(count ? count : 1, sizeof *w->plugins);
    if (w->plugins) {
        for (LilvIter *i = p_lilv_plugins_begin(plugins); !p_lilv_plugins_is_end(plugins, i) && w->plugin_count < count;
             i = p_lilv_plugins_next(plugins, i))
            w->plugins[w->plugin_count++] = p_lilv_plugins_get(plugins, i);
    }
    pthread_mutex_unlock(&lilv_lock);
    return w;
}

uint32_t aupipe_lv2_world_plugin_count(aupipe_lv2_world *w) { return w ? w->plugin_count : 0; }

uint32_t aupipe_lv2_world_plugin_index(aupipe_lv2_world *w, const char *uri) {
    if (!w || !uri) return UINT32_MAX;
    pthread_mutex_lock(&lilv_lock);
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < w->plugin_count && found == UINT32_MAX; i++) {
        const char *u = p_lilv_node_as_uri(p_lilv_plugin_get_uri(w->plugins[i]));
        if (u && strcmp(u, uri) == 0) found = i;
    }
    pthread_mutex_unlock(&lilv_lock);
    return found;
}

/* ---- Discovery. ---- */

static char *copy_string(const char *s) { return s ? strdup(s) : NULL; }

/* Takes a node lilv gave the caller: its text, then frees it. */
static char *take_string(LilvNode *node) {
    if (!node) return NULL;
    char *s = copy_string(p_lilv_node_as_string(node));
    p_lilv_node_free(node);
    return s;
}

static int take_number(LilvNode *node, float *value) {
    if (!node) return 0;
    int ok = p_lilv_node_is_float(node) || p_lilv_node_is_int(node);
    if (ok) *value = p_lilv_node_as_float(node);
    p_lilv_node_free(node);
    return ok;
}

/* units.ttl's symbols for the common units. */
static const struct { const char *name, *symbol; } unit_symbols[] = {
    {"bar", "bars"}, {"beat", "beats"}, {"bpm", "BPM"}, {"cent", "ct"}, {"cm", "cm"}, {"coef", "coef"},
    {"db", "dB"}, {"degree", "deg"}, {"frame", "frames"}, {"hz", "Hz"}, {"inch", "in"}, {"khz", "kHz"},
    {"km", "km"}, {"m", "m"}, {"mhz", "MHz"}, {"midiNote", "note"}, {"mile", "mi"}, {"min", "min"},
    {"mm", "mm"}, {"ms", "ms"}, {"oct", "oct"}, {"pc", "%"}, {"s", "s"}, {"semitone12TET", "semi"},
};

static char *unit_symbol(aupipe_lv2_world *w, const LilvPlugin *p, const LilvPort *port) {
    LilvNode *unit = p_lilv_port_get(p, port, w->units_unit);
    if (!unit) return NULL;
    char *symbol = NULL;
    if (p_lilv_node_is_uri(unit)) {
        const char *uri = p_lilv_node_as_uri(unit);
        size_t prefix = strlen(LV2_UNITS);
        if (strncmp(uri, LV2_UNITS, prefix) == 0)
            for (size_t i = 0; i < sizeof unit_symbols / sizeof *unit_symbols; i++)
                if (strcmp(uri + prefix, unit_symbols[i].name) == 0) { symbol = strdup(unit_symbols[i].symbol); break; }
    }
    if (!symbol) symbol = take_string(p_lilv_world_get(w->world, unit, w->units_symbol, NULL));
    p_lilv_node_free(unit);
    return symbol;
}

/* The last part of a URI ("CVPort" of ...lv2core#CVPort). */
static const char *uri_tail(const char *uri) {
    const char *hash = strrchr(uri, '#'), *slash = strrchr(uri, '/');
    const char *tail = hash ? hash + 1 : (slash ? slash + 1 : uri);
    return *tail ? tail : uri;
}

static char *describe_unsupported(aupipe_lv2_world *w, const LilvPlugin *p, const LilvPort *port, const char *direction) {
    const char *what = NULL;
    if (p_lilv_port_is_a(p, port, w->cv_port)) what = "CV";
    else if (p_lilv_port_is_a(p, port, w->event_port)) what = "event";
    else if (p_lilv_port_is_a(p, port, w->atom_port)) what = "atom (not a sequence)";
    char text[256];
    if (what) {
        snprintf(text, sizeof text, "%s %s", what, direction);
    } else {
        const LilvNodes *classes = p_lilv_port_get_classes(p, port);
        const char *class = NULL;
        for (LilvIter *i = p_lilv_nodes_begin(classes); !p_lilv_nodes_is_end(classes, i); i = p_lilv_nodes_next(classes, i)) {
            const LilvNode *c = p_lilv_nodes_get(classes, i);
            if (!p_lilv_node_equals(c, w->input_port) && !p_lilv_node_equals(c, w->output_port)) {
                class = uri_tail(p_lilv_node_as_string(c));
                break;
            }
        }
        snprintf(text, sizeof text, "%s %s", class ? class : "untyped", direction);
    }
    return strdup(text);
}

static void describe_port(aupipe_lv2_world *w, const LilvPlugin *p, uint32_t index, aupipe_lv2_port_info *info) {
    const LilvPort *port = p_lilv_plugin_get_port_by_index(p, index);
    info->index = index;
    info->symbol = copy_string(p_lilv_node_as_string(p_lilv_port_get_symbol(p, port)));
    info->name = take_string(p_lilv_port_get_name(p, port));
    if (!info->name) info->name = copy_string(info->symbol);
    bool input = p_lilv_port_is_a(p, port, w->input_port), output = p_lilv_port_is_a(p, port, w->output_port);
    const char *direction = input ? "input" : (output ? "output" : "port without a direction");
    info->kind = AUPIPE_LV2_PORT_UNSUPPORTED;
    if (input != output) {
        if (p_lilv_port_is_a(p, port, w->audio_port)) {
            info->kind = input ? AUPIPE_LV2_PORT_AUDIO_IN : AUPIPE_LV2_PORT_AUDIO_OUT;
        } else if (p_lilv_port_is_a(p, port, w->control_port)) {
            info->kind = input ? AUPIPE_LV2_PORT_CONTROL_IN : AUPIPE_LV2_PORT_CONTROL_OUT;
        } else if (p_lilv_port_is_a(p, port, w->atom_port)) {
            LilvNodes *types = p_lilv_port_get_value(p, port, w->buffer_type);
            if (types && p_lilv_nodes_contains(types, w->sequence))
                info->kind = input ? AUPIPE_LV2_PORT_ATOM_IN : AUPIPE_LV2_PORT_ATOM_OUT;
            if (types) p_lilv_nodes_free(types);
        }
    }
    if (info->kind == AUPIPE_LV2_PORT_UNSUPPORTED) info->unsupported = describe_unsupported(w, p, port, direction);

    LilvNode *def = NULL, *min = NULL, *max = NULL;
    p_lilv_port_get_range(p, port, &def, &min, &max);
    info->has_default = take_number(def, &info->default_value);
    info->has_minimum = take_number(min, &info->minimum);
    info->has_maximum = take_number(max, &info->maximum);
    info->unit = unit_symbol(w, p, port);

    LilvScalePoints *points = p_lilv_port_get_scale_points(p, port);
    if (points) {
        uint32_t n = 0;
        for (LilvIter *i = p_lilv_scale_points_begin(points); !p_lilv_scale_points_is_end(points, i); i = p_lilv_scale_points_next(points, i)) n++;
        info->scale_point_labels = calloc(n ? n : 1, sizeof(char *));
        info->scale_point_values = calloc(n ? n : 1, sizeof(float));
        if (info->scale_point_labels && info->scale_point_values) {
            for (LilvIter *i = p_lilv_scale_points_begin(points); !p_lilv_scale_points_is_end(points, i) && info->scale_point_count < n;
                 i = p_lilv_scale_points_next(points, i)) {
                const LilvScalePoint *point = p_lilv_scale_points_get(points, i);
                const LilvNode *label = p_lilv_scale_point_get_label(point), *value = p_lilv_scale_point_get_value(point);
                if (!label || !value || !(p_lilv_node_is_float(value) || p_lilv_node_is_int(value))) continue;
                info->scale_point_labels[info->scale_point_count] = copy_string(p_lilv_node_as_string(label));
                info->scale_point_values[info->scale_point_count] = p_lilv_node_as_float(value);
                info->scale_point_count++;
            }
        }
        p_lilv_scale_points_free(points);
    }

    info->is_integer = p_lilv_port_has_property(p, port, w->integer);
    info->is_toggled = p_lilv_port_has_property(p, port, w->toggled);
    info->is_logarithmic = p_lilv_port_has_property(p, port, w->logarithmic);
    info->is_optional = p_lilv_port_has_property(p, port, w->connection_optional);
    info->is_sample_rate = p_lilv_port_has_property(p, port, w->sample_rate);
    info->is_latency = p_lilv_port_has_property(p, port, w->reports_latency);
    if (!info->is_latency) {
        LilvNodes *designations = p_lilv_port_get_value(p, port, w->designation);
        if (designations) {
            info->is_latency = p_lilv_nodes_contains(designations, w->latency);
            p_lilv_nodes_free(designations);
        }
    }
    LilvNode *size = p_lilv_port_get(p, port, w->minimum_size);
    if (size) {
        int bytes = p_lilv_node_is_int(size) || p_lilv_node_is_float(size) ? p_lilv_node_as_int(size) : 0;
        info->minimum_size = bytes > 0 ? (uint32_t)bytes : 0;
        p_lilv_node_free(size);
    }
}

static char **collect_strings(const LilvNodes *nodes, uint32_t *count) {
    *count = 0;
    unsigned n = nodes ? p_lilv_nodes_size(nodes) : 0;
    char **strings = calloc(n ? n : 1, sizeof *strings);
    if (!strings || !nodes) return strings;
    for (LilvIter *i = p_lilv_nodes_begin(nodes); !p_lilv_nodes_is_end(nodes, i) && *count < n; i = p_lilv_nodes_next(nodes, i))
        strings[(*count)++] = copy_string(p_lilv_node_as_string(p_lilv_nodes_get(nodes, i)));
    return strings;
}

/* A block length the plugin states of itself (`bufsz:minBlockLength 64`), or 0: none, or not a
   positive whole number. */
static int32_t plugin_length(aupipe_lv2_world *w, const LilvPlugin *p, const LilvNode *property) {
    LilvNode *value = p_lilv_world_get(w->world, p_lilv_plugin_get_uri(p), property, NULL);
    if (!value) return 0;
    int32_t length = 0;
    if (p_lilv_node_is_int(value) || p_lilv_node_is_float(value)) {
        float f = p_lilv_node_as_float(value);
        if (f >= 1 && f <= 1e9f && f == (float)(int32_t)f) length = (int32_t)f;
    }
    p_lilv_node_free(value);
    return length;
}

aupipe_lv2_plugin_info *aupipe_lv2_describe(aupipe_lv2_world *w, uint32_t index) {
    if (!w || index >= w->plugin_count) return NULL;
    pthread_mutex_lock(&lilv_lock);
    const LilvPlugin *p = w->plugins[index];
    aupipe_lv2_plugin_info *info = calloc(1, sizeof *info);
    if (!info) { pthread_mutex_unlock(&lilv_lock); return NULL; }
    info->uri = copy_string(p_lilv_node_as_uri(p_lilv_plugin_get_uri(p)));
    info->name = take_string(p_lilv_plugin_get_name(p));
    const LilvNode *library = p_lilv_plugin_get_library_uri(p);
    if (library) {
        char *path = p_lilv_file_uri_parse(p_lilv_node_as_uri(library), NULL);
        info->library_path = copy_string(path ? path : p_lilv_node_as_uri(library));
        if (path) p_lilv_free(path);
    }
    info->port_count = p_lilv_plugin_get_num_ports(p);
    info->ports = calloc(info->port_count ? info->port_count : 1, sizeof *info->ports);
    if (info->ports)
        for (uint32_t i = 0; i < info->port_count; i++) describe_port(w, p, i, &info->ports[i]);
    else
        info->port_count = 0;

    LilvNodes *required = p_lilv_plugin_get_required_features(p);
    info->required_features = collect_strings(required, &info->required_feature_count);
    if (required) p_lilv_nodes_free(required);
    info->fixed_block_length = p_lilv_plugin_has_feature(p, w->fixed_block_length);
    info->power_of_2_block_length = p_lilv_plugin_has_feature(p, w->power_of_2_block_length);
    info->in_place_broken = p_lilv_plugin_has_feature(p, w->in_place_broken);
    info->has_state_interface = p_lilv_plugin_has_extension_data(p, w->state_interface);
    info->min_block_length = plugin_length(w, p, w->min_block_length);
    info->max_block_length = plugin_length(w, p, w->max_block_length);
    info->nominal_block_length = plugin_length(w, p, w->nominal_block_length);

    LilvNodes *presets = p_lilv_plugin_get_related(p, w->preset);
    info->preset_uris = collect_strings(presets, &info->preset_count);
    info->preset_labels = calloc(info->preset_count ? info->preset_count : 1, sizeof(char *));
    if (presets && info->preset_labels) {
        uint32_t k = 0;
        for (LilvIter *i = p_lilv_nodes_begin(presets); !p_lilv_nodes_is_end(presets, i) && k < info->preset_count;
             i = p_lilv_nodes_next(presets, i), k++) {
            const LilvNode *preset = p_lilv_nodes_get(presets, i);
            p_lilv_world_load_resource(w->world, preset);
            info->preset_labels[k] = take_string(p_lilv_world_get(w->world, preset, w->label, NULL));
            if (!info->preset_labels[k]) info->preset_labels[k] = copy_string(info->preset_uris[k]);
        }
    }
    if (presets) p_lilv_nodes_free(presets);
    pthread_mutex_unlock(&lilv_lock);
    return info;
}

static void free_strings(char **strings, uint32_t count) {
    if (!strings) return;
    for (uint32_t i = 0; i < count; i++) free(strings[i]);
    free(strings);
}

void aupipe_lv2_plugin_info_free(aupipe_lv2_plugin_info *info) {
    if (!info) return;
    free(info->uri);
    free(info->name);
    free(info->library_path);
    for (uint32_t i = 0; info->ports && i < info->port_count; i++) {
        aupipe_lv2_port_info *port = &info->ports[i];
        free(port->symbol);
        free(port->name);
        free(port->unsupported);
        free(port->unit);
        free_strings(port->scale_point_labels, port->scale_point_count);
        free(port->scale_point_values);
    }
    free(info->ports);
    free_strings(info->required_features, info->required_feature_count);
    free_strings(info->preset_uris, info->preset_count);
    free_strings(info->preset_labels, info->preset_count);
    free(info);
}

/* ---- Presets. ---- */

typedef struct {
    void (*emit)(void *, const char *, float);
    void *context;
    LV2_URID atom_float, atom_double, atom_int, atom_long, atom_bool;
} preset_emitter;

static void emit_port_value(const char *symbol, void *user, const void *value, uint32_t size, uint32_t type) {
    preset_emitter *e = user;
    float v;
    if (type == e->atom_float && size == sizeof(float)) v = *(const float *)value;
    else if (type == e->atom_double && size == sizeof(double)) v = (float)*(const double *)value;
    else if ((type == e->atom_int || type == e->atom_bool) && size == sizeof(int32_t)) v = (float)*(const int32_t *)value;
    else if (type == e->atom_long && size == sizeof(int64_t)) v = (float)*(const int64_t *)value;
    else return;
    e->emit(e->context, symbol, v);
}

int aupipe_lv2_preset_values(aupipe_lv2_world *w, const char *preset_uri,
                             void (*emit)(void *, const char *, float), void *context, uint32_t *state_properties) {
    *state_properties = 0;
    if (!w) return -1;
    preset_emitter e = {
        emit, context,
        urid_map(NULL, LV2_ATOM "Float"), urid_map(NULL, LV2_ATOM "Double"), urid_map(NULL, LV2_ATOM "Int"),
        urid_map(NULL, LV2_ATOM "Long"), urid_map(NULL, LV2_ATOM "Bool"),
    };
    pthread_mutex_lock(&lilv_lock);
    LilvNode *node = p_lilv_new_uri(w->world, preset_uri);
    p_lilv_world_load_resource(w->world, node);
    LilvState *state = p_lilv_state_new_from_world(w->world, &urid_map_feature, node);
    p_lilv_node_free(node);
    if (state) {
        p_lilv_state_emit_port_values(state, emit_port_value, &e);
        *state_properties = p_lilv_state_get_num_properties(state);
        p_lilv_state_free(state);
    }
    pthread_mutex_unlock(&lilv_lock);
    return state ? 0 : -1;
}

/* ---- Instances. ---- */

enum { SEQUENCE_SIZE = 8192, RESPONSE_CAPACITY = 65536, MAX_FEATURES = 16 };

typedef struct { uint32_t port; int output; LV2_Atom_Sequence *buffer; } atom_buffer;

struct aupipe_lv2_instance {
    LilvInstance *lilv;
    const LV2_Descriptor *descriptor;
    LV2_Handle plugin;
    char *uri;
    int active;
    /* log:log */
    LV2_Log_Log log;
    LV2_URID log_error, log_warning;
    int log_everything;
    /* While instantiating (and restoring state), messages are held here (one per line) rather
       than printed: a plugin that refuses says why in the one error line; one that accepts has
       them printed then (release_held). */
    int holding;
    char held[1024];
    /* worker:schedule, run synchronously; responses wait here until run returns. */
    LV2_Worker_Schedule schedule;
    const LV2_Worker_Interface *worker;
    uint8_t *responses;
    uint32_t responses_used;
    /* options:options */
    float sample_rate;
    int32_t min_block, max_block, nominal_block, sequence_size;
    LV2_Options_Option options[6];
    LV2_Feature features[MAX_FEATURES];
    const LV2_Feature *feature_list[MAX_FEATURES + 1];
    /* atom ports */
    uint32_t atom_count;
    atom_buffer *atoms;
    uint32_t atom_capacity; /* bytes per buffer, header included */
    LV2_URID atom_sequence, atom_chunk;
};

static int log_vprintf(void *h, LV2_URID type, const char *format, va_list args) {
    aupipe_lv2_instance *instance = h;
    if (!instance->log_everything && type != instance->log_error && type != instance->log_warning) return 0;
    char text[1024];
    int n = vsnprintf(text, sizeof text, format, args);
    size_t length = strlen(text);
    if (instance->holding) {
        size_t used = strlen(instance->held);
        snprintf(instance->held + used, sizeof instance->held - used, "%s%s", text, length && text[length - 1] == '\n' ? "" : "\n");
        return n;
    }
    fprintf(stderr, "aupipe: lv2 %s: %s%s", instance->uri, text, length && text[length - 1] == '\n' ? "" : "\n");
    return n;
}

/* What was held while instantiating or restoring, now on stderr as any other message. */
static void release_held(aupipe_lv2_instance *instance) {
    for (char *line = instance->held, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end) break;
        *end = 0;
        fprintf(stderr, "aupipe: lv2 %s: %s\n", instance->uri, line);
    }
    instance->held[0] = 0;
}

static int log_printf(void *h, LV2_URID type, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = log_vprintf(h, type, format, args);
    va_end(args);
    return n;
}

static LV2_Worker_Status worker_respond(void *h, uint32_t size, const void *data) {
    aupipe_lv2_instance *instance = h;
    uint32_t padded = (size + 7u) & ~7u;
    if (size > RESPONSE_CAPACITY || instance->responses_used + 8 + padded > RESPONSE_CAPACITY) return LV2_WORKER_ERR_NO_SPACE;
    memcpy(instance->responses + instance->responses_used, &size, sizeof size);
    memcpy(instance->responses + instance->responses_used + 8, data, size);
    instance->responses_used += 8 + padded;
    return LV2_WORKER_SUCCESS;
}

static LV2_Worker_Status worker_schedule(void *h, uint32_t size, const void *data) {
    aupipe_lv2_instance *instance = h;
    if (!instance->worker || !instance->worker->work || !instance->plugin) return LV2_WORKER_ERR_UNKNOWN;
    return instance->worker->work(instance->plugin, worker_respond, instance, size, data);
}

static void add_feature(aupipe_lv2_instance *instance, uint32_t *count, const char *uri, void *data) {
    if (*count >= MAX_FEATURES) return;
    instance->features[*count] = (LV2_Feature){ uri, data };
    instance->feature_list[*count] = &instance->features[*count];
    (*count)++;
    instance->feature_list[*count] = NULL;
}

static void set_option(LV2_Options_Option *option, const char *key, uint32_t size, LV2_URID type, const void *value) {
    *option = (LV2_Options_Option){ LV2_OPTIONS_INSTANCE, 0, urid_map(NULL, key), size, type, value };
}

aupipe_lv2_instance *aupipe_lv2_instantiate(aupipe_lv2_world *w, const char *uri, double rate,
                                            int32_t min_block, int32_t max_block, int32_t nominal_block,
                                            int *failure, char *error, size_t error_size) {
    *failure = AUPIPE_LV2_REFUSED;
    if (!w) { snprintf(error, error_size, "lilv is not loaded"); return NULL; }
    aupipe_lv2_instance *instance = calloc(1, sizeof *instance);
    if (!instance || !(instance->uri = strdup(uri)) || !(instance->responses = malloc(RESPONSE_CAPACITY))) {
        if (instance) { free(instance->uri); free(instance); }
        *failure = AUPIPE_LV2_NO_MEMORY;
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    const char *log_setting = getenv("AUPIPE_LV2_LOG");
    instance->log_everything = log_setting && strcmp(log_setting, "1") == 0;
    instance->log_error = urid_map(NULL, LV2_LOG "Error");
    instance->log_warning = urid_map(NULL, LV2_LOG "Warning");
    instance->log = (LV2_Log_Log){ instance, log_printf, log_vprintf };
    instance->schedule = (LV2_Worker_Schedule){ instance, worker_schedule };
    instance->atom_sequence = urid_map(NULL, LV2_ATOM "Sequence");
    instance->atom_chunk = urid_map(NULL, LV2_ATOM "Chunk");

    pthread_mutex_lock(&lilv_lock);
    LilvNode *uri_node = p_lilv_new_uri(w->world, uri);
    const LilvPlugin *p = p_lilv_plugins_get_by_uri(p_lilv_world_get_all_plugins(w->world), uri_node);
    p_lilv_node_free(uri_node);
    if (!p) {
        pthread_mutex_unlock(&lilv_lock);
        snprintf(error, error_size, "no plugin %s", uri);
        aupipe_lv2_instance_free(instance);
        return NULL;
    }

    /* Atom buffers: one size for all, at least bufsz:sequenceSize and every rsz:minimumSize. */
    uint32_t ports = p_lilv_plugin_get_num_ports(p), atoms = 0, capacity = SEQUENCE_SIZE;
    for (uint32_t i = 0; i < ports; i++) {
        const LilvPort *port = p_lilv_plugin_get_port_by_index(p, i);
        if (!p_lilv_port_is_a(p, port, w->atom_port)) continue;
        atoms++;
        LilvNode *size = p_lilv_port_get(p, port, w->minimum_size);
        if (size) {
            int bytes = p_lilv_node_as_int(size);
            if (bytes > 0 && (uint32_t)bytes + sizeof(LV2_Atom) > capacity) capacity = (uint32_t)bytes + sizeof(LV2_Atom);
            p_lilv_node_free(size);
        }
    }
    capacity = (capacity + 7u) & ~7u;
    instance->atom_capacity = capacity;
    instance->atoms = calloc(atoms ? atoms : 1, sizeof *instance->atoms);

    instance->sample_rate = (float)rate;
    instance->min_block = min_block;
    instance->max_block = max_block;
    instance->nominal_block = nominal_block;
    instance->sequence_size = (int32_t)capacity;
    LV2_URID atom_int = urid_map(NULL, LV2_ATOM "Int"), atom_float = urid_map(NULL, LV2_ATOM "Float");
    set_option(&instance->options[0], LV2_PARAMETERS "sampleRate", sizeof(float), atom_float, &instance->sample_rate);
    set_option(&instance->options[1], LV2_BUFSZ "minBlockLength", sizeof(int32_t), atom_int, &instance->min_block);
    set_option(&instance->options[2], LV2_BUFSZ "maxBlockLength", sizeof(int32_t), atom_int, &instance->max_block);
    set_option(&instance->options[3], LV2_BUFSZ "nominalBlockLength", sizeof(int32_t), atom_int, &instance->nominal_block);
    set_option(&instance->options[4], LV2_BUFSZ "sequenceSize", sizeof(int32_t), atom_int, &instance->sequence_size);
    instance->options[5] = (LV2_Options_Option){ LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL };

    uint32_t count = 0;
    add_feature(instance, &count, LV2_URID_NS "map", &urid_map_feature);
    add_feature(instance, &count, LV2_URID_NS "unmap", &urid_unmap_feature);
    add_feature(instance, &count, LV2_OPTIONS_NS "options", instance->options);
    add_feature(instance, &count, LV2_BUFSZ "boundedBlockLength", NULL);
    /* Promises the host unit keeps: one length on every run (min = max), a power of two where
       that length is one, and never a run split short (coarse). */
    if (min_block == max_block) add_feature(instance, &count, LV2_BUFSZ "fixedBlockLength", NULL);
    if (min_block == max_block && max_block > 0 && (max_block & (max_block - 1)) == 0)
        add_feature(instance, &count, LV2_BUFSZ "powerOf2BlockLength", NULL);
    if (min_block == max_block) add_feature(instance, &count, LV2_BUFSZ "coarseBlockLength", NULL);
    add_feature(instance, &count, LV2_LOG "log", &instance->log);
    add_feature(instance, &count, LV2_WORKER "schedule", &instance->schedule);

    if (!instance->atoms) {
        pthread_mutex_unlock(&lilv_lock);
        *failure = AUPIPE_LV2_NO_MEMORY;
        snprintf(error, error_size, "out of memory");
        aupipe_lv2_instance_free(instance);
        return NULL;
    }
    /* Open the library first: where it does not load (a missing dependency), say why here
       instead of letting lilv print it. lilv's own dlopen then finds it loaded. */
    void *library = NULL;
    const LilvNode *library_uri = p_lilv_plugin_get_library_uri(p);
    char *library_path = library_uri ? p_lilv_file_uri_parse(p_lilv_node_as_uri(library_uri), NULL) : NULL;
    if (library_path) {
        library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char *why = dlerror();
            pthread_mutex_unlock(&lilv_lock);
            *failure = AUPIPE_LV2_NO_LIBRARY;
            snprintf(error, error_size, "%s", why ? why : library_path);
            p_lilv_free(library_path);
            aupipe_lv2_instance_free(instance);
            return NULL;
        }
        p_lilv_free(library_path);
    }
    instance->holding = 1;
    instance->lilv = p_lilv_plugin_instantiate(p, rate, instance->feature_list);
    instance->holding = 0;
    if (library) dlclose(library);
    if (!instance->lilv) {
        pthread_mutex_unlock(&lilv_lock);
        size_t held = strlen(instance->held);
        while (held && instance->held[held - 1] == '\n') instance->held[--held] = 0;
        snprintf(error, error_size, "the plugin refused to instantiate at %g Hz with runs of %d frames%s%s", rate, (int)max_block,
                 held ? ": " : " (it did not say why)", instance->held);
        aupipe_lv2_instance_free(instance);
        return NULL;
    }
    release_held(instance);
    instance->descriptor = instance->lilv->lv2_descriptor;
    instance->plugin = instance->lilv->lv2_handle;
    if (instance->descriptor->extension_data)
        instance->worker = instance->descriptor->extension_data(LV2_WORKER "interface");

    /* The backend's own connections: atom ports to its buffers, other optional ports to NULL. */
    for (uint32_t i = 0; i < ports; i++) {
        const LilvPort *port = p_lilv_plugin_get_port_by_index(p, i);
        bool input = p_lilv_port_is_a(p, port, w->input_port);
        if (p_lilv_port_is_a(p, port, w->atom_port)) {
            LV2_Atom_Sequence *buffer = aligned_alloc(8, capacity);
            if (!buffer) {
                pthread_mutex_unlock(&lilv_lock);
                *failure = AUPIPE_LV2_NO_MEMORY;
                snprintf(error, error_size, "out of memory");
                aupipe_lv2_instance_free(instance);
                return NULL;
            }
            memset(buffer, 0, capacity);
            instance->atoms[instance->atom_count++] = (atom_buffer){ i, !input, buffer };
            instance->descriptor->connect_port(instance->plugin, i, buffer);
        } else if (!p_lilv_port_is_a(p, port, w->audio_port) && !p_lilv_port_is_a(p, port, w->control_port)) {
            instance->descriptor->connect_port(instance->plugin, i, NULL);
        }
    }
    pthread_mutex_unlock(&lilv_lock);
    return instance;
}

void aupipe_lv2_connect(aupipe_lv2_instance *instance, uint32_t port, void *data) {
    instance->descriptor->connect_port(instance->plugin, port, data);
}

void aupipe_lv2_activate(aupipe_lv2_instance *instance) {
    if (instance->active) return;
    if (instance->descriptor->activate) instance->descriptor->activate(instance->plugin);
    instance->active = 1;
}

/* Delivers the worker's queued responses (work_response may queue more, also delivered), then
   end_run. */
static void deliver_responses(aupipe_lv2_instance *instance) {
    for (uint32_t offset = 0; offset < instance->responses_used;) {
        uint32_t size;
        memcpy(&size, instance->responses + offset, sizeof size);
        if (instance->worker->work_response) instance->worker->work_response(instance->plugin, size, instance->responses + offset + 8);
        offset += 8 + ((size + 7u) & ~7u);
    }
    instance->responses_used = 0;
    if (instance->worker->end_run) instance->worker->end_run(instance->plugin);
}

/* The state interface (LV2 state extension); only restore is called. */
typedef struct {
    int (*save)(LV2_Handle, void *, void *, uint32_t, const LV2_Feature *const *);
    int (*restore)(LV2_Handle, void *, void *, uint32_t, const LV2_Feature *const *);
} LV2_State_Interface;

int aupipe_lv2_restore(aupipe_lv2_world *w, aupipe_lv2_instance *instance, const char *preset_uri, char *error, size_t error_size) {
    const LV2_State_Interface *iface = instance->descriptor->extension_data
        ? instance->descriptor->extension_data(LV2_STATE "interface") : NULL;
    if (!iface || !iface->restore) {
        snprintf(error, error_size, "the plugin has no state:interface to restore it with");
        return -1;
    }
    pthread_mutex_lock(&lilv_lock);
    LilvNode *node = p_lilv_new_uri(w->world, preset_uri);
    p_lilv_world_load_resource(w->world, node);
    LilvState *state = p_lilv_state_new_from_world(w->world, &urid_map_feature, node);
    p_lilv_node_free(node);
    if (!state) {
        pthread_mutex_unlock(&lilv_lock);
        snprintf(error, error_size, "lilv could not load its state");
        return -1;
    }
    /* lilv adds state:mapPath and freePath (paths in the preset are made absolute from its
       bundle) to the instance's own features, worker:schedule among them. */
    instance->holding = 1;
    p_lilv_state_restore(state, instance->lilv, NULL, NULL, 0, instance->feature_list);
    instance->holding = 0;
    p_lilv_state_free(state);
    pthread_mutex_unlock(&lilv_lock);
    /* Work restore scheduled (loading a file) has run; its responses take effect now, before
       the first run. */
    if (instance->worker) deliver_responses(instance);
    release_held(instance);
    return 0;
}

void aupipe_lv2_run(aupipe_lv2_instance *instance, uint32_t frames) {
    for (uint32_t i = 0; i < instance->atom_count; i++) {
        LV2_Atom_Sequence *sequence = instance->atoms[i].buffer;
        if (instance->atoms[i].output) {
            /* The capacity the plugin may write, as an atom:Chunk (LV2 atom spec). */
            sequence->atom.size = instance->atom_capacity - (uint32_t)sizeof(LV2_Atom);
            sequence->atom.type = instance->atom_chunk;
        } else {
            sequence->atom.size = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
            sequence->atom.type = instance->atom_sequence;
            sequence->body.unit = 0;
            sequence->body.pad = 0;
        }
    }
    instance->descriptor->run(instance->plugin, frames);
    /* Responses queued by work() during run. */
    if (instance->worker) deliver_responses(instance);
}

void aupipe_lv2_deactivate(aupipe_lv2_instance *instance) {
    if (!instance->active) return;
    if (instance->descriptor->deactivate) instance->descriptor->deactivate(instance->plugin);
    instance->active = 0;
}

void aupipe_lv2_instance_free(aupipe_lv2_instance *instance) {
    if (!instance) return;
    if (instance->lilv) {
        aupipe_lv2_deactivate(instance);
        pthread_mutex_lock(&lilv_lock);
        p_lilv_instance_free(instance->lilv);
        pthread_mutex_unlock(&lilv_lock);
    }
    for (uint32_t i = 0; instance->atoms && i < instance->atom_count; i++) free(instance->atoms[i].buffer);
    free(instance->atoms);
    free(instance->responses);
    free(instance->uri);
    free(instance);
}
