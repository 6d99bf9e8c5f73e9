package dev.proofline.engine.groth16;

import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test double with two devices that batches: {@code stage} copies a heap payload (so that the pool's
 * buffers could go back before the device runs), {@code sums} of a batch runs the CPU prover once per
 * partition in one call and notes the batch's size and device, and one partition is a batch of one.
 */
final class BatchingTestBackend implements DeviceBackend<BatchingTestBackend.Copied> {

    /** A partition staged: its key and witness with a, b, c copied out of the payload's vectors. */
    record Copied(CircuitJob.Payload payload, Prover.Workspace ws) {
    }

    /** Each batch proved: its device and its size, in the order they ran. */
    final List<int[]> batches = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "batching-double";
    }

    @Override
    public int deviceCount() {
        return 2;
    }

    @Override
    public List<String> devices() {
        return List.of("double:0", "double:1");
    }

    @Override
    public Copied stage(DeviceContext context, CircuitJob.Payload partition) {
        if (!(partition instanceof CircuitJob.HeapSynthesized heap)) {
            throw new IllegalArgumentException("heap vectors only: this backend's buffers are on the heap");
        }
        ProvingKey key = heap.key();
        Prover.Workspace ws = Prover.Workspace.allocate(key);
        if (heap.rows() >= 0) {
            int words = heap.rows() * 4;
            System.arraycopy(heap.workspace().a(), 0, ws.a(), 0, words);
            System.arraycopy(heap.workspace().b(), 0, ws.b(), 0, words);
            System.arraycopy(heap.workspace().c(), 0, ws.c(), 0, words);
        }
        return new Copied(heap, ws);
    }

    @Override
    public ProofSums sums(DeviceContext context, Copied staged) throws Exception {
        return sums(context, new Batch<>(staged.payload().key(), List.of(staged))).getFirst();
    }

    @Override
    public List<ProofSums> sums(DeviceContext context, Batch<Copied> batch) {
        batches.add(new int[] {context.device(), batch.size()});
        Prover prover = context.prover().withStepsInOrder();
        List<ProofSums> out = new ArrayList<>(batch.size());
        for (Copied c : batch.partitions()) {
            if (c.payload().key() != batch.key()) {
                throw new IllegalArgumentException("a batch is of one key");
            }
            CircuitJob.Payload p = c.payload();
            Prover.Started st = p.rows() < 0 ? prover.start(p.key(), p.witness(), c.ws())
                    : prover.start(p.key(), p.witness(), c.ws(), p.rows());
            out.add(st.sums());
        }
        return out;
    }
}
