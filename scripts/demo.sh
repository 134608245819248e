#!/usr/bin/env bash
# The main job on the bundled default workload: build xfbtrace, run the
# sample TF programs on the system GL (Mesa llvmpipe here) to show that their
# TF output is right, capture each with `xfbtrace capture`, summarise the
# traces with `xfbtrace info`, replay them on the simulated GPU into a results
# database, and serve the web UI over it (for XFBTRACE_DEMO_WEB_SECONDS,
# default 60, so that the demo terminates).
set -euo pipefail
cd "$(dirname "$0")/.."

XFBTRACE_SKIP_SAN=1 ./scripts/setup.sh
xfbtrace=build/cli/xfbtrace
out=build/demo
mkdir -p "$out"

apps=(tf-particles-gles3 tf-separate-gl33 tf-streams-gl40)
echo
echo "== 1. the sample programs on the system GL, checking their own TF output =="
for app in "${apps[@]}"; do
  build/tests/apps/"$app"
done

echo
echo "== 2. capture: every GL call plus the driver's TF output (observations) =="
for app in "${apps[@]}"; do
  "$xfbtrace" capture -o "$out/$app.xfbt" -- build/tests/apps/"$app" >/dev/null
done

echo
echo "== 3. what the traces hold =="
for app in "${apps[@]}"; do
  "$xfbtrace" info "$out/$app.xfbt" | sed -n '1,/^functions/p'
  echo
done

echo "== 4. replay on the simulated GPU, recorded in a results database =="
db="$out/results.db"
rm -f "$db" "$db-wal" "$db-shm"
for app in "${apps[@]}"; do
  "$xfbtrace" replay --backend sim --db "$db" --label demo "$out/$app.xfbt" | tail -n 1 || true
done
# A second run of one trace with a test-only driver bug (wrong
# VGT_STRMOUT_VTX_STRIDE), so the diff view has something to show.
XFBTRACE_SIM_TEST_FAULT=stride_off_by_one "$xfbtrace" replay --backend sim --db "$db" \
  --label stride-bug "$out/tf-separate-gl33.xfbt" | tail -n 1 || true
"$xfbtrace" runs --db "$db"

echo
echo "== 5. the web UI (read-only on the database; stops after ${XFBTRACE_DEMO_WEB_SECONDS:-60} s) =="
"$xfbtrace" web --db "$db" --port "${XFBTRACE_DEMO_WEB_PORT:-0}" \
  --timeout "${XFBTRACE_DEMO_WEB_SECONDS:-60}" > "$out/web.log" 2>&1 &
web_pid=$!
for _ in $(seq 50); do
  grep -q "http://" "$out/web.log" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$out/web.log" | head -n 1)
echo "Web UI: $url  (open it in a browser on this machine; runs page -> pick two runs -> Compare)"
echo "        or: $xfbtrace web --db $db   (until Ctrl-C)"
wait "$web_pid" || true
echo "Next: '$xfbtrace diff --db $db --regs --pm4 RUN_A RUN_B'"
