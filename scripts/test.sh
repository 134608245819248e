#!/usr/bin/env bash
# The whole test suite: C unit tests (meson test, sanitizer build) and the
# pytest integration tests that run the real xfbtrace on real GL programs.
# Exits non-zero on any failure, and when pytest ran no test at all.
# Arguments go to pytest (e.g. -k piglit, -m "not piglit", -x).
# Prints how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=()
part() { # name, command...: runs it, notes its time, passes its status on
  local name=$1 start=$SECONDS rc=0
  shift
  echo "== $name =="
  "$@" || rc=$?
  timings+=("$(printf '%-44s %5d s%s' "$name" $((SECONDS - start)) \
    "$( ((rc)) && echo "   (failed: exit $rc)")")")
  return $rc
}
report() {
  echo "== time per part =="
  printf '%s\n' "${timings[@]}"
}
trap report EXIT

part "setup (packages, build/, build-san/)" ./scripts/setup.sh

part "C unit tests (build-san: ASan + UBSan)" \
  meson test -C build-san --print-errorlogs --num-processes 2

export XFBTRACE_BUILD_DIR="$PWD/build" XFBTRACE_SAN_BUILD_DIR="$PWD/build-san"
# Debian's pytest, whatever python3 comes first on PATH.  Exit status 5
# ("no tests ran") is non-zero and so fails the suite, as it must.
part "integration tests (pytest)" \
  /usr/bin/python3 -m pytest tests/integration -q -rs -p no:cacheprovider --strict-markers \
  --durations=15 "$@"
