#!/usr/bin/env bash
# Makes the release: dist/proofline-<version>-linux-x64.tar.gz, which runs without a JDK. Inside,
# proofline-<version>-linux-x64/:
#   proofline                the launcher (the repository's own: it finds runtime/ and app/ beside it)
#   runtime/                 a Java 25 runtime cut to the modules the jars use (jlink)
#   app/                     proofline-cli.jar and its dependencies (app/lib/; not the lab, module lab:
#                            `proofline bench` says it is not installed); proofline.aot, the
#                            JVM's start-up cache for one-off commands (`proofline aot-training`)
#   proofline.example.toml   every daemon knob, documented
#   systemd/proofline.service
#   LICENSE README.md BENCHMARKS.md docs/  (README.md: scripts/release-README.md, for a user of the release,
#                            who has nothing to build)
# The CUDA kernels are in it when the build makes them (a GPU driver here, or
# PROOFLINE_CUDA_KERNELS=always). Arguments go to the Maven build (e.g. -o).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -z "${JAVA_HOME:-}" ] && [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
: "${JAVA_HOME:?a JDK 25 is needed to make the release: set JAVA_HOME}"

# the parent POM's version: the first <version> after its own artifactId
version=$(sed -n '/<artifactId>proofline-parent<\/artifactId>/,/<version>/s|.*<version>\(.*\)</version>.*|\1|p' pom.xml | head -1)
name="proofline-$version-linux-x64"
./mvnw -q -B -DskipTests "$@" package

stage="dist/$name"
rm -rf "$stage" "dist/$name.tar.gz"
mkdir -p "$stage/app" "$stage/systemd"
cp cli/target/proofline-cli.jar "$stage/app/"
cp -r cli/target/lib "$stage/app/lib"
# test code stays out of the release
if ls "$stage/app/lib" | grep -- '-tests\.jar$'; then
  echo "dist.sh: test jars in app/lib (a dependency of the CLI of type test-jar outside scope test)" >&2
  exit 1
fi
# nor the lab (proofline bench), which a release answers with a line that says it is not installed
if ls "$stage/app/lib" | grep -- '^proofline-lab'; then
  echo "dist.sh: the lab in app/lib (the CLI must not depend on it)" >&2
  exit 1
fi

# the modules the jars need, as jdeps finds them, and those loaded by name at run time (JUL logging
# through slf4j-jdk14; the EC ciphers a TLS handshake may pick)
modules=$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 -q \
  --class-path "$stage/app/lib/*" "$stage/app/proofline-cli.jar" "$stage/app"/lib/*.jar)
modules="$modules,java.logging"
# less java.desktop, which jdeps finds through two classes the release never loads: micrometer-core's
# Log4j2 binder (java.beans; there is no Log4j here) and pgjdbc's PGpoint (java.awt.Point, for
# PostgreSQL's geometric type point, which the job store does not use); CI runs the job store on this
# runtime (the lab's bench cluster, from the checkout)
modules=$(tr , '\n' <<<"$modules" | grep -vx java.desktop | paste -sd, -)
"$JAVA_HOME/bin/java" --list-modules | grep -q '^jdk\.crypto\.ec@' && modules="$modules,jdk.crypto.ec"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --compress zip-6 --strip-debug --no-header-files \
  --no-man-pages --output "$stage/runtime"

cp proofline LICENSE BENCHMARKS.md proofline.example.toml "$stage/"
cp scripts/release-README.md "$stage/README.md"
# the start-up cache of one-off commands, recorded by the release's own runtime from its own jars
# (the JVM accepts it wherever the release is unpacked, as long as the files keep their times)
PROOFLINE_ENGINE=off "$stage/proofline" aot-training
cp -r docs "$stage/docs"
cp scripts/proofline.service "$stage/systemd/"
tar -C dist -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1); runtime modules: $modules)"
