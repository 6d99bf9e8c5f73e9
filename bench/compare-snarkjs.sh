#!/usr/bin/env bash
# Side-by-side: the same Groth16 proof (a chain of Poseidon hashes, 2^17 constraints, BN254 by
# default) made by Proofline and by `snarkjs groth16 prove`, REPS runs each in one run, printing the
# median wall time, the peak resident memory of each, and the ratio ours/theirs.
#
#   PTAU=pot17_final.ptau bench/compare-snarkjs.sh      # a prepared powers of tau of at least 2^17
#   CURVE=bls12381 PTAU=... REPS=5 bench/compare-snarkjs.sh
#
# Without PTAU the script makes one with snarkjs itself (`powersoftau new/contribute/prepare phase2`),
# which takes over an hour at 2^17 on a 2-core machine; it is cached in bench/target/.
# Needs /usr/bin/time (Debian package `time`) for the peak memory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
reps=${REPS:-3}
curve=${CURVE:-bn128}
circuit=${CIRCUIT:-bench}
cache=bench/target/snarkjs-bench
mkdir -p "$cache"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -d interop/node_modules/snarkjs ] || (cd interop && npm ci --no-audit --no-fund >&2)
./proofline --version >/dev/null   # builds on first use

ptau_args=()
if [ -n "${PTAU:-}" ]; then
  ptau_args=(--ptau "$(cd "$(dirname "$PTAU")" && pwd)/$(basename "$PTAU")")
fi
echo "== building the $circuit circuit and its key on $curve (cached after the first run)" >&2
manifest=$(node interop/groth16/fixture.cjs "$root/$cache" "$curve" "$circuit" "${ptau_args[@]}")
get() { node -e 'const m = JSON.parse(process.argv[1]); console.log(m[process.argv[2]])' "$manifest" "$1"; }
zkey=$(get zkey); wtns=$(get wtns); vk=$(get vk); constraints=$(get constraints)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one timed run: prints "<seconds> <max RSS KiB>"
timed() {
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" \
    || { cat "$out/stderr" >&2; exit 1; }
  cat "$out/time"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== proving $reps times with each" >&2
: > "$out/ours"; : > "$out/theirs"
for i in $(seq "$reps"); do
  timed ./proofline prove "$zkey" "$wtns" "$out/p$i.json" "$out/pub$i.json" >> "$out/ours"
  timed node interop/node_modules/snarkjs/build/cli.cjs groth16 prove "$zkey" "$wtns" "$out/s$i.json" "$out/spub$i.json" >> "$out/theirs"
done
# every proof verifies with snarkjs
for i in $(seq "$reps"); do
  node interop/node_modules/snarkjs/build/cli.cjs groth16 verify "$vk" "$out/pub$i.json" "$out/p$i.json" >/dev/null \
    || { echo "snarkjs rejected Proofline's proof $i" >&2; exit 1; }
done

ours_s=$(cut -d' ' -f1 "$out/ours" | median); theirs_s=$(cut -d' ' -f1 "$out/theirs" | median)
ours_kb=$(cut -d' ' -f2 "$out/ours" | sort -n | tail -1); theirs_kb=$(cut -d' ' -f2 "$out/theirs" | sort -n | tail -1)
echo "circuit: $circuit on $curve, $constraints constraints; $(nproc) CPUs; median of $reps runs, process start included"
printf "%-10s %10s %14s\n" "" "median s" "peak RSS MiB"
printf "%-10s %10.2f %14.0f\n" proofline "$ours_s" "$((ours_kb / 1024))"
printf "%-10s %10.2f %14.0f\n" snarkjs "$theirs_s" "$((theirs_kb / 1024))"
awk -v a="$ours_s" -v b="$theirs_s" 'BEGIN {printf "ratio proofline/snarkjs: %.3f\n", a / b}'
echo "all runs: proofline $(cut -d' ' -f1 "$out/ours" | tr '\n' ' ')| snarkjs $(cut -d' ' -f1 "$out/theirs" | tr '\n' ' ')"
