package dev.overlap.core;

/**
 * What a kernel body knows about the worker running it: its device, its index among the device's workers and
 * the mesh. One instance per worker thread, reused for every call (no allocation per block); do not keep it past
 * the call. Confined to its worker thread.
 */
public final class WorkerContext {
    private final Mesh mesh;
    private final Device device;
    private final int workerIndex;
    KernelLaunch launch;

    WorkerContext(final Mesh mesh, final Device device, final int workerIndex) {
        this.mesh = mesh;
        this.device = device;
        this.workerIndex = workerIndex;
    }

    /** @return the mesh */
    public Mesh mesh() {
        return mesh;
    }

    /** @return the device this worker belongs to */
    public Device device() {
        return device;
    }

    /** @return the device id */
    public int deviceId() {
        return device.id();
    }

    /** @return this worker's index, 0..{@link #workerCount()}-1 */
    public int workerIndex() {
        return workerIndex;
    }

    /** @return number of workers of the device */
    public int workerCount() {
        return device.workerCount();
    }

    /** @return the launch being executed */
    public KernelLaunch launch() {
        return launch;
    }

    /**
     * Waits for every worker of the device in the running persistent launch: {@link KernelLaunch#syncWorkers}.
     *
     * @return {@code true} when every worker arrived, {@code false} when the launch is stopping
     * @throws IllegalStateException when the running launch is not persistent
     */
    public boolean syncWorkers() {
        return launch.syncWorkers(this);
    }

    /** Asks the running persistent launch to stop (all its workers leave their loops); no effect on discrete ones. */
    public void stopLaunch() {
        launch.stop();
    }
}
