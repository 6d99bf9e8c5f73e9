// Common definitions of the CUDA kernels: the function qualifiers, the limb type, the 64-bit
// primitives (wide multiplication, additions with carry) and the 32-bit carry chains (carry_chain) that
// the field arithmetic is built on.
//
// Every function here and in the headers that include it is __host__ __device__ under nvcc and a
// plain inline function under a host-only C++ compiler, so the same source is compiled into the
// kernels and into the host test program.
#pragma once

#include <stdint.h>

#if defined(__CUDACC__)
#define PL_HD __host__ __device__ __forceinline__
#define PL_UNROLL _Pragma("unroll")
#else
#define PL_HD inline
#define PL_UNROLL
#endif

namespace pl {

typedef uint64_t u64;
typedef uint32_t u32;

/** The high 64 bits of a * b without a 128-bit type: four 32x32-bit products. */
PL_HD u64 mulhi_portable(u64 a, u64 b) {
    u64 a0 = (u32)a, a1 = a >> 32, b0 = (u32)b, b1 = b >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/** (hi, lo) = a * b. */
PL_HD void mul_wide(u64 a, u64 b, u64 &lo, u64 &hi) {
#if defined(__CUDA_ARCH__)
    lo = a * b;
    hi = __umul64hi(a, b);
#elif defined(PL_PORTABLE_MULHI)
    // The device's shape (low product, separate high product) with a portable high product;
    // the host test is built this way too, so the device formulation is exercised on the CPU.
    lo = a * b;
    hi = mulhi_portable(a, b);
#else
    unsigned __int128 p = (unsigned __int128)a * b;
    lo = (u64)p;
    hi = (u64)(p >> 64);
#endif
}

/** (c, t) = t + a * b + c: the multiply-accumulate step; the result always fits in 128 bits. */
PL_HD void mac(u64 &t, u64 a, u64 b, u64 &c) {
    u64 lo, hi;
    mul_wide(a, b, lo, hi);
    lo += t;
    hi += lo < t;
    lo += c;
    hi += lo < c;
    t = lo;
    c = hi;
}

/** a + b + carry (carry 0 or 1); carry becomes the carry out. */
PL_HD u64 addc(u64 a, u64 b, u64 &carry) {
    u64 s = a + b;
    u64 c1 = s < a;
    u64 r = s + carry;
    u64 c2 = r < s;
    carry = c1 | c2;
    return r;
}

/** a - b - borrow (borrow 0 or 1); borrow becomes the borrow out. */
PL_HD u64 subb(u64 a, u64 b, u64 &borrow) {
    u64 d = a - b;
    u64 b1 = a < b;
    u64 r = d - borrow;
    u64 b2 = d < borrow;
    borrow = b1 | b2;
    return r;
}

/**
 * A chain of 32-bit multiply-adds and additions linked by a carry flag. On the device each call is the
 * PTX instruction of its name and the flag is the hardware's condition code, so a chain's calls must follow
 * one another with no other flag-setting instruction in between (plain C++ generates none). On the host
 * the flag lives in the object and the same arithmetic is done with 64-bit integers, so the host tests run
 * the device's algorithm.
 */
struct carry_chain {
#if !defined(__CUDA_ARCH__)
    u32 cf = 0;
#endif

    /** lo(a b) + c, setting the flag to the carry out. */
    PL_HD u32 mad_lo_cc(u32 a, u32 b, u32 c) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        u64 s = (u64)(u32)(a * b) + c;
        cf = (u32)(s >> 32);
        return (u32)s;
#endif
    }

    /** lo(a b) + c + flag, setting the flag to the carry out. */
    PL_HD u32 madc_lo_cc(u32 a, u32 b, u32 c) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        u64 s = (u64)(u32)(a * b) + c + cf;
        cf = (u32)(s >> 32);
        return (u32)s;
#endif
    }

    /** hi(a b) + c, setting the flag to the carry out. */
    PL_HD u32 mad_hi_cc(u32 a, u32 b, u32 c) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        u64 s = (((u64)a * b) >> 32) + c;
        cf = (u32)(s >> 32);
        return (u32)s;
#endif
    }

    /** hi(a b) + c + flag, setting the flag to the carry out. */
    PL_HD u32 madc_hi_cc(u32 a, u32 b, u32 c) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        u64 s = (((u64)a * b) >> 32) + c + cf;
        cf = (u32)(s >> 32);
        return (u32)s;
#endif
    }

    /** hi(a b) + c + flag, the end of a chain (the caller knows there is no carry out). */
    PL_HD u32 madc_hi(u32 a, u32 b, u32 c) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        return (u32)((((u64)a * b) >> 32) + c + cf);
#endif
    }

    /** a + b + flag, the end of a chain (the caller knows there is no carry out). */
    PL_HD u32 addc(u32 a, u32 b) {
#if defined(__CUDA_ARCH__)
        u32 r;
        asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        return a + b + cf;
#endif
    }
};

}  // namespace pl
