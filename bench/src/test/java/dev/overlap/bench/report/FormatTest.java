package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FormatTest {
    @Test
    void formats() {
        assertEquals("64 KiB", Format.bytes("65536"));
        assertEquals("256 MiB", Format.bytes("268435456"));
        assertEquals("1.5 MiB", Format.bytes(1.5 * 1024 * 1024));
        assertEquals("100 B", Format.bytes("100"));
        assertEquals("auto", Format.bytes("auto"));
        assertEquals("1.52×", Format.ratio(1.5234));
        assertEquals("+3.1%", Format.percent(3.14));
        assertEquals("-112%", Format.percent(-112.4));
        assertEquals("12.35", Format.num(12.346));
        assertEquals("1,234,568", Format.num(1234567.8));
        assertEquals("0.001235", Format.num(0.0012346));
        assertEquals("1 min 5 s", Format.duration(65));
    }
}
