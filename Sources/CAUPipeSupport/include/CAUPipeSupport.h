#ifndef CAUPIPE_SUPPORT_UMBRELLA_H
#define CAUPIPE_SUPPORT_UMBRELLA_H
/* The module's umbrella header: every header of CAUPipeSupport, named here so that adding one
   changes this file (an umbrella directory would leave stale module caches in incremental
   builds, which do not notice a new header). */
#include "aupipe_support.h"
#include "aupipe_alsa.h"
#include "aupipe_lv2.h"
#include "aupipe_ladspa.h"
#include "aupipe_stray_stdout.h"
#include "aupipe_libraries.h"
#include "aupipe_dsp_kernels.h"
#include "aupipe_echo_kernels.h"
#include "aupipe_decimate_kernels.h"
#endif
