// The line protocol of the arithmetic test programs (host only): parsing, batching, printing.
//
// Reads one operation a line on stdin and writes its result, one line, on stdout:
//   <group> <op> <operand words...>
// group: bn254_fr, bn254_fp, bls12381_fr, bls12381_fp (ops mul sqr add sub dbl neg to_mont
// from_mont), or bn254_g1, bls12381_g1 (ops dbl add add_mixed neg from_affine; Jacobian points are
// X Y Z, affine points x y). Words are 64-bit hexadecimal, little-endian limb order, each coordinate
// in Montgomery form except the operand of to_mont and the result of from_mont. The result is
// written the same way. A malformed line is reported on stderr, exit status 2.
//
// The lines are gathered into batches, one per group and operation, which the program's executor
// runs (on the CPU or on a GPU); the results are printed in the order of the lines.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_ops.cuh"

namespace pl {
namespace test {

struct batch {
    int group = 0;
    int op = 0;
    int in_words = 0;   // words of one item's operands
    int out_words = 0;  // words of one item's result
    std::vector<u64> in;
    std::vector<u64> out;
    std::vector<size_t> lines;  // the input line of each item

    size_t size() const { return lines.size(); }
};

[[noreturn]] inline void fail(const std::string &why, const std::string &line) {
    std::cerr << "test program: " << why << ": " << line << std::endl;
    std::exit(2);
}

inline int limbs_of(int group) {
    switch (group) {
    case BLS12381_FP: case BLS12381_G1: return 6;
    default: return 4;
    }
}

/** Reads the lines, hands each batch to execute (which fills batch.out), prints the results. */
template <class Execute>
int run_protocol(Execute execute) {
    static const std::pair<const char *, int> groups[] = {
        {"bn254_fr", BN254_FR}, {"bn254_fp", BN254_FP}, {"bls12381_fr", BLS12381_FR},
        {"bls12381_fp", BLS12381_FP}, {"bn254_g1", BN254_G1}, {"bls12381_g1", BLS12381_G1}};
    // name, op, operand elements (field) or coordinates (G1)
    static const struct { const char *name; int op; int in; } field_ops[] = {
        {"mul", F_MUL, 2}, {"sqr", F_SQR, 1}, {"add", F_ADD, 2}, {"sub", F_SUB, 2}, {"dbl", F_DBL, 1},
        {"neg", F_NEG, 1}, {"to_mont", F_TO_MONT, 1}, {"from_mont", F_FROM_MONT, 1}};
    static const struct { const char *name; int op; int in; } g1_ops[] = {
        {"dbl", G_DBL, 3}, {"add", G_ADD, 6}, {"add_mixed", G_ADD_MIXED, 5}, {"neg", G_NEG, 3},
        {"from_affine", G_FROM_AFFINE, 2}};

    std::ios::sync_with_stdio(false);
    std::map<std::pair<int, int>, batch> batches;
    std::vector<std::string> input;
    std::string line, group_name, op_name, tok;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream s(line);
        if (!(s >> group_name >> op_name)) fail("no group and operation", line);
        int group = -1;
        for (const auto &g : groups) if (group_name == g.first) group = g.second;
        if (group < 0) fail("unknown group", line);
        bool is_g1 = group == BN254_G1 || group == BLS12381_G1;
        int op = -1, coords = 0;
        if (is_g1) {
            for (const auto &o : g1_ops) if (op_name == o.name) { op = o.op; coords = o.in; }
        } else {
            for (const auto &o : field_ops) if (op_name == o.name) { op = o.op; coords = o.in; }
        }
        if (op < 0) fail("unknown operation", line);
        int n = limbs_of(group);
        batch &b = batches[{group, op}];
        b.group = group;
        b.op = op;
        b.in_words = coords * n;
        b.out_words = (is_g1 ? 3 : 1) * n;
        int words = 0;
        while (s >> tok) {
            char *end = nullptr;
            unsigned long long v = std::strtoull(tok.c_str(), &end, 16);
            if (tok.size() > 16 || *end != '\0') fail("not a 64-bit hexadecimal word", line);
            b.in.push_back(v);
            words++;
        }
        if (words != b.in_words) fail("wrong number of words", line);
        b.lines.push_back(input.size());
        input.push_back(line);
    }
    std::vector<std::string> results(input.size());
    for (auto &kv : batches) {
        batch &b = kv.second;
        b.out.assign(b.size() * b.out_words, 0);
        execute(b);
        char buf[24];
        for (size_t i = 0; i < b.size(); i++) {
            std::string &r = results[b.lines[i]];
            for (int k = 0; k < b.out_words; k++) {
                std::snprintf(buf, sizeof buf, k == 0 ? "%016llx" : " %016llx",
                              (unsigned long long)b.out[i * b.out_words + k]);
                r += buf;
            }
        }
    }
    std::string out;
    for (const std::string &r : results) {
        out += r;
        out += '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace test
}  // namespace pl
