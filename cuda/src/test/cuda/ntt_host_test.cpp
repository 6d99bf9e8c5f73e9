// The host emulation of the NTT kernels: runs a sequence of launches of the functions of ntt.cuh on
// the CPU, each launch as a loop over all its thread indices, one launch after the other, as the
// device runs them on a stream. Reads on stdin, one command a line:
//
//   field <bn254_fr|bls12381_fr>          starts a case: the field, all buffers cleared
//   buf <slot> <words...>                 a buffer's contents (slot a, b, c, tw or scale)
//   launch <kernel> <count> <args...>     kernel ntt_bit_reverse, ntt_block, ... (ntt_kernels.cuh),
//                                         args in parameter order without the count: p:<slot>:<element>
//                                         (a pointer to an element of a buffer), null, u:<decimal>
//   out <slot>                            prints the buffer's words, one line
//
// Words are 64-bit hexadecimal. With the argument --descending every launch runs its thread indices
// from the last to the first (the threads of a launch must not depend on each other's order).
// A malformed line is reported on stderr, exit status 2.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ntt.cuh"

namespace {

using pl::u32;
using pl::u64;

[[noreturn]] void fail(const std::string &why, const std::string &line) {
    std::cerr << "ntt host test: " << why << ": " << line.substr(0, 200) << std::endl;
    std::exit(2);
}

struct arg {
    bool is_pointer = false;
    u64 *pointer = nullptr;
    u64 value = 0;
};

template <class F>
void for_threads(u64 count, bool descending, F f) {
    if (descending) {
        for (u64 i = count; i-- > 0;) f(i);
    } else {
        for (u64 i = 0; i < count; i++) f(i);
    }
}

/** A step of a thread block: every thread's part, one after the other (the barrier is the loop's end). */
struct host_barrier {
    u64 threads;
    bool desc;
    template <class F>
    void operator()(F f) {
        for_threads(threads, desc, [&](u64 t) { f((u32)t); });
    }
};

template <class P>
void launch(const std::string &kernel, u64 count, const std::vector<arg> &a, bool desc, const std::string &line) {
    auto need = [&](size_t n, int pointers) {
        if (a.size() != n) fail("wrong number of arguments", line);
        for (int k = 0; k < pointers; k++) {
            if (!a[k].is_pointer) fail("argument " + std::to_string(k) + " is not a pointer", line);
        }
    };
    if (kernel == "ntt_bit_reverse") {
        need(2, 1);
        for_threads(count, desc, [&](u64 i) { pl::ntt_bit_reverse<P>(i, a[0].pointer, (u32)a[1].value); });
    } else if (kernel == "ntt_reverse_tail") {
        need(3, 1);
        if (!a[1].is_pointer) fail("argument 1 is not a pointer", line);
        for_threads(count, desc, [&](u64 i) { pl::ntt_reverse_tail<P>(i, a[0].pointer, a[1].pointer, (u32)a[2].value); });
    } else if (kernel == "ntt_scale") {
        need(4, 3);
        for_threads(count, desc, [&](u64 i) {
            pl::ntt_scale<P>(i, a[0].pointer, a[1].pointer, a[2].pointer, (u32)a[3].value);
        });
    } else if (kernel == "ntt_block") {
        need(8, 2);
        const u32 s0 = (u32)a[5].value;
        const u32 k = (u32)a[6].value;
        if (k < 1 || k > NTT_MAX_BLOCK_LOG || s0 > 40 || !a[2].is_pointer || !a[3].is_pointer) {
            fail("bad block launch", line);
        }
        const u64 threads = (u64)1 << (k - 1);
        if (count % threads != 0) fail("a partial block", line);
        std::vector<u64> shared((size_t)P::N << k);
        host_barrier each{threads, desc};
        for_threads(count / threads, desc, [&](u64 block) {
            pl::ntt_block_steps<P>(each, block, s0, k, (u32)a[7].value, a[0].pointer, shared.data(), a[1].pointer,
                                   a[2].pointer, a[3].pointer, (u32)a[4].value);
        });
    } else if (kernel == "ntt_h") {
        need(4, 4);
        for_threads(count, desc, [&](u64 i) { pl::ntt_h<P>(i, a[0].pointer, a[1].pointer, a[2].pointer, a[3].pointer); });
    } else {
        fail("unknown kernel", line);
    }
}

}  // namespace

static_assert(pl::bn254_fr_params::N == 4 && pl::bls12381_fr_params::N == 4, "4-limb fields");

int main(int argc, char **argv) {
    const bool descending = argc > 1 && std::strcmp(argv[1], "--descending") == 0;
    std::ios::sync_with_stdio(false);
    std::map<std::string, std::vector<u64>> buffers;
    std::string field;
    std::string line, cmd, tok;
    std::string out;
    char hex[24];
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream s(line);
        s >> cmd;
        if (cmd == "field") {
            if (!(s >> field) || (field != "bn254_fr" && field != "bls12381_fr")) fail("unknown field", line);
            buffers.clear();
        } else if (cmd == "buf") {
            std::string slot;
            if (!(s >> slot)) fail("no slot", line);
            std::vector<u64> &b = buffers[slot];
            b.clear();
            while (s >> tok) {
                char *end = nullptr;
                unsigned long long v = std::strtoull(tok.c_str(), &end, 16);
                if (tok.size() > 16 || *end != '\0') fail("not a 64-bit hexadecimal word", line);
                b.push_back(v);
            }
        } else if (cmd == "launch") {
            std::string kernel;
            unsigned long long count;
            if (field.empty()) fail("no field", line);
            if (!(s >> kernel >> count)) fail("no kernel and count", line);
            std::vector<arg> args;
            while (s >> tok) {
                arg a;
                if (tok == "null") {
                    a.is_pointer = true;
                } else if (tok.rfind("u:", 0) == 0) {
                    a.value = std::strtoull(tok.c_str() + 2, nullptr, 10);
                } else if (tok.rfind("p:", 0) == 0) {
                    size_t colon = tok.find(':', 2);
                    if (colon == std::string::npos) fail("bad pointer", line);
                    auto it = buffers.find(tok.substr(2, colon - 2));
                    if (it == buffers.end()) fail("no such buffer", line);
                    u64 element = std::strtoull(tok.c_str() + colon + 1, nullptr, 10);
                    if (element * 4 > it->second.size()) fail("pointer past the buffer", line);
                    a.is_pointer = true;
                    a.pointer = it->second.data() + element * 4;  // both fields have 4 limbs
                } else {
                    fail("bad argument " + tok, line);
                }
                args.push_back(a);
            }
            if (field == "bn254_fr") {
                launch<pl::bn254_fr_params>(kernel, count, args, descending, line);
            } else {
                launch<pl::bls12381_fr_params>(kernel, count, args, descending, line);
            }
        } else if (cmd == "out") {
            std::string slot;
            s >> slot;
            auto it = buffers.find(slot);
            if (it == buffers.end()) fail("no such buffer", line);
            for (size_t k = 0; k < it->second.size(); k++) {
                std::snprintf(hex, sizeof hex, k == 0 ? "%016llx" : " %016llx", (unsigned long long)it->second[k]);
                out += hex;
            }
            out += '\n';
        } else {
            fail("unknown command", line);
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
