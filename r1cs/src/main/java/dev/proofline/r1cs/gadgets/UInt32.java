package dev.proofline.r1cs.gadgets;

import dev.proofline.r1cs.cs.ConstraintSystem;

/**
 * A 32-bit word as 32 {@link Bit}s, least significant first. Immutable. Rotations, shifts and NOT
 * are free; XOR and AND cost one constraint per bit that is not constant on either side;
 * {@link #addMany} costs one constraint per bit of the exact sum plus one.
 */
public final class UInt32 {

    private static final long MASK = 0xffff_ffffL;

    private final Bit[] bits;
    private final int value;

    private UInt32(Bit[] bits) {
        this.bits = bits;
        int v = 0;
        for (int i = 0; i < 32; i++) {
            if (bits[i].value()) {
                v |= 1 << i;
            }
        }
        this.value = v;
    }

    public static UInt32 constant(int value) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = Bit.constant(((value >>> i) & 1) != 0);
        }
        return new UInt32(b);
    }

    /** A private word: 32 allocated bits, 32 constraints. */
    public static UInt32 alloc(ConstraintSystem cs, String name, int value) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = Bit.alloc(cs, name, ((value >>> i) & 1) != 0);
        }
        return new UInt32(b);
    }

    /** The word of 32 bits, least significant first. */
    public static UInt32 fromBitsLe(Bit[] bits, int offset) {
        Bit[] b = new Bit[32];
        System.arraycopy(bits, offset, b, 0, 32);
        return new UInt32(b);
    }

    /** The word of 32 bits, most significant first (SHA-256's byte order of a message). */
    public static UInt32 fromBitsBe(Bit[] bits, int offset) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = bits[offset + 31 - i];
        }
        return new UInt32(b);
    }

    /** The value: exact for constants and while values are computed, meaningless otherwise. */
    public int value() {
        return value;
    }

    public boolean isConstant() {
        for (Bit b : bits) {
            if (!b.isConstant()) {
                return false;
            }
        }
        return true;
    }

    public Bit bit(int i) {
        return bits[i];
    }

    public Bit[] bitsLe() {
        return bits.clone();
    }

    public Bit[] bitsBe() {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = bits[31 - i];
        }
        return b;
    }

    /** Writes the bits, most significant first, to {@code out[offset..offset+32)}. */
    public void bitsBe(Bit[] out, int offset) {
        for (int i = 0; i < 32; i++) {
            out[offset + i] = bits[31 - i];
        }
    }

    public UInt32 rotr(int n) {
        n &= 31;
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = bits[(i + n) & 31];
        }
        return new UInt32(b);
    }

    public UInt32 shr(int n) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = i + n < 32 ? bits[i + n] : Bit.FALSE;
        }
        return new UInt32(b);
    }

    public UInt32 not() {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = bits[i].not();
        }
        return new UInt32(b);
    }

    public UInt32 xor(ConstraintSystem cs, UInt32 o) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = Bit.xor(cs, bits[i], o.bits[i]);
        }
        return new UInt32(b);
    }

    public UInt32 and(ConstraintSystem cs, UInt32 o) {
        Bit[] b = new Bit[32];
        for (int i = 0; i < 32; i++) {
            b[i] = Bit.and(cs, bits[i], o.bits[i]);
        }
        return new UInt32(b);
    }

    /** Bitwise a ? b : c. */
    public static UInt32 ch(ConstraintSystem cs, UInt32 a, UInt32 b, UInt32 c) {
        Bit[] r = new Bit[32];
        for (int i = 0; i < 32; i++) {
            r[i] = Bit.ch(cs, a.bits[i], b.bits[i], c.bits[i]);
        }
        return new UInt32(r);
    }

    /** Bitwise majority. */
    public static UInt32 maj(ConstraintSystem cs, UInt32 a, UInt32 b, UInt32 c) {
        Bit[] r = new Bit[32];
        for (int i = 0; i < 32; i++) {
            r[i] = Bit.maj(cs, a.bits[i], b.bits[i], c.bits[i]);
        }
        return new UInt32(r);
    }

    /**
     * The sum of the operands mod 2^32. The exact sum (below k 2^32 for k operands) is allocated as
     * bits, each constrained boolean, and one constraint equates it with the operands' weighted bits
     * (constants folded); the top bits are then dropped. Free when every operand is constant.
     */
    public static UInt32 addMany(ConstraintSystem cs, UInt32... operands) {
        long max = 0;
        long sum = 0;
        boolean allConstant = true;
        for (UInt32 op : operands) {
            long v = op.value & MASK;
            sum += v;
            if (op.isConstant()) {
                max += v;
            } else {
                max += MASK;
                allConstant = false;
            }
        }
        if (allConstant) {
            return constant((int) sum);
        }
        int n = Math.max(32, 64 - Long.numberOfLeadingZeros(max));
        Terms in = new Terms(cs);
        for (UInt32 op : operands) {
            for (int i = 0; i < 32; i++) {
                in.bit(op.bits[i], i);
            }
        }
        Terms out = new Terms(cs);
        Bit[] r = new Bit[n];
        for (int j = 0; j < n; j++) {
            r[j] = Bit.alloc(cs, "sum bit", ((sum >>> j) & 1) != 0);
            out.bit(r[j], j);
        }
        cs.enforce("sum", in.done(), cs.lc().add(cs.one()), out.done());
        return fromBitsLe(r, 0);
    }

    @Override
    public String toString() {
        return isConstant() ? String.format("0x%08x", value) : "UInt32[" + String.format("0x%08x", value) + "?]";
    }
}
