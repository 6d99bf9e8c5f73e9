package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The driver's result codes: runs a bound call, checks the {@code CUresult} it returns and turns an
 * error into a {@link CudaException} named and described as the driver names and describes it
 * ({@code cuGetErrorName}, {@code cuGetErrorString}).
 */
@SuppressWarnings("restricted") // an error's text is a C string the driver owns, read without bounds
final class DriverErrors {

    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuGetErrorString;

    DriverErrors(MethodHandle cuGetErrorName, MethodHandle cuGetErrorString) {
        this.cuGetErrorName = cuGetErrorName;
        this.cuGetErrorString = cuGetErrorString;
    }

    /** Calls one bound function; what it throws other than runtime exceptions and errors cannot happen. */
    @FunctionalInterface
    interface Call {
        int run() throws Throwable;
    }

    static int call(Call c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    void check(int result, String call) {
        if (result != CudaDriver.SUCCESS) {
            throw failure(result, call, "");
        }
    }

    CudaException failure(int result, String call, String detail) {
        String name = errorName(result).orElse("CUDA error " + result);
        String text = errorString(result).orElse("no description");
        return new CudaException(call, result, name, text, detail);
    }

    /** {@code cuGetErrorName}, empty for a code the driver does not know. */
    Optional<String> errorName(int result) {
        return errorText(cuGetErrorName, result);
    }

    /** {@code cuGetErrorString}, empty for a code the driver does not know. */
    Optional<String> errorString(int result) {
        return errorText(cuGetErrorString, result);
    }

    private static Optional<String> errorText(MethodHandle h, int result) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int r = call(() -> (int) h.invokeExact(result, out));
            MemorySegment s = out.get(ADDRESS, 0);
            if (r != CudaDriver.SUCCESS || s.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            return Optional.of(s.reinterpret(Long.MAX_VALUE).getString(0));
        }
    }
}
