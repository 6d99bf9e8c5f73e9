#!/usr/bin/env bash
# Side by side on a matrix of circom circuits: Proofline (a cold `proofline prove` process, the same
# command through a running local engine, and the engine's own time), rapidsnark and snarkjs, on the
# same zkey and witness, runs alternating, medians, peak RSS, one table.
#
#   RAPIDSNARK=/path/to/prover bench/compare-rapidsnark.sh                 # the BN254 matrix
#   RAPIDSNARK=... CIRCUITS="sha256-64 poseidon-7" REPS=5 bench/compare-rapidsnark.sh
#   CURVE=bls12381 bench/compare-rapidsnark.sh                             # against snarkjs
#   SNARKJS=1 ...     # snarkjs on BN254 too (by default only where there is no rapidsnark)
#   ENGINE=0 ...      # without the engine columns
#   PTAU=p.ptau ...   # keys from snarkjs's groth16 setup on that prepared ptau (default: proofline setup --dev)
#   FIXTURES_ONLY=1 ... # build the circuits, witnesses and keys, measure nothing
#   COLD_CACHE=0 ...  # the cold column without the JVM's start-up cache (`proofline aot-training`)
#   LOOP=0 ...        # without the shell loops from a clean state and the restarted engine (below)
#   MATRIX=0 ...      # the shell loops only (no cold / engine / warm matrix)
#   LOOP_CALLS=170 ... # longer shell loops (default 7 calls; "calls 3–7" is then the median from the
#                     # third on, and every call's time is printed on stderr)
#
# rapidsnark is a measuring tool here, never a dependency: build it yourself, outside this repository,
# and point RAPIDSNARK at its `prover` binary. It proves BN254 only.
#
# Circuits (bench/circuits; the number is the template's parameter), about 2^k constraints:
#   comparators-31 (2^13)  merkle-20 (2^14)  sha256-32 (2^15)  sha256-64 (2^16)  sha256-448 (2^18)
#   poseidon-7 (2^12)  poseidon-253 (2^17)  poseidon-2024 (2^20)
# Fixtures (r1cs, wasm, witness, key) are built once into bench/target/rapidsnark-bench/<curve>/<id>.
#
# Columns: cold = a `proofline prove` process with no engine running (JVM start included); engine = the
# same command while `proofline engine start` runs (the launcher hands it to the engine; its warm-up
# waited for, the key made resident by one proof first, its precomputed tables built and up to ten
# proofs run on them); warm = the engine's own time for those requests, from its log (the proof with
# the key resident and its files written: what an embedding application or the daemon spends);
# rapidsnark and snarkjs are whole processes. Medians of REPS runs,
# the tools alternating. Every proof made here is verified by `snarkjs groth16 verify`.
# Needs /usr/bin/time (Debian package `time`).
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
reps=${REPS:-3}
curve=${CURVE:-bn128}
case "$curve" in bn128|bls12381) ;; *) echo "CURVE must be bn128 or bls12381" >&2; exit 2;; esac
circuits=${CIRCUITS:-comparators-31 merkle-20 sha256-32 sha256-64 sha256-448 poseidon-7 poseidon-253 poseidon-2024}
rapidsnark=${RAPIDSNARK:-}
if [ "$curve" != bn128 ]; then rapidsnark=""; fi
if [ -n "$rapidsnark" ] && [ ! -x "$rapidsnark" ]; then echo "RAPIDSNARK=$rapidsnark is not executable" >&2; exit 2; fi
with_snarkjs=${SNARKJS:-$([ -z "$rapidsnark" ] && echo 1 || echo 0)}
cache=bench/target/rapidsnark-bench/$curve
mkdir -p "$cache"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -d interop/node_modules/snarkjs ] || (cd interop && npm ci --no-audit --no-fund >&2)
./proofline --version >/dev/null   # builds on first use
# the cold column starts from the start-up cache, as a user's one-off process does: record it when
# it is missing or older than the jar (COLD_CACHE=0 measures without it)
aot=cli/target/proofline.aot
while [ -d "$aot.recording" ]; do sleep 1; done   # one the launcher started in the background
if [ "${COLD_CACHE:-1}" = 0 ]; then
  rm -f "$aot"
elif [ ! -f "$aot" ] || [ cli/target/proofline-cli.jar -nt "$aot" ]; then
  ./proofline aot-training
fi
snarkjs="node --max-old-space-size=16384 interop/node_modules/snarkjs/build/cli.cjs"

# input.json for a circuit id
input_json() {
  local template=$1 p=$2
  node -e '
    const [t, p] = [process.argv[1], Number(process.argv[2])];
    const range = (n, f) => Array.from({length: n}, (_, i) => f(i));
    let x = 123456789n;  // a fixed pseudo-random sequence below 2^250
    const next = () => { x = (x * 6364136223846793005n + 1442695040888963407n) % (1n << 250n); return x.toString(); };
    const input = {
      sha256: () => ({in: range(p, i => (i * 37 + 11) % 256)}),
      poseidon: () => ({seed: "1", key: "987654321"}),
      comparators: () => ({a: range(p, next), b: range(p, next)}),
      merkle: () => ({secret: "42", value: "1000", threshold: "5000", siblings: range(p, next),
                      directions: range(p, i => (i * 7 + 3) % 2)}),
    }[t];
    if (!input) { console.error("unknown circuit template " + t); process.exit(2); }
    console.log(JSON.stringify(input()));' "$template" "$p"
}

# builds the fixture of one circuit id once; prints its directory
fixture() {
  local id=$1 template=${1%-*} p=${1##*-}
  local dir=$cache/$id
  if [ ! -f "$dir/done" ]; then
    [ -f "bench/circuits/$template.circom" ] || { echo "no circuit bench/circuits/$template.circom" >&2; exit 2; }
    echo "== building $id on $curve (once)" >&2
    rm -rf "$dir" && mkdir -p "$dir"
    local main
    case "$template" in
      sha256) main="component main = Sha256Bytes($p);" ;;
      poseidon) main="component main {public [seed]} = PoseidonChain($p);" ;;
      comparators) main="component main = Comparisons($p);" ;;
      merkle) main="component main {public [threshold]} = MerkleMember($p);" ;;
    esac
    { cat "bench/circuits/$template.circom"; echo "$main"; } > "$dir/c.circom"
    node interop/node_modules/.bin/circom2 "$dir/c.circom" --r1cs --wasm --prime "$curve" -l interop/node_modules \
      -o "$dir" >&2
    input_json "$template" "$p" > "$dir/input.json"
    $snarkjs wtns calculate "$dir/c_js/c.wasm" "$dir/input.json" "$dir/c.wtns" >&2
    if [ -n "${PTAU:-}" ]; then
      $snarkjs groth16 setup "$dir/c.r1cs" "$PTAU" "$dir/c.zkey" >&2
    else
      ./proofline setup --dev "$dir/c.r1cs" "$dir/c.zkey" >&2
    fi
    $snarkjs zkey export verificationkey "$dir/c.zkey" "$dir/vk.json" >&2
    $snarkjs r1cs info "$dir/c.r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p' > "$dir/constraints"
    touch "$dir/done"
  fi
  echo "$dir"
}

out=$(mktemp -d)
engine_started=0
cleanup() {
  [ "$engine_started" = 1 ] && ./proofline engine stop >/dev/null 2>&1 || true
  rm -rf "$out"
}
trap cleanup EXIT

# one timed run: prints "<seconds> <max RSS KiB>" (wall time from bash's clock, to the millisecond;
# /usr/bin/time's own is in hundredths, too coarse for the small circuits)
timed() {
  local t0=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" \
    || { echo "failed: $*" >&2; cat "$out/stderr" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  awk -v a="${t0/,/.}" -v b="${t1/,/.}" -v kb="$(cat "$out/time")" 'BEGIN {printf "%.3f %d\n", b - a, kb}'
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }
verify() {  # vk public proof what
  $snarkjs groth16 verify "$1" "$2" "$3" >/dev/null || { echo "snarkjs rejected the proof of $4" >&2; exit 1; }
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == "" || b == "nan" || a == "nan") print "-"; else printf "%.2f", a / b}'; }

if [ "${FIXTURES_ONLY:-0}" = 1 ]; then
  for id in $circuits; do fixture "$id" >/dev/null; done
  exit 0
fi

# the engine columns' engine lives in a state directory of its own (a user's engine is left alone);
# started once, its background warm-up waited for
export PROOFLINE_HOME=$root/bench/target/engine-home
engine=0
./proofline engine stop >/dev/null 2>&1 || true
if [ "${ENGINE:-1}" = 1 ] && [ "${MATRIX:-1}" = 1 ]; then
  ./proofline engine start >/dev/null 2>"$out/engine.err" \
    || { echo "proofline engine start failed:" >&2; cat "$out/engine.err" >&2; exit 1; }
  engine_started=1; engine=1
  echo "== engine started, waiting for its warm-up" >&2
  until ./proofline engine status | grep -q 'warm-up    done'; do
    ./proofline engine status | grep -q 'warm-up    failed' && { ./proofline engine status >&2; exit 1; }
    sleep 1
  done
fi
englog=$PROOFLINE_HOME/engine/engine.log

s() { cut -d' ' -f1 "$1" | median; }
kb() { cut -d' ' -f2 "$1" | sort -n | tail -1 | awk '{if ($1 == "") print "-"; else printf "%d", $1 / 1024}'; }
rows=()
for id in $([ "${MATRIX:-1}" = 1 ] && echo "$circuits"); do
  dir=$(fixture "$id")
  zkey=$dir/c.zkey; wtns=$dir/c.wtns; vk=$dir/vk.json
  : > "$out/cold"; : > "$out/rapid"; : > "$out/sjs"; : > "$out/eng"; : > "$out/inside"
  if [ "$engine" = 1 ]; then
    ./proofline prove "$zkey" "$wtns" "$out/ew.json" "$out/epw.json" >/dev/null   # the key made resident
    # its precomputed tables are built in the background: wait for them, then proofs that use them until
    # the JIT has settled on their code (ten, or five seconds' worth, at least two: a 2^13 circuit's
    # requests were slower in the first eight after its tables than from then on: BENCHMARKS.md,
    # "Circom circuits")
    until ! ./proofline engine status | grep -F "$zkey" | grep -q 'tables being built'; do sleep 0.5; done
    t_end=$(( $(date +%s) + 5 ))
    for w in $(seq 10); do
      ./proofline prove "$zkey" "$wtns" "$out/ew.json" "$out/epw.json" >/dev/null
      [ "$w" -lt 2 ] || [ "$(date +%s)" -lt "$t_end" ] || break
    done
  fi
  echo "== $id: $reps runs each, alternating" >&2
  for i in $(seq "$reps"); do
    if [ "$engine" = 1 ]; then
      timed ./proofline prove "$zkey" "$wtns" "$out/e$i.json" "$out/epub$i.json" >> "$out/eng"
      # the engine's own time for that request (the proof with the key resident, files written)
      tail -n 1 "$englog" | sed -n 's/.* prove .*: exit 0, \([0-9]*\) ms$/\1/p' | awk '{print $1 / 1000}' >> "$out/inside"
    fi
    PROOFLINE_ENGINE=off timed ./proofline prove "$zkey" "$wtns" "$out/p$i.json" "$out/pub$i.json" >> "$out/cold"
    if [ -n "$rapidsnark" ]; then
      timed "$rapidsnark" "$zkey" "$wtns" "$out/r$i.json" "$out/rpub$i.json" >> "$out/rapid"
    fi
    if [ "$with_snarkjs" = 1 ]; then
      timed $snarkjs groth16 prove "$zkey" "$wtns" "$out/s$i.json" "$out/spub$i.json" >> "$out/sjs"
    fi
  done
  [ "$engine" = 0 ] || [ "$(wc -l < "$out/inside")" = "$reps" ] || { tail "$englog" >&2; exit 1; }
  for i in $(seq "$reps"); do
    verify "$vk" "$out/pub$i.json" "$out/p$i.json" "proofline run $i"
    [ "$engine" = 1 ] && verify "$vk" "$out/epub$i.json" "$out/e$i.json" "proofline engine run $i"
    [ -n "$rapidsnark" ] && verify "$vk" "$out/rpub$i.json" "$out/r$i.json" "rapidsnark run $i"
    [ "$with_snarkjs" = 1 ] && verify "$vk" "$out/spub$i.json" "$out/s$i.json" "snarkjs run $i"
  done

  cold=$(s "$out/cold"); e=$(s "$out/eng"); w=$(median < "$out/inside"); r=$(s "$out/rapid"); j=$(s "$out/sjs")
  ref=$([ -n "$rapidsnark" ] && echo "$r" || echo "$j")
  rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' \
    "$id" "$(cat "$dir/constraints")" "$cold" "$e" "$w" "$r" "$j" \
    "$(ratio "$cold" "$ref")" "$(ratio "$e" "$ref")" "$(ratio "$w" "$ref")" \
    "$(kb "$out/cold")" "$(kb "$out/rapid")" "$(kb "$out/sjs")")")
  echo "${rows[-1]}" >&2
  echo "   runs: cold $(cut -d' ' -f1 "$out/cold" | tr '\n' ' ')| engine $(cut -d' ' -f1 "$out/eng" | tr '\n' ' ')| inside $(tr '\n' ' ' < "$out/inside")| rapidsnark $(cut -d' ' -f1 "$out/rapid" | tr '\n' ' ')| snarkjs $(cut -d' ' -f1 "$out/sjs" | tr '\n' ' ')" >&2
done

# As a user meets it: a shell loop from a clean state (a new state directory: no engine, no cached
# tables), 7 `proofline prove` calls alternating with the reference tool; the first call runs in its
# own process and starts the engine in the background (auto-start), later ones go to it once it serves.
# Then the engine is stopped and started again with the key's tables in the cache, its warm-up waited
# for: its first proof of the key against the next ones (the engine's own times).
loop_rows=()
loop_calls=${LOOP_CALLS:-7}
wtns_rows=()
if [ "${LOOP:-1}" = 1 ]; then
  if [ "$engine_started" = 1 ]; then ./proofline engine stop >/dev/null 2>&1 || true; engine_started=0; fi
  for id in $circuits; do
    dir=$(fixture "$id")
    zkey=$dir/c.zkey; wtns=$dir/c.wtns; vk=$dir/vk.json
    export PROOFLINE_HOME=$out/home-$id
    : > "$out/loop"; : > "$out/loopref"; : > "$out/loopalone"
    echo "== $id: a shell loop from a clean state" >&2
    # the reference alone first (no engine of ours runs yet): beside an engine it can run slower, which
    # flatters the ratio in the loop
    # one timed proof of the reference tool: reference <proof.json> <public.json>
    reference() {
      if [ -n "$rapidsnark" ]; then
        timed "$rapidsnark" "$zkey" "$wtns" "$1" "$2"
      else
        timed $snarkjs groth16 prove "$zkey" "$wtns" "$1" "$2"
      fi
    }
    for i in $(seq 3); do
      reference "$out/la.json" "$out/lapub.json" >> "$out/loopalone"
    done
    for i in $(seq "$loop_calls"); do
      timed ./proofline prove "$zkey" "$wtns" "$out/l$i.json" "$out/lpub$i.json" >> "$out/loop"
      reference "$out/lr$i.json" "$out/lrpub$i.json" >> "$out/loopref"
    done
    engine_started=1
    for i in $(seq "$loop_calls"); do
      verify "$vk" "$out/lpub$i.json" "$out/l$i.json" "proofline loop call $i"
      verify "$vk" "$out/lrpub$i.json" "$out/lr$i.json" "$([ -n "$rapidsnark" ] && echo rapidsnark || echo snarkjs) loop call $i"
    done
    first=$(sed -n 1p "$out/loop" | cut -d' ' -f1)
    second=$(sed -n 2p "$out/loop" | cut -d' ' -f1)
    # the slowest call after the first, against the first (the one-off path): above 1, a call was slower
    slowest=$(sed -n "2,${loop_calls}p" "$out/loop" | cut -d' ' -f1 | sort -g | tail -n 1)
    later=$(sed -n "3,${loop_calls}p" "$out/loop" | cut -d' ' -f1 | median)
    lref=$(s "$out/loopref"); lalone=$(s "$out/loopalone")
    # the key's tables, built in the background, written to the cache: then a new engine
    until ./proofline engine status 2>/dev/null | grep -F "$zkey" | grep -qv 'tables being built'; do sleep 0.5; done
    ./proofline engine stop >/dev/null
    ./proofline engine start >/dev/null
    until ./proofline engine status | grep -q 'warm-up    done'; do sleep 1; done
    : > "$out/restart"
    for i in $(seq 5); do
      ./proofline prove "$zkey" "$wtns" "$out/rs.json" "$out/rspub.json" >/dev/null
      tail -n 1 "$PROOFLINE_HOME/engine/engine.log" | sed -n 's/.* prove .*: exit 0, \([0-9]*\) ms$/\1/p' >> "$out/restart"
    done
    ./proofline engine stop >/dev/null
    engine_started=0
    r1=$(sed -n 1p "$out/restart"); rlater=$(sed -n '2,5p' "$out/restart" | median)
    # the witness, from a clean state again: 5 `wtns calculate` calls alternating with snarkjs's (the same
    # bytes), then 5 `fullprove` calls alternating with snarkjs's witness and the reference prover
    export PROOFLINE_HOME=$out/home-wtns-$id
    : > "$out/wl"; : > "$out/wlref"; : > "$out/fl"; : > "$out/flref"
    for i in $(seq 5); do
      timed ./proofline wtns calculate "$dir/c_js/c.wasm" "$dir/input.json" "$out/w$i.wtns" >> "$out/wl"
      timed $snarkjs wtns calculate "$dir/c_js/c.wasm" "$dir/input.json" "$out/ws$i.wtns" >> "$out/wlref"
      cmp -s "$out/w$i.wtns" "$out/ws$i.wtns" || { echo "$id: wtns calculate call $i differs from snarkjs's" >&2; exit 1; }
    done
    for i in $(seq 5); do
      timed ./proofline fullprove "$dir/input.json" "$dir/c_js/c.wasm" "$zkey" "$out/f$i.json" "$out/fpub$i.json" >> "$out/fl"
      t0=$EPOCHREALTIME
      $snarkjs wtns calculate "$dir/c_js/c.wasm" "$dir/input.json" "$out/fs.wtns" >/dev/null
      if [ -n "$rapidsnark" ]; then
        "$rapidsnark" "$zkey" "$out/fs.wtns" "$out/fr.json" "$out/frpub.json" >/dev/null
      else
        $snarkjs groth16 prove "$zkey" "$out/fs.wtns" "$out/fr.json" "$out/frpub.json" >/dev/null
      fi
      awk -v a="${t0/,/.}" -v b="${EPOCHREALTIME/,/.}" 'BEGIN {printf "%.3f 0\n", b - a}' >> "$out/flref"
      verify "$vk" "$out/fpub$i.json" "$out/f$i.json" "proofline fullprove call $i"
    done
    ./proofline engine stop >/dev/null 2>&1 || true
    export PROOFLINE_HOME=$out/home-$id
    wtns_rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s |' "$id" \
      "$(sed -n 1p "$out/wl" | cut -d' ' -f1)" "$(sed -n '3,5p' "$out/wl" | cut -d' ' -f1 | median)" "$(s "$out/wlref")" \
      "$(ratio "$(sed -n '3,5p' "$out/wl" | cut -d' ' -f1 | median)" "$(s "$out/wlref")")" \
      "$(sed -n '3,5p' "$out/fl" | cut -d' ' -f1 | median)" "$(s "$out/flref")" \
      "$(ratio "$(sed -n '3,5p' "$out/fl" | cut -d' ' -f1 | median)" "$(s "$out/flref")")")")
    echo "${wtns_rows[-1]}" >&2
    loop_rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s ms | %s ms | %s |' "$id" \
      "$(cat "$dir/constraints")" "$first" "$second" "$(ratio "$slowest" "$first")" "$later" "$lref" "$lalone" \
      "$(ratio "$first" "$lref")" "$(ratio "$later" "$lref")" "$(ratio "$later" "$lalone")" "$r1" "$rlater" \
      "$(ratio "$r1" "$rlater")")")
    echo "${loop_rows[-1]}" >&2
    echo "   calls: proofline $(cut -d' ' -f1 "$out/loop" | tr '\n' ' ')| reference $(cut -d' ' -f1 "$out/loopref" | tr '\n' ' ')| alone $(cut -d' ' -f1 "$out/loopalone" | tr '\n' ' ')| restarted engine $(tr '\n' ' ' < "$out/restart")" >&2
  done
fi

ref=$([ -n "$rapidsnark" ] && echo rapidsnark || echo snarkjs)
if [ "${#loop_rows[@]}" -gt 0 ]; then
  echo "a shell loop from a clean state: $loop_calls calls alternating with $ref (seconds; call 1, call 2, the slowest of calls"
  echo "2-$loop_calls against call 1, the median of calls 3-$loop_calls; $ref's median in the loop and alone, before it); an engine started"
  echo "again with the key's tables cached: its first proof and the median of the next four (its own times)"
  echo "| circuit | constraints | call 1 | call 2 | slowest later / call 1 | calls 3-$loop_calls | $ref in loop | alone | call 1/in loop | calls 3-$loop_calls/in loop | calls 3-$loop_calls/alone | restarted: first | next | first/next |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${loop_rows[@]}"
  echo
  echo "the witness from a clean state: 5 \`wtns calculate\` calls alternating with snarkjs's (call 1, the median of calls 3-5),"
  echo "and 5 \`fullprove\` calls alternating with snarkjs's witness followed by $ref (the median of calls 3-5)"
  echo "| circuit | wtns call 1 | wtns calls 3-5 | snarkjs wtns | ratio | fullprove calls 3-5 | snarkjs wtns + $ref | ratio |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${wtns_rows[@]}"
  echo
fi
if [ "${#rows[@]}" -gt 0 ]; then
  echo "curve $curve; $(nproc) CPUs; median of $reps runs (seconds); ratios to $ref (lower is better); peak RSS in MiB"
  echo "| circuit | constraints | cold | engine | warm | rapidsnark | snarkjs | cold/$ref | engine/$ref | warm/$ref | RSS cold | RSS rapidsnark | RSS snarkjs |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
fi
