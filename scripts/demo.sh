#!/usr/bin/env bash
# The main job on the bundled default workload: build xfbtrace, run the
# sample TF programs on the system GL (Mesa llvmpipe here) to show that their
# TF output is right, capture each with `xfbtrace capture`, and summarise the
# traces with `xfbtrace info`.
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
echo "Next: '$xfbtrace dump --format jsonl $out/tf-separate-gl33.xfbt | grep observation'"
