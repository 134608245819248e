#!/usr/bin/env bash
# The whole test suite: C unit tests (meson test, sanitizer build) and the
# pytest integration tests that run the real xfbtrace on real GL programs.
# Exits non-zero on any failure, and when pytest ran no test at all.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

echo "== C unit tests (build-san: ASan + UBSan) =="
meson test -C build-san --print-errorlogs --num-processes 2

echo "== integration tests (pytest) =="
export XFBTRACE_BUILD_DIR="$PWD/build" XFBTRACE_SAN_BUILD_DIR="$PWD/build-san"
# Debian's pytest, whatever python3 comes first on PATH.  Exit status 5
# ("no tests ran") is non-zero and so fails the suite, as it must.
/usr/bin/python3 -m pytest tests/integration -q -rs -p no:cacheprovider "$@"
