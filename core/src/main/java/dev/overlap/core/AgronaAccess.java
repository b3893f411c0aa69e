package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Checks, once, that Agrona can reach {@code jdk.internal.misc.Unsafe}; without the export flag Agrona 2.x fails
 * with an {@link IllegalAccessError} deep inside the first buffer access, far from the cause.
 */
final class AgronaAccess {
    static final String FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    private static volatile boolean verified;

    private AgronaAccess() {
    }

    /** @throws IllegalStateException naming the missing JVM flag */
    static void require() {
        if (verified) {
            return;
        }
        final Module agrona = UnsafeBuffer.class.getModule();
        if (!Object.class.getModule().isExported("jdk.internal.misc", agrona)) {
            throw new IllegalStateException(
                "Overlap device memory uses Agrona, which needs the JVM flag '" + FLAG + "'. Add it to the java "
                    + "command line (or JDK_JAVA_OPTIONS, Surefire's argLine, JMH's jvmArgsAppend, jcstress' "
                    + "-jvmArgsPrepend).");
        }
        try {
            new UnsafeBuffer(new byte[8]).getLongVolatile(0);
        } catch (final LinkageError e) {
            throw new IllegalStateException("Agrona cannot access Unsafe even though '" + FLAG + "' is set", e);
        }
        verified = true;
    }
}
