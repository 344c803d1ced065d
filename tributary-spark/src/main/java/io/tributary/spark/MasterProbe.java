package io.tributary.spark;

import io.tributary.simulation.engine.EngineUnavailableException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Checks, before Spark starts an application, that a standalone master's address answers in
 * Spark's RPC protocol, so that a wrong URL (nothing listening, another service, a server
 * speaking garbage) fails in one line within seconds, instead of after Spark's registration
 * retries (three of 20 s) with Netty's and Spark's stack traces in the log.
 *
 * <p>It asks for a stream that does not exist, the one request a Spark RPC server answers without
 * a Spark client's handshake: a frame of Spark's transport protocol (an 8-byte length that
 * counts itself, a 1-byte message type, the message), here a {@code StreamRequest} (type 6)
 * whose answer must be a {@code StreamFailure} (type 8) naming the same stream. Nothing else is
 * read from the server, and at most {@link #MAX_REPLY} bytes of it.
 */
final class MasterProbe {
  private static final int STREAM_REQUEST = 6;
  private static final int STREAM_FAILURE = 8;
  /** A StreamFailure's answer to our request is well under this. */
  private static final int MAX_REPLY = 64 * 1024;
  private static final String STREAM = "/files/tributary-probe";

  private MasterProbe() {}

  /**
   * Connects to {@code host:port} and checks that it answers as a Spark RPC server.
   *
   * @param millis the bound on connecting and on waiting for the answer, each
   * @throws EngineUnavailableException naming the address and what was wrong, in one line
   */
  static void check(String host, int port, int millis) {
    String where = host + ":" + port;
    try (Socket s = new Socket()) {
      try {
        s.connect(new InetSocketAddress(host, port), millis);
      } catch (IOException e) {
        throw new EngineUnavailableException("cannot reach the Spark master at " + where + " ("
            + e.getMessage() + "); start one with tributary spark-cluster start, or check the "
            + "URL", e);
      }
      s.setSoTimeout(millis);
      byte[] id = STREAM.getBytes(StandardCharsets.US_ASCII);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeLong(8 + 1 + 4 + id.length);
      out.writeByte(STREAM_REQUEST);
      out.writeInt(id.length);
      out.write(id);
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      long length = in.readLong();
      if (length < 8 + 1 + 4 + id.length || length > MAX_REPLY) {
        throw notSpark(where, "its answer opens with a frame length of " + length);
      }
      int type = in.readUnsignedByte();
      if (type != STREAM_FAILURE) {
        throw notSpark(where, "its answer is of message type " + type);
      }
      int n = in.readInt();
      if (n != id.length) {
        throw notSpark(where, "its answer names another request");
      }
      byte[] echoed = new byte[n];
      in.readFully(echoed);
      if (!java.util.Arrays.equals(echoed, id)) {
        throw notSpark(where, "its answer names another request");
      }
    } catch (SocketTimeoutException e) {
      throw notSpark(where, "it did not answer within " + millis / 1000 + " s");
    } catch (EOFException e) {
      throw notSpark(where, "it closed the connection without a complete answer");
    } catch (IOException e) {
      throw notSpark(where, "the connection failed: " + e.getMessage());
    }
  }

  private static EngineUnavailableException notSpark(String where, String why) {
    return new EngineUnavailableException("the server at " + where + " does not answer as a "
        + "Spark master (" + why + "); check the URL (spark://HOST:PORT of the master's RPC "
        + "port, 7077 by default, not its web UI)", null);
  }
}
