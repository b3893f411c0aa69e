package dev.overlap.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The library's layering, as rules that fail the build when broken. Maven's module dependencies already keep a
 * library module from reaching the lab (samples, benchmarks, report); these rules say more: which library packages
 * may use which, that the library uses nothing outside the JDK and Agrona (and JCTools' queue interfaces in the
 * queues module, whose public API implements them), and that its packages form no cycle.
 *
 * <pre>
 *   core                       (JDK, Agrona)
 *   queues       -> core       (and JCTools: CounterRingQueue is a MessagePassingQueue)
 *   transport    -> core
 *   replication  -> core
 *   worklist     -> core, queues, transport
 *   hosts        -> core, transport, worklist  (and Aeron: client and embedded media driver; it implements the
 *                   worklist's RankLink, so the worklist spans hosts without depending on Aeron or on hosts)
 * </pre>
 */
@AnalyzeClasses(packages = "dev.overlap", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    private static final String[] LIBRARY = {
        "dev.overlap.core..", "dev.overlap.queues..", "dev.overlap.transport..", "dev.overlap.replication..",
        "dev.overlap.worklist..", "dev.overlap.hosts.."};
    private static final String[] ALWAYS = {"java..", "org.agrona.."};

    @ArchTest
    static final ArchRule coreNeedsNothingElse = only("dev.overlap.core..");

    @ArchTest
    static final ArchRule queuesNeedOnlyCore = only("dev.overlap.queues..", "dev.overlap.core..", "org.jctools..");

    @ArchTest
    static final ArchRule transportNeedsOnlyCore = only("dev.overlap.transport..", "dev.overlap.core..");

    @ArchTest
    static final ArchRule replicationNeedsOnlyCore = only("dev.overlap.replication..", "dev.overlap.core..");

    @ArchTest
    static final ArchRule worklistNeedsQueuesAndTransport = only("dev.overlap.worklist..", "dev.overlap.core..",
        "dev.overlap.queues..", "dev.overlap.transport..");

    @ArchTest
    static final ArchRule hostsNeedOnlyCoreTransportWorklistAndAeron = only("dev.overlap.hosts..",
        "dev.overlap.core..", "dev.overlap.transport..", "dev.overlap.worklist..", "io.aeron..");

    @ArchTest
    static final ArchRule libraryNeverUsesTheLab = noClasses().that().resideInAnyPackage(LIBRARY)
        .should().dependOnClassesThat().resideInAnyPackage("dev.overlap.graph..", "dev.overlap.bench..",
            "dev.overlap.stress..", "dev.overlap.testing..", "picocli..", "com.fasterxml..", "me.tongfei..",
            "org.HdrHistogram..", "org.jfree..")
        .because("library modules carry no CLI, JSON, chart or benchmark dependency");

    @ArchTest
    static final ArchRule onlyTheQueuesUseJctools = noClasses().that().resideInAnyPackage(LIBRARY)
        .and().resideOutsideOfPackage("dev.overlap.queues..")
        .should().dependOnClassesThat().resideInAnyPackage("org.jctools..")
        .because("JCTools is a dependency of the queues module only, for the interfaces its public API implements");

    @ArchTest
    static final ArchRule onlyTheHostsUseAeron = noClasses().that().resideInAnyPackage(LIBRARY)
        .and().resideOutsideOfPackage("dev.overlap.hosts..")
        .should().dependOnClassesThat().resideInAnyPackage("io.aeron..")
        .because("Aeron is a dependency of the hosts module only: the other modules work within one host without it");

    @ArchTest
    static final ArchRule libraryPackagesFormNoCycle = slices().matching("dev.overlap.(core|queues|transport|replication|worklist|hosts)..")
        .should().beFreeOfCycles();

    /**
     * The samples are built on the public API only: none of their classes sits in a library package, where it
     * could reach package-private internals (jcstress tests do that on purpose; samples must not).
     */
    @Test
    void samplesLiveOutsideTheLibraryPackages() {
        final JavaClasses samples = new ClassFileImporter()
            .withImportOption(location -> location.contains("/samples/") || location.contains("overlap-samples"))
            .importPackages("dev.overlap");
        assertFalse(samples.isEmpty(), "the samples' classes are on the test class path");
        noClasses().should().resideInAnyPackage(LIBRARY).check(samples);
    }

    private static ArchRule only(final String self, final String... allowed) {
        final String[] packages = new String[allowed.length + ALWAYS.length + 1];
        packages[0] = self;
        System.arraycopy(allowed, 0, packages, 1, allowed.length);
        System.arraycopy(ALWAYS, 0, packages, 1 + allowed.length, ALWAYS.length);
        return classes().that().resideInAPackage(self).should().onlyDependOnClassesThat().resideInAnyPackage(packages);
    }
}
