// Maintainers' differential harness (scripts/artemis_differential.py): Artemis's selector engine built
// from an Artemis checkout, fed the line protocol of tests/activemq_engine.py. The message is read as
// the reference runs behind tests/conformance/brokers/artemis.jsonl read it: the JMS client's
// SelectorTranslator, then the server's trim(); AMQPriority, AMQTimestamp, AMQExpiration, AMQUserID
// and AMQDurable from the headers (NULL when absent; JMSDeliveryMode a string or the number 2 / 1, DeliveryModes.java); JMSXGroupSeq absent (the client keeps it in
// the core group sequence); everything else a property.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.selector.filter.*;
import org.apache.activemq.artemis.selector.impl.SelectorParser;
import org.apache.activemq.artemis.utils.SelectorTranslator;

public final class ArtemisSelectorHarness {
    static String text(String b64) { return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8); }
    static Object value(String type, String v) {
        switch (type) {
            case "string": return text(v);
            case "boolean": return Boolean.valueOf(v);
            case "byte": return Byte.valueOf(v);
            case "short": return Short.valueOf(v);
            case "int": return Integer.valueOf(v);
            case "long": return Long.valueOf(v);
            case "float": return Float.valueOf(v);
            case "double": return Double.valueOf(v);
            default: return null;
        }
    }
    static String run(String line) {
        String[] fields = line.split("\t", -1);
        Map<String, Object> h = new HashMap<>(), p = new HashMap<>();
        for (int i = 1; i < fields.length; i++) {
            String[] f = fields[i].split(",", 4);
            Object v = value(f[2], f[3]);
            if (v != null) (f[0].equals("H") ? h : p).put(text(f[1]), v);
        }
        String sel = SelectorTranslator.convertToActiveMQFilterString(text(fields[0]));
        sel = sel.trim();
        if (sel.isEmpty()) return text(fields[0]).isEmpty() ? "match" : "error blank";
        BooleanExpression e;
        try { e = SelectorParser.parse(sel); } catch (Throwable t) { return "error " + t.getClass().getName(); }
        Filterable m = new Filterable() {
            public <T> T getBodyAs(Class<T> type) { return null; }
            public Object getLocalConnectionId() { return null; }
            public Object getProperty(SimpleString id) {
                String n = id.toString();
                switch (n) {
                    case "AMQPriority": return h.get("JMSPriority");
                    case "AMQTimestamp": return h.get("JMSTimestamp");
                    case "AMQExpiration": return h.get("JMSExpiration");
                    case "AMQUserID": return h.get("JMSMessageID");
                    case "AMQGroupID": return p.get("JMSXGroupID");
                    case "AMQDurable": return DeliveryModes.durable(h.get("JMSDeliveryMode"));  // "PERSISTENT" or 2
                    case "JMSType": case "JMSCorrelationID": return h.get(n);
                    case "JMSXGroupSeq": return null;
                    default: return p.get(n);
                }
            }
        };
        try { return e.matches(m) ? "match" : "nomatch"; } catch (Throwable t) { return "exception " + t.getClass().getName(); }
    }
    public static void main(String[] a) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) { out.println(run(line)); out.flush(); }
    }
}
