package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Kernel parameters in the form {@code cuLaunchKernel} takes them: each value in its own native slot,
 * and an array of pointers to the slots, in parameter order. The slots live in the given arena, which
 * must stay open until the launch call has returned (the driver copies the values at the launch).
 */
public final class KernelArgs {

    private final Arena arena;
    private final List<MemorySegment> slots = new ArrayList<>();

    public KernelArgs(Arena arena) {
        this.arena = arena;
    }

    /** A device pointer parameter ({@code T*}). */
    public KernelArgs pointer(DeviceBuffer buffer) {
        return pointer(buffer.address());
    }

    /** A device pointer parameter, given as an address. */
    public KernelArgs pointer(long devicePointer) {
        return i64(devicePointer);
    }

    /** A 32-bit parameter ({@code int}, {@code unsigned}). */
    public KernelArgs i32(int value) {
        MemorySegment s = arena.allocate(JAVA_INT);
        s.set(JAVA_INT, 0, value);
        slots.add(s);
        return this;
    }

    /** A 64-bit parameter ({@code long long}, {@code size_t}, {@code uint64_t}). */
    public KernelArgs i64(long value) {
        MemorySegment s = arena.allocate(JAVA_LONG);
        s.set(JAVA_LONG, 0, value);
        slots.add(s);
        return this;
    }

    /** A {@code float} parameter. */
    public KernelArgs f32(float value) {
        MemorySegment s = arena.allocate(JAVA_FLOAT);
        s.set(JAVA_FLOAT, 0, value);
        slots.add(s);
        return this;
    }

    /** A by-value struct parameter: a copy of {@code value}, aligned to {@code alignment}. */
    public KernelArgs struct(MemorySegment value, long alignment) {
        MemorySegment s = arena.allocate(value.byteSize(), alignment);
        s.copyFrom(value);
        slots.add(s);
        return this;
    }

    /** How many parameters there are. */
    public int size() {
        return slots.size();
    }

    /** The {@code void*[]} of slot addresses. */
    public MemorySegment pointers() {
        MemorySegment array = arena.allocate(ADDRESS, Math.max(1, slots.size()));
        for (int i = 0; i < slots.size(); i++) {
            array.setAtIndex(ADDRESS, i, slots.get(i));
        }
        return array;
    }
}
