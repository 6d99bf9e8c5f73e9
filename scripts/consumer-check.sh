#!/usr/bin/env bash
# The consumer check: Proofline as an application gets it from Maven. Installs every artifact into a
# throwaway local repository, checks the BOM lists them all at the build's version and that each jar
# names its module and has a sources jar, then builds examples/consumer (its pom imports the BOM and
# depends on proofline-engine, nothing else) against that repository and runs it with the one
# recommended JVM flag: it proves and verifies a Java circuit on the engine and, when the circom fixture
# groth16/target/circom-fixtures/bn128/multiplier exists (the tests build it), that circuit's .zkey and
# .wtns and its inputs.
#
#   bash scripts/consumer-check.sh [maven options]
#
# Third-party artifacts and plugins come from MAVEN_REPO_TAIL (default ~/.m2/repository) read-only,
# minus anything of dev.proofline there, so a stale Proofline artifact can never stand in for one the
# install did not produce. Maven runs offline (-o) first: after the tests everything is usually there;
# where something is not (on a fresh machine, the install plugin: `verify` never needed it) it runs
# again online.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -z "${JAVA_HOME:-}" ] && [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
java="${JAVA_HOME:?JDK 25 required: set JAVA_HOME}/bin/java"
tail_repo="${MAVEN_REPO_TAIL:-$HOME/.m2/repository}"

fail() { echo "consumer-check: $*" >&2; exit 1; }

# The project's version (the first <version> of the root pom: it has no parent) and the BOM's.
first_version() { sed -n 's|^  <version>\(.*\)</version>.*|\1|p' "$1" | head -1; }
version=$(first_version pom.xml)
[ -n "$version" ] || fail "no version in pom.xml"
[ "$(first_version bom/pom.xml)" = "$version" ] || fail "bom/pom.xml's version is not the build's ($version)"
modules=$(sed -n 's|^    <module>\(.*\)</module>.*|\1|p' pom.xml | grep -vx bom)
for m in $modules; do
  artifact=$(sed -n '/<\/parent>/,$ s|^  <artifactId>\(.*\)</artifactId>.*|\1|p' "$m/pom.xml" | head -1)
  grep -q "<artifactId>$artifact</artifactId>" bom/pom.xml || fail "bom/pom.xml does not list $artifact (module $m)"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo="$work/repository"
tail_view="$work/tail"
mkdir -p "$repo" "$tail_view/dev"
for e in "$tail_repo"/*; do
  [ -e "$e" ] && [ "$(basename "$e")" != dev ] && ln -s "$e" "$tail_view/"
done
for e in "$tail_repo"/dev/*; do
  [ -e "$e" ] && [ "$(basename "$e")" != proofline ] && ln -s "$e" "$tail_view/dev/"
done
mvn_repos=(-Dmaven.repo.local="$repo" -Dmaven.repo.local.tail="$tail_view")
root=$PWD
# Maven in the current directory, offline first, online if that fails
maven() {
  "$root/mvnw" -B -q -o "$@" "${mvn_repos[@]}" && return 0
  echo "consumer-check: offline, that failed; once more online" >&2
  "$root/mvnw" -B -q "$@" "${mvn_repos[@]}"
}

echo "consumer-check: installing Proofline $version into a throwaway repository"
maven "$@" install -DskipTests -Dcuda.skipKernels=true

for m in $modules; do
  artifact=$(sed -n '/<\/parent>/,$ s|^  <artifactId>\(.*\)</artifactId>.*|\1|p' "$m/pom.xml" | head -1)
  dir="$repo/dev/proofline/$artifact/$version"
  jar="$dir/$artifact-$version.jar"
  [ -f "$jar" ] || fail "$artifact: no jar installed"
  [ -f "$dir/$artifact-$version-sources.jar" ] || fail "$artifact: no sources jar installed"
  # "dev.proofline.algebra@0.1.0-SNAPSHOT automatic": the name the manifest gives, not one derived from the file
  name=$("$JAVA_HOME/bin/jar" --describe-module --file "$jar" | sed -n 's|^\([^@ ]*\).* automatic$|\1|p')
  [ "$name" = "dev.proofline.$m" ] || fail "$artifact: module name '$name', expected dev.proofline.$m"
done

echo "consumer-check: building examples/consumer against the BOM"
consumer="$work/consumer"
cp -r examples/consumer "$consumer"
rm -rf "$consumer/target"
cp -r .mvn "$consumer/"    # Maven's own JVM options
(cd "$consumer" && maven "$@" package -Dproofline.version="$version")

fixture=groth16/target/circom-fixtures/bn128/multiplier
args=()
if [ -f "$fixture/multiplier.zkey" ]; then
  args=("$PWD/$fixture")
else
  echo "consumer-check: no circom fixture at $fixture (the tests build it): the Java circuit only"
fi
echo "consumer-check: running it"
"$java" --add-modules jdk.incubator.vector -cp "$consumer/target/proofline-consumer.jar:$consumer/target/lib/*" \
  example.ConsumerCheck "${args[@]}"
echo "consumer-check: OK"
