#ifndef AUPIPE_CSPEEXDSP_SHIM_H
#define AUPIPE_CSPEEXDSP_SHIM_H
/* speexdsp as packaged by Debian (libspeexdsp-dev), float build. */
#include <speex/speex_resampler.h>
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#endif
