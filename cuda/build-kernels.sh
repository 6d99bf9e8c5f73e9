#!/usr/bin/env bash
# Builds the CUDA side of the module; run by Maven (see pom.xml), also by hand from the module folder.
#
#   build-kernels.sh kernels <classes dir> <auto|always|never> <gencode flags...>
#       nvcc compiles src/main/cuda/kernels.cu into <classes dir>/dev/proofline/cuda/kernels.fatbin:
#       always; or, with auto, only where a GPU driver is present (/dev/nvidia0...), since on a machine
#       without one the kernels can never run and nvcc takes minutes. PROOFLINE_CUDA_KERNELS overrides
#       the mode. Without nvcc on the PATH (or in $NVCC) it says so and succeeds. When it does not
#       build them it removes a fatbin left by an earlier build, so that the jar never carries stale
#       kernels, and says in one line how to build them.
#   build-kernels.sh host-test <out dir> <gencode flags...>
#       Compiles the host test program src/test/cuda/host_test.cpp twice (128-bit products; the
#       device's separate high product, computed portably) with g++, or with nvcc when there is no
#       g++ (nvcc then needs another host compiler, e.g. named by NVCC_CCBIN), and a third time by
#       nvcc when it is there (host_test_nvcc); the NTT emulation src/test/cuda/ntt_host_test.cpp
#       (ntt_host_test, ntt_host_test_nvcc); the MSM's host emulation src/test/cuda/msm_host_test.cpp
#       (msm_host_test), and the MSM and NTT kernels for the tests' fake driver (libfakekernels.so,
#       from src/test/cuda/fake_kernels.cpp). Without either compiler it says so and succeeds.
#       Where a GPU is visible, nvcc also builds the device test program src/test/cuda/device_test.cu
#       (the same operations run in a kernel) with the gencode flags.
#
# Both steps do nothing when their outputs are newer than every source (and, for the kernels, were
# built with the same flags, which are kept in target/).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
src="$here/src/main/cuda"
test_src="$here/src/test/cuda"
nvcc="${NVCC:-nvcc}"

# newer than every file of the given folders?
up_to_date() {
    local out="$1"; shift
    [ -f "$out" ] || return 1
    [ -z "$(find "$@" -type f -newer "$out" -print -quit)" ]
}

case "${1:-}" in
kernels)
    out_dir="$2/dev/proofline/cuda"; mode="${PROOFLINE_CUDA_KERNELS:-$3}"; shift 3
    out="$out_dir/kernels.fatbin"
    stamp="$here/target/kernels.fatbin.flags"
    case "$mode" in auto|always|never) ;; *) echo "[cuda] kernels mode '$mode': auto, always or never" >&2; exit 2 ;; esac
    skip() {
        rm -f "$out" "$stamp"
        echo "[cuda] $1: the CUDA kernels are not built (the module builds without them; -Dcuda.kernels=always or PROOFLINE_CUDA_KERNELS=always builds them)"
        exit 0
    }
    [ "$mode" != never ] || skip "cuda.kernels=never"
    if [ "$mode" = auto ] && ! ls /dev/nvidia[0-9]* >/dev/null 2>&1 && [ ! -e /proc/driver/nvidia/version ]; then
        skip "no GPU driver on this machine"
    fi
    if ! command -v "$nvcc" >/dev/null 2>&1; then
        skip "nvcc is not on the PATH"
    fi
    if up_to_date "$out" "$src" "$here/build-kernels.sh" && [ "$(cat "$stamp" 2>/dev/null)" = "$*" ]; then
        echo "[cuda] kernels.fatbin is up to date"
        exit 0
    fi
    mkdir -p "$out_dir"
    echo "[cuda] nvcc -fatbin --no-compress $* kernels.cu"
    start=$SECONDS
    "$nvcc" -O3 -std=c++17 -fatbin --no-compress "$@" -o "$out.tmp" "$src/kernels.cu"
    mv "$out.tmp" "$out"
    mkdir -p "$(dirname "$stamp")"
    printf '%s' "$*" >"$stamp"
    echo "[cuda] built $out ($(wc -c <"$out") bytes, $((SECONDS - start)) s)"
    ;;
host-test)
    out_dir="$2"; shift 2
    gencode="$*"
    mkdir -p "$out_dir"
    have_nvcc=false
    command -v "$nvcc" >/dev/null 2>&1 && have_nvcc=true
    if command -v g++ >/dev/null 2>&1; then
        cxx=(g++ -x c++ -Wall -Wextra)
    elif $have_nvcc; then
        cxx=("$nvcc" -x cu)
    else
        echo "[cuda] neither g++ nor nvcc is on the PATH: the host test program is not built (its test is skipped)"
        exit 0
    fi
    build() {
        local out="$out_dir/$1"; shift
        local compiler=("${cxx[@]}")
        if [ "${1:-}" = "--nvcc" ]; then
            compiler=("$nvcc" -x cu); shift
        fi
        if up_to_date "$out" "$src" "$test_src" "$here/build-kernels.sh"; then
            return 0
        fi
        local source="${build_source:-host_test.cpp}"
        echo "[cuda] ${compiler[0]} $source $* -> $out"
        "${compiler[@]}" -O2 -std=c++17 "$@" -I "$src" -o "$out.tmp" "$test_src/$source"
        mv "$out.tmp" "$out"
    }
    build host_test
    build host_test_portable_mulhi -DPL_PORTABLE_MULHI
    # the NTT kernels' functions, launch after launch, on the CPU (ntt_host_test.cpp); with g++, under
    # the address sanitizer where it links, so a thread reading past a buffer fails the test
    ntt_checks=()
    if [ "${cxx[0]}" = g++ ] && echo 'int main() { return 0; }' \
            | g++ -x c++ -fsanitize=address,undefined - -o "$out_dir/.sanitizer-probe" 2>/dev/null; then
        ntt_checks=(-fsanitize=address,undefined -fno-sanitize-recover=all)
    fi
    rm -f "$out_dir/.sanitizer-probe"
    build_source=ntt_host_test.cpp build ntt_host_test "${ntt_checks[@]}"
    # the MSM's steps run on the CPU, kernel after kernel (src/test/cuda/msm_host_test.cpp)
    build_source=msm_host_test.cpp build msm_host_test
    # the MSM and NTT kernels' bodies for the fake driver, so CudaMsm, CudaNtt and the backend run
    # without a GPU (fake_kernels.cpp)
    build_source=fake_kernels.cpp build libfakekernels.so -shared -fPIC
    if $have_nvcc; then
        # nvcc's host pass: the headers as the kernels see them (__host__ __device__, unroll pragmas)
        build host_test_nvcc --nvcc
        build_source=ntt_host_test.cpp build ntt_host_test_nvcc --nvcc
    else
        rm -f "$out_dir/host_test_nvcc" "$out_dir/ntt_host_test_nvcc"
    fi
    # The device test program runs the same operations on a GPU. Its build takes about a minute on
    # two cores, so it is made only where a GPU is visible (or PROOFLINE_CUDA_DEVICE_TEST=1).
    if $have_nvcc && { [ "${PROOFLINE_CUDA_DEVICE_TEST:-}" = 1 ] || ls /dev/nvidia[0-9]* >/dev/null 2>&1; }; then
        out="$out_dir/device_test"
        if ! up_to_date "$out" "$src" "$test_src" "$here/build-kernels.sh" \
                || [ "$(cat "$out.flags" 2>/dev/null)" != "$gencode" ]; then
            echo "[cuda] nvcc device_test.cu $gencode -> $out"
            start=$SECONDS
            # shellcheck disable=SC2086 # the flags are words
            "$nvcc" -O2 -std=c++17 $gencode -I "$src" -o "$out.tmp" "$test_src/device_test.cu"
            mv "$out.tmp" "$out"
            printf '%s' "$gencode" >"$out.flags"
            echo "[cuda] built $out ($((SECONDS - start)) s)"
        fi
    else
        rm -f "$out_dir/device_test" "$out_dir/device_test.flags"
    fi
    ;;
*)
    echo "usage: build-kernels.sh kernels|host-test <out dir> <gencode flags...>" >&2
    exit 64
    ;;
esac
