#!/usr/bin/env bash
# nvidia_corpus.sh - make the real-driver corpus of tests/data/nvidia.
#
# The corpus is the piglit TF list (tests/integration/piglit_tf.txt) and the
# sample programs of tests/apps, captured with xfbtrace on a machine with a
# real GPU driver, and replayed there with `replay --check`.  Such a machine
# usually has no piglit and no build tools, so this runs in two steps:
#
#   scripts/nvidia_corpus.sh stage DIR
#       here (Debian 12, after scripts/setup.sh): copy into DIR what the
#       other machine needs — xfbtrace and its capture library, the sample
#       programs, the piglit binaries, libraries and test files the list
#       names, zstd and spirv-as, and every shared library they load that is
#       neither glibc nor GL (ldd), stripped.
#   scripts/nvidia_corpus.sh capture DIR OUTDIR [JOBS]
#       there: link DIR's piglit at Debian's piglit path (the list's tests
#       read their data files relative to it), capture each line (timeout
#       120 s), replay each trace with --check on the same driver, write
#       OUTDIR/{traces,logs}/ and OUTDIR/results-native.tsv
#       (trace, line, capture exit code, piglit result, replay exit code,
#       replay summary line).
#
# GL comes from the machine; EGL surfaceless (PIGLIT_PLATFORM=surfaceless_egl).
# With NVIDIA's driver through glvnd, point __EGL_VENDOR_LIBRARY_FILENAMES at
# its vendor file first.  tests/data/nvidia/README.md records how the corpus
# in the tree was made with this.
set -euo pipefail

PIGLIT=/usr/lib/x86_64-linux-gnu/piglit
here=$(cd "$(dirname "$0")/.." && pwd)
list="$here/tests/integration/piglit_tf.txt"

lines() { grep -v '^#' "$list" | grep -v '^[[:space:]]*$'; }

stage() {
  local dir=$1 build=${XFBTRACE_BUILD_DIR:-$here/build}
  rm -rf "$dir"
  mkdir -p "$dir/bin" "$dir/lib" "$dir/piglit/bin" "$dir/piglit/lib"
  cp "$build/cli/xfbtrace" "$build/capture/libxfbtrace-capture.so" "$dir/bin/"
  for app in "$build"/tests/apps/tf-*; do
    [ -f "$app" ] && [ -x "$app" ] && cp "$app" "$dir/bin/"
  done
  cp "$(command -v zstd)" "$(command -v spirv-as)" "$dir/bin/"
  lines | awk '{print $1}' | sort -u | while read -r exe; do
    cp "$PIGLIT/bin/$exe" "$dir/piglit/bin/"
  done
  cp -a "$PIGLIT"/lib/*.so* "$dir/piglit/lib/"
  lines | grep -oE 'tests/[^ ]+' | sort -u | while read -r f; do
    mkdir -p "$dir/piglit/$(dirname "$f")"
    cp "$PIGLIT/$f" "$dir/piglit/$f"
  done
  # Data a listed test reads by itself (arb_gpu_shader5's stream tests).
  mkdir -p "$dir/piglit/tests/spec/arb_gpu_shader5/execution"
  cp -a "$PIGLIT/tests/spec/arb_gpu_shader5/execution/shader_source" \
    "$dir/piglit/tests/spec/arb_gpu_shader5/execution/" 2>/dev/null || true
  # Shared libraries: every one the binaries load, except glibc's and GL's,
  # which the other machine brings (its driver) or must not be replaced.
  find "$dir/bin" "$dir/piglit/bin" -type f -exec ldd {} + 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libGL[^/]*|libEGL[^/]*|libOpenGL|libGLX[^/]*|libGLdispatch|libgbm|libdrm[^/]*)\.so' |
    grep -v '/piglit/' | while read -r so; do cp -L "$so" "$dir/lib/"; done
  strip --strip-unneeded "$dir"/bin/* "$dir"/lib/* "$dir"/piglit/bin/* \
    "$dir"/piglit/lib/*.so* 2>/dev/null || true
  cp "$list" "$dir/piglit_tf.txt"
  du -sh "$dir"
}

capture() {
  local dir out jobs
  dir=$(cd "$1" && pwd); out=$2; jobs=${3:-8}
  mkdir -p "$out/traces" "$out/logs"; out=$(cd "$out" && pwd)
  if [ ! -e "$PIGLIT" ]; then
    mkdir -p "$(dirname "$PIGLIT")"; ln -s "$dir/piglit" "$PIGLIT"
  fi
  export PATH="$dir/bin:$PATH" LD_LIBRARY_PATH="$dir/lib:$dir/piglit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export XFBTRACE_CAPTURE_LIB="$dir/bin/libxfbtrace-capture.so"
  export PIGLIT_PLATFORM=surfaceless_egl PIGLIT_SOURCE_DIR="$PIGLIT"
  # One job per line: NNN, name, command (apps last, as in the corpus).
  local jobsfile="$out/jobs.txt" n=0
  : >"$jobsfile"
  while read -r line; do
    n=$((n + 1))
    printf '%03d\t%s\t%s\n' "$n" "$(echo "$line" | sed 's/ -auto.*//; s/ -fbo.*//; s/[^A-Za-z0-9_.-]/_/g' | cut -c1-110)" "bin/$line" >>"$jobsfile"
  done < <(grep -v '^#' "$dir/piglit_tf.txt" | grep -v '^[[:space:]]*$')
  # The apps in the order they joined the corpus, so that numbers stay
  # those of earlier corpora; any newer one after them, by name.
  local app
  for app in tf-particles-gles3 tf-separate-gl33 tf-streams-gl40 tf-draw-paths-gl43 \
    tf-ubo-blocks-gl33 $(cd "$dir/bin" && ls tf-* | sort); do
    [ -x "$dir/bin/$app" ] && ! grep -q "	app_$app	" "$jobsfile" || continue
    n=$((n + 1))
    printf '%03d\tapp_%s\t%s\n' "$n" "$app" "$app" >>"$jobsfile"
  done
  one() {
    local no=$1 name=$2 cmd=$3 t rc rrc result summary
    t="$out/traces/${no}_$name.xfbt"
    rc=0; (cd "$PIGLIT" && timeout 120 xfbtrace capture -o "$t" -- $cmd) \
      >"$out/logs/${no}_$name.capture.log" 2>&1 || rc=$?
    result=$(grep -oE 'PIGLIT: \{"result": "[a-z]+"' "$out/logs/${no}_$name.capture.log" |
      tail -1 | sed 's/.*"\([a-z]*\)"$/\1/')
    rrc=0; timeout 120 xfbtrace replay --check --max-diffs 100000 "$t" \
      >"$out/logs/${no}_$name.replay.log" 2>&1 || rrc=$?
    summary=$(grep -E 'observations|classified' "$out/logs/${no}_$name.replay.log" | head -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${no}_$name" "${cmd#bin/}" "$rc" "${result:--}" "$rrc" "$summary"
  }
  export -f one; export out PIGLIT
  printf 'trace\tline\tcapture_rc\tpiglit_result\treplay_rc\treplay_summary\n' >"$out/results-native.tsv"
  xargs -P "$jobs" -d '\n' -n 1 bash -c 'IFS=$'"'"'\t'"'"' read -r a b c <<<"$1"; one "$a" "$b" "$c"' _ \
    <"$jobsfile" | sort >>"$out/results-native.tsv"
  rm -f "$jobsfile"
}

case ${1:-} in
  stage) [ $# -eq 2 ] || { echo "usage: $0 stage DIR" >&2; exit 2; }; stage "$2" ;;
  capture) [ $# -ge 3 ] || { echo "usage: $0 capture DIR OUTDIR [JOBS]" >&2; exit 2; }
    capture "$2" "$3" "${4:-8}" ;;
  *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
