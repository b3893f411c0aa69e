package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two ranks check the same symmetric allocation against the world's log at once, having made it differently (rank 0
 * 64 bytes at offset 128, rank 1 96 bytes there): one of them writes the entry, the other must find it and report
 * the difference. If both could take the entry (a claim that is not one CAS) or the comparing rank could read an entry
 * still being written, both would pass and the ranks would go on with different memory under one address.
 *
 * <p>Results: 1 where a rank's check passed (it wrote the entry), 0 where it reported the difference.
 */
@JCStressTest
@Description("World symmetric-allocation log: of two ranks that differ, exactly one passes and the other is told")
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "one wrote the entry, the other found the difference")
@Outcome(expect = FORBIDDEN, desc = "both passed (the difference went unnoticed) or both were refused")
@State
public class WorldSymmetricLogTest {
    private final WorldSegment segment = new WorldSegment(new UnsafeBuffer(new byte[WorldSegment.length(2, 1)]), 2,
        1);

    @Actor
    public void rank0(final II_Result r) {
        r.r1 = segment.checkSymmetric(1, 128, 64, 0) == null ? 1 : 0;
    }

    @Actor
    public void rank1(final II_Result r) {
        r.r2 = segment.checkSymmetric(1, 128, 96, 1) == null ? 1 : 0;
    }
}
