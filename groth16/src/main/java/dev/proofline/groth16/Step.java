package dev.proofline.groth16;

/**
 * The steps a proof goes through, in order (both halves, {@link Prover#start} then {@link Prover#finish}).
 * Where a small proof's transforms and its MSMs A, B1, C and B2 run side by side, those begin in
 * another order ({@link Prover.Listener#ended}).
 */
public enum Step {
    ABC("a, b, c"),
    H("H (NTTs)"),
    MSM_A("MSM A"),
    MSM_B1("MSM B1"),
    MSM_C("MSM C"),
    MSM_H("MSM H"),
    MSM_B2("MSM B2"),
    ASSEMBLY("assembly"),
    VERIFICATION("verification");

    private final String label;

    Step(String label) {
        this.label = label;
    }

    /** What progress displays and benchmark tables print ("MSM B1"). */
    public String label() {
        return label;
    }

    /** 1-based position among all steps, for "step 3 of 9". */
    public int number() {
        return ordinal() + 1;
    }

    /** How many steps a proof has. */
    public static int count() {
        return values().length;
    }

    @Override
    public String toString() {
        return label;
    }
}
