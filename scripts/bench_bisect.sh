#!/bin/sh
# bench_bisect.sh XFBTRACE WORKDIR - the wall time of `xfbtrace bisect` over
# 8 commits of this project (docs/performance.md, "Bisect").
#
# Clones the repository's HEAD into WORKDIR/repo and adds 8 small commits:
# notes in README.md, comments in common/, driver/, trace/ and cli/ files,
# and, 6th, the test-only stride bug of tests/integration/test_bisect.py
# (VGT_STRMOUT_VTX_STRIDE_0 one dword too large).  Then bisects a trace of
# tests/apps/tf-separate-gl33 between HEAD (good) and the last commit (bad)
# with XFBTRACE (the bisect being measured: its build strategy is what
# differs), the sim backend, a fresh cache, --buildtype=plain, 2 jobs, and
# prints the wall time.  The capture uses build/cli/xfbtrace.
set -eu
X=$1
W=$2
TOP=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rm -rf "$W"
mkdir -p "$W"
git clone -q --no-hardlinks "$TOP" "$W/repo"
R=$W/repo
c() { git -C "$R" add -A && git -C "$R" -c user.name=Bench -c user.email=bench@example.invalid commit -q -m "$1"; }
echo "
Bench note 1." >> "$R/README.md"; c "docs: note 1"
echo "/* bench 1 */" >> "$R/common/xt_buf.c"; c "common: a comment"
echo "/* bench 2 */" >> "$R/driver/hw/drv_pm4_so.c"; c "driver: a comment"
echo "
Bench note 2." >> "$R/README.md"; c "docs: note 2"
echo "/* bench 3 */" >> "$R/trace/trace_reader.c"; c "trace: a comment"
sed -i 's/VGT_STRMOUT_VTX_STRIDE_0_STRIDE(/VGT_STRMOUT_VTX_STRIDE_0_STRIDE(1 + /' "$R/driver/hw/drv_pm4_so.c"
c "driver: program the streamout vertex stride"
echo "/* bench 4 */" >> "$R/cli/main.c"; c "cli: a comment"
echo "
Bench note 3." >> "$R/README.md"; c "docs: note 3"
GOOD=$(git -C "$R" rev-parse HEAD~8)
BAD=$(git -C "$R" rev-parse HEAD)
"$TOP/build/cli/xfbtrace" capture -o "$W/t.xfbt" -- "$TOP/build/tests/apps/tf-separate-gl33" >/dev/null 2>&1
start=$(date +%s.%N)
"$X" bisect --trace "$W/t.xfbt" --good "$GOOD" --bad "$BAD" --repo "$R" --backend sim \
  --cache "$W/cache" --db "$W/b.db" --meson-option=--buildtype=plain --jobs 2 || true
end=$(date +%s.%N)
echo "bisect wall time: $(echo "$end - $start" | bc) s"
