package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.LinearCombination;
import dev.proofline.r1cs.cs.Variable;
import java.math.BigInteger;

/**
 * Poseidon as circomlib defines it ({@code Poseidon(n)} of {@code poseidon.circom}, circomlibjs's
 * {@code buildPoseidon}): state [0, in_1, .., in_n], the permutation of {@link PoseidonParameters}
 * (each round: add the round constants, x^5 on every element in the RF full rounds and on element 0
 * in the RP partial ones, multiply by the MDS matrix), output element 0.
 *
 * <p>Natively ({@link #hash(PairingCurve, BigInteger...)}) and in a circuit
 * ({@link #hash(ConstraintSystem, Num...)}): 3 constraints per S-box whose input is not constant,
 * 3 (RF t + RP - 1) in all (the first round's element 0 is constant): 240 for 2 inputs. The circuit
 * never materializes the linear layers: full-round states are linear combinations of the t S-box
 * outputs, and each partial round's S-box input is built in closed form ({@link PoseidonPlan}).
 */
public final class Poseidon {

    private Poseidon() {
    }

    // ---------------------------------------------------------------- native

    /** circomlib's Poseidon of the inputs (each reduced mod r). */
    public static BigInteger hash(PairingCurve curve, BigInteger... inputs) {
        PoseidonParameters p = PoseidonParameters.of(curve, inputs.length);
        PrimeField fr = curve.fr();
        long[] state = new long[4 * p.width()];
        for (int i = 0; i < inputs.length; i++) {
            fr.fromBigInteger(inputs[i], state, 4 * (i + 1));
        }
        permute(p, state);
        return fr.toBigInteger(state, 0);
    }

    /** The permutation in place on t Montgomery elements (flat, 4 words each). */
    public static void permute(PoseidonParameters p, long[] state) {
        PrimeField fr = p.field();
        int t = p.width();
        int rounds = p.fullRounds() + p.partialRounds();
        int half = p.fullRounds() / 2;
        long[] tmp = new long[4 * t];
        long[] x = new long[4];
        long[] y = new long[4];
        PoseidonPlan plan = p.plan();
        for (int r = 0; r < rounds; r++) {
            if (r == half && plan.sparse != null) {
                for (int k = 0; k < p.partialRounds(); k++) {
                    fr.add(state, 0, plan.kappa, 4 * k, state, 0);
                    pow5(fr, state, 0, x);
                    plan.applySparse(fr, k, state, x, y);
                }
                plan.finishPartial(fr, state, tmp, x);
                r += p.partialRounds() - 1;
                continue;
            }
            addConstants(fr, p, r, state);
            if (r < half || r >= half + p.partialRounds()) {
                for (int i = 0; i < t; i++) {
                    pow5(fr, state, 4 * i, x);
                }
            } else {
                pow5(fr, state, 0, x);
            }
            mix(fr, p, state, tmp, x);
        }
    }

    private static void addConstants(PrimeField fr, PoseidonParameters p, int round, long[] state) {
        long[] c = p.constants();
        int t = p.width();
        for (int i = 0; i < t; i++) {
            fr.add(state, 4 * i, c, 4 * (round * t + i), state, 4 * i);
        }
    }

    private static void pow5(PrimeField fr, long[] a, int ai, long[] x) {
        fr.sqr(a, ai, x, 0);
        fr.sqr(x, 0, x, 0);
        fr.mul(x, 0, a, ai, a, ai);
    }

    /** state = M state. */
    private static void mix(PrimeField fr, PoseidonParameters p, long[] state, long[] tmp, long[] x) {
        long[] m = p.matrix();
        int t = p.width();
        for (int i = 0; i < t; i++) {
            fr.setZero(tmp, 4 * i);
            for (int j = 0; j < t; j++) {
                fr.mul(m, 4 * (i * t + j), state, 4 * j, x, 0);
                fr.add(tmp, 4 * i, x, 0, tmp, 4 * i);
            }
        }
        System.arraycopy(tmp, 0, state, 0, 4 * t);
    }

    // ---------------------------------------------------------------- circuit

    /** circomlib's Poseidon of 1 .. 16 inputs in a circuit; the output is a linear combination. */
    public static Num hash(ConstraintSystem cs, Num... inputs) {
        PoseidonParameters p = PoseidonParameters.of(cs.curve(), inputs.length);
        Num[] state = new Num[p.width()];
        state[0] = Num.zero(cs);
        System.arraycopy(inputs, 0, state, 1, inputs.length);
        cs.pushNamespace("poseidon");
        try {
            return permute(cs, p, state)[0];
        } finally {
            cs.popNamespace();
        }
    }

    /**
     * The permutation of t elements in a circuit; the outputs are linear combinations of the last
     * round's S-box outputs. Free when every input is constant.
     */
    public static Num[] permute(ConstraintSystem cs, PoseidonParameters p, Num[] state) {
        int t = p.width();
        if (state.length != t) {
            throw new IllegalArgumentException("the state has " + state.length + " elements, the width is " + t);
        }
        if (p.field() != cs.field()) {
            throw new IllegalArgumentException("the parameters are for another field");
        }
        PrimeField fr = cs.field();
        boolean allConstant = true;
        for (Num n : state) {
            allConstant &= n.isConstant();
        }
        if (allConstant) {
            long[] s = new long[4 * t];
            for (int i = 0; i < t; i++) {
                System.arraycopy(state[i].value(), 0, s, 4 * i, 4);
            }
            permute(p, s);
            Num[] out = new Num[t];
            for (int i = 0; i < t; i++) {
                out[i] = Num.constant(cs, java.util.Arrays.copyOfRange(s, 4 * i, 4 * i + 4));
            }
            return out;
        }
        return new Circuit(cs, p).run(state);
    }

    /** One in-circuit permutation. */
    private static final class Circuit {
        private final ConstraintSystem cs;
        private final PrimeField fr;
        private final PoseidonParameters p;
        private final int t;
        private final long[] c;
        private final long[] m;
        /** Native state values while values are computed, else null. */
        private final long[] vals;
        private final long[] tmp;
        private final long[] x = new long[4];
        /** The current full round's S-box outputs: a variable, or (null) the constant in yc. */
        private final Variable[] y;
        private final long[] yc;
        /** The partial rounds' S-box outputs. */
        private Variable[] xs;
        /** Whether linear combinations are built (not on the witness-only system). */
        private final boolean build;

        Circuit(ConstraintSystem cs, PoseidonParameters p) {
            this.cs = cs;
            this.fr = cs.field();
            this.p = p;
            this.t = p.width();
            this.c = p.constants();
            this.m = p.matrix();
            this.vals = cs.needsValues() ? new long[4 * t] : null;
            this.tmp = new long[4 * t];
            this.y = new Variable[t];
            this.yc = new long[4 * t];
            this.build = cs.needsConstraints();
        }

        Num[] run(Num[] in) {
            int half = p.fullRounds() / 2;
            int rp = p.partialRounds();
            if (vals != null) {
                for (int i = 0; i < t; i++) {
                    System.arraycopy(in[i].value(), 0, vals, 4 * i, 4);
                }
            }
            int round = 0;
            // first full round: the inputs' own linear combinations
            beginRound(round);
            for (int i = 0; i < t; i++) {
                if (in[i].isConstant()) {
                    constantSbox(i, in[i].value(), round);
                } else {
                    y[i] = sbox(new Terms(cs).lc(in[i].lc()).addConstant(c, 4 * (round * t + i)).done(), i);
                }
            }
            endRound();
            for (round = 1; round < half; round++) {
                fullRound(round);
            }
            if (rp > 0) {
                partialRounds(half);
                round = half + rp;
                fullRoundAfterPartial(round);
                round++;
            }
            for (; round < p.fullRounds() + rp; round++) {
                fullRound(round);
            }
            Num[] out = new Num[t];
            for (int i = 0; i < t; i++) {
                Terms s = new Terms(cs);
                for (int j = 0; j < t && build; j++) {
                    term(s, m, 4 * (i * t + j), j);
                }
                out[i] = Num.of(s.done(), vals == null ? null : java.util.Arrays.copyOfRange(vals, 4 * i, 4 * i + 4));
            }
            return out;
        }

        private void beginRound(int round) {
            if (vals != null) {
                addConstants(fr, p, round, vals);
            }
        }

        private void endRound() {
            if (vals != null) {
                mix(fr, p, vals, tmp, x);
            }
        }

        /** + coef * y_j (a variable, or a constant folded into the constant term). */
        private void term(Terms s, long[] coef, int ci, int j) {
            if (y[j] != null) {
                s.var(coef, ci, y[j]);
            } else {
                fr.mul(coef, ci, yc, 4 * j, x, 0);
                s.addConstant(x, 0);
            }
        }

        /** A full round whose input state is M y. */
        private void fullRound(int round) {
            beginRound(round);
            Variable[] next = new Variable[t];
            for (int i = 0; i < t; i++) {
                Terms s = new Terms(cs);
                for (int j = 0; j < t && build; j++) {
                    term(s, m, 4 * (i * t + j), j);
                }
                s.addConstant(c, 4 * (round * t + i));
                next[i] = sbox(s.done(), i);
            }
            // from here on every S-box output is a variable
            System.arraycopy(next, 0, y, 0, t);
            java.util.Arrays.fill(yc, 0L);
            endRound();
        }

        /** The RP partial rounds, from the state M y. */
        private void partialRounds(int firstRound) {
            PoseidonPlan plan = p.plan();
            int rounds = p.partialRounds();
            boolean sparseValues = vals != null && plan.sparse != null;
            long[] y2 = new long[4];
            Variable[] xs = new Variable[rounds];
            for (int k = 0; k < rounds; k++) {
                if (sparseValues) {
                    // vals holds the sparse form of the state, whose element 0 is the true one
                    fr.add(vals, 0, plan.kappa, 4 * k, vals, 0);
                } else {
                    beginRound(firstRound + k);
                }
                Terms s = new Terms(cs);
                if (build) {
                    for (int i = 0; i < t; i++) {
                        term(s, plan.w0, 4 * (k * t + i), i);
                    }
                    for (int j = 0; j < k; j++) {
                        s.var(plan.u, 4 * ((k - 1 - j) * t), xs[j]);
                    }
                    s.addConstant(plan.k0, 4 * k);
                }
                xs[k] = sbox(s.done(), 0);
                if (sparseValues) {
                    plan.applySparse(fr, k, vals, x, y2);
                } else {
                    endRound();
                }
            }
            if (sparseValues) {
                plan.finishPartial(fr, vals, tmp, x);
            }
            this.xs = xs;
        }

        /** The first full round after the partial ones, whose input state is s^(RP). */
        private void fullRoundAfterPartial(int round) {
            PoseidonPlan plan = p.plan();
            beginRound(round);
            Variable[] next = new Variable[t];
            for (int i = 0; i < t; i++) {
                Terms s = new Terms(cs);
                if (build) {
                    for (int j = 0; j < t; j++) {
                        term(s, plan.wEnd, 4 * (i * t + j), j);
                    }
                    for (int j = 0; j < plan.rp; j++) {
                        s.var(plan.u, 4 * ((plan.rp - 1 - j) * t + i), xs[j]);
                    }
                    s.addConstant(plan.kEnd, 4 * i);
                }
                s.addConstant(c, 4 * (round * t + i));
                next[i] = sbox(s.done(), i);
            }
            System.arraycopy(next, 0, y, 0, t);
            java.util.Arrays.fill(yc, 0L);
            endRound();
        }

        /** The S-box of a constant element (first round): y_i is the constant. */
        private void constantSbox(int i, long[] value, int round) {
            y[i] = null;
            fr.add(value, 0, c, 4 * (round * t + i), yc, 4 * i);
            pow5(fr, yc, 4 * i, x);
            if (vals != null) {
                pow5(fr, vals, 4 * i, x);
            }
        }

        /**
         * x^5 of the linear combination whose value (when computed) is vals[i] after the round's
         * constants: x2 = x x, x4 = x2 x2, x5 = x4 x. Updates vals[i] to x^5.
         */
        private Variable sbox(LinearCombination in, int i) {
            long[] v2 = null;
            long[] v4 = null;
            long[] v5 = null;
            if (vals != null) {
                v2 = fr.newElement();
                v4 = fr.newElement();
                v5 = fr.newElement();
                fr.sqr(vals, 4 * i, v2, 0);
                fr.sqr(v2, 0, v4, 0);
                fr.mul(v4, 0, vals, 4 * i, v5, 0);
                System.arraycopy(v5, 0, vals, 4 * i, 4);
            }
            long[] f2 = v2;
            long[] f4 = v4;
            long[] f5 = v5;
            Variable x2 = cs.alloc("x^2", () -> f2);
            Variable x4 = cs.alloc("x^4", () -> f4);
            Variable x5 = cs.alloc("x^5", () -> f5);
            if (build) {
                cs.enforce("x^2", in, in, cs.lc().add(x2));
                cs.enforce("x^4", cs.lc().add(x2), cs.lc().add(x2), cs.lc().add(x4));
                cs.enforce("x^5", cs.lc().add(x4), in, cs.lc().add(x5));
            }
            return x5;
        }
    }
}
