#!/usr/bin/env bash
# The GPU check: correctness of the CUDA kernels against the CPU code, then benchmarks, as one table.
# Needs only a GPU, the jars and a Java 25 runtime: build them with scripts/gpu-bundle.sh (into
# build/gpu/), or point PROOFLINE_JAVA at a java and PROOFLINE_LIB at a folder of jars.
#   scripts/gpu-check.sh            # everything (under 8 minutes on an H200)
#   scripts/gpu-check.sh --quick    # correctness at small sizes only
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java=${PROOFLINE_JAVA:-$root/build/gpu/runtime/bin/java}
lib=${PROOFLINE_LIB:-$root/build/gpu/lib}
[ -x "$java" ] || { echo "gpu-check: no Java runtime at $java (run scripts/gpu-bundle.sh first)" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true
exec "$java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss8m \
  -XX:MaxRAMPercentage=75 -cp "$lib/*" dev.proofline.cuda.GpuCheck "$@"
