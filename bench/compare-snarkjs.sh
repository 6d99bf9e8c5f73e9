#!/usr/bin/env bash
# Side-by-side: the same Groth16 proof (a chain of Poseidon hashes, 2^17 constraints, BN254 by
# default) made by Proofline and by `snarkjs groth16 prove`, REPS runs each in one run, printing the
# median wall time, the peak resident memory of each, and the ratio ours/theirs.
#
#   bench/compare-snarkjs.sh                            # key from `proofline setup --dev` (insecure, fast)
#   CURVE=bls12381 REPS=5 CIRCUIT=bench12 bench/compare-snarkjs.sh
#   PTAU=pot17_final.ptau bench/compare-snarkjs.sh      # key from snarkjs's own setup on a prepared ptau
#   WARM=0 bench/compare-snarkjs.sh                     # without the warm figure
#
# Besides the cold runs (a process per proof, JVM start included), one process proves WARM times (12 by
# default) and the median of its last REPS proofs is the warm figure (what a running daemon spends).
#
# The key is made once and cached in bench/target/snarkjs-bench. With PTAU unset it comes from
# Proofline's development setup (snarkjs proves and verifies with such keys; the key only has to be
# the same for both provers). With PTAU set, snarkjs makes it from that powers of tau (CIRCUIT=bench12
# with PTAU=auto lets snarkjs make a small ptau itself; at 2^17 that takes hours here).
# Needs /usr/bin/time (Debian package `time`) for the peak memory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export PROOFLINE_ENGINE=off   # every Proofline run here is a process of its own, even while a local engine runs
reps=${REPS:-3}
curve=${CURVE:-bn128}
circuit=${CIRCUIT:-bench}
cache=bench/target/snarkjs-bench
mkdir -p "$cache"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -d interop/node_modules/snarkjs ] || (cd interop && npm ci --no-audit --no-fund >&2)
./proofline --version >/dev/null   # builds on first use

snarkjs="node interop/node_modules/snarkjs/build/cli.cjs"
echo "== building the $circuit circuit and its key on $curve (cached after the first run)" >&2
if [ -n "${PTAU:-}" ]; then
  ptau_args=()
  [ "$PTAU" = auto ] || ptau_args=(--ptau "$(cd "$(dirname "$PTAU")" && pwd)/$(basename "$PTAU")")
  manifest=$(node interop/groth16/fixture.cjs "$root/$cache" "$curve" "$circuit" "${ptau_args[@]}")
  get() { node -e 'const m = JSON.parse(process.argv[1]); console.log(m[process.argv[2]])' "$manifest" "$1"; }
  zkey=$(get zkey); wtns=$(get wtns); vk=$(get vk); constraints=$(get constraints)
else
  dir=$cache/dev/$curve/$circuit
  zkey=$dir/$circuit.zkey; wtns=$dir/$circuit.wtns; vk=$dir/verification_key.json
  if [ ! -f "$vk" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    node interop/node_modules/.bin/circom2 "interop/groth16/circuits/$circuit.circom" --r1cs --wasm \
      --prime "$curve" -l interop/node_modules -o "$dir" >&2
    $snarkjs wtns calculate "$dir/${circuit}_js/$circuit.wasm" "interop/groth16/circuits/$circuit.input.json" "$wtns" >&2
    ./proofline setup --dev "$dir/$circuit.r1cs" "$zkey"
    $snarkjs zkey export verificationkey "$zkey" "$vk" >&2
  fi
  constraints=$($snarkjs r1cs info "$dir/$circuit.r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
fi
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
  timed $snarkjs groth16 prove "$zkey" "$wtns" "$out/s$i.json" "$out/spub$i.json" >> "$out/theirs"
done
# warm: one process proving WARM times (JIT-compiled code, the key mapped and its caches built, as in a
# running daemon); the median of the totals of its last REPS proofs
warm=${WARM:-12}
if [ "$warm" -gt "$reps" ]; then
  ./proofline prove --timings --repeat "$warm" "$zkey" "$wtns" "$out/pw.json" "$out/pubw.json" \
    >/dev/null 2>"$out/warm"
  tail -n "$reps" "$out/warm" | sed -n 's/.*total \([0-9]*\) ms.*/\1/p' | awk '{print $1 / 1000}' > "$out/warm_s"
  [ "$(wc -l < "$out/warm_s")" = "$reps" ] || { cat "$out/warm" >&2; exit 1; }
  cp "$out/pw.json" "$out/p_warm.json"
fi
# every proof verifies with snarkjs
for i in $(seq "$reps"); do
  $snarkjs groth16 verify "$vk" "$out/pub$i.json" "$out/p$i.json" >/dev/null \
    || { echo "snarkjs rejected Proofline's proof $i" >&2; exit 1; }
done
if [ -f "$out/p_warm.json" ]; then
  $snarkjs groth16 verify "$vk" "$out/pubw.json" "$out/p_warm.json" >/dev/null \
    || { echo "snarkjs rejected Proofline's warm proof" >&2; exit 1; }
fi

ours_s=$(cut -d' ' -f1 "$out/ours" | median); theirs_s=$(cut -d' ' -f1 "$out/theirs" | median)
ours_kb=$(cut -d' ' -f2 "$out/ours" | sort -n | tail -1); theirs_kb=$(cut -d' ' -f2 "$out/theirs" | sort -n | tail -1)
echo "circuit: $circuit on $curve, $constraints constraints; $(nproc) CPUs; median of $reps runs, process start included"
printf "%-10s %10s %14s\n" "" "median s" "peak RSS MiB"
printf "%-10s %10.2f %14.0f\n" proofline "$ours_s" "$((ours_kb / 1024))"
printf "%-10s %10.2f %14.0f\n" snarkjs "$theirs_s" "$((theirs_kb / 1024))"
awk -v a="$ours_s" -v b="$theirs_s" 'BEGIN {printf "ratio proofline/snarkjs: %.3f\n", a / b}'
echo "all runs: proofline $(cut -d' ' -f1 "$out/ours" | tr '\n' ' ')| snarkjs $(cut -d' ' -f1 "$out/theirs" | tr '\n' ' ')"
if [ -f "$out/warm_s" ]; then
  warm_s=$(median < "$out/warm_s")
  printf "proofline warm (one process, proofs %d-%d of %d): median %.2f s; ratio to snarkjs: %.3f\n" \
    "$((warm - reps + 1))" "$warm" "$warm" "$warm_s" "$(awk -v a="$warm_s" -v b="$theirs_s" 'BEGIN {print a / b}')"
  echo "warm runs: $(tr '\n' ' ' < "$out/warm_s")"
fi
