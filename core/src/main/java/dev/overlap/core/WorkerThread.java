package dev.overlap.core;

/**
 * A device's worker thread. Knowing its device lets the blocking calls refuse the one wait that can never end: a
 * worker waiting for a launch of its own device (that launch runs only after the worker's current one, which
 * cannot finish while the worker waits).
 */
final class WorkerThread extends Thread {
    final Device device;

    WorkerThread(final Device device, final Runnable body, final String name) {
        super(body, name);
        this.device = device;
        setDaemon(true);
    }

    /** @return the device whose worker the calling thread is, or null */
    static Device currentDevice() {
        final Thread t = Thread.currentThread();
        return t instanceof WorkerThread ? ((WorkerThread)t).device : null;
    }

    /**
     * @throws IllegalStateException if the calling thread is a worker of {@code device}, naming the wait
     */
    static void checkNotWorkerOf(final Device device, final String waitFor) {
        if (currentDevice() == device) {
            throw new IllegalStateException(Thread.currentThread().getName() + " would wait forever for " + waitFor
                + ": a worker of dev" + device.id() + " cannot wait for work of its own device, which runs only after"
                + " the launch the worker is executing (launch it on another device, or return and let the host"
                + " thread wait)");
        }
    }
}
