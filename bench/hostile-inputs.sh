#!/usr/bin/env bash
# Hostile inputs against the packaged command line: each case runs `proofline prove`, `verify`,
# `wtns calculate` or `setup --dev` on one bad file and prints a Markdown table row: exit code,
# wall time and peak RSS, and both above the same command with that file missing (its idle
# figures: the JVM has started the command and read the files before that one), whether stderr holds
# a stack trace, and the error line. Goal (docs/reliability.md): exit 2, no stack trace, at most 1 s
# and 64 MiB above idle. Each figure is the median of REPS runs (3 by default).
#
#   bench/hostile-inputs.sh                 # needs cli/target/proofline-cli.jar and /usr/bin/time
#   PROOFLINE_JAVA_OPTS=-Xmx1g bench/hostile-inputs.sh
#
# The files start from the real snarkjs/circom files committed as fuzz seeds; wtns calculate needs
# the multiplier circuit's wasm from the interop fixtures (groth16/target/circom-fixtures, built by
# `./mvnw -pl groth16 surefire:test -Dtest='*Interop*'`) and is skipped without it. Files of a
# gigabyte are sparse (no disk used).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export PROOFLINE_ENGINE=off   # a process per case, even while a local engine runs
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -f cli/target/proofline-cli.jar ] || { echo "build first: ./mvnw -B -q install -DskipTests -Dcuda.skipKernels=true -pl cli -am" >&2; exit 2; }

g16=groth16/src/test/resources/dev/proofline/groth16
r1=r1cs/src/test/resources/dev/proofline/r1cs
zkey=$g16/io/ZkeyFuzzTestInputs/zkey/bn128-multiplier.zkey
wtns=$r1/io/WtnsFuzzTestInputs/wtns/bn128-multiplier.wtns
r1cs=$r1/io/R1csFuzzTestInputs/r1cs/bn128-multiplier.r1cs
vk=$g16/multiplier-vk.json
proof=$g16/multiplier-proof.json
public=$g16/multiplier-public.json
wasm=groth16/target/circom-fixtures/bn128/multiplier/multiplier_js/multiplier.wasm

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
out=$t/out
mkdir -p "$out"

# ---- the files
sparse() { cp "$1" "$2"; truncate -s "$3" "$2"; }
u32le() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" \
  | dd of="$1" bs=1 seek="$3" conv=notrunc status=none; }
sparse "$zkey" "$t/tail.zkey" 1G
sparse "$wtns" "$t/tail.wtns" 256M
sparse "$wtns" "$t/tail1g.wtns" 1G
sparse "$r1cs" "$t/tail.r1cs" 1G
cp "$zkey" "$t/sections.zkey"; u32le "$t/sections.zkey" 4294967295 8
cp "$zkey" "$t/size.zkey"; printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$t/size.zkey" bs=1 seek=16 conv=notrunc status=none
cp "$wtns" "$t/count.wtns"; u32le "$t/count.wtns" 536870911 60      # values declared: 2^29 - 1
mkdir "$t/dir.zkey" "$t/dir.json"
digits=$(head -c 1000000 /dev/zero | tr '\0' '7')
deep=$(head -c 100000 /dev/zero | tr '\0' '[')$(head -c 100000 /dev/zero | tr '\0' ']')
printf '{"pi_a": ["%s", "2", "1"], "protocol": "groth16"}' "$digits" > "$t/digits-proof.json"
printf '["%s"]' "$digits" > "$t/digits-public.json"
printf '[%s]' "$digits" > "$t/number-public.json"
printf '%s' "$deep" > "$t/deep-public.json"
printf '{"IC": %s}' "$deep" > "$t/deep-vk.json"
printf '["1"]' > "$t/huge-public.json"; truncate -s 1G "$t/huge-public.json"
{ cat "$proof"; printf ' {"trailing": true}'; } > "$t/trailing-proof.json"
printf '{"a": "%s", "b": "2"}' "$digits" > "$t/digits-input.json"
printf '{"a": 1e999999999, "b": 2}' > "$t/exponent-input.json"
printf '{"a": %s}' "$deep" > "$t/deep-input.json"
printf '{}' > "$t/huge-input.json"; truncate -s 1G "$t/huge-input.json"
# n values: 99,990 fit the default value limit (100,000 JSON tokens) and are read, then refused
values_input() { awk -v n="$1" 'BEGIN { printf "{\"a\": ["; for (i = 1; i < n; i++) printf "0,"; printf "0]}" }'; }
values_public() { awk -v n="$1" 'BEGIN { printf "["; for (i = 1; i < n; i++) printf "\"0\","; printf "\"0\"]" }'; }
values_input 999990 > "$t/many-input.json"
values_public 999990 > "$t/many-public.json"
values_input 99990 > "$t/limit-input.json"
values_public 99990 > "$t/limit-public.json"

# ---- one case, REPS times (3 by default): prints "exit median_wall_s median_rss_kib stacktrace error-line"
reps=${REPS:-3}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
run() {
  local err=$t/stderr code trace=no i
  : > "$t/walls"; : > "$t/rss"
  for ((i = 0; i < reps; i++)); do
    set +e
    /usr/bin/time -o "$t/time" -f '%e %M' ./proofline "$@" >/dev/null 2>"$err"
    code=$?
    set -e
    read -r s kib < <(tail -1 "$t/time")
    echo "$s" >> "$t/walls"; echo "$kib" >> "$t/rss"
    grep -qE '^\s+at |Exception in thread|^Caused by' "$err" && trace=yes
  done
  local msg
  msg=$(grep -v '^WARNING' "$err" | head -1 | sed "s#$t/##g; s#|#/#g" | cut -c1-150)
  echo "$code $(median < "$t/walls") $(median < "$t/rss") $trace $msg"
}

echo "| case | command | exit | wall s (idle) | +s | peak RSS MiB (idle) | +MiB | stack trace | error |"
echo "|---|---|---|---|---|---|---|---|---|"
row() {   # name command hostile-file args... (the args name the hostile file once)
  local name=$1 cmd=$2 bad=$3 a
  shift 3
  local idle_args=()
  for a in "$@"; do
    if [ "$a" = "$bad" ]; then idle_args+=("$t/missing-$(basename "$bad")"); else idle_args+=("$a"); fi
  done
  read -r _ is ik _ <<<"$(run "${idle_args[@]}")"
  read -r code s kib trace msg <<<"$(run "$@")"
  awk -v n="$name" -v c="$cmd" -v code="$code" -v s="$s" -v is="$is" -v k="$kib" \
      -v ik="$ik" -v tr="$trace" -v m="$msg" 'BEGIN {
    printf "| %s | %s | %s | %.2f (%.2f) | %+.2f | %.0f (%.0f) | %+.0f | %s | %s |\n", n, c, code, s, is, s - is,
      k / 1024, ik / 1024, (k - ik) / 1024, tr, m }'
}
row "zkey, 1 GiB zero tail" prove "$t/tail.zkey" prove "$t/tail.zkey" "$wtns" "$out/p.json" "$out/q.json"
row "zkey, 2^32-1 sections declared" prove "$t/sections.zkey" prove "$t/sections.zkey" "$wtns" "$out/p.json" "$out/q.json"
row "zkey, section of 2^64-1 bytes" prove "$t/size.zkey" prove "$t/size.zkey" "$wtns" "$out/p.json" "$out/q.json"
row "zkey is a directory" prove "$t/dir.zkey" prove "$t/dir.zkey" "$wtns" "$out/p.json" "$out/q.json"
row "wtns, 256 MiB zero tail" prove "$t/tail.wtns" prove "$zkey" "$t/tail.wtns" "$out/p.json" "$out/q.json"
row "wtns, 1 GiB zero tail" prove "$t/tail1g.wtns" prove "$zkey" "$t/tail1g.wtns" "$out/p.json" "$out/q.json"
row "wtns, 2^29-1 values declared" prove "$t/count.wtns" prove "$zkey" "$t/count.wtns" "$out/p.json" "$out/q.json"
row "r1cs, 1 GiB zero tail" setup "$t/tail.r1cs" setup --dev "$t/tail.r1cs" "$out/k.zkey"
row "proof.json, 10^6-digit string" verify "$t/digits-proof.json" verify "$vk" "$public" "$t/digits-proof.json"
row "public.json, 10^6-digit string" verify "$t/digits-public.json" verify "$vk" "$t/digits-public.json" "$proof"
row "public.json, 10^6-digit number" verify "$t/number-public.json" verify "$vk" "$t/number-public.json" "$proof"
row "public.json, depth 100000" verify "$t/deep-public.json" verify "$vk" "$t/deep-public.json" "$proof"
row "public.json, 1 GiB" verify "$t/huge-public.json" verify "$vk" "$t/huge-public.json" "$proof"
row "vk, depth 100000" verify "$t/deep-vk.json" verify "$t/deep-vk.json" "$public" "$proof"
row "proof.json, trailing JSON" verify "$t/trailing-proof.json" verify "$vk" "$public" "$t/trailing-proof.json"
row "public.json, 999,990 signals" verify "$t/many-public.json" verify "$vk" "$t/many-public.json" "$proof"
row "public.json, 99,990 signals (at the limit)" verify "$t/limit-public.json" verify "$vk" "$t/limit-public.json" "$proof"
row "public.json is a directory" verify "$t/dir.json" verify "$vk" "$t/dir.json" "$proof"
if [ -f "$wasm" ]; then
  row "input, 10^6-digit string" wtns "$t/digits-input.json" wtns calculate "$wasm" "$t/digits-input.json" "$out/w.wtns"
  row "input, 1e999999999" wtns "$t/exponent-input.json" wtns calculate "$wasm" "$t/exponent-input.json" "$out/w.wtns"
  row "input, depth 100000" wtns "$t/deep-input.json" wtns calculate "$wasm" "$t/deep-input.json" "$out/w.wtns"
  row "input, 1 GiB" wtns "$t/huge-input.json" wtns calculate "$wasm" "$t/huge-input.json" "$out/w.wtns"
  row "input, 999,990 values" wtns "$t/many-input.json" wtns calculate "$wasm" "$t/many-input.json" "$out/w.wtns"
  row "input, 99,990 values (at the limit)" wtns "$t/limit-input.json" wtns calculate "$wasm" "$t/limit-input.json" "$out/w.wtns"
  row "input is a directory" wtns "$t/dir.json" wtns calculate "$wasm" "$t/dir.json" "$out/w.wtns"
fi
