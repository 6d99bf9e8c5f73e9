package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The downcall handles of the driver calls {@link CudaDriver} makes, bound from one library: each
 * signature as {@code cuda.h} declares it, under the symbol {@code cuda.h} maps the call to. Binding
 * is all this class does; the calls, their checks and their arguments' memory are {@link CudaDriver}'s.
 */
@SuppressWarnings("restricted") // binding native code is what this class is for
final class DriverBindings {

    final MethodHandle cuGetErrorName;
    final MethodHandle cuGetErrorString;
    final MethodHandle cuInit;
    final MethodHandle cuDriverGetVersion;
    final MethodHandle cuDeviceGetCount;
    final MethodHandle cuDeviceGet;
    final MethodHandle cuDeviceGetName;
    final MethodHandle cuDeviceTotalMem;
    final MethodHandle cuDeviceGetAttribute;
    final MethodHandle cuDevicePrimaryCtxRetain;
    final MethodHandle cuDevicePrimaryCtxRelease;
    final MethodHandle cuCtxSetCurrent;
    final MethodHandle cuModuleLoadData;
    final MethodHandle cuModuleLoadDataEx;
    final MethodHandle cuModuleUnload;
    final MethodHandle cuModuleGetFunction;
    final MethodHandle cuLaunchKernel;
    final MethodHandle cuStreamCreate;
    final MethodHandle cuStreamDestroy;
    final MethodHandle cuStreamSynchronize;
    final MethodHandle cuStreamWaitEvent;
    final MethodHandle cuEventCreate;
    final MethodHandle cuEventRecord;
    final MethodHandle cuEventSynchronize;
    final MethodHandle cuEventElapsedTime;
    final String cuEventElapsedTimeName;
    final MethodHandle cuEventDestroy;
    final MethodHandle cuMemAlloc;
    final MethodHandle cuMemFree;
    final MethodHandle cuMemcpyHtoD;
    final MethodHandle cuMemcpyDtoH;
    final MethodHandle cuMemcpyHtoDAsync;
    final MethodHandle cuMemcpyDtoHAsync;
    final MethodHandle cuMemHostAlloc;
    final MethodHandle cuMemFreeHost;
    final MethodHandle cuMemGetInfo;

    /** A symbol the library lacks. */
    static final class MissingSymbol extends Exception {
        MissingSymbol(String name) {
            super(name, null, false, false);
        }
    }

    /** Binds symbols of one library. */
    private record Binder(SymbolLookup lookup, Linker linker) {

        MethodHandle bind(String name, MemoryLayout... args) throws MissingSymbol {
            return bindFirst(new String[] {name}, args).handle();
        }

        record Bound(String name, MethodHandle handle) {
        }

        /** The first of the names the library has (newer versions of a call first). */
        Bound bindFirst(String[] names, MemoryLayout... args) throws MissingSymbol {
            for (String name : names) {
                Optional<MemorySegment> symbol = lookup.find(name);
                if (symbol.isPresent()) {
                    return new Bound(name, linker.downcallHandle(symbol.get(), FunctionDescriptor.of(JAVA_INT, args)));
                }
            }
            throw new MissingSymbol(names[0]);
        }
    }

    /** Binds every call from {@code lookup}; throws {@link MissingSymbol} for the first one the library lacks. */
    DriverBindings(SymbolLookup lookup, Linker linker) throws MissingSymbol {
        Binder b = new Binder(lookup, linker);
        cuGetErrorName = b.bind("cuGetErrorName", JAVA_INT, ADDRESS);
        cuGetErrorString = b.bind("cuGetErrorString", JAVA_INT, ADDRESS);
        cuInit = b.bind("cuInit", JAVA_INT);
        cuDriverGetVersion = b.bind("cuDriverGetVersion", ADDRESS);
        cuDeviceGetCount = b.bind("cuDeviceGetCount", ADDRESS);
        cuDeviceGet = b.bind("cuDeviceGet", ADDRESS, JAVA_INT);
        cuDeviceGetName = b.bind("cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
        cuDeviceTotalMem = b.bind("cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
        cuDeviceGetAttribute = b.bind("cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        cuDevicePrimaryCtxRetain = b.bind("cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        cuDevicePrimaryCtxRelease = b.bind("cuDevicePrimaryCtxRelease_v2", JAVA_INT);
        cuCtxSetCurrent = b.bind("cuCtxSetCurrent", ADDRESS);
        cuModuleLoadData = b.bind("cuModuleLoadData", ADDRESS, ADDRESS);
        cuModuleLoadDataEx = b.bind("cuModuleLoadDataEx", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        cuModuleUnload = b.bind("cuModuleUnload", ADDRESS);
        cuModuleGetFunction = b.bind("cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        cuLaunchKernel = b.bind("cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        cuStreamCreate = b.bind("cuStreamCreate", ADDRESS, JAVA_INT);
        cuStreamDestroy = b.bind("cuStreamDestroy_v2", ADDRESS);
        cuStreamSynchronize = b.bind("cuStreamSynchronize", ADDRESS);
        cuStreamWaitEvent = b.bind("cuStreamWaitEvent", ADDRESS, ADDRESS, JAVA_INT);
        cuEventCreate = b.bind("cuEventCreate", ADDRESS, JAVA_INT);
        cuEventRecord = b.bind("cuEventRecord", ADDRESS, ADDRESS);
        cuEventSynchronize = b.bind("cuEventSynchronize", ADDRESS);
        // cuda.h maps cuEventElapsedTime to the _v2 symbol (drivers from 12.8 on); older drivers have only the first
        Binder.Bound elapsed = b.bindFirst(new String[] {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
                ADDRESS, ADDRESS, ADDRESS);
        cuEventElapsedTime = elapsed.handle();
        cuEventElapsedTimeName = elapsed.name();
        cuEventDestroy = b.bind("cuEventDestroy_v2", ADDRESS);
        cuMemAlloc = b.bind("cuMemAlloc_v2", ADDRESS, JAVA_LONG);
        cuMemFree = b.bind("cuMemFree_v2", JAVA_LONG);
        cuMemcpyHtoD = b.bind("cuMemcpyHtoD_v2", JAVA_LONG, ADDRESS, JAVA_LONG);
        cuMemcpyDtoH = b.bind("cuMemcpyDtoH_v2", ADDRESS, JAVA_LONG, JAVA_LONG);
        cuMemcpyHtoDAsync = b.bind("cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
        cuMemcpyDtoHAsync = b.bind("cuMemcpyDtoHAsync_v2", ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
        cuMemHostAlloc = b.bind("cuMemHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
        cuMemFreeHost = b.bind("cuMemFreeHost", ADDRESS);
        cuMemGetInfo = b.bind("cuMemGetInfo_v2", ADDRESS, ADDRESS);
    }
}
