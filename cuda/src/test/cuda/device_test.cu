// The device test program of the kernels' arithmetic: the same operations and line protocol as the
// host test program (test_protocol.h), each batch run on the GPU, one thread an operation.
// Exits with status 77 when there is no usable CUDA device, so its test is skipped.
#include <cuda_runtime.h>

#include "test_protocol.h"

namespace {

constexpr int NO_DEVICE = 77;

__global__ void apply_kernel(int group, int op, const pl::u64 *in, int in_words, pl::u64 *out, int out_words,
                             unsigned long long n) {
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        pl::test::apply(group, op, in + i * in_words, out + i * out_words);
    }
}

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        std::cerr << "device test: " << what << ": " << cudaGetErrorString(e) << std::endl;
        std::exit(3);
    }
}

}  // namespace

int main() {
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        std::cerr << "device test: no CUDA device (" << (e != cudaSuccess ? cudaGetErrorString(e) : "none found")
                  << ")" << std::endl;
        return NO_DEVICE;
    }
    return pl::test::run_protocol([](pl::test::batch &b) {
        pl::u64 *in = nullptr, *out = nullptr;
        size_t in_bytes = b.in.size() * sizeof(pl::u64), out_bytes = b.out.size() * sizeof(pl::u64);
        check(cudaMalloc(&in, in_bytes), "cudaMalloc");
        check(cudaMalloc(&out, out_bytes), "cudaMalloc");
        check(cudaMemcpy(in, b.in.data(), in_bytes, cudaMemcpyHostToDevice), "copy to the device");
        const int threads = 128;
        unsigned blocks = (unsigned)((b.size() + threads - 1) / threads);
        apply_kernel<<<blocks, threads>>>(b.group, b.op, in, b.in_words, out, b.out_words, b.size());
        check(cudaGetLastError(), "kernel launch");
        check(cudaMemcpy(b.out.data(), out, out_bytes, cudaMemcpyDeviceToHost), "copy from the device");
        check(cudaFree(in), "cudaFree");
        check(cudaFree(out), "cudaFree");
    });
}
