#!/usr/bin/env bash
# Builds what a machine with a GPU but no Java needs to run scripts/gpu-check.sh: a trimmed Java 25
# runtime (jlink), the jars of the proving modules and the CUDA module's test jar, which holds the check
# (GpuCheck), in build/gpu/ (ignored by git; carry it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=build/gpu
rm -rf "$out"
mkdir -p "$out/lib"
./mvnw -q -B -DskipTests -Dcuda.kernels=always -pl cuda,engine -am package dependency:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$root/$out/deps" >/dev/null
for m in algebra r1cs groth16 engine cuda; do
  cp "$m"/target/proofline-"$m"-*.jar "$out/lib/" 2>/dev/null || cp "$m"/target/*.jar "$out/lib/"
done
rm -f "$out"/lib/*-tests.jar "$out"/lib/*-sources.jar
cp "$out"/deps/*.jar "$out/lib/" 2>/dev/null || true
rm -f "$out"/lib/proofline-*-tests.jar
# the check is a program of the CUDA module's tests (no production jar has it)
cp cuda/target/proofline-cuda-*-tests.jar "$out/lib/"
rm -rf "$out/deps"
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported,jdk.incubator.vector \
  --compress zip-9 --strip-debug --no-header-files --no-man-pages --output "$out/runtime"
du -sh "$out/runtime" "$out/lib"
echo "carry $out; on the GPU machine: scripts/gpu-check.sh"
