package dev.proofline.cuda;

/**
 * A CUDA driver call that returned an error. The message names the call (with the arguments that
 * explain it) and the error, as the driver names and describes it, e.g.
 * {@code cuMemAlloc_v2(1073741824 bytes): CUDA_ERROR_OUT_OF_MEMORY (out of memory)}.
 */
public final class CudaException extends RuntimeException {

    private final String call;
    private final int code;
    private final String errorName;

    /** {@code detail}, when not empty, follows the error (a JIT compiler's log, for one). */
    CudaException(String call, int code, String errorName, String errorText, String detail) {
        super(call + ": " + errorName + " (" + errorText + ")" + (detail.isEmpty() ? "" : ": " + detail));
        this.call = call;
        this.code = code;
        this.errorName = errorName;
    }

    /** The call that failed, with its arguments where they explain the failure. */
    public String call() {
        return call;
    }

    /** The {@code CUresult} value. */
    public int code() {
        return code;
    }

    /** The error's name ({@code CUDA_ERROR_...}), or {@code CUDA error <code>} when the driver has none. */
    public String errorName() {
        return errorName;
    }
}
