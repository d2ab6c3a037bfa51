/*
 * ValueOfOracle: Java itself as the oracle for jmsctl's property getters (jmsctl/messages/conversion.py).
 *
 * The Jakarta Messaging javadoc says a String property read as a primitive goes through the
 * primitive's valueOf(String), an absent one through valueOf(null), and any property read as a
 * String is its String.valueOf. This program asks the JVM for each of those answers and writes
 * them as JSON lines, so the Python tests compare against Java rather than against a reading of it.
 *
 * Regenerate (JDK 17, no dependencies), from the repository root:
 *
 *   javac -d /tmp/valueof-oracle scripts/java/ValueOfOracle.java
 *   java -cp /tmp/valueof-oracle ValueOfOracle valueof  > tests/data/valueof.jsonl
 *   java -cp /tmp/valueof-oracle ValueOfOracle tostring > tests/data/tostring.jsonl
 *
 * The output is deterministic (fixed random seeds). JDK 17 matters: from JDK 19 on,
 * Double.toString/Float.toString print the shortest decimal (JDK-4511638) and the files change.
 *
 * valueof: one line per (input string or null) x (target type), target one of boolean byte short
 *   int long float double:
 *     {"input": "0x1F", "type": "int", "exception": "NumberFormatException", "message": "For input string: \"0x1F\""}
 *     {"input": "010", "type": "int", "value": 10}
 *     {"input": "1.5f", "type": "float", "value": "1.5", "bits": "0x3fc00000"}
 *   value is a JSON boolean for boolean, a JSON integer for byte..long, and for float/double
 *   Java's toString of the result plus its raw IEEE bits (floatToRawIntBits / doubleToRawLongBits).
 * tostring: one line per float or double value:
 *     {"type": "double", "bits": "0x4202a05f20000000", "string": "1.0E10"}
 *
 * Strings are written with every character outside printable ASCII as a \\uXXXX escape (UTF-16
 * units, so supplementary characters appear as surrogate pairs, which JSON readers join).
 */

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

public class ValueOfOracle {

    static final String[] TYPES = {"boolean", "byte", "short", "int", "long", "float", "double"};

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "valueof";
        StringBuilder out = new StringBuilder();
        if (mode.equals("valueof")) {
            valueOf(out);
        } else if (mode.equals("tostring")) {
            toStrings(out);
        } else {
            System.err.println("usage: ValueOfOracle valueof|tostring");
            System.exit(2);
        }
        System.out.print(out);
    }

    // ----- valueOf -----------------------------------------------------------------------------

    static void valueOf(StringBuilder out) {
        List<String> all = new ArrayList<>();   // read as every type
        List<String> floats = new ArrayList<>(); // read as float only (rounding cases)
        List<String> doubles = new ArrayList<>(); // read as double only
        Set<String> seen = new LinkedHashSet<>();

        String[] fixed = {
            "", " ", "\t", "0", "1", "-1", "+1", "+", "-", "+-1", "-+1", "--1", "++1", "1-", "1+",
            "010", "0010", "08", "-0", "+0", "00", "-00",
            "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769", "65535",
            "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "99999999999999999999999999999999",
            "0000000000000000000000000000000000000001", "-0000000000000000000000000000000000000128",
            "0x1F", "0X1f", "0x1f", "#1F", "1F", "0x", "0x0", "017", "0b101", "0B1", "1_000", "1_0",
            "1L", "1l", "10L", " 1", "1 ", "\t1\n", "\n1", "1\r", " 1 ", "1 2",
            "1e3", "1E3", "1e-3", "1e+3", "1.0", "1.", ".5", "-.5", "+.5", "0.5", "-0.0", "0.", ".", "-.", "+.", "..",
            "1.5f", "1.5F", "1.5d", "1.5D", "1f", "1d", "1F", "1D", ".5f", "1.f", "1.5fd", "1.5ff", "1.5df", "f", "d", ".f",
            "1e", "1e+", "1e-", "1e+3", "1E-3", "1e3f", "1.5e3f", "1.5E3D", "1e3.5", "1e-0", "1e00003", "e3", ".e3", "1.e3",
            "1.2.3", "1..", "..1", "1..2", "-1.2.3",
            "NaN", "-NaN", "+NaN", "nan", "NAN", "Nan", "NaNf", "NaNd", " NaN ", "NaN ", "\tNaN", "NaN1", "N",
            "Infinity", "+Infinity", "-Infinity", "infinity", "INFINITY", "Inf", "inf", "-inf", "+inf",
            "Infinityf", "Infinity ", " -Infinity\t", "Infinity1", "Infinit", "I", "1Infinity", "\u221e",
            "0x1p3", "0X1P3", "-0x1p3", "+0x1p3", "0x1.8p1", "0x.8p1", "0x1.p1", "0x.p1", "0x1p3f", "0x1p3d",
            "0x1p3F", "0x1p3D", "0x1", "0xp1", "0x1p", "0x1p+3", "0x1p-3", "0x1p-1074", "0x1p-1075", "0x1p-149",
            "0x1p-150", "0x1.fffffep127", "0x1.ffffffp127", "0x1p128", "0x1p1024", "0x1.fffffffffffff8p1023",
            "0xG", "0x1g", "0x1P3.5", "0x1p3e1", " 0x1p3 ", "0x0p0", "-0x0p0", "0x0.0p99999999999",
            "0x1p99999999999", "0x1p-99999999999", "-0x1p99999999999", "-0x1p-99999999999", "0x1p+", "0x-1p1",
            "1,5", "1,000", "1 000", "1'000", "\u00bd", "1/2",
            "\u00a01", "1\u00a0", "\u20001", "\u30001", "\u00851", "1\u0085", "\u000b1", "\u001c1", "\u007f1",
            "\u0661\u0662\u0663", "-\u0661\u0662\u0663", "+\u0661", "\u0661\u0662\u0668", "-\u0661\u0662\u0669",
            "\u0661.\u0665", "\u0661e3", "\uff11\uff12", "\uff11.\uff15", "\u0967\u0966", "1\u0662", "\u0e51\u0e50\u0e50",
            "\ud835\udfcf", "1\ud835\udfcf", "\u00b2", "\u2460", "\u216b", "\u3007", "\u4e00", "\u0031\u0301",
            "true", "TRUE", "True", "tRuE", "TrUe", " true", "true ", "true\n", "truee", "tru", "yes", "on", "t", "y",
            "false", "FALSE", "False", "no", "off", "null", "\u0074rue", "\uff54rue", "tr\u0075e",
            "0.1", "0.2", "0.3", "3.14159", "2.718281828459045", "1e-5", "1E10", "1e7", "9999999", "12345678",
            "3.4028235E38", "3.4028236E38", "3.40282357E38", "3.4028235677973366E38", "3.4028235677973367E38",
            "3.5e38", "1e39", "-1e39", "1.7976931348623157E308", "1.7976931348623158E308", "1.7976931348623159E308",
            "1.8e308", "-1.8e308", "1e309",
            "4.9e-324", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "2.47e-324", "1e-324",
            "1e-400", "-1e-400", "2.2250738585072014E-308", "2.225073858507201E-308",
            "1.4e-45", "1.401298464324817E-45", "7.006492321624086e-46", "7.006492321624085e-46", "1e-46",
            "-1e-46", "1.17549435E-38", "1.1754942E-38", "0.1f", "0.1d",
            "16777216", "16777217", "16777217.0", "16777219", "9007199254740993", "9007199254740993.0",
            "1.000000059604644775390625", "1.00000005960464477539062500000000001", "1.0000000596046447753906249999999",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.000000000000000111022302462515654042363166809082031250000001",
            "1e0000000000000000003", "1e99999999999", "1e-99999999999", "-1e99999999999", "0e99999999999",
            "0.0e-99999999999", "00000.00001e5", "000123.4500e-2", "123456789012345678901234567890e-20",
            "\u00001", "1\u0000", "\u001f1.5\u0020", " \t\n\r\f1.25\u000b\u0001",
            "-", "+-0", "0-", "0+", "1e+-3", "1e--3", "1ee3", "1e3e3", "1.5e 3", "1.5 e3", "- 1", "+ 1",
            "0.000001", "1000000", "10000000", "100", "0.001", "0.0001", "123456789", "-123456789",
        };
        for (String s : fixed) add(all, seen, s);
        add(all, seen, "0".repeat(60) + "1");
        add(all, seen, "9".repeat(30) + "e-30");
        // Long texts: read as float and as double only.
        List<String> floating = new ArrayList<>();
        add(floating, seen, "1" + "0".repeat(400));
        add(floating, seen, "0." + "0".repeat(400) + "1e400");
        add(floating, seen, "0." + "0".repeat(400) + "1e380");
        add(floating, seen, "1" + "0".repeat(400) + "e-400");
        add(floating, seen, "2." + "0".repeat(800) + "1e-1");
        add(floating, seen, "1." + "0".repeat(1200) + "1");
        add(floating, seen, "1.000000059604644775390625" + "0".repeat(1200) + "1");
        add(floating, seen, "1.00000000000000011102230246251565404236316680908203125" + "0".repeat(1200) + "1");

        // White space: every char up to U+0020 before and after, for int (never trimmed) and float (trimmed).
        for (char c = 0; c <= 0x20; c++) {
            add(all, seen, c + "12");
            add(all, seen, "12" + c);
            add(all, seen, c + "1.5" + c);
        }
        // Every decimal digit block Java knows in the BMP (Character.digit(ch, 10) >= 0).
        for (int z = 0; z < 0x10000; z++) {
            if (Character.digit((char) z, 10) == 0 && z != '0') {
                add(all, seen, new String(new char[] {(char) (z + 1), (char) (z + 2), (char) (z + 7)}));
                add(all, seen, "-" + (char) (z + 9) + "0");
            }
        }
        Random r = new Random(20240613L);
        // Integers of every size, as text.
        for (int i = 0; i < 100; i++) {
            long v = r.nextLong() >> r.nextInt(64);
            add(all, seen, Long.toString(v));
            add(all, seen, Long.toString(v / 2 + (r.nextBoolean() ? Long.MAX_VALUE / 2 : 0)));
        }
        // Float and double rounding: exact midpoints between neighbours, and just above/below them.
        for (int i = 0; i < 250; i++) {
            float f = Float.intBitsToFloat(r.nextInt(0x7f7fffff));
            BigDecimal lo = new BigDecimal(f), hi = new BigDecimal(Math.nextUp(f));
            BigDecimal mid = lo.add(hi).divide(BigDecimal.valueOf(2));
            BigDecimal tiny = BigDecimal.ONE.movePointLeft(mid.scale() + 3);
            add(floats, seen, mid.toString());
            add(floats, seen, mid.add(tiny).toString());
            add(floats, seen, mid.subtract(tiny).toString());
            add(floats, seen, Double.toHexString(((double) f + Math.nextUp(f)) / 2));
            add(floats, seen, Float.toString(f));
        }
        for (int i = 0; i < 250; i++) {
            double d = i < 8 ? Double.longBitsToDouble(r.nextLong() >>> 1) // anywhere, subnormal digits included
                              : Math.scalb(1.0 + r.nextDouble(), r.nextInt(120) - 60);
            if (Double.isNaN(d) || Double.isInfinite(d) || d == Double.MAX_VALUE) continue;
            BigDecimal lo = new BigDecimal(d), hi = new BigDecimal(Math.nextUp(d));
            BigDecimal mid = lo.add(hi).divide(BigDecimal.valueOf(2));
            BigDecimal tiny = BigDecimal.ONE.movePointLeft(mid.scale() + 3);
            add(doubles, seen, mid.toString());
            add(doubles, seen, mid.add(tiny).toString());
            add(doubles, seen, mid.subtract(tiny).toString());
            add(doubles, seen, Double.toString(d));
            // hexadecimal midpoint, and a trailing 1 bit far below it
            BigInteger m = BigInteger.valueOf(Double.doubleToLongBits(d) & 0xfffffffffffffL | 0x10000000000000L).shiftLeft(1).add(BigInteger.ONE);
            String hex = m.toString(16);
            int exp = Math.getExponent(d);
            add(doubles, seen, "0x" + hex.charAt(0) + "." + hex.substring(1) + "p" + exp);
            add(doubles, seen, "0x" + hex.charAt(0) + "." + hex.substring(1) + "0000001p" + exp);
        }
        // Short decimals, as people write them.
        for (int i = 0; i < 100; i++) {
            long mant = r.nextInt(2_000_000) - 1_000_000;
            int e = r.nextInt(90) - 45;
            add(all, seen, mant + "e" + e);
            add(all, seen, BigDecimal.valueOf(mant, r.nextInt(12)).toPlainString());
        }

        emitValueOf(out, null, TYPES);
        for (String s : all) emitValueOf(out, s, TYPES);
        for (String s : floating) emitValueOf(out, s, new String[] {"float", "double"});
        for (String s : floats) emitValueOf(out, s, new String[] {"float"});
        for (String s : doubles) emitValueOf(out, s, new String[] {"double"});
    }

    static void add(List<String> list, Set<String> seen, String s) {
        if (seen.add(s)) list.add(s);
    }

    static void emitValueOf(StringBuilder out, String input, String[] types) {
        for (String type : types) {
            StringBuilder line = new StringBuilder("{\"input\": ").append(input == null ? "null" : json(input));
            line.append(", \"type\": \"").append(type).append('"');
            String result;
            try {
                switch (type) {
                    case "boolean": result = ", \"value\": " + Boolean.valueOf(input); break;
                    case "byte": result = ", \"value\": " + Byte.valueOf(input); break;
                    case "short": result = ", \"value\": " + Short.valueOf(input); break;
                    case "int": result = ", \"value\": " + Integer.valueOf(input); break;
                    case "long": result = ", \"value\": " + Long.valueOf(input); break;
                    case "float": {
                        Float f = Float.valueOf(input);
                        result = ", \"value\": " + json(f.toString())
                            + ", \"bits\": \"0x" + String.format("%08x", Float.floatToRawIntBits(f)) + '"';
                        break;
                    }
                    default: {
                        Double d = Double.valueOf(input);
                        result = ", \"value\": " + json(d.toString())
                            + ", \"bits\": \"0x" + String.format("%016x", Double.doubleToRawLongBits(d)) + '"';
                    }
                }
            } catch (RuntimeException e) {
                result = ", \"exception\": \"" + e.getClass().getSimpleName() + '"'
                    + ", \"message\": " + (e.getMessage() == null ? "null" : json(e.getMessage()));
            }
            out.append(line).append(result).append("}\n");
        }
    }

    // ----- toString ------------------------------------------------------------------------------

    static void toStrings(StringBuilder out) {
        Set<Long> d = new LinkedHashSet<>();
        double[] specials = {0.0, -0.0, 1.0, -1.0, 100.0, 0.001, 0.0001, 1.0E-5, 1.0E10, 1.0E7, 9999999.0,
            10000000.0, 1234567.0, 12345678.0, 0.01, 0.1, 0.5, 2.0, 3.0, 1.5, 0.3, 0.2 + 0.1, 1.0 / 3, 2.0 / 3,
            Math.PI, Math.E, 2e23, 1e23, 8.41e21, 5e-324, 1e-323, Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 9007199254740992.0, 9007199254740993.0,
            4.6116860184273879E18, 9.223372036854775807E18, 1.8446744073709552E19, 123456789012345678.0,
            0.0009999999999999998, 0.001000000000000001, 9999999.999999998, 1.0E-322, 4.35E-321, 2.2250738585072009E-308};
        for (double v : specials) d.add(Double.doubleToRawLongBits(v));
        for (int e = -1074; e <= 1023; e++) d.add(Double.doubleToRawLongBits(Math.scalb(1.0, e)));
        for (int e = -323; e <= 308; e++) {
            double p = Double.parseDouble("1e" + e);
            d.add(Double.doubleToRawLongBits(p));
            d.add(Double.doubleToRawLongBits(Math.nextUp(p)));
        }
        Random r = new Random(4511638L);
        for (int i = 0; i < 1000; i++) {
            long bits = r.nextLong();
            if (!Double.isFinite(Double.longBitsToDouble(bits))) continue;
            d.add(bits);
        }
        for (int i = 0; i < 500; i++) {
            d.add(Double.doubleToRawLongBits(r.nextInt(2_000_000_000) / Math.pow(10, r.nextInt(25))));
            d.add(Double.doubleToRawLongBits((double) (r.nextLong() >>> r.nextInt(64))));
        }
        for (long bits : d) {
            double v = Double.longBitsToDouble(bits);
            out.append("{\"type\": \"double\", \"bits\": \"0x").append(String.format("%016x", bits));
            out.append("\", \"string\": ").append(json(Double.toString(v))).append("}\n");
        }

        Set<Integer> f = new LinkedHashSet<>();
        float[] fspecials = {0.0f, -0.0f, 1.0f, -1.0f, 100.0f, 0.001f, 0.0001f, 1.0E-5f, 1.0E10f, 1.0E7f, 9999999.0f,
            1.0e-36f, 1e-44f, 1.0E-45f, 0.1f, 0.3f, 0.1f + 0.2f, 1.0f / 3, 16777216.0f, 16777217.0f, 3.4028235E38f,
            Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, Float.NaN, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, 8.589973E9f, 2.0E-44f, 9.8E-45f, 3.3554432E7f, 1.00000005E9f};
        for (float v : fspecials) f.add(Float.floatToRawIntBits(v));
        for (int e = -149; e <= 127; e++) f.add(Float.floatToRawIntBits(Math.scalb(1.0f, e)));
        for (int e = -45; e <= 38; e++) {
            float p = Float.parseFloat("1e" + e);
            f.add(Float.floatToRawIntBits(p));
            f.add(Float.floatToRawIntBits(Math.nextUp(p)));
        }
        for (int i = 0; i < 50; i++) f.add(i + 1); // the smallest subnormals
        for (int i = 0; i < 1000; i++) {
            int bits = r.nextInt();
            if (!Float.isFinite(Float.intBitsToFloat(bits))) continue;
            f.add(bits);
        }
        for (int i = 0; i < 500; i++) {
            f.add(Float.floatToRawIntBits((float) (r.nextInt(20_000_000) / Math.pow(10, r.nextInt(12)))));
            f.add(Float.floatToRawIntBits((float) (r.nextLong() >>> r.nextInt(64))));
        }
        for (int bits : f) {
            float v = Float.intBitsToFloat(bits);
            out.append("{\"type\": \"float\", \"bits\": \"0x").append(String.format("%08x", bits));
            out.append("\", \"string\": ").append(json(Float.toString(v))).append("}\n");
        }
    }

    // ----- JSON ------------------------------------------------------------------------------------

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.append('"').toString();
    }
}
