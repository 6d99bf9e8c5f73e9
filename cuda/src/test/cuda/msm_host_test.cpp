// The MSM's host emulation: the kernels' bodies (msm_kernels.cuh, over the per-thread steps of msm.cuh)
// run on the CPU, kernel after kernel, each as a loop over the thread indices of a grid (the atomic
// additions one after another), in the order CudaMsm launches them.
//
// Reads cases on stdin, each a header line and n point lines:
//   msm <group> <n> <c>          group bn254, bls12381 (G1), bn254_g2 or bls12381_g2 (G2); c = 0: the
//                                window size msm_window_bits(n)
//   <x y words> <4 scalar words> one line a point: affine coordinates (Montgomery form, infinity 0 0;
//                                on G2 each coordinate c0 then c1)
//                                and the scalar's canonical words, 64-bit hexadecimal, little-endian
// and writes one line a case: the window size used, then the result's Jacobian words X Y Z.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "msm_kernels.cuh"

namespace {

using pl::u32;
using pl::u64;

/** Threads of the emulated grids: a prime, so no loop's item count is a multiple of it. */
const u64 THREADS = 37;

template <class G, class FR>
std::vector<u64> emulate(const std::vector<u64> &points, const std::vector<u64> &scalars, u64 n, int c) {
    typedef pl::msm<G, FR> M;
    const int jw = M::JW;
    std::vector<u64> result(jw);
    if (n == 0) {
        typename G::J inf;
        G::set_infinity(inf);
        M::store(result.data(), 0, inf);
        return result;
    }
    const u32 nw = M::windows(c);
    const u32 nb = 1u << (c - 1);
    const u32 len = pl::msm_segment_len(nb);
    const u32 segs = nb / len;
    u32 len_log2 = 0;
    while ((1u << len_log2) < len) len_log2++;

    // counts start as garbage, as device memory does: the clear kernel must zero them
    std::vector<u32> digits(nw * n), counts(nw * nb, 0xdeadbeefu), offsets(nw * (nb + 1)), cursor(nw * nb),
        sorted(nw * n), sums(nw * (nb / pl::msm_scan_chunk(nb))), task_counts(nw * nb), task_offsets(nw * (nb + 1));
    const u64 max_tasks = pl::msm_max_tasks(n, nb);
    const u64 max_groups = pl::msm_max_tasks(max_tasks, nb);
    std::vector<u64> partials(nw * max_tasks * jw), group_sums(nw * max_groups * jw);
    std::vector<u32> group_counts(nw * nb), group_offsets(nw * (nb + 1));
    std::vector<u64> buckets((u64)nw * nb * jw), seg_t((u64)nw * segs * jw), seg_s((u64)nw * segs * jw);
    // the kernels' bodies, each for every thread of a small grid (fewer threads than items, so the
    // grid-stride loops go round), in CudaMsm's order
    typedef pl::msm_kernel::curve<G, FR> K;
    const u64 T = THREADS;
    for (u64 t = 0; t < T; t++) pl::msm_kernel::clear_u32(t, T, counts.data(), counts.size());
    for (u64 t = 0; t < T; t++) K::recode(t, T, scalars.data(), digits.data(), counts.data(), n, c);
    for (u64 t = 0; t < T; t++) pl::msm_kernel::chunk_sums(t, T, counts.data(), sums.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        pl::msm_kernel::scan(t, T, counts.data(), sums.data(), offsets.data(), cursor.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        pl::msm_kernel::scatter(t, T, digits.data(), cursor.data(), sorted.data(), n, nw, nb);
    // the tasks: their counts, then their offsets by the same two scan kernels (the cursor is free again)
    for (u64 t = 0; t < T; t++) pl::msm_kernel::task_counts(t, T, counts.data(), task_counts.data(), nw, nb);
    for (u64 t = 0; t < T; t++) pl::msm_kernel::chunk_sums(t, T, task_counts.data(), sums.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        pl::msm_kernel::scan(t, T, task_counts.data(), sums.data(), task_offsets.data(), cursor.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        K::accumulate(t, T, points.data(), sorted.data(), offsets.data(), task_offsets.data(), partials.data(), n,
                      nw, nb, max_tasks);
    // groups of the tasks' partial sums, their offsets, their sums; then each bucket's groups
    for (u64 t = 0; t < T; t++) pl::msm_kernel::task_counts(t, T, task_counts.data(), group_counts.data(), nw, nb);
    for (u64 t = 0; t < T; t++) pl::msm_kernel::chunk_sums(t, T, group_counts.data(), sums.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        pl::msm_kernel::scan(t, T, group_counts.data(), sums.data(), group_offsets.data(), cursor.data(), nw, nb);
    for (u64 t = 0; t < T; t++)
        K::merge_groups(t, T, partials.data(), task_offsets.data(), group_offsets.data(), group_sums.data(), nw, nb,
                        max_tasks, max_groups);
    for (u64 t = 0; t < T; t++)
        K::merge(t, T, group_sums.data(), group_offsets.data(), buckets.data(), nw, nb, max_groups);
    for (u64 t = 0; t < T; t++) K::reduce_segments(t, T, buckets.data(), seg_t.data(), seg_s.data(), nw, nb, len);
    for (u64 t = 0; t < T; t++) K::scale_segments(t, T, seg_t.data(), seg_s.data(), nw, segs, len_log2);
    u64 *in = seg_t.data(), *out = seg_s.data();
    for (u32 count = segs; count > 1; count = (count + pl::MSM_RUN - 1) / pl::MSM_RUN) {
        for (u64 t = 0; t < T; t++) K::sum_runs(t, T, in, out, nw, count, pl::MSM_RUN);
        std::swap(in, out);
    }
    // the window sums, then the host's step
    pl::msm_reduce<G, FR>::combine(nw, c, in, result.data());
    return result;
}

[[noreturn]] void fail(const std::string &why) {
    std::cerr << "msm_host_test: " << why << std::endl;
    std::exit(2);
}

u64 word() {
    std::string tok;
    if (!(std::cin >> tok)) fail("input ends inside a case");
    char *end = nullptr;
    u64 v = std::strtoull(tok.c_str(), &end, 16);
    if (end == tok.c_str() || *end != 0) fail("not a hexadecimal word: " + tok);
    return v;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string tag, curve;
    while (std::cin >> tag) {
        u64 n;
        int c;
        if (tag != "msm" || !(std::cin >> curve >> n >> c)) fail("expected: msm <group> <n> <c>");
        const bool bn = curve == "bn254" || curve == "bn254_g2";
        const bool g2 = curve == "bn254_g2" || curve == "bls12381_g2";
        if (!bn && curve != "bls12381" && curve != "bls12381_g2") fail("unknown group " + curve);
        const int limbs = (bn ? 4 : 6) * (g2 ? 2 : 1);  // words of a coordinate
        if (c == 0) c = pl::msm_window_bits(n);
        if (c < 2 || c > 16) fail("window size out of [2, 16]: " + std::to_string(c));
        std::vector<u64> points(n * 2 * limbs), scalars(n * 4);
        for (u64 i = 0; i < n; i++) {
            for (int k = 0; k < 2 * limbs; k++) points[i * 2 * limbs + k] = word();
            for (int k = 0; k < 4; k++) scalars[i * 4 + k] = word();
        }
        std::vector<u64> r =
            g2 ? (bn ? emulate<pl::g2<pl::bn254_fp_params>, pl::bn254_fr_params>(points, scalars, n, c)
                     : emulate<pl::g2<pl::bls12381_fp_params>, pl::bls12381_fr_params>(points, scalars, n, c))
               : (bn ? emulate<pl::g1<pl::bn254_fp_params>, pl::bn254_fr_params>(points, scalars, n, c)
                     : emulate<pl::g1<pl::bls12381_fp_params>, pl::bls12381_fr_params>(points, scalars, n, c));
        std::printf("%d", c);
        for (u64 x : r) std::printf(" %llx", (unsigned long long)x);
        std::printf("\n");
    }
    return 0;
}
