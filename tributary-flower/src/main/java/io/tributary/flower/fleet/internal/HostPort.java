package io.tributary.flower.fleet.internal;

/**
 * A SuperLink address, {@code HOST:PORT} with an IPv6 host in brackets, checked before anything
 * connects: a port in [1, 65535] is required, since a missing one would silently mean port 80.
 *
 * @param host the host name or address, IPv6 without its brackets
 * @param port the port
 */
public record HostPort(String host, int port) {
  private static final int MAX_ECHO = 60;

  /** Parses {@code HOST:PORT} or {@code [IPV6]:PORT}; a one-line error names what is wrong. */
  public static HostPort parse(String address) {
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException("the SuperLink address is empty, expected HOST:PORT");
    }
    String a = address.strip();
    String host;
    String port;
    if (a.startsWith("[")) {
      int close = a.indexOf(']');
      if (close < 0) {
        throw bad(address, "an IPv6 host lacks its ']'");
      }
      host = a.substring(1, close);
      if (host.isEmpty() || !host.matches("[0-9A-Fa-f:.%a-zA-Z]+") || !host.contains(":")) {
        throw bad(address, "not an IPv6 address in brackets");
      }
      if (close + 1 >= a.length() || a.charAt(close + 1) != ':') {
        throw bad(address, "no port");
      }
      port = a.substring(close + 2);
    } else {
      int colon = a.lastIndexOf(':');
      if (colon < 0) {
        throw bad(address, "no port");
      }
      host = a.substring(0, colon);
      port = a.substring(colon + 1);
      if (host.contains(":")) {
        throw bad(address, "an IPv6 host must be in brackets, as [::1]:9092");
      }
      if (host.isEmpty() || !host.matches("[A-Za-z0-9._-]+")) {
        throw bad(address, "not a host name or address");
      }
    }
    if (!port.matches("[0-9]{1,5}")) {
      throw bad(address, "the port is not a number in [1, 65535]");
    }
    int p = Integer.parseInt(port);
    if (p < 1 || p > 65535) {
      throw bad(address, "the port is not a number in [1, 65535]");
    }
    return new HostPort(host, p);
  }

  private static IllegalArgumentException bad(String address, String why) {
    String shown = address.length() > MAX_ECHO ? address.substring(0, MAX_ECHO) + "..." : address;
    return new IllegalArgumentException("SuperLink address '" + shown.replaceAll("\\p{Cntrl}", "?")
        + "': " + why + " (expected HOST:PORT)");
  }

  /** The host as a URI or gRPC target writes it: IPv6 in brackets. */
  public String uriHost() {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  @Override
  public String toString() {
    return uriHost() + ":" + port;
  }
}
