package dev.overlap.graph.cli;

import dev.overlap.core.counters.CountersFile;
import dev.overlap.core.counters.CountersFileException;
import dev.overlap.core.counters.CountersFileReader;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code overlap stat}: the counters of running Overlap processes, read from their counters files from outside them,
 * in the spirit of Aeron's {@code AeronStat}. Every process whose mesh publishes counters (the graph apps'
 * {@code --counters-dir DIR}, {@code Mesh.Builder.countersDirectory}, or {@code -Doverlap.counters.dir}) has a file
 * {@code overlap-<pid>.counters} in that directory; this lists them and prints each allocated counter (id, type id,
 * value, label), optionally only some type ids, once or every {@code --watch} seconds.
 *
 * <p>A file whose process is gone (a stale file: the pid is not running, or runs a process started at another time)
 * is skipped with a note, or shown with {@code --stale}. A file that is not a readable counters file (truncated,
 * corrupt, another magic, being created) is named with the reason on standard error. Exit codes: 0 when at least one
 * file was printed, 1 when none was (none found, all stale, or the one asked for is unreadable: one line naming the
 * file), 2 for wrong arguments.
 */
@Command(name = "stat", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Print the counters of running Overlap processes (transport and worklist counters), read from their "
        + "counters files, like AeronStat.")
public final class StatCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--counters-dir", paramLabel = "DIR", description = "where the counters files are (default: "
        + "-Doverlap.counters.dir, else /dev/shm/overlap-<user> or the temp directory); 'default' is the latter")
    String countersDir;

    @Option(names = "--pid", paramLabel = "PID", description = "only the process with this pid")
    Long pid;

    @Option(names = "--type", paramLabel = "ID", split = ",", description = "only counters of these type ids "
        + "(7000-7019 transport, 7100-7104 worklist; see CounterTypes), comma-separated or repeated")
    List<Integer> types = new ArrayList<>();

    @Option(names = "--stale", description = "also print the files of processes that are gone")
    boolean stale;

    @Option(names = "--watch", paramLabel = "SECONDS", description = "print again every SECONDS seconds until "
        + "interrupted (or --count times)")
    Double watch;

    @Option(names = "--count", paramLabel = "N", description = "with --watch: stop after N prints")
    Integer count;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final CommandLine cl = spec.commandLine();
        if (watch != null && !(watch >= 0.01 && watch <= 3600)) {
            throw new CommandLine.ParameterException(cl, "--watch must be in 0.01..3600 seconds, was " + watch);
        }
        if (count != null && (count < 1 || watch == null)) {
            throw new CommandLine.ParameterException(cl, count < 1 ? "--count must be at least 1, was " + count
                : "--count needs --watch");
        }
        final Path dir = directory();
        final PrintWriter out = cl.getOut();
        final PrintWriter err = cl.getErr();
        int printed = 0;
        for (int round = 1; ; round++) {
            if (watch != null) {
                out.println("== " + DateTimeFormatter.ISO_INSTANT.format(Instant.now()) + " " + dir);
            }
            printed = print(dir, out, err);
            out.flush();
            err.flush();
            if (watch == null || (count != null && round >= count)) {
                break;
            }
            TimeUnit.MICROSECONDS.sleep(Math.round(watch * 1e6)); // the watch interval, as AeronStat's
        }
        return printed > 0 ? 0 : CliErrors.FAILURE;
    }

    private Path directory() {
        if (countersDir != null) {
            return GraphAppCommand.countersDirectory(countersDir);
        }
        final String property = System.getProperty(CountersFile.DIRECTORY_PROPERTY);
        return property != null && !property.isBlank() ? GraphAppCommand.countersDirectory(property.trim())
            : CountersFile.defaultDirectory();
    }

    /** @return how many files were printed */
    private int print(final Path dir, final PrintWriter out, final PrintWriter err) throws IOException {
        final String me = spec.qualifiedName();
        if (pid != null) {
            try {
                print(CountersFileReader.open(CountersFile.fileOf(dir, pid)), out);
                return 1;
            } catch (final CountersFileException e) {
                err.println(me + ": " + e.getMessage());
                return 0;
            }
        }
        final List<Path> files = CountersFileReader.list(dir);
        int printed = 0;
        int skipped = 0;
        for (final Path file : files) {
            final CountersFileReader reader;
            try {
                reader = CountersFileReader.open(file);
            } catch (final CountersFileException e) {
                err.println(me + ": " + e.getMessage());
                continue;
            }
            if (!stale && !reader.isOwnerAlive()) {
                err.println(me + ": " + file + ": pid " + reader.pid() + " is not running (a stale file: --stale "
                    + "prints it; delete it to tidy up)");
                skipped++;
                continue;
            }
            print(reader, out);
            printed++;
        }
        if (printed == 0 && skipped == 0 && files.isEmpty()) {
            err.println(me + ": no Overlap counters files in " + dir + " (a process publishes them with --counters-dir "
                + "DIR, Mesh.Builder.countersDirectory or -D" + CountersFile.DIRECTORY_PROPERTY + ")");
        }
        return printed;
    }

    private void print(final CountersFileReader reader, final PrintWriter out) {
        final CountersReader counters = reader.counters();
        out.println(reader.path().getFileName() + ": pid " + reader.pid() + ", started "
            + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(Instant.ofEpochMilli(reader.header().startTimeMillis())
            .atOffset(ZoneOffset.UTC)) + "Z, " + (reader.isOwnerAlive() ? "running" : "not running (stale)"));
        final Set<Integer> only = new TreeSet<>(types);
        counters.forEach((id, typeId, key, label) -> {
            if (only.isEmpty() || only.contains(typeId)) {
                out.println(String.format(java.util.Locale.ROOT, "%5d %5d %,20d - %s", id, typeId,
                    counters.getCounterValue(id), label));
            }
        });
    }
}
