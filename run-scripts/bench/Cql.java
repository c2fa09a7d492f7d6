import com.datastax.oss.driver.api.core.CqlSession;
import java.net.InetSocketAddress;

/**
 * Runs CQL statements against one node, for the benchmark scripts (a reference client's table,
 * which the harness does not create): {@code java -cp "<the driver's jars>" Cql.java HOST:PORT
 * STATEMENT…}, in the embedded cluster's data center.
 */
public class Cql {
  public static void main(String[] args) {
    String host = args[0].substring(0, args[0].lastIndexOf(':'));
    int port = Integer.parseInt(args[0].substring(args[0].lastIndexOf(':') + 1));
    try (CqlSession session = CqlSession.builder().addContactPoint(new InetSocketAddress(host, port))
        .withLocalDatacenter("datacenter1").build()) {
      for (int i = 1; i < args.length; i++) {
        session.execute(args[i]);
      }
    }
  }
}
