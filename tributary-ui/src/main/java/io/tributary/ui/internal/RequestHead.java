package io.tributary.ui.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The request line and headers of an HTTP/1.x request, read with a bound on their size before
 * anything is kept: the page serves GET and HEAD only, so a request never has a body.
 *
 * @param method the method, as sent
 * @param path the target's path, without the query
 * @param query the target's query, without the {@code ?}; empty when none
 * @param headers the headers by lower-case name; a repeated header's values joined by {@code ", "}
 *     ({@code "; "} for cookies)
 */
public record RequestHead(String method, String path, String query, Map<String, String> headers) {
  /** Headers a request may have at most. */
  static final int MAX_HEADERS = 64;

  /** Copies the headers. */
  public RequestHead {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** A request the page refuses before routing it, with the status it answers. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    Refused(int status, String message) {
      super(message);
      this.status = status;
    }

    /** The HTTP status to answer with. */
    public int status() {
      return status;
    }
  }

  /**
   * Reads a request head from {@code in}: the bytes up to the first empty line.
   *
   * @param maxBytes the head's size at most, line ends included
   * @param deadline the {@link System#nanoTime} by which the whole head must have come, so that
   *     a client sending a byte now and then cannot hold a connection for long
   * @throws Refused with 431 for a head over {@code maxBytes} or with too many headers, 400 for
   *     one that is not HTTP/1.x, 505 for another HTTP version
   * @throws SocketTimeoutException when the deadline passes first
   * @throws IOException when the connection ends first
   */
  public static RequestHead read(InputStream in, int maxBytes, long deadline)
      throws IOException, Refused {
    byte[] buf = new byte[maxBytes];
    int n = 0;
    int lineStart = 0;
    while (true) {
      if (System.nanoTime() - deadline > 0) {
        throw new SocketTimeoutException("the request head took too long");
      }
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection ended inside the request head");
      }
      if (n == maxBytes) {
        throw new Refused(431, "the request head is over " + maxBytes + " bytes");
      }
      buf[n++] = (byte) b;
      if (b == '\n') {
        int len = n - lineStart;
        boolean empty = len == 1 || (len == 2 && buf[lineStart] == '\r');
        if (empty && lineStart > 0) {
          break;
        }
        if (empty) {
          // A stray line end before the request line is tolerated (RFC 9112, 2.2).
          n = 0;
        }
        lineStart = n;
      }
    }
    String text = new String(buf, 0, n, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r?\n");
    String[] start = lines[0].split(" ", -1);
    if (start.length != 3 || start[0].isEmpty() || !start[0].chars().allMatch(
        c -> c >= 'A' && c <= 'Z') || !start[1].startsWith("/")) {
      throw new Refused(400, "not an HTTP request line");
    }
    if (!start[2].equals("HTTP/1.1") && !start[2].equals("HTTP/1.0")) {
      throw new Refused(start[2].startsWith("HTTP/") ? 505 : 400,
          "HTTP/1.0 and HTTP/1.1 only");
    }
    if (lines.length - 1 > MAX_HEADERS) {
      throw new Refused(431, "over " + MAX_HEADERS + " headers");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      int colon = line.indexOf(':');
      if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t'
          || line.substring(0, colon).contains(" ")) {
        throw new Refused(400, "a header line without a name");
      }
      String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (name.equals("host") && headers.containsKey("host")) {
        throw new Refused(400, "two Host headers");
      }
      headers.merge(name, value, (a, b) -> a + (name.equals("cookie") ? "; " : ", ") + b);
    }
    String target = start[1];
    int q = target.indexOf('?');
    return new RequestHead(start[0], q < 0 ? target : target.substring(0, q),
        q < 0 ? "" : target.substring(q + 1), headers);
  }

  /** The header {@code name} (lower case), or the empty string. */
  public String header(String name) {
    return headers.getOrDefault(name, "");
  }
}
