#!/usr/bin/env bash
# Side-by-side: the same MSM and NTT sizes in Proofline and in ffjavascript (snarkjs's arithmetic,
# multi-threaded WASM), in one run on one machine. Prints one row per kernel and size with the
# ratio ours/theirs (below 1 = Proofline is faster).
#
#   bench/compare-ffjs.sh            # G1 MSM 2^16, 2^20; G2 MSM 2^16; NTT 2^16, 2^20 — both curves
#   QUICK=1 bench/compare-ffjs.sh    # 2^16 only
#   REPS=5 CURVES=bn128 bench/compare-ffjs.sh
#   OPS=ntt bench/compare-ffjs.sh    # some kernels only (msm-g1, msm-g2, ntt)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
reps=${REPS:-3}
curves=${CURVES:-"bn128 bls12381"}
ops=${OPS:-"msm-g1 msm-g2 ntt"}
if [ "${QUICK:-0}" = 1 ]; then big=16; else big=16,20; fi

[ -d interop/node_modules/ffjavascript ] || (cd interop && npm ci --no-audit --no-fund >&2)
./proofline --version >/dev/null   # builds on first use

out=$(mktemp)
for curve in $curves; do
  for spec in "msm-g1:$big" "msm-g2:16" "ntt:$big"; do
    op=${spec%%:*}; logs=${spec#*:}
    case " $ops " in *" $op "*) ;; *) continue ;; esac
    echo "== $curve $op $logs" >&2
    ./proofline bench "$op" --curve "$curve" --log "$logs" --reps "$reps" >> "$out"
    node interop/ffjs/bench.cjs "$curve" "$op" "$logs" "$reps" 2>/dev/null >> "$out"
  done
done

node - "$out" <<'JS'
const fs = require("fs");
const rows = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map(l => JSON.parse(l));
const key = r => `${r.curve} ${r.op} ${r.log}`;
const ours = new Map(rows.filter(r => r.impl === "proofline").map(r => [key(r), r]));
const theirs = new Map(rows.filter(r => r.impl === "ffjavascript").map(r => [key(r), r]));
console.log(`threads: ${rows[0].threads}`);
console.log("curve     op      log  proofline ms  ffjavascript ms  ratio");
for (const [k, o] of ours) {
  const t = theirs.get(k);
  if (!t) continue;
  const [curve, op, log] = k.split(" ");
  console.log(`${curve.padEnd(9)} ${op.padEnd(7)} ${log.padStart(3)} ${o.ms_median.toFixed(1).padStart(13)} `
    + `${t.ms_median.toFixed(1).padStart(16)}  ${(o.ms_median / t.ms_median).toFixed(3).padStart(5)}`);
}
JS
rm -f "$out"
