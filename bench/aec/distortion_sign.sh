#!/bin/bash
# The loudspeaker's distortion sign (DistortionSign) per scene of the four scene sets, from `aec --stats`.
# Usage, from the repository's root: bench/aec/distortion_sign.sh BINARY [aec ARGS...]
B=$1; shift
for set in aec aec-apart aec48 aec16r; do
  for d in bench/out/$set/*/; do
    line=$("$B" --stats aec ref="$d/far.wav" "$@" < "$d/mic.wav" 2>&1 >/dev/null | tr ';,' '\n\n' | grep -E "distortion sign|nonlinear canceller ran" | tr '\n' ' ')
    echo "$set/$(basename "$d"): $line"
  done
done
