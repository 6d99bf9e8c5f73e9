#!/usr/bin/env bash
# The trusted setup side by side: Proofline's ceremony commands against snarkjs 0.7.6 (the pinned one
# in interop/node_modules) on the same input files, runs alternating, medians, peak RSS, one table.
#
#   bench/compare-ceremony.sh                      # BN254, powers of tau of 2^12, a key of domain 2^12
#   POWER=16 bench/compare-ceremony.sh             # the real run
#   CURVE=bls12381 POWER=12 bench/compare-ceremony.sh
#   REPS=3 ...          # runs of each step per tool (default 1: the steps are long)
#   STEPS="prepare zkey-new" ...   # a subset of: contribute verify verify-prepared prepare zkey-new
#                                  # zkey-contribute zkey-verify bellman-export bellman-contribute bellman-import
#   SNARKJS=0 ...       # Proofline alone (the snarkjs column empty), e.g. at powers where snarkjs takes hours
#   PTAU=file ...       # the key steps on this prepared ptau (of 2^POWER or more) instead of one of 2^(POWER+1)
#                       # made here: at 2^20, where preparing one of 2^21 would take hours
# Wall time and CPU time (user + system of the process and its threads) are both reported: on a shared
# machine the CPU time is the steadier of the two.
#
# Steps, each on the same input for both tools:
#   contribute       powersoftau contribute on a fresh `powersoftau new` accumulator of 2^POWER
#   verify           powersoftau verify of snarkjs's contribution (both must accept it)
#   verify-prepared  powersoftau verify of the prepared ptau of 2^(POWER+1) the key steps use, made by
#                    Proofline (both must accept it; the Lagrange sections' checks are most of the work)
#   prepare          powersoftau prepare phase2 of snarkjs's contribution (outputs byte for byte equal)
#   zkey-new         zkey new, a circuit of domain 2^POWER (a Poseidon chain of about 3/4 2^POWER
#                    constraints) on a prepared ptau of 2^(POWER+1) (outputs byte for byte equal)
#   zkey-contribute  zkey contribute on the key of zkey-new
#   zkey-verify      zkey verify of snarkjs's contribution (both must accept it)
#   bellman-export   zkey export bellman of snarkjs's contribution (outputs byte for byte equal)
#   bellman-contribute  zkey bellman contribute to the parameters of bellman-export (snarkjs verifies the
#                    key imported from ours)
#   bellman-import   zkey import bellman of a contribution by `snarkjs zkey bellman contribute` to those
#                    parameters (outputs byte for byte equal; snarkjs verifies ours)
# Every file Proofline writes here is checked by snarkjs: `powersoftau verify` of our contribution,
# `zkey verify` of our contributed key, and `cmp` against snarkjs's file where the step is deterministic.
# The prepared ptau of 2^(POWER+1) for the key is made by Proofline (new, contribute, prepare phase2)
# and verified by snarkjs when POWER <= 12 (snarkjs's verify of a prepared file is slow above).
# Fixtures are kept in bench/target/ceremony-bench/<curve>/<power>. Needs /usr/bin/time.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
reps=${REPS:-1}
power=${POWER:-12}
curve=${CURVE:-bn128}
case "$curve" in bn128|bls12381) ;; *) echo "CURVE must be bn128 or bls12381" >&2; exit 2;; esac
[ "$power" -ge 10 ] && [ "$power" -le 24 ] || { echo "POWER must be 10..24" >&2; exit 2; }
steps=${STEPS:-contribute verify verify-prepared prepare zkey-new zkey-contribute zkey-verify bellman-export bellman-contribute bellman-import}
with_snarkjs=${SNARKJS:-1}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -d interop/node_modules/snarkjs ] || (cd interop && npm ci --no-audit --no-fund >&2)
export PROOFLINE_ENGINE=off   # every Proofline step a process of its own, as snarkjs's
./proofline --version >/dev/null   # builds on first use
snarkjs="node --max-old-space-size=16384 interop/node_modules/snarkjs/build/cli.cjs"
pl=./proofline
dir=bench/target/ceremony-bench/$curve/$power
mkdir -p "$dir"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one timed run: prints "<seconds> <max RSS KiB> <CPU seconds, user + system>"
timed() {
  local t0=$EPOCHREALTIME
  /usr/bin/time -f "%M %U %S" -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr" \
    || { echo "failed: $*" >&2; cat "$out/stdout" "$out/stderr" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  read -r kb user sys < "$out/time"
  awk -v a="${t0/,/.}" -v b="${t1/,/.}" -v kb="$kb" -v u="$user" -v s="$sys" \
    'BEGIN {printf "%.3f %d %.2f\n", b - a, kb, u + s}'
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.3f", a / b}'; }
s() { cut -d' ' -f1 "$1" | median; }
cpu() { cut -d' ' -f3 "$1" | median; }
kb() { cut -d' ' -f2 "$1" | sort -n | tail -1 | awk '{if ($1 == "") print "-"; else printf "%d", $1 / 1024}'; }
same() {  # a b what: byte for byte
  cmp -s "$1" "$2" || { echo "$3: Proofline's file differs from snarkjs's" >&2; exit 1; }
}

# fixtures, made once: a fresh accumulator and snarkjs's contribution to it (the powers-of-tau steps' input)
pot_steps=0
for step in $steps; do case "$step" in contribute|verify|prepare) pot_steps=1 ;; esac; done
if [ "$pot_steps" = 1 ] && [ ! -f "$dir/pot_1.ptau" ]; then
  echo "== fixtures: powers of tau 2^$power on $curve" >&2
  $pl powersoftau new "$curve" "$power" "$dir/pot_0.ptau" >/dev/null
  $snarkjs powersoftau contribute "$dir/pot_0.ptau" "$dir/pot_1.ptau.tmp" --name=bench -e="bench entropy" >/dev/null
  mv "$dir/pot_1.ptau.tmp" "$dir/pot_1.ptau"
fi
# the key's fixtures: a prepared ptau of 2^(power+1) and the circuit
key_power=$((power + 1))
if [ -n "${PTAU:-}" ]; then
  [ -f "$PTAU" ] || { echo "PTAU: no such file $PTAU" >&2; exit 2; }
  # the header's power: magic, version and section count (12 bytes), section 1's id and size (12), the
  # field's byte length (4) and prime (32 for BN254, 48 for BLS12-381)
  n8=$(od -An -tu4 -j 24 -N 4 "$PTAU" | tr -d ' ')
  key_power=$(od -An -tu4 -j $((28 + n8)) -N 4 "$PTAU" | tr -d ' ')
  [ "$key_power" -ge "$power" ] || { echo "PTAU is of 2^$key_power, the key needs 2^$power" >&2; exit 2; }
  [ "$(readlink -f "$dir/key/final.ptau" 2>/dev/null)" = "$(readlink -f "$PTAU")" ] || rm -f "$dir/key/done"
elif [ -L "$dir/key/final.ptau" ]; then
  rm -f "$dir/key/done"   # made on another PTAU before
fi
if [ ! -f "$dir/key/done" ]; then
  echo "== fixtures: prepared ptau 2^$key_power and a circuit of domain 2^$power" >&2
  rm -rf "$dir/key" && mkdir -p "$dir/key"
  if [ -n "${PTAU:-}" ]; then
    ln -s "$(cd "$(dirname "$PTAU")" && pwd)/$(basename "$PTAU")" "$dir/key/final.ptau"
  else
    $pl powersoftau new "$curve" "$key_power" "$dir/key/p0.ptau" >/dev/null
    $pl powersoftau contribute "$dir/key/p0.ptau" "$dir/key/p1.ptau" --name=key -e="key entropy" >/dev/null
    $pl powersoftau prepare phase2 "$dir/key/p1.ptau" "$dir/key/final.ptau" >/dev/null 2>&1
  fi
  if [ "$power" -le 12 ] && [ -z "${PTAU:-}" ]; then
    $snarkjs powersoftau verify "$dir/key/final.ptau" >/dev/null \
      || { echo "snarkjs refused the prepared ptau made by Proofline" >&2; exit 1; }
  fi
  rm -f "$dir/key/p0.ptau" "$dir/key/p1.ptau"
  hashes=$(( (3 << power) / 4 / 518 ))   # 518 N - 1 constraints (bench/circuits/poseidon.circom)
  { cat bench/circuits/poseidon.circom; echo "component main {public [seed]} = PoseidonChain($hashes);"; } \
    > "$dir/key/c.circom"
  node interop/node_modules/.bin/circom2 "$dir/key/c.circom" --r1cs --prime "$curve" -l interop/node_modules \
    -o "$dir/key" >&2
  touch "$dir/key/done"
fi
ptau=$dir/pot_1.ptau
r1cs=$dir/key/c.r1cs
final=$dir/key/final.ptau
constraints=$($snarkjs r1cs info "$r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')

rows=()
row() {  # step ours snarkjs check
  local a b
  a=$(s "$out/$1.pl"); b=$(s "$out/$1.sj"); ca=$(cpu "$out/$1.pl"); cb=$(cpu "$out/$1.sj")
  rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' "$1" "$a" "$b" "$(ratio "$a" "$b")" \
    "$ca" "$cb" "$(ratio "$ca" "$cb")" "$(kb "$out/$1.pl")" "$(kb "$out/$1.sj")" "$2")")
  echo "${rows[-1]}" >&2
  echo "   runs: proofline $(cut -d' ' -f1 "$out/$1.pl" | tr '\n' ' ')| snarkjs $(cut -d' ' -f1 "$out/$1.sj" | tr '\n' ' ')" >&2
}
run_step() {  # step: REPS runs of each tool, alternating
  local step=$1 i
  : > "$out/$step.pl"; : > "$out/$step.sj"
  echo "== $step" >&2
  for i in $(seq "$reps"); do
    case "$step" in
      contribute)
        timed $pl powersoftau contribute "$ptau" "$out/pl_c.ptau" --name=bench -e="bench $i" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs powersoftau contribute "$ptau" "$out/sj_c.ptau" --name=bench \
          -e="bench $i" >> "$out/$step.sj" ;;
      verify)
        timed $pl powersoftau verify "$ptau" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs powersoftau verify "$ptau" >> "$out/$step.sj" ;;
      verify-prepared)
        timed $pl powersoftau verify "$final" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs powersoftau verify "$final" >> "$out/$step.sj" ;;
      prepare)
        timed $pl powersoftau prepare phase2 "$ptau" "$out/pl_p.ptau" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs powersoftau prepare phase2 "$ptau" "$out/sj_p.ptau" >> "$out/$step.sj" ;;
      zkey-new)
        timed $pl zkey new "$r1cs" "$final" "$out/pl_0.zkey" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey new "$r1cs" "$final" "$out/sj_0.zkey" >> "$out/$step.sj" ;;
      zkey-contribute)
        timed $pl zkey contribute "$out/key_0.zkey" "$out/pl_1.zkey" --name=bench -e="bench $i" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey contribute "$out/key_0.zkey" "$out/sj_1.zkey" --name=bench \
          -e="bench $i" >> "$out/$step.sj" ;;
      zkey-verify)
        timed $pl zkey verify "$r1cs" "$final" "$out/key_1.zkey" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey verify "$r1cs" "$final" "$out/key_1.zkey" >> "$out/$step.sj" ;;
      bellman-export)
        timed $pl zkey export bellman "$out/key_1.zkey" "$out/pl.mpcparams" >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey export bellman "$out/key_1.zkey" "$out/sj.mpcparams" \
          >> "$out/$step.sj" ;;
      bellman-contribute)
        timed $pl zkey bellman contribute "$curve" "$out/key_1.mpcparams" "$out/pl_2.mpcparams" -e="bench $i" \
          >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey bellman contribute "$curve" "$out/key_1.mpcparams" \
          "$out/sj_2.mpcparams" -e="bench $i" >> "$out/$step.sj" ;;
      bellman-import)
        timed $pl zkey import bellman "$out/key_1.zkey" "$out/key_2.mpcparams" "$out/pl_2.zkey" -n=bench >> "$out/$step.pl"
        [ "$with_snarkjs" = 1 ] && timed $snarkjs zkey import bellman "$out/key_1.zkey" "$out/key_2.mpcparams" \
          "$out/sj_2.zkey" -n=bench >> "$out/$step.sj" ;;
    esac
  done
  return 0
}

# the key the zkey steps start from, and a contribution to it by snarkjs (zkey verify's input)
need_key() {
  [ -f "$out/key_0.zkey" ] && return 0
  $pl zkey new "$r1cs" "$final" "$out/key_0.zkey" >/dev/null 2>&1
  $snarkjs zkey contribute "$out/key_0.zkey" "$out/key_1.zkey" --name=bench -e="bench key" >/dev/null
}

for step in $steps; do
  case "$step" in
    contribute)
      run_step contribute
      $snarkjs powersoftau verify "$out/pl_c.ptau" >/dev/null \
        || { echo "snarkjs refused Proofline's contribution" >&2; exit 1; }
      row contribute "snarkjs verifies ours" ;;
    verify) run_step verify; row verify "both accept snarkjs's" ;;
    verify-prepared) run_step verify-prepared; row verify-prepared "both accept ours" ;;
    prepare)
      run_step prepare
      check="-"
      if [ "$with_snarkjs" = 1 ]; then same "$out/pl_p.ptau" "$out/sj_p.ptau" "prepare phase2"; check="byte-identical"; fi
      row prepare "$check" ;;
    zkey-new)
      run_step zkey-new
      check="-"
      if [ "$with_snarkjs" = 1 ]; then same "$out/pl_0.zkey" "$out/sj_0.zkey" "zkey new"; check="byte-identical"; fi
      row zkey-new "$check" ;;
    zkey-contribute)
      need_key; run_step zkey-contribute
      $snarkjs zkey verify "$r1cs" "$final" "$out/pl_1.zkey" >/dev/null \
        || { echo "snarkjs refused Proofline's zkey contribution" >&2; exit 1; }
      row zkey-contribute "snarkjs verifies ours" ;;
    zkey-verify) need_key; run_step zkey-verify; row zkey-verify "both accept snarkjs's" ;;
    bellman-export)
      need_key; run_step bellman-export
      check="-"
      if [ "$with_snarkjs" = 1 ]; then same "$out/pl.mpcparams" "$out/sj.mpcparams" "zkey export bellman"; check="byte-identical"; fi
      row bellman-export "$check" ;;
    bellman-contribute)
      need_key
      [ -f "$out/key_1.mpcparams" ] || $pl zkey export bellman "$out/key_1.zkey" "$out/key_1.mpcparams" >/dev/null 2>&1
      run_step bellman-contribute
      $snarkjs zkey import bellman "$out/key_1.zkey" "$out/pl_2.mpcparams" "$out/pl_2b.zkey" -n=bench >/dev/null \
        && $snarkjs zkey verify "$r1cs" "$final" "$out/pl_2b.zkey" >/dev/null \
        || { echo "snarkjs refused Proofline's contribution to the MPC parameters" >&2; exit 1; }
      row bellman-contribute "snarkjs verifies the key imported from ours" ;;
    bellman-import)
      need_key
      [ -f "$out/key_2.mpcparams" ] || {
        [ -f "$out/key_1.mpcparams" ] || $pl zkey export bellman "$out/key_1.zkey" "$out/key_1.mpcparams" >/dev/null 2>&1
        $snarkjs zkey bellman contribute "$curve" "$out/key_1.mpcparams" "$out/key_2.mpcparams" -e="bench" >/dev/null
      }
      run_step bellman-import
      check="-"
      if [ "$with_snarkjs" = 1 ]; then same "$out/pl_2.zkey" "$out/sj_2.zkey" "zkey import bellman"; check="byte-identical"; fi
      $snarkjs zkey verify "$r1cs" "$final" "$out/pl_2.zkey" >/dev/null \
        || { echo "snarkjs refused the key Proofline imported" >&2; exit 1; }
      row bellman-import "$check, snarkjs verifies ours" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done

echo "curve $curve; powers of tau 2^$power; key: $constraints constraints, domain 2^$power, ptau 2^$key_power;"
echo "$(nproc) CPUs; median of $reps run(s): wall seconds, CPU seconds (user + system, all threads);"
echo "ratio = Proofline / snarkjs (lower is better); peak RSS in MiB"
echo "| step | Proofline | snarkjs | ratio | CPU Proofline | CPU snarkjs | CPU ratio | RSS Proofline | RSS snarkjs | check |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
