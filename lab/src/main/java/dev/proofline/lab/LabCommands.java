package dev.proofline.lab;

import dev.proofline.cli.Lab;

/** The lab's commands for {@code proofline} (registered in META-INF/services). */
public final class LabCommands implements Lab {

    @Override
    public Object benchCommand() {
        return new BenchCommand();
    }
}
