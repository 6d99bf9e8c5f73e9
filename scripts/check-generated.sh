#!/usr/bin/env bash
# Regenerates every generated source and fails if that changes anything: the committed files must be
# exactly what their generators write (run on a clean tree; CI runs it).
#   algebra/gen/gen_fields.py       the four field classes (bn254, bls12381: Fp, Fr)
#   algebra/gen/gen_montgomery4.py  the marked regions of the NTT's butterflies and the PCE's row sums
#   cuda/gen/gen_cuda_fields.py     the CUDA kernels' field constants (field_params.cuh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
generated=(algebra/src/main/java/dev/proofline/algebra/bn254 algebra/src/main/java/dev/proofline/algebra/bls12381
  algebra/src/main/java/dev/proofline/algebra/ntt/Montgomery4Butterflies.java
  r1cs/src/main/java/dev/proofline/r1cs/pce/Montgomery4Rows.java cuda/src/main/cuda/field_params.cuh
  algebra/src/main/java/dev/proofline/algebra/msm/VectorBatchAffine4.java
  algebra/src/main/java/dev/proofline/algebra/msm/VectorBatchAffine6.java
  algebra/src/main/java/dev/proofline/algebra/ntt/VectorButterflies.java)
if ! git diff --quiet -- "${generated[@]}"; then
  echo "check-generated: the generated files have uncommitted changes; commit or revert them first" >&2
  exit 2
fi
python3 algebra/gen/gen_fields.py
python3 algebra/gen/gen_montgomery4.py
python3 cuda/gen/gen_cuda_fields.py
python3 algebra/src/codegen/vector_batch_affine.py
python3 algebra/src/codegen/vector_butterflies.py
if ! git diff --exit-code --stat -- "${generated[@]}"; then
  echo "check-generated: regenerating changed the files above: edit the generator, not its output" >&2
  git --no-pager diff -- "${generated[@]}" >&2 || true
  exit 1
fi
echo "check-generated: every generated file is what its generator writes"
