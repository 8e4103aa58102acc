#ifndef AUPIPE_LV2_H
#define AUPIPE_LV2_H
/* LV2 plugins through lilv, with liblilv loaded at run time (dlopen), so that aupipe builds and
   runs where lilv is absent. Only the calls aupipe makes are bound; lilv's types are opaque and
   the LV2 structures are declared from the LV2 specification's stable ABI in lv2.c, so no lilv
   or LV2 headers are needed to build.

   The host side lives here in C: the features aupipe gives a plugin (urid:map/unmap, options,
   log, worker, block-length promises), the atom buffers, and `run`, which must not allocate.
   Strings returned are owned by the structure that holds them. */
#include <stddef.h>
#include <stdint.h>

/* Loads `library` (NULL: "liblilv-0.so.0") and binds every call. 0 on success; -1 when the
   library or a symbol is missing, with the reason in aupipe_lv2_load_error(). The first library
   loaded serves the process: a later call with another name only checks that it loads. */
int aupipe_lv2_load(const char *library);
const char *aupipe_lv2_load_error(void);

/* The feature URIs aupipe provides to every instance (a NULL-terminated list), and whether
   `uri` is one of them or one of the properties some plugins list as features (lv2:isLive,
   lv2:hardRTCapable, lv2:inPlaceBroken), which need nothing from a host. */
const char *const *aupipe_lv2_provided_features(void);
int aupipe_lv2_feature_is_provided(const char *uri);

/* A loaded lilv world with every plugin found (lilv_world_load_all, or only the bundles under
   `lv2_path` when it is not NULL). Functions taking a world serialise on one process-wide lock. */
typedef struct aupipe_lv2_world aupipe_lv2_world;
aupipe_lv2_world *aupipe_lv2_world_open(const char *lv2_path);
/* A world holding only the bundles in `bundle_paths` (directories, `count` of them): what a
   plugin found through aupipe's index of installed plugins needs, without reading any other. */
aupipe_lv2_world *aupipe_lv2_world_open_bundles(const char *const *bundle_paths, uint32_t count);
/* The directories of the bundles plugin `i` needs, one a line (each ending in '\n'): its own
   first, then those holding its data and its presets. malloc'd, the caller frees it; NULL if
   out of range. */
char *aupipe_lv2_world_plugin_bundles(aupipe_lv2_world *world, uint32_t i);
uint32_t aupipe_lv2_world_plugin_count(aupipe_lv2_world *world);
/* The index of the plugin whose URI is `uri`, or UINT32_MAX: from the manifests alone (no
   plugin's data is read, unlike aupipe_lv2_describe). */
uint32_t aupipe_lv2_world_plugin_index(aupipe_lv2_world *world, const char *uri);
/* lilv (and serd under it) write several lines on stderr for every bundle whose Turtle does
   not parse, at every load and again at queries of a plugin whose data is broken: with one
   broken bundle installed, every run using any LV2 plugin would print them. Between begin and
   end stderr (fd 2) goes to a temporary file; end restores it and returns what was written
   (malloc'd, the caller frees it; NULL if nothing). With AUPIPE_LV2_LOG=1 nothing is captured.
   Not reentrant: the caller serialises (aupipe calls them around loading a world). */
void aupipe_lv2_stderr_capture_begin(void);
char *aupipe_lv2_stderr_capture_end(void);

/* What a port carries. */
enum {
    AUPIPE_LV2_PORT_AUDIO_IN = 0,
    AUPIPE_LV2_PORT_AUDIO_OUT = 1,
    AUPIPE_LV2_PORT_CONTROL_IN = 2,
    AUPIPE_LV2_PORT_CONTROL_OUT = 3,
    AUPIPE_LV2_PORT_ATOM_IN = 4,
    AUPIPE_LV2_PORT_ATOM_OUT = 5,
    AUPIPE_LV2_PORT_UNSUPPORTED = 6
};

typedef struct {
    uint32_t index;
    int kind;                   /* AUPIPE_LV2_PORT_* */
    char *symbol;
    char *name;
    char *unsupported;          /* for AUPIPE_LV2_PORT_UNSUPPORTED: "CV input", "Event output", ... */
    int has_minimum, has_maximum, has_default;
    float minimum, maximum, default_value;
    char *unit;                 /* "dB", "Hz", ...; NULL if unstated */
    uint32_t scale_point_count;
    char **scale_point_labels;
    float *scale_point_values;
    int is_integer, is_toggled, is_logarithmic, is_latency, is_optional;
    int is_sample_rate;         /* lv2:sampleRate: range and default are fractions of the sample rate */
    uint32_t minimum_size;      /* rsz:minimumSize of an atom port, 0 if unstated */
} aupipe_lv2_port_info;

typedef struct {
    char *uri;
    char *name;
    char *library_path;
    uint32_t port_count;
    aupipe_lv2_port_info *ports;
    uint32_t required_feature_count;
    char **required_features;
    int fixed_block_length, power_of_2_block_length, in_place_broken;
    int has_state_interface;    /* lv2:extensionData state:interface: it can restore a preset's state */
    /* bufsz:minBlockLength, maxBlockLength and nominalBlockLength the plugin states of itself
       (convoLV2: 64 and 8192); 0 where it states none. */
    int32_t min_block_length, max_block_length, nominal_block_length;
    uint32_t preset_count;
    char **preset_uris;
    char **preset_labels;       /* rdfs:label, or the URI when the preset has none */
} aupipe_lv2_plugin_info;

/* Describes plugin `i` (0..<count, lilv's order). NULL if out of range or out of memory. */
aupipe_lv2_plugin_info *aupipe_lv2_describe(aupipe_lv2_world *world, uint32_t i);
void aupipe_lv2_plugin_info_free(aupipe_lv2_plugin_info *info);

/* The port values preset `preset_uri` sets, reported one by one through `emit` (symbol, value),
   and in `state_properties` how many properties of plugin state (state:state) it carries.
   0 on success, -1 if the preset cannot be loaded. */
int aupipe_lv2_preset_values(aupipe_lv2_world *world, const char *preset_uri,
                             void (*emit)(void *context, const char *symbol, float value), void *context,
                             uint32_t *state_properties);

/* A running plugin instance with its features and atom buffers. */
typedef struct aupipe_lv2_instance aupipe_lv2_instance;

/* Why aupipe_lv2_instantiate failed. */
enum {
    AUPIPE_LV2_REFUSED = 1,     /* the plugin's instantiate returned NULL, or no such plugin */
    AUPIPE_LV2_NO_LIBRARY = 2,  /* its shared object does not load (dlerror in `error`) */
    AUPIPE_LV2_NO_MEMORY = 3
};

/* Instantiates plugin `uri` for `rate` Hz and blocks of min...max frames (nominal usually).
   Connects its atom ports to buffers of its own and connection-optional ports of other types
   to NULL. On failure returns NULL with AUPIPE_LV2_* in `failure` and the reason in `error`.
   The plugin's library is opened here first, so that a library that does not load is told in
   `error` rather than by lilv on stderr. */
aupipe_lv2_instance *aupipe_lv2_instantiate(aupipe_lv2_world *world, const char *uri, double rate,
                                            int32_t min_block, int32_t max_block, int32_t nominal_block,
                                            int *failure, char *error, size_t error_size);
void aupipe_lv2_connect(aupipe_lv2_instance *instance, uint32_t port, void *data);
void aupipe_lv2_activate(aupipe_lv2_instance *instance);
/* Restores the plugin state preset `preset_uri` carries into `instance` (lilv_state_restore,
   with lilv's state:mapPath and freePath and the instance's features), before it is activated;
   work the restore scheduled is done and its responses delivered before returning. 0 on
   success; -1 with the reason in `error` (the plugin has no state:interface, the state does
   not load). */
int aupipe_lv2_restore(aupipe_lv2_world *world, aupipe_lv2_instance *instance, const char *preset_uri,
                       char *error, size_t error_size);
/* Resets the atom buffers, runs the plugin for `frames` frames, then delivers the worker's
   responses. Allocates nothing. */
void aupipe_lv2_run(aupipe_lv2_instance *instance, uint32_t frames);
void aupipe_lv2_deactivate(aupipe_lv2_instance *instance);
/* Deactivates if active, cleans up the plugin and frees everything. */
void aupipe_lv2_instance_free(aupipe_lv2_instance *instance);

#endif
