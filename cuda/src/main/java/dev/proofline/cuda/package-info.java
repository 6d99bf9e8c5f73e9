/**
 * The CUDA backend: bindings to the CUDA driver API ({@code libcuda.so.1}) through Java's FFM API, the
 * kernels (compiled by nvcc at build time into a resource), and the prover backend built on them.
 */
package dev.proofline.cuda;
