// Capture real `activemq browse` output: an embedded ActiveMQ Classic broker (Debian's libactivemq-java
// 5.17.2) on 127.0.0.1, messages of every kind sent to queue "orders" with typed properties, then the
// console's own browse command (org.apache.activemq.console.command.ShellCommand: MapTransformFilter and
// CommandShellOutputFormatter, the code behind `activemq browse --amqurl URL orders`) printing them.
// stdout: the browse text; stderr: the messages sent, one JSON line each, for the test to compare.
// Used by scripts/capture_activemq_browse.sh; its output is tests/fixtures/formats/activemq-browse/real-5.17.2.*

import java.io.PrintStream;
import javax.jms.*;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.console.command.ShellCommand;

public class BrowseCapture {
    public static void main(String[] args) throws Exception {
        BrokerService broker = new BrokerService();
        broker.setPersistent(false);
        broker.setUseJmx(false);
        broker.setBrokerName("capture");
        broker.addConnector("tcp://127.0.0.1:61719");
        broker.start();
        ConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:61719");
        Connection c = cf.createConnection();
        c.start();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageProducer p = s.createProducer(q);
        PrintStream err = System.err;

        TextMessage t = s.createTextMessage("first line\nsecond line");
        t.setIntProperty("weight", 2600);
        t.setStringProperty("color", "blue");
        t.setStringProperty("note", "x = y");
        t.setDoubleProperty("ratio", 0.5);
        t.setBooleanProperty("express", true);
        t.setLongProperty("orderId", 4294967396L);
        t.setJMSType("car");
        t.setJMSCorrelationID("corr-1");
        t.setStringProperty("JMSXGroupID", "g1");
        p.send(t, DeliveryMode.PERSISTENT, 7, 0);
        err.println("{\"kind\":\"text\",\"id\":\"" + t.getJMSMessageID() + "\",\"priority\":7,\"mode\":\"PERSISTENT\",\"timestamp\":" + t.getJMSTimestamp() + "}");

        MapMessage m = s.createMapMessage();
        m.setInt("qty", 3);
        m.setString("sku", "TRU-1");
        m.setShortProperty("discount", (short) 15);
        p.send(m, DeliveryMode.NON_PERSISTENT, 4, 60000);
        err.println("{\"kind\":\"map\",\"id\":\"" + m.getJMSMessageID() + "\",\"priority\":4,\"mode\":\"NON_PERSISTENT\",\"timestamp\":" + m.getJMSTimestamp() + ",\"expiration\":" + m.getJMSExpiration() + "}");

        BytesMessage b = s.createBytesMessage();
        b.writeBytes(new byte[] {1, 2, 3, 4, 5});
        b.setFloatProperty("unitPrice", 12.5f);
        p.send(b, DeliveryMode.PERSISTENT, 4, 0);
        err.println("{\"kind\":\"bytes\",\"id\":\"" + b.getJMSMessageID() + "\",\"priority\":4,\"mode\":\"PERSISTENT\",\"timestamp\":" + b.getJMSTimestamp() + "}");

        Message plain = s.createMessage();
        plain.setByteProperty("rating", (byte) -1);
        plain.setJMSReplyTo(s.createQueue("replies"));
        p.send(plain, DeliveryMode.PERSISTENT, 0, 0);
        err.println("{\"kind\":\"message\",\"id\":\"" + plain.getJMSMessageID() + "\",\"priority\":0,\"mode\":\"PERSISTENT\",\"timestamp\":" + plain.getJMSTimestamp() + "}");

        ObjectMessage o = s.createObjectMessage("an object");  // java.lang is trusted: browse deserializes the object to print it
        p.send(o, DeliveryMode.PERSISTENT, 4, 0);
        err.println("{\"kind\":\"object\",\"id\":\"" + o.getJMSMessageID() + "\",\"priority\":4,\"mode\":\"PERSISTENT\",\"timestamp\":" + o.getJMSTimestamp() + "}");
        c.close();

        ShellCommand.main(new String[] {"browse", "--amqurl", "tcp://127.0.0.1:61719", "orders"}, System.in, System.out);
        System.out.flush();
        broker.stop();
        System.exit(0);
    }
}
