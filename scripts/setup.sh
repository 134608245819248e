#!/usr/bin/env bash
# Installs the Debian packages xfbtrace needs and builds it, twice:
#   build/      optimised, -Werror: the toolkit used by demo.sh and the
#               integration tests (the capture library is preloaded into
#               real GL programs, so it is built without sanitizers);
#   build-san/  debug, -Werror, ASan + UBSan: unit tests and the CLI's
#               hostile-input tests.
# Idempotent: apt-get runs only when a package is missing, and `apt-get
# update` only then.  Set XFBTRACE_SKIP_SAN=1 to build build/ only.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # toolchain
  gcc g++ meson ninja-build pkg-config git python3 python3-pytest
  # libraries
  libzstd-dev libxxhash-dev libepoxy-dev libegl-dev libgles-dev libgl-dev
  libopengl-dev libsqlite3-dev libpq-dev libpng-dev libsnappy-dev zlib1g-dev libbrotli-dev libmicrohttpd-dev
  glslang-dev glslang-tools spirv-headers spirv-tools
  # the GL API registry the capture wrappers are generated from
  khronos-api
  # Mesa's software drivers (llvmpipe, softpipe) and EGL
  libegl-mesa0 libgl1-mesa-dri mesa-utils
  # peers and real test programs
  piglit apitrace
  # the shared results store's tests start a real PostgreSQL server (initdb + pg_ctl, psql)
  postgresql postgresql-client
  # the WebGL2 page in Chromium through ANGLE (test_chromium.py): its GLX run under Xvfb
  xvfb xauth
  # the web UI's end-to-end test: a real browser, headless
  chromium chromium-driver python3-selenium
  # a real TF application (tests/integration/test_godot.py), under a virtual X server
  godot3 xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

configure() { # dir, meson options...
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >/dev/null
  fi
}

configure build --buildtype=debugoptimized -Dwerror=true
ninja -C build
if [ "${XFBTRACE_SKIP_SAN:-0}" != 1 ]; then
  configure build-san --buildtype=debug -Dwerror=true -Db_sanitize=address,undefined \
    -Db_lundef=false
  ninja -C build-san
fi
