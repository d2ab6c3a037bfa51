// jmsctl's bridge to a provider's JMS client (jmsctl/brokers/jms.py): a message read as one line of
// jmsctl's NDJSON (docs/FORMAT.md) in ONE call from Python, instead of one call per header and
// property, and a browse drained by a thread of its own so that Python waits with a timeout.
// @JMS@ is javax.jms or jakarta.jms: jms.py fills it in from the provider's jars and compiles this
// file once per provider API (cached). An ObjectMessage is never deserialized.
import @JMS@.*;
import java.util.Base64;
import java.util.Enumeration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

public final class JmsctlBridge {
    public static final String END = "\u0000end";
    public static final String FAILED = "\u0000failed ";
    public static final String REJECTED = "\u0000rejected ";

    /** A browse (or any enumeration of messages) drained into a bounded queue by a daemon thread. */
    public static final class Feed implements Runnable {
        private final Enumeration<?> messages;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>(4096);
        private volatile boolean stopped;

        private final Thread thread;

        public Feed(Enumeration<?> messages) {
            this.messages = messages;
            Thread t = new Thread(this, "jmsctl-browse");
            t.setDaemon(true);
            thread = t;
            t.start();
        }

        public void run() {
            String last = END;
            try {
                long position = 0;
                while (!stopped && messages.hasMoreElements()) {
                    Object next = messages.nextElement();
                    if (next == null) {  // ActiveMQ's browser, its connection gone
                        throw new java.lang.IllegalStateException("the browse gave no message where it said there was one");
                    }
                    position++;
                    String line;
                    try {
                        line = toJson((Message) next);
                    } catch (JMSException | RuntimeException e) {  // one message the client cannot decode: the browse goes on
                        line = rejected((Message) next, position, e);
                    }
                    lines.put(line);
                }
            } catch (Throwable e) {
                last = FAILED + describe(e);
            }
            try {
                lines.put(last);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Up to max lines joined by newlines; null when none came within timeoutMillis. */
        public String take(int max, long timeoutMillis) throws InterruptedException {
            String first = lines.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            if (first == null) {
                return null;
            }
            StringBuilder out = new StringBuilder(first);
            for (int i = 1; i < max && !first.startsWith("\u0000"); i++) {
                String next = lines.poll();
                if (next == null) {
                    break;
                }
                out.append('\n').append(next);
                first = next;
            }
            return out.toString();
        }

        /** Waits up to millis for the draining thread to end (after stop, and the browser closed). */
        public void join(long millis) throws InterruptedException {
            lines.clear();
            thread.join(millis);
        }

        public void stop() {
            stopped = true;
            lines.clear();
        }
    }

    /** The connection's ExceptionListener: a broker that dies or a connection that drops is said
     *  here (the provider's own thread), where Python looks between two waits of a browse or watch,
     *  instead of a browse that waits forever for the rest of its enumeration. */
    public static final class Watchdog implements ExceptionListener {
        private volatile String failure;

        public void onException(JMSException e) {
            if (failure == null) failure = describe(e);
        }

        public String failure() {
            return failure;
        }
    }

    /** Sets typed properties from their Java text (String.valueOf of the value, read back with the
     *  type's valueOf, so exactly): one call per message instead of one per property. Returns the
     *  refused ones, "name TAB reason" a line, or null. */
    public static String setProperties(Message m, String[] names, String[] types, String[] values) {
        StringBuilder refused = null;
        for (int i = 0; i < names.length; i++) {
            String name = names[i];
            String v = values[i];
            try {
                switch (types[i]) {
                    case "boolean": m.setBooleanProperty(name, Boolean.parseBoolean(v)); break;
                    case "byte": m.setByteProperty(name, Byte.parseByte(v)); break;
                    case "short": m.setShortProperty(name, Short.parseShort(v)); break;
                    case "int": m.setIntProperty(name, Integer.parseInt(v)); break;
                    case "long": m.setLongProperty(name, Long.parseLong(v)); break;
                    case "float": m.setFloatProperty(name, Float.parseFloat(v)); break;
                    case "double": m.setDoubleProperty(name, Double.parseDouble(v)); break;
                    default: m.setStringProperty(name, v); break;
                }
            } catch (JMSException | RuntimeException e) {
                if (refused == null) refused = new StringBuilder();
                refused.append(name).append('\t').append(describe(e)).append('\n');
            }
        }
        return refused == null ? null : refused.toString();
    }

    /** A message toJson cannot write (ActiveMQ's client reads a text holding a character outside the
     *  BMP, sent over STOMP, as a UTFDataFormatException): REJECTED and a JSON object with its
     *  position in the browse, its JMSMessageID when the client gives it, the reason, and the body's
     *  bytes as the client holds them (ActiveMQ Classic: getContent, by reflection) when it can. */
    static String rejected(Message m, long position, Throwable e) {
        StringBuilder out = new StringBuilder(REJECTED).append("{\"position\":").append(position);
        try {
            String id = m.getJMSMessageID();
            if (id != null) string(out.append(",\"id\":"), id);
        } catch (JMSException | RuntimeException ignored) {
            // no id: the position names it
        }
        string(out.append(",\"reason\":"), describe(e));
        byte[] raw = serialized(m);
        if (raw != null) string(out.append(",\"raw\":"), Base64.getEncoder().encodeToString(raw));
        return out.append('}').toString();
    }

    /** An exception and its causes in one line. */
    public static String describe(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null && out.length() < 500; t = t.getCause()) {
            String text = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (t == e && t instanceof JMSException && t.getClass() != JMSException.class) {
                text = t.getClass().getSimpleName() + ": " + text;  // InvalidSelectorException, InvalidDestinationException...
            }
            if (out.indexOf(text) < 0) {
                if (out.length() > 0) out.append(": ");
                out.append(text);
            }
            if (t.getCause() == t) break;
        }
        return out.toString().replace('\n', ' ');
    }

    public static String toJson(Message m) throws JMSException {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"type\":\"").append(kind(m)).append("\",\"headers\":{");
        int n = 0;
        n = field(out, n, "JMSMessageID", m.getJMSMessageID());
        n = number(out, n, "JMSTimestamp", m.getJMSTimestamp());
        n = field(out, n, "JMSCorrelationID", m.getJMSCorrelationID());
        n = field(out, n, "JMSType", m.getJMSType());
        n = field(out, n, "JMSDeliveryMode", m.getJMSDeliveryMode() == DeliveryMode.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT");
        n = number(out, n, "JMSPriority", m.getJMSPriority());
        n = field(out, n, "JMSDestination", destination(m.getJMSDestination()));
        n = field(out, n, "JMSReplyTo", destination(m.getJMSReplyTo()));
        n = number(out, n, "JMSExpiration", m.getJMSExpiration());
        sep(out, n).append("\"JMSRedelivered\":").append(m.getJMSRedelivered());
        out.append("},\"properties\":{");
        n = 0;
        for (Enumeration<?> e = m.getPropertyNames(); e.hasMoreElements(); ) {
            String name = (String) e.nextElement();
            Object v = m.getObjectProperty(name);
            if (v != null) {
                string(sep(out, n++), name).append(':');
                value(out, v);
            }
        }
        out.append('}');
        body(out, m);
        originOf(out, m);
        return out.append('}').toString();
    }

    private static String kind(Message m) {
        if (m instanceof TextMessage) return "text";
        if (m instanceof BytesMessage) return "bytes";
        if (m instanceof MapMessage) return "map";
        if (m instanceof StreamMessage) return "stream";
        if (m instanceof ObjectMessage) return "object";
        return "message";
    }

    /** A BytesMessage's whole body, read from the start and left at the start again (the same
     *  message is both written out and copied). */
    private static byte[] bytesOf(BytesMessage b) throws JMSException {
        b.reset();
        byte[] data = new byte[(int) b.getBodyLength()];
        b.readBytes(data);
        b.reset();
        return data;
    }

    private static void body(StringBuilder out, Message m) throws JMSException {
        if (m instanceof TextMessage) {
            String text = ((TextMessage) m).getText();
            if (text != null) string(out.append(",\"body\":"), text);
        } else if (m instanceof BytesMessage) {
            string(out.append(",\"body\":"), Base64.getEncoder().encodeToString(bytesOf((BytesMessage) m)));
        } else if (m instanceof MapMessage) {
            MapMessage map = (MapMessage) m;
            out.append(",\"body\":{");
            int n = 0;
            for (Enumeration<?> e = map.getMapNames(); e.hasMoreElements(); ) {
                String name = (String) e.nextElement();
                string(sep(out, n++), name).append(':');
                value(out, map.getObject(name));
            }
            out.append('}');
        } else if (m instanceof StreamMessage) {
            StreamMessage s = (StreamMessage) m;
            s.reset();
            out.append(",\"body\":[");
            int n = 0;
            try {
                while (true) {
                    Object v = s.readObject();
                    value(sep(out, n++), v);
                }
            } catch (MessageEOFException end) {
                s.reset();
            }
            out.append(']');
        } else if (m instanceof ObjectMessage) {
            byte[] serialized = serialized(m);
            if (serialized != null) {
                string(out.append(",\"body\":"), Base64.getEncoder().encodeToString(serialized));
            } else {
                out.append(",\"source\":{\"body_lost\":\"an ObjectMessage body is never deserialized; this client gives no serialized bytes\"}");
            }
        }
    }

    /** ActiveMQ Classic keeps a message's body bytes as they came (getContent(), a ByteSequence; an
     *  ObjectMessage's serialized bytes): read them by reflection, never getObject(). Null for other
     *  providers or a compressed body. */
    private static byte[] serialized(Message m) {
        try {
            Object compressed = m.getClass().getMethod("isCompressed").invoke(m);
            if (Boolean.TRUE.equals(compressed)) return null;
            Object seq = m.getClass().getMethod("getContent").invoke(m);
            if (seq == null) return new byte[0];
            byte[] data = (byte[]) seq.getClass().getMethod("getData").invoke(seq);
            int offset = (Integer) seq.getClass().getMethod("getOffset").invoke(seq);
            int length = (Integer) seq.getClass().getMethod("getLength").invoke(seq);
            return java.util.Arrays.copyOfRange(data, offset, offset + length);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static String destination(Destination d) throws JMSException {
        if (d == null) return null;
        if (d instanceof Queue) return "queue://" + ((Queue) d).getQueueName();
        if (d instanceof Topic) return "topic://" + ((Topic) d).getTopicName();
        return d.toString();
    }

    private static StringBuilder sep(StringBuilder out, int n) {
        return n > 0 ? out.append(',') : out;
    }

    private static int field(StringBuilder out, int n, String name, String value) {
        if (value == null) return n;
        string(sep(out, n), name).append(':');
        string(out, value);
        return n + 1;
    }

    private static int number(StringBuilder out, int n, String name, long value) {
        string(sep(out, n), name).append(':').append(value);
        return n + 1;
    }

    private static void value(StringBuilder out, Object v) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String) {
            string(out, (String) v);
        } else if (v instanceof Boolean) {
            out.append(v);
        } else if (v instanceof byte[]) {
            string(out.append("{\"type\":\"bytes\",\"value\":"), Base64.getEncoder().encodeToString((byte[]) v)).append('}');
        } else if (v instanceof Character) {
            string(out, v.toString());  // a char map entry or stream item: no property type holds it, its text does
        } else {
            String type = v instanceof Integer ? "int" : v instanceof Long ? "long" : v instanceof Short ? "short"
                    : v instanceof Byte ? "byte" : v instanceof Float ? "float" : v instanceof Double ? "double" : null;
            if (type == null) {
                string(out, v.toString());
                return;
            }
            out.append("{\"type\":\"").append(type).append("\",\"value\":");
            if ((v instanceof Float || v instanceof Double) && (Double.isNaN(((Number) v).doubleValue()) || Double.isInfinite(((Number) v).doubleValue()))) {
                string(out, v.toString());
            } else {
                out.append(v);
            }
            out.append('}');
        }
    }

    private static StringBuilder string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c) && !paired(s, i)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }

    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    // ----- move, copy, purge (jmsctl/brokers/jms_mover.py) --------------------------------------

    /** Consumes from a queue in a transacted session and, unless purging, sends a faithful copy of
     *  each message to a destination (or to the one the broker recorded as its origin), so that the
     *  consume and the send commit or roll back together. */
    public static final class Mover {
        private final Session session;
        private final Queue source;
        private final Destination target;  // null: purge, or each message's origin
        private final boolean toOrigin;
        private final MessageProducer producer;
        private MessageConsumer consumer;
        public final String idProperty;
        public final String destinationProperty;

        public Mover(Connection connection, String src, String dst, boolean toOrigin, String idProperty, String destinationProperty)
                throws JMSException {
            session = connection.createSession(true, Session.SESSION_TRANSACTED);
            source = session.createQueue(src);
            this.toOrigin = toOrigin;
            target = dst == null ? null : dst.startsWith("topic://") ? session.createTopic(dst.substring(8))
                    : session.createQueue(dst.startsWith("queue://") ? dst.substring(8) : dst);
            producer = dst == null && !toOrigin ? null : session.createProducer(null);
            this.idProperty = idProperty;
            this.destinationProperty = destinationProperty;
        }

        /** A consumer on the source with this selector (the last one closed: call after a commit). */
        public void select(String selector) throws JMSException {
            if (consumer != null) consumer.close();
            consumer = session.createConsumer(source, selector);
        }

        /** Up to max messages received and sent on, in the open transaction: the first waited for
         *  up to waitMillis, the others up to pauseMillis (a broker that stops delivering mid-batch,
         *  as ActiveMQ does past maxPageSize messages in one transaction, ends the batch early); their
         *  NDJSON lines (full) or their JMSMessageIDs, joined by newlines; "" when none came. */
        public String take(int max, long waitMillis, long pauseMillis, boolean full) throws JMSException {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < max; i++) {
                Message m = consumer.receive(i == 0 ? waitMillis : Math.min(waitMillis, pauseMillis));
                if (m == null) break;
                String line = full ? toJson(m) : m.getJMSMessageID();
                if (producer != null) {
                    Destination to = toOrigin ? origin(m) : target;
                    if (to == null) throw new JMSException("message " + m.getJMSMessageID() + " has no original destination");
                    long ttl = 0;
                    if (m.getJMSExpiration() > 0) ttl = Math.max(1, m.getJMSExpiration() - System.currentTimeMillis());
                    producer.send(to, copy(session, m, idProperty, destinationProperty), m.getJMSDeliveryMode(), m.getJMSPriority(), ttl);
                }
                if (out.length() > 0) out.append('\n');
                out.append(line);
            }
            return out.toString();
        }

        public void commit() throws JMSException {
            session.commit();
        }

        public void rollback() throws JMSException {
            session.rollback();
        }

        public void close() throws JMSException {
            session.close();
        }
    }

    /** source.origin: where the broker had the message before it dead-lettered it (ActiveMQ Classic),
     *  merged into a source object body() may have written. */
    private static void originOf(StringBuilder out, Message m) throws JMSException {
        String origin = destination(origin(m));
        if (origin == null) return;
        String fact = "\"origin\":";
        if (m instanceof ObjectMessage && out.lastIndexOf(",\"source\":{") >= 0) {
            int at = out.lastIndexOf(",\"source\":{") + ",\"source\":{".length();
            out.insert(at, string(new StringBuilder(fact), origin).append(','));
        } else {
            string(out.append(",\"source\":{").append(fact), origin).append('}');
        }
    }

    /** The destination ActiveMQ Classic recorded when it dead-lettered the message (its
     *  originalDestination field, apache/activemq activemq-client/.../command/Message.java), by
     *  reflection; null for other providers or a message that has none. */
    public static Destination origin(Message m) {
        try {
            Object d = m.getClass().getMethod("getOriginalDestination").invoke(m);
            return d instanceof Destination ? (Destination) d : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** A new message with m's body, properties (with their types), JMSType, JMSCorrelationID and
     *  JMSReplyTo, and m's id and destination in two properties. JMSXDeliveryCount is the broker's. */
    public static Message copy(Session s, Message m, String idProperty, String destinationProperty) throws JMSException {
        Message out;
        if (m instanceof TextMessage) {
            out = s.createTextMessage(((TextMessage) m).getText());
        } else if (m instanceof BytesMessage) {
            BytesMessage o = s.createBytesMessage();
            o.writeBytes(bytesOf((BytesMessage) m));
            out = o;
        } else if (m instanceof MapMessage) {
            MapMessage map = (MapMessage) m;
            MapMessage o = s.createMapMessage();
            for (Enumeration<?> e = map.getMapNames(); e.hasMoreElements(); ) {
                String name = (String) e.nextElement();
                o.setObject(name, map.getObject(name));
            }
            out = o;
        } else if (m instanceof StreamMessage) {
            StreamMessage st = (StreamMessage) m;
            st.reset();
            StreamMessage o = s.createStreamMessage();
            try {
                while (true) o.writeObject(st.readObject());
            } catch (MessageEOFException end) {
                st.reset();
            }
            out = o;
        } else if (m instanceof ObjectMessage) {
            ObjectMessage o = s.createObjectMessage();
            byte[] serialized = serialized(m);
            if (serialized == null) throw new JMSException("message " + m.getJMSMessageID() + ": an ObjectMessage body this client gives no bytes of (never deserialized)");
            try {
                Class<?> seq = Class.forName("org.apache.activemq.util.ByteSequence", true, o.getClass().getClassLoader());
                o.getClass().getMethod("setContent", seq).invoke(o, seq.getConstructor(byte[].class).newInstance((Object) serialized));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new JMSException("message " + m.getJMSMessageID() + ": cannot copy an ObjectMessage body without deserializing it: " + describe(e));
            }
            out = o;
        } else {
            out = s.createMessage();
        }
        out.setJMSType(m.getJMSType());
        out.setJMSCorrelationID(m.getJMSCorrelationID());
        out.setJMSReplyTo(m.getJMSReplyTo());
        for (Enumeration<?> e = m.getPropertyNames(); e.hasMoreElements(); ) {
            String name = (String) e.nextElement();
            Object v = m.getObjectProperty(name);
            if (v != null && !name.equals("JMSXDeliveryCount")) out.setObjectProperty(name, v);
        }
        out.setStringProperty(idProperty, m.getJMSMessageID());
        String from = destination(m.getJMSDestination());
        if (from != null) out.setStringProperty(destinationProperty, from);
        return out;
    }
}
