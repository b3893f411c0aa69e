package dev.overlap.worklist;

/** How a {@link DistributedWorklist} run occupies the devices (Atos' persistent and discrete kernels). */
public enum KernelMode {
    /**
     * One persistent launch per device: workers stay resident, popping, running tasks and draining the inbox, until
     * global termination is detected by an idle worker. Lowest latency; the Atos default.
     */
    PERSISTENT,

    /**
     * One discrete launch per device and round, the outer loop on the host: a round processes the tasks that were in
     * each device's queue when it began (tasks pushed during a round wait for the next), then flushes every
     * aggregator; the host checks termination between rounds. Rounds act as a device-wide barrier, like Atos'
     * discrete kernels.
     */
    DISCRETE
}
