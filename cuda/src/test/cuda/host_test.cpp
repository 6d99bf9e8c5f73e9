// The host test program of the kernels' arithmetic: the __host__ __device__ functions of
// src/main/cuda compiled for the CPU (by g++ as C++, or by nvcc's host pass).
//
// Reads one operation a line on stdin and writes its result, one line, on stdout:
//   <group> <op> <operand words...>
// group: bn254_fr, bn254_fp, bls12381_fr, bls12381_fp (ops mul sqr add sub dbl neg to_mont
// from_mont), or bn254_g1, bls12381_g1 (ops dbl add add_mixed neg from_affine; Jacobian
// points are X Y Z, affine points x y). Words are 64-bit hexadecimal, little-endian limb order,
// each coordinate in Montgomery form except the operand of to_mont and the result of from_mont.
// The result is written the same way. A malformed line is reported on stderr, exit status 2.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "g1.cuh"

using namespace pl;

namespace {

[[noreturn]] void fail(const std::string &why, const std::string &line) {
    std::cerr << "host_test: " << why << ": " << line << std::endl;
    std::exit(2);
}

struct words {
    std::vector<u64> w;
    size_t pos = 0;

    template <class P>
    fe<P> take(const std::string &line) {
        fe<P> r;
        if (pos + P::N > w.size()) fail("too few words", line);
        for (int i = 0; i < P::N; i++) r.l[i] = w[pos++];
        return r;
    }
};

template <class P>
void put(std::string &out, const fe<P> &a) {
    char buf[24];
    for (int i = 0; i < P::N; i++) {
        std::snprintf(buf, sizeof buf, out.empty() ? "%016llx" : " %016llx", (unsigned long long)a.l[i]);
        out += buf;
    }
}

template <class P>
std::string run_field(const std::string &op, words &in, const std::string &line) {
    typedef field<P> F;
    fe<P> a = in.template take<P>(line), r;
    if (op == "mul" || op == "add" || op == "sub") {
        fe<P> b = in.template take<P>(line);
        if (op == "mul") F::mul(a, b, r);
        else if (op == "add") F::add(a, b, r);
        else F::sub(a, b, r);
    } else if (op == "sqr") F::sqr(a, r);
    else if (op == "dbl") F::dbl(a, r);
    else if (op == "neg") F::neg(a, r);
    else if (op == "to_mont") F::to_mont(a, r);
    else if (op == "from_mont") F::from_mont(a, r);
    else fail("unknown field operation", line);
    std::string out;
    put(out, r);
    return out;
}

template <class P>
jacobian<P> take_jacobian(words &in, const std::string &line) {
    jacobian<P> p;
    p.x = in.template take<P>(line);
    p.y = in.template take<P>(line);
    p.z = in.template take<P>(line);
    return p;
}

template <class P>
affine<P> take_affine(words &in, const std::string &line) {
    affine<P> p;
    p.x = in.template take<P>(line);
    p.y = in.template take<P>(line);
    return p;
}

template <class P>
std::string run_g1(const std::string &op, words &in, const std::string &line) {
    typedef g1<P> G;
    jacobian<P> r;
    if (op == "dbl") {
        G::dbl(take_jacobian<P>(in, line), r);
    } else if (op == "add") {
        jacobian<P> p = take_jacobian<P>(in, line);
        G::add(p, take_jacobian<P>(in, line), r);
    } else if (op == "add_mixed") {
        jacobian<P> p = take_jacobian<P>(in, line);
        G::add_mixed(p, take_affine<P>(in, line), r);
    } else if (op == "neg") {
        G::neg(take_jacobian<P>(in, line), r);
    } else if (op == "from_affine") {
        G::from_affine(take_affine<P>(in, line), r);
    } else {
        fail("unknown point operation", line);
    }
    std::string out;
    put(out, r.x);
    put(out, r.y);
    put(out, r.z);
    return out;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line, group, op, tok;
    std::string out;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream s(line);
        words in;
        if (!(s >> group >> op)) fail("no group and operation", line);
        while (s >> tok) {
            char *end = nullptr;
            unsigned long long v = std::strtoull(tok.c_str(), &end, 16);
            if (tok.size() > 16 || *end != '\0') fail("not a 64-bit hexadecimal word", line);
            in.w.push_back(v);
        }
        std::string r;
        if (group == "bn254_fr") r = run_field<bn254_fr_params>(op, in, line);
        else if (group == "bn254_fp") r = run_field<bn254_fp_params>(op, in, line);
        else if (group == "bls12381_fr") r = run_field<bls12381_fr_params>(op, in, line);
        else if (group == "bls12381_fp") r = run_field<bls12381_fp_params>(op, in, line);
        else if (group == "bn254_g1") r = run_g1<bn254_fp_params>(op, in, line);
        else if (group == "bls12381_g1") r = run_g1<bls12381_fp_params>(op, in, line);
        else fail("unknown group", line);
        if (in.pos != in.w.size()) fail("too many words", line);
        out += r;
        out += '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
