package dev.overlap.stress.core;

import dev.overlap.core.counters.CountersFile;
import dev.overlap.core.counters.CountersFileReader;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The counters file's header publication ({@link CountersFile#writeHeader}: every field, then the magic with a release
 * store) against a reader in another thread ({@link CountersFileReader#readHeader}: the magic with an acquire load,
 * then the fields), as an {@code overlap stat} process reads the file of a process that is still making it. The
 * header sits in direct memory, as in the mapped file.
 *
 * <p>Result: 0 if the reader found no magic yet, 1 if it found the magic and every field as written, -1 if it found
 * the magic with a field missing (a half-made header).
 */
@JCStressTest
@Description("a reader of a counters file header sees no magic, or the magic and every field")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "not published yet")
@Outcome(id = "1", expect = ACCEPTABLE_INTERESTING, desc = "published: every field as written")
@Outcome(expect = FORBIDDEN, desc = "the magic was visible before a field")
@State
public class CountersFileHeaderStress {
    private static final long PID = 4242;
    private static final long START = 1_700_000_000_000L;
    private final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(CountersFile.HEADER_LENGTH));

    @Actor
    public void owner() {
        CountersFile.writeHeader(header, 1024, 256, PID, START);
    }

    @Actor
    public void reader(final I_Result r) {
        final CountersFileReader.Header h = CountersFileReader.readHeader(header);
        if (h == null) {
            r.r1 = 0;
        } else {
            r.r1 = h.version() == CountersFile.VERSION && h.headerLength() == CountersFile.HEADER_LENGTH
                && h.metaDataLength() == 1024 && h.valuesLength() == 256 && h.pid() == PID
                && h.startTimeMillis() == START ? 1 : -1;
        }
    }
}
