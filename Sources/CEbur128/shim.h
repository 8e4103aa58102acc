#ifndef AUPIPE_CEBUR128_SHIM_H
#define AUPIPE_CEBUR128_SHIM_H
/* libebur128 as packaged by Debian (libebur128-dev): EBU R128 / BS.1770-4 loudness. */
#include <ebur128.h>
#endif
