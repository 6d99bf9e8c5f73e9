package dev.proofline.daemon;

import dev.proofline.daemon.cluster.StoreNode;
import dev.proofline.daemon.store.ClusterStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The daemon's meters beside the engine's ({@code EngineMetrics}): the JVM's, from Micrometer's binders
 * (heap and other memory pools {@code jvm_memory_*}, garbage collection {@code jvm_gc_*}, threads
 * {@code jvm_threads_*}, classes, CPU and uptime), and in cluster mode (or on a durable store) the job
 * store's {@code proofline_cluster_*}. Closing it stops listening to the garbage collector.
 */
final class DaemonMetrics implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** Binds the JVM's meters to {@code r}. */
    DaemonMetrics(MeterRegistry r) {
        new JvmMemoryMetrics().bindTo(r);
        gc.bindTo(r);
        new JvmThreadMetrics().bindTo(r);
        new ClassLoaderMetrics().bindTo(r);
        new ProcessorMetrics().bindTo(r);
        new UptimeMetrics().bindTo(r);
    }

    /** The job store's meters of this daemon's node. */
    static void bindCluster(StoreNode c, MeterRegistry r) {
        Gauge.builder("proofline.cluster.holding", c, StoreNode::holding)
                .description("partitions this node has claimed and not yet written back (partitions)").register(r);
        Gauge.builder("proofline.cluster.database.up", c, n -> n.databaseDown() == null ? 1 : 0)
                .description("1 while the job store's database answers, 0 while it does not").register(r);
        FunctionCounter.builder("proofline.cluster.round.trips", c.store().database(), ClusterStore.Database::roundTrips)
                .description("statements sent to the job store's database (statements)").register(r);
        FunctionCounter.builder("proofline.cluster.results.stored", c, StoreNode::proofs)
                .description("partition results this node stored (partitions)").register(r);
        FunctionCounter.builder("proofline.cluster.results.discarded", c, StoreNode::discarded)
                .description("partition results made after their claim was lost, and discarded (partitions)")
                .register(r);
        FunctionCounter.builder("proofline.cluster.double.releases", c, StoreNode::doubleReleases)
                .description("claims ended twice (a bug when above 0) (claims)").register(r);
    }

    @Override
    public void close() {
        gc.close();
    }
}
