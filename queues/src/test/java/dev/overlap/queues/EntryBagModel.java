package dev.overlap.queues;

import java.util.ArrayList;
import java.util.List;

/**
 * The sequential specification of the priority worklists' Lincheck tests (checked by {@link ModelVerifier}): a
 * bag of entries, each named {@code "item@key"}. {@code push(item, key)} adds its entry (the tests never fill a
 * band, so it returns {@code true}); {@code poll()} returns an entry the bag holds and removes it, or
 * {@code "empty"} only when the bag holds none. Which entry comes out is the worklist's choice (bands, threshold
 * moves), so any held entry is allowed; with distinct items ({@link UniqueIntGen}) an entry returned twice, lost,
 * invented or re-keyed fails. Counting entries only, as the earlier spec did, let a poll return one entry twice
 * while another was lost.
 */
public final class EntryBagModel implements RelaxedModel {
    /** Held entries, sorted (a multiset: equal entries could only come from equal items). */
    private final List<String> entries;

    public EntryBagModel() {
        this(List.of());
    }

    private EntryBagModel(final List<String> entries) {
        this.entries = entries;
    }

    /** @return the name of an entry, as the tests' {@code poll} reports it */
    static String entry(final Object item, final Object key) {
        return item + "@" + key;
    }

    @Override
    public boolean busy(final int thread) {
        return false;
    }

    @Override
    public List<RelaxedModel> step(final int thread, final String operation, final List<Object> arguments,
        final Object result) {
        switch (operation) {
            case "push": {
                if (!Boolean.TRUE.equals(result)) {
                    return List.of();
                }
                final List<String> next = new ArrayList<>(entries);
                next.add(entry(arguments.get(0), arguments.get(1)));
                next.sort(null);
                return List.of(new EntryBagModel(List.copyOf(next)));
            }
            case "poll": {
                if ("empty".equals(result)) {
                    return entries.isEmpty() ? List.of(this) : List.of();
                }
                final int i = entries.indexOf(result);
                if (i < 0) {
                    return List.of();
                }
                final List<String> next = new ArrayList<>(entries);
                next.remove(i);
                return List.of(new EntryBagModel(List.copyOf(next)));
            }
            default:
                throw new IllegalArgumentException("no model of operation " + operation);
        }
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof EntryBagModel && entries.equals(((EntryBagModel)o).entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
