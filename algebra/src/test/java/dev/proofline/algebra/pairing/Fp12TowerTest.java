package dev.proofline.algebra.pairing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The towers Fp6 = Fp2[v]/(v^3 - ξ), Fp12 = Fp6[w]/(w^2 - v) of both curves: products against a
 * schoolbook reference over Fp2[w]/(w^6 - ξ) in BigInteger, the field axioms, the Frobenius map against
 * a^p and published constants, and the special-purpose products against the general ones.
 */
class Fp12TowerTest {

    /** A tower under test: the field, ξ0 in ξ = ξ0 + u, and published Frobenius constants. */
    record Tower(String name, Fp12 proto, int xi0, String[][] published) {
        Fp12 f12() {
            return (Fp12) proto.forThread();
        }

        PrimeField fp() {
            return proto.base();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * {k, e, c0, c1}: ξ^(e (p^k - 1)/6) = c0 + c1 u. BN254: libsnark's alt_bn128_init.cpp
     * (alt_bn128_Fq12::Frobenius_coeffs_c1 for e = 1, alt_bn128_Fq6::Frobenius_coeffs_c1/c2 for e = 2, 4),
     * the same numbers as iden3/wasmcurves src/bn128/build_bn128.js (buildFrobeniusMap), which snarkjs
     * runs. BLS12-381: iden3/wasmcurves src/bls12381/build_bls12381.js (buildFrobeniusMap; the e = 1 row
     * also appears in noble-curves and libff).
     */
    static final String[][] BN254_PUBLISHED = {
        {"1", "1", "8376118865763821496583973867626364092589906065868298776909617916018768340080", "16469823323077808223889137241176536799009286646108169935659301613961712198316"},
        {"2", "1", "21888242871839275220042445260109153167277707414472061641714758635765020556617", "0"},
        {"3", "1", "11697423496358154304825782922584725312912383441159505038794027105778954184319", "303847389135065887422783454877609941456349188919719272345083954437860409601"},
        {"1", "2", "21575463638280843010398324269430826099269044274347216827212613867836435027261", "10307601595873709700152284273816112264069230130616436755625194854815875713954"},
        {"2", "2", "21888242871839275220042445260109153167277707414472061641714758635765020556616", "0"},
        {"3", "2", "3772000881919853776433695186713858239009073593817195771773381919316419345261", "2236595495967245188281701248203181795121068902605861227855261137820944008926"},
        {"1", "4", "2581911344467009335267311115468803099551665605076196740867805258568234346338", "19937756971775647987995932169929341994314640652964949448313374472400716661030"},
        {"2", "4", "2203960485148121921418603742825762020974279258880205651966", "0"},
        {"3", "4", "5324479202449903542726783395506214481928257762400643279780343368557297135718", "16208900380737693084919495127334387981393726419856888799917914180988844123039"},
    };

    static final String[][] BLS12_381_PUBLISHED = {
        {"1", "1", "3850754370037169011952147076051364057158807420970682438676050522613628423219637725072182697113062777891589506424760", "151655185184498381465642749684540099398075398968325446656007613510403227271200139370504932015952886146304766135027"},
        {"2", "1", "793479390729215512621379701633421447060886740281060493010456487427281649075476305620758731620351", "0"},
        {"3", "1", "2973677408986561043442465346520108879172042883009249989176415018091420807192182638567116318576472649347015917690530", "1028732146235106349975324479215795277384839936929757896155643118032610843298655225875571310552543014690878354869257"},
        {"1", "2", "0", "4002409555221667392624310435006688643935503118305586438271171395842971157480381377015405980053539358417135540939436"},
        {"2", "2", "793479390729215512621379701633421447060886740281060493010456487427281649075476305620758731620350", "0"},
        {"3", "2", "0", "1"},
        {"1", "4", "4002409555221667392624310435006688643935503118305586438271171395842971157480381377015405980053539358417135540939437", "0"},
        {"2", "4", "4002409555221667392624310435006688643935503118305586438271171395842971157480381377015405980053539358417135540939436", "0"},
        {"3", "4", "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559786", "0"},
    };

    static final List<Tower> TOWERS = List.of(
            new Tower("BN254", Pairing.bn254().fp12(), 9, BN254_PUBLISHED),
            new Tower("BLS12-381", Pairing.bls12381().fp12(), 1, BLS12_381_PUBLISHED));

    static List<Tower> towers() {
        return TOWERS;
    }

    /** Storage index i of an Fp2 coefficient -> its power of w (1, v, v^2, w, vw, v^2 w). */
    static final int[] W_EXPONENT = {0, 2, 4, 1, 3, 5};

    static long[] random(Tower t, Random rnd) {
        PrimeField fp = t.fp();
        long[] a = t.proto().newElement();
        for (int i = 0; i < 12; i++) {
            fp.fromBigInteger(new BigInteger(fp.bits() + 32, rnd), a, i * fp.width());
        }
        return a;
    }

    static long[] words(BigInteger e) {
        return PrimeField.words(e, Math.max(1, (e.bitLength() + 63) / 64));
    }

    // ---------------------------------------------------------------- BigInteger reference

    /** Coefficients of w^0..w^5, each {re, im}, from our storage layout. */
    static BigInteger[][] toRef(Tower t, long[] a) {
        PrimeField fp = t.fp();
        int n = fp.width();
        BigInteger[][] r = new BigInteger[6][];
        for (int i = 0; i < 6; i++) {
            r[W_EXPONENT[i]] = new BigInteger[] {fp.toBigInteger(a, 2 * i * n), fp.toBigInteger(a, (2 * i + 1) * n)};
        }
        return r;
    }

    /** Schoolbook product in Fp2[w]/(w^6 - ξ), Fp2 = Fp[u]/(u^2 + 1). */
    static BigInteger[][] refMul(Tower t, BigInteger[][] a, BigInteger[][] b) {
        BigInteger q = t.fp().modulus();
        BigInteger[] xi = {BigInteger.valueOf(t.xi0()), BigInteger.ONE};
        BigInteger[][] c = new BigInteger[6][];
        for (int i = 0; i < 6; i++) {
            c[i] = new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO};
        }
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                BigInteger[] prod = fp2Mul(a[i], b[j], q);
                if (i + j >= 6) {
                    prod = fp2Mul(prod, xi, q);
                }
                BigInteger[] acc = c[(i + j) % 6];
                acc[0] = acc[0].add(prod[0]).mod(q);
                acc[1] = acc[1].add(prod[1]).mod(q);
            }
        }
        return c;
    }

    static BigInteger[] fp2Mul(BigInteger[] a, BigInteger[] b, BigInteger q) {
        return new BigInteger[] {
            a[0].multiply(b[0]).subtract(a[1].multiply(b[1])).mod(q),
            a[0].multiply(b[1]).add(a[1].multiply(b[0])).mod(q)};
    }

    // ---------------------------------------------------------------- properties

    @Provide
    Arbitrary<Tower> tower() {
        return Arbitraries.of(TOWERS);
    }

    @Property(tries = 30)
    void productAndSquareMatchTheSchoolbookReference(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Random rnd = new Random(seed);
        long[] a = random(t, rnd);
        long[] b = random(t, rnd);
        long[] r = f12.newElement();
        f12.mul(a, 0, b, 0, r, 0);
        assertTrue(Arrays.deepEquals(refMul(t, toRef(t, a), toRef(t, b)), toRef(t, r)), "mul");
        f12.sqr(a, 0, r, 0);
        assertTrue(Arrays.deepEquals(refMul(t, toRef(t, a), toRef(t, a)), toRef(t, r)), "sqr");
    }

    @Property(tries = 30)
    void fieldAxiomsHold(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Random rnd = new Random(seed);
        long[] a = random(t, rnd), b = random(t, rnd), c = random(t, rnd);
        long[] x = f12.newElement(), y = f12.newElement(), z = f12.newElement();
        // associativity and commutativity of the product
        f12.mul(a, 0, b, 0, x, 0);
        f12.mul(x, 0, c, 0, x, 0);
        f12.mul(b, 0, c, 0, y, 0);
        f12.mul(a, 0, y, 0, y, 0);
        assertArrayEquals(x, y, "(ab)c = a(bc)");
        f12.mul(a, 0, b, 0, x, 0);
        f12.mul(b, 0, a, 0, y, 0);
        assertArrayEquals(x, y, "ab = ba");
        // distributivity
        f12.add(b, 0, c, 0, x, 0);
        f12.mul(a, 0, x, 0, x, 0);
        f12.mul(a, 0, b, 0, y, 0);
        f12.mul(a, 0, c, 0, z, 0);
        f12.add(y, 0, z, 0, y, 0);
        assertArrayEquals(x, y, "a(b + c) = ab + ac");
        // additive structure
        f12.sub(a, 0, b, 0, x, 0);
        f12.add(x, 0, b, 0, x, 0);
        assertArrayEquals(a, x, "(a - b) + b = a");
        f12.neg(a, 0, x, 0);
        f12.add(x, 0, a, 0, x, 0);
        assertTrue(f12.isZero(x, 0), "a + (-a) = 0");
        f12.dbl(a, 0, x, 0);
        f12.add(a, 0, a, 0, y, 0);
        assertArrayEquals(x, y, "2a = a + a");
        // multiplicative identity and inverse
        f12.mul(a, 0, f12.one(), 0, x, 0);
        assertArrayEquals(a, x, "a * 1 = a");
        f12.inv(a, 0, x, 0);
        f12.mul(a, 0, x, 0, x, 0);
        assertTrue(f12.isOne(x, 0), "a * a^-1 = 1");
        f12.inv(f12.newElement(), 0, x, 0);
        assertTrue(f12.isZero(x, 0), "inv(0) = 0");
    }

    @Property(tries = 20)
    void operationsMayWriteOverTheirInputs(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Random rnd = new Random(seed);
        long[] a = random(t, rnd), b = random(t, rnd);
        long[] expected = f12.newElement();
        long[] x = a.clone();
        f12.mul(a, 0, b, 0, expected, 0);
        f12.mul(x, 0, b, 0, x, 0);
        assertArrayEquals(expected, x, "mul into a");
        x = b.clone();
        f12.mul(a, 0, x, 0, x, 0);
        assertArrayEquals(expected, x, "mul into b");
        f12.sqr(a, 0, expected, 0);
        x = a.clone();
        f12.mul(x, 0, x, 0, x, 0);
        assertArrayEquals(expected, x, "a * a in place");
        x = a.clone();
        f12.sqr(x, 0, x, 0);
        assertArrayEquals(expected, x, "sqr in place");
        f12.inv(a, 0, expected, 0);
        x = a.clone();
        f12.inv(x, 0, x, 0);
        assertArrayEquals(expected, x, "inv in place");
        // at a non-zero offset inside a larger array
        long[] big = new long[3 * f12.width()];
        System.arraycopy(a, 0, big, f12.width(), f12.width());
        f12.sqr(big, f12.width(), big, 2 * f12.width());
        assertArrayEquals(sqr(f12, a), Arrays.copyOfRange(big, 2 * f12.width(), 3 * f12.width()), "at offsets");
    }

    static long[] sqr(Fp12 f12, long[] a) {
        long[] r = f12.newElement();
        f12.sqr(a, 0, r, 0);
        return r;
    }

    @Property(tries = 50)
    void fp2InversesAgreeAndInvert(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp2 fp2 = t.f12().fp2();
        int w2 = fp2.width();
        long[] a = Arrays.copyOf(random(t, new Random(seed)), w2);   // a random Fp2 coefficient
        long[] x = fp2.newElement();
        long[] y = fp2.newElement();
        fp2.inv(a, 0, x, 0);
        fp2.invVartime(a, 0, y, 0);
        assertArrayEquals(x, y, "invVartime = inv");
        fp2.mul(a, 0, y, 0, y, 0);
        assertTrue(fp2.isOne(y, 0), "a * a^-1 = 1");
        fp2.invVartime(fp2.newElement(), 0, y, 0);
        assertTrue(fp2.isZero(y, 0), "invVartime(0) = 0");
    }

    @Property(tries = 20)
    void sparseLineProductsEqualFullProducts(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Fp2 fp2 = f12.fp2();
        int w2 = fp2.width();
        Random rnd = new Random(seed);
        long[] f = random(t, rnd);
        long[] c = Arrays.copyOf(random(t, rnd), 3 * w2);   // three random Fp2 coefficients
        // mulBy034: c0 at index 0 (1), c3 at index 3 (w), c4 at index 4 (vw)
        long[] sparse = f12.newElement();
        fp2.copy(c, 0, sparse, 0);
        fp2.copy(c, w2, sparse, 3 * w2);
        fp2.copy(c, 2 * w2, sparse, 4 * w2);
        long[] expected = f12.newElement();
        f12.mul(f, 0, sparse, 0, expected, 0);
        long[] x = f.clone();
        f12.mulBy034(x, 0, c, 0, c, w2, c, 2 * w2);
        assertArrayEquals(expected, x, "mulBy034");
        // mulBy014: c0 at index 0 (1), c1 at index 1 (v), c4 at index 4 (vw)
        sparse = f12.newElement();
        fp2.copy(c, 0, sparse, 0);
        fp2.copy(c, w2, sparse, w2);
        fp2.copy(c, 2 * w2, sparse, 4 * w2);
        f12.mul(f, 0, sparse, 0, expected, 0);
        x = f.clone();
        f12.mulBy014(x, 0, c, 0, c, w2, c, 2 * w2);
        assertArrayEquals(expected, x, "mulBy014");
    }

    @Property(tries = 10)
    void cyclotomicSquareEqualsSquareInTheCyclotomicSubgroup(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Random rnd = new Random(seed);
        long[] a = random(t, rnd);
        // g = a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup
        BigInteger p = t.fp().modulus();
        long[] g = f12.newElement();
        f12.pow(a, 0, words(p.pow(6).subtract(BigInteger.ONE).multiply(p.pow(2).add(BigInteger.ONE))), g, 0);
        long[] expected = f12.newElement();
        f12.sqr(g, 0, expected, 0);
        long[] x = f12.newElement();
        f12.cyclotomicSquare(g, 0, x, 0);
        assertArrayEquals(expected, x);
        f12.cyclotomicSquare(g, 0, g, 0);
        assertArrayEquals(expected, g, "in place");
        // and there the conjugate is the inverse
        f12.conjugate(g, 0, x, 0);
        f12.mul(x, 0, g, 0, x, 0);
        assertTrue(f12.isOne(x, 0));
    }

    @Property(tries = 5)
    void frobeniusIsThePowerMap(@ForAll("tower") Tower t, @ForAll long seed) {
        Fp12 f12 = t.f12();
        Random rnd = new Random(seed);
        long[] a = random(t, rnd);
        BigInteger p = t.fp().modulus();
        long[] expected = f12.newElement();
        long[] x = f12.newElement();
        for (int k : new int[] {1, 2, 3}) {
            f12.pow(a, 0, words(p.pow(k)), expected, 0);
            f12.frobenius(a, 0, k, x, 0);
            assertArrayEquals(expected, x, "a^(p^" + k + ")");
        }
        // higher powers as compositions of the first; power 6 is the conjugation
        long[] iter = a.clone();
        for (int k = 1; k < 12; k++) {
            f12.frobenius(iter, 0, 1, iter, 0);
            f12.frobenius(a, 0, k, x, 0);
            assertArrayEquals(iter, x, "frobenius^" + k);
        }
        f12.frobenius(iter, 0, 1, iter, 0);
        assertArrayEquals(a, iter, "frobenius^12 = id");
        f12.conjugate(a, 0, expected, 0);
        f12.frobenius(a, 0, 6, x, 0);
        assertArrayEquals(expected, x, "a^(p^6) = conj(a)");
    }

    // ---------------------------------------------------------------- constants

    @ParameterizedTest
    @MethodSource("towers")
    void xiIsNeitherASquareNorACubeInFp2(Tower t) {
        Fp2 fp2 = t.f12().fp2();
        BigInteger p = t.fp().modulus();
        long[] xi = fp2.of(BigInteger.valueOf(t.xi0()), BigInteger.ONE);
        BigInteger order = p.pow(2).subtract(BigInteger.ONE);
        long[] r = fp2.newElement();
        fp2.pow(xi, 0, words(order.divide(BigInteger.TWO)), r, 0);
        assertFalse(fp2.isOne(r, 0), "ξ is a non-square");
        fp2.pow(xi, 0, words(order.divide(BigInteger.valueOf(3))), r, 0);
        assertFalse(fp2.isOne(r, 0), "ξ is a non-cube");
    }

    @ParameterizedTest
    @MethodSource("towers")
    void frobeniusCoefficientsMatchPublishedValues(Tower t) {
        Fp12 f12 = t.f12();
        for (String[] row : t.published()) {
            int k = Integer.parseInt(row[0]);
            int e = Integer.parseInt(row[1]);
            long[] expected = f12.fp2().of(new BigInteger(row[2]), new BigInteger(row[3]));
            assertArrayEquals(expected, f12.frobeniusCoefficient(k, e), "ξ^(" + e + "(p^" + k + " - 1)/6)");
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void frobeniusCoefficientsAreTheDefiningPowersOfXi(Tower t) {
        Fp12 f12 = t.f12();
        Fp2 fp2 = f12.fp2();
        BigInteger p = t.fp().modulus();
        long[] xi = fp2.of(BigInteger.valueOf(t.xi0()), BigInteger.ONE);
        long[] expected = fp2.newElement();
        for (int k = 0; k < 12; k++) {
            for (int e = 0; e < 6; e++) {
                BigInteger exp = p.pow(k).subtract(BigInteger.ONE).multiply(BigInteger.valueOf(e)).divide(BigInteger.valueOf(6));
                fp2.pow(xi, 0, words(exp), expected, 0);
                assertArrayEquals(expected, f12.frobeniusCoefficient(k, e), "k = " + k + ", e = " + e);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void decimalStringsRoundTripInFfjavascriptOrder(Tower t) {
        Fp12 f12 = t.f12();
        long[] a = random(t, new Random(3));
        String[] s = f12.toDecimalStrings(a, 0);
        assertEquals(12, s.length);
        // coefficient 2 is the real part of c0.c1, the coefficient of v
        assertEquals(toRef(t, a)[2][0].toString(), s[2]);
        assertArrayEquals(a, f12.fromDecimalStrings(s));
        long[] one = f12.one();
        assertEquals("1", f12.toDecimalStrings(one, 0)[0]);
        assertTrue(Arrays.stream(f12.toDecimalStrings(one, 0)).skip(1).allMatch("0"::equals));
    }
}
