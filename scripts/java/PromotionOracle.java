/*
 * PromotionOracle: Java itself as the oracle for jmsctl's numeric selector semantics.
 *
 * Prints selector test cases (JSONL, the tests/corpus format) whose expectations come from
 * Java's own binary numeric promotion (JLS 5.6), which the Jakarta Messaging javadoc invokes
 * for selector arithmetic and for comparisons of exact and approximate numbers
 * (see docs/SEMANTICS.md#numeric-promotion). The arithmetic and the comparisons are written once per
 * ordered pair of primitive types (the eval overloads below), so javac decides the result type
 * and the JVM computes the value; the generator only picks operands and writes JSON.
 *
 * Run (JDK 17, no dependencies), from the repository root:
 *
 *   javac -d /tmp/oracle scripts/java/PromotionOracle.java && java -cp /tmp/oracle PromotionOracle > tests/corpus/numeric-promotion.jsonl
 *   java -cp /tmp/oracle PromotionOracle compare > tests/corpus/numeric-compare.jsonl
 *
 * or simply scripts/gen-corpus.sh, which runs both.
 *
 * Modes (first argument):
 *   promotion (default)  + - * / on every ordered type pair, unary minus/plus, mixed literals
 *   compare              = <> < <= > >= on every ordered type pair
 *   bits promotion|compare
 *                        for checking the JSON: one line "type<TAB>json-text<TAB>raw-bits" for every
 *                        float/double value written in that mode (Float.floatToRawIntBits /
 *                        Double.doubleToRawLongBits as hex), so a reader can prove it decodes each
 *                        number back to exactly the Java value
 *
 * Output conventions (docs/FORMAT.md):
 *   - operands are properties a and b, the expected result is property r, all typed
 *     {"type": T, "value": V};
 *   - float and double values are written as their EXACT decimal expansion (BigDecimal of the
 *     value widened to double), so reading the text as a double and rounding it to float32 gives
 *     back the Java value bit for bit; integral-valued ones get ".0" so they stay JSON fractions;
 *     -0.0 is written "-0.0"; NaN and the infinities are the strings "NaN", "Infinity", "-Infinity";
 *   - "match" means the selector is TRUE; FALSE and UNKNOWN are "nomatch";
 *   - a NaN result r never equals itself, so "a OP b = r" is nomatch and "a OP b <> a OP b" is match;
 *   - integer division by zero is NULL in a selector (docs/SEMANTICS.md#numeric-promotion; Java throws
 *     ArithmeticException): "a / b = a / b" and "NOT (a / b = a / b)" are both nomatch;
 *   - identical selector+message pairs are written once; ids are promo-NNNN / cmp-NNNN.
 */
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

public final class PromotionOracle {

    static final String[] TYPES = {"byte", "short", "int", "long", "float", "double"};
    static final String[] OPS = {"+", "-", "*", "/"};
    static final String[] CMPS = {"=", "<>", "<", "<=", ">", ">="};

    /** The results of one operand pair, each computed by a Java expression on the primitives. */
    static final class R {
        final Object add, sub, mul;
        final Supplier<Object> div;
        final boolean[] cmp;

        R(Object add, Object sub, Object mul, Supplier<Object> div, boolean... cmp) {
            this.add = add;
            this.sub = sub;
            this.mul = mul;
            this.div = div;
            this.cmp = cmp; // = <> < <= > >= as Java's == != < <= > >=
        }

        /** The result of a OP b, boxed by Java (Integer, Long, Float or Double); null when Java throws. */
        Object arith(String op) {
            switch (op) {
                case "+": return add;
                case "-": return sub;
                case "*": return mul;
                default:
                    try {
                        return div.get();
                    } catch (ArithmeticException e) { // integer division by zero
                        return null;
                    }
            }
        }
    }

    // ---- Java's binary numeric promotion, written out for every ordered pair of types. ----
    // Boxing a + b to Object keeps the type javac gave the expression: byte + byte is an Integer.
    static R eval(byte a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(byte a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(byte a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(byte a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(byte a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(byte a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(short a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(int a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(long a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(float a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, byte b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, short b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, int b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, long b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, float b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }
    static R eval(double a, double b) { return new R(a + b, a - b, a * b, () -> a / b, a == b, a != b, a < b, a <= b, a > b, a >= b); }

    // Dispatch from boxed operands to the primitive overloads above.
    static R evalB(byte a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }
    static R evalB(short a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }
    static R evalB(int a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }
    static R evalB(long a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }
    static R evalB(float a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }
    static R evalB(double a, Object b) {
        if (b instanceof Byte y) return eval(a, y.byteValue());
        if (b instanceof Short y) return eval(a, y.shortValue());
        if (b instanceof Integer y) return eval(a, y.intValue());
        if (b instanceof Long y) return eval(a, y.longValue());
        if (b instanceof Float y) return eval(a, y.floatValue());
        if (b instanceof Double y) return eval(a, y.doubleValue());
        throw new IllegalArgumentException(String.valueOf(b));
    }

    static R eval(Object a, Object b) {
        if (a instanceof Byte x) return evalB(x.byteValue(), b);
        if (a instanceof Short x) return evalB(x.shortValue(), b);
        if (a instanceof Integer x) return evalB(x.intValue(), b);
        if (a instanceof Long x) return evalB(x.longValue(), b);
        if (a instanceof Float x) return evalB(x.floatValue(), b);
        if (a instanceof Double x) return evalB(x.doubleValue(), b);
        throw new IllegalArgumentException(String.valueOf(a));
    }

    // ---- Unary minus and plus: unary numeric promotion, again decided by javac. ----
    static Object neg(byte a) { return -a; }
    static Object neg(short a) { return -a; }
    static Object neg(int a) { return -a; }
    static Object neg(long a) { return -a; }
    static Object neg(float a) { return -a; }
    static Object neg(double a) { return -a; }
    static Object plus(byte a) { return +a; }
    static Object plus(short a) { return +a; }
    static Object plus(int a) { return +a; }
    static Object plus(long a) { return +a; }
    static Object plus(float a) { return +a; }
    static Object plus(double a) { return +a; }

    static Object unary(String op, Object a) {
        boolean minus = op.equals("-");
        if (a instanceof Byte x) return minus ? neg(x.byteValue()) : plus(x.byteValue());
        if (a instanceof Short x) return minus ? neg(x.shortValue()) : plus(x.shortValue());
        if (a instanceof Integer x) return minus ? neg(x.intValue()) : plus(x.intValue());
        if (a instanceof Long x) return minus ? neg(x.longValue()) : plus(x.longValue());
        if (a instanceof Float x) return minus ? neg(x.floatValue()) : plus(x.floatValue());
        if (a instanceof Double x) return minus ? neg(x.doubleValue()) : plus(x.doubleValue());
        throw new IllegalArgumentException(String.valueOf(a));
    }

    // ---- Values ----

    /** Java's cast of a number to a primitive type (Number.xxxValue() is exactly the primitive cast). */
    static Object cast(String type, Object v) {
        Number n = (Number) v;
        switch (type) {
            case "byte": return n.byteValue();
            case "short": return n.shortValue();
            case "int": return n.intValue();
            case "long": return n.longValue();
            case "float": return n.floatValue();
            case "double": return n.doubleValue();
            default: throw new IllegalArgumentException(type);
        }
    }

    static String typeOf(Object v) {
        if (v instanceof Byte) return "byte";
        if (v instanceof Short) return "short";
        if (v instanceof Integer) return "int";
        if (v instanceof Long) return "long";
        if (v instanceof Float) return "float";
        if (v instanceof Double) return "double";
        throw new IllegalArgumentException(String.valueOf(v));
    }

    static boolean floating(Object v) {
        return v instanceof Float || v instanceof Double;
    }

    static boolean isNaN(Object v) {
        return floating(v) && Double.isNaN(((Number) v).doubleValue());
    }

    static boolean isNegativeZero(Object v) {
        double d = ((Number) v).doubleValue();
        return floating(v) && d == 0 && Double.doubleToRawLongBits(d) != 0;
    }

    /** The JSON text of a value: exact decimal expansion for float/double (a float widens to double exactly). */
    static String num(Object v) {
        if (!floating(v)) return v.toString();
        double d = ((Number) v).doubleValue();
        if (Double.isNaN(d)) return "\"NaN\"";
        if (d == Double.POSITIVE_INFINITY) return "\"Infinity\"";
        if (d == Double.NEGATIVE_INFINITY) return "\"-Infinity\"";
        if (isNegativeZero(v)) return "-0.0"; // BigDecimal has no negative zero
        String s = new BigDecimal(d).toPlainString();
        return s.indexOf('.') < 0 ? s + ".0" : s;
    }

    static String bits(Object v) {
        if (v instanceof Float f) return String.format("%08x", Float.floatToRawIntBits(f));
        return String.format("%016x", Double.doubleToRawLongBits((Double) v));
    }

    /** Short human form of a value for notes. */
    static String show(Object v) {
        String suffix = v instanceof Float ? "f" : v instanceof Long ? "L" : "";
        if (floating(v) && !finite(v)) return v.toString();
        double d = ((Number) v).doubleValue();
        if (floating(v) && d == Math.rint(d) && Math.abs(d) < 1e19 && !isNegativeZero(v)) {
            return new BigDecimal(d).toPlainString() + suffix; // 16777216f rather than 1.6777216E7f
        }
        return v + suffix;
    }

    static BigDecimal exact(Object v) {
        if (floating(v)) return new BigDecimal(((Number) v).doubleValue());
        return BigDecimal.valueOf(((Number) v).longValue());
    }

    static boolean finite(Object v) {
        double d = ((Number) v).doubleValue();
        return !Double.isNaN(d) && !Double.isInfinite(d);
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\');
            b.append(ch);
        }
        return b.append('"').toString();
    }

    // ---- Output ----

    static final class Corpus {
        final String prefix;
        final List<String> lines = new ArrayList<>();
        final List<String> floats = new ArrayList<>();
        final Set<String> seen = new LinkedHashSet<>();

        Corpus(String prefix) {
            this.prefix = prefix;
        }

        /** One case; a, b and r are the properties (null: absent). Duplicates are dropped. */
        void add(String selector, Object a, Object b, Object r, boolean match, String note) {
            Map<String, Object> props = new LinkedHashMap<>();
            if (a != null) props.put("a", a);
            if (b != null) props.put("b", b);
            if (r != null) props.put("r", r);
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Object> e : props.entrySet()) {
                Object v = e.getValue();
                parts.add(json(e.getKey()) + ": {\"type\": " + json(typeOf(v)) + ", \"value\": " + num(v) + "}");
            }
            String message = "{\"properties\": {" + String.join(", ", parts) + "}}";
            if (!seen.add(selector + "\n" + message)) return;
            String id = String.format("%s-%04d", prefix, lines.size() + 1);
            lines.add("{\"id\": " + json(id) + ", \"selector\": " + json(selector) + ", \"message\": " + message
                    + ", \"expect\": " + json(match ? "match" : "nomatch") + ", \"note\": " + json(note) + "}");
            for (Object v : props.values()) {
                if (floating(v)) floats.add(typeOf(v) + "\t" + num(v) + "\t" + bits(v));
            }
        }
    }

    // ---- Operand grids ----

    static List<Object> values(String type, Object... xs) {
        List<Object> out = new ArrayList<>();
        for (Object x : xs) {
            Object v = cast(type, x);
            if (!out.contains(v)) out.add(v);
        }
        return out;
    }

    static final float F_2_24P2 = 16777218f; // 2^24 + 2: float neighbours are 2 apart here
    static final double D_2_53P2 = 9007199254740994.0; // 2^53 + 2
    // 2^60 + 2^36 + 1: long -> float rounds up to 2^60 + 2^37, but long -> double -> float rounds
    // twice (to the tie 2^60 + 2^36, then to even 2^60); catches a conversion that goes through double
    static final long L_2_60 = (1L << 60) + (1L << 36) + 1;
    static final float NAN_F = Float.NaN, INF_F = Float.POSITIVE_INFINITY;
    static final double NAN_D = Double.NaN, INF_D = Double.POSITIVE_INFINITY;

    /** Edge operands of the arithmetic grid, paired with small probes of the other type. */
    static List<Object> edges(String t) {
        switch (t) {
            case "byte": return values(t, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "short": return values(t, Short.MIN_VALUE, Short.MAX_VALUE);
            case "int": return values(t, Integer.MIN_VALUE, Integer.MAX_VALUE, 16777217);
            case "long": return values(t, Long.MIN_VALUE, Long.MAX_VALUE, (long) Integer.MIN_VALUE,
                    (long) Integer.MAX_VALUE, 16777217L, 9007199254740993L, L_2_60);
            case "float": return values(t, -0.0f, 0.1f, 0.5f, Float.MIN_VALUE, Float.MAX_VALUE, F_2_24P2,
                    NAN_F, INF_F, -INF_F);
            default: return values(t, -0.0, 0.1, 0.5, Double.MIN_VALUE, (double) Float.MIN_VALUE,
                    Double.MAX_VALUE, (double) Float.MAX_VALUE, 16777217.0, D_2_53P2, NAN_D, INF_D, -INF_D);
        }
    }

    /** Extremes combined with each other when both operands have the same type. */
    static List<Object> extremes(String t) {
        switch (t) {
            case "byte": return values(t, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "short": return values(t, Short.MIN_VALUE, Short.MAX_VALUE);
            case "int": return values(t, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case "long": return values(t, Long.MIN_VALUE, Long.MAX_VALUE);
            case "float": return values(t, Float.MIN_VALUE, Float.MAX_VALUE, INF_F, -INF_F);
            default: return values(t, Double.MIN_VALUE, Double.MAX_VALUE, INF_D, -INF_D);
        }
    }

    /** Small partners for edge values: the ones that make each operator overflow, wrap or round. */
    static int[] probes(String op) {
        return op.equals("+") || op.equals("-") ? new int[] {1, -1} : new int[] {2, -1};
    }

    /** Operands of the comparison grid; each is also compared with its own cast to the other type. */
    static List<Object> compareValues(String t) {
        switch (t) {
            case "byte": return values(t, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "short": return values(t, Short.MIN_VALUE, Short.MAX_VALUE);
            case "int": return values(t, Integer.MIN_VALUE, Integer.MAX_VALUE, 16777217);
            case "long": return values(t, Long.MIN_VALUE, Long.MAX_VALUE, 16777217L, 9007199254740993L,
                    2147483648L, L_2_60);
            case "float": return values(t, -0.0f, 0.1f, 16777216f, 2147483648f, 9.223372E18f, Float.MAX_VALUE,
                    NAN_F, INF_F);
            default: return values(t, -0.0, 0.1, 9007199254740992.0, 9.223372036854775808E18, 3.4028235E38,
                    NAN_D, -INF_D);
        }
    }

    // ---- Notes ----

    /** Why the Java result is what it is: wrap-around, truncation, conversion loss, rounding, IEEE cases. */
    static String describe(String op, Object a, Object b, Object r) {
        List<String> parts = new ArrayList<>();
        String p = typeOf(r);
        if (!floating(r)) {
            BigInteger x = BigInteger.valueOf(((Number) a).longValue());
            BigInteger y = BigInteger.valueOf(((Number) b).longValue());
            BigInteger z;
            switch (op) {
                case "+": z = x.add(y); break;
                case "-": z = x.subtract(y); break;
                case "*": z = x.multiply(y); break;
                default: z = x.divide(y); // BigInteger division truncates toward zero too
            }
            if (!z.equals(BigInteger.valueOf(((Number) r).longValue()))) parts.add(p + " wraps");
            noNarrowWrap(parts, r, a, b);
            if (op.equals("/") && x.remainder(y).signum() != 0) parts.add("truncates toward zero");
            return parts.isEmpty() ? "" : "; " + String.join(", ", parts);
        }
        Object ca = cast(p, a), cb = cast(p, b);
        converted(parts, a, ca);
        converted(parts, b, cb);
        double x = ((Number) ca).doubleValue(), y = ((Number) cb).doubleValue(), z = ((Number) r).doubleValue();
        if (Double.isNaN(x) || Double.isNaN(y)) {
            parts.add("NaN operand");
        } else if (Double.isInfinite(x) || Double.isInfinite(y)) {
            parts.add(Double.isNaN(z) ? "infinities give NaN" : "infinite operand");
        } else if (Double.isNaN(z)) {
            parts.add("0 / 0 is NaN");
        } else if (Double.isInfinite(z)) {
            parts.add(op.equals("/") && y == 0 ? "division by zero gives " + (z > 0 ? "Infinity" : "-Infinity")
                    : "overflows to " + (z > 0 ? "Infinity" : "-Infinity"));
        } else {
            BigDecimal ex = new BigDecimal(x), ey = new BigDecimal(y), ez = new BigDecimal(z);
            boolean exact;
            switch (op) {
                case "+": exact = ex.add(ey).compareTo(ez) == 0; break;
                case "-": exact = ex.subtract(ey).compareTo(ez) == 0; break;
                case "*": exact = ex.multiply(ey).compareTo(ez) == 0; break;
                default: exact = ez.multiply(ey).compareTo(ex) == 0;
            }
            if (!exact) parts.add(z == 0 ? "underflows to zero" : "rounded to " + p);
        }
        if (isNegativeZero(r)) parts.add("negative zero");
        return parts.isEmpty() ? "" : "; " + String.join(", ", parts);
    }

    /** Notes an int result outside the range of byte/short operands: arithmetic is never done in byte or short. */
    static void noNarrowWrap(List<String> parts, Object r, Object... operands) {
        String widest = null;
        for (Object o : operands) {
            if (!(o instanceof Byte || o instanceof Short)) return;
            if (widest == null || o instanceof Short) widest = typeOf(o);
        }
        long v = ((Number) r).longValue();
        boolean fits = widest.equals("byte") ? v == (byte) v : v == (short) v;
        if (!fits) parts.add("outside the " + widest + " range: computed in int, no " + widest + " wrap");
    }

    /** Notes an integral operand whose conversion to float or double changes its value. */
    static void converted(List<String> parts, Object from, Object to) {
        if (!floating(from) && floating(to) && exact(from).compareTo(exact(to)) != 0) {
            parts.add(typeOf(from) + " " + show(from) + " converts to " + typeOf(to) + " " + show(to));
        }
    }

    // ---- promotion corpus: + - * /, unary, literals ----

    static void arithCase(Corpus c, String op, Object a, Object b) {
        Object r = eval(a, b).arith(op);
        String e = "a " + op + " b";
        String head = typeOf(a) + " " + op + " " + typeOf(b);
        if (r == null) {
            String why = head + ": integer division by zero is NULL (Java throws)";
            c.add(e + " = " + e, a, b, null, false, why + ", so the comparison is unknown");
            c.add("NOT (" + e + " = " + e + ")", a, b, null, false, why + ", NOT unknown is unknown");
            return;
        }
        String note = head + " -> " + typeOf(r) + describe(op, a, b, r);
        resultCases(c, e, a, b, r, note);
    }

    /** "E = r" for a result r of the expression E; NaN and signed zeros get their extra cases. */
    static void resultCases(Corpus c, String e, Object a, Object b, Object r, String note) {
        if (isNaN(r)) {
            c.add(e + " = r", a, b, r, false, note + "; NaN equals nothing, itself included");
            c.add(e + " <> " + e, a, b, null, true, note + "; NaN <> NaN is true");
            return;
        }
        c.add(e + " = r", a, b, r, true, note);
        if (floating(r) && ((Number) r).doubleValue() == 0) {
            Object inverse = eval(1, r).arith("/");
            String sub = e.startsWith("-") && !e.contains(" ") ? e : "(" + e + ")";
            c.add("1 / " + sub + " = r", a, b, inverse, true,
                    note + "; 1 / " + (isNegativeZero(r) ? "-0.0" : "0.0") + " is " + show(inverse)
                            + " (pins the sign of zero)");
        }
    }

    /** One case per type pair and operator that fails if the engine gives the result the wrong type. */
    static void typePin(Corpus c, String ta, String tb, String op) {
        Object a = cast(ta, 7), b = cast(tb, 2);
        Object r = eval(a, b).arith(op);
        String p = typeOf(r);
        Object k;
        String lit, why;
        switch (p) {
            case "int": k = Integer.MAX_VALUE; lit = "2147483647"; why = "adding 2147483647 wraps only in int"; break;
            case "long": k = Long.MAX_VALUE; lit = "9223372036854775807"; why = "adding Long.MAX_VALUE wraps only in long"; break;
            case "float": k = 0.1f; lit = "0.1f"; why = "adding 0.1f rounds to float only if the result is float"; break;
            default: k = 0.1f; lit = "0.1f"; why = "adding 0.1f stays double only if the result is double";
        }
        Object r2 = eval(r, k).arith("+");
        c.add("(a " + op + " b) + " + lit + " = r", a, b, r2, true,
                ta + " " + op + " " + tb + " is " + p + ": " + why);
    }

    static void binaryGrid(Corpus c) {
        for (String ta : TYPES) {
            for (String tb : TYPES) {
                for (String op : OPS) {
                    List<Object[]> pairs = new ArrayList<>();
                    for (int x : new int[] {7, -7}) {
                        for (int y : new int[] {2, -2}) pairs.add(new Object[] {cast(ta, x), cast(tb, y)});
                    }
                    if (op.equals("/")) {
                        for (int x : new int[] {7, -7, 0}) pairs.add(new Object[] {cast(ta, x), cast(tb, 0)});
                    }
                    for (Object e : edges(ta)) {
                        for (int p : probes(op)) pairs.add(new Object[] {e, cast(tb, p)});
                    }
                    for (int p : probes(op)) {
                        for (Object e : edges(tb)) pairs.add(new Object[] {cast(ta, p), e});
                    }
                    if (ta.equals(tb)) {
                        for (Object x : extremes(ta)) {
                            for (Object y : extremes(tb)) pairs.add(new Object[] {x, y});
                        }
                    }
                    for (Object[] ab : pairs) arithCase(c, op, ab[0], ab[1]);
                    typePin(c, ta, tb, op);
                }
            }
        }
    }

    static void unaryGrid(Corpus c) {
        for (String t : TYPES) {
            List<Object> vs = floating(cast(t, 0))
                    ? values(t, 0.0, -0.0, 0.1, t.equals("float") ? Float.MIN_VALUE : Double.MIN_VALUE,
                            t.equals("float") ? Float.MAX_VALUE : Double.MAX_VALUE, NAN_D, INF_D, -INF_D)
                    : values(t, 0, 1, -1, minOf(t), maxOf(t));
            for (Object a : vs) {
                Object r = unary("-", a);
                String note = "-" + t + " -> " + typeOf(r);
                if (!floating(a) && exact(r).compareTo(exact(a).negate()) != 0) note += "; " + typeOf(r) + " wraps";
                if (!floating(a)) {
                    List<String> parts = new ArrayList<>();
                    noNarrowWrap(parts, r, a);
                    if (!parts.isEmpty()) note += "; " + parts.get(0);
                }
                if (isNaN(r)) note += "; NaN";
                resultCases(c, "-a", a, null, r, note);
                Object rr = unary("-", r);
                String note2 = "-(-" + t + ") -> " + typeOf(rr) + (isNaN(rr) ? "; NaN" : "");
                resultCases(c, "-(-a)", a, null, rr, note2);
            }
            for (Object a : values(t, minOf(t), maxOf(t))) {
                Object r = unary("+", a);
                resultCases(c, "+a", a, null, r, "+" + t + " -> " + typeOf(r) + ": unary plus promotes, value unchanged");
            }
            // -(-1) + MAX of the promoted type wraps only if -a has that type
            Object a = cast(t, -1);
            Object r = unary("-", a);
            String p = typeOf(r);
            String lit = p.equals("int") ? "2147483647" : p.equals("long") ? "9223372036854775807" : "0.1f";
            Object k = p.equals("int") ? (Object) Integer.MAX_VALUE : p.equals("long") ? (Object) Long.MAX_VALUE : (Object) 0.1f;
            c.add("-a + " + lit + " = r", a, null, eval(r, k).arith("+"), true,
                    "-" + t + " is " + p + ": adding " + lit + (floating(r) ? " rounds in " + p : " wraps only in " + p));
        }
    }

    static Object minOf(String t) {
        switch (t) {
            case "byte": return Byte.MIN_VALUE;
            case "short": return Short.MIN_VALUE;
            case "int": return Integer.MIN_VALUE;
            case "long": return Long.MIN_VALUE;
            case "float": return -Float.MAX_VALUE;
            default: return -Double.MAX_VALUE;
        }
    }

    static Object maxOf(String t) {
        switch (t) {
            case "byte": return Byte.MAX_VALUE;
            case "short": return Short.MAX_VALUE;
            case "int": return Integer.MAX_VALUE;
            case "long": return Long.MAX_VALUE;
            case "float": return Float.MAX_VALUE;
            default: return Double.MAX_VALUE;
        }
    }

    /** Literal text and the Java value of that literal (its type is the literal's type). */
    static final Object[][] LITERALS = {
        {"2147483647", Integer.MAX_VALUE, "int literal"},
        {"2147483648", 2147483648L, "long literal (outside the int range)"},
        {"1.5", 1.5, "double literal"},
        {"1.5f", 1.5f, "float literal"},
    };

    /** A sign directly in front of a literal is part of it: -2147483648 is an int, as in Java. */
    static final Object[][] SIGNED_LITERALS = {
        {"-2147483648", Integer.MIN_VALUE, "int literal -2147483648 (sign folded in, as in Java)"},
        {"-2147483649", -2147483649L, "long literal -2147483649"},
        {"-9223372036854775808", Long.MIN_VALUE, "long literal -9223372036854775808 (sign folded in)"},
    };

    static void literalGrid(Corpus c) {
        for (String t : TYPES) {
            List<Object> vs = floating(cast(t, 0))
                    ? values(t, 0.1, -1, maxOf(t), t.equals("float") ? (Object) F_2_24P2 : (Object) D_2_53P2)
                    : values(t, 1, -1, minOf(t), maxOf(t));
            for (Object a : vs) {
                for (String op : OPS) {
                    for (Object[] lit : LITERALS) literalCase(c, a, op, lit);
                }
            }
        }
        for (Object a : values("int", 1, -1, 2, 0)) {
            for (String op : new String[] {"-", "*"}) {
                for (Object[] lit : SIGNED_LITERALS) literalCase(c, a, op, lit);
            }
        }
    }

    static void literalCase(Corpus c, Object a, String op, Object[] lit) {
        Object k = lit[1];
        Object r = eval(a, k).arith(op);
        String note = typeOf(a) + " " + op + " " + lit[2] + " -> " + typeOf(r) + describe(op, a, k, r);
        resultCases(c, "a " + op + " " + lit[0], a, null, r, note);
    }

    // ---- compare corpus ----

    static void compareGrid(Corpus c) {
        for (String ta : TYPES) {
            for (String tb : TYPES) {
                List<Object[]> pairs = new ArrayList<>();
                pairs.add(new Object[] {cast(ta, -7), cast(tb, 2)});
                pairs.add(new Object[] {cast(ta, 7), cast(tb, 7)});
                pairs.add(new Object[] {cast(ta, 2), cast(tb, -7)});
                if (floating(cast(tb, 0))) pairs.add(new Object[] {cast(ta, 0), cast(tb, -0.0)});
                if (floating(cast(ta, 0))) pairs.add(new Object[] {cast(ta, -0.0), cast(tb, 0)});
                for (Object v : compareValues(ta)) pairs.add(new Object[] {v, cast(tb, v)});
                for (Object v : compareValues(tb)) pairs.add(new Object[] {cast(ta, v), v});
                for (Object[] ab : pairs) {
                    R res = eval(ab[0], ab[1]);
                    String note = compareNote(ab[0], ab[1], typeOf(res.add));
                    for (int i = 0; i < CMPS.length; i++) {
                        c.add("a " + CMPS[i] + " b", ab[0], ab[1], null, res.cmp[i], note);
                    }
                }
            }
        }
    }

    static String compareNote(Object a, Object b, String p) {
        List<String> parts = new ArrayList<>();
        parts.add(typeOf(a) + " vs " + typeOf(b) + " compares as " + p);
        converted(parts, a, cast(p, a));
        converted(parts, b, cast(p, b));
        if (isNaN(a) || isNaN(b)) {
            parts.add("NaN is unordered: only <> holds");
        } else if (((Number) a).doubleValue() == 0 && ((Number) b).doubleValue() == 0
                && (isNegativeZero(a) || isNegativeZero(b))) {
            parts.add("-0.0 equals 0");
        } else if (a instanceof Float && b instanceof Double && finite(a)
                && exact(a).compareTo(exact(b)) != 0 && (float) (double) (Double) b == (Float) a) {
            parts.add("the float widens exactly, the double keeps its precision");
        } else if (a instanceof Double && b instanceof Float && finite(b)
                && exact(a).compareTo(exact(b)) != 0 && (float) (double) (Double) a == (Float) b) {
            parts.add("the float widens exactly, the double keeps its precision");
        }
        return String.join("; ", parts);
    }

    public static void main(String[] args) {
        boolean bits = args.length > 0 && args[0].equals("bits");
        String mode = bits ? (args.length > 1 ? args[1] : "promotion") : (args.length > 0 ? args[0] : "promotion");
        Corpus c;
        switch (mode) {
            case "promotion":
                c = new Corpus("promo");
                binaryGrid(c);
                unaryGrid(c);
                literalGrid(c);
                break;
            case "compare":
                c = new Corpus("cmp");
                compareGrid(c);
                break;
            default:
                System.err.println("usage: PromotionOracle [promotion|compare|bits promotion|bits compare]");
                System.exit(2);
                return;
        }
        StringBuilder out = new StringBuilder();
        for (String line : bits ? c.floats : c.lines) out.append(line).append('\n');
        System.out.print(out);
    }
}
