package dev.proofline.cuda;

/**
 * The entry points of {@code msm.cuh} that {@link CudaMsm} launches, looked up by name in a loaded module:
 * the group's own ({@code pl_<prefix>_msm_...}) and the ones all groups share ({@code pl_msm_...}).
 */
final class MsmKernels {

    final Function gather;
    final Function clear;
    final Function recode;
    final Function chunkSums;
    final Function scan;
    final Function scatter;
    final Function taskCounts;
    final Function accumulate;
    final Function mergeGroups;
    final Function merge;
    final Function reduceSegments;
    final Function scaleSegments;
    final Function sumRuns;

    /** The kernels of {@code curve} in {@code module}. */
    MsmKernels(Module module, MsmGroup curve) {
        String p = "pl_" + curve.prefix() + "_msm_";
        gather = module.function("pl_msm_gather_scalars");
        clear = module.function("pl_msm_clear_u32");
        chunkSums = module.function("pl_msm_chunk_sums");
        scan = module.function("pl_msm_scan");
        scatter = module.function("pl_msm_scatter");
        recode = module.function(p + "recode");
        taskCounts = module.function("pl_msm_task_counts");
        accumulate = module.function(p + "accumulate");
        mergeGroups = module.function(p + "merge_groups");
        merge = module.function(p + "merge");
        reduceSegments = module.function(p + "reduce_segments");
        scaleSegments = module.function(p + "scale_segments");
        sumRuns = module.function(p + "sum_runs");
    }
}
