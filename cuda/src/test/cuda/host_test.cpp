// The host test program of the kernels' arithmetic: the __host__ __device__ functions of
// src/main/cuda compiled for the CPU (by g++ as C++, or by nvcc's host pass) and run there.
// The protocol is described in test_protocol.h.
#include "test_protocol.h"

int main() {
    return pl::test::run_protocol([](pl::test::batch &b) {
        for (size_t i = 0; i < b.size(); i++) {
            pl::test::apply(b.group, b.op, &b.in[i * b.in_words], &b.out[i * b.out_words]);
        }
    });
}
