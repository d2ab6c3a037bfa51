// JMSDeliveryMode as the Artemis harness (ArtemisSelectorHarness.java) hands it to Artemis's
// AMQDurable: the dump format writes the header as the string "PERSISTENT" / "NON_PERSISTENT" or as
// the javadoc's number (jakarta.jms.DeliveryMode: PERSISTENT = 2, NON_PERSISTENT = 1).
// `java scripts/java/DeliveryModes.java 2 1 PERSISTENT` prints each argument's AMQDurable value.
public final class DeliveryModes {
    static final int PERSISTENT = 2;  // jakarta.jms.DeliveryMode.PERSISTENT

    static String durable(Object mode) {
        if (mode == null) return null;
        if (mode instanceof Number) return ((Number) mode).intValue() == PERSISTENT ? "DURABLE" : "NON_DURABLE";
        return "PERSISTENT".equals(mode) || String.valueOf(PERSISTENT).equals(mode) ? "DURABLE" : "NON_DURABLE";
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        for (String a : args) {
            Object mode = a.matches("-?[0-9]+") ? (Object) Integer.valueOf(a) : a;
            out.append(out.length() == 0 ? "" : " ").append(durable(mode));
        }
        System.out.println(out);
    }
}
