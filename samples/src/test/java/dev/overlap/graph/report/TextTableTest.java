package dev.overlap.graph.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TextTableTest {
    @Test
    void alignsTextAndWritesMarkdown() {
        final TextTable t = new TextTable("<name", "ms").row("bfs", "1.5").row("pagerank | pull", null);
        final String nl = System.lineSeparator();
        assertEquals("name              ms" + nl
            + "---------------  ---" + nl
            + "bfs              1.5" + nl
            + "pagerank | pull    -" + nl, t.toText());
        assertEquals("| name | ms |\n| --- | ---: |\n| bfs | 1.5 |\n| pagerank \\| pull | - |\n", t.toMarkdown());
        assertEquals(2, t.size());
    }

    @Test
    void rowsMustMatchTheColumns() {
        final TextTable t = new TextTable("a", "b");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.row("x"));
        assertEquals("row has 1 cells, the table 2 columns: [x]", e.getMessage());
        assertThrows(IllegalArgumentException.class, TextTable::new);
    }

    @Test
    void formatsNumbers() {
        assertEquals("-", TextTable.fixed(Double.NaN, 2));
        assertEquals("3.14", TextTable.fixed(Math.PI, 2));
        assertEquals("1,234,567", TextTable.count(1234567));
    }
}
