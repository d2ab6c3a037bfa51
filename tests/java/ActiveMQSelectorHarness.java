// Differential-test harness: ActiveMQ Classic's own selector engine (Debian libactivemq-java,
// /usr/share/java/activemq-client.jar) evaluating selectors on messages, one case per stdin line.
//
// Input line: fields separated by TAB. Field 0 is the selector, base64 (UTF-8). Each further field
// is KIND,NAME,TYPE,VALUE: KIND is H (header) or P (property); NAME is base64; TYPE is one of
// string boolean byte short int long float double null; VALUE is base64 for string, else Java text
// (Float.parseFloat / Double.parseDouble read NaN, Infinity, -Infinity).
// Output line: "match", "nomatch", "error <message>" (the parser rejected the selector),
// "exception <class>" (evaluation threw: the broker does not deliver) or "unsendable <message>" (the
// client refuses to set a value on the message, so no such message reaches the broker). Nothing is cached between
// lines except SelectorParser's own cache of parsed selectors, which is what a broker does too.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import javax.jms.DeliveryMode;
import javax.jms.InvalidSelectorException;

import org.apache.activemq.command.ActiveMQDestination;
import org.apache.activemq.command.ActiveMQMessage;
import org.apache.activemq.filter.BooleanExpression;
import org.apache.activemq.filter.MessageEvaluationContext;
import org.apache.activemq.selector.SelectorParser;

public final class ActiveMQSelectorHarness {
    private static String text(String b64) {
        return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
    }

    private static Object value(String type, String v) {
        switch (type) {
            case "string": return text(v);
            case "boolean": return Boolean.valueOf(v);
            case "byte": return Byte.valueOf(v);
            case "short": return Short.valueOf(v);
            case "int": return Integer.valueOf(v);
            case "long": return Long.valueOf(v);
            case "float": return Float.valueOf(v);
            case "double": return Double.valueOf(v);
            case "null": return null;
            default: throw new IllegalArgumentException("unknown type " + type);
        }
    }

    /** "queue://name" or "topic://name", as the dump format writes destinations. */
    private static ActiveMQDestination destination(String uri) {
        return ActiveMQDestination.createDestination(uri, ActiveMQDestination.QUEUE_TYPE);
    }

    private static void header(ActiveMQMessage m, String name, Object v) throws Exception {
        switch (name) {
            case "JMSType": m.setJMSType((String) v); break;
            case "JMSMessageID": m.setJMSMessageID((String) v); break;
            case "JMSCorrelationID": m.setJMSCorrelationID((String) v); break;
            case "JMSPriority": m.setJMSPriority(((Number) v).intValue()); break;
            case "JMSTimestamp": m.setJMSTimestamp(((Number) v).longValue()); break;
            case "JMSExpiration": m.setJMSExpiration(((Number) v).longValue()); break;
            case "JMSRedelivered": m.setJMSRedelivered((Boolean) v); break;
            case "JMSDestination": m.setJMSDestination(destination((String) v)); break;
            case "JMSReplyTo": m.setJMSReplyTo(destination((String) v)); break;
            case "JMSDeliveryMode":
                // FORMAT.md's names, or the javax.jms.DeliveryMode integers (1 NON_PERSISTENT, 2 PERSISTENT)
                if (v instanceof Number) m.setJMSDeliveryMode(((Number) v).intValue());
                else m.setJMSDeliveryMode("NON_PERSISTENT".equals(v) ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
                break;
            default: throw new IllegalArgumentException("unknown header " + name);
        }
    }

    private static String run(String line) throws Exception {
        String[] fields = line.split("\t", -1);
        ActiveMQMessage m = new ActiveMQMessage();
        for (int i = 1; i < fields.length; i++) {
            String[] f = fields[i].split(",", 4);
            String name = text(f[1]);
            Object v = value(f[2], f[3]);
            try {
                if (f[0].equals("H")) {
                    if (v != null) header(m, name, v);
                } else {
                    m.setObjectProperty(name, v);
                }
            } catch (javax.jms.JMSException e) {  // ActiveMQ refuses the value (JMSXGroupSeq as a long): no such message
                return "unsendable " + String.valueOf(e.getMessage()).replace('\n', ' ');
            }
        }
        BooleanExpression expr;
        try {
            expr = SelectorParser.parse(text(fields[0]));
        } catch (InvalidSelectorException e) {
            return "error " + String.valueOf(e.getMessage()).replace('\n', ' ').replace('\r', ' ');
        }
        MessageEvaluationContext ctx = new MessageEvaluationContext();
        ctx.setMessageReference(m);
        try {
            return expr.matches(ctx) ? "match" : "nomatch";
        } catch (Exception | StackOverflowError e) {
            return "exception " + e.getClass().getName();
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                answer = run(line);
            } catch (Exception e) {
                answer = "harness " + e.getClass().getName() + ": " + String.valueOf(e.getMessage()).replace('\n', ' ');
            }
            out.println(answer);
            out.flush();
        }
    }
}
