// Prints jmsctl/spec/javachars.py: the code point ranges for which Java's
// Character.isJavaIdentifierStart / isJavaIdentifierPart hold, so that the Python
// lexer accepts exactly the identifiers the javadoc's "Java letter" rule accepts.
// Regenerate: javac -d /tmp/jc scripts/java/JavaChars.java && java -cp /tmp/jc JavaChars > jmsctl/spec/javachars.py
public class JavaChars {
    interface Pred { boolean test(int cp); }

    static String ranges(Pred p) {
        StringBuilder sb = new StringBuilder();
        int cp = 0;
        int count = 0;
        while (cp <= Character.MAX_CODE_POINT) {
            if (p.test(cp)) {
                int start = cp;
                while (cp + 1 <= Character.MAX_CODE_POINT && p.test(cp + 1)) cp++;
                sb.append(String.format("    (0x%04X, 0x%04X),%n", start, cp));
                count++;
            }
            cp++;
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        System.out.println("\"\"\"Java identifier characters, generated from Java "
            + System.getProperty("java.version") + " by scripts/java/JavaChars.java; do not edit.");
        System.out.println();
        System.out.println("Ranges are inclusive code point pairs: Character.isJavaIdentifierStart / Part.");
        System.out.println("\"\"\"");
        System.out.println();
        System.out.println("JAVA_VERSION = \"" + System.getProperty("java.version") + "\"");
        System.out.println();
        System.out.println("IDENTIFIER_START: tuple[tuple[int, int], ...] = (");
        System.out.print(ranges(Character::isJavaIdentifierStart));
        System.out.println(")");
        System.out.println();
        System.out.println("IDENTIFIER_PART: tuple[tuple[int, int], ...] = (");
        System.out.print(ranges(Character::isJavaIdentifierPart));
        System.out.println(")");
    }
}
