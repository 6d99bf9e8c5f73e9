package dev.proofline.engine.groth16;

import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A test double that batches: {@code stage} copies a heap payload (so that the pool's buffers could go
 * back before the device runs), {@code sums} of a batch runs the CPU prover once per partition in one
 * call and notes the call, and one partition is a batch of one. Two devices and batches of up to four
 * unless told otherwise; its devices can be held busy until a test lets them go, so that partitions
 * queue behind them.
 */
final class BatchingTestBackend implements DeviceBackend<BatchingTestBackend.Copied> {

    /** A partition staged: its key and witness with a, b, c copied out of the payload's vectors. */
    record Copied(CircuitJob.Payload payload, Prover.Workspace ws) {
    }

    /** One sums call: its device, the batch's key and each partition's key, in order. */
    record Run(int device, ProvingKey key, List<ProvingKey> partitionKeys) {
        int size() {
            return partitionKeys.size();
        }
    }

    /** Each batch proved, in the order they ran. */
    final List<Run> batches = new CopyOnWriteArrayList<>();
    private final int devices;
    private final int maxBatch;
    private volatile CountDownLatch held = new CountDownLatch(0);

    /** Two devices, batches of up to four. */
    BatchingTestBackend() {
        this(2, 4);
    }

    BatchingTestBackend(int devices, int maxBatch) {
        this.devices = devices;
        this.maxBatch = maxBatch;
    }

    /** From now on each sums call waits, holding its device, until {@link #letGo}. */
    void hold() {
        held = new CountDownLatch(1);
    }

    /** Lets the held sums calls go, and all later ones. */
    void letGo() {
        held.countDown();
    }

    @Override
    public String name() {
        return "batching-double";
    }

    @Override
    public int deviceCount() {
        return devices;
    }

    @Override
    public List<String> devices() {
        List<String> lines = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
            lines.add("double:" + d);
        }
        return lines;
    }

    @Override
    public int maxBatch() {
        return maxBatch;
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
    public List<ProofSums> sums(DeviceContext context, Batch<Copied> batch) throws InterruptedException {
        List<ProvingKey> keys = new ArrayList<>();
        for (Copied c : batch.partitions()) {
            keys.add(c.payload().key());
        }
        batches.add(new Run(context.device(), batch.key(), keys));
        held.await();
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
