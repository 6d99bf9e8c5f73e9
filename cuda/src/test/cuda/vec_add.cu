// The kernel of the driver tests, built into two resources under resources/dev/proofline/cuda:
//   vec_add_u32.ptx     nvcc -ptx -arch=compute_75, with .version lowered to 7.0 so that drivers from
//                       CUDA 11.0 on can compile it
//   vec_add_u32.fatbin  nvcc -fatbin -gencode arch=compute_75,code=compute_75
//                         -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
// The fake driver (c/fake_cuda.c) computes the same thing on the host.
extern "C" __global__ void vec_add_u32(unsigned *out, const unsigned *a, const unsigned *b, unsigned n, unsigned long long k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i] + (unsigned) k;
    }
}
