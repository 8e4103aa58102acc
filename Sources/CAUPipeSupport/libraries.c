#define _GNU_SOURCE
#include "aupipe_libraries.h"
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

int aupipe_loaded_library_path(const char *name, char *out, size_t size) {
    /* RTLD_NOLOAD: a handle only to a library already loaded, never a new load. */
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return -1;
    struct link_map *map = NULL;
    int result = -1;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0]) {
        char real[PATH_MAX];
        const char *path = realpath(map->l_name, real) ? real : map->l_name;
        if (strlen(path) < size) {
            strcpy(out, path);
            result = 0;
        }
    }
    dlclose(h);
    return result;
}

const char *aupipe_speexdsp_build_version(void) {
#ifdef AUPIPE_SPEEXDSP_VERSION
    return AUPIPE_SPEEXDSP_VERSION;
#else
    return NULL;
#endif
}
