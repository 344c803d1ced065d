package io.tributary.flower.fleet.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.CertificateException;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

/**
 * Tells whether an address speaks TLS, so that a node told to talk plain text to a TLS SuperLink
 * can say so instead of retrying a connection that cannot work. It offers a TLS handshake with
 * the JDK's default trust and sends nothing else: a completed handshake, or one refused over the
 * server's certificate, means TLS; a server that answers a ClientHello with anything but a
 * ServerHello (plain HTTP, plain HTTP/2) or closes does not.
 */
public final class TlsProbe {
  private TlsProbe() {}

  /** What a probe found. */
  public enum Result {
    /** The handshake completed, or failed over the server's certificate. */
    TLS,
    /** The server answered, but not with TLS. */
    NOT_TLS,
    /** Nothing to tell: no connection, or no answer in time. */
    UNREACHABLE
  }

  /** Whether {@code address} completes a TLS handshake up to its certificate. */
  public static Result probe(HostPort address, Duration timeout) {
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    try (SSLSocket s = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket()) {
      try {
        s.connect(new InetSocketAddress(address.host(), address.port()), millis);
      } catch (IOException e) {
        return Result.UNREACHABLE;
      }
      s.setSoTimeout(millis);
      s.startHandshake();
      return Result.TLS;
    } catch (SSLException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof CertificateException) {
          return Result.TLS;
        }
      }
      return Result.NOT_TLS;
    } catch (java.net.SocketTimeoutException e) {
      return Result.UNREACHABLE;
    } catch (IOException | java.security.NoSuchAlgorithmException e) {
      return Result.NOT_TLS;
    }
  }
}
