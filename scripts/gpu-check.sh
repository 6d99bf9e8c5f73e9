#!/usr/bin/env bash
# The GPU check: correctness of the CUDA kernels against the CPU code, then benchmarks, as one table.
# Needs only a GPU, the jars and a Java 25 runtime: build them with scripts/gpu-bundle.sh (into
# build/gpu/), or point PROOFLINE_JAVA at a java and PROOFLINE_LIB at a folder of jars (the proving jars
# and proofline-cuda's test jar, which holds the check, GpuCheck).
#   scripts/gpu-check.sh            # everything (under 8 minutes on an H200, plus the sanitizer runs)
#   scripts/gpu-check.sh --quick    # correctness at small sizes only
#   scripts/gpu-check.sh --ncu      # the counters of the MSM's accumulation kernel first (ncu), then everything
#
# When compute-sanitizer is on the PATH (or named by $COMPUTE_SANITIZER), a small case first runs under
# its memcheck and then its racecheck tool (GpuCheck --sanitize: the NTT and the G1 MSM at 2^12 on both
# curves, and proofs through the engine on every device, each against the CPU); the table at the end has
# a row for each: OK, or the errors the tool counted (its output is kept in build/gpu-check/). Without the
# tool the row says it was skipped, and the rest of the check runs as usual. PROOFLINE_SANITIZER=0 skips
# the runs; PROOFLINE_SANITIZER_TIMEOUT bounds each (seconds, default 1800).
#
# With --ncu, and ncu on the PATH (or named by $NCU), the G1 MSM's accumulation kernel is profiled first
# (GpuCheck --ncu-case: one BN254 MSM of 2^22 points; the sections that say what bounds it), its report
# kept in build/gpu-check/ncu-accumulate.txt (clocks as the card has them: --clock-control none), and the
# check runs after it as usual. PROOFLINE_NCU_TIMEOUT bounds it (seconds, default 300).
#
# Exit code: 0 when every check passed, 1 when one failed (a sanitizer error counts), 2 without a device.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java=${PROOFLINE_JAVA:-$root/build/gpu/runtime/bin/java}
lib=${PROOFLINE_LIB:-$root/build/gpu/lib}
[ -x "$java" ] || { echo "gpu-check: no Java runtime at $java (run scripts/gpu-bundle.sh first)" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true

check=("$java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss8m
  -XX:MaxRAMPercentage=75 -cp "$lib/*" dev.proofline.cuda.GpuCheck)
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

# one row of the final table: check, curve, size, result, ok|fail|skip
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"; }

logs=$root/build/gpu-check
args=()
ncu_wanted=0
for a in "$@"; do
  if [ "$a" = --ncu ]; then ncu_wanted=1; else args+=("$a"); fi
done
if [ "$ncu_wanted" = 1 ]; then
  ncu=${NCU:-ncu}
  if ! command -v "$ncu" >/dev/null 2>&1; then
    row "ncu, G1 MSM accumulation" "bn254" "2^22" "SKIPPED ($ncu is not on the PATH)" skip
  else
    mkdir -p "$logs"
    log=$logs/ncu-accumulate.txt
    echo "gpu-check: $ncu on the G1 MSM's accumulation kernel (report in $log)"
    start=$SECONDS
    timeout "${PROOFLINE_NCU_TIMEOUT:-300}" "$ncu" --clock-control none --target-processes all --kernel-name regex:msm_accumulate \
      --launch-skip 1 --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section SchedulerStats \
      --section WarpStateStats "${check[@]}" --ncu-case >"$log" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && grep -q 'msm_accumulate' "$log"; then
      row "ncu, G1 MSM accumulation" "bn254" "2^22" "OK ($((SECONDS - start)) s, report kept)" ok
    else
      row "ncu, G1 MSM accumulation" "bn254" "2^22" "NO REPORT (exit $rc)" fail
      tail -n 20 "$log"
    fi
  fi
fi

sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
if [ "${PROOFLINE_SANITIZER:-1}" = 0 ]; then
  row "compute-sanitizer" "-" "-" "SKIPPED (PROOFLINE_SANITIZER=0)" skip
elif ! command -v "$sanitizer" >/dev/null 2>&1; then
  echo "gpu-check: $sanitizer is not on the PATH: the memcheck and racecheck runs are skipped"
  row "compute-sanitizer" "-" "-" "SKIPPED ($sanitizer is not on the PATH)" skip
else
  mkdir -p "$logs"
  for tool in memcheck racecheck; do
    log=$logs/compute-sanitizer-$tool.log
    echo "gpu-check: $sanitizer --tool $tool, GpuCheck --sanitize (output in $log)"
    start=$SECONDS
    timeout "${PROOFLINE_SANITIZER_TIMEOUT:-1800}" "$sanitizer" --tool "$tool" --print-limit 50 \
      "${check[@]}" --sanitize >"$log" 2>&1
    rc=$?
    errors=$(grep -Eo 'ERROR SUMMARY: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+$')
    hazards=$(grep -Eo 'RACECHECK SUMMARY: .*' "$log" | tail -n 1)
    if [ -z "$errors" ] && [ -n "$hazards" ]; then
      # racecheck sums up as "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"
      errors=$(printf '%s\n' "$hazards" | grep -Eo '\([0-9]+ errors' | grep -Eo '[0-9]+')
    fi
    if [ "$rc" = 124 ]; then
      result="TIMEOUT after $((SECONDS - start)) s"; state=fail
    elif [ "$rc" = 2 ] && [ "${errors:-0}" = 0 ]; then
      result="SKIPPED (no usable device)"; state=skip
    elif [ -z "$errors" ]; then
      result="NO SUMMARY (exit $rc)"; state=fail
    elif [ "$errors" != 0 ]; then
      result="$errors errors"; state=fail
    elif [ "$rc" != 0 ]; then
      result="0 errors, but the checks under it failed (exit $rc)"; state=fail
    else
      result="OK"; state=ok
    fi
    if [ -n "$hazards" ] && [ "$state" != skip ]; then
      result="$result; ${hazards#RACECHECK SUMMARY: }"
    fi
    echo "gpu-check: $tool: $result ($((SECONDS - start)) s)"
    if [ "$state" = fail ]; then
      grep -E '^=+ ' "$log" | head -n 20 || tail -n 20 "$log"
    fi
    row "compute-sanitizer $tool" "both" "2^12" "$result" "$state"
  done
fi

"${check[@]}" "${args[@]}" --rows "$rows"
