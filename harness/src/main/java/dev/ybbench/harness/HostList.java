package dev.ybbench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A node list in YugabyteDB's form: {@code host[:port],host[:port],…} as given by --hosts or the
 * environment (see {@link ServerTarget}); a missing port takes the API's default (5433 YSQL, 9042 YCQL).
 */
public record HostList(List<HostPort> hosts) {
  public record HostPort(String host, int port) {
    @Override
    public String toString() {
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  public static HostList parse(String spec, int defaultPort) {
    if (spec == null || spec.isBlank()) {
      throw new UserError("The host list is empty; give --hosts host[:port],…");
    }
    List<HostPort> out = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String h = raw.strip();
      if (h.isEmpty()) {
        continue;
      }
      int scheme = h.indexOf("://");
      if (scheme >= 0 || h.contains("/")) {
        // A URL (http://…, jdbc:postgresql://…) would otherwise become a host named after it.
        String bare = (scheme >= 0 ? h.substring(scheme + 3) : h).replaceFirst("[/?].*$", "");
        throw new UserError("The host list takes host[:port],…, not a URL: give '" + bare + "' for '" + h + "'");
      }
      String host = h;
      int port = defaultPort;
      int colon = h.lastIndexOf(':');
      if (h.startsWith("[")) { // [ipv6]:port
        int close = h.indexOf(']');
        host = h.substring(1, close);
        if (close + 1 < h.length() && h.charAt(close + 1) == ':') {
          port = parsePort(h.substring(close + 2), h);
        }
      } else if (colon > 0 && h.indexOf(':') == colon) {
        host = h.substring(0, colon);
        port = parsePort(h.substring(colon + 1), h);
      }
      out.add(new HostPort(host, port));
    }
    if (out.isEmpty()) {
      throw new UserError("The host list '" + spec + "' names no host; give --hosts host[:port],…");
    }
    return new HostList(List.copyOf(out));
  }

  private static int parsePort(String p, String entry) {
    try {
      int port = Integer.parseInt(p);
      if (port > 0 && port < 65536) {
        return port;
      }
    } catch (NumberFormatException ignored) {
      // fall through to the error
    }
    throw new UserError("Bad port in host '" + entry + "'; use host[:port] with a port from 1 to 65535");
  }

  /** "h1:5433,h2:5433" */
  @Override
  public String toString() {
    return hosts.stream().map(HostPort::toString).collect(Collectors.joining(","));
  }
}
